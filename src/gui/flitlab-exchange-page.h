/* flitlab-exchange-page.h — complete exchange (all-to-all personalized) on
 * an N x N torus, a page of the Collectives tab: the algorithm (paper 000's
 * SEM, or direct exchange) and N; a step slider from the initial state to
 * the last step, with the step's name and figures; the message matrix of
 * the selected node after that step in paper 000's "pqrs" notation; the
 * run's cost terms beside the paper's formulas and the lower bounds; and
 * on the canvas the paths of the step's messages (fl_draw_exchange_step()).
 *
 * A run (fl_alltoall_run: every block tracked) goes to a worker of the
 * page's own, so a 64 x 64 SEM never stalls the window; choosing another
 * algorithm or N supersedes it. The network shown must be torus:NxN for
 * the paths to be drawn: otherwise a button offers it ("show-network").
 *
 * Properties: "document" (FlitlabDocument, NULL: none), "running"
 * (boolean, read-only: a run is under way).
 * Signals: "overlay-changed" (): what draw_overlay draws has changed;
 * "show-network" (const char *spec): the user asks for the project's
 * network named spec, made from the spec when missing.
 */
#pragma once

#include <adwaita.h>

#include "flitlab-document.h"
#include "flitlab-workers.h"
#include "flitlab-draw.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_EXCHANGE_PAGE (flitlab_exchange_page_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabExchangePage, flitlab_exchange_page, FLITLAB, EXCHANGE_PAGE, GtkWidget)

GtkWidget       *flitlab_exchange_page_new              (void);

/* The document whose network the paths are drawn on (a reference is
 * taken; NULL: none). A torus:NxN network of a size offered chooses N. */
void             flitlab_exchange_page_set_document     (FlitlabExchangePage *self,
                                                         FlitlabDocument     *document);
FlitlabDocument *flitlab_exchange_page_get_document     (FlitlabExchangePage *self);

/* Runs the page's jobs on the window's workers (see
 * flitlab_collective_page_set_workers()). */
void             flitlab_exchange_page_set_workers      (FlitlabExchangePage *self,
                                                         FlitlabWorkers      *workers);

/* Chooses the algorithm and N as the rows do, and runs it; FALSE for a
 * pair the engine refuses (direct beyond 32), and then nothing changes. */
gboolean         flitlab_exchange_page_set_run          (FlitlabExchangePage *self,
                                                         FlAllToAllAlgorithm  algorithm,
                                                         int                  n);
gboolean         flitlab_exchange_page_get_running      (FlitlabExchangePage *self);
/* The finished run shown (owned by the page), or NULL while none is. */
const FlAllToAll *flitlab_exchange_page_get_run         (FlitlabExchangePage *self);

/* The step shown, 0 (the initial state) .. the run's step count, as the
 * slider sets it. */
void             flitlab_exchange_page_set_step         (FlitlabExchangePage *self,
                                                         guint                step);
guint            flitlab_exchange_page_get_step         (FlitlabExchangePage *self);
/* The node whose matrix is shown, by its number i N + j in the run. */
void             flitlab_exchange_page_set_node         (FlitlabExchangePage *self,
                                                         int                  node);
int              flitlab_exchange_page_get_node         (FlitlabExchangePage *self);

/* The step's messages over the network the canvas drew with o. */
void             flitlab_exchange_page_draw_overlay     (FlitlabExchangePage  *self,
                                                         cairo_t              *cr,
                                                         const FlTopology     *t,
                                                         const FlDrawOptions  *o);
/* A node clicked on the canvas: its processor becomes the one shown; TRUE
 * when the node is one of the run's torus. */
gboolean         flitlab_exchange_page_node_activated   (FlitlabExchangePage *self,
                                                         int                  node);

/* The text shown for one value, by key: "step" (the step's name),
 * "messages", "blocks", "max-blocks", "max-hops", "max-link-load",
 * "max-held", "node" (P(i,j)), "matrix" (the message matrix), "network"
 * (why the paths are not drawn, "" when they are), "error" (why there is
 * no run); the cost table's "startups", "transmission", "propagation",
 * "rearrangement", "volume", "delivered". NULL for an unknown key. */
const char      *flitlab_exchange_page_get_value        (FlitlabExchangePage *self,
                                                         const char          *key);

G_END_DECLS
