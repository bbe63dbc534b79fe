/* test-experiment-plot.c — plots of an experiment's results: a project
 * built through the store with known scalars (2 routings x 2 traffics x 3
 * rates x 4 seeds, one NaN, some runs stopped, failed or missing) gives
 * points whose means and 95 % intervals equal values computed here by
 * hand, grouped by series, by where and by the parameters left; the
 * runs' vectors over cycles and channels; the definition's text round
 * trip; every refusal; plot definitions kept in the journal and deleted
 * with their experiment. */
#include <math.h>
#include <string.h>

#include "flitlab-exp.h"
#include "flitlab-experiment-plot.h"
#include "store-fixture.h"

/* Student's t, two-sided 95 %, for 2, 3 and 7 degrees of freedom (tables). */
#define T95_N3 4.303
#define T95_N4 3.182
#define T95_N8 2.365

/* What each seed adds to a run's latency. */
static const double seed_offset[4] = { 0, 1, 3, 8 };

/* The latency of run (routing r, traffic t, rate, seed s). */
static double latency(int r, int t, double rate, int s)
{
    return 10 + 5 * r + 2 * t + 100 * rate + seed_offset[s];
}

static const double rates[] = { 0.1, 0.2, 0.3 };

/* Which runs are not done: (dor, bitrev, 0.3) stopped past saturation,
 * (updown, uniform, 0.2, seed 2) failed, (dor, uniform, 0.1, seed 1)
 * never run; (updown, uniform, 0.3, seed 4) has latency NaN. */
static FlRunStatus status_of(int r, int t, int k, int s, int *missing, int *nan)
{
    *missing = r == 1 && t == 0 && k == 0 && s == 0;
    *nan = r == 0 && t == 0 && k == 2 && s == 3;
    if (r == 1 && t == 1 && k == 2)
        return FL_RUN_STOPPED;
    return r == 0 && t == 0 && k == 1 && s == 1 ? FL_RUN_FAILED : FL_RUN_DONE;
}

static FlProject *make_project(char *path, size_t size)
{
    FlProject *p = NULL;
    FlExpDesign *d = NULL;
    FlError err = { 0 };
    char *text = NULL;
    in_dir(path, size, "plot.flitlab");
    remove(path);
    if (fl_project_new(&p, &err) || fl_project_save_as(p, path, &err)
        || fl_exp_design_new(&d, &err) || fl_exp_design_vary(d, "routing", "updown,dor", &err)
        || fl_exp_design_vary(d, "traffic", "uniform,bitrev", &err)
        || fl_exp_design_vary(d, "rate", "0.1:0.3:0.1", &err)
        || fl_exp_design_seeds(d, 1, 4, &err) || fl_exp_design_format(d, &text, &err)
        || fl_project_create_experiment(p, "grid", "mesh:4x4", "{}", text,
                                        fl_exp_design_count(d), &err)
        || fl_project_create_experiment(p, "empty", "mesh:4x4", "{}", text,
                                        fl_exp_design_count(d), &err)) {
        printf("Bail out! %s\n", err.message);
        exit(99);
    }
    CHECK_INT(fl_exp_design_count(d), 48);
    const char *keys[] = { "routing", "traffic", "rate" };
    const char *names[] = { "latency_avg" };
    int committed = 0;
    for (int64_t idx = 0; idx < 48; idx++) {
        const char *values[3];
        uint64_t seed;
        fl_exp_design_run(d, idx, values, &seed, NULL);
        int r = strcmp(values[0], "dor") == 0, t = strcmp(values[1], "bitrev") == 0;
        int k = (int)lround(atof(values[2]) * 10) - 1, s = (int)seed - 1, missing, nan;
        FlRunStatus st = status_of(r, t, k, s, &missing, &nan);
        double y = nan ? NAN : latency(r, t, rates[k], s);
        /* Vectors: accepted over 3 samples 50 cycles apart, y / 100 + k at
         * sample k; channel_utilization of 2 channels, y / 1000 and 0. */
        double accepted[3] = { y / 100, y / 100 + 1, y / 100 + 2 }, util[2] = { y / 1000, 0 };
        const double *data[2] = { accepted, util };
        const char *vnames[2] = { "accepted", "channel_utilization" };
        int lengths[2] = { 3, 2 };
        double steps[2] = { 50, 0 };
        FlProjectRun run = { .idx = idx, .status = st, .seed = seed, .config = "",
                             .param_keys = keys, .param_values = values, .nparams = 3,
                             .scalar_names = names, .scalar_values = &y, .nscalars = 1,
                             .vector_names = vnames, .vector_data = data,
                             .vector_lengths = lengths, .vector_steps = steps,
                             .nvectors = st == FL_RUN_DONE ? 2 : 0 };
        if (!missing)
            committed += fl_project_commit_run(p, "grid", &run, &err) == FL_OK;
    }
    CHECK_INT(committed, 47);
    free(text);
    fl_exp_design_free(d);
    return p;
}

/* The mean and 95 % half-width of n values, computed plainly. */
static void mean_ci(const double *v, int n, double t95, double *mean, double *half)
{
    double sum = 0, ss = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    *mean = sum / n;
    for (int i = 0; i < n; i++)
        ss += (v[i] - *mean) * (v[i] - *mean);
    *half = n > 1 ? t95 * sqrt(ss / (n - 1)) / sqrt(n) : 0;
}

static int data_of(FlProject *p, const char *x, const char *series, const char *where,
                   FlPlotData *d, FlError *err)
{
    FlPlotSpec s;
    fl_plot_spec_init(&s);
    s.experiment = "grid";
    s.x = (char *)x;
    s.y = "latency_avg";
    s.series = (char *)series;
    s.where = (char *)where;
    return fl_experiment_plot_data(p, &s, d, err);
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

/* Curve c's point at x equals mean and half over n runs. */
static int point_is(const FlPlotCurve *c, int i, double x, double mean, double half, int n)
{
    return i < c->n && near(c->x[i], x) && near(c->y[i], mean) && near(c->lo[i], mean - half)
           && near(c->hi[i], mean + half) && c->runs[i] == n;
}

static void test_series(FlProject *p)
{
    FlPlotData d = { 0 };
    FlError err = { 0 };
    CHECK(data_of(p, "rate", "routing", NULL, &d, &err) == FL_OK, "x=rate series=routing: %s",
          err.message);
    CHECK(d.ncurves == 2 && strcmp(d.curves[0].label, "updown") == 0
              && strcmp(d.curves[1].label, "dor") == 0,
          "one curve per routing, in the design's order");
    CHECK(strcmp(d.xlabel, "Offered load (flits/cycle/host)") == 0
              && strcmp(d.ylabel, "Mean packet latency (cycles)") == 0 && !d.title
              && !d.xnames,
          "labels with units: '%s', '%s'", d.xlabel, d.ylabel);
    /* updown at 0.1: both traffics, four seeds each. */
    double v[8];
    int n = 0;
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 4; s++)
            v[n++] = latency(0, t, 0.1, s);
    double mean, half;
    mean_ci(v, 8, T95_N8, &mean, &half);
    CHECK(near(mean, 10 + 1 + 10 + 3), "the hand mean is 24");
    CHECK(point_is(&d.curves[0], 0, 0.1, mean, half, 8),
          "updown at 0.1: mean %.4f [%.4f, %.4f] over %d runs", d.curves[0].y[0],
          d.curves[0].lo[0], d.curves[0].hi[0], d.curves[0].runs[0]);
    /* dor at 0.3: bitrev is stopped, uniform's four seeds remain. */
    mean_ci((double[]){ latency(1, 0, 0.3, 0), latency(1, 0, 0.3, 1), latency(1, 0, 0.3, 2),
                        latency(1, 0, 0.3, 3) },
            4, T95_N4, &mean, &half);
    CHECK(point_is(&d.curves[1], 2, 0.3, mean, half, 4),
          "dor at 0.3: stopped runs are no points (%d runs)", d.curves[1].runs[2]);
    /* dor at 0.1: seed 1 of uniform never ran: 7 runs. */
    CHECK(d.curves[1].runs[0] == 7, "a missing run is no point");
    CHECK(d.runs == 47 - 4 - 1 - 1, "runs: every done one with a finite y (%d)", d.runs);
    fl_plot_data_clear(&d);
}

static void test_where(FlProject *p)
{
    FlPlotData d = { 0 };
    FlError err = { 0 };
    CHECK(data_of(p, "rate", "routing", "traffic=uniform", &d, &err) == FL_OK, "where: %s",
          err.message);
    /* Over the seeds alone: the offsets' mean 3 and deviation sqrt(38/3). */
    double half = T95_N4 * sqrt(38.0 / 3) / 2;
    CHECK(d.ncurves == 2 && point_is(&d.curves[0], 0, 0.1, 10 + 10 + 3, half, 4)
              && point_is(&d.curves[1], 1, 0.2, 10 + 5 + 20 + 3, half, 4),
          "where traffic=uniform: points over 4 seeds, by hand: half-width %.4f", half);
    /* updown at 0.2: seed 2 failed; updown at 0.3: seed 4 is NaN. */
    double mean, h3;
    mean_ci((double[]){ 30, 33, 38 }, 3, 4.303, &mean, &h3);
    CHECK(point_is(&d.curves[0], 1, 0.2, mean, h3, 3), "a failed run is no point");
    mean_ci((double[]){ 40, 41, 43 }, 3, 4.303, &mean, &h3);
    CHECK(point_is(&d.curves[0], 2, 0.3, mean, h3, 3), "a NaN is left out of the mean");
    fl_plot_data_clear(&d);

    CHECK(data_of(p, "rate", "routing", " traffic = 2 ", &d, &err) == FL_EINVAL,
          "a where value the design lacks: %s", err.message);
    CHECK(data_of(p, "rate", NULL, "traffic=bitrev,routing=dor", &d, &err) == FL_OK
              && d.ncurves == 1 && d.curves[0].label == NULL && d.curves[0].n == 2,
          "every other parameter fixed: one curve with no label, the stopped point left out");
    fl_plot_data_clear(&d);
    CHECK(data_of(p, "rate", NULL, "rate=0.10", &d, &err) == FL_EINVAL
              && strstr(err.message, "on x"),
          "where on x: %s", err.message);
    CHECK(data_of(p, "rate", "routing", "routing=dor", &d, &err) == FL_EINVAL
              && strstr(err.message, "the series"),
          "where on the series: %s", err.message);
}

static void test_combinations(FlProject *p)
{
    FlPlotData d = { 0 };
    FlError err = { 0 };
    CHECK(data_of(p, "rate", NULL, NULL, &d, &err) == FL_OK && d.ncurves == 4,
          "no series: a curve per combination of the others (%d)", d.ncurves);
    const char *want[] = { "routing=updown, traffic=uniform", "routing=updown, traffic=bitrev",
                           "routing=dor, traffic=uniform", "routing=dor, traffic=bitrev" };
    int ok = d.ncurves == 4;
    for (int i = 0; ok && i < 4; i++)
        ok = strcmp(d.curves[i].label, want[i]) == 0;
    CHECK(ok, "their labels, in the design's order");
    CHECK(d.ncurves == 4 && point_is(&d.curves[1], 0, 0.1, 10 + 2 + 10 + 3,
                                     T95_N4 * sqrt(38.0 / 3) / 2, 4),
          "updown bitrev at 0.1 by hand");
    fl_plot_data_clear(&d);
    CHECK(data_of(p, "rate", NULL, "routing=updown", &d, &err) == FL_OK && d.ncurves == 2
              && strcmp(d.curves[1].label, "traffic=bitrev") == 0,
          "where leaves the rest as curves");
    fl_plot_data_clear(&d);

    /* Names on x: drawn at 0, 1, named in the label. */
    CHECK(data_of(p, "traffic", "routing", "rate=0.1", &d, &err) == FL_OK && d.nxnames == 2
              && strcmp(d.xnames[1], "bitrev") == 0 && d.curves[0].x[1] == 1
              && strstr(d.xlabel, "(0 uniform, 1 bitrev)"),
          "x=traffic: positions and names ('%s')", d.xlabel);
    fl_plot_data_clear(&d);
    CHECK(data_of(p, "rate", "routing", NULL, &d, &err) == FL_OK, "again");
    fl_plot_data_clear(&d);

    FlPlotSpec s;
    fl_plot_spec_init(&s);
    s.experiment = "empty";
    s.x = "rate";
    s.y = "throughput";
    CHECK(fl_experiment_plot_data(p, &s, &d, &err) == FL_OK && d.ncurves == 0 && d.runs == 0,
          "an experiment with no run done: no curve, no error");
    fl_plot_data_clear(&d);
}

static void test_refusals(FlProject *p)
{
    FlPlotData d = { 0 };
    FlError err = { 0 };
    CHECK(data_of(p, "vcs", NULL, NULL, &d, &err) == FL_ENOTFOUND
              && strstr(err.message, "'vcs'") && strstr(err.message, "routing, traffic, rate"),
          "x not varied: %s", err.message);
    CHECK(data_of(p, "nonsense", NULL, NULL, &d, &err) == FL_ENOTFOUND, "x unknown: %s",
          err.message);
    CHECK(data_of(p, "rate", "seed", NULL, &d, &err) == FL_ENOTFOUND
              && strstr(err.message, "series"),
          "series not varied: %s", err.message);
    CHECK(data_of(p, "rate", "rate", NULL, &d, &err) == FL_EINVAL, "series is x: %s",
          err.message);
    CHECK(data_of(p, "rate", NULL, "bogus=1", &d, &err) == FL_ENOTFOUND
              && strstr(err.message, "where"),
          "where key unknown: %s", err.message);
    CHECK(data_of(p, "rate", NULL, "traffic", &d, &err) == FL_EINVAL, "where without '=': %s",
          err.message);
    CHECK(data_of(p, "rate", NULL, "traffic=uniform,traffic=bitrev", &d, &err) == FL_EINVAL,
          "where key twice: %s", err.message);
    FlPlotSpec s;
    fl_plot_spec_init(&s);
    s.experiment = "grid";
    s.x = "rate";
    s.y = "latency";
    CHECK(fl_experiment_plot_data(p, &s, &d, &err) == FL_ENOTFOUND
              && strstr(err.message, "not a result key"),
          "y no result key: %s", err.message);
    s.y = "hops_avg";
    CHECK(fl_experiment_plot_data(p, &s, &d, &err) == FL_ENOTFOUND
              && strstr(err.message, "no done run"),
          "y no run has: %s", err.message);
    s.y = NULL;
    CHECK(fl_experiment_plot_data(p, &s, &d, &err) == FL_EINVAL, "no y: %s", err.message);
    s.y = "latency_avg";
    s.experiment = "nope";
    CHECK(fl_experiment_plot_data(p, &s, &d, &err) == FL_ENOTFOUND
              && strstr(err.message, "'nope'") && d.ncurves == 0,
          "unknown experiment: %s", err.message);
}

/* With x cycle or channel, y is a vector: each sample (or channel) is a
 * point, the mean over the runs pooled into it. */
static void test_vectors(FlProject *p)
{
    FlPlotData d = { 0 };
    FlError err = { 0 };
    FlPlotSpec s;
    fl_plot_spec_init(&s);
    s.experiment = "grid";
    s.x = FL_PLOT_X_CYCLE;
    s.y = "accepted";
    s.series = "routing";
    s.where = "traffic=uniform,rate=0.2";
    CHECK(fl_experiment_plot_data(p, &s, &d, &err) == FL_OK, "x=cycle y=accepted: %s",
          err.message);
    /* (updown, uniform, 0.2) failed with seed 2: 3 runs; dor has 4. */
    double v[4], mean, half;
    int ok = d.ncurves == 2 && d.runs == 7 && strcmp(d.xlabel, "Cycle") == 0
             && strcmp(d.ylabel, "Accepted load (flits/cycle/host)") == 0;
    for (int k = 0; ok && k < 3; k++) {
        int seeds[3] = { 0, 2, 3 };
        for (int i = 0; i < 3; i++)
            v[i] = latency(0, 0, 0.2, seeds[i]) / 100 + k;
        mean_ci(v, 3, T95_N3, &mean, &half);
        ok = point_is(&d.curves[0], k, 50.0 * k, mean, half, 3);
        for (int i = 0; i < 4; i++)
            v[i] = latency(1, 0, 0.2, i) / 100 + k;
        mean_ci(v, 4, T95_N4, &mean, &half);
        ok = ok && point_is(&d.curves[1], k, 50.0 * k, mean, half, 4);
    }
    CHECK(ok && d.curves[0].n == 3, "3 samples, 50 cycles apart, mean over the seeds");
    fl_plot_data_clear(&d);

    s.x = FL_PLOT_X_CHANNEL;
    s.y = "channel_utilization";
    s.series = NULL;
    s.where = "routing=dor,traffic=bitrev,rate=0.1";
    CHECK(fl_experiment_plot_data(p, &s, &d, &err) == FL_OK && d.ncurves == 1
              && d.curves[0].n == 2 && d.curves[0].x[1] == 1 && d.curves[0].y[1] == 0
              && strcmp(d.xlabel, "Channel") == 0,
          "x=channel: a point per channel (%s)", err.message);
    fl_plot_data_clear(&d);
    s.x = FL_PLOT_X_CYCLE;
    CHECK(fl_experiment_plot_data(p, &s, &d, &err) == FL_ENOTFOUND
              && strstr(err.message, "by cycle") && strstr(err.message, "accepted"),
          "a vector by channel over cycles: %s", err.message);
    s.y = "latency_avg";
    CHECK(fl_experiment_plot_data(p, &s, &d, &err) == FL_ENOTFOUND,
          "a scalar over cycles: %s", err.message);
    s.y = "latency";
    CHECK(fl_experiment_plot_data(p, &s, &d, &err) == FL_ENOTFOUND
              && strstr(err.message, "no done run") && d.ncurves == 0,
          "a vector no run has: %s", err.message);
}

/* The form of where alone, before any experiment: what a command checks
 * as it reads its options. */
static void test_where_syntax(void)
{
    FlError err = { 0 };
    CHECK(fl_plot_where_check("routing=dor", &err) == FL_OK
              && fl_plot_where_check(" routing = dor ,rate=0.1", &err) == FL_OK
              && fl_plot_where_check("nosuch=1", &err) == FL_OK,
          "key=value items are taken, whatever the keys");
    static const char *const bad[] = { "=3", "a", "routing=", "routing=dor,", ",rate=1", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&err, 0, sizeof err);
        CHECK(fl_plot_where_check(bad[i], &err) == FL_EINVAL
                  && strncmp(err.message, "where: expected key=value, not '", 32) == 0,
              "'%s' is refused: %s", bad[i], err.message);
    }
}

static void test_spec_text(void)
{
    FlPlotSpec s, back;
    FlError err = { 0 };
    char *text = NULL, *again = NULL;
    fl_plot_spec_init(&s);
    CHECK(s.error_bars == 1 && s.columns == 1 && !s.xlog && !s.x, "defaults");
    s.experiment = "grid";
    s.x = "rate";
    s.y = "latency_avg";
    s.series = "routing";
    s.where = "traffic=uniform";
    s.title = "Latency = f(load), 4x4";
    s.ylog = 1;
    s.error_bars = 0;
    s.columns = 2;
    CHECK_INT(fl_plot_spec_format(&s, &text, &err), FL_OK);
    CHECK(text && strstr(text, "x=rate\n") && strstr(text, "title=Latency = f(load), 4x4\n")
              && !strstr(text, "xlabel"),
          "format: key=value lines, NULLs left out");
    CHECK_INT(fl_plot_spec_parse(text, &back, &err), FL_OK);
    CHECK(strcmp(back.where, s.where) == 0 && strcmp(back.title, s.title) == 0 && back.ylog
              && !back.xlog && !back.error_bars && back.columns == 2 && !back.xlabel,
          "parse gives the definition back");
    CHECK(fl_plot_spec_format(&back, &again, &err) == FL_OK && strcmp(again, text) == 0,
          "and formats to the same text");
    FlPlotSpec copy;
    CHECK(fl_plot_spec_copy(&copy, &back, &err) == FL_OK && copy.series != back.series
              && strcmp(copy.series, "routing") == 0,
          "a copy owns its strings");
    fl_plot_spec_clear(&copy);
    fl_plot_spec_clear(&back);
    free(text);
    free(again);

    CHECK(fl_plot_spec_parse("# a plot\n\nx=rate\r\ny=throughput\n", &back, &err) == FL_OK
              && strcmp(back.x, "rate") == 0 && back.error_bars == 1,
          "comments, blank lines and CRLF; defaults kept");
    fl_plot_spec_clear(&back);
    CHECK(fl_plot_spec_parse("x=rate\ncolour=red\n", &back, &err) == FL_EPARSE
              && strncmp(err.message, "line 2: ", 8) == 0 && !back.x,
          "unknown key: %s", err.message);
    CHECK(fl_plot_spec_parse("x=rate\n\nnothing here", &back, &err) == FL_EPARSE
              && strncmp(err.message, "line 3: ", 8) == 0,
          "no '=': %s", err.message);
    CHECK(fl_plot_spec_parse("columns=3", &back, &err) == FL_EINVAL
              && strncmp(err.message, "line 1: ", 8) == 0,
          "bad columns: %s", err.message);
    CHECK(fl_plot_spec_parse("x=a\nx=b\n", &back, &err) == FL_EPARSE, "key twice: %s",
          err.message);
    CHECK(fl_plot_spec_parse("x=rate\ny=thr\rough\n", &back, &err) == FL_EINVAL && !back.x
              && strcmp(err.message, "line 2: the y holds a carriage return") == 0,
          "a carriage return inside a value, which format could not write: %s", err.message);
    fl_plot_spec_init(&s);
    s.title = "two\nlines";
    CHECK(fl_plot_spec_format(&s, &text, &err) == FL_EINVAL && !text, "a line break: %s",
          err.message);
}

static void test_saved_plots(FlProject *p, const char *path)
{
    FlError err = { 0 };
    char *def = NULL, **names = NULL;
    int n = -1;
    CHECK(fl_project_list_plots(p, "grid", &names, &n, &err) == FL_OK && n == 0 && !names,
          "no plot yet");
    CHECK_INT(fl_project_put_plot(p, "grid", "latency", "x=rate\ny=latency_avg\n", &err),
              FL_OK);
    CHECK_INT(fl_project_put_plot(p, "grid", "accepted", "x=rate\ny=throughput\n", &err), FL_OK);
    CHECK_INT(fl_project_put_plot(p, "grid", "latency", "x=rate\ny=latency_p99\n", &err),
              FL_OK);
    CHECK(fl_project_get_plot(p, "grid", "latency", &def, &err) == FL_OK
              && strcmp(def, "x=rate\ny=latency_p99\n") == 0,
          "a put replaces the plot of that name");
    free(def);
    CHECK(fl_project_list_plots(p, "grid", &names, &n, &err) == FL_OK && n == 2
              && strcmp(names[0], "accepted") == 0 && strcmp(names[1], "latency") == 0,
          "listed by name");
    fl_project_setting_keys_free(names, n);
    CHECK(!fl_project_is_modified(p), "plots go into the file, not the working copy");
    CHECK(fl_project_get_plot(p, "grid", "nope", &def, &err) == FL_ENOTFOUND && !def
              && strstr(err.message, "'nope'"),
          "an unknown plot: %s", err.message);
    CHECK(fl_project_put_plot(p, "absent", "x", "", &err) == FL_ENOTFOUND
              && strstr(err.message, "'absent'"),
          "an unknown experiment: %s", err.message);
    CHECK(fl_project_put_plot(p, "grid", "", "", &err) == FL_EINVAL, "an empty name: %s",
          err.message);
    CHECK_INT(fl_project_delete_plot(p, "grid", "accepted", &err), FL_OK);
    CHECK(fl_project_delete_plot(p, "grid", "accepted", &err) == FL_ENOTFOUND,
          "deleting it twice: %s", err.message);
    CHECK_INT(fl_project_put_plot(p, "empty", "latency", "x=rate\n", &err), FL_OK);
    CHECK(sql_int(path, "SELECT count(*) FROM plot") == 2, "two plots in the file");
    CHECK_INT(fl_project_delete_experiment(p, "grid", &err), FL_OK);
    CHECK(sql_int(path, "SELECT count(*) FROM plot") == 1
              && sql_int(path, "SELECT count(*) FROM plot WHERE name = 'latency'") == 1,
          "deleting an experiment deletes its plots, not the others'");
    CHECK(fl_project_list_plots(p, "grid", &names, &n, &err) == FL_ENOTFOUND,
          "its plots cannot be listed any more: %s", err.message);
    FlProject *untitled = NULL;
    fl_project_new(&untitled, NULL);
    CHECK(fl_project_put_plot(untitled, "grid", "x", "", &err) == FL_EINVAL,
          "an untitled project: %s", err.message);
    fl_project_free(untitled);
}

int main(void)
{
    if (!test_dir_make("flitlab-plot"))
        return 99;
    char path[512];
    FlProject *p = make_project(path, sizeof path);
    test_series(p);
    test_where(p);
    test_combinations(p);
    test_refusals(p);
    test_vectors(p);
    test_spec_text();
    test_where_syntax();
    test_saved_plots(p, path);
    fl_project_free(p);
    test_dir_remove();
    rmdir(test_dir);
    return tap_done();
}
