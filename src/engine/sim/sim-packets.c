/* sim-packets.c — packets by id: the index from id to pool slot, the route
 * chunks each packet's route is kept in, and the views of one packet
 * (where its head is, the route it took, what it waits for).
 *
 * A packet's head is found from its route (see SIM_ROUTE_CHUNK): the last
 * entry is the VC it was last granted, the one before the VC it was in. If
 * the head is still at the front of that earlier VC, the grant is pending;
 * otherwise it is in the last VC's ring (in the buffer or on the link), or,
 * when that is an ejection VC and the ring no longer holds it, at its host.
 */
#include <stdlib.h>
#include <string.h>

#include "sim-internal.h"

/* --- the index ------------------------------------------------------------- */

/* Enters every live packet of pool (slots below used) in a table of
 * mask + 1 entries; 0 if two of them share an entry. */
static int index_fill(const SimPacket *pool, int32_t used, int32_t *index, int64_t mask)
{
    for (int64_t h = 0; h <= mask; h++)
        index[h] = -1;
    for (int32_t pkt = 0; pkt < used; pkt++) {
        if (pool[pkt].id < 0)
            continue;
        int64_t h = pool[pkt].id & mask;
        if (index[h] >= 0)
            return 0;
        index[h] = pkt;
    }
    return 1;
}

int fl__sim_index_build(const SimPacket *pool, int32_t used, int32_t **index, int64_t *mask)
{
    /* Ids alive span at least as many as are alive. */
    int64_t len = fl__sim_ring_length(used > 32 ? 2 * used : 64);
    for (;; len *= 2) {
        int32_t *table = malloc(sizeof *table * (size_t)len);
        if (!table)
            return FL_ENOMEM;
        if (index_fill(pool, used, table, len - 1)) {
            free(*index);
            *index = table;
            *mask = len - 1;
            return FL_OK;
        }
        free(table);
    }
}

/* The pool slot of packet id, or -1. */
static int32_t index_find(const FlSim *s, int64_t id)
{
    if (id < 0)
        return -1;
    int32_t pkt = s->index[id & s->index_mask];
    return pkt >= 0 && pkt < s->sc.pool_used && s->pool[pkt].id == id ? pkt : -1;
}

/* --- route chunks ---------------------------------------------------------- */

int fl__sim_packets_alloc(FlSim *s)
{
    s->route_cap = 64 + s->n_hosts;
    /* Zeroed, chunk 0 too: chunk 0 is never handed out (every route's
     * first chunk links to it, and a route that could not grow writes into
     * it, so that walking a route never leaves the array; see
     * fl__sim_route_start), and the slots a short route leaves unwritten
     * are compared byte for byte when checkpoints share pages. */
    s->route = calloc((size_t)s->route_cap, sizeof *s->route * SIM_ROUTE_CHUNK);
    if (!s->route)
        return FL_ENOMEM;
    return fl__sim_index_build(s->pool, 0, &s->index, &s->index_mask);
}

void fl__sim_packets_free(FlSim *s)
{
    free(s->route);
    free(s->index);
}

int fl__sim_route_reserve(FlSim *s, int32_t n)
{
    if (n <= s->route_cap)
        return FL_OK;
    int32_t *bigger = realloc(s->route, sizeof *bigger * SIM_ROUTE_CHUNK * (size_t)n);
    if (!bigger)
        return FL_ENOMEM;
    memset(bigger + SIM_ROUTE_CHUNK * (size_t)s->route_cap, 0,
           sizeof *bigger * SIM_ROUTE_CHUNK * (size_t)(n - s->route_cap));
    s->route = bigger;
    s->route_cap = n;
    return FL_OK;
}

int32_t fl__sim_route_chunk_new(FlSim *s, int32_t prev)
{
    /* A head's slot has room for positions below SIM_ROUTE_MAX. */
    if (s->sc.route_used >= SIM_ROUTE_MAX / SIM_ROUTE_CHUNK
        || (s->sc.route_used == s->route_cap && fl__sim_route_reserve(s, 2 * s->route_cap))) {
        s->nomem = 1;
        return 0;
    }
    int32_t c = s->sc.route_used++;
    s->route[c * SIM_ROUTE_CHUNK + SIM_ROUTE_LINK] = prev;
    return c;
}

int32_t fl__sim_route_extend(FlSim *s, int32_t at)
{
    /* A lane's record (see Lanes) takes the chunk from the simulation's
     * store, and sees the store where it is: it moves only while lanes run
     * one after another, when fl__sim_lanes_run() could not make room. */
    fl__sim_lanes_lock(s);
    int32_t c = fl__sim_route_chunk(s->master, at / SIM_ROUTE_CHUNK);
    s->route = s->master->route;
    s->route_cap = s->master->route_cap;
    fl__sim_lanes_unlock(s);
    return c ? c * SIM_ROUTE_CHUNK : at;
}

/* Entries of packet p's route once its head has left its host (hops + 1),
 * found from the entry of its last chunk that p names. */
static int route_length(const FlSim *s, const SimPacket *p)
{
    if (p->injected < 0)
        return 0;
    int32_t at = p->route;
    while (((at + 1) & SIM_ROUTE_LINK) != SIM_ROUTE_LINK && s->route[at + 1] != SIM_ROUTE_END)
        at++;
    return fl__sim_route_entries(s, at);
}

/* Entries per chunk. */
#define ENTRIES SIM_ROUTE_LINK

/* Entry i of the route of p, whose route has len entries: O(len - i). */
static int32_t route_entry(const FlSim *s, const SimPacket *p, int len, int i)
{
    int32_t c = p->route / SIM_ROUTE_CHUNK;
    for (int k = (len - 1) / ENTRIES; k > i / ENTRIES; k--)
        c = s->route[c * SIM_ROUTE_CHUNK + SIM_ROUTE_LINK];
    return s->route[c * SIM_ROUTE_CHUNK + i % ENTRIES];
}

/* --- where a head is ------------------------------------------------------- */

typedef struct HeadAt {
    int entered;         /* route entries its head has entered */
    int32_t vc;          /* the VC whose ring holds it (or, delivered, the
                          * ejection VC), -1 in its source queue */
    int k;               /* its place in that ring, from the front */
    int delivered;       /* the host has consumed it */
} HeadAt;

/* Whether slot k of q's ring holds the head of packet pkt. */
static int holds_head(const FlSim *s, const SimVc *q, int k, int32_t pkt)
{
    const SimSlot *slot = &s->slot[(int64_t)q->ring_base + ((q->head + k) & q->mask)];
    return slot->pkt == pkt && fl__sim_flit_index(slot->flit) == 0;
}

/* Finds the head of packet pkt; FL_ENOTFOUND if the state does not hold it
 * where its route says (which would be a bug). */
static int locate_head(const FlSim *s, int32_t pkt, HeadAt *at)
{
    const SimPacket *p = &s->pool[pkt];
    int len = route_length(s, p);
    memset(at, 0, sizeof *at);
    at->vc = -1;
    if (len == 0)
        return FL_OK;
    int32_t last = route_entry(s, p, len, len - 1);
    if (len >= 2) {
        int32_t before = route_entry(s, p, len, len - 2);
        const SimVc *q = &s->vc[before];
        if (q->count > 0 && holds_head(s, q, 0, pkt)) {
            at->entered = len - 1;
            at->vc = before;
            return FL_OK;
        }
    }
    const SimVc *q = &s->vc[last];
    at->entered = len;
    at->vc = last;
    for (int k = 0; k < q->count; k++)
        if (holds_head(s, q, k, pkt)) {
            at->k = k;
            return FL_OK;
        }
    at->delivered = q->sink;
    return q->sink ? FL_OK : FL_ENOTFOUND;
}

/* The index of the most advanced flit of pkt still in the network, whose
 * head has reached its host, walking its route back from the ejection VC
 * (its flits are in route order, though not in consecutive VCs); p->sent
 * when none is left. */
static int first_undelivered(const FlSim *s, int32_t pkt, int len)
{
    const SimPacket *p = &s->pool[pkt];
    int32_t c = p->route / SIM_ROUTE_CHUNK;
    for (int i = len - 1; i >= 0; i--) {
        const SimVc *q = &s->vc[s->route[c * SIM_ROUTE_CHUNK + i % ENTRIES]];
        for (int k = 0; k < q->count; k++) {
            const SimSlot *slot = &s->slot[(int64_t)q->ring_base + ((q->head + k) & q->mask)];
            if (slot->pkt == pkt)
                return fl__sim_flit_index(slot->flit);
        }
        if (i % ENTRIES == 0)
            c = s->route[c * SIM_ROUTE_CHUNK + SIM_ROUTE_LINK];
    }
    return p->sent;
}

/* The packet, found by id: its pool slot, or an error. */
static int find_packet(const FlSim *s, int64_t packet, int32_t *pkt, FlError *err)
{
    if (!s)
        return fl_error_set(err, FL_EINVAL, "no simulation");
    *pkt = index_find(s, packet);
    if (*pkt >= 0)
        return FL_OK;
    if (packet >= 0 && packet < s->sc.next_packet_id)
        return fl_error_set(err, FL_ENOTFOUND, "packet %lld: delivered, no longer in the "
                            "network", (long long)packet);
    return fl_error_set(err, FL_ENOTFOUND, "packet %lld: not made (%lld packets made so far)",
                        (long long)packet, (long long)s->sc.next_packet_id);
}

/* A packet found by id: its pool slot, record and head. */
typedef struct Found {
    int32_t pkt;
    const SimPacket *p;
    HeadAt at;
} Found;

/* Finds packet and its head, with an error naming the packet. */
static int find_head(const FlSim *s, int64_t packet, Found *f, FlError *err)
{
    int rc = find_packet(s, packet, &f->pkt, err);
    if (rc)
        return rc;
    if (!s->keep_routes)
        return fl_error_set(err, FL_EINVAL, "packet %lld: this run keeps no routes, which the "
                            "packet views need", (long long)packet);
    f->p = &s->pool[f->pkt];
    if (locate_head(s, f->pkt, &f->at))
        return fl_error_set(err, FL_ENOTFOUND, "packet %lld: its head is not where its route "
                            "ends", (long long)packet);
    return FL_OK;
}

/* --- the views ------------------------------------------------------------- */

/* The head in a ring: place, position, stall, output and the packet ahead. */
static void view_head_in_ring(const FlSim *s, const HeadAt *at, FlPacketView *v)
{
    const SimVc *q = &s->vc[at->vc];
    int64_t now = s->sc.cycle;
    const SimSlot *slot = &s->slot[(int64_t)q->ring_base + ((q->head + at->k) & q->mask)];
    int64_t ready = fl__sim_slot_ready(slot, now);
    v->head_channel = s->vc_chan[at->vc];
    v->head_vc = q->v;
    if (ready <= now) {
        /* Flits arrive in ring order: every flit before it has arrived. */
        v->head_place = FL_FLIT_BUFFER;
        v->head_position = at->k;
        v->head_node = q->node;
        if (at->k == 0) {
            v->stall = fl__sim_front_stall(s, at->vc);
            if (q->out >= 0) {
                v->head_out_channel = s->vc_chan[q->out];
                v->head_out_vc = s->vc[q->out].v;
            }
        }
    } else {
        int64_t travelled = s->cfg.link_latency - (ready - now);
        v->head_place = FL_FLIT_LINK;
        v->head_position = travelled < 0 ? 0 : (int)travelled;
        v->head_node = fl__chan_src(s->t, s->vc_chan[at->vc]);
    }
    if (at->k > 0) {
        const SimSlot *before =
            &s->slot[(int64_t)q->ring_base + ((q->head + at->k - 1) & q->mask)];
        v->ahead = s->pool[before->pkt].id;
    }
}

/* The head in its source queue. */
static void view_head_queued(const FlSim *s, int32_t pkt, FlPacketView *v)
{
    const SimPacket *p = &s->pool[pkt];
    int h = p->src;
    v->head_place = FL_FLIT_SOURCE_QUEUE;
    v->head_channel = -1;
    v->head_vc = -1;
    v->head_node = s->host_node[h];
    if (s->q_head[h] != pkt) {
        v->ahead = s->pool[p->route].id;
        return;
    }
    v->stall = fl__sim_host_stall(s, h, p);
    if (s->host_vc[h] >= 0) {
        v->head_out_channel = s->host_inj[h];
        v->head_out_vc = s->vc[s->host_vc[h]].v;
    }
}

int fl_sim_packet_view(const FlSim *s, int64_t packet, FlPacketView *out, FlError *err)
{
    if (!out)
        return fl_error_set(err, FL_EINVAL, "no packet view to fill");
    Found f;
    int rc = find_head(s, packet, &f, err);
    if (rc)
        return rc;
    const SimPacket *p = f.p;
    const HeadAt at = f.at;
    memset(out, 0, sizeof *out);
    out->packet = p->id;
    out->src_host = p->src;
    out->dst_host = p->dst;
    out->flits = p->len;
    out->measured = p->measured == 1;
    out->created = p->created;
    out->injected = p->injected;
    out->hops = at.entered > 0 ? at.entered - 1 : 0;
    out->flits_sent = p->sent;
    out->stall = FL_STALL_NONE;
    out->ahead = -1;
    out->head_out_channel = -1;
    out->head_out_vc = -1;
    if (at.vc < 0) {
        view_head_queued(s, f.pkt, out);
    } else if (at.delivered) {
        const SimVc *q = &s->vc[at.vc];
        out->head_place = FL_FLIT_BUFFER;
        out->head_channel = s->vc_chan[at.vc];
        out->head_vc = q->v;
        out->head_node = q->node;
        out->head_delivered = 1;
        out->flits_delivered = first_undelivered(s, f.pkt, at.entered);
    } else {
        view_head_in_ring(s, &at, out);
    }
    return FL_OK;
}

int fl_sim_packet_route(const FlSim *s, int64_t packet, int *channels, int max, int *len,
                        FlError *err)
{
    if (!len || max < 0 || (max > 0 && !channels))
        return fl_error_set(err, FL_EINVAL, "packet route: no place for the channels");
    Found f;
    int rc = find_head(s, packet, &f, err);
    if (rc)
        return rc;
    int n = route_length(s, f.p);
    *len = f.at.entered;
    /* Chunk k, from the last back to the first, holds entries k * ENTRIES
     * + j. */
    int32_t c = f.p->route / SIM_ROUTE_CHUNK;
    for (int k = n > 0 ? (n - 1) / ENTRIES : -1; k >= 0; k--) {
        for (int j = 0; j < ENTRIES; j++) {
            int i = k * ENTRIES + j;
            if (i < f.at.entered && i < max)
                channels[i] = s->vc_chan[s->route[c * SIM_ROUTE_CHUNK + j]];
        }
        c = s->route[c * SIM_ROUTE_CHUNK + SIM_ROUTE_LINK];
    }
    return FL_OK;
}

/* Appends VC iv to the list (up to max), counting in *n. */
static void add_wait(const FlSim *s, int iv, FlVcView *out, int max, int *n)
{
    if (*n < max)
        fl_sim_vc_view(s, s->vc_chan[iv], s->vc[iv].v, &out[*n], NULL);
    (*n)++;
}

/* The VCs a head at the front of input VC iv without an output VC waits
 * for: every VC of the choices it may take (all: held), or only the free
 * ones (it competes for them). */
static void head_waits(const FlSim *s, int iv, int len, int held, FlVcView *out, int max,
                       int *n)
{
    FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
    int first, last;
    if (fl__sim_head_choices(s, s->vc[iv].node, iv, ch, &first, &last) < 1)
        return;
    for (int i = first; i <= last; i++) {
        int lo, hi;
        fl__sim_class_vcs(s, ch[i].vc_class, &lo, &hi);
        for (int v = lo; v < hi; v++) {
            int ov = s->chan_vc[ch[i].channel] + v;
            if (held || fl__sim_output_vc_open(s, ov, len))
                add_wait(s, ov, out, max, n);
        }
    }
}

/* The same for the head of packet p at the front of host h's queue: the
 * VCs of its injection channel. */
static void host_waits(const FlSim *s, int h, const SimPacket *p, int held, FlVcView *out,
                       int max, int *n)
{
    int c = s->host_inj[h];
    for (int v = 0; v < s->V; v++) {
        int ov = s->chan_vc[c] + v;
        if (held || fl__sim_output_vc_open(s, ov, p->len))
            add_wait(s, ov, out, max, n);
    }
}

int fl_sim_packet_waits(const FlSim *s, int64_t packet, FlVcView *out, int max, int *n,
                        FlError *err)
{
    if (!n || max < 0 || (max > 0 && !out))
        return fl_error_set(err, FL_EINVAL, "packet waits: no place for the VCs");
    FlPacketView v;
    int rc = fl_sim_packet_view(s, packet, &v, err);
    if (rc)
        return rc;
    *n = 0;
    if (v.stall == FL_STALL_NONE)
        return FL_OK;
    int32_t pkt = index_find(s, packet);
    const SimPacket *p = &s->pool[pkt];
    int held = v.stall == FL_STALL_NO_VC;
    if (v.head_place == FL_FLIT_SOURCE_QUEUE) {
        int h = p->src;
        if (s->host_vc[h] >= 0)
            add_wait(s, s->host_vc[h], out, max, n);
        else
            host_waits(s, h, p, held, out, max, n);
        return FL_OK;
    }
    int iv = s->chan_vc[v.head_channel] + v.head_vc;
    if (s->vc[iv].out >= 0)
        add_wait(s, s->vc[iv].out, out, max, n);
    else
        head_waits(s, iv, p->len, held, out, max, n);
    return FL_OK;
}
