/* route-walk.c — the walk over the states packets can reach under a
 * routing, which the turn derivation and the whole analysis stand on.
 *
 * Which turns a routing function takes, and which channel dependencies it
 * creates, are properties of the states packets can actually be in: a
 * routing may well answer next() for an (input channel, destination) that no
 * packet ever arrives with, and such answers must not count. So both start
 * from injection at every switch and follow every choice of next().
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "route-walk.h"

int fl__state_space(const FlRouting *r, FlStateSpace *sp, FlError *err)
{
    int classes = r->vc_classes > 0 ? r->vc_classes : 1;
    int channels = 2 * r->t->n_links;
    sp->shift = 0;
    while ((1 << sp->shift) < classes)
        sp->shift++;
    /* Two spare states let callers keep sentinels past the end. */
    if (channels > (INT_MAX >> sp->shift) - 2)
        return fl_error_set(err, FL_ENOMEM, "%d channels in %d classes are too many states",
                            channels, classes);
    sp->nstates = channels << sp->shift;
    return FL_OK;
}

FlChanInfo *fl__chan_info_new(const FlTopology *t)
{
    FlChanInfo *ci = malloc(sizeof *ci * (2 * (size_t)t->n_links + 1));
    if (!ci)
        return NULL;
    for (int c = 0; c < 2 * t->n_links; c++) {
        int src = fl__chan_src(t, c);
        ci[c].dst = fl__chan_dst(t, c);
        ci[c].from_key = t->kind[src] == FL_NODE_SWITCH && t->kind[ci[c].dst] == FL_NODE_SWITCH
                             ? t->port_base[src] + fl__out_port(t, c)
                             : -1;
    }
    return ci;
}

int fl__walk_init(FlStateWalk *w, const FlRouting *r, FlError *err)
{
    memset(w, 0, sizeof *w);
    w->r = r;
    int rc = fl__state_space(r, &w->sp, err);
    if (rc)
        return rc;
    size_t n = (size_t)w->sp.nstates + 1;
    w->stamp = calloc(n, sizeof *w->stamp);
    w->queue = malloc(n * sizeof *w->queue);
    w->ci = fl__chan_info_new(r->t);
    if (!w->stamp || !w->queue || !w->ci) {
        fl__walk_free(w);
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d routing states",
                            w->sp.nstates);
    }
    return FL_OK;
}

void fl__walk_free(FlStateWalk *w)
{
    free(w->stamp);
    free(w->queue);
    free(w->ci);
    w->stamp = w->queue = NULL;
    w->ci = NULL;
}

int fl__bad_choice(const FlRouting *r, int sw, int dest, const FlRouteChoice *choices,
                   int n, FlError *err)
{
    const FlTopology *t = r->t;
    for (int i = 0; i < n; i++) {
        int c = choices[i].channel;
        const char *why = NULL;
        if (c < 0 || c >= 2 * t->n_links || fl__chan_src(t, c) != sw)
            why = "a channel that does not leave the switch";
        else if (fl__out_port(t, c) != choices[i].port)
            why = "a port that does not match its channel";
        else if (t->kind[fl__chan_dst(t, c)] != FL_NODE_SWITCH)
            why = "a channel to a host";
        else if (choices[i].vc_class < 0 || choices[i].vc_class >= r->vc_classes)
            why = "a VC class the routing does not have";
        if (why)
            return fl_error_set(err, FL_EINVAL,
                                "routing %s gave %s (port %d, channel %d, class %d) at switch "
                                "%d towards switch %d",
                                r->algo->info.name, why, choices[i].port, c,
                                choices[i].vc_class, sw, dest);
    }
    return fl_error_set(err, FL_EINVAL, "routing %s gave a bad hop at switch %d towards %d",
                        r->algo->info.name, sw, dest);
}

int fl__walk_dest(FlStateWalk *w, int src, int dest, const FlStepBits *mark,
                  FlStateVisitor visit, void *data, FlError *err)
{
    const FlRouting *r = w->r;
    const FlTopology *t = r->t;
    if (w->round == INT_MAX) {
        memset(w->stamp, 0, (size_t)w->sp.nstates * sizeof *w->stamp);
        w->round = 0;
    }
    /* Locals, not w->..., so that the calls out to next() and the visitor do
     * not force them back to memory on every state. */
    const int round = ++w->round, shift = w->sp.shift, mask = (1 << shift) - 1;
    int *stamp = w->stamp, *queue = w->queue;
    const FlChanInfo *ci = w->ci;
    FlRouteChoice *ch = w->choices;
    int ninj = src >= 0 ? 1 : t->n_switches, inj = 0, head = 0, nq = 0;
    /* The injections, then the states in the order reached: one loop, so
     * that the body is written (and compiled) once. */
    for (;;) {
        int sw, in, k;
        if (inj < ninj) {
            sw = src >= 0 ? src : t->switch_nodes[inj];
            inj++;
            in = -1;
            k = 0;
        } else if (head < nq) {
            int s = queue[head++];
            in = s >> shift;
            k = s & mask;
            sw = ci[in].dst;
        } else {
            break;
        }
        if (sw == dest)
            continue;
        int n = r->algo->next(r, sw, in, k, dest, ch, FL_ROUTE_MAX_CHOICES);
        if (n <= 0)
            continue;
        if (n > FL_ROUTE_MAX_CHOICES)
            n = FL_ROUTE_MAX_CHOICES;
        int rc = fl__check_choices(r, ci, sw, dest, ch, n, err);
        if (rc) {
            w->nqueued = nq;
            return rc;
        }
        if (visit)
            visit(data, sw, in, k, dest, ch, n);
        if (mark && in >= 0)
            fl__mark_steps(mark, (in << shift) | k, ch, n);
        for (int i = 0; i < n; i++) {
            int s = (ch[i].channel << shift) | ch[i].vc_class;
            if (stamp[s] != round) {
                stamp[s] = round;
                queue[nq++] = s;
            }
        }
    }
    w->nqueued = nq;
    return FL_OK;
}
