/* flitlab-sim-plot.h — a live plot of a simulation being watched, drawn by
 * fl_draw_plot() (the code that exports plots for papers) from the
 * samples its timeline keeps: accepted throughput against the offered
 * load, average latency, or one link's channel utilization. A vertical
 * cursor marks the cycle shown, so stepping back moves along a curve
 * already drawn.
 */
#pragma once

#include <gtk/gtk.h>

#include "flitlab-sim-session.h"

G_BEGIN_DECLS

typedef enum {
  FLITLAB_SIM_PLOT_THROUGHPUT,   /* accepted and offered flits/cycle/host */
  FLITLAB_SIM_PLOT_LATENCY,      /* mean latency of the packets delivered */
  FLITLAB_SIM_PLOT_LINK,         /* utilization of a link's two channels */
} FlitlabSimPlotKind;

#define FLITLAB_TYPE_SIM_PLOT (flitlab_sim_plot_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabSimPlot, flitlab_sim_plot, FLITLAB, SIM_PLOT, GtkWidget)

GtkWidget *flitlab_sim_plot_new         (FlitlabSimPlotKind  kind);
/* The session plotted (NULL: none); redrawn as it steps. */
void       flitlab_sim_plot_set_session (FlitlabSimPlot     *self,
                                         FlitlabSimSession  *session);
/* The link of a FLITLAB_SIM_PLOT_LINK plot. */
void       flitlab_sim_plot_set_link    (FlitlabSimPlot     *self,
                                         int                 link);
/* The points drawn in the first series so far (for tests). */
int        flitlab_sim_plot_get_n_points (FlitlabSimPlot    *self);

G_END_DECLS
