/* flitlab/sim.h — Flit-level simulation.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_SIM_H
#define FLITLAB_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/routing.h"
#include "flitlab/traffic.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A cycle-driven model of input-queued switches with V virtual channels per
 * port, credit-based flow control, separable round-robin VC and switch
 * allocation, and configurable pipeline delays; channels with a latency and
 * a bandwidth (link_cycles_per_flit); hosts with unbounded source queues.
 * Wormhole or virtual cut-through switching. The same configuration and
 * seed give bit-identical results.
 */

typedef enum FlSwitching {
    FL_SWITCHING_WORMHOLE = 0,
    FL_SWITCHING_VCT            /* a head advances only into room for the
                                 * whole packet */
} FlSwitching;

typedef enum FlVcRelease {
    FL_VC_RELEASE_TAIL_SENT = 0,   /* realloc once the tail has left (BookSim's
                                    * default) */
    FL_VC_RELEASE_TAIL_CREDIT      /* only when the tail's credit returns */
} FlVcRelease;

/* Which packets a run measures, and how its measurement ends. */
typedef enum FlMeasureRule {
    FL_MEASURE_CREATED = 0,   /* those made in the window; a run found
                               * saturated when it closes is not drained */
    FL_MEASURE_BOOKSIM        /* BookSim 2's sim_type=throughput: those whose
                               * turn at the front of their source queue
                               * comes in the window; when it closes the
                               * sources stop (dropping the packets whose
                               * turn has not come) and the run drains every
                               * measured packet, saturated or not */
} FlMeasureRule;

typedef enum FlSimStatus {
    FL_SIM_OK = 0,
    FL_SIM_DEADLOCK,       /* flits in the network, none moved for a while */
    FL_SIM_SATURATED,      /* source queues grow without bound */
    FL_SIM_RUNNING
} FlSimStatus;

const char *fl_sim_status_name(FlSimStatus s);   /* "ok", "deadlock", ... */

/* The figures of a result that front ends report, plot and store as
 * scalars, in the order `flitlab sim --json` prints them: their names (the
 * JSON keys), titles and units for axis labels and column headers. Each
 * belongs to the results of one model or both (cycles, wall_s): the flit-
 * level simulator's (FlSimResult, fl_sim_result_value()) or paper 003's
 * deflection model's (FlDeflectResult, fl_deflect_result_value()); a name
 * may mean a different figure in each (throughput). */
typedef struct FlSimResultKey {
    const char *name;     /* "latency_avg" */
    const char *title;    /* "Mean packet latency" */
    const char *unit;     /* "cycles", "flits/cycle/host"; "" for a fraction or a count */
    int integer;          /* a count, written without a fraction */
    int per_channel;      /* derived from the channels' figures and the topology */
    unsigned models;      /* FL_OPTION_FOR_FLIT, FL_OPTION_FOR_DEFLECTION */
} FlSimResultKey;

int fl_sim_result_key_count(void);
const FlSimResultKey *fl_sim_result_key(int index);   /* NULL out of range */
/* The first key called name among those of a model in models (a mask of
 * FL_OPTION_FOR_*); -1 when there is none. */
int fl_sim_result_key_find_for(const char *name, unsigned models);
/* The same among the flit-level simulator's keys. */
int fl_sim_result_key_find(const char *name);

/* The most cycles warm-up, measurement, drain or the watchdog may each
 * last (2^50, a month of simulated time on a small network at 20 M
 * cycles/s): their sums then stay far inside int64_t. */
#define FL_SIM_MAX_CYCLES ((int64_t)1 << 50)

typedef struct FlSimConfig {
    const FlRouting *routing;      /* required; built on the same topology */
    FlSelection selection;         /* FL_SELECT_CREDITS for adaptive routings */
    FlTrafficConfig traffic;
    int vcs;                       /* VCs per port, >= routing's classes */
    int buf_flits;                 /* per-VC buffer depth */
    FlSwitching switching;
    FlVcRelease vc_release;
    /* Pipeline, in cycles. The default (all 0, link_latency 1) costs one
     * cycle per hop; fl_sim_config_pipeline() sets named presets. */
    int routing_delay, vc_alloc_delay, sw_alloc_delay, xbar_delay, credit_delay;
    int link_latency;              /* cycles a flit spends on a channel */
    int link_cycles_per_flit;      /* a flit occupies a channel this long */
    int64_t warmup_cycles;         /* statistics cleared after these */
    int64_t measure_cycles;        /* packets made in this window are measured
                                    * (see measure_rule) */
    int64_t drain_cycles;          /* at most this long to deliver them */
    FlMeasureRule measure_rule;    /* FL_MEASURE_CREATED */
    int64_t deadlock_cycles;       /* watchdog: no flit moved for this long
                                    * (and none can be on a link), and
                                    * the waiting packets form a cycle */
    uint64_t seed;
    int threads;                   /* threads visiting the switches of one
                                    * run, 1 to FL_SIM_MAX_THREADS: results
                                    * do not depend on it (1) */
} FlSimConfig;

/* The most threads one run's switches are shared among. */
#define FL_SIM_MAX_THREADS 64

/* Defaults: 2 VCs of 8 flits, wormhole, tail-sent release,
 * one cycle per hop, 1000 warm-up, 10000 measured, 100000 drain cycles,
 * watchdog 10000 cycles, seed 1, uniform 1-flit traffic at rate 0.1. */
void fl_sim_config_init(FlSimConfig *cfg);
/* Named pipelines: "default" (1 cycle per hop) and "booksim-min" (BookSim 2's
 * minimal router: 3 cycles per hop, see ../shared/reference). */
int fl_sim_config_pipeline(FlSimConfig *cfg, const char *name, FlError *err);

typedef struct FlSimResult {
    FlSimStatus status;
    double latency_avg, latency_p50, latency_p95, latency_p99;  /* from creation */
    double network_latency_avg, network_latency_p50, network_latency_p99; /* from head injection */
    double throughput;             /* accepted flits/cycle/host, mean over hosts */
    double throughput_min;         /* the worst host */
    double offered;                /* flits/cycle/host made in the window */
    double hops_avg;
    int64_t packets;               /* measured packets delivered */
    int64_t cycles;                /* simulated */
    int64_t flit_hops;             /* channel traversals simulated */
    double wall_s;
    /* Per switch-to-switch channel: busy fraction; per (channel, vc): mean
     * occupied buffer slots. malloc'd, channel_count() and
     * channel_count() * vcs long. */
    double *channel_utilization;
    double *vc_occupancy;
    /* On deadlock: a cycle of channels whose packets wait on each other. */
    int *deadlock_channels;
    int deadlock_len;
    /* The window the figures cover: [window_start, window_start +
     * window_cycles), see fl_sim_stats(). */
    int64_t window_start, window_cycles;
} FlSimResult;

void fl_sim_result_clear(FlSimResult *res);

/* Result key index of res (fl_sim_result_key()); the per-channel keys
 * need the topology it ran on (the busiest and the mean switch-to-switch
 * channel). NaN for a figure the run has none of (no packet measured) and
 * for a key of the deflection model only. */
double fl_sim_result_value(const FlSimResult *res, const FlTopology *t, int index);

typedef struct FlSim FlSim;
/* Refuses impossible parameters (zero VCs, fewer VCs than the routing's
 * classes, a buffer smaller than a packet under VCT, a rate above 1) with a
 * message naming the parameter. */
int fl_sim_new(const FlTopology *t, const FlSimConfig *cfg, FlSim **out, FlError *err);
void fl_sim_free(FlSim *sim);

/* Advances up to n >= 0 cycles. Stops early when the watchdog finds a
 * deadlock or a hook asks to stop (after the cycle in which it did); the
 * simulation's status after the call goes to *status (may be NULL).
 * Returns FL_OK, or FL_EINVAL (no simulation, n < 0, called from a hook)
 * or FL_ENOMEM; after FL_ENOMEM the state is not consistent: restore a
 * checkpoint or free the simulation. Stepping never judges saturation,
 * which needs the whole run: the status stays FL_SIM_RUNNING until a
 * deadlock. */
int fl_sim_step(FlSim *sim, int64_t n, FlSimStatus *status, FlError *err);
/* The cycle about to be simulated: the number of cycles simulated so far. */
int64_t fl_sim_cycle(const FlSim *sim);
/* FL_SIM_RUNNING until fl_sim_run ends or the watchdog fires. */
FlSimStatus fl_sim_status(const FlSim *sim);
/* The configuration it was made with (its strings and arrays are the
 * caller's, as given to fl_sim_new). */
const FlSimConfig *fl_sim_config(const FlSim *sim);
/* Runs warm-up, measurement and drain from wherever the simulation stands
 * (cycle 0, or a stepped cycle) and fills res. progress may be NULL;
 * cancelling, or a hook asking to stop, returns FL_ECANCELLED. */
int fl_sim_run(FlSim *sim, FlSimResult *res, FlProgressFunc progress, void *progress_data,
               FlError *err);

/* Statistics at any point of a run, over the same window as fl_sim_run's:
 *   - in the warm-up (cycle < warmup_cycles), from cycle 0 to now: every
 *     packet made since cycle 0 and delivered so far, flits accepted,
 *     offered, channel utilization and VC occupancy over [0, cycle);
 *   - from the warm-up's end, over the measurement window [warmup, warmup +
 *     measure) as far as it has been simulated: packets made in it (under
 *     FL_MEASURE_BOOKSIM, whose turn came in it) and delivered so far,
 *     flits accepted and sent during it; after it, the whole window, with
 *     the latencies of its packets delivered since (during the drain).
 * res->window_start and window_cycles give the window. Stepping a whole
 * run by hand (as many cycles as fl_sim_run took) gives exactly
 * fl_sim_run's figures, apart from status (FL_SIM_RUNNING unless
 * deadlocked) and wall_s (0). Includes the deadlock cycle when the status
 * is FL_SIM_DEADLOCK. Free res with fl_sim_result_clear(). */
int fl_sim_stats(const FlSim *sim, FlSimResult *res, FlError *err);

/* A cycle of channels whose packets wait on each other, in waiting order,
 * into *channels (malloc'd, free() it; NULL and *len 0 when there is
 * none). The wait-for graph is the watchdog's (see sim-internal.h): after
 * FL_SIM_DEADLOCK it is the locked cycle fl_sim_run reports; while
 * running, a cycle of full or held VCs each waiting on the next, which is
 * a deadlock once no flit moves for deadlock_cycles (the watchdog then
 * confirms it); with an adaptive routing a cycle may still untie. */
int fl_sim_deadlock_cycle(const FlSim *sim, int **channels, int *len, FlError *err);

/* Queues one packet of flits flits at host src_host for dst_host, made in
 * the current cycle (fl_sim_cycle()), after any packet already queued at
 * src_host; it is measured like generated traffic (offered and measured
 * when made in the window). Its id goes to *packet_id (may be NULL): ids
 * are the creation order, shared with generated packets. Call it between
 * steps or from a hook. */
int fl_sim_inject(FlSim *sim, int src_host, int dst_host, int flits, int64_t *packet_id,
                  FlError *err);

/* A copy of the whole state, to step backwards and seek by replaying. Hooks
 * are not part of it: a restored simulation keeps the hooks it has, and
 * stepping on calls them as the first time. */
typedef struct FlSimCheckpoint FlSimCheckpoint;
int fl_sim_checkpoint(const FlSim *sim, FlSimCheckpoint **out, FlError *err);
/* Fails with FL_EINVAL for a checkpoint of another simulation, and when
 * called from a hook; with FL_ENOMEM the simulation is left as it was, or
 * (when memory ran out rebuilding its packet index) must be restored again
 * or freed. */
int fl_sim_restore(FlSim *sim, const FlSimCheckpoint *cp, FlError *err);
void fl_sim_checkpoint_free(FlSimCheckpoint *cp);
/* The cycle it was taken at, and the bytes it holds (the copy itself, for
 * a memory bound on kept checkpoints). */
int64_t fl_sim_checkpoint_cycle(const FlSimCheckpoint *cp);
size_t fl_sim_checkpoint_size(const FlSimCheckpoint *cp);

/* Hooks, as Lua's lua_sethook: one callback and a mask of events.
 *
 * FL_SIM_HOOK_DELIVERED: a packet's tail reached its destination host;
 * info holds the packet. FL_SIM_HOOK_EVERY: every every_n cycles, when
 * fl_sim_cycle() becomes a multiple of every_n (after cycles every_n - 1,
 * 2 * every_n - 1, ...). Hooks run between cycles, after the cycle that
 * caused them, deliveries first in the order they happened, so that
 * fl_sim_cycle() is the cycle after it (delivered + 1) and the state is
 * whole. Returning non-zero asks the run to stop: fl_sim_step returns
 * after that cycle (every hook of the cycle is still called), fl_sim_run
 * with FL_ECANCELLED.
 *
 * Re-entrancy: a hook may read the simulation (fl_sim_cycle,
 * fl_sim_status, fl_sim_stats, fl_sim_deadlock_cycle, the views, a
 * checkpoint), inject packets (fl_sim_inject) and change or clear the hook
 * (taking effect with the next event); fl_sim_step, fl_sim_run and
 * fl_sim_restore fail with FL_EINVAL inside a hook, and it must not free
 * the simulation. Hooks run on the thread that steps. */
typedef enum FlSimHookEvent {
    FL_SIM_HOOK_DELIVERED = 1 << 0,
    FL_SIM_HOOK_EVERY = 1 << 1
} FlSimHookEvent;

typedef struct FlSimHookInfo {
    FlSimHookEvent event;
    int64_t cycle;              /* fl_sim_cycle() when called */
    /* FL_SIM_HOOK_DELIVERED: the packet. */
    int64_t packet;
    int src_host, dst_host, flits;
    int measured;               /* measured: made in the measurement window
                                 * (FL_MEASURE_BOOKSIM: its turn came in it) */
    int64_t created, injected, delivered; /* made; head left its host; tail
                                           * reached its host */
} FlSimHookInfo;

typedef int (*FlSimHookFunc)(FlSim *sim, const FlSimHookInfo *info, void *user_data);
/* Replaces the hook; mask 0 or hook NULL removes it. every_n must be >= 1
 * when mask has FL_SIM_HOOK_EVERY. */
int fl_sim_set_hook(FlSim *sim, unsigned mask, int64_t every_n, FlSimHookFunc hook,
                    void *user_data, FlError *err);

/* Where one flit is, for drawing. */
typedef enum FlFlitPlace {
    FL_FLIT_SOURCE_QUEUE = 0,   /* waiting at its host */
    FL_FLIT_BUFFER,             /* in the input buffer of channel's destination */
    FL_FLIT_LINK                /* on channel, progress cycles along it */
} FlFlitPlace;

/* Why the flit at the front of a VC (or of a source queue) does not move
 * on, judged from the state between two cycles. Only such a front flit
 * has a reason; the flits behind it wait for it (FL_STALL_NONE). */
typedef enum FlStall {
    FL_STALL_NONE = 0,          /* not a front flit, or nothing holds it: it
                                 * competes in the next cycle */
    FL_STALL_NO_VC,             /* a head with no output VC, and every VC
                                 * its routing allows is held by another
                                 * packet (or, under VCT, has no room for
                                 * the packet) */
    FL_STALL_NO_CREDIT,         /* its output VC's buffer downstream is full */
    FL_STALL_ARBITRATION,       /* it could go, and lost the VC or switch
                                 * arbitration of the cycle just simulated */
    FL_STALL_CHANNEL            /* waiting for the channel: the link is busy
                                 * with another flit (link_cycles_per_flit >
                                 * 1), or a pipeline delay (routing, VC or
                                 * switch allocation) has not passed */
} FlStall;

const char *fl_stall_name(FlStall s);   /* "none", "no-vc", ... */

typedef struct FlFlitView {
    int64_t packet;
    int index, packet_flits;    /* 0 = head */
    int src_host, dst_host;
    FlFlitPlace place;
    int channel;                /* -1 in a source queue; injection channels are
                                 * the host links' channels */
    int vc;
    int position;               /* slot in the buffer (0 = front), or cycles
                                 * travelled on the link */
    int node;                   /* where it is: the node whose buffer holds
                                 * it, the node it left (on a link), or its
                                 * host (in a source queue) */
    /* The output its packet has been granted at node: the channel and VC it
     * will leave by (for a queued packet, the host's injection VC), or -1
     * for both. Only flits of the packet at the front of a buffer (or of a
     * source queue) have one. */
    int out_channel, out_vc;
    FlStall stall;
} FlFlitView;

typedef void (*FlFlitVisitor)(void *user_data, const FlFlitView *flit);
/* Calls visit for every flit in the network (source queues included up to
 * the first max_queued flits per host), VCs in channel order (c * V + v),
 * each from the front, then the source queues in host order. Read-only. */
void fl_sim_foreach_flit(const FlSim *sim, int max_queued, FlFlitVisitor visit,
                         void *user_data);

/* One VC (channel, vc), as an input buffer at the channel's end and as the
 * output VC its sender allocates. */
typedef struct FlVcView {
    int channel, vc;
    int node;                   /* the node its buffer is at */
    int64_t owner_packet;       /* the packet it is allocated to (whose
                                 * tail has not left the sender), or -1 */
    int draining;               /* released by its tail, waiting for the
                                 * credits (FL_VC_RELEASE_TAIL_CREDIT) */
    int flits_buffered;         /* flits arrived in the buffer */
    int flits_on_link;          /* flits sent, still on their way */
    int credits;                /* free slots as the sender sees them, -1 for
                                 * a channel into a host (no credits) */
    int capacity;               /* slots of the buffer (credits when empty) */
    /* As an input VC: the output VC its front packet holds, or -1. */
    int out_channel, out_vc;
    int64_t front_packet;       /* the packet of its front flit (arrived or on
                                 * its way), or -1 when it holds none */
} FlVcView;

/* Fills out for (channel, vc); FL_ERANGE when there is no such VC. */
int fl_sim_vc_view(const FlSim *sim, int channel, int vc, FlVcView *out, FlError *err);
/* VCs per channel, and channels (2 per link, as in the topology). */
int fl_sim_vcs(const FlSim *sim);
int fl_sim_channels(const FlSim *sim);
/* Hosts of its network (the src_host / dst_host ranks). */
int fl_sim_hosts(const FlSim *sim);

/* --- packets ----------------------------------------------------------------
 *
 * One packet by its id (as FlFlitView and FlSimHookInfo give it), for an
 * inspector: where its head is, the route it has taken and what it waits
 * for. Each call costs a scan of the buffers its head and last flits are
 * in, not of the network. The simulator keeps every packet's route from
 * the start (its cost is within the noise of bench-sim), and checkpoints
 * keep the routes. */

/* One packet in the network or queued at its host. */
typedef struct FlPacketView {
    int64_t packet;
    int src_host, dst_host, flits;
    int measured;               /* as FlSimHookInfo */
    int64_t created, injected;  /* injected -1 while its head is queued */
    int hops;                   /* switches its head has crossed */
    int flits_sent;             /* flits that left its host */
    int flits_delivered;        /* flits that reached its destination host */
    /* Where its head is (as FlFlitView: place, channel, vc, node) and why it
     * does not move (FL_STALL_NONE when it is not at the front of its buffer
     * or queue). Once its head has reached the destination host (its body
     * still on the way), head_delivered is 1 and the head is shown in the
     * buffer of the host's ejection channel, at the host. */
    FlFlitPlace head_place;
    int head_channel, head_vc, head_node;
    FlStall stall;
    /* The packet right ahead of its head in the same buffer or source queue,
     * whose tail it waits behind, or -1. */
    int64_t ahead;
    int head_position;          /* as FlFlitView.position; 0 in a source
                                 * queue (see ahead for what is before it) */
    int head_delivered;
    /* The output its head has been granted at head_node (channel and VC;
     * for a queued head, the host's injection VC), or -1 for both. */
    int head_out_channel, head_out_vc;
} FlPacketView;

/* Whether the simulation keeps each packet's route, as it does unless told
 * otherwise: the packet views below need it. A run that asks for none (a
 * batch run, a sweep's point) is faster without, with the same figures.
 * Only before the first cycle: FL_EINVAL after. */
int fl_sim_keep_routes(FlSim *sim, int keep, FlError *err);

/* FL_ENOTFOUND when packet is not in the network any more (delivered) or
 * not made yet; FL_EINVAL in a run that keeps no routes. */
int fl_sim_packet_view(const FlSim *sim, int64_t packet, FlPacketView *out, FlError *err);

/* The channels its head has entered so far, in order (its host's injection
 * channel first, none while its head is queued), as many as fit in max,
 * the count in *len (may exceed max). channels may be NULL when max is 0.
 * FL_ENOTFOUND as fl_sim_packet_view. */
int fl_sim_packet_route(const FlSim *sim, int64_t packet, int *channels, int max, int *len,
                        FlError *err);

/* What its head waits for: the VCs that would let it move and are held
 * (stall no-vc: every VC its routing allows it now, with their owner
 * packets; no-credit: its output VC, whose buffer downstream is full, with
 * its owner (the packet itself) and the front packet of that buffer;
 * channel / arbitration: the VC it competes for: its output VC, or while
 * it has none the free VCs it may request). As many as fit in max, the
 * count in *n. An empty list for a packet that is not blocked (stall
 * none). FL_ENOTFOUND as fl_sim_packet_view. */
int fl_sim_packet_waits(const FlSim *sim, int64_t packet, FlVcView *out, int max, int *n,
                        FlError *err);

/* --- Counters since cycle 0, and the timeline ------------------------------ */

/* Totals since cycle 0, whatever the measurement window: for plots over
 * simulated time (differences between two cycles). */
typedef struct FlSimCounters {
    int64_t cycle;                 /* fl_sim_cycle() */
    int64_t packets_created;       /* made by the traffic or fl_sim_inject */
    int64_t flits_created;         /* their flits: the offered load */
    int64_t flits_injected;        /* flits that left their hosts */
    int64_t flits_ejected;         /* flits that reached their destinations */
    int64_t packets_delivered;     /* packets whose tail reached its host */
    int64_t latency_sum;           /* their latencies (from creation) summed */
    int64_t flit_hops;             /* channel traversals */
    int64_t in_network;            /* flits in buffers and on links */
    int64_t queued;                /* flits waiting in source queues */
    int hosts;                     /* hosts, to turn totals into per-host rates */
} FlSimCounters;

/* FL_EINVAL without a simulation or output. */
int fl_sim_counters(const FlSim *sim, FlSimCounters *out);

/* What a simulation holds in memory. Its buffers, VCs and links take a
 * fixed block (an ejection VC holds at most 1024 flits, however long its
 * link); its packets grow with the packets in the network and the source
 * queues. A source queue stores at most max(64, 262144 / hosts) of the
 * packets its traffic makes (packets given to fl_sim_inject are all
 * stored), so about 16 MiB of packets at most; the rest are counted only,
 * and made again from the source's own random stream (or its trace events)
 * when there is room, so that a run past saturation keeps its memory
 * however long it runs. A run in which no queue fills up makes exactly the
 * packets it would with unbounded queues, and a trace always does; past
 * that, a random source's later packets are drawn from its own stream:
 * the same in distribution, not the same packets. */
typedef struct FlSimMemory {
    size_t state_bytes;            /* buffers, VCs, links, credits */
    size_t packet_bytes;           /* packet records, their index and routes */
    int64_t packets_stored;        /* packets in the network or stored in
                                    * source queues */
    int64_t packets_owed;          /* made but not stored yet */
    int64_t most_stored;           /* the longest source queue, in packets */
} FlSimMemory;

/* FL_EINVAL without a simulation or output. */
int fl_sim_memory(const FlSim *sim, FlSimMemory *out);
/* Flits that entered each channel c (all its VCs) since cycle 0, into out[c]
 * for c < min(n, fl_sim_channels()). */
int fl_sim_channel_flits(const FlSim *sim, int64_t *out, int n, FlError *err);

/* A timeline drives a simulation it is given (and does not own) forwards
 * and backwards: it steps it, takes a checkpoint every checkpoint_interval
 * cycles past the newest one it keeps, and seeks to any cycle by restoring
 * the nearest checkpoint at or before it and simulating forward, so that
 * the state reached is bit for bit the state running forward reaches.
 * Step, seek and restore the simulation only through its timeline
 * (reading it is fine; stepping it past the furthest cycle without the
 * timeline makes the timeline refuse to step or seek), and free the
 * timeline before the simulation.
 *
 * Checkpoint memory. While the checkpoints fit in checkpoint_budget bytes,
 * every one is kept. Past it, old ones are thinned out: the timeline keeps,
 * for a stretch of w cycles (the widest that fits, shrinking as the run
 * grows), every checkpoint of the newest w cycles, every 2nd of the 2w
 * before them, every 4th of the 4w before those, and so on, plus cycle
 * 0's, which is never dropped; if even that does not fit, the oldest
 * after cycle 0 go. So the kept bytes never exceed the budget, or cycle 0's
 * checkpoint alone when that is larger; there are about (w / interval) x
 * log2(cycles / w) of them; and seeking to a cycles before the newest
 * checkpoint re-simulates at most about 2 x interval x (1 + a / w) cycles.
 * A checkpoint is the simulation's state (fl_sim_checkpoint_size): for a
 * 16x16 mesh with 2 VCs of 8 flits about 800 KiB of buffers and records,
 * plus 56 bytes per packet alive (past saturation the source queues, which
 * grow without bound). A timeline's checkpoints share, in 256-byte pages,
 * the bytes that have not changed since the one before, and the budget
 * counts shared pages once: past saturation a new checkpoint costs about
 * an eighth of a full copy. bench-sim-seek: 100,000 cycles of a 16x16
 * mesh at 0.3 flits/cycle/host (past saturation, 20 MiB a full copy at
 * the end) keep 96 checkpoints in 248 MiB of the default 256, 512 cycles
 * apart 10,000 cycles back.
 *
 * Samples. Every sample_interval cycles (1 to 65535 at first), the first
 * time the simulation reaches the end of one, the timeline records an
 * FlSimSample and the flits that entered each channel in it; the run is
 * deterministic, so they stay valid after seeking back. They live within a
 * sample budget (FL_SIM_TIMELINE_DEFAULT_SAMPLE_BUDGET unless set): when a
 * new sample would pass it, adjacent pairs merge into one (exactly: the
 * sample of their joined interval, as fl_sim_sample_between() gives it)
 * and the interval doubles, so the samples stay equally spaced from cycle
 * 0 and span the whole run. The budget is never allowed to leave fewer
 * than FL_SIM_TIMELINE_MIN_SAMPLES samples once there have been as many
 * (room for twice that is always made). Counts per channel are 32-bit:
 * an interval that would pass 2^32 cycles does not double, and samples are
 * added past the budget. Memory: sizeof(FlSimSample) (88 bytes) plus 4
 * bytes per channel per sample, plus 16 bytes per channel once, e.g. 5.8
 * KiB per sample for a 16x16 mesh (1472 channels): 2,803 samples at most
 * in the default 16 MiB. bench-sim-samples: 1,000,000 cycles of that mesh
 * (dor, the window's defaults) keep 2,500 samples 400 cycles apart in 16.0
 * MiB; 300,000 cycles past saturation (0.4), 1,500 samples 200 apart. */
typedef struct FlSimTimeline FlSimTimeline;

/* What the application uses: a checkpoint every 256 cycles, 256 MiB of
 * them, a sample every 100 cycles, 16 MiB of samples. */
#define FL_SIM_TIMELINE_DEFAULT_INTERVAL 256
#define FL_SIM_TIMELINE_DEFAULT_BUDGET ((size_t)256 << 20)
#define FL_SIM_TIMELINE_DEFAULT_SAMPLE 100
#define FL_SIM_TIMELINE_DEFAULT_SAMPLE_BUDGET ((size_t)16 << 20)
#define FL_SIM_TIMELINE_MIN_SAMPLES 128

typedef struct FlSimSample {
    int64_t cycle;                 /* the interval [cycle, cycle + cycles) */
    int64_t cycles;
    double offered, accepted;      /* flits per cycle per host over the
                                    * interval: made, and delivered */
    double latency;                /* mean latency (from creation) of the
                                    * packets delivered in the interval, NaN
                                    * if none */
    int64_t in_network;            /* flits in buffers and on links at its
                                    * end */
    /* The counts behind the rates, over the interval: flits made and
     * delivered, packets delivered and their latencies summed. */
    int64_t flits_created, flits_ejected;
    int64_t delivered;
    int64_t latency_sum;
    int hosts;                     /* the rates' hosts (at least 1) */
} FlSimSample;

/* The sample of the interval [from->cycle, to->cycle) from the counters at
 * its two ends (to later than from), as a timeline records it: what an
 * FL_SIM_HOOK_EVERY hook reading fl_sim_counters() every n cycles needs to
 * sample a run without a timeline. */
void fl_sim_sample_between(const FlSimCounters *from, const FlSimCounters *to,
                           FlSimSample *out);
/* The sample of a's interval and b's right after it, joined: what
 * fl_sim_sample_between() gives for the two together. out may be a or b. */
void fl_sim_sample_join(const FlSimSample *a, const FlSimSample *b, FlSimSample *out);

/* sim must be at cycle 0 (its checkpoint is the first). checkpoint_interval
 * >= 1 cycles; sample_interval 1 to 65535 cycles. NULL with err set on a
 * bad argument or out of memory. */
FlSimTimeline *fl_sim_timeline_new(FlSim *sim, int64_t checkpoint_interval,
                                   size_t checkpoint_budget, int64_t sample_interval,
                                   FlError *err);
void fl_sim_timeline_free(FlSimTimeline *tl);
/* Advances up to n >= 0 cycles as fl_sim_step does (stopping early at a
 * deadlock, or when a hook asks), taking checkpoints and recording samples
 * past the furthest cycle reached so far. */
int fl_sim_timeline_step(FlSimTimeline *tl, int64_t n, FlSimStatus *status, FlError *err);
/* Goes to cycle >= 0, backwards or forwards; forwards it stops early at a
 * deadlock (fl_sim_cycle() tells where). */
int fl_sim_timeline_seek(FlSimTimeline *tl, int64_t cycle, FlError *err);
FlSim *fl_sim_timeline_sim(const FlSimTimeline *tl);
/* The furthest cycle simulated so far. */
int64_t fl_sim_timeline_max_cycle(const FlSimTimeline *tl);
/* Kept checkpoints, their bytes, and the cycle of the i-th (by increasing
 * cycle; the 0th is cycle 0's), -1 past the last. */
size_t fl_sim_timeline_n_checkpoints(const FlSimTimeline *tl);
size_t fl_sim_timeline_checkpoint_bytes(const FlSimTimeline *tl);
int64_t fl_sim_timeline_checkpoint_cycle(const FlSimTimeline *tl, size_t i);
/* A new interval applies to the checkpoints taken from now on; a new
 * budget thins at once if need be (a larger one keeps everything taken
 * from now on until it is reached again). */
int fl_sim_timeline_set_checkpoint_interval(FlSimTimeline *tl, int64_t interval, FlError *err);
int64_t fl_sim_timeline_checkpoint_interval(const FlSimTimeline *tl);
void fl_sim_timeline_set_checkpoint_budget(FlSimTimeline *tl, size_t bytes);
size_t fl_sim_timeline_checkpoint_budget(const FlSimTimeline *tl);
/* The interval of the samples: the one given, doubled at each merge. */
int64_t fl_sim_timeline_sample_interval(const FlSimTimeline *tl);
/* The bytes the samples and their channel counts take (with the counts'
 * 16 bytes per channel of bookkeeping): at most the sample budget, unless
 * the room for 2 x FL_SIM_TIMELINE_MIN_SAMPLES needs more. */
size_t fl_sim_timeline_sample_bytes(const FlSimTimeline *tl);
/* A smaller budget merges at once if need be; a larger one lets the
 * samples recorded from now on fill it at their current interval. */
void fl_sim_timeline_set_sample_budget(FlSimTimeline *tl, size_t bytes);
size_t fl_sim_timeline_sample_budget(const FlSimTimeline *tl);

/* The samples recorded, in cycle order: those of the whole intervals up to
 * the furthest cycle reached (*out NULL when there are none); valid until
 * the next step, seek or sample budget change. */
size_t fl_sim_timeline_samples(const FlSimTimeline *tl, const FlSimSample **out);
/* Per channel, flits x link_cycles_per_flit / cycles over [from, to),
 * widened to the sample intervals it touches and cut at the last one
 * recorded, into out[c] for c < min(n, fl_sim_channels()); all 0 when no
 * recorded interval is in it. FL_ERANGE when from < 0 or to <= from. */
int fl_sim_timeline_channel_utilization(const FlSimTimeline *tl, int64_t from, int64_t to,
                                        double *out, int n, FlError *err);
/* Channel's utilization in each recorded sample interval, in order, into
 * out (up to max values); *n gets how many intervals are recorded (may be
 * more than max). FL_ERANGE for a channel that does not exist. */
int fl_sim_timeline_channel_series(const FlSimTimeline *tl, int channel, double *out,
                                   size_t max, size_t *n, FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_SIM_H */
