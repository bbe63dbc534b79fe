/* flitlab-experiments-view.h — the project's experiments: their list, the
 * runs of the one selected in a table, running it (or resuming it) with
 * its progress and Stop, and a plot of its results composed beside a
 * preview that redraws as runs come in.
 *
 * Experiments live in the project file's journal (flitlab-store.h): an
 * untitled project has none, and the view asks for the project to be
 * saved first (win.save-as). Creating one is win.new-experiment's.
 *
 * A run goes through a FlitlabExperimentJob, on a second handle of the
 * project file, and commits its runs straight into the file.
 *
 * Properties: "running" (boolean, read-only). Signals: "open-run" (const
 * char *experiment, gint64 idx): the user asked to watch a run.
 */
#pragma once

#include <adwaita.h>

#include "flitlab-plot-composer.h"
#include "flitlab-plot-preview.h"
#include "flitlab-runs-table.h"
#include "flitlab-store.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_EXPERIMENTS_VIEW (flitlab_experiments_view_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabExperimentsView, flitlab_experiments_view, FLITLAB, EXPERIMENTS_VIEW, GtkWidget)

/* The project whose experiments are shown (borrowed: it must outlive the
 * view or be replaced first; NULL: none). Lists them again. */
void              flitlab_experiments_view_set_project  (FlitlabExperimentsView *self,
                                                         FlProject              *project);
/* Lists the experiments again (after a save under another name, or one
 * was created), keeping the one selected. */
void              flitlab_experiments_view_refresh      (FlitlabExperimentsView *self);
/* Shows the experiment called name (FALSE: there is none). */
gboolean          flitlab_experiments_view_select       (FlitlabExperimentsView *self,
                                                         const char             *name);
const char       *flitlab_experiments_view_get_selected (FlitlabExperimentsView *self);

/* Runs what the file lacks of the experiment shown (FALSE: nothing to run,
 * or one runs already); stops the run. */
gboolean          flitlab_experiments_view_run          (FlitlabExperimentsView *self);
void              flitlab_experiments_view_cancel       (FlitlabExperimentsView *self);
gboolean          flitlab_experiments_view_get_running  (FlitlabExperimentsView *self);
/* Stops a run for good, waiting for its thread: the window is going. */
void              flitlab_experiments_view_shutdown     (FlitlabExperimentsView *self);

FlitlabRunsTable *flitlab_experiments_view_get_table    (FlitlabExperimentsView *self);
FlitlabPlotComposer *flitlab_experiments_view_get_composer (FlitlabExperimentsView *self);
FlitlabPlotPreview *flitlab_experiments_view_get_preview (FlitlabExperimentsView *self);
/* The sentence under the progress bar ("12 of 40 runs · about 1 min
 * left", or what the last run came to). */
const char       *flitlab_experiments_view_get_progress_text (FlitlabExperimentsView *self);

G_END_DECLS
