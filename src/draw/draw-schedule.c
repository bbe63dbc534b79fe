/* draw-schedule.c — a link-contention schedule (flitlab/schedule.h) drawn
 * over its Myrinet network: every request along its row-column path in
 * its colour class's colour, the requests that share a channel side by
 * side in lanes on its right, so that a valid colouring reads as no two
 * lanes of one colour on a channel.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "draw-scene-private.h"

void fl_draw_schedule_init(FlDrawSchedule *d)
{
    memset(d, 0, sizeof *d);
    d->filter = -1;
    d->selected = -1;
}

static int shown(const FlDrawSchedule *d, int i)
{
    return d->filter < 0 || (d->colors && d->colors[i] == d->filter);
}

static Rgba request_colour(const FlDrawSchedule *d, const Colours *col, int i)
{
    double rgb[3];
    if (!d->colors || d->colors[i] < 0)
        return col->other;
    fl_draw_palette_colour(d->colors[i], rgb);
    Rgba c = { rgb[0], rgb[1], rgb[2], 1 };
    return c;
}

/* A dot on the source host and a ring around the destination host, in
 * the request's colour, where hosts are drawn. */
static void draw_ends(const Pen *pen, const FlTopology *t, FlScheduleRequest r, Rgba colour,
                      double width)
{
    const Geom *g = &pen->sc.g;
    cairo_t *cr = pen->cr;
    int src = fl_topology_host_node(t, r.src), dst = fl_topology_host_node(t, r.dst);
    double x, y;
    if (g->host_r <= 0 || src < 0 || dst < 0)
        return;
    set_colour(cr, colour);
    fl__draw_node_device(g, src, &x, &y);
    cairo_new_path(cr);
    cairo_arc(cr, x, y, g->host_r * 0.75, 0, 2 * FL_PI);
    cairo_fill(cr);
    fl__draw_node_device(g, dst, &x, &y);
    cairo_new_path(cr);
    cairo_arc(cr, x, y, g->host_r + width * 0.5 + 1, 0, 2 * FL_PI);
    cairo_set_line_width(cr, fmax(1.5, width * 0.6));
    cairo_stroke(cr);
}

void fl_draw_schedule(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                      const FlDrawSchedule *d)
{
    if (!cr || !t || !o || !d || !d->schedule)
        return;
    const FlSchedule *s = d->schedule;
    int nreq = fl_schedule_request_count(s), nch = fl_topology_channel_count(t);
    int *load = calloc((size_t)(nch > 0 ? nch : 1), sizeof *load);
    int *seen = calloc((size_t)(nch > 0 ? nch : 1), sizeof *seen);
    double *offs = NULL, *sel_offs = NULL;
    int longest = 1, max_load = 1;
    if (!load || !seen)
        goto out;
    /* The lanes' width: those of the busiest channel fit beside it. */
    for (int i = 0; i < nreq; i++) {
        const int *chans;
        int n = fl_schedule_path(s, i, &chans);
        if (!shown(d, i))
            continue;
        longest = n > longest ? n : longest;
        for (int k = 0; k < n; k++)
            if (chans[k] >= 0 && chans[k] < nch && ++load[chans[k]] > max_load)
                max_load = load[chans[k]];
    }
    offs = malloc(sizeof *offs * (size_t)longest);
    sel_offs = malloc(sizeof *sel_offs * (size_t)longest);
    if (!offs || !sel_offs)
        goto out;

    Pen pen;
    fl__draw_pen_begin(&pen, cr, t, o, 0);
    const Geom *g = &pen.sc.g;
    double width = fmin(clamp(0.07 * g->v.scale, 1.5, 5), fmax(1, 0.36 * g->v.scale / max_load));
    cairo_save(cr);
    fl__draw_clip_out_nodes(cr, g, &pen.clip);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (int i = 0; i < nreq; i++) {
        const int *chans;
        int n = fl_schedule_path(s, i, &chans), ok = 1;
        if (!shown(d, i))
            continue;
        for (int k = 0; k < n; k++) {
            ok &= chans[k] >= 0 && chans[k] < nch;
            if (ok)
                offs[k] = g->lw * 0.5 + 0.5 + width * (seen[chans[k]]++ + 0.5);
        }
        if (ok)
            fl__draw_lane_route(&pen, chans, offs, n, 0, request_colour(d, pen.col, i), width, 1);
        if (ok && i == d->selected)
            memcpy(sel_offs, offs, sizeof *offs * (size_t)n);
    }
    /* The selected request on top, framed in the text colour. */
    const int *sel_chans;
    int nsel = 0;
    if (d->selected >= 0 && shown(d, d->selected))
        nsel = fl_schedule_path(s, d->selected, &sel_chans);
    if (nsel > 0) {
        fl__draw_lane_route(&pen, sel_chans, sel_offs, nsel, 0, pen.col->text, width + 3, 0);
        fl__draw_lane_route(&pen, sel_chans, sel_offs, nsel, 0,
                            request_colour(d, pen.col, d->selected), width, 1);
    }
    cairo_restore(cr);
    for (int i = 0; i < nreq; i++)
        if (shown(d, i))
            draw_ends(&pen, t, fl_schedule_request(s, i), request_colour(d, pen.col, i), width);
    fl__draw_pen_end(&pen);
out:
    free(load);
    free(seen);
    free(offs);
    free(sel_offs);
}
