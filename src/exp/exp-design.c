/* exp-design.c — an experiment's design: a base configuration and the
 * parameters it varies, unfolded into runs in a fixed order (see
 * flitlab-exp.h).
 *
 * Keys are checked against the engine's tables when they are given: a
 * simulation setting (fl_sim_settings_lookup), "routing" (the routing
 * registry) or a routing option (fl_routing_option_lookup); every value is
 * applied to a scratch configuration, so that a value the engine refuses is
 * refused when the design is made, not when its run comes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-exp.h"

typedef enum KeyKind { KEY_SETTING, KEY_ROUTING, KEY_ROUTING_OPTION } KeyKind;

typedef struct Param {
    char *key;
    KeyKind kind;
    char **values;
    int n;
} Param;

struct FlExpDesign {
    Param *base; /* one value each */
    int nbase;
    Param *vary;
    int nvary;
    uint64_t seed_from, seed_to;
    int has_seeds;
};

int fl_exp_design_new(FlExpDesign **out, FlError *err)
{
    *out = calloc(1, sizeof **out);
    return *out ? FL_OK : fl_error_set(err, FL_ENOMEM, "out of memory for a design");
}

static void param_clear(Param *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->values[i]);
    free(p->values);
    free(p->key);
}

void fl_exp_design_free(FlExpDesign *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->nbase; i++)
        param_clear(&d->base[i]);
    for (int i = 0; i < d->nvary; i++)
        param_clear(&d->vary[i]);
    free(d->base);
    free(d->vary);
    free(d);
}

static int key_kind(const char *key, KeyKind *kind, FlError *err)
{
    /* Set on every path: optimizing builds cannot see that the error
     * below is never FL_OK, and warned that callers read it unset. */
    *kind = KEY_SETTING;
    if (fl_sim_settings_lookup(key))
        return FL_OK;
    if (strcmp(key, "routing") == 0)
        *kind = KEY_ROUTING;
    else if (fl_routing_option_lookup(key))
        *kind = KEY_ROUTING_OPTION;
    else
        return fl_error_set(err, FL_ENOTFOUND,
                            "unknown parameter '%s': not a simulation "
                            "setting, 'routing' or a routing option",
                            key);
    return FL_OK;
}

/* Refuses a value the engine would refuse for key. */
static int check_value(const char *key, KeyKind kind, const char *value, FlError *err)
{
    int rc = FL_OK;
    if (kind == KEY_SETTING) {
        FlSimSettings s;
        fl_sim_settings_init(&s);
        rc = fl_sim_settings_set(&s, key, value, err);
        fl_sim_settings_clear(&s);
    } else if (kind == KEY_ROUTING) {
        if (!fl_routing_lookup(value))
            rc = fl_error_set(err, FL_ENOTFOUND, "routing: unknown routing '%s'", value);
    } else {
        FlRoutingOptions o;
        fl_routing_options_init(&o);
        rc = fl_routing_options_set(&o, key, value, err);
        fl_routing_options_clear(&o);
    }
    return rc;
}

static const Param *find(const Param *list, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].key, key) == 0)
            return &list[i];
    return NULL;
}

/* Appends key with its n values (taken) to *list. */
static int append(Param **list, int *n, const char *key, KeyKind kind, char **values, int nv,
                  FlError *err)
{
    Param *bigger = realloc(*list, sizeof **list * ((size_t)*n + 1));
    char *k = strdup(key);
    if (!bigger || !k) {
        if (bigger)
            *list = bigger;
        free(k);
        return fl_error_set(err, FL_ENOMEM, "out of memory for parameter '%s'", key);
    }
    *list = bigger;
    (*list)[(*n)++] = (Param){ k, kind, values, nv };
    return FL_OK;
}

static void free_values(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

int fl_exp_design_set(FlExpDesign *d, const char *key, const char *value, FlError *err)
{
    KeyKind kind;
    int rc = key_kind(key, &kind, err);
    if (rc || (rc = check_value(key, kind, value, err)))
        return rc;
    if (find(d->vary, d->nvary, key))
        return fl_error_set(err, FL_EINVAL, "%s is varied; it cannot also be set", key);
    char *copy = strdup(value);
    if (!copy)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    Param *p = (Param *)find(d->base, d->nbase, key);
    if (p) {
        free(p->values[0]);
        p->values[0] = copy;
        return FL_OK;
    }
    char **values = malloc(sizeof *values);
    if (!values) {
        free(copy);
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    values[0] = copy;
    if ((rc = append(&d->base, &d->nbase, key, kind, values, 1, err)))
        free_values(values, 1);
    return rc;
}

/* The digits after the point in a number's text; -1 with an exponent. */
static int decimals(const char *text)
{
    if (strpbrk(text, "eE"))
        return -1;
    const char *dot = strchr(text, '.');
    return dot ? (int)strlen(dot + 1) : 0;
}

/* A range's bounds and step are decimal: its values are printed with the
 * digits those have, which a hexadecimal step (0x.01, 1/256) would not
 * tell apart. */
static int parse_number(const char *key, const char *text, double *out, FlError *err)
{
    char *end;
    *out = strtod(text, &end);
    if (end == text || *end || !isfinite(*out) || strpbrk(text, "xX"))
        return fl_error_set(err, FL_EINVAL, "%s: '%s' is not a number (FROM:TO:STEP)", key, text);
    return FL_OK;
}

/* "FROM:TO:STEP" into its values, as text with the digits the bounds have. */
static int unfold_range(const char *key, const char *text, char ***out, int *n, FlError *err)
{
    char buf[3][64];
    if (sscanf(text, "%63[^:]:%63[^:]:%63s", buf[0], buf[1], buf[2]) != 3)
        return fl_error_set(err, FL_EINVAL, "%s: '%s' is not FROM:TO:STEP", key, text);
    double v[3];
    for (int i = 0; i < 3; i++) {
        int rc = parse_number(key, buf[i], &v[i], err);
        if (rc)
            return rc;
    }
    if (!(v[2] > 0) || v[1] < v[0])
        return fl_error_set(err, FL_ERANGE, "%s: %s is an empty range (FROM <= TO, STEP > 0)", key,
                            text);
    double count = floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
    if (count > FL_EXP_DESIGN_MAX_VALUES)
        return fl_error_set(err, FL_ERANGE, "%s: %s makes %.0f values; at most %d", key, text,
                            count, FL_EXP_DESIGN_MAX_VALUES);
    int digits = decimals(buf[0]) > decimals(buf[2]) ? decimals(buf[0]) : decimals(buf[2]);
    if (decimals(buf[0]) < 0 || decimals(buf[2]) < 0)
        digits = -1;
    char **values = calloc((size_t)count, sizeof *values);
    if (!values)
        return fl_error_set(err, FL_ENOMEM, "out of memory for %.0f values", count);
    for (int i = 0; i < (int)count; i++) {
        char num[64];
        double x = v[0] + i * v[2];
        if (digits >= 0)
            snprintf(num, sizeof num, "%.*f", digits, x);
        else
            snprintf(num, sizeof num, "%.15g", x);
        if (!(values[i] = strdup(num))) {
            free_values(values, i);
            return fl_error_set(err, FL_ENOMEM, "out of memory");
        }
    }
    *out = values;
    *n = (int)count;
    return FL_OK;
}

typedef struct {
    const char *text;
    int at;
} ListValue;

static int by_text_then_place(const void *a, const void *b)
{
    const ListValue *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* The place of the first of values[0..n) that repeats one before it, or
 * -1. Sorted rather than compared pairwise: a design's text form lists a
 * range's values, up to FL_EXP_DESIGN_MAX_VALUES of them. */
static int first_repeat(char **values, int n, int *repeat, FlError *err)
{
    *repeat = -1;
    ListValue *v = malloc(sizeof *v * (size_t)(n ? n : 1));
    if (!v)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        v[i] = (ListValue){ values[i], i };
    qsort(v, (size_t)n, sizeof *v, by_text_then_place);
    for (int i = 1; i < n; i++)
        if (strcmp(v[i - 1].text, v[i].text) == 0 && (*repeat < 0 || v[i].at < *repeat))
            *repeat = v[i].at;
    free(v);
    return FL_OK;
}

/* "V1,V2,..." into its values: none empty, none twice. */
static int split_list(const char *key, const char *text, char ***out, int *n, FlError *err)
{
    int cap = 1;
    for (const char *c = text; *c && cap <= FL_EXP_DESIGN_MAX_VALUES; c++)
        cap += *c == ',';
    if (cap > FL_EXP_DESIGN_MAX_VALUES)
        return fl_error_set(err, FL_ERANGE, "%s: a list of more than %d values", key,
                            FL_EXP_DESIGN_MAX_VALUES);
    char **values = calloc((size_t)cap, sizeof *values);
    if (!values)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    int k = 0, rc = FL_OK;
    for (const char *s = text; rc == FL_OK; k++) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == 0) {
            rc = fl_error_set(err, FL_EINVAL, "%s: an empty value in '%s'", key, text);
            break;
        }
        if (!(values[k] = strndup(s, len))) {
            rc = fl_error_set(err, FL_ENOMEM, "out of memory");
            break;
        }
        if (!e)
            break;
        s = e + 1;
    }
    int repeat = -1;
    if (rc == FL_OK && (rc = first_repeat(values, k + 1, &repeat, err)) == FL_OK && repeat >= 0)
        rc = fl_error_set(err, FL_EINVAL, "%s: '%s' is listed twice", key, values[repeat]);
    if (rc) {
        free_values(values, cap);
        return rc;
    }
    *out = values;
    *n = k + 1;
    return FL_OK;
}

int fl_exp_design_vary(FlExpDesign *d, const char *key, const char *values, FlError *err)
{
    KeyKind kind;
    int rc = key_kind(key, &kind, err);
    if (rc)
        return rc;
    if (strcmp(key, "seed") == 0)
        return fl_error_set(err, FL_EINVAL,
                            "seeds are varied with their own range "
                            "(--seeds A:B), not as a parameter");
    if (find(d->vary, d->nvary, key))
        return fl_error_set(err, FL_EINVAL, "%s is varied twice", key);
    if (find(d->base, d->nbase, key))
        return fl_error_set(err, FL_EINVAL, "%s is set; it cannot also be varied", key);
    char **v = NULL;
    int n = 0;
    int range = strchr(values, ':') && !strchr(values, ',');
    rc = range ? unfold_range(key, values, &v, &n, err) : split_list(key, values, &v, &n, err);
    for (int i = 0; !rc && i < n; i++)
        if ((rc = check_value(key, kind, v[i], err)))
            break;
    if (!rc && (int64_t)n * fl_exp_design_count(d) > FL_EXP_DESIGN_MAX_RUNS)
        rc = fl_error_set(err, FL_ERANGE, "varying %s over %d values makes more than %d runs", key,
                          n, FL_EXP_DESIGN_MAX_RUNS);
    if (!rc)
        rc = append(&d->vary, &d->nvary, key, kind, v, n, err);
    if (rc && v)
        free_values(v, n);
    return rc;
}

int fl_exp_design_seeds(FlExpDesign *d, uint64_t from, uint64_t to, FlError *err)
{
    if (to < from)
        return fl_error_set(err, FL_ERANGE, "seeds %llu:%llu: an empty range",
                            (unsigned long long)from, (unsigned long long)to);
    int64_t runs =
        fl_exp_design_count(d) / (d->has_seeds ? (int64_t)(d->seed_to - d->seed_from + 1) : 1);
    if (to - from >= (uint64_t)FL_EXP_DESIGN_MAX_RUNS
        || runs * (int64_t)(to - from + 1) > FL_EXP_DESIGN_MAX_RUNS)
        return fl_error_set(err, FL_ERANGE, "seeds %llu:%llu make more than %d runs",
                            (unsigned long long)from, (unsigned long long)to,
                            FL_EXP_DESIGN_MAX_RUNS);
    d->seed_from = from;
    d->seed_to = to;
    d->has_seeds = 1;
    return FL_OK;
}

int64_t fl_exp_design_count(const FlExpDesign *d)
{
    int64_t n = d->has_seeds ? (int64_t)(d->seed_to - d->seed_from + 1) : 1;
    for (int i = 0; i < d->nvary; i++)
        n *= d->vary[i].n;
    return n;
}

int fl_exp_design_param_count(const FlExpDesign *d)
{
    return d->nvary;
}

const char *fl_exp_design_param_key(const FlExpDesign *d, int i)
{
    return i >= 0 && i < d->nvary ? d->vary[i].key : NULL;
}

int fl_exp_design_value_count(const FlExpDesign *d, int i)
{
    return i >= 0 && i < d->nvary ? d->vary[i].n : 0;
}

const char *fl_exp_design_value(const FlExpDesign *d, int i, int v)
{
    if (i < 0 || i >= d->nvary || v < 0 || v >= d->vary[i].n)
        return NULL;
    return d->vary[i].values[v];
}

/* The seed of every run of a design without a seed range: the one set,
 * else the settings' default. */
static uint64_t fixed_seed(const FlExpDesign *d)
{
    FlSimSettings s;
    fl_sim_settings_init(&s);
    const Param *set = find(d->base, d->nbase, "seed");
    if (set)
        fl_sim_settings_set(&s, "seed", set->values[0], NULL);
    uint64_t seed = s.config.seed;
    fl_sim_settings_clear(&s);
    return seed;
}

int fl_exp_design_run(const FlExpDesign *d, int64_t idx, const char **values, uint64_t *seed,
                      FlError *err)
{
    int64_t count = fl_exp_design_count(d);
    if (idx < 0 || idx >= count)
        return fl_error_set(err, FL_ERANGE, "run %lld: the design has runs 0 to %lld",
                            (long long)idx, (long long)count - 1);
    /* Mixed radix: seeds vary fastest, then the last parameter. */
    int64_t seeds = d->has_seeds ? (int64_t)(d->seed_to - d->seed_from + 1) : 1;
    if (seed)
        *seed = d->has_seeds ? d->seed_from + (uint64_t)(idx % seeds) : fixed_seed(d);
    idx /= seeds;
    for (int i = d->nvary - 1; i >= 0; i--) {
        if (values)
            values[i] = d->vary[i].values[idx % d->vary[i].n];
        idx /= d->vary[i].n;
    }
    return FL_OK;
}

/* The value run values give key, or the base's, or NULL. */
static const char *value_of(const FlExpDesign *d, const char **values, const char *key)
{
    for (int i = 0; i < d->nvary; i++)
        if (strcmp(d->vary[i].key, key) == 0)
            return values[i];
    const Param *p = find(d->base, d->nbase, key);
    return p ? p->values[0] : NULL;
}

int fl_exp_design_apply(const FlExpDesign *d, int64_t idx, FlSimSettings *s, FlRoutingOptions *ro,
                        const char **routing, FlError *err)
{
    const char **values = malloc(sizeof *values * (size_t)(d->nvary ? d->nvary : 1));
    uint64_t seed = 0;
    if (!values)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    int rc = fl_exp_design_run(d, idx, values, &seed, err);
    /* Settings in the table's order, which is the order they must be
     * applied in (a pipeline preset before the link latency). */
    for (int k = 0; !rc && k < fl_sim_settings_key_count(); k++) {
        const char *key = fl_sim_settings_key(k)->name, *v = value_of(d, values, key);
        if (v)
            rc = fl_sim_settings_set(s, key, v, err);
    }
    if (!rc && d->has_seeds) {
        char text[32];
        snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
        rc = fl_sim_settings_set(s, "seed", text, err);
    }
    for (int i = 0; !rc && i < d->nbase + d->nvary; i++) {
        const Param *p = i < d->nbase ? &d->base[i] : &d->vary[i - d->nbase];
        if (p->kind == KEY_ROUTING_OPTION)
            rc = fl_routing_options_set(ro, p->key, value_of(d, values, p->key), err);
    }
    if (!rc && routing)
        *routing = value_of(d, values, "routing");
    free(values);
    return rc;
}

/* --- text form ------------------------------------------------------------ */

int fl_exp_design_format(const FlExpDesign *d, char **out, FlError *err)
{
    size_t len = 64;
    for (int i = 0; i < d->nbase + d->nvary; i++) {
        const Param *p = i < d->nbase ? &d->base[i] : &d->vary[i - d->nbase];
        len += strlen(p->key) + 8;
        for (int v = 0; v < p->n; v++)
            len += strlen(p->values[v]) + 1;
    }
    char *text = malloc(len), *at = text;
    if (!text)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    for (int i = 0; i < d->nbase; i++)
        at += sprintf(at, "set %s=%s\n", d->base[i].key, d->base[i].values[0]);
    for (int i = 0; i < d->nvary; i++) {
        at += sprintf(at, "vary %s=", d->vary[i].key);
        for (int v = 0; v < d->vary[i].n; v++)
            at += sprintf(at, "%s%s", v ? "," : "", d->vary[i].values[v]);
        *at++ = '\n';
    }
    if (d->has_seeds)
        at += sprintf(at, "seeds %llu:%llu\n", (unsigned long long)d->seed_from,
                      (unsigned long long)d->seed_to);
    *at = '\0';
    *out = text;
    return FL_OK;
}

/* One line of the text form into d. */
static int parse_line(FlExpDesign *d, const char *line, int number, FlError *err)
{
    const char *eq = strchr(line, '=');
    unsigned long long a, b;
    char tail;
    int rc;
    if (sscanf(line, "seeds %llu:%llu%c", &a, &b, &tail) == 2)
        rc = fl_exp_design_seeds(d, a, b, err);
    else if (eq && (strncmp(line, "set ", 4) == 0 || strncmp(line, "vary ", 5) == 0)) {
        int vary = line[0] == 'v';
        const char *key = line + (vary ? 5 : 4);
        char *name = strndup(key, (size_t)(eq - key));
        if (!name)
            return fl_error_set(err, FL_ENOMEM, "out of memory");
        rc = vary ? fl_exp_design_vary(d, name, eq + 1, err)
                  : fl_exp_design_set(d, name, eq + 1, err);
        free(name);
    } else {
        rc = fl_error_set(err, FL_EPARSE,
                          "not 'set KEY=VALUE', 'vary KEY=VALUES' or "
                          "'seeds A:B'");
    }
    if (rc && err) {
        char msg[sizeof err->message];
        snprintf(msg, sizeof msg, "%s", err->message);
        fl_error_set(err, rc, "line %d: %s", number, msg);
    }
    return rc;
}

int fl_exp_design_parse(const char *text, FlExpDesign **out, FlError *err)
{
    FlExpDesign *d;
    int rc = fl_exp_design_new(&d, err);
    for (int number = 1; !rc && *text; number++) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        char *line = strndup(text, len);
        if (!line)
            rc = fl_error_set(err, FL_ENOMEM, "out of memory");
        else if (len > 0)
            rc = parse_line(d, line, number, err);
        free(line);
        text += len + (nl != NULL);
    }
    if (rc) {
        fl_exp_design_free(d);
        return rc;
    }
    *out = d;
    return FL_OK;
}

unsigned fl_exp_design_models(const FlExpDesign *d)
{
    FlSimSettings s;
    FlRoutingOptions ro;
    const char *routing;
    unsigned models = 0;
    fl_sim_settings_init(&s);
    fl_routing_options_init(&ro);
    if (fl_exp_design_count(d) > 0 && !fl_exp_design_apply(d, 0, &s, &ro, &routing, NULL))
        models = fl_sim_model_option(s.model);
    fl_sim_settings_clear(&s);
    fl_routing_options_clear(&ro);
    for (int i = 0; i < fl_exp_design_param_count(d); i++) {
        if (strcmp(fl_exp_design_param_key(d, i), "mode") != 0)
            continue;
        for (int v = 0; v < fl_exp_design_value_count(d, i); v++) {
            fl_sim_settings_init(&s);
            if (!fl_sim_settings_set(&s, "mode", fl_exp_design_value(d, i, v), NULL))
                models |= fl_sim_model_option(s.model);
            fl_sim_settings_clear(&s);
        }
    }
    return models ? models : FL_OPTION_FOR_FLIT;
}
