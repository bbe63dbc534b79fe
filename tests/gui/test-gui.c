/* test-gui.c — the real application, driven under Xvfb.
 *
 *   test-gui generate   starts with no file, generates torus:8x8 through the
 *                       generator panel, checks canvas and metrics, edits,
 *                       saves, reads the file back with the store API and
 *                       writes screenshots/main-window.png;
 *   test-gui open       writes a project with the store API, starts the
 *                       application on it as `flitlab-gui FILE` would, and
 *                       checks what the window shows;
 *   test-gui export-quit opens the export dialog twice, answers it, cancels
 *                       the file chooser, and quits;
 *   test-gui discard-quit quits with unsaved changes and answers Discard;
 *   test-gui stop       stops the workers routing a 64x64 mesh with the
 *                       header's Stop button;
 *   test-gui edit       draws on the canvas of a generated mesh with the
 *                       tools, checks that undo and redo restore each state
 *                       exactly and that the metrics follow, and that a
 *                       refused edit shows its message in a toast.
 *
 * Each scenario runs from an idle callback once the window is mapped and
 * waits for the worker threads by iterating the main loop; a guard timeout
 * fails the test instead of hanging (gui-harness.h). Run with
 * G_DEBUG=fatal-warnings: any GTK warning aborts it. The routing panel and
 * the canvas' routing overlays have their own program, test-gui-routing. */
#include "flitlab-draw.h"
#include "flitlab-export-dialog.h"
#include "flitlab-store.h"
#include "gui-harness.h"

static char *work_dir;
static char *project_path;

static gboolean
is_modified (FlitlabWindow *window)
{
  return flitlab_window_get_modified (window);
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

/* The main scenario ------------------------------------------------------------ */

static void
run_generate (FlitlabWindow *window)
{
  FlitlabGeneratorPanel *panel = flitlab_window_get_generator_panel (window);
  g_autoptr(GError) error = NULL;
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
  CHECK_INT (fl_topology_switch_count (flitlab_document_get_topology (DOC (window))), 64);
  CHECK_INT (fl_topology_host_count (flitlab_document_get_topology (DOC (window))), 64);
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
  flitlab_document_select (DOC (window), 0, -1);
  shot = screenshot_path ("main-window.png");
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

static void
run_open (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = g_build_filename (work_dir, "missing.flitlab", NULL);

  CHECK (wait_until (window, is_idle_with_topology), "the project's first topology shows");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "six in a ring") == 0,
         "the first topology is shown (got %s)", flitlab_window_get_topology_name (window));
  CHECK_INT (fl_topology_switch_count (flitlab_document_get_topology (DOC (window))), 6);
  CHECK_METRIC (window, "diameter", "3");
  CHECK (!flitlab_window_get_modified (window), "an opened project is not modified");
  CHECK (strstr (gtk_window_get_title (GTK_WINDOW (window)), "lesson") != NULL,
         "the title names the project: %s", gtk_window_get_title (GTK_WINDOW (window)));

  CHECK (flitlab_window_show_topology (window, "small mesh", &error), "the second topology shows");
  CHECK (wait_until (window, is_idle), "its measurement finishes");
  CHECK_METRIC (window, "diameter", "4");
  CHECK_METRIC (window, "switches", "9");

  /* Drawing on the canvas marks the project modified. */
  flitlab_document_select (DOC (window), -1, first_switch_link (flitlab_document_get_topology (DOC (window))));
  flitlab_document_delete_selection (DOC (window));
  CHECK (wait_until (window, is_modified), "an edit marks the project modified");
  CHECK (wait_until (window, is_idle), "the edit is measured");
  CHECK_METRIC (window, "links", "11");
  flitlab_document_undo (DOC (window));
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

/* Scripted edits on the canvas ------------------------------------------------------- */

/* NULL when a and b are the same network (every node's kind, ports and
 * position, every link's ends and ports), else the first difference. */
static char *
topology_difference (const FlTopology *a,
                     const FlTopology *b)
{
  if (fl_topology_node_count (a) != fl_topology_node_count (b))
    return g_strdup_printf ("%d nodes instead of %d", fl_topology_node_count (a),
                            fl_topology_node_count (b));
  if (fl_topology_link_count (a) != fl_topology_link_count (b))
    return g_strdup_printf ("%d links instead of %d", fl_topology_link_count (a),
                            fl_topology_link_count (b));
  for (int n = 0; n < fl_topology_node_count (a); n++)
    {
      double ax, ay, bx, by;

      fl_topology_get_position (a, n, &ax, &ay);
      fl_topology_get_position (b, n, &bx, &by);
      if (fl_topology_node_kind (a, n) != fl_topology_node_kind (b, n)
          || fl_topology_node_ports (a, n) != fl_topology_node_ports (b, n)
          || ax != bx || ay != by)
        return g_strdup_printf ("node %d differs", n);
    }
  for (int l = 0; l < fl_topology_link_count (a); l++)
    {
      int e[4], f[4];

      fl_topology_link_ends (a, l, &e[0], &e[1], &e[2], &e[3]);
      fl_topology_link_ends (b, l, &f[0], &f[1], &f[2], &f[3]);
      if (memcmp (e, f, sizeof e) != 0)
        return g_strdup_printf ("link %d joins %d.%d-%d.%d instead of %d.%d-%d.%d", l,
                                e[0], e[1], e[2], e[3], f[0], f[1], f[2], f[3]);
    }
  return NULL;
}

#define CHECK_SAME(got, want, ...) \
  G_STMT_START { \
    g_autofree char *difference_ = topology_difference (got, want); \
    CHECK (difference_ == NULL, __VA_ARGS__); \
    if (difference_ != NULL) \
      printf ("# %s\n", difference_); \
  } G_STMT_END

/* What the document and the canvas told the world during the scenario. */
typedef struct {
  int undo_notes;            /* notify::can-undo */
  int redo_notes;            /* notify::can-redo */
  int edits;                 /* topology-edited */
  char *message;             /* the last "message" */
} CanvasLog;

static void
count_undo_note (CanvasLog *log)
{
  log->undo_notes++;
}

static void
count_redo_note (CanvasLog *log)
{
  log->redo_notes++;
}

static void
count_edit (CanvasLog *log)
{
  log->edits++;
}

static void
keep_message (FlitlabCanvas *canvas,
              const char    *message,
              CanvasLog     *log)
{
  g_free (log->message);
  log->message = g_strdup (message);
}

/* The text that shows_toast() looks for. */
static const char *toast_text;

/* Whether a label under widget, inside a toast overlay but not in the
 * overlay's own content, reads toast_text. */
static gboolean
has_toast_label (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), toast_text) == 0)
    {
      GtkWidget *overlay = gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY);

      return overlay != NULL
             && !gtk_widget_is_ancestor (widget, adw_toast_overlay_get_child (ADW_TOAST_OVERLAY (overlay)));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_toast_label (child))
      return TRUE;
  return FALSE;
}

static gboolean
shows_toast (FlitlabWindow *window)
{
  return has_toast_label (GTK_WIDGET (window));
}

static gboolean
action_enabled (FlitlabWindow *window,
                const char    *name)
{
  return g_action_group_get_action_enabled (G_ACTION_GROUP (window), name);
}

/* The metrics panel shows the counts of the network on the canvas. */
static void
check_counts_shown (FlitlabWindow *window,
                    const char    *when)
{
  const FlTopology *topology = flitlab_document_get_topology (DOC (window));
  g_autofree char *switches = g_strdup_printf ("%d", fl_topology_switch_count (topology));
  g_autofree char *hosts = g_strdup_printf ("%d", fl_topology_host_count (topology));
  g_autofree char *links = g_strdup_printf ("%d", fl_topology_switch_link_count (topology));

  CHECK (wait_until (window, is_idle), "the network is measured %s", when);
  CHECK (g_strcmp0 (metric (window, "switches"), switches) == 0
           && g_strcmp0 (metric (window, "hosts"), hosts) == 0
           && g_strcmp0 (metric (window, "links"), links) == 0,
         "%s the metrics show %s switches, %s hosts, %s links (want %s, %s, %s)", when,
         metric (window, "switches"), metric (window, "hosts"), metric (window, "links"),
         switches, hosts, links);
}

/* A switch with a free port, or -1. */
static int
switch_with_free_port (const FlTopology *topology)
{
  for (int i = 0; i < fl_topology_switch_count (topology); i++)
    {
      int s = fl_topology_switch_node (topology, i);

      for (int p = 0; p < fl_topology_node_ports (topology, s); p++)
        if (fl_topology_port_peer (topology, s, p, NULL) < 0)
          return s;
    }
  return -1;
}

/* Lets the window lay itself out again after a change. */
static void
settle (void)
{
  for (gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC / 4; g_get_monotonic_time () < end;)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
}

/* At 1280x800 every tool leaves the sidebar where it is and the drawing
 * still: the canvas keeps its size and its view. */
static void
check_tool_change_keeps_layout (FlitlabWindow *window)
{
  static const char *tools[] = { "add-switch", "add-host", "connect", "delete", "route", "select" };
  GtkWidget *canvas = GTK_WIDGET (flitlab_window_get_canvas (window));
  GtkWidget *flap = gtk_widget_get_ancestor (canvas, ADW_TYPE_FLAP);
  int width = gtk_widget_get_width (canvas), height = gtk_widget_get_height (canvas);
  double zoom = 0, now = 0;

  g_object_get (canvas, "zoom", &zoom, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_action_group_activate_action (G_ACTION_GROUP (window), "tool", g_variant_new_string (tools[i]));
      settle ();
      g_object_get (canvas, "zoom", &now, NULL);
      CHECK (flap != NULL && !adw_flap_get_folded (ADW_FLAP (flap))
               && adw_flap_get_reveal_flap (ADW_FLAP (flap)),
             "choosing %s leaves the sidebar shown", tools[i]);
      CHECK (gtk_widget_get_width (canvas) == width && gtk_widget_get_height (canvas) == height
               && now == zoom,
             "choosing %s leaves the drawing where it was (canvas %dx%d, was %dx%d; zoom %g, was %g)",
             tools[i], gtk_widget_get_width (canvas), gtk_widget_get_height (canvas), width, height,
             now, zoom);
    }
}

#define N_EDITS 5

/* Whether shortcut is one of Flitlab's: a key of a controller Flitlab
 * added (named "flitlab-..."), or a binding of a class that triggers a
 * window or application action (GTK's and libadwaita's own keys, for
 * focus, the inspector or a folded sidebar, are not). */
static gboolean
flitlab_shortcut (GtkEventController *controller,
                  GtkShortcut        *shortcut)
{
  GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
  const char *name = gtk_event_controller_get_name (controller);

  if (g_strcmp0 (name, "gtk-widget-class-shortcuts") != 0)
    return name != NULL && g_str_has_prefix (name, "flitlab-");
  return GTK_IS_NAMED_ACTION (action)
         && (g_str_has_prefix (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)), "win.")
             || g_str_has_prefix (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)), "app."));
}

/* Adds the accelerators of Flitlab's shortcuts on widget to set. */
static void
add_triggers (GtkWidget  *widget,
              GHashTable *set)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);
      guint n = GTK_IS_SHORTCUT_CONTROLLER (controller) ? g_list_model_get_n_items (G_LIST_MODEL (controller)) : 0;

      for (guint j = 0; j < n; j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          GtkKeyvalTrigger *key = GTK_IS_KEYVAL_TRIGGER (trigger) ? GTK_KEYVAL_TRIGGER (trigger) : NULL;

          if (key != NULL && flitlab_shortcut (GTK_EVENT_CONTROLLER (controller), shortcut))
            g_hash_table_add (set, gtk_accelerator_name (gtk_keyval_trigger_get_keyval (key),
                                                         gtk_keyval_trigger_get_modifiers (key)));
        }
    }
}

/* Adds each accelerator of the space-separated list text to set, named as
 * gtk_accelerator_name() names it. */
static void
add_accels (const char *text,
            GHashTable *set)
{
  g_auto(GStrv) accels = g_strsplit (text != NULL ? text : "", " ", -1);

  for (int i = 0; accels[i] != NULL; i++)
    {
      guint key = 0;
      GdkModifierType mods = 0;

      if (accels[i][0] != '\0' && gtk_accelerator_parse (accels[i], &key, &mods))
        g_hash_table_add (set, gtk_accelerator_name (key, mods));
    }
}

/* The shortcuts window lists every shortcut: the application's
 * accelerators, the window's bindings and the drawing's keys; and the
 * drawing tools' keys choose the tools. */
static void
check_shortcuts (FlitlabWindow *window)
{
  static const struct {
    const char *key, *tool;
  } tool_keys[] = { { "s", "add-switch" }, { "h", "add-host" }, { "c", "connect" }, { "x", "delete" },
                    { "v", "select" } };
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/flitlab/Flitlab/gtk/help-overlay.ui");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  g_autoptr(GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (app);
  GtkWidget *canvas = GTK_WIDGET (flitlab_window_get_canvas (window));
  GHashTableIter iter;
  gpointer accel;
  int missing = 0;

  for (GSList *o = objects; o != NULL; o = o->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (o->data))
      {
        g_autofree char *text = NULL;

        g_object_get (o->data, "accelerator", &text, NULL);
        add_accels (text, listed);
      }
  for (int i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (app, actions[i]);

      for (int k = 0; accels[k] != NULL; k++)
        add_accels (accels[k], used);
    }
  for (GtkWidget *w = canvas; w != NULL; w = gtk_widget_get_parent (w))
    add_triggers (w, used);
  g_hash_table_iter_init (&iter, used);
  while (g_hash_table_iter_next (&iter, &accel, NULL))
    if (!g_hash_table_contains (listed, accel))
      {
        CHECK (FALSE, "the shortcuts window lists %s", (const char *) accel);
        missing++;
      }
  CHECK (missing == 0 && g_hash_table_size (used) > 25, "the shortcuts window lists all %u shortcuts",
         g_hash_table_size (used));

  for (guint i = 0; i < G_N_ELEMENTS (tool_keys); i++)
    {
      g_autoptr(GVariant) state = NULL;
      gboolean pressed = FALSE;

      for (GtkWidget *w = canvas; w != NULL && !pressed; w = gtk_widget_get_parent (w))
        pressed = press_shortcut_on (w, tool_keys[i].key);
      state = g_action_group_get_action_state (G_ACTION_GROUP (window), "tool");
      CHECK (pressed && g_strcmp0 (g_variant_get_string (state, NULL), tool_keys[i].tool) == 0,
             "%s chooses the %s tool", tool_keys[i].key, tool_keys[i].tool);
    }
}

static void
run_edit (FlitlabWindow *window)
{
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  GtkGestureDrag *drag = canvas_drag_gesture (canvas);
  FlTopology *snapshots[N_EDITS + 1] = { NULL };
  FlTopology *before = NULL;
  FlTopology *stored = NULL;
  FlProject *project = NULL;
  FlError err = { 0 };
  g_autoptr(GError) error = NULL;
  CanvasLog log = { 0 };
  FlDrawView view;
  double zoom = 0, w, h, x1, y1, x2, y2, x3, y3, sx, sy;
  int a, b, c, s, node, link, edits, links;

  flitlab_window_generate (window, "mesh:3x3", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "mesh:3x3 is generated and measured");
  CHECK (wait_until (window, canvas_has_size), "the canvas is laid out");
  CHECK (drag != NULL, "the canvas has a drag gesture");
  if (drag == NULL)
    return;

  check_tool_change_keeps_layout (window);
  check_shortcuts (window);

  /* The canvas shows the whole network, so its view is the fitted one:
   * that gives the device point of every node. */
  w = gtk_widget_get_width (GTK_WIDGET (canvas));
  h = gtk_widget_get_height (GTK_WIDGET (canvas));
  fl_draw_view_fit (flitlab_document_get_topology (DOC (window)), w, h, &view);
  g_object_get (canvas, "zoom", &zoom, NULL);
  CHECK (w > 100 && h > 100 && fabs (zoom - view.scale) < 1e-9,
         "the %gx%g canvas shows the fitted view (zoom %g, fitted %g)", w, h, zoom, view.scale);

  /* Three free places down the left edge, beside the square mesh. */
  x1 = x2 = w * 0.05, y1 = h * 0.15, y2 = h * 0.85;
  x3 = w * 0.12, y3 = h * 0.5;
  CHECK (fl_draw_hit_node (flitlab_document_get_topology (DOC (window)), &view, x1, y1) < 0
           && fl_draw_hit_node (flitlab_document_get_topology (DOC (window)), &view, x2, y2) < 0
           && fl_draw_hit_node (flitlab_document_get_topology (DOC (window)), &view, x3, y3) < 0,
         "the places for new switches are free");
  s = switch_with_free_port (flitlab_document_get_topology (DOC (window)));
  CHECK (s >= 0, "a switch of the mesh has a free port");
  fl_draw_node_position (flitlab_document_get_topology (DOC (window)), s, &sx, &sy);
  fl_draw_view_to_device (&view, sx, sy, &sx, &sy);

  CHECK (!flitlab_document_can_undo (DOC (window)) && !flitlab_document_can_redo (DOC (window)),
         "a new topology has nothing to undo or redo");
  g_signal_connect_swapped (DOC (window), "notify::can-undo", G_CALLBACK (count_undo_note), &log);
  g_signal_connect_swapped (DOC (window), "notify::can-redo", G_CALLBACK (count_redo_note), &log);
  g_signal_connect_swapped (DOC (window), "topology-edited", G_CALLBACK (count_edit), &log);
  g_signal_connect (canvas, "message", G_CALLBACK (keep_message), &log);

  /* Two switches, a host on the first, a link between them and one from
   * the second into the mesh, each its own undo step. */
  snapshots[0] = flitlab_document_dup_topology (DOC (window));
  flitlab_canvas_set_tool (canvas, FLITLAB_CANVAS_TOOL_ADD_SWITCH);
  pointer_click (drag, x1, y1);
  flitlab_document_get_selection (DOC (window), &a, &link);
  CHECK (a == fl_topology_node_count (snapshots[0])
           && fl_topology_node_kind (flitlab_document_get_topology (DOC (window)), a) == FL_NODE_SWITCH,
         "a click with the switch tool adds switch %d (got %d)", fl_topology_node_count (snapshots[0]), a);
  CHECK_INT (fl_topology_node_ports (flitlab_document_get_topology (DOC (window)), a), 8);
  CHECK (log.undo_notes == 1 && flitlab_document_can_undo (DOC (window)) && action_enabled (window, "undo"),
         "can-undo turns TRUE, notified once (%d), and enables win.undo", log.undo_notes);
  snapshots[1] = flitlab_document_dup_topology (DOC (window));

  pointer_click (drag, x2, y2);
  flitlab_document_get_selection (DOC (window), &b, &link);
  CHECK (b == a + 1, "a second click adds switch %d (got %d)", a + 1, b);
  CHECK (log.undo_notes == 1, "can-undo is not notified again while it stays TRUE (%d)", log.undo_notes);
  snapshots[2] = flitlab_document_dup_topology (DOC (window));

  flitlab_canvas_set_tool (canvas, FLITLAB_CANVAS_TOOL_ADD_HOST);
  pointer_click (drag, x1, y1);
  flitlab_document_get_selection (DOC (window), &node, &link);
  CHECK (node == b + 1 && fl_topology_node_kind (flitlab_document_get_topology (DOC (window)), node) == FL_NODE_HOST
           && fl_topology_port_peer (flitlab_document_get_topology (DOC (window)), node, 0, NULL) == a,
         "a click on switch %d with the host tool attaches host %d to it (got %d)", a, b + 1, node);
  snapshots[3] = flitlab_document_dup_topology (DOC (window));

  flitlab_canvas_set_tool (canvas, FLITLAB_CANVAS_TOOL_CONNECT);
  pointer_drag (drag, x1, y1, x2, y2);
  flitlab_document_get_selection (DOC (window), &node, &link);
  links = fl_topology_link_count (snapshots[3]);
  {
    int e0 = -1, e1 = -1;

    fl_topology_link_ends (flitlab_document_get_topology (DOC (window)), link, &e0, NULL, &e1, NULL);
    CHECK (link == links && MIN (e0, e1) == a && MAX (e0, e1) == b,
           "a drag from switch %d to %d links them as link %d (got link %d: %d-%d)", a, b, links,
           link, e0, e1);
  }
  snapshots[4] = flitlab_document_dup_topology (DOC (window));

  pointer_drag (drag, x2, y2, sx, sy);
  {
    gboolean joined = FALSE;

    for (int p = 0; p < fl_topology_node_ports (flitlab_document_get_topology (DOC (window)), b); p++)
      joined |= fl_topology_port_peer (flitlab_document_get_topology (DOC (window)), b, p, NULL) == s;
    CHECK (joined && fl_topology_link_count (flitlab_document_get_topology (DOC (window))) == links + 2,
           "a drag from switch %d to mesh switch %d links them", b, s);
  }
  snapshots[5] = flitlab_document_dup_topology (DOC (window));
  CHECK_INT (log.edits, N_EDITS);
  CHECK_INT (log.redo_notes, 0);
  CHECK (log.message == NULL, "no edit was refused (%s)", log.message ? log.message : "");
  CHECK (wait_until (window, is_modified), "the edits mark the project modified");
  check_counts_shown (window, "after the edits");
  CHECK (g_strcmp0 (metric (window, "diameter"), "∞") != 0,
         "the new switches are connected to the mesh (diameter %s)", metric (window, "diameter"));

  /* Undo, step by step back to the generated mesh; the first through the
   * window's action, as Ctrl+Z does. */
  for (int k = N_EDITS; k > 0; k--)
    {
      if (k == N_EDITS)
        gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
      else
        flitlab_document_undo (DOC (window));
      CHECK_SAME (flitlab_document_get_topology (DOC (window)), snapshots[k - 1],
                  "undo restores the network as it was before edit %d", k);
      if (k == N_EDITS)
        CHECK (log.redo_notes == 1 && flitlab_document_can_redo (DOC (window)) && action_enabled (window, "redo"),
               "can-redo turns TRUE, notified once (%d), and enables win.redo", log.redo_notes);
    }
  CHECK (!flitlab_document_can_undo (DOC (window)) && log.undo_notes == 2 && !action_enabled (window, "undo"),
         "with everything undone can-undo turns FALSE, notified (%d), and win.undo is disabled",
         log.undo_notes);
  CHECK_INT (log.edits, 2 * N_EDITS);
  flitlab_document_undo (DOC (window));
  CHECK (log.edits == 2 * N_EDITS && log.undo_notes == 2 && log.redo_notes == 1,
         "an undo with nothing to undo changes nothing");
  check_counts_shown (window, "after undoing everything");
  CHECK_METRIC (window, "switches", "9");

  for (int k = 1; k <= N_EDITS; k++)
    {
      if (k == 1)
        gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
      else
        flitlab_document_redo (DOC (window));
      CHECK_SAME (flitlab_document_get_topology (DOC (window)), snapshots[k], "redo reapplies edit %d", k);
    }
  CHECK (!flitlab_document_can_redo (DOC (window)) && log.redo_notes == 2 && log.undo_notes == 3,
         "with everything redone can-redo turns FALSE (%d notes) and can-undo TRUE (%d notes)",
         log.redo_notes, log.undo_notes);
  CHECK_INT (log.edits, 3 * N_EDITS);
  flitlab_document_redo (DOC (window));
  CHECK (log.edits == 3 * N_EDITS && log.redo_notes == 2, "a redo with nothing to redo changes nothing");
  check_counts_shown (window, "after redoing everything");
  CHECK_METRIC (window, "switches", "11");

  /* A new edit after an undo forgets what could be redone. */
  flitlab_document_undo (DOC (window));
  CHECK (flitlab_document_can_redo (DOC (window)) && log.redo_notes == 3, "one undo again allows a redo");
  g_object_set (canvas, "new-switch-ports", 1, NULL);
  flitlab_canvas_set_tool (canvas, FLITLAB_CANVAS_TOOL_ADD_SWITCH);
  pointer_click (drag, x3, y3);
  flitlab_document_get_selection (DOC (window), &c, &link);
  CHECK (!flitlab_document_can_redo (DOC (window)) && log.redo_notes == 4 && !action_enabled (window, "redo"),
         "a new edit forgets the redo step, notified (%d)", log.redo_notes);
  CHECK (c >= 0 && fl_topology_node_ports (flitlab_document_get_topology (DOC (window)), c) == 1,
         "the new switch %d has the one port asked for", c);
  flitlab_canvas_set_tool (canvas, FLITLAB_CANVAS_TOOL_ADD_HOST);
  pointer_click (drag, x3, y3);

  /* Its one port taken by a host, the switch refuses a link: the canvas
   * says why, the window shows it in a toast, and nothing changes. */
  before = flitlab_document_dup_topology (DOC (window));
  edits = log.edits;
  flitlab_canvas_set_tool (canvas, FLITLAB_CANVAS_TOOL_CONNECT);
  pointer_drag (drag, x3, y3, x1, y1);
  CHECK (log.message != NULL && g_str_has_prefix (log.message, "Cannot connect"),
         "the refused link is explained: %s", log.message ? log.message : "(no message)");
  CHECK_SAME (flitlab_document_get_topology (DOC (window)), before, "a refused link leaves the network as it was");
  CHECK_INT (log.edits, edits);
  toast_text = log.message;
  CHECK (log.message != NULL && wait_until (window, shows_toast), "the window shows the message in a toast");

  /* Saved, the edits are in the file and the window closes without
   * asking. */
  project_path = g_build_filename (work_dir, "edited.flitlab", NULL);
  CHECK (flitlab_window_save_to_path (window, project_path, &error),
         "the edited project saves: %s", error != NULL ? error->message : "ok");
  CHECK (fl_project_open (project_path, &project, &err) == FL_OK
           && fl_project_get_topology (project, flitlab_window_get_topology_name (window), &stored,
                                       &err) == FL_OK,
         "the saved file holds the edited topology: %s", err.message);
  if (stored != NULL)
    CHECK_SAME (stored, flitlab_document_get_topology (DOC (window)), "the file holds the network as drawn");
  fl_topology_free (stored);
  fl_project_free (project);

  g_signal_handlers_disconnect_by_data (canvas, &log);
  g_signal_handlers_disconnect_by_data (DOC (window), &log);
  for (int k = 0; k <= N_EDITS; k++)
    fl_topology_free (snapshots[k]);
  fl_topology_free (before);
  g_free (log.message);
}

/* Quitting ----------------------------------------------------------------------------- */

/* Quits as Ctrl+Q does: the application closes its windows. */
static void
quit_application (FlitlabWindow *window)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (window)));

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
}

/* Opens the export dialog, cancels it, and quits: nothing the dialog left
 * behind may warn as the window goes. */
static void
run_export_quit (FlitlabWindow *window)
{
  GtkWindow *dialog;

  flitlab_window_generate (window, "ring:6", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "ring:6 is generated and measured");
  project_path = g_build_filename (work_dir, "export.flitlab", NULL);
  CHECK (flitlab_window_save_to_path (window, project_path, NULL), "the project saves");

  for (int i = 0; i < 2; i++)
    {
      g_action_group_activate_action (G_ACTION_GROUP (window), "export", NULL);
      /* Its size, page and title first, then where to write. */
      dialog = wait_for_toplevel (FLITLAB_TYPE_EXPORT_DIALOG);
      CHECK (dialog != NULL, "win.export asks for the picture's size first (time %d)", i + 1);
      if (dialog == NULL)
        return;
      g_signal_emit_by_name (dialog, "export");
      dialog = wait_for_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
      CHECK (dialog != NULL, "win.export opens a file chooser (time %d)", i + 1);
      if (dialog == NULL)
        return;
      /* Long enough for the chooser to list a folder, as it would for a
       * user. */
      for (gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC / 2; g_get_monotonic_time () < end;)
        g_main_context_iteration (NULL, FALSE);
      gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
    }
  quit_application (window);
}

static gboolean
shows_message_dialog (FlitlabWindow *window)
{
  return find_toplevel (ADW_TYPE_MESSAGE_DIALOG) != NULL;
}

/* Quits with unsaved changes and answers Discard: the window goes without
 * saving, and without a warning. */
static void
run_discard_quit (FlitlabWindow *window)
{
  GtkWindow *dialog;

  flitlab_window_generate (window, "mesh:4x4", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "mesh:4x4 is generated and measured");
  CHECK (flitlab_window_get_modified (window), "the project has unsaved changes");
  quit_application (window);
  CHECK (wait_until (window, shows_message_dialog), "quitting asks about the unsaved changes");
  dialog = wait_for_toplevel (ADW_TYPE_MESSAGE_DIALOG);
  CHECK (dialog != NULL, "the question is on screen");
  if (dialog != NULL)
    adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "discard");
}

/* Stopping the workers ------------------------------------------------------------------ */

static gboolean
shows_big_mesh (FlitlabWindow *window)
{
  return g_strcmp0 (flitlab_window_get_topology_name (window), "mesh:64x64") == 0;
}

/* The header's Stop button, shown while workers run, stops them: the
 * routing being built for a 64x64 mesh is not built, and says so. */
static void
run_stop (FlitlabWindow *window)
{
  GtkWidget *stop = find_button (GTK_WIDGET (window), "process-stop-symbolic");
  const char *refused;

  CHECK (stop != NULL && !gtk_widget_get_visible (stop), "the Stop button is hidden while idle");
  flitlab_window_generate (window, "mesh:64x64", NULL);
  CHECK (wait_until (window, shows_big_mesh), "mesh:64x64 is generated");
  CHECK (flitlab_window_get_busy (window) && stop != NULL && gtk_widget_get_visible (stop),
         "it is being measured and routed, with the Stop button shown");
  if (stop == NULL)
    return;
  g_signal_emit_by_name (stop, "clicked");
  CHECK (wait_until (window, is_idle), "Stop ends the work");
  CHECK (!gtk_widget_get_visible (stop), "the Stop button hides again");
  refused = flitlab_document_get_refused (DOC (window));
  CHECK (flitlab_document_get_routed (DOC (window)) == NULL && refused != NULL
           && strstr (refused, "Stopped") != NULL,
         "the routing was not built, and the panel says why: %s", refused != NULL ? refused : "(none)");
  project_path = g_build_filename (work_dir, "stop.flitlab", NULL);
  CHECK (flitlab_window_save_to_path (window, project_path, NULL), "the project saves");
}

/* Plumbing ---------------------------------------------------------------------------- */

int
main (int   argc,
      char *argv[])
{
  const char *scenario = argc > 1 ? argv[1] : "generate";
  g_autoptr(GError) error = NULL;

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
      harness_run_app (run_open, project_path);
    }
  else if (g_strcmp0 (scenario, "edit") == 0)
    harness_run_app (run_edit, NULL);
  else if (g_strcmp0 (scenario, "export-quit") == 0)
    harness_run_app (run_export_quit, NULL);
  else if (g_strcmp0 (scenario, "discard-quit") == 0)
    harness_run_app (run_discard_quit, NULL);
  else if (g_strcmp0 (scenario, "stop") == 0)
    harness_run_app (run_stop, NULL);
  else
    harness_run_app (run_generate, NULL);

  if (project_path != NULL)
    g_unlink (project_path);
  g_rmdir (work_dir);
  g_free (project_path);
  g_free (work_dir);
  return tap_done ();
}
