/* sim-timeline.c — a simulation driven forwards and backwards: checkpoints
 * thinned out with age under a memory budget, seeking by restoring one and
 * re-simulating, and samples of the run recorded once per interval (see
 * FlSimTimeline in flitlab/sim.h).
 *
 * Thinning. Each checkpoint remembers the interval it was taken at (its
 * unit). For a dense stretch of w cycles, a checkpoint whose age (cycles
 * before the newest checkpoint) falls in tier j, ages [w (2^j - 1),
 * w (2^(j+1) - 1)), is kept when its cycle is a multiple of 2^j units:
 * each tier is twice as long as the one after it and half as dense, so
 * about w / unit checkpoints per tier. Ages only grow and w only shrinks
 * (until the budget grows), so a checkpoint the rule drops would not be
 * kept again.
 *
 * Merging samples. n samples of interval s cover [0, n s), and the one
 * being gathered starts at n s. Merging pairs leaves n / 2 of interval 2 s;
 * with n odd, the last one is taken back (its counts subtracted from the
 * counters it ended at) and becomes the start of the one being gathered,
 * which then starts at (n - 1) s, a multiple of 2 s. Either way it ends
 * past the furthest cycle reached, so it is still recorded the first time
 * the run gets there.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim-internal.h"

typedef struct Kept {
    FlSimCheckpoint *cp;
    int64_t cycle;
    int64_t unit;            /* the checkpoint interval when it was taken */
} Kept;

struct FlSimTimeline {
    FlSim *sim;
    int64_t interval;
    size_t budget;
    int64_t sample_interval;
    int64_t max_cycle;

    Kept *kept;              /* by increasing cycle; kept[0] is cycle 0's */
    size_t n_kept, kept_cap;
    size_t kept_bytes;       /* the checkpoints' bytes, shared pages once */
    int64_t dense;           /* w, or 0 while everything is kept */

    FlSimSample *samples;
    uint32_t *chan_counts;   /* n_samples x n_chan flits per interval */
    size_t n_samples, samples_cap;
    size_t sample_budget;
    int n_chan;
    double link_cycles;      /* link_cycles_per_flit */
    FlSimCounters base;      /* the counters at the end of the last sample */
    int64_t *base_flits;     /* and the channels' flits */
    int64_t *now_flits;      /* scratch */
};

/* --- checkpoints ------------------------------------------------------------ */

static int push_checkpoint(FlSimTimeline *tl, FlError *err)
{
    if (tl->n_kept == tl->kept_cap) {
        size_t cap = tl->kept_cap ? 2 * tl->kept_cap : 64;
        Kept *bigger = realloc(tl->kept, sizeof *bigger * cap);
        if (!bigger)
            return fl_error_set(err, FL_ENOMEM, "out of memory");
        tl->kept = bigger;
        tl->kept_cap = cap;
    }
    /* Sharing the newest's unchanged pages. */
    FlSimCheckpoint *cp;
    const FlSimCheckpoint *prev = tl->n_kept ? tl->kept[tl->n_kept - 1].cp : NULL;
    if (fl__sim_checkpoint_after(tl->sim, prev, &tl->kept_bytes, &cp))
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    tl->kept[tl->n_kept++] = (Kept){ cp, fl_sim_checkpoint_cycle(cp), tl->interval };
    return FL_OK;
}

static void drop_checkpoint(FlSimTimeline *tl, size_t i)
{
    fl_sim_checkpoint_free(tl->kept[i].cp);
    memmove(&tl->kept[i], &tl->kept[i + 1], sizeof *tl->kept * (tl->n_kept - i - 1));
    tl->n_kept--;
}

/* Whether the thinning rule keeps k, with the newest checkpoint at newest
 * and a dense stretch of w cycles. */
static int rule_keeps(const Kept *k, int64_t newest, int64_t w)
{
    if (k->cycle == 0 || k->cycle == newest)
        return 1;
    /* Tier j ends at age w (2^(j+1) - 1); its stride is 2^j units. */
    int64_t age = newest - k->cycle, end = w, stride = k->unit;
    while (age >= end) {
        if (end > INT64_MAX / 2 - w || stride > INT64_MAX / 2)
            return 0;
        end = 2 * end + w;
        stride *= 2;
    }
    return k->cycle % stride == 0;
}

static void apply_rule(FlSimTimeline *tl, int64_t w)
{
    int64_t newest = tl->kept[tl->n_kept - 1].cycle;
    size_t out = 0;
    for (size_t i = 0; i < tl->n_kept; i++) {
        if (rule_keeps(&tl->kept[i], newest, w))
            tl->kept[out++] = tl->kept[i];
        else
            fl_sim_checkpoint_free(tl->kept[i].cp);
    }
    tl->n_kept = out;
}

/* Brings the checkpoints within the budget: the rule with the current
 * stretch, then a narrower one, then the oldest after cycle 0's. */
static void thin(FlSimTimeline *tl)
{
    if (tl->kept_bytes <= tl->budget || tl->n_kept < 2)
        return;
    if (tl->dense == 0)
        tl->dense = tl->kept[tl->n_kept - 1].cycle > 0 ? tl->kept[tl->n_kept - 1].cycle : 1;
    apply_rule(tl, tl->dense);
    while (tl->kept_bytes > tl->budget && tl->dense > 1) {
        tl->dense -= tl->dense / 4 > 0 ? tl->dense / 4 : 1;
        apply_rule(tl, tl->dense);
    }
    while (tl->kept_bytes > tl->budget && tl->n_kept > 1)
        drop_checkpoint(tl, 1);
}

/* The latest checkpoint at or before cycle (cycle 0's at worst). */
static const Kept *checkpoint_before(const FlSimTimeline *tl, int64_t cycle)
{
    size_t lo = 0, hi = tl->n_kept;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tl->kept[mid].cycle <= cycle)
            lo = mid;
        else
            hi = mid;
    }
    return &tl->kept[lo];
}

/* --- samples ------------------------------------------------------------------ */

/* Bytes per sample, and for the bookkeeping of the channel counts. */
static size_t sample_size(const FlSimTimeline *tl)
{
    return sizeof *tl->samples + sizeof *tl->chan_counts * (size_t)tl->n_chan;
}

static size_t fixed_sample_bytes(const FlSimTimeline *tl)
{
    return 2 * sizeof(int64_t) * (size_t)tl->n_chan;
}

/* The most samples the budget holds, and never less than room for twice
 * the minimum, so that merging a full set leaves at least the minimum. */
static size_t most_samples(const FlSimTimeline *tl)
{
    size_t fixed = fixed_sample_bytes(tl), most = 0;
    if (tl->sample_budget > fixed)
        most = (tl->sample_budget - fixed) / sample_size(tl);
    return most > 2 * FL_SIM_TIMELINE_MIN_SAMPLES ? most : 2 * FL_SIM_TIMELINE_MIN_SAMPLES;
}

/* Room for cap samples. Shrinking cannot fail: an array realloc could not
 * shrink is still large enough. */
static int resize_samples(FlSimTimeline *tl, size_t cap)
{
    FlSimSample *s = realloc(tl->samples, sizeof *s * cap);
    if (s)
        tl->samples = s;
    uint32_t *c = realloc(tl->chan_counts, sizeof *c * cap * (size_t)tl->n_chan + 1);
    if (c)
        tl->chan_counts = c;
    if ((!s || !c) && cap > tl->samples_cap)
        return FL_ENOMEM;
    tl->samples_cap = cap;
    return FL_OK;
}

/* Whether pairs can merge: a channel's count in an interval (at most one
 * flit a cycle) must still fit 32 bits. */
static int can_merge(const FlSimTimeline *tl)
{
    return tl->sample_interval <= (int64_t)(UINT32_MAX / 2);
}

/* Joins adjacent pairs and doubles the interval (see the top). */
static void merge_samples(FlSimTimeline *tl)
{
    size_t nc = (size_t)tl->n_chan, half = tl->n_samples / 2;
    if (tl->n_samples % 2) {
        const FlSimSample *last = &tl->samples[tl->n_samples - 1];
        const uint32_t *counts = &tl->chan_counts[(tl->n_samples - 1) * nc];
        tl->base.cycle = last->cycle;
        tl->base.flits_created -= last->flits_created;
        tl->base.flits_ejected -= last->flits_ejected;
        tl->base.packets_delivered -= last->delivered;
        tl->base.latency_sum -= last->latency_sum;
        for (size_t c = 0; c < nc; c++)
            tl->base_flits[c] -= counts[c];
    }
    for (size_t i = 0; i < half; i++) {
        fl_sim_sample_join(&tl->samples[2 * i], &tl->samples[2 * i + 1], &tl->samples[i]);
        const uint32_t *a = &tl->chan_counts[2 * i * nc], *b = a + nc;
        uint32_t *out = &tl->chan_counts[i * nc];
        for (size_t c = 0; c < nc; c++)
            out[c] = a[c] + b[c];
    }
    tl->n_samples = half;
    tl->sample_interval *= 2;
}

/* Merges until the samples fit most_samples() (and the interval can still
 * double), and gives back the room they no longer need. */
static void fit_samples(FlSimTimeline *tl)
{
    size_t most = most_samples(tl);
    while (tl->n_samples > most && can_merge(tl))
        merge_samples(tl);
    if (tl->samples_cap > most && tl->n_samples <= most)
        resize_samples(tl, most);
}

/* At the end of the interval being gathered, the first time it is reached:
 * records its sample, or if there is no room, merges first (after which
 * the interval may not have ended yet). */
static int record_sample(FlSimTimeline *tl, FlError *err)
{
    size_t most = most_samples(tl);
    if (tl->n_samples >= most && can_merge(tl)) {
        merge_samples(tl);
        if (fl_sim_cycle(tl->sim) < tl->base.cycle + tl->sample_interval)
            return FL_OK;
    }
    if (tl->n_samples == tl->samples_cap) {
        size_t cap = tl->samples_cap ? 2 * tl->samples_cap : 256;
        if (cap > most && tl->samples_cap < most)
            cap = most;
        if (resize_samples(tl, cap))
            return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    FlSimCounters now;
    fl_sim_counters(tl->sim, &now);
    fl__sim_chan_flits(tl->sim, tl->now_flits, tl->n_chan);
    fl_sim_sample_between(&tl->base, &now, &tl->samples[tl->n_samples]);
    uint32_t *counts = &tl->chan_counts[tl->n_samples * (size_t)tl->n_chan];
    for (int c = 0; c < tl->n_chan; c++) {
        /* A channel takes at most one flit a cycle: the interval bounds it. */
        counts[c] = (uint32_t)(tl->now_flits[c] - tl->base_flits[c]);
        tl->base_flits[c] = tl->now_flits[c];
    }
    tl->base = now;
    tl->n_samples++;
    return FL_OK;
}

/* The rates and mean latency from a sample's counts. */
static void sample_rates(FlSimSample *s)
{
    double host_cycles = (double)s->cycles * s->hosts;
    s->offered = (double)s->flits_created / host_cycles;
    s->accepted = (double)s->flits_ejected / host_cycles;
    s->latency = s->delivered > 0 ? (double)s->latency_sum / (double)s->delivered : NAN;
}

void fl_sim_sample_between(const FlSimCounters *from, const FlSimCounters *to,
                           FlSimSample *out)
{
    out->cycle = from->cycle;
    out->cycles = to->cycle - from->cycle;
    out->hosts = to->hosts > 0 ? to->hosts : 1;
    out->flits_created = to->flits_created - from->flits_created;
    out->flits_ejected = to->flits_ejected - from->flits_ejected;
    out->delivered = to->packets_delivered - from->packets_delivered;
    out->latency_sum = to->latency_sum - from->latency_sum;
    out->in_network = to->in_network;
    sample_rates(out);
}

void fl_sim_sample_join(const FlSimSample *a, const FlSimSample *b, FlSimSample *out)
{
    FlSimSample j = {
        .cycle = a->cycle,
        .cycles = a->cycles + b->cycles,
        .hosts = b->hosts,
        .flits_created = a->flits_created + b->flits_created,
        .flits_ejected = a->flits_ejected + b->flits_ejected,
        .delivered = a->delivered + b->delivered,
        .latency_sum = a->latency_sum + b->latency_sum,
        .in_network = b->in_network,
    };
    sample_rates(&j);
    *out = j;
}

/* --- stepping ------------------------------------------------------------------ */

static int advance(FlSimTimeline *tl, int64_t n, FlSimStatus *status, FlError *err)
{
    FlSim *sim = tl->sim;
    int64_t left = n;
    int rc = FL_OK;
    while (left > 0 && fl_sim_status(sim) == FL_SIM_RUNNING) {
        int64_t cycle = fl_sim_cycle(sim);
        /* Chunks end on checkpoint and sample marks. */
        int64_t mark = (cycle / tl->interval + 1) * tl->interval;
        int64_t sample_mark = (cycle / tl->sample_interval + 1) * tl->sample_interval;
        int64_t todo = left;
        if (mark - cycle < todo)
            todo = mark - cycle;
        if (sample_mark - cycle < todo)
            todo = sample_mark - cycle;
        if ((rc = fl_sim_step(sim, todo, NULL, err)))
            break;
        int64_t done = fl_sim_cycle(sim) - cycle;
        left -= done;
        cycle += done;
        if (cycle > tl->max_cycle)
            tl->max_cycle = cycle;
        if (cycle == tl->base.cycle + tl->sample_interval && (rc = record_sample(tl, err)))
            break;
        if (cycle % tl->interval == 0 && cycle > tl->kept[tl->n_kept - 1].cycle) {
            if ((rc = push_checkpoint(tl, err)))
                break;
            thin(tl);
        }
        /* A deadlock, or a hook asked to stop. */
        if (done < todo)
            break;
    }
    if (status)
        *status = fl_sim_status(sim);
    return rc;
}

/* The samples need every cycle past the furthest to go through advance(). */
static int stepped_behind(const FlSimTimeline *tl, FlError *err)
{
    if (fl_sim_cycle(tl->sim) <= tl->max_cycle)
        return FL_OK;
    return fl_error_set(err, FL_EINVAL, "timeline: the simulation was stepped to cycle %lld "
                        "past the timeline's %lld without it",
                        (long long)fl_sim_cycle(tl->sim), (long long)tl->max_cycle);
}

int fl_sim_timeline_step(FlSimTimeline *tl, int64_t n, FlSimStatus *status, FlError *err)
{
    if (!tl)
        return fl_error_set(err, FL_EINVAL, "no timeline");
    if (n < 0)
        return fl_error_set(err, FL_EINVAL, "cycles to step: must be >= 0, not %lld",
                            (long long)n);
    int rc = stepped_behind(tl, err);
    return rc ? rc : advance(tl, n, status, err);
}

int fl_sim_timeline_seek(FlSimTimeline *tl, int64_t cycle, FlError *err)
{
    if (!tl)
        return fl_error_set(err, FL_EINVAL, "no timeline");
    if (cycle < 0)
        return fl_error_set(err, FL_ERANGE, "seek: cycles start at 0, not %lld",
                            (long long)cycle);
    int64_t now = fl_sim_cycle(tl->sim);
    if (cycle == now)
        return FL_OK;
    int rc = stepped_behind(tl, err);
    if (rc)
        return rc;
    /* Going back, or forward past a checkpoint kept from an earlier visit:
     * start from the nearest checkpoint. */
    const Kept *k = checkpoint_before(tl, cycle);
    if ((cycle < now || k->cycle > now) && (rc = fl_sim_restore(tl->sim, k->cp, err)))
        return rc;
    return advance(tl, cycle - fl_sim_cycle(tl->sim), NULL, err);
}

/* --- creation and accessors ------------------------------------------------------ */

FlSimTimeline *fl_sim_timeline_new(FlSim *sim, int64_t checkpoint_interval,
                                   size_t checkpoint_budget, int64_t sample_interval,
                                   FlError *err)
{
    if (!sim) {
        fl_error_set(err, FL_EINVAL, "no simulation");
        return NULL;
    }
    if (fl_sim_cycle(sim) != 0) {
        fl_error_set(err, FL_EINVAL, "timeline: the simulation must be at cycle 0, not %lld",
                     (long long)fl_sim_cycle(sim));
        return NULL;
    }
    if (checkpoint_interval < 1) {
        fl_error_set(err, FL_ERANGE, "checkpoint interval: must be >= 1 cycle, not %lld",
                     (long long)checkpoint_interval);
        return NULL;
    }
    if (sample_interval < 1 || sample_interval > UINT16_MAX) {
        fl_error_set(err, FL_ERANGE, "sample interval: must be 1 to %d cycles, not %lld",
                     UINT16_MAX, (long long)sample_interval);
        return NULL;
    }
    FlSimTimeline *tl = calloc(1, sizeof *tl);
    if (!tl) {
        fl_error_set(err, FL_ENOMEM, "out of memory");
        return NULL;
    }
    tl->sim = sim;
    tl->interval = checkpoint_interval;
    tl->budget = checkpoint_budget;
    tl->sample_interval = sample_interval;
    tl->sample_budget = FL_SIM_TIMELINE_DEFAULT_SAMPLE_BUDGET;
    tl->n_chan = sim->n_chan;
    tl->link_cycles = sim->cfg.link_cycles_per_flit;
    tl->base_flits = calloc((size_t)tl->n_chan + 1, sizeof(int64_t));
    tl->now_flits = calloc((size_t)tl->n_chan + 1, sizeof(int64_t));
    if (!tl->base_flits || !tl->now_flits) {
        fl_sim_timeline_free(tl);
        fl_error_set(err, FL_ENOMEM, "out of memory");
        return NULL;
    }
    fl_sim_counters(sim, &tl->base);
    if (push_checkpoint(tl, err)) {
        fl_sim_timeline_free(tl);
        return NULL;
    }
    return tl;
}

void fl_sim_timeline_free(FlSimTimeline *tl)
{
    if (!tl)
        return;
    for (size_t i = 0; i < tl->n_kept; i++)
        fl_sim_checkpoint_free(tl->kept[i].cp);
    free(tl->kept);
    free(tl->samples);
    free(tl->chan_counts);
    free(tl->base_flits);
    free(tl->now_flits);
    free(tl);
}

FlSim *fl_sim_timeline_sim(const FlSimTimeline *tl)
{
    return tl ? tl->sim : NULL;
}

int64_t fl_sim_timeline_max_cycle(const FlSimTimeline *tl)
{
    return tl ? tl->max_cycle : 0;
}

size_t fl_sim_timeline_n_checkpoints(const FlSimTimeline *tl)
{
    return tl ? tl->n_kept : 0;
}

size_t fl_sim_timeline_checkpoint_bytes(const FlSimTimeline *tl)
{
    return tl ? tl->kept_bytes : 0;
}

int64_t fl_sim_timeline_checkpoint_cycle(const FlSimTimeline *tl, size_t i)
{
    return tl && i < tl->n_kept ? tl->kept[i].cycle : -1;
}

int fl_sim_timeline_set_checkpoint_interval(FlSimTimeline *tl, int64_t interval, FlError *err)
{
    if (!tl)
        return fl_error_set(err, FL_EINVAL, "no timeline");
    if (interval < 1)
        return fl_error_set(err, FL_ERANGE, "checkpoint interval: must be >= 1 cycle, not %lld",
                            (long long)interval);
    tl->interval = interval;
    return FL_OK;
}

int64_t fl_sim_timeline_checkpoint_interval(const FlSimTimeline *tl)
{
    return tl ? tl->interval : 0;
}

void fl_sim_timeline_set_checkpoint_budget(FlSimTimeline *tl, size_t bytes)
{
    if (!tl)
        return;
    /* More room: keep everything again until it fills. */
    if (bytes > tl->budget)
        tl->dense = 0;
    tl->budget = bytes;
    thin(tl);
}

size_t fl_sim_timeline_checkpoint_budget(const FlSimTimeline *tl)
{
    return tl ? tl->budget : 0;
}

int64_t fl_sim_timeline_sample_interval(const FlSimTimeline *tl)
{
    return tl ? tl->sample_interval : 0;
}

size_t fl_sim_timeline_sample_bytes(const FlSimTimeline *tl)
{
    return tl ? tl->samples_cap * sample_size(tl) + fixed_sample_bytes(tl) : 0;
}

void fl_sim_timeline_set_sample_budget(FlSimTimeline *tl, size_t bytes)
{
    if (!tl)
        return;
    tl->sample_budget = bytes;
    fit_samples(tl);
}

size_t fl_sim_timeline_sample_budget(const FlSimTimeline *tl)
{
    return tl ? tl->sample_budget : 0;
}

size_t fl_sim_timeline_samples(const FlSimTimeline *tl, const FlSimSample **out)
{
    if (out)
        *out = tl && tl->n_samples ? tl->samples : NULL;
    return tl ? tl->n_samples : 0;
}

int fl_sim_timeline_channel_utilization(const FlSimTimeline *tl, int64_t from, int64_t to,
                                        double *out, int n, FlError *err)
{
    if (!tl || (!out && n > 0))
        return fl_error_set(err, FL_EINVAL, "no timeline or output");
    if (from < 0 || to <= from)
        return fl_error_set(err, FL_ERANGE, "channel utilization: [%lld, %lld) is not a range "
                            "of cycles", (long long)from, (long long)to);
    if (n > tl->n_chan)
        n = tl->n_chan;
    int64_t si = tl->sample_interval;
    size_t first = (size_t)(from / si);
    size_t last = (size_t)((to - 1) / si) + 1;     /* past the last touched */
    if (last > tl->n_samples)
        last = tl->n_samples;
    double cycles = first < last ? (double)((int64_t)(last - first) * si) : 0.0;
    for (int c = 0; c < n; c++) {
        int64_t flits = 0;
        for (size_t i = first; i < last; i++)
            flits += tl->chan_counts[i * (size_t)tl->n_chan + (size_t)c];
        out[c] = cycles > 0.0 ? (double)flits * tl->link_cycles / cycles : 0.0;
    }
    return FL_OK;
}

int fl_sim_timeline_channel_series(const FlSimTimeline *tl, int channel, double *out,
                                   size_t max, size_t *n, FlError *err)
{
    if (!tl || (!out && max > 0))
        return fl_error_set(err, FL_EINVAL, "no timeline or output");
    if (channel < 0 || channel >= tl->n_chan)
        return fl_error_set(err, FL_ERANGE, "channel %d: channels are 0 to %d", channel,
                            tl->n_chan - 1);
    size_t count = tl->n_samples < max ? tl->n_samples : max;
    for (size_t i = 0; i < count; i++)
        out[i] = (double)tl->chan_counts[i * (size_t)tl->n_chan + (size_t)channel]
                 * tl->link_cycles / (double)tl->sample_interval;
    if (n)
        *n = tl->n_samples;
    return FL_OK;
}
