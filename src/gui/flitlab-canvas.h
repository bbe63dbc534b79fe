/* flitlab-canvas.h — the topology canvas: pan, zoom, select and draw.
 *
 * Properties: "tool" (FlitlabCanvasTool), "can-undo", "can-redo" (read-only),
 * "new-switch-ports" (int, default 8), "zoom" (double, device pixels per
 * layout step, read-only).
 * Signals: "selection-changed" (); "topology-edited" (), after every edit of
 * structure or positions, undo and redo included; "message" (const char *),
 * a sentence for the user (a toast) when an edit made with the pointer is
 * refused, e.g. a connect between full switches.
 *
 * Routing: "routed" (FlitlabRouted, the routing whose overlays are drawn;
 * dropped, with a notification, by any edit of structure), "overlays"
 * (FlitlabOverlay). Signals "route-endpoints-changed" () and
 * "turn-activated" (int sw, int in_port, int out_port). While an overlay is
 * drawn the picture leaves the hosts out (routing concerns switches), and
 * the H/V graph shows, and hit-tests, the network at H/V positions without
 * changing the topology.
 */
#pragma once

#include <gtk/gtk.h>

#include "flitlab.h"
#include "flitlab-routed.h"

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
  FLITLAB_CANVAS_TOOL_TURNS,       /* click a turn at a switch (near its arc or between two links): emits "turn-activated" */
} FlitlabCanvasTool;

#define FLITLAB_TYPE_CANVAS_TOOL (flitlab_canvas_tool_get_type ())
GType flitlab_canvas_tool_get_type (void) G_GNUC_CONST;

/* The same values as the FL_DRAW_OVERLAY_* bits of flitlab-draw.h. */
typedef enum {
  FLITLAB_OVERLAY_NONE       = 0,
  FLITLAB_OVERLAY_TURNS      = 1 << 0, /* prohibited turns: small arcs at the switch between the two links, with a legend */
  FLITLAB_OVERLAY_DIRECTIONS = 1 << 1, /* channel direction labels: up/down, or LU/LD/RU/RD with each switch's (h, v) */
  FLITLAB_OVERLAY_HV_GRAPH   = 1 << 2, /* draw the network at H/V coordinates (preorder, depth): the H/V graph itself */
  FLITLAB_OVERLAY_PATHS      = 1 << 3, /* every legal shortest path between the route endpoints, the chosen one emphasised */
  FLITLAB_OVERLAY_CYCLE      = 1 << 4, /* the report's CDG cycle, highlighted channel by channel */
} FlitlabOverlay;

#define FLITLAB_TYPE_OVERLAY (flitlab_overlay_get_type ())
GType flitlab_overlay_get_type (void) G_GNUC_CONST;

/* Beyond the contract: the error domain of set_node_ports() and export(). */
#define FLITLAB_CANVAS_ERROR (flitlab_canvas_error_quark ())
typedef enum {
  FLITLAB_CANVAS_ERROR_EDIT,       /* the engine refused an edit */
  FLITLAB_CANVAS_ERROR_EXPORT,     /* the file could not be written */
} FlitlabCanvasError;
GQuark flitlab_canvas_error_quark (void);

GtkWidget        *flitlab_canvas_new              (void);
/* Takes ownership (NULL = empty network); clears the undo history; fits the view. */
void              flitlab_canvas_set_topology     (FlitlabCanvas *self, FlTopology *topology);
const FlTopology *flitlab_canvas_get_topology     (FlitlabCanvas *self);   /* never NULL */
FlTopology       *flitlab_canvas_dup_topology     (FlitlabCanvas *self);   /* a copy for worker threads */
void              flitlab_canvas_set_tool         (FlitlabCanvas *self, FlitlabCanvasTool tool);
FlitlabCanvasTool flitlab_canvas_get_tool         (FlitlabCanvas *self);
void              flitlab_canvas_zoom_fit         (FlitlabCanvas *self);
void              flitlab_canvas_zoom_in          (FlitlabCanvas *self);
void              flitlab_canvas_zoom_out         (FlitlabCanvas *self);
gboolean          flitlab_canvas_can_undo         (FlitlabCanvas *self);
gboolean          flitlab_canvas_can_redo         (FlitlabCanvas *self);
void              flitlab_canvas_undo             (FlitlabCanvas *self);
void              flitlab_canvas_redo             (FlitlabCanvas *self);
void              flitlab_canvas_get_selection    (FlitlabCanvas *self, int *node, int *link); /* -1 = none */
void              flitlab_canvas_select           (FlitlabCanvas *self, int node, int link);
void              flitlab_canvas_delete_selection (FlitlabCanvas *self);
gboolean          flitlab_canvas_set_node_ports   (FlitlabCanvas *self, int node, int nports, GError **error); /* undoable */
/* Renders the current view to a PNG/SVG/PDF file through the shared draw function. */
gboolean          flitlab_canvas_export           (FlitlabCanvas *self, const char *path, GError **error);

void              flitlab_canvas_set_routed          (FlitlabCanvas *self, FlitlabRouted *routed); /* takes a ref; NULL clears */
FlitlabRouted    *flitlab_canvas_get_routed          (FlitlabCanvas *self);
void              flitlab_canvas_set_overlays        (FlitlabCanvas *self, FlitlabOverlay overlays); /* property "overlays" */
FlitlabOverlay    flitlab_canvas_get_overlays        (FlitlabCanvas *self);
void              flitlab_canvas_set_route_endpoints (FlitlabCanvas *self, int src, int dst); /* switch node ids, -1 = none */
void              flitlab_canvas_get_route_endpoints (FlitlabCanvas *self, int *src, int *dst);

G_END_DECLS
