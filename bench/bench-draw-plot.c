/* bench-draw-plot.c — how long a plot of 10,000 points takes to draw. Run by
 * hand (never as a timed test):
 *
 *     bench-draw-plot
 *
 * An FlDrawPlot of 8 series of 1,250 points each (load-latency curves
 * with 95 % error bars at every point) is drawn, median of REPEATS:
 * on screen into a 1280x800 cairo image surface (as the application's
 * preview), set up for a paper (fl_draw_plot_for_paper(), two columns)
 * into an image surface at 300 dpi (a PNG export) and into a PDF surface
 * written to memory, the surface finished (a PDF export without the
 * disk). The bar: under 100 ms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cairo-pdf.h>

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

typedef enum Target { SCREEN, PAPER_PNG, PAPER_PDF } Target;

/* One drawing of p on target, in ms; the PDF's size into *bytes. */
static double draw_once(const FlDrawPlot *p, Target target, double w, double h, size_t *bytes)
{
    double scale = target == PAPER_PNG ? 300.0 / 72 : 1;
    cairo_surface_t *s;
    double t0 = now_ms();
    if (target == PAPER_PDF)
        s = cairo_pdf_surface_create_for_stream(discard, bytes, w, h);
    else
        s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * scale),
                                       (int)ceil(h * scale));
    cairo_t *cr = cairo_create(s);
    cairo_scale(cr, scale, scale);
    fl_draw_plot(cr, p, w, h);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    double ms = now_ms() - t0;
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
        ms = NAN;
    cairo_surface_destroy(s);
    return ms;
}

static double median_ms(const FlDrawPlot *p, Target target, double w, double h, size_t *bytes)
{
    double t[REPEATS];
    draw_once(p, target, w, h, bytes);   /* warms cairo's caches (fonts) up */
    for (int i = 0; i < REPEATS; i++) {
        *bytes = 0;
        t[i] = draw_once(p, target, w, h, bytes);
    }
    qsort(t, REPEATS, sizeof *t, by_value);
    return t[REPEATS / 2];
}

int main(void)
{
    static Data d;
    FlDrawPlot p;
    fill(&d, &p);
    size_t bytes = 0;
    printf("%d series x %d points = %d points with error bars, median of %d (bar: 100 ms)\n",
           SERIES, POINTS, SERIES * POINTS, REPEATS);
    printf("  %-48s %8.1f ms\n", "screen, 1280x800 image surface:",
           median_ms(&p, SCREEN, 1280, 800, &bytes));
    /* Where the time goes: the same without the error bars. */
    FlDrawPlot bare = p;
    for (int s = 0; s < SERIES; s++)
        bare.series[s].lo = bare.series[s].hi = NULL;
    printf("  %-48s %8.1f ms\n", "  the same without error bars:",
           median_ms(&bare, SCREEN, 1280, 800, &bytes));
    double w, h;
    fl_draw_plot_for_paper(&p, FL_DRAW_PAPER_DOUBLE_COLUMN, &w, &h);
    char what[96];
    snprintf(what, sizeof what, "paper, 2 columns, image at 300 dpi (%.0fx%.0f):",
             ceil(w * 300 / 72), ceil(h * 300 / 72));
    printf("  %-48s %8.1f ms\n", what, median_ms(&p, PAPER_PNG, w, h, &bytes));
    double pdf = median_ms(&p, PAPER_PDF, w, h, &bytes);
    snprintf(what, sizeof what, "paper, 2 columns, PDF surface (%zu kB):", bytes / 1000);
    printf("  %-48s %8.1f ms\n", what, pdf);
    fl_draw_plot_for_paper(&bare, FL_DRAW_PAPER_DOUBLE_COLUMN, &w, &h);
    printf("  %-48s %8.1f ms\n", "  the same without error bars:",
           median_ms(&bare, PAPER_PDF, w, h, &bytes));
    bare.style = FL_DRAW_PLOT_SCREEN;   /* no marker at every point */
    printf("  %-48s %8.1f ms\n", "  ... nor a marker at every point:",
           median_ms(&bare, PAPER_PDF, w, h, &bytes));
    return isnan(pdf) ? 1 : 0;
}
