/* gen-xmesh.c — the crossed mesh XMESH (paper 003) and the diagonal mesh
 * DMESH (Arden), both of N x K switches (i, j), i modulo N, j modulo K.
 *
 * XMESH (N, K even, >= 4): the straight links of a torus along j (the
 * K-sized dimension); instead of links along i, diagonal cross links. With
 * i + j even, (i, j) is linked to (i-1, j-1), (i, j-1), (i, j+1), (i+1, j+1);
 * with i + j odd, to (i, j-1), (i+1, j-1), (i-1, j+1), (i, j+1). The paper's
 * text puts the straight links on the N-sized dimension, which contradicts
 * its own Tables 2 and 4; this orientation reproduces them (34x40 has
 * diameter 20, 36x72 diameter 36).
 *
 * DMESH (N, K odd, >= 3): (i, j) is linked to its four diagonal neighbours
 * (i±1, j±1).
 *
 * Port numbering (routing depends on it):
 *   xmesh: port 0 = (i, j+1), port 1 = (i, j-1), port 2 = the diagonal to
 *     i+1, port 3 = the diagonal to i-1.
 *   dmesh: port 0 = (i+1, j+1), port 1 = (i-1, j-1), port 2 = (i+1, j-1),
 *     port 3 = (i-1, j+1).
 *   Both pair port 0 with the peer's port 1 and port 2 with the peer's
 *   port 3; hosts take ports 4, 5, ...
 *
 * Coordinates (i, j), switch rank i * K + j; drawn at x = j, y = i, so the
 * straight links of an XMESH are horizontal as in the paper's figures.
 */
#include "generators.h"

/* The links a switch starts: for parity p of i + j, link 0 (from port 0 to
 * the peer's port 1) goes to (i + delta[p][0][0], j + delta[p][0][1]) and
 * link 1 (port 2 to the peer's port 3) to (i + delta[p][1][0], ...). The
 * ports 1 and 3 of a switch are taken by the links its neighbours start. */
typedef int Deltas[2][2][2];

static const Deltas xmesh_deltas = {
    { { 0, 1 }, { 1, 1 } },     /* i + j even */
    { { 0, 1 }, { 1, -1 } },    /* i + j odd */
};

static const Deltas dmesh_deltas = {
    { { 1, 1 }, { 1, -1 } },
    { { 1, 1 }, { 1, -1 } },
};

/* Checks the sizes: not zero, of the family's parity, at least min. */
static int check_grid(FlSpec *spec, int odd, uint64_t min, const char *why, FlError *err)
{
    int rc = fl__spec_check_min(spec, 1, why, err);
    if (rc)
        return rc;
    for (int d = 0; d < spec->ndims; d++) {
        if ((int)(spec->size[d] % 2) != odd) {
            char size[64];
            fl__spec_format_size(spec, size, sizeof size);
            return odd ? fl_error_set(err, FL_ESPEC, "%s sizes must be odd: got %s",
                                      spec->family->info.name, size)
                       : fl_error_set(err, FL_ESPEC, "%s sizes must be even: got %s",
                                      spec->family->info.name, size);
        }
    }
    if ((rc = fl__spec_check_min(spec, min, why, err)))
        return rc;
    fl__spec_set_grid_switches(spec);
    fl__spec_set_regular_ports(spec, 4);
    return FL_OK;
}

int fl__xmesh_check(FlSpec *spec, FlError *err)
{
    return check_grid(spec, 0, 4, "an xmesh needs at least 4 switches per dimension", err);
}

int fl__dmesh_check(FlSpec *spec, FlError *err)
{
    return check_grid(spec, 1, 3, "a dmesh needs at least 3 switches per dimension", err);
}

static int wrap(int v, int n)
{
    return v < 0 ? v + n : v >= n ? v - n : v;
}

static int build_grid(const FlSpec *spec, FlTopology *t, const Deltas delta, FlError *err)
{
    int n = spec->dims[0], k = spec->dims[1];
    fl_topology_set_coord_dims(t, 2);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++) {
            int r = i * k + j, parity = (i + j) & 1;
            int ij[2] = { i, j };
            for (int l = 0; l < 2; l++) {
                const int *dl = delta[parity][l];
                int peer = wrap(i + dl[0], n) * k + wrap(j + dl[1], k);
                int rc = fl__spec_link(t, r, 2 * l, peer, 2 * l + 1, err);
                if (rc)
                    return rc;
            }
            fl_topology_set_coords(t, r, ij);
            fl_topology_set_position(t, r, j, i);
        }
    }
    return FL_OK;
}

/* The way a port's link leaves switch sw as drawn (x = j, y = i): towards
 * the neighbour the short way round, wrap-around links included. Ports 1
 * and 3 lead back along the links that the neighbours start on ports 0
 * and 2, which keep their parity. */
static void direction(const Deltas delta, const FlTopology *t, int sw, int port,
                      double *dx, double *dy)
{
    int c[2];
    fl_topology_get_coords(t, sw, c);
    const int *dl = delta[(c[0] + c[1]) & 1][port / 2 % 2];
    double sign = port % 2 ? -1.0 : 1.0;
    *dx = sign * dl[1];
    *dy = sign * dl[0];
}

void fl__xmesh_direction(const FlSpec *spec, const FlTopology *t, int sw, int port,
                         double *dx, double *dy)
{
    direction(xmesh_deltas, t, sw, port, dx, dy);
}

void fl__dmesh_direction(const FlSpec *spec, const FlTopology *t, int sw, int port,
                         double *dx, double *dy)
{
    direction(dmesh_deltas, t, sw, port, dx, dy);
}

int fl__xmesh_build(const FlSpec *spec, FlTopology *t, FlError *err)
{
    return build_grid(spec, t, xmesh_deltas, err);
}

int fl__dmesh_build(const FlSpec *spec, FlTopology *t, FlError *err)
{
    return build_grid(spec, t, dmesh_deltas, err);
}
