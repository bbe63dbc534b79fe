/* flitlab-document-private.h — the document's state, shared by
 * flitlab-document.c (the GObject, its name, topology and selection, what
 * comes next), flitlab-document-edits.c (edits, gestures, undo and redo),
 * flitlab-document-routing.c (the routing asked for and built, the route
 * and its paths) and flitlab-document-state.c (the simulation settings and
 * the routing state kept with the project). */
#pragma once

#include "flitlab-document.h"
#include "flitlab-edit-history.h"

G_BEGIN_DECLS

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
  int multicast_source;        /* the Collectives tab's multicast: -1 = none */
  GArray *multicast_dests;     /* of int */

  FlSimSettings sim_settings;
};

typedef enum {
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
  N_PROPS
} FlitlabDocumentProperty;

typedef enum {
  TOPOLOGY_EDITED,
  SELECTION_CHANGED,
  REQUEST_CHANGED,
  ROUTE_CHANGED,
  SIM_SETTINGS_CHANGED,
  N_SIGNALS
} FlitlabDocumentSignal;

/* flitlab-document.c: the property and signal tables are there. */
void     flitlab_document_notify            (FlitlabDocument             *self,
                                             FlitlabDocumentProperty      prop);
void     flitlab_document_emit              (FlitlabDocument             *self,
                                             FlitlabDocumentSignal        sig);
/* Clamped to the topology: what points past its end is none. */
void     flitlab_document_set_selection     (FlitlabDocument             *self,
                                             int                          node,
                                             int                          link);
/* Takes topology. */
void     flitlab_document_replace_topology  (FlitlabDocument             *self,
                                             FlTopology                  *topology);

/* flitlab-document-edits.c */
void     flitlab_document_update_undo_state (FlitlabDocument             *self);

/* flitlab-document-routing.c */
void     flitlab_document_route_free        (FlitlabRoute                *route);
void     flitlab_document_route_invalidate  (FlitlabDocument             *self);
gboolean flitlab_document_is_switch         (const FlTopology            *t,
                                             int                          node);
void     flitlab_document_request_replaced  (FlitlabDocument             *self,
                                             const FlitlabRoutingRequest *old);

G_END_DECLS
