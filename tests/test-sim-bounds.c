/* test-sim-bounds.c — what a simulation holds stays bounded: source queues
 * past saturation (their packets counted, stored as room comes, a trace's
 * exactly as an unbounded queue would send them), links of any latency (no
 * false deadlock while flits are on their way, memory independent of the
 * latency), and checkpoints of a deferring run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim-net.h"

static FlSim *sim_open(const Net *n, const FlSimConfig *cfg)
{
    FlSim *s = NULL;
    FlError err = { 0 };
    int rc = fl_sim_new(n->t, cfg, &s, &err);
    CHECK(rc == FL_OK, "a simulation%s%s", rc ? ": " : "", rc ? err.message : "");
    return rc ? NULL : s;
}

/* 1-flit packets at rate on spec under dor, by the injection process,
 * from cycle 0 on; NULL, with the network closed, if it cannot be built. */
static FlSim *saturating(Net *n, const char *spec, double rate, FlInjectionProcess process)
{
    FlSimConfig cfg;
    if (!uniform_net(n, &cfg, spec, "dor", rate, 1))
        return NULL;
    cfg.traffic.process = process;
    cfg.warmup_cycles = 0;
    cfg.measure_cycles = 1000000;
    FlSim *s = sim_open(n, &cfg);
    if (!s)
        net_close(n);
    return s;
}

/* Every packet made is delivered, in the network or a queue, or owed. */
static int packets_add_up(const FlSim *s)
{
    FlSimCounters k;
    FlSimMemory m;
    fl_sim_counters(s, &k);
    fl_sim_memory(s, &m);
    return k.packets_created == k.packets_delivered + m.packets_stored + m.packets_owed;
}

/* A 1-flit run at 0.9 on an 8x8 mesh saturates: its backlog grows with
 * every cycle, its memory does not. Its 64 hosts store 4096 packets each
 * (262144 among them). */
static void test_saturated_queues(void)
{
    Net n;
    FlSim *s = saturating(&n, "mesh:8x8", 0.9, FL_INJECT_BERNOULLI);
    if (!s)
        return;
    FlSimMemory early, late;
    FlSimCounters k_early, k_late;
    fl_sim_step(s, 20000, NULL, NULL);
    fl_sim_memory(s, &early);
    fl_sim_counters(s, &k_early);
    CHECK(packets_add_up(s), "after 20000 cycles, the packets made are those delivered, "
          "stored and owed");
    fl_sim_step(s, 40000, NULL, NULL);
    fl_sim_memory(s, &late);
    fl_sim_counters(s, &k_late);
    CHECK(k_late.queued > 2 * k_early.queued && late.packets_owed > early.packets_owed,
          "the backlog grows: %lld flits queued after 20000 cycles, %lld after 60000 "
          "(%lld packets owed)", (long long)k_early.queued, (long long)k_late.queued,
          (long long)late.packets_owed);
    CHECK(late.most_stored <= 4096 && early.most_stored >= 4095,
          "a source queue stores at most 4096 packets (%lld, %lld)",
          (long long)early.most_stored, (long long)late.most_stored);
    CHECK(late.packet_bytes == early.packet_bytes && late.state_bytes == early.state_bytes,
          "the memory does not grow from cycle 20000 to 60000 (%zu + %zu bytes, then %zu + "
          "%zu)", early.state_bytes, early.packet_bytes, late.state_bytes, late.packet_bytes);
    CHECK(late.packet_bytes < 24u << 20, "the packets take under 24 MiB (%zu bytes)",
          late.packet_bytes);
    CHECK(packets_add_up(s), "after 60000 cycles too");
    FlSimResult res;
    fl_sim_stats(s, &res, NULL);
    CHECK(res.offered > 0.89 && res.offered < 0.91,
          "offered load counts every packet made, stored or not (%.4f)", res.offered);
    fl_sim_result_clear(&res);
    fl_sim_free(s);
    net_close(&n);
}

/* A checkpoint taken while sources defer restores them: stepping on from
 * it again reaches the same state. 256 hosts on 16 switches store 1024
 * packets each. */
static void test_checkpoint_deferring(void)
{
    Net n;
    FlSim *s = saturating(&n, "mesh:4x4,hosts=16", 0.45, FL_INJECT_ONOFF);
    if (!s)
        return;
    FlSimCheckpoint *cp = NULL;
    fl_sim_step(s, 4000, NULL, NULL);
    FlSimMemory m;
    fl_sim_memory(s, &m);
    CHECK(m.packets_owed > 0, "on/off sources at 0.45 defer (%lld packets owed)",
          (long long)m.packets_owed);
    fl_sim_checkpoint(s, &cp, NULL);
    fl_sim_step(s, 1000, NULL, NULL);
    FlitHash first = flit_hash(s);
    FlSimCounters k1, k2;
    fl_sim_counters(s, &k1);
    CHECK(fl_sim_restore(s, cp, NULL) == FL_OK, "restored at cycle 4000");
    fl_sim_step(s, 1000, NULL, NULL);
    FlitHash again = flit_hash(s);
    fl_sim_counters(s, &k2);
    CHECK(first.h == again.h && first.count == again.count
              && k1.latency_sum == k2.latency_sum && k1.queued == k2.queued
              && k1.packets_created == k2.packets_created,
          "stepped to 5000 again: the same flits and counts (%lld packets made)",
          (long long)k2.packets_created);
    CHECK(packets_add_up(s), "on/off: the packets made are those delivered, stored and "
          "owed");
    fl_sim_checkpoint_free(cp);
    fl_sim_free(s);
    net_close(&n);
}

/* Events of a trace from host 0: two 4-flit packets a cycle, far more
 * than its link sends, and more than the 1024 its queue stores. */
#define BURST 1600

static void burst_trace(FlTraceEvent *ev)
{
    for (int i = 0; i < BURST; i++)
        ev[i] = (FlTraceEvent){ .cycle = i / 2, .src = 0, .dst = 1 + i % 15, .flits = 4 };
}

typedef struct Tally {
    int64_t packets, latency_sum, last;
    uint64_t order;          /* a hash of (src, created, delivered) in order */
} Tally;

static int tally_delivery(FlSim *s, const FlSimHookInfo *info, void *data)
{
    (void)s;
    Tally *t = data;
    t->packets++;
    t->latency_sum += info->delivered - info->created;
    t->last = info->delivered;
    const int64_t v[] = { info->src_host, info->dst_host, info->created, info->delivered };
    hash_values(&t->order, v, 4);
    return 0;
}

/* A trace source that defers replays its own events: the same packets, at
 * the same cycles, as the same events injected one by one into an
 * unbounded queue. */
static void test_trace_deferred_exactly(void)
{
    Net n;
    if (!net_open(&n, "mesh:4x4,hosts=16", "dor"))
        return;
    FlTraceEvent ev[BURST];
    burst_trace(ev);
    FlSimConfig cfg;
    trace_config(&cfg, &n, ev, BURST);
    cfg.measure_cycles = 1000;
    FlSim *traced = sim_open(&n, &cfg);
    cfg.traffic.n_trace = 0;
    cfg.traffic.pattern = "uniform";
    cfg.traffic.rate = 0.0;
    FlSim *injected = sim_open(&n, &cfg);
    Tally a = { 0, 0, 0, 0xcbf29ce484222325ULL }, b = a;
    if (traced && injected) {
        fl_sim_set_hook(traced, FL_SIM_HOOK_DELIVERED, 0, tally_delivery, &a, NULL);
        fl_sim_set_hook(injected, FL_SIM_HOOK_DELIVERED, 0, tally_delivery, &b, NULL);
        FlSimMemory m = { 0 }, most = { 0 };
        for (int64_t c = 0; c < 7000; c++) {
            for (int i = 0; i < BURST; i++)
                if (ev[i].cycle == c)
                    fl_sim_inject(injected, ev[i].src, ev[i].dst, ev[i].flits, NULL, NULL);
            fl_sim_step(traced, 1, NULL, NULL);
            fl_sim_step(injected, 1, NULL, NULL);
            fl_sim_memory(traced, &m);
            if (m.packets_owed > most.packets_owed)
                most = m;
        }
        CHECK(most.packets_owed > 100 && most.most_stored >= 1023,
              "the trace's source deferred (up to %lld packets owed, 1024 stored)",
              (long long)most.packets_owed);
        CHECK(a.packets == BURST && b.packets == BURST, "every packet delivered (%lld, %lld)",
              (long long)a.packets, (long long)b.packets);
        CHECK(a.order == b.order && a.latency_sum == b.latency_sum && a.last == b.last,
              "the same deliveries in the same order, total latency %lld and %lld, last at "
              "cycle %lld and %lld", (long long)a.latency_sum, (long long)b.latency_sum,
              (long long)a.last, (long long)b.last);
    }
    fl_sim_free(traced);
    fl_sim_free(injected);
    net_close(&n);
}

/* One packet across a 4x4 mesh on links of 12000 cycles: longer than the
 * watchdog's 10000, which must wait for the flits on their way. */
static void test_long_links(void)
{
    Net n;
    if (!net_open(&n, "mesh:4x4", "dor"))
        return;
    FlTraceEvent ev[] = { { .cycle = 0, .src = 0, .dst = 15, .flits = 3 } };
    FlSimConfig cfg;
    trace_config(&cfg, &n, ev, 1);
    cfg.link_latency = 12000;
    FlSim *s = sim_open(&n, &cfg);
    if (s) {
        FlSimResult res;
        int rc = fl_sim_run(s, &res, NULL, NULL, NULL);
        CHECK(rc == FL_OK && res.status == FL_SIM_OK && res.packets == 1,
              "12000-cycle links: %s, %lld packets", fl_sim_status_name(res.status),
              (long long)res.packets);
        /* T0 = Lk + H * Lk + (L - 1) with 7 switches on the route. */
        CHECK(res.latency_avg == 12000.0 * 8 + 2, "its latency is the zero-load one (%.0f)",
              res.latency_avg);
        fl_sim_result_clear(&res);
        fl_sim_free(s);
    }
    /* The same with traffic, and buffers deep enough to cover the links'
     * round trips: slow, never deadlocked. */
    FlSimConfig u;
    uniform_config(&u, &n, 0.05, 1);
    u.link_latency = 12000;
    u.buf_flits = 4096;
    u.warmup_cycles = 0;
    u.measure_cycles = 30000;
    u.drain_cycles = 400000;
    s = sim_open(&n, &u);
    if (s) {
        FlSimResult res;
        fl_sim_run(s, &res, NULL, NULL, NULL);
        FlSimCounters k;
        fl_sim_counters(s, &k);
        CHECK(res.status != FL_SIM_DEADLOCK && res.deadlock_len == 0,
              "a loaded mesh with 12000-cycle links is not deadlocked (%s)",
              fl_sim_status_name(res.status));
        CHECK(res.status == FL_SIM_OK && res.packets > 0 && k.flits_ejected > 0,
              "it delivers every packet it measures (%lld, %lld flits of %lld made)",
              (long long)res.packets, (long long)k.flits_ejected, (long long)k.flits_created);
        fl_sim_result_clear(&res);
        fl_sim_free(s);
    }
    net_close(&n);
}

/* The state of a 4x4 mesh with links of the given latency, in bytes. */
static size_t state_with_latency(const Net *n, int latency)
{
    FlSimConfig cfg;
    uniform_config(&cfg, n, 0.1, 1);
    cfg.link_latency = latency;
    FlSim *s = sim_open(n, &cfg);
    FlSimMemory m = { 0 };
    if (s) {
        fl_sim_step(s, 100, NULL, NULL);
        fl_sim_memory(s, &m);
    }
    fl_sim_free(s);
    return m.state_bytes + m.packet_bytes;
}

static void test_latency_memory(void)
{
    Net n;
    if (!net_open(&n, "mesh:4x4", "dor"))
        return;
    size_t one = state_with_latency(&n, 1), most = state_with_latency(&n, 1 << 20);
    CHECK(one > 0 && most < one + (2u << 20),
          "a 4x4 mesh takes %zu bytes with 1-cycle links, %zu with 2^20-cycle links", one,
          most);
    net_close(&n);
}

int main(void)
{
    test_saturated_queues();
    test_checkpoint_deferring();
    test_trace_deferred_exactly();
    test_long_links();
    test_latency_memory();
    return tap_done();
}
