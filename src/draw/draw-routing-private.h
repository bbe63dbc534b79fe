/* draw-routing-private.h — what the files that draw a routing share:
 * draw-routing.c (the entry point, channels, directions, paths, the cycle),
 * draw-turns.c (turn arcs), draw-hv.c (the H/V graph) and draw-legend.c.
 *
 * Not a public header; functions with external linkage carry the fl__draw_
 * prefix, as in draw-private.h.
 */
#ifndef FLITLAB_DRAW_ROUTING_PRIVATE_H
#define FLITLAB_DRAW_ROUTING_PRIVATE_H

#include "draw-private.h"

#define HIT_TOLERANCE 4.0    /* device units, as for nodes and links */

/* ------------------------------------------------------------------------ */
/* Colours, sizes and the drawing context                                   */
/* ------------------------------------------------------------------------ */

typedef struct Rgba {
    double r, g, b, a;
} Rgba;

/* The colours of the overlays, in a light and a dark style
 * (draw-routing.c). */
typedef struct Colours {
    Rgba background;            /* as fl_draw_topology() paints it */
    Rgba turn, ppt, hover, guide;
    Rgba up, down, text;
    Rgba tree, other;
    Rgba paths, chosen, source, destination;
    Rgba cycle;
    Rgba chip;                  /* behind labels */
    Rgba legend_fill, legend_border;
} Colours;

static inline void set_colour(cairo_t *cr, Rgba c)
{
    cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
}

/* Sizes in device units, all following the switches' size. */
typedef struct Sizes {
    double r0, step;            /* turn arcs: radius of level 0, step per level */
    double arc_w, head;         /* their width, and arrow heads */
    double font;                /* channel and (h, v) labels; 0 = too small */
    double arrow;               /* channel direction arrows */
} Sizes;

void fl__draw_sizes_init(Sizes *z, const Geom *g);

static inline int is_switch_link(const FlTopology *t, int l)
{
    int a, b;
    if (fl_topology_link_ends(t, l, &a, NULL, &b, NULL) != FL_OK)
        return 0;
    return fl_topology_node_kind(t, a) == FL_NODE_SWITCH
           && fl_topology_node_kind(t, b) == FL_NODE_SWITCH;
}

/* Whether r was built on t's network, or on the network t shows (its
 * switches alone, or an H/V layout): the same switches and switch links
 * under the same ids, joining the same ports. O(links). */
int fl__draw_same_network(const FlTopology *t, const FlRouting *r);

/* What a drawing or a hit test knows of the picture: the geometry of
 * draw-geometry.c, and whether the links within a level of the H/V graph
 * bow (see fl__draw_scene_link()). */
typedef struct Scene {
    Geom g;
    int bow;
} Scene;

/* Release with fl__draw_geom_clear(&sc->g). */
void fl__draw_scene_init(Scene *sc, const FlTopology *t, const FlDrawView *v,
                         const FlDrawRouting *r);

/* Link l as this picture draws it, in layout and device units. */
void fl__draw_scene_link(const Scene *sc, int l, Shape *s, DevShape *d);

/* One drawing's state, shared by the overlays. */
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
} Ctx;

/* ------------------------------------------------------------------------ */
/* Drawing helpers (draw-routing.c, draw-turns.c)                           */
/* ------------------------------------------------------------------------ */

/* The point at u (0..1) along a link's shape from end a, and the unit
 * tangent there. */
void fl__draw_shape_at(const Shape *s, const DevShape *d, double u, double *x, double *y,
                       double *tx, double *ty);

/* A filled arrow head with its tip at (x, y), pointing along (tx, ty). */
void fl__draw_head_path(cairo_t *cr, double x, double y, double tx, double ty, double size);

/* Restricts drawing to everywhere but the nodes. Call between cairo_save()
 * and cairo_restore(). */
void fl__draw_clip_out_nodes(const Ctx *c);

/* A scratch context that only collects a path. */
cairo_t *fl__draw_path_collector(void);

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

/* draw-legend.c: the legend of what c draws, in the bottom-left corner of
 * the clip; has_hv when (h, v) labels are drawn, dirs when channel
 * directions are. */
void fl__draw_legend(const Ctx *c, int has_hv, int dirs);

#endif /* FLITLAB_DRAW_ROUTING_PRIVATE_H */
