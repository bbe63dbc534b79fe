/* flitlab-experiment-job.c — an experiment run in a thread of its own.
 *
 * fl_experiment_run() blocks its thread and calls back from its worker
 * threads; each callback copies what it was given and hands it to the main
 * loop with g_main_context_invoke_full(). Everything delivered holds a
 * reference on the job, so the job outlives its last delivery; a job
 * stopped (its window going) delivers nothing more. */
#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>

#include "flitlab-experiment-job.h"
#include "flitlab-experiment.h"
#include "flitlab-workers.h"

struct _FlitlabExperimentJob
{
  GObject parent_instance;

  char *path;
  char *name;
  int workers;
  GThread *thread;
  GMainContext *context;

  /* Shared with the thread. */
  GMutex lock;
  FlExperiment *experiment;      /* while it runs */
  gboolean cancelled;
  gboolean stopped;              /* nothing is delivered any more */

  gboolean finished;             /* on the main loop */
};

G_DEFINE_FINAL_TYPE (FlitlabExperimentJob, flitlab_experiment_job, G_TYPE_OBJECT)

enum {
  PROGRESS,
  RESULT,
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

char *
flitlab_experiment_progress_text (gint64 done,
                                  gint64 total,
                                  double eta_s)
{
  g_autofree char *runs = g_strdup_printf (ngettext ("%" PRId64 " of %" PRId64 " run",
                                                     "%" PRId64 " of %" PRId64 " runs",
                                                     (gulong) total),
                                           done, total);
  g_autofree char *left = NULL;

  if (isnan (eta_s) || eta_s < 0)
    return g_steal_pointer (&runs);
  if (eta_s < 60)
    left = g_strdup_printf (ngettext ("about %d s left", "about %d s left", (gulong) ceil (eta_s)),
                            (int) ceil (eta_s));
  else
    left = g_strdup_printf (ngettext ("about %d min left", "about %d min left", (gulong) lround (eta_s / 60)),
                            (int) lround (eta_s / 60));
  /* Translators: runs done of the total, then the time left. */
  return g_strdup_printf (_("%s · %s"), runs, left);
}

/* What a callback hands to the main loop. */
typedef struct
{
  FlitlabExperimentJob *self;
  guint signal;
  FlExperimentProgress progress;
  gint64 idx;
  int status;
  guint64 seed;
  GHashTable *scalars;
  GError *error;
} Delivery;

static void
delivery_free (gpointer data)
{
  Delivery *d = data;

  g_object_unref (d->self);
  g_clear_pointer (&d->scalars, g_hash_table_unref);
  g_clear_error (&d->error);
  g_free (d);
}

static const char *
status_word (int status)
{
  switch (status)
    {
    case FL_RUN_DONE:
      return "done";
    case FL_RUN_FAILED:
      return "failed";
    case FL_RUN_STOPPED:
      return "stopped";
    default:
      return "missing";
    }
}

static gboolean
deliver (gpointer data)
{
  Delivery *d = data;
  FlitlabExperimentJob *self = d->self;
  gboolean stopped;

  g_mutex_lock (&self->lock);
  stopped = self->stopped;
  g_mutex_unlock (&self->lock);
  if (stopped)
    return G_SOURCE_REMOVE;
  if (d->signal == PROGRESS)
    {
      const FlExperimentProgress *p = &d->progress;
      gint64 held = fl_experiment_finished (p);
      g_autofree char *text = flitlab_experiment_progress_text (held, p->total, p->eta_s);

      g_signal_emit (self, signals[PROGRESS], 0, held, p->total, p->total > 0 ? (double) held / p->total : 1.0,
                     text);
    }
  else if (d->signal == RESULT)
    g_signal_emit (self, signals[RESULT], 0, d->idx, status_word (d->status), d->seed, d->scalars);
  else
    {
      self->finished = TRUE;
      g_signal_emit (self, signals[FINISHED], 0, d->error);
    }
  return G_SOURCE_REMOVE;
}

static void
hand_over (Delivery *d)
{
  g_main_context_invoke_full (d->self->context, G_PRIORITY_DEFAULT, deliver, d, delivery_free);
}

static Delivery *
delivery_new (FlitlabExperimentJob *self,
              guint                 signal)
{
  Delivery *d = g_new0 (Delivery, 1);

  d->self = g_object_ref (self);
  d->signal = signal;
  return d;
}

static void
progress_cb (void                       *user_data,
             const FlExperimentProgress *p)
{
  Delivery *d = delivery_new (user_data, PROGRESS);

  d->progress = *p;
  hand_over (d);
}

static void
result_cb (void                     *user_data,
           const FlExperimentResult *result)
{
  Delivery *d = delivery_new (user_data, RESULT);

  d->idx = result->idx;
  d->status = result->status;
  d->seed = result->seed;
  d->scalars = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (int i = 0; i < result->nscalars; i++)
    g_hash_table_insert (d->scalars, g_strdup (result->scalar_names[i]),
                         g_memdup2 (&result->scalar_values[i], sizeof (double)));
  hand_over (d);
}

static gpointer
run_thread (gpointer data)
{
  FlitlabExperimentJob *self = data;
  Delivery *done = delivery_new (self, FINISHED);
  FlProject *project = NULL;
  FlExperiment *experiment = NULL;
  FlExperimentRunOptions opt;
  FlError err = { 0 };
  int rc;

  rc = fl_project_open (self->path, &project, &err);
  if (rc == FL_OK)
    rc = fl_experiment_open (project, self->name, &experiment, &err);
  if (rc == FL_OK)
    {
      g_mutex_lock (&self->lock);
      self->experiment = experiment;
      if (self->cancelled)
        fl_experiment_cancel (experiment);
      g_mutex_unlock (&self->lock);

      fl_experiment_run_options_init (&opt);
      opt.workers = self->workers;
      opt.progress = progress_cb;
      opt.progress_data = self;
      opt.result = result_cb;
      opt.result_data = self;
      rc = fl_experiment_run (experiment, &opt, &err);

      g_mutex_lock (&self->lock);
      self->experiment = NULL;
      g_mutex_unlock (&self->lock);
    }
  if (rc == FL_ECANCELLED)
    done->error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Stopped"));
  else if (rc != FL_OK)
    flitlab_set_engine_error (&done->error, &err);
  fl_experiment_free (experiment);
  fl_project_free (project);
  hand_over (done);
  g_object_unref (self);
  return NULL;
}

FlitlabExperimentJob *
flitlab_experiment_job_new (const char *path,
                            const char *name,
                            int         workers)
{
  FlitlabExperimentJob *self;

  g_return_val_if_fail (path != NULL && name != NULL, NULL);

  self = g_object_new (FLITLAB_TYPE_EXPERIMENT_JOB, NULL);
  self->path = g_strdup (path);
  self->name = g_strdup (name);
  self->workers = workers > 0 ? workers : (int) g_get_num_processors ();
  self->context = g_main_context_ref_thread_default ();
  self->thread = g_thread_new ("flitlab-experiment", run_thread, g_object_ref (self));
  return self;
}

const char *
flitlab_experiment_job_get_name (FlitlabExperimentJob *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENT_JOB (self), NULL);

  return self->name;
}

void
flitlab_experiment_job_cancel (FlitlabExperimentJob *self)
{
  g_return_if_fail (FLITLAB_IS_EXPERIMENT_JOB (self));

  g_mutex_lock (&self->lock);
  self->cancelled = TRUE;
  if (self->experiment != NULL)
    fl_experiment_cancel (self->experiment);
  g_mutex_unlock (&self->lock);
}

gboolean
flitlab_experiment_job_is_finished (FlitlabExperimentJob *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENT_JOB (self), TRUE);

  return self->finished;
}

void
flitlab_experiment_job_stop (FlitlabExperimentJob *self)
{
  g_return_if_fail (FLITLAB_IS_EXPERIMENT_JOB (self));

  g_mutex_lock (&self->lock);
  self->stopped = TRUE;
  g_mutex_unlock (&self->lock);
  flitlab_experiment_job_cancel (self);
  g_clear_pointer (&self->thread, g_thread_join);
}

static void
flitlab_experiment_job_finalize (GObject *object)
{
  FlitlabExperimentJob *self = FLITLAB_EXPERIMENT_JOB (object);

  /* The thread holds a reference until its end: it has ended. */
  g_clear_pointer (&self->thread, g_thread_unref);
  g_main_context_unref (self->context);
  g_mutex_clear (&self->lock);
  g_free (self->path);
  g_free (self->name);
  G_OBJECT_CLASS (flitlab_experiment_job_parent_class)->finalize (object);
}

static void
flitlab_experiment_job_class_init (FlitlabExperimentJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = flitlab_experiment_job_finalize;

  signals[PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                    NULL, G_TYPE_NONE, 4, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_DOUBLE,
                                    G_TYPE_STRING);
  signals[RESULT] = g_signal_new ("result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 4, G_TYPE_INT64, G_TYPE_STRING, G_TYPE_UINT64,
                                  G_TYPE_HASH_TABLE);
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                    NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
flitlab_experiment_job_init (FlitlabExperimentJob *self)
{
  g_mutex_init (&self->lock);
}
