/* tap.h — a tiny TAP producer for Flitlab's C tests.
 *
 * Each CHECK is one TAP test point, so meson's TAP parser counts them and a
 * failure names the file, the line and what was expected. Usage:
 *
 *     int main(void) {
 *         CHECK(x == 3, "x is %d", x);
 *         CHECK_INT(metrics.diameter, 36);
 *         return tap_done();
 *     }
 */
#ifndef FLITLAB_TAP_H
#define FLITLAB_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count_;
static int tap_failed_;

static inline int tap_check_(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    tap_count_++;
    if (!ok)
        tap_failed_++;
    printf("%s %d - %s:%d: ", ok ? "ok" : "not ok", tap_count_, file, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    return ok;
}

#define CHECK(cond, ...) tap_check_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define CHECK_INT(got, want)                                                     \
    do {                                                                         \
        long long g_ = (long long)(got), w_ = (long long)(want);                 \
        CHECK(g_ == w_, "%s == %s (got %lld, want %lld)", #got, #want, g_, w_);   \
    } while (0)

#define CHECK_NEAR(got, want, tol)                                               \
    do {                                                                         \
        double g_ = (double)(got), w_ = (double)(want);                          \
        CHECK(fabs(g_ - w_) <= (tol), "%s ~ %s (got %.6f, want %.6f)", #got,       \
              #want, g_, w_);                                                    \
    } while (0)

/* Prints the plan and returns the process exit status. */
static inline int tap_done(void)
{
    printf("1..%d\n", tap_count_);
    if (tap_failed_)
        fprintf(stderr, "%d of %d checks failed\n", tap_failed_, tap_count_);
    return tap_failed_ ? 1 : 0;
}

#endif /* FLITLAB_TAP_H */
