/* test-sim-views.c — the packet views (fl_sim_packet_view, _route, _waits)
 * checked against brute force: every packet's flits found by walking
 * fl_sim_foreach_flit give its head, flits sent and delivered, the packet
 * ahead of it and its stall; DOR routes are fl_routing_path's channels up
 * to the head; on the locked ring every blocked packet waits for VCs held
 * by other blocked packets; views after a restore equal views reached by
 * running forward; bad arguments and packets gone or not made yet. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim-net.h"

/* Enough for every flit queued at every host of the tests' networks. */
#define ALL_QUEUED (1 << 30)

/* A simulation of cfg on n; NULL after a failed check. */
static FlSim *sim_of(const Net *n, const FlSimConfig *cfg)
{
    FlSim *s = NULL;
    FlError err = { 0 };
    int rc = fl_sim_new(n->t, cfg, &s, &err);
    return rc == FL_OK || CHECK(0, "fl_sim_new: %s", err.message) ? s : NULL;
}

/* Runs body on a simulation of uniform traffic at rate, packets of flits,
 * on spec with routing. */
static void with_uniform(const char *spec, const char *routing, double rate, int flits,
                         void (*body)(FlSim *s, const Net *n))
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, spec, routing, rate, flits))
        return;
    FlSim *s = sim_of(&n, &cfg);
    if (s)
        body(s, &n);
    fl_sim_free(s);
    net_close(&n);
}

static int step(FlSim *s, int64_t n)
{
    FlError err;
    if (fl_sim_step(s, n, NULL, &err)) {
        CHECK(0, "fl_sim_step: %s", err.message);
        return 0;
    }
    return 1;
}

/* The channel from host h into its switch. */
static int injection_channel(const FlTopology *t, int h)
{
    int node = fl_topology_host_node(t, h);
    int l = fl_topology_port_link(t, node, 0);
    return fl_topology_channel_src(t, 2 * l) == node ? 2 * l : 2 * l + 1;
}

/* --- every flit, by packet ----------------------------------------------------- */

typedef struct Flits {
    FlFlitView *v;
    int n, cap;
} Flits;

static void collect_flit(void *data, const FlFlitView *f)
{
    Flits *fl = data;
    if (fl->n == fl->cap) {
        fl->cap = fl->cap ? 2 * fl->cap : 1024;
        fl->v = realloc(fl->v, sizeof *fl->v * (size_t)fl->cap);
        if (!fl->v)
            abort();
    }
    fl->v[fl->n++] = *f;
}

/* What the flits say about one packet. */
typedef struct Brute {
    int seen;
    int flits, src, dst;
    int queued, in_net;      /* flits in its source queue, in rings */
    int lowest_in_net;       /* the smallest index in the network, or -1 */
    int head_at;             /* index in Flits of its head, or -1 */
    int64_t ahead;           /* the packet of the flit before its head */
} Brute;

typedef struct World {
    Flits fl;
    Brute *b;
    int64_t max_id;
} World;

static int same_place(const FlFlitView *a, const FlFlitView *b)
{
    if ((a->place == FL_FLIT_SOURCE_QUEUE) != (b->place == FL_FLIT_SOURCE_QUEUE))
        return 0;
    if (a->place == FL_FLIT_SOURCE_QUEUE)
        return a->node == b->node;
    return a->channel == b->channel && a->vc == b->vc;
}

static void world_build(World *w, const FlSim *s)
{
    memset(w, 0, sizeof *w);
    fl_sim_foreach_flit(s, ALL_QUEUED, collect_flit, &w->fl);
    w->max_id = -1;
    for (int i = 0; i < w->fl.n; i++)
        if (w->fl.v[i].packet > w->max_id)
            w->max_id = w->fl.v[i].packet;
    w->b = calloc((size_t)w->max_id + 2, sizeof *w->b);
    for (int i = 0; i < w->fl.n; i++) {
        const FlFlitView *f = &w->fl.v[i];
        Brute *b = &w->b[f->packet];
        if (!b->seen) {
            b->seen = 1;
            b->lowest_in_net = -1;
            b->head_at = -1;
            b->ahead = -1;
        }
        b->flits = f->packet_flits;
        b->src = f->src_host;
        b->dst = f->dst_host;
        if (f->place == FL_FLIT_SOURCE_QUEUE) {
            b->queued++;
        } else {
            b->in_net++;
            if (b->lowest_in_net < 0 || f->index < b->lowest_in_net)
                b->lowest_in_net = f->index;
        }
        if (f->index == 0) {
            b->head_at = i;
            if (i > 0 && same_place(&w->fl.v[i - 1], f))
                b->ahead = w->fl.v[i - 1].packet;
        }
    }
}

static void world_free(World *w)
{
    free(w->fl.v);
    free(w->b);
}

/* Failures of one property over many packets: counted, the first told. */
typedef struct Tally {
    int bad, total;
    char first[300];
} Tally;

static void tally(Tally *t, int ok, const char *fmt, ...)
{
    t->total++;
    if (ok || t->bad++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->first, sizeof t->first, fmt, ap);
    va_end(ap);
}

enum { T_FOUND, T_FACTS, T_HEAD, T_FLITS, T_AHEAD, T_ROUTE, T_WAITS, T_GONE, T_N };
static const char *const tally_name[T_N] = {
    "every packet with a flit is found, and only those",
    "source, destination, length and injection",
    "the head: place, channel, VC, node, position, stall and output",
    "flits sent and delivered add up with those seen",
    "the packet ahead of the head",
    "the route: injection channel first, connected, ending where the head is",
    "the waits list fits the stall",
    "delivered packets and ids not made yet are not found",
};

/* What the brute-force cases have met, so that each view's cases are
 * known to be exercised: heads stalled for each reason, heads at their
 * hosts with bodies on the way, heads on links, packets behind others in a
 * buffer and in a source queue. */
enum {
    SEEN_DELIVERED = FL_STALL_CHANNEL + 1,
    SEEN_LINK,
    SEEN_AHEAD_BUFFER,
    SEEN_AHEAD_QUEUE,
    SEEN_LONG,
    SEEN_N
};
static int cases_met[SEEN_N];

static void meet(const FlPacketView *v)
{
    cases_met[v->stall]++;
    cases_met[SEEN_DELIVERED] += v->head_delivered;
    cases_met[SEEN_LINK] += v->head_place == FL_FLIT_LINK;
    cases_met[SEEN_LONG] += v->hops >= 16;
    if (v->ahead >= 0)
        cases_met[v->head_place == FL_FLIT_SOURCE_QUEUE ? SEEN_AHEAD_QUEUE : SEEN_AHEAD_BUFFER]++;
}

/* A VC the head waits for is held: by a packet, draining, or (VCT) without
 * room for the packet. */
static int vc_held(const FlVcView *w, int flits)
{
    return w->owner_packet >= 0 || w->draining || (w->credits >= 0 && w->credits < flits);
}

static void check_waits(Tally *t, const FlSim *s, const FlPacketView *v)
{
    FlVcView waits[64];
    int n = -1;
    FlError err;
    int rc = fl_sim_packet_waits(s, v->packet, waits, 64, &n, &err);
    if (rc || n < 0 || n > 64) {
        tally(t, 0, "packet %lld: waits fails (%s)", (long long)v->packet, err.message);
        return;
    }
    if (v->stall == FL_STALL_NONE) {
        tally(t, n == 0, "packet %lld: not blocked, yet %d VCs to wait for",
              (long long)v->packet, n);
        return;
    }
    int ok = n >= 1;
    for (int i = 0; i < n && ok; i++) {
        const FlVcView *w = &waits[i];
        switch (v->stall) {
        case FL_STALL_NO_VC:
            ok = vc_held(w, v->flits) && w->owner_packet != v->packet;
            break;
        case FL_STALL_NO_CREDIT:
            ok = n == 1 && w->channel == v->head_out_channel && w->vc == v->head_out_vc
                 && w->credits == 0 && w->owner_packet == v->packet && w->front_packet >= 0;
            break;
        default:
            /* Its output VC, or a free VC it may request. */
            ok = (w->channel == v->head_out_channel && w->vc == v->head_out_vc)
                 || (v->head_out_channel < 0 && !vc_held(w, v->flits));
            break;
        }
    }
    tally(t, ok, "packet %lld (%s): %d VCs to wait for, the first (%d, %d) owned by %lld",
          (long long)v->packet, fl_stall_name(v->stall), n, n ? waits[0].channel : -1,
          n ? waits[0].vc : -1, n ? (long long)waits[0].owner_packet : -1LL);
}

static void check_route(Tally *t, const FlSim *s, const FlTopology *topo,
                        const FlPacketView *v)
{
    int route[512], len = -1;
    FlError err;
    if (fl_sim_packet_route(s, v->packet, route, 512, &len, &err) || len < 0 || len > 512) {
        tally(t, 0, "packet %lld: route fails (%s)", (long long)v->packet, err.message);
        return;
    }
    if (v->head_place == FL_FLIT_SOURCE_QUEUE) {
        tally(t, len == 0, "packet %lld: queued, yet a route of %d", (long long)v->packet, len);
        return;
    }
    int ok = len == v->hops + 1 && route[0] == injection_channel(topo, v->src_host)
             && route[len - 1] == v->head_channel;
    for (int i = 1; i < len && ok; i++)
        ok = fl_topology_channel_dst(topo, route[i - 1]) == fl_topology_channel_src(topo, route[i]);
    tally(t, ok, "packet %lld: route of %d channels for %d hops, %d first, %d last (head in %d)",
          (long long)v->packet, len, v->hops, route[0], route[len > 0 ? len - 1 : 0],
          v->head_channel);
}

/* One packet's view against what its flits say. */
static void check_packet(Tally *t, const FlSim *s, const FlTopology *topo, const World *w,
                         int64_t id)
{
    const Brute *b = &w->b[id];
    FlPacketView v;
    FlError err;
    int rc = fl_sim_packet_view(s, id, &v, &err);
    tally(&t[T_FOUND], rc == FL_OK, "packet %lld has flits but is not found: %s",
          (long long)id, err.message);
    if (rc)
        return;
    tally(&t[T_FACTS], v.packet == id && v.flits == b->flits && v.src_host == b->src
                           && v.dst_host == b->dst
                           && (v.injected >= 0) == (v.head_place != FL_FLIT_SOURCE_QUEUE)
                           && v.created <= fl_sim_cycle(s) && v.injected >= -1,
          "packet %lld: %d flits %d -> %d, injected %lld, head at %d", (long long)id, v.flits,
          v.src_host, v.dst_host, (long long)v.injected, v.head_place);
    if (b->head_at >= 0) {
        const FlFlitView *h = &w->fl.v[b->head_at];
        tally(&t[T_HEAD], !v.head_delivered && v.head_place == h->place
                              && v.head_channel == h->channel && v.head_vc == h->vc
                              && v.head_node == h->node
                              && v.head_position
                                     == (h->place == FL_FLIT_SOURCE_QUEUE ? 0 : h->position)
                              && v.stall == h->stall && v.head_out_channel == h->out_channel
                              && v.head_out_vc == h->out_vc,
              "packet %lld: head (%d, ch %d vc %d node %d pos %d, %s, out %d/%d), flit view "
              "(%d, ch %d vc %d node %d pos %d, %s, out %d/%d)", (long long)id, v.head_place,
              v.head_channel, v.head_vc, v.head_node, v.head_position, fl_stall_name(v.stall),
              v.head_out_channel, v.head_out_vc, h->place, h->channel, h->vc, h->node,
              h->position, fl_stall_name(h->stall), h->out_channel, h->out_vc);
    } else {
        int ej = injection_channel(topo, b->dst) ^ 1;
        tally(&t[T_HEAD], v.head_delivered && v.head_place == FL_FLIT_BUFFER
                              && v.head_channel == ej
                              && v.head_node == fl_topology_host_node(topo, b->dst)
                              && v.stall == FL_STALL_NONE,
              "packet %lld: its head is at its host, the view says delivered %d at channel %d "
              "(ejection %d)", (long long)id, v.head_delivered, v.head_channel, ej);
    }
    int delivered = b->head_at >= 0 ? 0 : (b->lowest_in_net >= 0 ? b->lowest_in_net
                                                                  : b->flits - b->queued);
    tally(&t[T_FLITS], v.flits_sent == b->flits - b->queued
                           && v.flits_delivered == delivered
                           && v.flits_sent == b->in_net + v.flits_delivered,
          "packet %lld: sent %d delivered %d; flits: %d queued, %d in the network, %d "
          "delivered", (long long)id, v.flits_sent, v.flits_delivered, b->queued, b->in_net,
          delivered);
    tally(&t[T_AHEAD], v.ahead == (b->head_at >= 0 ? b->ahead : -1),
          "packet %lld: ahead %lld, the flits say %lld", (long long)id, (long long)v.ahead,
          (long long)b->ahead);
    check_route(&t[T_ROUTE], s, topo, &v);
    check_waits(&t[T_WAITS], s, &v);
    meet(&v);
}

/* Every packet of the simulation now, checked; ids past the last seen and
 * those without flits must not be found. */
static void check_world(Tally *t, const FlSim *s, const FlTopology *topo)
{
    World w;
    world_build(&w, s);
    for (int64_t id = 0; id <= w.max_id + 3; id++) {
        if (id <= w.max_id && w.b[id].seen) {
            check_packet(t, s, topo, &w, id);
            continue;
        }
        FlPacketView v;
        FlError err;
        int rc = fl_sim_packet_view(s, id, &v, &err);
        int len = 0, n = 0;
        int rc2 = fl_sim_packet_route(s, id, NULL, 0, &len, NULL);
        int rc3 = fl_sim_packet_waits(s, id, NULL, 0, &n, NULL);
        tally(&t[T_GONE], rc == FL_ENOTFOUND && rc2 == FL_ENOTFOUND && rc3 == FL_ENOTFOUND
                              && strstr(err.message, "packet"),
              "packet %lld has no flit, yet view / route / waits give %d / %d / %d (%s)",
              (long long)id, rc, rc2, rc3, err.message);
    }
    world_free(&w);
}

/* Steps the configuration through its cycles, checking every packet at
 * each stop. */
static void brute_case(const char *what, const Net *n, const FlSimConfig *cfg,
                       const int64_t *stops, int nstops)
{
    FlSim *s = sim_of(n, cfg);
    if (!s)
        return;
    Tally t[T_N];
    memset(t, 0, sizeof t);
    int packets = 0;
    for (int i = 0; i < nstops; i++) {
        if (!step(s, stops[i] - fl_sim_cycle(s)))
            break;
        int before = t[T_FOUND].total;
        check_world(t, s, n->t);
        packets += t[T_FOUND].total - before;
    }
    CHECK(packets > 20, "%s: %d packet views checked", what, packets);
    for (int k = 0; k < T_N; k++)
        CHECK(t[k].bad == 0, "%s: %s (%d of %d wrong%s%s)", what, tally_name[k], t[k].bad,
              t[k].total, t[k].bad ? ", first: " : "", t[k].first);
    fl_sim_free(s);
}

static void test_brute(void)
{
    static const int64_t stops[] = { 3, 40, 137, 400, 1001, 2500 };
    const int nstops = (int)(sizeof stops / sizeof stops[0]);
    Net n;
    FlSimConfig cfg;
    if (uniform_net(&n, &cfg, "mesh:4x4", "dor", 0.3, 4)) {
        brute_case("mesh:4x4 dor 0.3", &n, &cfg, stops, nstops);
        cfg.traffic.rate = 0.9;
        cfg.buf_flits = 2;
        brute_case("mesh:4x4 dor 0.9, 2-flit buffers (long queues)", &n, &cfg, stops, nstops);
        cfg.switching = FL_SWITCHING_VCT;
        cfg.buf_flits = 4;
        cfg.vc_release = FL_VC_RELEASE_TAIL_CREDIT;
        cfg.traffic.rate = 0.5;
        brute_case("mesh:4x4 dor VCT, tail-credit release", &n, &cfg, stops, nstops);
        net_close(&n);
    }
    if (uniform_net(&n, &cfg, "mesh:6x6", "west-first", 0.3, 12)) {
        /* Packets longer than two buffers: heads reach their hosts with
         * bodies still on the way. */
        cfg.selection = FL_SELECT_RANDOM;
        cfg.buf_flits = 4;
        cfg.vcs = 3;
        brute_case("mesh:6x6 west-first random, 12-flit packets", &n, &cfg, stops, nstops);
        net_close(&n);
    }
    if (uniform_net(&n, &cfg, "torus:4x4", "dor", 0.2, 6)) {
        /* Heads on long links and pipeline stalls. */
        fl_sim_config_pipeline(&cfg, "booksim-min", NULL);
        cfg.link_latency = 3;
        cfg.link_cycles_per_flit = 2;
        cfg.vcs = 4;
        cfg.selection = FL_SELECT_CREDITS;
        brute_case("torus:4x4 dor booksim-min, 3-cycle links of 2 cycles a flit", &n, &cfg,
                   stops, nstops);
        net_close(&n);
    }
    if (uniform_net(&n, &cfg, "hypercube:4", "dor", 0.35, 5)) {
        cfg.vcs = 1;
        cfg.buf_flits = 3;
        brute_case("hypercube:4 dor, 1 VC", &n, &cfg, stops, nstops);
        net_close(&n);
    }
    if (uniform_net(&n, &cfg, "irregular:16,ports=4,hosts=2,seed=3", "updown", 0.3, 4)) {
        /* Two hosts a switch: some packets cross no switch-to-switch link. */
        cfg.selection = FL_SELECT_RANDOM;
        brute_case("irregular:16 up*/down* random", &n, &cfg, stops, nstops);
        net_close(&n);
    }
    if (uniform_net(&n, &cfg, "mesh:12x12", "dor", 0.1, 4)) {
        /* Routes of up to 24 channels. */
        static const int64_t far[] = { 60, 300 };
        brute_case("mesh:12x12 dor 0.1", &n, &cfg, far, 2);
        net_close(&n);
    }
    static const char *const what[SEEN_N] = {
        "heads free to move", "heads without a VC", "heads without a credit",
        "heads that lost an arbitration", "heads waiting for a channel or a delay",
        "heads at their hosts, bodies on the way", "heads on links",
        "heads behind another packet in a buffer", "heads behind another packet in a queue",
        "heads past 16 switches",
    };
    for (int k = 0; k < SEEN_N; k++)
        CHECK(cases_met[k] > 0, "the cases met %d %s", cases_met[k], what[k]);
}

/* --- DOR routes are the routing's paths ------------------------------------------ */

static void dor_paths(FlSim *s, const Net *n)
{
    int checked = 0, bad = 0, partial = 0, long_ones = 0;
    /* Corner to corner, so that some routes are long. */
    int last = fl_topology_host_count(n->t) - 1, side = 10;
    for (int i = 0; i < 6; i++) {
        fl_sim_inject(s, 0, last, 6, NULL, NULL);
        fl_sim_inject(s, last, 0, 6, NULL, NULL);
        fl_sim_inject(s, side - 1, last - side + 1, 6, NULL, NULL);
    }
    char first[300] = "";
    static const int64_t gaps[] = { 15, 6, 8, 8, 8, 97, 300, 500 };
    for (int stop = 0; stop < 8; stop++) {
        step(s, gaps[stop]);
        World w;
        world_build(&w, s);
        for (int64_t id = 0; id <= w.max_id; id++) {
            FlPacketView v;
            int route[256], len = 0;
            if (!w.b[id].seen || fl_sim_packet_view(s, id, &v, NULL)
                || fl_sim_packet_route(s, id, route, 256, &len, NULL) || len == 0)
                continue;
            int *path = NULL, np = 0;
            int from = fl_topology_host_switch(n->t, fl_topology_host_node(n->t, v.src_host));
            int to = fl_topology_host_switch(n->t, fl_topology_host_node(n->t, v.dst_host));
            if (from != to && fl_routing_path(n->r, from, to, FL_SELECT_LOWEST_PORT, NULL, &path,
                                              &np, NULL)) {
                bad++;
                continue;
            }
            /* The whole route: injection, the switches' path, ejection. */
            int want[256], nw = 0;
            want[nw++] = injection_channel(n->t, v.src_host);
            for (int i = 0; i < np; i++)
                want[nw++] = path[i];
            want[nw++] = injection_channel(n->t, v.dst_host) ^ 1;
            free(path);
            int ok = len <= nw && memcmp(route, want, sizeof(int) * (size_t)len) == 0;
            if (!ok && !bad++)
                snprintf(first, sizeof first, "packet %lld: %d of %d channels, first differing "
                         "at %d", (long long)id, len, nw, len);
            partial += len < nw;
            long_ones += len > 16;
            checked++;
        }
        world_free(&w);
    }
    CHECK(checked > 50 && partial > 10 && long_ones > 5,
          "mesh:10x10 dor: %d routes compared, %d of them partway, %d past 16 channels", checked,
          partial, long_ones);
    CHECK(bad == 0, "mesh:10x10 dor: every route so far is fl_routing_path's with the host "
          "channels (%d wrong%s%s)", bad, bad ? ": " : "", first);
    /* Part of a route: the first max channels, the full count. */
    World w;
    world_build(&w, s);
    int tried = 0;
    for (int64_t id = 0; id <= w.max_id && !tried; id++) {
        int all[256], some[2] = { -7, -7 }, len = 0, len2 = 0;
        if (!w.b[id].seen || fl_sim_packet_route(s, id, all, 256, &len, NULL) || len < 4)
            continue;
        tried = 1;
        int rc = fl_sim_packet_route(s, id, some, 1, &len2, NULL);
        CHECK(rc == FL_OK && len2 == len && some[0] == all[0] && some[1] == -7,
              "a route of %d channels into room for 1: the first, count %d", len, len2);
    }
    CHECK(tried, "a packet with a route of 4 or more channels to cut short");
    world_free(&w);
}

/* --- hops of long routes -------------------------------------------------------- */

/* Corner to corner through all 23 switches of a 12x12 mesh, a route of 24
 * channels over two chunks of the route store, its head's record written
 * only at the end: every cycle the view counts the switches its head has
 * entered, as its route does, and once the head is home, all of them. */
static void long_hops(FlSim *s, const Net *n)
{
    int last = fl_topology_host_count(n->t) - 1, route[64];
    int64_t id[2] = { -1, -1 };
    fl_sim_inject(s, 0, last, 1, &id[0], NULL);
    fl_sim_inject(s, last, 0, 5, &id[1], NULL);
    int seen[2] = { 0, 0 }, grew[2] = { 0, 0 }, bad = 0, home = 0, before[2] = { 0, 0 };
    for (int t = 0; t < 400 && !bad; t++) {
        step(s, 1);
        for (int k = 0; k < 2; k++) {
            FlPacketView v;
            int len = 0;
            if (fl_sim_packet_view(s, id[k], &v, NULL) || v.injected < 0)
                continue;
            seen[k]++;
            bad += fl_sim_packet_route(s, id[k], route, 64, &len, NULL) || len != v.hops + 1
                   || v.hops < before[k] || v.hops > 23;
            grew[k] += v.hops > before[k];
            before[k] = v.hops;
            home += v.head_delivered && v.hops == 23 && len == 24;
        }
    }
    CHECK(!bad && grew[0] >= 20 && grew[1] >= 20 && home >= 3,
          "corner to corner on mesh:12x12: each cycle's hops are the route's, never fewer than "
          "before (%d wrong), more in %d and %d cycles; the 5-flit head home with 23 hops in %d",
          bad, grew[0], grew[1], home);
}

/* --- the locked ring ------------------------------------------------------------- */

typedef struct RingSim {
    FlSimSettings set;
    FlRoutingOptions ro;
    Net n;
    FlSim *s;
} RingSim;

static int ring_open(RingSim *r)
{
    FlError err = { 0 };
    fl_sim_settings_init(&r->set);
    fl_routing_options_init(&r->ro);
    r->s = NULL;
    const FlSimPreset *p = fl_sim_preset_lookup("ring-deadlock");
    if (!p || fl_sim_preset_apply(p, &r->set, &r->ro, &err)) {
        CHECK(0, "the ring-deadlock preset: %s", p ? err.message : "missing");
        return 0;
    }
    r->n.t = NULL;
    r->n.r = NULL;
    if (fl_topology_from_spec(p->spec, &r->n.t, &err)
        || fl_routing_new(r->n.t, p->routing, &r->ro, &r->n.r, &err)) {
        CHECK(0, "the ring-deadlock preset's network: %s", err.message);
        return 0;
    }
    FlSimConfig cfg = r->set.config;
    cfg.routing = r->n.r;
    r->s = sim_of(&r->n, &cfg);
    return r->s != NULL;
}

static void ring_close(RingSim *r)
{
    fl_sim_free(r->s);
    net_close(&r->n);
    fl_sim_settings_clear(&r->set);
    fl_routing_options_clear(&r->ro);
}

/* The packet a VC of the waits list holds the head back for: its owner
 * unless that is the packet itself (then the front packet of its buffer,
 * which lacks room). */
static int64_t blocker_of(const FlVcView *w, int64_t self)
{
    return w->owner_packet >= 0 && w->owner_packet != self ? w->owner_packet : w->front_packet;
}

static void test_ring_deadlock(void)
{
    RingSim r;
    if (!ring_open(&r)) {
        ring_close(&r);
        return;
    }
    FlSimStatus st = FL_SIM_RUNNING;
    while (st == FL_SIM_RUNNING && fl_sim_cycle(r.s) < 5000)
        if (fl_sim_step(r.s, 100, &st, NULL))
            break;
    CHECK(st == FL_SIM_DEADLOCK, "the ring locks (cycle %lld)", (long long)fl_sim_cycle(r.s));
    int *cyc = NULL, clen = 0;
    fl_sim_deadlock_cycle(r.s, &cyc, &clen, NULL);
    CHECK(clen >= 2, "the watchdog's cycle has %d channels", clen);
    int nchan = fl_sim_channels(r.s);
    char *on_cycle = calloc((size_t)nchan, 1);
    for (int i = 0; i < clen; i++)
        on_cycle[cyc[i]] = 1;

    /* The cycle's packets: those whose heads are in its buffers. */
    World w;
    world_build(&w, r.s);
    int64_t *cycle_pkt = calloc((size_t)w.max_id + 1, sizeof *cycle_pkt);
    char *in_cycle = calloc((size_t)w.max_id + 2, 1);
    int ncp = 0;
    for (int64_t id = 0; id <= w.max_id; id++) {
        FlPacketView v;
        if (!w.b[id].seen || fl_sim_packet_view(r.s, id, &v, NULL)
            || v.head_place != FL_FLIT_BUFFER || v.head_delivered || !on_cycle[v.head_channel])
            continue;
        cycle_pkt[ncp++] = id;
        in_cycle[id] = 1;
    }
    CHECK(ncp >= 2, "%d packets have their heads on the cycle", ncp);

    Tally t[T_N];
    memset(t, 0, sizeof t);
    check_world(t, r.s, r.n.t);
    for (int k = 0; k < T_N; k++)
        CHECK(t[k].bad == 0, "locked ring: %s (%d of %d wrong%s%s)", tally_name[k], t[k].bad,
              t[k].total, t[k].bad ? ", first: " : "", t[k].first);

    /* Each blocked packet of the cycle waits for VCs of the cycle held by
     * other packets of it; and following the first blocker from packet to
     * packet runs round the cycle. */
    int blocked = 0, bad = 0;
    char first[300] = "";
    int64_t next_of[64];
    for (int i = 0; i < ncp && i < 64; i++) {
        FlPacketView v;
        FlVcView waits[16];
        int nw = 0;
        next_of[i] = -1;
        fl_sim_packet_view(r.s, cycle_pkt[i], &v, NULL);
        if (v.stall == FL_STALL_NONE)
            continue;
        blocked++;
        fl_sim_packet_waits(r.s, cycle_pkt[i], waits, 16, &nw, NULL);
        int ok = nw >= 1 && nw <= 16;
        for (int j = 0; j < nw && j < 16 && ok; j++) {
            int64_t b = blocker_of(&waits[j], v.packet);
            ok = b >= 0 && b != v.packet && b <= w.max_id && in_cycle[b]
                 && on_cycle[waits[j].channel];
            if (j == 0)
                next_of[i] = b;
        }
        if (!ok && !bad++)
            snprintf(first, sizeof first, "packet %lld (%s) waits for %d VCs, the first (%d, "
                     "%d) owned by %lld, front %lld", (long long)v.packet,
                     fl_stall_name(v.stall), nw, nw ? waits[0].channel : -1,
                     nw ? waits[0].vc : -1, nw ? (long long)waits[0].owner_packet : -1LL,
                     nw ? (long long)waits[0].front_packet : -1LL);
    }
    CHECK(blocked >= 2, "%d of the %d packets on the cycle are blocked", blocked, ncp);
    CHECK(bad == 0, "each waits for VCs of the cycle held by other packets of it (%d "
          "wrong%s%s)", bad, bad ? ": " : "", first);
    /* From a blocked packet, blockers lead back to one already met. */
    int at = -1;
    for (int i = 0; i < ncp && i < 64 && at < 0; i++)
        if (next_of[i] >= 0)
            at = i;
    int steps = 0, closed = 0;
    char *met = calloc((size_t)ncp + 1, 1);
    while (at >= 0 && steps <= ncp) {
        if (met[at]) {
            closed = 1;
            break;
        }
        met[at] = 1;
        int64_t nx = next_of[at];
        at = -1;
        for (int i = 0; i < ncp && i < 64; i++)
            if (cycle_pkt[i] == nx)
                at = i;
        steps++;
    }
    CHECK(closed && steps >= 2, "following blockers closes a cycle of packets (%d steps)",
          steps);
    free(met);
    free(cycle_pkt);
    free(in_cycle);
    free(on_cycle);
    free(cyc);
    world_free(&w);
    ring_close(&r);
}

/* --- checkpoints --------------------------------------------------------------- */

/* Every packet's view, route and waits, folded into a hash, with the
 * packets that are not found. */
static uint64_t views_hash(const FlSim *s, int64_t max_id)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int64_t id = 0; id <= max_id; id++) {
        FlPacketView v;
        int rc = fl_sim_packet_view(s, id, &v, NULL);
        int64_t head[] = { id, rc };
        hash_values(&h, head, 2);
        if (rc)
            continue;
        const int64_t f[] = { v.src_host, v.dst_host, v.flits, v.measured, v.created,
                              v.injected, v.hops, v.flits_sent, v.flits_delivered,
                              v.head_place, v.head_channel, v.head_vc, v.head_node, v.stall,
                              v.ahead, v.head_position, v.head_delivered, v.head_out_channel,
                              v.head_out_vc };
        hash_values(&h, f, sizeof f / sizeof f[0]);
        int route[256], len = 0;
        fl_sim_packet_route(s, id, route, 256, &len, NULL);
        for (int i = 0; i < len && i < 256; i++) {
            int64_t c = route[i];
            hash_values(&h, &c, 1);
        }
        FlVcView waits[32];
        int n = 0;
        fl_sim_packet_waits(s, id, waits, 32, &n, NULL);
        for (int i = 0; i < n && i < 32; i++) {
            const int64_t wv[] = { waits[i].channel, waits[i].vc, waits[i].owner_packet,
                                   waits[i].front_packet, waits[i].credits };
            hash_values(&h, wv, 5);
        }
    }
    return h;
}

static void test_checkpoints(void)
{
    Net n;
    FlSimConfig cfg;
    if (!uniform_net(&n, &cfg, "mesh:5x5", "west-first", 0.45, 6))
        return;
    cfg.selection = FL_SELECT_RANDOM;
    FlSim *a = sim_of(&n, &cfg), *b = sim_of(&n, &cfg);
    FlSimCheckpoint *c300 = NULL, *c900 = NULL;
    if (!a || !b)
        goto out;
    const int64_t max_id = 1500;
    step(a, 300);
    fl_sim_checkpoint(a, &c300, NULL);
    step(a, 600);
    fl_sim_checkpoint(a, &c900, NULL);
    uint64_t at900 = views_hash(a, max_id);
    step(a, 1100);
    uint64_t at2000 = views_hash(a, max_id);
    step(b, 900);
    CHECK(views_hash(b, max_id) == at900, "a second simulation run to cycle 900 has the same "
          "packet views");
    CHECK(fl_sim_restore(a, c900, NULL) == FL_OK && views_hash(a, max_id) == at900,
          "restored to cycle 900 from 2000: the same packet views as at 900");
    CHECK(fl_sim_restore(a, c300, NULL) == FL_OK && step(a, 600)
          && views_hash(a, max_id) == at900,
          "restored to 300 and run to 900: the same packet views");
    step(a, 1100);
    step(b, 1100);
    CHECK(views_hash(a, max_id) == at2000 && views_hash(b, max_id) == at2000,
          "and on to 2000, as the first time");
    FlitHash fa = flit_hash(a), fb = flit_hash(b);
    CHECK(fa.h == fb.h && fa.count == fb.count, "with the same flits (%d)", fa.count);
out:
    fl_sim_checkpoint_free(c300);
    fl_sim_checkpoint_free(c900);
    fl_sim_free(a);
    fl_sim_free(b);
    net_close(&n);
}

/* --- errors and delivered packets ------------------------------------------------ */

typedef struct GoneLog {
    int delivered, found;
} GoneLog;

/* A delivered packet is gone by the time the hook hears of it. */
static int gone_hook(FlSim *s, const FlSimHookInfo *info, void *data)
{
    GoneLog *g = data;
    FlPacketView v;
    g->delivered++;
    if (fl_sim_packet_view(s, info->packet, &v, NULL) != FL_ENOTFOUND)
        g->found++;
    return 0;
}

static void errors(FlSim *s, const Net *n)
{
    FlPacketView v;
    FlVcView vv[4];
    int len = 0, cnt = 0;
    FlError err;
    CHECK(fl_sim_packet_view(NULL, 0, &v, &err) == FL_EINVAL, "no simulation: %s",
          err.message);
    CHECK(fl_sim_packet_view(s, 0, NULL, &err) == FL_EINVAL, "no view: %s", err.message);
    CHECK(fl_sim_packet_view(s, 0, &v, &err) == FL_ENOTFOUND && strstr(err.message, "not made"),
          "at cycle 0 no packet is made: %s", err.message);
    CHECK(fl_sim_packet_view(s, -1, &v, &err) == FL_ENOTFOUND, "packet -1: %s", err.message);
    CHECK(fl_sim_packet_route(s, 0, NULL, 1, &len, &err) == FL_EINVAL,
          "a route into no array: %s", err.message);
    CHECK(fl_sim_packet_route(s, 0, NULL, 0, NULL, &err) == FL_EINVAL, "no length: %s",
          err.message);
    CHECK(fl_sim_packet_waits(s, 0, vv, -1, &cnt, &err) == FL_EINVAL, "a negative max: %s",
          err.message);

    int64_t id = -1;
    fl_sim_inject(s, 2, 13, 5, &id, NULL);
    CHECK(fl_sim_packet_view(s, id, &v, &err) == FL_OK && v.head_place == FL_FLIT_SOURCE_QUEUE
          && v.injected == -1 && v.flits_sent == 0 && v.src_host == 2 && v.dst_host == 13
          && v.flits == 5 && v.hops == 0,
          "an injected packet, queued: %s", err.message);
    CHECK(fl_sim_packet_route(s, id, NULL, 0, &len, NULL) == FL_OK && len == 0,
          "its route is empty (%d)", len);

    GoneLog g = { 0, 0 };
    fl_sim_set_hook(s, FL_SIM_HOOK_DELIVERED, 0, gone_hook, &g, NULL);
    step(s, 300);
    CHECK(g.delivered > 10 && g.found == 0, "%d delivered packets, none found in the hook "
          "(%d)", g.delivered, g.found);
    CHECK(fl_sim_packet_view(s, id, &v, &err) == FL_ENOTFOUND && strstr(err.message, "delivered"),
          "the injected packet is delivered: %s", err.message);
}

/* A view's stall, counted when it is a lost arbitration. */
static void count_lost(void *data, const FlFlitView *f)
{
    *(int64_t *)data += f->stall == FL_STALL_ARBITRATION;
}

/* Every flit's view, after every cycle of runs that take every path of
 * the switch allocators (one VC sending, two crossing, several; losers
 * recorded for the view) and of VC allocation, the same as ever: the
 * hashes were taken from the code before the allocators' paths for one
 * and two requests. */
static void test_pinned_views(void)
{
    struct {
        const char *spec, *routing, *pipeline;
        double rate;
        int packet, vcs, vct;
        uint64_t hash;
    } cases[] = {
        { "mesh:8x8", "dor", "booksim-min", 0.3, 8, 2, 0, 0xd54813888068358bULL },
        { "mesh:8x8", "dor", "default", 0.45, 4, 2, 0, 0xd2966acb1a8d1031ULL },
        { "mesh:8x8", "dor", "booksim-min", 0.45, 8, 2, 0, 0x3b62b52486385836ULL },
        { "torus:8x8", "dor", "default", 0.3, 8, 4, 0, 0x8500f1d760f550e8ULL },
        { "mesh:8x8", "west-first", "default", 0.35, 16, 3, 1, 0x1ee645a325d674e9ULL },
        { "mesh:8x8", "odd-even", "booksim-min", 0.3, 4, 2, 0, 0x957fafe77fb04907ULL },
        { "mesh:8x8", "dor", "3:2:1:0:2", 0.3, 4, 2, 0, 0x5fd0e12e40d12be8ULL },
        { "hypercube:6", "dor", "default", 0.4, 2, 2, 0, 0x97c0924524eff0c5ULL },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Net n;
        if (!net_open(&n, cases[k].spec, cases[k].routing))
            continue;
        FlSimConfig cfg;
        fl_sim_config_init(&cfg);
        cfg.routing = n.r;
        fl_sim_config_pipeline(&cfg, cases[k].pipeline, NULL);
        cfg.traffic.pattern = "uniform";
        cfg.traffic.rate = cases[k].rate;
        cfg.traffic.packet_flits = cases[k].packet;
        cfg.vcs = cases[k].vcs;
        if (cases[k].vct) {
            cfg.switching = FL_SWITCHING_VCT;
            cfg.buf_flits = 16;
        }
        cfg.warmup_cycles = 200;
        cfg.measure_cycles = 2000;
        cfg.seed = 7;
        FlSim *s = sim_of(&n, &cfg);
        uint64_t h = 0xcbf29ce484222325ULL;
        int64_t lost = 0;
        FlError err;
        for (int t = 0; s && t < 1200; t++) {
            fl_sim_step(s, 1, NULL, &err);
            h = (h ^ flit_hash(s).h) * 0x100000001b3ULL;
            fl_sim_foreach_flit(s, 1000, count_lost, &lost);
        }
        CHECK(s && h == cases[k].hash && lost > 100,
              "%s / %s, %s at %g: every flit's view after every cycle as ever (0x%016llx), "
              "%lld lost arbitrations among them", cases[k].spec, cases[k].routing,
              cases[k].pipeline, cases[k].rate, (unsigned long long)h, (long long)lost);
        fl_sim_free(s);
        net_close(&n);
    }
}

int main(void)
{
    with_uniform("mesh:4x4", "dor", 0.2, 4, errors);
    test_brute();
    with_uniform("mesh:10x10", "dor", 0.2, 6, dor_paths);
    with_uniform("mesh:12x12", "dor", 0.05, 4, long_hops);
    test_ring_deadlock();
    test_checkpoints();
    test_pinned_views();
    return tap_done();
}
