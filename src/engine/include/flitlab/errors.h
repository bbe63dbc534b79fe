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

/* One X-macro so the enum and fl_strerror() can never drift apart. */
#define FL_STATUS_LIST(X)                                                  \
    X(FL_OK, "success")                                                    \
    X(FL_ENOMEM, "out of memory")                                          \
    X(FL_EINVAL, "invalid argument")                                       \
    X(FL_ESPEC, "bad topology specification")                              \
    X(FL_ERANGE, "value out of range")                                     \
    X(FL_EPORT, "port out of range or already connected")                  \
    X(FL_ENOTFOUND, "no such item")                                        \
    X(FL_EPARSE, "malformed input")                                        \
    X(FL_EIO, "input/output error")                                        \
    X(FL_EDISCONNECTED, "network is not connected")                        \
    X(FL_EUNSUPPORTED, "not supported for this network")                   \
    X(FL_ECANCELLED, "cancelled")                                          \
    X(FL_EVERSION, "file was written by a newer version")                  \
    X(FL_EEXIST, "already exists")

typedef enum FlStatus {
#define FL__STATUS_ENUM(name, text) name,
    FL_STATUS_LIST(FL__STATUS_ENUM)
#undef FL__STATUS_ENUM
    FL_STATUS_COUNT
} FlStatus;

/* A short generic text for a status code; never NULL. */
const char *fl_strerror(int status);

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
 */
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
