/* exp.c — running a list of simulations on a pool of worker threads: the
 * checks of the list, its series, the workers, the stop-past-saturation rule
 * and the in-order delivery of results (flitlab-exp.h says what each
 * guarantees). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp-internal.h"

void fl_exp_options_init(FlExpOptions *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->workers = 1;
    opt->stop_past_saturation = 1;
    opt->latency_factor = FL_EXP_DEFAULT_LATENCY_FACTOR;
    opt->shares = 1;
}

void fl_exp_point_init(FlExpPoint *p)
{
    memset(p, 0, sizeof *p);
    fl_sim_config_init(&p->config);
    FlSimSettings defaults;
    fl_sim_settings_init(&defaults);
    p->model = FL_SIM_MODEL_FLIT;
    p->deflect = defaults.deflect;
    p->multicast = defaults.multicast;
    fl_sim_settings_clear(&defaults);
    p->routing_options.root = -1;
}

int fl_exp_past_saturation(const FlSimResult *res, double limit)
{
    if (res->status != FL_SIM_OK)
        return 1;
    /* A NaN limit or latency compares false: not judged by latency. */
    return limit > 0 && res->latency_avg > limit;
}

/* ---- checking and copying the list ---------------------------------------- */

static int check_options(const FlExpOptions *o, FlError *err)
{
    if (o->workers < 1 || o->workers > FL_EXP_MAX_WORKERS)
        return fl_error_set(err, FL_ERANGE, "workers must be from 1 to %d, not %d",
                            FL_EXP_MAX_WORKERS, o->workers);
    if (!(o->max_latency >= 0) || isinf(o->max_latency))
        return fl_error_set(err, FL_ERANGE, "max_latency must be 0 (a factor of the first "
                            "latency) or a positive number of cycles, not %g", o->max_latency);
    if (!(o->latency_factor > 0) || isinf(o->latency_factor))
        return fl_error_set(err, FL_ERANGE, "latency_factor must be a positive number, not %g",
                            o->latency_factor);
    if (o->shares < 1 || o->share < 0 || o->share >= o->shares)
        return fl_error_set(err, FL_ERANGE, "share %d of %d: shares must be at least 1 and "
                            "share from 0 to shares - 1", o->share, o->shares);
    if (o->sample_interval < 0 || o->sample_interval > 1000000)
        return fl_error_set(err, FL_ERANGE, "sample interval must be from 1 to 1000000 cycles "
                            "(or 0: none), not %lld", (long long)o->sample_interval);
    return FL_OK;
}

static int check_point(const FlExpPoint *p, int i, FlError *err)
{
    if (!p->topology)
        return fl_error_set(err, FL_EINVAL, "point %d: no topology", i);
    if (p->config.routing && p->routing_name)
        return fl_error_set(err, FL_EINVAL, "point %d: both a routing (config.routing) and a "
                            "routing name ('%s'); give one", i, p->routing_name);
    if (!p->config.routing && !p->routing_name)
        return fl_error_set(err, FL_EINVAL, "point %d: no routing (set config.routing or "
                            "routing_name)", i);
    if (p->config.routing && fl_routing_topology(p->config.routing) != p->topology)
        return fl_error_set(err, FL_EINVAL, "point %d: its routing was built on another "
                            "topology", i);
    if (p->latency_limit < 0 || isinf(p->latency_limit))
        return fl_error_set(err, FL_ERANGE, "point %d: latency_limit must be 0, NaN or a "
                            "positive number of cycles, not %g", i, p->latency_limit);
    if (p->routing_name && !fl_routing_lookup(p->routing_name))
        return fl_error_set(err, FL_ENOTFOUND, "point %d: unknown routing '%s'", i,
                            p->routing_name);
    return FL_OK;
}

typedef struct SeriesKey {
    int value, index;
} SeriesKey;

static int by_value_then_index(const void *a, const void *b)
{
    const SeriesKey *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int by_first_point(const void *a, const void *b)
{
    const ExpSeries *x = a, *y = b;
    return (x->points[0] > y->points[0]) - (x->points[0] < y->points[0]);
}

/* Groups the points by series value, each series in list order, the series
 * by first appearance. */
static int build_series(FlExp *e)
{
    SeriesKey *keys = malloc(sizeof *keys * (size_t)e->n);
    int *members = e->members = malloc(sizeof *members * (size_t)e->n);
    e->series_of = malloc(sizeof *e->series_of * (size_t)e->n);
    e->series = calloc((size_t)e->n, sizeof *e->series);
    if (!keys || !members || !e->series_of || !e->series) {
        free(keys);
        return FL_ENOMEM;
    }
    for (int i = 0; i < e->n; i++)
        keys[i] = (SeriesKey){ e->points[i].series, i };
    qsort(keys, (size_t)e->n, sizeof *keys, by_value_then_index);
    for (int i = 0; i < e->n; i++) {
        members[i] = keys[i].index;
        if (i == 0 || keys[i].value != keys[i - 1].value) {
            ExpSeries *s = &e->series[e->n_series++];
            s->value = keys[i].value;
            s->points = &members[i];
        }
        e->series[e->n_series - 1].n++;
    }
    free(keys);
    qsort(e->series, (size_t)e->n_series, sizeof *e->series, by_first_point);
    for (int k = 0; k < e->n_series; k++) {
        ExpSeries *s = &e->series[k];
        s->stop = s->n;
        s->mine = k % e->opt.shares == e->opt.share;
        for (int pos = 0; pos < s->n; pos++) {
            FlExpResult *r = &e->results[s->points[pos]];
            r->series = s->value;
            r->position = pos;
            e->series_of[s->points[pos]] = k;
        }
    }
    return FL_OK;
}

int fl_exp_new(const FlExpPoint *points, int n, const FlExpOptions *opt, FlExp **out,
               FlError *err)
{
    if (!out)
        return fl_error_set(err, FL_EINVAL, "fl_exp_new: nowhere to put the experiment "
                            "(out is NULL)");
    *out = NULL;
    if (!points)
        return fl_error_set(err, FL_EINVAL, "fl_exp_new: no list of points (NULL)");
    if (n <= 0)
        return fl_error_set(err, FL_EINVAL, "fl_exp_new: the list of points is empty (%d "
                            "points)", n);
    FlExpOptions o;
    if (opt)
        o = *opt;
    else
        fl_exp_options_init(&o);
    int rc = check_options(&o, err);
    for (int i = 0; !rc && i < n; i++)
        rc = check_point(&points[i], i, err);
    if (rc)
        return rc;

    FlExp *e = calloc(1, sizeof *e);
    if (!e)
        return fl_error_set(err, FL_ENOMEM, "out of memory for an experiment of %d points", n);
    e->n = n;
    e->opt = o;
    e->points = malloc(sizeof *e->points * (size_t)n);
    e->results = calloc((size_t)n, sizeof *e->results);
    e->route_of = malloc(sizeof *e->route_of * (size_t)n);
    rc = e->points && e->results && e->route_of ? FL_OK : FL_ENOMEM;
    if (!rc) {
        memcpy(e->points, points, sizeof *points * (size_t)n);
        for (int i = 0; i < n && !rc; i++) {
            e->results[i].index = i;
            e->results[i].user_data = points[i].user_data;
            e->results[i].model = points[i].model;
            e->route_of[i] = points[i].routing_name ? fl__exp_route_index(e, &points[i]) : -1;
            if (points[i].routing_name && e->route_of[i] < 0)
                rc = FL_ENOMEM;
        }
    }
    if (!rc)
        rc = build_series(e);
    if (rc) {
        fl_exp_free(e);
        return fl_error_set(err, rc, "out of memory for an experiment of %d points", n);
    }
    pthread_mutex_init(&e->lock, NULL);
    pthread_mutex_init(&e->stop_lock, NULL);
    pthread_cond_init(&e->route_built, NULL);
    atomic_init(&e->cancelled, 0);
    e->ready = 1;
    e->counts.total = 0;
    for (int k = 0; k < e->n_series; k++)
        if (e->series[k].mine)
            e->counts.total += e->series[k].n;
    *out = e;
    return FL_OK;
}

void fl_exp_free(FlExp *e)
{
    if (!e)
        return;
    if (e->ready) {
        pthread_mutex_destroy(&e->lock);
        pthread_mutex_destroy(&e->stop_lock);
        pthread_cond_destroy(&e->route_built);
    }
    fl__exp_routes_clear(e);
    for (int i = 0; e->results && i < e->n; i++) {
        fl_sim_result_clear(&e->results[i].sim);
        fl_deflect_result_clear(&e->results[i].deflect);
        fl_multicast_result_clear(&e->results[i].multicast);
        free(e->results[i].samples);
    }
    free(e->series);
    free(e->series_of);
    free(e->members);
    free(e->routes);
    free(e->route_of);
    free(e->results);
    free(e->points);
    free(e);
}

void fl_exp_cancel(FlExp *e)
{
    if (e)
        atomic_store(&e->cancelled, 1);
}

int fl_exp_count(const FlExp *e)
{
    return e ? e->n : 0;
}

int fl_exp_series_count(const FlExp *e)
{
    return e ? e->n_series : 0;
}

const FlExpResult *fl_exp_result(const FlExp *e, int index)
{
    return e && index >= 0 && index < e->n ? &e->results[index] : NULL;
}

/* ---- the stop rule and delivery (under lock) -------------------------------- */

/* The series' latency limit: NaN while its first point has no latency. */
static double series_limit(const FlExp *e, const ExpSeries *s)
{
    if (e->opt.max_latency > 0)
        return e->opt.max_latency;
    double given = e->points[s->points[0]].latency_limit;
    if (given != 0)
        return given;   /* NaN too */
    const FlExpResult *first = &e->results[s->points[0]];
    if (first->state != FL_EXP_DONE || !isfinite(first->sim.latency_avg))
        return NAN;
    return e->opt.latency_factor * first->sim.latency_avg;
}

static int judged_past(const FlExp *e, const ExpSeries *s, int pos, double limit)
{
    int i = s->points[pos];
    const FlExpResult *r = &e->results[i];
    return r->state == FL_EXP_DONE && e->points[i].model == FL_SIM_MODEL_FLIT
           && fl_exp_past_saturation(&r->sim, limit);
}

/* Drops the arrays of a result that will not be delivered. */
static void drop_arrays(FlExpResult *r)
{
    FlSimResult scalars = r->sim;
    fl_sim_result_clear(&r->sim);
    r->sim = scalars;
    r->sim.channel_utilization = r->sim.vc_occupancy = NULL;
    r->sim.deadlock_channels = NULL;
    r->sim.deadlock_len = 0;
    FlDeflectResult totals = r->deflect;
    fl_deflect_result_clear(&r->deflect);
    r->deflect = totals;
    r->deflect.max_delay = r->deflect.avg_delay = r->deflect.throughput = NULL;
    FlMulticastResult figures = r->multicast;
    fl_multicast_result_clear(&r->multicast);
    r->multicast = figures;
    r->multicast.dests = NULL;
    r->multicast.tree = NULL;
    r->multicast.conflicts = NULL;
    r->multicast.times = NULL;
    free(r->samples);
    r->samples = NULL;
    r->n_samples = 0;
}

/* Point pos of s has ended DONE: with what is known now, moves the series'
 * stop down to the first point past saturation. The limit can only go from
 * unknown to known (when the first point ends), so a point judged past
 * saturation early stays so: cancelling on early knowledge never drops a
 * point the final judgement keeps. */
static void update_stop(FlExp *e, ExpSeries *s, int pos)
{
    double limit = series_limit(e, s);
    int stop = s->stop;
    if (pos == 0) {
        /* The limit may just have become known: look at every point. */
        for (int k = 0; k < stop; k++)
            if (judged_past(e, s, k, limit)) {
                stop = k;
                break;
            }
    } else if (pos < stop && judged_past(e, s, pos, limit)) {
        stop = pos;
    }
    if (stop == s->stop)
        return;
    int old = s->stop;
    pthread_mutex_lock(&e->stop_lock);
    s->stop = stop;
    pthread_mutex_unlock(&e->stop_lock);
    for (int k = stop + 1; k < old; k++) {
        int i = s->points[k];
        FlExpResult *r = &e->results[i];
        if (r->state == FL_EXP_PENDING) {
            r->state = FL_EXP_SKIPPED;
            e->counts.skipped++;
            if (e->route_of[i] >= 0)
                fl__exp_route_release(e, e->route_of[i]);
        } else {
            drop_arrays(r);
        }
    }
}

/* Hands the series' next results to the result callback while they are
 * ready, in order. */
static void deliver(FlExp *e, ExpSeries *s)
{
    int end = e->opt.stop_past_saturation && s->stop < s->n ? s->stop + 1 : s->n;
    while (s->delivered < end && !atomic_load(&e->cancelled)) {
        FlExpResult *r = &e->results[s->points[s->delivered]];
        if (r->state != FL_EXP_DONE && r->state != FL_EXP_FAILED)
            return;
        r->kept = 1;
        r->past_saturation = judged_past(e, s, s->delivered, series_limit(e, s));
        s->delivered++;
        if (e->opt.result)
            e->opt.result(e->opt.result_data, r);
        drop_arrays(r);
    }
}

static void report(FlExp *e, FlExpEvent event, const FlExpResult *r)
{
    if (!e->opt.progress)
        return;
    FlExpProgress p = e->counts;
    p.event = event;
    p.point = r;
    e->opt.progress(e->opt.progress_data, &p);
}

/* ---- the workers ------------------------------------------------------------ */

/* The next point to run, marked running, or -1 when there is none. */
static int start_next(FlExp *e)
{
    pthread_mutex_lock(&e->lock);
    int i = -1;
    while (!atomic_load(&e->cancelled) && e->next < e->n) {
        int k = e->next++;
        if (e->results[k].state == FL_EXP_PENDING) {
            i = k;
            break;
        }
    }
    if (i >= 0) {
        e->results[i].state = FL_EXP_RUNNING;
        e->counts.started++;
        e->counts.running++;
        report(e, FL_EXP_STARTED, &e->results[i]);
    }
    pthread_mutex_unlock(&e->lock);
    return i;
}

typedef struct PointRun {
    FlExp *e;
    const ExpSeries *s;
    int pos;
} PointRun;

/* Cancels a running simulation once the experiment is cancelled or a lower
 * point of its series is past saturation. */
static int point_progress(void *data, double fraction)
{
    (void)fraction;
    PointRun *pr = data;
    if (atomic_load(&pr->e->cancelled))
        return 1;
    pthread_mutex_lock(&pr->e->stop_lock);
    int cancel = pr->pos > pr->s->stop;
    pthread_mutex_unlock(&pr->e->stop_lock);
    return cancel;
}

/* What a point's run made, for finish_point(). */
typedef struct PointOutcome {
    FlSimResult sim;
    FlDeflectResult deflect;
    FlMulticastResult multicast;
    ExpSampler sampler;
} PointOutcome;

static void finish_point(FlExp *e, ExpSeries *s, int i, int rc, const PointOutcome *out,
                         const FlError *err)
{
    pthread_mutex_lock(&e->lock);
    FlExpResult *r = &e->results[i];
    r->sim = out->sim;
    r->deflect = out->deflect;
    r->multicast = out->multicast;
    r->samples = out->sampler.samples;
    r->n_samples = out->sampler.n;
    e->counts.running--;
    if (!rc) {
        r->state = FL_EXP_DONE;
        e->counts.done++;
    } else if (rc == FL_ECANCELLED) {
        r->state = FL_EXP_CANCELLED;
        e->counts.cancelled++;
    } else {
        r->state = FL_EXP_FAILED;
        r->error = *err;
        if (!r->error.code)
            r->error.code = rc;
        e->counts.failed++;
    }
    if (e->route_of[i] >= 0)
        fl__exp_route_release(e, e->route_of[i]);
    if (r->state == FL_EXP_DONE && e->opt.stop_past_saturation)
        update_stop(e, s, r->position);
    if (r->position > s->stop)
        drop_arrays(r);
    report(e, FL_EXP_FINISHED, r);
    deliver(e, s);
    pthread_mutex_unlock(&e->lock);
}

/* The settings fl_multicast_run() takes for point p, its routing in cfg. */
static void multicast_settings(const FlExpPoint *p, const FlSimConfig *cfg, FlSimSettings *s)
{
    fl_sim_settings_init(s);
    s->model = FL_SIM_MODEL_MULTICAST;
    s->config = *cfg;
    s->multicast = p->multicast;
}

/* What a point's run does before it simulates: its routing into
 * cfg->routing (built by name once for every point that names it) and, for
 * the flit-level model, the simulation into *sim. fl_exp_check() does this
 * alone, and checks the other models as far as they go without a
 * simulation: a deflection run's object made and freed (fl_deflect_run()
 * makes its own when running), a multicast's tree on the model only. */
static int setup_point(FlExp *e, int i, int check, FlSimConfig *cfg, FlSim **sim,
                       FlError *err)
{
    const FlExpPoint *p = &e->points[i];
    *cfg = p->config;
    *sim = NULL;
    int rc = FL_OK;
    if (e->route_of[i] >= 0)
        rc = fl__exp_route_acquire(e, e->route_of[i], &cfg->routing, err);
    if (!rc && p->model == FL_SIM_MODEL_DEFLECTION && check) {
        FlDeflectConfig dcfg = p->deflect;
        FlDeflect *d = NULL;
        dcfg.routing = cfg->routing;
        rc = fl_deflect_new(p->topology, &dcfg, &d, err);
        fl_deflect_free(d);
    } else if (!rc && p->model == FL_SIM_MODEL_MULTICAST && check) {
        FlSimSettings settings;
        FlMulticastResult res;
        multicast_settings(p, cfg, &settings);
        settings.multicast.model_only = 1;
        rc = fl_multicast_run(p->topology, cfg->routing, &settings, &res, NULL, NULL, err);
        fl_multicast_result_clear(&res);
    } else if (!rc && p->model != FL_SIM_MODEL_DEFLECTION
               && p->model != FL_SIM_MODEL_MULTICAST) {
        rc = fl_sim_new(p->topology, cfg, sim, err);
        /* A point's run shows no packet: it needs no routes. */
        if (!rc)
            rc = fl_sim_keep_routes(*sim, 0, err);
    }
    return rc;
}

int fl_exp_check(FlExp *e, int *point, FlError *err)
{
    *point = -1;
    if (!e)
        return fl_error_set(err, FL_EINVAL, "fl_exp_check: no experiment (NULL)");
    int rc = FL_OK;
    for (int i = 0; !rc && i < e->n; i++) {
        FlSimConfig cfg;
        FlSim *sim = NULL;
        if ((rc = setup_point(e, i, 1, &cfg, &sim, err))) {
            *point = i;
            if (err && !err->message[0]) {
                err->code = rc;
                snprintf(err->message, sizeof err->message, "%s", fl_strerror(rc));
            }
        }
        fl_sim_free(sim);
    }
    fl__exp_routes_clear(e);
    return rc;
}

static void run_point(FlExp *e, int i)
{
    const FlExpPoint *p = &e->points[i];
    ExpSeries *s = &e->series[e->series_of[i]];
    FlSimConfig cfg;
    FlSim *sim = NULL;
    FlError err = { 0 };
    PointOutcome out;
    memset(&out, 0, sizeof out);
    int rc = setup_point(e, i, 0, &cfg, &sim, &err);
    PointRun pr = { e, s, e->results[i].position };
    if (!rc && p->model == FL_SIM_MODEL_DEFLECTION) {
        FlDeflectConfig dcfg = p->deflect;
        dcfg.routing = cfg.routing;
        rc = fl_deflect_run(p->topology, &dcfg, &out.deflect, point_progress, &pr, &err);
    } else if (!rc && p->model == FL_SIM_MODEL_MULTICAST) {
        FlSimSettings settings;
        multicast_settings(p, &cfg, &settings);
        rc = fl_multicast_run(p->topology, cfg.routing, &settings, &out.multicast,
                              point_progress, &pr, &err);
    } else if (!rc) {
        if (e->opt.sample_interval > 0)
            rc = fl__exp_sampler_attach(&out.sampler, sim, e->opt.sample_interval, &err);
        if (!rc)
            rc = fl_sim_run(sim, &out.sim, point_progress, &pr, &err);
        if (out.sampler.out_of_memory)
            rc = fl_error_set(&err, FL_ENOMEM, "out of memory for the run's samples");
        fl_sim_free(sim);
    }
    if (rc) {
        fl_multicast_result_clear(&out.multicast);
        free(out.sampler.samples);
        memset(&out.sampler, 0, sizeof out.sampler);
    }
    finish_point(e, s, i, rc, &out, &err);
}

static void *worker(void *data)
{
    FlExp *e = data;
    for (int i; (i = start_next(e)) >= 0;)
        run_point(e, i);
    return NULL;
}

/* ---- running ------------------------------------------------------------------ */

/* Before the workers start: skips the points of other shares and counts the
 * users of each routing. Returns how many points this share runs. */
static int prepare(FlExp *e)
{
    int mine = 0;
    for (int k = 0; k < e->n_series; k++) {
        const ExpSeries *s = &e->series[k];
        for (int pos = 0; pos < s->n; pos++) {
            int i = s->points[pos];
            if (!s->mine) {
                e->results[i].state = FL_EXP_SKIPPED;
                continue;
            }
            mine++;
            if (e->route_of[i] >= 0)
                e->routes[e->route_of[i]].users++;
        }
    }
    return mine;
}

/* After the workers: the points never started (cancelled before their
 * turn) are skipped, every routing is freed. Returns whether every series of
 * this share delivered all its points. */
static int wind_up(FlExp *e)
{
    int complete = 1;
    for (int k = 0; k < e->n_series; k++) {
        ExpSeries *s = &e->series[k];
        if (!s->mine)
            continue;
        int end = e->opt.stop_past_saturation && s->stop < s->n ? s->stop + 1 : s->n;
        complete &= s->delivered == end;
        for (int pos = 0; pos < s->n; pos++) {
            FlExpResult *r = &e->results[s->points[pos]];
            if (r->state == FL_EXP_PENDING) {
                r->state = FL_EXP_SKIPPED;
                e->counts.skipped++;
            }
            drop_arrays(r);
        }
    }
    fl__exp_routes_clear(e);
    return complete;
}

int fl_exp_jobs(const FlExp *e)
{
    /* The workers are CPUs, and a flit-level simulation takes its threads
     * of them: as many run at once as leave none waiting for a core (at
     * least one), since a simulation's threads spin at each cycle's end. */
    int per_point = 1;
    for (int i = 0; i < e->n; i++)
        if (e->points[i].model == FL_SIM_MODEL_FLIT && e->points[i].config.threads > per_point)
            per_point = e->points[i].config.threads;
    return e->opt.workers / per_point > 1 ? e->opt.workers / per_point : 1;
}

int fl_exp_run(FlExp *e, FlError *err)
{
    if (!e)
        return fl_error_set(err, FL_EINVAL, "fl_exp_run: no experiment (NULL)");
    pthread_mutex_lock(&e->lock);
    int ran = e->ran;
    e->ran = 1;
    pthread_mutex_unlock(&e->lock);
    if (ran)
        return fl_error_set(err, FL_EINVAL, "fl_exp_run: the experiment has run already");

    /* No more threads than this share has points. */
    int share = prepare(e), jobs = fl_exp_jobs(e);
    if (jobs > share)
        jobs = share;
    pthread_t *threads = jobs ? calloc((size_t)jobs, sizeof *threads) : NULL;
    if (jobs && !threads)
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d worker threads", jobs);
    int started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&threads[started], NULL, worker, e) != 0)
            break;
    /* With no thread at all, this thread does the work. */
    if (started == 0)
        worker(e);
    for (int k = 0; k < started; k++)
        pthread_join(threads[k], NULL);
    free(threads);

    int complete = wind_up(e);
    if (!complete) {
        if (atomic_load(&e->cancelled))
            return fl_error_set(err, FL_ECANCELLED, "cancelled after %d of %d points",
                                e->counts.done + e->counts.failed, e->counts.total);
        return fl_error_set(err, FL_EINVAL, "the experiment ended with points left");
    }
    for (int i = 0; i < e->n; i++) {
        const FlExpResult *r = &e->results[i];
        if (r->kept && r->state == FL_EXP_FAILED)
            return fl_error_set(err, r->error.code, "point %d: %s", i,
                                r->error.message[0] ? r->error.message
                                                    : fl_strerror(r->error.code));
    }
    return FL_OK;
}
