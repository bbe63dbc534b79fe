/* partition-loader.c — the engine's door to the module flitlab-partition
 * (modules/partition.h), loaded at the first bisection that needs METIS. */
#include "metrics-internal.h"
#include "partition.h"

/* Process-wide like the module it names: loaded once, never unloaded. */
static FlModule partition_module =
    FL_MODULE_INIT("partition", FL_N_("graph partitioning (METIS)"), FL_PARTITION_ABI);

int fl__partition_bisect(int n, const int *xadj, const int *adjncy, const int *adjwgt,
                         int seed, int *part, FlError *err)
{
    const void *table;
    int rc = fl_module_table(&partition_module, &table, err);
    if (rc)
        return rc;
    const FlPartitionModule *m = table;
    int status = m->bisect(n, xadj, adjncy, adjwgt, seed, part);
    if (status == FL_PARTITION_OK)
        return FL_OK;
    if (status == FL_PARTITION_NOMEM)
        return fl_error_set(err, FL_ENOMEM, "out of memory in METIS");
    return fl_error_set(err, FL_EINVAL, "METIS could not bisect the %d-switch graph (status %d)",
                        n, status);
}
