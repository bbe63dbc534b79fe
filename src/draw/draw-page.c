/* draw-page.c — a picture as a page: the whole network fitted below an
 * optional title, at a size in pixels and a resolution for PNG, or in
 * points for PDF and SVG.
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "draw-routing-private.h"

#define TITLE_MARGIN 12.0

void fl_draw_page_init(FlDrawPage *p)
{
    memset(p, 0, sizeof *p);
    p->width = 1200;
    p->height = 900;
    p->dpi = 96;
}

/* Drawing units per device unit: a PNG at more than 96 dpi draws every
 * line and letter larger, so that it prints as the screen shows it;
 * PDF and SVG are in points already. */
static double page_zoom(const FlDrawPage *p, const char *path, const char *format)
{
    const char *name = fl__draw_format_name(path, format);
    int png = !name || strcasecmp(name, "png") == 0;
    return png && p->dpi > 0 ? clamp(p->dpi / 96.0, 0.25, 16) : 1;
}

/* The title's font size and the height of its band, in drawing units,
 * for a page w x h drawing units (0 without a title). */
static double title_band(const FlDrawPage *p, double h, double *font)
{
    *font = clamp(h * 0.04, 14, 32);
    return p->title && *p->title ? *font * 1.6 + TITLE_MARGIN : 0;
}

void fl_draw_page_area(const FlDrawPage *p, const char *path, const char *format,
                       double *width, double *height)
{
    double k = page_zoom(p, path, format), font;
    *width = p->width / k;
    *height = p->height / k - title_band(p, p->height / k, &font);
}

typedef struct Page {
    const FlDrawPage *p;
    double k;
    FlDrawRenderFunc render;
    void *data;
} Page;

static void render_page(cairo_t *cr, int width, int height, void *data)
{
    const Page *pg = data;
    const Colours *col = fl__draw_colours(pg->p->dark);
    double w = width / pg->k, h = height / pg->k, font;
    double band = title_band(pg->p, h, &font);
    cairo_save(cr);
    set_colour(cr, col->background);
    cairo_paint(cr);
    cairo_scale(cr, pg->k, pg->k);
    if (band > 0) {
        cairo_text_extents_t te;
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        cairo_set_font_size(cr, font);
        cairo_text_extents(cr, pg->p->title, &te);
        /* A title wider than the page is set smaller to fit. */
        if (te.x_advance > w - 2 * TITLE_MARGIN && te.x_advance > 0) {
            cairo_set_font_size(cr, font * (w - 2 * TITLE_MARGIN) / te.x_advance);
            cairo_text_extents(cr, pg->p->title, &te);
        }
        set_colour(cr, col->text);
        cairo_move_to(cr, (w - te.x_advance) / 2, TITLE_MARGIN + font * 1.1);
        cairo_show_text(cr, pg->p->title);
        cairo_new_path(cr);
    }
    cairo_translate(cr, 0, band);
    cairo_rectangle(cr, 0, 0, w, h - band);
    cairo_clip(cr);
    pg->render(cr, (int)floor(w), (int)floor(h - band), pg->data);
    cairo_restore(cr);
}

int fl_draw_export_page(const char *path, const char *format, const FlDrawPage *page,
                        FlDrawRenderFunc render, void *data, FlError *err)
{
    if (!page || !render)
        return fl_error_set(err, FL_EINVAL, "nothing to draw");
    if (!(page->dpi > 0) || page->dpi > 2400)
        return fl_error_set(err, FL_ERANGE, "resolution %g dpi is out of range (1 to 2400)",
                            page->dpi);
    Page pg = { page, page_zoom(page, path, format), render, data };
    return fl__draw_write_image(path, format, page->width, page->height, render_page, &pg, err);
}

typedef struct RoutingPage {
    const FlTopology *t;
    const FlDrawRouting *r;
    int dark;
} RoutingPage;

static void render_routing_page(cairo_t *cr, int width, int height, void *data)
{
    const RoutingPage *rp = data;
    FlDrawOptions o;
    fl_draw_options_init(&o);
    o.dark = rp->dark;
    fl_draw_routing_fit(rp->t, rp->r, width, height, &o.view);
    fl_draw_routing(cr, rp->t, &o, rp->r);
}

int fl_draw_export_routing_page(const FlTopology *t, const FlDrawRouting *r,
                                const FlDrawPage *page, const char *path, const char *format,
                                FlError *err)
{
    FlTopology *shown = NULL;
    if (!t)
        return fl_error_set(err, FL_EINVAL, "no network to draw");
    /* A routing without a tree, or a network whose hosts cannot be left
     * out, is drawn as it is. */
    if (r && r->overlays && fl__draw_same_network(t, r->routing)) {
        int rc = (r->overlays & FL_DRAW_OVERLAY_HV_GRAPH)
                     ? fl_draw_hv_layout(t, r->routing, &shown, NULL)
                     : FL_EUNSUPPORTED;
        if (rc != FL_OK && rc != FL_ENOMEM)
            rc = fl_draw_switches_only(t, &shown, NULL);
        if (rc == FL_ENOMEM)
            return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    RoutingPage rp = { shown ? shown : t, r, page ? page->dark : 0 };
    int rc = fl_draw_export_page(path, format, page, render_routing_page, &rp, err);
    fl_topology_free(shown);
    return rc;
}
