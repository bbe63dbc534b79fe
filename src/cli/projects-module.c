/* projects-module.c — the table of the module flitlab-projects (modules.h). */
#include "modules.h"

const CliProjectsModule flitlab_module_projects = {
    CLI_PROJECTS_ABI, cli_project, cli_experiment, cli_plot,
};
