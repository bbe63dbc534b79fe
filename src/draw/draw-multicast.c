/* draw-multicast.c — a multicast tree drawn over its network: every
 * unicast of the tree along the channels its route takes, in the colour of
 * its step, with an arrow into the destination and a label giving its step
 * and send time; the source and the destinations ringed; the channels two
 * unicasts contend for underlaid in red.
 *
 * Unicasts that share a channel run side by side: each takes a lane, the
 * same along its whole route, on the right of the way the channels run,
 * the first lane free on every channel of its route. The channels are the
 * links as fl_draw_topology() draws them (wrap-around spurs, arcs), through
 * the scene of draw-scene.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw-routing-private.h"

#define ARC_SAMPLES 16        /* points along a curved channel */
#define MAX_LEGEND_STEPS 8    /* steps named in the legend; more are "..." */
#define MAX_LABELS 256        /* more unicasts than this are drawn without labels */

void fl_draw_multicast_init(FlDrawMulticast *m)
{
    memset(m, 0, sizeof *m);
    m->source = -1;
    m->labels = 1;
    m->legend = 1;
}

void fl_draw_multicast_step_colour(int step, double rgb[3])
{
    fl_draw_palette_colour(step > 0 ? step - 1 : 0, rgb);
}

static Rgba step_colour(int step)
{
    double rgb[3];
    fl_draw_multicast_step_colour(step, rgb);
    return (Rgba){ rgb[0], rgb[1], rgb[2], 1 };
}

static const char *word(const char *given, const char *english)
{
    return given ? given : english;
}

/* The switch node of host rank h, or -1. */
static int host_switch(const FlTopology *t, int h)
{
    if (h < 0 || h >= fl_topology_host_count(t))
        return -1;
    return fl_topology_host_switch(t, fl_topology_host_node(t, h));
}

/* One unicast as drawn: its route and its lane. */
typedef struct Unicast {
    const FlMulticastEdge *e;
    int from, to;             /* switch nodes */
    const int *chans;         /* NULL: a straight line from one switch to the other */
    int n;
    int owned;                /* chans is this drawing's, not the caller's routes' */
    int lane;
} Unicast;

struct FlDrawMulticastRoutes {
    const FlMulticastTree *tree;
    int *chans;               /* edge i's: chans[offsets[i] .. offsets[i + 1]) */
    int *offsets;
    int *routed;              /* edge i has a route (else it is drawn straight) */
    int n;
};

/* Edge e's route from switch to switch under routing (which may be NULL,
 * or not t's: none), malloc'd; 0 when there is none. */
static int route_of(const FlTopology *t, const FlRouting *routing, const FlMulticastEdge *e,
                    int **chans, int *n)
{
    int from = host_switch(t, e->parent), to = host_switch(t, e->child);
    *chans = NULL;
    *n = 0;
    if (!routing || from < 0 || to < 0 || from == to)
        return 0;
    if (fl_routing_path(routing, from, to, FL_SELECT_LOWEST_PORT, NULL, chans, n, NULL) != FL_OK) {
        *chans = NULL;
        *n = 0;
        return 0;
    }
    return 1;
}

FlDrawMulticastRoutes *fl_draw_multicast_routes_new(const FlTopology *t,
                                                    const FlMulticastTree *tree,
                                                    const FlRouting *routing, FlError *err)
{
    if (!t || !tree || !routing || !fl__draw_same_network(t, routing)) {
        fl_error_set(err, FL_EINVAL, "routes need a tree and a routing of the network drawn");
        return NULL;
    }
    FlDrawMulticastRoutes *r = calloc(1, sizeof *r);
    int n = fl_multicast_tree_edge_count(tree), cap = 0, len = 0;
    if (!r || !(r->offsets = calloc((size_t)n + 1, sizeof *r->offsets))
        || !(r->routed = calloc((size_t)n + 1, sizeof *r->routed)))
        goto nomem;
    r->tree = tree;
    r->n = n;
    for (int i = 0; i < n; i++) {
        int *chans, k;
        r->routed[i] = route_of(t, routing, fl_multicast_tree_edge(tree, i), &chans, &k);
        if (len + k > cap) {
            int grown = cap * 2 > len + k ? cap * 2 : len + k + 64;
            int *more = realloc(r->chans, (size_t)grown * sizeof *more);
            if (!more) {
                free(chans);
                goto nomem;
            }
            r->chans = more;
            cap = grown;
        }
        if (k > 0)
            memcpy(r->chans + len, chans, (size_t)k * sizeof *chans);
        free(chans);
        len += k;
        r->offsets[i + 1] = len;
    }
    return r;
nomem:
    fl_draw_multicast_routes_free(r);
    fl_error_set(err, FL_ENOMEM, "out of memory for a multicast's routes");
    return NULL;
}

void fl_draw_multicast_routes_free(FlDrawMulticastRoutes *r)
{
    if (!r)
        return;
    free(r->chans);
    free(r->offsets);
    free(r->routed);
    free(r);
}

typedef struct Picture {
    Pen pen;
    const FlDrawMulticast *m;
    Unicast *u;
    int nu;
    double width, spacing;    /* of a unicast's line, between lanes */
    double font;
} Picture;

/* Routes and lanes: a unicast takes the lowest lane free on all of its
 * channels. */
static int picture_route(Picture *p, const FlTopology *t)
{
    const FlDrawMulticast *m = p->m;
    int nch = fl_topology_channel_count(t);
    int *used = calloc((size_t)nch + 1, sizeof *used);
    p->nu = m->tree ? fl_multicast_tree_edge_count(m->tree) : 0;
    p->u = calloc((size_t)p->nu + 1, sizeof *p->u);
    if (!used || !p->u) {
        free(used);
        return FL_ENOMEM;
    }
    const FlDrawMulticastRoutes *given = m->routes && m->routes->tree == m->tree
                                             && m->routes->n == p->nu ? m->routes : NULL;
    const FlRouting *routing = m->routing && fl__draw_same_network(t, m->routing) ? m->routing
                                                                                   : NULL;
    for (int i = 0; i < p->nu; i++) {
        Unicast *u = &p->u[i];
        u->e = fl_multicast_tree_edge(m->tree, i);
        u->from = host_switch(t, u->e->parent);
        u->to = host_switch(t, u->e->child);
        if (given && given->routed[i]) {
            u->chans = given->chans + given->offsets[i];
            u->n = given->offsets[i + 1] - given->offsets[i];
        } else if (!given) {
            int *chans;
            u->owned = route_of(t, routing, u->e, &chans, &u->n);
            u->chans = chans;
        }
        for (int k = 0; k < u->n; k++)
            if (u->chans[k] >= 0 && u->chans[k] < nch)
                u->lane = used[u->chans[k]] > u->lane ? used[u->chans[k]] : u->lane;
        for (int k = 0; k < u->n; k++)
            if (u->chans[k] >= 0 && u->chans[k] < nch)
                used[u->chans[k]] = u->lane + 1;
    }
    free(used);
    return FL_OK;
}

static void picture_clear(Picture *p)
{
    for (int i = 0; p->u && i < p->nu; i++)
        if (p->u[i].owned)
            free((int *)p->u[i].chans);
    free(p->u);
}

/* Adds a channel's shape, moved off sideways by off (to the right of the
 * way it runs), to cr's path; joins its start to the path so far when
 * join is set. */
static void offset_chan_path(cairo_t *cr, const Chan *ch, double off, int join)
{
    int pieces = ch->s.kind == SHAPE_SPURS ? 2 : 1;
    int samples = ch->s.kind == SHAPE_ARC ? ARC_SAMPLES : 1;
    for (int piece = 0; piece < pieces; piece++) {
        double u0 = pieces == 2 ? piece * 0.5 : 0, u1 = pieces == 2 ? u0 + 0.5 - 1e-6 : 1;
        if (piece == 1)
            u0 += 1e-6;
        for (int k = 0; k <= samples; k++) {
            double x, y, tx, ty, u = u0 + (u1 - u0) * k / samples;
            fl__draw_chan_at(ch, u, &x, &y, &tx, &ty);
            x -= ty * off;
            y += tx * off;
            if (k == 0 && !(join && piece == 0))
                cairo_move_to(cr, x, y);
            else
                cairo_line_to(cr, x, y);
        }
    }
}

static double lane_offset(const Picture *p, const Unicast *u)
{
    return (u->lane + 0.5) * p->spacing;
}

/* The device point of a switch. */
static void node_point(const Picture *p, int node, double *x, double *y)
{
    fl__draw_node_device(&p->pen.sc.g, node, x, y);
}

/* Adds a unicast's line along its route (or straight) to cr's path. */
static void unicast_path(const Picture *p, const Unicast *u)
{
    cairo_t *cr = p->pen.cr;
    double off = lane_offset(p, u);
    if (u->from < 0 || u->to < 0 || u->from == u->to)
        return;
    if (!u->chans) {
        double ax, ay, bx, by;
        node_point(p, u->from, &ax, &ay);
        node_point(p, u->to, &bx, &by);
        double len = hypot(bx - ax, by - ay), tx = (bx - ax) / len, ty = (by - ay) / len;
        cairo_move_to(cr, ax - ty * off, ay + tx * off);
        cairo_line_to(cr, bx - ty * off, by + tx * off);
    }
    for (int k = 0; k < u->n; k++) {
        Chan ch;
        fl__draw_chan_init(&p->pen.sc, u->chans[k], &ch);
        offset_chan_path(cr, &ch, off, k > 0);
    }
}

/* Adds the arrow head on a unicast's last channel to cr's path. */
static void unicast_head_path(const Picture *p, const Unicast *u)
{
    double off = lane_offset(p, u), head = fmax(7, p->width * 2.6);
    if (u->n == 0)
        return;
    Chan ch;
    double x, y, tx, ty, mark[2];
    fl__draw_chan_init(&p->pen.sc, u->chans[u->n - 1], &ch);
    int n = fl__draw_chan_marks(&ch, mark);
    fl__draw_chan_at(&ch, mark[n - 1], &x, &y, &tx, &ty);
    fl__draw_head_path(p->pen.cr, x - ty * off + tx * head / 2, y + tx * off + ty * head / 2, tx,
                       ty, head);
}

/* The unicasts, one stroke and one fill of heads per step (a picture of
 * a thousand unicasts clipped round every switch stays quick), later
 * steps under earlier ones so that the first sends stay on top. */
static void draw_unicasts(const Picture *p, int steps)
{
    cairo_t *cr = p->pen.cr;
    for (int s = steps; s >= 1; s--) {
        cairo_new_path(cr);
        for (int i = 0; i < p->nu; i++)
            if (p->u[i].e->step == s)
                unicast_path(p, &p->u[i]);
        set_colour(cr, step_colour(s));
        cairo_set_line_width(cr, p->width);
        cairo_stroke(cr);
        for (int i = 0; i < p->nu; i++)
            if (p->u[i].e->step == s)
                unicast_head_path(p, &p->u[i]);
        cairo_fill(cr);
    }
}

/* The channels of a's route that b's route takes too, underlaid in red. */
static void draw_shared(const Picture *p, const Unicast *a, const Unicast *b)
{
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++)
            if (a->chans[i] == b->chans[j])
                fl__draw_stroke_channels(p->pen.cr, &p->pen.sc, &a->chans[i], 1, p->pen.col->cycle,
                                         p->spacing * 2 * (fmax(a->lane, b->lane) + 1) + 4);
}

/* A label box placed so far. */
typedef struct Placed {
    double x, y, w, h;
} Placed;

static int overlaps(const Placed *placed, int n, const Placed *b)
{
    for (int i = 0; i < n; i++)
        if (b->x < placed[i].x + placed[i].w && placed[i].x < b->x + b->w
            && b->y < placed[i].y + placed[i].h && placed[i].y < b->y + b->h)
            return 1;
    return 0;
}

/* "step @ send time" beside the unicast, clear of the switches and of
 * the labels placed before: at the middle of its route on the side of its
 * lane, else on the other side, else at the channels outwards from the
 * middle; where nothing is clear, at the first place tried. */
static void draw_label(const Picture *p, const Unicast *u, Placed *placed, int *nplaced)
{
    cairo_t *cr = p->pen.cr;
    char text[48];
    cairo_text_extents_t te;
    double off = lane_offset(p, u) + p->width / 2 + p->font * 0.9;
    snprintf(text, sizeof text, "%d @ %g", u->e->step, u->e->send_time);
    cairo_text_extents(cr, text, &te);
    Placed best = { 0, 0, 0, 0 };
    int found = 0, places = u->n > 0 ? u->n : 1;
    for (int attempt = 0; attempt < 4 * places && !found; attempt++) {
        double x, y, tx, ty, side = attempt % 2 ? -1 : 1;
        int rank = attempt / 2;
        if (u->n > 0) {
            /* The middle channel, then outwards from it. */
            int k = u->n / 2 + (rank % 2 ? -(rank + 1) / 2 : rank / 2);
            if (k < 0 || k >= u->n)
                continue;
            Chan ch;
            fl__draw_chan_init(&p->pen.sc, u->chans[k], &ch);
            fl__draw_chan_at(&ch, 0.5, &x, &y, &tx, &ty);
        } else {
            double bx, by;
            if (rank > 0)
                break;
            node_point(p, u->from, &x, &y);
            node_point(p, u->to, &bx, &by);
            double len = fmax(hypot(bx - x, by - y), 1e-9);
            tx = (bx - x) / len, ty = (by - y) / len;
            x = (x + bx) / 2, y = (y + by) / 2;
        }
        double d = side > 0 ? off : p->width + p->font * 0.9;
        double cx = x - ty * d * side, cy = y + tx * d * side;
        Placed b = { cx - te.x_advance / 2 - 2, cy - p->font * 0.6, te.x_advance + 4,
                     p->font * 1.2 };
        if (best.w == 0)
            best = b;
        if (!overlaps(placed, *nplaced, &b)) {
            best = b;
            found = 1;
        }
    }
    if (best.w == 0)
        return;
    placed[(*nplaced)++] = best;
    fl__draw_halo_text(cr, best.x + 2, best.y + p->font * 0.95, text, step_colour(u->e->step),
                       p->pen.col->background, p->font);
}

/* The switches in the clip, as places labels keep clear of. */
static int place_switches(const Picture *p, Placed *placed)
{
    const Geom *g = &p->pen.sc.g;
    double half = g->half * 1.3 + 3; /* rings included */
    int n = 0;
    for (int i = 0; i < fl_topology_switch_count(g->t); i++) {
        double x, y;
        fl__draw_node_device(g, fl_topology_switch_node(g->t, i), &x, &y);
        if (box_near(&p->pen.clip, x, y, half))
            placed[n++] = (Placed){ x - half, y - half, 2 * half, 2 * half };
    }
    return n;
}

/* The legend's lines: a sample (SOURCE, DESTINATION, CONTENTION, a step
 * >= 1, or NO_SAMPLE) and its words. */
enum { NO_SAMPLE = 0, SOURCE = -1, DESTINATION = -2, CONTENTION = -3 };

#define LEGEND_FONT 12.0
#define LEGEND_LINE 18.0
#define LEGEND_PAD 8.0
#define LEGEND_SAMPLE 26.0
#define LEGEND_MARGIN 12.0

typedef struct Legend {
    char text[MAX_LEGEND_STEPS + 5][96];
    int sample[MAX_LEGEND_STEPS + 5];
    int n;
    double width, height;
} Legend;

static int tree_steps(const FlMulticastTree *tree)
{
    int steps = 0;
    for (int i = 0; tree && i < fl_multicast_tree_edge_count(tree); i++)
        if (fl_multicast_tree_edge(tree, i)->step > steps)
            steps = fl_multicast_tree_edge(tree, i)->step;
    return steps;
}

/* Nothing chosen yet, nothing to explain. */
static int has_legend(const FlDrawMulticast *m)
{
    return m->legend && (m->source >= 0 || m->tree);
}

static void legend_add(Legend *lg, int sample, const char *text)
{
    lg->sample[lg->n] = sample;
    snprintf(lg->text[lg->n++], sizeof lg->text[0], "%s", text);
}

static void legend_build(Legend *lg, const FlDrawMulticast *m)
{
    static const FlDrawMulticastText none;
    const FlDrawMulticastText *w = m->text ? m->text : &none;
    int steps = tree_steps(m->tree);
    char line[96];
    memset(lg, 0, sizeof *lg);
    legend_add(lg, SOURCE, word(w->source, "source"));
    legend_add(lg, DESTINATION, word(w->destination, "destination"));
    for (int s = 1; s <= steps && s <= MAX_LEGEND_STEPS; s++) {
        snprintf(line, sizeof line, word(w->step, "step %d"), s);
        legend_add(lg, s, line);
    }
    if (steps > MAX_LEGEND_STEPS)
        legend_add(lg, NO_SAMPLE, "\xe2\x80\xa6");
    if (steps > 0 && m->labels)
        legend_add(lg, NO_SAMPLE, word(w->labels, "1 @ 20: step @ send time"));
    if (m->nconflicts > 0) {
        snprintf(line, sizeof line, "%s (%d)", word(w->contention, "contention"), m->nconflicts);
        legend_add(lg, CONTENTION, line);
    }
    cairo_t *cr = fl__draw_path_collector();
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, LEGEND_FONT);
    double widest = 0;
    for (int i = 0; i < lg->n; i++) {
        cairo_text_extents_t te;
        cairo_text_extents(cr, lg->text[i], &te);
        double sample = lg->sample[i] == NO_SAMPLE ? 0 : LEGEND_SAMPLE + LEGEND_PAD;
        widest = fmax(widest, te.x_advance + sample);
    }
    cairo_destroy(cr);
    lg->width = widest + 2 * LEGEND_PAD;
    lg->height = lg->n * LEGEND_LINE + 2 * LEGEND_PAD;
}

void fl_draw_multicast_legend_size(const FlDrawMulticast *m, double *width, double *height)
{
    Legend lg;
    legend_build(&lg, m);
    *width = lg.width;
    *height = lg.height;
}

void fl_draw_multicast_legend(cairo_t *cr, const FlDrawMulticast *m, int dark, double x,
                              double y)
{
    const Colours *col = fl__draw_colours(dark);
    Legend lg;
    legend_build(&lg, m);
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, LEGEND_FONT);
    fl__draw_legend_box(cr, col, x, y, lg.width, lg.height);
    for (int i = 0; i < lg.n; i++) {
        double cy = y + LEGEND_PAD + LEGEND_LINE * (i + 0.5), sx = x + LEGEND_PAD;
        int sample = lg.sample[i];
        cairo_new_path(cr);
        if (sample == SOURCE || sample == DESTINATION) {
            set_colour(cr, sample == SOURCE ? col->text : step_colour(1));
            cairo_set_line_width(cr, sample == SOURCE ? 4 : 2.5);
            cairo_rectangle(cr, sx + LEGEND_SAMPLE / 2 - 6, cy - 6, 12, 12);
            cairo_stroke(cr);
        } else if (sample != NO_SAMPLE) {
            set_colour(cr, sample > 0 ? step_colour(sample) : col->cycle);
            cairo_set_line_width(cr, sample > 0 ? 3 : 7);
            cairo_move_to(cr, sx, cy);
            cairo_line_to(cr, sx + LEGEND_SAMPLE, cy);
            cairo_stroke(cr);
        }
        set_colour(cr, col->text);
        cairo_move_to(cr, sample == NO_SAMPLE ? sx : sx + LEGEND_SAMPLE + LEGEND_PAD,
                      cy + LEGEND_FONT * 0.35);
        cairo_show_text(cr, lg.text[i]);
    }
    cairo_restore(cr);
}

void fl_draw_multicast_fit(const FlTopology *t, const FlDrawMulticast *m, double width,
                           double height, FlDrawView *view)
{
    double w = 0, h = 0;
    if (m && has_legend(m))
        fl_draw_multicast_legend_size(m, &w, &h);
    fl__draw_fit_beside_legend(t, width, height, w, h, view);
}

static double legend_height(const FlDrawMulticast *m)
{
    double w, h;
    fl_draw_multicast_legend_size(m, &w, &h);
    return h;
}

/* The rings: the source's switch in the text colour, each destination's
 * in the colour of the step that reaches it (step 1's before there is a
 * tree). */
static void draw_rings(const Picture *p, const FlTopology *t)
{
    const FlDrawMulticast *m = p->m;
    const Geom *g = &p->pen.sc.g;
    for (int i = 0; m->dests && i < m->ndests; i++) {
        const FlMulticastEdge *e = m->tree ? fl_multicast_tree_edge_to(m->tree, m->dests[i]) : NULL;
        fl__draw_ring_around(p->pen.cr, g, host_switch(t, m->dests[i]),
                             step_colour(e ? e->step : 1));
    }
    int sw = host_switch(t, m->source);
    if (sw >= 0) {
        /* Bolder than the destinations' rings, as in the legend. */
        double x, y, w = clamp(g->half * 0.4, 4.0, 7.0), half = g->half + w * 0.5 + 1.5;
        fl__draw_node_device(g, sw, &x, &y);
        cairo_new_path(p->pen.cr);
        cairo_rectangle(p->pen.cr, x - half, y - half, 2 * half, 2 * half);
        set_colour(p->pen.cr, p->pen.col->text);
        cairo_set_line_width(p->pen.cr, w);
        cairo_stroke(p->pen.cr);
    }
}

void fl_draw_multicast_overlay(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                               const FlDrawMulticast *m)
{
    if (!cr || !t || !o || !m)
        return;
    Picture p;
    memset(&p, 0, sizeof p);
    p.m = m;
    cairo_save(cr);
    fl__draw_pen_begin(&p.pen, cr, t, o, 0);
    if (picture_route(&p, t) != FL_OK) {
        picture_clear(&p);
        fl__draw_pen_end(&p.pen);
        cairo_restore(cr);
        return;
    }
    const Geom *g = &p.pen.sc.g;
    p.width = clamp(g->lw * 1.6, 2.5, 5);
    p.spacing = p.width + 1.5;
    p.font = clamp(g->half * 0.8, 9, 13);

    /* Lines pass under the switches, whose labels stay readable. */
    cairo_save(cr);
    fl__draw_clip_out_nodes(cr, g, &p.pen.clip);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (int i = 0; m->conflicts && i < m->nconflicts; i++) {
        const FlMulticastConflict *c = &m->conflicts[i];
        if (c->edge_a >= 0 && c->edge_a < p.nu && c->edge_b >= 0 && c->edge_b < p.nu)
            draw_shared(&p, &p.u[c->edge_a], &p.u[c->edge_b]);
    }
    draw_unicasts(&p, tree_steps(m->tree));
    cairo_restore(cr);

    draw_rings(&p, t);
    if (m->labels && p.nu > 0 && p.nu <= MAX_LABELS) {
        Placed *placed = calloc((size_t)p.nu + (size_t)fl_topology_switch_count(t), sizeof *placed);
        int nplaced = placed ? place_switches(&p, placed) : 0;
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        cairo_set_font_size(cr, p.font);
        for (int i = 0; placed && i < p.nu; i++)
            draw_label(&p, &p.u[i], placed, &nplaced);
        free(placed);
    }
    if (has_legend(m))
        fl_draw_multicast_legend(cr, m, o->dark, p.pen.clip.x1 + LEGEND_MARGIN,
                                 p.pen.clip.y2 - LEGEND_MARGIN - legend_height(m));
    picture_clear(&p);
    fl__draw_pen_end(&p.pen);
    cairo_restore(cr);
}

void fl_draw_multicast(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                       const FlDrawMulticast *m)
{
    fl_draw_topology(cr, t, o);
    fl_draw_multicast_overlay(cr, t, o, m);
}

typedef struct Export {
    const FlTopology *t;
    FlDrawOptions o;
    const FlDrawMulticast *m;
} Export;

static void render_multicast(cairo_t *cr, int width, int height, void *data)
{
    Export *e = data;
    cairo_rectangle(cr, 0, 0, width, height);
    cairo_clip(cr);
    fl_draw_multicast(cr, e->t, &e->o, e->m);
}

int fl_draw_export_multicast(const FlTopology *t, const FlDrawOptions *opt,
                             const FlDrawMulticast *m, const char *path, const char *format,
                             int width, int height, FlError *err)
{
    if (!t || !m)
        return fl_error_set(err, FL_EINVAL, "no network or multicast to draw");
    Export e;
    e.t = t;
    e.m = m;
    if (opt) {
        e.o = *opt;
    } else {
        fl_draw_options_init(&e.o);
        fl_draw_multicast_fit(t, m, width, height, &e.o.view);
    }
    return fl__draw_write_image(path, format, width, height, render_multicast, &e, err);
}
