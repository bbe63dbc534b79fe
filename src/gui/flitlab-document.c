/* flitlab-document.c — one network of a project, its edits and its routing.
 *
 * Every edit is one fl_topology_* call (or a few) on the live topology,
 * preceded by a snapshot pushed onto the edit history; a change of the
 * routing asked for pushes the request it replaces. An edit of structure
 * drops the routing built (it describes another network) and the route's
 * paths; the window builds a new routing in a worker and hands it back.
 */
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-document.h"
#include "flitlab-draw.h"
#include "flitlab-edit-history.h"
#include "flitlab-node-number.h"

#define HISTORY_STEPS 200
#define HISTORY_BYTES (128 * 1024 * 1024)

struct _FlitlabDocument
{
  GObject parent_instance;

  char *name;
  FlTopology *topology;
  FlitlabEditHistory *history;
  gboolean can_undo;           /* as last notified */
  gboolean can_redo;
  int selected_node;
  int selected_link;

  FlitlabRoutingRequest *request;
  gboolean editing_turns;
  FlitlabOverlay overlays;
  FlitlabRouted *routed;       /* for the network as it is, or NULL */
  FlitlabRouted *dropped;      /* the last one dropped by an edit, until a new one */
  char *refused;
  gboolean last_deadlock_free; /* of the last routing built */

  int route_src, route_dst;
  FlitlabRoute *route;         /* computed on demand, NULL when not yet */
  guint route_computations;

  FlitlabSimSession *simulation;
  GObject *collective;

  FlSimSettings sim_settings;
};

G_DEFINE_FINAL_TYPE (FlitlabDocument, flitlab_document, G_TYPE_OBJECT)

G_DEFINE_QUARK (flitlab-document-error-quark, flitlab_document_error)

enum {
  PROP_0,
  PROP_NAME,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_ROUTING,
  PROP_ROOT,
  PROP_VC_CLASSES,
  PROP_ORDER,
  PROP_EDITING_TURNS,
  PROP_OVERLAYS,
  PROP_ROUTED,
  PROP_REFUSED,
  PROP_SIMULATION,
  PROP_COLLECTIVE,
  N_PROPS
};

enum {
  TOPOLOGY_EDITED,
  SELECTION_CHANGED,
  REQUEST_CHANGED,
  ROUTE_CHANGED,
  SIM_SETTINGS_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

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

/* The route ------------------------------------------------------------------ */

static void
route_free (FlitlabRoute *route)
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
static void
route_invalidate (FlitlabDocument *self)
{
  g_clear_pointer (&self->route, route_free);
  g_signal_emit (self, signals[ROUTE_CHANGED], 0);
}

static gboolean
is_switch (const FlTopology *t,
           int               node)
{
  return node >= 0 && node < fl_topology_node_count (t)
         && fl_topology_node_kind (t, node) == FL_NODE_SWITCH;
}

/* Whether the routing built describes this network: the same nodes and
 * links (positions may differ, a routing stays true while nodes move). */
static gboolean
routed_fits (FlitlabRouted    *routed,
             const FlTopology *t)
{
  const FlTopology *a = routed->topology;
  int nodes = fl_topology_node_count (a);
  int links = fl_topology_link_count (a);

  if (nodes != fl_topology_node_count (t) || links != fl_topology_link_count (t))
    return FALSE;
  for (int n = 0; n < nodes; n++)
    if (fl_topology_node_kind (a, n) != fl_topology_node_kind (t, n)
        || fl_topology_node_ports (a, n) != fl_topology_node_ports (t, n))
      return FALSE;
  for (int l = 0; l < links; l++)
    {
      int ea[4], eb[4];

      fl_topology_link_ends (a, l, &ea[0], &ea[1], &ea[2], &ea[3]);
      fl_topology_link_ends (t, l, &eb[0], &eb[1], &eb[2], &eb[3]);
      if (memcmp (ea, eb, sizeof ea) != 0)
        return FALSE;
    }
  return TRUE;
}

/* Edits ----------------------------------------------------------------------- */

static void
update_undo_state (FlitlabDocument *self)
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

static void
set_selection (FlitlabDocument *self,
               int              node,
               int              link)
{
  if (node >= fl_topology_node_count (self->topology))
    node = -1;
  if (link >= fl_topology_link_count (self->topology) || node >= 0)
    link = -1;
  node = MAX (node, -1);
  link = MAX (link, -1);
  if (node == self->selected_node && link == self->selected_link)
    return;
  self->selected_node = node;
  self->selected_link = link;
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

/* After an edit: what pointed past the end is dropped, a routing of
 * another structure too, and route endpoints that are no longer switches. */
static void
topology_edited (FlitlabDocument *self)
{
  /* Views hear of the edit before they hear that the routing went with
   * it: a view refits to a new picture only if the user has not shaped it
   * by editing. */
  g_object_freeze_notify (G_OBJECT (self));
  set_selection (self, self->selected_node, self->selected_link);
  update_undo_state (self);
  if (self->routed != NULL && !routed_fits (self->routed, self->topology))
    {
      g_clear_pointer (&self->dropped, flitlab_routed_unref);
      self->dropped = g_steal_pointer (&self->routed);
      route_invalidate (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROUTED]);
    }
  /* Endpoints that are no longer switches are forgotten. */
  flitlab_document_set_route_endpoints (self, self->route_src, self->route_dst);
  g_signal_emit (self, signals[TOPOLOGY_EDITED], 0);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
replace_topology (FlitlabDocument *self,
                  FlTopology      *topology)
{
  g_clear_pointer (&self->topology, fl_topology_free);
  self->topology = topology;
}

/* An edit: changes t, or returns an FlStatus and a message in err. It may
 * leave t half-changed on failure: run_edit() puts the snapshot back. */
typedef int (*EditFunc) (FlTopology *t,
                         gpointer    data,
                         FlError    *err);

/* Runs func as one undo step. On failure, sets error (when given) and
 * leaves the topology as it was. */
static gboolean
run_edit (FlitlabDocument  *self,
          EditFunc          func,
          gpointer          data,
          GError          **error)
{
  FlTopology *before;
  FlError err;

  if (flitlab_edit_history_in_group (self->history))
    flitlab_document_end_gesture (self, TRUE);
  before = fl_topology_copy (self->topology);
  fl_error_clear (&err);
  if (before == NULL)
    {
      g_set_error_literal (error, FLITLAB_DOCUMENT_ERROR, FLITLAB_DOCUMENT_ERROR_EDIT,
                           _("Out of memory"));
      return FALSE;
    }
  if (func (self->topology, data, &err) != FL_OK)
    {
      replace_topology (self, before);
      set_selection (self, self->selected_node, self->selected_link);
      g_set_error_literal (error, FLITLAB_DOCUMENT_ERROR, FLITLAB_DOCUMENT_ERROR_EDIT, err.message);
      return FALSE;
    }
  flitlab_edit_history_push (self->history, before);
  topology_edited (self);
  return TRUE;
}

typedef struct {
  FlNodeKind kind;
  int ports;
  int attach_to;             /* a host's switch */
  gboolean at_switch;        /* a host goes where the drawing fans it out */
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

int
flitlab_document_add_switch (FlitlabDocument  *self,
                             int               ports,
                             double            x,
                             double            y,
                             GError          **error)
{
  AddNode add = { FL_NODE_SWITCH, ports, -1, FALSE, x, y, -1 };

  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), -1);

  return run_edit (self, edit_add_node, &add, error) ? add.id : -1;
}

int
flitlab_document_add_host (FlitlabDocument  *self,
                           int               sw,
                           gboolean          at_switch,
                           double            x,
                           double            y,
                           GError          **error)
{
  AddNode add = { FL_NODE_HOST, 1, sw, at_switch, x, y, -1 };

  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), -1);
  g_return_val_if_fail (is_switch (self->topology, sw), -1);

  if (at_switch)
    fl_topology_get_position (self->topology, sw, &add.x, &add.y);
  return run_edit (self, edit_add_node, &add, error) ? add.id : -1;
}

/* Whether two nodes are already joined (the engine allows parallel links
 * for imported files, but a drawn network must not have them). */
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

int
flitlab_document_connect (FlitlabDocument  *self,
                          int               a,
                          int               b,
                          GError          **error)
{
  Connect c = { a, b, -1 };

  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), -1);

  if (already_linked (self->topology, a, b))
    {
      g_set_error (error, FLITLAB_DOCUMENT_ERROR, FLITLAB_DOCUMENT_ERROR_EDIT,
                   _("nodes %d and %d are already linked"),
                   flitlab_node_number (self->topology, a),
                   flitlab_node_number (self->topology, b));
      return -1;
    }
  return run_edit (self, edit_connect, &c, error) ? c.link : -1;
}

gboolean
flitlab_document_remove_node (FlitlabDocument  *self,
                              int               node,
                              GError          **error)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), FALSE);

  return run_edit (self, edit_remove_node, &node, error);
}

gboolean
flitlab_document_disconnect (FlitlabDocument  *self,
                             int               link,
                             GError          **error)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), FALSE);

  return run_edit (self, edit_disconnect, &link, error);
}

gboolean
flitlab_document_set_node_ports (FlitlabDocument  *self,
                                 int               node,
                                 int               nports,
                                 GError          **error)
{
  int args[2] = { node, nports };

  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (fl_topology_node_ports (self->topology, node) == nports)
    return TRUE;
  return run_edit (self, edit_set_ports, args, error);
}

void
flitlab_document_delete_selection (FlitlabDocument *self)
{
  int node, link;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  node = self->selected_node;
  link = self->selected_link;
  set_selection (self, -1, -1);
  if (node >= 0)
    flitlab_document_remove_node (self, node, NULL);
  else if (link >= 0)
    flitlab_document_disconnect (self, link, NULL);
}

void
flitlab_document_begin_gesture (FlitlabDocument *self)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  flitlab_edit_history_begin_group (self->history, fl_topology_copy (self->topology));
}

gboolean
flitlab_document_in_gesture (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), FALSE);

  return flitlab_edit_history_in_group (self->history);
}

void
flitlab_document_set_position (FlitlabDocument *self,
                               int              node,
                               double           x,
                               double           y)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (node >= 0 && node < fl_topology_node_count (self->topology));

  if (flitlab_edit_history_in_group (self->history))
    {
      /* Views redraw as the gesture goes; the edit is told when it ends. */
      fl_topology_set_position (self->topology, node, x, y);
      return;
    }
  flitlab_edit_history_push (self->history, fl_topology_copy (self->topology));
  fl_topology_set_position (self->topology, node, x, y);
  topology_edited (self);
}

void
flitlab_document_end_gesture (FlitlabDocument *self,
                              gboolean         commit)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (!flitlab_edit_history_in_group (self->history))
    return;
  if (commit)
    {
      flitlab_edit_history_commit_group (self->history);
      topology_edited (self);
    }
  else
    {
      /* Back to where the gesture began: no edit to tell of. */
      replace_topology (self, flitlab_edit_history_cancel_group (self->history));
      set_selection (self, self->selected_node, self->selected_link);
    }
}

gboolean
flitlab_document_can_undo (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), FALSE);

  return self->can_undo;
}

gboolean
flitlab_document_can_redo (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), FALSE);

  return self->can_redo;
}

static void request_replaced (FlitlabDocument             *self,
                              const FlitlabRoutingRequest *old);

static void
step_history (FlitlabDocument *self,
              gboolean (*step) (FlitlabEditHistory *, FlTopology **, FlitlabRoutingRequest **))
{
  FlTopology *topology;
  FlitlabRoutingRequest *request;
  g_autoptr(FlitlabRoutingRequest) old = NULL;

  flitlab_document_end_gesture (self, TRUE);
  topology = self->topology;
  request = self->request;
  old = flitlab_routing_request_copy (self->request);
  if (!step (self->history, &topology, &request))
    return;
  /* The history took what it swapped out: do not free it. */
  if (topology != self->topology)
    {
      self->topology = topology;
      topology_edited (self);
    }
  else
    update_undo_state (self);
  self->request = request;
  if (!flitlab_routing_request_equal (old, self->request))
    request_replaced (self, old);
}

void
flitlab_document_undo (FlitlabDocument *self)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  step_history (self, flitlab_edit_history_undo);
}

void
flitlab_document_redo (FlitlabDocument *self)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  step_history (self, flitlab_edit_history_redo);
}

void
flitlab_document_get_selection (FlitlabDocument *self,
                                int             *node,
                                int             *link)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (node)
    *node = self->selected_node;
  if (link)
    *link = self->selected_link;
}

void
flitlab_document_select (FlitlabDocument *self,
                         int              node,
                         int              link)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  set_selection (self, node, link);
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
static void
request_replaced (FlitlabDocument             *self,
                  const FlitlabRoutingRequest *old)
{
  const FlitlabRoutingRequest *now = self->request;

  g_object_freeze_notify (G_OBJECT (self));
  if (g_strcmp0 (old->name, now->name) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROUTING]);
  if (old->root != now->root)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROOT]);
  if (old->vc_classes != now->vc_classes)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VC_CLASSES]);
  if (g_strcmp0 (old->order, now->order) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORDER]);
  /* Turns are edited on a routing that takes them only. */
  if (self->editing_turns && !flitlab_routing_takes (now->name, FLITLAB_TURNS_OPTION))
    flitlab_document_set_editing_turns (self, FALSE);
  g_object_thaw_notify (G_OBJECT (self));
  g_signal_emit (self, signals[REQUEST_CHANGED], 0);
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
  request_replaced (self, old);
  if (undoable)
    {
      flitlab_edit_history_push_request (self->history, old);
      update_undo_state (self);
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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDITING_TURNS]);
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
  g_clear_pointer (&self->route, route_free);
  g_object_freeze_notify (G_OBJECT (self));
  /* A simulation runs on the routing it was made with: one of a network or
   * a routing that is no longer shown ends with it. */
  if (self->simulation != NULL
      && (routed == NULL || flitlab_sim_session_get_routing (self->simulation) != routed->routing))
    flitlab_document_set_simulation (self, NULL);
  if (routed != NULL)
    flitlab_document_set_refused (self, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROUTED]);
  /* A cycle that appears is shown on the network too; one that stays is
   * left as the user set its overlay. */
  if (routed != NULL)
    {
      if (!routed->report.deadlock_free && self->last_deadlock_free)
        flitlab_document_set_overlays (self, self->overlays | FLITLAB_OVERLAY_CYCLE);
      self->last_deadlock_free = routed->report.deadlock_free;
    }
  g_signal_emit (self, signals[ROUTE_CHANGED], 0);
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
          route_invalidate (self);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROUTED]);
        }
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFUSED]);
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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OVERLAYS]);
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
  src = is_switch (self->topology, src) ? src : -1;
  dst = is_switch (self->topology, dst) ? dst : -1;
  if (src == self->route_src && dst == self->route_dst)
    return;
  self->route_src = src;
  self->route_dst = dst;
  g_clear_pointer (&self->route, route_free);
  /* Two switches picked ask to see the paths between them. */
  if (src >= 0 && dst >= 0)
    flitlab_document_set_overlays (self, self->overlays | FLITLAB_OVERLAY_PATHS);
  g_signal_emit (self, signals[ROUTE_CHANGED], 0);
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

/* What comes next ---------------------------------------------------------------- */

FlitlabSimSession *
flitlab_document_get_simulation (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->simulation;
}

void
flitlab_document_set_simulation (FlitlabDocument   *self,
                                 FlitlabSimSession *simulation)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (g_set_object (&self->simulation, simulation))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIMULATION]);
}

GObject *
flitlab_document_get_collective (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->collective;
}

void
flitlab_document_set_collective (FlitlabDocument *self,
                                 GObject         *collective)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (g_set_object (&self->collective, collective))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLECTIVE]);
}

/* Simulation settings ------------------------------------------------------------ */

const FlSimSettings *
flitlab_document_get_sim_settings (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return &self->sim_settings;
}

/* Takes settings (a copy the caller gives up). */
static void
replace_sim_settings (FlitlabDocument *self,
                      FlSimSettings   *settings)
{
  fl_sim_settings_clear (&self->sim_settings);
  self->sim_settings = *settings;
  /* The struct moved: its hotspot list is on the heap and still found. */
  g_signal_emit (self, signals[SIM_SETTINGS_CHANGED], 0);
}

void
flitlab_document_set_sim_settings (FlitlabDocument     *self,
                                   const FlSimSettings *settings)
{
  FlSimSettings copy;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (settings != NULL);

  if (settings == &self->sim_settings)
    return;
  if (fl_sim_settings_copy (&copy, settings, NULL) != FL_OK)
    g_error ("out of memory copying the simulation settings");
  replace_sim_settings (self, &copy);
}

/* Routing state kept with the project ---------------------------------------------- */

/* Besides these, routing.OPTION for every option of the routing registry
 * and sim.KEY for every key of the simulation table. */
static const char * const routing_keys[] = {
  "routing.algorithm",
  "routing.overlays",
  "routing.route",
};

#define ROUTING_KEY_PREFIX "routing."
#define SIM_KEY_PREFIX "sim."

const char * const *
flitlab_document_routing_state_keys (void)
{
  static gsize keys = 0;

  /* The options' and the simulation's keys come from the engine's tables:
   * made once. */
  if (g_once_init_enter (&keys))
    {
      GPtrArray *all = g_ptr_array_new ();

      for (guint i = 0; i < G_N_ELEMENTS (routing_keys); i++)
        g_ptr_array_add (all, (gpointer) routing_keys[i]);
      for (int i = 0; i < fl_routing_option_count (); i++)
        g_ptr_array_add (all, g_strconcat (ROUTING_KEY_PREFIX, fl_routing_option (i)->name, NULL));
      for (int i = 0; i < fl_sim_settings_key_count (); i++)
        g_ptr_array_add (all, g_strconcat (SIM_KEY_PREFIX, fl_sim_settings_key (i)->name, NULL));
      g_ptr_array_add (all, NULL);
      g_once_init_leave (&keys, (gsize) g_ptr_array_free (all, FALSE));
    }
  return (const char * const *) keys;
}

static void
put (GHashTable *table,
     const char *key,
     char       *value)
{
  g_hash_table_insert (table, g_strdup (key), value);
}

/* fl_sim_settings_format()'s text of key, however long (a list of
 * hotspots, a file name). */
static char *
format_sim_setting (const FlSimSettings *settings,
                    const char          *key)
{
  char buf[256];
  int n = fl_sim_settings_format (settings, key, buf, sizeof buf);
  char *text;

  if (n < (int) sizeof buf)
    return g_strdup (n >= 0 ? buf : "");
  text = g_malloc (n + 1);
  fl_sim_settings_format (settings, key, text, n + 1);
  return text;
}

/* The simulation settings as sim.KEY = text. Loading sets the keys found in
 * the table's order onto fresh settings, and one setting can set another
 * (a pipeline preset sets the link latency): so a key is written whenever
 * the settings loaded so far would not give its value, which leaves out
 * exactly the values that come by default. */
static void
save_sim_settings (FlitlabDocument *self,
                   GHashTable      *key_to_value)
{
  FlSimSettings loaded;

  fl_sim_settings_init (&loaded);
  for (int i = 0; i < fl_sim_settings_key_count (); i++)
    {
      const char *name = fl_sim_settings_key (i)->name;
      g_autofree char *want = format_sim_setting (&self->sim_settings, name);
      g_autofree char *have = format_sim_setting (&loaded, name);

      if (strcmp (want, have) == 0)
        continue;
      fl_sim_settings_set (&loaded, name, want, NULL);
      g_hash_table_insert (key_to_value, g_strconcat (SIM_KEY_PREFIX, name, NULL),
                           g_steal_pointer (&want));
    }
  fl_sim_settings_clear (&loaded);
}

static void
load_sim_settings (FlitlabDocument *self,
                   GHashTable      *key_to_value)
{
  FlSimSettings settings;

  fl_sim_settings_init (&settings);
  for (int i = 0; i < fl_sim_settings_key_count (); i++)
    {
      const char *name = fl_sim_settings_key (i)->name;
      g_autofree char *key = g_strconcat (SIM_KEY_PREFIX, name, NULL);
      const char *text = g_hash_table_lookup (key_to_value, key);

      /* A value the engine refuses keeps the default. */
      if (text != NULL)
        fl_sim_settings_set (&settings, name, text, NULL);
    }
  replace_sim_settings (self, &settings);
}

/* Every option of the routing registry as routing.OPTION = the engine's
 * text, where it differs from a request's default; kept for every routing,
 * so that a turn set edited under one survives a look at another. */
static void
save_routing_options (const FlitlabRoutingRequest *request,
                      GHashTable                  *key_to_value)
{
  g_autoptr(FlitlabRoutingRequest) fresh = flitlab_routing_request_new (request->name);

  for (int i = 0; i < fl_routing_option_count (); i++)
    {
      const char *name = fl_routing_option (i)->name;
      g_autofree char *want = flitlab_routing_request_format_option (request, name);
      g_autofree char *dflt = flitlab_routing_request_format_option (fresh, name);

      if (want != NULL && g_strcmp0 (want, dflt) != 0)
        g_hash_table_insert (key_to_value, g_strconcat (ROUTING_KEY_PREFIX, name, NULL),
                             g_steal_pointer (&want));
    }
}

/* Sets the options found in key_to_value; a value the engine refuses keeps
 * its default. */
static void
load_routing_options (FlitlabRoutingRequest *request,
                      GHashTable            *key_to_value)
{
  for (int i = 0; i < fl_routing_option_count (); i++)
    {
      const char *name = fl_routing_option (i)->name;
      g_autofree char *key = g_strconcat (ROUTING_KEY_PREFIX, name, NULL);
      const char *text = g_hash_table_lookup (key_to_value, key);

      if (text != NULL)
        flitlab_routing_request_set_option (request, name, text, NULL);
    }
}

void
flitlab_document_save_routing_state (FlitlabDocument *self,
                                     GHashTable      *key_to_value)
{
  const FlitlabRoutingRequest *request;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (key_to_value != NULL);

  request = self->request;
  if (g_strcmp0 (request->name, FLITLAB_DEFAULT_ROUTING) != 0)
    put (key_to_value, "routing.algorithm", g_strdup (request->name));
  save_routing_options (request, key_to_value);
  if (self->overlays != FLITLAB_OVERLAY_NONE)
    {
      g_autoptr(GFlagsClass) flags = g_type_class_ref (FLITLAB_TYPE_OVERLAY);
      GString *text = g_string_new (NULL);

      for (guint i = 0; i < flags->n_values; i++)
        if (flags->values[i].value != 0 && (self->overlays & flags->values[i].value))
          g_string_append_printf (text, "%s%s", text->len ? "," : "", flags->values[i].value_nick);
      put (key_to_value, "routing.overlays", g_string_free (text, FALSE));
    }
  if (self->route_src >= 0)
    put (key_to_value, "routing.route",
         self->route_dst >= 0 ? g_strdup_printf ("%d>%d", self->route_src, self->route_dst)
                              : g_strdup_printf ("%d", self->route_src));
  save_sim_settings (self, key_to_value);
}

/* A whole decimal number in [lo, hi], or FALSE. */
static gboolean
parse_int (const char *text,
           int         lo,
           int         hi,
           int        *value)
{
  gint64 v;

  if (text == NULL || !g_ascii_string_to_signed (text, 10, lo, hi, &v, NULL))
    return FALSE;
  *value = (int) v;
  return TRUE;
}

void
flitlab_document_load_routing_state (FlitlabDocument *self,
                                     GHashTable      *key_to_value)
{
  g_autoptr(FlitlabRoutingRequest) request = NULL;
  g_autoptr(FlitlabRoutingRequest) old = NULL;
  const char *text;
  int src = -1, dst = -1;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (key_to_value != NULL);

  request = flitlab_routing_request_new (FLITLAB_DEFAULT_ROUTING);
  text = g_hash_table_lookup (key_to_value, "routing.algorithm");
  if (text != NULL && fl_routing_lookup (text) != NULL)
    {
      g_free (request->name);
      request->name = g_strdup (text);
    }
  load_routing_options (request, key_to_value);

  /* Not an edit: the state is what the network was saved with. */
  old = g_steal_pointer (&self->request);
  self->request = g_steal_pointer (&request);
  request_replaced (self, old);

  text = g_hash_table_lookup (key_to_value, "routing.overlays");
  if (text != NULL)
    {
      g_autoptr(GFlagsClass) flags = g_type_class_ref (FLITLAB_TYPE_OVERLAY);
      g_auto(GStrv) nicks = g_strsplit (text, ",", -1);
      FlitlabOverlay overlays = FLITLAB_OVERLAY_NONE;

      for (guint i = 0; nicks[i] != NULL; i++)
        {
          GFlagsValue *flag = g_flags_get_value_by_nick (flags, nicks[i]);

          if (flag != NULL)
            overlays |= flag->value;
        }
      flitlab_document_set_overlays (self, overlays);
    }
  text = g_hash_table_lookup (key_to_value, "routing.route");
  if (text != NULL)
    {
      g_auto(GStrv) ends = g_strsplit (text, ">", 2);

      if (!parse_int (ends[0], 0, G_MAXINT, &src))
        src = -1;
      if (ends[0] == NULL || ends[1] == NULL || !parse_int (ends[1], 0, G_MAXINT, &dst))
        dst = -1;
    }
  flitlab_document_set_route_endpoints (self, src, src >= 0 ? dst : -1);
  load_sim_settings (self, key_to_value);
}

/* GObject ------------------------------------------------------------------------- */

FlitlabDocument *
flitlab_document_new (FlTopology *topology)
{
  FlitlabDocument *self = g_object_new (FLITLAB_TYPE_DOCUMENT, NULL);

  if (topology != NULL)
    replace_topology (self, topology);
  return self;
}

const char *
flitlab_document_get_name (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->name;
}

void
flitlab_document_set_name (FlitlabDocument *self,
                           const char      *name)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

const FlTopology *
flitlab_document_get_topology (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->topology;
}

FlTopology *
flitlab_document_dup_topology (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return fl_topology_copy (self->topology);
}

static void
flitlab_document_dispose (GObject *object)
{
  FlitlabDocument *self = FLITLAB_DOCUMENT (object);

  g_clear_object (&self->simulation);
  g_clear_object (&self->collective);
  G_OBJECT_CLASS (flitlab_document_parent_class)->dispose (object);
}

static void
flitlab_document_finalize (GObject *object)
{
  FlitlabDocument *self = FLITLAB_DOCUMENT (object);

  g_clear_pointer (&self->history, flitlab_edit_history_free);
  g_clear_pointer (&self->topology, fl_topology_free);
  g_clear_pointer (&self->request, flitlab_routing_request_free);
  g_clear_pointer (&self->routed, flitlab_routed_unref);
  g_clear_pointer (&self->dropped, flitlab_routed_unref);
  g_clear_pointer (&self->route, route_free);
  fl_sim_settings_clear (&self->sim_settings);
  g_free (self->refused);
  g_free (self->name);
  G_OBJECT_CLASS (flitlab_document_parent_class)->finalize (object);
}

static void
flitlab_document_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  FlitlabDocument *self = FLITLAB_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, self->can_undo);
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, self->can_redo);
      break;
    case PROP_ROUTING:
      g_value_set_string (value, self->request->name);
      break;
    case PROP_ROOT:
      g_value_set_int (value, self->request->root);
      break;
    case PROP_VC_CLASSES:
      g_value_set_int (value, self->request->vc_classes);
      break;
    case PROP_ORDER:
      g_value_set_string (value, self->request->order);
      break;
    case PROP_EDITING_TURNS:
      g_value_set_boolean (value, self->editing_turns);
      break;
    case PROP_OVERLAYS:
      g_value_set_flags (value, self->overlays);
      break;
    case PROP_ROUTED:
      g_value_set_boxed (value, self->routed);
      break;
    case PROP_REFUSED:
      g_value_set_string (value, self->refused);
      break;
    case PROP_SIMULATION:
      g_value_set_object (value, self->simulation);
      break;
    case PROP_COLLECTIVE:
      g_value_set_object (value, self->collective);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_document_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  FlitlabDocument *self = FLITLAB_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      flitlab_document_set_name (self, g_value_get_string (value));
      break;
    case PROP_ROUTING:
      flitlab_document_set_routing (self, g_value_get_string (value));
      break;
    case PROP_ROOT:
      flitlab_document_set_root (self, g_value_get_int (value));
      break;
    case PROP_VC_CLASSES:
      flitlab_document_set_vc_classes (self, g_value_get_int (value));
      break;
    case PROP_ORDER:
      flitlab_document_set_order (self, g_value_get_string (value));
      break;
    case PROP_EDITING_TURNS:
      flitlab_document_set_editing_turns (self, g_value_get_boolean (value));
      break;
    case PROP_OVERLAYS:
      flitlab_document_set_overlays (self, g_value_get_flags (value));
      break;
    case PROP_ROUTED:
      flitlab_document_set_routed (self, g_value_get_boxed (value));
      break;
    case PROP_REFUSED:
      flitlab_document_set_refused (self, g_value_get_string (value));
      break;
    case PROP_SIMULATION:
      flitlab_document_set_simulation (self, g_value_get_object (value));
      break;
    case PROP_COLLECTIVE:
      flitlab_document_set_collective (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_document_class_init (FlitlabDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = flitlab_document_dispose;
  object_class->finalize = flitlab_document_finalize;
  object_class->get_property = flitlab_document_get_property;
  object_class->set_property = flitlab_document_set_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, rw);
  properties[PROP_CAN_UNDO] = g_param_spec_boolean ("can-undo", NULL, NULL, FALSE, ro);
  properties[PROP_CAN_REDO] = g_param_spec_boolean ("can-redo", NULL, NULL, FALSE, ro);
  properties[PROP_ROUTING] =
    g_param_spec_string ("routing", NULL, NULL, FLITLAB_DEFAULT_ROUTING, rw);
  properties[PROP_ROOT] = g_param_spec_int ("root", NULL, NULL, -1, G_MAXINT, -1, rw);
  properties[PROP_VC_CLASSES] = g_param_spec_int ("vc-classes", NULL, NULL, 0, G_MAXINT, 0, rw);
  properties[PROP_ORDER] = g_param_spec_string ("order", NULL, NULL, NULL, rw);
  properties[PROP_EDITING_TURNS] = g_param_spec_boolean ("editing-turns", NULL, NULL, FALSE, rw);
  properties[PROP_OVERLAYS] =
    g_param_spec_flags ("overlays", NULL, NULL, FLITLAB_TYPE_OVERLAY, FLITLAB_OVERLAY_NONE, rw);
  properties[PROP_ROUTED] = g_param_spec_boxed ("routed", NULL, NULL, FLITLAB_TYPE_ROUTED, rw);
  properties[PROP_REFUSED] = g_param_spec_string ("refused", NULL, NULL, NULL, rw);
  properties[PROP_SIMULATION] =
    g_param_spec_object ("simulation", NULL, NULL, FLITLAB_TYPE_SIM_SESSION, rw);
  /* Narrowed to the collective's type once it exists; NULL until then. */
  properties[PROP_COLLECTIVE] = g_param_spec_object ("collective", NULL, NULL, G_TYPE_OBJECT, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[TOPOLOGY_EDITED] =
    g_signal_new ("topology-edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[REQUEST_CHANGED] =
    g_signal_new ("request-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[ROUTE_CHANGED] =
    g_signal_new ("route-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIM_SETTINGS_CHANGED] =
    g_signal_new ("sim-settings-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
flitlab_document_init (FlitlabDocument *self)
{
  self->topology = fl_topology_new ();
  self->history = flitlab_edit_history_new (HISTORY_STEPS, HISTORY_BYTES);
  self->request = flitlab_routing_request_new (FLITLAB_DEFAULT_ROUTING);
  self->selected_node = self->selected_link = -1;
  self->route_src = self->route_dst = -1;
  self->last_deadlock_free = TRUE;
  fl_sim_settings_init (&self->sim_settings);
}
