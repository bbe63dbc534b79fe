/* flitlab/errors.h — The version, errors, error reports and progress callbacks.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_ERRORS_H
#define FLITLAB_ERRORS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FL_VERSION_STRING "0.1.0"

/* One X-macro so the enum and fl_strerror() can never drift apart. Its
 * parameter is named FL__STATUS because xgettext extracts the texts by that
 * name (po/meson.build). */
#define FL_STATUS_LIST(FL__STATUS)                                         \
    FL__STATUS(FL_OK, "success")                                           \
    FL__STATUS(FL_ENOMEM, "out of memory")                                 \
    FL__STATUS(FL_EINVAL, "invalid argument")                              \
    FL__STATUS(FL_ESPEC, "bad topology specification")                     \
    FL__STATUS(FL_ERANGE, "value out of range")                            \
    FL__STATUS(FL_EPORT, "port out of range or already connected")         \
    FL__STATUS(FL_ENOTFOUND, "no such item")                               \
    FL__STATUS(FL_EPARSE, "malformed input")                               \
    FL__STATUS(FL_EIO, "input/output error")                               \
    FL__STATUS(FL_EDISCONNECTED, "network is not connected")               \
    FL__STATUS(FL_EUNSUPPORTED, "not supported for this network")          \
    FL__STATUS(FL_ECANCELLED, "cancelled")                                 \
    FL__STATUS(FL_EVERSION, "file was written by a newer version")         \
    FL__STATUS(FL_EEXIST, "already exists")

typedef enum FlStatus {
#define FL__STATUS_ENUM(name, text) name,
    FL_STATUS_LIST(FL__STATUS_ENUM)
#undef FL__STATUS_ENUM
    FL_STATUS_COUNT
} FlStatus;

/* A short generic text for a status code, translated; never NULL. */
const char *fl_strerror(int status);

/* msgid's translation in the "flitlab" gettext domain for the current
 * LC_MESSAGES, or msgid itself (in a build without NLS, or when there is
 * none). fl_error_set() translates its format through it; the file readers,
 * the store and the drawing library use it for the messages they compose.
 * The caller sets the locale and binds the domain (setlocale(),
 * bindtextdomain()); the engine never does. */
const char *fl_gettext(const char *msgid);

/* Marks a text of a static table (an option's help, a family's summary) for
 * xgettext; whoever shows it translates it with fl_gettext(). */
#define FL_N_(text) text

/* Detailed error report. Callers may pass NULL wherever an FlError * is taken.
 * message is always NUL-terminated; it is a single line without a trailing
 * period, suitable for "flitlab: <message>". */
#define FL_ERROR_MESSAGE_MAX 512
typedef struct FlError {
    int code;                            /* an FlStatus */
    char message[FL_ERROR_MESSAGE_MAX];
} FlError;

/* Sets err (if non-NULL) and returns code, so callers can write
 *   return fl_error_set(err, FL_ESPEC, "xmesh sizes must be even, got %d", n);
 * fmt is a msgid (xgettext extracts it, po/meson.build): it is translated
 * before it is formatted, so it should be a whole sentence, not a fragment
 * glued to others. The message stays one line whatever the arguments hold
 * (text quoted from a file): line breaks and tabs become spaces, other
 * control characters '?'. */
int fl_error_set(FlError *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void fl_error_clear(FlError *err);

/* Optional progress callback for long computations: fraction in [0, 1].
 * Returning non-zero cancels the computation, which then returns
 * FL_ECANCELLED. Called from the computing thread. */
typedef int (*FlProgressFunc)(void *user_data, double fraction);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_ERRORS_H */
