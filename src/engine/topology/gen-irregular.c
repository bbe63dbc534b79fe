/* gen-irregular.c — random irregular networks (paper 002): S switches, each
 * with P inter-switch links, no parallel links or self-loops, connected, and
 * H hosts per switch (paper 002: S = 64, P = 4, H = 4 on 8-port switches).
 *
 * igraph's Viger–Latapy degree-sequence game draws the graph (the module
 * flitlab-irregular, fl__irregular_draw()): it samples simple connected
 * graphs with exactly the given degrees, seeded from the spec, so the same
 * seed always gives the same network.
 *
 * Port numbering (routing depends on it): a switch's links take ports
 * 0 .. P-1 in the order of its neighbours' ranks, lowest first (links are
 * made in sorted order of their (lower rank, higher rank) pairs); hosts take
 * ports P .. P+H-1. No coordinates; the drawing is a force-directed layout
 * scaled so that a link is 1.5 units long on average.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "generators.h"

int fl__irregular_check(FlSpec *spec, FlError *err)
{
    uint64_t s = spec->size[0];
    int p = spec->ports;
    int rc = fl__spec_check_min(spec, 2, "an irregular network needs at least 2 switches",
                                err);
    if (rc)
        return rc;
    if (p < 1)
        return fl_error_set(err, FL_ESPEC, "irregular: ports must be at least 1 (it "
                            "counts the inter-switch links of each switch)");
    if ((uint64_t)p >= s)
        return fl_error_set(err, FL_ESPEC, "irregular: %d switches cannot each have %d "
                            "inter-switch links (at most %d)", (int)s, p, (int)s - 1);
    if (p == 1 && s > 2)
        return fl_error_set(err, FL_ESPEC, "irregular: %" PRIu64 " switches with 1 "
                            "inter-switch link each cannot form a connected network (use "
                            "ports=2 or more)", s);
    spec->switches = s;
    fl__spec_set_regular_ports(spec, p);
    return FL_OK;
}

static int compare_edges(const void *a, const void *b)
{
    const int *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

int fl__irregular_build(const FlSpec *spec, FlTopology *t, FlError *err)
{
    int s = spec->dims[0], rc;
    /* The last switch has one link fewer when S and P are both odd. */
    int n_edges = (int)((long long)s * spec->ports / 2);
    double *xy = malloc(sizeof(double) * 2 * (size_t)s);
    int *next_port = calloc((size_t)s, sizeof(int));
    int *edges = malloc(sizeof(int) * 2 * (size_t)(n_edges + 1));
    if (!xy || !next_port || !edges) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory drawing a random network");
        goto out;
    }
    if ((rc = fl__irregular_draw(s, spec->ports, spec->seed, edges, n_edges, xy, err)))
        goto out;
    /* Links are made in sorted order of their (lower rank, higher rank)
     * pairs, whatever order igraph lists them in. */
    for (int e = 0; e < n_edges; e++) {
        int a = edges[2 * e], b = edges[2 * e + 1];
        edges[2 * e] = a < b ? a : b;
        edges[2 * e + 1] = a < b ? b : a;
    }
    qsort(edges, (size_t)n_edges, 2 * sizeof(int), compare_edges);
    for (int e = 0; e < n_edges; e++) {
        int a = edges[2 * e], b = edges[2 * e + 1];
        if ((rc = fl__spec_link(t, a, next_port[a]++, b, next_port[b]++, err)))
            goto out;
    }
    for (int r = 0; r < s; r++)
        fl_topology_set_position(t, r, xy[2 * r], xy[2 * r + 1]);
    fl__layout_scale_links(t, 1.5);

out:
    free(edges);
    free(next_port);
    free(xy);
    return rc;
}
