/* flitlab-multicast-page.h — the Collectives tab's multicast page: a tree
 * of one of the engine's algorithms (fl_multicast_algorithm_name()) from a
 * source to destinations clicked on the canvas or drawn at random, timed
 * on paper 001's model (t_hold and t_end given, or derived from a message
 * size and software costs), drawn on the network with each unicast's path,
 * step and send time and any contention; a timing diagram of the model,
 * and of the tree's messages run flit by flit in a worker ("Simulate"),
 * which "Play" hands to the Simulate tab.
 *
 * Properties: "document" (FlitlabDocument), "play-note" (string, read-only:
 * what the last Play started).
 * Signals: "overlay-changed" (), "show-network" (const char *spec), "play" ().
 */
#pragma once

#include <adwaita.h>

#include "flitlab-document.h"
#include "flitlab-draw.h"
#include "flitlab-workers.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_MULTICAST_PAGE (flitlab_multicast_page_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabMulticastPage, flitlab_multicast_page, FLITLAB, MULTICAST_PAGE, GtkWidget)

GtkWidget       *flitlab_multicast_page_new            (void);
void             flitlab_multicast_page_set_document   (FlitlabMulticastPage *self,
                                                        FlitlabDocument      *document);
FlitlabDocument *flitlab_multicast_page_get_document   (FlitlabMulticastPage *self);
void             flitlab_multicast_page_set_workers    (FlitlabMulticastPage *self,
                                                        FlitlabWorkers       *workers);
void             flitlab_multicast_page_draw_overlay   (FlitlabMulticastPage *self,
                                                        cairo_t              *cr,
                                                        const FlTopology     *t,
                                                        const FlDrawOptions  *o);
/* The first click picks the source, the next ones toggle destinations; a
 * switch stands for its first host. */
gboolean         flitlab_multicast_page_node_activated (FlitlabMulticastPage *self,
                                                        int                   node);

G_END_DECLS
