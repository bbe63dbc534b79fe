/* test-draw-figure.c — line plots as figures for papers: error bars inside
 * the plot area and autoscaled, log axes at powers of ten, markers and
 * dashes that differ for every series, a legend that hides no data,
 * column sizes, and the exports as CSV, gnuplot and pgfplots. Needs no
 * display. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flitlab-draw.h"
#include "tap.h"
#include "test-draw-pixels.h"

#define W 640
#define H 400

static double xs[3][4] = { { 1, 2, 3, 4 }, { 1, 2, 3, 4 }, { 1, 2, 3, 4 } };
static double ys[3][4] = { { 2, 3, 5, 8 }, { 1, 2, 4, 6 }, { 3, 4, 6, 9 } };
static double los[3][4] = { { 1, 2.5, 4, 7 }, { 0.5, 1.5, 3.5, 5 }, { 2, 3, 5, 8 } };
static double his[3][4] = { { 3, 3.5, 6, 11 }, { 1.5, 2.5, 4.5, 7 }, { 4, 5, 7, 10 } };

/* Three series with error bars, as a figure for one column. */
static void figure(FlDrawPlot *p, double *w, double *h)
{
    static const char *names[] = { "a", "b, with a comma", "c_1" };
    fl_draw_plot_init(p);
    p->x.label = "offered load (flits/node/cycle)";
    p->y.label = "latency (cycles)";
    for (int s = 0; s < 3; s++)
        p->series[s] = (FlDrawPlotSeries){ .name = names[s], .colour = -1, .x = xs[s],
                                           .y = ys[s], .n = 4, .lo = los[s], .hi = his[s] };
    p->nseries = 3;
    fl_draw_plot_for_paper(p, FL_DRAW_PAPER_SINGLE_COLUMN, w, h);
}

static cairo_surface_t *draw(const FlDrawPlot *p, double w, double h)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
    cairo_t *cr = cairo_create(s);
    fl_draw_plot(cr, p, w, h);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static int inside(const FlDrawPlotLayout *l, double x, double y)
{
    return x >= l->left - 1e-9 && x <= l->right + 1e-9 && y >= l->top - 1e-9 &&
           y <= l->bottom + 1e-9;
}

static void test_error_bars(void)
{
    FlDrawPlot p;
    double w, h;
    figure(&p, &w, &h);
    p.legend = 0;
    FlDrawPlotLayout l;
    fl_draw_plot_layout(&p, W, H, &l);
    CHECK(l.y1 >= 11 && l.y0 <= 0.5, "y spans the error bars, 0.5 to 11 (%g to %g)", l.y0, l.y1);
    int in = 1;
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < 4; i++) {
            double x, y0, y1;
            fl_draw_plot_to_device(&l, xs[s][i], los[s][i], &x, &y0);
            fl_draw_plot_to_device(&l, xs[s][i], his[s][i], &x, &y1);
            in &= inside(&l, x, y0) && inside(&l, x, y1);
        }
    CHECK(in, "every error bar is inside the plot area");

    /* Series a alone: its bar at x = 3 runs from 4 to 6, across its line. */
    p.nseries = 1;
    p.series[0].width = 4; /* bars 3 wide: whole pixels of its colour */
    fl_draw_plot_layout(&p, W, H, &l);
    cairo_surface_t *s = draw(&p, W, H);
    double x, y;
    fl_draw_plot_to_device(&l, 3, 5.6, &x, &y);
    CHECK(near_rgb(pixel(s, x, y), 0x1c71d8, 60), "the bar is drawn in its series' colour");
    fl_draw_plot_to_device(&l, 2.7, 5.8, &x, &y);
    CHECK(near_rgb(pixel(s, x, y), 0xffffff, 30), "beside the bar: background");
    cairo_surface_destroy(s);
}

static int is_power_of_ten(double v)
{
    double k = log10(v);
    return v > 0 && fabs(k - round(k)) < 1e-9;
}

static void test_log_axes(void)
{
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    double x[] = { 0, 0.003, 0.05, 2, 700 }, y[] = { 5, 1, -2, 30, 800 };
    p.series[0] = (FlDrawPlotSeries){ .name = "s", .colour = -1, .x = x, .y = y, .n = 5 };
    p.nseries = 1;
    p.x.log = p.y.log = 1;
    FlDrawPlotLayout l;
    fl_draw_plot_layout(&p, W, H, &l);
    CHECK(l.xlog && l.ylog, "the layout is logarithmic on both axes");
    CHECK(l.x0 == 1e-3 && fabs(l.x1 - 1e3) < 1e-9, "x from 0.001 to 1000 (%g to %g): 0 left out",
          l.x0, l.x1);
    CHECK(fabs(l.y0 - 1) < 1e-12 && fabs(l.y1 - 1e3) < 1e-9,
          "y from 1 to 1000 (%g to %g): -2 left out", l.y0, l.y1);
    CHECK(is_power_of_ten(l.x0) && is_power_of_ten(l.x1) && l.xstep >= 1 &&
              l.xstep == floor(l.xstep),
          "the x ends are powers of ten, the step whole decades (%g)", l.xstep);
    double d[7], dy;
    for (int k = 0; k < 7; k++)
        fl_draw_plot_to_device(&l, pow(10, k - 3), 10, &d[k], &dy);
    int even = 1;
    for (int k = 1; k < 7; k++)
        even &= fabs((d[k] - d[k - 1]) - (d[1] - d[0])) < 1e-6;
    CHECK(even && fabs(d[0] - l.left) < 1e-6 && fabs(d[6] - l.right) < 1e-6,
          "decades are evenly spaced from edge to edge");

    /* A grid line at every decade on x: the faint grid differs from the
     * background there, and not halfway between two decades. */
    p.nseries = 0;
    p.x.fixed = 1;
    p.x.min = 1e-3;
    p.x.max = 10;
    fl_draw_plot_layout(&p, W, H, &l);
    cairo_surface_t *s = draw(&p, W, H);
    int grid = 0, between = 0;
    for (int k = -2; k <= 0; k++) {
        double gx, half;
        fl_draw_plot_to_device(&l, pow(10, k), 10, &gx, &dy);
        fl_draw_plot_to_device(&l, pow(10, k + 0.5), 10, &half, &dy);
        grid += !near_rgb(pixel(s, floor(gx) + 0.5, (l.top + l.bottom) / 2), 0xffffff, 8);
        between += !near_rgb(pixel(s, half, (l.top + l.bottom) / 2), 0xffffff, 8);
    }
    CHECK(grid == 3 && between == 0, "grid lines at 0.01, 0.1, 1, none between (%d, %d)", grid,
          between);
    cairo_surface_destroy(s);
    double hit;
    CHECK(fl_draw_plot_hit_x(&p, W, H, (l.left + l.right) / 2, &hit) && fabs(hit - 0.1) < 1e-9,
          "the middle of a log axis from 0.001 to 10 is 0.1 (%g)", hit);
}

static void test_styles(void)
{
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    FlDrawMarker m[FL_DRAW_PLOT_MAX_SERIES];
    FlDrawDash d[FL_DRAW_PLOT_MAX_SERIES];
    fl_draw_plot_series_style(&p, 0, &m[0], &d[0]);
    CHECK(m[0] == FL_DRAW_MARKER_NONE && d[0] == FL_DRAW_DASH_SOLID,
          "on screen: no marker, solid");
    p.series[1].markers = 1;
    fl_draw_plot_series_style(&p, 1, &m[1], &d[1]);
    CHECK(m[1] == FL_DRAW_MARKER_CIRCLE, "on screen with markers: dots");
    p.style = FL_DRAW_PLOT_PRINT;
    for (int s = 0; s < FL_DRAW_PLOT_MAX_SERIES; s++)
        fl_draw_plot_series_style(&p, s, &m[s], &d[s]);
    int distinct = 1, marked = 1;
    for (int a = 0; a < FL_DRAW_PLOT_MAX_SERIES; a++) {
        marked &= m[a] != FL_DRAW_MARKER_NONE;
        for (int b = 0; b < a; b++)
            distinct &= m[a] != m[b] && d[a] != d[b];
    }
    CHECK(marked && distinct, "in print, 8 series have 8 markers and 8 dash patterns");
}

/* How many points of p the layout's legend box covers. */
static int covered(const FlDrawPlot *p, const FlDrawPlotLayout *l)
{
    int n = 0;
    for (int s = 0; s < p->nseries; s++)
        for (int i = 0; i < p->series[s].n; i++) {
            double x, y;
            fl_draw_plot_to_device(l, p->series[s].x[i], p->series[s].y[i], &x, &y);
            n += x >= l->legend_x && x <= l->legend_x + l->legend_w && y >= l->legend_y &&
                 y <= l->legend_y + l->legend_h;
        }
    return n;
}

static void test_legend(void)
{
    FlDrawPlot p;
    double w, h;
    FlDrawPlotLayout l;
    fl_draw_plot_init(&p);
    double x[] = { 0, 1, 2 }, y[] = { 1, 2, 3 };
    p.series[0] = (FlDrawPlotSeries){ .name = "rising", .colour = -1, .x = x, .y = y, .n = 3 };
    p.nseries = 1;
    fl_draw_plot_layout(&p, W, H, &l);
    CHECK(l.legend_place == FL_DRAW_LEGEND_TOP_LEFT && l.legend_x == l.left + 8 &&
              l.legend_y == l.top + 8,
          "by default the legend is inside at the top left");

    /* Points in the top left and bottom right corners leave two free. */
    p.x.fixed = p.y.fixed = 1;
    p.x.min = p.y.min = 0;
    p.x.max = 1;
    p.y.max = 10;
    double cx[] = { 0.05, 0.1, 0.5, 0.9, 0.95, 0.15, 0.9 },
           cy[] = { 9.5, 9, 5, 1, 0.5, 9.3, 0.3 };
    p.series[0] = (FlDrawPlotSeries){ .name = "falling", .colour = -1, .x = cx, .y = cy, .n = 7 };
    fl_draw_plot_for_paper(&p, FL_DRAW_PAPER_SINGLE_COLUMN, &w, &h);
    fl_draw_plot_layout(&p, w, h, &l);
    CHECK(l.legend_place == FL_DRAW_LEGEND_TOP_RIGHT, "the first free corner: top right (%d)",
          l.legend_place);
    CHECK(covered(&p, &l) == 0, "the legend covers no point");

    /* Points in all four corners: the legend goes outside, on the right. */
    double fx[] = { 0.05, 0.05, 0.1, 0.1, 0.95, 0.95, 0.9, 0.9 },
           fy[] = { 0.5, 9.5, 0.8, 9.2, 0.5, 9.5, 0.8, 9.2 };
    p.series[0] = (FlDrawPlotSeries){ .name = "corners", .colour = -1, .x = fx, .y = fy, .n = 8 };
    fl_draw_plot_layout(&p, w, h, &l);
    CHECK(l.legend_place == FL_DRAW_LEGEND_OUTSIDE_RIGHT && l.legend_x > l.right &&
              l.legend_x + l.legend_w <= w,
          "no free corner: outside on the right, within the figure");
    CHECK(covered(&p, &l) == 0, "outside, the legend covers no point");
}

static void test_sizes(void)
{
    double w, h, font;
    fl_draw_plot_paper_size(FL_DRAW_PAPER_SINGLE_COLUMN, &w, &h, &font);
    CHECK(fabs(w - 8.5 / 2.54 * 72) < 1e-9 && fabs(h - w * 0.75) < 1e-9 && font == 8,
          "one column: 8.5 cm = %.2f pt wide, 4:3, 8 pt ticks", w);
    fl_draw_plot_paper_size(FL_DRAW_PAPER_DOUBLE_COLUMN, &w, &h, &font);
    CHECK(fabs(w - 17.5 / 2.54 * 72) < 1e-9 && h > 150 && h < w / 2 && font == 8,
          "two columns: 17.5 cm = %.2f pt wide, %.1f pt high", w, h);

    /* A long label with its unit shrinks to fit beside its axis. */
    FlDrawPlot p;
    fl_draw_plot_init(&p);
    fl_draw_plot_for_paper(&p, FL_DRAW_PAPER_SINGLE_COLUMN, &w, &h);
    p.y.label = "accepted throughput at the destinations (flits per node per cycle)";
    cairo_surface_t *s = draw(&p, w, h);
    int top = 0, bottom = 0;
    for (int x = 0; x < 16; x++) {
        top += !near_rgb(pixel(s, x + 0.5, 0.5), 0xffffff, 8);
        bottom += !near_rgb(pixel(s, x + 0.5, floor(h) - 0.5), 0xffffff, 8);
    }
    CHECK(top == 0 && bottom == 0, "the long y label stays inside the figure");
    cairo_surface_destroy(s);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *at = text; at && (at = strstr(at, what)); at += strlen(what))
        n++;
    return n;
}

static void test_exports(void)
{
    FlDrawPlot p;
    double w, h;
    figure(&p, &w, &h);
    p.x.log = 1;
    p.series[1].lo = p.series[1].hi = NULL;
    char path[80];
    FlError err;
    long pid = (long)getpid();

    snprintf(path, sizeof path, "/tmp/flitlab-figure-%ld.csv", pid);
    CHECK(fl_draw_export_plot(&p, path, NULL, (int)w, (int)h, &err) == FL_OK, "CSV written");
    char *t = slurp(path);
    CHECK(t && strncmp(t, "series,x,y,lo,hi\n", 17) == 0, "CSV: its header");
    CHECK(count(t, "\n") == 13, "CSV: one row per point (%d lines)", count(t, "\n"));
    CHECK(strstr(t, "\na,4,8,7,11\n") && strstr(t, "\n\"b, with a comma\",3,4,,\n") &&
              strstr(t, "\nc_1,1,3,2,4\n"),
          "CSV: series, x, y, lo and hi of known rows");
    unlink(path);

    snprintf(path, sizeof path, "/tmp/flitlab-figure-%ld.gp", pid);
    CHECK(fl_draw_export_plot(&p, path, NULL, (int)w, (int)h, &err) == FL_OK, "gnuplot written");
    t = slurp(path);
    CHECK(count(t, "<< EOD\n") == 3 && count(t, "\nEOD\n") == 3, "gnuplot: an EOD block a series");
    CHECK(strstr(t, "set logscale x 10\n") && !strstr(t, "set logscale y"),
          "gnuplot: log x, linear y");
    CHECK(count(t, "with yerrorlines") == 2 && count(t, "with linespoints") == 1,
          "gnuplot: error bars where the series have them");
    CHECK(strstr(t, "set xlabel \"offered load (flits/node/cycle)\"") &&
              strstr(t, "title \"b, with a comma\"") && strstr(t, "set key "),
          "gnuplot: labels and legend");
    CHECK(strstr(t, "\n2 3 2.5 3.5\n") != NULL, "gnuplot: x y lo hi rows");
    /* Where gnuplot is installed, the script draws its figure. */
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        char cmd[256], pdf[80];
        snprintf(pdf, sizeof pdf, "/tmp/flitlab-figure-gp-%ld.pdf", pid);
        snprintf(cmd, sizeof cmd, "gnuplot -e 'outfile=\"%s\"' %s 2>&1", pdf, path);
        FILE *out = popen(cmd, "r");
        char said[256] = "";
        size_t n = out ? fread(said, 1, sizeof said - 1, out) : 0;
        said[n] = 0;
        int rc = out ? pclose(out) : -1;
        char *drawn = slurp(pdf);
        CHECK(rc == 0 && !*said && drawn && strncmp(drawn, "%PDF", 4) == 0,
              "gnuplot runs the script into a PDF (%s)", said);
        unlink(pdf);
    }
    unlink(path);

    snprintf(path, sizeof path, "/tmp/flitlab-figure-%ld", pid);
    CHECK(fl_draw_export_plot(&p, path, "pgfplots", (int)w, (int)h, &err) == FL_OK,
          "pgfplots written by the format's name");
    t = slurp(path);
    CHECK(strstr(t, "\\begin{tikzpicture}") && strstr(t, "\\begin{axis}[") &&
              strstr(t, "\\end{axis}\n\\end{tikzpicture}\n"),
          "pgfplots: a tikzpicture with an axis");
    CHECK(count(t, "\\addplot[") == 3 && count(t, "\\addlegendentry{") == 3,
          "pgfplots: an \\addplot and a legend entry a series");
    CHECK(count(t, "error bars/.cd, y dir=both, y explicit") == 2, "pgfplots: error bars");
    CHECK(strstr(t, "xmode=log") && !strstr(t, "ymode=log"), "pgfplots: log x");
    CHECK(strstr(t, "\\addlegendentry{c\\_1}") && strstr(t, "\n    4 8 3 1\n"),
          "pgfplots: TeX escaped, rows of x y plus minus");
    unlink(path);

    snprintf(path, sizeof path, "/tmp/flitlab-figure-%ld.xls", pid);
    CHECK(fl_draw_export_plot(&p, path, NULL, (int)w, (int)h, &err) == FL_EINVAL &&
              strstr(err.message, "'xls'") && access(path, F_OK) != 0,
          "an unknown format is refused by name: %s", err.message);
    snprintf(path, sizeof path, "/tmp/flitlab-figure-missing-%ld/f.gp", pid);
    CHECK(fl_draw_export_plot(&p, path, NULL, (int)w, (int)h, &err) == FL_EIO,
          "an unwritable path is refused");
    snprintf(path, sizeof path, "/tmp/flitlab-figure-%ld.pdf", pid);
    CHECK(fl_draw_export_plot(&p, path, NULL, (int)w, (int)h, &err) == FL_OK &&
              access(path, F_OK) == 0,
          "the figure still exports as PDF");
    unlink(path);
}

int main(void)
{
    test_error_bars();
    test_log_axes();
    test_styles();
    test_legend();
    test_sizes();
    test_exports();
    return tap_done();
}
