/* multicast-run.c — one run of the simulation settings' multicast model: the
 * nodes placed at random, the tree timed on paper 001's model with the
 * costs' t_hold and t_end, its contention, and its messages flit by flit
 * (flitlab/multicast.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flitlab.h"

void fl_multicast_config_init(FlMulticastConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->algorithm = FL_MULTICAST_OPT_TREE;
    cfg->dests = 7;
    cfg->flits = 64;
    cfg->costs = (FlMessageCosts){ 2000, 2, 3500, 3, 0 };
    cfg->channel_cycles = 2;
}

void fl_multicast_result_clear(FlMulticastResult *res)
{
    if (!res)
        return;
    free(res->dests);
    fl_multicast_tree_free(res->tree);
    free(res->conflicts);
    free(res->times);
    memset(res, 0, sizeof *res);
}

int fl_multicast_random_nodes(int hosts, int k, uint64_t seed, int *source, int *dests,
                              FlError *err)
{
    if (hosts < 2 || k < 0 || k > hosts - 1)
        return fl_error_set(err, FL_ERANGE, "%d random destinations: too many for the hosts "
                            "besides the source, %d", k, hosts - 1);
    if (*source >= hosts)
        return fl_error_set(err, FL_ERANGE, "source %d: the network has hosts 0 to %d",
                            *source, hosts - 1);
    int *pool = malloc((size_t)hosts * sizeof *pool);
    if (!pool)
        return fl_error_set(err, FL_ENOMEM, "out of memory placing a multicast on %d hosts",
                            hosts);
    FlRng rng;
    fl_rng_seed(&rng, seed);
    for (int h = 0; h < hosts; h++)
        pool[h] = h;
    if (*source < 0)
        *source = (int)fl_rng_below(&rng, (uint32_t)hosts);
    /* The source out of the pool, then a partial Fisher-Yates shuffle. */
    pool[*source] = hosts - 1;
    for (int i = 0; i < k; i++) {
        int pick = i + (int)fl_rng_below(&rng, (uint32_t)(hosts - 1 - i));
        int v = pool[pick];
        pool[pick] = pool[i];
        pool[i] = v;
        dests[i] = v;
    }
    free(pool);
    return FL_OK;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The tree's messages flit by flit on a simulator with the settings'
 * router, no traffic of its own and a flit every c_d cycles per channel. */
static int simulate(const FlTopology *t, const FlRouting *r, const FlSimSettings *s,
                    FlMulticastResult *res, FlProgressFunc progress, void *progress_data,
                    FlError *err)
{
    const FlMulticastConfig *mc = &s->multicast;
    FlMessage *m = NULL;
    int n = 0;
    int rc = fl_multicast_tree_messages(res->tree, mc->flits, &m, &n, err);
    if (rc)
        return rc;
    res->times = calloc((size_t)(n > 0 ? n : 1), sizeof *res->times);
    if (!res->times) {
        free(m);
        return fl_error_set(err, FL_ENOMEM, "out of memory for the times of %d messages", n);
    }
    FlSimConfig cfg = s->config;
    cfg.routing = r;
    cfg.traffic.rate = 0;
    cfg.link_cycles_per_flit = mc->channel_cycles;
    FlSim *sim = NULL;
    rc = fl_sim_new(t, &cfg, &sim, err);
    if (!rc)
        rc = fl_message_run(sim, m, n, &mc->costs, 0, progress, progress_data, res->times,
                            &res->simulated_latency, err);
    if (!rc) {
        res->simulated = 1;
        res->cycles = fl_sim_cycle(sim);
    }
    fl_sim_free(sim);
    free(m);
    return rc;
}

int fl_multicast_run_nodes(const FlTopology *t, const FlRouting *r, const FlSimSettings *s,
                           int source, const int *dests, int n_dests, const double *times,
                           FlMulticastResult *res, FlProgressFunc progress,
                           void *progress_data, FlError *err)
{
    if (!res)
        return fl_error_set(err, FL_EINVAL, "fl_multicast_run: nowhere to put the result");
    memset(res, 0, sizeof *res);
    if (!t || !r || !s || !dests || n_dests < 1)
        return fl_error_set(err, FL_EINVAL, "fl_multicast_run: no network, routing, settings "
                            "or destinations");
    double start = seconds_now();
    const FlMulticastConfig *mc = &s->multicast;
    res->source = source;
    res->n_dests = n_dests;
    if (!(res->dests = malloc((size_t)n_dests * sizeof *res->dests)))
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d destinations", n_dests);
    memcpy(res->dests, dests, (size_t)n_dests * sizeof *dests);
    if (times) {
        res->t_hold = times[0];
        res->t_end = times[1];
    } else {
        int64_t hold, end;
        fl_message_model(&mc->costs, mc->flits, mc->channel_cycles, 0, &hold, &end);
        res->t_hold = (double)hold;
        res->t_end = (double)end;
    }
    int rc = fl_multicast_tree_new(t, r, mc->algorithm, source, dests, n_dests, res->t_hold,
                                   res->t_end, &res->tree, err);
    if (!rc)
        rc = fl_multicast_tree_contention(res->tree, r, 0, &res->conflicts, &res->n_conflicts,
                                          err);
    if (!rc)
        res->latency = fl_multicast_tree_latency(res->tree);
    if (!rc && !mc->model_only)
        rc = simulate(t, r, s, res, progress, progress_data, err);
    res->wall_s = seconds_now() - start;
    return rc;
}

int fl_multicast_run(const FlTopology *t, const FlRouting *r, const FlSimSettings *s,
                     FlMulticastResult *res, FlProgressFunc progress, void *progress_data,
                     FlError *err)
{
    if (res)
        memset(res, 0, sizeof *res);
    if (!t || !s)
        return fl_error_set(err, FL_EINVAL, "fl_multicast_run: no network or settings");
    int k = s->multicast.dests, source = -1;
    int *dests = malloc((size_t)(k > 0 ? k : 1) * sizeof *dests);
    if (!dests)
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d destinations", k);
    int rc = fl_multicast_random_nodes(fl_topology_host_count(t), k, s->config.seed, &source,
                                       dests, err);
    if (!rc)
        rc = fl_multicast_run_nodes(t, r, s, source, dests, k, NULL, res, progress,
                                    progress_data, err);
    free(dests);
    return rc;
}
