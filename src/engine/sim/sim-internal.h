/* sim-internal.h — the flit-level simulator's private data and the model it
 * implements. Shared by sim.c (configuration, set-up, the cycle loop,
 * hooks, injection and fl_sim_run), sim-router.c (hosts and switches within
 * a cycle), sim-stats.c (measurement), sim-checkpoint.c (state copies and
 * the flit and VC views), sim-packets.c (finding a packet by id, its route
 * and the packet views) and sim-watchdog.c (deadlock detection).
 *
 * The model, choice by choice:
 *
 * Buffers. Every channel c (2 * link + end, as in the topology) has V
 * virtual channels. Inside the simulator the pair (c, v) is "VC
 * chan_vc[c] + v", numbered so that the VCs into one node are consecutive
 * in port order (see FlSim.chan_vc); results name it c * V + v. Each VC
 * owns a ring buffer at c's destination node. For a channel into a switch
 * (a switch-to-switch channel or a host's injection channel) the ring holds
 * buf_flits flits and the sender needs a credit per flit. A host's ejection
 * channel (switch -> host) ends in an ideal sink: the host consumes every
 * flit the cycle it arrives (at most one per cycle, since a channel carries
 * at most one flit per link_cycles_per_flit cycles), so the ejection ring is
 * only as long as the flits that can be in flight on it and needs no
 * credits. Virtual cut-through therefore never waits for the sink. On a
 * link so long that more than SIM_SINK_ROOM flits could be in flight, the
 * host has room for SIM_SINK_ROOM flits per VC, freed as it consumes them:
 * a switch sends into a full ejection VC no more than into a credited one,
 * so that memory is bounded by the flits in flight, not by the latency.
 *
 * Flits in flight. When a flit wins the switch (or leaves its host) it is
 * written at once into the downstream ring, stamped with the cycle it will
 * arrive ("ready"); until then it counts as on the link. Rings stay in
 * arrival order because one VC's flits leave in order with equal delays.
 * A flit occupies its channel for link_cycles_per_flit cycles
 * (chan_free), and arrives link_latency cycles after entering it. Both
 * apply to every channel, host links included.
 *
 * Pipeline of one switch, for a head that becomes ready at cycle a:
 *   routing      the head may request an output VC from a + routing_delay;
 *   VC alloc     separable round robin, input first: each waiting input VC
 *                asks the routing (fl_routing_next, fl_routing_select) for
 *                a channel and class, and requests the free VC of that
 *                class with the most credits (under VCT only VCs with room
 *                for the whole packet); each output VC grants one requester
 *                round robin. A grant at cycle g allows switch allocation
 *                from g + vc_alloc_delay.
 *   SW alloc     separable round robin, input first, one iteration (close
 *                to BookSim's default iSLIP-1): each input channel offers
 *                one of its VCs whose front flit is ready, has an output VC,
 *                a credit and a free output channel; each output channel
 *                grants one input. A grant at cycle s sends the flit into
 *                the channel at s + sw_alloc_delay + xbar_delay.
 *   credits      the slot freed at s is credited upstream at
 *                s + 1 + credit_delay.
 * VCs of a port are split evenly among the routing's classes: class k owns
 * VCs [k * V / K, (k + 1) * V / K). A packet injected by a host enters the
 * routing with in_channel -1 and class 0. A VC is released for another
 * packet when its tail is sent (FL_VC_RELEASE_TAIL_SENT, so several packets
 * may queue in one buffer) or when all its credits are back after the tail
 * left (FL_VC_RELEASE_TAIL_CREDIT: one packet per VC).
 *
 * Hosts. A packet made at cycle t waits in its host's FIFO source queue,
 * which is unbounded but stores at most FlSim.queue_keep of the packets
 * the traffic makes: the source then defers (traffic-internal.h), its
 * further packets are counted when made (offered, waiting, measured) and
 * stored, with their creation cycles, as the queue sends the ones before
 * them, so that the host never finds its queue empty while it owes
 * packets and sends exactly when an unbounded queue would. The host takes
 * a free VC of its injection channel (any class,
 * under VCT only with room for the packet) and sends one flit per
 * link_cycles_per_flit cycles, each credit permitting; the head may leave at
 * t, and a flit sent at s reaches the switch at s + xbar_delay +
 * link_latency (the network interface copies it like a crossbar would).
 * A host is visited while its queue holds packets (but while it waits for
 * a credit on the injection VC it holds, it waits in host_blocked instead,
 * where its credit is looked at once a cycle, before the visits that
 * would otherwise find nothing to do), and in the cycles flits reach it: a
 * flit a switch sends to a host arrives send_delay cycles later, and sets
 * the host's bit in the bitmap of that cycle (host_due, one per cycle it
 * may be on its way), which joins the hosts' active set as its cycle
 * comes, so that no visit waits for a flit on its way. For delays of
 * SIM_HOST_DUE_MAX cycles or more, one bitmap joins the next cycle and a
 * host stays while its ejection VCs hold flits.
 *
 * Zero-load latency. With H switches on the route (1 for a packet to a host
 * of the same switch), R, Va, Sa, X the pipeline delays, Lk the link latency,
 * C the cycles per flit and L the packet length:
 *     T0 = (X + Lk) + H * (R + Va + Sa + X + Lk) + (L - 1) * C.
 * "default" (all delays 0, Lk = 1): T0 = 1 + H + (L - 1) * C, one cycle per
 * channel. "booksim-min" (Va = 0, Sa = 1, X = 1, Lk = 1: BookSim's
 * speculative allocator does VC and switch allocation in the same cycle):
 *     T0 = 3H + 2 + (L - 1), BookSim's figure.
 *
 * Measurement. Statistics are counted from cycle 0 (so that a stepped
 * run can show them during the warm-up) and cleared when the cycle counter
 * reaches warmup_cycles (at once for a warm-up of 0); packets made in
 * [warmup, warmup + measure) are measured; the run then drains until all
 * of them are delivered. Packets made in the warm-up count in the warm-up's
 * figures only (SimPacket.measured 2). Channel counts and a few totals
 * (FlSimCounters) are never cleared: the window's channel counts are
 * differences of snapshots taken when it opens and closes, so sending a
 * flit counts it without looking at the window. Latency runs from
 * creation (source queueing included) and, for network latency, from the
 * cycle the head left its host, to the cycle the tail reaches the
 * destination host. Hops are switches traversed, as BookSim counts them. Accepted throughput counts
 * flits arriving at each host during the window. Channel utilization is
 * flits entered x C / window; VC occupancy is the time-average of slots
 * held (flits buffered or on the way) over the window. The run is saturated
 * when the flits waiting in source queues grow over the window by more
 * than 5 % of the flits offered in it, or when the drain does not finish
 * within drain_cycles; a run found saturated at the end of the window
 * skips the drain (its latencies are those delivered so far).
 * FL_MEASURE_BOOKSIM measures as BookSim 2's sim_type=throughput instead:
 * a packet is measured when its turn comes in the window, the cycle it
 * reaches the front of its source queue (made into an empty queue, or
 * the one before it sent its tail the cycle before: BookSim makes a
 * source's next packet only then, stamped with its creation cycle, so
 * past saturation the window sends the backlog of the warm-up, whose
 * queueing counts). When the window closes the sources stop and the
 * packets whose turn has not come are withdrawn (BookSim never makes
 * them); the run then drains every measured packet, saturated or not,
 * within drain_cycles. SimPacket.measured is 0 until a packet's turn.
 *
 * Deadlock. With flits in the network and none sent, injected or consumed
 * for deadlock_cycles cycles, and for at least as long as a flit or credit
 * can be on its way (FlSim.quiet_span: flits on long links are progress),
 * the watchdog looks for a cycle of the wait-for graph between occupied
 * VCs. If it finds one, the run stops with FL_SIM_DEADLOCK, which always
 * names that cycle; if not (flits wait with no cycle, such as heads that
 * a routing leaves without a choice), nothing is locked for good, and the
 * watchdog starts counting again: the run goes on, and a run that never
 * delivers them ends saturated when its drain runs out.
 *
 * Views and hooks. The flit view tells why a front flit waits from the
 * state, when asked (sim-checkpoint.c), except one fact the state does not
 * keep: that it lost an arbitration. Allocation records the cycle of a
 * VC's last lost contest (lost[]) in the branches where two requests meet,
 * which light traffic rarely reaches. A delivered packet is copied to a
 * list while the cycle runs, and hooks are called from it once the cycle
 * is over (sim.c), so that a hook sees a whole state and may inject.
 *
 * Readiness. A switch's input VC is ready when it holds flits and its
 * front flit may take its next step this cycle: VC allocation from go +
 * routing_delay for a head without an output VC, switch allocation from go
 * for a VC holding one. Ready VCs, and VCs whose front flit may move next
 * cycle and that were ready when it became the front one (the flits of a
 * packet streaming one a cycle), are the bits of ready_mask (laid out as
 * sink_mask); the allocators skip the latter by their wake-up cycle. The
 * switches' active set holds the switches with a bit in ready_mask, so
 * that no allocator looks at a flit further away nor a switch visit finds
 * nothing to do, and a stream of flits does not go round the wheel at
 * every flit. A VC that holds flits but is neither waits in the wake-up
 * wheel, in list (wake cycle) % wheel_len,
 * exactly once; at the start of each cycle's switch visits the list of
 * that cycle is emptied: its VCs due become ready, and the others (due in
 * a later turn of the wheel, on links longer than it) go back in. A VC
 * stays ready while it waits for the switch, and in general for a credit
 * or an output VC. Past saturation most VCs would wait so, asked at
 * every visit, and in the plain pipeline they are set aside instead: a
 * head with one route whose output VCs are all taken leaves the set for
 * its output channel's parked list until a tail leaves by that channel,
 * which only its own switch sends; and, run on one lane, a VC that waits
 * for a credit leaves it (wait_list) until the credit arrives (with
 * lanes the credit comes from another lane, and those VCs keep asking).
 * Both come back in the first cycle where asking could find anything
 * else, so the results are those of asking every cycle.
 *
 * Lanes. The switches are split into lanes, runs of whole words of the
 * switches' active set with about as many switches each. The hosts are
 * visited first, as lane 0, then each lane's switches, on a thread of its
 * own when cfg.threads > 1. Within a cycle nodes depend on one another
 * only through the flits they send: a flit sent into a VC of another lane
 * (SimVc.held: a switch's input VC whose sender is in another lane; a
 * host counts as lane 0) is held in the sender's list (FlSim.push) and
 * written into its ring once every lane is done. That leaves the state a
 * visit in node order leaves: the flit cannot move before the next cycle,
 * and a ring ends the cycle the same whether its front flit left before
 * or after the new one arrived. Everything else a switch visit writes is
 * its switch's, its lane's (wheel, credit queue, hosts to wake, counters)
 * or its flit's packet's, except route chunks, handed out under a lock.
 * So results are the same bit for bit whatever the number of lanes,
 * except that the selection's random draws follow node order: a run whose
 * selection may draw (random among several routes) has one lane. The
 * FlSim record is lane 0's; lane k's is lane_sims[k - 1], a copy of it
 * made before each cycle's switch visits but for the lane's own fields
 * (see lane_refresh() in sim-lanes.c), so that the switch visits read
 * their lane's wheel, credit queue and scratch where one lane's do.
 *
 * Speed. Every per-cycle structure is a flat array allocated once; only the
 * packet pool and the latency histograms grow (geometrically, so
 * allocation is amortized away). Each VC's mutable state and fixed facts
 * share one 64-byte record (SimVc). Nodes take part in a cycle only when
 * their bit is set in an active set: switches with a ready VC, hosts
 * with packets to send or flits arriving (see Hosts); the sets are
 * bitmaps, so nodes are visited in node order (a switch's VC records, and
 * its neighbours', lie near each other) and joining or leaving is one bit.
 * Within a switch, bit masks of ready VCs and of VCs holding an output VC
 * let VC allocation visit only the waiting heads and switch allocation
 * only the VCs that may send; one or two requests, most visits below
 * saturation, are decided without the allocators' lists. The visits are
 * compiled once for each mode (sim-router.c): with lanes or not, and for
 * the plain pipeline on switches of one mask word (FlSim.plain), where the
 * tests of the configuration and the loops over a switch's words fold
 * away.
 * A VC's record also carries what the per-cycle checks read (the front
 * flit's ready cycle, folded with the switch-allocation delay, as go; its
 * destination switch, as dest; the output port held, as out_port), so a
 * VC that cannot move is turned away from its own cache line and a head's
 * request starts from it; credits sit in a small array of their own and
 * a slot marks a tail and carries the destination switch itself, so
 * switch allocation reads neither the output VC's record nor the packet,
 * and routing a head does not read the packet. The state block is
 * cache-line aligned, so each record is one line.
 * Traffic generation is one call per cycle (fl__traffic_generate_cycle),
 * in which Bernoulli sources cost one draw per packet, not per host.
 *
 * Packets and routes. Each packet keeps its route, the VCs its head has
 * been granted (see SIM_ROUTE_CHUNK), written where the hop is made (one
 * word per head and switch), so that a packet's head is found from its
 * last two entries and the view of a packet costs a buffer's scan, not the
 * network's. Where the route ends travels with the head, in its slot (see
 * fl__sim_head_code), and the record learns it as the head reaches its
 * host: a hop reads and writes no packet record. Past
 * saturation the records are many and scattered (a source queue stores
 * hundreds), and a hop that touched one waited for memory. An index from
 * packet id to pool slot (FlSim.index) is written where packets are
 * made.
 *
 * Checkpoints. All mutable fixed-size state lives in one block (state) and
 * a struct of scalars (sc); with the packet pool, the route chunks, the
 * histograms and the traffic generator's per-host state that is
 * everything, so a checkpoint is a handful of memcpy calls (in pages, see
 * sim-checkpoint.c; the packet index is rebuilt from the pool on restore).
 */
#ifndef FLITLAB_SIM_INTERNAL_H
#define FLITLAB_SIM_INTERNAL_H

#include <stdint.h>

#include "routing-internal.h"

/* One packet. Packets live in a pool; free ones are chained through next. */
typedef struct SimPacket {
    int64_t id;          /* creation order, for views */
    int64_t created;     /* cycle made */
    int64_t injected;    /* cycle its head left the host, -1 before */
    int32_t src, dst;    /* host ranks */
    int32_t len;         /* flits */
    int32_t sent;        /* flits sent by the host */
    int32_t next;        /* source queue or free list link, -1 at the end */
    int32_t measured;    /* 1: made in the measurement window; 2: made in
                          * the warm-up (counted in its figures only);
                          * under FL_MEASURE_BOOKSIM the same of the cycle
                          * its turn came, 0 before it */
    int32_t route;       /* once its head has left its host, an entry of
                          * its route's last chunk (SIM_ROUTE_CHUNK), the
                          * last entry once the head has reached its host;
                          * before, the pool slot of the packet ahead of it
                          * in its source queue, or -1 */
} SimPacket;

/* A packet's route: the VCs its head has been granted, the host's
 * injection VC first (entry 0) and one more per switch (entry hops, taken
 * when the grant is made, before the head crosses). Entries are kept in
 * chunks of SIM_ROUTE_CHUNK int32_t in one growable array (FlSim.route, a
 * checkpoint copies it): chunk c is route[c * SIM_ROUTE_CHUNK ..], its
 * last word the chunk before (chunk 0, never handed out, ends every
 * chain), the others entries, so that a packet grows its route without
 * knowing its length and a hop writes the word after its last entry
 * (which the head's slot names). The word after the last entry, unless
 * that is the link, is SIM_ROUTE_END, so that the end is found from any
 * entry of the last chunk (SimPacket.route). Free chunks are chained
 * through the link word. Positions stay below SIM_ROUTE_MAX, which the
 * head's slot has room for. */
#define SIM_ROUTE_CHUNK 16
#define SIM_ROUTE_LINK (SIM_ROUTE_CHUNK - 1)
#define SIM_ROUTE_END (-1)
#define SIM_ROUTE_MAX (1 << 30)

/* One ring slot: a flit, the cycle it reaches the buffer and where its
 * packet goes. Kept together so that reading a flit touches one cache
 * line, and so that routing a head needs no look at its packet (a
 * saturated network's packets are many and scattered). */
typedef struct SimSlot {
    uint32_t ready;      /* the cycle's low 32 bits (fl__sim_slot_ready) */
    int32_t pkt;         /* packet pool index */
    int32_t flit;        /* the flit's index, coded by fl__sim_flit_code() */
    int32_t dest;        /* the switch of the packet's destination host */
} SimSlot;

/* The cycle a slot's flit reaches its buffer, from its low 32 bits: the
 * one nearest to now, which is it as long as a flit waits fewer than 2^31
 * cycles in one buffer (flits in flight are due within the pipeline and
 * link delays, a few thousand cycles at most). */
static inline int64_t fl__sim_slot_ready(const SimSlot *slot, int64_t now)
{
    return now + (int32_t)(slot->ready - (uint32_t)now);
}

/* The packets made by the traffic that source queues store (see Hosts):
 * SIM_QUEUE_BUDGET among all hosts, at least SIM_QUEUE_KEEP each. */
#define SIM_QUEUE_BUDGET (1 << 18)
#define SIM_QUEUE_KEEP 64

/* The most switches a route table serves (4 MiB). */
#define SIM_ROUTE_TABLE_MAX 2048

/* The most lists of the wake-up wheel (see Readiness). */
#define SIM_WHEEL_MAX 1024

/* The most flits an ejection VC holds: on its way and at its host. */
#define SIM_SINK_ROOM 1024

/* The most bitmaps of hosts to wake (FlSim.host_due): one per cycle a flit
 * into an ejection VC may be on its way, for delays up to 15 cycles. */
#define SIM_HOST_DUE_MAX 16

/* The slots of a ring holding cap flits: the power of two at or above. */
static inline int64_t fl__sim_ring_length(int cap)
{
    int64_t len = 1;
    while (len < cap)
        len *= 2;
    return len;
}

/* A slot's flit code: a body flit's index, or for the head
 * SIM_FLIT_HEAD with the position of its route's last entry (below
 * SIM_ROUTE_MAX); for the packet's tail (which may be the head) the
 * complement, a negative number, so that a switch tells a tail, and a head
 * its route, without reading the packet. Packets are shorter than
 * SIM_FLIT_HEAD flits (FL_MAX_PACKET_FLITS). */
#define SIM_FLIT_HEAD (1 << 30)

static inline int32_t fl__sim_flit_code(int32_t idx, int tail)
{
    return tail ? ~idx : idx;
}

/* The head's code, its route's last entry at at. */
static inline int32_t fl__sim_head_code(int32_t at, int tail)
{
    return fl__sim_flit_code(SIM_FLIT_HEAD | at, tail);
}

/* The code without the tail's complement. */
static inline int32_t fl__sim_flit_raw(int32_t code)
{
    return code < 0 ? ~code : code;
}

static inline int fl__sim_flit_is_head(int32_t code)
{
    return (fl__sim_flit_raw(code) & SIM_FLIT_HEAD) != 0;
}

static inline int32_t fl__sim_flit_index(int32_t code)
{
    int32_t raw = fl__sim_flit_raw(code);
    return raw & SIM_FLIT_HEAD ? 0 : raw;
}

/* Where the route of the head of code ends. */
static inline int32_t fl__sim_head_at(int32_t code)
{
    return fl__sim_flit_raw(code) & (SIM_FLIT_HEAD - 1);
}

/* The code of the head of code once its route ends at at: the tail's
 * complement kept without a branch (whether a head is also a tail is a
 * toss-up with mixed lengths). */
static inline int32_t fl__sim_head_moved(int32_t code, int32_t at)
{
    return (SIM_FLIT_HEAD | at) ^ (code >> 31);
}

/* One VC (channel * V + v): the state that changes and the fixed facts
 * the hot loops would otherwise divide by V to find, packed into one
 * 64-byte record so that handling a VC touches one cache line rather than
 * a line in each of a dozen arrays. The records live in the state block
 * (a checkpoint copies the fixed part too, which costs nothing and keeps
 * the copy a single memcpy). */
typedef struct SimVc {
    /* Mutable. */
    int64_t go;          /* as an input VC holding flits: the first cycle its
                          * front flit may move on (see ring_push() in
                          * sim-router.c), so that a VC with nothing to do
                          * is turned away without reading its ring */
    int64_t occ;         /* occupancy integral, see fl__sim_occ_push() */
    int32_t head, count; /* its ring */
    int32_t out;         /* as an input VC: the output VC held, or -1 */
    int32_t out_port;    /* as an input VC holding an output VC: that VC's
                          * port, so that switch allocation need not read
                          * the output VC's records */
    int64_t flits;       /* as an output VC: flits entered since cycle 0, in
                          * the record that sending writes anyway (a
                          * channel's count is its VCs' sum; the window's
                          * is the difference of chan_flits_open and
                          * chan_flits_close, or of the count now) */
    /* Fixed. */
    int32_t ring_base;   /* first slot of its ring */
    int32_t mask;        /* ring length - 1: a ring is a power of two
                          * long (ring_length()), so that indices wrap by
                          * masking */
    int32_t node;        /* the node its ring is at (the channel's end) */
    /* Mutable. */
    int32_t dest;        /* as a VC holding flits: its front flit's
                          * destination switch, kept as the front changes
                          * (see ring_push() in sim-router.c), so that a
                          * head's request reads no slot before its route
                          * (its channel is FlSim.vc_chan) */
    /* Fixed. */
    int32_t mask_pos;    /* its bit in the node masks: word mask_pos / 64
                          * (that is, mask_base[node] + local / 64 for local
                          * index li * V + v), bit mask_pos % 64 */
    uint8_t li;          /* input index at node (ports are at most
                          * FL_MAX_PORTS) */
    uint8_t v;
    uint8_t sink;        /* an ejection channel's VC */
    uint8_t held;        /* a switch's input VC whose sender is in
                          * another lane: a flit sent into it is held until
                          * the lanes are done (see Lanes) */
} SimVc;

/* Where a node's inputs are, in one record so that visiting a switch reads
 * one line rather than two tables (in_off, mask_base). */
typedef struct SimNodeAt {
    int32_t in0;         /* its first input, in_off[n] */
    int32_t vc0;         /* its first input VC, in0 * V */
    int32_t w0, w1;      /* its mask words, mask_base[n] .. mask_base[n + 1] */
    int32_t nin;         /* its inputs */
    int32_t ej;          /* a switch with one host: that host's ejection
                          * channel, where every packet for that switch
                          * leaves; -1 otherwise */
    int32_t route_row;   /* with a route table, its row there:
                          * switch_rank[n] * n_switches */
    int32_t pad_;        /* to 32 bytes, indexed by a shift */
} SimNodeAt;

/* One VC as an output VC: who holds it and its VC allocation arbiter.
 * Apart from SimVc so that VC allocation, which looks at every VC of a
 * channel it may take, reads one small record per VC, the VCs of a
 * channel side by side, rather than each VC's cache line. */
typedef struct SimOutVc {
    int32_t owner;       /* -1 free, -2 draining, else the input VC (or the
                          * host's own VC) holding it */
    int16_t rr;          /* last local input VC granted, -1 at first */
    uint8_t port;        /* fixed: the port its channel leaves its node by,
                          * the input index there of the link's other
                          * channel (ports are at most FL_MAX_PORTS) */
    uint8_t pad_;
} SimOutVc;

/* The switch arbiters of one port of a node (input li or output li, the
 * two channels of the port's link): a node's are consecutive, so that one
 * switch's arbiters share a cache line or two. */
typedef struct SimPort {
    int16_t out_rr;      /* its output: last input granted, -1 at first */
    int16_t in_rr;       /* its input: last VC granted, -1 at first (not a
                          * char type: a store to one would make the
                          * compiler reload every field of the state) */
    int32_t out_vc0;     /* fixed: VC 0 of its output channel, so that a
                          * head routed by the table finds its output VCs
                          * in one load */
} SimPort;

/* One pending credit of the credit queue. A credit is due at most
 * 1 + credit_delay cycles ahead and leaves the queue in its due cycle, so
 * the low 32 bits of the due cycle tell it (see credits_arrive() in
 * sim.c). */
typedef struct SimCredit {
    int32_t vc;
    uint32_t due;
} SimCredit;

/* The two active sets: switches, and hosts (a VC's sink flag picks its
 * node's set). */
enum { SIM_SWITCHES = 0, SIM_HOSTS = 1 };   /* SIM_HOSTS is a VC's sink flag */

/* A flit sent into a VC of another lane, held until the lanes are done
 * (see Lanes). */
typedef struct SimPush {
    int32_t vc;
    uint32_t pad_;
    int64_t ready;
    SimSlot flit;
} SimPush;

typedef struct SimCrew SimCrew;

/* Every scalar that changes while the simulation runs. */
typedef struct SimScalars {
    int64_t cycle;
    FlRng rng;               /* selection */
    FlRng traffic_rng;       /* traffic: a stream of its own */
    int status;              /* FlSimStatus */
    int32_t pool_used;       /* pool slots ever handed out */
    int32_t free_head;
    int64_t next_packet_id;
    int64_t last_move;       /* last cycle a flit moved */
    int64_t ejected;         /* flits that reached their hosts */
    int64_t moves_seen;      /* flit_hops + ejected at the last move */
    int64_t net_flits;       /* flits in rings (buffers and links) */
    int64_t queued_flits;    /* flits waiting in source queues */
    int64_t credit_waits;    /* input VCs waiting for a credit out of the
                              * ready set (FlSim.wait_list) */
    int64_t owed_packets;    /* made by sources that defer, not stored yet
                              * (see traffic-internal.h) */
    int64_t cq_head, cq_count; /* this lane's credit queue (see Lanes) */
    int32_t route_used;      /* route chunks ever handed out, and chunk 0 */
    int32_t route_free;      /* free route chunks, chained through their
                              * last words; 0 ends the chain */
    /* Of the cycle being simulated, set by fl__sim_nodes_tick(): */
    int64_t occ_weight;      /* what a flit entering a ring adds to its
                              * occupancy integral (fl__sim_occ_push) */
    int64_t credit_due;      /* when a credit queued now arrives */
    /* Measurement. */
    int64_t flit_hops;
    int64_t queued_at_open, queued_at_close;
    int64_t offered_flits;
    int64_t measured_outstanding;
    int64_t measured_done;
    int64_t lat_sum, net_sum, hops_sum;
    /* Since cycle 0, whatever the window (see FlSimCounters). */
    int64_t created_packets, created_flits;
    int64_t delivered_packets, delivered_lat_sum;
    int64_t hist_len;        /* latencies seen so far < hist_len */
    int window_closed;
    int in_window;           /* the window is open: stats_open ran, close not */
    int counting;            /* 1 until the window closes: flits accepted and
                              * offered are counted (the warm-up's until
                              * stats_open clears them) */
} SimScalars;

struct FlSim {
    const FlTopology *t;
    FlSimConfig cfg;
    FlTraffic *traffic;
    int V, K;                /* VCs per channel, routing classes */
    int n_chan, n_vc, n_nodes, n_hosts;
    int max_in;              /* most input channels of one node */
    int64_t n_slots;         /* ring slots in all */
    int64_t cq_cap;          /* this lane's credit queue slots: the slots
                              * its input VCs credit, up to a power of two */
    int64_t quiet_span;      /* the watchdog's: no move for longer than this
                              * is a deadlock if a wait-for cycle shows it */
    int send_delay;          /* switch: sw_alloc + xbar + link latency */
    int inject_delay;        /* host: xbar + link latency */
    int max_len;             /* longest packet the traffic makes */
    int queue_keep;          /* packets the traffic makes that a source
                              * queue stores (see Hosts) */
    int wheel_len;           /* lists in the wake-up wheel, a power of two */
    int wheel_wraps;         /* a VC may wait longer than wheel_len cycles:
                              * a list holds VCs of several turns */
    int plain;               /* the common pipeline: no routing, VC
                              * allocation or credit delay, one cycle per
                              * flit, wormhole switching, a VC released
                              * when its tail is sent, and nodes of 1 to 64
                              * input VCs (node n's are mask word n); the
                              * node visits are compiled for it apart
                              * (sim-router.c) */
    int host_due_mask;       /* host_due's bitmaps - 1 */
    uint64_t host_stay;      /* ~0 when a host stays active while its
                              * ejection VCs hold flits (their wake-ups
                              * would span too many bitmaps), else 0 */
    uint64_t *host_wake;     /* where this cycle's flits into ejection VCs
                              * wake their hosts: lane 0's the bitmap of
                              * host_due of their arrival, each other
                              * lane's its own, gathered into it */
    int multi_cycle_links;   /* link_cycles_per_flit > 1: a channel may be
                              * busy when a flit wants it (with 1 it never
                              * is: a channel takes one flit per cycle, and
                              * switch allocation grants it once a cycle) */

    /* Topology-derived, fixed. Input channels of node n, in port order:
     * in_chan[in_off[n] .. in_off[n + 1]). */
    int *in_off, *in_chan;
    int *chan_dst;
    uint8_t *chan_sink;      /* ejection channel */
    uint8_t *chan_s2s;       /* switch-to-switch channel */
    int *chan_cap;           /* flits each VC of the channel holds: its
                              * credits, or for an ejection VC the flits
                              * that can be on their way */
    int *node_host;          /* host rank of a node, -1 for switches */
    int *host_node, *host_inj, *host_ej, *host_switch;
    int *class_lo;           /* K + 1 VC bounds */
    int class0_vcs;          /* class_lo[1]: the VCs of class 0, which
                              * routes from the route table take */
    int keep_routes;         /* packets' routes are kept (see
                              * fl_sim_keep_routes()); without, a head's
                              * code carries its hops where it would carry
                              * its route's end, and a delivered packet's
                              * record keeps them in route */
    /* VC numbering: the VCs of node n's inputs, in local order (input li,
     * VC v is local li * V + v), are VCs in_off[n] * V + local, so a
     * node's VCs need no lookup table; chan_vc[c] is VC 0 of channel c
     * (in_off[n] + li) * V. A node's local VCs are bits of mask words
     * mask_base[n] .. mask_base[n + 1] (ready_mask, out_mask, sink_mask), so
     * VC allocation visits only the ready VCs without an output VC and
     * switch allocation only those with one. */
    int32_t *chan_vc;
    int32_t *vc_chan;        /* per VC: its channel */
    int *mask_base;
    SimNodeAt *node_at;      /* per node */
    int *vc_class;           /* class of each VC index 0..V-1 */
    int64_t win_end;         /* warmup + measure: the window's end */

    /* Routes by destination, or NULL: for a routing whose routes depend on
     * the switch and the destination only, and networks of at most
     * SIM_ROUTE_TABLE_MAX switches of at most 254 ports, route_table[
     * switch_rank[sw] * n_switches + switch_rank[dest]] is 1 + the input
     * index at sw of the port the route leaves by (class 0), filled when
     * first asked (0 until then: a page of the table costs memory only once
     * a route in it is used). Routing a head is then a load rather than a
     * call into the routing, and a byte keeps a 16x16 mesh's table in 64
     * KiB. */
    uint8_t *route_table;
    int32_t *switch_rank;
    int n_switches;

    /* Scratch of one switch's allocation, all -1 between uses. */
    int *vc_win;             /* per VC: the winning local input VC */
    int *sa_win;             /* per output port: the winning local input
                              * (nodes of over 64 ports only); this lane's,
                              * as the three below */
    int *sa_vc;              /* per local input: the VC it offers */
    int *sa_offer;           /* the VCs offered, in input order */
    int *req_list;           /* requested VCs or channels */

    /* Lanes (see Lanes). */
    int n_lanes;
    int lane;                /* this record's lane */
    int lane_w_lo, lane_w_hi; /* its words of the switches' active set */
    SimPush *push;           /* flits its nodes sent into VCs of other lanes
                              * this cycle (at most one per channel) */
    int n_push;
    FlSim *master;           /* lane 0's record: the simulation */
    FlSim *lane_sims;        /* the records of lanes 1 .. n_lanes - 1 */
    uint8_t *node_lane;      /* per node: its lane (a host's: its switch's) */
    int64_t cq_all;          /* credit queue slots of every lane */
    SimCrew *crew;           /* threads for lanes 1 ..: NULL until the first
                              * cycle with several lanes needs them */
    int crew_failed;         /* they could not start: lanes run one by one */

    /* Mutable state: one block, carved into the arrays below. */
    void *state;
    size_t state_bytes;
    SimVc *vc;                         /* per VC */
    SimOutVc *outvc;                   /* per VC */
    SimSlot *slot;                     /* ring slots */
    int64_t *chan_free;                /* per channel: the cycle it can take
                                        * the next flit */
    int32_t *credits;                  /* per VC: credits held by its sender,
                                        * apart from the records so that
                                        * switch allocation and returning
                                        * credits read a small array */
    uint32_t *lost;                    /* per VC: the low 32 bits of 1 + the
                                        * last cycle it lost a VC or switch
                                        * arbitration, for the flit view */
    SimPort *port;                     /* per node port, at in_off[node] */
    uint64_t *sink_mask;               /* per host: its ejection VCs holding
                                        * flits (one word: a host has one
                                        * input, and V <= 64) */
    uint64_t *out_mask;                /* per node: input VCs holding an output */
    uint64_t *ready_mask;              /* per switch: input VCs whose front
                                        * flit may take its next step now
                                        * (see Readiness) */
    int32_t *wait_list;                /* the output VCs whose holders wait
                                        * for a credit out of the ready set
                                        * (sc.credit_waits of them; plain
                                        * pipeline, one lane, see
                                        * Readiness) */
    int32_t *wait_pos;                 /* per VC: 1 + its place in
                                        * wait_list, or 0 */
    uint64_t *parked;                  /* per VC, of which each channel's
                                        * VC 0 is used: the input VCs of the
                                        * channel's sender (bits of its one
                                        * mask word) whose heads found every
                                        * VC of it they may take taken
                                        * (plain pipeline only, see
                                        * Readiness) */
    int32_t *wheel;                    /* the wake-up wheel: wheel_len lists
                                        * of VCs (VC + 1, 0 ends a list);
                                        * this lane's, the next lanes'
                                        * following it */
    int32_t *wake_next;                /* per VC: the next in its wheel list */
    int32_t *route_memo;               /* per input VC: the only route of the
                                        * head waiting at its front for an
                                        * output VC, once asked: 1 + channel
                                        * * 32 + class + 1; 0 none (a head
                                        * blocked at saturation asks every
                                        * cycle) */
    uint64_t *active[2];               /* the active sets, per SIM_SWITCHES
                                        * and SIM_HOSTS: bit n % 64 of word
                                        * n / 64 for node n */
    uint64_t *host_blocked;            /* hosts waiting for a credit on the
                                        * injection VC they hold (see
                                        * Hosts), apart from the active set */
    uint64_t *host_due;                /* hosts woken by flits on their way
                                        * (see Hosts): host_due_mask + 1
                                        * node bitmaps, that of cycle t at
                                        * (t & host_due_mask) * words */
    int32_t *q_head, *q_tail;          /* per host: source queue */
    int32_t *stored;                   /* per host: packets in it */
    int32_t *host_vc, *host_rr;        /* per host: injection VC */
    SimCredit *cq;                     /* credit queue (a ring): this
                                        * lane's, the next lanes' following
                                        * it */
    int64_t *cq_pos;                   /* per lane from 1: its queue's head
                                        * and count between cycles (lane 0's
                                        * are in sc) */
    /* Measurement state. */
    int64_t *host_accepted;            /* flits received in the window */
    int64_t *chan_flits_open;          /* per channel: flits entered before
                                        * the window opened */
    int64_t *chan_flits_close;         /* and before it closed (see
                                        * SimVc.flits) */

    SimScalars sc;

    SimPacket *pool;
    int32_t pool_cap;
    int32_t *route;          /* route chunks (SIM_ROUTE_CHUNK), sc.route_used of
                              * them handed out */
    int32_t route_cap;       /* chunks */
    /* Which pool slot holds packet id: index[id & index_mask], written when
     * the packet is made; it is the packet's if that slot's id is id (a
     * delivered packet's is -1). The table doubles when a packet alive would
     * lose its entry to a newer one, so it spans the ids alive. Derived from
     * the pool: a checkpoint leaves it and a restore rebuilds it. */
    int32_t *index;
    int64_t index_mask;
    int64_t *lat_hist, *net_hist;
    int64_t hist_cap;

    /* Hooks (not part of the state: a checkpoint leaves them). */
    unsigned hook_mask;
    int64_t hook_every;
    FlSimHookFunc hook;
    void *hook_data;
    int in_hook;             /* a hook is running: no stepping */
    FlSimHookInfo *delivered; /* this cycle's deliveries, for the hook */
    int n_delivered, delivered_cap;
    int nomem;               /* a cycle ran out of memory */
};

/* sim-router.c: one cycle of every active node; the nodes left with
 * neither flits nor queued packets leave the active sets. */
void fl__sim_nodes_tick(FlSim *s);
/* One cycle of the switches of the lane whose record is ls, after the
 * hosts' (see Lanes). */
void fl__sim_lane_tick(FlSim *ls);

/* sim-lanes.c: the lanes and the threads that run them (see Lanes).
 * Splits the switches into lanes (at most cfg.threads), makes the records
 * of lanes 1 .., and sizes every lane's credit queue (cq_all) and
 * scratch; FL_ENOMEM. */
int fl__sim_lanes_plan(FlSim *s);
/* Points each lane at its share of the state block, once laid out. */
void fl__sim_lanes_attach(FlSim *s);
/* The credit queue of lane l: its slots, length - 1, and where its head
 * and count are kept. */
void fl__sim_lane_queue(FlSim *s, int l, SimCredit **cq, int64_t *mask, int64_t **head,
                        int64_t **count);
/* The record of lane l. */
static inline FlSim *fl__sim_lane(FlSim *s, int l)
{
    return l == 0 ? s : &s->lane_sims[l - 1];
}
/* Runs fl__sim_lane_tick() for every lane, lanes 1 .. on threads of their
 * own if they can be started, and returns when all are done, each lane's
 * record refreshed before and its counts gathered after. */
void fl__sim_lanes_run(FlSim *s);
/* While lanes run at once, route chunks are handed out one at a time. */
void fl__sim_lanes_lock(FlSim *s);
void fl__sim_lanes_unlock(FlSim *s);
void fl__sim_lanes_free(FlSim *s);
/* The legal next hops of the head at the front of input VC iv of switch
 * sw: the routing's choices, or the destination host's ejection channel
 * (class -1: any VC) at the last switch. Also used by the watchdog and the
 * flit view. */
int fl__sim_route_choices(const FlSim *s, int sw, int iv, FlRouteChoice *out, int max);
/* The choice request_output_vc() would take among n (for random selection,
 * a draw from a copy of the generator), and whether output VC ov may take
 * the head of a packet of len flits. For the flit view. */
int fl__sim_pick_choice(const FlSim *s, const FlRouteChoice *choices, int n);
int fl__sim_output_vc_open(const FlSim *s, int ov, int len);
/* Whether input VC v waits out of the ready set for an output VC or a
 * credit (plain pipeline, see Readiness), as if it were in it. */
int fl__sim_vc_set_aside(const FlSim *s, int v);
/* Puts node n in active set k (SIM_SWITCHES or SIM_HOSTS). */
static inline void fl__sim_activate(FlSim *s, int k, int n)
{
    s->active[k][n >> 6] |= (uint64_t)1 << (n & 63);
}

/* Input VC q of a switch becomes ready, and its switch active (see
 * Readiness). */
static inline void fl__sim_ready(FlSim *s, const SimVc *q)
{
    s->ready_mask[q->mask_pos >> 6] |= (uint64_t)1 << (q->mask_pos & 63);
    fl__sim_activate(s, SIM_SWITCHES, q->node);
}

/* sim-checkpoint.c, for the packet views: the packet at the front of input
 * VC q (see there), and why the flit at the front of input VC iv, or the
 * next flit of packet p at the front of host h's queue, does not move. */
int32_t fl__sim_front_packet(const FlSim *s, const SimVc *q);
FlStall fl__sim_front_stall(const FlSim *s, int iv);
FlStall fl__sim_host_stall(const FlSim *s, int h, const SimPacket *p);
/* The choices of the head at the front of input VC iv (at switch sw) that
 * its VC request may take now: ch[*first .. *last] of the n returned (one,
 * the selection's, unless selection is random). */
int fl__sim_head_choices(const FlSim *s, int sw, int iv, FlRouteChoice *ch, int *first,
                         int *last);

/* The VCs [*lo, *hi) of a channel that class k may take (k -1: any). */
static inline void fl__sim_class_vcs(const FlSim *s, int k, int *lo, int *hi)
{
    *lo = k < 0 ? 0 : s->class_lo[k];
    *hi = k < 0 ? s->V : s->class_lo[k + 1];
}

/* sim-packets.c: the packet index and the route chunks. Allocates both for
 * a new simulation, and frees them. */
int fl__sim_packets_alloc(FlSim *s);
void fl__sim_packets_free(FlSim *s);
/* A fresh index of the live packets of pool (its first used slots), long
 * enough that none shares an entry, replacing *index and *mask (the index
 * grows so, and a restore builds the checkpoint's); FL_ENOMEM leaves both
 * as they were. */
int fl__sim_index_build(const SimPacket *pool, int32_t used, int32_t **index, int64_t *mask);
/* Enters pool slot pkt (its id set) in the index; FL_ENOMEM when the index
 * had to grow and could not. Inline: every packet made is entered. */
static inline int fl__sim_index_add(FlSim *s, int32_t pkt)
{
    int64_t mask = s->index_mask, h = s->pool[pkt].id & mask;
    int32_t had = s->index[h];
    /* A packet alive with the same low bits keeps its entry: a table twice
     * as long (or more) separates them. */
    if (had >= 0 && had != pkt && s->pool[had].id >= 0 && (s->pool[had].id & mask) == h)
        return fl__sim_index_build(s->pool, s->sc.pool_used, &s->index, &s->index_mask);
    s->index[h] = pkt;
    return FL_OK;
}
/* Makes room for n route chunks; FL_ENOMEM leaves the store as it was. */
int fl__sim_route_reserve(FlSim *s, int32_t n);
/* A fresh chunk chained after chunk prev, taken from the end of the store
 * (which grows), or 0 with nomem set when out of memory: for when no
 * chunk is free, a few times a run. */
__attribute__((cold)) int32_t fl__sim_route_chunk_new(FlSim *s, int32_t prev);
/* A fresh chunk chained after chunk prev: a free one (inline: every
 * packet takes one as it leaves its host) or a new one. 0 with nomem set
 * when out of memory. */
static inline int32_t fl__sim_route_chunk(FlSim *s, int32_t prev)
{
    int32_t c = s->sc.route_free;
    if (__builtin_expect(c <= 0, 0))
        return fl__sim_route_chunk_new(s, prev);
    int32_t *link = &s->route[c * SIM_ROUTE_CHUNK + SIM_ROUTE_LINK];
    s->sc.route_free = *link;
    *link = prev;
    return c;
}
/* Where a new route's entry 0 goes: the first word of a fresh chunk. */
static inline int32_t fl__sim_route_start(FlSim *s)
{
    return fl__sim_route_chunk(s, 0) * SIM_ROUTE_CHUNK;
}
/* The word after at, the last of a chunk's entries: the first of a fresh
 * chunk chained after it (on failure, at again, with nomem set). */
int32_t fl__sim_route_extend(FlSim *s, int32_t at);
/* Packet pkt's tail reached its host: its route chunks are freed and its
 * id becomes -1, so the index no longer finds it. Inline: every packet
 * delivered is finished. */
static inline void fl__sim_packet_done(FlSim *s, int32_t pkt)
{
    SimPacket *p = &s->pool[pkt];
    p->id = -1;
    /* A run without routes took no chunks. */
    if (!s->keep_routes)
        return;
    /* The free chain's head in a local: the links are int32_t stores the
     * compiler would otherwise assume change it. A delivered packet's route
     * is past chunk 0, so its position divides as an unsigned. */
    int32_t *route = s->route, free_head = s->sc.route_free;
    for (int32_t c = (int32_t)((uint32_t)p->route / SIM_ROUTE_CHUNK); c > 0;) {
        int32_t *link = &route[c * SIM_ROUTE_CHUNK + SIM_ROUTE_LINK];
        int32_t prev = *link;
        *link = free_head;
        free_head = c;
        c = prev;
    }
    s->sc.route_free = free_head;
}

/* Writes entry at of a route, VC vc, and the end after it. */
static inline void fl__sim_route_put(FlSim *s, int32_t at, int32_t vc)
{
    s->route[at] = vc;
    if (((at + 1) & SIM_ROUTE_LINK) != SIM_ROUTE_LINK)
        s->route[at + 1] = SIM_ROUTE_END;
}

/* Appends VC vc to the route of packet pkt, whose head has left its host
 * and whose last entry is at: the word after it, or, past a chunk's last
 * entry, a new chunk's first, which the packet's record then names (rare:
 * one hop in SIM_ROUTE_LINK). Returns the new entry's position. */
static inline int32_t fl__sim_route_push(FlSim *s, int32_t pkt, int32_t at, int32_t vc)
{
    int32_t next = at + 1;
    if (__builtin_expect((next & SIM_ROUTE_LINK) == SIM_ROUTE_LINK, 0)) {
        next = fl__sim_route_extend(s, at);
        s->pool[pkt].route = next;
    }
    fl__sim_route_put(s, next, vc);
    return next;
}

/* The entries of a route whose last entry is at: those of its last chunk
 * and SIM_ROUTE_LINK for each chunk before. */
static inline int fl__sim_route_entries(const FlSim *s, int32_t at)
{
    int n = (at & SIM_ROUTE_LINK) + 1;
    for (int32_t c = s->route[(at | SIM_ROUTE_LINK)]; c > 0;
         c = s->route[c * SIM_ROUTE_CHUNK + SIM_ROUTE_LINK])
        n += SIM_ROUTE_LINK;
    return n;
}

/* sim-stats.c */
int fl__sim_stats_alloc(FlSim *s);
void fl__sim_stats_open(FlSim *s);
void fl__sim_stats_close(FlSim *s);
/* FL_MEASURE_BOOKSIM: packet p's turn at the front of its source queue
 * comes at cycle (it may send its head then), which decides whether it is
 * measured, as its creation does under FL_MEASURE_CREATED. */
void fl__sim_stats_turn(FlSim *s, SimPacket *p, int64_t cycle);
/* Fills res with the current figures (see fl_sim_stats). With
 * warmup_figures 0, as fl_sim_run reports, a run that never left its
 * warm-up has none (all zero). */
int fl__sim_stats_fill(const FlSim *s, FlSimResult *res, double wall_s, int warmup_figures,
                       FlError *err);
/* Flits entered channel c (all its VCs) since cycle 0; and the same for
 * channels 0 to n - 1, into out. */
static inline int64_t fl__sim_chan_flit_sum(const FlSim *s, int c)
{
    int64_t flits = 0;
    for (int v = 0; v < s->V; v++)
        flits += s->vc[s->chan_vc[c] + v].flits;
    return flits;
}
void fl__sim_chan_flits(const FlSim *s, int64_t *out, int n);
/* Whether the measurement window has opened (the warm-up is over). */
static inline int fl__sim_window_opened(const FlSim *s)
{
    return s->sc.in_window || s->sc.window_closed;
}

/* Counts measured packet p, delivered now with latency lat, whose
 * histogram bucket exists. */
static inline void fl__sim_stats_count(FlSim *s, const SimPacket *p, int64_t lat)
{
    SimScalars *sc = &s->sc;
    int64_t net = sc->cycle - p->injected;
    s->lat_hist[lat]++;
    s->net_hist[net]++;
    if (lat >= sc->hist_len)
        sc->hist_len = lat + 1;
    sc->lat_sum += lat;
    sc->net_sum += net;
    sc->hops_sum += s->keep_routes ? fl__sim_route_entries(s, p->route) - 1 : p->route;
    sc->measured_done++;
    sc->measured_outstanding -= p->measured == 1;
}

/* The same after growing the histograms for lat; FL_ENOMEM if they could
 * not grow (the packet is then not counted). Out of line and cold: they
 * grow a few times a run. */
__attribute__((cold)) int fl__sim_stats_grow_and_count(FlSim *s, const SimPacket *p,
                                                   int64_t lat);

/* A packet's tail reached its host. Returns FL_ENOMEM if a histogram could
 * not grow (the packet is then not counted). Inline: every packet
 * delivered is counted, and a call would cost a third of the count. */
static inline int fl__sim_stats_packet_done(FlSim *s, const SimPacket *p)
{
    SimScalars *sc = &s->sc;
    int64_t lat = sc->cycle - p->created;
    sc->delivered_packets++;
    sc->delivered_lat_sum += lat;
    /* A warm-up packet counts only while the warm-up's figures last. */
    if (!p->measured || (p->measured == 2 && fl__sim_window_opened(s)))
        return FL_OK;
    if (__builtin_expect(lat >= s->hist_cap, 0))
        return fl__sim_stats_grow_and_count(s, p, lat);
    fl__sim_stats_count(s, p, lat);
    return FL_OK;
}

/* sim-checkpoint.c: a checkpoint that shares the pages of prev (may be
 * NULL) whose bytes have not changed; checkpoints that share count their
 * bytes in one place, *shared_bytes (pages once; NULL shares nothing and
 * counts nowhere), and prev shares only when it counts there too. Returns
 * FL_ENOMEM. */
int fl__sim_checkpoint_after(const FlSim *s, const FlSimCheckpoint *prev, size_t *shared_bytes,
                             FlSimCheckpoint **out);

/* sim-watchdog.c: a cycle of channels whose packets wait on each other, in
 * *channels (malloc'd), or FL_ENOTFOUND. */
int fl__sim_deadlock_cycle(const FlSim *s, int **channels, int *len);

/* sim.c: the window boundaries. */
static inline int fl__sim_in_window(const FlSim *s, int64_t cycle)
{
    return cycle >= s->cfg.warmup_cycles && cycle < s->win_end;
}

/* Occupancy. The integral of a VC's ring count over the window is kept as
 * the sum, over flits, of the window cycles each spends in the ring: a flit
 * pushed at cycle t inside the window adds win_end - t, one popped at t
 * takes win_end - t back, and the flits present when the window opens add
 * the whole window (fl__sim_stats_open). This is exact integer arithmetic,
 * needs no per-VC clock, and while the window is still open the flits
 * present have been credited up to win_end, which fl__sim_stats_fill takes
 * off again. The warm-up keeps its own integral the same way, up to
 * warmup_cycles, which fl__sim_stats_open replaces by the window's. Call
 * these when a flit enters or leaves the ring. */
static inline int64_t fl__sim_occ_weight(const FlSim *s)
{
    if (s->sc.in_window)
        return s->win_end - s->sc.cycle;
    /* In the warm-up, the same up to the warm-up's end. */
    return s->sc.counting ? s->cfg.warmup_cycles - s->sc.cycle : 0;
}

/* Where a flit's occupancy integral is credited up to: the end of the
 * warm-up or of the window, whichever is running (0 when neither). */
static inline int64_t fl__sim_occ_end(const FlSim *s)
{
    if (s->sc.in_window)
        return s->win_end;
    return s->sc.counting ? s->cfg.warmup_cycles : 0;
}

/* Within a cycle the weight is the same for every flit: the hot paths
 * read it from sc.occ_weight and need not branch on the window. */
static inline void fl__sim_occ_push(FlSim *s, SimVc *q)
{
    q->occ += s->sc.occ_weight;
}

static inline void fl__sim_occ_pop(FlSim *s, SimVc *q)
{
    q->occ -= s->sc.occ_weight;
}

#endif /* FLITLAB_SIM_INTERNAL_H */
