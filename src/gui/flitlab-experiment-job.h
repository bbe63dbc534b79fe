/* flitlab-experiment-job.h — an experiment of a project file run off the
 * main loop (fl_experiment_run() in a thread of its own), with its
 * progress and each finished run handed back on the main loop.
 *
 * The job opens the file again for its thread (an SQLite connection is
 * not shared between threads), so the runs are committed straight into
 * the file by the runner whatever the window's unsaved edits.
 *
 * Signals, all on the main loop: "progress" (done, total: runs the file
 * holds and the design's; the fraction; a sentence such as "12 of 40 runs
 * · about 1 min left"); "result" (gint64 idx, const char *status, seed,
 * then a GHashTable of the run's scalars by name, borrowed); "finished"
 * (const GError *: NULL, cancelled, or why it failed), once, last.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define FLITLAB_TYPE_EXPERIMENT_JOB (flitlab_experiment_job_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabExperimentJob, flitlab_experiment_job, FLITLAB, EXPERIMENT_JOB, GObject)

/* Starts running what the file at path lacks of the experiment called
 * name, on workers threads (0: the machine's cores). */
FlitlabExperimentJob *flitlab_experiment_job_new       (const char           *path,
                                                        const char           *name,
                                                        int                   workers);
const char           *flitlab_experiment_job_get_name  (FlitlabExperimentJob *self);
/* Asks the runner to stop: runs in flight are not committed; "finished"
 * follows with G_IO_ERROR_CANCELLED. */
void                  flitlab_experiment_job_cancel    (FlitlabExperimentJob *self);
gboolean              flitlab_experiment_job_is_finished (FlitlabExperimentJob *self);
/* Cancels and waits for the thread to end, dropping what it would still
 * deliver: for a window that is going. */
void                  flitlab_experiment_job_stop      (FlitlabExperimentJob *self);

/* "12 of 40 runs · about 1 min left" for the counts and time left (NaN:
 * not known yet). */
char                 *flitlab_experiment_progress_text (gint64                done,
                                                        gint64                total,
                                                        double                eta_s);

G_END_DECLS
