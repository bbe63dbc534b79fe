/* bench-store.c — how long a big project takes to open and to query. Run
 * by hand (never as a timed test):
 *
 *     bench-store [DIR]
 *
 * builds, in DIR (default: a new directory under /tmp, removed at the
 * end), a project file holding one experiment of 10,000 runs with 50
 * scalars each (500,000 scalars), through the public store API: the first
 * RUNS_ONE_BY_ONE runs one transaction each, as an experiment commits
 * them (their rate is printed), the others in transactions of BATCH runs
 * (fl_project_commit_runs()). Then it times, median of REPEATS:
 * fl_project_open() of the file, fl_project_list_experiments(),
 * fl_project_list_runs() and fl_project_get_scalars() of one scalar over
 * the 10,000 runs. The bar: the file opens in under 200 ms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench-time.h"
#include "flitlab-store.h"

#define RUNS 10000
#define SCALARS 50
#define RUNS_ONE_BY_ONE 200
#define BATCH 500
#define REPEATS 5

typedef struct Bench {
    char path[512];
    char names_buf[SCALARS][24];
    const char *names[SCALARS];
    char rate[RUNS][16];
    char seed[RUNS][8];
} Bench;

static const char *const keys[] = { "rate", "seed" };

/* Run idx: rates 0.0001 .. 1 by 0.0001, scalars that differ per run. */
static void fill_run(Bench *b, int idx, FlProjectRun *run, const char **values,
                     double *scalars)
{
    snprintf(b->rate[idx], sizeof b->rate[idx], "%.4f", (idx + 1) * 1e-4);
    snprintf(b->seed[idx], sizeof b->seed[idx], "%d", 1 + idx % 5);
    values[0] = b->rate[idx];
    values[1] = b->seed[idx];
    for (int s = 0; s < SCALARS; s++)
        scalars[s] = 10.0 + idx * 1e-3 + s + sin(idx * 0.1 + s);
    *run = (FlProjectRun){ .idx = idx, .status = FL_RUN_DONE, .seed = (uint64_t)(1 + idx % 5),
                           .config = "mode=flit\nrate=x\n", .host = "bench",
                           .started = "2026-11-26T12:00:00Z", .wall_s = 0.25,
                           .param_keys = keys, .param_values = values, .nparams = 2,
                           .scalar_names = b->names, .scalar_values = scalars,
                           .nscalars = SCALARS };
}

static int build(Bench *b, FlError *err)
{
    FlProject *p = NULL;
    int rc = fl_project_new(&p, err);
    if (!rc)
        rc = fl_project_save_as(p, b->path, err);
    if (!rc)
        rc = fl_project_create_experiment(p, "sweep", "mesh:8x8", "{}",
                                          "vary rate=0.0001:1:0.0001\n", RUNS, err);
    static FlProjectRun runs[BATCH];
    static const char *values[BATCH][2];
    static double scalars[BATCH][SCALARS];
    double t0 = now_ms();
    for (int i = 0; !rc && i < RUNS_ONE_BY_ONE; i++) {
        fill_run(b, i, &runs[0], values[0], scalars[0]);
        rc = fl_project_commit_run(p, "sweep", &runs[0], err);
    }
    double one = now_ms() - t0;
    if (!rc)
        printf("%-44s %9.0f commits/s (%.2f ms each)\n", "fl_project_commit_run, one per run:",
               RUNS_ONE_BY_ONE / one * 1e3, one / RUNS_ONE_BY_ONE);
    t0 = now_ms();
    for (int i = RUNS_ONE_BY_ONE; !rc && i < RUNS; i += BATCH) {
        int n = RUNS - i < BATCH ? RUNS - i : BATCH;
        for (int k = 0; k < n; k++)
            fill_run(b, i + k, &runs[k], values[k], scalars[k]);
        rc = fl_project_commit_runs(p, "sweep", runs, n, err);
    }
    double batched = now_ms() - t0;
    if (!rc)
        printf("%-44s %9.0f runs/s (%d runs in %.0f ms)\n", "fl_project_commit_runs, 500 a time:",
               (RUNS - RUNS_ONE_BY_ONE) / batched * 1e3, RUNS - RUNS_ONE_BY_ONE, batched);
    fl_project_free(p);
    return rc;
}

/* This process's CPU time, which other work on a busy machine does not
 * inflate (the system's share included: copying the file is in it). */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static double median(double *t)
{
    qsort(t, REPEATS, sizeof *t, by_value);
    return t[REPEATS / 2];
}

static int measure(Bench *b, FlError *err)
{
    double t_open[REPEATS], cpu_open[REPEATS], t_exp[REPEATS], t_runs[REPEATS],
        t_scalar[REPEATS];
    int rc = FL_OK, nexp = 0, nruns = 0, nvalues = 0;
    for (int r = 0; !rc && r < REPEATS; r++) {
        FlProject *p = NULL;
        double c0 = cpu_ms(), t0 = now_ms();
        rc = fl_project_open(b->path, &p, err);
        t_open[r] = now_ms() - t0;
        cpu_open[r] = cpu_ms() - c0;
        FlProjectExperiment *items = NULL;
        t0 = now_ms();
        if (!rc)
            rc = fl_project_list_experiments(p, &items, &nexp, err);
        t_exp[r] = now_ms() - t0;
        fl_project_experiments_free(items, nexp);
        int64_t *idx = NULL;
        t0 = now_ms();
        if (!rc)
            rc = fl_project_list_runs(p, "sweep", FL_RUN_DONE, &idx, &nruns, err);
        t_runs[r] = now_ms() - t0;
        free(idx);
        double *v = NULL;
        idx = NULL;
        t0 = now_ms();
        if (!rc)
            rc = fl_project_get_scalars(p, "sweep", "s25", &idx, &v, &nvalues, err);
        t_scalar[r] = now_ms() - t0;
        free(idx);
        free(v);
        fl_project_free(p);
    }
    if (rc)
        return rc;
    if (nexp != 1 || nruns != RUNS || nvalues != RUNS) {
        fprintf(stderr, "bench-store: read %d experiments, %d runs, %d values back\n", nexp,
                nruns, nvalues);
        return FL_EIO;
    }
    printf("median of %d:\n", REPEATS);
    double wall = median(t_open);
    printf("  %-42s %9.1f ms, CPU %.1f ms (bar: 200 ms)\n", "fl_project_open:", wall,
           median(cpu_open));
    printf("  %-42s %9.1f ms\n", "fl_project_list_experiments:", median(t_exp));
    printf("  %-42s %9.1f ms\n", "fl_project_list_runs (10,000 runs):", median(t_runs));
    printf("  %-42s %9.1f ms\n", "fl_project_get_scalars (one, 10,000 runs):",
           median(t_scalar));
    return FL_OK;
}

int main(int argc, char **argv)
{
    static Bench b;
    char dir[256] = "/tmp/bench-store-XXXXXX";
    int own = argc < 2;
    if (own && !mkdtemp(dir)) {
        perror("bench-store: mkdtemp");
        return 1;
    }
    snprintf(b.path, sizeof b.path, "%s/big.flitlab", own ? dir : argv[1]);
    remove(b.path);
    for (int s = 0; s < SCALARS; s++) {
        snprintf(b.names_buf[s], sizeof b.names_buf[s], "s%d", s);
        b.names[s] = b.names_buf[s];
    }
    printf("one experiment, %d runs x %d scalars = %d scalars\n", RUNS, SCALARS,
           RUNS * SCALARS);
    FlError err = { 0 };
    int rc = build(&b, &err);
    struct stat st;
    if (!rc && stat(b.path, &st) == 0)
        printf("%-44s %9.1f MB\n", "the file:", st.st_size / 1e6);
    if (!rc)
        rc = measure(&b, &err);
    if (rc)
        fprintf(stderr, "bench-store: %s\n", err.message);
    if (own) {
        remove(b.path);
        rmdir(dir);
    }
    return rc ? 1 : 0;
}
