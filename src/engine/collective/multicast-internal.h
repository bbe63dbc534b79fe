/* multicast-internal.h — private to multicast.c and
 * multicast-contention.c: the multicast tree's layout.
 */
#ifndef FLITLAB_MULTICAST_INTERNAL_H
#define FLITLAB_MULTICAST_INTERNAL_H

#include "flitlab/analysis.h"
#include "flitlab/multicast.h"

struct FlMulticastTree {
    const FlTopology *topo;   /* NULL for a tree of labels */
    FlMulticastAlgorithm alg;
    int source;
    int n_edges;
    FlMulticastEdge *edges;   /* by send time */
    int *by_child;            /* edge indices sorted by child */
    double latency;
};

/* Compares n keys in turn, as qsort() wants: -1, 0 or 1. */
int fl__cmp_keys(const int *x, const int *y, int n);

#endif /* FLITLAB_MULTICAST_INTERNAL_H */
