/* multicast.c — paper 001's OPT-tree programme and the multicast trees
 * (sequential, chain, binomial, OPT-tree, U-mesh, OPT-mesh) timed on its
 * parameterized model, with their channel contention under a routing.
 *
 * Every tree but the sequential one is built by one rule: a sender owning
 * the interval [l, r] of an ordered node list, at position s, keeps a part
 * of `keep` nodes around itself and sends to the nearest end of the rest,
 * which owns that rest from then on (Algorithm 2 of paper 001, corrected as
 * the header says). The network-independent trees have the sender at l, so
 * it always keeps [l, l + keep) and sends to x_{l+keep}; the sequential tree
 * is the chain of keep = i - 1 over the destinations in reverse order. The
 * senders are worked off an explicit stack so that a chain of a million
 * nodes does not recurse a million deep. The contention check is in
 * multicast-contention.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "multicast-internal.h"

static const char *const algorithm_names[FL_MULTICAST_ALGORITHM_COUNT] = {
    "sequential", "chain", "binomial", "opt-tree", "u-mesh", "opt-mesh",
};

const char *fl_multicast_algorithm_name(FlMulticastAlgorithm alg)
{
    return (unsigned)alg < FL_MULTICAST_ALGORITHM_COUNT ? algorithm_names[alg] : NULL;
}

int fl_multicast_algorithm_lookup(const char *name, FlMulticastAlgorithm *alg, FlError *err)
{
    for (int i = 0; name && i < FL_MULTICAST_ALGORITHM_COUNT; i++) {
        if (strcmp(name, algorithm_names[i]) == 0) {
            *alg = (FlMulticastAlgorithm)i;
            return FL_OK;
        }
    }
    return fl_error_set(err, FL_ENOTFOUND,
                        "unknown multicast algorithm '%s' (sequential, chain, binomial, "
                        "opt-tree, u-mesh, opt-mesh)", name ? name : "");
}

static int check_times(double t_hold, double t_end, FlError *err)
{
    if (!isfinite(t_hold) || t_hold < 0)
        return fl_error_set(err, FL_EINVAL, "t_hold must be a finite time >= 0, got %g",
                            t_hold);
    if (!isfinite(t_end) || t_end < 0)
        return fl_error_set(err, FL_EINVAL, "t_end must be a finite time >= 0, got %g", t_end);
    return FL_OK;
}

static double max2(double a, double b)
{
    return a > b ? a : b;
}

/* The root keeps j nodes: they are done t_hold after its first send, or at
 * once when the root is left alone. */
static double kept_time(const double *t, int j, double t_hold)
{
    return j == 1 ? 0.0 : t[j] + t_hold;
}

static void opt_quadratic(int k, double t_hold, double t_end, double *t, int *jj)
{
    for (int i = 2; i <= k; i++) {
        double best = INFINITY;
        int bj = 1;
        for (int j = 1; j < i; j++) {
            double v = max2(kept_time(t, j, t_hold), t[i - j] + t_end);
            if (v <= best) {
                best = v;
                bj = j;
            }
        }
        t[i] = best;
        jj[i] = bj;
    }
}

static void opt_linear(int k, double t_hold, double t_end, double *t, int *jj)
{
    if (k >= 2) {
        t[2] = t_end;
        jj[2] = 1;
    }
    for (int i = 3; i <= k; i++) {
        int p = jj[i - 1];
        double stay = max2(t[p] + t_hold, t[i - p] + t_end);
        double grow = max2(t[p + 1] + t_hold, t[i - 1 - p] + t_end);
        if (stay < grow) {
            t[i] = stay;
            jj[i] = p;
        } else {
            t[i] = grow;
            jj[i] = p + 1;
        }
    }
}

int fl_multicast_opt_table(int k, double t_hold, double t_end, FlMulticastDp dp, double *t,
                           int *j, FlError *err)
{
    if (k < 1)
        return fl_error_set(err, FL_EINVAL, "a multicast needs at least 1 node, got k = %d", k);
    int rc = check_times(t_hold, t_end, err);
    if (rc)
        return rc;
    if (dp == FL_MULTICAST_DP_LINEAR && t_end < t_hold)
        return fl_error_set(err, FL_EINVAL,
                            "the O(k) OPT-tree programme needs t_end >= t_hold (got t_end = %g, "
                            "t_hold = %g); use the O(k^2) one", t_end, t_hold);
    if ((unsigned)dp > FL_MULTICAST_DP_LINEAR)
        return fl_error_set(err, FL_EINVAL, "unknown OPT-tree programme %d", (int)dp);
    double *tt = malloc(((size_t)k + 1) * sizeof *tt);
    int *jj = malloc(((size_t)k + 1) * sizeof *jj);
    if (!tt || !jj) {
        free(tt);
        free(jj);
        return fl_error_set(err, FL_ENOMEM, "out of memory for an OPT-tree table of %d nodes",
                            k);
    }
    tt[0] = tt[1] = 0.0;
    jj[0] = jj[1] = 0;
    if (dp == FL_MULTICAST_DP_QUADRATIC || t_end < t_hold)
        opt_quadratic(k, t_hold, t_end, tt, jj);
    else
        opt_linear(k, t_hold, t_end, tt, jj);
    if (t)
        memcpy(t, tt, ((size_t)k + 1) * sizeof *tt);
    if (j)
        memcpy(j, jj, ((size_t)k + 1) * sizeof *jj);
    free(tt);
    free(jj);
    return FL_OK;
}

/* --- checking the nodes ------------------------------------------------- */

int fl__cmp_keys(const int *x, const int *y, int n)
{
    for (int i = 0; i < n; i++) {
        if (x[i] != y[i])
            return x[i] > y[i] ? 1 : -1;
    }
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    return fl__cmp_keys(a, b, 1);
}

static int check_nodes(const FlTopology *t, int source, const int *dests, int n, FlError *err)
{
    int hosts = t ? fl_topology_host_count(t) : -1;
    if (n < 1 || !dests)
        return fl_error_set(err, FL_EINVAL, "a multicast needs at least one destination");
    if (source < 0 || (t && source >= hosts))
        return t ? fl_error_set(err, FL_ENOTFOUND, "source host %d does not exist (the network "
                                "has hosts 0..%d)", source, hosts - 1)
                 : fl_error_set(err, FL_EINVAL, "source node %d is negative", source);
    for (int i = 0; i < n; i++) {
        if (dests[i] < 0 || (t && dests[i] >= hosts))
            return t ? fl_error_set(err, FL_ENOTFOUND, "destination host %d does not exist "
                                    "(the network has hosts 0..%d)", dests[i], hosts - 1)
                     : fl_error_set(err, FL_EINVAL, "destination node %d is negative", dests[i]);
        if (dests[i] == source)
            return t ? fl_error_set(err, FL_EINVAL, "the source host %d is among the "
                                    "destinations", source)
                     : fl_error_set(err, FL_EINVAL, "the source node %d is among the "
                                    "destinations", source);
    }
    int *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d destinations", n);
    memcpy(sorted, dests, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_int);
    int rc = FL_OK;
    for (int i = 1; i < n && !rc; i++) {
        if (sorted[i] == sorted[i - 1])
            rc = t ? fl_error_set(err, FL_EINVAL, "destination host %d is given twice",
                                  sorted[i])
                   : fl_error_set(err, FL_EINVAL, "destination node %d is given twice",
                                  sorted[i]);
    }
    free(sorted);
    return rc;
}

static int check_mesh(const FlTopology *t, const FlRouting *r, FlMulticastAlgorithm alg,
                      FlError *err)
{
    const char *name = algorithm_names[alg];
    if (!t)
        return fl_error_set(err, FL_EUNSUPPORTED, "%s needs a network (a 2D mesh with dor)",
                            name);
    if (strcmp(fl_topology_family(t), "mesh") != 0 || fl_topology_coord_dims(t) != 2)
        return fl_error_set(err, FL_EUNSUPPORTED, "%s needs a 2D mesh, not a %s network",
                            name, fl_topology_family(t));
    if (!r || strcmp(fl_routing_get_info(r)->name, "dor") != 0)
        return fl_error_set(err, FL_EUNSUPPORTED, "%s needs dimension-order routing (dor), "
                            "not %s", name, r ? fl_routing_get_info(r)->name : "none");
    return FL_OK;
}

/* --- ordering ----------------------------------------------------------- */

/* The coordinate corrected first, the other, the host id. */
typedef struct ChainKey {
    int k[3];
} ChainKey;

static int cmp_chain(const void *a, const void *b)
{
    return fl__cmp_keys(((const ChainKey *)a)->k, ((const ChainKey *)b)->k, 3);
}

static int switch_at(const FlTopology *t, int c0, int c1)
{
    for (int i = 0; i < fl_topology_switch_count(t); i++) {
        int c[FL_MAX_DIMS] = { 0 }, sw = fl_topology_switch_node(t, i);
        fl_topology_get_coords(t, sw, c);
        if (c[0] == c0 && c[1] == c1)
            return sw;
    }
    return -1;
}

/* The dimension r corrects first: the one its route from (0, 0) to (1, 1)
 * moves along first. */
static int first_dimension(const FlRouting *r, int *dim, FlError *err)
{
    const FlTopology *t = fl_routing_topology(r);
    int a = switch_at(t, 0, 0), b = switch_at(t, 1, 1), *ch = NULL, n = 0;
    *dim = 0;
    if (a < 0 || b < 0)
        return FL_OK;   /* a 1 x n mesh: one dimension to correct */
    int rc = fl_routing_path(r, a, b, FL_SELECT_LOWEST_PORT, NULL, &ch, &n, err);
    if (!rc && n > 0) {
        int ca[FL_MAX_DIMS] = { 0 }, cb[FL_MAX_DIMS] = { 0 };
        fl_topology_get_coords(t, fl_topology_channel_src(t, ch[0]), ca);
        fl_topology_get_coords(t, fl_topology_channel_dst(t, ch[0]), cb);
        *dim = ca[0] == cb[0] ? 1 : 0;
    }
    free(ch);
    return rc;
}

/* The dimension-ordered chain of source and destinations, the dimension the
 * routing corrects first most significant; *s is the source's position. */
static int mesh_chain(const FlRouting *r, int source, const int *dests, int n, int *order,
                      int *s, FlError *err)
{
    const FlTopology *t = fl_routing_topology(r);
    int first;
    int rc = first_dimension(r, &first, err);
    if (rc)
        return rc;
    ChainKey *keys = malloc(((size_t)n + 1) * sizeof *keys);
    if (!keys)
        return fl_error_set(err, FL_ENOMEM, "out of memory for a chain of %d nodes", n + 1);
    for (int i = 0; i <= n; i++) {
        int host = i == 0 ? source : dests[i - 1];
        int c[FL_MAX_DIMS] = { 0 };
        fl_topology_get_coords(t, fl_topology_host_switch(t, fl_topology_host_node(t, host)),
                               c);
        keys[i] = (ChainKey){ { c[first], c[1 - first], host } };
    }
    qsort(keys, (size_t)n + 1, sizeof *keys, cmp_chain);
    for (int i = 0; i <= n; i++) {
        order[i] = keys[i].k[2];
        if (keys[i].k[2] == source)
            *s = i;
    }
    free(keys);
    return FL_OK;
}

/* --- building ----------------------------------------------------------- */

typedef struct Sender {
    int l, r, s;     /* its interval of the order and its position */
    double start;    /* when it may send */
    int step;        /* the step it received in */
} Sender;

typedef struct Build {
    FlMulticastAlgorithm alg;
    const int *jj;   /* OPT table, for OPT-tree and OPT-mesh */
    double t_hold, t_end;
} Build;

/* How many nodes of [l, r] (i of them) the sender at s keeps. */
static int keep_count(const Build *b, int l, int r, int s)
{
    int i = r - l + 1;
    switch (b->alg) {
    case FL_MULTICAST_SEQUENTIAL: return i - 1;
    case FL_MULTICAST_CHAIN: return 1;
    case FL_MULTICAST_BINOMIAL: return i / 2;
    case FL_MULTICAST_UMESH: {
        int c = l + (r - l) / 2;
        return s <= c ? c - l + 1 : r - c;
    }
    default: return b->jj[i];
    }
}

/* Adds the edges of every sender, sender by sender; the order of the
 * edges is fixed later. */
static int grow(const Build *b, const int *order, int n_nodes, int s0, FlMulticastEdge *edges,
                FlError *err)
{
    Sender *stack = malloc((size_t)n_nodes * sizeof *stack);
    if (!stack)
        return fl_error_set(err, FL_ENOMEM, "out of memory for a tree of %d nodes", n_nodes);
    int top = 0, n_edges = 0;
    stack[top++] = (Sender){ 0, n_nodes - 1, s0, 0.0, 0 };
    while (top > 0) {
        Sender me = stack[--top];
        int m = 0;
        while (me.l < me.r) {
            int keep = keep_count(b, me.l, me.r, me.s), rec;
            Sender child;
            if (me.s < me.l + keep) {
                rec = me.l + keep;
                child = (Sender){ rec, me.r, rec, 0, 0 };
                me.r = rec - 1;
            } else {
                rec = me.r - keep;
                child = (Sender){ me.l, rec, rec, 0, 0 };
                me.l = rec + 1;
            }
            double send = me.start + m * b->t_hold;
            m++;
            child.start = send + b->t_end;
            child.step = me.step + m;
            edges[n_edges++] = (FlMulticastEdge){ order[me.s], order[rec], child.step, send,
                                                  child.start };
            stack[top++] = child;
        }
    }
    free(stack);
    return FL_OK;
}

/* Sorting edges by send time keeps each sender's sends in order (they are
 * t_hold apart, or generated in order when t_hold = 0: qsort is not stable,
 * so the generation index breaks ties). Small keys rather than whole edges
 * are sorted: a million-node tree is mostly qsort's copying otherwise. */
typedef struct TimeKey {
    double time;
    int index;
} TimeKey;

static int cmp_time(const void *a, const void *b)
{
    const TimeKey *x = a, *y = b;
    if (x->time != y->time)
        return x->time > y->time ? 1 : -1;
    return fl__cmp_keys(&x->index, &y->index, 1);
}

/* (child << 32) | index: children are >= 0, so this sorts by child. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int finish(FlMulticastTree *tree, FlError *err)
{
    size_t n = (size_t)tree->n_edges;
    TimeKey *keys = malloc(n * sizeof *keys);
    uint64_t *kids = malloc(n * sizeof *kids);
    FlMulticastEdge *sorted = malloc(n * sizeof *sorted);
    tree->by_child = malloc(n * sizeof *tree->by_child);
    if (!keys || !kids || !sorted || !tree->by_child) {
        free(keys);
        free(kids);
        free(sorted);
        return fl_error_set(err, FL_ENOMEM, "out of memory for a tree of %d edges",
                            tree->n_edges);
    }
    for (size_t i = 0; i < n; i++)
        keys[i] = (TimeKey){ tree->edges[i].send_time, (int)i };
    qsort(keys, n, sizeof *keys, cmp_time);
    tree->latency = 0.0;
    for (size_t i = 0; i < n; i++) {
        sorted[i] = tree->edges[keys[i].index];
        tree->latency = max2(tree->latency, sorted[i].recv_time);
        kids[i] = (uint64_t)(uint32_t)sorted[i].child << 32 | (uint32_t)i;
    }
    qsort(kids, n, sizeof *kids, cmp_u64);
    for (size_t i = 0; i < n; i++)
        tree->by_child[i] = (int)(kids[i] & 0xffffffffu);
    free(tree->edges);
    tree->edges = sorted;
    free(keys);
    free(kids);
    return FL_OK;
}

int fl_multicast_tree_new(const FlTopology *t, const FlRouting *r, FlMulticastAlgorithm alg,
                          int source, const int *dests, int n_dests, double t_hold,
                          double t_end, FlMulticastTree **out, FlError *err)
{
    if ((unsigned)alg >= FL_MULTICAST_ALGORITHM_COUNT)
        return fl_error_set(err, FL_EINVAL, "unknown multicast algorithm %d", (int)alg);
    if (r && t && fl_routing_topology(r) != t)
        return fl_error_set(err, FL_EINVAL, "the routing was built for another network");
    int rc = check_times(t_hold, t_end, err);
    if (!rc)
        rc = check_nodes(t, source, dests, n_dests, err);
    int mesh = alg == FL_MULTICAST_UMESH || alg == FL_MULTICAST_OPT_MESH;
    if (!rc && mesh)
        rc = check_mesh(t, r, alg, err);
    if (rc)
        return rc;

    int n_nodes = n_dests + 1, s = 0;
    FlMulticastTree *tree = calloc(1, sizeof *tree);
    int *order = malloc((size_t)n_nodes * sizeof *order);
    int *jj = NULL;
    if (tree)
        tree->edges = malloc((size_t)n_dests * sizeof *tree->edges);
    if (alg == FL_MULTICAST_OPT_TREE || alg == FL_MULTICAST_OPT_MESH)
        jj = malloc(((size_t)n_nodes + 1) * sizeof *jj);
    if (!tree || !order || !tree->edges || ((alg == FL_MULTICAST_OPT_TREE || alg ==
        FL_MULTICAST_OPT_MESH) && !jj)) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for a multicast to %d nodes",
                          n_dests);
        goto done;
    }
    tree->topo = t;
    tree->alg = alg;
    tree->source = source;
    tree->n_edges = n_dests;
    if (mesh) {
        rc = mesh_chain(r, source, dests, n_dests, order, &s, err);
    } else {
        order[0] = source;
        for (int i = 0; i < n_dests; i++)
            order[i + 1] = alg == FL_MULTICAST_SEQUENTIAL ? dests[n_dests - 1 - i] : dests[i];
    }
    if (!rc && jj)
        rc = fl_multicast_opt_table(n_nodes, t_hold, t_end, FL_MULTICAST_DP_AUTO, NULL, jj, err);
    Build b = { alg, jj, t_hold, t_end };
    if (!rc)
        rc = grow(&b, order, n_nodes, s, tree->edges, err);
    if (!rc)
        rc = finish(tree, err);
done:
    free(order);
    free(jj);
    if (rc) {
        fl_multicast_tree_free(tree);
        return rc;
    }
    *out = tree;
    return FL_OK;
}

void fl_multicast_tree_free(FlMulticastTree *tree)
{
    if (!tree)
        return;
    free(tree->edges);
    free(tree->by_child);
    free(tree);
}

FlMulticastAlgorithm fl_multicast_tree_algorithm(const FlMulticastTree *tree)
{
    return tree->alg;
}

int fl_multicast_tree_source(const FlMulticastTree *tree)
{
    return tree->source;
}

double fl_multicast_tree_latency(const FlMulticastTree *tree)
{
    return tree->latency;
}

int fl_multicast_tree_edge_count(const FlMulticastTree *tree)
{
    return tree->n_edges;
}

const FlMulticastEdge *fl_multicast_tree_edge(const FlMulticastTree *tree, int index)
{
    return index >= 0 && index < tree->n_edges ? &tree->edges[index] : NULL;
}

const FlMulticastEdge *fl_multicast_tree_edge_to(const FlMulticastTree *tree, int node)
{
    int lo = 0, hi = tree->n_edges - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        const FlMulticastEdge *e = &tree->edges[tree->by_child[mid]];
        if (e->child == node)
            return e;
        if (e->child < node)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

int fl_multicast_tree_messages(const FlMulticastTree *tree, int flits, FlMessage **out, int *n,
                               FlError *err)
{
    *out = NULL;
    *n = 0;
    if (flits < 1)
        return fl_error_set(err, FL_ERANGE, "a message needs at least 1 flit, not %d", flits);
    if (tree->n_edges == 0)
        return FL_OK;
    FlMessage *m = malloc(sizeof *m * (size_t)tree->n_edges);
    if (!m)
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d messages", tree->n_edges);
    /* Edges are in send order, each sender's sends among them in its own
     * order: the one-port order the message layer keeps per source. */
    for (int i = 0; i < tree->n_edges; i++) {
        const FlMulticastEdge *e = &tree->edges[i];
        const FlMulticastEdge *in = fl_multicast_tree_edge_to(tree, e->parent);
        m[i] = (FlMessage){ e->parent, e->child, flits,
                            in ? (int)(in - tree->edges) : -1 };
    }
    *out = m;
    *n = tree->n_edges;
    return FL_OK;
}
