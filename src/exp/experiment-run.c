/* experiment-run.c — running an experiment's runs on the pool of workers of
 * flitlab-exp.h, one curve per series, each kept run committed (and
 * handed to the result callback) as soon as it is known, with progress,
 * an estimate of the time left and cancel (flitlab-experiment.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "experiment-internal.h"

/* One run to do. */
typedef struct Task {
    int64_t idx;
    uint64_t seed;
    const char *routing;
    FlSimSettings settings;      /* the point's config.traffic points into it */
    FlRoutingOptions ro;
    double started;              /* when it started (the clock of now()) */
} Task;

typedef struct Runner {
    FlExperiment *x;
    const FlExperimentRunOptions *opt;
    Task *tasks;
    int n;
    int workers;
    FlExperimentProgress progress;
    double t0;
    double wall_sum;             /* of the runs finished */
    int64_t walls;
    int64_t first_failed;        /* its run number and why */
    FlError why;
    FlError err;                 /* the first commit or claim that failed */
    int commit_failed;
    int64_t delivered[3];        /* runs handed over, by FlRunStatus */
} Runner;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void fl_experiment_run_options_init(FlExperimentRunOptions *opt)
{
    memset(opt, 0, sizeof *opt);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    opt->workers = online > 0 ? (int)(online < FL_EXP_MAX_WORKERS ? online : FL_EXP_MAX_WORKERS)
                              : 1;
}

void fl_experiment_cancel(FlExperiment *x)
{
    atomic_store(&x->cancelled, 1);
    pthread_mutex_lock(&x->lock);
    if (x->exp)
        fl_exp_cancel(x->exp);
    pthread_mutex_unlock(&x->lock);
}

double fl_experiment_eta(const FlExperimentProgress *p, double mean_wall_s, int workers)
{
    int64_t left = p->todo - p->done - p->failed - p->stopped;
    if (left <= 0)
        return 0;
    if (!(mean_wall_s >= 0) || workers < 1)
        return NAN;
    /* The runs left go round the workers; the last round may not fill them. */
    return mean_wall_s * (double)left / (double)(left < workers ? left : workers);
}

static void report(Runner *r)
{
    FlExperimentProgress *p = &r->progress;
    p->elapsed_s = now() - r->t0;
    p->eta_s = fl_experiment_eta(p, r->walls ? r->wall_sum / (double)r->walls : NAN,
                                 r->workers);
    if (r->opt->progress)
        r->opt->progress(r->opt->progress_data, p);
}

static void fail_with(Runner *r, const FlError *err)
{
    if (!r->commit_failed) {
        r->commit_failed = 1;
        r->err = *err;
    }
    fl_exp_cancel(r->x->exp);
}

/* Commits one finished run (when the experiment has a file) and hands it
 * to the result callback. */
static void deliver(Runner *r, const Task *task, FlRunStatus status, const FlExpResult *res)
{
    FlExperimentResult out = {
        .idx = task->idx, .status = status, .seed = task->seed,
    };
    if (status == FL_RUN_DONE) {
        fl_experiment_scalars(r->x, &res->sim, &out);
        out.wall_s = res->sim.wall_s;
    } else if (status == FL_RUN_FAILED) {
        out.error = res->error.message;
    }
    FlError err = { 0 };
    if (r->x->project && fl_experiment_commit(r->x, &out, NULL, &err)) {
        fail_with(r, &err);
        return;
    }
    r->delivered[status - FL_RUN_DONE]++;
    if (r->opt->result)
        r->opt->result(r->opt->result_data, &out);
}

/* Each kept point, in order along its curve. */
static void on_result(void *data, FlExpResult *res)
{
    Runner *r = data;
    const Task *task = res->user_data;
    int failed = res->state != FL_EXP_DONE;
    if (failed && r->first_failed < 0) {
        r->first_failed = task->idx;
        r->why = res->error;
    }
    deliver(r, task, failed ? FL_RUN_FAILED : FL_RUN_DONE, res);
}

static void on_progress(void *data, const FlExpProgress *e)
{
    Runner *r = data;
    Task *task = e->point->user_data;
    if (e->event == FL_EXP_STARTED) {
        task->started = now();
        FlError err = { 0 };
        if (fl_experiment_claim(r->x, &task->idx, 1, &err))
            fail_with(r, &err);
    } else if (e->point->state == FL_EXP_DONE || e->point->state == FL_EXP_FAILED) {
        r->wall_sum += now() - task->started;
        r->walls++;
    }
    FlExperimentProgress *p = &r->progress;
    p->running = e->running;
    p->done = e->done;
    p->failed = e->failed;
    p->stopped = e->cancelled + e->skipped;
    report(r);
}

static void clear_tasks(Runner *r)
{
    for (int i = 0; i < r->n; i++) {
        fl_sim_settings_clear(&r->tasks[i].settings);
        fl_routing_options_clear(&r->tasks[i].ro);
    }
    free(r->tasks);
    r->tasks = NULL;
    r->n = 0;
}

static int by_number(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The runs to do, in increasing order: the ones given, or every one the
 * file does not hold. */
static int choose(Runner *r, int64_t **runs, int64_t *n, FlError *err)
{
    FlExperiment *x = r->x;
    const FlExperimentRunOptions *opt = r->opt;
    unsigned char *status = NULL;
    int64_t counts[3];
    int rc = fl_experiment_status(x, &status, counts, err);
    if (rc)
        return rc;
    r->progress.held = counts[0] + counts[1] + counts[2];
    size_t cap = (size_t)(opt->runs ? opt->nruns : x->e.runs);
    *runs = malloc((cap ? cap : 1) * sizeof **runs);
    *n = 0;
    if (!*runs)
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the runs of experiment %s",
                          x->e.name);
    for (int64_t i = 0; !rc && opt->runs && i < opt->nruns; i++) {
        if (opt->runs[i] < 0 || opt->runs[i] >= x->e.runs)
            rc = fl_error_set(err, FL_ERANGE, "experiment %s has runs 0 to %lld, not %lld",
                              x->e.name, (long long)x->e.runs - 1, (long long)opt->runs[i]);
        else
            (*runs)[(*n)++] = opt->runs[i];
    }
    for (int64_t idx = 0; !rc && !opt->runs && idx < x->e.runs; idx++)
        if (status[idx] == FL_EXPERIMENT_MISSING)
            (*runs)[(*n)++] = idx;
    free(status);
    if (!rc && opt->runs) {
        /* Along a curve in the design's order, each run once. */
        qsort(*runs, (size_t)*n, sizeof **runs, by_number);
        int64_t kept = 0;
        for (int64_t i = 0; i < *n; i++)
            if (kept == 0 || (*runs)[kept - 1] != (*runs)[i])
                (*runs)[kept++] = (*runs)[i];
        *n = kept;
    }
    if (!rc && *n > (int64_t)(FL_EXP_DESIGN_MAX_RUNS))
        rc = fl_error_set(err, FL_ERANGE, "experiment %s: too many runs at once",
                          x->e.name);
    return rc;
}

/* The tasks of the runs to do. */
static int plan(Runner *r, const int64_t *runs, int64_t n, FlError *err)
{
    r->tasks = calloc((size_t)(n ? n : 1), sizeof *r->tasks);
    if (!r->tasks)
        return fl_error_set(err, FL_ENOMEM, "out of memory for experiment %s", r->x->e.name);
    for (int64_t i = 0; i < n; i++) {
        Task *task = &r->tasks[r->n++];
        task->idx = runs[i];
        int rc = fl__experiment_apply(r->x, task->idx, &task->settings, &task->ro,
                                      &task->routing, err);
        if (!rc)
            rc = fl_exp_design_run(r->x->design, task->idx, NULL, &task->seed, err);
        if (rc)
            return rc;
    }
    return FL_OK;
}

/* Runs the tasks; the points the stop rule left out are committed as
 * stopped once the curves are done. */
static int run_tasks(Runner *r, FlError *err)
{
    FlExperiment *x = r->x;
    FlExpPoint *points = calloc((size_t)r->n, sizeof *points);
    if (!points)
        return fl_error_set(err, FL_ENOMEM, "out of memory for experiment %s", x->e.name);
    for (int i = 0; i < r->n; i++) {
        Task *task = &r->tasks[i];
        fl_exp_point_init(&points[i]);
        points[i].topology = x->t;
        points[i].config = task->settings.config;
        points[i].routing_name = task->routing;
        points[i].routing_options = task->ro;
        points[i].series = (int)fl_experiment_curve(x, task->idx);
        points[i].user_data = task;
    }
    FlExpOptions opt;
    fl_exp_options_init(&opt);
    opt.workers = r->workers;
    opt.progress = on_progress;
    opt.progress_data = r;
    opt.result = on_result;
    opt.result_data = r;
    FlExp *exp = NULL;
    int rc = fl_exp_new(points, r->n, &opt, &exp, err);
    if (!rc) {
        pthread_mutex_lock(&x->lock);
        x->exp = exp;
        if (atomic_load(&x->cancelled))
            fl_exp_cancel(exp);
        pthread_mutex_unlock(&x->lock);
        rc = fl_exp_run(exp, err);
    }
    int cancelled = exp && atomic_load(&x->cancelled);
    /* Without a cancel, a point left out is past its curve's saturation,
     * even one that ran to its end before the curve was judged. */
    for (int i = 0; exp && !cancelled && !r->commit_failed && i < r->n; i++) {
        const FlExpResult *res = fl_exp_result(exp, i);
        if (!res->kept)
            deliver(r, &r->tasks[i], FL_RUN_STOPPED, res);
    }
    pthread_mutex_lock(&x->lock);
    x->exp = NULL;
    pthread_mutex_unlock(&x->lock);
    fl_exp_free(exp);
    free(points);
    if (r->commit_failed) {
        *err = r->err;
        return r->err.code ? r->err.code : FL_EIO;
    }
    if (cancelled)
        return fl_error_set(err, FL_ECANCELLED, "experiment %s: cancelled", x->e.name);
    /* A failed run is committed as such; the call still fails. */
    if (r->first_failed >= 0)
        return fl_error_set(err, r->why.code ? r->why.code : FL_EINVAL, "run %lld: %s",
                            (long long)r->first_failed, r->why.message);
    return rc;
}

int fl_experiment_run(FlExperiment *x, const FlExperimentRunOptions *opt, FlError *err)
{
    FlExperimentRunOptions defaults;
    if (!opt) {
        fl_experiment_run_options_init(&defaults);
        opt = &defaults;
    }
    if (opt->workers < 1 || opt->workers > FL_EXP_MAX_WORKERS)
        return fl_error_set(err, FL_ERANGE, "workers must be from 1 to %d, not %d",
                            FL_EXP_MAX_WORKERS, opt->workers);
    if (opt->nruns < 0 || (opt->nruns > 0 && !opt->runs))
        return fl_error_set(err, FL_EINVAL, "a list of %lld runs needs its runs",
                            (long long)opt->nruns);
    Runner r = { .x = x, .opt = opt, .workers = opt->workers, .first_failed = -1 };
    r.t0 = now();
    r.progress.total = x->e.runs;
    int64_t *runs = NULL, n = 0;
    int rc = choose(&r, &runs, &n, err);
    if (!rc)
        rc = plan(&r, runs, n, err);
    free(runs);
    r.progress.todo = r.n;
    if (!rc && atomic_load(&x->cancelled))
        rc = fl_error_set(err, FL_ECANCELLED, "experiment %s: cancelled", x->e.name);
    if (!rc) {
        report(&r);
        if (r.n > 0)
            rc = run_tasks(&r, err);
    }
    /* The runs in flight when the run ended are not running any more. */
    FlError ignored = { 0 };
    if (r.n > 0)
        fl_experiment_release(x, &ignored);
    if (rc != FL_ECANCELLED && r.n > 0) {
        /* As committed: a run that ended past its curve's saturation is
         * stopped. */
        r.progress.running = 0;
        r.progress.done = r.delivered[0];
        r.progress.failed = r.delivered[1];
        r.progress.stopped = r.delivered[2];
        report(&r);
    }
    clear_tasks(&r);
    atomic_store(&x->cancelled, 0);
    return rc;
}

/* "1 min 20 s", "3 h 05 min", "12 s" into buf. */
static void format_duration(double s, char *buf, size_t size)
{
    long t = (long)(s + 0.5);
    if (t < 60)
        snprintf(buf, size, "%ld s", t);
    else if (t < 3600)
        snprintf(buf, size, "%ld min %ld s", t / 60, t % 60);
    else
        snprintf(buf, size, "%ld h %02ld min", t / 3600, t % 3600 / 60);
}

int fl_experiment_progress_text(const char *name, const FlExperimentProgress *p, char *buf,
                                size_t size)
{
    char eta[64] = "";
    int64_t finished = p->held + p->done + p->failed + p->stopped;
    if (finished < p->total && !isnan(p->eta_s)) {
        char d[48];
        format_duration(p->eta_s, d, sizeof d);
        snprintf(eta, sizeof eta, ", about %s left", d);
    }
    return snprintf(buf, size, "experiment %s: %lld/%lld runs (%d running)%s", name,
                    (long long)finished, (long long)p->total, p->running, eta);
}
