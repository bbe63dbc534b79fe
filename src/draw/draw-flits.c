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

/* Twelve colours picked for contrast: any two differ by at least 30 in
 * CIELAB (the ones before differed by 20), none is lighter than L* 62 so
 * every one reads on white, and each stays clear of the network's greys,
 * blue and green and of the red of the blocked mark. */
#define HEX(hex)                                                                          \
    { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0, 1 }
static const Rgba palette[] = {
    HEX(0xd911d9), HEX(0xb3920e), HEX(0xb30e60), HEX(0x1139d9), HEX(0x823716), HEX(0x447622),
    HEX(0x6c1682), HEX(0x1da489), HEX(0x0e92b3), HEX(0xd97511), HEX(0x2aa41d), HEX(0x766522),
};
#define NPALETTE ((int)(sizeof palette / sizeof palette[0]))

/* Paul Tol's "muted" scheme (without its pale grey, the network's):
 * distinct under every common colour vision deficiency. */
static const Rgba colour_blind[] = {
    HEX(0xcc6677), HEX(0x332288), HEX(0xddcc77), HEX(0x117733), HEX(0x88ccee),
    HEX(0x882255), HEX(0x44aa99), HEX(0x999933), HEX(0xaa4499),
};
#define NCOLOUR_BLIND ((int)(sizeof colour_blind / sizeof colour_blind[0]))

static const Rgba blocked = { 0.90, 0.05, 0.05, 1 };

void fl_draw_flits_init(FlDrawFlits *f)
{
    memset(f, 0, sizeof *f);
    f->colour = FL_DRAW_FLITS_BY_PACKET;
    f->mode = FL_DRAW_FLITS_AUTO;
    f->link_latency = 1;
    f->min_flit = 3.0;
    f->max_queued = 99;
    f->selected_packet = -1;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

Rgba fl__draw_key_colour_in(int which, uint64_t key, int *index)
{
    int blind = which == FL_DRAW_PALETTE_COLOUR_BLIND;
    int i = (int)(mix(key) % (uint64_t)(blind ? NCOLOUR_BLIND : NPALETTE));
    if (index)
        *index = i;
    return blind ? colour_blind[i] : palette[i];
}

Rgba fl__draw_key_colour(uint64_t key, int *index)
{
    return fl__draw_key_colour_in(FL_DRAW_PALETTE_CONTRAST, key, index);
}

int fl__draw_palette_size(void)
{
    return NPALETTE;
}

static Rgba flit_colour(const FlDrawFlits *f, const FlFlitView *fl)
{
    uint64_t key = f->colour == FL_DRAW_FLITS_BY_SOURCE        ? (uint64_t)fl->src_host
                   : f->colour == FL_DRAW_FLITS_BY_DESTINATION ? (uint64_t)fl->dst_host
                                                                : (uint64_t)fl->packet;
    return fl__draw_key_colour_in(f->palette, key, NULL);
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
double fl__draw_flit_side(const Geom *g, int depth)
{
    double room = g->v.scale - 2 * g->half;
    double side = room / (depth * (1 + GAP) + 0.25);
    return fmin(side, MAX_FLIT);
}

int fl__draw_is_aggregated(FlDrawFlitsMode mode, double min, double side)
{
    return mode == FL_DRAW_FLITS_AGGREGATED || (mode == FL_DRAW_FLITS_AUTO && side < min);
}

static int is_aggregated(const FlDrawFlits *f, double side)
{
    return fl__draw_is_aggregated(f->mode, f->min_flit, side);
}

double fl_draw_flit_size(const FlTopology *t, const FlDrawView *v, const FlDrawFlits *f,
                         int *aggregated)
{
    Geom g;
    fl__draw_geom_init(&g, t, v, 0);
    double side = fl__draw_flit_side(&g, buffer_depth(f ? f->sim : NULL));
    fl__draw_geom_clear(&g);
    if (aggregated)
        *aggregated = f ? is_aggregated(f, side) : 0;
    return side;
}

/* One channel as drawn, with the length of its last part (the whole link,
 * or twice the spur it arrives by, so that u maps linearly there). */
typedef struct Lane {
    int c;
    Chan ch;
    double len;
    /* A host link: its host's centre and the unit direction from the
     * switch to the host; inject when the channel leaves the host. */
    double hx, hy, ax, ay;
    int inject;
} Lane;

static void lane_init(const Scene *sc, int c, Lane *ln)
{
    ln->c = c;
    fl__draw_chan_init(sc, c, &ln->ch);
    const DevShape *d = &ln->ch.d;
    if (ln->ch.s.host) {
        int src = fl_topology_channel_src(sc->g.t, c);
        ln->inject = fl_topology_node_kind(sc->g.t, src) != FL_NODE_SWITCH;
        int h = ln->inject ? ln->ch.reverse : !ln->ch.reverse; /* the host's end, 0 = a */
        double sx = d->x[!h], sy = d->y[!h], len;
        ln->hx = d->x[h];
        ln->hy = d->y[h];
        len = hypot(ln->hx - sx, ln->hy - sy);
        ln->ax = len > 1e-9 ? (ln->hx - sx) / len : 0.7071;
        ln->ay = len > 1e-9 ? (ln->hy - sy) / len : 0.7071;
    }
    if (ln->ch.s.kind == SHAPE_SPURS) {
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

/* The size of the source queue counts beside hosts of radius host_r. */
static double queue_font(double host_r)
{
    return clamp(host_r * 1.6, 7, 14);
}

/* A host link is shorter than a switch's half diagonal: drawn along it,
 * its flits would sit on the switch's corner, where the buffers of the
 * switch's own links stack. They go beyond the host (and its source
 * queue count) instead, away from the switch, into the empty middle of a
 * grid cell: a lane on each side
 * of the line from the switch through the host, as along a link (the
 * flits on the link next to it, then one lane per VC of the buffer),
 * the injection channel's on the right-hand side of that line, the
 * ejection channel's on the left; slot 0 and flits about to arrive
 * nearest the host. */
static void host_flit_at(const Geom *g, const Lane *ln, const FlDrawFlits *f, double side,
                         const FlFlitView *fl, double *x, double *y)
{
    double along, off;
    if (fl->place == FL_FLIT_LINK) {
        int lat = f->link_latency >= 1 ? f->link_latency : 1;
        double u = clamp((fl->position + 0.5) / lat, 0, 1);
        along = (1 - u) * 2 * side * (1 + GAP);
        off = side * (0.5 + GAP);
    } else {
        along = fl->position * side * (1 + GAP);
        off = side * (1.5 + 2 * GAP + fl->vc * (1 + GAP));
    }
    /* Beyond the host's source queue count (draw_queues()). */
    along += g->host_r + 3 + queue_font(g->host_r) * 2 + side * (0.5 + GAP);
    if (!ln->inject)
        off = -off;
    /* Right of the way from the switch to the host, on a y-down screen. */
    *x = ln->hx + ln->ax * along - ln->ay * off;
    *y = ln->hy + ln->ay * along + ln->ax * off;
}

/* The point back device units before the arriving end of ln's channel
 * (kept on a wrap-around's arriving spur), off to the right of the way it
 * runs. */
static void lane_arrival(const Lane *ln, double back, double off, double *x, double *y)
{
    double tx, ty;
    double lo = ln->ch.s.kind == SHAPE_SPURS ? 0.5 : 0;   /* a spur's buffer stays on it */
    double u = ln->len > 1e-9 ? clamp(1 - back / ln->len, lo, 1) : 1;
    fl__draw_chan_at(&ln->ch, u, x, y, &tx, &ty);
    *x += -ty * off;   /* the right-hand side of the way it runs */
    *y += tx * off;
}

/* The centre of flit fl on lane ln, of side side. */
static void flit_at(const Geom *g, const Lane *ln, const FlDrawFlits *f, double side,
                    const FlFlitView *fl, double *x, double *y)
{
    double tx, ty;
    if (ln->ch.s.host) {
        host_flit_at(g, ln, f, side, fl, x, y);
        return;
    }
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
    double lo = ln->ch.s.kind == SHAPE_SPURS ? 0.5 : 0;   /* as lane_arrival() keeps it */
    /* The slots that fit along the channel; a deeper buffer (a spur, a
     * short link) folds into further rows of lanes, so that no two of its
     * flits meet. */
    double room = ln->len * (1 - lo) - g->half - side * (0.5 + GAP);
    int fit = room > 0 ? 1 + (int)(room / (side * (1 + GAP))) : 1;
    int row = fl->position / fit, vcs = f->sim ? fl_sim_vcs(f->sim) : 1;
    double back = g->half + side * (0.5 + GAP + (fl->position % fit) * (1 + GAP));
    /* Lanes beyond the one flits on the link take. */
    double off = g->lw * 0.5 + side * (1.5 + 2 * GAP + (fl->vc + row * vcs) * (1 + GAP));
    lane_arrival(ln, back, off, x, y);
}

void fl__draw_chan_arrival(const Scene *sc, int c, double back, double off, double *x,
                           double *y)
{
    Lane ln;
    lane_init(sc, c, &ln);
    lane_arrival(&ln, back, off, x, y);
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
    double side = fl__draw_flit_side(&sc.g, buffer_depth(f->sim));
    lane_init(&sc, fl->channel, &ln);
    flit_at(&sc.g, &ln, f, side, fl, x, y);
    fl__draw_geom_clear(&sc.g);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Individual flits                                                         */
/* ------------------------------------------------------------------------ */

/* A flit drawn emphasised: outlined over every other flit, the selected
 * packet's in the text colour, a wait cycle's holders' in the cycle's. */
typedef struct Mark {
    double x, y;
    Rgba fill;
    int held;
} Mark;

typedef struct Frame {
    Pen *pen;
    const FlDrawFlits *f;
    double side;
    Lane lane;                   /* the last channel met: flits come in channel order */
    int *queued;                 /* per node: source queue flits seen */
    double *rings;               /* blocked heads: x, y pairs */
    int nrings, maxrings;
    const int64_t *held;         /* packets holding the wait cycle's VCs, sorted */
    int nheld;
    int only_marked;             /* draw the emphasised flits alone */
    Mark *marks;
    int nmarks, maxmarks;
} Frame;

static int cmp_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int is_held(const Frame *fr, int64_t packet)
{
    return fr->nheld > 0 && bsearch(&packet, fr->held, (size_t)fr->nheld, sizeof packet, cmp_id);
}

/* Keeps an emphasised flit to outline once every flit is drawn; a frame
 * that runs out of memory leaves the rest plain. */
static void add_mark(Frame *fr, double x, double y, Rgba fill, int held)
{
    if (fr->nmarks == fr->maxmarks) {
        int n = fr->maxmarks ? 2 * fr->maxmarks : 64;
        Mark *m = realloc(fr->marks, sizeof *m * (size_t)n);
        if (!m)
            return;
        fr->marks = m;
        fr->maxmarks = n;
    }
    fr->marks[fr->nmarks++] = (Mark){ x, y, fill, held };
}

/* A quarter of the colour over the background. */
static Rgba faded(Rgba c, Rgba bg)
{
    Rgba out = { 0.25 * c.r + 0.75 * bg.r, 0.25 * c.g + 0.75 * bg.g, 0.25 * c.b + 0.75 * bg.b,
                 1 };
    return out;
}

static void visit_flit(void *data, const FlFlitView *fl)
{
    Frame *fr = data;
    const Geom *g = &fr->pen->sc.g;
    cairo_t *cr = fr->pen->cr;
    const FlDrawFlits *f = fr->f;
    if (fl->place == FL_FLIT_SOURCE_QUEUE) {
        if (!fr->only_marked && fl->node >= 0 && fl->node < fl_topology_node_count(g->t))
            fr->queued[fl->node]++;
        return;
    }
    if (fl->channel < 0 || fl->channel >= fl_topology_channel_count(g->t))
        return;
    int chosen = f->selected_packet >= 0 && fl->packet == f->selected_packet;
    int held = is_held(fr, fl->packet);
    if (fr->only_marked && !chosen && !held)
        return;
    if (fr->lane.c != fl->channel)
        lane_init(&fr->pen->sc, fl->channel, &fr->lane);
    if (fr->lane.ch.s.host && g->host_r == 0)
        return;
    double x, y, h = fr->side / 2;
    flit_at(g, &fr->lane, f, fr->side, fl, &x, &y);
    if (!box_near(&fr->pen->clip, x, y, fr->side * 2))
        return;
    Rgba c = flit_colour(f, fl), dark = { c.r * 0.45, c.g * 0.45, c.b * 0.45, 1 };
    int fade = f->selected_packet >= 0 && !chosen;
    if (chosen || held)
        add_mark(fr, x, y, c, held && !chosen);
    if (fade) {
        c = faded(c, fr->pen->col->background);
        dark = faded(dark, fr->pen->col->background);
    }
    set_colour(cr, c);
    cairo_rectangle(cr, x - h, y - h, fr->side, fr->side);
    if (fl->index == 0) {
        cairo_fill_preserve(cr);
        set_colour(cr, dark);
        cairo_set_line_width(cr, fmax(1.0, fr->side * 0.2));
        cairo_stroke(cr);
        /* Only the selected packet's, when there is one: the others fade. */
        if (fl->stall != FL_STALL_NONE && fr->nrings < fr->maxrings && !fr->only_marked
            && !fade) {
            fr->rings[2 * fr->nrings] = x;
            fr->rings[2 * fr->nrings + 1] = y;
            fr->nrings++;
        }
    } else {
        cairo_fill(cr);
    }
}

/* The emphasised flits on top of the others, a little larger, each in a
 * frame: the selected packet's in the text colour, the holders' of a wait
 * cycle in the cycle's red. */
static void draw_marks(const Frame *fr)
{
    cairo_t *cr = fr->pen->cr;
    double side = fr->side * 1.3, h = side / 2;
    for (int i = 0; i < fr->nmarks; i++) {
        set_colour(cr, fr->marks[i].fill);
        cairo_rectangle(cr, fr->marks[i].x - h, fr->marks[i].y - h, side, side);
        cairo_fill(cr);
    }
    cairo_set_line_width(cr, fmax(1.5, fr->side * 0.3));
    for (int held = 0; held <= 1; held++) {
        cairo_new_path(cr);
        for (int i = 0; i < fr->nmarks; i++)
            if (fr->marks[i].held == held)
                cairo_rectangle(cr, fr->marks[i].x - h, fr->marks[i].y - h, side, side);
        set_colour(cr, held ? fr->pen->col->cycle : fr->pen->col->text);
        cairo_stroke(cr);
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
 * side away from its switch, between it and the flits of its link. */
static void draw_queues(const Frame *fr)
{
    const Geom *g = &fr->pen->sc.g;
    cairo_t *cr = fr->pen->cr;
    if (g->host_r == 0)
        return;
    double font = queue_font(g->host_r);
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

/* The packets that hold the VCs of the wait cycle's channels, sorted,
 * into a new array (NULL when there are none). */
static int64_t *held_packets(const FlDrawFlits *f, int *n)
{
    int vcs = fl_sim_vcs(f->sim);
    *n = 0;
    if (!f->wait_cycle || f->nwait_cycle <= 0 || vcs <= 0)
        return NULL;
    int64_t *ids = malloc(sizeof *ids * (size_t)f->nwait_cycle * (size_t)vcs);
    if (!ids)
        return NULL;
    for (int i = 0; i < f->nwait_cycle; i++)
        for (int v = 0; v < vcs; v++) {
            FlVcView vv;
            if (fl_sim_vc_view(f->sim, f->wait_cycle[i], v, &vv, NULL) == FL_OK
                && vv.owner_packet >= 0)
                ids[(*n)++] = vv.owner_packet;
        }
    qsort(ids, (size_t)*n, sizeof *ids, cmp_id);
    return ids;
}

/* Every flit, or with only_marked the emphasised ones alone (over an
 * aggregated frame). */
static void draw_individual(Pen *pen, const FlDrawFlits *f, double side, int only_marked)
{
    const FlTopology *t = pen->sc.g.t;
    if (only_marked && f->selected_packet < 0 && (!f->wait_cycle || f->nwait_cycle <= 0))
        return;
    int nodes = fl_topology_node_count(t);
    int maxrings = fl_sim_channels(f->sim) * fl_sim_vcs(f->sim) + nodes;
    /* The frame's one allocation: queue counts, then ring centres. */
    size_t bytes = sizeof(int) * (size_t)(nodes + 1) + sizeof(double) * 2 * (size_t)(maxrings + 1);
    char *buf = calloc(1, bytes);
    if (!buf)
        return;
    Frame fr = { pen, f, side, { -1 }, (int *)(void *)buf, NULL, 0, maxrings };
    fr.rings = (double *)(void *)(buf + sizeof(double) * (((size_t)nodes + 1 + 1) / 2));
    int64_t *held = held_packets(f, &fr.nheld);
    fr.held = held;
    fr.only_marked = only_marked;
    cairo_save(pen->cr);
    cairo_set_line_join(pen->cr, CAIRO_LINE_JOIN_MITER);
    fl_sim_foreach_flit(f->sim, f->max_queued > 0 ? f->max_queued : 0, visit_flit, &fr);
    draw_marks(&fr);
    draw_rings(&fr);
    draw_queues(&fr);
    cairo_restore(pen->cr);
    free(fr.marks);
    free(held);
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

/* Per channel occupancy bars, beside the heat map's band (hw wide) when
 * there is one. */
static void draw_aggregated(Pen *pen, const FlDrawFlits *f, double hw)
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
    double off = g->lw * 1.5 + hw, w = fmax(g->lw * 2, 1.5);
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
/* The selected packet's route                                              */
/* ------------------------------------------------------------------------ */

/* Bold in the chosen route's colour, with arrows, under the nodes. */
static void draw_route(const Pen *pen, const int *route, int n)
{
    cairo_t *cr = pen->cr;
    const Geom *g = &pen->sc.g;
    cairo_save(cr);
    fl__draw_clip_out_nodes(cr, g, &pen->clip);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    Rgba c = pen->col->chosen;
    c.a = 0.8;
    fl__draw_stroke_channels(cr, &pen->sc, route, n, c, fmax(2.5, g->lw * 1.9));
    set_colour(cr, c);
    fl__draw_channels_heads(cr, &pen->sc, route, n, fl__draw_head_size(g));
    cairo_restore(cr);
}

/* ------------------------------------------------------------------------ */
/* The frame                                                                */
/* ------------------------------------------------------------------------ */

/* The width of the heat map's band on each side of a link. */
static double heat_width(const Geom *g, int aggregated)
{
    return aggregated ? fmax(1.5, g->lw * 1.5) : fmax(3.0, g->lw * 2);
}

void fl_draw_flits(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                   const FlDrawFlits *f)
{
    fl_draw_topology(cr, t, o);
    if (!cr || !t || !o || !f)
        return;
    Pen pen;
    fl__draw_pen_begin(&pen, cr, t, o, 0);
    if (f->sim && fl_sim_channels(f->sim) == fl_topology_channel_count(t)) {
        double side = fl__draw_flit_side(&pen.sc.g, buffer_depth(f->sim));
        int agg = is_aggregated(f, side);
        double hw = f->heat && f->nheat > 0 ? heat_width(&pen.sc.g, agg) : 0;
        /* Aggregated, a host link's band would be a speck beside it. */
        fl__draw_heat(&pen, f->heat, f->nheat, hw, !agg);
        if (f->selected_packet >= 0 && f->selected_route && f->nselected_route > 0)
            draw_route(&pen, f->selected_route, f->nselected_route);
        fl__draw_cycle(cr, &pen.sc, pen.col, &pen.z, &pen.clip, f->wait_cycle,
                       f->nwait_cycle, NULL);
        if (agg) {
            draw_aggregated(&pen, f, hw);
            draw_individual(&pen, f, fmax(side, f->min_flit), 1);
        } else {
            draw_individual(&pen, f, side, 0);
        }
        if (hw > 0)
            fl__draw_heat_legend(&pen, f->heat_label);
    }
    fl__draw_caption(cr, pen.col, &pen.clip, f->caption);
    fl__draw_pen_end(&pen);
}

typedef struct FlitsPage {
    const FlTopology *t;
    const FlDrawFlits *f;
    int dark;
} FlitsPage;

static void render_flits_page(cairo_t *cr, int width, int height, void *data)
{
    const FlitsPage *fp = data;
    FlDrawOptions o;
    fl_draw_options_init(&o);
    o.dark = fp->dark;
    fl_draw_view_fit(fp->t, width, height, &o.view);
    fl_draw_flits(cr, fp->t, &o, fp->f);
}

int fl_draw_export_flits_page(const FlTopology *t, const FlDrawFlits *f, const FlDrawPage *page,
                              const char *path, const char *format, FlError *err)
{
    if (!t || !f)
        return fl_error_set(err, FL_EINVAL, "no network to draw");
    FlitsPage fp = { t, f, page ? page->dark : 0 };
    return fl_draw_export_page(path, format, page, render_flits_page, &fp, err);
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
    return fl__draw_export_picture(t, opt, NULL, f, NULL, path, format, width, height, err);
}
