/* irregular-loader.c — the engine's door to the module flitlab-irregular
 * (modules/irregular.h), loaded at the first irregular network. */
#include "generators.h"
#include "irregular.h"

/* Process-wide like the module it names: loaded once, never unloaded. */
static FlModule irregular_module =
    FL_MODULE_INIT("irregular", FL_N_("random irregular networks (igraph)"), FL_IRREGULAR_ABI);

int fl__irregular_draw(int switches, int ports, uint64_t seed, int *edges, int n_edges,
                       double *xy, FlError *err)
{
    const void *table;
    int rc = fl_module_table(&irregular_module, &table, err);
    if (rc)
        return rc;
    const FlIrregularModule *m = table;
    FlIgraphFailure fail = { 0 };
    if (!m->draw(switches, ports, seed, edges, n_edges, xy, &fail))
        return FL_OK;
    if (fail.out_of_memory)
        return fl_error_set(err, FL_ENOMEM, "out of memory while igraph tried to %s",
                            fail.what);
    return fl_error_set(err, FL_EINVAL, "igraph failed to %s: %s", fail.what, fail.reason);
}
