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

/* The group a request is drawn in: its colour, or 0 for all when
 * uncoloured. */
static int group_of(const FlDrawSchedule *d, int i)
{
    return d->colors && d->colors[i] >= 0 ? d->colors[i] : 0;
}

/* The shown requests of each group in one stroke and one fill: a thousand
 * requests cost a few dozen. start[i] indexes request i's offsets in offs,
 * -1 for one not drawn. */
static void draw_groups(const Pen *pen, const FlDrawSchedule *d, const int *start,
                        const double *offs, int ngroups, double width)
{
    cairo_t *cr = pen->cr;
    const FlSchedule *s = d->schedule;
    int nreq = fl_schedule_request_count(s);
    for (int grp = 0; grp < ngroups; grp++) {
        int first = -1;
        for (int part = 0; part < 2; part++) {
            cairo_new_path(cr);
            for (int i = 0; i < nreq; i++) {
                const int *chans;
                int n = fl_schedule_path(s, i, &chans);
                if (start[i] < 0 || n <= 0 || group_of(d, i) != grp)
                    continue;
                first = first < 0 ? i : first;
                if (part == 0)
                    fl__draw_lane_route_path(cr, &pen->sc, chans, offs + start[i], n, 0);
                else
                    fl__draw_lane_route_head(cr, &pen->sc, chans, offs + start[i], n, 0,
                                             fl__draw_lane_head_size(width));
            }
            if (first < 0)
                break;
            set_colour(cr, request_colour(d, pen->col, first));
            cairo_set_line_width(cr, width);
            if (part == 0)
                cairo_stroke(cr);
            else
                cairo_fill(cr);
        }
    }
}

void fl_draw_schedule(cairo_t *cr, const FlTopology *t, const FlDrawOptions *o,
                      const FlDrawSchedule *d)
{
    if (!cr || !t || !o || !d || !d->schedule)
        return;
    const FlSchedule *s = d->schedule;
    int nreq = fl_schedule_request_count(s), nch = fl_topology_channel_count(t);
    int *load = calloc((size_t)(nch > 0 ? nch : 1), sizeof *load);
    int *start = malloc(sizeof *start * (size_t)(nreq > 0 ? nreq : 1));
    double *offs = NULL;
    int max_load = 1, ngroups = 1;
    size_t total = 0;
    if (!load || !start)
        goto out;
    /* The lanes' width: those of the busiest channel fit beside it. */
    for (int i = 0; i < nreq; i++) {
        const int *chans;
        int n = fl_schedule_path(s, i, &chans), ok = shown(d, i);
        for (int k = 0; ok && k < n; k++)
            ok = chans[k] >= 0 && chans[k] < nch;
        start[i] = ok ? (int)total : -1;
        if (!ok)
            continue;
        total += (size_t)(n > 0 ? n : 0);
        ngroups = group_of(d, i) >= ngroups ? group_of(d, i) + 1 : ngroups;
        for (int k = 0; k < n; k++)
            max_load = ++load[chans[k]] > max_load ? load[chans[k]] : max_load;
    }
    if (!(offs = malloc(sizeof *offs * (total > 0 ? total : 1))))
        goto out;

    Pen pen;
    fl__draw_pen_begin(&pen, cr, t, o, 0);
    const Geom *g = &pen.sc.g;
    double width = fmin(clamp(0.07 * g->v.scale, 1.5, 5), fmax(1, 0.36 * g->v.scale / max_load));
    /* Each request's lane on each channel: the requests on a channel side
     * by side, in request order. */
    memset(load, 0, sizeof *load * (size_t)(nch > 0 ? nch : 1));
    for (int i = 0; i < nreq; i++) {
        const int *chans;
        int n = fl_schedule_path(s, i, &chans);
        for (int k = 0; start[i] >= 0 && k < n; k++)
            offs[start[i] + k] = g->lw * 0.5 + 0.5 + width * (load[chans[k]]++ + 0.5);
    }
    /* Butt ends: the lanes stop at the switches' edges. */
    cairo_save(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    draw_groups(&pen, d, start, offs, ngroups, width);
    /* The selected request on top, framed in the text colour. */
    const int *sel_chans;
    int sel = d->selected, nsel = 0;
    if (sel >= 0 && sel < nreq && start[sel] >= 0)
        nsel = fl_schedule_path(s, sel, &sel_chans);
    if (nsel > 0) {
        fl__draw_lane_route(&pen, sel_chans, offs + start[sel], nsel, 0, pen.col->text, width + 3,
                            0);
        fl__draw_lane_route(&pen, sel_chans, offs + start[sel], nsel, 0,
                            request_colour(d, pen.col, sel), width, 1);
    }
    cairo_restore(cr);
    for (int i = 0; i < nreq; i++)
        if (shown(d, i))
            draw_ends(&pen, t, fl_schedule_request(s, i), request_colour(d, pen.col, i), width);
    fl__draw_pen_end(&pen);
out:
    free(load);
    free(start);
    free(offs);
}
