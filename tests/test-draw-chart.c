/* test-draw-chart.c — interval charts drawn with cairo: each bar lands in
 * its row's band at its times, inside the plot area, send bars above
 * receive bars; the time axis has nice ticks from zero over the bars and
 * the marker; a fixed range clips; rows are hit where they are drawn; the
 * palette repeats; an empty chart draws; a chart exports as PNG, SVG and
 * PDF. Needs no display. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flitlab-draw.h"
#include "tap.h"
#include "test-draw-pixels.h"

#define W 640
#define H 360

static cairo_surface_t *draw(const FlDrawChart *c)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    fl_draw_chart(cr, c, W, H);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static const char *const labels[] = { "source 14", "node 3", "node 27", "node 8" };

/* Paper 001's timing: the source sends three messages t_hold = 20 apart;
 * each is received t_end = 55 after it is sent. */
static const FlDrawBar bars[] = {
    { 0, 0, 20, FL_DRAW_BAR_SEND, -1, "3" },
    { 0, 20, 40, FL_DRAW_BAR_SEND, -1, "27" },
    { 0, 40, 60, FL_DRAW_BAR_SEND, -1, "8" },
    { 1, 20, 55, FL_DRAW_BAR_RECEIVE, -1, NULL },
    { 2, 40, 75, FL_DRAW_BAR_RECEIVE, -1, NULL },
    { 3, 60, 80, FL_DRAW_BAR_NETWORK, -1, NULL },
    { 3, 80, 115, FL_DRAW_BAR_RECEIVE, 3, NULL },
};
#define NBARS ((int)(sizeof bars / sizeof bars[0]))

static void example(FlDrawChart *c)
{
    fl_draw_chart_init(c);
    c->title = "analytic timing";
    c->row_labels = labels;
    c->rows = 4;
    c->bars = bars;
    c->nbars = NBARS;
    c->marker = 115;
}

static unsigned bar_rgb(const FlDrawBar *b)
{
    double rgb[3];
    if (b->colour >= 0)
        fl_draw_palette_colour(b->colour, rgb);
    else
        fl_draw_chart_kind_colour(b->kind, 0, rgb);
    return hex_rgb(rgb);
}

static void test_layout(void)
{
    FlDrawChart c;
    example(&c);
    FlDrawPlotLayout l;
    fl_draw_chart_layout(&c, W, H, &l);
    CHECK(l.left > 40 && l.right < W && l.top > 0 && l.bottom < H && l.left < l.right
              && l.top < l.bottom,
          "the plot area is inside the picture, right of the labels (%.0f..%.0f x %.0f..%.0f)",
          l.left, l.right, l.top, l.bottom);
    CHECK(l.x0 == 0 && l.x1 >= 115 && l.x1 < 115 + l.xstep + 1e-9
              && fabs(remainder(l.x1, l.xstep)) < 1e-9,
          "time from 0 to the tick above the last bar (%g..%g, step %g)", l.x0, l.x1, l.xstep);
    double mag = pow(10, floor(log10(l.xstep) + 1e-9)), f = l.xstep / mag;
    CHECK(fabs(f - 1) < 1e-9 || fabs(f - 2) < 1e-9 || fabs(f - 5) < 1e-9,
          "the tick step is nice (%g)", l.xstep);
    CHECK(l.y0 == 4 && l.y1 == 0, "y counts the rows from the top");
    c.t_min = 10;
    c.t_max = 50;
    fl_draw_chart_layout(&c, W, H, &l);
    CHECK(l.x0 == 10 && l.x1 == 50, "a fixed range is kept (%g..%g)", l.x0, l.x1);
    c.t_min = c.t_max = 0;
    c.marker = 400;
    fl_draw_chart_layout(&c, W, H, &l);
    CHECK(l.x1 >= 400, "a marker beyond the bars widens the range (%g)", l.x1);
}

/* Every bar's middle is its colour, in its row's band, at its times. */
static void test_bars(void)
{
    FlDrawChart c;
    example(&c);
    c.marker = NAN;
    cairo_surface_t *s = draw(&c);
    FlDrawPlotLayout l;
    fl_draw_chart_layout(&c, W, H, &l);
    double band = (l.bottom - l.top) / c.rows;
    int good = 0;
    for (int i = 0; i < NBARS; i++) {
        const FlDrawBar *b = &bars[i];
        double x0, x1, y;
        fl_draw_plot_to_device(&l, b->start, b->row, &x0, &y);
        fl_draw_plot_to_device(&l, b->end, b->row, &x1, &y);
        double frac = b->kind == FL_DRAW_BAR_SEND      ? 0.3
                      : b->kind == FL_DRAW_BAR_RECEIVE ? 0.7
                                                       : 0.5;
        /* Away from the middle, where a label may be. */
        double px = x0 + (x1 - x0) * 0.2, py = y + band * frac;
        int in = x0 >= l.left && x1 <= l.right && py > l.top && py < l.bottom;
        good += in && near_rgb(pixel(s, px, py), bar_rgb(b), 12);
    }
    CHECK(good == NBARS, "%d of %d bars drawn in their colour at their place", good, NBARS);
    /* A send bar is in the upper half of its row: none of it at 70%. */
    double x0, x1, y;
    fl_draw_plot_to_device(&l, 2, 0, &x0, &y);
    fl_draw_plot_to_device(&l, 18, 0, &x1, &y);
    CHECK(!near_rgb(pixel(s, x0, y + band * 0.75), bar_rgb(&bars[0]), 40),
          "a send bar leaves the lower half of its row free");
    /* Left of a bar, nothing of its colour. */
    fl_draw_plot_to_device(&l, 5, 1, &x0, &y);
    CHECK(!near_rgb(pixel(s, x0, y + band * 0.7), bar_rgb(&bars[3]), 40),
          "no receive bar before it starts");
    /* Different rows, different places: rows are hit where they lie. */
    int hit = 1;
    for (int r = 0; r < 4; r++)
        hit &= fl_draw_chart_hit_row(&c, W, H, l.top + band * (r + 0.5)) == r;
    CHECK(hit, "each row is hit in the middle of its band");
    CHECK(fl_draw_chart_hit_row(&c, W, H, l.top - 3) == -1
              && fl_draw_chart_hit_row(&c, W, H, l.bottom + 3) == -1,
          "above and below the plot area, no row");
    cairo_surface_destroy(s);
}

/* A fixed range clips what lies beyond it; the marker is drawn. */
static void test_clip_and_marker(void)
{
    FlDrawChart c;
    example(&c);
    c.t_min = 0;
    c.t_max = 50;
    c.marker = 30;
    cairo_surface_t *s = draw(&c);
    FlDrawPlotLayout l;
    fl_draw_chart_layout(&c, W, H, &l);
    double band = (l.bottom - l.top) / c.rows;
    int spill = 0;
    for (double x = l.right + 2; x < W; x++)
        spill += near_rgb(pixel(s, x, l.top + band * 3.7), bar_rgb(&bars[6]), 30);
    CHECK(spill == 0, "a bar beyond the range is clipped (%d pixels outside)", spill);
    double mx, my;
    fl_draw_plot_to_device(&l, 30, 0, &mx, &my);
    int dark = 0;
    for (double y = l.top + 2; y < l.bottom - 2; y += 1)
        dark += near_rgb(pixel(s, mx, y), 0x241f31, 40);
    CHECK(dark > (l.bottom - l.top) * 0.3, "the marker is a dashed line at its time (%d)", dark);
    cairo_surface_destroy(s);
}

static void test_palette(void)
{
    double a[3], b[3], n[3];
    fl_draw_palette_colour(0, a);
    fl_draw_palette_colour(1, b);
    int differ = hex_rgb(a) != hex_rgb(b);
    int period = 0;
    for (int k = 1; k <= 64 && !period; k++) {
        fl_draw_palette_colour(k, n);
        if (hex_rgb(n) == hex_rgb(a))
            period = k;
    }
    CHECK(differ && period >= 8, "neighbours differ; the palette repeats after %d", period);
    fl_draw_palette_colour(-1, n);
    fl_draw_palette_colour(period - 1, b);
    CHECK(hex_rgb(n) == hex_rgb(b), "a negative index wraps round");
}

/* Nothing to draw: the frame and axis, no crash, no row hit. */
static void test_empty(void)
{
    FlDrawChart c;
    fl_draw_chart_init(&c);
    cairo_surface_t *s = draw(&c);
    FlDrawPlotLayout l;
    fl_draw_chart_layout(&c, W, H, &l);
    CHECK(l.x0 == 0 && l.x1 > 0 && l.left < l.right, "an empty chart has an axis (%g..%g)",
          l.x0, l.x1);
    CHECK(near_rgb(pixel(s, l.left + 1, (l.top + l.bottom) / 2), 0xffffff, 10)
              && near_rgb(pixel(s, floor(l.left) + 0.5, (l.top + l.bottom) / 2), 0x241f31, 40),
          "its plot area is blank inside a frame");
    CHECK(fl_draw_chart_hit_row(&c, W, H, (l.top + l.bottom) / 2) == -1, "and has no rows");
    cairo_surface_destroy(s);
    /* Tiny pictures and bars of no length draw without trouble. */
    example(&c);
    cairo_surface_t *tiny = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 20, 10);
    cairo_t *cr = cairo_create(tiny);
    fl_draw_chart(cr, &c, 20, 10);
    FlDrawBar point = { 0, 5, 5, FL_DRAW_BAR_SLOT, 2, "a long label that cannot fit" };
    c.bars = &point;
    c.nbars = 1;
    fl_draw_chart(cr, &c, 20, 10);
    CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS, "a tiny chart draws");
    cairo_destroy(cr);
    cairo_surface_destroy(tiny);
}

static void test_export(void)
{
    FlDrawChart c;
    example(&c);
    FlError err;
    char path[64];
    const char *formats[] = { "png", "svg", "pdf" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "/tmp/flitlab-chart-%ld.%s", (long)getpid(), formats[i]);
        int rc = fl_draw_export_chart(&c, path, NULL, 500, 300, &err);
        CHECK(rc == FL_OK && access(path, F_OK) == 0, "the chart exports as %s (%s)", formats[i],
              rc ? err.message : "ok");
        unlink(path);
    }
    snprintf(path, sizeof path, "/tmp/flitlab-chart-missing-%ld/c.png", (long)getpid());
    CHECK(fl_draw_export_chart(&c, path, NULL, 400, 300, &err) == FL_EIO
              && strstr(err.message, "cannot write"),
          "an unwritable path is refused by name");
    CHECK(fl_draw_export_chart(NULL, "/tmp/x.png", NULL, 400, 300, &err) == FL_EINVAL,
          "no chart, no picture");
}

int main(void)
{
    test_layout();
    test_bars();
    test_clip_and_marker();
    test_palette();
    test_empty();
    test_export();
    return tap_done();
}
