/* draw-topology.c — a topology drawn with plain cairo.
 *
 * The same code paints the GUI canvas, exported files and test images, so
 * all geometry (where a host sits, how a wrap-around link bends) lives in
 * small helpers that the drawing, the hit tests and the view fitting share.
 *
 * Geometry is computed in layout units and mapped to device units by hand
 * rather than through a cairo matrix: line widths and glyph sizes are chosen
 * in device units, so they stay readable at every zoom level.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "flitlab-draw.h"

#define FL_PI 3.14159265358979323846

/* Sizes in layout units (one grid step = 1). */
#define SWITCH_HALF 0.2     /* half the side of a switch's square */
#define HOST_RADIUS 0.07
#define HOST_OFFSET 0.32    /* from a switch to a host that has no place of its own */
#define LONG_LINK 1.5       /* grid links longer than this are bent */
#define STUB_LENGTH 0.42    /* a wrap-around link's stub at each end */
#define ARC_BULGE 0.09      /* height of a long link's arc, per unit of length */

/* Sizes in device units. */
#define HIT_TOLERANCE 4.0
#define MIN_SWITCH_HALF 1.5
#define MIN_HOST_RADIUS 1.6 /* below this hosts are not drawn at all */
#define MIN_LABEL_FONT 7.5
#define MAX_LABEL_FONT 14.0
#define FIT_MAX_SCALE 96.0
#define EXPORT_MAX_SIDE 16384

/* Batches with more items than this are rasterised with cairo's faster
 * antialiasing: at that density the difference cannot be seen, and it
 * halves the time of a large network's frame. */
#define FAST_BATCH 2500

typedef struct Rgb {
    double r, g, b;
} Rgb;

#define RGB(hex) { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0 }

/* The GNOME palette, as libadwaita uses it. */
typedef struct Palette {
    Rgb background, link, host_link, wrap, switch_fill, switch_border;
    Rgb host_fill, host_border, label, select, hover, band;
} Palette;

static const Palette light_palette = {
    RGB(0xffffff), RGB(0x77767b), RGB(0x9a9996), RGB(0x9141ac), RGB(0x3584e4),
    RGB(0x1a5fb4), RGB(0x57e389), RGB(0x26a269), RGB(0xffffff), RGB(0xff7800),
    RGB(0x62a0ea), RGB(0x1c71d8),
};

static const Palette dark_palette = {
    RGB(0x1e1e1e), RGB(0x9a9996), RGB(0x5e5c64), RGB(0xc061cb), RGB(0x3584e4),
    RGB(0x99c1f1), RGB(0x2ec27e), RGB(0x8ff0a4), RGB(0xffffff), RGB(0xffa348),
    RGB(0x99c1f1), RGB(0x99c1f1),
};

static void set_rgb(cairo_t *cr, Rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

static void set_quality(cairo_t *cr, int items)
{
    cairo_set_antialias(cr, items > FAST_BATCH ? CAIRO_ANTIALIAS_FAST : CAIRO_ANTIALIAS_DEFAULT);
}

/* ------------------------------------------------------------------------ */
/* Geometry shared by drawing, hit testing and fitting                      */
/* ------------------------------------------------------------------------ */

/* The occupied columns (or rows) of a grid, cut into blocks where a
 * column is empty: the layers of a 3D torus, drawn side by side, are
 * separate blocks. A wrap-around link joins the two ends of one block. */
#define MAX_GRID_EXTENT 65536

typedef struct Axis {
    int lo, n;           /* columns lo .. lo + n - 1 */
    int *block;          /* per column: the first column of its block */
    int *size;           /* per column: the number of columns in its block */
    int *next;           /* per column: the first column of the next block,
                          * the last block's next being the first */
} Axis;

/* What one call needs to know about the layout as a whole. */
typedef struct Geom {
    const FlTopology *t;
    FlDrawView v;
    Axis axis[2];        /* x and y; n = 0 when no switch is on the grid */
    double cx, cy;       /* centre of the switches */
    double half;         /* a switch's half side, device units */
    double host_r;       /* a host's radius, device units; 0 = hidden */
    double lw;           /* link width, device units */
} Geom;

static int on_grid(double x, double y)
{
    return fabs(x - floor(x + 0.5)) < 1e-6 && fabs(y - floor(y + 0.5)) < 1e-6;
}

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static int grid_index(double v)
{
    return (int)floor(v + 0.5);
}

/* Finds the blocks of occupied columns along one axis (0 = x, 1 = y). On
 * any failure (no grid, a huge extent, no memory) the axis stays empty and
 * links are simply not bent. */
static void axis_init(Axis *a, const FlTopology *t, int dim)
{
    int ns = fl_topology_switch_count(t), any = 0, lo = 0, hi = 0;
    for (int i = 0; i < ns; i++) {
        double p[2];
        fl_topology_get_position(t, fl_topology_switch_node(t, i), &p[0], &p[1]);
        if (!on_grid(p[0], p[1]) || fabs(p[dim]) > MAX_GRID_EXTENT)
            continue;
        int c = grid_index(p[dim]);
        lo = any && lo < c ? lo : c;
        hi = any && hi > c ? hi : c;
        any = 1;
    }
    if (!any || hi - lo >= MAX_GRID_EXTENT)
        return;
    int n = hi - lo + 1;
    a->block = calloc((size_t)n, sizeof(int));
    a->size = calloc((size_t)n, sizeof(int));
    a->next = calloc((size_t)n, sizeof(int));
    if (!a->block || !a->size || !a->next) {
        free(a->block);
        free(a->size);
        free(a->next);
        a->block = a->size = a->next = NULL;
        return;
    }
    /* Mark occupied columns in size[], then number the runs. */
    for (int i = 0; i < ns; i++) {
        double p[2];
        fl_topology_get_position(t, fl_topology_switch_node(t, i), &p[0], &p[1]);
        if (on_grid(p[0], p[1]) && fabs(p[dim]) <= MAX_GRID_EXTENT)
            a->size[grid_index(p[dim]) - lo] = 1;
    }
    for (int c = 0; c < n;) {
        int end = c;
        while (end < n && a->size[end])
            end++;
        for (int k = c; k < end; k++) {
            a->block[k] = c;
            a->size[k] = end - c;
        }
        c = end > c ? end : c + 1;
    }
    /* Walking down from the right, the next block is the last one seen;
     * the first column (always occupied) closes the cycle. */
    for (int c = n - 1, next = 0; c >= 0; c--) {
        a->next[c] = next;
        if (a->size[c] && a->block[c] == c)
            next = c;
    }
    a->lo = lo;
    a->n = n;
}

/* Whether column v lies in the block that follows u's block. */
static int axis_follows(const Axis *a, double u, double v)
{
    int i = grid_index(u) - a->lo, j = grid_index(v) - a->lo;
    return i >= 0 && j >= 0 && i < a->n && j < a->n && a->size[j] && a->next[i] == a->block[j];
}

/* The period of a wrap-around between columns u and v: the size of their
 * common block, or 0 when they are in different blocks. */
static int axis_period(const Axis *a, double u, double v)
{
    int i = grid_index(u) - a->lo, j = grid_index(v) - a->lo;
    if (i < 0 || j < 0 || i >= a->n || j >= a->n || !a->size[i] || a->block[i] != a->block[j])
        return 0;
    return a->size[i];
}

static void geom_clear(Geom *g)
{
    for (int d = 0; d < 2; d++) {
        free(g->axis[d].block);
        free(g->axis[d].size);
        free(g->axis[d].next);
    }
}

/* Fills g; with shapes = 0 the grid analysis (for bent links) is skipped.
 * Release with geom_clear(). */
static void geom_init(Geom *g, const FlTopology *t, const FlDrawView *v, int shapes)
{
    memset(g, 0, sizeof *g);
    g->t = t;
    g->v = *v;
    if (!(g->v.scale > 0))
        g->v.scale = 1;
    double sx = 0, sy = 0;
    int ns = fl_topology_switch_count(t);
    for (int i = 0; i < ns; i++) {
        double x, y;
        fl_topology_get_position(t, fl_topology_switch_node(t, i), &x, &y);
        sx += x, sy += y;
    }
    if (shapes) {
        axis_init(&g->axis[0], t, 0);
        axis_init(&g->axis[1], t, 1);
    }
    g->cx = ns ? sx / ns : 0;
    g->cy = ns ? sy / ns : 0;
    double s = g->v.scale;
    g->half = fmax(SWITCH_HALF * s, MIN_SWITCH_HALF);
    g->host_r = HOST_RADIUS * s >= MIN_HOST_RADIUS ? HOST_RADIUS * s : 0;
    g->lw = clamp(0.045 * s, 0.75, 3.5);
}

static void to_device(const Geom *g, double wx, double wy, double *dx, double *dy)
{
    *dx = wx * g->v.scale + g->v.tx;
    *dy = wy * g->v.scale + g->v.ty;
}

/* A node's place in layout units. A host that shares its switch's position
 * (files without positions for hosts) is fanned out beside the switch, one
 * step of the fan per host on a lower port, so hosts never hide each other
 * or the switch. */
static void node_world(const FlTopology *t, int n, double *x, double *y)
{
    fl_topology_get_position(t, n, x, y);
    if (fl_topology_node_kind(t, n) != FL_NODE_HOST)
        return;
    int port, s = fl_topology_port_peer(t, n, 0, &port);
    double sx, sy;
    if (s < 0 || fl_topology_get_position(t, s, &sx, &sy) != FL_OK)
        return;
    if (fabs(*x - sx) > 1e-9 || fabs(*y - sy) > 1e-9)
        return;
    int k = 0;
    for (int p = 0; p < port; p++) {
        int o = fl_topology_port_peer(t, s, p, NULL);
        if (o >= 0 && fl_topology_node_kind(t, o) == FL_NODE_HOST)
            k++;
    }
    /* Start down and to the right (y points down), between the grid's
     * straight links and where the generators put hosts too, and turn a
     * little for every further host. */
    double a = FL_PI / 4 + k * (FL_PI / 7);
    *x = sx + HOST_OFFSET * cos(a);
    *y = sy + HOST_OFFSET * sin(a);
}

enum { SHAPE_LINE, SHAPE_STUBS, SHAPE_ARC };

/* A link as drawn, in layout units. STUBS: a wrap-around link, a short
 * stub from each end pointing the way the link leaves the grid (tips p1
 * and p2). ARC: a long link as a cubic curve (controls p1, p2) bulging
 * away from the centre of the network. */
typedef struct Shape {
    int kind;
    int host;            /* one end is a host */
    double ax, ay, bx, by;
    double p1x, p1y, p2x, p2y;
} Shape;

static void link_shape(const Geom *g, int l, Shape *s)
{
    int a, b;
    fl_topology_link_ends(g->t, l, &a, NULL, &b, NULL);
    node_world(g->t, a, &s->ax, &s->ay);
    node_world(g->t, b, &s->bx, &s->by);
    s->kind = SHAPE_LINE;
    s->host = fl_topology_node_kind(g->t, a) == FL_NODE_HOST
              || fl_topology_node_kind(g->t, b) == FL_NODE_HOST;
    double dx = s->bx - s->ax, dy = s->by - s->ay, len = hypot(dx, dy);
    /* Only links between grid points bend: networks laid out freely
     * (irregular ones, hand-drawn ones, moved nodes) are drawn straight. */
    if (s->host || !g->axis[0].n || len <= LONG_LINK || !on_grid(s->ax, s->ay)
        || !on_grid(s->bx, s->by))
        return;
    /* Seen modulo the extent of its block, a wrap-around link is one step
     * long; its stubs point along that short way round. */
    int px = axis_period(&g->axis[0], s->ax, s->bx);
    int py = axis_period(&g->axis[1], s->ay, s->by);
    double ux = px ? dx - px * floor(dx / px + 0.5) : dx;
    double uy = py ? dy - py * floor(dy / py + 0.5) : dy;
    double ulen = hypot(ux, uy);
    if (ulen > 1e-9 && ulen <= LONG_LINK) {
        double k = STUB_LENGTH / ulen;
        s->kind = SHAPE_STUBS;
        s->p1x = s->ax + ux * k, s->p1y = s->ay + uy * k;
        s->p2x = s->bx - ux * k, s->p2y = s->by - uy * k;
        return;
    }
    /* A link along a row from one block to the next (the third dimension
     * of a torus drawn as layers side by side, its wrap-around included)
     * gets stubs too: up and right at the end in the earlier layer, down
     * and left at the other, clear of the grid's own links. */
    int forward = axis_follows(&g->axis[0], s->ax, s->bx);
    if (dy == 0 && !px && (forward || axis_follows(&g->axis[0], s->bx, s->ax))) {
        double k = (forward ? 1 : -1) * STUB_LENGTH / sqrt(2.0);
        s->kind = SHAPE_STUBS;
        s->p1x = s->ax + k, s->p1y = s->ay - k;
        s->p2x = s->bx - k, s->p2y = s->by + k;
        return;
    }
    double nx = -dy / len, ny = dx / len;
    double mx = (s->ax + s->bx) / 2, my = (s->ay + s->by) / 2;
    if ((mx - g->cx) * nx + (my - g->cy) * ny < 0)
        nx = -nx, ny = -ny;
    /* A quadratic curve through the peak, written as a cubic. */
    double qx = mx + nx * 2 * ARC_BULGE * len, qy = my + ny * 2 * ARC_BULGE * len;
    s->kind = SHAPE_ARC;
    s->p1x = s->ax + (qx - s->ax) * 2 / 3, s->p1y = s->ay + (qy - s->ay) * 2 / 3;
    s->p2x = s->bx + (qx - s->bx) * 2 / 3, s->p2y = s->by + (qy - s->by) * 2 / 3;
}

/* The shape's points in device units: a, b, p1, p2. */
typedef struct DevShape {
    double x[4], y[4];
} DevShape;

static void shape_to_device(const Geom *g, const Shape *s, DevShape *d)
{
    to_device(g, s->ax, s->ay, &d->x[0], &d->y[0]);
    to_device(g, s->bx, s->by, &d->x[1], &d->y[1]);
    to_device(g, s->p1x, s->p1y, &d->x[2], &d->y[2]);
    to_device(g, s->p2x, s->p2y, &d->x[3], &d->y[3]);
}

static void shape_path(cairo_t *cr, const Shape *s, const DevShape *d)
{
    switch (s->kind) {
    case SHAPE_STUBS:
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

/* The device rectangle a drawing may touch: the clip, or everything. */
typedef struct Rect {
    double x1, y1, x2, y2;
} Rect;

static int shape_visible(const Shape *s, const DevShape *d, const Rect *clip, double pad)
{
    int n = s->kind == SHAPE_LINE ? 2 : 4;
    double x1 = d->x[0], x2 = d->x[0], y1 = d->y[0], y2 = d->y[0];
    for (int i = 1; i < n; i++) {
        x1 = fmin(x1, d->x[i]), x2 = fmax(x2, d->x[i]);
        y1 = fmin(y1, d->y[i]), y2 = fmax(y2, d->y[i]);
    }
    return x2 + pad >= clip->x1 && x1 - pad <= clip->x2 && y2 + pad >= clip->y1
           && y1 - pad <= clip->y2;
}

static int point_visible(double x, double y, const Rect *clip, double pad)
{
    return x + pad >= clip->x1 && x - pad <= clip->x2 && y + pad >= clip->y1
           && y - pad <= clip->y2;
}

static double segment_distance(double px, double py, double ax, double ay, double bx,
                               double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    double u = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
    u = clamp(u, 0, 1);
    return hypot(px - (ax + u * dx), py - (ay + u * dy));
}

static double shape_distance(const Shape *s, const DevShape *d, double x, double y)
{
    if (s->kind == SHAPE_LINE)
        return segment_distance(x, y, d->x[0], d->y[0], d->x[1], d->y[1]);
    if (s->kind == SHAPE_STUBS)
        return fmin(segment_distance(x, y, d->x[0], d->y[0], d->x[2], d->y[2]),
                    segment_distance(x, y, d->x[1], d->y[1], d->x[3], d->y[3]));
    /* The arc, flattened into short chords. */
    double best = INFINITY, lx = d->x[0], ly = d->y[0];
    for (int i = 1; i <= 24; i++) {
        double u = i / 24.0, v = 1 - u;
        double b0 = v * v * v, b1 = 3 * v * v * u, b2 = 3 * v * u * u, b3 = u * u * u;
        double cx = b0 * d->x[0] + b1 * d->x[2] + b2 * d->x[3] + b3 * d->x[1];
        double cy = b0 * d->y[0] + b1 * d->y[2] + b2 * d->y[3] + b3 * d->y[1];
        best = fmin(best, segment_distance(x, y, lx, ly, cx, cy));
        lx = cx, ly = cy;
    }
    return best;
}

/* ------------------------------------------------------------------------ */
/* Views                                                                    */
/* ------------------------------------------------------------------------ */

void fl_draw_node_position(const FlTopology *t, int node, double *x, double *y)
{
    *x = *y = 0;
    if (node >= 0 && node < fl_topology_node_count(t))
        node_world(t, node, x, y);
}

void fl_draw_options_init(FlDrawOptions *o)
{
    memset(o, 0, sizeof *o);
    o->view.scale = 1.0;
    o->selected_node = o->selected_link = -1;
    o->hover_node = o->hover_link = -1;
    o->connect_from = -1;
    o->show_labels = 1;
}

void fl_draw_view_to_device(const FlDrawView *v, double wx, double wy, double *dx,
                            double *dy)
{
    *dx = wx * v->scale + v->tx;
    *dy = wy * v->scale + v->ty;
}

void fl_draw_view_to_world(const FlDrawView *v, double dx, double dy, double *wx,
                           double *wy)
{
    double s = v->scale > 0 ? v->scale : 1;
    *wx = (dx - v->tx) / s;
    *wy = (dy - v->ty) / s;
}

static void grow_box(double box[4], int *any, double x, double y)
{
    if (!*any || x < box[0]) box[0] = x;
    if (!*any || y < box[1]) box[1] = y;
    if (!*any || x > box[2]) box[2] = x;
    if (!*any || y > box[3]) box[3] = y;
    *any = 1;
}

void fl_draw_view_fit(const FlTopology *t, double width, double height, FlDrawView *view)
{
    FlDrawView unit = { 1, 0, 0 };
    Geom g;
    geom_init(&g, t, &unit, 1);
    double box[4] = { 0, 0, 0, 0 };
    int any = 0;
    for (int n = 0; n < fl_topology_node_count(t); n++) {
        double x, y;
        node_world(t, n, &x, &y);
        grow_box(box, &any, x - SWITCH_HALF, y - SWITCH_HALF);
        grow_box(box, &any, x + SWITCH_HALF, y + SWITCH_HALF);
    }
    /* Stubs and arcs reach beyond the nodes: keep them in the picture. */
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        Shape s;
        link_shape(&g, l, &s);
        if (s.kind == SHAPE_STUBS) {
            grow_box(box, &any, s.p1x, s.p1y);
            grow_box(box, &any, s.p2x, s.p2y);
        } else if (s.kind == SHAPE_ARC) {
            grow_box(box, &any, (s.ax + 3 * s.p1x + 3 * s.p2x + s.bx) / 8,
                     (s.ay + 3 * s.p1y + 3 * s.p2y + s.by) / 8);
        }
    }
    geom_clear(&g);
    double margin = fmax(12.0, 0.04 * fmin(width, height));
    double aw = fmax(width - 2 * margin, 1), ah = fmax(height - 2 * margin, 1);
    double bw = fmax(box[2] - box[0], 1e-9), bh = fmax(box[3] - box[1], 1e-9);
    view->scale = any ? fmin(fmin(aw / bw, ah / bh), FIT_MAX_SCALE) : FIT_MAX_SCALE * 0.75;
    view->tx = width / 2 - view->scale * (box[0] + box[2]) / 2;
    view->ty = height / 2 - view->scale * (box[1] + box[3]) / 2;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

static void rounded_square(cairo_t *cr, double x, double y, double half)
{
    if (half < 3) {
        cairo_rectangle(cr, x - half, y - half, 2 * half, 2 * half);
        return;
    }
    double r = half * 0.45;
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + half - r, y - half + r, r, -FL_PI / 2, 0);
    cairo_arc(cr, x + half - r, y + half - r, r, 0, FL_PI / 2);
    cairo_arc(cr, x - half + r, y + half - r, r, FL_PI / 2, FL_PI);
    cairo_arc(cr, x - half + r, y - half + r, r, FL_PI, 3 * FL_PI / 2);
    cairo_close_path(cr);
}

static void node_device(const Geom *g, int n, double *x, double *y)
{
    double wx, wy;
    node_world(g->t, n, &wx, &wy);
    to_device(g, wx, wy, x, y);
}

/* Whether node n is drawn (hosts vanish when too small to see). */
static int node_shown(const Geom *g, int n)
{
    return fl_topology_node_kind(g->t, n) == FL_NODE_SWITCH || g->host_r > 0;
}

/* Adds the visible links of one style to the path: host links (hosts = 1),
 * straight switch links or bent ones (bent = 1); with dots = 1 the dots at
 * the tips of stubs instead of the links. Returns how many were added. */
static int links_path(cairo_t *cr, const Geom *g, const Rect *clip, int hosts, int bent,
                      int dots)
{
    int added = 0;
    double dot = fmax(1.2, g->lw * 1.1);
    for (int l = 0; l < fl_topology_link_count(g->t); l++) {
        Shape s;
        DevShape d;
        link_shape(g, l, &s);
        if (s.host != hosts || (!hosts && (s.kind != SHAPE_LINE) != bent))
            continue;
        if (dots && s.kind != SHAPE_STUBS)
            continue;
        shape_to_device(g, &s, &d);
        if (!shape_visible(&s, &d, clip, g->lw + dot))
            continue;
        if (dots) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, d.x[2], d.y[2], dot, 0, 2 * FL_PI);
            cairo_new_sub_path(cr);
            cairo_arc(cr, d.x[3], d.y[3], dot, 0, 2 * FL_PI);
        } else {
            shape_path(cr, &s, &d);
        }
        added++;
    }
    return added;
}

/* One stroke per link style: host links, plain switch links, bent ones.
 * Bent links have their own colour and a dot at the tip of each stub, so
 * the eye pairs the stubs at opposite edges of the grid. Butt caps: the
 * ends hide under the nodes, and round ones cost time. */
static void draw_links(cairo_t *cr, const Geom *g, const Palette *pal, const Rect *clip)
{
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    if (g->host_r > 0) {
        set_quality(cr, links_path(cr, g, clip, 1, 0, 0));
        set_rgb(cr, pal->host_link);
        cairo_set_line_width(cr, fmax(0.75, g->lw * 0.7));
        cairo_stroke(cr);
    }
    set_quality(cr, links_path(cr, g, clip, 0, 0, 0));
    set_rgb(cr, pal->link);
    cairo_set_line_width(cr, g->lw);
    cairo_stroke(cr);

    set_quality(cr, links_path(cr, g, clip, 0, 1, 0));
    set_rgb(cr, pal->wrap);
    cairo_stroke(cr);
    set_quality(cr, links_path(cr, g, clip, 0, 1, 1));
    cairo_fill(cr);
}

/* Fills (and, when large enough to show, outlines) the current path. */
static void fill_outlined(cairo_t *cr, int items, Rgb fill, Rgb border, double width,
                          int outline)
{
    set_quality(cr, items);
    set_rgb(cr, fill);
    if (!outline) {
        cairo_fill(cr);
        return;
    }
    cairo_fill_preserve(cr);
    set_rgb(cr, border);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

static void draw_nodes(cairo_t *cr, const Geom *g, const Palette *pal, const Rect *clip)
{
    double border = clamp(g->lw * 0.6, 0.75, 1.5);
    int items = 0;
    if (g->host_r > 0) {
        for (int i = 0; i < fl_topology_host_count(g->t); i++) {
            double x, y;
            node_device(g, fl_topology_host_node(g->t, i), &x, &y);
            if (!point_visible(x, y, clip, g->host_r + border))
                continue;
            cairo_new_sub_path(cr);
            cairo_arc(cr, x, y, g->host_r, 0, 2 * FL_PI);
            items++;
        }
        fill_outlined(cr, items, pal->host_fill, pal->host_border, border, g->host_r >= 3);
    }
    items = 0;
    for (int i = 0; i < fl_topology_switch_count(g->t); i++) {
        double x, y;
        node_device(g, fl_topology_switch_node(g->t, i), &x, &y);
        if (!point_visible(x, y, clip, g->half + border))
            continue;
        rounded_square(cr, x, y, g->half);
        items++;
    }
    fill_outlined(cr, items, pal->switch_fill, pal->switch_border, border, g->half >= 3);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
}

/* Switch ids, only when a label fits inside its square. */
static void draw_labels(cairo_t *cr, const Geom *g, const Palette *pal, const Rect *clip)
{
    double font = fmin(g->half * 0.95, MAX_LABEL_FONT);
    if (font < MIN_LABEL_FONT)
        return;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, font);
    set_rgb(cr, pal->label);
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    for (int i = 0; i < fl_topology_switch_count(g->t); i++) {
        int n = fl_topology_switch_node(g->t, i);
        double x, y;
        node_device(g, n, &x, &y);
        if (!point_visible(x, y, clip, g->half))
            continue;
        char text[16];
        snprintf(text, sizeof text, "%d", n);
        cairo_text_extents_t te;
        cairo_text_extents(cr, text, &te);
        if (te.x_advance > g->half * 1.8)
            continue;
        cairo_move_to(cr, x - te.x_advance / 2, y + (fe.ascent - fe.descent) / 2);
        cairo_show_text(cr, text);
    }
}

static void outline_node(cairo_t *cr, const Geom *g, int n, Rgb c, double width)
{
    if (n < 0 || n >= fl_topology_node_count(g->t) || !node_shown(g, n))
        return;
    double x, y;
    node_device(g, n, &x, &y);
    if (fl_topology_node_kind(g->t, n) == FL_NODE_SWITCH) {
        rounded_square(cr, x, y, g->half + width);
    } else {
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, g->host_r + width, 0, 2 * FL_PI);
    }
    set_rgb(cr, c);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

static void outline_link(cairo_t *cr, const Geom *g, int l, Rgb c, double width)
{
    if (l < 0 || l >= fl_topology_link_count(g->t))
        return;
    Shape s;
    DevShape d;
    link_shape(g, l, &s);
    if (s.host && g->host_r == 0)
        return;
    shape_to_device(g, &s, &d);
    shape_path(cr, &s, &d);
    set_rgb(cr, c);
    cairo_set_line_width(cr, width);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_stroke(cr);
}

/* Hovered and selected links, under the nodes so labels stay readable. */
static void draw_link_highlights(cairo_t *cr, const Geom *g, const Palette *pal,
                                 const FlDrawOptions *o)
{
    if (o->hover_link != o->selected_link)
        outline_link(cr, g, o->hover_link, pal->hover, g->lw * 2.2);
    outline_link(cr, g, o->selected_link, pal->select, g->lw * 2.4);
}

/* Hovered and selected nodes, and the rubber band of a connect drag. */
static void draw_node_highlights(cairo_t *cr, const Geom *g, const Palette *pal,
                                 const FlDrawOptions *o)
{
    double ring = clamp(g->half * 0.25, 1.5, 3.0);
    if (o->hover_node != o->selected_node)
        outline_node(cr, g, o->hover_node, pal->hover, ring);
    outline_node(cr, g, o->selected_node, pal->select, ring);

    int from = o->connect_from;
    if (from >= 0 && from < fl_topology_node_count(g->t)) {
        double x, y, dash = 6;
        node_device(g, from, &x, &y);
        set_rgb(cr, pal->band);
        cairo_set_line_width(cr, fmax(1.5, g->lw * 1.4));
        cairo_set_dash(cr, &dash, 1, 0);
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, o->connect_x, o->connect_y);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_arc(cr, o->connect_x, o->connect_y, 3.5, 0, 2 * FL_PI);
        cairo_fill(cr);
    }
}

void fl_draw_topology(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o)
{
    FlDrawOptions defaults;
    if (!o) {
        fl_draw_options_init(&defaults);
        o = &defaults;
    }
    const Palette *pal = o->dark ? &dark_palette : &light_palette;
    Geom g;
    geom_init(&g, t, &o->view, 1);
    Rect clip;
    cairo_clip_extents(cr, &clip.x1, &clip.y1, &clip.x2, &clip.y2);

    cairo_save(cr);
    set_rgb(cr, pal->background);
    cairo_paint(cr);
    if (t) {
        cairo_new_path(cr);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        draw_links(cr, &g, pal, &clip);
        draw_link_highlights(cr, &g, pal, o);
        draw_nodes(cr, &g, pal, &clip);
        if (o->show_labels)
            draw_labels(cr, &g, pal, &clip);
        draw_node_highlights(cr, &g, pal, o);
    }
    cairo_restore(cr);
    geom_clear(&g);
}

/* ------------------------------------------------------------------------ */
/* Hit testing                                                              */
/* ------------------------------------------------------------------------ */

int fl_draw_hit_node(const FlTopology *t, const FlDrawView *v, double x, double y)
{
    Geom g;
    geom_init(&g, t, v, 0);
    int best = -1, best_switch = 0;
    double best_gap = HIT_TOLERANCE, best_centre = INFINITY;
    for (int n = 0; n < fl_topology_node_count(t); n++) {
        if (!node_shown(&g, n))
            continue;
        double nx, ny, gap;
        node_device(&g, n, &nx, &ny);
        int is_switch = fl_topology_node_kind(t, n) == FL_NODE_SWITCH;
        double centre = hypot(x - nx, y - ny);
        if (is_switch)
            gap = hypot(fmax(fabs(x - nx) - g.half, 0), fmax(fabs(y - ny) - g.half, 0));
        else
            gap = fmax(centre - g.host_r, 0);
        if (gap > HIT_TOLERANCE)
            continue;
        /* The smallest gap wins; on a tie (the pointer inside both), the
         * switch, then the nearer centre. */
        int better = best < 0 || gap < best_gap - 1e-9
                     || (gap < best_gap + 1e-9
                         && (is_switch > best_switch
                             || (is_switch == best_switch && centre < best_centre)));
        if (better) {
            best = n, best_gap = gap, best_switch = is_switch, best_centre = centre;
        }
    }
    geom_clear(&g);
    return best;
}

int fl_draw_hit_link(const FlTopology *t, const FlDrawView *v, double x, double y)
{
    Geom g;
    geom_init(&g, t, v, 1);
    int best = -1;
    double best_d = HIT_TOLERANCE + g.lw / 2;
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        Shape s;
        DevShape d;
        link_shape(&g, l, &s);
        if (s.host && g.host_r == 0)
            continue;
        shape_to_device(&g, &s, &d);
        double dist = shape_distance(&s, &d, x, y);
        if (dist <= best_d) {
            best = l;
            best_d = dist;
        }
    }
    geom_clear(&g);
    return best;
}

/* ------------------------------------------------------------------------ */
/* Export                                                                   */
/* ------------------------------------------------------------------------ */

enum { FORMAT_PNG, FORMAT_SVG, FORMAT_PDF };

static const char *const format_names[] = { "png", "svg", "pdf" };

static int parse_format(const char *path, const char *format, int *out, FlError *err)
{
    const char *name = format;
    if (!name) {
        const char *slash = strrchr(path, '/');
        const char *dot = strrchr(slash ? slash : path, '.');
        if (!dot)
            return fl_error_set(err, FL_EINVAL,
                                "cannot tell the image format of '%s': name it .png, .svg or .pdf",
                                path);
        name = dot + 1;
    }
    for (int i = 0; i < 3; i++)
        if (strcasecmp(name, format_names[i]) == 0) {
            *out = i;
            return FL_OK;
        }
    return fl_error_set(err, FL_EINVAL,
                        "unknown image format '%s' (expected png, svg or pdf)", name);
}

static cairo_status_t write_stream(void *closure, const unsigned char *data,
                                   unsigned int length)
{
    return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS
                                                       : CAIRO_STATUS_WRITE_ERROR;
}

/* Opens a new temporary file beside path, so the export appears whole or
 * not at all: it is renamed over path only once everything is written. */
static FILE *open_temporary(const char *path, char *tmp, size_t size, FlError *err)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        snprintf(tmp, size, "%s.%ld-%d.tmp", path, (long)getpid(), attempt);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            break;
        FILE *f = fdopen(fd, "wb");
        if (!f) {
            close(fd);
            unlink(tmp);
            break;
        }
        return f;
    }
    fl_error_set(err, FL_EIO, "cannot write %s: %s", path, strerror(errno));
    return NULL;
}

static cairo_status_t render(cairo_surface_t *surface, const FlTopology *t,
                             const FlDrawOptions *o)
{
    cairo_t *cr = cairo_create(surface);
    fl_draw_topology(cr, t, o);
    cairo_status_t status = cairo_status(cr);
    cairo_destroy(cr);
    return status;
}

int fl_draw_export_with_options(const FlTopology *t, const FlDrawOptions *opt,
                                const char *path, const char *format, int width,
                                int height, FlError *err)
{
    int fmt = FORMAT_PNG, rc;
    if (!t || !path || !*path)
        return fl_error_set(err, FL_EINVAL, "nothing to export or no file name");
    if ((rc = parse_format(path, format, &fmt, err)) != FL_OK)
        return rc;
    if (width < 1 || height < 1 || width > EXPORT_MAX_SIDE || height > EXPORT_MAX_SIDE)
        return fl_error_set(err, FL_ERANGE, "image size %dx%d is out of range (1 to %d a side)",
                            width, height, EXPORT_MAX_SIDE);
    FlDrawOptions o;
    if (opt) {
        o = *opt;
    } else {
        fl_draw_options_init(&o);
        fl_draw_view_fit(t, width, height, &o.view);
    }

    size_t size = strlen(path) + 32;
    char *tmp = malloc(size);
    if (!tmp)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    FILE *f = open_temporary(path, tmp, size, err);
    if (!f) {
        free(tmp);
        return FL_EIO;
    }

    cairo_surface_t *surface;
    if (fmt == FORMAT_PNG)
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    else if (fmt == FORMAT_SVG)
        surface = cairo_svg_surface_create_for_stream(write_stream, f, width, height);
    else
        surface = cairo_pdf_surface_create_for_stream(write_stream, f, width, height);
    cairo_status_t status = cairo_surface_status(surface);
    if (status == CAIRO_STATUS_SUCCESS)
        status = render(surface, t, &o);
    if (status == CAIRO_STATUS_SUCCESS && fmt == FORMAT_PNG)
        status = cairo_surface_write_to_png_stream(surface, write_stream, f);
    cairo_surface_finish(surface);
    if (status == CAIRO_STATUS_SUCCESS)
        status = cairo_surface_status(surface);
    cairo_surface_destroy(surface);

    int write_errno = 0;
    if (fclose(f) != 0)
        write_errno = errno;
    if (status == CAIRO_STATUS_SUCCESS && !write_errno && rename(tmp, path) != 0)
        write_errno = errno;
    if (status != CAIRO_STATUS_SUCCESS || write_errno) {
        unlink(tmp);
        free(tmp);
        if (status == CAIRO_STATUS_NO_MEMORY)
            return fl_error_set(err, FL_ENOMEM, "out of memory drawing a %dx%d image",
                                width, height);
        return fl_error_set(err, FL_EIO, "cannot write %s: %s", path,
                            write_errno ? strerror(write_errno)
                                        : cairo_status_to_string(status));
    }
    free(tmp);
    return FL_OK;
}

int fl_draw_export(const FlTopology *t, const char *path, const char *format, int width,
                   int height, FlError *err)
{
    return fl_draw_export_with_options(t, NULL, path, format, width, height, err);
}
