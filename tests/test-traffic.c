/* test-traffic.c — traffic patterns, injection processes and trace files.
 *
 * Deterministic patterns are checked destination by destination; random
 * ones statistically, with fixed seeds so that every run draws the same
 * numbers and a bound that holds for those numbers holds forever. The
 * bounds are still chosen wide enough (chi-square at the 0.1 % level,
 * several standard deviations elsewhere) that a correct generator with any
 * seed would pass. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flitlab-io.h"
#include "internal.h" /* fl__traffic_generate_cycle, the simulator's way in */
#include "traffic-internal.h" /* fl__traffic_gap */
#include "tap.h"

static FlTopology *topo(const char *spec)
{
    FlTopology *t = NULL;
    FlError err;
    if (fl_topology_from_spec(spec, &t, &err) != FL_OK) {
        fprintf(stderr, "%s: %s\n", spec, err.message);
        exit(1);
    }
    return t;
}

/* A traffic generator for pattern on t, or NULL with err filled. */
static FlTraffic *make(const FlTopology *t, const FlTrafficConfig *cfg, uint64_t seed,
                       FlError *err)
{
    FlTraffic *tr = NULL;
    fl_error_clear(err);
    if (fl_traffic_new(t, cfg, seed, &tr, err) != FL_OK)
        return NULL;
    return tr;
}

static FlTraffic *make_pattern(const FlTopology *t, const char *pattern)
{
    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    cfg.pattern = pattern;
    FlError err;
    FlTraffic *tr = make(t, &cfg, 1, &err);
    if (!tr)
        CHECK(0, "%s refused: %s", pattern, err.message);
    return tr;
}

/* Checks every destination of a deterministic pattern against want. */
static void check_table(const FlTopology *t, const char *pattern, const int *want)
{
    FlTraffic *tr = make_pattern(t, pattern);
    if (!tr)
        return;
    int n = fl_topology_host_count(t), bad = -1;
    for (int s = 0; s < n && bad < 0; s++)
        if (fl_traffic_destination(tr, s, NULL) != want[s])
            bad = s;
    CHECK(bad < 0, "%s on %d hosts: host %d goes to %d, want %d", pattern, n, bad,
          bad < 0 ? 0 : fl_traffic_destination(tr, bad, NULL), bad < 0 ? 0 : want[bad]);
    fl_traffic_free(tr);
}

/* Whether the refusal message contains text. */
static void check_refused(const FlTopology *t, const FlTrafficConfig *cfg, const char *text)
{
    FlError err;
    FlTraffic *tr = make(t, cfg, 1, &err);
    CHECK(!tr && strstr(err.message, text), "refused with '%s': got '%s'", text,
          tr ? "(accepted)" : err.message);
    fl_traffic_free(tr);
}

/* --- the registry -------------------------------------------------------- */

static void test_registry(void)
{
    static const char *const want[] = { "uniform", "bitrev", "bitcomp", "transpose",
                                        "shuffle", "tornado", "neighbor", "randperm",
                                        "hotspot", "trace" };
    CHECK_INT(fl_traffic_pattern_count(), 10);
    int same = 1;
    for (int i = 0; i < 10; i++)
        same &= fl_traffic_pattern_name(i) && strcmp(fl_traffic_pattern_name(i), want[i]) == 0;
    CHECK(same, "the patterns are named in registry order");
    CHECK(fl_traffic_pattern_name(-1) == NULL && fl_traffic_pattern_name(10) == NULL,
          "names out of range are NULL");

    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    CHECK(strcmp(cfg.pattern, "uniform") == 0 && cfg.process == FL_INJECT_BERNOULLI
          && cfg.packet_flits == 1 && cfg.packet_flits_long == 0 && !cfg.include_self,
          "the default is uniform Bernoulli traffic of 1-flit packets");
}

/* --- deterministic patterns ---------------------------------------------- */

static void test_bit_patterns_16(void)
{
    FlTopology *t = topo("mesh:4x4");
    static const int bitrev[16] = { 0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15 };
    static const int bitcomp[16] = { 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };
    static const int shuffle[16] = { 0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15 };
    static const int transpose[16] = { 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 };
    /* mesh:4x4, k = 4: tornado adds ceil(4/2) - 1 = 1 to x and y. */
    static const int tornado[16] = { 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0 };
    static const int neighbor[16] = { 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0 };
    check_table(t, "bitrev", bitrev);
    check_table(t, "bitcomp", bitcomp);
    check_table(t, "shuffle", shuffle);
    check_table(t, "transpose", transpose);
    check_table(t, "tornado", tornado);
    check_table(t, "neighbor", neighbor);
    FlTraffic *tr = make_pattern(t, "bitrev");
    CHECK_INT(fl_traffic_destination(tr, 1, NULL), 8);
    fl_traffic_free(tr);
    fl_topology_free(t);
}

/* The 64-host tables, from the definitions written digit by digit. */
static void test_patterns_64(void)
{
    FlTopology *t = topo("mesh:8x8");
    int bitrev[64], bitcomp[64], shuffle[64], transpose[64], tornado[64], neighbor[64];
    for (int s = 0; s < 64; s++) {
        int b[6], x = s % 8, y = s / 8;
        for (int i = 0; i < 6; i++)
            b[i] = (s >> i) & 1;
        bitrev[s] = bitcomp[s] = shuffle[s] = 0;
        for (int i = 0; i < 6; i++) {
            bitrev[s] += b[i] << (5 - i);
            bitcomp[s] += (1 - b[i]) << i;
            shuffle[s] += b[i] << ((i + 1) % 6);
        }
        transpose[s] = y + 8 * x;
        tornado[s] = (x + 3) % 8 + 8 * ((y + 3) % 8);
        neighbor[s] = (x + 1) % 8 + 8 * ((y + 1) % 8);
    }
    check_table(t, "bitrev", bitrev);
    check_table(t, "bitcomp", bitcomp);
    check_table(t, "shuffle", shuffle);
    check_table(t, "transpose", transpose);
    check_table(t, "tornado", tornado);
    check_table(t, "neighbor", neighbor);

    FlTraffic *tr = make_pattern(t, "transpose");
    CHECK_INT(fl_traffic_destination(tr, 1, NULL), 8);      /* (1, 0) -> (0, 1) */
    CHECK_INT(fl_traffic_destination(tr, 19, NULL), 26);    /* (3, 2) -> (2, 3) */
    fl_traffic_free(tr);
    tr = make_pattern(t, "tornado");
    CHECK_INT(fl_traffic_destination(tr, 0, NULL), 27);     /* (0, 0) -> (3, 3) */
    CHECK_INT(fl_traffic_destination(tr, 63, NULL), 18);    /* (7, 7) -> (2, 2) */
    fl_traffic_free(tr);
    fl_topology_free(t);
}

/* Tornado on odd rings uses ceil(k/2) - 1; several hosts per switch keep
 * their slot; a network that is no grid is a ring of hosts. */
static void test_grid_variants(void)
{
    FlTopology *t = topo("torus:5x5");
    FlTraffic *tr = make_pattern(t, "tornado");
    CHECK_INT(fl_traffic_destination(tr, 0, NULL), 12);     /* (0, 0) -> (2, 2) */
    CHECK_INT(fl_traffic_destination(tr, 24, NULL), 6);     /* (4, 4) -> (1, 1) */
    fl_traffic_free(tr);
    fl_topology_free(t);

    t = topo("mesh:4x4,hosts=2");
    tr = make_pattern(t, "tornado");
    /* Host 2 r + j sits on switch r: host 3 is slot 1 of switch (1, 0). */
    CHECK_INT(fl_traffic_destination(tr, 3, NULL), 2 * 6 + 1);
    fl_traffic_free(tr);
    tr = make_pattern(t, "neighbor");
    CHECK_INT(fl_traffic_destination(tr, 30, NULL), 2 * 0 + 0);  /* (3, 3) -> (0, 0) */
    fl_traffic_free(tr);
    fl_topology_free(t);

    t = topo("hypercube:4");
    tr = make_pattern(t, "tornado");
    CHECK_INT(fl_traffic_destination(tr, 0, NULL), 7);      /* ring of 16: + 7 */
    CHECK_INT(fl_traffic_destination(tr, 12, NULL), 3);
    fl_traffic_free(tr);
    tr = make_pattern(t, "neighbor");
    CHECK_INT(fl_traffic_destination(tr, 15, NULL), 0);
    CHECK_INT(fl_traffic_destination(tr, 4, NULL), 5);
    fl_traffic_free(tr);
    fl_topology_free(t);

    /* 36 hosts: no power of two, but a square. */
    t = topo("mesh:6x6");
    tr = make_pattern(t, "transpose");
    CHECK_INT(fl_traffic_destination(tr, 1, NULL), 6);
    CHECK_INT(fl_traffic_destination(tr, 35, NULL), 35);
    fl_traffic_free(tr);
    fl_topology_free(t);
}

static void test_randperm(void)
{
    FlTopology *t = topo("mesh:8x8");
    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    cfg.pattern = "randperm";
    FlError err;
    FlTraffic *a = make(t, &cfg, 7, &err), *b = make(t, &cfg, 7, &err),
              *c = make(t, &cfg, 8, &err);
    int seen[64] = { 0 }, fixed = 0, same = 1, differ = 0;
    for (int s = 0; s < 64; s++) {
        int d = fl_traffic_destination(a, s, NULL);
        if (d >= 0 && d < 64)
            seen[d]++;
        fixed += d == s;
        same &= d == fl_traffic_destination(b, s, NULL);
        differ += d != fl_traffic_destination(c, s, NULL);
    }
    int perm = 1;
    for (int d = 0; d < 64; d++)
        perm &= seen[d] == 1;
    CHECK(perm, "randperm is a permutation");
    CHECK_INT(fixed, 0);
    CHECK(same, "the same seed gives the same permutation");
    CHECK(differ > 0, "another seed gives another permutation");
    fl_traffic_free(a);
    fl_traffic_free(b);
    fl_traffic_free(c);
    fl_topology_free(t);
}

/* --- random destinations ------------------------------------------------- */

/* Chi-square statistic of counts[0..n) against equal expectation. */
static double chi_square(const long *counts, int n, long total)
{
    double e = (double)total / n, x2 = 0.0;
    for (int i = 0; i < n; i++)
        x2 += (counts[i] - e) * (counts[i] - e) / e;
    return x2;
}

static void test_uniform(void)
{
    FlTopology *t = topo("mesh:4x4");
    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    FlError err;
    FlTraffic *tr = make(t, &cfg, 1, &err);
    FlRng rng;
    fl_rng_seed(&rng, 42);
    enum { DRAWS = 160000 };
    long counts[16] = { 0 }, self = 0;
    for (long i = 0; i < DRAWS; i++) {
        int src = (int)(i % 16), d = fl_traffic_destination(tr, src, &rng);
        self += d == src;
        /* Bin by offset from the source, so that all sources share bins. */
        counts[(d - src + 16) % 16]++;
    }
    CHECK_INT(self, 0);
    /* 15 bins, 14 degrees of freedom: P(X2 > 36.12) = 0.001. */
    double x2 = chi_square(counts + 1, 15, DRAWS);
    CHECK(x2 < 36.12, "uniform without self: chi-square %.2f < 36.12 (14 dof, 0.1 %%)", x2);
    fl_traffic_free(tr);

    cfg.include_self = 1;
    tr = make(t, &cfg, 1, &err);
    memset(counts, 0, sizeof counts);
    for (long i = 0; i < DRAWS; i++)
        counts[fl_traffic_destination(tr, 3, &rng)]++;
    /* 16 bins, 15 degrees of freedom: P(X2 > 37.70) = 0.001. */
    x2 = chi_square(counts, 16, DRAWS);
    CHECK(x2 < 37.70 && counts[3] > 0,
          "uniform with self: chi-square %.2f < 37.70, source drawn %ld times", x2, counts[3]);
    fl_traffic_free(tr);
    fl_topology_free(t);
}

static void test_hotspot(void)
{
    FlTopology *t = topo("mesh:4x4");
    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    cfg.pattern = "hotspot";
    cfg.hotspot_fraction = 0.3;
    static const int spots[2] = { 5, 9 };
    cfg.hotspots = spots;
    cfg.n_hotspots = 2;
    FlError err;
    FlTraffic *tr = make(t, &cfg, 1, &err);
    CHECK(tr != NULL, "hotspot accepted: %s", err.message);
    FlRng rng;
    fl_rng_seed(&rng, 3);
    enum { DRAWS = 100000 };
    long to5 = 0, to9 = 0, self = 0;
    for (long i = 0; i < DRAWS; i++) {
        int d = fl_traffic_destination(tr, 0, &rng);
        to5 += d == 5;
        to9 += d == 9;
        self += d == 0;
    }
    /* The uniform rest also reaches the hotspots: 0.3 + 0.7 * 2/15. The
     * standard deviation of the share is 0.0015; the tolerance is 0.01. */
    double share = (double)(to5 + to9) / DRAWS, want = 0.3 + 0.7 * 2.0 / 15.0;
    CHECK_NEAR(share, want, 0.01);
    CHECK_NEAR((double)to5 / (double)(to5 + to9), 0.5, 0.02);
    CHECK_INT(self, 0);

    /* A hotspot source sends its hotspot share to the other hotspot. */
    long to9_from5 = 0, self5 = 0;
    for (long i = 0; i < DRAWS; i++) {
        int d = fl_traffic_destination(tr, 5, &rng);
        to9_from5 += d == 9;
        self5 += d == 5;
    }
    CHECK_NEAR((double)to9_from5 / DRAWS, 0.3 + 0.7 / 15.0, 0.01);
    CHECK_INT(self5, 0);
    fl_traffic_free(tr);

    /* Without a list, host 0 is the hotspot. */
    cfg.hotspots = NULL;
    cfg.n_hotspots = 0;
    cfg.hotspot_fraction = 1.0;
    tr = make(t, &cfg, 1, &err);
    int all0 = 1;
    for (int i = 0; i < 1000; i++)
        all0 &= fl_traffic_destination(tr, 1 + i % 15, &rng) == 0;
    CHECK(all0, "a fraction of 1 sends everything to host 0");
    fl_traffic_free(tr);
    fl_topology_free(t);
}

/* --- injection ------------------------------------------------------------ */

typedef struct Load {
    double offered;       /* flits per cycle per host */
    double long_share;    /* packets of the long length */
    double p_again;       /* P(packet at t + 1 | packet at t) */
    double p_any;         /* P(packet at t) */
} Load;

/* One cycle's packets as the simulator asks for them
 * (fl__traffic_generate_cycle): made[h] and len[h] per host, and whether
 * some host made two. */
typedef struct CycleMade {
    char *made;
    int *len;
    int twice;
} CycleMade;

static int collect_packet(void *data, int src, int dst, int flits)
{
    CycleMade *m = data;
    (void)dst;
    m->twice |= m->made[src];
    m->made[src] = 1;
    m->len[src] = flits;
    return 0;
}

/* Runs every host of t for cycles cycles and measures the load: asking
 * each host (fl_traffic_generate), or with whole set, every host at once
 * as the simulator does (where no host may make two packets a cycle). */
static Load measure_as(const FlTopology *t, const FlTrafficConfig *cfg, int64_t cycles,
                       uint64_t seed, int whole)
{
    FlError err;
    FlTraffic *tr = make(t, cfg, seed, &err);
    Load l = { 0 };
    if (!tr) {
        CHECK(0, "refused: %s", err.message);
        return l;
    }
    int n = fl_topology_host_count(t);
    char *prev = calloc((size_t)n, 1);
    CycleMade cm = { calloc((size_t)n, 1), calloc((size_t)n, sizeof(int)), 0 };
    FlRng rng;
    fl_rng_seed(&rng, seed);
    long flits = 0, packets = 0, longs = 0, pairs = 0, again = 0;
    for (int64_t c = 0; c < cycles; c++) {
        if (whole) {
            memset(cm.made, 0, (size_t)n);
            fl__traffic_generate_cycle(tr, c, &rng, collect_packet, &cm);
        }
        for (int h = 0; h < n; h++) {
            int dst, len, made;
            if (whole) {
                made = cm.made[h];
                len = cm.len[h];
            } else {
                made = fl_traffic_generate(tr, h, c, &rng, &dst, &len);
            }
            if (made) {
                flits += len;
                packets++;
                longs += len == cfg->packet_flits_long;
            }
            pairs += prev[h];
            again += prev[h] && made;
            prev[h] = (char)made;
        }
    }
    if (whole)
        CHECK(!cm.twice, "asked for a whole cycle, no host makes two packets in one");
    free(cm.made);
    free(cm.len);
    l.offered = (double)flits / (double)(cycles * n);
    l.long_share = packets ? (double)longs / (double)packets : 0.0;
    l.p_again = pairs ? (double)again / (double)pairs : 0.0;
    l.p_any = (double)packets / (double)(cycles * n);
    free(prev);
    fl_traffic_free(tr);
    return l;
}

static Load measure(const FlTopology *t, const FlTrafficConfig *cfg, int64_t cycles,
                    uint64_t seed)
{
    return measure_as(t, cfg, cycles, seed, 0);
}

static void test_bernoulli(void)
{
    FlTopology *t = topo("mesh:8x8");
    static const double rates[2] = { 0.1, 0.5 };
    /* Fixed 1, fixed 8, bimodal 1 / 16 with a quarter long (mean 4.75). */
    static const int shorts[3] = { 1, 8, 1 }, longs[3] = { 0, 0, 16 };
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 3; k++) {
            FlTrafficConfig cfg;
            fl_traffic_config_init(&cfg);
            cfg.rate = rates[r];
            cfg.packet_flits = shorts[k];
            cfg.packet_flits_long = longs[k];
            cfg.long_fraction = 0.25;
            /* Host by host, and a whole cycle at once: the simulator's
             * way, which draws the gaps between packets instead. */
            for (int whole = 0; whole < 2; whole++) {
                Load l = measure_as(t, &cfg, 20000, 11, whole);
                const char *how = whole ? "a cycle at once" : "host by host";
                /* 1.28 M host-cycles: the relative standard deviation of
                 * the offered load is under 1 % in every case; 3 % is
                 * allowed. */
                CHECK(fabs(l.offered - rates[r]) <= 0.03 * rates[r],
                      "Bernoulli rate %.1f, lengths %d/%d, %s: offered %.4f", rates[r],
                      shorts[k], longs[k], how, l.offered);
                if (longs[k])
                    CHECK(fabs(l.long_share - 0.25) <= 0.02, "%s: long share %.4f", how,
                          l.long_share);
                else
                    CHECK(fabs(l.p_again - l.p_any) < 0.02, "%s: Bernoulli packets are "
                          "independent (P(again) %.4f, P %.4f)", how, l.p_again, l.p_any);
            }
        }
    fl_topology_free(t);
}

/* The ends of the gaps the simulator draws: a packet in every host-cycle
 * at rate 1 with 1-flit packets, none at rate 0, and a rare one right. */
static void test_gap_ends(void)
{
    FlTopology *t = topo("mesh:4x4");
    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    cfg.rate = 1.0;
    Load l = measure_as(t, &cfg, 500, 3, 1);
    CHECK(l.offered == 1.0, "rate 1, a cycle at once: every host every cycle (%.4f)",
          l.offered);
    cfg.rate = 0.0;
    l = measure_as(t, &cfg, 500, 3, 1);
    CHECK(l.offered == 0.0, "rate 0, a cycle at once: nothing (%.4f)", l.offered);
    /* 0.001: 16 M host-cycles, 16000 flits expected, sd 126; 5 % allowed. */
    cfg.rate = 0.001;
    l = measure_as(t, &cfg, 1000000, 3, 1);
    CHECK(fabs(l.offered - 0.001) < 0.05 * 0.001, "rate 0.001, a cycle at once: %.6f",
          l.offered);
    fl_topology_free(t);
}

static void test_onoff(void)
{
    FlTopology *t = topo("mesh:4x4");
    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    cfg.process = FL_INJECT_ONOFF;
    cfg.rate = 0.2;
    cfg.burst_on = 20;
    cfg.burst_off = 60;
    /* 3.2 M host-cycles; bursts make the estimate noisier than Bernoulli's
     * (about 1.5 % relative standard deviation here), so 5 % is allowed. */
    Load l = measure(t, &cfg, 200000, 5);
    CHECK(fabs(l.offered - 0.2) <= 0.05 * 0.2, "on/off mean rate %.4f, want 0.2", l.offered);
    /* During on-periods the rate is 0.2 * 80 / 20 = 0.8, and an on-period
     * goes on with chance 1 - 1/20: a packet follows a packet with chance
     * 0.95 * 0.8 = 0.76, against 0.2 for independent cycles. */
    CHECK_NEAR(l.p_again, 0.76, 0.02);

    cfg.packet_flits = 4;
    cfg.rate = 0.4;
    cfg.burst_on = 50;
    cfg.burst_off = 50;
    l = measure(t, &cfg, 200000, 6);
    CHECK(fabs(l.offered - 0.4) <= 0.05 * 0.4, "on/off 4-flit mean rate %.4f, want 0.4",
          l.offered);
    CHECK_NEAR(l.p_again, 0.98 * 0.2, 0.02);
    fl_topology_free(t);
}

/* One packet per host per cycle; the same seeds give the same packets; a
 * saved state replays. */
static void test_determinism_and_state(void)
{
    FlTopology *t = topo("mesh:4x4");
    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    cfg.rate = 1.0;
    FlError err;
    FlTraffic *tr = make(t, &cfg, 1, &err);
    FlRng rng;
    fl_rng_seed(&rng, 1);
    int dst, len;
    int first = fl_traffic_generate(tr, 0, 0, &rng, &dst, &len);
    int second = fl_traffic_generate(tr, 0, 0, &rng, &dst, &len);
    CHECK(first == 1 && second == 0, "rate 1 makes one packet a cycle (%d, %d)", first,
          second);
    CHECK_INT(fl_traffic_generate(tr, 0, 1, &rng, &dst, &len), 1);
    fl_traffic_free(tr);

    cfg.process = FL_INJECT_ONOFF;
    cfg.rate = 0.3;
    cfg.packet_flits = 2;
    cfg.packet_flits_long = 9;
    cfg.long_fraction = 0.5;
    FlTraffic *a = make(t, &cfg, 9, &err), *b = make(t, &cfg, 9, &err);
    FlRng ra, rb;
    fl_rng_seed(&ra, 4);
    fl_rng_seed(&rb, 4);
    size_t size = fl_traffic_state_size(a);
    void *saved = malloc(size);
    FlRng saved_rng = ra;
    fl_traffic_state_save(a, saved);
    int same = 1;
    long sum = 0, replay_sum = 0;
    for (int64_t c = 0; c < 2000; c++)
        for (int h = 0; h < 16; h++) {
            int da = -1, la = 0, db = -1, lb = 0;
            int ma = fl_traffic_generate(a, h, c, &ra, &da, &la);
            int mb = fl_traffic_generate(b, h, c, &rb, &db, &lb);
            same &= ma == mb && (!ma || (da == db && la == lb));
            sum += ma ? da * 31 + la : 0;
        }
    CHECK(same, "the same seeds give the same packets");
    fl_traffic_state_load(a, saved);
    ra = saved_rng;
    for (int64_t c = 0; c < 2000; c++)
        for (int h = 0; h < 16; h++) {
            int da = -1, la = 0;
            if (fl_traffic_generate(a, h, c, &ra, &da, &la))
                replay_sum += da * 31 + la;
        }
    CHECK(sum > 0 && sum == replay_sum, "a restored state replays (%ld, %ld)", sum,
          replay_sum);
    free(saved);
    fl_traffic_free(a);
    fl_traffic_free(b);
    fl_topology_free(t);
}

/* --- a whole cycle at once ----------------------------------------------- */

/* What fl__traffic_generate_cycle emits, folded into a checksum, and how
 * many packets each host made in the cycle (count, n hosts). */
typedef struct Fold {
    unsigned long sum; /* wraps: a checksum */
    long packets;
    int *count;
} Fold;

static int fold_packet(void *data, int src, int dst, int flits)
{
    Fold *f = data;
    f->sum = f->sum * 1000003u + (unsigned long)src * 65536u + (unsigned long)dst * 256u
             + (unsigned long)flits;
    f->packets++;
    if (f->count && src >= 0)
        f->count[src]++;
    return 0;
}

/* The simulator asks every host at once (fl__traffic_generate_cycle). For
 * traces and on/off sources that must make the packets asking host by
 * host until each says no (fl_traffic_generate) makes, from the same
 * draws; Bernoulli sources draw the gaps between packets instead (their
 * rates are checked in test_bernoulli). Either way no host makes two
 * packets in a cycle, also when some were asked singly earlier in it (they
 * are skipped) or the cycle is asked for again. */
static void test_whole_cycle(void)
{
    FlTopology *t = topo("mesh:4x4,hosts=3");
    static const FlTraceEvent ev[] = {
        { 0, 3, 12, 8 }, { 0, 3, 5, 1 }, { 2, 7, 0, 4 }, { 5, 3, 1, 2 }, { 5, 40, 2, 3 },
    };
    struct {
        const char *what;
        FlInjectionProcess process;
        int trace, same_draws;
    } cases[] = {
        { "Bernoulli", FL_INJECT_BERNOULLI, 0, 0 },
        { "on/off", FL_INJECT_ONOFF, 0, 1 },
        { "trace", FL_INJECT_BERNOULLI, 1, 1 },
    };
    int n = fl_topology_host_count(t);
    int *count = calloc((size_t)n, sizeof(int));
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        FlTrafficConfig cfg;
        fl_traffic_config_init(&cfg);
        cfg.process = cases[k].process;
        cfg.rate = 0.2;
        cfg.packet_flits = 2;
        cfg.packet_flits_long = 5;
        cfg.long_fraction = 0.3;
        if (cases[k].trace) {
            cfg.pattern = "trace";
            cfg.trace = ev;
            cfg.n_trace = 5;
        }
        FlError err;
        FlTraffic *single = make(t, &cfg, 5, &err), *whole = make(t, &cfg, 5, &err),
                  *mixed = make(t, &cfg, 5, &err);
        FlRng rs, rw, rm;
        fl_rng_seed(&rs, 2);
        fl_rng_seed(&rw, 2);
        fl_rng_seed(&rm, 2);
        Fold fs = { 0, 0, NULL }, fw = { 0, 0, NULL }, fm = { 0, 0, count };
        int dst, len, twice = 0;
        for (int64_t c = 0; c < 3000; c++) {
            for (int h = 0; h < n; h++)
                while (fl_traffic_generate(single, h, c, &rs, &dst, &len))
                    fold_packet(&fs, h, dst, len);
            fl__traffic_generate_cycle(whole, c, &rw, fold_packet, &fw);
            /* The first few hosts singly, then all, all again and one more
             * singly: the last two make nothing new. */
            memset(count, 0, sizeof(int) * (size_t)n);
            for (int h = 0; h < (int)(c % 5); h++)
                while (fl_traffic_generate(mixed, h, c, &rm, &dst, &len))
                    fold_packet(&fm, h, dst, len);
            fl__traffic_generate_cycle(mixed, c, &rm, fold_packet, &fm);
            fl__traffic_generate_cycle(mixed, c, &rm, fold_packet, &fm);
            if (fl_traffic_generate(mixed, 0, c, &rm, &dst, &len))
                fold_packet(&fm, 0, dst, len);
            for (int h = 0; h < n; h++)
                twice |= count[h] > (cases[k].trace ? 2 : 1);
        }
        CHECK(!twice, "%s: no host makes more packets in a cycle than it may", cases[k].what);
        if (cases[k].same_draws) {
            CHECK(fs.packets > 4 && fs.sum == fw.sum && fs.packets == fw.packets,
                  "%s: a whole cycle at once makes what host by host makes (%ld, %ld "
                  "packets)", cases[k].what, fs.packets, fw.packets);
            CHECK(fs.sum == fm.sum && fs.packets == fm.packets,
                  "%s: hosts asked singly are skipped, a second call makes nothing (%ld, %ld)",
                  cases[k].what, fs.packets, fm.packets);
        } else {
            /* 144000 host-cycles at 0.2 / 2.9 packets each: 9931 packets
             * expected, standard deviation 96; 6 of them allowed. */
            double want = 144000 * 0.2 / 2.9, sd = 96.0;
            CHECK(fabs(fw.packets - want) < 6 * sd && fabs(fm.packets - want) < 6 * sd
                      && fabs(fs.packets - want) < 6 * sd,
                  "%s: host by host %ld, a cycle at once %ld, mixed %ld packets (want %.0f)",
                  cases[k].what, fs.packets, fw.packets, fm.packets, want);
        }
        fl_traffic_free(single);
        fl_traffic_free(whole);
        fl_traffic_free(mixed);
    }
    free(count);
    fl_topology_free(t);
}

/* The exact packets of fixed seeds, pinned: speeding up the draws (inline
 * generators, the gaps' arithmetic) must leave every packet where it was,
 * so that simulations stay the same bit for bit. The sums were taken
 * from the code before those changes. */
typedef struct Pinned {
    uint64_t sum;        /* FNV-1a over cycle, source, destination, length */
    long packets;
    int64_t cycle;
} Pinned;

static void pin_word(Pinned *p, uint64_t w)
{
    for (int i = 0; i < 8; i++, w >>= 8)
        p->sum = (p->sum ^ (w & 0xff)) * 0x100000001b3ULL;
}

static int pin_packet(void *data, int src, int dst, int flits)
{
    Pinned *p = data;
    pin_word(p, (uint64_t)p->cycle);
    pin_word(p, (uint64_t)src << 40 | (uint64_t)dst << 16 | (uint64_t)flits);
    p->packets++;
    return 0;
}

static void test_pinned_streams(void)
{
    FlTopology *t = topo("mesh:4x4,hosts=2");
    struct {
        const char *what;
        FlInjectionProcess process;
        const char *pattern;
        double rate;
        int include_self, whole;
        uint64_t sum;
        long packets;
        int one_length;      /* packets of 1 flit only */
    } cases[] = {
        { "Bernoulli uniform, gaps", FL_INJECT_BERNOULLI, "uniform", 0.3, 0, 1,
          0x06cf336806f53f11ULL, 19232 },
        { "Bernoulli uniform with self, gaps", FL_INJECT_BERNOULLI, "uniform", 0.05, 1, 1,
          0xbea8008470b6f135ULL, 3141 },
        { "Bernoulli hotspot, gaps", FL_INJECT_BERNOULLI, "hotspot", 0.6, 0, 1,
          0xd3de09808a11777eULL, 38450 },
        { "Bernoulli uniform, host by host", FL_INJECT_BERNOULLI, "uniform", 0.3, 0, 0,
          0x9d8f42216bfca2c6ULL, 18986 },
        { "on/off hotspot", FL_INJECT_ONOFF, "hotspot", 0.2, 0, 1, 0x454789f9bd1c8267ULL,
          12789 },
        { "Bernoulli bit reversal, gaps", FL_INJECT_BERNOULLI, "bitrev", 0.9, 0, 1,
          0xd7bac7e6950352acULL, 57702 },
        { "Bernoulli uniform, one length, gaps", FL_INJECT_BERNOULLI, "uniform", 0.3, 0, 1,
          0xf847461afe3e9142ULL, 38486, 1 },
        { "Bernoulli uniform with self, one length, gaps", FL_INJECT_BERNOULLI, "uniform", 0.05,
          1, 1, 0x2ef9f9cf8555eb8eULL, 6382, 1 },
    };
    int n = fl_topology_host_count(t);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        FlTrafficConfig cfg;
        fl_traffic_config_init(&cfg);
        cfg.pattern = cases[k].pattern;
        cfg.process = cases[k].process;
        cfg.rate = cases[k].rate;
        cfg.include_self = cases[k].include_self;
        cfg.packet_flits = 1;
        cfg.packet_flits_long = cases[k].one_length ? 0 : 6;
        cfg.long_fraction = 0.2;
        int hot[] = { 3, 17, 30 };
        cfg.hotspots = hot;
        cfg.n_hotspots = 3;
        cfg.hotspot_fraction = 0.25;
        FlError err;
        FlTraffic *tr = make(t, &cfg, 9, &err);
        CHECK(tr != NULL, "%s: made (%s)", cases[k].what, tr ? "" : err.message);
        if (!tr)
            continue;
        FlRng rng;
        fl_rng_seed(&rng, 21);
        Pinned p = { 0xcbf29ce484222325ULL, 0, 0 };
        int dst, len;
        for (p.cycle = 0; p.cycle < 4000; p.cycle++) {
            if (cases[k].whole)
                fl__traffic_generate_cycle(tr, p.cycle, &rng, pin_packet, &p);
            else
                for (int h = 0; h < n; h++)
                    if (fl_traffic_generate(tr, h, p.cycle, &rng, &dst, &len))
                        pin_packet(&p, h, dst, len);
        }
        CHECK(p.sum == cases[k].sum && p.packets == cases[k].packets,
              "%s: the same packets as ever (sum 0x%016llx, %ld packets)", cases[k].what,
              (unsigned long long)p.sum, p.packets);
        fl_traffic_free(tr);
    }
    /* The generator itself: its first draws of each kind. */
    FlRng rng;
    fl_rng_seed(&rng, 77);
    Pinned p = { 0xcbf29ce484222325ULL, 0, 0 };
    for (int i = 0; i < 1000; i++) {
        pin_word(&p, fl_rng_next(&rng));
        pin_word(&p, fl_rng_below(&rng, (uint32_t)i + 1));
        pin_word(&p, fl_rng_below(&rng, 0x80000001u));
        double u = fl_rng_uniform(&rng);
        uint64_t bits;
        memcpy(&bits, &u, sizeof bits);
        pin_word(&p, bits);
    }
    CHECK(p.sum == 0x562d252b2d38d5d0ULL,
          "the generator's draws are the same as ever (sum 0x%016llx)", (unsigned long long)p.sum);
    fl_topology_free(t);
}

/* The gaps between Bernoulli packets come from a table where it tells: the
 * same as log() gives for every draw tried, above all the draws near each
 * step of the gap (where log() is least sure to be monotone), for chances
 * near 0 and 1, with and without a table long enough for them. */
static void test_gap_table(void)
{
    FlTopology *t = topo("mesh:4x4");
    static const struct {
        double rate;
        int flits;
    } cases[] = { { 0.1, 1 }, { 0.1, 8 }, { 0.9, 1 }, { 0.4, 8 }, { 0.999, 1 },
                  { 0.001, 1 }, { 0.02, 16 }, { 1e-9, 1 } };
    FlRng rng;
    fl_rng_seed(&rng, 8);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FlTrafficConfig cfg;
        fl_traffic_config_init(&cfg);
        cfg.rate = cases[i].rate;
        cfg.packet_flits = cases[i].flits;
        FlError err;
        FlTraffic *tr = make(t, &cfg, 1, &err);
        if (!tr) {
            CHECK(0, "rate %g: %s", cases[i].rate, err.message);
            continue;
        }
        /* As the generator derives it: log(1 - p) of p rounded up to a
         * multiple of 2^-53. */
        double p = cases[i].rate / cases[i].flits;
        double l = log1p(-ceil(p * 0x1.0p53) * 0x1.0p-53);
        const int64_t top = (int64_t)1 << 53;
        long tried = 0, differ = 0;
        uint64_t first = 0;
        /* Near the step to gap j, for the gaps a draw above 2^-12 reaches
         * (the table covers those above 2^-10). */
        for (int j = 1; j <= 1200; j += j < 64 ? 1 : 7) {
            double at = exp(j * l) * 0x1.0p53;
            if (at < 0x1.0p41)
                break;
            for (int64_t d = -1500; d <= 1500; d++) {
                int64_t k = (int64_t)at + d;
                if (k < 1 || k > top)
                    continue;
                tried++;
                if (fl__traffic_gap(tr, (uint64_t)k, 0) != fl__traffic_gap(tr, (uint64_t)k, 1)
                    && !differ++)
                    first = (uint64_t)k;
            }
        }
        /* And anywhere, the ends too. */
        for (int r = 0; r < 20000; r++) {
            uint64_t k = r == 0 ? 1 : r == 1 ? (uint64_t)top : (fl_rng_next(&rng) >> 11) + 1;
            tried++;
            if (fl__traffic_gap(tr, k, 0) != fl__traffic_gap(tr, k, 1) && !differ++)
                first = k;
        }
        CHECK(differ == 0, "rate %g, %d flits: the table gives log()'s gaps (%ld of %ld "
              "draws differ, first %llu)", cases[i].rate, cases[i].flits, differ, tried,
              (unsigned long long)first);
        fl_traffic_free(tr);
    }
    fl_topology_free(t);
}

/* --- traces ---------------------------------------------------------------- */

static void test_trace_traffic(void)
{
    FlTopology *t = topo("mesh:4x4");
    static const FlTraceEvent ev[] = {
        { 0, 3, 12, 8 }, { 0, 3, 5, 1 }, { 2, 7, 0, 4 }, { 5, 3, 1, 2 },
    };
    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    cfg.pattern = "trace";
    cfg.trace = ev;
    cfg.n_trace = 4;
    FlError err;
    FlTraffic *tr = make(t, &cfg, 1, &err);
    CHECK(tr != NULL, "trace accepted: %s", err.message);
    FlRng rng;
    fl_rng_seed(&rng, 1);
    int dst = -1, len = 0, made;
    CHECK_INT(fl_traffic_destination(tr, 3, &rng), 12);
    made = fl_traffic_generate(tr, 3, 0, &rng, &dst, &len);
    CHECK(made && dst == 12 && len == 8, "host 3's first event at cycle 0 (%d: %d, %d)", made,
          dst, len);
    made = fl_traffic_generate(tr, 3, 0, &rng, &dst, &len);
    CHECK(made && dst == 5 && len == 1, "asking again gives the second event of the same "
          "cycle (%d: %d, %d)", made, dst, len);
    CHECK_INT(fl_traffic_generate(tr, 3, 0, &rng, &dst, &len), 0);
    CHECK_INT(fl_traffic_generate(tr, 7, 1, &rng, &dst, &len), 0);
    made = fl_traffic_generate(tr, 7, 2, &rng, &dst, &len);
    CHECK(made && dst == 0 && len == 4, "host 7's event at cycle 2 (%d: %d, %d)", made, dst,
          len);
    CHECK_INT(fl_traffic_generate(tr, 3, 4, &rng, &dst, &len), 0);
    made = fl_traffic_generate(tr, 3, 5, &rng, &dst, &len);
    CHECK(made && dst == 1 && len == 2, "host 3's event at cycle 5 (%d: %d, %d)", made, dst,
          len);
    CHECK_INT(fl_traffic_generate(tr, 3, 100, &rng, &dst, &len), 0);
    CHECK_INT(fl_traffic_destination(tr, 3, &rng), -1);
    fl_traffic_free(tr);

    FlTraceEvent bad[2] = { { 4, 0, 1, 1 }, { 3, 1, 0, 1 } };
    cfg.trace = bad;
    cfg.n_trace = 2;
    check_refused(t, &cfg, "trace event 2 is out of order");
    bad[1].cycle = 4;
    bad[1].dst = 16;
    check_refused(t, &cfg, "event 2: host 16, but the network has hosts 0 to 15");
    bad[1].src = 20;
    check_refused(t, &cfg, "event 2: host 20, but the network has hosts 0 to 15");
    /* Events read from a file are named by their line, and by the file
     * when the traffic knows its name. */
    bad[1].line = 7;
    check_refused(t, &cfg, "line 7: host 20, but the network has hosts 0 to 15");
    cfg.trace_name = "burst.trace";
    check_refused(t, &cfg, "burst.trace: line 7: host 20, but the network has hosts 0 to 15");
    cfg.trace_name = NULL;
    bad[1].line = 0;
    bad[1].src = 1;
    bad[1].dst = 0;
    bad[0].flits = 0;
    check_refused(t, &cfg, "trace event 1 has 0 flits");
    bad[0].flits = FL_MAX_PACKET_FLITS + 1;
    check_refused(t, &cfg, "trace event 1 has 1000001 flits; a packet has at most 1000000");
    fl_topology_free(t);
}

/* Writes text to a fresh temporary file; the caller unlinks path. */
static void write_temp(char path[64], const char *text, size_t len)
{
    strcpy(path, "/tmp/flitlab-trace-XXXXXX");
    int fd = mkstemp(path);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fp || fwrite(text, 1, len, fp) != len || fclose(fp) != 0) {
        fprintf(stderr, "cannot write a temporary file\n");
        exit(1);
    }
}

static int read_text(const char *text, size_t len, FlTraceEvent **ev, int64_t *n, FlError *err)
{
    char path[64];
    write_temp(path, text, len);
    int rc = fl_io_read_trace(path, ev, n, err);
    unlink(path);
    return rc;
}

static void test_trace_file(void)
{
    static const char good[] =
        "# cycle source destination flits\n"
        "\n"
        "0 3 12 8\n"
        "  0\t3 5 1   # same cycle\r\n"
        "2 7 0 4\n"
        "# done\n"
        "5 3 1 2";
    FlTraceEvent *ev = NULL;
    int64_t n = 0;
    FlError err;
    int rc = read_text(good, strlen(good), &ev, &n, &err);
    CHECK(rc == FL_OK, "the good trace reads: %s", rc ? err.message : "ok");
    CHECK_INT(n, 4);
    CHECK(n == 4 && ev[0].cycle == 0 && ev[0].src == 3 && ev[0].dst == 12 && ev[0].flits == 8
          && ev[1].dst == 5 && ev[1].flits == 1 && ev[2].cycle == 2 && ev[2].src == 7
          && ev[3].cycle == 5 && ev[3].dst == 1 && ev[3].flits == 2,
          "the events are read in file order");
    CHECK(n == 4 && ev[0].line == 3 && ev[1].line == 4 && ev[2].line == 5 && ev[3].line == 7,
          "each event carries its line, for messages");
    free(ev);

    ev = NULL;
    rc = read_text("# nothing\n\n", 11, &ev, &n, &err);
    CHECK(rc == FL_OK && n == 0, "a trace of comments has no events");
    free(ev);

    static const struct {
        const char *text;
        const char *want;
    } bad[] = {
        { "0 1 2 3\n1 2 3\n", "line 2: the number of flits is missing" },
        { "0 1 2 3\n\n# c\n1 2 3 4 5\n", "line 4: more than 4 numbers" },
        { "0 1 x 3\n", "line 1: the destination 'x' is not a whole number" },
        { "0 -1 2 3\n", "line 1: the source '-1' is not a whole number" },
        { "0 1 2 3.5\n", "line 1: the number of flits '3.5' is not a whole number" },
        { "0 1 2 0\n", "line 1: a packet needs at least 1 flit" },
        { "0 1 2 1000001\n", "line 1: a packet has at most 1000000 flits" },
        { "5 1 2 1\n4 1 2 1\n", "line 2: cycle 4 comes after cycle 5 on line 1" },
        { "0 1 99999999999 1\n", "line 1: the destination is larger than" },
        { "99999999999999999999 1 2 1\n", "line 1: the cycle is larger than" },
        { "0 1 2 1\n1 1\0002 1\n", "line 2: the source is not a whole number" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t len = strlen(bad[i].text);
        if (i == sizeof bad / sizeof bad[0] - 1)
            len = 16;  /* the NUL byte is part of the file */
        ev = NULL;
        rc = read_text(bad[i].text, len, &ev, &n, &err);
        CHECK(rc != FL_OK && strstr(err.message, bad[i].want) && strstr(err.message, "/tmp/"),
              "bad trace %zu refused with '%s': got '%s'", i, bad[i].want,
              rc ? err.message : "(accepted)");
        if (!rc)
            free(ev);
    }

    rc = fl_io_read_trace("/nonexistent/trace.txt", &ev, &n, &err);
    CHECK(rc == FL_EIO && strstr(err.message, "/nonexistent/trace.txt"),
          "a missing file is an I/O error naming it: %s", err.message);
}

/* --- refusals ---------------------------------------------------------------- */

static void test_refusals(void)
{
    FlTopology *t = topo("mesh:8x8");
    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    cfg.pattern = "zipf";
    check_refused(t, &cfg, "unknown traffic pattern 'zipf' (known: uniform, bitrev, "
                  "bitcomp, transpose, shuffle, tornado, neighbor, randperm, hotspot, trace)");

    fl_traffic_config_init(&cfg);
    cfg.rate = 1.5;
    check_refused(t, &cfg, "injection rate 1.5 is outside [0, 1]");
    cfg.rate = -0.1;
    check_refused(t, &cfg, "injection rate -0.1 is outside [0, 1]");
    cfg.rate = NAN;
    check_refused(t, &cfg, "injection rate nan is outside [0, 1]");

    fl_traffic_config_init(&cfg);
    cfg.packet_flits = 0;
    check_refused(t, &cfg, "packet length 0 is not positive");
    cfg.packet_flits = 4;
    cfg.packet_flits_long = -2;
    check_refused(t, &cfg, "long packet length -2 is not positive");
    cfg.packet_flits_long = 16;
    cfg.long_fraction = 1.5;
    check_refused(t, &cfg, "long packet fraction 1.5 is outside [0, 1]");

    fl_traffic_config_init(&cfg);
    cfg.process = FL_INJECT_ONOFF;
    cfg.rate = 0.5;
    cfg.burst_on = 10;
    cfg.burst_off = 30;
    check_refused(t, &cfg, "needs 2 flits per cycle during on-periods, above 1");
    cfg.burst_on = 0.5;
    check_refused(t, &cfg, "on/off periods must be at least 1 cycle");

    fl_traffic_config_init(&cfg);
    cfg.pattern = "hotspot";
    static const int spots[2] = { 3, 64 };
    cfg.hotspots = spots;
    cfg.n_hotspots = 2;
    check_refused(t, &cfg, "hotspot host 64 is out of range (the network has hosts 0 to 63)");
    cfg.n_hotspots = 1;
    cfg.hotspot_fraction = 1.5;
    check_refused(t, &cfg, "hotspot fraction 1.5 is outside [0, 1]");
    fl_topology_free(t);

    t = topo("mesh:3x4");
    fl_traffic_config_init(&cfg);
    static const char *const pow2[3] = { "bitrev", "bitcomp", "shuffle" };
    for (int i = 0; i < 3; i++) {
        cfg.pattern = pow2[i];
        check_refused(t, &cfg, "needs a power-of-two number of hosts (at least 2), this "
                      "network has 12");
    }
    cfg.pattern = "transpose";
    check_refused(t, &cfg, "transpose needs a square number of hosts (k * k), this network "
                  "has 12");
    fl_topology_free(t);

    /* One host: uniform traffic has nowhere to go unless it may send to
     * itself. */
    t = fl_topology_new();
    int sw, host;
    fl_topology_add_node(t, FL_NODE_SWITCH, 1, &sw, NULL);
    fl_topology_add_node(t, FL_NODE_HOST, 1, &host, NULL);
    fl_topology_connect(t, sw, 0, host, 0, NULL, NULL);
    fl_traffic_config_init(&cfg);
    check_refused(t, &cfg, "needs at least 2 hosts, this network has 1");
    cfg.include_self = 1;
    FlError err;
    FlRng rng;
    fl_rng_seed(&rng, 1);
    FlTraffic *tr = make(t, &cfg, 1, &err);
    CHECK(tr && fl_traffic_destination(tr, 0, &rng) == 0, "one host may send to itself");
    fl_traffic_free(tr);
    fl_topology_free(t);
}

/* An emit function whose queues are full at hosts 3 and 9. */
static int full_at_3_and_9(void *data, int src, int dst, int flits)
{
    (void)data, (void)dst, (void)flits;
    return src == 3 || src == 9 ? FL__TRAFFIC_DEFER : FL_OK;
}

static void count_owed(void *data, int src, int flits)
{
    (void)src;
    *(int *)data += flits;
}

/* The sources whose queues were full defer, and are the ones
 * fl__traffic_next_deferring() finds, until they have been replayed. */
static void test_next_deferring(void)
{
    FlTopology *t = topo("mesh:4x4");
    FlTrafficConfig cfg;
    fl_traffic_config_init(&cfg);
    cfg.rate = 1.0;
    FlError err;
    FlTraffic *tr = make(t, &cfg, 7, &err);
    FlRng rng;
    fl_rng_seed(&rng, 3);
    int owed = 0;
    CHECK_INT(fl__traffic_next_deferring(tr, 0), -1);
    fl__traffic_generate_cycle_owing(tr, 0, &rng, full_at_3_and_9, count_owed, &owed);
    CHECK_INT(fl__traffic_deferring(tr), 2);
    CHECK_INT(fl__traffic_next_deferring(tr, 0), 3);
    CHECK_INT(fl__traffic_next_deferring(tr, 3), 3);
    CHECK_INT(fl__traffic_next_deferring(tr, 4), 9);
    CHECK_INT(fl__traffic_next_deferring(tr, 10), -1);
    int64_t created;
    int dst, flits, replayed = 0;
    while (fl__traffic_replay(tr, 3, 0, &created, &dst, &flits))
        replayed++;
    CHECK(replayed == 1 && owed == 2, "host 3 replays the packet it owes (%d, %d owed)",
          replayed, owed);
    CHECK_INT(fl__traffic_next_deferring(tr, 0), 9);
    fl_traffic_free(tr);
    fl_topology_free(t);
}

int main(void)
{
    test_registry();
    test_bit_patterns_16();
    test_patterns_64();
    test_grid_variants();
    test_randperm();
    test_uniform();
    test_hotspot();
    test_bernoulli();
    test_gap_ends();
    test_onoff();
    test_determinism_and_state();
    test_whole_cycle();
    test_pinned_streams();
    test_gap_table();
    test_trace_traffic();
    test_trace_file();
    test_refusals();
    test_next_deferring();
    return tap_done();
}
