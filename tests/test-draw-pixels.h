/* test-draw-pixels.h — reading back what the drawing tests drew. */
#ifndef FLITLAB_TEST_DRAW_PIXELS_H
#define FLITLAB_TEST_DRAW_PIXELS_H

#include <cairo.h>
#include <math.h>
#include <string.h>

#include "flitlab-draw.h"

/* The RGB of the pixel at device point (x, y) of an image surface, or a
 * value that matches no colour outside it. */
static inline unsigned pixel(cairo_surface_t *s, double x, double y)
{
    const unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    int ix = (int)floor(x), iy = (int)floor(y);
    if (ix < 0 || iy < 0 || ix >= cairo_image_surface_get_width(s)
        || iy >= cairo_image_surface_get_height(s))
        return 0x1000000; /* matches no colour */
    return *(const unsigned *)(data + iy * stride + 4 * ix) & 0xffffff;
}

/* Whether the pixel value got is within tol of want (0xRRGGBB) in each of
 * red, green and blue. */
static inline int near_rgb(unsigned got, unsigned want, int tol)
{
    for (int shift = 0; shift <= 16; shift += 8) {
        int a = (int)(got >> shift & 0xff), b = (int)(want >> shift & 0xff);
        if (a - b > tol || b - a > tol)
            return 0;
    }
    return 1;
}

/* Whether two image surfaces of one size hold the same pixels. */
static inline int surfaces_equal(cairo_surface_t *a, cairo_surface_t *b)
{
    int h = cairo_image_surface_get_height(a);
    size_t n = (size_t)cairo_image_surface_get_stride(a) * (size_t)h;
    return cairo_image_surface_get_stride(b) == cairo_image_surface_get_stride(a)
           && cairo_image_surface_get_height(b) == h
           && memcmp(cairo_image_surface_get_data(a), cairo_image_surface_get_data(b), n) == 0;
}

/* Red, green and blue in 0..1 as 0xRRGGBB. */
static inline unsigned hex_rgb(const double rgb[3])
{
    return (unsigned)lround(rgb[0] * 255) << 16 | (unsigned)lround(rgb[1] * 255) << 8
           | (unsigned)lround(rgb[2] * 255);
}

/* A w x h surface with t fitted in through o's view (o initialised), and
 * a context on it, to draw a frame; finish_picture() flushes it. */
static inline cairo_surface_t *fitted_picture(const FlTopology *t, int w, int h,
                                              FlDrawOptions *o, cairo_t **cr)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    *cr = cairo_create(s);
    fl_draw_options_init(o);
    fl_draw_view_fit(t, w, h, &o->view);
    return s;
}

static inline cairo_surface_t *finish_picture(cairo_surface_t *s, cairo_t *cr)
{
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

/* The device point in the middle of the straight link from node a to
 * node b, off device units to the right of the way a -> b runs. */
static inline void lane_middle(const FlTopology *t, const FlDrawOptions *o, int a, int b,
                               double off, double *x, double *y)
{
    double ax, ay, bx, by;
    fl_draw_node_position(t, a, &ax, &ay);
    fl_draw_node_position(t, b, &bx, &by);
    fl_draw_view_to_device(&o->view, ax, ay, &ax, &ay);
    fl_draw_view_to_device(&o->view, bx, by, &bx, &by);
    double len = hypot(bx - ax, by - ay), tx = (bx - ax) / len, ty = (by - ay) / len;
    *x = (ax + bx) / 2 - ty * off;
    *y = (ay + by) / 2 + tx * off;
}

#endif /* FLITLAB_TEST_DRAW_PIXELS_H */
