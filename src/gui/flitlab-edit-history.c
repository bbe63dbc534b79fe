/* flitlab-edit-history.c — undo and redo for a document. */
#include "flitlab-edit-history.h"

/* A snapshot and its size, measured once; either part may be NULL (the
 * edit did not change it). */
typedef struct
{
  FlTopology *topology;
  FlitlabRoutingRequest *request;
  gsize bytes;
} Step;

struct _FlitlabEditHistory
{
  GQueue undo;          /* of Step, newest first */
  GQueue redo;          /* of Step, newest first */
  FlTopology *group;    /* the state before the gesture in progress */
  guint max_steps;
  gsize max_bytes;
};

/* A snapshot's size, near enough for a memory budget: the engine keeps a
 * few arrays per node, one int per port and four per link. */
static gsize
snapshot_bytes (const FlTopology *t)
{
  gsize ports = 0;

  for (int n = 0; n < fl_topology_node_count (t); n++)
    ports += (gsize) fl_topology_node_ports (t, n);
  return 128 + (gsize) fl_topology_node_count (t) * 64 + ports * sizeof (int)
         + (gsize) fl_topology_link_count (t) * 4 * sizeof (int);
}

static Step *
step_new (FlTopology            *topology,
          FlitlabRoutingRequest *request)
{
  Step *step = g_new0 (Step, 1);

  step->topology = topology;
  step->request = request;
  step->bytes = 64;
  if (topology != NULL)
    step->bytes += snapshot_bytes (topology);
  if (request != NULL)
    step->bytes += request->turns->len * sizeof (FlTurn);
  return step;
}

static void
step_free (Step *step)
{
  fl_topology_free (step->topology);
  flitlab_routing_request_free (step->request);
  g_free (step);
}

static void
clear_queue (GQueue *queue)
{
  Step *step;

  while ((step = g_queue_pop_head (queue)))
    step_free (step);
}

FlitlabEditHistory *
flitlab_edit_history_new (guint max_steps,
                          gsize max_bytes)
{
  FlitlabEditHistory *self = g_new0 (FlitlabEditHistory, 1);

  g_queue_init (&self->undo);
  g_queue_init (&self->redo);
  self->max_steps = MAX (max_steps, 1);
  self->max_bytes = max_bytes;
  return self;
}

void
flitlab_edit_history_clear (FlitlabEditHistory *self)
{
  clear_queue (&self->undo);
  clear_queue (&self->redo);
  g_clear_pointer (&self->group, fl_topology_free);
}

void
flitlab_edit_history_free (FlitlabEditHistory *self)
{
  if (self == NULL)
    return;
  flitlab_edit_history_clear (self);
  g_free (self);
}

gboolean
flitlab_edit_history_can_undo (FlitlabEditHistory *self)
{
  return !g_queue_is_empty (&self->undo);
}

gboolean
flitlab_edit_history_can_redo (FlitlabEditHistory *self)
{
  return !g_queue_is_empty (&self->redo);
}

/* Drops the oldest steps beyond the step limit or the memory budget. */
static void
trim (FlitlabEditHistory *self)
{
  gsize bytes = 0;
  guint keep = 0;

  for (GList *l = self->undo.head; l != NULL; l = l->next)
    {
      bytes += ((Step *) l->data)->bytes;
      if (keep >= 1 && (keep >= self->max_steps || (self->max_bytes && bytes > self->max_bytes)))
        break;
      keep++;
    }
  while (self->undo.length > keep)
    step_free (g_queue_pop_tail (&self->undo));
}

static void
push (FlitlabEditHistory *self,
      Step               *step)
{
  clear_queue (&self->redo);
  g_queue_push_head (&self->undo, step);
  trim (self);
}

void
flitlab_edit_history_push (FlitlabEditHistory *self,
                           FlTopology         *before)
{
  g_return_if_fail (before != NULL);

  push (self, step_new (before, NULL));
}

void
flitlab_edit_history_push_request (FlitlabEditHistory    *self,
                                   FlitlabRoutingRequest *before)
{
  g_return_if_fail (before != NULL);

  push (self, step_new (NULL, before));
}

/* Moves the step on top of from onto to, swapping the current state in. */
static gboolean
swap (GQueue                 *from,
      GQueue                 *to,
      FlTopology            **topology,
      FlitlabRoutingRequest **request)
{
  Step *step = g_queue_peek_head (from);
  FlTopology *shown_topology;
  FlitlabRoutingRequest *shown_request;

  if (step == NULL || (step->topology != NULL && (topology == NULL || *topology == NULL))
      || (step->request != NULL && (request == NULL || *request == NULL)))
    return FALSE;
  g_queue_pop_head (from);
  shown_topology = step->topology;
  shown_request = step->request;
  step->topology = shown_topology != NULL ? *topology : NULL;
  step->request = shown_request != NULL ? *request : NULL;
  g_queue_push_head (to, step_new (step->topology, step->request));
  g_free (step);
  if (shown_topology != NULL)
    *topology = shown_topology;
  if (shown_request != NULL)
    *request = shown_request;
  return TRUE;
}

gboolean
flitlab_edit_history_undo (FlitlabEditHistory     *self,
                           FlTopology            **topology,
                           FlitlabRoutingRequest **request)
{
  return swap (&self->undo, &self->redo, topology, request);
}

gboolean
flitlab_edit_history_redo (FlitlabEditHistory     *self,
                           FlTopology            **topology,
                           FlitlabRoutingRequest **request)
{
  return swap (&self->redo, &self->undo, topology, request);
}

void
flitlab_edit_history_begin_group (FlitlabEditHistory *self,
                                  FlTopology         *before)
{
  g_clear_pointer (&self->group, fl_topology_free);
  self->group = before;
}

gboolean
flitlab_edit_history_in_group (FlitlabEditHistory *self)
{
  return self->group != NULL;
}

void
flitlab_edit_history_commit_group (FlitlabEditHistory *self)
{
  if (self->group != NULL)
    flitlab_edit_history_push (self, g_steal_pointer (&self->group));
}

FlTopology *
flitlab_edit_history_cancel_group (FlitlabEditHistory *self)
{
  return g_steal_pointer (&self->group);
}
