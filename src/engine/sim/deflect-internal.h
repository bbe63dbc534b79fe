/* deflect-internal.h — the deflection model's state (paper 003), shared by
 * deflect.c (the model and its cycle) and deflect-state.c (statistics,
 * views, checkpoints). The model itself is described at the top of
 * deflect.c. */
#ifndef FLITLAB_DEFLECT_INTERNAL_H
#define FLITLAB_DEFLECT_INTERNAL_H

#include "routing-internal.h"

/* Longest run accepted, and the furthest stepping goes: the three time
 * series then need 24 GB, and creation cycles fit the 32 bits the
 * priority keys give them. */
#define FL__DEFLECT_MAX_CYCLES 1000000000LL

/* One message competing for an output at a node. */
typedef struct DeflectCandidate {
    int msg;
    int transit;    /* arrived last cycle: must leave this cycle */
    uint64_t key;   /* priority; smaller goes first */
    int nout;       /* number of shortest-path outputs, -1 until computed */
    int *outs;      /* their indices among the node's outputs */
} DeflectCandidate;

/* Everything that changes from cycle to cycle apart from the per-message
 * arrays and the channels. */
typedef struct DeflectScalars {
    FlRng rng;
    int64_t cycle;          /* the next cycle to simulate */
    int64_t next_id;        /* the id of the next message made */
    int64_t delivered, deflections, delay_sum, delay_max;
} DeflectScalars;

struct FlDeflect {
    const FlTopology *t;
    const FlRouting *r;
    FlDeflectPriority priority;
    int n;          /* switches */
    int nmsg;
    int max_deg;
    int n_msgs;

    /* The outputs of switch s (by rank) are out_off[s] .. out_off[s+1]: the
     * channel and the rank of the switch at its far end. port_out maps a
     * port (t->port_base[node] + p) to its output index at that switch, or
     * -1 for host ports and free ones. */
    int *out_off, *out_chan, *out_dst;
    int *port_out;

    /* Messages: slot m belongs to switch m / nmsg. The arrays live in one
     * block of msg_bytes, so that a checkpoint copies them at once. */
    void *msg_block;
    size_t msg_bytes;
    int64_t *born;      /* the cycle it was created in */
    int64_t *id;        /* creation order */
    int *dest;          /* destination switch rank */
    uint32_t *tie;      /* fixed random tie-break */
    int *chan;          /* the channel it crossed last cycle, -1 while waiting */
    int32_t *hops;      /* channels crossed */
    int32_t *deflections_of;  /* deflections suffered */
    uint8_t *waiting;   /* 1 while at its owner, not injected yet */
    uint8_t *deflected; /* its last hop was a deflection */

    /* The message on each channel: on_chan holds last cycle's moves (what
     * arrives now), next_chan this cycle's. Phase one empties on_chan as it
     * reads it, so the two swap roles without clearing, and between cycles
     * next_chan is all -1. -1 when empty. n_chan entries each. */
    int *on_chan, *next_chan;
    size_t n_chan;

    /* Scratch for one node, allocated once. */
    DeflectCandidate *cand;
    int *cand_outs;     /* max_deg per candidate */
    int *losers;
    uint8_t *taken;     /* per output of the node */
    FlRouteChoice *choices;

    DeflectScalars sc;
};

#endif /* FLITLAB_DEFLECT_INTERNAL_H */
