/* sim-net.h — what the simulator and experiment tests share: a network built
 * from its spec and a routing name, the configurations they run, and a hash
 * of every flit's view to compare two simulations by. */
#ifndef FLITLAB_SIM_NET_H
#define FLITLAB_SIM_NET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "flitlab.h"
#include "tap.h"

typedef struct Net {
    FlTopology *t;
    FlRouting *r;
} Net;

/* Builds spec with routing (or, with routing NULL, the topology alone); a
 * failure is a failed check and returns 0. */
static inline int net_open(Net *n, const char *spec, const char *routing)
{
    FlError err = { 0 };
    n->t = NULL;
    n->r = NULL;
    if (fl_topology_from_spec(spec, &n->t, &err)
        || (routing && fl_routing_new(n->t, routing, NULL, &n->r, &err))) {
        CHECK(0, "building %s with %s: %s", spec, routing ? routing : "no routing",
              err.message);
        return 0;
    }
    return 1;
}

static inline void net_close(Net *n)
{
    fl_routing_free(n->r);
    fl_topology_free(n->t);
}

/* Uniform traffic at rate, packets of flits, a 500-cycle warm-up and a
 * 3000-cycle window. */
static inline void uniform_config(FlSimConfig *cfg, const Net *n, double rate, int flits)
{
    fl_sim_config_init(cfg);
    cfg->routing = n->r;
    cfg->traffic.rate = rate;
    cfg->traffic.packet_flits = flits;
    cfg->warmup_cycles = 500;
    cfg->measure_cycles = 3000;
}

/* The network spec with routing, and uniform traffic on it. */
static inline int uniform_net(Net *n, FlSimConfig *cfg, const char *spec, const char *routing,
                              double rate, int flits)
{
    if (!net_open(n, spec, routing))
        return 0;
    uniform_config(cfg, n, rate, flits);
    return 1;
}

/* Exactly the count packets of ev, all in the 1000-cycle window. */
static inline void trace_config(FlSimConfig *cfg, const Net *n, const FlTraceEvent *ev,
                                int count)
{
    fl_sim_config_init(cfg);
    cfg->routing = n->r;
    cfg->traffic.pattern = "trace";
    cfg->traffic.trace = ev;
    cfg->traffic.n_trace = count;
    cfg->warmup_cycles = 0;
    cfg->measure_cycles = 1000;
}

/* Every figure, arrays included, apart from status and wall time. */
static inline int same_figures(const FlSimResult *a, const FlSimResult *b, int n_chan, int n_vc)
{
    int same = a->latency_avg == b->latency_avg && a->latency_p50 == b->latency_p50
               && a->latency_p95 == b->latency_p95 && a->latency_p99 == b->latency_p99
               && a->network_latency_avg == b->network_latency_avg
               && a->network_latency_p50 == b->network_latency_p50
               && a->network_latency_p99 == b->network_latency_p99
               && a->throughput == b->throughput && a->throughput_min == b->throughput_min
               && a->offered == b->offered && a->hops_avg == b->hops_avg
               && a->packets == b->packets && a->cycles == b->cycles
               && a->flit_hops == b->flit_hops && a->deadlock_len == b->deadlock_len
               && a->window_start == b->window_start && a->window_cycles == b->window_cycles;
    same = same && !memcmp(a->channel_utilization, b->channel_utilization,
                           sizeof(double) * (size_t)n_chan);
    same = same && !memcmp(a->vc_occupancy, b->vc_occupancy, sizeof(double) * (size_t)n_vc);
    if (same && a->deadlock_len)
        same = !memcmp(a->deadlock_channels, b->deadlock_channels,
                       sizeof(int) * (size_t)a->deadlock_len);
    return same;
}

/* FNV-1a over count values, folded into *h. */
static inline void hash_values(uint64_t *h, const int64_t *v, size_t count)
{
    for (size_t i = 0; i < count; i++)
        *h = (*h ^ (uint64_t)v[i]) * 0x100000001b3ULL;
}

typedef struct FlitHash {
    uint64_t h;
    int count;
} FlitHash;

static inline void hash_flit(void *data, const FlFlitView *f)
{
    FlitHash *fh = data;
    const int64_t v[] = { f->packet, f->index, f->src_host, f->dst_host, f->place, f->channel,
                          f->vc, f->position, f->node, f->out_channel, f->out_vc, f->stall };
    hash_values(&fh->h, v, sizeof v / sizeof v[0]);
    fh->count++;
}

/* Every flit in the network and where it stands, granted and stalled. */
static inline FlitHash flit_hash(const FlSim *s)
{
    FlitHash fh = { 0xcbf29ce484222325ULL, 0 };
    fl_sim_foreach_flit(s, 1000, hash_flit, &fh);
    return fh;
}

#endif /* FLITLAB_SIM_NET_H */
