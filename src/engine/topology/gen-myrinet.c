/* gen-myrinet.c — Myrinet clusters of 4-port switches (paper 004, Figs 1
 * and 2): a linear array and an N x M 2D mesh.
 *
 * Port numbering (routing depends on it): the mesh convention of
 * gen-cube.c, port 2d to +1 in dimension d and port 2d + 1 to -1; so on the
 * linear array port 0 leads right and port 1 left, and on the mesh ports 0
 * and 1 move x0, ports 2 and 3 move x1. Every port left free carries a
 * host, in port order: a linear array has 2 hosts per inner switch and 3 at
 * each end (2N + 2 in all); the mesh has hosts only on its boundary, 2 on
 * each corner switch and 1 on every other edge switch (2(N + M) in all).
 * The paper does not state the number of hosts per switch; filling the free
 * ports is the reading that matches its figures.
 *
 * Links, coordinates and drawing are those of mesh:N or mesh:NxM (spec.c
 * builds both families with fl__mesh_build()): dimension 0, of size N, runs
 * along x.
 */
#include "generators.h"

#define MYRINET_PORTS 4

/* The part of the checks the two arrays share: sizes and switch ports. */
static int check_array(FlSpec *spec, FlError *err)
{
    int rc = fl__spec_check_min(spec, 2, "a Myrinet array needs at least 2 switches per "
                                "dimension", err);
    if (rc)
        return rc;
    fl__spec_set_grid_switches(spec);
    spec->switch_ports = MYRINET_PORTS;
    return FL_OK;
}

int fl__myrinet_line_check(FlSpec *spec, FlError *err)
{
    int rc = check_array(spec, err);
    if (rc)
        return rc;
    /* Two free ports on every switch, one more at each end. Saturating
     * sums: the sizes may be absurd, and the limits refuse them later. */
    uint64_t inner = fl__mul_sat(spec->switches, 2);
    spec->hosts_total = inner > UINT64_MAX - 2 ? UINT64_MAX : inner + 2;
    return FL_OK;
}

int fl__myrinet_mesh_check(FlSpec *spec, FlError *err)
{
    int rc = check_array(spec, err);
    if (rc)
        return rc;
    /* Corners have 2 free ports, other edge switches 1, inner ones none:
     * 4 * 2 + 2 (N - 2) + 2 (M - 2). */
    uint64_t half = spec->size[0] + spec->size[1];
    spec->hosts_total = half < spec->size[0] ? UINT64_MAX : fl__mul_sat(half, 2);
    return FL_OK;
}
