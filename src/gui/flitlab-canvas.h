/* flitlab-canvas.h — a view of a document: pan, zoom, the drawing tools and
 * the routing overlays.
 *
 * The canvas draws its document's network through fl_draw_routing(), the
 * function export and the command line use too, and turns pointer
 * gestures into the document's edits. What it shows (the topology, the
 * selection, the routing, the overlays, the route) is the document's; what
 * is its own is how it shows it: the view, the tool, hover and gestures.
 *
 * Properties: "document" (FlitlabDocument, never NULL: an empty network
 * until one is given), "tool" (FlitlabCanvasTool), "new-switch-ports" (int,
 * default 8), "zoom" (double, device pixels per layout step, read-only),
 * "flit-colour" (int, an FlDrawFlitColour) and "heat-map" (boolean) for
 * the simulation's frames.
 * Signals: "message" (const char *), a sentence for the user (a toast) when
 * an edit made with the pointer is refused, e.g. a connect between full
 * switches; "turn-activated" (int sw, int in_port, int out_port), a turn
 * clicked with the turn tool, which the canvas toggles in its document;
 * while collectives are shown, "draw-overlay" (cairo_t *cr, const
 * FlTopology *picture, const FlDrawOptions *options), after the network
 * is drawn, for what a collective draws over it, and "node-activated"
 * (int node) -> gboolean, a switch or host clicked with the select tool,
 * which selects it unless a handler returns TRUE.
 *
 * While an overlay is drawn the picture leaves the hosts out (routing
 * concerns switches), and the H/V graph shows, and hit-tests, the network
 * at H/V positions without changing the topology.
 */
#pragma once

#include <gtk/gtk.h>

#include "flitlab.h"
#include "flitlab-document.h"
#include "flitlab-draw.h"
#include "flitlab-lesson.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_CANVAS (flitlab_canvas_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabCanvas, flitlab_canvas, FLITLAB, CANVAS, GtkWidget)

typedef enum {
  FLITLAB_CANVAS_TOOL_SELECT,      /* click selects; drag a node moves it; drag empty space pans */
  FLITLAB_CANVAS_TOOL_ADD_SWITCH,  /* click adds a switch (new-switch-ports ports) */
  FLITLAB_CANVAS_TOOL_ADD_HOST,    /* click on/near a switch adds a host attached to it */
  FLITLAB_CANVAS_TOOL_CONNECT,     /* drag from a node to a node links their lowest free ports */
  FLITLAB_CANVAS_TOOL_DELETE,      /* click deletes the node or link under the pointer */
  FLITLAB_CANVAS_TOOL_ROUTE,       /* click a source switch, then a destination: sets the route endpoints */
  FLITLAB_CANVAS_TOOL_TURNS,       /* click a turn at a switch (near its arc or between two links): toggles it */
} FlitlabCanvasTool;

#define FLITLAB_TYPE_CANVAS_TOOL (flitlab_canvas_tool_get_type ())
GType flitlab_canvas_tool_get_type (void) G_GNUC_CONST;

/* The error domain of export(). */
#define FLITLAB_CANVAS_ERROR (flitlab_canvas_error_quark ())
typedef enum {
  FLITLAB_CANVAS_ERROR_EXPORT,     /* the file could not be written */
} FlitlabCanvasError;
GQuark flitlab_canvas_error_quark (void);

GtkWidget        *flitlab_canvas_new          (void);
/* Shows document (a reference is taken; NULL: an empty network), fitted. */
void              flitlab_canvas_set_document (FlitlabCanvas     *self,
                                               FlitlabDocument   *document);
FlitlabDocument  *flitlab_canvas_get_document (FlitlabCanvas     *self);
void              flitlab_canvas_set_tool     (FlitlabCanvas     *self,
                                               FlitlabCanvasTool  tool);
FlitlabCanvasTool flitlab_canvas_get_tool     (FlitlabCanvas     *self);
void              flitlab_canvas_zoom_fit     (FlitlabCanvas     *self);
void              flitlab_canvas_zoom_in      (FlitlabCanvas     *self);
void              flitlab_canvas_zoom_out     (FlitlabCanvas     *self);
/* The view: how layout coordinates map to the widget's pixels. */
void              flitlab_canvas_get_view     (FlitlabCanvas     *self,
                                               FlDrawView        *view);
/* While TRUE (the Simulate tab is shown), the canvas draws the network
 * with its hosts and the document's simulation over it, if any, rather
 * than the routing overlays. */
void              flitlab_canvas_set_show_simulation (FlitlabCanvas *self,
                                                      gboolean       show);
gboolean          flitlab_canvas_get_show_simulation (FlitlabCanvas *self);
/* The colours the simulation's packets are drawn in (the preferences'). */
void              flitlab_canvas_set_flit_palette (FlitlabCanvas     *self,
                                                   FlDrawFlitPalette  palette);
FlDrawFlitPalette flitlab_canvas_get_flit_palette (FlitlabCanvas     *self);
/* While TRUE (the Collectives tab is shown), the canvas draws the network
 * with its hosts and no routing overlays, then emits "draw-overlay"; a
 * click on a node emits "node-activated". */
void              flitlab_canvas_set_show_collectives (FlitlabCanvas *self,
                                                       gboolean       show);
gboolean          flitlab_canvas_get_show_collectives (FlitlabCanvas *self);
/* Writes the whole network as the canvas draws it (overlays, a
 * simulation's frame or a collective), fitted into page (its size, its
 * resolution, its title), whatever part the canvas shows, to a PNG, SVG
 * or PDF file (by path's extension). */
gboolean          flitlab_canvas_export_page  (FlitlabCanvas     *self,
                                               const char        *path,
                                               const FlDrawPage  *page,
                                               GError           **error);
/* The same on a page as large as the canvas, without a title. */
gboolean          flitlab_canvas_export       (FlitlabCanvas     *self,
                                               const char        *path,
                                               GError           **error);
/* Presenter mode: heavier lines, larger type and switches for a projector
 * (the view's marks are FL_DRAW_PRESENTER); the view is fitted anew. */
void              flitlab_canvas_set_presenter (FlitlabCanvas    *self,
                                                gboolean          presenter);
gboolean          flitlab_canvas_get_presenter (FlitlabCanvas    *self);

/* What a lesson's step points at, drawn over whatever the canvas shows
 * (fl_draw_highlight()): switches, links and channels by switch labels,
 * copied; n 0 (or NULL) clears each. */
void              flitlab_canvas_set_highlight (FlitlabCanvas      *self,
                                                const int          *nodes,
                                                int                 n_nodes,
                                                const FlLessonPair *links,
                                                int                 n_links,
                                                const FlLessonPair *channels,
                                                int                 n_channels);
/* The highlight set, owned by the canvas until the next set; any pointer
 * may be NULL. */
void              flitlab_canvas_get_highlight (FlitlabCanvas       *self,
                                                const int          **nodes,
                                                int                 *n_nodes,
                                                const FlLessonPair **links,
                                                int                 *n_links,
                                                const FlLessonPair **channels,
                                                int                 *n_channels);

G_END_DECLS
