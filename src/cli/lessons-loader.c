/* lessons-loader.c — the program's door to the module flitlab-lessons
 * (modules.h), loaded by `flitlab lesson`. */
#include "modules.h"

static FlModule lessons_module =
    FL_MODULE_INIT("lessons", N_("the lesson command (libxml2)"), CLI_LESSONS_ABI);

int cli_run_lesson(int argc, char **argv)
{
    FlError err = { 0 };
    const void *table;
    if (fl_module_table(&lessons_module, &table, &err))
        return cli_engine_error(&err);
    const CliLessonsModule *m = table;
    return m->lesson(argc, argv);
}
