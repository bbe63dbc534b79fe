/* flitlab-schedule-page.h — paper 004's link-contention schedules on a
 * Myrinet cluster (myrinet-line, myrinet-mesh), a page of the Collectives
 * tab: a request set (random by pattern, K and seed, or read from a file
 * of "src dst" host pairs), a colouring (AssignColor, greedy or exact),
 * L_max, the colours and whether the colouring is valid, the requests
 * with their colours; on the canvas each request's path in its colour
 * (fl_draw_schedule(), all colours or one); a Gantt chart of the slots;
 * and "Run phases", which runs each colour class in the simulator
 * (fl_schedule_run) and puts the phases' simulated times in the chart.
 *
 * Colourings and phase runs go to a worker of the page's own; a change of
 * the requests or the algorithm supersedes them. On another network a
 * button offers a Myrinet one ("show-network").
 *
 * Properties: "document" (FlitlabDocument, NULL: none), "running"
 * (boolean, read-only: a colouring or a phase run is under way).
 * Signals: "overlay-changed" (), "show-network" (const char *spec).
 */
#pragma once

#include <adwaita.h>

#include "flitlab-document.h"
#include "flitlab-workers.h"
#include "flitlab-draw.h"

G_BEGIN_DECLS

/* Where the requests come from. */
typedef enum {
  FLITLAB_REQUESTS_UNIFORM,
  FLITLAB_REQUESTS_PERMUTATION,
  FLITLAB_REQUESTS_HOTSPOT,
  FLITLAB_REQUESTS_TOP_DOWN,
  FLITLAB_REQUESTS_FILE,
  FLITLAB_N_REQUEST_SOURCES
} FlitlabRequestSource;

#define FLITLAB_TYPE_SCHEDULE_PAGE (flitlab_schedule_page_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabSchedulePage, flitlab_schedule_page, FLITLAB, SCHEDULE_PAGE, GtkWidget)

GtkWidget       *flitlab_schedule_page_new              (void);

/* The document whose Myrinet network is scheduled (a reference is taken;
 * NULL: none); its network's hosts bound K. */
void             flitlab_schedule_page_set_document     (FlitlabSchedulePage *self,
                                                         FlitlabDocument     *document);
FlitlabDocument *flitlab_schedule_page_get_document     (FlitlabSchedulePage *self);

/* Runs the page's jobs on the window's workers (see
 * flitlab_collective_page_set_workers()). */
void             flitlab_schedule_page_set_workers      (FlitlabSchedulePage *self,
                                                         FlitlabWorkers      *workers);

/* The requests as the rows choose them (k and seed are ignored by
 * top-down and a file), and the colouring; each colours anew. */
void             flitlab_schedule_page_set_requests     (FlitlabSchedulePage  *self,
                                                         FlitlabRequestSource  source,
                                                         int                   k,
                                                         guint64               seed);
/* Reads the requests from path, as the file chooser does. */
void             flitlab_schedule_page_set_file         (FlitlabSchedulePage *self,
                                                         const char          *path);
void             flitlab_schedule_page_set_algorithm    (FlitlabSchedulePage *self,
                                                         FlScheduleAlgo       algo);
/* Starts the phases of the colouring shown, as the button does; FALSE
 * when there is none or a job runs. */
gboolean         flitlab_schedule_page_run_phases       (FlitlabSchedulePage *self);
gboolean         flitlab_schedule_page_get_running      (FlitlabSchedulePage *self);

/* The colouring shown (owned by the page), or NULL: its schedule and
 * each request's colour. */
const FlSchedule *flitlab_schedule_page_get_schedule    (FlitlabSchedulePage *self);
const int       *flitlab_schedule_page_get_colors       (FlitlabSchedulePage *self,
                                                         int                 *ncolors);
/* Only the requests of colour (-1: all) are drawn. */
void             flitlab_schedule_page_set_filter       (FlitlabSchedulePage *self,
                                                         int                  colour);

void             flitlab_schedule_page_draw_overlay     (FlitlabSchedulePage  *self,
                                                         cairo_t              *cr,
                                                         const FlTopology     *t,
                                                         const FlDrawOptions  *o);
/* A host clicked on the canvas: the first request it sends is selected. */
gboolean         flitlab_schedule_page_node_activated   (FlitlabSchedulePage *self,
                                                         int                  node);

/* The text shown for one value, by key: "requests", "l-max", "colors",
 * "bound", "valid", "error" (the engine's refusal of the requests or the
 * colouring), "network" (why nothing is scheduled), "phases" (one line a
 * phase after Run phases). NULL for an unknown key. */
const char      *flitlab_schedule_page_get_value        (FlitlabSchedulePage *self,
                                                         const char          *key);

/* The Gantt chart as the page draws it, for a test or an export: its
 * rows, bars and labels stay owned by the page until the next change. */
void             flitlab_schedule_page_get_chart        (FlitlabSchedulePage *self,
                                                         FlDrawChart         *chart);

G_END_DECLS
