/* experiment-figure.c — the figure of a plot of an experiment's results
 * (flitlab-experiment-figure.h): its points (experiment-plot.c) set up as
 * an FlDrawPlot for a paper, and written in any of src/draw's formats.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cairo.h>

#include "flitlab-experiment-figure.h"
#include "flitlab-io.h"

int fl_experiment_figure_check(const FlPlotData *d, FlError *err)
{
    if (d->ncurves <= FL_DRAW_PLOT_MAX_SERIES)
        return FL_OK;
    return fl_error_set(err, FL_ERANGE, "the plot has %d curves, more than the %d a figure "
                        "draws: fix some parameters with --where KEY=VALUE or choose another "
                        "--series", d->ncurves, FL_DRAW_PLOT_MAX_SERIES);
}

int fl_experiment_figure(const FlPlotData *d, const FlPlotSpec *s, FlDrawPlot *out,
                         double *width, double *height)
{
    fl_draw_plot_init(out);
    fl_draw_plot_for_paper(out, s->columns == 2 ? FL_DRAW_PAPER_DOUBLE_COLUMN
                                                : FL_DRAW_PAPER_SINGLE_COLUMN,
                           width, height);
    out->title = d->title;
    out->x.label = d->xlabel;
    out->y.label = d->ylabel;
    out->x.log = s->xlog != 0;
    out->y.log = s->ylog != 0;
    /* Numbers of runs, parameters' values: x starts where the data does. */
    out->x.include_zero = 0;
    out->legend = d->ncurves > 1 || (d->ncurves == 1 && d->curves[0].label);
    int n = d->ncurves < FL_DRAW_PLOT_MAX_SERIES ? d->ncurves : FL_DRAW_PLOT_MAX_SERIES;
    for (int i = 0; i < n; i++) {
        const FlPlotCurve *c = &d->curves[i];
        FlDrawPlotSeries *se = &out->series[i];
        se->name = c->label;
        se->x = c->x;
        se->y = c->y;
        se->n = c->n;
        se->markers = 1;
        if (s->error_bars) {
            se->lo = c->lo;
            se->hi = c->hi;
        }
    }
    out->nseries = n;
    return d->ncurves > FL_DRAW_PLOT_MAX_SERIES ? FL_ERANGE : FL_OK;
}

static cairo_status_t png_write(void *closure, const unsigned char *data, unsigned int length)
{
    return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS
                                                       : CAIRO_STATUS_WRITE_ERROR;
}

/* A PNG at scale pixels per point: the figure as the PDF draws it, finer. */
static int write_png(const FlDrawPlot *plot, const char *path, double width, double height,
                     double scale, FlError *err)
{
    int w = (int)ceil(width * scale), h = (int)ceil(height * scale);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_t *cr = cairo_create(surface);
    cairo_scale(cr, scale, scale);
    fl_draw_plot(cr, plot, width, height);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    FlOutput *f = NULL;
    FILE *fp = NULL;
    int rc = cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS
                 ? fl_error_set(err, FL_ENOMEM, "cannot draw the plot: %s",
                                cairo_status_to_string(cairo_surface_status(surface)))
                 : fl_output_open(path, &f, &fp, err);
    if (!rc && cairo_surface_write_to_png_stream(surface, png_write, fp)
                   != CAIRO_STATUS_SUCCESS) {
        int e = fl_output_errno(f);
        fl_output_abort(f);
        rc = e ? fl_error_set(err, FL_EIO, "cannot write %s: %s", path, strerror(e))
               : fl_error_set(err, FL_EIO, "'%s': cannot write the PNG", path);
    } else if (!rc)
        rc = fl_output_commit(f, err);
    cairo_surface_destroy(surface);
    return rc;
}

/* Whether path and format ask for a PNG, as fl_draw_export_plot() tells. */
static int is_png(const char *path, const char *format)
{
    if (!format) {
        const char *slash = strrchr(path, '/');
        const char *dot = strrchr(slash ? slash : path, '.');
        format = dot ? dot + 1 : "";
    }
    return strcasecmp(format, "png") == 0;
}

int fl_experiment_export_plot(FlProject *p, const FlPlotSpec *s, const char *path,
                              const char *format, FlError *err)
{
    if (!path || !*path)
        return fl_error_set(err, FL_EINVAL, "no file name to write the plot to");
    FlPlotData d;
    int rc = fl_experiment_plot_data(p, s, &d, err);
    if (rc)
        return rc;
    if (!(rc = fl_experiment_figure_check(&d, err)) && d.runs == 0)
        rc = fl_error_set(err, FL_ENOTFOUND, "experiment '%s' has no done run to plot%s%.200s",
                          s->experiment, s->where && *s->where ? " where " : "",
                          s->where && *s->where ? s->where : "");
    FlDrawPlot plot;
    double width = 0, height = 0;
    if (!rc)
        fl_experiment_figure(&d, s, &plot, &width, &height);
    if (!rc && is_png(path, format))
        rc = write_png(&plot, path, width, height, FL_EXPERIMENT_FIGURE_PNG_SCALE, err);
    else if (!rc)
        rc = fl_draw_export_plot(&plot, path, format, (int)lround(width), (int)lround(height),
                                 err);
    fl_plot_data_clear(&d);
    return rc;
}
