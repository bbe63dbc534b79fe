/* draw-plot-export.c — a line plot written as a picture (PNG, SVG, PDF,
 * drawn by fl_draw_plot()) or as text a paper's toolchain takes: its points
 * as CSV, a gnuplot script or a pgfplots figure with the data inline.
 *
 * The text formats describe the same FlDrawPlot as the picture: the axes'
 * ranges and scales from the same layout, the series' colours, markers and
 * dashes from the same style, the legend in the corner the picture chose.
 * Every file is written through the output module (flitlab-output.h), as
 * the pictures are: a regular file is replaced only once whole.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "draw-scene-private.h"
#include "flitlab-output.h"

typedef enum TextFormat { TEXT_NONE, TEXT_CSV, TEXT_GNUPLOT, TEXT_PGFPLOTS } TextFormat;

static const struct {
    const char *name;
    TextFormat format;
} text_formats[] = {
    { "csv", TEXT_CSV },           { "gnuplot", TEXT_GNUPLOT }, { "gp", TEXT_GNUPLOT },
    { "pgfplots", TEXT_PGFPLOTS }, { "tex", TEXT_PGFPLOTS },    { "tikz", TEXT_PGFPLOTS },
};

static const char *const image_formats[] = { "png", "svg", "pdf" };

/* The text format named by format or path's extension; TEXT_NONE for a
 * picture's, FL_EINVAL for anything else. */
static int parse_format(const char *path, const char *format, TextFormat *out, FlError *err)
{
    const char *name = fl__draw_format_name(path, format);
    if (!name)
        return fl_error_set(err, FL_EINVAL,
                            "cannot tell the plot format of '%s': name it .png, .svg, .pdf, "
                            ".csv, .gp or .tex",
                            path);
    *out = TEXT_NONE;
    for (size_t i = 0; i < sizeof text_formats / sizeof text_formats[0]; i++)
        if (strcasecmp(name, text_formats[i].name) == 0) {
            *out = text_formats[i].format;
            return FL_OK;
        }
    for (size_t i = 0; i < sizeof image_formats / sizeof image_formats[0]; i++)
        if (strcasecmp(name, image_formats[i]) == 0)
            return FL_OK;
    return fl_error_set(err, FL_EINVAL, "unknown plot format '%s' (expected png, svg, pdf, csv, "
                        "gnuplot (.gp) or pgfplots (.tex))", name);
}

/* The legend's places in gnuplot's and pgfplots' words. */
static const struct {
    const char *gnuplot, *pgfplots;
} legend_places[] = {
    [FL_DRAW_LEGEND_TOP_LEFT] = { "inside top left", "north west" },
    [FL_DRAW_LEGEND_TOP_RIGHT] = { "inside top right", "north east" },
    [FL_DRAW_LEGEND_BOTTOM_LEFT] = { "inside bottom left", "south west" },
    [FL_DRAW_LEGEND_BOTTOM_RIGHT] = { "inside bottom right", "south east" },
    [FL_DRAW_LEGEND_OUTSIDE_RIGHT] = { "outside right top", "outer north east" },
};

static int count_series(const FlDrawPlot *p)
{
    return p->nseries < 0 ? 0 : p->nseries > FL_DRAW_PLOT_MAX_SERIES ? FL_DRAW_PLOT_MAX_SERIES
                                                                     : p->nseries;
}

static int count_refs(const FlDrawPlot *p)
{
    return p->nrefs < 0 ? 0 : p->nrefs > FL_DRAW_PLOT_MAX_REFS ? FL_DRAW_PLOT_MAX_REFS : p->nrefs;
}

static int has_points(const FlDrawPlotSeries *se)
{
    return se->x && se->y && se->n > 0;
}

/* A number as text that reads back to the same double in practice. */
static void put_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.15g", v);
    else
        fputs("nan", f);
}

/* The ends of point i's error bar (the point itself where it has none). */
static void error_bar(const FlDrawPlotSeries *se, int i, double *lo, double *hi)
{
    *lo = se->lo && isfinite(se->lo[i]) ? se->lo[i] : se->y[i];
    *hi = se->hi && isfinite(se->hi[i]) ? se->hi[i] : se->y[i];
}

/* ------------------------------------------------------------------------ */
/* CSV                                                                      */
/* ------------------------------------------------------------------------ */

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_csv(FILE *f, const FlDrawPlot *p)
{
    fputs("series,x,y,lo,hi\n", f);
    for (int s = 0; s < count_series(p); s++) {
        const FlDrawPlotSeries *se = &p->series[s];
        char unnamed[32];
        snprintf(unnamed, sizeof unnamed, "series %d", s + 1);
        for (int i = 0; has_points(se) && i < se->n; i++) {
            csv_field(f, se->name && *se->name ? se->name : unnamed);
            fputc(',', f);
            put_number(f, se->x[i]);
            fputc(',', f);
            put_number(f, se->y[i]);
            fputc(',', f);
            if (se->lo)
                put_number(f, se->lo[i]);
            fputc(',', f);
            if (se->hi)
                put_number(f, se->hi[i]);
            fputc('\n', f);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* gnuplot                                                                  */
/* ------------------------------------------------------------------------ */

/* gnuplot's point types for the markers (the cairo terminals' shapes). */
static const int gnuplot_points[] = {
    [FL_DRAW_MARKER_NONE] = 0,         [FL_DRAW_MARKER_CIRCLE] = 7,
    [FL_DRAW_MARKER_SQUARE_OPEN] = 4,  [FL_DRAW_MARKER_TRIANGLE] = 9,
    [FL_DRAW_MARKER_DIAMOND_OPEN] = 12, [FL_DRAW_MARKER_CROSS] = 2,
    [FL_DRAW_MARKER_PLUS] = 1,         [FL_DRAW_MARKER_CIRCLE_OPEN] = 6,
    [FL_DRAW_MARKER_SQUARE] = 5,
};

/* A double-quoted gnuplot string (the terminal is noenhanced, so _ and ^
 * stay as written). */
static void gp_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('"', f);
}

/* The x range the figure shows: its first and last ticks widened by the
 * room the layout leaves at either end for the end points' marks. */
static void shown_x(const FlDrawPlotLayout *l, double *lo, double *hi)
{
    double span = l->right - l->left - 2 * l->xpad;
    *lo = l->x0;
    *hi = l->x1;
    if (!(l->xpad > 0) || !(span > 0))
        return;
    if (l->xlog) {
        double per = (log10(l->x1) - log10(l->x0)) / span;
        *lo = pow(10, log10(l->x0) - l->xpad * per);
        *hi = pow(10, log10(l->x1) + l->xpad * per);
    } else {
        double per = (l->x1 - l->x0) / span;
        *lo = l->x0 - l->xpad * per;
        *hi = l->x1 + l->xpad * per;
    }
}

static void gp_axis(FILE *f, const char *name, const FlDrawPlotAxis *a, double lo, double hi)
{
    if (a->label && *a->label) {
        fprintf(f, "set %slabel ", name);
        gp_string(f, a->label);
        fputc('\n', f);
    }
    if (a->log)
        fprintf(f, "set logscale %s 10\nset format %s \"%%g\"\n", name, name);
    fprintf(f, "set %srange [", name);
    put_number(f, lo);
    fputc(':', f);
    put_number(f, hi);
    fputs("]\n", f);
}

/* The name of the PDF the script draws: path's with .pdf for its
 * extension. */
static void pdf_name(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    int n = dot ? (int)(dot - base) : (int)strlen(base);
    snprintf(out, size, "%.*s.pdf", n, base);
}

static void write_gnuplot(FILE *f, const FlDrawPlot *p, const FlDrawPlotLayout *l,
                          const char *path, int width, int height)
{
    char pdf[256];
    pdf_name(path, pdf, sizeof pdf);
    fputs("# A figure written by Flitlab, with its data: `gnuplot FILE.gp` draws it to a\n"
          "# PDF (another name: gnuplot -e 'outfile=\"NAME.pdf\"' FILE.gp).\n",
          f);
    fputs("if (!exists(\"outfile\")) outfile = ", f);
    gp_string(f, pdf);
    fprintf(f,
            "\nset terminal pdfcairo noenhanced size %.3fin,%.3fin font \"Sans,%g\"\n"
            "set output outfile\n",
            width / 72.0, height / 72.0, p->font > 0 ? p->font : 8);
    if (p->title && *p->title) {
        fputs("set title ", f);
        gp_string(f, p->title);
        fputc('\n', f);
    }
    double xlo, xhi;
    shown_x(l, &xlo, &xhi);
    gp_axis(f, "x", &p->x, xlo, xhi);
    gp_axis(f, "y", &p->y, l->y0, l->y1);
    fputs("set grid lc rgb \"#d0d0d0\"\n", f);
    if (l->legend_w > 0)
        fprintf(f, "set key %s box opaque reverse Left\n", legend_places[l->legend_place].gnuplot);
    else
        fputs("set key off\n", f);
    for (int s = 0; s < count_series(p); s++) {
        const FlDrawPlotSeries *se = &p->series[s];
        fprintf(f, "$data%d << EOD\n", s + 1);
        for (int i = 0; has_points(se) && i < se->n; i++) {
            double lo, hi;
            if (!fl__draw_plot_point_ok(p, se, i)) {
                fputc('\n', f); /* a blank line breaks the line as a NaN does */
                continue;
            }
            error_bar(se, i, &lo, &hi);
            put_number(f, se->x[i]);
            fputc(' ', f);
            put_number(f, se->y[i]);
            if (se->lo || se->hi) {
                fputc(' ', f);
                put_number(f, lo);
                fputc(' ', f);
                put_number(f, hi);
            }
            fputc('\n', f);
        }
        fputs("EOD\n", f);
    }
    int items = 0;
    for (int s = 0; s < count_series(p); s++) {
        const FlDrawPlotSeries *se = &p->series[s];
        FlDrawMarker marker;
        FlDrawDash dash;
        double d[6], w = se->width > 0 ? se->width : p->style == FL_DRAW_PLOT_PRINT ? 1 : 2;
        fl_draw_plot_series_style(p, s, &marker, &dash);
        int bars = se->lo || se->hi, nd = fl__draw_plot_dash(dash, d);
        int every = fl__draw_plot_mark_every(p, l, s, width, height);
        /* A dense series, as drawn: its intervals a band, a marker every
         * few points. */
        if (bars && every > 1) {
            fprintf(f, "%s $data%d using 1:3:4 with filledcurves lc rgb \"#%06x\" "
                    "fs transparent solid 0.22 noborder notitle",
                    items++ ? ", \\\n    " : "plot", s + 1, fl__draw_plot_series_colour(p, s));
            bars = 0;
        }
        fprintf(f, "%s $data%d using 1:2%s with %s lc rgb \"#%06x\" lw %g",
                items++ ? ", \\\n    " : "plot", s + 1, bars ? ":3:4" : "",
                bars ? "yerrorlines" : marker != FL_DRAW_MARKER_NONE ? "linespoints" : "lines",
                fl__draw_plot_series_colour(p, s), w);
        if (marker != FL_DRAW_MARKER_NONE || bars)
            fprintf(f, " pt %d ps %g", gnuplot_points[marker],
                    marker != FL_DRAW_MARKER_NONE ? 0.5 : 0);
        if (marker != FL_DRAW_MARKER_NONE && every > 1)
            fprintf(f, " pi %d", every);
        if (nd) {
            fputs(" dt (", f);
            for (int k = 0; k < nd; k++)
                fprintf(f, "%s%g", k ? "," : "", d[k]);
            fputc(')', f);
        }
        if (se->name && *se->name) {
            fputs(" title ", f);
            gp_string(f, se->name);
        } else {
            fputs(" notitle", f);
        }
    }
    for (int r = 0; r < count_refs(p); r++) {
        const FlDrawPlotRef *ref = &p->refs[r];
        if (!isfinite(ref->y))
            continue;
        fputs(items++ ? ", \\\n    " : "plot ", f);
        put_number(f, ref->y);
        fprintf(f, " with lines lc rgb \"#%06x\" lw 1 dt (6,4)",
                ref->colour >= 0 ? ref->colour & 0xffffff : 0x77767b);
        if (ref->label && *ref->label) {
            fputs(" title ", f);
            gp_string(f, ref->label);
        } else {
            fputs(" notitle", f);
        }
    }
    fputs(items ? "\n" : "plot NaN notitle\n", f);
}

/* ------------------------------------------------------------------------ */
/* pgfplots                                                                 */
/* ------------------------------------------------------------------------ */

static const char *const pgf_marks[] = {
    [FL_DRAW_MARKER_NONE] = NULL,          [FL_DRAW_MARKER_CIRCLE] = "*",
    [FL_DRAW_MARKER_SQUARE_OPEN] = "square", [FL_DRAW_MARKER_TRIANGLE] = "triangle*",
    [FL_DRAW_MARKER_DIAMOND_OPEN] = "diamond", [FL_DRAW_MARKER_CROSS] = "x",
    [FL_DRAW_MARKER_PLUS] = "+",           [FL_DRAW_MARKER_CIRCLE_OPEN] = "o",
    [FL_DRAW_MARKER_SQUARE] = "square*",
};

static const char *const pgf_dashes[] = {
    [FL_DRAW_DASH_SOLID] = "solid",
    [FL_DRAW_DASH_DASHED] = "dashed",
    [FL_DRAW_DASH_DOTTED] = "dotted",
    [FL_DRAW_DASH_DASH_DOT] = "dashdotted",
    [FL_DRAW_DASH_LONG] = "loosely dashed",
    [FL_DRAW_DASH_DASH_DOT_DOT] = "dashdotdotted",
    [FL_DRAW_DASH_DENSE] = "densely dashed",
    [FL_DRAW_DASH_DENSE_DOTTED] = "densely dotted",
};

/* Text for TeX: its special characters as TeX writes them. */
static void pgf_point(FILE *f, double x, double y)
{
    fputs(" (", f);
    put_number(f, x);
    fputc(',', f);
    put_number(f, y);
    fputc(')', f);
}

static void tex_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '\\':
            fputs("\\textbackslash{}", f);
            break;
        case '~':
            fputs("\\textasciitilde{}", f);
            break;
        case '^':
            fputs("\\textasciicircum{}", f);
            break;
        case '#':
        case '$':
        case '%':
        case '&':
        case '_':
        case '{':
        case '}':
            fputc('\\', f);
            fputc(*s, f);
            break;
        case '\n':
            fputc(' ', f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

static void pgf_key(FILE *f, const char *key, const char *text)
{
    if (!text || !*text)
        return;
    fprintf(f, "  %s={", key);
    tex_text(f, text);
    fputs("},\n", f);
}

static void pgf_range(FILE *f, const char *axis, const FlDrawPlotAxis *a, double lo, double hi)
{
    if (a->log)
        fprintf(f, "  %smode=log, log basis %s=10,\n", axis, axis);
    fprintf(f, "  %smin=", axis);
    put_number(f, lo);
    fprintf(f, ", %smax=", axis);
    put_number(f, hi);
    fputs(",\n", f);
}

/* The intervals of dense series s as a light band: a closed path along lo
 * and back along hi for each stretch without a missing point. */
static void pgf_band(FILE *f, const FlDrawPlot *p, int s)
{
    const FlDrawPlotSeries *se = &p->series[s];
    for (int i = 0; i < se->n;) {
        int j = i;
        double lo, hi;
        while (j < se->n && fl__draw_plot_point_ok(p, se, j))
            j++;
        if (j - i >= 2) {
            fprintf(f, "\\addplot[fill=flitlabseries%c, fill opacity=0.22, draw=none, "
                    "forget plot] coordinates {\n   ", 'a' + s);
            for (int k = i; k < j; k++) {
                error_bar(se, k, &lo, &hi);
                pgf_point(f, se->x[k], lo);
            }
            for (int k = j - 1; k >= i; k--) {
                error_bar(se, k, &lo, &hi);
                pgf_point(f, se->x[k], hi);
            }
            fputs("\n  } -- cycle;\n", f);
        }
        i = j > i ? j : i + 1;
    }
}

static void write_pgfplots(FILE *f, const FlDrawPlot *p, const FlDrawPlotLayout *l, int width,
                           int height)
{
    fputs("% A figure written by Flitlab, with its data: \\input it in a document that\n"
          "% loads pgfplots (\\usepackage{pgfplots}, \\pgfplotsset{compat=1.16} or later).\n",
          f);
    for (int s = 0; s < count_series(p); s++)
        fprintf(f, "\\definecolor{flitlabseries%c}{HTML}{%06X}\n", 'a' + s,
                fl__draw_plot_series_colour(p, s));
    fputs("\\begin{tikzpicture}\n\\begin{axis}[\n", f);
    fprintf(f, "  width=%.1fpt, height=%.1fpt,\n", (double)width, (double)height);
    pgf_key(f, "title", p->title);
    pgf_key(f, "xlabel", p->x.label);
    pgf_key(f, "ylabel", p->y.label);
    double xlo, xhi;
    shown_x(l, &xlo, &xhi);
    pgf_range(f, "x", &p->x, xlo, xhi);
    pgf_range(f, "y", &p->y, l->y0, l->y1);
    fputs("  grid=major, unbounded coords=jump,\n", f);
    fputs("  tick label style={font=\\footnotesize}, label style={font=\\footnotesize},\n", f);
    if (l->legend_w > 0)
        fprintf(f, "  legend pos=%s, legend cell align=left, legend style={font=\\footnotesize},\n",
                legend_places[l->legend_place].pgfplots);
    fputs("]\n", f);
    for (int s = 0; s < count_series(p); s++) {
        const FlDrawPlotSeries *se = &p->series[s];
        FlDrawMarker marker;
        FlDrawDash dash;
        fl_draw_plot_series_style(p, s, &marker, &dash);
        int bars = se->lo || se->hi, named = se->name && *se->name && l->legend_w > 0;
        int every = fl__draw_plot_mark_every(p, l, s, width, height);
        if (bars && every > 1) {
            pgf_band(f, p, s);
            bars = 0;
        }
        fprintf(f, "\\addplot[color=flitlabseries%c, %s", 'a' + s, pgf_dashes[dash]);
        int open = marker == FL_DRAW_MARKER_SQUARE_OPEN || marker == FL_DRAW_MARKER_DIAMOND_OPEN ||
                   marker == FL_DRAW_MARKER_CIRCLE_OPEN;
        if (pgf_marks[marker])
            fprintf(f, ", mark=%s, mark options={solid%s}", pgf_marks[marker],
                    open ? ", fill=white" : "");
        else
            fputs(", no markers", f);
        if (pgf_marks[marker] && every > 1)
            fprintf(f, ", mark repeat=%d", every);
        if (!named)
            fputs(", forget plot", f);
        if (bars)
            fputs(", error bars/.cd, y dir=both, y explicit", f);
        fputs("]\n  table[x=x, y=y", f);
        fputs(bars ? ", y error plus=plus, y error minus=minus] {\n    x y plus minus\n"
                   : "] {\n    x y\n",
              f);
        for (int i = 0; has_points(se) && i < se->n; i++) {
            double lo, hi;
            int ok = fl__draw_plot_point_ok(p, se, i);
            error_bar(se, i, &lo, &hi);
            fputs("    ", f);
            put_number(f, ok ? se->x[i] : NAN);
            fputc(' ', f);
            put_number(f, ok ? se->y[i] : NAN);
            if (bars) {
                fputc(' ', f);
                put_number(f, ok ? hi - se->y[i] : 0);
                fputc(' ', f);
                put_number(f, ok ? se->y[i] - lo : 0);
            }
            fputc('\n', f);
        }
        fputs("  };\n", f);
        if (named) {
            fputs("\\addlegendentry{", f);
            tex_text(f, se->name);
            fputs("}\n", f);
        }
    }
    for (int r = 0; r < count_refs(p); r++) {
        const FlDrawPlotRef *ref = &p->refs[r];
        if (!isfinite(ref->y))
            continue;
        int named = ref->label && *ref->label && l->legend_w > 0;
        fprintf(f, "\\addplot[color=gray, dashed%s] coordinates {(", named ? "" : ", forget plot");
        put_number(f, l->x0);
        fputc(',', f);
        put_number(f, ref->y);
        fputs(") (", f);
        put_number(f, l->x1);
        fputc(',', f);
        put_number(f, ref->y);
        fputs(")};\n", f);
        if (named) {
            fputs("\\addlegendentry{", f);
            tex_text(f, ref->label);
            fputs("}\n", f);
        }
    }
    fputs("\\end{axis}\n\\end{tikzpicture}\n", f);
}

/* ------------------------------------------------------------------------ */

static int write_text(const FlDrawPlot *p, const char *path, TextFormat format, int width,
                      int height, FlError *err)
{
    FlDrawPlotLayout l;
    fl_draw_plot_layout(p, width, height, &l);
    FlOutput *out;
    FILE *f;
    int rc = fl_output_open(path, &out, &f, err);
    if (rc)
        return rc;
    if (format == TEXT_CSV)
        write_csv(f, p);
    else if (format == TEXT_GNUPLOT)
        write_gnuplot(f, p, &l, path, width, height);
    else
        write_pgfplots(f, p, &l, width, height);
    return fl_output_commit(out, err);
}

static void render_plot(cairo_t *cr, int width, int height, void *data)
{
    fl_draw_plot(cr, data, width, height);
}

int fl_draw_export_plot(const FlDrawPlot *p, const char *path, const char *format, int width,
                        int height, FlError *err)
{
    TextFormat text;
    int rc;
    if (!p)
        return fl_error_set(err, FL_EINVAL, "no plot to draw");
    if (!path || !*path)
        return fl_error_set(err, FL_EINVAL, "no file name to write the plot to");
    if ((rc = parse_format(path, format, &text, err)) != FL_OK)
        return rc;
    if (text == TEXT_NONE)
        return fl__draw_write_image(path, format, width, height, render_plot, (void *)p, err);
    if (width < 1 || height < 1 || width > FL_DRAW_MAX_SIDE || height > FL_DRAW_MAX_SIDE)
        return fl_error_set(err, FL_ERANGE, "plot size %dx%d is out of range (1 to %d a side)",
                            width, height, FL_DRAW_MAX_SIDE);
    return write_text(p, path, text, width, height, err);
}
