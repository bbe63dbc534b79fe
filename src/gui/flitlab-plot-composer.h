/* flitlab-plot-composer.h — the definition of a plot of an experiment:
 * the parameter on x, the result on y (by its title and unit), the
 * parameter whose values make the series (or none), error bars, log axes
 * and the paper's column size; plots saved under a name in the project
 * and read back; Export… to PDF, SVG, PNG, CSV, gnuplot or pgfplots (by
 * the file's extension).
 *
 * Signals: "changed" (): the definition changed; "message" (const char
 * *): a sentence for the user (a plot saved or exported); "failed" (const
 * char *): why a plot could not be read, saved or exported.
 */
#pragma once

#include <adwaita.h>

#include "flitlab-exp.h"
#include "flitlab-experiment-plot.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_PLOT_COMPOSER (flitlab_plot_composer_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabPlotComposer, flitlab_plot_composer, FLITLAB, PLOT_COMPOSER, GtkWidget)

/* The experiment to plot, of project (borrowed; NULL: none), and its
 * design (read now): x and the series offer its varied parameters. Starts
 * from its first saved plot, else rate (or the first parameter) on x,
 * the mean latency on y, and the next parameter as the series. */
void        flitlab_plot_composer_set_experiment (FlitlabPlotComposer *self,
                                                  FlProject           *project,
                                                  const char          *experiment,
                                                  const FlExpDesign   *design);
/* The definition as it stands into spec (fl_plot_spec_init()'d by the
 * caller; cleared first); FALSE when there is no experiment. */
gboolean    flitlab_plot_composer_get_spec       (FlitlabPlotComposer *self,
                                                  FlPlotSpec          *spec);
/* Chooses, as the user would: x, y and the series by key (series NULL:
 * none); FALSE for a key not offered. */
gboolean    flitlab_plot_composer_set_axes       (FlitlabPlotComposer *self,
                                                  const char          *x,
                                                  const char          *y,
                                                  const char          *series);
void        flitlab_plot_composer_set_log        (FlitlabPlotComposer *self,
                                                  gboolean             xlog,
                                                  gboolean             ylog);
/* Writes the plot to path, its format from the extension. */
gboolean    flitlab_plot_composer_export         (FlitlabPlotComposer *self,
                                                  const char          *path,
                                                  GError             **error);
/* Saves the definition under name in the project; lists the saved plots
 * again. */
gboolean    flitlab_plot_composer_save           (FlitlabPlotComposer *self,
                                                  const char          *name,
                                                  GError             **error);
/* The names of the saved plots, as listed. */
GListModel *flitlab_plot_composer_get_saved      (FlitlabPlotComposer *self);
/* Shows the saved plot called name (FALSE: none). */
gboolean    flitlab_plot_composer_load           (FlitlabPlotComposer *self,
                                                  const char          *name,
                                                  GError             **error);

G_END_DECLS
