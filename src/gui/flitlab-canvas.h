/* flitlab-canvas.h — the topology canvas: pan, zoom, select and draw.
 *
 * Properties: "tool" (FlitlabCanvasTool), "can-undo", "can-redo" (read-only),
 * "new-switch-ports" (int, default 8), "zoom" (double, device pixels per
 * layout step, read-only).
 * Signals: "selection-changed" (); "topology-edited" (), after every edit of
 * structure or positions, undo and redo included; "message" (const char *),
 * a sentence for the user (a toast) when an edit made with the pointer is
 * refused, e.g. a connect between full switches.
 */
#pragma once

#include <gtk/gtk.h>

#include "flitlab.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_CANVAS (flitlab_canvas_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabCanvas, flitlab_canvas, FLITLAB, CANVAS, GtkWidget)

typedef enum {
  FLITLAB_CANVAS_TOOL_SELECT,      /* click selects; drag a node moves it; drag empty space pans */
  FLITLAB_CANVAS_TOOL_ADD_SWITCH,  /* click adds a switch (new-switch-ports ports) */
  FLITLAB_CANVAS_TOOL_ADD_HOST,    /* click on/near a switch adds a host attached to it */
  FLITLAB_CANVAS_TOOL_CONNECT,     /* drag from a node to a node links their lowest free ports */
  FLITLAB_CANVAS_TOOL_DELETE,      /* click deletes the node or link under the pointer */
} FlitlabCanvasTool;

#define FLITLAB_TYPE_CANVAS_TOOL (flitlab_canvas_tool_get_type ())
GType flitlab_canvas_tool_get_type (void) G_GNUC_CONST;

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

G_END_DECLS
