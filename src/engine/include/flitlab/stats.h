/* flitlab/stats.h — Summaries of repeated measurements.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_STATS_H
#define FLITLAB_STATS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The two-sided 95 % quantile of Student's t for a mean of n samples
 * (n - 1 degrees of freedom): exact to three decimals from a table for up
 * to 30 degrees of freedom, the tabulated value of the nearest smaller
 * degree (40, 60, 120) up to 120, the normal 1.96 beyond; 0 for n < 2. */
double fl_stats_t95(int n);

/* The mean of the finite values among v[0..n) and the half-width of its
 * Student-t 95 % confidence interval (t95 * sample deviation / sqrt(count)),
 * for error bars over seeds. Returns how many values were finite; with
 * none, *mean and *half are NaN; with one, *half is 0. Either pointer may
 * be NULL. */
int fl_stats_mean_ci95(const double *v, int n, double *mean, double *half);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_STATS_H */
