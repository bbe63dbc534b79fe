/* gen-cube.c — k-ary n-cubes (mesh, torus), rings, lines and hypercubes.
 *
 * Port numbering (routing depends on it):
 *   mesh, torus (n = 1..3 dimensions): port 2d leads to +1 in dimension d,
 *     port 2d + 1 to -1. On a mesh the ports that would leave the grid stay
 *     free, so every switch has 2n network ports. A torus wraps: port 2d of
 *     (.., k-1, ..) leads to (.., 0, ..).
 *   ring, line: port 0 leads to rank + 1, port 1 to rank - 1 (a ring wraps,
 *     a line leaves the end ports free).
 *   hypercube: port d leads to the switch whose address differs in bit d.
 *   Hosts take the ports after the network ports (2n, 2n + 1, ... on a
 *   k-ary n-cube; D, D + 1, ... on a hypercube).
 *
 * Coordinates: (x0, x1[, x2]) with switch rank r = x0 + A * (x1 + B * x2)
 * for mesh:AxB[xC] and torus:AxB[xC]; the rank itself for rings, lines and
 * hypercubes (where it is the address).
 */
#include <inttypes.h>
#include <math.h>

#include "generators.h"

/* The checks of the families with 2 * ndims network ports per switch and
 * at least min switches along every dimension. */
static int check_kary(FlSpec *spec, uint64_t min, const char *why, FlError *err)
{
    int rc = fl__spec_check_min(spec, min, why, err);
    if (rc)
        return rc;
    fl__spec_set_grid_switches(spec);
    fl__spec_set_regular_ports(spec, 2 * spec->ndims);
    return FL_OK;
}

int fl__mesh_check(FlSpec *spec, FlError *err)
{
    return check_kary(spec, 2, "a mesh needs at least 2 switches per dimension", err);
}

int fl__torus_check(FlSpec *spec, FlError *err)
{
    return check_kary(spec, 3, "a torus needs at least 3 switches per dimension (a ring "
                      "of 2 would need parallel links; use mesh or hypercube)", err);
}

int fl__ring_check(FlSpec *spec, FlError *err)
{
    return check_kary(spec, 3, "a ring needs at least 3 switches (a ring of 2 would need "
                      "parallel links; use line:2)", err);
}

int fl__line_check(FlSpec *spec, FlError *err)
{
    return check_kary(spec, 2, "a line needs at least 2 switches", err);
}

/* Joins the switches of a k-ary n-cube, with wrap-around links if wrap, and
 * sets their coordinates. Switch ids equal ranks here: the switches were
 * added first, in rank order. */
static int build_kary(const FlSpec *spec, FlTopology *t, int wrap, FlError *err)
{
    int n = spec->ndims, stride[FL_MAX_DIMS];
    int s_count = fl_topology_switch_count(t);
    stride[0] = 1;
    for (int d = 1; d < n; d++)
        stride[d] = stride[d - 1] * spec->dims[d - 1];
    fl_topology_set_coord_dims(t, n);

    int x[FL_MAX_DIMS] = { 0 };
    for (int r = 0; r < s_count; r++) {
        fl_topology_set_coords(t, r, x);
        for (int d = 0; d < n; d++) {
            int k = spec->dims[d], peer;
            if (x[d] + 1 < k)
                peer = r + stride[d];
            else if (wrap)
                peer = r - (k - 1) * stride[d];
            else
                continue;
            int rc = fl__spec_link(t, r, 2 * d, peer, 2 * d + 1, err);
            if (rc)
                return rc;
        }
        /* Advance the mixed-radix coordinates to rank r + 1. */
        for (int d = 0; d < n && ++x[d] == spec->dims[d]; d++)
            x[d] = 0;
    }
    return FL_OK;
}

/* As fl__layout_grid() and the drawing show them: dimensions 0 and 1 along
 * x and y, wrap-around links as spurs pointing out of the grid the way the
 * port leads; links of dimension 2 join layers drawn side by side and leave
 * up and to the right (towards the next layer) or down and to the left. */
void fl__kary_direction(const FlSpec *spec, const FlTopology *t, int sw, int port,
                        double *dx, double *dy)
{
    double sign = port % 2 ? -1.0 : 1.0;
    switch (port / 2) {
    case 0: *dx = sign, *dy = 0.0; break;
    case 1: *dx = 0.0, *dy = sign; break;
    default: *dx = sign, *dy = -sign; break;
    }
}

/* Mesh, line and the Myrinet arrays; a line is a mesh of one dimension. */
int fl__mesh_build(const FlSpec *spec, FlTopology *t, FlError *err)
{
    int rc = build_kary(spec, t, 0, err);
    if (!rc)
        fl__layout_grid(t, spec->ndims, spec->dims);
    return rc;
}

int fl__torus_build(const FlSpec *spec, FlTopology *t, FlError *err)
{
    int rc = build_kary(spec, t, 1, err);
    if (!rc)
        fl__layout_grid(t, spec->ndims, spec->dims);
    return rc;
}

int fl__ring_build(const FlSpec *spec, FlTopology *t, FlError *err)
{
    int rc = build_kary(spec, t, 1, err);
    if (rc)
        return rc;
    /* Neighbours one unit apart on a circle, rank 0 at the top, ranks
     * increasing clockwise on a screen whose y axis points down. */
    int n = spec->dims[0];
    const double pi = 3.14159265358979323846;
    double radius = 0.5 / sin(pi / n);
    for (int r = 0; r < n; r++) {
        double a = 2.0 * pi * r / n - pi / 2.0;
        fl_topology_set_position(t, r, radius * (1.0 + cos(a)), radius * (1.0 + sin(a)));
    }
    return FL_OK;
}

/* --- hypercube ---------------------------------------------------------------- */

#define HYPERCUBE_MAX_DIMS 20

int fl__hypercube_check(FlSpec *spec, FlError *err)
{
    if (spec->size[0] == 0)
        return fl_error_set(err, FL_ESPEC, "hypercube dimension is zero: use hypercube:1 "
                            "or more");
    if (spec->size[0] > HYPERCUBE_MAX_DIMS)
        return fl_error_set(err, FL_ERANGE, "hypercube:%" PRIu64 " is too large: at most "
                            "%d dimensions", spec->size[0], HYPERCUBE_MAX_DIMS);
    spec->switches = (uint64_t)1 << spec->size[0];
    fl__spec_set_regular_ports(spec, (int)spec->size[0]);
    return FL_OK;
}

/* The drawing: dimension d moves a switch by a vector v_d. Even dimensions
 * are mostly horizontal, odd ones mostly vertical, with lengths doubling
 * every two dimensions (1, 1, 2, 2, 4, 4, ...), so the switches sit near a
 * square grid with unit spacing. Without a skew, a link of dimension 2k
 * would run along a grid row through the 2^k - 1 switches between its ends;
 * the skews below tilt each pair of dimensions by a different small amount.
 * The first six were found by a search that maximised the smallest distance
 * between a switch and a link not its own: 0.73 units at D = 2, 0.30 at
 * D = 4, 0.175 at D = 6, 0.115 at D = 8, 0.045 at D = 10 and 0.009 at
 * D = 12. The rest only keep links off switches (no rational relation
 * between them); nobody reads a drawing of 8192 switches. */
static const double hypercube_skew[HYPERCUBE_MAX_DIMS / 2] = {
    0.45, -0.28, -0.21, -0.18, -0.45, -0.096, 0.0618, -0.0414, 0.0273, -0.0171,
};

int fl__hypercube_build(const FlSpec *spec, FlTopology *t, FlError *err)
{
    int dims = spec->dims[0], n = 1 << dims;
    double vx[HYPERCUBE_MAX_DIMS], vy[HYPERCUBE_MAX_DIMS];
    for (int d = 0; d < dims; d++) {
        double len = (double)(1 << (d / 2)), skew = hypercube_skew[d / 2];
        vx[d] = d % 2 ? skew : len;
        vy[d] = d % 2 ? len : skew;
    }
    fl_topology_set_coord_dims(t, 1);
    for (int r = 0; r < n; r++) {
        double x = 0.0, y = 0.0;
        for (int d = 0; d < dims; d++) {
            if (!(r >> d & 1)) {
                int rc = fl__spec_link(t, r, d, r | 1 << d, d, err);
                if (rc)
                    return rc;
            } else {
                x += vx[d];
                y += vy[d];
            }
        }
        fl_topology_set_coords(t, r, &r);
        fl_topology_set_position(t, r, x, y);
    }
    fl__layout_to_origin(t);
    return FL_OK;
}
