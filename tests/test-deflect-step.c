/* test-deflect-step.c — the deflection model as an object: stepping,
 * views, checkpoints (deflect-state.c).
 *
 * Three claims: stepping in any chunks is the run fl_deflect_run makes;
 * restoring a checkpoint and stepping is running forward, view for view;
 * and the views tell the truth every cycle: switches * nmsg messages, each
 * where its channel leads, a step from where it was the cycle before,
 * shorter towards its destination unless marked deflected, and the marks
 * adding up to the deflection count.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab.h"
#include "tap.h"

/* --- helpers ------------------------------------------------------------ */

typedef struct Net {
    FlTopology *t;
    FlRouting *r;
} Net;

static int net_open(Net *net, const char *spec, const char *routing)
{
    FlError err;
    net->t = NULL;
    net->r = NULL;
    if (fl_topology_from_spec(spec, &net->t, &err) != FL_OK
        || fl_routing_new(net->t, routing, NULL, &net->r, &err) != FL_OK) {
        CHECK(0, "cannot build %s with %s: %s", spec, routing, err.message);
        return 0;
    }
    return 1;
}

static void net_close(Net *net)
{
    fl_routing_free(net->r);
    fl_topology_free(net->t);
}

static FlDeflectConfig config(const Net *net, int nmsg, FlDeflectPriority p, int64_t cycles,
                              uint64_t seed)
{
    FlDeflectConfig cfg = { .routing = net->r, .nmsg = nmsg, .priority = p, .cycles = cycles,
                            .seed = seed };
    return cfg;
}

static FlDeflect *make(const Net *net, const FlDeflectConfig *cfg)
{
    FlDeflect *d = NULL;
    FlError err;
    fl_error_clear(&err);
    if (fl_deflect_new(net->t, cfg, &d, &err) != FL_OK)
        CHECK(0, "fl_deflect_new failed: %s", err.message);
    return d;
}

static int step(FlDeflect *d, int64_t n)
{
    FlError err;
    fl_error_clear(&err);
    int rc = fl_deflect_step(d, n, &err);
    if (rc != FL_OK)
        CHECK(0, "stepping %lld cycles failed: %s", (long long)n, err.message);
    return rc == FL_OK;
}

/* Every view of a model at one moment, in visiting order. */
typedef struct Snapshot {
    FlDeflectView *v;
    int n, cap;
    FlDeflectStats stats;
} Snapshot;

static void collect(void *data, const FlDeflectView *m)
{
    Snapshot *s = data;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        FlDeflectView *v = realloc(s->v, sizeof *v * (size_t)s->cap);
        if (!v)
            abort();
        s->v = v;
    }
    s->v[s->n++] = *m;
}

static void snapshot(const FlDeflect *d, Snapshot *s)
{
    s->n = 0;
    fl_deflect_foreach(d, collect, s);
    fl_deflect_stats(d, &s->stats);
}

static int same_view(const FlDeflectView *a, const FlDeflectView *b)
{
    return a->message == b->message && a->src == b->src && a->dst == b->dst
           && a->node == b->node && a->channel == b->channel && a->deflected == b->deflected
           && a->deflections == b->deflections && a->hops == b->hops
           && a->created == b->created;
}

/* Whether two snapshots are the same to the bit, views and figures. */
static int same_snapshot(const Snapshot *a, const Snapshot *b)
{
    if (a->n != b->n || memcmp(&a->stats, &b->stats, sizeof a->stats))
        return 0;
    for (int i = 0; i < a->n; i++)
        if (!same_view(&a->v[i], &b->v[i]))
            return 0;
    return 1;
}

/* --- tests -------------------------------------------------------------- */

/* Stepping in uneven chunks (zero included) passes through every figure
 * fl_deflect_run records, and past the run's length. */
static void test_chunks_equal_run(void)
{
    static const struct {
        const char *spec, *routing;
        int nmsg;
    } nets[] = {
        { "xmesh:8x8", "xmesh", 4 },
        { "torus:8x8", "dor", 2 },
        { "hypercube:5,hosts=2", "shortest", 3 },
    };
    static const int64_t chunks[] = { 1, 0, 7, 1, 50, 13, 100, 0, 211, 17 };
    const int64_t T = 600;
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        Net net;
        if (!net_open(&net, nets[i].spec, nets[i].routing))
            continue;
        int n = fl_topology_switch_count(net.t);
        for (int p = FL_PRIORITY_RANDOM; p <= FL_PRIORITY_AGE_PATH_NUM; p++) {
            FlDeflectConfig cfg = config(&net, nets[i].nmsg, (FlDeflectPriority)p, T, 9 + p);
            FlDeflectResult res;
            FlError err;
            if (fl_deflect_run(net.t, &cfg, &res, NULL, NULL, &err) != FL_OK) {
                CHECK(0, "%s priority %d: run failed: %s", nets[i].spec, p, err.message);
                continue;
            }
            FlDeflect *d = make(&net, &cfg);
            int same = d != NULL, stepped = 1;
            int64_t before = 0;
            double thr_sum = 0;
            for (size_t k = 0; d && fl_deflect_cycle(d) < T; k++) {
                int64_t c0 = fl_deflect_cycle(d), want = chunks[k % 10];
                int64_t len = want < T - c0 ? want : T - c0;
                stepped &= step(d, len) && fl_deflect_cycle(d) == c0 + len;
                FlDeflectStats st;
                fl_deflect_stats(d, &st);
                int64_t c = st.cycle;
                if (c == 0)
                    continue;
                double chunk = 0;
                for (int64_t j = c0; j < c; j++)
                    chunk += res.throughput[j];
                thr_sum += chunk;
                same &= st.max_delay == res.max_delay[c - 1]
                        && st.avg_delay == res.avg_delay[c - 1]
                        && fabs(chunk * n - (double)(st.delivered - before)) < 1e-6
                        && fabs(st.throughput * (double)c - thr_sum) < 1e-9;
                before = st.delivered;
            }
            FlDeflectStats st;
            fl_deflect_stats(d, &st);
            CHECK(d && same && stepped && st.delivered == res.delivered
                      && st.deflections == res.deflections,
                  "%s priority %d: stepping in chunks gives the run's series and totals "
                  "(%lld delivered, %lld deflections)",
                  nets[i].spec, p, (long long)st.delivered, (long long)st.deflections);
            CHECK(d && step(d, 25) && fl_deflect_cycle(d) == T + 25,
                  "%s priority %d: stepping goes on past the run's length", nets[i].spec, p);
            fl_deflect_free(d);
            fl_deflect_result_clear(&res);
        }
        net_close(&net);
    }
}

/* Back and forth: a checkpoint restored and stepped on is the same as
 * stepping straight there, view for view, as often as it is restored; and
 * the same as a fresh model run to that cycle. */
static void test_checkpoint_replay(void)
{
    Net net;
    if (!net_open(&net, "xmesh:8x8,hosts=2", "xmesh"))
        return;
    for (int p = FL_PRIORITY_RANDOM; p <= FL_PRIORITY_AGE_PATH_NUM; p++) {
        FlDeflectConfig cfg = config(&net, 3, (FlDeflectPriority)p, 1, 77);
        FlDeflect *d = make(&net, &cfg), *fresh = make(&net, &cfg);
        FlDeflectCheckpoint *cp0 = NULL, *cp = NULL;
        Snapshot at0 = { 0 }, ahead = { 0 }, again = { 0 }, straight = { 0 }, later = { 0 };
        FlError err;
        if (!d || !fresh)
            goto next;
        snapshot(d, &at0);
        CHECK(fl_deflect_checkpoint(d, &cp0, &err) == FL_OK && step(d, 100)
                  && fl_deflect_checkpoint(d, &cp, &err) == FL_OK,
              "priority %d: checkpoints at cycles 0 and 100", p);
        if (!cp0 || !cp)
            goto next;
        CHECK(fl_deflect_checkpoint_cycle(cp0) == 0 && fl_deflect_checkpoint_cycle(cp) == 100,
              "checkpoints say their cycles (%lld, %lld)",
              (long long)fl_deflect_checkpoint_cycle(cp0),
              (long long)fl_deflect_checkpoint_cycle(cp));
        step(d, 137);
        snapshot(d, &ahead);
        step(d, 300);
        snapshot(d, &later);
        int replays = 1;
        for (int k = 0; k < 3; k++) {
            replays &= fl_deflect_restore(d, cp, &err) == FL_OK && fl_deflect_cycle(d) == 100
                       && step(d, 137);
            snapshot(d, &again);
            replays &= same_snapshot(&ahead, &again);
        }
        CHECK(replays && ahead.n == 64 * 3,
              "priority %d: restoring cycle 100 and stepping 137 gives every view of cycle "
              "237 again, three times over (%d messages)", p, again.n);
        step(d, 300);
        snapshot(d, &again);
        CHECK(same_snapshot(&later, &again),
              "priority %d: and stepping on from there reaches cycle 537 as before", p);
        step(fresh, 237);
        snapshot(fresh, &straight);
        CHECK(same_snapshot(&ahead, &straight),
              "priority %d: a fresh model run to cycle 237 agrees view for view", p);
        CHECK(fl_deflect_restore(d, cp0, &err) == FL_OK && fl_deflect_cycle(d) == 0
                  && (snapshot(d, &again), same_snapshot(&at0, &again)),
              "priority %d: restoring cycle 0 gives the start again", p);
        CHECK(fl_deflect_restore(fresh, cp, &err) == FL_EINVAL
                  && strstr(err.message, "another"),
              "priority %d: a checkpoint of another model is refused: %s", p, err.message);
        size_t z = fl_deflect_checkpoint_size(cp);
        CHECK(z >= 64 * 3 * (2 * sizeof(int64_t) + 4) && z < 64 * 3 * 64 + 8192,
              "a checkpoint holds the messages and the channels, no more (%zu bytes)", z);
    next:
        free(at0.v);
        free(ahead.v);
        free(again.v);
        free(straight.v);
        free(later.v);
        fl_deflect_checkpoint_free(cp0);
        fl_deflect_checkpoint_free(cp);
        fl_deflect_free(fresh);
        fl_deflect_free(d);
    }
    CHECK(fl_deflect_checkpoint_cycle(NULL) == -1 && fl_deflect_checkpoint_size(NULL) == 0,
          "a missing checkpoint has no cycle and no size");
    fl_deflect_checkpoint_free(NULL);
    net_close(&net);
}

/* What the views of one cycle say, checked against the cycle before. */
typedef struct Audit {
    const FlTopology *t;
    int n;              /* switches */
    int *dist;          /* n * n, by switch rank */
    int ok_count, ok_ids, ok_place, ok_waiting, ok_moves, ok_marks, ok_new;
    int64_t prev_next_id;   /* ids below this existed the cycle before */
    int *prev_node;         /* by id, -1 for none */
    int64_t ids;
} Audit;

static int dist_to(const Audit *a, int node, int dst)
{
    return a->dist[fl_topology_node_rank(a->t, dst) * a->n + fl_topology_node_rank(a->t, node)];
}

static void test_views_truthful_on(const char *spec, const char *routing, int all_shortest,
                                   int nmsg, FlDeflectPriority p)
{
    Net net;
    if (!net_open(&net, spec, routing))
        return;
    const int64_t T = 300;
    Audit a = { .t = net.t, .n = fl_topology_switch_count(net.t) };
    a.dist = malloc(sizeof *a.dist * (size_t)a.n * (size_t)a.n);
    a.ok_count = a.ok_ids = a.ok_place = a.ok_waiting = a.ok_moves = a.ok_marks = a.ok_new = 1;
    for (int s = 0; a.dist && s < a.n; s++)
        fl_topology_bfs(net.t, s, a.dist + (size_t)s * (size_t)a.n, NULL);
    FlDeflectConfig cfg = config(&net, nmsg, p, 1, 5);
    FlDeflect *d = make(&net, &cfg);
    Snapshot s = { 0 };
    /* Ids are the creation order: at most the first messages plus one per
     * delivery, and deliveries are at most one per channel per cycle. */
    size_t max_ids = (size_t)a.n * (size_t)nmsg
                     + (size_t)T * (size_t)fl_topology_channel_count(net.t) + 1;
    a.prev_node = malloc(sizeof *a.prev_node * max_ids);
    uint8_t *seen = calloc(max_ids, 1);
    if (!d || !a.dist || !a.prev_node || !seen)
        goto done;
    for (size_t i = 0; i < max_ids; i++)
        a.prev_node[i] = -1;
    FlDeflectStats before;
    fl_deflect_stats(d, &before);
    int64_t deflected_marks = 0, moved = 0;
    for (int64_t c = 0; c <= T; c++) {
        snapshot(d, &s);
        a.ok_count &= s.n == a.n * nmsg;
        int64_t marks = 0, new_ids = 0, next_id = a.prev_next_id;
        for (int i = 0; i < s.n; i++) {
            const FlDeflectView *v = &s.v[i];
            int fresh = v->message >= a.prev_next_id;
            a.ok_ids &= v->message >= 0 && (size_t)v->message < max_ids && !seen[v->message];
            if (!a.ok_ids)
                break;
            seen[v->message] = 1;
            if (v->message >= next_id)
                next_id = v->message + 1;
            new_ids += fresh && c > 0;
            /* By slot: owner rank i / nmsg. */
            a.ok_place &= fl_topology_node_rank(net.t, v->src) == i / nmsg
                          && fl_topology_node_kind(net.t, v->dst) == FL_NODE_SWITCH
                          && v->src != v->dst && v->node != v->dst
                          && v->created <= s.stats.cycle && v->created >= 0;
            if (v->channel < 0) {
                a.ok_waiting &= v->node == v->src && v->hops == 0 && !v->deflected
                                && v->deflections == 0;
            } else {
                int from = fl_topology_channel_src(net.t, v->channel);
                int prev = fresh ? -1 : a.prev_node[v->message];
                a.ok_place &= fl_topology_channel_dst(net.t, v->channel) == v->node
                              && fl_topology_node_kind(net.t, v->node) == FL_NODE_SWITCH
                              && v->hops >= 1 && v->hops <= s.stats.cycle - v->created
                              && v->deflections >= v->deflected
                              && v->deflections <= v->hops;
                /* It crossed its channel from where it was a cycle ago. */
                a.ok_moves &= !fresh && prev == from;
                int was = dist_to(&a, from, v->dst), now = dist_to(&a, v->node, v->dst);
                /* A deflection leaves the routing's outputs; when the routing
                 * offers every shortest one, it cannot bring it nearer. */
                a.ok_moves &= v->deflected ? now >= was || !all_shortest : now == was - 1;
                marks += v->deflected;
                moved++;
            }
            a.prev_node[v->message] = v->node;
        }
        /* Every message created in a cycle replaced one delivered in it. */
        a.ok_new &= new_ids == s.stats.delivered - before.delivered;
        a.ok_marks &= marks == s.stats.deflections - before.deflections;
        deflected_marks += marks;
        a.prev_next_id = next_id;
        for (int i = 0; i < s.n; i++)
            seen[s.v[i].message] = 0;
        before = s.stats;
        if (c < T && !step(d, 1))
            break;
    }
    CHECK(a.ok_count, "%s, Nmsg %d, priority %d: every cycle shows switches * nmsg = %d "
                      "messages", spec, nmsg, (int)p, a.n * nmsg);
    CHECK(a.ok_ids, "%s: message ids are distinct and within the messages made", spec);
    CHECK(a.ok_place, "%s: every message is at a switch, where its channel leads, in its "
                      "owner's slots, not at its destination", spec);
    CHECK(a.ok_waiting, "%s: a message that has not moved is at its source", spec);
    CHECK(a.ok_moves, "%s: every move starts where the message was a cycle before, and goes "
                      "one step nearer its destination unless marked deflected", spec);
    CHECK(a.ok_marks && deflected_marks == before.deflections && deflected_marks > 0,
          "%s: the deflected marks of each cycle add up to its deflections (%lld in all)",
          spec, (long long)deflected_marks);
    CHECK(a.ok_new && moved > 0, "%s: each delivery makes one new message", spec);
done:
    free(seen);
    free(s.v);
    free(a.prev_node);
    free(a.dist);
    fl_deflect_free(d);
    net_close(&net);
}

static void test_views_truthful(void)
{
    test_views_truthful_on("xmesh:8x8,hosts=2", "xmesh", 1, 4, FL_PRIORITY_AGE);
    /* dor offers one of the shortest outputs, so a deflection may take
     * another shortest one. */
    test_views_truthful_on("torus:6x6", "dor", 0, 2, FL_PRIORITY_RANDOM);
    test_views_truthful_on("irregular:32,ports=4,hosts=1,seed=3", "shortest", 1, 3,
                           FL_PRIORITY_AGE_PATH_NUM);
}

/* A stepper needs no run length; calls it cannot honour are refused with
 * a reason and change nothing. */
static void test_bad_calls(void)
{
    Net net;
    if (!net_open(&net, "xmesh:4x4", "xmesh"))
        return;
    FlDeflectConfig cfg = config(&net, 1, FL_PRIORITY_AGE, 0, 1);
    FlDeflect *d = NULL;
    FlError err;
    fl_error_clear(&err);
    CHECK(fl_deflect_new(net.t, &cfg, &d, &err) == FL_OK && fl_deflect_cycle(d) == 0,
          "a model with no run length is made: %s", err.message);
    FlDeflectConfig bad = config(&net, 0, FL_PRIORITY_AGE, 10, 1);
    FlDeflect *none = (FlDeflect *)&bad;
    CHECK(fl_deflect_new(net.t, &bad, &none, &err) == FL_ERANGE && strstr(err.message, "nmsg")
              && none == (FlDeflect *)&bad,
          "nmsg 0 is refused by name and *out left alone: %s", err.message);
    CHECK(fl_deflect_new(net.t, &cfg, NULL, &err) == FL_EINVAL, "no place for the model");
    if (d) {
        step(d, 10);
        CHECK(fl_deflect_step(d, -1, &err) == FL_EINVAL && fl_deflect_cycle(d) == 10,
              "a negative step is refused: %s", err.message);
        CHECK(fl_deflect_step(d, 1000000000LL, &err) == FL_ERANGE
                  && strstr(err.message, "at most") && fl_deflect_cycle(d) == 10,
              "stepping past 10^9 cycles is refused before it starts: %s", err.message);
        CHECK(step(d, 0) && fl_deflect_cycle(d) == 10, "stepping 0 cycles does nothing");
    }
    CHECK(fl_deflect_step(NULL, 1, &err) == FL_EINVAL, "stepping nothing is refused");
    FlDeflectStats st;
    memset(&st, 0x5a, sizeof st);
    fl_deflect_stats(NULL, &st);
    CHECK(st.cycle == 0 && st.delivered == 0 && st.avg_delay == 0.0,
          "a missing model's figures are zero");
    fl_deflect_foreach(NULL, collect, NULL);
    fl_deflect_free(NULL);
    CHECK(fl_deflect_checkpoint(NULL, NULL, &err) == FL_EINVAL,
          "no checkpoint of no model");
    CHECK(d && fl_deflect_restore(d, NULL, &err) == FL_EINVAL, "no restore from nothing");
    fl_deflect_free(d);
    net_close(&net);
}

int main(void)
{
    test_chunks_equal_run();
    test_checkpoint_replay();
    test_views_truthful();
    test_bad_calls();
    return tap_done();
}
