/* experiment-export.c — `flitlab experiment export`: one row per committed
 * run of an experiment, with its number, status, seed, parameters and
 * scalar results, as CSV or JSON. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "flitlab-io.h"
#include "sim-options.h"

/* The results of an experiment, read back: scalar s of run idx at
 * values[idx * n + s] (NaN when it has none). */
typedef struct ExpTable {
    FlExperimentResult names;   /* the scalars' names */
    int n;
    double *values;
    unsigned char *status;
} ExpTable;

static int read_table(ExpOpen *x, ExpTable *tab)
{
    /* The names are those `sim --json` prints for the experiment's models,
     * whatever a run holds. */
    fl_experiment_scalars(x->x, NULL, &tab->names);
    tab->n = tab->names.nscalars;
    int rc = exp_committed(x, &tab->status, NULL);
    size_t cells = (size_t)(x->e->runs ? x->e->runs : 1) * (size_t)tab->n;
    if (!rc && !(tab->values = malloc(cells * sizeof *tab->values)))
        rc = cli_error(CLI_FAIL, _("out of memory for the experiment's results"));
    for (size_t i = 0; !rc && i < cells; i++)
        tab->values[i] = NAN;
    FlError err = { 0 };
    for (int s = 0; !rc && s < tab->n; s++) {
        int64_t *idx = NULL;
        double *v = NULL;
        int m = 0;
        if (fl_project_get_scalars(x->project, x->e->name, tab->names.scalar_names[s], &idx,
                                   &v, &m, &err))
            rc = cli_engine_error(&err);
        for (int i = 0; i < m; i++)
            if (idx[i] >= 0 && idx[i] < x->e->runs)
                tab->values[idx[i] * tab->n + s] = v[i];
        free(idx);
        free(v);
    }
    return rc;
}

static void free_table(ExpTable *tab)
{
    free(tab->values);
    free(tab->status);
}

/* Run idx's status name, parameter values and seed; NULL when the file
 * does not hold it. */
static const char *row(const ExpOpen *x, const ExpTable *tab, int64_t idx, const char **values,
                       uint64_t *seed)
{
    *seed = 0;
    if (tab->status[idx] == FL_EXPERIMENT_MISSING
        || fl_exp_design_run(x->design, idx, values, seed, NULL))
        return NULL;
    return fl_experiment_status_name(tab->status[idx]);
}

static void write_csv(FILE *fp, const ExpOpen *x, const ExpTable *tab)
{
    const FlExpDesign *d = x->design;
    int np = fl_exp_design_param_count(d);
    fprintf(fp, "idx,status,seed");
    for (int i = 0; i < np; i++)
        fprintf(fp, ",%s", fl_exp_design_param_key(d, i));
    for (int s = 0; s < tab->n; s++)
        fprintf(fp, ",%s", tab->names.scalar_names[s]);
    fprintf(fp, "\n");
    const char *values[EXP_MAX_PARAMS];
    for (int64_t idx = 0; idx < x->e->runs; idx++) {
        uint64_t seed;
        const char *status = row(x, tab, idx, values, &seed);
        if (!status)
            continue;
        fprintf(fp, "%" PRId64 ",%s,%" PRIu64, idx, status, seed);
        for (int i = 0; i < np; i++)
            fprintf(fp, ",%s", values[i]);
        for (int s = 0; s < tab->n; s++) {
            double v = tab->values[idx * tab->n + s];
            if (isnan(v))
                fprintf(fp, ",");
            else
                fprintf(fp, ",%.10g", v);
        }
        fprintf(fp, "\n");
    }
}

json_t *exp_param_json(const char *text)
{
    char *end;
    double v = strtod(text, &end);
    return end != text && !*end && isfinite(v) ? json_real(v) : json_string(text);
}

static json_t *export_json(const ExpOpen *x, const ExpTable *tab)
{
    const FlExpDesign *d = x->design;
    int np = fl_exp_design_param_count(d);
    const char *values[EXP_MAX_PARAMS];
    json_t *runs = json_array();
    for (int64_t idx = 0; idx < x->e->runs; idx++) {
        uint64_t seed;
        const char *status = row(x, tab, idx, values, &seed);
        if (!status)
            continue;
        json_t *o = json_pack("{s:I, s:s, s:I}", "idx", (json_int_t)idx, "status", status,
                              "seed", (json_int_t)seed);
        for (int i = 0; i < np; i++)
            json_object_set_new(o, fl_exp_design_param_key(d, i), exp_param_json(values[i]));
        for (int s = 0; s < tab->n; s++) {
            double v = tab->values[idx * tab->n + s];
            json_object_set_new(o, tab->names.scalar_names[s],
                                isnan(v) ? json_null() : json_real(v));
        }
        json_array_append_new(runs, o);
    }
    return json_pack("{s:s, s:o}", "experiment", x->e->name, "runs", runs);
}

/* What exp_export() writes. */
typedef struct Export {
    const ExpOpen *x;
    const ExpTable *tab;
    int as_json;
} Export;

static int write_export(FILE *fp, void *data)
{
    const Export *e = data;
    if (e->as_json)
        return cli_write_json(export_json(e->x, e->tab), fp);
    write_csv(fp, e->x, e->tab);
    return CLI_OK;
}

int exp_export(const CliCommand *cmd, const CliParsed *p)
{
    static const char *const formats[] = { "csv", "json", NULL };
    int as_json = sim_choice_option(cmd, p, "format", formats, 0);
    if (as_json < 0)
        return CLI_USAGE;
    ExpOpen x;
    ExpTable tab;
    memset(&tab, 0, sizeof tab);
    int rc = exp_open(p->args[0], p->args[1], &x);
    if (!rc && fl_exp_design_param_count(x.design) > EXP_MAX_PARAMS)
        rc = cli_error(CLI_USAGE, _("experiment export: at most %d parameters vary"),
                       EXP_MAX_PARAMS);
    if (!rc)
        rc = read_table(&x, &tab);
    Export e = { &x, &tab, as_json };
    if (!rc)
        rc = cli_write_output(cli_value(cmd, p, "output"), write_export, &e);
    free_table(&tab);
    exp_close(&x);
    return rc;
}
