/* sim-router.c — one cycle of the active hosts and switches: ejection and
 * injection at hosts; VC allocation, switch allocation and traversal at
 * switches. The model is described in sim-internal.h. */
#include <stdlib.h>

#include "sim-internal.h"

/* The steps of a switch visit, compiled into each of its two copies (one
 * lane, several: see visit_switches()) whatever the compiler thinks of
 * their size, since a call costs a tenth of a flit's hop. */
#define HOT __attribute__((always_inline)) inline

/* What a copy of the node visits is compiled for, passed down as a
 * constant so that each copy tests only what it must: MODE_LANES, several
 * lanes (see Lanes in sim-internal.h); MODE_PLAIN, the common pipeline
 * (FlSim.plain: no routing, VC allocation or credit delay, one cycle per
 * flit, wormhole switching, VCs released when the tail is sent, 1 to 64
 * input VCs per node), whose tests of the configuration fold away. */
enum { MODE_LANES = 1, MODE_PLAIN = 2 };

/* --- rings ---------------------------------------------------------------- */

/* The hot paths below avoid branches that go either way from one flit to
 * the next (ring wrap-around, a ring emptying or filling, a node joining
 * the active set): mispredicted, each costs more than the arithmetic that
 * replaces it. */

static inline int64_t ring_slot(const SimVc *q, int k)
{
    return (int64_t)q->ring_base + ((q->head + k) & q->mask);
}

/* The slot of q's front flit (k = 0 needs no wrap). */
static inline int64_t ring_front(const SimVc *q)
{
    return (int64_t)q->ring_base + q->head;
}

/* The word and bit of VC q in its node's masks (ready, output, sink). */
static inline int mask_index(const SimVc *q)
{
    return q->mask_pos >> 6;
}

static inline uint64_t mask_bit(const SimVc *q)
{
    return (uint64_t)1 << (q->mask_pos & 63);
}

/* --- readiness (see Readiness in sim-internal.h) --------------------------- */

/* The cycle input VC q, holding flits, becomes ready. */
static inline int64_t vc_wake(const FlSim *s, const SimVc *q, const int mode)
{
    return q->go + (!(mode & MODE_PLAIN) && q->out < 0 ? s->cfg.routing_delay : 0);
}

/* Puts input VC iv in the wheel's list of cycle at. */
static inline void wheel_add(FlSim *s, int32_t iv, int64_t at)
{
    int32_t *list = &s->wheel[at & (s->wheel_len - 1)];
    s->wake_next[iv] = *list;
    *list = iv + 1;
}

/* Ready input VC q's front flit or output VC changed: q stays in the
 * ready set if it still holds flits that may move on now or next cycle
 * (a stream of flits one cycle apart, which would otherwise go round the
 * wheel at every flit), else it leaves the set and, holding flits, waits
 * in the wheel. */
HOT static void vc_recheck(FlSim *s, SimVc *q, const int mode)
{
    int64_t at = vc_wake(s, q, mode);
    if (q->count > 0 && at <= s->sc.cycle + 1)
        return;
    s->ready_mask[mask_index(q)] &= ~mask_bit(q);
    if (q->count > 0)
        wheel_add(s, (int32_t)(q - s->vc), at);
}

/* The VCs whose wake-up cycle is now become ready, and their switches
 * active; those due in a later turn of the wheel go back in. */
static void wheel_turn(FlSim *s)
{
    const int64_t now = s->sc.cycle;
    int32_t *list = &s->wheel[now & (s->wheel_len - 1)];
    int32_t next = *list;
    *list = 0;
    while (next) {
        int32_t iv = next - 1;
        next = s->wake_next[iv];
        const SimVc *q = &s->vc[iv];
        if (s->wheel_wraps && vc_wake(s, q, 0) > now) {
            wheel_add(s, iv, vc_wake(s, q, 0));
            continue;
        }
        fl__sim_ready(s, q);
    }
}

/* Appends flit to q's ring, arriving at cycle ready. */
static inline void ring_push(FlSim *s, SimVc *q, SimSlot flit, int64_t ready, const int mode)
{
    int count = q->count;
    fl__sim_occ_push(s, q);
    flit.ready = (uint32_t)ready;
    s->slot[ring_slot(q, count)] = flit;
    q->count = count + 1;
    /* Into an empty ring the flit is the front one (any earlier
     * switch-allocation delay has passed: the VC emptied by sending a
     * flit, which it could do only once that delay was over), and a
     * switch's input VC waits for it to arrive. */
    if (count == 0) {
        q->go = ready;
        q->dest = flit.dest;
        if (!q->sink)
            wheel_add(s, (int32_t)(q - s->vc), vc_wake(s, q, mode));
    }
    /* A host visits its sinks as their flits arrive (see Hosts), and reads
     * the packet's record then, which starts loading now. */
    if (q->sink) {
        __builtin_prefetch(&s->pool[flit.pkt], 1);
        s->sink_mask[mask_index(q)] |= mask_bit(q);
        s->host_wake[q->node >> 6] |= (uint64_t)1 << (q->node & 63);
    }
}

static inline void ring_pop(FlSim *s, SimVc *q)
{
    int head = (q->head + 1) & q->mask;
    fl__sim_occ_pop(s, q);
    q->head = head;
    q->count--;
    /* The new front's ready cycle and destination, as in ring_push(); of
     * an empty ring they come from a stale slot, and the next push
     * overwrites them. */
    const SimSlot *front = &s->slot[(int64_t)q->ring_base + head];
    q->go = fl__sim_slot_ready(front, s->sc.cycle);
    q->dest = front->dest;
}

/* --- moving flits ---------------------------------------------------------- */

/* A flit for input VC o of a switch in another lane waits in this lane's
 * list until the lanes are done (channels between lanes only). */
__attribute__((noinline)) static void hold_flit(FlSim *s, SimVc *o, SimSlot flit, int64_t ready)
{
    s->push[s->n_push++] = (SimPush){ (int32_t)(o - s->vc), 0, ready, flit };
}

/* Writes flit into output VC o, arriving delay cycles from now (with
 * lanes, into a VC of another lane once the lanes are done); takes the
 * credit and occupies the channel. After a tail, the sender's side of o is
 * released (see FlVcRelease). The callers pass mode as a constant (see
 * MODE_LANES), so that a run of one lane does not test for lanes. */
HOT static void send_flit(FlSim *s, SimVc *o, SimSlot flit, int delay, const int mode)
{
    int64_t now = s->sc.cycle;
    if ((mode & MODE_LANES) && o->held)
        hold_flit(s, o, flit, now + delay);
    else
        ring_push(s, o, flit, now + delay, mode);
    if (!(mode & MODE_PLAIN) && s->multi_cycle_links)
        s->chan_free[s->vc_chan[o - s->vc]] = now + s->cfg.link_cycles_per_flit;
    o->flits++;
    s->sc.flit_hops++;
    /* An ejection VC needs no credits, only room in its ring, which is
     * full only on links longer than SIM_SINK_ROOM allows. */
    int32_t *credits = &s->credits[o - s->vc];
    if (o->sink)
        *credits = o->count <= o->mask;
    else
        (*credits)--;
    if (flit.flit < 0) /* the tail */
        s->outvc[o - s->vc].owner = !(mode & MODE_PLAIN)
                                           && s->cfg.vc_release == FL_VC_RELEASE_TAIL_CREDIT
                                           && !o->sink
                           && *credits < s->cfg.buf_flits
                       ? -2
                       : -1;
}

/* Queues the credit of a slot freed in input VC iv for its sender. With
 * no credit delay every credit queued in a cycle arrives in the next, so
 * the queue is a list, emptied as they do (see credits_arrive() in sim.c). */
static inline void return_credit(FlSim *s, int iv, const int mode)
{
    SimScalars *sc = &s->sc;
    if ((mode & MODE_PLAIN) || s->cfg.credit_delay == 0) {
        s->cq[sc->cq_count++].vc = iv;
        return;
    }
    int64_t at = (sc->cq_head + sc->cq_count) & (s->cq_cap - 1);
    s->cq[at] = (SimCredit){ iv, (uint32_t)sc->credit_due };
    sc->cq_count++;
}

/* --- hosts ------------------------------------------------------------------ */

/* Keeps a copy of delivered packet p for the hook, called once the cycle
 * is over (a hook that injects may reuse p's pool slot). */
static void record_delivery(FlSim *s, const SimPacket *p)
{
    if (s->n_delivered == s->delivered_cap) {
        int cap = s->delivered_cap ? 2 * s->delivered_cap : 64;
        FlSimHookInfo *bigger = realloc(s->delivered, sizeof *bigger * (size_t)cap);
        if (!bigger) {
            s->nomem = 1;
            return;
        }
        s->delivered = bigger;
        s->delivered_cap = cap;
    }
    s->delivered[s->n_delivered++] = (FlSimHookInfo){
        .event = FL_SIM_HOOK_DELIVERED, .packet = p->id, .src_host = p->src,
        .dst_host = p->dst, .flits = p->len, .measured = p->measured == 1,
        .created = p->created, .injected = p->injected, .delivered = s->sc.cycle
    };
}

/* Consumes the flit that has reached host h (node at), if one has; a tail
 * completes its packet. Only the occupied ejection VCs are read (bits of
 * the node's sink word: a host has one input, so its VC v is bit v of one
 * word), and a VC's go tells when its front flit arrives (a host adds no
 * delays). A host's one channel brings at most a flit a cycle, and the
 * host is visited in every cycle one arrives (see Hosts in
 * sim-internal.h), so that flit is the only one due. Returns the sink word
 * left, kept in a register meanwhile (nothing here sends a flit to a
 * host). The plain visits read node n's sink word as word n (see
 * FlSim.plain), without waiting for its record. */
static inline uint64_t host_eject(FlSim *s, int h, int n, const SimNodeAt *at, int64_t now,
                                  const int mode)
{
    SimVc *vc = &s->vc[at->vc0];
    uint64_t *sink = &s->sink_mask[mode & MODE_PLAIN ? n : at->w0], left = *sink;
    for (uint64_t bits = left; bits; bits &= bits - 1) {
        int v = __builtin_ctzll(bits);
        SimVc *q = &vc[v];
        /* A VC with its bit holds flits. */
        if (q->go > now)
            continue;
        const SimSlot *slot = &s->slot[ring_front(q)];
        int32_t pkt = slot->pkt, flit = slot->flit;
        ring_pop(s, q);
        left &= ~((uint64_t)(q->count == 0) << v);
        s->credits[at->vc0 + v] = 1;
        s->sc.net_flits--;
        s->sc.ejected++;
        s->host_accepted[h] += s->sc.counting;
        /* The record learns where the route ends as the head comes home
         * (its hops are the route's entries but the host's), or, without
         * routes, its hops. */
        if (fl__sim_flit_is_head(flit))
            s->pool[pkt].route = fl__sim_head_at(flit);
        if (flit < 0) {
            SimPacket *p = &s->pool[pkt];
            if (fl__sim_stats_packet_done(s, p))
                s->nomem = 1;
            if (s->hook_mask & FL_SIM_HOOK_DELIVERED)
                record_delivery(s, p);
            fl__sim_packet_done(s, pkt);
            p->next = s->sc.free_head;
            s->sc.free_head = pkt;
        }
        *sink = left;
        return left;
    }
    return left;
}

/* Whether output VC ov may take the head of a packet of len flits. */
static inline int output_vc_open(const FlSim *s, int ov, int len, const int mode)
{
    if (s->outvc[ov].owner != -1)
        return 0;
    return (mode & MODE_PLAIN) || s->cfg.switching != FL_SWITCHING_VCT || s->vc[ov].sink
           || s->credits[ov] >= len;
}

int fl__sim_output_vc_open(const FlSim *s, int ov, int len)
{
    return output_vc_open(s, ov, len, 0);
}

/* What host_inject() leaves a host: an empty queue, packets to send, or
 * packets and a VC without a credit, which it waits for apart (see
 * visit_hosts()). */
enum { HOST_IDLE = 0, HOST_SENDING = 1, HOST_BLOCKED = 2 };

/* Sends the next flit of the packet at the front of host h's queue in
 * cycle now. */
static inline int host_inject(FlSim *s, int h, int64_t now, const int mode)
{
    int32_t pkt = s->q_head[h], ov = s->host_vc[h];
    if (pkt < 0)
        return HOST_IDLE;
    /* A host that holds a VC without a credit waits, before anything
     * else (a backlogged host mostly does). */
    if (ov >= 0 && s->credits[ov] <= 0)
        return HOST_BLOCKED;
    SimPacket *p = &s->pool[pkt];
    int c = s->host_inj[h], V = s->V;
    int32_t len = p->len;
    if (!(mode & MODE_PLAIN) && s->multi_cycle_links && s->chan_free[c] > now)
        return HOST_SENDING;
    if (ov < 0) {
        /* Any VC of the injection channel will do: round robin, from the
         * one after the last taken (host_rr -1 at first: from VC 0). */
        int v = s->host_rr[h] + 1, vc0 = s->chan_vc[c];
        for (int k = 0; k < V; k++, v++) {
            if (v == V)
                v = 0;
            if (output_vc_open(s, vc0 + v, len, mode)) {
                ov = vc0 + v;
                s->host_vc[h] = ov;
                s->host_rr[h] = v;
                s->outvc[ov].owner = ov;
                break;
            }
        }
        if (ov < 0)
            return HOST_SENDING;
        if (s->credits[ov] <= 0)
            return HOST_BLOCKED;
    }
    int32_t sent = p->sent, code;
    if (sent == 0) {
        int32_t at = 0;
        if (s->keep_routes) {
            at = fl__sim_route_start(s);
            fl__sim_route_put(s, at, ov);
        }
        p->injected = now;
        p->route = at;
        code = fl__sim_head_code(at, len == 1);
    } else {
        code = fl__sim_flit_code(sent, sent == len - 1);
    }
    SimSlot flit = { 0, pkt, code, s->host_switch[p->dst] };
    send_flit(s, &s->vc[ov], flit, s->inject_delay, mode);
    s->sc.net_flits++;
    s->sc.queued_flits--;
    p->sent = ++sent;
    if (sent < len)
        return HOST_SENDING;
    int32_t next = p->next;
    p->next = -1;
    s->host_vc[h] = -1;
    s->stored[h]--;
    s->q_head[h] = next;
    if (next < 0) {
        s->q_tail[h] = -1;
        return HOST_IDLE;
    }
    /* The next packet goes from next cycle on: its record, made long ago
     * past saturation, starts loading now. */
    __builtin_prefetch(&s->pool[next], 1);
    if (s->cfg.measure_rule == FL_MEASURE_BOOKSIM)
        fl__sim_stats_turn(s, &s->pool[next], now + 1);
    return HOST_SENDING;
}

/* --- switches --------------------------------------------------------------- */

typedef struct CreditView {
    const FlSim *s;
} CreditView;

/* FlCreditsFunc: free slots over the VCs of a class. */
static int class_credits(void *data, int channel, int vc_class)
{
    const FlSim *s = ((CreditView *)data)->s;
    int sum = 0;
    for (int v = s->class_lo[vc_class]; v < s->class_lo[vc_class + 1]; v++)
        sum += s->credits[s->chan_vc[channel] + v];
    return sum;
}

int fl__sim_route_choices(const FlSim *s, int sw, int iv, FlRouteChoice *out, int max)
{
    const SimVc *q = &s->vc[iv];
    const SimSlot *head = &s->slot[ring_front(q)];
    int dest = head->dest;
    if (dest == sw) {
        int ej = s->host_ej[s->pool[head->pkt].dst];
        out[0] = (FlRouteChoice){ fl__out_port(s->t, ej), ej, -1 };
        return 1;
    }
    /* Input VCs are at switches, so a channel that does not come from a
     * switch comes from a host. */
    int c = s->vc_chan[iv], from_host = !s->chan_s2s[c];
    return fl_routing_next(s->cfg.routing, sw, from_host ? -1 : c,
                           from_host ? 0 : s->vc_class[q->v], dest, out, max);
}

int fl__sim_pick_choice(const FlSim *s, const FlRouteChoice *choices, int n)
{
    if (n <= 1)
        return 0;
    FlRng rng = s->sc.rng;
    CreditView view = { s };
    return fl_routing_select(choices, n, s->cfg.selection, &rng, class_credits, &view);
}

/* The route of the head at the front of input VC iv at switch sw, asked
 * of the routing (or as the head's last request found it, when that had
 * one choice): its channel in *c and class in *k; 0 if the routing gives
 * none. Apart from request_output_vc() so that the route table's hits
 * need not set up its choices. */
__attribute__((noinline)) static int ask_route(FlSim *s, int sw, int iv, int *c, int *k)
{
    int32_t memo = s->route_memo[iv];
    if (memo) {
        *c = (memo - 1) >> 5;
        *k = ((memo - 1) & 31) - 1;
        return 1;
    }
    FlRouteChoice choices[FL_ROUTE_MAX_CHOICES];
    int n = fl__sim_route_choices(s, sw, iv, choices, FL_ROUTE_MAX_CHOICES);
    if (n < 1)
        return 0;
    /* One choice is the same every time the head asks (routes are a
     * function of where the head is, where it came from and where it
     * goes), and selection draws nothing for it. */
    if (n == 1)
        s->route_memo[iv] = 1 + choices[0].channel * 32 + choices[0].vc_class + 1;
    CreditView view = { s };
    int pick = n == 1 ? 0
                      : fl_routing_select(choices, n, s->cfg.selection, &s->sc.rng,
                                          class_credits, &view);
    *c = choices[pick].channel;
    *k = choices[pick].vc_class;
    return 1;
}

/* The output VC the head at the front of iv requests this cycle, or -1:
 * the selected route's channel (from the route table when there is one;
 * at the last switch, its one host's ejection channel when it has one
 * host, as fl__sim_route_choices() gives it, without reading the packet),
 * the free VC of its class with the most credits. */
HOT static int request_output_vc(FlSim *s, int sw, const SimNodeAt *at, int iv,
                                    const int mode)
{
    int c = -1, k = 0, vc0, lo = 0, hi;
    const SimVc *q = &s->vc[iv];
    const int dest = q->dest;
    if (dest == sw && at->ej >= 0) {
        vc0 = s->chan_vc[at->ej];
        hi = s->V;
    } else if (s->route_table && dest != sw) {
        uint8_t *entry = &s->route_table[at->route_row + s->switch_rank[dest]];
        if (*entry) {
            /* The table keeps the port, and its routes take class 0. */
            vc0 = s->port[at->in0 + *entry - 1].out_vc0;
            hi = s->class0_vcs;
        } else if (ask_route(s, sw, iv, &c, &k)) {
            vc0 = s->chan_vc[c];
            *entry = (uint8_t)(s->outvc[vc0].port + 1);
            fl__sim_class_vcs(s, k, &lo, &hi);
        } else {
            return -1;
        }
    } else if (ask_route(s, sw, iv, &c, &k)) {
        vc0 = s->chan_vc[c];
        fl__sim_class_vcs(s, k, &lo, &hi);
    } else {
        return -1;
    }
    /* Only virtual cut-through asks for the packet's length. */
    int len = !(mode & MODE_PLAIN) && s->cfg.switching == FL_SWITCHING_VCT
                  ? s->pool[s->slot[ring_front(q)].pkt].len
                  : 0;
    /* Most classes have two VCs: the second wins only with more credits.
     * Which has more is a toss-up from one head to the next, so it is
     * computed rather than branched on (-1 for a closed VC: credits are
     * never negative, so both are closed when both signs are set). */
    if (hi - lo == 2) {
        int a = vc0 + lo;
        int ca = output_vc_open(s, a, len, mode) ? s->credits[a] : -1;
        int cb = output_vc_open(s, a + 1, len, mode) ? s->credits[a + 1] : -1;
        return (ca & cb) < 0 ? -1 : a + (cb > ca);
    }
    int best = -1, best_credits = 0;
    for (int v = lo; v < hi; v++) {
        int ov = vc0 + v;
        if (output_vc_open(s, ov, len, mode) && (best < 0 || s->credits[ov] > best_credits)) {
            best = ov;
            best_credits = s->credits[ov];
        }
    }
    return best;
}

int fl__sim_vc_set_aside(const FlSim *s, int v)
{
    const SimVc *q = &s->vc[v];
    if (q->out >= 0)
        return s->wait_pos[q->out] != 0;
    /* Parked at one of its node's outputs, each the other channel of an
     * input's link. */
    uint64_t bit = mask_bit(q);
    for (int i = s->in_off[q->node]; i < s->in_off[q->node + 1]; i++)
        if (s->parked[s->chan_vc[s->in_chan[i] ^ 1]] & bit)
            return 1;
    return 0;
}

/* Round-robin priority of requester x (0..n-1) after the last grant. */
static inline int rr_rank(int x, int last, int n)
{
    int d = x - last - 1;
    return d < 0 ? d + n : d;
}

/* One switch as a visit sees it: its record n, of which what every visit
 * reads is loaded once (its input VCs from vc0 in local order, their mask
 * bits words w0 .. w1 - 1; the rest, read on fewer paths, stays in n), and
 * the cycle. */
typedef struct SwitchAt {
    const SimNodeAt *n;
    int vc0, w0, w1;
    int sw;
    int64_t now;
} SwitchAt;

/* What a grant of output VC ov to local input VC loc (VC iv), whose front
 * flit is the head in slot, leaves beyond the input VC's own record: the
 * output VC's arbiter and the packet's hop. */
static inline void grant_hop(FlSim *s, int loc, int iv, int ov, SimSlot *slot)
{
    s->outvc[ov].rr = (int16_t)loc;
    s->route_memo[iv] = 0;
    /* A hop is made when the head wins its output VC: it will leave by it,
     * and the grant happens once per switch, like the send. The route
     * takes the VC then, and the head where the route now ends (keeping
     * its tail's sign); without routes, the head counts the hop. */
    int32_t code = slot->flit, at = fl__sim_head_at(code);
    at = s->keep_routes ? fl__sim_route_push(s, slot->pkt, at, ov) : at + 1;
    slot->flit = fl__sim_head_moved(code, at);
}

/* Local input VC loc (of VC index iv) wins output VC ov. */
HOT static void vc_grant(FlSim *s, const SwitchAt *at, int loc, int ov, const int mode)
{
    int iv = at->vc0 + loc;
    SimVc *q = &s->vc[iv];
    q->out = ov;
    q->out_port = s->outvc[ov].port;
    /* The head was ready (go <= now), so the grant's delay decides. */
    q->go = at->now + (mode & MODE_PLAIN ? 0 : s->cfg.vc_alloc_delay);
    s->out_mask[mask_index(q)] |= mask_bit(q);
    if (!(mode & MODE_PLAIN) && s->cfg.vc_alloc_delay > 0)
        vc_recheck(s, q, mode);
    s->outvc[ov].owner = iv;
    grant_hop(s, loc, iv, ov, &s->slot[ring_front(q)]);
}

/* The head of local input VC loc (VC iv) of the plain pipeline's switch
 * at found every output VC of its route's class taken. If it has one
 * route, it leaves the ready set for its output channel's parked list,
 * since only a tail leaving by that channel can change what it finds (see
 * cross()); a head with a choice of routes, or none, asks again next
 * cycle. Out of line, so that the requests' code keeps its registers. */
__attribute__((noinline)) static void park_head(FlSim *s, const SwitchAt *at, int loc, int iv)
{
    int dest = s->vc[iv].dest, p;
    if (dest == at->sw && at->n->ej >= 0) {
        p = s->outvc[s->chan_vc[at->n->ej]].port;
    } else if (s->route_table && dest != at->sw) {
        p = s->route_table[at->n->route_row + s->switch_rank[dest]] - 1;
    } else {
        int32_t memo = s->route_memo[iv];
        p = memo ? s->outvc[s->chan_vc[(memo - 1) >> 5]].port : -1;
    }
    if (p < 0)
        return;
    uint64_t bit = (uint64_t)1 << loc;
    s->ready_mask[at->w0] &= ~bit;
    s->parked[s->port[at->n->in0 + p].out_vc0] |= bit;
}

/* VC allocation when one head waits, the bit of waiting (of a switch
 * with one mask word): the only request, it wins if its output VC is
 * free. Returns whether it did. */
HOT static int vc_allocate_one(FlSim *s, const SwitchAt *at, uint64_t waiting, const int mode)
{
    int loc = __builtin_ctzll(waiting), iv = at->vc0 + loc;
    if (vc_wake(s, &s->vc[iv], mode) > at->now) /* next cycle */
        return 0;
    int ov = request_output_vc(s, at->sw, at->n, iv, mode);
    if (ov < 0)
        return 0;
    vc_grant(s, at, loc, ov, mode);
    return 1;
}

/* VC allocation, over the input VCs of the ready set that hold no output
 * VC (waiting: their bits, when the switch has one mask word). */
HOT static void vc_allocate(FlSim *s, const SwitchAt *at, uint64_t waiting, const int mode)
{
    const int nloc = at->n->nin * s->V, vc0 = at->vc0, w0 = at->w0;
    const int64_t now = at->now;
    /* Most visits at light load find one head waiting. */
    if (at->w1 == w0 + 1 && !(waiting & (waiting - 1))) {
        vc_allocate_one(s, at, waiting, mode);
        return;
    }
    int nreq = 0;
    for (int w = w0; w < at->w1; w++) {
        for (uint64_t bits = s->ready_mask[w] & ~s->out_mask[w]; bits; bits &= bits - 1) {
            int loc = (w - w0) * 64 + __builtin_ctzll(bits), iv = vc0 + loc;
            if (vc_wake(s, &s->vc[iv], mode) > now) /* next cycle */
                continue;
            int ov = request_output_vc(s, at->sw, at->n, iv, mode);
            if (ov < 0) {
                if (mode & MODE_PLAIN)
                    park_head(s, at, loc, iv);
                continue;
            }
            int held = s->vc_win[ov], last = s->outvc[ov].rr;
            if (held < 0) {
                s->req_list[nreq++] = ov;
                s->vc_win[ov] = loc;
            } else if (rr_rank(loc, last, nloc) < rr_rank(held, last, nloc)) {
                s->lost[vc0 + held] = (uint32_t)(now + 1);
                s->vc_win[ov] = loc;
            } else {
                s->lost[iv] = (uint32_t)(now + 1);
            }
        }
    }
    for (int r = 0; r < nreq; r++) {
        int ov = s->req_list[r], loc = s->vc_win[ov];
        s->vc_win[ov] = -1;
        vc_grant(s, at, loc, ov, mode);
    }
}

/* Whether input VC q of the ready set, holding an output VC, can send its
 * front flit this cycle: the flit is due (not next cycle, see Readiness in
 * sim-internal.h), the output VC has a credit (an
 * ejection VC always has one, see reset_state() in sim.c) and, with
 * multi-cycle links, the output channel is free. */
static inline int vc_can_send(const FlSim *s, const SimVc *q, int64_t now, const int mode)
{
    int ok = q->go <= now && s->credits[q->out] > 0;
    if (!(mode & MODE_PLAIN) && s->multi_cycle_links && ok)
        ok = s->chan_free[s->vc_chan[q->out]] <= now;
    return ok;
}

/* Input VC q of the ready set, holding an output VC, could not send its
 * front flit: in the plain pipeline, a due flit waits only for a credit,
 * and the VC leaves the ready set until the credit comes back (see
 * credits_wake() in sim.c), rather than ask at every visit. An ejection
 * VC's credit, room in its ring, comes back without the credit queue: a
 * VC that waits for one stays. */
__attribute__((noinline)) static void wait_credit_plain(FlSim *s, const SimVc *q, int64_t now)
{
    if (q->go <= now && !s->vc[q->out].sink) {
        s->ready_mask[mask_index(q)] &= ~mask_bit(q);
        s->wait_list[s->sc.credit_waits++] = q->out;
        s->wait_pos[q->out] = (int32_t)s->sc.credit_waits;
    }
}

static inline void wait_credit(FlSim *s, const SimVc *q, int64_t now, const int mode)
{
    if (mode == MODE_PLAIN)
        wait_credit_plain(s, q, now);
}

/* Front flit of input VC q (VC iv, at input li) crosses the switch to
 * output VC o, leaving by port out_port: the arbiters note it, the flit
 * leaves its ring, the slot's credit goes upstream and the flit enters o.
 * With holds (q holds o as its output VC), a tail gives o up. */
HOT static void cross(FlSim *s, SimPort *port, int li, int out_port, SimVc *q, int iv,
                      SimVc *o, SimSlot flit, const int holds, const int mode)
{
    port[out_port].out_rr = (int16_t)li;
    port[li].in_rr = (int16_t)q->v;
    ring_pop(s, q);
    /* Input VCs of a switch are never ejection VCs: every slot is
     * credited. */
    return_credit(s, iv, mode);
    if (holds && flit.flit < 0) {
        q->out = -1;
        s->out_mask[mask_index(q)] &= ~mask_bit(q);
        /* The tail frees an output VC: the heads parked at its channel
         * (see park_head()) ask again from next cycle, this cycle's VC
         * allocation being over. A tail that does not hold its VC
         * (lone_head()) frees one it took this cycle, free before, so no
         * head waits for it. */
        uint64_t *parked = &s->parked[(o - s->vc) - o->v];
        if ((mode & MODE_PLAIN) && *parked) {
            s->ready_mask[mask_index(q)] |= *parked;
            *parked = 0;
        }
    }
    vc_recheck(s, q, mode);
    send_flit(s, o, flit, s->send_delay, mode);
}

/* Input li of switch sw wins the switch for its offered VC iv, which
 * holds an output VC. */
HOT static void traverse(FlSim *s, SimPort *port, int li, int iv, const int mode)
{
    SimVc *q = &s->vc[iv];
    cross(s, port, li, q->out_port, q, iv, &s->vc[q->out], s->slot[ring_front(q)], 1, mode);
}

/* Input li offers VC iv to its output port's arbiter: sa_win holds each
 * output's best requester so far, req_list the outputs requested (nreq of
 * them; returns the new count). */
static inline int sa_request(FlSim *s, const SimPort *port, int li, int nin, int iv, int nreq)
{
    int p = s->vc[iv].out_port, w = s->sa_win[p];
    s->sa_vc[li] = iv;
    if (w < 0) {
        s->req_list[nreq++] = p;
        s->sa_win[p] = li;
    } else {
        int last = port[p].out_rr;
        /* The loser's cycle, for the flit view. */
        uint32_t lost_at = (uint32_t)(s->sc.cycle + 1);
        if (rr_rank(li, last, nin) < rr_rank(w, last, nin)) {
            s->lost[s->sa_vc[w]] = lost_at;
            s->sa_win[p] = li;
        } else {
            s->lost[iv] = lost_at;
        }
    }
    return nreq;
}

/* VC iv is its input's offer (the noff-th): noted, with its output in
 * *offered, and *clash set if another offer took that output already.
 * Returns the new count. */
static inline int sa_offer(FlSim *s, int iv, int noff, uint64_t *offered, int *clash)
{
    uint64_t bit = (uint64_t)1 << (s->vc[iv].out_port & 63);
    *clash |= (*offered & bit) != 0;
    *offered |= bit;
    s->sa_offer[noff] = iv;
    return noff + 1;
}

/* Switch allocation and traversal, over the ready input VCs that hold an
 * output VC (no other VC can send). Input stage: each input offers,
 * among its VCs that can send, the first after its round-robin pointer;
 * VCs come in local order, so one input's VCs are consecutive. Output
 * stage: each output port grants the first requesting input after its
 * pointer. Offers to distinct outputs all win, which is most visits below
 * saturation: they are sent in input order, as the output stage would. */
HOT static void switch_allocate(FlSim *s, const SwitchAt *at, const int mode)
{
    const int V = s->V, vc0 = at->vc0, nin = at->n->nin, w0 = at->w0, w1 = at->w1;
    const SimVc *vc = s->vc;
    SimPort *port = s->port + at->n->in0;
    const int64_t now = at->now;
    /* Most visits at light load find one VC that holds an output VC: it
     * is the only request at its input and its output, and wins both. */
    if (w1 == w0 + 1) {
        uint64_t bits = s->ready_mask[w0] & s->out_mask[w0];
        if (!(bits & (bits - 1))) {
            if (bits) {
                int iv = vc0 + __builtin_ctzll(bits);
                const SimVc *q = &vc[iv];
                if (vc_can_send(s, q, now, mode))
                    traverse(s, port, q->li, iv, mode);
                else
                    wait_credit(s, q, now, mode);
            }
            return;
        }
        /* Many others find two (two packets crossing): the stages below
         * decided between two requests, a before b in input order. */
        uint64_t rest = bits & (bits - 1);
        if (!(rest & (rest - 1))) {
            int ia = vc0 + __builtin_ctzll(bits), ib = vc0 + __builtin_ctzll(rest);
            const SimVc *a = &vc[ia], *b = &vc[ib];
            int can_a = vc_can_send(s, a, now, mode), can_b = vc_can_send(s, b, now, mode);
            if (!can_a || !can_b) {
                if (can_a)
                    traverse(s, port, a->li, ia, mode);
                else
                    wait_credit(s, a, now, mode);
                if (can_b)
                    traverse(s, port, b->li, ib, mode);
                else
                    wait_credit(s, b, now, mode);
                return;
            }
            if (a->li != b->li && a->out_port != b->out_port) {
                traverse(s, port, a->li, ia, mode);
                traverse(s, port, b->li, ib, mode);
                return;
            }
            /* One input's two VCs (its round robin), or two inputs for one
             * output (the output's): b wins if it comes first after the
             * last grant. */
            int in_last = port[a->li].in_rr, out_last = port[a->out_port].out_rr;
            int b_wins = a->li == b->li
                             ? rr_rank(b->v, in_last, V) < rr_rank(a->v, in_last, V)
                             : rr_rank(b->li, out_last, nin) < rr_rank(a->li, out_last, nin);
            s->lost[b_wins ? ia : ib] = (uint32_t)(now + 1);
            if (b_wins)
                traverse(s, port, b->li, ib, mode);
            else
                traverse(s, port, a->li, ia, mode);
            return;
        }
    }
    int noff = 0;
    /* The outputs offered to, while ports fit a word's bits; two offers to
     * one output (or a wider switch) need the output stage. */
    uint64_t offered = 0;
    int clash = nin > 64;
    /* Input cur offers best, unless a later VC of it wins its round robin:
     * the offer waits until the next input's first VC that can send. */
    int cur = -1, best = -1;
    for (int w = w0; w < w1; w++) {
        for (uint64_t bits = s->ready_mask[w] & s->out_mask[w]; bits; bits &= bits - 1) {
            int iv = vc0 + (w - w0) * 64 + __builtin_ctzll(bits);
            const SimVc *q = &vc[iv];
            if (!vc_can_send(s, q, now, mode)) {
                wait_credit(s, q, now, mode);
                continue;
            }
            /* It will probably send: start loading what traverse() reads,
             * the front flit and the output VC's record, which on large
             * networks are rarely in the first-level cache. */
            __builtin_prefetch(&s->slot[ring_front(q)]);
            __builtin_prefetch(&vc[q->out], 1);
            if (q->li == cur) {
                /* Rare: a second VC of the input can send. */
                int last = port[cur].in_rr;
                if (rr_rank(q->v, last, V) < rr_rank(vc[best].v, last, V)) {
                    s->lost[best] = (uint32_t)(now + 1);
                    best = iv;
                } else {
                    s->lost[iv] = (uint32_t)(now + 1);
                }
                continue;
            }
            if (best >= 0)
                noff = sa_offer(s, best, noff, &offered, &clash);
            cur = q->li;
            best = iv;
        }
    }
    if (best >= 0)
        noff = sa_offer(s, best, noff, &offered, &clash);
    if (!clash) {
        for (int r = 0; r < noff; r++) {
            int iv = s->sa_offer[r];
            traverse(s, port, vc[iv].li, iv, mode);
        }
        return;
    }
    int nreq = 0;
    for (int r = 0; r < noff; r++) {
        int iv = s->sa_offer[r];
        nreq = sa_request(s, port, vc[iv].li, nin, iv, nreq);
    }
    for (int r = 0; r < nreq; r++) {
        int p = s->req_list[r], li = s->sa_win[p];
        s->sa_win[p] = -1;
        traverse(s, port, li, s->sa_vc[li], mode);
    }
}

/* The plain pipeline's lone head at local input VC loc of the switch at,
 * while no VC holds an output VC: the only request of both allocators. A
 * head that is its packet's tail (a 1-flit packet) and may go at once is
 * granted and sent in one step, its VC never recording the output VC it
 * gives up as it leaves; another is granted, for switch allocation's
 * one-request path to send. Returns whether the switch still has a ready
 * VC, or -1 when switch allocation is still to come. */
HOT static int lone_head(FlSim *s, const SwitchAt *at, int loc, const int mode)
{
    int iv = at->vc0 + loc;
    SimVc *q = &s->vc[iv];
    if (vc_wake(s, q, mode) > at->now) /* next cycle */
        return 1;
    int ov = request_output_vc(s, at->sw, at->n, iv, mode);
    if (ov < 0)
        return 1;
    const SimSlot *front = &s->slot[ring_front(q)];
    if (front->flit >= 0 || s->credits[ov] <= 0) {
        vc_grant(s, at, loc, ov, mode);
        return -1;
    }
    /* As vc_grant() and traverse() would leave it. */
    SimSlot flit = *front;
    grant_hop(s, loc, iv, ov, &flit);
    cross(s, s->port + at->n->in0, q->li, s->outvc[ov].port, q, iv, &s->vc[ov], flit, 0, mode);
    return s->ready_mask[at->w0] != 0;
}

/* One cycle of switch sw: VC allocation if a head waits for an output VC,
 * then switch allocation. Most cycles of a busy switch need only the
 * second. Returns whether the switch still has a ready VC; one whose VCs
 * are all waiting for flits on their way leaves the active set, and the
 * wheel brings it back. */
HOT static int switch_tick(FlSim *s, int sw, const int mode)
{
    const uint64_t *ready = s->ready_mask, *out_mask = s->out_mask;
    const SimNodeAt *node = &s->node_at[sw];
    /* The plain pipeline's switches have one mask word, their own number
     * (see FlSim.plain), which folds away every loop over a switch's words
     * and lets the masks load without waiting for the switch's record. */
    const int w0 = mode & MODE_PLAIN ? sw : node->w0;
    const int w1 = mode & MODE_PLAIN ? w0 + 1 : node->w1;
    const SwitchAt at = { node, node->vc0, w0, w1, sw, s->sc.cycle };
    /* Most switches have one mask word: it first, then any others. */
    uint64_t waiting = ready[at.w0] & ~out_mask[at.w0];
    for (int w = at.w0 + 1; w < at.w1; w++)
        waiting |= ready[w] & ~out_mask[w];
    if (waiting) {
        /* A lone head while no VC holds an output VC (most visits with
         * 1-flit packets at light load): switch allocation has nothing to
         * do unless it wins a VC. */
        if (at.w1 == at.w0 + 1 && !(waiting & (waiting - 1))
            && !(ready[at.w0] & out_mask[at.w0])) {
            if (mode & MODE_PLAIN) {
                int left = lone_head(s, &at, __builtin_ctzll(waiting), mode);
                if (left >= 0)
                    return left;
            } else if (!vc_allocate_one(s, &at, waiting, mode))
                return ready[at.w0] != 0;
        } else {
            vc_allocate(s, &at, waiting, mode);
        }
    }
    switch_allocate(s, &at, mode);
    uint64_t any = ready[at.w0];
    for (int w = at.w0 + 1; w < at.w1; w++)
        any |= ready[w];
    return any != 0;
}

/* --- the active sets -------------------------------------------------------- */

/* A word of an active set is visited as it stands when the visit reaches
 * it, and no node of its set joins while it is (switches join when the
 * wheel turns, before their visits; hosts as their word's visits start, or
 * when a packet is made, before them), so the nodes that leave are gathered in a mask, without a
 * branch (whether a node stays changes from cycle to cycle), and leave the
 * word at once after its visits. A flit sent to such a node later puts it
 * back. */
static inline uint64_t leave_bit(int n, int keep)
{
    return (uint64_t)!keep << (n & 63);
}

/* Starts loading the records of the first two occupied input VCs of
 * switch sw, the next to be visited, which on large networks are rarely in
 * the first-level cache (a switch visit mostly waits for them otherwise).
 * Without branches: a switch with fewer such VCs loads input VC 0 again. */
static inline void prefetch_switch(const FlSim *s, int sw, const int mode)
{
    const SimNodeAt *at = &s->node_at[sw];
    const SimVc *vc = s->vc + at->vc0;
    uint64_t bits = s->ready_mask[mode & MODE_PLAIN ? sw : at->w0];
    int a = bits ? __builtin_ctzll(bits) : 0;
    bits &= bits - 1;
    int b = bits ? __builtin_ctzll(bits) : 0;
    __builtin_prefetch(&vc[a]);
    __builtin_prefetch(&vc[b]);
}

/* The active hosts, those whose flits arrive now and the blocked ones
 * whose credit has come, in node order; mode as for the switches. A
 * host stays active while it sends (or, with host_stay, while flits are on
 * their way to it). A host that waits for a credit on the VC it holds
 * waits in host_blocked instead, where a look at that credit each cycle
 * costs less than a visit that would find nothing else to do. */
HOT static void visit_hosts(FlSim *s, const int mode)
{
    const int words = (s->n_nodes + 63) / 64;
    const uint64_t stay = s->host_stay;
    /* In a local: the counts are int64_t stores the compiler would
     * otherwise assume change it. */
    const int64_t now = s->sc.cycle;
    /* The hosts whose flits arrive now join. */
    uint64_t *due = s->host_due + (now & s->host_due_mask) * words;
    for (int w = 0; w < words; w++) {
        uint64_t *word = &s->active[SIM_HOSTS][w], blocked = s->host_blocked[w], woken = 0;
        for (uint64_t bits = blocked; bits; bits &= bits - 1) {
            int b = __builtin_ctzll(bits), h = s->node_host[w * 64 + b];
            int up = s->credits[s->host_vc[h]] > 0;
            woken |= (uint64_t)up << b;
            /* A woken host sends from the packet at its queue's front,
             * made long ago past saturation: its record is loaded for all
             * of them at once, not one visit at a time. */
            __builtin_prefetch(&s->pool[up ? s->q_head[h] : 0]);
        }
        uint64_t all = *word | due[w] | woken, leave = 0, blocks = 0;
        due[w] = 0;
        for (uint64_t bits = all; bits; bits &= bits - 1) {
            int n = w * 64 + __builtin_ctzll(bits), h = s->node_host[n];
            int busy = (host_eject(s, h, n, &s->node_at[n], now, mode) & stay) != 0;
            int sends = host_inject(s, h, now, mode);
            leave |= leave_bit(n, busy | (sends == HOST_SENDING));
            if (sends == HOST_BLOCKED)
                blocks |= (uint64_t)1 << (n & 63);
        }
        *word = all & ~leave;
        s->host_blocked[w] = (blocked & ~woken) | blocks;
    }
}

/* The host visits, a copy for each mode that has hosts (the lanes' hosts
 * are lane 0's), which the compiler would not all make itself. Out of
 * line, so that the compiler lays out the switch visits the same whatever
 * the hosts' code (inlined, a change there moved the switches' cost by
 * ±0.5 %), and it costs nothing: it is called once a cycle. */
__attribute__((noinline)) static void visit_hosts_plain(FlSim *s)
{
    visit_hosts(s, MODE_PLAIN);
}

__attribute__((noinline)) static void visit_hosts_any(FlSim *s)
{
    visit_hosts(s, 0);
}

__attribute__((noinline)) static void visit_hosts_lanes(FlSim *s)
{
    visit_hosts(s, MODE_LANES);
}

/* The active switches of the lane whose record is ls, in node order,
 * after its wheel turns, compiled for mode (a constant). */
HOT static void visit_switches(FlSim *ls, const int mode)
{
    wheel_turn(ls);
    for (int w = ls->lane_w_lo; w < ls->lane_w_hi; w++) {
        uint64_t *word = &ls->active[SIM_SWITCHES][w], leave = 0;
        for (uint64_t bits = *word; bits; bits &= bits - 1) {
            int sw = w * 64 + __builtin_ctzll(bits);
            uint64_t next = bits & (bits - 1);
            if (next)
                prefetch_switch(ls, w * 64 + __builtin_ctzll(next), mode);
            leave |= leave_bit(sw, switch_tick(ls, sw, mode));
        }
        *word &= ~leave;
    }
}

/* The active sets are visited in node order, a word of each at a time as
 * it stands when the visit reaches it: hosts first (what they touch at
 * their switches is then fresh for the switches' visits), then each
 * lane's switches. Switches join only when their lane's wheel turns,
 * before their visits. A host joins as the flits sent to it arrive (see
 * Hosts in sim-internal.h): this cycle's sends wake their hosts in the
 * bitmap of their arrival, host_wake. Nodes within a cycle do not depend on
 * one another's order, except for the selection's random draws, which
 * follow node order (see Lanes in sim-internal.h). */
void fl__sim_nodes_tick(FlSim *s)
{
    s->sc.occ_weight = fl__sim_occ_weight(s);
    s->sc.credit_due = s->sc.cycle + 1 + s->cfg.credit_delay;
    s->host_wake = s->host_due
                   + ((s->sc.cycle + s->send_delay) & s->host_due_mask) * ((s->n_nodes + 63) / 64);
    if (s->n_lanes == 1) {
        if (s->plain) {
            visit_hosts_plain(s);
            visit_switches(s, MODE_PLAIN);
        } else {
            visit_hosts_any(s);
            visit_switches(s, 0);
        }
        return;
    }
    visit_hosts_lanes(s);
    fl__sim_lanes_run(s);
    /* The flits held for other lanes enter their rings, each VC's in the
     * order sent (a VC has one sender). */
    for (int l = 0; l < s->n_lanes; l++) {
        FlSim *ls = fl__sim_lane(s, l);
        for (int i = 0; i < ls->n_push; i++) {
            SimVc *q = &s->vc[ls->push[i].vc];
            ring_push(fl__sim_lane(s, s->node_lane[q->node]), q, ls->push[i].flit,
                      ls->push[i].ready, 0);
        }
        ls->n_push = 0;
    }
}

void fl__sim_lane_tick(FlSim *ls)
{
    if (ls->plain)
        visit_switches(ls, MODE_LANES | MODE_PLAIN);
    else
        visit_switches(ls, MODE_LANES);
}
