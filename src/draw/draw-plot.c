/* draw-plot.c — line plots in plain cairo: the live plots beside a running
 * simulation (accepted throughput and latency over simulated time, the
 * offered load as a reference line) and figures for papers, drawn by the
 * same code and exported through draw-export.c's atomic writer.
 *
 * The layout (margins from the measured tick labels, ranges widened to
 * nice ticks) is computed by one function for drawing and hit testing, so
 * a cursor maps back to the data exactly where the picture puts it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw-scene-private.h"

#define PAD  FL_DRAW_PAD
#define TICK FL_DRAW_TICK

/* The GNOME palette's strong colours, in an order where neighbours differ. */
static const int series_palette[] = {
    0x1c71d8, 0xe66100, 0x26a269, 0xc01c28, 0x813d9c, 0x865e3c, 0x241f31, 0xc88800,
};
#define NSERIES_PALETTE ((int)(sizeof series_palette / sizeof series_palette[0]))

void fl_draw_plot_init(FlDrawPlot *p)
{
    memset(p, 0, sizeof *p);
    p->y.include_zero = 1;
    p->legend = 1;
    p->cursor = NAN;
    for (int i = 0; i < FL_DRAW_PLOT_MAX_SERIES; i++)
        p->series[i].colour = -1;
    for (int i = 0; i < FL_DRAW_PLOT_MAX_REFS; i++)
        p->refs[i].colour = -1;
}

#define POINTS_PER_CM (72 / 2.54)

void fl_draw_plot_paper_size(FlDrawPaperColumns columns, double *width, double *height,
                             double *font)
{
    int two = columns == FL_DRAW_PAPER_DOUBLE_COLUMN;
    double w = (two ? 17.5 : 8.5) * POINTS_PER_CM;
    /* One column: 4:3. Two: flatter, so that the figure does not take
     * most of a page. */
    if (width)
        *width = w;
    if (height)
        *height = w * (two ? 0.4 : 0.75);
    if (font)
        *font = 8;
}

void fl_draw_plot_for_paper(FlDrawPlot *p, FlDrawPaperColumns columns, double *width,
                            double *height)
{
    p->style = FL_DRAW_PLOT_PRINT;
    p->legend_place = FL_DRAW_LEGEND_AUTO;
    fl_draw_plot_paper_size(columns, width, height, &p->font);
}

double fl_draw_plot_nice_step(double span, int n)
{
    if (!(span > 0) || !isfinite(span))
        return 1;
    double raw = span / (n > 0 ? n : 1);
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nice * mag;
}

/* The PRINT style's dash patterns in units of the line width: lengths of
 * dashes and gaps drawn with butt caps. */
static const struct {
    int n;
    double d[6];
} dashes[] = {
    [FL_DRAW_DASH_SOLID] = { 0, { 0 } },
    [FL_DRAW_DASH_DASHED] = { 2, { 5, 2.5 } },
    [FL_DRAW_DASH_DOTTED] = { 2, { 1.2, 2 } },
    [FL_DRAW_DASH_DASH_DOT] = { 4, { 5, 2, 1.2, 2 } },
    [FL_DRAW_DASH_LONG] = { 2, { 9, 3 } },
    [FL_DRAW_DASH_DASH_DOT_DOT] = { 6, { 5, 2, 1.2, 2, 1.2, 2 } },
    [FL_DRAW_DASH_DENSE] = { 2, { 2.5, 1.5 } },
    [FL_DRAW_DASH_DENSE_DOTTED] = { 2, { 0.8, 1.2 } },
};

/* The PRINT style of series i: filled and open shapes alternate, so that
 * neighbours differ even where the shapes are hard to tell apart. */
static const struct {
    FlDrawMarker marker;
    FlDrawDash dash;
} print_styles[FL_DRAW_PLOT_MAX_SERIES] = {
    { FL_DRAW_MARKER_CIRCLE, FL_DRAW_DASH_SOLID },
    { FL_DRAW_MARKER_SQUARE_OPEN, FL_DRAW_DASH_DASHED },
    { FL_DRAW_MARKER_TRIANGLE, FL_DRAW_DASH_DOTTED },
    { FL_DRAW_MARKER_DIAMOND_OPEN, FL_DRAW_DASH_DASH_DOT },
    { FL_DRAW_MARKER_CROSS, FL_DRAW_DASH_LONG },
    { FL_DRAW_MARKER_CIRCLE_OPEN, FL_DRAW_DASH_DASH_DOT_DOT },
    { FL_DRAW_MARKER_SQUARE, FL_DRAW_DASH_DENSE },
    { FL_DRAW_MARKER_PLUS, FL_DRAW_DASH_DENSE_DOTTED },
};

void fl_draw_plot_series_style(const FlDrawPlot *p, int s, FlDrawMarker *marker,
                               FlDrawDash *dash)
{
    FlDrawMarker m = FL_DRAW_MARKER_NONE;
    FlDrawDash d = FL_DRAW_DASH_SOLID;
    if (p->style == FL_DRAW_PLOT_PRINT && s >= 0) {
        m = print_styles[s % FL_DRAW_PLOT_MAX_SERIES].marker;
        d = print_styles[s % FL_DRAW_PLOT_MAX_SERIES].dash;
    } else if (s >= 0 && s < FL_DRAW_PLOT_MAX_SERIES && p->series[s].markers) {
        m = FL_DRAW_MARKER_CIRCLE;
    }
    if (marker)
        *marker = m;
    if (dash)
        *dash = d;
}

static int nseries(const FlDrawPlot *p)
{
    return p->nseries < 0 ? 0 : p->nseries > FL_DRAW_PLOT_MAX_SERIES ? FL_DRAW_PLOT_MAX_SERIES
                                                                     : p->nseries;
}

static int nrefs(const FlDrawPlot *p)
{
    return p->nrefs < 0 ? 0 : p->nrefs > FL_DRAW_PLOT_MAX_REFS ? FL_DRAW_PLOT_MAX_REFS : p->nrefs;
}

/* Whether v can be drawn on an axis: finite, and above 0 when log. */
static int on_axis(const FlDrawPlotAxis *a, double v)
{
    return isfinite(v) && (!a->log || v > 0);
}

/* Whether point i of a series is drawn. */
static int point_ok(const FlDrawPlot *p, const FlDrawPlotSeries *se, int i)
{
    return on_axis(&p->x, se->x[i]) && on_axis(&p->y, se->y[i]);
}

int fl__draw_plot_point_ok(const FlDrawPlot *p, const FlDrawPlotSeries *se, int i)
{
    return point_ok(p, se, i);
}

static void widen(const FlDrawPlotAxis *a, double v, double *lo, double *hi)
{
    if (on_axis(a, v)) {
        *lo = fmin(*lo, v);
        *hi = fmax(*hi, v);
    }
}

/* The range of the drawable data on one axis (y: the error bars' and the
 * refs' too). */
static void data_range(const FlDrawPlot *p, int yaxis, double *lo, double *hi)
{
    const FlDrawPlotAxis *a = yaxis ? &p->y : &p->x;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int s = 0; s < nseries(p); s++) {
        const FlDrawPlotSeries *se = &p->series[s];
        if (!se->x || !se->y)
            continue;
        for (int i = 0; i < se->n; i++) {
            if (!point_ok(p, se, i))
                continue;
            widen(a, yaxis ? se->y[i] : se->x[i], lo, hi);
            if (yaxis && se->lo)
                widen(a, se->lo[i], lo, hi);
            if (yaxis && se->hi)
                widen(a, se->hi[i], lo, hi);
        }
    }
    for (int r = 0; yaxis && r < nrefs(p); r++)
        widen(a, p->refs[r].y, lo, hi);
}

void fl__draw_axis_scale(double dlo, double dhi, int include_zero, double headroom, int n,
                         double *lo, double *hi, double *step)
{
    if (!(dlo <= dhi))
        dlo = 0, dhi = 1;
    if (include_zero)
        dlo = fmin(dlo, 0), dhi = fmax(dhi, 0);
    if (dhi - dlo < 1e-12 * fmax(1, fabs(dhi))) {
        double d = dhi != 0 ? fabs(dhi) * 0.5 : 1;
        dlo -= include_zero && dlo == 0 ? 0 : d;
        dhi += d;
    }
    dhi += (dhi - dlo) * headroom;
    *step = fl_draw_plot_nice_step(dhi - dlo, n);
    *lo = floor(dlo / *step + 1e-9) * *step;
    *hi = ceil(dhi / *step - 1e-9) * *step;
}

/* A log axis's range, widened to whole decades, and its step in decades
 * for at most about n labelled decades. */
static void log_scale(const FlDrawPlotAxis *a, double dlo, double dhi, int n, double *lo,
                      double *hi, double *step)
{
    double d0, d1;
    if (a->fixed && a->min > 0 && a->max > a->min) {
        d0 = log10(a->min);
        d1 = log10(a->max);
    } else {
        if (!(dlo <= dhi))
            dlo = 1, dhi = 10;
        d0 = floor(log10(dlo) + 1e-9);
        d1 = ceil(log10(dhi) - 1e-9);
        if (d1 <= d0)
            d1 = d0 + 1;
    }
    *lo = pow(10, d0);
    *hi = pow(10, d1);
    *step = fmax(1, ceil((d1 - d0) / (n > 0 ? n : 1)));
}

/* The ticks of a log axis from lo to hi, every step decades: powers of
 * ten, and 2 and 5 times them when the range is two decades or less. At
 * most max into v; returns how many. */
static int log_ticks(double lo, double hi, double step, double *v, int max)
{
    double d0 = log10(lo), d1 = log10(hi);
    int minor = d1 - d0 <= 2 + 1e-9, n = 0;
    for (double k = floor(d0 + 1e-9); k <= d1 + 1e-9 && n < max; k += step)
        for (int m = 0; m < (minor ? 3 : 1) && n < max; m++) {
            double t = (m == 0 ? 1 : m == 1 ? 2 : 5) * pow(10, k);
            if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9))
                v[n++] = t;
        }
    return n;
}

#define MAX_LOG_TICKS 64

/* The ticks of one axis of a layout: whole steps, or log_ticks(). */
static int axis_ticks(const FlDrawPlotLayout *l, int axis, double *v, int max)
{
    double lo = axis ? l->y0 : l->x0, hi = axis ? l->y1 : l->x1;
    double step = axis ? l->ystep : l->xstep;
    if (axis ? l->ylog : l->xlog)
        return log_ticks(lo, hi, step, v, max);
    int n = 0;
    for (double t = ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-6 && n < max; t += step)
        v[n++] = t;
    return n;
}

/* A tick's text; on a log axis with the decimals its own decade needs. */
static void tick_text(const FlDrawPlotLayout *l, int axis, double v, char *buf, size_t size)
{
    if (axis ? l->ylog : l->xlog)
        fl__draw_tick_text(v, pow(10, floor(log10(v) + 1e-9)), buf, size);
    else
        fl__draw_tick_text(v, axis ? l->ystep : l->xstep, buf, size);
}

/* An axis's range and step for about n ticks. */
static void scale_axis(const FlDrawPlot *p, const FlDrawPlotAxis *a, int yaxis, int n,
                       double *lo, double *hi, double *step)
{
    double dlo, dhi;
    if (a->log) {
        data_range(p, yaxis, &dlo, &dhi);
        log_scale(a, dlo, dhi, n, lo, hi, step);
        return;
    }
    if (a->fixed && isfinite(a->min) && isfinite(a->max) && a->max > a->min) {
        *lo = a->min;
        *hi = a->max;
        *step = fl_draw_plot_nice_step(*hi - *lo, n);
        return;
    }
    data_range(p, yaxis, &dlo, &dhi);
    /* On y, a little room above the highest point, so that a line there
     * (the offered load, a saturated throughput) is not hidden by the
     * frame. */
    fl__draw_axis_scale(dlo, dhi, a->include_zero, yaxis ? 0.04 : 0, n, lo, hi, step);
}

void fl__draw_tick_text(double v, double step, char *buf, size_t size)
{
    if (fabs(v) < step * 1e-6)
        v = 0;
    if (fabs(v) >= 1e6 || (v != 0 && fabs(v) < 1e-4)) {
        snprintf(buf, size, "%g", v);
        return;
    }
    int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    snprintf(buf, size, "%.*f", decimals, v);
}

static double font_size(const FlDrawPlot *p, double width, double height)
{
    return p->font > 0 ? p->font : clamp(fmin(width, height) / 28, 8, 14);
}

static const char *legend_name(const FlDrawPlot *p, int i)
{
    return i < nseries(p) ? p->series[i].name : p->refs[i - nseries(p)].label;
}

/* The legend's box size with the current font; 0 wide when it is empty. */
static void legend_size(cairo_t *cr, const FlDrawPlot *p, double font, double *w, double *h)
{
    int rows = 0;
    double widest = 0;
    cairo_text_extents_t te;
    for (int i = 0; i < nseries(p) + nrefs(p); i++) {
        const char *name = legend_name(p, i);
        if (!name || !*name)
            continue;
        cairo_text_extents(cr, name, &te);
        widest = fmax(widest, te.x_advance);
        rows++;
    }
    double line = font * 1.35, sample = font * 1.8, pad = font * 0.5;
    *w = rows ? pad + sample + pad + widest + pad : 0;
    *h = rows ? pad * 2 + line * rows : 0;
}

/* The legend's corner inside the plot area for place. */
static void legend_corner(FlDrawPlotLayout *l, FlDrawLegendPlace place)
{
    int right = place == FL_DRAW_LEGEND_TOP_RIGHT || place == FL_DRAW_LEGEND_BOTTOM_RIGHT;
    int bottom = place == FL_DRAW_LEGEND_BOTTOM_LEFT || place == FL_DRAW_LEGEND_BOTTOM_RIGHT;
    l->legend_place = place;
    l->legend_x = right ? l->right - 8 - l->legend_w : l->left + 8;
    l->legend_y = bottom ? l->bottom - 8 - l->legend_h : l->top + 8;
}

/* How many points of p (with their markers' size, m) the legend's box
 * covers. */
static int legend_covers(const FlDrawPlot *p, const FlDrawPlotLayout *l, double m)
{
    int covered = 0;
    for (int s = 0; s < nseries(p); s++) {
        const FlDrawPlotSeries *se = &p->series[s];
        for (int i = 0; se->x && se->y && i < se->n; i++) {
            double dx, dy;
            if (!point_ok(p, se, i))
                continue;
            fl_draw_plot_to_device(l, se->x[i], se->y[i], &dx, &dy);
            covered += dx >= l->legend_x - m && dx <= l->legend_x + l->legend_w + m &&
                       dy >= l->legend_y - m && dy <= l->legend_y + l->legend_h + m;
        }
    }
    return covered;
}

static double marker_radius(const FlDrawPlot *p, double font, double w)
{
    return p->style == FL_DRAW_PLOT_PRINT ? fmax(font * 0.3, w * 1.5) : w * 1.5;
}

static double line_width(const FlDrawPlot *p, const FlDrawPlotSeries *se)
{
    return se->width > 0 ? se->width : p->style == FL_DRAW_PLOT_PRINT ? 1 : 2;
}

/* Where the legend goes in a laid out plot: the place asked for, or with
 * AUTO the first inside corner covering no point, else outside on the
 * right when that leaves the plot area half the width or more (the x axis is
 * then scaled again for the narrower area), else a top corner with the y
 * axis grown to leave the legend a band above the data (not on a log or
 * fixed axis, nor when the band would take most of the height), else the
 * corner covering the fewest points. */
static void place_legend(cairo_t *cr, const FlDrawPlot *p, double width, double font,
                         FlDrawPlotLayout *l)
{
    if (!p->legend)
        return;
    legend_size(cr, p, font, &l->legend_w, &l->legend_h);
    if (l->legend_w <= 0)
        return;
    FlDrawLegendPlace place = p->legend_place;
    if (place == FL_DRAW_LEGEND_AUTO) {
        double m = marker_radius(p, font, p->style == FL_DRAW_PLOT_PRINT ? 1 : 2);
        int best = -1, fewest = 0;
        for (int c = FL_DRAW_LEGEND_TOP_LEFT; c <= FL_DRAW_LEGEND_BOTTOM_RIGHT; c++) {
            legend_corner(l, (FlDrawLegendPlace)c);
            int n = legend_covers(p, l, m);
            if (best < 0 || n < fewest)
                best = c, fewest = n;
            if (n == 0)
                break;
        }
        int room = l->legend_w + font * 1.5 <= (l->right - l->left) * 0.5;
        place = fewest > 0 && room ? FL_DRAW_LEGEND_OUTSIDE_RIGHT : (FlDrawLegendPlace)best;
        double need = (l->legend_h + 16) / (l->bottom - l->top);
        if (fewest > 0 && !room && !l->ylog && !p->y.fixed && need < 0.6) {
            /* Headroom: the y axis grows by whole ticks until every point
             * lies below the legend's band at the top. */
            double top = l->y0 + (l->y1 - l->y0) / (1 - need);
            l->y1 = l->y0 + ceil((top - l->y0) / l->ystep - 1e-9) * l->ystep;
            legend_corner(l, FL_DRAW_LEGEND_TOP_LEFT);
            int left = legend_covers(p, l, m);
            legend_corner(l, FL_DRAW_LEGEND_TOP_RIGHT);
            place = left <= legend_covers(p, l, m) ? FL_DRAW_LEGEND_TOP_LEFT
                                                   : FL_DRAW_LEGEND_TOP_RIGHT;
        }
    }
    if (place != FL_DRAW_LEGEND_OUTSIDE_RIGHT) {
        legend_corner(l, place);
        return;
    }
    l->legend_place = place;
    l->right = fmax(l->left + 1, width - PAD - l->legend_w - font);
    l->legend_x = l->right + font * 0.6;
    l->legend_y = l->top;
    int nx = (int)fmax(2, (l->right - l->left) / (font * 7));
    scale_axis(p, &p->x, 0, nx, &l->x0, &l->x1, &l->xstep);
}

/* Whether axis a keeps the range it was given (else it is autoscaled). */
static int fixed_range(const FlDrawPlotAxis *a)
{
    return a->fixed && isfinite(a->min) && isfinite(a->max) && a->max > a->min
           && (!a->log || a->min > 0);
}

/* The room an autoscaled x axis leaves at each end of the plot area (w
 * device units wide): as far as a marker or an error bar's cap reaches
 * from its point (the widest, a diamond, 1.2 times the radius and half its
 * outline; a cap, the radius and half its line), and a unit more so that
 * it clears the frame. 0 with a fixed range, or with lines alone. */
static double x_padding(const FlDrawPlot *p, double font, double w)
{
    double reach = 0;
    if (fixed_range(&p->x))
        return 0;
    for (int s = 0; s < nseries(p); s++) {
        const FlDrawPlotSeries *se = &p->series[s];
        FlDrawMarker m;
        fl_draw_plot_series_style(p, s, &m, NULL);
        double lw = line_width(p, se), r = marker_radius(p, font, lw);
        if (!se->x || !se->y || se->n <= 0)
            continue;
        if (m != FL_DRAW_MARKER_NONE)
            reach = fmax(reach, r * 1.2 + fmax(0.8, r * 0.35) / 2);
        if (se->lo || se->hi)
            reach = fmax(reach, r + fmax(0.6, lw * 0.75) / 2);
    }
    return reach > 0 ? fmin(reach + 1, w / 4) : 0;
}

/* The layout, measuring text with cr. */
static void layout(cairo_t *cr, const FlDrawPlot *p, double width, double height,
                   FlDrawPlotLayout *l)
{
    double font = font_size(p, width, height);
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, font);
    memset(l, 0, sizeof *l);
    l->xlog = p->x.log != 0;
    l->ylog = p->y.log != 0;
    l->top = PAD + (p->title && *p->title ? font * 1.8 : font * 0.6);
    l->bottom = height - PAD - font * 1.4 - TICK - (p->x.label && *p->x.label ? font * 1.5 : 0);
    int ny = (int)fmax(2, (l->bottom - l->top) / (font * 3.2));
    scale_axis(p, &p->y, 1, ny, &l->y0, &l->y1, &l->ystep);
    double widest = 0, ticks[MAX_LOG_TICKS];
    char text[64];
    if (l->ylog) {
        for (int i = 0, n = axis_ticks(l, 1, ticks, MAX_LOG_TICKS); i < n; i++) {
            cairo_text_extents_t te;
            tick_text(l, 1, ticks[i], text, sizeof text);
            cairo_text_extents(cr, text, &te);
            widest = fmax(widest, te.x_advance);
        }
    }
    for (double v = l->y0; !l->ylog && v <= l->y1 + l->ystep * 1e-6; v += l->ystep) {
        cairo_text_extents_t te;
        fl__draw_tick_text(v, l->ystep, text, sizeof text);
        cairo_text_extents(cr, text, &te);
        widest = fmax(widest, te.x_advance);
    }
    l->left = PAD + widest + TICK + 4 + (p->y.label && *p->y.label ? font * 1.5 : 0);
    l->right = width - PAD - font * 1.5;
    int nx = (int)fmax(2, (l->right - l->left) / (font * 7));
    scale_axis(p, &p->x, 0, nx, &l->x0, &l->x1, &l->xstep);
    if (l->right <= l->left)
        l->right = l->left + 1;
    if (l->bottom <= l->top)
        l->bottom = l->top + 1;
    l->xpad = x_padding(p, font, l->right - l->left);
    place_legend(cr, p, width, font, l);
    l->xpad = fmin(l->xpad, (l->right - l->left) / 4);
    cairo_restore(cr);
}

void fl_draw_plot_layout(const FlDrawPlot *p, double width, double height,
                         FlDrawPlotLayout *out)
{
    cairo_t *cr = fl__draw_path_collector();
    layout(cr, p, width, height, out);
    cairo_destroy(cr);
}

void fl_draw_plot_to_device(const FlDrawPlotLayout *l, double x, double y, double *dx,
                            double *dy)
{
    double u = l->xlog ? log10(x / l->x0) / log10(l->x1 / l->x0) : (x - l->x0) / (l->x1 - l->x0);
    double v = l->ylog ? log10(y / l->y0) / log10(l->y1 / l->y0) : (y - l->y0) / (l->y1 - l->y0);
    *dx = l->left + l->xpad + u * (l->right - l->left - 2 * l->xpad);
    *dy = l->bottom - v * (l->bottom - l->top);
}

int fl_draw_plot_hit_x(const FlDrawPlot *p, double width, double height, double px,
                       double *x)
{
    FlDrawPlotLayout l;
    fl_draw_plot_layout(p, width, height, &l);
    double u = (px - l.left - l.xpad) / (l.right - l.left - 2 * l.xpad);
    *x = l.xlog ? l.x0 * pow(l.x1 / l.x0, clamp(u, 0, 1)) : l.x0 + clamp(u, 0, 1) * (l.x1 - l.x0);
    return px >= l.left && px <= l.right;
}

static void set_hex(cairo_t *cr, int hex, double alpha)
{
    cairo_set_source_rgba(cr, (hex >> 16 & 0xff) / 255.0, (hex >> 8 & 0xff) / 255.0,
                          (hex & 0xff) / 255.0, alpha);
}

static int series_colour(const FlDrawPlot *p, int s)
{
    int c = p->series[s].colour;
    return c >= 0 ? c & 0xffffff : series_palette[s % NSERIES_PALETTE];
}

int fl__draw_plot_series_colour(const FlDrawPlot *p, int s)
{
    return series_colour(p, s);
}

static int ref_colour(const FlDrawPlotRef *r)
{
    return r->colour >= 0 ? r->colour & 0xffffff : 0x77767b;
}

void fl__draw_axis_ticks(cairo_t *cr, const FlDrawPlotLayout *l, int axis, const Colours *col,
                         double font)
{
    char text[64];
    cairo_text_extents_t te;
    double ticks[MAX_LOG_TICKS];
    int n = axis_ticks(l, axis, ticks, MAX_LOG_TICKS);
    cairo_set_line_width(cr, 1);
    for (int i = 0; i < n; i++) {
        double dx, dy, v = ticks[i];
        fl_draw_plot_to_device(l, axis ? l->x0 : v, axis ? v : l->y0, &dx, &dy);
        /* Crisp one-pixel lines on pixel centres. */
        double at = floor(axis ? dy : dx) + 0.5;
        cairo_set_source_rgba(cr, col->guide.r, col->guide.g, col->guide.b, 0.35);
        if (axis) {
            cairo_move_to(cr, l->left, at);
            cairo_line_to(cr, l->right, at);
        } else {
            cairo_move_to(cr, at, l->top);
            cairo_line_to(cr, at, l->bottom);
        }
        cairo_stroke(cr);
        set_colour(cr, col->text);
        if (axis) {
            cairo_move_to(cr, l->left - TICK, at);
            cairo_line_to(cr, l->left, at);
        } else {
            cairo_move_to(cr, at, l->bottom);
            cairo_line_to(cr, at, l->bottom + TICK);
        }
        cairo_stroke(cr);
        tick_text(l, axis, v, text, sizeof text);
        cairo_text_extents(cr, text, &te);
        if (axis)
            cairo_move_to(cr, l->left - TICK - 3 - te.x_advance, dy + font * 0.35);
        else
            cairo_move_to(cr, dx - te.x_advance / 2, l->bottom + TICK + font * 1.05);
        cairo_show_text(cr, text);
    }
}

void fl__draw_plot_frame(cairo_t *cr, const FlDrawPlotLayout *l, const Colours *col)
{
    set_colour(cr, col->text);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, floor(l->left) + 0.5, floor(l->top) + 0.5,
                    floor(l->right) - floor(l->left), floor(l->bottom) - floor(l->top));
    cairo_stroke(cr);
}

int fl__draw_plot_dash(FlDrawDash dash, double *out)
{
    for (int i = 0; i < dashes[dash].n; i++)
        out[i] = dashes[dash].d[i];
    return dashes[dash].n;
}

static void set_dash(cairo_t *cr, FlDrawDash dash, double w)
{
    double d[6];
    for (int i = 0; i < dashes[dash].n; i++)
        d[i] = dashes[dash].d[i] * fmax(w, 0.8);
    cairo_set_dash(cr, d, dashes[dash].n, 0);
    cairo_set_line_cap(cr, dash == FL_DRAW_DASH_SOLID ? CAIRO_LINE_CAP_ROUND
                                                     : CAIRO_LINE_CAP_BUTT);
}

static void polygon(cairo_t *cr, double x, double y, double r, int corners, double turn)
{
    for (int k = 0; k < corners; k++) {
        double a = turn + 2 * FL_PI * k / corners;
        if (k)
            cairo_line_to(cr, x + r * cos(a), y + r * sin(a));
        else
            cairo_move_to(cr, x + r * cos(a), y + r * sin(a));
    }
    cairo_close_path(cr);
}

static int open_marker(FlDrawMarker m)
{
    return m == FL_DRAW_MARKER_SQUARE_OPEN || m == FL_DRAW_MARKER_DIAMOND_OPEN ||
           m == FL_DRAW_MARKER_CIRCLE_OPEN;
}

/* Adds the outline of a marker of radius r at (x, y) to the path. */
static void marker_path(cairo_t *cr, FlDrawMarker m, double x, double y, double r)
{
    double q = r * 0.85;
    switch (m) {
    case FL_DRAW_MARKER_NONE:
        return;
    case FL_DRAW_MARKER_CIRCLE:
    case FL_DRAW_MARKER_CIRCLE_OPEN:
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, r, 0, 2 * FL_PI);
        return;
    case FL_DRAW_MARKER_SQUARE:
    case FL_DRAW_MARKER_SQUARE_OPEN:
        cairo_rectangle(cr, x - q, y - q, 2 * q, 2 * q);
        return;
    case FL_DRAW_MARKER_TRIANGLE:
        polygon(cr, x, y + r * 0.2, r * 1.2, 3, -FL_PI / 2);
        return;
    case FL_DRAW_MARKER_DIAMOND_OPEN:
        polygon(cr, x, y, r * 1.2, 4, 0);
        return;
    case FL_DRAW_MARKER_CROSS:
    case FL_DRAW_MARKER_PLUS: {
        double a = m == FL_DRAW_MARKER_CROSS ? q : r * 1.15;
        double b = m == FL_DRAW_MARKER_CROSS ? q : 0;
        cairo_move_to(cr, x - a, y - b);
        cairo_line_to(cr, x + a, y + b);
        cairo_move_to(cr, x - b, y + a);
        cairo_line_to(cr, x + b, y - a);
        return;
    }
    }
}

/* Paints the markers of kind m and radius r in the path, in the current
 * colour, and clears the path; open shapes are filled with the background
 * first, so that a line does not run through them. */
static void paint_markers(cairo_t *cr, FlDrawMarker m, double r, const Colours *col)
{
    if (m == FL_DRAW_MARKER_CROSS || m == FL_DRAW_MARKER_PLUS) {
        cairo_save(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
        cairo_set_line_width(cr, fmax(1, r * 0.45));
        cairo_stroke(cr);
        cairo_restore(cr);
        return;
    }
    if (!open_marker(m)) {
        cairo_fill(cr);
        return;
    }
    cairo_save(cr);
    cairo_pattern_t *ink = cairo_get_source(cr);
    cairo_pattern_reference(ink);
    set_colour(cr, col->background);
    cairo_fill_preserve(cr);
    cairo_set_source(cr, ink);
    cairo_pattern_destroy(ink);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_line_width(cr, fmax(0.8, r * 0.35));
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* One marker of radius r at (x, y) in the current colour. */
static void draw_marker(cairo_t *cr, FlDrawMarker m, double x, double y, double r,
                        const Colours *col)
{
    cairo_new_path(cr);
    if (m == FL_DRAW_MARKER_NONE)
        return;
    marker_path(cr, m, x, y, r);
    paint_markers(cr, m, r, col);
}

/* Cairo's stroker and filler slow down more than linearly with the size of
 * a path, and a PDF pays for every operation: marks go out in batches of
 * this many. */
#define MARK_BATCH 16

/* Whether a mark reaching m around the box x0..x1, y0..y1 misses the plot
 * area (the clip), so that drawing it would change nothing. */
static int off_plot(const FlDrawPlotLayout *l, double x0, double x1, double y0, double y1,
                    double m)
{
    return fmax(x0, x1) + m < l->left || fmin(x0, x1) - m > l->right
           || fmax(y0, y1) + m < l->top || fmin(y0, y1) - m > l->bottom;
}

/* A marker on an image is painted from a small image of it (a stamp) drawn
 * at the same fraction of a pixel, one stamp per fraction in steps of
 * 1/STAMP_STEPS: compositing is associative, so a stamp of the background
 * fill and the outline puts down the pixels that filling and stroking there
 * would, within 1/16 of a pixel. Cairo's costs per operation dominate
 * otherwise. */
#define STAMP_STEPS 8

typedef struct Stamps {
    cairo_surface_t *img[STAMP_STEPS * STAMP_STEPS];
    cairo_matrix_t ctm;
    int half;                /* the stamp is 2 half + 2 pixels square */
} Stamps;

/* Whether markers in cr's target can be stamped: an image, drawn at the
 * same scale in x and y without rotation. */
static int stamps_init(Stamps *st, cairo_t *cr, double r)
{
    memset(st, 0, sizeof *st);
    cairo_get_matrix(cr, &st->ctm);
    if (cairo_surface_get_type(cairo_get_target(cr)) != CAIRO_SURFACE_TYPE_IMAGE
        || st->ctm.xy != 0 || st->ctm.yx != 0 || st->ctm.xx != st->ctm.yy
        || st->ctm.xx <= 0)
        return 0;
    st->half = (int)ceil((r * 1.2 + fmax(0.8, r * 0.35)) * st->ctm.xx) + 2;
    return st->half < 64;
}

static void stamps_clear(Stamps *st)
{
    for (int k = 0; k < STAMP_STEPS * STAMP_STEPS; k++)
        if (st->img[k])
            cairo_surface_destroy(st->img[k]);
}

/* Paints marker m of radius r at (x, y) in user space from its stamp. */
static void stamp_marker(cairo_t *cr, Stamps *st, FlDrawMarker m, double x, double y, double r,
                         const Colours *col)
{
    double ux = x, uy = y;
    cairo_matrix_transform_point(&st->ctm, &ux, &uy);
    double qx = floor(ux * STAMP_STEPS + 0.5), qy = floor(uy * STAMP_STEPS + 0.5);
    double ix = floor(qx / STAMP_STEPS), iy = floor(qy / STAMP_STEPS);
    int fx = (int)(qx - ix * STAMP_STEPS), fy = (int)(qy - iy * STAMP_STEPS);
    int size = 2 * st->half + 2;
    cairo_surface_t **img = &st->img[fy * STAMP_STEPS + fx];
    if (!*img) {
        *img = cairo_surface_create_similar_image(cairo_get_target(cr), CAIRO_FORMAT_ARGB32,
                                                  size, size);
        cairo_t *sc = cairo_create(*img);
        cairo_set_source(sc, cairo_get_source(cr));
        cairo_set_line_join(sc, cairo_get_line_join(cr));
        cairo_set_line_cap(sc, cairo_get_line_cap(cr));
        cairo_set_antialias(sc, cairo_get_antialias(cr));
        cairo_translate(sc, st->half + (double)fx / STAMP_STEPS,
                        st->half + (double)fy / STAMP_STEPS);
        cairo_scale(sc, st->ctm.xx, st->ctm.yy);
        marker_path(sc, m, 0, 0, r);
        paint_markers(sc, m, r, col);
        cairo_destroy(sc);
    }
    cairo_save(cr);
    cairo_identity_matrix(cr);
    cairo_set_source_surface(cr, *img, ix - st->half, iy - st->half);
    cairo_rectangle(cr, ix - st->half, iy - st->half, size, size);
    cairo_fill(cr);
    cairo_restore(cr);
}

/* Set on a surface by fl__draw_plot_as_document(). */
static const cairo_user_data_key_t as_document;

/* Whether cr draws into a PDF, PostScript or SVG document, where cairo
 * pays for every operation (it records, analyses and then writes each, a
 * clip with it when the mark crosses the clip's edge) and for every byte
 * of the page (printed numbers, deflated in a PDF). */
static int paged(cairo_t *cr)
{
    cairo_surface_t *target = cairo_get_target(cr);
    cairo_surface_type_t t = cairo_surface_get_type(target);
    return t == CAIRO_SURFACE_TYPE_PDF || t == CAIRO_SURFACE_TYPE_PS
           || t == CAIRO_SURFACE_TYPE_SVG || cairo_surface_get_user_data(target, &as_document);
}

void fl__draw_plot_as_document(cairo_surface_t *s)
{
    cairo_surface_set_user_data(s, &as_document, s, NULL);
}

/* In a document, a marker is drawn once into a recording surface (a
 * sprite) and that is painted at every point: the document holds the shape
 * once (a PDF XObject, an SVG symbol) and each point is a reference to it
 * with an offset, in the same order as the shapes would be drawn, so that
 * each still hides the parts of those before it. The references go out in
 * groups of SPRITE_GROUP drawn without the clip and painted through it:
 * each crossing the clip's edge would otherwise take a clip of its own, and
 * cairo's analysis of a page slows down with the number of marks on it. */
#define SPRITE_GROUP 256

typedef struct Sprite {
    cairo_pattern_t *shape;
    cairo_matrix_t ctm;      /* the drawing's, at the series' start */
    double half;             /* the shape's centre in the sprite, device units */
    int n;                   /* references in the group being drawn */
} Sprite;

/* The sprite of marker m of radius r in cr's colour, line join and cap,
 * drawn in device units (as a path in cr would be flattened), centred in
 * a square whose corner is at the origin (cairo's SVG writer misplaces a
 * recording whose extents start elsewhere). */
static void sprite_init(Sprite *sp, cairo_t *cr, FlDrawMarker m, double r, const Colours *col)
{
    cairo_get_matrix(cr, &sp->ctm);
    sp->n = 0;
    double e = r * 1.2 + fmax(0.8, r * 0.35) + 1;
    cairo_matrix_t linear = sp->ctm;
    linear.x0 = linear.y0 = 0;
    sp->half = ceil(e * (fabs(linear.xx) + fabs(linear.xy) + fabs(linear.yx) + fabs(linear.yy)));
    cairo_rectangle_t ext = { 0, 0, 2 * sp->half, 2 * sp->half };
    cairo_surface_t *rec = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &ext);
    cairo_t *sc = cairo_create(rec);
    cairo_translate(sc, sp->half, sp->half);
    cairo_transform(sc, &linear);
    cairo_set_source(sc, cairo_get_source(cr));
    cairo_set_line_join(sc, cairo_get_line_join(cr));
    cairo_set_line_cap(sc, cairo_get_line_cap(cr));
    cairo_set_line_width(sc, cairo_get_line_width(cr));
    marker_path(sc, m, 0, 0, r);
    paint_markers(sc, m, r, col);
    cairo_destroy(sc);
    sp->shape = cairo_pattern_create_for_surface(rec);
    cairo_surface_destroy(rec);
}

static void sprite_keep(cairo_t *cr, cairo_pattern_t *shape);

/* Paints the group being drawn through the clip. */
static void sprite_flush(cairo_t *cr, Sprite *sp)
{
    if (sp->n == 0)
        return;
    cairo_pattern_t *group = cairo_pop_group(cr);
    cairo_set_source(cr, group);
    cairo_paint(cr);
    sprite_keep(cr, group);
    sp->n = 0;
}

/* The sprite at (x, y) in user space, its offset rounded to 1/1000 of a
 * device unit (a PDF holds fewer digits; cairo keeps paths to 1/256). */
static void sprite_paint(cairo_t *cr, Sprite *sp, double x, double y)
{
    if (sp->n == 0) {
        cairo_push_group(cr);
        cairo_reset_clip(cr);
    }
    cairo_matrix_transform_point(&sp->ctm, &x, &y);
    cairo_matrix_t at = sp->ctm;
    at.x0 -= round(x * 1000) / 1000 - sp->half;
    at.y0 -= round(y * 1000) / 1000 - sp->half;
    cairo_pattern_set_matrix(sp->shape, &at);
    cairo_set_source(cr, sp->shape);
    cairo_paint(cr);
    if (++sp->n == SPRITE_GROUP)
        sprite_flush(cr, sp);
}

/* The sprites a document's page refers to, kept with its surface. */
typedef struct SpriteKeep {
    cairo_pattern_t **shapes;
    int n, cap;
} SpriteKeep;

static const cairo_user_data_key_t sprite_keep_key;

static void sprite_keep_free(void *data)
{
    SpriteKeep *k = data;
    for (int i = 0; i < k->n; i++)
        cairo_pattern_destroy(k->shapes[i]);
    free(k->shapes);
    free(k);
}

/* Hands shape (a sprite or a group of them) over to cr's target, which
 * destroys it with itself. A surface destroyed while a document's page
 * still refers to it is copied first, and cairo's SVG writer never frees
 * that copy: kept alive until the document is written, it needs none. */
static void sprite_keep(cairo_t *cr, cairo_pattern_t *shape)
{
    cairo_surface_t *target = cairo_get_target(cr);
    SpriteKeep *k = cairo_surface_get_user_data(target, &sprite_keep_key);
    if (!k && (k = calloc(1, sizeof *k))
        && cairo_surface_set_user_data(target, &sprite_keep_key, k, sprite_keep_free)) {
        free(k);
        k = NULL;
    }
    if (k && k->n == k->cap) {
        int cap = k->cap ? 2 * k->cap : 8;
        cairo_pattern_t **grown = realloc(k->shapes, sizeof *grown * (size_t)cap);
        if (grown) {
            k->shapes = grown;
            k->cap = cap;
        }
    }
    if (k && k->n < k->cap)
        k->shapes[k->n++] = shape;
    else
        cairo_pattern_destroy(shape);
}

static void sprite_clear(cairo_t *cr, Sprite *sp)
{
    sprite_flush(cr, sp);
    sprite_keep(cr, sp->shape);
}

/* Series s's markers in the print style, one after the other as each may
 * hide a part of those before it: stamped on an image; in a document,
 * sprites; in other vector output (a recording), filled and stroked
 * shapes go out in batches (which cover the same area in the same colour)
 * and open ones one by one. */
static void draw_print_markers(cairo_t *cr, const FlDrawPlot *p, const FlDrawPlotLayout *l,
                               int s, FlDrawMarker m, double r, const Colours *col, int every)
{
    const FlDrawPlotSeries *se = &p->series[s];
    int batch = open_marker(m) ? 1 : MARK_BATCH, n = 0;
    if (m == FL_DRAW_MARKER_NONE)
        return;
    Stamps st;
    Sprite sp;
    int sprite = paged(cr), stamp = !sprite && stamps_init(&st, cr, r);
    cairo_pattern_t *ink = cairo_pattern_reference(cairo_get_source(cr));
    if (sprite)
        sprite_init(&sp, cr, m, r, col);
    cairo_new_path(cr);
    for (int i = 0; i < se->n; i++) {
        double dx, dy;
        if (!point_ok(p, se, i) || (i + s * every / (nseries(p) + 1)) % every != 0)
            continue;
        fl_draw_plot_to_device(l, se->x[i], se->y[i], &dx, &dy);
        if (off_plot(l, dx, dx, dy, dy, r * 1.5 + 2))
            continue;
        if (stamp) {
            stamp_marker(cr, &st, m, dx, dy, r, col);
            continue;
        }
        if (sprite) {
            sprite_paint(cr, &sp, dx, dy);
            continue;
        }
        marker_path(cr, m, dx, dy, r);
        if (++n == batch) {
            paint_markers(cr, m, r, col);
            n = 0;
        }
    }
    if (n)
        paint_markers(cr, m, r, col);
    if (stamp)
        stamps_clear(&st);
    if (sprite)
        sprite_clear(cr, &sp);
    cairo_set_source(cr, ink);
    cairo_pattern_destroy(ink);
    cairo_new_path(cr);
}

/* The caps of a series' error bars being drawn. In a document the bars of
 * a series are one stroke, which paints the union of its lines: a cap at
 * the same height (to cairo's precision, 1/256 of a device unit) as the
 * one before it on the same side and overlapping it only lengthens it,
 * and changes nothing if drawn so. Dense bars in a flat stretch of a curve
 * then take one line per side instead of one per point. */
typedef struct Caps {
    int merge;               /* a document, not rotated, no dash */
    cairo_matrix_t ctm;
    struct {
        int open;
        double x0, x1, y, fixed;
    } run[2];                /* at lo, at hi */
} Caps;

static void caps_init(Caps *c, cairo_t *cr, int doc)
{
    memset(c, 0, sizeof *c);
    cairo_get_matrix(cr, &c->ctm);
    c->merge = doc && c->ctm.xy == 0 && c->ctm.yx == 0 && cairo_get_dash_count(cr) == 0;
}

static void caps_flush(cairo_t *cr, Caps *c, int side)
{
    if (!c->run[side].open)
        return;
    cairo_move_to(cr, c->run[side].x0, c->run[side].y);
    cairo_line_to(cr, c->run[side].x1, c->run[side].y);
    c->run[side].open = 0;
}

/* A cap from x0 to x1 at y on side 0 (lo) or 1 (hi). */
static void caps_add(cairo_t *cr, Caps *c, int side, double x0, double x1, double y)
{
    if (!c->merge) {
        cairo_move_to(cr, x0, y);
        cairo_line_to(cr, x1, y);
        return;
    }
    double fixed = nearbyint((c->ctm.yy * y + c->ctm.y0) * 256);
    if (c->run[side].open && fixed == c->run[side].fixed && x0 <= c->run[side].x1
        && x1 >= c->run[side].x0) {
        c->run[side].x0 = fmin(c->run[side].x0, x0);
        c->run[side].x1 = fmax(c->run[side].x1, x1);
        return;
    }
    caps_flush(cr, c, side);
    c->run[side].open = 1;
    c->run[side].x0 = x0;
    c->run[side].x1 = x1;
    c->run[side].y = y;
    c->run[side].fixed = fixed;
}

/* Series s's error bars: a vertical line from lo to hi with caps as wide
 * as its markers; on an image in batches, in a document one stroke. */
static void draw_error_bars(cairo_t *cr, const FlDrawPlot *p, const FlDrawPlotLayout *l, int s,
                            double cap)
{
    const FlDrawPlotSeries *se = &p->series[s];
    double lw = cairo_get_line_width(cr), m = cap + lw + 1;
    int n = 0, doc = paged(cr);
    Caps caps;
    caps_init(&caps, cr, doc);
    cairo_new_path(cr);
    for (int i = 0; i < se->n; i++) {
        double x, y0, y1, lo = se->lo ? se->lo[i] : se->y[i], hi = se->hi ? se->hi[i] : se->y[i];
        if (!point_ok(p, se, i) || !isfinite(lo) || !isfinite(hi))
            continue;
        /* A bar reaching 0 or below on a log axis runs off the bottom. */
        fl_draw_plot_to_device(l, se->x[i], on_axis(&p->y, lo) ? lo : l->y0 * 1e-3, &x, &y0);
        fl_draw_plot_to_device(l, se->x[i], hi, &x, &y1);
        if (off_plot(l, x, x, y0, y1, m))
            continue;
        /* A bar no longer than the line is wide lies within the strokes
         * of its caps (at least as wide as the line): in one stroke it
         * changes nothing. */
        if (!doc || cap < lw / 2 || fabs(y1 - y0) > lw * 0.9) {
            cairo_move_to(cr, x, y0);
            cairo_line_to(cr, x, y1);
        }
        caps_add(cr, &caps, 0, x - cap, x + cap, y0);
        caps_add(cr, &caps, 1, x - cap, x + cap, y1);
        if (!doc && ++n == MARK_BATCH) {
            cairo_stroke(cr);
            n = 0;
        }
    }
    caps_flush(cr, &caps, 0);
    caps_flush(cr, &caps, 1);
    cairo_stroke(cr);
}

/* Points of a series closer than this many marker widths apart on average
 * are dense: a marker and a bar at each would merge into a smear. */
#define DENSE_SPACING 1.5

/* 1 for a series whose points are far enough apart for a mark at each
 * (or for every mark asked, or on screen); for a dense one in print, every how many points a mark
 * goes so that marks keep DENSE_SPACING marker widths apart. */
static int mark_every(const FlDrawPlot *p, const FlDrawPlotLayout *l, int s, double font)
{
    const FlDrawPlotSeries *se = &p->series[s];
    double r = marker_radius(p, font, line_width(p, se));
    int on = 0;
    if (p->every_mark || p->style != FL_DRAW_PLOT_PRINT)
        return 1;
    for (int i = 0; i < se->n; i++)
        on += point_ok(p, se, i);
    double room = (l->right - l->left) / (DENSE_SPACING * 2 * r);
    return on > room && room >= 1 ? (int)ceil(on / room) : 1;
}

int fl__draw_plot_mark_every(const FlDrawPlot *p, const FlDrawPlotLayout *l, int s,
                             double width, double height)
{
    return mark_every(p, l, s, font_size(p, width, height));
}

/* A dense series' 95 % intervals as a band: a light fill between lo and
 * hi along the curve, broken where a point is missing, instead of a bar
 * at every point. */
static void draw_band(cairo_t *cr, const FlDrawPlot *p, const FlDrawPlotLayout *l, int s)
{
    const FlDrawPlotSeries *se = &p->series[s];
    set_hex(cr, series_colour(p, s), 0.22);
    for (int i = 0; i < se->n;) {
        int j = i;
        while (j < se->n && point_ok(p, se, j) && se->lo && se->hi && isfinite(se->lo[j])
               && isfinite(se->hi[j]) && on_axis(&p->y, se->lo[j]))
            j++;
        if (j - i >= 2) {
            double x, y;
            cairo_new_path(cr);
            for (int k = i; k < j; k++) {
                fl_draw_plot_to_device(l, se->x[k], se->lo[k], &x, &y);
                cairo_line_to(cr, x, y);
            }
            for (int k = j - 1; k >= i; k--) {
                fl_draw_plot_to_device(l, se->x[k], se->hi[k], &x, &y);
                cairo_line_to(cr, x, y);
            }
            cairo_close_path(cr);
            cairo_fill(cr);
        }
        i = j > i ? j : i + 1;
    }
    set_hex(cr, series_colour(p, s), 1);
}

static void draw_series(cairo_t *cr, const FlDrawPlot *p, const FlDrawPlotLayout *l,
                        const Colours *col, double font)
{
    cairo_save(cr);
    cairo_rectangle(cr, l->left, l->top, l->right - l->left, l->bottom - l->top);
    cairo_clip(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (int r = 0; r < nrefs(p); r++) {
        const FlDrawPlotRef *ref = &p->refs[r];
        double dx, dy, dash[] = { 6, 4 };
        if (!isfinite(ref->y))
            continue;
        fl_draw_plot_to_device(l, l->x0, ref->y, &dx, &dy);
        dy = round(dy); /* two whole pixels: crisp */
        set_hex(cr, ref_colour(ref), 1);
        cairo_set_line_width(cr, 2);
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, l->left, dy);
        cairo_line_to(cr, l->right, dy);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        if (ref->label && *ref->label) {
            cairo_text_extents_t te;
            cairo_text_extents(cr, ref->label, &te);
            cairo_move_to(cr, l->right - te.x_advance - 4, dy - 4);
            cairo_show_text(cr, ref->label);
        }
    }
    for (int s = 0; s < nseries(p); s++) {
        const FlDrawPlotSeries *se = &p->series[s];
        if (!se->x || !se->y)
            continue;
        double w = line_width(p, se), r = marker_radius(p, font, w);
        FlDrawMarker marker;
        FlDrawDash dash;
        fl_draw_plot_series_style(p, s, &marker, &dash);
        int every = mark_every(p, l, s, font);
        set_hex(cr, series_colour(p, s), 1);
        if ((se->lo || se->hi) && every > 1) {
            draw_band(cr, p, l, s);
        } else if (se->lo || se->hi) {
            cairo_set_line_width(cr, fmax(0.6, w * 0.75));
            draw_error_bars(cr, p, l, s, r);
        }
        cairo_new_path(cr);
        int down = 0;
        for (int i = 0; i < se->n; i++) {
            double dx, dy;
            if (!point_ok(p, se, i)) {
                down = 0;
                continue;
            }
            fl_draw_plot_to_device(l, se->x[i], se->y[i], &dx, &dy);
            if (down)
                cairo_line_to(cr, dx, dy);
            else
                cairo_move_to(cr, dx, dy);
            down = 1;
        }
        set_hex(cr, series_colour(p, s), 1);
        cairo_set_line_width(cr, w);
        if (p->style == FL_DRAW_PLOT_PRINT)
            set_dash(cr, dash, w);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        if (p->style == FL_DRAW_PLOT_PRINT) {
            draw_print_markers(cr, p, l, s, marker, r, col, every);
            continue;
        }
        if (!se->markers)
            continue;
        for (int i = 0; i < se->n; i++) {
            double dx, dy;
            if (!point_ok(p, se, i))
                continue;
            fl_draw_plot_to_device(l, se->x[i], se->y[i], &dx, &dy);
            cairo_new_sub_path(cr);
            cairo_arc(cr, dx, dy, w * 1.5, 0, 2 * FL_PI);
        }
        cairo_fill(cr);
    }
    cairo_restore(cr);
}

/* The names of the series and refs, with a sample of each line (and its
 * marker in print), in the box the layout placed. */
static void draw_legend(cairo_t *cr, const FlDrawPlot *p, const FlDrawPlotLayout *l,
                        const Colours *col, double font)
{
    if (l->legend_w <= 0)
        return;
    double line = font * 1.35, sample = font * 1.8, pad = font * 0.5;
    double x = l->legend_x, y = l->legend_y;
    fl__draw_legend_box(cr, col, x, y, l->legend_w, l->legend_h);
    int row = 0;
    for (int i = 0; i < nseries(p) + nrefs(p); i++) {
        int is_ref = i >= nseries(p);
        const char *name = legend_name(p, i);
        if (!name || !*name)
            continue;
        double cy = y + pad + line * (row++ + 0.5), dash[] = { 6, 4 };
        set_hex(cr, is_ref ? ref_colour(&p->refs[i - nseries(p)]) : series_colour(p, i), 1);
        FlDrawMarker marker = FL_DRAW_MARKER_NONE;
        FlDrawDash style = FL_DRAW_DASH_SOLID;
        double w = is_ref ? 1.5 : 2;
        cairo_save(cr);
        if (!is_ref && p->style == FL_DRAW_PLOT_PRINT) {
            fl_draw_plot_series_style(p, i, &marker, &style);
            w = line_width(p, &p->series[i]);
            set_dash(cr, style, w);
        } else {
            cairo_set_dash(cr, dash, is_ref ? 2 : 0, 0);
        }
        cairo_set_line_width(cr, w);
        cairo_move_to(cr, x + pad, cy);
        cairo_line_to(cr, x + pad + sample, cy);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        draw_marker(cr, marker, x + pad + sample / 2, cy, marker_radius(p, font, w), col);
        cairo_restore(cr);
        set_colour(cr, col->text);
        cairo_move_to(cr, x + pad * 2 + sample, cy + font * 0.35);
        cairo_show_text(cr, name);
    }
}

/* Sets cr's font to size, or smaller so that text is at most room long
 * (an axis label with its unit fits beside its axis); te: its extents. */
static void fit_text(cairo_t *cr, const char *text, double size, double room,
                     cairo_text_extents_t *te)
{
    cairo_set_font_size(cr, size);
    cairo_text_extents(cr, text, te);
    if (te->x_advance > room && room > 0) {
        cairo_set_font_size(cr, fmax(1, size * room / te->x_advance));
        cairo_text_extents(cr, text, te);
    }
}

void fl_draw_plot(cairo_t *cr, const FlDrawPlot *p, double width, double height)
{
    if (!cr || !p || !(width > 0) || !(height > 0))
        return;
    const Colours *col = fl__draw_colours(p->dark);
    double font = font_size(p, width, height);
    FlDrawPlotLayout l;
    layout(cr, p, width, height, &l);
    fl__draw_plot_begin(cr, col, width, height, font);
    fl__draw_axis_ticks(cr, &l, 0, col, font);
    fl__draw_axis_ticks(cr, &l, 1, col, font);
    fl__draw_plot_frame(cr, &l, col);
    draw_series(cr, p, &l, col, font);
    if (isfinite(p->cursor) && p->cursor >= l.x0 && p->cursor <= l.x1) {
        double dx, dy;
        fl_draw_plot_to_device(&l, p->cursor, l.y0, &dx, &dy);
        set_colour(cr, col->text);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, floor(dx) + 0.5, l.top);
        cairo_line_to(cr, floor(dx) + 0.5, l.bottom);
        cairo_stroke(cr);
    }
    if (p->legend)
        draw_legend(cr, p, &l, col, font);
    set_colour(cr, col->text);
    if (p->y.label && *p->y.label) {
        cairo_text_extents_t te;
        cairo_save(cr);
        fit_text(cr, p->y.label, font, l.bottom - l.top, &te);
        cairo_translate(cr, PAD + font, (l.top + l.bottom + te.x_advance) / 2);
        cairo_rotate(cr, -FL_PI / 2);
        cairo_move_to(cr, 0, 0);
        cairo_show_text(cr, p->y.label);
        cairo_restore(cr);
    }
    fl__draw_plot_captions(cr, &l, col, font, height, p->x.label, p->title);
    cairo_restore(cr);
}

void fl__draw_plot_begin(cairo_t *cr, const Colours *col, double width, double height,
                         double font)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, width, height);
    cairo_clip(cr);
    set_colour(cr, col->background);
    cairo_paint(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, font);
}

void fl__draw_plot_captions(cairo_t *cr, const FlDrawPlotLayout *l, const Colours *col,
                            double font, double height, const char *xlabel, const char *title)
{
    cairo_text_extents_t te;
    set_colour(cr, col->text);
    if (xlabel && *xlabel) {
        cairo_save(cr);
        fit_text(cr, xlabel, font, l->right - l->left, &te);
        cairo_move_to(cr, (l->left + l->right - te.x_advance) / 2, height - PAD - font * 0.2);
        cairo_show_text(cr, xlabel);
        cairo_restore(cr);
    }
    if (title && *title) {
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        fit_text(cr, title, font * 1.15, l->right - l->left, &te);
        cairo_move_to(cr, (l->left + l->right - te.x_advance) / 2, PAD + font * 1.15);
        cairo_show_text(cr, title);
    }
}
