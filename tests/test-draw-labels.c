/* test-draw-labels.c — what a class reads on a network drawn with a
 * routing: the datelines of dor on a torus, legends that say what is (and
 * is not) drawn and leave the network where it is, switch numbers wherever
 * they fit and labels that never overlap. Needs no display. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A w x h picture of t with r's overlays, drawn as fl_draw_routing()
 * draws it (through fl_draw_routing_labels(), which must draw the same). */
static cairo_surface_t *render_routing(const FlTopology *t, const FlDrawOptions *o,
                                       const FlDrawRouting *r, int w, int h)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s);
    fl_draw_routing_labels(cr, t, o, r, NULL, 0);
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
    for (int y = 0; y < h; y++) {
        unsigned p = pixel(s, 30, y);
        if (near_rgb(p, LEGEND_BORDER, 24) || near_rgb(p, 0xcdcccb, 20)) {
            if (top < 0)
                top = y;
            bottom = y;
        }
    }
    return top < 0 ? 0 : bottom - top;
}

/* The height of the legend of t drawn with d through o on w x h. */
static int drawn_legend(const FlTopology *t, const FlDrawOptions *o, const FlDrawRouting *d,
                        int w, int h)
{
    cairo_surface_t *s = render_routing(t, o, d, w, h);
    int height = legend_height(s);
    cairo_surface_destroy(s);
    return height;
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
    int h2 = drawn_legend(t, &o, &d, 800, 800);
    d.routing = one;
    int h1 = drawn_legend(t, &o, &d, 800, 800);
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

    CHECK(drawn_legend(t, &o, &d, 400, 600) == 0, "no overlay, no legend");
    d.routing = dor;
    d.overlays = FL_DRAW_OVERLAY_DIRECTIONS;
    int note = drawn_legend(t, &o, &d, 400, 600);
    CHECK(note > 20, "channel directions under dor: a legend says there are none (%d px)", note);

    d.overlays = FL_DRAW_OVERLAY_HV_GRAPH;
    int no_tree = drawn_legend(t, &o, &d, 400, 600);
    d.routing = updown;
    int tree = drawn_legend(t, &o, &d, 400, 600);
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

static int boxes_meet(const FlDrawLabelBox *a, const FlDrawLabelBox *b)
{
    return a->x < b->x + b->width && b->x < a->x + a->width && a->y < b->y + b->height
           && b->y < a->y + a->height;
}

/* The labels of t drawn with r through a view fitted into w x h and zoomed
 * by zoom about the picture's centre: how many, and how many pairs
 * overlap. */
static int draw_labels(const FlTopology *t, const FlDrawRouting *r, int w, int h, double zoom,
                       int *overlaps)
{
    enum { MAX = 8192 };
    static FlDrawLabelBox boxes[MAX];
    FlDrawOptions o;
    fl_draw_options_init(&o);
    fl_draw_routing_fit(t, r, w, h, &o.view);
    o.view.scale *= zoom;
    o.view.tx = w / 2.0 - (w / 2.0 - o.view.tx) * zoom;
    o.view.ty = h / 2.0 - (h / 2.0 - o.view.ty) * zoom;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s);
    int n = fl_draw_routing_labels(cr, t, &o, r, boxes, MAX);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    *overlaps = 0;
    for (int i = 0; i < n && i < MAX; i++)
        for (int j = i + 1; j < n && j < MAX; j++)
            *overlaps += boxes_meet(&boxes[i], &boxes[j]);
    return n;
}

/* The 8x8 torus under L-turn with its turn map, channel directions and
 * (h, v) coordinates: 64 numbers, 64 (h, v) and many directions, and no
 * two labels on one another, at the sizes of the canvas at 1280x800 and
 * 1024x700 and zoomed in. */
static void test_no_overlap(void)
{
    FlTopology *t = from_spec("torus:8x8,hosts=0");
    FlRoutingReport rep;
    FlRouting *r = route_with(t, "lturn-alpha", 0, &rep);
    FlDrawRouting d;
    fl_draw_routing_init(&d);
    d.routing = r;
    d.report = &rep;
    d.overlays = FL_DRAW_OVERLAY_TURNS | FL_DRAW_OVERLAY_DIRECTIONS;
    static const int sizes[][2] = { { 610, 690 }, { 450, 560 } };
    for (int i = 0; i < 2; i++)
        for (double zoom = 1; zoom <= 2; zoom += 1) {
            int overlaps, n = draw_labels(t, &d, sizes[i][0], sizes[i][1], zoom, &overlaps);
            CHECK(n > 150 && overlaps == 0,
                  "torus 8x8, L-turn, turn map and directions at %dx%d zoomed %gx: %d labels, "
                  "%d overlapping pairs", sizes[i][0], sizes[i][1], zoom, n, overlaps);
        }
    fl_routing_free(r);
    fl_topology_free(t);
}

/* Switch numbers wherever they fit, whatever the network: the 5-cube, a
 * 64-switch irregular network with its turn map, and the H/V graph once
 * zoomed in (not fitted, where its switches are dots). */
static void test_numbers_where_they_fit(void)
{
    FlTopology *cube = from_spec("hypercube:5,hosts=0");
    int overlaps, n = draw_labels(cube, NULL, 600, 450, 1, &overlaps);
    CHECK(n == 32 && overlaps == 0, "the 5-cube's 32 switches are numbered (%d, %d overlapping)",
          n, overlaps);
    fl_topology_free(cube);

    FlTopology *t = from_spec("irregular:64,ports=4,hosts=4,seed=1");
    FlTopology *sw = NULL, *hv = NULL;
    FlRoutingReport rep;
    FlRouting *r = route_with(t, "lturn-alpha", 0, &rep);
    FlDrawRouting d;
    fl_draw_routing_init(&d);
    d.routing = r;
    d.report = &rep;
    d.overlays = FL_DRAW_OVERLAY_TURNS;
    CHECK_INT(fl_draw_switches_only(t, &sw, NULL), FL_OK);
    n = draw_labels(sw, &d, 450, 560, 1, &overlaps);
    CHECK(n >= 60 && overlaps == 0,
          "irregular:64 with its turn map at 450x560: %d of 64 switches numbered (%d overlapping)",
          n, overlaps);

    d.overlays = FL_DRAW_OVERLAY_HV_GRAPH;
    CHECK_INT(fl_draw_hv_layout(t, r, &hv, NULL), FL_OK);
    int fitted = draw_labels(hv, &d, 610, 690, 1, &overlaps);
    int zoomed = draw_labels(hv, &d, 610, 690, 4, &overlaps);
    CHECK(fitted < zoomed && zoomed >= 10 && overlaps == 0,
          "the H/V graph: %d numbers fitted, %d zoomed in 4x (%d overlapping)", fitted, zoomed,
          overlaps);
    fl_topology_free(hv);
    fl_topology_free(sw);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* Pixels of colour c (within tol) in the square of side 2 * r around
 * (x, y). */
static int colour_near(cairo_surface_t *s, double x, double y, double r, unsigned c, int tol)
{
    int n = 0;
    for (double dy = -r; dy <= r; dy += 1)
        for (double dx = -r; dx <= r; dx += 1)
            n += near_rgb(pixel(s, x + dx, y + dy), c, tol);
    return n;
}

static int file_has(const char *path, const char *needle)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    for (size_t i = 0; i + strlen(needle) <= n; i++)
        if (memcmp(buf + i, needle, strlen(needle)) == 0)
            return 1;
    return 0;
}

/* Export as a page: the whole network (not a view of it) at the size
 * asked, every switch in the picture, a title in the band at the top; a
 * resolution that draws everything larger; PDF pages in points. */
static void test_export_page(void)
{
    FlTopology *t = from_spec("torus:8x8,hosts=1");
    FlRoutingReport rep;
    FlRouting *r = route_with(t, "dor", 0, &rep);
    FlDrawRouting d;
    FlDrawPage page;
    FlError err;
    char png[64], pdf[64];
    snprintf(png, sizeof png, "/tmp/flitlab-page-%d.png", (int)getpid());
    snprintf(pdf, sizeof pdf, "/tmp/flitlab-page-%d.pdf", (int)getpid());
    fl_draw_routing_init(&d);
    d.routing = r;
    d.report = &rep;
    d.overlays = FL_DRAW_OVERLAY_TURNS;
    fl_draw_page_init(&page);
    page.width = 1000;
    page.height = 1400;
    page.dpi = 192;
    page.title = "Dimension order on a torus";
    CHECK_INT(fl_draw_export_routing_page(t, &d, &page, png, NULL, &err), FL_OK);
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    CHECK(cairo_image_surface_get_width(s) == 1000 && cairo_image_surface_get_height(s) == 1400,
          "the PNG is 1000x1400 as asked (%dx%d)", cairo_image_surface_get_width(s),
          cairo_image_surface_get_height(s));
    /* Where each switch is: the fit of the picture's room, twice as large
     * at 192 dpi, below the title. */
    double aw, ah, k = 2;
    fl_draw_page_area(&page, png, NULL, &aw, &ah);
    double band = page.height / k - ah;
    FlDrawView v;
    FlTopology *sw = NULL;
    fl_draw_switches_only(t, &sw, NULL);
    fl_draw_routing_fit(sw, &d, (int)aw, (int)ah, &v);
    int shown = 0;
    for (int i = 0; i < fl_topology_switch_count(sw); i++) {
        double x, y;
        fl_topology_get_position(sw, i, &x, &y);
        fl_draw_view_to_device(&v, x, y, &x, &y);
        shown += colour_near(s, x * k, (y + band) * k, 0.2 * v.scale * k, 0x3584e4, 40) > 20;
    }
    CHECK(shown == 64 && band > 20, "every one of the 64 switches is in the picture (%d), below "
          "a title band of %g", shown, band);
    int title = 0, rows = (int)(band * k);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < 1000; x++)
            title += !near_rgb(pixel(s, x, y), 0xffffff, 40);
    CHECK(title > 2000, "the title is drawn in the band at the top (%d dark pixels)", title);
    cairo_surface_destroy(s);

    /* No title: no band, the same network larger. */
    page.title = NULL;
    double aw2, ah2;
    fl_draw_page_area(&page, png, NULL, &aw2, &ah2);
    CHECK(aw2 == 500 && ah2 == 700, "without a title the picture has the whole page (%gx%g)",
          aw2, ah2);

    /* PDF pages are in points: an A4 page landscape. */
    page.width = 842;
    page.height = 595;
    page.title = "A4";
    CHECK_INT(fl_draw_export_routing_page(t, &d, &page, pdf, NULL, &err), FL_OK);
    CHECK(file_has(pdf, "0 0 842 595"), "the PDF page is 842 x 595 points");
    page.dpi = 0;
    CHECK(fl_draw_export_routing_page(t, &d, &page, png, NULL, &err) == FL_ERANGE,
          "a resolution of 0 is refused: %s", err.message);
    unlink(png);
    unlink(pdf);
    fl_topology_free(sw);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* Presenter mode's marks: lines twice as wide, type larger, and the
 * switches still hit where they are drawn. */
static void test_presenter_marks(void)
{
    FlTopology *t = from_spec("mesh:4x4,hosts=0");
    FlDrawOptions o;
    FlDrawLabelBox boxes[2][16];
    int links[2];
    double height[2];
    fl_draw_options_init(&o);
    fl_draw_view_fit(t, 400, 400, &o.view);
    CHECK(o.view.marks == 1, "a fitted view has the screen's marks");
    for (int i = 0; i < 2; i++) {
        o.view.marks = i ? FL_DRAW_PRESENTER : 1;
        cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 400, 400);
        cairo_t *cr = cairo_create(s);
        int n = fl_draw_routing_labels(cr, t, &o, NULL, boxes[i], 16);
        cairo_destroy(cr);
        cairo_surface_flush(s);
        links[i] = count_colour(s, 0x77767b, 30);
        height[i] = n == 16 ? boxes[i][0].height : 0;
        cairo_surface_destroy(s);
    }
    CHECK(links[1] > 1.6 * links[0], "links are drawn about twice as wide (%d pixels, %d)",
          links[1], links[0]);
    CHECK(height[1] > 1.3 * height[0] && height[0] > 0,
          "switch numbers are larger (%g px tall, %g)", height[1], height[0]);
    double x, y;
    fl_topology_get_position(t, 5, &x, &y);
    fl_draw_view_to_device(&o.view, x, y, &x, &y);
    double half = 0.2 * o.view.scale;
    CHECK(fl_draw_hit_node(t, &o.view, x + 1.2 * half + 3, y) == 5,
          "a larger switch is hit where it is drawn");
    fl_topology_free(t);
}

int main(void)
{
    test_presenter_marks();
    test_export_page();
    test_no_overlap();
    test_numbers_where_they_fit();
    test_datelines();
    test_legend_says_what_is_drawn();
    test_legend_fit_stable();
    return tap_done();
}
