/* bench-plot.c — how long a plot of an experiment's results takes: its
 * points read from the project's journal and grouped, then the figure drawn
 * and exported. Run by hand (never as a timed test):
 *
 *     bench-plot [RATES]
 *
 * An experiment of 2 routings x RATES offered loads (5000) x 1 seed, every
 * result key of every run in the file, written straight into a fresh
 * project with SQL in one transaction (committing run by run is the
 * runner's cost, not the plot's). Then, each the median of REPEATS: the
 * points of rate against latency_avg by routing (2 x RATES points), the
 * figure drawn on a PNG-sized image surface and on a PDF surface at the
 * paper size, and the whole export to PDF. Figures in ms of the process's
 * CPU time, which other work on a busy machine does not inflate (the
 * reads wait on no disk: the file is in the page cache). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo-pdf.h>
#include <sqlite3.h>

#include "bench-time.h"
#include "flitlab-exp.h"
#include "flitlab-experiment-figure.h"

#define REPEATS 7

static void fail(const char *what, const char *why)
{
    fprintf(stderr, "bench-plot: %s: %s\n", what, why);
    exit(1);
}

/* Every run of the design done, with every result key, in one transaction
 * (a name that two models share, as cycles, is kept once). */
static void fill(const char *path, int64_t runs)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *run = NULL, *scalar = NULL;
    if (sqlite3_open(path, &db) != SQLITE_OK
        || sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK
        || sqlite3_prepare_v2(db, "INSERT INTO run VALUES (1, ?, 'done', 1, '', 'bench', "
                              "'bench', '2026-01-01T00:00:00Z', 0.1, NULL)", -1, &run, NULL)
               != SQLITE_OK
        || sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO scalar VALUES (1, ?, ?, ?)", -1,
                              &scalar, NULL)
               != SQLITE_OK)
        fail(path, sqlite3_errmsg(db));
    for (int64_t idx = 0; idx < runs; idx++) {
        sqlite3_bind_int64(run, 1, idx);
        if (sqlite3_step(run) != SQLITE_DONE)
            fail(path, sqlite3_errmsg(db));
        sqlite3_reset(run);
        for (int k = 0; k < fl_sim_result_key_count(); k++) {
            sqlite3_bind_int64(scalar, 1, idx);
            sqlite3_bind_text(scalar, 2, fl_sim_result_key(k)->name, -1, SQLITE_STATIC);
            sqlite3_bind_double(scalar, 3, 10 + (double)(idx % 5000) * 0.01 + k);
            if (sqlite3_step(scalar) != SQLITE_DONE)
                fail(path, sqlite3_errmsg(db));
            sqlite3_reset(scalar);
        }
    }
    sqlite3_finalize(run);
    sqlite3_finalize(scalar);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        fail(path, sqlite3_errmsg(db));
    sqlite3_close(db);
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static double median(double *ms, int n)
{
    qsort(ms, (size_t)n, sizeof *ms, by_value);
    return ms[n / 2];
}

int main(int argc, char **argv)
{
    int rates = argc > 1 ? atoi(argv[1]) : 5000;
    if (rates < 2 || rates > 100000)
        fail("RATES", "from 2 to 100000");
    char dir[] = "/tmp/bench-plot-XXXXXX", path[64], pdf[64], range[64];
    if (!mkdtemp(dir))
        fail(dir, "cannot make it");
    snprintf(path, sizeof path, "%s/b.flitlab", dir);
    snprintf(pdf, sizeof pdf, "%s/b.pdf", dir);
    snprintf(range, sizeof range, "0.0001:%g:0.0001", rates * 0.0001);
    FlProject *p = NULL;
    FlExpDesign *d = NULL;
    FlError err = { 0 };
    char *text = NULL;
    if (fl_project_new(&p, &err) || fl_project_save_as(p, path, &err)
        || fl_exp_design_new(&d, &err) || fl_exp_design_vary(d, "routing", "updown,dor", &err)
        || fl_exp_design_vary(d, "rate", range, &err) || fl_exp_design_format(d, &text, &err)
        || fl_project_create_experiment(p, "sweep", "mesh:8x8", "{}", text,
                                        fl_exp_design_count(d), &err))
        fail("setup", err.message);
    int64_t runs = fl_exp_design_count(d);
    fill(path, runs);

    FlPlotSpec s;
    fl_plot_spec_init(&s);
    s.experiment = "sweep";
    s.x = "rate";
    s.y = "latency_avg";
    s.series = "routing";
    double data[REPEATS], image[REPEATS], paper[REPEATS], export[REPEATS];
    FlPlotData pd;
    FlDrawPlot plot;
    double w = 0, h = 0;
    for (int i = 0; i < REPEATS; i++) {
        double t0 = cpu_ms();
        if (fl_experiment_plot_data(p, &s, &pd, &err))
            fail("plot data", err.message);
        data[i] = cpu_ms() - t0;
        fl_experiment_figure(&pd, &s, &plot, &w, &h);
        cairo_surface_t *surface = cairo_image_surface_create(
            CAIRO_FORMAT_ARGB32, (int)(w * FL_EXPERIMENT_FIGURE_PNG_SCALE),
            (int)(h * FL_EXPERIMENT_FIGURE_PNG_SCALE));
        cairo_t *cr = cairo_create(surface);
        cairo_scale(cr, FL_EXPERIMENT_FIGURE_PNG_SCALE, FL_EXPERIMENT_FIGURE_PNG_SCALE);
        t0 = cpu_ms();
        fl_draw_plot(cr, &plot, w, h);
        cairo_surface_flush(surface);
        image[i] = cpu_ms() - t0;
        cairo_destroy(cr);
        cairo_surface_destroy(surface);
        surface = cairo_pdf_surface_create(NULL, w, h);
        cr = cairo_create(surface);
        t0 = cpu_ms();
        fl_draw_plot(cr, &plot, w, h);
        cairo_surface_finish(surface);
        paper[i] = cpu_ms() - t0;
        cairo_destroy(cr);
        cairo_surface_destroy(surface);
        fl_plot_data_clear(&pd);
        t0 = cpu_ms();
        if (fl_experiment_export_plot(p, &s, pdf, NULL, &err))
            fail("export", err.message);
        export[i] = cpu_ms() - t0;
    }
    printf("%lld runs, %d points in 2 curves (median of %d, ms)\n", (long long)runs, 2 * rates,
           REPEATS);
    printf("  points from the journal   %8.1f\n", median(data, REPEATS));
    printf("  drawn, PNG-sized image    %8.1f\n", median(image, REPEATS));
    printf("  drawn, PDF surface        %8.1f\n", median(paper, REPEATS));
    printf("  export to PDF, all in     %8.1f\n", median(export, REPEATS));
    free(text);
    fl_exp_design_free(d);
    fl_project_free(p);
    unlink(path);
    unlink(pdf);
    rmdir(dir);
    return 0;
}
