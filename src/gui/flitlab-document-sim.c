/* flitlab-document-sim.c — watching a document's network simulated: a
 * FlitlabSimSession made from the routing built and the simulation
 * settings (the flit-level simulator, or paper 003's deflection model),
 * dropped when either changes.
 */
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-document-private.h"
#include "flitlab-io.h"
#include "flitlab-workers.h"

/* What a session keeps alive: the routing it runs on and the trace it
 * replays (the configuration points into both). */
typedef struct
{
  FlitlabRouted *routed;
  FlTraceEvent *trace;
} WatchOwner;

static void
watch_owner_free (gpointer data)
{
  WatchOwner *owner = data;

  flitlab_routed_unref (owner->routed);
  free (owner->trace);
  g_free (owner);
}

int
flitlab_document_read_trace (const FlSimSettings  *settings,
                             FlSimConfig          *cfg,
                             FlTraceEvent        **events,
                             FlError              *err)
{
  *events = NULL;
  if (cfg->traffic.pattern == NULL || strcmp (cfg->traffic.pattern, "trace") != 0)
    return FL_OK;
  if (settings->trace_file == NULL || settings->trace_file[0] == '\0')
    return fl_error_set (err, FL_EINVAL, "the trace pattern replays a file: give it as the trace file");
  if (fl_io_read_trace (settings->trace_file, events, &cfg->traffic.n_trace, err) != FL_OK)
    return err->code;
  cfg->traffic.trace = *events;
  cfg->traffic.trace_name = fl_io_trace_name (settings->trace_file);
  return FL_OK;
}

/* FALSE with error set when there is no routing to simulate on. */
static gboolean
check_routed (FlitlabDocument  *self,
              GError          **error)
{
  if (self->routed != NULL && self->routed->routing != NULL)
    return TRUE;
  g_set_error_literal (error, FLITLAB_SIM_SESSION_ERROR, FL_EINVAL,
                       self->refused != NULL
                         ? _("The routing chosen in the Routing tab was refused: choose another one to simulate.")
                         : _("The routing is not built yet: choose one in the Routing tab."));
  return FALSE;
}

/* The session made (NULL with error set) becomes the document's. */
static FlitlabSimSession *
adopt (FlitlabDocument   *self,
       FlitlabSimSession *session)
{
  if (session == NULL)
    return NULL;
  flitlab_document_set_simulation (self, session);
  g_object_unref (session);
  return session;
}

/* A flit-level session on cfg and the routing owner keeps alive. */
static FlitlabSimSession *
watch_config (FlitlabDocument  *self,
              WatchOwner       *owner,
              FlSimConfig      *cfg,
              GError          **error)
{
  cfg->routing = owner->routed->routing;
  return adopt (self, flitlab_sim_session_new_full (owner->routed->topology, owner->routed->routing, cfg, owner,
                                                    watch_owner_free, error));
}

static WatchOwner *
watch_owner_new (FlitlabDocument *self)
{
  WatchOwner *owner = g_new0 (WatchOwner, 1);

  owner->routed = flitlab_routed_ref (self->routed);
  return owner;
}

FlitlabSimSession *
flitlab_document_watch (FlitlabDocument  *self,
                        GError          **error)
{
  WatchOwner *owner;
  FlSimConfig cfg;
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  if (!check_routed (self, error))
    return NULL;

  if (self->sim_settings.model == FL_SIM_MODEL_MULTICAST)
    {
      /* A multicast's messages play on the Collectives tab, tree and all. */
      g_set_error_literal (error, FLITLAB_ENGINE_ERROR, FL_EUNSUPPORTED,
                           _("A multicast is watched on the Collectives tab: its Multicast page builds the "
                             "tree and plays its messages. Choose the flit-level or the deflection model "
                             "here."));
      return NULL;
    }
  owner = watch_owner_new (self);
  if (self->sim_settings.model == FL_SIM_MODEL_DEFLECTION)
    /* Paper 003's model, on the routing built: its shortest-path ports. */
    return adopt (self, flitlab_sim_session_new_deflect (owner->routed->topology, owner->routed->routing,
                                                         &self->sim_settings.deflect, owner, watch_owner_free,
                                                         error));
  cfg = self->sim_settings.config;
  if (flitlab_document_read_trace (&self->sim_settings, &cfg, &owner->trace, &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      watch_owner_free (owner);
      return NULL;
    }
  return watch_config (self, owner, &cfg, error);
}

FlitlabSimSession *
flitlab_document_watch_events (FlitlabDocument    *self,
                               const FlSimConfig  *config,
                               FlTraceEvent       *events,
                               gint64              n_events,
                               GError            **error)
{
  WatchOwner *owner;
  FlSimConfig cfg;

  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  if (!check_routed (self, error))
    {
      free (events);
      return NULL;
    }
  owner = watch_owner_new (self);
  owner->trace = events;
  cfg = config != NULL ? *config : self->sim_settings.config;
  cfg.traffic.pattern = "trace";
  cfg.traffic.trace = events;
  cfg.traffic.n_trace = n_events;
  return watch_config (self, owner, &cfg, error);
}
