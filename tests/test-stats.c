/* test-stats.c — the mean over seeds and its Student-t 95 % interval:
 * textbook quantiles, a half-width computed by hand, one sample, none, and
 * non-finite values left out. */
#include <math.h>

#include "flitlab.h"
#include "tap.h"

int main(void)
{
    CHECK_NEAR(fl_stats_t95(2), 12.706, 1e-9);
    CHECK_NEAR(fl_stats_t95(5), 2.776, 1e-9);
    CHECK_NEAR(fl_stats_t95(30), 2.045, 1e-9);
    CHECK_NEAR(fl_stats_t95(31), 2.042, 1e-9);
    CHECK_NEAR(fl_stats_t95(50), 2.021, 1e-9);
    CHECK_NEAR(fl_stats_t95(1000), 1.96, 1e-9);
    CHECK(fl_stats_t95(1) == 0 && fl_stats_t95(0) == 0, "no quantile without two samples");
    double t = 1;
    int decreasing = 1;
    for (int n = 3; n < 200; n++) {
        decreasing &= fl_stats_t95(n) <= t || n == 3;
        t = fl_stats_t95(n);
    }
    CHECK(decreasing, "the quantile never grows with n");

    /* 2, 4, 4, 5: mean 3.75, sample variance (3.0625 + 0.0625 * 2 + 1.5625)
     * / 3 = 1.5833, sd 1.2583, half-width 3.182 * 1.2583 / 2 = 2.0020. */
    double v[] = { 2, 4, NAN, 4, 5 }, mean, half;
    CHECK_INT(fl_stats_mean_ci95(v, 5, &mean, &half), 4);
    CHECK_NEAR(mean, 3.75, 1e-12);
    CHECK_NEAR(half, 3.182 * sqrt(4.75 / 3) / 2, 1e-12);
    CHECK_NEAR(half, 2.0020, 1e-4);

    double one = 7;
    CHECK_INT(fl_stats_mean_ci95(&one, 1, &mean, &half), 1);
    CHECK(mean == 7 && half == 0, "one sample: its value, no interval");
    CHECK_INT(fl_stats_mean_ci95(v + 2, 1, &mean, &half), 0);
    CHECK(isnan(mean) && isnan(half), "no finite sample: NaN");
    CHECK_INT(fl_stats_mean_ci95(v, 2, NULL, NULL), 2);
    return tap_done();
}
