/* route-dor.c — dimension-order routing: `dor` on meshes, lines, tori,
 * rings and hypercubes, and the engine behind `myrinet-dor`
 * (route-myrinet.c), which is the same routing on the Myrinet arrays.
 *
 * Meshes and tori (gen-cube.c's ports: 2d = +1 in dimension d, 2d + 1 = -1)
 * correct their coordinates one dimension at a time, in the order given by
 * opt->order ("xy" by default; "yx", or any permutation of "xyz" in 3D). A
 * hypercube is routed by e-cube: the lowest bit in which the current and
 * the destination address differ is corrected first (port d flips bit d).
 * Either way there is exactly one choice per hop.
 *
 * On a torus every dimension is a ring, and the packet takes the shorter
 * way round; when both ways are equally long (k even, k / 2 hops away) it
 * goes the + way, so that every route is one fixed path. With two VC
 * classes (the torus default) a dateline breaks the cycle that every ring
 * otherwise closes in the channel dependency graph: the packet travels in
 * class 0 in each dimension, crosses the wrap-around link (between
 * coordinates k - 1 and 0) still in class 0, and takes class 1 for the hops
 * after it in that dimension; it starts every new dimension in class 0
 * again. Class 0 channels then only depend on class 0 channels further from
 * the wrap link, or on class 1 channels; class 1 channels never reach the
 * wrap link again (a minimal route crosses it at most once), so neither
 * class closes a cycle. With one class there is no dateline and the CDG of
 * every ring has a cycle: the teaching point of the torus.
 *
 * next() is stateless: whether the packet has crossed the dateline is read
 * from the channel it arrived on (a wrap-around link of the current
 * dimension) and the class it arrived in.
 */
#include <stdlib.h>
#include <string.h>

#include "routing-internal.h"

typedef enum Shape {
    SHAPE_NONE,   /* a family dor does not route */
    SHAPE_MESH,
    SHAPE_TORUS,
    SHAPE_CUBE
} Shape;

/* Every family the generators know, with the routing that serves it: dor
 * for the k-ary n-cubes, myrinet-dor for the Myrinet arrays (meshes, but
 * routed row-column under their own name), and the self-routings for the
 * crossed and diagonal meshes. Families not listed (irregular, custom) are
 * pointed to up* / down*. */
static const struct FamilyRow {
    const char *family;
    Shape shape;
    const char *routing;
} families[] = {
    { "mesh", SHAPE_MESH, "dor" },
    { "line", SHAPE_MESH, "dor" },
    { "torus", SHAPE_TORUS, "dor" },
    { "ring", SHAPE_TORUS, "dor" },
    { "hypercube", SHAPE_CUBE, "dor" },
    { "myrinet-line", SHAPE_MESH, "myrinet-dor" },
    { "myrinet-mesh", SHAPE_MESH, "myrinet-dor" },
    { "xmesh", SHAPE_NONE, "xmesh" },
    { "dmesh", SHAPE_NONE, "dmesh" },
};

typedef struct DorState {
    Shape shape;
    int ndims;                 /* coordinate dimensions (1 for a hypercube) */
    int size[FL_MAX_DIMS];     /* switches along each dimension */
    int order[FL_MAX_DIMS];    /* the dimensions in the order they are corrected */
    int place[FL_MAX_DIMS];    /* inverse: dimension d is corrected place[d]-th */
    int dateline;              /* tori: two classes, switched at the wrap link */
} DorState;

static const struct FamilyRow *family_row(const FlTopology *t)
{
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (strcmp(families[i].family, t->family) == 0)
            return &families[i];
    return NULL;
}

/* Reads opt->order into s->order: NULL or "" keeps the natural order
 * (x, then y, then z); otherwise it must name each of the network's
 * dimensions once. */
static int parse_order(DorState *s, const char *order, const FlTopology *t, FlError *err)
{
    static const char axes[] = "xyz";
    for (int d = 0; d < s->ndims; d++)
        s->order[d] = d;
    if (!order || !*order)
        return FL_OK;
    if (s->shape == SHAPE_CUBE)
        return fl_error_set(err, FL_EINVAL, "dor: a hypercube is routed by e-cube (lowest "
                            "differing address bit first); the order '%s' applies only to "
                            "meshes and tori", order);
    int seen[FL_MAX_DIMS] = { 0 }, ok = strlen(order) == (size_t)s->ndims;
    for (int i = 0; ok && i < s->ndims; i++) {
        const char *axis = strchr(axes, order[i]);
        int d = axis && order[i] ? (int)(axis - axes) : FL_MAX_DIMS;
        ok = d < s->ndims && !seen[d];
        if (ok) {
            seen[d] = 1;
            s->order[i] = d;
        }
    }
    if (!ok)
        return fl_error_set(err, FL_EINVAL, "dor: bad dimension order '%s': the order must "
                            "name each of the dimensions of %s, '%.*s', once (e.g. '%.*s')",
                            order, t->spec ? t->spec : t->family, s->ndims, axes, s->ndims,
                            axes);
    return FL_OK;
}

/* Every switch needs the network ports the family's convention gives it,
 * or next() would read past its ports. */
static int check_ports(const FlTopology *t, int need, FlError *err)
{
    for (int i = 0; i < t->n_switches; i++) {
        int sw = t->switch_nodes[i];
        if (t->nports[sw] < need)
            return fl_error_set(err, FL_EUNSUPPORTED, "%s: switch %d has %d ports, fewer "
                                "than the %d network ports of its family", t->family, sw,
                                t->nports[sw], need);
    }
    return FL_OK;
}

static int dor_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    const FlTopology *t = r->t;
    const char *name = r->algo->info.name;
    const struct FamilyRow *row = family_row(t);
    if (!row || row->shape == SHAPE_NONE || strcmp(row->routing, name) != 0)
        return fl_error_set(err, FL_EUNSUPPORTED, "%s needs a mesh, torus or hypercube; "
                            "this network is %s \xe2\x80\x94 try %s", name,
                            t->spec ? t->spec : t->family, row ? row->routing : "updown");

    DorState *s = calloc(1, sizeof *s);
    if (!s)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    r->state = s;
    s->shape = row->shape;
    s->ndims = s->shape == SHAPE_CUBE ? 1 : t->family_ndims;
    if (s->ndims < 1 || s->ndims > FL_MAX_DIMS || t->coord_dims != s->ndims)
        return fl_error_set(err, FL_EUNSUPPORTED, "%s: %s has %d coordinate dimensions, "
                            "not the %d of its family", name, t->family, t->coord_dims,
                            s->ndims);
    for (int d = 0; d < s->ndims; d++)
        s->size[d] = t->family_dims[d];
    int rc = parse_order(s, opt->order, t, err);
    if (rc)
        return rc;
    for (int i = 0; i < s->ndims; i++)
        s->place[s->order[i]] = i;
    rc = check_ports(t, s->shape == SHAPE_CUBE ? t->family_dims[0] : 2 * s->ndims, err);
    if (rc)
        return rc;
    /* vc_classes is what the routing may use: a torus needs two for its
     * dateline and uses no more; everything else needs one. */
    s->dateline = s->shape == SHAPE_TORUS && opt->vc_classes != 1;
    r->vc_classes = s->dateline ? 2 : 1;
    return FL_OK;
}

static void dor_fini(FlRouting *r)
{
    free(r->state);
    r->state = NULL;
}

/* The class of the next hop in dimension d of a torus with a dateline:
 * class 0 when the packet starts the dimension here (injected, or arriving
 * along another dimension), otherwise the class it arrived in, raised to 1
 * if it arrived over the wrap-around link. */
static int dateline_class(const FlTopology *t, int sw, int in_channel, int in_class, int d)
{
    if (in_channel < 0 || fl__in_port(t, in_channel) / 2 != d)
        return 0;
    int from = fl__chan_src(t, in_channel);
    int step = t->coords[FL_MAX_DIMS * sw + d] - t->coords[FL_MAX_DIMS * from + d];
    return in_class != 0 || step > 1 || step < -1;
}

/* A dateline: a wrap-around channel (its ends more than one step apart
 * along its dimension) of a torus routed with two classes, where
 * dateline_class() raises the class of the hops after it. */
static int dor_channel_dateline(const FlRouting *r, int channel)
{
    const DorState *s = r->state;
    const FlTopology *t = r->t;
    int from = fl__chan_src(t, channel), to = fl__chan_dst(t, channel);
    int d = fl__in_port(t, channel) / 2;
    if (!s->dateline || t->kind[from] != FL_NODE_SWITCH || t->kind[to] != FL_NODE_SWITCH
        || d >= s->ndims || fl__out_port(t, channel) / 2 != d)
        return 0;
    int step = t->coords[FL_MAX_DIMS * to + d] - t->coords[FL_MAX_DIMS * from + d];
    return step > 1 || step < -1;
}

static int dor_next(const FlRouting *r, int sw, int in_channel, int in_class, int dest,
                    FlRouteChoice *out, int max)
{
    const DorState *s = r->state;
    const FlTopology *t = r->t;
    const int *c = t->coords + FL_MAX_DIMS * sw, *e = t->coords + FL_MAX_DIMS * dest;
    int port, vc = 0;
    if (max < 1)
        return 0;
    if (s->shape == SHAPE_CUBE) {
        unsigned diff = (unsigned)(c[0] ^ e[0]);
        if (!diff)
            return 0;
        for (port = 0; !(diff & 1u); port++)
            diff >>= 1;
    } else {
        int i = 0;
        while (i < s->ndims && c[s->order[i]] == e[s->order[i]])
            i++;
        if (i == s->ndims)
            return 0;
        int d = s->order[i], delta = e[d] - c[d], plus = delta > 0;
        if (s->shape == SHAPE_TORUS) {
            int k = s->size[d], forward = delta < 0 ? delta + k : delta;
            plus = forward <= k - forward;
            if (s->dateline)
                vc = dateline_class(t, sw, in_channel, in_class, d);
        }
        port = 2 * d + !plus;
    }
    int channel = fl__out_channel(t, sw, port);
    if (channel < 0)
        return 0;
    out[0] = (FlRouteChoice){ port, channel, vc };
    return 1;
}

/* Without a dateline a dor route is the switch's port towards the
 * destination, in class 0. */
static int dor_by_destination(const FlRouting *r)
{
    const DorState *s = r->state;
    return !s->dateline;
}

/* The turns no dor route takes, in closed form, so that building the
 * routing needs no walk over every route (half a second on a 64x64 mesh).
 * A turn from one dimension into another is taken exactly when the second
 * comes later in the order (a higher bit, by e-cube); on a hypercube no
 * other turn exists, as port d both enters and leaves along bit d. Going
 * straight on (out_port = in_port ^ 1, the same dimension and direction) is
 * taken on a mesh by any packet crossing the switch; round a ring of k
 * switches, two hops the + way are a shortest route once k >= 4 (at k = 4
 * the tie goes +), and two hops the - way once k >= 5. The caller passes
 * only turns between two switch links. */
static int dor_turn_prohibited(const FlRouting *r, int sw, int in_port, int out_port)
{
    const DorState *s = r->state;
    (void)sw;
    if (s->shape == SHAPE_CUBE)
        return out_port < in_port;
    int a = in_port / 2, b = out_port / 2;
    if (a >= s->ndims || b >= s->ndims)
        return 0;
    if (a != b)
        return s->place[b] < s->place[a];
    return s->shape == SHAPE_TORUS && s->size[b] < (out_port % 2 ? 5 : 4);
}

const FlRoutingAlgo fl__route_dor = {
    .info = {
        .name = "dor",
        .summary = FL_N_("dimension order (e-cube on hypercubes); a dateline with 2 VC classes "
                   "on tori"),
        .applies_to = FL_N_("meshes, tori, rings, lines and hypercubes"),
        .is_table = 0,
        .options = FL__OPTIONS(&fl__routing_option_order, &fl__routing_option_classes),
    },
    .init = dor_init,
    .next = dor_next,
    .fini = dor_fini,
    .turn_prohibited = dor_turn_prohibited,
    .channel_dateline = dor_channel_dateline,
    .by_destination = dor_by_destination,
};
