/* flitlab-workers.c — engine work in worker threads, with progress and
 * cancel. */
#include "flitlab-workers.h"

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

struct _FlitlabWorkers
{
  GObject parent_instance;

  FlitlabJob *running[FLITLAB_N_JOB_KINDS];
  gboolean busy;
  double progress;
};

G_DEFINE_FINAL_TYPE (FlitlabWorkers, flitlab_workers, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BUSY,
  PROP_PROGRESS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* A job, shared by the worker thread and the main loop. */
struct _FlitlabJob
{
  gatomicrefcount ref_count;
  FlitlabWorkers *workers;     /* main loop only; NULL once dropped */
  FlitlabJobKind kind;
  GCancellable *cancellable;
  GMainContext *context;
  FlitlabJobFunc func;
  gpointer data;
  GDestroyNotify data_free;
  GDestroyNotify result_free;
  FlitlabProgressFunc progress;
  FlitlabJobDone done;
  gpointer user_data;
  /* Progress crosses threads as an integer so that one idle callback at a
   * time can pick up the latest value, however fast the engine reports. */
  int permille;
  int idle_pending;
};

static FlitlabJob *
job_ref (FlitlabJob *job)
{
  g_atomic_ref_count_inc (&job->ref_count);
  return job;
}

static void
job_unref (FlitlabJob *job)
{
  if (!g_atomic_ref_count_dec (&job->ref_count))
    return;
  if (job->data_free != NULL)
    job->data_free (job->data);
  g_object_unref (job->cancellable);
  g_main_context_unref (job->context);
  g_free (job);
}

gboolean
flitlab_job_is_cancelled (FlitlabJob *job)
{
  return g_cancellable_is_cancelled (job->cancellable);
}

/* Busy and progress --------------------------------------------------------- */

static void
update_state (FlitlabWorkers *self)
{
  gboolean busy = FALSE;
  double progress = -1;

  for (int k = 0; k < FLITLAB_N_JOB_KINDS; k++)
    if (self->running[k] != NULL)
      {
        int permille = g_atomic_int_get (&self->running[k]->permille);

        busy = TRUE;
        if (permille >= 0 && progress < 0)
          progress = permille / 1000.0;
      }
  if (busy != self->busy)
    {
      self->busy = busy;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
  if (progress != self->progress)
    {
      self->progress = progress;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
    }
}

static gboolean
deliver_progress (gpointer user_data)
{
  FlitlabJob *job = user_data;

  g_atomic_int_set (&job->idle_pending, 0);
  if (job->workers == NULL || g_cancellable_is_cancelled (job->cancellable))
    return G_SOURCE_REMOVE;
  if (job->progress != NULL)
    job->progress (job->user_data, g_atomic_int_get (&job->permille) / 1000.0);
  update_state (job->workers);
  return G_SOURCE_REMOVE;
}

/* Runs in the worker thread: it is also the engine's only way to hear that
 * the result is no longer wanted. */
int
flitlab_job_progress (void   *user_data,
                      double  fraction)
{
  FlitlabJob *job = user_data;
  int permille = (int) CLAMP (fraction * 1000.0, 0.0, 1000.0);

  if (g_cancellable_is_cancelled (job->cancellable))
    return 1;
  if (permille == g_atomic_int_get (&job->permille))
    return 0;
  g_atomic_int_set (&job->permille, permille);
  if (g_atomic_int_compare_and_exchange (&job->idle_pending, 0, 1))
    g_main_context_invoke_full (job->context, G_PRIORITY_DEFAULT, deliver_progress,
                                job_ref (job), (GDestroyNotify) job_unref);
  return 0;
}

/* Running -------------------------------------------------------------------- */

static void
job_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  FlitlabJob *job = task_data;
  GError *error = NULL;
  gpointer result = job->func (job, job->data, &error);

  if (g_task_return_error_if_cancelled (task))
    {
      if (result != NULL && job->result_free != NULL)
        job->result_free (result);
      g_clear_error (&error);
    }
  else if (result == NULL)
    g_task_return_error (task, error != NULL ? error
                                             : g_error_new_literal (FLITLAB_ENGINE_ERROR, FL_ENOMEM,
                                                                    fl_strerror (FL_ENOMEM)));
  else
    g_task_return_pointer (task, result, job->result_free);
}

static void
job_done (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  FlitlabJob *job = user_data;
  FlitlabWorkers *self = job->workers;
  g_autoptr(GError) error = NULL;
  gpointer value = g_task_propagate_pointer (G_TASK (result), &error);

  /* A job dropped (superseded, or the workers shut down) is not
   * delivered: its successor owns whatever showed it. */
  if (self == NULL)
    {
      if (value != NULL && job->result_free != NULL)
        job->result_free (value);
      job_unref (job);
      return;
    }
  self->running[job->kind] = NULL;
  job->workers = NULL;
  update_state (self);
  job->done (job->user_data, value, error);
  job_unref (job);
  g_object_unref (self);
}

/* Forgets the job of kind: it runs on, cancelled, but is not delivered. */
static void
drop (FlitlabWorkers *self,
      FlitlabJobKind  kind)
{
  FlitlabJob *job = g_steal_pointer (&self->running[kind]);

  if (job == NULL)
    return;
  g_cancellable_cancel (job->cancellable);
  job->workers = NULL;
  g_object_unref (self);
}

void
flitlab_workers_run (FlitlabWorkers      *self,
                     FlitlabJobKind       kind,
                     FlitlabJobFunc       func,
                     gpointer             data,
                     GDestroyNotify       data_free,
                     GDestroyNotify       result_free,
                     FlitlabProgressFunc  progress,
                     FlitlabJobDone       done,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  FlitlabJob *job;

  g_return_if_fail (FLITLAB_IS_WORKERS (self));
  g_return_if_fail (kind < FLITLAB_N_JOB_KINDS && func != NULL && done != NULL);

  drop (self, kind);
  job = g_new0 (FlitlabJob, 1);
  g_atomic_ref_count_init (&job->ref_count);
  /* The workers live while a job they will deliver runs. */
  job->workers = g_object_ref (self);
  job->kind = kind;
  job->cancellable = g_cancellable_new ();
  job->context = g_main_context_ref_thread_default ();
  job->func = func;
  job->data = data;
  job->data_free = data_free;
  job->result_free = result_free;
  job->progress = progress;
  job->done = done;
  job->user_data = user_data;
  job->permille = -1;
  self->running[kind] = job;

  task = g_task_new (NULL, job->cancellable, job_done, job_ref (job));
  g_task_set_task_data (task, job_ref (job), (GDestroyNotify) job_unref);
  g_task_run_in_thread (task, job_thread);
  /* The task's callback holds the other reference. */
  job_unref (job);
  update_state (self);
}

void
flitlab_workers_supersede (FlitlabWorkers *self,
                           FlitlabJobKind  kind)
{
  g_return_if_fail (FLITLAB_IS_WORKERS (self));

  drop (self, kind);
  update_state (self);
}

void
flitlab_workers_cancel_all (FlitlabWorkers *self)
{
  g_return_if_fail (FLITLAB_IS_WORKERS (self));

  /* Each job is delivered as cancelled now rather than when its thread
   * ends: a generation never hears the cancel, and a search may not for a
   * while, and the window must not wait for them. The thread runs on,
   * detached, and its result is freed. */
  g_object_ref (self);
  for (int k = 0; k < FLITLAB_N_JOB_KINDS; k++)
    {
      FlitlabJob *job = g_steal_pointer (&self->running[k]);
      g_autoptr(GError) error = NULL;

      if (job == NULL)
        continue;
      g_cancellable_cancel (job->cancellable);
      job->workers = NULL;
      job_ref (job);
      update_state (self);
      error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, fl_strerror (FL_ECANCELLED));
      job->done (job->user_data, NULL, error);
      job_unref (job);
      g_object_unref (self);
    }
  update_state (self);
  g_object_unref (self);
}

void
flitlab_workers_shutdown (FlitlabWorkers *self)
{
  g_return_if_fail (FLITLAB_IS_WORKERS (self));

  for (int k = 0; k < FLITLAB_N_JOB_KINDS; k++)
    drop (self, k);
  update_state (self);
}

gboolean
flitlab_workers_is_running (FlitlabWorkers *self,
                            FlitlabJobKind  kind)
{
  g_return_val_if_fail (FLITLAB_IS_WORKERS (self), FALSE);

  return self->running[kind] != NULL;
}

gboolean
flitlab_workers_get_busy (FlitlabWorkers *self)
{
  g_return_val_if_fail (FLITLAB_IS_WORKERS (self), FALSE);

  return self->busy;
}

double
flitlab_workers_get_progress (FlitlabWorkers *self)
{
  g_return_val_if_fail (FLITLAB_IS_WORKERS (self), -1);

  return self->progress;
}

/* Generation ------------------------------------------------------------------ */

static gpointer
generate_job (FlitlabJob  *job,
              gpointer     data,
              GError     **error)
{
  FlTopology *topology = NULL;
  FlError err = { 0 };

  if (fl_topology_from_spec (data, &topology, &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return NULL;
    }
  return topology;
}

void
flitlab_workers_generate (FlitlabWorkers *self,
                          const char     *spec,
                          FlitlabJobDone  done,
                          gpointer        user_data)
{
  flitlab_workers_run (self, FLITLAB_JOB_GENERATE, generate_job, g_strdup (spec), g_free,
                       (GDestroyNotify) fl_topology_free, NULL, done, user_data);
}

/* Measuring ------------------------------------------------------------------- */

typedef struct
{
  FlTopology *topology;
  int exact_max;
} MeasureData;

static void
measure_data_free (MeasureData *data)
{
  fl_topology_free (data->topology);
  g_free (data);
}

static gpointer
measure_job (FlitlabJob  *job,
             gpointer     user_data,
             GError     **error)
{
  MeasureData *data = user_data;
  FlTopology *topology = data->topology;
  g_autoptr(FlitlabMeasurement) measurement = g_new0 (FlitlabMeasurement, 1);
  FlMetricsOptions options = { 0 };
  FlError err = { 0 };

  if (fl_topology_validate (topology, &err) != FL_OK)
    measurement->problem = g_strdup (err.message);

  if (fl_topology_switch_count (topology) > 0)
    {
      options.exact_bisection_max = data->exact_max;
      options.progress = flitlab_job_progress;
      options.progress_data = job;
      fl_error_clear (&err);
      if (fl_metrics_compute (topology, &options, &measurement->metrics, &err) != FL_OK)
        {
          flitlab_set_engine_error (error, &err);
          return NULL;
        }
      measurement->has_metrics = TRUE;
    }
  return g_steal_pointer (&measurement);
}

void
flitlab_workers_measure (FlitlabWorkers      *self,
                         FlTopology          *topology,
                         FlitlabProgressFunc  progress,
                         FlitlabJobDone       done,
                         gpointer             user_data)
{
  flitlab_workers_measure_exact (self, topology, 0, progress, done, user_data);
}

void
flitlab_workers_measure_exact (FlitlabWorkers      *self,
                               FlTopology          *topology,
                               int                  exact_max,
                               FlitlabProgressFunc  progress,
                               FlitlabJobDone       done,
                               gpointer             user_data)
{
  MeasureData *data = g_new0 (MeasureData, 1);

  data->topology = topology;
  data->exact_max = exact_max;
  flitlab_workers_run (self, FLITLAB_JOB_MEASURE, measure_job, data,
                       (GDestroyNotify) measure_data_free,
                       (GDestroyNotify) flitlab_measurement_free, progress, done, user_data);
}

/* Routing ---------------------------------------------------------------------- */

typedef struct
{
  FlTopology *topology;
  FlitlabRoutingRequest *request;
} RouteData;

static void
route_data_free (RouteData *data)
{
  fl_topology_free (data->topology);
  flitlab_routing_request_free (data->request);
  g_free (data);
}

static gpointer
route_job (FlitlabJob  *job,
           gpointer     user_data,
           GError     **error)
{
  RouteData *data = user_data;
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (FlTurn));
  FlRoutingOptions options;

  /* Building the tables of a large network is the engine's only chance to
   * hear that the routing is no longer wanted. */
  flitlab_routing_request_options (data->request, data->topology, kept, &options);
  options.progress = flitlab_job_progress;
  options.progress_data = job;
  return flitlab_routed_new (g_steal_pointer (&data->topology), data->request->name, &options,
                             error);
}

void
flitlab_workers_route (FlitlabWorkers              *self,
                       FlTopology                  *topology,
                       const FlitlabRoutingRequest *request,
                       FlitlabJobDone               done,
                       gpointer                     user_data)
{
  RouteData *data = g_new0 (RouteData, 1);

  data->topology = topology;
  data->request = flitlab_routing_request_copy (request);
  flitlab_workers_run (self, FLITLAB_JOB_ROUTE, route_job, data, (GDestroyNotify) route_data_free,
                       (GDestroyNotify) flitlab_routed_unref, NULL, done, user_data);
}

/* GObject ----------------------------------------------------------------------- */

FlitlabWorkers *
flitlab_workers_new (void)
{
  return g_object_new (FLITLAB_TYPE_WORKERS, NULL);
}

static void
flitlab_workers_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  FlitlabWorkers *self = FLITLAB_WORKERS (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_workers_class_init (FlitlabWorkersClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = flitlab_workers_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, -1, 1, -1,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
flitlab_workers_init (FlitlabWorkers *self)
{
  self->progress = -1;
}
