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

/* Draws k destinations at random with seed (and first a source, if none
 * is chosen), as `flitlab multicast --random K --seed X` does; k is cut to
 * the hosts there are besides the source. */
void             flitlab_multicast_page_pick_random    (FlitlabMulticastPage *self,
                                                        int                   k,
                                                        guint64               seed);
/* Shows the multicast of settings (its model's: the algorithm, the
 * message and its costs, and the source and destinations drawn with its
 * seed), as an experiment's run of it made it. */
void             flitlab_multicast_page_show_settings  (FlitlabMulticastPage *self,
                                                        const FlSimSettings  *settings);
/* Chooses the source (a host rank, -1 for none) and n destinations, as
 * clicks would; a lesson's multicast. */
void             flitlab_multicast_page_set_nodes      (FlitlabMulticastPage *self,
                                                        int                   source,
                                                        const int            *dests,
                                                        int                   n);
/* Times the tree with t_hold and t_end given, not derived from the costs. */
void             flitlab_multicast_page_set_times      (FlitlabMulticastPage *self,
                                                        double                t_hold,
                                                        double                t_end);
/* The source (a host rank, -1 for none) and the destinations chosen. */
int              flitlab_multicast_page_get_source     (FlitlabMulticastPage *self);
const int       *flitlab_multicast_page_get_dests      (FlitlabMulticastPage *self,
                                                        int                  *n);
/* Chooses the algorithm by its engine name (fl_multicast_algorithm_name());
 * FALSE for a name the engine does not know. */
gboolean         flitlab_multicast_page_set_algorithm  (FlitlabMulticastPage *self,
                                                        const char           *name);
/* Runs the tree's messages flit by flit in a worker ("Simulate"); FALSE
 * with error set when there is no tree on a routed network, or the
 * Simulate tab's model is not the flit-level one. */
gboolean         flitlab_multicast_page_simulate       (FlitlabMulticastPage *self,
                                                        GError              **error);
/* Whether a run of the tree shown has finished. */
gboolean         flitlab_multicast_page_get_simulated  (FlitlabMulticastPage *self);
/* Starts the document's simulation on a replay of the run ("Play") and
 * emits "play"; FALSE with error set when there is no run to replay. */
gboolean         flitlab_multicast_page_play           (FlitlabMulticastPage *self,
                                                        GError              **error);
/* The text shown for a figure: "latency", "simulated", "times" (t_hold
 * and t_end), "contention", "conflicts" (the pairs, a line each), "error"
 * (why there is no tree or run, "" when there is); NULL for another key. */
const char      *flitlab_multicast_page_get_value      (FlitlabMulticastPage *self,
                                                        const char           *key);

G_END_DECLS
