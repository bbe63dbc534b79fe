/* test-sim-timeline.c — the simulation timeline: seeking anywhere, across
 * thinned stretches, reaches the state of a fresh run to that cycle; the
 * checkpoints stay within their budget and keep cycle 0's; the samples and
 * channel counts are what stepping one interval at a time reads from the
 * simulator's counters; channel utilization over the measurement window is
 * fl_sim_run's. Also the counters since cycle 0 themselves. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim-net.h"

/* Every flit's place, the statistics, the counters and the cycle. */
static uint64_t state_hash(const FlSim *s)
{
    FlitHash fh = flit_hash(s);
    uint64_t h = fh.h;
    FlSimResult r;
    if (fl_sim_stats(s, &r, NULL) == FL_OK) {
        const double d[] = { r.latency_avg, r.latency_p99, r.network_latency_avg, r.throughput,
                             r.offered, r.hops_avg };
        for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
            int64_t bits;
            memcpy(&bits, &d[i], sizeof bits);
            hash_values(&h, &bits, 1);
        }
        const int64_t v[] = { r.packets, r.flit_hops, r.cycles, r.status };
        hash_values(&h, v, sizeof v / sizeof v[0]);
        for (int c = 0; c < fl_sim_channels(s); c++) {
            int64_t bits;
            memcpy(&bits, &r.channel_utilization[c], sizeof bits);
            hash_values(&h, &bits, 1);
        }
        fl_sim_result_clear(&r);
    }
    FlSimCounters k;
    fl_sim_counters(s, &k);
    const int64_t v[] = { k.cycle, k.packets_created, k.flits_created, k.flits_injected,
                          k.flits_ejected, k.packets_delivered, k.latency_sum, k.flit_hops,
                          k.in_network, k.queued, fh.count };
    hash_values(&h, v, sizeof v / sizeof v[0]);
    return h;
}

/* A fresh simulation's state after stepping straight to cycle. */
static uint64_t straight_to(const Net *n, const FlSimConfig *cfg, int64_t cycle)
{
    FlSim *s = NULL;
    uint64_t h = 0;
    if (fl_sim_new(n->t, cfg, &s, NULL) == FL_OK) {
        fl_sim_step(s, cycle, NULL, NULL);
        h = state_hash(s);
    }
    fl_sim_free(s);
    return h;
}

/* A small deterministic generator for the targets. */
static int64_t next_target(uint64_t *x, int64_t below)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((*x >> 33) % (uint64_t)below);
}

static void test_seek_and_thin(void)
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, "mesh:4x4", "dor", 0.3, 4))
        return;
    cfg.traffic.process = FL_INJECT_ONOFF;
    FlSim *s = NULL;
    FlError err = { 0 };
    fl_sim_new(n.t, &cfg, &s, &err);
    FlSimTimeline *tl = fl_sim_timeline_new(s, 50, 1 << 30, 100, &err);
    CHECK(tl != NULL, "a timeline: %s", tl ? "" : err.message);
    if (!tl) {
        fl_sim_free(s);
        net_close(&n);
        return;
    }
    /* About sixteen checkpoints' worth of memory for sixty taken. */
    fl_sim_timeline_step(tl, 50, NULL, NULL);
    size_t one = fl_sim_timeline_checkpoint_bytes(tl) / 2;
    size_t budget = 16 * one;
    fl_sim_timeline_set_checkpoint_budget(tl, budget);
    FlSimStatus st;
    CHECK(fl_sim_timeline_step(tl, 2950, &st, &err) == FL_OK && st == FL_SIM_RUNNING
              && fl_sim_cycle(s) == 3000 && fl_sim_timeline_max_cycle(tl) == 3000,
          "stepped to cycle 3000 through the timeline");
    size_t kept = fl_sim_timeline_n_checkpoints(tl);
    CHECK(fl_sim_timeline_checkpoint_bytes(tl) <= budget && kept >= 5 && kept < 61,
          "%zu checkpoints of 61 taken, %zu bytes within a budget of %zu", kept,
          fl_sim_timeline_checkpoint_bytes(tl), budget);
    CHECK(fl_sim_timeline_checkpoint_cycle(tl, 0) == 0
              && fl_sim_timeline_checkpoint_cycle(tl, kept - 1) == 3000
              && fl_sim_timeline_checkpoint_cycle(tl, kept) == -1,
          "cycle 0's checkpoint is kept, and the newest (3000)");
    /* Old ones thinned, not dropped wholesale: denser towards the newest. */
    int64_t oldest = fl_sim_timeline_checkpoint_cycle(tl, 1), widest = INT64_MAX;
    int shrinking = 1;
    for (size_t i = 2; i < kept; i++) {
        int64_t gap = fl_sim_timeline_checkpoint_cycle(tl, i)
                      - fl_sim_timeline_checkpoint_cycle(tl, i - 1);
        shrinking &= gap <= widest && gap % 50 == 0;
        widest = gap;
    }
    CHECK(oldest > 0 && oldest <= 1500 && shrinking && widest == 50,
          "the oldest after cycle 0 is at %lld; gaps shrink towards the newest, to one "
          "interval (%lld)", (long long)oldest, (long long)widest);

    /* Backwards and forwards, past the furthest cycle too. */
    uint64_t x = 12345;
    int same = 0, tries = 0;
    for (int i = 0; i < 14; i++) {
        int64_t at = i == 0 ? 0 : i == 1 ? 3600 : next_target(&x, 3300);
        if (fl_sim_timeline_seek(tl, at, &err) || fl_sim_cycle(s) != at) {
            CHECK(0, "seek to %lld: %s", (long long)at, err.message);
            continue;
        }
        tries++;
        same += state_hash(s) == straight_to(&n, &cfg, at);
    }
    CHECK(tries == 14 && same == tries,
          "%d of %d seeks reach the state of a fresh run to the same cycle", same, tries);
    CHECK(fl_sim_timeline_max_cycle(tl) == 3600 && fl_sim_timeline_checkpoint_bytes(tl) <= budget,
          "seeking forward past the end extends the run (%lld), within the budget",
          (long long)fl_sim_timeline_max_cycle(tl));
    /* Stepping back one cycle at a time. */
    fl_sim_timeline_seek(tl, 1001, NULL);
    fl_sim_timeline_seek(tl, 1000, NULL);
    fl_sim_timeline_seek(tl, 999, NULL);
    CHECK(fl_sim_cycle(s) == 999 && state_hash(s) == straight_to(&n, &cfg, 999),
          "1001, 1000, 999: the state of a fresh run to 999");

    /* No budget: cycle 0's alone, and seeking still right. */
    fl_sim_timeline_set_checkpoint_budget(tl, 0);
    CHECK(fl_sim_timeline_n_checkpoints(tl) == 1 && fl_sim_timeline_checkpoint_cycle(tl, 0) == 0,
          "a budget of 0 keeps cycle 0's checkpoint only");
    CHECK(fl_sim_timeline_seek(tl, 2222, NULL) == FL_OK
              && state_hash(s) == straight_to(&n, &cfg, 2222),
          "seeking from cycle 0's checkpoint alone reaches the same state");
    fl_sim_timeline_set_checkpoint_budget(tl, (size_t)1 << 30);
    fl_sim_timeline_step(tl, 1500, NULL, NULL);
    CHECK(fl_sim_timeline_n_checkpoints(tl) == 31
              && fl_sim_timeline_checkpoint_cycle(tl, 1) == 2250,
          "with room again, stepping from 2222 to 3722 takes every checkpoint past the newest "
          "kept (cycle 0's): 2250 to 3700 (%zu kept)", fl_sim_timeline_n_checkpoints(tl));
    fl_sim_timeline_free(tl);
    fl_sim_free(s);
    net_close(&n);
}

/* Past saturation the source queues grow, and with them the packet pool:
 * successive checkpoints share what has not changed. */
static void test_shared_pages(void)
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, "mesh:8x8", "dor", 0.9, 4))
        return;
    FlSim *s = NULL;
    fl_sim_new(n.t, &cfg, &s, NULL);
    FlSimTimeline *tl = fl_sim_timeline_new(s, 100, (size_t)1 << 30, 100, NULL);
    if (!tl) {
        CHECK(0, "a timeline");
        fl_sim_free(s);
        net_close(&n);
        return;
    }
    fl_sim_timeline_step(tl, 3900, NULL, NULL);
    size_t before = fl_sim_timeline_checkpoint_bytes(tl);
    fl_sim_timeline_step(tl, 100, NULL, NULL);
    size_t added = fl_sim_timeline_checkpoint_bytes(tl) - before;
    FlSimCheckpoint *last = NULL;
    fl_sim_checkpoint(s, &last, NULL);
    size_t full = fl_sim_checkpoint_size(last);
    FlSimCounters k;
    fl_sim_counters(s, &k);
    CHECK(fl_sim_timeline_n_checkpoints(tl) == 41 && k.queued > 50000 && added < full / 2,
          "in a saturated run (%lld flits queued) the 41st checkpoint adds %zu bytes, under "
          "half of a copy of its own (%zu)", (long long)k.queued, added, full);
    uint64_t here = state_hash(s);
    fl_sim_timeline_seek(tl, 1234, NULL);
    fl_sim_restore(s, last, NULL);
    CHECK(state_hash(s) == here, "a checkpoint of its own still restores the same state");
    fl_sim_checkpoint_free(last);
    fl_sim_timeline_seek(tl, 3999, NULL);
    CHECK(state_hash(s) == straight_to(&n, &cfg, 3999), "and seeking in the saturated run "
          "reaches the state of a fresh run");
    fl_sim_timeline_free(tl);
    fl_sim_free(s);
    net_close(&n);
}

/* --- samples -------------------------------------------------------------------- */

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static void test_samples(void)
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, "torus:4x4", "dor", 0.25, 4))
        return;
    cfg.warmup_cycles = 1500;
    const int64_t si = 100, cycles = 3000;
    FlSim *s = NULL, *ref = NULL;
    fl_sim_new(n.t, &cfg, &s, NULL);
    fl_sim_new(n.t, &cfg, &ref, NULL);
    FlSimTimeline *tl = fl_sim_timeline_new(s, 64, 1 << 30, si, NULL);
    if (!tl || !ref) {
        CHECK(0, "a timeline and a reference simulation");
        goto out;
    }
    /* Odd steps, seeks back and forwards: samples are recorded once. */
    for (int i = 0; fl_sim_timeline_max_cycle(tl) < cycles; i++) {
        fl_sim_timeline_step(tl, 37, NULL, NULL);
        if (i % 7 == 6)
            fl_sim_timeline_seek(tl, fl_sim_cycle(s) - 100, NULL);
    }
    int nc = fl_sim_channels(ref), hosts = fl_topology_host_count(n.t);
    int64_t *before = calloc((size_t)nc, sizeof(int64_t));
    int64_t *after = calloc((size_t)nc, sizeof(int64_t));
    double *series = calloc((size_t)(cycles / si) + 8, sizeof(double));
    const FlSimSample *samples;
    size_t count = fl_sim_timeline_samples(tl, &samples);
    CHECK(count == (size_t)(fl_sim_timeline_max_cycle(tl) / si) && samples,
          "%zu samples up to cycle %lld", count, (long long)fl_sim_timeline_max_cycle(tl));
    FlSimCounters k0, k1;
    fl_sim_counters(ref, &k0);
    int equal = 1, counts_equal = 1, stats_agree = 1;
    size_t got = 0;
    int busy = 0;
    for (size_t i = 0; i < count && i < (size_t)(cycles / si); i++) {
        fl_sim_step(ref, si, NULL, NULL);
        fl_sim_counters(ref, &k1);
        fl_sim_channel_flits(ref, after, nc, NULL);
        double hc = (double)si * hosts;
        int64_t d = k1.packets_delivered - k0.packets_delivered;
        FlSimSample want = {
            .cycle = k0.cycle,
            .offered = (double)(k1.flits_created - k0.flits_created) / hc,
            .accepted = (double)(k1.flits_ejected - k0.flits_ejected) / hc,
            .latency = d ? (double)(k1.latency_sum - k0.latency_sum) / (double)d : NAN,
            .in_network = k1.in_network,
        };
        const FlSimSample *g = &samples[i];
        equal &= g->cycle == want.cycle && same_double(g->offered, want.offered)
                 && same_double(g->accepted, want.accepted)
                 && same_double(g->latency, want.latency) && g->in_network == want.in_network;
        double u;
        fl_sim_timeline_channel_utilization(tl, (int64_t)i * si, (int64_t)(i + 1) * si, &u, 1,
                                            NULL);
        counts_equal &= u == (double)(after[0] - before[0]) / (double)si;
        for (int c = 0; c < nc; c++) {
            fl_sim_timeline_channel_series(tl, c, series, (size_t)(cycles / si) + 8, &got,
                                           NULL);
            counts_equal &= series[i] == (double)(after[c] - before[c]) / (double)si;
            busy |= after[c] > before[c];
            before[c] = after[c];
        }
        /* In the warm-up fl_sim_stats counts from cycle 0, like the counters. */
        FlSimResult r;
        if (k1.cycle < cfg.warmup_cycles && fl_sim_stats(ref, &r, NULL) == FL_OK) {
            double span = (double)k1.cycle * hosts;
            stats_agree &= fabs(r.offered * span - (double)k1.flits_created) < 1e-6
                           && fabs(r.throughput * span - (double)k1.flits_ejected) < 1e-6
                           && r.packets == k1.packets_delivered
                           && fabs(r.latency_avg * (double)r.packets - (double)k1.latency_sum)
                                  < 1e-6
                           && r.flit_hops == k1.flit_hops;
            for (int c = 0; c < nc; c++)
                stats_agree &= fabs(r.channel_utilization[c] * (double)k1.cycle
                                    - (double)after[c]) < 1e-6;
            fl_sim_result_clear(&r);
        }
        k0 = k1;
    }
    CHECK(equal, "every sample equals the counters' differences over its interval, stepping "
          "one interval at a time");
    CHECK(counts_equal && busy && got == count,
          "each channel's series and one-interval utilization equal fl_sim_channel_flits' "
          "differences");
    CHECK(stats_agree, "in the warm-up, the counters and channel flits agree with fl_sim_stats");
    int in_net = 0;
    for (int c = 0; c < nc; c++)
        for (int v = 0; v < fl_sim_vcs(ref); v++) {
            FlVcView vv;
            fl_sim_vc_view(ref, c, v, &vv, NULL);
            in_net += vv.flits_buffered + vv.flits_on_link;
        }
    fl_sim_counters(ref, &k1);
    CHECK(k1.in_network == in_net && k1.in_network > 0 && k1.hosts == hosts
              && k1.flits_injected == k1.flits_created - k1.queued,
          "in_network is the VCs' buffered and travelling flits (%d)", in_net);
    CHECK(fl_sim_timeline_sample_bytes(tl) >= count * (sizeof(FlSimSample) + 4 * (size_t)nc),
          "sample memory: %zu bytes for %zu samples of %d channels",
          fl_sim_timeline_sample_bytes(tl), count, nc);
    free(before);
    free(after);
    free(series);
out:
    fl_sim_timeline_free(tl);
    fl_sim_free(s);
    fl_sim_free(ref);
    net_close(&n);
}

/* Every field equal (not the padding). */
static int same_sample(const FlSimSample *a, const FlSimSample *b)
{
    return a->cycle == b->cycle && a->cycles == b->cycles && same_double(a->offered, b->offered)
           && same_double(a->accepted, b->accepted) && same_double(a->latency, b->latency)
           && a->in_network == b->in_network && a->flits_created == b->flits_created
           && a->flits_ejected == b->flits_ejected && a->delivered == b->delivered
           && a->latency_sum == b->latency_sum && a->hosts == b->hosts;
}

/* A timeline's channel counts, from its series (link_cycles_per_flit 1). */
static int64_t *channel_counts(FlSimTimeline *tl, int nc, size_t count)
{
    int64_t *counts = calloc(count * (size_t)nc + 1, sizeof(int64_t));
    double *series = calloc(count + 1, sizeof(double));
    double si = (double)fl_sim_timeline_sample_interval(tl);
    for (int c = 0; counts && series && c < nc; c++) {
        size_t got = 0;
        fl_sim_timeline_channel_series(tl, c, series, count, &got, NULL);
        for (size_t i = 0; i < count; i++)
            counts[i * (size_t)nc + (size_t)c] = llround(series[i] * si);
    }
    free(series);
    return counts;
}

/* Whether capped's samples are the exact merges of the unbounded
 * reference's, and the channel counts too; why not into why. */
static int merged_exactly(FlSimTimeline *capped, const FlSimSample *ref, const int64_t *ref_counts,
                          size_t n_ref, int64_t si, int nc, const char **why)
{
    const FlSimSample *smp;
    size_t count = fl_sim_timeline_samples(capped, &smp);
    int64_t wide = fl_sim_timeline_sample_interval(capped), k = wide / si;
    *why = "the interval is not the first doubled";
    if (wide % si || (k & (k - 1)))
        return 0;
    *why = "not as many samples as whole intervals";
    if (count != (size_t)(fl_sim_timeline_max_cycle(capped) / wide) || count * (size_t)k > n_ref)
        return 0;
    double *series = calloc(count + 1, sizeof(double));
    int ok = series != NULL;
    for (size_t i = 0; ok && i < count; i++) {
        const FlSimSample *g = &smp[i], *first = &ref[i * (size_t)k];
        int64_t created = 0, ejected = 0, delivered = 0, latency = 0;
        for (int64_t j = 0; j < k; j++) {
            created += first[j].flits_created;
            ejected += first[j].flits_ejected;
            delivered += first[j].delivered;
            latency += first[j].latency_sum;
        }
        double hc = (double)wide * g->hosts;
        *why = "a sample's counts or rates";
        ok = g->cycle == (int64_t)i * wide && g->cycles == wide && g->hosts == first->hosts
             && g->flits_created == created && g->flits_ejected == ejected
             && g->delivered == delivered && g->latency_sum == latency
             && g->in_network == first[k - 1].in_network
             && g->offered == (double)created / hc && g->accepted == (double)ejected / hc
             && same_double(g->latency, delivered ? (double)latency / (double)delivered : NAN);
    }
    for (int c = 0; ok && c < nc; c++) {
        size_t got = 0;
        fl_sim_timeline_channel_series(capped, c, series, count, &got, NULL);
        for (size_t i = 0; ok && i < count; i++) {
            int64_t flits = 0;
            for (int64_t j = 0; j < k; j++)
                flits += ref_counts[((size_t)i * (size_t)k + (size_t)j) * (size_t)nc
                                    + (size_t)c];
            /* Channel 0's utilization over a range inside the interval. */
            double u = (double)flits / (double)wide;
            if (c == 0)
                fl_sim_timeline_channel_utilization(capped, (int64_t)i * wide + 1,
                                                    (int64_t)(i + 1) * wide, &u, 1, NULL);
            *why = "a channel's count";
            ok = got == count && series[i] == (double)flits / (double)wide
                 && u == (double)flits / (double)wide;
        }
    }
    free(series);
    if (ok)
        *why = "all equal";
    return ok;
}

/* Samples under a budget: pairs merge exactly into samples of twice the
 * interval, from cycle 0, as many as whole intervals, within the budget
 * and never fewer than the minimum; seeking does not change them. */
static void test_sample_budget(void)
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, "torus:4x4", "dor", 0.35, 4))
        return;
    const int64_t si = 3, cycles = 24000;
    FlSim *s = NULL, *r = NULL, *fresh = NULL;
    fl_sim_new(n.t, &cfg, &s, NULL);
    fl_sim_new(n.t, &cfg, &r, NULL);
    fl_sim_new(n.t, &cfg, &fresh, NULL);
    FlSimTimeline *tl = fl_sim_timeline_new(s, 64, 1 << 30, si, NULL);
    FlSimTimeline *ref = fl_sim_timeline_new(r, 64, 1 << 30, si, NULL);
    if (!tl || !ref || !fresh) {
        CHECK(0, "two timelines");
        goto out;
    }
    int nc = fl_sim_channels(s);
    size_t one = sizeof(FlSimSample) + 4 * (size_t)nc, fixed = 16 * (size_t)nc;
    CHECK(fl_sim_timeline_sample_budget(tl) == FL_SIM_TIMELINE_DEFAULT_SAMPLE_BUDGET,
          "the default sample budget");
    fl_sim_timeline_set_sample_budget(ref, SIZE_MAX);
    fl_sim_timeline_step(ref, cycles + 2000, NULL, NULL);
    const FlSimSample *rs;
    size_t n_ref = fl_sim_timeline_samples(ref, &rs);
    int64_t *rc = channel_counts(ref, nc, n_ref);
    CHECK(n_ref == (size_t)((cycles + 2000) / si) && fl_sim_timeline_sample_interval(ref) == si
              && rc,
          "without a budget every interval is kept (%zu)", n_ref);

    /* Room for 301 samples: odd counts merge. Odd steps, seeks back. */
    size_t budget = fixed + 301 * one;
    fl_sim_timeline_set_sample_budget(tl, budget);
    const char *why = "";
    int exact = 1, within = 1, enough = 1, merges = 0;
    int64_t last_si = si;
    uint64_t x = 99;
    for (int i = 0; fl_sim_timeline_max_cycle(tl) < cycles; i++) {
        /* Back somewhere, a little forward there, and on past the end. */
        if (i % 3 == 2) {
            int64_t end = fl_sim_timeline_max_cycle(tl);
            fl_sim_timeline_seek(tl, next_target(&x, end + 1), NULL);
            fl_sim_timeline_step(tl, 37, NULL, NULL);
            fl_sim_timeline_seek(tl, end, NULL);
        }
        fl_sim_timeline_step(tl, 37 + i % 5 * 400, NULL, NULL);
        size_t count = fl_sim_timeline_samples(tl, NULL);
        within &= fl_sim_timeline_sample_bytes(tl) <= budget && count <= 301;
        enough &= count >= FL_SIM_TIMELINE_MIN_SAMPLES
                  || fl_sim_timeline_max_cycle(tl) < FL_SIM_TIMELINE_MIN_SAMPLES * si;
        merges += fl_sim_timeline_sample_interval(tl) != last_si;
        last_si = fl_sim_timeline_sample_interval(tl);
        if (exact && !merged_exactly(tl, rs, rc, n_ref, si, nc, &why)) {
            exact = 0;
            CHECK(0, "after step %d (cycle %lld, interval %lld): %s", i,
                  (long long)fl_sim_timeline_max_cycle(tl), (long long)last_si, why);
        }
    }
    CHECK(exact && merges >= 5 && last_si == si << merges,
          "through %d merges, every sample is the exact merge of the unbounded run's "
          "(interval %lld)", merges, (long long)last_si);
    CHECK(within && enough, "the samples stay within %zu bytes, and at least %d",
          budget, FL_SIM_TIMELINE_MIN_SAMPLES);
    /* The first merged sample is the counters' difference over it. */
    const FlSimSample *smp;
    size_t count = fl_sim_timeline_samples(tl, &smp);
    FlSimCounters k0, k1;
    FlSimSample want;
    fl_sim_counters(fresh, &k0);
    fl_sim_step(fresh, last_si * 2, NULL, NULL);
    fl_sim_counters(fresh, &k1);
    fl_sim_sample_between(&k0, &k1, &want);
    FlSimSample joined;
    fl_sim_sample_join(&smp[0], &smp[1], &joined);
    CHECK(count >= 2 && same_sample(&joined, &want),
          "joining the first two samples gives the counters' sample over both");

    /* No budget: the minimum's room, 256 samples; merging at once. */
    fl_sim_timeline_set_sample_budget(tl, 0);
    count = fl_sim_timeline_samples(tl, NULL);
    CHECK(count >= FL_SIM_TIMELINE_MIN_SAMPLES && count <= 2 * FL_SIM_TIMELINE_MIN_SAMPLES
              && fl_sim_timeline_sample_bytes(tl)
                     <= fixed + 2 * FL_SIM_TIMELINE_MIN_SAMPLES * one
              && merged_exactly(tl, rs, rc, n_ref, si, nc, &why),
          "a budget of 0 leaves %zu samples, exact: %s", count, why);
    fl_sim_timeline_step(tl, 500, NULL, NULL);
    fl_sim_timeline_seek(tl, 1000, NULL);
    CHECK(merged_exactly(tl, rs, rc, n_ref, si, nc, &why)
              && fl_sim_timeline_samples(tl, NULL) >= FL_SIM_TIMELINE_MIN_SAMPLES,
          "and on to the reference's end: %s", why);
    /* Room again: the interval stays, samples are added. */
    int64_t wide = fl_sim_timeline_sample_interval(tl);
    fl_sim_timeline_set_sample_budget(tl, SIZE_MAX);
    fl_sim_timeline_seek(tl, cycles + 2000, NULL);
    fl_sim_timeline_seek(tl, 7, NULL);
    CHECK(fl_sim_timeline_sample_interval(tl) == wide
              && merged_exactly(tl, rs, rc, n_ref, si, nc, &why),
          "a larger budget keeps the interval (%lld) and adds samples: %s", (long long)wide,
          why);
    free(rc);
out:
    fl_sim_timeline_free(tl);
    fl_sim_timeline_free(ref);
    fl_sim_free(s);
    fl_sim_free(r);
    fl_sim_free(fresh);
    net_close(&n);
}

/* Over the measurement window, the timeline's channel utilization is
 * fl_sim_run's, for one and two cycles per flit. */
static void test_window_utilization(void)
{
    static const int per_flit[] = { 1, 2 };
    for (size_t k = 0; k < 2; k++) {
        Net n;
        FlSimConfig cfg;
        if (!uniform_net(&n, &cfg, "mesh:4x4", "dor", per_flit[k] == 1 ? 0.3 : 0.12, 4))
            return;
        cfg.link_cycles_per_flit = per_flit[k];
        FlSim *run = NULL, *s = NULL;
        FlSimResult res;
        memset(&res, 0, sizeof res);
        fl_sim_new(n.t, &cfg, &run, NULL);
        fl_sim_new(n.t, &cfg, &s, NULL);
        FlSimTimeline *tl = fl_sim_timeline_new(s, 256, 1 << 30, 50, NULL);
        int nc = fl_sim_channels(s);
        double *u = calloc((size_t)nc, sizeof(double));
        if (!run || !tl || !u || fl_sim_run(run, &res, NULL, NULL, NULL) != FL_OK) {
            CHECK(0, "a run and a timeline");
        } else {
            int64_t start = res.window_start, end = start + res.window_cycles;
            fl_sim_timeline_step(tl, end + 120, NULL, NULL);
            fl_sim_timeline_seek(tl, 10, NULL);
            fl_sim_timeline_channel_utilization(tl, start, end, u, nc, NULL);
            int same = 1;
            double busiest = 0;
            for (int c = 0; c < nc; c++) {
                same &= u[c] == res.channel_utilization[c];
                busiest = u[c] > busiest ? u[c] : busiest;
            }
            CHECK(same && busiest > 0.1,
                  "%d cycle(s) per flit: utilization over [%lld, %lld) is fl_sim_run's for "
                  "all %d channels (busiest %.3f)", per_flit[k], (long long)start,
                  (long long)end, nc, busiest);
            /* Cut at the last recorded interval; nothing recorded, zeros. */
            double a, b;
            fl_sim_timeline_channel_utilization(tl, 0, end + 100, &a, 1, NULL);
            fl_sim_timeline_channel_utilization(tl, 0, end + 5000, &b, 1, NULL);
            fl_sim_timeline_channel_utilization(tl, end + 1000, end + 2000, u, nc, NULL);
            CHECK(a == b && u[0] == 0.0 && u[nc - 1] == 0.0,
                  "a range past the furthest sample is cut there; one beyond it is all 0");
        }
        fl_sim_result_clear(&res);
        free(u);
        fl_sim_timeline_free(tl);
        fl_sim_free(s);
        fl_sim_free(run);
        net_close(&n);
    }
}

static void test_deadlock(void)
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, "ring:8", "shortest", 0.9, 8))
        return;
    cfg.vcs = 1;
    cfg.buf_flits = 2;
    cfg.deadlock_cycles = 100;
    FlSim *s = NULL;
    fl_sim_new(n.t, &cfg, &s, NULL);
    FlSimTimeline *tl = fl_sim_timeline_new(s, 32, 1 << 30, 10, NULL);
    if (!tl) {
        CHECK(0, "a timeline");
        fl_sim_free(s);
        net_close(&n);
        return;
    }
    FlError err = { 0 };
    int rc = fl_sim_timeline_seek(tl, 100000, &err);
    int64_t locked = fl_sim_cycle(s);
    CHECK(rc == FL_OK && fl_sim_status(s) == FL_SIM_DEADLOCK && locked < 100000
              && fl_sim_timeline_max_cycle(tl) == locked,
          "seeking forward stops at the deadlock (cycle %lld)", (long long)locked);
    FlSimStatus st = FL_SIM_RUNNING;
    fl_sim_timeline_step(tl, 10, &st, NULL);
    CHECK(st == FL_SIM_DEADLOCK && fl_sim_cycle(s) == locked, "a deadlocked run does not step");
    fl_sim_timeline_seek(tl, locked / 2, NULL);
    CHECK(fl_sim_status(s) == FL_SIM_RUNNING
              && state_hash(s) == straight_to(&n, &cfg, locked / 2),
          "at half that cycle the run is running, as a fresh run there");
    fl_sim_timeline_seek(tl, locked + 50, NULL);
    CHECK(fl_sim_cycle(s) == locked && fl_sim_status(s) == FL_SIM_DEADLOCK,
          "and forward again it locks at the same cycle");
    fl_sim_timeline_free(tl);
    fl_sim_free(s);
    net_close(&n);
}

static void test_errors(void)
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, "mesh:3x3", "dor", 0.1, 2))
        return;
    FlSim *s = NULL;
    FlError err = { 0 };
    fl_sim_new(n.t, &cfg, &s, NULL);
    CHECK(!fl_sim_timeline_new(s, 0, 0, 10, &err) && err.code == FL_ERANGE,
          "a checkpoint interval of 0 is refused: %s", err.message);
    CHECK(!fl_sim_timeline_new(s, 10, 0, 70000, &err) && err.code == FL_ERANGE
              && !fl_sim_timeline_new(s, 10, 0, 0, &err),
          "sample intervals outside 1..65535 are refused: %s", err.message);
    CHECK(!fl_sim_timeline_new(NULL, 10, 0, 10, &err) && err.code == FL_EINVAL, "no simulation");
    fl_sim_step(s, 3, NULL, NULL);
    CHECK(!fl_sim_timeline_new(s, 10, 0, 10, &err) && err.code == FL_EINVAL,
          "a simulation past cycle 0 is refused: %s", err.message);
    fl_sim_free(s);
    fl_sim_new(n.t, &cfg, &s, NULL);
    FlSimTimeline *tl = fl_sim_timeline_new(s, 10, 0, 10, &err);
    CHECK(tl && fl_sim_timeline_sim(tl) == s && fl_sim_timeline_checkpoint_interval(tl) == 10
              && fl_sim_timeline_sample_interval(tl) == 10
              && fl_sim_timeline_checkpoint_budget(tl) == 0,
          "the timeline's settings read back");
    CHECK(fl_sim_timeline_seek(tl, -1, &err) == FL_ERANGE, "seek to -1: %s", err.message);
    CHECK(fl_sim_timeline_step(tl, -1, NULL, &err) == FL_EINVAL, "step -1: %s", err.message);
    CHECK(fl_sim_timeline_set_checkpoint_interval(tl, 0, &err) == FL_ERANGE
              && fl_sim_timeline_set_checkpoint_interval(tl, 20, NULL) == FL_OK
              && fl_sim_timeline_checkpoint_interval(tl) == 20,
          "interval 0 refused, 20 taken");
    double u[4];
    size_t got = 99;
    CHECK(fl_sim_timeline_channel_utilization(tl, 10, 10, u, 4, &err) == FL_ERANGE
              && fl_sim_timeline_channel_utilization(tl, -5, 10, u, 4, NULL) == FL_ERANGE,
          "an empty or negative range is refused: %s", err.message);
    CHECK(fl_sim_timeline_channel_series(tl, fl_sim_channels(s), u, 4, &got, &err) == FL_ERANGE,
          "a channel past the last is refused: %s", err.message);
    CHECK(fl_sim_timeline_channel_series(tl, 0, u, 4, &got, NULL) == FL_OK && got == 0
              && fl_sim_timeline_samples(tl, NULL) == 0,
          "no samples before the first interval ends");
    fl_sim_step(s, 5, NULL, NULL);
    CHECK(fl_sim_timeline_step(tl, 1, NULL, &err) == FL_EINVAL
              && fl_sim_timeline_seek(tl, 2, NULL) == FL_EINVAL,
          "a simulation stepped past the timeline without it is refused: %s", err.message);
    CHECK(fl_sim_counters(NULL, NULL) == FL_EINVAL
              && fl_sim_channel_flits(s, NULL, 3, &err) == FL_EINVAL
              && fl_sim_channel_flits(s, NULL, 0, NULL) == FL_OK,
          "counters need a simulation and room");
    fl_sim_timeline_free(tl);
    fl_sim_timeline_free(NULL);
    fl_sim_free(s);
    net_close(&n);
}

int main(void)
{
    test_seek_and_thin();
    test_shared_pages();
    test_samples();
    test_sample_budget();
    test_window_utilization();
    test_deadlock();
    test_errors();
    return tap_done();
}
