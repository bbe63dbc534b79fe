/* options.c — one table-driven parser and help printer for every subcommand. */
#define _XOPEN_SOURCE 700   /* wcwidth() */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "modules.h"

/* The columns s takes on a terminal: a Korean or Japanese character takes
 * two, a combining mark none; bytes the locale cannot decode count one. */
static int display_width(const char *s)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t len = strlen(s);
    int cols = 0;
    while (len > 0) {
        wchar_t wc;
        size_t k = mbrtowc(&wc, s, len, &st);
        if (k == (size_t)-1 || k == (size_t)-2) {
            memset(&st, 0, sizeof st);
            k = 1;
            cols++;
        } else if (k == 0) {
            break;
        } else {
            int w = wcwidth(wc);
            cols += w > 0 ? w : 0;
        }
        s += k;
        len -= k;
    }
    return cols;
}

/* label padded with spaces to width display columns, on the right (a row's
 * label) or on the left (a column's heading over numbers). */
static const char *padded(const char *label, int width, int right_aligned)
{
    /* A few at a time, so that one printf() can take several. */
    static char buf[8][256];
    static int next;
    char *out = buf[next++ % 8];
    int cols = display_width(label), pad = cols < width ? width - cols : 0;
    if (right_aligned)
        snprintf(out, sizeof buf[0], "%*s%s", pad, "", label);
    else
        snprintf(out, sizeof buf[0], "%s%*s", label, pad, "");
    return out;
}

const char *cli_label(const char *label, int width)
{
    return padded(label, width, 0);
}

const char *cli_heading(const char *heading, int width)
{
    return padded(heading, width, 1);
}

int cli_error(int status, const char *fmt, ...)
{
    va_list ap;
    fputs(_("flitlab: "), stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return status;
}

int cli_option_error(const FlError *err, const char *engine_name, const char *flag)
{
    size_t len = strlen(engine_name);
    const char *m = err->message[0] ? err->message : fl_strerror(err->code);
    if (strncmp(m, engine_name, len) == 0 && (m[len] == ' ' || m[len] == ':'))
        return cli_error(CLI_USAGE, "--%s%s", flag, m + len);
    return cli_error(CLI_USAGE, "%s", m);
}

int cli_engine_error(const FlError *err)
{
    if (err->message[0])
        return cli_error(CLI_FAIL, "%s", err->message);
    return cli_error(CLI_FAIL, "%s", fl_strerror(err->code));
}

void cli_add_option(CliOptions *opts, const char *name, char letter, const char *arg,
                    const char *help_fmt, ...)
{
    if (opts->n >= CLI_MAX_OPTIONS)
        return;
    va_list ap;
    va_start(ap, help_fmt);
    vsnprintf(opts->help[opts->n], CLI_HELP_MAX, help_fmt, ap);
    va_end(ap);
    opts->list[opts->n] = (CliOption){ name, letter, arg, opts->help[opts->n] };
    opts->n++;
    opts->list[opts->n] = (CliOption){ 0 };
}

/* The largest number of choices a help line lists; more are listed apart
 * (the traffic patterns) or described by the help itself. */
#define MAX_LISTED_CHOICES 6

void cli_add_engine_option(CliOptions *opts, const FlOptionInfo *o, const char *flag,
                           char letter, const char *dflt)
{
    /* "(a, b or c; default a)": the choices, then the default, unless the
     * help explains it (an unset word such as auto) or its name says it. */
    char tail[320] = "";
    size_t used = 0;
    int n = fl_option_choice_count(o);
    for (int i = 0; n >= 2 && n <= MAX_LISTED_CHOICES && i < n && used < sizeof tail; i++)
        /* TRANSLATORS: " or " joins the last two choices of a list: "a, b or c" */
        used += (size_t)snprintf(tail + used, sizeof tail - used, "%s%s",
                                 i == 0 ? "" : i + 1 == n ? _(" or ") : ", ",
                                 fl_option_choice(o, i));
    if (dflt && *dflt && o->type != FL_OPTION_FLAG && strcmp(dflt, "default") != 0
        && !(o->unset && strcmp(dflt, o->unset) == 0) && used < sizeof tail)
        used += (size_t)snprintf(tail + used, sizeof tail - used,
                                 used ? _("; default %s") : _("default %s"), dflt);
    /* The engine's help is a msgid of the same domain (FL_N_ in its tables). */
    cli_add_option(opts, flag ? flag : o->name, letter,
                   o->type == FL_OPTION_FLAG ? NULL : o->arg, "%s%s%s%s", fl_gettext(o->help),
                   used ? " (" : "", tail, used ? ")" : "");
}

void cli_expand_options(const CliCommand *cmd, CliOptions *opts)
{
    opts->n = 0;
    opts->list[0] = (CliOption){ 0 };
    if (cmd->generate)
        cmd->generate(opts);
    for (const CliOption *o = cmd->options; o && o->name; o++)
        cli_add_option(opts, o->name, o->letter, o->arg, "%s", _(o->help));
}

static void print_help(const CliCommand *cmd, const CliOptions *opts, FILE *to)
{
    fprintf(to, _("Usage: flitlab %s %s\n\n%s\n"), cmd->name, cmd->usage, _(cmd->summary));
    if (cmd->more)
        fprintf(to, "%s\n", _(cmd->more));
    fprintf(to, _("\nOptions:\n"));
    for (const CliOption *o = opts->list; o->name; o++) {
        char left[64];
        if (o->letter)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->letter, o->name,
                     o->arg ? " " : "", o->arg ? o->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
        fprintf(to, "  %-26s %s\n", left, o->help);
    }
    fprintf(to, "  %-26s %s\n", "-h, --help", _("show this help and exit"));
}

void cli_print_help(const CliCommand *cmd, FILE *to)
{
    CliOptions opts;
    cli_expand_options(cmd, &opts);
    print_help(cmd, &opts, to);
}

static int find_option(const CliOptions *opts, const char *name, size_t len, char letter)
{
    int i = 0;
    for (const CliOption *o = opts->list; o->name; o++, i++) {
        if (letter ? o->letter == letter
                   : strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return i;
    }
    return -1;
}

int cli_parse(const CliCommand *cmd, int argc, char **argv, CliParsed *out)
{
    memset(out, 0, sizeof *out);
    cli_expand_options(cmd, &out->opts);
    int only_args = 0;
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i];
        if (only_args || w[0] != '-' || strcmp(w, "-") == 0) {
            if (out->nargs >= cmd->max_args || out->nargs >= CLI_MAX_ARGS)
                return cli_error(CLI_USAGE, _("%s: unexpected argument '%s' (see --help)"),
                                 cmd->name, w);
            out->args[out->nargs++] = w;
            continue;
        }
        if (strcmp(w, "--") == 0) {
            only_args = 1;
            continue;
        }
        if (strcmp(w, "--help") == 0 || strcmp(w, "-h") == 0) {
            print_help(cmd, &out->opts, stdout);
            return -1;
        }
        int idx;
        const char *inline_value = NULL;
        if (w[1] == '-') {
            const char *name = w + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            idx = find_option(&out->opts, name, len, 0);
            if (eq)
                inline_value = eq + 1;
        } else {
            idx = w[2] == '\0' ? find_option(&out->opts, NULL, 0, w[1]) : -1;
        }
        if (idx < 0)
            return cli_error(CLI_USAGE, _("%s: unknown option '%s' (see --help)"), cmd->name, w);
        const CliOption *o = &out->opts.list[idx];
        /* One value an option: a second would silently replace the first. */
        if (out->values[idx])
            return cli_error(CLI_USAGE, _("%s: option --%s is given twice"), cmd->name, o->name);
        if (!o->arg) {
            if (inline_value)
                return cli_error(CLI_USAGE, _("%s: option --%s takes no value"), cmd->name,
                                 o->name);
            out->values[idx] = "1";
        } else if (inline_value) {
            out->values[idx] = inline_value;
        } else if (i + 1 < argc) {
            out->values[idx] = argv[++i];
        } else {
            return cli_error(CLI_USAGE, _("%s: option --%s needs a value %s"), cmd->name,
                             o->name, o->arg);
        }
    }
    if (out->nargs < cmd->min_args)
        return cli_error(CLI_USAGE, _("%s: missing argument (usage: flitlab %s %s)"), cmd->name,
                         cmd->name, cmd->usage);
    return CLI_OK;
}

const char *cli_value(const CliCommand *cmd, const CliParsed *p, const char *name)
{
    (void)cmd;
    int idx = find_option(&p->opts, name, strlen(name), 0);
    return idx < 0 ? NULL : p->values[idx];
}

int cli_flag(const CliCommand *cmd, const CliParsed *p, const char *name)
{
    return cli_value(cmd, p, name) != NULL;
}

const char *cli_given(const CliCommand *cmd, const CliParsed *p, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (cli_value(cmd, p, names[i]))
            return names[i];
    return NULL;
}

int cli_int_value(const char *option, const char *text, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max)
        return cli_error(CLI_USAGE, _("--%s needs a whole number from %ld to %ld, not '%s'"),
                         option, min, max, text);
    *out = v;
    return CLI_OK;
}

int cli_run_single(const CliCommand *cmd, CliRunFunc run, void (*more_help)(FILE *to),
                   int argc, char **argv)
{
    CliParsed p;
    int rc = cli_parse(cmd, argc, argv, &p);
    if (rc < 0) {
        /* cli_parse() has printed the command's own help. */
        if (more_help)
            more_help(stdout);
        return CLI_OK;
    }
    return rc ? rc : run(cmd, &p);
}

static const char *last_word(const char *s)
{
    const char *sp = strrchr(s, ' ');
    return sp ? sp + 1 : s;
}

static void print_group_help(const char *group, const char *summary, const CliSub *subs,
                             FILE *to)
{
    fprintf(to, _("Usage: flitlab %s COMMAND [OPTIONS]\n\n%s\n\nCommands:\n"), group, summary);
    for (const CliSub *s = subs; s->cmd; s++)
        fprintf(to, "  %-10s %s\n", last_word(s->cmd->name), _(s->cmd->summary));
    fprintf(to, _("\nRun 'flitlab %s COMMAND --help' for a command's options.\n"), group);
}

int cli_run_group(const char *group, const char *summary, const CliSub *subs, int argc,
                  char **argv)
{
    if (argc < 1) {
        print_group_help(group, summary, subs, stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0
        || strcmp(argv[0], "help") == 0) {
        print_group_help(group, summary, subs, stdout);
        return CLI_OK;
    }
    for (const CliSub *s = subs; s->cmd; s++)
        if (strcmp(argv[0], last_word(s->cmd->name)) == 0)
            return cli_run_single(s->cmd, s->run, NULL, argc - 1, argv + 1);
    return cli_error(CLI_USAGE, _("unknown command '%s %s' (see 'flitlab %s --help')"), group,
                     argv[0], group);
}

#ifdef FL_HAVE_CAIRO
const char *const cli_page_option_names[] = { "width", "height", "dpi", "title", NULL };

int cli_page_options(const CliCommand *cmd, const CliParsed *p, const CliPicturesModule *draw,
                     FlDrawPage *page)
{
    long width = 1200, height = 900, dpi = 96;
    const char *s;
    draw->page_init(page);
    if ((s = cli_value(cmd, p, "width")) && cli_int_value("width", s, 16, 16384, &width))
        return CLI_USAGE;
    if ((s = cli_value(cmd, p, "height")) && cli_int_value("height", s, 16, 16384, &height))
        return CLI_USAGE;
    if ((s = cli_value(cmd, p, "dpi")) && cli_int_value("dpi", s, 24, 2400, &dpi))
        return CLI_USAGE;
    page->width = (int)width;
    page->height = (int)height;
    page->dpi = (double)dpi;
    page->title = cli_value(cmd, p, "title");
    return CLI_OK;
}
#endif
