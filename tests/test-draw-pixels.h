/* test-draw-pixels.h — reading back what the drawing tests drew. */
#ifndef FLITLAB_TEST_DRAW_PIXELS_H
#define FLITLAB_TEST_DRAW_PIXELS_H

#include <cairo.h>
#include <math.h>

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

#endif /* FLITLAB_TEST_DRAW_PIXELS_H */
