/* route-table.c — shortest legal paths over a set of prohibited turns, the
 * machinery every table routing shares (see route-table.h).
 *
 * The routing state is a distance per (switch channel, destination switch):
 * the hops a packet still needs after traversing the channel. A packet on
 * channel c may continue on c' when the turn they make at the switch between
 * them is allowed, and every legal shortest path decreases the distance by
 * exactly one per hop, so next() only compares a handful of table entries:
 *   - at injection every output whose 1 + dist is minimal,
 *   - elsewhere every allowed continuation with dist == dist(in) - 1.
 * Injection and ejection make no turn, and a packet never leaves by the port
 * it came in on: that is not a turn (the contract's turns join two distinct
 * ports), so no prohibited-turn set can speak about it, and switches do not
 * send a packet back where it came from.
 *
 * The distances come from one breadth-first search per destination,
 * backwards over the channel graph (predecessor lists built once), writing
 * one contiguous row per destination. Entries are one byte while every legal
 * path is shorter than 255 hops (the usual case: the longest on a 64x64
 * torus is 64), two bytes otherwise, found by building again. A 64x64 torus
 * (4096 switches, 16384 switch channels) needs 64 MiB, a 32x32 torus 4 MiB,
 * a 64-switch irregular network with 4 inter-switch ports per switch 16 KiB;
 * the successor lists and turn bitmaps add O(C * ports) on top.
 */
#include <stdlib.h>
#include <string.h>

#include "route-table.h"

int fl__switch_port(const FlTopology *t, int sw, int p)
{
    int l = t->port_link[t->port_base[sw] + p];
    return l >= 0 && t->kind[fl__link_other(t, l, sw)] == FL_NODE_SWITCH;
}

int fl__table_new(FlRouting *r, const FlRoutingOptions *opt, FlRouteTable **out,
                  FlError *err)
{
    const FlTopology *t = r->t;
    if (opt->vc_classes > 1)
        return fl_error_set(err, FL_EUNSUPPORTED,
                            "%s uses a single VC class, not %d (it is a turn-restricted "
                            "table routing)",
                            r->algo->info.name, opt->vc_classes);
    FlRouteTable *tab = calloc(1, sizeof *tab);
    if (!tab)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the routing table");
    r->state = tab;
    tab->t = t;
    tab->turn_base = malloc(sizeof *tab->turn_base * ((size_t)t->n_nodes + 1));
    tab->chan_index = malloc(sizeof *tab->chan_index * (2 * (size_t)t->n_links + 1));
    if (!tab->turn_base || !tab->chan_index)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the routing table");
    int64_t bytes = 0;
    for (int n = 0; n < t->n_nodes; n++) {
        tab->turn_base[n] = bytes;
        if (t->kind[n] == FL_NODE_SWITCH)
            bytes += ((int64_t)t->nports[n] * t->nports[n] + 7) / 8;
    }
    tab->turn_base[t->n_nodes] = bytes;
    tab->turn_bits = calloc((size_t)bytes + 1, 1);
    if (!tab->turn_bits)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the routing table");

    /* Dense numbering of the switch-to-switch channels, in channel order. */
    int n_chan = 0;
    for (int c = 0; c < 2 * t->n_links; c++) {
        int sw_link = t->kind[fl__chan_src(t, c)] == FL_NODE_SWITCH
                      && t->kind[fl__chan_dst(t, c)] == FL_NODE_SWITCH;
        tab->chan_index[c] = sw_link ? n_chan++ : -1;
    }
    tab->n_chan = n_chan;
    tab->chan_id = malloc(sizeof *tab->chan_id * ((size_t)n_chan + 1));
    tab->chan_port = malloc(sizeof *tab->chan_port * ((size_t)n_chan + 1));
    if (!tab->chan_id || !tab->chan_port)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the routing table");
    for (int c = 0; c < 2 * t->n_links; c++)
        if (tab->chan_index[c] >= 0) {
            tab->chan_id[tab->chan_index[c]] = c;
            tab->chan_port[tab->chan_index[c]] = fl__out_port(t, c);
        }
    *out = tab;
    return FL_OK;
}

void fl__table_prohibit(FlRouteTable *tab, int sw, int in_port, int out_port)
{
    int bit = in_port * tab->t->nports[sw] + out_port;
    tab->turn_bits[tab->turn_base[sw] + bit / 8] |= (uint8_t)(1u << (bit % 8));
}

int fl__table_is_prohibited(const FlRouteTable *tab, int sw, int in_port, int out_port)
{
    int bit = in_port * tab->t->nports[sw] + out_port;
    return (tab->turn_bits[tab->turn_base[sw] + bit / 8] >> (bit % 8)) & 1;
}

/* The dense index of the channel arriving at sw on port p. */
static int arriving(const FlRouteTable *tab, int sw, int p)
{
    return tab->chan_index[fl__out_channel(tab->t, sw, p) ^ 1];
}

/* One adjacency list per dense channel, in CSR form. With forward set, the
 * allowed continuations of channel i in output port order; otherwise the
 * channels that may precede i. */
static int build_lists(const FlRouteTable *tab, int forward, int **off_out, int **list_out)
{
    const FlTopology *t = tab->t;
    int n_chan = tab->n_chan;
    int *off = malloc(sizeof *off * ((size_t)n_chan + 1));
    if (!off)
        return FL_ENOMEM;
    /* Two passes over the same loop: count, then fill. */
    int *list = NULL;
    for (int pass = 0; pass < 2; pass++) {
        int64_t k = 0;
        for (int i = 0; i < n_chan; i++) {
            int c = tab->chan_id[i];
            /* Forward: the turns out of the switch c arrives at, entering by
             * c's port; backward: the turns into the switch c leaves, leaving
             * by c's port. */
            int sw = forward ? fl__chan_dst(t, c) : fl__chan_src(t, c);
            int fixed = forward ? fl__in_port(t, c) : fl__out_port(t, c);
            if (pass == 0)
                off[i] = (int)k;
            for (int p = 0; p < t->nports[sw]; p++) {
                if (p == fixed || !fl__switch_port(t, sw, p))
                    continue;
                int in_p = forward ? fixed : p, out_p = forward ? p : fixed;
                if (fl__table_is_prohibited(tab, sw, in_p, out_p))
                    continue;
                if (pass == 1)
                    list[k] = forward ? tab->chan_index[fl__out_channel(t, sw, p)]
                                      : arriving(tab, sw, p);
                k++;
            }
        }
        if (pass == 0) {
            off[n_chan] = (int)k;
            list = malloc(sizeof *list * ((size_t)k + 1));
            if (!list) {
                free(off);
                return FL_ENOMEM;
            }
        }
    }
    *off_out = off;
    *list_out = list;
    return FL_OK;
}

/* Breadth-first search backwards from destination rank d over the
 * predecessor lists, into row (n_chan entries of the given width). Returns
 * 1 if a distance did not fit the width, else 0. queue holds n_chan ints.
 * Inlined with a constant width, so that each width gets a loop of its
 * own. (Choosing with arithmetic instead of the branch on whether a
 * predecessor is new gains little on irregular networks and costs a
 * quarter on meshes, where the branch is predicted.) */
__attribute__((always_inline))
static inline int bfs_row(const FlRouteTable *tab, int d, const int *pred_off, const int *pred,
                          int *queue, void *row, int wide)
{
    const FlTopology *t = tab->t;
    int dn = t->switch_nodes[d];
    unsigned inf = wide ? FL__TABLE_INF16 : FL__TABLE_INF8;
    uint8_t *r8 = row;
    uint16_t *r16 = row;
    if (wide)
        for (int i = 0; i < tab->n_chan; i++)
            r16[i] = FL__TABLE_INF16;
    else
        memset(r8, FL__TABLE_INF8, (size_t)tab->n_chan);
    int head = 0, tail = 0;
    /* The channels arriving at the destination: one per switch port. */
    for (int p = 0; p < t->nports[dn]; p++)
        if (fl__switch_port(t, dn, p)) {
            int i = arriving(tab, dn, p);
            if (wide)
                r16[i] = 0;
            else
                r8[i] = 0;
            queue[tail++] = i;
        }
    while (head < tail) {
        int i = queue[head++];
        unsigned next = (wide ? r16[i] : r8[i]) + 1u;
        if (next >= inf)
            return 1;
        for (int k = pred_off[i]; k < pred_off[i + 1]; k++) {
            int j = pred[k];
            if (wide) {
                if (r16[j] != FL__TABLE_INF16)
                    continue;
                r16[j] = (uint16_t)next;
            } else {
                if (r8[j] != FL__TABLE_INF8)
                    continue;
                r8[j] = (uint8_t)next;
            }
            queue[tail++] = j;
        }
    }
    return 0;
}

/* The one-byte rows of 64 destinations at once, one bit per destination
 * (as distance_sum() in analysis-paths.c searches 64 sources): a channel
 * that several destinations reach at the same distance is expanded once for
 * all of them, which on an irregular network of small diameter is most of
 * them. The distances land in a block of 64 bytes per channel, which keeps
 * the writes near each other, and are then copied out row by row. */
typedef struct Batch {
    FlBfs64 bfs;      /* over the channels' predecessor lists */
    uint8_t *block;   /* block[i * 64 + b]: channel i towards destination base + b */
} Batch;

static void batch_free(Batch *b)
{
    fl__bfs64_free(&b->bfs);
    free(b->block);
}

static int batch_alloc(Batch *b, int n_chan)
{
    b->block = malloc(64 * ((size_t)n_chan + 1));
    return fl__bfs64_alloc(&b->bfs, n_chan) == FL_OK && b->block ? FL_OK : FL_ENOMEM;
}

/* The rows of the width destinations from rank base, into rows (width
 * consecutive rows of n_chan bytes). Returns 1 if a distance did not fit a
 * byte, as bfs_row() does, else 0; *work grows by the predecessor lists
 * read. */
static int bfs_batch(const FlRouteTable *tab, int base, int width, const int *pred_off,
                     const int *pred, Batch *b, uint8_t *rows, int64_t *work)
{
    const FlTopology *t = tab->t;
    int n = tab->n_chan;
    FlBfs64 *bfs = &b->bfs;
    fl__bfs64_start(bfs, n);
    memset(b->block, FL__TABLE_INF8, 64 * (size_t)n);
    for (int k = 0; k < width; k++) {
        int dn = t->switch_nodes[base + k];
        for (int p = 0; p < t->nports[dn]; p++)
            if (fl__switch_port(t, dn, p)) {
                /* A channel arrives at one switch: no channel is listed twice. */
                int i = arriving(tab, dn, p);
                bfs->seen[i] = bfs->frontier[i] = (uint64_t)1 << k;
                b->block[(size_t)i * 64 + (size_t)k] = 0;
                bfs->cur[bfs->ncur++] = i;
            }
    }
    for (unsigned level = 1; fl__bfs64_level(bfs, pred_off, pred, work) > 0; level++) {
        for (int c = 0; c < bfs->ncur; c++) {
            int j = bfs->cur[c];
            uint8_t *at = b->block + (size_t)j * 64;
            for (uint64_t fresh = bfs->frontier[j]; fresh; fresh &= fresh - 1)
                at[__builtin_ctzll(fresh)] = (uint8_t)level;
        }
        /* bfs_row() gives up on reaching a channel 254 hops away. */
        if (level >= FL__TABLE_INF8 - 1) {
            for (int c = 0; c < bfs->ncur; c++)
                bfs->frontier[bfs->cur[c]] = 0;
            return 1;
        }
    }
    /* Row by row, a few channels at a time so that their blocks stay in
     * the first-level cache. */
    for (int i0 = 0; i0 < n; i0 += 64) {
        int i1 = n - i0 < 64 ? n : i0 + 64;
        for (int k = 0; k < width; k++) {
            uint8_t *row = rows + (size_t)k * (size_t)n;
            for (int i = i0; i < i1; i++)
                row[i] = b->block[(size_t)i * 64 + (size_t)k];
        }
    }
    return 0;
}

int fl__table_build(FlRouteTable *tab, const FlRoutingOptions *opt, double progress_from,
                    FlError *err)
{
    const FlTopology *t = tab->t;
    int rc = FL_OK;
    int *pred_off = NULL, *pred = NULL, *queue = NULL;
    Batch batch = { 0 };
    if (build_lists(tab, 1, &tab->succ_off, &tab->succ)
        || build_lists(tab, 0, &pred_off, &pred))
        return fl_error_set(err, FL_ENOMEM, "out of memory for the routing table");
    queue = malloc(sizeof *queue * ((size_t)tab->n_chan + 1));
    if (!queue || batch_alloc(&batch, tab->n_chan)) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the routing table");
        goto free_pred;
    }
    size_t row_entries = (size_t)tab->n_chan;
    size_t cells = row_entries * (size_t)t->n_switches;
    /* Progress about a hundred times over the build, never per row on
     * small networks. */
    int step = t->n_switches / 100 > 0 ? t->n_switches / 100 : 1;

    /* One byte per entry first; start again with two if some legal path
     * turns out to be 255 hops or longer. */
    for (int wide = 0; wide < 2; wide++) {
        size_t esize = wide ? sizeof(uint16_t) : sizeof(uint8_t);
        uint8_t *cells_mem = malloc(cells * esize + 1);
        if (!cells_mem) {
            rc = fl_error_set(err, FL_ENOMEM,
                              "out of memory for a %d-switch, %d-channel routing table",
                              t->n_switches, tab->n_chan);
            goto free_queue;
        }
        int overflow = 0;
        /* Batches of 64 destinations while the one-byte rows' searches
         * share enough to pay (see bfs_batch()), else one at a time. */
        int batched = !wide;
        int64_t work = 0;
        for (int d = 0; d < t->n_switches && !overflow;) {
            int width = batched ? (t->n_switches - d < 64 ? t->n_switches - d : 64) : 1;
            for (int k = d; k < d + width; k++)
                if (opt->progress && k % step == 0
                    && opt->progress(opt->progress_data,
                                     progress_from
                                         + (1.0 - progress_from) * k / t->n_switches)) {
                    free(cells_mem);
                    rc = fl_error_set(err, FL_ECANCELLED,
                                      "routing table construction cancelled");
                    goto free_queue;
                }
            uint8_t *row = cells_mem + esize * row_entries * d;
            if (batched) {
                work = 0;
                overflow = bfs_batch(tab, d, width, pred_off, pred, &batch, row, &work);
                /* Scalar searches read every list once per destination. */
                batched = 4 * work <= (int64_t)width * pred_off[tab->n_chan];
            } else {
                overflow = wide ? bfs_row(tab, d, pred_off, pred, queue, row, 1)
                                : bfs_row(tab, d, pred_off, pred, queue, row, 0);
            }
            d += width;
        }
        if (overflow) {
            free(cells_mem);
            continue;
        }
        tab->wide = wide;
        if (wide)
            tab->dist16 = (uint16_t *)(void *)cells_mem;
        else
            tab->dist8 = cells_mem;
        break;
    }
    if (!tab->dist8 && !tab->dist16)
        rc = fl_error_set(err, FL_ERANGE, "a legal path is longer than %u hops",
                          FL__TABLE_INF16 - 1);
    else if (opt->progress)
        opt->progress(opt->progress_data, 1.0);
free_queue:
    free(queue);
free_pred:
    batch_free(&batch);
    free(pred_off);
    free(pred);
    return rc;
}

/* The raw entry for dense channel i and destination rank d. */
static inline unsigned dist_entry(const FlRouteTable *tab, int d, int i)
{
    size_t k = (size_t)d * (size_t)tab->n_chan + (size_t)i;
    return tab->wide ? tab->dist16[k] : tab->dist8[k];
}

int fl__table_dist(const FlRouteTable *tab, int c, int dest)
{
    const FlTopology *t = tab->t;
    if (c < 0 || c >= 2 * t->n_links || dest < 0 || dest >= t->n_nodes
        || t->kind[dest] != FL_NODE_SWITCH || tab->chan_index[c] < 0)
        return -1;
    unsigned v = dist_entry(tab, t->rank[dest], tab->chan_index[c]);
    return v == (tab->wide ? FL__TABLE_INF16 : FL__TABLE_INF8) ? -1 : (int)v;
}

int fl__table_next(const FlRouting *r, int sw, int in_channel, int in_class, int dest,
                   FlRouteChoice *out, int max)
{
    (void)in_class;
    const FlRouteTable *tab = r->state;
    const FlTopology *t = tab->t;
    if (dest < 0 || dest >= t->n_nodes || t->kind[dest] != FL_NODE_SWITCH || sw < 0
        || sw >= t->n_nodes || t->kind[sw] != FL_NODE_SWITCH)
        return 0;
    int d = t->rank[dest];
    unsigned inf = tab->wide ? FL__TABLE_INF16 : FL__TABLE_INF8;
    /* A host's channel (injection) makes no turn: treat it as the start. */
    int in = in_channel >= 0 && in_channel < 2 * t->n_links ? tab->chan_index[in_channel] : -1;
    int n = 0;
    if (in >= 0) {
        if (fl__chan_dst(t, in_channel) != sw)
            return 0;
        unsigned here = dist_entry(tab, d, in);
        if (here == inf || here == 0)
            return 0;
        for (int k = tab->succ_off[in]; k < tab->succ_off[in + 1] && n < max; k++) {
            int j = tab->succ[k];
            if (dist_entry(tab, d, j) == here - 1)
                out[n++] = (FlRouteChoice){ tab->chan_port[j], tab->chan_id[j], 0 };
        }
        return n;
    }
    /* At the source: every output on a minimal legal path. */
    unsigned best = inf;
    for (int p = 0; p < t->nports[sw]; p++) {
        if (!fl__switch_port(t, sw, p))
            continue;
        unsigned v = dist_entry(tab, d, tab->chan_index[fl__out_channel(t, sw, p)]);
        if (v < best)
            best = v;
    }
    if (best == inf)
        return 0;
    for (int p = 0; p < t->nports[sw] && n < max; p++) {
        if (!fl__switch_port(t, sw, p))
            continue;
        int c = fl__out_channel(t, sw, p);
        if (dist_entry(tab, d, tab->chan_index[c]) == best)
            out[n++] = (FlRouteChoice){ p, c, 0 };
    }
    return n;
}

void fl__table_fini(FlRouting *r)
{
    FlRouteTable *tab = r->state;
    if (!tab)
        return;
    free(tab->turn_bits);
    free(tab->turn_base);
    free(tab->chan_index);
    free(tab->chan_id);
    free(tab->chan_port);
    free(tab->succ_off);
    free(tab->succ);
    free(tab->dist8);
    free(tab->dist16);
    free(tab->label);
    free(tab);
    r->state = NULL;
}

int fl__table_turn_prohibited(const FlRouting *r, int sw, int in_port, int out_port)
{
    return fl__table_is_prohibited(r->state, sw, in_port, out_port);
}

const char *fl__table_channel_label(const FlRouting *r, int channel)
{
    const FlRouteTable *tab = r->state;
    if (!tab->label || tab->chan_index[channel] < 0)
        return NULL;
    return tab->label_names[tab->label[channel]];
}
