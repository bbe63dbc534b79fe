/* irregular.c — the module flitlab-irregular (irregular.h): igraph's
 * Viger-Latapy degree-sequence game draws a random irregular network, and
 * a force-directed layout places its switches.
 *
 * The game samples simple connected graphs with exactly the given degrees,
 * from igraph's default random generator, which fl__igraph_enter() seeds,
 * so the same seed always gives the same graph and layout.
 */
#include <math.h>

#include "igraph-scope.h"

/* Kamada–Kawai gives the tidiest drawings of the small networks people look
 * at, but its cost grows with the square of the switch count (0.4 s for 400
 * switches, 3 s for 1000); above this size Fruchterman–Reingold with a grid
 * takes over, 500 iterations up to FR_FULL_MAX switches (0.05 s), fewer
 * above so that the work stays that of FR_FULL_MAX switches: a drawing of
 * thousands of random switches is a hairball however long it is polished,
 * and the full 500 iterations were most of the time `flitlab route` spends
 * on 4096 switches before routing (0.17 of 0.24 s). */
#define KAMADA_KAWAI_MAX 400
#define FR_ITERATIONS 500
#define FR_FULL_MAX 1024
#define FR_MIN_ITERATIONS 10

/* A force-directed layout of g into xy, inside an igraph scope. */
static int layout(const igraph_t *g, double *xy, FlIgraphFailure *fail)
{
    igraph_integer_t n = igraph_vcount(g);
    igraph_matrix_t res;
    igraph_error_t ig = igraph_matrix_init(&res, 0, 0);
    if (ig)
        return fl__igraph_fail(fail, ig, "allocate a layout");
    if (n <= KAMADA_KAWAI_MAX)
        /* Without a seed layout KK starts from a circle: deterministic. */
        ig = igraph_layout_kamada_kawai(g, &res, 0, 50 * n, 0.0, (igraph_real_t)n, NULL,
                                        NULL, NULL, NULL, NULL);
    else {
        igraph_integer_t iterations = FR_ITERATIONS;
        if (n > FR_FULL_MAX)
            iterations = FR_ITERATIONS * FR_FULL_MAX / n;
        if (iterations < FR_MIN_ITERATIONS)
            iterations = FR_MIN_ITERATIONS;
        ig = igraph_layout_fruchterman_reingold(g, &res, 0, iterations, sqrt((double)n),
                                                IGRAPH_LAYOUT_AUTOGRID, NULL, NULL, NULL,
                                                NULL, NULL);
    }
    if (ig) {
        igraph_matrix_destroy(&res);
        return fl__igraph_fail(fail, ig, "lay out the network");
    }
    for (igraph_integer_t v = 0; v < n; v++) {
        xy[2 * v] = MATRIX(res, v, 0);
        xy[2 * v + 1] = MATRIX(res, v, 1);
    }
    igraph_matrix_destroy(&res);
    return 0;
}

static int draw(int s, int p, uint64_t seed, int *edges_out, int n_edges, double *xy,
                FlIgraphFailure *fail)
{
    FlIgraphScope scope;
    igraph_vector_int_t degrees, edges;
    igraph_t g;
    igraph_error_t ig;
    int rc = fl__igraph_enter(&scope, seed, fail);
    if (rc)
        return rc;

    if ((ig = igraph_vector_int_init(&degrees, s))) {
        rc = fl__igraph_fail(fail, ig, "allocate a degree sequence");
        goto out_scope;
    }
    igraph_vector_int_fill(&degrees, p);
    /* The degrees must add up to an even number: when S and P are both odd,
     * the last switch gets one link fewer and keeps a free network port. */
    if (((long long)s * p) % 2)
        VECTOR(degrees)[s - 1] = p - 1;
    if ((ig = igraph_degree_sequence_game(&g, &degrees, NULL, IGRAPH_DEGSEQ_VL))) {
        rc = fl__igraph_fail(fail, ig, "draw a random network");
        goto out_degrees;
    }
    if ((ig = igraph_vector_int_init(&edges, 0))) {
        rc = fl__igraph_fail(fail, ig, "allocate an edge list");
        goto out_graph;
    }
    if ((ig = igraph_get_edgelist(&g, &edges, 0))) {
        rc = fl__igraph_fail(fail, ig, "list the links");
        goto out_edges;
    }
    /* The game keeps the degrees exactly, so this holds; a different count
     * would overrun the caller's array. */
    if (igraph_ecount(&g) != n_edges) {
        rc = fl__igraph_fail(fail, IGRAPH_FAILURE, "list the links");
        goto out_edges;
    }
    if ((rc = layout(&g, xy, fail)))
        goto out_edges;
    for (int e = 0; e < 2 * n_edges; e++)
        edges_out[e] = (int)VECTOR(edges)[e];

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

/* The module's table, which the loader looks up by name (flitlab/module.h). */
const FlIrregularModule flitlab_module_irregular = { FL_IRREGULAR_ABI, draw };
