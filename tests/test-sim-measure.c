/* test-sim-measure.c — the measurement rules (FlMeasureRule): past
 * saturation, with sources that defer too, each rule's figures equal a
 * brute-force recomputation from the packets' own records (deliveries
 * reported by the hook, and the cycle each packet's tail left its host,
 * watched cycle by cycle) and stepping by hand gives fl_sim_run's; the two
 * rules differ as they should; below saturation they agree. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim-net.h"

typedef struct Record {
    int src, measured, delivered_seen;
    int64_t created, injected, delivered, tail_sent;
} Record;

typedef struct Log {
    Record *r;
    int64_t n;   /* ids 0 .. n - 1 known */
    int64_t cap;
} Log;

static Record *record_at(Log *log, int64_t id)
{
    if (id >= log->cap) {
        int64_t cap = log->cap ? log->cap : 1024;
        while (cap <= id)
            cap *= 2;
        Record *bigger = realloc(log->r, sizeof *bigger * (size_t)cap);
        if (!bigger)
            abort();
        memset(bigger + log->cap, 0, sizeof *bigger * (size_t)(cap - log->cap));
        for (int64_t i = log->cap; i < cap; i++)
            bigger[i].tail_sent = bigger[i].created = -1;
        log->r = bigger;
        log->cap = cap;
    }
    if (id >= log->n)
        log->n = id + 1;
    return &log->r[id];
}

static int on_delivery(FlSim *s, const FlSimHookInfo *info, void *data)
{
    (void)s;
    Record *r = record_at(data, info->packet);
    r->src = info->src_host;
    r->measured = info->measured;
    r->created = info->created;
    r->injected = info->injected;
    r->delivered = info->delivered;
    r->delivered_seen = 1;
    return 0;
}

/* Runs cfg with fl_sim_run, the deliveries into log. */
static int run_logged(const Net *n, const FlSimConfig *cfg, FlSimResult *res, Log *log)
{
    FlSim *s;
    FlError err = { 0 };
    if (fl_sim_new(n->t, cfg, &s, &err))
        return CHECK(0, "fl_sim_new: %s", err.message), 0;
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED, 0, on_delivery, log, NULL);
    int rc = fl_sim_run(s, res, NULL, NULL, &err);
    fl_sim_free(s);
    return CHECK(rc == FL_OK, "fl_sim_run: %s", err.message);
}

/* Steps cfg again for cycles cycles, one at a time, and notes the cycle in
 * which each packet's last flit left its host (packets leave a host in
 * order, so only the oldest one not yet gone is looked at); the figures
 * then go to *stepped. */
static int64_t watch_tails(const Net *n, const FlSimConfig *cfg, int64_t cycles, Log *log,
                           FlSimResult *stepped)
{
    int64_t owed = 0;   /* as the window closes */
    FlSim *s;
    if (fl_sim_new(n->t, cfg, &s, NULL))
        return 0;
    int hosts = fl_sim_hosts(s);
    int64_t *oldest = calloc((size_t)hosts, sizeof *oldest), next_id = 0;
    int64_t **fifo = calloc((size_t)hosts, sizeof *fifo), *len = calloc((size_t)hosts, sizeof *len);
    for (int64_t c = 0; c < cycles; c++) {
        fl_sim_step(s, 1, NULL, NULL);
        /* The backlog is longest as the window closes. */
        FlSimMemory mem;
        if (c + 2 == cfg->warmup_cycles + cfg->measure_cycles && fl_sim_memory(s, &mem) == FL_OK)
            owed = mem.packets_owed;
        FlPacketView v;
        /* Packets made in cycle c (ids are the creation order). */
        while (fl_sim_packet_view(s, next_id, &v, NULL) == FL_OK) {
            Record *r = record_at(log, next_id);
            r->src = v.src_host;
            r->created = v.created;
            int h = v.src_host;
            fifo[h] = realloc(fifo[h], sizeof **fifo * (size_t)(len[h] + 1));
            fifo[h][len[h]++] = next_id++;
        }
        for (int h = 0; h < hosts; h++)
            while (oldest[h] < len[h]) {
                int64_t id = fifo[h][oldest[h]];
                int rc = fl_sim_packet_view(s, id, &v, NULL);
                if (rc == FL_OK && v.flits_sent < v.flits)
                    break;
                /* Its tail left in cycle c; or, not found (a packet is
                 * delivered cycles after its tail leaves), the booksim
                 * rule withdrew it as the window closed. */
                if (rc == FL_OK)
                    log->r[id].tail_sent = c;
                oldest[h]++;
            }
    }
    fl_sim_stats(s, stepped, NULL);
    for (int h = 0; h < hosts; h++)
        free(fifo[h]);
    free(fifo);
    free(len);
    free(oldest);
    fl_sim_free(s);
    return owed;
}

typedef struct Brute {
    int64_t packets, lat_sum, net_sum;
    int64_t flag_mismatches;   /* the hook's measured flag disagrees */
    int64_t undelivered;       /* measured, never delivered */
    int64_t made_before;       /* measured, made before the window */
} Brute;

/* The packets each rule measures, from the records alone:
 * created: made in [warmup, end) and, the run being saturated and not
 * drained, delivered before end; booksim: whose turn at its host (made,
 * and the one before it from the same host gone) comes in [warmup, end). */
static Brute brute(const Log *log, const FlSimConfig *cfg, int booksim, int64_t last_cycle)
{
    Brute b = { 0 };
    int64_t w0 = cfg->warmup_cycles, w1 = w0 + cfg->measure_cycles;
    int64_t *prev_tail = NULL;
    int hosts = 0;
    for (int64_t id = 0; id < log->n; id++)
        if (log->r[id].src + 1 > hosts)
            hosts = log->r[id].src + 1;
    prev_tail = calloc((size_t)hosts + 1, sizeof *prev_tail);
    for (int h = 0; h < hosts; h++)
        prev_tail[h] = -1;
    for (int64_t id = 0; id < log->n; id++) {
        const Record *r = &log->r[id];
        if (r->created < 0)
            continue;
        int m;
        if (booksim) {
            int64_t turn = r->created > prev_tail[r->src] + 1 ? r->created
                                                              : prev_tail[r->src] + 1;
            m = turn >= w0 && turn < w1;
            /* One that never left holds back those behind it for good. */
            prev_tail[r->src] = r->tail_sent >= 0 ? r->tail_sent : INT64_MAX / 2;
        } else {
            m = r->created >= w0 && r->created < w1;
        }
        if (!r->delivered_seen) {
            b.undelivered += m && booksim;
            continue;
        }
        b.flag_mismatches += m != r->measured;
        if (!m || r->delivered > last_cycle)
            continue;
        b.packets++;
        b.made_before += r->created < w0;
        b.lat_sum += r->delivered - r->created;
        b.net_sum += r->delivered - r->injected;
    }
    free(prev_tail);
    return b;
}

static void saturated_config(FlSimConfig *cfg, const Net *n, FlMeasureRule rule)
{
    uniform_config(cfg, n, 1.0, 4);
    fl_sim_config_pipeline(cfg, "booksim-min", NULL);
    cfg->traffic.include_self = 1;
    cfg->warmup_cycles = 300;
    cfg->measure_cycles = 1000;
    cfg->drain_cycles = 20000;
    cfg->measure_rule = rule;
}

/* spec past saturation with packets of flits, rate 1: the rules' figures
 * by brute force; with a large network, a source queue fills and its
 * source defers (sim.h, FlSimMemory). */
static void test_past_saturation(const char *spec, int flits, int64_t measure, int defers)
{
    Net n;
    if (!net_open(&n, spec, "dor"))
        return;
    FlSimConfig cfg[2];
    FlSimResult res[2];
    Brute b;
    const char *names[2] = { "created", "booksim" };
    for (int rule = 0; rule < 2; rule++) {
        saturated_config(&cfg[rule], &n, (FlMeasureRule)rule);
        cfg[rule].traffic.packet_flits = flits;
        cfg[rule].measure_cycles = measure;
        Log log = { 0 };
        if (!run_logged(&n, &cfg[rule], &res[rule], &log))
            return;
        FlSimResult stepped;
        int64_t owed = watch_tails(&n, &cfg[rule], res[rule].cycles, &log, &stepped);
        if (defers)
            CHECK(owed > 0, "%s on %s: sources deferred (%lld packets owed as the window closes)",
                  names[rule], spec, (long long)owed);
        CHECK(stepped.packets == res[rule].packets
                  && stepped.latency_avg == res[rule].latency_avg
                  && stepped.throughput == res[rule].throughput,
              "%s: stepped by hand as long, the same figures (%lld packets, %.4f)", names[rule],
              (long long)stepped.packets, stepped.latency_avg);
        fl_sim_result_clear(&stepped);
        int64_t w1 = cfg[rule].warmup_cycles + cfg[rule].measure_cycles;
        /* The created rule, saturated, stops at the window's end. */
        b = brute(&log, &cfg[rule], rule, rule ? res[rule].cycles : w1 - 1);
        CHECK(res[rule].status == FL_SIM_SATURATED, "%s: past saturation (status %s)",
              names[rule], fl_sim_status_name(res[rule].status));
        CHECK(b.packets > 100 && b.packets == res[rule].packets,
              "%s: %lld packets measured, %lld by brute force", names[rule],
              (long long)res[rule].packets, (long long)b.packets);
        CHECK(b.flag_mismatches == 0, "%s: the hook's measured flag is the rule's (%lld differ)",
              names[rule], (long long)b.flag_mismatches);
        double lat = b.packets ? (double)b.lat_sum / (double)b.packets : 0;
        double net = b.packets ? (double)b.net_sum / (double)b.packets : 0;
        CHECK(lat == res[rule].latency_avg && net == res[rule].network_latency_avg,
              "%s: latency %.4f / network %.4f, brute force %.4f / %.4f", names[rule],
              res[rule].latency_avg, res[rule].network_latency_avg, lat, net);
        if (rule) {
            CHECK(b.undelivered == 0 && res[rule].cycles > w1
                      && res[rule].cycles < w1 + cfg[rule].drain_cycles,
                  "booksim: every measured packet delivered (%lld not), in a drain of %lld "
                  "cycles", (long long)b.undelivered, (long long)(res[rule].cycles - w1));
        } else {
            CHECK(res[rule].cycles == w1 && b.made_before == 0,
                  "created: none made before the window (%lld), no drain when saturated "
                  "(%lld cycles)", (long long)b.made_before, (long long)res[rule].cycles);
        }
        free(log.r);
    }
    /* Past saturation the created rule sees only the packets of the window
     * delivered within it; BookSim's measures the backlog the window sends,
     * made in the warm-up too, and delivers every one. The accepted
     * throughput is the same window's. */
    CHECK(b.made_before > 0 && res[1].packets > res[0].packets,
          "booksim measures %lld packets (%lld made in the warm-up), the created rule %lld",
          (long long)res[1].packets, (long long)b.made_before, (long long)res[0].packets);
    CHECK(res[0].throughput == res[1].throughput,
          "same accepted throughput under both rules (%.6f, %.6f)", res[0].throughput,
          res[1].throughput);
    for (int rule = 0; rule < 2; rule++)
        fl_sim_result_clear(&res[rule]);
    net_close(&n);
}

/* Below saturation almost every packet's turn is its creation: the rules
 * measure nearly the same packets. */
static void test_below_saturation(void)
{
    Net n;
    if (!net_open(&n, "mesh:4x4", "dor"))
        return;
    FlSimConfig cfg;
    FlSimResult res[2];
    for (int rule = 0; rule < 2; rule++) {
        saturated_config(&cfg, &n, (FlMeasureRule)rule);
        cfg.traffic.rate = 0.2;
        cfg.measure_cycles = 5000;
        FlSim *s;
        if (fl_sim_new(n.t, &cfg, &s, NULL) || fl_sim_run(s, &res[rule], NULL, NULL, NULL))
            return (void)CHECK(0, "running rule %d", rule);
        fl_sim_free(s);
    }
    CHECK(res[0].status == FL_SIM_OK && res[1].status == FL_SIM_OK, "both ok at 0.2 (%s, %s)",
          fl_sim_status_name(res[0].status), fl_sim_status_name(res[1].status));
    CHECK(fabs(res[1].latency_avg - res[0].latency_avg) < 0.02 * res[0].latency_avg,
          "latency at 0.2: created %.3f, booksim %.3f", res[0].latency_avg, res[1].latency_avg);
    for (int rule = 0; rule < 2; rule++)
        fl_sim_result_clear(&res[rule]);
    net_close(&n);
}

int main(void)
{
    test_past_saturation("mesh:4x4", 4, 1000, 0);
    test_past_saturation("mesh:32x32", 1, 500, 1);
    test_below_saturation();
    return tap_done();
}
