/* routing-internal.h — the private contract between the routing registry
 * (routing.c), the algorithms (route-*.c) and the analysis (analysis-*.c).
 */
#ifndef FLITLAB_ROUTING_INTERNAL_H
#define FLITLAB_ROUTING_INTERNAL_H

#include <stdint.h>

#include "internal.h"

typedef struct FlRoutingAlgo FlRoutingAlgo;

/* One row of the routing registry. */
struct FlRoutingAlgo {
    FlRoutingInfo info;  /* first, so fl_routing_info() can point at it */
    /* Checks that the topology is one the algorithm serves (else
     * FL_EUNSUPPORTED with a message saying why), builds r->state, sets
     * r->vc_classes and, for spanning-tree routings, r->root, r->parent,
     * r->hv_h and r->hv_v. */
    int (*init)(FlRouting *r, const FlRoutingOptions *opt, FlError *err);
    /* fl_routing_next() for this algorithm; sw != dest is guaranteed. */
    int (*next)(const FlRouting *r, int sw, int in_channel, int in_class, int dest,
                FlRouteChoice *out, int max);
    /* Frees r->state (and nothing else). */
    void (*fini)(FlRouting *r);
    /* Optional: the turns the algorithm prohibits by definition. NULL means
     * "the turns no route takes", derived from next() when the routing is
     * built. */
    int (*turn_prohibited)(const FlRouting *r, int sw, int in_port, int out_port);
    /* Optional: a direction label per switch-to-switch channel. */
    const char *(*channel_label)(const FlRouting *r, int channel);
    /* Optional: whether a packet crossing the channel moves to a higher VC
     * class (a dateline). */
    int (*channel_dateline)(const FlRouting *r, int channel);
    /* Optional: whether next() gives one choice, of class 0, that depends
     * on the switch and the destination only (not on the channel or class
     * the packet came by), so that a caller may keep it in a table. */
    int (*by_destination)(const FlRouting *r);
};

struct FlRouting {
    const FlTopology *t;
    const FlRoutingAlgo *algo;
    int vc_classes;
    void *state;             /* the algorithm's own */

    /* Spanning-tree routings (up* / down*, L-/R-turn); -1 / NULL otherwise.
     * Arrays are indexed by node id and freed by routing.c. */
    int root;
    int *parent;
    int *hv_h, *hv_v;

    /* The sum of the breadth-first distances between every ordered pair of
     * connected switches when building the routing found it (the default
     * root's search does), so that the analysis need not search again;
     * else -1. */
    int64_t distance_sum;

    /* Turns taken by some route, for algorithms without turn_prohibited:
     * bit (in_port * nports + out_port) of switch sw is at
     * turn_used[turn_base[sw] + bit / 8]. Built by fl__routing_derive_turns. */
    uint8_t *turn_used;
    int64_t *turn_base;      /* per node id */
};

/* The registry rows, one per algorithm file. */
extern const FlRoutingAlgo fl__route_dor;
extern const FlRoutingAlgo fl__route_west_first;
extern const FlRoutingAlgo fl__route_north_last;
extern const FlRoutingAlgo fl__route_negative_first;
extern const FlRoutingAlgo fl__route_odd_even;
extern const FlRoutingAlgo fl__route_xmesh;
extern const FlRoutingAlgo fl__route_dmesh;
extern const FlRoutingAlgo fl__route_updown;
extern const FlRoutingAlgo fl__route_lturn_alpha;
extern const FlRoutingAlgo fl__route_lturn_beta;
extern const FlRoutingAlgo fl__route_rturn_alpha;
extern const FlRoutingAlgo fl__route_rturn_beta;
extern const FlRoutingAlgo fl__route_turnset;
extern const FlRoutingAlgo fl__route_shortest;
extern const FlRoutingAlgo fl__route_myrinet_dor;

/* The options of the registry rows (routing-options.c). */
extern const FlOptionInfo fl__routing_option_root;
extern const FlOptionInfo fl__routing_option_classes;
extern const FlOptionInfo fl__routing_option_order;
extern const FlOptionInfo fl__routing_option_prohibit;

/* A registry row's options: FL__OPTIONS(&fl__routing_option_root). */
#define FL__OPTIONS(...) ((const FlOptionInfo *const[]){ __VA_ARGS__, NULL })

/* Fills r->turn_used from the routing function: a turn is used when some
 * packet, injected anywhere and following next() towards some destination,
 * makes it (analysis-turns.c). */
int fl__routing_derive_turns(FlRouting *r, FlError *err);
/* Whether r's routes depend on the switch and destination only (see
 * FlRoutingAlgo.by_destination). */
int fl__routing_by_destination(const FlRouting *r);

/* The channel that leaves node n by port p, or -1 if the port is free. */
static inline int fl__out_channel(const FlTopology *t, int n, int p)
{
    int l = t->port_link[t->port_base[n] + p];
    if (l < 0)
        return -1;
    return t->link_end[4 * l] == n && t->link_end[4 * l + 1] == p ? 2 * l : 2 * l + 1;
}

/* The port of channel c's destination node that c arrives on. */
static inline int fl__in_port(const FlTopology *t, int c)
{
    const int *e = t->link_end + 4 * (c >> 1);
    return (c & 1) ? e[1] : e[3];
}

/* The port of channel c's source node that c leaves by. */
static inline int fl__out_port(const FlTopology *t, int c)
{
    const int *e = t->link_end + 4 * (c >> 1);
    return (c & 1) ? e[3] : e[1];
}

/* Source and destination node of channel c. */
static inline int fl__chan_src(const FlTopology *t, int c)
{
    return t->link_end[4 * (c >> 1) + ((c & 1) ? 2 : 0)];
}

static inline int fl__chan_dst(const FlTopology *t, int c)
{
    return t->link_end[4 * (c >> 1) + ((c & 1) ? 0 : 2)];
}

#endif /* FLITLAB_ROUTING_INTERNAL_H */
