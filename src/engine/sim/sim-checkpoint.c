/* sim-checkpoint.c — copies of the simulator's state, and the read-only
 * views of where every flit is, why it waits, and of every VC.
 *
 * Everything that changes while a simulation runs is in five places (see
 * sim-internal.h): the fixed-size state block, the scalars, the packet pool
 * (up to the slots ever handed out), the route chunks (likewise) and the
 * latency histograms (up to the longest latency seen), plus the traffic
 * generator's per-host state. A
 * checkpoint copies exactly these, so restoring and stepping replays the
 * same cycles bit for bit; the arrays in pages, which a timeline's
 * checkpoints share while their bytes are the same.
 */
#include <stdlib.h>
#include <string.h>

#include "sim-internal.h"

/* A copy of one array in pages of PAGE_BYTES. A checkpoint taken after
 * another (fl__sim_checkpoint_after) shares the pages whose bytes have not
 * changed, counted once: in saturation the packet pool grows with the
 * source queues, and most of it (the queued packets) stays as it was from
 * one checkpoint to the next. */
#define PAGE_BYTES ((size_t)256)

typedef struct CpPage {
    int refs;
    size_t len;
    unsigned char data[];
} CpPage;

typedef struct CpBlob {
    size_t bytes;
    size_t n_pages;
    CpPage **pages;
} CpBlob;

struct FlSimCheckpoint {
    const FlSim *owner;      /* only restored into the simulation it came from */
    size_t state_bytes;
    CpBlob state;
    SimScalars sc;
    CpBlob pool;             /* sc.pool_used packets */
    CpBlob route;            /* sc.route_used chunks */
    CpBlob lat_hist, net_hist;   /* sc.hist_len entries */
    void *traffic;
    size_t traffic_bytes;
    size_t bytes;            /* all of the above, shared pages included */
    size_t own_bytes;        /* the same without the pages */
    size_t *shared_bytes;    /* the family's bytes (pages counted once), or
                              * NULL for a checkpoint that shares nothing */
};

static size_t page_cost(size_t len)
{
    return sizeof(CpPage) + len;
}

static void blob_free(CpBlob *b, size_t *counter)
{
    for (size_t i = 0; i < b->n_pages && b->pages; i++) {
        CpPage *pg = b->pages[i];
        if (pg && --pg->refs == 0) {
            if (counter)
                *counter -= page_cost(pg->len);
            free(pg);
        }
    }
    free(b->pages);
    memset(b, 0, sizeof *b);
}

/* Copies bytes of src into b, sharing the pages of prev (may be NULL) that
 * hold the same bytes. */
static int blob_save(CpBlob *b, const void *src, size_t bytes, const CpBlob *prev,
                     size_t *counter)
{
    b->bytes = bytes;
    b->n_pages = (bytes + PAGE_BYTES - 1) / PAGE_BYTES;
    b->pages = calloc(b->n_pages ? b->n_pages : 1, sizeof *b->pages);
    if (!b->pages)
        return FL_ENOMEM;
    const unsigned char *from = src;
    for (size_t i = 0; i < b->n_pages; i++) {
        size_t at = i * PAGE_BYTES, len = bytes - at < PAGE_BYTES ? bytes - at : PAGE_BYTES;
        CpPage *old = prev && i < prev->n_pages ? prev->pages[i] : NULL;
        if (old && old->len == len && memcmp(old->data, from + at, len) == 0) {
            old->refs++;
            b->pages[i] = old;
            continue;
        }
        CpPage *pg = malloc(sizeof *pg + len);
        if (!pg)
            return FL_ENOMEM;
        pg->refs = 1;
        pg->len = len;
        memcpy(pg->data, from + at, len);
        b->pages[i] = pg;
        if (counter)
            *counter += page_cost(len);
    }
    return FL_OK;
}

static void blob_load(void *dst, const CpBlob *b)
{
    unsigned char *to = dst;
    for (size_t i = 0; i < b->n_pages; i++)
        memcpy(to + i * PAGE_BYTES, b->pages[i]->data, b->pages[i]->len);
}

/* The page table's bytes, and the pages'. */
static size_t blob_table_bytes(const CpBlob *b)
{
    return b->n_pages * sizeof(CpPage *);
}

static size_t blob_page_bytes(const CpBlob *b)
{
    return b->bytes + b->n_pages * sizeof(CpPage);
}

void fl_sim_checkpoint_free(FlSimCheckpoint *cp)
{
    if (!cp)
        return;
    blob_free(&cp->state, cp->shared_bytes);
    blob_free(&cp->pool, cp->shared_bytes);
    blob_free(&cp->route, cp->shared_bytes);
    blob_free(&cp->lat_hist, cp->shared_bytes);
    blob_free(&cp->net_hist, cp->shared_bytes);
    if (cp->shared_bytes)
        *cp->shared_bytes -= cp->own_bytes;
    free(cp->traffic);
    free(cp);
}

int fl__sim_checkpoint_after(const FlSim *s, const FlSimCheckpoint *prev, size_t *shared_bytes,
                             FlSimCheckpoint **out)
{
    FlSimCheckpoint *cp = calloc(1, sizeof *cp);
    if (!cp)
        return FL_ENOMEM;
    /* Pages are shared only within one family, counted in one place. */
    if (prev && prev->shared_bytes != shared_bytes)
        prev = NULL;
    cp->owner = s;
    cp->sc = s->sc;
    cp->state_bytes = s->state_bytes;
    cp->shared_bytes = shared_bytes;
    cp->traffic_bytes = fl_traffic_state_size(s->traffic);
    cp->traffic = malloc(cp->traffic_bytes ? cp->traffic_bytes : 1);
    size_t hist = sizeof(int64_t) * (size_t)s->sc.hist_len;
    if (!cp->traffic
        || blob_save(&cp->state, s->state, s->state_bytes, prev ? &prev->state : NULL,
                     shared_bytes)
        || blob_save(&cp->pool, s->pool, sizeof *s->pool * (size_t)s->sc.pool_used,
                     prev ? &prev->pool : NULL, shared_bytes)
        || blob_save(&cp->route, s->route,
                     sizeof *s->route * SIM_ROUTE_CHUNK * (size_t)s->sc.route_used,
                     prev ? &prev->route : NULL, shared_bytes)
        || blob_save(&cp->lat_hist, s->lat_hist, hist, prev ? &prev->lat_hist : NULL,
                     shared_bytes)
        || blob_save(&cp->net_hist, s->net_hist, hist, prev ? &prev->net_hist : NULL,
                     shared_bytes)) {
        fl_sim_checkpoint_free(cp);
        return FL_ENOMEM;
    }
    fl_traffic_state_save(s->traffic, cp->traffic);
    cp->own_bytes = sizeof *cp + cp->traffic_bytes + blob_table_bytes(&cp->state)
                    + blob_table_bytes(&cp->pool) + blob_table_bytes(&cp->route)
                    + blob_table_bytes(&cp->lat_hist)
                    + blob_table_bytes(&cp->net_hist);
    cp->bytes = cp->own_bytes + blob_page_bytes(&cp->state) + blob_page_bytes(&cp->pool)
                + blob_page_bytes(&cp->route) + blob_page_bytes(&cp->lat_hist)
                + blob_page_bytes(&cp->net_hist);
    if (shared_bytes)
        *shared_bytes += cp->own_bytes;
    *out = cp;
    return FL_OK;
}

int fl_sim_checkpoint(const FlSim *s, FlSimCheckpoint **out, FlError *err)
{
    if (!s || !out)
        return fl_error_set(err, FL_EINVAL, "no simulation");
    if (fl__sim_checkpoint_after(s, NULL, NULL, out))
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    return FL_OK;
}

int64_t fl_sim_checkpoint_cycle(const FlSimCheckpoint *cp)
{
    return cp ? cp->sc.cycle : -1;
}

size_t fl_sim_checkpoint_size(const FlSimCheckpoint *cp)
{
    return cp ? cp->bytes : 0;
}

int fl_sim_restore(FlSim *s, const FlSimCheckpoint *cp, FlError *err)
{
    if (!s || !cp)
        return fl_error_set(err, FL_EINVAL, "no simulation or checkpoint");
    if (s->in_hook)
        return fl_error_set(err, FL_EINVAL, "fl_sim_restore: not allowed in a hook");
    if (cp->owner != s || cp->state_bytes != s->state_bytes)
        return fl_error_set(err, FL_EINVAL, "checkpoint: taken from another simulation");
    /* Grow first, so that a failure leaves the simulation as it was. */
    if (cp->sc.pool_used > s->pool_cap) {
        SimPacket *bigger = realloc(s->pool, sizeof *bigger * (size_t)cp->sc.pool_used);
        if (!bigger)
            return fl_error_set(err, FL_ENOMEM, "out of memory");
        s->pool = bigger;
        s->pool_cap = cp->sc.pool_used;
    }
    if (fl__sim_route_reserve(s, cp->sc.route_used))
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    blob_load(s->state, &cp->state);
    blob_load(s->pool, &cp->pool);
    blob_load(s->route, &cp->route);
    /* The index is built from the pool as restored (the checkpoint keeps
     * it in pages); running out of memory here leaves the simulation to be
     * restored again or freed, as after a step that did. */
    if (fl__sim_index_build(s->pool, cp->sc.pool_used, &s->index, &s->index_mask))
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    /* Histogram entries past the checkpoint's longest latency are zero in
     * the checkpoint's past. */
    memset(s->lat_hist, 0, sizeof(int64_t) * (size_t)s->hist_cap);
    memset(s->net_hist, 0, sizeof(int64_t) * (size_t)s->hist_cap);
    blob_load(s->lat_hist, &cp->lat_hist);
    blob_load(s->net_hist, &cp->net_hist);
    s->sc = cp->sc;
    fl_traffic_state_load(s->traffic, cp->traffic);
    /* Between cycles no delivery waits for a hook; after a cycle that ran
     * out of memory, the checkpoint is the way back. */
    s->n_delivered = 0;
    s->nomem = 0;
    return FL_OK;
}

/* --- the views ------------------------------------------------------------ */

const char *fl_stall_name(FlStall st)
{
    switch (st) {
    case FL_STALL_NONE:
        return "none";
    case FL_STALL_NO_VC:
        return "no-vc";
    case FL_STALL_NO_CREDIT:
        return "no-credit";
    case FL_STALL_ARBITRATION:
        return "arbitration";
    case FL_STALL_CHANNEL:
        return "channel";
    }
    return "unknown";
}

int fl_sim_vcs(const FlSim *s)
{
    return s ? s->V : 0;
}

int fl_sim_channels(const FlSim *s)
{
    return s ? s->n_chan : 0;
}

int fl_sim_hosts(const FlSim *s)
{
    return s ? s->n_hosts : 0;
}

/* The pool index of the packet at the front of input VC q: its front flit's,
 * or, with an empty ring while q holds an output VC, the last flit it sent
 * (a packet keeps the output VC until its tail leaves, and a push never
 * writes the slot before the head). -1 with neither. */
int32_t fl__sim_front_packet(const FlSim *s, const SimVc *q)
{
    if (q->count > 0)
        return s->slot[(int64_t)q->ring_base + q->head].pkt;
    if (q->out >= 0)
        return s->slot[(int64_t)q->ring_base + ((q->head - 1) & q->mask)].pkt;
    return -1;
}

int fl__sim_head_choices(const FlSim *s, int sw, int iv, FlRouteChoice *ch, int *first,
                         int *last)
{
    int n = fl__sim_route_choices(s, sw, iv, ch, FL_ROUTE_MAX_CHOICES);
    *first = 0;
    *last = n - 1;
    if (n > 1 && s->cfg.selection != FL_SELECT_RANDOM)
        *first = *last = fl__sim_pick_choice(s, ch, n);
    return n;
}

/* Whether every output VC the head at the front of input VC iv (at switch
 * sw) would request is taken: the VCs of the class of the choice its
 * selection takes now (with random selection, of every choice). */
static int no_output_vc(const FlSim *s, int sw, int iv, int len)
{
    FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
    int first, last;
    if (fl__sim_head_choices(s, sw, iv, ch, &first, &last) < 1)
        return 1;
    for (int i = first; i <= last; i++) {
        int lo, hi;
        fl__sim_class_vcs(s, ch[i].vc_class, &lo, &hi);
        for (int v = lo; v < hi; v++)
            if (fl__sim_output_vc_open(s, s->chan_vc[ch[i].channel] + v, len))
                return 0;
    }
    return 1;
}

/* Why the flit at the front of input VC iv, arrived, does not move on (see
 * FlStall). The checks follow the allocators': VC allocation (routing
 * delay, an open VC), then switch allocation (go, a credit, the channel). */
FlStall fl__sim_front_stall(const FlSim *s, int iv)
{
    const SimVc *q = &s->vc[iv];
    int64_t now = s->sc.cycle;
    int lost = s->lost[iv] == (uint32_t)now;
    if (q->sink)
        return FL_STALL_NONE;   /* a host consumes what arrives */
    if (q->out < 0) {
        if (q->go + s->cfg.routing_delay > now)
            return FL_STALL_CHANNEL;
        const SimSlot *head = &s->slot[(int64_t)q->ring_base + q->head];
        if (no_output_vc(s, q->node, iv, s->pool[head->pkt].len))
            return FL_STALL_NO_VC;
        return lost ? FL_STALL_ARBITRATION : FL_STALL_NONE;
    }
    if (q->go > now)
        return FL_STALL_CHANNEL;
    if (s->credits[q->out] <= 0)
        return FL_STALL_NO_CREDIT;
    if (s->multi_cycle_links && s->chan_free[s->vc_chan[q->out]] > now)
        return FL_STALL_CHANNEL;
    return lost ? FL_STALL_ARBITRATION : FL_STALL_NONE;
}

/* The same for the next flit of the packet at the front of host h's queue,
 * as host_inject() sees it (hosts have no arbitration). */
FlStall fl__sim_host_stall(const FlSim *s, int h, const SimPacket *p)
{
    int c = s->host_inj[h];
    if (s->multi_cycle_links && s->chan_free[c] > s->sc.cycle)
        return FL_STALL_CHANNEL;
    if (s->host_vc[h] < 0) {
        for (int v = 0; v < s->V; v++)
            if (fl__sim_output_vc_open(s, s->chan_vc[c] + v, p->len))
                return FL_STALL_NONE;
        return FL_STALL_NO_VC;
    }
    return s->credits[s->host_vc[h]] <= 0 ? FL_STALL_NO_CREDIT : FL_STALL_NONE;
}

static void view_packet(const FlSim *s, int32_t pkt, int index, FlFlitView *v)
{
    const SimPacket *p = &s->pool[pkt];
    v->packet = p->id;
    v->index = index;
    v->packet_flits = p->len;
    v->src_host = p->src;
    v->dst_host = p->dst;
    v->out_channel = -1;
    v->out_vc = -1;
    v->stall = FL_STALL_NONE;
}

void fl_sim_foreach_flit(const FlSim *s, int max_queued, FlFlitVisitor visit, void *user_data)
{
    if (!s || !visit)
        return;
    int V = s->V;
    int64_t now = s->sc.cycle;
    FlFlitView v;
    /* In channel order, as results number VCs (c * V + v). */
    for (int cv = 0; cv < s->n_vc; cv++) {
        int iv = s->chan_vc[cv / V] + cv % V;
        const SimVc *q = &s->vc[iv];
        int c = cv / V, slot = 0;
        int32_t holder = q->out >= 0 ? fl__sim_front_packet(s, q) : -1;
        for (int k = 0; k < q->count; k++) {
            int64_t i = (int64_t)q->ring_base + ((q->head + k) & q->mask);
            view_packet(s, s->slot[i].pkt, fl__sim_flit_index(s->slot[i].flit), &v);
            v.channel = c;
            v.vc = cv % V;
            int64_t ready = fl__sim_slot_ready(&s->slot[i], now);
            if (ready <= now) {
                v.place = FL_FLIT_BUFFER;
                v.position = slot++;
                v.node = q->node;
                if (s->slot[i].pkt == holder) {
                    v.out_channel = s->vc_chan[q->out];
                    v.out_vc = s->vc[q->out].v;
                }
                if (k == 0)
                    v.stall = fl__sim_front_stall(s, iv);
            } else {
                /* On its way: the link latency ends at ready. */
                int64_t travelled = s->cfg.link_latency - (ready - now);
                v.place = FL_FLIT_LINK;
                v.position = travelled < 0 ? 0 : (int)travelled;
                v.node = fl__chan_src(s->t, c);
            }
            visit(user_data, &v);
        }
    }
    for (int h = 0; h < s->n_hosts; h++) {
        int shown = 0;
        for (int32_t pkt = s->q_head[h]; pkt >= 0 && shown < max_queued;
             pkt = s->pool[pkt].next) {
            const SimPacket *p = &s->pool[pkt];
            int front = pkt == s->q_head[h];
            for (int f = p->sent; f < p->len && shown < max_queued; f++, shown++) {
                view_packet(s, pkt, f, &v);
                v.place = FL_FLIT_SOURCE_QUEUE;
                v.channel = -1;
                v.vc = -1;
                v.position = shown;
                v.node = s->host_node[h];
                if (front && s->host_vc[h] >= 0) {
                    v.out_channel = s->host_inj[h];
                    v.out_vc = s->vc[s->host_vc[h]].v;
                }
                if (front && f == p->sent)
                    v.stall = fl__sim_host_stall(s, h, p);
                visit(user_data, &v);
            }
        }
    }
}

int fl_sim_vc_view(const FlSim *s, int channel, int vc, FlVcView *out, FlError *err)
{
    if (!s || !out)
        return fl_error_set(err, FL_EINVAL, "no simulation or view");
    if (channel < 0 || channel >= s->n_chan || vc < 0 || vc >= s->V)
        return fl_error_set(err, FL_ERANGE, "VC (%d, %d): channels are 0 to %d, VCs 0 to %d",
                            channel, vc, s->n_chan - 1, s->V - 1);
    int iv = s->chan_vc[channel] + vc;
    const SimVc *q = &s->vc[iv];
    const SimOutVc *o = &s->outvc[iv];
    int64_t now = s->sc.cycle;
    memset(out, 0, sizeof *out);
    out->channel = channel;
    out->vc = vc;
    out->node = q->node;
    out->owner_packet = -1;
    out->draining = o->owner == -2;
    if (o->owner == iv) {
        /* A host's injection VC: held by the packet at its queue's front. */
        int h = s->node_host[fl__chan_src(s->t, channel)];
        if (h >= 0 && s->host_vc[h] == iv && s->q_head[h] >= 0)
            out->owner_packet = s->pool[s->q_head[h]].id;
    } else if (o->owner >= 0) {
        int32_t pkt = fl__sim_front_packet(s, &s->vc[o->owner]);
        if (pkt >= 0)
            out->owner_packet = s->pool[pkt].id;
    }
    for (int k = 0; k < q->count; k++) {
        const SimSlot *slot = &s->slot[(int64_t)q->ring_base + ((q->head + k) & q->mask)];
        if (fl__sim_slot_ready(slot, now) <= now)
            out->flits_buffered++;
        else
            out->flits_on_link++;
    }
    out->credits = q->sink ? -1 : s->credits[iv];
    out->capacity = s->chan_cap[channel];
    out->out_channel = q->out >= 0 ? s->vc_chan[q->out] : -1;
    out->out_vc = q->out >= 0 ? s->vc[q->out].v : -1;
    out->front_packet = q->count > 0 ? s->pool[s->slot[(int64_t)q->ring_base + q->head].pkt].id
                                     : -1;
    return FL_OK;
}
