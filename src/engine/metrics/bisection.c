/* bisection.c — the bisection width of the switch graph: the fewest links cut
 * by a partition of the switches into halves of floor(S/2) and ceil(S/2).
 *
 * Three methods, tried in this order:
 *   - exhaustive branch and bound, exact, for small networks;
 *   - a proven closed form for the regular families;
 *   - METIS, whose balanced cut is an upper bound, for everything else.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "metrics-internal.h"

/* ------------------------------------------------------------------------ */
/* Closed forms                                                             */
/* ------------------------------------------------------------------------ */
/*
 * Each formula is used only when the switch and link counts are those the
 * family's sizes imply, so metadata that disagrees with the links (a hand-
 * edited file, say) falls through to METIS instead of a wrong answer.
 *
 * The lower bounds for meshes and tori are congestion arguments. Route one
 * unit of flow from every switch u to every switch v along dimension-ordered
 * shortest paths. If every directed link carries at most c units, then in a
 * balanced cut (A, B) with S even the (S/2)^2 units from A to B each cross
 * some cut link in the direction A to B, so the cut has at least
 * (S/2)^2 / c links.
 *  - Mesh k_1 x ... x k_n: a dimension-i link between positions j and j+1
 *    carries, in one direction, the pairs whose u has position <= j and v
 *    position > j in dimension i; the coordinates of u in later dimensions
 *    and of v in earlier ones are fixed by the link, the rest are free. That
 *    is (j+1)(k_i-j-1) * S/k_i <= k_i S/4 <= k_max S/4, so the cut is at
 *    least S/k_max. Cutting across the middle of the k_max dimension (even,
 *    so S is even and the halves are exact) cuts S/k_max links.
 *  - Torus, every k_i >= 3: route around each ring the short way, and send
 *    half of each antipodal pair's flow each way. A directed ring link then
 *    carries 1 + 2 + ... + (k/2 - 1) + (k/2)(1/2) = k^2/8 units (k even) or
 *    (k^2 - 1)/8 (k odd), and a dimension-i link at most k_i S/8, so the cut
 *    is at least 2S/k_max. Two cuts across the k_max dimension, half a ring
 *    apart, cut 2S/k_max links (k_max >= 3 keeps them distinct).
 *  - Hypercube D: the mesh 2 x ... x 2, so S/2 = 2^(D-1).
 *  - Ring N >= 3: going once round the cycle crosses the cut an even number
 *    of times, and at least once since both halves are non-empty: 2, which
 *    two contiguous halves achieve.
 *  - Line N >= 2 (and the Myrinet linear array): connected, so at least 1;
 *    two contiguous halves cut 1.
 *  - One-dimensional meshes and tori are lines and rings, whatever the
 *    parity of N.
 *  - Myrinet 2D cluster: its switches form a plain mesh.
 *  - XMESH n x k (paper 003 eq. 3): min(4n, 2k). Two cuts across the
 *    straight rings cut n straight and n cross links each (4n); two cuts
 *    across the cross links cut k each (2k). This one is not proven here: it
 *    is used because the exhaustive search finds exactly min(4n, 2k) on
 *    every size it reached in minutes: 4 x 4..18, 6 x 4..10, 8 x 4..8,
 *    10 x 4..6, 12 x 4..6 and 14x4 (the metrics test repeats the small
 *    ones; 6x10 takes 6 s), because METIS never beats it
 *    (checked for n up to 40, k up to 80), and because the cost per unit
 *    length of a cut line of slope (x, y) is |x| + max(|x|, |y|), which makes
 *    the two straight bands cheaper than any other closed cut.
 * No formula for the diagonal mesh: paper 003's min(4n, 4k) overstates it
 * (an odd square DMESH is isomorphic to a torus: dmesh:5x5 has width 12,
 * not 20).
 */

/* The product of dims, or -1 if it overflows an int or a size is < 1. */
static int dims_product(int ndims, const int *dims)
{
    long long p = 1;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] < 1)
            return -1;
        p *= dims[d];
        if (p > INT_MAX)
            return -1;
    }
    return (int)p;
}

static int dims_max(int ndims, const int *dims)
{
    int m = 0;
    for (int d = 0; d < ndims; d++)
        if (dims[d] > m)
            m = dims[d];
    return m;
}

static int ring_width(int ndims, const int *dims, int switches, int links)
{
    if (ndims != 1 || dims[0] < 3 || switches != dims[0] || links != dims[0])
        return -1;
    return 2;
}

static int line_width(int ndims, const int *dims, int switches, int links)
{
    if (ndims != 1 || dims[0] < 2 || switches != dims[0] || links != dims[0] - 1)
        return -1;
    return 1;
}

static int mesh_width(int ndims, const int *dims, int switches, int links)
{
    if (ndims == 1)
        return line_width(ndims, dims, switches, links);
    int s = dims_product(ndims, dims);
    if (ndims < 1 || s != switches)
        return -1;
    long long want = 0;
    for (int d = 0; d < ndims; d++)
        want += (long long)(dims[d] - 1) * (s / dims[d]);
    int kmax = dims_max(ndims, dims);
    if (want != links || kmax % 2 != 0)
        return -1;
    return s / kmax;
}

static int torus_width(int ndims, const int *dims, int switches, int links)
{
    if (ndims == 1)
        return ring_width(ndims, dims, switches, links);
    int s = dims_product(ndims, dims);
    if (ndims < 1 || s != switches || (long long)ndims * s != links)
        return -1;
    for (int d = 0; d < ndims; d++)
        if (dims[d] < 3)
            return -1;
    int kmax = dims_max(ndims, dims);
    return kmax % 2 == 0 ? 2 * (s / kmax) : -1;
}

static int hypercube_width(int ndims, const int *dims, int switches, int links)
{
    if (ndims != 1 || dims[0] < 1 || dims[0] > 30)
        return -1;
    int d = dims[0];
    if (switches != 1 << d || (long long)links != (long long)d << (d - 1))
        return -1;
    return 1 << (d - 1);
}

static int xmesh_width(int ndims, const int *dims, int switches, int links)
{
    if (ndims != 2 || dims[0] < 4 || dims[1] < 4 || dims[0] % 2 || dims[1] % 2
        || dims_product(2, dims) != switches || (long long)2 * switches != links)
        return -1;
    return 4 * dims[0] < 2 * dims[1] ? 4 * dims[0] : 2 * dims[1];
}

typedef int (*ClosedForm)(int ndims, const int *dims, int switches, int links);

static const struct {
    const char *family;
    ClosedForm width;
} closed_forms[] = {
    { "mesh", mesh_width },
    { "torus", torus_width },
    { "hypercube", hypercube_width },
    { "ring", ring_width },
    { "line", line_width },
    { "myrinet-line", line_width },
    { "myrinet-mesh", mesh_width },
    { "xmesh", xmesh_width },
};

int fl__bisection_closed_form(const FlTopology *t)
{
    int dims[FL_MAX_DIMS];
    int ndims = fl_topology_family_dims(t, dims);
    const char *family = fl_topology_family(t);
    for (size_t i = 0; i < sizeof closed_forms / sizeof closed_forms[0]; i++)
        if (strcmp(family, closed_forms[i].family) == 0)
            return closed_forms[i].width(ndims, dims, t->n_switches, t->n_switch_links);
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Cuts and greedy balancing                                                */
/* ------------------------------------------------------------------------ */

int fl__cut_width(const FlSwitchGraph *g, const signed char *side)
{
    int twice = 0;
    for (int u = 0; u < g->n; u++)
        for (int k = g->off[u]; k < g->off[u + 1]; k++)
            twice += side[u] != side[g->adj[k]];
    return twice / 2;
}

/* Moves switches from the larger side until the sides hold floor(S/2) and
 * ceil(S/2), each time the one whose move raises the cut least. delta[v]
 * (scratch, n ints) is that rise: v's links within its side minus its links
 * across. One linear scan per move; METIS leaves only a few to move. */
static void rebalance(const FlSwitchGraph *g, signed char *side, int *delta)
{
    int n = g->n, size[2] = { 0, 0 }, cap = n - n / 2;
    for (int v = 0; v < n; v++)
        size[side[v]]++;
    if (size[0] <= cap && size[1] <= cap)
        return;
    int big = size[0] > cap ? 0 : 1;
    for (int v = 0; v < n; v++) {
        delta[v] = 0;
        for (int k = g->off[v]; k < g->off[v + 1]; k++)
            delta[v] += side[g->adj[k]] == side[v] ? 1 : -1;
    }
    while (size[big] > cap) {
        int best = -1;
        for (int v = 0; v < n; v++)
            if (side[v] == big && (best < 0 || delta[v] < delta[best]))
                best = v;
        side[best] = (signed char)(1 - big);
        size[big]--;
        size[1 - big]++;
        delta[best] = -delta[best];
        for (int k = g->off[best]; k < g->off[best + 1]; k++) {
            int w = g->adj[k];
            delta[w] += side[w] == big ? -2 : 2;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* METIS                                                                    */
/* ------------------------------------------------------------------------ */

/* Independent METIS runs; the best balanced cut of them is kept. */
#define METIS_SEEDS 4

/* METIS wants a simple graph: parallel links become one edge whose weight
 * is their number. */
typedef struct MetisGraph {
    int n;
    int *xadj, *adjncy, *adjwgt;
} MetisGraph;

static void metis_graph_free(MetisGraph *mg)
{
    free(mg->xadj);
    free(mg->adjncy);
    free(mg->adjwgt);
}

static int metis_graph_build(const FlSwitchGraph *g, MetisGraph *mg, int *scratch)
{
    int n = g->n, m = g->off[n];
    mg->n = n;
    mg->xadj = malloc(sizeof(int) * (size_t)(n + 1));
    mg->adjncy = malloc(sizeof(int) * (size_t)(m + 1));
    mg->adjwgt = malloc(sizeof(int) * (size_t)(m + 1));
    if (!mg->xadj || !mg->adjncy || !mg->adjwgt) {
        metis_graph_free(mg);
        return FL_ENOMEM;
    }
    /* scratch[v] is the slot of edge (u, v) while u's row is built. */
    for (int v = 0; v < n; v++)
        scratch[v] = -1;
    int k = 0;
    for (int u = 0; u < n; u++) {
        int row = k;
        mg->xadj[u] = row;
        for (int e = g->off[u]; e < g->off[u + 1]; e++) {
            int v = g->adj[e];
            if (scratch[v] >= row) {
                mg->adjwgt[scratch[v]]++;
            } else {
                scratch[v] = k;
                mg->adjncy[k] = v;
                mg->adjwgt[k++] = 1;
            }
        }
    }
    mg->xadj[n] = k;
    return FL_OK;
}

int fl__bisection_metis(const FlSwitchGraph *g, uint64_t seed, signed char *side,
                        int *width, FlError *err)
{
    int n = g->n, rc = FL_OK;
    int *scratch = malloc(sizeof(int) * (size_t)n);
    int *part = malloc(sizeof(int) * (size_t)n);
    signed char *trial = malloc((size_t)n);
    MetisGraph mg = { 0 };
    if (!scratch || !part || !trial || metis_graph_build(g, &mg, scratch)) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the METIS graph");
        goto out;
    }
    *width = INT_MAX;
    for (int i = 0; i < METIS_SEEDS; i++) {
        /* METIS cuts as evenly as it can (1.001); rebalance() does the rest. */
        int trial_seed = (int)(((seed ^ (seed >> 32)) + (uint64_t)i) & 0x7fffffff);
        rc = fl__partition_bisect(mg.n, mg.xadj, mg.adjncy, mg.adjwgt, trial_seed, part, err);
        if (rc)
            goto out;
        for (int v = 0; v < n; v++)
            trial[v] = (signed char)(part[v] != 0);
        rebalance(g, trial, scratch);
        int cut = fl__cut_width(g, trial);
        if (cut < *width) {
            *width = cut;
            memcpy(side, trial, (size_t)n);
        }
    }
out:
    metis_graph_free(&mg);
    free(trial);
    free(part);
    free(scratch);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Exhaustive branch and bound                                              */
/* ------------------------------------------------------------------------ */
/*
 * Switches are decided one at a time in BFS order from switch 0, which is
 * fixed on side A (every partition has a mirror image with it there). Both
 * sides are capped at ceil(S/2), which leaves exactly the balanced
 * partitions. A branch is dropped as soon as the cut so far plus a lower
 * bound on the cut still to come reaches the best cut known, which starts
 * as METIS's: the search proves that cut optimal or finds a better one. The
 * bound adds up three terms over disjoint sets of links:
 *  - links from undecided switches to decided ones: whichever side an
 *    undecided switch joins, the smaller of its counts to A and to B is cut;
 *  - what those switches pay on top when more of them lean to one side than
 *    it has room for (lean_bound());
 *  - links among undecided switches, in dense graphs (inner_bound()).
 * BFS order makes the cut grow early, so the bound bites near the root.
 *
 * Cost, CPU time on one core of the development machine: at 28 switches
 * the worst of some 330 graphs (G(28, p) for p = 0.05 .. 0.95 and random
 * d-regular graphs for d = 3 .. 26, 12 of each; complete and complete
 * bipartite graphs; tori and circulants) took 0.25 s, a dense G(28, 0.95);
 * sparse networks take milliseconds. The worst case doubles with every two
 * switches more (0.55 s at 30, 1.1 s at 32), so the default limit of 28
 * keeps it well under a second. Random regular networks (irregular:S,
 * ports=P), CPU time: at 44 switches 1.5 s for P = 8, 27 s for 16 and 67 s
 * for 24; at 48, 2.2 s for 8, 8 s for 10, about 2 minutes for 16 and more
 * than that for 20; at 56 already 68 s for P = 8, and at 64 hours. Hence
 * FL_METRICS_EXACT_MAX = 48: a search it allows ends in minutes at worst,
 * and reports its progress and can be cancelled while it runs.
 */

/* Progress is reported every this many search nodes, a few milliseconds,
 * which is also how soon a cancel is heard. */
#define NODES_PER_REPORT (1 << 14)

/* Branch and bound state, indexed by position in the search order. */
typedef struct Search {
    int n, cap;
    int *foff, *fadj;   /* links from each position to later positions */
    int *cnt;           /* 2 per position: links to decided switches on A, B */
    int *free_links;    /* per position: links to undecided switches */
    int *free_hist;     /* undecided switches by free_links, 0..max degree */
    int *lean;          /* undecided switches by cnt[A] - cnt[B], offset m */
    int m;              /* the offset: no switch has more than m links */
    int lean_a, lean_b; /* undecided switches with more links to A, to B */
    int inner;          /* use inner_bound(): dense and no parallel links */
    signed char *side;  /* per position, -1 while undecided */
    signed char *tried; /* per position: branches tried, 0..2 */
    signed char *first; /* per position: the side tried first */
    int size[2];
    int cut, bound;
} Search;

static inline int min2(const int *c)
{
    return c[0] < c[1] ? c[0] : c[1];
}

/* Adds (step 1) or removes (step -1) an undecided switch with counts c
 * from the lean histogram. */
static inline void lean_count(Search *s, const int *c, int step)
{
    int d = c[0] - c[1];
    s->lean[s->m + d] += step;
    if (d > 0)
        s->lean_a += step;
    else if (d < 0)
        s->lean_b += step;
}

/* Position i is decided (on side to) or undecided again: the bound terms
 * of its later neighbours change, and so do their free link counts. */
static void search_update(Search *s, int i, int to, int step)
{
    for (int k = s->foff[i]; k < s->foff[i + 1]; k++) {
        int w = s->fadj[k], *c = s->cnt + 2 * w;
        s->bound -= min2(c);
        lean_count(s, c, -1);
        c[to] += step;
        lean_count(s, c, 1);
        s->bound += min2(c);
        if (!s->inner)
            continue;
        s->free_hist[s->free_links[w]]--;
        s->free_links[w] -= step;
        s->free_hist[s->free_links[w]]++;
    }
}

static void search_assign(Search *s, int i, int to)
{
    const int *c = s->cnt + 2 * i;
    s->cut += c[1 - to];
    s->bound -= min2(c);
    lean_count(s, c, -1);
    if (s->inner)
        s->free_hist[s->free_links[i]]--;
    search_update(s, i, to, 1);
    s->side[i] = (signed char)to;
    s->size[to]++;
}

static void search_unassign(Search *s, int i)
{
    int to = s->side[i];
    const int *c = s->cnt + 2 * i;
    search_update(s, i, to, -1);
    if (s->inner)
        s->free_hist[s->free_links[i]]++;
    lean_count(s, c, 1);
    s->bound += min2(c);
    s->cut -= c[1 - to];
    s->side[i] = -1;
    s->size[to]--;
}

/* The bound counts each undecided switch on its cheaper side, but a side
 * has room for only so many more. When more switches lean to A than A can
 * take, the excess pays its lean (links to A minus links to B) on top of
 * the bound, the smallest leans first; likewise for B. */
static int lean_bound(const Search *s)
{
    int extra = 0;
    for (int over = s->lean_a - (s->cap - s->size[0]), d = 1; over > 0; d++) {
        int take = s->lean[s->m + d] < over ? s->lean[s->m + d] : over;
        extra += take * d;
        over -= take;
    }
    for (int over = s->lean_b - (s->cap - s->size[1]), d = 1; over > 0; d++) {
        int take = s->lean[s->m - d] < over ? s->lean[s->m - d] : over;
        extra += take * d;
        over -= take;
    }
    return extra;
}

/* Links among the undecided switches that any completion must cut, once
 * positions 0..i-1 are decided. The r undecided switches split into x on A
 * and r - x on B, with x limited by the room left on each side. If each has
 * at least f undecided neighbours, each switch of the smaller group
 * (s = min(x, r - x) of them) has at most s - 1 neighbours in its own group,
 * so at least s (f - s + 1) links are cut. That count rises then falls as s
 * grows, so its minimum over the possible x is at the smallest or largest
 * possible s. Dense graphs need this (it alone makes a complete graph
 * tractable); in sparse ones f is small, the bound at most (f + 1)^2 / 4,
 * and keeping f up to date costs more than the bound saves, so graphs whose
 * minimum degree is below INNER_MIN_DEGREE go without it. */
#define INNER_MIN_DEGREE 8

static int smaller_group(int x, int r)
{
    return x < r - x ? x : r - x;
}

static int inner_cut(int group, int f)
{
    return f - group + 1 > 0 ? group * (f - group + 1) : 0;
}

static int inner_bound(const Search *s, int i)
{
    if (!s->inner)
        return 0;
    int r = s->n - i, f = 0;
    while (s->free_hist[f] == 0)
        f++;
    int xlo = r - (s->cap - s->size[1]), xhi = s->cap - s->size[0];
    if (xlo < 0)
        xlo = 0;
    if (xhi > r)
        xhi = r;
    int xmid = r / 2 < xlo ? xlo : r / 2 > xhi ? xhi : r / 2;
    int glo = smaller_group(xlo, r), ghi = smaller_group(xhi, r);
    int least = inner_cut(glo < ghi ? glo : ghi, f);
    int most = inner_cut(smaller_group(xmid, r), f);
    return least < most ? least : most;
}

/* The share of the search tree left behind, reading the branches taken at
 * the first levels as binary digits. Pruning makes subtrees unequal, so this
 * is an estimate, but it never goes backwards. */
static double search_fraction(const Search *s, int depth)
{
    double f = 0.0, w = 0.5;
    for (int i = 1; i <= depth && i < 40; i++, w *= 0.5)
        if (s->tried[i] == 2)
            f += w;
    return f;
}

static int min_degree(const FlSwitchGraph *g)
{
    int d = g->off[1] - g->off[0];
    for (int v = 1; v < g->n; v++)
        if (g->off[v + 1] - g->off[v] < d)
            d = g->off[v + 1] - g->off[v];
    return d;
}

/* Whether two switches are joined by more than one link; mark is n ints of
 * scratch. */
static int has_parallel_links(const FlSwitchGraph *g, int *mark)
{
    for (int v = 0; v < g->n; v++)
        mark[v] = -1;
    for (int u = 0; u < g->n; u++)
        for (int k = g->off[u]; k < g->off[u + 1]; k++) {
            if (mark[g->adj[k]] == u)
                return 1;
            mark[g->adj[k]] = u;
        }
    return 0;
}

/* Fills order[] with a BFS order from vertex 0 that also covers the other
 * components, and pos[] with its inverse. */
static void bfs_order(const FlSwitchGraph *g, int *order, int *pos)
{
    int n = g->n, tail = 0;
    for (int v = 0; v < n; v++)
        pos[v] = -1;
    for (int root = 0; root < n; root++) {
        if (pos[root] >= 0)
            continue;
        int head = tail;
        pos[root] = tail;
        order[tail++] = root;
        while (head < tail) {
            int u = order[head++];
            for (int k = g->off[u]; k < g->off[u + 1]; k++) {
                int v = g->adj[k];
                if (pos[v] < 0) {
                    pos[v] = tail;
                    order[tail++] = v;
                }
            }
        }
    }
}

/* The search proper; best_side (by position) gets every improvement. */
static int search_run(Search *s, const FlProgress *progress, int *best,
                      signed char *best_side, FlError *err)
{
    int n = s->n, i = 1;
    long nodes = 0;
    search_assign(s, 0, 0);
    s->tried[1] = 0;
    while (i >= 1) {
        if (i == n) {
            *best = s->cut;
            memcpy(best_side, s->side, (size_t)n);
            search_unassign(s, --i);
            continue;
        }
        if (s->tried[i] == 2) {
            if (--i >= 1)
                search_unassign(s, i);
            continue;
        }
        if (s->tried[i] == 0) {
            /* The side with more decided neighbours first: cheaper now,
             * so good cuts turn up early and tighten the bound. */
            const int *c = s->cnt + 2 * i;
            s->first[i] = (signed char)(c[1] > c[0]);
        }
        int to = s->tried[i]++ == 0 ? s->first[i] : 1 - s->first[i];
        if (s->size[to] >= s->cap)
            continue;
        search_assign(s, i, to);
        if (++nodes % NODES_PER_REPORT == 0
            && fl__progress_report(progress, search_fraction(s, i)))
            return fl_error_set(err, FL_ECANCELLED, "bisection search cancelled");
        if (s->cut + s->bound >= *best
            || (i + 1 < n
                && s->cut + s->bound + lean_bound(s) + inner_bound(s, i + 1) >= *best)) {
            search_unassign(s, i);
            continue;
        }
        s->tried[++i] = 0;
    }
    return FL_OK;
}

int fl__bisection_exhaustive(const FlSwitchGraph *g, const FlProgress *progress,
                             signed char *side, int *width, FlError *err)
{
    int n = g->n, m = g->off[n], rc = FL_OK;
    Search s = { .n = n, .cap = n - n / 2 };
    int *order = malloc(sizeof(int) * (size_t)n);
    int *pos = malloc(sizeof(int) * (size_t)n);
    signed char *best_side = malloc((size_t)n);
    s.foff = malloc(sizeof(int) * (size_t)(n + 1));
    s.fadj = malloc(sizeof(int) * (size_t)(m + 1));
    s.cnt = calloc(2 * (size_t)n, sizeof(int));
    s.free_links = malloc(sizeof(int) * (size_t)n);
    s.free_hist = calloc((size_t)m + 1, sizeof(int));
    s.m = m;
    s.lean = calloc(2 * (size_t)m + 1, sizeof(int));
    s.side = malloc((size_t)n);
    s.tried = calloc((size_t)n + 1, 1);
    s.first = calloc((size_t)n, 1);
    if (!order || !pos || !best_side || !s.foff || !s.fadj || !s.cnt || !s.free_links
        || !s.free_hist || !s.lean || !s.side || !s.tried || !s.first) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the bisection search");
        goto out;
    }
    s.inner = min_degree(g) >= INNER_MIN_DEGREE && !has_parallel_links(g, s.free_links);
    bfs_order(g, order, pos);
    int k = 0;
    for (int i = 0; i < n; i++) {
        int u = order[i];
        s.foff[i] = k;
        for (int e = g->off[u]; e < g->off[u + 1]; e++)
            if (pos[g->adj[e]] > i)
                s.fadj[k++] = pos[g->adj[e]];
        s.side[i] = -1;
        s.free_links[i] = g->off[u + 1] - g->off[u];
        s.free_hist[s.free_links[i]]++;
    }
    /* Nothing is decided: every switch has lean 0. */
    s.lean[m] = n;
    s.foff[n] = k;

    int best = fl__cut_width(g, side);
    for (int i = 0; i < n; i++)
        best_side[i] = side[order[i]];
    if (fl__progress_report(progress, 0.0)) {
        rc = fl_error_set(err, FL_ECANCELLED, "bisection search cancelled");
        goto out;
    }
    if ((rc = search_run(&s, progress, &best, best_side, err)))
        goto out;
    for (int i = 0; i < n; i++)
        side[order[i]] = best_side[i];
    *width = best;
out:
    free(s.first);
    free(s.tried);
    free(s.side);
    free(s.lean);
    free(s.free_hist);
    free(s.free_links);
    free(s.cnt);
    free(s.fadj);
    free(s.foff);
    free(best_side);
    free(pos);
    free(order);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Choosing the method                                                      */
/* ------------------------------------------------------------------------ */

FlBisectionMethod fl__bisection_plan(const FlTopology *t, int exact_max)
{
    if (t->n_switches < 2)
        return FL_BISECTION_NONE;
    if (t->n_switches <= exact_max)
        return FL_BISECTION_EXHAUSTIVE;
    if (fl__bisection_closed_form(t) >= 0)
        return FL_BISECTION_CLOSED_FORM;
    return FL_BISECTION_METIS;
}

int fl__bisection(const FlTopology *t, const FlSwitchGraph *g, int exact_max,
                  uint64_t seed, const FlProgress *progress, int *width,
                  FlBisectionMethod *method, FlError *err)
{
    FlBisectionMethod plan = fl__bisection_plan(t, exact_max);
    int rc = FL_OK;
    *method = plan;
    *width = -1;
    if (plan == FL_BISECTION_NONE)
        return FL_OK;
    if (plan == FL_BISECTION_CLOSED_FORM) {
        *width = fl__bisection_closed_form(t);
        return FL_OK;
    }
    signed char *side = malloc((size_t)g->n);
    if (!side)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the bisection");
    /* METIS's cut is the answer above the exhaustive limit and the search's
     * first bound below it. */
    int cut = 0;
    rc = fl__bisection_metis(g, seed, side, &cut, err);
    if (rc == FL_OK && plan == FL_BISECTION_EXHAUSTIVE)
        rc = fl__bisection_exhaustive(g, progress, side, &cut, err);
    if (rc == FL_OK)
        *width = cut;
    free(side);
    return rc;
}
