/* flitlab-sim-session.h — one simulation run as the application drives it:
 * stepped, played from the main loop, stepped back and seeked.
 *
 * The session owns an FlSim built on a topology and routing that it keeps
 * alive (a reference on a FlitlabRouted, or whatever owner the caller hands
 * over), and the FlSimTimeline that drives it: checkpoints taken every
 * checkpoint-interval cycles, thinned out with age under a memory budget,
 * and samples of the run every sample interval (100 cycles) for plots and
 * the heat map. Seeking restores the nearest checkpoint at or before the
 * target and simulates forward, so the state reached is the one running
 * forward would reach, bit for bit. Not a widget: viewers connect
 * to "stepped" (once per batch of cycles, at most once per main-loop
 * iteration while playing) and read the simulation through
 * flitlab_sim_session_get_sim().
 *
 * A deflection session (flitlab_sim_session_new_deflect()) drives paper
 * 003's FlDeflect instead, with the same stepping, seeking, playing,
 * properties and signals: checkpoints of its own every
 * checkpoint-interval cycles (32 to start with), thinned under the
 * budget, and the model's
 * statistics at every cycle reached (the live plots' series). It has no
 * FlSim and no timeline (get_sim and get_timeline return NULL), and its
 * status is always running: a closed system never stops.
 */
#pragma once

#include <glib-object.h>

#include "flitlab.h"
#include "flitlab-routed.h"

G_BEGIN_DECLS

/* Failures of the engine: the code is the FlStatus, the message the
 * engine's own. */
#define FLITLAB_SIM_SESSION_ERROR (flitlab_sim_session_error_quark ())
GQuark flitlab_sim_session_error_quark (void);

/* FlSimStatus as a GEnum, for the "status" property. */
#define FLITLAB_TYPE_SIM_STATUS (flitlab_sim_status_get_type ())
GType flitlab_sim_status_get_type (void) G_GNUC_CONST;

#define FLITLAB_TYPE_SIM_SESSION (flitlab_sim_session_get_type ())

G_DECLARE_FINAL_TYPE (FlitlabSimSession, flitlab_sim_session, FLITLAB, SIM_SESSION, GObject)

/* A session on routed's network and routing (a reference is kept); the
 * configuration's routing field is ignored. NULL with error set when the
 * simulator refuses the configuration. */
FlitlabSimSession *flitlab_sim_session_new        (FlitlabRouted       *routed,
                                                   const FlSimConfig   *config,
                                                   GError             **error);
/* The same on any topology and routing built on it: owner keeps them alive
 * and owner_free (may be NULL) is called with it when the session is
 * finalized, or at once if creation fails. */
FlitlabSimSession *flitlab_sim_session_new_full   (const FlTopology    *topology,
                                                   const FlRouting     *routing,
                                                   const FlSimConfig   *config,
                                                   gpointer             owner,
                                                   GDestroyNotify       owner_free,
                                                   GError             **error);

/* A deflection session on topology and routing (the configuration's
 * routing is ignored; its cycles too: it steps as long as asked), kept
 * alive by owner as for flitlab_sim_session_new_full(). NULL with error
 * set when the model refuses the configuration. */
FlitlabSimSession *flitlab_sim_session_new_deflect (const FlTopology *topology, const FlRouting *routing,
                                                   const FlDeflectConfig *config, gpointer owner,
                                                   GDestroyNotify owner_free, GError **error);

/* The simulation, for the views (fl_sim_foreach_flit, fl_sim_vc_view,
 * fl_sim_stats, ...): read it, never step or restore it behind the
 * session's back. NULL for a deflection session. */
const FlSim       *flitlab_sim_session_get_sim       (FlitlabSimSession  *self);
const FlTopology  *flitlab_sim_session_get_topology  (FlitlabSimSession  *self);
const FlRouting   *flitlab_sim_session_get_routing   (FlitlabSimSession  *self);

gint64             flitlab_sim_session_get_cycle     (FlitlabSimSession  *self);
/* The furthest cycle simulated so far. */
gint64             flitlab_sim_session_get_max_cycle (FlitlabSimSession  *self);
FlSimStatus        flitlab_sim_session_get_status    (FlitlabSimSession  *self);
gboolean           flitlab_sim_session_get_can_step_back (FlitlabSimSession *self);

/* Advances n >= 0 cycles (fewer if the simulation deadlocks), at once: for
 * a few cycles at a time; playing runs long stretches without blocking. */
gboolean           flitlab_sim_session_step          (FlitlabSimSession  *self,
                                                      gint64              n,
                                                      GError            **error);
/* Goes back one cycle: seeks to cycle - 1. */
gboolean           flitlab_sim_session_step_back     (FlitlabSimSession  *self,
                                                      GError            **error);
/* Goes to cycle >= 0, backwards or forwards; forwards it stops early at a
 * deadlock. Re-simulates at most checkpoint-interval cycles to go back to
 * a cycle whose checkpoint is still kept. */
gboolean           flitlab_sim_session_seek          (FlitlabSimSession  *self,
                                                      gint64              cycle,
                                                      GError            **error);

/* Playing steps from the main loop, "speed" cycles per second (0: as fast
 * as possible), a few milliseconds of simulation per main-loop iteration;
 * it pauses by itself when the simulation stops (deadlock) or fails
 * ("failed"). */
void               flitlab_sim_session_set_playing   (FlitlabSimSession  *self,
                                                      gboolean            playing);
gboolean           flitlab_sim_session_get_playing   (FlitlabSimSession  *self);
void               flitlab_sim_session_set_speed     (FlitlabSimSession  *self,
                                                      double              cycles_per_second);
double             flitlab_sim_session_get_speed     (FlitlabSimSession  *self);

/* Checkpoints: one every interval cycles (>= 1); while they take more than
 * budget bytes, old ones are thinned out (cycle 0's always stays, see
 * FlSimTimeline). */
void               flitlab_sim_session_set_checkpoint_interval (FlitlabSimSession *self,
                                                                gint64             interval);
gint64             flitlab_sim_session_get_checkpoint_interval (FlitlabSimSession *self);
void               flitlab_sim_session_set_checkpoint_budget   (FlitlabSimSession *self,
                                                                guint64            bytes);
guint64            flitlab_sim_session_get_checkpoint_budget   (FlitlabSimSession *self);
/* Kept checkpoints and their bytes. */
guint              flitlab_sim_session_get_n_checkpoints       (FlitlabSimSession *self);
guint64            flitlab_sim_session_get_checkpoint_bytes    (FlitlabSimSession *self);
/* Cycles per sample of the timeline. */
gint64             flitlab_sim_session_get_sample_interval     (FlitlabSimSession *self);

/* The timeline, for the samples (live plots), channel utilization over a
 * window (the heat map) and a channel's series (its inspector): read it,
 * never step or seek it behind the session's back. NULL for a deflection
 * session. */
const FlSimTimeline *flitlab_sim_session_get_timeline          (FlitlabSimSession *self);

/* The deflection model (fl_deflect_foreach, fl_deflect_stats), read-only
 * as the simulation is; NULL for a flit-level session (or none: views
 * may ask whatever they hold). */
const FlDeflect      *flitlab_sim_session_get_deflect          (FlitlabSimSession *self);
/* Its configuration (the routing the session's), to build another model
 * that runs the same (an export); NULL for a flit-level session. */
const FlDeflectConfig *flitlab_sim_session_get_deflect_config  (FlitlabSimSession *self);
/* Its statistics at every cycle reached so far: *n entries, entry c as
 * fl_deflect_stats() gave them at cycle c (entry 0: all zero); kept
 * across seeks. NULL and 0 for a flit-level session. */
const FlDeflectStats *flitlab_sim_session_get_deflect_stats    (FlitlabSimSession *self,
                                                                gsize             *n);

G_END_DECLS
