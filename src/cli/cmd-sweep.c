/* cmd-sweep.c — `flitlab sweep`: trace a load-latency curve with one
 * simulation per offered load, run in parallel on a pool of threads, and
 * stop past saturation; the experiment library (src/exp) runs the points. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flitlab-exp.h"
#include "flitlab-io.h"
#include "sim-options.h"

/* Without --max-latency, a sweep stops at the first rate whose mean latency
 * passes this many times the latency at its lowest rate. */
#define DEFAULT_LATENCY_FACTOR 10.0
/* A sweep refuses more points than this (a typo in STEP, most likely). */
#define MAX_SWEEP_POINTS 10000

/* The command's own options; the routing and simulation settings come from
 * the engine's tables (sim_generate_sweep_options). */
static const CliOption sweep_options[] = {
    { "rates", 0, "A:B:STEP", N_("offered loads from A to B (required)") },
    { "format", 'f', "FORMAT", N_("csv (default) or json") },
    { "output", 'o', "OUT", N_("write to OUT instead of standard output (a regular file is "
                               "replaced only once complete)") },
    { "jobs", 'j', "N",
      N_("CPUs to use (default: the online CPUs); a simulation takes --threads of them") },
    { "max-latency", 0, "CYCLES", N_("stop past this mean latency (default 10x the first)") },
    { 0 },
};

static const CliCommand sweep_cmd = {
    "sweep", "SPEC|FILE|PROJECT.flitlab#NAME --routing R --rates A:B:STEP [-f csv|json]",
    N_("Trace a load-latency curve: one simulation per offered load, run in parallel,\n"
    "with progress on standard error. The sweep stops past saturation: no higher\n"
    "rate is run once a point saturates, deadlocks or its mean latency passes the\n"
    "threshold; that point is the last one printed. Rows are ordered by rate."),
    sweep_options, 1, 1, sim_generate_sweep_options,
};

/* cli_parse() keeps one value per option in a fixed array. */
_Static_assert(sizeof sweep_options / sizeof sweep_options[0] <= CLI_MAX_OPTIONS + 1,
               "sweep has more options than CLI_MAX_OPTIONS");

typedef struct SweepPoint {
    double rate;
    int past_saturation;
    FlSimResult res;     /* the scalars only */
} SweepPoint;

/* The offered loads and, once run, their results. */
typedef struct Sweep {
    SweepPoint *points;
    int n;
    double max_latency;  /* 0: DEFAULT_LATENCY_FACTOR times point 0's */
} Sweep;

static int past_saturation(const Sweep *sw, int i)
{
    return sw->points[i].past_saturation;
}

/* A line on stderr as each point ends, in the order they end. */
static void sweep_progress(void *data, const FlExpProgress *p)
{
    const Sweep *sw = data;
    const FlExpResult *pt = p->point;
    if (p->event != FL_EXP_FINISHED || pt->state != FL_EXP_DONE)
        return;
    fprintf(stderr, _("sweep: rate %.4g: %s, latency %.2f, accepted %.4f (%d done)\n"),
            sw->points[pt->index].rate, fl_sim_status_name(pt->sim.status),
            pt->sim.latency_avg, pt->sim.throughput, p->done);
}

/* --rates A:B:STEP into a malloc'd list of points. */
static int parse_rates(const char *text, SweepPoint **out, int *n)
{
    double v[3];
    if (fl_option_split_numbers(text, v, 3) != 3 || v[0] < 0 || v[1] < v[0] || v[1] > 1
        || v[2] <= 0)
        return cli_error(CLI_USAGE, _("--rates needs FROM:TO:STEP with 0 <= FROM <= TO <= 1 "
                                    "and STEP > 0, not '%s'"), text);
    /* The small slack keeps TO itself when STEP does not divide exactly in
     * binary (0.1:0.5:0.1). */
    double count = floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
    if (count > MAX_SWEEP_POINTS)
        return cli_error(CLI_USAGE, _("--rates %s makes more than %d points; take a larger STEP"),
                         text, MAX_SWEEP_POINTS);
    *n = (int)count;
    *out = calloc((size_t)*n, sizeof **out);
    if (!*out)
        return cli_error(CLI_FAIL, _("out of memory for the sweep"));
    /* Each rate from its index, not by adding STEP up, so that no rounding
     * error accumulates; rounded to 12 digits for clean output. */
    for (int i = 0; i < *n; i++)
        (*out)[i].rate = round((v[0] + i * v[2]) * 1e12) / 1e12;
    return CLI_OK;
}

/* What comes first in the output (the CSV header, JSON's opening brace),
 * written before the runs, so that an output that cannot take it fails
 * before them: a device or a pipe tells only when written to. */
static void write_start(FILE *fp, int as_json)
{
    fputs(as_json ? "{" : "rate,status,latency_avg,latency_p50,latency_p99,network_latency_avg,"
                          "throughput,throughput_min,offered,hops_avg,packets,cycles,flit_hops,"
                          "wall_s,past_saturation\n",
          fp);
}

/* The rows after the header. */
static void write_csv(FILE *fp, const Sweep *sw, int last)
{
    for (int i = 0; i <= last; i++) {
        const SweepPoint *pt = &sw->points[i];
        const FlSimResult *r = &pt->res;
        fprintf(fp, "%.10g,%s,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%lld,%lld,%lld,"
                    "%.6g,%d\n",
                pt->rate, fl_sim_status_name(r->status), r->latency_avg, r->latency_p50,
                r->latency_p99, r->network_latency_avg, r->throughput, r->throughput_min,
                r->offered, r->hops_avg, (long long)r->packets, (long long)r->cycles,
                (long long)r->flit_hops, r->wall_s, past_saturation(sw, i));
    }
}

static json_t *sweep_json(const Sweep *sw, int last)
{
    json_t *points = json_array();
    for (int i = 0; i <= last; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "rate", json_real(sw->points[i].rate));
        sim_add_result(o, &sw->points[i].res);
        json_object_set_new(o, "past_saturation", json_boolean(past_saturation(sw, i)));
        json_array_append_new(points, o);
    }
    return json_pack("{s:o, s:o}", "points", points, "stopped_at",
                     last < sw->n - 1 || past_saturation(sw, last)
                         ? json_real(sw->points[last].rate)
                         : json_null());
}

/* What write_points() writes after write_start(): the points up to last,
 * as CSV or JSON. */
typedef struct SweepOutput {
    const Sweep *sw;
    int last, as_json;
} SweepOutput;

static int write_points(FILE *fp, void *data)
{
    const SweepOutput *o = data;
    if (o->as_json)
        return cli_write_json_rest(sweep_json(o->sw, o->last), fp);
    write_csv(fp, o->sw, o->last);
    return CLI_OK;
}


/* Runs the points on jobs threads, one series with the stop rule; returns
 * the last point to print (the first one past saturation, or the last rate),
 * or -1 after reporting a failure. */
static int run_points(Sweep *sw, const FlTopology *t, const FlSimConfig *base, long jobs)
{
    FlExpPoint *points = calloc((size_t)sw->n, sizeof *points);
    if (!points) {
        cli_error(CLI_FAIL, _("out of memory for the sweep"));
        return -1;
    }
    for (int i = 0; i < sw->n; i++) {
        points[i].topology = t;
        points[i].config = *base;
        points[i].config.traffic.rate = sw->points[i].rate;
    }
    FlExpOptions opt;
    fl_exp_options_init(&opt);
    opt.workers = (int)jobs;
    opt.max_latency = sw->max_latency;
    opt.latency_factor = DEFAULT_LATENCY_FACTOR;
    opt.progress = sweep_progress;
    opt.progress_data = sw;
    FlExp *exp = NULL;
    FlError err = { 0 };
    int rc = fl_exp_new(points, sw->n, &opt, &exp, &err);
    if (!rc)
        rc = fl_exp_run(exp, &err);
    int last = -1;
    for (int i = 0; exp && i < sw->n; i++) {
        const FlExpResult *r = fl_exp_result(exp, i);
        if (!r->kept)
            continue;
        /* A failed point is reported as the engine words it. */
        if (r->state == FL_EXP_FAILED) {
            err = r->error;
            break;
        }
        sw->points[i].res = r->sim;
        sw->points[i].past_saturation = r->past_saturation;
        last = i;
    }
    fl_exp_free(exp);
    free(points);
    if (rc) {
        cli_engine_error(&err);
        return -1;
    }
    return last;
}

static int run_sweep(const CliCommand *cmd, const CliParsed *p)
{
    static const char *const formats[] = { "csv", "json", NULL };
    const char *rates = cli_value(cmd, p, "rates");
    if (!rates)
        return cli_error(CLI_USAGE, _("sweep: give the offered loads with --rates FROM:TO:STEP"));
    const char *out = cli_value(cmd, p, "output");
    size_t out_len = out ? strlen(out) : 0;
    /* Without --format, an OUT ending in .json asks for JSON. */
    int dflt = out_len > 5 && strcmp(out + out_len - 5, ".json") == 0;
    int as_json = sim_choice_option(cmd, p, "format", formats, dflt);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    long jobs = online > 0 ? online : 1;
    double max_latency = 0;
    const char *s = cli_value(cmd, p, "max-latency");
    if (as_json < 0 || sim_int_option(cmd, p, "jobs", 1, 1024, &jobs)
        || (s && sim_parse_double("max-latency", s, 1, 1e12, &max_latency)))
        return CLI_USAGE;

    Sweep sw = { .max_latency = max_latency };
    int rc = parse_rates(rates, &sw.points, &sw.n);
    if (rc)
        return rc;
    SimSetup setup;
    rc = sim_setup(cmd, p, &setup);
    /* The engine refuses impossible parameters at fl_sim_new(): try the
     * highest rate's configuration once, so that a mistake is one message
     * rather than one per thread. */
    FlSim *probe = NULL;
    FlError err = { 0 };
    if (!rc) {
        setup.cfg.traffic.rate = sw.points[sw.n - 1].rate;
        if (fl_sim_new(setup.t, &setup.cfg, &probe, &err))
            rc = cli_engine_error(&err);
        fl_sim_free(probe);
    }
    /* -o OUT is opened and written to before the runs, so that a path that
     * cannot be written costs no simulation. */
    CliOutput output = { 0 };
    if (!rc)
        rc = cli_output_open(out, &output);
    if (!rc) {
        write_start(output.fp, as_json);
        rc = cli_output_flush(&output);
    }
    if (!rc) {
        int last = run_points(&sw, setup.t, &setup.cfg, jobs);
        SweepOutput o = { &sw, last, as_json };
        rc = cli_output_close(&output, last < 0 ? CLI_FAIL : write_points(output.fp, &o));
    }
    free(sw.points);
    sim_setup_free(&setup);
    return rc;
}

/* ---- entry point ---------------------------------------------------------- */

int cli_sweep(int argc, char **argv)
{
    return cli_run_single(&sweep_cmd, run_sweep, sim_print_patterns, argc, argv);
}
