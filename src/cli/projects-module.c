/* projects-module.c — the table of the module flitlab-projects (modules.h). */
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

const CliProjectsModule flitlab_module = {
    CLI_PROJECTS_ABI, cli_project, cli_experiment, cli_plot, load_topology,
};
