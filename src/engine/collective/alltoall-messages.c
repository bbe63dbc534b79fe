/* alltoall-messages.c — a tracked complete exchange as a message schedule,
 * so that the message layer can time it flit by flit.
 */
#include <limits.h>
#include <stdlib.h>

#include "flitlab/alltoall.h"

int fl_alltoall_schedule(const FlAllToAll *aa, int flits_per_block, FlMessage **out, int *n,
                         size_t **step_of, FlError *err)
{
    *out = NULL;
    *n = 0;
    if (step_of)
        *step_of = NULL;
    if (flits_per_block < 1)
        return fl_error_set(err, FL_ERANGE, "a block needs at least 1 flit, not %d",
                            flits_per_block);
    size_t steps = fl_alltoall_step_count(aa), total = 0, count;
    for (size_t s = 1; s <= steps; s++) {
        const FlAllToAllMessage *msg = fl_alltoall_messages(aa, s, &count);
        for (size_t k = 0; k < count; k++)
            if (msg[k].blocks > (size_t)(INT_MAX / flits_per_block))
                return fl_error_set(err, FL_ERANGE, "a message of step %zu has %zu blocks of "
                                    "%d flits: too many flits", s, msg[k].blocks,
                                    flits_per_block);
        total += count;
    }
    if (total > INT_MAX)
        return fl_error_set(err, FL_ERANGE, "%zu messages are too many", total);
    int nodes = fl_alltoall_size(aa) * fl_alltoall_size(aa);
    FlMessage *m = malloc(sizeof *m * (total ? total : 1));
    size_t *steps_of = step_of ? malloc(sizeof *steps_of * (total ? total : 1)) : NULL;
    /* The message each node received in the latest step so far, and in the
     * step being listed (one-port: at most one a step). */
    int *last = malloc(sizeof *last * (size_t)nodes);
    int *now = malloc(sizeof *now * (size_t)nodes);
    if (!m || (step_of && !steps_of) || !last || !now) {
        free(m);
        free(steps_of);
        free(last);
        free(now);
        return fl_error_set(err, FL_ENOMEM, "out of memory for %zu messages", total);
    }
    for (int v = 0; v < nodes; v++)
        last[v] = now[v] = -1;
    int i = 0;
    for (size_t s = 1; s <= steps; s++) {
        const FlAllToAllMessage *msg = fl_alltoall_messages(aa, s, &count);
        for (size_t k = 0; k < count; k++, i++) {
            m[i] = (FlMessage){ msg[k].src, msg[k].dst, (int)msg[k].blocks * flits_per_block,
                                last[msg[k].src] };
            if (steps_of)
                steps_of[i] = s;
            now[msg[k].dst] = i;
        }
        for (int v = 0; v < nodes; v++)
            if (now[v] >= 0)
                last[v] = now[v];
    }
    free(last);
    free(now);
    *out = m;
    *n = (int)total;
    if (step_of)
        *step_of = steps_of;
    return FL_OK;
}
