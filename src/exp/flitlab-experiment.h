/* flitlab-experiment.h — an experiment of a project file: opened, and run with
 * its results committed into the file.
 *
 * Plain C11 over the engine, the sweep library (flitlab-exp.h), the project
 * store and the JSON reader; no GLib, no cairo. The CLI, the application
 * and flitlab-mpi are its front ends, so that they unfold, run and commit
 * an experiment the same way.
 *
 * Running. fl_experiment_run() runs the runs of the design the file does
 * not hold yet (or the ones given), on a pool of workers, with the stop
 * rule of flitlab sweep along each curve (the runs that differ only in
 * their rate, in increasing order), and commits each run into the file as
 * soon as it and the earlier runs of its curve are known: killing the
 * process loses at most the runs in flight, and running again runs what
 * is missing. An experiment made by fl_experiment_new_detached() has no
 * file: its results go only to the result callback (an MPI worker sends
 * them to the rank that owns the file, which commits them with
 * fl_experiment_commit()).
 */
#ifndef FLITLAB_EXPERIMENT_H
#define FLITLAB_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab-exp.h"
#include "flitlab-store.h"
#include "flitlab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- an experiment, opened ------------------------------------------------ */

typedef struct FlExperiment FlExperiment;

/* Reads experiment name of the open project p (which must outlive it): its
 * row, its design parsed, its network read. FL_ENOTFOUND naming it when
 * there is none. A run commits and claims through p from the runner's
 * threads; those calls read only p's path (the journal is the file's, not
 * the working copy's), so while a run is in progress other threads may
 * edit p but not save it under another name: an application gives the
 * runner a handle of its own (fl_project_open() of the same path). */
int fl_experiment_open(FlProject *p, const char *name, FlExperiment **out, FlError *err);
/* The same experiment without a file: from its name, network (Flitlab
 * JSON) and design text, as an MPI worker receives them. */
int fl_experiment_new_detached(const char *name, const char *network, const char *design,
                               FlExperiment **out, FlError *err);
void fl_experiment_free(FlExperiment *x);

const char *fl_experiment_name(const FlExperiment *x);
const FlExpDesign *fl_experiment_design(const FlExperiment *x);
const FlTopology *fl_experiment_topology(const FlExperiment *x);
/* Its row: name, topology (as given), network, design text, runs,
 * created; the counts done and failed as read when it was opened. A
 * detached experiment's topology and created are "". */
const FlProjectExperiment *fl_experiment_info(const FlExperiment *x);
/* The project it was opened from; NULL when detached. */
FlProject *fl_experiment_project(const FlExperiment *x);
/* Runs in the design. */
int64_t fl_experiment_run_count(const FlExperiment *x);
/* The curve run idx belongs to: its number with the rate's place cleared
 * (every other value and the seed alike), or idx when rate is not varied. */
int64_t fl_experiment_curve(const FlExperiment *x, int64_t idx);

/* Run idx's whole configuration as "key=value" lines (every simulation
 * setting, the routing and its options, switches by id), malloc'd into
 * *out. Refuses, naming it, a run of another model than flit, a trace
 * replay, and a root or prohibited turn at no switch of the network. */
int fl_experiment_config(const FlExperiment *x, int64_t idx, char **out, FlError *err);

/* Checks every run of the design as running it would before it simulates
 * (its configuration applied to the network, its routing built, its
 * simulation set up) and simulates none, so that a design that cannot run
 * is refused when it is made: FL_OK, or the first run's error as "run N
 * (KEY=VALUE, ...): why" with its varied values. Runs that differ only in
 * their seed are checked once. Time: a routing build per distinct routing
 * and options (in batches of 1024 runs), a simulation's set-up per run. */
int fl_experiment_check(FlExperiment *x, FlError *err);
/* The check of an experiment not made yet, from what it would be made of
 * (its name, network as Flitlab JSON and design text): "the design cannot
 * run: run N (...): why", so that a front end refuses it before it keeps
 * it. */
int fl_experiment_check_design(const char *name, const char *network, const char *design,
                               FlError *err);

/* What the file holds of each run. */
#define FL_EXPERIMENT_MISSING 0xff
/* The status of every run, by number, into *status (malloc'd,
 * fl_experiment_run_count() bytes, each FL_EXPERIMENT_MISSING or an
 * FlRunStatus) and the counts of done, failed and stopped runs into
 * counts[3] (may be NULL). A detached experiment holds none. */
int fl_experiment_status(FlExperiment *x, unsigned char **status, int64_t counts[3],
                         FlError *err);
/* A status's name: "done", "failed", "stopped", or "missing". */
const char *fl_experiment_status_name(int status);

/* Runs in progress: not committed, claimed by a live process (see
 * fl_project_list_running(): a claim from another host counts). 0 for a
 * detached experiment. */
int fl_experiment_running(FlExperiment *x, int64_t *running, FlError *err);
/* Claims runs for this process (fl_experiment_run() claims each run it
 * starts; flitlab-mpi's rank 0 the runs it hands out), and releases every
 * claim of this process on x. Nothing to do when detached. */
int fl_experiment_claim(FlExperiment *x, const int64_t *runs, int64_t n, FlError *err);
int fl_experiment_release(FlExperiment *x, FlError *err);

/* --- results --------------------------------------------------------------- */

/* The scalars of a simulation's result, named as the keys of
 * `flitlab sim --json` (fl_sim_result_key()). */
#define FL_EXPERIMENT_MAX_SCALARS 64

/* The vectors a run has, besides its scalars: series over simulated time
 * and figures per channel, committed with it (fl_project_get_vectors()).
 * A flit-level run has channel_utilization (busy fraction of each channel
 * over the measurement window, by channel number) and vc_occupancy (mean
 * flits buffered, by channel * vcs + vc), and its samples over each whole
 * interval of step cycles from cycle 0 (FlSimSample): offered, accepted,
 * latency and in_network. A deflection run has max_delay and avg_delay
 * at the end of each interval and throughput, the mean over it. A
 * multicast run has none. The step is fl_experiment_sample_step() of the
 * window (the longest warm-up and measurement of the experiment's runs,
 * the same for all of them) or of the deflection run's cycles: about 200
 * samples, at a round number of cycles. */
typedef struct FlExperimentVectorInfo {
    const char *name;
    const char *title;             /* for an axis: "Accepted load" */
    const char *unit;              /* "" for a fraction or a count */
    int per_channel;               /* by channel; else by sample over time */
    unsigned models;               /* FL_OPTION_FOR_*: the runs that have it */
    const char *description;
} FlExperimentVectorInfo;

#define FL_EXPERIMENT_MAX_VECTORS 8
/* The samples a run's series aim at over its window. */
#define FL_EXPERIMENT_SAMPLES 200

/* The step of the series of a run of cycles: the smallest of 1, 2, 5, 10,
 * 20, 50, ... cycles that gives at most FL_EXPERIMENT_SAMPLES samples. */
int64_t fl_experiment_sample_step(int64_t cycles);

int fl_experiment_vector_count(void);
/* The i-th vector a run can have; NULL when out of range. */
const FlExperimentVectorInfo *fl_experiment_vector_info(int i);
/* The index of the vector called name, or -1. */
int fl_experiment_vector_find(const char *name);

/* One finished run: what is committed. */
typedef struct FlExperimentResult {
    int64_t idx;
    FlRunStatus status;
    uint64_t seed;
    double wall_s;
    const char *error;                     /* FAILED: why */
    int nscalars;                          /* DONE: its scalars */
    const char *scalar_names[FL_EXPERIMENT_MAX_SCALARS];
    double scalar_values[FL_EXPERIMENT_MAX_SCALARS];
    int nvectors;                          /* DONE: its vectors */
    const char *vector_names[FL_EXPERIMENT_MAX_VECTORS];
    const double *vector_data[FL_EXPERIMENT_MAX_VECTORS];
    int vector_lengths[FL_EXPERIMENT_MAX_VECTORS];
    double vector_steps[FL_EXPERIMENT_MAX_VECTORS];  /* cycles per sample;
                                                      * 0: per channel */
} FlExperimentResult;

/* The scalars of res (a finished point of a run of x's network, read in
 * the result callback: the per-channel keys need its arrays) into out's
 * nscalars, scalar_names and scalar_values: the keys of the engine's
 * result table for its model (fl_exp_result_scalars()), whole counts, NaN
 * for a figure the run has none of. With res NULL, the names runs of x
 * can have (each model x's design runs, every name once), values NaN. */
void fl_experiment_scalars(const FlExperiment *x, const FlExpResult *res,
                           FlExperimentResult *out);

/* Commits result into x's file (its configuration, parameters, this
 * machine or host, the time now), deleting its claim in the same
 * transaction. FL_EINVAL when x is detached. */
int fl_experiment_commit(FlExperiment *x, const FlExperimentResult *result, const char *host,
                         FlError *err);
/* Commits n results in one transaction: all or none. A run that ends its
 * curve past saturation goes with the runs the stop rule leaves out, so a
 * kill between them cannot leave a curve that a resume would run on. */
int fl_experiment_commit_all(FlExperiment *x, const FlExperimentResult *results, int n,
                             const char *host, FlError *err);

/* --- running ---------------------------------------------------------------- */

/* Reported when the run starts, at each start and end of a run, and once
 * more at the end with the counts as committed (a run that ran to its end
 * past its curve's saturation is stopped then, done before). */
typedef struct FlExperimentProgress {
    int64_t total;           /* runs of the design */
    int64_t held;            /* runs the file held when the run started */
    int64_t to_run;          /* runs this call runs */
    int64_t done, failed;    /* of to_run, finished so far */
    int64_t stopped;         /* of to_run, left out past saturation */
    int running;
    double elapsed_s;
    double eta_s;            /* an estimate of the time left; NaN: not known yet */
} FlExperimentProgress;

/* Callbacks come from the worker threads, one at a time (the progress
 * from the calling thread at the start and the end); they may call
 * fl_experiment_cancel(), not fl_experiment_run() or _free(). */
typedef void (*FlExperimentProgressFunc)(void *user_data, const FlExperimentProgress *p);
/* Called once per finished run, after it is committed (when x has a file):
 * done and failed runs in order along their curve as they end, the runs
 * stopped past saturation once the curves are done. */
typedef void (*FlExperimentResultFunc)(void *user_data, const FlExperimentResult *result);

typedef struct FlExperimentRunOptions {
    int workers;                    /* threads (default: the machine's cores) */
    const int64_t *runs;            /* only these runs, run whatever the file
                                     * holds of them (NULL: every missing one) */
    int64_t nruns;
    FlExperimentProgressFunc progress;
    void *progress_data;
    FlExperimentResultFunc result;
    void *result_data;
} FlExperimentRunOptions;

void fl_experiment_run_options_init(FlExperimentRunOptions *opt);

/* Runs, from the calling thread, until every run to do is committed or the
 * run is cancelled (FL_ECANCELLED); opt may be NULL (the defaults). Failed
 * runs are committed as failed; the call then fails with the first one's
 * error, "run N: ..." */
int fl_experiment_run(FlExperiment *x, const FlExperimentRunOptions *opt, FlError *err);
/* From any thread, a callback included: no run starts any more, the runs
 * in flight stop and are not committed. A cancel made while no run is in
 * progress makes the next fl_experiment_run() return FL_ECANCELLED. */
void fl_experiment_cancel(FlExperiment *x);

/* Runs of the design the file holds now: held and those finished since. */
int64_t fl_experiment_finished(const FlExperimentProgress *p);
/* The estimate of eta_s: the runs of p left, going round workers, each
 * taking mean_wall_s (NaN: not known yet; then NaN). 0 when none is left. */
double fl_experiment_eta(const FlExperimentProgress *p, double mean_wall_s, int workers);
/* p as a line for people, "experiment NAME: 12/40 runs (3 running), about
 * 1 min 20 s left" (the runs the file holds, of the design's), into buf;
 * returns what snprintf() does. */
int fl_experiment_progress_text(const char *name, const FlExperimentProgress *p, char *buf,
                                size_t size);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_EXPERIMENT_H */
