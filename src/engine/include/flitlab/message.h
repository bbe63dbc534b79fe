/* flitlab/message.h — messages between hosts over the flit-level simulator:
 * the layer collective algorithms run on (paper 001's model).
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_MESSAGE_H
#define FLITLAB_MESSAGE_H

#include <stdint.h>

#include "flitlab/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A schedule is a list of messages. Hosts are one-port processes: each
 * sends its messages one at a time, in the order of the list, and receives
 * one at a time, in the order they arrive. A message may be sent once its
 * source has received the message it depends on (after), if any: a node
 * forwards only what it holds.
 *
 * Software costs, in cycles: sending a message of L flits keeps its host
 * busy s_s + s_d L cycles (start-up and copy), after which its packets
 * (L split into packets of at most max_packet flits) are handed to the
 * network at once, queued at the host; receiving keeps the destination
 * busy r_s + r_d L cycles from when the last flit has arrived and the host
 * is free. The network's own per-flit time is the simulator's
 * (link_cycles_per_flit, pipeline, contention).
 *
 * The same schedule is timed analytically with paper 001's parameterized
 * model: a node's m-th send starts m t_hold after it may start (its
 * previous send ends t_hold after it starts), and a message is received
 * t_end after it is sent; the network is contention-free.
 */

typedef struct FlMessage {
    int src, dst;                /* host ranks (0 .. hosts - 1), distinct */
    int flits;                   /* size, >= 1 */
    int after;                   /* index of the message src must have received
                                  * first, or -1 */
} FlMessage;

typedef struct FlMessageCosts {
    int64_t send_startup, send_per_flit;   /* s_s, s_d */
    int64_t recv_startup, recv_per_flit;   /* r_s, r_d */
    int max_packet;              /* flits per packet at most; 0: one packet */
} FlMessageCosts;

/* When each step of a message happened (cycles). */
typedef struct FlMessageTimes {
    int64_t start;               /* its sender began sending it */
    int64_t injected;            /* its packets were handed to the network */
    int64_t arrived;             /* its last flit reached the destination host */
    int64_t received;            /* the destination finished receiving it */
} FlMessageTimes;

/* The most cycles one message may take in a run on the simulator, which
 * steps through every cycle, also those of the software costs: its send,
 * its flits over a channel and its receipt, s_s + s_d L + c_d L + r_s +
 * r_d L (fl_message_model()'s t_end without the head's latency). 10^8
 * cycles is seconds of stepping; paper 001's messages take a few
 * thousand. */
#define FL_MESSAGE_MAX_CYCLES ((int64_t)100000000)

/* Whether a message of flits flits under costs c, on a network that moves
 * a flit every channel_cycles cycles, takes at most FL_MESSAGE_MAX_CYCLES
 * cycles: FL_ERANGE with a message that names the settings (s-s, s-d,
 * c-d, r-s, r-d), the bound and why, when it does not. */
int fl_message_costs_check(const FlMessageCosts *c, int flits, int64_t channel_cycles,
                           FlError *err);

/* Checks a schedule against a network of hosts hosts: hosts in range and
 * distinct, sizes >= 1, each dependency an earlier-or-later message whose
 * destination is this one's source, and no message waiting on itself
 * through its dependencies. FL_EINVAL with a message naming the message. */
int fl_message_check(const FlMessage *m, int n, int hosts, FlError *err);

/* Runs the schedule on sim, which must carry no traffic of its own (rate
 * 0) and have no hook (the run sets and clears its own); it starts at
 * sim's cycle. Fills out[i] for each message, and *completion (may be
 * NULL) with the cycle the last message was received. progress (may be
 * NULL) hears the fraction of messages received at least every 65536
 * cycles; returning nonzero stops the run with FL_ECANCELLED. Fails with
 * the simulator's error, or FL_EUNSUPPORTED when the network deadlocks, or
 * FL_ERANGE when a message would take more than FL_MESSAGE_MAX_CYCLES
 * (fl_message_costs_check() with sim's link cycles per flit) or the
 * schedule has not finished within max_cycles cycles (0: no limit). */
int fl_message_run(FlSim *sim, const FlMessage *m, int n, const FlMessageCosts *c,
                   int64_t max_cycles, FlProgressFunc progress, void *progress_data,
                   FlMessageTimes *out, int64_t *completion, FlError *err);

/* Paper 001's model: start, injected (= start) and arrived (= received =
 * start + t_end) for each message, and the completion time. */
int fl_message_analytic(const FlMessage *m, int n, int hosts, int64_t t_hold, int64_t t_end,
                        FlMessageTimes *out, int64_t *completion, FlError *err);

/* Paper 001's t_hold and t_end for one message of flits flits under costs
 * c on a network that moves a flit every channel_cycles cycles (the
 * simulator's link_cycles_per_flit, the paper's c_d): t_hold = s_s + s_d L
 * (the one-port sender's busy time) and t_end = t_hold + c_d L + r_s +
 * r_d L + head_latency, head_latency being the caller's estimate of the
 * head's time through the network (the paper takes 0). Either output may
 * be NULL. */
void fl_message_model(const FlMessageCosts *c, int flits, int64_t channel_cycles,
                      int64_t head_latency, int64_t *t_hold, int64_t *t_end);

/* A trace that replays a finished fl_message_run(): each message's packets,
 * split as the run split them, made at its injected cycle, in the order
 * the run handed them over (by cycle, then source host, then message). A
 * simulation configured as the run's but with traffic pattern "trace" over
 * these events moves every flit as the run did, under the same packet ids,
 * when it starts at the cycle the run started at (fl_message_run on a new
 * simulation starts at 0). *events is malloc'd (free() it); NULL with
 * *n_events 0 when there are no messages. */
int fl_message_trace(const FlMessage *m, int n, const FlMessageCosts *c,
                     const FlMessageTimes *times, FlTraceEvent **events, int64_t *n_events,
                     FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_MESSAGE_H */
