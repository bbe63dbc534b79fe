/* cmd-topo.c — `flitlab topo`: generate, measure and export topologies. */
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "flitlab-io.h"
#include "modules.h"

/* ---- topo metrics ------------------------------------------------------- */

static const CliOption metrics_options[] = {
    { "json", 0, NULL, N_("print one JSON object instead of a table") },
    { "seed", 0, "S", N_("seed for the METIS bisection bound (default 1)") },
    { "progress", 0, NULL, N_("show progress on standard error (the default on a terminal)") },
    { 0 },
};

/* --exact-max comes from the engine's table, with its range and default. */
static void metrics_generate(CliOptions *opts)
{
    const FlOptionInfo *o;
    for (int i = 0; (o = fl_metrics_option(i)); i++)
        cli_add_engine_option(opts, o, NULL, 0, o->dflt);
}

static const CliCommand metrics_cmd = {
    "topo metrics", "SPEC|FILE|PROJECT.flitlab#NAME [--json]",
    N_("Measure a network: size, switch degree, diameter, mean distance (paper 003\n"
    "eq. 5), the distance histogram N(k), bisection width and paper 003's bottleneck\n"
    "bound on uniform-traffic throughput. Distances are between switches. A long\n"
    "measurement reports its progress; Ctrl+C stops it (exit status 130)."),
    metrics_options, 1, 1, metrics_generate,
};

static json_t *metrics_json(const FlTopology *t, const FlMetrics *m)
{
    json_t *hist = json_array();
    for (int k = 0; k < m->histogram_len; k++)
        json_array_append_new(hist, json_integer(m->distance_histogram[k]));
    const char *spec = fl_topology_spec(t);
    return json_pack("{s:o, s:s, s:i, s:i, s:i, s:i, s:i, s:b, s:o, s:f, s:o, s:i, s:b,"
                     " s:s, s:f}",
                     "spec", spec ? json_string(spec) : json_null(),
                     "family", fl_topology_family(t),
                     "switches", m->switches, "hosts", m->hosts, "links", m->links,
                     "degree_min", m->degree_min, "degree_max", m->degree_max,
                     "connected", m->connected,
                     "diameter", m->connected ? json_integer(m->diameter) : json_null(),
                     "mean_distance", m->mean_distance,
                     "distance_histogram", hist,
                     "bisection_width", m->bisection_width,
                     "bisection_exact", m->bisection_method == FL_BISECTION_EXHAUSTIVE
                                            || m->bisection_method == FL_BISECTION_CLOSED_FORM,
                     "bisection_method", fl_bisection_method_name(m->bisection_method),
                     "throughput_bound", m->throughput_bound);
}

static void print_metrics_table(const FlTopology *t, const FlMetrics *m)
{
    const char *spec = fl_topology_spec(t);
    printf("%s %s\n", cli_label(_("topology"), 18), spec ? spec : fl_topology_family(t));
    printf("%s %d\n", cli_label(_("switches"), 18), m->switches);
    printf("%s %d\n", cli_label(_("hosts"), 18), m->hosts);
    printf("%s %d\n", cli_label(_("links"), 18), m->links);
    printf("%s %d .. %d\n", cli_label(_("switch degree"), 18), m->degree_min, m->degree_max);
    if (m->connected) {
        printf("%s %d\n", cli_label(_("diameter"), 18), m->diameter);
        printf("%s %.6f\n", cli_label(_("mean distance"), 18), m->mean_distance);
    } else {
        printf(_("%s not connected\n"), cli_label(_("diameter"), 18));
    }
    const char *how = m->bisection_method == FL_BISECTION_METIS ? _("upper bound from METIS")
                      : m->bisection_method == FL_BISECTION_CLOSED_FORM ? _("exact, closed form")
                      : m->bisection_method == FL_BISECTION_EXHAUSTIVE ? _("exact, by search")
                                                                       : _("not computed");
    printf("%s %d (%s)\n", cli_label(_("bisection width"), 18), m->bisection_width, how);
    printf(_("%s %.4f messages per unit time (paper 003 eq. 13)\n"),
           cli_label(_("throughput bound"), 18), m->throughput_bound);
    printf("%s", cli_label(_("distance N(k)"), 18));
    for (int k = 0; k < m->histogram_len; k++)
        printf(" %d:%lld", k, (long long)m->distance_histogram[k]);
    printf("\n");
}

/* Ctrl+C during a measurement: the engine hears it at its next progress
 * report (every few milliseconds) and stops; nothing has been printed yet,
 * so nothing is left half written. The status is the shell's for a command
 * killed by SIGINT. */
#define CLI_INTERRUPTED 130

/* A signal handler can only set a flag of this type; it is the CLI's one
 * piece of state outside a call, installed only while a measurement runs. */
static volatile sig_atomic_t metrics_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    metrics_interrupted = 1;
}

/* Progress is shown once a measurement has taken this long, and then at
 * most once per this interval, so quick ones print nothing. */
#define PROGRESS_INTERVAL_S 1.0

typedef struct MetricsProgress {
    int show;            /* --progress, or stderr is a terminal */
    int tty;             /* rewrite one line in place, else a line each time */
    int shown;           /* a line has been printed */
    double start, last;  /* seconds, monotonic */
    double fraction;
} MetricsProgress;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int metrics_progress(void *data, double fraction)
{
    MetricsProgress *mp = data;
    mp->fraction = fraction;
    if (metrics_interrupted)
        return 1;
    double t = now_s();
    if (!mp->show || t - mp->last < PROGRESS_INTERVAL_S)
        return 0;
    mp->last = t;
    /* A tenth of a percent: the distances of a million switches take
     * hours, and a whole percent minutes. */
    fprintf(stderr, _("%stopo metrics: %5.1f%% done after %.0f s (Ctrl+C stops)%s"),
            mp->tty ? "\r" : "", 100.0 * fraction, t - mp->start, mp->tty ? "" : "\n");
    fflush(stderr);
    mp->shown = 1;
    return 0;
}

/* fl_metrics_compute() with progress on stderr and Ctrl+C as a cancel. A
 * SIGINT that was ignored when the command started stays ignored. */
static int compute_interruptible(const FlTopology *t, FlMetricsOptions *opt, int show,
                                 FlMetrics *m, FlError *err)
{
    MetricsProgress mp = { .show = show || isatty(STDERR_FILENO), .tty = isatty(STDERR_FILENO),
                           .start = now_s() };
    mp.last = mp.start;
    opt->progress = metrics_progress;
    opt->progress_data = &mp;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    metrics_interrupted = 0;
    int caught = sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN
                 && sigaction(SIGINT, &sa, NULL) == 0;
    int rc = fl_metrics_compute(t, opt, m, err);
    if (caught)
        sigaction(SIGINT, &old, NULL);
    if (mp.shown && mp.tty)
        fputs("\n", stderr);
    if (rc == FL_ECANCELLED && metrics_interrupted)
        return cli_error(CLI_INTERRUPTED, _("cancelled after %.0f s, %.1f%% done: no result"),
                         now_s() - mp.start, 100.0 * mp.fraction);
    return rc ? cli_engine_error(err) : CLI_OK;
}

static int run_metrics(const CliCommand *cmd, const CliParsed *p)
{
    FlMetricsOptions opt = { 0 };
    FlError err = { 0 };
    long v;
    const char *s;
    opt.seed = 1;
    if ((s = cli_value(cmd, p, "exact-max"))
        && fl_metrics_options_set(&opt, "exact-max", s, &err))
        return cli_option_error(&err, "exact-max", "exact-max");
    if ((s = cli_value(cmd, p, "seed"))) {
        if (cli_int_value("seed", s, 0, 2147483647L, &v))
            return CLI_USAGE;
        opt.seed = (uint64_t)v;
    }

    FlTopology *t = NULL;
    if (cli_load_topology(p->args[0], &t, &err))
        return cli_engine_error(&err);
    FlMetrics m = { 0 };
    int rc = compute_interruptible(t, &opt, cli_flag(cmd, p, "progress"), &m, &err);
    if (rc) {
        fl_topology_free(t);
        return rc;
    }
    if (cli_flag(cmd, p, "json"))
        rc = cli_write_json(metrics_json(t, &m), stdout);
    else
        print_metrics_table(t, &m);
    fl_metrics_clear(&m);
    fl_topology_free(t);
    return rc;
}

/* ---- topo export -------------------------------------------------------- */

static const CliOption export_options[] = {
#ifdef FL_HAVE_CAIRO
    { "format", 'f', "FORMAT",
      N_("json, dot, anynet, png, svg or pdf (default: from OUT's extension)") },
#else
    { "format", 'f', "FORMAT", N_("json, dot or anynet (default: from OUT's extension)") },
#endif
    { "output", 'o', "OUT", N_("file to write (required; a regular file is replaced only "
                               "once complete)") },
#ifdef FL_HAVE_CAIRO
    { "width", 0, "W", N_("picture width in pixels or points (default 1200)") },
    { "height", 0, "H", N_("picture height in pixels or points (default 900)") },
    { "dpi", 0, "DPI",
      N_("PNG resolution: lines and type drawn DPI/96 times as large (default 96)") },
    { "title", 0, "TEXT", N_("a title drawn at the top of the picture") },
#endif
    { 0 },
};

static const CliCommand export_cmd = {
    "topo export", "SPEC|FILE|PROJECT.flitlab#NAME --format FORMAT -o OUT",
#ifdef FL_HAVE_CAIRO
    N_("Write a network as Flitlab JSON, Graphviz DOT or a BookSim 2 anynet file,\n"
       "or draw it as a PNG, SVG or PDF picture. Nothing is written if anything fails."),
#else
    N_("Write a network as Flitlab JSON, Graphviz DOT or a BookSim 2 anynet file.\n"
       "Nothing is written if anything fails."),
#endif
    export_options, 1, 1,
};

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot + 1 : NULL;
}

#ifndef FL_HAVE_CAIRO
/* Whether format names a picture: known here only to say that this build
 * cannot draw them; matched in any case, as the drawing library and the
 * file formats do. */
static int is_picture(const char *format)
{
    return strcasecmp(format, "png") == 0 || strcasecmp(format, "svg") == 0
           || strcasecmp(format, "pdf") == 0;
}
#endif

static int run_export(const CliCommand *cmd, const CliParsed *p)
{
    const char *out = cli_value(cmd, p, "output");
    if (!out)
        return cli_error(CLI_USAGE, _("topo export: say where to write with -o OUT"));
    const char *format = cli_value(cmd, p, "format");
    if (!format)
        format = extension(out);
    if (!format)
        return cli_error(CLI_USAGE, _("topo export: cannot tell the format of '%s': "
                                    "give --format"), out);

    FlFileFormat ff = fl_io_format_from_name(format);
#ifdef FL_HAVE_CAIRO
    /* Any other name is a picture's if the drawing library says so, so that
     * this command and fl_draw_export() cannot disagree (format is given, so
     * the path argument only has to be non-empty). */
    const CliPicturesModule *draw = NULL;
    if (ff == FL_FORMAT_UNKNOWN) {
        if (!(draw = cli_pictures()))
            return CLI_FAIL;
        if (draw->check_format(format, format, NULL) != FL_OK)
            return cli_error(CLI_USAGE, _("topo export: unknown format '%s' (known: json, dot, "
                                        "anynet%s)"), format, ", png, svg, pdf");
    }
    const char *drawn = draw ? NULL : cli_given(cmd, p, cli_page_option_names);
    if (drawn)
        return cli_error(CLI_USAGE, _("--%s goes with a picture (png, svg or pdf), not %s"),
                         drawn, format);
    FlDrawPage page = { 0 };
    if (draw && cli_page_options(cmd, p, draw, &page))
        return CLI_USAGE;
#else
    if (ff == FL_FORMAT_UNKNOWN && !is_picture(format))
        return cli_error(CLI_USAGE, _("topo export: unknown format '%s' (known: json, dot, "
                                    "anynet%s)"), format, "");
    if (is_picture(format))
        return cli_error(CLI_USAGE, _("topo export: this flitlab was built without cairo, "
                                    "so it cannot draw %s pictures"), format);
#endif

    FlError err = { 0 };
    FlTopology *t = NULL;
    if (cli_load_topology(p->args[0], &t, &err))
        return cli_engine_error(&err);
    int rc;
#ifdef FL_HAVE_CAIRO
    if (draw)
        rc = draw->export_routing_page(t, NULL, &page, out, format, &err);
    else
#endif
        rc = fl_io_write_file(t, ff, out, &err);
    fl_topology_free(t);
    return rc ? cli_engine_error(&err) : CLI_OK;
}

/* ---- topo families ------------------------------------------------------ */

static const CliOption no_options[] = { { 0 } };

static const CliCommand families_cmd = {
    "topo families", "", N_("List the topology generators and their spec syntax."),
    no_options, 0, 0,
};

static int run_families(const CliCommand *cmd, const CliParsed *p)
{
    for (int i = 0; i < fl_family_count(); i++) {
        const FlFamilyInfo *f = fl_family_info(i);
        printf("%-14s %-44s %s\n", f->name, f->syntax, fl_gettext(f->summary));
    }
    return CLI_OK;
}

static const CliSub topo_subs[] = {
    { &metrics_cmd, run_metrics },
    { &export_cmd, run_export },
    { &families_cmd, run_families },
    { 0 },
};

int cli_topo(int argc, char **argv)
{
    return cli_run_group("topo", _("Generate, measure and export topologies."), topo_subs,
                         argc, argv);
}
