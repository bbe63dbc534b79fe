/* irregular.h — the table of the module flitlab-irregular, which holds
 * igraph's random irregular graphs and their force-directed layout. The
 * engine loads it at the first irregular network (topology/irregular-loader.c). */
#ifndef FLITLAB_MODULE_IRREGULAR_H
#define FLITLAB_MODULE_IRREGULAR_H

#include <stdint.h>

#define FL_IRREGULAR_ABI 1

/* Why a call failed: the step, in words that follow "igraph failed to",
 * igraph's own message, and whether it ran out of memory. */
typedef struct FlIgraphFailure {
    const char *what;
    const char *reason;
    int out_of_memory;
} FlIgraphFailure;

typedef struct FlIrregularModule {
    int abi; /* FL_IRREGULAR_ABI */
    /* Draws a simple connected graph of switches vertices, each of degree
     * ports (the last one ports - 1 when both are odd), from igraph's
     * Viger-Latapy game seeded with seed; its n_edges = switches * ports / 2
     * edges go to edges[2 * n_edges] and its layout to xy[2 * switches].
     * Returns 0, or non-zero with *fail filled. Safe from any thread. */
    int (*draw)(int switches, int ports, uint64_t seed, int *edges, int n_edges, double *xy,
                FlIgraphFailure *fail);
} FlIrregularModule;

#endif /* FLITLAB_MODULE_IRREGULAR_H */
