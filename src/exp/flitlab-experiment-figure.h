/* flitlab-experiment-figure.h — the figure of a plot of an experiment's
 * results, for a paper: drawn by src/draw (FlDrawPlot), shared by the CLI
 * (`flitlab plot`) and the application. Built when cairo is found.
 */
#ifndef FLITLAB_EXPERIMENT_FIGURE_H
#define FLITLAB_EXPERIMENT_FIGURE_H

#include "flitlab-draw.h"
#include "flitlab-experiment-plot.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Refuses (FL_ERANGE) data with more curves than a figure draws
 * (FL_DRAW_PLOT_MAX_SERIES), suggesting a where or another series. */
int fl_experiment_figure_check(const FlPlotData *d, FlError *err);

/* Sets out up to draw d as s asks: the PRINT style (markers and dashes
 * that stay distinct in grey), the size of s->columns (8.5 or 17.5 cm, in
 * points, into *width and *height; either may be NULL), the legend where
 * it hides no data, error bars when s->error_bars, log axes, d's title
 * and axis labels (with units). out points into d: d must outlive it.
 * Returns FL_OK, or FL_ERANGE when d has more curves than
 * FL_DRAW_PLOT_MAX_SERIES (out then holds the first ones;
 * fl_experiment_figure_check() says why). */
int fl_experiment_figure(const FlPlotData *d, const FlPlotSpec *s, FlDrawPlot *out,
                         double *width, double *height);

/* The plot s of project p written to path in format (png, svg, pdf, csv,
 * gnuplot, pgfplots; NULL: by path's extension), atomically, as
 * fl_draw_export_plot() does. PNG is drawn at PNG_SCALE pixels per point
 * (4: about 300 dpi). Refuses what fl_experiment_plot_data() and
 * fl_experiment_figure_check() refuse, and data with no point. */
#define FL_EXPERIMENT_FIGURE_PNG_SCALE 4
int fl_experiment_export_plot(FlProject *p, const FlPlotSpec *s, const char *path,
                              const char *format, FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_EXPERIMENT_FIGURE_H */
