/* error.c — status texts and the FlError report. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "flitlab.h"

static const char *const status_text[] = {
#define FL__STATUS_TEXT(name, text) text,
    FL_STATUS_LIST(FL__STATUS_TEXT)
#undef FL__STATUS_TEXT
};

const char *fl_strerror(int status)
{
    if (status < 0 || status >= FL_STATUS_COUNT)
        return "unknown error";
    return status_text[status];
}

int fl_error_set(FlError *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

void fl_error_clear(FlError *err)
{
    if (err) {
        err->code = FL_OK;
        err->message[0] = '\0';
    }
}
