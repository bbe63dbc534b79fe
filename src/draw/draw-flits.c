/* draw-flits.c — one frame of a running simulation over the network: flits
 * on links and in input buffers, blocked heads, source queue depths, or
 * per channel occupancy when flits would be too small to see. Positions
 * follow the channels as draw-scene.c draws them, so the frame sits on
 * fl_draw_topology()'s picture.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw-scene-private.h"

#define MAX_FLIT 14.0        /* device units: flits stop growing here */
#define GAP 0.10             /* between stacked flits, share of a side */
#define AGG_LEVELS 8         /* occupancy colours of the aggregated frame */

/* Distinct colours, none of them the red of the blocked mark. */
static const Rgba palette[] = {
    { 0.12, 0.47, 0.71, 1 }, { 1.00, 0.50, 0.05, 1 }, { 0.17, 0.63, 0.17, 1 },
    { 0.58, 0.40, 0.74, 1 }, { 0.55, 0.34, 0.29, 1 }, { 0.89, 0.47, 0.76, 1 },
    { 0.50, 0.50, 0.50, 1 }, { 0.74, 0.74, 0.13, 1 }, { 0.09, 0.75, 0.81, 1 },
    { 0.00, 0.30, 0.45, 1 }, { 0.40, 0.20, 0.55, 1 }, { 0.00, 0.55, 0.45, 1 },
};
#define NPALETTE ((int)(sizeof palette / sizeof palette[0]))

static const Rgba blocked = { 0.90, 0.05, 0.05, 1 };

void fl_draw_flits_init(FlDrawFlits *f)
{
    memset(f, 0, sizeof *f);
    f->colour = FL_DRAW_FLITS_BY_PACKET;
    f->mode = FL_DRAW_FLITS_AUTO;
    f->link_latency = 1;
    f->min_flit = 3.0;
    f->max_queued = 99;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static Rgba flit_colour(const FlDrawFlits *f, const FlFlitView *fl)
{
    uint64_t key = f->colour == FL_DRAW_FLITS_BY_SOURCE        ? (uint64_t)fl->src_host
                   : f->colour == FL_DRAW_FLITS_BY_DESTINATION ? (uint64_t)fl->dst_host
                                                                : (uint64_t)fl->packet;
    return palette[mix(key) % NPALETTE];
}

void fl_draw_flit_colour(const FlDrawFlits *f, const FlFlitView *fl, double rgb[3])
{
    Rgba c = flit_colour(f, fl);
    rgb[0] = c.r, rgb[1] = c.g, rgb[2] = c.b;
}

/* The buffer depth of the network's VCs (every channel's is the same). */
static int buffer_depth(const FlSim *sim)
{
    FlVcView vv;
    if (!sim || fl_sim_channels(sim) < 1 || fl_sim_vc_view(sim, 0, 0, &vv, NULL) != FL_OK)
        return 1;
    return vv.capacity > 0 ? vv.capacity : 1;
}

/* A flit's side: a one-step link between two switches holds a whole
 * buffer. The buffers of its two channels stack on opposite sides of it,
 * clear of each other and of the lane of the flits on the link. */
static double flit_side(const Geom *g, int depth)
{
    double room = g->v.scale - 2 * g->half;
    double side = room / (depth * (1 + GAP) + 0.25);
    return fmin(side, MAX_FLIT);
}

static int is_aggregated(const FlDrawFlits *f, double side)
{
    return f->mode == FL_DRAW_FLITS_AGGREGATED
           || (f->mode == FL_DRAW_FLITS_AUTO && side < f->min_flit);
}

double fl_draw_flit_size(const FlTopology *t, const FlDrawView *v, const FlDrawFlits *f,
                         int *aggregated)
{
    Geom g;
    fl__draw_geom_init(&g, t, v, 0);
    double side = flit_side(&g, buffer_depth(f ? f->sim : NULL));
    fl__draw_geom_clear(&g);
    if (aggregated)
        *aggregated = f ? is_aggregated(f, side) : 0;
    return side;
}

/* One channel as drawn, with the length of its last part (the whole link,
 * or twice the stub it arrives by, so that u maps linearly there). */
typedef struct Lane {
    int c;
    Chan ch;
    double len;
} Lane;

static void lane_init(const Scene *sc, int c, Lane *ln)
{
    ln->c = c;
    fl__draw_chan_init(sc, c, &ln->ch);
    const DevShape *d = &ln->ch.d;
    if (ln->ch.s.kind == SHAPE_STUBS) {
        int end = ln->ch.reverse ? 0 : 1;
        ln->len = 2 * hypot(d->x[end + 2] - d->x[end], d->y[end + 2] - d->y[end]);
    } else if (ln->ch.s.kind == SHAPE_ARC) {
        double px, py, tx, ty, x, y;
        ln->len = 0;
        fl__draw_chan_at(&ln->ch, 0, &px, &py, &tx, &ty);
        for (int k = 1; k <= 8; k++) {
            fl__draw_chan_at(&ln->ch, k / 8.0, &x, &y, &tx, &ty);
            ln->len += hypot(x - px, y - py);
            px = x, py = y;
        }
    } else {
        ln->len = hypot(d->x[1] - d->x[0], d->y[1] - d->y[0]);
    }
}

/* The centre of flit fl on lane ln, of side side. */
static void flit_at(const Geom *g, const Lane *ln, const FlDrawFlits *f, double side,
                    const FlFlitView *fl, double *x, double *y)
{
    double tx, ty;
    if (fl->place == FL_FLIT_LINK) {
        int lat = f->link_latency >= 1 ? f->link_latency : 1;
        double u = clamp((fl->position + 0.5) / lat, 0, 1);
        fl__draw_chan_at(&ln->ch, u, x, y, &tx, &ty);
        /* Beside the link, so that the two ways of a link do not meet. */
        double off = g->lw * 0.5 + side * 0.5;
        *x += -ty * off;
        *y += tx * off;
        return;
    }
    double back = g->half + side * (0.5 + GAP + fl->position * (1 + GAP));
    double lo = ln->ch.s.kind == SHAPE_STUBS ? 0.5 : 0;   /* a stub's buffer stays on it */
    double u = ln->len > 1e-9 ? clamp(1 - back / ln->len, lo, 1) : 1;
    fl__draw_chan_at(&ln->ch, u, x, y, &tx, &ty);
    /* Lanes beyond the one flits on the link take. */
    double off = g->lw * 0.5 + side * (1.5 + 2 * GAP + fl->vc * (1 + GAP));
    *x += -ty * off;   /* the right-hand side of the way it runs */
    *y += tx * off;
}

int fl_draw_flit_position(const FlTopology *t, const FlDrawView *v, const FlDrawFlits *f,
                          const FlFlitView *fl, double *x, double *y)
{
    if (!t || !v || !f || !fl || fl->place == FL_FLIT_SOURCE_QUEUE || fl->channel < 0
        || fl->channel >= fl_topology_channel_count(t))
        return 0;
    Scene sc;
    Lane ln;
    fl__draw_scene_init(&sc, t, v, 0);
    double side = flit_side(&sc.g, buffer_depth(f->sim));
    lane_init(&sc, fl->channel, &ln);
    flit_at(&sc.g, &ln, f, side, fl, x, y);
    fl__draw_geom_clear(&sc.g);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Individual flits                                                         */
/* ------------------------------------------------------------------------ */

typedef struct Frame {
    Pen *pen;
    const FlDrawFlits *f;
    double side;
    Lane lane;                   /* the last channel met: flits come in channel order */
    int *queued;                 /* per node: source queue flits seen */
    double *rings;               /* blocked heads: x, y pairs */
    int nrings, maxrings;
} Frame;

static void visit_flit(void *data, const FlFlitView *fl)
{
    Frame *fr = data;
    const Geom *g = &fr->pen->sc.g;
    cairo_t *cr = fr->pen->cr;
    if (fl->place == FL_FLIT_SOURCE_QUEUE) {
        if (fl->node >= 0 && fl->node < fl_topology_node_count(g->t))
            fr->queued[fl->node]++;
        return;
    }
    if (fl->channel < 0 || fl->channel >= fl_topology_channel_count(g->t))
        return;
    if (fr->lane.c != fl->channel)
        lane_init(&fr->pen->sc, fl->channel, &fr->lane);
    if (fr->lane.ch.s.host && g->host_r == 0)
        return;
    double x, y, h = fr->side / 2;
    flit_at(g, &fr->lane, fr->f, fr->side, fl, &x, &y);
    if (!box_near(&fr->pen->clip, x, y, fr->side * 2))
        return;
    Rgba c = flit_colour(fr->f, fl);
    set_colour(cr, c);
    cairo_rectangle(cr, x - h, y - h, fr->side, fr->side);
    if (fl->index == 0) {
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, c.r * 0.45, c.g * 0.45, c.b * 0.45);
        cairo_set_line_width(cr, fmax(1.0, fr->side * 0.2));
        cairo_stroke(cr);
        if (fl->stall != FL_STALL_NONE && fr->nrings < fr->maxrings) {
            fr->rings[2 * fr->nrings] = x;
            fr->rings[2 * fr->nrings + 1] = y;
            fr->nrings++;
        }
    } else {
        cairo_fill(cr);
    }
}

/* The blocked heads' rings, in one stroke. */
static void draw_rings(const Frame *fr)
{
    cairo_t *cr = fr->pen->cr;
    double r = fr->side * 0.8;
    cairo_new_path(cr);
    for (int i = 0; i < fr->nrings; i++) {
        cairo_new_sub_path(cr);
        cairo_arc(cr, fr->rings[2 * i], fr->rings[2 * i + 1], r, 0, 2 * FL_PI);
    }
    set_colour(cr, blocked);
    cairo_set_line_width(cr, fmax(1.5, fr->side * 0.25));
    cairo_stroke(cr);
}

/* The depth of each shown host's source queue, beyond the host on the
 * side away from its switch, clear of the flits on its link. */
static void draw_queues(const Frame *fr)
{
    const Geom *g = &fr->pen->sc.g;
    cairo_t *cr = fr->pen->cr;
    if (g->host_r == 0)
        return;
    double font = clamp(g->host_r * 1.6, 7, 14);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, font);
    for (int n = 0; n < fl_topology_node_count(g->t); n++) {
        if (!fr->queued[n] || !fl__draw_node_shown(g, n))
            continue;
        double x, y, sx, sy;
        fl__draw_node_device(g, n, &x, &y);
        if (!box_near(&fr->pen->clip, x, y, 40))
            continue;
        int sw = fl_topology_host_switch(g->t, n);
        double dx = 0, dy = -1;
        if (sw >= 0) {
            fl__draw_node_device(g, sw, &sx, &sy);
            double len = hypot(x - sx, y - sy);
            if (len > 1e-9)
                dx = (x - sx) / len, dy = (y - sy) / len;
        }
        char text[24];
        snprintf(text, sizeof text, fr->queued[n] >= fr->f->max_queued ? "%d+" : "%d",
                 fr->queued[n]);
        cairo_text_extents_t ext;
        cairo_text_extents(cr, text, &ext);
        /* The text's box centred beyond the host, as far out as it is
         * long that way. */
        double reach = g->host_r + 3 + fabs(dx) * ext.width / 2 + fabs(dy) * ext.height / 2;
        double cx = x + dx * reach, cy = y + dy * reach;
        fl__draw_halo_text(cr, cx - ext.width / 2 - ext.x_bearing,
                           cy - ext.height / 2 - ext.y_bearing, text, fr->pen->col->text,
                           fr->pen->col->background, font);
    }
}

static void draw_individual(Pen *pen, const FlDrawFlits *f, double side)
{
    const FlTopology *t = pen->sc.g.t;
    int nodes = fl_topology_node_count(t);
    int maxrings = fl_sim_channels(f->sim) * fl_sim_vcs(f->sim) + nodes;
    /* The frame's one allocation: queue counts, then ring centres. */
    size_t bytes = sizeof(int) * (size_t)(nodes + 1) + sizeof(double) * 2 * (size_t)(maxrings + 1);
    char *buf = calloc(1, bytes);
    if (!buf)
        return;
    Frame fr = { pen, f, side, { -1 }, (int *)(void *)buf, NULL, 0, maxrings };
    fr.rings = (double *)(void *)(buf + sizeof(double) * (((size_t)nodes + 1 + 1) / 2));
    cairo_save(pen->cr);
    cairo_set_line_join(pen->cr, CAIRO_LINE_JOIN_MITER);
    fl_sim_foreach_flit(f->sim, f->max_queued > 0 ? f->max_queued : 0, visit_flit, &fr);
    draw_rings(&fr);
    draw_queues(&fr);
    cairo_restore(pen->cr);
    free(buf);
}

/* ------------------------------------------------------------------------ */
/* Aggregated                                                               */
/* ------------------------------------------------------------------------ */

/* Green through yellow to red. */
static Rgba level_colour(int level)
{
    double w = (level + 1) / (double)AGG_LEVELS;
    Rgba c = { w < 0.5 ? 2 * w : 1, w < 0.5 ? 0.8 : 0.8 * (2 - 2 * w), 0.1, 1 };
    return c;
}

static void draw_aggregated(Pen *pen, const FlDrawFlits *f)
{
    const Geom *g = &pen->sc.g;
    cairo_t *cr = pen->cr;
    int nch = fl_topology_channel_count(g->t), vcs = fl_sim_vcs(f->sim);
    if (fl_sim_channels(f->sim) < nch)
        nch = fl_sim_channels(f->sim);
    unsigned char *level = malloc((size_t)(nch > 0 ? nch : 1));
    if (!level)
        return;
    for (int c = 0; c < nch; c++) {
        int flits = 0, cap = 0;
        for (int v = 0; v < vcs; v++) {
            FlVcView vv;
            if (fl_sim_vc_view(f->sim, c, v, &vv, NULL) != FL_OK)
                continue;
            flits += vv.flits_buffered + vv.flits_on_link;
            cap += vv.capacity;
        }
        level[c] = 0;
        if (flits > 0 && cap > 0) {
            int k = (int)((double)flits / cap * AGG_LEVELS);
            level[c] = (unsigned char)(1 + (k >= AGG_LEVELS ? AGG_LEVELS - 1 : k));
        }
    }
    double off = g->lw * 1.5, w = fmax(g->lw * 2, 1.5);
    cairo_save(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_width(cr, w);
    for (int lv = 1; lv <= AGG_LEVELS; lv++) {
        cairo_new_path(cr);
        int any = 0;
        for (int c = 0; c < nch; c++) {
            if (level[c] != lv)
                continue;
            Chan ch;
            fl__draw_chan_init(&pen->sc, c, &ch);
            if (ch.s.host && g->host_r == 0)
                continue;
            double x0, y0, x1, y1, tx, ty, ux, uy;
            fl__draw_chan_at(&ch, 0.5, &x0, &y0, &tx, &ty);
            if (!box_near(&pen->clip, x0, y0, g->v.scale * 2))
                continue;
            fl__draw_chan_at(&ch, 0.95, &x1, &y1, &ux, &uy);
            cairo_move_to(cr, x0 - ty * off, y0 + tx * off);
            cairo_line_to(cr, x1 - uy * off, y1 + ux * off);
            any = 1;
        }
        if (any) {
            set_colour(cr, level_colour(lv - 1));
            cairo_stroke(cr);
        }
    }
    cairo_restore(cr);
    free(level);
}

/* ------------------------------------------------------------------------ */
/* The frame                                                                */
/* ------------------------------------------------------------------------ */

void fl_draw_flits(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                   const FlDrawFlits *f)
{
    fl_draw_topology(cr, t, o);
    if (!cr || !t || !o || !f || !f->sim || fl_sim_channels(f->sim) != fl_topology_channel_count(t))
        return;
    Pen pen;
    fl__draw_pen_begin(&pen, cr, t, o, 0);
    double side = flit_side(&pen.sc.g, buffer_depth(f->sim));
    if (is_aggregated(f, side))
        draw_aggregated(&pen, f);
    else
        draw_individual(&pen, f, side);
    fl__draw_pen_end(&pen);
}

int fl_draw_export_flits_with_options(const FlTopology *t, const FlDrawOptions *opt,
                                      const FlDrawFlits *f, const char *path,
                                      const char *format, int width, int height,
                                      FlError *err)
{
    FlDrawFlits none;
    if (!f) {
        fl_draw_flits_init(&none);
        f = &none;
    }
    return fl__draw_export_picture(t, opt, NULL, f, path, format, width, height, err);
}
