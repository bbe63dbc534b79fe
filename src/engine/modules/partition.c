/* partition.c — the module flitlab-partition (partition.h): METIS. */
#include <stdlib.h>

#include <metis.h>

#include "partition.h"

/* METIS's idx_t may be 64 bits wide: copies n ints into a new idx_t array. */
static idx_t *to_idx(const int *v, int n)
{
    idx_t *out = malloc(sizeof(idx_t) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; out && i < n; i++)
        out[i] = v[i];
    return out;
}

static int bisect(int n, const int *xadj, const int *adjncy, const int *adjwgt, int seed,
                  int *part)
{
    int m = xadj[n], status = METIS_ERROR_MEMORY;
    idx_t nv = n, ncon = 1, nparts = 2, objval = 0, options[METIS_NOPTIONS];
    idx_t *x = to_idx(xadj, n + 1), *a = to_idx(adjncy, m), *w = to_idx(adjwgt, m);
    idx_t *p = malloc(sizeof(idx_t) * (size_t)n);
    if (x && a && w && p) {
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_NUMBERING] = 0;
        /* 1 is METIS's tightest imbalance, 1.001. */
        options[METIS_OPTION_UFACTOR] = 1;
        options[METIS_OPTION_SEED] = seed;
        status = METIS_PartGraphRecursive(&nv, &ncon, x, a, NULL, NULL, w, &nparts, NULL,
                                          NULL, options, &objval, p);
        for (int v = 0; status == METIS_OK && v < n; v++)
            part[v] = p[v] != 0;
    }
    free(p);
    free(w);
    free(a);
    free(x);
    if (status == METIS_OK)
        return FL_PARTITION_OK;
    return status == METIS_ERROR_MEMORY ? FL_PARTITION_NOMEM : status;
}

/* The module's table, which the loader looks up by name (flitlab/module.h). */
const FlPartitionModule flitlab_module_partition = { FL_PARTITION_ABI, bisect };
