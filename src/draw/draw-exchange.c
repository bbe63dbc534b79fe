/* draw-exchange.c — one step of a complete exchange (flitlab/alltoall.h)
 * drawn over the torus it runs on: every message of the step along its
 * dimension-ordered path, in a lane on the right of each channel it takes
 * (so a pairwise swap shows both ways), with an arrow head where it
 * arrives; the selected node's outgoing and incoming messages emphasised
 * and the node ringed.
 *
 * The lanes follow the links as fl_draw_topology() draws them (a
 * wrap-around's two spurs), through the shared scene of draw-scene.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "draw-scene-private.h"

/* ------------------------------------------------------------------------ */
/* The torus and its processors                                             */
/* ------------------------------------------------------------------------ */

/* Whether t is the torus:NxN whose switch of rank i * N + j is P(i, j):
 * a generated 2D torus of side n (its coordinates give that rank). */
static int is_exchange_torus(const FlTopology *t, int n)
{
    int dims[FL_MAX_DIMS];
    return t && n > 0 && strcmp(fl_topology_family(t), "torus") == 0
           && fl_topology_family_dims(t, dims) == 2 && dims[0] == n && dims[1] == n
           && fl_topology_switch_count(t) == n * n;
}

int fl_draw_exchange_switch(const FlTopology *t, int n, int p)
{
    if (!is_exchange_torus(t, n) || p < 0 || p >= n * n)
        return -1;
    return fl_topology_switch_node(t, p);
}

int fl_draw_exchange_processor(const FlTopology *t, int n, int node)
{
    if (!is_exchange_torus(t, n) || node < 0 || node >= fl_topology_node_count(t))
        return -1;
    if (fl_topology_node_kind(t, node) == FL_NODE_HOST)
        node = fl_topology_host_switch(t, node);
    return node >= 0 ? fl_topology_node_rank(t, node) : -1;
}

/* The channel from switch a to its neighbour b, or -1. */
static int channel_between(const FlTopology *t, int a, int b)
{
    for (int p = 0; p < fl_topology_node_ports(t, a); p++) {
        int l = fl_topology_port_link(t, a, p), ea;
        if (l < 0 || fl_topology_port_peer(t, a, p, NULL) != b)
            continue;
        fl_topology_link_ends(t, l, &ea, NULL, NULL, NULL);
        return 2 * l + (ea == a ? 0 : 1);
    }
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

void fl_draw_exchange_colour(int src, double rgb[3])
{
    Rgba c = fl__draw_key_colour((uint64_t)src, NULL);
    rgb[0] = c.r, rgb[1] = c.g, rgb[2] = c.b;
}

/* A message as drawn: the channels of its path, and its source. */
typedef struct Route {
    int *chans;
    int n;
    int src;
} Route;

/* The channels of msg's path on t into r->chans (cap entries at least the
 * path's hops); 0 when a hop has no channel. */
static int route_of(const FlTopology *t, const FlAllToAll *aa, const FlAllToAllMessage *msg,
                    int32_t *nodes, size_t cap, Route *r)
{
    size_t k = fl_alltoall_path(aa, msg, nodes, cap);
    r->n = 0;
    if (k > cap)
        return 0;
    for (size_t i = 0; i + 1 < k; i++) {
        int a = fl_topology_switch_node(t, nodes[i]), b = fl_topology_switch_node(t, nodes[i + 1]);
        int c = channel_between(t, a, b);
        if (c < 0)
            return 0;
        r->chans[r->n++] = c;
    }
    return 1;
}

/* Every message's route, the messages of one colour in one stroke and
 * one fill (a 64 x 64 step has 4096). */
static void draw_routes(const Pen *pen, const Route *routes, const int *colour, size_t count,
                        double width, double off)
{
    cairo_t *cr = pen->cr;
    for (int p = 0; p < fl__draw_palette_size(); p++) {
        Rgba rgba = { 0, 0, 0, 1 };
        int any = 0;
        for (int part = 0; part < 2; part++) {
            cairo_new_path(cr);
            for (size_t i = 0; i < count; i++) {
                if (colour[i] != p || routes[i].n <= 0)
                    continue;
                if (!any)
                    rgba = fl__draw_key_colour((uint64_t)routes[i].src, NULL);
                any = 1;
                if (part == 0)
                    fl__draw_lane_route_path(cr, &pen->sc, routes[i].chans, NULL, routes[i].n, off);
                else
                    fl__draw_lane_route_head(cr, &pen->sc, routes[i].chans, NULL, routes[i].n, off,
                                             fl__draw_lane_head_size(width));
            }
            if (!any)
                break;
            set_colour(cr, rgba);
            cairo_set_line_width(cr, width);
            if (part == 0)
                cairo_stroke(cr);
            else
                cairo_fill(cr);
        }
    }
}

void fl_draw_exchange_step(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                           const FlAllToAll *aa, size_t step, int node)
{
    int n = aa ? fl_alltoall_size(aa) : 0;
    size_t count = 0;
    if (!cr || !o || !is_exchange_torus(t, n))
        return;
    const FlAllToAllMessage *msgs = step > 0 ? fl_alltoall_messages(aa, step, &count) : NULL;
    size_t cap = (size_t)(2 * n + 2);
    int32_t *nodes = malloc(sizeof *nodes * cap);
    int *chans = malloc(sizeof(int) * cap * (count > 0 ? count : 1));
    Route *routes = malloc(sizeof *routes * (count > 0 ? count : 1));
    int *colour = malloc(sizeof(int) * (count > 0 ? count : 1));
    if (!nodes || !chans || !routes || !colour)
        goto out;

    Pen pen;
    fl__draw_pen_begin(&pen, cr, t, o, 0);
    const Geom *g = &pen.sc.g;
    double width = clamp(0.07 * g->v.scale, 1.5, 5), off = g->lw * 0.5 + width * 0.5 + 0.5;
    const Route *out_route = NULL, *in_route = NULL;
    for (size_t i = 0; i < count; i++) {
        routes[i].chans = chans + i * cap;
        if (!route_of(t, aa, &msgs[i], nodes, cap, &routes[i]))
            routes[i].n = 0;
        routes[i].src = msgs[i].src;
        fl__draw_key_colour((uint64_t)msgs[i].src, &colour[i]);
        out_route = msgs[i].src == node ? &routes[i] : out_route;
        in_route = msgs[i].dst == node ? &routes[i] : in_route;
    }
    /* Butt ends: the lanes stop at the switches' edges, so nothing, the
     * emphasised messages' halos neither, runs over a switch. */
    cairo_save(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    draw_routes(&pen, routes, colour, count, width, off);
    /* The selected node's two messages on top, wider, in the route
     * colours. */
    const Route *mine[2] = { in_route, out_route };
    Rgba mine_colour[2] = { pen.col->up, pen.col->chosen };
    for (int k = 0; k < 4; k++) {
        const Route *r = mine[k % 2];
        if (!r || r->n <= 0)
            continue;
        if (k < 2) /* both halos first: a swap's two messages share a link */
            fl__draw_lane_route(&pen, r->chans, NULL, r->n, off, pen.col->background,
                                width * 2.6, 0);
        else
            fl__draw_lane_route(&pen, r->chans, NULL, r->n, off, mine_colour[k % 2],
                                width * 1.8, 1);
    }
    cairo_restore(cr);
    for (size_t i = 0; i < count; i++)
        if (msgs[i].src == node)
            fl__draw_ring_around(cr, g, fl_topology_switch_node(t, msgs[i].dst),
                                 pen.col->destination);
    if (node >= 0 && node < n * n)
        fl__draw_ring_around(cr, g, fl_topology_switch_node(t, node), pen.col->source);
    fl__draw_pen_end(&pen);
out:
    free(nodes);
    free(chans);
    free(routes);
    free(colour);
}
