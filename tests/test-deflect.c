/* test-deflect.c — paper 003's deflection routing model (deflect.c).
 *
 * Conservation is checked two ways: the run itself counts the messages every
 * cycle and fails if they are not nodes * nmsg, and from the outside every
 * message slot's life adds up to the run length. A slot's delivered messages
 * took, together, the cycles up to the creation of its current message, and
 * the current one has been alive since; so over all slots
 *     delay_sum + (ages of the messages alive at the end) = nodes * nmsg * T.
 * A lost or stuck message keeps ageing, so when the ages left over sum to
 * less than T, every message made at cycle 0 (indeed every one older than
 * that sum) has been delivered.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab.h"
#include "tap.h"

/* --- helpers ------------------------------------------------------------ */

static FlTopology *make(const char *spec)
{
    FlTopology *t = NULL;
    FlError err;
    if (fl_topology_from_spec(spec, &t, &err) != FL_OK) {
        printf("# cannot build %s: %s\n", spec, err.message);
        return NULL;
    }
    return t;
}

static FlRouting *make_routing(const FlTopology *t, const char *name)
{
    FlRouting *r = NULL;
    FlError err;
    if (!t || fl_routing_new(t, name, NULL, &r, &err) != FL_OK) {
        printf("# cannot build %s: %s\n", name, t ? err.message : "no network");
        return NULL;
    }
    return r;
}

static FlDeflectConfig config(const FlRouting *r, int nmsg, FlDeflectPriority p,
                              int64_t cycles, uint64_t seed)
{
    FlDeflectConfig cfg = { .routing = r, .nmsg = nmsg, .priority = p, .cycles = cycles,
                            .seed = seed };
    return cfg;
}

/* Runs and reports a failure as a test point; returns whether it ran. */
static int run(const FlTopology *t, const FlDeflectConfig *cfg, FlDeflectResult *res)
{
    FlError err;
    fl_error_clear(&err);
    int rc = fl_deflect_run(t, cfg, res, NULL, NULL, &err);
    if (rc != FL_OK)
        CHECK(0, "deflection run failed: %s", err.message);
    return rc == FL_OK;
}

static double last(const double *series, const FlDeflectResult *res)
{
    return series[res->cycles - 1];
}

/* Messages delivered per cycle per node over the second half of the run,
 * past the closed system's start-up. */
static double steady_throughput(const FlDeflectResult *res)
{
    double sum = 0;
    for (int64_t c = res->cycles / 2; c < res->cycles; c++)
        sum += res->throughput[c];
    return sum / (double)(res->cycles - res->cycles / 2);
}

/* Sum of delays of every delivered message, recovered from the mean. */
static double delay_sum(const FlDeflectResult *res)
{
    return last(res->avg_delay, res) * (double)res->delivered;
}

/* Mean breadth-first distance from switch 0 to the others: the mean
 * distance of the vertex-transitive networks used here. */
static double mean_distance(const FlTopology *t)
{
    int n = fl_topology_switch_count(t);
    int *dist = malloc(sizeof *dist * (size_t)n);
    double sum = 0;
    if (dist && fl_topology_bfs(t, 0, dist, NULL) == FL_OK)
        for (int i = 1; i < n; i++)
            sum += dist[i];
    free(dist);
    return sum / (n - 1);
}

/* --- tests -------------------------------------------------------------- */

static void test_bad_parameters(void)
{
    FlTopology *t = make("xmesh:8x8"), *other = make("xmesh:8x8");
    FlTopology *torus = make("torus:8x8");
    FlRouting *r = make_routing(t, "xmesh"), *r_other = make_routing(other, "xmesh");
    FlRouting *updown = make_routing(torus, "updown");
    FlDeflectResult res;
    FlError err;
    struct {
        FlDeflectConfig cfg;
        const FlTopology *t;
        int code;
        const char *needle;
    } cases[] = {
        { config(NULL, 1, FL_PRIORITY_AGE, 10, 1), t, FL_EINVAL, "routing" },
        { config(r_other, 1, FL_PRIORITY_AGE, 10, 1), t, FL_EINVAL, "another network" },
        { config(r, 0, FL_PRIORITY_AGE, 10, 1), t, FL_ERANGE, "nmsg" },
        { config(r, 1, (FlDeflectPriority)9, 10, 1), t, FL_EINVAL, "priority" },
        { config(r, 1, FL_PRIORITY_AGE, 0, 1), t, FL_ERANGE, "cycles" },
        { config(updown, 1, FL_PRIORITY_AGE, 10, 1), torus, FL_EUNSUPPORTED, "minimal" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&res, 0x5a, sizeof res);
        fl_error_clear(&err);
        int rc = fl_deflect_run(cases[i].t, &cases[i].cfg, &res, NULL, NULL, &err);
        CHECK(rc == cases[i].code && strstr(err.message, cases[i].needle),
              "bad parameter %zu refused with code %d (want %d): %s", i, rc, cases[i].code,
              err.message);
    }
    CHECK(res.cycles == (int64_t)0x5a5a5a5a5a5a5a5aLL, "a refused run leaves the result alone");
    fl_deflect_result_clear(NULL);
    fl_routing_free(updown);
    fl_routing_free(r_other);
    fl_routing_free(r);
    fl_topology_free(torus);
    fl_topology_free(other);
    fl_topology_free(t);
}

/* On a complete graph every destination is a neighbour, and with one
 * message per node a node sends one message per cycle: nothing ever
 * contends, so every delay is the distance, 1, and every node delivers a
 * message every cycle. The network is built by hand, with hosts, which the
 * model ignores. */
static void test_no_contention(void)
{
    FlTopology *t = fl_topology_new();
    int ids[5], ok = t != NULL;
    for (int i = 0; i < 5 && ok; i++)
        ok = fl_topology_add_node(t, FL_NODE_SWITCH, 5, &ids[i], NULL) == FL_OK;
    for (int i = 0; i < 5 && ok; i++)
        for (int j = i + 1; j < 5 && ok; j++)
            ok = fl_topology_connect(t, ids[i], -1, ids[j], -1, NULL, NULL) == FL_OK;
    for (int i = 0; i < 5 && ok; i++) {
        int h;
        ok = fl_topology_add_node(t, FL_NODE_HOST, 1, &h, NULL) == FL_OK
             && fl_topology_connect(t, h, 0, ids[i], -1, NULL, NULL) == FL_OK;
    }
    CHECK(ok, "built the complete graph K5 with a host per switch");
    FlRouting *r = make_routing(t, "shortest");
    FlDeflectConfig cfg = config(r, 1, FL_PRIORITY_AGE, 200, 3);
    FlDeflectResult res;
    if (r && run(t, &cfg, &res)) {
        int exact = 1;
        for (int64_t c = 0; c < res.cycles; c++)
            exact &= res.max_delay[c] == 1.0 && res.avg_delay[c] == 1.0
                     && res.throughput[c] == 1.0;
        CHECK(exact, "every message on K5 takes exactly its distance, 1 cycle, and every "
                     "node delivers one per cycle");
        CHECK_INT(res.deflections, 0);
        CHECK_INT(res.delivered, 5 * 200);
        fl_deflect_result_clear(&res);
    }
    fl_routing_free(r);
    fl_topology_free(t);
}

/* A message delivered in the first cycle went one hop unhindered; a
 * running maximum never falls; the per-cycle throughputs add up to the
 * messages delivered. */
static void test_series_shape(void)
{
    FlTopology *t = make("xmesh:8x8");
    FlRouting *r = make_routing(t, "xmesh");
    FlDeflectConfig cfg = config(r, 2, FL_PRIORITY_AGE, 400, 5);
    FlDeflectResult res;
    if (r && run(t, &cfg, &res)) {
        CHECK(res.max_delay[0] == 1.0 && res.avg_delay[0] == 1.0,
              "cycle 0 delivers only neighbours' messages, with delay 1 (max %.1f, avg %.2f)",
              res.max_delay[0], res.avg_delay[0]);
        int monotone = 1;
        for (int64_t c = 1; c < res.cycles; c++)
            monotone &= res.max_delay[c] >= res.max_delay[c - 1];
        CHECK(monotone, "the maximum delay so far never decreases");
        double sum = 0;
        for (int64_t c = 0; c < res.cycles; c++)
            sum += res.throughput[c] * 64;
        CHECK_NEAR(sum, (double)res.delivered, 1e-6);
        fl_deflect_result_clear(&res);
    }
    fl_routing_free(r);
    fl_topology_free(t);
}

/* Age priority on xmesh:8x8 at full load: the oldest message always wins,
 * so delays stay bounded and every message is delivered; see the identity
 * at the top of the file. */
static void test_age_delivers_everything(void)
{
    FlTopology *t = make("xmesh:8x8");
    FlRouting *r = make_routing(t, "xmesh");
    const int64_t T = 4000;
    FlDeflectConfig cfg = config(r, 4, FL_PRIORITY_AGE, T, 11);
    FlDeflectResult res;
    if (r && run(t, &cfg, &res)) {
        double ages_left = 64.0 * 4 * (double)T - delay_sum(&res);
        CHECK(ages_left >= -1e-3 && ages_left < (double)T,
              "messages still in flight after %lld cycles are younger than %.0f cycles in "
              "total, so every older one was delivered",
              (long long)T, ages_left);
        CHECK(last(res.max_delay, &res) <= 40,
              "age priority bounds the delay on xmesh:8x8 (max %.0f, diameter 6)",
              last(res.max_delay, &res));
        CHECK(res.max_delay[T / 2] == last(res.max_delay, &res),
              "the maximum delay stops growing (%.0f at cycle %lld, %.0f at the end)",
              res.max_delay[T / 2], (long long)T / 2, last(res.max_delay, &res));
        fl_deflect_result_clear(&res);
    }
    fl_routing_free(r);
    fl_topology_free(t);
}

/* The paper's livelock observation, as a trend: with a fresh random order
 * every cycle, some message keeps losing and the worst delay is far above
 * age priority's, on every seed tried. */
static void test_random_worse_than_age(void)
{
    FlTopology *t = make("xmesh:8x8");
    FlRouting *r = make_routing(t, "xmesh");
    for (uint64_t seed = 1; seed <= 3 && r; seed++) {
        FlDeflectConfig by_age = config(r, 4, FL_PRIORITY_AGE, 3000, seed);
        FlDeflectConfig by_random = config(r, 4, FL_PRIORITY_RANDOM, 3000, seed);
        FlDeflectResult a, b;
        if (!run(t, &by_age, &a))
            continue;
        if (run(t, &by_random, &b)) {
            CHECK(last(b.max_delay, &b) > 1.5 * last(a.max_delay, &a),
                  "seed %llu: random priority's max delay %.0f exceeds age's %.0f by half",
                  (unsigned long long)seed, last(b.max_delay, &b), last(a.max_delay, &a));
            fl_deflect_result_clear(&b);
        }
        fl_deflect_result_clear(&a);
    }
    fl_routing_free(r);
    fl_topology_free(t);
}

/* Paper 003 Figs 7-9, shortened to 300 cycles: with age priority, the 36x72
 * XMESH has a lower average delay and a higher throughput than the 35x71
 * torus and diagonal mesh at every load; at Nmsg = 1 each network's average
 * delay is close to its mean distance (the paper's Fig 8 remark). */
static void test_paper_003(void)
{
    static const char *const specs[3] = { "xmesh:36x72", "torus:35x71", "dmesh:35x71" };
    static const char *const routings[3] = { "xmesh", "shortest", "dmesh" };
    FlTopology *t[3];
    FlRouting *r[3];
    double d[3];
    int ok = 1;
    for (int i = 0; i < 3; i++) {
        t[i] = make(specs[i]);
        r[i] = make_routing(t[i], routings[i]);
        ok &= r[i] != NULL;
        d[i] = t[i] ? mean_distance(t[i]) : 0;
    }
    CHECK(ok && d[0] < d[2] && d[2] < d[1],
          "mean distances: XMESH %.2f < DMESH %.2f < torus %.2f (paper 003 Table 4, "
          "columns swapped)", d[0], d[2], d[1]);
    for (int nmsg = 1; nmsg <= 4 && ok; nmsg++) {
        double avg[3], thr[3];
        for (int i = 0; i < 3; i++) {
            FlDeflectConfig cfg = config(r[i], nmsg, FL_PRIORITY_AGE, 300, 1);
            FlDeflectResult res;
            avg[i] = 1e9;
            thr[i] = 0;
            if (!run(t[i], &cfg, &res))
                continue;
            avg[i] = last(res.avg_delay, &res);
            thr[i] = steady_throughput(&res);
            if (nmsg == 1)
                CHECK(avg[i] >= 0.95 * d[i] && avg[i] <= 1.1 * d[i],
                      "%s, Nmsg 1: average delay %.2f is near the mean distance %.2f",
                      specs[i], avg[i], d[i]);
            fl_deflect_result_clear(&res);
        }
        CHECK(avg[0] < avg[1] && avg[0] < avg[2],
              "Nmsg %d: XMESH's average delay %.2f beats torus %.2f and DMESH %.2f", nmsg,
              avg[0], avg[1], avg[2]);
        CHECK(thr[0] > thr[1] && thr[0] > thr[2],
              "Nmsg %d: XMESH's throughput %.4f beats torus %.4f and DMESH %.4f", nmsg,
              thr[0], thr[1], thr[2]);
    }
    for (int i = 0; i < 3; i++) {
        fl_routing_free(r[i]);
        fl_topology_free(t[i]);
    }
}

static int same_result(const FlDeflectResult *a, const FlDeflectResult *b)
{
    size_t bytes = sizeof(double) * (size_t)a->cycles;
    return a->cycles == b->cycles && a->delivered == b->delivered
           && a->deflections == b->deflections && !memcmp(a->max_delay, b->max_delay, bytes)
           && !memcmp(a->avg_delay, b->avg_delay, bytes)
           && !memcmp(a->throughput, b->throughput, bytes);
}

/* Every priority, on a routing with one port per hop (dor, with its torus
 * dateline classes) and on one with several: the same seed gives the same
 * bits, another seed other ones. */
static void test_determinism(void)
{
    static const char *const specs[2] = { "torus:8x8", "xmesh:8x8" };
    static const char *const routings[2] = { "dor", "xmesh" };
    for (int i = 0; i < 2; i++) {
        FlTopology *t = make(specs[i]);
        FlRouting *r = make_routing(t, routings[i]);
        for (int p = FL_PRIORITY_RANDOM; p <= FL_PRIORITY_AGE_PATH_NUM && r; p++) {
            FlDeflectConfig cfg = config(r, 3, (FlDeflectPriority)p, 500, 42);
            FlDeflectConfig other = config(r, 3, (FlDeflectPriority)p, 500, 43);
            FlDeflectResult a, b, c;
            if (!run(t, &cfg, &a))
                continue;
            if (run(t, &cfg, &b)) {
                CHECK(same_result(&a, &b) && a.delivered > 0,
                      "%s %s priority %d: a rerun is bit-identical (%lld delivered)",
                      specs[i], routings[i], p, (long long)a.delivered);
                fl_deflect_result_clear(&b);
            }
            if (run(t, &other, &c)) {
                CHECK(!same_result(&a, &c), "%s %s priority %d: another seed differs",
                      specs[i], routings[i], p);
                fl_deflect_result_clear(&c);
            }
            fl_deflect_result_clear(&a);
        }
        fl_routing_free(r);
        fl_topology_free(t);
    }
}

typedef struct Progress {
    int calls, monotone, cancel_at;
    double last;
} Progress;

static int on_progress(void *data, double fraction)
{
    Progress *p = data;
    p->monotone &= fraction > p->last && fraction <= 1.0;
    p->last = fraction;
    return ++p->calls == p->cancel_at;
}

static void test_progress_and_cancel(void)
{
    FlTopology *t = make("xmesh:8x8");
    FlRouting *r = make_routing(t, "xmesh");
    /* Not a multiple of the reporting interval: the last report must
     * still say 1. */
    FlDeflectConfig cfg = config(r, 2, FL_PRIORITY_AGE, 1055, 1);
    FlDeflectResult res;
    FlError err;
    Progress p = { 0, 1, -1, 0.0 };
    if (r && fl_deflect_run(t, &cfg, &res, on_progress, &p, &err) == FL_OK) {
        CHECK(p.calls >= 10 && p.monotone && p.last == 1.0,
              "progress rises to 1 (%d reports, last %.3f)", p.calls, p.last);
        fl_deflect_result_clear(&res);
    } else {
        CHECK(0, "the run with a progress callback failed");
    }
    Progress stop = { 0, 1, 3, 0.0 };
    memset(&res, 0, sizeof res);
    int rc = r ? fl_deflect_run(t, &cfg, &res, on_progress, &stop, &err) : -1;
    CHECK(rc == FL_ECANCELLED && stop.calls == 3 && res.max_delay == NULL,
          "cancelling stops the run and leaves the result empty (rc %d, %d reports)", rc,
          stop.calls);
    fl_routing_free(r);
    fl_topology_free(t);
}

int main(void)
{
    test_bad_parameters();
    test_no_contention();
    test_series_shape();
    test_age_delivers_everything();
    test_random_worse_than_age();
    test_paper_003();
    test_determinism();
    test_progress_and_cancel();
    return tap_done();
}
