/* draw-chart.c — interval charts in plain cairo: rows of bars on a time
 * axis, for the timing diagrams of a collective (one row per node, its
 * sends and receives) and Gantt charts of a schedule's slots.
 *
 * The time axis is a line plot's x axis (draw-plot.c: the same nice ticks,
 * grid and labels), and the layout is an FlDrawPlotLayout whose y runs
 * over the rows, so that drawing, hit testing and the tests agree on where
 * every bar is.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw-scene-private.h"

/* Qualitative colours for steps and colour classes, in an order where
 * neighbours differ; no red, which marks contention. */
static const int palette[] = {
    0x1c71d8, 0xe66100, 0x26a269, 0x813d9c, 0xc88800, 0x0e92b3,
    0x865e3c, 0xc061cb, 0x5e5c64, 0x6a9c0f, 0x1a3f8a, 0xa4570e,
};
#define NPALETTE ((int)(sizeof palette / sizeof palette[0]))

static void hex_to_rgb(int hex, double rgb[3])
{
    rgb[0] = (hex >> 16 & 0xff) / 255.0;
    rgb[1] = (hex >> 8 & 0xff) / 255.0;
    rgb[2] = (hex & 0xff) / 255.0;
}

void fl_draw_palette_colour(int index, double rgb[3])
{
    int i = index % NPALETTE;
    hex_to_rgb(palette[i < 0 ? i + NPALETTE : i], rgb);
}

void fl_draw_chart_kind_colour(FlDrawBarKind kind, int dark, double rgb[3])
{
    switch (kind) {
    case FL_DRAW_BAR_SEND:
        hex_to_rgb(dark ? 0x62a0ea : 0x1c71d8, rgb);
        break;
    case FL_DRAW_BAR_NETWORK:
        hex_to_rgb(dark ? 0x77767b : 0xc0bfbc, rgb);
        break;
    case FL_DRAW_BAR_RECEIVE:
        hex_to_rgb(dark ? 0x57e389 : 0x26a269, rgb);
        break;
    default:
        fl_draw_palette_colour(0, rgb);
        break;
    }
}

void fl_draw_chart_init(FlDrawChart *c)
{
    memset(c, 0, sizeof *c);
    c->time_unit = "cycles";
    c->marker = NAN;
}

static double chart_font(double width, double height)
{
    return clamp(fmin(width, height) / 28, 8, 13);
}

static int nrows(const FlDrawChart *c)
{
    return c->rows > 0 ? c->rows : 0;
}

/* The time range: fixed, or the bars' (and the marker's) from zero. */
static void time_range(const FlDrawChart *c, int n, FlDrawPlotLayout *l)
{
    if (isfinite(c->t_min) && isfinite(c->t_max) && c->t_max > c->t_min) {
        l->x0 = c->t_min;
        l->x1 = c->t_max;
        l->xstep = fl_draw_plot_nice_step(l->x1 - l->x0, n);
        return;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; c->bars && i < c->nbars; i++) {
        const FlDrawBar *b = &c->bars[i];
        if (isfinite(b->start) && isfinite(b->end)) {
            lo = fmin(lo, fmin(b->start, b->end));
            hi = fmax(hi, fmax(b->start, b->end));
        }
    }
    if (isfinite(c->marker)) {
        lo = fmin(lo, c->marker);
        hi = fmax(hi, c->marker);
    }
    fl__draw_axis_scale(lo, hi, 1, 0, n, &l->x0, &l->x1, &l->xstep);
}

/* The layout, measuring text with cr: the plot area between the row
 * labels and the time axis; y counts rows from the top (y0 = rows at the
 * bottom edge, y1 = 0 at the top). */
static void layout(cairo_t *cr, const FlDrawChart *c, double width, double height,
                   FlDrawPlotLayout *l)
{
    double font = chart_font(width, height);
    memset(l, 0, sizeof *l);
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, font);
    double widest = 0;
    for (int r = 0; c->row_labels && r < nrows(c); r++) {
        cairo_text_extents_t te;
        if (!c->row_labels[r])
            continue;
        cairo_text_extents(cr, c->row_labels[r], &te);
        widest = fmax(widest, te.x_advance);
    }
    cairo_restore(cr);
    l->top = FL_DRAW_PAD + (c->title && *c->title ? font * 1.8 : font * 0.6)
             + (isfinite(c->marker) ? font * 1.3 : 0);
    l->bottom = height - FL_DRAW_PAD - font * 1.4 - FL_DRAW_TICK
                - (c->time_unit && *c->time_unit ? font * 1.5 : 0);
    l->left = FL_DRAW_PAD + widest + (widest > 0 ? 6 : 0);
    l->right = width - FL_DRAW_PAD - font * 1.5;
    if (l->right <= l->left)
        l->right = l->left + 1;
    if (l->bottom <= l->top)
        l->bottom = l->top + 1;
    time_range(c, (int)fmax(2, (l->right - l->left) / (font * 6)), l);
    l->y0 = nrows(c) > 0 ? nrows(c) : 1;
    l->y1 = 0;
    l->ystep = 1;
}

void fl_draw_chart_layout(const FlDrawChart *c, double width, double height,
                          FlDrawPlotLayout *out)
{
    cairo_t *cr = fl__draw_path_collector();
    layout(cr, c, width, height, out);
    cairo_destroy(cr);
}

int fl_draw_chart_hit_row(const FlDrawChart *c, double width, double height, double y)
{
    if (!c || nrows(c) == 0)
        return -1;
    FlDrawPlotLayout l;
    fl_draw_chart_layout(c, width, height, &l);
    if (y < l.top || y >= l.bottom)
        return -1;
    int r = (int)((y - l.top) / (l.bottom - l.top) * nrows(c));
    return r < nrows(c) ? r : nrows(c) - 1;
}

/* The vertical extent of a bar of its kind in its row's band: sends in
 * the upper half, receives in the lower, the network's time a thin bar
 * between them, slots the whole band. */
static void bar_extent(const FlDrawPlotLayout *l, int rows, const FlDrawBar *b, double *y,
                       double *h)
{
    double band = (l->bottom - l->top) / rows;
    double pad = fmin(band * 0.12, 4);
    double top = l->top + band * b->row + pad, inner = band - 2 * pad;
    switch (b->kind) {
    case FL_DRAW_BAR_SEND:
        *y = top;
        *h = inner / 2;
        break;
    case FL_DRAW_BAR_RECEIVE:
        *y = top + inner / 2;
        *h = inner / 2;
        break;
    case FL_DRAW_BAR_NETWORK:
        *y = top + inner * 0.35;
        *h = inner * 0.3;
        break;
    default:
        *y = top;
        *h = inner;
        break;
    }
}

static void bar_colour(const FlDrawChart *c, const FlDrawBar *b, double rgb[3])
{
    if (b->colour >= 0)
        fl_draw_palette_colour(b->colour, rgb);
    else
        fl_draw_chart_kind_colour(b->kind, c->dark, rgb);
}

static void draw_bars(cairo_t *cr, const FlDrawChart *c, const FlDrawPlotLayout *l, double font)
{
    cairo_save(cr);
    cairo_rectangle(cr, l->left, l->top, l->right - l->left, l->bottom - l->top);
    cairo_clip(cr);
    cairo_set_font_size(cr, font * 0.85);
    for (int i = 0; c->bars && i < c->nbars; i++) {
        const FlDrawBar *b = &c->bars[i];
        if (b->row < 0 || b->row >= nrows(c) || !isfinite(b->start) || !isfinite(b->end))
            continue;
        double x0, x1, dy, y, h, rgb[3];
        fl_draw_plot_to_device(l, fmin(b->start, b->end), 0, &x0, &dy);
        fl_draw_plot_to_device(l, fmax(b->start, b->end), 0, &x1, &dy);
        bar_extent(l, nrows(c), b, &y, &h);
        double w = fmax(x1 - x0, 1);
        bar_colour(c, b, rgb);
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_rectangle(cr, x0, y, w, h);
        cairo_fill_preserve(cr);
        /* A darker edge parts bars that touch (back-to-back sends). */
        cairo_set_source_rgba(cr, rgb[0] * 0.6, rgb[1] * 0.6, rgb[2] * 0.6, 1);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
        if (!b->label || !*b->label)
            continue;
        cairo_text_extents_t te;
        cairo_text_extents(cr, b->label, &te);
        if (te.x_advance + 4 > w || font * 0.85 > h + 2)
            continue;
        double lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
        if (lum > 0.6)
            set_colour(cr, fl__draw_colours(0)->text);
        else
            cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_move_to(cr, x0 + (w - te.x_advance) / 2, y + h / 2 + font * 0.3);
        cairo_show_text(cr, b->label);
    }
    cairo_restore(cr);
}

/* Faint bands behind every other row, and the rows' labels. */
static void draw_rows(cairo_t *cr, const FlDrawChart *c, const FlDrawPlotLayout *l,
                      const Colours *col, double font)
{
    int rows = nrows(c);
    if (rows == 0)
        return;
    double band = (l->bottom - l->top) / rows;
    for (int r = 1; r < rows; r += 2) {
        cairo_set_source_rgba(cr, col->guide.r, col->guide.g, col->guide.b, 0.12);
        cairo_rectangle(cr, l->left, l->top + band * r, l->right - l->left, band);
        cairo_fill(cr);
    }
    if (!c->row_labels)
        return;
    /* Where the rows are too thin for every label, every k-th one. */
    int every = band >= font * 1.1 ? 1 : (int)ceil(font * 1.1 / band);
    set_colour(cr, col->text);
    for (int r = 0; r < rows; r += every) {
        cairo_text_extents_t te;
        if (!c->row_labels[r])
            continue;
        cairo_text_extents(cr, c->row_labels[r], &te);
        cairo_move_to(cr, l->left - 6 - te.x_advance, l->top + band * (r + 0.5) + font * 0.35);
        cairo_show_text(cr, c->row_labels[r]);
    }
}

static void draw_marker(cairo_t *cr, const FlDrawChart *c, const FlDrawPlotLayout *l,
                        const Colours *col, double font)
{
    if (!isfinite(c->marker) || c->marker < l->x0 || c->marker > l->x1)
        return;
    double dx, dy, dash[] = { 5, 3 };
    char text[32];
    cairo_text_extents_t te;
    fl_draw_plot_to_device(l, c->marker, 0, &dx, &dy);
    dx = floor(dx) + 0.5;
    set_colour(cr, col->text);
    cairo_set_line_width(cr, 1.5);
    cairo_set_dash(cr, dash, 2, 0);
    cairo_move_to(cr, dx, l->top - font * 0.3);
    cairo_line_to(cr, dx, l->bottom);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    snprintf(text, sizeof text, "%g", c->marker);
    cairo_text_extents(cr, text, &te);
    double x = clamp(dx - te.x_advance / 2, l->left, l->right - te.x_advance);
    cairo_move_to(cr, x, l->top - font * 0.45);
    cairo_show_text(cr, text);
}

void fl_draw_chart(cairo_t *cr, const FlDrawChart *c, double width, double height)
{
    if (!cr || !c || !(width > 0) || !(height > 0))
        return;
    const Colours *col = fl__draw_colours(c->dark);
    double font = chart_font(width, height);
    FlDrawPlotLayout l;
    layout(cr, c, width, height, &l);
    fl__draw_plot_begin(cr, col, width, height, font);
    draw_rows(cr, c, &l, col, font);
    fl__draw_axis_ticks(cr, &l, 0, col, font);
    draw_bars(cr, c, &l, font);
    cairo_set_font_size(cr, font);
    draw_marker(cr, c, &l, col, font);
    fl__draw_plot_frame(cr, &l, col);
    fl__draw_plot_captions(cr, &l, col, font, height, c->time_unit, c->title);
    cairo_restore(cr);
}

static void render_chart(cairo_t *cr, int width, int height, void *data)
{
    fl_draw_chart(cr, data, width, height);
}

int fl_draw_export_chart(const FlDrawChart *c, const char *path, const char *format, int width,
                         int height, FlError *err)
{
    return c ? fl_draw_export_render(path, format, width, height, render_chart, (void *)c, err)
             : fl_error_set(err, FL_EINVAL, "no chart to draw");
}
