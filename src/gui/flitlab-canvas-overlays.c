/* flitlab-canvas-overlays.c — the routing overlays of the canvas and the
 * picture they are drawn on.
 *
 * With a routing built for its document's network, the canvas draws
 * overlays through fl_draw_routing() on a picture of the network: the
 * topology itself, its switches alone, or its H/V graph. Hit tests run on
 * that same picture, whose switches and switch links keep their ids, so
 * what the pointer finds is what is drawn. The route's paths are the
 * document's, computed once for the canvas and the routing panel. While
 * the Collectives tab shows, the whole network is drawn and whoever
 * handles "draw-overlay" draws the collective over it.
 */
#include <glib/gi18n.h>

#include "flitlab-canvas-private.h"

/* Paths drawn between the route endpoints: enough to see how many ways a
 * routing allows without drawing the thousands of a large mesh. */
#define MAX_DRAWN_PATHS 64

/* The routing is drawn only while it describes this network. */
static gboolean
routed_usable (FlitlabCanvas *self)
{
  FlitlabRouted *routed = flitlab_document_get_routed (self->document);
  const FlTopology *t = flitlab_document_get_topology (self->document);

  if (routed == NULL || routed->routing == NULL)
    return FALSE;
  return fl_topology_node_count (routed->topology) == fl_topology_node_count (t)
         && fl_topology_link_count (routed->topology) == fl_topology_link_count (t);
}

gboolean
flitlab_canvas_overlays_shown (FlitlabCanvas *self)
{
  /* A simulation and a collective are drawn on the whole network, hosts
   * and all. */
  return !self->show_simulation && !self->show_collectives
         && flitlab_document_get_overlays (self->document) != FLITLAB_OVERLAY_NONE
         && routed_usable (self);
}

static const FlDrawLegendText *
legend_text (void)
{
  static FlDrawLegendText text;
  static gsize ready;

  if (g_once_init_enter (&ready))
    {
      /* Translators: the legend of the routing overlays; "in" and "out"
       * are the links a packet enters and leaves a switch by. */
      text.prohibited_turn = _("prohibited turn (in → out)");
      /* Translators: PPT is paper 002's "prohibited-turn pair": the two
       * opposite turns between the same two links. */
      text.ppt_pair = _("PPT pair: prohibited both ways");
      text.up_channel = _("up channel");
      text.down_channel = _("down channel");
      /* Translators: h and v are the coordinates of the H/V graph. */
      text.hv_coords = _("(h, v) = (preorder, depth)");
      text.tree_link = _("spanning-tree link");
      text.other_link = _("other link");
      text.legal_paths = _("legal shortest paths");
      text.chosen_path = _("chosen route");
      text.source = _("source");
      text.destination = _("destination");
      text.cycle = _("dependency cycle, in order");
      text.no_cycle = _("no dependency cycle");
      text.no_directions = _("no channel directions in this routing");
      text.no_tree = _("no spanning tree: no H/V graph");
      /* Translators: where dimension-order routing on a torus moves a
       * packet from virtual channel class 0 to class 1. */
      text.dateline = _("dateline: VC class 0 → 1");
      g_once_init_leave (&ready, 1);
    }
  return &text;
}

void
flitlab_canvas_fill_routing (FlitlabCanvas *self,
                             FlDrawRouting *rd,
                             gboolean       with_paths)
{
  FlitlabRouted *routed = flitlab_document_get_routed (self->document);
  const FlitlabRoute *route;

  fl_draw_routing_init (rd);
  rd->text = legend_text ();
  if (!flitlab_canvas_overlays_shown (self))
    return;
  rd->routing = routed->routing;
  rd->report = &routed->report;
  rd->overlays = flitlab_document_get_overlays (self->document);
  if (!with_paths || !(rd->overlays & FL_DRAW_OVERLAY_PATHS))
    return;

  flitlab_document_get_route_endpoints (self->document, &rd->src, &rd->dst);
  route = flitlab_document_get_route (self->document);
  if (route == NULL)
    return;
  rd->paths = route->paths;
  rd->path_offsets = route->path_offsets;
  rd->npaths = MIN (route->npaths, MAX_DRAWN_PATHS);
  rd->chosen = route->chosen;
  rd->nchosen = route->nchosen;
}

/* The network as drawn and hit: the topology, or while overlays are
 * drawn its switches alone (routing concerns switches, and hosts would
 * crowd the turn arcs) or its H/V graph. */
const FlTopology *
flitlab_canvas_picture (FlitlabCanvas *self)
{
  const FlTopology *topology = flitlab_document_get_topology (self->document);

  if (!self->shown_valid)
    {
      g_clear_pointer (&self->shown, fl_topology_free);
      self->shown_hv = FALSE;
      self->shown_valid = TRUE;
      if (flitlab_canvas_overlays_shown (self))
        {
          FlitlabRouted *routed = flitlab_document_get_routed (self->document);

          if ((flitlab_document_get_overlays (self->document) & FLITLAB_OVERLAY_HV_GRAPH)
              && fl_draw_hv_layout (topology, routed->routing, &self->shown, NULL) == FL_OK)
            self->shown_hv = TRUE;
          else if (fl_draw_switches_only (topology, &self->shown, NULL) != FL_OK)
            self->shown = NULL;
        }
    }
  return self->shown ? self->shown : topology;
}

static gboolean
same_positions (const FlTopology *a,
                const FlTopology *b)
{
  if (a == NULL || b == NULL || fl_topology_node_count (a) != fl_topology_node_count (b))
    return FALSE;
  for (int n = 0; n < fl_topology_node_count (a); n++)
    {
      double ax, ay, bx, by;

      fl_topology_get_position (a, n, &ax, &ay);
      fl_topology_get_position (b, n, &bx, &by);
      if (ax != bx || ay != by)
        return FALSE;
    }
  return TRUE;
}

/* The network's own layout and its H/V graph share no coordinates, so
 * going from one to the other, or to another H/V graph, fits the view
 * anew; so does a view still fitted, to make room for the legend. */
void
flitlab_canvas_picture_changed (FlitlabCanvas *self)
{
  gboolean was_hv = self->shown_hv;
  FlTopology *old = g_steal_pointer (&self->shown);

  self->shown_valid = FALSE;
  flitlab_canvas_picture (self);
  if (self->fitted || ((was_hv || self->shown_hv) && !same_positions (old, self->shown)))
    flitlab_canvas_zoom_fit (self);
  fl_topology_free (old);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flitlab_canvas_draw_collective (FlitlabCanvas *self,
                                cairo_t       *cr)
{
  const FlTopology *picture = flitlab_canvas_picture (self);

  fl_draw_topology (cr, picture, &self->draw);
  g_signal_emit_by_name (self, "draw-overlay", cr, picture, &self->draw);
}

void
flitlab_canvas_set_show_collectives (FlitlabCanvas *self,
                                     gboolean       show)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (self->show_collectives == !!show)
    return;
  self->show_collectives = !!show;
  flitlab_canvas_picture_changed (self);
}

gboolean
flitlab_canvas_get_show_collectives (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FALSE);

  return self->show_collectives;
}
