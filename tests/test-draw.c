/* test-draw.c — the shared cairo drawing: view fitting, pixels, hit tests
 * and file export. Needs no display. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "flitlab-draw.h"
#include "flitlab-io.h"
#include "tap.h"
#include "test-draw-pixels.h"

static void device_of(const FlTopology *t, const FlDrawView *v, int node, double *dx,
                      double *dy)
{
    double x, y;
    fl_topology_get_position(t, node, &x, &y);
    fl_draw_view_to_device(v, x, y, dx, dy);
}

/* The link between nodes a and b, or -1. */
static int find_link(const FlTopology *t, int a, int b)
{
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        int x, y;
        fl_topology_link_ends(t, l, &x, NULL, &y, NULL);
        if ((x == a && y == b) || (x == b && y == a))
            return l;
    }
    return -1;
}

/* Colours compare with a tolerance: cairo rounds channels its own way. */
static int near_colour(unsigned got, unsigned want)
{
    for (int shift = 0; shift <= 16; shift += 8) {
        int a = (int)(got >> shift & 0xff), b = (int)(want >> shift & 0xff);
        if (abs(a - b) > 6)
            return 0;
    }
    return 1;
}

static cairo_surface_t *render(const FlTopology *t, const FlDrawOptions *o, int w, int h)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s);
    fl_draw_topology(cr, t, o);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

/* Whether two pictures are the same, pixel for pixel. */
static int same_pixels(cairo_surface_t *a, cairo_surface_t *b)
{
    int w = cairo_image_surface_get_width(a), h = cairo_image_surface_get_height(a);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (pixel(a, x, y) != pixel(b, x, y))
                return 0;
    return 1;
}

static void test_fit(void)
{
    FlTopology *t = from_spec("torus:8x8");
    FlDrawView v;
    fl_draw_view_fit(t, 400, 300, &v);
    int inside = 0;
    for (int n = 0; n < fl_topology_node_count(t); n++) {
        double x, y, dx, dy;
        fl_topology_get_position(t, n, &x, &y);
        fl_draw_view_to_device(&v, x, y, &dx, &dy);
        inside += dx > 10 && dx < 390 && dy > 10 && dy < 290;
    }
    CHECK_INT(inside, fl_topology_node_count(t));
    CHECK(v.scale > 20 && v.scale < 40, "an 8x8 torus fits 300 px at %.1f px per step", v.scale);

    double wx, wy, dx, dy;
    fl_draw_view_to_device(&v, 2.5, -1.25, &dx, &dy);
    fl_draw_view_to_world(&v, dx, dy, &wx, &wy);
    CHECK(fabs(wx - 2.5) < 1e-9 && fabs(wy + 1.25) < 1e-9, "device and world round-trip");

    FlTopology *empty = fl_topology_new();
    fl_draw_view_fit(empty, 200, 100, &v);
    fl_draw_view_to_device(&v, 0, 0, &dx, &dy);
    CHECK(v.scale > 0 && fabs(dx - 100) < 1e-9 && fabs(dy - 50) < 1e-9,
          "an empty network centres the origin");
    fl_topology_free(empty);
    fl_topology_free(t);

    /* Hosts without a place of their own are fanned out beside their
     * switch, apart from each other. */
    FlTopology *fan = fl_topology_new();
    int sw, h1, h2;
    double sx, sy, x1, y1, x2, y2;
    fl_topology_add_node(fan, FL_NODE_SWITCH, 4, &sw, NULL);
    fl_topology_set_position(fan, sw, 2, 3);
    fl_topology_add_node(fan, FL_NODE_HOST, 1, &h1, NULL);
    fl_topology_add_node(fan, FL_NODE_HOST, 1, &h2, NULL);
    fl_topology_connect(fan, h1, 0, sw, -1, NULL, NULL);
    fl_topology_connect(fan, h2, 0, sw, -1, NULL, NULL);
    fl_topology_set_position(fan, h1, 2, 3);
    fl_topology_set_position(fan, h2, 2, 3);
    fl_draw_node_position(fan, sw, &sx, &sy);
    fl_draw_node_position(fan, h1, &x1, &y1);
    fl_draw_node_position(fan, h2, &x2, &y2);
    CHECK(sx == 2 && sy == 3, "a switch is drawn where it is");
    CHECK(hypot(x1 - sx, y1 - sy) > 0.25 && hypot(x1 - sx, y1 - sy) < 0.5,
          "a host is drawn beside its switch (%.2f, %.2f)", x1, y1);
    CHECK(hypot(x2 - x1, y2 - y1) > 0.1, "two hosts are drawn apart");
    fl_topology_free(fan);
}

/* torus:8x8 puts switch (i, j) at layout point (i, j), node id 8 j + i;
 * the checks below read positions back rather than trusting that. */
static void test_pixels(void)
{
    FlTopology *t = from_spec("torus:8x8,hosts=0");
    FlDrawOptions o;
    fl_draw_options_init(&o);
    o.show_labels = 0;
    fl_draw_view_fit(t, 400, 400, &o.view);
    cairo_surface_t *s = render(t, &o, 400, 400);

    int switches_ok = 0;
    for (int n = 0; n < 64; n++) {
        double dx, dy;
        device_of(t, &o.view, n, &dx, &dy);
        switches_ok += near_colour(pixel(s, dx, dy), 0x3584e4);
    }
    CHECK_INT(switches_ok, 64);
    CHECK(near_colour(pixel(s, 1, 1), 0xffffff) && near_colour(pixel(s, 398, 398), 0xffffff),
          "the margin is background");

    /* Halfway between switches 24 and 25: a link. Between four switches:
     * empty. */
    double x24, y24, x25, y25, x31, y31, x28, y28, step = o.view.scale;
    device_of(t, &o.view, 24, &x24, &y24);
    device_of(t, &o.view, 25, &x25, &y25);
    device_of(t, &o.view, 31, &x31, &y31);
    device_of(t, &o.view, 28, &x28, &y28);
    CHECK(fabs(x25 - x24 - step) < 1e-6 && x31 > x28 && y31 == y24, "the torus is laid out on a grid");
    CHECK(near_colour(pixel(s, (x24 + x25) / 2, y24), 0x77767b), "a link between switches (got %06x)",
          pixel(s, (x24 + x25) / 2, y24));
    CHECK(near_colour(pixel(s, x28 + step / 2, y28 + step / 2), 0xffffff),
          "the middle of a grid cell is empty");
    /* The wrap-around link from 24 to 31 is a spur leaving the grid at each
     * end, not a line across it. */
    CHECK(near_colour(pixel(s, x24 - 0.3 * step, y24), 0x9141ac),
          "a wrap-around spur left of switch 24 (got %06x)", pixel(s, x24 - 0.3 * step, y24));
    CHECK(near_colour(pixel(s, x31 + 0.3 * step, y31), 0x9141ac),
          "its matching spur right of switch 31");
    cairo_surface_destroy(s);

    /* Labels: white digits inside a large enough square. */
    o.show_labels = 1;
    s = render(t, &o, 400, 400);
    double x0, y0;
    device_of(t, &o.view, 0, &x0, &y0);
    int white = 0;
    for (int yy = -4; yy <= 4; yy++)
        for (int xx = -4; xx <= 4; xx++)
            white += (pixel(s, x0 + xx, y0 + yy) >> 16) > 0xa0;
    CHECK(white > 3, "switch 0 carries its label (%d light pixels)", white);
    cairo_surface_destroy(s);

    o.dark = 1;
    s = render(t, &o, 400, 400);
    CHECK(near_colour(pixel(s, 1, 1), 0x1e1e1e), "the dark style has a dark background");
    cairo_surface_destroy(s);
    fl_topology_free(t);
}

static void test_hits(void)
{
    FlTopology *t = from_spec("torus:8x8");
    FlDrawView v;
    fl_draw_view_fit(t, 800, 800, &v);
    double dx, dy, ex, ey, step = v.scale;
    int s42 = fl_topology_switch_node(t, 42), s43 = fl_topology_switch_node(t, 43);

    device_of(t, &v, s42, &dx, &dy);
    CHECK_INT(fl_draw_hit_node(t, &v, dx, dy), s42);
    CHECK_INT(fl_draw_hit_node(t, &v, dx + 2, dy - 3), s42);
    device_of(t, &v, s43, &ex, &ey);
    CHECK_INT(fl_draw_hit_node(t, &v, (dx + ex) / 2, (dy + ey) / 2), -1);
    CHECK_INT(fl_draw_hit_link(t, &v, (dx + ex) / 2, (dy + ey) / 2), find_link(t, s42, s43));
    CHECK_INT(fl_draw_hit_link(t, &v, dx + step / 2, dy + step / 2), -1);
    CHECK_INT(fl_draw_hit_node(t, &v, dx + step / 2, dy + step / 2), -1);

    /* Hosts are hit where they are drawn. */
    int host = fl_topology_host_node(t, 9);
    device_of(t, &v, host, &dx, &dy);
    CHECK_INT(fl_draw_hit_node(t, &v, dx, dy), host);

    /* Wrap-around links are hit on their spurs, not across the grid: the
     * spur above switch 3 belongs to its link with switch 59. */
    int s3 = fl_topology_switch_node(t, 3), s59 = fl_topology_switch_node(t, 59);
    device_of(t, &v, s3, &dx, &dy);
    CHECK_INT(fl_draw_hit_link(t, &v, dx, dy - 0.3 * step), find_link(t, s3, s59));
    device_of(t, &v, fl_topology_switch_node(t, 27), &dx, &dy);
    CHECK_INT(fl_draw_hit_link(t, &v, dx, dy + 0.5 * step),
              find_link(t, fl_topology_switch_node(t, 27), fl_topology_switch_node(t, 35)));
    fl_topology_free(t);

    /* A long link that is no wrap-around (0 to 3 on a line of 8) is an arc
     * bulging away from the line: hit at its peak, not on the line. */
    FlTopology *line = fl_topology_new();
    for (int i = 0; i < 8; i++) {
        int id;
        fl_topology_add_node(line, FL_NODE_SWITCH, 4, &id, NULL);
        fl_topology_set_position(line, id, i, 0);
        if (i)
            fl_topology_connect(line, i - 1, -1, i, -1, NULL, NULL);
    }
    int arc;
    fl_topology_connect(line, 0, -1, 3, -1, &arc, NULL);
    fl_draw_view_fit(line, 800, 400, &v);
    int hit_peak = -1;
    for (double y = -2; y <= 2; y += 0.02) {
        fl_draw_view_to_device(&v, 1.5, y, &dx, &dy);
        if (fabs(y) > 0.2 && fl_draw_hit_link(line, &v, dx, dy) == arc)
            hit_peak = 1;
    }
    CHECK(hit_peak == 1, "the arc is hit away from the line");
    fl_draw_view_to_device(&v, 1.5, 0, &dx, &dy);
    CHECK_INT(fl_draw_hit_link(line, &v, dx, dy), find_link(line, 1, 2));
    fl_topology_free(line);

    /* A 3D torus is drawn as layers side by side; a link to the next layer
     * is a spur up and right, one to the previous layer (the wrap-around
     * from the last layer included) a spur down and left. */
    FlTopology *cube = from_spec("torus:4x4x4");
    fl_draw_view_fit(cube, 1200, 400, &v);
    int s0 = fl_topology_switch_node(cube, 0), s16 = fl_topology_switch_node(cube, 16);
    int s48 = fl_topology_switch_node(cube, 48);
    double d = 0.2 * v.scale;
    device_of(cube, &v, s0, &dx, &dy);
    CHECK_INT(fl_draw_hit_link(cube, &v, dx + d, dy - d), find_link(cube, s0, s16));
    CHECK_INT(fl_draw_hit_link(cube, &v, dx - d, dy + d), find_link(cube, s0, s48));
    fl_topology_free(cube);
}

/* Switches are numbered by label, and whether a link wraps is the
 * topology's to say, not the positions'. */
static void test_labels_and_wraps(void)
{
    FlDrawOptions o;
    fl_draw_options_init(&o);

    /* Two switches drawn with their positions and labels swapped give the
     * same picture: the number shown is the label, not the id. */
    FlTopology *a = fl_topology_new();
    fl_topology_add_node(a, FL_NODE_SWITCH, 2, NULL, NULL);
    fl_topology_add_node(a, FL_NODE_SWITCH, 2, NULL, NULL);
    fl_topology_connect(a, 0, 0, 1, 0, NULL, NULL);
    fl_topology_set_position(a, 1, 1, 0);
    FlTopology *b = fl_topology_copy(a);
    fl_topology_set_position(b, 0, 1, 0);
    fl_topology_set_position(b, 1, 0, 0);
    fl_topology_set_node_label(b, 0, 2, NULL);
    fl_topology_set_node_label(b, 1, 0, NULL);
    fl_topology_set_node_label(b, 0, 1, NULL);
    fl_draw_view_fit(a, 200, 100, &o.view);
    cairo_surface_t *sa = render(a, &o, 200, 100), *sb = render(b, &o, 200, 100);
    CHECK(same_pixels(sa, sb), "switches carry their labels, not their ids");
    cairo_surface_destroy(sb);
    fl_topology_set_node_label(a, 0, 7, NULL);
    sb = render(a, &o, 200, 100);
    CHECK(!same_pixels(sa, sb), "a new label changes the picture");
    cairo_surface_destroy(sa);
    cairo_surface_destroy(sb);
    fl_topology_free(a);
    fl_topology_free(b);

    /* The hand-drawn example has switches on grid points two steps apart
     * (0-1 and 3-4): ordinary links, drawn straight between them. */
    const char *src = getenv("FLITLAB_SOURCE_DIR");
    char path[512];
    snprintf(path, sizeof path, "%s/data/examples/hand-drawn.json", src ? src : "..");
    FlTopology *t = NULL;
    FlError err;
    int rc = fl_io_read_file(path, &t, &err);
    CHECK(rc == FL_OK, "the hand-drawn example reads: %s", rc ? err.message : "ok");
    if (rc)
        return;
    int wraps = 0;
    for (int l = 0; l < fl_topology_link_count(t); l++)
        wraps += fl_topology_link_wraps(t, l);
    CHECK_INT(wraps, 0);
    FlDrawView v;
    fl_draw_view_fit(t, 800, 600, &v);
    static const int pairs[2][2] = { { 0, 1 }, { 3, 4 } };
    for (int i = 0; i < 2; i++) {
        double ax, ay, bx, by;
        int p = pairs[i][0], q = pairs[i][1];
        device_of(t, &v, p, &ax, &ay);
        device_of(t, &v, q, &bx, &by);
        CHECK(fl_draw_hit_link(t, &v, (ax + bx) / 2, (ay + by) / 2) == find_link(t, p, q),
              "link %d-%d is drawn straight", p, q);
    }
    o.show_labels = 0;
    fl_draw_view_fit(t, 800, 600, &o.view);
    cairo_surface_t *s = render(t, &o, 800, 600);
    double x0, y0, x1, y1;
    device_of(t, &o.view, 0, &x0, &y0);
    device_of(t, &o.view, 1, &x1, &y1);
    CHECK(near_colour(pixel(s, (x0 + x1) / 2, y0), 0x77767b),
          "in the colour of an ordinary link (got %06x)", pixel(s, (x0 + x1) / 2, y0));
    cairo_surface_destroy(s);
    fl_topology_free(t);

    /* An edited torus is custom, but its wrap-around links keep their
     * spurs: deleting switch 9 changes nothing near switches 24 and 31. */
    t = from_spec("torus:8x8,hosts=0");
    CHECK_INT(fl_topology_remove_node(t, 9, NULL), FL_OK);
    fl_draw_view_fit(t, 400, 400, &o.view);
    s = render(t, &o, 400, 400);
    int s24 = fl_topology_find_label(t, 24), s31 = fl_topology_find_label(t, 31);
    double x24, y24, x31, y31, step = o.view.scale;
    device_of(t, &o.view, s24, &x24, &y24);
    device_of(t, &o.view, s31, &x31, &y31);
    CHECK(near_colour(pixel(s, x24 - 0.3 * step, y24), 0x9141ac),
          "the edited torus keeps its wrap-around spurs (got %06x)",
          pixel(s, x24 - 0.3 * step, y24));
    CHECK(near_colour(pixel(s, x31 + 0.3 * step, y31), 0x9141ac), "at both ends");
    cairo_surface_destroy(s);
    fl_topology_free(t);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static int read_head(const char *path, unsigned char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t got = fread(buf, 1, n, f);
    fclose(f);
    return got == n;
}

static int file_contains(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[4096];
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[got] = 0;
    return strstr(buf, needle) != NULL;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void test_export(void)
{
    char dir[] = "/tmp/flitlab-test-draw-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0, "cannot create a temporary directory");
        return;
    }
    FlTopology *t = from_spec("torus:4x4");
    char path[256];
    unsigned char head[24];
    FlError err;

    snprintf(path, sizeof path, "%s/net.png", dir);
    CHECK_INT(fl_draw_export(t, path, NULL, 320, 200, &err), FL_OK);
    CHECK(read_head(path, head, 24) && memcmp(head, "\x89PNG\r\n\x1a\n", 8) == 0,
          "a PNG signature");
    unsigned w = (unsigned)head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19];
    unsigned h = (unsigned)head[20] << 24 | head[21] << 16 | head[22] << 8 | head[23];
    CHECK(w == 320 && h == 200, "the PNG is 320x200 (got %ux%u)", w, h);

    snprintf(path, sizeof path, "%s/net.svg", dir);
    CHECK_INT(fl_draw_export(t, path, NULL, 400, 300, &err), FL_OK);
    CHECK(file_contains(path, "<?xml") && file_contains(path, "<svg"), "an SVG document");

    snprintf(path, sizeof path, "%s/net.PDF", dir);
    CHECK_INT(fl_draw_export(t, path, NULL, 400, 300, &err), FL_OK);
    CHECK(read_head(path, head, 5) && memcmp(head, "%PDF-", 5) == 0, "a PDF document");

    /* An explicit format wins over the name. */
    snprintf(path, sizeof path, "%s/picture", dir);
    CHECK_INT(fl_draw_export(t, path, "svg", 100, 100, &err), FL_OK);
    CHECK(file_contains(path, "<svg"), "--format svg without an extension");
    CHECK_INT(count_entries(dir), 4);

    snprintf(path, sizeof path, "%s/net.bmp", dir);
    fl_error_clear(&err);
    CHECK_INT(fl_draw_export(t, path, NULL, 100, 100, &err), FL_EINVAL);
    CHECK(strstr(err.message, "bmp") != NULL, "the message names the format: %s", err.message);
    CHECK_INT(file_size(path), -1);
    CHECK_INT(fl_draw_export(t, path, "gif", 100, 100, &err), FL_EINVAL);
    snprintf(path, sizeof path, "%s/net", dir);
    CHECK_INT(fl_draw_export(t, path, NULL, 100, 100, &err), FL_EINVAL);
    CHECK_INT(fl_draw_export(t, path, "png", 0, 100, &err), FL_ERANGE);

    /* The check a caller makes before drawing agrees with the export. */
    CHECK_INT(fl_draw_check_format("out/net.Svg", NULL, &err), FL_OK);
    CHECK_INT(fl_draw_check_format("net.bmp", "pdf", &err), FL_OK);
    fl_error_clear(&err);
    CHECK_INT(fl_draw_check_format("net.bmp", NULL, &err), FL_EINVAL);
    CHECK(strstr(err.message, "'bmp'") != NULL, "the check names the format: %s", err.message);
    CHECK_INT(fl_draw_check_format("out.d/net", NULL, &err), FL_EINVAL);
    CHECK_INT(fl_draw_check_format("", "png", &err), FL_EINVAL);

    snprintf(path, sizeof path, "%s/missing/net.png", dir);
    fl_error_clear(&err);
    CHECK_INT(fl_draw_export(t, path, NULL, 100, 100, &err), FL_EIO);
    CHECK(strstr(err.message, "missing/net.png") != NULL, "the message names the file: %s",
          err.message);
    CHECK_INT(count_entries(dir), 4);

    const char *names[] = { "net.png", "net.svg", "net.PDF", "picture" };
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    fl_topology_free(t);
}

static double elapsed_ms(const struct timespec *a, const struct timespec *b)
{
    return (b->tv_sec - a->tv_sec) * 1e3 + (b->tv_nsec - a->tv_nsec) / 1e6;
}

/* A 64x64 torus with a host per switch: 8192 nodes, 12288 links. No
 * timing assertion (the machine may be busy); the times go to the TAP log. */
static void test_large(void)
{
    FlTopology *t = from_spec("torus:64x64");
    CHECK_INT(fl_topology_node_count(t), 8192);
    CHECK_INT(fl_topology_link_count(t), 12288);
    const int sides[] = { 1024, 2048 };
    for (int i = 0; i < 2; i++) {
        FlDrawOptions o;
        fl_draw_options_init(&o);
        fl_draw_view_fit(t, sides[i], sides[i], &o.view);
        o.selected_node = 100;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        cairo_surface_t *s = render(t, &o, sides[i], sides[i]);
        clock_gettime(CLOCK_MONOTONIC, &b);
        CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, "drew into %dx%d", sides[i],
              sides[i]);
        printf("# drew 64x64 torus in %.1f ms (%dx%d pixels, %.1f px per grid step)\n",
               elapsed_ms(&a, &b), sides[i], sides[i], o.view.scale);

        /* Zoomed in on a corner, culling keeps the cost down. */
        o.view.scale *= 8;
        clock_gettime(CLOCK_MONOTONIC, &a);
        cairo_surface_destroy(s);
        s = render(t, &o, sides[i], sides[i]);
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("# drew a corner of the 64x64 torus zoomed 8x in %.1f ms\n", elapsed_ms(&a, &b));
        cairo_surface_destroy(s);
    }
    fl_topology_free(t);
}

/* ------------------------------------------------------------------------ */
/* Routing overlays                                                         */
/* ------------------------------------------------------------------------ */

/* The overlay colours of the light style (draw-routing.c). */
#define TURN_RED 0xe01b24
#define PPT_DARK 0x241f31
#define CYCLE_RED 0xe01b24
#define CHOSEN_ORANGE 0xe66100
#define UP_BLUE 0x1a5fb4
#define DOWN_ORANGE 0xc64600
#define LINK_GREY 0x77767b

static FlRouting *route(const FlTopology *t, const char *name, FlRoutingReport *rep)
{
    FlRouting *r = NULL;
    FlError err;
    if (fl_routing_new(t, name, NULL, &r, &err) != FL_OK
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

/* Pixels of colour c in the ring around switch sw where its turn arcs
 * lie: beyond its square, less than half a grid step from its centre. */
static int ring_pixels(cairo_surface_t *s, const FlTopology *t, const FlDrawView *v, int sw,
                       unsigned c)
{
    double x, y, step = v->scale;
    int n = 0;
    device_of(t, v, sw, &x, &y);
    for (double dy = -0.45 * step; dy <= 0.45 * step; dy += 1)
        for (double dx = -0.45 * step; dx <= 0.45 * step; dx += 1) {
            double r = hypot(dx, dy);
            if (r > 0.22 * step && r < 0.45 * step)
                n += near_colour(pixel(s, x + dx, y + dy), c);
        }
    return n;
}

static int prohibited_at(const FlRouting *r, const FlTopology *t, int sw)
{
    int n = 0;
    for (int a = 0; a < fl_topology_node_ports(t, sw); a++)
        for (int b = 0; b < fl_topology_node_ports(t, sw); b++)
            n += a != b && fl_routing_turn_prohibited(r, sw, a, b) > 0;
    return n;
}

/* up* / down* on the 8x8 torus (all of its prohibited turns come in PPT
 * pairs) and L-turn (mostly single ones): arcs are painted around exactly
 * the switches that prohibit turns, and every drawn turn is found by the
 * hit test at some pixel of its arc. */
static void test_turn_map(void)
{
    const char *names[] = { "updown", "lturn-alpha" };
    FlTopology *t = from_spec("torus:8x8,hosts=0");
    for (int k = 0; k < 2; k++) {
        FlRoutingReport rep;
        FlRouting *r = route(t, names[k], &rep);
        FlDrawOptions o;
        FlDrawRouting d;
        fl_draw_options_init(&o);
        fl_draw_view_fit(t, 800, 800, &o.view);
        fl_draw_routing_init(&d);
        d.routing = r;
        d.report = &rep;
        d.overlays = FL_DRAW_OVERLAY_TURNS;
        d.legend = 0;
        cairo_surface_t *s = render_routing(t, &o, &d, 800, 800);

        int with = 0, without = 0, marked = 0, bare = 0, turns = 0, found = 0;
        for (int i = 0; i < fl_topology_switch_count(t); i++) {
            int sw = fl_topology_switch_node(t, i);
            int px = ring_pixels(s, t, &o.view, sw, TURN_RED) + ring_pixels(s, t, &o.view, sw, PPT_DARK);
            if (prohibited_at(r, t, sw)) {
                with++;
                marked += px > 20;
            } else {
                without++;
                bare += px == 0;
            }
        }
        CHECK(with > 0 && without > 0, "%s: some switches prohibit turns (%d), some none (%d)",
              names[k], with, without);
        CHECK(marked == with, "%s: arcs at all %d switches with prohibited turns (%d)", names[k],
              with, marked);
        CHECK(bare == without, "%s: no arc at the %d switches without (%d)", names[k], without,
              bare);

        /* Every prohibited turn is the hit at some pixel of the arcs. */
        FlTurn *all;
        int n;
        fl_routing_prohibited_turns(r, &all, &n, NULL);
        char *seen = calloc((size_t)n + 1, 1);
        for (int y = 0; y < 800; y++)
            for (int x = 0; x < 800; x++) {
                unsigned c = pixel(s, x + 0.5, y + 0.5);
                FlTurn hit;
                if (!near_colour(c, TURN_RED) && !near_colour(c, PPT_DARK))
                    continue;
                if (fl_draw_hit_turn(t, &o.view, &d, x + 0.5, y + 0.5, &hit) < 0)
                    continue;
                for (int j = 0; j < n; j++)
                    seen[j] |= memcmp(&all[j], &hit, sizeof hit) == 0;
            }
        for (int j = 0; j < n; j++)
            found += seen[j];
        turns = n;
        CHECK(turns > 0 && found == turns, "%s: the hit test finds all %d prohibited turns on "
              "their arcs (%d)", names[k], turns, found);
        free(seen);
        free(all);
        cairo_surface_destroy(s);
        fl_routing_report_clear(&rep);
        fl_routing_free(r);
    }

    /* Beside a switch, between two of its links: a turn between those
     * two; on the switch or far from any, none. */
    FlDrawView v;
    FlTurn turn;
    double x, y;
    fl_draw_view_fit(t, 800, 800, &v);
    int sw = fl_topology_switch_node(t, 27);
    device_of(t, &v, sw, &x, &y);
    double d45 = 0.3 * v.scale / sqrt(2.0);
    CHECK_INT(fl_draw_hit_turn(t, &v, NULL, x + d45, y + d45, &turn), sw);
    int right = -1, below = -1;
    for (int p = 0; p < fl_topology_node_ports(t, sw); p++) {
        int peer = fl_topology_port_peer(t, sw, p, NULL);
        double px, py;
        if (peer < 0 || fl_topology_node_kind(t, peer) != FL_NODE_SWITCH)
            continue;
        fl_topology_get_position(t, peer, &px, &py);
        right = px > x / v.scale - v.tx / v.scale + 0.5 && fabs(py - (y - v.ty) / v.scale) < 0.5 ? p : right;
        below = py > (y - v.ty) / v.scale + 0.5 && fabs(px - (x - v.tx) / v.scale) < 0.5 ? p : below;
    }
    CHECK((turn.in_port == right && turn.out_port == below)
              || (turn.in_port == below && turn.out_port == right),
          "the turn down and to the right is between the right and lower links (%d > %d)",
          turn.in_port, turn.out_port);
    CHECK_INT(fl_draw_hit_turn(t, &v, NULL, x, y, &turn), -1);
    CHECK_INT(fl_draw_hit_turn(t, &v, NULL, x + 0.5 * v.scale, y + 0.5 * v.scale, &turn), -1);
    fl_topology_free(t);
}

/* The midpoint of link l as drawn straight; 0 for a wrap-around link of
 * a grid, drawn as two spurs, whose midpoint is off the grid. */
static int link_middle(const FlTopology *t, const FlDrawView *v, int l, double *x, double *y)
{
    int a, b;
    double ax, ay, bx, by;
    fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
    device_of(t, v, a, &ax, &ay);
    device_of(t, v, b, &bx, &by);
    *x = (ax + bx) / 2, *y = (ay + by) / 2;
    return hypot(bx - ax, by - ay) < 1.5 * v->scale;
}

/* shortest on ring:8 deadlocks: its cycle is drawn red along the ring;
 * without the overlay the links are grey. */
static void test_cycle(void)
{
    FlTopology *t = from_spec("ring:8,hosts=0");
    FlRoutingReport rep;
    FlRouting *r = route(t, "shortest", &rep);
    CHECK(!rep.deadlock_free && rep.cycle_len >= 8, "shortest on ring:8 has a cycle of %d",
          rep.cycle_len);
    FlDrawOptions o;
    FlDrawRouting d;
    fl_draw_options_init(&o);
    fl_draw_view_fit(t, 600, 600, &o.view);
    fl_draw_routing_init(&d);
    d.routing = r;
    d.report = &rep;
    d.legend = 0;
    cairo_surface_t *plain = render_routing(t, &o, &d, 600, 600);
    d.overlays = FL_DRAW_OVERLAY_CYCLE;
    cairo_surface_t *s = render_routing(t, &o, &d, 600, 600);
    int red = 0, grey = 0, links = fl_topology_link_count(t);
    for (int l = 0; l < links; l++) {
        double x, y;
        link_middle(t, &o.view, l, &x, &y);
        /* A little to the side of the middle: the arrow head sits there. */
        double ax, ay, bx, by;
        int a, b;
        fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
        device_of(t, &o.view, a, &ax, &ay);
        device_of(t, &o.view, b, &bx, &by);
        x += (bx - ax) * 0.2, y += (by - ay) * 0.2;
        red += near_colour(pixel(s, x, y), CYCLE_RED);
        grey += near_colour(pixel(plain, x, y), LINK_GREY);
    }
    CHECK_INT(red, links);
    CHECK_INT(grey, links);
    cairo_surface_destroy(plain);
    cairo_surface_destroy(s);
    fl_routing_report_clear(&rep);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* Channel directions on the torus under up* / down*: every link has an
 * up and a down channel, so both colours appear beside every link. */
static void test_directions(void)
{
    FlTopology *t = from_spec("torus:8x8,hosts=0");
    FlRouting *r = route(t, "updown", NULL);
    FlDrawOptions o;
    FlDrawRouting d;
    fl_draw_options_init(&o);
    fl_draw_view_fit(t, 800, 800, &o.view);
    fl_draw_routing_init(&d);
    d.routing = r;
    d.overlays = FL_DRAW_OVERLAY_DIRECTIONS;
    d.legend = 0;
    cairo_surface_t *s = render_routing(t, &o, &d, 800, 800);
    int both = 0, plain_links = 0;
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        double x, y, reach = 0.3 * o.view.scale;
        int up = 0, down = 0;
        if (!link_middle(t, &o.view, l, &x, &y))
            continue; /* wrap-around links are labelled on their spurs */
        plain_links++;
        for (double dy = -reach; dy <= reach; dy += 1)
            for (double dx = -reach; dx <= reach; dx += 1) {
                up += near_colour(pixel(s, x + dx, y + dy), UP_BLUE);
                down += near_colour(pixel(s, x + dx, y + dy), DOWN_ORANGE);
            }
        both += up > 5 && down > 5;
    }
    CHECK(plain_links > 50 && both == plain_links, "up and down arrows beside %d of %d links",
          both, plain_links);
    cairo_surface_destroy(s);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* The route from switch 9 to 54 on the torus: the chosen path is drawn
 * bold orange, a link far from every legal path stays grey. */
static void test_paths(void)
{
    FlTopology *t = from_spec("torus:8x8,hosts=0");
    FlRouting *r = route(t, "lturn-alpha", NULL);
    int *paths, *offsets, npaths, truncated, *chosen, nchosen;
    FlError err;
    CHECK_INT(fl_routing_all_paths(r, 9, 54, 64, &paths, &offsets, &npaths, &truncated, &err),
              FL_OK);
    CHECK_INT(fl_routing_path(r, 9, 54, FL_SELECT_LOWEST_PORT, NULL, &chosen, &nchosen, &err),
              FL_OK);
    FlDrawOptions o;
    FlDrawRouting d;
    fl_draw_options_init(&o);
    fl_draw_view_fit(t, 800, 800, &o.view);
    fl_draw_routing_init(&d);
    d.routing = r;
    d.overlays = FL_DRAW_OVERLAY_PATHS;
    d.paths = paths, d.path_offsets = offsets, d.npaths = npaths;
    d.chosen = chosen, d.nchosen = nchosen;
    d.src = 9, d.dst = 54;
    d.legend = 0;
    cairo_surface_t *s = render_routing(t, &o, &d, 800, 800);
    int orange = 0, straight = 0;
    for (int i = 0; i < nchosen; i++) {
        double x, y;
        if (!link_middle(t, &o.view, chosen[i] >> 1, &x, &y))
            continue;
        straight++;
        orange += near_colour(pixel(s, x, y), CHOSEN_ORANGE);
    }
    CHECK(straight > 0 && orange == straight, "the chosen route is orange on %d of %d links",
          orange, straight);
    double x, y;
    link_middle(t, &o.view, find_link(t, 35, 36), &x, &y);
    CHECK(near_colour(pixel(s, x, y), LINK_GREY), "a link off the paths stays grey (got %06x)",
          pixel(s, x, y));
    cairo_surface_destroy(s);
    free(paths);
    free(offsets);
    free(chosen);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* H/V graph: each switch at (h + 1/2, v * step), hosts left out, ids kept;
 * up* / down*'s derived coordinates are a preorder of its tree. */
static void test_hv_layout(void)
{
    FlTopology *t = from_spec("irregular:16,ports=4,hosts=2,seed=3");
    FlRouting *r = route(t, "lturn-alpha", NULL);
    FlTopology *hv = NULL;
    FlError err;
    CHECK_INT(fl_draw_hv_layout(t, r, &hv, &err), FL_OK);
    CHECK_INT(fl_topology_node_count(hv), fl_topology_switch_count(t));
    CHECK_INT(fl_topology_link_count(hv), fl_topology_switch_link_count(t));
    int placed = 0, ends = 0;
    double vstep = 0;
    for (int i = 0; i < fl_topology_switch_count(t); i++) {
        int sw = fl_topology_switch_node(t, i), h, v;
        double x, y;
        fl_routing_hv_coords(r, sw, &h, &v);
        fl_topology_get_position(hv, sw, &x, &y);
        if (v > 0 && vstep == 0)
            vstep = y / v;
        placed += x == h + 0.5 && fabs(y - v * vstep) < 1e-9;
    }
    CHECK_INT(placed, fl_topology_switch_count(t));
    CHECK(vstep >= 1.5, "levels %.2f apart", vstep);
    for (int l = 0; l < fl_topology_link_count(hv); l++) {
        int e[4], f[4];
        fl_topology_link_ends(hv, l, &e[0], &e[1], &e[2], &e[3]);
        fl_topology_link_ends(t, l, &f[0], &f[1], &f[2], &f[3]);
        ends += memcmp(e, f, sizeof e) == 0;
    }
    CHECK_INT(ends, fl_topology_link_count(hv));
    fl_topology_free(hv);
    fl_routing_free(r);

    r = route(t, "updown", NULL);
    CHECK_INT(fl_draw_hv_layout(t, r, &hv, &err), FL_OK);
    int ordered = 0, root = fl_routing_root(r);
    double rx, ry;
    fl_topology_get_position(hv, root, &rx, &ry);
    for (int i = 0; i < fl_topology_switch_count(t); i++) {
        int sw = fl_topology_switch_node(t, i), p = fl_routing_tree_parent(r, sw);
        double x, y, px, py;
        fl_topology_get_position(hv, sw, &x, &y);
        if (p < 0) {
            ordered += sw == root;
            continue;
        }
        fl_topology_get_position(hv, p, &px, &py);
        ordered += px < x && py < y;
    }
    CHECK(rx == 0.5 && ry == 0, "the root is at (0, 0)");
    CHECK_INT(ordered, fl_topology_switch_count(t));
    fl_topology_free(hv);
    fl_routing_free(r);

    r = route(t, "shortest", NULL);
    fl_error_clear(&err);
    CHECK_INT(fl_draw_hv_layout(t, r, &hv, &err), FL_EUNSUPPORTED);
    CHECK(strstr(err.message, "shortest") != NULL, "the message names the routing: %s",
          err.message);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* The switches alone keep their ids; a network whose hosts come first
 * cannot lose them without renumbering, and says so. Overlays need a
 * routing of the network drawn: another network's draws as nothing. */
static void test_switches_only(void)
{
    FlTopology *t = from_spec("torus:4x4");
    FlTopology *sw = NULL;
    FlError err;
    CHECK_INT(fl_draw_switches_only(t, &sw, &err), FL_OK);
    CHECK_INT(fl_topology_node_count(sw), 16);
    CHECK_INT(fl_topology_link_count(sw), fl_topology_switch_link_count(t));
    double x1, y1, x2, y2;
    fl_topology_get_position(t, 5, &x1, &y1);
    fl_topology_get_position(sw, 5, &x2, &y2);
    CHECK(x1 == x2 && y1 == y2, "switch 5 keeps its place");

    /* An edited network's switches keep their labels in the copy (and in
     * the H/V layout, built on it), so routing pictures number them as the
     * network does. */
    FlTopology *edited = from_spec("mesh:4x4");
    fl_topology_remove_node(edited, fl_topology_host_node(edited, 5), NULL);
    fl_topology_remove_node(edited, 5, NULL);
    FlTopology *copy = NULL;
    CHECK_INT(fl_draw_switches_only(edited, &copy, &err), FL_OK);
    if (copy) {
        int same = fl_topology_node_count(copy) == 15;
        for (int n = 0; same && n < 15; n++)
            same = fl_topology_node_label(copy, n) == fl_topology_node_label(edited, n);
        CHECK(same && fl_topology_node_label(copy, 5) == 6,
              "the switches-only copy keeps the labels");
        CHECK_INT(fl_topology_next_label(copy), fl_topology_next_label(edited));
        FlRouting *er = route(edited, "updown", NULL);
        FlTopology *hv = NULL;
        CHECK_INT(fl_draw_hv_layout(edited, er, &hv, &err), FL_OK);
        CHECK(hv && fl_topology_node_label(hv, 5) == 6, "so does the H/V layout");
        fl_topology_free(hv);
        fl_routing_free(er);
    }
    fl_topology_free(copy);
    fl_topology_free(edited);

    /* Drawn with a routing of the 4x4 torus or not at all, a picture of
     * another network is the plain network. */
    FlTopology *other = from_spec("mesh:4x4,hosts=0");
    FlRouting *r = route(t, "updown", NULL);
    FlDrawOptions o;
    FlDrawRouting d;
    fl_draw_options_init(&o);
    fl_draw_view_fit(other, 300, 300, &o.view);
    fl_draw_routing_init(&d);
    d.routing = r;
    d.overlays = FL_DRAW_OVERLAY_TURNS | FL_DRAW_OVERLAY_DIRECTIONS;
    cairo_surface_t *a = render_routing(other, &o, &d, 300, 300);
    cairo_surface_t *b = render(other, &o, 300, 300);
    int differ = 0;
    for (int y = 0; y < 300; y++)
        for (int x = 0; x < 300; x++)
            differ += pixel(a, x, y) != pixel(b, x, y);
    CHECK_INT(differ, 0);
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    fl_routing_free(r);
    fl_topology_free(other);
    fl_topology_free(sw);

    FlTopology *mixed = fl_topology_new();
    int h, s1, s2;
    fl_topology_add_node(mixed, FL_NODE_HOST, 1, &h, NULL);
    fl_topology_add_node(mixed, FL_NODE_SWITCH, 4, &s1, NULL);
    fl_topology_add_node(mixed, FL_NODE_SWITCH, 4, &s2, NULL);
    fl_topology_connect(mixed, h, 0, s1, -1, NULL, NULL);
    fl_topology_connect(mixed, s1, -1, s2, -1, NULL, NULL);
    sw = NULL;
    fl_error_clear(&err);
    CHECK_INT(fl_draw_switches_only(mixed, &sw, &err), FL_EUNSUPPORTED);
    CHECK(sw == NULL && err.message[0], "refused: %s", err.message);
    fl_topology_free(mixed);
    fl_topology_free(t);
}

/* Every overlay, alone and together, exports as PNG, SVG and PDF; the
 * legend keeps clear of the switches when it is fitted beside them. */
static void test_routing_export(void)
{
    char dir[] = "/tmp/flitlab-test-draw-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0, "cannot create a temporary directory");
        return;
    }
    FlTopology *t = from_spec("torus:8x8");
    FlRoutingReport rep;
    FlRouting *r = route(t, "lturn-alpha", &rep);
    int *paths, *offsets, npaths, truncated, *chosen, nchosen;
    fl_routing_all_paths(r, 9, 54, 64, &paths, &offsets, &npaths, &truncated, NULL);
    fl_routing_path(r, 9, 54, FL_SELECT_LOWEST_PORT, NULL, &chosen, &nchosen, NULL);
    const char *formats[] = { "png", "svg", "pdf" };
    const char *magic[] = { "\x89PNG", "<?xml", "%PDF-" };
    int written = 0, files = 0;
    for (unsigned ov = 1; ov <= 32; ov <<= 1) {
        for (int f = 0; f < 3; f++) {
            FlDrawRouting d;
            char path[256];
            unsigned char head[8] = { 0 };
            FlError err;
            fl_draw_routing_init(&d);
            d.routing = r;
            d.report = &rep;
            d.overlays = ov == 32 ? 31 : ov; /* each alone, then all */
            d.paths = paths, d.path_offsets = offsets, d.npaths = npaths;
            d.chosen = chosen, d.nchosen = nchosen;
            d.src = 9, d.dst = 54;
            snprintf(path, sizeof path, "%s/overlay-%u.%s", dir, ov, formats[f]);
            files++;
            if (fl_draw_export_routing(t, &d, path, NULL, 600, 450, &err) == FL_OK
                && read_head(path, head, strlen(magic[f]))
                && memcmp(head, magic[f], strlen(magic[f])) == 0)
                written++;
            else
                printf("# %s: %s\n", path, err.message);
            unlink(path);
        }
    }
    CHECK_INT(written, files);

    FlDrawRouting d;
    FlError err;
    char path[256];
    fl_draw_routing_init(&d);
    d.routing = r;
    d.report = &rep;
    d.overlays = FL_DRAW_OVERLAY_TURNS;
    snprintf(path, sizeof path, "%s/overlay.gif", dir);
    CHECK_INT(fl_draw_export_routing(t, &d, path, NULL, 600, 450, &err), FL_EINVAL);
    CHECK_INT(file_size(path), -1);
    CHECK_INT(count_entries(dir), 0);

    /* Fitted beside its legend, no switch is hidden under it. */
    FlTopology *sw;
    fl_draw_switches_only(t, &sw, NULL);
    FlDrawOptions o;
    fl_draw_options_init(&o);
    fl_draw_routing_fit(sw, &d, 600, 450, &o.view);
    cairo_surface_t *s = render_routing(sw, &o, &d, 600, 450);
    int blue = 0;
    for (int n = 0; n < 64; n++) {
        double x, y;
        device_of(sw, &o.view, n, &x, &y);
        /* Above the label, inside the square. */
        blue += near_colour(pixel(s, x, y - 0.14 * o.view.scale), 0x3584e4);
    }
    CHECK_INT(blue, 64);
    /* ... and the legend is there, in the bottom-left corner. */
    int ink = 0;
    for (int y = 380; y < 440; y++)
        for (int x = 15; x < 120; x++)
            ink += !near_colour(pixel(s, x, y), 0xffffff);
    CHECK(ink > 200, "the legend is drawn (%d dark pixels)", ink);
    cairo_surface_destroy(s);
    fl_topology_free(sw);

    rmdir(dir);
    free(paths);
    free(offsets);
    free(chosen);
    fl_routing_report_clear(&rep);
    fl_routing_free(r);
    fl_topology_free(t);
}

int main(void)
{
    test_fit();
    test_pixels();
    test_hits();
    test_labels_and_wraps();
    test_export();
    test_large();
    test_turn_map();
    test_cycle();
    test_directions();
    test_paths();
    test_hv_layout();
    test_switches_only();
    test_routing_export();
    return tap_done();
}
