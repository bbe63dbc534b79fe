/* test-gui-preferences.c — the preferences, the welcome screen and About.
 *
 *   test-gui-preferences preferences  opens Preferences (app.preferences,
 *                                     Ctrl+comma), changes every setting
 *                                     through its row and checks its effect:
 *                                     the dark style, a new network's
 *                                     simulation settings, the canvas'
 *                                     palette and the transport bar's speed
 *                                     and colours; then opens About;
 *   test-gui-preferences welcome      checks the welcome screen of a window
 *                                     started without a file, its buttons'
 *                                     actions, a project saved listed among
 *                                     the recent ones, opened by a click,
 *                                     and New Project ending the welcome;
 *                                     in a home of its own whose recent
 *                                     files are three projects in
 *                                     ~/Courses, so that
 *                                     screenshots/welcome.png is the same
 *                                     on every machine.
 *
 * The settings live in memory (GSETTINGS_BACKEND=memory): each run starts
 * from the schema's defaults. */
#include "flitlab-preferences.h"
#include "flitlab-store.h"
#include "flitlab-welcome.h"
#include "gui-harness.h"

static GtkSpinButton *
spin_of (GtkWindow  *prefs,
         const char *title)
{
  GtkWidget *row = find_widget (GTK_WIDGET (prefs), ADW_TYPE_ACTION_ROW, title);

  return row != NULL ? GTK_SPIN_BUTTON (find_widget (row, GTK_TYPE_SPIN_BUTTON, NULL)) : NULL;
}

static AdwComboRow *
combo_of (GtkWindow  *prefs,
          const char *title)
{
  return ADW_COMBO_ROW (find_widget (GTK_WIDGET (prefs), ADW_TYPE_COMBO_ROW, title));
}

static void
set_spin (GtkWindow  *prefs,
          const char *title,
          double      value)
{
  GtkSpinButton *spin = spin_of (prefs, title);

  CHECK (spin != NULL, "Preferences has a %s row with a number", title);
  if (spin != NULL)
    gtk_spin_button_set_value (spin, value);
}

static void
set_combo (GtkWindow  *prefs,
           const char *title,
           guint       position)
{
  AdwComboRow *row = combo_of (prefs, title);

  CHECK (row != NULL, "Preferences has a %s row", title);
  if (row != NULL)
    adw_combo_row_set_selected (row, position);
}

static void
run_preferences (FlitlabWindow *window)
{
  GApplication *app = g_application_get_default ();
  AdwStyleManager *style = adw_style_manager_get_default ();
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  FlitlabTransportBar *bar = bar_of (window);
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.preferences");
  const FlSimSettings *sim;
  GtkWindow *prefs, *about;
  double speed = -1;
  int colour = -1;

  CHECK (flitlab_preferences_get_settings () != NULL, "the schema is found");
  CHECK (accels[0] != NULL && g_str_equal (accels[0], "<Control>comma"), "Ctrl+comma opens Preferences");
  CHECK (!adw_style_manager_get_dark (style), "the style is light by default under Xvfb");
  g_object_get (bar, "speed", &speed, NULL);
  CHECK (speed == 50, "the transport bar starts at the default 50 cycles/s (got %g)", speed);

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  prefs = wait_for_toplevel (FLITLAB_TYPE_PREFERENCES);
  CHECK (prefs != NULL, "app.preferences opens the Preferences window");
  if (prefs == NULL)
    return;

  /* The style. */
  set_combo (prefs, "Style", 2);
  CHECK (adw_style_manager_get_dark (style), "Dark makes the style dark");
  CHECK (adw_style_manager_get_color_scheme (style) == ADW_COLOR_SCHEME_FORCE_DARK, "forced dark");
  set_combo (prefs, "Style", 0);
  CHECK (adw_style_manager_get_color_scheme (style) == ADW_COLOR_SCHEME_DEFAULT,
         "Follow System gives the system's style back");
  CHECK (!adw_style_manager_get_dark (style), "and it is light again");

  /* The default simulation settings of new networks. */
  set_spin (prefs, "Virtual Channels", 4);
  set_spin (prefs, "Buffer Depth", 16);
  set_spin (prefs, "Packet Length", 5);
  set_spin (prefs, "Offered Load", 0.25);
  set_spin (prefs, "Warm-Up", 200);
  set_spin (prefs, "Measured Cycles", 3000);
  set_combo (prefs, "Switching", 1);
  CHECK_INT (g_settings_get_int (flitlab_preferences_get_settings (), "sim-vcs"), 4);
  flitlab_window_generate (window, "mesh:4x4", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "a new network is generated");
  sim = DOC (window) != NULL ? flitlab_document_get_sim_settings (DOC (window)) : NULL;
  CHECK (sim != NULL, "the new network has simulation settings");
  if (sim != NULL)
    {
      CHECK_INT (sim->config.vcs, 4);
      CHECK_INT (sim->config.buf_flits, 16);
      CHECK_INT (sim->config.switching, FL_SWITCHING_VCT);
      CHECK_INT ((int) sim->config.warmup_cycles, 200);
      CHECK_INT ((int) sim->config.measure_cycles, 3000);
      CHECK (sim->config.traffic.rate == 0.25, "offered load 0.25 (got %g)", sim->config.traffic.rate);
    }

  /* The simulation's colours and speed. */
  CHECK_INT (flitlab_canvas_get_flit_palette (canvas), FL_DRAW_PALETTE_CONTRAST);
  set_combo (prefs, "Palette", 1);
  CHECK_INT (flitlab_canvas_get_flit_palette (canvas), FL_DRAW_PALETTE_COLOUR_BLIND);
  set_combo (prefs, "Packet Colours", 2);
  g_object_get (bar, "flit-colour", &colour, NULL);
  CHECK_INT (colour, FL_DRAW_FLITS_BY_DESTINATION);
  g_object_get (canvas, "flit-colour", &colour, NULL);
  CHECK_INT (colour, FL_DRAW_FLITS_BY_DESTINATION);
  set_combo (prefs, "Playback Speed", 2);
  g_object_get (bar, "speed", &speed, NULL);
  CHECK (speed == 5, "the transport bar plays at the chosen 5 cycles/s (got %g)", speed);
  CHECK (g_settings_get_double (flitlab_preferences_get_settings (), "playback-speed") == 5,
         "the speed is stored");
  gtk_window_destroy (prefs);

  /* About. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  about = wait_for_toplevel (ADW_TYPE_ABOUT_WINDOW);
  CHECK (about != NULL, "app.about opens the About window");
  if (about != NULL)
    {
      CHECK (g_strcmp0 (adw_about_window_get_version (ADW_ABOUT_WINDOW (about)), FL_VERSION_STRING) == 0,
             "About shows version %s", FL_VERSION_STRING);
      CHECK (adw_about_window_get_license_type (ADW_ABOUT_WINDOW (about)) == GTK_LICENSE_GPL_3_0,
             "About says GPL-3.0-or-later");
      CHECK (g_str_has_prefix (adw_about_window_get_issue_url (ADW_ABOUT_WINDOW (about)), "https://"),
             "About links the issue tracker");
      CHECK (adw_about_window_get_release_notes (ADW_ABOUT_WINDOW (about)) != NULL,
             "About has release notes");
      gtk_window_destroy (about);
    }
  save_and_forget (window);
}

/* The welcome screen --------------------------------------------------------------- */

static FlitlabWelcome *
welcome_of (FlitlabWindow *window)
{
  return FLITLAB_WELCOME (find_widget (GTK_WIDGET (window), FLITLAB_TYPE_WELCOME, NULL));
}

static gboolean
welcome_shown (FlitlabWindow *window)
{
  return welcome_of (window) != NULL && gtk_widget_is_drawable (GTK_WIDGET (welcome_of (window)));
}

static const char *
action_of (GtkWidget  *widget,
           const char *label)
{
  GtkWidget *button = find_button (widget, label);

  return button != NULL ? gtk_actionable_get_action_name (GTK_ACTIONABLE (button)) : "(no button)";
}

static char *saved_path;

static gboolean
lists_saved (FlitlabWindow *window)
{
  GListModel *recent = flitlab_welcome_get_recent (welcome_of (window));
  g_autoptr(GFile) want = g_file_new_for_path (saved_path);

  for (guint i = 0; i < g_list_model_get_n_items (recent); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (recent, i);

      if (g_file_equal (file, want))
        return TRUE;
    }
  return FALSE;
}

/* Writes a project holding the network spec, called name, to path. */
static void
write_project (const char *path,
               const char *name,
               const char *spec)
{
  FlProject *project = NULL;
  FlTopology *topology = NULL;
  FlError err = { 0 };

  CHECK (fl_project_new (&project, &err) == FL_OK
           && fl_topology_from_spec (spec, &topology, &err) == FL_OK
           && fl_project_put_topology (project, name, topology, 0, &err) == FL_OK
           && fl_project_save_as (project, path, &err) == FL_OK,
         "a project is written to %s: %s", path, err.message);
  fl_topology_free (topology);
  fl_project_free (project);
}

/* The welcome scenario's home, made before GTK reads $HOME or the recent
 * files: ~/Courses holds three projects, and the recent files list them
 * with fixed dates, newest first. */
static char *home;

static void
make_home (void)
{
  static const struct {
    const char *file, *name, *spec;
  } projects[] = { { "Lecture 4 - deadlock.flitlab", "ring", "ring:8" },
                   { "Lab 2 - irregular networks.flitlab", "cluster", "irregular:16,ports=4,seed=3" },
                   { "Lecture 3 - topologies.flitlab", "xmesh", "xmesh:6x12" } };
  g_autoptr(GBookmarkFile) recent = g_bookmark_file_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *courses = NULL, *data = NULL, *xbel = NULL;

  home = g_dir_make_tmp ("flitlab-home-XXXXXX", &error);
  if (home == NULL)
    return;
  courses = g_build_filename (home, "Courses", NULL);
  data = g_build_filename (home, ".local", "share", NULL);
  g_mkdir_with_parents (courses, 0700);
  g_mkdir_with_parents (data, 0700);
  /* GTK makes $XDG_CACHE_HOME/doc as it ends: keep it out of the home
   * removed after the scenario (read from the environment, since GLib's
   * g_get_user_cache_dir() would fix $HOME before it is changed). */
  if (g_getenv ("XDG_CACHE_HOME") == NULL && g_getenv ("HOME") != NULL)
    {
      g_autofree char *cache = g_build_filename (g_getenv ("HOME"), ".cache", NULL);

      g_setenv ("XDG_CACHE_HOME", cache, TRUE);
    }
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  for (gsize i = 0; i < G_N_ELEMENTS (projects); i++)
    {
      g_autofree char *path = g_build_filename (courses, projects[i].file, NULL);
      g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
      g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 11, 20 - (int) i, 9, 0, 0);

      write_project (path, projects[i].name, projects[i].spec);
      g_bookmark_file_add_application (recent, uri, "flitlab-gui", "flitlab-gui %u");
      g_bookmark_file_set_mime_type (recent, uri, FLITLAB_PROJECT_MIME_TYPE);
      g_bookmark_file_set_modified_date_time (recent, uri, when);
    }
  xbel = g_build_filename (data, "recently-used.xbel", NULL);
  CHECK (g_bookmark_file_to_file (recent, xbel, &error), "the recent files are written: %s",
         error != NULL ? error->message : "ok");
}

/* Removes the home make_home() made, and what the scenario left in it. */
static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
run_welcome (FlitlabWindow *window)
{
  GtkWidget *welcome = GTK_WIDGET (welcome_of (window));
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flitlab-welcome-XXXXXX", &error);
  GtkWidget *row;
  GtkRecentInfo *info;
  g_autofree char *uri = NULL;

  CHECK (welcome != NULL && welcome_shown (window), "a window started without a file welcomes");
  CHECK (g_strcmp0 (action_of (welcome, "_New Project"), "win.new-project") == 0, "New Project: win.new-project");
  CHECK (g_strcmp0 (action_of (welcome, "_Open…"), "win.open") == 0, "Open…: win.open");
  CHECK (g_strcmp0 (action_of (welcome, "_Lessons"), "app.lessons") == 0, "Lessons: app.lessons");
  CHECK (!gtk_widget_is_drawable (GTK_WIDGET (flitlab_window_get_canvas (window))), "the drawing waits");
  CHECK (g_list_model_get_n_items (flitlab_welcome_get_recent (welcome_of (window))) == 3
           && find_widget (welcome, ADW_TYPE_ACTION_ROW, "Lecture 4 - deadlock") != NULL
           && find_label (welcome, "~/Courses") != NULL,
         "the recent projects are listed, by name, in ~/Courses");
  harness_screenshot (window, "welcome.png");

  /* A project opened goes to the recent files as a Flitlab project, and
   * the welcome lists it. */
  saved_path = g_build_filename (dir, "lecture 3.flitlab", NULL);
  write_project (saved_path, "five", "ring:5");
  flitlab_welcome_add_recent (saved_path);
  CHECK (wait_until (window, lists_saved), "the welcome lists %s", saved_path);
  uri = g_filename_to_uri (saved_path, NULL, NULL);
  info = gtk_recent_manager_lookup_item (gtk_recent_manager_get_default (), uri, NULL);
  CHECK (info != NULL && g_strcmp0 (gtk_recent_info_get_mime_type (info), FLITLAB_PROJECT_MIME_TYPE) == 0,
         "with the project's MIME type");
  g_clear_pointer (&info, gtk_recent_info_unref);
  CHECK (find_label (welcome, "lecture 3") != NULL, "its row reads its name");

  /* A click on it opens it. */
  row = find_widget (welcome, ADW_TYPE_ACTION_ROW, "lecture 3");
  CHECK (row != NULL, "the project has a row");
  if (row != NULL)
    g_signal_emit_by_name (gtk_widget_get_parent (row), "row-activated", row);
  CHECK (wait_until (window, is_idle_with_topology), "the project opens");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "five") == 0, "its network shows");
  CHECK (!welcome_shown (window), "the welcome has gone");

  /* New Project starts afresh without the welcome. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "new-project", NULL);
  CHECK (wait_until (window, is_idle), "a new project");
  CHECK (flitlab_window_get_topology_name (window) == NULL && !welcome_shown (window),
         "New Project shows the empty project, not the welcome");
  g_unlink (saved_path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "preferences", run_preferences },
    { "welcome", run_welcome },
  };

  int status;

  if (argc > 1 && g_str_equal (argv[1], "welcome"))
    make_home ();
  status = harness_main (argc, argv, "preferences", scenarios, G_N_ELEMENTS (scenarios));
  if (home != NULL)
    remove_tree (home);
  return status;
}
