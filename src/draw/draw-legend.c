/* draw-legend.c — the legend of a routing picture, which names what the
 * overlays draw and gives the turn metrics, and the fit that keeps the
 * network clear of it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw-routing-private.h"

enum {
    SAMPLE_TURN, SAMPLE_PPT, SAMPLE_UP, SAMPLE_DOWN, SAMPLE_HV, SAMPLE_TREE, SAMPLE_OTHER,
    SAMPLE_PATHS, SAMPLE_CHOSEN, SAMPLE_SOURCE, SAMPLE_DESTINATION, SAMPLE_CYCLE,
    SAMPLE_DATELINE, SAMPLE_NONE
};

#define LEGEND_FONT 12.0
#define LEGEND_LINE 19.0
#define LEGEND_PAD 10.0
#define LEGEND_SAMPLE 30.0
#define LEGEND_MARGIN 12.0
#define LEGEND_ENTRIES 16
/* The room a fit keeps for the legend holds this many entries below the
 * title and the figures, whatever the legend holds: the network stays put
 * when entries come and go (a route picked, an overlay switched on). */
#define RESERVED_ENTRIES 5

typedef struct Legend {
    char title[128];
    char figures[128];
    struct {
        int sample;
        char text[192];
    } entry[LEGEND_ENTRIES];
    int n;
    int cols;                   /* entries flow into this many columns */
    double col_width;           /* of one column of entries */
    double width, height;
} Legend;

static const char *word(const char *given, const char *english)
{
    return given ? given : english;
}

static void legend_add(Legend *lg, int sample, const char *text, int count)
{
    if (lg->n == LEGEND_ENTRIES)
        return;
    lg->entry[lg->n].sample = sample;
    if (count >= 0)
        snprintf(lg->entry[lg->n].text, sizeof lg->entry[0].text, "%s (%d)", text, count);
    else
        snprintf(lg->entry[lg->n].text, sizeof lg->entry[0].text, "%s", text);
    lg->n++;
}

/* Whether any channel is labelled, and whether with L/R-turn's words. */
static int routing_labels(const FlTopology *t, const FlRouting *r)
{
    for (int ch = 0; ch < fl_topology_channel_count(t); ch++)
        if (fl_routing_channel_label(r, ch))
            return 1;
    return 0;
}

/* The legend of what is drawn (what->hv: (h, v) labels; dirs: channel
 * directions, at a size they are drawn; tree: the H/V graph's links;
 * datelines), with a note for an overlay asked for that this routing
 * cannot draw. */
static void legend_build(Legend *lg, const FlTopology *t, const FlDrawRouting *r,
                         const FlDrawLegendShown *what)
{
    static const FlDrawLegendText none;
    const FlDrawLegendText *w = r->text ? r->text : &none;
    const FlRoutingReport *rep = r->report;
    unsigned ov = r->overlays;
    memset(lg, 0, sizeof *lg);
    lg->cols = 1;
    snprintf(lg->title, sizeof lg->title, "%s", fl_routing_get_info(r->routing)->name);
    if ((ov & FL_DRAW_OVERLAY_TURNS) && rep)
        snprintf(lg->figures, sizeof lg->figures, "PT %.3f \xc2\xb7 SDPT %.3f \xc2\xb7 PPT %d",
                 rep->pt_mean, rep->pt_sd, rep->ppt);
    if (ov & FL_DRAW_OVERLAY_TURNS) {
        legend_add(lg, SAMPLE_TURN, word(w->prohibited_turn, "prohibited turn (in \xe2\x86\x92 out)"), -1);
        legend_add(lg, SAMPLE_PPT, word(w->ppt_pair, "PPT pair: prohibited both ways"), -1);
    }
    if (ov & FL_DRAW_OVERLAY_DIRECTIONS) {
        if (!routing_labels(t, r->routing)) {
            legend_add(lg, SAMPLE_NONE,
                       word(w->no_directions, "no channel directions in this routing"), -1);
        } else if (what->dirs) {
            legend_add(lg, SAMPLE_UP, word(w->up_channel, "up channel"), -1);
            legend_add(lg, SAMPLE_DOWN, word(w->down_channel, "down channel"), -1);
        }
    }
    if (what->hv)
        legend_add(lg, SAMPLE_HV, word(w->hv_coords, "(h, v) = (preorder, depth)"), -1);
    if (ov & FL_DRAW_OVERLAY_HV_GRAPH) {
        if (what->tree) {
            legend_add(lg, SAMPLE_TREE, word(w->tree_link, "spanning-tree link"), -1);
            legend_add(lg, SAMPLE_OTHER, word(w->other_link, "other link"), -1);
        } else {
            legend_add(lg, SAMPLE_NONE, word(w->no_tree, "no spanning tree: no H/V graph"), -1);
        }
    }
    if (what->datelines)
        legend_add(lg, SAMPLE_DATELINE, word(w->dateline, "dateline: VC class 0 \xe2\x86\x92 1"),
                   -1);
    if (ov & FL_DRAW_OVERLAY_PATHS) {
        if (r->npaths > 0)
            legend_add(lg, SAMPLE_PATHS, word(w->legal_paths, "legal shortest paths"), r->npaths);
        if (r->nchosen > 0)
            legend_add(lg, SAMPLE_CHOSEN, word(w->chosen_path, "chosen route"), -1);
        if (r->src >= 0)
            legend_add(lg, SAMPLE_SOURCE, word(w->source, "source"), -1);
        if (r->dst >= 0)
            legend_add(lg, SAMPLE_DESTINATION, word(w->destination, "destination"), -1);
    }
    if ((ov & FL_DRAW_OVERLAY_CYCLE) && rep) {
        if (!rep->deadlock_free && rep->cycle_len > 0)
            legend_add(lg, SAMPLE_CYCLE, word(w->cycle, "dependency cycle, in order"),
                       rep->cycle_len);
        else if (rep->deadlock_free)
            legend_add(lg, SAMPLE_NONE, word(w->no_cycle, "no dependency cycle"), -1);
    }
}

/* Sizes of a legend's type and lines, k times the usual (presenter mode). */
typedef struct Metrics {
    double font, line, pad, sample;
} Metrics;

static Metrics metrics(double k)
{
    Metrics m = { LEGEND_FONT * k, LEGEND_LINE * k, LEGEND_PAD * k, LEGEND_SAMPLE * k };
    return m;
}

/* Measures lg with its entries in cols columns. */
static void legend_measure(cairo_t *cr, Legend *lg, const Metrics *m, int cols)
{
    cairo_text_extents_t te;
    double width = 0, entries = 0;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, m->font + 1);
    cairo_text_extents(cr, lg->title, &te);
    width = te.x_advance;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, m->font);
    if (lg->figures[0]) {
        cairo_text_extents(cr, lg->figures, &te);
        width = fmax(width, te.x_advance);
    }
    for (int i = 0; i < lg->n; i++) {
        cairo_text_extents(cr, lg->entry[i].text, &te);
        entries = fmax(entries, m->sample + 8 + te.x_advance);
    }
    lg->cols = cols < 1 ? 1 : cols > lg->n ? (lg->n > 0 ? lg->n : 1) : cols;
    lg->col_width = entries + (lg->cols > 1 ? m->pad * 1.5 : 0);
    int rows = (lg->n + lg->cols - 1) / lg->cols;
    int lines = 1 + (lg->figures[0] != 0) + rows;
    lg->width = fmax(width, lg->cols * lg->col_width) + 2 * m->pad;
    lg->height = lines * m->line + 2 * m->pad - 4;
}

/* The little picture before an entry, in the box (x, y) .. (x + 30, y + 19),
 * k times larger. */
static void legend_sample(const Ctx *c, int sample, double x, double y, double k)
{
    cairo_t *cr = c->cr;
    const Colours *col = c->col;
    double my = y + LEGEND_LINE * k / 2, w = (LEGEND_SAMPLE - 6) * k, lw = 2.2 * k;
    cairo_new_path(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    switch (sample) {
    case SAMPLE_TURN:
    case SAMPLE_PPT:
        fl__draw_turn_sample(c, x + w / 2, y + (LEGEND_LINE + 2) * k, 11 * k, lw,
                             sample == SAMPLE_PPT);
        break;
    case SAMPLE_UP:
    case SAMPLE_DOWN:
    case SAMPLE_CHOSEN:
    case SAMPLE_CYCLE: {
        Rgba colour = sample == SAMPLE_UP     ? col->up
                      : sample == SAMPLE_DOWN ? col->down
                      : sample == SAMPLE_CHOSEN ? col->chosen
                                                : col->cycle;
        double width = sample == SAMPLE_UP || sample == SAMPLE_DOWN ? 1.5 : 3;
        set_colour(cr, colour);
        cairo_move_to(cr, x, my);
        cairo_line_to(cr, x + w - 5 * k, my);
        cairo_set_line_width(cr, width * k);
        cairo_stroke(cr);
        fl__draw_head_path(cr, x + w, my, 1, 0, 7 * k);
        cairo_fill(cr);
        break;
    }
    case SAMPLE_TREE:
    case SAMPLE_OTHER:
    case SAMPLE_PATHS: {
        double dash[2] = { 4 * k, 3 * k };
        set_colour(cr, sample == SAMPLE_TREE ? col->tree : sample == SAMPLE_OTHER ? col->other : col->paths);
        double width = sample == SAMPLE_TREE ? 3 : sample == SAMPLE_OTHER ? 1.5 : 7;
        cairo_set_line_width(cr, width * k);
        if (sample == SAMPLE_OTHER)
            cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, x, my);
        cairo_line_to(cr, x + w, my);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        break;
    }
    case SAMPLE_DATELINE:
        set_colour(cr, col->other);
        cairo_set_line_width(cr, 1.5 * k);
        cairo_move_to(cr, x, my);
        cairo_line_to(cr, x + w, my);
        cairo_stroke(cr);
        fl__draw_dateline_mark(cr, col, x + w / 2, my, 1, 0, 7 * k, 3 * k);
        break;
    case SAMPLE_SOURCE:
    case SAMPLE_DESTINATION:
        set_colour(cr, sample == SAMPLE_SOURCE ? col->source : col->destination);
        cairo_rectangle(cr, x + w / 2 - 6 * k, my - 6 * k, 12 * k, 12 * k);
        cairo_set_line_width(cr, 2.5 * k);
        cairo_stroke(cr);
        break;
    case SAMPLE_HV:
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, (LEGEND_FONT - 2) * k);
        set_colour(cr, col->text);
        cairo_move_to(cr, x, my + 4 * k);
        cairo_show_text(cr, "(h,v)");
        break;
    default:
        break;
    }
}

/* Whether a switch or a link drawn through view v would pass under box
 * (device units, widened by a switch's half side). Links are taken
 * straight: a bent one only grazes the corner. */
static int box_covers(const FlTopology *t, const FlDrawView *v, Box box);

/* Draws lg with its top-left corner at (x, y). */
static void legend_paint(const Ctx *c, const Legend *lg, const Metrics *m, double x, double y)
{
    cairo_t *cr = c->cr;
    double r = 6;
    cairo_new_path(cr);
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + lg->width - r, y + r, r, -FL_PI / 2, 0);
    cairo_arc(cr, x + lg->width - r, y + lg->height - r, r, 0, FL_PI / 2);
    cairo_arc(cr, x + r, y + lg->height - r, r, FL_PI / 2, FL_PI);
    cairo_arc(cr, x + r, y + r, r, FL_PI, 3 * FL_PI / 2);
    cairo_close_path(cr);
    set_colour(cr, c->col->legend_fill);
    cairo_fill_preserve(cr);
    set_colour(cr, c->col->legend_border);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);

    double tx = x + m->pad, ty = y + m->pad, base = m->line - 5 * m->line / LEGEND_LINE;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, m->font + 1);
    set_colour(cr, c->col->text);
    cairo_move_to(cr, tx, ty + base);
    cairo_show_text(cr, lg->title);
    ty += m->line;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, m->font);
    if (lg->figures[0]) {
        cairo_move_to(cr, tx, ty + base);
        cairo_show_text(cr, lg->figures);
        ty += m->line;
    }
    int rows = (lg->n + lg->cols - 1) / lg->cols;
    double k = m->line / LEGEND_LINE;
    for (int i = 0; i < lg->n; i++) {
        double ex = tx + (i / rows) * lg->col_width, ey = ty + (i % rows) * m->line;
        legend_sample(c, lg->entry[i].sample, ex, ey, k);
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, m->font);
        set_colour(cr, c->col->text);
        cairo_move_to(cr, ex + m->sample + 8, ey + base);
        cairo_show_text(cr, lg->entry[i].text);
    }
}

/* Where the legend goes: the bottom-left corner, unless it would cover a
 * switch or a link there (a legend longer than the room the fit kept, or
 * a view zoomed or panned since) and another place covers none: in
 * columns at the bottom left, or one of the other corners. */
static void draw_legend(const Ctx *c, Legend *lg, double k)
{
    cairo_t *cr = c->cr;
    Metrics m = metrics(k);
    legend_measure(cr, lg, &m, 1);
    if (lg->n == 0 && !lg->figures[0])
        return;
    const Box *clip = &c->clip;
    double mg = LEGEND_MARGIN, x = clip->x1 + mg, y = clip->y2 - mg - lg->height;
    Legend *alt = malloc(sizeof *alt);
    if (alt && box_covers(c->t, &c->g->v, (Box){ x, y, x + lg->width, y + lg->height })) {
        /* Candidates: 1 = columns bottom-left, 2..4 = the other corners. */
        for (int cand = 1; cand <= 4; cand++) {
            *alt = *lg;
            legend_measure(cr, alt, &m, cand == 1 ? 2 + (lg->n > 8) : 1);
            if (cand == 1 && alt->cols == 1)
                continue;
            double ax = cand == 3 || cand == 4 ? clip->x2 - mg - alt->width : clip->x1 + mg;
            double ay = cand == 2 || cand == 4 ? clip->y1 + mg : clip->y2 - mg - alt->height;
            Box at = { ax, ay, ax + alt->width, ay + alt->height };
            if (ax >= clip->x1 && ay >= clip->y1 && !box_covers(c->t, &c->g->v, at)) {
                *lg = *alt;
                x = ax, y = ay;
                break;
            }
        }
    }
    free(alt);
    legend_paint(c, lg, &m, x, y);
}

void fl__draw_legend(const Ctx *c, const FlDrawLegendShown *what, double k)
{
    Legend *lg = malloc(sizeof *lg);
    if (lg) {
        legend_build(lg, c->t, c->r, what);
        draw_legend(c, lg, k);
    }
    free(lg);
}

/* ------------------------------------------------------------------------ */
/* Room for the legend                                                      */
/* ------------------------------------------------------------------------ */

/* Whether segment (ax, ay)-(bx, by) meets box b (Liang and Barsky's
 * clipping: the part of the segment inside each pair of edges). */
static int segment_meets_box(double ax, double ay, double bx, double by, const Box *b)
{
    double t0 = 0, t1 = 1, d[2] = { bx - ax, by - ay }, a[2] = { ax, ay };
    double lo[2] = { b->x1, b->y1 }, hi[2] = { b->x2, b->y2 };
    for (int k = 0; k < 2; k++) {
        if (fabs(d[k]) < 1e-12) {
            if (a[k] < lo[k] || a[k] > hi[k])
                return 0;
            continue;
        }
        double u = (lo[k] - a[k]) / d[k], w = (hi[k] - a[k]) / d[k];
        t0 = fmax(t0, fmin(u, w));
        t1 = fmin(t1, fmax(u, w));
    }
    return t0 <= t1;
}

static int box_covers(const FlTopology *t, const FlDrawView *v, Box box)
{
    Geom g;
    int covers = 0;
    fl__draw_geom_init(&g, t, v, 0);
    box.x1 -= g.half, box.y1 -= g.half, box.x2 += g.half, box.y2 += g.half;
    for (int n = 0; n < fl_topology_switch_count(t) && !covers; n++) {
        double x, y;
        fl__draw_node_device(&g, fl_topology_switch_node(t, n), &x, &y);
        covers = box_near(&box, x, y, 0);
    }
    for (int l = 0; l < fl_topology_link_count(t) && !covers; l++) {
        int a, b;
        double ax, ay, bx, by;
        if (!is_switch_link(t, l))
            continue;
        fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
        fl__draw_node_device(&g, a, &ax, &ay);
        fl__draw_node_device(&g, b, &bx, &by);
        covers = segment_meets_box(ax, ay, bx, by, &box);
    }
    fl__draw_geom_clear(&g);
    return covers;
}

/* Whether the legend, w x h at the bottom left of a picture height units
 * high, would cover a switch or a link drawn through view v. */
static int legend_covers(const FlTopology *t, const FlDrawView *v, double height, double w,
                         double h)
{
    return box_covers(t, v, (Box){ 0, height - LEGEND_MARGIN - h, LEGEND_MARGIN + w, height });
}

/* fl_draw_view_fit() stops at a scale where a small network's switches
 * are big enough; the arcs and labels of the overlays are worth more room,
 * so a network with overlays may grow to twice that. The fit is linear in
 * the picture's size but for its margin: a half-size fit doubled. */
static void fit_overlays(const FlTopology *t, double width, double height, FlDrawView *view)
{
    fl_draw_view_fit(t, width / 2, height / 2, view);
    view->scale *= 2;
    view->tx *= 2;
    view->ty *= 2;
}

void fl__draw_fit_beside_legend(const FlTopology *t, double width, double height, double lw,
                                double lh, FlDrawView *view)
{
    fit_overlays(t, width, height, view);
    if (!(lw > 0) || !(lh > 0) || !legend_covers(t, view, height, lw, lh))
        return;
    double side_w = width - lw - LEGEND_MARGIN;
    double top_h = height - lh - LEGEND_MARGIN;
    FlDrawView side = *view, top = *view;
    if (side_w > width * 0.4)
        fit_overlays(t, side_w, height, &side);
    if (top_h > height * 0.4)
        fit_overlays(t, width, top_h, &top);
    if (side_w > width * 0.4 && side.scale >= top.scale) {
        side.tx += width - side_w;
        *view = side;
    } else if (top_h > height * 0.4) {
        *view = top;
    }
}

/* The room a fit keeps for the legend of r's routing, whatever the
 * legend holds: as wide as its widest possible entry (in the words of
 * r->text), the title and the turn figures, and as tall as the title,
 * the figures and RESERVED_ENTRIES entries. */
static void legend_reserve(cairo_t *cr, const FlDrawRouting *r, double k, double *w,
                           double *h)
{
    static const FlDrawLegendText none;
    const FlDrawLegendText *x = r->text ? r->text : &none;
    const char *words[] = {
        word(x->prohibited_turn, "prohibited turn (in \xe2\x86\x92 out)"),
        word(x->ppt_pair, "PPT pair: prohibited both ways"),
        word(x->up_channel, "up channel"), word(x->down_channel, "down channel"),
        word(x->no_directions, "no channel directions in this routing"),
        word(x->hv_coords, "(h, v) = (preorder, depth)"),
        word(x->tree_link, "spanning-tree link"), word(x->other_link, "other link"),
        word(x->no_tree, "no spanning tree: no H/V graph"),
        word(x->dateline, "dateline: VC class 0 \xe2\x86\x92 1"),
        word(x->legal_paths, "legal shortest paths (999)"), word(x->chosen_path, "chosen route"),
        word(x->source, "source"), word(x->destination, "destination"),
        word(x->cycle, "dependency cycle, in order (999)"),
        word(x->no_cycle, "no dependency cycle"),
    };
    Legend *lg = calloc(1, sizeof *lg);
    Metrics m = metrics(k);
    *w = *h = 0;
    if (!lg)
        return;
    snprintf(lg->title, sizeof lg->title, "%s", fl_routing_get_info(r->routing)->name);
    snprintf(lg->figures, sizeof lg->figures, "PT 00.000 \xc2\xb7 SDPT 00.000 \xc2\xb7 PPT 0000");
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        legend_add(lg, SAMPLE_NONE, words[i], -1);
    legend_measure(cr, lg, &m, 1);
    *w = lg->width;
    *h = (2 + RESERVED_ENTRIES) * m.line + 2 * m.pad - 4;
    free(lg);
}

void fl__draw_routing_fit_scaled(const FlTopology *t, const FlDrawRouting *r, double width,
                                 double height, double k, FlDrawView *view)
{
    if (!r || !r->overlays || !fl__draw_same_network(t, r->routing)) {
        fl_draw_view_fit(t, width, height, view);
        return;
    }
    if (!r->legend) {
        fit_overlays(t, width, height, view);
        return;
    }
    cairo_t *cr = fl__draw_path_collector();
    double lw = 0, lh = 0;
    if (cairo_status(cr) == CAIRO_STATUS_SUCCESS)
        legend_reserve(cr, r, k, &lw, &lh);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
        lw = lh = 0;
    fl__draw_fit_beside_legend(t, width, height, lw, lh, view);
    cairo_destroy(cr);
}

void fl_draw_routing_fit(const FlTopology *t, const FlDrawRouting *r, double width,
                         double height, FlDrawView *view)
{
    fl__draw_routing_fit_scaled(t, r, width, height, 1, view);
}

void fl_draw_routing_fit_marks(const FlTopology *t, const FlDrawRouting *r, double width,
                               double height, double marks, FlDrawView *view)
{
    double m = marks > 0 && isfinite(marks) ? clamp(marks, 0.5, 4) : 1;
    fl__draw_routing_fit_scaled(t, r, width, height, 1 + 0.6 * (m - 1), view);
    view->marks = m;
}
