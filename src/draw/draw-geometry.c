/* draw-geometry.c — where things are drawn: view fitting, layout/device
 * transforms, the shapes of links and hit testing.
 *
 * All geometry (where a host sits, how a wrap-around link bends) lives here,
 * in small helpers that the drawing, the hit tests and the view fitting
 * share, so what is hit is exactly what is drawn.
 *
 * Geometry is computed in layout units and mapped to device units by hand
 * rather than through a cairo matrix: line widths and glyph sizes are chosen
 * in device units, so they stay readable at every zoom level.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "draw-private.h"

/* Sizes in layout units (one grid step = 1). */
#define SWITCH_HALF 0.2     /* half the side of a switch's square */
#define SWITCH_SHARE 0.4    /* at most this share of the spacing of the switches */
#define SWITCH_SHRINK 0.3   /* but no less than this share of SWITCH_HALF */
#define HOST_RADIUS 0.07
#define HOST_OFFSET 0.32    /* from a switch to a host that has no place of its own */
#define LONG_LINK 1.5       /* grid links longer than this are bent */
#define SPUR_LENGTH 0.42    /* a wrap-around link's spur at each end */
#define ARC_BULGE 0.09      /* height of a long link's arc, per unit of length */

/* Sizes in device units. */
#define HIT_TOLERANCE 4.0
#define MIN_SWITCH_HALF 1.5
#define MIN_HOST_RADIUS 1.6 /* below this hosts are not drawn at all */
#define FIT_MAX_SCALE 96.0

/* ------------------------------------------------------------------------ */
/* Geometry shared by drawing, hit testing and fitting                      */
/* ------------------------------------------------------------------------ */

/* Grids wider than this are not analysed: their links are drawn straight. */
#define MAX_GRID_EXTENT 65536

static int on_grid(double x, double y)
{
    return fabs(x - floor(x + 0.5)) < 1e-6 && fabs(y - floor(y + 0.5)) < 1e-6;
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

static int compare_cells(const void *pa, const void *pb)
{
    const Cell *a = pa, *b = pb;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return (a->y > b->y) - (a->y < b->y);
}

/* Collects the grid points that hold switches, for the test of whether a
 * long link would run through one. On failure there are none, and long
 * links are drawn straight. */
static void cells_init(Geom *g)
{
    int ns = fl_topology_switch_count(g->t), n = 0;
    g->cells = malloc(sizeof *g->cells * (size_t)(ns > 0 ? ns : 1));
    if (!g->cells)
        return;
    for (int i = 0; i < ns; i++) {
        double x, y;
        fl_topology_get_position(g->t, fl_topology_switch_node(g->t, i), &x, &y);
        if (on_grid(x, y) && fabs(x) <= MAX_GRID_EXTENT && fabs(y) <= MAX_GRID_EXTENT)
            g->cells[n++] = (Cell){ grid_index(x), grid_index(y) };
    }
    qsort(g->cells, (size_t)n, sizeof *g->cells, compare_cells);
    g->ncells = n;
}

static int gcd(int a, int b)
{
    while (b) {
        int r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Whether the straight line between grid points a and b passes through a
 * grid point holding a switch. */
static int crosses_switch(const Geom *g, double ax, double ay, double bx, double by)
{
    if (!g->ncells || fabs(ax) > MAX_GRID_EXTENT || fabs(ay) > MAX_GRID_EXTENT
        || fabs(bx) > MAX_GRID_EXTENT || fabs(by) > MAX_GRID_EXTENT)
        return 0;
    int x0 = grid_index(ax), y0 = grid_index(ay);
    int dx = grid_index(bx) - x0, dy = grid_index(by) - y0;
    int steps = gcd(abs(dx), abs(dy));
    for (int k = 1; k < steps; k++) {
        Cell c = { x0 + dx / steps * k, y0 + dy / steps * k };
        if (bsearch(&c, g->cells, (size_t)g->ncells, sizeof c, compare_cells))
            return 1;
    }
    return 0;
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

/* ------------------------------------------------------------------------ */
/* Switch size in crowded layouts                                           */
/* ------------------------------------------------------------------------ */

typedef struct Point {
    double x, y;
    long long cx, cy;    /* the cell of the point in a grid of SPACING_CELL */
} Point;

/* Switches this far apart (along either axis) or more keep full-size
 * squares, so only pairs within one cell of each other matter. */
#define SPACING_CELL (SWITCH_HALF / SWITCH_SHARE)

/* Up to this many switches off the grid are compared with every switch
 * rather than bucketed. */
#define BRUTE_FORCE_OFF_GRID 16

static int compare_points(const void *pa, const void *pb)
{
    const Point *a = pa, *b = pb;
    if (a->cx != b->cx)
        return a->cx < b->cx ? -1 : 1;
    if (a->cy != b->cy)
        return a->cy < b->cy ? -1 : 1;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    return (a->y > b->y) - (a->y < b->y);
}

/* The first of the n sorted points at or after cell (cx, cy). */
static int cell_start(const Point *p, int n, long long cx, long long cy)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (p[mid].cx < cx || (p[mid].cx == cx && p[mid].cy < cy))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static long long cell_index(double v)
{
    /* Far-flung positions share the outermost cells: their points are
     * still compared by true distance, so the answer stays right. */
    return (long long)clamp(floor(v / SPACING_CELL), -1e15, 1e15);
}

static double gap(const Point *a, const Point *b)
{
    return fmax(fabs(a->x - b->x), fabs(a->y - b->y));
}

/* The smallest gap between the n points p, or SPACING_CELL, counting
 * distances below floor_d as floor_d's equals: a crowded layout stops early.
 *
 * Points are bucketed into square cells of SPACING_CELL, so each is only
 * compared with the points of its own and the neighbouring cells. With the
 * duplicates gone, a cell without a pair closer than floor_d holds few
 * points, so the search is O(n log n) whatever the layout. */
static double cell_spacing(Point *p, int n, double floor_d)
{
    double best = SPACING_CELL;
    qsort(p, (size_t)n, sizeof *p, compare_points);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || p[i].x != p[m - 1].x || p[i].y != p[m - 1].y)
            p[m++] = p[i];
    /* Each pair of cells once: the cell itself from the next point on, and
     * the four neighbours that sort after it. */
    static const int next_cells[4][2] = { { 0, 1 }, { 1, -1 }, { 1, 0 }, { 1, 1 } };
    for (int i = 0; i < m && best > floor_d; i++) {
        for (int c = -1; c < 4; c++) {
            long long cx = p[i].cx + (c < 0 ? 0 : next_cells[c][0]);
            long long cy = p[i].cy + (c < 0 ? 0 : next_cells[c][1]);
            int j = c < 0 ? i + 1 : cell_start(p, m, cx, cy);
            for (; j < m && p[j].cx == cx && p[j].cy == cy; j++)
                best = fmin(best, gap(&p[i], &p[j]));
        }
    }
    return best;
}

/* The smallest gap along either axis (what decides whether two squares
 * touch) between switches at different places, if below SPACING_CELL, else
 * SPACING_CELL. Switches sharing a place are left out: no glyph size could
 * tell them apart. Gaps below floor_d are all the same to the caller. */
static double switch_spacing(const FlTopology *t, double floor_d)
{
    int ns = fl_topology_switch_count(t), n = 0, off_grid = 0;
    double best = SPACING_CELL;
    Point *p = malloc(sizeof *p * (size_t)(ns > 0 ? ns : 1));
    if (!p)
        return best;
    /* Switches off the grid go first: distinct grid points are a whole
     * step apart, so every close pair has one of them in it. */
    for (int i = 0; i < ns; i++) {
        double x, y;
        fl_topology_get_position(t, fl_topology_switch_node(t, i), &x, &y);
        if (!isfinite(x) || !isfinite(y))
            continue;
        p[n] = (Point){ x, y, cell_index(x), cell_index(y) };
        if (!on_grid(x, y)) {
            Point swap = p[off_grid];
            p[off_grid++] = p[n];
            p[n] = swap;
        }
        n++;
    }
    if (off_grid > BRUTE_FORCE_OFF_GRID) {
        best = cell_spacing(p, n, floor_d);
    } else {
        /* The regular families, maybe with a few switches moved by hand:
         * those few against all is cheaper than sorting. */
        for (int i = 0; i < off_grid; i++)
            for (int j = i + 1; j < n; j++) {
                double d = gap(&p[i], &p[j]);
                if (d > 0)
                    best = fmin(best, d);
            }
    }
    free(p);
    return best;
}

/* A switch's half side in layout units. Free layouts (irregular networks
 * from a force-directed layout, hand-drawn ones) may put switches closer
 * than a square's side: all squares then shrink alike, so that none covers
 * another and the picture keeps one glyph size. The shrinking stops at
 * SWITCH_SHRINK, so that one nearly coincident pair in a large network
 * does not turn every switch into a dot. */
static double switch_half(const FlTopology *t)
{
    double spacing = switch_spacing(t, SWITCH_HALF * SWITCH_SHRINK / SWITCH_SHARE);
    return fmax(fmin(SWITCH_HALF, spacing * SWITCH_SHARE), SWITCH_HALF * SWITCH_SHRINK);
}

void fl__draw_geom_clear(Geom *g)
{
    for (int d = 0; d < 2; d++) {
        free(g->axis[d].block);
        free(g->axis[d].size);
        free(g->axis[d].next);
    }
    free(g->cells);
}

void fl__draw_geom_init(Geom *g, const FlTopology *t, const FlDrawView *v, int shapes)
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
        cells_init(g);
    }
    g->cx = ns ? sx / ns : 0;
    g->cy = ns ? sy / ns : 0;
    /* Hosts shrink with the switches, so the two keep their proportion. */
    g->marks = g->v.marks > 0 && isfinite(g->v.marks) ? clamp(g->v.marks, 0.5, 4) : 1;
    g->text = 1 + 0.6 * (g->marks - 1);
    double half = switch_half(t), s = g->v.scale;
    half = fmin(half * (1 + 0.25 * (g->marks - 1)), fmax(half, 0.3));
    double host_r = HOST_RADIUS * (half / SWITCH_HALF) * s;
    g->half = fmax(half * s, MIN_SWITCH_HALF);
    g->host_r = host_r >= MIN_HOST_RADIUS ? host_r : 0;
    g->lw = clamp(0.045 * s, 0.75, 3.5) * g->marks;
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

void fl__draw_link_shape(const Geom *g, int l, Shape *s)
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
     * long; its spurs point along that short way round. Which links wrap
     * is the topology's to say: grid-aligned positions alone would make
     * spurs of a hand-drawn network's ordinary links. */
    int px = axis_period(&g->axis[0], s->ax, s->bx);
    int py = axis_period(&g->axis[1], s->ay, s->by);
    double ux = px ? dx - px * floor(dx / px + 0.5) : dx;
    double uy = py ? dy - py * floor(dy / py + 0.5) : dy;
    double ulen = hypot(ux, uy);
    if (ulen > 1e-9 && ulen <= LONG_LINK && fl_topology_link_wraps(g->t, l)) {
        double k = SPUR_LENGTH / ulen;
        s->kind = SHAPE_SPURS;
        s->p1x = s->ax + ux * k, s->p1y = s->ay + uy * k;
        s->p2x = s->bx - ux * k, s->p2y = s->by - uy * k;
        return;
    }
    /* A link along a row from one block to the next (the third dimension
     * of a torus drawn as layers side by side, its wrap-around included)
     * gets spurs too: up and right at the end in the earlier layer, down
     * and left at the other, clear of the grid's own links. */
    int forward = axis_follows(&g->axis[0], s->ax, s->bx);
    if (dy == 0 && !px && (forward || axis_follows(&g->axis[0], s->bx, s->ax))
        && fl_topology_link_dim(g->t, l) == 2) {
        double k = (forward ? 1 : -1) * SPUR_LENGTH / sqrt(2.0);
        s->kind = SHAPE_SPURS;
        s->p1x = s->ax + k, s->p1y = s->ay - k;
        s->p2x = s->bx - k, s->p2y = s->by + k;
        return;
    }
    /* Any other long link bends only to pass the switches in its way. */
    if (!crosses_switch(g, s->ax, s->ay, s->bx, s->by))
        return;
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

void fl__draw_shape_to_device(const Geom *g, const Shape *s, DevShape *d)
{
    to_device(g, s->ax, s->ay, &d->x[0], &d->y[0]);
    to_device(g, s->bx, s->by, &d->x[1], &d->y[1]);
    to_device(g, s->p1x, s->p1y, &d->x[2], &d->y[2]);
    to_device(g, s->p2x, s->p2y, &d->x[3], &d->y[3]);
}

void fl__draw_node_device(const Geom *g, int n, double *x, double *y)
{
    double wx, wy;
    node_world(g->t, n, &wx, &wy);
    to_device(g, wx, wy, x, y);
}

/* Whether node n is drawn (hosts vanish when too small to see). */
int fl__draw_node_shown(const Geom *g, int n)
{
    return fl_topology_node_kind(g->t, n) == FL_NODE_SWITCH || g->host_r > 0;
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
    FlDrawView unit = { 1, 0, 0, 1 };
    Geom g;
    fl__draw_geom_init(&g, t, &unit, 1);
    double box[4] = { 0, 0, 0, 0 };
    int any = 0;
    for (int n = 0; n < fl_topology_node_count(t); n++) {
        double x, y;
        node_world(t, n, &x, &y);
        grow_box(box, &any, x - SWITCH_HALF, y - SWITCH_HALF);
        grow_box(box, &any, x + SWITCH_HALF, y + SWITCH_HALF);
    }
    /* Spurs and arcs reach beyond the nodes: keep them in the picture. */
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        Shape s;
        fl__draw_link_shape(&g, l, &s);
        if (s.kind == SHAPE_SPURS) {
            grow_box(box, &any, s.p1x, s.p1y);
            grow_box(box, &any, s.p2x, s.p2y);
        } else if (s.kind == SHAPE_ARC) {
            grow_box(box, &any, (s.ax + 3 * s.p1x + 3 * s.p2x + s.bx) / 8,
                     (s.ay + 3 * s.p1y + 3 * s.p2y + s.by) / 8);
        }
    }
    fl__draw_geom_clear(&g);
    double margin = fmax(12.0, 0.04 * fmin(width, height));
    double aw = fmax(width - 2 * margin, 1), ah = fmax(height - 2 * margin, 1);
    double bw = fmax(box[2] - box[0], 1e-9), bh = fmax(box[3] - box[1], 1e-9);
    view->marks = 1;
    view->scale = any ? fmin(fmin(aw / bw, ah / bh), FIT_MAX_SCALE) : FIT_MAX_SCALE * 0.75;
    view->tx = width / 2 - view->scale * (box[0] + box[2]) / 2;
    view->ty = height / 2 - view->scale * (box[1] + box[3]) / 2;
}

/* ------------------------------------------------------------------------ */
/* Hit testing                                                              */
/* ------------------------------------------------------------------------ */

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
    if (s->kind == SHAPE_SPURS)
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

int fl_draw_hit_node(const FlTopology *t, const FlDrawView *v, double x, double y)
{
    Geom g;
    fl__draw_geom_init(&g, t, v, 0);
    int best = -1, best_switch = 0;
    double best_gap = HIT_TOLERANCE, best_centre = INFINITY;
    for (int n = 0; n < fl_topology_node_count(t); n++) {
        if (!fl__draw_node_shown(&g, n))
            continue;
        double nx, ny, gap;
        fl__draw_node_device(&g, n, &nx, &ny);
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
    fl__draw_geom_clear(&g);
    return best;
}

int fl_draw_hit_link(const FlTopology *t, const FlDrawView *v, double x, double y)
{
    Geom g;
    fl__draw_geom_init(&g, t, v, 1);
    int best = -1;
    double best_d = HIT_TOLERANCE + g.lw / 2;
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        Shape s;
        DevShape d;
        fl__draw_link_shape(&g, l, &s);
        if (s.host && g.host_r == 0)
            continue;
        fl__draw_shape_to_device(&g, &s, &d);
        double dist = shape_distance(&s, &d, x, y);
        if (dist <= best_d) {
            best = l;
            best_d = dist;
        }
    }
    fl__draw_geom_clear(&g);
    return best;
}
