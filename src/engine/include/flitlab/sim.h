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

typedef enum FlSimStatus {
    FL_SIM_OK = 0,
    FL_SIM_DEADLOCK,       /* flits in the network, none moved for a while */
    FL_SIM_SATURATED,      /* source queues grow without bound */
    FL_SIM_RUNNING
} FlSimStatus;

const char *fl_sim_status_name(FlSimStatus s);   /* "ok", "deadlock", ... */

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
    int64_t measure_cycles;        /* packets made in this window are measured */
    int64_t drain_cycles;          /* at most this long to deliver them */
    int64_t deadlock_cycles;       /* watchdog: no flit moved for this long */
    uint64_t seed;
} FlSimConfig;

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
} FlSimResult;

void fl_sim_result_clear(FlSimResult *res);

typedef struct FlSim FlSim;
/* Refuses impossible parameters (zero VCs, fewer VCs than the routing's
 * classes, a buffer smaller than a packet under VCT, a rate above 1) with a
 * message naming the parameter. */
int fl_sim_new(const FlTopology *t, const FlSimConfig *cfg, FlSim **out, FlError *err);
void fl_sim_free(FlSim *sim);

/* Advances n cycles (stops early on deadlock); returns the status. */
FlSimStatus fl_sim_step(FlSim *sim, int64_t n);
int64_t fl_sim_cycle(const FlSim *sim);
/* Runs warm-up, measurement and drain and fills res. progress may be NULL;
 * cancelling returns FL_ECANCELLED. */
int fl_sim_run(FlSim *sim, FlSimResult *res, FlProgressFunc progress, void *progress_data,
               FlError *err);

/* A copy of the whole state, to step backwards and seek by replaying. */
typedef struct FlSimCheckpoint FlSimCheckpoint;
int fl_sim_checkpoint(const FlSim *sim, FlSimCheckpoint **out, FlError *err);
int fl_sim_restore(FlSim *sim, const FlSimCheckpoint *cp, FlError *err);
void fl_sim_checkpoint_free(FlSimCheckpoint *cp);

/* Where one flit is, for drawing. */
typedef enum FlFlitPlace {
    FL_FLIT_SOURCE_QUEUE = 0,   /* waiting at its host */
    FL_FLIT_BUFFER,             /* in the input buffer of channel's destination */
    FL_FLIT_LINK                /* on channel, progress cycles along it */
} FlFlitPlace;

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
} FlFlitView;

typedef void (*FlFlitVisitor)(void *user_data, const FlFlitView *flit);
/* Calls visit for every flit in the network (source queues included up to
 * the first max_queued flits per host). Read-only. */
void fl_sim_foreach_flit(const FlSim *sim, int max_queued, FlFlitVisitor visit,
                         void *user_data);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_SIM_H */
