/* traffic-internal.h — how the simulator keeps its source queues short.
 *
 * A source queue stores at most a fixed number of packets (the simulator
 * chooses it). When a source with a full queue makes another packet, its
 * emit function returns FL__TRAFFIC_DEFER, and the source defers: from
 * that cycle on its packets are decided by a stream of its own (a draw per
 * host and cycle from a counter-based hash of the seed, the host and the
 * cycle, so any cycle's decision can be made again at any time) and are
 * only counted when they are made (owe); the simulator later asks for them
 * in order (fl__traffic_replay), which makes each again from the same
 * draws, with its creation cycle, as its queue has room. A deferring
 * source's packets in the shared stream are drawn as before and dropped,
 * so that every other source's packets stay the same. A trace source
 * defers the same way, replaying its own events: its packets are exactly
 * the ones it would have stored. Once a source has been replayed up to the
 * current cycle it stops deferring, and its next packets come from the
 * shared stream again.
 *
 * Random sources that defer make packets with the same distribution as
 * before, but not the same ones: a run in which no source queue fills up
 * is unchanged, packet for packet. */
#ifndef FLITLAB_TRAFFIC_INTERNAL_H
#define FLITLAB_TRAFFIC_INTERNAL_H

#include "internal.h"

/* What an FlTrafficEmit returns when the source's queue is full. */
#define FL__TRAFFIC_DEFER (-3)

/* A deferring source made a packet of flits flits in this cycle. */
typedef void (*FlTrafficOwe)(void *data, int src, int flits);

/* fl__traffic_generate_cycle() with deferring sources: their packets go to
 * owe instead of emit. */
int fl__traffic_generate_cycle_owing(FlTraffic *tr, int64_t cycle, FlRng *rng,
                                     FlTrafficEmit emit, FlTrafficOwe owe, void *data);

/* Sources deferring now. */
int fl__traffic_deferring(const FlTraffic *tr);

/* The first source from src on that defers now, or -1: the sources
 * fl__traffic_replay() may give packets of. */
int fl__traffic_next_deferring(const FlTraffic *tr, int src);

/* The next deferred packet of source src made at or before cycle now: 1
 * with its creation cycle, destination and length, or 0 when there is
 * none left, and the source no longer defers. */
int fl__traffic_replay(FlTraffic *tr, int src, int64_t now, int64_t *created, int *dst,
                       int *flits);

/* The gap before the next packet of Bernoulli sources for draw k (1 to
 * 2^53: a draw's top 53 bits plus 1), as the simulator's whole cycles take
 * it (by a table, where it has one), or with by_log as the table stands
 * for (by log()): the two are the same, which the tests check. */
int64_t fl__traffic_gap(const FlTraffic *tr, uint64_t k, int by_log);

#endif /* FLITLAB_TRAFFIC_INTERNAL_H */
