/* bench-time.h — what the benchmarks share: a monotonic clock in
 * milliseconds and an order on doubles for qsort() (medians). */
#ifndef FLITLAB_BENCH_TIME_H
#define FLITLAB_BENCH_TIME_H

#include <time.h>

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static inline int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif /* FLITLAB_BENCH_TIME_H */
