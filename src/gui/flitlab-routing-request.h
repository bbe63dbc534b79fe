/* flitlab-routing-request.h — the routing a user asks for on one network:
 * the algorithm, its options and, for turnset, the prohibited turns.
 *
 * A plain value: copied into worker threads and onto the undo history,
 * compared to tell a real change from a repeated one, and written to and
 * read from the project's per-topology settings as text.
 */
#pragma once

#include <glib.h>

#include "flitlab.h"

G_BEGIN_DECLS

/* options.prohibited points into turns and options.order into order: use
 * flitlab_routing_request_options() rather than copying options. */
typedef struct
{
  char *name;                  /* the registry name */
  int root;                    /* -1: the paper's rule */
  int vc_classes;              /* 0: the routing's default */
  char *order;                 /* NULL: the default order */
  GArray *turns;               /* FlTurn, sorted: turnset's prohibited turns */
} FlitlabRoutingRequest;

FlitlabRoutingRequest *flitlab_routing_request_new    (const char                  *name);
FlitlabRoutingRequest *flitlab_routing_request_copy   (const FlitlabRoutingRequest *self);
void                   flitlab_routing_request_free   (FlitlabRoutingRequest       *self);
gboolean               flitlab_routing_request_equal  (const FlitlabRoutingRequest *a,
                                                       const FlitlabRoutingRequest *b);

/* The options the engine takes, pointing into self (valid while self is).
 * Only those the routing uses are set; turns that t no longer has (after
 * an edit of the network) are left out, into the array kept. */
void                   flitlab_routing_request_options (const FlitlabRoutingRequest *self,
                                                        const FlTopology            *t,
                                                        GArray                      *kept,
                                                        FlRoutingOptions            *options);

/* Which options a routing takes, by name. */
gboolean               flitlab_routing_uses_root       (const char                  *name);
gboolean               flitlab_routing_uses_classes    (const char                  *name);
gboolean               flitlab_routing_uses_order      (const char                  *name);
gboolean               flitlab_routing_uses_turns      (const char                  *name);

/* Prohibits turn if it is allowed, allows it if it is prohibited. */
void                   flitlab_routing_request_toggle_turn (FlitlabRoutingRequest *self,
                                                            const FlTurn          *turn);
/* Replaces the turns by n turns (sorted on the way in). */
void                   flitlab_routing_request_set_turns   (FlitlabRoutingRequest *self,
                                                            const FlTurn          *turns,
                                                            int                    n);

/* "3:0>1,3:1>0", the command line's syntax; "" for none. */
char                  *flitlab_turns_to_string   (const GArray *turns);
/* Parses the syntax above into turns (cleared first); FALSE on a bad one. */
gboolean               flitlab_turns_from_string (const char   *text,
                                                  GArray       *turns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlitlabRoutingRequest, flitlab_routing_request_free)

G_END_DECLS
