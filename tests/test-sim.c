/* test-sim.c — the flit-level simulator: zero-load latency formulas of both
 * pipelines, BookSim's light-load figures, determinism, checkpoints,
 * wormhole against virtual cut-through, deadlock detection, conservation,
 * serialization, throughput below saturation and refused parameters. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim-net.h"

/* Runs cfg to the end; returns the status code of fl_sim_run (res filled
 * on success). */
static int run(const Net *n, const FlSimConfig *cfg, FlSimResult *res)
{
    FlSim *s;
    FlError err;
    int rc = fl_sim_new(n->t, cfg, &s, &err);
    if (rc) {
        CHECK(0, "fl_sim_new: %s", err.message);
        return rc;
    }
    rc = fl_sim_run(s, res, NULL, NULL, &err);
    if (rc)
        CHECK(0, "fl_sim_run: %s", err.message);
    fl_sim_free(s);
    return rc;
}

/* A configuration that sends exactly the given trace, all measured and
 * drained. */
static void drained_trace_config(FlSimConfig *cfg, const Net *n, const FlTraceEvent *ev,
                                 int count)
{
    trace_config(cfg, n, ev, count);
    cfg->drain_cycles = 10000;
}

/* Latency of one packet alone in the network. */
static double single_packet(const Net *n, const char *pipeline, int src, int dst, int flits,
                            int cycles_per_flit)
{
    FlTraceEvent ev = { 5, src, dst, flits };
    FlSimConfig cfg;
    FlSimResult res;
    drained_trace_config(&cfg, n, &ev, 1);
    cfg.buf_flits = 4;
    cfg.link_cycles_per_flit = cycles_per_flit;
    fl_sim_config_pipeline(&cfg, pipeline, NULL);
    if (run(n, &cfg, &res))
        return -1;
    double lat = res.packets == 1 ? res.latency_avg : -1;
    fl_sim_result_clear(&res);
    return lat;
}

/* On mesh:8x8 host i sits on switch (i % 8, i / 8). */
static int mesh_switches(int a, int b)
{
    return abs(a % 8 - b % 8) + abs(a / 8 - b / 8) + 1;
}

static void test_zero_load(void)
{
    Net n;
    if (!net_open(&n, "mesh:8x8", "dor"))
        return;
    static const int pairs[][2] = { { 0, 63 }, { 0, 0 }, { 9, 14 }, { 63, 8 }, { 27, 36 } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int a = pairs[i][0], b = pairs[i][1], H = mesh_switches(a, b);
        for (int L = 1; L <= 16; L += 15) {
            /* default: T0 = 1 + H + (L - 1); booksim-min: 3H + 2 + (L - 1). */
            double d = single_packet(&n, "default", a, b, L, 1);
            CHECK(d == 1 + H + (L - 1), "default %d->%d, %d flits: %g cycles, want %d", a, b, L, d,
                  1 + H + (L - 1));
            double m = single_packet(&n, "booksim-min", a, b, L, 1);
            CHECK(m == 3 * H + 2 + (L - 1), "booksim-min %d->%d, %d flits: %g cycles, want %d", a,
                  b, L, m, 3 * H + 2 + (L - 1));
        }
    }
    /* Three cycles per flit triple the serialization term (L - 1) * C. */
    double c1 = single_packet(&n, "default", 0, 63, 16, 1);
    double c3 = single_packet(&n, "default", 0, 63, 16, 3);
    CHECK(c3 == 1 + 15 + 15 * 3, "16 flits at 3 cycles per flit: %g cycles, want %d", c3,
          1 + 15 + 45);
    CHECK(c3 - c1 == 2 * 15, "serialization grows from 15 to 45 cycles (%g -> %g)", c1, c3);
    net_close(&n);
}

/* Links long enough that a flit into an ejection VC is on its way 15
 * cycles (its host is woken as it arrives, from a bitmap per cycle) and 16
 * (too many bitmaps: the host stays active while the flit is on its way):
 * T0 = (X + Lk) + H * (Sa + X + Lk) + (L - 1) under booksim-min. */
static void test_zero_load_long_links(void)
{
    Net n;
    if (!net_open(&n, "mesh:8x8", "dor"))
        return;
    for (int lk = 13; lk <= 14; lk++)
        for (int L = 1; L <= 4; L += 3) {
            /* Hosts 9 and 54 are as far from host 14, from two sides: a
             * second 1-flit packet arrives the cycle after the first. */
            int H = mesh_switches(9, 14), want = (1 + lk) + H * (2 + lk) + (L - 1);
            FlTraceEvent ev[2] = { { 5, 9, 14, L }, { 6, 54, 14, L } };
            for (int count = 1; count <= (L == 1 ? 2 : 1); count++) {
                FlSimConfig cfg;
                FlSimResult res;
                drained_trace_config(&cfg, &n, ev, count);
                fl_sim_config_pipeline(&cfg, "booksim-min", NULL);
                cfg.link_latency = lk;
                if (run(&n, &cfg, &res))
                    continue;
                CHECK(res.packets == count && res.latency_avg == want,
                      "link latency %d, %d packet(s) of %d flits: %g cycles, want %d", lk, count,
                      L, res.latency_avg, want);
                fl_sim_result_clear(&res);
            }
        }
    CHECK_INT(mesh_switches(54, 14), mesh_switches(9, 14));
    net_close(&n);
}

/* Eight packets for one host at once, on four VCs: its channel brings a
 * flit every cycle, the VCs' flits interleaved, and the host consumes each
 * as it arrives. */
static void test_one_sink_busy(void)
{
    Net n;
    if (!net_open(&n, "mesh:8x8", "dor"))
        return;
    FlTraceEvent ev[8];
    for (int i = 0; i < 8; i++)
        ev[i] = (FlTraceEvent){ 5, 9 + i * 7, 0, 4 };
    for (int lk = 1; lk <= 14; lk += 13) {
        FlSimConfig cfg;
        FlSimResult res;
        drained_trace_config(&cfg, &n, ev, 8);
        fl_sim_config_pipeline(&cfg, "booksim-min", NULL);
        cfg.vcs = 4;
        cfg.link_latency = lk;
        if (run(&n, &cfg, &res))
            continue;
        CHECK(res.status == FL_SIM_OK && res.packets == 8,
              "link latency %d: 8 packets to one host delivered (%lld)", lk,
              (long long)res.packets);
        fl_sim_result_clear(&res);
    }
    net_close(&n);
}

/* Buffers of one or two flits: a host sends a flit, then waits for its
 * credit (apart from the active set, see Hosts in sim-internal.h) before
 * the next. Latencies as the simulator gave them before hosts waited
 * apart, when a host looked for its credit in a visit every cycle. */
static void test_host_waits_for_credits(void)
{
    Net n;
    if (!net_open(&n, "mesh:8x8", "dor"))
        return;
    static const struct {
        int buf, flits;
        double want;
    } cases[] = {
        { 1, 8, 191.0 / 3 },
        { 2, 8, 133.0 / 3 },
        { 1, 1, 26 },
    };
    FlTraceEvent ev[3] = { { 5, 9, 14, 0 }, { 5, 10, 14, 0 }, { 7, 9, 63, 0 } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int i = 0; i < 3; i++)
            ev[i].flits = cases[k].flits;
        FlSimConfig cfg;
        FlSimResult res;
        drained_trace_config(&cfg, &n, ev, 3);
        fl_sim_config_pipeline(&cfg, "booksim-min", NULL);
        cfg.buf_flits = cases[k].buf;
        if (run(&n, &cfg, &res))
            continue;
        CHECK(res.packets == 3 && res.latency_avg == cases[k].want,
              "buffers of %d flits, %d-flit packets: %.17g cycles, want %g", cases[k].buf,
              cases[k].flits, res.latency_avg, cases[k].want);
        fl_sim_result_clear(&res);
    }
    net_close(&n);
}

/* BookSim's light-load latency (reference file: 20.65 and 36.03 cycles),
 * uniform traffic with self-traffic, 0.01 flits/cycle/host. */
static void test_booksim_light_load(void)
{
    Net n;
    if (!net_open(&n, "mesh:8x8", "dor"))
        return;
    static const struct { int flits; double want; int64_t measure; } cases[] = {
        { 1, 20.65, 10000 },
        { 16, 36.03, 40000 },
    };
    for (size_t i = 0; i < 2; i++) {
        FlSimConfig cfg;
        FlSimResult res;
        fl_sim_config_init(&cfg);
        fl_sim_config_pipeline(&cfg, "booksim-min", NULL);
        cfg.routing = n.r;
        cfg.traffic.rate = 0.01;
        cfg.traffic.include_self = 1;
        cfg.traffic.packet_flits = cases[i].flits;
        cfg.measure_cycles = cases[i].measure;
        if (run(&n, &cfg, &res))
            continue;
        CHECK_INT(res.status, FL_SIM_OK);
        CHECK_NEAR(res.latency_avg, cases[i].want, 1.0);
        CHECK_NEAR(res.hops_avg, 6.25, 0.15);
        fl_sim_result_clear(&res);
    }
    net_close(&n);
}

static int same_result(const FlSimResult *a, const FlSimResult *b)
{
    return a->status == b->status && a->latency_avg == b->latency_avg
           && a->latency_p99 == b->latency_p99 && a->network_latency_avg == b->network_latency_avg
           && a->throughput == b->throughput && a->throughput_min == b->throughput_min
           && a->packets == b->packets && a->cycles == b->cycles && a->flit_hops == b->flit_hops;
}

static void test_determinism(void)
{
    Net n;
    if (!net_open(&n, "mesh:4x4", "dor"))
        return;
    FlSimConfig cfg;
    FlSimResult a, b, c;
    uniform_config(&cfg, &n, 0.3, 4);
    run(&n, &cfg, &a);
    run(&n, &cfg, &b);
    cfg.seed = 2;
    run(&n, &cfg, &c);
    CHECK(same_result(&a, &b), "the same seed gives identical results");
    CHECK(a.flit_hops != c.flit_hops || a.latency_avg != c.latency_avg,
          "another seed gives other results");
    fl_sim_result_clear(&a);
    fl_sim_result_clear(&b);
    fl_sim_result_clear(&c);
    net_close(&n);
}

static void test_checkpoint(void)
{
    Net n;
    if (!net_open(&n, "torus:4x4", "dor"))
        return;
    FlSimConfig cfg;
    FlSim *s, *straight;
    FlSimCheckpoint *cp;
    FlSimResult r1, r2;
    uniform_config(&cfg, &n, 0.35, 4);
    cfg.traffic.process = FL_INJECT_ONOFF;
    if (fl_sim_new(n.t, &cfg, &s, NULL) || fl_sim_new(n.t, &cfg, &straight, NULL)) {
        CHECK(0, "fl_sim_new");
        return;
    }
    fl_sim_step(s, 700, NULL, NULL);
    CHECK_INT(fl_sim_checkpoint(s, &cp, NULL), FL_OK);
    fl_sim_step(s, 300, NULL, NULL);
    FlitHash first = flit_hash(s);
    CHECK_INT(fl_sim_restore(s, cp, NULL), FL_OK);
    CHECK_INT(fl_sim_cycle(s), 700);
    fl_sim_step(s, 300, NULL, NULL);
    FlitHash again = flit_hash(s);
    fl_sim_step(straight, 1000, NULL, NULL);
    FlitHash direct = flit_hash(straight);
    CHECK(first.count > 0 && first.h == again.h && first.count == again.count,
          "restore then step repeats the flits exactly (%d flits)", first.count);
    CHECK(direct.h == again.h, "and matches running straight on");
    fl_sim_run(s, &r1, NULL, NULL, NULL);
    fl_sim_run(straight, &r2, NULL, NULL, NULL);
    CHECK(same_result(&r1, &r2), "results after a restore are bit-identical");
    FlError err;
    CHECK(fl_sim_restore(straight, cp, &err) == FL_EINVAL, "a checkpoint of another simulation "
          "is refused");
    fl_sim_result_clear(&r1);
    fl_sim_result_clear(&r2);
    fl_sim_checkpoint_free(cp);
    fl_sim_free(s);
    fl_sim_free(straight);
    net_close(&n);
}

typedef struct Spread {
    int64_t packet;
    int channels[64];
    int n_channels;
    int in_network, in_buffer;
} Spread;

static void spread_flit(void *data, const FlFlitView *f)
{
    Spread *sp = data;
    if (f->packet != sp->packet || f->place == FL_FLIT_SOURCE_QUEUE)
        return;
    sp->in_network++;
    sp->in_buffer += f->place == FL_FLIT_BUFFER;
    for (int i = 0; i < sp->n_channels; i++)
        if (sp->channels[i] == f->channel)
            return;
    if (sp->n_channels < 64)
        sp->channels[sp->n_channels++] = f->channel;
}

/* Packet A (host 1 -> 7) takes the only VC of channel 1 -> 2; its credits
 * come back late, so packet B (host 0 -> 7) is blocked behind it at
 * switch 1. Returns the number of channels B's flits occupy at cycle 45. */
static Spread blocked_spread(const Net *n, FlSwitching sw, int buf)
{
    static const FlTraceEvent ev[] = { { 0, 1, 7, 16 }, { 1, 0, 7, 16 } };
    FlSimConfig cfg;
    FlSim *s;
    Spread sp = { .packet = 1 };
    drained_trace_config(&cfg, n, ev, 2);
    cfg.vcs = 1;
    cfg.buf_flits = buf;
    cfg.switching = sw;
    cfg.vc_release = FL_VC_RELEASE_TAIL_CREDIT;
    cfg.credit_delay = 40;
    if (fl_sim_new(n->t, &cfg, &s, NULL)) {
        CHECK(0, "fl_sim_new");
        return sp;
    }
    fl_sim_step(s, 45, NULL, NULL);
    fl_sim_foreach_flit(s, 100, spread_flit, &sp);
    fl_sim_free(s);
    return sp;
}

static void test_switching(void)
{
    Net n;
    if (!net_open(&n, "line:8", "dor"))
        return;
    Spread vct = blocked_spread(&n, FL_SWITCHING_VCT, 16);
    CHECK(vct.n_channels == 1 && vct.in_buffer == 16,
          "VCT: the blocked packet sits whole in one buffer (%d channels, %d flits buffered)",
          vct.n_channels, vct.in_buffer);
    Spread worm = blocked_spread(&n, FL_SWITCHING_WORMHOLE, 2);
    CHECK(worm.n_channels >= 2 && worm.in_network <= 2 * worm.n_channels,
          "wormhole: the blocked packet spreads over %d buffers of 2 flits", worm.n_channels);
    /* VCT refuses buffers shorter than a packet. */
    FlSimConfig cfg;
    FlSim *s;
    FlError err;
    uniform_config(&cfg, &n, 0.1, 16);
    cfg.switching = FL_SWITCHING_VCT;
    cfg.buf_flits = 8;
    CHECK(fl_sim_new(n.t, &cfg, &s, &err) == FL_ERANGE && strstr(err.message, "buf"),
          "VCT with 8-flit buffers and 16-flit packets is refused: %s", err.message);
    net_close(&n);
}

static void heavy_config(FlSimConfig *cfg, const Net *n, int vcs)
{
    uniform_config(cfg, n, 0.9, 4);
    cfg->vcs = vcs;
    cfg->buf_flits = 2;
    cfg->deadlock_cycles = 300;
    cfg->drain_cycles = 3000;
}

static void test_deadlock(void)
{
    Net n;
    if (!net_open(&n, "ring:8", "shortest"))
        return;
    FlSimConfig cfg;
    FlSimResult res;
    heavy_config(&cfg, &n, 1);
    if (!run(&n, &cfg, &res)) {
        CHECK_INT(res.status, FL_SIM_DEADLOCK);
        CHECK(res.cycles < cfg.warmup_cycles + cfg.measure_cycles + cfg.drain_cycles,
              "stopped at cycle %lld", (long long)res.cycles);
        int len = res.deadlock_len, linked = len >= 2;
        for (int i = 0; i < len && linked; i++) {
            int c = res.deadlock_channels[i], d = res.deadlock_channels[(i + 1) % len];
            linked = fl_topology_channel_dst(n.t, c) == fl_topology_channel_src(n.t, d)
                     && fl_topology_node_kind(n.t, fl_topology_channel_src(n.t, c))
                            == FL_NODE_SWITCH;
        }
        CHECK(linked, "the %d reported channels form a cycle of switch channels", len);
        fl_sim_result_clear(&res);
    }
    net_close(&n);
    /* dor with its dateline classes on a torus: the same load never locks. */
    if (!net_open(&n, "torus:4x4", "dor"))
        return;
    heavy_config(&cfg, &n, 2);
    if (!run(&n, &cfg, &res)) {
        CHECK(res.status != FL_SIM_DEADLOCK, "torus dor with 2 classes: %s",
              fl_sim_status_name(res.status));
        CHECK_INT(res.status, FL_SIM_SATURATED);
        fl_sim_result_clear(&res);
    }
    net_close(&n);
}

typedef struct Count {
    int n;
} Count;

static void count_flit(void *data, const FlFlitView *f)
{
    (void)f;
    ((Count *)data)->n++;
}

static void test_conservation(void)
{
    Net n;
    if (!net_open(&n, "mesh:4x4", "dor"))
        return;
    enum { N = 400 };
    FlTraceEvent ev[N];
    FlRng rng;
    int64_t flits = 0;
    fl_rng_seed(&rng, 9);
    for (int i = 0; i < N; i++) {
        ev[i] = (FlTraceEvent){ i * 2, (int)fl_rng_below(&rng, 16), (int)fl_rng_below(&rng, 16),
                                1 + (int)fl_rng_below(&rng, 8) };
        flits += ev[i].flits;
    }
    FlSimConfig cfg;
    FlSimResult res;
    FlSim *s;
    drained_trace_config(&cfg, &n, ev, N);
    if (fl_sim_new(n.t, &cfg, &s, NULL) || fl_sim_run(s, &res, NULL, NULL, NULL)) {
        CHECK(0, "conservation run");
        return;
    }
    Count left = { 0 };
    fl_sim_foreach_flit(s, 1000, count_flit, &left);
    CHECK_INT(res.status, FL_SIM_OK);
    CHECK_INT(res.packets, N);
    CHECK_INT(left.n, 0);
    double accepted = res.throughput * 16 * (double)cfg.measure_cycles;
    CHECK_NEAR(accepted, (double)flits, 0.5);
    CHECK_NEAR(res.offered * 16 * (double)cfg.measure_cycles, (double)flits, 0.5);
    fl_sim_result_clear(&res);
    fl_sim_free(s);
    net_close(&n);
}

/* Below saturation the network delivers what is offered: within 3 %. */
static void test_throughput(void)
{
    Net n;
    if (!net_open(&n, "mesh:8x8", "dor"))
        return;
    FlSimConfig cfg;
    FlSimResult res;
    uniform_config(&cfg, &n, 0.25, 4);
    cfg.measure_cycles = 5000;
    if (!run(&n, &cfg, &res)) {
        CHECK_INT(res.status, FL_SIM_OK);
        CHECK(res.throughput > 0.97 * res.offered && res.throughput < 1.03 * res.offered,
              "accepted %.4f for offered %.4f", res.throughput, res.offered);
        CHECK_NEAR(res.offered, 0.25, 0.01);
        CHECK(res.latency_p50 <= res.latency_p95 && res.latency_p95 <= res.latency_p99
                  && res.network_latency_avg <= res.latency_avg,
              "percentiles in order: %g %g %g", res.latency_p50, res.latency_p95, res.latency_p99);
        double used = 0;
        for (int c = 0; c < fl_topology_channel_count(n.t); c++)
            used += res.channel_utilization[c];
        CHECK(used > 0 && res.vc_occupancy[0] >= 0, "channels carried traffic");
        fl_sim_result_clear(&res);
    }
    uniform_config(&cfg, &n, 0.9, 4);
    if (!run(&n, &cfg, &res)) {
        CHECK_INT(res.status, FL_SIM_SATURATED);
        CHECK(res.throughput < 0.6, "saturated mesh accepts %.3f", res.throughput);
        fl_sim_result_clear(&res);
    }
    net_close(&n);
}

static void expect_refusal(const Net *n, const FlSimConfig *cfg, const char *word)
{
    FlSim *s = NULL;
    FlError err;
    err.message[0] = '\0';
    int rc = fl_sim_new(n->t, cfg, &s, &err);
    CHECK(rc != FL_OK && s == NULL && strstr(err.message, word),
          "refused, naming '%s': %s", word, err.message);
    if (!rc)
        fl_sim_free(s);
}

static void test_refusals(void)
{
    Net n, other;
    if (!net_open(&n, "torus:4x4", "dor") || !net_open(&other, "mesh:4x4", "dor"))
        return;
    FlSimConfig cfg;
    uniform_config(&cfg, &n, 0.1, 4);
    cfg.vcs = 0;
    expect_refusal(&n, &cfg, "vcs");
    cfg.vcs = 1;   /* dor on a torus needs its two dateline classes */
    expect_refusal(&n, &cfg, "vcs");
    uniform_config(&cfg, &n, 0.1, 4);
    cfg.buf_flits = 0;
    expect_refusal(&n, &cfg, "buf");
    uniform_config(&cfg, &n, 1.5, 4);
    expect_refusal(&n, &cfg, "rate");
    uniform_config(&cfg, &n, -0.1, 4);
    expect_refusal(&n, &cfg, "rate");
    uniform_config(&cfg, &n, 0.1, 4);
    cfg.link_latency = 0;
    expect_refusal(&n, &cfg, "link-latency");
    cfg.link_latency = 2 << 20;
    expect_refusal(&n, &cfg, "link-latency");
    uniform_config(&cfg, &n, 0.1, 4);
    cfg.link_cycles_per_flit = 0;
    expect_refusal(&n, &cfg, "link-cycles-per-flit");
    /* Each span of cycles is bounded, so that no sum of them overflows. */
    uniform_config(&cfg, &n, 0.1, 4);
    cfg.measure_cycles = INT64_MAX;
    expect_refusal(&n, &cfg, "measure: must be 1 to 1125899906842624 cycles");
    uniform_config(&cfg, &n, 0.1, 4);
    cfg.warmup_cycles = FL_SIM_MAX_CYCLES + 1;
    expect_refusal(&n, &cfg, "warmup");
    uniform_config(&cfg, &n, 0.1, 4);
    cfg.drain_cycles = -1;
    expect_refusal(&n, &cfg, "drain");
    uniform_config(&cfg, &n, 0.1, 4);
    cfg.deadlock_cycles = 0;
    expect_refusal(&n, &cfg, "watchdog: must be 1 to");
    uniform_config(&cfg, &n, 0.1, 4);
    cfg.routing = other.r;
    expect_refusal(&n, &cfg, "another topology");
    net_close(&other);
    if (net_open(&other, "mesh:4x4,hosts=0", "dor")) {
        uniform_config(&cfg, &other, 0.1, 4);
        expect_refusal(&other, &cfg, "hosts");
        net_close(&other);
    }
    net_close(&n);
}

/* A run's figures and counters, hashed bit for bit. */
static uint64_t result_hash(const FlSim *s, const FlSimResult *r)
{
    const double d[] = { r->latency_avg, r->latency_p50, r->latency_p95, r->latency_p99,
                         r->network_latency_avg, r->network_latency_p50,
                         r->network_latency_p99, r->throughput, r->throughput_min,
                         r->offered, r->hops_avg };
    int64_t v[sizeof d / sizeof d[0] + 12];
    memcpy(v, d, sizeof d);
    FlSimCounters c;
    fl_sim_counters(s, &c);
    const int64_t more[] = { r->status, r->packets, r->cycles, r->flit_hops,
                             c.packets_created, c.flits_created, c.flits_injected,
                             c.flits_ejected, c.packets_delivered, c.latency_sum,
                             c.in_network, c.queued };
    memcpy(v + sizeof d / sizeof d[0], more, sizeof more);
    uint64_t h = 0xcbf29ce484222325ULL;
    hash_values(&h, v, sizeof v / sizeof v[0]);
    return h;
}

/* The figures of fixed runs, pinned: making, counting and finishing
 * packets faster must leave every figure where it was. The hashes were
 * taken from the code before those changes. The runs take 1-flit and
 * mixed packets, both measure rules, latencies past the histograms'
 * first size (saturation, a long window), credits on their way for
 * several cycles, and channels taking several cycles a flit. */
static void test_pinned_results(void)
{
    /* 1024 hosts keep 256 packets each: saturated, they defer (their own
     * streams make their packets). */
    Net n, many;
    if (!net_open(&n, "mesh:4x4,hosts=2", "dor"))
        return;
    if (!net_open(&many, "mesh:16x16,hosts=4", "dor")) {
        net_close(&n);
        return;
    }
    struct {
        const char *what;
        double rate;
        int flits, flits_long;
        FlMeasureRule rule;
        int64_t measure;
        uint64_t hash;
        int credit_delay;    /* and the release on the tail's credit */
        int defer;           /* on the network of many hosts */
        int link_cycles;     /* per flit, and then 4 VCs */
    } cases[] = {
        { "1-flit, light", 0.1, 1, 0, FL_MEASURE_CREATED, 3000,
          0xd12df4cc0c49e24cULL },
        { "mixed, BookSim's rule", 0.3, 1, 8, FL_MEASURE_BOOKSIM, 3000,
          0xac729d78b3f6f4c3ULL },
        { "1-flit, saturated, long", 0.9, 1, 0, FL_MEASURE_CREATED, 6000,
          0x8edf7864a47e7a67ULL },
        { "mixed, saturated, BookSim's rule", 0.8, 2, 6, FL_MEASURE_BOOKSIM, 6000,
          0x9d62545c14590e11ULL },
        { "credits late, VCs released on the tail's credit", 0.4, 4, 0, FL_MEASURE_CREATED,
          3000, 0x41c2fb3d086823baULL, 3 },
        { "sources deferring", 0.9, 1, 3, FL_MEASURE_CREATED, 1200, 0xec41b0b6239075bdULL, 0,
          1 },
        { "sources deferring, BookSim's rule", 0.9, 1, 3, FL_MEASURE_BOOKSIM, 1200,
          0x4ad8e6f765ed4801ULL, 0, 1 },
        { "sources deferring, fixed lengths", 0.8, 2, 0, FL_MEASURE_CREATED, 1200,
          0x8a7506283f561da5ULL, 0, 1 },
        /* Hosts wait for their injection channel with packets queued, and
         * eject on several VCs at once. */
        { "links of two cycles a flit, 4 VCs", 0.4, 2, 8, FL_MEASURE_CREATED, 3000,
          0xd97f8651a3e426a2ULL, 0, 0, 2 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const Net *on = cases[k].defer ? &many : &n;
        FlSimConfig cfg;
        uniform_config(&cfg, on, cases[k].rate, cases[k].flits);
        cfg.traffic.packet_flits_long = cases[k].flits_long;
        cfg.traffic.long_fraction = 0.3;
        cfg.measure_rule = cases[k].rule;
        cfg.measure_cycles = cases[k].measure;
        cfg.drain_cycles = 3000;
        if (cases[k].link_cycles) {
            cfg.link_cycles_per_flit = cases[k].link_cycles;
            cfg.vcs = 4;
        }
        if (cases[k].credit_delay) {
            cfg.credit_delay = cases[k].credit_delay;
            cfg.vc_release = FL_VC_RELEASE_TAIL_CREDIT;
        }
        FlSim *s;
        FlSimResult res;
        FlError err;
        if (fl_sim_new(on->t, &cfg, &s, &err)) {
            CHECK(0, "%s: %s", cases[k].what, err.message);
            continue;
        }
        int rc = fl_sim_run(s, &res, NULL, NULL, &err);
        uint64_t h = rc ? 0 : result_hash(s, &res);
        CHECK(rc == FL_OK && h == cases[k].hash, "%s: the same figures as ever (0x%016llx)",
              cases[k].what, (unsigned long long)h);
        if (!rc)
            fl_sim_result_clear(&res);
        fl_sim_free(s);
    }
    net_close(&many);
    net_close(&n);
}

int main(void)
{
    test_zero_load();
    test_zero_load_long_links();
    test_one_sink_busy();
    test_host_waits_for_credits();
    test_booksim_light_load();
    test_determinism();
    test_checkpoint();
    test_switching();
    test_deadlock();
    test_conservation();
    test_throughput();
    test_refusals();
    test_pinned_results();
    return tap_done();
}
