/* test-routing-analysis.c — the routing analysis: the channel dependency
 * graph and its shortest cycle, connectivity, hop statistics, channel loads,
 * paths and paper 002's turn metrics.
 *
 * Most figures are checked two ways: against a hand computation on a small
 * network, and against a brute force written here that shares no code with
 * the engine (a fixpoint over the states packets can reach, a recursive
 * depth-first search for cycles and an all-pairs search for the shortest
 * one; route traces one pair at a time for hops and loads).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis-internal.h"
#include "tap.h"

static FlTopology *build(const char *spec)
{
    FlTopology *t = NULL;
    FlError err = { 0 };
    if (fl_topology_from_spec(spec, &t, &err)) {
        CHECK(0, "build %s: %s", spec, err.message);
        return NULL;
    }
    return t;
}

static FlRouting *make(const FlTopology *t, const char *name, const FlRoutingOptions *opt)
{
    FlRouting *r = NULL;
    FlError err = { 0 };
    if (fl_routing_new(t, name, opt, &r, &err)) {
        CHECK(0, "%s on %s: %s", name, fl_topology_spec(t), err.message);
        return NULL;
    }
    return r;
}

static int analyze(const FlRouting *r, FlRoutingReport *rep)
{
    FlError err = { 0 };
    int rc = fl_routing_analyze(r, rep, &err);
    if (rc)
        CHECK(0, "analyze %s: %s", fl_routing_get_info(r)->name, err.message);
    return rc;
}

/* Whether next() at switch sw, arrived on channel c in class k, offers
 * (c2, k2) for some destination. */
static int dependency_allowed(const FlRouting *r, int c, int k, int c2, int k2)
{
    const FlTopology *t = fl_routing_topology(r);
    int sw = fl_topology_channel_dst(t, c);
    FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
    for (int i = 0; i < fl_topology_switch_count(t); i++) {
        int n = fl_routing_next(r, sw, c, k, fl_topology_switch_node(t, i), ch,
                                FL_ROUTE_MAX_CHOICES);
        for (int j = 0; j < n; j++)
            if (ch[j].channel == c2 && ch[j].vc_class == k2)
                return 1;
    }
    return 0;
}

/* A cycle the report gives must be one: each channel ends where the next
 * begins, each step is a dependency next() allows, and no state repeats. */
static void check_cycle_is_real(const FlRouting *r, const FlRoutingReport *rep,
                                const char *what)
{
    const FlTopology *t = fl_routing_topology(r);
    int joined = 1, allowed = 1, distinct = 1;
    for (int i = 0; i < rep->cycle_len; i++) {
        int j = (i + 1) % rep->cycle_len;
        int c = rep->cycle_channels[i], c2 = rep->cycle_channels[j];
        if (fl_topology_channel_dst(t, c) != fl_topology_channel_src(t, c2))
            joined = 0;
        else if (!dependency_allowed(r, c, rep->cycle_classes[i], c2, rep->cycle_classes[j]))
            allowed = 0;
        for (int k = 0; k < i; k++)
            if (rep->cycle_channels[k] == c && rep->cycle_classes[k] == rep->cycle_classes[i])
                distinct = 0;
    }
    CHECK(joined, "%s: each cycle channel ends where the next begins", what);
    CHECK(allowed, "%s: each step of the cycle is a dependency next() allows", what);
    CHECK(distinct, "%s: no (channel, class) repeats in the cycle", what);
}

/* ---- the cases the issue names ----------------------------------------- */

static void test_ring_shortest(void)
{
    FlTopology *t = build("ring:8");
    FlRouting *r = t ? make(t, "shortest", NULL) : NULL;
    FlRoutingReport rep;
    if (!r || analyze(r, &rep))
        goto done;
    CHECK(!rep.deadlock_free, "shortest on ring:8 has a CDG cycle");
    CHECK_INT(rep.cycle_len, 8);
    check_cycle_is_real(r, &rep, "shortest on ring:8");
    CHECK(rep.connected, "shortest on ring:8 is connected");
    fl_routing_report_clear(&rep);
    CHECK(rep.cycle_channels == NULL && rep.cycle_len == 0, "report_clear empties the report");
done:
    fl_routing_free(r);
    fl_topology_free(t);
}

static void test_dor_torus_and_mesh(void)
{
    FlTopology *torus = build("torus:8x8"), *mesh = build("mesh:8x8");
    if (!torus || !mesh)
        goto done;
    FlRoutingReport rep;
    FlRouting *r = make(torus, "dor", NULL);
    if (r && !analyze(r, &rep)) {
        CHECK_INT(fl_routing_vc_classes(r), 2);
        CHECK(rep.deadlock_free && rep.cycle_len == 0,
              "dor on torus:8x8 with its dateline has no CDG cycle");
        fl_routing_report_clear(&rep);
    }
    fl_routing_free(r);

    FlRoutingOptions one = { .root = -1, .vc_classes = 1 };
    r = make(torus, "dor", &one);
    if (r && !analyze(r, &rep)) {
        CHECK(!rep.deadlock_free, "dor on torus:8x8 with one VC class has a CDG cycle");
        CHECK_INT(rep.cycle_len, 8);
        check_cycle_is_real(r, &rep, "dor on torus:8x8, one class");
        fl_routing_report_clear(&rep);
    }
    fl_routing_free(r);

    r = make(mesh, "dor", NULL);
    if (r && !analyze(r, &rep)) {
        CHECK(rep.deadlock_free, "dor on mesh:8x8 has no CDG cycle");
        fl_routing_report_clear(&rep);
    }
    fl_routing_free(r);

    /* West-first defines no turn predicate of its own: the prohibited turns
     * are derived from next() as the turns no route takes, and must be
     * exactly Glass and Ni's, the turns from north or south (ports 2, 3)
     * to west (port 1). */
    r = make(mesh, "west-first", NULL);
    if (r) {
        int wrong = 0, turns = 0;
        for (int sw = 0; sw < 64; sw++)
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++) {
                    if (a == b || fl_topology_port_link(mesh, sw, a) < 0
                        || fl_topology_port_link(mesh, sw, b) < 0)
                        continue;
                    turns++;
                    wrong += fl_routing_turn_prohibited(r, sw, a, b) != (a >= 2 && b == 1);
                }
        CHECK(wrong == 0 && turns > 0,
              "west-first on mesh:8x8: the turns derived from next() are the turns into "
              "west from north or south (%d of %d turns wrong)", wrong, turns);
    }
    fl_routing_free(r);
done:
    fl_topology_free(torus);
    fl_topology_free(mesh);
}

static void test_disconnected(void)
{
    /* Switch 2 is the cut of line:5: prohibiting both of its turns leaves
     * the two halves unable to reach each other. */
    FlTopology *t = build("line:5");
    FlTurn cut[] = { { 2, 0, 1 }, { 2, 1, 0 } };
    FlRoutingOptions opt = { .root = -1, .prohibited = cut, .n_prohibited = 2 };
    FlRouting *r = t ? make(t, "turnset", &opt) : NULL;
    FlRoutingReport rep;
    if (!r || analyze(r, &rep))
        goto done;
    CHECK(!rep.connected, "turnset cutting line:5 at switch 2 is not connected");
    CHECK(rep.unroutable_src == 0 && rep.unroutable_dst == 3,
          "the first unroutable pair is 0 -> 3 (got %d -> %d)", rep.unroutable_src,
          rep.unroutable_dst);
    CHECK(rep.deadlock_free, "a line has no CDG cycle");
    CHECK_NEAR(rep.pt_mean, 2.0 / 5, 1e-12);
    CHECK_INT(rep.ppt, 1);
    fl_routing_report_clear(&rep);

    FlError err = { 0 };
    int *path = NULL, n = -1;
    int rc = fl_routing_path(r, 0, 4, FL_SELECT_LOWEST_PORT, NULL, &path, &n, &err);
    CHECK(rc == FL_EDISCONNECTED && strstr(err.message, "switch 0")
              && strstr(err.message, "switch 4"),
          "path 0 -> 4 across the cut: FL_EDISCONNECTED naming the pair (%s)", err.message);
    int *paths = NULL, *offsets = NULL, npaths = 0, truncated = 0;
    rc = fl_routing_all_paths(r, 4, 0, 10, &paths, &offsets, &npaths, &truncated, &err);
    CHECK(rc == FL_EDISCONNECTED, "all paths 4 -> 0 across the cut: FL_EDISCONNECTED (%s)",
          err.message);
    rc = fl_routing_path(r, 0, 1, FL_SELECT_LOWEST_PORT, NULL, &path, &n, &err);
    CHECK(rc == FL_OK && n == 1, "path 0 -> 1 on its side of the cut is one hop");
    free(path);
done:
    fl_routing_free(r);
    fl_topology_free(t);
}

static void test_updown_turn_metrics(void)
{
    FlTopology *t = build("torus:8x8");
    FlRouting *r = t ? make(t, "updown", NULL) : NULL;
    FlRoutingReport rep;
    if (!r || analyze(r, &rep))
        goto done;
    CHECK_NEAR(rep.pt_mean, 2.500, 0.0005);
    CHECK_NEAR(rep.pt_sd, 2.264, 0.0005);
    CHECK_INT(rep.ppt, 80);
    CHECK(rep.connected && rep.deadlock_free, "updown on torus:8x8 is connected and "
                                              "deadlock-free");
    fl_routing_report_clear(&rep);
done:
    fl_routing_free(r);
    fl_topology_free(t);
}

/* One switch alone: nothing to route, nothing to depend on, and nothing
 * divided by zero. */
static void test_single_switch(void)
{
    FlTopology *t = fl_topology_new();
    int id;
    FlRouting *r = NULL;
    FlRoutingReport rep;
    if (!t || fl_topology_add_node(t, FL_NODE_SWITCH, 4, &id, NULL))
        goto done;
    r = make(t, "shortest", NULL);
    if (!r || analyze(r, &rep))
        goto done;
    CHECK(rep.connected && rep.deadlock_free && rep.avg_hops == 0 && rep.max_hops == 0
              && rep.stretch == 1 && rep.max_channel_load == 0 && rep.throughput_bound == 0
              && rep.pt_mean == 0,
          "a single switch: connected, deadlock-free, no hops, no load");
    fl_routing_report_clear(&rep);
done:
    fl_routing_free(r);
    fl_topology_free(t);
}

/* ---- hops and loads ---------------------------------------------------- */

/* Minimal routings: hop statistics equal breadth-first search, which
 * topo metrics computes on its own. */
static void test_minimal_hops(void)
{
    static const struct {
        const char *spec, *routing;
    } cases[] = {
        { "ring:7", "shortest" },   { "mesh:5x4", "dor" },     { "torus:6x5", "dor" },
        { "hypercube:4", "dor" },   { "mesh:3x3x3", "dor" },   { "mesh:6x6", "west-first" },
        { "mesh:6x6", "odd-even" }, { "irregular:24,ports=3", "shortest" },
        { "xmesh:8x8", "xmesh" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FlTopology *t = build(cases[i].spec);
        FlRouting *r = t ? make(t, cases[i].routing, NULL) : NULL;
        FlRoutingReport rep;
        FlMetrics m = { 0 };
        FlError err = { 0 };
        if (!r || analyze(r, &rep))
            goto next;
        if (fl_metrics_compute(t, NULL, &m, &err) == FL_OK) {
            CHECK(fabs(rep.avg_hops - m.mean_distance) < 1e-9
                      && fabs(rep.bfs_avg_hops - m.mean_distance) < 1e-9
                      && rep.max_hops == m.diameter && fabs(rep.stretch - 1) < 1e-12,
                  "%s on %s: avg %.4f, bfs %.4f, max %d equal the mean distance %.4f "
                  "and diameter %d",
                  cases[i].routing, cases[i].spec, rep.avg_hops, rep.bfs_avg_hops,
                  rep.max_hops, m.mean_distance, m.diameter);
            fl_metrics_clear(&m);
        }
        fl_routing_report_clear(&rep);
    next:
        fl_routing_free(r);
        fl_topology_free(t);
    }
}

/* Hand computations: on line:4 the channel 1 -> 2 carries the 2 x 2 pairs
 * across it and the end channels 3 each; on ring:8 a + channel carries
 * 1 + 2 + 3 + 4 pairs (the antipodes go the + way, port 0 being the
 * lowest), a - channel 1 + 2 + 3; on ring:5 every channel 1 + 2. */
static void test_loads_by_hand(void)
{
    static const struct {
        const char *spec;
        double max, mean, bound;
    } cases[] = {
        { "line:4", 4, 20.0 / 6, 3.0 / 4 },
        { "ring:8", 10, 8, 7.0 / 10 },
        { "ring:5", 3, 3, 4.0 / 3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FlTopology *t = build(cases[i].spec);
        FlRouting *r = t ? make(t, "shortest", NULL) : NULL;
        FlRoutingReport rep;
        if (r && !analyze(r, &rep)) {
            CHECK(rep.max_channel_load == cases[i].max
                      && fabs(rep.mean_channel_load - cases[i].mean) < 1e-12
                      && fabs(rep.throughput_bound - cases[i].bound) < 1e-12,
                  "%s loads: max %g, mean %g, bound %g (want %g, %g, %g)", cases[i].spec,
                  rep.max_channel_load, rep.mean_channel_load, rep.throughput_bound,
                  cases[i].max, cases[i].mean, cases[i].bound);
            fl_routing_report_clear(&rep);
        }
        fl_routing_free(r);
        fl_topology_free(t);
    }
}

/* Hops and loads again, by tracing every pair's route one at a time. */
static void test_stats_by_tracing(void)
{
    static const struct {
        const char *spec, *routing;
    } cases[] = {
        { "torus:5x5", "dor" },
        { "mesh:4x4", "shortest" },
        { "irregular:16,ports=3,seed=3", "updown" },
        { "irregular:20,ports=4,seed=5", "lturn-alpha" },
        { "mesh:5x5", "negative-first" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FlTopology *t = build(cases[i].spec);
        FlRouting *r = t ? make(t, cases[i].routing, NULL) : NULL;
        FlRoutingReport rep;
        if (!r || analyze(r, &rep))
            goto next;
        int nch = fl_topology_channel_count(t), s = fl_topology_switch_count(t);
        double *load = calloc((size_t)nch, sizeof *load);
        long hops = 0, pairs = 0;
        int max_hops = 0, failed = 0;
        for (int a = 0; a < s; a++)
            for (int b = 0; b < s; b++) {
                int *path = NULL, n = 0;
                if (a == b)
                    continue;
                if (fl_routing_path(r, fl_topology_switch_node(t, a),
                                    fl_topology_switch_node(t, b), FL_SELECT_LOWEST_PORT,
                                    NULL, &path, &n, NULL)) {
                    failed++;
                    continue;
                }
                for (int k = 0; k < n; k++)
                    load[path[k]] += 1;
                hops += n;
                pairs++;
                if (n > max_hops)
                    max_hops = n;
                free(path);
            }
        double max = 0, sum = 0;
        int counted = 0;
        for (int c = 0; c < nch; c++) {
            int l = c / 2, na, nb;
            fl_topology_link_ends(t, l, &na, NULL, &nb, NULL);
            if (fl_topology_node_kind(t, na) != FL_NODE_SWITCH
                || fl_topology_node_kind(t, nb) != FL_NODE_SWITCH)
                continue;
            counted++;
            sum += load[c];
            if (load[c] > max)
                max = load[c];
        }
        CHECK(failed == 0 && fabs(rep.avg_hops - (double)hops / pairs) < 1e-9
                  && rep.max_hops == max_hops,
              "%s on %s: hop statistics match %ld traced routes", cases[i].routing,
              cases[i].spec, pairs);
        CHECK(rep.max_channel_load == max && fabs(rep.mean_channel_load - sum / counted) < 1e-9,
              "%s on %s: loads max %g mean %g match the traced %g, %g", cases[i].routing,
              cases[i].spec, rep.max_channel_load, rep.mean_channel_load, max, sum / counted);
        CHECK_NEAR(rep.throughput_bound, (s - 1) / max, 1e-12);
        free(load);
        fl_routing_report_clear(&rep);
    next:
        fl_routing_free(r);
        fl_topology_free(t);
    }
}

/* ---- the CDG by brute force -------------------------------------------- */

typedef struct Brute {
    int n;           /* states: channels * K, numbered c * K + k */
    uint8_t *adj;    /* n x n dependency matrix */
} Brute;

/* Every state reachable towards each destination, by iterating to a
 * fixpoint (no queue, no stamps), and every dependency out of them. */
static int brute_cdg(const FlRouting *r, Brute *b)
{
    const FlTopology *t = fl_routing_topology(r);
    int k = fl_routing_vc_classes(r), nch = fl_topology_channel_count(t);
    b->n = nch * k;
    b->adj = calloc((size_t)b->n * b->n, 1);
    uint8_t *reached = malloc((size_t)b->n);
    FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
    if (!b->adj || !reached) {
        free(reached);
        return -1;
    }
    for (int di = 0; di < fl_topology_switch_count(t); di++) {
        int dest = fl_topology_switch_node(t, di);
        memset(reached, 0, (size_t)b->n);
        for (int si = 0; si < fl_topology_switch_count(t); si++) {
            int n = fl_routing_next(r, fl_topology_switch_node(t, si), -1, 0, dest, ch,
                                    FL_ROUTE_MAX_CHOICES);
            for (int j = 0; j < n; j++)
                reached[ch[j].channel * k + ch[j].vc_class] = 1;
        }
        for (int changed = 1; changed;) {
            changed = 0;
            for (int s = 0; s < b->n; s++) {
                if (!reached[s])
                    continue;
                int at = fl_topology_channel_dst(t, s / k);
                int n = fl_routing_next(r, at, s / k, s % k, dest, ch, FL_ROUTE_MAX_CHOICES);
                for (int j = 0; j < n; j++) {
                    int s2 = ch[j].channel * k + ch[j].vc_class;
                    b->adj[(size_t)s * b->n + s2] = 1;
                    if (!reached[s2])
                        reached[s2] = changed = 1;
                }
            }
        }
    }
    free(reached);
    return 0;
}

/* Recursive depth-first search with three colours: small graphs only. */
static int dfs_finds_cycle(const Brute *b, int v, uint8_t *colour)
{
    colour[v] = 1;
    for (int u = 0; u < b->n; u++) {
        if (!b->adj[(size_t)v * b->n + u])
            continue;
        if (colour[u] == 1 || (colour[u] == 0 && dfs_finds_cycle(b, u, colour)))
            return 1;
    }
    colour[v] = 2;
    return 0;
}

/* The shortest cycle: a breadth-first search from every vertex back to it. */
static int brute_girth(const Brute *b)
{
    int best = 0;
    int *dist = malloc(sizeof *dist * (size_t)b->n), *queue = malloc(sizeof *queue * (size_t)b->n);
    for (int v = 0; v < b->n; v++) {
        for (int u = 0; u < b->n; u++)
            dist[u] = -1;
        int head = 0, tail = 0;
        dist[v] = 0;
        queue[tail++] = v;
        while (head < tail) {
            int u = queue[head++];
            for (int x = 0; x < b->n; x++) {
                if (!b->adj[(size_t)u * b->n + x])
                    continue;
                if (x == v && (best == 0 || dist[u] + 1 < best))
                    best = dist[u] + 1;
                if (dist[x] < 0) {
                    dist[x] = dist[u] + 1;
                    queue[tail++] = x;
                }
            }
        }
    }
    free(dist);
    free(queue);
    return best;
}

static void compare_with_brute_force(const FlRouting *r, const char *what)
{
    FlRoutingReport rep;
    Brute b = { 0 };
    if (analyze(r, &rep))
        return;
    if (brute_cdg(r, &b) == 0) {
        uint8_t *colour = calloc((size_t)b.n, 1);
        int cyclic = 0;
        for (int v = 0; v < b.n && !cyclic; v++)
            if (!colour[v])
                cyclic = dfs_finds_cycle(&b, v, colour);
        free(colour);
        int girth = cyclic ? brute_girth(&b) : 0;
        CHECK(rep.deadlock_free == !cyclic && rep.cycle_len == girth,
              "%s: deadlock-free %d, shortest cycle %d; brute force: %d, %d", what,
              rep.deadlock_free, rep.cycle_len, !cyclic, girth);
        if (cyclic)
            check_cycle_is_real(r, &rep, what);
        free(b.adj);
    }
    fl_routing_report_clear(&rep);
}

static void test_cdg_brute_force(void)
{
    static const struct {
        const char *spec, *routing;
        int vcs;
    } cases[] = {
        { "ring:6", "shortest", 0 },     { "ring:5", "shortest", 0 },
        { "torus:4x4", "dor", 0 },       { "torus:4x4", "dor", 1 },
        { "torus:3x5", "dor", 0 },       { "torus:3x5", "dor", 1 },
        { "torus:4x3", "dor", 3 },       { "ring:6", "dor", 0 },
        { "mesh:4x4", "dor", 0 },        { "mesh:4x4", "shortest", 0 },
        { "hypercube:3", "dor", 0 },     { "hypercube:3", "shortest", 0 },
        { "irregular:10,ports=3", "updown", 0 },
        { "irregular:10,ports=3", "shortest", 0 },
        { "mesh:4x4", "west-first", 0 }, { "mesh:4x4", "odd-even", 0 },
        { "xmesh:4x4", "xmesh", 0 },     { "irregular:12,ports=4,seed=9", "rturn-beta", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FlTopology *t = build(cases[i].spec);
        FlRoutingOptions opt = { .root = -1, .vc_classes = cases[i].vcs };
        FlRouting *r = t ? make(t, cases[i].routing, &opt) : NULL;
        char what[128];
        snprintf(what, sizeof what, "%s on %s, %d classes", cases[i].routing, cases[i].spec,
                 r ? fl_routing_vc_classes(r) : 0);
        if (r)
            compare_with_brute_force(r, what);
        fl_routing_free(r);
        fl_topology_free(t);
    }

    /* Random turn sets on small meshes and tori: cycles of every length
     * come and go, and some leave pairs unroutable. */
    FlRng rng;
    fl_rng_seed(&rng, 2024);
    const char *specs[] = { "mesh:3x3", "torus:3x3", "mesh:4x3" };
    for (int round = 0; round < 24; round++) {
        FlTopology *t = build(specs[round % 3]);
        if (!t)
            continue;
        FlTurn turns[512];
        int n = 0;
        for (int sw = 0; sw < fl_topology_switch_count(t); sw++)
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++)
                    if (a != b && fl_topology_port_link(t, sw, a) >= 0
                        && fl_topology_port_link(t, sw, b) >= 0
                        && fl_rng_below(&rng, 100) < (uint32_t)(10 + 2 * round))
                        turns[n++] = (FlTurn){ sw, a, b };
        FlRoutingOptions opt = { .root = -1, .prohibited = turns, .n_prohibited = n };
        FlRouting *r = make(t, "turnset", &opt);
        char what[128];
        snprintf(what, sizeof what, "turnset of %d random turns on %s", n, specs[round % 3]);
        if (r)
            compare_with_brute_force(r, what);
        fl_routing_free(r);
        fl_topology_free(t);
    }
}

/* ---- the fast paths against the walks and the brute force ------------- */

/* fl_routing_analyze() reads a table routing's statistics off its table,
 * skips the dependency graph when its allowed turns have no cycle, and lets
 * the statistics mark the dependencies of a routing with one choice per
 * state; the walks it spares work for any routing (and are checked above
 * against traced routes and the brute force), so the reports must be the
 * same to the last bit. */
static void compare_with_walks(const FlRouting *r, const char *what)
{
    FlRoutingReport fast, walk;
    FlError err = { 0 };
    if (analyze(r, &fast))
        return;
    memset(&walk, 0, sizeof walk);
    int rc = fl__route_stats_walk(r, &walk, &err);
    if (!rc)
        rc = fl__cdg_check_walk(r, &walk, &err);
    CHECK(rc == FL_OK, "%s: the walks run (%s)", what, rc ? err.message : "");
    int same = rc == FL_OK && fast.connected == walk.connected
               && fast.unroutable_src == walk.unroutable_src
               && fast.unroutable_dst == walk.unroutable_dst && fast.avg_hops == walk.avg_hops
               && fast.bfs_avg_hops == walk.bfs_avg_hops && fast.stretch == walk.stretch
               && fast.max_hops == walk.max_hops
               && fast.max_channel_load == walk.max_channel_load
               && fast.mean_channel_load == walk.mean_channel_load
               && fast.throughput_bound == walk.throughput_bound
               && fast.deadlock_free == walk.deadlock_free && fast.cycle_len == walk.cycle_len;
    for (int i = 0; same && i < fast.cycle_len; i++)
        same = fast.cycle_channels[i] == walk.cycle_channels[i]
               && fast.cycle_classes[i] == walk.cycle_classes[i];
    CHECK(same,
          "%s: the report is the walks' (hops %.9f / %.9f, max load %g / %g, deadlock-free "
          "%d / %d, cycle %d / %d)",
          what, fast.avg_hops, walk.avg_hops, fast.max_channel_load, walk.max_channel_load,
          fast.deadlock_free, walk.deadlock_free, fast.cycle_len, walk.cycle_len);

    /* Both add the breadth-first distances up the same way; trace every
     * pair and search from every switch instead. */
    const FlTopology *t = fl_routing_topology(r);
    int ns = fl_topology_switch_count(t);
    int *dist = malloc(sizeof *dist * (size_t)ns);
    long pairs = 0, hops = 0, bfs = 0;
    for (int a = 0; dist && a < ns; a++) {
        fl_topology_bfs(t, a, dist, NULL);
        for (int b = 0; b < ns; b++) {
            int *path = NULL, n = 0;
            if (a == b
                || fl_routing_path(r, fl_topology_switch_node(t, a),
                                   fl_topology_switch_node(t, b), FL_SELECT_LOWEST_PORT, NULL,
                                   &path, &n, NULL))
                continue;
            pairs++;
            hops += n;
            bfs += dist[b];
            free(path);
        }
    }
    free(dist);
    CHECK(pairs && fast.avg_hops == (double)hops / (double)pairs
              && fast.bfs_avg_hops == (double)bfs / (double)pairs
              && fast.connected == (pairs == (long)ns * (ns - 1)),
          "%s: %ld routable pairs of %.6f hops and %.6f breadth-first (report: %.6f, %.6f)",
          what, pairs, pairs ? (double)hops / (double)pairs : 0.0,
          pairs ? (double)bfs / (double)pairs : 0.0, fast.avg_hops, fast.bfs_avg_hops);
    fl_routing_report_clear(&fast);
    fl_routing_report_clear(&walk);
}

/* The channel leaving node n by port p (-1: none), and whether it joins two
 * switches. */
static int out_channel(const FlTopology *t, int n, int p)
{
    int l = fl_topology_port_link(t, n, p), a, pa;
    if (l < 0)
        return -1;
    fl_topology_link_ends(t, l, &a, &pa, NULL, NULL);
    return a == n && pa == p ? 2 * l : 2 * l + 1;
}

static int switch_channel(const FlTopology *t, int c)
{
    return c >= 0 && fl_topology_node_kind(t, fl_topology_channel_src(t, c)) == FL_NODE_SWITCH
           && fl_topology_node_kind(t, fl_topology_channel_dst(t, c)) == FL_NODE_SWITCH;
}

/* The L-turn and R-turn turn sets of route-lrturn.c's reading of paper 002,
 * by the plainest search: every start channel marks everything it reaches,
 * and then the turns closing a cycle are prohibited. */
typedef struct LrRule {
    const char *name;
    const char *always[3][2];
    const char *cond[2][2];
} LrRule;

static const LrRule lr_rules[] = {
    { "lturn-alpha", { { "LD", "LU" }, { "RU", "LU" }, { "RD", "LU" } },
      { { "LD", "RD" }, { "LD", "RU" } } },
    { "lturn-beta", { { "LD", "LU" }, { "RU", "LU" }, { "RD", "LU" } },
      { { "RU", "RD" }, { "RU", "LD" } } },
    { "rturn-alpha", { { "RD", "RU" }, { "RD", "LD" }, { "RD", "LU" } },
      { { "LU", "RU" }, { "LD", "RU" } } },
    { "rturn-beta", { { "RD", "RU" }, { "RD", "LD" }, { "RD", "LU" } },
      { { "LU", "LD" }, { "RU", "LD" } } },
};

/* The direction label of a switch channel, "" otherwise. */
static const char *direction(const FlRouting *r, int c)
{
    const char *d = c >= 0 && switch_channel(fl_routing_topology(r), c)
                        ? fl_routing_channel_label(r, c)
                        : NULL;
    return d ? d : "";
}

static void compare_lrturn_search(const FlRouting *r, const LrRule *rule, const char *what)
{
    const FlTopology *t = fl_routing_topology(r);
    int nn = fl_topology_node_count(t), s = fl_topology_switch_count(t), P = 0;
    int nch = fl_topology_channel_count(t);
    for (int n = 0; n < nn; n++)
        if (fl_topology_node_ports(t, n) > P)
            P = fl_topology_node_ports(t, n);
    uint8_t *banned = calloc((size_t)nn * P * P + 1, 1);
    uint8_t *seen = malloc((size_t)nch + 1);
    int *stack = malloc(sizeof *stack * ((size_t)nch + 1));
    int *by_h = malloc(sizeof *by_h * ((size_t)s + 1));
#define BANNED(n, a, b) banned[((size_t)(n) * P + (a)) * P + (b)]
    for (int i = 0; i < s; i++) {
        int sw = fl_topology_switch_node(t, i), h = 0;
        fl_routing_hv_coords(r, sw, &h, NULL);
        by_h[h] = sw;
        for (int a = 0; a < P; a++)
            for (int b = 0; b < P; b++) {
                int ca = a < fl_topology_node_ports(t, sw) ? out_channel(t, sw, a) : -1;
                int cb = b < fl_topology_node_ports(t, sw) ? out_channel(t, sw, b) : -1;
                for (int k = 0; a != b && ca >= 0 && cb >= 0 && k < 3; k++)
                    if (!strcmp(direction(r, ca ^ 1), rule->always[k][0])
                        && !strcmp(direction(r, cb), rule->always[k][1]))
                        BANNED(sw, a, b) = 1;
            }
    }
    for (int i = 0; i < s; i++) {
        int x = by_h[i], np = fl_topology_node_ports(t, x);
        for (int k = 0; k < 2; k++) {
            const char *in = rule->cond[k][0], *out = rule->cond[k][1];
            for (int po = 0; po < np; po++) {
                int e0 = out_channel(t, x, po);
                if (e0 < 0 || strcmp(direction(r, e0), out))
                    continue;
                memset(seen, 0, (size_t)nch);
                int top = 0;
                seen[e0] = 1;
                stack[top++] = e0;
                while (top > 0) {
                    int c = stack[--top], sw = fl_topology_channel_dst(t, c), pi = 0;
                    while (out_channel(t, sw, pi) != (c ^ 1))
                        pi++;
                    for (int p = 0; p < fl_topology_node_ports(t, sw); p++) {
                        int c2 = out_channel(t, sw, p);
                        if (p != pi && switch_channel(t, c2) && !BANNED(sw, pi, p)
                            && !seen[c2]) {
                            seen[c2] = 1;
                            stack[top++] = c2;
                        }
                    }
                }
                for (int pi = 0; pi < np; pi++) {
                    int c = out_channel(t, x, pi);
                    if (pi != po && c >= 0 && seen[c ^ 1] && !strcmp(direction(r, c ^ 1), in))
                        BANNED(x, pi, po) = 1;
                }
            }
        }
    }
    int differ = 0, count = 0;
    for (int i = 0; i < s; i++) {
        int sw = fl_topology_switch_node(t, i), np = fl_topology_node_ports(t, sw);
        for (int a = 0; a < np; a++)
            for (int b = 0; b < np; b++) {
                if (a == b || !switch_channel(t, out_channel(t, sw, a))
                    || !switch_channel(t, out_channel(t, sw, b)))
                    continue;
                count += BANNED(sw, a, b);
                differ += BANNED(sw, a, b) != fl_routing_turn_prohibited(r, sw, a, b);
            }
    }
#undef BANNED
    CHECK(differ == 0, "%s: the %d prohibited turns are the plain search's (%d differ)", what,
          count, differ);
    free(banned);
    free(seen);
    free(stack);
    free(by_h);
}

static void test_fast_paths(void)
{
    static const char *const tables[] = { "updown",      "lturn-alpha", "lturn-beta",
                                          "rturn-alpha", "rturn-beta",  "shortest" };
    FlRng rng;
    fl_rng_seed(&rng, 15);
    for (int round = 0; round < 24; round++) {
        int n = 6 + (int)fl_rng_below(&rng, 40), ports = 2 + (int)fl_rng_below(&rng, 5);
        if (ports > n - 1)
            ports = n - 1;
        char spec[96];
        snprintf(spec, sizeof spec, "irregular:%d,ports=%d,hosts=%u,seed=%d", n, ports,
                 fl_rng_below(&rng, 3), round + 1);
        FlTopology *t = build(spec);
        if (!t)
            continue;
        for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
            FlRouting *r = make(t, tables[i], NULL);
            char what[160];
            snprintf(what, sizeof what, "%s on %s", tables[i], spec);
            if (!r)
                continue;
            compare_with_walks(r, what);
            compare_with_brute_force(r, what);
            for (size_t k = 0; k < sizeof lr_rules / sizeof lr_rules[0]; k++)
                if (!strcmp(lr_rules[k].name, tables[i]))
                    compare_lrturn_search(r, &lr_rules[k], what);
            fl_routing_free(r);
        }
        /* A random turn set: cycles, and pairs left unroutable. */
        FlTurn turns[2048];
        int nt = 0;
        for (int i = 0; i < fl_topology_switch_count(t); i++) {
            int sw = fl_topology_switch_node(t, i), np = fl_topology_node_ports(t, sw);
            for (int a = 0; a < np; a++)
                for (int b = 0; b < np && nt < 2048; b++)
                    if (a != b && switch_channel(t, out_channel(t, sw, a))
                        && switch_channel(t, out_channel(t, sw, b))
                        && fl_rng_below(&rng, 100) < (uint32_t)(5 + round))
                        turns[nt++] = (FlTurn){ sw, a, b };
        }
        FlRoutingOptions opt = { .root = -1, .prohibited = turns, .n_prohibited = nt };
        FlRouting *r = make(t, "turnset", &opt);
        char what[160];
        snprintf(what, sizeof what, "turnset of %d random turns on %s", nt, spec);
        if (r) {
            compare_with_walks(r, what);
            compare_with_brute_force(r, what);
        }
        fl_routing_free(r);
        fl_topology_free(t);
    }
    /* A hub with a port to some of the switches of a ring: its many ports
     * would pad every channel's continuations to as many, so the
     * statistics read the table's own lists instead. */
    FlTopology *hub = fl_topology_new();
    int ring[40], centre;
    fl_topology_add_node(hub, FL_NODE_SWITCH, 40, &centre, NULL);
    for (int i = 0; i < 40; i++)
        fl_topology_add_node(hub, FL_NODE_SWITCH, 3, &ring[i], NULL);
    for (int i = 0; i < 40; i++) {
        fl_topology_connect(hub, ring[i], -1, ring[(i + 1) % 40], -1, NULL, NULL);
        if (i * i % 7 < 3)
            fl_topology_connect(hub, centre, -1, ring[i], -1, NULL, NULL);
    }
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        FlRouting *r = make(hub, tables[i], NULL);
        char what[160];
        snprintf(what, sizeof what, "%s on a hub over a ring", tables[i]);
        if (r) {
            compare_with_walks(r, what);
            compare_with_brute_force(r, what);
        }
        fl_routing_free(r);
    }
    fl_topology_free(hub);
    /* One choice per state: the statistics mark the whole graph. */
    static const char *const one_choice[][2] = {
        { "torus:4x4", "dor" }, { "torus:5x3", "dor" },          { "mesh:4x5", "dor" },
        { "ring:7", "dor" },    { "myrinet-mesh:3x3", "myrinet-dor" }, { "mesh:5x5", "odd-even" },
    };
    for (size_t i = 0; i < sizeof one_choice / sizeof one_choice[0]; i++)
        for (int vcs = 0; vcs < 2; vcs++) {
            FlTopology *t = build(one_choice[i][0]);
            FlRoutingOptions opt = { .root = -1, .vc_classes = vcs };
            FlRouting *r = t ? make(t, one_choice[i][1], &opt) : NULL;
            char what[160];
            snprintf(what, sizeof what, "%s on %s, %d classes", one_choice[i][1],
                     one_choice[i][0], vcs);
            if (r) {
                compare_with_walks(r, what);
                compare_with_brute_force(r, what);
            }
            fl_routing_free(r);
            fl_topology_free(t);
        }
}

/* ---- paths ------------------------------------------------------------- */

/* A path from a to b: consecutive channels, starting at a, ending at b. */
static int path_ok(const FlTopology *t, const int *path, int n, int a, int b)
{
    int at = a;
    for (int i = 0; i < n; i++) {
        if (fl_topology_channel_src(t, path[i]) != at)
            return 0;
        at = fl_topology_channel_dst(t, path[i]);
    }
    return at == b;
}

static void test_paths(void)
{
    FlTopology *t = build("mesh:4x4");
    FlRouting *r = t ? make(t, "shortest", NULL) : NULL;
    FlRouting *dor = t ? make(t, "dor", NULL) : NULL;
    if (!r || !dor)
        goto done;
    FlError err = { 0 };
    int *chosen = NULL, nchosen = 0;
    int rc = fl_routing_path(r, 0, 15, FL_SELECT_LOWEST_PORT, NULL, &chosen, &nchosen, &err);
    CHECK(rc == FL_OK && nchosen == 6 && path_ok(t, chosen, nchosen, 0, 15),
          "the selected route 0 -> 15 on mesh:4x4 is 6 hops long");

    int *paths = NULL, *offsets = NULL, npaths = 0, truncated = -1;
    rc = fl_routing_all_paths(r, 0, 15, 100, &paths, &offsets, &npaths, &truncated, &err);
    CHECK(rc == FL_OK && npaths == 20 && truncated == 0,
          "all shortest paths 0 -> 15: C(6,3) = 20 (got %d, truncated %d)", npaths, truncated);
    int valid = 1, distinct = 1, has_chosen = 0;
    for (int i = 0; rc == FL_OK && i < npaths; i++) {
        int len = offsets[i + 1] - offsets[i];
        valid &= len == 6 && path_ok(t, paths + offsets[i], len, 0, 15);
        has_chosen |= len == nchosen && !memcmp(paths + offsets[i], chosen, sizeof(int) * 6);
        for (int j = 0; j < i; j++)
            distinct &= memcmp(paths + offsets[i], paths + offsets[j], sizeof(int) * 6) != 0;
    }
    CHECK(valid && distinct && has_chosen,
          "the 20 paths are valid, distinct, and include the selected one");
    free(paths);
    free(offsets);

    rc = fl_routing_all_paths(r, 0, 15, 5, &paths, &offsets, &npaths, &truncated, &err);
    CHECK(rc == FL_OK && npaths == 5 && truncated == 1, "capped at 5 paths, truncated is set");
    free(paths);
    free(offsets);
    rc = fl_routing_all_paths(r, 0, 15, 20, &paths, &offsets, &npaths, &truncated, &err);
    CHECK(rc == FL_OK && npaths == 20 && truncated == 0,
          "capped at exactly 20 paths, truncated is clear");
    free(paths);
    free(offsets);

    rc = fl_routing_all_paths(dor, 0, 15, 100, &paths, &offsets, &npaths, &truncated, &err);
    CHECK(rc == FL_OK && npaths == 1 && offsets[1] == 6
              && !memcmp(paths, chosen, sizeof(int) * 6),
          "dor allows one path 0 -> 15, the one shortest selects");
    free(paths);
    free(offsets);

    rc = fl_routing_all_paths(r, 5, 5, 10, &paths, &offsets, &npaths, &truncated, &err);
    CHECK(rc == FL_OK && npaths == 1 && offsets[1] == 0, "from a switch to itself: one "
                                                         "empty path");
    free(paths);
    free(offsets);

    FlRng rng;
    fl_rng_seed(&rng, 7);
    int random_ok = 1;
    for (int i = 0; i < 20; i++) {
        int *p = NULL, n = 0;
        rc = fl_routing_path(r, 0, 15, FL_SELECT_RANDOM, &rng, &p, &n, &err);
        random_ok &= rc == FL_OK && n == 6 && path_ok(t, p, n, 0, 15);
        free(p);
    }
    CHECK(random_ok, "random selections 0 -> 15 are shortest paths");

    int *p = NULL, n = 0;
    rc = fl_routing_path(r, 0, 16, FL_SELECT_LOWEST_PORT, NULL, &p, &n, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "16 is a host"),
          "node 16 (a host) as destination: FL_ERANGE (%s)", err.message);
    rc = fl_routing_all_paths(r, 99, 0, 10, &paths, &offsets, &npaths, &truncated, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "99"), "node 99 out of range: FL_ERANGE (%s)",
          err.message);
    rc = fl_routing_all_paths(r, 0, 1, 0, &paths, &offsets, &npaths, &truncated, &err);
    CHECK(rc == FL_ERANGE, "max_paths 0 is refused");
    free(chosen);
done:
    fl_routing_free(r);
    fl_routing_free(dor);
    fl_topology_free(t);
}

/* ---- how long the CDG check takes -------------------------------------- */

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void time_cdg(const char *spec, const char *routing)
{
    FlTopology *t = build(spec);
    FlRouting *r = t ? make(t, routing, NULL) : NULL;
    if (!r)
        goto done;
    FlRoutingReport rep;
    memset(&rep, 0, sizeof rep);
    FlError err = { 0 };
    double t0 = cpu_seconds();
    int rc = fl__cdg_check(r, &rep, &err);
    double t1 = cpu_seconds();
    CHECK(rc == FL_OK && rep.deadlock_free, "%s on %s is deadlock-free", routing, spec);
    printf("# CDG check of %s on %s: %.3f s of CPU\n", routing, spec, t1 - t0);
    fl_routing_report_clear(&rep);
done:
    fl_routing_free(r);
    fl_topology_free(t);
}

int main(void)
{
    test_ring_shortest();
    test_dor_torus_and_mesh();
    test_disconnected();
    test_updown_turn_metrics();
    test_single_switch();
    test_minimal_hops();
    test_loads_by_hand();
    test_stats_by_tracing();
    test_cdg_brute_force();
    test_fast_paths();
    test_paths();
    time_cdg("mesh:64x64", "dor");
    time_cdg("torus:32x32", "dor");
    time_cdg("irregular:64,ports=4,hosts=4", "updown");
    return tap_done();
}
