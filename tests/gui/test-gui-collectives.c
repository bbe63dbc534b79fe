/* test-gui-collectives.c — the Collectives tab, as a class would use it.
 *
 * Scenarios (one per process, under Xvfb):
 *   multicast  mesh:6x6 routed by dor; Alt+4 shows the tab, whose kinds
 *              are pages of a stack, the canvas drawing the whole network
 *              for them; paper 001's example clicked on the canvas:
 *              OPT-mesh takes 130 and U-mesh 165, both without
 *              contention; a random pick; the tree simulated flit by flit
 *              and played in the Simulate tab; writes
 *              screenshots/multicast-tree.png; a mesh algorithm on a ring
 *              is refused in the engine's words
 */
#include <limits.h>

#include "flitlab-canvas.h"
#include "flitlab-collectives-panel.h"
#include "flitlab-multicast-page.h"
#include "gui-harness.h"

static FlitlabCollectivesPanel *
panel_of (FlitlabWindow *window)
{
  return FLITLAB_COLLECTIVES_PANEL (find_widget (GTK_WIDGET (window), FLITLAB_TYPE_COLLECTIVES_PANEL, NULL));
}

static void
show_mesh (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;

  CHECK (flitlab_window_show_network_spec (window, "mesh:6x6", &error) && wait_until (window, is_idle_with_topology),
         "mesh:6x6 is made and shown (%s)", error != NULL ? error->message : "ok");
  CHECK (flitlab_routing_panel_set_routing (flitlab_window_get_routing_panel (window), "dor")
           && wait_until (window, is_idle),
         "dor is chosen in the Routing tab and built");
}

static void
check_tab (FlitlabWindow *window)
{
  FlitlabCollectivesPanel *panel = panel_of (window);
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  GtkWindow *help;

  CHECK (panel != NULL, "the window has a collectives panel");
  if (panel == NULL)
    exit (tap_done ());
  CHECK (press_shortcut (window, "<Alt>4"), "Alt+4 is one of the window's shortcuts");
  CHECK (g_strcmp0 (side_page (window), "collectives") == 0, "Alt+4 shows the Collectives tab (%s)",
         side_page (window));
  CHECK (gtk_widget_is_drawable (GTK_WIDGET (panel)), "the panel is on screen");
  CHECK (flitlab_canvas_get_show_collectives (canvas), "the canvas draws for the collectives");
  CHECK (g_strcmp0 (flitlab_collectives_panel_get_kind (panel), "multicast") == 0
           && FLITLAB_IS_MULTICAST_PAGE (flitlab_collectives_panel_get_page (panel, "multicast")),
         "the multicast page shows first");
  CHECK (!flitlab_collectives_panel_set_kind (panel, "no-such-kind")
           && g_strcmp0 (flitlab_collectives_panel_get_kind (panel), "multicast") == 0,
         "an unknown kind is refused");
  CHECK (flitlab_collectives_panel_get_document (panel) == DOC (window), "the panel shows the document shown");

  CHECK (press_shortcut (window, "<Alt>3") && !flitlab_canvas_get_show_collectives (canvas),
         "leaving the tab gives the canvas back");
  press_shortcut (window, "<Alt>4");

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  help = GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  CHECK (help != NULL && find_label (GTK_WIDGET (help), "Show the collectives panel") != NULL,
         "the shortcuts window lists Alt+4");
  if (help != NULL)
    gtk_window_close (help);
}

static FlitlabMulticastPage *
page_of (FlitlabWindow *window)
{
  return FLITLAB_MULTICAST_PAGE (flitlab_collectives_panel_get_page (panel_of (window), "multicast"));
}

static const char *
value (FlitlabWindow *window,
       const char    *key)
{
  const char *text = flitlab_multicast_page_get_value (page_of (window), key);

  return text != NULL ? text : "(none)";
}

/* The switch at coordinates (a, b) of the network shown. */
static int
switch_at (FlitlabWindow *window,
           int            a,
           int            b)
{
  const FlTopology *t = flitlab_document_get_topology (DOC (window));

  for (int i = 0; i < fl_topology_switch_count (t); i++)
    {
      int c[FL_MAX_DIMS], node = fl_topology_switch_node (t, i);

      fl_topology_get_coords (t, node, c);
      if (c[0] == a && c[1] == b)
        return node;
    }
  return -1;
}

/* Clicks node on the canvas, as the pointer would. */
static void
click_node (FlitlabWindow *window,
            int            node)
{
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  FlDrawView view;
  double x, y;

  flitlab_canvas_get_view (canvas, &view);
  fl_draw_node_position (flitlab_document_get_topology (DOC (window)), node, &x, &y);
  fl_draw_view_to_device (&view, x, y, &x, &y);
  pointer_click (canvas_drag_gesture (canvas), x, y);
}

/* Paper 001's 6x6 example: the source (3,2), then seven destinations. */
static void
click_example (FlitlabWindow *window)
{
  static const int pts[8][2] = { { 3, 2 }, { 1, 5 }, { 2, 1 }, { 3, 4 }, { 4, 3 }, { 4, 4 }, { 5, 1 }, { 5, 4 } };
  int selected, link;

  for (int i = 0; i < 8; i++)
    click_node (window, switch_at (window, pts[i][0], pts[i][1]));
  flitlab_document_get_selection (DOC (window), &selected, &link);
  CHECK (selected < 0, "clicks on the canvas pick nodes rather than select them");
}

/* Pixels of the first step's colour in the canvas exported as a PNG. */
static int
exported_step_pixels (FlitlabWindow *window)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "flitlab-collectives-export.png", NULL);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *png;
  double rgb[3];
  int n = 0;

  if (!flitlab_canvas_export (flitlab_window_get_canvas (window), path, &error))
    return -1;
  png = cairo_image_surface_create_from_png (path);
  fl_draw_multicast_step_colour (1, rgb);
  for (int y = 0; y < cairo_image_surface_get_height (png); y++)
    for (int x = 0; x < cairo_image_surface_get_width (png); x++)
      {
        const guint8 *p = cairo_image_surface_get_data (png) + y * cairo_image_surface_get_stride (png) + 4 * x;

        n += ABS (p[2] - rgb[0] * 255) < 8 && ABS (p[1] - rgb[1] * 255) < 8 && ABS (p[0] - rgb[2] * 255) < 8;
      }
  cairo_surface_destroy (png);
  g_unlink (path);
  return n;
}

static void
check_tree (FlitlabWindow *window,
            const char    *algorithm,
            const char    *latency)
{
  CHECK (flitlab_multicast_page_set_algorithm (page_of (window), algorithm), "%s is one of the algorithms",
         algorithm);
  CHECK (g_strcmp0 (value (window, "latency"), latency) == 0, "%s takes %s on the example (got %s)", algorithm,
         latency, value (window, "latency"));
  CHECK (g_strcmp0 (value (window, "contention"), "none") == 0, "%s has no contention (%s)", algorithm,
         value (window, "contention"));
  CHECK (exported_step_pixels (window) > 50, "Export Picture draws the tree as the canvas does");
}

static gboolean
simulated (FlitlabWindow *window)
{
  return flitlab_multicast_page_get_simulated (page_of (window));
}

static gboolean
session_running (FlitlabWindow *window)
{
  FlitlabSimSession *session = flitlab_document_get_simulation (DOC (window));

  return session != NULL && flitlab_sim_session_get_cycle (session) > 100;
}

/* The page scrolled to its figures, the diagram in view, for the picture. */
static void
scroll_to_timing (FlitlabWindow *window)
{
  GtkWidget *page = GTK_WIDGET (page_of (window));
  GtkWidget *scrolled = gtk_widget_get_ancestor (page, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *figures = find_label (page, "Latency, model");
  graphene_point_t at;

  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  if (scrolled == NULL || figures == NULL
      || !gtk_widget_compute_point (figures, scrolled, &GRAPHENE_POINT_INIT (0, 0), &at))
    return;
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)),
                            at.y - 60);
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
count_flit (void             *user_data,
            const FlFlitView *flit)
{
  (*(int *) user_data)++;
}

static int
count_flits (const FlSim *sim)
{
  int n = 0;

  fl_sim_foreach_flit (sim, INT_MAX, count_flit, &n);
  return n;
}

static void
check_play (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *note = NULL;
  GtkWidget *costs = find_widget (GTK_WIDGET (page_of (window)), ADW_TYPE_EXPANDER_ROW, "From a message size");
  gint64 model;

  /* Paper 001's costs (section 4.2) for the model and the run alike. */
  CHECK (costs != NULL, "the page derives t_hold and t_end from a message size on request");
  if (costs != NULL)
    adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (costs), TRUE);
  CHECK (g_strcmp0 (value (window, "times"), "2256, 6396") == 0,
         "128 flits at s_s 2000, s_d 2, c_d 2, r_s 3500, r_d 3: t_hold 2256, t_end 6396 (%s)",
         value (window, "times"));
  model = g_ascii_strtoll (value (window, "latency"), NULL, 10);
  CHECK (flitlab_multicast_page_simulate (page_of (window), &error), "the tree is simulated flit by flit (%s)",
         error != NULL ? error->message : "ok");
  CHECK (wait_until (window, simulated), "the run ends");
  CHECK (g_ascii_strtoll (value (window, "simulated"), NULL, 10) >= model && model > 0,
         "the simulated latency (%s) shows beside the model's (%" G_GINT64_FORMAT "), no shorter",
         value (window, "simulated"), model);
  scroll_to_timing (window);
  harness_screenshot (window, "multicast-tree.png");
  CHECK (flitlab_multicast_page_play (page_of (window), &error), "the run plays (%s)",
         error != NULL ? error->message : "ok");
  CHECK (g_strcmp0 (side_page (window), "simulate") == 0, "Play shows the Simulate tab (%s)", side_page (window));
  CHECK (wait_until (window, session_running), "the Simulate tab plays the run");
  {
    FlitlabSimSession *session = flitlab_document_get_simulation (DOC (window));
    gint64 done = g_ascii_strtoll (value (window, "simulated"), NULL, 10);
    int in_flight, after;

    /* A run of some 15,000 cycles plays at 1000 cycles/s, not the
     * default 50: in seconds, not minutes. */
    CHECK (flitlab_sim_session_get_speed (session) == 1000, "the run plays at %g cycles/s, fast enough to watch "
           "whole", flitlab_sim_session_get_speed (session));
    /* The first worm leaves the source at t_hold = 2256; every message is
     * received by the run's latency, the last worm long gone. */
    flitlab_sim_session_set_playing (session, FALSE);
    flitlab_sim_session_seek (session, 2300, NULL);
    in_flight = count_flits (flitlab_sim_session_get_sim (session));
    flitlab_sim_session_seek (session, done, NULL);
    after = count_flits (flitlab_sim_session_get_sim (session));
    CHECK (in_flight > 0 && after == 0, "the replay has the first worm in flight at cycle 2300 (%d flits) and "
           "none left at the run's end, cycle %" G_GINT64_FORMAT " (%d)", in_flight, done, after);
  }
  g_object_get (page_of (window), "play-note", &note, NULL);
  CHECK (note != NULL && strstr (note, "opt-mesh") != NULL, "the transport bar says what plays: %s", note);
}

/* The spin button of the page's row titled title. */
static GtkSpinButton *
cost_spin (FlitlabWindow *window,
           const char    *title)
{
  GtkWidget *row = find_widget (GTK_WIDGET (page_of (window)), ADW_TYPE_ACTION_ROW, title);

  return row != NULL ? GTK_SPIN_BUTTON (find_widget (row, GTK_TYPE_SPIN_BUTTON, NULL)) : NULL;
}

/* Costs whose message the run would step through for more than 10^8
 * cycles are refused at once, as the command line refuses them, not run
 * until the page's cycle limit. */
static void
check_costs_bound (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  GtkSpinButton *size = cost_spin (window, "Size L (flits)");
  GtkSpinButton *per_flit = cost_spin (window, "s_d");
  gboolean started;

  CHECK (size != NULL && per_flit != NULL, "the page has the size and s_d rows");
  if (size == NULL || per_flit == NULL)
    return;
  gtk_spin_button_set_value (size, 1000000);
  gtk_spin_button_set_value (per_flit, 100000);
  started = flitlab_multicast_page_simulate (page_of (window), &error);
  CHECK (!started && error != NULL
           && strstr (error->message, "must be at most 100000000") != NULL
           && strstr (error->message, "steps through every cycle") != NULL
           && !flitlab_multicast_page_get_simulated (page_of (window)),
         "a message of 10^11 cycles is refused before it runs: %s", error != NULL ? error->message : "(ran)");
  gtk_spin_button_set_value (size, 128);
  gtk_spin_button_set_value (per_flit, 2);
}

static void
check_refused (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;

  CHECK (flitlab_window_show_network_spec (window, "ring:8", &error) && wait_until (window, is_idle),
         "ring:8 is shown");
  press_shortcut (window, "<Alt>4");
  click_node (window, fl_topology_switch_node (flitlab_document_get_topology (DOC (window)), 0));
  click_node (window, fl_topology_switch_node (flitlab_document_get_topology (DOC (window)), 3));
  flitlab_multicast_page_set_algorithm (page_of (window), "opt-mesh");
  CHECK (strstr (value (window, "error"), "mesh") != NULL && g_strcmp0 (value (window, "latency"), "—") == 0,
         "a mesh algorithm on a ring is refused in the engine's words: %s", value (window, "error"));
  flitlab_multicast_page_set_algorithm (page_of (window), "binomial");
  {
    int n = 0, k = 0;
    const int *dests;

    flitlab_multicast_page_pick_random (page_of (window), 5, 7);
    dests = flitlab_multicast_page_get_dests (page_of (window), &n);
    for (int i = 0; i < n; i++)
      k += dests[i] != flitlab_multicast_page_get_source (page_of (window)) && dests[i] >= 0 && dests[i] < 8;
    CHECK (n == 5 && k == 5 && flitlab_multicast_page_get_source (page_of (window)) >= 0,
           "a random pick of 5 keeps the source and draws 5 other hosts");
    flitlab_multicast_page_pick_random (page_of (window), 1, 1);
  }
  /* The costs stay chosen: t_end is 6396. */
  CHECK (g_strcmp0 (value (window, "error"), "") == 0 && g_strcmp0 (value (window, "latency"), "6396") == 0,
         "a binomial tree of one destination takes t_end (%s)", value (window, "latency"));
  check_costs_bound (window);
}

static void
run_multicast (FlitlabWindow *window)
{
  show_mesh (window);
  CHECK (wait_until (window, canvas_has_size), "the canvas is laid out");
  check_tab (window);
  click_example (window);
  check_tree (window, "u-mesh", "165");
  check_tree (window, "opt-mesh", "130");
  check_play (window);
  check_refused (window);
  save_and_forget (window);
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "multicast", run_multicast },
  };

  return harness_main (argc, argv, "multicast", scenarios, G_N_ELEMENTS (scenarios));
}
