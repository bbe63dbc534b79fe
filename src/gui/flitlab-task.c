/* flitlab-task.c — engine work in GTask worker threads. */
#include "flitlab-task.h"

G_DEFINE_QUARK (flitlab-engine-error-quark, flitlab_engine_error)

void
flitlab_set_engine_error (GError        **error,
                          const FlError  *err)
{
  const char *message = err->message[0] != '\0' ? err->message : fl_strerror (err->code);

  if (err->code == FL_ECANCELLED)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, message);
  else
    g_set_error_literal (error, FLITLAB_ENGINE_ERROR, err->code, message);
}

void
flitlab_measurement_free (FlitlabMeasurement *measurement)
{
  if (measurement == NULL)
    return;
  fl_metrics_clear (&measurement->metrics);
  g_free (measurement->problem);
  g_free (measurement);
}

/* Generation ---------------------------------------------------------------- */

static void
generate_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  const char *spec = task_data;
  FlTopology *topology = NULL;
  FlError err = { 0 };

  if (fl_topology_from_spec (spec, &topology, &err) != FL_OK)
    {
      GError *error = NULL;

      flitlab_set_engine_error (&error, &err);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, topology, (GDestroyNotify) fl_topology_free);
}

void
flitlab_task_generate_async (gpointer             source_object,
                             const char          *spec,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (source_object, cancellable, callback, user_data);

  g_task_set_source_tag (task, flitlab_task_generate_async);
  g_task_set_task_data (task, g_strdup (spec), g_free);
  g_task_run_in_thread (task, generate_thread);
}

FlTopology *
flitlab_task_generate_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Measuring ----------------------------------------------------------------- */

typedef struct
{
  GTask *task;                  /* not a reference: the thread holds one */
  FlTopology *topology;
  FlitlabProgressFunc progress;
  gpointer progress_data;
  /* Progress crosses threads as an integer so that one idle callback at a
   * time can pick up the latest value, however fast the engine reports. */
  int permille;
  int idle_pending;
} MeasureData;

static void
measure_data_free (MeasureData *data)
{
  fl_topology_free (data->topology);
  g_free (data);
}

static gboolean
deliver_progress (gpointer user_data)
{
  GTask *task = user_data;
  MeasureData *data = g_task_get_task_data (task);
  int permille;

  g_atomic_int_set (&data->idle_pending, 0);
  permille = g_atomic_int_get (&data->permille);
  if (!g_cancellable_is_cancelled (g_task_get_cancellable (task)) && !g_task_get_completed (task))
    data->progress (data->progress_data, permille / 1000.0);
  return G_SOURCE_REMOVE;
}

/* Runs in the worker thread: it is also the engine's only way to hear that
 * the result is no longer wanted. */
static int
measure_progress (void   *user_data,
                  double  fraction)
{
  MeasureData *data = user_data;
  GCancellable *cancellable = g_task_get_cancellable (data->task);
  int permille = (int) CLAMP (fraction * 1000.0, 0.0, 1000.0);

  if (g_cancellable_is_cancelled (cancellable))
    return 1;
  if (data->progress == NULL || permille == g_atomic_int_get (&data->permille))
    return 0;
  g_atomic_int_set (&data->permille, permille);
  if (g_atomic_int_compare_and_exchange (&data->idle_pending, 0, 1))
    g_main_context_invoke_full (g_task_get_context (data->task), G_PRIORITY_DEFAULT,
                                deliver_progress, g_object_ref (data->task), g_object_unref);
  return 0;
}

static void
measure_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  MeasureData *data = task_data;
  g_autoptr(FlitlabMeasurement) measurement = g_new0 (FlitlabMeasurement, 1);
  FlMetricsOptions options = { 0 };
  FlError err = { 0 };

  if (fl_topology_validate (data->topology, &err) != FL_OK)
    measurement->problem = g_strdup (err.message);

  if (fl_topology_switch_count (data->topology) > 0)
    {
      options.progress = measure_progress;
      options.progress_data = data;
      fl_error_clear (&err);
      if (fl_metrics_compute (data->topology, &options, &measurement->metrics, &err) != FL_OK)
        {
          GError *error = NULL;

          flitlab_set_engine_error (&error, &err);
          g_task_return_error (task, error);
          return;
        }
      measurement->has_metrics = TRUE;
    }
  g_task_return_pointer (task, g_steal_pointer (&measurement),
                         (GDestroyNotify) flitlab_measurement_free);
}

void
flitlab_task_measure_async (gpointer             source_object,
                            FlTopology          *topology,
                            GCancellable        *cancellable,
                            FlitlabProgressFunc  progress,
                            gpointer             progress_data,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (source_object, cancellable, callback, user_data);
  MeasureData *data = g_new0 (MeasureData, 1);

  data->task = task;
  data->topology = topology;
  data->progress = progress;
  data->progress_data = progress_data;
  data->permille = -1;
  g_task_set_source_tag (task, flitlab_task_measure_async);
  g_task_set_task_data (task, data, (GDestroyNotify) measure_data_free);
  g_task_run_in_thread (task, measure_thread);
}

FlitlabMeasurement *
flitlab_task_measure_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
