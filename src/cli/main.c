/* main.c — `flitlab`: the command-line face of the engine, for batch work.
 * It builds without GTK. Each group of subcommands lives in its own file. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-output.h"
#include "modules.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} groups[] = {
    { "topo", cli_topo, N_("generate, measure and export topologies") },
    { "project", cli_run_project, N_("create and fill .flitlab project files") },
    { "experiment", cli_run_experiment, N_("define and run experiments kept in a project file") },
    { "plot", cli_run_plot,
      N_("plot an experiment's results for a paper (PDF, SVG, PNG, TikZ...)") },
    { "route", cli_route, N_("analyse a routing: deadlock, paths, hops, turns, loads") },
    { "turns", cli_turns, N_("list the turns a routing prohibits at every switch") },
    { "sim", cli_sim, N_("simulate a network flit by flit (or by deflection)") },
    { "sweep", cli_sweep, N_("trace a load-latency curve, one simulation per rate") },
    { "multicast", cli_multicast, N_("build and time a multicast tree, analytic and simulated") },
    { "alltoall", cli_alltoall, N_("complete exchange on an N x N torus, every block tracked") },
    { "schedule", cli_schedule, N_("colour link-contention schedules on Myrinet networks") },
    { "lesson", cli_run_lesson, N_("check and list guided lesson files") },
};

static void usage(FILE *to)
{
    fprintf(to, _("Usage: flitlab COMMAND [ARGS]\n\n"
                "Flitlab, a workbench for interconnection networks.\n\nCommands:\n"));
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        fprintf(to, "  %-10s %s\n", groups[i].name, _(groups[i].summary));
    fprintf(to, _("\nTopologies are given as a spec (mesh:8x8, torus:4x4x4, hypercube:6, ring:16,\n"
                "line:8, xmesh:36x72, dmesh:35x71, irregular:64,ports=4,hosts=4,seed=7,\n"
                "myrinet-line:8, myrinet-mesh:4x8), a file (.json, .anynet; - reads one from\n"
                "standard input) or PROJECT.flitlab#NAME. 'flitlab topo families' lists the\n"
                "generators.\n"
                "\nRun 'flitlab COMMAND --help' for more.\n"));
}

/* Messages in the user's language (LC_MESSAGES, LANGUAGE), text in their
 * encoding (LC_CTYPE); numbers always in the C locale (LC_NUMERIC "C"): the
 * command's output is read by scripts and its number arguments are typed in
 * scripts, and a German locale's decimal comma would break both. The
 * catalogue comes from LOCALEDIR, or from $FLITLAB_LOCALEDIR for a run from
 * the build tree (build/po holds LANG/LC_MESSAGES/flitlab.mo). */
static void setup_locale(void)
{
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
#ifdef FL_ENABLE_NLS
    const char *dir = getenv("FLITLAB_LOCALEDIR");
    bindtextdomain("flitlab", dir && *dir ? dir : LOCALEDIR);
    bind_textdomain_codeset("flitlab", "UTF-8");
    textdomain("flitlab");
#endif
}

/* What coreutils' close_stdout() does: output that never reached its file
 * (a full disk, /dev/full) fails the command, with one line that says so,
 * however the command itself went. */
static int close_stdout(int status)
{
    errno = 0;
    int failed = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    if (!failed)
        return status;
    cli_error(CLI_FAIL, _("cannot write standard output: %s"),
              e ? strerror(e) : _("write error"));
    return status != CLI_OK ? status : CLI_FAIL;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("flitlab %s\n", FL_VERSION_STRING);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (strcmp(argv[1], groups[i].name) == 0)
            return groups[i].run(argc - 2, argv + 2);
    return cli_error(CLI_USAGE, _("unknown command '%s' (see 'flitlab --help')"), argv[1]);
}

int main(int argc, char **argv)
{
    setup_locale();
    /* An interrupted command leaves no temporary output file behind. */
    fl_output_catch_signals();
    return close_stdout(run(argc, argv));
}
