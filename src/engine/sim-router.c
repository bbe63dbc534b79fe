/* sim-router.c — one cycle of the active hosts and switches: ejection and
 * injection at hosts; VC allocation, switch allocation and traversal at
 * switches. The model is described in sim-internal.h. */
#include "sim-internal.h"

void fl__sim_activate(FlSim *s, int n)
{
    if (!s->node_active[n]) {
        s->node_active[n] = 1;
        s->active[s->sc.n_active++] = n;
    }
}

/* --- rings ---------------------------------------------------------------- */

/* The hot paths below avoid branches that go either way from one flit to
 * the next (ring wrap-around, a ring emptying or filling, a node joining
 * the active list): mispredicted, each costs more than the arithmetic that
 * replaces it. */

/* at, or at - cap once at reaches cap (0 <= at < 2 * cap). */
static inline int ring_wrap(int at, int cap)
{
    return at - (cap & -(at >= cap));
}

static inline int64_t ring_slot(const SimVc *q, int k)
{
    return (int64_t)q->ring_base + ring_wrap(q->head + k, q->cap);
}

/* The slot of q's front flit (k = 0 needs no wrap). */
static inline int64_t ring_front(const SimVc *q)
{
    return (int64_t)q->ring_base + q->head;
}

/* The word of input VC q in its node's occupancy (or output) mask. */
static inline int mask_index(const SimVc *q)
{
    return q->mask_pos >> 6;
}

static inline uint64_t mask_bit(const SimVc *q)
{
    return (uint64_t)1 << (q->mask_pos & 63);
}

static inline void ring_push(FlSim *s, SimVc *q, int32_t pkt, int32_t flit, int64_t ready)
{
    fl__sim_occ_push(s, q);
    SimSlot *slot = &s->slot[ring_slot(q, q->count)];
    slot->pkt = pkt;
    slot->flit = flit;
    slot->ready = ready;
    /* Into an empty ring the flit is the front one. Any earlier
     * switch-allocation delay has passed: the VC emptied by sending a
     * flit, which it could do only once that delay was over. */
    int64_t keep = -(int64_t)(q->count != 0);
    q->go = (q->go & keep) | (ready & ~keep);
    q->count++;
    s->node_mask[mask_index(q)] |= mask_bit(q);
    int n = q->node;
    /* The active list has room for one more entry than there are nodes,
     * so the write below is harmless when n is already on it. */
    s->active[s->sc.n_active] = n;
    s->sc.n_active += !s->node_active[n];
    s->node_active[n] = 1;
}

static inline void ring_pop(FlSim *s, SimVc *q)
{
    fl__sim_occ_pop(s, q);
    q->head = ring_wrap(q->head + 1, q->cap);
    q->count--;
    s->node_mask[mask_index(q)] &= ~(mask_bit(q) & -(uint64_t)(q->count == 0));
    /* The new front's ready cycle, as in ring_push(); of an empty ring it
     * reads a stale slot, and the next push overwrites it. */
    q->go = s->slot[ring_front(q)].ready;
}

/* --- moving flits ---------------------------------------------------------- */

/* Writes the flit of packet pkt coded flit (fl__sim_flit_code) into output
 * VC o, arriving delay cycles from now; takes the credit and occupies the
 * channel. After a tail, the sender's side of o is released (see
 * FlVcRelease). */
static inline void send_flit(FlSim *s, SimVc *o, int32_t pkt, int32_t flit, int delay)
{
    int64_t now = s->sc.cycle;
    SimChan *ch = &s->chan[o->chan];
    ring_push(s, o, pkt, flit, now + delay);
    if (s->multi_cycle_links)
        ch->free_at = now + s->cfg.link_cycles_per_flit;
    if (s->sc.in_window)
        ch->flits++;
    s->sc.flit_hops++;
    /* An ejection VC needs no credits. */
    int32_t *credits = &s->credits[o - s->vc];
    *credits -= !o->sink;
    if (flit < 0) /* the tail */
        o->owner = s->cfg.vc_release == FL_VC_RELEASE_TAIL_CREDIT && !o->sink
                           && *credits < o->cap
                       ? -2
                       : -1;
}

/* Queues the credit of a slot freed in input VC iv for its sender. */
static inline void return_credit(FlSim *s, int iv)
{
    SimScalars *sc = &s->sc;
    int64_t at = sc->cq_head + sc->cq_count;
    if (at >= s->n_slots)
        at -= s->n_slots;
    s->cq[at].vc = iv;
    s->cq[at].due = sc->cycle + 1 + s->cfg.credit_delay;
    sc->cq_count++;
}

/* --- hosts ------------------------------------------------------------------ */

/* Consumes the flits that have reached host h; a tail completes its packet. */
static void host_eject(FlSim *s, int h)
{
    int V = s->V;
    int64_t now = s->sc.cycle;
    SimVc *q = &s->vc[s->host_ej[h] * V];
    for (int v = 0; v < V; v++, q++) {
        while (q->count > 0) {
            const SimSlot *slot = &s->slot[ring_front(q)];
            if (slot->ready > now)
                break;
            int32_t pkt = slot->pkt, flit = slot->flit;
            ring_pop(s, q);
            s->sc.net_flits--;
            s->sc.ejected++;
            if (s->sc.in_window)
                s->host_accepted[h]++;
            if (flit < 0) {
                SimPacket *p = &s->pool[pkt];
                fl__sim_stats_packet_done(s, p);
                p->next = s->sc.free_head;
                s->sc.free_head = pkt;
            }
        }
    }
}

/* Whether output VC ov may take the head of a packet of len flits. */
static inline int output_vc_open(const FlSim *s, int ov, int len)
{
    const SimVc *o = &s->vc[ov];
    if (o->owner != -1)
        return 0;
    return s->cfg.switching != FL_SWITCHING_VCT || o->sink || s->credits[ov] >= len;
}

/* Sends the next flit of the packet at the front of host h's queue. */
static void host_inject(FlSim *s, int h)
{
    int32_t pkt = s->q_head[h];
    if (pkt < 0)
        return;
    SimPacket *p = &s->pool[pkt];
    int c = s->host_inj[h], V = s->V;
    int64_t now = s->sc.cycle;
    if (s->multi_cycle_links && s->chan[c].free_at > now)
        return;
    if (s->host_vc[h] < 0) {
        /* Any VC of the injection channel will do: round robin. */
        int v = s->host_rr[h] < 0 ? 0 : s->host_rr[h] + 1;
        for (int k = 0; k < V; k++, v++) {
            if (v == V)
                v = 0;
            if (output_vc_open(s, c * V + v, p->len)) {
                s->host_vc[h] = c * V + v;
                s->host_rr[h] = v;
                s->vc[c * V + v].owner = c * V + v;
                break;
            }
        }
        if (s->host_vc[h] < 0)
            return;
    }
    SimVc *o = &s->vc[s->host_vc[h]];
    if (s->credits[s->host_vc[h]] <= 0)
        return;
    if (p->sent == 0)
        p->injected = now;
    send_flit(s, o, pkt, fl__sim_flit_code(p->sent, p->sent == p->len - 1), s->inject_delay);
    s->sc.net_flits++;
    p->sent++;
    s->sc.queued_flits--;
    if (p->sent == p->len) {
        s->host_vc[h] = -1;
        s->q_head[h] = p->next;
        if (s->q_head[h] < 0)
            s->q_tail[h] = -1;
        p->next = -1;
    }
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
        sum += s->credits[channel * s->V + v];
    return sum;
}

int fl__sim_route_choices(FlSim *s, int sw, int iv, FlRouteChoice *out, int max)
{
    const SimVc *q = &s->vc[iv];
    const SimPacket *p = &s->pool[s->slot[ring_front(q)].pkt];
    int dest = s->host_switch[p->dst];
    if (dest == sw) {
        int ej = s->host_ej[p->dst];
        out[0] = (FlRouteChoice){ fl__out_port(s->t, ej), ej, -1 };
        return 1;
    }
    /* Input VCs are at switches, so a channel that does not come from a
     * switch comes from a host. */
    int from_host = !s->chan_s2s[q->chan];
    return fl_routing_next(s->cfg.routing, sw, from_host ? -1 : q->chan,
                           from_host ? 0 : s->vc_class[q->v], dest, out, max);
}

/* The output VC the head at the front of iv requests this cycle, or -1:
 * the selected route's channel, the free VC of its class with the most
 * credits. */
static int request_output_vc(FlSim *s, int sw, int iv)
{
    FlRouteChoice choices[FL_ROUTE_MAX_CHOICES];
    int n = fl__sim_route_choices(s, sw, iv, choices, FL_ROUTE_MAX_CHOICES);
    if (n < 1)
        return -1;
    CreditView view = { s };
    int pick = n == 1 ? 0
                      : fl_routing_select(choices, n, s->cfg.selection, &s->sc.rng,
                                          class_credits, &view);
    int c = choices[pick].channel, k = choices[pick].vc_class, V = s->V;
    int lo = k < 0 ? 0 : s->class_lo[k], hi = k < 0 ? V : s->class_lo[k + 1];
    int len = s->pool[s->slot[ring_front(&s->vc[iv])].pkt].len;
    int best = -1, best_credits = 0;
    for (int v = lo; v < hi; v++) {
        int ov = c * V + v;
        if (output_vc_open(s, ov, len) && (best < 0 || s->credits[ov] > best_credits)) {
            best = ov;
            best_credits = s->credits[ov];
        }
    }
    return best;
}

/* Round-robin priority of requester x (0..n-1) after the last grant. */
static inline int rr_rank(int x, int last, int n)
{
    int d = x - last - 1;
    return d < 0 ? d + n : d;
}

/* VC allocation, over the occupied input VCs that hold no output VC. */
static void vc_allocate(FlSim *s, int sw)
{
    const int in0 = s->in_off[sw], nloc = (s->in_off[sw + 1] - in0) * s->V;
    const int w0 = s->mask_base[sw], w1 = s->mask_base[sw + 1];
    const int32_t *in_vc = s->in_vc + (int64_t)in0 * s->V;
    const int64_t now = s->sc.cycle, routing_delay = s->cfg.routing_delay;
    int nreq = 0;
    for (int w = w0; w < w1; w++) {
        for (uint64_t bits = s->node_mask[w] & ~s->out_mask[w]; bits; bits &= bits - 1) {
            int loc = (w - w0) * 64 + __builtin_ctzll(bits), iv = in_vc[loc];
            if (s->vc[iv].go + routing_delay > now)
                continue;
            int ov = request_output_vc(s, sw, iv);
            if (ov < 0)
                continue;
            int held = s->vc_win[ov], last = s->vc[ov].rr;
            if (held < 0) {
                s->req_list[nreq++] = ov;
                s->vc_win[ov] = loc;
            } else if (rr_rank(loc, last, nloc) < rr_rank(held, last, nloc)) {
                s->vc_win[ov] = loc;
            }
        }
    }
    for (int r = 0; r < nreq; r++) {
        int ov = s->req_list[r], loc = s->vc_win[ov];
        SimVc *q = &s->vc[in_vc[loc]], *o = &s->vc[ov];
        s->vc_win[ov] = -1;
        q->out = ov;
        q->out_chan = o->chan;
        /* The head was ready (go <= now), so the grant's delay decides. */
        q->go = now + s->cfg.vc_alloc_delay;
        s->out_mask[mask_index(q)] |= mask_bit(q);
        o->owner = in_vc[loc];
        o->rr = loc;
        /* A hop is counted when the head wins its output VC: it will leave
         * by it, and the grant happens once per switch, like the send. */
        s->pool[s->slot[ring_front(q)].pkt].hops++;
    }
}

/* Whether input VC q (holding an output VC) can send its front flit this
 * cycle. */
static inline int vc_can_send(const FlSim *s, const SimChan *chan, const SimVc *q, int64_t now)
{
    /* The VC's own record first, then small arrays: the output VC's
     * record is another cache line. */
    if (q->go > now)
        return 0;
    int oc = q->out_chan;
    return (!s->multi_cycle_links || chan[oc].free_at <= now)
           && (s->credits[q->out] > 0 || s->chan_sink[oc]);
}

/* Input li of switch sw offers VC q (index iv) to its output channel's
 * arbiter. */
static inline void sa_request(FlSim *s, int li, int nin, int iv, const SimVc *q, int *nreq)
{
    int oc = q->out_chan, w = s->sa_win[oc];
    s->sa_vc[li] = iv;
    if (w < 0) {
        s->req_list[(*nreq)++] = oc;
        s->sa_win[oc] = li;
    } else {
        int last = s->chan[oc].out_rr;
        if (rr_rank(li, last, nin) < rr_rank(w, last, nin))
            s->sa_win[oc] = li;
    }
}

/* Switch allocation and traversal, over the occupied input VCs that hold
 * an output VC (no other VC can send). */
static void switch_allocate(FlSim *s, int sw)
{
    /* The arrays in locals: the stores below go through int pointers the
     * compiler would otherwise have to assume change them. */
    const int V = s->V, in0 = s->in_off[sw], nin = s->in_off[sw + 1] - in0;
    const int w0 = s->mask_base[sw], w1 = s->mask_base[sw + 1];
    const int32_t *in_vc = s->in_vc + (int64_t)in0 * V;
    const uint64_t *node_mask = s->node_mask, *out_mask = s->out_mask;
    SimVc *vc = s->vc;
    const SimChan *chan = s->chan;
    const SimSlot *slot = s->slot;
    const int64_t now = s->sc.cycle;
    int nreq = 0;
    /* Input stage: each input offers, among its VCs that can send, the
     * first after its round-robin pointer. VCs come in local order, so one
     * input's VCs are consecutive. The pointer is read only when a second
     * VC of the input can send: most inputs have one. */
    int cur = -1, best = -1, best_rank = -1;
    for (int w = w0; w < w1; w++) {
        for (uint64_t bits = node_mask[w] & out_mask[w]; bits; bits &= bits - 1) {
            int iv = in_vc[(w - w0) * 64 + __builtin_ctzll(bits)];
            const SimVc *q = &vc[iv];
            int li = q->li;
            if (li != cur) {
                if (best >= 0)
                    sa_request(s, cur, nin, best, &vc[best], &nreq);
                cur = li;
                best = -1;
            }
            if (!vc_can_send(s, chan, q, now))
                continue;
            if (best < 0) {
                best = iv;
                best_rank = -1;
                continue;
            }
            int last = s->in_rr[q->chan];
            if (best_rank < 0)
                best_rank = rr_rank(vc[best].v, last, V);
            int rank = rr_rank(q->v, last, V);
            if (rank < best_rank) {
                best = iv;
                best_rank = rank;
            }
        }
    }
    if (best >= 0)
        sa_request(s, cur, nin, best, &vc[best], &nreq);
    for (int r = 0; r < nreq; r++) {
        int oc = s->req_list[r], li = s->sa_win[oc];
        s->sa_win[oc] = -1;
        int iv = s->sa_vc[li];
        SimVc *q = &vc[iv];
        s->chan[oc].out_rr = li;
        s->in_rr[q->chan] = (int8_t)q->v;
        const SimSlot *front = &slot[ring_front(q)];
        int32_t pkt = front->pkt, flit = front->flit;
        int tail = flit < 0;
        ring_pop(s, q);
        if (!q->sink)
            return_credit(s, iv);
        SimVc *o = &vc[q->out];
        /* A tail gives up the output VC (without a branch: one flit in a
         * few is a tail). */
        q->out = tail ? -1 : q->out;
        s->out_mask[mask_index(q)] &= ~(mask_bit(q) & -(uint64_t)tail);
        send_flit(s, o, pkt, flit, s->send_delay);
    }
}

/* One cycle of switch sw: VC allocation if a head waits for an output VC,
 * then switch allocation if a VC holds one. Most cycles of a busy switch
 * need only the second. */
static void switch_tick(FlSim *s, int sw)
{
    const uint64_t *node_mask = s->node_mask, *out_mask = s->out_mask;
    uint64_t waiting = 0, occupied = 0;
    for (int w = s->mask_base[sw], w1 = s->mask_base[sw + 1]; w < w1; w++) {
        waiting |= node_mask[w] & ~out_mask[w];
        occupied |= node_mask[w];
    }
    if (waiting)
        vc_allocate(s, sw);
    /* An occupied VC either waited (and may now hold an output VC) or
     * held one already. */
    if (occupied)
        switch_allocate(s, sw);
}

void fl__sim_nodes_tick(FlSim *s)
{
    int n = s->sc.n_active;
    for (int i = 0; i < n; i++) {
        int node = s->active[i];
        int h = s->node_host[node];
        if (h >= 0) {
            host_eject(s, h);
            host_inject(s, h);
        } else {
            switch_tick(s, node);
        }
    }
}
