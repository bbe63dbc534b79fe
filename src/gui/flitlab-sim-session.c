/* flitlab-sim-session.c — a simulation run driven by the application. */
#include "flitlab-sim-session.h"

/* Defaults: the engine's for checkpoints and samples (a checkpoint every
 * 256 cycles, 256 MiB of them, a sample every 100 cycles), 20 cycles per
 * second when playing. */
#define DEFAULT_INTERVAL FL_SIM_TIMELINE_DEFAULT_INTERVAL
#define DEFAULT_BUDGET ((guint64) FL_SIM_TIMELINE_DEFAULT_BUDGET)
#define DEFAULT_SAMPLE_INTERVAL FL_SIM_TIMELINE_DEFAULT_SAMPLE
#define DEFAULT_SPEED 20.0
/* A deflection cycle costs about what its checkpoint does on paper 003's
 * XMESH (1.4 ms and 2 ms on a 36x72 one, checkpoints of 450 kB): one every
 * 32 cycles adds a few percent to a run and keeps a step back within 31
 * cycles of simulation (under 50 ms there). */
#define DEFLECT_INTERVAL 32
/* While playing, each main-loop visit simulates for at most this long, and
 * a paced session is visited at about 60 Hz. */
#define PLAY_BUDGET_US 8000
#define PLAY_PERIOD_MS 16

struct _FlitlabSimSession
{
  GObject parent_instance;

  const FlTopology *topology;
  const FlRouting *routing;
  gpointer owner;
  GDestroyNotify owner_free;
  FlSim *sim;
  /* Steps, seeks and checkpoints the simulation, and samples it. */
  FlSimTimeline *timeline;
  gint64 interval;
  guint64 budget;
  /* Or the deflection model, its checkpoints (sorted by cycle, cycle 0's
   * first) and their bytes, and its statistics at every cycle reached so
   * far (index = cycle). */
  FlDeflect *deflect;
  FlDeflectConfig deflect_config;
  GPtrArray *deflect_checkpoints;
  guint64 deflect_bytes;
  GArray *deflect_stats;

  double speed;
  guint play_source;
  gint64 play_start_us;       /* when pacing started, and the cycle then */
  gint64 play_start_cycle;

  /* What the properties said when last notified. */
  gint64 shown_cycle;
  gint64 shown_max_cycle;
  FlSimStatus shown_status;
  gboolean shown_can_step_back;
};

G_DEFINE_FINAL_TYPE (FlitlabSimSession, flitlab_sim_session, G_TYPE_OBJECT)

G_DEFINE_QUARK (flitlab-sim-session-error-quark, flitlab_sim_session_error)

G_DEFINE_ENUM_TYPE (FlitlabSimStatus, flitlab_sim_status,
                    G_DEFINE_ENUM_VALUE (FL_SIM_OK, "ok"),
                    G_DEFINE_ENUM_VALUE (FL_SIM_DEADLOCK, "deadlock"),
                    G_DEFINE_ENUM_VALUE (FL_SIM_SATURATED, "saturated"),
                    G_DEFINE_ENUM_VALUE (FL_SIM_RUNNING, "running"))

enum
{
  PROP_0,
  PROP_CYCLE,
  PROP_MAX_CYCLE,
  PROP_PLAYING,
  PROP_CAN_STEP_BACK,
  PROP_STATUS,
  PROP_SPEED,
  PROP_CHECKPOINT_INTERVAL,
  PROP_CHECKPOINT_BUDGET,
  N_PROPS
};

enum
{
  STEPPED,
  FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_engine_error (GError        **error,
                  const FlError  *err)
{
  g_set_error_literal (error, FLITLAB_SIM_SESSION_ERROR, err->code, err->message);
}

/* --- the model ---------------------------------------------------------- */

static gint64
model_cycle (FlitlabSimSession *self)
{
  return self->deflect != NULL ? fl_deflect_cycle (self->deflect) : fl_sim_cycle (self->sim);
}

/* A deflection run is a closed system: it never stops. */
static FlSimStatus
model_status (FlitlabSimSession *self)
{
  return self->deflect != NULL ? FL_SIM_RUNNING : fl_sim_status (self->sim);
}

static gint64
model_max_cycle (FlitlabSimSession *self)
{
  return self->deflect != NULL ? (gint64) self->deflect_stats->len - 1 : fl_sim_timeline_max_cycle (self->timeline);
}

static gint64
checkpoint_cycle (FlitlabSimSession *self,
                  guint              i)
{
  return fl_deflect_checkpoint_cycle (g_ptr_array_index (self->deflect_checkpoints, i));
}

/* While the checkpoints take more than the budget, the one whose loss
 * leaves the shortest gap between its neighbours goes: old stretches end
 * up sparse and the recent ones dense, as the timeline thins them.
 * Cycle 0's and the newest always stay. */
static void
deflect_thin (FlitlabSimSession *self)
{
  GPtrArray *cps = self->deflect_checkpoints;

  while (self->deflect_bytes > self->budget && cps->len > 2)
    {
      guint drop = 1;
      gint64 best = G_MAXINT64;

      for (guint i = 1; i + 1 < cps->len; i++)
        {
          gint64 gap = checkpoint_cycle (self, i + 1) - checkpoint_cycle (self, i - 1);

          if (gap < best)
            {
              best = gap;
              drop = i;
            }
        }
      self->deflect_bytes -= fl_deflect_checkpoint_size (g_ptr_array_index (cps, drop));
      g_ptr_array_remove_index (cps, drop);
    }
}

static int
deflect_checkpoint (FlitlabSimSession *self,
                    FlError           *err)
{
  FlDeflectCheckpoint *cp;

  if (fl_deflect_checkpoint (self->deflect, &cp, err) != FL_OK)
    return err->code;
  g_ptr_array_add (self->deflect_checkpoints, cp);
  self->deflect_bytes += fl_deflect_checkpoint_size (cp);
  deflect_thin (self);
  return FL_OK;
}

/* n cycles of the deflection model, one at a time: each cycle's
 * statistics are recorded the first time it is reached, and a checkpoint
 * is taken at every multiple of the interval past the newest one. */
static int
deflect_step (FlitlabSimSession *self,
              gint64             n,
              FlError           *err)
{
  for (gint64 i = 0; i < n; i++)
    {
      gint64 cycle;

      if (fl_deflect_step (self->deflect, 1, err) != FL_OK)
        return err->code;
      cycle = fl_deflect_cycle (self->deflect);
      if (cycle == (gint64) self->deflect_stats->len)
        {
          FlDeflectStats st;

          fl_deflect_stats (self->deflect, &st);
          g_array_append_val (self->deflect_stats, st);
        }
      if (cycle % self->interval == 0 && cycle > checkpoint_cycle (self, self->deflect_checkpoints->len - 1)
          && deflect_checkpoint (self, err) != FL_OK)
        return err->code;
    }
  return FL_OK;
}

/* Restores the newest checkpoint at or before cycle (unless stepping on
 * from where the model is comes sooner) and steps there. */
static int
deflect_seek (FlitlabSimSession *self,
              gint64             cycle,
              FlError           *err)
{
  GPtrArray *cps = self->deflect_checkpoints;
  guint i = 0;
  gint64 now = fl_deflect_cycle (self->deflect);

  while (i + 1 < cps->len && checkpoint_cycle (self, i + 1) <= cycle)
    i++;
  if (cycle < now || checkpoint_cycle (self, i) > now)
    {
      if (fl_deflect_restore (self->deflect, g_ptr_array_index (cps, i), err) != FL_OK)
        return err->code;
      now = checkpoint_cycle (self, i);
    }
  return deflect_step (self, cycle - now, err);
}

/* Steps n cycles (the simulator through the timeline, which takes the
 * checkpoints and samples). */
static int
model_step (FlitlabSimSession *self,
            gint64             n,
            FlError           *err)
{
  if (self->deflect != NULL)
    return deflect_step (self, n, err);
  return fl_sim_timeline_step (self->timeline, n, NULL, err);
}

/* --- notification ------------------------------------------------------- */

/* Notifies the properties that changed since the last call, then emits
 * "stepped" if the cycle moved (or a restore went back to it). */
static void
publish (FlitlabSimSession *self,
         gboolean           moved)
{
  gint64 cycle = model_cycle (self);
  FlSimStatus status = model_status (self);
  gboolean back = cycle > 0;

  g_object_freeze_notify (G_OBJECT (self));
  if (cycle != self->shown_cycle)
    {
      self->shown_cycle = cycle;
      moved = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CYCLE]);
    }
  if (model_max_cycle (self) != self->shown_max_cycle)
    {
      self->shown_max_cycle = model_max_cycle (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_CYCLE]);
    }
  if (status != self->shown_status)
    {
      self->shown_status = status;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
    }
  if (back != self->shown_can_step_back)
    {
      self->shown_can_step_back = back;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_STEP_BACK]);
    }
  g_object_thaw_notify (G_OBJECT (self));
  if (moved)
    g_signal_emit (self, signals[STEPPED], 0);
}

/* --- stepping ------------------------------------------------------------- */

/* Steps n cycles through the timeline (which takes the checkpoints and
 * samples); with deadline_us > 0 stops once monotonic time passes it
 * (chunks grow from one cycle so as to find how many fit). Stops early
 * when the simulation stops. */
static gboolean
advance (FlitlabSimSession  *self,
         gint64              n,
         gint64              deadline_us,
         GError            **error)
{
  gint64 chunk = deadline_us > 0 ? 1 : n;
  gint64 left = n;

  while (left > 0 && model_status (self) == FL_SIM_RUNNING)
    {
      gint64 cycle = model_cycle (self);
      gint64 todo = MIN (chunk, left);
      FlError err;

      if (model_step (self, todo, &err))
        {
          set_engine_error (error, &err);
          return FALSE;
        }
      gint64 done = model_cycle (self) - cycle;
      left -= done;
      if (done < todo)
        break;
      if (deadline_us > 0)
        {
          if (g_get_monotonic_time () >= deadline_us)
            break;
          chunk = MIN (chunk * 2, G_MAXINT64 / 4);
        }
    }
  return TRUE;
}

gboolean
flitlab_sim_session_step (FlitlabSimSession  *self,
                          gint64              n,
                          GError            **error)
{
  gboolean ok;

  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), FALSE);
  if (n < 0)
    {
      g_set_error (error, FLITLAB_SIM_SESSION_ERROR, FL_EINVAL,
                   "cycles to step: must be >= 0, not %" G_GINT64_FORMAT, n);
      return FALSE;
    }
  ok = advance (self, n, 0, error);
  publish (self, FALSE);
  return ok;
}

gboolean
flitlab_sim_session_seek (FlitlabSimSession  *self,
                          gint64              cycle,
                          GError            **error)
{
  FlError err;
  gboolean ok;

  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), FALSE);
  if (cycle < 0)
    {
      g_set_error (error, FLITLAB_SIM_SESSION_ERROR, FL_ERANGE,
                   "seek: cycles start at 0, not %" G_GINT64_FORMAT, cycle);
      return FALSE;
    }
  if (cycle == model_cycle (self))
    return TRUE;
  if (self->deflect != NULL)
    ok = deflect_seek (self, cycle, &err) == FL_OK;
  else
    ok = fl_sim_timeline_seek (self->timeline, cycle, &err) == FL_OK;
  if (!ok)
    set_engine_error (error, &err);
  publish (self, TRUE);
  return ok;
}

gboolean
flitlab_sim_session_step_back (FlitlabSimSession  *self,
                               GError            **error)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), FALSE);
  if (model_cycle (self) == 0)
    return TRUE;
  return flitlab_sim_session_seek (self, model_cycle (self) - 1, error);
}

/* --- playing --------------------------------------------------------------- */

/* The cycle the pace asks for now. */
static gint64
paced_cycle (FlitlabSimSession *self,
             gint64             now_us)
{
  double elapsed = (double) (now_us - self->play_start_us) / G_USEC_PER_SEC;

  return self->play_start_cycle + (gint64) (elapsed * self->speed);
}

/* Forgets the source (from its own callback, which then returns
 * G_SOURCE_REMOVE, or after removing it) and says so. */
static void
playing_stopped (FlitlabSimSession *self)
{
  self->play_source = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

static gboolean
play_tick (gpointer data)
{
  FlitlabSimSession *self = data;
  guint source = self->play_source;
  gint64 now = g_get_monotonic_time ();
  gint64 want = G_MAXINT64 / 4;
  g_autoptr (GError) error = NULL;
  gboolean ok;

  if (self->speed > 0)
    {
      want = paced_cycle (self, now) - model_cycle (self);
      if (want <= 0)
        return G_SOURCE_CONTINUE;
    }
  ok = advance (self, want, now + PLAY_BUDGET_US, &error);
  /* Behind the pace (a slow network): go on from here rather than catch
   * up in a burst. */
  if (ok && self->speed > 0
      && model_cycle (self) + 1 < paced_cycle (self, g_get_monotonic_time ()))
    {
      self->play_start_us = g_get_monotonic_time ();
      self->play_start_cycle = model_cycle (self);
    }
  g_object_ref (self);
  if (!ok || model_status (self) != FL_SIM_RUNNING)
    playing_stopped (self);
  publish (self, FALSE);
  if (!ok)
    g_signal_emit (self, signals[FAILED], 0, error);
  /* A handler may have paused, or changed the speed and so the source. */
  ok = self->play_source == source;
  g_object_unref (self);
  return ok ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
start_playing (FlitlabSimSession *self)
{
  self->play_start_us = g_get_monotonic_time ();
  self->play_start_cycle = model_cycle (self);
  /* As fast as possible: whenever the main loop is idle; paced: at about
   * the frame rate. */
  if (self->speed > 0)
    self->play_source = g_timeout_add (PLAY_PERIOD_MS, play_tick, self);
  else
    self->play_source = g_idle_add (play_tick, self);
}

void
flitlab_sim_session_set_playing (FlitlabSimSession *self,
                                 gboolean           playing)
{
  g_return_if_fail (FLITLAB_IS_SIM_SESSION (self));
  if (!!playing == (self->play_source != 0))
    return;
  if (!playing)
    {
      g_source_remove (self->play_source);
      playing_stopped (self);
      return;
    }
  /* A stopped simulation has nothing to play. */
  if (model_status (self) != FL_SIM_RUNNING)
    return;
  start_playing (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

gboolean
flitlab_sim_session_get_playing (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), FALSE);
  return self->play_source != 0;
}

void
flitlab_sim_session_set_speed (FlitlabSimSession *self,
                               double             cycles_per_second)
{
  g_return_if_fail (FLITLAB_IS_SIM_SESSION (self));
  cycles_per_second = MAX (cycles_per_second, 0.0);
  if (cycles_per_second == self->speed)
    return;
  self->speed = cycles_per_second;
  /* The source's kind depends on the speed: restart it. */
  if (self->play_source)
    {
      g_source_remove (self->play_source);
      start_playing (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

double
flitlab_sim_session_get_speed (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), 0.0);
  return self->speed;
}

/* --- accessors ------------------------------------------------------------- */

const FlSim *
flitlab_sim_session_get_sim (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), NULL);
  return self->sim;
}

const FlTopology *
flitlab_sim_session_get_topology (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), NULL);
  return self->topology;
}

const FlRouting *
flitlab_sim_session_get_routing (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), NULL);
  return self->routing;
}

gint64
flitlab_sim_session_get_cycle (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), 0);
  return model_cycle (self);
}

gint64
flitlab_sim_session_get_max_cycle (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), 0);
  return model_max_cycle (self);
}

FlSimStatus
flitlab_sim_session_get_status (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), FL_SIM_RUNNING);
  return model_status (self);
}

gboolean
flitlab_sim_session_get_can_step_back (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), FALSE);
  return model_cycle (self) > 0;
}

void
flitlab_sim_session_set_checkpoint_interval (FlitlabSimSession *self,
                                             gint64             interval)
{
  g_return_if_fail (FLITLAB_IS_SIM_SESSION (self));
  interval = MAX (interval, 1);
  if (interval == self->interval)
    return;
  self->interval = interval;
  if (self->timeline)
    fl_sim_timeline_set_checkpoint_interval (self->timeline, interval, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHECKPOINT_INTERVAL]);
}

gint64
flitlab_sim_session_get_checkpoint_interval (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), 0);
  return self->interval;
}

void
flitlab_sim_session_set_checkpoint_budget (FlitlabSimSession *self,
                                           guint64            bytes)
{
  g_return_if_fail (FLITLAB_IS_SIM_SESSION (self));
  if (bytes == self->budget)
    return;
  self->budget = bytes;
  if (self->deflect != NULL)
    deflect_thin (self);
  if (self->timeline)
    fl_sim_timeline_set_checkpoint_budget (self->timeline, (size_t) MIN (bytes, G_MAXSIZE));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHECKPOINT_BUDGET]);
}

guint64
flitlab_sim_session_get_checkpoint_budget (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), 0);
  return self->budget;
}

guint
flitlab_sim_session_get_n_checkpoints (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), 0);
  if (self->deflect != NULL)
    return self->deflect_checkpoints->len;
  return (guint) fl_sim_timeline_n_checkpoints (self->timeline);
}

guint64
flitlab_sim_session_get_checkpoint_bytes (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), 0);
  if (self->deflect != NULL)
    return self->deflect_bytes;
  return fl_sim_timeline_checkpoint_bytes (self->timeline);
}

gint64
flitlab_sim_session_get_sample_interval (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), 0);
  if (self->deflect != NULL)
    return 1;
  return fl_sim_timeline_sample_interval (self->timeline);
}

const FlSimTimeline *
flitlab_sim_session_get_timeline (FlitlabSimSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), NULL);
  return self->timeline;
}

/* NULL for a flit-level session, as for no session. */
const FlDeflect *
flitlab_sim_session_get_deflect (FlitlabSimSession *self)
{
  return FLITLAB_IS_SIM_SESSION (self) ? self->deflect : NULL;
}

const FlDeflectConfig *
flitlab_sim_session_get_deflect_config (FlitlabSimSession *self)
{
  return flitlab_sim_session_get_deflect (self) != NULL ? &self->deflect_config : NULL;
}

const FlDeflectStats *
flitlab_sim_session_get_deflect_stats (FlitlabSimSession *self,
                                       gsize             *n)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SESSION (self), NULL);
  *n = self->deflect_stats != NULL ? self->deflect_stats->len : 0;
  return self->deflect_stats != NULL ? (const FlDeflectStats *) (gpointer) self->deflect_stats->data : NULL;
}

/* --- the object -------------------------------------------------------------- */

static void
flitlab_sim_session_dispose (GObject *object)
{
  FlitlabSimSession *self = FLITLAB_SIM_SESSION (object);

  g_clear_handle_id (&self->play_source, g_source_remove);
  G_OBJECT_CLASS (flitlab_sim_session_parent_class)->dispose (object);
}

static void
flitlab_sim_session_finalize (GObject *object)
{
  FlitlabSimSession *self = FLITLAB_SIM_SESSION (object);

  /* The timeline before the simulation it drives, and that before what it
   * runs on. */
  g_clear_pointer (&self->timeline, fl_sim_timeline_free);
  g_clear_pointer (&self->sim, fl_sim_free);
  g_clear_pointer (&self->deflect_checkpoints, g_ptr_array_unref);
  g_clear_pointer (&self->deflect_stats, g_array_unref);
  g_clear_pointer (&self->deflect, fl_deflect_free);
  if (self->owner_free)
    self->owner_free (self->owner);
  G_OBJECT_CLASS (flitlab_sim_session_parent_class)->finalize (object);
}

static void
flitlab_sim_session_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  FlitlabSimSession *self = FLITLAB_SIM_SESSION (object);

  switch (prop_id)
    {
    case PROP_CYCLE:
      g_value_set_int64 (value, flitlab_sim_session_get_cycle (self));
      break;
    case PROP_MAX_CYCLE:
      g_value_set_int64 (value, flitlab_sim_session_get_max_cycle (self));
      break;
    case PROP_PLAYING:
      g_value_set_boolean (value, flitlab_sim_session_get_playing (self));
      break;
    case PROP_CAN_STEP_BACK:
      g_value_set_boolean (value, flitlab_sim_session_get_can_step_back (self));
      break;
    case PROP_STATUS:
      g_value_set_enum (value, flitlab_sim_session_get_status (self));
      break;
    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;
    case PROP_CHECKPOINT_INTERVAL:
      g_value_set_int64 (value, self->interval);
      break;
    case PROP_CHECKPOINT_BUDGET:
      g_value_set_uint64 (value, self->budget);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_sim_session_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  FlitlabSimSession *self = FLITLAB_SIM_SESSION (object);

  switch (prop_id)
    {
    case PROP_PLAYING:
      flitlab_sim_session_set_playing (self, g_value_get_boolean (value));
      break;
    case PROP_SPEED:
      flitlab_sim_session_set_speed (self, g_value_get_double (value));
      break;
    case PROP_CHECKPOINT_INTERVAL:
      flitlab_sim_session_set_checkpoint_interval (self, g_value_get_int64 (value));
      break;
    case PROP_CHECKPOINT_BUDGET:
      flitlab_sim_session_set_checkpoint_budget (self, g_value_get_uint64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_sim_session_class_init (FlitlabSimSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = flitlab_sim_session_dispose;
  object_class->finalize = flitlab_sim_session_finalize;
  object_class->get_property = flitlab_sim_session_get_property;
  object_class->set_property = flitlab_sim_session_set_property;

  properties[PROP_CYCLE] =
    g_param_spec_int64 ("cycle", NULL, NULL, 0, G_MAXINT64, 0, ro);
  properties[PROP_MAX_CYCLE] =
    g_param_spec_int64 ("max-cycle", NULL, NULL, 0, G_MAXINT64, 0, ro);
  properties[PROP_PLAYING] =
    g_param_spec_boolean ("playing", NULL, NULL, FALSE, rw);
  properties[PROP_CAN_STEP_BACK] =
    g_param_spec_boolean ("can-step-back", NULL, NULL, FALSE, ro);
  properties[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL, FLITLAB_TYPE_SIM_STATUS, FL_SIM_RUNNING, ro);
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0.0, G_MAXDOUBLE, DEFAULT_SPEED, rw);
  properties[PROP_CHECKPOINT_INTERVAL] =
    g_param_spec_int64 ("checkpoint-interval", NULL, NULL, 1, G_MAXINT64, DEFAULT_INTERVAL, rw);
  properties[PROP_CHECKPOINT_BUDGET] =
    g_param_spec_uint64 ("checkpoint-budget", NULL, NULL, 0, G_MAXUINT64, DEFAULT_BUDGET, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* After a batch of cycles (a step, a seek, a play tick): redraw. */
  signals[STEPPED] =
    g_signal_new ("stepped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /* Playing failed (and stopped); the methods report their own errors. */
  signals[FAILED] =
    g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
flitlab_sim_session_init (FlitlabSimSession *self)
{
  self->interval = DEFAULT_INTERVAL;
  self->budget = DEFAULT_BUDGET;
  self->speed = DEFAULT_SPEED;
  self->shown_status = FL_SIM_RUNNING;
}

/* A session on topology and routing, kept alive by owner, once the engine
 * has made its model (rc FL_OK); else NULL with the engine's error, and
 * the owner released. */
static FlitlabSimSession *
session_start (const FlTopology  *topology,
               const FlRouting   *routing,
               gpointer           owner,
               GDestroyNotify     owner_free,
               int                rc,
               const FlError     *err,
               GError           **error)
{
  FlitlabSimSession *self;

  if (rc != FL_OK)
    {
      set_engine_error (error, err);
      if (owner_free)
        owner_free (owner);
      return NULL;
    }
  self = g_object_new (FLITLAB_TYPE_SIM_SESSION, NULL);
  self->topology = topology;
  self->routing = routing;
  self->owner = owner;
  self->owner_free = owner_free;
  return self;
}

/* self when its first checkpoint was taken (ok), else NULL with err. */
static FlitlabSimSession *
session_ready (FlitlabSimSession  *self,
               gboolean            ok,
               const FlError      *err,
               GError            **error)
{
  if (!ok)
    {
      set_engine_error (error, err);
      g_clear_object (&self);
    }
  return self;
}

FlitlabSimSession *
flitlab_sim_session_new_full (const FlTopology  *topology,
                              const FlRouting   *routing,
                              const FlSimConfig *config,
                              gpointer           owner,
                              GDestroyNotify     owner_free,
                              GError           **error)
{
  FlitlabSimSession *self;
  FlSimConfig cfg;
  FlSim *sim = NULL;
  FlError err;

  g_return_val_if_fail (topology && routing && config, NULL);
  cfg = *config;
  cfg.routing = routing;
  self = session_start (topology, routing, owner, owner_free, fl_sim_new (topology, &cfg, &sim, &err), &err,
                        error);
  if (self == NULL)
    return NULL;
  self->sim = sim;
  /* It takes cycle 0's checkpoint: every seek can start from it. */
  self->timeline = fl_sim_timeline_new (sim, self->interval, (size_t) self->budget,
                                        DEFAULT_SAMPLE_INTERVAL, &err);
  return session_ready (self, self->timeline != NULL, &err, error);
}

/* The model on routing, its configuration (config on that routing) in
 * cfg. */
static int
deflect_new (const FlTopology       *topology,
             const FlRouting        *routing,
             const FlDeflectConfig  *config,
             FlDeflectConfig        *cfg,
             FlDeflect             **out,
             FlError                *err)
{
  *cfg = *config;
  cfg->routing = routing;
  return fl_deflect_new (topology, cfg, out, err);
}

FlitlabSimSession *
flitlab_sim_session_new_deflect (const FlTopology *topology, const FlRouting *routing,
                                 const FlDeflectConfig *config, gpointer owner,
                                 GDestroyNotify owner_free, GError **error)
{
  FlDeflectConfig cfg = { 0 };
  FlitlabSimSession *self;
  FlDeflectStats st;
  FlDeflect *deflect = NULL;
  FlError err;
  int rc;

  g_return_val_if_fail (topology && routing && config, NULL);
  rc = deflect_new (topology, routing, config, &cfg, &deflect, &err);
  if ((self = session_start (topology, routing, owner, owner_free, rc, &err, error)) == NULL)
    return NULL;
  self->interval = DEFLECT_INTERVAL;
  self->deflect = deflect;
  self->deflect_config = cfg;
  self->deflect_checkpoints = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_deflect_checkpoint_free);
  self->deflect_stats = g_array_new (FALSE, FALSE, sizeof (FlDeflectStats));
  fl_deflect_stats (deflect, &st);
  g_array_append_val (self->deflect_stats, st);
  /* Cycle 0's checkpoint: every seek can start from it. */
  return session_ready (self, deflect_checkpoint (self, &err) == FL_OK, &err, error);
}

FlitlabSimSession *
flitlab_sim_session_new (FlitlabRouted      *routed,
                         const FlSimConfig  *config,
                         GError            **error)
{
  g_return_val_if_fail (routed != NULL, NULL);
  return flitlab_sim_session_new_full (routed->topology, routed->routing, config,
                                       flitlab_routed_ref (routed),
                                       (GDestroyNotify) flitlab_routed_unref, error);
}
