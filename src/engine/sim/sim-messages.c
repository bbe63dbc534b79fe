/* sim-messages.c — a schedule of messages run over the flit-level
 * simulator, and timed with paper 001's parameterized model (see
 * flitlab/message.h).
 *
 * The run is event-driven over the simulator's cycles: between steps it
 * starts the sends whose source is free and whose dependency has been
 * received, and hands their packets to the network (fl_sim_inject) in the
 * cycle their software send ends; a delivery hook counts each message's
 * packets and, when the last arrives, times its receipt at the
 * destination (one at a time, in arrival order) and asks the step to
 * return so that the sends it enables are started.
 */
#include <stdlib.h>
#include <string.h>

#include "flitlab.h"

/* Messages by source, in list order: src_list[src_off[h] .. src_off[h + 1]). */
typedef struct Order {
    int *off, *list;
} Order;

static int order_build(const FlMessage *m, int n, int hosts, Order *o)
{
    o->off = calloc((size_t)hosts + 1, sizeof *o->off);
    o->list = malloc(sizeof *o->list * (size_t)(n ? n : 1));
    if (!o->off || !o->list)
        return FL_ENOMEM;
    for (int i = 0; i < n; i++)
        o->off[m[i].src + 1]++;
    for (int h = 0; h < hosts; h++)
        o->off[h + 1] += o->off[h];
    int *fill = malloc(sizeof *fill * (size_t)(hosts ? hosts : 1));
    if (!fill)
        return FL_ENOMEM;
    memcpy(fill, o->off, sizeof *fill * (size_t)hosts);
    for (int i = 0; i < n; i++)
        o->list[fill[m[i].src]++] = i;
    free(fill);
    return FL_OK;
}

static void order_free(Order *o)
{
    free(o->off);
    free(o->list);
}

int fl_message_check(const FlMessage *m, int n, int hosts, FlError *err)
{
    if (n < 0 || (n > 0 && !m))
        return fl_error_set(err, FL_EINVAL, "no messages");
    for (int i = 0; i < n; i++) {
        if (m[i].src < 0 || m[i].src >= hosts || m[i].dst < 0 || m[i].dst >= hosts)
            return fl_error_set(err, FL_EINVAL,
                                "message %d: hosts must be 0..%d, not %d -> %d", i, hosts - 1,
                                m[i].src, m[i].dst);
        if (m[i].src == m[i].dst)
            return fl_error_set(err, FL_EINVAL, "message %d: host %d sends to itself", i,
                                m[i].src);
        if (m[i].flits < 1)
            return fl_error_set(err, FL_EINVAL, "message %d: size must be >= 1 flit, not %d",
                                i, m[i].flits);
        if (m[i].after < -1 || m[i].after >= n || m[i].after == i)
            return fl_error_set(err, FL_EINVAL, "message %d: depends on message %d, which "
                                "is not another message of the schedule", i, m[i].after);
        if (m[i].after >= 0 && m[m[i].after].dst != m[i].src)
            return fl_error_set(err, FL_EINVAL, "message %d: depends on message %d, which "
                                "goes to host %d, not to its source %d", i, m[i].after,
                                m[m[i].after].dst, m[i].src);
    }
    /* A message waits for its dependency and for the message its source
     * sends before it: those waits must not close a cycle (Kahn's
     * algorithm over them). */
    Order o = { 0 };
    int *waits = calloc((size_t)(n ? n : 1), sizeof *waits);
    int *ready = malloc(sizeof *ready * (size_t)(n ? n : 1));
    int *dependents_off = calloc((size_t)n + 1, sizeof *dependents_off);
    int *dependents = malloc(sizeof *dependents * (size_t)(n ? n : 1));
    int rc = order_build(m, n, hosts, &o);
    if (rc || !waits || !ready || !dependents_off || !dependents) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++)
        if (m[i].after >= 0) {
            waits[i]++;
            dependents_off[m[i].after + 1]++;
        }
    for (int i = 0; i < n; i++)
        dependents_off[i + 1] += dependents_off[i];
    for (int i = 0, *fill = dependents_off; i < n; i++)
        if (m[i].after >= 0)
            dependents[fill[m[i].after]++] = i;
    for (int i = n; i > 0; i--)    /* fill moved each start to the next one's */
        dependents_off[i] = dependents_off[i - 1];
    dependents_off[0] = 0;
    /* The first message of each source needs no earlier one of its own. */
    int nready = 0, done = 0;
    for (int h = 0; h < hosts; h++)
        for (int k = o.off[h] + 1; k < o.off[h + 1]; k++)
            waits[o.list[k]]++;
    int *pos = calloc((size_t)(n ? n : 1), sizeof *pos);   /* index in its source's list */
    if (!pos) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory");
        goto out;
    }
    for (int h = 0; h < hosts; h++)
        for (int k = o.off[h]; k < o.off[h + 1]; k++)
            pos[o.list[k]] = k;
    for (int i = 0; i < n; i++)
        if (waits[i] == 0)
            ready[nready++] = i;
    while (nready > 0) {
        int i = ready[--nready];
        done++;
        for (int k = dependents_off[i]; k < dependents_off[i + 1]; k++)
            if (--waits[dependents[k]] == 0)
                ready[nready++] = dependents[k];
        int next = pos[i] + 1;
        if (next < o.off[m[i].src + 1] && --waits[o.list[next]] == 0)
            ready[nready++] = o.list[next];
    }
    free(pos);
    if (done < n) {
        int stuck = 0;
        while (stuck < n && waits[stuck] == 0)
            stuck++;
        rc = fl_error_set(err, FL_EINVAL, "message %d waits, through its dependency and the "
                          "messages its source sends first, for itself: the schedule can "
                          "never finish", stuck);
    }
out:
    order_free(&o);
    free(waits);
    free(ready);
    free(dependents_off);
    free(dependents);
    return rc;
}

int fl_message_costs_check(const FlMessageCosts *c, int flits, int64_t channel_cycles,
                           FlError *err)
{
    /* In doubles: the costs are the caller's and their products may not
     * fit 64 bits; beyond 2^53 a figure only needs to be too large. */
    double per_flit = (double)c->send_per_flit + (double)channel_cycles
                      + (double)c->recv_per_flit;
    double total = (double)c->send_startup + per_flit * flits + (double)c->recv_startup;
    if (total <= (double)FL_MESSAGE_MAX_CYCLES)
        return FL_OK;
    return fl_error_set(err, FL_ERANGE, "s-s + (s-d + c-d + r-d) x L + r-s, the cycles one "
                        "message of L = %d flits takes, must be at most %lld, not %.0f: a "
                        "simulated run steps through every cycle a message takes", flits,
                        (long long)FL_MESSAGE_MAX_CYCLES, total);
}

/* --- the analytic model ---------------------------------------------------- */

int fl_message_analytic(const FlMessage *m, int n, int hosts, int64_t t_hold, int64_t t_end,
                        FlMessageTimes *out, int64_t *completion, FlError *err)
{
    if (t_hold < 0 || t_end < 0)
        return fl_error_set(err, FL_ERANGE, "t_hold and t_end must be >= 0");
    int rc = fl_message_check(m, n, hosts, err);
    if (rc)
        return rc;
    Order o = { 0 };
    int *next = calloc((size_t)hosts + 1, sizeof *next);
    int64_t *free_at = calloc((size_t)hosts + 1, sizeof *free_at);
    if (order_build(m, n, hosts, &o) || !next || !free_at) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++)
        out[i].start = out[i].received = -1;
    /* Each pass starts every send whose dependency is timed; the check
     * above guarantees that every pass makes progress until all are. */
    int64_t last = 0;
    for (int timed = 0; timed < n;) {
        for (int h = 0; h < hosts; h++) {
            for (; next[h] < o.off[h + 1] - o.off[h]; next[h]++) {
                int i = o.list[o.off[h] + next[h]];
                int64_t ready = m[i].after < 0 ? 0 : out[m[i].after].received;
                if (ready < 0)
                    break;
                out[i].start = out[i].injected = ready > free_at[h] ? ready : free_at[h];
                free_at[h] = out[i].start + t_hold;
                out[i].arrived = out[i].received = out[i].start + t_end;
                if (out[i].received > last)
                    last = out[i].received;
                timed++;
            }
        }
    }
    if (completion)
        *completion = last;
out:
    order_free(&o);
    free(next);
    free(free_at);
    return rc;
}

/* --- the run on the simulator ------------------------------------------------- */

typedef struct Run {
    const FlMessage *m;
    int n, hosts;
    const FlMessageCosts *c;
    FlMessageTimes *out;
    Order o;
    int *next;                   /* per host: its first message not started */
    int64_t *send_free, *recv_free;
    int *outstanding;            /* per message: packets on their way, -1 before */
    int *pending;                /* started messages not yet injected */
    int npending;
    int64_t *due;                /* scratch: (source << 32 | message) due now */
    int *packet_msg;             /* message of packet id first_packet + k */
    int64_t first_packet;
    int npackets, packets_cap;
    int received;
    int64_t last;
} Run;

static int64_t send_time(const FlMessageCosts *c, int flits)
{
    return c->send_startup + c->send_per_flit * flits;
}

/* Starts every send that can start: its source free (its earlier messages
 * started) and its dependency received. */
static void start_sends(Run *r)
{
    for (int h = 0; h < r->hosts; h++) {
        for (; r->next[h] < r->o.off[h + 1] - r->o.off[h]; r->next[h]++) {
            int i = r->o.list[r->o.off[h] + r->next[h]];
            int64_t ready = r->m[i].after < 0 ? 0 : r->out[r->m[i].after].received;
            if (ready < 0)
                break;
            /* send_free starts at the run's first cycle. */
            int64_t start = ready > r->send_free[h] ? ready : r->send_free[h];
            r->out[i].start = start;
            r->out[i].injected = start + send_time(r->c, r->m[i].flits);
            r->send_free[h] = r->out[i].injected;
            r->pending[r->npending++] = i;
        }
    }
}

static int delivered(FlSim *sim, const FlSimHookInfo *info, void *data)
{
    (void)sim;
    Run *r = data;
    int64_t k = info->packet - r->first_packet;
    if (k < 0 || k >= r->npackets)
        return 0;
    int i = r->packet_msg[k];
    if (--r->outstanding[i] > 0)
        return 0;
    /* The host acts on the last flit from the cycle after it arrived. */
    const FlMessage *m = &r->m[i];
    r->out[i].arrived = info->delivered + 1;
    int64_t begin = r->out[i].arrived > r->recv_free[m->dst] ? r->out[i].arrived
                                                               : r->recv_free[m->dst];
    r->out[i].received = begin + r->c->recv_startup + r->c->recv_per_flit * m->flits;
    r->recv_free[m->dst] = r->out[i].received;
    if (r->out[i].received > r->last)
        r->last = r->out[i].received;
    r->received++;
    return 1;   /* sends may start: back to the loop */
}

static int cmp_key(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Hands to the network the packets of every pending message due now, in
 * the order a trace generator makes packets within a cycle: by source
 * host, then in list order, so that fl_message_trace() replays the run
 * with the same packet ids. */
static int inject_due(FlSim *sim, Run *r, FlError *err)
{
    int64_t now = fl_sim_cycle(sim);
    int due = 0;
    for (int k = 0; k < r->npending;) {
        int i = r->pending[k];
        if (r->out[i].injected != now) {
            k++;
            continue;
        }
        r->due[due++] = (int64_t)r->m[i].src << 32 | i;
        r->pending[k] = r->pending[--r->npending];
    }
    qsort(r->due, (size_t)due, sizeof *r->due, cmp_key);
    for (int k = 0; k < due; k++) {
        int i = (int)(r->due[k] & 0xffffffff);
        int max = r->c->max_packet > 0 ? r->c->max_packet : r->m[i].flits;
        int left = r->m[i].flits;
        r->outstanding[i] = (left + max - 1) / max;
        for (; left > 0; left -= max) {
            int64_t id;
            int rc = fl_sim_inject(sim, r->m[i].src, r->m[i].dst, left < max ? left : max, &id,
                                   err);
            if (rc)
                return rc;
            if (r->npackets == 0)
                r->first_packet = id;
            if (r->npackets == r->packets_cap) {
                int cap = r->packets_cap ? 2 * r->packets_cap : 64;
                int *bigger = realloc(r->packet_msg, sizeof *bigger * (size_t)cap);
                if (!bigger)
                    return fl_error_set(err, FL_ENOMEM, "out of memory");
                r->packet_msg = bigger;
                r->packets_cap = cap;
            }
            /* Packet ids are made in order and the simulator makes no
             * others (rate 0), so an id's offset is its index. */
            r->packet_msg[r->npackets++] = i;
        }
    }
    return FL_OK;
}

/* The most cycles stepped between two calls of the progress function. */
#define PROGRESS_SLICE ((int64_t)1 << 16)

/* The next cycle a pending message is due, or -1. */
static int64_t next_due(const Run *r)
{
    int64_t next = -1;
    for (int k = 0; k < r->npending; k++) {
        int64_t t = r->out[r->pending[k]].injected;
        if (next < 0 || t < next)
            next = t;
    }
    return next;
}

int fl_message_run(FlSim *sim, const FlMessage *m, int n, const FlMessageCosts *c,
                   int64_t max_cycles, FlProgressFunc progress, void *progress_data,
                   FlMessageTimes *out, int64_t *completion, FlError *err)
{
    if (!sim || !c || (n > 0 && !out))
        return fl_error_set(err, FL_EINVAL, "no simulation, costs or output");
    if (c->send_startup < 0 || c->send_per_flit < 0 || c->recv_startup < 0
        || c->recv_per_flit < 0 || c->max_packet < 0)
        return fl_error_set(err, FL_ERANGE, "software costs and the packet size must be >= 0");
    if (fl_sim_config(sim)->traffic.rate > 0)
        return fl_error_set(err, FL_EINVAL, "messages run on a simulation without traffic of "
                            "its own: set its rate to 0");
    Run r = { .m = m, .n = n, .c = c, .out = out, .hosts = fl_sim_hosts(sim) };
    int rc = fl_message_check(m, n, r.hosts, err);
    if (rc)
        return rc;
    int longest = 0;
    for (int i = 0; i < n; i++)
        longest = m[i].flits > longest ? m[i].flits : longest;
    if (n > 0 && (rc = fl_message_costs_check(c, longest, fl_sim_config(sim)->link_cycles_per_flit,
                                              err)))
        return rc;
    r.next = calloc((size_t)r.hosts + 1, sizeof *r.next);
    r.send_free = calloc((size_t)r.hosts + 1, sizeof *r.send_free);
    r.recv_free = calloc((size_t)r.hosts + 1, sizeof *r.recv_free);
    r.outstanding = malloc(sizeof *r.outstanding * (size_t)(n ? n : 1));
    r.pending = malloc(sizeof *r.pending * (size_t)(n ? n : 1));
    r.due = malloc(sizeof *r.due * (size_t)(n ? n : 1));
    if (order_build(m, n, r.hosts, &r.o) || !r.next || !r.send_free || !r.recv_free
        || !r.outstanding || !r.pending || !r.due) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory");
        goto out;
    }
    int64_t t0 = fl_sim_cycle(sim);
    for (int h = 0; h < r.hosts; h++)
        r.send_free[h] = r.recv_free[h] = t0;
    for (int i = 0; i < n; i++) {
        out[i] = (FlMessageTimes){ -1, -1, -1, -1 };
        r.outstanding[i] = -1;
    }
    r.last = t0;
    if ((rc = fl_sim_set_hook(sim, FL_SIM_HOOK_DELIVERED, 0, delivered, &r, err)))
        goto out;
    start_sends(&r);
    while (r.received < n) {
        if ((rc = inject_due(sim, &r, err)))
            break;
        int64_t now = fl_sim_cycle(sim), due = next_due(&r);
        if (max_cycles > 0 && now - t0 >= max_cycles) {
            rc = fl_error_set(err, FL_ERANGE, "the schedule has not finished within %lld "
                              "cycles (%d of %d messages received)", (long long)max_cycles,
                              r.received, n);
            break;
        }
        if (progress && progress(progress_data, (double)r.received / n)) {
            rc = fl_error_set(err, FL_ECANCELLED, "cancelled at cycle %lld with %d of %d "
                              "messages received", (long long)now, r.received, n);
            break;
        }
        /* Until the next send is due, or a receipt lets others start; in
         * slices, so that progress is heard (stepping in pieces simulates
         * the same cycles). */
        int64_t steps = due > now && due - now < PROGRESS_SLICE ? due - now : PROGRESS_SLICE;
        if (max_cycles > 0 && steps > t0 + max_cycles - now)
            steps = t0 + max_cycles - now;
        FlSimStatus st;
        if ((rc = fl_sim_step(sim, steps, &st, err)))
            break;
        if (st == FL_SIM_DEADLOCK) {
            rc = fl_error_set(err, FL_EUNSUPPORTED, "the network deadlocked at cycle %lld "
                              "with %d of %d messages received",
                              (long long)fl_sim_cycle(sim), r.received, n);
            break;
        }
        start_sends(&r);
    }
    fl_sim_set_hook(sim, 0, 0, NULL, NULL, NULL);
    if (!rc && completion)
        *completion = r.last;
out:
    order_free(&r.o);
    free(r.next);
    free(r.send_free);
    free(r.recv_free);
    free(r.outstanding);
    free(r.pending);
    free(r.due);
    free(r.packet_msg);
    return rc;
}

/* --- the model's parameters and a replay ------------------------------------- */

void fl_message_model(const FlMessageCosts *c, int flits, int64_t channel_cycles,
                      int64_t head_latency, int64_t *t_hold, int64_t *t_end)
{
    int64_t send = send_time(c, flits);
    if (t_hold)
        *t_hold = send;
    if (t_end)
        *t_end = send + channel_cycles * flits + c->recv_startup + c->recv_per_flit * flits
                 + head_latency;
}

/* A packet of the replay and its place in message order. */
typedef struct Keyed {
    FlTraceEvent e;
    int64_t pos;
} Keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const Keyed *x = a, *y = b;
    if (x->e.cycle != y->e.cycle)
        return (x->e.cycle > y->e.cycle) - (x->e.cycle < y->e.cycle);
    if (x->e.src != y->e.src)
        return (x->e.src > y->e.src) - (x->e.src < y->e.src);
    return (x->pos > y->pos) - (x->pos < y->pos);
}

int fl_message_trace(const FlMessage *m, int n, const FlMessageCosts *c,
                     const FlMessageTimes *times, FlTraceEvent **events, int64_t *n_events,
                     FlError *err)
{
    *events = NULL;
    *n_events = 0;
    if (n < 0 || (n > 0 && (!m || !c || !times)))
        return fl_error_set(err, FL_EINVAL, "no messages, costs or times");
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (m[i].flits < 1 || times[i].injected < 0)
            return fl_error_set(err, FL_EINVAL, "message %d was not sent: no time to replay", i);
        int max = c->max_packet > 0 ? c->max_packet : m[i].flits;
        total += (m[i].flits + max - 1) / max;
    }
    if (total == 0)
        return FL_OK;
    FlTraceEvent *ev = malloc(sizeof *ev * (size_t)total);
    Keyed *keyed = malloc(sizeof *keyed * (size_t)total);
    if (!ev || !keyed) {
        free(ev);
        free(keyed);
        return fl_error_set(err, FL_ENOMEM, "out of memory for %lld packets", (long long)total);
    }
    int64_t k = 0;
    for (int i = 0; i < n; i++) {
        int max = c->max_packet > 0 ? c->max_packet : m[i].flits;
        for (int left = m[i].flits; left > 0; left -= max, k++)
            keyed[k] = (Keyed){ { times[i].injected, m[i].src, m[i].dst,
                                  left < max ? left : max, 0 }, k };
    }
    /* The run hands packets over by cycle, then source, then message order. */
    qsort(keyed, (size_t)total, sizeof *keyed, cmp_keyed);
    for (k = 0; k < total; k++)
        ev[k] = keyed[k].e;
    free(keyed);
    *events = ev;
    *n_events = total;
    return FL_OK;
}
