/* store-module.c — the table of the module flitlab-store (modules.h). */
#include "flitlab-store.h"
#include "modules.h"

static int load_topology(const char *path, const char *name, FlTopology **out, FlError *err)
{
    FlProject *project = NULL;
    int rc = fl_project_open(path, &project, err);
    if (rc)
        return rc;
    rc = fl_project_get_topology(project, name, out, err);
    fl_project_free(project);
    return rc;
}

const CliStoreModule flitlab_module_store = { CLI_STORE_ABI, load_topology };
