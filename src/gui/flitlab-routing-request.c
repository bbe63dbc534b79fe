/* flitlab-routing-request.c — the routing a user asks for on one network. */
#include <stdio.h>
#include <string.h>

#include "flitlab-routing-request.h"

FlitlabRoutingRequest *
flitlab_routing_request_new (const char *name)
{
  FlitlabRoutingRequest *self = g_new0 (FlitlabRoutingRequest, 1);

  self->name = g_strdup (name);
  self->root = -1;
  self->turns = g_array_new (FALSE, FALSE, sizeof (FlTurn));
  return self;
}

FlitlabRoutingRequest *
flitlab_routing_request_copy (const FlitlabRoutingRequest *self)
{
  FlitlabRoutingRequest *copy = flitlab_routing_request_new (self->name);

  copy->root = self->root;
  copy->vc_classes = self->vc_classes;
  copy->order = g_strdup (self->order);
  g_array_append_vals (copy->turns, self->turns->data, self->turns->len);
  return copy;
}

void
flitlab_routing_request_free (FlitlabRoutingRequest *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->order);
  g_array_unref (self->turns);
  g_free (self);
}

gboolean
flitlab_routing_request_equal (const FlitlabRoutingRequest *a,
                               const FlitlabRoutingRequest *b)
{
  return g_strcmp0 (a->name, b->name) == 0 && a->root == b->root
         && a->vc_classes == b->vc_classes && g_strcmp0 (a->order, b->order) == 0
         && a->turns->len == b->turns->len
         && memcmp (a->turns->data, b->turns->data, a->turns->len * sizeof (FlTurn)) == 0;
}

/* The routings that orient channels by a spanning tree take its root. */
gboolean
flitlab_routing_uses_root (const char *name)
{
  return g_strcmp0 (name, "updown") == 0 || g_str_has_prefix (name, "lturn-")
         || g_str_has_prefix (name, "rturn-");
}

gboolean
flitlab_routing_uses_classes (const char *name)
{
  return g_strcmp0 (name, "dor") == 0;
}

gboolean
flitlab_routing_uses_order (const char *name)
{
  return g_strcmp0 (name, "dor") == 0;
}

gboolean
flitlab_routing_uses_turns (const char *name)
{
  return g_strcmp0 (name, "turnset") == 0;
}

/* Whether turn still exists in t: after an edit of the network a turn
 * edited earlier may name a port that no longer leads to a switch. */
static gboolean
turn_exists (const FlTopology *t,
             const FlTurn     *turn)
{
  int ports[2] = { turn->in_port, turn->out_port };

  if (turn->sw < 0 || turn->sw >= fl_topology_node_count (t)
      || fl_topology_node_kind (t, turn->sw) != FL_NODE_SWITCH || ports[0] == ports[1])
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (ports); i++)
    {
      int peer;

      if (ports[i] < 0 || ports[i] >= fl_topology_node_ports (t, turn->sw))
        return FALSE;
      peer = fl_topology_port_peer (t, turn->sw, ports[i], NULL);
      if (peer < 0 || fl_topology_node_kind (t, peer) != FL_NODE_SWITCH)
        return FALSE;
    }
  return TRUE;
}

void
flitlab_routing_request_options (const FlitlabRoutingRequest *self,
                                 const FlTopology            *t,
                                 GArray                      *kept,
                                 FlRoutingOptions            *options)
{
  memset (options, 0, sizeof *options);
  options->root = -1;
  g_array_set_size (kept, 0);
  if (flitlab_routing_uses_root (self->name))
    options->root = self->root;
  if (flitlab_routing_uses_classes (self->name))
    options->vc_classes = self->vc_classes;
  if (flitlab_routing_uses_order (self->name))
    options->order = self->order;
  if (flitlab_routing_uses_turns (self->name))
    {
      for (guint i = 0; i < self->turns->len; i++)
        {
          const FlTurn *turn = &g_array_index (self->turns, FlTurn, i);

          if (t == NULL || turn_exists (t, turn))
            g_array_append_val (kept, *turn);
        }
      options->prohibited = kept->len > 0 ? (FlTurn *) kept->data : NULL;
      options->n_prohibited = (int) kept->len;
    }
}

/* The engine's order of turns: by switch, then input port, then output. */
static int
compare_turns (gconstpointer a,
               gconstpointer b)
{
  const FlTurn *x = a, *y = b;

  if (x->sw != y->sw)
    return (x->sw > y->sw) - (x->sw < y->sw);
  if (x->in_port != y->in_port)
    return (x->in_port > y->in_port) - (x->in_port < y->in_port);
  return (x->out_port > y->out_port) - (x->out_port < y->out_port);
}

void
flitlab_routing_request_toggle_turn (FlitlabRoutingRequest *self,
                                     const FlTurn          *turn)
{
  guint lo = 0, hi = self->turns->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      int c = compare_turns (&g_array_index (self->turns, FlTurn, mid), turn);

      if (c == 0)
        {
          g_array_remove_index (self->turns, mid);
          return;
        }
      if (c < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  g_array_insert_val (self->turns, lo, *turn);
}

void
flitlab_routing_request_set_turns (FlitlabRoutingRequest *self,
                                   const FlTurn          *turns,
                                   int                    n)
{
  g_array_set_size (self->turns, 0);
  if (n > 0)
    g_array_append_vals (self->turns, turns, (guint) n);
  g_array_sort (self->turns, compare_turns);
}

char *
flitlab_turns_to_string (const GArray *turns)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < turns->len; i++)
    {
      const FlTurn *turn = &g_array_index (turns, FlTurn, i);

      g_string_append_printf (text, "%s%d:%d>%d", i ? "," : "", turn->sw, turn->in_port,
                              turn->out_port);
    }
  return g_string_free (text, FALSE);
}

gboolean
flitlab_turns_from_string (const char *text,
                           GArray     *turns)
{
  g_auto(GStrv) items = NULL;

  g_array_set_size (turns, 0);
  if (text == NULL || text[0] == '\0')
    return TRUE;
  items = g_strsplit (text, ",", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      FlTurn turn;
      char tail;

      if (sscanf (items[i], "%d:%d>%d%c", &turn.sw, &turn.in_port, &turn.out_port, &tail) != 3
          || turn.sw < 0 || turn.in_port < 0 || turn.out_port < 0)
        {
          g_array_set_size (turns, 0);
          return FALSE;
        }
      g_array_append_val (turns, turn);
    }
  g_array_sort (turns, compare_turns);
  return TRUE;
}
