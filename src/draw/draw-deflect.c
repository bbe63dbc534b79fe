/* draw-deflect.c — one cycle of the deflection model over the network:
 * messages on the channels they took, deflected ones ringed, the ones
 * waiting at their source counted, or per busy channel a bar when the
 * messages would be too small to see. Positions follow the channels as
 * draw-scene.c draws them and stand where draw-flits.c puts a buffer's
 * first slot, so the frame sits on fl_draw_topology()'s picture.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw-scene-private.h"

#define MAX_PIPS 4           /* waiting messages shown as dots, beyond: a number */

/* A deflection lost the arbitration, as a blocked head does: the red of
 * the deadlock cycle; a shortest-path hop, aggregated, in a dark grey
 * that stands out from the switches' blue. */
static const Rgba deflected_rgba = { 0.878, 0.106, 0.141, 1 };
static const Rgba on_path_rgba = { 0.239, 0.220, 0.275, 1 };

void fl_draw_deflect_init(FlDrawDeflect *d)
{
    *d = (FlDrawDeflect){ .colour = FL_DRAW_FLITS_BY_PACKET, .mode = FL_DRAW_FLITS_AUTO,
                          .min_message = 5.0, .legend = 1, .selected_message = -1 };
}

static Rgba message_colour(const FlDrawDeflect *d, const FlDeflectView *m, int *index)
{
    uint64_t key = d->colour == FL_DRAW_FLITS_BY_SOURCE        ? (uint64_t)m->src
                   : d->colour == FL_DRAW_FLITS_BY_DESTINATION ? (uint64_t)m->dst
                                                                : (uint64_t)m->message;
    return fl__draw_key_colour_in(d->palette, key, index);
}

void fl_draw_deflect_colour(const FlDrawDeflect *d, const FlDeflectView *m, double rgb[3])
{
    Rgba c = message_colour(d, m, NULL);
    rgb[0] = c.r, rgb[1] = c.g, rgb[2] = c.b;
}

/* A message is a flit in a buffer one flit deep, but no larger than a
 * quarter of a grid step: a switch may have a message arriving by each of
 * its links, diagonals included, and they must not cover each other. */
static double message_side(const Geom *g)
{
    return fmin(fl__draw_flit_side(g, 1), g->v.scale * 0.25);
}

double fl_draw_deflect_size(const FlTopology *t, const FlDrawView *v, const FlDrawDeflect *d,
                            int *aggregated)
{
    Scene sc;
    fl__draw_scene_init(&sc, t, v, 0);
    double side = message_side(&sc.g);
    int agg = d && fl__draw_is_aggregated(d->mode, d->min_message, side);
    fl__draw_geom_clear(&sc.g);
    if (aggregated)
        *aggregated = agg;
    return side;
}

static int in_transit(const FlTopology *t, const FlDeflectView *m)
{
    return m->channel >= 0 && m->channel < fl_topology_channel_count(t);
}

/* Where a message of side side on channel c is drawn: by the switch it
 * arrived at, in the lane beside the link. */
static void message_at(const Scene *sc, double side, int c, double *x, double *y)
{
    fl__draw_chan_arrival(sc, c, sc->g.half + side * 0.7, sc->g.lw * 0.5 + side * 0.6, x, y);
}

int fl_draw_deflect_position(const FlTopology *t, const FlDrawView *v, const FlDrawDeflect *d,
                             const FlDeflectView *m, double *x, double *y)
{
    if (!t || !v || !d || !m || !in_transit(t, m))
        return 0;
    Scene sc;
    fl__draw_scene_init(&sc, t, v, 0);
    message_at(&sc, message_side(&sc.g), m->channel, x, y);
    fl__draw_geom_clear(&sc.g);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Hit testing                                                              */
/* ------------------------------------------------------------------------ */

typedef struct Hit {
    Scene sc;
    double side, x, y, best;
    int64_t message;
} Hit;

static void hit_message(void *data, const FlDeflectView *m)
{
    Hit *h = data;
    double x, y;
    if (!in_transit(h->sc.g.t, m))
        return;
    message_at(&h->sc, h->side, m->channel, &x, &y);
    double dist = hypot(x - h->x, y - h->y);
    if (dist < h->best) {
        h->best = dist;
        h->message = m->message;
    }
}

int64_t fl_draw_deflect_hit(const FlTopology *t, const FlDrawView *v, const FlDrawDeflect *d,
                            double x, double y, double tolerance)
{
    if (!t || !v || !d || !d->deflect)
        return -1;
    Hit h = { .x = x, .y = y, .best = tolerance, .message = -1 };
    fl__draw_scene_init(&h.sc, t, v, 0);
    h.side = message_side(&h.sc.g);
    fl_deflect_foreach(d->deflect, hit_message, &h);
    fl__draw_geom_clear(&h.sc.g);
    return h.message;
}

/* ------------------------------------------------------------------------ */
/* The messages                                                             */
/* ------------------------------------------------------------------------ */

/* A message in transit within the clip, to draw in batches by colour. */
typedef struct Item {
    float x, y;
    int channel;
    unsigned char colour, deflected;
} Item;

typedef struct Frame {
    Pen *pen;
    const FlDrawDeflect *d;
    double side;
    int *waiting;                /* per node */
    Item *items;
    int nitems, maxitems;
    Rgba colours[32];            /* by palette index, as met */
    FlDeflectView selected;      /* message -1: none met */
    double sx, sy;
} Frame;

static void visit_message(void *data, const FlDeflectView *m)
{
    Frame *fr = data;
    const FlTopology *t = fr->pen->sc.g.t;
    if (!in_transit(t, m)) {
        if (m->channel < 0 && m->src >= 0 && m->src < fl_topology_node_count(t))
            fr->waiting[m->src]++;
        if (m->message == fr->d->selected_message)
            fr->selected = *m;
        return;
    }
    double x, y;
    message_at(&fr->pen->sc, fr->side, m->channel, &x, &y);
    if (m->message == fr->d->selected_message) {
        fr->selected = *m;
        fr->sx = x, fr->sy = y;
    }
    if (!box_near(&fr->pen->clip, x, y, fr->side * 2) || fr->nitems == fr->maxitems)
        return;
    int colour = 0;
    Rgba c = message_colour(fr->d, m, &colour);
    fr->colours[colour] = c;
    fr->items[fr->nitems++] = (Item){ (float)x, (float)y, m->channel, (unsigned char)colour,
                                      (unsigned char)(m->deflected != 0) };
}

/* Every message of one palette colour, filled and outlined darker, in one
 * path; faded when another message is selected. */
static void draw_colour(const Frame *fr, int colour, Rgba c)
{
    cairo_t *cr = fr->pen->cr;
    double s = fr->side, h = s / 2;
    int any = 0;
    cairo_new_path(cr);
    for (int i = 0; i < fr->nitems; i++)
        if (fr->items[i].colour == colour) {
            cairo_rectangle(cr, fr->items[i].x - h, fr->items[i].y - h, s, s);
            any = 1;
        }
    if (!any)
        return;
    double alpha = fr->d->selected_message >= 0 ? 0.3 : 1;
    cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, c.r * 0.45, c.g * 0.45, c.b * 0.45, alpha);
    cairo_stroke(cr);
}

/* The deflected messages' rings, in one stroke. */
static void draw_rings(const Frame *fr)
{
    cairo_t *cr = fr->pen->cr;
    double r = fr->side * 0.85;
    cairo_new_path(cr);
    for (int i = 0; i < fr->nitems; i++)
        if (fr->items[i].deflected) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, fr->items[i].x, fr->items[i].y, r, 0, 2 * FL_PI);
        }
    set_colour(cr, deflected_rgba);
    cairo_set_line_width(cr, fmax(1.5, fr->side * 0.25));
    cairo_stroke(cr);
}

static void draw_individual(const Frame *fr)
{
    cairo_t *cr = fr->pen->cr;
    cairo_save(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    cairo_set_line_width(cr, fmax(1.0, fr->side * 0.2));
    for (int k = 0; k < fl__draw_palette_size(); k++)
        draw_colour(fr, k, fr->colours[k]);
    draw_rings(fr);
    cairo_restore(cr);
}

/* Per busy channel, a dot where its message would be, blue or red: the
 * deflections' density reads at any size. Two fills. */
static void draw_aggregated(const Frame *fr)
{
    cairo_t *cr = fr->pen->cr;
    double s = clamp(fr->pen->sc.g.v.scale * 0.15, 1.5, fr->side), h = s / 2;
    for (int deflected = 0; deflected <= 1; deflected++) {
        cairo_new_path(cr);
        for (int i = 0; i < fr->nitems; i++)
            if (fr->items[i].deflected == deflected)
                cairo_rectangle(cr, fr->items[i].x - h, fr->items[i].y - h, s, s);
        set_colour(cr, deflected ? deflected_rgba : on_path_rgba);
        cairo_fill(cr);
    }
}

/* The font of the waiting counts for switches of half side half; 0 when
 * too small to read (dots are drawn instead). */
static double count_font(double half)
{
    double font = half * 1.3;
    return font >= 7 ? fmin(font, 13) : 0;
}

/* At each switch with waiting messages, beyond its top-right corner:
 * their number, or up to MAX_PIPS dots where a number would not read. */
static void draw_waiting(const Frame *fr)
{
    const Geom *g = &fr->pen->sc.g;
    cairo_t *cr = fr->pen->cr;
    double font = count_font(g->half), pip = fmax(g->half * 0.45, 1.0);
    if (g->half < 1.5)
        return;
    cairo_save(cr);
    cairo_new_path(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    if (font > 0)
        cairo_set_font_size(cr, font);
    for (int n = 0; n < fl_topology_node_count(g->t); n++) {
        int k = fr->waiting[n];
        if (!k || !fl__draw_node_shown(g, n))
            continue;
        double x, y;
        fl__draw_node_device(g, n, &x, &y);
        x += g->half + 1.5;
        y -= g->half + 1.5;
        if (!box_near(&fr->pen->clip, x, y, 30))
            continue;
        if (font > 0) {
            char text[16];
            snprintf(text, sizeof text, "%d", k);
            fl__draw_halo_text(cr, x, y, text, fr->pen->col->text, fr->pen->col->background,
                               font);
        } else {
            for (int i = 0; i < k && i < MAX_PIPS; i++)
                cairo_rectangle(cr, x + i * pip * 1.5, y - pip, pip, pip);
        }
    }
    if (font == 0) {
        set_colour(cr, fr->pen->col->text);
        cairo_fill(cr);
    }
    cairo_restore(cr);
}

/* The selected message over everything: larger, framed in the text
 * colour, and its source and destination ringed as a route's ends are. */
static void draw_selected(const Frame *fr)
{
    cairo_t *cr = fr->pen->cr;
    const FlDeflectView *m = &fr->selected;
    if (m->message < 0)
        return;
    cairo_save(cr);
    fl__draw_ring_around(cr, &fr->pen->sc.g, m->src, fr->pen->col->source);
    fl__draw_ring_around(cr, &fr->pen->sc.g, m->dst, fr->pen->col->destination);
    if (in_transit(fr->pen->sc.g.t, m)) {
        double s = fr->side * 1.4, h = s / 2;
        set_colour(cr, message_colour(fr->d, m, NULL));
        cairo_rectangle(cr, fr->sx - h, fr->sy - h, s, s);
        cairo_fill_preserve(cr);
        set_colour(cr, fr->pen->col->text);
        cairo_set_line_width(cr, fmax(1.5, fr->side * 0.3));
        cairo_stroke(cr);
        if (m->deflected) {
            cairo_arc(cr, fr->sx, fr->sy, s * 0.85, 0, 2 * FL_PI);
            set_colour(cr, deflected_rgba);
            cairo_stroke(cr);
        }
    }
    cairo_restore(cr);
}

/* ------------------------------------------------------------------------ */
/* The legend                                                               */
/* ------------------------------------------------------------------------ */

static void draw_legend(const Pen *pen, const FlDrawDeflect *d)
{
    cairo_t *cr = pen->cr;
    const char *words[2] = { d->deflected_label ? d->deflected_label : "deflected",
                             d->waiting_label ? d->waiting_label : "waiting at the source" };
    double font = 11, pad = 6, sample = 16, row = 18;
    cairo_save(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, font);
    double tw = 0;
    for (int i = 0; i < 2; i++) {
        cairo_text_extents_t te;
        cairo_text_extents(cr, words[i], &te);
        tw = fmax(tw, te.x_advance);
    }
    double w = pad + sample + pad + tw + pad, h = pad + 2 * row + pad;
    double x = pen->clip.x1 + 8, y = pen->clip.y2 - h - 8;
    fl__draw_legend_box(cr, pen->col, x, y, w, h);
    double cx = x + pad + sample / 2, cy = y + pad + row / 2;
    /* A message with its ring, then a count as switches show it. */
    set_colour(cr, fl__draw_key_colour(0, NULL));
    cairo_rectangle(cr, cx - 4, cy - 4, 8, 8);
    cairo_fill(cr);
    cairo_arc(cr, cx, cy, 7, 0, 2 * FL_PI);
    set_colour(cr, deflected_rgba);
    cairo_set_line_width(cr, 2);
    cairo_stroke(cr);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    fl__draw_halo_text(cr, cx - 3, cy + row + 4, "2", pen->col->text, pen->col->background,
                       font);
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    set_colour(cr, pen->col->text);
    for (int i = 0; i < 2; i++) {
        cairo_move_to(cr, x + pad + sample + pad, cy + i * row + font / 2 - 1);
        cairo_show_text(cr, words[i]);
    }
    cairo_restore(cr);
}

/* ------------------------------------------------------------------------ */
/* The frame                                                                */
/* ------------------------------------------------------------------------ */

static void draw_messages(Pen *pen, const FlDrawDeflect *d)
{
    const FlTopology *t = pen->sc.g.t;
    int nodes = fl_topology_node_count(t), nch = fl_topology_channel_count(t);
    /* The frame's one allocation: waiting counts, then the messages in
     * transit (at most one per channel). */
    size_t head = sizeof(Item) * (((size_t)nodes * sizeof(int) + sizeof(Item)) / sizeof(Item));
    char *buf = calloc(1, head + sizeof(Item) * (size_t)(nch + 1));
    if (!buf)
        return;
    Frame fr = { .pen = pen, .d = d, .waiting = (int *)(void *)buf,
                 .items = (Item *)(void *)(buf + head), .maxitems = nch };
    fr.selected.message = -1;
    fr.side = message_side(&pen->sc.g);
    int agg = fl__draw_is_aggregated(d->mode, d->min_message, fr.side);
    fl_deflect_foreach(d->deflect, visit_message, &fr);
    if (agg)
        draw_aggregated(&fr);
    else
        draw_individual(&fr);
    draw_waiting(&fr);
    draw_selected(&fr);
    free(buf);
}

void fl_draw_deflect(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                     const FlDrawDeflect *d)
{
    Pen pen;
    fl_draw_topology(cr, t, o);
    if (!cr || !t || !o || !d)
        return;
    fl__draw_pen_begin(&pen, cr, t, o, 0);
    /* Messages, then the legend over them. */
    if (d->deflect)
        draw_messages(&pen, d);
    if (d->deflect && d->legend)
        draw_legend(&pen, d);
    fl__draw_caption(cr, pen.col, &pen.clip, d->caption);
    fl__draw_pen_end(&pen);
}

void fl_draw_deflect_caption(const FlDeflect *d, char *buf, size_t size)
{
    snprintf(buf, size, "cycle %lld", (long long)fl_deflect_cycle(d));
}

int fl_draw_export_deflect_with_options(const FlTopology *t, const FlDrawOptions *opt,
                                        const FlDrawDeflect *d, const char *path,
                                        const char *format, int width, int height,
                                        FlError *err)
{
    FlDrawDeflect none;
    if (!d)
        fl_draw_deflect_init(&none);
    return fl__draw_export_picture(t, opt, NULL, NULL, d ? d : &none, path, format, width,
                                   height, err);
}
