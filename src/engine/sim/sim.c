/* sim.c — the flit-level simulator: configuration, set-up, the cycle loop,
 * hooks, injection by the caller and the warm-up / measurement / drain
 * run. The model is described in sim-internal.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim-internal.h"
#include "traffic-internal.h"

/* Salt that derives the traffic's random stream from the seed, so that
 * selection and traffic draws never share a stream. */
#define TRAFFIC_STREAM_SALT 0x5452414646494321ULL

/* The longest link, in cycles (see check_config). */
#define MAX_LINK_LATENCY (1 << 20)

const char *fl_sim_status_name(FlSimStatus s)
{
    switch (s) {
    case FL_SIM_OK:
        return "ok";
    case FL_SIM_DEADLOCK:
        return "deadlock";
    case FL_SIM_SATURATED:
        return "saturated";
    case FL_SIM_RUNNING:
        return "running";
    }
    return "unknown";
}

/* --- validation ----------------------------------------------------------- */

static int longest_packet(const FlTrafficConfig *tc)
{
    int len = tc->packet_flits;
    if (tc->packet_flits_long > len)
        len = tc->packet_flits_long;
    if (tc->pattern && strcmp(tc->pattern, "trace") == 0)
        for (int64_t i = 0; i < tc->n_trace; i++)
            if (tc->trace[i].flits > len)
                len = tc->trace[i].flits;
    return len;
}

static int check_config(const FlTopology *t, const FlSimConfig *cfg, FlError *err)
{
    if (!t || !cfg)
        return fl_error_set(err, FL_EINVAL, "no topology or configuration");
    if (!cfg->routing)
        return fl_error_set(err, FL_EINVAL, "routing: none given");
    if (fl_routing_topology(cfg->routing) != t)
        return fl_error_set(err, FL_EINVAL, "routing: built on another topology");
    if (t->n_hosts < 1)
        return fl_error_set(err, FL_EINVAL, "topology: has no hosts to send traffic");
    int classes = fl_routing_vc_classes(cfg->routing);
    if (cfg->vcs < 1)
        return fl_error_set(err, FL_ERANGE, "vcs: must be at least 1, not %d", cfg->vcs);
    if (cfg->vcs < classes)
        return fl_error_set(err, FL_ERANGE, "vcs: routing '%s' needs %d VC classes, got %d VCs",
                            fl_routing_get_info(cfg->routing)->name, classes, cfg->vcs);
    if (cfg->vcs > 64)
        return fl_error_set(err, FL_ERANGE, "vcs: at most 64, not %d", cfg->vcs);
    if (cfg->buf_flits < 1)
        return fl_error_set(err, FL_ERANGE, "buf: must be at least 1 flit, not %d",
                            cfg->buf_flits);
    const FlTrafficConfig *tc = &cfg->traffic;
    if (!(tc->rate >= 0.0 && tc->rate <= 1.0))
        return fl_error_set(err, FL_ERANGE, "rate: must be within [0, 1] flits/cycle/host, not %g",
                            tc->rate);
    if (tc->packet_flits < 1)
        return fl_error_set(err, FL_ERANGE, "packet: must be at least 1 flit, not %d",
                            tc->packet_flits);
    int len = longest_packet(tc);
    if (cfg->switching == FL_SWITCHING_VCT && cfg->buf_flits < len)
        return fl_error_set(err, FL_ERANGE,
                            "buf: virtual cut-through needs room for a whole packet "
                            "(%d flits), got %d", len, cfg->buf_flits);
    /* A flit in flight is due within the link latency and the pipeline
     * delays: well inside the 2^31 cycles a slot's arrival cycle can tell
     * (fl__sim_slot_ready), and an ejection ring, which holds what can be
     * in flight, stays small. */
    if (cfg->link_latency < 1 || cfg->link_latency > MAX_LINK_LATENCY)
        return fl_error_set(err, FL_ERANGE, "link-latency: must be 1 to %d cycles, not %d",
                            MAX_LINK_LATENCY, cfg->link_latency);
    if (cfg->link_cycles_per_flit < 1)
        return fl_error_set(err, FL_ERANGE, "link-cycles-per-flit: must be at least 1, not %d",
                            cfg->link_cycles_per_flit);
    const struct { const char *name; int value; } delays[] = {
        { "routing-delay", cfg->routing_delay }, { "vc-alloc-delay", cfg->vc_alloc_delay },
        { "sw-alloc-delay", cfg->sw_alloc_delay }, { "xbar-delay", cfg->xbar_delay },
        { "credit-delay", cfg->credit_delay },
    };
    for (size_t i = 0; i < sizeof delays / sizeof delays[0]; i++)
        if (delays[i].value < 0 || delays[i].value > 1000)
            return fl_error_set(err, FL_ERANGE, "%s: must be 0 to 1000 cycles, not %d",
                                delays[i].name, delays[i].value);
    if (cfg->threads < 1 || cfg->threads > FL_SIM_MAX_THREADS)
        return fl_error_set(err, FL_ERANGE, "threads: must be 1 to %d, not %d",
                            FL_SIM_MAX_THREADS, cfg->threads);
    const struct {
        const char *name;
        int64_t value, min;
    } spans[] = {
        { "warmup", cfg->warmup_cycles, 0 },
        { "measure", cfg->measure_cycles, 1 },
        { "drain", cfg->drain_cycles, 0 },
        { "watchdog", cfg->deadlock_cycles, 1 },
    };
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++)
        if (spans[i].value < spans[i].min || spans[i].value > FL_SIM_MAX_CYCLES)
            return fl_error_set(err, FL_ERANGE, "%s: must be %lld to %lld cycles, not %lld",
                                spans[i].name, (long long)spans[i].min,
                                (long long)FL_SIM_MAX_CYCLES, (long long)spans[i].value);
    return FL_OK;
}

/* --- set-up ------------------------------------------------------------- */

/* The state block's alignment: a cache line, so that each 64-byte SimVc
 * record is one line rather than parts of two. */
#define STATE_ALIGN ((size_t)64)

/* Lays out one array of the state block: with base NULL only sizes it.
 * Arrays of records start on a cache line, the rest on 8 bytes. */
static void *carve(char *base, size_t *off, size_t count, size_t elem)
{
    size_t align = elem >= 16 ? STATE_ALIGN : 8;
    size_t at = (*off + align - 1) & ~(align - 1);
    *off = at + count * elem;
    return base ? base + at : NULL;
}

/* Carves every mutable array out of s->state (or, with base NULL, only
 * computes the block's size). */
static size_t layout_state(FlSim *s, char *base)
{
    size_t off = 0, nv = (size_t)s->n_vc, nc = (size_t)s->n_chan, nn = (size_t)s->n_nodes,
           nh = (size_t)s->n_hosts, ns = (size_t)s->n_slots;
    s->vc = carve(base, &off, nv, sizeof(SimVc));
    s->outvc = carve(base, &off, nv, sizeof(SimOutVc));
    s->slot = carve(base, &off, ns, sizeof(SimSlot));
    s->chan_free = carve(base, &off, nc, sizeof(int64_t));
    s->credits = carve(base, &off, nv, sizeof(int32_t));
    s->port = carve(base, &off, nc, sizeof(SimPort));
    s->sink_mask = carve(base, &off, (size_t)s->mask_base[nn], sizeof(uint64_t));
    s->out_mask = carve(base, &off, (size_t)s->mask_base[nn], sizeof(uint64_t));
    s->ready_mask = carve(base, &off, (size_t)s->mask_base[nn], sizeof(uint64_t));
    s->parked = carve(base, &off, nv, sizeof(uint64_t));
    s->wheel = carve(base, &off, (size_t)s->n_lanes * (size_t)s->wheel_len, sizeof(int32_t));
    s->wake_next = carve(base, &off, nv, sizeof(int32_t));
    s->route_memo = carve(base, &off, nv, sizeof(int32_t));
    s->active[SIM_SWITCHES] = carve(base, &off, (nn + 63) / 64, sizeof(uint64_t));
    s->active[SIM_HOSTS] = carve(base, &off, (nn + 63) / 64, sizeof(uint64_t));
    s->host_blocked = carve(base, &off, (nn + 63) / 64, sizeof(uint64_t));
    s->host_due = carve(base, &off, ((size_t)s->host_due_mask + 1) * ((nn + 63) / 64),
                        sizeof(uint64_t));
    s->q_head = carve(base, &off, nh, sizeof(int32_t));
    s->q_tail = carve(base, &off, nh, sizeof(int32_t));
    s->stored = carve(base, &off, nh, sizeof(int32_t));
    s->host_vc = carve(base, &off, nh, sizeof(int32_t));
    s->host_rr = carve(base, &off, nh, sizeof(int32_t));
    s->cq = carve(base, &off, (size_t)s->cq_all, sizeof(SimCredit));
    s->cq_pos = carve(base, &off, 2 * (size_t)s->n_lanes, sizeof(int64_t));
    s->host_accepted = carve(base, &off, nh, sizeof(int64_t));
    /* Last: rarely written, and the hot arrays keep their places. */
    s->lost = carve(base, &off, nv, sizeof(uint32_t));
    s->wait_list = carve(base, &off, nv, sizeof(int32_t));
    s->wait_pos = carve(base, &off, nv, sizeof(int32_t));
    s->chan_flits_open = carve(base, &off, nc, sizeof(int64_t));
    s->chan_flits_close = carve(base, &off, nc, sizeof(int64_t));
    return off;
}

/* The initial state: empty buffers, full credits, free VCs; and each VC's
 * fixed facts, which share its record. */
static void reset_state(FlSim *s)
{
    memset(s->state, 0, s->state_bytes);
    int V = s->V;
    int64_t slot = 0;
    for (int iv = 0; iv < s->n_vc; iv++) {
        SimVc *q = &s->vc[iv];
        /* VCs are numbered in input order (see FlSim.chan_vc). */
        int c = s->in_chan[iv / V];
        q->out = -1;
        s->outvc[iv] = (SimOutVc){ -1, -1, 0, 0 };
        /* An ejection VC has one credit while its ring has room (see
         * send_flit() in sim-router.c): switch allocation then asks every
         * output VC for a credit. */
        s->credits[iv] = s->chan_sink[c] ? 1 : s->chan_cap[c];
        q->ring_base = (int32_t)slot;
        q->mask = (int32_t)(fl__sim_ring_length(s->chan_cap[c]) - 1);
        slot += q->mask + 1;
        q->v = (uint8_t)(iv % V);
        q->sink = s->chan_sink[c];
        /* Hosts are visited as lane 0 (see Lanes). */
        int from = s->chan_dst[c ^ 1];
        int from_lane = s->node_host[from] >= 0 ? 0 : s->node_lane[from];
        q->held = !q->sink && from_lane != s->node_lane[s->chan_dst[c]];
    }
    for (int n = 0; n < s->n_nodes; n++) {
        int nloc = (s->in_off[n + 1] - s->in_off[n]) * V;
        for (int loc = 0; loc < nloc; loc++) {
            SimVc *q = &s->vc[s->in_off[n] * V + loc];
            q->node = n;
            q->li = (uint8_t)(loc / V);
            q->mask_pos = (s->mask_base[n] + loc / 64) * 64 + loc % 64;
            /* The channel that leaves n by this input's port. */
            int out = s->chan_vc[s->in_chan[s->in_off[n] + loc / V] ^ 1] + loc % V;
            s->outvc[out].port = (uint8_t)(loc / V);
        }
    }
    for (int c = 0; c < s->n_chan; c++)
        /* Port k of a node is its input k, whose link's other channel is
         * the output. */
        s->port[c] = (SimPort){ .out_rr = -1, .in_rr = -1,
                                .out_vc0 = s->chan_vc[s->in_chan[c] ^ 1] };
    for (int h = 0; h < s->n_hosts; h++) {
        s->q_head[h] = s->q_tail[h] = -1;
        s->host_vc[h] = -1;
        s->host_rr[h] = -1;
    }
    memset(&s->sc, 0, sizeof s->sc);
    fl_rng_seed(&s->sc.rng, s->cfg.seed);
    fl_rng_seed(&s->sc.traffic_rng, s->cfg.seed ^ TRAFFIC_STREAM_SALT);
    s->sc.status = FL_SIM_RUNNING;
    s->sc.free_head = -1;
    s->sc.route_used = 1;   /* chunk 0 is never handed out */
    s->sc.route_free = 0;
    s->sc.queued_at_open = -1;
    s->sc.counting = 1;
    /* The window opens when the cycle counter reaches the warm-up's end:
     * with no warm-up, now. */
    if (s->cfg.warmup_cycles == 0)
        fl__sim_stats_open(s);
}

/* Topology-derived tables: input channels per node, channel kinds, ring
 * positions, hosts, VC classes. */
static int build_tables(FlSim *s)
{
    const FlTopology *t = s->t;
    int nc = s->n_chan, nn = s->n_nodes, nh = s->n_hosts, V = s->V;
    s->in_off = calloc((size_t)nn + 1, sizeof(int));
    s->in_chan = malloc(sizeof(int) * (size_t)(nc ? nc : 1));
    s->chan_dst = malloc(sizeof(int) * (size_t)(nc ? nc : 1));
    s->chan_sink = calloc((size_t)nc + 1, 1);
    s->chan_s2s = calloc((size_t)nc + 1, 1);
    s->chan_cap = malloc(sizeof(int) * (size_t)(nc ? nc : 1));
    s->node_host = malloc(sizeof(int) * (size_t)nn);
    s->host_node = malloc(sizeof(int) * (size_t)nh);
    s->host_inj = malloc(sizeof(int) * (size_t)nh);
    s->host_ej = malloc(sizeof(int) * (size_t)nh);
    s->host_switch = malloc(sizeof(int) * (size_t)nh);
    s->class_lo = malloc(sizeof(int) * (size_t)(s->K + 1));
    s->vc_class = malloc(sizeof(int) * (size_t)V);
    s->vc_win = malloc(sizeof(int) * (size_t)(s->n_vc ? s->n_vc : 1));
    if (!s->in_off || !s->in_chan || !s->chan_dst || !s->chan_sink || !s->chan_s2s
        || !s->chan_cap || !s->node_host || !s->host_node || !s->host_inj
        || !s->host_ej || !s->host_switch || !s->class_lo || !s->vc_class || !s->vc_win)
        return FL_ENOMEM;

    /* Ejection rings hold what can be in flight: one flit enters per cycle
     * at most and stays send_delay cycles; on links longer than
     * SIM_SINK_ROOM allows, the host has that much room (see
     * sim-internal.h), so that memory does not grow with the latency. */
    int sink_cap = s->send_delay + 2 < SIM_SINK_ROOM ? s->send_delay + 2 : SIM_SINK_ROOM;
    for (int c = 0; c < nc; c++) {
        int src = fl__chan_src(t, c), dst = fl__chan_dst(t, c);
        s->chan_dst[c] = dst;
        s->chan_sink[c] = t->kind[dst] == FL_NODE_HOST;
        s->chan_s2s[c] = t->kind[src] == FL_NODE_SWITCH && t->kind[dst] == FL_NODE_SWITCH;
        s->chan_cap[c] = s->chan_sink[c] ? sink_cap : s->cfg.buf_flits;
        s->in_off[dst + 1]++;
    }
    for (int n = 0; n < nn; n++) {
        if (s->in_off[n + 1] > s->max_in)
            s->max_in = s->in_off[n + 1];
        s->in_off[n + 1] += s->in_off[n];
    }
    /* Input channels in port order, so arbitration order is the port order. */
    int *fill = calloc((size_t)nn, sizeof(int));
    if (!fill)
        return FL_ENOMEM;
    for (int n = 0; n < nn; n++)
        for (int p = 0; p < t->nports[n]; p++) {
            int l = t->port_link[t->port_base[n] + p];
            if (l < 0)
                continue;
            int e = t->link_end[4 * l] == n && t->link_end[4 * l + 1] == p ? 0 : 1;
            /* The channel arriving here runs from the other end to n. */
            int c = e == 0 ? 2 * l + 1 : 2 * l;
            s->in_chan[s->in_off[n] + fill[n]++] = c;
        }
    free(fill);
    int64_t slot = 0;
    for (int c = 0; c < nc; c++)
        slot += V * fl__sim_ring_length(s->chan_cap[c]);
    for (int iv = 0; iv < s->n_vc; iv++)
        s->vc_win[iv] = -1;
    s->n_slots = slot;
    for (int n = 0; n < nn; n++)
        s->node_host[n] = -1;
    for (int h = 0; h < nh; h++) {
        int node = t->host_nodes[h];
        int l = t->port_link[t->port_base[node]];
        s->host_node[h] = node;
        s->node_host[node] = h;
        s->host_inj[h] = fl__out_channel(t, node, 0);
        s->host_ej[h] = s->host_inj[h] ^ 1;
        s->host_switch[h] = fl__link_other(t, l, node);
    }
    for (int k = 0; k <= s->K; k++)
        s->class_lo[k] = k * V / s->K;
    for (int k = 0; k < s->K; k++)
        for (int v = s->class_lo[k]; v < s->class_lo[k + 1]; v++)
            s->vc_class[v] = k;
    s->chan_vc = malloc(sizeof(int32_t) * (size_t)(nc + 1));
    s->vc_chan = malloc(sizeof(int32_t) * (size_t)nc * (size_t)V);
    s->mask_base = malloc(sizeof(int) * ((size_t)nn + 1));
    if (!s->chan_vc || !s->vc_chan || !s->mask_base)
        return FL_ENOMEM;
    for (int k = 0; k < nc; k++) {
        s->chan_vc[s->in_chan[k]] = k * V;
        for (int v = 0; v < V; v++)
            s->vc_chan[k * V + v] = s->in_chan[k];
    }
    s->mask_base[0] = 0;
    for (int n = 0; n < nn; n++) {
        int nloc = (s->in_off[n + 1] - s->in_off[n]) * V;
        s->mask_base[n + 1] = s->mask_base[n] + (nloc + 63) / 64;
        /* Each VC's mask bit position must fit its int32_t. */
        if (s->mask_base[n + 1] > INT32_MAX / 64)
            return FL_ENOMEM;
    }
    if (fl__routing_by_destination(s->cfg.routing) && t->n_switches <= SIM_ROUTE_TABLE_MAX
        && s->max_in < 255) {
        s->n_switches = t->n_switches;
        s->switch_rank = malloc(sizeof(int32_t) * (size_t)nn);
        s->route_table = calloc((size_t)s->n_switches * (size_t)s->n_switches, 1);
        if (!s->switch_rank || !s->route_table)
            return FL_ENOMEM;
        for (int n = 0; n < nn; n++)
            s->switch_rank[n] = -1;
        for (int i = 0; i < s->n_switches; i++)
            s->switch_rank[t->switch_nodes[i]] = i;
    }
    s->class0_vcs = s->class_lo[1];
    s->keep_routes = 1;
    s->node_at = malloc(sizeof *s->node_at * (size_t)nn);
    if (!s->node_at)
        return FL_ENOMEM;
    for (int n = 0; n < nn; n++)
        s->node_at[n] = (SimNodeAt){
            s->in_off[n], s->in_off[n] * V, s->mask_base[n], s->mask_base[n + 1],
            s->in_off[n + 1] - s->in_off[n], -1,
            s->route_table && s->switch_rank[n] >= 0 ? s->switch_rank[n] * s->n_switches : 0, 0
        };
    /* A switch's one host: set for the first, unset by a second (-2). */
    for (int h = 0; h < nh; h++) {
        int32_t *ej = &s->node_at[s->host_switch[h]].ej;
        *ej = *ej == -1 ? s->host_ej[h] : -2;
    }
    for (int n = 0; n < nn; n++)
        if (s->node_at[n].ej < -1)
            s->node_at[n].ej = -1;
    return fl__sim_lanes_plan(s);
}

int fl_sim_new(const FlTopology *t, const FlSimConfig *cfg, FlSim **out, FlError *err)
{
    int rc = check_config(t, cfg, err);
    if (rc)
        return rc;
    for (int h = 0; h < t->n_hosts; h++) {
        int node = t->host_nodes[h];
        if (t->port_link[t->port_base[node]] < 0)
            return fl_error_set(err, FL_EINVAL, "topology: host %d is not attached to a switch",
                                fl_topology_node_label(t, node));
    }
    FlSim *s = calloc(1, sizeof *s);
    if (!s)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    s->t = t;
    s->cfg = *cfg;
    s->V = cfg->vcs;
    s->K = fl_routing_vc_classes(cfg->routing);
    if (s->K < 1)
        s->K = 1;
    s->n_chan = 2 * t->n_links;
    s->n_vc = s->n_chan * s->V;
    s->n_nodes = t->n_nodes;
    s->n_hosts = t->n_hosts;
    s->send_delay = cfg->sw_alloc_delay + cfg->xbar_delay + cfg->link_latency;
    s->multi_cycle_links = cfg->link_cycles_per_flit > 1;
    s->plain = cfg->routing_delay == 0 && cfg->vc_alloc_delay == 0 && cfg->credit_delay == 0
               && !s->multi_cycle_links && cfg->switching == FL_SWITCHING_WORMHOLE
               && cfg->vc_release == FL_VC_RELEASE_TAIL_SENT;
    s->inject_delay = cfg->xbar_delay + cfg->link_latency;
    /* A VC waits at most a flit's way and the routing delay, or the VC
     * allocation delay, to become ready (see Readiness); longer waits go
     * round the wheel, which is kept small. */
    int64_t wait = (s->send_delay > s->inject_delay ? s->send_delay : s->inject_delay)
                   + cfg->routing_delay;
    if (cfg->vc_alloc_delay > wait)
        wait = cfg->vc_alloc_delay;
    s->wheel_len = 1;
    while (s->wheel_len <= wait && s->wheel_len < SIM_WHEEL_MAX)
        s->wheel_len *= 2;
    s->wheel_wraps = s->wheel_len <= wait;
    /* A flit sent into an ejection VC wakes its host send_delay cycles
     * later, as it arrives: a bitmap of hosts per cycle it may be on its
     * way, unless that is too many (see Hosts). */
    int due = 1;
    while (due <= s->send_delay)
        due *= 2;
    if (due > SIM_HOST_DUE_MAX) {
        due = 1;
        s->host_stay = ~(uint64_t)0;
    }
    s->host_due_mask = due - 1;
    s->max_len = longest_packet(&cfg->traffic);
    s->queue_keep = SIM_QUEUE_BUDGET / s->n_hosts > SIM_QUEUE_KEEP
                        ? SIM_QUEUE_BUDGET / s->n_hosts : SIM_QUEUE_KEEP;
    s->win_end = cfg->warmup_cycles + cfg->measure_cycles;
    /* After the last move, a flit or credit may still be on its way for
     * the link and pipeline delays: quiet for that long is not yet a
     * lock. */
    int64_t flight = cfg->routing_delay + cfg->vc_alloc_delay + cfg->sw_alloc_delay
                     + cfg->xbar_delay + cfg->link_latency + cfg->credit_delay
                     + (int64_t)cfg->link_cycles_per_flit + 2;
    s->quiet_span = cfg->deadlock_cycles > flight ? cfg->deadlock_cycles : flight;
    rc = fl_traffic_new(t, &cfg->traffic, cfg->seed, &s->traffic, err);
    if (rc)
        goto fail_sim;
    /* Trace traffic was copied by fl_traffic_new; the simulator keeps no
     * pointer into the caller's events or their file's name. */
    s->cfg.traffic.trace = NULL;
    s->cfg.traffic.n_trace = 0;
    s->cfg.traffic.trace_name = NULL;
    rc = build_tables(s);
    if (rc)
        goto fail_nomem;
    /* The plain visits take a node's VCs to be the bits of one mask word,
     * word n for node n (no node without inputs). */
    if ((int64_t)s->max_in * s->V > 64 || s->mask_base[s->n_nodes] != s->n_nodes)
        s->plain = 0;
    /* A VC's record keeps its ring start in 32 bits and its input index in
     * 16, far beyond any network that fits in memory. */
    if (s->n_slots > INT32_MAX || s->max_in > INT16_MAX) {
        rc = fl_error_set(err, FL_ERANGE, "buf: %lld buffer slots over %d VCs are too many to "
                          "simulate", (long long)s->n_slots, s->n_vc);
        goto fail_sim;
    }
    s->state_bytes = layout_state(s, NULL);
    /* aligned_alloc wants a multiple of the alignment. */
    s->state = aligned_alloc(STATE_ALIGN, (s->state_bytes + STATE_ALIGN) & ~(STATE_ALIGN - 1));
    if (!s->state)
        goto fail_nomem;
    layout_state(s, s->state);
    fl__sim_lanes_attach(s);
    s->pool_cap = 64 + 4 * s->n_hosts;
    s->pool = malloc(sizeof *s->pool * (size_t)s->pool_cap);
    if (!s->pool || fl__sim_stats_alloc(s) || fl__sim_packets_alloc(s))
        goto fail_nomem;
    reset_state(s);
    *out = s;
    return FL_OK;

fail_nomem:
    rc = fl_error_set(err, FL_ENOMEM, "out of memory");
fail_sim:
    fl_sim_free(s);
    return rc;
}

void fl_sim_free(FlSim *s)
{
    if (!s)
        return;
    fl_traffic_free(s->traffic);
    free(s->in_off);
    free(s->in_chan);
    free(s->chan_dst);
    free(s->chan_sink);
    free(s->chan_s2s);
    free(s->chan_cap);
    free(s->node_host);
    free(s->host_node);
    free(s->host_inj);
    free(s->host_ej);
    free(s->host_switch);
    free(s->class_lo);
    free(s->vc_class);
    free(s->vc_win);
    free(s->node_at);
    free(s->switch_rank);
    free(s->route_table);
    free(s->chan_vc);
    free(s->vc_chan);
    free(s->mask_base);
    fl__sim_lanes_free(s);
    free(s->state);
    free(s->pool);
    fl__sim_packets_free(s);
    free(s->lat_hist);
    free(s->net_hist);
    free(s->delivered);
    free(s);
}

/* --- the cycle loop ------------------------------------------------------- */

/* A credit of VC ov reaches its sender; under FL_VC_RELEASE_TAIL_CREDIT
 * (drains) the last one frees a draining VC. */
static inline void credit_arrives(FlSim *s, int ov, int drains)
{
    int32_t got = ++s->credits[ov];
    if (drains) {
        SimOutVc *o = &s->outvc[ov];
        /* Credits return only to VCs into switches, of buf_flits. */
        if (o->owner == -2 && got == s->cfg.buf_flits)
            o->owner = -1;
    }
}

/* The input VC holding output VC ov, which waited for a credit out of
 * the ready set (see wait_credit() in sim-router.c), has it: it leaves
 * the wait list and is ready again, before this cycle's visits. */
static void credit_wait_over(FlSim *s, int ov)
{
    int at = s->wait_pos[ov] - 1;
    int32_t last = s->wait_list[--s->sc.credit_waits];
    s->wait_list[at] = last;
    s->wait_pos[last] = at + 1;
    s->wait_pos[ov] = 0;
    fl__sim_ready(s, &s->vc[s->outvc[ov].owner]);
}

/* Ends the credit waits that the n credits of cq, just arrived, end:
 * looking through the waits when they are at most a quarter as many as
 * the credits (light traffic: the odd VC that waits), else through the
 * credits. */
__attribute__((noinline)) static void credits_wake(FlSim *s, const SimCredit *cq, int64_t n)
{
    if (s->sc.credit_waits * 4 <= n) {
        /* Downwards: a VC taken out of the list is replaced by the last,
         * already seen. */
        for (int64_t i = s->sc.credit_waits - 1; i >= 0; i--)
            if (s->credits[s->wait_list[i]] > 0)
                credit_wait_over(s, s->wait_list[i]);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        if (s->wait_pos[cq[i].vc])
            credit_wait_over(s, cq[i].vc);
}

/* Credits of lane l's switches whose time has come reach their senders.
 * They were queued in departure order with one common delay, so the queue
 * is sorted by due cycle; credits add up, so lanes may come in any
 * order. */
static void credits_arrive(FlSim *s, int l)
{
    /* The queue's ends in locals: the credit counts are int32_t stores the
     * compiler would otherwise assume change them. */
    SimCredit *cq;
    int64_t wrap, *at_head, *at_count;
    fl__sim_lane_queue(s, l, &cq, &wrap, &at_head, &at_count);
    const int64_t cap = wrap + 1;
    const uint32_t now = (uint32_t)s->sc.cycle;
    /* Only this release policy drains VCs (owner -2): the others need not
     * read the VC's output record. */
    const int drains = s->cfg.vc_release == FL_VC_RELEASE_TAIL_CREDIT;
    int64_t head = *at_head, left = *at_count;
    /* With no credit delay all are due, from the queue's start. */
    if (s->cfg.credit_delay == 0) {
        for (int64_t i = 0; i < left; i++)
            credit_arrives(s, cq[i].vc, drains);
        *at_count = 0;
        if (s->sc.credit_waits)
            credits_wake(s, cq, left);
        return;
    }
    /* The credits due lie in at most two runs of the ring, before and
     * after it wraps: each is walked without wrapping or counting. */
    while (left > 0) {
        const SimCredit *c = cq + head, *end = c + (cap - head < left ? cap - head : left);
        while (c < end && (int32_t)(c->due - now) <= 0)
            credit_arrives(s, c++->vc, drains);
        int64_t done = c - (cq + head);
        head = (head + done) & wrap;
        left -= done;
        if (c < end)
            break;
    }
    *at_head = head;
    *at_count = left;
}

/* Counts a packet made now at host src: offered, made, waiting, and
 * measured when made in the window (under FL_MEASURE_BOOKSIM, when its
 * turn comes: fl__sim_stats_turn). */
static inline void count_packet(FlSim *s, int flits)
{
    SimScalars *sc = &s->sc;
    if (sc->counting)
        sc->offered_flits += flits;
    sc->created_packets++;
    sc->created_flits += flits;
    if (s->cfg.measure_rule == FL_MEASURE_CREATED)
        sc->measured_outstanding += sc->in_window;
    sc->queued_flits += flits;
}

/* Appends a packet made at cycle created (counted then) to host src's
 * source queue; measured as SimPacket.measured, or under
 * FL_MEASURE_BOOKSIM as its turn comes: now if the queue is empty. */
static inline int store_packet(FlSim *s, int src, int dst, int flits, int64_t created,
                               int measured)
{
    SimScalars *sc = &s->sc;
    int turn_now = s->q_tail[src] < 0;
    int32_t id = sc->free_head;
    if (id >= 0) {
        sc->free_head = s->pool[id].next;
    } else {
        if (sc->pool_used == s->pool_cap) {
            int32_t cap = s->pool_cap * 2;
            SimPacket *bigger = realloc(s->pool, sizeof *bigger * (size_t)cap);
            if (!bigger)
                return FL_ENOMEM;
            s->pool = bigger;
            s->pool_cap = cap;
        }
        id = sc->pool_used++;
    }
    SimPacket *p = &s->pool[id];
    p->id = sc->next_packet_id++;
    p->created = created;
    p->injected = -1;
    p->src = src;
    p->dst = dst;
    p->len = flits;
    p->sent = 0;
    p->next = -1;
    p->route = s->q_tail[src];
    p->measured = measured;
    if (fl__sim_index_add(s, id))
        return FL_ENOMEM;
    if (s->q_tail[src] >= 0)
        s->pool[s->q_tail[src]].next = id;
    else
        s->q_head[src] = id;
    s->q_tail[src] = id;
    s->stored[src]++;
    if (s->cfg.measure_rule == FL_MEASURE_BOOKSIM) {
        p->measured = 0;
        if (turn_now)
            fl__sim_stats_turn(s, p, sc->cycle);
    }
    fl__sim_activate(s, SIM_HOSTS, s->host_node[src]);
    return FL_OK;
}

/* FL_MEASURE_BOOKSIM, as the window closes: BookSim's throughput runs
 * stop the sources, so the packets whose turn has not come are never made
 * there. Here they are withdrawn, as if never made (the offered load of
 * the window keeps them), those owed by deferring sources too: only the
 * measured packets and those already leaving stay to be delivered. */
static void withdraw_unturned(FlSim *s)
{
    SimScalars *sc = &s->sc;
    for (int h = 0; h < s->n_hosts; h++) {
        int32_t keep = -1, id = s->q_head[h];
        while (id >= 0 && (s->pool[id].sent > 0 || s->pool[id].measured)) {
            keep = id;
            id = s->pool[id].next;
        }
        while (id >= 0) {
            SimPacket *p = &s->pool[id];
            int32_t next = p->next;
            sc->created_packets--;
            sc->created_flits -= p->len;
            sc->queued_flits -= p->len;
            s->stored[h]--;
            p->id = -1;
            p->next = sc->free_head;
            sc->free_head = id;
            id = next;
        }
        if (keep >= 0)
            s->pool[keep].next = -1;
        else
            s->q_head[h] = -1;
        s->q_tail[h] = keep;
        int64_t created;
        int dst, flits;
        while (fl__traffic_replay(s->traffic, h, sc->cycle, &created, &dst, &flits)) {
            sc->created_packets--;
            sc->created_flits -= flits;
            sc->queued_flits -= flits;
            sc->owed_packets--;
        }
    }
}

/* Appends a new packet to host src's source queue. */
static int make_packet(FlSim *s, int src, int dst, int flits)
{
    count_packet(s, flits);
    /* Measured in the window; in the warm-up, for its own figures. */
    const SimScalars *sc = &s->sc;
    return store_packet(s, src, dst, flits, sc->cycle, sc->in_window ? 1 : 2 * sc->counting);
}

/* FlTrafficEmit: queues a packet the traffic made, ignoring nonsense
 * (a trace may name any host and length), unless the queue is full. */
static int emit_packet(void *data, int src, int dst, int flits)
{
    FlSim *s = data;
    if (flits < 1 || dst < 0 || dst >= s->n_hosts)
        return FL_OK;
    if (s->stored[src] >= s->queue_keep)
        return FL__TRAFFIC_DEFER;
    return make_packet(s, src, dst, flits);
}

/* FlTrafficOwe: a packet made at a source whose queue is full. */
static void owe_packet(void *data, int src, int flits)
{
    (void)src;  /* Counted only: the queue takes it later. */
    FlSim *s = data;
    count_packet(s, flits);
    s->sc.owed_packets++;
}

/* Every host asks the traffic for this cycle's packets; then the sources
 * that defer store the packets they owe, as far as their queues have
 * room (a host sends at most one packet a cycle, so it never runs out
 * while it owes any). */
static int generate(FlSim *s)
{
    int rc = fl__traffic_generate_cycle_owing(s->traffic, s->sc.cycle, &s->sc.traffic_rng,
                                              emit_packet, owe_packet, s);
    if (rc || !fl__traffic_deferring(s->traffic))
        return rc;
    int64_t created;
    int dst, flits;
    for (int h = fl__traffic_next_deferring(s->traffic, 0); h >= 0;
         h = fl__traffic_next_deferring(s->traffic, h + 1))
        while (s->stored[h] < s->queue_keep
               && fl__traffic_replay(s->traffic, h, s->sc.cycle, &created, &dst, &flits)) {
            /* As make_packet() would have marked it when it was made: the
             * window opens and closes as the cycle counter reaches its
             * ends. */
            int measured = created < s->win_end ? (fl__sim_in_window(s, created) ? 1 : 2) : 0;
            if (store_packet(s, h, dst, flits, created, measured))
                return FL_ENOMEM;
            s->sc.owed_packets--;
        }
    return FL_OK;
}

/* Nothing moved for quiet_span cycles: a deadlock if a cycle of the
 * wait-for graph shows it, else the watchdog starts counting again. */
static void watchdog(FlSim *s)
{
    int *channels = NULL, len = 0;
    int rc = fl__sim_deadlock_cycle(s, &channels, &len);
    free(channels);
    if (rc == FL_ENOMEM)
        s->nomem = 1;
    else if (rc == FL_OK && len > 0)
        s->sc.status = FL_SIM_DEADLOCK;
    else
        s->sc.last_move = s->sc.cycle;
}

/* What tick() returns when a hook asks to stop: no FlStatus. */
#define TICK_STOP (-1)

/* Calls the hook for the deliveries of the cycle just done, then for the
 * cycle count; returns TICK_STOP if any asked to stop. */
static int call_hooks(FlSim *s)
{
    int stop = 0;
    s->in_hook = 1;
    for (int i = 0; i < s->n_delivered; i++) {
        /* A hook may have changed the hook. */
        if (!s->hook || !(s->hook_mask & FL_SIM_HOOK_DELIVERED))
            break;
        s->delivered[i].cycle = s->sc.cycle;
        stop |= s->hook(s, &s->delivered[i], s->hook_data) != 0;
    }
    s->n_delivered = 0;
    if (s->hook && (s->hook_mask & FL_SIM_HOOK_EVERY) && s->sc.cycle % s->hook_every == 0) {
        FlSimHookInfo info = { .event = FL_SIM_HOOK_EVERY, .cycle = s->sc.cycle, .packet = -1,
                               .src_host = -1, .dst_host = -1, .created = -1,
                               .injected = -1, .delivered = -1 };
        stop |= s->hook(s, &info, s->hook_data) != 0;
    }
    s->in_hook = 0;
    return stop ? TICK_STOP : FL_OK;
}

/* One cycle. Returns FL_ENOMEM if the packet pool or a histogram could not
 * grow, TICK_STOP if a hook asked to stop. */
static int tick(FlSim *s)
{
    SimScalars *sc = &s->sc;
    for (int l = 0; l < s->n_lanes; l++)
        credits_arrive(s, l);
    /* Under FL_MEASURE_BOOKSIM the sources stop with the window. */
    int sources = s->cfg.measure_rule == FL_MEASURE_CREATED || !sc->window_closed;
    if (sources && generate(s))
        return FL_ENOMEM;
    fl__sim_nodes_tick(s);
    sc->cycle++;
    if (sc->cycle == s->win_end) {
        fl__sim_stats_close(s);
        if (s->cfg.measure_rule == FL_MEASURE_BOOKSIM)
            withdraw_unturned(s);
    } else if (sc->cycle == s->cfg.warmup_cycles)
        fl__sim_stats_open(s);
    /* A flit moved in the cycle just done if one entered a channel or
     * reached its host: counted once a cycle, not in the hot paths. */
    int64_t moves = sc->flit_hops + sc->ejected;
    if (moves != sc->moves_seen) {
        sc->moves_seen = moves;
        sc->last_move = sc->cycle - 1;
    }
    if (sc->net_flits > 0 && sc->cycle - sc->last_move > s->quiet_span)
        watchdog(s);
    if (sc->net_flits == 0)
        sc->last_move = sc->cycle;
    if (s->nomem)
        return FL_ENOMEM;
    return s->hook_mask ? call_hooks(s) : FL_OK;
}

int fl_sim_keep_routes(FlSim *s, int keep, FlError *err)
{
    if (!s)
        return fl_error_set(err, FL_EINVAL, "keep routes: no simulation");
    if (s->sc.cycle > 0)
        return fl_error_set(err, FL_EINVAL, "keep routes: only before the first cycle (cycle "
                            "%lld)", (long long)s->sc.cycle);
    s->keep_routes = keep != 0;
    return FL_OK;
}

int fl_sim_step(FlSim *s, int64_t n, FlSimStatus *status, FlError *err)
{
    if (!s)
        return fl_error_set(err, FL_EINVAL, "no simulation");
    if (s->in_hook)
        return fl_error_set(err, FL_EINVAL, "fl_sim_step: not allowed in a hook");
    if (n < 0)
        return fl_error_set(err, FL_EINVAL, "cycles to step: must be >= 0, not %lld",
                            (long long)n);
    int rc = FL_OK;
    for (int64_t i = 0; i < n && s->sc.status == FL_SIM_RUNNING; i++)
        if ((rc = tick(s)) != FL_OK)
            break;
    if (status)
        *status = (FlSimStatus)s->sc.status;
    if (rc == FL_ENOMEM)
        return fl_error_set(err, FL_ENOMEM, "out of memory at cycle %lld",
                            (long long)s->sc.cycle);
    return FL_OK;
}

int64_t fl_sim_cycle(const FlSim *s)
{
    return s ? s->sc.cycle : 0;
}

FlSimStatus fl_sim_status(const FlSim *s)
{
    return s ? (FlSimStatus)s->sc.status : FL_SIM_RUNNING;
}

const FlSimConfig *fl_sim_config(const FlSim *s)
{
    return &s->cfg;
}

int fl_sim_stats(const FlSim *s, FlSimResult *res, FlError *err)
{
    if (!s || !res)
        return fl_error_set(err, FL_EINVAL, "no simulation or result");
    return fl__sim_stats_fill(s, res, 0.0, 1, err);
}

int fl_sim_memory(const FlSim *s, FlSimMemory *out)
{
    if (!s || !out)
        return FL_EINVAL;
    memset(out, 0, sizeof *out);
    out->state_bytes = s->state_bytes;
    out->packet_bytes = sizeof *s->pool * (size_t)s->pool_cap
                        + sizeof *s->index * (size_t)(s->index_mask + 1)
                        + sizeof *s->route * SIM_ROUTE_CHUNK * (size_t)s->route_cap;
    /* Pool slots handed out, less the free ones. */
    out->packets_stored = s->sc.pool_used;
    for (int32_t p = s->sc.free_head; p >= 0; p = s->pool[p].next)
        out->packets_stored--;
    out->packets_owed = s->sc.owed_packets;
    for (int h = 0; h < s->n_hosts; h++)
        if (s->stored[h] > out->most_stored)
            out->most_stored = s->stored[h];
    return FL_OK;
}

int fl_sim_deadlock_cycle(const FlSim *s, int **channels, int *len, FlError *err)
{
    if (!s || !channels || !len)
        return fl_error_set(err, FL_EINVAL, "no simulation or output");
    int rc = fl__sim_deadlock_cycle(s, channels, len);
    if (rc == FL_ENOMEM)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    /* No cycle is an answer, not an error. */
    return FL_OK;
}

int fl_sim_set_hook(FlSim *s, unsigned mask, int64_t every_n, FlSimHookFunc hook,
                    void *user_data, FlError *err)
{
    if (!s)
        return fl_error_set(err, FL_EINVAL, "no simulation");
    if (mask & ~(unsigned)(FL_SIM_HOOK_DELIVERED | FL_SIM_HOOK_EVERY))
        return fl_error_set(err, FL_EINVAL, "hook mask: unknown events 0x%x", mask);
    if ((mask & FL_SIM_HOOK_EVERY) && every_n < 1)
        return fl_error_set(err, FL_ERANGE, "hook: every_n must be at least 1 cycle, not %lld",
                            (long long)every_n);
    if (!hook)
        mask = 0;
    s->hook_mask = mask;
    s->hook_every = mask & FL_SIM_HOOK_EVERY ? every_n : 0;
    s->hook = mask ? hook : NULL;
    s->hook_data = mask ? user_data : NULL;
    return FL_OK;
}

int fl_sim_inject(FlSim *s, int src_host, int dst_host, int flits, int64_t *packet_id,
                  FlError *err)
{
    if (!s)
        return fl_error_set(err, FL_EINVAL, "no simulation");
    if (src_host < 0 || src_host >= s->n_hosts || dst_host < 0 || dst_host >= s->n_hosts)
        return fl_error_set(err, FL_ERANGE, "inject: hosts are 0 to %d, not %d -> %d",
                            s->n_hosts - 1, src_host, dst_host);
    if (flits < 1)
        return fl_error_set(err, FL_ERANGE, "inject: a packet has at least 1 flit, not %d",
                            flits);
    if (flits > FL_MAX_PACKET_FLITS)
        return fl_error_set(err, FL_ERANGE, "inject: a packet has at most %d flits, not %d",
                            FL_MAX_PACKET_FLITS, flits);
    /* Under VCT a head waits for room for the whole packet, which a longer
     * packet never finds. */
    if (s->cfg.switching == FL_SWITCHING_VCT && flits > s->cfg.buf_flits)
        return fl_error_set(err, FL_ERANGE,
                            "inject: virtual cut-through needs room for the whole packet "
                            "(%d flits) in a %d-flit buffer", flits, s->cfg.buf_flits);
    int64_t id = s->sc.next_packet_id;
    if (make_packet(s, src_host, dst_host, flits))
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    if (packet_id)
        *packet_id = id;
    return FL_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Steps until cycle `until` or until done() says stop, reporting progress
 * every few thousand cycles. Returns FL_OK, FL_ENOMEM or FL_ECANCELLED. */
static int run_until(FlSim *s, int64_t until, int drain, FlProgressFunc progress,
                     void *data, int64_t total)
{
    int64_t since = 0;
    while (s->sc.cycle < until && s->sc.status == FL_SIM_RUNNING) {
        if (drain && s->sc.measured_outstanding == 0)
            break;
        int rc = tick(s);
        if (rc)
            return rc == TICK_STOP ? FL_ECANCELLED : rc;
        if (progress && ++since == 4096) {
            since = 0;
            double f = (double)s->sc.cycle / (double)total;
            if (progress(data, f > 1.0 ? 1.0 : f))
                return FL_ECANCELLED;
        }
    }
    return FL_OK;
}

int fl_sim_run(FlSim *s, FlSimResult *res, FlProgressFunc progress, void *progress_data,
               FlError *err)
{
    if (!s || !res)
        return fl_error_set(err, FL_EINVAL, "no simulation or result");
    if (s->in_hook)
        return fl_error_set(err, FL_EINVAL, "fl_sim_run: not allowed in a hook");
    memset(res, 0, sizeof *res);
    double start = now_seconds();
    const FlSimConfig *cfg = &s->cfg;
    int64_t wend = cfg->warmup_cycles + cfg->measure_cycles;
    int64_t total = wend + cfg->drain_cycles;
    int rc = run_until(s, wend, 0, progress, progress_data, total);
    int grew = 0;
    if (!rc && s->sc.status == FL_SIM_RUNNING) {
        /* A backlog that grew by more than 5 % of the offered flits means
         * the sources outrun the network: draining would take forever,
         * unless they stop (FL_MEASURE_BOOKSIM). */
        int64_t growth = s->sc.queued_at_close - s->sc.queued_at_open;
        grew = s->sc.window_closed && (double)growth > 0.05 * (double)s->sc.offered_flits
               && growth > 0;
        if (grew && cfg->measure_rule == FL_MEASURE_CREATED)
            s->sc.status = FL_SIM_SATURATED;
    }
    if (!rc && s->sc.status == FL_SIM_RUNNING) {
        rc = run_until(s, wend + cfg->drain_cycles, 1, progress, progress_data, total);
        if (!rc && s->sc.status == FL_SIM_RUNNING)
            s->sc.status = s->sc.measured_outstanding || grew ? FL_SIM_SATURATED : FL_SIM_OK;
    }
    if (rc == FL_ENOMEM)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    if (rc == FL_ECANCELLED)
        return fl_error_set(err, FL_ECANCELLED, "simulation cancelled");
    if (progress)
        progress(progress_data, 1.0);
    return fl__sim_stats_fill(s, res, now_seconds() - start, 0, err);
}
