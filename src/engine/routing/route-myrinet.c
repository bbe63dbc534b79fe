/* route-myrinet.c — myrinet-dor: the row-column routing of the Myrinet
 * cluster models of paper 004 (myrinet-line and myrinet-mesh).
 *
 * Paper 004 routes dimension-ordered ("row-column" on the mesh) and its
 * Table 2 says what that means: the path types at a switch are requests
 * that come along the row from the left or the right and turn into the
 * column (LD, RD) or go on down it (DT, DE), never the reverse. A packet
 * therefore first travels along its row, changing column, and then along
 * the destination's column. gen-myrinet.c draws dimension 0 along x
 * (across a row), so row-column routing corrects x first, then y; on the
 * linear array it is simply the one dimension.
 *
 * The arrays are meshes with the mesh port convention, so the routing is
 * dor's mesh routing in order xy (route-dor.c, which serves the Myrinet
 * families only under this row's name), with one VC class: dimension order
 * on a mesh is deadlock-free without one more.
 */
#include <string.h>

#include "routing-internal.h"

static int myrinet_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    const FlTopology *t = r->t;
    const char *spec = t->spec ? t->spec : t->family;
    if (strcmp(t->family, "mesh") == 0 || strcmp(t->family, "line") == 0)
        return fl_error_set(err, FL_EUNSUPPORTED, "myrinet-dor needs a myrinet-line or "
                            "myrinet-mesh network; this network is %s \xe2\x80\x94 try dor",
                            spec);
    if (strcmp(t->family, "myrinet-line") != 0 && strcmp(t->family, "myrinet-mesh") != 0)
        return fl_error_set(err, FL_EUNSUPPORTED, "myrinet-dor needs a myrinet-line or "
                            "myrinet-mesh network; this network is %s", spec);
    if (opt->order && *opt->order)
        return fl_error_set(err, FL_EINVAL, "myrinet-dor: the dimension order is fixed "
                            "(row-column: x, then y), so an order ('%s') cannot be given",
                            opt->order);
    FlRoutingOptions row_column = { .root = -1, .vc_classes = 1 };
    return fl__route_dor.init(r, &row_column, err);
}

static int myrinet_next(const FlRouting *r, int sw, int in_channel, int in_class, int dest,
                        FlRouteChoice *out, int max)
{
    return fl__route_dor.next(r, sw, in_channel, in_class, dest, out, max);
}

static void myrinet_fini(FlRouting *r)
{
    fl__route_dor.fini(r);
}

static int myrinet_turn_prohibited(const FlRouting *r, int sw, int in_port, int out_port)
{
    return fl__route_dor.turn_prohibited(r, sw, in_port, out_port);
}

const FlRoutingAlgo fl__route_myrinet_dor = {
    .info = {
        .name = "myrinet-dor",
        .summary = FL_N_("row-column (dimension-ordered) routing of paper 004's Myrinet clusters"),
        .applies_to = FL_N_("myrinet-line and myrinet-mesh networks"),
        .is_table = 0,
    },
    .init = myrinet_init,
    .next = myrinet_next,
    .fini = myrinet_fini,
    .turn_prohibited = myrinet_turn_prohibited,
};
