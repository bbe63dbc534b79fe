/* flitlab/deflect.h — Deflection routing (paper 003).
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_DEFLECT_H
#define FLITLAB_DEFLECT_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/routing.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Bufferless hot-potato routing, synchronous: single-flit messages, a closed
 * system with nmsg messages per node (a delivered message is replaced at
 * once by a new one from the same node). Each cycle, messages are sorted by
 * priority and take their best free shortest-path output; the losers are
 * deflected to any free output.
 */

typedef enum FlDeflectPriority {
    FL_PRIORITY_RANDOM = 0,
    FL_PRIORITY_AGE,
    FL_PRIORITY_PATH_NUM,      /* fewest shortest-path outputs first */
    FL_PRIORITY_AGE_PATH_NUM
} FlDeflectPriority;

typedef struct FlDeflectConfig {
    const FlRouting *routing;  /* minimal routing giving the shortest-path ports */
    int nmsg;                  /* messages per node, 1..4 in the paper */
    FlDeflectPriority priority;
    int64_t cycles;
    uint64_t seed;
} FlDeflectConfig;

typedef struct FlDeflectResult {
    int64_t cycles;
    /* Per cycle: the largest and the mean delay of the messages delivered
     * so far, and messages delivered per cycle per node. malloc'd. */
    double *max_delay, *avg_delay, *throughput;
    int64_t delivered;
    int64_t deflections;
    double wall_s;
} FlDeflectResult;

/* Runs cfg->cycles cycles from the start and fills res. The same as
 * fl_deflect_new, then fl_deflect_step one cycle at a time, recording the
 * running figures of fl_deflect_stats after each: the series hold, at
 * index c, max_delay, avg_delay and the messages delivered in cycle c per
 * node. progress may be NULL; cancelling returns FL_ECANCELLED. */
int fl_deflect_run(const FlTopology *t, const FlDeflectConfig *cfg, FlDeflectResult *res,
                   FlProgressFunc progress, void *progress_data, FlError *err);
void fl_deflect_result_clear(FlDeflectResult *res);

/* Result key index of res (fl_sim_result_key(), a key of the deflection
 * model): the delays at the end of the run, and the throughput over its
 * second half (past the start-up transient of the closed system) or over
 * all of it. NaN for a key of the flit-level simulator only. */
double fl_deflect_result_value(const FlDeflectResult *res, int index);

/* The model as an object, to step, watch and take back.
 *
 * Between two cycles every message is in one of two places: waiting at its
 * owner (its source), not injected yet; or at the far end of the channel
 * it crossed in the last cycle, which it must leave in the next one (the
 * network has no buffers, so a message in transit moves every cycle). A
 * message that reaches its destination is delivered at the end of that
 * cycle and is gone; its slot holds a new message from the same source,
 * waiting. So there are always switches * nmsg messages. */
typedef struct FlDeflect FlDeflect;
/* Checks everything fl_deflect_run does except cfg->cycles, which is only
 * the length of fl_deflect_run's run: stepping goes on as long as asked.
 * The topology and the routing must outlive the object. */
int fl_deflect_new(const FlTopology *t, const FlDeflectConfig *cfg, FlDeflect **out,
                   FlError *err);
void fl_deflect_free(FlDeflect *d);
/* Advances n >= 0 cycles. FL_EINVAL for no object or n < 0, FL_ERANGE past
 * the longest run (10^9 cycles in all; message ages must fit the priority
 * keys). FL_EINVAL too when the model loses track of a message (a bug,
 * named in the message): the state is then not consistent; restore a
 * checkpoint or free it. */
int fl_deflect_step(FlDeflect *d, int64_t n, FlError *err);
/* The cycle about to be simulated: the number of cycles simulated so far. */
int64_t fl_deflect_cycle(const FlDeflect *d);

/* Totals so far: delivered, deflections, mean and max delay of delivered
 * messages (0 before the first), as fl_deflect_run's series at cycle
 * fl_deflect_cycle() - 1. */
typedef struct FlDeflectStats {
    int64_t cycle;             /* fl_deflect_cycle() */
    int64_t delivered, deflections;
    double avg_delay, max_delay;
    double throughput;         /* delivered per cycle per node so far */
} FlDeflectStats;
void fl_deflect_stats(const FlDeflect *d, FlDeflectStats *out);

/* One message, for drawing. */
typedef struct FlDeflectView {
    int64_t message;          /* a stable id: creation order (the first
                               * switches * nmsg by slot, then as
                               * delivered messages are replaced) */
    int src, dst;             /* switch nodes: its owner, its destination */
    int node;                 /* where it is now (between cycles): src while
                               * waiting, else the far end of channel */
    int channel;              /* the channel it took in the last cycle (2 *
                               * link + end as in the topology), -1 while
                               * waiting at src (it has not moved yet) */
    int deflected;            /* that last hop was a deflection: not one of
                               * the routing's shortest-path outputs (with
                               * one offering only some of them, as dor,
                               * it may still have brought it nearer) */
    int deflections;          /* deflections so far */
    int hops;                 /* channels crossed so far; a message in
                               * transit moves every cycle, so it left src
                               * in cycle fl_deflect_cycle() - hops */
    int64_t created;          /* age = cycle - created; a message made at
                               * the end of the last cycle is created now */
} FlDeflectView;
typedef void (*FlDeflectVisitor)(void *user_data, const FlDeflectView *m);
/* Calls visit for every message, switches * nmsg of them, by slot: the
 * messages owned by switch rank 0 first, then rank 1, ... Read-only. */
void fl_deflect_foreach(const FlDeflect *d, FlDeflectVisitor visit, void *user_data);

/* A copy of the whole state, to step backwards and seek by replaying:
 * restoring and stepping gives the same cycles bit for bit. */
typedef struct FlDeflectCheckpoint FlDeflectCheckpoint;
int fl_deflect_checkpoint(const FlDeflect *d, FlDeflectCheckpoint **out, FlError *err);
/* FL_EINVAL for a checkpoint of another object. */
int fl_deflect_restore(FlDeflect *d, const FlDeflectCheckpoint *cp, FlError *err);
void fl_deflect_checkpoint_free(FlDeflectCheckpoint *cp);
/* The cycle it was taken at (-1 for NULL), and the bytes it holds. */
int64_t fl_deflect_checkpoint_cycle(const FlDeflectCheckpoint *cp);
size_t fl_deflect_checkpoint_size(const FlDeflectCheckpoint *cp);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_DEFLECT_H */
