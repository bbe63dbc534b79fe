/* draw-turns.c — the prohibited turns of a routing, drawn as arcs around
 * each switch: their layout, the drawing, the hovered turn of the turn
 * editor and hit testing on the arcs.
 */
#include <math.h>
#include <stdlib.h>

#include "draw-routing-private.h"

/* Switches with more switch links than this get no turn arcs: the 120
 * arcs of 16 links are already more than anyone can read. */
#define MAX_TURN_DEGREE 16
#define MAX_ARCS (MAX_TURN_DEGREE * (MAX_TURN_DEGREE - 1) / 2)
#define MIN_TURN_HALF 2.5    /* switches drawn smaller than this get no arcs */

/* ------------------------------------------------------------------------ */
/* The arcs of the turns at a switch                                        */
/* ------------------------------------------------------------------------ */
/*
 * Every unordered pair of a switch's links has one arc, centred on the
 * switch, across the narrower angle between the two links. Arcs are given
 * levels (radii) by a greedy colouring of their angular intervals, the
 * narrowest first, so arcs of one level never overlap: on a 4-link torus
 * switch the four corners are level 0 and the two straight-through pairs
 * levels 1 and 2. The layout depends on the geometry alone, not on which
 * turns are prohibited, so hit testing finds exactly what drawing shows.
 */

typedef struct Arc {
    int p0, p1;                 /* ports of the links at its start and its end */
    double a0, span;            /* from device angle a0 to a0 + span (radians) */
    int level;
} Arc;

typedef struct Ring {
    double x, y;                /* the switch, device units */
    int n;
    Arc arc[MAX_ARCS];
} Ring;

static double angle_mod(double a)
{
    a = fmod(a, 2 * FL_PI);
    return a < 0 ? a + 2 * FL_PI : a;
}

static int arcs_overlap(const Arc *a, const Arc *b)
{
    return angle_mod(b->a0 - a->a0) < a->span - 1e-6 || angle_mod(a->a0 - b->a0) < b->span - 1e-6;
}

static int compare_arcs(const void *pa, const void *pb)
{
    const Arc *a = pa, *b = pb;
    if (fabs(a->span - b->span) > 1e-9)
        return a->span < b->span ? -1 : 1;
    if (a->a0 != b->a0)
        return a->a0 < b->a0 ? -1 : 1;
    return a->p0 - b->p0;
}

/* The direction in which the link on port p leaves switch sw, as a device
 * angle, or 0 when the port holds no switch link. */
static int port_angle(const Scene *sc, int sw, int p, double *angle)
{
    const FlTopology *t = sc->g.t;
    int l = fl_topology_port_link(t, sw, p);
    if (l < 0 || !is_switch_link(t, l))
        return 0;
    int a, pa;
    Shape s;
    DevShape d;
    double x, y, tx, ty;
    fl_topology_link_ends(t, l, &a, &pa, NULL, NULL);
    fl__draw_scene_link(sc, l, &s, &d);
    int at_a = a == sw && pa == p;
    fl__draw_shape_at(&s, &d, at_a ? 0 : 1, &x, &y, &tx, &ty);
    *angle = at_a ? atan2(ty, tx) : atan2(-ty, -tx);
    return 1;
}

/* Lays out the arcs of switch sw. Returns 0 when it has too many switch
 * links to draw them. */
static int ring_build(const Scene *sc, int sw, Ring *ring)
{
    const Geom *g = &sc->g;
    struct {
        int port;
        double angle;
    } end[MAX_TURN_DEGREE];
    int d = 0;
    ring->n = 0;
    fl__draw_node_device(g, sw, &ring->x, &ring->y);
    for (int p = 0; p < fl_topology_node_ports(g->t, sw); p++) {
        double a;
        if (!port_angle(sc, sw, p, &a))
            continue;
        if (d == MAX_TURN_DEGREE)
            return 0;
        end[d].port = p;
        end[d].angle = a;
        d++;
    }
    for (int i = 0; i < d; i++) {
        for (int j = i + 1; j < d; j++) {
            Arc *arc = &ring->arc[ring->n++];
            double s = angle_mod(end[j].angle - end[i].angle);
            /* The narrower way round; straight through, clockwise on
             * screen from the lower port. */
            int forward = s < FL_PI + 1e-6;
            arc->p0 = forward ? end[i].port : end[j].port;
            arc->p1 = forward ? end[j].port : end[i].port;
            arc->a0 = forward ? end[i].angle : end[j].angle;
            arc->span = forward ? s : 2 * FL_PI - s;
            arc->level = 0;
        }
    }
    qsort(ring->arc, (size_t)ring->n, sizeof ring->arc[0], compare_arcs);
    for (int i = 0; i < ring->n; i++) {
        for (int j = 0; j < i; j++) {
            if (ring->arc[j].level == ring->arc[i].level && arcs_overlap(&ring->arc[i], &ring->arc[j])) {
                ring->arc[i].level++;
                j = -1; /* the new level may clash with an arc already passed */
            }
        }
    }
    return 1;
}

static double arc_radius(const Sizes *z, const Arc *arc)
{
    return z->r0 + arc->level * z->step;
}

/* The drawn part of an arc: a little short of the two links, so that an
 * arrow head's tip ends at the link instead of over it. */
static void arc_extent(const Sizes *z, const Arc *arc, double *from, double *to)
{
    double r = arc_radius(z, arc);
    double inset = fmin(arc->span * 0.15, 0.6 * z->arc_w / r);
    *from = arc->a0 + inset;
    *to = arc->a0 + arc->span - inset;
}

/* Adds an arc to the path with arrow heads at its start and/or end
 * (heads: bit 0 = at the end, bit 1 = at the start); the heads go to
 * heads_cr's path when it is given, else nowhere. */
static void arc_path(cairo_t *cr, cairo_t *heads_cr, const Ring *ring, const Arc *arc,
                     const Sizes *z, int heads, double head)
{
    double r = arc_radius(z, arc), from, to;
    arc_extent(z, arc, &from, &to);
    /* The stroke stops under the middle of a head, so its end does not
     * poke out of the tip. */
    double cut = fmin(head * 0.5 / r, (to - from) * 0.3);
    double s = from + ((heads & 2) ? cut : 0), e = to - ((heads & 1) ? cut : 0);
    cairo_new_sub_path(cr);
    cairo_arc(cr, ring->x, ring->y, r, s, e);
    if (!heads_cr)
        return;
    if (heads & 1)
        fl__draw_head_path(heads_cr, ring->x + r * cos(to), ring->y + r * sin(to), -sin(to),
                           cos(to), head);
    if (heads & 2)
        fl__draw_head_path(heads_cr, ring->x + r * cos(from), ring->y + r * sin(from),
                           sin(from), -cos(from), head);
}

/* ------------------------------------------------------------------------ */
/* Prohibited turns                                                         */
/* ------------------------------------------------------------------------ */

/* Strokes and fills one batch of arcs, the path in cr and the heads in
 * heads, over a thin halo of the background so they stand out from the
 * links they cross. */
static void finish_batch(cairo_t *cr, cairo_t *heads, Rgba colour, Rgba halo, double width)
{
    cairo_path_t *arcs = cairo_copy_path(cr);
    cairo_path_t *tips = cairo_copy_path(heads);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    for (int pass = 0; pass < 2; pass++) {
        cairo_new_path(cr);
        cairo_append_path(cr, arcs);
        set_colour(cr, pass ? colour : halo);
        cairo_set_line_width(cr, pass ? width : width + 2);
        cairo_stroke(cr);
        cairo_append_path(cr, tips);
        if (pass) {
            cairo_fill(cr);
        } else {
            cairo_set_line_width(cr, 2);
            cairo_stroke(cr);
        }
    }
    cairo_path_destroy(arcs);
    cairo_path_destroy(tips);
    cairo_new_path(heads);
}

void fl__draw_turns(const Ctx *c)
{
    const Geom *g = c->g;
    if (g->half < MIN_TURN_HALF)
        return;
    Ring *ring = malloc(sizeof *ring);
    cairo_t *heads = fl__draw_path_collector();
    if (!ring || cairo_status(heads) != CAIRO_STATUS_SUCCESS) {
        free(ring);
        cairo_destroy(heads);
        return;
    }
    double pad = c->z.r0 + 8 * c->z.step;
    /* Two passes, one per colour: single prohibited turns, then PPT
     * pairs, each one stroke and one fill. */
    for (int ppt = 0; ppt <= 1; ppt++) {
        cairo_new_path(c->cr);
        for (int i = 0; i < fl_topology_switch_count(c->t); i++) {
            int sw = fl_topology_switch_node(c->t, i);
            double x, y;
            fl__draw_node_device(g, sw, &x, &y);
            if (!box_near(&c->clip, x, y, pad) || !ring_build(c->sc, sw, ring))
                continue;
            for (int k = 0; k < ring->n; k++) {
                const Arc *arc = &ring->arc[k];
                int fwd = fl_routing_turn_prohibited(c->routing, sw, arc->p0, arc->p1) > 0;
                int back = fl_routing_turn_prohibited(c->routing, sw, arc->p1, arc->p0) > 0;
                if ((fwd && back) != ppt || !(fwd || back))
                    continue;
                arc_path(c->cr, heads, ring, arc, &c->z, (fwd ? 1 : 0) | (back ? 2 : 0),
                         c->z.head);
            }
        }
        finish_batch(c->cr, heads, ppt ? c->col->ppt : c->col->turn, c->col->background,
                     c->z.arc_w * (ppt ? 1.3 : 1.0));
    }
    cairo_destroy(heads);
    free(ring);
}

/* The turn being edited: faint arcs for every turn of its switch, and the
 * turn itself bold, its head at the link it leaves by. */
void fl__draw_hover_turn(const Ctx *c)
{
    const FlTurn *h = &c->r->hover_turn;
    if (h->sw < 0 || h->sw >= fl_topology_node_count(c->t)
        || fl_topology_node_kind(c->t, h->sw) != FL_NODE_SWITCH || c->g->half < MIN_TURN_HALF)
        return;
    Ring *ring = malloc(sizeof *ring);
    if (!ring || !ring_build(c->sc, h->sw, ring)) {
        free(ring);
        return;
    }
    cairo_t *cr = c->cr;
    cairo_new_path(cr);
    for (int k = 0; k < ring->n; k++)
        arc_path(cr, NULL, ring, &ring->arc[k], &c->z, 0, 0);
    set_colour(cr, c->col->guide);
    cairo_set_line_width(cr, fmax(1.0, c->z.arc_w * 0.5));
    cairo_stroke(cr);
    for (int k = 0; k < ring->n; k++) {
        const Arc *arc = &ring->arc[k];
        int heads = arc->p0 == h->in_port && arc->p1 == h->out_port   ? 1
                    : arc->p1 == h->in_port && arc->p0 == h->out_port ? 2
                                                                      : 0;
        if (!heads)
            continue;
        cairo_t *head = fl__draw_path_collector();
        arc_path(cr, head, ring, arc, &c->z, heads, c->z.head * 1.15);
        finish_batch(cr, head, c->col->hover, c->col->background, c->z.arc_w * 1.4);
        cairo_destroy(head);
    }
    free(ring);
}

/* The legend's picture of a turn: one arc of a quarter turn and a bit
 * around (x, y), with the head of a prohibited turn or the two of a PPT
 * pair, over a halo of the legend's fill. */
void fl__draw_turn_sample(const Ctx *c, double x, double y, double radius, double width,
                          int ppt)
{
    Ring ring = { x, y, 1, { { 0, 1, -0.85 * FL_PI, 0.7 * FL_PI, 0 } } };
    Sizes z = c->z;
    z.r0 = radius, z.step = 0, z.arc_w = width;
    cairo_t *heads = fl__draw_path_collector();
    arc_path(c->cr, heads, &ring, &ring.arc[0], &z, ppt ? 3 : 1, 6);
    finish_batch(c->cr, heads, ppt ? c->col->ppt : c->col->turn, c->col->legend_fill,
                 ppt ? width * 1.3 : width);
    cairo_destroy(heads);
}

/* ------------------------------------------------------------------------ */
/* Hit testing                                                              */
/* ------------------------------------------------------------------------ */

int fl_draw_hit_turn(const FlTopology *t, const FlDrawView *v, const FlDrawRouting *r,
                     double x, double y, FlTurn *turn)
{
    Scene sc;
    Sizes z;
    Ring *ring = malloc(sizeof *ring);
    int best_sw = -1;
    if (!t || !v || !ring) {
        free(ring);
        return -1;
    }
    fl__draw_scene_init(&sc, t, v, fl__draw_routing_bows(t, r));
    fl__draw_sizes_init(&z, &sc.g);
    double best_d = INFINITY;
    for (int i = 0; i < fl_topology_switch_count(t) && sc.g.half >= MIN_TURN_HALF; i++) {
        int sw = fl_topology_switch_node(t, i);
        double sx, sy;
        fl__draw_node_device(&sc.g, sw, &sx, &sy);
        double rho = hypot(x - sx, y - sy);
        /* The ring of arcs runs from just inside the square's corners out
         * to the outermost arc: a first cheap cut, before the arcs are
         * laid out. */
        if (rho < sc.g.half * 0.9 || rho > z.r0 + MAX_ARCS * z.step)
            continue;
        if (!ring_build(&sc, sw, ring) || ring->n == 0)
            continue;
        double phi = atan2(y - sy, x - sx);
        for (int k = 0; k < ring->n; k++) {
            const Arc *arc = &ring->arc[k];
            double radius = arc_radius(&z, arc), into = angle_mod(phi - arc->a0);
            if (into > arc->span || rho > radius + z.step / 2 + HIT_TOLERANCE)
                continue;
            /* The nearest arc by radius; between the square and the first
             * level, level 0. */
            double d = rho < z.r0 ? 0 : fabs(rho - radius);
            if (best_sw >= 0 && d >= best_d)
                continue;
            best_d = d;
            best_sw = sw;
            int towards_end = into >= arc->span / 2;
            turn->sw = sw;
            turn->in_port = towards_end ? arc->p0 : arc->p1;
            turn->out_port = towards_end ? arc->p1 : arc->p0;
        }
    }
    free(ring);
    fl__draw_geom_clear(&sc.g);
    return best_sw;
}
