/* lessons-module.c — the table of the module flitlab-lessons (modules.h). */
#include "modules.h"

const CliLessonsModule flitlab_module_lessons = { CLI_LESSONS_ABI, cli_lesson };
