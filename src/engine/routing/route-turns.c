/* route-turns.c — the turns a routing takes, derived once from the states
 * its packets can reach, for routings that are not defined by turns (the
 * turn map, PT/SDPT/PPT and fl_routing_turn_prohibited() read them).
 */
#include <stdint.h>
#include <stdlib.h>

#include "route-walk.h"

int fl__routing_derive_turns(FlRouting *r, FlError *err)
{
    const FlTopology *t = r->t;
    r->turn_base = malloc(sizeof *r->turn_base * ((size_t)t->n_nodes + 1));
    if (!r->turn_base)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the turn map");
    int64_t bytes = 0;
    for (int n = 0; n < t->n_nodes; n++) {
        r->turn_base[n] = bytes;
        if (t->kind[n] == FL_NODE_SWITCH)
            bytes += ((int64_t)t->nports[n] * t->nports[n] + 7) / 8;
    }
    r->turn_base[t->n_nodes] = bytes;
    r->turn_used = calloc(bytes > 0 ? (size_t)bytes : 1, 1);
    if (!r->turn_used)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the turn map");

    /* A turn is a step with its class forgotten: every class of a channel
     * shares the row of (its switch, its arrival port). */
    FlStateWalk w;
    int rc = fl__walk_init(&w, r, err);
    if (rc)
        return rc;
    int64_t *row = malloc(sizeof *row * ((size_t)w.sp.nstates + 1));
    if (!row) {
        fl__walk_free(&w);
        return fl_error_set(err, FL_ENOMEM, "out of memory for the turn map");
    }
    for (int s = 0; s < w.sp.nstates; s++) {
        int c = fl__state_channel(&w.sp, s), sw = w.ci[c].dst;
        row[s] = 8 * r->turn_base[sw] + (int64_t)fl__in_port(t, c) * t->nports[sw];
    }
    FlStepBits mark = { row, r->turn_used, 1, 0 };
    for (int i = 0; i < t->n_switches && !rc; i++)
        rc = fl__walk_dest(&w, -1, t->switch_nodes[i], &mark, NULL, NULL, err);
    free(row);
    fl__walk_free(&w);
    return rc;
}
