/* test-cli-options.c — the command's options come from the engine's tables:
 * `flitlab sim --help` lists every simulation setting, `sweep --help` those
 * of the flit-level model, `route --help` every routing option; a bad value
 * of any of them is refused with status 2 and a message naming the flag; a
 * routing option the routing does not take is refused by name. Iterates
 * the tables, so a new row is checked without touching this test.
 * Usage: test-cli-options path/to/flitlab */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "flitlab.h"
#include "tap.h"

static const char *flitlab;

/* Runs `flitlab ARGS` (args already quoted for the shell); keeps stdout
 * or stderr in out and returns the exit status. */
static int run(char *out, size_t len, int want_stderr, const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s %s", flitlab, args,
             want_stderr ? "2>&1 >/dev/null" : "2>/dev/null");
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    if (!p)
        return -1;
    while (n + 1 < len) {
        size_t got = fread(out + n, 1, len - 1 - n, p);
        if (got == 0)
            break;
        n += got;
    }
    out[n] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Whether help has a line for --flag. */
static int lists(const char *help, const char *flag)
{
    char pattern[128];
    snprintf(pattern, sizeof pattern, "--%s ", flag);
    for (const char *s = strstr(help, pattern); s; s = strstr(s + 1, pattern))
        if (s == help || s[-1] == ' ')
            return 1;
    snprintf(pattern, sizeof pattern, "--%s\n", flag);
    return strstr(help, pattern) != NULL;
}

/* A value each kind of option refuses, or NULL when any text is valid. */
static const char *bad_value(const FlOptionInfo *o, char *buf, size_t len)
{
    switch (o->type) {
    case FL_OPTION_INT:
    case FL_OPTION_INT64:
        snprintf(buf, len, "%lld", (long long)o->min_int - 1);
        return buf;
    case FL_OPTION_DOUBLE:
        return "lots";
    case FL_OPTION_ENUM:
        return "no-such-choice";
    case FL_OPTION_COMPOSITE:
        return "1:x";
    case FL_OPTION_FLAG:
    case FL_OPTION_STRING:
        return NULL;
    }
    return NULL;
}

static char help_sim[32768], help_sweep[32768], help_route[32768];

static void test_help(void)
{
    CHECK(run(help_sim, sizeof help_sim, 0, "sim --help") == 0, "sim --help");
    CHECK(run(help_sweep, sizeof help_sweep, 0, "sweep --help") == 0, "sweep --help");
    CHECK(run(help_route, sizeof help_route, 0, "route --help") == 0, "route --help");
    for (int i = 0; i < fl_sim_settings_key_count(); i++) {
        const FlOptionInfo *o = fl_sim_settings_key(i);
        CHECK(lists(help_sim, o->name), "sim --help lists --%s", o->name);
        int swept = (o->models & FL_OPTION_FOR_FLIT) && strcmp(o->name, "rate") != 0
                    && strcmp(o->name, "mode") != 0;
        CHECK(lists(help_sweep, o->name) == swept, "sweep --help %s --%s",
              swept ? "lists" : "leaves out", o->name);
        /* The engine's help text is what the line says. */
        CHECK(strstr(help_sim, o->help) != NULL, "sim --help explains --%s: %s", o->name,
              o->help);
    }
    for (int i = 0; i < fl_routing_option_count(); i++) {
        const FlOptionInfo *o = fl_routing_option(i);
        const char *in_route = strcmp(o->name, "classes") == 0 ? "vcs" : o->name;
        CHECK(lists(help_route, in_route), "route --help lists --%s", in_route);
        CHECK(lists(help_sim, o->name) || strcmp(o->name, "classes") != 0,
              "sim --help lists --%s", o->name);
        CHECK(strstr(help_route, o->help) != NULL, "route --help explains --%s", in_route);
    }
    CHECK(strstr(help_sim, "(default credits)") || strstr(help_sim, "default credits)"),
          "sim --help shows the command's default selection, credits");
}

static void test_refusals(void)
{
    char err[4096], args[512], buf[64];
    for (int i = 0; i < fl_sim_settings_key_count(); i++) {
        const FlOptionInfo *o = fl_sim_settings_key(i);
        const char *bad = bad_value(o, buf, sizeof buf);
        if (!bad)
            continue;
        snprintf(args, sizeof args, "sim mesh:4x4 --routing dor%s --%s '%s'",
                 o->models & FL_OPTION_FOR_FLIT         ? ""
                 : o->models & FL_OPTION_FOR_DEFLECTION ? " --mode deflection"
                                                        : " --mode multicast",
                 o->name, bad);
        int status = run(err, sizeof err, 1, args);
        CHECK(status == 2 && strncmp(err, "flitlab: ", 9) == 0 && strstr(err, o->name)
                  && strstr(err, bad) && strchr(err, '\n') == err + strlen(err) - 1,
              "--%s '%s': status %d, one line naming both: %s", o->name, bad, status, err);
    }
    for (int i = 0; i < fl_routing_option_count(); i++) {
        const FlOptionInfo *o = fl_routing_option(i);
        const char *flag = strcmp(o->name, "classes") == 0 ? "vcs" : o->name;
        const char *bad = bad_value(o, buf, sizeof buf);
        snprintf(args, sizeof args, "route mesh:4x4 --routing dor --%s '%s'", flag, bad);
        int status = run(err, sizeof err, 1, args);
        CHECK(status == 2 && strstr(err, flag) && strstr(err, bad),
              "route --%s '%s': status %d: %s", flag, bad, status, err);
        /* A value it takes, for a routing that takes no such option. */
        snprintf(args, sizeof args, "route mesh:4x4 --routing shortest --%s '%s'", flag,
                 strcmp(o->name, "prohibit") == 0 ? "0:0>1" : strcmp(o->name, "order") == 0
                                                                 ? "yx"
                                                                 : "1");
        status = run(err, sizeof err, 1, args);
        CHECK(status == 2 && strstr(err, flag) && strstr(err, "shortest takes no"),
              "route --routing shortest --%s: status %d: %s", flag, status, err);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test-cli-options path/to/flitlab\n");
        return 2;
    }
    flitlab = argv[1];
    test_help();
    test_refusals();
    return tap_done();
}
