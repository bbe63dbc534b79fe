/* route-table.h — the machinery shared by the table routings (up* / down*,
 * L-turn, R-turn, an edited turn set, unrestricted shortest paths): shortest
 * legal paths over a set of prohibited turns, and the BFS spanning tree that
 * up* / down* and the H/V graph stand on.
 *
 * A table routing fills a prohibited-turn bitmap, builds the table, and
 * answers fl_routing_next() from it:
 *
 *     FlRouteTable *tab;
 *     rc = fl__table_new(r, opt, &tab, err);          // r->state = tab
 *     fl__table_prohibit(tab, sw, in_port, out_port);  // as many as needed
 *     rc = fl__table_build(tab, opt, 0.0, err);
 *
 * and its registry row uses fl__table_next, fl__table_fini,
 * fl__table_turn_prohibited and fl__table_channel_label (FL__TABLE_ROW).
 */
#ifndef FLITLAB_ROUTE_TABLE_H
#define FLITLAB_ROUTE_TABLE_H

#include <stdint.h>

#include "routing-internal.h"

typedef struct FlRouteTable {
    const FlTopology *t;

    /* Prohibited turns: bit (in_port * nports + out_port) of switch node n
     * is at turn_bits[turn_base[n] + bit / 8]. Hosts take no bytes. */
    uint8_t *turn_bits;
    int64_t *turn_base;    /* n_nodes + 1 */

    /* Switch-to-switch channels get dense indices 0 .. n_chan-1 so that
     * the distance rows hold no host channels. */
    int n_chan;
    int *chan_index;       /* per channel id: dense index, or -1 */
    int *chan_id;          /* per dense index: channel id */
    int *chan_port;        /* per dense index: the port it leaves by */

    /* The legal continuations of a dense channel (turns not prohibited), in
     * increasing output port order: succ[succ_off[i] .. succ_off[i + 1]). */
    int *succ_off, *succ;

    /* dist[d * n_chan + i]: hops still needed after traversing dense channel
     * i to reach the switch of rank d (0 when i arrives there); the width's
     * maximum means unreachable. One byte per entry while every distance
     * fits under 255, else two. */
    int wide;
    uint8_t *dist8;
    uint16_t *dist16;

    /* Optional direction labels: label_names[label[channel id]] for
     * switch-to-switch channels, NULL for host channels or without labels. */
    uint8_t *label;
    const char *const *label_names;
} FlRouteTable;

/* The unreachable marks of the two widths. */
#define FL__TABLE_INF8 0xFFu
#define FL__TABLE_INF16 0xFFFFu

/* Allocates a table with every turn allowed and makes it r->state (so the
 * row's fini frees it even when a later step fails). Refuses more than one
 * VC class: table routings are deadlock-free, or meant to show deadlock,
 * with a single class. */
int fl__table_new(FlRouting *r, const FlRoutingOptions *opt, FlRouteTable **out,
                  FlError *err);

/* Marks turn (in_port -> out_port) at switch node sw prohibited. The ports
 * must be in range; the caller validates anything user-given. */
void fl__table_prohibit(FlRouteTable *tab, int sw, int in_port, int out_port);
int fl__table_is_prohibited(const FlRouteTable *tab, int sw, int in_port, int out_port);

/* Whether port p of switch node sw holds a link to another switch. */
int fl__switch_port(const FlTopology *t, int sw, int p);

/* Computes the successor lists and every (channel, destination) distance
 * by breadth-first search backwards from each destination over the allowed
 * turns: O(S * C * ports) time, S * C bytes (S switches, C switch
 * channels). Calls opt->progress with fractions from progress_from to 1
 * (a routing with earlier steps reports those below progress_from);
 * FL_ECANCELLED when it asks to stop. */
int fl__table_build(FlRouteTable *tab, const FlRoutingOptions *opt, double progress_from,
                    FlError *err);

/* Hops still needed after channel id c towards switch node dest, or -1 when
 * no legal path exists (or c is a host channel). */
int fl__table_dist(const FlRouteTable *tab, int c, int dest);

/* The registry callbacks every table routing shares. */
int fl__table_next(const FlRouting *r, int sw, int in_channel, int in_class, int dest,
                   FlRouteChoice *out, int max);
void fl__table_fini(FlRouting *r);
int fl__table_turn_prohibited(const FlRouting *r, int sw, int in_port, int out_port);
const char *fl__table_channel_label(const FlRouting *r, int channel);

/* r's table when r is a table routing, else NULL. The analysis reads the
 * table directly: a table routing's routes and dependencies follow from its
 * distances and allowed turns without asking next() state by state. */
static inline const FlRouteTable *fl__table_of(const FlRouting *r)
{
    return r->algo->next == fl__table_next ? r->state : NULL;
}

/* Entry i of a distance row (one destination's n_chan entries), either
 * width; the unreachable mark is the width's maximum. */
static inline unsigned fl__table_row_entry(const FlRouteTable *tab, const void *row, int i)
{
    return tab->wide ? ((const uint16_t *)row)[i] : ((const uint8_t *)row)[i];
}

/* The distance row of the switch of rank d. */
static inline const void *fl__table_row(const FlRouteTable *tab, int d)
{
    size_t k = (size_t)d * (size_t)tab->n_chan;
    return tab->wide ? (const void *)(tab->dist16 + k) : (const void *)(tab->dist8 + k);
}

#define FL__TABLE_ROW(cli_name, summary_text, applies, options_list, init_fn)          \
    {                                                                                  \
        .info = { cli_name, summary_text, applies, 1, options_list }, .init = init_fn,  \
        .next = fl__table_next, .fini = fl__table_fini,                                \
        .turn_prohibited = fl__table_turn_prohibited,                                  \
        .channel_label = fl__table_channel_label,                                      \
    }

/* ------------------------------------------------------------------------ */
/* The BFS spanning tree of up* / down* and the H/V graph                   */
/* ------------------------------------------------------------------------ */

/* Breadth-first spanning tree of the switches from root (a node id): a
 * switch's children are discovered in the order of its ports, so the tree
 * is determined by the port numbering. Fills, per node id (hosts get -1):
 * parent (-1 for the root), depth, and, when preorder is non-NULL, the
 * preorder index of a depth-first walk of the tree that visits children in
 * port order (the H/V graph's horizontal spread). Arrays hold n_nodes ints. */
int fl__spanning_tree(const FlTopology *t, int root, int *parent, int *depth, int *preorder,
                      FlError *err);

/* The root by paper 002's rule, as read in route-updown.c: the switch with
 * the fewest crossing paths, ties to the least mean distance, then to the
 * lowest id. O(S * (S + L)). Its searches also give *distance_sum, the sum
 * of the distances between every ordered pair of connected switches. */
int fl__default_root(const FlTopology *t, int *root, int64_t *distance_sum, FlError *err);

/* Chooses the root (opt->root or the default), builds the tree into
 * r->root and r->parent, and returns the depths (and, when preorder is
 * non-NULL, the preorder indices) in malloc'd arrays the caller frees. */
int fl__tree_routing_setup(FlRouting *r, const FlRoutingOptions *opt, int **depth,
                           int **preorder, FlError *err);

#endif /* FLITLAB_ROUTE_TABLE_H */
