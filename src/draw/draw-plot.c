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

static int nseries(const FlDrawPlot *p)
{
    return p->nseries < 0 ? 0 : p->nseries > FL_DRAW_PLOT_MAX_SERIES ? FL_DRAW_PLOT_MAX_SERIES
                                                                     : p->nseries;
}

static int nrefs(const FlDrawPlot *p)
{
    return p->nrefs < 0 ? 0 : p->nrefs > FL_DRAW_PLOT_MAX_REFS ? FL_DRAW_PLOT_MAX_REFS : p->nrefs;
}

/* The finite range of the data on one axis (y: the refs' too). */
static void data_range(const FlDrawPlot *p, int yaxis, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int s = 0; s < nseries(p); s++) {
        const FlDrawPlotSeries *se = &p->series[s];
        if (!se->x || !se->y)
            continue;
        for (int i = 0; i < se->n; i++) {
            double v = yaxis ? se->y[i] : se->x[i];
            if (isfinite(se->x[i]) && isfinite(se->y[i])) {
                *lo = fmin(*lo, v);
                *hi = fmax(*hi, v);
            }
        }
    }
    for (int r = 0; yaxis && r < nrefs(p); r++)
        if (isfinite(p->refs[r].y)) {
            *lo = fmin(*lo, p->refs[r].y);
            *hi = fmax(*hi, p->refs[r].y);
        }
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

/* An axis's range and step for about n ticks. */
static void scale_axis(const FlDrawPlot *p, const FlDrawPlotAxis *a, int yaxis, int n,
                       double *lo, double *hi, double *step)
{
    if (a->fixed && isfinite(a->min) && isfinite(a->max) && a->max > a->min) {
        *lo = a->min;
        *hi = a->max;
        *step = fl_draw_plot_nice_step(*hi - *lo, n);
        return;
    }
    double dlo, dhi;
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

/* The layout, measuring text with cr. */
static void layout(cairo_t *cr, const FlDrawPlot *p, double width, double height,
                   FlDrawPlotLayout *l)
{
    double font = font_size(p, width, height);
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, font);
    l->top = PAD + (p->title && *p->title ? font * 1.8 : font * 0.6);
    l->bottom = height - PAD - font * 1.4 - TICK - (p->x.label && *p->x.label ? font * 1.5 : 0);
    int ny = (int)fmax(2, (l->bottom - l->top) / (font * 3.2));
    scale_axis(p, &p->y, 1, ny, &l->y0, &l->y1, &l->ystep);
    double widest = 0;
    char text[64];
    for (double v = l->y0; v <= l->y1 + l->ystep * 1e-6; v += l->ystep) {
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
    *dx = l->left + (x - l->x0) / (l->x1 - l->x0) * (l->right - l->left);
    *dy = l->bottom - (y - l->y0) / (l->y1 - l->y0) * (l->bottom - l->top);
}

int fl_draw_plot_hit_x(const FlDrawPlot *p, double width, double height, double px,
                       double *x)
{
    FlDrawPlotLayout l;
    fl_draw_plot_layout(p, width, height, &l);
    double u = (px - l.left) / (l.right - l.left);
    *x = l.x0 + clamp(u, 0, 1) * (l.x1 - l.x0);
    return u >= 0 && u <= 1;
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

static int ref_colour(const FlDrawPlotRef *r)
{
    return r->colour >= 0 ? r->colour & 0xffffff : 0x77767b;
}

void fl__draw_axis_ticks(cairo_t *cr, const FlDrawPlotLayout *l, int axis, const Colours *col,
                         double font)
{
    char text[64];
    cairo_text_extents_t te;
    double lo = axis ? l->y0 : l->x0, hi = axis ? l->y1 : l->x1;
    double step = axis ? l->ystep : l->xstep;
    cairo_set_line_width(cr, 1);
    for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-6; v += step) {
        double dx, dy;
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
        fl__draw_tick_text(v, step, text, sizeof text);
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

static void draw_series(cairo_t *cr, const FlDrawPlot *p, const FlDrawPlotLayout *l)
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
        double w = se->width > 0 ? se->width : 2;
        cairo_new_path(cr);
        int down = 0;
        for (int i = 0; i < se->n; i++) {
            double dx, dy;
            if (!isfinite(se->x[i]) || !isfinite(se->y[i])) {
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
        cairo_stroke(cr);
        if (!se->markers)
            continue;
        for (int i = 0; i < se->n; i++) {
            double dx, dy;
            if (!isfinite(se->x[i]) || !isfinite(se->y[i]))
                continue;
            fl_draw_plot_to_device(l, se->x[i], se->y[i], &dx, &dy);
            cairo_new_sub_path(cr);
            cairo_arc(cr, dx, dy, w * 1.5, 0, 2 * FL_PI);
        }
        cairo_fill(cr);
    }
    cairo_restore(cr);
}

/* The names of the series and refs, with a sample of each line. */
static void draw_legend(cairo_t *cr, const FlDrawPlot *p, const FlDrawPlotLayout *l,
                        const Colours *col, double font)
{
    int rows = 0;
    double widest = 0;
    cairo_text_extents_t te;
    for (int i = 0; i < nseries(p) + nrefs(p); i++) {
        const char *name = i < nseries(p) ? p->series[i].name : p->refs[i - nseries(p)].label;
        if (!name || !*name)
            continue;
        cairo_text_extents(cr, name, &te);
        widest = fmax(widest, te.x_advance);
        rows++;
    }
    if (!rows)
        return;
    double line = font * 1.35, sample = font * 1.8, pad = font * 0.5;
    double x = l->left + 8, y = l->top + 8;
    double w = pad + sample + pad + widest + pad, h = pad * 2 + line * rows;
    fl__draw_legend_box(cr, col, x, y, w, h);
    int row = 0;
    for (int i = 0; i < nseries(p) + nrefs(p); i++) {
        int is_ref = i >= nseries(p);
        const char *name = is_ref ? p->refs[i - nseries(p)].label : p->series[i].name;
        if (!name || !*name)
            continue;
        double cy = y + pad + line * (row++ + 0.5), dash[] = { 6, 4 };
        set_hex(cr, is_ref ? ref_colour(&p->refs[i - nseries(p)]) : series_colour(p, i), 1);
        cairo_set_line_width(cr, is_ref ? 1.5 : 2);
        cairo_set_dash(cr, dash, is_ref ? 2 : 0, 0);
        cairo_move_to(cr, x + pad, cy);
        cairo_line_to(cr, x + pad + sample, cy);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        set_colour(cr, col->text);
        cairo_move_to(cr, x + pad * 2 + sample, cy + font * 0.35);
        cairo_show_text(cr, name);
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
    draw_series(cr, p, &l);
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
        cairo_text_extents(cr, p->y.label, &te);
        cairo_save(cr);
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
        cairo_text_extents(cr, xlabel, &te);
        cairo_move_to(cr, (l->left + l->right - te.x_advance) / 2, height - PAD - font * 0.2);
        cairo_show_text(cr, xlabel);
    }
    if (title && *title) {
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        cairo_set_font_size(cr, font * 1.15);
        cairo_text_extents(cr, title, &te);
        cairo_move_to(cr, (l->left + l->right - te.x_advance) / 2, PAD + font * 1.15);
        cairo_show_text(cr, title);
    }
}

static void render_plot(cairo_t *cr, int width, int height, void *data)
{
    fl_draw_plot(cr, data, width, height);
}

int fl_draw_export_plot(const FlDrawPlot *p, const char *path, const char *format, int width,
                        int height, FlError *err)
{
    if (!p)
        return fl_error_set(err, FL_EINVAL, "no plot to draw");
    return fl__draw_write_image(path, format, width, height, render_plot, (void *)p, err);
}
