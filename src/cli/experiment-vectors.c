/* experiment-vectors.c — `flitlab experiment vectors`: the vectors committed
 * with an experiment's runs (series over simulated time, figures per
 * channel), one value per row of CSV, or per vector in JSON. */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "sim-options.h"

/* What exp_vectors() writes. */
typedef struct Vectors {
    const ExpOpen *x;
    const FlProjectVector *v;
    int n;
    int as_json;
} Vectors;

/* Writes v's run's seed and parameter values (CSV) or sets them in o. */
static void run_values(const ExpOpen *x, const FlProjectVector *v, FILE *fp, json_t *o)
{
    const char *values[EXP_MAX_PARAMS];
    uint64_t seed = 0;
    int np = fl_exp_design_param_count(x->design);
    if (fl_exp_design_run(x->design, v->idx, values, &seed, NULL))
        np = 0;
    if (fp)
        fprintf(fp, "%" PRId64 ",%" PRIu64, v->idx, seed);
    else
        json_object_set_new(o, "seed", json_integer((json_int_t)seed));
    for (int i = 0; i < np; i++) {
        if (fp)
            fprintf(fp, ",%s", values[i]);
        else
            json_object_set_new(o, fl_exp_design_param_key(x->design, i),
                                exp_param_json(values[i]));
    }
}

static void write_csv(FILE *fp, const Vectors *w)
{
    int np = fl_exp_design_param_count(w->x->design);
    fprintf(fp, "idx,seed");
    for (int i = 0; i < np; i++)
        fprintf(fp, ",%s", fl_exp_design_param_key(w->x->design, i));
    fprintf(fp, ",vector,index,cycle,value\n");
    for (int i = 0; i < w->n; i++) {
        const FlProjectVector *v = &w->v[i];
        for (int k = 0; k < v->length; k++) {
            run_values(w->x, v, fp, NULL);
            fprintf(fp, ",%s,%d,", v->name, k);
            /* A sample starts at k steps; a channel's figure has no cycle. */
            if (v->step > 0)
                fprintf(fp, "%.10g", (double)k * v->step);
            if (isnan(v->data[k]))
                fprintf(fp, ",\n");
            else
                fprintf(fp, ",%.10g\n", v->data[k]);
        }
    }
}

static json_t *vectors_json(const Vectors *w)
{
    json_t *list = json_array();
    for (int i = 0; i < w->n; i++) {
        const FlProjectVector *v = &w->v[i];
        int which = fl_experiment_vector_find(v->name);
        const FlExperimentVectorInfo *info = fl_experiment_vector_info(which);
        json_t *data = json_array();
        for (int k = 0; k < v->length; k++)
            json_array_append_new(data, isnan(v->data[k]) ? json_null() : json_real(v->data[k]));
        json_t *o = json_pack("{s:I, s:s, s:s, s:s, s:f}", "idx", (json_int_t)v->idx, "name",
                              v->name, "by", !info || info->per_channel ? "channel" : "cycle",
                              "unit", info ? info->unit : "", "step", v->step);
        run_values(w->x, v, NULL, o);
        json_object_set_new(o, "data", data);
        json_array_append_new(list, o);
    }
    return json_pack("{s:s, s:o}", "experiment", w->x->e->name, "vectors", list);
}

static int write_vectors(FILE *fp, void *data)
{
    const Vectors *w = data;
    if (w->as_json)
        return cli_write_json(vectors_json(w), fp);
    write_csv(fp, w);
    return CLI_OK;
}

/* The names of every vector, for a message. */
static void vector_names(char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < fl_experiment_vector_count() && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s", i ? ", " : "",
                               fl_experiment_vector_info(i)->name);
}

int exp_vectors(const CliCommand *cmd, const CliParsed *p)
{
    static const char *const formats[] = { "csv", "json", NULL };
    int as_json = sim_choice_option(cmd, p, "format", formats, 0);
    if (as_json < 0)
        return CLI_USAGE;
    const char *name = cli_value(cmd, p, "vector");
    const char *run = cli_value(cmd, p, "run");
    long idx = -1;
    if (name && fl_experiment_vector_find(name) < 0) {
        char names[512];
        vector_names(names, sizeof names);
        return cli_error(CLI_USAGE, _("experiment vectors: no vector is called '%s' (vectors: %s)"),
                         name, names);
    }
    if (run && cli_int_value("--run", run, 0, LONG_MAX, &idx))
        return CLI_USAGE;
    ExpOpen x;
    int rc = exp_open(p->args[0], p->args[1], &x);
    if (!rc && fl_exp_design_param_count(x.design) > EXP_MAX_PARAMS)
        rc = cli_error(CLI_USAGE, _("experiment vectors: at most %d parameters vary"),
                       EXP_MAX_PARAMS);
    if (!rc && idx >= x.e->runs)
        rc = cli_error(CLI_USAGE, _("experiment %s has runs 0 to %" PRId64 ", not %ld"), x.e->name,
                       x.e->runs - 1, idx);
    Vectors w = { &x, NULL, 0, as_json };
    FlError err = { 0 };
    FlProjectVector *v = NULL;
    if (!rc && fl_project_get_vectors(x.project, x.e->name, idx, name, &v, &w.n, &err))
        rc = cli_engine_error(&err);
    w.v = v;
    if (!rc && idx >= 0 && w.n == 0)
        rc = cli_error(CLI_FAIL, _("experiment %s: run %ld has no %s (it is not committed, or "
                       "it is a multicast run)"), x.e->name, idx,
                       name ? name : "vectors");
    if (!rc)
        rc = cli_write_output(cli_value(cmd, p, "output"), write_vectors, &w);
    fl_project_vectors_free(v, w.n);
    exp_close(&x);
    return rc;
}
