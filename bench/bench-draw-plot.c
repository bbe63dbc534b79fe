/* bench-draw-plot.c — how long a plot of 10,000 points takes to draw. Run by
 * hand (never as a timed test):
 *
 *     bench-draw-plot
 *
 * An FlDrawPlot of 8 series of 1,250 points each (load-latency curves
 * with 95 % error bars at every point) is drawn, median of REPEATS:
 * on screen into a 1280x800 cairo image surface (as the application's
 * preview), set up for a paper (fl_draw_plot_for_paper(), two columns)
 * into an image surface at 300 dpi (a PNG export), and into a PDF and an
 * SVG surface written to memory, the surface finished (the exports without
 * the disk). The bar: under 100 ms.
 *
 *     bench-draw-plot pdf|svg|png|screen [N]
 *
 * draws only that target N times (default 20) and prints its median: a
 * run to profile (perf record). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "bench-time.h"
#include "flitlab-draw.h"

#define SERIES 8
#define POINTS 1250
#define REPEATS 5

typedef struct Data {
    double x[SERIES][POINTS], y[SERIES][POINTS], lo[SERIES][POINTS], hi[SERIES][POINTS];
} Data;

static const char *const names[SERIES] = { "dor", "updown", "lturn", "west-first",
                                           "north-last", "negative-first", "odd-even",
                                           "valiant" };

/* Curves that climb towards their saturation, with a CI of +-4 %. */
static void fill(Data *d, FlDrawPlot *p)
{
    fl_draw_plot_init(p);
    p->title = "latency against offered load";
    p->x.label = "offered load (flits/cycle/host)";
    p->y.label = "latency (cycles)";
    p->nseries = SERIES;
    for (int s = 0; s < SERIES; s++) {
        double sat = 0.5 + 0.05 * s;
        for (int i = 0; i < POINTS; i++) {
            double x = sat * (i + 1) / (POINTS + 1);
            d->x[s][i] = x;
            d->y[s][i] = 5 + s + 2 * x / (sat - x);
            d->lo[s][i] = d->y[s][i] * 0.96;
            d->hi[s][i] = d->y[s][i] * 1.04;
        }
        p->series[s] = (FlDrawPlotSeries){ .name = names[s], .colour = -1, .x = d->x[s],
                                           .y = d->y[s], .n = POINTS, .lo = d->lo[s],
                                           .hi = d->hi[s] };
    }
}

static cairo_status_t discard(void *closure, const unsigned char *data, unsigned int length)
{
    *(size_t *)closure += length;
    return CAIRO_STATUS_SUCCESS;
}

typedef enum Target { SCREEN, PAPER_PNG, PAPER_PDF, PAPER_SVG } Target;

/* The time this process has run on a CPU, in ms: on a machine shared with
 * other work, the figure that does not depend on its load. */
static double cpu_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* One drawing of p on target: wall time in ms, the CPU time into *cpu and a
 * PDF's or SVG's size into *bytes. */
static double draw_once(const FlDrawPlot *p, Target target, double w, double h, double *cpu,
                        size_t *bytes)
{
    double scale = target == PAPER_PNG ? 300.0 / 72 : 1;
    cairo_surface_t *s;
    double t0 = now_ms(), c0 = cpu_now_ms();
    if (target == PAPER_PDF)
        s = cairo_pdf_surface_create_for_stream(discard, bytes, w, h);
    else if (target == PAPER_SVG)
        s = cairo_svg_surface_create_for_stream(discard, bytes, w, h);
    else
        s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * scale),
                                       (int)ceil(h * scale));
    cairo_t *cr = cairo_create(s);
    cairo_scale(cr, scale, scale);
    fl_draw_plot(cr, p, w, h);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    double ms = now_ms() - t0;
    *cpu = cpu_now_ms() - c0;
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
        ms = NAN;
    cairo_surface_destroy(s);
    return ms;
}

#define MAX_REPEATS 1000

/* The medians of repeats drawings: wall time, returned, and CPU time. */
static double median_of(const FlDrawPlot *p, Target target, double w, double h, int repeats,
                        double *cpu, size_t *bytes)
{
    static double t[MAX_REPEATS], c[MAX_REPEATS];
    draw_once(p, target, w, h, cpu, bytes);   /* warms cairo's caches (fonts) up */
    for (int i = 0; i < repeats; i++) {
        *bytes = 0;
        t[i] = draw_once(p, target, w, h, &c[i], bytes);
    }
    qsort(t, repeats, sizeof *t, by_value);
    qsort(c, repeats, sizeof *c, by_value);
    *cpu = c[repeats / 2];
    return t[repeats / 2];
}

/* Prints one line of the table: what, the median wall and CPU times. */
static double row(const char *what, const FlDrawPlot *p, Target target, double w, double h,
                  size_t *bytes)
{
    double cpu, ms = median_of(p, target, w, h, REPEATS, &cpu, bytes);
    char text[96];
    if (target == PAPER_PDF || target == PAPER_SVG)
        snprintf(text, sizeof text, what, *bytes / 1000);
    else
        snprintf(text, sizeof text, "%s", what);
    printf("  %-48s %8.1f ms %8.1f ms\n", text, ms, cpu);
    return ms;
}

/* bench-draw-plot TARGET [N]: that target alone, N times. */
static int one_target(FlDrawPlot *p, const char *name, int repeats)
{
    static const char *const targets[] = { "screen", "png", "pdf", "svg" };
    int target = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(name, targets[i]) == 0)
            target = i;
    if (target < 0 || repeats < 1 || repeats > MAX_REPEATS) {
        fprintf(stderr, "usage: bench-draw-plot [screen|png|pdf|svg [1..%d]]\n", MAX_REPEATS);
        return 2;
    }
    double w = 1280, h = 800, cpu;
    size_t bytes = 0;
    if (target != SCREEN)
        fl_draw_plot_for_paper(p, FL_DRAW_PAPER_DOUBLE_COLUMN, &w, &h);
    double ms = median_of(p, (Target)target, w, h, repeats, &cpu, &bytes);
    printf("%s: %.1f ms, CPU %.1f ms (medians of %d), %zu bytes\n", name, ms, cpu, repeats,
           bytes);
    return isnan(ms) ? 1 : 0;
}

int main(int argc, char **argv)
{
    static Data d;
    FlDrawPlot p;
    fill(&d, &p);
    /* The worst case: a marker and a bar at every point, however dense. */
    p.every_mark = 1;
    size_t bytes = 0;
    if (argc > 1)
        return one_target(&p, argv[1], argc > 2 ? atoi(argv[2]) : 20);
    printf("%d series x %d points = %d points with error bars, median of %d (bar: 100 ms)\n",
           SERIES, POINTS, SERIES * POINTS, REPEATS);
    printf("  %-48s %11s %11s\n", "", "wall", "CPU");
    row("screen, 1280x800 image surface:", &p, SCREEN, 1280, 800, &bytes);
    /* Where the time goes: the same without the error bars. */
    FlDrawPlot bare = p;
    for (int s = 0; s < SERIES; s++)
        bare.series[s].lo = bare.series[s].hi = NULL;
    row("  the same without error bars:", &bare, SCREEN, 1280, 800, &bytes);
    double w, h;
    fl_draw_plot_for_paper(&p, FL_DRAW_PAPER_DOUBLE_COLUMN, &w, &h);
    char what[96];
    snprintf(what, sizeof what, "paper, 2 columns, image at 300 dpi (%.0fx%.0f):",
             ceil(w * 300 / 72), ceil(h * 300 / 72));
    row(what, &p, PAPER_PNG, w, h, &bytes);
    double pdf = row("paper, 2 columns, PDF surface (%zu kB):", &p, PAPER_PDF, w, h, &bytes);
    double svg = row("paper, 2 columns, SVG surface (%zu kB):", &p, PAPER_SVG, w, h, &bytes);
    fl_draw_plot_for_paper(&bare, FL_DRAW_PAPER_DOUBLE_COLUMN, &w, &h);
    row("  PDF without error bars (%zu kB):", &bare, PAPER_PDF, w, h, &bytes);
    bare.style = FL_DRAW_PLOT_SCREEN;   /* no marker at every point */
    row("  ... nor a marker at every point (%zu kB):", &bare, PAPER_PDF, w, h, &bytes);
    /* What a figure draws by default: dense series as bands, markers spaced. */
    FlDrawPlot banded = p;
    banded.every_mark = 0;
    row("  PDF as drawn by default, bands (%zu kB):", &banded, PAPER_PDF, w, h, &bytes);
    return isnan(pdf) || isnan(svg) ? 1 : 0;
}
