/* test-draw-gif.c — animations: a GIF written frame by frame decodes back
 * (giflib's DGifSlurp) with its frames, size, delays and colours; a frame
 * that changed a little stores only that rectangle; nothing is left
 * behind by an abort or a refused frame; PNG sequences are numbered.
 * Needs no display. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gif_lib.h>

#include "flitlab-draw.h"
#include "tap.h"

#define W 160
#define H 120

/* A frame: white, with a square of colour rgb at (x, 40). */
static cairo_surface_t *square_frame(int x, double r, double g, double b)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, r, g, b);
    cairo_rectangle(cr, x, 40, 20, 20);
    cairo_fill(cr);
    cairo_destroy(cr);
    return s;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The temporary files a writer may have left beside path. */
static int leftovers(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls %s | grep -c '\\.tmp$'", dir);
    FILE *p = popen(cmd, "r");
    int n = 0;
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = 0;
        pclose(p);
    }
    return n;
}

/* The colour of pixel (x, y) of frame i, composed over the frames before
 * it as a viewer shows them (every frame: do not dispose). */
static void composed_pixel(GifFileType *gif, int upto, int x, int y, int rgb[3])
{
    int index = gif->SBackGroundColor;
    for (int i = 0; i <= upto; i++) {
        const GifImageDesc *d = &gif->SavedImages[i].ImageDesc;
        if (x >= d->Left && x < d->Left + d->Width && y >= d->Top && y < d->Top + d->Height)
            index = gif->SavedImages[i].RasterBits[(y - d->Top) * d->Width + (x - d->Left)];
    }
    const GifColorType *c = &gif->SColorMap->Colors[index];
    rgb[0] = c->Red, rgb[1] = c->Green, rgb[2] = c->Blue;
}

static int near(const int got[3], double r, double g, double b, int tol)
{
    return abs(got[0] - (int)lround(r * 255)) <= tol && abs(got[1] - (int)lround(g * 255)) <= tol
           && abs(got[2] - (int)lround(b * 255)) <= tol;
}

static void test_gif(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/anim.gif", dir);
    FlError err;
    FlDrawGif *g = fl_draw_gif_open(path, W, H, 7, &err);
    CHECK(g != NULL, "an animation opens (%s)", g ? "ok" : err.message);
    if (!g)
        return;
    /* A packet colour, moving right, then still for a frame. */
    double r = 0xd9 / 255.0, gr = 0x11 / 255.0, b = 0xd9 / 255.0;
    int ok = 1;
    for (int i = 0; i < 4; i++) {
        cairo_surface_t *s = square_frame(10 + 20 * (i < 3 ? i : 2), r, gr, b);
        ok &= fl_draw_gif_add(g, s, &err) == FL_OK;
        cairo_surface_destroy(s);
    }
    CHECK(ok && fl_draw_gif_frames(g) == 4, "four frames added");
    cairo_surface_t *small = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W / 2, H);
    CHECK(fl_draw_gif_add(g, small, &err) == FL_EINVAL && strstr(err.message, "160x120"),
          "a frame of another size is refused: %s", err.message);
    cairo_surface_destroy(small);
    CHECK(!exists(path), "nothing at the path before the animation is closed");
    CHECK(fl_draw_gif_close(g, &err) == FL_OK, "the animation closes");
    CHECK(exists(path) && leftovers(dir) == 0, "the GIF is in place, no temporary file left");

    int code = 0;
    GifFileType *gif = DGifOpenFileName(path, &code);
    CHECK(gif && DGifSlurp(gif) == GIF_OK, "giflib decodes it");
    if (!gif)
        return;
    CHECK(gif->SWidth == W && gif->SHeight == H, "size %dx%d", gif->SWidth, gif->SHeight);
    CHECK(gif->ImageCount == 4, "%d frames", gif->ImageCount);
    int delays = 1;
    for (int i = 0; i < gif->ImageCount; i++) {
        GraphicsControlBlock gcb;
        delays &= DGifSavedExtensionToGCB(gif, i, &gcb) == GIF_OK && gcb.DelayTime == 7;
    }
    CHECK(delays, "every frame shows for 7/100 s");
    const GifImageDesc *d1 = &gif->SavedImages[1].ImageDesc;
    const GifImageDesc *d3 = &gif->SavedImages[3].ImageDesc;
    CHECK(d1->Width <= 40 && d1->Height <= 20 && d1->Left >= 10,
          "the second frame stores the rectangle that changed (%dx%d at %d,%d)", d1->Width,
          d1->Height, d1->Left, d1->Top);
    CHECK(d3->Width * d3->Height == 1, "an unchanged frame stores one pixel");
    int px[3];
    composed_pixel(gif, 2, 60, 50, px);
    int sq = near(px, r, gr, b, 30);
    composed_pixel(gif, 2, 20, 50, px);
    int white = near(px, 1, 1, 1, 0);
    composed_pixel(gif, 3, 60, 50, px);
    CHECK(sq && white && near(px, r, gr, b, 30),
          "the square is where frame 3 drew it, near its colour, on white");
    DGifCloseFile(gif, &code);
    unlink(path);
}

static void test_palette(void)
{
    int worst = 0, c[3];
    /* The app's colours: greys, blue switches, green hosts, packets. */
    static const int colours[] = { 0xffffff, 0x77767b, 0x9a9996, 0x3584e4, 0x1a5fb4, 0x57e389,
                                   0xd911d9, 0xb3920e, 0x1139d9, 0x2aa41d, 0xe01b24, 0x241f31 };
    for (size_t i = 0; i < sizeof colours / sizeof colours[0]; i++) {
        int r = colours[i] >> 16 & 0xff, g = colours[i] >> 8 & 0xff, b = colours[i] & 0xff;
        fl_draw_gif_palette_colour(fl_draw_gif_palette_index(r, g, b), c);
        int e = abs(c[0] - r) + abs(c[1] - g) + abs(c[2] - b);
        worst = e > worst ? e : worst;
    }
    CHECK(worst <= 72, "the app's colours map within %d (r + g + b) of themselves", worst);
    fl_draw_gif_palette_colour(fl_draw_gif_palette_index(0x77, 0x76, 0x7b), c);
    CHECK(c[0] == c[1] && c[1] == c[2] && abs(c[0] - 0x77) <= 2,
          "the links' grey is one of the greys (%02x)", c[0]);
}

static void test_refusals(const char *dir)
{
    char path[256];
    FlError err;
    snprintf(path, sizeof path, "%s/none.gif", dir);
    CHECK(!fl_draw_gif_open(path, 0, 10, 5, &err) && strstr(err.message, "0x10"),
          "a zero size is refused: %s", err.message);
    CHECK(!fl_draw_gif_open(path, 10, 10, -1, &err) && strstr(err.message, "delay"),
          "a negative delay is refused: %s", err.message);
    snprintf(path, sizeof path, "%s/missing/none.gif", dir);
    CHECK(!fl_draw_gif_open(path, 10, 10, 5, &err) && strstr(err.message, "cannot write"),
          "a missing directory is refused: %s", err.message);
    snprintf(path, sizeof path, "%s/aborted.gif", dir);
    FlDrawGif *g = fl_draw_gif_open(path, W, H, 5, &err);
    cairo_surface_t *s = square_frame(0, 0, 0, 1);
    fl_draw_gif_add(g, s, &err);
    cairo_surface_destroy(s);
    fl_draw_gif_abort(g);
    CHECK(!exists(path) && leftovers(dir) == 0, "an aborted animation leaves nothing");
    g = fl_draw_gif_open(path, W, H, 5, &err);
    CHECK(fl_draw_gif_close(g, &err) == FL_EINVAL && !exists(path) && leftovers(dir) == 0,
          "an animation without frames is refused, leaving nothing: %s", err.message);
}

static void test_png_sequence(const char *dir)
{
    FlError err;
    char path[256];
    int ok = 1;
    for (int i = 1; i <= 3; i++) {
        cairo_surface_t *s = square_frame(i * 10, 0, 0.5, 0);
        ok &= fl_draw_png_sequence_write(dir, "frame", i, s, path, sizeof path, &err) == FL_OK;
        cairo_surface_destroy(s);
    }
    char want[256];
    snprintf(want, sizeof want, "%s/frame-00003.png", dir);
    CHECK(ok && strcmp(path, want) == 0 && exists(want), "PNG sequence: %s", path);
    cairo_surface_t *back = cairo_image_surface_create_from_png(want);
    CHECK(cairo_surface_status(back) == CAIRO_STATUS_SUCCESS
              && cairo_image_surface_get_width(back) == W
              && cairo_image_surface_get_height(back) == H,
          "a frame reads back at its size");
    cairo_surface_destroy(back);
    for (int i = 1; i <= 3; i++) {
        snprintf(path, sizeof path, "%s/frame-%05d.png", dir, i);
        unlink(path);
    }
}

int main(void)
{
    char dir[] = "/tmp/flitlab-gif-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0, "a temporary directory");
        return tap_done();
    }
    test_gif(dir);
    test_palette();
    test_refusals(dir);
    test_png_sequence(dir);
    rmdir(dir);
    return tap_done();
}
