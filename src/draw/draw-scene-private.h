/* draw-scene-private.h — what every picture drawn over a network shares
 * (draw-scene.c): colours, sizes that follow the switches, the scene (the
 * geometry of draw-geometry.c through one view, with the links as this
 * picture bends them), channels as drawn, arrow heads, labels on halos,
 * rings around nodes, and hit testing along link shapes. The routing
 * overlays (draw-routing-private.h) draw with these, and so can any other
 * picture over a network (simulation frames, plots) without depending on
 * routing.
 *
 * Not a public header; functions with external linkage carry the fl__draw_
 * prefix, as in draw-private.h.
 */
#ifndef FLITLAB_DRAW_SCENE_PRIVATE_H
#define FLITLAB_DRAW_SCENE_PRIVATE_H

#include "draw-private.h"

#define HIT_TOLERANCE 4.0    /* device units, as for nodes and links */

/* ------------------------------------------------------------------------ */
/* Colours and sizes                                                        */
/* ------------------------------------------------------------------------ */

typedef struct Rgba {
    double r, g, b, a;
} Rgba;

/* The colours of what is drawn over the network, in a light and a dark
 * style. */
typedef struct Colours {
    Rgba background;            /* as fl_draw_topology() paints it */
    Rgba turn, ppt, hover, guide;
    Rgba up, down, text;
    Rgba tree, other;
    Rgba paths, chosen, source, destination;
    Rgba cycle;
    Rgba dateline;
    Rgba chip;                  /* behind labels */
    Rgba legend_fill, legend_border;
} Colours;

/* The light or the dark style's colours. */
const Colours *fl__draw_colours(int dark);

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

/* The size of the arrow heads along routes and cycles. */
double fl__draw_head_size(const Geom *g);

static inline int is_switch_link(const FlTopology *t, int l)
{
    int a, b;
    if (fl_topology_link_ends(t, l, &a, NULL, &b, NULL) != FL_OK)
        return 0;
    return fl_topology_node_kind(t, a) == FL_NODE_SWITCH
           && fl_topology_node_kind(t, b) == FL_NODE_SWITCH;
}

/* ------------------------------------------------------------------------ */
/* The scene                                                                */
/* ------------------------------------------------------------------------ */

/* What a drawing or a hit test knows of the picture: the geometry of
 * draw-geometry.c, and whether links within a row bow (see
 * fl__draw_scene_link()). */
typedef struct Scene {
    Geom g;
    int bow;
} Scene;

/* Sets up the scene of t through view v. With bow set, a straight link
 * between two switches of one row that are not neighbours bows upwards
 * (the H/V graph's levels). Release with fl__draw_geom_clear(&sc->g). */
void fl__draw_scene_init(Scene *sc, const FlTopology *t, const FlDrawView *v, int bow);

/* Link l as this picture draws it, in layout and device units. */
void fl__draw_scene_link(const Scene *sc, int l, Shape *s, DevShape *d);

/* One picture being drawn over a network: the scene, its colours and
 * sizes, and the part of the device the picture may touch. */
typedef struct Pen {
    cairo_t *cr;
    Scene sc;
    const Colours *col;
    Sizes z;
    Box clip;
} Pen;

/* Sets up a pen on cr for t drawn with o (its view and style). Release
 * with fl__draw_pen_end(). */
void fl__draw_pen_begin(Pen *p, cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                        int bow);
void fl__draw_pen_end(Pen *p);

/* ------------------------------------------------------------------------ */
/* Shapes, channels and marks                                               */
/* ------------------------------------------------------------------------ */

/* The point at u (0..1) along a link's shape from end a, and the unit
 * tangent there. A wrap-around's first half is the spur at a (outwards),
 * its second half the spur at b (inwards). */
void fl__draw_shape_at(const Shape *s, const DevShape *d, double u, double *x, double *y,
                       double *tx, double *ty);

/* The distance from (x, y) to a shape as drawn: a wrap-around's two spurs
 * apart, an arc in short pieces. */
double fl__draw_shape_distance(const Shape *s, const DevShape *d, double x, double y);

/* A channel: its link's shape in device units, run from the channel's
 * source (reverse: the link's end b) to its destination. */
typedef struct Chan {
    Shape s;
    DevShape d;
    int reverse;
} Chan;

void fl__draw_chan_init(const Scene *sc, int c, Chan *ch);

/* The point at u (0..1) along a channel from its source, and the unit
 * tangent the way it runs. */
void fl__draw_chan_at(const Chan *ch, double u, double *x, double *y, double *tx, double *ty);

/* Where along a channel its marks go, clear of the switch squares: the
 * middle of a link, or on a wrap-around one mark on each spur. Returns
 * how many (1 or 2) and puts them in u. */
int fl__draw_chan_marks(const Chan *ch, double *u);

/* A filled arrow head with its tip at (x, y), pointing along (tx, ty). */
void fl__draw_head_path(cairo_t *cr, double x, double y, double tx, double ty, double size);

/* Arrow heads along a channel at its marks, centred on each mark. */
void fl__draw_chan_heads_path(cairo_t *cr, const Chan *ch, double size);

/* Adds channels (only switch-to-switch ones are drawn; out-of-range ones
 * are skipped) to the path; strokes them; fills arrow heads along them. */
void fl__draw_channels_path(cairo_t *cr, const Scene *sc, const int *chans, int n);
void fl__draw_stroke_channels(cairo_t *cr, const Scene *sc, const int *chans, int n,
                              Rgba colour, double width);
void fl__draw_channels_heads(cairo_t *cr, const Scene *sc, const int *chans, int n,
                             double size);

/* A dateline's mark: a bar len long and width wide across the direction
 * (tx, ty) at (x, y), in the dateline colour with a thin outline in the
 * background's. */
void fl__draw_dateline_mark(cairo_t *cr, const Colours *col, double x, double y, double tx,
                            double ty, double len, double width);

/* A square ring around node (a switch's square, or a host), as route
 * endpoints are marked. */
void fl__draw_ring_around(cairo_t *cr, const Geom *g, int node, Rgba colour);

/* A cycle of channels (a channel dependency cycle, or the channels a
 * deadlock's packets wait on), in order: bold in the cycle colour with
 * arrow heads, under the nodes, and numbered from 1 when it is short
 * enough and the labels are large enough to read. With lab, each number
 * goes on the right of its channel, or its left, where it covers no label
 * placed before (or is left out). */
void fl__draw_cycle(cairo_t *cr, const Scene *sc, const Colours *col, const Sizes *z,
                    const Box *clip, const int *chans, int n, Labels *lab);

/* (draw-legend.c) A view that fits t into width x height, up to twice as
 * large as fl_draw_view_fit() makes a small network (overlays need the
 * room), and where a legend lw x lh in the bottom-left corner (12 units
 * from the edges) would hide a switch or a link, into the strip beside
 * it or above it, whichever leaves the network larger. */
void fl__draw_fit_beside_legend(const FlTopology *t, double width, double height, double lw,
                                double lh, FlDrawView *view);

/* A box in the legend's fill with its border, as legends, captions and
 * plot legends are drawn. */
void fl__draw_legend_box(cairo_t *cr, const Colours *col, double x, double y, double w,
                         double h);

/* ------------------------------------------------------------------------ */
/* Simulation frame overlays (draw-frame-overlays.c)                        */
/* ------------------------------------------------------------------------ */

/* Each channel's utilization (heat[c], 0..1, for c < nheat) as a band of
 * the given width along its link, on the right of the way it runs, between
 * the nodes' glyphs, in fl_draw_heat_colour()'s scale; channels under
 * 0.5% are left plain, and so are host links unless hosts is set (and
 * hosts are shown). One stroke per colour level. */
void fl__draw_heat(const Pen *pen, const double *heat, int nheat, double width, int hosts);

/* Adds channel c's lane to the path: the part of its link between the
 * two nodes' glyphs, off device units to the right of the way it runs. */
void fl__draw_lane_path(cairo_t *cr, const Scene *sc, int c, double off);

/* A route of n channels in lanes: channel i's off to the right by
 * offs[i], or with offs NULL all by off. Its lanes added to the path; an
 * arrow head of size added to the path where it arrives (the size that
 * suits lanes of width); the route stroked in colour with, when head is
 * set, its head filled. Many routes of one colour cost one stroke and one
 * fill through the first two. */
void fl__draw_lane_route_path(cairo_t *cr, const Scene *sc, const int *chans, const double *offs,
                              int n, double off);
void fl__draw_lane_route_head(cairo_t *cr, const Scene *sc, const int *chans, const double *offs,
                              int n, double off, double size);
double fl__draw_lane_head_size(double width);
void fl__draw_lane_route(const Pen *pen, const int *chans, const double *offs, int n, double off,
                         Rgba colour, double width, int head);

/* The heat map's colour scale, titled (NULL: "channel utilization"), in
 * the bottom-right corner of the pen's clip. */
void fl__draw_heat_legend(const Pen *pen, const char *title);

/* text in bold in an opaque box at the top-left corner of clip. */
void fl__draw_caption(cairo_t *cr, const Colours *col, const Box *clip, const char *text);

/* ------------------------------------------------------------------------ */
/* Shared by simulation frames (draw-flits.c, draw-deflect.c)               */
/* ------------------------------------------------------------------------ */

/* The colour of a packet or message by its key (an id, a source, a
 * destination): a stable hash into the frames' palette, whose index goes
 * to *index (may be NULL), 0 to fl__draw_palette_size() - 1. */
Rgba fl__draw_key_colour(uint64_t key, int *index);
/* The same in palette (an FlDrawFlitPalette). */
Rgba fl__draw_key_colour_in(int palette, uint64_t key, int *index);
/* The most colours a palette has. */
int fl__draw_palette_size(void);

/* The side of a flit (or message) in device units, for buffers of depth
 * flits: a one-step link between two switches holds a whole buffer. */
double fl__draw_flit_side(const Geom *g, int depth);

/* Whether a frame in mode with marks of side side is drawn aggregated:
 * forced, or automatic and side under min. */
int fl__draw_is_aggregated(FlDrawFlitsMode mode, double min, double side);

/* The point back device units before the arriving end of channel c
 * (where its buffer's slot 0 is drawn; kept on a wrap-around's arriving
 * spur), off to the right of the way it runs. */
void fl__draw_chan_arrival(const Scene *sc, int c, double back, double off, double *x,
                           double *y);

/* ------------------------------------------------------------------------ */
/* Axes, shared by plots and charts (draw-plot.c)                           */
/* ------------------------------------------------------------------------ */

#define FL_DRAW_PAD 8.0      /* device units around a plot or a chart */
#define FL_DRAW_TICK 4.0     /* tick marks' length */

/* The data range dlo..dhi (no data: dlo > dhi) widened, with include_zero
 * down (or up) to 0, by headroom times its span above, and to whole ticks
 * of a nice step for about n ticks. */
void fl__draw_axis_scale(double dlo, double dhi, int include_zero, double headroom, int n,
                         double *lo, double *hi, double *step);

/* A tick's text with as many decimals as the step needs. */
void fl__draw_tick_text(double v, double step, char *buf, size_t size);

/* One axis of a layout (0: x along the bottom, 1: y along the left): a
 * faint grid line, a tick and its label at every whole step, in the
 * current font of cr. */
void fl__draw_axis_ticks(cairo_t *cr, const FlDrawPlotLayout *l, int axis, const Colours *col,
                         double font);

/* Starts a plot's picture of width x height: saves cr (the caller
 * restores it), clips to the picture, paints the background and sets the
 * font of the ticks. */
void fl__draw_plot_begin(cairo_t *cr, const Colours *col, double width, double height,
                         double font);

/* The frame around a layout's plot area. */
void fl__draw_plot_frame(cairo_t *cr, const FlDrawPlotLayout *l, const Colours *col);

/* The x axis's label centred under a layout drawn height high, and the
 * title in bold centred above it (either may be NULL), each in a smaller
 * font when it is wider than the plot area. */
void fl__draw_plot_captions(cairo_t *cr, const FlDrawPlotLayout *l, const Colours *col,
                            double font, double height, const char *xlabel, const char *title);

/* Line plots' series as the exports other than pictures (draw-plot-export.c)
 * describe them: series s's colour (0xRRGGBB), whether its point i is
 * drawn (finite, and above 0 on a log axis), and a dash pattern's lengths
 * in line widths (n of them into out[6]; 0 for solid). */
int fl__draw_plot_series_colour(const FlDrawPlot *p, int s);
int fl__draw_plot_point_ok(const FlDrawPlot *p, const FlDrawPlotSeries *se, int i);
/* 1, or for series s of a dense print plot laid out as l in width x height,
 * every how many points it has a marker (its intervals are then a band). */
int fl__draw_plot_mark_every(const FlDrawPlot *p, const FlDrawPlotLayout *l, int s,
                             double width, double height);
int fl__draw_plot_dash(FlDrawDash dash, double *out);

/* Has plots drawn on s as in a PDF, PostScript or SVG document (markers as
 * references to one shape, each series' error bars in one stroke), so that
 * a test can read back on an image what a document would show. */
void fl__draw_plot_as_document(cairo_surface_t *s);

/* ------------------------------------------------------------------------ */
/* Text and clipping                                                        */
/* ------------------------------------------------------------------------ */

/* Text at (x, y) whose glyphs are filled in fg over a halo (the
 * background colour, say) as wide as the font size asks, so it reads over
 * lines. */
void fl__draw_halo_text(cairo_t *cr, double x, double y, const char *text, Rgba fg, Rgba halo,
                        double font);

/* Restricts drawing to everywhere in clip but the nodes, so what is drawn
 * along links passes under the switches and hosts and their labels stay
 * clear. Call between cairo_save() and cairo_restore(). */
void fl__draw_clip_out_nodes(cairo_t *cr, const Geom *g, const Box *clip);

/* A scratch context that only collects a path (arrow heads of a batch
 * while the arcs go to the real one; text measured before drawing). */
cairo_t *fl__draw_path_collector(void);

#endif /* FLITLAB_DRAW_SCENE_PRIVATE_H */
