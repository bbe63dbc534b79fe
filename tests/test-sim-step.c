/* test-sim-step.c — the simulator driven cycle by cycle, as a viewer and a
 * message layer drive it: errors of fl_sim_step, statistics and the
 * deadlock cycle mid-run (equal to fl_sim_run's at the end), the flit and
 * VC views and their stall reasons, checkpoint cycle and size, hooks and
 * packets injected by the caller. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim-net.h"

static FlSim *sim_open(const Net *n, const FlSimConfig *cfg)
{
    FlSim *s = NULL;
    FlError err;
    if (fl_sim_new(n->t, cfg, &s, &err)) {
        CHECK(0, "fl_sim_new: %s", err.message);
        return NULL;
    }
    return s;
}

/* Uniform traffic on the network spec with routing, and a simulation of
 * it; NULL, with the network closed, when either cannot be built. */
static FlSim *uniform_sim(Net *n, FlSimConfig *cfg, const char *spec, const char *routing,
                          double rate, int flits)
{
    if (!uniform_net(n, cfg, spec, routing, rate, flits))
        return NULL;
    FlSim *s = sim_open(n, cfg);
    if (!s)
        net_close(n);
    return s;
}

/* A ring that locks: shortest paths, one VC of two flits and heavy
 * uniform traffic; the watchdog fires deadlock_cycles after it locks. */
static int locking_ring(Net *n, FlSimConfig *cfg, int deadlock_cycles)
{
    if (!uniform_net(n, cfg, "ring:8", "shortest", 0.9, 4))
        return 0;
    cfg->vcs = 1;
    cfg->buf_flits = 2;
    cfg->deadlock_cycles = deadlock_cycles;
    return 1;
}

/* Steps to cycle `to` in uneven chunks, as a viewer would. */
static int step_to(FlSim *s, int64_t to)
{
    static const int64_t chunks[] = { 1, 7, 64, 3, 250, 1, 1000, 13 };
    FlError err;
    for (int i = 0; fl_sim_cycle(s) < to; i++) {
        int64_t n = chunks[i % 8];
        if (n > to - fl_sim_cycle(s))
            n = to - fl_sim_cycle(s);
        FlSimStatus st;
        if (fl_sim_step(s, n, &st, &err)) {
            CHECK(0, "fl_sim_step: %s", err.message);
            return 0;
        }
        if (st != FL_SIM_RUNNING)
            break;
    }
    return 1;
}

/* --- errors --------------------------------------------------------------- */

static int nop_hook(FlSim *s, const FlSimHookInfo *info, void *data)
{
    (void)s;
    (void)info;
    (void)data;
    return 0;
}

static void test_errors(void)
{
    FlError err;
    FlSimStatus st = FL_SIM_OK;
    CHECK(fl_sim_step(NULL, 1, &st, &err) == FL_EINVAL && strstr(err.message, "no simulation"),
          "stepping no simulation is an error: %s", err.message);
    Net n;
    FlSimConfig cfg;
    FlSim *s = uniform_sim(&n, &cfg, "mesh:4x4", "dor", 0.1, 4);
    if (!s)
        return;
    CHECK(fl_sim_step(s, -1, &st, &err) == FL_EINVAL && strstr(err.message, "-1"),
          "a negative count is refused: %s", err.message);
    CHECK_INT(fl_sim_cycle(s), 0);
    CHECK(fl_sim_step(s, 0, &st, &err) == FL_OK && st == FL_SIM_RUNNING,
          "stepping 0 cycles is fine and says running");
    CHECK(fl_sim_step(s, 10, NULL, NULL) == FL_OK && fl_sim_cycle(s) == 10,
          "status and error may be NULL");
    CHECK_INT(fl_sim_status(s), FL_SIM_RUNNING);
    CHECK(fl_sim_set_hook(s, FL_SIM_HOOK_EVERY, 0, nop_hook, NULL, &err) == FL_ERANGE,
          "an every-N hook needs N >= 1: %s", err.message);
    CHECK(fl_sim_set_hook(s, 0x80, 1, nop_hook, NULL, &err) == FL_EINVAL,
          "unknown hook events are refused: %s", err.message);
    CHECK(fl_sim_inject(s, 0, 16, 4, NULL, &err) == FL_ERANGE,
          "injecting to host 16 of 16: %s", err.message);
    CHECK(fl_sim_inject(s, -1, 3, 4, NULL, &err) == FL_ERANGE, "from host -1: %s", err.message);
    CHECK(fl_sim_inject(s, 0, 3, 0, NULL, &err) == FL_ERANGE, "a 0-flit packet: %s",
          err.message);
    CHECK(fl_sim_inject(s, 0, 3, FL_MAX_PACKET_FLITS + 1, NULL, &err) == FL_ERANGE
              && strstr(err.message, "at most 1000000 flits"),
          "a packet past the longest: %s", err.message);
    FlVcView vv;
    CHECK(fl_sim_vc_view(s, fl_sim_channels(s), 0, &vv, &err) == FL_ERANGE,
          "a VC view past the last channel: %s", err.message);
    CHECK(fl_sim_vc_view(s, 0, fl_sim_vcs(s), &vv, &err) == FL_ERANGE,
          "a VC view past the last VC: %s", err.message);
    fl_sim_free(s);
    cfg.switching = FL_SWITCHING_VCT;
    cfg.buf_flits = 8;
    s = sim_open(&n, &cfg);
    if (s) {
        CHECK(fl_sim_inject(s, 0, 3, 9, NULL, &err) == FL_ERANGE && strstr(err.message, "cut"),
              "VCT: a 9-flit packet cannot fit an 8-flit buffer: %s", err.message);
        fl_sim_free(s);
    }
    net_close(&n);
}

/* --- statistics mid-run ----------------------------------------------------- */

/* fl_sim_run on one simulation; the same cycles stepped by hand on another,
 * then fl_sim_stats: the figures must be the same. */
static void stats_match_run(const char *what, const Net *n, const FlSimConfig *cfg,
                            FlSimStatus want)
{
    FlSim *a = sim_open(n, cfg), *b = sim_open(n, cfg);
    FlSimResult ra, rb;
    FlError err;
    if (!a || !b)
        return;
    if (fl_sim_run(a, &ra, NULL, NULL, &err)) {
        CHECK(0, "%s: fl_sim_run: %s", what, err.message);
        return;
    }
    CHECK(ra.status == want, "%s: the run ends %s", what, fl_sim_status_name(ra.status));
    step_to(b, ra.cycles);
    if (fl_sim_stats(b, &rb, &err)) {
        CHECK(0, "%s: fl_sim_stats: %s", what, err.message);
        return;
    }
    int nc = fl_sim_channels(b), nv = nc * fl_sim_vcs(b);
    CHECK(same_figures(&ra, &rb, nc, nv),
          "%s: stepping %lld cycles by hand gives fl_sim_run's figures (latency %.4f / %.4f, "
          "accepted %.5f / %.5f, %lld / %lld packets)", what, (long long)ra.cycles,
          ra.latency_avg, rb.latency_avg, ra.throughput, rb.throughput, (long long)ra.packets,
          (long long)rb.packets);
    CHECK(rb.status == (want == FL_SIM_DEADLOCK ? FL_SIM_DEADLOCK : FL_SIM_RUNNING),
          "%s: stepping says %s", what, fl_sim_status_name(rb.status));
    CHECK(rb.wall_s == 0.0, "%s: no wall time for stepped statistics", what);
    fl_sim_result_clear(&ra);
    fl_sim_result_clear(&rb);
    fl_sim_free(a);
    fl_sim_free(b);
}

static void test_stats_end(void)
{
    Net n;
    FlSimConfig cfg;
    if (uniform_net(&n, &cfg, "mesh:4x4", "dor", 0.3, 4)) {
        stats_match_run("mesh:4x4 dor 0.3", &n, &cfg, FL_SIM_OK);
        cfg.warmup_cycles = 0;
        cfg.traffic.rate = 0.9;
        cfg.buf_flits = 2;
        stats_match_run("mesh:4x4 dor 0.9, no warm-up", &n, &cfg, FL_SIM_SATURATED);
        net_close(&n);
    }
    if (uniform_net(&n, &cfg, "mesh:8x8", "west-first", 0.12, 8)) {
        cfg.selection = FL_SELECT_RANDOM;
        cfg.traffic.process = FL_INJECT_ONOFF;
        cfg.link_cycles_per_flit = 2;
        fl_sim_config_pipeline(&cfg, "booksim-min", NULL);
        stats_match_run("mesh:8x8 west-first random on/off booksim-min", &n, &cfg, FL_SIM_OK);
        net_close(&n);
    }
    if (locking_ring(&n, &cfg, 300)) {
        cfg.warmup_cycles = 100;
        stats_match_run("ring:8 shortest 1 VC", &n, &cfg, FL_SIM_DEADLOCK);
        net_close(&n);
    }
}

/* During the warm-up the figures run from cycle 0; once the window opens,
 * from its start. */
static void test_stats_window(void)
{
    Net n;
    FlSimConfig cfg;
    FlSimResult r;
    FlSim *s = uniform_sim(&n, &cfg, "mesh:4x4", "dor", 0.3, 4);
    if (!s)
        return;
    fl_sim_step(s, 400, NULL, NULL);
    fl_sim_stats(s, &r, NULL);
    CHECK(r.window_start == 0 && r.window_cycles == 400,
          "in the warm-up: cycles [0, 400) (got [%lld, +%lld))", (long long)r.window_start,
          (long long)r.window_cycles);
    CHECK(r.packets > 100 && r.latency_avg > 5 && r.throughput > 0.2 && r.throughput < 0.4,
          "warm-up figures: %lld packets, latency %.2f, accepted %.3f", (long long)r.packets,
          r.latency_avg, r.throughput);
    CHECK_NEAR(r.offered, 0.3, 0.05);
    double util = 0;
    for (int c = 0; c < fl_sim_channels(s); c++)
        util += r.channel_utilization[c];
    CHECK(util > 0, "channels were used in the warm-up");
    fl_sim_result_clear(&r);
    fl_sim_step(s, 100, NULL, NULL);
    fl_sim_stats(s, &r, NULL);
    CHECK(r.window_start == 500 && r.window_cycles == 0 && r.packets == 0 && r.throughput == 0,
          "at the warm-up's end the window opens empty (%lld packets)", (long long)r.packets);
    fl_sim_result_clear(&r);
    fl_sim_step(s, 1000, NULL, NULL);
    fl_sim_stats(s, &r, NULL);
    CHECK(r.window_start == 500 && r.window_cycles == 1000 && r.packets > 500,
          "1000 cycles into the window: %lld packets", (long long)r.packets);
    CHECK_NEAR(r.offered, 0.3, 0.05);
    fl_sim_result_clear(&r);
    fl_sim_step(s, 5000, NULL, NULL);
    fl_sim_stats(s, &r, NULL);
    CHECK(r.window_cycles == 3000 && r.cycles == 6500,
          "past the window: the whole window (%lld cycles)", (long long)r.window_cycles);
    fl_sim_result_clear(&r);
    fl_sim_free(s);
    net_close(&n);
}

/* A run that deadlocks in its warm-up: fl_sim_run reports no figures (as it
 * always has), fl_sim_stats the warm-up's. */
static void test_stats_warmup_deadlock(void)
{
    Net n;
    FlSimConfig cfg;
    if (!locking_ring(&n, &cfg, 200))
        return;
    cfg.warmup_cycles = 100000;
    FlSim *s = sim_open(&n, &cfg);
    FlSimResult run, now;
    if (!s)
        return;
    if (fl_sim_run(s, &run, NULL, NULL, NULL) || fl_sim_stats(s, &now, NULL)) {
        CHECK(0, "run and stats");
        return;
    }
    CHECK(run.status == FL_SIM_DEADLOCK && run.cycles < cfg.warmup_cycles && run.offered == 0
              && run.throughput == 0 && run.packets == 0 && run.window_cycles == 0
              && run.deadlock_len > 0,
          "deadlocked at cycle %lld in the warm-up: fl_sim_run has no figures, only the cycle",
          (long long)run.cycles);
    CHECK(now.window_start == 0 && now.window_cycles == run.cycles && now.offered > 0.5
              && now.deadlock_len == run.deadlock_len,
          "fl_sim_stats gives the warm-up's: offered %.3f over %lld cycles", now.offered,
          (long long)now.window_cycles);
    fl_sim_result_clear(&run);
    fl_sim_result_clear(&now);
    fl_sim_free(s);
    net_close(&n);
}

/* --- the deadlock cycle mid-run ------------------------------------------- */

static void test_deadlock_midrun(void)
{
    Net n;
    FlSimConfig cfg;
    if (!locking_ring(&n, &cfg, 300))
        return;
    FlSim *a = sim_open(&n, &cfg), *b = sim_open(&n, &cfg);
    FlSimResult ra;
    if (!a || !b)
        return;
    int *ch = NULL, len = -1;
    CHECK(fl_sim_deadlock_cycle(b, &ch, &len, NULL) == FL_OK && len == 0 && !ch,
          "an empty network has no cycle");
    if (fl_sim_run(a, &ra, NULL, NULL, NULL) || ra.status != FL_SIM_DEADLOCK) {
        CHECK(0, "the ring deadlocks under fl_sim_run");
        return;
    }
    /* The network locked deadlock_cycles before the watchdog fired: half
     * way, nothing moves any more but the status is still running. */
    FlSimStatus st;
    fl_sim_step(b, ra.cycles - cfg.deadlock_cycles / 2, &st, NULL);
    CHECK(st == FL_SIM_RUNNING, "before the watchdog fires the status is running");
    fl_sim_deadlock_cycle(b, &ch, &len, NULL);
    CHECK(len == ra.deadlock_len && len > 0 && !memcmp(ch, ra.deadlock_channels,
                                                       sizeof(int) * (size_t)len),
          "mid-run, the locked cycle is the one fl_sim_run reports (%d channels)", len);
    free(ch);
    FlSimResult rb;
    fl_sim_stats(b, &rb, NULL);
    CHECK(rb.deadlock_len == 0, "statistics list a cycle only once deadlocked");
    fl_sim_result_clear(&rb);
    fl_sim_step(b, 1000000, &st, NULL);
    CHECK(st == FL_SIM_DEADLOCK && fl_sim_cycle(b) == ra.cycles,
          "stepping stops when the watchdog fires, at cycle %lld", (long long)fl_sim_cycle(b));
    ch = NULL;
    fl_sim_deadlock_cycle(b, &ch, &len, NULL);
    int linked = len >= 2;
    for (int i = 0; i < len && linked; i++)
        linked = fl_topology_channel_dst(n.t, ch[i])
                 == fl_topology_channel_src(n.t, ch[(i + 1) % len]);
    CHECK(linked, "the %d channels form a cycle", len);
    free(ch);
    CHECK(fl_sim_step(b, 10, &st, NULL) == FL_OK && fl_sim_cycle(b) == ra.cycles,
          "a deadlocked simulation does not step on");
    fl_sim_result_clear(&ra);
    fl_sim_free(a);
    fl_sim_free(b);
    net_close(&n);
}

/* --- the views ------------------------------------------------------------- */

enum { MAX_VC = 4096 };

typedef struct Views {
    const Net *n;
    FlSim *s;
    int V, K, vct;
    int buffered[MAX_VC], on_link[MAX_VC];
    int stalls[5];
    int bad_node, bad_out, bad_owner, bad_stall, bad_front;
    int heads_checked;
} Views;

/* Whether a head of len flits cannot take VC v: held, or under VCT without
 * room for the packet. */
static int vc_taken(const Views *w, const FlVcView *v, int len)
{
    return v->owner_packet >= 0 || v->draining || (w->vct && v->credits >= 0 && v->credits < len);
}

/* The routing's choices for a buffered head at switch f->node, or at its
 * last switch the channel to its host, any VC (class -1): the routing sees
 * a packet from a host with no input channel and class 0, else the class
 * of its VC (class k owns VCs [k V / K, (k + 1) V / K)). */
static int legal_choices(const Views *w, const FlFlitView *f, FlRouteChoice *ch)
{
    const FlTopology *t = w->n->t;
    int host = fl_topology_host_node(t, f->dst_host);
    int sw = f->node, dest = fl_topology_host_switch(t, host);
    if (dest == sw) {
        for (int c = 0; c < fl_topology_channel_count(t); c++)
            if (fl_topology_channel_src(t, c) == sw && fl_topology_channel_dst(t, c) == host)
                ch[0] = (FlRouteChoice){ 0, c, -1 };
        return 1;
    }
    int from_host = fl_topology_node_kind(t, fl_topology_channel_src(t, f->channel))
                    == FL_NODE_HOST;
    int in_class = 0;
    for (int k = 0; k < w->K && !from_host; k++)
        if (f->vc >= k * w->V / w->K && f->vc < (k + 1) * w->V / w->K)
            in_class = k;
    return fl_routing_next(w->n->r, sw, from_host ? -1 : f->channel, in_class, dest, ch,
                           FL_ROUTE_MAX_CHOICES);
}

/* The granted output of a buffered flit: a legal choice of the routing for
 * the packet (or the ejection channel at the last switch) and a VC of the
 * choice's class. */
static int output_legal(Views *w, const FlFlitView *f)
{
    FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
    int nc = legal_choices(w, f, ch);
    for (int i = 0; i < nc; i++) {
        int k = ch[i].vc_class;
        int lo = k < 0 ? 0 : k * w->V / w->K, hi = k < 0 ? w->V : (k + 1) * w->V / w->K;
        if (ch[i].channel == f->out_channel && f->out_vc >= lo && f->out_vc < hi)
            return 1;
    }
    return 0;
}

static void check_flit(void *data, const FlFlitView *f)
{
    Views *w = data;
    const FlTopology *t = w->n->t;
    FlVcView out;
    if (f->place != FL_FLIT_SOURCE_QUEUE) {
        int cv = f->channel * w->V + f->vc;
        if (cv < MAX_VC) {
            w->buffered[cv] += f->place == FL_FLIT_BUFFER;
            w->on_link[cv] += f->place == FL_FLIT_LINK;
        }
    }
    int want_node = f->place == FL_FLIT_BUFFER ? fl_topology_channel_dst(t, f->channel)
                    : f->place == FL_FLIT_LINK ? fl_topology_channel_src(t, f->channel)
                                               : fl_topology_host_node(t, f->src_host);
    w->bad_node += f->node != want_node;
    if ((f->out_channel < 0) != (f->out_vc < 0))
        w->bad_out++;
    if (f->out_channel >= 0) {
        if (f->place == FL_FLIT_LINK)
            w->bad_out++;
        else if (f->place == FL_FLIT_BUFFER && !output_legal(w, f))
            w->bad_out++;
        else if (f->place == FL_FLIT_SOURCE_QUEUE
                 && fl_topology_channel_src(t, f->out_channel) != f->node)
            w->bad_out++;
        /* The VC it was granted is held by its packet. */
        if (fl_sim_vc_view(w->s, f->out_channel, f->out_vc, &out, NULL)
            || out.owner_packet != f->packet)
            w->bad_owner++;
    }
    if (f->stall < 0 || f->stall > FL_STALL_CHANNEL)
        return;
    w->stalls[f->stall]++;
    if (f->stall == FL_STALL_NONE)
        return;
    /* Only a front flit has a reason: the first of its buffer, or the next
     * flit of the packet at the front of a source queue. */
    if (f->place == FL_FLIT_LINK || (f->place == FL_FLIT_BUFFER && f->position != 0))
        w->bad_front++;
    w->heads_checked++;
    switch (f->stall) {
    case FL_STALL_NO_CREDIT:
        /* Its output VC is full as the sender sees it. */
        if (f->out_channel < 0 || fl_sim_vc_view(w->s, f->out_channel, f->out_vc, &out, NULL)
            || out.credits != 0)
            w->bad_stall++;
        break;
    case FL_STALL_NO_VC: {
        /* A head with no output, and every VC of some legal channel taken. */
        if (f->index != 0 || f->out_channel >= 0) {
            w->bad_stall++;
            break;
        }
        if (f->place == FL_FLIT_SOURCE_QUEUE) {
            int inj = -1;
            for (int c = 0; c < fl_topology_channel_count(t); c++)
                if (fl_topology_channel_src(t, c) == f->node)
                    inj = c;
            for (int v = 0; v < w->V; v++)
                if (!fl_sim_vc_view(w->s, inj, v, &out, NULL)
                    && !vc_taken(w, &out, f->packet_flits))
                    w->bad_stall++;
            break;
        }
        FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
        int nc = legal_choices(w, f, ch);
        int some_full = 0;
        for (int i = 0; i < nc && !some_full; i++) {
            int k = ch[i].vc_class, all = 1;
            int lo = k < 0 ? 0 : k * w->V / w->K, hi = k < 0 ? w->V : (k + 1) * w->V / w->K;
            for (int v = lo; v < hi; v++)
                if (!fl_sim_vc_view(w->s, ch[i].channel, v, &out, NULL)
                    && !vc_taken(w, &out, f->packet_flits))
                    all = 0;
            some_full = all;
        }
        w->bad_stall += !some_full;
        break;
    }
    case FL_STALL_ARBITRATION:
        /* It could have gone: a credit, or a free VC to ask for. */
        if (f->out_channel >= 0
            && (fl_sim_vc_view(w->s, f->out_channel, f->out_vc, &out, NULL)
                || out.credits == 0))
            w->bad_stall++;
        if (f->place != FL_FLIT_BUFFER)
            w->bad_stall++;
        break;
    default:
        break;
    }
}

/* Views of a loaded network at many cycles: each flit where its VC says,
 * outputs legal and held, reasons that agree with the VC state; and every
 * reason seen at least once. */
static void views_check(const char *what, const Net *n, const FlSimConfig *cfg,
                        const int *want_stalls)
{
    FlSim *s = sim_open(n, cfg);
    if (!s)
        return;
    int V = fl_sim_vcs(s), nvc = fl_sim_channels(s) * V;
    if (nvc > MAX_VC) {
        CHECK(0, "%s: too many VCs for the test", what);
        return;
    }
    Views *w = calloc(1, sizeof *w);
    w->n = n;
    w->s = s;
    w->V = V;
    w->K = fl_routing_vc_classes(n->r);
    w->vct = cfg->switching == FL_SWITCHING_VCT;
    int bad_count = 0, owners = 0, owner_orphans = 0;
    for (int round = 0; round < 40; round++) {
        fl_sim_step(s, 37, NULL, NULL);
        memset(w->buffered, 0, sizeof w->buffered);
        memset(w->on_link, 0, sizeof w->on_link);
        fl_sim_foreach_flit(s, 1 << 20, check_flit, w);
        for (int c = 0; c < fl_sim_channels(s); c++)
            for (int v = 0; v < V; v++) {
                FlVcView vv;
                fl_sim_vc_view(s, c, v, &vv, NULL);
                bad_count += vv.flits_buffered != w->buffered[c * V + v]
                             || vv.flits_on_link != w->on_link[c * V + v]
                             || vv.channel != c || vv.vc != v
                             || vv.node != fl_topology_channel_dst(n->t, c);
                bad_count += vv.credits > vv.capacity
                             || (vv.credits >= 0
                                 && vv.credits + vv.flits_buffered + vv.flits_on_link
                                        > vv.capacity);
                owners += vv.owner_packet >= 0;
                owner_orphans += vv.owner_packet >= 0 && vv.draining;
                if (vv.out_channel >= 0) {
                    FlVcView o;
                    fl_sim_vc_view(s, vv.out_channel, vv.out_vc, &o, NULL);
                    bad_count += o.owner_packet < 0;
                }
            }
    }
    CHECK(bad_count == 0, "%s: every VC view agrees with the flits seen in it (%d not)", what,
          bad_count);
    CHECK(owners > 0 && owner_orphans == 0, "%s: %d owned VCs, none also draining", what,
          owners);
    CHECK(w->bad_node == 0, "%s: every flit's node is where its place says (%d not)", what,
          w->bad_node);
    CHECK(w->bad_out == 0, "%s: every granted output is a legal route choice (%d not)", what,
          w->bad_out);
    CHECK(w->bad_owner == 0, "%s: every granted VC is held by the flit's packet (%d not)", what,
          w->bad_owner);
    CHECK(w->bad_front == 0, "%s: only front flits have a stall reason (%d not)", what,
          w->bad_front);
    CHECK(w->bad_stall == 0 && w->heads_checked > 0,
          "%s: %d stalled heads, every reason agrees with the VC state (%d not)", what,
          w->heads_checked, w->bad_stall);
    for (int k = 1; k <= FL_STALL_CHANNEL; k++)
        if (want_stalls[k])
            CHECK(w->stalls[k] > 0, "%s: reason %s seen %d times", what,
                  fl_stall_name((FlStall)k), w->stalls[k]);
    free(w);
    fl_sim_free(s);
}

static void test_views(void)
{
    Net n;
    FlSimConfig cfg;
    if (uniform_net(&n, &cfg, "mesh:8x8", "west-first", 0.45, 6)) {
        static const int want[] = { 0, 1, 1, 1, 1 };
        cfg.selection = FL_SELECT_CREDITS;
        cfg.vcs = 2;
        cfg.buf_flits = 4;
        fl_sim_config_pipeline(&cfg, "booksim-min", NULL);
        cfg.routing_delay = 1;
        views_check("mesh:8x8 west-first 0.45 booksim-min", &n, &cfg, want);
        net_close(&n);
    }
    if (uniform_net(&n, &cfg, "torus:4x4", "dor", 0.5, 5)) {
        static const int want[] = { 0, 1, 1, 1, 1 };
        cfg.vcs = 4;
        cfg.buf_flits = 2;
        cfg.link_cycles_per_flit = 2;
        cfg.vc_release = FL_VC_RELEASE_TAIL_CREDIT;
        views_check("torus:4x4 dor 4 VCs, 2 cycles per flit, tail-credit", &n, &cfg, want);
        net_close(&n);
    }
    if (uniform_net(&n, &cfg, "mesh:4x4", "dor", 0.6, 8)) {
        static const int want[] = { 0, 1, 0, 0, 0 };
        cfg.switching = FL_SWITCHING_VCT;
        cfg.buf_flits = 8;
        views_check("mesh:4x4 dor VCT", &n, &cfg, want);
        net_close(&n);
    }
}

/* --- checkpoints ------------------------------------------------------------ */

static void test_checkpoint_facts(void)
{
    Net n;
    FlSimConfig cfg;
    FlSimCheckpoint *c0 = NULL, *c1 = NULL;
    FlSim *s = uniform_sim(&n, &cfg, "mesh:4x4", "dor", 0.3, 4);
    if (!s)
        return;
    fl_sim_checkpoint(s, &c0, NULL);
    fl_sim_step(s, 700, NULL, NULL);
    fl_sim_checkpoint(s, &c1, NULL);
    CHECK(fl_sim_checkpoint_cycle(c0) == 0 && fl_sim_checkpoint_cycle(c1) == 700,
          "checkpoints say their cycles: %lld and %lld", (long long)fl_sim_checkpoint_cycle(c0),
          (long long)fl_sim_checkpoint_cycle(c1));
    size_t z0 = fl_sim_checkpoint_size(c0), z1 = fl_sim_checkpoint_size(c1);
    CHECK(z0 > 1000 && z1 > z0, "and their sizes: %zu bytes at cycle 0, %zu at 700 (packets "
          "and latencies added)", z0, z1);
    CHECK(fl_sim_checkpoint_cycle(NULL) == -1 && fl_sim_checkpoint_size(NULL) == 0,
          "no checkpoint: cycle -1, size 0");
    fl_sim_restore(s, c0, NULL);
    CHECK_INT(fl_sim_cycle(s), 0);
    fl_sim_checkpoint_free(c0);
    fl_sim_checkpoint_free(c1);
    fl_sim_free(s);
    net_close(&n);
}

/* --- hooks ------------------------------------------------------------------ */

typedef struct HookLog {
    int delivered, every, measured;
    int64_t last_every;
    int bad_every, bad_info;
    uint64_t hash;
    int stop_after;            /* stop on the delivery with this count */
    int64_t stopped_at;
    int inner_rc[2];
    FlSimCheckpoint *inner_cp;
} HookLog;

static int log_hook(FlSim *s, const FlSimHookInfo *info, void *data)
{
    HookLog *log = data;
    const int64_t v[] = { info->event, info->cycle, info->packet, info->src_host,
                          info->dst_host, info->flits, info->created, info->injected,
                          info->delivered, info->measured };
    hash_values(&log->hash, v, sizeof v / sizeof v[0]);
    if (info->cycle != fl_sim_cycle(s))
        log->bad_info++;
    if (info->event == FL_SIM_HOOK_EVERY) {
        log->every++;
        log->bad_every += info->cycle % 7 != 0 || info->cycle != log->last_every + 7;
        log->last_every = info->cycle;
        return 0;
    }
    log->delivered++;
    log->measured += info->measured;
    if (!(info->created <= info->injected && info->injected < info->delivered
          && info->delivered + 1 == info->cycle && info->flits >= 1 && info->src_host >= 0
          && info->dst_host >= 0))
        log->bad_info++;
    if (log->inner_cp) {
        log->inner_rc[0] = fl_sim_step(s, 1, NULL, NULL);
        log->inner_rc[1] = fl_sim_restore(s, log->inner_cp, NULL);
    }
    if (log->stop_after && log->delivered == log->stop_after) {
        log->stopped_at = info->cycle;
        return 1;
    }
    return 0;
}

static void test_hooks(void)
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, "mesh:4x4", "dor", 0.3, 4))
        return;
    cfg.measure_cycles = 2000;
    FlSim *s = sim_open(&n, &cfg);
    if (!s)
        return;
    /* A whole run: one call per measured packet delivered. */
    HookLog log = { .hash = 0xcbf29ce484222325ULL };
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED | FL_SIM_HOOK_EVERY, 7, log_hook, &log, NULL);
    FlSimResult r;
    fl_sim_run(s, &r, NULL, NULL, NULL);
    CHECK(r.status == FL_SIM_OK && log.measured == r.packets,
          "a call for each measured packet delivered: %d calls, %lld packets", log.measured,
          (long long)r.packets);
    CHECK(log.delivered > log.measured, "and for the others (%d in all)", log.delivered);
    CHECK(log.bad_info == 0, "every delivery's cycles and hosts make sense (%d not)",
          log.bad_info);
    CHECK(log.every == r.cycles / 7 && log.bad_every == 0,
          "the every-7 hook ran at cycles 7, 14, ... (%d calls over %lld cycles)", log.every,
          (long long)r.cycles);
    fl_sim_result_clear(&r);
    fl_sim_free(s);

    /* Every delivery, exactly once: a trace of known packets. */
    enum { N = 300 };
    FlTraceEvent ev[N];
    FlRng rng;
    fl_rng_seed(&rng, 3);
    for (int i = 0; i < N; i++)
        ev[i] = (FlTraceEvent){ i, (int)fl_rng_below(&rng, 16), (int)fl_rng_below(&rng, 16),
                                1 + (int)fl_rng_below(&rng, 6) };
    trace_config(&cfg, &n, ev, N);
    s = sim_open(&n, &cfg);
    if (!s)
        return;
    HookLog all = { .hash = 1 };
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED, 0, log_hook, &all, NULL);
    fl_sim_step(s, 2000, NULL, NULL);
    CHECK(all.delivered == N && all.bad_info == 0, "a trace of %d packets: %d deliveries", N,
          all.delivered);
    fl_sim_free(s);

    /* A hook stops stepping after its cycle. */
    s = sim_open(&n, &cfg);
    HookLog stop = { .stop_after = 5 };
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED, 0, log_hook, &stop, NULL);
    FlSimStatus st;
    CHECK(fl_sim_step(s, 2000, &st, NULL) == FL_OK && st == FL_SIM_RUNNING
              && fl_sim_cycle(s) == stop.stopped_at && stop.delivered >= 5,
          "a hook returning non-zero stops stepping at cycle %lld (called %d times in it)",
          (long long)fl_sim_cycle(s), stop.delivered);
    stop.stop_after = 0;
    FlError err;
    CHECK(fl_sim_run(s, &r, NULL, NULL, &err) == FL_OK && stop.delivered == N,
          "the run goes on from there: %d deliveries", stop.delivered);
    fl_sim_result_clear(&r);
    fl_sim_free(s);
    s = sim_open(&n, &cfg);
    stop = (HookLog){ .stop_after = 5 };
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED, 0, log_hook, &stop, NULL);
    CHECK(fl_sim_run(s, &r, NULL, NULL, &err) == FL_ECANCELLED,
          "a hook stopping fl_sim_run cancels it: %s", err.message);

    /* What a hook may not do. */
    HookLog inner = { 0 };
    fl_sim_checkpoint(s, &inner.inner_cp, NULL);
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED, 0, log_hook, &inner, NULL);
    fl_sim_step(s, 200, NULL, NULL);
    CHECK(inner.delivered > 0 && inner.inner_rc[0] == FL_EINVAL && inner.inner_rc[1] == FL_EINVAL,
          "fl_sim_step and fl_sim_restore from a hook fail");
    fl_sim_checkpoint_free(inner.inner_cp);
    CHECK(fl_sim_set_hook(s, 0, 0, NULL, NULL, NULL) == FL_OK, "a hook is removed");
    int before = inner.delivered;
    fl_sim_step(s, 200, NULL, NULL);
    CHECK(inner.delivered == before, "and no longer called");
    fl_sim_free(s);
    net_close(&n);
}

/* Restore and step again: the same flits and the same hook calls as the
 * first time and as a simulation that never went back. */
static void test_restore_hooks(void)
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, "torus:4x4", "dor", 0.4, 4))
        return;
    cfg.traffic.process = FL_INJECT_ONOFF;
    cfg.selection = FL_SELECT_RANDOM;
    FlSim *s = sim_open(&n, &cfg), *straight = sim_open(&n, &cfg);
    if (!s || !straight)
        return;
    HookLog a = { .hash = 7 }, b = { .hash = 7 }, c = { .hash = 7 };
    fl_sim_step(s, 700, NULL, NULL);
    fl_sim_step(straight, 700, NULL, NULL);
    FlSimCheckpoint *cp;
    fl_sim_checkpoint(s, &cp, NULL);
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED | FL_SIM_HOOK_EVERY, 7, log_hook, &a, NULL);
    fl_sim_step(s, 300, NULL, NULL);
    FlitHash first = flit_hash(s);
    fl_sim_restore(s, cp, NULL);
    fl_sim_checkpoint_free(cp);
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED | FL_SIM_HOOK_EVERY, 7, log_hook, &b, NULL);
    b.last_every = a.last_every = 700;
    fl_sim_step(s, 300, NULL, NULL);
    FlitHash again = flit_hash(s);
    c.last_every = 700;
    fl_sim_set_hook(straight, FL_SIM_HOOK_DELIVERED | FL_SIM_HOOK_EVERY, 7, log_hook, &c, NULL);
    fl_sim_step(straight, 300, NULL, NULL);
    FlitHash direct = flit_hash(straight);
    CHECK(first.count > 0 && first.h == again.h && again.h == direct.h,
          "restore and step: the same %d flits, outputs and stall reasons", first.count);
    CHECK(a.delivered > 0 && a.hash == b.hash && b.hash == c.hash && a.delivered == c.delivered,
          "and the same %d hook calls", a.delivered + a.every);
    FlSimResult r1, r2;
    fl_sim_stats(s, &r1, NULL);
    fl_sim_stats(straight, &r2, NULL);
    CHECK(same_figures(&r1, &r2, fl_sim_channels(s), fl_sim_channels(s) * fl_sim_vcs(s)),
          "and the same statistics");
    fl_sim_result_clear(&r1);
    fl_sim_result_clear(&r2);
    fl_sim_free(s);
    fl_sim_free(straight);
    net_close(&n);
}

/* --- packets from the caller ------------------------------------------------- */

typedef struct PingPong {
    int rounds, left;
    int64_t last_id;
    int bad;
} PingPong;

/* Each delivery is answered by a packet back, as a message layer would. */
static int answer(FlSim *s, const FlSimHookInfo *info, void *data)
{
    PingPong *pp = data;
    if (info->packet != pp->last_id)
        pp->bad++;
    pp->rounds++;
    if (--pp->left > 0 && fl_sim_inject(s, info->dst_host, info->src_host, info->flits,
                                        &pp->last_id, NULL))
        pp->bad++;
    return pp->left <= 0;
}

static void test_inject(void)
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, "mesh:8x8", "dor", 0.0, 1))
        return;
    cfg.warmup_cycles = 0;
    FlSim *s = sim_open(&n, &cfg);
    if (!s)
        return;
    fl_sim_step(s, 10, NULL, NULL);
    int64_t id = -1;
    FlError err;
    CHECK(fl_sim_inject(s, 0, 63, 16, &id, &err) == FL_OK && id == 0,
          "a packet injected by the caller gets id %lld", (long long)id);
    HookLog log = { 0 };
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED, 0, log_hook, &log, NULL);
    fl_sim_step(s, 200, NULL, NULL);
    FlSimResult r;
    fl_sim_stats(s, &r, NULL);
    /* default pipeline: T0 = 1 + H + (L - 1) with H = 15 switches. */
    CHECK(log.delivered == 1 && r.packets == 1 && r.latency_avg == 1 + 15 + 15,
          "it is delivered alone in %.0f cycles (T0 = 31), measured", r.latency_avg);
    fl_sim_result_clear(&r);
    /* Ping-pong between hosts 0 and 63, driven from the hook. */
    PingPong pp = { .left = 20 };
    fl_sim_inject(s, 0, 63, 4, &pp.last_id, NULL);
    int64_t start = fl_sim_cycle(s);
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED, 0, answer, &pp, NULL);
    fl_sim_step(s, 100000, NULL, NULL);
    int64_t took = fl_sim_cycle(s) - start;
    /* Each leg: 1 + 15 + 3 cycles from creation to delivery, and the answer
     * is made in the cycle after (the hook runs once the cycle is over). */
    CHECK(pp.rounds == 20 && pp.bad == 0 && took == 20 * 20,
          "20 legs of a ping-pong driven by the hook take %lld cycles (20 x (19 + 1))",
          (long long)took);
    fl_sim_free(s);
    net_close(&n);
}

/* --- a run without routes --------------------------------------------------- */

/* The run of cfg keeping no routes gives every figure of the run keeping
 * them (hop counts included: past 16 hops a route needs a second chunk),
 * and the packet views refuse it with a message. */
static void no_routes_check(const char *what, const Net *n, const FlSimConfig *cfg)
{
    FlSim *a = sim_open(n, cfg), *b = sim_open(n, cfg);
    FlError err;
    if (!a || !b) {
        fl_sim_free(a);
        fl_sim_free(b);
        return;
    }
    CHECK(fl_sim_keep_routes(b, 0, &err) == FL_OK, "%s: routes off before the first cycle",
          what);
    fl_sim_step(b, 300, NULL, NULL);
    /* A packet surely in the network (made now, in its host's queue). */
    int64_t id = -1;
    FlPacketView v;
    memset(&err, 0, sizeof err);
    int rc = fl_sim_inject(b, 0, 1, 1, &id, &err);
    if (rc == FL_OK)
        rc = fl_sim_packet_view(b, id, &v, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "keeps no routes"),
          "%s: a packet view refuses a run without routes (%d: %s)", what, rc, err.message);
    int route_len = -1;
    rc = fl_sim_packet_route(b, id, NULL, 0, &route_len, &err);
    CHECK(rc == FL_EINVAL, "%s: so does a packet's route (%d)", what, rc);
    rc = fl_sim_keep_routes(b, 1, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "before the first cycle"),
          "%s: routes cannot come back mid-run (%d: %s)", what, rc, err.message);
    /* a the same way, so that both made the same packets. */
    fl_sim_step(a, 300, NULL, NULL);
    fl_sim_inject(a, 0, 1, 1, NULL, NULL);
    FlSimResult ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    if (fl_sim_run(a, &ra, NULL, NULL, &err) == FL_OK
        && fl_sim_run(b, &rb, NULL, NULL, &err) == FL_OK) {
        int nc = fl_sim_channels(a);
        CHECK(ra.status == rb.status && same_figures(&ra, &rb, nc, nc * cfg->vcs),
              "%s: the same figures without routes (hops %.6f / %.6f, latency %.6f / %.6f)",
              what, ra.hops_avg, rb.hops_avg, ra.latency_avg, rb.latency_avg);
    } else {
        CHECK(0, "%s: fl_sim_run: %s", what, err.message);
    }
    fl_sim_result_clear(&ra);
    fl_sim_result_clear(&rb);
    fl_sim_free(a);
    fl_sim_free(b);
}

static void test_no_routes(void)
{
    Net n;
    FlSimConfig cfg;
    if (uniform_net(&n, &cfg, "mesh:12x12", "dor", 0.45, 1)) {
        fl_sim_config_pipeline(&cfg, "booksim-min", NULL);
        cfg.vcs = 2;
        cfg.buf_flits = 8;
        cfg.measure_cycles = 1500;
        no_routes_check("mesh:12x12 dor 1-flit 0.45 booksim-min", &n, &cfg);
        cfg.threads = 2;
        no_routes_check("mesh:12x12 dor 1-flit 0.45 booksim-min, 2 threads", &n, &cfg);
        net_close(&n);
    }
    if (uniform_net(&n, &cfg, "torus:6x6", "dor", 0.3, 8)) {
        cfg.vcs = 4;
        no_routes_check("torus:6x6 dor 8-flit 0.3", &n, &cfg);
        net_close(&n);
    }
    if (uniform_net(&n, &cfg, "mesh:8x8", "odd-even", 0.4, 4)) {
        cfg.selection = FL_SELECT_RANDOM;
        cfg.vcs = 2;
        no_routes_check("mesh:8x8 odd-even random 4-flit 0.4", &n, &cfg);
        net_close(&n);
    }
}

int main(void)
{
    test_errors();
    test_stats_end();
    test_stats_window();
    test_stats_warmup_deadlock();
    test_deadlock_midrun();
    test_views();
    test_checkpoint_facts();
    test_hooks();
    test_restore_hooks();
    test_inject();
    test_no_routes();
    return tap_done();
}
