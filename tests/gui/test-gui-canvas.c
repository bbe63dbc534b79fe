/* test-gui-canvas.c — the canvas as a class sees it, in the real
 * application under Xvfb.
 *
 *   test-gui-canvas labels     dor on torus:8x8: picking a route (four
 *                              legend entries more) or switching channel
 *                              directions on leaves the network where it
 *                              is; the canvas' labels never overlap;
 *   test-gui-canvas export     Export Picture's dialog gives the page (size,
 *                              resolution, title); a canvas zoomed into a
 *                              corner exports the whole network at that
 *                              size, with its title;
 *   test-gui-canvas presenter  F5's action and Escape switch presenter mode:
 *                              the canvas' marks and the window's style
 *                              class; writes screenshots/presenter-mode.png.
 */
#include <glib/gstdio.h>

#include "flitlab-draw.h"
#include "flitlab-export-dialog.h"
#include "gui-harness.h"

static void
choose_routing (FlitlabWindow *window,
                const char    *name)
{
  CHECK (flitlab_routing_panel_set_routing (flitlab_window_get_routing_panel (window), name),
         "the chooser offers %s", name);
  CHECK (wait_until (window, is_idle), "%s is built and analysed", name);
}

static void
settle (void)
{
  for (int i = 0; i < 30; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (3000);
    }
}

static gboolean
same_view (const FlDrawView *a,
           const FlDrawView *b)
{
  return a->scale == b->scale && a->tx == b->tx && a->ty == b->ty;
}

static void
run_labels (FlitlabWindow *window)
{
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  FlDrawView before, after;
  int width, height;

  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page", g_variant_new_string ("routing"));
  show_generated (window, "torus:8x8");
  choose_routing (window, "dor");
  flitlab_document_set_overlays (DOC (window), FLITLAB_OVERLAY_TURNS | FLITLAB_OVERLAY_CYCLE);
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  settle ();
  flitlab_canvas_get_view (canvas, &before);
  flitlab_document_set_overlays (DOC (window), FLITLAB_OVERLAY_TURNS | FLITLAB_OVERLAY_CYCLE | FLITLAB_OVERLAY_PATHS);
  flitlab_document_set_route_endpoints (DOC (window), 0, 27);
  settle ();
  flitlab_canvas_get_view (canvas, &after);
  CHECK (same_view (&before, &after), "a route and its legend entries leave the network where it is");
  flitlab_document_set_overlays (DOC (window), FLITLAB_OVERLAY_TURNS | FLITLAB_OVERLAY_DIRECTIONS);
  settle ();
  flitlab_canvas_get_view (canvas, &after);
  CHECK (same_view (&before, &after), "so do channel directions switched on");

  /* The labels of what the canvas shows, drawn at its size. */
  choose_routing (window, "lturn-alpha");
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  settle ();
  width = gtk_widget_get_width (GTK_WIDGET (canvas));
  height = gtk_widget_get_height (GTK_WIDGET (canvas));
  {
    g_autofree char *path = g_build_filename (g_get_tmp_dir (), "flitlab-canvas-labels.png", NULL);
    FlDrawPage page;
    g_autoptr(GError) error = NULL;

    fl_draw_page_init (&page);
    page.width = width;
    page.height = height;
    CHECK (flitlab_canvas_export_page (canvas, path, &page, &error), "the canvas exports (%s)",
           error != NULL ? error->message : "ok");
    g_unlink (path);
  }
  save_and_forget (window);
}

/* The bounding box of the switches' blue in a picture, and the band of
 * dark pixels at its top. */
static void
picture_facts (const char *path,
               int        *w,
               int        *h,
               int         box[4],
               int        *title)
{
  cairo_surface_t *png = cairo_image_surface_create_from_png (path);
  int stride = cairo_image_surface_get_stride (png);
  const guint8 *data = cairo_image_surface_get_data (png);

  *w = cairo_image_surface_get_width (png);
  *h = cairo_image_surface_get_height (png);
  box[0] = *w, box[1] = *h, box[2] = -1, box[3] = -1;
  *title = 0;
  for (int y = 0; y < *h; y++)
    for (int x = 0; x < *w; x++)
      {
        const guint8 *p = data + y * stride + 4 * x;

        if (ABS (p[2] - 0x35) < 30 && ABS (p[1] - 0x84) < 30 && ABS (p[0] - 0xe4) < 30)
          {
            box[0] = MIN (box[0], x), box[1] = MIN (box[1], y);
            box[2] = MAX (box[2], x), box[3] = MAX (box[3], y);
          }
        if (y < 60 && p[0] < 120 && p[1] < 120 && p[2] < 120)
          (*title)++;
      }
  cairo_surface_destroy (png);
}

static void
run_export (FlitlabWindow *window)
{
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "flitlab-canvas-export.png", NULL);
  g_autoptr(GError) error = NULL;
  FlitlabExportDialog *ask;
  GtkWidget *row;
  FlDrawPage page;
  int w, h, box[4], title;

  show_generated (window, "torus:8x8");
  /* Zoomed into a corner: the canvas shows a few switches. */
  for (int i = 0; i < 5; i++)
    g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  settle ();

  g_action_group_activate_action (G_ACTION_GROUP (window), "export", NULL);
  ask = FLITLAB_EXPORT_DIALOG (wait_for_toplevel (FLITLAB_TYPE_EXPORT_DIALOG));
  CHECK (ask != NULL, "Export Picture asks for the page first");
  if (ask == NULL)
    return;
  row = find_widget (GTK_WIDGET (ask), ADW_TYPE_ENTRY_ROW, "Title (optional)");
  CHECK (row != NULL, "the dialog has a title row");
  if (row != NULL)
    gtk_editable_set_text (GTK_EDITABLE (row), "An 8x8 torus");
  row = find_widget (GTK_WIDGET (ask), ADW_TYPE_ACTION_ROW, "Width");
  if (row != NULL)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (find_widget (row, GTK_TYPE_SPIN_BUTTON, NULL)), 1400);
  row = find_widget (GTK_WIDGET (ask), ADW_TYPE_ACTION_ROW, "Height");
  if (row != NULL)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (find_widget (row, GTK_TYPE_SPIN_BUTTON, NULL)), 900);
  flitlab_export_dialog_get_page (ask, NULL, &page);
  CHECK (page.width == 1400 && page.height == 900 && page.dpi == 96
           && g_strcmp0 (page.title, "An 8x8 torus") == 0,
         "the dialog's rows make the page: %dx%d at %g dpi, \"%s\"", page.width, page.height, page.dpi,
         page.title != NULL ? page.title : "(none)");
  CHECK (g_str_equal (flitlab_export_dialog_get_format (ask), "png"), "PNG is the first format");
  flitlab_export_dialog_set_format (ask, "pdf");
  flitlab_export_dialog_get_page (ask, NULL, &page);
  CHECK (page.width == 842 && page.height == 595, "a PDF takes a page in points: A4 landscape first (%dx%d)",
         page.width, page.height);
  flitlab_export_dialog_set_format (ask, "png");
  flitlab_export_dialog_get_page (ask, NULL, &page);

  CHECK (flitlab_canvas_export_page (canvas, path, &page, &error), "the picture exports (%s)",
         error != NULL ? error->message : "ok");
  gtk_window_destroy (GTK_WINDOW (ask));
  picture_facts (path, &w, &h, box, &title);
  CHECK (w == 1400 && h == 900, "the PNG is 1400x900 as asked (%dx%d)", w, h);
  CHECK (box[0] > 5 && box[1] > 60 && box[2] < w - 5 && box[3] < h - 5 && box[2] - box[0] > 300,
         "the whole network is in it, clear of the edges, not the corner the canvas shows "
         "(switches from %d,%d to %d,%d)", box[0], box[1], box[2], box[3]);
  CHECK (title > 500, "the title is drawn at the top (%d dark pixels)", title);
  g_unlink (path);
  save_and_forget (window);
}

static gboolean
action_state (FlitlabWindow *window,
              const char    *name)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (window), name);

  return state != NULL && g_variant_get_boolean (state);
}

static gboolean
presenter_state (FlitlabWindow *window)
{
  return action_state (window, "presenter");
}

static void
run_presenter (FlitlabWindow *window)
{
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  FlDrawView view;

  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page", g_variant_new_string ("routing"));
  show_generated (window, "torus:8x8");
  choose_routing (window, "lturn-alpha");
  flitlab_document_set_overlays (DOC (window), FLITLAB_OVERLAY_TURNS);
  CHECK (!presenter_state (window) && !gtk_widget_has_css_class (GTK_WIDGET (window), "presenter"),
         "the window opens out of presenter mode");

  g_action_group_activate_action (G_ACTION_GROUP (window), "presenter", NULL);
  settle ();
  flitlab_canvas_get_view (canvas, &view);
  CHECK (presenter_state (window) && flitlab_canvas_get_presenter (canvas) && view.marks == FL_DRAW_PRESENTER,
         "win.presenter (F5) draws the canvas with the presenter's marks (%g)", view.marks);
  CHECK (gtk_widget_has_css_class (GTK_WIDGET (window), "presenter"),
         "and gives the window the presenter style class");
  CHECK (!action_state (window, "show-sidebar"), "the sidebar folds away");
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  flitlab_canvas_get_view (canvas, &view);
  CHECK (view.marks == FL_DRAW_PRESENTER, "zooming keeps the marks");
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  settle ();
  harness_screenshot (window, "presenter-mode.png");

  CHECK (press_shortcut (window, "Escape"), "Escape is a shortcut of the window");
  flitlab_canvas_get_view (canvas, &view);
  CHECK (!presenter_state (window) && view.marks == 1
           && !gtk_widget_has_css_class (GTK_WIDGET (window), "presenter"),
         "Escape leaves presenter mode");
  CHECK (action_state (window, "show-sidebar"), "the sidebar comes back");
  CHECK (!press_shortcut (window, "Escape"), "out of it, Escape is left to others");
  g_action_group_activate_action (G_ACTION_GROUP (window), "presenter", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "presenter", NULL);
  CHECK (!presenter_state (window), "F5 twice leaves it too");
  save_and_forget (window);
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "labels", run_labels },
    { "export", run_export },
    { "presenter", run_presenter },
  };

  return harness_main (argc, argv, "labels", scenarios, G_N_ELEMENTS (scenarios));
}
