/* experiment-plot.c — the points of a plot of an experiment's results
 * (flitlab-experiment-plot.h): a definition read and written as text, and
 * the curves it asks for, computed from the runs in the project's journal.
 *
 * A run's number names its values (flitlab-exp.h: the first parameter
 * varies slowest, the seeds fastest), so each done run is placed by
 * arithmetic on its number, without reading its parameters back.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-exp.h"
#include "flitlab-experiment-plot.h"
#include "flitlab-experiment.h"

/* --- definitions ------------------------------------------------------------ */

typedef enum FieldType { FIELD_TEXT, FIELD_FLAG, FIELD_COLUMNS } FieldType;

static const struct {
    const char *key;
    FieldType type;
    size_t offset;
} fields[] = {
    { "experiment", FIELD_TEXT, offsetof(FlPlotSpec, experiment) },
    { "x", FIELD_TEXT, offsetof(FlPlotSpec, x) },
    { "y", FIELD_TEXT, offsetof(FlPlotSpec, y) },
    { "series", FIELD_TEXT, offsetof(FlPlotSpec, series) },
    { "where", FIELD_TEXT, offsetof(FlPlotSpec, where) },
    { "title", FIELD_TEXT, offsetof(FlPlotSpec, title) },
    { "xlabel", FIELD_TEXT, offsetof(FlPlotSpec, xlabel) },
    { "ylabel", FIELD_TEXT, offsetof(FlPlotSpec, ylabel) },
    { "error_bars", FIELD_FLAG, offsetof(FlPlotSpec, error_bars) },
    { "xlog", FIELD_FLAG, offsetof(FlPlotSpec, xlog) },
    { "ylog", FIELD_FLAG, offsetof(FlPlotSpec, ylog) },
    { "columns", FIELD_COLUMNS, offsetof(FlPlotSpec, columns) },
};
#define N_FIELDS ((int)(sizeof fields / sizeof fields[0]))

static char **text_field(FlPlotSpec *s, int f)
{
    return (char **)((char *)s + fields[f].offset);
}

static const char *const *const_text_field(const FlPlotSpec *s, int f)
{
    return (const char *const *)((const char *)s + fields[f].offset);
}

static int *int_field(FlPlotSpec *s, int f)
{
    return (int *)((char *)s + fields[f].offset);
}

static int const_int_field(const FlPlotSpec *s, int f)
{
    return *(const int *)((const char *)s + fields[f].offset);
}

static char *copy_text(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

void fl_plot_spec_init(FlPlotSpec *s)
{
    memset(s, 0, sizeof *s);
    s->error_bars = 1;
    s->columns = 1;
}

void fl_plot_spec_clear(FlPlotSpec *s)
{
    for (int f = 0; f < N_FIELDS; f++)
        if (fields[f].type == FIELD_TEXT)
            free(*text_field(s, f));
    fl_plot_spec_init(s);
}

int fl_plot_spec_copy(FlPlotSpec *dst, const FlPlotSpec *src, FlError *err)
{
    *dst = *src;
    int failed = 0;
    for (int f = 0; f < N_FIELDS; f++) {
        if (fields[f].type != FIELD_TEXT)
            continue;
        const char *t = *const_text_field(src, f);
        if (!t)
            continue;
        char **to = text_field(dst, f);
        if (failed || !(*to = copy_text(t, strlen(t)))) {
            *to = NULL;
            failed = 1;
        }
    }
    if (failed) {
        fl_plot_spec_clear(dst);
        return fl_error_set(err, FL_ENOMEM, "out of memory copying a plot definition");
    }
    return FL_OK;
}

int fl_plot_spec_format(const FlPlotSpec *s, char **out, FlError *err)
{
    *out = NULL;
    if (s->columns != 1 && s->columns != 2)
        return fl_error_set(err, FL_EINVAL, "a plot spans 1 or 2 columns, not %d", s->columns);
    size_t size = 1;
    for (int f = 0; f < N_FIELDS; f++) {
        const char *t = fields[f].type == FIELD_TEXT ? *const_text_field(s, f) : NULL;
        if (t && strpbrk(t, "\r\n"))
            return fl_error_set(err, FL_EINVAL, "the plot's %s holds a line break",
                                fields[f].key);
        size += strlen(fields[f].key) + 16 + (t ? strlen(t) : 0);
    }
    char *text = malloc(size);
    if (!text)
        return fl_error_set(err, FL_ENOMEM, "out of memory writing a plot definition");
    size_t len = 0;
    for (int f = 0; f < N_FIELDS; f++) {
        if (fields[f].type == FIELD_TEXT) {
            const char *t = *const_text_field(s, f);
            if (t)
                len += (size_t)snprintf(text + len, size - len, "%s=%s\n", fields[f].key, t);
        } else {
            int v = const_int_field(s, f);
            len += (size_t)snprintf(text + len, size - len, "%s=%d\n", fields[f].key,
                                    fields[f].type == FIELD_FLAG ? v != 0 : v);
        }
    }
    *out = text;
    return FL_OK;
}

/* Sets field f of s from the text v (n bytes) of line `line`. */
static int parse_field(FlPlotSpec *s, int f, const char *v, size_t n, int line, FlError *err)
{
    if (fields[f].type == FIELD_TEXT) {
        /* A value format would refuse to write back. */
        if (memchr(v, '\r', n))
            return fl_error_set(err, FL_EINVAL, "line %d: the %s holds a carriage return", line,
                                fields[f].key);
        char **to = text_field(s, f);
        if (!(*to = copy_text(v, n)))
            return fl_error_set(err, FL_ENOMEM, "out of memory reading a plot definition");
        return FL_OK;
    }
    int ok = n == 1 && (fields[f].type == FIELD_FLAG ? (*v == '0' || *v == '1')
                                                     : (*v == '1' || *v == '2'));
    if (!ok)
        return fl_error_set(err, FL_EINVAL, "line %d: %s must be %s, not '%.*s'", line,
                            fields[f].key, fields[f].type == FIELD_FLAG ? "0 or 1" : "1 or 2",
                            (int)(n > 40 ? 40 : n), v);
    *int_field(s, f) = *v - '0';
    return FL_OK;
}

int fl_plot_spec_parse(const char *text, FlPlotSpec *out, FlError *err)
{
    fl_plot_spec_init(out);
    unsigned seen = 0;
    int line = 0, rc = FL_OK;
    for (const char *at = text; !rc && at && *at;) {
        const char *end = strchr(at, '\n');
        size_t n = end ? (size_t)(end - at) : strlen(at);
        const char *next = end ? end + 1 : NULL;
        line++;
        if (n > 0 && at[n - 1] == '\r')
            n--;
        if (n == 0 || at[0] == '#') {
            at = next;
            continue;
        }
        const char *eq = memchr(at, '=', n);
        if (!eq) {
            rc = fl_error_set(err, FL_EPARSE, "line %d: expected key=value, not '%.*s'", line,
                              (int)(n > 40 ? 40 : n), at);
            break;
        }
        size_t klen = (size_t)(eq - at);
        int f = 0;
        while (f < N_FIELDS && (strlen(fields[f].key) != klen
                                || memcmp(fields[f].key, at, klen) != 0))
            f++;
        if (f == N_FIELDS)
            rc = fl_error_set(err, FL_EPARSE, "line %d: unknown plot key '%.*s'", line,
                              (int)(klen > 40 ? 40 : klen), at);
        else if (seen & (1u << f))
            rc = fl_error_set(err, FL_EPARSE, "line %d: %s given twice", line, fields[f].key);
        else {
            seen |= 1u << f;
            rc = parse_field(out, f, eq + 1, n - klen - 1, line, err);
        }
        at = next;
    }
    if (rc)
        fl_plot_spec_clear(out);
    return rc;
}

/* --- the points ---------------------------------------------------------------- */

/* What each varied parameter is to the plot. */
typedef enum Role {
    ROLE_X,
    ROLE_SERIES,
    ROLE_WHERE,    /* fixed to one value */
    ROLE_CURVE,    /* without a series: one curve per combination */
    ROLE_POOLED    /* with a series: pooled into each point */
} Role;

typedef struct Plan {
    const FlPlotSpec *spec;
    FlExpDesign *design;
    int np;
    Role *role;
    int *fixed;       /* ROLE_WHERE: the value index */
    int *count;       /* values of each parameter */
    int ix, iseries;  /* -1: no series; ix -1: x is cycle or channel */
    int64_t seeds;    /* runs per combination of values */
    int64_t runs;
    int ykey;         /* y in the result-key table, of the runs' model */
    int vector;       /* x cycle or channel: y in the vectors' table */
} Plan;

/* One done run's finite y at x (with a vector, one of its values). */
typedef struct Entry {
    int64_t curve;
    double x;
    double y;
} Entry;

static void plan_free(Plan *pl)
{
    fl_exp_design_free(pl->design);
    free(pl->role);
    free(pl->fixed);
    free(pl->count);
}

static int number(const char *text, double *v)
{
    char *end;
    *v = strtod(text, &end);
    return end != text && !*end && isfinite(*v);
}

/* "rate, routing": the parameters d varies, for messages. */
static void param_list(const FlExpDesign *d, char *buf, size_t size)
{
    buf[0] = '\0';
    int np = fl_exp_design_param_count(d);
    for (int i = 0; i < np; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", i ? ", " : "", fl_exp_design_param_key(d, i));
    }
    if (np == 0)
        snprintf(buf, size, "nothing");
}

/* Parameter key's index, or an error naming what (x, series, where). */
static int find_param(const Plan *pl, const char *key, const char *what, int *out, FlError *err)
{
    for (int i = 0; i < pl->np; i++)
        if (strcmp(fl_exp_design_param_key(pl->design, i), key) == 0) {
            *out = i;
            return FL_OK;
        }
    char list[512];
    param_list(pl->design, list, sizeof list);
    return fl_error_set(err, FL_ENOTFOUND, "%s: experiment '%s' does not vary '%s' (it varies "
                        "%s%s)", what, pl->spec->experiment, key, list,
                        strcmp(what, "x") == 0 ? "; or x is cycle or channel, for the runs' "
                                                 "vectors" : "");
}

/* The index of value text among parameter i's, or -1: the same text, or
 * the same number. */
static int find_value(const FlExpDesign *d, int i, const char *text)
{
    int n = fl_exp_design_value_count(d, i);
    double want, have;
    int numeric = number(text, &want);
    for (int v = 0; v < n; v++) {
        const char *value = fl_exp_design_value(d, i, v);
        if (strcmp(value, text) == 0 || (numeric && number(value, &have) && have == want))
            return v;
    }
    return -1;
}

static int no_such_value(const Plan *pl, int i, const char *text, FlError *err)
{
    char list[256] = "";
    int n = fl_exp_design_value_count(pl->design, i);
    for (int v = 0; v < n && strlen(list) < 160; v++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", v ? ", " : "",
                 fl_exp_design_value(pl->design, i, v));
    }
    return fl_error_set(err, FL_EINVAL, "where: experiment '%s' has no %s=%s (its values: "
                        "%s%s)", pl->spec->experiment, fl_exp_design_param_key(pl->design, i),
                        text, list, strlen(list) >= 160 ? ", ..." : "");
}

/* s without the blanks at either end (n bytes, changed in place). */
static const char *trim(const char *s, size_t *n)
{
    while (*n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        (*n)--;
    }
    while (*n > 0 && (s[*n - 1] == ' ' || s[*n - 1] == '\t'))
        (*n)--;
    return s;
}

#define WHERE_TEXT_MAX 256

/* One "key=value" item of where (n bytes at item) into key and value
 * (WHERE_TEXT_MAX bytes each), blanks around either ignored. */
static int where_split(const char *item, size_t n, char *key, char *value, FlError *err)
{
    item = trim(item, &n);
    const char *eq = memchr(item, '=', n);
    size_t klen = eq ? (size_t)(eq - item) : 0, vlen = eq ? n - klen - 1 : 0;
    const char *k = trim(item, &klen), *v = eq ? trim(eq + 1, &vlen) : NULL;
    if (!eq || klen == 0 || vlen == 0 || klen >= WHERE_TEXT_MAX || vlen >= WHERE_TEXT_MAX)
        return fl_error_set(err, FL_EINVAL, "where: expected key=value, not '%.*s'",
                            (int)(n > 60 ? 60 : n), item);
    memcpy(key, k, klen);
    key[klen] = '\0';
    memcpy(value, v, vlen);
    value[vlen] = '\0';
    return FL_OK;
}

/* Calls item(data, start, n) for each comma-separated item of where, until
 * one fails. */
static int where_each(const char *where, int (*item)(void *data, const char *at, size_t n,
                                                     FlError *err),
                      void *data, FlError *err)
{
    int rc = FL_OK;
    for (const char *at = where; !rc && at;) {
        const char *comma = strchr(at, ',');
        size_t n = comma ? (size_t)(comma - at) : strlen(at);
        rc = item(data, at, n, err);
        at = comma ? comma + 1 : NULL;
    }
    return rc;
}

static int where_item_syntax(void *data, const char *item, size_t n, FlError *err)
{
    char key[WHERE_TEXT_MAX], value[WHERE_TEXT_MAX];
    (void)data;
    return where_split(item, n, key, value, err);
}

int fl_plot_where_check(const char *where, FlError *err)
{
    return where_each(where, where_item_syntax, NULL, err);
}

/* One "key=value" item of where (n bytes at item): a varied parameter
 * fixed at one of its values. */
static int where_item(void *data, const char *item, size_t n, FlError *err)
{
    Plan *pl = data;
    char key[WHERE_TEXT_MAX], value[WHERE_TEXT_MAX];
    int rc = where_split(item, n, key, value, err);
    if (rc)
        return rc;
    int i = -1;
    rc = find_param(pl, key, "where", &i, err);
    if (rc)
        return rc;
    if (pl->role[i] != ROLE_POOLED && pl->role[i] != ROLE_CURVE)
        return pl->role[i] == ROLE_X
                   ? fl_error_set(err, FL_EINVAL, "where: '%s' is on x", key)
               : pl->role[i] == ROLE_SERIES
                   ? fl_error_set(err, FL_EINVAL, "where: '%s' is the series", key)
                   : fl_error_set(err, FL_EINVAL, "where: '%s' is given twice", key);
    int vi = find_value(pl->design, i, value);
    if (vi < 0)
        return no_such_value(pl, i, value, err);
    pl->role[i] = ROLE_WHERE;
    pl->fixed[i] = vi;
    return FL_OK;
}

/* The name of every result key of models, for the message refusing one. */
static void result_key_list(unsigned models, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < fl_sim_result_key_count(); i++) {
        const FlSimResultKey *k = fl_sim_result_key(i);
        size_t len = strlen(buf);
        if (k->models & models)
            snprintf(buf + len, size - len, "%s%s", len ? ", " : "", k->name);
    }
}

/* The names of the vectors a run has over x (per channel or not), for the
 * message refusing one. */
static void vector_list(int per_channel, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < fl_experiment_vector_count() && at < size; i++) {
        const FlExperimentVectorInfo *v = fl_experiment_vector_info(i);
        if (v->per_channel == per_channel)
            at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? ", " : "", v->name);
    }
}

/* With x cycle or channel, y is a vector of runs over it. */
static int vector_y(Plan *pl, int per_channel, FlError *err)
{
    const FlPlotSpec *spec = pl->spec;
    pl->vector = fl_experiment_vector_find(spec->y);
    const FlExperimentVectorInfo *v = fl_experiment_vector_info(pl->vector);
    if (v && v->per_channel == per_channel)
        return FL_OK;
    char list[512];
    vector_list(per_channel, list, sizeof list);
    return fl_error_set(err, FL_ENOTFOUND, "y: with x=%s, y is a vector of the runs by %s (%s), "
                        "not '%s'", spec->x, per_channel ? "channel" : "cycle", list, spec->y);
}

static int plan_make(FlProject *p, const FlPlotSpec *spec, Plan *pl, FlError *err)
{
    memset(pl, 0, sizeof *pl);
    pl->spec = spec;
    pl->iseries = -1;
    pl->ix = -1;
    pl->vector = -1;
    if (!spec->experiment || !*spec->experiment)
        return fl_error_set(err, FL_EINVAL, "a plot needs an experiment");
    if (!spec->x || !*spec->x)
        return fl_error_set(err, FL_EINVAL, "a plot needs x: a parameter its experiment "
                            "varies, or cycle or channel");
    if (!spec->y || !*spec->y)
        return fl_error_set(err, FL_EINVAL, "a plot needs y: a result key (latency_avg, ...)");
    int over_cycles = strcmp(spec->x, FL_PLOT_X_CYCLE) == 0;
    int over_channels = strcmp(spec->x, FL_PLOT_X_CHANNEL) == 0;
    int rc = over_cycles || over_channels ? vector_y(pl, over_channels, err) : FL_OK;
    FlProjectExperiment e;
    if (rc || (rc = fl_project_get_experiment(p, spec->experiment, &e, err)))
        return rc;
    FlError why = { 0 };
    rc = fl_exp_design_parse(e.design, &pl->design, &why);
    fl_project_experiment_clear(&e);
    if (rc)
        return fl_error_set(err, why.code, "experiment %s: its design: %s", spec->experiment,
                            why.message);
    /* The key of the model the runs use: throughput is the simulator's
     * flits or the deflection model's messages. */
    unsigned models = fl_exp_design_models(pl->design);
    pl->ykey = pl->vector >= 0 ? -1 : fl_sim_result_key_find_for(spec->y, models);
    if (pl->vector < 0 && pl->ykey < 0) {
        char list[1024];
        result_key_list(models, list, sizeof list);
        return fl_error_set(err, FL_ENOTFOUND, "y: '%s' is not a result key of this "
                            "experiment's runs (%s)", spec->y, list);
    }
    pl->np = fl_exp_design_param_count(pl->design);
    pl->runs = fl_exp_design_count(pl->design);
    size_t np = (size_t)(pl->np ? pl->np : 1);
    pl->role = calloc(np, sizeof *pl->role);
    pl->fixed = calloc(np, sizeof *pl->fixed);
    pl->count = calloc(np, sizeof *pl->count);
    if (!pl->role || !pl->fixed || !pl->count)
        return fl_error_set(err, FL_ENOMEM, "out of memory for a plot");
    int64_t combos = 1;
    for (int i = 0; i < pl->np; i++) {
        pl->count[i] = fl_exp_design_value_count(pl->design, i);
        combos *= pl->count[i];
    }
    pl->seeds = combos > 0 ? pl->runs / combos : 1;
    if (pl->vector < 0 && (rc = find_param(pl, spec->x, "x", &pl->ix, err)))
        return rc;
    if (spec->series && *spec->series) {
        if ((rc = find_param(pl, spec->series, "series", &pl->iseries, err)))
            return rc;
        if (pl->iseries == pl->ix)
            return fl_error_set(err, FL_EINVAL, "series: '%s' is already on x", spec->series);
    }
    for (int i = 0; i < pl->np; i++)
        pl->role[i] = i == pl->ix ? ROLE_X : i == pl->iseries ? ROLE_SERIES
                      : pl->iseries >= 0                       ? ROLE_POOLED
                                                               : ROLE_CURVE;
    if (spec->where && *spec->where)
        rc = where_each(spec->where, where_item, pl, err);
    return rc;
}

/* Where run idx goes: its curve and x value; 0 when where leaves it out. */
static int place(const Plan *pl, int64_t idx, int64_t *curve, int *xv)
{
    int64_t c = idx / (pl->seeds > 0 ? pl->seeds : 1), key = 0, radix = 1;
    for (int i = pl->np - 1; i >= 0; i--) {
        int v = (int)(c % pl->count[i]);
        c /= pl->count[i];
        if (pl->role[i] == ROLE_WHERE && v != pl->fixed[i])
            return 0;
        if (pl->role[i] == ROLE_X)
            *xv = v;
        else if (pl->role[i] == ROLE_SERIES)
            key = v;
        else if (pl->role[i] == ROLE_CURVE) {
            key += v * radix;
            radix *= pl->count[i];
        }
    }
    *curve = key;
    return 1;
}

/* Room for n more entries in *entries (of *cap). */
static int reserve(Entry **entries, int n, int more, int *cap, FlError *err)
{
    if (n + more <= *cap)
        return FL_OK;
    if (more > INT_MAX - n)
        return fl_error_set(err, FL_ERANGE, "a plot of more than %d points", INT_MAX);
    int want = n + more > INT_MAX / 2 ? INT_MAX : 2 * (n + more);
    Entry *bigger = realloc(*entries, sizeof **entries * (size_t)want);
    if (!bigger)
        return fl_error_set(err, FL_ENOMEM, "out of memory for a plot");
    *entries = bigger;
    *cap = want;
    return FL_OK;
}

/* The values of the vector y of each done run, placed at their cycle
 * (sample k of a run at k times its step) or channel. */
static int collect_vectors(FlProject *p, const Plan *pl, const int64_t *done, int ndone,
                           Entry **entries, int *n, int *runs, FlError *err)
{
    FlProjectVector *v = NULL;
    int nv = 0, cap = 0, have = 0;
    int rc = fl_project_get_vectors(p, pl->spec->experiment, -1, pl->spec->y, &v, &nv, err);
    for (int i = 0, k = 0; !rc && i < nv; i++) {
        /* Both lists are by run number. */
        while (k < ndone && done[k] < v[i].idx)
            k++;
        int64_t curve;
        int xv = 0;
        if (k == ndone || done[k] != v[i].idx)
            continue;
        have++;
        if (v[i].idx >= pl->runs || !place(pl, v[i].idx, &curve, &xv)
            || (rc = reserve(entries, *n, v[i].length, &cap, err)))
            continue;
        ++*runs;
        for (int j = 0; j < v[i].length; j++)
            if (isfinite(v[i].data[j]))
                (*entries)[(*n)++] = (Entry){ curve, v[i].step > 0 ? j * v[i].step : j,
                                              v[i].data[j] };
    }
    if (!rc && ndone > 0 && have == 0)
        rc = fl_error_set(err, FL_ENOTFOUND, "y: no done run of experiment '%s' has the vector "
                          "'%s'", pl->spec->experiment, pl->spec->y);
    fl_project_vectors_free(v, nv);
    return rc;
}

/* The scalar y of each done run, placed at its x value's position xpos. */
static int collect_scalars(FlProject *p, const Plan *pl, const double *xpos,
                           const int64_t *done, int ndone, Entry **entries, int *n, int *runs,
                           FlError *err)
{
    const char *name = pl->spec->experiment;
    int64_t *idx = NULL;
    double *values = NULL;
    int nvalues = 0, cap = 0, have = 0;
    int rc = fl_project_get_scalars(p, name, pl->spec->y, &idx, &values, &nvalues, err);
    if (!rc)
        rc = reserve(entries, 0, ndone, &cap, err);
    for (int i = 0, k = 0; !rc && i < ndone; i++) {
        while (k < nvalues && idx[k] < done[i])
            k++;
        if (k == nvalues || idx[k] != done[i])
            continue;
        have++;
        int64_t curve;
        int xv = 0;
        if (done[i] >= 0 && done[i] < pl->runs && isfinite(values[k])
            && place(pl, done[i], &curve, &xv))
            (*entries)[(*n)++] = (Entry){ curve, xpos[xv], values[k] };
    }
    *runs = *n;
    if (!rc && ndone > 0 && have == 0)
        rc = fl_error_set(err, FL_ENOTFOUND, "y: no done run of experiment '%s' has '%s'",
                          name, pl->spec->y);
    free(idx);
    free(values);
    return rc;
}

/* The done runs with y, placed: *entries malloc'd; the runs they come
 * from into *runs. */
static int collect(FlProject *p, const Plan *pl, const double *xpos, Entry **entries, int *n,
                   int *runs, FlError *err)
{
    int64_t *done = NULL;
    int ndone = 0;
    *entries = NULL;
    *n = 0;
    *runs = 0;
    int rc = fl_project_list_runs(p, pl->spec->experiment, FL_RUN_DONE, &done, &ndone, err);
    if (!rc && pl->vector >= 0)
        rc = collect_vectors(p, pl, done, ndone, entries, n, runs, err);
    else if (!rc)
        rc = collect_scalars(p, pl, xpos, done, ndone, entries, n, runs, err);
    free(done);
    if (rc) {
        free(*entries);
        *entries = NULL;
        *n = 0;
    }
    return rc;
}

static int entry_order(const void *a, const void *b)
{
    const Entry *x = a, *y = b;
    if (x->curve != y->curve)
        return x->curve < y->curve ? -1 : 1;
    if (x->x != y->x)
        return x->x < y->x ? -1 : 1;
    return 0;
}

/* The label of the curve with key: the series' value ("updown"; with its
 * key when it is a number: "packet=16"), the values of the parameters left
 * ("a=1, b=x"), or NULL (one curve, no parameter left to tell it apart).
 * Short labels keep the legend small enough to sit off the data. */
static char *curve_label(const Plan *pl, int64_t key, int *failed)
{
    char buf[1024] = "";
    if (pl->iseries >= 0) {
        const char *value = fl_exp_design_value(pl->design, pl->iseries, (int)key);
        char *end;
        strtod(value, &end);
        if (end != value && *end == '\0')
            snprintf(buf, sizeof buf, "%s=%s", fl_exp_design_param_key(pl->design, pl->iseries),
                     value);
        else
            snprintf(buf, sizeof buf, "%s", value);
    }
    /* Without a series, key's digits are the values of the ROLE_CURVE
     * parameters, the last one least significant. */
    int64_t radix = 1;
    for (int i = pl->np - 1; pl->iseries < 0 && i >= 0; i--)
        if (pl->role[i] == ROLE_CURVE)
            radix *= pl->count[i];
    for (int i = 0; pl->iseries < 0 && i < pl->np; i++) {
        if (pl->role[i] != ROLE_CURVE)
            continue;
        radix /= pl->count[i];
        size_t len = strlen(buf);
        snprintf(buf + len, sizeof buf - len, "%s%s=%s", len ? ", " : "",
                 fl_exp_design_param_key(pl->design, i),
                 fl_exp_design_value(pl->design, i, (int)(key / radix % pl->count[i])));
    }
    if (!buf[0])
        return NULL;
    char *label = copy_text(buf, strlen(buf));
    if (!label)
        *failed = 1;
    return label;
}

/* One curve from entries [from, to) (one key), its points filled. */
static int make_curve(const Plan *pl, const Entry *en, int from, int to, FlPlotCurve *c,
                      FlError *err)
{
    int points = 0, failed = 0;
    for (int i = from; i < to; i++)
        points += i == from || en[i].x != en[i - 1].x;
    size_t n = (size_t)points;
    c->label = curve_label(pl, en[from].curve, &failed);
    c->x = malloc(n * sizeof *c->x);
    c->y = malloc(n * sizeof *c->y);
    c->lo = malloc(n * sizeof *c->lo);
    c->hi = malloc(n * sizeof *c->hi);
    c->runs = malloc(n * sizeof *c->runs);
    double *v = malloc((size_t)(to - from) * sizeof *v);
    if (failed || !c->x || !c->y || !c->lo || !c->hi || !c->runs || !v) {
        free(v);
        return fl_error_set(err, FL_ENOMEM, "out of memory for a plot");
    }
    for (int i = from; i < to;) {
        int j = i, m = 0;
        while (j < to && en[j].x == en[i].x)
            v[m++] = en[j++].y;
        double mean, half;
        fl_stats_mean_ci95(v, m, &mean, &half);
        c->x[c->n] = en[i].x;
        c->y[c->n] = mean;
        c->lo[c->n] = mean - half;
        c->hi[c->n] = mean + half;
        c->runs[c->n] = m;
        c->n++;
        i = j;
    }
    free(v);
    return FL_OK;
}

/* A unit for the parameters that are quantities, by key. */
static const struct {
    const char *key, *unit;
} param_units[] = {
    { "rate", "flits/cycle/host" }, { "buf", "flits" },           { "packet", "flits" },
    { "link-latency", "cycles" },   { "warmup", "cycles" },       { "measure", "cycles" },
    { "drain", "cycles" },          { "watchdog", "cycles" },     { "cycles", "cycles" },
    { "link-cycles-per-flit", "cycles" },
    { "message-size", "flits" },    { "max-packet", "flits" },    { "s-s", "cycles" },
    { "s-d", "cycles" },            { "r-s", "cycles" },          { "r-d", "cycles" },
    { "c-d", "cycles" },
};

/* "Offered load (flits/cycle/host)": a parameter's title and unit. */
static void param_title(const char *key, char *buf, size_t size)
{
    const FlOptionInfo *o = fl_sim_settings_lookup(key);
    if (!o)
        o = fl_routing_option_lookup(key);
    const char *title = o && o->label ? o->label : strcmp(key, "routing") == 0 ? "Routing" : key;
    const char *unit = NULL;
    for (size_t i = 0; i < sizeof param_units / sizeof param_units[0]; i++)
        if (strcmp(param_units[i].key, key) == 0)
            unit = param_units[i].unit;
    if (unit)
        snprintf(buf, size, "%s (%s)", title, unit);
    else
        snprintf(buf, size, "%s", title);
}

static int make_labels(const Plan *pl, FlPlotData *d, FlError *err)
{
    const FlPlotSpec *s = pl->spec;
    char buf[1024];
    const FlExperimentVectorInfo *vector = fl_experiment_vector_info(pl->vector);
    if (s->xlabel)
        snprintf(buf, sizeof buf, "%s", s->xlabel);
    else if (vector)
        snprintf(buf, sizeof buf, "%s", vector->per_channel ? "Channel" : "Cycle");
    else
        param_title(s->x, buf, sizeof buf);
    /* The ticks are numbers: the default label says which value each is. */
    for (int i = 0; !s->xlabel && i < d->nxnames && strlen(buf) < 600; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, sizeof buf - len, "%s%d %s%s", i ? ", " : " (", i, d->xnames[i],
                 i == d->nxnames - 1 ? ")" : "");
    }
    if (!s->xlabel && d->nxnames > 0 && buf[strlen(buf) - 1] != ')')
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ", ...)");
    d->xlabel = copy_text(buf, strlen(buf));
    const FlSimResultKey *k = fl_sim_result_key(pl->ykey);
    const char *title = vector ? vector->title : k->title, *unit = vector ? vector->unit : k->unit;
    if (s->ylabel)
        snprintf(buf, sizeof buf, "%s", s->ylabel);
    else if (unit && *unit)
        snprintf(buf, sizeof buf, "%s (%s)", title, unit);
    else
        snprintf(buf, sizeof buf, "%s", title);
    d->ylabel = copy_text(buf, strlen(buf));
    if (s->title)
        d->title = copy_text(s->title, strlen(s->title));
    if (!d->xlabel || !d->ylabel || (s->title && !d->title))
        return fl_error_set(err, FL_ENOMEM, "out of memory for a plot");
    return FL_OK;
}

/* Where each of x's values is drawn; names when one is not a number. */
static int x_positions(const Plan *pl, double **xpos, FlPlotData *d, FlError *err)
{
    int n = pl->count[pl->ix], numeric = 1;
    *xpos = malloc((size_t)(n ? n : 1) * sizeof **xpos);
    if (!*xpos)
        return fl_error_set(err, FL_ENOMEM, "out of memory for a plot");
    for (int v = 0; v < n; v++)
        numeric &= number(fl_exp_design_value(pl->design, pl->ix, v), &(*xpos)[v]);
    if (numeric)
        return FL_OK;
    if (!(d->xnames = calloc((size_t)n, sizeof *d->xnames)))
        return fl_error_set(err, FL_ENOMEM, "out of memory for a plot");
    d->nxnames = n;
    for (int v = 0; v < n; v++) {
        const char *name = fl_exp_design_value(pl->design, pl->ix, v);
        (*xpos)[v] = v;
        if (!(d->xnames[v] = copy_text(name, strlen(name))))
            return fl_error_set(err, FL_ENOMEM, "out of memory for a plot");
    }
    return FL_OK;
}

int fl_experiment_plot_data(FlProject *p, const FlPlotSpec *spec, FlPlotData *out,
                            FlError *err)
{
    memset(out, 0, sizeof *out);
    if (!p || !spec)
        return fl_error_set(err, FL_EINVAL, "a plot needs a project and a definition");
    Plan pl;
    Entry *en = NULL;
    double *xpos = NULL;
    int n = 0, runs = 0;
    int rc = plan_make(p, spec, &pl, err);
    if (!rc && pl.vector < 0)
        rc = x_positions(&pl, &xpos, out, err);
    if (!rc)
        rc = collect(p, &pl, xpos, &en, &n, &runs, err);
    if (!rc)
        rc = make_labels(&pl, out, err);
    if (!rc && n > 0) {
        qsort(en, (size_t)n, sizeof *en, entry_order);
        int curves = 0;
        for (int i = 0; i < n; i++)
            curves += i == 0 || en[i].curve != en[i - 1].curve;
        if (!(out->curves = calloc((size_t)curves, sizeof *out->curves)))
            rc = fl_error_set(err, FL_ENOMEM, "out of memory for a plot");
        for (int i = 0; !rc && i < n;) {
            int j = i;
            while (j < n && en[j].curve == en[i].curve)
                j++;
            rc = make_curve(&pl, en, i, j, &out->curves[out->ncurves++], err);
            i = j;
        }
        out->runs = runs;
    }
    free(en);
    free(xpos);
    plan_free(&pl);
    if (rc)
        fl_plot_data_clear(out);
    return rc;
}

void fl_plot_data_clear(FlPlotData *d)
{
    for (int i = 0; d->curves && i < d->ncurves; i++) {
        FlPlotCurve *c = &d->curves[i];
        free(c->label);
        free(c->x);
        free(c->y);
        free(c->lo);
        free(c->hi);
        free(c->runs);
    }
    for (int i = 0; d->xnames && i < d->nxnames; i++)
        free(d->xnames[i]);
    free(d->xnames);
    free(d->curves);
    free(d->title);
    free(d->xlabel);
    free(d->ylabel);
    memset(d, 0, sizeof *d);
}
