/* gui-harness.h — what every GUI test program shares: starting the real
 * application under Xvfb, waiting for its worker threads, scripting the
 * canvas' pointer gesture and writing screenshots.
 *
 * A header of static functions rather than a library because tap.h keeps
 * its counters per translation unit: the checks made here must be compiled
 * into the test program that prints the plan. */
#pragma once

#include <glib/gstdio.h>
#include <string.h>

#include <adwaita.h>

#include "flitlab-alert.h"
#include "flitlab-application.h"
#include "flitlab-lesson-panel.h"
#include "flitlab-lessons.h"
#include "flitlab-run-item.h"
#include "flitlab-transport-bar.h"
#include "flitlab-window.h"
#include "tap.h"

#define GUARD_SECONDS 90
#define WAIT_SECONDS 30

/* The document shown: it changes with the network shown. */
#define DOC(window) flitlab_window_get_document (window)

typedef gboolean (*Predicate) (FlitlabWindow *window);
typedef void (*HarnessRun) (FlitlabWindow *window);

/* Iterates the main loop until pred holds or seconds pass. */
static inline gboolean
wait_until_seconds (FlitlabWindow *window,
                    Predicate      pred,
                    int            seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;

  while (!pred (window))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
  return TRUE;
}

/* Iterates the main loop until pred holds or WAIT_SECONDS pass. */
static inline gboolean
wait_until (FlitlabWindow *window,
            Predicate      pred)
{
  return wait_until_seconds (window, pred, WAIT_SECONDS);
}

static inline gboolean
is_mapped (FlitlabWindow *window)
{
  return gtk_widget_get_mapped (GTK_WIDGET (window));
}

static inline gboolean
is_idle_with_topology (FlitlabWindow *window)
{
  return !flitlab_window_get_busy (window) && flitlab_window_get_topology_name (window) != NULL;
}

static inline gboolean
is_idle (FlitlabWindow *window)
{
  return !flitlab_window_get_busy (window);
}

/* The canvas has been laid out (it is fitted to its size on allocation). */
static inline gboolean
canvas_has_size (FlitlabWindow *window)
{
  return gtk_widget_get_width (GTK_WIDGET (flitlab_window_get_canvas (window))) > 0;
}

/* A link between two switches (links to hosts are not counted as links). */
static inline int
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

/* Renders widget as on screen into a texture (NULL if it cannot). The
 * paintable has no content until a frame has been laid out, so poll. */
static inline GdkTexture *
render_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GskRenderNode *node = NULL;
  GdkTexture *texture;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

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
    return NULL;

  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  return texture;
}

/* Renders the whole window as on screen and writes it as a PNG. */
static inline gboolean
save_screenshot (GtkWidget  *widget,
                 const char *path)
{
  g_autoptr(GdkTexture) texture = render_widget (widget);

  return texture != NULL && gdk_texture_save_to_png (texture, path);
}

/* Renders the widget and encodes it as a PNG in memory: TRUE when both
 * work. (Saving to "/dev/null" instead would replace the device with a
 * regular file: GTK writes a PNG through a temporary file renamed over
 * the path.) */
static inline gboolean
renders (GtkWidget *widget)
{
  g_autoptr(GdkTexture) texture = render_widget (widget);
  g_autoptr(GBytes) png = texture != NULL ? gdk_texture_save_to_png_bytes (texture) : NULL;

  return png != NULL && g_bytes_get_size (png) > 0;
}

/* Where screenshot name goes: $FLITLAB_SOURCE_DIR/screenshots/, made if
 * missing (the current directory without FLITLAB_SOURCE_DIR). */
static inline char *
screenshot_path (const char *name)
{
  const char *source = g_getenv ("FLITLAB_SOURCE_DIR");
  g_autofree char *shots = g_build_filename (source != NULL ? source : ".", "screenshots", NULL);

  g_mkdir_with_parents (shots, 0755);
  return g_build_filename (shots, name, NULL);
}

/* Saves the window as screenshots/name; a failed check if it cannot. */
static inline void
harness_screenshot (FlitlabWindow *window,
                    const char    *name)
{
  g_autofree char *path = screenshot_path (name);

  CHECK (save_screenshot (GTK_WIDGET (window), path), "the window renders to %s", path);
}

/* Generates spec and waits until it is measured and routed; a failed check
 * if it is not shown under its spec's name. */
static inline void
show_generated (FlitlabWindow *window,
                const char    *spec)
{
  flitlab_window_generate (window, spec, NULL);
  CHECK (wait_until (window, is_idle_with_topology)
           && g_strcmp0 (flitlab_window_get_topology_name (window), spec) == 0,
         "%s is generated, measured and routed", spec);
}

/* The canvas' pointer gesture. Emitting its signals runs the tools' own
 * code exactly as a mouse would, short of the event delivery, which Xvfb
 * cannot script deterministically. */
static inline GtkGestureDrag *
canvas_drag_gesture (FlitlabCanvas *canvas)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (canvas));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      /* The canvas keeps its controllers: the pointer stays valid. */
      if (GTK_IS_GESTURE_DRAG (controller))
        return GTK_GESTURE_DRAG (controller);
    }
  return NULL;
}

static inline void
pointer_drag (GtkGestureDrag *drag,
              double          x1,
              double          y1,
              double          x2,
              double          y2)
{
  g_signal_emit_by_name (drag, "drag-begin", x1, y1);
  if (x1 != x2 || y1 != y2)
    g_signal_emit_by_name (drag, "drag-update", x2 - x1, y2 - y1);
  g_signal_emit_by_name (drag, "drag-end", x2 - x1, y2 - y1);
}

static inline void
pointer_click (GtkGestureDrag *drag,
               double          x,
               double          y)
{
  pointer_drag (drag, x, y, x, y);
}

/* Presses a shortcut of widget's own (a binding of its class, or a
 * shortcut controller added to it) as the key would: its trigger is looked
 * up among widget's shortcut controllers and its action activated. */
static inline gboolean
press_shortcut_on (GtkWidget  *widget,
                   const char *accelerator)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          if (g_strcmp0 (trigger, accelerator) == 0)
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                                 gtk_shortcut_get_arguments (shortcut));
        }
    }
  return FALSE;
}

static inline gboolean
press_shortcut (FlitlabWindow *window,
                const char    *accelerator)
{
  return press_shortcut_on (GTK_WIDGET (window), accelerator);
}

/* Saves the project into a file that is then removed, so that the window
 * closes without asking about unsaved changes. */
static inline void
save_and_forget (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flitlab-gui-XXXXXX", &error);
  g_autofree char *path = dir != NULL ? g_build_filename (dir, "saved.flitlab", NULL) : NULL;

  CHECK (path != NULL && flitlab_window_save_to_path (window, path, &error),
         "the project saves: %s", error != NULL ? error->message : "ok");
  if (path != NULL)
    g_unlink (path);
  if (dir != NULL)
    g_rmdir (dir);
}

/* Whether the window shows a lesson, with its network ready. */
static inline gboolean
harness_lesson_open (FlitlabWindow *window)
{
  return flitlab_lesson_panel_get_lesson (flitlab_window_get_lesson_panel (window)) != NULL
         && is_idle_with_topology (window);
}

/* Opens the installed (or $FLITLAB_LESSONS_DIR's) lesson id in window. */
static inline void
harness_open_lesson (FlitlabWindow *window,
                     const char    *id)
{
  g_autofree char *name = g_strconcat (id, ".lesson", NULL);
  g_autofree char *path = g_build_filename (fl_lesson_dir (), name, NULL);
  g_autoptr(GError) error = NULL;
  FlLesson *lesson = flitlab_lesson_load (path, &error);

  CHECK (lesson != NULL && flitlab_window_open_lesson (window, lesson, &error)
         && wait_until (window, harness_lesson_open),
         "%s opens: %s", id, error != NULL ? error->message : "ok");
}

typedef gboolean (*WidgetMatch) (GtkWidget    *widget,
                                 gconstpointer data);

/* The first widget under widget, itself included, that match takes (depth
 * first), or NULL. */
static inline GtkWidget *
find_matching (GtkWidget    *widget,
               WidgetMatch   match,
               gconstpointer data)
{
  if (widget == NULL || match (widget, data))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_matching (child, match, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static inline gboolean
label_reads_ (GtkWidget    *widget,
              gconstpointer text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* The label under widget that reads text, or NULL. */
static inline GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  return find_matching (widget, label_reads_, text);
}

static inline gboolean
button_labelled_ (GtkWidget    *widget,
                  gconstpointer label)
{
  return GTK_IS_BUTTON (widget)
         && (g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0
             || g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), label) == 0);
}

/* The button under widget labelled label (its mnemonic included: "_Run"),
 * or showing icon label, or NULL. */
static inline GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  return find_matching (widget, button_labelled_, label);
}

typedef struct
{
  GType type;
  const char *title;
} WidgetKind;

static inline gboolean
is_kind_ (GtkWidget    *widget,
          gconstpointer data)
{
  const WidgetKind *kind = data;

  return g_type_is_a (G_OBJECT_TYPE (widget), kind->type)
         && (kind->title == NULL
             || g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), kind->title) == 0);
}

/* The first widget of type under widget; with a title, the preferences row
 * of that title. */
static inline GtkWidget *
find_widget (GtkWidget  *widget,
             GType       type,
             const char *title)
{
  WidgetKind kind = { type, title };

  return find_matching (widget, is_kind_, &kind);
}

/* The window's transport bar, and the simulation it plays (or NULL). */
static inline FlitlabTransportBar *
bar_of (FlitlabWindow *window)
{
  return FLITLAB_TRANSPORT_BAR (find_widget (GTK_WIDGET (window), FLITLAB_TYPE_TRANSPORT_BAR, NULL));
}

static inline FlitlabSimSession *
session_of (FlitlabWindow *window)
{
  return DOC (window) != NULL ? flitlab_document_get_simulation (DOC (window)) : NULL;
}

/* The name of the page on top of the window's side stack (the one with
 * the Simulate tab). */
static inline const char *
side_page (FlitlabWindow *window)
{
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (flitlab_window_get_routing_panel (window)), GTK_TYPE_STACK);

  return stack != NULL ? gtk_stack_get_visible_child_name (GTK_STACK (stack)) : "(none)";
}

/* Whether a label that reads text is on screen under widget. */
static inline gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  GtkWidget *label = find_label (widget, text);

  return label != NULL && gtk_widget_is_drawable (label);
}

/* The runs of the experiment shown that the Experiments view's table lists
 * with status ("done", "missing", ...). */
static inline guint
count_status (FlitlabWindow *window,
              const char    *status)
{
  FlitlabExperimentsView *view = flitlab_window_get_experiments_view (window);
  GListModel *shown = flitlab_runs_table_get_shown (flitlab_experiments_view_get_table (view));
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(FlitlabRunItem) item = g_list_model_get_item (shown, i);

      n += g_strcmp0 (flitlab_run_item_get_status (item), status) == 0;
    }
  return n;
}

/* The first toplevel of type other than window, or NULL: a dialog. */
static inline GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (g_type_is_a (G_OBJECT_TYPE (toplevel), type))
        return GTK_WINDOW (toplevel);
    }
  return NULL;
}

/* Iterates the main loop until a toplevel of type shows, or WAIT_SECONDS
 * pass. */
static inline GtkWindow *
wait_for_toplevel (GType type)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;
  GtkWindow *found;

  while ((found = find_toplevel (type)) == NULL || !gtk_widget_get_mapped (GTK_WIDGET (found)))
    {
      if (g_get_monotonic_time () > deadline)
        return NULL;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
  return found;
}

/* Alerts --------------------------------------------------------------------- */

/* The alert open over parent, on screen and laid out, or NULL. */
static inline AdwMessageDialog *
harness_alert (GtkWindow *parent)
{
  GtkWidget *dialog = flitlab_alert_get_open (parent);

  return dialog != NULL && gtk_widget_get_mapped (dialog) && gtk_widget_get_width (dialog) > 0
           ? ADW_MESSAGE_DIALOG (dialog)
           : NULL;
}

/* Iterates the main loop until an alert shows over parent, or seconds
 * pass: the alert, or NULL. */
static inline AdwMessageDialog *
harness_wait_for_alert (GtkWindow *parent,
                        int        seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;

  while (harness_alert (parent) == NULL && g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
  return harness_alert (parent);
}

/* Whether widget lies whole inside the window it is in. */
static inline gboolean
inside_window (GtkWidget *widget)
{
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (widget));
  graphene_rect_t bounds;

  return gtk_widget_compute_bounds (widget, window, &bounds) && bounds.origin.x >= 0 && bounds.origin.y >= 0
         && bounds.origin.x + bounds.size.width <= gtk_widget_get_width (window)
         && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (window);
}

/* Whether the alert is as a failure's must be: modal over parent, its
 * whole body on screen in a label that wraps rather than cuts it and can
 * be selected, and its Close button in sight. */
static inline gboolean
harness_alert_shows_all (AdwMessageDialog *alert,
                         GtkWindow        *parent)
{
  GtkWidget *label = find_label (GTK_WIDGET (alert), adw_message_dialog_get_body (alert));
  GtkWidget *close = find_button (GTK_WIDGET (alert), "_Close");

  return gtk_window_get_transient_for (GTK_WINDOW (alert)) == parent && gtk_window_get_modal (GTK_WINDOW (alert))
         && label != NULL && gtk_widget_is_drawable (label) && inside_window (label)
         && gtk_label_get_wrap (GTK_LABEL (label))
         && gtk_label_get_ellipsize (GTK_LABEL (label)) == PANGO_ELLIPSIZE_NONE
         && gtk_label_get_selectable (GTK_LABEL (label)) && close != NULL && inside_window (close);
}

/* Closes the alert over parent with its Close button, if one is open, and
 * waits until it has gone: FALSE if it stays. */
static inline gboolean
harness_close_alert (GtkWindow *parent)
{
  AdwMessageDialog *alert = harness_alert (parent);
  GtkWidget *close = alert != NULL ? find_button (GTK_WIDGET (alert), "_Close") : NULL;
  gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  if (alert == NULL)
    return TRUE;
  if (close == NULL)
    return FALSE;
  gtk_widget_activate (close);
  while (flitlab_alert_get_open (parent) != NULL || find_toplevel (ADW_TYPE_MESSAGE_DIALOG) != NULL)
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
  return TRUE;
}

/* Running the application ---------------------------------------------------- */

static HarnessRun harness_run_;
static gint64 harness_window_gone_;

static inline void
harness_window_gone_cb_ (gpointer  data,
                         GObject  *where_the_object_was)
{
  harness_window_gone_ = g_get_monotonic_time ();
}

static inline gboolean
harness_guard_ (gpointer user_data)
{
  CHECK (FALSE, "the scenario finished within %d s", GUARD_SECONDS);
  exit (tap_done ());
}

static inline gboolean
harness_start_ (gpointer user_data)
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
  g_object_weak_ref (G_OBJECT (window), harness_window_gone_cb_, NULL);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  CHECK (width == 1280 && height == 800, "the window opens at 1280x800 (got %dx%d)", width, height);

  /* A scenario may close the window itself (quitting, say). */
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  harness_run_ (window);

  if (window != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      gtk_window_close (GTK_WINDOW (window));
    }
  return G_SOURCE_REMOVE;
}

static inline void
harness_no_animations_ (GApplication *app)
{
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

static inline void
harness_started_ (GApplication *app)
{
  g_idle_add (harness_start_, app);
}

/* Runs the application as `flitlab-gui [file]` would, calls run with its
 * window once it is mapped, and closes the window after it. A guard
 * timeout fails the test instead of letting it hang. */
static inline void
harness_run_app (HarnessRun  run,
                 const char *file)
{
  g_autoptr(FlitlabApplication) app = flitlab_application_new ();
  char *argv[3] = { (char *) "test-gui", (char *) file, NULL };
  int status;

  harness_run_ = run;
  g_timeout_add_seconds (GUARD_SECONDS, harness_guard_, NULL);
  /* Screenshots show the end of every transition (a row's selection fades
   * over a fifth of a second), not a frame of it. */
  g_signal_connect (app, "startup", G_CALLBACK (harness_no_animations_), NULL);
  g_signal_connect_after (app, "activate", G_CALLBACK (harness_started_), NULL);
  g_signal_connect_after (app, "open", G_CALLBACK (harness_started_), NULL);
  status = g_application_run (G_APPLICATION (app), file != NULL ? 2 : 1, argv);
  CHECK_INT (status, 0);
  /* The process must end as soon as its window has gone. */
  CHECK (harness_window_gone_ != 0, "the window was finalized before the application ended");
  if (harness_window_gone_ != 0)
    printf ("# the application ended %.3f s after its window was finalized\n",
            (g_get_monotonic_time () - harness_window_gone_) / 1e6);
}

/* A test program's scenarios: the one argv[1] names (dflt without one) is
 * run as harness_run_app (run, NULL) does; an unknown name is a failed
 * check. Returns the exit status, as tap_done(). */
typedef struct
{
  const char *name;
  HarnessRun run;
} HarnessScenario;

static inline int
harness_main (int                    argc,
              char                  *argv[],
              const char            *dflt,
              const HarnessScenario *scenarios,
              gsize                  n)
{
  const char *scenario = argc > 1 ? argv[1] : dflt;

  for (gsize i = 0; i < n; i++)
    if (g_str_equal (scenario, scenarios[i].name))
      {
        harness_run_app (scenarios[i].run, NULL);
        return tap_done ();
      }
  CHECK (FALSE, "a known scenario: %s", scenario);
  return tap_done ();
}
