/* test-exp.c — the experiment library: the same results for 1, 2 and 4
 * workers, the stop-past-saturation rule (a deadlocking ring, a saturating
 * mesh whose later points never start), cancel from a progress callback and
 * from another thread, one result call per kept point, routings built by
 * name and shared, shares, and refused input. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exp-internal.h"
#include "flitlab-exp.h"
#include "sim-net.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A short run, as the CLI tests use. */
static FlSimConfig short_config(const FlRouting *r)
{
    FlSimConfig cfg;
    fl_sim_config_init(&cfg);
    cfg.routing = r;
    cfg.warmup_cycles = 200;
    cfg.measure_cycles = 1000;
    cfg.drain_cycles = 3000;
    return cfg;
}

/* n points of one series with rates from `from` by `step`. */
static void rate_points(FlExpPoint *p, int n, const FlTopology *t, const FlSimConfig *cfg,
                        double from, double step, int series)
{
    for (int i = 0; i < n; i++) {
        fl_exp_point_init(&p[i]);
        p[i].topology = t;
        p[i].config = *cfg;
        p[i].config.traffic.rate = from + i * step;
        p[i].series = series;
    }
}

/* What the callbacks saw. */
typedef struct Seen {
    int started, finished, results;
    int calls[64];              /* result calls per point */
    int order[64];              /* points in the order delivered */
    int positions_in_order;     /* every delivery was its series' next position */
    int next_position[8];       /* per series value */
    int max_running;
    int counts_consistent;
    int had_arrays;             /* a DONE result came with its arrays */
    FlExp *cancel_on_finish;    /* cancels at the first FINISHED event */
    int results_after_cancel;
    atomic_int cancelled;
} Seen;

static void seen_init(Seen *s)
{
    memset(s, 0, sizeof *s);
    s->positions_in_order = 1;
    s->counts_consistent = 1;
    atomic_init(&s->cancelled, 0);
}

static void on_progress(void *data, const FlExpProgress *p)
{
    Seen *s = data;
    if (p->event == FL_EXP_STARTED) {
        s->started++;
        if (p->point->state != FL_EXP_RUNNING)
            s->counts_consistent = 0;
    } else {
        s->finished++;
    }
    if (p->started != s->started || p->running > p->started || p->total < p->started
        || p->done + p->failed + p->cancelled != s->finished
        || p->running != p->started - s->finished)
        s->counts_consistent = 0;
    if (p->running > s->max_running)
        s->max_running = p->running;
    if (p->event == FL_EXP_FINISHED && s->cancel_on_finish) {
        fl_exp_cancel(s->cancel_on_finish);
        atomic_store(&s->cancelled, 1);
    }
}

static void on_result(void *data, FlExpResult *r)
{
    Seen *s = data;
    if (atomic_load(&s->cancelled))
        s->results_after_cancel++;
    if (r->index < 64)
        s->calls[r->index]++;
    if (s->results < 64)
        s->order[s->results] = r->index;
    s->results++;
    if (r->series >= 0 && r->series < 8) {
        if (r->position != s->next_position[r->series])
            s->positions_in_order = 0;
        s->next_position[r->series]++;
    }
    if (r->state == FL_EXP_DONE && r->sim.channel_utilization)
        s->had_arrays = 1;
}

/* Options for workers whose callbacks fill s, emptied first. */
static void options(FlExpOptions *o, int workers, Seen *s)
{
    seen_init(s);
    fl_exp_options_init(o);
    o->workers = workers;
    o->progress = on_progress;
    o->progress_data = s;
    o->result = on_result;
    o->result_data = s;
}

/* Runs points; returns the experiment (to free) or NULL; *rc the run's. */
static FlExp *run(const FlExpPoint *p, int n, const FlExpOptions *o, int *rc, FlError *err)
{
    FlExp *e = NULL;
    *rc = fl_exp_new(p, n, o, &e, err);
    if (*rc) {
        CHECK(0, "fl_exp_new: %s", err->message);
        return NULL;
    }
    *rc = fl_exp_run(e, err);
    return e;
}

/* ---- the same results for any number of workers -------------------------- */

typedef struct Summary {
    int kept, state, past;
    FlSimStatus status;
    double latency;
    int64_t flit_hops, packets;
} Summary;

static void summarize(const FlExp *e, Summary *out)
{
    for (int i = 0; i < fl_exp_count(e); i++) {
        const FlExpResult *r = fl_exp_result(e, i);
        out[i] = (Summary){ r->kept, r->kept ? (int)r->state : -1, r->past_saturation,
                            r->kept ? r->sim.status : FL_SIM_OK,
                            r->kept ? r->sim.latency_avg : 0, r->kept ? r->sim.flit_hops : 0,
                            r->kept ? r->sim.packets : 0 };
    }
}

static void test_workers(const Net *mesh)
{
    Net ring;
    if (!net_open(&ring, "ring:8", NULL))
        return;
    /* Three series: a routing passed in; a routing by name (built once,
     * shared by two series with different seeds); a deadlocking ring. */
    enum { N1 = 10, N2 = 10, N3 = 10, N = N1 + N2 + N3 + N2 };
    FlExpPoint p[N];
    FlSimConfig cfg = short_config(mesh->r);
    rate_points(p, N1, mesh->t, &cfg, 0.1, 0.1, 0);
    cfg.routing = NULL;
    rate_points(p + N1, N2, mesh->t, &cfg, 0.1, 0.1, 1);
    cfg.seed = 7;
    rate_points(p + N1 + N2, N2, mesh->t, &cfg, 0.1, 0.1, 2);
    for (int i = N1; i < N1 + 2 * N2; i++)
        p[i].routing_name = "west-first";
    /* The default run: the ring deadlocks at rate 0.7 (as `flitlab sweep`
     * shows with --vcs 1). */
    FlSimConfig rcfg;
    fl_sim_config_init(&rcfg);
    rcfg.vcs = 1;
    rcfg.selection = FL_SELECT_CREDITS;
    rate_points(p + N1 + 2 * N2, N3, ring.t, &rcfg, 0.1, 0.1, 3);
    for (int i = N1 + 2 * N2; i < N; i++)
        p[i].routing_name = "shortest";

    Summary base[N], other[N];
    int workers[] = { 1, 2, 4 };
    for (int w = 0; w < 3; w++) {
        Seen s;
        FlExpOptions o;
        options(&o, workers[w], &s);
        int rc;
        FlError err = { 0 };
        FlExp *e = run(p, N, &o, &rc, &err);
        if (!e)
            continue;
        CHECK(rc == FL_OK, "%d workers: the run succeeds (%s)", workers[w], err.message);
        CHECK_INT(fl_exp_series_count(e), 4);
        /* west-first on the mesh and shortest on the ring, each built once. */
        CHECK_INT(e->n_routes, 2);
        summarize(e, w == 0 ? base : other);
        int kept = 0, once = 1;
        for (int i = 0; i < N; i++) {
            kept += base[i].kept;
            once &= s.calls[i] == fl_exp_result(e, i)->kept;
        }
        CHECK(once, "%d workers: one result call per kept point, none for the others",
              workers[w]);
        CHECK(s.positions_in_order, "%d workers: each series delivered in order", workers[w]);
        CHECK(s.counts_consistent, "%d workers: progress counts add up", workers[w]);
        CHECK(s.max_running <= workers[w], "%d workers: at most that many run at once (%d)",
              workers[w], s.max_running);
        CHECK(s.had_arrays, "%d workers: results come with their arrays", workers[w]);
        CHECK(s.finished == s.started, "%d workers: every start has its end", workers[w]);
        if (w == 0) {
            /* Each series stops at its first point past saturation. */
            const FlExpResult *last = fl_exp_result(e, N1 + 2 * N2 + 6);
            CHECK(last->kept && last->sim.status == FL_SIM_DEADLOCK && last->past_saturation,
                  "ring: rate 0.7 deadlocks and ends the series (kept %d, status %s)",
                  last->kept, fl_sim_status_name(last->sim.status));
            CHECK(!fl_exp_result(e, N1 + 2 * N2 + 7)->kept, "ring: rate 0.8 is not kept");
            int stops = 1;
            for (int k = 0; k < 4; k++) {
                int ends = 0, past = 0;
                for (int i = 0; i < N; i++) {
                    const FlExpResult *r = fl_exp_result(e, i);
                    if (r->series != k || !r->kept)
                        continue;
                    past += r->past_saturation;
                    ends = r->past_saturation;
                }
                stops &= past == 1 && ends;
            }
            CHECK(stops, "every series ends with its one point past saturation");
            CHECK(kept < N, "points past saturation are not kept (%d of %d)", kept, N);
        } else {
            int same = 1;
            for (int i = 0; i < N; i++)
                same &= memcmp(&base[i], &other[i], sizeof base[i]) == 0;
            CHECK(same, "%d workers give the results of 1", workers[w]);
        }
        fl_exp_free(e);
    }
    net_close(&ring);
}

/* ---- the stop rule: later points never start -------------------------- */

static void test_stop_starts(const Net *mesh)
{
    enum { N = 20 };
    FlExpPoint p[N];
    FlSimConfig cfg = short_config(mesh->r);
    rate_points(p, N, mesh->t, &cfg, 0.05, 0.05, 0);
    for (int workers = 1; workers <= 2; workers++) {
        Seen s;
        FlExpOptions o;
        options(&o, workers, &s);
        int rc;
        FlError err = { 0 };
        FlExp *e = run(p, N, &o, &rc, &err);
        if (!e)
            continue;
        int kept = 0, skipped = 0;
        for (int i = 0; i < N; i++) {
            kept += fl_exp_result(e, i)->kept;
            skipped += fl_exp_result(e, i)->state == FL_EXP_SKIPPED;
        }
        const FlExpResult *last = fl_exp_result(e, kept - 1);
        CHECK(rc == FL_OK && kept >= 2 && kept < N && last->past_saturation,
              "%d workers: the sweep stops past saturation at rate %.2f (%d of %d kept)",
              workers, p[kept - 1].config.traffic.rate, kept, N);
        CHECK(s.results == kept, "%d workers: %d results for %d kept", workers, s.results,
              kept);
        if (workers == 1)
            CHECK(s.started == kept && skipped == N - kept,
                  "1 worker: no point after the stop starts (%d started, %d kept, %d "
                  "skipped)", s.started, kept, skipped);
        else
            CHECK(s.started <= kept + workers - 1 && skipped >= N - kept - (workers - 1),
                  "%d workers: at most %d points after the stop start (%d started, %d "
                  "kept)", workers, workers - 1, s.started, kept);
        fl_exp_free(e);
    }

    /* Without the stop rule every point runs and each is handed over once. */
    Seen s;
    FlExpOptions o;
    options(&o, 2, &s);
    o.stop_past_saturation = 0;
    int rc;
    FlError err = { 0 };
    FlExp *e = run(p, 8, &o, &rc, &err);
    if (e) {
        int once = 1;
        for (int i = 0; i < 8; i++)
            once &= s.calls[i] == 1 && fl_exp_result(e, i)->kept
                    && fl_exp_result(e, i)->state == FL_EXP_DONE;
        CHECK(rc == FL_OK && once && s.started == 8 && s.results == 8,
              "without the stop rule: 8 points started, 8 results, each once");
        fl_exp_free(e);
    }

    /* A latency limit: max_latency below the zero-load latency stops the
     * series at its first point. */
    options(&o, 2, &s);
    o.max_latency = 1;
    e = run(p, N, &o, &rc, &err);
    if (e) {
        CHECK(rc == FL_OK && s.results == 1 && fl_exp_result(e, 0)->past_saturation,
              "max_latency 1: the first point is past it and ends the sweep");
        fl_exp_free(e);
    }

    /* A series' own limit, given on its first point (a resumed curve), is
     * the limit: 1 cycle stops it at once, NaN judges no latency. */
    options(&o, 2, &s);
    p[0].latency_limit = 1;
    e = run(p, N, &o, &rc, &err);
    if (e) {
        CHECK(rc == FL_OK && s.results == 1 && fl_exp_result(e, 0)->past_saturation,
              "latency_limit 1 on the first point: it is past it and ends the sweep");
        fl_exp_free(e);
    }
    options(&o, 2, &s);
    o.latency_factor = 1e-9;
    p[0].latency_limit = NAN;
    e = run(p, 2, &o, &rc, &err);
    if (e) {
        CHECK(rc == FL_OK && s.results == 2 && !fl_exp_result(e, 0)->past_saturation,
              "latency_limit NaN: no latency limit, whatever the factor");
        fl_exp_free(e);
    }
    p[0].latency_limit = 0;
}

/* ---- cancel ------------------------------------------------------------------ */

/* Point 0 is short, the others would each run for minutes. */
static void long_points(FlExpPoint *p, int n, const Net *net)
{
    FlSimConfig cfg = short_config(net->r);
    rate_points(p, n, net->t, &cfg, 0.05, 0.0, 0);
    for (int i = 1; i < n; i++) {
        p[i].config.measure_cycles = 100000000;
        p[i].series = i;
    }
}

static void test_cancel_from_callback(const Net *mesh)
{
    enum { N = 6 };
    FlExpPoint p[N];
    long_points(p, N, mesh);
    Seen s;
    FlExpOptions o;
    options(&o, 2, &s);
    FlExp *e = NULL;
    FlError err = { 0 };
    if (fl_exp_new(p, N, &o, &e, &err) == FL_OK) {
        s.cancel_on_finish = e;
        double t0 = now();
        int rc = fl_exp_run(e, &err);
        double dt = now() - t0;
        CHECK(rc == FL_ECANCELLED && strstr(err.message, "cancel"),
              "cancelled from a progress callback: FL_ECANCELLED (%d, %s)", rc, err.message);
        CHECK(dt < 20, "it ends promptly (%.2f s)", dt);
        CHECK(s.results_after_cancel == 0, "no result is delivered after the cancel");
        int ended = 1;
        for (int i = 0; i < N; i++) {
            FlExpState st = fl_exp_result(e, i)->state;
            ended &= st != FL_EXP_PENDING && st != FL_EXP_RUNNING;
        }
        CHECK(ended && s.started == s.finished, "every point ended or skipped");
        fl_exp_free(e);
    }
}

typedef struct Canceller {
    FlExp *e;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int first_result;
    int quit;
} Canceller;

static void signal_result(void *data, FlExpResult *r)
{
    (void)r;
    Canceller *c = data;
    pthread_mutex_lock(&c->lock);
    c->first_result = 1;
    pthread_cond_signal(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

static void *cancel_thread(void *data)
{
    Canceller *c = data;
    pthread_mutex_lock(&c->lock);
    while (!c->first_result && !c->quit)
        pthread_cond_wait(&c->cond, &c->lock);
    pthread_mutex_unlock(&c->lock);
    fl_exp_cancel(c->e);
    return NULL;
}

static void test_cancel_from_thread(const Net *mesh)
{
    enum { N = 6 };
    FlExpPoint p[N];
    long_points(p, N, mesh);
    Canceller c = { 0 };
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.cond, NULL);
    FlExpOptions o;
    fl_exp_options_init(&o);
    o.workers = 4;
    o.result = signal_result;
    o.result_data = &c;
    FlError err = { 0 };
    if (fl_exp_new(p, N, &o, &c.e, &err) == FL_OK) {
        pthread_t th;
        pthread_create(&th, NULL, cancel_thread, &c);
        double t0 = now();
        int rc = fl_exp_run(c.e, &err);
        double dt = now() - t0;
        pthread_mutex_lock(&c.lock);
        c.quit = 1;
        pthread_cond_signal(&c.cond);
        pthread_mutex_unlock(&c.lock);
        pthread_join(th, NULL);
        CHECK(rc == FL_ECANCELLED, "cancelled by another thread after the first result: "
              "FL_ECANCELLED (%d, %s)", rc, err.message);
        CHECK(dt < 20, "it ends promptly (%.2f s)", dt);
        const FlExpResult *r0 = fl_exp_result(c.e, 0);
        CHECK(r0->state == FL_EXP_DONE && r0->kept && !r0->sim.channel_utilization,
              "the finished point keeps its result, without arrays");
        /* Points that had started end cancelled; the others never start. */
        int stopped = 0;
        for (int i = 1; i < N; i++)
            stopped += fl_exp_result(c.e, i)->state == FL_EXP_CANCELLED
                       || fl_exp_result(c.e, i)->state == FL_EXP_SKIPPED;
        CHECK(stopped == N - 1, "the long points end cancelled or skipped (%d of %d)", stopped,
              N - 1);
        fl_exp_free(c.e);
    }
    pthread_mutex_destroy(&c.lock);
    pthread_cond_destroy(&c.cond);

    /* Cancelled before it runs: nothing starts. */
    Seen s;
    options(&o, 2, &s);
    FlExp *e = NULL;
    if (fl_exp_new(p, N, &o, &e, &err) == FL_OK) {
        fl_exp_cancel(e);
        int rc = fl_exp_run(e, &err);
        CHECK(rc == FL_ECANCELLED && s.started == 0 && s.results == 0,
              "cancelled before the run: nothing starts (%d started)", s.started);
        CHECK(fl_exp_result(e, 3)->state == FL_EXP_SKIPPED, "its points are skipped");
        fl_exp_free(e);
    }
}

/* ---- failures, shares, refused input ------------------------------------------ */

static void test_failures(const Net *mesh)
{
    FlExpPoint p[4];
    FlSimConfig cfg = short_config(NULL);
    rate_points(p, 4, mesh->t, &cfg, 0.1, 0.1, 0);
    for (int i = 0; i < 4; i++)
        p[i].routing_name = i == 2 ? "xmesh" : "dor";
    Seen s;
    FlExpOptions o;
    options(&o, 2, &s);
    int rc;
    FlError err = { 0 };
    FlExp *e = run(p, 4, &o, &rc, &err);
    if (e) {
        const FlExpResult *r = fl_exp_result(e, 2);
        CHECK(rc == FL_EUNSUPPORTED && strstr(err.message, "point 2: ")
                  && strstr(err.message, "xmesh"),
              "a routing that does not fit fails the run, naming the point: %s", err.message);
        CHECK(r->state == FL_EXP_FAILED && r->kept && strstr(r->error.message, "xmesh")
                  && s.calls[2] == 1,
              "the failed point is handed over with its error: %s", r->error.message);
        CHECK(s.results == 4 && fl_exp_result(e, 3)->state == FL_EXP_DONE,
              "the points after it still run");
        fl_exp_free(e);
    }

    /* The simulator refuses a configuration: the point fails with its message. */
    rate_points(p, 2, mesh->t, &cfg, 0.1, 0.1, 0);
    p[0].routing_name = p[1].routing_name = "dor";
    p[1].config.vcs = 0;
    e = run(p, 2, &o, &rc, &err);
    if (e) {
        CHECK(rc == FL_ERANGE || rc == FL_EINVAL, "zero VCs fail the run (%d: %s)", rc,
              err.message);
        CHECK(strstr(fl_exp_result(e, 1)->error.message, "vcs") != NULL,
              "the point's error names vcs: %s", fl_exp_result(e, 1)->error.message);
        fl_exp_free(e);
    }
}

/* fl_exp_check() meets the errors the runs of test_failures() meet, without
 * running: the point that fails and its message as its run gives it; the
 * experiment runs after a check. */
static void test_check(const Net *mesh)
{
    FlExpPoint p[4];
    FlSimConfig cfg = short_config(NULL);
    rate_points(p, 4, mesh->t, &cfg, 0.1, 0.1, 0);
    for (int i = 0; i < 4; i++)
        p[i].routing_name = i == 2 ? "xmesh" : "dor";
    FlExp *e = NULL;
    FlError err = { 0 };
    int point = -2;
    CHECK_INT(fl_exp_new(p, 4, NULL, &e, &err), FL_OK);
    int rc = fl_exp_check(e, &point, &err);
    CHECK(rc == FL_EUNSUPPORTED && point == 2 && strstr(err.message, "xmesh")
              && !strstr(err.message, "point"),
          "a routing that does not fit is found at its point (%d): %s", point, err.message);
    CHECK_INT(fl_exp_count(e) > 0 && fl_exp_result(e, 0)->state == FL_EXP_PENDING, 1);
    fl_exp_free(e);

    rate_points(p, 3, mesh->t, &cfg, 0.1, 0.1, 0);
    for (int i = 0; i < 3; i++)
        p[i].routing_name = "dor";
    p[1].config.traffic.rate = 1.5;
    CHECK_INT(fl_exp_new(p, 3, NULL, &e, &err), FL_OK);
    rc = fl_exp_check(e, &point, &err);
    CHECK(rc != FL_OK && point == 1 && strstr(err.message, "rate"),
          "the simulation's refusal of a rate above 1 is found at point 1 (%d): %s", point,
          err.message);
    fl_exp_free(e);

    p[1].config.traffic.rate = 0.2;
    CHECK_INT(fl_exp_new(p, 3, NULL, &e, &err), FL_OK);
    rc = fl_exp_check(e, &point, &err);
    CHECK(rc == FL_OK && point == -1, "a list that can run passes: %s", rc ? err.message : "ok");
    CHECK(fl_exp_run(e, &err) == FL_OK && fl_exp_result(e, 2)->state == FL_EXP_DONE,
          "and runs after its check (its routings built again): %s", err.message);
    fl_exp_free(e);
}

/* A routing named with fl_exp_point_init()'s options is the one
 * fl_routing_new() builds with none: updown from the paper's root. */
static void test_named_routing(void)
{
    Net torus;
    if (!net_open(&torus, "torus:4x4", "updown"))
        return;
    enum { PER = 6 };
    FlExpPoint p[2 * PER];
    FlSimConfig cfg = short_config(torus.r);
    rate_points(p, PER, torus.t, &cfg, 0.1, 0.1, 0);
    cfg.routing = NULL;
    rate_points(p + PER, PER, torus.t, &cfg, 0.1, 0.1, 1);
    for (int i = PER; i < 2 * PER; i++)
        p[i].routing_name = "updown";
    CHECK(p[PER].routing_options.root == -1 && p[PER].config.vcs == 2,
          "fl_exp_point_init: no root, the simulator's defaults");
    FlExpOptions o;
    fl_exp_options_init(&o);
    o.workers = 2;
    int rc;
    FlError err = { 0 };
    FlExp *e = run(p, 2 * PER, &o, &rc, &err);
    if (e) {
        int same = rc == FL_OK;
        for (int i = 0; i < PER; i++) {
            const FlExpResult *a = fl_exp_result(e, i), *b = fl_exp_result(e, PER + i);
            /* Points past the stop are skipped or cancelled as timing has
             * it; the kept ones are the results. */
            same &= a->kept == b->kept
                    && (!a->kept
                        || (a->state == b->state && a->sim.flit_hops == b->sim.flit_hops
                            && a->sim.packets == b->sim.packets));
        }
        CHECK(same, "updown by name gives the results of updown passed in");
        fl_exp_free(e);
    }
    net_close(&torus);
}

static void test_shares(const Net *mesh)
{
    enum { PER = 8, SERIES = 3, N = PER * SERIES };
    FlExpPoint p[N];
    FlSimConfig cfg = short_config(mesh->r);
    for (int k = 0; k < SERIES; k++) {
        cfg.seed = (uint64_t)k + 1;
        rate_points(p + k * PER, PER, mesh->t, &cfg, 0.1, 0.1, 10 * (SERIES - k));
    }
    FlExpOptions o;
    fl_exp_options_init(&o);
    o.workers = 2;
    int rc;
    FlError err = { 0 };
    FlExp *whole = run(p, N, &o, &rc, &err);
    Summary all[N], part[N];
    if (!whole)
        return;
    summarize(whole, all);
    int same = 1, covered[N] = { 0 };
    for (int share = 0; share < 2; share++) {
        o.share = share;
        o.shares = 2;
        FlExp *e = run(p, N, &o, &rc, &err);
        if (!e)
            continue;
        summarize(e, part);
        for (int i = 0; i < N; i++) {
            const FlExpResult *r = fl_exp_result(e, i);
            /* Series by first appearance: 0 and 2 in share 0, 1 in share 1. */
            int mine = (i / PER) % 2 == share;
            if (mine) {
                covered[i]++;
                same &= memcmp(&part[i], &all[i], sizeof part[i]) == 0;
            } else {
                same &= r->state == FL_EXP_SKIPPED && !r->kept;
            }
        }
        fl_exp_free(e);
    }
    int once = 1;
    for (int i = 0; i < N; i++)
        once &= covered[i] == 1;
    CHECK(same && once, "two shares run the series in turn and give the whole run's results");
    fl_exp_free(whole);
}

static void test_refused(const Net *mesh)
{
    Net ring;
    if (!net_open(&ring, "ring:8", "shortest"))
        return;
    FlExpPoint p[2];
    FlSimConfig cfg = short_config(mesh->r);
    rate_points(p, 2, mesh->t, &cfg, 0.1, 0.1, 0);
    FlExpOptions o;
    fl_exp_options_init(&o);
    /* Not NULL, to see that a refusal resets it. */
    static char sentinel;
    FlExp *e = (FlExp *)(void *)&sentinel;
    FlError err = { 0 };

    int rc = fl_exp_new(NULL, 2, &o, &e, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "NULL") && e == NULL,
          "a NULL list is refused: %s", err.message);
    rc = fl_exp_new(p, 0, &o, &e, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "empty"), "an empty list is refused: %s",
          err.message);
    rc = fl_exp_new(p, 2, &o, NULL, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "out"), "no out pointer is refused: %s",
          err.message);
    o.workers = 0;
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "workers") && strstr(err.message, "not 0"),
          "0 workers are refused: %s", err.message);
    o.workers = FL_EXP_MAX_WORKERS + 1;
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "workers"), "too many workers: %s",
          err.message);
    fl_exp_options_init(&o);
    o.max_latency = -1;
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "max_latency"), "a negative max_latency: %s",
          err.message);
    fl_exp_options_init(&o);
    o.latency_factor = 0;
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "latency_factor"), "a zero factor: %s",
          err.message);
    fl_exp_options_init(&o);
    o.share = 2;
    o.shares = 2;
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "share"), "share 2 of 2: %s", err.message);
    fl_exp_options_init(&o);
    p[1].latency_limit = -1;
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "point 1: latency_limit"),
          "a negative latency_limit: %s", err.message);
    p[1].latency_limit = 0;

    p[1].topology = NULL;
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "point 1: no topology"),
          "a point without a topology: %s", err.message);
    p[1].topology = mesh->t;
    p[1].config.routing = NULL;
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "point 1: no routing"),
          "a point without a routing: %s", err.message);
    p[1].config.routing = mesh->r;
    p[1].routing_name = "dor";
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "both"),
          "a routing and a routing name: %s", err.message);
    p[1].config.routing = NULL;
    p[1].routing_name = "nope";
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_ENOTFOUND && strstr(err.message, "unknown routing 'nope'"),
          "an unknown routing name: %s", err.message);
    p[1].routing_name = NULL;
    p[1].config.routing = ring.r;
    rc = fl_exp_new(p, 2, &o, &e, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "another topology"),
          "a routing of another network: %s", err.message);
    p[1].config.routing = mesh->r;

    CHECK(fl_exp_run(NULL, &err) == FL_EINVAL && strstr(err.message, "NULL"),
          "running NULL: %s", err.message);
    if (fl_exp_new(p, 2, NULL, &e, &err) == FL_OK) {
        CHECK(fl_exp_run(e, &err) == FL_OK, "default options run: %s", err.message);
        CHECK(fl_exp_run(e, &err) == FL_EINVAL && strstr(err.message, "already"),
              "a second run is refused: %s", err.message);
        CHECK(fl_exp_result(e, 2) == NULL && fl_exp_result(e, -1) == NULL,
              "no result out of range");
        fl_exp_free(e);
    }
    fl_exp_free(NULL);
    fl_exp_cancel(NULL);
    net_close(&ring);
}

/* Two workers and a result callback. */
static void two_workers(FlExpOptions *o, FlExpResultFunc result, void *data)
{
    fl_exp_options_init(o);
    o->workers = 2;
    o->result = result;
    o->result_data = data;
}

/* The figures of r by fl_exp_result_scalars() are those of value(res). */
static int same_scalars(const FlExpResult *r, const FlTopology *t, unsigned mask,
                        double (*value)(const void *res, const FlTopology *t, int key),
                        const void *res)
{
    const char *names[64];
    double values[64];
    int n = fl_exp_result_scalars(r, t, names, values, 64), want = 0, same = 1;
    for (int i = 0; i < fl_sim_result_key_count(); i++) {
        const FlSimResultKey *k = fl_sim_result_key(i);
        if (!(k->models & mask))
            continue;
        double v = value(res, t, i);
        same &= want < n && names[want] == k->name
                && (strcmp(k->name, "wall_s") == 0 || v == values[want]
                    || (isnan(v) && isnan(values[want])));
        want++;
    }
    return same && n == want && fl_exp_result_scalars(r, t, NULL, NULL, 0) == n;
}

static double multicast_value(const void *res, const FlTopology *t, int key)
{
    (void)t;
    return fl_multicast_result_value(res, key);
}

static double flit_value(const void *res, const FlTopology *t, int key)
{
    return fl_sim_result_value(res, t, key);
}

static double deflect_value(const void *res, const FlTopology *t, int key)
{
    (void)t;
    return fl_deflect_result_value(res, key);
}

/* Deflection points: the same figures as fl_deflect_run alone, kept in
 * their series' order and never stopped as past saturation (a closed
 * system), beside flit-level points of the same list. */
static void deflect_kept(void *data, FlExpResult *r)
{
    int *kept_series = data;
    if (r->state == FL_EXP_DONE && r->deflect.throughput)
        (*kept_series)++;
}

static void test_deflection(const Net *mesh)
{
    Net xmesh;
    if (!net_open(&xmesh, "xmesh:6x12", "xmesh"))
        return;
    enum { N = 4 };
    FlExpPoint p[N + 1];
    for (int i = 0; i < N; i++) {
        fl_exp_point_init(&p[i]);
        p[i].topology = xmesh.t;
        p[i].routing_name = "xmesh";
        p[i].model = FL_SIM_MODEL_DEFLECTION;
        p[i].deflect.nmsg = i + 1;
        p[i].deflect.cycles = 200;
        p[i].deflect.seed = 7;
    }
    FlSimConfig cfg = short_config(mesh->r);
    rate_points(&p[N], 1, mesh->t, &cfg, 0.1, 0.1, 1);
    FlExpOptions o;
    int with_series = 0;
    two_workers(&o, deflect_kept, &with_series);
    int rc;
    FlError err = { 0 };
    FlExp *e = run(p, N + 1, &o, &rc, &err);
    if (!e) {
        net_close(&xmesh);
        return;
    }
    int same = rc == FL_OK;
    for (int i = 0; i < N; i++) {
        const FlExpResult *r = fl_exp_result(e, i);
        FlDeflectConfig alone = p[i].deflect;
        alone.routing = xmesh.r;
        FlDeflectResult want;
        memset(&want, 0, sizeof want);
        same &= fl_deflect_run(xmesh.t, &alone, &want, NULL, NULL, &err) == FL_OK;
        same &= r->kept && r->state == FL_EXP_DONE && !r->past_saturation
                && r->deflect.cycles == 200 && r->deflect.delivered == want.delivered
                && r->deflect.deflections == want.deflections && !r->deflect.throughput
                && r->sim.packets == 0;
        fl_deflect_result_clear(&want);
    }
    CHECK(same, "deflection points give fl_deflect_run's figures, every one kept");
    CHECK(with_series == N, "the result callback sees each one's series (%d)", with_series);
    CHECK(same_scalars(fl_exp_result(e, 0), xmesh.t, FL_OPTION_FOR_DEFLECTION, deflect_value,
                       &fl_exp_result(e, 0)->deflect)
              && fl_exp_result_scalars(fl_exp_result(e, 0), xmesh.t, NULL, NULL, 0) == 8,
          "a deflection point's scalars are the deflection model's 8 keys");
    const FlExpResult *flit = fl_exp_result(e, N);
    CHECK(flit->state == FL_EXP_DONE && flit->sim.packets > 0 && flit->deflect.cycles == 0,
          "a flit-level point of the same list runs the simulator");
    fl_exp_free(e);
    net_close(&xmesh);
}

/* Multicast points made from settings: the figures of fl_multicast_run()
 * alone, every one kept, their tree there in the result callback; and the
 * scalars of each model by the result-key table. */
static void multicast_kept(void *data, FlExpResult *r)
{
    int *with_tree = data;
    if (r->state == FL_EXP_DONE && r->multicast.tree && r->multicast.times
        && r->multicast.dests)
        (*with_tree)++;
}

static void test_multicast(const Net *mesh)
{
    static const char *const algorithms[] = { "opt-mesh", "opt-tree", "u-mesh" };
    static const char *const sizes[] = { "64", "256" };
    enum { N = 12 };
    FlExpPoint p[N + 1];
    FlSimSettings s[N];
    FlError err = { 0 };
    int made = 1;
    for (int i = 0; i < N; i++) {
        char seed[8];
        snprintf(seed, sizeof seed, "%d", i % 2 + 1);
        fl_sim_settings_init(&s[i]);
        made &= fl_sim_settings_set(&s[i], "mode", "multicast", &err) == FL_OK
                && fl_sim_settings_set(&s[i], "algorithm", algorithms[i / 4], &err) == FL_OK
                && fl_sim_settings_set(&s[i], "message-size", sizes[i / 2 % 2], &err) == FL_OK
                && fl_sim_settings_set(&s[i], "random", "15", &err) == FL_OK
                && fl_sim_settings_set(&s[i], "max-packet", "64", &err) == FL_OK
                && fl_sim_settings_set(&s[i], "seed", seed, &err) == FL_OK
                && fl_exp_point_from_settings(&p[i], mesh->t, &s[i], "dor", NULL, &err) == FL_OK;
        p[i].series = i;
    }
    CHECK(made && p[0].model == FL_SIM_MODEL_MULTICAST && p[0].routing_name
              && !p[0].config.routing && p[0].multicast.dests == 15
              && p[0].multicast.costs.max_packet == 64,
          "points from multicast settings: %s", err.message);
    FlSimConfig cfg = short_config(NULL);
    rate_points(&p[N], 1, mesh->t, &cfg, 0.1, 0.1, N);
    p[N].config.routing = NULL;
    p[N].routing_name = "dor";
    FlExpOptions o;
    int with_tree = 0;
    two_workers(&o, multicast_kept, &with_tree);
    int rc;
    FlExp *e = run(p, N + 1, &o, &rc, &err);
    if (!e)
        return;
    int same = rc == FL_OK, scalars = 1;
    for (int i = 0; i < N; i++) {
        const FlExpResult *r = fl_exp_result(e, i);
        FlMulticastResult want;
        same &= fl_multicast_run(mesh->t, mesh->r, &s[i], &want, NULL, NULL, &err) == FL_OK;
        same &= r->kept && r->state == FL_EXP_DONE && !r->past_saturation
                && r->model == FL_SIM_MODEL_MULTICAST && r->multicast.simulated
                && r->multicast.source == want.source && r->multicast.n_dests == 15
                && r->multicast.latency == want.latency
                && r->multicast.simulated_latency == want.simulated_latency
                && r->multicast.cycles == want.cycles
                && r->multicast.n_conflicts == want.n_conflicts && !r->multicast.tree
                && !r->multicast.times && r->sim.packets == 0;
        scalars &= same_scalars(r, mesh->t, FL_OPTION_FOR_MULTICAST, multicast_value, &want);
        fl_multicast_result_clear(&want);
        fl_sim_settings_clear(&s[i]);
    }
    CHECK(same, "multicast points give fl_multicast_run's figures, every one kept");
    CHECK(with_tree == N, "the result callback sees each one's tree and times (%d)", with_tree);
    CHECK(scalars, "a multicast point's scalars are the result-key table's multicast keys");
    const FlExpResult *flit = fl_exp_result(e, N);
    CHECK(flit->state == FL_EXP_DONE && flit->sim.packets > 0 && !flit->multicast.latency
              && same_scalars(flit, mesh->t, FL_OPTION_FOR_FLIT, flit_value, &flit->sim),
          "a flit-level point of the same list: the simulator's scalars");
    const char *name;
    double v;
    CHECK(fl_exp_result_scalars(flit, mesh->t, &name, &v, 1) == 17
              && strcmp(name, "latency_avg") == 0 && v == flit->sim.latency_avg,
          "a short array gets the first figures and the count");
    fl_exp_free(e);
}

/* Settings a point cannot take are refused, naming the problem. */
static void test_point_refusals(const Net *mesh)
{
    FlSimSettings s;
    fl_sim_settings_init(&s);
    FlExpPoint p;
    FlError err = { 0 };
    CHECK(fl_exp_point_from_settings(&p, mesh->t, &s, "nope", NULL, &err) == FL_ENOTFOUND
              && strstr(err.message, "nope"),
          "an unknown routing: %s", err.message);
    CHECK(fl_exp_point_from_settings(&p, mesh->t, &s, NULL, NULL, &err) == FL_EINVAL,
          "no routing: %s", err.message);
    fl_sim_settings_set(&s, "traffic", "trace", &err);
    CHECK(fl_exp_point_from_settings(&p, mesh->t, &s, "dor", NULL, &err) == FL_EUNSUPPORTED
              && strstr(err.message, "trace"),
          "trace traffic: %s", err.message);
    FlRoutingOptions ro;
    fl_routing_options_init(&ro);
    ro.root = 3;
    fl_sim_settings_set(&s, "traffic", "bitrev", &err);
    fl_sim_settings_set(&s, "mode", "deflection", &err);
    fl_sim_settings_set(&s, "nmsg", "3", &err);
    CHECK(fl_exp_point_from_settings(&p, mesh->t, &s, "dor", &ro, &err) == FL_OK
              && p.model == FL_SIM_MODEL_DEFLECTION && p.deflect.nmsg == 3
              && p.routing_options.root == 3 && p.topology == mesh->t
              && strcmp(p.config.traffic.pattern, "bitrev") == 0 && p.series == 0,
          "a deflection point with its routing options: %s", err.message);
    fl_routing_options_clear(&ro);
    fl_sim_settings_clear(&s);
}

/* ---- workers are CPUs, shared by a simulation's threads -------------------- */

/* Points whose simulations take two threads each: four workers run two of
 * them at once, two run one, and the figures are those of one thread. */
static void test_threads(void)
{
    Net mesh;
    if (!net_open(&mesh, "mesh:16x16", "dor"))
        return;
    enum { N = 6 };
    FlSimConfig cfg;
    uniform_config(&cfg, &mesh, 0.05, 4);
    cfg.warmup_cycles = 100;
    cfg.measure_cycles = 300;
    FlExpPoint one[N], two[N];
    rate_points(one, N, mesh.t, &cfg, 0.05, 0.05, 0);
    cfg.threads = 2;
    rate_points(two, N, mesh.t, &cfg, 0.05, 0.05, 0);
    Summary base[N], other[N];
    int workers[] = { 1, 4, 2 }, at_once[] = { 1, 2, 1 };
    for (int w = 0; w < 3; w++) {
        Seen s;
        FlExpOptions o;
        options(&o, workers[w], &s);
        o.stop_past_saturation = 0;
        int rc;
        FlError err = { 0 };
        FlExp *e = run(w == 0 ? one : two, N, &o, &rc, &err);
        if (!e)
            continue;
        summarize(e, w == 0 ? base : other);
        CHECK_INT(fl_exp_jobs(e), at_once[w]);
        CHECK(rc == FL_OK && s.max_running <= at_once[w],
              "%d workers, %d thread(s) a point: at most %d run at once (%d)", workers[w],
              w == 0 ? 1 : 2, at_once[w], s.max_running);
        if (w > 0)
            CHECK(memcmp(base, other, sizeof base) == 0,
                  "%d workers, two threads a point: one thread's figures", workers[w]);
        fl_exp_free(e);
    }
    net_close(&mesh);
}

int main(void)
{
    /* The meshes most tests run on, built once for all. */
    Net mesh4, mesh8;
    if (!net_open(&mesh4, "mesh:4x4", "dor") || !net_open(&mesh8, "mesh:8x8", "dor"))
        return tap_done();
    test_workers(&mesh4);
    test_stop_starts(&mesh4);
    test_cancel_from_callback(&mesh8);
    test_cancel_from_thread(&mesh8);
    test_failures(&mesh4);
    test_check(&mesh4);
    test_named_routing();
    test_deflection(&mesh4);
    test_multicast(&mesh8);
    test_point_refusals(&mesh4);
    test_shares(&mesh4);
    test_refused(&mesh4);
    test_threads();
    net_close(&mesh4);
    net_close(&mesh8);
    return tap_done();
}
