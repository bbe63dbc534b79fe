/* error.c — status texts, the FlError report and the translation of both. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifdef FL_ENABLE_NLS
#include <libintl.h>
#endif

#include "flitlab.h"

static const char *const status_text[] = {
#define FL__STATUS_TEXT(name, text) text,
    FL_STATUS_LIST(FL__STATUS_TEXT)
#undef FL__STATUS_TEXT
};

const char *fl_gettext(const char *msgid)
{
#ifdef FL_ENABLE_NLS
    /* The empty msgid's translation is the catalogue's header. */
    if (msgid && *msgid)
        return dgettext("flitlab", msgid);
#endif
    return msgid;
}

const char *fl_strerror(int status)
{
    if (status < 0 || status >= FL_STATUS_COUNT)
        return fl_gettext("unknown error");
    return fl_gettext(status_text[status]);
}

int fl_error_set(FlError *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        /* The format is a msgid; its translation takes the same arguments
         * (msgfmt --check refuses one whose directives differ). */
        vsnprintf(err->message, sizeof err->message, fl_gettext(fmt), ap);
        va_end(ap);
        /* One line, whatever a quoted file or database put in it: a line
         * break or a tab becomes a space, another control character '?'. */
        for (char *c = err->message; *c; c++) {
            if (*c == '\n' || *c == '\r' || *c == '\t')
                *c = ' ';
            else if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
        }
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
