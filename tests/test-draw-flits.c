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

/* A frame of f over t, fitted into w x h (or o's view when o is given). */
static cairo_surface_t *frame(const FlTopology *t, const FlDrawFlits *f, int w, int h,
                              FlDrawOptions *o)
{
    cairo_t *cr;
    cairo_surface_t *s = fitted_picture(t, w, h, o, &cr);
    if (f)
        fl_draw_flits(cr, t, o, f);
    else
        fl_draw_topology(cr, t, o);
    return finish_picture(s, cr);
}

static int switch_link(const FlTopology *t, int l)
{
    int a, b;
    fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
    return fl_topology_node_kind(t, a) == FL_NODE_SWITCH
           && fl_topology_node_kind(t, b) == FL_NODE_SWITCH;
}

/* Where a link's middle is drawn: between its ends' positions. */
static void link_middle(const FlTopology *t, const FlDrawView *v, int c, double *x, double *y)
{
    double ax, ay, bx, by;
    fl_draw_node_position(t, fl_topology_channel_src(t, c), &ax, &ay);
    fl_draw_node_position(t, fl_topology_channel_dst(t, c), &bx, &by);
    fl_draw_view_to_device(v, (ax + bx) / 2, (ay + by) / 2, x, y);
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
    CHECK(surfaces_equal(plain, empty), "an empty network's frame is the plain network");
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
    CHECK(surfaces_equal(a, b), "the same state gives the same pixels");
    CHECK(!surfaces_equal(a, plain), "a running network's frame differs from the plain one");

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
        int ok = near_rgb(pixel(a, px[i], py[i]), hex_rgb(rgb), 6);
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
    CHECK(!surfaces_equal(a, c) && !surfaces_equal(c, plain), "aggregated frame of the 4x4 mesh");
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
        red += near_rgb(pixel(s, x + side * 0.8, y), 0xe60d0d, 12)
               || near_rgb(pixel(s, x - side * 0.8, y), 0xe60d0d, 12);
    }
    CHECK(heads > 0 && red == heads, "%d of %d blocked heads ringed in red", red, heads);

    /* The wait cycle drawn as a dependency cycle: its links' middles in
     * the cycle's red, and the flits of the packets holding it framed. */
    int *cycle = NULL, len = 0;
    int got = fl_sim_deadlock_cycle(r.sim, &cycle, &len, &err);
    CHECK(got == FL_OK && len > 0, "the deadlock has a wait cycle (%d channels)", len);
    r.f.wait_cycle = cycle;
    r.f.nwait_cycle = len;
    cairo_surface_t *w = frame(r.n.t, &r.f, 800, 800, &o);
    int middles = 0;
    for (int i = 0; i < len; i++) {
        double x, y;
        link_middle(r.n.t, &o.view, cycle[i], &x, &y);
        middles += near_rgb(pixel(w, x, y), 0xe01b24, 12);
    }
    CHECK(len > 0 && middles == len, "%d of %d wait-cycle channels drawn red", middles, len);
    int framed = 0, bodies = 0;
    for (int i = 0; i < fs.n; i++) {
        double x, y;
        if (fs.v[i].index == 0 || fs.v[i].place != FL_FLIT_BUFFER
            || !fl_draw_flit_position(r.n.t, &o.view, &r.f, &fs.v[i], &x, &y))
            continue;
        bodies++;
        framed += !near_rgb(pixel(s, x, y - side * 0.62), 0xe01b24, 40)
                  && near_rgb(pixel(w, x, y - side * 0.62), 0xe01b24, 40);
        framed += !near_rgb(pixel(s, x - side * 0.62, y), 0xe01b24, 40)
                  && near_rgb(pixel(w, x - side * 0.62, y), 0xe01b24, 40);
    }
    CHECK(bodies > 0 && framed > 0, "the holders' flits are framed in red (%d sides of %d flits)",
          framed, bodies);
    cairo_surface_destroy(w);
    free(cycle);
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
        CHECK(surfaces_equal(s, s2), "the aggregated frame is the same twice");
        cairo_surface_destroy(s2);
        cairo_surface_destroy(s);
        /* Zoomed in, flits are individual again. */
        o.view.scale *= 12;
        fl_draw_flit_size(r.n.t, &o.view, &r.f, &agg);
        CHECK(agg == 0, "zoomed in, the 32x32 mesh draws flits");
    }
    run_close(&r);
}

/* Relative luminance of a colour, 0 (black) to 1 (white). */
static double luma(const double rgb[3])
{
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

/* Packet colours: distinct from each other, none too light for white. */
static void test_palette(void)
{
    FlDrawFlits f;
    fl_draw_flits_init(&f);
    CHECK(f.selected_packet == -1 && !f.caption && !f.heat && !f.wait_cycle
              && !f.selected_route,
          "fl_draw_flits_init sets every overlay to none");
    double seen[64][3];
    int n = 0;
    for (int64_t id = 0; id < 1000 && n < 64; id++) {
        FlFlitView fl = { 0 };
        double rgb[3];
        fl.packet = id;
        fl_draw_flit_colour(&f, &fl, rgb);
        int known = 0;
        for (int i = 0; i < n && !known; i++)
            known = memcmp(seen[i], rgb, sizeof rgb) == 0;
        if (!known)
            memcpy(seen[n++], rgb, sizeof rgb);
    }
    double closest = 1e9, lightest = 0;
    for (int i = 0; i < n; i++) {
        lightest = fmax(lightest, luma(seen[i]));
        for (int j = 0; j < i; j++)
            closest = fmin(closest, fabs(seen[i][0] - seen[j][0]) + fabs(seen[i][1] - seen[j][1])
                                        + fabs(seen[i][2] - seen[j][2]));
    }
    CHECK(n >= 12, "packets take %d colours", n);
    CHECK(closest >= 0.25, "any two packet colours differ by %.2f in r + g + b", closest);
    CHECK(lightest <= 0.6, "the lightest packet colour has luminance %.2f", lightest);
}

/* Whether the pixels of a and b differ anywhere inside (x0, y0)-(x1, y1),
 * and whether they are the same everywhere outside it. */
static void compare_regions(cairo_surface_t *a, cairo_surface_t *b, int x0, int y0, int x1,
                            int y1, int *inside, int *outside)
{
    *inside = 0;
    *outside = 0;
    for (int y = 0; y < cairo_image_surface_get_height(a); y++)
        for (int x = 0; x < cairo_image_surface_get_width(a); x++) {
            int in = x >= x0 && x < x1 && y >= y0 && y < y1;
            if (pixel(a, x, y) != pixel(b, x, y))
                *(in ? inside : outside) = 1;
        }
}

/* The caption in its box at the top-left; the heat map on the links in
 * its colour scale, with a legend at the bottom-right. */
static void test_caption_heat(void)
{
    Run r;
    if (!run_open(&r, "mesh:4x4", "dor", 0.3, 4, 0, 0, 0))
        return;
    FlDrawOptions o;
    cairo_surface_t *plain = frame(r.n.t, &r.f, 640, 480, &o);
    r.f.caption = "cycle 0";
    cairo_surface_t *cap = frame(r.n.t, &r.f, 640, 480, &o);
    int in, out;
    compare_regions(plain, cap, 0, 0, 200, 60, &in, &out);
    CHECK(in && !out, "the caption changes the top-left corner alone");
    int dark = 0;
    for (int y = 0; y < 60; y++)
        for (int x = 0; x < 200; x++)
            dark += near_rgb(pixel(cap, x, y), 0x241f31, 40);
    CHECK(dark > 20, "the caption's text is dark on its box (%d pixels)", dark);
    cairo_surface_destroy(cap);
    r.f.caption = NULL;

    double lo[3], hi[3], mid[3];
    fl_draw_heat_colour(0, lo);
    fl_draw_heat_colour(1, hi);
    fl_draw_heat_colour(0.5, mid);
    CHECK(luma(lo) > 0.9 && luma(hi) < 0.3 && luma(mid) < luma(lo) && luma(mid) > luma(hi),
          "the heat scale runs from pale (%.2f) to dark (%.2f)", luma(lo), luma(hi));

    int nch = fl_topology_channel_count(r.n.t);
    double *heat = calloc((size_t)nch, sizeof *heat);
    r.f.heat = heat;
    r.f.nheat = nch;
    cairo_surface_t *cold = frame(r.n.t, &r.f, 640, 480, &o);
    compare_regions(plain, cold, 440, 380, 640, 480, &in, &out);
    CHECK(in && !out, "an idle heat map draws only its legend");
    for (int c = 0; c < nch; c++)
        heat[c] = 1.0;
    cairo_surface_t *hot = frame(r.n.t, &r.f, 640, 480, &o);
    fl_draw_heat_colour(15.5 / 16, hi);
    int hits = 0, links = 0;
    for (int c = 0; c < nch; c++) {
        if (!switch_link(r.n.t, c >> 1))
            continue;
        double x, y, ax, ay, bx, by;
        link_middle(r.n.t, &o.view, c, &x, &y);
        fl_draw_node_position(r.n.t, fl_topology_channel_src(r.n.t, c), &ax, &ay);
        fl_draw_node_position(r.n.t, fl_topology_channel_dst(r.n.t, c), &bx, &by);
        double len = hypot(bx - ax, by - ay), tx = (bx - ax) / len, ty = (by - ay) / len;
        /* On the channel's side of the link, inside its band. */
        links++;
        hits += near_rgb(pixel(hot, x - ty * 1.5, y + tx * 1.5), hex_rgb(hi), 8);
    }
    CHECK(links > 0 && hits == links, "%d of %d busy channels in the hottest colour", hits,
          links);
    cairo_surface_destroy(hot);
    cairo_surface_destroy(cold);
    free(heat);
    cairo_surface_destroy(plain);
    run_close(&r);
}

/* A packet picked in an inspector: its flits keep their colour, every
 * other flit fades, and its route is drawn along the links. */
static void test_selected(void)
{
    Run r;
    if (!run_open(&r, "mesh:4x4", "dor", 0.3, 4, 0, 0, 3))
        return;
    if (!step(r.sim, 300))
        goto out;
    static Flits fs;
    fs.n = 0;
    fl_sim_foreach_flit(r.sim, 0, gather, &fs);
    FlDrawOptions o;
    cairo_surface_t *plain = frame(r.n.t, &r.f, 800, 800, &o);
    /* The packet of a flit on a switch link, away from every other flit. */
    int pick = -1;
    double side = fl_draw_flit_size(r.n.t, &o.view, &r.f, NULL);
    for (int i = 0; i < fs.n && pick < 0; i++) {
        double x, y, x2, y2;
        if (fs.v[i].place != FL_FLIT_LINK || !switch_link(r.n.t, fs.v[i].channel >> 1)
            || !fl_draw_flit_position(r.n.t, &o.view, &r.f, &fs.v[i], &x, &y))
            continue;
        int clear = 1;
        for (int j = 0; j < fs.n && clear; j++)
            clear = j == i
                    || !fl_draw_flit_position(r.n.t, &o.view, &r.f, &fs.v[j], &x2, &y2)
                    || hypot(x2 - x, y2 - y) > side * 3;
        if (clear)
            pick = i;
    }
    CHECK(pick >= 0, "a lone flit on a switch link to select");
    if (pick < 0) {
        cairo_surface_destroy(plain);
        goto out;
    }
    int route[1] = { fs.v[pick].channel };
    r.f.selected_packet = fs.v[pick].packet;
    r.f.selected_route = route;
    r.f.nselected_route = 1;
    cairo_surface_t *s = frame(r.n.t, &r.f, 800, 800, &o);
    double x, y, rgb[3];
    fl_draw_flit_position(r.n.t, &o.view, &r.f, &fs.v[pick], &x, &y);
    fl_draw_flit_colour(&r.f, &fs.v[pick], rgb);
    CHECK(near_rgb(pixel(s, x, y), hex_rgb(rgb), 6), "the selected flit keeps its colour");
    CHECK(near_rgb(pixel(s, x + side * 0.62, y), 0x241f31, 40)
              || near_rgb(pixel(s, x, y + side * 0.62), 0x241f31, 40),
          "the selected flit is framed");
    int faded_ok = 0, others = 0;
    for (int i = 0; i < fs.n; i++) {
        double fx, fy, c[3];
        if (fs.v[i].packet == r.f.selected_packet || fs.v[i].place != FL_FLIT_LINK
            || !switch_link(r.n.t, fs.v[i].channel >> 1)
            || !fl_draw_flit_position(r.n.t, &o.view, &r.f, &fs.v[i], &fx, &fy)
            || hypot(fx - x, fy - y) < side * 3)
            continue;
        fl_draw_flit_colour(&r.f, &fs.v[i], c);
        for (int k = 0; k < 3; k++)
            c[k] = 0.25 * c[k] + 0.75;
        unsigned p = pixel(s, fx, fy);
        others++;
        faded_ok += near_rgb(p, hex_rgb(c), 10)
                    || !near_rgb(pixel(plain, fx, fy), p, 0); /* under another flit */
    }
    CHECK(others > 0 && faded_ok == others, "%d of %d other flits faded", faded_ok, others);
    /* The route: the link's middle on the line, in the route's orange
     * (80% over the grey link), unless the flit sits there. */
    double mx, my;
    link_middle(r.n.t, &o.view, route[0], &mx, &my);
    unsigned want = (unsigned)lround(0.8 * 0xe6 + 0.2 * 0x77) << 16
                    | (unsigned)lround(0.8 * 0x61 + 0.2 * 0x76) << 8
                    | (unsigned)lround(0.2 * 0x7b);
    int on_route = 0;
    for (int k = -3; k <= 3; k++)
        on_route += near_rgb(pixel(s, mx + k, my), want, 14)
                    || near_rgb(pixel(s, mx, my + k), want, 14);
    CHECK(on_route > 0, "the route is drawn along its channel");
    cairo_surface_destroy(s);
    cairo_surface_destroy(plain);
out:
    run_close(&r);
}

/* A host link's flits are drawn beyond the host, away from its switch,
 * clear of the switch's square; the selected packet is still drawn in an
 * aggregated frame. */
static void test_host_lanes(void)
{
    Run r;
    if (!run_open(&r, "mesh:4x4", "dor", 0.3, 4, 0, 0, 3))
        return;
    if (!step(r.sim, 300))
        goto out;
    static Flits fs;
    fs.n = 0;
    fl_sim_foreach_flit(r.sim, 0, gather, &fs);
    FlDrawOptions o;
    cairo_surface_t *s = frame(r.n.t, &r.f, 800, 800, &o);
    int host_flits = 0, beyond = 0;
    for (int i = 0; i < fs.n; i++) {
        const FlFlitView *fl = &fs.v[i];
        double x, y, hx, hy, sx, sy;
        if (fl->place == FL_FLIT_SOURCE_QUEUE || switch_link(r.n.t, fl->channel >> 1)
            || !fl_draw_flit_position(r.n.t, &o.view, &r.f, fl, &x, &y))
            continue;
        int src = fl_topology_channel_src(r.n.t, fl->channel);
        int dst = fl_topology_channel_dst(r.n.t, fl->channel);
        int host = fl_topology_node_kind(r.n.t, src) == FL_NODE_SWITCH ? dst : src;
        fl_draw_node_position(r.n.t, host, &hx, &hy);
        fl_draw_view_to_device(&o.view, hx, hy, &hx, &hy);
        fl_draw_node_position(r.n.t, fl_topology_host_switch(r.n.t, host), &sx, &sy);
        fl_draw_view_to_device(&o.view, sx, sy, &sx, &sy);
        host_flits++;
        /* Farther from the switch than the host, and on the host's side. */
        double ax = hx - sx, ay = hy - sy;
        beyond += hypot(x - sx, y - sy) > hypot(ax, ay) && (x - hx) * ax + (y - hy) * ay > 0;
    }
    CHECK(host_flits > 0 && beyond == host_flits, "%d of %d host-link flits beyond their host",
          beyond, host_flits);
    cairo_surface_destroy(s);

    /* Aggregated: only the selected packet's flits are squares. */
    int pick = -1;
    for (int i = 0; i < fs.n && pick < 0; i++)
        if (fs.v[i].place == FL_FLIT_LINK && switch_link(r.n.t, fs.v[i].channel >> 1))
            pick = i;
    if (pick >= 0) {
        r.f.mode = FL_DRAW_FLITS_AGGREGATED;
        cairo_surface_t *agg = frame(r.n.t, &r.f, 800, 800, &o);
        r.f.selected_packet = fs.v[pick].packet;
        cairo_surface_t *sel = frame(r.n.t, &r.f, 800, 800, &o);
        double x, y, rgb[3];
        fl_draw_flit_position(r.n.t, &o.view, &r.f, &fs.v[pick], &x, &y);
        fl_draw_flit_colour(&r.f, &fs.v[pick], rgb);
        CHECK(!near_rgb(pixel(agg, x, y), hex_rgb(rgb), 6)
                  && near_rgb(pixel(sel, x, y), hex_rgb(rgb), 6),
              "an aggregated frame still draws the selected packet's flits");
        cairo_surface_destroy(sel);
        cairo_surface_destroy(agg);
    }
out:
    run_close(&r);
}

/* Every family the application draws: each flit in a buffer or on a link
 * has a place inside the picture, no two flits of a channel share one
 * (deep buffers on short links and XMESH's spurs included), and the frame
 * draws. */
static void test_families(void)
{
    static const char *const nets[][2] = {
        { "torus:4x4", "dor" },         { "xmesh:8x8", "xmesh" },
        { "hypercube:4", "dor" },       { "dmesh:5x5", "dmesh" },
        { "ring:8", "dor" },            { "irregular:16,ports=4,hosts=2,seed=1", "updown" },
        { "myrinet-mesh:2x4", "updown" },
    };
    enum { W = 1600, H = 1200 };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        Run r;
        /* Buffers of 16 flits are deeper than a spur is long. */
        if (!run_open(&r, nets[i][0], nets[i][1], 0.3, 6, 0, 16, 0))
            continue;
        static Flits fs;
        fs.n = 0;
        step(r.sim, 300);
        fl_sim_foreach_flit(r.sim, 0, gather, &fs);
        FlDrawOptions o;
        cairo_surface_t *s = frame(r.n.t, &r.f, W, H, &o);
        int aggregated = 0, placed = 0, inside = 0, apart = 1;
        double side = fl_draw_flit_size(r.n.t, &o.view, &r.f, &aggregated);
        static double x[MAX_FLITS], y[MAX_FLITS];
        for (int k = 0; k < fs.n; k++) {
            if (!fl_draw_flit_position(r.n.t, &o.view, &r.f, &fs.v[k], &x[k], &y[k]))
                continue;
            placed++;
            inside += x[k] >= 0 && x[k] <= W && y[k] >= 0 && y[k] <= H;
            /* Flits of one channel (its link and its buffer) never meet;
             * those of two links drawn across each other may. */
            for (int j = 0; j < k && apart; j++)
                if (fs.v[j].channel == fs.v[k].channel
                    && hypot(x[k] - x[j], y[k] - y[j]) < side / 2)
                    apart = 0;
        }
        CHECK(fs.n > 20 && placed == fs.n, "%s: every one of %d flits in the network has a place",
              nets[i][0], fs.n);
        CHECK(inside == placed, "%s: every flit is inside the picture (%d of %d)", nets[i][0],
              inside, placed);
        CHECK(apart, "%s: no two flits of a channel are drawn at the same place (flits of %.1f px)",
              nets[i][0], side);
        CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, "%s: the frame draws", nets[i][0]);
        cairo_surface_destroy(s);
        run_close(&r);
    }
}

int main(void)
{
    test_mesh();
    test_deadlock();
    test_aggregated();
    test_palette();
    test_caption_heat();
    test_selected();
    test_host_lanes();
    test_families();
    return tap_done();
}
