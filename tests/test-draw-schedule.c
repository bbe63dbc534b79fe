/* test-draw-schedule.c — a Myrinet schedule drawn over its network: each
 * request's lanes in its colour class's palette colour, one colour at a
 * time with the others hidden, unused channels plain, requests without
 * colours grey, and no schedule drawing nothing. Needs no display. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "flitlab-draw.h"
#include "tap.h"
#include "test-draw-pixels.h"

#define SIZE 640
#define WHITE 0xffffff
#define GREY 0x9a9996        /* the scene's "other" colour: uncoloured requests */

typedef struct Set {
    FlTopology *t;
    FlScheduleRequest *reqs;
    int n;
    FlSchedule *s;
    int *colors, ncolors;
} Set;

static int set_open(Set *set, const char *spec, int k, uint64_t seed)
{
    FlError err = { 0 };
    set->t = NULL, set->reqs = NULL, set->s = NULL, set->colors = NULL;
    if (fl_topology_from_spec(spec, &set->t, &err)
        || fl_schedule_random_permutation(set->t, k, seed, &set->reqs, &set->n, &err)
        || fl_schedule_new(set->t, set->reqs, set->n, &set->s, &err)
        || !(set->colors = malloc(sizeof(int) * (size_t)set->n))
        || fl_schedule_color(set->s, FL_SCHEDULE_ASSIGNCOLOR, set->colors, &set->ncolors, &err)
        || fl_schedule_check(set->s, set->colors, &err)) {
        CHECK(0, "a valid colouring on %s: %s", spec, err.message);
        return 0;
    }
    return 1;
}

static void set_close(Set *set)
{
    free(set->colors);
    fl_schedule_free(set->s);
    free(set->reqs);
    fl_topology_free(set->t);
}

static cairo_surface_t *picture(const FlTopology *t, const FlDrawSchedule *d, FlDrawOptions *o)
{
    cairo_t *cr;
    cairo_surface_t *s = fitted_picture(t, SIZE, SIZE, o, &cr);
    fl_draw_topology(cr, t, o);
    if (d)
        fl_draw_schedule(cr, t, o, d);
    return finish_picture(s, cr);
}

/* The centre of lane rank (0 nearest the link) of a channel, for lanes of
 * max_load a channel at most, as draw-schedule.c lays them out. */
static double lane_off(const FlDrawOptions *o, int max_load, int rank)
{
    double s = o->view.scale, lw = fmin(fmax(0.045 * s, 0.75), 3.5);
    double width = fmin(fmin(fmax(0.07 * s, 1.5), 5), fmax(1, 0.36 * s / max_load));
    return lw * 0.5 + 0.5 + width * (rank + 0.5);
}

/* Request i's first channel's lane at rank rank: the device point. */
static void first_lane(const Set *set, const FlDrawOptions *o, int i, int max_load, int rank,
                       double *x, double *y)
{
    const int *chans;
    fl_schedule_path(set->s, i, &chans);
    int a = fl_topology_channel_src(set->t, chans[0]);
    int b = fl_topology_channel_dst(set->t, chans[0]);
    lane_middle(set->t, o, a, b, lane_off(o, max_load, rank), x, y);
}

/* Whether a request before request number before, of colour colour (-1:
 * any), takes channel ch. */
static int channel_taken(const Set *set, int ch, int colour, int before)
{
    for (int j = 0; j < before; j++) {
        const int *cj;
        int nj = colour < 0 || set->colors[j] == colour ? fl_schedule_path(set->s, j, &cj) : 0;
        for (int k = 0; k < nj; k++)
            if (cj[k] == ch)
                return 1;
    }
    return 0;
}

/* Filtered to one colour, every request of it shows in its colour on its
 * first channel, alone there; the channels of the other colours stay
 * plain. */
static void test_filter(const Set *set)
{
    FlDrawSchedule d;
    FlDrawOptions o;
    fl_draw_schedule_init(&d);
    d.schedule = set->s;
    d.colors = set->colors;
    for (int c = 0; c < set->ncolors; c++) {
        d.filter = c;
        cairo_surface_t *s = picture(set->t, &d, &o);
        int checked = 0, right = 0, others = 0, plain = 0;
        for (int i = 0; i < set->n; i++) {
            const int *chans;
            double x, y, rgb[3];
            if (fl_schedule_path(set->s, i, &chans) < 1)
                continue;
            first_lane(set, &o, i, 1, 0, &x, &y);
            if (set->colors[i] == c) {
                fl_draw_palette_colour(c, rgb);
                checked++;
                right += near_rgb(pixel(s, x, y), hex_rgb(rgb), 40);
                continue;
            }
            /* Another colour's first channel, when no request of c takes it. */
            if (!channel_taken(set, chans[0], c, set->n)) {
                others++;
                plain += pixel(s, x, y) == WHITE;
            }
        }
        CHECK(right == checked, "colour %d: %d of %d requests in the colour's lane", c, right,
              checked);
        CHECK(plain == others, "colour %d: %d of %d channels of other colours plain", c, plain,
              others);
        cairo_surface_destroy(s);
    }
}

/* Every request shown: the first request on a channel takes the lane next
 * to it; without colours every lane is grey. */
static void test_all(const Set *set)
{
    FlDrawSchedule d;
    FlDrawOptions o;
    fl_draw_schedule_init(&d);
    d.schedule = set->s;
    d.colors = set->colors;
    int lmax = fl_schedule_l_max(set->s), firsts = 0, right = 0, grey = 0;
    cairo_surface_t *s = picture(set->t, &d, &o);
    d.colors = NULL;
    cairo_surface_t *plain_colours = picture(set->t, &d, &o);
    for (int i = 0; i < set->n; i++) {
        const int *chans;
        if (fl_schedule_path(set->s, i, &chans) < 1 || channel_taken(set, chans[0], -1, i))
            continue;
        double x, y, rgb[3];
        first_lane(set, &o, i, lmax, 0, &x, &y);
        fl_draw_palette_colour(set->colors[i], rgb);
        firsts++;
        right += near_rgb(pixel(s, x, y), hex_rgb(rgb), 40);
        grey += near_rgb(pixel(plain_colours, x, y), GREY, 30);
    }
    CHECK(firsts > 0 && right == firsts, "%d of %d requests first on a channel in its lane",
          right, firsts);
    CHECK(grey == firsts, "uncoloured: %d of %d lanes grey", grey, firsts);
    cairo_surface_destroy(s);
    cairo_surface_destroy(plain_colours);

    /* No schedule: the plain network. */
    d.schedule = NULL;
    s = picture(set->t, &d, &o);
    cairo_surface_t *plain = picture(set->t, NULL, &o);
    CHECK(surfaces_equal(s, plain), "no schedule draws nothing");
    cairo_surface_destroy(s);
    cairo_surface_destroy(plain);
}

/* 1000 requests on a large mesh draw, with lanes as narrow as they must. */
static void test_large(void)
{
    Set set;
    if (!set_open(&set, "myrinet-mesh:250x250", 1000, 11))
        return;
    FlDrawSchedule d;
    FlDrawOptions o;
    fl_draw_schedule_init(&d);
    d.schedule = set.s;
    d.colors = set.colors;
    d.selected = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cairo_surface_t *s = picture(set.t, &d, &o);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, "1000 requests drawn (L_max %d, %d "
          "colours)", fl_schedule_l_max(set.s), set.ncolors);
    /* One stroke per colour, no clip around 62500 switches: a tenth of a
     * second here, where a stroke per request through such a clip took
     * seconds. */
    CHECK(secs < 3, "the 250x250 mesh and 1000 requests drawn in %.3f s", secs);
    cairo_surface_destroy(s);
    set_close(&set);
}

int main(void)
{
    Set set;
    if (set_open(&set, "myrinet-mesh:8x4", 24, 3)) {
        test_filter(&set);
        test_all(&set);
        set_close(&set);
    }
    if (set_open(&set, "myrinet-line:8", 18, 5)) {
        test_filter(&set);
        set_close(&set);
    }
    test_large();
    return tap_done();
}
