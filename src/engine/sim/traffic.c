/* traffic.c — where packets go, when they are made and how long they are.
 *
 * Hosts are numbered by host rank: host i is t->host_nodes[i], in node
 * order. Generated networks attach their hosts switch by switch in port
 * order, so on mesh:8x8,hosts=4 host i sits on switch i / 4.
 *
 * Destinations come in three kinds. Deterministic patterns (bit reversal,
 * complement, transpose, shuffle, tornado, neighbor, random permutation)
 * are turned into a table at creation, so a draw is one load. Uniform and
 * hotspot traffic draw from the caller's generator. Trace traffic replays
 * events grouped by source host, each host with a cursor.
 *
 * The bit patterns work on the log2(N) bits of the host rank and need a
 * power-of-two host count; transpose needs N = k * k and maps host
 * x + k * y to y + k * x. Tornado and neighbor see the hosts as a k-ary
 * n-cube: on an unedited mesh, torus, ring or line with the same number of
 * hosts on every switch, a host moves to the host with the same local index
 * on the switch reached by moving each coordinate x (in a dimension of k
 * switches) to (x + ceil(k/2) - 1) mod k for tornado — BookSim 2's
 * definition (traffic.cpp, TornadoTrafficPattern) — or to (x + 1) mod k for
 * neighbor. Any other network is treated as a ring of N hosts. (BookSim
 * with a concentration xr > 1 instead spreads the hosts over a finer grid
 * of xr * k per dimension; keeping the slot keeps every packet's switch
 * path the one of the switch-level pattern.) Like BookSim's, these
 * patterns map some hosts to themselves (bit reversal of 0, the diagonal
 * of transpose, tornado on a 2-ary grid); the simulator delivers such
 * packets through the host's switch. The random permutation is drawn once
 * from the seed given to fl_traffic_new() and avoids fixed points.
 *
 * Uniform traffic skips the source unless include_self. Hotspot traffic
 * sends hotspot_fraction of the packets to a hotspot, uniformly among the
 * hotspots, and the rest uniformly over all hosts, hotspots included, so
 * a non-hotspot source reaches the H hotspots with probability f + (1 - f)
 * H / (N - 1).
 *
 * Injection: Bernoulli makes a packet with probability rate / mean length
 * per cycle, so the offered load is rate flits per cycle per host. On/off
 * sources are two-state Markov chains whose periods are geometric with the
 * given means; they start in the stationary state (drawn from the seed) and
 * inject at rate * (on + off) / on flits per cycle while on. Lengths are
 * fixed, or long with probability long_fraction (bimodal).
 *
 * fl_traffic_generate() makes at most one random packet per host per
 * cycle; calling it again in the same cycle returns 0, so a caller may
 * loop until 0, which a trace needs to deliver several events of one host
 * in one cycle. A trace event whose cycle has passed (the caller looped
 * once per cycle) is delivered at the next call.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng-internal.h"
#include "traffic-internal.h"

/* The per-host state of a source: the cycle of the last call (so that a
 * repeated call in the same cycle makes nothing new), the next trace event
 * and the on/off state; and while it defers (see traffic-internal.h), the
 * next cycle (random sources) or trace event to replay, and the on/off
 * states of its own stream where it is counted (now) and replayed. */
typedef struct HostState {
    int64_t last_cycle;
    int64_t next_event;
    int64_t replay;
    int32_t on;
    int32_t defer;
    int32_t count_on, replay_on;
} HostState;

/* Gap g of the table of Bernoulli gaps (see gap_table). */
typedef struct GapStep {
    int64_t below;       /* the least draw with gap g: those below have
                          * larger gaps */
    int64_t safe_lo;     /* the draws in [safe_lo, safe_hi) have gap g by */
    int64_t safe_hi;     /* the table; the others ask log() */
} GapStep;

/* The state of the generator as a whole, saved with the hosts': the last
 * cycle in which fl_traffic_generate() asked single hosts, and the last
 * one fl__traffic_generate_cycle() asked every host in (a host has been
 * asked in cycle c when its last_cycle or all_cycle is c); and where the
 * next packet of Bernoulli sources falls, for fl__traffic_generate_cycle(),
 * as cycle * n_hosts + host, or -1 before the first is drawn. */
typedef struct SharedState {
    int64_t single_cycle;
    int64_t all_cycle;
    int64_t next_packet;
    int64_t deferring;       /* sources deferring */
} SharedState;

/* How a destination is drawn. */
typedef enum DrawKind {
    DRAW_UNIFORM = 0,
    DRAW_TABLE,
    DRAW_HOTSPOT,
    DRAW_TRACE
} DrawKind;

struct FlTraffic {
    int n_hosts;
    DrawKind draw;
    int include_self;

    /* DRAW_TABLE: the destination of every source. */
    int *table;

    /* DRAW_HOTSPOT: host ranks, and the share of packets sent to them. */
    int *hotspots;
    int n_hotspots;
    double hotspot_fraction;

    /* Injection. p_packet is the chance of a packet in a cycle (in an
     * on-period for on/off sources); p_on_off and p_off_on are the
     * per-cycle chances of leaving the on and the off state. */
    FlInjectionProcess process;
    double p_packet, p_on_off, p_off_on;
    /* p_packet as an integer bound on the top 53 bits of a raw draw: the
     * uniform draw u = k * 2^-53 is below p_packet exactly when k is below
     * ceil(p_packet * 2^53) (scaling by a power of two is exact), so the
     * test needs no conversion to double and takes the same decisions. */
    uint64_t packet_below;
    /* log(1 - p_packet), for the gaps between Bernoulli packets (set for
     * Bernoulli sources only). */
    double log_no_packet;
    /* The same gaps by table (see gap_table), or NULL: gap_steps[g] for
     * the gaps g the table knows, and gap_start[b] the gap of the last
     * draw of bucket b (draws k with k >> GAP_SHIFT == b), or -1 where the
     * table ends. */
    GapStep *gap_steps;
    int32_t *gap_start;
    int short_flits, long_flits;
    double long_fraction;

    /* DRAW_TRACE: events grouped by source and sorted by cycle; host h's
     * are events[first[h] .. first[h + 1]). */
    FlTraceEvent *events;
    int64_t *first;

    /* The keys of the sources' own streams, one per host (see own_draw). */
    uint64_t *own_key;

    /* Per-host state, and the shared state in front of it: one block, so
     * that a checkpoint is one copy. */
    SharedState *shared;
    HostState *state;
};

/* A row of the pattern registry (at the end of the setup functions): a
 * name, the setup function that prepares a generator for it, and the
 * parameter that setup function needs when rows share it. */
typedef struct Pattern Pattern;
typedef int (*BitMap)(int src, int bits);
typedef int (*GridOffset)(int k);

/* What a setup function gets. */
typedef struct Setup {
    const FlTopology *t;
    const FlTrafficConfig *cfg;
    uint64_t seed;
    const Pattern *pattern;
} Setup;

typedef int (*PatternSetup)(FlTraffic *tr, const Setup *su, FlError *err);

struct Pattern {
    const char *name;
    PatternSetup setup;
    BitMap bits;
    GridOffset offset;
};

void fl_traffic_config_init(FlTrafficConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->pattern = "uniform";
    cfg->process = FL_INJECT_BERNOULLI;
    cfg->rate = 0.1;
    cfg->burst_on = 10.0;
    cfg->burst_off = 10.0;
    cfg->hotspot_fraction = 0.1;
    cfg->packet_flits = 1;
}

/* --- destination tables --------------------------------------------------- */

static int alloc_table(FlTraffic *tr, FlError *err)
{
    tr->table = malloc(sizeof(int) * (size_t)tr->n_hosts);
    if (!tr->table)
        return fl_error_set(err, FL_ENOMEM, "out of memory for a traffic table of %d hosts",
                            tr->n_hosts);
    tr->draw = DRAW_TABLE;
    return FL_OK;
}

/* log2(N) for the bit patterns, or an error naming the pattern. */
static int host_bits(const FlTraffic *tr, const char *pattern, int *bits, FlError *err)
{
    int n = tr->n_hosts, b = 0;
    if (n < 2 || (n & (n - 1)) != 0)
        return fl_error_set(err, FL_EUNSUPPORTED, "traffic pattern %s needs a power-of-two "
                            "number of hosts (at least 2), this network has %d",
                            pattern, n);
    while ((1 << b) < n)
        b++;
    *bits = b;
    return FL_OK;
}

static int map_bitrev(int src, int bits)
{
    int d = 0;
    for (int i = 0; i < bits; i++)
        d |= ((src >> i) & 1) << (bits - 1 - i);
    return d;
}

static int map_bitcomp(int src, int bits)
{
    return ~src & ((1 << bits) - 1);
}

/* Rotates left by one bit: the perfect shuffle. */
static int map_shuffle(int src, int bits)
{
    return ((src << 1) | (src >> (bits - 1))) & ((1 << bits) - 1);
}

/* The bit patterns: the row's map applied to every host rank. */
static int setup_bits(FlTraffic *tr, const Setup *su, FlError *err)
{
    int bits = 0, rc;
    if ((rc = host_bits(tr, su->pattern->name, &bits, err)) || (rc = alloc_table(tr, err)))
        return rc;
    BitMap map = su->pattern->bits;
    for (int s = 0; s < tr->n_hosts; s++)
        tr->table[s] = map(s, bits);
    return FL_OK;
}

static int setup_transpose(FlTraffic *tr, const Setup *su, FlError *err)
{
    (void)su;  /* The host count is all transpose needs. */
    int n = tr->n_hosts, k = (int)lround(sqrt((double)n));
    if (n < 1 || k * k != n)
        return fl_error_set(err, FL_EUNSUPPORTED, "traffic pattern transpose needs a square "
                            "number of hosts (k * k), this network has %d", n);
    int rc = alloc_table(tr, err);
    if (rc)
        return rc;
    for (int s = 0; s < n; s++)
        tr->table[s] = s / k + k * (s % k);
    return FL_OK;
}

/* The hosts as a grid: dims[0..ndims) switches per dimension (the host
 * count itself, in one dimension, when the network is no grid), conc hosts
 * per switch, and the switch-major order of hosts: host by_slot[r * conc +
 * j] is the j-th host of switch r, and slot[h] = r * conc + j is where host
 * h stands in that order. */
typedef struct HostGrid {
    int ndims, dims[FL_MAX_DIMS];
    int conc;
    int *by_slot, *slot;
} HostGrid;

static int is_grid_family(const char *family)
{
    static const char *const grids[] = { "mesh", "torus", "ring", "line" };
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++)
        if (strcmp(family, grids[i]) == 0)
            return 1;
    return 0;
}

/* Fills g for t; an unedited grid family with the same number of hosts on
 * every switch is seen as its switch grid, anything else as a ring of
 * hosts. */
static int host_grid(const FlTopology *t, HostGrid *g, FlError *err)
{
    int n = t->n_hosts, s_count = t->n_switches;
    memset(g, 0, sizeof *g);
    g->by_slot = malloc(sizeof(int) * (size_t)n);
    g->slot = malloc(sizeof(int) * (size_t)n);
    int *count = calloc((size_t)s_count + 1, sizeof(int));
    if (!g->by_slot || !g->slot || !count) {
        free(count);
        free(g->by_slot);
        free(g->slot);
        return fl_error_set(err, FL_ENOMEM, "out of memory for the host grid");
    }
    int grid = is_grid_family(t->family) && t->family_ndims > 0 && s_count > 0
               && n % s_count == 0;
    if (grid) {
        int product = 1;
        for (int d = 0; d < t->family_ndims; d++)
            product *= t->family_dims[d];
        grid = product == s_count;
    }
    if (grid) {
        g->conc = n / s_count;
        for (int h = 0; h < n && grid; h++) {
            int sw = fl_topology_host_switch(t, t->host_nodes[h]);
            int r = sw < 0 ? -1 : t->rank[sw];
            if (r < 0 || count[r] >= g->conc) {
                grid = 0;
                break;
            }
            g->slot[h] = r * g->conc + count[r];
            g->by_slot[r * g->conc + count[r]++] = h;
        }
    }
    free(count);
    if (grid) {
        g->ndims = t->family_ndims;
        memcpy(g->dims, t->family_dims, sizeof g->dims);
    } else {
        g->ndims = 1;
        g->dims[0] = n;
        g->conc = 1;
        for (int h = 0; h < n; h++)
            g->slot[h] = g->by_slot[h] = h;
    }
    return FL_OK;
}

static void host_grid_free(HostGrid *g)
{
    free(g->by_slot);
    free(g->slot);
}

/* Fills the table by moving every coordinate of a dimension of k switches
 * by offset(k), modulo k. Switch rank r = x0 + A * (x1 + B * x2), as the
 * grid generators number them. */
static int setup_grid_shift(FlTraffic *tr, const Setup *su, FlError *err)
{
    GridOffset offset = su->pattern->offset;
    HostGrid g;
    int rc = host_grid(su->t, &g, err);
    if (rc)
        return rc;
    if ((rc = alloc_table(tr, err))) {
        host_grid_free(&g);
        return rc;
    }
    for (int h = 0; h < tr->n_hosts; h++) {
        int r = g.slot[h] / g.conc, dst = 0, stride = 1;
        for (int d = 0; d < g.ndims; d++) {
            int k = g.dims[d], x = (r / stride) % k;
            dst += stride * ((x + offset(k)) % k);
            stride *= k;
        }
        tr->table[h] = g.by_slot[dst * g.conc + g.slot[h] % g.conc];
    }
    host_grid_free(&g);
    return FL_OK;
}

/* Halfway round: BookSim 2's (x + ceil(k/2) - 1) mod k. */
static int tornado_offset(int k)
{
    return (k + 1) / 2 - 1;
}

static int neighbor_offset(int k)
{
    (void)k;
    return 1;
}

/* Salts that give the permutation and the initial on/off states streams of
 * their own, unrelated to the caller's generator even for the same seed. */
#define RANDPERM_SALT 0x72616e647065726dULL
#define ONOFF_SALT 0x6f6e6f66665f7374ULL
#define OWN_SALT 0x6f776e5f73747265ULL

/* A permutation drawn once from the seed: Fisher–Yates, redrawn until no
 * host maps to itself. The chance of a derangement is about 1/e for any
 * N >= 2, so a few draws suffice; a single host can only map to itself. */
static int setup_randperm(FlTraffic *tr, const Setup *su, FlError *err)
{
    int n = tr->n_hosts, rc = alloc_table(tr, err);
    if (rc)
        return rc;
    FlRng rng;
    fl_rng_seed(&rng, su->seed ^ RANDPERM_SALT);
    int fixed;
    do {
        for (int i = 0; i < n; i++)
            tr->table[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)fl_rng_below(&rng, (uint32_t)i + 1), tmp = tr->table[i];
            tr->table[i] = tr->table[j];
            tr->table[j] = tmp;
        }
        fixed = 0;
        for (int i = 0; i < n && !fixed; i++)
            fixed = tr->table[i] == i;
    } while (fixed && n > 1);
    return FL_OK;
}

/* --- random destinations ---------------------------------------------------- */

static int setup_uniform(FlTraffic *tr, const Setup *su, FlError *err)
{
    if (tr->n_hosts < 2 && !tr->include_self)
        return fl_error_set(err, FL_EUNSUPPORTED, "%s traffic without self-addressed packets "
                            "needs at least 2 hosts, this network has %d", su->pattern->name,
                            tr->n_hosts);
    tr->draw = DRAW_UNIFORM;
    return FL_OK;
}

static int setup_hotspot(FlTraffic *tr, const Setup *su, FlError *err)
{
    const FlTrafficConfig *cfg = su->cfg;
    int rc = setup_uniform(tr, su, err);
    if (rc)
        return rc;
    if (!(cfg->hotspot_fraction >= 0.0 && cfg->hotspot_fraction <= 1.0))
        return fl_error_set(err, FL_ERANGE, "hotspot fraction %g is outside [0, 1]",
                            cfg->hotspot_fraction);
    int n = cfg->hotspots ? cfg->n_hotspots : 1;
    if (n < 1)
        return fl_error_set(err, FL_EINVAL, "hotspot traffic needs at least one hotspot host");
    tr->hotspots = malloc(sizeof(int) * (size_t)n);
    if (!tr->hotspots)
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d hotspots", n);
    for (int i = 0; i < n; i++) {
        int h = cfg->hotspots ? cfg->hotspots[i] : 0;
        if (h < 0 || h >= tr->n_hosts)
            return fl_error_set(err, FL_ERANGE, "hotspot host %d is out of range (the network "
                                "has hosts 0 to %d)", h, tr->n_hosts - 1);
        tr->hotspots[i] = h;
    }
    tr->n_hotspots = n;
    tr->hotspot_fraction = cfg->hotspot_fraction;
    tr->draw = DRAW_HOTSPOT;
    return FL_OK;
}

/* Uniform over all hosts but src (or all hosts if include_self). */
static inline int draw_uniform(const FlTraffic *tr, int src, FlRng *rng)
{
    if (tr->include_self)
        return (int)fl__rng_below(rng, (uint32_t)tr->n_hosts);
    int d = (int)fl__rng_below(rng, (uint32_t)tr->n_hosts - 1);
    return d >= src ? d + 1 : d;
}

/* With probability hotspot_fraction a hotspot, uniformly among them (a
 * hotspot source skips itself unless include_self, and if it is the only
 * hotspot sends uniform traffic instead); otherwise uniform. */
static int draw_hotspot(const FlTraffic *tr, int src, FlRng *rng)
{
    if (fl__rng_uniform(rng) >= tr->hotspot_fraction)
        return draw_uniform(tr, src, rng);
    int self = -1;
    if (!tr->include_self)
        for (int i = 0; i < tr->n_hotspots && self < 0; i++)
            if (tr->hotspots[i] == src)
                self = i;
    if (self < 0)
        return tr->hotspots[fl__rng_below(rng, (uint32_t)tr->n_hotspots)];
    if (tr->n_hotspots == 1)
        return draw_uniform(tr, src, rng);
    int i = (int)fl__rng_below(rng, (uint32_t)tr->n_hotspots - 1);
    return tr->hotspots[i >= self ? i + 1 : i];
}

/* --- traces ------------------------------------------------------------------ */

/* A host of event i that the network of n hosts does not have, named where
 * the user can find it: by the file and line it was read from, else by its
 * number. */
static int bad_trace_host(const FlTrafficConfig *cfg, int64_t i, int host, int n, FlError *err)
{
    const FlTraceEvent *e = &cfg->trace[i];
    if (e->line > 0 && cfg->trace_name)
        return fl_error_set(err, FL_ERANGE, "%s: line %d: host %d, but the network has hosts "
                            "0 to %d", cfg->trace_name, e->line, host, n - 1);
    if (e->line > 0)
        return fl_error_set(err, FL_ERANGE, "line %d: host %d, but the network has hosts 0 "
                            "to %d", e->line, host, n - 1);
    return fl_error_set(err, FL_ERANGE, "event %lld: host %d, but the network has hosts 0 to "
                        "%d", (long long)i + 1, host, n - 1);
}

static int setup_trace(FlTraffic *tr, const Setup *su, FlError *err)
{
    const FlTrafficConfig *cfg = su->cfg;
    int n = tr->n_hosts;
    int64_t m = cfg->n_trace;
    if (m < 0 || (m > 0 && !cfg->trace))
        return fl_error_set(err, FL_EINVAL, "trace traffic needs its events");
    for (int64_t i = 0; i < m; i++) {
        const FlTraceEvent *e = &cfg->trace[i];
        if (e->cycle < 0)
            return fl_error_set(err, FL_ERANGE, "trace event %lld has a negative cycle %lld",
                                (long long)i + 1, (long long)e->cycle);
        if (i > 0 && e->cycle < cfg->trace[i - 1].cycle)
            return fl_error_set(err, FL_EINVAL, "trace event %lld is out of order: cycle %lld "
                                "after cycle %lld", (long long)i + 1, (long long)e->cycle,
                                (long long)cfg->trace[i - 1].cycle);
        if (e->src < 0 || e->src >= n || e->dst < 0 || e->dst >= n)
            return bad_trace_host(cfg, i, e->src < 0 || e->src >= n ? e->src : e->dst, n, err);
        if (e->flits < 1)
            return fl_error_set(err, FL_ERANGE, "trace event %lld has %d flits; a packet "
                                "needs at least 1", (long long)i + 1, e->flits);
        if (e->flits > FL_MAX_PACKET_FLITS)
            return fl_error_set(err, FL_ERANGE, "trace event %lld has %d flits; a packet "
                                "has at most %d", (long long)i + 1, e->flits,
                                FL_MAX_PACKET_FLITS);
    }
    tr->first = calloc((size_t)n + 1, sizeof(int64_t));
    tr->events = malloc(sizeof(FlTraceEvent) * (size_t)(m > 0 ? m : 1));
    if (!tr->first || !tr->events)
        return fl_error_set(err, FL_ENOMEM, "out of memory for %lld trace events",
                            (long long)m);
    /* A counting sort by source keeps each host's events in cycle order. */
    for (int64_t i = 0; i < m; i++)
        tr->first[cfg->trace[i].src + 1]++;
    for (int h = 0; h < n; h++)
        tr->first[h + 1] += tr->first[h];
    for (int h = 0; h < n; h++)
        tr->state[h].next_event = tr->first[h];
    for (int64_t i = 0; i < m; i++)
        tr->events[tr->state[cfg->trace[i].src].next_event++] = cfg->trace[i];
    for (int h = 0; h < n; h++)
        tr->state[h].next_event = tr->first[h];
    tr->draw = DRAW_TRACE;
    return FL_OK;
}

/* --- the pattern registry ----------------------------------------------------- */

static const Pattern patterns[] = {
    { "uniform", setup_uniform, NULL, NULL },
    { "bitrev", setup_bits, map_bitrev, NULL },
    { "bitcomp", setup_bits, map_bitcomp, NULL },
    { "transpose", setup_transpose, NULL, NULL },
    { "shuffle", setup_bits, map_shuffle, NULL },
    { "tornado", setup_grid_shift, NULL, tornado_offset },
    { "neighbor", setup_grid_shift, NULL, neighbor_offset },
    { "randperm", setup_randperm, NULL, NULL },
    { "hotspot", setup_hotspot, NULL, NULL },
    { "trace", setup_trace, NULL, NULL },
};

#define N_PATTERNS ((int)(sizeof patterns / sizeof patterns[0]))

int fl_traffic_pattern_count(void)
{
    return N_PATTERNS;
}

const char *fl_traffic_pattern_name(int index)
{
    if (index < 0 || index >= N_PATTERNS)
        return NULL;
    return patterns[index].name;
}

/* --- creation ----------------------------------------------------------------- */

static int own_keys(FlTraffic *tr, uint64_t seed, FlError *err);

/* The bound k < draw_bound(p) that matches fl_rng_uniform() < p for the
 * draw's top 53 bits k (see packet_below). */
static uint64_t draw_bound(double p)
{
    if (!(p > 0.0))
        return 0;
    if (p >= 1.0)
        return (uint64_t)1 << 53;
    return (uint64_t)ceil(p * 0x1.0p53);
}

/* --- gaps between Bernoulli packets ------------------------------------------- */

/* Past 2^62 host-cycles is never, as far as any run can tell. */
#define GAP_NEVER 0x1.0p62

/* The number of host-cycles without a packet before the next packet of a
 * Bernoulli source, for draw k (1 to 2^53, a draw's top 53 bits plus 1):
 * geometric with the sources' chance p, as floor(log(u) / log(1 - p)) for
 * u = k * 2^-53, uniform in (0, 1]. */
static int64_t gap_by_log(const FlTraffic *tr, uint64_t k)
{
    double gap = floor(log(fl__rng_unit(k)) / tr->log_no_packet);
    return gap < GAP_NEVER ? (int64_t)gap : (int64_t)GAP_NEVER;
}

/* The gaps by table. The gap falls as the draw k grows, by one at each of
 * the draws at[j] (near 2^53 (1 - p)^j, the least draw whose gap is below
 * j), so the gap of k is the number of them above k: counted from the gap
 * its bucket's last draw has, a step or two. That is the gap gap_by_log()
 * gives, without a log, wherever that is monotone. log() is not exactly
 * monotone, but its results are within an ulp or so of the true
 * logarithm's, so around a draw where the gap steps the exact function may
 * step back and forth only within a few draws of it: within GAP_GUARD
 * draws of a step the table asks log() instead (at most one draw in 2^32),
 * and so gives its gaps exactly. The table covers the gaps of draws above
 * 2^-10 * 2^53 (below, log() decides) and at most GAP_TABLE_MAX of them;
 * a chance so small that steps lie closer than 4 * GAP_GUARD draws ends it
 * early. */
#define GAP_TABLE_MAX 1024
#define GAP_SHIFT 43
#define GAP_BUCKETS ((1 << (53 - GAP_SHIFT)) + 1)
#define GAP_GUARD 1024
/* How far from its estimate the search for a step may go. */
#define GAP_SEARCH 64

/* The least draw whose gap is below j, found by gap_by_log() near the
 * estimate 2^53 (1 - p)^j, below the previous step prev; 0 if it is not
 * within GAP_SEARCH draws of the estimate. */
static int64_t gap_step(const FlTraffic *tr, int j, int64_t prev)
{
    const int64_t top = (int64_t)1 << 53;
    double guess = ceil(exp(j * tr->log_no_packet) * 0x1.0p53);
    int64_t t = guess < 1.0 ? 1 : guess > (double)top ? top : (int64_t)guess;
    int steps = 0;
    while (t > 1 && gap_by_log(tr, (uint64_t)t - 1) < j && steps < GAP_SEARCH) {
        t--;
        steps++;
    }
    while (t <= top && gap_by_log(tr, (uint64_t)t) >= j && steps < GAP_SEARCH) {
        t++;
        steps++;
    }
    return steps < GAP_SEARCH && t < prev ? t : 0;
}

/* Builds the table of Bernoulli sources (none for a chance of 0 or 1,
 * whose gaps need no draw); FL_ENOMEM. */
static int gap_table(FlTraffic *tr)
{
    if (tr->packet_below == 0 || tr->packet_below >= (uint64_t)1 << 53)
        return FL_OK;
    int64_t *at = malloc(sizeof *at * (GAP_TABLE_MAX + 1));
    GapStep *steps = malloc(sizeof *steps * (GAP_TABLE_MAX + 1));
    int32_t *start = malloc(sizeof *start * GAP_BUCKETS);
    if (!at || !steps || !start) {
        free(at);
        free(steps);
        free(start);
        return FL_ENOMEM;
    }
    at[0] = INT64_MAX;
    int n = 0;
    for (int j = 1; j <= GAP_TABLE_MAX; j++) {
        int64_t t = gap_step(tr, j, at[j - 1]);
        if (t < (int64_t)1 << GAP_SHIFT || (j > 1 && at[j - 1] - t < 4 * GAP_GUARD))
            break;
        at[j] = t;
        n = j;
    }
    /* Gap n, the first the table does not know, stops every count and asks
     * log(). */
    for (int g = 0; g < n; g++)
        steps[g] = (GapStep){ at[g + 1], at[g + 1] + GAP_GUARD, at[g] - GAP_GUARD };
    steps[n] = (GapStep){ INT64_MIN, INT64_MAX, INT64_MAX };
    for (int b = 0; b < GAP_BUCKETS; b++) {
        int64_t last = b == GAP_BUCKETS - 1 ? (int64_t)1 << 53
                                            : ((int64_t)(b + 1) << GAP_SHIFT) - 1;
        int g = 0;
        while (g < n && at[g + 1] > last)
            g++;
        start[b] = g < n ? g : -1;
    }
    free(at);
    tr->gap_steps = steps;
    tr->gap_start = start;
    return FL_OK;
}

/* The gap for draw k, by the table where it tells, else by log(); the
 * table must exist. */
static inline int64_t gap_of(const FlTraffic *tr, uint64_t k)
{
    int32_t g = tr->gap_start[k >> GAP_SHIFT];
    if (g < 0)
        return gap_by_log(tr, k);
    const GapStep *st = &tr->gap_steps[g];
    const int64_t x = (int64_t)k;
    while (x < st->below)
        st++;
    if (x < st->safe_lo || x >= st->safe_hi)
        return gap_by_log(tr, k);
    return st - tr->gap_steps;
}

int64_t fl__traffic_gap(const FlTraffic *tr, uint64_t k, int by_log)
{
    return by_log || !tr->gap_start ? gap_by_log(tr, k) : gap_of(tr, k);
}

/* Checks the injection process and lengths and derives the per-cycle
 * probabilities. */
static int setup_injection(FlTraffic *tr, const FlTrafficConfig *cfg, FlError *err)
{
    if (!(cfg->rate >= 0.0 && cfg->rate <= 1.0))
        return fl_error_set(err, FL_ERANGE, "injection rate %g is outside [0, 1] flits per "
                            "cycle per host", cfg->rate);
    if (cfg->packet_flits < 1)
        return fl_error_set(err, FL_ERANGE, "packet length %d is not positive",
                            cfg->packet_flits);
    if (cfg->packet_flits_long < 0)
        return fl_error_set(err, FL_ERANGE, "long packet length %d is not positive",
                            cfg->packet_flits_long);
    double long_fraction = cfg->packet_flits_long > 0 ? cfg->long_fraction : 0.0;
    if (!(long_fraction >= 0.0 && long_fraction <= 1.0))
        return fl_error_set(err, FL_ERANGE, "long packet fraction %g is outside [0, 1]",
                            cfg->long_fraction);
    tr->short_flits = cfg->packet_flits;
    tr->long_flits = cfg->packet_flits_long > 0 ? cfg->packet_flits_long : cfg->packet_flits;
    tr->long_fraction = long_fraction;
    double mean_len = (1.0 - long_fraction) * tr->short_flits
                      + long_fraction * tr->long_flits;
    tr->process = cfg->process;
    tr->p_packet = cfg->rate / mean_len;
    tr->packet_below = draw_bound(tr->p_packet);
    if (cfg->process == FL_INJECT_BERNOULLI) {
        /* Of the probability the bound stands for, exactly. */
        tr->log_no_packet = log1p(-fl__rng_unit(tr->packet_below));
        if (gap_table(tr))
            return fl_error_set(err, FL_ENOMEM, "out of memory for the traffic generator");
        return FL_OK;
    }
    if (cfg->process != FL_INJECT_ONOFF)
        return fl_error_set(err, FL_EINVAL, "unknown injection process %d", (int)cfg->process);
    /* Geometric periods: a state with mean length L is left with chance
     * 1/L each cycle, so L must be at least one cycle. */
    if (!(cfg->burst_on >= 1.0) || !(cfg->burst_off >= 1.0) || !isfinite(cfg->burst_on)
        || !isfinite(cfg->burst_off))
        return fl_error_set(err, FL_ERANGE, "on/off periods must be at least 1 cycle (on "
                            "%g, off %g)", cfg->burst_on, cfg->burst_off);
    double peak = cfg->rate * (cfg->burst_on + cfg->burst_off) / cfg->burst_on;
    if (peak > 1.0)
        return fl_error_set(err, FL_ERANGE, "on/off rate %g with on %g and off %g cycles needs "
                            "%g flits per cycle during on-periods, above 1", cfg->rate,
                            cfg->burst_on, cfg->burst_off, peak);
    tr->p_packet = peak / mean_len;
    tr->packet_below = draw_bound(tr->p_packet);
    tr->p_on_off = 1.0 / cfg->burst_on;
    tr->p_off_on = 1.0 / cfg->burst_off;
    return FL_OK;
}

/* Starts every on/off source in its stationary distribution, so that the
 * mean rate holds from the first cycle. */
static void seed_onoff(FlTraffic *tr, uint64_t seed)
{
    FlRng rng;
    fl_rng_seed(&rng, seed ^ ONOFF_SALT);
    double p_on = tr->p_off_on / (tr->p_on_off + tr->p_off_on);
    for (int h = 0; h < tr->n_hosts; h++)
        tr->state[h].on = fl_rng_uniform(&rng) < p_on;
}

static int find_pattern(const char *name, FlError *err)
{
    for (int i = 0; i < N_PATTERNS; i++)
        if (name && strcmp(name, patterns[i].name) == 0)
            return i;
    /* The names take under 100 bytes, so the list is never cut short. */
    char list[256] = "";
    size_t used = 0;
    for (int i = 0; i < N_PATTERNS && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                 patterns[i].name);
    fl_error_set(err, FL_ENOTFOUND, "unknown traffic pattern '%s' (known: %s)",
                 name ? name : "(none)", list);
    return -1;
}

int fl_traffic_new(const FlTopology *t, const FlTrafficConfig *cfg, uint64_t seed,
                   FlTraffic **out, FlError *err)
{
    if (!t || !cfg || !out)
        return fl_error_set(err, FL_EINVAL, "fl_traffic_new needs a topology, a configuration "
                            "and a place for the result");
    int p = find_pattern(cfg->pattern, err);
    if (p < 0)
        return FL_ENOTFOUND;
    if (t->n_hosts < 1)
        return fl_error_set(err, FL_EUNSUPPORTED, "traffic needs hosts, this network has none");
    FlTraffic *tr = calloc(1, sizeof *tr);
    if (!tr)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the traffic generator");
    tr->n_hosts = t->n_hosts;
    tr->include_self = cfg->include_self != 0;
    /* SharedState is a multiple of HostState's alignment (8 bytes). */
    tr->shared = malloc(sizeof *tr->shared + sizeof *tr->state * (size_t)tr->n_hosts);
    int rc;
    if (!tr->shared) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for %d traffic sources", tr->n_hosts);
        goto fail;
    }
    tr->state = (HostState *)(tr->shared + 1);
    tr->shared->single_cycle = tr->shared->all_cycle = tr->shared->next_packet = -1;
    tr->shared->deferring = 0;
    if ((rc = own_keys(tr, seed, err)))
        goto fail;
    for (int h = 0; h < tr->n_hosts; h++) {
        tr->state[h] = (HostState){ .last_cycle = -1, .on = 1 };
    }
    /* A trace sets its own lengths and times: the injection settings do
     * not apply to it and are not checked. */
    if (strcmp(patterns[p].name, "trace") != 0 && (rc = setup_injection(tr, cfg, err)))
        goto fail;
    Setup su = { t, cfg, seed, &patterns[p] };
    if ((rc = patterns[p].setup(tr, &su, err)))
        goto fail;
    if (tr->draw != DRAW_TRACE && tr->process == FL_INJECT_ONOFF)
        seed_onoff(tr, seed);
    *out = tr;
    return FL_OK;

fail:
    fl_traffic_free(tr);
    return rc;
}

void fl_traffic_free(FlTraffic *tr)
{
    if (!tr)
        return;
    free(tr->table);
    free(tr->hotspots);
    free(tr->events);
    free(tr->first);
    free(tr->own_key);
    free(tr->gap_steps);
    free(tr->gap_start);
    free(tr->shared);
    free(tr);
}

/* --- drawing ------------------------------------------------------------------ */

/* The destination of a packet of source src (see fl_traffic_destination),
 * inline for draw_packet. */
static inline int destination(FlTraffic *tr, int src, FlRng *rng)
{
    switch (tr->draw) {
    case DRAW_TABLE:
        return tr->table[src];
    case DRAW_UNIFORM:
        return draw_uniform(tr, src, rng);
    case DRAW_HOTSPOT:
        return draw_hotspot(tr, src, rng);
    case DRAW_TRACE: {
        /* The destination of the host's next event, if any. */
        const HostState *s = &tr->state[src];
        return s->next_event < tr->first[src + 1] ? tr->events[s->next_event].dst : -1;
    }
    }
    return -1;
}

int fl_traffic_destination(FlTraffic *tr, int src, FlRng *rng)
{
    return destination(tr, src, rng);
}

/* The next trace event of src made at or before cycle. */
static int generate_trace(FlTraffic *tr, int src, int64_t cycle, int *dst, int *flits)
{
    HostState *s = &tr->state[src];
    if (s->next_event >= tr->first[src + 1] || tr->events[s->next_event].cycle > cycle)
        return 0;
    const FlTraceEvent *e = &tr->events[s->next_event++];
    *dst = e->dst;
    *flits = e->flits;
    return 1;
}

/* The length of a packet a random source makes, drawn before its
 * destination. */
static inline int draw_length(const FlTraffic *tr, FlRng *rng)
{
    return tr->long_flits != tr->short_flits && fl__rng_uniform(rng) < tr->long_fraction
           ? tr->long_flits : tr->short_flits;
}

/* The length and destination of a packet random source src makes: inline
 * wherever packets are made, as Bernoulli sources cost little else. */
__attribute__((always_inline))
static inline void draw_packet(FlTraffic *tr, int src, FlRng *rng, int *dst, int *flits)
{
    *flits = draw_length(tr, rng);
    *dst = destination(tr, src, rng);
}

/* The packet decision of a random source s (host src) for one cycle whose
 * repeat check has passed: 1 with *dst and *flits set if it makes one. */
static inline int random_packet(FlTraffic *tr, int src, HostState *s, FlRng *rng, int *dst,
                                int *flits)
{
    /* Most calls make nothing, so the packet decision comes first and
     * compares the raw draw (the same draw fl_rng_uniform would convert). */
    int make;
    if (tr->process == FL_INJECT_ONOFF) {
        make = s->on && (fl__rng_next(rng) >> 11) < tr->packet_below;
        if (fl__rng_uniform(rng) < (s->on ? tr->p_on_off : tr->p_off_on))
            s->on = !s->on;
    } else {
        make = (fl__rng_next(rng) >> 11) < tr->packet_below;
    }
    if (!make)
        return 0;
    draw_packet(tr, src, rng, dst, flits);
    return 1;
}

int fl_traffic_generate(FlTraffic *tr, int src, int64_t cycle, FlRng *rng, int *dst,
                        int *flits)
{
    if (tr->draw == DRAW_TRACE)
        return generate_trace(tr, src, cycle, dst, flits);
    HostState *s = &tr->state[src];
    /* One packet per host per cycle: a repeated call makes nothing, so a
     * caller may ask until it gets 0, as it must for traces. */
    if (s->last_cycle == cycle || tr->shared->all_cycle == cycle)
        return 0;
    s->last_cycle = cycle;
    tr->shared->single_cycle = cycle;
    return random_packet(tr, src, s, rng, dst, flits);
}

/* The next gap of Bernoulli sources whose chance is neither 1 nor 0 (they
 * have a table of gaps), from a draw. */
static inline int64_t drawn_gap(const FlTraffic *tr, FlRng *rng)
{
    return gap_of(tr, (fl__rng_next(rng) >> 11) + 1);
}

/* The next gap of Bernoulli sources (see gap_by_log), from a draw unless
 * the chance is 1 or 0: inline, as there is one per packet. */
__attribute__((always_inline))
static inline int64_t packet_gap(const FlTraffic *tr, FlRng *rng)
{
    if (tr->packet_below >= (uint64_t)1 << 53)
        return 0;
    if (tr->packet_below == 0)
        return (int64_t)GAP_NEVER;
    return drawn_gap(tr, rng);
}

/* --- sources of their own ----------------------------------------------------- */

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The key of every host's own stream: a hash of the seed and the host,
 * made once (a deferring source draws from it every cycle). */
static int own_keys(FlTraffic *tr, uint64_t seed, FlError *err)
{
    tr->own_key = malloc(sizeof *tr->own_key * (size_t)tr->n_hosts);
    if (!tr->own_key)
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d traffic sources",
                            tr->n_hosts);
    for (int h = 0; h < tr->n_hosts; h++)
        tr->own_key[h] = mix64((seed ^ OWN_SALT) + 0x9e3779b97f4a7c15ULL * ((uint64_t)h + 1));
    return FL_OK;
}

/* Draw k of host src's own stream in cycle: a hash of its key, the cycle
 * and k, so that it is the same whenever it is asked for. */
static uint64_t own_draw(const FlTraffic *tr, int src, int64_t cycle, uint64_t k)
{
    return mix64(tr->own_key[src] + 0xd1b54a32d192ed03ULL * (uint64_t)cycle + k);
}

/* Whether random source src makes a packet in cycle by its own stream,
 * with the on/off state *on (advanced to the next cycle), and if so its
 * destination and length; with dst NULL its length only, as a count
 * needs: the packet's generator is its own, so the draws it would have
 * made for the destination, or for a fixed length, can be left out. */
static int own_packet(const FlTraffic *tr, int src, int64_t cycle, int32_t *on, int *dst,
                      int *flits)
{
    int make = (own_draw(tr, src, cycle, 0) >> 11) < tr->packet_below;
    if (tr->process == FL_INJECT_ONOFF) {
        make &= *on;
        double u = fl__rng_unit(own_draw(tr, src, cycle, 1) >> 11);
        if (u < (*on ? tr->p_on_off : tr->p_off_on))
            *on = !*on;
    }
    if (!make)
        return 0;
    if (!dst && tr->long_flits == tr->short_flits) {
        *flits = tr->short_flits;
        return 1;
    }
    FlRng rng;
    fl__rng_seed(&rng, own_draw(tr, src, cycle, 2));
    if (dst)
        draw_packet((FlTraffic *)tr, src, &rng, dst, flits);
    else
        *flits = draw_length(tr, &rng);
    return 1;
}

/* Source src's queue was full when it made a packet in cycle: it defers
 * from this cycle on (on is its on/off state in the cycle, for its own
 * stream); a trace source owes that packet, a random one drops it (its own
 * stream decides the cycle). */
static void start_deferring(FlTraffic *tr, int src, int64_t cycle, int32_t on, int flits,
                            FlTrafficOwe owe, void *data)
{
    HostState *s = &tr->state[src];
    int trace = tr->draw == DRAW_TRACE;
    s->defer = 1;
    tr->shared->deferring++;
    s->replay = trace ? s->next_event - 1 : cycle;
    s->count_on = s->replay_on = on;
    if (trace)
        owe(data, src, flits);
}

/* Source src made a packet in cycle: to emit, unless it defers or its
 * queue is full (see start_deferring); a deferring trace source owes it,
 * a deferring random source drops it. */
static inline int give(FlTraffic *tr, int src, int64_t cycle, int32_t on, int dst, int flits,
                       FlTrafficEmit emit, FlTrafficOwe owe, void *data)
{
    if (__builtin_expect(tr->state[src].defer, 0)) {
        if (tr->draw == DRAW_TRACE)
            owe(data, src, flits);
        return 0;
    }
    int rc = emit(data, src, dst, flits);
    if (__builtin_expect(rc != FL__TRAFFIC_DEFER, 1) || !owe)
        return rc;
    start_deferring(tr, src, cycle, on, flits, owe, data);
    return 0;
}

int fl__traffic_deferring(const FlTraffic *tr)
{
    return (int)tr->shared->deferring;
}

int fl__traffic_next_deferring(const FlTraffic *tr, int src)
{
    for (int h = src; h < tr->n_hosts; h++)
        if (tr->state[h].defer)
            return h;
    return -1;
}

int fl__traffic_replay(FlTraffic *tr, int src, int64_t now, int64_t *created, int *dst,
                       int *flits)
{
    HostState *s = &tr->state[src];
    if (!s->defer)
        return 0;
    if (tr->draw == DRAW_TRACE) {
        if (s->replay < s->next_event) {
            const FlTraceEvent *e = &tr->events[s->replay++];
            *created = e->cycle;
            *dst = e->dst;
            *flits = e->flits;
            return 1;
        }
    } else {
        while (s->replay <= now) {
            int64_t c = s->replay++;
            if (own_packet(tr, src, c, &s->replay_on, dst, flits)) {
                *created = c;
                return 1;
            }
        }
    }
    s->defer = 0;
    tr->shared->deferring--;
    return 0;
}

/* --- a cycle of every source ----------------------------------------------------- */

/* The deferring random sources' packets of this cycle, by their own
 * streams. */
static void owe_cycle(FlTraffic *tr, int64_t cycle, FlTrafficOwe owe, void *data)
{
    int flits;
    for (int h = 0; h < tr->n_hosts; h++) {
        HostState *s = &tr->state[h];
        if (s->defer && own_packet(tr, h, cycle, &s->count_on, NULL, &flits))
            owe(data, h, flits);
    }
}

/* The packets of Bernoulli sources in cycle (see
 * fl__traffic_generate_cycle_owing()). Most host-cycles make nothing, so
 * rather than a draw for each, one draw for each packet says how many
 * host-cycles (in host order, cycle after cycle) pass until the next one.
 * The packets are the same in distribution as fl_traffic_generate()'s,
 * though not the same draws. A cycle not asked for (a caller that skipped
 * it) makes nothing: the next packet is drawn afresh from this cycle on,
 * which the memoryless gaps allow. With plain (a constant) the sources'
 * destinations are uniform, their packets of one length and their gaps
 * in a table: the same draws as without, fewer tests. */
__attribute__((always_inline))
static inline int bernoulli_cycle(FlTraffic *tr, int64_t cycle, FlRng *rng, int some_asked,
                                  FlTrafficEmit emit, FlTrafficOwe owe, void *data,
                                  const int plain)
{
    SharedState *shared = tr->shared;
    int64_t n = tr->n_hosts, first = cycle * n;
    int dst, flits, rc;
    if (shared->next_packet < first)
        shared->next_packet = first + packet_gap(tr, rng);
    while (shared->next_packet < first + n) {
        int h = (int)(shared->next_packet - first);
        shared->next_packet += 1 + (plain ? drawn_gap(tr, rng) : packet_gap(tr, rng));
        if (some_asked && tr->state[h].last_cycle == cycle)
            continue;
        if (plain) {
            flits = tr->short_flits;
            dst = draw_uniform(tr, h, rng);
        } else {
            draw_packet(tr, h, rng, &dst, &flits);
        }
        if ((rc = give(tr, h, cycle, 1, dst, flits, emit, owe, data)))
            return rc;
    }
    return 0;
}

int fl__traffic_generate_cycle(FlTraffic *tr, int64_t cycle, FlRng *rng,
                               FlTrafficEmit emit, void *data)
{
    return fl__traffic_generate_cycle_owing(tr, cycle, rng, emit, NULL, data);
}

int fl__traffic_generate_cycle_owing(FlTraffic *tr, int64_t cycle, FlRng *rng,
                                     FlTrafficEmit emit, FlTrafficOwe owe, void *data)
{
    int dst, flits, rc;
    if (tr->draw == DRAW_TRACE) {
        for (int h = 0; h < tr->n_hosts; h++)
            while (generate_trace(tr, h, cycle, &dst, &flits))
                if ((rc = give(tr, h, cycle, 1, dst, flits, emit, owe, data)))
                    return rc;
        return 0;
    }
    /* A random source makes at most one packet a cycle, so one decision
     * per host replaces the caller's ask-until-0 loop. Hosts asked already
     * in this cycle are skipped: none, unless fl_traffic_generate() asked
     * some. */
    SharedState *shared = tr->shared;
    if (shared->all_cycle == cycle)
        return 0;
    shared->all_cycle = cycle;
    int some_asked = shared->single_cycle == cycle;
    if (tr->process == FL_INJECT_ONOFF) {
        for (int h = 0; h < tr->n_hosts; h++) {
            HostState *s = &tr->state[h];
            if (some_asked && s->last_cycle == cycle)
                continue;
            int32_t was_on = s->on;
            if (random_packet(tr, h, s, rng, &dst, &flits)
                && (rc = give(tr, h, cycle, was_on, dst, flits, emit, owe, data)))
                return rc;
        }
    } else {
        /* The common case, uniform destinations of one length with a
         * table of gaps, tests none of that per packet. */
        rc = tr->draw == DRAW_UNIFORM && tr->long_flits == tr->short_flits && tr->gap_start
             ? bernoulli_cycle(tr, cycle, rng, some_asked, emit, owe, data, 1)
             : bernoulli_cycle(tr, cycle, rng, some_asked, emit, owe, data, 0);
        if (rc)
            return rc;
    }
    if (shared->deferring > 0)
        owe_cycle(tr, cycle, owe, data);
    return 0;
}

/* --- state for checkpoints ------------------------------------------------------ */

size_t fl_traffic_state_size(const FlTraffic *tr)
{
    return sizeof *tr->shared + sizeof *tr->state * (size_t)tr->n_hosts;
}

void fl_traffic_state_save(const FlTraffic *tr, void *buf)
{
    memcpy(buf, tr->shared, fl_traffic_state_size(tr));
}

void fl_traffic_state_load(FlTraffic *tr, const void *buf)
{
    memcpy(tr->shared, buf, fl_traffic_state_size(tr));
}
