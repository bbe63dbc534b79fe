/* sim-checkpoint.c — copies of the simulator's state, and the read-only
 * view of where every flit is.
 *
 * Everything that changes while a simulation runs is in four places (see
 * sim-internal.h): the fixed-size state block, the scalars, the packet pool
 * (up to the slots ever handed out) and the latency histograms (up to the
 * longest latency seen), plus the traffic generator's per-host state. A
 * checkpoint copies exactly these, so restoring and stepping replays the
 * same cycles bit for bit.
 */
#include <stdlib.h>
#include <string.h>

#include "sim-internal.h"

struct FlSimCheckpoint {
    const FlSim *owner;      /* only restored into the simulation it came from */
    size_t state_bytes;
    void *state;
    SimScalars sc;
    SimPacket *pool;         /* sc.pool_used packets */
    int64_t *lat_hist, *net_hist;   /* sc.hist_len entries */
    void *traffic;
    size_t traffic_bytes;
};

void fl_sim_checkpoint_free(FlSimCheckpoint *cp)
{
    if (!cp)
        return;
    free(cp->state);
    free(cp->pool);
    free(cp->lat_hist);
    free(cp->net_hist);
    free(cp->traffic);
    free(cp);
}

/* malloc for a copy of n bytes, never asking for zero. */
static void *copy_of(const void *src, size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p && n)
        memcpy(p, src, n);
    return p;
}

int fl_sim_checkpoint(const FlSim *s, FlSimCheckpoint **out, FlError *err)
{
    if (!s || !out)
        return fl_error_set(err, FL_EINVAL, "no simulation");
    FlSimCheckpoint *cp = calloc(1, sizeof *cp);
    if (!cp)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    cp->owner = s;
    cp->sc = s->sc;
    cp->state_bytes = s->state_bytes;
    cp->state = copy_of(s->state, s->state_bytes);
    cp->pool = copy_of(s->pool, sizeof *s->pool * (size_t)s->sc.pool_used);
    cp->lat_hist = copy_of(s->lat_hist, sizeof(int64_t) * (size_t)s->sc.hist_len);
    cp->net_hist = copy_of(s->net_hist, sizeof(int64_t) * (size_t)s->sc.hist_len);
    cp->traffic_bytes = fl_traffic_state_size(s->traffic);
    cp->traffic = malloc(cp->traffic_bytes ? cp->traffic_bytes : 1);
    if (!cp->state || !cp->pool || !cp->lat_hist || !cp->net_hist || !cp->traffic) {
        fl_sim_checkpoint_free(cp);
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    fl_traffic_state_save(s->traffic, cp->traffic);
    *out = cp;
    return FL_OK;
}

int fl_sim_restore(FlSim *s, const FlSimCheckpoint *cp, FlError *err)
{
    if (!s || !cp)
        return fl_error_set(err, FL_EINVAL, "no simulation or checkpoint");
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
    memcpy(s->state, cp->state, s->state_bytes);
    memcpy(s->pool, cp->pool, sizeof *s->pool * (size_t)cp->sc.pool_used);
    /* Histogram entries past the checkpoint's longest latency are zero in
     * the checkpoint's past. */
    memset(s->lat_hist, 0, sizeof(int64_t) * (size_t)s->hist_cap);
    memset(s->net_hist, 0, sizeof(int64_t) * (size_t)s->hist_cap);
    memcpy(s->lat_hist, cp->lat_hist, sizeof(int64_t) * (size_t)cp->sc.hist_len);
    memcpy(s->net_hist, cp->net_hist, sizeof(int64_t) * (size_t)cp->sc.hist_len);
    s->sc = cp->sc;
    fl_traffic_state_load(s->traffic, cp->traffic);
    return FL_OK;
}

/* --- the flit view ------------------------------------------------------- */

static void view_packet(const FlSim *s, int32_t pkt, int index, FlFlitView *v)
{
    const SimPacket *p = &s->pool[pkt];
    v->packet = p->id;
    v->index = index;
    v->packet_flits = p->len;
    v->src_host = p->src;
    v->dst_host = p->dst;
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
        const SimVc *q = &s->vc[s->chan_vc[cv / V] + cv % V];
        int c = cv / V, slot = 0;
        for (int k = 0; k < q->count; k++) {
            int64_t i = (int64_t)q->ring_base + ((q->head + k) & q->mask);
            view_packet(s, s->slot[i].pkt, fl__sim_flit_index(s->slot[i].flit), &v);
            v.channel = c;
            v.vc = cv % V;
            int64_t ready = fl__sim_slot_ready(&s->slot[i], now);
            if (ready <= now) {
                v.place = FL_FLIT_BUFFER;
                v.position = slot++;
            } else {
                /* On its way: the link latency ends at ready. */
                int64_t travelled = s->cfg.link_latency - (ready - now);
                v.place = FL_FLIT_LINK;
                v.position = travelled < 0 ? 0 : (int)travelled;
            }
            visit(user_data, &v);
        }
    }
    for (int h = 0; h < s->n_hosts; h++) {
        int shown = 0;
        for (int32_t pkt = s->q_head[h]; pkt >= 0 && shown < max_queued;
             pkt = s->pool[pkt].next) {
            const SimPacket *p = &s->pool[pkt];
            for (int f = p->sent; f < p->len && shown < max_queued; f++, shown++) {
                view_packet(s, pkt, f, &v);
                v.place = FL_FLIT_SOURCE_QUEUE;
                v.channel = -1;
                v.vc = -1;
                v.position = shown;
                visit(user_data, &v);
            }
        }
    }
}
