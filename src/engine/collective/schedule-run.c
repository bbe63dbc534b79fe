/* schedule-run.c — a colouring's classes run one after another in the
 * flit-level simulator, each request's time beside its time alone on the
 * empty network, so that a valid colouring is seen to be free of link
 * contention.
 */
#include <stdlib.h>

#include "flitlab.h"

/* The packets of one batch: request of each packet id first + k, and when
 * each was delivered. */
typedef struct Batch {
    const int *reqs;
    int n;
    int64_t first;
    int64_t *delivered;
    int left;
} Batch;

static int on_delivered(FlSim *sim, const FlSimHookInfo *info, void *data)
{
    (void)sim;
    Batch *b = data;
    int64_t k = info->packet - b->first;
    if (k < 0 || k >= b->n)
        return 0;
    b->delivered[k] = info->delivered;
    return --b->left == 0;
}

/* Where a run is: what it reports progress to, and how far it is. */
typedef struct Progress {
    FlProgressFunc func;
    void *data;
    double done, total;
} Progress;

/* Sends one packet of flits flits for each of the n requests reqs at once
 * and steps until all are delivered, filling delivered[k] for reqs[k].
 * *budget is what is left of max_cycles (< 0: no limit). */
static int run_batch(FlSim *sim, const FlSchedule *s, const int *reqs, int n, int flits,
                     int64_t *delivered, int64_t *budget, const Progress *pr, FlError *err)
{
    Batch b = { reqs, n, -1, delivered, n };
    for (int k = 0; k < n; k++) {
        FlScheduleRequest r = fl_schedule_request(s, reqs[k]);
        int64_t id;
        int rc = fl_sim_inject(sim, r.src, r.dst, flits, &id, err);
        if (rc)
            return rc;
        if (k == 0)
            b.first = id;
    }
    int rc = fl_sim_set_hook(sim, FL_SIM_HOOK_DELIVERED, 0, on_delivered, &b, err);
    while (!rc && b.left > 0) {
        if (pr->func && pr->func(pr->data, pr->done / pr->total)) {
            rc = fl_error_set(err, FL_ECANCELLED, "cancelled at cycle %lld",
                              (long long)fl_sim_cycle(sim));
            break;
        }
        if (*budget == 0) {
            rc = fl_error_set(err, FL_ERANGE, "the schedule has not finished within its cycle "
                              "limit (%d packets of a phase on their way)", b.left);
            break;
        }
        int64_t steps = *budget > 0 && *budget < 4096 ? *budget : 4096, t0 = fl_sim_cycle(sim);
        FlSimStatus st;
        if ((rc = fl_sim_step(sim, steps, &st, err)))
            break;
        if (*budget > 0)
            *budget -= fl_sim_cycle(sim) - t0;
        if (st == FL_SIM_DEADLOCK)
            rc = fl_error_set(err, FL_EUNSUPPORTED, "the network deadlocked at cycle %lld",
                              (long long)fl_sim_cycle(sim));
    }
    fl_sim_set_hook(sim, 0, 0, NULL, NULL, NULL);
    return rc;
}

int fl_schedule_run(FlSim *sim, const FlSchedule *s, const int *colors, int ncolors, int flits,
                    int64_t max_cycles, FlProgressFunc progress, void *progress_data,
                    FlSchedulePhase *phases, FlError *err)
{
    int n = fl_schedule_request_count(s);
    if (!sim || (n > 0 && !colors) || ncolors < 0 || (ncolors > 0 && !phases))
        return fl_error_set(err, FL_EINVAL, "no simulation, colouring or phases");
    if (flits < 1)
        return fl_error_set(err, FL_ERANGE, "a request needs at least 1 flit, not %d", flits);
    if (fl_sim_config(sim)->traffic.rate > 0)
        return fl_error_set(err, FL_EINVAL, "a schedule runs on a simulation without traffic "
                            "of its own: set its rate to 0");
    for (int i = 0; i < n; i++)
        if (colors[i] < 0 || colors[i] >= ncolors)
            return fl_error_set(err, FL_EINVAL, "request %d has colour %d, not one of 0..%d", i,
                                colors[i], ncolors - 1);
    int *order = malloc(sizeof *order * (size_t)(n ? n : 1));
    int64_t *alone = malloc(sizeof *alone * (size_t)(n ? n : 1));
    int64_t *got = malloc(sizeof *got * (size_t)(n ? n : 1));
    FlSimCheckpoint *empty = NULL;
    int rc = FL_OK;
    if (!order || !alone || !got) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for %d requests", n);
        goto out;
    }
    int64_t budget = max_cycles > 0 ? max_cycles : -1;
    /* Each request alone on the network as it is now: its time without
     * contention. */
    if ((rc = fl_sim_checkpoint(sim, &empty, err)))
        goto out;
    /* Progress counts the lone runs and the phases' requests alike. */
    Progress pr = { progress, progress_data, 0, 2.0 * n + 1 };
    for (int i = 0; i < n && !rc; i++, pr.done++) {
        int64_t t0 = fl_sim_cycle(sim), unlimited = -1;
        if (!(rc = run_batch(sim, s, &i, 1, flits, &alone[i], &unlimited, &pr, err)))
            alone[i] -= t0;
        if (!rc)
            rc = fl_sim_restore(sim, empty, err);
    }
    /* Requests by colour, in request order within one. */
    int k = 0;
    for (int c = 0; c < ncolors; c++)
        for (int i = 0; i < n; i++)
            if (colors[i] == c)
                order[k++] = i;
    k = 0;
    for (int c = 0; c < ncolors && !rc; c++) {
        FlSchedulePhase *p = &phases[c];
        int m = 0;
        while (k + m < n && colors[order[k + m]] == c)
            m++;
        *p = (FlSchedulePhase){ .color = c, .requests = m, .start = fl_sim_cycle(sim) };
        if (m > 0 && (rc = run_batch(sim, s, order + k, m, flits, got, &budget, &pr, err)))
            break;
        pr.done += m;
        for (int j = 0; j < m; j++) {
            int64_t lost = got[j] - p->start - alone[order[k + j]];
            if (lost > 0) {
                p->delayed++;
                if (lost > p->max_delay)
                    p->max_delay = lost;
            }
        }
        p->end = fl_sim_cycle(sim);
        k += m;
    }
out:
    fl_sim_checkpoint_free(empty);
    free(order);
    free(alone);
    free(got);
    return rc;
}
