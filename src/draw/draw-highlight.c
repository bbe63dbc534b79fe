/* draw-highlight.c — what a lesson's step is about, drawn over the network
 * for a class to see: switches with a halo in the accent colour, links as
 * thick translucent strokes along their shapes (spurs, arcs), channels as
 * such strokes in the lane on the left of the way they run, with an arrow
 * head where they arrive, so the two channels of a link stay apart.
 *
 * Everything is translucent and drawn over what is already there: the
 * switch numbers and the overlays below still read through it.
 */
#include <math.h>

#include "draw-scene-private.h"

/* Adwaita's accent blue, in the light and the dark style. */
static Rgba accent(int dark, double alpha)
{
    return dark ? (Rgba){ 0x78 / 255.0, 0xae / 255.0, 0xed / 255.0, alpha }
                : (Rgba){ 0x35 / 255.0, 0x84 / 255.0, 0xe4 / 255.0, alpha };
}

int fl_draw_find_link(const FlTopology *t, int a, int b)
{
    if (a < 0 || a >= fl_topology_node_count(t))
        return -1;
    for (int port = 0; port < fl_topology_node_ports(t, a); port++)
        if (fl_topology_port_peer(t, a, port, NULL) == b)
            return fl_topology_port_link(t, a, port);
    return -1;
}

int fl_draw_find_channel(const FlTopology *t, int from, int to)
{
    int link = fl_draw_find_link(t, from, to);
    if (link < 0)
        return -1;
    for (int c = 2 * link; c < 2 * link + 2; c++)
        if (fl_topology_channel_src(t, c) == from && fl_topology_channel_dst(t, c) == to)
            return c;
    return -1;
}

/* A switch label to its node in t, or -1. */
static int node_of(const FlTopology *t, int label)
{
    int n = fl_topology_find_label(t, label);
    return n >= 0 && fl_topology_node_kind(t, n) == FL_NODE_SWITCH ? n : -1;
}

/* The page's colour, translucent: a margin that sets a stroke apart from
 * the lines under it (a route, a schedule drawn in a blue of its own). */
static Rgba margin(const Pen *pen)
{
    Rgba c = pen->col->background;
    c.a = 0.8;
    return c;
}

static void draw_links(const Pen *pen, const FlDrawHighlight *h, Rgba colour, double width)
{
    cairo_t *cr = pen->cr;
    const FlTopology *t = pen->sc.g.t;
    cairo_new_path(cr);
    for (int i = 0; i < h->n_links; i++) {
        int l = fl_draw_find_link(t, node_of(t, h->links[i].a), node_of(t, h->links[i].b));
        if (l < 0)
            continue;
        Shape s;
        DevShape d;
        fl__draw_scene_link(&pen->sc, l, &s, &d);
        fl__draw_shape_path(cr, &s, &d);
    }
    set_colour(cr, margin(pen));
    cairo_set_line_width(cr, width + 4);
    cairo_stroke_preserve(cr);
    set_colour(cr, colour);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

static void draw_channels(const Pen *pen, const FlDrawHighlight *h, Rgba colour, double width)
{
    const FlTopology *t = pen->sc.g.t;
    /* On the left of the way the channel runs: the overlays write their
     * channel numbers and labels on the right, and the two channels of a
     * link still keep apart. */
    double off = -(width * 0.5 + 1);
    for (int i = 0; i < h->n_channels; i++) {
        int c = fl_draw_find_channel(t, node_of(t, h->channels[i].a),
                                     node_of(t, h->channels[i].b));
        if (c < 0)
            continue;
        fl__draw_lane_route(pen, &c, NULL, 1, off, margin(pen), width + 4, 1);
        fl__draw_lane_route(pen, &c, NULL, 1, off, colour, width, 1);
    }
}

/* A disc of the accent colour behind the switch's square, seen around it,
 * and a ring at its edge. */
static void draw_halos(const Pen *pen, const FlDrawHighlight *h, int dark)
{
    cairo_t *cr = pen->cr;
    const Geom *g = &pen->sc.g;
    double r = g->half * 1.9 + 6, ring = clamp(g->half * 0.25, 2.5, 5.0);
    for (int i = 0; i < h->n_nodes; i++) {
        int n = node_of(g->t, h->nodes[i]);
        double x, y;
        if (n < 0)
            continue;
        fl__draw_node_device(g, n, &x, &y);
        if (!box_near(&pen->clip, x, y, r + ring))
            continue;
        cairo_new_path(cr);
        cairo_arc(cr, x, y, r, 0, 2 * FL_PI);
        set_colour(cr, accent(dark, 0.28));
        cairo_fill_preserve(cr);
        set_colour(cr, accent(dark, 0.9));
        cairo_set_line_width(cr, ring);
        cairo_stroke(cr);
    }
}

void fl_draw_highlight(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                       const FlDrawHighlight *h)
{
    if (!h || h->n_nodes + h->n_links + h->n_channels <= 0)
        return;
    Pen pen;
    cairo_save(cr);
    fl__draw_pen_begin(&pen, cr, t, o, 0);
    double width = fmax(6, pen.sc.g.lw * 4);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    if (h->n_links > 0)
        draw_links(&pen, h, accent(o->dark, 0.45), width * 1.5);
    if (h->n_channels > 0)
        draw_channels(&pen, h, accent(o->dark, 0.75), width);
    draw_halos(&pen, h, o->dark);
    fl__draw_pen_end(&pen);
    cairo_restore(cr);
}
