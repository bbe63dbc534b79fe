/* test-draw-multicast.c — a multicast tree drawn over its network: paper
 * 001's 6x6 example (OPT-mesh under dor) has every unicast in its step's
 * colour across the first channel of its route, the source and every
 * destination ringed, no red; a tree whose sends share channels has them
 * underlaid in red; without a routing the unicasts run straight; with
 * nothing chosen nothing is drawn over the network; the legend has a line
 * per step and the fit keeps it clear of the network; the picture exports
 * as PNG, SVG and PDF. Needs no display. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flitlab-draw.h"
#include "tap.h"
#include "test-draw-pixels.h"

#define W 700
#define H 600

/* The host on the switch at coordinates (a, b): mesh:6x6 has one a switch. */
static int host_at(const FlTopology *t, int a, int b)
{
    int c[FL_MAX_DIMS];
    for (int s = 0; s < fl_topology_switch_count(t); s++) {
        int sw = fl_topology_switch_node(t, s);
        fl_topology_get_coords(t, sw, c);
        for (int p = 0; c[0] == a && c[1] == b && p < fl_topology_node_ports(t, sw); p++) {
            int peer = fl_topology_port_peer(t, sw, p, NULL);
            if (peer >= 0 && fl_topology_node_kind(t, peer) == FL_NODE_HOST)
                return fl_topology_node_rank(t, peer);
        }
    }
    return -1;
}

static int host_switch(const FlTopology *t, int h)
{
    return fl_topology_host_switch(t, fl_topology_host_node(t, h));
}

typedef struct Example {
    FlTopology *t;
    FlRouting *r;
    int src, dests[7];
} Example;

static void example(Example *x)
{
    static const int pts[7][2] = { { 1, 5 }, { 2, 1 }, { 3, 4 }, { 4, 3 },
                                   { 4, 4 }, { 5, 1 }, { 5, 4 } };
    FlError err;
    CHECK_INT(fl_topology_from_spec("mesh:6x6", &x->t, &err), FL_OK);
    CHECK_INT(fl_routing_new(x->t, "dor", NULL, &x->r, &err), FL_OK);
    x->src = host_at(x->t, 3, 2);
    for (int i = 0; i < 7; i++)
        x->dests[i] = host_at(x->t, pts[i][0], pts[i][1]);
}

static FlMulticastTree *tree_of(const Example *x, FlMulticastAlgorithm alg)
{
    FlMulticastTree *tree = NULL;
    FlError err;
    if (fl_multicast_tree_new(x->t, x->r, alg, x->src, x->dests, 7, 20, 55, &tree, &err) != FL_OK)
        printf("# %s\n", err.message);
    return tree;
}

static cairo_surface_t *picture(const FlTopology *t, const FlDrawMulticast *m, FlDrawOptions *o)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    fl_draw_options_init(o);
    fl_draw_multicast_fit(t, m, W, H, &o->view);
    fl_draw_multicast(cr, t, o, m);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

/* Whether a pixel of colour want lies across the segment from switch a to
 * switch b, at its middle, within 14 pixels either side. */
static int colour_across(cairo_surface_t *s, const FlTopology *t, const FlDrawView *v, int a,
                         int b, unsigned want, int tol)
{
    double ax, ay, bx, by;
    fl_draw_node_position(t, a, &ax, &ay);
    fl_draw_node_position(t, b, &bx, &by);
    fl_draw_view_to_device(v, ax, ay, &ax, &ay);
    fl_draw_view_to_device(v, bx, by, &bx, &by);
    double len = hypot(bx - ax, by - ay), nx = -(by - ay) / len, ny = (bx - ax) / len;
    for (double d = -14; d <= 14; d += 0.5)
        for (double along = 0.4; along <= 0.6; along += 0.05)
            if (near_rgb(pixel(s, ax + (bx - ax) * along + nx * d, ay + (by - ay) * along + ny * d),
                         want, tol))
                return 1;
    return 0;
}

static unsigned step_rgb(int step)
{
    double rgb[3];
    fl_draw_multicast_step_colour(step, rgb);
    return hex_rgb(rgb);
}

/* Red pixels anywhere in the picture. */
static int red_pixels(cairo_surface_t *s)
{
    int n = 0;
    for (int y = 0; y < H; y += 2)
        for (int x = 0; x < W; x += 2)
            n += near_rgb(pixel(s, x, y), 0xe01b24, 30);
    return n;
}

static void test_example(void)
{
    Example x;
    example(&x);
    FlMulticastTree *tree = tree_of(&x, FL_MULTICAST_OPT_MESH);
    FlMulticastConflict *c = NULL;
    int nc = -1;
    FlError err;
    CHECK(tree && fl_multicast_tree_contention(tree, x.r, 0, &c, &nc, &err) == FL_OK && nc == 0,
          "the example's OPT-mesh tree has no contention");
    FlDrawMulticast m;
    fl_draw_multicast_init(&m);
    m.tree = tree;
    m.routing = x.r;
    m.source = x.src;
    m.dests = x.dests;
    m.ndests = 7;
    FlDrawOptions o;
    cairo_surface_t *s = picture(x.t, &m, &o);
    int good = 0, n = fl_multicast_tree_edge_count(tree);
    for (int i = 0; i < n; i++) {
        const FlMulticastEdge *e = fl_multicast_tree_edge(tree, i);
        int from = host_switch(x.t, e->parent), to = host_switch(x.t, e->child), *chans, len;
        if (fl_routing_path(x.r, from, to, FL_SELECT_LOWEST_PORT, NULL, &chans, &len, &err))
            continue;
        int next = fl_topology_channel_dst(x.t, chans[0]);
        good += colour_across(s, x.t, &o.view, from, next, step_rgb(e->step), 12);
        free(chans);
    }
    CHECK(good == n, "%d of %d unicasts drawn in their step's colour along their first channel",
          good, n);
    CHECK(red_pixels(s) == 0, "no contention, no red");
    FlDrawMulticastRoutes *routes = fl_draw_multicast_routes_new(x.t, tree, x.r, &err);
    FlDrawMulticast cached = m;
    cached.routes = routes;
    FlDrawOptions o2;
    cairo_surface_t *s2 = picture(x.t, &cached, &o2);
    CHECK(routes && surfaces_equal(s, s2), "routes computed once draw the same picture");
    cairo_surface_destroy(s2);
    fl_draw_multicast_routes_free(routes);
    CHECK(!fl_draw_multicast_routes_new(x.t, tree, NULL, &err) && strstr(err.message, "routing"),
          "routes need a routing");

    /* Rings: the source's in the text colour, a destination's in its step's. */
    double sx, sy, half;
    fl_draw_node_position(x.t, host_switch(x.t, x.src), &sx, &sy);
    fl_draw_view_to_device(&o.view, sx, sy, &sx, &sy);
    half = 0.5 * o.view.scale; /* half way to the next switch */
    int dark = 0;
    for (double d = 0; d < half; d += 0.5)
        dark += near_rgb(pixel(s, sx - d, sy), 0x241f31, 40);
    CHECK(dark > 0, "the source is ringed");
    const FlMulticastEdge *last = fl_multicast_tree_edge_to(tree, x.dests[0]);
    double dx, dy;
    fl_draw_node_position(x.t, host_switch(x.t, x.dests[0]), &dx, &dy);
    fl_draw_view_to_device(&o.view, dx, dy, &dx, &dy);
    int ring = 0;
    for (double d = 0; d < half; d += 0.5)
        ring += near_rgb(pixel(s, dx, dy - d), step_rgb(last->step), 20);
    CHECK(ring > 0, "a destination is ringed in the colour of the step that reaches it");

    /* The legend: a line per step, kept clear of the network. */
    double lw, lh, lw0, lh0;
    fl_draw_multicast_legend_size(&m, &lw, &lh);
    FlDrawMulticast bare = m;
    bare.tree = NULL;
    fl_draw_multicast_legend_size(&bare, &lw0, &lh0);
    CHECK(lh > lh0 + 3 * 15, "the legend has a line for each of the tree's steps (%.0f > %.0f)",
          lh, lh0);
    double x0, y0;
    fl_draw_node_position(x.t, 0, &x0, &y0);
    int clear = 1;
    for (int k = 0; k < fl_topology_switch_count(x.t); k++) {
        double px, py;
        fl_draw_node_position(x.t, fl_topology_switch_node(x.t, k), &px, &py);
        fl_draw_view_to_device(&o.view, px, py, &px, &py);
        clear &= !(px < 12 + lw && py > H - 12 - lh);
    }
    CHECK(clear, "no switch lies under the legend");
    cairo_surface_destroy(s);

    /* Exports. */
    char path[64];
    const char *formats[] = { "png", "svg", "pdf" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "/tmp/flitlab-multicast-%ld.%s", (long)getpid(), formats[i]);
        int rc = fl_draw_export_multicast(x.t, NULL, &m, path, NULL, 600, 500, &err);
        CHECK(rc == FL_OK && access(path, F_OK) == 0, "the tree exports as %s (%s)", formats[i],
              rc ? err.message : "ok");
        unlink(path);
    }
    CHECK(fl_draw_export_multicast(x.t, NULL, NULL, "/tmp/x.png", NULL, 60, 50, &err) == FL_EINVAL,
          "no multicast, no picture");
    free(c);
    fl_multicast_tree_free(tree);
    fl_routing_free(x.r);
    fl_topology_free(x.t);
}

/* Separate addressing: the source's sends share its first channels; with
 * the same sender's pairs asked for, they are underlaid in red. */
static void test_contention(void)
{
    Example x;
    example(&x);
    FlMulticastTree *tree = tree_of(&x, FL_MULTICAST_SEQUENTIAL);
    FlMulticastConflict *c = NULL;
    int nc = 0;
    FlError err;
    CHECK(tree && fl_multicast_tree_contention(tree, x.r, 1, &c, &nc, &err) == FL_OK && nc > 0,
          "separate addressing's sends share channels (%d pairs)", nc);
    FlDrawMulticast m;
    fl_draw_multicast_init(&m);
    m.tree = tree;
    m.routing = x.r;
    m.conflicts = c;
    m.nconflicts = nc;
    m.source = x.src;
    FlDrawOptions o;
    cairo_surface_t *s = picture(x.t, &m, &o);
    const FlMulticastConflict *k = &c[0];
    int a = fl_topology_channel_src(x.t, k->channel), b = fl_topology_channel_dst(x.t, k->channel);
    CHECK(colour_across(s, x.t, &o.view, a, b, 0xe01b24, 30),
          "a shared channel is underlaid in red");
    cairo_surface_destroy(s);
    free(c);
    fl_multicast_tree_free(tree);
    fl_routing_free(x.r);
    fl_topology_free(x.t);
}

/* No routing: straight lines from switch to switch. Nothing chosen: the
 * bare network. */
static void test_straight_and_empty(void)
{
    Example x;
    example(&x);
    FlMulticastTree *tree = tree_of(&x, FL_MULTICAST_CHAIN);
    FlDrawMulticast m;
    fl_draw_multicast_init(&m);
    m.tree = tree;
    FlDrawOptions o;
    cairo_surface_t *s = picture(x.t, &m, &o);
    const FlMulticastEdge *e = fl_multicast_tree_edge(tree, 0);
    CHECK(colour_across(s, x.t, &o.view, host_switch(x.t, e->parent), host_switch(x.t, e->child),
                        step_rgb(e->step), 12),
          "without a routing, a unicast runs straight from its sender to its receiver");
    cairo_surface_destroy(s);

    fl_draw_multicast_init(&m);
    s = picture(x.t, &m, &o);
    cairo_surface_t *bare = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(bare);
    fl_draw_topology(cr, x.t, &o);
    cairo_destroy(cr);
    cairo_surface_flush(bare);
    CHECK(surfaces_equal(s, bare), "with nothing chosen, the picture is the network's");
    cairo_surface_destroy(s);
    cairo_surface_destroy(bare);
    fl_multicast_tree_free(tree);
    fl_routing_free(x.r);
    fl_topology_free(x.t);
}

int main(void)
{
    test_example();
    test_contention();
    test_straight_and_empty();
    return tap_done();
}
