/* test-draw-exchange.c — a complete exchange's step drawn over its torus:
 * processors on the switches of their rank, every message in its source's
 * colour in the lane on the right of each channel it takes, channels no
 * message takes left plain, the selected node's two messages emphasised,
 * and nothing at all on another network. Needs no display. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-draw.h"
#include "tap.h"
#include "test-draw-pixels.h"

#define SIZE 640
#define OUT_COLOUR 0xe66100  /* the selected node's outgoing message (route colour) */
#define IN_COLOUR 0x1a5fb4   /* its incoming one */
#define WHITE 0xffffff

static FlTopology *torus(const char *spec)
{
    FlTopology *t = NULL;
    FlError err;
    if (fl_topology_from_spec(spec, &t, &err) != FL_OK)
        CHECK(0, "%s: %s", spec, err.message);
    return t;
}

/* t fitted into SIZE x SIZE, with step of aa over it (aa NULL: the plain
 * network). */
static cairo_surface_t *picture(const FlTopology *t, const FlAllToAll *aa, size_t step,
                                int node, FlDrawOptions *o)
{
    cairo_t *cr;
    cairo_surface_t *s = fitted_picture(t, SIZE, SIZE, o, &cr);
    fl_draw_topology(cr, t, o);
    if (aa)
        fl_draw_exchange_step(cr, t, o, aa, step, node);
    return finish_picture(s, cr);
}

/* The lane's distance from its link, as draw-exchange.c computes it. */
static double lane_off(const FlDrawOptions *o)
{
    double s = o->view.scale;
    double lw = fmin(fmax(0.045 * s, 0.75), 3.5), width = fmin(fmax(0.07 * s, 1.5), 5);
    return lw * 0.5 + width * 0.5 + 0.5;
}

static void test_processors(void)
{
    FlTopology *t = torus("torus:8x8"), *mesh = torus("mesh:8x8");
    if (!t || !mesh)
        goto out;
    int sw = fl_draw_exchange_switch(t, 8, 3 * 8 + 5), c[2] = { -1, -1 };
    fl_topology_get_coords(t, sw, c);
    CHECK(c[0] == 5 && c[1] == 3, "P(3,5) is the switch at (x, y) = (5, 3): (%d, %d)", c[0],
          c[1]);
    CHECK_INT(fl_draw_exchange_processor(t, 8, sw), 29);
    int host = fl_topology_host_node(t, 29);
    CHECK(host >= 0 && fl_draw_exchange_processor(t, 8, host) == 29,
          "a host stands for its switch's processor");
    CHECK_INT(fl_draw_exchange_switch(t, 16, 0), -1);
    CHECK_INT(fl_draw_exchange_switch(t, 8, 64), -1);
    CHECK_INT(fl_draw_exchange_switch(mesh, 8, 0), -1);
    CHECK_INT(fl_draw_exchange_processor(mesh, 8, 0), -1);
out:
    fl_topology_free(t);
    fl_topology_free(mesh);
}

/* Every message of a step of SEM on 8x8 shows in its colour on its first
 * channel (when that is not a wrap-around); a link no message takes
 * stays plain beside it. */
static void test_step(void)
{
    FlTopology *t = torus("torus:8x8");
    FlAllToAll *aa = NULL;
    FlError err;
    FlDrawOptions o;
    if (!t || fl_alltoall_run(8, FL_ALLTOALL_SEM, &aa, &err) != FL_OK) {
        CHECK(0, "sem on 8x8: %s", t ? err.message : "no torus");
        fl_topology_free(t);
        return;
    }
    size_t steps = fl_alltoall_step_count(aa);
    for (size_t step = 1; step <= steps; step++) {
        cairo_surface_t *s = picture(t, aa, step, -1, &o);
        double off = lane_off(&o);
        size_t count = 0, checked = 0, right = 0;
        const FlAllToAllMessage *m = fl_alltoall_messages(aa, step, &count);
        for (size_t i = 0; i < count; i++) {
            int32_t nodes[32];
            fl_alltoall_path(aa, &m[i], nodes, 32);
            int a = fl_draw_exchange_switch(t, 8, nodes[0]);
            int b = fl_draw_exchange_switch(t, 8, nodes[1]);
            int ca[2], cb[2];
            fl_topology_get_coords(t, a, ca);
            fl_topology_get_coords(t, b, cb);
            if (abs(ca[0] - cb[0]) + abs(ca[1] - cb[1]) != 1)
                continue; /* a wrap-around's spurs */
            double x, y, rgb[3];
            lane_middle(t, &o, a, b, off, &x, &y);
            fl_draw_exchange_colour(m[i].src, rgb);
            checked++;
            right += near_rgb(pixel(s, x, y), hex_rgb(rgb), 40);
        }
        CHECK(checked > 0 && right == checked,
              "step %zu: %zu of %zu first hops drawn in the source's colour", step, right,
              checked);
        cairo_surface_destroy(s);
    }

    /* Stage 1 step 1 pairs P(i, 2k) with P(i, 2k + 1): the link from
     * P(0,1) to P(0,2) carries nothing either way. */
    cairo_surface_t *s = picture(t, aa, 1, -1, &o);
    double x, y;
    int a = fl_draw_exchange_switch(t, 8, 1), b = fl_draw_exchange_switch(t, 8, 2);
    lane_middle(t, &o, a, b, lane_off(&o), &x, &y);
    CHECK(pixel(s, x, y) == WHITE, "an unused channel stays plain (%06x)", pixel(s, x, y));
    cairo_surface_destroy(s);

    /* P(0,0) selected in that step: its message to P(0,1) in the route
     * colour, the one from P(0,1) in blue, on the two sides of the link. */
    s = picture(t, aa, 1, 0, &o);
    a = fl_draw_exchange_switch(t, 8, 0), b = fl_draw_exchange_switch(t, 8, 1);
    lane_middle(t, &o, a, b, lane_off(&o), &x, &y);
    CHECK(near_rgb(pixel(s, x, y), OUT_COLOUR, 30), "P(0,0)'s message emphasised (%06x)",
          pixel(s, x, y));
    lane_middle(t, &o, b, a, lane_off(&o), &x, &y);
    CHECK(near_rgb(pixel(s, x, y), IN_COLOUR, 30),
          "the message to P(0,0) emphasised (%06x at %.1f, %.1f)", pixel(s, x, y), x, y);
    cairo_surface_destroy(s);

    /* Step 0 (the initial state) and a step beyond the last draw no
     * message: the picture is the plain network. */
    cairo_surface_t *plain = picture(t, NULL, 0, -1, &o);
    for (size_t step = 0; step <= steps + 1; step += steps + 1) {
        s = picture(t, aa, step, -1, &o);
        CHECK(surfaces_equal(s, plain), "step %zu draws no message", step);
        cairo_surface_destroy(s);
    }
    cairo_surface_destroy(plain);
    fl_alltoall_free(aa);
    fl_topology_free(t);
}

/* On a network that is not the run's torus nothing is drawn. */
static void test_other_network(void)
{
    FlTopology *mesh = torus("mesh:8x8"), *big = torus("torus:16x16");
    FlAllToAll *aa = NULL;
    FlError err;
    FlDrawOptions o;
    if (mesh && big && fl_alltoall_run(8, FL_ALLTOALL_DIRECT, &aa, &err) == FL_OK) {
        const FlTopology *nets[2] = { mesh, big };
        for (int k = 0; k < 2; k++) {
            cairo_surface_t *plain = picture(nets[k], NULL, 0, -1, &o);
            cairo_surface_t *s = picture(nets[k], aa, 3, 0, &o);
            CHECK(surfaces_equal(plain, s), "%s: nothing drawn for an 8x8 exchange",
                  fl_topology_spec(nets[k]));
            cairo_surface_destroy(plain);
            cairo_surface_destroy(s);
        }
    } else {
        CHECK(0, "setting up: %s", err.message);
    }
    fl_alltoall_free(aa);
    fl_topology_free(mesh);
    fl_topology_free(big);
}

/* SEM on 64 x 64: 4096 messages a step, drawn and exported. */
static void test_large(void)
{
    FlTopology *t = torus("torus:64x64");
    FlAllToAll *aa = NULL;
    FlError err;
    FlDrawOptions o;
    if (!t || fl_alltoall_run(64, FL_ALLTOALL_SEM, &aa, &err) != FL_OK) {
        CHECK(0, "sem on 64x64: %s", t ? err.message : "no torus");
        fl_topology_free(t);
        return;
    }
    cairo_surface_t *s = picture(t, aa, 5, 64 * 5 + 7, &o);
    int coloured = 0;
    for (int py = SIZE / 8; py < SIZE; py += 2)
        for (int px = 0; px < SIZE; px += 2) {
            unsigned p = pixel(s, px, py);
            coloured += (p >> 16 & 0xff) != (p >> 8 & 0xff) || (p >> 8 & 0xff) != (p & 0xff);
        }
    CHECK(coloured > SIZE * SIZE / 4 / 20, "a step of 4096 messages colours the torus (%d)",
          coloured);
    CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, "cairo is content");
    cairo_surface_destroy(s);
    fl_alltoall_free(aa);
    fl_topology_free(t);
}

int main(void)
{
    test_processors();
    test_step();
    test_other_network();
    test_large();
    return tap_done();
}
