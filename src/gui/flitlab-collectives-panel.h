/* flitlab-collectives-panel.h — the Collectives tab: a collective chosen
 * by kind (a multicast tree, a complete exchange, a link schedule), each
 * kind a page of its own in a stack, drawn over the network on the canvas.
 *
 * The panel is a shell: it hands its document and workers to every page
 * and dispatches the canvas' drawing and clicks to the page shown. Each
 * page is a widget with the same hooks, named
 * flitlab_<kind>_page_set_document / _set_workers / _draw_overlay /
 * _node_activated, and the signals "overlay-changed" and "show-network",
 * and "play" when it can hand a run to the Simulate tab (installed by
 * flitlab_collective_install_signals()).
 *
 * Properties: "document" (FlitlabDocument), "kind" (string: the page
 * shown, "multicast", "exchange" or "schedule").
 * Signals: "overlay-changed" (), the canvas should redraw; "show-network"
 * (const char *spec), a page asks the window to show the project's
 * network named spec, made from spec if there is none; "play" (), a page
 * started the document's simulation on its run: the window shows the
 * Simulate tab, with get_play_note()'s sentence under the transport bar.
 */
#pragma once

#include <adwaita.h>

#include "flitlab-document.h"
#include "flitlab-draw.h"
#include "flitlab-workers.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_COLLECTIVES_PANEL (flitlab_collectives_panel_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabCollectivesPanel, flitlab_collectives_panel, FLITLAB, COLLECTIVES_PANEL, GtkWidget)

GtkWidget       *flitlab_collectives_panel_new            (void);
/* The document shown (a reference is taken; NULL: none). */
void             flitlab_collectives_panel_set_document   (FlitlabCollectivesPanel *self,
                                                           FlitlabDocument         *document);
FlitlabDocument *flitlab_collectives_panel_get_document   (FlitlabCollectivesPanel *self);
/* Where the pages run their long work (a reference is taken). */
void             flitlab_collectives_panel_set_workers    (FlitlabCollectivesPanel *self,
                                                           FlitlabWorkers          *workers);

/* Draws the page shown's overlay over the network t drawn with o (o's
 * view and style). */
void             flitlab_collectives_panel_draw_overlay   (FlitlabCollectivesPanel *self,
                                                           cairo_t                 *cr,
                                                           const FlTopology        *t,
                                                           const FlDrawOptions     *o);
/* A switch or host clicked on the canvas while the tab shows; TRUE when
 * the page used it. */
gboolean         flitlab_collectives_panel_node_activated (FlitlabCollectivesPanel *self,
                                                           int                      node);

/* The page shown: "multicast", "exchange" or "schedule"; FALSE for a kind
 * the panel has no page for. */
gboolean         flitlab_collectives_panel_set_kind       (FlitlabCollectivesPanel *self,
                                                           const char              *kind);
const char      *flitlab_collectives_panel_get_kind       (FlitlabCollectivesPanel *self);
/* The page of kind, or NULL. */
GtkWidget       *flitlab_collectives_panel_get_page       (FlitlabCollectivesPanel *self,
                                                           const char              *kind);
/* What the page shown last played, in a sentence for the transport bar
 * (its "play-note" property), or NULL. */
const char      *flitlab_collectives_panel_get_play_note  (FlitlabCollectivesPanel *self);
/* How many cycles that run lasts (its "play-cycles" property), or 0. */
gint64           flitlab_collectives_panel_get_play_cycles (FlitlabCollectivesPanel *self);

/* The signals of the panel and of every page ("overlay-changed",
 * "show-network", and with play "play"), installed on klass; their ids
 * go to ids[FLITLAB_COLLECTIVE_SIGNAL_*]. */
typedef enum {
  FLITLAB_COLLECTIVE_SIGNAL_OVERLAY_CHANGED,
  FLITLAB_COLLECTIVE_SIGNAL_SHOW_NETWORK,
  FLITLAB_COLLECTIVE_SIGNAL_PLAY,
  FLITLAB_COLLECTIVE_N_SIGNALS
} FlitlabCollectiveSignal;

void             flitlab_collective_install_signals       (GObjectClass            *klass,
                                                           gboolean                 play,
                                                           guint                   *ids);

G_END_DECLS
