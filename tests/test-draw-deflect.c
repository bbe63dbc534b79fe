/* test-draw-deflect.c — frames of the deflection model drawn with cairo:
 * messages where fl_draw_deflect_position() puts them, in their colour,
 * deflected ones ringed in red, waiting ones counted, hit tests naming the
 * message drawn, the selected one framed with its ends ringed, the
 * aggregated frame of a large XMESH, exports and a GIF of a few cycles.
 * Needs no display. */
#include <gif_lib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flitlab-draw.h"
#include "sim-net.h"
#include "test-draw-pixels.h"

#define RED 0xe01b24         /* the deflected ring */
#define SOURCE 0x26a269      /* a selected message's source ring */

/* A deflection model to draw. */
typedef struct Run {
    Net n;
    FlDeflect *d;
    FlDrawDeflect f;
} Run;

static int run_open(Run *r, const char *spec, const char *routing, int nmsg)
{
    FlError err = { 0 };
    FlDeflectConfig cfg = { 0 };
    r->d = NULL;
    if (!net_open(&r->n, spec, routing))
        return 0;
    cfg.routing = r->n.r;
    cfg.nmsg = nmsg;
    cfg.priority = FL_PRIORITY_AGE;
    cfg.seed = 7;
    if (fl_deflect_new(r->n.t, &cfg, &r->d, &err)) {
        CHECK(0, "fl_deflect_new: %s", err.message);
        net_close(&r->n);
        return 0;
    }
    fl_draw_deflect_init(&r->f);
    r->f.deflect = r->d;
    return 1;
}

static void run_close(Run *r)
{
    fl_deflect_free(r->d);
    net_close(&r->n);
}

/* A frame of f (or with f NULL the plain network) fitted into w x h. */
static cairo_surface_t *picture(const FlTopology *t, const FlDrawDeflect *f, int w, int h,
                                FlDrawOptions *o)
{
    cairo_t *cr;
    cairo_surface_t *s = fitted_picture(t, w, h, o, &cr);
    if (!f)
        fl_draw_topology(cr, t, o);
    else
        fl_draw_deflect(cr, t, o, f);
    return finish_picture(s, cr);
}

/* The messages of a model, gathered (v malloc'd). */
typedef struct Messages {
    FlDeflectView *v;
    int n;
} Messages;

static void gather(void *data, const FlDeflectView *m)
{
    Messages *ms = data;
    FlDeflectView *grown = realloc(ms->v, sizeof *grown * (size_t)(ms->n + 1));
    if (grown) {
        ms->v = grown;
        ms->v[ms->n++] = *m;
    }
}

/* Whether any red pixel lies on the circle of radius r around (x, y). */
static int red_around(cairo_surface_t *s, double x, double y, double r)
{
    for (int k = 0; k < 16; k++) {
        double a = k * 2 * M_PI / 16;
        if (near_rgb(pixel(s, x + r * cos(a), y + r * sin(a)), RED, 40))
            return 1;
    }
    return 0;
}

/* A 6x6 mesh, 2 messages per switch: each message in transit in its
 * colour at its position, deflected ones ringed, hit tests, waiting counts
 * at cycle 0, the same state twice the same pixels, the selection. */
static void test_mesh(Run *r)
{
    FlDrawOptions o;
    FlError err = { 0 };
    cairo_surface_t *plain = picture(r->n.t, NULL, 800, 800, &o);

    /* Cycle 0: every message waits at its source and is counted. */
    cairo_surface_t *start = picture(r->n.t, &r->f, 800, 800, &o);
    CHECK(!surfaces_equal(start, plain), "at cycle 0 the waiting messages are counted");
    r->f.deflect = NULL;
    r->f.legend = 0;
    cairo_surface_t *none = picture(r->n.t, &r->f, 800, 800, &o);
    CHECK(surfaces_equal(none, plain), "no model, no legend: the plain network");
    cairo_surface_destroy(none);
    r->f.deflect = r->d;
    r->f.legend = 1;
    cairo_surface_destroy(start);

    int agg = -1;
    double side = fl_draw_deflect_size(r->n.t, &o.view, &r->f, &agg);
    CHECK(agg == 0 && side >= 5, "a 6x6 mesh at 800 px: messages one by one (side %.1f)", side);

    CHECK(fl_deflect_step(r->d, 6, &err) == FL_OK, "six cycles: %s", err.message);
    Messages ms = { NULL, 0 };
    fl_deflect_foreach(r->d, gather, &ms);
    cairo_surface_t *a = picture(r->n.t, &r->f, 800, 800, &o);
    cairo_surface_t *b = picture(r->n.t, &r->f, 800, 800, &o);
    CHECK(surfaces_equal(a, b), "the same state gives the same pixels");

    int moving = 0, coloured = 0, deflected = 0, ringed = 0, hits = 0, unplaced = 0;
    for (int i = 0; i < ms.n; i++) {
        double x, y, rgb[3];
        if (!fl_draw_deflect_position(r->n.t, &o.view, &r->f, &ms.v[i], &x, &y)) {
            unplaced += ms.v[i].channel >= 0;
            continue;
        }
        moving++;
        fl_draw_deflect_colour(&r->f, &ms.v[i], rgb);
        coloured += near_rgb(pixel(a, x, y), hex_rgb(rgb), 6);
        hits += fl_draw_deflect_hit(r->n.t, &o.view, &r->f, x, y, side) == ms.v[i].message;
        if (ms.v[i].deflected) {
            deflected++;
            ringed += red_around(a, x, y, side * 0.85);
        }
    }
    CHECK(unplaced == 0 && moving < ms.n, "only the %d waiting messages have no position",
          ms.n - moving);
    CHECK(moving > 0 && coloured == moving, "%d of %d messages in transit in their colour",
          coloured, moving);
    CHECK(hits == moving, "%d of %d messages hit where they are drawn", hits, moving);
    CHECK(deflected == ringed, "%d of %d deflected messages ringed in red", ringed, deflected);
    CHECK(fl_draw_deflect_hit(r->n.t, &o.view, &r->f, -100, -100, side) == -1,
          "nothing is hit off the network");

    /* Select one in transit: its source ringed green. */
    for (int i = 0; i < ms.n; i++) {
        double x, y, sx, sy, wx, wy;
        if (ms.v[i].channel < 0)
            continue;
        r->f.selected_message = ms.v[i].message;
        cairo_surface_t *s = picture(r->n.t, &r->f, 800, 800, &o);
        fl_draw_deflect_position(r->n.t, &o.view, &r->f, &ms.v[i], &x, &y);
        fl_draw_node_position(r->n.t, ms.v[i].src, &wx, &wy);
        fl_draw_view_to_device(&o.view, wx, wy, &sx, &sy);
        int green = 0;
        for (double dx = 0; dx < 40 && !green; dx += 0.5)
            green = near_rgb(pixel(s, sx + dx, sy), SOURCE, 30);
        CHECK(green, "the selected message's source (switch %d) is ringed green", ms.v[i].src);
        CHECK(!surfaces_equal(s, a), "selecting a message changes the frame");
        cairo_surface_destroy(s);
        r->f.selected_message = -1;
        break;
    }

    /* Colour by destination: the message id does not matter. */
    r->f.colour = FL_DRAW_FLITS_BY_DESTINATION;
    FlDeflectView other = ms.v[0];
    double c1[3], c2[3];
    other.message += 977;
    fl_draw_deflect_colour(&r->f, &ms.v[0], c1);
    fl_draw_deflect_colour(&r->f, &other, c2);
    CHECK(memcmp(c1, c2, sizeof c1) == 0, "colour by destination ignores the message id");
    r->f.colour = FL_DRAW_FLITS_BY_PACKET;

    /* Exports in the three formats. */
    static const char *const ext[] = { "png", "svg", "pdf" };
    for (int k = 0; k < 3; k++) {
        char path[96];
        snprintf(path, sizeof path, "/tmp/flitlab-deflect-%ld.%s", (long)getpid(), ext[k]);
        int rc = fl_draw_export_deflect_with_options(r->n.t, NULL, &r->f, path, NULL, 320, 320,
                                                     &err);
        CHECK(rc == FL_OK && access(path, R_OK) == 0, "the frame exports as %s (%s)", ext[k],
              rc ? err.message : "ok");
        unlink(path);
    }
    CHECK(fl_draw_export_deflect_with_options(r->n.t, NULL, &r->f, "/tmp/x.bmp", NULL, 10, 10,
                                              &err) == FL_EINVAL,
          "an unknown format is refused: %s", err.message);

    free(ms.v);
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    cairo_surface_destroy(plain);
}

/* A 12x24 XMESH in 400x300 is aggregated: red dots for deflections; with
 * a message selected, it is drawn whole. */
static void test_aggregated(Run *r)
{
    FlError err = { 0 };
    CHECK(fl_deflect_step(r->d, 30, &err) == FL_OK, "30 cycles: %s", err.message);
    FlDrawOptions o;
    cairo_surface_t *s = picture(r->n.t, &r->f, 400, 300, &o);
    int agg = 0;
    fl_draw_deflect_size(r->n.t, &o.view, &r->f, &agg);
    CHECK(agg == 1, "a 12x24 XMESH in 400x300 is aggregated");
    int red = 0;
    for (int y = 0; y < 300; y++)
        for (int x = 0; x < 400; x++)
            red += near_rgb(pixel(s, x, y), RED, 30);
    FlDeflectStats st;
    fl_deflect_stats(r->d, &st);
    CHECK(st.deflections > 0 && red > 20, "deflections drawn red (%d pixels, %lld deflections)",
          red, (long long)st.deflections);
    r->f.mode = FL_DRAW_FLITS_INDIVIDUAL;
    cairo_surface_t *one = picture(r->n.t, &r->f, 400, 300, &o);
    CHECK(!surfaces_equal(s, one), "forced one by one, the frame differs");
    cairo_surface_destroy(one);
    cairo_surface_destroy(s);
}

/* Five cycles as a GIF through the animation loop. */
static void test_animation(Run *r)
{
    FlDrawAnimation a;
    FlError err = { 0 };
    char path[96];
    int frames = 0, error = 0;
    snprintf(path, sizeof path, "/tmp/flitlab-deflect-%ld.gif", (long)getpid());
    fl_draw_animation_init(&a);
    a.path = path;
    a.width = 200;
    a.height = 160;
    a.from = 3;
    a.to = 7;
    int rc = fl_draw_animate_deflect(r->d, r->n.t, &a, &frames, &err);
    CHECK(rc == FL_OK && frames == 5 && fl_deflect_cycle(r->d) == 7,
          "cycles 3 to 7 animate as 5 frames (%s)", rc ? err.message : "ok");
    GifFileType *gif = DGifOpenFileName(path, &error);
    int count = gif && DGifSlurp(gif) == GIF_OK ? gif->ImageCount : -1;
    if (gif)
        DGifCloseFile(gif, &error);
    CHECK(count == 5, "the GIF holds 5 frames (%d)", count);
    unlink(path);
    a.from = 8;
    CHECK(fl_draw_animate_deflect(r->d, r->n.t, &a, &frames, &err) == FL_EINVAL && frames == 0
              && access(path, F_OK) != 0,
          "a range running backwards is refused, no file left: %s", err.message);
}

/* Runs test on a model of spec with routing, nmsg messages per switch. */
static void with_run(void (*test)(Run *), const char *spec, const char *routing, int nmsg)
{
    Run r;
    if (!run_open(&r, spec, routing, nmsg))
        return;
    test(&r);
    run_close(&r);
}

int main(void)
{
    with_run(test_mesh, "mesh:6x6", "dor", 2);
    with_run(test_aggregated, "xmesh:12x24", "xmesh", 4);
    with_run(test_animation, "xmesh:6x6", "xmesh", 2);
    return tap_done();
}
