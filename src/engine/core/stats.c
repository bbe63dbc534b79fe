/* stats.c — the mean of repeated runs and its Student-t 95 % interval.
 *
 * The quantiles are tabulated rather than computed from the incomplete
 * beta function: figures over a handful of seeds need only small degrees of
 * freedom, and a table gives the textbook values exactly. */
#include <math.h>

#include "flitlab.h"

/* t(0.975, df) for df = 1 .. 30. */
static const double t95_small[] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};
#define NSMALL ((int)(sizeof t95_small / sizeof t95_small[0]))

/* Beyond the table, by the nearest smaller tabulated degree: an interval
 * slightly wider than exact, never narrower. */
static const struct {
    int df;
    double t;
} t95_large[] = { { 120, 1.980 }, { 60, 2.000 }, { 40, 2.021 } };

double fl_stats_t95(int n)
{
    int df = n - 1;
    if (df < 1)
        return 0;
    if (df <= NSMALL)
        return t95_small[df - 1];
    if (df > 120)
        return 1.96;
    for (int i = 0; i < (int)(sizeof t95_large / sizeof t95_large[0]); i++)
        if (df >= t95_large[i].df)
            return t95_large[i].t;
    return t95_small[NSMALL - 1];
}

int fl_stats_mean_ci95(const double *v, int n, double *mean, double *half)
{
    int count = 0;
    double sum = 0;
    for (int i = 0; v && i < n; i++)
        if (isfinite(v[i])) {
            sum += v[i];
            count++;
        }
    double m = count ? sum / count : NAN, ss = 0;
    for (int i = 0; count > 1 && i < n; i++)
        if (isfinite(v[i]))
            ss += (v[i] - m) * (v[i] - m);
    double h = count == 0   ? NAN
               : count == 1 ? 0
                            : fl_stats_t95(count) * sqrt(ss / (count - 1)) / sqrt(count);
    if (mean)
        *mean = m;
    if (half)
        *half = h;
    return count;
}
