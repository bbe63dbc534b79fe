/* multicast-contention.c — which unicasts of a multicast tree share a
 * channel while both are in flight, under a routing (see multicast.h for
 * what counts).
 */
#include <stdlib.h>

#include "multicast-internal.h"

/* An edge's route takes a channel. */
typedef struct Use {
    int channel, edge;
} Use;

static int cmp_use(const void *a, const void *b)
{
    const Use *x = a, *y = b;
    return fl__cmp_keys((const int[]){ x->channel, x->edge },
                        (const int[]){ y->channel, y->edge }, 2);
}

static int cmp_conflict(const void *a, const void *b)
{
    const FlMulticastConflict *x = a, *y = b;
    return fl__cmp_keys((const int[]){ x->edge_a, x->edge_b, x->channel },
                        (const int[]){ y->edge_a, y->edge_b, y->channel }, 3);
}

/* Every channel every edge's route takes, as (channel, edge) uses. */
static int collect_uses(const FlMulticastTree *tree, const FlRouting *r, Use **uses, int *n_uses,
                        FlError *err)
{
    const FlTopology *t = tree->topo;
    int cap = 0, n = 0, rc = FL_OK;
    Use *u = NULL;
    for (int e = 0; e < tree->n_edges && !rc; e++) {
        const FlMulticastEdge *ed = &tree->edges[e];
        int a = fl_topology_host_switch(t, fl_topology_host_node(t, ed->parent));
        int b = fl_topology_host_switch(t, fl_topology_host_node(t, ed->child));
        int *ch = NULL, len = 0;
        rc = fl_routing_path(r, a, b, FL_SELECT_LOWEST_PORT, NULL, &ch, &len, err);
        if (!rc && n + len > cap) {
            int ncap = cap ? cap * 2 : 64;
            while (ncap < n + len)
                ncap *= 2;
            Use *nu = realloc(u, (size_t)ncap * sizeof *nu);
            if (nu) {
                u = nu;
                cap = ncap;
            } else {
                rc = fl_error_set(err, FL_ENOMEM, "out of memory for the routes of a tree");
            }
        }
        for (int i = 0; !rc && i < len; i++)
            u[n++] = (Use){ ch[i], e };
        free(ch);
    }
    if (rc) {
        free(u);
        return rc;
    }
    *uses = u;
    *n_uses = n;
    return FL_OK;
}

int fl_multicast_tree_contention(const FlMulticastTree *tree, const FlRouting *r,
                                 int include_same_sender, FlMulticastConflict **conflicts,
                                 int *n, FlError *err)
{
    if (!tree->topo || !r || fl_routing_topology(r) != tree->topo)
        return fl_error_set(err, FL_EINVAL, "contention needs a tree built on the routing's "
                            "network");
    Use *u = NULL;
    int n_uses = 0;
    int rc = collect_uses(tree, r, &u, &n_uses, err);
    if (rc)
        return rc;
    qsort(u, (size_t)n_uses, sizeof *u, cmp_use);
    FlMulticastConflict *c = NULL;
    int nc = 0, cap = 0;
    for (int g = 0; g < n_uses && !rc;) {
        int end = g;
        while (end < n_uses && u[end].channel == u[g].channel)
            end++;
        for (int i = g; i < end && !rc; i++) {
            for (int k = i + 1; k < end && !rc; k++) {
                const FlMulticastEdge *a = &tree->edges[u[i].edge], *b = &tree->edges[u[k].edge];
                int same = a->parent == b->parent;
                if (a->send_time >= b->recv_time || b->send_time >= a->recv_time ||
                    (same && !include_same_sender))
                    continue;
                if (nc == cap) {
                    int ncap = cap ? cap * 2 : 16;
                    FlMulticastConflict *nn = realloc(c, (size_t)ncap * sizeof *nn);
                    if (!nn) {
                        rc = fl_error_set(err, FL_ENOMEM, "out of memory for conflicts");
                        break;
                    }
                    c = nn;
                    cap = ncap;
                }
                c[nc++] = (FlMulticastConflict){ u[i].edge, u[k].edge, u[g].channel, same };
            }
        }
        g = end;
    }
    free(u);
    if (rc) {
        free(c);
        return rc;
    }
    /* One entry per pair: its lowest shared channel. */
    if (nc > 0)
        qsort(c, (size_t)nc, sizeof *c, cmp_conflict);
    int kept = 0;
    for (int i = 0; i < nc; i++) {
        if (kept && c[kept - 1].edge_a == c[i].edge_a && c[kept - 1].edge_b == c[i].edge_b)
            continue;
        c[kept++] = c[i];
    }
    if (!kept) {
        free(c);
        c = NULL;
    }
    *conflicts = c;
    *n = kept;
    return FL_OK;
}
