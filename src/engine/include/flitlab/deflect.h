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

int fl_deflect_run(const FlTopology *t, const FlDeflectConfig *cfg, FlDeflectResult *res,
                   FlProgressFunc progress, void *progress_data, FlError *err);
void fl_deflect_result_clear(FlDeflectResult *res);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_DEFLECT_H */
