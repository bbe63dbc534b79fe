/* test-metrics.c — counts, distances, the throughput bound and the bisection
 * width, checked against a breadth-first search written here over the public
 * API, against closed forms, against the published tables of paper 003, and
 * against a brute-force bisection.
 *
 * Where paper 003 and a breadth-first search disagree, the search wins and
 * the test says so:
 *  - Table 1 holds on every size tried: XMESH w x w (w even, 4..40) diameter
 *    w/2 + 2, mean distance and eq. 6's N(k); TMESH (w even) and DMESH (w odd,
 *    3..41) diameter and mean. The generators refuse the smaller sizes.
 *  - Table 3's DMESH bound 4w is below the switch bound w^2 only from w = 5:
 *    at w = 3 the bound min(N, L/d) is N = 9.
 *  - Table 2 lists a 35x35 DMESH diameter of 35; it is 34 (= w - 1, as
 *    Table 1 says). The other entries of Table 2 hold.
 *  - Table 4 gives the 36x72 XMESH mean distance as 19.86; it is 19.88
 *    (51520 hops from each switch over 2591 others). Its TMESH and DMESH
 *    columns are swapped (see the papers' digest): the 35x71 torus has
 *    diameter 52 and mean 26.50, the 35x71 DMESH 35 and 23.50.
 *  - XMESH bisection: the exhaustive search finds paper 003's min(4n, 2k) on
 *    every size it reaches, so bisection.c uses it above the exhaustive
 *    limit. The DMESH formula min(4n, 4k) fails: dmesh:5x5 has width 12.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab.h"
/* White box, for the partitions behind the widths: METIS's must be
 * balanced, and the branch and bound must match a brute-force search. */
#include "metrics-internal.h"
#include "tap.h"

/* --- helpers -------------------------------------------------------------- */

static FlTopology *from_spec(const char *spec)
{
    FlTopology *t = NULL;
    FlError err = { 0 };
    if (fl_topology_from_spec(spec, &t, &err) != FL_OK) {
        CHECK(0, "%s builds: %s", spec, err.message);
        return NULL;
    }
    return t;
}

/* Metrics with an exhaustive limit (0 = default); aborts the test on error
 * so that later checks never read an unset result. */
static void compute(const FlTopology *t, int exact_max, FlMetrics *m)
{
    FlMetricsOptions opt = { .exact_bisection_max = exact_max, .seed = 7 };
    FlError err = { 0 };
    int rc = fl_metrics_compute(t, &opt, m, &err);
    if (rc != FL_OK) {
        CHECK(0, "fl_metrics_compute: %s", err.message);
        exit(tap_done() | 1);
    }
}

/* A tiny deterministic generator for the random graphs below. */
static uint64_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return *s >> 33;
}

static FlTopology *switches_only(int n, int ports)
{
    FlTopology *t = fl_topology_new();
    for (int i = 0; i < n; i++)
        fl_topology_add_node(t, FL_NODE_SWITCH, ports, NULL, NULL);
    return t;
}

static void join(FlTopology *t, int a, int b)
{
    FlError err = { 0 };
    if (fl_topology_connect(t, a, -1, b, -1, NULL, &err) != FL_OK)
        CHECK(0, "link %d-%d: %s", a, b, err.message);
}

/* G(n, p) with p = num/16; parallel adds a second link to some pairs. */
static FlTopology *random_graph(int n, int num, int parallel, uint64_t *seed)
{
    FlTopology *t = switches_only(n, 2 * n);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            if ((int)(rng_next(seed) % 16) < num)
                join(t, a, b);
            if (parallel && rng_next(seed) % 8 == 0)
                join(t, a, b);
        }
    return t;
}

/* --- an independent breadth-first search over the public API ------------- */

typedef struct Reference {
    int connected, maxd;
    double mean;
    int64_t *hist;      /* S + 1 entries */
} Reference;

static void reference(const FlTopology *t, Reference *ref)
{
    int s = fl_topology_switch_count(t);
    int *dist = malloc(sizeof(int) * (size_t)(s + 1));
    int *queue = malloc(sizeof(int) * (size_t)(s + 1));
    ref->hist = calloc((size_t)s + 1, sizeof(int64_t));
    ref->connected = s > 0;
    ref->maxd = 0;
    int64_t sum = 0, pairs = 0;
    for (int src = 0; src < s; src++) {
        for (int v = 0; v < s; v++)
            dist[v] = -1;
        int head = 0, tail = 0;
        dist[src] = 0;
        queue[tail++] = src;
        while (head < tail) {
            int u = queue[head++], node = fl_topology_switch_node(t, u);
            for (int p = 0; p < fl_topology_node_ports(t, node); p++) {
                int peer = fl_topology_port_peer(t, node, p, NULL);
                if (peer < 0 || fl_topology_node_kind(t, peer) != FL_NODE_SWITCH)
                    continue;
                int v = fl_topology_node_rank(t, peer);
                if (dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    queue[tail++] = v;
                }
            }
        }
        for (int v = 0; v < s; v++) {
            if (dist[v] < 0) {
                ref->connected = 0;
                continue;
            }
            ref->hist[dist[v]]++;
            if (dist[v] > ref->maxd)
                ref->maxd = dist[v];
            if (v != src) {
                sum += dist[v];
                pairs++;
            }
        }
    }
    ref->mean = pairs ? (double)sum / (double)pairs : 0.0;
    free(queue);
    free(dist);
}

/* Every count and distance of m against the reference search. */
static void check_against_reference(const char *what, const FlTopology *t, const FlMetrics *m)
{
    Reference ref;
    reference(t, &ref);
    int dmin = 0, dmax = 0;
    for (int r = 0; r < fl_topology_switch_count(t); r++) {
        int d = fl_topology_switch_degree(t, fl_topology_switch_node(t, r));
        if (r == 0 || d < dmin)
            dmin = d;
        if (d > dmax)
            dmax = d;
    }
    int hist_ok = m->histogram_len == (fl_topology_switch_count(t) ? ref.maxd + 1 : 0);
    for (int k = 0; hist_ok && k < m->histogram_len; k++)
        hist_ok = m->distance_histogram[k] == ref.hist[k];
    CHECK(m->switches == fl_topology_switch_count(t) && m->hosts == fl_topology_host_count(t)
              && m->links == fl_topology_switch_link_count(t),
          "%s: %d switches, %d hosts, %d links", what, m->switches, m->hosts, m->links);
    CHECK(m->degree_min == dmin && m->degree_max == dmax, "%s: degree %d..%d (want %d..%d)",
          what, m->degree_min, m->degree_max, dmin, dmax);
    CHECK(m->connected == ref.connected, "%s: connected %d", what, m->connected);
    CHECK(m->diameter == (ref.connected ? ref.maxd : -1), "%s: diameter %d (BFS: %d)", what,
          m->diameter, ref.maxd);
    CHECK(fabs(m->mean_distance - ref.mean) < 1e-9, "%s: mean distance %.9f (BFS: %.9f)",
          what, m->mean_distance, ref.mean);
    CHECK(hist_ok, "%s: histogram of %d entries matches the BFS", what, m->histogram_len);
    free(ref.hist);
}

/* --- counts and distances ------------------------------------------------- */

static void test_families_against_reference(void)
{
    static const char *const specs[] = {
        "mesh:6x5", "mesh:3x4x5", "mesh:7", "mesh:4x4,hosts=3", "torus:6x6", "torus:5x7",
        "torus:3x4x5", "torus:9", "hypercube:3", "hypercube:6", "ring:9", "ring:10",
        "line:2", "line:7", "xmesh:4x4", "xmesh:6x8", "xmesh:8x6", "dmesh:3x3", "dmesh:5x7",
        "dmesh:7x5", "irregular:40,ports=4,hosts=2,seed=3", "irregular:64,ports=3,seed=9",
        "myrinet-line:3", "myrinet-line:8", "myrinet-mesh:2x2", "myrinet-mesh:4x6",
        "myrinet-mesh:3x5",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        FlTopology *t = from_spec(specs[i]);
        if (!t)
            continue;
        FlMetrics m;
        compute(t, 0, &m);
        check_against_reference(specs[i], t, &m);
        fl_metrics_clear(&m);
        fl_topology_free(t);
    }
}

/* Custom networks too: random graphs with parallel links, some split into
 * several components. */
static void test_random_against_reference(void)
{
    uint64_t seed = 11;
    for (int i = 0; i < 12; i++) {
        FlTopology *t = random_graph(6 + 3 * i, 1 + i * 5 % 14, i % 3 == 0, &seed);
        char what[64];
        snprintf(what, sizeof what, "random graph %d", i);
        FlMetrics m;
        compute(t, 0, &m);
        check_against_reference(what, t, &m);
        fl_metrics_clear(&m);
        fl_topology_free(t);
    }
}

static void check_distances(const char *spec, int diameter, double mean)
{
    FlTopology *t = from_spec(spec);
    if (!t)
        return;
    FlMetrics m;
    compute(t, 0, &m);
    CHECK(m.connected && m.diameter == diameter, "%s: diameter %d (want %d)", spec,
          m.diameter, diameter);
    CHECK(fabs(m.mean_distance - mean) < 1e-9, "%s: mean %.9f (want %.9f)", spec,
          m.mean_distance, mean);
    fl_metrics_clear(&m);
    fl_topology_free(t);
}

static void test_closed_form_distances(void)
{
    char spec[64];
    /* a x b mesh: the sum of |x - x'| over ordered pairs of a line of a is
     * a (a^2 - 1) / 3, and each pair of columns is met b^2 times. */
    static const int sizes[][2] = { { 2, 2 }, { 2, 7 }, { 3, 4 }, { 5, 5 }, { 8, 3 } };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        double a = sizes[i][0], b = sizes[i][1], s = a * b;
        double sum = b * b * a * (a * a - 1) / 3 + a * a * b * (b * b - 1) / 3;
        snprintf(spec, sizeof spec, "mesh:%dx%d", sizes[i][0], sizes[i][1]);
        check_distances(spec, sizes[i][0] + sizes[i][1] - 2, sum / (s * (s - 1)));
    }
    for (int k = 3; k <= 9; k++) {
        double kk = k;
        snprintf(spec, sizeof spec, "torus:%dx%d", k, k);
        check_distances(spec, 2 * (k / 2),
                        k % 2 ? kk / 2 : kk * kk * kk / (2 * (kk * kk - 1)));
    }
    for (int d = 1; d <= 7; d++) {
        double s = 1 << d;
        snprintf(spec, sizeof spec, "hypercube:%d", d);
        check_distances(spec, d, d * s / 2 / (s - 1));
    }
    for (int n = 3; n <= 12; n++) {
        double nn = n;
        snprintf(spec, sizeof spec, "ring:%d", n);
        check_distances(spec, n / 2, n % 2 ? (nn + 1) / 4 : nn * nn / (4 * (nn - 1)));
    }
    for (int n = 2; n <= 10; n++) {
        snprintf(spec, sizeof spec, "line:%d", n);
        check_distances(spec, n - 1, (n + 1) / 3.0);
    }
}

/* Paper 003 Table 1 (w x w) and eq. 6, with Table 3's throughput bounds. */
static void test_paper_table1(void)
{
    char spec[64];
    for (int w = 4; w <= 40; w += 2) {
        double ww = w, mean = (4 * ww * ww * ww + 9 * ww * ww + 2 * ww - 24) / (12 * (ww * ww - 1));
        snprintf(spec, sizeof spec, "xmesh:%dx%d", w, w);
        FlTopology *t = from_spec(spec);
        if (!t)
            continue;
        FlMetrics m;
        compute(t, 0, &m);
        int kmax = w / 2 + 2, eq6 = m.histogram_len == kmax + 1;
        for (int k = 1; eq6 && k <= kmax; k++) {
            int64_t nk = k == 1 ? 4 : k <= kmax - 3 ? 8 * k - 6 : k == kmax - 2 ? 3 * w - 6
                       : k == kmax - 1 ? 3 * w / 2 - 2 : w / 2 - 1;
            eq6 = m.distance_histogram[k] == nk * w * w;
        }
        CHECK(m.diameter == kmax, "%s: diameter %d (Table 1: %d)", spec, m.diameter, kmax);
        CHECK(fabs(m.mean_distance - mean) < 1e-9, "%s: mean %.9f (Table 1: %.9f)", spec,
              m.mean_distance, mean);
        CHECK(eq6, "%s: N(k) = histogram[k] / N as eq. 6 says", spec);
        double bound = 24 * ww * ww * (ww * ww - 1) / (4 * ww * ww * ww + 9 * ww * ww + 2 * ww - 24);
        CHECK(fabs(m.throughput_bound - bound) < 1e-9, "%s: throughput bound %.6f (Table 3: %.6f)",
              spec, m.throughput_bound, bound);
        fl_metrics_clear(&m);
        fl_topology_free(t);
    }
    for (int w = 4; w <= 20; w += 2) {
        double ww = w;
        snprintf(spec, sizeof spec, "torus:%dx%d", w, w);
        FlTopology *t = from_spec(spec);
        if (!t)
            continue;
        FlMetrics m;
        compute(t, 0, &m);
        CHECK(m.diameter == 2 * (w / 2), "%s: diameter %d", spec, m.diameter);
        CHECK_NEAR(m.mean_distance, ww * ww * ww / (2 * (ww * ww - 1)), 1e-9);
        CHECK_NEAR(m.throughput_bound, 4 * (ww * ww - 1) / ww, 1e-9);
        fl_metrics_clear(&m);
        fl_topology_free(t);
    }
    for (int w = 3; w <= 41; w += 2) {
        snprintf(spec, sizeof spec, "dmesh:%dx%d", w, w);
        FlTopology *t = from_spec(spec);
        if (!t)
            continue;
        FlMetrics m;
        compute(t, 0, &m);
        CHECK(m.diameter == w - 1, "%s: diameter %d", spec, m.diameter);
        CHECK_NEAR(m.mean_distance, w / 2.0, 1e-9);
        /* min(N, L/d) = min(w^2, 4w): Table 3's 4w from w = 5 on. */
        CHECK_NEAR(m.throughput_bound, w == 3 ? 9.0 : 4.0 * w, 1e-9);
        fl_metrics_clear(&m);
        fl_topology_free(t);
    }
}

static void check_diameter(const char *spec, int want)
{
    FlTopology *t = from_spec(spec);
    if (!t)
        return;
    FlMetrics m;
    compute(t, 0, &m);
    CHECK(m.diameter == want, "%s: diameter %d (Table 2: %d)", spec, m.diameter, want);
    fl_metrics_clear(&m);
    fl_topology_free(t);
}

/* Paper 003 Table 2: diameters for k >= n. */
static void test_paper_table2(void)
{
    static const struct {
        int n, k, xmesh;
    } xrows[] = {
        { 34, 34, 19 }, { 34, 36, 19 }, { 34, 38, 19 }, { 34, 40, 20 }, { 34, 50, 25 },
        { 34, 68, 34 }, { 36, 36, 20 }, { 36, 38, 20 }, { 36, 40, 20 }, { 36, 42, 21 },
        { 36, 52, 26 }, { 36, 70, 35 },
    };
    static const int dk[] = { 35, 37, 39, 41, 51, 69 };
    char spec[64];
    for (size_t i = 0; i < sizeof xrows / sizeof xrows[0]; i++) {
        snprintf(spec, sizeof spec, "xmesh:%dx%d", xrows[i].n, xrows[i].k);
        check_diameter(spec, xrows[i].xmesh);
        snprintf(spec, sizeof spec, "torus:%dx%d", xrows[i].n, xrows[i].k);
        check_diameter(spec, xrows[i].n / 2 + xrows[i].k / 2);
    }
    for (size_t i = 0; i < sizeof dk / sizeof dk[0]; i++) {
        /* Table 2 prints 35 for 35x35 too; a BFS gives w - 1 = 34. */
        snprintf(spec, sizeof spec, "dmesh:35x%d", dk[i]);
        check_diameter(spec, dk[i] == 35 ? 34 : 35);
        snprintf(spec, sizeof spec, "torus:35x%d", dk[i]);
        check_diameter(spec, 35 / 2 + dk[i] / 2);
    }
}

/* Paper 003 Table 4, its TMESH and DMESH columns swapped back. */
static void test_paper_table4(void)
{
    static const struct {
        const char *spec;
        int diameter;
        double mean;
    } rows[] = {
        { "xmesh:36x72", 36, 19.88 },   /* the paper prints 19.86 */
        { "torus:35x71", 52, 26.50 },
        { "dmesh:35x71", 35, 23.50 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        FlTopology *t = from_spec(rows[i].spec);
        if (!t)
            continue;
        FlMetrics m;
        compute(t, 0, &m);
        CHECK(m.diameter == rows[i].diameter, "%s: diameter %d", rows[i].spec, m.diameter);
        CHECK(fabs(m.mean_distance - rows[i].mean) < 0.005, "%s: mean %.4f (want %.2f)",
              rows[i].spec, m.mean_distance, rows[i].mean);
        fl_metrics_clear(&m);
        fl_topology_free(t);
    }
}

/* --- small and odd networks ----------------------------------------------- */

static void test_degenerate(void)
{
    FlMetrics m;
    /* No switches at all: two unattached hosts. */
    FlTopology *t = fl_topology_new();
    fl_topology_add_node(t, FL_NODE_HOST, 1, NULL, NULL);
    fl_topology_add_node(t, FL_NODE_HOST, 1, NULL, NULL);
    compute(t, 0, &m);
    CHECK(m.switches == 0 && m.hosts == 2 && m.links == 0, "empty: counts");
    CHECK(!m.connected && m.diameter == -1 && m.histogram_len == 0 && !m.distance_histogram,
          "empty: not connected, no distances");
    CHECK(m.bisection_width == -1 && m.bisection_method == FL_BISECTION_NONE
              && m.throughput_bound == 0.0, "empty: no bisection, no throughput");
    fl_metrics_clear(&m);
    fl_topology_free(t);

    /* One switch with a host. */
    t = switches_only(1, 2);
    int h;
    fl_topology_add_node(t, FL_NODE_HOST, 1, &h, NULL);
    join(t, 0, h);
    compute(t, 0, &m);
    CHECK(m.switches == 1 && m.hosts == 1 && m.links == 0 && m.degree_max == 0,
          "one switch: counts");
    CHECK(m.connected && m.diameter == 0 && m.mean_distance == 0.0 && m.histogram_len == 1
              && m.distance_histogram[0] == 1, "one switch: distances");
    CHECK(m.bisection_method == FL_BISECTION_NONE && m.bisection_width == -1,
          "one switch: no bisection");
    CHECK_NEAR(m.throughput_bound, 1.0, 0);
    fl_metrics_clear(&m);
    fl_topology_free(t);

    /* Two switches, one link. */
    t = switches_only(2, 1);
    join(t, 0, 1);
    compute(t, 0, &m);
    CHECK(m.diameter == 1 && m.histogram_len == 2 && m.distance_histogram[0] == 2
              && m.distance_histogram[1] == 2, "two switches: distances");
    CHECK(m.bisection_width == 1 && m.bisection_method == FL_BISECTION_EXHAUSTIVE,
          "two switches: bisection 1 (%s)", fl_bisection_method_name(m.bisection_method));
    CHECK_NEAR(m.throughput_bound, 1.0, 0);
    fl_metrics_clear(&m);
    fl_topology_free(t);
}

/* Rings of 4 and 5: distances within each, no throughput, width 0. */
static void test_disconnected(void)
{
    FlTopology *t = switches_only(9, 2);
    for (int i = 0; i < 4; i++)
        join(t, i, (i + 1) % 4);
    for (int i = 0; i < 5; i++)
        join(t, 4 + i, 4 + (i + 1) % 5);
    FlMetrics m;
    compute(t, 0, &m);
    CHECK(!m.connected && m.diameter == -1, "two rings: disconnected");
    CHECK_NEAR(m.mean_distance, (16.0 + 30.0) / (12 + 20), 1e-12);
    CHECK(m.histogram_len == 3 && m.distance_histogram[0] == 9
              && m.distance_histogram[1] == 18 && m.distance_histogram[2] == 14,
          "two rings: histogram over reachable pairs");
    CHECK(m.throughput_bound == 0.0, "two rings: throughput bound 0");
    CHECK(m.bisection_width == 0 && m.bisection_method == FL_BISECTION_EXHAUSTIVE,
          "two rings: bisection 0 by %s", fl_bisection_method_name(m.bisection_method));
    fl_metrics_clear(&m);
    fl_topology_free(t);
}

/* 64x64 mesh: 4096 switches, the size the GUI analyses interactively. */
static void test_large_mesh(void)
{
    FlTopology *t = from_spec("mesh:64x64");
    if (!t)
        return;
    FlMetrics m;
    compute(t, 0, &m);
    double sum = 2.0 * 64 * 64 * 64 * (64.0 * 64 - 1) / 3, s = 4096;
    CHECK(m.diameter == 126, "mesh:64x64 diameter %d", m.diameter);
    CHECK_NEAR(m.mean_distance, sum / (s * (s - 1)), 1e-9);
    CHECK(m.bisection_width == 64 && m.bisection_method == FL_BISECTION_CLOSED_FORM,
          "mesh:64x64 bisection %d by %s", m.bisection_width,
          fl_bisection_method_name(m.bisection_method));
    fl_metrics_clear(&m);
    fl_topology_free(t);
}

/* --- bisection -------------------------------------------------------------- */

/* The closed form (exhaustive limit 1) against the exhaustive search, on
 * a family member small enough for both. */
static void check_closed_form(const char *spec, int want)
{
    FlTopology *t = from_spec(spec);
    if (!t)
        return;
    FlMetrics exact, closed;
    compute(t, fl_topology_switch_count(t), &exact);
    compute(t, 1, &closed);
    CHECK(exact.bisection_method == FL_BISECTION_EXHAUSTIVE
              && closed.bisection_method == FL_BISECTION_CLOSED_FORM,
          "%s: methods %s and %s", spec, fl_bisection_method_name(exact.bisection_method),
          fl_bisection_method_name(closed.bisection_method));
    CHECK(exact.bisection_width == want && closed.bisection_width == want,
          "%s: exhaustive %d, closed form %d, want %d", spec, exact.bisection_width,
          closed.bisection_width, want);
    fl_metrics_clear(&exact);
    fl_metrics_clear(&closed);
    fl_topology_free(t);
}

/* A member without a closed form goes to METIS above the exhaustive limit,
 * and METIS never beats the exact width. */
static void check_no_closed_form(const char *spec, int want)
{
    FlTopology *t = from_spec(spec);
    if (!t)
        return;
    FlMetrics exact, metis;
    compute(t, fl_topology_switch_count(t), &exact);
    compute(t, 1, &metis);
    CHECK(metis.bisection_method == FL_BISECTION_METIS, "%s: %s above the limit", spec,
          fl_bisection_method_name(metis.bisection_method));
    CHECK(exact.bisection_width == want && metis.bisection_width >= want,
          "%s: exhaustive %d (want %d), METIS %d", spec, exact.bisection_width, want,
          metis.bisection_width);
    fl_metrics_clear(&exact);
    fl_metrics_clear(&metis);
    fl_topology_free(t);
}

static void test_bisection_families(void)
{
    char spec[64];
    for (int n = 3; n <= 16; n++) {
        snprintf(spec, sizeof spec, "ring:%d", n);
        check_closed_form(spec, 2);
        snprintf(spec, sizeof spec, "torus:%d", n);
        check_closed_form(spec, 2);
    }
    for (int n = 2; n <= 16; n++) {
        snprintf(spec, sizeof spec, "line:%d", n);
        check_closed_form(spec, 1);
        snprintf(spec, sizeof spec, "mesh:%d", n);
        check_closed_form(spec, 1);
        snprintf(spec, sizeof spec, "myrinet-line:%d", n);
        check_closed_form(spec, 1);
    }
    for (int d = 1; d <= 5; d++) {
        snprintf(spec, sizeof spec, "hypercube:%d", d);
        check_closed_form(spec, 1 << (d - 1));
    }
    /* Meshes with an even largest side: S / k_max. */
    static const int meshes[][3] = {
        { 2, 2, 1 }, { 2, 4, 1 }, { 4, 2, 1 }, { 3, 4, 1 }, { 4, 4, 1 }, { 5, 6, 1 },
        { 3, 6, 1 }, { 4, 6, 1 }, { 6, 4, 1 }, { 2, 8, 1 }, { 2, 2, 2 }, { 2, 3, 4 },
        { 2, 2, 6 }, { 4, 2, 3 },
    };
    for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; i++) {
        const int *k = meshes[i];
        int s = k[0] * k[1] * k[2], kmax = k[0] > k[1] ? k[0] : k[1];
        kmax = k[2] > kmax ? k[2] : kmax;
        if (k[2] == 1)
            snprintf(spec, sizeof spec, "mesh:%dx%d", k[0], k[1]);
        else
            snprintf(spec, sizeof spec, "mesh:%dx%dx%d", k[0], k[1], k[2]);
        check_closed_form(spec, s / kmax);
        if (k[2] == 1 && k[0] >= 2 && k[1] >= 2) {
            snprintf(spec, sizeof spec, "myrinet-mesh:%dx%d", k[0], k[1]);
            check_closed_form(spec, s / kmax);
        }
    }
    /* Tori, every side >= 3, the largest even: 2S / k_max. */
    static const int tori[][3] = {
        { 3, 4, 1 }, { 4, 4, 1 }, { 4, 3, 1 }, { 3, 6, 1 }, { 4, 6, 1 }, { 3, 8, 1 },
        { 3, 3, 4 },
    };
    for (size_t i = 0; i < sizeof tori / sizeof tori[0]; i++) {
        const int *k = tori[i];
        int s = k[0] * k[1] * k[2], kmax = k[0] > k[1] ? k[0] : k[1];
        kmax = k[2] > kmax ? k[2] : kmax;
        if (k[2] == 1)
            snprintf(spec, sizeof spec, "torus:%dx%d", k[0], k[1]);
        else
            snprintf(spec, sizeof spec, "torus:%dx%dx%d", k[0], k[1], k[2]);
        check_closed_form(spec, 2 * s / kmax);
    }
    /* XMESH: paper 003's min(4n, 2k) agrees with the exhaustive search on
     * every size it reaches (bisection.c lists the larger ones). */
    static const int xmeshes[][2] = {
        { 4, 4 }, { 4, 6 }, { 6, 4 }, { 4, 8 }, { 8, 4 }, { 6, 6 }, { 4, 10 }, { 10, 4 },
    };
    for (size_t i = 0; i < sizeof xmeshes / sizeof xmeshes[0]; i++) {
        int n = xmeshes[i][0], k = xmeshes[i][1];
        snprintf(spec, sizeof spec, "xmesh:%dx%d", n, k);
        check_closed_form(spec, 4 * n < 2 * k ? 4 * n : 2 * k);
    }
    /* No closed form: odd largest sides, and the diagonal mesh, whose 5x5
     * width equals that of the isomorphic 5x5 torus, not min(4n, 4k) = 20. */
    check_no_closed_form("mesh:3x5", 4);
    check_no_closed_form("mesh:3x3", 4);
    check_no_closed_form("torus:5x5", 12);
    check_no_closed_form("torus:4x7", 10);
    check_no_closed_form("dmesh:5x5", 12);
    check_no_closed_form("dmesh:3x3", 8);
}

/* Family metadata that does not match the links is not trusted. */
static void test_mismatched_family(void)
{
    FlTopology *t = from_spec("mesh:6x6");
    if (!t)
        return;
    int dims[2] = { 6, 6 };
    fl_topology_set_family(t, "torus", 2, dims, NULL);
    FlMetrics m;
    compute(t, 1, &m);
    CHECK(m.bisection_method == FL_BISECTION_METIS && m.bisection_width >= 6,
          "a mesh labelled torus: %s, %d", fl_bisection_method_name(m.bisection_method),
          m.bisection_width);
    fl_metrics_clear(&m);
    /* An edit makes the network custom, and custom networks get METIS. */
    fl_topology_disconnect(t, 0, NULL);
    compute(t, 1, &m);
    CHECK(m.bisection_method == FL_BISECTION_METIS, "an edited mesh: %s",
          fl_bisection_method_name(m.bisection_method));
    fl_metrics_clear(&m);
    fl_topology_free(t);
}

/* The smallest balanced cut by trying every partition with switch 0 on
 * side A. */
static int brute_force_width(const FlSwitchGraph *g)
{
    int n = g->n, best = -1;
    signed char side[32];
    for (uint32_t mask = 0; mask < 1u << (n - 1); mask++) {
        int on_b = __builtin_popcount(mask);
        if (on_b != n / 2 && on_b != n - n / 2)
            continue;
        side[0] = 0;
        for (int v = 1; v < n; v++)
            side[v] = (signed char)(mask >> (v - 1) & 1);
        int cut = 0;
        for (int u = 0; u < n; u++)
            for (int k = g->off[u]; k < g->off[u + 1]; k++)
                cut += u < g->adj[k] && side[u] != side[g->adj[k]];
        if (best < 0 || cut < best)
            best = cut;
    }
    return best;
}

static int balanced(const signed char *side, int n)
{
    int b = 0;
    for (int v = 0; v < n; v++)
        b += side[v] == 1;
    return b == n / 2 || b == n - n / 2;
}

/* Random graphs, some with parallel links or several components, dense and
 * sparse: METIS's cut is balanced and no better than the exact width, and
 * the branch and bound finds what trying every partition finds. */
static void test_bisection_random(void)
{
    uint64_t seed = 5;
    int mismatches = 0, metis_bad = 0, metis_below = 0, graphs = 0;
    for (int n = 2; n <= 16; n++) {
        for (int num = 1; num <= 15; num += 2) {
            FlTopology *t = random_graph(n, num, (n + num) % 3 == 0, &seed);
            FlSwitchGraph g;
            fl__switch_graph_build(t, &g);
            int truth = brute_force_width(&g);
            signed char side[32];
            int width = -1;
            FlMetrics m;
            compute(t, 0, &m);
            mismatches += m.bisection_width != truth
                          || m.bisection_method != FL_BISECTION_EXHAUSTIVE;
            if (fl__bisection_metis(&g, seed, side, &width, NULL) != FL_OK
                || !balanced(side, n) || fl__cut_width(&g, side) != width)
                metis_bad++;
            metis_below += width < truth;
            /* The search alone, from a poor first bound: the halves in
             * switch order. */
            for (int v = 0; v < n; v++)
                side[v] = (signed char)(v >= n / 2);
            if (fl__bisection_exhaustive(&g, NULL, side, &width, NULL) != FL_OK
                || width != truth || !balanced(side, n) || fl__cut_width(&g, side) != width)
                mismatches++;
            graphs++;
            fl_metrics_clear(&m);
            fl__switch_graph_free(&g);
            fl_topology_free(t);
        }
    }
    CHECK(mismatches == 0, "exhaustive search = brute force on %d random graphs (%d differ)",
          graphs, mismatches);
    CHECK(metis_bad == 0, "METIS cuts are balanced and counted right (%d bad)", metis_bad);
    CHECK(metis_below == 0, "METIS never beats the exact width (%d below)", metis_below);
}

/* A complete graph: every balanced cut has (S/2)^2 links, which only the
 * bounds for dense graphs can prove without visiting them all. */
static void test_bisection_dense(void)
{
    FlTopology *t = switches_only(28, 27);
    for (int a = 0; a < 28; a++)
        for (int b = a + 1; b < 28; b++)
            join(t, a, b);
    FlMetrics m;
    compute(t, 0, &m);
    CHECK(m.bisection_width == 196 && m.bisection_method == FL_BISECTION_EXHAUSTIVE,
          "K28: bisection %d by %s", m.bisection_width,
          fl_bisection_method_name(m.bisection_method));
    CHECK(m.diameter == 1 && m.degree_min == 27, "K28: diameter 1, degree 27");
    fl_metrics_clear(&m);
    fl_topology_free(t);
}

/* METIS on a family without a closed form, large: still balanced. */
static void test_bisection_metis_large(void)
{
    FlTopology *t = from_spec("dmesh:35x71");
    if (!t)
        return;
    FlSwitchGraph g;
    fl__switch_graph_build(t, &g);
    signed char *side = malloc((size_t)g.n);
    int width = -1;
    int rc = fl__bisection_metis(&g, 1, side, &width, NULL);
    CHECK(rc == FL_OK && balanced(side, g.n) && fl__cut_width(&g, side) == width,
          "dmesh:35x71: METIS cut %d is balanced", width);
    /* Two cuts across the 71-switch dimension cross 2 x 35 diagonal links
     * each; evening out the odd halves costs a few more. */
    CHECK(width > 0 && width <= 160, "dmesh:35x71: METIS width %d is sensible", width);
    free(side);
    fl__switch_graph_free(&g);
    fl_topology_free(t);
}

/* --- progress and cancellation ------------------------------------------- */

typedef struct Progress {
    int calls, cancel_at, monotone;
    double last;
} Progress;

static int on_progress(void *data, double fraction)
{
    Progress *p = data;
    if (fraction < p->last || fraction < 0.0 || fraction > 1.0)
        p->monotone = 0;
    p->last = fraction;
    return ++p->calls == p->cancel_at;
}

static int run_with_progress(const FlTopology *t, int exact_max, Progress *p, FlMetrics *m,
                             FlError *err)
{
    FlMetricsOptions opt = { .exact_bisection_max = exact_max, .progress = on_progress,
                             .progress_data = p };
    p->calls = 0;
    p->monotone = 1;
    p->last = 0.0;
    return fl_metrics_compute(t, &opt, m, err);
}

static void test_progress(void)
{
    FlTopology *t = from_spec("mesh:32x32");
    if (!t)
        return;
    FlMetrics m;
    FlError err = { 0 };
    Progress p = { .cancel_at = -1 };
    int rc = run_with_progress(t, 0, &p, &m, &err);
    CHECK(rc == FL_OK && p.calls >= 5 && p.monotone && p.last == 1.0,
          "mesh:32x32: %d progress calls, monotone, ending at %.2f", p.calls, p.last);
    if (rc == FL_OK)
        fl_metrics_clear(&m);

    /* Cancelled at the first call: an error, and m untouched. */
    memset(&m, 0x5a, sizeof m);
    p.cancel_at = 1;
    rc = run_with_progress(t, 0, &p, &m, &err);
    CHECK(rc == FL_ECANCELLED && err.code == FL_ECANCELLED, "cancelled in the BFS: %s",
          err.message);
    CHECK(m.switches == 0x5a5a5a5a, "a cancelled call leaves the result alone");
    fl_topology_free(t);

    /* xmesh:4x12 takes a long exhaustive search: cancel it in the middle. */
    t = from_spec("xmesh:4x12");
    if (!t)
        return;
    p.cancel_at = 3;
    rc = run_with_progress(t, FL_METRICS_EXACT_MAX, &p, &m, &err);
    CHECK(rc == FL_ECANCELLED && p.last >= 0.05 && strstr(err.message, "bisection"),
          "cancelled in the bisection search at %.3f: %s", p.last, err.message);
    fl_topology_free(t);
}

/* --- odds and ends ---------------------------------------------------------- */

static void test_api_edges(void)
{
    CHECK(strcmp(fl_bisection_method_name(FL_BISECTION_NONE), "none") == 0
              && strcmp(fl_bisection_method_name(FL_BISECTION_EXHAUSTIVE), "exhaustive") == 0
              && strcmp(fl_bisection_method_name(FL_BISECTION_CLOSED_FORM), "closed-form") == 0
              && strcmp(fl_bisection_method_name(FL_BISECTION_METIS), "metis") == 0,
          "method names");
    FlMetrics m;
    FlError err = { 0 };
    CHECK(fl_metrics_compute(NULL, NULL, &m, &err) == FL_EINVAL, "no topology: %s",
          err.message);
    FlTopology *t = switches_only(3, 2);
    FlMetricsOptions opt = { .exact_bisection_max = -1 };
    CHECK(fl_metrics_compute(t, &opt, &m, &err) == FL_ERANGE, "negative limit: %s",
          err.message);
    CHECK(fl_metrics_compute(t, NULL, &m, &err) == FL_OK && m.switches == 3 && !m.connected,
          "NULL options are the defaults");
    fl_metrics_clear(&m);
    fl_metrics_clear(&m);
    CHECK(m.distance_histogram == NULL && m.switches == 0, "clearing twice is harmless");
    fl_metrics_clear(NULL);
    fl_topology_free(t);
}

int main(void)
{
    test_families_against_reference();
    test_random_against_reference();
    test_closed_form_distances();
    test_paper_table1();
    test_paper_table2();
    test_paper_table4();
    test_degenerate();
    test_disconnected();
    test_large_mesh();
    test_bisection_families();
    test_mismatched_family();
    test_bisection_random();
    test_bisection_dense();
    test_bisection_metis_large();
    test_progress();
    test_api_edges();
    return tap_done();
}
