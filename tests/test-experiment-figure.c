/* test-experiment-figure.c — the figure of an experiment's plot: set up for
 * a paper (print style, column sizes, legend off the data, error bars and
 * log axes as the definition asks, labels from the data), refused past
 * FL_DRAW_PLOT_MAX_SERIES curves, and exported from a project built
 * through the store (a PNG at the paper size times its scale). */
#include <math.h>
#include <string.h>

#include "flitlab-exp.h"
#include "flitlab-experiment-figure.h"
#include "store-fixture.h"

#define POINTS_PER_CM (72 / 2.54)

static double xs[] = { 0.1, 0.2 }, ys[] = { 10, 20 }, los[] = { 9, 18 }, his[] = { 11, 22 };
static int runs[] = { 3, 3 };

/* n curves of two points each. */
static void make_data(FlPlotData *d, FlPlotCurve *curves, int n, int labelled)
{
    memset(d, 0, sizeof *d);
    d->title = "A title";
    d->xlabel = "Offered load (flits/cycle/host)";
    d->ylabel = "Mean packet latency (cycles)";
    for (int i = 0; i < n; i++)
        curves[i] = (FlPlotCurve){ labelled ? "routing=dor" : NULL, 2, xs, ys, los, his, runs };
    d->curves = curves;
    d->ncurves = n;
    d->runs = 6 * n;
}

static void test_setup(void)
{
    FlPlotCurve curves[FL_DRAW_PLOT_MAX_SERIES + 1];
    FlPlotData d;
    FlPlotSpec s;
    FlDrawPlot plot;
    double w = 0, h = 0;
    FlError err = { 0 };
    fl_plot_spec_init(&s);
    make_data(&d, curves, 2, 1);
    CHECK_INT(fl_experiment_figure(&d, &s, &plot, &w, &h), FL_OK);
    CHECK(plot.style == FL_DRAW_PLOT_PRINT && plot.legend_place == FL_DRAW_LEGEND_AUTO
              && plot.legend && plot.font == 8,
          "print style, the legend placed off the data, 8 pt");
    CHECK(fabs(w - 8.5 * POINTS_PER_CM) < 1e-6 && fabs(h - 0.75 * w) < 1e-6,
          "one column: 8.5 cm, 4:3 (%.1f x %.1f pt)", w, h);
    CHECK(plot.nseries == 2 && plot.series[1].x == xs && plot.series[1].lo == los
              && plot.series[1].hi == his && plot.series[0].name == curves[0].label,
          "each curve a series, its interval as error bars");
    CHECK(plot.title == d.title && plot.x.label == d.xlabel && plot.y.label == d.ylabel
              && !plot.x.log && !plot.y.log,
          "the data's title and labels, linear axes");
    s.error_bars = 0;
    s.xlog = s.ylog = 1;
    s.columns = 2;
    fl_experiment_figure(&d, &s, &plot, &w, &h);
    CHECK(!plot.series[0].lo && !plot.series[0].hi && plot.x.log && plot.y.log,
          "no error bars, log axes when asked");
    CHECK(fabs(w - 17.5 * POINTS_PER_CM) < 1e-6, "two columns: 17.5 cm (%.1f pt)", w);

    fl_plot_spec_init(&s);
    make_data(&d, curves, 1, 0);
    fl_experiment_figure(&d, &s, &plot, NULL, NULL);
    CHECK(plot.nseries == 1 && !plot.legend, "a single unnamed curve needs no legend");

    make_data(&d, curves, FL_DRAW_PLOT_MAX_SERIES + 1, 1);
    CHECK(fl_experiment_figure(&d, &s, &plot, NULL, NULL) == FL_ERANGE
              && plot.nseries == FL_DRAW_PLOT_MAX_SERIES,
          "more curves than a figure draws: FL_ERANGE, the first ones set");
    CHECK(fl_experiment_figure_check(&d, &err) == FL_ERANGE && strstr(err.message, "9 curves")
              && strstr(err.message, "--where"),
          "and why: %s", err.message);
    make_data(&d, curves, FL_DRAW_PLOT_MAX_SERIES, 1);
    CHECK_INT(fl_experiment_figure_check(&d, &err), FL_OK);
}

/* The width and height in a PNG's header. */
static int png_size(const char *path, unsigned *w, unsigned *h)
{
    unsigned char b[24];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    if (n != sizeof b || memcmp(b, "\x89PNG", 4) != 0)
        return 0;
    *w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
    *h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
    return 1;
}

static void test_export(void)
{
    char path[512], png[512], pdf[512];
    FlProject *p = NULL;
    FlExpDesign *d = NULL;
    FlError err = { 0 };
    char *text = NULL;
    in_dir(path, sizeof path, "figure.flitlab");
    in_dir(png, sizeof png, "figure.png");
    in_dir(pdf, sizeof pdf, "figure.out");
    if (fl_project_new(&p, &err) || fl_project_save_as(p, path, &err)
        || fl_exp_design_new(&d, &err) || fl_exp_design_vary(d, "rate", "0.1,0.2", &err)
        || fl_exp_design_seeds(d, 1, 2, &err) || fl_exp_design_format(d, &text, &err)
        || fl_project_create_experiment(p, "e", "mesh:4x4", "{}", text, 4, &err)) {
        printf("Bail out! %s\n", err.message);
        exit(99);
    }
    FlPlotSpec s;
    fl_plot_spec_init(&s);
    s.experiment = "e";
    s.x = "rate";
    s.y = "latency_avg";
    CHECK(fl_experiment_export_plot(p, &s, png, NULL, &err) == FL_ENOTFOUND
              && strstr(err.message, "no done run"),
          "nothing to plot yet: %s", err.message);
    const char *keys[] = { "rate" }, *names[] = { "latency_avg" };
    for (int64_t idx = 0; idx < 4; idx++) {
        const char *values[1];
        uint64_t seed;
        double y = 10 + (double)idx;
        fl_exp_design_run(d, idx, values, &seed, NULL);
        FlProjectRun run = { .idx = idx, .status = FL_RUN_DONE, .seed = seed, .config = "",
                             .param_keys = keys, .param_values = values, .nparams = 1,
                             .scalar_names = names, .scalar_values = &y, .nscalars = 1 };
        CHECK_INT(fl_project_commit_run(p, "e", &run, &err), FL_OK);
    }
    unsigned w = 0, h = 0;
    double pw, ph;
    fl_draw_plot_paper_size(FL_DRAW_PAPER_SINGLE_COLUMN, &pw, &ph, NULL);
    CHECK(fl_experiment_export_plot(p, &s, png, NULL, &err) == FL_OK && png_size(png, &w, &h)
              && w == (unsigned)ceil(pw * FL_EXPERIMENT_FIGURE_PNG_SCALE)
              && h == (unsigned)ceil(ph * FL_EXPERIMENT_FIGURE_PNG_SCALE),
          "a PNG at the paper size times %d: %u x %u (%s)", FL_EXPERIMENT_FIGURE_PNG_SCALE, w,
          h, err.message);
    char head[8] = "";
    FILE *f = NULL;
    CHECK(fl_experiment_export_plot(p, &s, pdf, "pdf", &err) == FL_OK
              && (f = fopen(pdf, "rb")) && fread(head, 1, 5, f) == 5
              && memcmp(head, "%PDF-", 5) == 0,
          "a PDF when the format says so, whatever the name");
    if (f)
        fclose(f);
    CHECK(fl_experiment_export_plot(p, &s, "", NULL, &err) == FL_EINVAL, "no path: %s",
          err.message);
    s.y = "nonsense";
    CHECK(fl_experiment_export_plot(p, &s, png, NULL, &err) == FL_ENOTFOUND,
          "the data's refusals: %s", err.message);
    free(text);
    fl_exp_design_free(d);
    fl_project_free(p);
}

int main(void)
{
    if (!test_dir_make("flitlab-figure"))
        return 99;
    test_setup();
    test_export();
    test_dir_remove();
    rmdir(test_dir);
    return tap_done();
}
