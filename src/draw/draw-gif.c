/* draw-gif.c — animations for lectures: an animated GIF written frame by
 * frame with giflib, and PNG sequences.
 *
 * A GIF holds 256 colours. Frames of a simulation are a white page, the
 * network's greys and blue, and the packets' saturated colours, so one
 * fixed palette serves every frame: a 6x7x6 colour cube (green, which the
 * eye tells apart best, gets seven levels) and four greys. Each pixel
 * goes to its nearest palette colour; a small direct-mapped cache makes
 * the white page and the flat colours of a frame cost one lookup each.
 * Successive frames of a simulation differ in a few places, so a frame
 * after the first stores only the rectangle that changed, over the last
 * frame (disposal "do not dispose").
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gif_lib.h>

#include "draw-private.h"
#include "flitlab-output.h"

#define CUBE_R 6
#define CUBE_G 7
#define CUBE_B 6
#define NCUBE (CUBE_R * CUBE_G * CUBE_B)
#define CACHE_BITS 12

/* The network's greys and the text's dark one, beyond the cube's black
 * and white. */
static const int greys[] = { 0x3d, 0x77, 0x9a, 0xde };
#define NGREYS ((int)(sizeof greys / sizeof greys[0]))

struct FlDrawGif {
    char *path;
    FlOutput *out;
    FILE *fp;
    GifFileType *gif;
    int width, height, delay_cs, frames;
    unsigned char *last, *cur;           /* palette indices of the last and this frame */
    uint32_t cache_key[1 << CACHE_BITS]; /* rgb | 1 << 24 when filled */
    unsigned char cache_index[1 << CACHE_BITS];
};

static int level(int v, int n)
{
    return (v * (n - 1) + 127) / 255;
}

void fl_draw_gif_palette_colour(int index, int rgb[3])
{
    if (index >= NCUBE && index < NCUBE + NGREYS) {
        rgb[0] = rgb[1] = rgb[2] = greys[index - NCUBE];
        return;
    }
    if (index < 0 || index >= NCUBE)
        index = 0;
    int r = index / (CUBE_G * CUBE_B), g = index / CUBE_B % CUBE_G, b = index % CUBE_B;
    rgb[0] = r * 255 / (CUBE_R - 1);
    rgb[1] = g * 255 / (CUBE_G - 1);
    rgb[2] = b * 255 / (CUBE_B - 1);
}

static int distance(int r, int g, int b, const int c[3])
{
    int dr = r - c[0], dg = g - c[1], db = b - c[2];
    /* Weighted as the eye weighs them, roughly. */
    return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

int fl_draw_gif_palette_index(int r, int g, int b)
{
    /* The cube's nearest point is each channel's nearest level. */
    int best = (level(r, CUBE_R) * CUBE_G + level(g, CUBE_G)) * CUBE_B + level(b, CUBE_B);
    int c[3];
    fl_draw_gif_palette_colour(best, c);
    int best_d = distance(r, g, b, c);
    for (int i = 0; i < NGREYS; i++) {
        fl_draw_gif_palette_colour(NCUBE + i, c);
        int d = distance(r, g, b, c);
        if (d < best_d)
            best = NCUBE + i, best_d = d;
    }
    return best;
}

static int gif_error(FlError *err, const char *path, int code)
{
    const char *why = GifErrorString(code);
    return fl_error_set(err, FL_EIO, "cannot write %s: %s", path, why ? why : "GIF error");
}

static int write_bytes(GifFileType *gif, const GifByteType *data, int n)
{
    return (int)fwrite(data, 1, (size_t)n, gif->UserData);
}

void fl_draw_gif_abort(FlDrawGif *g)
{
    if (!g)
        return;
    if (g->gif)
        EGifCloseFile(g->gif, NULL);
    fl_output_abort(g->out);
    free(g->path);
    free(g->last);
    free(g->cur);
    free(g);
}

/* The screen, the palette and the loop forever (Netscape's extension). */
static int write_header(FlDrawGif *g, FlError *err)
{
    GifColorType colours[256];
    memset(colours, 0, sizeof colours);
    for (int i = 0; i < NCUBE + NGREYS; i++) {
        int c[3];
        fl_draw_gif_palette_colour(i, c);
        colours[i] = (GifColorType){ (GifByteType)c[0], (GifByteType)c[1], (GifByteType)c[2] };
    }
    ColorMapObject *map = GifMakeMapObject(256, colours);
    if (!map)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    EGifSetGifVersion(g->gif, true);
    int rc = EGifPutScreenDesc(g->gif, g->width, g->height, 8, 0, map);
    GifFreeMapObject(map);
    static const GifByteType loop[] = { 1, 0, 0 };
    if (rc != GIF_OK || EGifPutExtensionLeader(g->gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK
        || EGifPutExtensionBlock(g->gif, 11, "NETSCAPE2.0") != GIF_OK
        || EGifPutExtensionBlock(g->gif, 3, loop) != GIF_OK
        || EGifPutExtensionTrailer(g->gif) != GIF_OK)
        return gif_error(err, g->path, g->gif->Error);
    return FL_OK;
}

FlDrawGif *fl_draw_gif_open(const char *path, int width, int height, int delay_cs,
                            FlError *err)
{
    if (!path || !*path) {
        fl_error_set(err, FL_EINVAL, "no file name to write the animation to");
        return NULL;
    }
    if (width < 1 || height < 1 || width > FL_DRAW_MAX_SIDE || height > FL_DRAW_MAX_SIDE) {
        fl_error_set(err, FL_ERANGE, "animation size %dx%d is out of range (1 to %d a side)",
                     width, height, FL_DRAW_MAX_SIDE);
        return NULL;
    }
    if (delay_cs < 0 || delay_cs > 65535) {
        fl_error_set(err, FL_ERANGE,
                     "frame delay %d is out of range (0 to 65535 hundredths of a second)",
                     delay_cs);
        return NULL;
    }
    FlDrawGif *g = calloc(1, sizeof *g);
    size_t pixels = (size_t)width * (size_t)height;
    if (!g || !(g->path = strdup(path)) || !(g->last = malloc(pixels))
        || !(g->cur = malloc(pixels))) {
        fl_draw_gif_abort(g);
        fl_error_set(err, FL_ENOMEM, "out of memory for a %dx%d animation", width, height);
        return NULL;
    }
    g->width = width;
    g->height = height;
    g->delay_cs = delay_cs;
    if (fl_output_open(path, &g->out, &g->fp, err) != FL_OK) {
        fl_draw_gif_abort(g);
        return NULL;
    }
    int code = 0;
    if (!(g->gif = EGifOpen(g->fp, write_bytes, &code))) {
        gif_error(err, path, code);
        fl_draw_gif_abort(g);
        return NULL;
    }
    if (write_header(g, err) != FL_OK) {
        fl_draw_gif_abort(g);
        return NULL;
    }
    return g;
}

/* The palette index of a pixel of an image surface, over white. */
static unsigned char map_pixel(FlDrawGif *g, uint32_t px, int opaque)
{
    int a = opaque ? 255 : (int)(px >> 24);
    int r = (int)(px >> 16 & 0xff) + 255 - a, gr = (int)(px >> 8 & 0xff) + 255 - a;
    int b = (int)(px & 0xff) + 255 - a;
    uint32_t rgb = (uint32_t)r << 16 | (uint32_t)gr << 8 | (uint32_t)b;
    uint32_t slot = (rgb * 2654435761u) >> (32 - CACHE_BITS);
    if (g->cache_key[slot] == (rgb | 1u << 24))
        return g->cache_index[slot];
    unsigned char index = (unsigned char)fl_draw_gif_palette_index(r, gr, b);
    g->cache_key[slot] = rgb | 1u << 24;
    g->cache_index[slot] = index;
    return index;
}

int fl_draw_gif_frames(const FlDrawGif *g)
{
    return g ? g->frames : 0;
}

int fl_draw_gif_add(FlDrawGif *g, cairo_surface_t *image, FlError *err)
{
    if (!g || !image || cairo_surface_get_type(image) != CAIRO_SURFACE_TYPE_IMAGE)
        return fl_error_set(err, FL_EINVAL, "no image to add to the animation");
    cairo_format_t fmt = cairo_image_surface_get_format(image);
    int w = cairo_image_surface_get_width(image), h = cairo_image_surface_get_height(image);
    if ((fmt != CAIRO_FORMAT_ARGB32 && fmt != CAIRO_FORMAT_RGB24) || w != g->width
        || h != g->height)
        return fl_error_set(err, FL_EINVAL,
                            "a frame of the animation must be a %dx%d ARGB32 or RGB24 image, "
                            "not %dx%d", g->width, g->height, w, h);
    cairo_surface_flush(image);
    const unsigned char *data = cairo_image_surface_get_data(image);
    int stride = cairo_image_surface_get_stride(image), opaque = fmt == CAIRO_FORMAT_RGB24;
    int x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (int y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * stride);
        unsigned char *cur = g->cur + (size_t)y * w, *last = g->last + (size_t)y * w;
        for (int x = 0; x < w; x++) {
            cur[x] = map_pixel(g, row[x], opaque);
            if (g->frames && cur[x] != last[x]) {
                x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
                y0 = y < y0 ? y : y0, y1 = y;
            }
        }
    }
    if (!g->frames)
        x0 = 0, y0 = 0, x1 = w - 1, y1 = h - 1;
    else if (x1 < 0)
        x0 = x1 = y0 = y1 = 0; /* unchanged: one pixel keeps the frame's delay */

    GraphicsControlBlock gcb = { DISPOSE_DO_NOT, false, g->delay_cs, NO_TRANSPARENT_COLOR };
    GifByteType ext[4];
    size_t n = EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(g->gif, GRAPHICS_EXT_FUNC_CODE, (int)n, ext) != GIF_OK
        || EGifPutImageDesc(g->gif, x0, y0, x1 - x0 + 1, y1 - y0 + 1, false, NULL) != GIF_OK)
        return gif_error(err, g->path, g->gif->Error);
    for (int y = y0; y <= y1; y++)
        if (EGifPutLine(g->gif, g->cur + (size_t)y * w + x0, x1 - x0 + 1) != GIF_OK)
            return gif_error(err, g->path, g->gif->Error);
    unsigned char *swap = g->last;
    g->last = g->cur;
    g->cur = swap;
    g->frames++;
    return FL_OK;
}

int fl_draw_gif_close(FlDrawGif *g, FlError *err)
{
    if (!g)
        return fl_error_set(err, FL_EINVAL, "no animation to finish");
    if (!g->frames) {
        int rc = fl_error_set(err, FL_EINVAL, "the animation %s has no frames", g->path);
        fl_draw_gif_abort(g);
        return rc;
    }
    int code = 0, rc = FL_OK;
    if (EGifCloseFile(g->gif, &code) != GIF_OK)
        rc = gif_error(err, g->path, code);
    g->gif = NULL;
    if (rc == FL_OK) {
        rc = fl_output_commit(g->out, err);
        g->out = NULL;
    }
    fl_draw_gif_abort(g);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* PNG sequences                                                            */
/* ------------------------------------------------------------------------ */

static void render_image(cairo_t *cr, int width, int height, void *data)
{
    (void)width;
    (void)height;
    cairo_set_source_surface(cr, data, 0, 0);
    cairo_paint(cr);
}

int fl_draw_png_sequence_write(const char *dir, const char *prefix, int index,
                               cairo_surface_t *image, char *path_out, size_t size,
                               FlError *err)
{
    if (!dir || !*dir || !image || cairo_surface_get_type(image) != CAIRO_SURFACE_TYPE_IMAGE)
        return fl_error_set(err, FL_EINVAL, "no directory or image for the PNG sequence");
    if (index < 0 || index > 99999)
        return fl_error_set(err, FL_ERANGE, "frame number %d is out of range (0 to 99999)",
                            index);
    size_t n = strlen(dir) + strlen(prefix ? prefix : "frame") + 16;
    char *path = malloc(n);
    if (!path)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    size_t len = strlen(dir);
    snprintf(path, n, "%s%s%s-%05d.png", dir, len && dir[len - 1] == '/' ? "" : "/",
             prefix ? prefix : "frame", index);
    int rc = fl__draw_write_image(path, "png", cairo_image_surface_get_width(image),
                                  cairo_image_surface_get_height(image), render_image, image,
                                  err);
    if (path_out && size)
        snprintf(path_out, size, "%s", path);
    free(path);
    return rc;
}
