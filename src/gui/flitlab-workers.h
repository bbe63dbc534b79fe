/* flitlab-workers.h — the engine work the application runs off the main
 * loop, in one place: generation, measurement and the building of routings
 * (and, next, simulations and sweeps).
 *
 * Each job runs in a worker thread on data nobody else touches (a copy of
 * the topology) and hands its result back on the main loop. Jobs are of a
 * kind; a new job of a kind supersedes the one still running, whose result
 * is then never delivered: so a network changed under a running job gets
 * the result for the network as it is, never a stale one. The user can
 * cancel everything (flitlab_workers_cancel_all): each job is delivered
 * as cancelled at once, and the engine hears it through its progress
 * callback.
 *
 * Properties: "busy" (boolean: some job runs), "progress" (double: the
 * fraction done of the job that reports it, -1 when none does).
 */
#pragma once

#include <gio/gio.h>

#include "flitlab.h"
#include "flitlab-routed.h"
#include "flitlab-routing-request.h"

G_BEGIN_DECLS

/* Engine failures as GErrors: the code is the FlStatus, the message the
 * engine's own. A cancelled computation becomes G_IO_ERROR_CANCELLED so
 * callers can tell it like any cancelled GIO call. */
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

typedef enum {
  FLITLAB_JOB_GENERATE,
  FLITLAB_JOB_MEASURE,
  FLITLAB_JOB_ROUTE,
  FLITLAB_JOB_SIMULATE,
  FLITLAB_JOB_EXPORT,
  FLITLAB_JOB_COLLECTIVE,      /* a multicast's messages run flit by flit */
  FLITLAB_JOB_EXCHANGE,        /* a complete exchange tracked */
  FLITLAB_JOB_SCHEDULE,        /* requests coloured, or their colour classes run as phases */
  FLITLAB_N_JOB_KINDS
} FlitlabJobKind;

typedef struct _FlitlabJob FlitlabJob;

/* Runs in the worker thread: the result (owned by the caller of done), or
 * NULL with error set. Long computations pass flitlab_job_progress and the
 * job to the engine as its FlProgressFunc. */
typedef gpointer (*FlitlabJobFunc)      (FlitlabJob    *job,
                                         gpointer       data,
                                         GError       **error);
/* Called on the main loop with the fraction done, at most once per
 * main-loop iteration's worth of progress; never once the job was
 * cancelled or superseded. */
typedef void     (*FlitlabProgressFunc) (gpointer       user_data,
                                         double         fraction);
/* Called on the main loop with the result (taken) or the error; error is
 * G_IO_ERROR_CANCELLED when the user cancelled. Never called for a job
 * superseded or one running when the workers shut down. */
typedef void     (*FlitlabJobDone)      (gpointer       user_data,
                                         gpointer       result,
                                         const GError  *error);

/* An FlProgressFunc: records fraction for the progress callback, and
 * returns nonzero once the job is cancelled, to stop the engine. */
int              flitlab_job_progress        (void            *job,
                                              double           fraction);
gboolean         flitlab_job_is_cancelled    (FlitlabJob      *job);

#define FLITLAB_TYPE_WORKERS (flitlab_workers_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabWorkers, flitlab_workers, FLITLAB, WORKERS, GObject)

FlitlabWorkers  *flitlab_workers_new         (void);

/* Runs func (data) as the job of kind, superseding the one running. */
void             flitlab_workers_run         (FlitlabWorkers      *self,
                                              FlitlabJobKind       kind,
                                              FlitlabJobFunc       func,
                                              gpointer             data,
                                              GDestroyNotify       data_free,
                                              GDestroyNotify       result_free,
                                              FlitlabProgressFunc  progress,
                                              FlitlabJobDone       done,
                                              gpointer             user_data);

/* The jobs of the application. Each takes its input; the result is a
 * FlTopology, a FlitlabMeasurement or a FlitlabRouted. */
void             flitlab_workers_generate    (FlitlabWorkers              *self,
                                              const char                  *spec,
                                              FlitlabJobDone               done,
                                              gpointer                     user_data);
void             flitlab_workers_measure     (FlitlabWorkers              *self,
                                              FlTopology                  *topology,
                                              FlitlabProgressFunc          progress,
                                              FlitlabJobDone               done,
                                              gpointer                     user_data);
/* The same with the exhaustive bisection search up to exact_max switches
 * (FlMetricsOptions.exact_bisection_max; 0 is the engine's default). */
void             flitlab_workers_measure_exact (FlitlabWorkers            *self,
                                                FlTopology                *topology,
                                                int                        exact_max,
                                                FlitlabProgressFunc        progress,
                                                FlitlabJobDone             done,
                                                gpointer                   user_data);
void             flitlab_workers_route       (FlitlabWorkers              *self,
                                              FlTopology                  *topology,
                                              const FlitlabRoutingRequest *request,
                                              FlitlabJobDone               done,
                                              gpointer                     user_data);

/* Drops the job of kind without delivering it (its input is gone). */
void             flitlab_workers_supersede   (FlitlabWorkers      *self,
                                              FlitlabJobKind       kind);
/* The user's cancel: every job stops and is delivered as cancelled. */
void             flitlab_workers_cancel_all  (FlitlabWorkers      *self);
/* Drops every job; nothing is delivered any more. */
void             flitlab_workers_shutdown    (FlitlabWorkers      *self);

gboolean         flitlab_workers_is_running  (FlitlabWorkers      *self,
                                              FlitlabJobKind       kind);
gboolean         flitlab_workers_get_busy    (FlitlabWorkers      *self);
double           flitlab_workers_get_progress (FlitlabWorkers     *self);

G_END_DECLS
