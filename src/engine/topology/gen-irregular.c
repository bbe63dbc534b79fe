/* gen-irregular.c — random irregular networks (paper 002): S switches, each
 * with P inter-switch links, no parallel links or self-loops, connected, and
 * H hosts per switch (paper 002: S = 64, P = 4, H = 4 on 8-port switches).
 *
 * igraph's Viger–Latapy degree-sequence game draws the graph: it samples
 * simple connected graphs with exactly the given degrees, from igraph's
 * default random generator, which fl__igraph_enter() seeds from the spec, so
 * the same seed always gives the same network.
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

/* Draws the graph and its layout inside the igraph lock. On success the
 * caller owns *edges (2 ints per edge, lower rank first, sorted) and xy. */
static int draw_graph(const FlSpec *spec, int **edges_out, int *n_edges, double *xy,
                      FlError *err)
{
    int s = spec->dims[0], p = spec->ports;
    FlIgraphScope scope;
    igraph_vector_int_t degrees, edges;
    igraph_t g;
    igraph_error_t ig;
    int rc = fl__igraph_enter(&scope, spec->seed, err);
    if (rc)
        return rc;

    if ((ig = igraph_vector_int_init(&degrees, s))) {
        rc = fl__igraph_error(err, ig, "allocate a degree sequence");
        goto out_scope;
    }
    igraph_vector_int_fill(&degrees, p);
    /* The degrees must add up to an even number: when S and P are both odd,
     * the last switch gets one link fewer and keeps a free network port. */
    if (((long long)s * p) % 2)
        VECTOR(degrees)[s - 1] = p - 1;
    if ((ig = igraph_degree_sequence_game(&g, &degrees, NULL, IGRAPH_DEGSEQ_VL))) {
        rc = fl__igraph_error(err, ig, "draw a random network");
        goto out_degrees;
    }
    if ((ig = igraph_vector_int_init(&edges, 0))) {
        rc = fl__igraph_error(err, ig, "allocate an edge list");
        goto out_graph;
    }
    if ((ig = igraph_get_edgelist(&g, &edges, 0))) {
        rc = fl__igraph_error(err, ig, "list the links");
        goto out_edges;
    }
    if ((rc = fl__layout_igraph(&g, xy, err)))
        goto out_edges;

    *n_edges = (int)igraph_ecount(&g);
    *edges_out = malloc(sizeof(int) * 2 * (size_t)(*n_edges + 1));
    if (!*edges_out) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory listing the links");
        goto out_edges;
    }
    for (int e = 0; e < *n_edges; e++) {
        int a = (int)VECTOR(edges)[2 * e], b = (int)VECTOR(edges)[2 * e + 1];
        (*edges_out)[2 * e] = a < b ? a : b;
        (*edges_out)[2 * e + 1] = a < b ? b : a;
    }
    qsort(*edges_out, (size_t)*n_edges, 2 * sizeof(int), compare_edges);

out_edges:
    igraph_vector_int_destroy(&edges);
out_graph:
    igraph_destroy(&g);
out_degrees:
    igraph_vector_int_destroy(&degrees);
out_scope:
    fl__igraph_leave(&scope);
    return rc;
}

int fl__irregular_build(const FlSpec *spec, FlTopology *t, FlError *err)
{
    int s = spec->dims[0], n_edges = 0, *edges = NULL, rc;
    double *xy = malloc(sizeof(double) * 2 * (size_t)s);
    int *next_port = calloc((size_t)s, sizeof(int));
    if (!xy || !next_port) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory drawing a random network");
        goto out;
    }
    if ((rc = draw_graph(spec, &edges, &n_edges, xy, err)))
        goto out;
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
