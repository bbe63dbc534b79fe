/* test-draw-labels.c — what a class reads on a network drawn with a
 * routing: the datelines of dor on a torus, legends that say what is (and
 * is not) drawn and leave the network where it is, switch numbers wherever
 * they fit and labels that never overlap. Needs no display. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "flitlab-draw.h"
#include "tap.h"
#include "test-draw-pixels.h"

#define DATELINE_GREEN 0x26a269
#define LEGEND_BORDER 0x9a9996

static FlRouting *route_with(const FlTopology *t, const char *name, int classes,
                             FlRoutingReport *rep)
{
    FlRoutingOptions opt;
    FlRouting *r = NULL;
    FlError err;
    fl_routing_options_init(&opt);
    opt.vc_classes = classes;
    if (fl_routing_new(t, name, &opt, &r, &err) != FL_OK
        || (rep && fl_routing_analyze(r, rep, &err) != FL_OK)) {
        printf("Bail out! %s: %s\n", name, err.message);
        exit(1);
    }
    return r;
}

static cairo_surface_t *render_routing(const FlTopology *t, const FlDrawOptions *o,
                                       const FlDrawRouting *r, int w, int h)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s);
    fl_draw_routing(cr, t, o, r);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static int count_colour(cairo_surface_t *s, unsigned c, int tol)
{
    int n = 0;
    for (int y = 0; y < cairo_image_surface_get_height(s); y++)
        for (int x = 0; x < cairo_image_surface_get_width(s); x++)
            n += near_rgb(pixel(s, x, y), c, tol);
    return n;
}

/* The height of the legend box drawn at the bottom left: the run of its
 * border's colour up the column just inside its left edge; 0 for none. */
static int legend_height(cairo_surface_t *s)
{
    int h = cairo_image_surface_get_height(s), top = -1, bottom = -1;
    for (int y = 0; y < h; y++)
        if (near_rgb(pixel(s, 30, y), LEGEND_BORDER, 24) || near_rgb(pixel(s, 30, y), 0xcdcccb, 20)) {
            if (top < 0)
                top = y;
            bottom = y;
        }
    return top < 0 ? 0 : bottom - top;
}

/* dor on a torus with its two classes draws a bar across each wrap-around
 * link, where the class changes, and names it in the legend; with one
 * class, or under up* / down*, there is none. */
static void test_datelines(void)
{
    FlTopology *t = from_spec("torus:8x8,hosts=0");
    FlRoutingReport rep;
    FlRouting *dor = route_with(t, "dor", 0, &rep);
    FlRouting *one = route_with(t, "dor", 1, NULL);
    FlRouting *updown = route_with(t, "updown", 0, NULL);
    FlDrawOptions o;
    FlDrawRouting d;
    fl_draw_options_init(&o);
    fl_draw_routing_init(&d);
    d.overlays = FL_DRAW_OVERLAY_TURNS;
    d.report = &rep;
    d.legend = 0;
    fl_draw_view_fit(t, 800, 800, &o.view);

    d.routing = dor;
    cairo_surface_t *s = render_routing(t, &o, &d, 800, 800);
    /* The spur of the wrap-around link of row 0 leaving switch 0 to the
     * left: the bar crosses it. */
    double x, y;
    fl_topology_get_position(t, 0, &x, &y);
    fl_draw_view_to_device(&o.view, x, y, &x, &y);
    int near = 0;
    for (double dx = -0.45 * o.view.scale; dx < -0.2 * o.view.scale; dx += 1)
        for (double dy = -6; dy <= 6; dy += 1)
            near += near_rgb(pixel(s, x + dx, y + dy), DATELINE_GREEN, 30);
    CHECK(near > 10, "a dateline crosses the wrap-around spur of switch 0 (%d pixels)", near);
    int with = count_colour(s, DATELINE_GREEN, 30);
    cairo_surface_destroy(s);
    d.routing = one;
    s = render_routing(t, &o, &d, 800, 800);
    int without = count_colour(s, DATELINE_GREEN, 30);
    cairo_surface_destroy(s);
    d.routing = updown;
    s = render_routing(t, &o, &d, 800, 800);
    int updown_px = count_colour(s, DATELINE_GREEN, 30);
    cairo_surface_destroy(s);
    CHECK(with > 32 * 2 * 10 && without == 0 && updown_px == 0,
          "datelines on all 32 wrap-around links with 2 classes (%d pixels), none with 1 "
          "(%d) or under up* / down* (%d)", with, without, updown_px);

    /* The legend names them: one entry more than without. */
    d.legend = 1;
    d.routing = dor;
    s = render_routing(t, &o, &d, 800, 800);
    int h2 = legend_height(s);
    cairo_surface_destroy(s);
    d.routing = one;
    s = render_routing(t, &o, &d, 800, 800);
    int h1 = legend_height(s);
    cairo_surface_destroy(s);
    CHECK(h2 > h1 + 10 && h1 > 0, "the legend has a dateline entry (%d px tall, %d without)", h2,
          h1);
    fl_routing_free(dor);
    fl_routing_free(one);
    fl_routing_free(updown);
    fl_topology_free(t);
}

/* An overlay the routing cannot draw says so in the legend rather than
 * drawing nothing silently, and the H/V graph's entries appear only with
 * a tree drawn. */
static void test_legend_says_what_is_drawn(void)
{
    FlTopology *t = from_spec("mesh:8x8,hosts=0");
    FlRouting *dor = route_with(t, "dor", 0, NULL);
    FlRouting *updown = route_with(t, "updown", 0, NULL);
    FlDrawOptions o;
    FlDrawRouting d;
    fl_draw_options_init(&o);
    fl_draw_routing_init(&d);
    fl_draw_view_fit(t, 400, 600, &o.view);
    o.view.ty -= 100; /* the network clear of the legend */

    cairo_surface_t *s = render_routing(t, &o, &d, 400, 600);
    CHECK(legend_height(s) == 0, "no overlay, no legend");
    cairo_surface_destroy(s);
    d.routing = dor;
    d.overlays = FL_DRAW_OVERLAY_DIRECTIONS;
    s = render_routing(t, &o, &d, 400, 600);
    int note = legend_height(s);
    cairo_surface_destroy(s);
    CHECK(note > 20, "channel directions under dor: a legend says there are none (%d px)", note);

    d.overlays = FL_DRAW_OVERLAY_HV_GRAPH;
    s = render_routing(t, &o, &d, 400, 600);
    int no_tree = legend_height(s);
    cairo_surface_destroy(s);
    d.routing = updown;
    s = render_routing(t, &o, &d, 400, 600);
    int tree = legend_height(s);
    cairo_surface_destroy(s);
    CHECK(no_tree > 20 && tree > no_tree + 10,
          "the H/V graph without a tree: one note (%d px), not the tree's two entries (%d px)",
          no_tree, tree);
    fl_routing_free(dor);
    fl_routing_free(updown);
    fl_topology_free(t);
}

/* The room kept for the legend does not depend on what it holds: a route
 * picked (four entries more) leaves every switch where it was, and no
 * switch is under the legend. */
static void test_legend_fit_stable(void)
{
    FlTopology *t = from_spec("torus:8x8,hosts=0");
    FlRoutingReport rep;
    FlRouting *r = route_with(t, "updown", 0, &rep);
    FlDrawRouting one, five;
    fl_draw_routing_init(&one);
    one.routing = r;
    one.report = &rep;
    one.overlays = FL_DRAW_OVERLAY_CYCLE; /* "no dependency cycle" */
    five = one;
    five.overlays |= FL_DRAW_OVERLAY_PATHS;
    int chosen[] = { 0, 2 };
    int offsets[] = { 0, 2 };
    five.paths = chosen;
    five.path_offsets = offsets;
    five.npaths = 1;
    five.chosen = chosen;
    five.nchosen = 2;
    five.src = 0;
    five.dst = 2;
    static const int sizes[][2] = { { 610, 690 }, { 450, 560 }, { 800, 500 } };
    for (int i = 0; i < 3; i++) {
        FlDrawView a, b;
        int w = sizes[i][0], h = sizes[i][1];
        fl_draw_routing_fit(t, &one, w, h, &a);
        fl_draw_routing_fit(t, &five, w, h, &b);
        CHECK(a.scale == b.scale && a.tx == b.tx && a.ty == b.ty,
              "%dx%d: the same view with a 1-entry and a 5-entry legend (%g %g %g, %g %g %g)",
              w, h, a.scale, a.tx, a.ty, b.scale, b.tx, b.ty);
        FlDrawOptions o;
        fl_draw_options_init(&o);
        o.view = b;
        cairo_surface_t *s = render_routing(t, &o, &five, w, h);
        int lh = legend_height(s), covered = 0;
        for (int n = 0; n < fl_topology_switch_count(t); n++) {
            double x, y;
            fl_topology_get_position(t, n, &x, &y);
            fl_draw_view_to_device(&b, x, y, &x, &y);
            covered += x < 300 && y > h - 12 - lh - 6;
        }
        CHECK(lh > 80 && covered == 0, "%dx%d: the legend (%d px tall) covers no switch (%d)", w,
              h, lh, covered);
        cairo_surface_destroy(s);
    }
    fl_routing_free(r);
    fl_topology_free(t);
}

int main(void)
{
    test_datelines();
    test_legend_says_what_is_drawn();
    test_legend_fit_stable();
    return tap_done();
}
