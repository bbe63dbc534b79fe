/* cmd-sweep.c — `flitlab sweep`: trace a load-latency curve with one
 * simulation per offered load, run in parallel on a pool of threads, and
 * stop past saturation. */
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    { "rates", 0, "A:B:STEP", "offered loads from A to B (required)" },
    { "format", 'f', "FORMAT", "csv (default) or json" },
    { "output", 'o', "OUT", "write to OUT (atomically) instead of standard output" },
    { "jobs", 'j', "N", "simulations at once (default: the online CPUs)" },
    { "max-latency", 0, "CYCLES", "stop past this mean latency (default 10x the first)" },
    { 0 },
};

static const CliCommand sweep_cmd = {
    "sweep", "SPEC|FILE|PROJECT.flitlab#NAME --routing R --rates A:B:STEP [-f csv|json]",
    "Trace a load-latency curve: one simulation per offered load, run in parallel,\n"
    "with progress on standard error. The sweep stops past saturation: no higher\n"
    "rate is run once a point saturates, deadlocks or its mean latency passes the\n"
    "threshold; that point is the last one printed. Rows are ordered by rate.",
    sweep_options, 1, 1, sim_generate_sweep_options,
};

/* cli_parse() keeps one value per option in a fixed array. */
_Static_assert(sizeof sweep_options / sizeof sweep_options[0] <= CLI_MAX_OPTIONS + 1,
               "sweep has more options than CLI_MAX_OPTIONS");

typedef enum PointState { POINT_PENDING, POINT_DONE, POINT_CANCELLED, POINT_FAILED } PointState;

typedef struct SweepPoint {
    double rate;
    PointState state;
    FlSimResult res;     /* the scalars only: the arrays are freed at once */
    FlError err;
} SweepPoint;

/* The state the workers share, under lock. */
typedef struct Sweep {
    const FlTopology *t;
    const FlSimConfig *base;
    SweepPoint *points;
    int n;
    int next;            /* the next point to hand out */
    int stop;            /* the lowest point known to be past saturation, else n */
    int finished;
    double max_latency;  /* 0: DEFAULT_LATENCY_FACTOR times point 0's */
    pthread_mutex_t lock;
} Sweep;

/* Whether a finished point is past saturation, with what is known so far.
 * The threshold can only fall as points finish (point 0's latency arrives),
 * so a point judged past saturation early stays so: cancelling on early
 * knowledge never drops a point the final judgement keeps. */
static int past_saturation(const Sweep *sw, int i)
{
    const SweepPoint *pt = &sw->points[i];
    if (pt->state != POINT_DONE)
        return 0;
    if (pt->res.status != FL_SIM_OK)
        return 1;
    double limit = sw->max_latency;
    if (limit <= 0) {
        const SweepPoint *first = &sw->points[0];
        if (first->state != POINT_DONE || !isfinite(first->res.latency_avg))
            return 0;
        limit = DEFAULT_LATENCY_FACTOR * first->res.latency_avg;
    }
    return pt->res.latency_avg > limit;
}

typedef struct PointRun {
    Sweep *sw;
    int index;
} PointRun;

/* Cancels a running point once a lower rate has saturated. */
static int point_progress(void *data, double fraction)
{
    (void)fraction;
    PointRun *pr = data;
    pthread_mutex_lock(&pr->sw->lock);
    int cancel = pr->index > pr->sw->stop;
    pthread_mutex_unlock(&pr->sw->lock);
    return cancel;
}

static void run_point(Sweep *sw, int i)
{
    SweepPoint *pt = &sw->points[i];
    FlSimConfig cfg = *sw->base;
    cfg.traffic.rate = pt->rate;
    PointRun pr = { sw, i };
    FlSim *sim = NULL;
    FlSimResult res;
    memset(&res, 0, sizeof res);
    FlError err = { 0 };
    int rc = fl_sim_new(sw->t, &cfg, &sim, &err);
    if (!rc)
        rc = fl_sim_run(sim, &res, point_progress, &pr, &err);
    fl_sim_free(sim);
    pthread_mutex_lock(&sw->lock);
    pt->err = err;
    pt->state = !rc ? POINT_DONE : err.code == FL_ECANCELLED ? POINT_CANCELLED : POINT_FAILED;
    pt->res = res;
    pt->res.channel_utilization = pt->res.vc_occupancy = NULL;
    pt->res.deadlock_channels = NULL;
    pt->res.deadlock_len = 0;
    fl_sim_result_clear(&res);
    if (pt->state == POINT_DONE) {
        sw->finished++;
        fprintf(stderr, "sweep: rate %.4g: %s, latency %.2f, accepted %.4f (%d done)\n",
                pt->rate, fl_sim_status_name(pt->res.status), pt->res.latency_avg,
                pt->res.throughput, sw->finished);
        /* Point 0's latency may set the threshold: look at every point. */
        for (int k = 0; k < sw->n && k < sw->stop; k++)
            if (past_saturation(sw, k))
                sw->stop = k;
    }
    pthread_mutex_unlock(&sw->lock);
}

static void *sweep_worker(void *data)
{
    Sweep *sw = data;
    pthread_mutex_lock(&sw->lock);
    while (sw->next < sw->n && sw->next <= sw->stop) {
        int i = sw->next++;
        pthread_mutex_unlock(&sw->lock);
        run_point(sw, i);
        pthread_mutex_lock(&sw->lock);
    }
    pthread_mutex_unlock(&sw->lock);
    return NULL;
}

/* --rates A:B:STEP into a malloc'd list of points. */
static int parse_rates(const char *text, SweepPoint **out, int *n)
{
    double v[3];
    if (sim_split_numbers(text, v, 3) != 3 || v[0] < 0 || v[1] < v[0] || v[1] > 1 || v[2] <= 0)
        return cli_error(CLI_USAGE, "--rates needs FROM:TO:STEP with 0 <= FROM <= TO <= 1 "
                                    "and STEP > 0, not '%s'", text);
    /* The small slack keeps TO itself when STEP does not divide exactly in
     * binary (0.1:0.5:0.1). */
    double count = floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
    if (count > MAX_SWEEP_POINTS)
        return cli_error(CLI_USAGE, "--rates %s makes %.0f points; at most %d", text, count,
                         MAX_SWEEP_POINTS);
    *n = (int)count;
    *out = calloc((size_t)*n, sizeof **out);
    if (!*out)
        return cli_error(CLI_FAIL, "out of memory for the sweep");
    /* Each rate from its index, not by adding STEP up, so that no rounding
     * error accumulates; rounded to 12 digits for clean output. */
    for (int i = 0; i < *n; i++)
        (*out)[i].rate = round((v[0] + i * v[2]) * 1e12) / 1e12;
    return CLI_OK;
}

static void write_csv(FILE *fp, const Sweep *sw, int last)
{
    fprintf(fp, "rate,status,latency_avg,latency_p50,latency_p99,network_latency_avg,"
                "throughput,throughput_min,offered,hops_avg,packets,cycles,flit_hops,wall_s,"
                "past_saturation\n");
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

/* Writes the points up to last as CSV or JSON, to -o OUT or stdout. */
static int write_sweep(const CliCommand *cmd, const CliParsed *p, const Sweep *sw, int last,
                       int as_json)
{
    const char *out = cli_value(cmd, p, "output");
    FlError err = { 0 };
    FlAtomicFile *f = NULL;
    FILE *fp = stdout;
    if (out && fl_atomic_open(out, &f, &fp, &err))
        return cli_engine_error(&err);
    int rc = CLI_OK;
    if (as_json)
        rc = cli_write_json(sweep_json(sw, last), fp);
    else
        write_csv(fp, sw, last);
    if (f) {
        if (rc)
            fl_atomic_abort(f);
        else if (fl_atomic_commit(f, &err))
            rc = cli_engine_error(&err);
    }
    return rc;
}

/* Runs the points on jobs threads; returns the last point to print (the first
 * one past saturation, or the last rate), or -1 after reporting a failure. */
static int run_points(Sweep *sw, long jobs)
{
    if (jobs > sw->n)
        jobs = sw->n;
    pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
    if (!threads) {
        cli_error(CLI_FAIL, "out of memory for the sweep's threads");
        return -1;
    }
    long started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&threads[started], NULL, sweep_worker, sw) != 0)
            break;
    /* With no thread at all, this thread does the work. */
    if (started == 0)
        sweep_worker(sw);
    for (long k = 0; k < started; k++)
        pthread_join(threads[k], NULL);
    free(threads);

    int last = sw->stop < sw->n ? sw->stop : sw->n - 1;
    for (int i = 0; i <= last; i++) {
        if (sw->points[i].state == POINT_FAILED) {
            cli_engine_error(&sw->points[i].err);
            return -1;
        }
    }
    return last;
}

static int run_sweep(const CliCommand *cmd, const CliParsed *p)
{
    static const char *const formats[] = { "csv", "json", NULL };
    const char *rates = cli_value(cmd, p, "rates");
    if (!rates)
        return cli_error(CLI_USAGE, "sweep: give the offered loads with --rates FROM:TO:STEP");
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
    if (!rc) {
        sw.t = setup.t;
        sw.base = &setup.cfg;
        sw.stop = sw.n;
        pthread_mutex_init(&sw.lock, NULL);
        int last = run_points(&sw, jobs);
        pthread_mutex_destroy(&sw.lock);
        rc = last < 0 ? CLI_FAIL : write_sweep(cmd, p, &sw, last, as_json);
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
