/* route-updown.c — up* / down* routing (paper 002 §2, Autonet), and the BFS
 * spanning tree and root choice it shares with L-turn and R-turn.
 *
 * The tree: breadth-first from the root over the switches; a switch's
 * children are the not yet reached neighbours in the order of its ports, so
 * the port numbering decides between equally near parents.
 *
 * A channel is "up" when it leads to a switch nearer the root, or to one at
 * the same depth with a smaller node id; every other channel is "down".
 * Legal routes take zero or more up channels, then zero or more down
 * channels: the prohibited turns are exactly down -> up. Among legal routes
 * the table keeps the shortest (route-table.c).
 *
 * The root. Paper 002 (§5.2) picks "the switch with the fewest crossing
 * paths, ties to the least mean distance to the others" and never defines
 * crossing paths. We read a switch's crossing paths as the shortest paths
 * between other switches that pass through it, each source-destination pair
 * counting as one unit shared equally among its shortest paths: the
 * switch's betweenness centrality (Brandes' algorithm, O(S * (S + L))). A
 * switch few shortest paths cross is one whose extra up* / down* traffic,
 * which converges on the root, lands where minimal routes put the least load
 * already. Equal betweenness (within a relative 1e-9, the rounding of the
 * floating-point path counts) falls to the least total distance to the
 * other switches, and then to the lowest node id. On a vertex-transitive
 * network (a torus, a hypercube) every switch ties on both and switch 0 is
 * the root.
 */
#include <math.h>
#include <stdlib.h>

#include "route-table.h"

int fl__spanning_tree(const FlTopology *t, int root, int *parent, int *depth, int *preorder,
                      FlError *err)
{
    /* queue: the BFS order, then the preorder walk's stack. A switch's
     * children are appended to the queue together while it is expanded,
     * so they sit at queue[child_start .. child_end) in port order. */
    size_t nn = (size_t)t->n_nodes + 1;
    int *queue = malloc(sizeof *queue * ((size_t)t->n_switches + 1));
    int *stack = malloc(sizeof *stack * ((size_t)t->n_switches + 1));
    int *child_start = malloc(sizeof *child_start * nn);
    int *child_end = malloc(sizeof *child_end * nn);
    if (!queue || !stack || !child_start || !child_end) {
        free(queue);
        free(stack);
        free(child_start);
        free(child_end);
        return fl_error_set(err, FL_ENOMEM, "out of memory for the spanning tree");
    }
    for (int n = 0; n < t->n_nodes; n++) {
        parent[n] = -1;
        depth[n] = -1;
        if (preorder)
            preorder[n] = -1;
    }
    int head = 0, tail = 0;
    depth[root] = 0;
    queue[tail++] = root;
    while (head < tail) {
        int u = queue[head++];
        child_start[u] = tail;
        for (int p = 0; p < t->nports[u]; p++) {
            if (!fl__switch_port(t, u, p))
                continue;
            int v = fl__link_other(t, t->port_link[t->port_base[u] + p], u);
            if (depth[v] >= 0)
                continue;
            depth[v] = depth[u] + 1;
            parent[v] = u;
            queue[tail++] = v;
        }
        child_end[u] = tail;
    }
    if (preorder) {
        /* Depth-first walk of the tree; children pushed last-first so the
         * first in port order is walked first. */
        int top = 0, next_index = 0;
        stack[top++] = root;
        while (top > 0) {
            int u = stack[--top];
            preorder[u] = next_index++;
            for (int k = child_end[u] - 1; k >= child_start[u]; k--)
                stack[top++] = queue[k];
        }
    }
    free(queue);
    free(stack);
    free(child_start);
    free(child_end);
    return FL_OK;
}

int fl__default_root(const FlTopology *t, int *root, int64_t *distance_sum, FlError *err)
{
    int n = t->n_switches;
    FlSwitchGraph g;
    if (fl__switch_graph_build(t, &g))
        return fl_error_set(err, FL_ENOMEM, "out of memory for the root choice");
    /* What the search from one source keeps per switch, together, since
     * each arc reads and writes most of it at once. The predecessors of w
     * on shortest paths from s are at pred[g.off[w] .. at[w].pred_end):
     * fewer than its neighbours, so the dependency pass need not look at
     * every arc again. Within one w each predecessor gets its own sum (or,
     * over parallel links, equal terms), so the order they are listed in
     * changes no bit of the result. */
    struct BfsState {
        double sigma;
        int dist, pred_end;
    } *at = malloc(sizeof *at * (size_t)n);
    double *delta = malloc(sizeof *delta * (size_t)n);
    int *order = malloc(sizeof *order * ((size_t)n + 1));
    double *between = calloc((size_t)n, sizeof *between);
    int64_t *total = calloc((size_t)n, sizeof *total);
    int *pred = malloc(sizeof *pred * ((size_t)g.off[n] + 1));
    int rc = FL_OK;
    if (!at || !delta || !order || !between || !total || !pred) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the root choice");
        goto free_all;
    }
    for (int s = 0; s < n; s++) {
        /* Breadth-first from s, counting shortest paths. */
        for (int v = 0; v < n; v++) {
            at[v] = (struct BfsState){ .dist = -1, .pred_end = g.off[v] };
            delta[v] = 0;
        }
        int head = 0, tail = 0;
        at[s].dist = 0;
        at[s].sigma = 1;
        order[tail++] = s;
        while (head < tail) {
            int v = order[head++];
            int next = at[v].dist + 1;
            double sv = at[v].sigma;
            total[s] += at[v].dist;
            /* Whether an arc joins two levels is random on an irregular
             * network, so arithmetic replaces branches the processor would
             * mispredict: an arc off the shortest paths adds sv * 0.0, an
             * exact +0.0, and lists and queues nothing. */
            for (int k = g.off[v]; k < g.off[v + 1]; k++) {
                struct BfsState *w = &at[g.adj[k]];
                int fresh = w->dist < 0;
                w->dist += fresh * (next + 1); /* from -1 */
                order[tail] = g.adj[k];        /* order has room for one past the last */
                tail += fresh;
                int on_path = w->dist == next;
                w->sigma += sv * (double)on_path;
                /* Kept only when on_path; w has a slot per arc, so even
                 * the write of its last arc stays in its own slots. */
                pred[w->pred_end] = v;
                w->pred_end += on_path;
            }
        }
        /* Dependencies, farthest first (Brandes 2001). */
        for (int k = tail - 1; k > 0; k--) {
            int w = order[k];
            double sw = at[w].sigma, dw = delta[w];
            for (int e = g.off[w]; e < at[w].pred_end; e++) {
                int v = pred[e];
                delta[v] += at[v].sigma / sw * (1.0 + dw);
            }
            between[w] += dw;
        }
    }
    int best = 0;
    for (int v = 1; v < n; v++) {
        double tol = 1e-9 * fmax(1.0, fabs(between[best]));
        if (between[v] < between[best] - tol
            || (between[v] <= between[best] + tol && total[v] < total[best]))
            best = v;
    }
    *root = t->switch_nodes[best];
    *distance_sum = 0;
    for (int v = 0; v < n; v++)
        *distance_sum += total[v];
free_all:
    free(at);
    free(delta);
    free(order);
    free(between);
    free(total);
    free(pred);
    fl__switch_graph_free(&g);
    return rc;
}

int fl__tree_routing_setup(FlRouting *r, const FlRoutingOptions *opt, int **depth,
                           int **preorder, FlError *err)
{
    const FlTopology *t = r->t;
    int root = opt->root;
    int rc = root >= 0 ? FL_OK : fl__default_root(t, &root, &r->distance_sum, err);
    if (rc)
        return rc;
    size_t bytes = sizeof(int) * ((size_t)t->n_nodes + 1);
    r->parent = malloc(bytes);
    int *d = malloc(bytes);
    int *pre = preorder ? malloc(bytes) : NULL;
    if (!r->parent || !d || (preorder && !pre)) {
        free(d);
        free(pre);
        return fl_error_set(err, FL_ENOMEM, "out of memory for the spanning tree");
    }
    rc = fl__spanning_tree(t, root, r->parent, d, pre, err);
    if (rc) {
        free(d);
        free(pre);
        return rc;
    }
    r->root = root;
    *depth = d;
    if (preorder)
        *preorder = pre;
    return FL_OK;
}

enum { UPDOWN_UP, UPDOWN_DOWN };
static const char *const updown_labels[] = { "up", "down" };

static int updown_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    const FlTopology *t = r->t;
    FlRouteTable *tab;
    int *depth;
    int rc = fl__table_new(r, opt, &tab, err);
    if (rc)
        return rc;
    rc = fl__tree_routing_setup(r, opt, &depth, NULL, err);
    if (rc)
        return rc;
    tab->label = malloc(2 * (size_t)t->n_links + 1);
    if (!tab->label) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the up/down labels");
        goto free_depth;
    }
    tab->label_names = updown_labels;
    for (int c = 0; c < 2 * t->n_links; c++) {
        int a = fl__chan_src(t, c), b = fl__chan_dst(t, c);
        int up = depth[b] < depth[a] || (depth[b] == depth[a] && b < a);
        tab->label[c] = up ? UPDOWN_UP : UPDOWN_DOWN;
    }
    /* Down -> up: arriving on a down channel, leaving on an up one. */
    for (int i = 0; i < t->n_switches; i++) {
        int sw = t->switch_nodes[i];
        for (int a = 0; a < t->nports[sw]; a++) {
            if (!fl__switch_port(t, sw, a)
                || tab->label[fl__out_channel(t, sw, a) ^ 1] != UPDOWN_DOWN)
                continue;
            for (int b = 0; b < t->nports[sw]; b++)
                if (b != a && fl__switch_port(t, sw, b)
                    && tab->label[fl__out_channel(t, sw, b)] == UPDOWN_UP)
                    fl__table_prohibit(tab, sw, a, b);
        }
    }
    rc = fl__table_build(tab, opt, 0.0, err);
free_depth:
    free(depth);
    return rc;
}

const FlRoutingAlgo fl__route_updown =
    FL__TABLE_ROW("updown", FL_N_("up*/down*: up channels, then down channels, over a BFS tree"),
                  FL_N_("any network"), FL__OPTIONS(&fl__routing_option_root), updown_init);
