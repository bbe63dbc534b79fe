/* partition.h — the table of the module flitlab-partition, which holds
 * METIS's graph partitioning. The engine loads it at the first bisection
 * that needs METIS (metrics/partition-loader.c). */
#ifndef FLITLAB_MODULE_PARTITION_H
#define FLITLAB_MODULE_PARTITION_H

#define FL_PARTITION_ABI 1

/* What bisect() returns besides METIS's own (negative) error status. */
enum { FL_PARTITION_OK = 0, FL_PARTITION_NOMEM = 1 };

typedef struct FlPartitionModule {
    int abi; /* FL_PARTITION_ABI */
    /* Splits the graph of n vertices (xadj[n + 1], adjncy and adjwgt: METIS's
     * compressed rows, no self-loops or parallel edges) in two with METIS's
     * recursive bisection at its tightest imbalance, seeded with seed
     * (0 .. 2^31 - 1); part[v] is 0 or 1. */
    int (*bisect)(int n, const int *xadj, const int *adjncy, const int *adjwgt, int seed,
                  int *part);
} FlPartitionModule;

#endif /* FLITLAB_MODULE_PARTITION_H */
