/* flitlab-document-edits.c — the edits of a document's topology, its
 * gestures and its undo and redo.
 *
 * Every edit is one fl_topology_* call (or a few) on the live topology,
 * preceded by a snapshot pushed onto the edit history; a change of the
 * routing asked for pushes the request it replaces. An edit of structure
 * drops the routing built (it describes another network) and the route's
 * paths; the window builds a new routing in a worker and hands it back.
 */
#include <glib/gi18n.h>
#include <string.h>

#include "flitlab-document-private.h"
#include "flitlab-draw.h"
#include "flitlab-node-number.h"

void
flitlab_document_update_undo_state (FlitlabDocument *self)
{
  gboolean can_undo = flitlab_edit_history_can_undo (self->history);
  gboolean can_redo = flitlab_edit_history_can_redo (self->history);

  if (can_undo != self->can_undo)
    {
      self->can_undo = can_undo;
      flitlab_document_notify (self, PROP_CAN_UNDO);
    }
  if (can_redo != self->can_redo)
    {
      self->can_redo = can_redo;
      flitlab_document_notify (self, PROP_CAN_REDO);
    }
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

/* After an edit: what pointed past the end is dropped, a routing of
 * another structure too, and route endpoints that are no longer switches. */
static void
topology_edited (FlitlabDocument *self)
{
  /* Views hear of the edit before they hear that the routing went with
   * it: a view refits to a new picture only if the user has not shaped it
   * by editing. */
  g_object_freeze_notify (G_OBJECT (self));
  flitlab_document_set_selection (self, self->selected_node, self->selected_link);
  flitlab_document_update_undo_state (self);
  if (self->routed != NULL && !routed_fits (self->routed, self->topology))
    {
      g_clear_pointer (&self->dropped, flitlab_routed_unref);
      self->dropped = g_steal_pointer (&self->routed);
      flitlab_document_route_invalidate (self);
      flitlab_document_notify (self, PROP_ROUTED);
    }
  /* Endpoints that are no longer switches are forgotten. */
  flitlab_document_set_route_endpoints (self, self->route_src, self->route_dst);
  flitlab_document_emit (self, TOPOLOGY_EDITED);
  g_object_thaw_notify (G_OBJECT (self));
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
      flitlab_document_replace_topology (self, before);
      flitlab_document_set_selection (self, self->selected_node, self->selected_link);
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

/* Numbers a new switch after the highest switch, as if hosts took no
 * numbers: hosts are shown by their place among the hosts (h0, h1, ...),
 * never by label, so a host holding that label gives it up for a new one.
 * Switches still keep their numbers when others are deleted. */
static int
number_new_switch (FlTopology *t,
                   int         sw,
                   FlError    *err)
{
  int next = 0, holder, rc;

  for (int i = 0; i < fl_topology_switch_count (t); i++)
    {
      int node = fl_topology_switch_node (t, i);

      if (node != sw)
        next = MAX (next, fl_topology_node_label (t, node) + 1);
    }
  if (next >= fl_topology_node_label (t, sw))
    return FL_OK;
  holder = fl_topology_find_label (t, next);
  if (holder >= 0)
    {
      rc = fl_topology_set_node_label (t, holder, fl_topology_next_label (t), err);
      if (rc != FL_OK)
        return rc;
    }
  return fl_topology_set_node_label (t, sw, next, err);
}

static int
edit_add_node (FlTopology *t,
               gpointer    data,
               FlError    *err)
{
  AddNode *add = data;
  int rc = fl_topology_add_node (t, add->kind, add->ports, &add->id, err);

  if (rc == FL_OK && add->kind == FL_NODE_SWITCH)
    rc = number_new_switch (t, add->id, err);
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
  g_return_val_if_fail (flitlab_document_is_switch (self->topology, sw), -1);

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
  flitlab_document_set_selection (self, -1, -1);
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
      flitlab_document_replace_topology (self, flitlab_edit_history_cancel_group (self->history));
      flitlab_document_set_selection (self, self->selected_node, self->selected_link);
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
    flitlab_document_update_undo_state (self);
  self->request = request;
  if (!flitlab_routing_request_equal (old, self->request))
    flitlab_document_request_replaced (self, old);
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
