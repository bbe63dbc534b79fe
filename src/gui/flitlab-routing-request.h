/* flitlab-routing-request.h — the routing a user asks for on one network:
 * the algorithm, its options and, for turnset, the prohibited turns.
 *
 * Which options a routing takes is the engine's registry's to say
 * (fl_routing_takes()); the request holds a value for every option of the
 * registry, read and written by key as text in the engine's syntax, so that
 * an option added to the registry is carried with no change here.
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
  /* The registry's other options, key to canonical text; an option not in
   * it is unset. */
  GHashTable *others;
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

/* Every option's value (those the routing does not take as well), each
 * owned by options: free with fl_routing_options_clear(). */
void                   flitlab_routing_request_fill_options  (const FlitlabRoutingRequest *self,
                                                              FlRoutingOptions            *options);
/* The option called key as the engine writes it ("auto", "3", "0:1>2"), or
 * NULL for a key the registry does not know. */
char                  *flitlab_routing_request_format_option (const FlitlabRoutingRequest *self,
                                                              const char                  *key);
/* Sets the option called key from text in the engine's syntax; a value the
 * engine refuses leaves self as it was and is explained in err. */
gboolean               flitlab_routing_request_set_option    (FlitlabRoutingRequest       *self,
                                                              const char                  *key,
                                                              const char                  *text,
                                                              FlError                     *err);

/* Whether the routing called name takes the option called key, as the
 * engine's registry says; FALSE for a name it does not know. */
gboolean               flitlab_routing_takes           (const char                  *name,
                                                        const char                  *key);
/* The option whose value is the prohibited turns: the one the canvas edits
 * turn by turn. */
#define FLITLAB_TURNS_OPTION "prohibit"
/* The first routing of the registry that takes the prohibited turns: where
 * editing turns on the canvas leads. */
const char            *flitlab_routing_for_turns       (void);

/* Prohibits turn if it is allowed, allows it if it is prohibited. */
void                   flitlab_routing_request_toggle_turn (FlitlabRoutingRequest *self,
                                                            const FlTurn          *turn);
/* Replaces the turns by n turns (sorted on the way in). */
void                   flitlab_routing_request_set_turns   (FlitlabRoutingRequest *self,
                                                            const FlTurn          *turns,
                                                            int                    n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlitlabRoutingRequest, flitlab_routing_request_free)

G_END_DECLS
