/* experiment-internal.h — an experiment of a project file, shared by
 * experiment.c (opening, the runs' configurations, status, commits, claims)
 * and experiment-run.c (running on the pool of workers). Private to src/exp. */
#ifndef FLITLAB_EXPERIMENT_INTERNAL_H
#define FLITLAB_EXPERIMENT_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "flitlab-experiment.h"

/* Varied parameters a run handles. */
#define FL__EXPERIMENT_MAX_PARAMS 64

struct FlExperiment {
    FlProject *project;          /* NULL: detached */
    FlProjectExperiment e;       /* its row; a detached one has its name,
                                  * network, design and runs only */
    FlExpDesign *design;
    FlTopology *t;

    /* A cancel reaches the run in progress through exp; one made while no
     * run is in progress applies to the next. */
    pthread_mutex_t lock;
    FlExp *exp;
    atomic_int cancelled;
};

/* Run idx's settings, routing options (root and prohibited turns in the
 * topology's ids) and routing name ("dor" when the design names none), for
 * the experiment's network; s and ro are initialized here and cleared by
 * the caller, on failure too. */
int fl__experiment_apply(const FlExperiment *x, int64_t idx, FlSimSettings *s,
                         FlRoutingOptions *ro, const char **routing, FlError *err);
/* "key=value" lines of every setting, the routing and its options;
 * malloc'd, NULL when out of memory. */
char *fl__experiment_config_text(const FlSimSettings *s, const char *routing,
                                 const FlRoutingOptions *ro);

/* The step of x's flit-level runs' samples: fl_experiment_sample_step()
 * of the longest warm-up and measurement of its runs. */
int64_t fl__experiment_sample_step(const FlExperiment *x);
/* The vectors of res (a DONE point of x with vcs VCs, its samples step
 * cycles apart, read in the result callback: they point into its arrays)
 * into out's nvectors and vector_* (flitlab-experiment.h says which); the
 * series over time are made in *storage (malloc'd, NULL when none: free()
 * it once out is committed). */
int fl__experiment_vectors(const FlExperiment *x, const FlExpResult *res, int vcs, int64_t step,
                           FlExperimentResult *out, double **storage, FlError *err);

#endif /* FLITLAB_EXPERIMENT_INTERNAL_H */
