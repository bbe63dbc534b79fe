/* draw-topology.c — a topology drawn with plain cairo.
 *
 * The same code paints the GUI canvas, exported files and test images.
 * Where each node and link goes is draw-geometry.c's business; this file
 * only chooses colours, widths and what is worth drawing at a given size.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw-labels-private.h"

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

void fl_draw_options_init(FlDrawOptions *o)
{
    memset(o, 0, sizeof *o);
    o->view.scale = 1.0;
    o->selected_node = o->selected_link = -1;
    o->hover_node = o->hover_link = -1;
    o->connect_from = -1;
    o->show_labels = 1;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

static int shape_visible(const Shape *s, const DevShape *d, const Box *clip, double pad)
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

/* Adds the visible links of one style to the path: host links (hosts = 1),
 * straight switch links or bent ones (bent = 1); with dots = 1 the dots at
 * the tips of spurs instead of the links. Returns how many were added. */
static int links_path(cairo_t *cr, const Geom *g, const Box *clip, int hosts, int bent,
                      int dots)
{
    int added = 0;
    double dot = fmax(1.2, g->lw * 1.1);
    for (int l = 0; l < fl_topology_link_count(g->t); l++) {
        Shape s;
        DevShape d;
        fl__draw_link_shape(g, l, &s);
        if (s.host != hosts || (!hosts && (s.kind != SHAPE_LINE) != bent))
            continue;
        if (dots && s.kind != SHAPE_SPURS)
            continue;
        fl__draw_shape_to_device(g, &s, &d);
        if (!shape_visible(&s, &d, clip, g->lw + dot))
            continue;
        if (dots) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, d.x[2], d.y[2], dot, 0, 2 * FL_PI);
            cairo_new_sub_path(cr);
            cairo_arc(cr, d.x[3], d.y[3], dot, 0, 2 * FL_PI);
        } else {
            fl__draw_shape_path(cr, &s, &d);
        }
        added++;
    }
    return added;
}

/* One stroke per link style: host links, plain switch links, bent ones.
 * Bent links have their own colour and a dot at the tip of each spur, so
 * the eye pairs the spurs at opposite edges of the grid. Butt caps: the
 * ends hide under the nodes, and round ones cost time. */
static void draw_links(cairo_t *cr, const Geom *g, const Palette *pal, const Box *clip)
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

static void draw_nodes(cairo_t *cr, const Geom *g, const Palette *pal, const Box *clip)
{
    double border = clamp(g->lw * 0.6, 0.75, 1.5);
    int items = 0;
    if (g->host_r > 0) {
        for (int i = 0; i < fl_topology_host_count(g->t); i++) {
            double x, y;
            fl__draw_node_device(g, fl_topology_host_node(g->t, i), &x, &y);
            if (!box_near(clip, x, y, g->host_r + border))
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
        fl__draw_node_device(g, fl_topology_switch_node(g->t, i), &x, &y);
        if (!box_near(clip, x, y, g->half + border))
            continue;
        rounded_square(cr, x, y, g->half);
        items++;
    }
    fill_outlined(cr, items, pal->switch_fill, pal->switch_border, border, g->half >= 3);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
}

static void outline_node(cairo_t *cr, const Geom *g, int n, Rgb c, double width)
{
    if (n < 0 || n >= fl_topology_node_count(g->t) || !fl__draw_node_shown(g, n))
        return;
    double x, y;
    fl__draw_node_device(g, n, &x, &y);
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
    fl__draw_link_shape(g, l, &s);
    if (s.host && g->host_r == 0)
        return;
    fl__draw_shape_to_device(g, &s, &d);
    fl__draw_shape_path(cr, &s, &d);
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
        fl__draw_node_device(g, from, &x, &y);
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
    fl__draw_topology_labelled(cr, t, o, NULL);
}

/* Switch labels (the numbers people see, which deletions leave alone) in
 * their squares or beside them (draw-labels.c). */
void fl__draw_topology_labelled(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                                Labels *placed)
{
    FlDrawOptions defaults;
    if (!o) {
        fl_draw_options_init(&defaults);
        o = &defaults;
    }
    const Palette *pal = o->dark ? &dark_palette : &light_palette;
    Geom g;
    fl__draw_geom_init(&g, t, &o->view, 1);
    Box clip;
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
        Labels own;
        Labels *L = placed ? placed : &own;
        if (!placed)
            fl__draw_labels_init(&own, &clip, 24);
        fl__draw_labels_take_nodes(L, &g);
        if (o->show_labels)
            fl__draw_place_switch_numbers(cr, L, &g, g.text);
        if (!placed) {
            fl__draw_switch_numbers(cr, &own, o->dark);
            fl__draw_labels_clear(&own);
        }
        draw_node_highlights(cr, &g, pal, o);
    }
    cairo_restore(cr);
    fl__draw_geom_clear(&g);
}
