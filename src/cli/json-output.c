/* json-output.c — the one way every command prints a JSON answer, and
 * writes an answer to a file or standard output. */
#include <errno.h>
#include <jansson.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "flitlab-io.h"

/* o's text from its skip'th byte on. */
static int write_json_from(json_t *o, size_t skip, FILE *to)
{
    char *text = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER
                                       | JSON_REAL_PRECISION(10))
                   : NULL;
    json_decref(o);
    if (!text)
        return cli_error(CLI_FAIL, _("out of memory writing JSON"));
    fprintf(to, "%s\n", text + skip);
    free(text);
    return CLI_OK;
}

int cli_write_json(json_t *o, FILE *to)
{
    return write_json_from(o, 0, to);
}

int cli_write_json_rest(json_t *o, FILE *to)
{
    return write_json_from(o, 1, to);
}

int cli_output_open(const char *path, CliOutput *out)
{
    FlError err = { 0 };
    out->file = NULL;
    out->fp = stdout;
    if (path && fl_output_open(path, &out->file, &out->fp, &err))
        return cli_engine_error(&err);
    return CLI_OK;
}

int cli_output_flush(CliOutput *out)
{
    errno = 0;
    if (fflush(out->fp) == 0 && !ferror(out->fp))
        return CLI_OK;
    int e = errno;
    if (out->fp != stdout) {
        /* Committing reports the failure, naming the path. */
        int rc = cli_output_close(out, CLI_OK);
        return rc ? rc : CLI_FAIL;
    }
    /* Reported once, here: what is left in the buffer would only fail
     * again as the program ends (main.c). */
    __fpurge(stdout);
    clearerr(stdout);
    cli_output_close(out, CLI_FAIL);
    return cli_error(CLI_FAIL, _("cannot write standard output: %s"),
                     e ? strerror(e) : _("write error"));
}

int cli_output_close(CliOutput *out, int rc)
{
    FlError err = { 0 };
    if (out->file) {
        if (rc)
            fl_output_abort(out->file);
        else if (fl_output_commit(out->file, &err))
            rc = cli_engine_error(&err);
    }
    out->file = NULL;
    return rc;
}

int cli_write_output(const char *path, CliWriter write, void *data)
{
    CliOutput out;
    int rc = cli_output_open(path, &out);
    return rc ? rc : cli_output_close(&out, write(out.fp, data));
}
