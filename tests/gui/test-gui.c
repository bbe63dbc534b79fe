/* test-gui.c — the real application, driven under Xvfb.
 *
 *   test-gui generate   starts with no file, generates torus:8x8 through the
 *                       generator panel, checks canvas and metrics, edits,
 *                       saves, reads the file back with the store API and
 *                       writes screenshots/main-window.png;
 *   test-gui open       writes a project with the store API, starts the
 *                       application on it as `flitlab-gui FILE` would, and
 *                       checks what the window shows.
 *
 * Each scenario runs from an idle callback once the window is mapped and
 * waits for the worker threads by iterating the main loop; a guard timeout
 * fails the test instead of hanging. Run with G_DEBUG=fatal-warnings: any
 * GTK warning aborts it. */
#include <glib/gstdio.h>
#include <string.h>

#include "flitlab-application.h"
#include "flitlab-store.h"
#include "flitlab-window.h"
#include "tap.h"

#define GUARD_SECONDS 90
#define WAIT_SECONDS 30

static const char *scenario;
static char *work_dir;
static char *project_path;

typedef gboolean (*Predicate) (FlitlabWindow *window);

/* Iterates the main loop until pred holds or WAIT_SECONDS pass. */
static gboolean
wait_until (FlitlabWindow *window,
            Predicate      pred)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  while (!pred (window))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
  return TRUE;
}

static gboolean
is_mapped (FlitlabWindow *window)
{
  return gtk_widget_get_mapped (GTK_WIDGET (window));
}

static gboolean
is_idle_with_topology (FlitlabWindow *window)
{
  return !flitlab_window_get_busy (window) && flitlab_window_get_topology_name (window) != NULL;
}

static gboolean
is_modified (FlitlabWindow *window)
{
  return flitlab_window_get_modified (window);
}

static gboolean
is_idle (FlitlabWindow *window)
{
  return !flitlab_window_get_busy (window);
}

static const char *
metric (FlitlabWindow *window,
        const char    *key)
{
  const char *text = flitlab_metrics_panel_get_value (flitlab_window_get_metrics_panel (window), key);

  return text != NULL ? text : "(none)";
}

#define CHECK_METRIC(window, key, want) \
  CHECK (g_strcmp0 (metric (window, key), want) == 0, "metric %s shows \"%s\", want \"%s\"", \
         key, metric (window, key), want)

/* Renders the whole window as on screen and writes it as a PNG. The
 * paintable has no content until a frame has been laid out, so poll. */
static gboolean
save_screenshot (GtkWidget  *widget,
                 const char *path)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GskRenderNode *node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  gboolean saved;

  while (node == NULL && g_get_monotonic_time () < deadline)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      g_main_context_iteration (NULL, FALSE);
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node == NULL)
        g_usleep (20000);
    }
  if (node == NULL)
    return FALSE;

  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  saved = gdk_texture_save_to_png (texture, path);
  return saved;
}

/* The main scenario ------------------------------------------------------------ */

static void
run_generate (FlitlabWindow *window)
{
  FlitlabGeneratorPanel *panel = flitlab_window_get_generator_panel (window);
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  g_autoptr(GError) error = NULL;
  g_autofree char *shots = NULL;
  g_autofree char *shot = NULL;
  FlProject *project = NULL;
  FlTopology *stored = NULL;
  FlError err = { 0 };
  gboolean activated;

  CHECK (flitlab_window_get_topology_name (window) == NULL, "a new window shows no topology");
  CHECK (!flitlab_window_get_modified (window), "a new project is not modified");

  /* A spec the engine refuses leaves Generate disabled: activating it
   * starts nothing. */
  flitlab_generator_panel_set_spec (panel, "torus:0x8");
  gtk_widget_activate_action (GTK_WIDGET (panel), "generator.generate", NULL);
  CHECK (!flitlab_window_get_busy (window), "Generate does nothing for torus:0x8");

  flitlab_generator_panel_set_spec (panel, "torus:8x8");
  activated = gtk_widget_activate_action (GTK_WIDGET (panel), "generator.generate", NULL);
  CHECK (activated && flitlab_window_get_busy (window), "Generate starts a worker for torus:8x8");
  CHECK (wait_until (window, is_idle_with_topology), "the generation and measurement finish");

  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "torus:8x8") == 0,
         "the new topology is named torus:8x8 (got %s)", flitlab_window_get_topology_name (window));
  CHECK_INT (fl_topology_switch_count (flitlab_canvas_get_topology (canvas)), 64);
  CHECK_INT (fl_topology_host_count (flitlab_canvas_get_topology (canvas)), 64);
  CHECK_METRIC (window, "switches", "64");
  CHECK_METRIC (window, "diameter", "8");
  CHECK_METRIC (window, "links", "128");
  CHECK (flitlab_window_get_modified (window), "generating modifies the project");
  CHECK (strstr (gtk_window_get_title (GTK_WINDOW (window)), "•") != NULL,
         "the title shows the unsaved state: %s", gtk_window_get_title (GTK_WINDOW (window)));

  /* The same spec again gets a name of its own. */
  flitlab_window_generate (window, "torus:8x8", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "the second generation finishes");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "torus:8x8 (2)") == 0,
         "a second torus:8x8 is named torus:8x8 (2) (got %s)",
         flitlab_window_get_topology_name (window));
  CHECK (flitlab_window_show_topology (window, "torus:8x8", &error), "the first one shows again");
  CHECK (wait_until (window, is_idle), "its measurement finishes");
  CHECK_METRIC (window, "diameter", "8");

  /* Save without a dialog, then read the file back with the store. */
  project_path = g_build_filename (work_dir, "generated.flitlab", NULL);
  CHECK (flitlab_window_save_to_path (window, project_path, &error),
         "the project saves: %s", error != NULL ? error->message : "ok");
  CHECK (!flitlab_window_get_modified (window), "a saved project is not modified");
  CHECK (strstr (gtk_window_get_title (GTK_WINDOW (window)), "generated") != NULL,
         "the title names the file: %s", gtk_window_get_title (GTK_WINDOW (window)));

  CHECK (fl_project_open (project_path, &project, &err) == FL_OK, "the saved file opens: %s",
         err.message);
  CHECK (project != NULL
         && fl_project_get_topology (project, "torus:8x8", &stored, &err) == FL_OK,
         "the saved file holds torus:8x8: %s", err.message);
  CHECK_INT (stored != NULL ? fl_topology_switch_count (stored) : -1, 64);
  CHECK_INT (stored != NULL ? fl_topology_switch_link_count (stored) : -1, 128);
  fl_topology_free (stored);
  fl_project_free (project);

  /* Select a switch so that the screenshot shows the selection panel too. */
  flitlab_canvas_select (canvas, 0, -1);
  shots = g_build_filename (g_getenv ("FLITLAB_SOURCE_DIR") != NULL
                              ? g_getenv ("FLITLAB_SOURCE_DIR") : ".",
                            "screenshots", NULL);
  g_mkdir_with_parents (shots, 0755);
  shot = g_build_filename (shots, "main-window.png", NULL);
  CHECK (save_screenshot (GTK_WIDGET (window), shot), "the window renders to %s", shot);
}

/* Opening a file given on the command line ---------------------------------------- */

static void
write_project (const char *path)
{
  FlProject *project = NULL;
  FlTopology *ring = NULL, *mesh = NULL;
  FlError err = { 0 };
  int rc;

  rc = fl_project_new (&project, &err);
  if (!rc)
    rc = fl_topology_from_spec ("ring:6", &ring, &err);
  if (!rc)
    rc = fl_topology_from_spec ("mesh:3x3", &mesh, &err);
  if (!rc)
    rc = fl_project_put_topology (project, "six in a ring", ring, 0, &err);
  if (!rc)
    rc = fl_project_put_topology (project, "small mesh", mesh, 0, &err);
  if (!rc)
    rc = fl_project_save_as (project, path, &err);
  CHECK (rc == FL_OK, "the test project is written: %s", err.message);
  fl_topology_free (ring);
  fl_topology_free (mesh);
  fl_project_free (project);
}

/* A link between two switches (links to hosts are not counted as links). */
static int
first_switch_link (const FlTopology *topology)
{
  for (int l = 0; l < fl_topology_link_count (topology); l++)
    {
      int a, b;

      fl_topology_link_ends (topology, l, &a, NULL, &b, NULL);
      if (fl_topology_node_kind (topology, a) == FL_NODE_SWITCH
          && fl_topology_node_kind (topology, b) == FL_NODE_SWITCH)
        return l;
    }
  return -1;
}

static void
run_open (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = g_build_filename (work_dir, "missing.flitlab", NULL);
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);

  CHECK (wait_until (window, is_idle_with_topology), "the project's first topology shows");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "six in a ring") == 0,
         "the first topology is shown (got %s)", flitlab_window_get_topology_name (window));
  CHECK_INT (fl_topology_switch_count (flitlab_canvas_get_topology (canvas)), 6);
  CHECK_METRIC (window, "diameter", "3");
  CHECK (!flitlab_window_get_modified (window), "an opened project is not modified");
  CHECK (strstr (gtk_window_get_title (GTK_WINDOW (window)), "lesson") != NULL,
         "the title names the project: %s", gtk_window_get_title (GTK_WINDOW (window)));

  CHECK (flitlab_window_show_topology (window, "small mesh", &error), "the second topology shows");
  CHECK (wait_until (window, is_idle), "its measurement finishes");
  CHECK_METRIC (window, "diameter", "4");
  CHECK_METRIC (window, "switches", "9");

  /* Drawing on the canvas marks the project modified. */
  flitlab_canvas_select (canvas, -1, first_switch_link (flitlab_canvas_get_topology (canvas)));
  flitlab_canvas_delete_selection (canvas);
  CHECK (wait_until (window, is_modified), "an edit marks the project modified");
  CHECK (wait_until (window, is_idle), "the edit is measured");
  CHECK_METRIC (window, "links", "11");
  flitlab_canvas_undo (canvas);
  CHECK (wait_until (window, is_idle), "the undo is measured");
  CHECK_METRIC (window, "links", "12");

  /* A file that cannot be opened leaves the window as it was. */
  g_clear_error (&error);
  CHECK (!flitlab_window_open_path (window, missing, &error), "a missing file does not open");
  CHECK (error != NULL && strstr (error->message, "missing.flitlab") != NULL,
         "the error names the file: %s", error != NULL ? error->message : "(none)");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "small mesh") == 0,
         "the window keeps its topology");

  /* Saved, the window closes without asking. */
  CHECK (flitlab_window_save_to_path (window, project_path, &error), "the edited project saves");
}

/* Plumbing ---------------------------------------------------------------------------- */

static gboolean
guard (gpointer user_data)
{
  CHECK (FALSE, "the scenario finished within %d s", GUARD_SECONDS);
  exit (tap_done ());
}

static gboolean
run_scenario (gpointer user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  GList *windows = gtk_application_get_windows (app);
  FlitlabWindow *window = windows != NULL ? FLITLAB_WINDOW (windows->data) : NULL;
  int width = 0, height = 0;

  CHECK (window != NULL, "the application opened a window");
  if (window == NULL)
    {
      g_application_quit (G_APPLICATION (app));
      return G_SOURCE_REMOVE;
    }
  CHECK (wait_until (window, is_mapped), "the window is mapped");
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  CHECK (width == 1280 && height == 800, "the window opens at 1280x800 (got %dx%d)", width, height);

  if (g_strcmp0 (scenario, "open") == 0)
    run_open (window);
  else
    run_generate (window);

  gtk_window_close (GTK_WINDOW (window));
  return G_SOURCE_REMOVE;
}

static void
started (GApplication *app)
{
  g_idle_add (run_scenario, app);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FlitlabApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  char *app_argv[3] = { argv[0], NULL, NULL };
  int app_argc = 1;
  int status;

  scenario = argc > 1 ? argv[1] : "generate";
  work_dir = g_dir_make_tmp ("flitlab-gui-XXXXXX", &error);
  if (work_dir == NULL)
    {
      CHECK (FALSE, "a temporary directory: %s", error->message);
      return tap_done ();
    }

  if (g_strcmp0 (scenario, "open") == 0)
    {
      project_path = g_build_filename (work_dir, "lesson.flitlab", NULL);
      write_project (project_path);
      app_argv[app_argc++] = project_path;
    }

  g_timeout_add_seconds (GUARD_SECONDS, guard, NULL);
  app = flitlab_application_new ();
  g_signal_connect_after (app, "activate", G_CALLBACK (started), NULL);
  g_signal_connect_after (app, "open", G_CALLBACK (started), NULL);
  status = g_application_run (G_APPLICATION (app), app_argc, app_argv);
  CHECK_INT (status, 0);

  if (project_path != NULL)
    g_unlink (project_path);
  g_rmdir (work_dir);
  g_free (project_path);
  g_free (work_dir);
  return tap_done ();
}
