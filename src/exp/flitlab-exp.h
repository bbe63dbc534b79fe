/* flitlab-exp.h — experiments: many simulations on a pool of worker threads.
 *
 * Plain C11 with POSIX threads, no GLib. An experiment is a list of points,
 * each a whole simulation (a topology, a routing, an FlSimConfig), run on N
 * worker threads with progress, cancel and the stop-past-saturation rule of
 * load-latency curves; each result is handed to a callback. `flitlab sweep`
 * is one front end; an experiment runner over a parameter grid, the GUI and
 * an MPI runner are meant to be others.
 *
 * Series. Points that share a series value form one curve, in the order
 * they appear in the list (by increasing offered load, for a load-latency
 * curve). A point is past saturation when its run ended saturated or
 * deadlocked, or its mean latency is above the limit: max_latency when set,
 * else latency_factor times the mean latency of the series' first point.
 * With the stop rule on, once a point is past saturation no later point of
 * its series is started, later ones already running are cancelled, and the
 * series' results end with that point. The points of a series are delivered
 * in order, so the results (which points, their values, their order within
 * each series) do not depend on the number of workers.
 *
 * A grid (routing x traffic x seed x rate) is one series per combination of
 * all but the rate. Its points may name their routing instead of passing a
 * built one: the library builds each distinct (topology, name, options) once,
 * shares it between the threads (a routing is read-only once built), and
 * frees it when no point still needs it.
 *
 * Shares. With shares = S and share = K (an MPI runner: K = rank, S = size),
 * an experiment runs only the series whose ordinal (order of first appearance
 * in the list) modulo S is K, every rank building the same list; the union
 * of every share's results is the result of one run of the whole list,
 * since the stop rule never looks across series. A series is never split.
 *
 * Threads. Callbacks are called from the worker threads (from the thread that
 * called fl_exp_run() only if no thread could be started), one at a time:
 * every progress and result call is made under one lock, in the order the
 * events happened. They must not call fl_exp_run() or fl_exp_free() on their
 * experiment; fl_exp_cancel() and fl_exp_result() are fine. A slow callback
 * delays the starts and ends of points, never a running simulation.
 *
 * Lifetime. fl_exp_new() copies the list of points, not what the points
 * point to: topologies, routings, routing names, options' strings and turns,
 * traffic patterns, hotspots and traces must outlive the experiment.
 */
#ifndef FLITLAB_EXP_H
#define FLITLAB_EXP_H

#include "flitlab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The default latency limit: this many times the series' first latency. */
#define FL_EXP_DEFAULT_LATENCY_FACTOR 10.0
/* More workers than this are refused. */
#define FL_EXP_MAX_WORKERS 4096

/* One simulation of the list. */
typedef struct FlExpPoint {
    const FlTopology *topology;    /* required */
    /* The flit-level simulator (config), paper 003's deflection model
     * (deflect, its routing from config.routing or routing_name as well) or
     * paper 001's multicast (multicast, with config's router settings and
     * seed for fl_multicast_run()). A deflection or multicast run is never
     * past saturation. */
    FlSimModel model;
    FlDeflectConfig deflect;
    FlMulticastConfig multicast;
    /* config.routing: a routing built on topology, or NULL to have the
     * library build routing_name with routing_options (whose progress
     * fields are ignored: cancelling the experiment stops the build). */
    FlSimConfig config;
    const char *routing_name;
    FlRoutingOptions routing_options;
    int series;                    /* the curve it belongs to; any value */
    void *user_data;               /* handed back in its FlExpResult */
    /* On a series' first point in the list: the series' latency limit, for
     * a curve whose first points ran before (a resumed experiment): > 0 in
     * cycles, NaN for none; 0 (the default): as the options say. The
     * options' max_latency, when set, comes first. */
    double latency_limit;
} FlExpPoint;

/* A point of the flit-level simulator with no topology or routing yet, the
 * simulator's defaults (fl_sim_config_init()), the deflection and multicast
 * models' of fl_sim_settings_init(), and routing options with no root (-1,
 * the routing's own rule; a zeroed FlRoutingOptions would ask for switch
 * 0). */
void fl_exp_point_init(FlExpPoint *p);

/* A point of the settings s on topology t, as an experiment's run is
 * (fl_exp_design_apply()): p is initialized (fl_exp_point_init(), series 0,
 * no user data), then takes s's model, its flit-level configuration
 * (selection and all, as s holds it), its deflection and multicast
 * configurations, and the routing called routing with options ro (NULL:
 * none), built by the library. What they point to (hotspots in s, strings
 * and turns in ro, the name) must outlive the experiment, as fl_exp_new()
 * says. Refuses, naming it, no topology or settings, no or an unknown
 * routing, and trace traffic (its events are the caller's to read: set
 * p->config.traffic.trace after). */
int fl_exp_point_from_settings(FlExpPoint *p, const FlTopology *t, const FlSimSettings *s,
                               const char *routing, const FlRoutingOptions *ro, FlError *err);

typedef enum FlExpState {
    FL_EXP_PENDING = 0,   /* not started yet */
    FL_EXP_RUNNING,
    FL_EXP_DONE,          /* ran to the end: sim holds its result */
    FL_EXP_FAILED,        /* error says why (a routing or configuration refused,
                           * out of memory) */
    FL_EXP_CANCELLED,     /* stopped while running: past its series' saturation,
                           * or fl_exp_cancel() */
    FL_EXP_SKIPPED        /* never started: past its series' saturation, in
                           * another share, or cancelled before its turn */
} FlExpState;

/* What became of one point. */
typedef struct FlExpResult {
    int index;              /* in the list */
    int series;             /* the point's series value */
    int position;           /* within its series, from 0 */
    FlExpState state;
    /* Whether the point is one of the series' results (delivered to the
     * result callback): every point up to and including the first past
     * saturation with the stop rule on, else every point. */
    int kept;
    /* Kept DONE points: saturated, deadlocked or above the latency limit. */
    int past_saturation;
    /* DONE: the simulation's result. Its arrays (channel utilization, VC
     * occupancy, deadlock cycle) are there during the result callback,
     * which may keep them by setting the pointers to NULL (and free() them
     * later); otherwise they are freed after it and are NULL here. */
    FlSimResult sim;
    /* DONE deflection points: the run's result, its series kept or freed
     * as sim's arrays are (sim is then all zero). */
    FlDeflectResult deflect;
    /* DONE multicast points: the run's result, its nodes, tree, conflicts
     * and times kept or freed as sim's arrays are (sim is then all zero). */
    FlMulticastResult multicast;
    /* DONE flit-level points, with FlExpOptions.sample_interval set: the
     * run sampled over each whole interval from cycle 0, in order, kept or
     * freed as sim's arrays are. */
    FlSimSample *samples;
    size_t n_samples;
    FlSimModel model;       /* the point's */
    FlError error;          /* FAILED */
    void *user_data;        /* the point's */
} FlExpResult;

typedef enum FlExpEvent {
    FL_EXP_STARTED = 0,     /* a point is about to run */
    FL_EXP_FINISHED         /* a point ended (DONE, FAILED or CANCELLED) */
} FlExpEvent;

/* Counts over this share's points, after the event. */
typedef struct FlExpProgress {
    FlExpEvent event;
    const FlExpResult *point;   /* the point started or finished */
    int total;                  /* points of this share */
    int started;
    int running;
    int done;                   /* ended DONE (kept or not) */
    int failed;
    int cancelled;
    int skipped;                /* known never to start */
} FlExpProgress;

typedef void (*FlExpProgressFunc)(void *user_data, const FlExpProgress *progress);

/* Called once per kept point (DONE or FAILED), in order within its series,
 * as soon as the point and every earlier point of its series have ended: its
 * past_saturation is final then. Not called again once the experiment is
 * cancelled. */
typedef void (*FlExpResultFunc)(void *user_data, FlExpResult *result);

typedef struct FlExpOptions {
    int workers;                /* CPUs, 1..FL_EXP_MAX_WORKERS (default 1):
                                 * a flit-level point takes config.threads
                                 * of them, so workers over the most
                                 * threads of a point run at once (at
                                 * least one) */
    int stop_past_saturation;   /* the stop rule (default on) */
    double max_latency;         /* > 0: the latency limit in cycles; 0: ... */
    double latency_factor;      /* ... this times the series' first latency
                                 * (default FL_EXP_DEFAULT_LATENCY_FACTOR) */
    int share, shares;          /* run the series whose ordinal is share mod
                                 * shares (default 0 of 1: every series) */
    /* > 0: flit-level points are sampled every this many cycles, as a
     * timeline does (fl_sim_sample_between()), into their results'
     * samples; 0 (the default): not sampled. At most 1,000,000. */
    int64_t sample_interval;
    FlExpProgressFunc progress;
    void *progress_data;
    FlExpResultFunc result;
    void *result_data;
} FlExpOptions;

void fl_exp_options_init(FlExpOptions *opt);

typedef struct FlExp FlExp;

/* Checks the options and every point (a topology, exactly one of a routing
 * built on it or a known routing name) and copies the list; refuses bad
 * input with a message that names it. opt may be NULL (the defaults). */
int fl_exp_new(const FlExpPoint *points, int n, const FlExpOptions *opt, FlExp **out,
               FlError *err);
void fl_exp_free(FlExp *exp);

/* How many points run at once: the workers over the most threads a point's
 * simulation takes, at least one. */
int fl_exp_jobs(const FlExp *e);

/* Runs the experiment on its workers and returns when every point of this
 * share has ended or been skipped. Returns FL_OK when every kept point is
 * DONE; otherwise the error of the first kept point (in list order) that
 * failed, with "point N: " before its message; FL_ECANCELLED after
 * fl_exp_cancel(). Runs once: a second call is refused. */
int fl_exp_run(FlExp *exp, FlError *err);

/* Checks every point as fl_exp_run() would before simulating it, and
 * simulates none: builds each routing the points name (once), makes each
 * flit-level simulation and deflection run's object and frees it, builds
 * each multicast's tree on paper 001's model only. Returns
 * FL_OK (*point -1), or the first failing point's error as its run would
 * report it, its index in *point; the experiment may run after either.
 * Time: the routings' builds and each point's set-up (its buffers). */
int fl_exp_check(FlExp *exp, int *point, FlError *err);

/* Asks a run to stop, from any thread (a callback included), before or
 * during fl_exp_run(): no point starts any more, running simulations and
 * routing builds stop at their next progress check, and no result is
 * delivered any more. Returns at once. */
void fl_exp_cancel(FlExp *exp);

/* Points in the list, and the distinct series among them. */
int fl_exp_count(const FlExp *exp);
int fl_exp_series_count(const FlExp *exp);

/* Point index's outcome (NULL when index is out of range). Read it after
 * fl_exp_run() has returned, or in a callback; the arrays of sim are NULL
 * by then. */
const FlExpResult *fl_exp_result(const FlExp *exp, int index);

/* The figures of a finished point by the result-key table of its model
 * (fl_sim_result_key() with the point's model in its models), in the
 * table's order: names[i] (the table's static strings) and values[i] for
 * up to max of them; returns how many there are (more than max means some
 * were left out), 0 for a point not DONE. NaN for a figure the run has
 * none of (no packet measured, a multicast not simulated). The flit-level
 * per-channel keys need r's arrays and t: read them in the result
 * callback, they are 0 after it. names or values may be NULL to count. */
int fl_exp_result_scalars(const FlExpResult *r, const FlTopology *t, const char **names,
                          double *values, int max);

/* The stop rule's judgement: whether res is past saturation under limit (a
 * latency; 0 or NaN: no latency limit known). For a front end that merges
 * shares or recomputes flags. */
int fl_exp_past_saturation(const FlSimResult *res, double limit);

/* --- designs -------------------------------------------------------------- */
/*
 * An experiment's design: a base configuration (keys set to one value) and
 * the parameters it varies, each over a list "V1,V2,..." or a range
 * "FROM:TO:STEP" (its values written with the digits FROM and STEP have:
 * 0.01:0.05:0.01 gives 0.01, 0.02, ... 0.05), and optionally a range of
 * seeds. A key is any simulation setting (the engine's table: rate,
 * traffic, vcs, packet, ...), "routing", or a routing option (root,
 * classes, ...); keys and values are checked against the engine when they
 * are given. The design unfolds into fl_exp_design_count() runs, numbered
 * in a fixed order: the first parameter varies slowest, the seeds fastest,
 * so a run's number names it for good (a resumed experiment runs the
 * numbers it lacks).
 */
typedef struct FlExpDesign FlExpDesign;

#define FL_EXP_DESIGN_MAX_VALUES 100000  /* values of one parameter */
#define FL_EXP_DESIGN_MAX_RUNS 10000000  /* runs of a design */

int fl_exp_design_new(FlExpDesign **out, FlError *err);
void fl_exp_design_free(FlExpDesign *d);

/* Sets key in the base (replacing a value set before). FL_ENOTFOUND for an
 * unknown key, the engine's error for a value it refuses, FL_EINVAL for a
 * key that is varied. */
int fl_exp_design_set(FlExpDesign *d, const char *key, const char *value, FlError *err);
/* Varies key over values (a list, or a range when it has ':' and no ',').
 * Refuses, naming it, an unknown key, "seed" (use fl_exp_design_seeds), a
 * key varied twice or set in the base, an empty range, an empty or
 * repeated list item, a value the engine refuses, and more than
 * FL_EXP_DESIGN_MAX_VALUES values or FL_EXP_DESIGN_MAX_RUNS runs. */
int fl_exp_design_vary(FlExpDesign *d, const char *key, const char *values, FlError *err);
/* Runs every combination with seeds from..to (inclusive). */
int fl_exp_design_seeds(FlExpDesign *d, uint64_t from, uint64_t to, FlError *err);

int64_t fl_exp_design_count(const FlExpDesign *d);
/* The varied parameters, in the order given, and their values. */
int fl_exp_design_param_count(const FlExpDesign *d);
const char *fl_exp_design_param_key(const FlExpDesign *d, int i);
int fl_exp_design_value_count(const FlExpDesign *d, int i);
const char *fl_exp_design_value(const FlExpDesign *d, int i, int v);

/* Run idx (0 .. count - 1): each parameter's value into values[i] (owned
 * by d; values may be NULL) and its seed (without a seed range, the seed
 * the design sets, or the settings' default). */
int fl_exp_design_run(const FlExpDesign *d, int64_t idx, const char **values, uint64_t *seed,
                      FlError *err);
/* Run idx's whole configuration: the base and its values applied to s and
 * ro (initialized by the caller, e.g. with the defaults), the simulation
 * settings in the engine table's order, the seed when there is a range;
 * the routing's name into *routing (NULL when the design names none). */
int fl_exp_design_apply(const FlExpDesign *d, int64_t idx, FlSimSettings *s,
                        FlRoutingOptions *ro, const char **routing, FlError *err);

/* The models its runs use (a mask of FL_OPTION_FOR_*): the base's, and
 * each value of mode when mode varies; the flit-level one at least. */
unsigned fl_exp_design_models(const FlExpDesign *d);

/* The design as text, one line each: "set KEY=VALUE", "vary KEY=V1,V2,..."
 * (ranges written out), "seeds A:B"; *out malloc'd. Parsing it gives the
 * same design; a bad line fails with a message that starts "line N: ". */
int fl_exp_design_format(const FlExpDesign *d, char **out, FlError *err);
int fl_exp_design_parse(const char *text, FlExpDesign **out, FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_EXP_H */
