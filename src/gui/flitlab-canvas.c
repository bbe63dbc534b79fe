/* flitlab-canvas.c — the topology canvas widget.
 *
 * The canvas owns the topology being edited and its undo history. It
 * draws through fl_draw_topology(), the function export and the command
 * line use too, and turns pointer gestures into engine edits: every edit
 * is one fl_topology_* call (or a few) on the live topology, preceded by a
 * snapshot pushed onto the edit history.
 *
 * With a routing (a FlitlabRouted) it draws overlays through
 * fl_draw_routing() on a picture of the network: the topology itself, its
 * switches alone, or its H/V graph. Hit tests run on that same picture,
 * whose switches and switch links keep their ids, so what the pointer
 * finds is what is drawn.
 */
#include <math.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "flitlab-canvas.h"
#include "flitlab-draw.h"
#include "flitlab-edit-history.h"

#define HISTORY_STEPS 200
#define HISTORY_BYTES (128 * 1024 * 1024)
#define ZOOM_STEP 1.25
#define MIN_SCALE 0.5        /* device pixels per layout step */
#define MAX_SCALE 400.0
#define CLICK_SLOP 4.0       /* pixels a press may move and still be a click */
#define HOST_REACH 64.0      /* pixels from a switch a click still adds a host to it */

typedef enum {
  DRAG_NONE,
  DRAG_PAN,                  /* move the view (a click if it never moves) */
  DRAG_MOVE,                 /* move a node and its hosts */
  DRAG_CONNECT,              /* the rubber band from a node */
} DragMode;

/* A node that a move drag carries along, and where it started. */
typedef struct {
  int node;
  double x, y;
} Carried;

struct _FlitlabCanvas
{
  GtkWidget parent_instance;

  FlTopology *topology;
  FlitlabEditHistory *history;
  FlitlabCanvasTool tool;
  FlDrawOptions draw;          /* the view, selection, hover, rubber band */
  int new_switch_ports;
  gboolean can_undo;           /* as last notified */
  gboolean can_redo;
  gboolean fit_pending;        /* fit once the widget has a size */
  gboolean fitted;             /* the view is still the fitted one: refit on resize */
  int width, height;           /* the last allocation */
  double pointer_x, pointer_y;

  GtkGesture *drag;
  DragMode drag_mode;
  gboolean drag_moved;
  double drag_x, drag_y;       /* where the drag began */
  FlDrawView drag_view;        /* the view when a pan began */
  GArray *carried;             /* of Carried, during a move */

  double zoom_start;           /* the scale when a pinch began */

  FlitlabRouted *routed;       /* drawn only while it matches the topology */
  FlitlabOverlay overlays;
  int route_src, route_dst;    /* switch node ids, -1 = none */
  FlTurn hover_turn;           /* the TURNS tool's turn under the pointer */

  /* The picture: NULL draws the topology itself; else its switches alone
   * or its H/V graph (shown_hv), rebuilt when shown_valid is cleared. */
  FlTopology *shown;
  gboolean shown_valid;
  gboolean shown_hv;

  /* The PATHS overlay, computed when first drawn (paths_valid). */
  gboolean paths_valid;
  int *paths, *path_offsets, npaths;
  int *chosen, nchosen;
};

G_DEFINE_FINAL_TYPE (FlitlabCanvas, flitlab_canvas, GTK_TYPE_WIDGET)

G_DEFINE_QUARK (flitlab-canvas-error-quark, flitlab_canvas_error)

enum {
  PROP_0,
  PROP_TOOL,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_NEW_SWITCH_PORTS,
  PROP_ZOOM,
  PROP_ROUTED,
  PROP_OVERLAYS,
  N_PROPS
};

enum {
  SELECTION_CHANGED,
  TOPOLOGY_EDITED,
  MESSAGE,
  ROUTE_ENDPOINTS_CHANGED,
  TURN_ACTIVATED,
  N_SIGNALS
};

/* Paths drawn between the route endpoints: enough to see how many ways a
 * routing allows without enumerating the thousands of a large mesh. */
#define MAX_DRAWN_PATHS 64

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

GType
flitlab_canvas_tool_get_type (void)
{
  static gsize type_id;
  static const GEnumValue values[] = {
    { FLITLAB_CANVAS_TOOL_SELECT, "FLITLAB_CANVAS_TOOL_SELECT", "select" },
    { FLITLAB_CANVAS_TOOL_ADD_SWITCH, "FLITLAB_CANVAS_TOOL_ADD_SWITCH", "add-switch" },
    { FLITLAB_CANVAS_TOOL_ADD_HOST, "FLITLAB_CANVAS_TOOL_ADD_HOST", "add-host" },
    { FLITLAB_CANVAS_TOOL_CONNECT, "FLITLAB_CANVAS_TOOL_CONNECT", "connect" },
    { FLITLAB_CANVAS_TOOL_DELETE, "FLITLAB_CANVAS_TOOL_DELETE", "delete" },
    { FLITLAB_CANVAS_TOOL_ROUTE, "FLITLAB_CANVAS_TOOL_ROUTE", "route" },
    { FLITLAB_CANVAS_TOOL_TURNS, "FLITLAB_CANVAS_TOOL_TURNS", "turns" },
    { 0, NULL, NULL }
  };

  if (g_once_init_enter (&type_id))
    {
      GType type = g_enum_register_static (g_intern_static_string ("FlitlabCanvasTool"), values);
      g_once_init_leave (&type_id, type);
    }
  return type_id;
}

G_STATIC_ASSERT ((int) FLITLAB_OVERLAY_TURNS == FL_DRAW_OVERLAY_TURNS);
G_STATIC_ASSERT ((int) FLITLAB_OVERLAY_DIRECTIONS == FL_DRAW_OVERLAY_DIRECTIONS);
G_STATIC_ASSERT ((int) FLITLAB_OVERLAY_HV_GRAPH == FL_DRAW_OVERLAY_HV_GRAPH);
G_STATIC_ASSERT ((int) FLITLAB_OVERLAY_PATHS == FL_DRAW_OVERLAY_PATHS);
G_STATIC_ASSERT ((int) FLITLAB_OVERLAY_CYCLE == FL_DRAW_OVERLAY_CYCLE);

GType
flitlab_overlay_get_type (void)
{
  static gsize type_id;
  static const GFlagsValue values[] = {
    { FLITLAB_OVERLAY_NONE, "FLITLAB_OVERLAY_NONE", "none" },
    { FLITLAB_OVERLAY_TURNS, "FLITLAB_OVERLAY_TURNS", "turns" },
    { FLITLAB_OVERLAY_DIRECTIONS, "FLITLAB_OVERLAY_DIRECTIONS", "directions" },
    { FLITLAB_OVERLAY_HV_GRAPH, "FLITLAB_OVERLAY_HV_GRAPH", "hv-graph" },
    { FLITLAB_OVERLAY_PATHS, "FLITLAB_OVERLAY_PATHS", "paths" },
    { FLITLAB_OVERLAY_CYCLE, "FLITLAB_OVERLAY_CYCLE", "cycle" },
    { 0, NULL, NULL }
  };

  if (g_once_init_enter (&type_id))
    {
      GType type = g_flags_register_static (g_intern_static_string ("FlitlabOverlay"), values);
      g_once_init_leave (&type_id, type);
    }
  return type_id;
}

/* --- state changes ------------------------------------------------------ */

static void
emit_message (FlitlabCanvas *self,
              const char    *context,
              const char    *detail)
{
  /* Translators: a refused edit, e.g. "Cannot connect: switch 3 has no free port" */
  g_autofree char *text = detail ? g_strdup_printf (_("%s: %s"), context, detail) : g_strdup (context);

  g_signal_emit (self, signals[MESSAGE], 0, text);
}

static void
update_cursor (FlitlabCanvas *self)
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

static void
set_selection (FlitlabCanvas *self,
               int            node,
               int            link)
{
  if (node >= fl_topology_node_count (self->topology))
    node = -1;
  if (link >= fl_topology_link_count (self->topology) || node >= 0)
    link = -1;
  node = MAX (node, -1);
  link = MAX (link, -1);
  if (node == self->draw.selected_node && link == self->draw.selected_link)
    return;
  self->draw.selected_node = node;
  self->draw.selected_link = link;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
set_hover (FlitlabCanvas *self,
           int            node,
           int            link)
{
  if (node == self->draw.hover_node && link == self->draw.hover_link)
    return;
  self->draw.hover_node = node;
  self->draw.hover_link = link;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_cursor (self);
}

static void
update_undo_state (FlitlabCanvas *self)
{
  gboolean can_undo = flitlab_edit_history_can_undo (self->history);
  gboolean can_redo = flitlab_edit_history_can_redo (self->history);

  if (can_undo != self->can_undo)
    {
      self->can_undo = can_undo;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
    }
  if (can_redo != self->can_redo)
    {
      self->can_redo = can_redo;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
    }
}

/* --- routing overlays ----------------------------------------------------- */

/* Whether two networks have the same structure: nodes of the same kinds
 * and port counts, the same links between the same ports. Positions may
 * differ: a routing stays true while nodes are only moved. */
static gboolean
same_structure (const FlTopology *a,
                const FlTopology *b)
{
  int nodes = fl_topology_node_count (a);
  int links = fl_topology_link_count (a);

  if (nodes != fl_topology_node_count (b) || links != fl_topology_link_count (b))
    return FALSE;
  for (int n = 0; n < nodes; n++)
    if (fl_topology_node_kind (a, n) != fl_topology_node_kind (b, n) ||
        fl_topology_node_ports (a, n) != fl_topology_node_ports (b, n))
      return FALSE;
  for (int l = 0; l < links; l++)
    {
      int ea[4], eb[4];

      fl_topology_link_ends (a, l, &ea[0], &ea[1], &ea[2], &ea[3]);
      fl_topology_link_ends (b, l, &eb[0], &eb[1], &eb[2], &eb[3]);
      if (memcmp (ea, eb, sizeof ea) != 0)
        return FALSE;
    }
  return TRUE;
}

/* The routing is drawn only while it describes this network. */
static gboolean
routed_usable (FlitlabCanvas *self)
{
  const FlTopology *t;

  if (self->routed == NULL || self->routed->routing == NULL)
    return FALSE;
  t = self->routed->topology;
  return fl_topology_node_count (t) == fl_topology_node_count (self->topology) &&
         fl_topology_link_count (t) == fl_topology_link_count (self->topology);
}

static gboolean
overlays_shown (FlitlabCanvas *self)
{
  return self->overlays != FLITLAB_OVERLAY_NONE && routed_usable (self);
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
      g_once_init_leave (&ready, 1);
    }
  return &text;
}

/* What fl_draw_routing() and the hit tests need; the paths only for
 * drawing. */
static void
fill_routing (FlitlabCanvas *self,
              FlDrawRouting *rd)
{
  fl_draw_routing_init (rd);
  rd->text = legend_text ();
  if (!overlays_shown (self))
    return;
  rd->routing = self->routed->routing;
  rd->report = &self->routed->report;
  rd->overlays = self->overlays;
}

static void
clear_paths (FlitlabCanvas *self)
{
  g_clear_pointer (&self->paths, free);
  g_clear_pointer (&self->path_offsets, free);
  g_clear_pointer (&self->chosen, free);
  self->npaths = self->nchosen = 0;
  self->paths_valid = FALSE;
}

/* The legal shortest paths between the endpoints (a capped search, quick
 * enough for the main loop) and the one the routing chooses. */
static void
fill_paths (FlitlabCanvas *self,
            FlDrawRouting *rd)
{
  if (!(rd->overlays & FL_DRAW_OVERLAY_PATHS))
    return;
  if (!self->paths_valid && self->route_src >= 0 && self->route_dst >= 0)
    {
      const FlRouting *r = self->routed->routing;
      int truncated;

      if (fl_routing_all_paths (r, self->route_src, self->route_dst, MAX_DRAWN_PATHS,
                                &self->paths, &self->path_offsets, &self->npaths,
                                &truncated, NULL) != FL_OK)
        self->npaths = 0;
      if (fl_routing_path (r, self->route_src, self->route_dst, FL_SELECT_LOWEST_PORT, NULL,
                           &self->chosen, &self->nchosen, NULL) != FL_OK)
        self->nchosen = 0;
    }
  self->paths_valid = TRUE;
  rd->paths = self->paths;
  rd->path_offsets = self->path_offsets;
  rd->npaths = self->npaths;
  rd->chosen = self->chosen;
  rd->nchosen = self->nchosen;
  rd->src = self->route_src;
  rd->dst = self->route_dst;
}

/* The network as drawn and hit: the topology, or while overlays are
 * drawn its switches alone (routing concerns switches, and hosts would
 * crowd the turn arcs) or its H/V graph. Built when first needed. */
static const FlTopology *
picture (FlitlabCanvas *self)
{
  if (!self->shown_valid)
    {
      g_clear_pointer (&self->shown, fl_topology_free);
      self->shown_hv = FALSE;
      self->shown_valid = TRUE;
      if (overlays_shown (self))
        {
          if ((self->overlays & FLITLAB_OVERLAY_HV_GRAPH) &&
              fl_draw_hv_layout (self->topology, self->routed->routing, &self->shown, NULL) == FL_OK)
            self->shown_hv = TRUE;
          else if (fl_draw_switches_only (self->topology, &self->shown, NULL) != FL_OK)
            self->shown = NULL;
        }
    }
  return self->shown ? self->shown : self->topology;
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

/* After a change of routing or overlays. The network's own layout and
 * its H/V graph share no coordinates, so going from one to the other, or
 * to another H/V graph, fits the view anew; so does a view still fitted,
 * to make room for the legend. */
static void
picture_changed (FlitlabCanvas *self)
{
  gboolean was_hv = self->shown_hv;
  FlTopology *old = g_steal_pointer (&self->shown);

  self->shown_valid = FALSE;
  picture (self);
  if (self->fitted || ((was_hv || self->shown_hv) && !same_positions (old, self->shown)))
    flitlab_canvas_zoom_fit (self);
  fl_topology_free (old);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
is_switch (const FlTopology *t,
           int               node)
{
  return node >= 0 && node < fl_topology_node_count (t) &&
         fl_topology_node_kind (t, node) == FL_NODE_SWITCH;
}

/* After an edit: a routing of another structure is dropped, and route
 * endpoints that are no longer switches are forgotten. */
static void
check_routing (FlitlabCanvas *self)
{
  self->shown_valid = FALSE;
  if (self->routed != NULL && !same_structure (self->routed->topology, self->topology))
    flitlab_canvas_set_routed (self, NULL);
  flitlab_canvas_set_route_endpoints (self,
                                      is_switch (self->topology, self->route_src) ? self->route_src : -1,
                                      is_switch (self->topology, self->route_dst) ? self->route_dst : -1);
}

static void
set_hover_turn (FlitlabCanvas *self,
                const FlTurn  *turn)
{
  FlTurn none = { -1, -1, -1 };

  if (turn == NULL)
    turn = &none;
  if (memcmp (turn, &self->hover_turn, sizeof *turn) == 0)
    return;
  self->hover_turn = *turn;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_cursor (self);
}

/* After any change of topology: indices may have moved, so what pointed
 * past the end is dropped. */
static void
revalidate (FlitlabCanvas *self)
{
  int nodes = fl_topology_node_count (self->topology);
  int links = fl_topology_link_count (self->topology);

  if (self->draw.hover_node >= nodes || self->draw.hover_link >= links)
    set_hover (self, -1, -1);
  if (self->draw.connect_from >= nodes)
    self->draw.connect_from = -1;
  set_selection (self, self->draw.selected_node, self->draw.selected_link);
  update_undo_state (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
topology_edited (FlitlabCanvas *self)
{
  /* The user has started shaping the picture: a resize keeps the view. */
  self->fitted = FALSE;
  revalidate (self);
  check_routing (self);
  g_signal_emit (self, signals[TOPOLOGY_EDITED], 0);
}

/* Replaces the live topology (undo, redo, a cancelled drag). */
static void
replace_topology (FlitlabCanvas *self,
                  FlTopology    *topology)
{
  g_clear_pointer (&self->topology, fl_topology_free);
  self->topology = topology;
  self->shown_valid = FALSE;
}

/* --- edits -------------------------------------------------------------- */

/* An edit: changes t, or returns an FlStatus and a message in err. It may
 * leave t half-changed on failure: run_edit() puts the snapshot back. */
typedef int (*EditFunc) (FlTopology *t,
                         gpointer    data,
                         FlError    *err);

/* Runs func as one undo step. On failure, sets error (when given) and
 * leaves the topology as it was. */
static gboolean
run_edit (FlitlabCanvas  *self,
          EditFunc        func,
          gpointer        data,
          GError        **error)
{
  FlTopology *before = fl_topology_copy (self->topology);
  FlError err;

  fl_error_clear (&err);
  if (before == NULL)
    {
      g_set_error_literal (error, FLITLAB_CANVAS_ERROR, FLITLAB_CANVAS_ERROR_EDIT, _("Out of memory"));
      return FALSE;
    }
  if (func (self->topology, data, &err) != FL_OK)
    {
      replace_topology (self, before);
      revalidate (self);
      g_set_error_literal (error, FLITLAB_CANVAS_ERROR, FLITLAB_CANVAS_ERROR_EDIT, err.message);
      return FALSE;
    }
  flitlab_edit_history_push (self->history, before);
  topology_edited (self);
  return TRUE;
}

/* Runs a pointer edit; a refusal becomes a "message" for the user. */
static gboolean
run_pointer_edit (FlitlabCanvas *self,
                  const char    *context,
                  EditFunc       func,
                  gpointer       data)
{
  g_autoptr(GError) error = NULL;

  if (run_edit (self, func, data, &error))
    return TRUE;
  emit_message (self, context, error->message);
  return FALSE;
}

typedef struct {
  FlNodeKind kind;
  int ports;
  int attach_to;             /* a host's switch */
  double x, y;
  int id;                    /* out */
} AddNode;

static int
edit_add_node (FlTopology *t,
               gpointer    data,
               FlError    *err)
{
  AddNode *add = data;
  int rc = fl_topology_add_node (t, add->kind, add->ports, &add->id, err);

  if (rc == FL_OK)
    rc = fl_topology_set_position (t, add->id, add->x, add->y);
  if (rc == FL_OK && add->kind == FL_NODE_HOST)
    rc = fl_topology_connect (t, add->id, 0, add->attach_to, -1, NULL, err);
  /* A host put on its switch is stored where the drawing fans it out, so
   * files and the picture agree. */
  if (rc == FL_OK && add->kind == FL_NODE_HOST)
    {
      double x, y;

      fl_draw_node_position (t, add->id, &x, &y);
      rc = fl_topology_set_position (t, add->id, x, y);
    }
  return rc;
}

typedef struct {
  int a, b;
  int link;                  /* out */
} Connect;

static int
edit_connect (FlTopology *t,
              gpointer    data,
              FlError    *err)
{
  Connect *c = data;

  return fl_topology_connect (t, c->a, -1, c->b, -1, &c->link, err);
}

static int
edit_disconnect (FlTopology *t,
                 gpointer    data,
                 FlError    *err)
{
  return fl_topology_disconnect (t, *(int *) data, err);
}

static int
compare_descending (gconstpointer a,
                    gconstpointer b)
{
  return *(const int *) b - *(const int *) a;
}

/* Removes a node; a switch takes its hosts with it, since a host cannot
 * exist unattached in a valid network. */
static int
edit_remove_node (FlTopology *t,
                  gpointer    data,
                  FlError    *err)
{
  int node = *(int *) data;
  g_autoptr(GArray) doomed = g_array_new (FALSE, FALSE, sizeof (int));
  int rc = FL_OK;

  g_array_append_val (doomed, node);
  if (fl_topology_node_kind (t, node) == FL_NODE_SWITCH)
    for (int p = 0; p < fl_topology_node_ports (t, node); p++)
      {
        int peer = fl_topology_port_peer (t, node, p, NULL);

        if (peer >= 0 && fl_topology_node_kind (t, peer) == FL_NODE_HOST)
          g_array_append_val (doomed, peer);
      }
  /* Highest first, so removing one does not renumber the others. */
  g_array_sort (doomed, compare_descending);
  for (guint i = 0; i < doomed->len && rc == FL_OK; i++)
    rc = fl_topology_remove_node (t, g_array_index (doomed, int, i), err);
  return rc;
}

static int
edit_set_ports (FlTopology *t,
                gpointer    data,
                FlError    *err)
{
  const int *args = data;

  return fl_topology_set_node_ports (t, args[0], args[1], err);
}

/* The node and the link under a device point, in the picture. */
static int
hit_node (FlitlabCanvas *self,
          double         x,
          double         y)
{
  return fl_draw_hit_node (picture (self), &self->draw.view, x, y);
}

static int
hit_link (FlitlabCanvas *self,
          double         x,
          double         y)
{
  FlDrawRouting rd;

  fill_routing (self, &rd);
  return fl_draw_hit_routing_link (picture (self), &self->draw.view, &rd, x, y);
}

static void
add_switch_at (FlitlabCanvas *self,
               double         x,
               double         y)
{
  AddNode add = { FL_NODE_SWITCH, self->new_switch_ports, -1, 0, 0, -1 };

  /* The H/V graph's coordinates are not the network's: a switch put
   * there would land anywhere. */
  if (self->shown_hv)
    {
      emit_message (self, _("Cannot add a switch"),
                    _("switch the H/V graph off to draw the network"));
      return;
    }
  fl_draw_view_to_world (&self->draw.view, x, y, &add.x, &add.y);
  if (run_pointer_edit (self, _("Cannot add a switch"), edit_add_node, &add))
    set_selection (self, add.id, -1);
}

/* The switch under or nearest to a device point, within reach, or -1. */
static int
switch_near (FlitlabCanvas *self,
             double         x,
             double         y)
{
  int best = -1;
  double best_d = HOST_REACH;
  int hit = hit_node (self, x, y);

  if (hit >= 0 && fl_topology_node_kind (self->topology, hit) == FL_NODE_SWITCH)
    return hit;
  for (int i = 0; i < fl_topology_switch_count (self->topology); i++)
    {
      int n = fl_topology_switch_node (self->topology, i);
      double wx, wy, dx, dy;

      fl_topology_get_position (picture (self), n, &wx, &wy);
      fl_draw_view_to_device (&self->draw.view, wx, wy, &dx, &dy);
      if (hypot (dx - x, dy - y) < best_d)
        {
          best = n;
          best_d = hypot (dx - x, dy - y);
        }
    }
  return best;
}

static void
add_host_at (FlitlabCanvas *self,
             double         x,
             double         y)
{
  AddNode add = { FL_NODE_HOST, 1, switch_near (self, x, y), 0, 0, -1 };
  double sx, sy;

  if (add.attach_to < 0)
    {
      emit_message (self, _("Click on or near a switch to attach a host to it"), NULL);
      return;
    }
  /* A click beside the switch puts the host there; a click on the switch
   * (or anywhere in the H/V graph, whose coordinates are not the
   * network's) puts it beside the switch, fanned out from any hosts
   * already there. */
  fl_topology_get_position (self->topology, add.attach_to, &sx, &sy);
  if (self->shown_hv || hit_node (self, x, y) == add.attach_to)
    add.x = sx, add.y = sy;
  else
    fl_draw_view_to_world (&self->draw.view, x, y, &add.x, &add.y);
  if (run_pointer_edit (self, _("Cannot add a host"), edit_add_node, &add))
    set_selection (self, add.id, -1);
}

/* Whether two switches are already joined (the engine allows parallel
 * links for imported files, but a drawn network must not have them). */
static gboolean
already_linked (const FlTopology *t,
                int               a,
                int               b)
{
  for (int p = 0; p < fl_topology_node_ports (t, a); p++)
    if (fl_topology_port_peer (t, a, p, NULL) == b)
      return TRUE;
  return FALSE;
}

static void
connect_nodes (FlitlabCanvas *self,
               int            a,
               int            b)
{
  Connect c = { a, b, -1 };

  if (b < 0 || a == b)
    return;
  if (already_linked (self->topology, a, b))
    {
      g_autofree char *detail = g_strdup_printf (_("nodes %d and %d are already linked"), a, b);
      emit_message (self, _("Cannot connect"), detail);
      return;
    }
  if (run_pointer_edit (self, _("Cannot connect"), edit_connect, &c))
    set_selection (self, -1, c.link);
}

static void
delete_item (FlitlabCanvas *self,
             int            node,
             int            link)
{
  if (node >= 0)
    {
      set_selection (self, -1, -1);
      run_pointer_edit (self, _("Cannot delete"), edit_remove_node, &node);
    }
  else if (link >= 0)
    {
      set_selection (self, -1, -1);
      run_pointer_edit (self, _("Cannot delete"), edit_disconnect, &link);
    }
}

/* --- view ----------------------------------------------------------------- */

static void
set_view (FlitlabCanvas    *self,
          const FlDrawView *view)
{
  gboolean zoomed = view->scale != self->draw.view.scale;

  self->fitted = FALSE;
  self->draw.view = *view;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (zoomed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/* Scales the view by factor, keeping the device point (x, y) in place. */
static void
zoom_around (FlitlabCanvas *self,
             double         factor,
             double         x,
             double         y)
{
  FlDrawView v = self->draw.view;
  double scale = CLAMP (v.scale * factor, MIN_SCALE, MAX_SCALE);
  double f = scale / v.scale;

  v.tx = x - (x - v.tx) * f;
  v.ty = y - (y - v.ty) * f;
  v.scale = scale;
  set_view (self, &v);
}

/* --- pointer and keyboard ------------------------------------------------ */

/* The turn the TURNS tool would toggle at a device point, or -1. */
static int
hit_turn (FlitlabCanvas *self,
          double         x,
          double         y,
          FlTurn        *turn)
{
  FlDrawRouting rd;

  fill_routing (self, &rd);
  return fl_draw_hit_turn (picture (self), &self->draw.view, &rd, x, y, turn);
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
      set_hover (self, -1, -1);
      set_hover_turn (self, hit_turn (self, x, y, &turn) >= 0 ? &turn : NULL);
      return;
    }
  node = hit_node (self, x, y);
  link = node < 0 && self->tool != FLITLAB_CANVAS_TOOL_ROUTE ? hit_link (self, x, y) : -1;
  set_hover (self, node, link);
}

/* First click the source, then the destination; a third click starts
 * over. A host stands for its switch. */
static void
route_click (FlitlabCanvas *self,
             int            node)
{
  if (node >= 0 && fl_topology_node_kind (self->topology, node) == FL_NODE_HOST)
    node = fl_topology_host_switch (self->topology, node);
  if (node < 0)
    return;
  if (self->route_src < 0 || self->route_dst >= 0)
    flitlab_canvas_set_route_endpoints (self, node, -1);
  else if (node != self->route_src)
    flitlab_canvas_set_route_endpoints (self, self->route_src, node);
}

static void
turn_click (FlitlabCanvas *self,
            double         x,
            double         y)
{
  FlTurn turn;

  if (hit_turn (self, x, y, &turn) >= 0)
    g_signal_emit (self, signals[TURN_ACTIVATED], 0, turn.sw, turn.in_port, turn.out_port);
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
      set_selection (self, node, link);
      break;
    }
}

/* Remembers where a node and the hosts drawn beside it start a move. */
static void
begin_move (FlitlabCanvas *self,
            int            node)
{
  Carried c = { node, 0, 0 };

  g_array_set_size (self->carried, 0);
  fl_topology_get_position (self->topology, node, &c.x, &c.y);
  g_array_append_val (self->carried, c);
  if (fl_topology_node_kind (self->topology, node) != FL_NODE_SWITCH)
    return;
  for (int p = 0; p < fl_topology_node_ports (self->topology, node); p++)
    {
      int peer = fl_topology_port_peer (self->topology, node, p, NULL);

      if (peer < 0 || fl_topology_node_kind (self->topology, peer) != FL_NODE_HOST)
        continue;
      c.node = peer;
      fl_topology_get_position (self->topology, peer, &c.x, &c.y);
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
  update_cursor (self);
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
      /* The whole move is one undo step: the state before it is held
       * back until the button is released. */
      if (self->drag_mode == DRAG_MOVE)
        flitlab_edit_history_begin_group (self->history, fl_topology_copy (self->topology));
      update_cursor (self);
    }

  switch (self->drag_mode)
    {
    case DRAG_PAN:
      {
        FlDrawView v = self->drag_view;

        v.tx += dx;
        v.ty += dy;
        set_view (self, &v);
      }
      break;
    case DRAG_MOVE:
      for (guint i = 0; i < self->carried->len; i++)
        {
          Carried *c = &g_array_index (self->carried, Carried, i);

          fl_topology_set_position (self->topology, c->node,
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

/* Ends the gesture in progress; commit = FALSE undoes what it did. */
static void
finish_drag (FlitlabCanvas *self,
             gboolean       commit)
{
  DragMode mode = self->drag_mode;

  self->drag_mode = DRAG_NONE;
  self->draw.connect_from = -1;
  g_array_set_size (self->carried, 0);
  if (mode == DRAG_MOVE && flitlab_edit_history_in_group (self->history))
    {
      if (commit)
        {
          flitlab_edit_history_commit_group (self->history);
          topology_edited (self);
        }
      else
        {
          replace_topology (self, flitlab_edit_history_cancel_group (self->history));
          revalidate (self);
        }
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  update_cursor (self);
}

static void
drag_end_cb (FlitlabCanvas  *self,
             double          dx,
             double          dy,
             GtkGestureDrag *gesture)
{
  DragMode mode = self->drag_mode;
  gboolean moved = self->drag_moved;
  int from = self->draw.connect_from;
  double x = self->drag_x + dx, y = self->drag_y + dy;

  if (mode == DRAG_NONE)
    return;
  finish_drag (self, TRUE);
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
    finish_drag (self, FALSE);
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
      set_hover (self, -1, -1);
      set_hover_turn (self, NULL);
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
  zoom_around (self, pow (ZOOM_STEP, -dy), self->pointer_x, self->pointer_y);
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
  zoom_around (self, self->zoom_start * scale / self->draw.view.scale, x, y);
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
  finish_drag (self, FALSE);
  gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->drag));
  return TRUE;
}

/* --- GtkWidget ---------------------------------------------------------- */

static void
flitlab_canvas_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  *minimum = 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 480;
}

static void
flitlab_canvas_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (widget);
  gboolean resized = width != self->width || height != self->height;

  if (width <= 0 || height <= 0 || !resized)
    return;
  if (self->fit_pending || self->fitted)
    {
      self->width = width;
      self->height = height;
      flitlab_canvas_zoom_fit (self);
      return;
    }
  /* Keep the middle of the picture in the middle. */
  self->draw.view.tx += (width - self->width) / 2.0;
  self->draw.view.ty += (height - self->height) / 2.0;
  self->width = width;
  self->height = height;
}

static void
flitlab_canvas_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  FlDrawRouting rd;
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  self->draw.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  fill_routing (self, &rd);
  fill_paths (self, &rd);
  if (self->tool == FLITLAB_CANVAS_TOOL_TURNS)
    rd.hover_turn = self->hover_turn;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  fl_draw_routing (cr, picture (self), &self->draw, &rd);
  cairo_destroy (cr);
}

/* --- GObject ------------------------------------------------------------ */

static void
flitlab_canvas_finalize (GObject *object)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (object);

  g_clear_pointer (&self->history, flitlab_edit_history_free);
  g_clear_pointer (&self->topology, fl_topology_free);
  g_clear_pointer (&self->carried, g_array_unref);
  g_clear_pointer (&self->routed, flitlab_routed_unref);
  g_clear_pointer (&self->shown, fl_topology_free);
  clear_paths (self);
  G_OBJECT_CLASS (flitlab_canvas_parent_class)->finalize (object);
}

static void
flitlab_canvas_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      g_value_set_enum (value, self->tool);
      break;
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, self->can_undo);
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, self->can_redo);
      break;
    case PROP_NEW_SWITCH_PORTS:
      g_value_set_int (value, self->new_switch_ports);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->draw.view.scale);
      break;
    case PROP_ROUTED:
      g_value_set_boxed (value, self->routed);
      break;
    case PROP_OVERLAYS:
      g_value_set_flags (value, self->overlays);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_canvas_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      flitlab_canvas_set_tool (self, g_value_get_enum (value));
      break;
    case PROP_NEW_SWITCH_PORTS:
      if (self->new_switch_ports != g_value_get_int (value))
        {
          self->new_switch_ports = g_value_get_int (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_ROUTED:
      flitlab_canvas_set_routed (self, g_value_get_boxed (value));
      break;
    case PROP_OVERLAYS:
      flitlab_canvas_set_overlays (self, g_value_get_flags (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_canvas_class_init (FlitlabCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = flitlab_canvas_finalize;
  object_class->get_property = flitlab_canvas_get_property;
  object_class->set_property = flitlab_canvas_set_property;
  widget_class->measure = flitlab_canvas_measure;
  widget_class->size_allocate = flitlab_canvas_size_allocate;
  widget_class->snapshot = flitlab_canvas_snapshot;

  properties[PROP_TOOL] =
    g_param_spec_enum ("tool", NULL, NULL,
                       FLITLAB_TYPE_CANVAS_TOOL, FLITLAB_CANVAS_TOOL_SELECT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_UNDO] =
    g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_REDO] =
    g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NEW_SWITCH_PORTS] =
    g_param_spec_int ("new-switch-ports", NULL, NULL, 1, FL_MAX_PORTS, 8,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, 0, G_MAXDOUBLE, 1,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ROUTED] =
    g_param_spec_boxed ("routed", NULL, NULL, FLITLAB_TYPE_ROUTED,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_OVERLAYS] =
    g_param_spec_flags ("overlays", NULL, NULL, FLITLAB_TYPE_OVERLAY, FLITLAB_OVERLAY_NONE,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[TOPOLOGY_EDITED] =
    g_signal_new ("topology-edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[ROUTE_ENDPOINTS_CHANGED] =
    g_signal_new ("route-endpoints-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[TURN_ACTIVATED] =
    g_signal_new ("turn-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_INT, G_TYPE_INT);

  gtk_widget_class_set_css_name (widget_class, "flitlabcanvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
flitlab_canvas_init (FlitlabCanvas *self)
{
  GtkEventController *controller;
  GtkGesture *zoom;

  self->topology = fl_topology_new ();
  self->history = flitlab_edit_history_new (HISTORY_STEPS, HISTORY_BYTES);
  self->carried = g_array_new (FALSE, FALSE, sizeof (Carried));
  self->new_switch_ports = 8;
  self->fit_pending = TRUE;
  self->route_src = self->route_dst = -1;
  self->hover_turn.sw = self->hover_turn.in_port = self->hover_turn.out_port = -1;
  fl_draw_options_init (&self->draw);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Network drawing"),
                                  -1);

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

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
}

/* --- public API ----------------------------------------------------------- */

GtkWidget *
flitlab_canvas_new (void)
{
  return g_object_new (FLITLAB_TYPE_CANVAS, NULL);
}

void
flitlab_canvas_set_topology (FlitlabCanvas *self,
                             FlTopology    *topology)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (self->drag_mode != DRAG_NONE)
    {
      finish_drag (self, FALSE);
      gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->drag));
    }
  flitlab_edit_history_clear (self->history);
  replace_topology (self, topology ? topology : fl_topology_new ());
  self->draw.hover_node = self->draw.hover_link = -1;
  set_hover_turn (self, NULL);
  set_selection (self, -1, -1);
  update_undo_state (self);
  check_routing (self);
  flitlab_canvas_zoom_fit (self);
}

const FlTopology *
flitlab_canvas_get_topology (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), NULL);

  return self->topology;
}

FlTopology *
flitlab_canvas_dup_topology (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), NULL);

  return fl_topology_copy (self->topology);
}

void
flitlab_canvas_set_tool (FlitlabCanvas     *self,
                         FlitlabCanvasTool  tool)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));
  g_return_if_fail (tool >= FLITLAB_CANVAS_TOOL_SELECT && tool <= FLITLAB_CANVAS_TOOL_TURNS);

  if (self->tool == tool)
    return;
  self->tool = tool;
  set_hover_turn (self, NULL);
  update_cursor (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL]);
}

FlitlabCanvasTool
flitlab_canvas_get_tool (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FLITLAB_CANVAS_TOOL_SELECT);

  return self->tool;
}

void
flitlab_canvas_zoom_fit (FlitlabCanvas *self)
{
  FlDrawRouting rd;
  FlDrawView v;

  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (self->width <= 0 || self->height <= 0)
    {
      self->fit_pending = TRUE;
      return;
    }
  self->fit_pending = FALSE;
  /* Clear of the legend, when there is one. */
  fill_routing (self, &rd);
  fill_paths (self, &rd);
  fl_draw_routing_fit (picture (self), &rd, self->width, self->height, &v);
  set_view (self, &v);
  self->fitted = TRUE;
}

void
flitlab_canvas_zoom_in (FlitlabCanvas *self)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  zoom_around (self, ZOOM_STEP, self->width / 2.0, self->height / 2.0);
}

void
flitlab_canvas_zoom_out (FlitlabCanvas *self)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  zoom_around (self, 1 / ZOOM_STEP, self->width / 2.0, self->height / 2.0);
}

gboolean
flitlab_canvas_can_undo (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FALSE);

  return self->can_undo;
}

gboolean
flitlab_canvas_can_redo (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FALSE);

  return self->can_redo;
}

/* Undo and redo first finish a drag in progress, so it is one step too. */
static void
step_history (FlitlabCanvas *self,
              FlTopology *(*step) (FlitlabEditHistory *, FlTopology *))
{
  FlTopology *other;

  if (self->drag_mode != DRAG_NONE)
    {
      finish_drag (self, TRUE);
      gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->drag));
    }
  other = step (self->history, self->topology);
  if (other == NULL)
    return;
  /* The history took the current topology; do not free it. */
  self->topology = other;
  topology_edited (self);
}

void
flitlab_canvas_undo (FlitlabCanvas *self)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  step_history (self, flitlab_edit_history_undo);
}

void
flitlab_canvas_redo (FlitlabCanvas *self)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  step_history (self, flitlab_edit_history_redo);
}

void
flitlab_canvas_get_selection (FlitlabCanvas *self,
                              int           *node,
                              int           *link)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (node)
    *node = self->draw.selected_node;
  if (link)
    *link = self->draw.selected_link;
}

void
flitlab_canvas_select (FlitlabCanvas *self,
                       int            node,
                       int            link)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  set_selection (self, node, link);
}

void
flitlab_canvas_delete_selection (FlitlabCanvas *self)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  delete_item (self, self->draw.selected_node, self->draw.selected_link);
}

gboolean
flitlab_canvas_set_node_ports (FlitlabCanvas  *self,
                               int             node,
                               int             nports,
                               GError        **error)
{
  int args[2] = { node, nports };

  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (fl_topology_node_ports (self->topology, node) == nports)
    return TRUE;
  return run_edit (self, edit_set_ports, args, error);
}

gboolean
flitlab_canvas_export (FlitlabCanvas  *self,
                       const char     *path,
                       GError        **error)
{
  FlDrawOptions options;
  FlDrawRouting rd;
  FlError err;
  int width = self->width, height = self->height;

  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* What the canvas shows, overlays included, on a light page and
   * without the transient highlights; a canvas never shown exports the
   * whole network. */
  fl_draw_options_init (&options);
  if (width > 0 && height > 0)
    {
      options.view = self->draw.view;
    }
  else
    {
      width = 1200;
      height = 900;
      fl_draw_view_fit (picture (self), width, height, &options.view);
    }
  fill_routing (self, &rd);
  fill_paths (self, &rd);
  if (fl_draw_export_routing_with_options (picture (self), &options, &rd, path, NULL, width, height,
                                           &err) != FL_OK)
    {
      g_set_error_literal (error, FLITLAB_CANVAS_ERROR, FLITLAB_CANVAS_ERROR_EXPORT, err.message);
      return FALSE;
    }
  return TRUE;
}

void
flitlab_canvas_set_routed (FlitlabCanvas *self,
                           FlitlabRouted *routed)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (self->routed == routed)
    return;
  if (routed != NULL)
    flitlab_routed_ref (routed);
  g_clear_pointer (&self->routed, flitlab_routed_unref);
  self->routed = routed;
  clear_paths (self);
  picture_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROUTED]);
}

FlitlabRouted *
flitlab_canvas_get_routed (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), NULL);

  return self->routed;
}

void
flitlab_canvas_set_overlays (FlitlabCanvas  *self,
                             FlitlabOverlay  overlays)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (self->overlays == overlays)
    return;
  self->overlays = overlays;
  picture_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OVERLAYS]);
}

FlitlabOverlay
flitlab_canvas_get_overlays (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FLITLAB_OVERLAY_NONE);

  return self->overlays;
}

void
flitlab_canvas_set_route_endpoints (FlitlabCanvas *self,
                                    int            src,
                                    int            dst)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  /* Only switches route: anything else means none. */
  src = is_switch (self->topology, src) ? src : -1;
  dst = is_switch (self->topology, dst) ? dst : -1;
  if (src == self->route_src && dst == self->route_dst)
    return;
  self->route_src = src;
  self->route_dst = dst;
  clear_paths (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[ROUTE_ENDPOINTS_CHANGED], 0);
}

void
flitlab_canvas_get_route_endpoints (FlitlabCanvas *self,
                                    int           *src,
                                    int           *dst)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (src)
    *src = self->route_src;
  if (dst)
    *dst = self->route_dst;
}
