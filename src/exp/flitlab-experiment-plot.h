/* flitlab-experiment-plot.h — plots of an experiment's results.
 *
 * A plot definition (FlPlotSpec, text "key=value" lines kept in the
 * project's journal beside the experiment, so the plot redraws from the
 * data) names an experiment, the parameter on x, the scalar on y and the
 * parameter whose values make the series; the runs that agree on every
 * other parameter but the seed are one point, drawn at the mean over their
 * seeds with a 95 % confidence interval (fl_stats_mean_ci95()). With x
 * "cycle" or "channel", y is a vector of the runs instead (flitlab-
 * experiment.h: a series over simulated time, or a figure per channel),
 * drawn the same way at each sample's cycle or each channel. Plain C11
 * over the store; the figure itself is drawn by src/draw (FlDrawPlot).
 */
#ifndef FLITLAB_EXPERIMENT_PLOT_H
#define FLITLAB_EXPERIMENT_PLOT_H

#include "flitlab-store.h"
#include "flitlab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- plots ----------------------------------------------------------------- */

/* The x of a plot of the runs' vectors. */
#define FL_PLOT_X_CYCLE "cycle"
#define FL_PLOT_X_CHANNEL "channel"

typedef struct FlPlotSpec {
    char *experiment;
    char *x;                 /* a varied parameter (e.g. rate), cycle or channel */
    char *y;                 /* a scalar (e.g. latency_avg), or with x cycle
                              * or channel a vector (accepted) */
    char *series;            /* a varied parameter, or NULL: one curve */
    char *where;             /* "key=value,..." fixed values of other
                              * parameters, or NULL: each combination of the
                              * parameters left is its own curve */
    char *title;             /* NULL: none */
    char *xlabel, *ylabel;   /* NULL: the key's title and unit */
    int error_bars;          /* 95 % intervals over the seeds (default on) */
    int xlog, ylog;
    int columns;             /* 1 or 2 (FlDrawPaperColumns) */
} FlPlotSpec;

void fl_plot_spec_init(FlPlotSpec *s);
void fl_plot_spec_clear(FlPlotSpec *s);
/* The definition as "key=value" lines and back: keys experiment, x, y,
 * series, where, title, xlabel, ylabel (each left out when NULL),
 * error_bars, xlog, ylog (0 or 1) and columns (1 or 2); *out malloc'd.
 * Format refuses a value holding a line break and columns other than 1 or
 * 2. Parse initializes out first (fl_plot_spec_init(): keys not given keep
 * their defaults), skips blank lines and lines starting with '#', and
 * fails, leaving out cleared, on a bad line with a message that starts
 * "line N: " (no '=', an unknown or repeated key, a bad number). */
int fl_plot_spec_format(const FlPlotSpec *s, char **out, FlError *err);
int fl_plot_spec_parse(const char *text, FlPlotSpec *out, FlError *err);
/* A deep copy of src into dst (which is overwritten, not cleared). */
int fl_plot_spec_copy(FlPlotSpec *dst, const FlPlotSpec *src, FlError *err);

/* One curve: points in the order of x's values; a point with no done run
 * (or whose runs all have y NaN) is left out, and so is a curve with no
 * point. */
typedef struct FlPlotCurve {
    char *label;             /* "routing=updown", or NULL for a single curve */
    int n;
    double *x, *y;           /* y: the mean over the point's runs */
    double *lo, *hi;         /* its 95 % interval (y itself with one run) */
    int *runs;               /* done runs behind each point */
} FlPlotCurve;

typedef struct FlPlotData {
    char *title, *xlabel, *ylabel;
    int ncurves;
    FlPlotCurve *curves;
    /* When one of x's values is not a number (traffic=uniform,bitrev), x's
     * values are drawn at their positions 0, 1, 2, ... in the design, and
     * xnames[i] names position i (the default xlabel lists them too, since
     * the figure's ticks are numbers); otherwise NULL and 0. */
    char **xnames;
    int nxnames;
    int runs;                /* done runs behind all the points */
} FlPlotData;

/* The points spec asks for, from the runs project p holds of
 * spec->experiment (out is cleared first; on failure it is left empty).
 * Runs whose values of the where keys differ are left out; with a series,
 * the parameters neither on x, the series nor in where are pooled with the
 * seeds into each point; without one, each combination of them is its own
 * curve ("routing=updown, traffic=uniform"), in the design's order. Runs
 * not done (failed, stopped, missing) are no points. Refuses, naming it,
 * an unknown experiment, a missing x or y, an x or series that the
 * experiment does not vary (FL_ENOTFOUND) or the same as the other, a y
 * that is not a result key (FL_ENOTFOUND), a where that is not
 * "key=value,..." of varied keys (not x or the series, each once) with
 * values the design has (FL_EINVAL), and a y that no done run has
 * (FL_ENOTFOUND; with no done run at all, the data is empty, not an
 * error). A number given in where matches the design's value it equals
 * (0.10 matches 0.1). With x cycle or channel, a y that is not a vector
 * over it is refused (FL_ENOTFOUND) and every parameter is a series, in
 * where, pooled or a curve as above; the points are in increasing x. */
int fl_experiment_plot_data(FlProject *p, const FlPlotSpec *spec, FlPlotData *out,
                            FlError *err);
/* Whether where is "key=value,..." (blanks around keys and values
 * ignored) before any experiment is read, with the message
 * fl_experiment_plot_data() gives ("where: expected key=value, not
 * '...'"); FL_EINVAL. The keys and values are checked against the design
 * only by fl_experiment_plot_data(). */
int fl_plot_where_check(const char *where, FlError *err);
void fl_plot_data_clear(FlPlotData *d);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_EXPERIMENT_PLOT_H */
