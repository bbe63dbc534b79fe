/* store-loader.c — the program's door to the module flitlab-store
 * (modules.h), loaded by the first PROJECT.flitlab#NAME argument. */
#include "modules.h"

static FlModule store_module =
    FL_MODULE_INIT("store", N_("the project file (SQLite)"), CLI_STORE_ABI);

int cli_project_topology(const char *path, const char *name, FlTopology **out, FlError *err)
{
    const void *table;
    int rc = fl_module_table(&store_module, &table, err);
    if (rc)
        return rc;
    const CliStoreModule *m = table;
    return m->load_topology(path, name, out, err);
}
