/* flitlab-document-routing.c — the routing a document asks for, the
 * routing built for it, and the route between two switches with its paths.
 *
 * The request is what the user asks for (the routing panel, the turns
 * clicked); the window builds it in a worker and hands back the routing
 * built through flitlab_document_set_routed(), or a refusal through
 * flitlab_document_set_refused(). The route's paths are computed on demand
 * and forgotten when the routing or the endpoints change.
 */
#include <stdlib.h>

#include "flitlab-document-private.h"

/* The route ------------------------------------------------------------------ */

void
flitlab_document_route_free (FlitlabRoute *route)
{
  if (route == NULL)
    return;
  free (route->chosen);
  free (route->paths);
  free (route->path_offsets);
  g_free (route->chosen_error);
  g_free (route);
}

/* Forgets the route's paths: the routing or the endpoints changed. */
void
flitlab_document_route_invalidate (FlitlabDocument *self)
{
  g_clear_pointer (&self->route, flitlab_document_route_free);
  flitlab_document_emit (self, ROUTE_CHANGED);
}

gboolean
flitlab_document_is_switch (const FlTopology *t,
                            int               node)
{
  return node >= 0 && node < fl_topology_node_count (t)
         && fl_topology_node_kind (t, node) == FL_NODE_SWITCH;
}

/* The routing asked for ------------------------------------------------------- */

const FlitlabRoutingRequest *
flitlab_document_get_request (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->request;
}

/* After self->request replaced old: the properties that changed are
 * notified, and whoever builds routings hears of it. */
void
flitlab_document_request_replaced (FlitlabDocument             *self,
                                   const FlitlabRoutingRequest *old)
{
  const FlitlabRoutingRequest *now = self->request;

  g_object_freeze_notify (G_OBJECT (self));
  if (g_strcmp0 (old->name, now->name) != 0)
    flitlab_document_notify (self, PROP_ROUTING);
  if (old->root != now->root)
    flitlab_document_notify (self, PROP_ROOT);
  if (old->vc_classes != now->vc_classes)
    flitlab_document_notify (self, PROP_VC_CLASSES);
  if (g_strcmp0 (old->order, now->order) != 0)
    flitlab_document_notify (self, PROP_ORDER);
  /* Turns are edited on a routing that takes them only. */
  if (self->editing_turns && !flitlab_routing_takes (now->name, FLITLAB_TURNS_OPTION))
    flitlab_document_set_editing_turns (self, FALSE);
  g_object_thaw_notify (G_OBJECT (self));
  flitlab_document_emit (self, REQUEST_CHANGED);
}

/* Replaces the request; a turn edited is an undo step, a choice of
 * routing or options is not (it is made again as easily). */
static void
change_request (FlitlabDocument             *self,
                const FlitlabRoutingRequest *request,
                gboolean                     undoable)
{
  FlitlabRoutingRequest *old;

  if (flitlab_routing_request_equal (request, self->request))
    return;
  old = self->request;
  self->request = flitlab_routing_request_copy (request);
  flitlab_document_request_replaced (self, old);
  if (undoable)
    {
      flitlab_edit_history_push_request (self->history, old);
      flitlab_document_update_undo_state (self);
    }
  else
    flitlab_routing_request_free (old);
}

void
flitlab_document_set_request (FlitlabDocument             *self,
                              const FlitlabRoutingRequest *request)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (request != NULL && request->name != NULL);

  change_request (self, request, FALSE);
}

void
flitlab_document_set_routing (FlitlabDocument *self,
                              const char      *name)
{
  g_autoptr(FlitlabRoutingRequest) request = NULL;
  FlitlabRouted *shown;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (name != NULL);

  if (g_strcmp0 (name, self->request->name) == 0)
    return;
  request = flitlab_routing_request_copy (self->request);
  g_free (request->name);
  request->name = g_strdup (name);
  shown = flitlab_document_get_shown_routed (self);
  if (flitlab_routing_takes (name, FLITLAB_TURNS_OPTION) && shown != NULL
      && !flitlab_routing_takes (shown->routing_name, FLITLAB_TURNS_OPTION))
    flitlab_routing_request_set_turns (request, shown->prohibited, shown->n_prohibited);
  flitlab_document_set_request (self, request);
}

const char *
flitlab_document_get_routing (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->request->name;
}

void
flitlab_document_set_root (FlitlabDocument *self,
                           int              root)
{
  g_autoptr(FlitlabRoutingRequest) request = NULL;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  request = flitlab_routing_request_copy (self->request);
  request->root = MAX (root, -1);
  flitlab_document_set_request (self, request);
}

void
flitlab_document_set_vc_classes (FlitlabDocument *self,
                                 int              vc_classes)
{
  g_autoptr(FlitlabRoutingRequest) request = NULL;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  request = flitlab_routing_request_copy (self->request);
  request->vc_classes = MAX (vc_classes, 0);
  flitlab_document_set_request (self, request);
}

void
flitlab_document_set_order (FlitlabDocument *self,
                            const char      *order)
{
  g_autoptr(FlitlabRoutingRequest) request = NULL;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  request = flitlab_routing_request_copy (self->request);
  g_free (request->order);
  request->order = order != NULL && order[0] != '\0' ? g_strdup (order) : NULL;
  flitlab_document_set_request (self, request);
}

void
flitlab_document_toggle_turn (FlitlabDocument *self,
                              const FlTurn    *turn)
{
  g_autoptr(FlitlabRoutingRequest) request = NULL;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (turn != NULL);

  flitlab_document_set_editing_turns (self, TRUE);
  request = flitlab_routing_request_copy (self->request);
  flitlab_routing_request_toggle_turn (request, turn);
  change_request (self, request, TRUE);
}

void
flitlab_document_set_editing_turns (FlitlabDocument *self,
                                    gboolean         editing)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  editing = !!editing;
  if (self->editing_turns == editing)
    return;
  self->editing_turns = editing;
  if (editing)
    {
      flitlab_document_set_routing (self, flitlab_routing_for_turns ());
      /* The turns are what the user clicks: they must be visible. */
      flitlab_document_set_overlays (self, self->overlays | FLITLAB_OVERLAY_TURNS);
    }
  flitlab_document_notify (self, PROP_EDITING_TURNS);
}

gboolean
flitlab_document_get_editing_turns (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), FALSE);

  return self->editing_turns;
}

/* The routing built ------------------------------------------------------------ */

void
flitlab_document_set_routed (FlitlabDocument *self,
                             FlitlabRouted   *routed)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (routed != NULL)
    {
      flitlab_routed_ref (routed);
      g_clear_pointer (&self->dropped, flitlab_routed_unref);
    }
  if (self->routed == routed)
    {
      g_clear_pointer (&routed, flitlab_routed_unref);
      return;
    }
  g_clear_pointer (&self->routed, flitlab_routed_unref);
  self->routed = routed;
  g_clear_pointer (&self->route, flitlab_document_route_free);
  g_object_freeze_notify (G_OBJECT (self));
  /* A simulation runs on the routing it was made with: one of a network or
   * a routing that is no longer shown ends with it. */
  if (self->simulation != NULL
      && (routed == NULL || flitlab_sim_session_get_routing (self->simulation) != routed->routing))
    flitlab_document_set_simulation (self, NULL);
  if (routed != NULL)
    flitlab_document_set_refused (self, NULL);
  flitlab_document_notify (self, PROP_ROUTED);
  /* A cycle that appears is shown on the network too; one that stays is
   * left as the user set its overlay. */
  if (routed != NULL)
    {
      if (!routed->report.deadlock_free && self->last_deadlock_free)
        flitlab_document_set_overlays (self, self->overlays | FLITLAB_OVERLAY_CYCLE);
      self->last_deadlock_free = routed->report.deadlock_free;
    }
  flitlab_document_emit (self, ROUTE_CHANGED);
  g_object_thaw_notify (G_OBJECT (self));
}

FlitlabRouted *
flitlab_document_get_routed (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->routed;
}

FlitlabRouted *
flitlab_document_get_shown_routed (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->routed != NULL ? self->routed : self->dropped;
}

void
flitlab_document_set_refused (FlitlabDocument *self,
                              const char      *message)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (g_strcmp0 (message, self->refused) == 0)
    return;
  g_free (self->refused);
  self->refused = g_strdup (message);
  if (message != NULL)
    {
      g_clear_pointer (&self->dropped, flitlab_routed_unref);
      if (self->routed != NULL)
        {
          g_clear_pointer (&self->routed, flitlab_routed_unref);
          flitlab_document_route_invalidate (self);
          flitlab_document_notify (self, PROP_ROUTED);
        }
    }
  flitlab_document_notify (self, PROP_REFUSED);
}

const char *
flitlab_document_get_refused (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->refused;
}

void
flitlab_document_set_overlays (FlitlabDocument *self,
                               FlitlabOverlay   overlays)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (self->overlays == overlays)
    return;
  self->overlays = overlays;
  flitlab_document_notify (self, PROP_OVERLAYS);
}

FlitlabOverlay
flitlab_document_get_overlays (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), FLITLAB_OVERLAY_NONE);

  return self->overlays;
}

void
flitlab_document_set_route_endpoints (FlitlabDocument *self,
                                      int              src,
                                      int              dst)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  /* Only switches route: anything else means none. */
  src = flitlab_document_is_switch (self->topology, src) ? src : -1;
  dst = flitlab_document_is_switch (self->topology, dst) ? dst : -1;
  if (src == self->route_src && dst == self->route_dst)
    return;
  self->route_src = src;
  self->route_dst = dst;
  g_clear_pointer (&self->route, flitlab_document_route_free);
  /* Two switches picked ask to see the paths between them. */
  if (src >= 0 && dst >= 0)
    flitlab_document_set_overlays (self, self->overlays | FLITLAB_OVERLAY_PATHS);
  flitlab_document_emit (self, ROUTE_CHANGED);
}

void
flitlab_document_get_route_endpoints (FlitlabDocument *self,
                                      int             *src,
                                      int             *dst)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (src)
    *src = self->route_src;
  if (dst)
    *dst = self->route_dst;
}

const FlitlabRoute *
flitlab_document_get_route (FlitlabDocument *self)
{
  const FlRouting *r;
  FlitlabRoute *route;
  FlError err = { 0 };
  int truncated = 0;

  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  if (self->route != NULL)
    return self->route;
  if (self->route_src < 0 || self->route_dst < 0 || self->routed == NULL
      || self->routed->routing == NULL)
    return NULL;

  /* A capped search, quick enough for the main loop. */
  r = self->routed->routing;
  route = g_new0 (FlitlabRoute, 1);
  route->src = self->route_src;
  route->dst = self->route_dst;
  if (fl_routing_path (r, route->src, route->dst, FL_SELECT_LOWEST_PORT, NULL, &route->chosen,
                       &route->nchosen, &err) != FL_OK)
    {
      route->chosen_error = g_strdup (err.message);
      route->nchosen = 0;
    }
  fl_error_clear (&err);
  if (fl_routing_all_paths (r, route->src, route->dst, FLITLAB_ROUTE_MAX_PATHS, &route->paths,
                            &route->path_offsets, &route->npaths, &truncated, &err) != FL_OK)
    route->npaths = 0;
  route->truncated = truncated != 0;
  self->route = route;
  self->route_computations++;
  return route;
}

guint
flitlab_document_get_route_computations (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), 0);

  return self->route_computations;
}
