/* draw-private.h — what the drawing, geometry and export files share.
 *
 * Not a public header: callers use flitlab-draw.h. Functions with external
 * linkage carry the fl__draw_ prefix, as the engine's internal ones carry
 * fl__, so the static library cannot clash with the programs linking it.
 */
#ifndef FLITLAB_DRAW_PRIVATE_H
#define FLITLAB_DRAW_PRIVATE_H

#include <stdio.h>

#include "flitlab-draw.h"

#define FL_PI 3.14159265358979323846

/* The occupied columns (or rows) of a grid, cut into blocks where a
 * column is empty: the layers of a 3D torus, drawn side by side, are
 * separate blocks. A wrap-around link joins the two ends of one block. */
typedef struct Axis {
    int lo, n;           /* columns lo .. lo + n - 1 */
    int *block;          /* per column: the first column of its block */
    int *size;           /* per column: the number of columns in its block */
    int *next;           /* per column: the first column of the next block,
                          * the last block's next being the first */
} Axis;

/* Boxes taken by labels and what they must not cover (draw-labels-private.h). */
typedef struct Labels Labels;

/* A grid point that holds a switch. */
typedef struct Cell {
    int x, y;
} Cell;

/* What one call needs to know about the layout as a whole. */
typedef struct Geom {
    const FlTopology *t;
    FlDrawView v;
    Axis axis[2];        /* x and y; n = 0 when no switch is on the grid */
    Cell *cells;         /* the grid points holding switches, sorted */
    int ncells;
    double cx, cy;       /* centre of the switches */
    double half;         /* a switch's half side, device units */
    double host_r;       /* a host's radius, device units; 0 = hidden */
    double lw;           /* link width, device units */
    double marks;        /* the view's marks (1: as on a screen) */
    double text;         /* type grows by this with the marks */
} Geom;

enum { SHAPE_LINE, SHAPE_SPURS, SHAPE_ARC };

/* A link as drawn, in layout units. SPURS: a wrap-around link (as
 * fl_topology_link_wraps() says) or a link between the layers of a 3D grid
 * drawn side by side, a short spur from each end pointing the way the link
 * leaves the grid (tips p1 and p2). ARC: a long link between grid points
 * that would run straight through a switch, as a cubic curve (controls p1,
 * p2) bulging away from the centre of the network. */
typedef struct Shape {
    int kind;
    int host;            /* one end is a host */
    double ax, ay, bx, by;
    double p1x, p1y, p2x, p2y;
} Shape;

/* The shape's points in device units: a, b, p1, p2. */
typedef struct DevShape {
    double x[4], y[4];
} DevShape;

static inline double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* The device rectangle a drawing may touch: the clip, or everything. */
typedef struct Box {
    double x1, y1, x2, y2;
} Box;

/* Whether (x, y) is within pad of box b. */
static inline int box_near(const Box *b, double x, double y, double pad)
{
    return x + pad >= b->x1 && x - pad <= b->x2 && y + pad >= b->y1 && y - pad <= b->y2;
}

static inline void to_device(const Geom *g, double wx, double wy, double *dx, double *dy)
{
    *dx = wx * g->v.scale + g->v.tx;
    *dy = wy * g->v.scale + g->v.ty;
}

/* Fills g for one drawing, hit test or fit through view v; with
 * shapes = 0 the grid analysis (for bent links) is skipped. Release with
 * fl__draw_geom_clear(). */
void fl__draw_geom_init(Geom *g, const FlTopology *t, const FlDrawView *v, int shapes);
void fl__draw_geom_clear(Geom *g);

/* Where node n is drawn, in device units, and whether it is drawn at all. */
void fl__draw_node_device(const Geom *g, int n, double *x, double *y);
int fl__draw_node_shown(const Geom *g, int n);

/* Link l as drawn (straight, spurs or arc), in layout then device units. */
void fl__draw_link_shape(const Geom *g, int l, Shape *s);
void fl__draw_shape_to_device(const Geom *g, const Shape *s, DevShape *d);

/* Adds the shape of a link, as drawn, to cr's path. */
static inline void fl__draw_shape_path(cairo_t *cr, const Shape *s, const DevShape *d)
{
    switch (s->kind) {
    case SHAPE_SPURS:
        cairo_move_to(cr, d->x[0], d->y[0]);
        cairo_line_to(cr, d->x[2], d->y[2]);
        cairo_move_to(cr, d->x[1], d->y[1]);
        cairo_line_to(cr, d->x[3], d->y[3]);
        break;
    case SHAPE_ARC:
        cairo_move_to(cr, d->x[0], d->y[0]);
        cairo_curve_to(cr, d->x[2], d->y[2], d->x[3], d->y[3], d->x[1], d->y[1]);
        break;
    default:
        cairo_move_to(cr, d->x[0], d->y[0]);
        cairo_line_to(cr, d->x[1], d->y[1]);
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* Files (draw-export.c)                                                    */
/* ------------------------------------------------------------------------ */

/* The largest side of an exported picture, in pixels or points. */
#define FL_DRAW_MAX_SIDE 16384

/* The name of a file's format: format itself, or with NULL the extension
 * of path (after its last dot); NULL when path has none. */
const char *fl__draw_format_name(const char *path, const char *format);

/* Writes the picture render draws to path as PNG, SVG or PDF (format, or
 * path's extension when format is NULL), through fl_output_open(): a
 * regular file is replaced only once the whole picture is written.
 * Refuses an unknown format, a size beyond FL_DRAW_MAX_SIDE a side or an
 * unwritable path with a message, leaving no file behind. */
int fl__draw_write_image(const char *path, const char *format, int width, int height,
                         FlDrawRenderFunc render, void *data, FlError *err);

/* Writes t drawn with opt (NULL: fitted into width x height) as
 * fl_draw_flits() draws f over it, or as fl_draw_deflect() draws d, or
 * with both NULL as fl_draw_routing() draws r (which may be NULL). */
int fl__draw_export_picture(const FlTopology *t, const FlDrawOptions *opt,
                            const FlDrawRouting *r, const FlDrawFlits *f,
                            const FlDrawDeflect *d, const char *path, const char *format,
                            int width, int height, FlError *err);

#endif /* FLITLAB_DRAW_PRIVATE_H */
