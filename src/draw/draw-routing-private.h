/* draw-routing-private.h — what the files that draw a routing share:
 * draw-routing.c (the entry point, directions, paths, the cycle),
 * draw-turns.c (turn arcs), draw-hv.c (the H/V graph) and draw-legend.c.
 * What any picture over a network needs is in draw-scene-private.h.
 *
 * Not a public header; functions with external linkage carry the fl__draw_
 * prefix, as in draw-private.h.
 */
#ifndef FLITLAB_DRAW_ROUTING_PRIVATE_H
#define FLITLAB_DRAW_ROUTING_PRIVATE_H

#include "draw-labels-private.h"
#include "draw-scene-private.h"

/* Whether r was built on t's network, or on the network t shows (its
 * switches alone, or an H/V layout): the same switches and switch links
 * under the same ids, joining the same ports. O(links). */
int fl__draw_same_network(const FlTopology *t, const FlRouting *r);

/* Whether the links within a level of the picture bow (see
 * fl__draw_scene_link()): when t is drawn as r's H/V graph. */
int fl__draw_routing_bows(const FlTopology *t, const FlDrawRouting *r);

/* One drawing's state, shared by the overlays: the pen's (the scene, its
 * colours, sizes and clip) and the routing drawn. */
typedef struct Ctx {
    cairo_t *cr;
    const Scene *sc;
    const Geom *g;
    const FlTopology *t;
    const FlRouting *routing;
    const FlDrawRouting *r;
    const Colours *col;
    Sizes z;
    Box clip;
    Labels *lab;                /* the labels placed so far, and what they avoid */
} Ctx;

/* ------------------------------------------------------------------------ */
/* The overlays                                                             */
/* ------------------------------------------------------------------------ */

/* draw-turns.c: the prohibited turns, the turn being edited, and the
 * legend's sample of a turn (ppt: a PPT pair), an arc of the given radius
 * and width around (x, y). */
void fl__draw_turns(const Ctx *c);
void fl__draw_hover_turn(const Ctx *c);
void fl__draw_turn_sample(const Ctx *c, double x, double y, double radius, double width,
                          int ppt);

/* draw-hv.c: (h, v) of every switch into h[] and v[] (by node id; 1 for
 * the routing's own coordinates, 0 for derived ones, -1 for none), the
 * tree and other links, and the (h, v) labels. */
int fl__draw_switch_hv(const FlTopology *t, const FlRouting *r, int *h, int *v);
void fl__draw_hv_links(const Ctx *c);
void fl__draw_hv_labels(const Ctx *c, const int *h, const int *v);

/* What a picture shows, for its legend: (h, v) labels, channel directions
 * (at a size they are drawn), the H/V graph's tree, datelines. */
typedef struct FlDrawLegendShown {
    int hv, dirs, tree, datelines;
} FlDrawLegendShown;

/* draw-legend.c: the legend of what c draws, its type and lines k times
 * the usual size, in the bottom-left corner of the clip, or where it
 * covers no switch (in columns, or another corner) when that one does. */
void fl__draw_legend(const Ctx *c, const FlDrawLegendShown *what, double k);

/* fl_draw_routing_fit() for a legend k times the usual size. */
void fl__draw_routing_fit_scaled(const FlTopology *t, const FlDrawRouting *r, double width,
                                 double height, double k, FlDrawView *view);

#endif /* FLITLAB_DRAW_ROUTING_PRIVATE_H */
