/* test-sim-route-cache.c — the simulator's route caches: the route
 * table (routes kept by switch and destination for routings whose routes
 * depend on nothing else), each entry of which must be the routing's own
 * choice, the route a blocked head keeps while it waits for an output VC,
 * and a switch's one host's ejection channel, its heads' last hop. A run
 * with them gives the same figures, channel by channel, as the same run
 * asking the routing every time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim-internal.h"
#include "sim-net.h"

static void config(FlSimConfig *cfg, const Net *n)
{
    fl_sim_config_init(cfg);
    cfg->routing = n->r;
    cfg->traffic.pattern = "uniform";
    cfg->traffic.rate = 0.3;
    cfg->traffic.packet_flits = 4;
    cfg->warmup_cycles = 200;
    cfg->measure_cycles = 1500;
    cfg->seed = 3;
}

/* Every entry the run filled is 1 + the input index of the port by which
 * leaves the channel fl_routing_next gives (a packet from a host: in
 * channel -1, class 0), in class 0; returns how many were filled. */
static int check_entries(const FlSim *s, const char *spec)
{
    int filled = 0, wrong = 0;
    for (int a = 0; a < s->n_switches; a++)
        for (int b = 0; b < s->n_switches; b++) {
            int e = s->route_table[(int64_t)a * s->n_switches + b];
            if (!e)
                continue;
            filled++;
            int sw = s->t->switch_nodes[a], dest = s->t->switch_nodes[b];
            FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
            int k = fl_routing_next(s->cfg.routing, sw, -1, 0, dest, ch, FL_ROUTE_MAX_CHOICES);
            int c = s->in_chan[s->in_off[sw] + e - 1] ^ 1;
            if (k != 1 || ch[0].channel != c || ch[0].vc_class != 0)
                wrong++;
        }
    CHECK(wrong == 0, "%s: %d of %d table entries differ from the routing", spec, wrong, filled);
    return filled;
}

static void test_table(const char *spec, const char *pipeline)
{
    Net n;
    if (!net_open(&n, spec, "dor"))
        return;
    FlSimConfig cfg;
    config(&cfg, &n);
    fl_sim_config_pipeline(&cfg, pipeline, NULL);
    FlSim *with = NULL, *without = NULL;
    FlSimResult a, b;
    FlError err;
    if (fl_sim_new(n.t, &cfg, &with, &err) || fl_sim_new(n.t, &cfg, &without, &err)) {
        CHECK(0, "%s: fl_sim_new: %s", spec, err.message);
        goto done;
    }
    CHECK(with->route_table != NULL, "%s: dor without a dateline keeps a route table", spec);
    if (!with->route_table)
        goto done;
    /* The same run, asking the routing at every hop. */
    free(without->route_table);
    without->route_table = NULL;
    if (fl_sim_run(with, &a, NULL, NULL, &err) || fl_sim_run(without, &b, NULL, NULL, &err)) {
        CHECK(0, "%s: fl_sim_run: %s", spec, err.message);
        goto done;
    }
    int filled = check_entries(with, spec);
    CHECK(filled > 0, "%s: the run filled %d table entries", spec, filled);
    int n_chan = fl_topology_channel_count(n.t);
    CHECK(a.packets > 100 && a.status == b.status
              && same_figures(&a, &b, n_chan, n_chan * cfg.vcs),
          "%s, %s: %lld packets, the same figures with and without the table (latency %.6f / "
          "%.6f, flit-hops %lld / %lld)",
          spec, pipeline, (long long)a.packets, a.latency_avg, b.latency_avg,
          (long long)a.flit_hops, (long long)b.flit_hops);
    fl_sim_result_clear(&a);
    fl_sim_result_clear(&b);
done:
    fl_sim_free(with);
    fl_sim_free(without);
    net_close(&n);
}

/* Past saturation heads wait for output VCs and ask again every cycle:
 * the same run forgetting their routes before every cycle gives the same
 * figures. */
static void test_memo(const char *spec, const char *routing, double rate)
{
    Net n;
    if (!net_open(&n, spec, routing))
        return;
    FlSimConfig cfg;
    config(&cfg, &n);
    cfg.traffic.rate = rate;
    FlSim *kept = NULL, *asked = NULL;
    FlSimResult a, b;
    FlError err;
    if (fl_sim_new(n.t, &cfg, &kept, &err) || fl_sim_new(n.t, &cfg, &asked, &err)) {
        CHECK(0, "%s: fl_sim_new: %s", spec, err.message);
        goto done;
    }
    if (fl_sim_run(kept, &a, NULL, NULL, &err)) {
        CHECK(0, "%s: %s", spec, err.message);
        goto done;
    }
    /* Stepped by hand for as many cycles, a run gives fl_sim_run's
     * figures (its status aside). */
    int64_t remembered = 0;
    while (fl_sim_cycle(asked) < a.cycles) {
        for (int v = 0; v < asked->n_vc; v++) {
            remembered += asked->route_memo[v] != 0;
            asked->route_memo[v] = 0;
        }
        fl_sim_step(asked, 1, NULL, &err);
    }
    if (fl_sim_stats(asked, &b, &err)) {
        CHECK(0, "%s: %s", spec, err.message);
        goto done;
    }
    b.status = a.status;
    CHECK(remembered > 1000, "%s / %s at %g: %lld routes kept between cycles", spec, routing,
          rate, (long long)remembered);
    int n_chan = fl_topology_channel_count(n.t);
    CHECK(a.status == FL_SIM_SATURATED && same_figures(&a, &b, n_chan, n_chan * cfg.vcs),
          "%s / %s at %g: saturated, and the same figures when routes are asked every cycle "
          "(latency %.6f / %.6f, flit-hops %lld / %lld)",
          spec, routing, rate, a.latency_avg, b.latency_avg, (long long)a.flit_hops,
          (long long)b.flit_hops);
    fl_sim_result_clear(&a);
    fl_sim_result_clear(&b);
done:
    fl_sim_free(kept);
    fl_sim_free(asked);
    net_close(&n);
}

/* Routings whose routes depend on more than the destination keep none. */
static void test_no_table(const char *spec, const char *routing)
{
    Net n;
    if (!net_open(&n, spec, routing))
        return;
    FlSimConfig cfg;
    config(&cfg, &n);
    FlSim *s = NULL;
    FlError err;
    if (fl_sim_new(n.t, &cfg, &s, &err) == FL_OK)
        CHECK(s->route_table == NULL, "%s / %s: no route table", spec, routing);
    else
        CHECK(0, "%s: fl_sim_new: %s", spec, err.message);
    fl_sim_free(s);
    net_close(&n);
}

/* A switch's one host's ejection channel, which a head at its last switch
 * takes without reading its packet, is that host's; a switch of two hosts
 * or none has none. */
static void test_last_hop(const char *spec, int want_hosts)
{
    Net n;
    if (!net_open(&n, spec, "dor"))
        return;
    FlSimConfig cfg;
    config(&cfg, &n);
    FlSim *s = NULL;
    FlError err;
    if (fl_sim_new(n.t, &cfg, &s, &err) == FL_OK) {
        int wrong = 0, set = 0;
        for (int i = 0; i < n.t->n_switches; i++) {
            int sw = n.t->switch_nodes[i], hosts = 0, ej = -1;
            for (int h = 0; h < s->n_hosts; h++)
                if (s->host_switch[h] == sw) {
                    hosts++;
                    ej = s->host_ej[h];
                }
            wrong += s->node_at[sw].ej != (hosts == 1 ? ej : -1);
            set += s->node_at[sw].ej >= 0;
            wrong += hosts != want_hosts;
        }
        CHECK(wrong == 0 && set == (want_hosts == 1 ? n.t->n_switches : 0),
              "%s: %d switches know their one host's ejection channel, %d wrongly", spec, set,
              wrong);
    } else {
        CHECK(0, "%s: fl_sim_new: %s", spec, err.message);
    }
    fl_sim_free(s);
    net_close(&n);
}

int main(void)
{
    test_last_hop("mesh:6x5", 1);
    test_last_hop("mesh:4x4,hosts=2", 2);
    test_table("mesh:6x5", "default");
    test_table("mesh:6x5", "booksim-min");
    test_table("mesh:4x3x3", "default");
    test_table("hypercube:5", "default");
    test_table("line:9", "booksim-min");
    test_no_table("torus:4x4", "dor");
    test_no_table("irregular:32,ports=6,hosts=2,seed=3", "updown");
    test_no_table("mesh:6x6", "west-first");
    test_memo("irregular:32,ports=6,hosts=2,seed=3", "updown", 0.6);
    test_memo("torus:4x4", "dor", 0.8);
    return tap_done();
}
