/* flitlab-canvas-private.h — the canvas' state, shared by
 * flitlab-canvas.c (the widget, its view and its document),
 * flitlab-canvas-tools.c (pointer gestures and the tools they drive) and
 * flitlab-canvas-overlays.c (the routing overlays and the picture they are
 * drawn on). */
#pragma once

#include "flitlab-canvas.h"
#include "flitlab-draw.h"

G_BEGIN_DECLS

#define FLITLAB_CANVAS_ZOOM_STEP 1.25

typedef enum {
  DRAG_NONE,
  DRAG_PAN,                  /* move the view (a click if it never moves) */
  DRAG_MOVE,                 /* move a node and its hosts */
  DRAG_CONNECT,              /* the rubber band from a node */
} FlitlabCanvasDrag;

struct _FlitlabCanvas
{
  GtkWidget parent_instance;

  FlitlabDocument *document;
  GSignalGroup *document_signals;
  FlitlabCanvasTool tool;
  FlDrawOptions draw;          /* the view, hover, rubber band */
  int new_switch_ports;
  gboolean fit_pending;        /* fit once the widget has a size */
  gboolean fitted;             /* the view is still the fitted one: refit on resize */
  int width, height;           /* the last allocation */
  double pointer_x, pointer_y;

  /* Tools and gestures. */
  GtkGesture *drag;
  FlitlabCanvasDrag drag_mode;
  gboolean drag_moved;
  double drag_x, drag_y;       /* where the drag began */
  FlDrawView drag_view;        /* the view when a pan began */
  GArray *carried;             /* of FlitlabCanvasCarried, during a move */
  double zoom_start;           /* the scale when a pinch began */
  FlTurn hover_turn;           /* the turn tool's turn under the pointer */

  /* The picture: NULL draws the topology itself; else its switches alone
   * or its H/V graph (shown_hv), rebuilt when shown_valid is cleared. */
  FlTopology *shown;
  gboolean shown_valid;
  gboolean shown_hv;

  /* The simulation: drawn instead of the overlays while show_simulation
   * (the Simulate tab is shown) and the document has one. */
  gboolean show_simulation;
  FlDrawFlitColour flit_colour;
  FlDrawFlitPalette flit_palette;
  gboolean heat_map;
  gint64 inspected_packet;     /* -1: none */
  GSignalGroup *simulation_signals;
  char *description;           /* the accessible description last set */

  /* A collective is drawn over the whole network by whoever handles
   * "draw-overlay" while show_collectives (the Collectives tab shows). */
  gboolean show_collectives;

  /* Presenter mode: the view's marks are FL_DRAW_PRESENTER. */
  gboolean presenter;
};

/* flitlab-canvas.c */
void              flitlab_canvas_notify           (FlitlabCanvas    *self,
                                                   const char       *name);
void              flitlab_canvas_emit_message     (FlitlabCanvas    *self,
                                                   const char       *context,
                                                   const char       *detail);
void              flitlab_canvas_set_view         (FlitlabCanvas    *self,
                                                   const FlDrawView *view);
void              flitlab_canvas_zoom_around      (FlitlabCanvas    *self,
                                                   double            factor,
                                                   double            x,
                                                   double            y);

/* flitlab-canvas-sim.c */
void              flitlab_canvas_sim_init         (FlitlabCanvas    *self);
/* The document's simulation while it is drawn, else NULL. */
/* flitlab-canvas-a11y.c: the accessible description of what is drawn. */
void  flitlab_canvas_a11y_init  (FlitlabCanvas *self);
char *flitlab_canvas_describe   (FlitlabCanvas *self);

FlitlabSimSession *flitlab_canvas_shown_simulation (FlitlabCanvas   *self);
/* The packet with a flit drawn at (x, y) becomes "inspected-packet";
 * FALSE (and none is) when there is no simulation shown or no flit
 * there. */
gboolean          flitlab_canvas_inspect_packet_at (FlitlabCanvas   *self,
                                                    double           x,
                                                    double           y);
void              flitlab_canvas_set_inspected_packet (FlitlabCanvas *self,
                                                       gint64         packet);
/* Draws the frame of the simulation shown through options, with the
 * cycle counter in it, as exported. */
void              flitlab_canvas_draw_frame       (FlitlabCanvas       *self,
                                                   cairo_t             *cr,
                                                   const FlDrawOptions *options);
/* Draws the frame of the simulation shown over the picture. */
void              flitlab_canvas_draw_simulation  (FlitlabCanvas    *self,
                                                   cairo_t          *cr);

/* flitlab-canvas-tools.c */
void              flitlab_canvas_tools_init       (FlitlabCanvas    *self);
void              flitlab_canvas_update_cursor    (FlitlabCanvas    *self);
void              flitlab_canvas_set_hover        (FlitlabCanvas    *self,
                                                   int               node,
                                                   int               link);
void              flitlab_canvas_set_hover_turn   (FlitlabCanvas    *self,
                                                   const FlTurn     *turn);
/* Ends the gesture in progress; commit = FALSE undoes what it did. */
void              flitlab_canvas_finish_drag      (FlitlabCanvas    *self,
                                                   gboolean          commit);

/* flitlab-canvas-overlays.c */
gboolean          flitlab_canvas_overlays_shown   (FlitlabCanvas    *self);
/* Draws the network with its hosts and emits "draw-overlay" over it. */
void              flitlab_canvas_draw_collective  (FlitlabCanvas    *self,
                                                   cairo_t          *cr);
/* What fl_draw_routing() and the hit tests need; with_paths adds the
 * route's paths, for drawing. */
void              flitlab_canvas_fill_routing     (FlitlabCanvas    *self,
                                                   FlDrawRouting    *rd,
                                                   gboolean          with_paths);
/* The network as drawn and hit, built when first needed. */
const FlTopology *flitlab_canvas_picture          (FlitlabCanvas    *self);
/* After a change of routing or overlays: a new picture, fitted anew when
 * its coordinates are not the old one's. */
void              flitlab_canvas_picture_changed  (FlitlabCanvas    *self);

/* flitlab-canvas-highlight.c: draws the highlight over the picture. */
void              flitlab_canvas_draw_highlight   (FlitlabCanvas    *self,
                                                   cairo_t          *cr);

G_END_DECLS
