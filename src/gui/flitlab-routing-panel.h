/* flitlab-routing-panel.h — the routing of the network on the canvas: which
 * algorithm with which options, what the canvas draws over the network, and
 * the analysis of the routing (connectivity, deadlock, hops, paper 002's
 * turn metrics, channel load) and of the route between two switches.
 *
 * The panel does not build routings. It says what the user asks for (the
 * "changed" signal, flitlab_routing_panel_dup_request()) and shows what the
 * window built for it in a worker thread (set_routed, or set_refused with
 * the engine's message). It follows its canvas by itself for the overlays,
 * the route endpoints and the turns clicked while editing turns.
 *
 * Properties: "routing" (string, the algorithm's registry name),
 * "editing-turns" (boolean: the canvas' turn tool edits a turnset).
 * Signals: "changed" (), whenever the routing asked for changes.
 */
#pragma once

#include <adwaita.h>

#include "flitlab-canvas.h"
#include "flitlab-routed.h"

G_BEGIN_DECLS

/* What the user asked for, copied so that a worker thread can build it while
 * the panel changes: options.prohibited points into turns, options.order
 * into order. */
typedef struct
{
  char *name;
  char *order;
  FlTurn *turns;
  FlRoutingOptions options;
} FlitlabRoutingRequest;

void flitlab_routing_request_free (FlitlabRoutingRequest *request);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlitlabRoutingRequest, flitlab_routing_request_free)

#define FLITLAB_TYPE_ROUTING_PANEL (flitlab_routing_panel_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabRoutingPanel, flitlab_routing_panel, FLITLAB, ROUTING_PANEL, GtkWidget)

GtkWidget             *flitlab_routing_panel_new               (void);
void                   flitlab_routing_panel_set_canvas        (FlitlabRoutingPanel *self,
                                                                FlitlabCanvas       *canvas);

/* The algorithm, by registry name; FALSE for a name the engine does not
 * know. A routing that does not apply to the network is still chosen: the
 * window reports the engine's refusal through set_refused(). */
gboolean               flitlab_routing_panel_set_routing       (FlitlabRoutingPanel *self,
                                                                const char          *name);
const char            *flitlab_routing_panel_get_routing       (FlitlabRoutingPanel *self);

/* Turning it on switches the routing to turnset, seeded with the prohibited
 * turns of the routing shown, and the canvas to its turn tool. */
void                   flitlab_routing_panel_set_editing_turns (FlitlabRoutingPanel *self,
                                                                gboolean             editing);
gboolean               flitlab_routing_panel_get_editing_turns (FlitlabRoutingPanel *self);

/* A copy of the request for the network on the canvas, turns that the
 * network no longer has left out. */
FlitlabRoutingRequest *flitlab_routing_panel_dup_request       (FlitlabRoutingPanel *self);

/* Shows a routing built for the request (NULL: none, e.g. no network). */
void                   flitlab_routing_panel_set_routed        (FlitlabRoutingPanel *self,
                                                                FlitlabRouted       *routed);
/* Shows why the engine refused the request, in its own words. */
void                   flitlab_routing_panel_set_refused       (FlitlabRoutingPanel *self,
                                                                const char          *message);
/* While a routing is being built the values shown are dimmed as stale. */
void                   flitlab_routing_panel_set_building      (FlitlabRoutingPanel *self,
                                                                gboolean             building);

/* The text shown for one value, by key: "connected", "deadlock-free",
 * "avg-hops", "bfs-hops", "max-hops", "stretch", "pt", "sdpt", "ppt",
 * "max-load", "throughput", "root", "cycle" (the sentence), "refused",
 * "endpoints", "path", "hops", "paths"; NULL for an unknown key, "" for
 * a value not shown. */
const char            *flitlab_routing_panel_get_value         (FlitlabRoutingPanel *self,
                                                                const char          *key);

G_END_DECLS
