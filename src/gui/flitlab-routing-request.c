/* flitlab-routing-request.c — the routing a user asks for on one network. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-routing-request.h"

FlitlabRoutingRequest *
flitlab_routing_request_new (const char *name)
{
  FlitlabRoutingRequest *self = g_new0 (FlitlabRoutingRequest, 1);

  self->name = g_strdup (name);
  self->root = -1;
  self->turns = g_array_new (FALSE, FALSE, sizeof (FlTurn));
  self->others = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return self;
}

FlitlabRoutingRequest *
flitlab_routing_request_copy (const FlitlabRoutingRequest *self)
{
  FlitlabRoutingRequest *copy = flitlab_routing_request_new (self->name);
  GHashTableIter iter;
  gpointer key, value;

  copy->root = self->root;
  copy->vc_classes = self->vc_classes;
  copy->order = g_strdup (self->order);
  g_array_append_vals (copy->turns, self->turns->data, self->turns->len);
  g_hash_table_iter_init (&iter, self->others);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy->others, g_strdup (key), g_strdup (value));
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
  g_hash_table_unref (self->others);
  g_free (self);
}

static gboolean
same_others (GHashTable *a,
             GHashTable *b)
{
  GHashTableIter iter;
  gpointer key, value;

  if (g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;
  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (g_strcmp0 (value, g_hash_table_lookup (b, key)) != 0)
      return FALSE;
  return TRUE;
}

gboolean
flitlab_routing_request_equal (const FlitlabRoutingRequest *a,
                               const FlitlabRoutingRequest *b)
{
  return g_strcmp0 (a->name, b->name) == 0 && a->root == b->root
         && a->vc_classes == b->vc_classes && g_strcmp0 (a->order, b->order) == 0
         && a->turns->len == b->turns->len
         && memcmp (a->turns->data, b->turns->data, a->turns->len * sizeof (FlTurn)) == 0
         && same_others (a->others, b->others);
}

gboolean
flitlab_routing_takes (const char *name,
                       const char *key)
{
  const FlRoutingInfo *info = name != NULL ? fl_routing_lookup (name) : NULL;

  return info != NULL && fl_routing_takes (info, key);
}

const char *
flitlab_routing_for_turns (void)
{
  for (int i = 0; i < fl_routing_count (); i++)
    if (fl_routing_takes (fl_routing_info (i), FLITLAB_TURNS_OPTION))
      return fl_routing_info (i)->name;
  return NULL;
}

/* The options the request keeps in fields of its own, for the document's
 * properties and the project's keys; the registry's others are text. */
static gboolean
has_field (const char *key)
{
  return g_strcmp0 (key, "root") == 0 || g_strcmp0 (key, "classes") == 0
         || g_strcmp0 (key, "order") == 0 || g_strcmp0 (key, FLITLAB_TURNS_OPTION) == 0;
}

void
flitlab_routing_request_fill_options (const FlitlabRoutingRequest *self,
                                      FlRoutingOptions            *options)
{
  GHashTableIter iter;
  gpointer key, value;

  fl_routing_options_init (options);
  options->root = self->root;
  options->vc_classes = self->vc_classes;
  /* The engine's own spelling, which outlives self. */
  if (self->order != NULL)
    fl_routing_options_set (options, "order", self->order, NULL);
  if (self->turns->len > 0)
    {
      FlTurn *turns = malloc (self->turns->len * sizeof (FlTurn));

      if (turns != NULL)
        {
          memcpy (turns, self->turns->data, self->turns->len * sizeof (FlTurn));
          options->prohibited = turns;
          options->n_prohibited = (int) self->turns->len;
        }
    }
  g_hash_table_iter_init (&iter, self->others);
  while (g_hash_table_iter_next (&iter, &key, &value))
    fl_routing_options_set (options, key, value, NULL);
}

/* The text of key in options, whatever its length. */
static char *
format_options (const FlRoutingOptions *options,
                const char             *key)
{
  int length = fl_routing_options_format (options, key, NULL, 0);
  char *text;

  if (length < 0)
    return NULL;
  text = g_malloc ((gsize) length + 1);
  fl_routing_options_format (options, key, text, (size_t) length + 1);
  return text;
}

char *
flitlab_routing_request_format_option (const FlitlabRoutingRequest *self,
                                       const char                  *key)
{
  FlRoutingOptions options;
  char *text;

  g_return_val_if_fail (self != NULL, NULL);

  flitlab_routing_request_fill_options (self, &options);
  text = format_options (&options, key);
  fl_routing_options_clear (&options);
  return text;
}

/* Takes every value of options into self. */
static void
take_options (FlitlabRoutingRequest  *self,
              const FlRoutingOptions *options)
{
  FlRoutingOptions fresh;

  self->root = options->root;
  self->vc_classes = options->vc_classes;
  g_free (self->order);
  self->order = options->order != NULL && options->order[0] != '\0' ? g_strdup (options->order) : NULL;
  flitlab_routing_request_set_turns (self, options->prohibited, options->n_prohibited);
  fl_routing_options_init (&fresh);
  for (int i = 0; i < fl_routing_option_count (); i++)
    {
      const char *key = fl_routing_option (i)->name;
      g_autofree char *text = NULL;
      g_autofree char *unset = NULL;

      if (has_field (key))
        continue;
      text = format_options (options, key);
      unset = format_options (&fresh, key);
      if (text == NULL || g_strcmp0 (text, unset) == 0)
        g_hash_table_remove (self->others, key);
      else
        g_hash_table_insert (self->others, g_strdup (key), g_steal_pointer (&text));
    }
}

gboolean
flitlab_routing_request_set_option (FlitlabRoutingRequest *self,
                                    const char            *key,
                                    const char            *text,
                                    FlError               *err)
{
  FlRoutingOptions options;
  gboolean done;

  g_return_val_if_fail (self != NULL, FALSE);

  flitlab_routing_request_fill_options (self, &options);
  done = fl_routing_options_set (&options, key, text, err) == FL_OK;
  if (done)
    take_options (self, &options);
  fl_routing_options_clear (&options);
  return done;
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
  GHashTableIter iter;
  gpointer key, value;

  fl_routing_options_init (options);
  g_array_set_size (kept, 0);
  if (flitlab_routing_takes (self->name, "root"))
    options->root = self->root;
  if (flitlab_routing_takes (self->name, "classes"))
    options->vc_classes = self->vc_classes;
  if (flitlab_routing_takes (self->name, "order"))
    options->order = self->order;
  g_hash_table_iter_init (&iter, self->others);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (flitlab_routing_takes (self->name, key))
      fl_routing_options_set (options, key, value, NULL);
  if (flitlab_routing_takes (self->name, FLITLAB_TURNS_OPTION))
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
