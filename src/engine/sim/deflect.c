/* deflect.c — paper 003's deflection (hot-potato) routing model.
 *
 * The paper describes the model in one paragraph (section IV.2); the
 * readings below make it precise where it is silent.
 *
 * Nodes. Each switch is one node and hosts are ignored. A node's outputs
 * are its switch-to-switch channels. Every link is full duplex, so a node
 * has as many inputs as outputs, and the messages that arrive at it in one
 * cycle always find one output each in the next: nothing is ever buffered.
 *
 * Closed system. Every node owns nmsg message slots, and a slot always
 * holds exactly one message, either waiting at its owner (not injected yet)
 * or in transit on a channel. When a message is delivered, its slot at once
 * gets a new message with a uniformly random destination other than the
 * owner, created in the next cycle, which the owner injects in that cycle or
 * a later one. So the system holds nodes * nmsg messages at every moment
 * (checked every cycle) and no node ever holds more than nmsg of its own.
 * The paper lets the receiving node make the new message; with uniform
 * destinations the two readings differ only in where the new message
 * starts, and the paper's reading lets messages pile up without bound at a
 * node whose outputs stay busy.
 *
 * Cycle t, phase one, at every node independently: the candidates are the
 * messages that arrived in cycle t - 1 (all of which must leave now) and the
 * owner's waiting messages created by cycle t. They are sorted by priority.
 * Waiting messages are admitted, in priority order, only into the outputs
 * the arrivals leave over; the others keep waiting. Then, in priority order,
 * every admitted message takes a free output on a shortest path, chosen at
 * random among several (the paper's self-routing picks one "arbitrarily");
 * the messages left without one are deflected, in priority order, to a
 * random free output. The shortest-path outputs are fl_routing_next()'s
 * choices for a packet just injected at the node, so the port a message came
 * in by is allowed: after a deflection, going back is often shortest.
 *
 * Phase two: every message crosses its channel. One that reaches its
 * destination is delivered at the end of cycle t; its delay is t + 1 minus
 * the cycle it was created in, so a message that is never held up or
 * deflected takes exactly its breadth-first distance.
 *
 * Priorities, as sort keys (smaller first): random draws a fresh key for
 * every message every cycle, so a message can lose forever (the paper's
 * livelock); age puts the oldest first and breaks ties by a random key drawn
 * once when the message is made, so the order is total and the oldest
 * message in the network wins at every node it visits, which is what rules
 * livelock out; path_num puts the message with the fewest shortest-path
 * outputs first, ties drawn afresh every cycle like random; age+path_num
 * orders by age, then path count, then the message's fixed key.
 *
 * Statistics. The paper's Figs 7-9 plot, against the cycle, curves that
 * rise and level off ("saturate") as the run goes on, later under heavier
 * load; its average delay for Nmsg = 1 approaches the mean distance, and
 * random priority's maximum delay grows without bound. The delay series are
 * therefore running figures: at cycle t, the largest and the mean delay of
 * every message delivered in cycles 0..t (a per-cycle maximum would not
 * show a livelock growing, and a per-cycle mean jumps about). Throughput is
 * the messages delivered in cycle t alone, per node: it rises while the
 * first messages are under way and levels off once the closed system is in
 * its steady state, and the mean over any window (say the second half of
 * the run) is the throughput of that window.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deflect-internal.h"

/* The routing is checked to be minimal towards this many destinations,
 * spread evenly over the switches. On the symmetric networks of paper 003
 * one would do, and a routing that is not minimal (up* / down*, the turn
 * routings) strays towards most destinations; checking every pair would
 * cost as much as a few hundred cycles of a 36x72 run. */
#define MINIMALITY_SAMPLES 64

/* Progress is reported this many times per run. */
#define PROGRESS_REPORTS 100

/* Lists every switch's outputs. Returns FL_OK or FL_ENOMEM. */
static int build_outputs(FlDeflect *md)
{
    const FlTopology *t = md->t;
    int n = md->n;
    md->out_off = malloc(sizeof *md->out_off * ((size_t)n + 1));
    md->out_chan = malloc(sizeof *md->out_chan * ((size_t)t->n_ports + 1));
    md->out_dst = malloc(sizeof *md->out_dst * ((size_t)t->n_ports + 1));
    md->port_out = malloc(sizeof *md->port_out * ((size_t)t->n_ports + 1));
    if (!md->out_off || !md->out_chan || !md->out_dst || !md->port_out)
        return FL_ENOMEM;
    int k = 0;
    md->max_deg = 0;
    for (int s = 0; s < n; s++) {
        int node = t->switch_nodes[s], base = t->port_base[node];
        md->out_off[s] = k;
        for (int p = 0; p < t->nports[node]; p++) {
            int l = t->port_link[base + p];
            md->port_out[base + p] = -1;
            if (l < 0)
                continue;
            int other = fl__link_other(t, l, node);
            if (t->kind[other] != FL_NODE_SWITCH)
                continue;
            md->port_out[base + p] = k - md->out_off[s];
            md->out_chan[k] = fl__out_channel(t, node, p);
            md->out_dst[k] = t->rank[other];
            k++;
        }
        if (k - md->out_off[s] > md->max_deg)
            md->max_deg = k - md->out_off[s];
    }
    md->out_off[n] = k;
    return FL_OK;
}

/* The shortest-path outputs of switch s towards switch rank dest, as output
 * indices in increasing order, into outs; returns their number. The
 * routing lists choices by increasing port, so a port offered in several VC
 * classes appears in a row and is kept once. */
static int shortest_outputs(FlDeflect *md, int s, int dest, int *outs)
{
    const FlTopology *t = md->t;
    int node = t->switch_nodes[s];
    int nc = fl_routing_next(md->r, node, -1, 0, t->switch_nodes[dest], md->choices,
                             FL_ROUTE_MAX_CHOICES);
    int n = 0;
    for (int i = 0; i < nc; i++) {
        int k = md->port_out[t->port_base[node] + md->choices[i].port];
        if (k >= 0 && (n == 0 || outs[n - 1] != k))
            outs[n++] = k;
    }
    return n;
}

/* Checks that the network is connected and that the routing only offers
 * shortest-path outputs, towards a sample of destinations. */
static int check_routing(FlDeflect *md, FlError *err)
{
    const FlTopology *t = md->t;
    const char *name = fl_routing_get_info(md->r)->name;
    int n = md->n, rc = FL_OK;
    FlSwitchGraph g = { n, md->out_off, md->out_dst };
    int *dist = malloc(sizeof *dist * 2 * (size_t)n);
    int *outs = malloc(sizeof *outs * ((size_t)md->max_deg + 1));
    if (!dist || !outs) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the routing check");
        goto free_scratch;
    }
    int samples = n < MINIMALITY_SAMPLES ? n : MINIMALITY_SAMPLES;
    for (int i = 0; i < samples && !rc; i++) {
        int d = (int)((int64_t)i * n / samples);
        fl__switch_graph_bfs(&g, d, dist, dist + n);
        for (int s = 0; s < n && !rc; s++) {
            if (s == d)
                continue;
            int a = fl_topology_node_label(t, t->switch_nodes[s]);
            int b = fl_topology_node_label(t, t->switch_nodes[d]);
            if (dist[s] < 0) {
                rc = fl_error_set(err, FL_EDISCONNECTED,
                                  "deflection needs a connected network: switch %d cannot "
                                  "reach switch %d", a, b);
                break;
            }
            int no = shortest_outputs(md, s, d, outs);
            if (no == 0)
                rc = fl_error_set(err, FL_EDISCONNECTED,
                                  "routing %s gives switch %d no way to switch %d", name, a, b);
            for (int j = 0; j < no && !rc; j++)
                if (dist[md->out_dst[md->out_off[s] + outs[j]]] != dist[s] - 1)
                    rc = fl_error_set(err, FL_EUNSUPPORTED,
                                      "deflection needs a minimal routing, but %s sends a "
                                      "message at switch %d for switch %d off its shortest "
                                      "paths", name, a, b);
        }
    }
free_scratch:
    free(outs);
    free(dist);
    return rc;
}

/* Puts a new message in slot m, created in cycle born, waiting at its owner
 * for a uniformly random other switch. */
static void new_message(FlDeflect *md, int m, int64_t born)
{
    int owner = m / md->nmsg;
    int d = (int)fl_rng_below(&md->sc.rng, (uint32_t)md->n - 1);
    md->dest[m] = d >= owner ? d + 1 : d;
    md->born[m] = born;
    md->id[m] = md->sc.next_id++;
    md->tie[m] = (uint32_t)(fl_rng_next(&md->sc.rng) >> 32);
    md->chan[m] = -1;
    md->hops[m] = 0;
    md->deflections_of[m] = 0;
    md->waiting[m] = 1;
    md->deflected[m] = 0;
}

/* Carves the per-message arrays out of one block, widest first so that
 * each stays aligned. Returns FL_OK or FL_ENOMEM. */
static int alloc_messages(FlDeflect *md)
{
    size_t nm = (size_t)md->n_msgs;
    md->msg_bytes = nm * (2 * sizeof(int64_t) + 2 * sizeof(int) + sizeof(uint32_t)
                          + 2 * sizeof(int32_t) + 2);
    char *p = md->msg_block = malloc(md->msg_bytes);
    if (!p)
        return FL_ENOMEM;
    md->born = (int64_t *)(void *)p;
    md->id = md->born + nm;
    md->dest = (int *)(void *)(md->id + nm);
    md->tie = (uint32_t *)(void *)(md->dest + nm);
    md->chan = (int *)(void *)(md->tie + nm);
    md->hops = (int32_t *)(void *)(md->chan + nm);
    md->deflections_of = md->hops + nm;
    md->waiting = (uint8_t *)(void *)(md->deflections_of + nm);
    md->deflected = md->waiting + nm;
    return FL_OK;
}

static int model_init(FlDeflect *md, const FlTopology *t, const FlDeflectConfig *cfg,
                      FlError *err)
{
    md->t = t;
    md->r = cfg->routing;
    md->priority = cfg->priority;
    md->n = t->n_switches;
    md->nmsg = cfg->nmsg;
    md->n_msgs = md->n * cfg->nmsg;
    fl_rng_seed(&md->sc.rng, cfg->seed);
    if (build_outputs(md))
        return fl_error_set(err, FL_ENOMEM, "out of memory for the switch outputs");

    size_t nch = md->n_chan = 2 * (size_t)t->n_links + 1;
    size_t ncand = (size_t)md->max_deg + (size_t)md->nmsg;
    md->on_chan = malloc(sizeof *md->on_chan * nch);
    md->next_chan = malloc(sizeof *md->next_chan * nch);
    md->cand = malloc(sizeof *md->cand * ncand);
    md->cand_outs = malloc(sizeof *md->cand_outs * ncand * ((size_t)md->max_deg + 1));
    md->losers = malloc(sizeof *md->losers * ncand);
    md->taken = malloc((size_t)md->max_deg + 1);
    md->choices = malloc(sizeof *md->choices * FL_ROUTE_MAX_CHOICES);
    if (alloc_messages(md) || !md->on_chan || !md->next_chan || !md->cand || !md->cand_outs
        || !md->losers || !md->taken || !md->choices)
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d messages", md->n_msgs);
    for (size_t c = 0; c < nch; c++)
        md->on_chan[c] = md->next_chan[c] = -1;
    for (size_t i = 0; i < ncand; i++)
        md->cand[i].outs = md->cand_outs + i * ((size_t)md->max_deg + 1);

    int rc = check_routing(md, err);
    if (rc)
        return rc;
    for (int m = 0; m < md->n_msgs; m++)
        new_message(md, m, 0);
    return FL_OK;
}

static int uses_path_num(FlDeflectPriority p)
{
    return p == FL_PRIORITY_PATH_NUM || p == FL_PRIORITY_AGE_PATH_NUM;
}

/* The sort key of a candidate (see the top of the file). Path counts are at
 * most FL_MAX_PORTS, nine bits; ages fit in 32 bits (FL__DEFLECT_MAX_CYCLES). */
static uint64_t priority_key(FlDeflect *md, const DeflectCandidate *c)
{
    uint64_t age = (uint64_t)md->born[c->msg], paths = (uint64_t)c->nout;
    switch (md->priority) {
    case FL_PRIORITY_RANDOM:
        return fl_rng_next(&md->sc.rng);
    case FL_PRIORITY_AGE:
        return age << 32 | md->tie[c->msg];
    case FL_PRIORITY_PATH_NUM:
        return paths << 48 | fl_rng_next(&md->sc.rng) >> 16;
    case FL_PRIORITY_AGE_PATH_NUM:
        return age << 32 | paths << 23 | md->tie[c->msg] >> 9;
    }
    return 0;
}

/* Insertion sort by key: a node has a handful of candidates. */
static void sort_candidates(DeflectCandidate *c, int n)
{
    for (int i = 1; i < n; i++) {
        DeflectCandidate x = c[i];
        int j = i;
        for (; j > 0 && c[j - 1].key > x.key; j--)
            c[j] = c[j - 1];
        c[j] = x;
    }
}

/* A random free output among outs[0 .. n), or among all n outputs of the
 * node when outs is NULL; -1 when every one is taken. */
static int pick_free(FlDeflect *md, const int *outs, int n)
{
    int nfree = 0;
    for (int i = 0; i < n; i++)
        nfree += !md->taken[outs ? outs[i] : i];
    if (nfree == 0)
        return -1;
    int pick = nfree == 1 ? 0 : (int)fl_rng_below(&md->sc.rng, (uint32_t)nfree);
    for (int i = 0;; i++) {
        int k = outs ? outs[i] : i;
        if (!md->taken[k] && pick-- == 0)
            return k;
    }
}

/* Sends message m from switch s by output k in cycle t, deflected or not;
 * a message that reaches its destination is delivered and its slot
 * refilled. */
static void send(FlDeflect *md, int s, int k, int m, int64_t t, int deflected)
{
    int o = md->out_off[s] + k;
    md->taken[k] = 1;
    md->waiting[m] = 0;
    if (md->out_dst[o] != md->dest[m]) {
        md->next_chan[md->out_chan[o]] = m;
        md->chan[m] = md->out_chan[o];
        md->hops[m]++;
        md->deflected[m] = (uint8_t)deflected;
        md->deflections_of[m] += deflected;
        return;
    }
    int64_t delay = t + 1 - md->born[m];
    md->sc.delivered++;
    md->sc.delay_sum += delay;
    if (delay > md->sc.delay_max)
        md->sc.delay_max = delay;
    new_message(md, m, t + 1);
}

/* Phase one at switch s in cycle t. Returns the number of messages found
 * there (arrivals and the owner's waiting ones), for the conservation
 * check. */
static int node_step(FlDeflect *md, int s, int64_t t)
{
    int o0 = md->out_off[s], deg = md->out_off[s + 1] - o0;
    int nc = 0, arrivals = 0, own = 0;
    DeflectCandidate *cand = md->cand;
    for (int k = 0; k < deg; k++) {
        int in = md->out_chan[o0 + k] ^ 1, m = md->on_chan[in];
        if (m < 0)
            continue;
        md->on_chan[in] = -1;
        cand[nc].msg = m;
        cand[nc++].transit = 1;
        arrivals++;
    }
    int room = deg - arrivals;
    for (int m = s * md->nmsg; m < (s + 1) * md->nmsg; m++) {
        if (!md->waiting[m] || md->born[m] > t)
            continue;
        own++;
        if (room > 0) {
            cand[nc].msg = m;
            cand[nc++].transit = 0;
        }
    }
    if (nc == 0)
        return own;

    int paths = uses_path_num(md->priority);
    for (int i = 0; i < nc; i++) {
        cand[i].nout = paths ? shortest_outputs(md, s, md->dest[cand[i].msg], cand[i].outs) : -1;
        cand[i].key = priority_key(md, &cand[i]);
    }
    sort_candidates(cand, nc);

    /* Every arrival stays; waiting messages only while room is left.
     * Swapping rather than copying keeps each candidate's outs buffer its
     * own. */
    int na = 0;
    for (int i = 0; i < nc; i++)
        if (cand[i].transit || room-- > 0) {
            DeflectCandidate x = cand[na];
            cand[na++] = cand[i];
            cand[i] = x;
        }

    memset(md->taken, 0, (size_t)deg);
    int nlose = 0;
    for (int i = 0; i < na; i++) {
        DeflectCandidate *c = &cand[i];
        if (c->nout < 0)
            c->nout = shortest_outputs(md, s, md->dest[c->msg], c->outs);
        int k = pick_free(md, c->outs, c->nout);
        if (k < 0)
            md->losers[nlose++] = i;
        else
            send(md, s, k, c->msg, t, 0);
    }
    for (int i = 0; i < nlose; i++) {
        send(md, s, pick_free(md, NULL, deg), cand[md->losers[i]].msg, t, 1);
        md->sc.deflections++;
    }
    return arrivals + own;
}

/* Simulates cycle sc.cycle: phase one at every node, then phase two (the
 * channels' roles swap). */
static int one_cycle(FlDeflect *md, FlError *err)
{
    int64_t c = md->sc.cycle, seen = 0;
    for (int s = 0; s < md->n; s++)
        seen += node_step(md, s, c);
    /* Every slot holds one message, waiting or arriving somewhere: a count
     * that differs means a message was overwritten or doubled. */
    if (seen != md->n_msgs)
        return fl_error_set(err, FL_EINVAL,
                            "deflection lost track of messages at cycle %lld: %lld found, "
                            "%d expected", (long long)c, (long long)seen, md->n_msgs);
    int *swap = md->on_chan;
    md->on_chan = md->next_chan;
    md->next_chan = swap;
    md->sc.cycle++;
    return FL_OK;
}

/* Checks the configuration; the run length too when run is set. */
static int check_config(const FlTopology *t, const FlDeflectConfig *cfg, int run, FlError *err)
{
    if (!cfg->routing)
        return fl_error_set(err, FL_EINVAL,
                            "deflection needs a minimal routing (xmesh, dmesh, shortest, dor)");
    if (fl_routing_topology(cfg->routing) != t)
        return fl_error_set(err, FL_EINVAL, "the routing was built for another network");
    if (cfg->nmsg < 1 || cfg->nmsg > FL_MAX_PORTS)
        return fl_error_set(err, FL_ERANGE,
                            "nmsg must be between 1 and %d messages per node, got %d",
                            FL_MAX_PORTS, cfg->nmsg);
    if ((int)cfg->priority < FL_PRIORITY_RANDOM || cfg->priority > FL_PRIORITY_AGE_PATH_NUM)
        return fl_error_set(err, FL_EINVAL, "unknown deflection priority %d", (int)cfg->priority);
    if (run && (cfg->cycles < 1 || cfg->cycles > FL__DEFLECT_MAX_CYCLES))
        return fl_error_set(err, FL_ERANGE, "cycles must be between 1 and %lld, got %lld",
                            FL__DEFLECT_MAX_CYCLES, (long long)cfg->cycles);
    if (t->n_switches < 2)
        return fl_error_set(err, FL_EUNSUPPORTED,
                            "deflection needs at least two switches, the network has %d",
                            t->n_switches);
    if ((int64_t)t->n_switches * cfg->nmsg > INT32_MAX)
        return fl_error_set(err, FL_ERANGE, "%d switches with %d messages each are too many",
                            t->n_switches, cfg->nmsg);
    return FL_OK;
}

void fl_deflect_free(FlDeflect *md)
{
    if (!md)
        return;
    free(md->out_off);
    free(md->out_chan);
    free(md->out_dst);
    free(md->port_out);
    free(md->msg_block);
    free(md->on_chan);
    free(md->next_chan);
    free(md->cand);
    free(md->cand_outs);
    free(md->losers);
    free(md->taken);
    free(md->choices);
    free(md);
}

int fl_deflect_new(const FlTopology *t, const FlDeflectConfig *cfg, FlDeflect **out,
                   FlError *err)
{
    if (!t || !cfg || !out)
        return fl_error_set(err, FL_EINVAL, "no network, configuration or place for the model");
    int rc = check_config(t, cfg, 0, err);
    if (rc)
        return rc;
    FlDeflect *md = calloc(1, sizeof *md);
    if (!md)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the deflection model");
    rc = model_init(md, t, cfg, err);
    if (rc) {
        fl_deflect_free(md);
        return rc;
    }
    *out = md;
    return FL_OK;
}

int fl_deflect_step(FlDeflect *md, int64_t n, FlError *err)
{
    if (!md)
        return fl_error_set(err, FL_EINVAL, "no deflection model");
    if (n < 0)
        return fl_error_set(err, FL_EINVAL, "cannot step a negative number of cycles (%lld)",
                            (long long)n);
    if (n > FL__DEFLECT_MAX_CYCLES - md->sc.cycle)
        return fl_error_set(err, FL_ERANGE,
                            "deflection simulates at most %lld cycles: %lld more from cycle "
                            "%lld go past it", FL__DEFLECT_MAX_CYCLES, (long long)n,
                            (long long)md->sc.cycle);
    for (int64_t i = 0; i < n; i++) {
        int rc = one_cycle(md, err);
        if (rc)
            return rc;
    }
    return FL_OK;
}

int64_t fl_deflect_cycle(const FlDeflect *md)
{
    return md ? md->sc.cycle : 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int fl_deflect_run(const FlTopology *t, const FlDeflectConfig *cfg, FlDeflectResult *res,
                   FlProgressFunc progress, void *progress_data, FlError *err)
{
    if (!t || !cfg || !res)
        return fl_error_set(err, FL_EINVAL, "no network, configuration or result");
    int rc = check_config(t, cfg, 1, err);
    if (rc)
        return rc;
    double start = now_seconds();
    int64_t cycles = cfg->cycles;
    double *max_delay = malloc(sizeof *max_delay * (size_t)cycles);
    double *avg_delay = malloc(sizeof *avg_delay * (size_t)cycles);
    double *thr = malloc(sizeof *thr * (size_t)cycles);
    FlDeflect *md = NULL;
    rc = fl_deflect_new(t, cfg, &md, err);
    if (!rc && (!max_delay || !avg_delay || !thr))
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for %lld cycles of time series",
                          (long long)cycles);
    if (rc)
        goto free_model;

    int64_t every = cycles / PROGRESS_REPORTS > 0 ? cycles / PROGRESS_REPORTS : 1;
    int64_t delivered_before = 0;
    FlDeflectStats st;
    for (int64_t c = 0; c < cycles; c++) {
        rc = one_cycle(md, err);
        if (rc)
            goto free_model;
        fl_deflect_stats(md, &st);
        max_delay[c] = st.max_delay;
        avg_delay[c] = st.avg_delay;
        thr[c] = (double)(st.delivered - delivered_before) / md->n;
        delivered_before = st.delivered;
        if (progress && ((c + 1) % every == 0 || c + 1 == cycles)
            && progress(progress_data, (double)(c + 1) / (double)cycles)) {
            rc = fl_error_set(err, FL_ECANCELLED, "deflection run cancelled at cycle %lld",
                              (long long)(c + 1));
            goto free_model;
        }
    }

    memset(res, 0, sizeof *res);
    res->cycles = cycles;
    res->max_delay = max_delay;
    res->avg_delay = avg_delay;
    res->throughput = thr;
    res->delivered = st.delivered;
    res->deflections = st.deflections;
    res->wall_s = now_seconds() - start;
    max_delay = avg_delay = thr = NULL;
free_model:
    fl_deflect_free(md);
    free(max_delay);
    free(avg_delay);
    free(thr);
    return rc;
}

void fl_deflect_result_clear(FlDeflectResult *res)
{
    if (!res)
        return;
    free(res->max_delay);
    free(res->avg_delay);
    free(res->throughput);
    memset(res, 0, sizeof *res);
}
