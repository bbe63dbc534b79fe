/* flitlab-task.h — engine work in GTask worker threads.
 *
 * The window never calls a slow engine function on the main loop: it hands
 * a copy of the topology to one of these tasks and gets the result in its
 * callback. A task is cancelled through its GCancellable when a newer
 * request supersedes it or the window closes; measuring stops within one
 * progress step, generation finishes but its result is dropped. */
#pragma once

#include <gio/gio.h>

#include "flitlab.h"

G_BEGIN_DECLS

/* Engine failures as GErrors: the code is the FlStatus, the message the
 * engine's own. A cancelled computation becomes G_IO_ERROR_CANCELLED so
 * callers can ignore it like any cancelled GIO call. */
#define FLITLAB_ENGINE_ERROR (flitlab_engine_error_quark ())
GQuark flitlab_engine_error_quark (void);

void   flitlab_set_engine_error (GError        **error,
                                 const FlError  *err);

/* What measuring found: every metric, and the first structural problem of a
 * drawn network (NULL when it is sound). has_metrics is FALSE when the
 * network has nothing to measure (no switch at all). */
typedef struct
{
  gboolean has_metrics;
  FlMetrics metrics;
  char *problem;
} FlitlabMeasurement;

void flitlab_measurement_free (FlitlabMeasurement *measurement);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlitlabMeasurement, flitlab_measurement_free)

/* Called on the main loop with the fraction done, at most once per frame's
 * worth of progress; never after the task was cancelled. */
typedef void (*FlitlabProgressFunc) (gpointer user_data,
                                     double   fraction);

void                flitlab_task_generate_async  (gpointer             source_object,
                                                  const char          *spec,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
FlTopology         *flitlab_task_generate_finish (GAsyncResult         *result,
                                                  GError              **error);

/* Takes ownership of topology, which must be a copy nobody else touches. */
void                flitlab_task_measure_async   (gpointer             source_object,
                                                  FlTopology          *topology,
                                                  GCancellable        *cancellable,
                                                  FlitlabProgressFunc  progress,
                                                  gpointer             progress_data,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
FlitlabMeasurement *flitlab_task_measure_finish  (GAsyncResult         *result,
                                                  GError              **error);

G_END_DECLS
