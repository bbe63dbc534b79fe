/* analysis-cdg.c — the channel dependency graph and its shortest cycle.
 *
 * Vertices are (switch-to-switch channel, VC class) pairs, numbered like the
 * walk's states; (c1, k1) -> (c2, k2) is an edge when a packet in a
 * reachable state on c1 in class k1 may next take c2 in class k2 (Dally and
 * Seitz: a routing is deadlock-free when this graph has no cycle).
 *
 * A routing that gives one choice in every state has no other routes than
 * the selected ones, so the route statistics, which follow those, mark the
 * dependencies as they go (fl__cdg_new and fl_routing_analyze) and the graph
 * needs no walk of its own; a table routing whose allowed turns have no
 * cycle needs no graph at all.
 *
 * The edges are first collected as bits per switch, (in port, in class) x
 * (out port, out class), because every destination's walk meets the same
 * dependencies again and a bit costs nothing to set twice; then they become
 * a compressed adjacency list. Tarjan's algorithm (iterative: the graph of a
 * 64x64 mesh is 16,000 vertices deep) finds the strongly connected
 * components, and a breadth-first search from each vertex of a cyclic
 * component, pruned by the shortest cycle found so far, finds one shortest
 * cycle. Vertices are searched in increasing order and dropped once
 * searched, since the shortest cycle through them is then known; so the
 * cycle returned starts at its lowest (channel, class) and is the same on
 * every run.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis-internal.h"
#include "route-table.h"

struct FlCdg {
    FlStateSpace sp;
    int classes;        /* K */
    int n;              /* vertices: the states */
    int64_t *bit_base;  /* per node: byte offset of its dependency bits */
    uint8_t *bits;
    int64_t *row;       /* per state: its first bit */
    FlStepBits mark;    /* the bits as the walks mark them */
    int complete;       /* every dependency is marked already */
    int *off;           /* n + 1 */
    int *adj;
};

void fl__cdg_free(FlCdg *g)
{
    if (!g)
        return;
    free(g->bit_base);
    free(g->bits);
    free(g->row);
    free(g->off);
    free(g->adj);
    free(g);
}

const FlStepBits *fl__cdg_marks(const FlCdg *g)
{
    return g ? &g->mark : NULL;
}

void fl__cdg_set_complete(FlCdg *g)
{
    if (g)
        g->complete = 1;
}

/* The bit of dependency (in_port, k1) -> (out_port, k2) at a switch with np
 * ports. */
static inline int64_t dep_bit(int np, int classes, int in_port, int k1, int out_port, int k2)
{
    return ((int64_t)(in_port * classes + k1) * np + out_port) * classes + k2;
}

/* Turns the dependency bits into adjacency lists: one pass counts, one
 * fills. Lists come out in (out port, out class) order. */
static int build_adjacency(const FlTopology *t, FlCdg *g, FlError *err)
{
    int classes = g->classes;
    g->off = calloc((size_t)g->n + 1, sizeof *g->off);
    if (!g->off)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the dependency graph");
    int64_t edges = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            if (edges > INT_MAX)
                return fl_error_set(err, FL_ENOMEM, "%lld channel dependencies are too many",
                                    (long long)edges);
            for (int v = 0; v < g->n; v++)
                g->off[v + 1] += g->off[v];
            g->adj = malloc(sizeof *g->adj * (edges > 0 ? (size_t)edges : 1));
            if (!g->adj)
                return fl_error_set(err, FL_ENOMEM,
                                    "out of memory for %lld channel dependencies",
                                    (long long)edges);
        }
        for (int i = 0; i < t->n_switches; i++) {
            int sw = t->switch_nodes[i];
            int np = t->nports[sw];
            const uint8_t *bits = g->bits + g->bit_base[sw];
            for (int a = 0; a < np; a++) {
                int out_a = fl__out_channel(t, sw, a);
                if (out_a < 0)
                    continue;
                int in_c = out_a ^ 1; /* the other direction of the same link */
                for (int k1 = 0; k1 < classes; k1++) {
                    int v = fl__state(&g->sp, in_c, k1);
                    int *fill = pass ? g->adj + g->off[v] : NULL;
                    for (int b = 0; b < np; b++)
                        for (int k2 = 0; k2 < classes; k2++) {
                            int64_t bit = dep_bit(np, classes, a, k1, b, k2);
                            if (!(bits[bit >> 3] & (1u << (bit & 7))))
                                continue;
                            if (pass)
                                *fill++ = fl__state(&g->sp, fl__out_channel(t, sw, b), k2);
                            else {
                                g->off[v + 1]++;
                                edges++;
                            }
                        }
                }
            }
        }
    }
    return FL_OK;
}

/* Whether the graph of a table's allowed turns (channel -> continuation)
 * has no cycle: Kahn's algorithm over its successor lists. Returns 1 or 0,
 * -1 when out of memory. */
static int turns_acyclic(const FlRouteTable *tab)
{
    int n = tab->n_chan;
    int *indeg = calloc((size_t)n + 1, sizeof *indeg);
    int *queue = malloc(sizeof *queue * ((size_t)n + 1));
    int result = -1;
    if (!indeg || !queue)
        goto free_all;
    for (int k = 0; k < tab->succ_off[n]; k++)
        indeg[tab->succ[k]]++;
    int tail = 0;
    for (int i = 0; i < n; i++)
        if (!indeg[i])
            queue[tail++] = i;
    for (int head = 0; head < tail; head++) {
        int i = queue[head];
        for (int k = tab->succ_off[i]; k < tab->succ_off[i + 1]; k++)
            if (--indeg[tab->succ[k]] == 0)
                queue[tail++] = tab->succ[k];
    }
    result = tail == n;
free_all:
    free(indeg);
    free(queue);
    return result;
}

/* A graph with no dependency marked yet. */
static int cdg_alloc(const FlRouting *r, FlCdg **out, FlError *err)
{
    const FlTopology *t = r->t;
    *out = NULL;
    FlCdg *g = calloc(1, sizeof *g);
    if (!g)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the dependency graph");
    int rc = fl__state_space(r, &g->sp, err);
    if (rc) {
        free(g);
        return rc;
    }
    int classes = r->vc_classes > 0 ? r->vc_classes : 1;
    g->classes = classes;
    g->n = g->sp.nstates;
    g->bit_base = malloc(sizeof *g->bit_base * ((size_t)t->n_nodes + 1));
    g->row = malloc(sizeof *g->row * ((size_t)g->n + 1));
    if (!g->bit_base || !g->row)
        goto oom;
    int64_t bytes = 0;
    for (int n = 0; n < t->n_nodes; n++) {
        g->bit_base[n] = bytes;
        if (t->kind[n] == FL_NODE_SWITCH)
            bytes += ((int64_t)t->nports[n] * classes * t->nports[n] * classes + 7) / 8;
    }
    g->bits = calloc(bytes > 0 ? (size_t)bytes : 1, 1);
    if (!g->bits)
        goto oom;
    /* Row of state (c, k1): the bits of (in port, k1) at c's switch. */
    for (int s = 0; s < g->n; s++) {
        int c = fl__state_channel(&g->sp, s), sw = fl__chan_dst(t, c);
        g->row[s] = 8 * g->bit_base[sw] + dep_bit(t->nports[sw], classes, fl__in_port(t, c),
                                                   fl__state_class(&g->sp, s), 0, 0);
    }
    g->mark = (FlStepBits){ g->row, g->bits, classes, 1 };
    *out = g;
    return FL_OK;
oom:
    fl__cdg_free(g);
    return fl_error_set(err, FL_ENOMEM, "out of memory for the dependency graph");
}

int fl__cdg_new(const FlRouting *r, FlCdg **out, FlError *err)
{
    /* A table routing's packets only ever continue along allowed turns, so
     * its dependency graph is part of the graph of allowed turns: when that
     * has no cycle (up* / down*, L-turn and R-turn are built so), neither
     * has the dependency graph, and no graph is needed. */
    const FlRouteTable *tab = fl__table_of(r);
    int acyclic = tab ? turns_acyclic(tab) : 0;
    *out = NULL;
    if (acyclic < 0)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the dependency graph");
    return acyclic ? FL_OK : cdg_alloc(r, out, err);
}

/* Marks every dependency by walking each destination's states. */
static int walk_dependencies(const FlRouting *r, FlCdg *g, FlError *err)
{
    const FlTopology *t = r->t;
    FlStateWalk w;
    int rc = fl__walk_init(&w, r, err);
    for (int i = 0; i < t->n_switches && !rc; i++)
        rc = fl__walk_dest(&w, -1, t->switch_nodes[i], &g->mark, NULL, NULL, err);
    fl__walk_free(&w);
    if (!rc)
        g->complete = 1;
    return rc;
}

/* The shortest cycle through the cyclic components, as vertices in cycle[]
 * (n ints); returns its length, or -1 when out of memory. Every cyclic
 * component's lowest vertex is searched with nothing dropped in its
 * component, so a cycle is always found. */
static int shortest_cycle(const FlCdg *g, const int *comp, const uint8_t *cyclic, int *cycle)
{
    int n = g->n;
    int *dist = malloc(sizeof(int) * ((size_t)n + 1));
    int *parent = malloc(sizeof(int) * ((size_t)n + 1));
    int *seen = malloc(sizeof(int) * ((size_t)n + 1));
    int *queue = malloc(sizeof(int) * ((size_t)n + 1));
    uint8_t *dropped = calloc((size_t)n + 1, 1);
    int best = -1;
    if (!dist || !parent || !seen || !queue || !dropped)
        goto free_all;
    best = INT_MAX;
    for (int v = 0; v < n; v++)
        seen[v] = -1;
    /* Two is the shortest cycle there can be without self-loops; one is
     * the shortest at all. */
    for (int v = 0; v < n && best > 1; v++) {
        if (!cyclic[comp[v]])
            continue;
        int head = 0, tail = 0, closing = -1;
        seen[v] = v;
        dist[v] = 0;
        queue[tail++] = v;
        while (head < tail && closing < 0) {
            int u = queue[head++];
            for (int e = g->off[u]; e < g->off[u + 1]; e++) {
                int x = g->adj[e];
                if (x == v) {
                    closing = u;
                    break;
                }
                /* A cycle through x back to v has at least dist[u] + 2
                 * edges; only one shorter than the best is of use. */
                if (seen[x] == v || dropped[x] || comp[x] != comp[v]
                    || dist[u] + 2 >= best)
                    continue;
                seen[x] = v;
                dist[x] = dist[u] + 1;
                parent[x] = u;
                queue[tail++] = x;
            }
        }
        if (closing >= 0 && dist[closing] + 1 < best) {
            best = dist[closing] + 1;
            for (int u = closing, i = best - 1; i >= 0; u = parent[u], i--)
                cycle[i] = u;
        }
        dropped[v] = 1;
    }
free_all:
    free(dist);
    free(parent);
    free(seen);
    free(queue);
    free(dropped);
    return best == INT_MAX ? -1 : best;
}

int fl__cdg_check(const FlRouting *r, FlRoutingReport *rep, FlError *err)
{
    FlCdg *g;
    int rc = fl__cdg_new(r, &g, err);
    if (!rc)
        rc = fl__cdg_check_marked(r, g, rep, err);
    fl__cdg_free(g);
    return rc;
}

int fl__cdg_check_walk(const FlRouting *r, FlRoutingReport *rep, FlError *err)
{
    FlCdg *g;
    int rc = cdg_alloc(r, &g, err);
    if (!rc)
        rc = fl__cdg_check_marked(r, g, rep, err);
    fl__cdg_free(g);
    return rc;
}

int fl__cdg_check_marked(const FlRouting *r, FlCdg *g, FlRoutingReport *rep, FlError *err)
{
    int *comp = NULL, *cycle = NULL;
    uint8_t *cyclic = NULL;
    if (!g) {
        rep->deadlock_free = 1;
        rep->cycle_len = 0;
        return FL_OK;
    }
    int rc = g->complete ? FL_OK : walk_dependencies(r, g, err);
    if (!rc)
        rc = build_adjacency(r->t, g, err);
    if (rc)
        goto free_all;
    size_t n = g->n > 0 ? (size_t)g->n : 1;
    comp = malloc(sizeof *comp * n);
    cyclic = malloc(n);
    if (!comp || !cyclic) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the dependency graph");
        goto free_all;
    }
    int ncyclic = fl__strong_components(g->n, g->off, g->adj, comp, cyclic);
    if (ncyclic < 0) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the cycle search");
        goto free_all;
    }
    rep->deadlock_free = ncyclic == 0;
    if (ncyclic == 0)
        goto free_all;
    cycle = malloc(sizeof *cycle * n);
    int len = cycle ? shortest_cycle(g, comp, cyclic, cycle) : -1;
    if (len > 0) {
        rep->cycle_channels = malloc(sizeof(int) * (size_t)len);
        rep->cycle_classes = malloc(sizeof(int) * (size_t)len);
    }
    if (len <= 0 || !rep->cycle_channels || !rep->cycle_classes) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the cycle search");
        goto free_all;
    }
    for (int i = 0; i < len; i++) {
        rep->cycle_channels[i] = fl__state_channel(&g->sp, cycle[i]);
        rep->cycle_classes[i] = fl__state_class(&g->sp, cycle[i]);
    }
    rep->cycle_len = len;
free_all:
    free(cycle);
    free(comp);
    free(cyclic);
    return rc;
}
