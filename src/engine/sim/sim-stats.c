/* sim-stats.c — measurement, with BookSim's definitions (see
 * sim-internal.h): latency histograms, throughput, hops, channel
 * utilization and VC occupancy over the measurement window (or, before
 * it opens, over the warm-up so far). */
#include <stdlib.h>
#include <string.h>

#include "sim-internal.h"

int fl__sim_stats_alloc(FlSim *s)
{
    s->hist_cap = 1024;
    s->lat_hist = calloc((size_t)s->hist_cap, sizeof(int64_t));
    s->net_hist = calloc((size_t)s->hist_cap, sizeof(int64_t));
    return s->lat_hist && s->net_hist ? FL_OK : FL_ENOMEM;
}

void fl__sim_stats_open(FlSim *s)
{
    /* The flits present stay, as far as the occupancy integral knows, to
     * the window's end (see fl__sim_occ_push). */
    int64_t window = s->win_end - s->sc.cycle;
    for (int iv = 0; iv < s->n_vc; iv++)
        s->vc[iv].occ = (int64_t)s->vc[iv].count * window;
    fl__sim_chan_flits(s, s->chan_flits_open, s->n_chan);
    memset(s->host_accepted, 0, sizeof(int64_t) * (size_t)s->n_hosts);
    /* The warm-up's figures end here. */
    SimScalars *sc = &s->sc;
    memset(s->lat_hist, 0, sizeof(int64_t) * (size_t)sc->hist_len);
    memset(s->net_hist, 0, sizeof(int64_t) * (size_t)sc->hist_len);
    sc->hist_len = 0;
    sc->lat_sum = sc->net_sum = sc->hops_sum = 0;
    sc->measured_done = 0;
    sc->offered_flits = 0;
    sc->queued_at_open = sc->queued_flits;
    sc->in_window = 1;
}

/* Called when the cycle counter reaches the window's end. */
void fl__sim_stats_close(FlSim *s)
{
    fl__sim_chan_flits(s, s->chan_flits_close, s->n_chan);
    s->sc.queued_at_close = s->sc.queued_flits;
    s->sc.window_closed = 1;
    s->sc.in_window = 0;
    s->sc.counting = 0;
}

void fl__sim_stats_turn(FlSim *s, SimPacket *p, int64_t cycle)
{
    p->measured = cycle < s->cfg.warmup_cycles ? 2 : cycle < s->win_end;
    s->sc.measured_outstanding += p->measured == 1;
}

static int grow_histograms(FlSim *s, int64_t need)
{
    int64_t cap = s->hist_cap;
    while (cap <= need)
        cap *= 2;
    int64_t *a = realloc(s->lat_hist, sizeof(int64_t) * (size_t)cap);
    if (!a)
        return FL_ENOMEM;
    s->lat_hist = a;
    int64_t *b = realloc(s->net_hist, sizeof(int64_t) * (size_t)cap);
    if (!b)
        return FL_ENOMEM;
    s->net_hist = b;
    memset(a + s->hist_cap, 0, sizeof(int64_t) * (size_t)(cap - s->hist_cap));
    memset(b + s->hist_cap, 0, sizeof(int64_t) * (size_t)(cap - s->hist_cap));
    s->hist_cap = cap;
    return FL_OK;
}

int fl__sim_stats_grow_and_count(FlSim *s, const SimPacket *p, int64_t lat)
{
    if (grow_histograms(s, lat))
        return FL_ENOMEM;
    fl__sim_stats_count(s, p, lat);
    return FL_OK;
}

/* The smallest latency with at least fraction q of the packets at or
 * below it. */
static double percentile(const int64_t *hist, int64_t len, int64_t n, double q)
{
    if (n == 0)
        return 0.0;
    int64_t want = (int64_t)(q * (double)n + 0.999999);
    if (want < 1)
        want = 1;
    int64_t cum = 0;
    for (int64_t i = 0; i < len; i++) {
        cum += hist[i];
        if (cum >= want)
            return (double)i;
    }
    return (double)(len - 1);
}

void fl_sim_result_clear(FlSimResult *res)
{
    if (!res)
        return;
    free(res->channel_utilization);
    free(res->vc_occupancy);
    free(res->deadlock_channels);
    memset(res, 0, sizeof *res);
}

int fl__sim_stats_fill(const FlSim *s, FlSimResult *res, double wall_s, int warmup_figures,
                       FlError *err)
{
    const SimScalars *sc = &s->sc;
    const FlSimConfig *cfg = &s->cfg;
    int opened = fl__sim_window_opened(s);
    /* Only the part of the window actually simulated counts: from the
     * warm-up's end, or in the warm-up from cycle 0. */
    int64_t start = opened ? cfg->warmup_cycles : 0;
    int64_t span = sc->cycle - start;
    if (span > cfg->measure_cycles && opened)
        span = cfg->measure_cycles;
    if (span < 0)
        span = 0;
    int64_t window = span < 1 ? 1 : span;
    /* fl_sim_run reports nothing of a run that ended in its warm-up. */
    int none = !opened && !warmup_figures;
    memset(res, 0, sizeof *res);
    res->window_start = start;
    res->window_cycles = none ? 0 : span;
    res->status = (FlSimStatus)sc->status;
    int64_t n = none ? 0 : sc->measured_done;
    if (n > 0) {
        res->latency_avg = (double)sc->lat_sum / (double)n;
        res->network_latency_avg = (double)sc->net_sum / (double)n;
        res->hops_avg = (double)sc->hops_sum / (double)n;
    }
    res->latency_p50 = percentile(s->lat_hist, sc->hist_len, n, 0.50);
    res->latency_p95 = percentile(s->lat_hist, sc->hist_len, n, 0.95);
    res->latency_p99 = percentile(s->lat_hist, sc->hist_len, n, 0.99);
    res->network_latency_p50 = percentile(s->net_hist, sc->hist_len, n, 0.50);
    res->network_latency_p99 = percentile(s->net_hist, sc->hist_len, n, 0.99);
    double sum = 0.0, worst = -1.0;
    for (int h = 0; h < s->n_hosts; h++) {
        double a = none ? 0.0 : (double)s->host_accepted[h] / (double)window;
        sum += a;
        if (worst < 0.0 || a < worst)
            worst = a;
    }
    res->throughput = sum / s->n_hosts;
    res->throughput_min = worst < 0.0 ? 0.0 : worst;
    res->offered = none ? 0.0 : (double)sc->offered_flits / ((double)window * s->n_hosts);
    res->packets = n;
    res->cycles = sc->cycle;
    res->flit_hops = sc->flit_hops;
    res->wall_s = wall_s;
    res->channel_utilization = calloc((size_t)s->n_chan + 1, sizeof(double));
    res->vc_occupancy = calloc((size_t)s->n_vc + 1, sizeof(double));
    if (!res->channel_utilization || !res->vc_occupancy) {
        fl_sim_result_clear(res);
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    for (int c = 0; c < s->n_chan && !none; c++) {
        /* Counted since cycle 0: the window's are those past its opening
         * (in the warm-up, all of them) and before its closing. */
        int64_t flits = sc->window_closed ? s->chan_flits_close[c] : fl__sim_chan_flit_sum(s, c);
        if (opened)
            flits -= s->chan_flits_open[c];
        res->channel_utilization[c] = (double)flits * cfg->link_cycles_per_flit
                                      / (double)window;
    }
    /* In a window (or warm-up) still running, the flits present were
     * credited up to its end: only the cycles until now count. */
    int64_t ahead = sc->counting ? fl__sim_occ_end(s) - sc->cycle : 0;
    for (int iv = 0; iv < s->n_vc && !none; iv++) {
        const SimVc *q = &s->vc[iv];
        int64_t occ = q->occ - (int64_t)q->count * ahead;
        res->vc_occupancy[s->vc_chan[iv] * s->V + q->v] = (double)occ / (double)window;
    }
    if (sc->status == FL_SIM_DEADLOCK) {
        int rc = fl__sim_deadlock_cycle(s, &res->deadlock_channels, &res->deadlock_len);
        if (rc == FL_ENOMEM) {
            fl_sim_result_clear(res);
            return fl_error_set(err, FL_ENOMEM, "out of memory");
        }
    }
    return FL_OK;
}

void fl__sim_chan_flits(const FlSim *s, int64_t *out, int n)
{
    for (int c = 0; c < n; c++)
        out[c] = fl__sim_chan_flit_sum(s, c);
}

int fl_sim_channel_flits(const FlSim *s, int64_t *out, int n, FlError *err)
{
    if (!s || (!out && n > 0))
        return fl_error_set(err, FL_EINVAL, "no simulation or output");
    if (n < 0)
        return fl_error_set(err, FL_EINVAL, "channel flits: n must be >= 0, not %d", n);
    fl__sim_chan_flits(s, out, n < s->n_chan ? n : s->n_chan);
    return FL_OK;
}

int fl_sim_counters(const FlSim *s, FlSimCounters *out)
{
    if (!s || !out)
        return FL_EINVAL;
    const SimScalars *sc = &s->sc;
    *out = (FlSimCounters){
        .cycle = sc->cycle,
        .packets_created = sc->created_packets,
        .flits_created = sc->created_flits,
        .flits_injected = sc->created_flits - sc->queued_flits,
        .flits_ejected = sc->ejected,
        .packets_delivered = sc->delivered_packets,
        .latency_sum = sc->delivered_lat_sum,
        .flit_hops = sc->flit_hops,
        .in_network = sc->net_flits,
        .queued = sc->queued_flits,
        .hosts = s->n_hosts,
    };
    return FL_OK;
}
