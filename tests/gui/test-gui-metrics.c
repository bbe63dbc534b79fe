/* test-gui-metrics.c — a long exact bisection search in the window: the
 * Metrics panel's "Exact bisection up to" row (the engine's exact-max
 * option, 0 to 48) starts one on a 48-switch network that takes minutes;
 * the window keeps responding, the panel shows progress, and the header's
 * Stop button ends the search within a fraction of a second, leaving the
 * values shown as they were.
 *
 *   test-gui-metrics exact-cancel
 */
#include "gui-harness.h"
#include "flitlab-metrics-panel.h"

static gboolean
shows_big_network (FlitlabWindow *window)
{
  const char *name = flitlab_window_get_topology_name (window);

  return name != NULL && g_str_has_prefix (name, "irregular:48,ports=16")
         && !flitlab_window_get_busy (window);
}

static gboolean
shows_ring (FlitlabWindow *window)
{
  return g_strcmp0 (flitlab_window_get_topology_name (window), "ring:6") == 0
         && !flitlab_window_get_busy (window);
}

/* Iterates the main loop for seconds, as a user's session would, and
 * returns the longest any one iteration took: the window is frozen for as
 * long as an iteration runs. */
static double
iterate_for (double  seconds,
             int    *iterations)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  gint64 longest = 0;

  *iterations = 0;
  while (g_get_monotonic_time () < end)
    {
      gint64 start = g_get_monotonic_time ();

      g_main_context_iteration (NULL, FALSE);
      longest = MAX (longest, g_get_monotonic_time () - start);
      (*iterations)++;
      g_usleep (2000);
    }
  return longest / 1e6;
}

static void
run_exact_cancel (FlitlabWindow *window)
{
  FlitlabMetricsPanel *panel = flitlab_window_get_metrics_panel (window);
  GtkWidget *stop = find_button (GTK_WIDGET (window), "process-stop-symbolic");
  GtkWidget *row = find_widget (GTK_WIDGET (panel), ADW_TYPE_ACTION_ROW, "Exact bisection up to");
  GtkWidget *spin = row != NULL ? find_widget (row, GTK_TYPE_SPIN_BUTTON, NULL) : NULL;
  GtkWidget *bar = find_widget (GTK_WIDGET (panel), GTK_TYPE_PROGRESS_BAR, NULL);
  g_autofree char *before = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  int iterations = 0;
  double longest;
  gint64 clicked;
  double lower = 0, upper = 0;

  CHECK (row != NULL && spin != NULL && bar != NULL && stop != NULL,
         "the panel has the exact-max row with its spin button, and a progress bar");
  if (spin == NULL || bar == NULL || stop == NULL)
    return;
  gtk_spin_button_get_range (GTK_SPIN_BUTTON (spin), &lower, &upper);
  CHECK (lower == 0 && upper == FL_METRICS_EXACT_MAX
           && gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)) == FL_METRICS_EXACT_DEFAULT,
         "its range is the engine's, 0..%g, from the default %d", upper,
         gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)));

  flitlab_window_generate (window, "irregular:48,ports=16", NULL);
  CHECK (wait_until (window, shows_big_network), "irregular:48,ports=16 is generated and measured");
  before = g_strdup (flitlab_metrics_panel_get_value (panel, "bisection"));
  CHECK (before != NULL && g_str_has_prefix (before, "≤"),
         "48 switches are above the default limit: a METIS bound (%s)", before);

  /* The first frame of a new network is drawn once, before any search. */
  iterate_for (1.0, &iterations);
  /* As the user would: type 48 in the spin button. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), FL_METRICS_EXACT_MAX);
  CHECK (flitlab_metrics_panel_get_exact_max (panel) == FL_METRICS_EXACT_MAX,
         "the limit is now %d", flitlab_metrics_panel_get_exact_max (panel));
  CHECK (flitlab_window_get_busy (window) && gtk_widget_get_visible (stop),
         "the network is measured again, with the Stop button shown");

  longest = iterate_for (2.0, &iterations);
  CHECK (flitlab_window_get_busy (window), "after 2 s the search still runs");
  CHECK (iterations >= 100 && longest < 0.25,
         "the window kept responding: %d main-loop iterations, the longest %.3f s", iterations,
         longest);
  CHECK (gtk_widget_get_visible (bar) && gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)) > 0.0,
         "the panel shows the progress (%.3f)", gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)));

  clicked = g_get_monotonic_time ();
  g_signal_emit_by_name (stop, "clicked");
  CHECK (wait_until_seconds (window, is_idle, 5), "Stop ends the search");
  CHECK (g_get_monotonic_time () - clicked < G_USEC_PER_SEC, "within %.3f s of the click",
         (g_get_monotonic_time () - clicked) / 1e6);
  CHECK (!gtk_widget_get_visible (stop) && !gtk_widget_get_visible (bar),
         "the Stop button and the progress bar hide again");
  CHECK (g_strcmp0 (flitlab_metrics_panel_get_value (panel, "bisection"), before) == 0,
         "the values shown stay as they were: %s",
         flitlab_metrics_panel_get_value (panel, "bisection"));

  /* The window goes on working, with the limit the user chose. */
  flitlab_window_generate (window, "ring:6", NULL);
  CHECK (wait_until (window, shows_ring), "ring:6 is generated and measured");
  CHECK (g_strcmp0 (flitlab_metrics_panel_get_value (panel, "bisection"), "2") == 0
           || g_str_has_prefix (flitlab_metrics_panel_get_value (panel, "bisection"), "2 "),
         "its bisection is found: %s", flitlab_metrics_panel_get_value (panel, "bisection"));

  /* Saved, so that closing the window asks nothing. */
  dir = g_dir_make_tmp ("flitlab-gui-XXXXXX", NULL);
  path = dir != NULL ? g_build_filename (dir, "metrics.flitlab", NULL) : NULL;
  CHECK (path != NULL && flitlab_window_save_to_path (window, path, NULL), "the project saves");
  if (path != NULL)
    g_unlink (path);
  if (dir != NULL)
    g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "exact-cancel", run_exact_cancel },
  };

  return harness_main (argc, argv, "exact-cancel", scenarios, G_N_ELEMENTS (scenarios));
}
