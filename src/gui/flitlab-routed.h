/* flitlab-routed.h — a routing built for one state of a topology, with its
 * analysis: what the routing panel shows and the canvas overlays draw.
 *
 * Built in a worker thread on a copy of a document's topology, then held by
 * the document and shared (reference counted, never changed after
 * creation) by its views. An edit of the network's structure makes it
 * stale: the document drops it and the window builds a new one.
 */
#pragma once

#include <glib-object.h>

#include "flitlab.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_ROUTED (flitlab_routed_get_type ())

typedef struct _FlitlabRouted FlitlabRouted;

struct _FlitlabRouted
{
  /*< public, read-only >*/
  FlTopology      *topology;     /* the copy the routing was built on */
  FlRouting       *routing;
  FlRoutingReport  report;
  char            *routing_name;
  FlTurn          *prohibited;   /* every prohibited turn, sorted */
  int              n_prohibited;
  /*< private >*/
  gatomicrefcount  ref_count;
};

GType          flitlab_routed_get_type (void) G_GNUC_CONST;
/* Takes ownership of topology. Builds and analyses the routing (slow on
 * large networks: call it from a worker thread). opt may be NULL. */
FlitlabRouted *flitlab_routed_new      (FlTopology              *topology,
                                        const char              *routing_name,
                                        const FlRoutingOptions  *opt,
                                        GError                 **error);
FlitlabRouted *flitlab_routed_ref      (FlitlabRouted           *self);
void           flitlab_routed_unref    (FlitlabRouted           *self);

/* Whether turn (in_port -> out_port) at switch sw is prohibited. */
gboolean       flitlab_routed_turn_prohibited (FlitlabRouted *self,
                                               int            sw,
                                               int            in_port,
                                               int            out_port);

/* A sentence for people: which switches the dependency cycle runs through
 * and which turns close it; NULL when the routing is deadlock-free. */
char          *flitlab_routed_describe_cycle  (FlitlabRouted *self);

/* The words of such a sentence for any cycle of n switch-to-switch
 * channels of t, each leading into the next: the switches it runs through
 * ("0 → 1 → 2 → 0") appended to switches, and the turns that close it
 * ("1 (port 0 → 2), 2 (port 0 → 2)") to turns. */
void           flitlab_describe_cycle_parts   (const FlTopology *t,
                                               const int        *channels,
                                               int               n,
                                               GString          *switches,
                                               GString          *turns);
/* A simulation's deadlock (the watchdog's cycle of waiting channels) in a
 * sentence naming its switches and the turns that close it. */
char          *flitlab_describe_deadlock      (const FlTopology *t,
                                               const int        *channels,
                                               int               n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlitlabRouted, flitlab_routed_unref)

#define FLITLAB_ROUTED_ERROR (flitlab_routed_error_quark ())
GQuark flitlab_routed_error_quark (void);

G_END_DECLS
