/* flitlab-canvas-tools.c — pointer gestures and the tools they drive.
 *
 * One drag gesture serves every tool: a press that does not move is a
 * click (select, add, delete, route, turn), a drag pans, moves a node with
 * its hosts (one undo step for the whole move) or stretches a rubber band
 * between two nodes to connect. Edits go to the document; refusals come
 * back as the canvas' "message".
 */
#include <glib/gi18n.h>
#include <math.h>

#include "flitlab-canvas-private.h"

#define CLICK_SLOP 4.0       /* pixels a press may move and still be a click */
#define HOST_REACH 64.0      /* pixels from a switch a click still adds a host to it */

/* A node that a move drag carries along, and where it started. */
typedef struct {
  int node;
  double x, y;
} Carried;

static const FlTopology *
topology (FlitlabCanvas *self)
{
  return flitlab_document_get_topology (self->document);
}

void
flitlab_canvas_update_cursor (FlitlabCanvas *self)
{
  const char *name = "default";
  gboolean on_item = self->draw.hover_node >= 0 || self->draw.hover_link >= 0;

  if (self->drag_mode == DRAG_PAN && self->drag_moved)
    name = "grabbing";
  else if (self->drag_mode == DRAG_MOVE)
    name = "move";
  else if (self->drag_mode == DRAG_CONNECT)
    name = "crosshair";
  else if (self->tool == FLITLAB_CANVAS_TOOL_ADD_SWITCH || self->tool == FLITLAB_CANVAS_TOOL_ADD_HOST)
    name = "crosshair";
  else if (self->tool == FLITLAB_CANVAS_TOOL_CONNECT && self->draw.hover_node >= 0)
    name = "crosshair";
  else if (self->tool == FLITLAB_CANVAS_TOOL_ROUTE && self->draw.hover_node >= 0)
    name = "pointer";
  else if (self->tool == FLITLAB_CANVAS_TOOL_TURNS && self->hover_turn.sw >= 0)
    name = "pointer";
  else if (on_item && (self->tool == FLITLAB_CANVAS_TOOL_SELECT || self->tool == FLITLAB_CANVAS_TOOL_DELETE))
    name = "pointer";
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), name);
}

void
flitlab_canvas_set_hover (FlitlabCanvas *self,
                          int            node,
                          int            link)
{
  if (node == self->draw.hover_node && link == self->draw.hover_link)
    return;
  self->draw.hover_node = node;
  self->draw.hover_link = link;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  flitlab_canvas_update_cursor (self);
}

void
flitlab_canvas_set_hover_turn (FlitlabCanvas *self,
                               const FlTurn  *turn)
{
  FlTurn none = { -1, -1, -1 };

  if (turn == NULL)
    turn = &none;
  if (memcmp (turn, &self->hover_turn, sizeof *turn) == 0)
    return;
  self->hover_turn = *turn;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  flitlab_canvas_update_cursor (self);
}

/* Hit tests, in the picture --------------------------------------------------- */

static int
hit_node (FlitlabCanvas *self,
          double         x,
          double         y)
{
  return fl_draw_hit_node (flitlab_canvas_picture (self), &self->draw.view, x, y);
}

static int
hit_link (FlitlabCanvas *self,
          double         x,
          double         y)
{
  FlDrawRouting rd;

  flitlab_canvas_fill_routing (self, &rd, FALSE);
  return fl_draw_hit_routing_link (flitlab_canvas_picture (self), &self->draw.view, &rd, x, y);
}

/* The turn the turn tool would toggle at a device point, or -1. */
static int
hit_turn (FlitlabCanvas *self,
          double         x,
          double         y,
          FlTurn        *turn)
{
  FlDrawRouting rd;

  flitlab_canvas_fill_routing (self, &rd, FALSE);
  return fl_draw_hit_turn (flitlab_canvas_picture (self), &self->draw.view, &rd, x, y, turn);
}

/* The switch under or nearest to a device point, within reach, or -1. */
static int
switch_near (FlitlabCanvas *self,
             double         x,
             double         y)
{
  const FlTopology *t = topology (self);
  int best = -1;
  double best_d = HOST_REACH;
  int hit = hit_node (self, x, y);

  if (hit >= 0 && fl_topology_node_kind (t, hit) == FL_NODE_SWITCH)
    return hit;
  for (int i = 0; i < fl_topology_switch_count (t); i++)
    {
      int n = fl_topology_switch_node (t, i);
      double wx, wy, dx, dy;

      fl_topology_get_position (flitlab_canvas_picture (self), n, &wx, &wy);
      fl_draw_view_to_device (&self->draw.view, wx, wy, &dx, &dy);
      if (hypot (dx - x, dy - y) < best_d)
        {
          best = n;
          best_d = hypot (dx - x, dy - y);
        }
    }
  return best;
}

/* Tools ------------------------------------------------------------------------- */

static void
report (FlitlabCanvas *self,
        const char    *context,
        GError        *error)
{
  flitlab_canvas_emit_message (self, context, error != NULL ? error->message : NULL);
}

static void
add_switch_at (FlitlabCanvas *self,
               double         x,
               double         y)
{
  g_autoptr(GError) error = NULL;
  double wx, wy;
  int id;

  /* The H/V graph's coordinates are not the network's: a switch put
   * there would land anywhere. */
  if (self->shown_hv)
    {
      flitlab_canvas_emit_message (self, _("Cannot add a switch"),
                                   _("switch the H/V graph off to draw the network"));
      return;
    }
  fl_draw_view_to_world (&self->draw.view, x, y, &wx, &wy);
  id = flitlab_document_add_switch (self->document, self->new_switch_ports, wx, wy, &error);
  if (id >= 0)
    flitlab_document_select (self->document, id, -1);
  else
    report (self, _("Cannot add a switch"), error);
}

static void
add_host_at (FlitlabCanvas *self,
             double         x,
             double         y)
{
  g_autoptr(GError) error = NULL;
  int sw = switch_near (self, x, y);
  double wx, wy;
  gboolean at_switch;
  int id;

  if (sw < 0)
    {
      flitlab_canvas_emit_message (self, _("Click on or near a switch to attach a host to it"), NULL);
      return;
    }
  /* A click beside the switch puts the host there; a click on the switch
   * (or anywhere in the H/V graph, whose coordinates are not the
   * network's) puts it beside the switch, fanned out from any hosts
   * already there. */
  at_switch = self->shown_hv || hit_node (self, x, y) == sw;
  fl_draw_view_to_world (&self->draw.view, x, y, &wx, &wy);
  id = flitlab_document_add_host (self->document, sw, at_switch, wx, wy, &error);
  if (id >= 0)
    flitlab_document_select (self->document, id, -1);
  else
    report (self, _("Cannot add a host"), error);
}

static void
connect_nodes (FlitlabCanvas *self,
               int            a,
               int            b)
{
  g_autoptr(GError) error = NULL;
  int link;

  if (b < 0 || a == b)
    return;
  link = flitlab_document_connect (self->document, a, b, &error);
  if (link >= 0)
    flitlab_document_select (self->document, -1, link);
  else
    report (self, _("Cannot connect"), error);
}

static void
delete_item (FlitlabCanvas *self,
             int            node,
             int            link)
{
  g_autoptr(GError) error = NULL;

  if (node < 0 && link < 0)
    return;
  flitlab_document_select (self->document, -1, -1);
  if (node >= 0 ? !flitlab_document_remove_node (self->document, node, &error)
                : !flitlab_document_disconnect (self->document, link, &error))
    report (self, _("Cannot delete"), error);
}

static void
hover_at (FlitlabCanvas *self,
          double         x,
          double         y)
{
  FlTurn turn;
  int node, link;

  /* Turn editing shows the turn under the pointer, not nodes or links. */
  if (self->tool == FLITLAB_CANVAS_TOOL_TURNS)
    {
      flitlab_canvas_set_hover (self, -1, -1);
      flitlab_canvas_set_hover_turn (self, hit_turn (self, x, y, &turn) >= 0 ? &turn : NULL);
      return;
    }
  node = hit_node (self, x, y);
  link = node < 0 && self->tool != FLITLAB_CANVAS_TOOL_ROUTE ? hit_link (self, x, y) : -1;
  flitlab_canvas_set_hover (self, node, link);
}

/* First click the source, then the destination; a third click starts
 * over. A host stands for its switch. */
static void
route_click (FlitlabCanvas *self,
             int            node)
{
  int src, dst;

  if (node >= 0 && fl_topology_node_kind (topology (self), node) == FL_NODE_HOST)
    node = fl_topology_host_switch (topology (self), node);
  if (node < 0)
    return;
  flitlab_document_get_route_endpoints (self->document, &src, &dst);
  if (src < 0 || dst >= 0)
    flitlab_document_set_route_endpoints (self->document, node, -1);
  else if (node != src)
    flitlab_document_set_route_endpoints (self->document, src, node);
}

static void
turn_click (FlitlabCanvas *self,
            double         x,
            double         y)
{
  FlTurn turn;

  if (hit_turn (self, x, y, &turn) >= 0)
    g_signal_emit_by_name (self, "turn-activated", turn.sw, turn.in_port, turn.out_port);
}

static void
click_at (FlitlabCanvas *self,
          double         x,
          double         y)
{
  int node = hit_node (self, x, y);
  int link = node < 0 ? hit_link (self, x, y) : -1;

  switch (self->tool)
    {
    case FLITLAB_CANVAS_TOOL_ROUTE:
      route_click (self, node);
      break;
    case FLITLAB_CANVAS_TOOL_TURNS:
      turn_click (self, x, y);
      break;
    case FLITLAB_CANVAS_TOOL_ADD_SWITCH:
      add_switch_at (self, x, y);
      break;
    case FLITLAB_CANVAS_TOOL_ADD_HOST:
      add_host_at (self, x, y);
      break;
    case FLITLAB_CANVAS_TOOL_DELETE:
      delete_item (self, node, link);
      break;
    case FLITLAB_CANVAS_TOOL_SELECT:
    case FLITLAB_CANVAS_TOOL_CONNECT:
    default:
      /* A packet drawn over a link or beside a switch is what the user
       * pointed at, rather than what lies under it. */
      if (flitlab_canvas_inspect_packet_at (self, x, y))
        break;
      if (self->show_collectives && node >= 0)
        {
          gboolean handled = FALSE;

          g_signal_emit_by_name (self, "node-activated", node, &handled);
          if (handled)
            break;
        }
      flitlab_document_select (self->document, node, link);
      break;
    }
}

/* Gestures ------------------------------------------------------------------------ */

/* Remembers where a node and the hosts drawn beside it start a move. */
static void
begin_move (FlitlabCanvas *self,
            int            node)
{
  const FlTopology *t = topology (self);
  Carried c = { node, 0, 0 };

  g_array_set_size (self->carried, 0);
  fl_topology_get_position (t, node, &c.x, &c.y);
  g_array_append_val (self->carried, c);
  if (fl_topology_node_kind (t, node) != FL_NODE_SWITCH)
    return;
  for (int p = 0; p < fl_topology_node_ports (t, node); p++)
    {
      int peer = fl_topology_port_peer (t, node, p, NULL);

      if (peer < 0 || fl_topology_node_kind (t, peer) != FL_NODE_HOST)
        continue;
      c.node = peer;
      fl_topology_get_position (t, peer, &c.x, &c.y);
      g_array_append_val (self->carried, c);
    }
}

static void
drag_begin_cb (FlitlabCanvas  *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  int node;

  /* A touch has no button: it acts as the primary one. */
  if (button == 0)
    button = GDK_BUTTON_PRIMARY;
  if (button != GDK_BUTTON_PRIMARY && button != GDK_BUTTON_MIDDLE)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_x = x;
  self->drag_y = y;
  self->drag_moved = FALSE;
  self->drag_view = self->draw.view;
  self->drag_mode = DRAG_PAN;
  node = hit_node (self, x, y);
  if (button == GDK_BUTTON_PRIMARY && node >= 0)
    {
      /* The H/V graph places nodes by the routing: they cannot be moved
       * there, so a drag pans. */
      if (self->tool == FLITLAB_CANVAS_TOOL_SELECT && !self->shown_hv)
        {
          self->drag_mode = DRAG_MOVE;
          begin_move (self, node);
        }
      else if (self->tool == FLITLAB_CANVAS_TOOL_CONNECT)
        {
          self->drag_mode = DRAG_CONNECT;
          self->draw.connect_from = node;
          self->draw.connect_x = x;
          self->draw.connect_y = y;
        }
    }
  flitlab_canvas_update_cursor (self);
}

static void
drag_update_cb (FlitlabCanvas  *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  if (self->drag_mode == DRAG_NONE)
    return;
  if (!self->drag_moved && hypot (dx, dy) < CLICK_SLOP)
    return;
  if (!self->drag_moved)
    {
      self->drag_moved = TRUE;
      /* The whole move is one undo step. */
      if (self->drag_mode == DRAG_MOVE)
        flitlab_document_begin_gesture (self->document);
      flitlab_canvas_update_cursor (self);
    }

  switch (self->drag_mode)
    {
    case DRAG_PAN:
      {
        FlDrawView v = self->drag_view;

        v.tx += dx;
        v.ty += dy;
        flitlab_canvas_set_view (self, &v);
      }
      break;
    case DRAG_MOVE:
      for (guint i = 0; i < self->carried->len; i++)
        {
          Carried *c = &g_array_index (self->carried, Carried, i);

          flitlab_document_set_position (self->document, c->node,
                                         c->x + dx / self->draw.view.scale,
                                         c->y + dy / self->draw.view.scale);
        }
      self->shown_valid = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_CONNECT:
      self->draw.connect_x = self->drag_x + dx;
      self->draw.connect_y = self->drag_y + dy;
      hover_at (self, self->draw.connect_x, self->draw.connect_y);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    case DRAG_NONE:
    default:
      break;
    }
}

void
flitlab_canvas_finish_drag (FlitlabCanvas *self,
                            gboolean       commit)
{
  FlitlabCanvasDrag mode = self->drag_mode;

  self->drag_mode = DRAG_NONE;
  self->draw.connect_from = -1;
  g_array_set_size (self->carried, 0);
  if (mode == DRAG_MOVE && flitlab_document_in_gesture (self->document))
    {
      flitlab_document_end_gesture (self->document, commit);
      self->shown_valid = FALSE;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  flitlab_canvas_update_cursor (self);
}

static void
drag_end_cb (FlitlabCanvas  *self,
             double          dx,
             double          dy,
             GtkGestureDrag *gesture)
{
  FlitlabCanvasDrag mode = self->drag_mode;
  gboolean moved = self->drag_moved;
  int from = self->draw.connect_from;
  double x = self->drag_x + dx, y = self->drag_y + dy;

  if (mode == DRAG_NONE)
    return;
  flitlab_canvas_finish_drag (self, TRUE);
  if (!moved)
    click_at (self, self->drag_x, self->drag_y);
  else if (mode == DRAG_CONNECT)
    connect_nodes (self, from, hit_node (self, x, y));
  hover_at (self, x, y);
}

static void
drag_cancel_cb (FlitlabCanvas    *self,
                GdkEventSequence *sequence,
                GtkGesture       *gesture)
{
  if (self->drag_mode != DRAG_NONE)
    flitlab_canvas_finish_drag (self, FALSE);
}

static void
motion_cb (FlitlabCanvas            *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *motion)
{
  self->pointer_x = x;
  self->pointer_y = y;
  if (self->drag_mode == DRAG_NONE)
    hover_at (self, x, y);
}

static void
leave_cb (FlitlabCanvas            *self,
          GtkEventControllerMotion *motion)
{
  if (self->drag_mode == DRAG_NONE)
    {
      flitlab_canvas_set_hover (self, -1, -1);
      flitlab_canvas_set_hover_turn (self, NULL);
    }
}

static gboolean
scroll_cb (FlitlabCanvas            *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *scroll)
{
  if (dy == 0)
    return FALSE;
  flitlab_canvas_zoom_around (self, pow (FLITLAB_CANVAS_ZOOM_STEP, -dy), self->pointer_x, self->pointer_y);
  return TRUE;
}

static void
zoom_begin_cb (FlitlabCanvas    *self,
               GdkEventSequence *sequence,
               GtkGesture       *gesture)
{
  self->zoom_start = self->draw.view.scale;
}

static void
zoom_changed_cb (FlitlabCanvas  *self,
                 double          scale,
                 GtkGestureZoom *gesture)
{
  double x, y;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y))
    return;
  flitlab_canvas_zoom_around (self, self->zoom_start * scale / self->draw.view.scale, x, y);
}

static gboolean
key_pressed_cb (FlitlabCanvas         *self,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkEventControllerKey *key)
{
  if (keyval != GDK_KEY_Escape || self->drag_mode == DRAG_NONE)
    return FALSE;
  /* Escape abandons a connect (or a move) and forgets the gesture. */
  flitlab_canvas_finish_drag (self, FALSE);
  gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->drag));
  return TRUE;
}

void
flitlab_canvas_tools_init (FlitlabCanvas *self)
{
  GtkEventController *controller;
  GtkGesture *zoom;

  self->carried = g_array_new (FALSE, FALSE, sizeof (Carried));
  self->hover_turn.sw = self->hover_turn.in_port = self->hover_turn.out_port = -1;

  self->drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (self->drag), 0);
  g_signal_connect_swapped (self->drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect_swapped (self->drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect_swapped (self->drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  g_signal_connect_swapped (self->drag, "cancel", G_CALLBACK (drag_cancel_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (self->drag));

  zoom = gtk_gesture_zoom_new ();
  g_signal_connect_swapped (zoom, "begin", G_CALLBACK (zoom_begin_cb), self);
  g_signal_connect_swapped (zoom, "scale-changed", G_CALLBACK (zoom_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (zoom));

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect_swapped (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_key_new ();
  g_signal_connect_swapped (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
