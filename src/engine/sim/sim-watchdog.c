/* sim-watchdog.c — after a deadlock, a cycle of channels whose packets wait
 * on each other.
 *
 * The wait-for graph has one vertex per occupied input VC. A VC whose front
 * packet holds an output VC waits for room in that VC's buffer downstream;
 * a head still waiting for an output VC waits for every VC of the classes
 * its routing allows: for the buffer of one that holds flits, or else for
 * the input VC (at the same switch) that holds it. Any cycle in this graph
 * is a set of packets that can never move again, and reporting the
 * channels of its VCs shows where the network locked up.
 */
#include <stdlib.h>

#include "sim-internal.h"

typedef struct EdgeList {
    int *src, *dst;
    int n, cap;
} EdgeList;

static int add_edge(EdgeList *e, int a, int b)
{
    if (e->n == e->cap) {
        int cap = e->cap ? 2 * e->cap : 256;
        int *s = realloc(e->src, sizeof(int) * (size_t)cap);
        if (!s)
            return FL_ENOMEM;
        e->src = s;
        int *d = realloc(e->dst, sizeof(int) * (size_t)cap);
        if (!d)
            return FL_ENOMEM;
        e->dst = d;
        e->cap = cap;
    }
    e->src[e->n] = a;
    e->dst[e->n] = b;
    e->n++;
    return FL_OK;
}

/* The VC (or its holder) that iv waits for through output VC ov, or -1. */
static int blocker(const FlSim *s, int iv, int ov)
{
    if (s->vc[ov].sink)
        return -1;
    if (s->vc[ov].count > 0)
        return ov;
    int owner = s->outvc[ov].owner;
    return owner >= 0 && owner != iv && owner < s->n_vc ? owner : -1;
}

static int collect_edges(const FlSim *s, EdgeList *e)
{
    FlRouteChoice choices[FL_ROUTE_MAX_CHOICES];
    for (int iv = 0; iv < s->n_vc; iv++) {
        int c = s->vc_chan[iv];
        if (s->vc[iv].count == 0 || s->chan_sink[c])
            continue;
        int sw = s->chan_dst[c];
        if (s->vc[iv].out >= 0) {
            int b = blocker(s, iv, s->vc[iv].out);
            if (b >= 0 && add_edge(e, iv, b))
                return FL_ENOMEM;
            continue;
        }
        int n = fl__sim_route_choices(s, sw, iv, choices, FL_ROUTE_MAX_CHOICES);
        for (int i = 0; i < n; i++) {
            int lo, hi;
            fl__sim_class_vcs(s, choices[i].vc_class, &lo, &hi);
            for (int v = lo; v < hi; v++) {
                int b = blocker(s, iv, s->chan_vc[choices[i].channel] + v);
                if (b >= 0 && add_edge(e, iv, b))
                    return FL_ENOMEM;
            }
        }
    }
    return FL_OK;
}

/* Depth-first search for a cycle in the graph given as CSR (off, adj);
 * returns its vertices in *cycle (in waiting order) and their number, 0 if
 * the graph is acyclic, -1 when out of memory. */
static int find_cycle(int n, const int *off, const int *adj, int **cycle)
{
    uint8_t *color = calloc((size_t)n, 1);
    int *stack = malloc(sizeof(int) * (size_t)n);
    int *edge = malloc(sizeof(int) * (size_t)n);
    int found = 0;
    if (!color || !stack || !edge) {
        found = -1;
        goto done;
    }
    for (int root = 0; root < n && !found; root++) {
        if (color[root] || off[root] == off[root + 1])
            continue;
        int top = 0;
        stack[0] = root;
        edge[0] = off[root];
        color[root] = 1;
        while (top >= 0 && !found) {
            int v = stack[top];
            if (edge[top] == off[v + 1]) {
                color[v] = 2;
                top--;
                continue;
            }
            int w = adj[edge[top]++];
            if (color[w] == 1) {
                /* w is on the stack: the cycle runs from it to v. */
                int from = top;
                while (stack[from] != w)
                    from--;
                found = top - from + 1;
                *cycle = malloc(sizeof(int) * (size_t)found);
                if (!*cycle) {
                    found = -1;
                    break;
                }
                for (int i = 0; i < found; i++)
                    (*cycle)[i] = stack[from + i];
            } else if (color[w] == 0) {
                color[w] = 1;
                stack[++top] = w;
                edge[top] = off[w];
            }
        }
    }
done:
    free(color);
    free(stack);
    free(edge);
    return found;
}

int fl__sim_deadlock_cycle(const FlSim *s, int **channels, int *len)
{
    EdgeList e = { 0 };
    int *off = NULL, *adj = NULL, *cycle = NULL, rc = FL_ENOMEM;
    *channels = NULL;
    *len = 0;
    if (collect_edges(s, &e))
        goto out;
    off = calloc((size_t)s->n_vc + 1, sizeof(int));
    adj = malloc(sizeof(int) * (size_t)(e.n + 1));
    if (!off || !adj)
        goto out;
    for (int i = 0; i < e.n; i++)
        off[e.src[i] + 1]++;
    for (int v = 0; v < s->n_vc; v++)
        off[v + 1] += off[v];
    int *fill = calloc((size_t)s->n_vc + 1, sizeof(int));
    if (!fill)
        goto out;
    for (int i = 0; i < e.n; i++)
        adj[off[e.src[i]] + fill[e.src[i]]++] = e.dst[i];
    free(fill);
    int n = find_cycle(s->n_vc, off, adj, &cycle);
    if (n < 0)
        goto out;
    rc = FL_ENOTFOUND;
    if (n == 0)
        goto out;
    /* Channels in waiting order, a channel repeated in a row listed once. */
    int *ch = malloc(sizeof(int) * (size_t)n);
    if (!ch) {
        rc = FL_ENOMEM;
        goto out;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        int c = s->vc_chan[cycle[i]];
        if (m == 0 || ch[m - 1] != c)
            ch[m++] = c;
    }
    while (m > 1 && ch[m - 1] == ch[0])
        m--;
    *channels = ch;
    *len = m;
    rc = FL_OK;
out:
    free(e.src);
    free(e.dst);
    free(off);
    free(adj);
    free(cycle);
    return rc;
}
