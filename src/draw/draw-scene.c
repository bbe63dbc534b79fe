/* draw-scene.c — what every picture drawn over a network shares: its
 * colours and sizes, the scene and its links as drawn, channels along
 * those links, arrow heads, labels on halos, rings around nodes, clipping
 * the nodes out, and hit testing along a link's shape.
 *
 * Everything here is drawn through the Geom of draw-geometry.c, so a mark
 * follows a link exactly as fl_draw_topology() drew it: straight, as the
 * two spurs of a wrap-around, or as an arc. Sizes are in device units and
 * follow the size of the switches, so marks keep their proportions at
 * every zoom level.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw-labels-private.h"
#include "draw-scene-private.h"

/* ------------------------------------------------------------------------ */
/* Colours                                                                  */
/* ------------------------------------------------------------------------ */

/* clang-format off */
#define HEX(hex, alpha)                                                    \
    { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0,           \
      ((hex) & 0xff) / 255.0, (alpha) }
/* clang-format on */

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
    .dateline = HEX(0x26a269, 1),
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
    .dateline = HEX(0x57e389, 1),
    .chip = HEX(0x1e1e1e, 0.85),
    .legend_fill = HEX(0x242424, 0.92),
    .legend_border = HEX(0x5e5c64, 1),
};

const Colours *fl__draw_colours(int dark)
{
    return dark ? &dark_colours : &light_colours;
}

/* ------------------------------------------------------------------------ */
/* Sizes, the scene and the pen                                             */
/* ------------------------------------------------------------------------ */

#define MIN_FONT 6.5         /* labels smaller than this are left out */

void fl__draw_sizes_init(Sizes *z, const Geom *g)
{
    double half = g->half, m = g->marks;
    z->arc_w = clamp(0.14 * half, 2.0, 2.8) * m;
    /* Squares shrink where a free layout crowds switches, while their
     * links stay long: the arcs keep some room in proportion to the grid
     * step too. */
    z->r0 = half + fmax(fmax(4.0, 0.4 * half), 0.06 * g->v.scale);
    z->step = fmax(fmax(2.4 * z->arc_w, 0.3 * half), 0.04 * g->v.scale);
    z->head = clamp(3.6 * z->arc_w, 7.5 * m, 10.5 * m);
    z->font = clamp(0.16 * g->v.scale, 0, 12);
    if (z->font < MIN_FONT)
        z->font = g->v.scale >= 15 ? MIN_FONT : 0;
    z->font *= g->text;
    z->arrow = clamp(0.16 * g->v.scale, 0, 18) * g->text;
}

double fl__draw_head_size(const Geom *g)
{
    return clamp(g->lw * 6, 10 * g->marks, 16 * g->marks);
}

void fl__draw_scene_init(Scene *sc, const FlTopology *t, const FlDrawView *v, int bow)
{
    fl__draw_geom_init(&sc->g, t, v, 1);
    sc->bow = bow;
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

void fl__draw_pen_begin(Pen *p, cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                        int bow)
{
    p->cr = cr;
    fl__draw_scene_init(&p->sc, t, &o->view, bow);
    p->col = fl__draw_colours(o->dark);
    fl__draw_sizes_init(&p->z, &p->sc.g);
    cairo_clip_extents(cr, &p->clip.x1, &p->clip.y1, &p->clip.x2, &p->clip.y2);
}

void fl__draw_pen_end(Pen *p)
{
    fl__draw_geom_clear(&p->sc.g);
}

/* ------------------------------------------------------------------------ */
/* Shapes and channels                                                      */
/* ------------------------------------------------------------------------ */

void fl__draw_shape_at(const Shape *s, const DevShape *d, double u, double *x, double *y,
                       double *tx, double *ty)
{
    double dx, dy;
    if (s->kind == SHAPE_SPURS) {
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

static double segment_distance(double px, double py, double ax, double ay, double bx,
                               double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    double u = l2 > 0 ? clamp(((px - ax) * dx + (py - ay) * dy) / l2, 0, 1) : 0;
    return hypot(px - (ax + u * dx), py - (ay + u * dy));
}

/* Along chords through fl__draw_shape_at(). */
double fl__draw_shape_distance(const Shape *s, const DevShape *d, double x, double y)
{
    int parts = s->kind == SHAPE_SPURS ? 2 : 1, steps = s->kind == SHAPE_ARC ? 24 : 1;
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

void fl__draw_chan_init(const Scene *sc, int c, Chan *ch)
{
    fl__draw_scene_link(sc, c >> 1, &ch->s, &ch->d);
    ch->reverse = c & 1;
}

void fl__draw_chan_at(const Chan *ch, double u, double *x, double *y, double *tx, double *ty)
{
    fl__draw_shape_at(&ch->s, &ch->d, ch->reverse ? 1 - u : u, x, y, tx, ty);
    if (ch->reverse)
        *tx = -*tx, *ty = -*ty;
}

int fl__draw_chan_marks(const Chan *ch, double *u)
{
    if (ch->s.kind == SHAPE_SPURS) {
        u[0] = 0.4, u[1] = 0.6;
        return 2;
    }
    u[0] = 0.5;
    return 1;
}

void fl__draw_head_path(cairo_t *cr, double x, double y, double tx, double ty, double size)
{
    double nx = -ty, ny = tx, back = size, side = size * 0.5;
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x - tx * back + nx * side, y - ty * back + ny * side);
    cairo_line_to(cr, x - tx * back - nx * side, y - ty * back - ny * side);
    cairo_close_path(cr);
}

void fl__draw_chan_heads_path(cairo_t *cr, const Chan *ch, double size)
{
    double u[2];
    int n = fl__draw_chan_marks(ch, u);
    for (int i = 0; i < n; i++) {
        double x, y, tx, ty;
        fl__draw_chan_at(ch, u[i], &x, &y, &tx, &ty);
        fl__draw_head_path(cr, x + tx * size / 2, y + ty * size / 2, tx, ty, size);
    }
}

void fl__draw_channels_path(cairo_t *cr, const Scene *sc, const int *chans, int n)
{
    int nch = fl_topology_channel_count(sc->g.t);
    for (int i = 0; i < n; i++) {
        if (chans[i] < 0 || chans[i] >= nch)
            continue;
        Chan ch;
        fl__draw_chan_init(sc, chans[i], &ch);
        fl__draw_shape_path(cr, &ch.s, &ch.d);
    }
}

void fl__draw_channels_heads(cairo_t *cr, const Scene *sc, const int *chans, int n,
                             double size)
{
    int nch = fl_topology_channel_count(sc->g.t);
    cairo_new_path(cr);
    for (int i = 0; i < n; i++) {
        if (chans[i] < 0 || chans[i] >= nch)
            continue;
        Chan ch;
        fl__draw_chan_init(sc, chans[i], &ch);
        fl__draw_chan_heads_path(cr, &ch, size);
    }
    cairo_fill(cr);
}

void fl__draw_stroke_channels(cairo_t *cr, const Scene *sc, const int *chans, int n,
                              Rgba colour, double width)
{
    cairo_new_path(cr);
    fl__draw_channels_path(cr, sc, chans, n);
    set_colour(cr, colour);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

void fl__draw_dateline_mark(cairo_t *cr, const Colours *col, double x, double y, double tx,
                            double ty, double len, double width)
{
    double nx = -ty * len / 2, ny = tx * len / 2;
    cairo_new_path(cr);
    cairo_move_to(cr, x - nx, y - ny);
    cairo_line_to(cr, x + nx, y + ny);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    set_colour(cr, col->background);
    cairo_set_line_width(cr, width + 2);
    cairo_stroke_preserve(cr);
    set_colour(cr, col->dateline);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

void fl__draw_ring_around(cairo_t *cr, const Geom *g, int node, Rgba colour)
{
    if (node < 0 || node >= fl_topology_node_count(g->t))
        return;
    double x, y, w = clamp(g->half * 0.25, 3.0, 5.0), gap = w * 0.5 + 1.5;
    double half = g->half + gap;
    fl__draw_node_device(g, node, &x, &y);
    cairo_new_path(cr);
    cairo_rectangle(cr, x - half, y - half, 2 * half, 2 * half);
    set_colour(cr, colour);
    cairo_set_line_width(cr, w);
    cairo_stroke(cr);
}

#define MAX_NUMBERED 64      /* longer cycles are drawn without numbers */

/* Bold with arrows under the nodes, then the numbers beside each arrow, on
 * the right of the way it runs, so the eye can follow the cycle. */
void fl__draw_cycle(cairo_t *cr, const Scene *sc, const Colours *col, const Sizes *z,
                    const Box *clip, const int *chans, int n, Labels *lab)
{
    const Geom *g = &sc->g;
    if (!chans || n <= 0)
        return;
    double lw = g->lw, size = fl__draw_head_size(g);
    cairo_save(cr);
    fl__draw_clip_out_nodes(cr, g, clip);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    fl__draw_stroke_channels(cr, sc, chans, n, col->cycle, fmax(3, lw * 2.2));
    fl__draw_channels_heads(cr, sc, chans, n, size * 1.1);
    cairo_restore(cr);

    if (n > MAX_NUMBERED || z->font <= 0)
        return;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, z->font);
    for (int i = 0; i < n; i++) {
        int ch = chans[i];
        if (ch < 0 || ch >= fl_topology_channel_count(g->t))
            continue;
        Chan chan;
        double u[2], x, y, tx, ty;
        fl__draw_chan_init(sc, ch, &chan);
        fl__draw_chan_marks(&chan, u);
        fl__draw_chan_at(&chan, u[0], &x, &y, &tx, &ty);
        char text[16];
        cairo_text_extents_t te;
        snprintf(text, sizeof text, "%d", i + 1);
        cairo_text_extents(cr, text, &te);
        double reach = lw + 4 + fabs(ty) * te.width / 2 + fabs(tx) * te.height / 2;
        double cx = x - ty * reach, cy = y + tx * reach;
        if (lab) {
            Box cands[2] = { box_around(cx, cy, te.width + 2, te.height + 2),
                             box_around(x + ty * reach, y - tx * reach, te.width + 2,
                                        te.height + 2) };
            int k = fl__draw_labels_place(lab, cands, 2);
            if (k < 0)
                continue;
            cx = (cands[k].x1 + cands[k].x2) / 2, cy = (cands[k].y1 + cands[k].y2) / 2;
        }
        fl__draw_halo_text(cr, cx - te.width / 2 - te.x_bearing,
                           cy - te.height / 2 - te.y_bearing, text, col->cycle,
                           col->background, z->font);
    }
}

void fl__draw_legend_box(cairo_t *cr, const Colours *col, double x, double y, double w,
                         double h)
{
    cairo_rectangle(cr, x, y, w, h);
    set_colour(cr, col->legend_fill);
    cairo_fill_preserve(cr);
    set_colour(cr, col->legend_border);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
}

/* ------------------------------------------------------------------------ */
/* Text and clipping                                                        */
/* ------------------------------------------------------------------------ */

void fl__draw_halo_text(cairo_t *cr, double x, double y, const char *text, Rgba fg, Rgba halo,
                        double font)
{
    cairo_new_path(cr);
    cairo_move_to(cr, x, y);
    cairo_text_path(cr, text);
    set_colour(cr, halo);
    cairo_set_line_width(cr, fmax(2.0, font * 0.3));
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke_preserve(cr);
    set_colour(cr, fg);
    cairo_fill(cr);
}

void fl__draw_clip_out_nodes(cairo_t *cr, const Geom *g, const Box *clip)
{
    const FlTopology *t = g->t;
    cairo_new_path(cr);
    cairo_rectangle(cr, clip->x1, clip->y1, clip->x2 - clip->x1, clip->y2 - clip->y1);
    for (int n = 0; n < fl_topology_node_count(t); n++) {
        if (!fl__draw_node_shown(g, n))
            continue;
        double x, y;
        int sw = fl_topology_node_kind(t, n) == FL_NODE_SWITCH;
        double half = sw ? g->half + 0.5 : g->host_r + 0.5;
        fl__draw_node_device(g, n, &x, &y);
        if (box_near(clip, x, y, half))
            cairo_rectangle(cr, x - half, y - half, 2 * half, 2 * half);
    }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    cairo_clip(cr);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
}

cairo_t *fl__draw_path_collector(void)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
    cairo_t *cr = cairo_create(s);
    cairo_surface_destroy(s);
    return cr;
}
