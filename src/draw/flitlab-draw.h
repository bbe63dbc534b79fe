/* flitlab-draw.h — drawing a topology with plain cairo.
 *
 * One drawing function serves the GUI canvas, file export (PNG, SVG, PDF),
 * the command line and the tests, so what the user sees on screen is what
 * ends up in a paper. No GTK and no GLib: only the engine and cairo.
 *
 * Coordinates: node positions are in layout units (one grid step of the
 * regular families); a view maps them to device units (pixels on screen,
 * points in PDF/SVG) as device = world * scale + t.
 */
#ifndef FLITLAB_DRAW_H
#define FLITLAB_DRAW_H

#include <cairo.h>
#include <stddef.h>
#include <stdint.h>

#include "flitlab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct FlDrawView {
    double scale;          /* device units per layout unit, > 0 */
    double tx, ty;         /* device position of the layout origin */
    /* How heavy the marks are: 1 (or 0) as on a screen; a projector's
     * presenter mode takes FL_DRAW_PRESENTER: lines that many times as
     * wide, type 1 + 0.6 (marks - 1) times as large (1.6x), switches and
     * hosts 1 + 0.25 (marks - 1) times (1.25x, no more than 0.6 of a grid
     * step). Hit tests follow it. fl_draw_view_fit() sets 1. */
    double marks;
} FlDrawView;

/* The marks of a presenter mode (FlDrawView.marks). */
#define FL_DRAW_PRESENTER 2.0

typedef struct FlDrawOptions {
    FlDrawView view;
    int selected_node, selected_link;   /* -1 = none */
    int hover_node, hover_link;         /* -1 = none */
    /* The rubber band of a connect drag: from node connect_from to the
     * device point (connect_x, connect_y); connect_from -1 = none. */
    int connect_from;
    double connect_x, connect_y;
    int show_labels;       /* switch labels, drawn only when they fit */
    int dark;              /* colours for a dark style */
} FlDrawOptions;

/* Defaults: identity view, nothing selected or hovered, labels on, light. */
void fl_draw_options_init(FlDrawOptions *o);

/* A view that fits every node of t (and the spurs and arcs of its bent
 * links), with a margin, into a width x height device rectangle, centred.
 * An empty topology gives a view centred on the origin. O(nodes + links). */
void fl_draw_view_fit(const FlTopology *t, double width, double height,
                      FlDrawView *view);

/* Where node n is drawn, in layout units: its position, except that a
 * host sharing its switch's position (a file without host positions) is
 * fanned out beside the switch. (0, 0) for a bad index. */
void fl_draw_node_position(const FlTopology *t, int node, double *x, double *y);

/* Device <-> layout conversions for a view. */
void fl_draw_view_to_device(const FlDrawView *v, double wx, double wy,
                            double *dx, double *dy);
void fl_draw_view_to_world(const FlDrawView *v, double dx, double dy,
                           double *wx, double *wy);

/* Draws t onto cr through o->view: background, links, hosts, switches,
 * labels, highlights and the connect rubber band. Only what meets cr's clip
 * is drawn, so a large network scrolled into view costs little; hosts are
 * left out when they would be too small to see. A switch's number is drawn
 * in its square when it fits there, else beside it where it covers no node
 * and no other number, as long as the switch is at least 5 device units
 * wide: zooming in brings numbers back. Where a free
 * layout puts switches closer than a square's side, all switch squares and
 * host discs shrink alike (to 30% at the least) so that none covers another.
 *
 * Switches are numbered by their labels (fl_topology_node_label()), which
 * stay put when other nodes are deleted.
 *
 * Links between switches on integer grid points that are longer than 1.5
 * steps are bent, so that wrap-around links stay legible: a wrap-around
 * link (fl_topology_link_wraps(): torus, XMESH and DMESH wrap-arounds,
 * also in an edited network that kept its coordinates) that is a single
 * step long modulo the extent of its grid is a short spur at each end
 * pointing the way it leaves the grid; a link of the third coordinate
 * dimension along a row to the next block of columns (the next layer of a
 * 3D torus or mesh drawn side by side) is a diagonal spur at each end; any
 * other that would run through a switch is an arc bulging away from the
 * centre. Other links, and free layouts, draw straight. O(nodes + links). */
void fl_draw_topology(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o);

/* A label's box as drawn, in device units. */
typedef struct FlDrawLabelBox {
    double x, y, width, height;
} FlDrawLabelBox;

/* The node (or link) drawn under the device point (x, y), within a few
 * device units, or -1. The nearest glyph wins, a switch on a tie; what the
 * drawing leaves out (hosts too small to see) is never hit. Links are hit
 * along the shape they are drawn with (straight, spurs or arc).
 * O(nodes) / O(links). */
int fl_draw_hit_node(const FlTopology *t, const FlDrawView *v, double x, double y);
int fl_draw_hit_link(const FlTopology *t, const FlDrawView *v, double x, double y);

/* Writes the whole network, fitted into width x height (points for PDF and
 * SVG, pixels for PNG), to path. format is "png", "svg", "pdf" or NULL to
 * take it from the file name's extension. Refuses an unknown format or an
 * unwritable path with a message, leaving no file behind. */
int fl_draw_export(const FlTopology *t, const char *path, const char *format,
                   int width, int height, FlError *err);

/* FL_OK when the export functions can write path: format, or path's
 * extension when format is NULL, is png, svg or pdf (in any case); else
 * FL_EINVAL with the message they would give. Lets a caller refuse a bad
 * name before the work that leads to the picture. */
int fl_draw_check_format(const char *path, const char *format, FlError *err);

/* Draws one picture of width x height device units into cr. */
typedef void (*FlDrawRenderFunc)(cairo_t *cr, int width, int height, void *data);

/* Writes what render draws into a width x height picture to path, as
 * fl_draw_export() writes a network (formats, errors, atomically): for
 * pictures drawn by more than this library, a network with a GUI's own
 * overlay over it. */
int fl_draw_export_render(const char *path, const char *format, int width, int height,
                          FlDrawRenderFunc render, void *data, FlError *err);

/* A picture as a page: the whole network below an optional title. */
typedef struct FlDrawPage {
    int width, height;     /* pixels for PNG, points for PDF and SVG (1 to 16384) */
    /* PNG: dots per inch; every line and letter is drawn dpi / 96 times
     * as many pixels as on screen (96: as on screen; 192: twice as fine,
     * for print). PDF and SVG, in points, ignore it. */
    double dpi;
    const char *title;     /* bold, centred at the top; NULL or "": none */
    int dark;              /* the dark style's colours */
} FlDrawPage;

/* 1200 x 900, 96 dpi, no title, light. */
void fl_draw_page_init(FlDrawPage *p);

/* The room below the title that a page of format (or path's extension)
 * leaves the picture, in drawing units (pixels at 96 dpi, points). */
void fl_draw_page_area(const FlDrawPage *p, const char *path, const char *format,
                       double *width, double *height);

/* Writes page to path as fl_draw_export() writes a picture (formats,
 * errors, atomically): the background, the title, and below it what
 * render draws into the room fl_draw_page_area() gives (cr scaled and
 * clipped to it). */
int fl_draw_export_page(const char *path, const char *format, const FlDrawPage *page,
                        FlDrawRenderFunc render, void *data, FlError *err);

/* The same with explicit drawing options, the view included: the GUI
 * exports exactly what its canvas shows. Call fl_draw_view_fit() first to
 * export the whole network with other options (dark style, no labels). */
int fl_draw_export_with_options(const FlTopology *t, const FlDrawOptions *opt,
                                const char *path, const char *format,
                                int width, int height, FlError *err);

/* ------------------------------------------------------------------------ */
/* Routing overlays                                                         */
/* ------------------------------------------------------------------------ */
/*
 * What a routing does, drawn over the network for a class to see: the turns
 * it prohibits at every switch, the direction of every channel, the H/V
 * graph of L-/R-turn (paper 002, Figs. 3 and 4), the legal shortest paths
 * between two switches and a cycle of the channel dependency graph. The
 * overlays use the view, the link shapes (wrap-around spurs and arcs) and
 * the hit-test tolerances of fl_draw_topology(), so they sit exactly on the
 * network it draws.
 */

/* Overlay bits; the GUI's FlitlabOverlay flags have the same values. */
enum {
    FL_DRAW_OVERLAY_TURNS = 1 << 0,       /* prohibited turns as arcs, with a legend */
    FL_DRAW_OVERLAY_DIRECTIONS = 1 << 1,  /* channel labels: up/down, LU/LD/RU/RD, (h, v) */
    FL_DRAW_OVERLAY_HV_GRAPH = 1 << 2,    /* tree links solid, other links dashed, (h, v) */
    FL_DRAW_OVERLAY_PATHS = 1 << 3,       /* legal shortest paths, the chosen one bold */
    FL_DRAW_OVERLAY_CYCLE = 1 << 4        /* the report's dependency cycle, in order */
};

/* The words of the legend, so that a GUI can translate them. A NULL field
 * (or a NULL table) takes the English text shown beside it. */
typedef struct FlDrawLegendText {
    const char *prohibited_turn;   /* "prohibited turn (in → out)" */
    const char *ppt_pair;          /* "PPT pair: prohibited both ways" */
    const char *up_channel;        /* "up channel" */
    const char *down_channel;      /* "down channel" */
    const char *hv_coords;         /* "(h, v) = (preorder, depth)" */
    const char *tree_link;         /* "spanning-tree link" */
    const char *other_link;        /* "other link" */
    const char *legal_paths;       /* "legal shortest paths" */
    const char *chosen_path;       /* "chosen route" */
    const char *source;            /* "source" */
    const char *destination;       /* "destination" */
    const char *cycle;             /* "dependency cycle, in order" */
    const char *no_cycle;          /* "no dependency cycle" */
    const char *no_directions;     /* "no channel directions in this routing" */
    const char *no_tree;           /* "no spanning tree: no H/V graph" */
    const char *dateline;          /* "dateline: VC class 0 → 1" */
} FlDrawLegendText;

typedef struct FlDrawRouting {
    /* The routing to draw, built on the network drawn or on the one it
     * shows (fl_draw_switches_only(), fl_draw_hv_layout()): the same
     * switches and switch links under the same ids. NULL draws no overlay,
     * and so does a routing of another network. */
    const FlRouting *routing;
    const FlRoutingReport *report;   /* the cycle and the legend's PT, SDPT, PPT; may be NULL */
    unsigned overlays;               /* FL_DRAW_OVERLAY_* bits */
    /* Every legal shortest path between src and dst: path i is the channels
     * paths[path_offsets[i] .. path_offsets[i + 1]) (fl_routing_all_paths()). */
    const int *paths, *path_offsets;
    int npaths;
    const int *chosen;               /* the route the selection takes (fl_routing_path()) */
    int nchosen;
    int src, dst;                    /* route endpoints (switch node ids), -1 = none */
    /* The turn under the pointer while turns are edited (sw -1 = none): it
     * is drawn bold, over faint guides for every turn of its switch. */
    FlTurn hover_turn;
    int legend;                      /* a legend in the bottom-left corner */
    const FlDrawLegendText *text;    /* NULL: English */
} FlDrawRouting;

/* No routing, no overlay, no endpoints, no hovered turn, a legend. */
void fl_draw_routing_init(FlDrawRouting *r);

/* Draws t as fl_draw_topology() does, then the overlays of r (which may be
 * NULL) over it, then the legend. t may be the routing's network, its
 * switches alone (fl_draw_switches_only()) or its H/V layout.
 *
 * With any overlay, the routing's datelines (fl_routing_channel_dateline():
 * dor's wrap-around links on a torus with 2 classes) are drawn as a green
 * bar across each such link. The legend names only what is drawn, and an
 * overlay the routing cannot draw (channel directions of a routing without
 * direction classes, the H/V graph of one without a spanning tree) gets a
 * line that says so.
 *
 * Prohibited turns: at every switch, each pair of switch links has its own
 * arc around the switch, between the two links, at a radius of its own so
 * that no two arcs overlap. A prohibited turn is that arc with one arrow
 * head, at the link it leaves by; a PPT pair (the two opposite turns
 * between the same links, both prohibited) is the arc with a head at each
 * end, in another colour. Switches with more than 16 switch links get no
 * arcs: that many could not be read.
 *
 * To draw the H/V graph itself, pass the copy from fl_draw_hv_layout() as
 * t: its spanning-tree links are drawn solid, the others dashed, and a
 * link between two switches of one level that are not neighbours bows
 * upwards rather than run behind the switches between them. O(nodes +
 * links + path lengths), plus O(d^2) per switch of degree d. */
void fl_draw_routing(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                     const FlDrawRouting *r);

/* fl_draw_routing(), telling where its labels went: the box of every
 * label it drew (switch numbers, (h, v), channel directions, a cycle's
 * numbers; not the legend) into boxes, up to max of them. Returns how
 * many it drew. Labels are placed greedily, each at the first of a few
 * places around what it names that meets no node and no label before it,
 * or left out: no two boxes overlap. */
int fl_draw_routing_labels(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                           const FlDrawRouting *r, FlDrawLabelBox *boxes, int max);

/* The turn whose arc (as fl_draw_routing() would draw t with r, prohibited
 * or not) is nearest to the device point (x, y): the pointer must be beside
 * a switch, in the ring where its arcs lie. Of an arc between two links,
 * the half nearer the link a turn leaves by is that turn (where its arrow
 * head is drawn). r may be NULL; it matters for the H/V graph, whose links
 * within a level bow. Returns the switch and fills *turn, or returns -1
 * when no turn is there. O(nodes + links). */
int fl_draw_hit_turn(const FlTopology *t, const FlDrawView *v, const FlDrawRouting *r,
                     double x, double y, FlTurn *turn);

/* fl_draw_hit_link() for t drawn with the overlays of r (which may be
 * NULL): the same but for the H/V graph, whose links within a level bow
 * upwards clear of the switches between their ends. */
int fl_draw_hit_routing_link(const FlTopology *t, const FlDrawView *v, const FlDrawRouting *r,
                             double x, double y);

/* A copy of t without its hosts, for pictures of routing (turns, channel
 * directions and paths concern switches alone): every switch and switch
 * link keeps its id, ports, position and label. FL_EUNSUPPORTED when a host or a
 * host link is numbered before a switch or a switch link (an edited
 * network), since leaving it out would renumber the others. O(nodes +
 * links). */
int fl_draw_switches_only(const FlTopology *t, FlTopology **out, FlError *err);

/* A copy of t laid out as the H/V graph of r: every switch at (h, v), its
 * preorder index in the routing's spanning tree and its depth
 * (fl_routing_hv_coords(); for up* / down*, the preorder of its BFS tree
 * with children in node order), spread so the picture is not a flat strip.
 * Hosts are left out as by fl_draw_switches_only(), or where that cannot
 * be, drawn beside their switch. Nodes and links keep their ids, so hit
 * tests on the copy name t's nodes and links. FL_EUNSUPPORTED when the
 * routing has no spanning tree; FL_EINVAL when it was built on another
 * network. */
int fl_draw_hv_layout(const FlTopology *t, const FlRouting *r, FlTopology **out,
                      FlError *err);

/* fl_draw_view_fit() for t drawn with the overlays of r: a small network
 * may be drawn up to twice as large (its arcs and labels need the room),
 * and where the legend in the bottom-left corner would hide a switch or a
 * link, the network is fitted into a strip beside the legend or above it,
 * whichever leaves it larger. The room kept is the same whatever the
 * legend holds (as wide as its widest possible entry, as tall as five), so
 * a route picked or an overlay switched on leaves the network where it
 * is; a legend that outgrows it goes into columns or another corner where
 * it hides nothing, if there is one. O(nodes + links). */
void fl_draw_routing_fit(const FlTopology *t, const FlDrawRouting *r, double width,
                         double height, FlDrawView *view);

/* fl_draw_routing_fit() for a view with those marks (FL_DRAW_PRESENTER:
 * its larger legend keeps its room), which the view gets. */
void fl_draw_routing_fit_marks(const FlTopology *t, const FlDrawRouting *r, double width,
                               double height, double marks, FlDrawView *view);

/* Writes t with the overlays of r, fitted into width x height beside the
 * legend, to path; formats and errors as fl_draw_export(). With any
 * overlay the hosts are left out where fl_draw_switches_only() can; with
 * FL_DRAW_OVERLAY_HV_GRAPH and a routing that has a spanning tree, the
 * network is drawn at its H/V coordinates. This is what
 * `flitlab turns SPEC --routing R --picture out.png` writes. */
int fl_draw_export_routing(const FlTopology *t, const FlDrawRouting *r, const char *path,
                           const char *format, int width, int height, FlError *err);

/* The same with explicit drawing options, the view included (what the
 * canvas shows); t is drawn as given. */
int fl_draw_export_routing_with_options(const FlTopology *t, const FlDrawOptions *opt,
                                        const FlDrawRouting *r, const char *path,
                                        const char *format, int width, int height,
                                        FlError *err);

/* The whole of t with r's overlays (r may be NULL: the network alone) as
 * fl_draw_export_routing() draws it (as
 * `flitlab topo export` and `flitlab route --picture` do), fitted below the page's title. */
int fl_draw_export_routing_page(const FlTopology *t, const FlDrawRouting *r,
                                const FlDrawPage *page, const char *path, const char *format,
                                FlError *err);

/* ------------------------------------------------------------------------ */
/* Simulation frames                                                        */
/* ------------------------------------------------------------------------ */

/* What gives a flit its colour. */
typedef enum FlDrawFlitColour {
    FL_DRAW_FLITS_BY_PACKET = 0,     /* a stable hash of the packet id */
    FL_DRAW_FLITS_BY_SOURCE,         /* its source host */
    FL_DRAW_FLITS_BY_DESTINATION     /* its destination host */
} FlDrawFlitColour;

/* The colours packets are drawn in. */
typedef enum FlDrawFlitPalette {
    FL_DRAW_PALETTE_CONTRAST = 0,    /* twelve colours picked for contrast on white */
    FL_DRAW_PALETTE_COLOUR_BLIND     /* Paul Tol's nine "muted" colours: told apart with
                                      * any colour vision */
} FlDrawFlitPalette;

/* When a frame is drawn per channel rather than per flit. */
typedef enum FlDrawFlitsMode {
    FL_DRAW_FLITS_AUTO = 0,          /* aggregated when flits are below min_flit */
    FL_DRAW_FLITS_INDIVIDUAL,
    FL_DRAW_FLITS_AGGREGATED
} FlDrawFlitsMode;

typedef struct FlDrawFlits {
    const FlSim *sim;                /* built on the network drawn; NULL draws none */
    FlDrawFlitColour colour;
    FlDrawFlitPalette palette;
    FlDrawFlitsMode mode;
    int link_latency;                /* the configuration's cycles on a link, >= 1 */
    double min_flit;                 /* device units; smaller flits are aggregated */
    int max_queued;                  /* queue counts stop at this ("N+") */
    /* Overlays; fl_draw_flits_init() sets every one to "none". */
    /* A line in a box at the top-left corner ("cycle 1234"), readable on
     * any background; NULL = none. */
    const char *caption;
    /* Per channel (2 * link + end) utilization in 0..1, nheat long: a heat
     * map along the links, under the flits, with a small legend of its
     * colour scale in the bottom-right corner (host links only when flits
     * are drawn one by one). NULL = none. */
    const double *heat;
    int nheat;
    const char *heat_label;          /* the legend's title; NULL: "channel utilization" */
    /* A cycle of channels whose packets wait on each other
     * (fl_sim_deadlock_cycle()): drawn in order as fl_draw_routing() draws
     * a dependency cycle, and the flits of the packets holding those
     * channels' VCs emphasised. NULL = none. */
    const int *wait_cycle;
    int nwait_cycle;
    /* A packet chosen in an inspector (-1 = none): its flits emphasised and
     * every other flit faded, and its route so far (the channels it has
     * taken, in order) drawn along the links. */
    int64_t selected_packet;
    const int *selected_route;
    int nselected_route;
} FlDrawFlits;

/* No simulation, colour by packet in the contrast palette, automatic mode, link latency 1,
 * min_flit 3, queue counts up to 99, no caption, heat map, wait cycle or
 * selected packet. */
void fl_draw_flits_init(FlDrawFlits *f);

/* The colour fl_draw_flits() gives flit fl under f->colour, as red,
 * green and blue in 0..1: a legend or an inspector can show it. */
void fl_draw_flit_colour(const FlDrawFlits *f, const FlFlitView *fl, double rgb[3]);

/* The heat map's colour for a utilization u (0..1, clamped; NaN as 0):
 * pale yellow through orange to dark red (ColorBrewer's YlOrRd), as red,
 * green and blue in 0..1. */
void fl_draw_heat_colour(double u, double rgb[3]);

/* The side of a flit's square in device units for f on t through v
 * (from the link length, the switches' size and the buffer depth), and
 * whether the frame is drawn aggregated. O(1) after the view's geometry. */
double fl_draw_flit_size(const FlTopology *t, const FlDrawView *v, const FlDrawFlits *f,
                         int *aggregated);

/* Where fl_draw_flits() draws the flit fl, in device units: on a link,
 * (position + 0.5) / link_latency of the way along its channel, in a lane
 * beside the link on the right-hand side of the way the channel runs; in
 * a buffer, stacked from the receiving end backwards (slot 0 nearest), one
 * lane per VC beyond that one. A host link is too short for lanes that
 * would clear the buffers stacked at its switch's corner: its flits go
 * beyond the host (and its queue count), away from the switch, in lanes
 * on either side of the line from the switch through the host (the
 * injection channel's on the right). 0 for a flit in a source queue or
 * on a channel t does not have. Lets a caller hit-test packets. */
int fl_draw_flit_position(const FlTopology *t, const FlDrawView *v, const FlDrawFlits *f,
                          const FlFlitView *fl, double *x, double *y);

/* Draws t as fl_draw_topology() does, then one frame of f->sim over it:
 * every flit on a link or in a buffer as a square of its packet's colour,
 * heads outlined darker, heads that are blocked (stall other than none)
 * in a red ring, and at each shown host the depth of its source queue.
 * Aggregated (f->mode, or flits under min_flit): per channel, a bar on
 * the right of the link coloured by its flits over its VCs' capacity,
 * from green to red; the emphasised flits (below) are still drawn, at
 * min_flit.
 *
 * Overlays, in this order from the bottom: the heat map (a band on each
 * channel's side of its link, under the flits), the selected packet's
 * route so far (bold, with arrows), the wait cycle (as fl_draw_routing()
 * draws a dependency cycle: bold red, arrows, numbered), the flits; then
 * the emphasised flits on top, larger and framed (the selected packet's
 * in the text colour, with every other flit faded; the wait cycle's
 * holders' in red); the heat map's legend in the bottom-right corner and
 * the caption in the top-left one, both within cr's clip.
 *
 * One pass over fl_sim_foreach_flit() and one allocation per frame (a
 * few more with overlays); only what meets cr's clip is drawn. With no
 * simulation, or an empty network, the picture is fl_draw_topology()'s
 * with the caption. */
void fl_draw_flits(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                   const FlDrawFlits *f);

/* Writes the frame to path; formats and errors as fl_draw_export(). opt
 * NULL fits the network into width x height. */
int fl_draw_export_flits_with_options(const FlTopology *t, const FlDrawOptions *opt,
                                      const FlDrawFlits *f, const char *path,
                                      const char *format, int width, int height,
                                      FlError *err);

/* The whole of t with the frame f, fitted below the page's title, at the
 * page's size and resolution (as `flitlab sim --picture` draws it). */
int fl_draw_export_flits_page(const FlTopology *t, const FlDrawFlits *f, const FlDrawPage *page,
                              const char *path, const char *format, FlError *err);

/* ------------------------------------------------------------------------ */
/* Deflection frames                                                        */
/* ------------------------------------------------------------------------ */
/*
 * One cycle of paper 003's deflection model (an FlDeflect) over the
 * network, as fl_draw_flits() draws a flit-level frame: each message in
 * transit on the channel it took in the last cycle, near the end it
 * arrived at (there is at most one per channel: the network has no
 * buffers); the messages still waiting at their source counted beside the
 * switch; a message whose last hop was a deflection ringed.
 */

typedef struct FlDrawDeflect {
    const FlDeflect *deflect;        /* built on the network drawn; NULL draws none */
    FlDrawFlitColour colour;         /* by message id, by source or by destination switch */
    FlDrawFlitPalette palette;
    FlDrawFlitsMode mode;
    double min_message;              /* device units; smaller messages are aggregated */
    const char *caption;             /* top-left box ("cycle 1234"); NULL = none */
    int legend;                      /* a legend in the bottom-left corner */
    const char *deflected_label;     /* its words; NULL: "deflected" */
    const char *waiting_label;       /* its words; NULL: "waiting at the source" */
    /* A message chosen in an inspector (-1 = none): drawn larger and
     * framed, every other faded, its source and destination ringed. */
    int64_t selected_message;
} FlDrawDeflect;

/* No model, colour by message in the contrast palette, automatic mode, min_message 5, no caption,
 * a legend, nothing selected. */
void fl_draw_deflect_init(FlDrawDeflect *d);

/* The colour fl_draw_deflect() gives message m, as red, green and blue in
 * 0..1. */
void fl_draw_deflect_colour(const FlDrawDeflect *d, const FlDeflectView *m, double rgb[3]);

/* The side of a message's square in device units on t through v (as a
 * flit's in a buffer one flit deep, at most a quarter of a grid step),
 * and whether the frame is drawn aggregated. */
double fl_draw_deflect_size(const FlTopology *t, const FlDrawView *v, const FlDrawDeflect *d,
                            int *aggregated);

/* Where fl_draw_deflect() draws message m, in device units: on a
 * switch-to-switch channel, just before the switch it arrived at, on the
 * right-hand side of the way the channel runs. 0 for a message waiting at
 * its source (drawn only as a count) or on a channel t does not have.
 * Lets a caller hit-test messages. */
int fl_draw_deflect_position(const FlTopology *t, const FlDrawView *v, const FlDrawDeflect *d,
                             const FlDeflectView *m, double *x, double *y);

/* The message drawn nearest the device point (x, y), within tolerance
 * device units of its centre, or -1 (its id; waiting messages are not
 * drawn one by one and are never hit). One pass over the messages. */
int64_t fl_draw_deflect_hit(const FlTopology *t, const FlDrawView *v, const FlDrawDeflect *d,
                            double x, double y, double tolerance);

/* Draws t as fl_draw_flits() does (fl_draw_topology()), then the frame of
 * d->deflect over it: every message in transit as a square of its colour,
 * outlined darker, deflected ones in a red ring; at each switch with
 * messages waiting, their number at its top-right corner (dots there when
 * the switch is too small for a number). Aggregated (d->mode, or messages
 * under min_message): per busy channel a dot where its message would be,
 * dark grey for a shortest-path hop and red for a deflection; the selected
 * message is still drawn whole.
 * Then the legend (bottom-left) and the caption (top-left). One pass over
 * fl_deflect_foreach(); only what meets cr's clip is drawn. */
void fl_draw_deflect(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                     const FlDrawDeflect *d);

/* The caption of a deflection frame: "cycle N". */
void fl_draw_deflect_caption(const FlDeflect *d, char *buf, size_t size);

/* fl_draw_export_flits_with_options() for a deflection frame: PNG, SVG
 * or PDF, the whole network fitted in when opt is NULL. */
int fl_draw_export_deflect_with_options(const FlTopology *t, const FlDrawOptions *opt,
                                        const FlDrawDeflect *d, const char *path,
                                        const char *format, int width, int height,
                                        FlError *err);

/* ------------------------------------------------------------------------ */
/* Line plots                                                               */
/* ------------------------------------------------------------------------ */
/*
 * A small line plot in plain cairo, for the live plots beside a running
 * simulation and for figures: a title, axis labels, up to
 * FL_DRAW_PLOT_MAX_SERIES series of (x, y) points, horizontal reference
 * lines (the offered load), autoscaled axes with nice ticks (1, 2 or 5
 * times a power of ten) or fixed ranges, a legend and a cursor. The struct
 * holds everything but the points, so a caller allocates nothing for it.
 */

#define FL_DRAW_PLOT_MAX_SERIES 8
#define FL_DRAW_PLOT_MAX_REFS 4

typedef struct FlDrawPlotSeries {
    const char *name;                /* in the legend; NULL or "" leaves it out */
    int colour;                      /* 0xRRGGBB, or -1 for the next of the plot's palette */
    const double *x, *y;             /* n points; a NaN in either breaks the line */
    int n;
    double width;                    /* line width in device units, 0 = 2 (1 in print) */
    int markers;                     /* a dot at every point (always a marker in print) */
    /* Error bars: from lo[i] to hi[i] in data units at x[i] (a confidence
     * interval); NULL for none. Autoscaling includes them. */
    const double *lo, *hi;
} FlDrawPlotSeries;

typedef struct FlDrawPlotRef {
    const char *label;               /* at the line's right end; may be NULL */
    double y;                        /* in data units */
    int colour;                      /* 0xRRGGBB, -1 = grey */
} FlDrawPlotRef;

typedef struct FlDrawPlotAxis {
    const char *label;               /* may be NULL */
    /* fixed: exactly [min, max]; otherwise the data's range (the
     * reference lines' too, on y) widened to whole ticks, and with
     * include_zero down (or up) to 0. */
    int fixed;
    double min, max;
    int include_zero;
    /* Base-10 logarithmic: ticks at powers of ten (and at 2 and 5 times
     * them over a short range); points not above 0 are left out, and
     * include_zero is ignored. */
    int log;
} FlDrawPlotAxis;

/* How series look. SCREEN: colours, solid lines, dots where asked. PRINT:
 * for figures that may be printed in grey, series i also gets the i-th
 * marker shape and dash pattern (fl_draw_plot_series_style()) and
 * thinner lines. In PRINT a dense series (its points closer on average
 * than 1.5 marker widths, as a run's samples over time are) gets its
 * markers spaced out, staggered between series so that each still shows
 * its shape, and its error bars drawn as a light band between lo and hi,
 * unless the plot asks for every mark (FlDrawPlot.every_mark). */
typedef enum FlDrawPlotStyle { FL_DRAW_PLOT_SCREEN, FL_DRAW_PLOT_PRINT } FlDrawPlotStyle;

typedef enum FlDrawMarker {
    FL_DRAW_MARKER_NONE,
    FL_DRAW_MARKER_CIRCLE,        /* filled */
    FL_DRAW_MARKER_SQUARE_OPEN,
    FL_DRAW_MARKER_TRIANGLE,      /* filled, pointing up */
    FL_DRAW_MARKER_DIAMOND_OPEN,
    FL_DRAW_MARKER_CROSS,         /* x */
    FL_DRAW_MARKER_PLUS,
    FL_DRAW_MARKER_CIRCLE_OPEN,
    FL_DRAW_MARKER_SQUARE,        /* filled */
} FlDrawMarker;

/* The dash patterns of the PRINT style, in its order. */
typedef enum FlDrawDash {
    FL_DRAW_DASH_SOLID,
    FL_DRAW_DASH_DASHED,
    FL_DRAW_DASH_DOTTED,
    FL_DRAW_DASH_DASH_DOT,
    FL_DRAW_DASH_LONG,
    FL_DRAW_DASH_DASH_DOT_DOT,
    FL_DRAW_DASH_DENSE,
    FL_DRAW_DASH_DENSE_DOTTED,
} FlDrawDash;

/* Where the legend goes. TOP_LEFT (inside) is the default; AUTO tries
 * the four inside corners and takes the first whose box covers no data
 * point, else outside on the right when the figure is wide enough to
 * give the room, else the inside corner covering the fewest points. */
typedef enum FlDrawLegendPlace {
    FL_DRAW_LEGEND_TOP_LEFT,
    FL_DRAW_LEGEND_TOP_RIGHT,
    FL_DRAW_LEGEND_BOTTOM_LEFT,
    FL_DRAW_LEGEND_BOTTOM_RIGHT,
    FL_DRAW_LEGEND_OUTSIDE_RIGHT,
    FL_DRAW_LEGEND_AUTO,
} FlDrawLegendPlace;

typedef struct FlDrawPlot {
    const char *title;               /* may be NULL */
    FlDrawPlotAxis x, y;
    FlDrawPlotSeries series[FL_DRAW_PLOT_MAX_SERIES];
    int nseries;
    FlDrawPlotRef refs[FL_DRAW_PLOT_MAX_REFS];
    int nrefs;
    int legend;                      /* names of the series and refs, top-left inside */
    double cursor;                   /* a vertical line at this x; NaN = none */
    int dark;                        /* colours for a dark style */
    double font;                     /* tick labels' size; 0 = from the picture's size */
    FlDrawPlotStyle style;           /* SCREEN by default */
    FlDrawLegendPlace legend_place;  /* TOP_LEFT by default */
    int every_mark;                  /* PRINT: a marker and error bar at every point
                                      * of a dense series too */
} FlDrawPlot;

/* No title, labels, series or refs; both axes autoscaled, y from zero;
 * a legend; no cursor; light; series colours from the palette. */
void fl_draw_plot_init(FlDrawPlot *p);

/* Where a plot drawn in width x height puts its data: the plot area in
 * device units, the axes' ranges and tick steps. An autoscaled x axis
 * leaves xpad device units at each end of the plot area beyond x0 and x1
 * (first and last ticks), room for half a marker and an error bar's cap,
 * so that nothing drawn for the first and last points is cut by the
 * frame; with no markers or error bars, or a fixed range, xpad is 0. */
typedef struct FlDrawPlotLayout {
    double left, top, right, bottom; /* the plot area */
    double x0, x1, y0, y1;           /* the data at its edges (x: xpad inside them) */
    double xstep, ystep;             /* between ticks (on a log axis: decades) */
    int xlog, ylog;                  /* the axis is logarithmic */
    FlDrawLegendPlace legend_place;  /* where the legend went (never AUTO) */
    double legend_x, legend_y, legend_w, legend_h; /* its box; 0 wide when none */
    double xpad;                     /* device units from left to x0, from x1 to right */
} FlDrawPlotLayout;

void fl_draw_plot_layout(const FlDrawPlot *p, double width, double height,
                         FlDrawPlotLayout *out);

/* Data <-> device through a layout. */
void fl_draw_plot_to_device(const FlDrawPlotLayout *l, double x, double y, double *dx,
                            double *dy);

/* The data x under device x px of the plot drawn in width x height (for a
 * cursor); 1 when px is inside the plot area, else 0; *x clamped to the
 * axis's x0..x1. */
int fl_draw_plot_hit_x(const FlDrawPlot *p, double width, double height, double px,
                       double *x);

/* A nice tick step for a range of span over about n ticks: 1, 2 or 5
 * times a power of ten. */
double fl_draw_plot_nice_step(double span, int n);

/* Draws p into the width x height rectangle at cr's origin: the
 * background, grid, ticks, reference lines (dashed), the series clipped
 * to the plot area, the legend, cursor, title and axis labels. */
void fl_draw_plot(cairo_t *cr, const FlDrawPlot *p, double width, double height);

/* The marker and dash series s gets in p (NONE and SOLID on screen unless
 * the series asks for markers: CIRCLE). In PRINT every one of the
 * FL_DRAW_PLOT_MAX_SERIES series gets a different marker and dash. */
void fl_draw_plot_series_style(const FlDrawPlot *p, int s, FlDrawMarker *marker,
                               FlDrawDash *dash);

/* Device sizes in points (1/72 in, the unit of PDF and SVG) for a figure
 * spanning one column (8.5 cm wide, 4:3) or two columns (17.5 cm wide,
 * 5:2) of a paper, and the tick labels' font size for print (8 pt). */
typedef enum FlDrawPaperColumns {
    FL_DRAW_PAPER_SINGLE_COLUMN = 1,
    FL_DRAW_PAPER_DOUBLE_COLUMN = 2,
} FlDrawPaperColumns;

void fl_draw_plot_paper_size(FlDrawPaperColumns columns, double *width, double *height,
                             double *font);

/* Sets p up for a paper: PRINT style, the font for print, the legend
 * where it hides no data; returns the device size of columns as
 * fl_draw_plot_paper_size() does (either pointer may be NULL). */
void fl_draw_plot_for_paper(FlDrawPlot *p, FlDrawPaperColumns columns, double *width,
                            double *height);

/* Writes p atomically as fl_draw_export() does, in a format named by
 * format or, with NULL, by path's extension: png, svg, pdf (drawn), csv
 * (.csv: one row per point: series, x, y, lo, hi), gnuplot (.gp: a script
 * with its data inline that draws the figure to a PDF), pgfplots (.tex: a
 * tikzpicture with an axis environment and the data inline). width and
 * height are the figure's size in device units (points in PDF, SVG, the
 * gnuplot and pgfplots figures). */
int fl_draw_export_plot(const FlDrawPlot *p, const char *path, const char *format, int width,
                        int height, FlError *err);

/* ------------------------------------------------------------------------ */
/* Interval charts                                                          */
/* ------------------------------------------------------------------------ */
/*
 * Rows of bars on a time axis in plain cairo: the timing diagram of a
 * collective (one row per node: its sends, the network's time, its
 * receives) and the Gantt chart of a schedule's slots. The time axis has a
 * line plot's nice ticks; a vertical marker shows a latency.
 */

typedef enum FlDrawBarKind {
    FL_DRAW_BAR_SEND,                /* the upper half of its row */
    FL_DRAW_BAR_NETWORK,             /* a thin bar across the middle */
    FL_DRAW_BAR_RECEIVE,             /* the lower half */
    FL_DRAW_BAR_SLOT                 /* the whole row */
} FlDrawBarKind;

typedef struct FlDrawBar {
    int row;                         /* 0 .. rows - 1 from the top; others are not drawn */
    double start, end;               /* time units */
    FlDrawBarKind kind;
    int colour;                      /* -1: by kind; else fl_draw_palette_colour() index */
    const char *label;               /* drawn inside when it fits, may be NULL */
} FlDrawBar;

typedef struct FlDrawChart {
    const char *title;               /* may be NULL */
    const char *const *row_labels;   /* rows of them (entries may be NULL), or NULL */
    int rows;
    const FlDrawBar *bars;
    int nbars;
    const char *time_unit;           /* the axis label, "cycles"; may be NULL */
    double t_min, t_max;             /* both 0: fit the bars (and the marker) from 0 */
    double marker;                   /* a vertical line (e.g. the latency), NAN: none */
    int dark;                        /* colours for a dark style */
} FlDrawChart;

/* No title, rows or bars; time in "cycles", fitted; no marker; light. */
void fl_draw_chart_init(FlDrawChart *c);

/* Where a chart drawn in width x height puts things: the plot area in
 * device units, the time at its left and right edges (x0, x1) and the
 * tick step (xstep); y counts rows from the top, y0 = rows at the bottom
 * edge and y1 = 0 at the top, so that fl_draw_plot_to_device(l, t, r)
 * is time t at the top of row r's band. */
void fl_draw_chart_layout(const FlDrawChart *c, double width, double height,
                          FlDrawPlotLayout *out);

/* Draws c into the width x height rectangle at cr's origin: the
 * background, every other row shaded, the row labels (every k-th when
 * rows are too thin to read them all), the time axis's grid, ticks and
 * label, the bars clipped to the plot area (with their labels where they
 * fit), the marker with its value, and the title. O(rows + bars). */
void fl_draw_chart(cairo_t *cr, const FlDrawChart *c, double width, double height);

/* Writes c as PNG, SVG or PDF (format, or path's extension with NULL),
 * atomically as fl_draw_export() does. */
int fl_draw_export_chart(const FlDrawChart *c, const char *path, const char *format, int width,
                         int height, FlError *err);

/* The index-th colour of a qualitative palette (steps, colour classes),
 * as red, green and blue in 0..1; it repeats after a dozen colours and has
 * no red (which marks contention). */
void fl_draw_palette_colour(int index, double rgb[3]);

/* The colour of a bar of kind drawn with colour -1. */
void fl_draw_chart_kind_colour(FlDrawBarKind kind, int dark, double rgb[3]);

/* The row under device point y in a chart drawn width x height, or -1. */
int fl_draw_chart_hit_row(const FlDrawChart *c, double width, double height, double y);

/* ------------------------------------------------------------------------ */
/* Multicast trees                                                          */
/* ------------------------------------------------------------------------ */
/*
 * A multicast tree (flitlab/multicast.h) over the network it was built
 * on: each unicast along the channels of its route (fl_routing_path() with
 * lowest-port selection, the route fl_multicast_tree_contention() checks),
 * in the colour of its step, an arrow into its destination and a label
 * "step @ send time"; unicasts that share a channel side by side, each in
 * a lane of its own on the right of the way the channels run; the source's
 * switch ringed in green and each destination's in the colour of the step
 * that reaches it; the channels of every conflicting pair underlaid in
 * red. Nodes are host ranks, as the tree's.
 */

/* The words of the legend, so that a GUI can translate them; a NULL field
 * (or table) takes the English shown. */
typedef struct FlDrawMulticastText {
    const char *source;              /* "source" */
    const char *destination;         /* "destination" */
    const char *step;                /* "step %d": a printf format with one %d */
    const char *labels;              /* "1 @ 20: step @ send time" */
    const char *contention;          /* "contention" (followed by the pairs' count) */
} FlDrawMulticastText;

/* The routes of a tree's unicasts, computed once for a tree drawn many
 * times (on a canvas), rather than at every drawing. */
typedef struct FlDrawMulticastRoutes FlDrawMulticastRoutes;

typedef struct FlDrawMulticast {
    const FlMulticastTree *tree;     /* built on the network drawn; NULL: no unicasts */
    /* Built on the network drawn (or one with the same switches and links
     * under the same ids): the unicasts' routes. NULL, or one of another
     * network: straight lines from switch to switch. */
    const FlRouting *routing;
    /* The tree's routes from fl_draw_multicast_routes_new(); NULL (or
     * another tree's): routed through routing at each drawing. */
    const FlDrawMulticastRoutes *routes;
    const FlMulticastConflict *conflicts;   /* the tree's, from the same routing */
    int nconflicts;
    int source;                      /* the source host, ringed; -1: none */
    const int *dests;                /* destination hosts, ringed (with or without a tree) */
    int ndests;
    int labels;                      /* "step @ send time" beside each unicast (of 256 at most) */
    int legend;                      /* a legend in the bottom-left corner */
    const FlDrawMulticastText *text; /* NULL: English */
} FlDrawMulticast;

/* No tree, routing, conflicts, source or destinations; labels and legend. */
void fl_draw_multicast_init(FlDrawMulticast *m);

/* The routes of tree's unicasts under routing (built on t, or one with the
 * same switches and links under the same ids), as the overlay takes them:
 * fl_routing_path() with lowest-port selection from each sender's switch
 * to its receiver's. NULL with a message for a missing tree or routing, a
 * routing of another network, or no memory. O(edges x route length). */
FlDrawMulticastRoutes *fl_draw_multicast_routes_new(const FlTopology *t,
                                                    const FlMulticastTree *tree,
                                                    const FlRouting *routing, FlError *err);
void fl_draw_multicast_routes_free(FlDrawMulticastRoutes *r);

/* The colour of the unicasts of step (1 for the first round):
 * fl_draw_palette_colour(step - 1). */
void fl_draw_multicast_step_colour(int step, double rgb[3]);

/* Draws the tree of m over t drawn with o (by fl_draw_topology() or
 * anything that draws the network through o's view): rings, unicasts,
 * labels (moved along the route where an earlier one is in the way),
 * the legend. One route per unicast, O(edges x route length). */
void fl_draw_multicast_overlay(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                               const FlDrawMulticast *m);

/* The legend m's overlay draws (with m->legend), and its size: the source,
 * the destinations, each step's colour (the first 8), the labels' key and
 * the contention, with its top-left corner at (x, y). A GUI may show it
 * beside the network rather than over it. */
void fl_draw_multicast_legend_size(const FlDrawMulticast *m, double *width, double *height);
void fl_draw_multicast_legend(cairo_t *cr, const FlDrawMulticast *m, int dark, double x,
                              double y);

/* A view that fits t into width x height clear of m's legend (with
 * m->legend), as fl_draw_routing_fit() keeps clear of its own. */
void fl_draw_multicast_fit(const FlTopology *t, const FlDrawMulticast *m, double width,
                           double height, FlDrawView *view);

/* fl_draw_topology() and then the overlay. */
void fl_draw_multicast(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                       const FlDrawMulticast *m);

/* Writes t with the tree to path; formats and errors as fl_draw_export().
 * opt NULL fits the network into width x height. */
int fl_draw_export_multicast(const FlTopology *t, const FlDrawOptions *opt,
                             const FlDrawMulticast *m, const char *path, const char *format,
                             int width, int height, FlError *err);

/* ------------------------------------------------------------------------ */
/* Animations                                                               */
/* ------------------------------------------------------------------------ */

/* An animated GIF being written, frame by frame (giflib). Frames are
 * mapped to a fixed palette: a 6x7x6 colour cube and four greys (the
 * network's), nearest colour per pixel through a small cache; each frame
 * after the first stores only the rectangle that changed. The file
 * appears whole or not at all: it is written to a temporary file beside
 * path and renamed into place by fl_draw_gif_close(). */
typedef struct FlDrawGif FlDrawGif;

/* Starts an animation of width x height pixels (1 to 16384 a side), each
 * frame shown delay_cs hundredths of a second (0 to 65535), looping
 * forever. NULL after a message naming the problem (a size, a delay, an
 * unwritable path). */
FlDrawGif *fl_draw_gif_open(const char *path, int width, int height, int delay_cs,
                            FlError *err);

/* Appends image, an ARGB32 or RGB24 image surface of the animation's
 * size (transparent parts over white). FL_EINVAL for another size or
 * format, FL_EIO when writing fails (the animation must then be
 * aborted). */
int fl_draw_gif_add(FlDrawGif *g, cairo_surface_t *image, FlError *err);

/* The frames added so far. */
int fl_draw_gif_frames(const FlDrawGif *g);

/* Finishes the file and renames it into place; frees g either way. A GIF
 * without frames is refused (and nothing is left behind). */
int fl_draw_gif_close(FlDrawGif *g, FlError *err);

/* Stops writing, removes the temporary file and frees g (NULL is fine). */
void fl_draw_gif_abort(FlDrawGif *g);

/* The palette index a colour maps to, and back: for tests and legends. */
int fl_draw_gif_palette_index(int r, int g, int b);
void fl_draw_gif_palette_colour(int index, int rgb[3]);

/* Writes image as dir/prefix-NNNNN.png (index with five digits, from 1 in
 * an animation), atomically; the file's path into path_out when not NULL
 * (size bytes). dir must exist. */
int fl_draw_png_sequence_write(const char *dir, const char *prefix, int index,
                               cairo_surface_t *image, char *path_out, size_t size,
                               FlError *err);

/* The caption of a frame: "cycle N", "cycle N (deadlock)". */
void fl_draw_frame_caption(const FlSim *sim, char *buf, size_t size);

/* A range of cycles to draw, and where. */
typedef struct FlDrawAnimation {
    const char *path;                /* a .gif file, or an existing directory */
    int png_sequence;                /* path is a directory: frame-00001.png, ... */
    int width, height;               /* pixels */
    int delay_cs;                    /* each GIF frame's time, 1/100 s */
    int64_t from, to, step;          /* the cycles drawn: from, from + step, ... <= to */
    const FlDrawOptions *options;    /* the view; NULL fits the network */
    /* How each frame is drawn (colours, link latency, a selected packet);
     * its simulation and caption are set for each frame, and a deadlock's
     * waiting cycle once the simulation stops at one. */
    FlDrawFlits flits;
    FlProgressFunc progress;         /* after each frame; may be NULL */
    void *progress_data;
    /* How each frame of fl_draw_animate_deflect() is drawn; its model and
     * caption are set for each frame. */
    FlDrawDeflect deflect;
} FlDrawAnimation;

/* 1280x800, 10 cs a frame, every cycle, no path yet, fl_draw_flits_init()'s
 * flits and fl_draw_deflect_init()'s deflection frames. */
void fl_draw_animation_init(FlDrawAnimation *a);

/* Steps sim (which must not be past a->from) to each cycle of the range,
 * drawing t with the frame into the GIF or the PNG sequence; stops after
 * the frame of a deadlock (nothing moves any more). The number of frames
 * written goes to *frames. A GIF appears whole or not at all; cancelling
 * through the progress callback is FL_ECANCELLED. */
int fl_draw_animate(FlSim *sim, const FlTopology *t, const FlDrawAnimation *a, int *frames,
                    FlError *err);

/* The same for the deflection model: steps d (which must not be past
 * a->from) to each cycle of the range and draws it with a->deflect. */
int fl_draw_animate_deflect(FlDeflect *d, const FlTopology *t, const FlDrawAnimation *a,
                            int *frames, FlError *err);

/* ------------------------------------------------------------------------ */
/* Complete exchange                                                        */
/* ------------------------------------------------------------------------ */
/*
 * A complete exchange (flitlab/alltoall.h) drawn on the torus:NxN it runs
 * on, whose switch of rank i * N + j is processor P(i, j) (node number
 * i * N + j of the run). Another network draws nothing.
 */

/* The switch of t where processor p of an N x N exchange is drawn, or -1
 * when t is not torus:NxN or p is out of range. O(1). */
int fl_draw_exchange_switch(const FlTopology *t, int n, int p);

/* The processor drawn at node (a switch, or a host: its switch) of t,
 * or -1 when t is not torus:NxN or node is out of range. O(1). */
int fl_draw_exchange_processor(const FlTopology *t, int n, int node);

/* The colour fl_draw_exchange_step() gives the messages sent by
 * processor src, as red, green and blue in 0..1. */
void fl_draw_exchange_colour(int src, double rgb[3]);

/* Draws over t, as fl_draw_topology() drew it with o, the messages of
 * step (1 .. fl_alltoall_step_count(); 0 and beyond the last draw no
 * message) of aa: each along its dimension-ordered path in its source's
 * colour, in a lane on the right of every channel it takes, so that the
 * two ways of a link stay apart, with an arrow head where it arrives.
 * Processor node (-1: none) is ringed in the source colour; its outgoing
 * message is drawn wider in the route colour with its destination ringed,
 * its incoming one wider in blue. O(messages x N). */
void fl_draw_exchange_step(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                           const FlAllToAll *aa, size_t step, int node);

/* ------------------------------------------------------------------------ */
/* Link-contention schedules                                                */
/* ------------------------------------------------------------------------ */

typedef struct FlDrawSchedule {
    const FlSchedule *schedule;      /* built on the network drawn; NULL draws none */
    const int *colors;               /* each request's colour (slot), or NULL: all grey */
    int filter;                      /* -1: every request; else those of this colour */
    int selected;                    /* a request drawn on top, framed; -1: none */
} FlDrawSchedule;

/* No schedule, no colours, every request shown, none selected. */
void fl_draw_schedule_init(FlDrawSchedule *d);

/* Draws over t, as fl_draw_topology() drew it with o, the requests of
 * d->schedule that d->filter shows: each along its path's channels in its
 * colour's fl_draw_palette_colour() (grey uncoloured), with an arrow head
 * where it arrives, a dot on its source host and a ring around its
 * destination host (where hosts are drawn). The requests on one channel
 * are drawn side by side in lanes on its right, in request order, as
 * narrow as the busiest channel shown needs; a valid colouring filtered
 * to one colour puts at most one lane on each channel. O(requests +
 * path lengths + channels). */
void fl_draw_schedule(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                      const FlDrawSchedule *d);

/* ------------------------------------------------------------------------ */
/* Highlights (draw-highlight.c)                                            */
/* ------------------------------------------------------------------------ */

/* Two switch labels: a link's ends, or a channel's source and destination. */
typedef struct FlDrawPair {
    int a, b;
} FlDrawPair;

/* What a lesson's step points at, by switch labels (the numbers drawn):
 * switches, links (either way) and channels (from a to b). */
typedef struct FlDrawHighlight {
    const int *nodes;
    int n_nodes;
    const FlDrawPair *links;
    int n_links;
    const FlDrawPair *channels;
    int n_channels;
} FlDrawHighlight;

/* Draws h over t as drawn with o (its view and style), in the accent
 * colour and translucent, so what is below still reads: a halo around
 * each switch, a thick stroke along each link as drawn (spurs, arcs), and
 * each channel as a thick stroke in the lane on the left of the way it
 * runs (the overlays label channels on the right) with an arrow head where
 * it arrives. A label no switch of t
 * carries, or a pair no link joins, is left out. O(items x ports). */
void fl_draw_highlight(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                       const FlDrawHighlight *h);

/* The link joining nodes a and b (ids), or -1; the channel from node
 * from to node to, or -1. O(ports of a). */
int fl_draw_find_link(const FlTopology *t, int a, int b);
int fl_draw_find_channel(const FlTopology *t, int from, int to);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_DRAW_H */
