/* experiment.c — an experiment of a project file, or a detached copy of
 * one: opening it, its runs' configurations, what the file holds of it,
 * the scalars of a result, commits and claims (flitlab-experiment.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment-internal.h"
#include "flitlab-io.h"

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

/* The design parsed and the network read, once x->e holds them. */
static int load(FlExperiment *x, FlError *err)
{
    FlError why = { 0 };
    if (fl_exp_design_parse(x->e.design, &x->design, &why))
        return fl_error_set(err, why.code, "experiment %s: its design: %s", x->e.name,
                            why.message);
    if (fl_io_read_json_string(x->e.network, strlen(x->e.network), &x->t, &why))
        return fl_error_set(err, why.code, "experiment %s: its network: %s", x->e.name,
                            why.message);
    if (fl_exp_design_param_count(x->design) > FL__EXPERIMENT_MAX_PARAMS)
        return fl_error_set(err, FL_ERANGE, "experiment %s: at most %d parameters vary, not %d",
                            x->e.name, FL__EXPERIMENT_MAX_PARAMS,
                            fl_exp_design_param_count(x->design));
    /* The runs of a file's experiment were checked against its row's count
     * (fl_project_get_experiment()), which must be the design's. */
    if (x->project && x->e.runs != fl_exp_design_count(x->design))
        return fl_error_set(err, FL_EPARSE, "experiment %s: its design has %lld runs, not the "
                            "%lld its row in the file says", x->e.name,
                            (long long)fl_exp_design_count(x->design), (long long)x->e.runs);
    x->e.runs = fl_exp_design_count(x->design);
    return FL_OK;
}

static FlExperiment *alloc_experiment(void)
{
    FlExperiment *x = calloc(1, sizeof *x);
    if (x) {
        pthread_mutex_init(&x->lock, NULL);
        atomic_init(&x->cancelled, 0);
    }
    return x;
}

int fl_experiment_open(FlProject *p, const char *name, FlExperiment **out, FlError *err)
{
    *out = NULL;
    if (!p || !name)
        return fl_error_set(err, FL_EINVAL, "an experiment needs a project and a name");
    FlExperiment *x = alloc_experiment();
    if (!x)
        return fl_error_set(err, FL_ENOMEM, "out of memory for experiment %s", name);
    x->project = p;
    int rc = fl_project_get_experiment(p, name, &x->e, err);
    if (!rc)
        rc = load(x, err);
    if (rc)
        fl_experiment_free(x);
    else
        *out = x;
    return rc;
}

int fl_experiment_new_detached(const char *name, const char *network, const char *design,
                               FlExperiment **out, FlError *err)
{
    *out = NULL;
    if (!name || !network || !design)
        return fl_error_set(err, FL_EINVAL, "a detached experiment needs a name, a network "
                            "and a design");
    FlExperiment *x = alloc_experiment();
    if (!x)
        return fl_error_set(err, FL_ENOMEM, "out of memory for experiment %s", name);
    x->e.name = dup_text(name);
    x->e.network = dup_text(network);
    x->e.design = dup_text(design);
    x->e.topology = dup_text("");
    x->e.created = dup_text("");
    int rc = !x->e.name || !x->e.network || !x->e.design || !x->e.topology || !x->e.created
                 ? fl_error_set(err, FL_ENOMEM, "out of memory for experiment %s", name)
                 : load(x, err);
    if (rc)
        fl_experiment_free(x);
    else
        *out = x;
    return rc;
}

void fl_experiment_free(FlExperiment *x)
{
    if (!x)
        return;
    fl_topology_free(x->t);
    fl_exp_design_free(x->design);
    fl_project_experiment_clear(&x->e);
    pthread_mutex_destroy(&x->lock);
    free(x);
}

const char *fl_experiment_name(const FlExperiment *x)
{
    return x->e.name;
}

const FlExpDesign *fl_experiment_design(const FlExperiment *x)
{
    return x->design;
}

const FlTopology *fl_experiment_topology(const FlExperiment *x)
{
    return x->t;
}

const FlProjectExperiment *fl_experiment_info(const FlExperiment *x)
{
    return &x->e;
}

FlProject *fl_experiment_project(const FlExperiment *x)
{
    return x->project;
}

int64_t fl_experiment_run_count(const FlExperiment *x)
{
    return x->e.runs;
}

int64_t fl_experiment_curve(const FlExperiment *x, int64_t idx)
{
    const FlExpDesign *d = x->design;
    int64_t stride = fl_exp_design_count(d);
    for (int i = 0; i < fl_exp_design_param_count(d); i++) {
        int64_t nv = fl_exp_design_value_count(d, i);
        stride /= nv;
        if (strcmp(fl_exp_design_param_key(d, i), "rate") == 0)
            return idx - (idx / stride % nv) * stride;
    }
    return idx;
}

const char *fl_experiment_status_name(int status)
{
    /* By FlRunStatus, from FL_RUN_DONE. */
    static const char *const names[] = { "done", "failed", "stopped" };
    int i = status - FL_RUN_DONE;
    return i >= 0 && i < 3 ? names[i] : "missing";
}

/* ---- a run's configuration ------------------------------------------------ */

/* Switch label, an option of the design, as the network's node id. */
static int switch_of(const FlTopology *t, const char *option, int label, int *node,
                     FlError *err)
{
    int nodes = fl_topology_node_count(t);
    *node = fl_topology_find_label(t, label);
    if (*node < 0)
        return fl_error_set(err, FL_ERANGE, "%s %d: no node is numbered %d in this network "
                            "of %d nodes", option, label, label, nodes);
    if (fl_topology_node_kind(t, *node) != FL_NODE_SWITCH)
        return fl_error_set(err, FL_EINVAL, "%s %d: node %d is a host, not a switch", option,
                            label, label);
    return FL_OK;
}

int fl__experiment_apply(const FlExperiment *x, int64_t idx, FlSimSettings *s,
                         FlRoutingOptions *ro, const char **routing, FlError *err)
{
    fl_sim_settings_init(s);
    fl_routing_options_init(ro);
    *routing = NULL;
    if (idx < 0 || idx >= x->e.runs)
        return fl_error_set(err, FL_ERANGE, "experiment %s has runs 0 to %lld, not %lld",
                            x->e.name, (long long)x->e.runs - 1, (long long)idx);
    int rc = fl_exp_design_apply(x->design, idx, s, ro, routing, err);
    if (!rc && s->trace_file)
        rc = fl_error_set(err, FL_EUNSUPPORTED, "experiment %s: trace replay does not run in "
                          "experiments", x->e.name);
    /* The design names switches by label, as people see them. */
    if (!rc && ro->root >= 0)
        rc = switch_of(x->t, "root", ro->root, &ro->root, err);
    FlTurn *turns = (FlTurn *)ro->prohibited;
    for (int i = 0; !rc && i < ro->n_prohibited; i++)
        rc = switch_of(x->t, "prohibit", turns[i].sw, &turns[i].sw, err);
    if (!*routing)
        *routing = "dor";
    return rc;
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

char *fl__experiment_config_text(const FlSimSettings *s, const char *routing,
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

int fl_experiment_config(const FlExperiment *x, int64_t idx, char **out, FlError *err)
{
    *out = NULL;
    FlSimSettings s;
    FlRoutingOptions ro;
    const char *routing;
    int rc = fl__experiment_apply(x, idx, &s, &ro, &routing, err);
    if (!rc && !(*out = fl__experiment_config_text(&s, routing, &ro)))
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for run %lld's configuration",
                          (long long)idx);
    fl_sim_settings_clear(&s);
    fl_routing_options_clear(&ro);
    return rc;
}

/* ---- what the file holds ---------------------------------------------------- */

int fl_experiment_status(FlExperiment *x, unsigned char **status, int64_t counts[3],
                         FlError *err)
{
    *status = malloc((size_t)(x->e.runs ? x->e.runs : 1));
    if (!*status)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the runs of experiment %s",
                            x->e.name);
    memset(*status, FL_EXPERIMENT_MISSING, (size_t)x->e.runs);
    if (counts)
        counts[0] = counts[1] = counts[2] = 0;
    for (int s = FL_RUN_DONE; x->project && s <= FL_RUN_STOPPED; s++) {
        int64_t *idx = NULL;
        int n = 0;
        if (fl_project_list_runs(x->project, x->e.name, (FlRunStatus)s, &idx, &n, err)) {
            free(*status);
            *status = NULL;
            return err ? err->code : FL_EIO;
        }
        for (int i = 0; i < n; i++)
            if (idx[i] >= 0 && idx[i] < x->e.runs)
                (*status)[idx[i]] = (unsigned char)s;
        if (counts)
            counts[s - FL_RUN_DONE] = n;
        free(idx);
    }
    return FL_OK;
}

int fl_experiment_running(FlExperiment *x, int64_t *running, FlError *err)
{
    *running = 0;
    if (!x->project)
        return FL_OK;
    int64_t *idx = NULL;
    int n = 0;
    int rc = fl_project_list_running(x->project, x->e.name, &idx, &n, err);
    free(idx);
    if (!rc)
        *running = n;
    return rc;
}

int fl_experiment_claim(FlExperiment *x, const int64_t *runs, int64_t n, FlError *err)
{
    if (!x->project || n <= 0)
        return FL_OK;
    if (n > INT_MAX)
        return fl_error_set(err, FL_ERANGE, "experiment %s: too many runs to claim at once",
                            x->e.name);
    return fl_project_claim_runs(x->project, x->e.name, runs, (int)n, err);
}

int fl_experiment_release(FlExperiment *x, FlError *err)
{
    return x->project ? fl_project_release_claims(x->project, x->e.name, err) : FL_OK;
}

/* ---- results ---------------------------------------------------------------- */

static int has_name(const FlExperimentResult *out, const char *name)
{
    for (int i = 0; i < out->nscalars; i++)
        if (strcmp(out->scalar_names[i], name) == 0)
            return 1;
    return 0;
}

void fl_experiment_scalars(const FlExperiment *x, const FlExpResult *res,
                           FlExperimentResult *out)
{
    out->nscalars = 0;
    if (res) {
        out->nscalars = fl_exp_result_scalars(res, x->t, out->scalar_names, out->scalar_values,
                                              FL_EXPERIMENT_MAX_SCALARS);
        return;
    }
    unsigned models = fl_exp_design_models(x->design);
    for (int i = 0; i < fl_sim_result_key_count() && out->nscalars < FL_EXPERIMENT_MAX_SCALARS;
         i++) {
        const FlSimResultKey *k = fl_sim_result_key(i);
        if ((k->models & models) && !has_name(out, k->name)) {
            out->scalar_names[out->nscalars] = k->name;
            out->scalar_values[out->nscalars++] = NAN;
        }
    }
}

int fl_experiment_commit_all(FlExperiment *x, const FlExperimentResult *results, int n,
                             const char *host, FlError *err)
{
    if (!x->project)
        return fl_error_set(err, FL_EINVAL, "experiment %s is detached: it has no file to "
                            "commit run %lld into", x->e.name,
                            n > 0 ? (long long)results[0].idx : -1LL);
    const FlExpDesign *d = x->design;
    int np = fl_exp_design_param_count(d);
    const char *keys[FL__EXPERIMENT_MAX_PARAMS];
    for (int i = 0; i < np; i++)
        keys[i] = fl_exp_design_param_key(d, i);
    FlProjectRun *runs = calloc((size_t)(n > 0 ? n : 1), sizeof *runs);
    const char **values = calloc((size_t)(n > 0 ? n : 1) * FL__EXPERIMENT_MAX_PARAMS,
                                 sizeof *values);
    char **configs = calloc((size_t)(n > 0 ? n : 1), sizeof *configs);
    int rc = runs && values && configs
                 ? FL_OK
                 : fl_error_set(err, FL_ENOMEM, "out of memory for the runs of experiment %s",
                                x->e.name);
    for (int k = 0; !rc && k < n; k++) {
        const FlExperimentResult *r = &results[k];
        const char **v = values + (size_t)k * FL__EXPERIMENT_MAX_PARAMS;
        rc = fl_exp_design_run(d, r->idx, v, NULL, err);
        if (!rc)
            rc = fl_experiment_config(x, r->idx, &configs[k], err);
        runs[k] = (FlProjectRun){
            .idx = r->idx, .status = r->status, .seed = r->seed, .config = configs[k],
            .host = host, .param_keys = keys, .param_values = v, .nparams = np,
            .scalar_names = r->scalar_names, .scalar_values = r->scalar_values,
        };
        if (r->status == FL_RUN_DONE) {
            runs[k].nscalars = r->nscalars;
            runs[k].wall_s = r->wall_s;
            runs[k].vector_names = r->vector_names;
            runs[k].vector_data = r->vector_data;
            runs[k].vector_lengths = r->vector_lengths;
            runs[k].vector_steps = r->vector_steps;
            runs[k].nvectors = r->nvectors;
        } else if (r->status == FL_RUN_FAILED) {
            runs[k].error = r->error;
        }
    }
    if (!rc)
        rc = fl_project_commit_runs(x->project, x->e.name, runs, n, err);
    for (int k = 0; configs && k < n; k++)
        free(configs[k]);
    free(configs);
    free(values);
    free(runs);
    return rc;
}

int fl_experiment_commit(FlExperiment *x, const FlExperimentResult *result, const char *host,
                         FlError *err)
{
    return fl_experiment_commit_all(x, result, 1, host, err);
}
