/* flitlab/metrics.h — Metrics: distances, bisection width, throughput bound.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_METRICS_H
#define FLITLAB_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/option.h"
#include "flitlab/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum FlBisectionMethod {
    FL_BISECTION_NONE = 0,     /* not computed (fewer than two switches) */
    FL_BISECTION_EXHAUSTIVE,   /* exact: search over balanced cuts */
    FL_BISECTION_CLOSED_FORM,  /* exact: the family's known formula */
    FL_BISECTION_METIS         /* upper bound: a balanced cut from METIS */
} FlBisectionMethod;

const char *fl_bisection_method_name(FlBisectionMethod m);

/* The default and the largest limit of the exhaustive bisection search, in
 * switches. Its worst case grows about fivefold with every four switches:
 * at 28 it takes under a second, at 48 minutes (measured in bisection.c);
 * above 48 it can run for hours, so larger networks get a closed form or
 * METIS's upper bound. */
#define FL_METRICS_EXACT_DEFAULT 28
#define FL_METRICS_EXACT_MAX 48

typedef struct FlMetricsOptions {
    /* Exhaustive bisection search is used up to this many switches
     * (0 = the default, FL_METRICS_EXACT_DEFAULT; at most
     * FL_METRICS_EXACT_MAX); closed forms and METIS above it. */
    int exact_bisection_max;
    uint64_t seed;             /* METIS seed */
    /* Called with the fraction done, which never goes back, at least every
     * few milliseconds of a long search; returning non-zero stops the
     * computation with FL_ECANCELLED and leaves the result untouched. */
    FlProgressFunc progress;   /* may be NULL */
    void *progress_data;
} FlMetricsOptions;

/* The metrics' options as descriptors (option.h), for front ends to build
 * their flags and settings rows from: "exact-max" (FL_OPTION_INT). The
 * index-th (NULL past the last), or the one called name (NULL if none). */
const FlOptionInfo *fl_metrics_option(int index);
const FlOptionInfo *fl_metrics_option_lookup(const char *name);

/* Sets the option called name of opt from its text, as typed; refuses an
 * unknown name, a malformed value or one out of the option's range with a
 * message that starts with the option's name (FL_EINVAL, FL_ERANGE). */
int fl_metrics_options_set(FlMetricsOptions *opt, const char *name, const char *value,
                           FlError *err);

typedef struct FlMetrics {
    int switches;
    int hosts;
    int links;                 /* full-duplex switch-to-switch links */
    int degree_min;            /* switch-to-switch degree */
    int degree_max;
    int connected;             /* boolean: switch graph connected */
    int diameter;              /* between switches; -1 if disconnected */
    double mean_distance;      /* over ordered pairs of distinct switches
                                * (paper 003 eq. 5); reachable pairs only */
    /* distance_histogram[k] = number of ordered switch pairs (u, v) at
     * distance k; index 0 counts the pairs (u, u). Length diameter + 1. */
    int64_t *distance_histogram;
    int histogram_len;
    int bisection_width;       /* links cut; -1 if not computed */
    FlBisectionMethod bisection_method;
    /* Paper 003 eqs. 11-13 with unit service times: messages per unit time
     * for the whole network, min(N, L / d). 0 if disconnected. */
    double throughput_bound;
} FlMetrics;

/* Computes every metric. All-pairs BFS over switches: O(S * (S + L)).
 * m must be released with fl_metrics_clear(). opt may be NULL. A limit of
 * the exhaustive search out of range is refused (FL_ERANGE). */
int fl_metrics_compute(const FlTopology *t, const FlMetricsOptions *opt,
                       FlMetrics *m, FlError *err);
void fl_metrics_clear(FlMetrics *m);

/* Distances from one switch to every switch (by switch rank), -1 if
 * unreachable. dist must hold switch_count() ints. O(S + L). */
int fl_topology_bfs(const FlTopology *t, int source_switch_rank, int *dist,
                    FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_METRICS_H */
