/* draw-routing.c — a routing drawn over the network: the entry point that
 * draws the overlays in order, channel directions, legal paths, a
 * dependency cycle, link hit testing and the export of a picture with a
 * routing. The turn arcs are in draw-turns.c, the H/V graph in draw-hv.c,
 * the legend and the fit that makes room for it in draw-legend.c; colours,
 * sizes, channels as drawn and the other shared marks in draw-scene.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw-routing-private.h"

#define MIN_ARROW 6.0        /* direction arrows shorter than this are left out */

/* ------------------------------------------------------------------------ */
/* The network a routing was built on                                       */
/* ------------------------------------------------------------------------ */

/* Whether r was built on t's network, or on the network t shows (its
 * switches alone, or an H/V layout): the same switches and switch links
 * under the same ids, joining the same ports. O(links). */
int fl__draw_same_network(const FlTopology *t, const FlRouting *r)
{
    const FlTopology *rt = r ? fl_routing_topology(r) : NULL;
    if (!rt || fl_topology_switch_count(rt) != fl_topology_switch_count(t)
        || fl_topology_switch_link_count(rt) != fl_topology_switch_link_count(t)
        || fl_topology_node_count(t) > fl_topology_node_count(rt))
        return 0;
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        int e[4], f[4];
        if (!is_switch_link(t, l))
            continue;
        fl_topology_link_ends(t, l, &e[0], &e[1], &e[2], &e[3]);
        if (fl_topology_link_ends(rt, l, &f[0], &f[1], &f[2], &f[3]) != FL_OK
            || memcmp(e, f, sizeof e) != 0)
            return 0;
    }
    return 1;
}

int fl__draw_routing_bows(const FlTopology *t, const FlDrawRouting *r)
{
    return r && (r->overlays & FL_DRAW_OVERLAY_HV_GRAPH) && fl__draw_same_network(t, r->routing)
           && fl_routing_root(r->routing) >= 0;
}

/* ------------------------------------------------------------------------ */
/* Channel directions                                                       */
/* ------------------------------------------------------------------------ */

static int label_is_up(const char *label)
{
    size_t n = strlen(label);
    return strcmp(label, "up") == 0 || (n == 2 && label[1] == 'U');
}

/* Where channel ch's direction mark goes: its label, the point and unit
 * direction on its link, and the room there (the length of link between
 * the switches, or of a spur beyond its switch); 0 when it has no label,
 * is out of view or has no room for an arrow. */
static int direction_mark(const Ctx *c, int ch, const char **label, double *x, double *y,
                          double *tx, double *ty, double *room)
{
    Chan chan;
    double u[2];
    if (!(*label = fl_routing_channel_label(c->routing, ch)))
        return 0;
    fl__draw_chan_init(c->sc, ch, &chan);
    /* One mark is enough: on a wrap-around, the spur it leaves by. */
    int spurs = fl__draw_chan_marks(&chan, u) == 2;
    fl__draw_chan_at(&chan, spurs ? u[0] : 0.5, x, y, tx, ty);
    const DevShape *d = &chan.d;
    int end = spurs && chan.reverse ? 3 : 2;
    *room = spurs ? hypot(d->x[end] - d->x[end - 2], d->y[end] - d->y[end - 2]) - c->g->half
                  : hypot(d->x[1] - d->x[0], d->y[1] - d->y[0]) - 2 * c->g->half;
    return *room >= c->z.arrow + 4 && box_near(&c->clip, *x, *y, c->z.arrow + 40);
}

/* A channel's direction mark as drawn: where on its link, which way, the
 * room there, its label and where the label went (placed). */
typedef struct DirMark {
    double x, y, tx, ty, room;
    const char *label;
    int up, placed;
    double lx, ly;              /* the label's top-left corner */
} DirMark;

/* Every channel that has a direction label: the marks, with each arrow
 * taken as an obstacle for the labels placed after. NULL when there are
 * none to draw (or no memory). */
static DirMark *direction_marks(const Ctx *c)
{
    int nch = fl_topology_channel_count(c->t), any = 0;
    if (c->z.arrow < MIN_ARROW || nch == 0)
        return NULL;
    DirMark *m = calloc((size_t)nch, sizeof *m);
    if (!m)
        return NULL;
    double off = c->g->lw * 0.5 + 3.5, half = c->z.arrow / 2;
    for (int ch = 0; ch < nch; ch++) {
        DirMark *d = &m[ch];
        if (!is_switch_link(c->t, ch >> 1)
            || !direction_mark(c, ch, &d->label, &d->x, &d->y, &d->tx, &d->ty, &d->room)) {
            d->label = NULL;
            continue;
        }
        any = 1;
        d->up = label_is_up(d->label);
        double ax = d->x - d->ty * off, ay = d->y + d->tx * off;
        Box b = { fmin(ax - d->tx * half, ax + d->tx * half) - 1,
                  fmin(ay - d->ty * half, ay + d->ty * half) - 1,
                  fmax(ax - d->tx * half, ax + d->tx * half) + 1,
                  fmax(ay - d->ty * half, ay + d->ty * half) + 1 };
        fl__draw_labels_take(c->lab, &b, 0);
    }
    if (!any) {
        free(m);
        return NULL;
    }
    return m;
}

/* Places each mark's label: beyond its arrow, or shifted along the link
 * either way when something is there already; left out (the arrow alone
 * says it) when no place is free or the link has no room. */
static void place_direction_labels(const Ctx *c, DirMark *m)
{
    cairo_t *cr = c->cr;
    if (c->z.font <= 0)
        return;
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, c->z.font);
    double off = c->g->lw * 0.5 + 3.5;
    for (int ch = 0; ch < fl_topology_channel_count(c->t); ch++) {
        DirMark *d = &m[ch];
        cairo_text_extents_t te;
        if (!d->label)
            continue;
        cairo_text_extents(cr, d->label, &te);
        if (te.width + 4 > d->room)
            continue;
        double nx = -d->ty, ny = d->tx;     /* the right-hand side on screen */
        double reach = off + 2.5 + fabs(nx) * te.width / 2 + fabs(ny) * te.height / 2;
        double along = fmin(0.5 * (c->z.arrow + te.width), (d->room - te.width) / 2);
        Box cands[3];
        for (int k = 0; k < 3; k++) {
            double s = k == 0 ? 0 : k == 1 ? along : -along;
            cands[k] = box_around(d->x + nx * reach + d->tx * s, d->y + ny * reach + d->ty * s,
                                  te.width + 2, te.height + 2);
        }
        int k = fl__draw_labels_place(c->lab, cands, along > 2 ? 3 : 1);
        if (k < 0)
            continue;
        d->placed = 1;
        d->lx = cands[k].x1 + 1 - te.x_bearing;
        d->ly = cands[k].y1 + 1 - te.y_bearing;
    }
    cairo_restore(cr);
}

/* The marks: a small arrow beside each link, on the right of the way its
 * channel runs, and its label where it was placed, blue for up channels
 * and orange for down ones. A large network has thousands: they are drawn
 * in one stroke or fill per colour and part, labels on small background
 * chips (stroked halos around glyph outlines would cost cairo half a
 * second). */
static void draw_directions(const Ctx *c, const DirMark *m)
{
    cairo_t *cr = c->cr;
    const Sizes *z = &c->z;
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, fmax(z->font, 1));
    double off = c->g->lw * 0.5 + 3.5, half = z->arrow / 2;
    for (int up = 1; up >= 0; up--) {
        Rgba colour = up ? c->col->up : c->col->down;
        for (int part = 0; part < 4; part++) {
            cairo_new_path(cr);
            set_colour(cr, part == 2 ? c->col->chip : colour);
            for (int ch = 0; ch < fl_topology_channel_count(c->t); ch++) {
                const DirMark *d = &m[ch];
                if (!d->label || d->up != up || (part >= 2 && !d->placed))
                    continue;
                double ax = d->x - d->ty * off, ay = d->y + d->tx * off;
                if (part == 0) {
                    cairo_move_to(cr, ax - d->tx * half, ay - d->ty * half);
                    cairo_line_to(cr, ax + d->tx * (half - 3), ay + d->ty * (half - 3));
                } else if (part == 1) {
                    fl__draw_head_path(cr, ax + d->tx * half, ay + d->ty * half, d->tx, d->ty,
                                       fmin(6, z->arrow * 0.45));
                } else {
                    cairo_text_extents_t te;
                    cairo_text_extents(cr, d->label, &te);
                    if (part == 2) {
                        cairo_rectangle(cr, d->lx + te.x_bearing - 1, d->ly + te.y_bearing - 1,
                                        te.width + 2, te.height + 2);
                    } else {
                        cairo_move_to(cr, d->lx, d->ly);
                        cairo_show_text(cr, d->label);
                    }
                }
            }
            if (part == 0) {
                cairo_set_line_width(cr, fmax(1.2, c->g->lw * 0.6));
                cairo_stroke(cr);
            } else if (part < 3) {
                cairo_fill(cr);
            }
        }
    }
    cairo_restore(cr);
}

/* ------------------------------------------------------------------------ */
/* Paths and the dependency cycle                                           */
/* ------------------------------------------------------------------------ */

/* Every legal shortest path lightly and wide, the chosen one bold with
 * arrows, under the nodes. */
static void draw_paths(const Ctx *c)
{
    const FlDrawRouting *r = c->r;
    cairo_t *cr = c->cr;
    double lw = c->g->lw;
    cairo_save(cr);
    fl__draw_clip_out_nodes(c->cr, c->g, &c->clip);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    if (r->paths && r->path_offsets && r->npaths > 0)
        fl__draw_stroke_channels(c->cr, c->sc, r->paths + r->path_offsets[0],
                        r->path_offsets[r->npaths] - r->path_offsets[0], c->col->paths,
                        fmax(6, lw * 4.5));
    if (r->chosen && r->nchosen > 0) {
        fl__draw_stroke_channels(c->cr, c->sc, r->chosen, r->nchosen, c->col->chosen,
                                 fmax(2.5, lw * 1.9));
        fl__draw_channels_heads(c->cr, c->sc, r->chosen, r->nchosen, fl__draw_head_size(c->g));
    }
    cairo_restore(cr);
}

static void draw_endpoints(const Ctx *c)
{
    fl__draw_ring_around(c->cr, c->g, c->r->src, c->col->source);
    fl__draw_ring_around(c->cr, c->g, c->r->dst, c->col->destination);
}

static void draw_cycle(const Ctx *c)
{
    const FlRoutingReport *rep = c->r->report;
    if (!rep || rep->deadlock_free || rep->cycle_len <= 0 || !rep->cycle_channels)
        return;
    fl__draw_cycle(c->cr, c->sc, c->col, &c->z, &c->clip, rep->cycle_channels, rep->cycle_len,
                   c->lab);
}

/* ------------------------------------------------------------------------ */
/* Datelines                                                                */
/* ------------------------------------------------------------------------ */

/* A bar across every link whose channels are the routing's datelines (on
 * each spur of a wrap-around link), where a packet moves to the next VC
 * class. Returns how many links have one. */
static int draw_datelines(const Ctx *c)
{
    int n = 0;
    double len = fmax(8, 1.6 * c->g->half), width = clamp(0.3 * c->g->half, 2.5, 5);
    for (int l = 0; l < fl_topology_link_count(c->t); l++) {
        if (!is_switch_link(c->t, l)
            || !(fl_routing_channel_dateline(c->routing, 2 * l)
                 || fl_routing_channel_dateline(c->routing, 2 * l + 1)))
            continue;
        Chan chan;
        double u[2];
        fl__draw_chan_init(c->sc, 2 * l, &chan);
        int marks = fl__draw_chan_marks(&chan, u);
        for (int i = 0; i < marks; i++) {
            double x, y, tx, ty;
            fl__draw_chan_at(&chan, u[i], &x, &y, &tx, &ty);
            if (box_near(&c->clip, x, y, len))
                fl__draw_dateline_mark(c->cr, c->col, x, y, tx, ty, len, width);
        }
        n++;
    }
    return n;
}

/* ------------------------------------------------------------------------ */
/* The whole picture                                                        */
/* ------------------------------------------------------------------------ */

void fl_draw_routing_init(FlDrawRouting *r)
{
    memset(r, 0, sizeof *r);
    r->src = r->dst = -1;
    r->hover_turn.sw = -1;
    r->hover_turn.in_port = r->hover_turn.out_port = -1;
    r->legend = 1;
}

/* The overlays of r over t, drawn with o, their labels placed into L
 * (which holds the nodes and the switch numbers already). */
static void draw_overlays(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                          const FlDrawRouting *r, Labels *L)
{
    int routed = fl__draw_same_network(t, r->routing);
    if (!routed && r->hover_turn.sw < 0) {
        fl__draw_switch_numbers(cr, L, o->dark);
        return;
    }

    Pen pen;
    fl__draw_pen_begin(&pen, cr, t, o, fl__draw_routing_bows(t, r));
    Ctx c = { cr, &pen.sc, &pen.sc.g, t, r->routing, r, pen.col, pen.z, pen.clip, L };
    cairo_save(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);

    unsigned ov = routed ? r->overlays : 0;
    int n = fl_topology_node_count(t), hv_kind = -1;
    int *h = NULL, *v = NULL;
    if (ov & (FL_DRAW_OVERLAY_DIRECTIONS | FL_DRAW_OVERLAY_HV_GRAPH)) {
        h = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
        v = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
        if (h && v)
            hv_kind = fl__draw_switch_hv(t, r->routing, h, v);
    }
    /* (h, v) labels: the routing's own coordinates with the directions,
     * and whatever tree the H/V graph was drawn from. */
    int show_hv = ((ov & FL_DRAW_OVERLAY_DIRECTIONS) && hv_kind == 1)
                  || ((ov & FL_DRAW_OVERLAY_HV_GRAPH) && hv_kind >= 0);
    /* The arrows of the directions are there before any label is placed;
     * the cycle's numbers, then (h, v), then the directions' labels take
     * what room is left, in that order. */
    DirMark *marks = (ov & FL_DRAW_OVERLAY_DIRECTIONS) ? direction_marks(&c) : NULL;

    if (pen.sc.bow)
        fl__draw_hv_links(&c);
    if (ov & FL_DRAW_OVERLAY_PATHS)
        draw_paths(&c);
    if (ov & FL_DRAW_OVERLAY_CYCLE)
        draw_cycle(&c);
    FlDrawLegendShown shown = { 0 };
    if (ov)
        shown.datelines = draw_datelines(&c) > 0;
    if (show_hv)
        fl__draw_hv_labels(&c, h, v);
    if (marks) {
        place_direction_labels(&c, marks);
        draw_directions(&c, marks);
    }
    if (ov & FL_DRAW_OVERLAY_TURNS)
        fl__draw_turns(&c);
    if (ov & FL_DRAW_OVERLAY_PATHS)
        draw_endpoints(&c);
    fl__draw_hover_turn(&c);
    fl__draw_switch_numbers(cr, L, o->dark);
    if (routed && r->legend && ov) {
        shown.hv = show_hv && c.z.font > 0;
        shown.dirs = c.z.arrow >= MIN_ARROW;
        shown.tree = pen.sc.bow;
        fl__draw_legend(&c, &shown, pen.sc.g.text);
    }
    free(marks);
    free(h);
    free(v);
    cairo_restore(cr);
    fl__draw_pen_end(&pen);
}

/* fl_draw_routing() with the boxes of the labels drawn recorded into
 * boxes (up to max); returns how many there were. */
static int draw_routing(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                        const FlDrawRouting *r, FlDrawLabelBox *boxes, int max)
{
    FlDrawOptions defaults;
    Labels L;
    Box clip;
    if (!o) {
        fl_draw_options_init(&defaults);
        o = &defaults;
    }
    cairo_clip_extents(cr, &clip.x1, &clip.y1, &clip.x2, &clip.y2);
    fl__draw_labels_init(&L, &clip, 24);
    L.record = boxes;
    L.record_max = boxes ? max : 0;
    fl__draw_topology_labelled(cr, t, o, &L);
    if (t && r)
        draw_overlays(cr, t, o, r, &L);
    else
        fl__draw_switch_numbers(cr, &L, o->dark);
    int n = L.recorded;
    fl__draw_labels_clear(&L);
    return n;
}

void fl_draw_routing(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                     const FlDrawRouting *r)
{
    draw_routing(cr, t, o, r, NULL, 0);
}

int fl_draw_routing_labels(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                           const FlDrawRouting *r, FlDrawLabelBox *boxes, int max)
{
    return draw_routing(cr, t, o, r, boxes, max);
}

/* ------------------------------------------------------------------------ */
/* Hit testing                                                              */
/* ------------------------------------------------------------------------ */

int fl_draw_hit_routing_link(const FlTopology *t, const FlDrawView *v, const FlDrawRouting *r,
                             double x, double y)
{
    Scene sc;
    if (!t || !v)
        return -1;
    fl__draw_scene_init(&sc, t, v, fl__draw_routing_bows(t, r));
    if (!sc.bow) {
        fl__draw_geom_clear(&sc.g);
        return fl_draw_hit_link(t, v, x, y);
    }
    int best = -1;
    double best_d = HIT_TOLERANCE + sc.g.lw / 2;
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        Shape s;
        DevShape d;
        fl__draw_scene_link(&sc, l, &s, &d);
        if (s.host && sc.g.host_r == 0)
            continue;
        double dist = fl__draw_shape_distance(&s, &d, x, y);
        if (dist <= best_d) {
            best = l;
            best_d = dist;
        }
    }
    fl__draw_geom_clear(&sc.g);
    return best;
}

/* ------------------------------------------------------------------------ */
/* Files                                                                    */
/* ------------------------------------------------------------------------ */

int fl_draw_export_routing(const FlTopology *t, const FlDrawRouting *r, const char *path,
                           const char *format, int width, int height, FlError *err)
{
    FlDrawPage page;
    fl_draw_page_init(&page);
    page.width = width;
    page.height = height;
    return fl_draw_export_routing_page(t, r, &page, path, format, err);
}
