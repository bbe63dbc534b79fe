/* draw-export.c — a drawn topology, with or without a routing over it,
 * written to a PNG, SVG or PDF file.
 *
 * The file is rendered by the same fl_draw_topology() and fl_draw_routing()
 * as the canvas, and written through the output module (flitlab-output.h):
 * a regular file is replaced only once the whole picture is written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "draw-private.h"
#include "flitlab-output.h"

enum { FORMAT_PNG, FORMAT_SVG, FORMAT_PDF };

static const char *const format_names[] = { "png", "svg", "pdf" };

const char *fl__draw_format_name(const char *path, const char *format)
{
    if (format)
        return format;
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    return dot ? dot + 1 : NULL;
}

static int parse_format(const char *path, const char *format, int *out, FlError *err)
{
    const char *name = fl__draw_format_name(path, format);
    if (!name)
        return fl_error_set(err, FL_EINVAL,
                            "cannot tell the image format of '%s': name it .png, .svg or .pdf",
                            path);
    for (int i = 0; i < 3; i++)
        if (strcasecmp(name, format_names[i]) == 0) {
            *out = i;
            return FL_OK;
        }
    return fl_error_set(err, FL_EINVAL,
                        "unknown image format '%s' (expected png, svg or pdf)", name);
}

int fl_draw_check_format(const char *path, const char *format, FlError *err)
{
    int fmt;
    if (!path || !*path)
        return fl_error_set(err, FL_EINVAL, "no file name to write the picture to");
    return parse_format(path, format, &fmt, err);
}

static cairo_status_t write_stream(void *closure, const unsigned char *data,
                                   unsigned int length)
{
    return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS
                                                       : CAIRO_STATUS_WRITE_ERROR;
}

int fl__draw_write_image(const char *path, const char *format, int width, int height,
                         FlDrawRenderFunc render, void *data, FlError *err)
{
    int fmt = FORMAT_PNG, rc;
    if (!path || !*path)
        return fl_error_set(err, FL_EINVAL, "no file name to write the picture to");
    if ((rc = parse_format(path, format, &fmt, err)) != FL_OK)
        return rc;
    if (width < 1 || height < 1 || width > FL_DRAW_MAX_SIDE || height > FL_DRAW_MAX_SIDE)
        return fl_error_set(err, FL_ERANGE, "image size %dx%d is out of range (1 to %d a side)",
                            width, height, FL_DRAW_MAX_SIDE);
    FlOutput *out;
    FILE *f;
    if ((rc = fl_output_open(path, &out, &f, err)) != FL_OK)
        return rc;

    cairo_surface_t *surface;
    if (fmt == FORMAT_PNG)
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    else if (fmt == FORMAT_SVG)
        surface = cairo_svg_surface_create_for_stream(write_stream, f, width, height);
    else
        surface = cairo_pdf_surface_create_for_stream(write_stream, f, width, height);
    cairo_status_t status = cairo_surface_status(surface);
    if (status == CAIRO_STATUS_SUCCESS) {
        cairo_t *cr = cairo_create(surface);
        render(cr, width, height, data);
        status = cairo_status(cr);
        cairo_destroy(cr);
    }
    if (status == CAIRO_STATUS_SUCCESS && fmt == FORMAT_PNG)
        status = cairo_surface_write_to_png_stream(surface, write_stream, f);
    cairo_surface_finish(surface);
    if (status == CAIRO_STATUS_SUCCESS)
        status = cairo_surface_status(surface);
    cairo_surface_destroy(surface);

    if (status == CAIRO_STATUS_SUCCESS)
        return fl_output_commit(out, err);
    /* A write error is the stream's: its errno says more than cairo. */
    int write_errno = fl_output_errno(out);
    fl_output_abort(out);
    if (status == CAIRO_STATUS_NO_MEMORY)
        return fl_error_set(err, FL_ENOMEM, "out of memory drawing a %dx%d image", width,
                            height);
    return fl_error_set(err, FL_EIO, "cannot write %s: %s", path,
                        write_errno ? strerror(write_errno) : cairo_status_to_string(status));
}

typedef struct Picture {
    const FlTopology *t;
    const FlDrawOptions *o;
    const FlDrawRouting *r;
    const FlDrawFlits *f;
    const FlDrawDeflect *d;
} Picture;

static void render_picture(cairo_t *cr, int width, int height, void *data)
{
    const Picture *p = data;
    (void)width;
    (void)height;
    if (p->f)
        fl_draw_flits(cr, p->t, p->o, p->f);
    else if (p->d)
        fl_draw_deflect(cr, p->t, p->o, p->d);
    else
        fl_draw_routing(cr, p->t, p->o, p->r);
}

int fl__draw_export_picture(const FlTopology *t, const FlDrawOptions *opt,
                            const FlDrawRouting *r, const FlDrawFlits *f,
                            const FlDrawDeflect *d, const char *path, const char *format,
                            int width, int height, FlError *err)
{
    FlDrawOptions o;
    if (!t)
        return fl_error_set(err, FL_EINVAL, "no network to draw");
    if (opt) {
        o = *opt;
    } else {
        fl_draw_options_init(&o);
        fl_draw_view_fit(t, width, height, &o.view);
    }
    Picture p = { t, &o, r, f, d };
    return fl__draw_write_image(path, format, width, height, render_picture, &p, err);
}

int fl_draw_export_routing_with_options(const FlTopology *t, const FlDrawOptions *opt,
                                        const FlDrawRouting *r, const char *path,
                                        const char *format, int width, int height,
                                        FlError *err)
{
    return fl__draw_export_picture(t, opt, r, NULL, NULL, path, format, width, height, err);
}

/* A network without a routing is drawn by fl_draw_routing() exactly as by
 * fl_draw_topology(). */
int fl_draw_export_with_options(const FlTopology *t, const FlDrawOptions *opt,
                                const char *path, const char *format, int width,
                                int height, FlError *err)
{
    return fl_draw_export_routing_with_options(t, opt, NULL, path, format, width, height, err);
}

int fl_draw_export(const FlTopology *t, const char *path, const char *format, int width,
                   int height, FlError *err)
{
    return fl_draw_export_with_options(t, NULL, path, format, width, height, err);
}

int fl_draw_export_render(const char *path, const char *format, int width, int height,
                          FlDrawRenderFunc render, void *data, FlError *err)
{
    if (!render)
        return fl_error_set(err, FL_EINVAL, "nothing to draw");
    return fl__draw_write_image(path, format, width, height, render, data, err);
}
