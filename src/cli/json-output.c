/* json-output.c — the one way every command prints a JSON answer. */
#include <jansson.h>
#include <stdlib.h>

#include "cli.h"

int cli_write_json(json_t *o, FILE *to)
{
    char *text = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER
                                       | JSON_REAL_PRECISION(10))
                   : NULL;
    json_decref(o);
    if (!text)
        return cli_error(CLI_FAIL, "out of memory writing JSON");
    fprintf(to, "%s\n", text);
    free(text);
    return CLI_OK;
}
