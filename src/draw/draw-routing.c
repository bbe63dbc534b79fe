/* draw-routing.c — a routing drawn over the network: the entry point that
 * draws the overlays in order, what they share (colours, sizes, links and
 * channels as drawn), channel directions, legal paths, a dependency cycle,
 * link hit testing and the export of a picture with a routing. The turn arcs
 * are in draw-turns.c, the H/V graph in draw-hv.c, the legend and the fit
 * that makes room for it in draw-legend.c.
 *
 * Everything here is drawn through the Geom of draw-geometry.c, so an
 * overlay follows a link exactly as fl_draw_topology() drew it: straight,
 * as the two stubs of a wrap-around, or as an arc. Sizes are in device units
 * and follow the size of the switches, so the overlays keep their
 * proportions at every zoom level.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw-routing-private.h"

#define MIN_FONT 6.5         /* labels smaller than this are left out */
#define MIN_ARROW 6.0        /* so are direction arrows shorter than this */
#define MAX_NUMBERED 64      /* longer cycles are drawn without numbers */

/* ------------------------------------------------------------------------ */
/* Colours                                                                  */
/* ------------------------------------------------------------------------ */

#define HEX(hex, alpha)                                                    \
    { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0,           \
      ((hex) & 0xff) / 255.0, (alpha) }

/* From the GNOME palette, like the network itself: red for what is
 * forbidden or deadlocks, blue and orange for the two senses of a channel,
 * orange for routes. */
static const Colours light_colours = {
    .background = HEX(0xffffff, 1),
    .turn = HEX(0xe01b24, 1),
    .ppt = HEX(0x241f31, 1),
    .hover = HEX(0x1c71d8, 1),
    .guide = HEX(0x9a9996, 0.9),
    .up = HEX(0x1a5fb4, 1),
    .down = HEX(0xc64600, 1),
    .text = HEX(0x241f31, 1),
    .tree = HEX(0x3d3846, 1),
    .other = HEX(0x9a9996, 1),
    .paths = HEX(0xffbe6f, 0.85),
    .chosen = HEX(0xe66100, 1),
    .source = HEX(0x26a269, 1),
    .destination = HEX(0xc01c28, 1),
    .cycle = HEX(0xe01b24, 1),
    .chip = HEX(0xffffff, 0.85),
    .legend_fill = HEX(0xffffff, 0.92),
    .legend_border = HEX(0x9a9996, 1),
};

static const Colours dark_colours = {
    .background = HEX(0x1e1e1e, 1),
    .turn = HEX(0xff7b63, 1),
    .ppt = HEX(0xffffff, 1),
    .hover = HEX(0x99c1f1, 1),
    .guide = HEX(0x77767b, 0.9),
    .up = HEX(0x99c1f1, 1),
    .down = HEX(0xffa348, 1),
    .text = HEX(0xffffff, 1),
    .tree = HEX(0xdeddda, 1),
    .other = HEX(0x77767b, 1),
    .paths = HEX(0xc64600, 0.8),
    .chosen = HEX(0xffa348, 1),
    .source = HEX(0x8ff0a4, 1),
    .destination = HEX(0xff7b63, 1),
    .cycle = HEX(0xff7b63, 1),
    .chip = HEX(0x1e1e1e, 0.85),
    .legend_fill = HEX(0x242424, 0.92),
    .legend_border = HEX(0x5e5c64, 1),
};

/* ------------------------------------------------------------------------ */
/* Sizes and the drawing context                                            */
/* ------------------------------------------------------------------------ */

void fl__draw_sizes_init(Sizes *z, const Geom *g)
{
    double half = g->half;
    z->arc_w = clamp(0.14 * half, 2.0, 2.8);
    /* Squares shrink where a free layout crowds switches, while their
     * links stay long: the arcs keep some room in proportion to the grid
     * step too. */
    z->r0 = half + fmax(fmax(4.0, 0.4 * half), 0.06 * g->v.scale);
    z->step = fmax(fmax(2.4 * z->arc_w, 0.3 * half), 0.04 * g->v.scale);
    z->head = clamp(3.6 * z->arc_w, 7.5, 10.5);
    z->font = clamp(0.16 * g->v.scale, 0, 12);
    if (z->font < MIN_FONT)
        z->font = g->v.scale >= 30 ? MIN_FONT : 0;
    z->arrow = clamp(0.16 * g->v.scale, 0, 18);
}

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

void fl__draw_scene_init(Scene *sc, const FlTopology *t, const FlDrawView *v,
                         const FlDrawRouting *r)
{
    fl__draw_geom_init(&sc->g, t, v, 1);
    sc->bow = r && (r->overlays & FL_DRAW_OVERLAY_HV_GRAPH)
              && fl__draw_same_network(t, r->routing) && fl_routing_root(r->routing) >= 0;
}

/* Link l as this picture draws it, in layout and device units. In the
 * H/V graph a link between two switches of one level that are not
 * neighbours in preorder would run straight behind the switches between
 * them, hiding which two it joins: it bows upwards instead, as a curve
 * like the arcs of draw-geometry.c. */
void fl__draw_scene_link(const Scene *sc, int l, Shape *s, DevShape *d)
{
    fl__draw_link_shape(&sc->g, l, s);
    if (sc->bow && s->kind == SHAPE_LINE && !s->host && s->ay == s->by
        && fabs(s->bx - s->ax) > 1.5) {
        double rise = clamp(0.12 * fabs(s->bx - s->ax), 0.3, 1.0);
        double mx = (s->ax + s->bx) / 2, qy = s->ay - 2 * rise;
        s->kind = SHAPE_ARC;
        s->p1x = s->ax + (mx - s->ax) * 2 / 3, s->p1y = s->ay + (qy - s->ay) * 2 / 3;
        s->p2x = s->bx + (mx - s->bx) * 2 / 3, s->p2y = s->by + (qy - s->by) * 2 / 3;
    }
    fl__draw_shape_to_device(&sc->g, s, d);
}

/* ------------------------------------------------------------------------ */
/* Channels as drawn                                                        */
/* ------------------------------------------------------------------------ */

/* A channel: its link's shape in device units, run from the channel's
 * source (reverse: the link's end b) to its destination. */
typedef struct Chan {
    Shape s;
    DevShape d;
    int reverse;
} Chan;

static void chan_init(const Scene *sc, int c, Chan *ch)
{
    fl__draw_scene_link(sc, c >> 1, &ch->s, &ch->d);
    ch->reverse = c & 1;
}

/* The point at u (0..1) along a link's shape from end a, and the unit
 * tangent there. A wrap-around's first half is the stub at a (outwards),
 * its second half the stub at b (inwards). */
void fl__draw_shape_at(const Shape *s, const DevShape *d, double u, double *x, double *y,
                       double *tx, double *ty)
{
    double dx, dy;
    if (s->kind == SHAPE_STUBS) {
        int second = u >= 0.5;
        double w = second ? 2 * u - 1 : 2 * u;
        double x0 = second ? d->x[3] : d->x[0], y0 = second ? d->y[3] : d->y[0];
        double x1 = second ? d->x[1] : d->x[2], y1 = second ? d->y[1] : d->y[2];
        *x = x0 + w * (x1 - x0), *y = y0 + w * (y1 - y0);
        dx = x1 - x0, dy = y1 - y0;
    } else if (s->kind == SHAPE_ARC) {
        double v = 1 - u;
        double b0 = v * v * v, b1 = 3 * v * v * u, b2 = 3 * v * u * u, b3 = u * u * u;
        *x = b0 * d->x[0] + b1 * d->x[2] + b2 * d->x[3] + b3 * d->x[1];
        *y = b0 * d->y[0] + b1 * d->y[2] + b2 * d->y[3] + b3 * d->y[1];
        dx = v * v * (d->x[2] - d->x[0]) + 2 * u * v * (d->x[3] - d->x[2])
             + u * u * (d->x[1] - d->x[3]);
        dy = v * v * (d->y[2] - d->y[0]) + 2 * u * v * (d->y[3] - d->y[2])
             + u * u * (d->y[1] - d->y[3]);
    } else {
        *x = d->x[0] + u * (d->x[1] - d->x[0]);
        *y = d->y[0] + u * (d->y[1] - d->y[0]);
        dx = d->x[1] - d->x[0], dy = d->y[1] - d->y[0];
    }
    double len = hypot(dx, dy);
    *tx = len > 1e-9 ? dx / len : 1;
    *ty = len > 1e-9 ? dy / len : 0;
}

static void chan_at(const Chan *ch, double u, double *x, double *y, double *tx, double *ty)
{
    fl__draw_shape_at(&ch->s, &ch->d, ch->reverse ? 1 - u : u, x, y, tx, ty);
    if (ch->reverse)
        *tx = -*tx, *ty = -*ty;
}

/* Where along a channel its marks go, clear of the switch squares: the
 * middle of a link, or on a wrap-around one mark on each stub. */
static int chan_marks(const Chan *ch, double *u)
{
    if (ch->s.kind == SHAPE_STUBS) {
        u[0] = 0.4, u[1] = 0.6;
        return 2;
    }
    u[0] = 0.5;
    return 1;
}

/* A filled arrow head with its tip at (x, y), pointing along (tx, ty). */
void fl__draw_head_path(cairo_t *cr, double x, double y, double tx, double ty, double size)
{
    double nx = -ty, ny = tx, back = size, side = size * 0.5;
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x - tx * back + nx * side, y - ty * back + ny * side);
    cairo_line_to(cr, x - tx * back - nx * side, y - ty * back - ny * side);
    cairo_close_path(cr);
}

/* Arrow heads along channel c at its marks, centred on each mark. */
static void chan_heads_path(cairo_t *cr, const Chan *ch, double size)
{
    double u[2];
    int n = chan_marks(ch, u);
    for (int i = 0; i < n; i++) {
        double x, y, tx, ty;
        chan_at(ch, u[i], &x, &y, &tx, &ty);
        fl__draw_head_path(cr, x + tx * size / 2, y + ty * size / 2, tx, ty, size);
    }
}

/* Fills the current path (text) over a halo of the background colour, so
 * it reads over lines. */
static void halo_fill(const Ctx *c, Rgba fg)
{
    cairo_t *cr = c->cr;
    set_colour(cr, c->col->background);
    cairo_set_line_width(cr, fmax(2.0, c->z.font * 0.3));
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke_preserve(cr);
    set_colour(cr, fg);
    cairo_fill(cr);
}

static void halo_text(const Ctx *c, double x, double y, const char *text, Rgba fg)
{
    cairo_new_path(c->cr);
    cairo_move_to(c->cr, x, y);
    cairo_text_path(c->cr, text);
    halo_fill(c, fg);
}

/* Restricts drawing to everywhere but the nodes, so what is drawn along
 * links passes under the switches and hosts and their labels stay clear.
 * Call between cairo_save() and cairo_restore(). */
void fl__draw_clip_out_nodes(const Ctx *c)
{
    cairo_t *cr = c->cr;
    const Geom *g = c->g;
    cairo_new_path(cr);
    cairo_rectangle(cr, c->clip.x1, c->clip.y1, c->clip.x2 - c->clip.x1,
                    c->clip.y2 - c->clip.y1);
    for (int n = 0; n < fl_topology_node_count(c->t); n++) {
        if (!fl__draw_node_shown(g, n))
            continue;
        double x, y;
        int sw = fl_topology_node_kind(c->t, n) == FL_NODE_SWITCH;
        double half = sw ? g->half + 0.5 : g->host_r + 0.5;
        fl__draw_node_device(g, n, &x, &y);
        if (box_near(&c->clip, x, y, half))
            cairo_rectangle(cr, x - half, y - half, 2 * half, 2 * half);
    }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    cairo_clip(cr);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
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
 * the switches, or of a stub beyond its switch); 0 when it has no label,
 * is out of view or has no room for an arrow. */
static int direction_mark(const Ctx *c, int ch, const char **label, double *x, double *y,
                          double *tx, double *ty, double *room)
{
    Chan chan;
    double u[2];
    if (!(*label = fl_routing_channel_label(c->routing, ch)))
        return 0;
    chan_init(c->sc, ch, &chan);
    /* One mark is enough: on a wrap-around, the stub it leaves by. */
    int stubs = chan_marks(&chan, u) == 2;
    chan_at(&chan, stubs ? u[0] : 0.5, x, y, tx, ty);
    const DevShape *d = &chan.d;
    int end = stubs && chan.reverse ? 3 : 2;
    *room = stubs ? hypot(d->x[end] - d->x[end - 2], d->y[end] - d->y[end - 2]) - c->g->half
                  : hypot(d->x[1] - d->x[0], d->y[1] - d->y[0]) - 2 * c->g->half;
    return *room >= c->z.arrow + 4 && box_near(&c->clip, *x, *y, c->z.arrow + 40);
}

/* Every channel that has a direction label: a small arrow beside its link,
 * on the right of the way it runs, and the label beyond the arrow, blue
 * for up channels and orange for down ones. A large network has
 * thousands: they are drawn in one stroke or fill per colour and part,
 * labels on small background chips (stroked halos around glyph outlines
 * would cost cairo half a second). */
static void draw_directions(const Ctx *c)
{
    cairo_t *cr = c->cr;
    const Sizes *z = &c->z;
    if (z->arrow < MIN_ARROW)
        return;
    /* Labels of crowded links may reach a switch: they pass under it. */
    cairo_save(cr);
    fl__draw_clip_out_nodes(c);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, fmax(z->font, 1));
    double off = c->g->lw * 0.5 + 3.5, half = z->arrow / 2;
    int parts = z->font > 0 ? 4 : 2;
    for (int up = 1; up >= 0; up--) {
        Rgba colour = up ? c->col->up : c->col->down;
        for (int part = 0; part < parts; part++) {
            cairo_new_path(cr);
            set_colour(cr, part == 2 ? c->col->chip : colour);
            for (int ch = 0; ch < fl_topology_channel_count(c->t); ch++) {
                const char *label;
                double x, y, tx, ty, room;
                if (!is_switch_link(c->t, ch >> 1)
                    || !direction_mark(c, ch, &label, &x, &y, &tx, &ty, &room)
                    || label_is_up(label) != up)
                    continue;
                double nx = -ty, ny = tx;   /* the right-hand side on screen */
                double ax = x + nx * off, ay = y + ny * off;
                if (part == 0) {
                    cairo_move_to(cr, ax - tx * half, ay - ty * half);
                    cairo_line_to(cr, ax + tx * (half - 3), ay + ty * (half - 3));
                    continue;
                }
                if (part == 1) {
                    fl__draw_head_path(cr, ax + tx * half, ay + ty * half, tx, ty,
                                       fmin(6, z->arrow * 0.45));
                    continue;
                }
                /* The label's box just clear of the arrow, whatever the
                 * link's angle. */
                cairo_text_extents_t te;
                cairo_text_extents(cr, label, &te);
                if (te.width + 4 > room)
                    continue; /* the arrow alone says it */
                double reach = off + 2.5 + fabs(nx) * te.width / 2 + fabs(ny) * te.height / 2;
                double lx = x + nx * reach - te.width / 2, ly = y + ny * reach - te.height / 2;
                if (part == 2) {
                    cairo_rectangle(cr, lx - 1, ly - 1, te.width + 2, te.height + 2);
                } else {
                    cairo_move_to(cr, lx - te.x_bearing, ly - te.y_bearing);
                    cairo_show_text(cr, label);
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

/* Adds channels (only switch-to-switch ones are drawn) to the path. */
static void channels_path(const Ctx *c, const int *chans, int n)
{
    int nch = fl_topology_channel_count(c->t);
    for (int i = 0; i < n; i++) {
        if (chans[i] < 0 || chans[i] >= nch)
            continue;
        Chan ch;
        chan_init(c->sc, chans[i], &ch);
        fl__draw_shape_path(c->cr, &ch.s, &ch.d);
    }
}

static void channels_heads(const Ctx *c, const int *chans, int n, double size)
{
    int nch = fl_topology_channel_count(c->t);
    cairo_new_path(c->cr);
    for (int i = 0; i < n; i++) {
        if (chans[i] < 0 || chans[i] >= nch)
            continue;
        Chan ch;
        chan_init(c->sc, chans[i], &ch);
        chan_heads_path(c->cr, &ch, size);
    }
    cairo_fill(c->cr);
}

static void stroke_channels(const Ctx *c, const int *chans, int n, Rgba colour, double width)
{
    cairo_new_path(c->cr);
    channels_path(c, chans, n);
    set_colour(c->cr, colour);
    cairo_set_line_width(c->cr, width);
    cairo_stroke(c->cr);
}

static void ring_around(const Ctx *c, int node, Rgba colour)
{
    if (node < 0 || node >= fl_topology_node_count(c->t))
        return;
    double x, y, w = clamp(c->g->half * 0.25, 3.0, 5.0), gap = w * 0.5 + 1.5;
    double half = c->g->half + gap;
    fl__draw_node_device(c->g, node, &x, &y);
    cairo_new_path(c->cr);
    cairo_rectangle(c->cr, x - half, y - half, 2 * half, 2 * half);
    set_colour(c->cr, colour);
    cairo_set_line_width(c->cr, w);
    cairo_stroke(c->cr);
}

static double head_size(const Geom *g)
{
    return clamp(g->lw * 6, 10, 16);
}

/* Every legal shortest path lightly and wide, the chosen one bold with
 * arrows, under the nodes. */
static void draw_paths(const Ctx *c)
{
    const FlDrawRouting *r = c->r;
    cairo_t *cr = c->cr;
    double lw = c->g->lw;
    cairo_save(cr);
    fl__draw_clip_out_nodes(c);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    if (r->paths && r->path_offsets && r->npaths > 0)
        stroke_channels(c, r->paths + r->path_offsets[0],
                        r->path_offsets[r->npaths] - r->path_offsets[0], c->col->paths,
                        fmax(6, lw * 4.5));
    if (r->chosen && r->nchosen > 0) {
        stroke_channels(c, r->chosen, r->nchosen, c->col->chosen, fmax(2.5, lw * 1.9));
        channels_heads(c, r->chosen, r->nchosen, head_size(c->g));
    }
    cairo_restore(cr);
}

static void draw_endpoints(const Ctx *c)
{
    ring_around(c, c->r->src, c->col->source);
    ring_around(c, c->r->dst, c->col->destination);
}

/* The cycle bold with arrows, and its channels numbered in order (beside
 * each arrow, on the right of the way it runs) so the eye can follow it. */
static void draw_cycle(const Ctx *c)
{
    const FlRoutingReport *rep = c->r->report;
    if (!rep || rep->deadlock_free || rep->cycle_len <= 0 || !rep->cycle_channels)
        return;
    cairo_t *cr = c->cr;
    double lw = c->g->lw, size = head_size(c->g);
    cairo_save(cr);
    fl__draw_clip_out_nodes(c);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    stroke_channels(c, rep->cycle_channels, rep->cycle_len, c->col->cycle, fmax(3, lw * 2.2));
    channels_heads(c, rep->cycle_channels, rep->cycle_len, size * 1.1);
    cairo_restore(cr);

    if (rep->cycle_len > MAX_NUMBERED || c->z.font <= 0)
        return;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, c->z.font);
    for (int i = 0; i < rep->cycle_len; i++) {
        int ch = rep->cycle_channels[i];
        if (ch < 0 || ch >= fl_topology_channel_count(c->t))
            continue;
        Chan chan;
        double u[2], x, y, tx, ty;
        chan_init(c->sc, ch, &chan);
        chan_marks(&chan, u);
        chan_at(&chan, u[0], &x, &y, &tx, &ty);
        char text[16];
        cairo_text_extents_t te;
        snprintf(text, sizeof text, "%d", i + 1);
        cairo_text_extents(cr, text, &te);
        double reach = lw + 4 + fabs(ty) * te.width / 2 + fabs(tx) * te.height / 2;
        double cx = x - ty * reach, cy = y + tx * reach;
        halo_text(c, cx - te.width / 2 - te.x_bearing, cy - te.height / 2 - te.y_bearing, text,
                  c->col->cycle);
    }
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

void fl_draw_routing(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                     const FlDrawRouting *r)
{
    FlDrawOptions defaults;
    if (!o) {
        fl_draw_options_init(&defaults);
        o = &defaults;
    }
    fl_draw_topology(cr, t, o);
    if (!t || !r)
        return;
    int routed = fl__draw_same_network(t, r->routing);
    if (!routed && r->hover_turn.sw < 0)
        return;

    Scene sc;
    fl__draw_scene_init(&sc, t, &o->view, r);
    Ctx c = { cr, &sc, &sc.g, t, r->routing, r, o->dark ? &dark_colours : &light_colours,
              { 0 }, { 0 } };
    fl__draw_sizes_init(&c.z, &sc.g);
    cairo_clip_extents(cr, &c.clip.x1, &c.clip.y1, &c.clip.x2, &c.clip.y2);
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

    if (sc.bow)
        fl__draw_hv_links(&c);
    if (ov & FL_DRAW_OVERLAY_PATHS)
        draw_paths(&c);
    if (ov & FL_DRAW_OVERLAY_CYCLE)
        draw_cycle(&c);
    if (ov & FL_DRAW_OVERLAY_DIRECTIONS)
        draw_directions(&c);
    if (show_hv)
        fl__draw_hv_labels(&c, h, v);
    if (ov & FL_DRAW_OVERLAY_TURNS)
        fl__draw_turns(&c);
    if (ov & FL_DRAW_OVERLAY_PATHS)
        draw_endpoints(&c);
    fl__draw_hover_turn(&c);
    if (routed && r->legend && ov)
        fl__draw_legend(&c, show_hv && c.z.font > 0, c.z.arrow >= MIN_ARROW);
    free(h);
    free(v);
    cairo_restore(cr);
    fl__draw_geom_clear(&sc.g);
}

/* ------------------------------------------------------------------------ */
/* Hit testing                                                              */
/* ------------------------------------------------------------------------ */

static double segment_distance(double px, double py, double ax, double ay, double bx,
                               double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    double u = l2 > 0 ? clamp(((px - ax) * dx + (py - ay) * dy) / l2, 0, 1) : 0;
    return hypot(px - (ax + u * dx), py - (ay + u * dy));
}

/* The distance from (x, y) to a shape, along chords through
 * fl__draw_shape_at(): a wrap-around's two stubs apart, an arc in short
 * pieces. */
static double shape_distance(const Shape *s, const DevShape *d, double x, double y)
{
    int parts = s->kind == SHAPE_STUBS ? 2 : 1, steps = s->kind == SHAPE_ARC ? 24 : 1;
    double best = INFINITY;
    for (int k = 0; k < parts; k++) {
        double u0 = k * 0.5, u1 = parts == 2 ? u0 + 0.5 - 1e-9 : 1, lx, ly, cx, cy, tx, ty;
        fl__draw_shape_at(s, d, u0, &lx, &ly, &tx, &ty);
        for (int i = 1; i <= steps; i++) {
            fl__draw_shape_at(s, d, u0 + (u1 - u0) * i / steps, &cx, &cy, &tx, &ty);
            best = fmin(best, segment_distance(x, y, lx, ly, cx, cy));
            lx = cx, ly = cy;
        }
    }
    return best;
}

int fl_draw_hit_routing_link(const FlTopology *t, const FlDrawView *v, const FlDrawRouting *r,
                             double x, double y)
{
    Scene sc;
    if (!t || !v)
        return -1;
    fl__draw_scene_init(&sc, t, v, r);
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
        double dist = shape_distance(&s, &d, x, y);
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
    FlTopology *shown = NULL;
    FlDrawOptions o;
    if (!t)
        return fl_error_set(err, FL_EINVAL, "no network to draw");
    /* A routing without a tree, or a network whose hosts cannot be left
     * out, is drawn as it is. */
    if (r && r->overlays && fl__draw_same_network(t, r->routing)) {
        int rc = (r->overlays & FL_DRAW_OVERLAY_HV_GRAPH)
                     ? fl_draw_hv_layout(t, r->routing, &shown, NULL)
                     : FL_EUNSUPPORTED;
        if (rc != FL_OK && rc != FL_ENOMEM)
            rc = fl_draw_switches_only(t, &shown, NULL);
        if (rc == FL_ENOMEM)
            return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    const FlTopology *drawn = shown ? shown : t;
    fl_draw_options_init(&o);
    if (width >= 1 && height >= 1 && width <= FL_DRAW_MAX_SIDE && height <= FL_DRAW_MAX_SIDE)
        fl_draw_routing_fit(drawn, r, width, height, &o.view);
    int rc = fl_draw_export_routing_with_options(drawn, &o, r, path, format, width, height, err);
    fl_topology_free(shown);
    return rc;
}
