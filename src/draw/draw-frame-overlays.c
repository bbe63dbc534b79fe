/* draw-frame-overlays.c — what a simulation frame draws over the network
 * besides the flits: a heat map of channel utilization along the links,
 * its legend, and a caption (the cycle counter) in a box that reads on any
 * background. The flits themselves are draw-flits.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "draw-scene-private.h"

#define HEAT_LEVELS 16       /* colours a heat map is drawn in, one stroke each */
#define HEAT_MIN 0.005       /* channels below this stay the plain link */

/* ColorBrewer's YlOrRd: pale yellow through orange to dark red, read as
 * "hotter" by everyone and distinct from the packets' colours. */
static const double heat_stops[][3] = {
    { 1.000, 1.000, 0.698 }, { 0.996, 0.800, 0.361 }, { 0.992, 0.553, 0.235 },
    { 0.941, 0.231, 0.125 }, { 0.741, 0.000, 0.149 },
};
#define NSTOPS ((int)(sizeof heat_stops / sizeof heat_stops[0]))

void fl_draw_heat_colour(double u, double rgb[3])
{
    u = isnan(u) ? 0 : clamp(u, 0, 1) * (NSTOPS - 1);
    int i = (int)u < NSTOPS - 1 ? (int)u : NSTOPS - 2;
    double w = u - i;
    for (int k = 0; k < 3; k++)
        rgb[k] = heat_stops[i][k] * (1 - w) + heat_stops[i + 1][k] * w;
}

static Rgba heat_rgba(double u)
{
    double rgb[3];
    fl_draw_heat_colour(u, rgb);
    Rgba c = { rgb[0], rgb[1], rgb[2], 1 };
    return c;
}

/* How far from its centre a node's glyph reaches along the unit
 * direction (tx, ty): a switch's square, or a host's disc. */
static double node_reach(const Geom *g, int node, double tx, double ty)
{
    if (fl_topology_node_kind(g->t, node) != FL_NODE_SWITCH)
        return g->host_r;
    double m = fmax(fabs(tx), fabs(ty));
    return m > 1e-9 ? g->half / m : g->half;
}

/* The point at u along ch, moved off to the right of the way it runs. */
static void lane_point(cairo_t *cr, const Chan *ch, double u, double off, int first)
{
    double x, y, tx, ty;
    fl__draw_chan_at(ch, u, &x, &y, &tx, &ty);
    if (first)
        cairo_move_to(cr, x - ty * off, y + tx * off);
    else
        cairo_line_to(cr, x - ty * off, y + tx * off);
}

/* A wrap-around is its two spurs, an arc eight chords. */
void fl__draw_lane_path(cairo_t *cr, const Scene *sc, int c, double off)
{
    const Geom *g = &sc->g;
    Chan ch;
    fl__draw_chan_init(sc, c, &ch);
    int src = fl_topology_channel_src(g->t, c), dst = fl_topology_channel_dst(g->t, c);
    const DevShape *d = &ch.d;
    double x0, y0, x1, y1, tx0, ty0, tx1, ty1;
    fl__draw_chan_at(&ch, 0, &x0, &y0, &tx0, &ty0);
    fl__draw_chan_at(&ch, 1, &x1, &y1, &tx1, &ty1);
    double ra = node_reach(g, src, tx0, ty0), rb = node_reach(g, dst, tx1, ty1);
    if (ch.s.kind == SHAPE_SPURS) {
        /* The spur the channel leaves by, then the one it arrives by. */
        double la = ch.reverse ? hypot(d->x[3] - d->x[1], d->y[3] - d->y[1])
                               : hypot(d->x[2] - d->x[0], d->y[2] - d->y[0]);
        double lb = ch.reverse ? hypot(d->x[2] - d->x[0], d->y[2] - d->y[0])
                               : hypot(d->x[3] - d->x[1], d->y[3] - d->y[1]);
        if (la > ra) {
            lane_point(cr, &ch, ra / la / 2, off, 1);
            lane_point(cr, &ch, 0.5 - 1e-6, off, 0);
        }
        if (lb > rb) {
            lane_point(cr, &ch, 0.5, off, 1);
            lane_point(cr, &ch, 1 - rb / lb / 2, off, 0);
        }
        return;
    }
    if (ch.s.kind == SHAPE_LINE) {
        double len = hypot(x1 - x0, y1 - y0);
        if (len <= ra + rb)
            return;
        double nx = -ty0 * off, ny = tx0 * off;
        cairo_move_to(cr, x0 + tx0 * ra + nx, y0 + ty0 * ra + ny);
        cairo_line_to(cr, x1 - tx0 * rb + nx, y1 - ty0 * rb + ny);
        return;
    }
    int pieces = 8;
    double len = 0, px = x0, py = y0;
    for (int k = 1; k <= pieces; k++) {
        double x, y, tx, ty;
        fl__draw_chan_at(&ch, (double)k / pieces, &x, &y, &tx, &ty);
        len += hypot(x - px, y - py);
        px = x, py = y;
    }
    double u0 = len > 0 ? ra / len : 1, u1 = len > 0 ? 1 - rb / len : 0;
    if (u1 <= u0)
        return;
    for (int k = 0; k <= pieces; k++)
        lane_point(cr, &ch, u0 + (u1 - u0) * k / pieces, off, k == 0);
}

void fl__draw_lane_route_path(cairo_t *cr, const Scene *sc, const int *chans, const double *offs,
                              int n, double off)
{
    for (int i = 0; i < n; i++)
        fl__draw_lane_path(cr, sc, chans[i], offs ? offs[i] : off);
}

/* Just before the switch it arrives at, along the way it arrives. */
void fl__draw_lane_route_head(cairo_t *cr, const Scene *sc, const int *chans, const double *offs,
                              int n, double off, double size)
{
    Chan ch;
    double x, y, tx, ty, ux, uy, last_off = offs ? offs[n - 1] : off;
    if (n <= 0)
        return;
    fl__draw_chan_init(sc, chans[n - 1], &ch);
    fl__draw_chan_at(&ch, 1, &ux, &uy, &tx, &ty);
    fl__draw_chan_arrival(sc, chans[n - 1], sc->g.half + 1.5, last_off, &x, &y);
    fl__draw_head_path(cr, x, y, tx, ty, size);
}

double fl__draw_lane_head_size(double width)
{
    return fmax(clamp(2.2 * width, 6, 12), 1.8 * width);
}

void fl__draw_lane_route(const Pen *pen, const int *chans, const double *offs, int n, double off,
                         Rgba colour, double width, int head)
{
    cairo_t *cr = pen->cr;
    if (n <= 0)
        return;
    cairo_new_path(cr);
    fl__draw_lane_route_path(cr, &pen->sc, chans, offs, n, off);
    set_colour(cr, colour);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
    if (!head)
        return;
    cairo_new_path(cr);
    fl__draw_lane_route_head(cr, &pen->sc, chans, offs, n, off, fl__draw_lane_head_size(width));
    cairo_fill(cr);
}

void fl__draw_heat(const Pen *pen, const double *heat, int nheat, double width, int hosts)
{
    const Geom *g = &pen->sc.g;
    cairo_t *cr = pen->cr;
    int nch = fl_topology_channel_count(g->t);
    if (!heat || nheat <= 0)
        return;
    if (nheat < nch)
        nch = nheat;
    unsigned char *level = malloc((size_t)(nch > 0 ? nch : 1));
    if (!level)
        return;
    for (int c = 0; c < nch; c++) {
        double u = heat[c];
        level[c] = 0;
        if (!(u >= HEAT_MIN))
            continue;
        int k = (int)(fmin(u, 1) * HEAT_LEVELS);
        level[c] = (unsigned char)(1 + (k >= HEAT_LEVELS ? HEAT_LEVELS - 1 : k));
    }
    cairo_save(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_width(cr, width);
    for (int lv = 1; lv <= HEAT_LEVELS; lv++) {
        cairo_new_path(cr);
        int any = 0;
        for (int c = 0; c < nch; c++) {
            if (level[c] != lv || (!(hosts && g->host_r > 0) && !is_switch_link(g->t, c >> 1)))
                continue;
            double x, y;
            fl__draw_node_device(g, fl_topology_channel_src(g->t, c), &x, &y);
            if (!box_near(&pen->clip, x, y, g->v.scale * 2))
                continue;
            fl__draw_lane_path(cr, &pen->sc, c, width / 2);
            any = 1;
        }
        if (any) {
            set_colour(cr, heat_rgba((lv - 0.5) / HEAT_LEVELS));
            cairo_stroke(cr);
        }
    }
    cairo_restore(cr);
    free(level);
}

void fl__draw_heat_legend(const Pen *pen, const char *title)
{
    cairo_t *cr = pen->cr;
    const Colours *col = pen->col;
    const Box *clip = &pen->clip;
    if (!title)
        title = "channel utilization";
    double font = 11, pad = 6, bar_w = 120, bar_h = 10;
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, font);
    cairo_text_extents_t te;
    cairo_text_extents(cr, title, &te);
    double w = fmax(bar_w, te.x_advance) + 2 * pad, h = pad + font + 4 + bar_h + 4 + font + pad;
    double x = clip->x2 - w - 8, y = clip->y2 - h - 8;
    fl__draw_legend_box(cr, col, x, y, w, h);
    set_colour(cr, col->text);
    cairo_move_to(cr, x + pad, y + pad + font - 2);
    cairo_show_text(cr, title);
    double bx = x + pad, by = y + pad + font + 4;
    cairo_pattern_t *grad = cairo_pattern_create_linear(bx, 0, bx + bar_w, 0);
    for (int i = 0; i < NSTOPS; i++)
        cairo_pattern_add_color_stop_rgb(grad, (double)i / (NSTOPS - 1), heat_stops[i][0],
                                         heat_stops[i][1], heat_stops[i][2]);
    cairo_rectangle(cr, bx, by, bar_w, bar_h);
    cairo_set_source(cr, grad);
    cairo_fill(cr);
    cairo_pattern_destroy(grad);
    static const char *const ticks[] = { "0", "0.5", "1" };
    set_colour(cr, col->text);
    for (int i = 0; i < 3; i++) {
        cairo_text_extents(cr, ticks[i], &te);
        double tx = bx + bar_w * i / 2 - (i == 0 ? 0 : i == 2 ? te.x_advance : te.x_advance / 2);
        cairo_move_to(cr, tx, by + bar_h + 4 + font - 2);
        cairo_show_text(cr, ticks[i]);
    }
    cairo_restore(cr);
}

void fl__draw_caption(cairo_t *cr, const Colours *col, const Box *clip, const char *text)
{
    if (!text || !*text)
        return;
    double w = clip->x2 - clip->x1, font = clamp(fmin(w, clip->y2 - clip->y1) / 40, 11, 22);
    double pad = font * 0.45;
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, font);
    cairo_font_extents_t fe;
    cairo_text_extents_t te;
    cairo_font_extents(cr, &fe);
    cairo_text_extents(cr, text, &te);
    double x = clip->x1 + 8, y = clip->y1 + 8;
    /* Opaque: the caption must read over flits and links as on paper. */
    Rgba fill = col->legend_fill;
    fill.a = 1;
    cairo_rectangle(cr, x, y, te.x_advance + 2 * pad, fe.ascent + fe.descent + 2 * pad);
    set_colour(cr, fill);
    cairo_fill_preserve(cr);
    set_colour(cr, col->legend_border);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    set_colour(cr, col->text);
    cairo_move_to(cr, x + pad, y + pad + fe.ascent);
    cairo_show_text(cr, text);
    cairo_restore(cr);
}
