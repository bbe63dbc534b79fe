/* flitlab-canvas-export.c — Export Picture: the whole network as the
 * canvas draws it (overlays, a simulation's frame or a collective), fitted
 * into a page of a chosen size with an optional title, whatever part of
 * it the canvas shows; and presenter mode, whose heavier marks are the
 * view's.
 */
#include <glib/gi18n.h>

#include "flitlab-canvas-private.h"

/* What the canvas shows, fitted whole into width x height, on a light
 * page and without the transient highlights. */
static void
render_page (cairo_t *cr,
             int      width,
             int      height,
             void    *data)
{
  FlitlabCanvas *self = data;
  const FlTopology *t = flitlab_canvas_picture (self);
  FlDrawOptions options;
  FlDrawRouting rd;

  fl_draw_options_init (&options);
  flitlab_canvas_fill_routing (self, &rd, TRUE);
  if (flitlab_canvas_shown_simulation (self) != NULL)
    {
      fl_draw_view_fit (t, width, height, &options.view);
      flitlab_canvas_draw_frame (self, cr, &options);
    }
  else if (self->show_collectives)
    {
      fl_draw_view_fit (t, width, height, &options.view);
      fl_draw_topology (cr, t, &options);
      g_signal_emit_by_name (self, "draw-overlay", cr, t, &options);
    }
  else
    {
      fl_draw_routing_fit (t, &rd, width, height, &options.view);
      fl_draw_routing (cr, t, &options, &rd);
    }
}

gboolean
flitlab_canvas_export_page (FlitlabCanvas     *self,
                            const char        *path,
                            const FlDrawPage  *page,
                            GError           **error)
{
  FlError err;

  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FALSE);
  g_return_val_if_fail (path != NULL && page != NULL, FALSE);

  if (fl_draw_export_page (path, NULL, page, render_page, self, &err) != FL_OK)
    {
      g_set_error_literal (error, FLITLAB_CANVAS_ERROR, FLITLAB_CANVAS_ERROR_EXPORT, err.message);
      return FALSE;
    }
  return TRUE;
}

gboolean
flitlab_canvas_export (FlitlabCanvas  *self,
                       const char     *path,
                       GError        **error)
{
  FlDrawPage page;

  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FALSE);

  /* As large as the canvas (a canvas never shown: the default page). */
  fl_draw_page_init (&page);
  if (self->width > 0 && self->height > 0)
    {
      page.width = self->width;
      page.height = self->height;
    }
  return flitlab_canvas_export_page (self, path, &page, error);
}

void
flitlab_canvas_set_presenter (FlitlabCanvas *self,
                              gboolean       presenter)
{
  FlDrawView view;

  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (self->presenter == !!presenter)
    return;
  self->presenter = !!presenter;
  view = self->draw.view;
  flitlab_canvas_set_view (self, &view);
  flitlab_canvas_zoom_fit (self);
}

gboolean
flitlab_canvas_get_presenter (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FALSE);

  return self->presenter;
}
