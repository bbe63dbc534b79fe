/* experiment-run.c — `flitlab experiment run|resume`: every run of an
 * experiment that its project does not hold yet, on a pool of workers,
 * each result committed into the file as soon as it is known. Killing the
 * command loses at most the runs in flight; running it again runs what is
 * missing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment.h"
#include "flitlab-io.h"
#include "sim-options.h"

/* One run to do. */
typedef struct ExpTask {
    int64_t idx;
    uint64_t seed;
    const char *routing;         /* the design's, or "dor" */
    FlSimSettings settings;      /* config.traffic points into it */
    FlRoutingOptions ro;
    char *config;                /* the run's key=value lines */
    int committed;               /* by this command */
    double latency_limit;        /* its curve's, when the curve began before */
} ExpTask;

typedef struct ExpRunner {
    ExpOpen *x;
    const FlTopology *t;
    ExpTask *tasks;
    int n;
    int64_t before;              /* runs in the file when the command started */
    int64_t committed;           /* runs in the file, this command's included */
    int failed;
    int64_t first_failed;        /* its run number and why */
    char why[FL_ERROR_MESSAGE_MAX];
    FlExp *exp;
    FlError err;                 /* the first commit that failed */
    int commit_failed;
} ExpRunner;

/* The series of run idx: its number with the rate's place cleared, so that
 * the runs of one curve (every other value and the seed alike) share it. */
static int series_of(const FlExpDesign *d, int64_t idx)
{
    int64_t stride = fl_exp_design_count(d);
    for (int i = 0; i < fl_exp_design_param_count(d); i++) {
        int64_t nv = fl_exp_design_value_count(d, i);
        stride /= nv;
        if (strcmp(fl_exp_design_param_key(d, i), "rate") == 0)
            return (int)(idx - (idx / stride % nv) * stride);
    }
    return (int)idx;
}

/* Key i of a run's configuration (the settings, the routing, its options)
 * and its value into buf. */
static const char *config_key(int i, const FlSimSettings *s, const char *routing,
                              const FlRoutingOptions *ro, char *buf, size_t size)
{
    int k = i - fl_sim_settings_key_count();
    if (k < 0) {
        const char *key = fl_sim_settings_key(i)->name;
        fl_sim_settings_format(s, key, buf, size);
        return key;
    }
    if (k == 0) {
        snprintf(buf, size, "%s", routing);
        return "routing";
    }
    const char *key = fl_routing_option(k - 1)->name;
    fl_routing_options_format(ro, key, buf, size);
    return key;
}

/* "key=value" lines of every setting, the routing and its options. */
static char *config_text(const FlSimSettings *s, const char *routing,
                         const FlRoutingOptions *ro)
{
    int keys = fl_sim_settings_key_count() + 1 + fl_routing_option_count();
    size_t cap = 4096, len = 0;
    char *out = malloc(cap), value[1024];
    for (int i = 0; out && i < keys; i++) {
        const char *key = config_key(i, s, routing, ro, value, sizeof value);
        size_t need = strlen(key) + strlen(value) + 3;
        if (len + need > cap) {
            char *grown = realloc(out, cap = 2 * cap + need);
            if (!grown)
                free(out);
            out = grown;
        }
        if (out)
            len += (size_t)snprintf(out + len, cap - len, "%s=%s\n", key, value);
    }
    return out;
}

/* Commits task with status and, when it is a run past saturation, the
 * later runs of its curve as stopped, in the same transaction: a kill
 * between them would leave the curve without its stopped runs, which a
 * resume would then run. */
static int commit(ExpRunner *r, ExpTask *task, FlRunStatus status, const FlExpResult *res)
{
    const FlExpDesign *d = r->x->design;
    int np = fl_exp_design_param_count(d);
    const char *keys[EXP_MAX_PARAMS];
    const char *names[EXP_MAX_SCALARS];
    double scalars[EXP_MAX_SCALARS];
    for (int i = 0; i < np; i++)
        keys[i] = fl_exp_design_param_key(d, i);
    int n = 1, series = series_of(d, task->idx);
    int ends_curve = status == FL_RUN_DONE && res->past_saturation;
    for (ExpTask *t = task + 1; ends_curve && t < r->tasks + r->n; t++)
        n += !t->committed && series_of(d, t->idx) == series;
    FlProjectRun *runs = calloc((size_t)n, sizeof *runs);
    const char **values = calloc((size_t)n * EXP_MAX_PARAMS, sizeof *values);
    ExpTask **tasks = calloc((size_t)n, sizeof *tasks);
    json_t *o = NULL;
    FlError err = { 0 };
    int rc = runs && values && tasks ? FL_OK
                                     : fl_error_set(&err, FL_ENOMEM, "out of memory for a run");
    if (!rc)
        tasks[0] = task;
    for (ExpTask *t = task + 1, **next = tasks + 1; !rc && next < tasks + n; t++)
        if (!t->committed && series_of(d, t->idx) == series)
            *next++ = t;
    for (int k = 0; !rc && k < n; k++) {
        fl_exp_design_run(d, tasks[k]->idx, values + k * EXP_MAX_PARAMS, NULL, NULL);
        runs[k] = (FlProjectRun){
            .idx = tasks[k]->idx, .status = k ? FL_RUN_STOPPED : status,
            .seed = tasks[k]->seed, .config = tasks[k]->config, .param_keys = keys,
            .param_values = values + k * EXP_MAX_PARAMS, .nparams = np,
        };
    }
    if (!rc && status == FL_RUN_DONE) {
        o = json_object();
        sim_add_scalars(o, r->t, &res->sim);
        runs[0].scalar_names = names;
        runs[0].scalar_values = scalars;
        runs[0].nscalars = exp_scalars(o, names, scalars, EXP_MAX_SCALARS);
        runs[0].wall_s = res->sim.wall_s;
    } else if (!rc && status == FL_RUN_FAILED) {
        runs[0].error = res->error.message;
    }
    if (!rc)
        rc = fl_project_commit_runs(r->x->project, r->x->e.name, runs, n, &err);
    json_decref(o);
    free(runs);
    free(values);
    if (rc && !r->commit_failed) {
        r->commit_failed = 1;
        r->err = err;
    }
    for (int k = 0; !rc && k < n; k++)
        tasks[k]->committed = 1;
    if (!rc)
        r->committed += n;
    free(tasks);
    return rc;
}

/* Each kept point, in order along its curve: committed at once. */
static void on_result(void *data, FlExpResult *res)
{
    ExpRunner *r = data;
    ExpTask *task = res->user_data;
    int failed = res->state != FL_EXP_DONE;
    if (failed && !r->failed++) {
        r->first_failed = task->idx;
        snprintf(r->why, sizeof r->why, "%s", res->error.message);
    }
    if (commit(r, task, failed ? FL_RUN_FAILED : FL_RUN_DONE, res))
        fl_exp_cancel(r->exp);
}

static void on_progress(void *data, const FlExpProgress *p)
{
    const ExpRunner *r = data;
    if (p->event == FL_EXP_FINISHED)
        fprintf(stderr, "experiment %s: %lld/%lld runs done (%d running)\n", r->x->e.name,
                (long long)(r->before + p->done + p->failed), (long long)r->x->e.runs,
                p->running);
}

/* The stop rule's latency limit of the curve of run idx when its first run
 * is committed (0 when it is not): the curve's runs in the file are a
 * prefix, so the runs left to do are judged as the first one would have. */
static int curve_limit(ExpRunner *r, const unsigned char *status, int64_t idx, double **first,
                       double *limit)
{
    int64_t head = series_of(r->x->design, idx);
    *limit = 0;
    if (head == idx || status[head] == EXP_MISSING)
        return CLI_OK;
    if (!*first) {
        /* The latencies of every run, read once. */
        int64_t *at = NULL;
        double *v = NULL;
        int m = 0;
        FlError err = { 0 };
        if (fl_project_get_scalars(r->x->project, r->x->e.name, "latency_avg", &at, &v, &m,
                                   &err))
            return cli_engine_error(&err);
        *first = malloc((size_t)r->x->e.runs * sizeof **first);
        for (int64_t i = 0; *first && i < r->x->e.runs; i++)
            (*first)[i] = NAN;
        for (int i = 0; *first && i < m; i++)
            if (at[i] >= 0 && at[i] < r->x->e.runs)
                (*first)[at[i]] = v[i];
        free(at);
        free(v);
        if (!*first)
            return cli_error(CLI_FAIL, "out of memory for the experiment");
    }
    double latency = (*first)[head];
    *limit = status[head] == FL_RUN_DONE && isfinite(latency)
                 ? FL_EXP_DEFAULT_LATENCY_FACTOR * latency : NAN;
    return CLI_OK;
}

/* Builds the tasks of the runs not committed: *n of them into r. */
static int plan(ExpRunner *r, const unsigned char *status)
{
    const FlExpDesign *d = r->x->design;
    r->tasks = calloc((size_t)(r->x->e.runs ? r->x->e.runs : 1), sizeof *r->tasks);
    if (!r->tasks)
        return cli_error(CLI_FAIL, "out of memory for the experiment");
    double *latency = NULL;
    int failed = CLI_OK;
    for (int64_t idx = 0, k = 0; !failed && idx < r->x->e.runs; idx++)
        if (status[idx] == EXP_MISSING)
            failed = curve_limit(r, status, idx, &latency, &r->tasks[k++].latency_limit);
    free(latency);
    if (failed)
        return failed;
    FlError err = { 0 };
    if (fl_exp_design_param_count(d) > EXP_MAX_PARAMS)
        return cli_error(CLI_USAGE, "experiment run: at most %d parameters vary", EXP_MAX_PARAMS);
    for (int64_t idx = 0; idx < r->x->e.runs; idx++) {
        if (status[idx] != EXP_MISSING)
            continue;
        ExpTask *task = &r->tasks[r->n++];
        task->idx = idx;
        fl_sim_settings_init(&task->settings);
        fl_routing_options_init(&task->ro);
        const char *routing = NULL;
        if (fl_exp_design_apply(d, idx, &task->settings, &task->ro, &routing, &err)
            || fl_exp_design_run(d, idx, NULL, &task->seed, &err))
            return cli_engine_error(&err);
        if (task->settings.model != FL_SIM_MODEL_FLIT)
            return cli_error(CLI_USAGE, "experiment run: only the flit-level model (mode "
                                        "flit) runs in experiments");
        if (task->settings.trace_file)
            return cli_error(CLI_USAGE, "experiment run: trace replay does not run in "
                                        "experiments");
        int rc = cli_routing_labels(r->t, &task->ro);
        if (rc)
            return rc;
        task->routing = routing ? routing : "dor";
        task->config = config_text(&task->settings, task->routing, &task->ro);
        if (!task->config)
            return cli_error(CLI_FAIL, "out of memory for the experiment");
    }
    return CLI_OK;
}

/* Runs the tasks; the points the stop rule left out are committed as
 * stopped once the curves are done. */
static int run_tasks(ExpRunner *r, long jobs)
{
    FlExpPoint *points = calloc((size_t)r->n, sizeof *points);
    if (!points)
        return cli_error(CLI_FAIL, "out of memory for the experiment");
    const FlExpDesign *d = r->x->design;
    for (int i = 0; i < r->n; i++) {
        ExpTask *task = &r->tasks[i];
        fl_exp_point_init(&points[i]);
        points[i].topology = r->t;
        points[i].config = task->settings.config;
        points[i].routing_name = task->routing;
        points[i].routing_options = task->ro;
        points[i].series = series_of(d, task->idx);
        points[i].user_data = task;
        points[i].latency_limit = task->latency_limit;
    }
    FlExpOptions opt;
    fl_exp_options_init(&opt);
    opt.workers = (int)jobs;
    opt.progress = on_progress;
    opt.progress_data = r;
    opt.result = on_result;
    opt.result_data = r;
    FlError err = { 0 };
    int rc = fl_exp_new(points, r->n, &opt, &r->exp, &err);
    if (!rc)
        rc = fl_exp_run(r->exp, &err);
    for (int i = 0; !r->commit_failed && r->exp && i < r->n; i++) {
        const FlExpResult *res = fl_exp_result(r->exp, i);
        /* Without a cancel, a point left out is past its curve's saturation,
         * even one that ran to its end before the curve was judged. */
        if (!res->kept && !r->tasks[i].committed)
            commit(r, &r->tasks[i], FL_RUN_STOPPED, res);
    }
    fl_exp_free(r->exp);
    r->exp = NULL;
    free(points);
    if (r->commit_failed)
        return cli_engine_error(&r->err);
    /* A failed run is recorded as such; the command still fails. */
    if (r->failed)
        return cli_error(CLI_FAIL, "experiment %s: %d run%s failed; run %lld: %s", r->x->e.name,
                         r->failed, r->failed > 1 ? "s" : "", (long long)r->first_failed,
                         r->why);
    if (rc)
        return cli_engine_error(&err);
    return CLI_OK;
}

int exp_run(const CliCommand *cmd, const CliParsed *p)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    long jobs = online > 0 ? online : 1;
    if (sim_int_option(cmd, p, "jobs", 1, 1024, &jobs))
        return CLI_USAGE;
    ExpOpen x;
    int rc = exp_open(p->args[0], p->args[1], &x);
    ExpRunner r = { .x = &x };
    FlTopology *t = NULL;
    unsigned char *status = NULL;
    int64_t counts[3] = { 0 };
    FlError err = { 0 };
    if (!rc && fl_io_read_json_string(x.e.network, strlen(x.e.network), &t, &err))
        rc = cli_engine_error(&err);
    r.t = t;
    if (!rc)
        rc = exp_committed(&x, &status, counts);
    if (!rc) {
        r.committed = r.before = counts[0] + counts[1] + counts[2];
        rc = plan(&r, status);
    }
    if (!rc && r.n == 0)
        fprintf(stderr, "experiment %s: nothing to run (%lld runs committed)\n", x.e.name,
                (long long)r.committed);
    else if (!rc)
        rc = run_tasks(&r, jobs);
    for (int i = 0; i < r.n; i++) {
        fl_sim_settings_clear(&r.tasks[i].settings);
        fl_routing_options_clear(&r.tasks[i].ro);
        free(r.tasks[i].config);
    }
    free(r.tasks);
    free(status);
    fl_topology_free(t);
    exp_close(&x);
    return rc;
}
