/* route-walk.h — the walk over the states a packet can reach under a
 * routing, which the turn derivation (route-turns.c) and the analysis (the
 * channel dependency graph, the path search) all stand on.
 *
 * A packet in flight is in a state (channel, VC class): it occupies channel
 * c in class k and is about to be routed at the switch c arrives at. States
 * are numbered as FlStateSpace says. Injection is not a state: a packet
 * injected at switch sw is routed with in_channel -1 and class 0, and the
 * states it can take are the walk's starting points.
 */
#ifndef FLITLAB_ROUTE_WALK_H
#define FLITLAB_ROUTE_WALK_H

#include <stdint.h>

#include "routing-internal.h"

/* How states are numbered: s = (channel << shift) | class, shift the fewest
 * bits that hold the routing's classes, so that taking a state apart is a
 * shift and a mask rather than a division: the walks do it for every state,
 * some 30 million times for a 64x64 mesh. Numbers whose class part is not a
 * class of the routing are simply never reached. */
typedef struct FlStateSpace {
    int shift;
    int nstates;           /* channels << shift */
} FlStateSpace;

int fl__state_space(const FlRouting *r, FlStateSpace *sp, FlError *err);

static inline int fl__state(const FlStateSpace *sp, int channel, int vc_class)
{
    return (channel << sp->shift) | vc_class;
}

static inline int fl__state_channel(const FlStateSpace *sp, int s)
{
    return s >> sp->shift;
}

static inline int fl__state_class(const FlStateSpace *sp, int s)
{
    return s & ((1 << sp->shift) - 1);
}

/* What the walks look up for every channel they meet, side by side so that
 * one cache line answers both questions. */
typedef struct FlChanInfo {
    int dst;        /* the node the channel arrives at */
    int from_key;   /* port_base[source] + the port it leaves by, when the
                     * channel joins two switches; -1 when it touches a host */
} FlChanInfo;

/* One entry per channel; NULL when out of memory. free() it. */
FlChanInfo *fl__chan_info_new(const FlTopology *t);

/* Reports the first choice fl__check_choices() refuses (FL_EINVAL). */
int fl__bad_choice(const FlRouting *r, int sw, int dest, const FlRouteChoice *choices,
                   int n, FlError *err);

/* Checks the n choices the routing gave at switch sw towards dest: each must
 * leave sw by its port for another switch, in a class the routing has.
 * Anything else is a bug in the routing, which the message names. Inline
 * because the walks call it for every state: one look-up per choice. */
static inline int fl__check_choices(const FlRouting *r, const FlChanInfo *ci, int sw, int dest,
                                    const FlRouteChoice *choices, int n, FlError *err)
{
    const FlTopology *t = r->t;
    int base = t->port_base[sw];
    unsigned nports = (unsigned)t->nports[sw], nch = 2u * (unsigned)t->n_links;
    for (int i = 0; i < n; i++) {
        unsigned c = (unsigned)choices[i].channel;
        if (c >= nch || (unsigned)choices[i].vc_class >= (unsigned)r->vc_classes
            || (unsigned)choices[i].port >= nports || ci[c].from_key != base + choices[i].port)
            return fl__bad_choice(r, sw, dest, choices, n, err);
    }
    return FL_OK;
}

/* Called once for every injection (in_channel -1, in_class 0) and every
 * reached state towards dest, with the legal next hops the routing gives
 * there. sw is the switch the packet is at, never dest. */
typedef void (*FlStateVisitor)(void *data, int sw, int in_channel, int in_class, int dest,
                               const FlRouteChoice *choices, int n);

typedef struct FlStateWalk {
    const FlRouting *r;
    FlStateSpace sp;
    FlChanInfo *ci;        /* per channel */
    int round;             /* bumped per walk, so stamps need no clearing */
    int *stamp;            /* per state: the round it was last queued in */
    int *queue;            /* the states of the current round, in order reached */
    int nqueued;
    FlRouteChoice choices[FL_ROUTE_MAX_CHOICES];
} FlStateWalk;

int fl__walk_init(FlStateWalk *w, const FlRouting *r, FlError *err);
void fl__walk_free(FlStateWalk *w);

/* A bitmap of the steps packets take: a step from state s by port p in class
 * k sets bit row[s] + p * port_stride + k * class_stride of bits. The turn
 * map and the channel dependency graph are both such bitmaps, so the walk
 * marks them itself rather than calling out for every state. Injections
 * mark nothing. */
typedef struct FlStepBits {
    const int64_t *row;    /* per state */
    uint8_t *bits;
    int port_stride, class_stride;
} FlStepBits;

/* Marks the steps from state s by the n choices. */
static inline void fl__mark_steps(const FlStepBits *mark, int s, const FlRouteChoice *ch, int n)
{
    int64_t row = mark->row[s];
    for (int i = 0; i < n; i++) {
        int64_t b = row + (int64_t)ch[i].port * mark->port_stride
                    + (int64_t)ch[i].vc_class * mark->class_stride;
        mark->bits[b >> 3] |= (uint8_t)(1u << (b & 7));
    }
}

/* Breadth-first over the states reachable towards switch node dest from
 * injection at switch node src (or at every switch but dest when src is -1),
 * following every choice of fl_routing_next(). mark (may be NULL) gets every
 * step from a reached state; visit (may be NULL) sees each injection and
 * each reached state that is not at dest, with its choices. Afterwards
 * w->queue[0 .. w->nqueued) lists the reached states in the order reached,
 * those arriving at dest included. O(states reached * ports). */
int fl__walk_dest(FlStateWalk *w, int src, int dest, const FlStepBits *mark,
                  FlStateVisitor visit, void *data, FlError *err);

#endif /* FLITLAB_ROUTE_WALK_H */
