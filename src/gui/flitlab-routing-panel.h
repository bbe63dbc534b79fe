/* flitlab-routing-panel.h — the routing of a document's network: which
 * algorithm with which options, what the canvas draws over the network, and
 * the analysis of the routing (connectivity, deadlock, hops, paper 002's
 * turn metrics, channel load) and of the route between two switches.
 *
 * The panel does not build routings: it writes what the user asks for into
 * its document, and shows what the document holds (the routing built for
 * it, or the engine's refusal).
 */
#pragma once

#include <adwaita.h>

#include "flitlab-document.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_ROUTING_PANEL (flitlab_routing_panel_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabRoutingPanel, flitlab_routing_panel, FLITLAB, ROUTING_PANEL, GtkWidget)

GtkWidget             *flitlab_routing_panel_new               (void);
/* The document shown and edited (a reference is taken; NULL: none). */
void                   flitlab_routing_panel_set_document      (FlitlabRoutingPanel *self,
                                                                FlitlabDocument     *document);
FlitlabDocument       *flitlab_routing_panel_get_document      (FlitlabRoutingPanel *self);

/* Chooses the algorithm, by registry name, as the chooser does; FALSE for
 * a name the engine does not know. A routing that does not apply to the
 * network is still chosen: the engine's refusal is shown. */
gboolean               flitlab_routing_panel_set_routing       (FlitlabRoutingPanel *self,
                                                                const char          *name);
const char            *flitlab_routing_panel_get_routing       (FlitlabRoutingPanel *self);

/* The row (flitlab-option-rows.h) that edits the routing option called key,
 * one of fl_routing_option()'s; shown while the routing chosen takes it.
 * NULL for a key the registry does not know. */
GtkWidget             *flitlab_routing_panel_get_option_row    (FlitlabRoutingPanel *self,
                                                                const char          *key);

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
