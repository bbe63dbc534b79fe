/* test-draw-plot.c — line plots drawn with cairo: a line through known
 * points lands on the pixels the layout gives, a NaN leaves a gap, ticks
 * are nice (1, 2 or 5 times a power of ten), a reference line is drawn at
 * its y, the cursor maps back to the data, markers and error bars look
 * the same stamped, drawn as paths and drawn as in a PDF, the first and
 * last points' marks are whole inside the frame, and a plot exports.
 * Needs no display. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "draw-scene-private.h"
#include "flitlab-draw.h"
#include "tap.h"
#include "test-draw-pixels.h"

#define W 640
#define H 400

static cairo_surface_t *draw(const FlDrawPlot *p)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    fl_draw_plot(cr, p, W, H);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

/* Whether step is 1, 2 or 5 times a power of ten. */
static int is_nice(double step)
{
    double mag = pow(10, floor(log10(step) + 1e-9));
    double f = step / mag;
    return fabs(f - 1) < 1e-9 || fabs(f - 2) < 1e-9 || fabs(f - 5) < 1e-9;
}

static void test_ticks(void)
{
    static const double spans[] = { 1, 0.37, 7.3, 12, 99, 1234.5, 0.0042, 3e6 };
    int nice = 1;
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++)
        for (int n = 2; n <= 10; n++) {
            double st = fl_draw_plot_nice_step(spans[i], n);
            nice &= is_nice(st) && spans[i] / st <= n * 2.5 + 1e-9 && spans[i] / st >= n / 5.0;
        }
    CHECK(nice, "every step is 1, 2 or 5 x 10^k, about n of them across the span");
    CHECK(fabs(fl_draw_plot_nice_step(10, 5) - 2) < 1e-12, "10 in 5 ticks: step 2");
    CHECK(fabs(fl_draw_plot_nice_step(0.37, 4) - 0.1) < 1e-12, "0.37 in 4 ticks: step 0.1");

    FlDrawPlot p;
    fl_draw_plot_init(&p);
    double x[] = { 0, 1000, 2000, 3000 }, y[] = { 0.013, 0.21, 0.33, 0.37 };
    p.series[0] = (FlDrawPlotSeries){ "accepted", -1, x, y, 4, 0, 0 };
    p.nseries = 1;
    FlDrawPlotLayout l;
    fl_draw_plot_layout(&p, W, H, &l);
    CHECK(is_nice(l.xstep) && is_nice(l.ystep), "autoscaled steps are nice (%g, %g)", l.xstep,
          l.ystep);
    CHECK(l.y0 == 0 && l.y1 >= 0.37 && l.y1 < 0.37 + l.ystep + 1e-9
              && fabs(remainder(l.y1, l.ystep)) < 1e-9,
          "y from zero to the tick above the data (%g..%g)", l.y0, l.y1);
    CHECK(l.x0 <= 0 && l.x1 >= 3000 && fabs(remainder(l.x0, l.xstep)) < 1e-9,
          "x spans the data on whole ticks (%g..%g)", l.x0, l.x1);
    p.x.fixed = 1;
    p.x.min = 500;
    p.x.max = 2500;
    fl_draw_plot_layout(&p, W, H, &l);
    CHECK(l.x0 == 500 && l.x1 == 2500, "a fixed range is kept (%g..%g)", l.x0, l.x1);
}

/* A line through known points: its middle pixels are the series' colour
 * where the layout puts them; a NaN leaves a gap. */
static void test_line(void)
{
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    p.title = "accepted throughput";
    p.x.label = "cycle";
    p.y.label = "flits/cycle/host";
    double x[] = { 0, 10, 20, 30, 40, 50 }, y[] = { 1, 3, 3, NAN, 4.5, 4.5 };
    p.series[0] = (FlDrawPlotSeries){ "latency", 0x1c71d8, x, y, 6, 3, 0 };
    p.nseries = 1;
    p.legend = 0;
    cairo_surface_t *s = draw(&p);
    FlDrawPlotLayout l;
    fl_draw_plot_layout(&p, W, H, &l);
    double ax, ay, bx, by;
    /* Along the segments from (10, 3) to (20, 3) and from (40, 4.5) to (50, 4.5). */
    int on = 0, points = 0;
    for (int seg = 0; seg < 2; seg++) {
        fl_draw_plot_to_device(&l, seg ? 40 : 10, seg ? 4.5 : 3, &ax, &ay);
        fl_draw_plot_to_device(&l, seg ? 50 : 20, seg ? 4.5 : 3, &bx, &by);
        for (int k = 1; k < 10; k++, points++)
            on += near_rgb(pixel(s, ax + (bx - ax) * k / 10, ay), 0x1c71d8, 8);
    }
    CHECK(on == points, "%d of %d pixels of the line in its colour", on, points);
    /* From (0, 1) to (10, 3): the middle at (5, 2). */
    fl_draw_plot_to_device(&l, 5, 2, &ax, &ay);
    CHECK(near_rgb(pixel(s, ax, ay), 0x1c71d8, 8), "a sloped segment passes through its middle");
    /* No line between (20, 3) and (40, 5) across the NaN. */
    int gap = 0;
    for (int k = 2; k <= 8; k++) {
        double gx, gy;
        fl_draw_plot_to_device(&l, 20 + 2.0 * k, 3 + 0.075 * k, &gx, &gy);
        for (int dy = -30; dy <= 30; dy++)
            gap += near_rgb(pixel(s, gx, gy + dy), 0x1c71d8, 60);
    }
    CHECK(gap == 0, "the NaN leaves a gap (%d line pixels in it)", gap);
    cairo_surface_destroy(s);
}

/* The reference line is drawn at its y, dashed across the plot area. */
static void test_reference(void)
{
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    double x[] = { 0, 100 }, y[] = { 0.1, 0.2 };
    p.series[0] = (FlDrawPlotSeries){ "accepted", -1, x, y, 2, 0, 0 };
    p.nseries = 1;
    p.refs[0] = (FlDrawPlotRef){ "offered 0.3", 0.3, 0xe01b24 };
    p.nrefs = 1;
    p.legend = 0;
    FlDrawPlotLayout l;
    fl_draw_plot_layout(&p, W, H, &l);
    CHECK(l.y1 >= 0.3, "the y axis reaches the reference line (%g)", l.y1);
    cairo_surface_t *s = draw(&p);
    double rx, ry;
    fl_draw_plot_to_device(&l, l.x0, 0.3, &rx, &ry);
    int red = 0, above = 0;
    for (double px = l.left + 2; px < l.left + 200; px++) {
        red += near_rgb(pixel(s, px, ry), 0xe01b24, 30);
        above += near_rgb(pixel(s, px, ry - 6), 0xe01b24, 30);
    }
    CHECK(red > 80 && red < 198, "the reference line is dashed at its y (%d of 198 pixels)", red);
    CHECK(above < 10, "and nowhere 6 pixels above it (%d)", above);
    cairo_surface_destroy(s);
}

/* The cursor: a pixel maps back to the data x under it, and the cursor
 * is drawn there. */
static void test_cursor(void)
{
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    double x[] = { 0, 1000 }, y[] = { 0, 1 };
    p.series[0] = (FlDrawPlotSeries){ NULL, -1, x, y, 2, 0, 0 };
    p.nseries = 1;
    FlDrawPlotLayout l;
    fl_draw_plot_layout(&p, W, H, &l);
    double dx, dy, back;
    fl_draw_plot_to_device(&l, 250, 0, &dx, &dy);
    int in = fl_draw_plot_hit_x(&p, W, H, dx, &back);
    CHECK(in && fabs(back - 250) < 1e-6, "pixel %.1f is x %.3f", dx, back);
    CHECK(!fl_draw_plot_hit_x(&p, W, H, 1, &back) && back == l.x0,
          "left of the plot area: outside, clamped");
    p.cursor = 250;
    cairo_surface_t *s = draw(&p);
    int dark = 0;
    for (double py = l.top + 5; py < l.bottom - 5; py += 10)
        dark += near_rgb(pixel(s, dx, py), 0x241f31, 30);
    CHECK(dark > 0, "the cursor is drawn at its x (%d samples)", dark);
    cairo_surface_destroy(s);
}

typedef enum Way { STAMPED, RECORDED, AS_DOCUMENT } Way;

/* Draws p at 300 dpi (scale 300/72) on an image: straight (markers
 * stamped), through a recording surface (markers drawn as paths), or as in
 * a PDF (markers painted from one shape, error bars in one stroke). */
static cairo_surface_t *draw_paper(const FlDrawPlot *p, double w, double h, Way way)
{
    double scale = 300.0 / 72;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * scale),
                                                    (int)ceil(h * scale));
    cairo_surface_t *target = way == RECORDED ? cairo_recording_surface_create(
                                                    CAIRO_CONTENT_COLOR, NULL)
                                              : cairo_surface_reference(s);
    if (way == AS_DOCUMENT)
        fl__draw_plot_as_document(target);
    cairo_t *cr = cairo_create(target);
    cairo_scale(cr, scale, scale);
    fl_draw_plot(cr, p, w, h);
    cairo_destroy(cr);
    if (way == RECORDED) {
        cr = cairo_create(s);
        cairo_set_source_surface(cr, target, 0, 0);
        cairo_paint(cr);
        cairo_destroy(cr);
    }
    cairo_surface_destroy(target);
    cairo_surface_flush(s);
    return s;
}

/* How many pixels of a and b differ by more than 8 in a channel, and the
 * largest difference into *worst. */
static int pixels_off(cairo_surface_t *a, cairo_surface_t *b, int *worst)
{
    int width = cairo_image_surface_get_width(a), height = cairo_image_surface_get_height(a);
    int off = 0;
    *worst = 0;
    for (int py = 0; py < height; py++)
        for (int px = 0; px < width; px++) {
            unsigned u = pixel(a, px, py), v = pixel(b, px, py);
            int d = 0;
            for (int k = 0; k < 24; k += 8) {
                int e = abs((int)((u >> k) & 0xff) - (int)((v >> k) & 0xff));
                d = e > d ? e : d;
            }
            off += d > 8;
            *worst = d > *worst ? d : *worst;
        }
    return off;
}

/* Markers of every print shape, apart and at odd fractions of a pixel,
 * with error bars: stamped on an image, and as a document draws them, they
 * look as drawn as paths. */
static void test_print_markers(void)
{
    enum { N = 9 };
    static double x[FL_DRAW_PLOT_MAX_SERIES][N], y[FL_DRAW_PLOT_MAX_SERIES][N];
    static double lo[FL_DRAW_PLOT_MAX_SERIES][N], hi[FL_DRAW_PLOT_MAX_SERIES][N];
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    for (int s = 0; s < FL_DRAW_PLOT_MAX_SERIES; s++) {
        for (int i = 0; i < N; i++) {
            x[s][i] = i + 0.1 * s + 0.0137 * i * s;
            y[s][i] = 10 * s + (i % 3) * 2.71 + 0.031 * i;
            lo[s][i] = y[s][i] - 1.3;
            hi[s][i] = y[s][i] + 0.7 + 0.1 * i;
        }
        p.series[s] = (FlDrawPlotSeries){ NULL, -1, x[s], y[s], N, 0, 1, lo[s], hi[s] };
    }
    p.nseries = FL_DRAW_PLOT_MAX_SERIES;
    double w, h;
    fl_draw_plot_for_paper(&p, FL_DRAW_PAPER_DOUBLE_COLUMN, &w, &h);
    cairo_surface_t *a = draw_paper(&p, w, h, STAMPED), *b = draw_paper(&p, w, h, RECORDED);
    cairo_surface_t *c = draw_paper(&p, w, h, AS_DOCUMENT);
    int worst, off = pixels_off(a, b, &worst);
    /* Stamps sit within 1/16 of a pixel: edges shift by a few levels. */
    CHECK(worst <= 40, "stamped markers match drawn ones (%d pixels off by more "
          "than 8, at most by %d)", off, worst);
    off = pixels_off(c, b, &worst);
    CHECK(worst <= 40, "markers and error bars as in a document match drawn ones (%d "
          "pixels off by more than 8, at most by %d)", off, worst);
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    cairo_surface_destroy(c);
}

/* Dense points with error bars on a flat stretch and a steep one (a
 * document merges caps at one height and leaves out bars shorter than
 * their caps are thick): as a document draws them, they look as drawn as
 * paths, but for the edges where overlapping markers meet. */
static void test_dense_document(void)
{
    enum { N = 400 };
    static double x[3][N], y[3][N], lo[3][N], hi[3][N];
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    for (int s = 0; s < 3; s++) {
        for (int i = 0; i < N; i++) {
            x[s][i] = i * 0.01;
            y[s][i] = 1 + 2 * s + (i < N / 2 ? 0.0001 * i : 0.02 * (i - N / 2));
            lo[s][i] = y[s][i] - (i % 2 ? 0.002 : 0.5);
            hi[s][i] = y[s][i] + 0.5;
        }
        p.series[s] = (FlDrawPlotSeries){ NULL, -1, x[s], y[s], N, 0, 1, lo[s], hi[s] };
    }
    p.nseries = 3;
    p.every_mark = 1;
    double w, h;
    fl_draw_plot_for_paper(&p, FL_DRAW_PAPER_SINGLE_COLUMN, &w, &h);
    cairo_surface_t *b = draw_paper(&p, w, h, RECORDED), *c = draw_paper(&p, w, h, AS_DOCUMENT);
    int worst, off = pixels_off(c, b, &worst);
    int all = cairo_image_surface_get_width(b) * cairo_image_surface_get_height(b);
    CHECK(off < all / 200, "dense markers and bars as in a document match drawn ones (%d of "
          "%d pixels off by more than 8, at most by %d)", off, all, worst);
    cairo_surface_destroy(b);
    cairo_surface_destroy(c);
}

/* Error bars alone (no markers on screen), as few as go in one stroke
 * either way: pairs whose caps overlap at one height (a document draws
 * each pair's caps as one line) with a gap to the next pair at that
 * height, pairs under a pixel apart in height (two lines), bars shorter than
 * their caps are thick (a document leaves their vertical line out) and
 * bars a little longer. As a document draws them they look as drawn as
 * paths. */
static void test_document_bars(void)
{
    enum { N = 16 };
    double x[N], y[N], lo[N], hi[N];
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    static const double below[4] = { 0.2, 0.2, 0.001, 0.05 }, above[4] = { 0.3, 0.3, 0.001, 0.06 };
    for (int i = 0; i < N; i++) {
        int pair = i / 2;
        x[i] = pair + (i % 2) * 0.05;
        /* Flat, then rising, the second of each pair under a pixel higher. */
        y[i] = i < N / 2 ? 1 : 1 + 0.37 * (pair - 3) + 0.005 * (i % 2);
        lo[i] = y[i] - below[pair % 4];
        hi[i] = y[i] + above[pair % 4];
    }
    p.series[0] = (FlDrawPlotSeries){ NULL, -1, x, y, N, 0, 0, lo, hi };
    p.nseries = 1;
    p.y.fixed = 1;
    p.y.max = 4;
    double w, h;
    fl_draw_plot_paper_size(FL_DRAW_PAPER_SINGLE_COLUMN, &w, &h, NULL);
    cairo_surface_t *b = draw_paper(&p, w, h, RECORDED), *c = draw_paper(&p, w, h, AS_DOCUMENT);
    int worst, off = pixels_off(c, b, &worst);
    CHECK(worst <= 8, "error bars as in a document match drawn ones (%d pixels off by more "
          "than 8, at most by %d)", off, worst);
    cairo_surface_destroy(b);
    cairo_surface_destroy(c);
}

/* Pixels within 40 levels of rgb. */
static int count_near(cairo_surface_t *s, unsigned rgb)
{
    int n = 0;
    for (int py = 0; py < cairo_image_surface_get_height(s); py++)
        for (int px = 0; px < cairo_image_surface_get_width(s); px++)
            n += near_rgb(pixel(s, px, py), rgb, 40);
    return n;
}

/* A dense series in print (300 points a pixel or two apart): its
 * intervals are a light band, not bars; its markers are spaced out, far
 * fewer than with every mark asked for. */
static void test_dense_band(void)
{
    enum { N = 300 };
    static double x[N], y[N], lo[N], hi[N];
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    for (int i = 0; i < N; i++) {
        x[i] = i;
        y[i] = 5 + sin(i * 0.05);
        lo[i] = y[i] - 2;
        hi[i] = y[i] + 2;
    }
    p.series[0] = (FlDrawPlotSeries){ NULL, 0x1c71d8, x, y, N, 0, 1, lo, hi };
    p.nseries = 1;
    p.legend = 0;
    double w, h;
    fl_draw_plot_for_paper(&p, FL_DRAW_PAPER_SINGLE_COLUMN, &w, &h);
    cairo_surface_t *band = draw_paper(&p, w, h, STAMPED);
    p.every_mark = 1;
    cairo_surface_t *all = draw_paper(&p, w, h, STAMPED);
    FlDrawPlotLayout l;
    fl_draw_plot_layout(&p, w, h, &l);
    double px, py, scale = 300.0 / 72;
    /* 1.5 above the curve at x = 150: inside the interval, off the line. */
    fl_draw_plot_to_device(&l, 150, y[150] + 1.5, &px, &py);
    /* 22 % of 0x1c71d8 over white. */
    unsigned tint = pixel(band, px * scale, py * scale);
    CHECK(near_rgb(tint, 0xccddf6, 24), "inside the interval, the band's light tint (%06x)",
          tint);
    int ink_band = count_near(band, 0x1c71d8), ink_all = count_near(all, 0x1c71d8);
    CHECK(ink_band * 3 < ink_all, "spaced markers and no bars ink %d pixels, every mark %d",
          ink_band, ink_all);
    /* gnuplot and pgfplots draw it the same way. */
    p.every_mark = 0;
    static const char *const formats[] = { "gnuplot", "pgfplots" };
    static const char *const band_of[] = { "with filledcurves", "fill opacity=0.22" };
    static const char *const spaced[] = { " pi ", "mark repeat=" };
    for (int k = 0; k < 2; k++) {
        char path[64], text[4096] = "";
        snprintf(path, sizeof path, "/tmp/flitlab-band-%ld.txt", (long)getpid());
        FILE *f = fl_draw_export_plot(&p, path, formats[k], (int)w, (int)h, NULL) == FL_OK
                      ? fopen(path, "r")
                      : NULL;
        int found = 0;
        while (f && fgets(text, sizeof text, f))
            found |= (strstr(text, band_of[k]) ? 1 : 0) | (strstr(text, spaced[k]) ? 2 : 0)
                     | (strstr(text, "yerrorlines") || strstr(text, "error bars") ? 4 : 0);
        if (f)
            fclose(f);
        unlink(path);
        CHECK(found == 3, "%s: a band, spaced markers, no error bars (%d)", formats[k], found);
    }
    cairo_surface_destroy(band);
    cairo_surface_destroy(all);
}

/* The columns of the pixels of colour rgb in rows y0..y1 of s around
 * column x (as far as they run on either side of it, up to reach):
 * the leftmost into *left and the rightmost into *right. */
static void run_of(cairo_surface_t *s, double x, double y0, double y1, unsigned rgb, double reach,
                   int *left, int *right)
{
    *left = *right = (int)floor(x);
    for (int py = (int)floor(y0); py <= (int)ceil(y1); py++)
        for (int px = (int)floor(x - reach); px <= (int)ceil(x + reach); px++)
            if (near_rgb(pixel(s, px, py), rgb, 60)) {
                *left = px < *left ? px : *left;
                *right = px > *right ? px : *right;
            }
}

/* Isolated first and last points, on the first and last ticks of an
 * autoscaled x axis (linear and log), with error bars: their marks are
 * whole inside the frame (as wide on the frame's side as on the other)
 * and the ticks stay at nice values. Lines alone or a fixed range keep
 * the data at the frame. */
static void test_x_padding(void)
{
    double x[3] = { 0, 1, 2 }, y[3] = { 5, NAN, 5 }, lo[3] = { 4, 4, 4 }, hi[3] = { 6, 6, 6 };
    double xl[3] = { 1, 10, 100 };
    for (int lg = 0; lg < 2; lg++) {
        FlDrawPlot p;
        fl_draw_plot_init(&p);
        p.series[0] = (FlDrawPlotSeries){ NULL, 0x1c71d8, lg ? xl : x, y, 3, 0, 1, lo, hi };
        p.nseries = 1;
        p.x.log = lg;
        double w, h, scale = 300.0 / 72;
        fl_draw_plot_for_paper(&p, FL_DRAW_PAPER_SINGLE_COLUMN, &w, &h);
        FlDrawPlotLayout l;
        fl_draw_plot_layout(&p, w, h, &l);
        const double *px = lg ? xl : x;
        CHECK(l.x0 == px[0] && l.x1 == px[2] && l.xpad > 0,
              "%s x: from the first point to the last, on ticks (%g..%g), %.1f units inside the "
              "frame", lg ? "log" : "linear", l.x0, l.x1, l.xpad);
        cairo_surface_t *s = draw_paper(&p, w, h, STAMPED);
        for (int end = 0; end < 2; end++) {
            double dx, dy, top, bottom;
            fl_draw_plot_to_device(&l, px[end * 2], hi[0], &dx, &top);
            fl_draw_plot_to_device(&l, px[end * 2], lo[0], &dx, &bottom);
            fl_draw_plot_to_device(&l, px[end * 2], y[0], &dx, &dy);
            int left, right;
            run_of(s, dx * scale, top * scale - 8, bottom * scale + 8, 0x1c71d8, 40, &left,
                   &right);
            double frame = end ? floor(l.right) * scale : (floor(l.left) + 1) * scale;
            int inside = end ? right < frame : left > frame;
            double before = dx * scale - left, after = right - dx * scale;
            CHECK(inside && fabs(before - after) <= 2,
                  "%s x: the %s point's marker and bar are whole inside the frame (%d..%d around "
                  "%.1f, frame at %.1f)", lg ? "log" : "linear", end ? "last" : "first", left,
                  right, dx * scale, frame);
        }
        cairo_surface_destroy(s);
        /* The cursor maps back through the room. */
        double at, back, unused;
        fl_draw_plot_to_device(&l, px[2], 5, &at, &unused);
        CHECK(fl_draw_plot_hit_x(&p, w, h, at, &back) && fabs(back - px[2]) < 1e-9 * px[2]
                  && fl_draw_plot_hit_x(&p, w, h, l.right - 1, &back) && back == l.x1,
              "%s x: the cursor maps back to the last point, and beyond it to x1", lg ? "log"
                                                                                       : "linear");
        p.x.fixed = 1;
        p.x.min = px[0];
        p.x.max = px[2];
        fl_draw_plot_layout(&p, w, h, &l);
        CHECK(l.xpad == 0, "%s x: a fixed range fills the plot area", lg ? "log" : "linear");
        p.x.fixed = 0;
        p.series[0].lo = p.series[0].hi = NULL;
        p.series[0].markers = 0;
        p.style = FL_DRAW_PLOT_SCREEN;
        fl_draw_plot_layout(&p, w, h, &l);
        fl_draw_plot_to_device(&l, px[0], 5, &at, &unused);
        CHECK(l.xpad == 0 && fabs(at - l.left) < 1e-9, "%s x: a line alone starts at the frame",
              lg ? "log" : "linear");
    }
}

static void test_export(void)
{
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    double x[] = { 0, 1, 2 }, y[] = { 1, 4, 9 };
    p.series[0] = (FlDrawPlotSeries){ "squares", -1, x, y, 3, 0, 1 };
    p.nseries = 1;
    p.title = "a plot";
    FlError err;
    char path[64];
    const char *formats[] = { "png", "svg", "pdf" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "/tmp/flitlab-plot-%ld.%s", (long)getpid(), formats[i]);
        int rc = fl_draw_export_plot(&p, path, NULL, 400, 300, &err);
        CHECK(rc == FL_OK && access(path, F_OK) == 0, "the plot exports as %s (%s)", formats[i],
              rc ? err.message : "ok");
        unlink(path);
    }
    /* The gnuplot script shows the room the figure leaves at the x axis' ends. */
    snprintf(path, sizeof path, "/tmp/flitlab-plot-%ld.gp", (long)getpid());
    double lo = 0, hi = 0;
    char line[256];
    FILE *f = fl_draw_export_plot(&p, path, NULL, 400, 300, &err) == FL_OK ? fopen(path, "r")
                                                                           : NULL;
    while (f && fgets(line, sizeof line, f))
        sscanf(line, "set xrange [%lf:%lf]", &lo, &hi);
    if (f)
        fclose(f);
    unlink(path);
    CHECK(lo < 0 && lo > -0.5 && hi > 2 && hi < 2.5, "gnuplot's x range [%g:%g] holds the room "
          "around the ticks 0 and 2", lo, hi);
    snprintf(path, sizeof path, "/tmp/flitlab-plot-missing-%ld/p.png", (long)getpid());
    CHECK(fl_draw_export_plot(&p, path, NULL, 400, 300, &err) == FL_EIO
              && strstr(err.message, "cannot write"),
          "an unwritable path is refused by name");
}

int main(void)
{
    test_ticks();
    test_line();
    test_reference();
    test_cursor();
    test_print_markers();
    test_dense_document();
    test_dense_band();
    test_document_bars();
    test_x_padding();
    test_export();
    return tap_done();
}
