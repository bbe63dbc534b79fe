/* metrics-internal.h — what metrics.c and bisection.c share, and the
 * bisection pieces the metrics test checks one by one.
 *
 * A partition of the switches is a side[] array indexed by switch rank, 0 for
 * side A and 1 for side B. A balanced partition has floor(S/2) switches on
 * one side and ceil(S/2) on the other.
 */
#ifndef FLITLAB_METRICS_INTERNAL_H
#define FLITLAB_METRICS_INTERNAL_H

#include <stdint.h>

#include "internal.h"

/* A progress callback mapped onto a sub-range [base, base + span] of the
 * whole computation, so that each stage can report its own 0..1. */
typedef struct FlProgress {
    FlProgressFunc func;   /* may be NULL */
    void *data;
    double base, span;
} FlProgress;

/* Reports fraction (0..1) of the stage; non-zero means cancel. Rounding
 * must not push the last report past 1. */
static inline int fl__progress_report(const FlProgress *p, double fraction)
{
    if (!p || !p->func)
        return 0;
    double f = p->base + p->span * fraction;
    return p->func(p->data, f < 1.0 ? f : 1.0);
}

/* The method fl__bisection() will use for t, decided from the switch count,
 * the exhaustive limit and the family metadata alone (cheap). */
FlBisectionMethod fl__bisection_plan(const FlTopology *t, int exact_max);

/* The bisection width of t, whose switch graph is g, by the planned method.
 * Returns FL_OK, FL_ECANCELLED, FL_ENOMEM, or FL_EINVAL if METIS fails. */
int fl__bisection(const FlTopology *t, const FlSwitchGraph *g, int exact_max,
                  uint64_t seed, const FlProgress *progress, int *width,
                  FlBisectionMethod *method, FlError *err);

/* The family's closed-form width, or -1 when no proven formula applies
 * (unknown family, sizes outside the proof, or counts that do not match
 * the family, as in a file whose metadata disagrees with its links). */
int fl__bisection_closed_form(const FlTopology *t);

/* Links cut by the partition side[] of g. */
int fl__cut_width(const FlSwitchGraph *g, const signed char *side);

/* The best balanced partition METIS finds over several seeds, each made
 * exactly balanced by greedy moves. Needs g->n >= 2. Fills side[g->n] and
 * *width. */
int fl__bisection_metis(const FlSwitchGraph *g, uint64_t seed, signed char *side,
                        int *width, FlError *err);

/* partition-loader.c: one METIS bisection by the module flitlab-partition
 * (modules/partition.h says what it takes and fills). */
int fl__partition_bisect(int n, const int *xadj, const int *adjncy, const int *adjwgt,
                         int seed, int *part, FlError *err);

/* The minimum balanced cut, by branch and bound. side[] must hold a balanced
 * partition on entry (the search's first bound); on return it holds an
 * optimal one and *width its cut. Needs g->n >= 2. */
int fl__bisection_exhaustive(const FlSwitchGraph *g, const FlProgress *progress,
                             signed char *side, int *width, FlError *err);

#endif /* FLITLAB_METRICS_INTERNAL_H */
