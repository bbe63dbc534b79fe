/* flitlab-draw.h — drawing a topology with plain cairo.
 *
 * One drawing function serves the GUI canvas, file export (PNG, SVG, PDF),
 * the command line and the tests, so what the user sees on screen is what
 * ends up in a paper. No GTK and no GLib: only the engine and cairo.
 *
 * Coordinates: node positions are in layout units (one grid step of the
 * regular families); a view maps them to device units (pixels on screen,
 * points in PDF/SVG) as device = world * scale + t.
 */
#ifndef FLITLAB_DRAW_H
#define FLITLAB_DRAW_H

#include <cairo.h>

#include "flitlab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct FlDrawView {
    double scale;          /* device units per layout unit, > 0 */
    double tx, ty;         /* device position of the layout origin */
} FlDrawView;

typedef struct FlDrawOptions {
    FlDrawView view;
    int selected_node, selected_link;   /* -1 = none */
    int hover_node, hover_link;         /* -1 = none */
    /* The rubber band of a connect drag: from node connect_from to the
     * device point (connect_x, connect_y); connect_from -1 = none. */
    int connect_from;
    double connect_x, connect_y;
    int show_labels;       /* switch ids, drawn only when they fit */
    int dark;              /* colours for a dark style */
} FlDrawOptions;

/* Defaults: identity view, nothing selected or hovered, labels on, light. */
void fl_draw_options_init(FlDrawOptions *o);

/* A view that fits every node of t (and the stubs and arcs of its bent
 * links), with a margin, into a width x height device rectangle, centred.
 * An empty topology gives a view centred on the origin. O(nodes + links). */
void fl_draw_view_fit(const FlTopology *t, double width, double height,
                      FlDrawView *view);

/* Where node n is drawn, in layout units: its position, except that a
 * host sharing its switch's position (a file without host positions) is
 * fanned out beside the switch. (0, 0) for a bad index. */
void fl_draw_node_position(const FlTopology *t, int node, double *x, double *y);

/* Device <-> layout conversions for a view. */
void fl_draw_view_to_device(const FlDrawView *v, double wx, double wy,
                            double *dx, double *dy);
void fl_draw_view_to_world(const FlDrawView *v, double dx, double dy,
                           double *wx, double *wy);

/* Draws t onto cr through o->view: background, links, hosts, switches,
 * labels, highlights and the connect rubber band. Only what meets cr's clip
 * is drawn, so a large network scrolled into view costs little; labels and
 * hosts are left out when they would be too small to read. Where a free
 * layout puts switches closer than a square's side, all switch squares and
 * host discs shrink alike (to 30% at the least) so that none covers another.
 *
 * Links between switches on integer grid points that are longer than 1.5
 * steps are bent, so that wrap-around links stay legible: one that is a
 * single step long modulo the extent of its grid (torus, XMESH and DMESH
 * wrap-arounds) is a short stub at each end pointing the way it leaves the
 * grid; one along a row to the next block of columns (the next layer of a
 * 3D torus drawn side by side) is a diagonal stub at each end; any other is
 * an arc bulging away from the centre. Free layouts draw straight.
 * O(nodes + links). */
void fl_draw_topology(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o);

/* The node (or link) drawn under the device point (x, y), within a few
 * device units, or -1. The nearest glyph wins, a switch on a tie; what the
 * drawing leaves out (hosts too small to see) is never hit. Links are hit
 * along the shape they are drawn with (straight, stubs or arc).
 * O(nodes) / O(links). */
int fl_draw_hit_node(const FlTopology *t, const FlDrawView *v, double x, double y);
int fl_draw_hit_link(const FlTopology *t, const FlDrawView *v, double x, double y);

/* Writes the whole network, fitted into width x height (points for PDF and
 * SVG, pixels for PNG), to path. format is "png", "svg", "pdf" or NULL to
 * take it from the file name's extension. Refuses an unknown format or an
 * unwritable path with a message, leaving no file behind. */
int fl_draw_export(const FlTopology *t, const char *path, const char *format,
                   int width, int height, FlError *err);

/* The same with explicit drawing options, the view included: the GUI
 * exports exactly what its canvas shows. Call fl_draw_view_fit() first to
 * export the whole network with other options (dark style, no labels). */
int fl_draw_export_with_options(const FlTopology *t, const FlDrawOptions *opt,
                                const char *path, const char *format,
                                int width, int height, FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_DRAW_H */
