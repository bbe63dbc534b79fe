/* pictures-loader.c — the program's door to the module flitlab-pictures
 * (modules.h), loaded by the first option or command that draws. */
#include "modules.h"

static FlModule pictures_module =
    FL_MODULE_INIT("pictures", N_("the drawing of pictures (cairo)"), CLI_PICTURES_ABI);

const CliPicturesModule *cli_pictures(void)
{
    FlError err = { 0 };
    const void *table;
    if (fl_module_table(&pictures_module, &table, &err)) {
        cli_engine_error(&err);
        return NULL;
    }
    return table;
}
