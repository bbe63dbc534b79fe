/* analysis-paths.c — routes between switches: the one the selection function
 * takes, every one the routing allows, and the statistics of the selected
 * routes between all pairs (connectivity, hop counts, channel loads).
 *
 * All-pairs statistics would cost a route trace per pair, S^2 times the
 * route length. But with a deterministic selection the next state depends
 * only on the current state and the destination, so per destination the
 * selected routes form a forest over the states: each state's remaining hop
 * count is one more than its successor's, and the traffic through a state is
 * the sum over its predecessors. Both are computed once per (state,
 * destination), which makes a 64x64 mesh a matter of a second.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis-internal.h"
#include "route-table.h"

/* Enough for any path search a person waits for; a search that runs out
 * says so through *truncated. */
#define ALL_PATHS_STEP_BUDGET (1 << 24)

static int check_switch(const FlTopology *t, int node, int is_dest, FlError *err)
{
    if ((node < 0 || node >= t->n_nodes) && is_dest)
        return fl_error_set(err, FL_ERANGE, "destination %d is out of range (nodes 0 to %d)",
                            node, t->n_nodes - 1);
    if (node < 0 || node >= t->n_nodes)
        return fl_error_set(err, FL_ERANGE, "source %d is out of range (nodes 0 to %d)", node,
                            t->n_nodes - 1);
    if (t->kind[node] != FL_NODE_SWITCH)
        return is_dest ? fl_error_set(err, FL_ERANGE, "destination %d is a host, not a switch",
                                      node)
                       : fl_error_set(err, FL_ERANGE, "source %d is a host, not a switch", node);
    return FL_OK;
}

static int check_pair(const FlRouting *r, int src, int dst, FlError *err)
{
    int rc = check_switch(r->t, src, 0, err);
    return rc ? rc : check_switch(r->t, dst, 1, err);
}

static int route_error(const FlRouting *r, int src, int dst, FlError *err, const char *why,
                       int at)
{
    const FlTopology *t = r->t;
    return fl_error_set(err, FL_EDISCONNECTED, "%s: no route from switch %d to switch %d: %s %d",
                        r->algo->info.name, fl_topology_node_label(t, src),
                        fl_topology_node_label(t, dst), why, fl_topology_node_label(t, at));
}

/* ---- the selected route of one pair ------------------------------------ */

int fl_routing_path(const FlRouting *r, int src, int dst, FlSelection how, FlRng *rng,
                    int **channels, int *n, FlError *err)
{
    if (!r || !channels || !n)
        return fl_error_set(err, FL_EINVAL, "no routing or no place for the path");
    int rc = check_pair(r, src, dst, err);
    if (rc)
        return rc;
    const FlTopology *t = r->t;
    FlStateSpace sp;
    rc = fl__state_space(r, &sp, err);
    if (rc)
        return rc;
    int nstates = sp.nstates;
    /* A deterministic selection that comes back to a state loops for ever;
     * a random one may come back by chance, so it gets a hop limit instead. */
    int deterministic = how != FL_SELECT_RANDOM || !rng;
    uint8_t *visited = calloc(nstates > 0 ? (size_t)nstates : 1, 1);
    int cap = 16, len = 0;
    int *list = malloc(sizeof *list * (size_t)cap);
    FlChanInfo *ci = fl__chan_info_new(t);
    FlRouteChoice choices[FL_ROUTE_MAX_CHOICES];
    if (!visited || !list || !ci) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for a path");
        goto fail;
    }
    int sw = src, in = -1, in_class = 0;
    while (sw != dst) {
        int m = fl_routing_next(r, sw, in, in_class, dst, choices, FL_ROUTE_MAX_CHOICES);
        if (m <= 0) {
            rc = route_error(r, src, dst, err, "no legal hop at switch", sw);
            goto fail;
        }
        rc = fl__check_choices(r, ci, sw, dst, choices, m, err);
        if (rc)
            goto fail;
        const FlRouteChoice *pick = &choices[fl_routing_select(choices, m, how, rng, NULL, NULL)];
        int s = fl__state(&sp, pick->channel, pick->vc_class);
        if ((deterministic && visited[s]) || len >= nstates) {
            rc = route_error(r, src, dst, err, "the route loops at switch", sw);
            goto fail;
        }
        visited[s] = 1;
        if (len == cap) {
            int *bigger = realloc(list, sizeof *list * (size_t)cap * 2);
            if (!bigger) {
                rc = fl_error_set(err, FL_ENOMEM, "out of memory for a path");
                goto fail;
            }
            list = bigger;
            cap *= 2;
        }
        list[len++] = pick->channel;
        in = pick->channel;
        in_class = pick->vc_class;
        sw = ci[in].dst;
    }
    free(ci);
    free(visited);
    *channels = list;
    *n = len;
    return FL_OK;
fail:
    free(ci);
    free(visited);
    free(list);
    return rc;
}

/* ---- every path the routing allows ------------------------------------- */

/* The states reachable from src towards dst with their choices, as lists:
 * a state s's successors are targets[first[s] .. first[s] + count[s]),
 * injection's are targets[inj_first .. inj_first + inj_count). */
typedef struct PathGraph {
    FlStateSpace sp;
    int *first, *count;
    int *targets;
    int ntargets, cap;
    int inj_first, inj_count;
    int oom;
} PathGraph;

static void record_choices(void *data, int sw, int in_channel, int in_class, int dest,
                           const FlRouteChoice *choices, int n)
{
    PathGraph *pg = data;
    if (pg->oom)
        return;
    if (pg->ntargets + n > pg->cap) {
        int cap = pg->cap ? pg->cap : 64;
        while (cap < pg->ntargets + n)
            cap *= 2;
        int *bigger = realloc(pg->targets, sizeof *bigger * (size_t)cap);
        if (!bigger) {
            pg->oom = 1;
            return;
        }
        pg->targets = bigger;
        pg->cap = cap;
    }
    if (in_channel < 0) {
        pg->inj_first = pg->ntargets;
        pg->inj_count = n;
    } else {
        int s = fl__state(&pg->sp, in_channel, in_class);
        pg->first[s] = pg->ntargets;
        pg->count[s] = n;
    }
    for (int i = 0; i < n; i++)
        pg->targets[pg->ntargets++] = fl__state(&pg->sp, choices[i].channel,
                                                choices[i].vc_class);
}

/* Marks good[] the reached states from which dst can be reached, by a
 * breadth-first search backwards from the states that arrive there. */
static int mark_good(const FlStateWalk *w, const PathGraph *pg, int dst, uint8_t *good)
{
    int n = w->sp.nstates, rc = FL_OK;
    int *roff = calloc((size_t)n + 1, sizeof *roff);
    int *fill = malloc(sizeof *fill * ((size_t)n + 1));
    int *radj = malloc(sizeof *radj * ((size_t)pg->ntargets + 1));
    int *queue = malloc(sizeof *queue * ((size_t)n + 1));
    if (!roff || !fill || !radj || !queue) {
        rc = FL_ENOMEM;
        goto free_all;
    }
    /* The reversed lists, counted, then filled. */
    for (int i = 0; i < w->nqueued; i++) {
        int s = w->queue[i];
        for (int e = pg->first[s]; e < pg->first[s] + pg->count[s]; e++)
            roff[pg->targets[e] + 1]++;
    }
    for (int s = 0; s < n; s++)
        roff[s + 1] += roff[s];
    memcpy(fill, roff, sizeof *fill * (size_t)n);
    int tail = 0;
    for (int i = 0; i < w->nqueued; i++) {
        int s = w->queue[i];
        for (int e = pg->first[s]; e < pg->first[s] + pg->count[s]; e++)
            radj[fill[pg->targets[e]]++] = s;
        if (w->ci[fl__state_channel(&w->sp, s)].dst == dst) {
            good[s] = 1;
            queue[tail++] = s;
        }
    }
    for (int head = 0; head < tail; head++) {
        int s = queue[head];
        for (int e = roff[s]; e < roff[s + 1]; e++)
            if (!good[radj[e]]) {
                good[radj[e]] = 1;
                queue[tail++] = radj[e];
            }
    }
free_all:
    free(roff);
    free(fill);
    free(radj);
    free(queue);
    return rc;
}

/* The paths found so far: channels of path i at paths[offsets[i] ..
 * offsets[i + 1]). */
typedef struct PathList {
    int *paths, *offsets;
    int npaths, nchannels, cap_paths, cap_channels;
} PathList;

static int path_list_add(PathList *pl, const int *states, int len, const FlStateSpace *sp)
{
    if (pl->npaths + 2 > pl->cap_paths) {
        int cap = pl->cap_paths ? pl->cap_paths * 2 : 16;
        int *bigger = realloc(pl->offsets, sizeof *bigger * (size_t)cap);
        if (!bigger)
            return FL_ENOMEM;
        pl->offsets = bigger;
        pl->cap_paths = cap;
    }
    if (pl->nchannels + len > pl->cap_channels) {
        int cap = pl->cap_channels ? pl->cap_channels : 64;
        while (cap < pl->nchannels + len)
            cap *= 2;
        int *bigger = realloc(pl->paths, sizeof *bigger * (size_t)cap);
        if (!bigger)
            return FL_ENOMEM;
        pl->paths = bigger;
        pl->cap_channels = cap;
    }
    pl->offsets[pl->npaths] = pl->nchannels;
    for (int i = 0; i < len; i++)
        pl->paths[pl->nchannels++] = fl__state_channel(sp, states[i]);
    pl->npaths++;
    pl->offsets[pl->npaths] = pl->nchannels;
    return FL_OK;
}

/* Depth-first over the choices from injection, entering only states that
 * can still reach dst and that the current path does not hold. stack[i] is
 * the state at depth i + 1 and pos[i] where depth i stands in its list. */
static int enumerate_paths(const FlStateWalk *w, const PathGraph *pg, const uint8_t *good,
                           int dst, int max_paths, PathList *pl, int *truncated)
{
    int n = w->sp.nstates;
    int *stack = malloc(sizeof *stack * ((size_t)n + 1));
    int *pos = malloc(sizeof *pos * ((size_t)n + 2));
    int *end = malloc(sizeof *end * ((size_t)n + 2));
    uint8_t *on_path = calloc((size_t)n + 1, 1);
    int rc = FL_OK;
    if (!stack || !pos || !end || !on_path) {
        rc = FL_ENOMEM;
        goto free_all;
    }
    long steps = 0;
    int depth = 0;
    pos[0] = pg->inj_first;
    end[0] = pg->inj_first + pg->inj_count;
    while (depth >= 0) {
        if (pos[depth] == end[depth]) {
            if (depth > 0)
                on_path[stack[depth - 1]] = 0;
            depth--;
            continue;
        }
        int x = pg->targets[pos[depth]++];
        if (!good[x] || on_path[x])
            continue;
        if (++steps > ALL_PATHS_STEP_BUDGET) {
            *truncated = 1;
            break;
        }
        stack[depth] = x;
        if (w->ci[fl__state_channel(&w->sp, x)].dst == dst) {
            if (pl->npaths == max_paths) {
                *truncated = 1;
                break;
            }
            rc = path_list_add(pl, stack, depth + 1, &w->sp);
            if (rc)
                break;
            continue;
        }
        on_path[x] = 1;
        depth++;
        pos[depth] = pg->first[x];
        end[depth] = pg->first[x] + pg->count[x];
    }
free_all:
    free(stack);
    free(pos);
    free(end);
    free(on_path);
    return rc;
}

int fl_routing_all_paths(const FlRouting *r, int src, int dst, int max_paths, int **paths,
                         int **offsets, int *npaths, int *truncated, FlError *err)
{
    if (!r || !paths || !offsets || !npaths || !truncated)
        return fl_error_set(err, FL_EINVAL, "no routing or no place for the paths");
    if (max_paths < 1)
        return fl_error_set(err, FL_ERANGE, "at most %d paths: ask for at least one",
                            max_paths);
    int rc = check_pair(r, src, dst, err);
    if (rc)
        return rc;
    FlStateWalk w;
    rc = fl__walk_init(&w, r, err);
    if (rc)
        return rc;
    PathGraph pg = { .sp = w.sp };
    PathList pl = { 0 };
    uint8_t *good = NULL;
    int found_truncated = 0;
    pg.first = calloc((size_t)w.sp.nstates + 1, sizeof *pg.first);
    pg.count = calloc((size_t)w.sp.nstates + 1, sizeof *pg.count);
    good = calloc((size_t)w.sp.nstates + 1, 1);
    if (!pg.first || !pg.count || !good)
        goto oom;
    if (src == dst) {
        /* The packet is already there: one path of no hops. */
        if (path_list_add(&pl, NULL, 0, &w.sp))
            goto oom;
        goto done;
    }
    rc = fl__walk_dest(&w, src, dst, NULL, record_choices, &pg, err);
    if (rc)
        goto fail;
    if (pg.oom || mark_good(&w, &pg, dst, good)
        || enumerate_paths(&w, &pg, good, dst, max_paths, &pl, &found_truncated))
        goto oom;
    if (pl.npaths == 0) {
        rc = fl_error_set(err, FL_EDISCONNECTED, "%s: no route from switch %d to switch %d",
                          r->algo->info.name, fl_topology_node_label(r->t, src),
                          fl_topology_node_label(r->t, dst));
        goto fail;
    }
done:
    /* An empty path list is still a list the caller frees. */
    if (!pl.paths && !(pl.paths = malloc(sizeof(int))))
        goto oom;
    *paths = pl.paths;
    *offsets = pl.offsets;
    *npaths = pl.npaths;
    *truncated = found_truncated;
    free(pg.first);
    free(pg.count);
    free(pg.targets);
    free(good);
    fl__walk_free(&w);
    return FL_OK;
oom:
    rc = fl_error_set(err, FL_ENOMEM, "out of memory listing paths");
fail:
    free(pl.paths);
    free(pl.offsets);
    free(pg.first);
    free(pg.count);
    free(pg.targets);
    free(good);
    fl__walk_free(&w);
    return rc;
}

/* ---- statistics of the selected routes between all pairs --------------- */

/* Per-destination memo over the states. len[s] is the number of hops from
 * entering state s to arriving (1 when s's channel arrives at the
 * destination), OPEN while its chain is being followed, NO_ROUTE when the
 * chain dead-ends or loops. */
enum { OPEN = 0, NO_ROUTE = -1 };

typedef struct Stats {
    const FlRouting *r;
    FlStateSpace sp;
    FlChanInfo *ci;
    int round;
    int *seen, *len, *succ;
    int64_t *through;   /* pairs whose selected route passes through the state */
    int *stack;
    int *touched, ntouched;  /* states with a route this round */
    int *order, *bucket;
    int64_t *load;      /* per channel */
    const FlStepBits *mark;  /* dependencies to mark, or NULL */
    int several;        /* some state met had more than one choice */
    FlRouteChoice choices[FL_ROUTE_MAX_CHOICES];
} Stats;

static void stats_free(Stats *st)
{
    free(st->seen);
    free(st->len);
    free(st->succ);
    free(st->through);
    free(st->stack);
    free(st->touched);
    free(st->order);
    free(st->bucket);
    free(st->load);
    free(st->ci);
}

static int stats_init(Stats *st, const FlRouting *r, FlError *err)
{
    memset(st, 0, sizeof *st);
    st->r = r;
    int rc = fl__state_space(r, &st->sp, err);
    if (rc)
        return rc;
    int channels = 2 * r->t->n_links;
    size_t n = (size_t)st->sp.nstates + 2;
    st->seen = calloc(n, sizeof *st->seen);
    st->len = malloc(n * sizeof *st->len);
    st->succ = malloc(n * sizeof *st->succ);
    st->through = malloc(n * sizeof *st->through);
    st->stack = malloc(n * sizeof *st->stack);
    st->touched = malloc(n * sizeof *st->touched);
    st->order = malloc(n * sizeof *st->order);
    st->bucket = malloc(n * sizeof *st->bucket);
    st->load = calloc((size_t)channels + 1, sizeof *st->load);
    st->ci = fl__chan_info_new(r->t);
    if (!st->ci || !st->seen || !st->len || !st->succ || !st->through || !st->stack || !st->touched
        || !st->order || !st->bucket || !st->load) {
        stats_free(st);
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d routing states",
                            st->sp.nstates);
    }
    return FL_OK;
}

/* The selected next state at switch sw (in_channel -1 for injection), or
 * NO_ROUTE. */
/* The selected next state at switch sw (!= dest; in_channel -1 for
 * injection), or NO_ROUTE. Called for every state of every destination, so
 * it goes to the algorithm directly and asks the selection function only
 * when there is a choice to make. */
static int select_next(Stats *st, int sw, int in_channel, int in_class, int dest, int *next,
                       FlError *err)
{
    const FlRouting *r = st->r;
    int m = r->algo->next(r, sw, in_channel, in_class, dest, st->choices,
                          FL_ROUTE_MAX_CHOICES);
    if (m <= 0) {
        *next = NO_ROUTE;
        return FL_OK;
    }
    if (m > FL_ROUTE_MAX_CHOICES)
        m = FL_ROUTE_MAX_CHOICES;
    int rc = fl__check_choices(r, st->ci, sw, dest, st->choices, m, err);
    if (rc)
        return rc;
    if (st->mark && in_channel >= 0)
        fl__mark_steps(st->mark, fl__state(&st->sp, in_channel, in_class), st->choices, m);
    st->several |= m > 1;
    int i = m == 1 ? 0
                   : fl_routing_select(st->choices, m, FL_SELECT_LOWEST_PORT, NULL, NULL, NULL);
    *next = fl__state(&st->sp, st->choices[i].channel, st->choices[i].vc_class);
    return FL_OK;
}

/* Follows the selected route from state s0 until it meets a state whose
 * length is known (or arrives, dead-ends or loops), then fills in the
 * lengths back along the chain. *hops gets s0's length or NO_ROUTE. */
static int resolve(Stats *st, int s0, int dest, int *hops, FlError *err)
{
    int top = 0, cur = s0, result;
    for (;;) {
        if (st->seen[cur] == st->round) {
            result = st->len[cur] > 0 ? st->len[cur] : NO_ROUTE; /* OPEN: a loop */
            break;
        }
        st->seen[cur] = st->round;
        st->through[cur] = 0;
        int c = fl__state_channel(&st->sp, cur), at = st->ci[c].dst;
        if (at == dest) {
            st->len[cur] = result = 1;
            st->touched[st->ntouched++] = cur;
            break;
        }
        int nxt;
        int rc = select_next(st, at, c, fl__state_class(&st->sp, cur), dest, &nxt, err);
        if (rc)
            return rc;
        if (nxt == NO_ROUTE) {
            st->len[cur] = result = NO_ROUTE;
            break;
        }
        st->len[cur] = OPEN;
        st->succ[cur] = nxt;
        st->stack[top++] = cur;
        cur = nxt;
    }
    while (top > 0) {
        int s = st->stack[--top];
        if (result > 0) {
            st->len[s] = ++result;
            st->touched[st->ntouched++] = s;
        } else {
            st->len[s] = NO_ROUTE;
        }
    }
    *hops = result;
    return FL_OK;
}

/* Adds this destination's traffic to the channel loads: states in order of
 * decreasing length (a counting sort), each passing its traffic on to its
 * successor, which is one hop shorter. */
static void spread_load(Stats *st)
{
    int maxlen = 0;
    for (int i = 0; i < st->ntouched; i++)
        if (st->len[st->touched[i]] > maxlen)
            maxlen = st->len[st->touched[i]];
    memset(st->bucket, 0, sizeof *st->bucket * ((size_t)maxlen + 2));
    for (int i = 0; i < st->ntouched; i++)
        st->bucket[maxlen - st->len[st->touched[i]] + 1]++;
    for (int b = 1; b <= maxlen + 1; b++)
        st->bucket[b] += st->bucket[b - 1];
    for (int i = 0; i < st->ntouched; i++) {
        int s = st->touched[i];
        st->order[st->bucket[maxlen - st->len[s]]++] = s;
    }
    for (int i = 0; i < st->ntouched; i++) {
        int s = st->order[i];
        st->load[fl__state_channel(&st->sp, s)] += st->through[s];
        if (st->len[s] > 1)
            st->through[st->succ[s]] += st->through[s];
    }
}

/* The number of bits set in x. */
static inline int bit_count(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    return (int)((x * 0x0101010101010101u) >> 56);
}

/* The sum of the breadth-first distances between every ordered pair of
 * connected switches, by searching from 64 sources at once, one bit per
 * source (Then et al., "The more the merrier", VLDB 2014): a switch that
 * several sources reach at the same distance is expanded once for all of
 * them, which on a network of small diameter is most of them (a 4096-switch
 * irregular network). Where sources share little (a large mesh, whose
 * distances spread), the bit operations cost more than they save, and once
 * a batch shows it the other sources are searched one at a time. -1 when
 * out of memory. */
static int64_t distance_sum(const FlSwitchGraph *g)
{
    int n = g->n;
    FlBfs64 b;
    int64_t sum = -1;
    if (fl__bfs64_alloc(&b, n))
        goto free_all;
    sum = 0;
    int base = 0;
    for (int64_t work = 0; base < n && 2 * work <= (int64_t)64 * g->off[n]; base += 64) {
        int width = n - base < 64 ? n - base : 64;
        work = 0;
        fl__bfs64_start(&b, n);
        for (int j = 0; j < width; j++) {
            b.seen[base + j] = b.frontier[base + j] = (uint64_t)1 << j;
            b.cur[b.ncur++] = base + j;
        }
        for (int64_t level = 1; fl__bfs64_level(&b, g->off, g->adj, &work) > 0; level++)
            for (int i = 0; i < b.ncur; i++)
                sum += level * bit_count(b.frontier[b.cur[i]]);
    }
    /* The rest one source at a time, in the arrays no longer needed. */
    for (int src = base; src < n; src++) {
        int *dist = b.cur, *queue = b.touched;
        int reached = fl__switch_graph_bfs(g, src, dist, queue);
        for (int i = 0; i < reached; i++)
            sum += dist[queue[i]];
    }
free_all:
    fl__bfs64_free(&b);
    return sum;
}

/* What the statistics add up over every pair. bfs_hops starts at the sum
 * over every connected pair, and a pair found unroutable takes its distance
 * off again: the destination's distances are found then, once, so a
 * routing that routes every pair needs no search per destination. */
typedef struct Totals {
    int64_t pairs, hops, bfs_hops;
    int max_hops;
    int bad_src, bad_dst;
    const FlSwitchGraph *g;
    int *dist, *queue;   /* n_switches each: the distances from dist_of */
    int dist_of;         /* the destination rank dist holds, or -1 */
} Totals;

/* Sets up the totals of r over the switch graph g; FL_ENOMEM when out of
 * memory. totals_free() frees them either way. */
static int totals_init(Totals *tot, const FlRouting *r, const FlSwitchGraph *g)
{
    const FlTopology *t = r->t;
    memset(tot, 0, sizeof *tot);
    tot->bad_src = tot->bad_dst = -1;
    tot->g = g;
    tot->dist_of = -1;
    tot->dist = malloc(sizeof *tot->dist * ((size_t)t->n_switches + 1));
    tot->queue = malloc(sizeof *tot->queue * ((size_t)t->n_switches + 1));
    tot->bfs_hops = r->distance_sum >= 0 ? r->distance_sum : distance_sum(g);
    return tot->dist && tot->queue && tot->bfs_hops >= 0 ? FL_OK : FL_ENOMEM;
}

static void totals_free(Totals *tot)
{
    free(tot->dist);
    free(tot->queue);
}

/* The pair from the switch of rank si to that of rank di has no route. */
static void note_unroutable(Totals *tot, const FlTopology *t, int si, int di)
{
    int src = t->switch_nodes[si], dst = t->switch_nodes[di];
    if (tot->bad_src < 0 || src < tot->bad_src || (src == tot->bad_src && dst < tot->bad_dst)) {
        tot->bad_src = src;
        tot->bad_dst = dst;
    }
    if (tot->dist_of != di) {
        fl__switch_graph_bfs(tot->g, di, tot->dist, tot->queue);
        tot->dist_of = di;
    }
    if (tot->dist[si] > 0)
        tot->bfs_hops -= tot->dist[si];
}

/* Every source's selected route towards the switch of rank di. */
static int one_destination(Stats *st, int di, Totals *tot, FlError *err)
{
    const FlTopology *t = st->r->t;
    int dest = t->switch_nodes[di];
    st->round++;
    st->ntouched = 0;
    for (int si = 0; si < t->n_switches; si++) {
        int src = t->switch_nodes[si];
        if (src == dest)
            continue;
        int s0, hops = NO_ROUTE;
        int rc = select_next(st, src, -1, 0, dest, &s0, err);
        if (!rc && s0 != NO_ROUTE)
            rc = resolve(st, s0, dest, &hops, err);
        if (rc)
            return rc;
        if (hops == NO_ROUTE) {
            note_unroutable(tot, t, si, di);
            continue;
        }
        st->through[s0]++;
        tot->pairs++;
        tot->hops += hops;
        if (hops > tot->max_hops)
            tot->max_hops = hops;
    }
    spread_load(st);
    return FL_OK;
}

/* Fills rep from the totals and the per-channel loads (indexed by channel
 * id) of every destination. */
static void report_totals(const FlTopology *t, const Totals *tot, const int64_t *load,
                          FlRoutingReport *rep)
{
    rep->connected = tot->bad_src < 0;
    rep->unroutable_src = tot->bad_src;
    rep->unroutable_dst = tot->bad_dst;
    rep->avg_hops = tot->pairs ? (double)tot->hops / (double)tot->pairs : 0.0;
    rep->bfs_avg_hops = tot->pairs ? (double)tot->bfs_hops / (double)tot->pairs : 0.0;
    rep->max_hops = tot->max_hops;
    rep->stretch = tot->bfs_hops ? (double)tot->hops / (double)tot->bfs_hops : 1.0;

    int64_t max_load = 0, sum_load = 0, nchan = 0;
    for (int l = 0; l < t->n_links; l++) {
        const int *e = t->link_end + 4 * l;
        if (t->kind[e[0]] != FL_NODE_SWITCH || t->kind[e[2]] != FL_NODE_SWITCH)
            continue;
        for (int c = 2 * l; c <= 2 * l + 1; c++) {
            sum_load += load[c];
            if (load[c] > max_load)
                max_load = load[c];
        }
        nchan += 2;
    }
    rep->max_channel_load = (double)max_load;
    rep->mean_channel_load = nchan ? (double)sum_load / (double)nchan : 0.0;
    /* Each switch sends lambda flits per cycle, lambda / (S - 1) to each of
     * the others; the busiest channel carries max_load such shares and can
     * take one flit per cycle, so lambda <= (S - 1) / max_load. */
    rep->throughput_bound = max_load ? (double)(t->n_switches - 1) / (double)max_load : 0.0;
}

static int route_stats_walk(const FlRouting *r, FlRoutingReport *rep, FlCdg *cdg,
                            FlError *err)
{
    const FlTopology *t = r->t;
    Stats st;
    int rc = stats_init(&st, r, err);
    if (rc)
        return rc;
    st.mark = fl__cdg_marks(cdg);
    FlSwitchGraph g = { 0 };
    Totals tot = { 0 };
    if (fl__switch_graph_build(t, &g) || totals_init(&tot, r, &g)) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for switch distances");
        goto free_all;
    }
    for (int di = 0; di < t->n_switches && !rc; di++)
        rc = one_destination(&st, di, &tot, err);
    if (!rc)
        report_totals(t, &tot, st.load, rep);
    /* With one choice everywhere, the selected routes are every route. */
    if (!rc && !st.several)
        fl__cdg_set_complete(cdg);
free_all:
    totals_free(&tot);
    fl__switch_graph_free(&g);
    stats_free(&st);
    return rc;
}

/* ---- the same statistics of a table routing, read off its table -------- */

/* A table routing selects, at a source, the lowest port among those whose
 * channel is nearest the destination, and after a channel at distance h
 * its first allowed continuation (they come in port order) at distance
 * h - 1; a route's hop count is its first channel's distance plus one. So
 * each destination costs one look at every source's ports, then one pass
 * down the channels that carry traffic, farthest first, each passing its
 * traffic to its selected successor: no call to next() and no state walk,
 * with the very figures of the walk above. */
typedef struct TableStats {
    const FlRouteTable *tab;
    int *out_off, *out_chan;  /* per switch rank: its dense channels in port order */
    int *through;             /* per dense channel: pairs routed through it */
    /* The channels with traffic, distance by distance: the sources' first
     * channels (at[]) sorted by distance into sorted[] from start[h], and
     * those that only pass traffic on, listed a distance at a time in
     * passed[] and then in next[]. Read in order rather than chained, so
     * that no read waits for the one before. */
    int *at, *sorted, *start, *passed, *next;
    int *first;               /* per switch rank: its first channel, or -1 */
    /* The table's continuations at a fixed stride, the short lists padded
     * with the channel itself (never a hop nearer than itself), so that
     * finding one is a single read and a loop of fixed length; NULL when
     * the padding would cost much more than the lists (a few switches
     * with many more ports than the rest). */
    int *cont, stride;
    int64_t *dense_load;      /* per dense channel, the smaller array while summing */
    int64_t *load;            /* per channel id, at the end */
} TableStats;

static void table_stats_free(TableStats *ts)
{
    free(ts->out_off);
    free(ts->out_chan);
    free(ts->through);
    free(ts->at);
    free(ts->sorted);
    free(ts->start);
    free(ts->passed);
    free(ts->next);
    free(ts->first);
    free(ts->cont);
    free(ts->dense_load);
    free(ts->load);
}

static int table_stats_init(TableStats *ts, const FlRouteTable *tab)
{
    const FlTopology *t = tab->t;
    size_t n_chan = (size_t)tab->n_chan + 1;
    memset(ts, 0, sizeof *ts);
    ts->tab = tab;
    ts->out_off = malloc(sizeof *ts->out_off * ((size_t)t->n_switches + 1));
    ts->out_chan = malloc(sizeof *ts->out_chan * n_chan);
    ts->through = calloc(n_chan, sizeof *ts->through);
    ts->at = malloc(sizeof *ts->at * n_chan);
    ts->sorted = malloc(sizeof *ts->sorted * n_chan);
    ts->passed = malloc(sizeof *ts->passed * n_chan);
    ts->next = malloc(sizeof *ts->next * n_chan);
    ts->first = malloc(sizeof *ts->first * ((size_t)t->n_switches + 1));
    /* A distance is below the wide mark, FL__TABLE_INF16. */
    ts->start = calloc((size_t)FL__TABLE_INF16 + 2, sizeof *ts->start);
    ts->dense_load = calloc(n_chan, sizeof *ts->dense_load);
    ts->load = calloc(2 * (size_t)t->n_links + 1, sizeof *ts->load);
    if (!ts->out_off || !ts->out_chan || !ts->through || !ts->at || !ts->sorted
        || !ts->passed || !ts->next || !ts->first || !ts->start || !ts->dense_load
        || !ts->load)
        return FL_ENOMEM;
    int k = 0;
    for (int si = 0; si < t->n_switches; si++) {
        int sw = t->switch_nodes[si];
        ts->out_off[si] = k;
        for (int p = 0; p < t->nports[sw]; p++)
            if (fl__switch_port(t, sw, p))
                ts->out_chan[k++] = tab->chan_index[fl__out_channel(t, sw, p)];
    }
    ts->out_off[t->n_switches] = k;
    int n = tab->n_chan;
    for (int i = 0; i < n; i++)
        if (tab->succ_off[i + 1] - tab->succ_off[i] > ts->stride)
            ts->stride = tab->succ_off[i + 1] - tab->succ_off[i];
    if ((int64_t)n * ts->stride <= 2 * ((int64_t)tab->succ_off[n] + n)) {
        ts->cont = malloc(sizeof *ts->cont * ((size_t)n * (size_t)ts->stride + 1));
        if (!ts->cont)
            return FL_ENOMEM;
        for (int i = 0; i < n; i++)
            for (int e = 0; e < ts->stride; e++) {
                int at = tab->succ_off[i] + e;
                ts->cont[(size_t)i * (size_t)ts->stride + (size_t)e] =
                    at < tab->succ_off[i + 1] ? tab->succ[at] : i;
            }
    }
    return FL_OK;
}

/* Entry i of a row of the given width; inlined with a constant width. */
static inline unsigned row_entry(const void *row, int i, int wide)
{
    return wide ? ((const uint16_t *)row)[i] : ((const uint8_t *)row)[i];
}

/* Every source's selected route towards the switch of rank di, as
 * one_destination() finds it. Inlined with a constant width, so that each
 * width gets loops of their own. Which port is nearest and which
 * continuation is the first a hop nearer are random, so they are chosen
 * with selects (conditional moves) rather than branches; scanning the
 * continuations last-first keeps the first. The loads are sums of
 * integers, so the order channels are passed in changes none of them. */
__attribute__((always_inline))
static inline void table_destination(TableStats *ts, int di, Totals *tot, int wide)
{
    const FlRouteTable *tab = ts->tab;
    const FlTopology *t = tab->t;
    const void *row = fl__table_row(tab, di);
    unsigned inf = wide ? FL__TABLE_INF16 : FL__TABLE_INF8, top = 0;
    /* Each pass writes what the next reads in order, so that no store's
     * address waits for a load: the processor then has no reason to hold
     * a later load back behind it. First every source's first channel. */
    for (int si = 0; si < t->n_switches; si++) {
        /* The nearest port, the lowest of equals: the least distance * 256
         * + port index (below FL_MAX_PORTS), a minimum in any order. */
        const int *out = ts->out_chan + ts->out_off[si];
        uint32_t key = (uint32_t)inf << 8;
        for (int k = 0; k < ts->out_off[si + 1] - ts->out_off[si]; k++) {
            uint32_t kk = (uint32_t)row_entry(row, out[k], wide) << 8 | (uint32_t)k;
            key = kk < key ? kk : key;
        }
        unsigned best = key >> 8;
        int first = best < inf ? out[key & 0xFF] : -1;
        ts->first[si] = first;
        if (si == di)
            continue;
        if (first < 0) {
            note_unroutable(tot, t, si, di);
            continue;
        }
        int hops = (int)best + 1;
        tot->pairs++;
        tot->hops += hops;
        if (hops > tot->max_hops)
            tot->max_hops = hops;
        if (best > top)
            top = best;
    }
    /* Then their traffic, listing each channel the first time (whether it
     * is the first is random, hence no branch). */
    int n_at = 0;
    for (int si = 0; si < t->n_switches; si++) {
        int first = ts->first[si];
        if (si == di || first < 0)
            continue;
        int fresh = !ts->through[first];
        ts->at[n_at] = first;
        n_at += fresh;
        ts->start[row_entry(row, first, wide) + 1] += fresh;
        ts->through[first]++;
    }
    /* Counting sort by distance: start[h] .. start[h + 1] is distance h. */
    for (unsigned h = 1; h <= top + 1; h++)
        ts->start[h] += ts->start[h - 1];
    for (int k = 0; k < n_at; k++) {
        int i = ts->at[k];
        ts->sorted[ts->start[row_entry(row, i, wide)]++] = i;
    }
    /* Each start[h] has moved on to the end of distance h. Per distance,
     * the continuation of every channel (into at[], free again), then the
     * traffic passed on. */
    int n_passed = 0, *sel = ts->at;
    for (unsigned h = top + 1; h-- > 0;) {
        int from = h > 0 ? ts->start[h - 1] : 0, to = ts->start[h], n_next = 0;
        int n = to - from + n_passed;
        const int *part = ts->sorted + from;
        /* A channel h hops away has a continuation h - 1 away. */
        for (int k = 0; k < n && h > 0 && ts->cont; k++) {
            int i = k < to - from ? part[k] : ts->passed[k - (to - from)];
            const int *c = ts->cont + (size_t)i * (size_t)ts->stride;
            int j0 = -1;
            for (int e = ts->stride - 1; e >= 0; e--)
                j0 = row_entry(row, c[e], wide) == h - 1 ? c[e] : j0;
            sel[k] = j0;
        }
        for (int k = 0; k < n && h > 0 && !ts->cont; k++) {
            int i = k < to - from ? part[k] : ts->passed[k - (to - from)];
            int j0 = -1;
            for (int e = tab->succ_off[i + 1] - 1; e >= tab->succ_off[i]; e--) {
                int j = tab->succ[e];
                j0 = row_entry(row, j, wide) == h - 1 ? j : j0;
            }
            sel[k] = j0;
        }
        for (int k = 0; k < n; k++) {
            int i = k < to - from ? part[k] : ts->passed[k - (to - from)];
            int through = ts->through[i];
            ts->dense_load[i] += through;
            ts->through[i] = 0;
            if (h > 0) {
                int j = sel[k];
                ts->next[n_next] = j;
                n_next += !ts->through[j];
                ts->through[j] += through;
            }
        }
        int *swap = ts->passed;
        ts->passed = ts->next;
        ts->next = swap;
        n_passed = n_next;
    }
    for (unsigned h = 0; h <= top + 1; h++)
        ts->start[h] = 0;
}

static int table_route_stats(const FlRouting *r, const FlRouteTable *tab, FlRoutingReport *rep,
                             FlError *err)
{
    const FlTopology *t = tab->t;
    TableStats ts;
    FlSwitchGraph g = { 0 };
    Totals tot = { 0 };
    int rc = FL_OK;
    if (table_stats_init(&ts, tab) || fl__switch_graph_build(t, &g)
        || totals_init(&tot, r, &g)) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the route statistics");
        goto free_all;
    }
    for (int di = 0; di < t->n_switches; di++)
        if (tab->wide)
            table_destination(&ts, di, &tot, 1);
        else
            table_destination(&ts, di, &tot, 0);
    for (int i = 0; i < tab->n_chan; i++)
        ts.load[tab->chan_id[i]] = ts.dense_load[i];
    report_totals(t, &tot, ts.load, rep);
free_all:
    totals_free(&tot);
    fl__switch_graph_free(&g);
    table_stats_free(&ts);
    return rc;
}

int fl__route_stats_walk(const FlRouting *r, FlRoutingReport *rep, FlError *err)
{
    return route_stats_walk(r, rep, NULL, err);
}

int fl__route_stats_marked(const FlRouting *r, FlRoutingReport *rep, FlCdg *g, FlError *err)
{
    const FlRouteTable *tab = fl__table_of(r);
    return tab ? table_route_stats(r, tab, rep, err) : route_stats_walk(r, rep, g, err);
}

int fl__route_stats(const FlRouting *r, FlRoutingReport *rep, FlError *err)
{
    return fl__route_stats_marked(r, rep, NULL, err);
}
