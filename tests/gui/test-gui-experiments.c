/* test-gui-experiments.c — the Experiments view, as a researcher uses it.
 *
 * Scenarios (one per process, under Xvfb):
 *   experiments  Alt+5 on an untitled project asks for a save; mesh:4x4
 *                with a short measurement, saved; an experiment of
 *                2 routings x 3 rates x 2 seeds made in the dialog (a bad
 *                range refused under its row, a routing the mesh does not
 *                take refused at Create), run to the end off the main
 *                loop; the runs table sorted and filtered; a plot composed,
 *                its preview drawn, exported as PDF and saved; writes
 *                screenshots/experiment.png; a run opened in the Simulate
 *                tab; a second experiment named as the first refused in an
 *                alert over the dialog, renamed, stopped part-way and
 *                resumed
 *   close-running  closing the window while an experiment runs stops it
 *                cleanly, and the runs finished are in the file
 *   damaged-run    an experiment whose runs in the file are damaged is
 *                listed as such with its message, the other opens
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "flitlab-collectives-panel.h"
#include "flitlab-experiment-dialog.h"
#include "flitlab-experiments-view.h"
#include "flitlab-io.h"
#include "flitlab-multicast-page.h"
#include "flitlab-plot-composer.h"
#include "flitlab-plot-preview.h"
#include "flitlab-run-item.h"
#include "flitlab-runs-table.h"
#include "gui-harness.h"

static char *tmp_dir;

static FlitlabExperimentsView *
view_of (FlitlabWindow *window)
{
  return flitlab_window_get_experiments_view (window);
}

static const char *
main_page (FlitlabWindow *window)
{
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (view_of (window)), GTK_TYPE_STACK);

  return stack != NULL ? gtk_stack_get_visible_child_name (GTK_STACK (stack)) : "(none)";
}

static gboolean
not_running (FlitlabWindow *window)
{
  return !flitlab_experiments_view_get_running (view_of (window));
}

static gint64 wanted_held;

static gboolean
holds_wanted (FlitlabWindow *window)
{
  FlitlabRunsTable *table = flitlab_experiments_view_get_table (view_of (window));
  GListModel *shown = flitlab_runs_table_get_shown (table);
  gint64 held = 0;

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(FlitlabRunItem) item = g_list_model_get_item (shown, i);

      held += g_strcmp0 (flitlab_run_item_get_status (item), "missing") != 0;
    }
  return held >= wanted_held;
}

static FlitlabRunItem *
shown_item (FlitlabWindow *window,
            guint          i)
{
  return g_list_model_get_item (flitlab_runs_table_get_shown (flitlab_experiments_view_get_table (view_of (window))),
                                i);
}

/* mesh:4x4 with runs of a few hundred cycles, saved into the temporary
 * folder. */
static void
set_up_network (FlitlabWindow *window,
                const char    *measure)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "experiments.flitlab", NULL);
  FlSimSettings settings;

  CHECK (flitlab_window_show_network_spec (window, "mesh:4x4", &error) && wait_until (window, is_idle_with_topology),
         "mesh:4x4 is made and shown (%s)", error != NULL ? error->message : "ok");
  fl_sim_settings_copy (&settings, flitlab_document_get_sim_settings (DOC (window)), NULL);
  fl_sim_settings_set (&settings, "warmup", "100", NULL);
  fl_sim_settings_set (&settings, "measure", measure, NULL);
  fl_sim_settings_set (&settings, "packet", "4", NULL);
  flitlab_document_set_sim_settings (DOC (window), &settings);
  fl_sim_settings_clear (&settings);
  CHECK (flitlab_window_save_to_path (window, path, &error), "the project is saved (%s)",
         error != NULL ? error->message : "ok");
}

static void
check_untitled (FlitlabWindow *window)
{
  CHECK (press_shortcut (window, "<Alt>5"), "Alt+5 is one of the window's shortcuts");
  CHECK (g_strcmp0 (main_page (window), "experiments") == 0, "Alt+5 shows the experiments (%s)", main_page (window));
  CHECK (shows_label (GTK_WIDGET (view_of (window)), "Save the Project First"),
         "an untitled project asks to be saved first");
  CHECK (!g_action_group_get_action_enabled (G_ACTION_GROUP (window), "new-experiment"),
         "no experiment is made in an untitled project");
  CHECK (press_shortcut (window, "<Alt>3") && g_strcmp0 (main_page (window), "network") == 0,
         "Alt+3 goes back to the network");
}

static FlitlabExperimentDialog *
open_dialog (FlitlabWindow *window)
{
  FlitlabExperimentDialog *dialog = flitlab_window_new_experiment (window);

  CHECK (dialog != NULL, "the new-experiment dialog opens");
  if (dialog == NULL)
    exit (tap_done ());
  CHECK (wait_for_toplevel (FLITLAB_TYPE_EXPERIMENT_DIALOG) != NULL, "the dialog is shown");
  return dialog;
}

static void
create_sweep (FlitlabWindow *window)
{
  FlitlabExperimentDialog *dialog = open_dialog (window);
  g_autoptr(GError) error = NULL;
  gboolean created;

  CHECK (flitlab_experiment_dialog_get_n_parameters (dialog) == 1
           && flitlab_experiment_dialog_get_runs (dialog) == 5,
         "it starts with the rate over 5 values (%" G_GINT64_FORMAT " runs)",
         flitlab_experiment_dialog_get_runs (dialog));
  flitlab_experiment_dialog_set_name (dialog, "sweep");
  CHECK (flitlab_experiment_dialog_set_parameter (dialog, 0, "routing", "dor,updown")
           && flitlab_experiment_dialog_set_parameter (dialog, 1, "rate", "0.3:0.1:0.1"),
         "the routing and the rate are varied");
  CHECK (flitlab_experiment_dialog_get_error (dialog, 1)[0] != '\0' && flitlab_experiment_dialog_get_runs (dialog) == 0,
         "a range going down is refused under its row: %s", flitlab_experiment_dialog_get_error (dialog, 1));
  flitlab_experiment_dialog_set_parameter (dialog, 1, "rate", "0.05:0.15:0.05");
  flitlab_experiment_dialog_set_seeds (dialog, 1, 2);
  CHECK (flitlab_experiment_dialog_get_error (dialog, 1)[0] == '\0', "the fixed range is taken");
  CHECK_INT (flitlab_experiment_dialog_get_runs (dialog), 12);

  /* A routing the mesh does not take passes the rows, and is refused at
   * Create with the check `experiment new` makes: nothing is kept, the
   * dialog stays. */
  flitlab_experiment_dialog_set_parameter (dialog, 0, "routing", "dor,xmesh");
  created = flitlab_experiment_dialog_create (dialog, &error);
  CHECK (!created && error != NULL
           && strstr (error->message, "the design cannot run: run 6 (routing=xmesh, rate=0.05): xmesh") != NULL,
         "a design that cannot run is refused at Create: %s", error != NULL ? error->message : "created");
  g_clear_error (&error);
  {
    g_autofree char *path = g_build_filename (tmp_dir, "experiments.flitlab", NULL);
    FlProject *file = NULL;
    FlProjectExperiment e = { 0 };

    CHECK (fl_project_open (path, &file, NULL) == FL_OK
             && fl_project_get_experiment (file, "sweep", &e, NULL) == FL_ENOTFOUND,
           "and not kept");
    fl_project_experiment_clear (&e);
    fl_project_free (file);
  }
  CHECK (wait_for_toplevel (FLITLAB_TYPE_EXPERIMENT_DIALOG) != NULL, "the dialog stays open");
  flitlab_experiment_dialog_set_parameter (dialog, 0, "routing", "dor,updown");
  CHECK (flitlab_experiment_dialog_create (dialog, &error), "the experiment is created (%s)",
         error != NULL ? error->message : "ok");
  CHECK (g_strcmp0 (main_page (window), "experiments") == 0
           && g_strcmp0 (flitlab_experiments_view_get_selected (view_of (window)), "sweep") == 0,
         "the view shows the new experiment");
  CHECK_INT (count_status (window, "missing"), 12);
}

static void
run_sweep (FlitlabWindow *window)
{
  FlitlabExperimentsView *view = view_of (window);

  CHECK (flitlab_experiments_view_run (view) && flitlab_experiments_view_get_running (view), "the experiment runs");
  CHECK (wait_until (window, not_running), "it runs to the end, the window live meanwhile");
  CHECK_INT (count_status (window, "done") + count_status (window, "stopped"), 12);
  CHECK (g_str_has_prefix (flitlab_experiments_view_get_progress_text (view), "12 of 12 runs"),
         "the progress reads: %s", flitlab_experiments_view_get_progress_text (view));
}

static void
check_table (FlitlabWindow *window)
{
  FlitlabRunsTable *table = flitlab_experiments_view_get_table (view_of (window));
  GListModel *shown = flitlab_runs_table_get_shown (table);
  g_autoptr(FlitlabRunItem) first = NULL;
  g_autoptr(FlitlabRunItem) last = NULL;
  guint columns = g_list_model_get_n_items (gtk_column_view_get_columns (flitlab_runs_table_get_view (table)));

  CHECK_INT (g_list_model_get_n_items (shown), 12);
  CHECK (columns == 8, "run, status, routing, rate, seed and three results are columns (%u)", columns);
  CHECK (flitlab_runs_table_sort_by (table, "Latency", GTK_SORT_DESCENDING), "the table sorts by latency");
  first = shown_item (window, 0);
  last = shown_item (window, 11);
  CHECK (flitlab_run_item_get_result (first, FLITLAB_RUN_LATENCY)
             >= flitlab_run_item_get_result (last, FLITLAB_RUN_LATENCY)
           && !isnan (flitlab_run_item_get_result (first, FLITLAB_RUN_LATENCY)),
         "highest latency first: %.2f then %.2f", flitlab_run_item_get_result (first, FLITLAB_RUN_LATENCY),
         flitlab_run_item_get_result (last, FLITLAB_RUN_LATENCY));
  g_clear_object (&first);
  CHECK (flitlab_runs_table_sort_by (table, "rate", GTK_SORT_DESCENDING), "the table sorts by rate");
  first = shown_item (window, 0);
  CHECK (g_strcmp0 (flitlab_run_item_get_value (first, 1), "0.15") == 0, "the highest rate first (%s)",
         flitlab_run_item_get_value (first, 1));

  flitlab_runs_table_set_search (table, "updown");
  CHECK_INT (g_list_model_get_n_items (shown), 6);
  flitlab_runs_table_set_search (table, "dor 0.10");
  CHECK_INT (g_list_model_get_n_items (shown), 2);
  flitlab_runs_table_set_search (table, "");
  flitlab_runs_table_set_status (table, "failed");
  CHECK_INT (g_list_model_get_n_items (shown), 0);
  flitlab_runs_table_set_status (table, NULL);
  CHECK_INT (g_list_model_get_n_items (shown), 12);
  flitlab_runs_table_sort_by (table, "Run", GTK_SORT_ASCENDING);
}

/* Coloured pixels of the PNG at path. */
static int
inked_file (const char *path)
{
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (path, NULL);
  g_autofree guchar *pixels = NULL;
  int width, height, inked = 0;

  if (texture == NULL)
    return 0;
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  pixels = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (int i = 0; i < width * height; i++)
    {
      const guchar *p = pixels + 4 * i;

      inked += abs (p[0] - p[1]) > 40 || abs (p[1] - p[2]) > 40;
    }
  return inked;
}

static void
check_plot (FlitlabWindow *window)
{
  FlitlabPlotComposer *composer = flitlab_experiments_view_get_composer (view_of (window));
  FlitlabPlotPreview *preview = flitlab_experiments_view_get_preview (view_of (window));
  g_autofree char *pdf = g_build_filename (tmp_dir, "latency.pdf", NULL);
  g_autofree char *png = g_build_filename (tmp_dir, "latency.png", NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;
  int inked;

  CHECK (flitlab_plot_composer_set_axes (composer, "cycle", "accepted", "routing"),
         "cycle on x offers the runs' series on y");
  CHECK (flitlab_plot_preview_get_n_points (preview) > 12, "a point per sample of each routing (%d)",
         flitlab_plot_preview_get_n_points (preview));
  CHECK (!flitlab_plot_composer_set_axes (composer, "cycle", "latency_avg", NULL),
         "a scalar result is not offered over cycles");
  CHECK (flitlab_plot_composer_set_axes (composer, "rate", "latency_avg", "routing"),
         "rate on x, the mean latency on y, a series per routing");
  CHECK (!flitlab_plot_composer_set_axes (composer, "vcs", "latency_avg", NULL),
         "a parameter not varied is not offered");
  CHECK_INT (flitlab_plot_preview_get_n_points (preview), 6);
  /* What the preview draws is the exported figure (the same FlDrawPlot at
   * the same paper size); reading the PNG does not hang on the frame clock,
   * which paints the widget itself only when the next frame comes. */
  CHECK (flitlab_plot_composer_export (composer, png, &error), "the plot exports as PNG (%s)",
         error != NULL ? error->message : "ok");
  inked = inked_file (png);
  g_unlink (png);
  CHECK (inked > 200, "the figure draws the curves in colour (%d pixels)", inked);

  CHECK (flitlab_plot_composer_export (composer, pdf, &error), "the plot exports as PDF (%s)",
         error != NULL ? error->message : "ok");
  CHECK (g_file_get_contents (pdf, &contents, &length, NULL) && length > 5 && memcmp (contents, "%PDF-", 5) == 0,
         "the file is a PDF");
  g_unlink (pdf);
  CHECK (flitlab_plot_composer_save (composer, "latency", &error)
           && g_list_model_get_n_items (flitlab_plot_composer_get_saved (composer)) == 2,
         "the plot is saved under its name and listed (%s)", error != NULL ? error->message : "ok");
}

static void
check_open_run (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FlitlabRunItem) item = shown_item (window, 9);
  char rate[64];
  double want;

  CHECK (flitlab_window_open_run (window, "sweep", 9, &error), "run 9 opens (%s)",
         error != NULL ? error->message : "ok");
  CHECK (g_strcmp0 (main_page (window), "network") == 0, "the network shows");
  fl_sim_settings_format (flitlab_document_get_sim_settings (DOC (window)), "rate", rate, sizeof rate);
  want = g_ascii_strtod (flitlab_run_item_get_value (item, 1), NULL);
  CHECK (fabs (g_ascii_strtod (rate, NULL) - want) < 1e-12, "the Simulate settings take its rate (%s, run: %s)", rate,
         flitlab_run_item_get_value (item, 1));
  CHECK (g_strcmp0 (flitlab_document_get_routing (DOC (window)), flitlab_run_item_get_value (item, 0)) == 0,
         "and its routing (%s)", flitlab_document_get_routing (DOC (window)));
  CHECK (wait_until (window, is_idle), "its routing is built");
  press_shortcut (window, "<Alt>5");
}

/* A multicast run opens on the Collectives tab's multicast page: its
 * algorithm, its message, and the source and destinations its seed draws,
 * as fl_multicast_run() draws them. */
static void
check_open_multicast_run (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  const FlTopology *t = flitlab_document_get_topology (DOC (window));
  FlError err = { 0 };
  char *network = fl_io_write_json_string (t, &err);
  FlitlabCollectivesPanel *panel = FLITLAB_COLLECTIVES_PANEL (
    find_widget (GTK_WIDGET (window), FLITLAB_TYPE_COLLECTIVES_PANEL, NULL));
  FlitlabMulticastPage *page;
  const int *dests;
  int n = 0, source = -1, want[5];

  g_autofree char *path = g_build_filename (tmp_dir, "experiments.flitlab", NULL);
  FlProject *file = NULL;

  /* Made in the file by another process, as `flitlab experiment new` would. */
  CHECK (network != NULL && fl_project_open (path, &file, &err) == FL_OK
           && fl_project_create_experiment (file, "mc", "mesh:4x4", network,
                                            "set mode=multicast\nset random=5\nset max-packet=16\n"
                                            "vary algorithm=binomial,opt-tree\nseeds 3:4\n",
                                            4, &err) == FL_OK,
         "a multicast experiment (%s)", err.message);
  fl_project_free (file);
  free (network);
  CHECK (flitlab_window_open_run (window, "mc", 3, &error), "its run 3 opens (%s)",
         error != NULL ? error->message : "ok");
  page = FLITLAB_MULTICAST_PAGE (flitlab_collectives_panel_get_page (panel, "multicast"));
  CHECK (g_strcmp0 (side_page (window), "collectives") == 0
           && g_strcmp0 (flitlab_collectives_panel_get_kind (panel), "multicast") == 0,
         "on the Collectives tab's multicast page (%s)", side_page (window));
  /* Run 3: opt-tree, seed 4. */
  fl_multicast_random_nodes (fl_topology_host_count (t), 5, 4, &source, want, NULL);
  dests = flitlab_multicast_page_get_dests (page, &n);
  CHECK (n == 5 && flitlab_multicast_page_get_source (page) == source && memcmp (dests, want, sizeof want) == 0,
         "the source and 5 destinations seed 4 draws (source %d)", flitlab_multicast_page_get_source (page));
  CHECK (wait_until (window, is_idle), "its routing is built");
  CHECK (flitlab_multicast_page_get_value (page, "error") != NULL
           && flitlab_multicast_page_get_value (page, "error")[0] == '\0',
         "its tree is shown (%s)", flitlab_multicast_page_get_value (page, "error"));
  press_shortcut (window, "<Alt>5");
}

static void
check_resume (FlitlabWindow *window)
{
  FlitlabExperimentsView *view = view_of (window);
  FlitlabExperimentDialog *dialog = open_dialog (window);
  g_autoptr(GError) error = NULL;
  AdwMessageDialog *alert;
  guint held;

  flitlab_experiment_dialog_set_parameter (dialog, 0, "rate", "0.02:0.2:0.02");
  flitlab_experiment_dialog_set_seeds (dialog, 1, 4);
  /* A name taken: Create says why over the dialog, which stays open. */
  flitlab_experiment_dialog_set_name (dialog, "sweep");
  gtk_widget_activate (find_button (GTK_WIDGET (dialog), "C_reate"));
  alert = harness_wait_for_alert (GTK_WINDOW (dialog), WAIT_SECONDS);
  CHECK (alert != NULL && g_strcmp0 (adw_message_dialog_get_heading (alert), "Could Not Create the Experiment") == 0
           && strstr (adw_message_dialog_get_body (alert), "sweep") != NULL
           && harness_alert_shows_all (alert, GTK_WINDOW (dialog)),
         "a second “sweep” is refused in an alert over the dialog: %s",
         alert != NULL ? adw_message_dialog_get_body (alert) : "(none)");
  CHECK (harness_alert (GTK_WINDOW (window)) == NULL, "not over the window");
  CHECK (harness_close_alert (GTK_WINDOW (dialog)) && gtk_widget_get_mapped (GTK_WIDGET (dialog)),
         "the alert closes, the dialog stays");
  flitlab_experiment_dialog_set_name (dialog, "long");
  CHECK (flitlab_experiment_dialog_create (dialog, &error), "a second experiment of %" G_GINT64_FORMAT " runs",
         (gint64) 40);
  CHECK (flitlab_experiments_view_run (view), "it runs");
  wanted_held = 2;
  CHECK (wait_until (window, holds_wanted), "runs come in");
  flitlab_experiments_view_cancel (view);
  CHECK (wait_until (window, not_running), "Stop ends the run");
  held = 40 - count_status (window, "missing");
  CHECK (held >= 2 && held < 40, "part of the runs are in the file (%u)", held);
  CHECK (strstr (flitlab_experiments_view_get_progress_text (view), "stopped") != NULL,
         "the progress says so: %s", flitlab_experiments_view_get_progress_text (view));
  CHECK (flitlab_experiments_view_run (view), "resume runs the rest");
  CHECK (wait_until (window, not_running), "to the end");
  CHECK (count_status (window, "missing") == 0, "every run is in the file (%u missing; %s)",
         count_status (window, "missing"), flitlab_experiments_view_get_progress_text (view));
}

/* Shows or hides the runs table's column titled title. */
static gboolean
show_column (FlitlabWindow *window,
             const char    *title,
             gboolean       visible)
{
  GtkWidget *table = find_widget (GTK_WIDGET (view_of (window)), GTK_TYPE_COLUMN_VIEW, NULL);
  GListModel *columns = table != NULL ? gtk_column_view_get_columns (GTK_COLUMN_VIEW (table)) : NULL;

  for (guint i = 0; columns != NULL && i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        {
          gtk_column_view_column_set_visible (column, visible);
          return TRUE;
        }
    }
  return FALSE;
}

static void
run_experiments (FlitlabWindow *window)
{
  tmp_dir = g_dir_make_tmp ("flitlab-experiments-XXXXXX", NULL);
  check_untitled (window);
  set_up_network (window, "300");
  CHECK (press_shortcut (window, "<Alt>5") && shows_label (GTK_WIDGET (view_of (window)), "No Experiments"),
         "a saved project without experiments offers to make one");
  create_sweep (window);
  run_sweep (window);
  check_table (window);
  check_plot (window);
  /* The wall times differ from run to run; the picture must not. */
  CHECK (show_column (window, "Wall Time (s)", FALSE), "the table has a Wall Time column");
  harness_screenshot (window, "experiment.png");
  show_column (window, "Wall Time (s)", TRUE);
  check_open_run (window);
  check_open_multicast_run (window);
  check_resume (window);
  save_and_forget (window);
}

static void
close_running (FlitlabWindow *window)
{
  FlitlabExperimentDialog *dialog;
  g_autofree char *path = NULL;
  FlProject *project = NULL;
  int64_t *idx = NULL;
  int n = 0;

  tmp_dir = g_dir_make_tmp ("flitlab-experiments-XXXXXX", NULL);
  set_up_network (window, "20000");
  path = g_build_filename (tmp_dir, "experiments.flitlab", NULL);
  dialog = open_dialog (window);
  flitlab_experiment_dialog_set_parameter (dialog, 0, "rate", "0.01:0.4:0.01");
  flitlab_experiment_dialog_set_name (dialog, "closing");
  flitlab_experiment_dialog_create (dialog, NULL);
  CHECK (flitlab_experiments_view_run (view_of (window)), "an experiment of 40 runs runs");
  wanted_held = 1;
  CHECK (wait_until (window, holds_wanted), "a run comes in");
  gtk_window_close (GTK_WINDOW (window));
  CHECK (fl_project_open (path, &project, NULL) == FL_OK
           && fl_project_list_runs (project, "closing", FL_RUN_DONE, &idx, &n, NULL) == FL_OK && n >= 1 && n < 40,
         "the window closed at once, and the file holds the runs finished (%d)", n);
  free (idx);
  fl_project_free (project);
}

/* Adds a run the design does not have to experiment name of the file at
 * path, as a damaged file holds it. */
static void
spoil_runs (const char *path,
            const char *name)
{
  sqlite3 *db = NULL;
  g_autofree char *sql = g_strdup_printf ("INSERT INTO run (experiment_id, idx, status, seed, config, version, host, "
                                          "started, wall_s) SELECT id, 99, 'done', 1, '', '', '', '', 0 "
                                          "FROM experiment WHERE name = '%s'", name);

  CHECK (sqlite3_open (path, &db) == SQLITE_OK && sqlite3_exec (db, sql, NULL, NULL, NULL) == SQLITE_OK,
         "run 99 is added to %s by hand (%s)", name, sqlite3_errmsg (db));
  sqlite3_close (db);
}

static const char *
row_subtitle (FlitlabWindow *window,
              const char    *name)
{
  GtkWidget *row = find_widget (GTK_WIDGET (view_of (window)), ADW_TYPE_ACTION_ROW, name);

  return row != NULL ? adw_action_row_get_subtitle (ADW_ACTION_ROW (row)) : "(no row)";
}

static void
damaged_run (FlitlabWindow *window)
{
  FlitlabExperimentsView *view = view_of (window);
  FlitlabExperimentDialog *dialog;
  g_autofree char *path = NULL;
  GtkWidget *row;
  const char *tip;

  tmp_dir = g_dir_make_tmp ("flitlab-experiments-XXXXXX", NULL);
  set_up_network (window, "300");
  path = g_build_filename (tmp_dir, "experiments.flitlab", NULL);
  dialog = open_dialog (window);
  flitlab_experiment_dialog_set_name (dialog, "kept");
  CHECK (flitlab_experiment_dialog_create (dialog, NULL), "experiment kept is made");
  dialog = open_dialog (window);
  flitlab_experiment_dialog_set_name (dialog, "spoilt");
  CHECK (flitlab_experiment_dialog_create (dialog, NULL), "experiment spoilt is made");
  spoil_runs (path, "spoilt");
  flitlab_experiments_view_refresh (view);

  row = find_widget (GTK_WIDGET (view), ADW_TYPE_ACTION_ROW, "spoilt");
  tip = row != NULL ? gtk_widget_get_tooltip_text (row) : NULL;
  CHECK (g_str_has_prefix (row_subtitle (window, "spoilt"), "Damaged · ")
           && tip != NULL && strstr (tip, "experiment 'spoilt', run 99: the design has runs 0 to 4 only") != NULL,
         "the damaged experiment is listed as such (%s), its message its tooltip: %s",
         row_subtitle (window, "spoilt"), tip != NULL ? tip : "none");
  CHECK (!g_str_has_prefix (row_subtitle (window, "kept"), "Damaged"),
         "the other is listed as it is: %s", row_subtitle (window, "kept"));
  flitlab_experiments_view_select (view, "kept");
  CHECK (count_status (window, "missing") == 5, "the other one opens with its 5 runs");
  flitlab_experiments_view_select (view, "spoilt");
  CHECK (count_status (window, "missing") + count_status (window, "done") == 0,
         "selecting the damaged one shows no runs of it, rather than some");
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "experiments", run_experiments },
    { "close-running", close_running },
    { "damaged-run", damaged_run },
  };

  return harness_main (argc, argv, "experiments", scenarios, G_N_ELEMENTS (scenarios));
}
