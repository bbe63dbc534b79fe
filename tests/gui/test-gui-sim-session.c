/* test-gui-sim-session.c — the application's simulation session, headless:
 * seeking and stepping back reach the state running forward reaches, bit
 * for bit; checkpoints stay within their budget; the timeline's samples
 * outlast seeking back; playing never blocks the main loop and pauses on a
 * deadlock; properties notify only on a real change; the deflection
 * model seeks, steps back and thins its checkpoints the same way. No
 * window: the session is not a widget. */
#include <string.h>

#include "flitlab-sim-session.h"
#include "tap.h"

static FlitlabRouted *
routed_new (const char *spec,
            const char *routing)
{
  FlTopology *t = NULL;
  FlError err;
  g_autoptr (GError) error = NULL;
  FlitlabRouted *routed;

  if (fl_topology_from_spec (spec, &t, &err))
    {
      CHECK (0, "%s: %s", spec, err.message);
      return NULL;
    }
  routed = flitlab_routed_new (t, routing, NULL, &error);
  CHECK (routed != NULL, "routing %s on %s%s%s", routing, spec, error ? ": " : "",
         error ? error->message : "");
  return routed;
}

static void
uniform_config (FlSimConfig *cfg,
                double       rate)
{
  fl_sim_config_init (cfg);
  cfg->traffic.rate = rate;
  cfg->traffic.packet_flits = 4;
  cfg->warmup_cycles = 100;
  cfg->measure_cycles = 2000;
}

static FlitlabSimSession *
session_new (FlitlabRouted     *routed,
             const FlSimConfig *cfg)
{
  g_autoptr (GError) error = NULL;
  FlitlabSimSession *session = flitlab_sim_session_new (routed, cfg, &error);

  if (!session)
    CHECK (0, "session: %s", error->message);
  return session;
}

/* --- a fingerprint of the whole visible state ------------------------------ */

static void
hash_flit (void             *data,
           const FlFlitView *f)
{
  guint64 *h = data;
  const gint64 v[] = { f->packet, f->index, f->src_host, f->dst_host, f->place, f->channel,
                       f->vc, f->position, f->node, f->out_channel, f->out_vc, f->stall };

  for (gsize i = 0; i < G_N_ELEMENTS (v); i++)
    *h = (*h ^ (guint64) v[i]) * 0x100000001b3ULL;
}

/* The flits, every VC and the statistics. */
static guint64
fingerprint (FlitlabSimSession *session)
{
  const FlSim *sim = flitlab_sim_session_get_sim (session);
  guint64 h = 0xcbf29ce484222325ULL;
  FlSimResult r;

  fl_sim_foreach_flit (sim, 1000, hash_flit, &h);
  for (int c = 0; c < fl_sim_channels (sim); c++)
    for (int v = 0; v < fl_sim_vcs (sim); v++)
      {
        FlVcView vv;

        fl_sim_vc_view (sim, c, v, &vv, NULL);
        h = (h ^ (guint64) (vv.owner_packet * 31 + vv.flits_buffered * 7 + vv.credits)) * 31;
      }
  fl_sim_stats (sim, &r, NULL);
  h ^= (guint64) r.packets * 1000003 + (guint64) r.flit_hops;
  h = h * 31 + (guint64) (r.latency_avg * 1e6);
  fl_sim_result_clear (&r);
  return h ^ (guint64) fl_sim_cycle (sim);
}

/* A fresh session's fingerprint at cycle. */
static guint64
straight_to (FlitlabRouted     *routed,
             const FlSimConfig *cfg,
             gint64             cycle)
{
  g_autoptr (FlitlabSimSession) fresh = session_new (routed, cfg);

  flitlab_sim_session_step (fresh, cycle, NULL);
  return fingerprint (fresh);
}

static void
test_seek (void)
{
  g_autoptr (FlitlabRouted) routed = routed_new ("mesh:4x4", "dor");
  FlSimConfig cfg;
  g_autoptr (FlitlabSimSession) s = NULL;
  g_autoptr (GError) error = NULL;
  static const gint64 targets[] = { 537, 900, 123, 1500, 1499, 0, 50, 1000 };
  gboolean ok;

  if (!routed)
    return;
  uniform_config (&cfg, 0.3);
  cfg.traffic.process = FL_INJECT_ONOFF;
  s = session_new (routed, &cfg);
  flitlab_sim_session_set_checkpoint_interval (s, 50);
  CHECK (flitlab_sim_session_step (s, 1000, &error), "step 1000 cycles");
  CHECK (flitlab_sim_session_get_n_checkpoints (s) == 21,
         "a checkpoint every 50 cycles, cycle 0's included: %u",
         flitlab_sim_session_get_n_checkpoints (s));
  for (gsize i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      gint64 at = targets[i];

      CHECK (flitlab_sim_session_seek (s, at, &error) && flitlab_sim_session_get_cycle (s) == at,
             "seek to %" G_GINT64_FORMAT, at);
      CHECK (fingerprint (s) == straight_to (routed, &cfg, at),
             "at %" G_GINT64_FORMAT " the flits, VCs and statistics are those of running "
             "straight there", at);
    }
  CHECK (flitlab_sim_session_get_max_cycle (s) == 1500, "the furthest cycle reached: %"
         G_GINT64_FORMAT, flitlab_sim_session_get_max_cycle (s));

  /* Step back, one cycle at a time. */
  for (int i = 0; i < 3; i++)
    CHECK (flitlab_sim_session_step_back (s, &error), "step back");
  CHECK (flitlab_sim_session_get_cycle (s) == 997 && fingerprint (s) == straight_to (routed,
                                                                                    &cfg, 997),
         "three steps back from 1000: cycle 997, as running straight there");
  flitlab_sim_session_seek (s, 1, NULL);
  CHECK (flitlab_sim_session_step_back (s, NULL) && flitlab_sim_session_get_cycle (s) == 0
         && !flitlab_sim_session_get_can_step_back (s), "back to cycle 0, and no further");
  CHECK (flitlab_sim_session_step_back (s, NULL) && flitlab_sim_session_get_cycle (s) == 0,
         "stepping back at cycle 0 stays there");
  ok = !flitlab_sim_session_seek (s, -1, &error);
  CHECK (ok && g_error_matches (error, FLITLAB_SIM_SESSION_ERROR, FL_ERANGE),
         "seeking to cycle -1 fails: %s", error ? error->message : "");
  g_clear_error (&error);
  CHECK (!flitlab_sim_session_step (s, -1, &error) && error, "stepping -1 cycles fails");
}

static void
test_budget (void)
{
  g_autoptr (FlitlabRouted) routed = routed_new ("torus:4x4", "dor");
  FlSimConfig cfg;
  g_autoptr (FlitlabSimSession) s = NULL;
  guint64 one;

  if (!routed)
    return;
  uniform_config (&cfg, 0.35);
  s = session_new (routed, &cfg);
  flitlab_sim_session_set_checkpoint_interval (s, 100);
  flitlab_sim_session_step (s, 100, NULL);
  one = flitlab_sim_session_get_checkpoint_bytes (s) / 2;
  flitlab_sim_session_set_checkpoint_budget (s, 4 * one);
  flitlab_sim_session_step (s, 1900, NULL);
  CHECK (flitlab_sim_session_get_n_checkpoints (s) <= 4
         && flitlab_sim_session_get_checkpoint_bytes (s) <= 4 * one + one / 2,
         "%u checkpoints, %" G_GUINT64_FORMAT " bytes, within a budget of about four",
         flitlab_sim_session_get_n_checkpoints (s), flitlab_sim_session_get_checkpoint_bytes (s));
  /* Cycles whose checkpoints were dropped are simulated again from 0. */
  CHECK (flitlab_sim_session_seek (s, 333, NULL)
         && fingerprint (s) == straight_to (routed, &cfg, 333),
         "seeking past dropped checkpoints still reaches the same state");
  CHECK (flitlab_sim_session_seek (s, 1950, NULL)
         && fingerprint (s) == straight_to (routed, &cfg, 1950),
         "and forward again to a kept one");
}

/* The session's timeline: samples for the plots, recorded once and kept
 * across seeks, and the heat map's channel utilization. */
static void
test_timeline (void)
{
  g_autoptr (FlitlabRouted) routed = routed_new ("mesh:4x4", "dor");
  FlSimConfig cfg;
  g_autoptr (FlitlabSimSession) s = NULL;
  const FlSimTimeline *tl;
  const FlSimSample *samples;
  double util[64];
  gsize n;

  if (!routed)
    return;
  uniform_config (&cfg, 0.3);
  s = session_new (routed, &cfg);
  tl = flitlab_sim_session_get_timeline (s);
  CHECK (tl && fl_sim_timeline_sim (tl) == flitlab_sim_session_get_sim (s)
         && flitlab_sim_session_get_sample_interval (s) == 100,
         "the session's timeline drives its simulation, a sample every 100 cycles");
  flitlab_sim_session_step (s, 1050, NULL);
  flitlab_sim_session_seek (s, 420, NULL);
  n = fl_sim_timeline_samples (tl, &samples);
  CHECK (n == 10 && samples[9].cycle == 900 && samples[9].accepted > 0.2
         && samples[9].offered > 0.2 && samples[9].in_network > 0,
         "10 samples up to cycle 1050, still there after seeking back to 420 (the last: "
         "accepted %.3f, offered %.3f)", n ? samples[n - 1].accepted : 0.0,
         n ? samples[n - 1].offered : 0.0);
  CHECK (fl_sim_timeline_max_cycle (tl) == flitlab_sim_session_get_max_cycle (s)
         && fl_sim_timeline_n_checkpoints (tl) == flitlab_sim_session_get_n_checkpoints (s),
         "the session's furthest cycle and checkpoints are its timeline's");
  CHECK (fl_sim_timeline_channel_utilization (tl, 100, 1000, util, G_N_ELEMENTS (util), NULL)
         == FL_OK && util[0] >= 0.0 && util[0] <= 1.0,
         "channel utilization over [100, 1000)");
}

/* --- notifications ------------------------------------------------------------ */

typedef struct
{
  int cycle, playing, back, status, speed, max_cycle, stepped;
} Counts;

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    data)
{
  Counts *c = data;
  const char *name = g_param_spec_get_name (pspec);

  (void) object;
  if (!strcmp (name, "cycle"))
    c->cycle++;
  else if (!strcmp (name, "playing"))
    c->playing++;
  else if (!strcmp (name, "can-step-back"))
    c->back++;
  else if (!strcmp (name, "status"))
    c->status++;
  else if (!strcmp (name, "speed"))
    c->speed++;
  else if (!strcmp (name, "max-cycle"))
    c->max_cycle++;
}

static void
count_stepped (FlitlabSimSession *session,
               gpointer           data)
{
  (void) session;
  ((Counts *) data)->stepped++;
}

static void
test_notify (void)
{
  g_autoptr (FlitlabRouted) routed = routed_new ("mesh:4x4", "dor");
  FlSimConfig cfg;
  g_autoptr (FlitlabSimSession) s = NULL;
  Counts c = { 0 };

  if (!routed)
    return;
  uniform_config (&cfg, 0.2);
  s = session_new (routed, &cfg);
  g_signal_connect (s, "notify", G_CALLBACK (count_notify), &c);
  g_signal_connect (s, "stepped", G_CALLBACK (count_stepped), &c);
  flitlab_sim_session_step (s, 0, NULL);
  flitlab_sim_session_seek (s, 0, NULL);
  CHECK (c.cycle == 0 && c.back == 0 && c.stepped == 0,
         "stepping 0 cycles or seeking where it is notifies nothing");
  flitlab_sim_session_step (s, 5, NULL);
  CHECK (c.cycle == 1 && c.back == 1 && c.max_cycle == 1 && c.stepped == 1 && c.status == 0,
         "5 cycles: cycle, max-cycle and can-step-back once each, one \"stepped\"");
  flitlab_sim_session_step (s, 5, NULL);
  CHECK (c.cycle == 2 && c.back == 1 && c.stepped == 2, "5 more: cycle again, can-step-back not");
  flitlab_sim_session_seek (s, 3, NULL);
  CHECK (c.cycle == 3 && c.max_cycle == 2 && c.back == 1,
         "seeking back: cycle, not max-cycle nor can-step-back");
  flitlab_sim_session_set_speed (s, flitlab_sim_session_get_speed (s));
  g_object_set (s, "playing", FALSE, NULL);
  flitlab_sim_session_set_checkpoint_interval (s, flitlab_sim_session_get_checkpoint_interval (s));
  CHECK (c.speed == 0 && c.playing == 0, "setting what is already set notifies nothing");
  flitlab_sim_session_set_speed (s, 1000);
  flitlab_sim_session_set_playing (s, TRUE);
  flitlab_sim_session_set_playing (s, TRUE);
  CHECK (c.speed == 1 && c.playing == 1, "a new speed and playing notify once each");
  g_object_set (s, "playing", FALSE, NULL);
  CHECK (c.playing == 2 && !flitlab_sim_session_get_playing (s), "pausing notifies once");
  flitlab_sim_session_seek (s, 0, NULL);
  CHECK (c.back == 2 && !flitlab_sim_session_get_can_step_back (s),
         "back at cycle 0, can-step-back turns off");
}

/* --- playing ----------------------------------------------------------------- */

static void
test_play (void)
{
  g_autoptr (FlitlabRouted) routed = routed_new ("mesh:16x16", "dor");
  FlSimConfig cfg;
  g_autoptr (FlitlabSimSession) s = NULL;
  Counts c = { 0 };
  gint64 worst = 0, start, before;
  int iterations = 0;

  if (!routed)
    return;
  uniform_config (&cfg, 0.35);
  s = session_new (routed, &cfg);
  g_signal_connect (s, "stepped", G_CALLBACK (count_stepped), &c);
  flitlab_sim_session_set_speed (s, 0);
  flitlab_sim_session_set_playing (s, TRUE);
  start = g_get_monotonic_time ();
  while (g_get_monotonic_time () - start < 500000)
    {
      gint64 t0 = g_get_monotonic_time ();

      g_main_context_iteration (NULL, FALSE);
      worst = MAX (worst, g_get_monotonic_time () - t0);
      iterations++;
    }
  before = flitlab_sim_session_get_cycle (s);
  CHECK (before > 50 && c.stepped > 5 && c.stepped <= iterations,
         "as fast as possible for 0.5 s: %" G_GINT64_FORMAT " cycles in %d frames of %d "
         "main-loop iterations", before, c.stepped, iterations);
  CHECK (worst < 150000, "no main-loop iteration took long: at most %.1f ms", worst / 1000.0);
  flitlab_sim_session_set_playing (s, FALSE);
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  CHECK (flitlab_sim_session_get_cycle (s) == before, "paused, it stays at cycle %"
         G_GINT64_FORMAT, before);

  /* Paced: 200 cycles per second for 0.4 s. */
  flitlab_sim_session_set_speed (s, 200);
  flitlab_sim_session_set_playing (s, TRUE);
  start = g_get_monotonic_time ();
  while (g_get_monotonic_time () - start < 400000)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  flitlab_sim_session_set_playing (s, FALSE);
  gint64 paced = flitlab_sim_session_get_cycle (s) - before;
  CHECK (paced >= 10 && paced <= 100, "at 200 cycles per second, 0.4 s play %" G_GINT64_FORMAT
         " cycles (80 on time, fewer if the machine is slow)", paced);
}

static void
test_play_deadlock (void)
{
  g_autoptr (FlitlabRouted) routed = routed_new ("ring:8", "shortest");
  FlSimConfig cfg;
  g_autoptr (FlitlabSimSession) s = NULL;
  Counts c = { 0 };
  gint64 start;

  if (!routed)
    return;
  uniform_config (&cfg, 0.9);
  cfg.vcs = 1;
  cfg.buf_flits = 2;
  cfg.deadlock_cycles = 300;
  s = session_new (routed, &cfg);
  g_signal_connect (s, "notify", G_CALLBACK (count_notify), &c);
  flitlab_sim_session_set_speed (s, 0);
  flitlab_sim_session_set_playing (s, TRUE);
  start = g_get_monotonic_time ();
  while (flitlab_sim_session_get_playing (s) && g_get_monotonic_time () - start < 10000000)
    g_main_context_iteration (NULL, FALSE);
  CHECK (flitlab_sim_session_get_status (s) == FL_SIM_DEADLOCK
         && !flitlab_sim_session_get_playing (s) && c.playing == 2 && c.status == 1,
         "playing into a deadlock pauses, status deadlock (cycle %" G_GINT64_FORMAT ")",
         flitlab_sim_session_get_cycle (s));
  flitlab_sim_session_set_playing (s, TRUE);
  CHECK (!flitlab_sim_session_get_playing (s), "a deadlocked run does not play");
  CHECK (flitlab_sim_session_step_back (s, NULL)
         && flitlab_sim_session_get_status (s) == FL_SIM_RUNNING && c.status == 2,
         "one step back, it runs again");
}

/* --- creation ----------------------------------------------------------------- */

static void
count_free (gpointer data)
{
  (*(int *) data)++;
}

static void
test_create (void)
{
  FlTopology *t = NULL;
  FlRouting *r = NULL;
  FlSimConfig cfg;
  g_autoptr (GError) error = NULL;
  FlitlabSimSession *s;
  int freed = 0;

  fl_topology_from_spec ("ring:6", &t, NULL);
  fl_routing_new (t, "updown", NULL, &r, NULL);
  uniform_config (&cfg, 0.1);
  cfg.vcs = 0;
  s = flitlab_sim_session_new_full (t, r, &cfg, &freed, count_free, &error);
  CHECK (!s && g_error_matches (error, FLITLAB_SIM_SESSION_ERROR, FL_ERANGE) && freed == 1,
         "a refused configuration: no session, the engine's message (%s), the owner released",
         error ? error->message : "");
  cfg.vcs = 2;
  s = flitlab_sim_session_new_full (t, r, &cfg, &freed, count_free, NULL);
  CHECK (s && flitlab_sim_session_get_topology (s) == t
         && flitlab_sim_session_get_routing (s) == r
         && flitlab_sim_session_get_n_checkpoints (s) == 1,
         "a session starts with cycle 0's checkpoint");
  flitlab_sim_session_step (s, 10, NULL);
  g_object_unref (s);
  CHECK (freed == 2, "finalizing releases the owner");
  fl_routing_free (r);
  fl_topology_free (t);
}

/* --- the deflection model ---------------------------------------------------- */

static void
hash_message (void                *data,
              const FlDeflectView *m)
{
  guint64 *h = data;
  const gint64 v[] = { m->message, m->src, m->dst, m->node, m->channel, m->deflected, m->deflections, m->hops,
                       m->created };

  for (gsize i = 0; i < G_N_ELEMENTS (v); i++)
    *h = (*h ^ (guint64) v[i]) * 0x100000001b3ULL;
}

/* Every message's view and the totals. */
static guint64
deflect_fingerprint (const FlDeflect *d)
{
  guint64 h = 0xcbf29ce484222325ULL;
  FlDeflectStats st;

  fl_deflect_foreach (d, hash_message, &h);
  fl_deflect_stats (d, &st);
  h = (h ^ (guint64) st.delivered) * 31 + (guint64) st.deflections;
  h = h * 31 + (guint64) (st.avg_delay * 1e6);
  return h ^ (guint64) fl_deflect_cycle (d);
}

/* A fresh model stepped straight to cycle. */
static guint64
deflect_straight_to (FlitlabRouted         *routed,
                     const FlDeflectConfig *cfg,
                     gint64                 cycle)
{
  FlDeflect *d = NULL;
  guint64 h = 0;

  if (fl_deflect_new (routed->topology, cfg, &d, NULL) == FL_OK && fl_deflect_step (d, cycle, NULL) == FL_OK)
    h = deflect_fingerprint (d);
  fl_deflect_free (d);
  return h;
}

static void
test_deflect (void)
{
  g_autoptr (FlitlabRouted) routed = routed_new ("xmesh:8x8", "xmesh");
  FlDeflectConfig cfg = { 0 };
  g_autoptr (FlitlabSimSession) s = NULL;
  g_autoptr (GError) error = NULL;
  static const gint64 targets[] = { 137, 400, 23, 399, 250, 0, 50, 401, 600 };
  const FlDeflectStats *stats;
  Counts c = { 0 };
  gsize n = 0;
  guint64 one;
  int freed = 0;
  gint64 start, before;

  if (!routed)
    return;
  cfg.routing = routed->routing;
  cfg.nmsg = 0;
  s = flitlab_sim_session_new_deflect (routed->topology, routed->routing, &cfg, &freed, count_free, &error);
  CHECK (s == NULL && error != NULL && freed == 1, "a refused deflection configuration: %s, the owner released",
         error ? error->message : "no error");
  g_clear_error (&error);
  cfg.nmsg = 3;
  cfg.priority = FL_PRIORITY_AGE;
  cfg.seed = 5;
  s = flitlab_sim_session_new_deflect (routed->topology, routed->routing, &cfg, &freed, count_free, &error);
  CHECK (s != NULL && flitlab_sim_session_get_deflect (s) != NULL && flitlab_sim_session_get_sim (s) == NULL
           && flitlab_sim_session_get_timeline (s) == NULL && flitlab_sim_session_get_n_checkpoints (s) == 1,
         "a deflection session: its model, no simulation or timeline, cycle 0's checkpoint");
  if (s == NULL)
    return;
  CHECK_INT (flitlab_sim_session_get_checkpoint_interval (s), 32);
  g_signal_connect (s, "notify", G_CALLBACK (count_notify), &c);
  g_signal_connect (s, "stepped", G_CALLBACK (count_stepped), &c);
  flitlab_sim_session_set_checkpoint_interval (s, 50);
  CHECK (flitlab_sim_session_step (s, 400, &error) && flitlab_sim_session_get_cycle (s) == 400
           && flitlab_sim_session_get_max_cycle (s) == 400,
         "400 cycles");
  CHECK (c.cycle == 1 && c.max_cycle == 1 && c.back == 1 && c.stepped == 1 && c.status == 0,
         "cycle, max-cycle and can-step-back notified once, one \"stepped\", the status stays");
  CHECK_INT (flitlab_sim_session_get_n_checkpoints (s), 9);
  stats = flitlab_sim_session_get_deflect_stats (s, &n);
  CHECK (n == 401 && stats[0].delivered == 0 && stats[400].cycle == 400 && stats[400].delivered > 0
           && stats[400].delivered >= stats[200].delivered,
         "the statistics of every cycle: %" G_GSIZE_FORMAT " entries, %" G_GINT64_FORMAT " delivered by cycle 400",
         n, n > 400 ? stats[400].delivered : -1);
  for (gsize i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      gint64 at = targets[i];

      CHECK (flitlab_sim_session_seek (s, at, &error) && flitlab_sim_session_get_cycle (s) == at,
             "seek to %" G_GINT64_FORMAT, at);
      CHECK (deflect_fingerprint (flitlab_sim_session_get_deflect (s)) == deflect_straight_to (routed, &cfg, at),
             "at %" G_GINT64_FORMAT " every message and the totals are those of stepping straight there", at);
    }
  flitlab_sim_session_get_deflect_stats (s, &n);
  CHECK (n == 601 && flitlab_sim_session_get_max_cycle (s) == 600, "seeking on to 600 recorded its cycles");
  for (int i = 0; i < 3; i++)
    flitlab_sim_session_step_back (s, NULL);
  CHECK (flitlab_sim_session_get_cycle (s) == 597
           && deflect_fingerprint (flitlab_sim_session_get_deflect (s)) == deflect_straight_to (routed, &cfg, 597),
         "three steps back: cycle 597, as stepping straight there");

  /* Under a budget of about three checkpoints, old ones are thinned. */
  one = flitlab_sim_session_get_checkpoint_bytes (s) / flitlab_sim_session_get_n_checkpoints (s);
  flitlab_sim_session_set_checkpoint_budget (s, 3 * one);
  CHECK (flitlab_sim_session_get_n_checkpoints (s) <= 3 && flitlab_sim_session_get_checkpoint_bytes (s) <= 3 * one,
         "%u checkpoints, %" G_GUINT64_FORMAT " bytes, within the budget", flitlab_sim_session_get_n_checkpoints (s),
         flitlab_sim_session_get_checkpoint_bytes (s));
  CHECK (flitlab_sim_session_seek (s, 333, NULL)
           && deflect_fingerprint (flitlab_sim_session_get_deflect (s)) == deflect_straight_to (routed, &cfg, 333),
         "seeking past dropped checkpoints still reaches the same state");

  /* Playing as fast as it goes, then paused. */
  flitlab_sim_session_set_speed (s, 0);
  flitlab_sim_session_set_playing (s, TRUE);
  start = g_get_monotonic_time ();
  while (g_get_monotonic_time () - start < 300000)
    g_main_context_iteration (NULL, FALSE);
  flitlab_sim_session_set_playing (s, FALSE);
  before = flitlab_sim_session_get_cycle (s);
  CHECK (before > 343 && flitlab_sim_session_get_status (s) == FL_SIM_RUNNING,
         "playing runs on (to cycle %" G_GINT64_FORMAT "), never stopping by itself", before);
  g_clear_object (&s);
  CHECK_INT (freed, 2);
}

int
main (int   argc,
      char *argv[])
{
  const char *scenario = argc > 1 ? argv[1] : "sim-session";

  if (strcmp (scenario, "sim-session") != 0)
    {
      g_printerr ("unknown scenario %s\n", scenario);
      return 2;
    }
  test_create ();
  test_seek ();
  test_budget ();
  test_timeline ();
  test_notify ();
  test_play ();
  test_play_deadlock ();
  test_deflect ();
  return tap_done ();
}
