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
    SAMPLE_NONE
};

#define LEGEND_FONT 12.0
#define LEGEND_LINE 19.0
#define LEGEND_PAD 10.0
#define LEGEND_SAMPLE 30.0
#define LEGEND_MARGIN 12.0
#define LEGEND_ENTRIES 16

typedef struct Legend {
    char title[128];
    char figures[128];
    struct {
        int sample;
        char text[192];
    } entry[LEGEND_ENTRIES];
    int n;
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

/* The legend of what is drawn: has_hv when (h, v) labels are, dirs when
 * channel directions are (neither is at sizes too small to read). */
static void legend_build(Legend *lg, const FlTopology *t, const FlDrawRouting *r, int has_hv,
                         int dirs)
{
    static const FlDrawLegendText none;
    const FlDrawLegendText *w = r->text ? r->text : &none;
    const FlRoutingReport *rep = r->report;
    unsigned ov = r->overlays;
    memset(lg, 0, sizeof *lg);
    snprintf(lg->title, sizeof lg->title, "%s", fl_routing_get_info(r->routing)->name);
    if ((ov & FL_DRAW_OVERLAY_TURNS) && rep)
        snprintf(lg->figures, sizeof lg->figures, "PT %.3f \xc2\xb7 SDPT %.3f \xc2\xb7 PPT %d",
                 rep->pt_mean, rep->pt_sd, rep->ppt);
    if (ov & FL_DRAW_OVERLAY_TURNS) {
        legend_add(lg, SAMPLE_TURN, word(w->prohibited_turn, "prohibited turn (in \xe2\x86\x92 out)"), -1);
        legend_add(lg, SAMPLE_PPT, word(w->ppt_pair, "PPT pair: prohibited both ways"), -1);
    }
    if ((ov & FL_DRAW_OVERLAY_DIRECTIONS) && dirs && routing_labels(t, r->routing)) {
        legend_add(lg, SAMPLE_UP, word(w->up_channel, "up channel"), -1);
        legend_add(lg, SAMPLE_DOWN, word(w->down_channel, "down channel"), -1);
    }
    if (has_hv)
        legend_add(lg, SAMPLE_HV, word(w->hv_coords, "(h, v) = (preorder, depth)"), -1);
    if (ov & FL_DRAW_OVERLAY_HV_GRAPH) {
        legend_add(lg, SAMPLE_TREE, word(w->tree_link, "spanning-tree link"), -1);
        legend_add(lg, SAMPLE_OTHER, word(w->other_link, "other link"), -1);
    }
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

static void legend_measure(cairo_t *cr, Legend *lg)
{
    cairo_text_extents_t te;
    double width = 0;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, LEGEND_FONT + 1);
    cairo_text_extents(cr, lg->title, &te);
    width = te.x_advance;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, LEGEND_FONT);
    if (lg->figures[0]) {
        cairo_text_extents(cr, lg->figures, &te);
        width = fmax(width, te.x_advance);
    }
    for (int i = 0; i < lg->n; i++) {
        cairo_text_extents(cr, lg->entry[i].text, &te);
        width = fmax(width, LEGEND_SAMPLE + 8 + te.x_advance);
    }
    int lines = 1 + (lg->figures[0] != 0) + lg->n;
    lg->width = width + 2 * LEGEND_PAD;
    lg->height = lines * LEGEND_LINE + 2 * LEGEND_PAD - 4;
}

/* The little picture before an entry, in the box (x, y) .. (x + 30, y + 19). */
static void legend_sample(const Ctx *c, int sample, double x, double y)
{
    cairo_t *cr = c->cr;
    const Colours *col = c->col;
    double my = y + LEGEND_LINE / 2, w = LEGEND_SAMPLE - 6, lw = 2.2;
    cairo_new_path(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    switch (sample) {
    case SAMPLE_TURN:
    case SAMPLE_PPT:
        fl__draw_turn_sample(c, x + w / 2, y + LEGEND_LINE + 2, 11, lw, sample == SAMPLE_PPT);
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
        cairo_line_to(cr, x + w - 5, my);
        cairo_set_line_width(cr, width);
        cairo_stroke(cr);
        fl__draw_head_path(cr, x + w, my, 1, 0, 7);
        cairo_fill(cr);
        break;
    }
    case SAMPLE_TREE:
    case SAMPLE_OTHER:
    case SAMPLE_PATHS: {
        double dash[2] = { 4, 3 };
        set_colour(cr, sample == SAMPLE_TREE ? col->tree : sample == SAMPLE_OTHER ? col->other : col->paths);
        cairo_set_line_width(cr, sample == SAMPLE_TREE ? 3 : sample == SAMPLE_OTHER ? 1.5 : 7);
        if (sample == SAMPLE_OTHER)
            cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, x, my);
        cairo_line_to(cr, x + w, my);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        break;
    }
    case SAMPLE_SOURCE:
    case SAMPLE_DESTINATION:
        set_colour(cr, sample == SAMPLE_SOURCE ? col->source : col->destination);
        cairo_rectangle(cr, x + w / 2 - 6, my - 6, 12, 12);
        cairo_set_line_width(cr, 2.5);
        cairo_stroke(cr);
        break;
    case SAMPLE_HV:
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, LEGEND_FONT - 2);
        set_colour(cr, col->text);
        cairo_move_to(cr, x, my + 4);
        cairo_show_text(cr, "(h,v)");
        break;
    default:
        break;
    }
}

static void draw_legend(const Ctx *c, Legend *lg)
{
    cairo_t *cr = c->cr;
    legend_measure(cr, lg);
    if (lg->n == 0 && !lg->figures[0])
        return;
    double x = c->clip.x1 + LEGEND_MARGIN, y = c->clip.y2 - LEGEND_MARGIN - lg->height;
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

    double tx = x + LEGEND_PAD, ty = y + LEGEND_PAD, base = LEGEND_LINE - 5;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, LEGEND_FONT + 1);
    set_colour(cr, c->col->text);
    cairo_move_to(cr, tx, ty + base);
    cairo_show_text(cr, lg->title);
    ty += LEGEND_LINE;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, LEGEND_FONT);
    if (lg->figures[0]) {
        cairo_move_to(cr, tx, ty + base);
        cairo_show_text(cr, lg->figures);
        ty += LEGEND_LINE;
    }
    for (int i = 0; i < lg->n; i++) {
        legend_sample(c, lg->entry[i].sample, tx, ty);
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, LEGEND_FONT);
        set_colour(cr, c->col->text);
        cairo_move_to(cr, tx + LEGEND_SAMPLE + 8, ty + base);
        cairo_show_text(cr, lg->entry[i].text);
        ty += LEGEND_LINE;
    }
}

void fl__draw_legend(const Ctx *c, int has_hv, int dirs)
{
    Legend *lg = malloc(sizeof *lg);
    if (lg) {
        legend_build(lg, c->t, c->r, has_hv, dirs);
        draw_legend(c, lg);
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

/* Whether a switch or a link drawn through view v would pass under the
 * legend, w x h at the bottom left of a picture height units high. Links
 * are taken straight: a bent one only grazes the corner. */
static int legend_covers(const FlTopology *t, const FlDrawView *v, double height, double w,
                         double h)
{
    Geom g;
    int covers = 0;
    fl__draw_geom_init(&g, t, v, 0);
    Box box = { 0, height - LEGEND_MARGIN - h - g.half, LEGEND_MARGIN + w + g.half, height };
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

void fl_draw_routing_fit(const FlTopology *t, const FlDrawRouting *r, double width,
                         double height, FlDrawView *view)
{
    if (!r || !r->overlays || !fl__draw_same_network(t, r->routing)) {
        fl_draw_view_fit(t, width, height, view);
        return;
    }
    if (!r->legend) {
        fit_overlays(t, width, height, view);
        return;
    }
    Legend *lg = malloc(sizeof *lg);
    cairo_t *cr = fl__draw_path_collector();
    double lw = 0, lh = 0;
    if (lg && cairo_status(cr) == CAIRO_STATUS_SUCCESS) {
        legend_build(lg, t, r, 1, 1);
        legend_measure(cr, lg);
        if (cairo_status(cr) == CAIRO_STATUS_SUCCESS)
            lw = lg->width, lh = lg->height;
    }
    fl__draw_fit_beside_legend(t, width, height, lw, lh, view);
    cairo_destroy(cr);
    free(lg);
}
