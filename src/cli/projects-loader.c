/* projects-loader.c — the program's door to the module flitlab-projects
 * (modules.h), loaded by the commands that read or write a project file. */
#include "modules.h"

static FlModule projects_module = FL_MODULE_INIT(
    "projects", N_("the project, experiment and plot commands (SQLite)"), CLI_PROJECTS_ABI);

static const CliProjectsModule *projects(FlError *err)
{
    const void *table;
    return fl_module_table(&projects_module, &table, err) ? NULL : table;
}

int cli_run_project(int argc, char **argv)
{
    FlError err = { 0 };
    const CliProjectsModule *m = projects(&err);
    return m ? m->project(argc, argv) : cli_engine_error(&err);
}

int cli_run_experiment(int argc, char **argv)
{
    FlError err = { 0 };
    const CliProjectsModule *m = projects(&err);
    return m ? m->experiment(argc, argv) : cli_engine_error(&err);
}

int cli_run_plot(int argc, char **argv)
{
    FlError err = { 0 };
    const CliProjectsModule *m = projects(&err);
    return m ? m->plot(argc, argv) : cli_engine_error(&err);
}
