/* test-multicast.c — paper 001's analytic multicast figures: the OPT-tree
 * programme (Table 1, Fig 6, the binomial case), the trees it and the other
 * algorithms build, and the 6x6 mesh example with its contention check.
 *
 * Coordinates: the paper's node (a, b) is the switch with coordinates
 * (a, b) of mesh:6x6 (coordinate 0 = a), routed by dor "xy". That is the
 * reading in which the paper's chain, (1,5) < (2,1) < (3,2) < ..., sorts by
 * the written first coordinate and its routing corrects that coordinate
 * first, as its remark about the channel ((4,4), (5,4)) shared by
 * rho((4,4), (5,4)) and rho((4,4), (5,1)) requires.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flitlab.h"
#include "tap.h"

/* The optimum over every ordered tree: a root sends to subtrees of sizes
 * c_1, ..., c_m in turn, and the m-th one is done at (m - 1) t_hold + t_end
 * + its own optimum. Independent of the programme's binary split. */
static double brute(int n, double th, double te, const double *memo)
{
    if (n == 1)
        return 0.0;
    double best = INFINITY;
    int parts = n - 1;
    /* Each bit of mask ends a part after that position. */
    for (unsigned mask = 0; mask < (1u << (parts - 1)); mask++) {
        double worst = 0.0;
        int m = 0, size = 0;
        for (int p = 0; p < parts; p++) {
            size++;
            if (p == parts - 1 || (mask >> p & 1u)) {
                double done = m * th + te + memo[size];
                worst = done > worst ? done : worst;
                m++;
                size = 0;
            }
        }
        best = worst < best ? worst : best;
    }
    return best;
}

static void test_table1(void)
{
    static const int want_j[10] = { 0, 0, 1, 2, 3, 3, 4, 5, 5, 6 };
    static const double want_t[10] = { 0, 0, 55, 75, 95, 110, 115, 130, 130, 135 };
    for (int dp = FL_MULTICAST_DP_QUADRATIC; dp <= FL_MULTICAST_DP_LINEAR; dp++) {
        double t[10];
        int j[10];
        CHECK_INT(fl_multicast_opt_table(9, 20, 55, (FlMulticastDp)dp, t, j, NULL), FL_OK);
        int same = 1;
        for (int i = 1; i <= 9; i++)
            same &= t[i] == want_t[i] && j[i] == want_j[i];
        CHECK(same, "Table 1 (k = 9, t_hold = 20, t_end = 55), %s programme: j = -,%d,%d,%d,"
              "%d,%d,%d,%d,%d, t = %g,%g,%g,%g,%g,%g,%g,%g,%g",
              dp == FL_MULTICAST_DP_LINEAR ? "O(k)" : "O(k^2)", j[2], j[3], j[4], j[5], j[6],
              j[7], j[8], j[9], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]);
    }
}

static void test_agreement(void)
{
    enum { K = 13 };
    int linear_ok = 1, brute_ok = 1, checked = 0;
    for (int th = 0; th <= 12; th++) {
        for (int te = 0; te <= 24; te++) {
            double tq[K + 1], tl[K + 1], memo[K + 1] = { 0 };
            int jq[K + 1], jl[K + 1];
            fl_multicast_opt_table(K, th, te, FL_MULTICAST_DP_QUADRATIC, tq, jq, NULL);
            for (int n = 1; n <= K; n++) {
                memo[n] = brute(n, th, te, memo);
                if (memo[n] != tq[n] && brute_ok) {
                    brute_ok = 0;
                    printf("# k = %d, t_hold = %d, t_end = %d: brute force %g, programme %g\n",
                           n, th, te, memo[n], tq[n]);
                }
            }
            if (te >= th) {
                fl_multicast_opt_table(K, th, te, FL_MULTICAST_DP_LINEAR, tl, jl, NULL);
                /* On a tie the two may keep different j; each must be optimal. */
                for (int n = 2; n <= K; n++) {
                    double a = tl[jl[n]] + th, b = tl[n - jl[n]] + te;
                    linear_ok &= tl[n] == tq[n] && (a > b ? a : b) == tq[n];
                }
            }
            checked++;
        }
    }
    CHECK(brute_ok, "the O(k^2) programme is the optimum over every ordered tree, k <= %d, "
          "%d (t_hold, t_end) pairs, t_end < t_hold included", K, checked);
    CHECK(linear_ok, "the O(k) and O(k^2) programmes give the same t, and the O(k) one an "
          "optimal j, when t_end >= t_hold, k <= %d", K);

    /* Larger k, real-valued times. */
    enum { BIG = 400 };
    static double tq[BIG + 1], tl[BIG + 1];
    static int jq[BIG + 1], jl[BIG + 1];
    int big_ok = 1;
    static const double pairs[][2] = { { 20, 55 }, { 10, 40 }, { 1, 1 }, { 3.5, 7.25 },
                                       { 20.02, 55.07 }, { 0, 9 }, { 2, 1000 } };
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        fl_multicast_opt_table(BIG, pairs[p][0], pairs[p][1], FL_MULTICAST_DP_QUADRATIC, tq,
                               jq, NULL);
        fl_multicast_opt_table(BIG, pairs[p][0], pairs[p][1], FL_MULTICAST_DP_LINEAR, tl, jl,
                               NULL);
        for (int n = 1; n <= BIG; n++)
            big_ok &= tl[n] == tq[n];
    }
    CHECK(big_ok, "O(k) and O(k^2) give the same t for k <= %d on 7 parameter pairs", BIG);
}

static FlMulticastTree *labels_tree(FlMulticastAlgorithm alg, int k, double th, double te)
{
    int *dests = malloc((size_t)k * sizeof *dests);
    for (int i = 0; i < k - 1; i++)
        dests[i] = i + 1;
    FlMulticastTree *tree = NULL;
    FlError err;
    if (fl_multicast_tree_new(NULL, NULL, alg, 0, dests, k - 1, th, te, &tree, &err))
        printf("# %s\n", err.message);
    free(dests);
    return tree;
}

static void test_fig6_and_binomial(void)
{
    double t[8];
    fl_multicast_opt_table(7, 10, 40, FL_MULTICAST_DP_AUTO, t, NULL, NULL);
    CHECK(t[7] == 80, "Fig 6: 7 nodes, t_hold = 10, t_end = 40: OPT-tree %g (paper: 80)", t[7]);
    FlMulticastTree *opt = labels_tree(FL_MULTICAST_OPT_TREE, 7, 10, 40);
    FlMulticastTree *bin = labels_tree(FL_MULTICAST_BINOMIAL, 7, 10, 40);
    CHECK(opt && fl_multicast_tree_latency(opt) == 80, "Fig 6: the OPT-tree's edges time to %g",
          opt ? fl_multicast_tree_latency(opt) : -1);
    CHECK(bin && fl_multicast_tree_latency(bin) == 120, "Fig 6: the binomial tree takes %g "
          "(paper: 120)", bin ? fl_multicast_tree_latency(bin) : -1);
    fl_multicast_tree_free(opt);
    fl_multicast_tree_free(bin);

    /* t_hold = t_end: the optimum is the binomial tree, ceil(log2 k) rounds. */
    int ok = 1;
    for (int k = 2; k <= 70 && ok; k++) {
        double tk[71];
        fl_multicast_opt_table(k, 20, 20, FL_MULTICAST_DP_AUTO, tk, NULL, NULL);
        int rounds = 0;
        while ((1 << rounds) < k)
            rounds++;
        FlMulticastTree *b = labels_tree(FL_MULTICAST_BINOMIAL, k, 20, 20);
        ok = tk[k] == 20.0 * rounds && fl_multicast_tree_latency(b) == tk[k];
        if (!ok)
            printf("# k = %d: OPT %g, binomial %g, rounds %d\n", k, tk[k],
                   fl_multicast_tree_latency(b), rounds);
        fl_multicast_tree_free(b);
    }
    CHECK(ok, "t_hold = t_end = 20: OPT-tree = binomial tree = 20 ceil(log2 k), k = 2..70");
}

/* Every tree the OPT table defines times to t[k], for any parameters. */
static void test_tree_matches_table(void)
{
    int ok = 1, parents_ok = 1;
    static const double pairs[][2] = { { 20, 55 }, { 10, 40 }, { 20, 20 }, { 20, 5 },
                                       { 7, 0 }, { 0, 3 }, { 2.5, 31 } };
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        double th = pairs[p][0], te = pairs[p][1], t[101];
        fl_multicast_opt_table(100, th, te, FL_MULTICAST_DP_AUTO, t, NULL, NULL);
        for (int k = 2; k <= 100; k++) {
            FlMulticastTree *tree = labels_tree(FL_MULTICAST_OPT_TREE, k, th, te);
            ok &= tree && fl_multicast_tree_latency(tree) == t[k];
            /* Every node but the source receives once, from a node that had
             * received before it sent. */
            for (int i = 0; tree && i < fl_multicast_tree_edge_count(tree); i++) {
                const FlMulticastEdge *e = fl_multicast_tree_edge(tree, i);
                const FlMulticastEdge *in = fl_multicast_tree_edge_to(tree, e->parent);
                double ready = in ? in->recv_time : 0.0;
                parents_ok &= e->send_time >= ready && e->recv_time == e->send_time + te &&
                              fl_multicast_tree_edge_to(tree, e->child) == e;
            }
            fl_multicast_tree_free(tree);
        }
    }
    CHECK(ok, "the OPT-tree's last receive is t[k] for k = 2..100 on 7 parameter pairs "
          "(t_end < t_hold included)");
    CHECK(parents_ok, "every OPT-tree edge leaves after its sender received and arrives t_end "
          "later");
}

static void test_table1_tree(void)
{
    /* Table 1's tree, P_0..P_8: P_0 keeps j_9 = 6 and sends first to P_6. */
    FlMulticastTree *tree = labels_tree(FL_MULTICAST_OPT_TREE, 9, 20, 55);
    const FlMulticastEdge *e = fl_multicast_tree_edge(tree, 0);
    CHECK(e && e->parent == 0 && e->child == 6 && e->send_time == 0 && e->recv_time == 55 &&
          e->step == 1, "Table 1's tree: the first send is P0 -> P6 at 0, received at 55");
    const FlMulticastEdge *to8 = fl_multicast_tree_edge_to(tree, 8);
    CHECK(to8 && to8->parent == 6 && to8->send_time == 55 && to8->step == 2,
          "Table 1's tree: P6 -> P8 at 55, step 2");
    CHECK(fl_multicast_tree_latency(tree) == 135, "Table 1's tree takes 135");
    fl_multicast_tree_free(tree);

    FlMulticastTree *seq = labels_tree(FL_MULTICAST_SEQUENTIAL, 5, 20, 55);
    int ok = fl_multicast_tree_edge_count(seq) == 4;
    for (int i = 0; ok && i < 4; i++) {
        e = fl_multicast_tree_edge(seq, i);
        ok = e->parent == 0 && e->child == i + 1 && e->send_time == 20 * i && e->step == i + 1;
    }
    CHECK(ok && fl_multicast_tree_latency(seq) == 60 + 55,
          "sequential: the source sends to P1..P4 at 0, 20, 40, 60; done at 115");
    fl_multicast_tree_free(seq);
    FlMulticastTree *chain = labels_tree(FL_MULTICAST_CHAIN, 5, 20, 55);
    e = fl_multicast_tree_edge(chain, 3);
    CHECK(fl_multicast_tree_latency(chain) == 4 * 55 && e->parent == 3 && e->child == 4 &&
          e->step == 4, "chain: P3 -> P4 last, at step 4, done at 220");
    fl_multicast_tree_free(chain);
}

static void test_speed(void)
{
    int k = 1000000;
    double *t = malloc(((size_t)k + 1) * sizeof *t);
    int *j = malloc(((size_t)k + 1) * sizeof *j);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int rc = fl_multicast_opt_table(k, 20, 55, FL_MULTICAST_DP_LINEAR, t, j, NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("# O(k) OPT-tree table for k = %d: %.3f s, t[k] = %g, j_k = %d\n", k, secs, t[k], j[k]);
    CHECK(rc == FL_OK && t[k] > t[k / 2] && j[k] > 0 && j[k] < k,
          "the O(k) table for a million nodes");
    free(t);
    free(j);

    clock_gettime(CLOCK_MONOTONIC, &a);
    FlMulticastTree *tree = labels_tree(FL_MULTICAST_OPT_TREE, k, 20, 55);
    clock_gettime(CLOCK_MONOTONIC, &b);
    secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("# OPT-tree of %d nodes with every edge timed: %.3f s\n", k, secs);
    CHECK(tree && fl_multicast_tree_edge_count(tree) == k - 1 &&
          fl_multicast_tree_latency(tree) == 720, "the OPT-tree of a million nodes takes 720");
    fl_multicast_tree_free(tree);
}

static int host_at(const FlTopology *t, int a, int b)
{
    for (int h = 0; h < fl_topology_host_count(t); h++) {
        int c[FL_MAX_DIMS];
        fl_topology_get_coords(t, fl_topology_host_switch(t, fl_topology_host_node(t, h)), c);
        if (c[0] == a && c[1] == b)
            return h;
    }
    return -1;
}

static int count_conflicts(const FlMulticastTree *tree, const FlRouting *r, int same,
                           FlMulticastConflict **out)
{
    FlMulticastConflict *c = NULL;
    int n = -1;
    FlError err;
    if (fl_multicast_tree_contention(tree, r, same, &c, &n, &err))
        printf("# %s\n", err.message);
    if (out)
        *out = c;
    else
        free(c);
    return n;
}

/* Paper 001's 6x6 example: mesh:6x6 with dor, the source (3,2) and the
 * destinations (1,5), (2,1), (3,4), (4,3), (4,4), (5,1), (5,4) as hosts. */
static int example(FlTopology **t, FlRouting **r, int dests[7])
{
    static const int pts[7][2] = { { 1, 5 }, { 2, 1 }, { 3, 4 }, { 4, 3 },
                                   { 4, 4 }, { 5, 1 }, { 5, 4 } };
    FlError err;
    *t = NULL;
    *r = NULL;
    CHECK_INT(fl_topology_from_spec("mesh:6x6", t, &err), FL_OK);
    CHECK_INT(fl_routing_new(*t, "dor", NULL, r, &err), FL_OK);
    for (int i = 0; i < 7; i++)
        dests[i] = host_at(*t, pts[i][0], pts[i][1]);
    return host_at(*t, 3, 2);
}

static void test_mesh_example(void)
{
    FlTopology *t;
    FlRouting *r;
    FlError err;
    int dests[7], src = example(&t, &r, dests);

    FlMulticastTree *opt = NULL, *um = NULL;
    CHECK_INT(fl_multicast_tree_new(t, r, FL_MULTICAST_OPT_MESH, src, dests, 7, 20, 55, &opt,
                                    &err), FL_OK);
    CHECK_INT(fl_multicast_tree_new(t, r, FL_MULTICAST_UMESH, src, dests, 7, 20, 55, &um,
                                    &err), FL_OK);
    CHECK(fl_multicast_tree_latency(opt) == 130, "6x6 example: OPT-mesh takes %g (paper: 130)",
          fl_multicast_tree_latency(opt));
    CHECK(fl_multicast_tree_latency(um) == 165, "6x6 example: U-mesh takes %g (paper: 165)",
          fl_multicast_tree_latency(um));

    /* Fig 7: the source sends to (4,4), (3,4), (1,5), (2,1) in turn; (4,4)
     * to (5,4) then (5,1); (3,4) to (4,3). */
    static const int want[7][5] = {
        { 3, 2, 4, 4, 0 }, { 3, 2, 3, 4, 20 }, { 3, 2, 1, 5, 40 }, { 4, 4, 5, 4, 55 },
        { 3, 2, 2, 1, 60 }, { 3, 4, 4, 3, 75 }, { 4, 4, 5, 1, 75 },
    };
    int ok = fl_multicast_tree_edge_count(opt) == 7;
    for (int i = 0; ok && i < 7; i++) {
        const FlMulticastEdge *e = fl_multicast_tree_edge(opt, i);
        ok = e->parent == host_at(t, want[i][0], want[i][1]) &&
             e->child == host_at(t, want[i][2], want[i][3]) && e->send_time == want[i][4] &&
             e->recv_time == want[i][4] + 55;
        if (!ok)
            printf("# edge %d: %d -> %d at %g\n", i, e->parent, e->child, e->send_time);
    }
    CHECK(ok, "6x6 example: OPT-mesh's sends are Fig 7's, in time order");

    CHECK_INT(count_conflicts(opt, r, 0, NULL), 0);
    CHECK_INT(count_conflicts(um, r, 0, NULL), 0);
    /* The paper's remark: the channels ((4,4),(5,4)) and ((3,2),(2,2)) are
     * each taken by two sends of one node, t_hold apart. */
    FlMulticastConflict *c = NULL;
    int n = count_conflicts(opt, r, 1, &c);
    int remark = n == 2;
    for (int i = 0; remark && i < n; i++) {
        const FlMulticastEdge *a = fl_multicast_tree_edge(opt, c[i].edge_a);
        int from = fl_topology_channel_src(t, c[i].channel);
        int to = fl_topology_channel_dst(t, c[i].channel);
        int ca[FL_MAX_DIMS], cb[FL_MAX_DIMS];
        fl_topology_get_coords(t, from, ca);
        fl_topology_get_coords(t, to, cb);
        remark = c[i].same_sender && ((a->parent == host_at(t, 4, 4) && ca[0] == 4 &&
                                       ca[1] == 4 && cb[0] == 5 && cb[1] == 4) ||
                                      (a->parent == host_at(t, 3, 2) && ca[0] == 3 &&
                                       ca[1] == 2 && cb[0] == 2 && cb[1] == 2));
    }
    CHECK(remark, "6x6 example: with one sender's pairs, exactly the paper's two shared "
          "channels ((4,4),(5,4)) and ((3,2),(2,2)) (got %d pairs)", n);
    free(c);

    /* A binomial tree over a badly ordered list does contend: (0,0) sends
     * to (1,0) at 0 and to (5,0) at 20, while (1,0) sends to (4,0) at 55. */
    int bad[3] = { host_at(t, 5, 0), host_at(t, 1, 0), host_at(t, 4, 0) };
    FlMulticastTree *bin = NULL;
    fl_multicast_tree_new(t, r, FL_MULTICAST_BINOMIAL, host_at(t, 0, 0), bad, 3, 20, 55, &bin,
                          &err);
    n = count_conflicts(bin, r, 0, &c);
    CHECK(n == 1 && !c[0].same_sender &&
          fl_multicast_tree_edge(bin, c[0].edge_a)->child == host_at(t, 5, 0) &&
          fl_multicast_tree_edge(bin, c[0].edge_b)->child == host_at(t, 4, 0),
          "binomial over (5,0), (1,0), (4,0) from (0,0): one conflict, (0,0)->(5,0) with "
          "(1,0)->(4,0) (got %d)", n);
    free(c);
    fl_multicast_tree_free(bin);

    /* Random destination sets: OPT-mesh and U-mesh stay contention-free,
     * under either dimension order (the chain is the same for both). */
    FlRoutingOptions yx;
    FlRouting *ryx = NULL;
    fl_routing_options_init(&yx);
    yx.order = "yx";
    CHECK_INT(fl_routing_new(t, "dor", &yx, &ryx, &err), FL_OK);
    FlRng gen, *rng = &gen;
    fl_rng_seed(rng, 11);
    int free_ok = 1, crossed = 0;
    for (int trial = 0; trial < 200 && free_ok; trial++) {
        int perm[36], k = 1 + (int)fl_rng_below(rng, 35);
        for (int i = 0; i < 36; i++)
            perm[i] = i;
        for (int i = 35; i > 0; i--) {
            int j = (int)fl_rng_below(rng, (uint32_t)i + 1), x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
        }
        double th = 1 + (double)fl_rng_below(rng, 30), te = 1 + (double)fl_rng_below(rng, 90);
        for (int alg = FL_MULTICAST_UMESH; alg <= FL_MULTICAST_OPT_MESH; alg++) {
            FlMulticastTree *tr = NULL, *tyx = NULL;
            fl_multicast_tree_new(t, r, (FlMulticastAlgorithm)alg, perm[0], perm + 1, k, th, te,
                                  &tr, NULL);
            fl_multicast_tree_new(t, ryx, (FlMulticastAlgorithm)alg, perm[0], perm + 1, k, th,
                                  te, &tyx, NULL);
            free_ok &= tr && tyx && count_conflicts(tr, r, 0, NULL) == 0 &&
                       count_conflicts(tyx, ryx, 0, NULL) == 0;
            crossed += count_conflicts(tr, ryx, 0, NULL) > 0;
            if (alg == FL_MULTICAST_OPT_MESH) {
                double tk[37];
                fl_multicast_opt_table(k + 1, th, te, FL_MULTICAST_DP_AUTO, tk, NULL, NULL);
                free_ok &= fl_multicast_tree_latency(tr) == tk[k + 1] &&
                           fl_multicast_tree_latency(tyx) == tk[k + 1];
            }
            fl_multicast_tree_free(tr);
            fl_multicast_tree_free(tyx);
        }
    }
    CHECK(free_ok, "200 random multicasts on mesh:6x6: OPT-mesh (at t[k]) and U-mesh have no "
          "contention under dor, xy or yx");
    CHECK(crossed > 0, "the chain matters: %d of the 400 trees built for xy contend under yx",
          crossed);
    fl_routing_free(ryx);

    fl_multicast_tree_free(opt);
    fl_multicast_tree_free(um);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* The network-independent trees on another network: host ids of a torus,
 * its own dor, destinations in the order given. */
static void test_torus(void)
{
    FlTopology *t = NULL;
    FlRouting *r = NULL;
    FlMulticastTree *tree = NULL;
    fl_topology_from_spec("torus:4x4", &t, NULL);
    fl_routing_new(t, "dor", NULL, &r, NULL);
    int dests[15];
    for (int i = 0; i < 15; i++)
        dests[i] = 15 - i;
    int rc = fl_multicast_tree_new(t, r, FL_MULTICAST_OPT_TREE, 0, dests, 15, 20, 55, &tree,
                                   NULL);
    CHECK(rc == FL_OK && fl_multicast_tree_latency(tree) == 170,
          "OPT-tree to the 15 other hosts of torus:4x4 takes t[16] = 170");
    CHECK(fl_multicast_tree_edge_to(tree, 0) == NULL && fl_multicast_tree_edge_to(tree, 16) ==
          NULL && fl_multicast_tree_edge_to(tree, 15)->child == 15,
          "edge_to: none to the source or a stranger, one to every destination");
    FlMulticastConflict *c = NULL;
    int n = -1;
    rc = fl_multicast_tree_contention(tree, r, 1, &c, &n, NULL);
    int sane = rc == FL_OK && n >= 0;
    for (int i = 0; sane && i < n; i++)
        sane = c[i].edge_a < c[i].edge_b && fl_topology_channel_src(t, c[i].channel) >= 0;
    CHECK(sane, "the contention check runs on a torus (%d pairs share a channel in flight)", n);
    free(c);
    fl_multicast_tree_free(tree);
    fl_routing_free(r);
    fl_topology_free(t);
}

static void expect_error(const char *what, int rc, const FlError *err, int code,
                         const char *needle)
{
    CHECK(rc == code && strstr(err->message, needle), "%s: refused with '%s'", what,
          err->message);
}

static void test_errors(void)
{
    FlTopology *mesh = NULL, *torus = NULL;
    FlRouting *r = NULL, *rt = NULL, *ud = NULL;
    FlMulticastTree *tree = NULL;
    FlError err;
    fl_topology_from_spec("mesh:4x4", &mesh, NULL);
    fl_topology_from_spec("torus:4x4", &torus, NULL);
    fl_routing_new(mesh, "dor", NULL, &r, NULL);
    fl_routing_new(torus, "dor", NULL, &rt, NULL);
    fl_routing_new(mesh, "updown", NULL, &ud, NULL);
    int d[3] = { 1, 2, 3 };

    int rc = fl_multicast_tree_new(torus, rt, FL_MULTICAST_OPT_MESH, 0, d, 3, 20, 55, &tree,
                                   &err);
    expect_error("opt-mesh on a torus", rc, &err, FL_EUNSUPPORTED, "needs a 2D mesh, not a torus");
    rc = fl_multicast_tree_new(mesh, ud, FL_MULTICAST_UMESH, 0, d, 3, 20, 55, &tree, &err);
    expect_error("u-mesh with updown", rc, &err, FL_EUNSUPPORTED, "dimension-order routing");
    rc = fl_multicast_tree_new(NULL, NULL, FL_MULTICAST_UMESH, 0, d, 3, 20, 55, &tree, &err);
    expect_error("u-mesh without a network", rc, &err, FL_EUNSUPPORTED, "needs a network");
    int missing[2] = { 1, 16 };
    rc = fl_multicast_tree_new(mesh, r, FL_MULTICAST_BINOMIAL, 0, missing, 2, 20, 55, &tree,
                               &err);
    expect_error("host 16 of 16", rc, &err, FL_ENOTFOUND, "destination host 16 does not exist");
    int self[2] = { 1, 0 };
    rc = fl_multicast_tree_new(mesh, r, FL_MULTICAST_CHAIN, 0, self, 2, 20, 55, &tree, &err);
    expect_error("source among the destinations", rc, &err, FL_EINVAL,
                 "source host 0 is among the destinations");
    int twice[3] = { 2, 1, 2 };
    rc = fl_multicast_tree_new(mesh, r, FL_MULTICAST_CHAIN, 0, twice, 3, 20, 55, &tree, &err);
    expect_error("a repeated destination", rc, &err, FL_EINVAL, "host 2 is given twice");
    rc = fl_multicast_tree_new(mesh, r, FL_MULTICAST_CHAIN, 0, d, 3, -1, 55, &tree, &err);
    expect_error("negative t_hold", rc, &err, FL_EINVAL, "t_hold must be");
    rc = fl_multicast_opt_table(9, 20, 10, FL_MULTICAST_DP_LINEAR, NULL, NULL, &err);
    expect_error("O(k) with t_end < t_hold", rc, &err, FL_EINVAL, "needs t_end >= t_hold");
    rc = fl_multicast_opt_table(0, 20, 55, FL_MULTICAST_DP_AUTO, NULL, NULL, &err);
    expect_error("k = 0", rc, &err, FL_EINVAL, "at least 1 node");
    FlMulticastAlgorithm alg;
    rc = fl_multicast_algorithm_lookup("opt-cube", &alg, &err);
    expect_error("an unknown algorithm", rc, &err, FL_ENOTFOUND, "'opt-cube'");
    int names_ok = 1;
    for (int i = 0; i < FL_MULTICAST_ALGORITHM_COUNT; i++) {
        const char *name = fl_multicast_algorithm_name((FlMulticastAlgorithm)i);
        names_ok &= name && !fl_multicast_algorithm_lookup(name, &alg, NULL) && (int)alg == i;
    }
    CHECK(names_ok, "every algorithm's name looks it up");
    CHECK(tree == NULL, "a refused tree leaves the output unset");

    fl_routing_free(r);
    fl_routing_free(rt);
    fl_routing_free(ud);
    fl_topology_free(mesh);
    fl_topology_free(torus);
}

/* Every tree of the 6x6 example as a message schedule: timed by the
 * message layer's analytic model it gives the tree's own send and receive
 * times; run flit by flit with section 4.2's costs, each message is
 * received no earlier than the model says with no head latency, and
 * OPT-mesh (contention-free) stays within the model plus the head's
 * latency along the tree's deepest path. */
static void test_messages(void)
{
    FlTopology *t;
    FlRouting *r;
    FlError err;
    int dests[7], src = example(&t, &r, dests), hosts = fl_topology_host_count(t);
    FlMessageCosts costs = { 2000, 2, 3500, 3, 0 };
    int flits = 256;
    int64_t hold, end;
    fl_message_model(&costs, flits, 1, 0, &hold, &end);
    for (int a = 0; a < FL_MULTICAST_ALGORITHM_COUNT; a++) {
        FlMulticastTree *tree = NULL;
        FlMessage *m = NULL;
        int n = 0, same = 1;
        FlMessageTimes times[7];
        int64_t done = -1;
        if (fl_multicast_tree_new(t, r, (FlMulticastAlgorithm)a, src, dests, 7, (double)hold,
                                  (double)end, &tree, &err)
            || fl_multicast_tree_messages(tree, flits, &m, &n, &err)
            || fl_message_analytic(m, n, hosts, hold, end, times, &done, &err)) {
            CHECK(0, "%s as messages: %s", fl_multicast_algorithm_name(a), err.message);
            fl_multicast_tree_free(tree);
            free(m);
            continue;
        }
        for (int i = 0; i < n; i++) {
            const FlMulticastEdge *e = fl_multicast_tree_edge(tree, i);
            same &= m[i].src == e->parent && m[i].dst == e->child && m[i].flits == flits &&
                    times[i].start == (int64_t)e->send_time &&
                    times[i].received == (int64_t)e->recv_time;
        }
        CHECK(n == 7 && same && done == (int64_t)fl_multicast_tree_latency(tree),
              "%s as messages: the message layer's model times each edge as the tree does "
              "(latency %lld)", fl_multicast_algorithm_name(a), (long long)done);

        FlSimConfig cfg;
        fl_sim_config_init(&cfg);
        cfg.routing = r;
        cfg.traffic.rate = 0;
        FlSim *sim = NULL;
        FlMessageTimes sim_t[7];
        int64_t sim_done = -1;
        if (fl_sim_new(t, &cfg, &sim, &err)
            || fl_message_run(sim, m, n, &costs, 0, NULL, NULL, sim_t, &sim_done, &err)) {
            CHECK(0, "%s flit by flit: %s", fl_multicast_algorithm_name(a), err.message);
        } else {
            int late = 0;
            for (int i = 0; i < n; i++)
                late += sim_t[i].received < times[i].received;
            /* Depth 3 at most here; a head crosses at most 11 switches of
             * 6x6 in 2 + 11 cycles. */
            int64_t slack = a == FL_MULTICAST_OPT_MESH ? 3 * 13 : INT64_MAX / 2;
            CHECK(late == 0 && sim_done >= done && sim_done - done <= slack,
                  "%s flit by flit: latency %lld against the model's %lld",
                  fl_multicast_algorithm_name(a), (long long)sim_done, (long long)done);
        }
        fl_sim_free(sim);
        free(m);
        fl_multicast_tree_free(tree);
    }
    fl_routing_free(r);
    fl_topology_free(t);
}

/* fl_multicast_run from settings: the nodes of fl_multicast_random_nodes()
 * for the seed, the costs' t_hold and t_end, the tree's contention, and the
 * messages as fl_message_run() runs them on the settings' simulator. */
static void test_run_from_settings(void)
{
    FlTopology *t = NULL;
    FlRouting *r = NULL;
    FlError err = { 0 };
    CHECK(fl_topology_from_spec("mesh:8x8", &t, &err) == FL_OK
              && fl_routing_new(t, "dor", NULL, &r, &err) == FL_OK,
          "mesh:8x8 with dor: %s", err.message);
    FlSimSettings s;
    fl_sim_settings_init(&s);
    CHECK(fl_sim_settings_set(&s, "mode", "multicast", &err) == FL_OK
              && fl_sim_settings_set(&s, "algorithm", "opt-mesh", &err) == FL_OK
              && fl_sim_settings_set(&s, "random", "15", &err) == FL_OK
              && fl_sim_settings_set(&s, "message-size", "256", &err) == FL_OK
              && fl_sim_settings_set(&s, "max-packet", "64", &err) == FL_OK
              && fl_sim_settings_set(&s, "seed", "5", &err) == FL_OK,
          "the multicast settings by key: %s", err.message);
    FlMulticastResult res;
    CHECK(fl_multicast_run(t, r, &s, &res, NULL, NULL, &err) == FL_OK, "a run: %s",
          err.message);

    int source = -1, dests[15];
    CHECK(fl_multicast_random_nodes(64, 15, 5, &source, dests, &err) == FL_OK
              && source == res.source && res.n_dests == 15
              && memcmp(dests, res.dests, sizeof dests) == 0,
          "the nodes are fl_multicast_random_nodes()' for seed 5 (source %d)", source);
    int seen[64] = { 0 };
    seen[source] = 1;
    int distinct = 1;
    for (int i = 0; i < 15; i++)
        distinct &= dests[i] >= 0 && dests[i] < 64 && !seen[dests[i]]++;
    CHECK(distinct, "15 distinct destinations, none the source");

    int64_t hold, end;
    fl_message_model(&s.multicast.costs, 256, 2, 0, &hold, &end);
    CHECK(res.t_hold == (double)hold && res.t_end == (double)end && hold == 2000 + 2 * 256
              && end == hold + 2 * 256 + 3500 + 3 * 256,
          "t_hold %g, t_end %g from the costs", res.t_hold, res.t_end);
    FlMulticastTree *tree = NULL;
    FlMulticastConflict *conflicts = NULL;
    int n_conflicts = -1;
    CHECK(fl_multicast_tree_new(t, r, FL_MULTICAST_OPT_MESH, source, dests, 15, res.t_hold,
                                res.t_end, &tree, &err) == FL_OK
              && fl_multicast_tree_contention(tree, r, 0, &conflicts, &n_conflicts, &err)
                     == FL_OK,
          "the same tree by hand: %s", err.message);
    CHECK(res.latency == fl_multicast_tree_latency(tree) && res.n_conflicts == n_conflicts
              && n_conflicts == 0,
          "model latency %g, %d conflicts (OPT-mesh: none)", res.latency, res.n_conflicts);

    FlMessage *m = NULL;
    int n = 0;
    FlSim *sim = NULL;
    FlSimConfig cfg = s.config;
    cfg.routing = r;
    cfg.traffic.rate = 0;
    cfg.link_cycles_per_flit = 2;
    FlMessageTimes times[15];
    int64_t done = -1;
    CHECK(fl_multicast_tree_messages(tree, 256, &m, &n, &err) == FL_OK && n == 15
              && fl_sim_new(t, &cfg, &sim, &err) == FL_OK
              && fl_message_run(sim, m, n, &s.multicast.costs, 0, NULL, NULL, times, &done,
                                &err) == FL_OK,
          "the messages by hand: %s", err.message);
    CHECK(res.simulated && res.simulated_latency == done && res.cycles == fl_sim_cycle(sim)
              && memcmp(times, res.times, sizeof times) == 0,
          "simulated latency %lld as by hand (%lld)", (long long)res.simulated_latency,
          (long long)done);
    int k_sim = fl_sim_result_key_find_for("simulated_latency", FL_OPTION_FOR_MULTICAST);
    int k_ratio = fl_sim_result_key_find_for("latency_ratio", FL_OPTION_FOR_MULTICAST);
    int k_lat = fl_sim_result_key_find_for("latency", FL_OPTION_FOR_MULTICAST);
    CHECK(fl_multicast_result_value(&res, k_sim) == (double)done
              && fl_multicast_result_value(&res, k_lat) == res.latency
              && fl_multicast_result_value(&res, k_ratio) == (double)done / res.latency
              && isnan(fl_multicast_result_value(&res, fl_sim_result_key_find("latency_avg"))),
          "the result keys read the run (ratio %g)", fl_multicast_result_value(&res, k_ratio));
    fl_sim_free(sim);
    free(m);
    free(conflicts);
    fl_multicast_tree_free(tree);
    fl_multicast_result_clear(&res);

    /* The model alone: no simulated figures; too many destinations refused. */
    CHECK(fl_sim_settings_set(&s, "model-only", "true", &err) == FL_OK
              && fl_multicast_run(t, r, &s, &res, NULL, NULL, &err) == FL_OK && !res.simulated
              && !res.times && isnan(fl_multicast_result_value(&res, k_sim))
              && res.latency > 0,
          "model-only: latency %g, nothing simulated", res.latency);
    fl_multicast_result_clear(&res);
    CHECK(fl_sim_settings_set(&s, "random", "64", &err) == FL_OK
              && fl_multicast_run(t, r, &s, &res, NULL, NULL, &err) == FL_ERANGE
              && strstr(err.message, "besides the source, 63"),
          "64 destinations on 64 hosts refused: %s", err.message);
    fl_multicast_result_clear(&res);
    fl_sim_settings_clear(&s);
    fl_routing_free(r);
    fl_topology_free(t);
}

int main(void)
{
    test_run_from_settings();
    test_table1();
    test_agreement();
    test_fig6_and_binomial();
    test_tree_matches_table();
    test_table1_tree();
    test_speed();
    test_mesh_example();
    test_messages();
    test_torus();
    test_errors();
    return tap_done();
}
