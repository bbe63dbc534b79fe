/* bench-collectives.c — how fast the collectives are planned and run. Run
 * by hand (never as a timed test):
 *
 *     bench-collectives
 *
 * prints the median of 5 runs (wall clock) of: paper 001's OPT-tree table
 * for k = 10^6 (the O(k) form) and 10^4 (the O(k^2) one); an OPT-tree of
 * 10^6 nodes with every edge timed; SEM on the 64x64 torus with every block
 * tracked, and one node's holdings after every step; 1000 random requests
 * on a Myrinet mesh coloured by AssignColor and by the greedy baseline, and
 * 200 coloured exactly; and two flit-level runs through the message layer
 * (a 128-node OPT-mesh multicast of 4096-flit messages on the 16x16 mesh
 * with paper 001's costs, and SEM on torus:16x16 with 16-flit blocks). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench-time.h"
#include "flitlab.h"

#define RUNS 5

typedef int (*Job)(void *data, char *note, size_t cap);

/* Runs job RUNS times and prints its median and best time and its note;
 * 1 when every run succeeded. */
static int timed(const char *what, Job job, void *data)
{
    double ms[RUNS];
    char note[160] = "";
    for (int i = 0; i < RUNS; i++) {
        double t0 = now_ms();
        if (!job(data, note, sizeof note)) {
            printf("%-50s failed: %s\n", what, note);
            return 0;
        }
        ms[i] = now_ms() - t0;
    }
    qsort(ms, RUNS, sizeof ms[0], by_value);
    printf("%-50s median %9.1f ms, best %9.1f ms  %s\n", what, ms[RUNS / 2], ms[0], note);
    return 1;
}

/* --- multicast ---------------------------------------------------------- */

typedef struct Table {
    int k;
    FlMulticastDp dp;
    double *t;
    int *j;
} Table;

static int opt_table(void *data, char *note, size_t cap)
{
    Table *tb = data;
    FlError err;
    if (fl_multicast_opt_table(tb->k, 20, 55, tb->dp, tb->t, tb->j, &err)) {
        snprintf(note, cap, "%s", err.message);
        return 0;
    }
    snprintf(note, cap, "t[k] = %g, j_k = %d", tb->t[tb->k], tb->j[tb->k]);
    return 1;
}

static int opt_tree(void *data, char *note, size_t cap)
{
    Table *tb = data;
    FlMulticastTree *tree = NULL;
    FlError err;
    /* The labels 1..k-1 of tb->j serve as destinations. */
    for (int i = 0; i < tb->k - 1; i++)
        tb->j[i] = i + 1;
    if (fl_multicast_tree_new(NULL, NULL, FL_MULTICAST_OPT_TREE, 0, tb->j, tb->k - 1, 20, 55,
                              &tree, &err)) {
        snprintf(note, cap, "%s", err.message);
        return 0;
    }
    snprintf(note, cap, "latency %g, %d edges", fl_multicast_tree_latency(tree),
             fl_multicast_tree_edge_count(tree));
    fl_multicast_tree_free(tree);
    return 1;
}

typedef struct Flits {
    const char *spec;
    FlTopology *t;
    FlRouting *r;
    FlMessage *m;
    int n;
    FlMessageCosts costs;
    int c_d;
} Flits;

static int message_run(void *data, char *note, size_t cap)
{
    Flits *f = data;
    FlSimConfig cfg;
    fl_sim_config_init(&cfg);
    cfg.routing = f->r;
    cfg.traffic.rate = 0;
    cfg.link_cycles_per_flit = f->c_d;
    FlSim *sim = NULL;
    FlError err;
    FlMessageTimes *times = malloc(sizeof *times * (size_t)f->n);
    int64_t done = 0;
    int ok = times && !fl_sim_new(f->t, &cfg, &sim, &err)
             && !fl_message_run(sim, f->m, f->n, &f->costs, 0, NULL, NULL, times, &done, &err);
    if (ok) {
        FlSimResult res = { 0 };
        fl_sim_stats(sim, &res, NULL);
        snprintf(note, cap, "%d messages done at cycle %lld, %.1f M flit-hops", f->n,
                 (long long)done, (double)res.flit_hops / 1e6);
        fl_sim_result_clear(&res);
    } else {
        snprintf(note, cap, "%s", times ? err.message : "out of memory");
    }
    fl_sim_free(sim);
    free(times);
    return ok;
}

static int open_net(Flits *f, const char *routing)
{
    FlError err;
    if (fl_topology_from_spec(f->spec, &f->t, &err) ||
        fl_routing_new(f->t, routing, NULL, &f->r, &err)) {
        fprintf(stderr, "bench-collectives: %s: %s\n", f->spec, err.message);
        return 0;
    }
    return 1;
}

static void close_net(Flits *f)
{
    free(f->m);
    fl_routing_free(f->r);
    fl_topology_free(f->t);
}

/* 128 of the 16x16 mesh's hosts, a random placement, as an OPT-mesh tree
 * of 4096-flit messages timed with paper 001's costs. */
static int multicast_messages(Flits *f)
{
    FlError err;
    int hosts = fl_topology_host_count(f->t), perm[256];
    FlRng rng;
    fl_rng_seed(&rng, 7);
    for (int i = 0; i < hosts; i++)
        perm[i] = i;
    for (int i = hosts - 1; i > 0; i--) {
        int k = (int)fl_rng_below(&rng, (uint32_t)i + 1), x = perm[i];
        perm[i] = perm[k];
        perm[k] = x;
    }
    int64_t hold, end;
    fl_message_model(&f->costs, 4096, f->c_d, 0, &hold, &end);
    FlMulticastTree *tree = NULL;
    int ok = !fl_multicast_tree_new(f->t, f->r, FL_MULTICAST_OPT_MESH, perm[0], perm + 1, 127,
                                    (double)hold, (double)end, &tree, &err)
             && !fl_multicast_tree_messages(tree, 4096, &f->m, &f->n, &err);
    if (!ok)
        fprintf(stderr, "bench-collectives: multicast: %s\n", err.message);
    fl_multicast_tree_free(tree);
    return ok;
}

/* --- complete exchange -------------------------------------------------- */

typedef struct Exchange {
    int n;
    FlAllToAllAlgorithm alg;
} Exchange;

static int exchange(void *data, char *note, size_t cap)
{
    Exchange *x = data;
    FlAllToAll *aa = NULL;
    FlError err;
    if (fl_alltoall_run(x->n, x->alg, &aa, &err)) {
        snprintf(note, cap, "%s", err.message);
        return 0;
    }
    FlAllToAllCosts c;
    fl_alltoall_costs(aa, &c);
    snprintf(note, cap, "%zu of %zu blocks delivered in %zu steps", c.delivered, c.blocks,
             c.startups);
    fl_alltoall_free(aa);
    return c.delivered == c.blocks;
}

static int holdings(void *data, char *note, size_t cap)
{
    FlAllToAll *aa = data;
    size_t steps = fl_alltoall_step_count(aa), most = 0;
    for (size_t s = 0; s <= steps; s++) {
        FlAllToAllBlock *b = NULL;
        size_t k = 0;
        FlError err;
        if (fl_alltoall_holdings(aa, s, 0, &b, &k, &err)) {
            snprintf(note, cap, "%s", err.message);
            return 0;
        }
        most = k > most ? k : most;
        free(b);
    }
    snprintf(note, cap, "P(0,0) after each of %zu steps, at most %zu blocks", steps + 1, most);
    return 1;
}

/* --- Myrinet schedules -------------------------------------------------- */

typedef struct Colouring {
    FlSchedule *s;
    FlScheduleAlgo algo;
    int *colors;
} Colouring;

static int colour(void *data, char *note, size_t cap)
{
    Colouring *c = data;
    int k = 0;
    FlError err;
    int rc = fl_schedule_color(c->s, c->algo, c->colors, &k, &err);
    if (rc == FL_OK)
        rc = fl_schedule_check(c->s, c->colors, &err);
    if (rc) {
        snprintf(note, cap, "%s", err.message);
        return 0;
    }
    snprintf(note, cap, "%d requests, L_max %d, %d colours, valid",
             fl_schedule_request_count(c->s), fl_schedule_l_max(c->s), k);
    return 1;
}

static int schedule_case(const char *spec, int k, FlScheduleAlgo algo, const char *what)
{
    FlTopology *t = NULL;
    FlScheduleRequest *reqs = NULL;
    Colouring c = { NULL, algo, NULL };
    int n = 0, ok = 0;
    FlError err;
    if (fl_topology_from_spec(spec, &t, &err) ||
        fl_schedule_random_uniform(t, k, 11, &reqs, &n, &err) ||
        fl_schedule_new(t, reqs, n, &c.s, &err) || !(c.colors = malloc(sizeof(int) * (size_t)n)))
        fprintf(stderr, "bench-collectives: %s: %s\n", spec, err.message);
    else
        ok = timed(what, colour, &c);
    free(c.colors);
    fl_schedule_free(c.s);
    free(reqs);
    fl_topology_free(t);
    return ok;
}

int main(void)
{
    int ok = 1;
    Table tb = { 1000000, FL_MULTICAST_DP_LINEAR, NULL, NULL };
    tb.t = malloc(sizeof *tb.t * ((size_t)tb.k + 1));
    tb.j = malloc(sizeof *tb.j * ((size_t)tb.k + 1));
    if (!tb.t || !tb.j)
        return 1;
    ok &= timed("OPT-tree table, k = 10^6, O(k)", opt_table, &tb);
    tb.k = 10000;
    tb.dp = FL_MULTICAST_DP_QUADRATIC;
    ok &= timed("OPT-tree table, k = 10^4, O(k^2)", opt_table, &tb);
    tb.k = 1000000;
    ok &= timed("OPT-tree of 10^6 nodes, every edge timed", opt_tree, &tb);
    free(tb.t);
    free(tb.j);

    Exchange sem = { 64, FL_ALLTOALL_SEM }, direct = { 32, FL_ALLTOALL_DIRECT };
    ok &= timed("SEM on 64x64, every block tracked", exchange, &sem);
    ok &= timed("direct exchange on 32x32, tracked", exchange, &direct);
    FlAllToAll *aa = NULL;
    if (fl_alltoall_run(64, FL_ALLTOALL_SEM, &aa, NULL) == FL_OK)
        ok &= timed("SEM 64x64: one node's holdings, every step", holdings, aa);
    fl_alltoall_free(aa);

    ok &= schedule_case("myrinet-mesh:250x250", 1000, FL_SCHEDULE_ASSIGNCOLOR,
                        "1000 requests, myrinet-mesh:250x250, AssignColor");
    ok &= schedule_case("myrinet-mesh:250x250", 1000, FL_SCHEDULE_GREEDY,
                        "1000 requests, myrinet-mesh:250x250, greedy");
    ok &= schedule_case("myrinet-mesh:64x64", 200, FL_SCHEDULE_EXACT,
                        "200 requests, myrinet-mesh:64x64, exact");

    Flits mc = { .spec = "mesh:16x16", .costs = { 2000, 2, 3500, 3, 0 }, .c_d = 2 };
    if (open_net(&mc, "dor") && multicast_messages(&mc))
        ok &= timed("OPT-mesh, 128 nodes, 4096 flits, flit-level", message_run, &mc);
    close_net(&mc);
    Flits xs = { .spec = "torus:16x16", .costs = { 100, 1, 100, 1, 64 }, .c_d = 1 };
    FlError err;
    if (open_net(&xs, "dor") && fl_alltoall_run(16, FL_ALLTOALL_SEM, &aa, &err) == FL_OK
        && fl_alltoall_schedule(aa, 16, &xs.m, &xs.n, NULL, &err) == FL_OK)
        ok &= timed("SEM on torus:16x16, 16-flit blocks, flit-level", message_run, &xs);
    fl_alltoall_free(aa);
    close_net(&xs);
    return ok ? 0 : 1;
}
