/* flitlab-plot-preview.h — a plot of an experiment's results as it will
 * be exported: the paper figure (fl_experiment_figure(), a single or
 * double column) drawn to scale in the middle of the widget, or a
 * sentence saying why there is none.
 */
#pragma once

#include <gtk/gtk.h>

#include "flitlab-experiment-plot.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_PLOT_PREVIEW (flitlab_plot_preview_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabPlotPreview, flitlab_plot_preview, FLITLAB, PLOT_PREVIEW, GtkWidget)

/* Reads spec's points from project and draws them; a refusal (a y no run
 * has) is shown in its place. Call again as runs come in. */
void        flitlab_plot_preview_update       (FlitlabPlotPreview *self,
                                               FlProject          *project,
                                               const FlPlotSpec   *spec);
void        flitlab_plot_preview_clear        (FlitlabPlotPreview *self);
/* The points drawn (over every curve), and the message shown instead of a
 * figure ("" when a figure is drawn). */
int         flitlab_plot_preview_get_n_points (FlitlabPlotPreview *self);
const char *flitlab_plot_preview_get_message  (FlitlabPlotPreview *self);

G_END_DECLS
