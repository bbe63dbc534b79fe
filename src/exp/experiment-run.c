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
    int64_t idx;                 /* first: by_number() compares tasks by it */
    uint64_t seed;
    const char *routing;
    FlSimSettings settings;      /* the point's config.traffic points into it */
    FlRoutingOptions ro;
    double started;              /* when it started (the clock of now()) */
    double latency_limit;        /* its curve's, when the curve began before */
    int delivered;               /* committed and handed over */
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
    unsigned char *status;       /* what the file held of each run at the start */
    int64_t sample_step;         /* cycles between the flit-level runs' samples */
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

int64_t fl_experiment_finished(const FlExperimentProgress *p)
{
    return p->held + p->done + p->failed + p->stopped;
}

double fl_experiment_eta(const FlExperimentProgress *p, double mean_wall_s, int workers)
{
    int64_t left = p->to_run - p->done - p->failed - p->stopped;
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

/* What is committed of task: with status, and for a run that ran, res's
 * scalars and vectors (their samples made in *storage, to free() once
 * committed). */
static int result_of(const Runner *r, const Task *task, FlRunStatus status,
                     const FlExpResult *res, FlExperimentResult *out, double **storage,
                     FlError *err)
{
    memset(out, 0, sizeof *out);
    *storage = NULL;
    out->idx = task->idx;
    out->status = status;
    out->seed = task->seed;
    if (status == FL_RUN_DONE) {
        fl_experiment_scalars(r->x, res, out);
        for (int i = 0; i < out->nscalars; i++)
            if (strcmp(out->scalar_names[i], "wall_s") == 0)
                out->wall_s = out->scalar_values[i];
        return fl__experiment_vectors(r->x, res, task->settings.config.vcs, r->sample_step, out,
                                      storage, err);
    }
    if (status == FL_RUN_FAILED)
        out->error = res->error.message;
    return FL_OK;
}

/* Commits one finished run (when the experiment has a file) and hands it
 * to the result callback. A run past its curve's saturation goes in the
 * same transaction as the later runs of its curve, stopped: a kill between
 * them would leave a curve whose resume runs what the stop rule left out. */
static void deliver(Runner *r, Task *task, FlRunStatus status, const FlExpResult *res)
{
    int n = 1;
    int64_t curve = fl_experiment_curve(r->x, task->idx);
    int ends_curve = status == FL_RUN_DONE && res->past_saturation;
    for (Task *t = task + 1; ends_curve && t < r->tasks + r->n; t++)
        n += !t->delivered && fl_experiment_curve(r->x, t->idx) == curve;
    FlExperimentResult *out = calloc((size_t)n, sizeof *out);
    Task **tasks = calloc((size_t)n, sizeof *tasks);
    double *samples = NULL, *none;
    FlError err = { 0 };
    if (!out || !tasks) {
        fl_error_set(&err, FL_ENOMEM, "out of memory for run %lld", (long long)task->idx);
        fail_with(r, &err);
        free(out);
        free(tasks);
        return;
    }
    tasks[0] = task;
    int rc = result_of(r, task, status, res, &out[0], &samples, &err);
    for (Task *t = task + 1, **next = tasks + 1; next < tasks + n; t++)
        if (!t->delivered && fl_experiment_curve(r->x, t->idx) == curve) {
            result_of(r, t, FL_RUN_STOPPED, NULL, &out[next - tasks], &none, NULL);
            *next++ = t;
        }
    if (rc || (r->x->project && fl_experiment_commit_all(r->x, out, n, NULL, &err))) {
        fail_with(r, &err);
    } else {
        for (int k = 0; k < n; k++) {
            tasks[k]->delivered = 1;
            r->delivered[out[k].status - FL_RUN_DONE]++;
            if (r->opt->result)
                r->opt->result(r->opt->result_data, &out[k]);
        }
    }
    free(samples);
    free(out);
    free(tasks);
}

/* Each kept point, in order along its curve. */
static void on_result(void *data, FlExpResult *res)
{
    Runner *r = data;
    Task *task = res->user_data;
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
    r->status = status;
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

/* The stop rule's latency limit for task: 0 (the rule's own: from the
 * curve's first run) unless the curve's first run is in the file and not
 * to be run again; then from its latency, NaN (none) when it has none, so
 * that a resumed curve is judged as an uninterrupted one. latency holds
 * every run's latency_avg in the file, read at the first need. */
static int curve_limit(Runner *r, Task *task, double **latency, FlError *err)
{
    FlExperiment *x = r->x;
    int64_t head = fl_experiment_curve(x, task->idx);
    task->latency_limit = 0;
    if (head == task->idx || r->status[head] == FL_EXPERIMENT_MISSING)
        return FL_OK;
    /* The tasks go by increasing run number, each led by it: a head run
     * again (runs given) judges its curve itself. */
    if (bsearch(&head, r->tasks, (size_t)r->n, sizeof *r->tasks, by_number))
        return FL_OK;
    if (!*latency) {
        int64_t *at = NULL;
        double *v = NULL;
        int m = 0;
        if (fl_project_get_scalars(x->project, x->e.name, "latency_avg", &at, &v, &m, err))
            return err->code;
        *latency = malloc((size_t)(x->e.runs ? x->e.runs : 1) * sizeof **latency);
        for (int64_t i = 0; *latency && i < x->e.runs; i++)
            (*latency)[i] = NAN;
        for (int i = 0; *latency && i < m; i++)
            if (at[i] >= 0 && at[i] < x->e.runs)
                (*latency)[at[i]] = v[i];
        free(at);
        free(v);
        if (!*latency)
            return fl_error_set(err, FL_ENOMEM, "out of memory for experiment %s", x->e.name);
    }
    double first = (*latency)[head];
    task->latency_limit = r->status[head] == FL_RUN_DONE && isfinite(first)
                              ? FL_EXP_DEFAULT_LATENCY_FACTOR * first
                              : NAN;
    return FL_OK;
}

/* The tasks of the runs to do, their configurations applied; on an error,
 * the last task is the run that failed. */
static int plan_tasks(Runner *r, const int64_t *runs, int64_t n, FlError *err)
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
    r->sample_step = fl__experiment_sample_step(r->x);
    return FL_OK;
}

/* The tasks of the runs to do, with their curves' latency limits. */
static int plan(Runner *r, const int64_t *runs, int64_t n, FlError *err)
{
    int rc = plan_tasks(r, runs, n, err);
    if (rc)
        return rc;
    double *latency = NULL;
    for (int i = 0; !rc && r->x->project && i < r->n; i++)
        rc = curve_limit(r, &r->tasks[i], &latency, err);
    free(latency);
    return rc;
}

/* The points of the tasks, one per task, in *points (malloc'd); on an
 * error, *failed is the task that failed. */
static int make_points(Runner *r, FlExpPoint **points, int *failed, FlError *err)
{
    FlExperiment *x = r->x;
    *points = calloc((size_t)(r->n ? r->n : 1), sizeof **points);
    if (!*points)
        return fl_error_set(err, FL_ENOMEM, "out of memory for experiment %s", x->e.name);
    int rc = FL_OK;
    for (int i = 0; !rc && i < r->n; i++) {
        Task *task = &r->tasks[i];
        FlExpPoint *p = &(*points)[i];
        *failed = i;
        rc = fl_exp_point_from_settings(p, x->t, &task->settings, task->routing, &task->ro,
                                        err);
        p->series = (int)fl_experiment_curve(x, task->idx);
        p->user_data = task;
        p->latency_limit = task->latency_limit;
    }
    if (rc) {
        free(*points);
        *points = NULL;
    }
    return rc;
}

/* Runs the tasks; the points the stop rule left out are committed as
 * stopped once the curves are done. */
static int run_tasks(Runner *r, FlError *err)
{
    FlExperiment *x = r->x;
    FlExpPoint *points = NULL;
    int failed;
    int rc = make_points(r, &points, &failed, err);
    if (rc)
        return rc;
    FlExpOptions opt;
    fl_exp_options_init(&opt);
    opt.workers = r->workers;
    opt.progress = on_progress;
    opt.progress_data = r;
    opt.result = on_result;
    opt.result_data = r;
    opt.sample_interval = r->sample_step;
    FlExp *exp = NULL;
    rc = fl_exp_new(points, r->n, &opt, &exp, err);
    /* The estimate of the time left goes round the runs at once. */
    if (!rc)
        r->workers = fl_exp_jobs(exp);
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
        if (!res->kept && !r->tasks[i].delivered)
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
    r.progress.to_run = r.n;
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
    free(r.status);
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
    int64_t finished = fl_experiment_finished(p);
    if (finished < p->total && !isnan(p->eta_s)) {
        char d[48];
        format_duration(p->eta_s, d, sizeof d);
        snprintf(eta, sizeof eta, ", about %s left", d);
    }
    return snprintf(buf, size, "experiment %s: %lld/%lld runs (%d running)%s", name,
                    (long long)finished, (long long)p->total, p->running, eta);
}

/* ---- checking a design before it runs ---------------------------------------- */

/* Runs checked at once: their tasks and points are held together. */
#define CHECK_BATCH 1024

/* "run N (key=value, ...): why" into err, the run's varied values named. */
static int run_refused(const FlExperiment *x, int64_t idx, int rc, const FlError *why,
                       FlError *err)
{
    const char *values[FL__EXPERIMENT_MAX_PARAMS];
    char params[FL_ERROR_MESSAGE_MAX] = "";
    size_t len = 0;
    int np = fl_exp_design_param_count(x->design);
    if (np > 0 && !fl_exp_design_run(x->design, idx, values, NULL, NULL)) {
        for (int i = 0; i < np && len < sizeof params; i++)
            len += (size_t)snprintf(params + len, sizeof params - len, "%s%s=%s",
                                    i ? ", " : " (", fl_exp_design_param_key(x->design, i),
                                    values[i]);
        if (len < sizeof params)
            snprintf(params + len, sizeof params - len, ")");
    }
    return fl_error_set(err, rc, "run %lld%s: %s", (long long)idx, params,
                        why->message[0] ? why->message : fl_strerror(rc));
}

int fl_experiment_check(FlExperiment *x, FlError *err)
{
    /* Runs that differ only in their seed are checked once: the seeds come
     * fastest in the design's order, and a seed changes no check. */
    int64_t total = x->e.runs, seeds = total;
    for (int i = 0; i < fl_exp_design_param_count(x->design); i++)
        seeds /= fl_exp_design_value_count(x->design, i);
    if (seeds < 1)
        seeds = 1;
    int64_t runs[CHECK_BATCH];
    int rc = FL_OK;
    for (int64_t next = 0; !rc && next < total;) {
        int64_t n = 0;
        for (; n < CHECK_BATCH && next < total; next += seeds)
            runs[n++] = next;
        Runner r = { .x = x, .workers = 1, .first_failed = -1 };
        FlExpPoint *points = NULL;
        FlExp *exp = NULL;
        FlError why = { 0 };
        int failed = -1;
        if ((rc = plan_tasks(&r, runs, n, &why)))
            failed = r.n - 1;
        else if (!(rc = make_points(&r, &points, &failed, &why))) {
            FlExpOptions opt;
            fl_exp_options_init(&opt);
            opt.workers = 1;
            opt.sample_interval = r.sample_step;
            if (!(rc = fl_exp_new(points, r.n, &opt, &exp, &why)))
                rc = fl_exp_check(exp, &failed, &why);
        }
        if (rc && failed >= 0 && failed < r.n)
            run_refused(x, r.tasks[failed].idx, rc, &why, err);
        else if (rc && err)
            *err = why;
        fl_exp_free(exp);
        free(points);
        clear_tasks(&r);
    }
    return rc;
}

int fl_experiment_check_design(const char *name, const char *network, const char *design,
                               FlError *err)
{
    FlExperiment *x = NULL;
    FlError why = { 0 };
    int rc = fl_experiment_new_detached(name, network, design, &x, err);
    if (!rc && (rc = fl_experiment_check(x, &why)))
        fl_error_set(err, rc, "the design cannot run: %s", why.message);
    fl_experiment_free(x);
    return rc;
}
