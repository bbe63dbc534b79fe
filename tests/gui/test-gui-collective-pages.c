/* test-gui-collective-pages.c — the complete exchange and Myrinet
 * schedule pages of the Collectives tab, under Xvfb.
 *
 *   exchange   the page on a torus:8x8 document runs SEM in its worker;
 *              the slider moves the step; P(0,0)'s matrix after a step is
 *              fl_alltoall_holdings_text()'s; the figures are the step's; a
 *              click on a switch picks its processor; the overlay draws the
 *              step's paths; another torus is offered (show-network);
 *              64 x 64 runs without stalling the loop
 *   exchange-tab  the page in the window's Collectives tab on torus:8x8:
 *              the slider moves to step 3, whose paths the canvas draws;
 *              clicks reach the page; P(0,0)'s matrix is the engine's;
 *              writes
 *              screenshots/complete-exchange.png
 *   schedule   the schedule page on a myrinet-mesh:8x4 document colours
 *              a random permutation validly within floor(3/2 L_max)
 *              colours; one colour can be drawn alone; the phases run in
 *              the simulator, none delayed, their cycles in the chart;
 *              requests read from a file, a bad one refused by line; a
 *              linear array takes exactly L_max colours; another network
 *              is offered a Myrinet one
 *   schedule-tab  the page in the window on myrinet-mesh:8x4; writes
 *              screenshots/link-schedule.png
 */
#include <math.h>

#include "flitlab-collectives-panel.h"
#include "flitlab-exchange-page.h"
#include "flitlab-schedule-page.h"
#include "gui-harness.h"

/* A page in a window of its own, on a document of the network spec. */
typedef struct
{
  GtkWindow *window;
  GtkWidget *page;
  FlitlabDocument *document;
} Standalone;

static FlitlabDocument *
document_of_spec (const char *spec)
{
  FlTopology *t = NULL;
  FlError err;

  CHECK (fl_topology_from_spec (spec, &t, &err) == FL_OK, "%s builds", spec);
  return flitlab_document_new (t);
}

static void
standalone_open (Standalone *s,
                 GtkWidget  *page,
                 const char *spec)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  s->window = GTK_WINDOW (gtk_window_new ());
  s->page = page;
  s->document = document_of_spec (spec);
  gtk_window_set_default_size (s->window, 420, 760);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), page);
  gtk_window_set_child (s->window, scrolled);
  g_object_set (page, "document", s->document, NULL);
  gtk_window_present (s->window);
}

static void
standalone_close (Standalone *s)
{
  gtk_window_destroy (s->window);
  g_clear_object (&s->document);
}

/* Iterates the main loop until the object's boolean property name is
 * FALSE, or WAIT_SECONDS pass; counts the longest iteration. */
static gboolean
wait_while (gpointer    object,
            const char *name,
            gint64     *longest)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;
  gboolean busy = TRUE;

  for (;;)
    {
      gint64 start = g_get_monotonic_time ();

      g_object_get (object, name, &busy, NULL);
      if (!busy)
        return TRUE;
      if (start > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      if (longest != NULL)
        *longest = MAX (*longest, g_get_monotonic_time () - start);
      g_usleep (2000);
    }
}

/* Clicks the button under widget labelled label. */
static void
click_button (GtkWidget  *widget,
              const char *label)
{
  GtkWidget *text = find_label (widget, label);
  GtkWidget *button = text != NULL ? gtk_widget_get_ancestor (text, GTK_TYPE_BUTTON) : NULL;

  CHECK (button != NULL && gtk_widget_is_drawable (button), "a button reads %s", label);
  if (button != NULL)
    g_signal_emit_by_name (button, "clicked");
}

static void
iterate (void)
{
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* Complete exchange --------------------------------------------------------------- */

static int overlay_changes;
static char *shown_spec;

static void
overlay_changed_cb (void)
{
  overlay_changes++;
}

static void
show_network_cb (GObject    *page,
                 const char *spec)
{
  g_free (shown_spec);
  shown_spec = g_strdup (spec);
}

/* The matrix the engine gives for node after step. */
static char *
engine_matrix (const FlAllToAll *run,
               guint             step,
               int               node)
{
  char *text = NULL;
  char *copy;
  FlError err;

  if (fl_alltoall_holdings_text (run, step, node, &text, &err) != FL_OK)
    return g_strdup (err.message);
  copy = g_strdup (text);
  free (text);
  return copy;
}

typedef void (*DrawOverlay) (gpointer page, cairo_t *cr, const FlTopology *t, const FlDrawOptions *o);

/* Pixels of a page's overlay alone: the page draws over a picture of the
 * network, and whatever differs from the plain picture is its. */
static int
page_overlay_pixels (gpointer          page,
                     DrawOverlay       draw,
                     const FlTopology *t)
{
  cairo_surface_t *plain = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 400, 400);
  cairo_surface_t *over = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 400, 400);
  cairo_t *cr;
  FlDrawOptions o;
  int differ = 0;

  fl_draw_options_init (&o);
  fl_draw_view_fit (t, 400, 400, &o.view);
  cr = cairo_create (plain);
  fl_draw_topology (cr, t, &o);
  cairo_destroy (cr);
  cr = cairo_create (over);
  fl_draw_topology (cr, t, &o);
  draw (page, cr, t, &o);
  cairo_destroy (cr);
  cairo_surface_flush (plain);
  cairo_surface_flush (over);
  for (int y = 0; y < 400; y++)
    {
      int stride = cairo_image_surface_get_stride (plain);
      const guint32 *a = (const guint32 *) (cairo_image_surface_get_data (plain) + y * stride);
      const guint32 *b = (const guint32 *) (cairo_image_surface_get_data (over) + y * stride);

      for (int x = 0; x < 400; x++)
        differ += a[x] != b[x];
    }
  cairo_surface_destroy (plain);
  cairo_surface_destroy (over);
  return differ;
}

static int
overlay_pixels (FlitlabExchangePage *page,
                const FlTopology    *t)
{
  return page_overlay_pixels (page, (DrawOverlay) flitlab_exchange_page_draw_overlay, t);
}

static void
check_exchange_page (FlitlabExchangePage *page,
                     FlitlabDocument     *document)
{
  const FlAllToAll *run;
  GtkRange *slider;
  FlAllToAllStep st;
  g_autofree char *want = NULL;
  g_autofree char *messages = NULL;
  int before, paths = 0, ring;

  g_signal_connect (page, "overlay-changed", G_CALLBACK (overlay_changed_cb), NULL);
  CHECK (wait_while (page, "running", NULL), "SEM on 8x8 finishes");
  run = flitlab_exchange_page_get_run (page);
  CHECK (run != NULL && fl_alltoall_size (run) == 8 && fl_alltoall_algorithm (run) == FL_ALLTOALL_SEM,
         "the page ran SEM on 8x8");
  if (run == NULL)
    return;
  CHECK_INT (fl_alltoall_step_count (run), 8 / 4 + 5);
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "network"), "") == 0,
         "the document's torus:8x8 is the run's: %s", flitlab_exchange_page_get_value (page, "network"));
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "startups"), "7") == 0, "start-ups N/4 + 5 = 7: %s",
         flitlab_exchange_page_get_value (page, "startups"));
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "delivered"), "4032") == 0,
         "every block delivered: %s", flitlab_exchange_page_get_value (page, "delivered"));

  /* The slider, moved as a user drags it, to step 4. */
  slider = GTK_RANGE (find_widget (GTK_WIDGET (page), GTK_TYPE_SCALE, NULL));
  CHECK (slider != NULL && gtk_adjustment_get_upper (gtk_range_get_adjustment (slider)) == 7,
         "the slider runs from the start to step 7");
  if (slider == NULL)
    return;
  before = overlay_changes;
  gtk_range_set_value (slider, 4);
  iterate ();
  CHECK_INT (flitlab_exchange_page_get_step (page), 4);
  CHECK (overlay_changes > before, "moving the slider redraws the overlay");
  want = engine_matrix (run, 4, 0);
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "matrix"), want) == 0,
         "P(0,0)'s matrix after step 4 is the engine's (%zu characters)", strlen (want));
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "node"), "P(0,0)") == 0, "the node is P(0,0)");
  fl_alltoall_step (run, 4, &st, NULL);
  messages = g_strdup_printf ("%zu", st.messages);
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "messages"), messages) == 0, "the step's %s messages",
         messages);
  CHECK (g_str_has_prefix (flitlab_exchange_page_get_value (page, "step"), "Step 4 of 7: stage 2"),
         "the step is named: %s", flitlab_exchange_page_get_value (page, "step"));
  paths = overlay_pixels (page, flitlab_document_get_topology (document));
  CHECK (paths > 2000, "the step's paths are drawn (%d pixels)", paths);

  /* A click on the switch of P(2,3), and on a host of P(5,1). */
  CHECK (flitlab_exchange_page_node_activated (page, fl_draw_exchange_switch (flitlab_document_get_topology (document),
                                                                              8, 2 * 8 + 3)),
         "a switch click is used");
  g_free (want);
  want = engine_matrix (run, 4, 2 * 8 + 3);
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "matrix"), want) == 0
           && g_strcmp0 (flitlab_exchange_page_get_value (page, "node"), "P(2,3)") == 0,
         "the matrix is P(2,3)'s");
  CHECK (flitlab_exchange_page_node_activated (page, fl_topology_host_node (flitlab_document_get_topology (document),
                                                                            5 * 8 + 1))
           && flitlab_exchange_page_get_node (page) == 5 * 8 + 1,
         "a host click picks its switch's processor");

  /* The start: no paths, every node's own blocks. */
  gtk_range_set_value (slider, 0);
  iterate ();
  ring = overlay_pixels (page, flitlab_document_get_topology (document));
  CHECK (ring > 0 && ring < paths / 5, "the start draws the node's ring, no path (%d pixels)", ring);
  flitlab_exchange_page_set_node (page, 0);
  g_free (want);
  want = engine_matrix (run, 0, 0);
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "matrix"), want) == 0, "P(0,0) at the start");
}

static void
run_exchange (FlitlabWindow *window)
{
  Standalone s;
  gint64 longest = 0;
  FlitlabExchangePage *page;

  standalone_open (&s, flitlab_exchange_page_new (), "torus:8x8");
  page = FLITLAB_EXCHANGE_PAGE (s.page);
  g_signal_connect (page, "show-network", G_CALLBACK (show_network_cb), NULL);
  check_exchange_page (page, s.document);

  /* Direct exchange on 16 x 16: the network is not the run's. */
  CHECK (flitlab_exchange_page_set_run (page, FL_ALLTOALL_DIRECT, 16), "direct on 16x16 is taken");
  CHECK (!flitlab_exchange_page_set_run (page, FL_ALLTOALL_DIRECT, 64), "direct on 64x64 is refused");
  CHECK (wait_while (page, "running", NULL), "direct on 16x16 finishes");
  CHECK_INT (fl_alltoall_step_count (flitlab_exchange_page_get_run (page)), 255);
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "network"), "The network shown is not torus:16x16") == 0,
         "the page says the network is not the run's: %s", flitlab_exchange_page_get_value (page, "network"));
  CHECK (overlay_pixels (page, flitlab_document_get_topology (s.document)) == 0, "no path on another network");
  CHECK (!flitlab_exchange_page_node_activated (page, 0), "a click on another network is not used");
  click_button (GTK_WIDGET (page), "Show torus:16x16");
  CHECK (g_strcmp0 (shown_spec, "torus:16x16") == 0, "the button asks for torus:16x16 (%s)",
         shown_spec != NULL ? shown_spec : "nothing");

  /* SEM on 64 x 64 in the worker: the loop keeps turning. */
  CHECK (flitlab_exchange_page_set_run (page, FL_ALLTOALL_SEM, 64), "SEM on 64x64 is taken");
  CHECK (wait_while (page, "running", &longest), "SEM on 64x64 finishes");
  CHECK (longest < G_USEC_PER_SEC / 4, "no main-loop iteration took %.3f s", longest / 1e6);
  CHECK_INT (fl_alltoall_step_count (flitlab_exchange_page_get_run (page)), 64 / 4 + 5);
  standalone_close (&s);
  g_clear_pointer (&shown_spec, g_free);
}

/* The tab in the window ------------------------------------------------------------- */

static FlitlabCollectivesPanel *
panel_of (FlitlabWindow *window)
{
  return FLITLAB_COLLECTIVES_PANEL (find_widget (GTK_WIDGET (window), FLITLAB_TYPE_COLLECTIVES_PANEL, NULL));
}

/* Shows spec's network and the tab's page of kind. */
static GtkWidget *
show_page (FlitlabWindow *window,
           const char    *spec,
           const char    *kind)
{
  g_autoptr(GError) error = NULL;
  FlitlabCollectivesPanel *panel = panel_of (window);

  CHECK (flitlab_window_show_network_spec (window, spec, &error) && wait_until (window, is_idle_with_topology),
         "%s is made and shown (%s)", spec, error != NULL ? error->message : "ok");
  CHECK (wait_until (window, canvas_has_size), "the canvas is laid out");
  CHECK (panel != NULL && press_shortcut (window, "<Alt>4"), "Alt+4 shows the Collectives tab");
  if (panel == NULL)
    exit (tap_done ());
  CHECK (flitlab_collectives_panel_set_kind (panel, kind), "the tab has a page %s", kind);
  CHECK (flitlab_collectives_panel_get_document (panel) == DOC (window), "the tab shows the document shown");
  return flitlab_collectives_panel_get_page (panel, kind);
}

/* The canvas' picture with and without the tab's overlay differ. */
static int
canvas_overlay_pixels (FlitlabWindow *window)
{
  FlitlabCollectivesPanel *panel = panel_of (window);
  const FlTopology *t = flitlab_document_get_topology (DOC (window));
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 300, 300);
  cairo_t *cr = cairo_create (s);
  FlDrawOptions o;
  int coloured = 0;

  fl_draw_options_init (&o);
  fl_draw_view_fit (t, 300, 300, &o.view);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_paint (cr);
  flitlab_collectives_panel_draw_overlay (panel, cr, t, &o);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  for (int y = 0; y < 300; y++)
    {
      int stride = cairo_image_surface_get_stride (s);
      const guint32 *row = (const guint32 *) (cairo_image_surface_get_data (s) + y * stride);

      for (int x = 0; x < 300; x++)
        coloured += (row[x] & 0xffffff) != 0;
    }
  cairo_surface_destroy (s);
  return coloured;
}

/* Scrolls the side pane holding panel so that widget is near its top,
 * with the pane below it (the selection's properties) made small. */
static void
show_in_side_pane (GtkWidget *panel,
                   GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (panel, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *paned = gtk_widget_get_ancestor (panel, GTK_TYPE_PANED);
  graphene_point_t at;

  if (paned != NULL)
    gtk_paned_set_position (GTK_PANED (paned), gtk_widget_get_height (paned) - 90);
  iterate ();
  if (scrolled != NULL && widget != NULL
      && gtk_widget_compute_point (widget, panel, &GRAPHENE_POINT_INIT (0, 0), &at))
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)), at.y - 60);
  iterate ();
}

/* SEM on torus:8x8 in the tab: the canvas draws a step's paths, a click
 * on the canvas picks the node; the picture for the README. */
static void
run_exchange_tab (FlitlabWindow *window)
{
  GtkWidget *widget = show_page (window, "torus:8x8", "exchange");
  FlitlabExchangePage *page = FLITLAB_IS_EXCHANGE_PAGE (widget) ? FLITLAB_EXCHANGE_PAGE (widget) : NULL;
  FlitlabCollectivesPanel *panel = panel_of (window);
  g_autofree char *want = NULL;
  const FlTopology *t;

  CHECK (page != NULL, "the exchange page is the tab's");
  if (page == NULL)
    return;
  CHECK (wait_while (page, "running", NULL) && flitlab_exchange_page_get_run (page) != NULL,
         "SEM on 8x8 has run");
  t = flitlab_document_get_topology (DOC (window));
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "network"), "") == 0, "the network is the run's");
  gtk_range_set_value (GTK_RANGE (find_widget (GTK_WIDGET (page), GTK_TYPE_SCALE, NULL)), 3);
  iterate ();
  CHECK_INT (flitlab_exchange_page_get_step (page), 3);
  CHECK (canvas_overlay_pixels (window) > 1000, "the tab draws step 3's paths over the canvas");
  CHECK (flitlab_collectives_panel_node_activated (panel, fl_draw_exchange_switch (t, 8, 9))
           && flitlab_exchange_page_get_node (page) == 9,
         "a click on P(1,1)'s switch reaches the page");
  CHECK (flitlab_collectives_panel_node_activated (panel, fl_draw_exchange_switch (t, 8, 0)), "and on P(0,0)'s");
  want = engine_matrix (flitlab_exchange_page_get_run (page), 3, 0);
  CHECK (g_strcmp0 (flitlab_exchange_page_get_value (page, "matrix"), want) == 0, "P(0,0)'s matrix after step 3");
  show_in_side_pane (GTK_WIDGET (panel), find_widget (GTK_WIDGET (page), GTK_TYPE_SCALE, NULL));
  harness_screenshot (window, "complete-exchange.png");
  save_and_forget (window);
}

/* Link schedules ------------------------------------------------------------------ */

static int
schedule_pixels (FlitlabSchedulePage *page,
                 FlitlabDocument     *document)
{
  return page_overlay_pixels (page, (DrawOverlay) flitlab_schedule_page_draw_overlay,
                              flitlab_document_get_topology (document));
}

/* The colouring shown is valid, within the paper's bound for family. */
static void
check_colouring (FlitlabSchedulePage *page,
                 gboolean             mesh,
                 int                  requests)
{
  gboolean done = wait_while (page, "running", NULL);
  const FlSchedule *s = flitlab_schedule_page_get_schedule (page);
  int ncolors = 0;
  const int *colors = flitlab_schedule_page_get_colors (page, &ncolors);
  g_autofree char *count = NULL;
  FlError err;
  int l_max;

  CHECK (done && s != NULL, "a colouring is made: %s", flitlab_schedule_page_get_value (page, "error"));
  if (s == NULL)
    exit (tap_done ());
  l_max = fl_schedule_l_max (s);
  CHECK_INT (fl_schedule_request_count (s), requests);
  CHECK (fl_schedule_check (s, colors, &err) == FL_OK, "the colouring is valid");
  CHECK (g_strcmp0 (flitlab_schedule_page_get_value (page, "valid"), "yes") == 0, "the page says valid: %s",
         flitlab_schedule_page_get_value (page, "valid"));
  if (mesh)
    CHECK (ncolors >= l_max && ncolors <= 3 * l_max / 2, "%d colours within L_max = %d and floor(3/2 L_max)",
           ncolors, l_max);
  else
    CHECK (ncolors == l_max, "%d colours, exactly L_max = %d on a linear array", ncolors, l_max);
  count = g_strdup_printf ("%d", ncolors);
  CHECK (g_strcmp0 (flitlab_schedule_page_get_value (page, "colors"), count) == 0, "the page shows %s colours",
         count);
}

static void
check_phases (FlitlabSchedulePage *page)
{
  int ncolors = 0;
  FlDrawChart chart;
  g_auto(GStrv) lines = NULL;
  int undelayed = 0;

  flitlab_schedule_page_get_colors (page, &ncolors);
  flitlab_schedule_page_get_chart (page, &chart);
  CHECK (chart.rows == ncolors && chart.nbars == ncolors && chart.bars[ncolors - 1].end == ncolors,
         "the chart has a row and a slot per colour");
  CHECK (flitlab_schedule_page_run_phases (page), "the phases start");
  CHECK (wait_while (page, "running", NULL), "the phases end");
  lines = g_strsplit (flitlab_schedule_page_get_value (page, "phases"), "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    undelayed += g_str_has_suffix (lines[i], ", 0 delayed");
  CHECK ((int) g_strv_length (lines) == ncolors && undelayed == ncolors,
         "%d phases, %d with no request delayed: %s", g_strv_length (lines), undelayed,
         flitlab_schedule_page_get_value (page, "error"));
  flitlab_schedule_page_get_chart (page, &chart);
  CHECK (chart.nbars == ncolors && chart.bars[0].start >= 0 && chart.bars[ncolors - 1].end > ncolors
           && g_strcmp0 (chart.time_unit, "cycles") == 0,
         "the chart shows the phases' cycles (last ends at %.0f)", chart.bars[ncolors - 1].end);
}

/* Requests read from a file; a bad line refused in the engine's words. */
static void
check_file (FlitlabSchedulePage *page)
{
  g_autofree char *dir = g_dir_make_tmp ("flitlab-schedule-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (dir, "good.txt", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.txt", NULL);

  g_file_set_contents (good, "# two requests\n0 5\n3 9\n", -1, NULL);
  g_file_set_contents (bad, "0 5\n3 99\n", -1, NULL);
  flitlab_schedule_page_set_file (page, good);
  check_colouring (page, TRUE, 2);
  flitlab_schedule_page_set_file (page, bad);
  CHECK (wait_while (page, "running", NULL) && flitlab_schedule_page_get_schedule (page) == NULL
           && g_str_has_prefix (flitlab_schedule_page_get_value (page, "error"), "Could not read “bad.txt”: line 2: "),
         "a bad file is refused by line: %s", flitlab_schedule_page_get_value (page, "error"));
  g_unlink (good);
  g_unlink (bad);
  g_rmdir (dir);
}

static void
run_schedule (FlitlabWindow *window)
{
  Standalone s;
  FlitlabSchedulePage *page;
  int all, one, ncolors = 0;
  const int *colors;
  const FlTopology *t;

  standalone_open (&s, flitlab_schedule_page_new (), "myrinet-mesh:8x4");
  page = FLITLAB_SCHEDULE_PAGE (s.page);
  g_signal_connect (page, "show-network", G_CALLBACK (show_network_cb), NULL);
  t = flitlab_document_get_topology (s.document);
  flitlab_schedule_page_set_requests (page, FLITLAB_REQUESTS_PERMUTATION, 24, 7);
  check_colouring (page, TRUE, 24);
  all = schedule_pixels (page, s.document);
  flitlab_schedule_page_set_filter (page, 0);
  one = schedule_pixels (page, s.document);
  CHECK (all > 0 && one > 0 && one < all, "one colour draws less than all (%d of %d pixels)", one, all);
  flitlab_schedule_page_set_filter (page, -1);
  colors = flitlab_schedule_page_get_colors (page, &ncolors);
  CHECK (flitlab_schedule_page_node_activated (page, fl_topology_host_node (t, fl_schedule_request (
                                                       flitlab_schedule_page_get_schedule (page), 0).src)),
         "a click on a source host selects its request");
  CHECK (colors != NULL, "colours");
  check_phases (page);

  flitlab_schedule_page_set_algorithm (page, FL_SCHEDULE_EXACT);
  check_colouring (page, TRUE, 24);
  flitlab_schedule_page_set_requests (page, FLITLAB_REQUESTS_TOP_DOWN, 0, 3);
  check_colouring (page, TRUE, 10);
  flitlab_schedule_page_set_algorithm (page, FL_SCHEDULE_ASSIGNCOLOR);
  check_file (page);
  standalone_close (&s);

  /* A linear array: exactly L_max colours. */
  standalone_open (&s, flitlab_schedule_page_new (), "myrinet-line:8");
  page = FLITLAB_SCHEDULE_PAGE (s.page);
  flitlab_schedule_page_set_requests (page, FLITLAB_REQUESTS_UNIFORM, 18, 5);
  check_colouring (page, FALSE, 18);
  standalone_close (&s);

  /* A torus: nothing to colour, a Myrinet network offered. */
  standalone_open (&s, flitlab_schedule_page_new (), "torus:4x4");
  page = FLITLAB_SCHEDULE_PAGE (s.page);
  g_signal_connect (page, "show-network", G_CALLBACK (show_network_cb), NULL);
  iterate ();
  CHECK (flitlab_schedule_page_get_schedule (page) == NULL
           && g_strcmp0 (flitlab_schedule_page_get_value (page, "network"), "") != 0,
         "a torus is not scheduled: %s", flitlab_schedule_page_get_value (page, "network"));
  click_button (GTK_WIDGET (page), "Show myrinet-mesh:8x4");
  CHECK (g_strcmp0 (shown_spec, "myrinet-mesh:8x4") == 0, "the button asks for myrinet-mesh:8x4");
  standalone_close (&s);
  g_clear_pointer (&shown_spec, g_free);
}

/* The page in the window on myrinet-mesh:8x4, its picture. */
static void
run_schedule_tab (FlitlabWindow *window)
{
  GtkWidget *widget = show_page (window, "myrinet-mesh:8x4", "schedule");
  FlitlabSchedulePage *page = FLITLAB_IS_SCHEDULE_PAGE (widget) ? FLITLAB_SCHEDULE_PAGE (widget) : NULL;

  CHECK (page != NULL, "the schedule page is the tab's");
  if (page == NULL)
    return;
  flitlab_schedule_page_set_requests (page, FLITLAB_REQUESTS_PERMUTATION, 16, 2);
  check_colouring (page, TRUE, 16);
  CHECK (canvas_overlay_pixels (window) > 500, "the tab draws the requests over the canvas");
  check_phases (page);
  show_in_side_pane (GTK_WIDGET (panel_of (window)), find_widget (GTK_WIDGET (page), GTK_TYPE_GRID, NULL));
  harness_screenshot (window, "link-schedule.png");
  save_and_forget (window);
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "exchange", run_exchange },
    { "exchange-tab", run_exchange_tab },
    { "schedule", run_schedule },
    { "schedule-tab", run_schedule_tab },
  };

  return harness_main (argc, argv, "", scenarios, G_N_ELEMENTS (scenarios));
}
