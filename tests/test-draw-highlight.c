/* test-draw-highlight.c — what a lesson's step points at, drawn over the
 * network: a channel in its lane on the left of the way it runs, the other
 * way left alone; links either way round the same; switches with a halo;
 * labels no switch carries left out. Needs no display. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "flitlab-draw.h"
#include "tap.h"
#include "test-draw-pixels.h"

#define SIZE 480

static cairo_surface_t *picture(const FlTopology *t, const FlDrawHighlight *h, FlDrawOptions *o)
{
    cairo_t *cr;
    cairo_surface_t *s = fitted_picture(t, SIZE, SIZE, o, &cr);
    fl_draw_topology(cr, t, o);
    if (h)
        fl_draw_highlight(cr, t, o, h);
    return finish_picture(s, cr);
}

/* Blue well above red: the accent colour, however translucent. */
static int bluish(unsigned rgb)
{
    return (int)(rgb & 0xff) - (int)(rgb >> 16 & 0xff) > 60;
}

int main(void)
{
    FlTopology *t = NULL;
    FlError err = { 0 };
    CHECK(fl_topology_from_spec("mesh:4x4", &t, &err) == FL_OK, "mesh:4x4: %s", err.message);
    if (!t)
        return tap_done();

    int link = fl_draw_find_link(t, 5, 6);
    CHECK(link >= 0 && fl_draw_find_link(t, 6, 5) == link, "the link 5-6 is found either way");
    CHECK(fl_draw_find_link(t, 5, 10) < 0 && fl_draw_find_link(t, -1, 2) < 0,
          "no link joins 5 and 10");
    int c = fl_draw_find_channel(t, 5, 6), back = fl_draw_find_channel(t, 6, 5);
    CHECK(c >= 0 && back >= 0 && c != back && fl_topology_channel_src(t, c) == 5
              && fl_topology_channel_dst(t, back) == 5,
          "the channels 5>6 and 6>5 are found");

    FlDrawOptions o;
    cairo_surface_t *plain = picture(t, NULL, &o);
    FlDrawPair ch = { 5, 6 };
    FlDrawHighlight h = { .channels = &ch, .n_channels = 1 };
    cairo_surface_t *one = picture(t, &h, &o);
    /* The lane's centre, as draw-highlight.c places it on thin links: a
     * band 6 units wide, its middle 4 units off the link. */
    double x, y, rx, ry, off = 4;
    lane_middle(t, &o, 5, 6, -off, &x, &y);
    lane_middle(t, &o, 5, 6, off, &rx, &ry);
    CHECK(bluish(pixel(one, x, y)) && !bluish(pixel(plain, x, y)),
          "5>6 is drawn on its left (%06x, was %06x)", pixel(one, x, y), pixel(plain, x, y));
    CHECK(pixel(one, rx, ry) == pixel(plain, rx, ry), "and its right, 6>5's lane, is left alone");

    FlDrawPair a = { 5, 6 }, b = { 6, 5 };
    FlDrawHighlight la = { .links = &a, .n_links = 1 }, lb = { .links = &b, .n_links = 1 };
    cairo_surface_t *sa = picture(t, &la, &o), *sb = picture(t, &lb, &o);
    CHECK(surfaces_equal(sa, sb) && !surfaces_equal(sa, plain), "a link is the same either way");

    int node = 10, missing = 99;
    FlDrawHighlight hn = { .nodes = &node, .n_nodes = 1 };
    FlDrawHighlight hm = { .nodes = &missing, .n_nodes = 1, .links = (FlDrawPair[]){ { 0, 5 } },
                           .n_links = 1 };
    cairo_surface_t *sn = picture(t, &hn, &o), *sm = picture(t, &hm, &o);
    double nx, ny;
    fl_draw_node_position(t, 10, &nx, &ny);
    fl_draw_view_to_device(&o.view, nx, ny, &nx, &ny);
    int changed_near = 0;
    for (int d = -40; d <= 40; d += 2)
        changed_near += pixel(sn, nx + d, ny - 40) != pixel(plain, nx + d, ny - 40);
    CHECK(changed_near > 0, "switch 10 has a halo");
    CHECK(surfaces_equal(sm, plain),
          "a label no switch carries and a pair no link joins draw nothing");

    FlDrawHighlight none = { 0 };
    cairo_surface_t *sz = picture(t, &none, &o);
    CHECK(surfaces_equal(sz, plain), "an empty highlight draws nothing");

    cairo_surface_destroy(plain);
    cairo_surface_destroy(one);
    cairo_surface_destroy(sa);
    cairo_surface_destroy(sb);
    cairo_surface_destroy(sn);
    cairo_surface_destroy(sm);
    cairo_surface_destroy(sz);
    fl_topology_free(t);
    return tap_done();
}
