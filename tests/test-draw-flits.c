/* test-draw-flits.c — frames of a running simulation drawn with cairo:
 * flits where the flit views put them, in their packet's colour, nothing
 * over an empty network, blocked heads ringed in red at a deadlock, the
 * aggregated frame on a large network, and identical pixels for the same
 * state. Needs no display. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flitlab-draw.h"
#include "sim-net.h"
#include "test-draw-pixels.h"

static unsigned rgb_of(const double rgb[3])
{
    return (unsigned)lround(rgb[0] * 255) << 16 | (unsigned)lround(rgb[1] * 255) << 8
           | (unsigned)lround(rgb[2] * 255);
}

static int near_colour(unsigned got, unsigned want, int tol)
{
    for (int shift = 0; shift <= 16; shift += 8) {
        int a = (int)(got >> shift & 0xff), b = (int)(want >> shift & 0xff);
        if (abs(a - b) > tol)
            return 0;
    }
    return 1;
}

/* A frame of f over t, fitted into w x h (or o's view when o is given). */
static cairo_surface_t *frame(const FlTopology *t, const FlDrawFlits *f, int w, int h,
                              FlDrawOptions *o)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s);
    fl_draw_options_init(o);
    fl_draw_view_fit(t, w, h, &o->view);
    if (f)
        fl_draw_flits(cr, t, o, f);
    else
        fl_draw_topology(cr, t, o);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static int same_pixels(cairo_surface_t *a, cairo_surface_t *b)
{
    int h = cairo_image_surface_get_height(a);
    size_t n = (size_t)cairo_image_surface_get_stride(a) * (size_t)h;
    return cairo_image_surface_get_stride(b) == cairo_image_surface_get_stride(a)
           && cairo_image_surface_get_height(b) == h
           && memcmp(cairo_image_surface_get_data(a), cairo_image_surface_get_data(b), n) == 0;
}

static int switch_link(const FlTopology *t, int l)
{
    int a, b;
    fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
    return fl_topology_node_kind(t, a) == FL_NODE_SWITCH
           && fl_topology_node_kind(t, b) == FL_NODE_SWITCH;
}

/* A simulation to draw: its network, configuration and frame settings. */
typedef struct Run {
    Net n;
    FlSimConfig cfg;
    FlSim *sim;
    FlDrawFlits f;
} Run;

/* Uniform traffic at rate in packets of flits on spec with routing, with
 * vcs VCs of buf flits and link_latency cycles on a link (0 keeps the
 * default), and a watchdog of 200 cycles, with r->f set up to draw it; 0
 * when it cannot be built. */
static int run_open(Run *r, const char *spec, const char *routing, double rate, int flits,
                    int vcs, int buf, int link_latency)
{
    FlError err;
    r->sim = NULL;
    if (!uniform_net(&r->n, &r->cfg, spec, routing, rate, flits))
        return 0;
    FlSimConfig *cfg = &r->cfg;
    cfg->vcs = vcs ? vcs : cfg->vcs;
    cfg->buf_flits = buf ? buf : cfg->buf_flits;
    cfg->link_latency = link_latency ? link_latency : cfg->link_latency;
    cfg->deadlock_cycles = 200;
    if (fl_sim_new(r->n.t, cfg, &r->sim, &err)) {
        CHECK(0, "fl_sim_new: %s", err.message);
        net_close(&r->n);
        return 0;
    }
    fl_draw_flits_init(&r->f);
    r->f.sim = r->sim;
    r->f.link_latency = cfg->link_latency;
    return 1;
}

static void run_close(Run *r)
{
    fl_sim_free(r->sim);
    net_close(&r->n);
}

static int step(FlSim *s, int64_t n)
{
    FlError err;
    FlSimStatus st;
    if (fl_sim_step(s, n, &st, &err)) {
        CHECK(0, "fl_sim_step: %s", err.message);
        return 0;
    }
    return 1;
}

/* Flits gathered from a simulation, to check a frame against. */
#define MAX_FLITS 4096
typedef struct Flits {
    FlFlitView v[MAX_FLITS];
    int n;
} Flits;

static void gather(void *data, const FlFlitView *fl)
{
    Flits *fs = data;
    if (fs->n < MAX_FLITS)
        fs->v[fs->n++] = *fl;
}

/* A 4x4 mesh with dor at 0.3: flits on links in their packet's colour,
 * an empty network drawn as the plain network, the same state twice the
 * same pixels, and a PNG export. */
static void test_mesh(void)
{
    /* Three cycles on a link: flits are seen on links between cycles. */
    Run r;
    if (!run_open(&r, "mesh:4x4", "dor", 0.3, 4, 0, 0, 3))
        return;
    FlError err;
    FlDrawOptions o;

    /* Cycle 0: nothing injected yet. */
    cairo_surface_t *plain = frame(r.n.t, NULL, 800, 800, &o);
    cairo_surface_t *empty = frame(r.n.t, &r.f, 800, 800, &o);
    CHECK(same_pixels(plain, empty), "an empty network's frame is the plain network");
    cairo_surface_destroy(empty);

    int agg = -1;
    double side = fl_draw_flit_size(r.n.t, &o.view, &r.f, &agg);
    CHECK(agg == 0 && side >= 3, "4x4 mesh at 800 px: individual flits (side %.2f)", side);

    if (!step(r.sim, 300))
        goto out;
    static Flits fs;
    fs.n = 0;
    fl_sim_foreach_flit(r.sim, 0, gather, &fs);
    cairo_surface_t *a = frame(r.n.t, &r.f, 800, 800, &o);
    cairo_surface_t *b = frame(r.n.t, &r.f, 800, 800, &o);
    CHECK(same_pixels(a, b), "the same state gives the same pixels");
    CHECK(!same_pixels(a, plain), "a running network's frame differs from the plain one");

    /* Flits on switch links clear of every flit (and blocked ring) of
     * another channel must show their packet's colour at their centre. A
     * host link is short and runs by the corner of its switch, where
     * buffers of switch links stack: flits there may overlap. */
    static double px[MAX_FLITS], py[MAX_FLITS];
    static int shown[MAX_FLITS];
    double side2 = fl_draw_flit_size(r.n.t, &o.view, &r.f, NULL) * 2.2;
    for (int i = 0; i < fs.n; i++)
        shown[i] = fl_draw_flit_position(r.n.t, &o.view, &r.f, &fs.v[i], &px[i], &py[i]);
    int on_link = 0, coloured = 0, buffered = 0, buf_coloured = 0, drawn = 0;
    for (int i = 0; i < fs.n; i++) {
        double rgb[3];
        if (!shown[i])
            continue;
        drawn++;
        int clear = 1;
        for (int j = 0; j < fs.n && clear; j++)
            clear = j == i || !shown[j] || fs.v[j].channel == fs.v[i].channel
                    || hypot(px[j] - px[i], py[j] - py[i]) > side2;
        if (!clear || !switch_link(r.n.t, fs.v[i].channel >> 1))
            continue;
        fl_draw_flit_colour(&r.f, &fs.v[i], rgb);
        int ok = near_colour(pixel(a, px[i], py[i]), rgb_of(rgb), 6);
        if (fs.v[i].place == FL_FLIT_LINK) {
            on_link++;
            coloured += ok;
        } else {
            buffered++;
            buf_coloured += ok;
        }
    }
    CHECK(on_link > 0 && coloured == on_link, "%d of %d flits on links in their packet's colour",
          coloured, on_link);
    CHECK(buffered > 0 && buf_coloured == buffered,
          "%d of %d buffered flits in their packet's colour", buf_coloured, buffered);
    CHECK(on_link + buffered >= drawn / 3,
          "%d of %d flits on switch links clear of other channels' flits", on_link + buffered,
          drawn);

    /* Colour by source: every flit of a host has one colour. */
    r.f.colour = FL_DRAW_FLITS_BY_SOURCE;
    int same = 1;
    for (int i = 0; i + 1 < fs.n; i++) {
        double c1[3], c2[3];
        FlFlitView other = fs.v[i];
        other.packet += 1000;
        fl_draw_flit_colour(&r.f, &fs.v[i], c1);
        fl_draw_flit_colour(&r.f, &other, c2);
        same &= memcmp(c1, c2, sizeof c1) == 0;
    }
    CHECK(same, "colour by source ignores the packet");
    r.f.colour = FL_DRAW_FLITS_BY_PACKET;

    /* Forced aggregation draws other pixels than the flits. */
    r.f.mode = FL_DRAW_FLITS_AGGREGATED;
    cairo_surface_t *c = frame(r.n.t, &r.f, 800, 800, &o);
    CHECK(!same_pixels(a, c) && !same_pixels(c, plain), "aggregated frame of the 4x4 mesh");
    cairo_surface_destroy(c);
    r.f.mode = FL_DRAW_FLITS_AUTO;

    char path[64];
    snprintf(path, sizeof path, "/tmp/flitlab-frame-%ld.png", (long)getpid());
    int rc = fl_draw_export_flits_with_options(r.n.t, NULL, &r.f, path, NULL, 320, 320, &err);
    FILE *fp = fopen(path, "rb");
    unsigned char sig[8] = { 0 };
    size_t got = fp ? fread(sig, 1, 8, fp) : 0;
    if (fp)
        fclose(fp);
    CHECK(rc == FL_OK && got == 8 && sig[1] == 'P' && sig[2] == 'N',
          "a frame exports as PNG (%s)", rc ? err.message : "ok");
    unlink(path);

    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
out:
    cairo_surface_destroy(plain);
    run_close(&r);
}

/* The ring that locks (shortest paths, 1 VC of 2 flits): at the deadlock
 * the blocked heads wear the red ring. */
static void test_deadlock(void)
{
    Run r;
    if (!run_open(&r, "ring:8", "shortest", 0.9, 4, 1, 2, 0))
        return;
    FlError err;
    FlSimStatus st = FL_SIM_RUNNING;
    for (int i = 0; i < 100 && st != FL_SIM_DEADLOCK; i++)
        if (fl_sim_step(r.sim, 100, &st, &err))
            break;
    CHECK(st == FL_SIM_DEADLOCK, "the ring locks (%s)", fl_sim_status_name(st));
    FlDrawOptions o;
    cairo_surface_t *s = frame(r.n.t, &r.f, 800, 800, &o);
    static Flits fs;
    fs.n = 0;
    fl_sim_foreach_flit(r.sim, 0, gather, &fs);
    double side = fl_draw_flit_size(r.n.t, &o.view, &r.f, NULL);
    int heads = 0, red = 0;
    for (int i = 0; i < fs.n; i++) {
        double x, y;
        if (fs.v[i].index != 0 || fs.v[i].stall == FL_STALL_NONE
            || !fl_draw_flit_position(r.n.t, &o.view, &r.f, &fs.v[i], &x, &y))
            continue;
        heads++;
        /* On the ring: its radius is 0.8 side, its width 0.25 side. */
        red += near_colour(pixel(s, x + side * 0.8, y), 0xe60d0d, 12)
               || near_colour(pixel(s, x - side * 0.8, y), 0xe60d0d, 12);
    }
    CHECK(heads > 0 && red == heads, "%d of %d blocked heads ringed in red", red, heads);
    cairo_surface_destroy(s);
    run_close(&r);
}

/* A 32x32 mesh fitted to a small surface is drawn per channel: pixels of
 * the occupancy colours (green to red) appear; zoomed in, flits again. */
static void test_aggregated(void)
{
    Run r;
    if (!run_open(&r, "mesh:32x32", "dor", 0.3, 8, 0, 0, 0))
        return;
    if (step(r.sim, 200)) {
        FlDrawOptions o;
        cairo_surface_t *s = frame(r.n.t, &r.f, 400, 300, &o);
        int agg = 0;
        fl_draw_flit_size(r.n.t, &o.view, &r.f, &agg);
        CHECK(agg == 1, "a 32x32 mesh in 400x300 is aggregated");
        int occupancy = 0;
        for (int y = 0; y < 300; y++)
            for (int x = 0; x < 400; x++) {
                unsigned p = pixel(s, x, y);
                int red = (int)(p >> 16 & 0xff), gr = (int)(p >> 8 & 0xff), bl = (int)(p & 0xff);
                occupancy += bl < 0x40 && (red > gr ? red : gr) - bl > 0x40;
            }
        CHECK(occupancy > 100, "occupancy bars drawn (%d pixels)", occupancy);
        cairo_surface_t *s2 = frame(r.n.t, &r.f, 400, 300, &o);
        CHECK(same_pixels(s, s2), "the aggregated frame is the same twice");
        cairo_surface_destroy(s2);
        cairo_surface_destroy(s);
        /* Zoomed in, flits are individual again. */
        o.view.scale *= 12;
        fl_draw_flit_size(r.n.t, &o.view, &r.f, &agg);
        CHECK(agg == 0, "zoomed in, the 32x32 mesh draws flits");
    }
    run_close(&r);
}

int main(void)
{
    test_mesh();
    test_deadlock();
    test_aggregated();
    return tap_done();
}
