/* sim-result-keys.c — the table of a simulation result's figures, of the
 * flit-level simulator, the deflection model and the multicast model: what
 * the CLI prints, experiments store as scalars and plots put on their
 * axes. */
#include <math.h>
#include <string.h>

#include "flitlab.h"

typedef enum {
    K_LATENCY_AVG,
    K_LATENCY_P50,
    K_LATENCY_P95,
    K_LATENCY_P99,
    K_NET_LATENCY_AVG,
    K_NET_LATENCY_P50,
    K_NET_LATENCY_P99,
    K_THROUGHPUT,
    K_THROUGHPUT_MIN,
    K_OFFERED,
    K_HOPS_AVG,
    K_PACKETS,
    K_CYCLES,
    K_DELIVERED,
    K_DEFLECTIONS,
    K_MAX_DELAY,
    K_AVG_DELAY,
    K_DEFLECT_THROUGHPUT,
    K_DEFLECT_THROUGHPUT_ALL,
    K_FLIT_HOPS,
    K_WALL_S,
    K_UTILIZATION_MAX,
    K_UTILIZATION_AVG,
    K_MC_T_HOLD,
    K_MC_T_END,
    K_MC_LATENCY,
    K_MC_SIMULATED,
    K_MC_RATIO,
    K_MC_CONTENTION,
    K_COUNT
} ResultKey;

#define FLIT    FL_OPTION_FOR_FLIT
#define DEFLECT FL_OPTION_FOR_DEFLECTION
#define MCAST   FL_OPTION_FOR_MULTICAST
#define BOTH    (FL_OPTION_FOR_FLIT | FL_OPTION_FOR_DEFLECTION)
#define ALL     (BOTH | MCAST)

/* Ordered so that each model's keys come in the order its JSON has always
 * had; the multicast model's as `flitlab multicast --json` names them. */
static const FlSimResultKey keys[K_COUNT] = {
    [K_LATENCY_AVG] = { "latency_avg", FL_N_("Mean packet latency"), FL_N_("cycles"), 0, 0, FLIT },
    [K_LATENCY_P50] = { "latency_p50", FL_N_("Median packet latency"), FL_N_("cycles"), 0, 0,
                        FLIT },
    [K_LATENCY_P95] = { "latency_p95", FL_N_("95th percentile packet latency"), FL_N_("cycles"), 0,
                        0, FLIT },
    [K_LATENCY_P99] = { "latency_p99", FL_N_("99th percentile packet latency"), FL_N_("cycles"), 0,
                        0, FLIT },
    [K_NET_LATENCY_AVG] = { "network_latency_avg", FL_N_("Mean network latency"), FL_N_("cycles"),
                            0, 0, FLIT },
    [K_NET_LATENCY_P50] = { "network_latency_p50", FL_N_("Median network latency"), FL_N_("cycles"),
                            0, 0, FLIT },
    [K_NET_LATENCY_P99] = { "network_latency_p99", FL_N_("99th percentile network latency"),
                            FL_N_("cycles"), 0, 0, FLIT },
    [K_THROUGHPUT] = { "throughput", FL_N_("Accepted throughput"), FL_N_("flits/cycle/host"), 0, 0,
                       FLIT },
    [K_THROUGHPUT_MIN] = { "throughput_min", FL_N_("Accepted throughput of the worst host"),
                           FL_N_("flits/cycle/host"), 0, 0, FLIT },
    [K_OFFERED] = { "offered", FL_N_("Offered load"), FL_N_("flits/cycle/host"), 0, 0, FLIT },
    [K_HOPS_AVG] = { "hops_avg", FL_N_("Mean hops"), FL_N_("hops"), 0, 0, FLIT },
    [K_PACKETS] = { "packets", FL_N_("Packets measured"), "", 1, 0, FLIT },
    [K_CYCLES] = { "cycles", FL_N_("Cycles simulated"), FL_N_("cycles"), 1, 0, ALL },
    [K_DELIVERED] = { "delivered", FL_N_("Messages delivered"), "", 1, 0, DEFLECT },
    [K_DEFLECTIONS] = { "deflections", FL_N_("Deflections"), "", 1, 0, DEFLECT },
    [K_MAX_DELAY] = { "max_delay", FL_N_("Largest message delay"), FL_N_("cycles"), 0, 0, DEFLECT },
    [K_AVG_DELAY] = { "avg_delay", FL_N_("Mean message delay"), FL_N_("cycles"), 0, 0, DEFLECT },
    [K_DEFLECT_THROUGHPUT] = { "throughput", FL_N_("Throughput"), FL_N_("messages/cycle/node"), 0,
                               0, DEFLECT },
    [K_DEFLECT_THROUGHPUT_ALL] = { "throughput_all", FL_N_("Throughput over the whole run"),
                                   FL_N_("messages/cycle/node"), 0, 0, DEFLECT },
    [K_FLIT_HOPS] = { "flit_hops", FL_N_("Flit-hops simulated"), "", 1, 0, FLIT },
    [K_WALL_S] = { "wall_s", FL_N_("Wall-clock time"), "s", 0, 0, ALL },
    [K_UTILIZATION_MAX] = { "channel_utilization_max", FL_N_("Utilization of the busiest channel"),
                            "", 0, 1, FLIT },
    [K_UTILIZATION_AVG] = { "channel_utilization_avg", FL_N_("Mean channel utilization"), "", 0, 1,
                            FLIT },
    [K_MC_T_HOLD] = { "t_hold", FL_N_("Time between a node's sends (model)"), FL_N_("cycles"), 0, 0,
                      MCAST },
    [K_MC_T_END] = { "t_end", FL_N_("Time from a send to its receipt (model)"), FL_N_("cycles"), 0,
                     0, MCAST },
    [K_MC_LATENCY] = { "latency", FL_N_("Multicast latency (model)"), FL_N_("cycles"), 0, 0,
                       MCAST },
    [K_MC_SIMULATED] = { "simulated_latency", FL_N_("Multicast latency (simulated)"),
                         FL_N_("cycles"), 1, 0, MCAST },
    [K_MC_RATIO] = { "latency_ratio", FL_N_("Simulated over model latency"), "", 0, 0, MCAST },
    [K_MC_CONTENTION] = { "contention", FL_N_("Contending unicast pairs"), "", 1, 0, MCAST },
};

int fl_sim_result_key_count(void)
{
    return K_COUNT;
}

const FlSimResultKey *fl_sim_result_key(int index)
{
    return index >= 0 && index < K_COUNT ? &keys[index] : NULL;
}

int fl_sim_result_key_find_for(const char *name, unsigned models)
{
    for (int i = 0; name && i < K_COUNT; i++)
        if ((keys[i].models & models) && strcmp(keys[i].name, name) == 0)
            return i;
    return -1;
}

int fl_sim_result_key_find(const char *name)
{
    return fl_sim_result_key_find_for(name, FL_OPTION_FOR_FLIT);
}

/* Busiest and mean busy fraction over the switch-to-switch channels. */
static void utilization(const FlSimResult *res, const FlTopology *t, double *max, double *mean)
{
    int n = t ? fl_topology_channel_count(t) : 0, counted = 0;
    double sum = 0;
    *max = 0;
    for (int c = 0; res->channel_utilization && c < n; c++) {
        if (fl_topology_node_kind(t, fl_topology_channel_src(t, c)) != FL_NODE_SWITCH
            || fl_topology_node_kind(t, fl_topology_channel_dst(t, c)) != FL_NODE_SWITCH)
            continue;
        double u = res->channel_utilization[c];
        sum += u;
        counted++;
        if (u > *max)
            *max = u;
    }
    *mean = counted ? sum / counted : 0;
}

double fl_sim_result_value(const FlSimResult *res, const FlTopology *t, int index)
{
    double max, mean;
    if (index < 0 || index >= K_COUNT || !(keys[index].models & FLIT))
        return NAN;
    switch ((ResultKey)index) {
    case K_LATENCY_AVG:
        return res->latency_avg;
    case K_LATENCY_P50:
        return res->latency_p50;
    case K_LATENCY_P95:
        return res->latency_p95;
    case K_LATENCY_P99:
        return res->latency_p99;
    case K_NET_LATENCY_AVG:
        return res->network_latency_avg;
    case K_NET_LATENCY_P50:
        return res->network_latency_p50;
    case K_NET_LATENCY_P99:
        return res->network_latency_p99;
    case K_THROUGHPUT:
        return res->throughput;
    case K_THROUGHPUT_MIN:
        return res->throughput_min;
    case K_OFFERED:
        return res->offered;
    case K_HOPS_AVG:
        return res->hops_avg;
    case K_PACKETS:
        return (double)res->packets;
    case K_CYCLES:
        return (double)res->cycles;
    case K_FLIT_HOPS:
        return (double)res->flit_hops;
    case K_WALL_S:
        return res->wall_s;
    case K_UTILIZATION_MAX:
    case K_UTILIZATION_AVG:
        utilization(res, t, &max, &mean);
        return index == K_UTILIZATION_MAX ? max : mean;
    default:
        break;
    }
    return NAN;
}

/* Mean of v[from .. n). */
static double mean_from(const double *v, int64_t from, int64_t n)
{
    double sum = 0;
    for (int64_t i = from; i < n; i++)
        sum += v[i];
    return n > from ? sum / (double)(n - from) : 0;
}

double fl_deflect_result_value(const FlDeflectResult *res, int index)
{
    int64_t n = res->cycles;
    switch (index) {
    case K_CYCLES:
        return (double)n;
    case K_DELIVERED:
        return (double)res->delivered;
    case K_DEFLECTIONS:
        return (double)res->deflections;
    case K_MAX_DELAY:
        return n && res->max_delay ? res->max_delay[n - 1] : 0;
    case K_AVG_DELAY:
        return n && res->avg_delay ? res->avg_delay[n - 1] : 0;
    case K_DEFLECT_THROUGHPUT:
        return res->throughput ? mean_from(res->throughput, n / 2, n) : NAN;
    case K_DEFLECT_THROUGHPUT_ALL:
        return res->throughput ? mean_from(res->throughput, 0, n) : NAN;
    case K_WALL_S:
        return res->wall_s;
    default:
        return NAN;
    }
}

double fl_multicast_result_value(const FlMulticastResult *res, int index)
{
    switch (index) {
    case K_MC_T_HOLD:
        return res->t_hold;
    case K_MC_T_END:
        return res->t_end;
    case K_MC_LATENCY:
        return res->latency;
    case K_MC_SIMULATED:
        return res->simulated ? (double)res->simulated_latency : NAN;
    case K_MC_RATIO:
        return res->simulated && res->latency > 0 ? (double)res->simulated_latency / res->latency
                                                  : NAN;
    case K_MC_CONTENTION:
        return res->n_conflicts;
    case K_CYCLES:
        return (double)res->cycles;
    case K_WALL_S:
        return res->wall_s;
    default:
        return NAN;
    }
}
