/* test-gui-lesson.c — a guided lesson in the window, as a class would take
 * it.
 *
 * Scenarios (one per process, under Xvfb):
 *   lesson  app.lessons lists the lessons; choosing deadlock-ring opens it in
 *           the blank window: ring:8 routed by dor with one class, the
 *           lesson panel at step 1 of 7; Next walks every step to the end
 *           (each shows its tab and its highlight on the canvas) and
 *           Alt+Left back to the start; an answer revealed; writes
 *           screenshots/lesson-panel.png; Close Lesson; a broken lesson is
 *           listed with its message and opening it says why in an alert,
 *           and so does a missing file, in the same alert, with no crash
 *   lesson-collectives  the lessons on collectives walked step by step in
 *           one window: each step prepares its page of the Collectives tab
 *           (multicast-trees: the algorithm and the latency the lesson
 *           states; complete-exchange: SEM's step and node; myrinet-schedule:
 *           the colours of AssignColor and first fit); New Project then
 *           ends the lesson
 */
#include <glib/gstdio.h>

#include "flitlab-canvas.h"
#include "flitlab-collectives-panel.h"
#include "flitlab-exchange-page.h"
#include "flitlab-multicast-page.h"
#include "flitlab-schedule-page.h"
#include "flitlab-lesson-panel.h"
#include "flitlab-lessons.h"
#include "gui-harness.h"

#define CHECK_STR(got, want)                                                      \
  do                                                                              \
    {                                                                             \
      const char *got_ = (got), *want_ = (want);                                  \
      CHECK (g_strcmp0 (got_, want_) == 0, "%s is \"%s\" (got \"%s\")", #got, want_, \
             got_ != NULL ? got_ : "(null)");                                    \
    }                                                                             \
  while (0)

#define LESSON_TITLE "Routing and deadlock on a ring"

static FlitlabLessonPanel *
panel_of (FlitlabWindow *window)
{
  return flitlab_window_get_lesson_panel (window);
}

static gboolean
label_contains_ (GtkWidget    *widget,
                 gconstpointer text)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

/* A label under widget that says text, or NULL. */
static GtkWidget *
find_text (GtkWidget  *widget,
           const char *text)
{
  return find_matching (widget, label_contains_, text);
}

static GtkListBoxRow *
row_titled (GtkWindow  *list,
            const char *title)
{
  return GTK_LIST_BOX_ROW (find_widget (GTK_WIDGET (list), ADW_TYPE_ACTION_ROW, title));
}

static GtkWindow *
lessons_window (void)
{
  GtkWindow *found = wait_for_toplevel (ADW_TYPE_WINDOW);

  return found != NULL && FLITLAB_IS_WINDOW (found) ? NULL : found;
}

static gboolean
same_pairs (const FlLessonPair *a,
            int                 na,
            const FlLessonPair *b,
            int                 nb)
{
  return na == nb && (na == 0 || memcmp (a, b, (gsize) na * sizeof *a) == 0);
}

/* The canvas highlights what step s names, and the side shows its tab. */
static void
check_step (FlitlabWindow      *window,
            const FlLesson     *lesson,
            int                 i)
{
  const FlLessonStep *s = &lesson->steps[i];
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  const int *nodes;
  const FlLessonPair *links, *channels;
  int n_nodes, n_links, n_channels;
  g_autofree char *progress = g_strdup_printf ("Step %d of %d", i + 1, lesson->n_steps);

  flitlab_canvas_get_highlight (canvas, &nodes, &n_nodes, &links, &n_links, &channels, &n_channels);
  CHECK (flitlab_lesson_panel_get_step (panel_of (window)) == i && shows_label (GTK_WIDGET (window), progress)
         && shows_label (GTK_WIDGET (window), s->title),
         "step %d shows \"%s\" and its title", i + 1, progress);
  CHECK (n_nodes == s->n_nodes && (n_nodes == 0 || memcmp (nodes, s->nodes, (gsize) n_nodes * sizeof (int)) == 0)
         && same_pairs (links, n_links, s->links, s->n_links)
         && same_pairs (channels, n_channels, s->channels, s->n_channels),
         "step %d: the canvas highlights its %d switches, %d links and %d channels", i + 1,
         s->n_nodes, s->n_links, s->n_channels);
  if (s->tab == FL_LESSON_TAB_NETWORK)
    CHECK_STR (side_page (window), "metrics");
  else if (s->tab != FL_LESSON_TAB_NONE)
    CHECK_STR (side_page (window), fl_lesson_tab_name (s->tab));
}

static void
walk (FlitlabWindow  *window,
      const FlLesson *lesson)
{
  GtkWidget *panel = GTK_WIDGET (panel_of (window));
  GtkWidget *next = find_button (panel, "_Next");
  GtkWidget *back = find_button (panel, "_Back");

  CHECK (next != NULL && back != NULL && find_button (panel, "_Close Lesson") != NULL,
         "the panel has Back, Next and Close Lesson buttons");
  CHECK (!gtk_widget_is_sensitive (back), "Back is off at step 1");
  check_step (window, lesson, 0);
  for (int i = 1; i < lesson->n_steps; i++)
    {
      g_signal_emit_by_name (next, "clicked");
      check_step (window, lesson, i);
    }
  CHECK (!gtk_widget_is_sensitive (next), "Next is off at the last step");
  for (int i = lesson->n_steps - 2; i >= 0; i--)
    {
      CHECK (press_shortcut_on (panel, "<Alt>Left"), "Alt+Left goes back to step %d", i + 1);
      check_step (window, lesson, i);
    }
  CHECK (press_shortcut_on (panel, "<Alt>Right"), "Alt+Right goes on");
  CHECK_INT (flitlab_lesson_panel_get_step (panel_of (window)), 1);
}

static void
check_answer (FlitlabWindow  *window,
              const FlLesson *lesson)
{
  GtkWidget *panel = GTK_WIDGET (panel_of (window));
  const FlLessonStep *s = &lesson->steps[2];
  GtkWidget *answer;

  flitlab_lesson_panel_set_step (panel_of (window), 2);
  CHECK (s->question != NULL && shows_label (panel, s->question), "step 3 asks its question");
  answer = find_label (panel, s->answer);
  CHECK (answer != NULL && !flitlab_lesson_panel_get_answer_revealed (panel_of (window)),
         "its answer is hidden");
  g_signal_emit_by_name (find_button (panel, "Show _Answer"), "clicked");
  CHECK (flitlab_lesson_panel_get_answer_revealed (panel_of (window)) && find_button (panel, "Hide _Answer") != NULL,
         "Show Answer reveals it");
}

/* Every key of the panel is listed in the shortcuts window. */
static void
check_keys_listed (FlitlabWindow *window)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/flitlab/Flitlab/gtk/help-overlay.ui");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  int found = 0;

  for (GSList *o = objects; o != NULL; o = o->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (o->data))
      {
        g_autofree char *text = NULL;

        g_object_get (o->data, "accelerator", &text, NULL);
        found += g_strcmp0 (text, "<Alt>Left") == 0 || g_strcmp0 (text, "<Alt>Right") == 0;
      }
  CHECK_INT (found, 2);
}

static char *
write_file (const char *dir,
            const char *name,
            const char *text)
{
  char *path = g_build_filename (dir, name, NULL);

  CHECK (g_file_set_contents (path, text, -1, NULL), "%s is written", name);
  return path;
}

/* A lesson with a typo: listed with its message; opening it says why. */
static void
check_broken (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flitlab-lessons-XXXXXX", &error);
  g_autofree char *bad = write_file (dir, "broken.lesson",
                                     "<lesson id=\"broken\" version=\"1\"><title>Broken</title>\n"
                                     "<network spec=\"ring:8\"/><step><titel>x</titel></step></lesson>\n");
  g_autofree char *missing = g_build_filename (dir, "missing.lesson", NULL);
  g_autofree char *old = g_strdup (g_getenv ("FLITLAB_LESSONS_DIR"));
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));
  GtkWindow *list;
  GtkListBoxRow *row;
  AdwMessageDialog *alert;

  g_setenv ("FLITLAB_LESSONS_DIR", dir, TRUE);
  g_action_group_activate_action (G_ACTION_GROUP (app), "lessons", NULL);
  list = lessons_window ();
  row = list != NULL ? row_titled (list, "broken.lesson") : NULL;
  CHECK (row != NULL && find_text (GTK_WIDGET (row), "unknown element <titel>") != NULL,
         "the list shows the broken lesson with its message");
  if (list != NULL)
    gtk_window_destroy (list);
  g_setenv ("FLITLAB_LESSONS_DIR", old, TRUE);

  g_action_group_activate_action (G_ACTION_GROUP (app), "open-lesson", g_variant_new_string (bad));
  alert = harness_wait_for_alert (GTK_WINDOW (window), 10);
  CHECK (alert != NULL && g_strcmp0 (adw_message_dialog_get_heading (alert), "Could Not Open the Lesson") == 0
           && find_text (GTK_WIDGET (alert), "broken.lesson:2: unknown element <titel>") != NULL
           && harness_alert_shows_all (alert, GTK_WINDOW (window)),
         "opening it says why in an alert over the window");
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-lesson", g_variant_new_string (missing));
  alert = harness_wait_for_alert (GTK_WINDOW (window), 10);
  CHECK (alert != NULL && find_toplevel (ADW_TYPE_MESSAGE_DIALOG) == GTK_WINDOW (alert)
           && g_strcmp0 (adw_message_dialog_get_heading (alert), "Several Things Went Wrong") == 0
           && find_text (GTK_WIDGET (alert), "missing.lesson: No such file") != NULL
           && find_text (GTK_WIDGET (alert), "broken.lesson:2: unknown element <titel>") != NULL,
         "so does a missing file, in the same alert");
  CHECK (harness_close_alert (GTK_WINDOW (window)), "the alert closes");
  CHECK (g_list_length (gtk_application_get_windows (app)) == 1, "and no window is opened for them");
  g_unlink (bad);
  g_rmdir (dir);
}

static void
run_lesson (FlitlabWindow *window)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));
  const FlitlabRoutingRequest *request;
  const FlLesson *lesson;
  GtkWindow *list;
  GtkListBoxRow *row;

  CHECK (flitlab_window_is_blank (window), "a new window is blank");
  g_action_group_activate_action (G_ACTION_GROUP (app), "lessons", NULL);
  list = lessons_window ();
  CHECK (list != NULL, "app.lessons shows the lessons");
  row = list != NULL ? row_titled (list, LESSON_TITLE) : NULL;
  CHECK (row != NULL && find_label (GTK_WIDGET (row), "7 steps") != NULL, "deadlock-ring is listed with its 7 steps");
  if (row == NULL)
    return;
  g_signal_emit_by_name (gtk_widget_get_parent (GTK_WIDGET (row)), "row-activated", row);
  CHECK (wait_until (window, harness_lesson_open), "choosing it opens the lesson in the window");
  CHECK (g_list_length (gtk_application_get_windows (app)) == 1, "the blank window took it, and the list closed");

  CHECK_STR (flitlab_window_get_topology_name (window), "ring:8");
  request = flitlab_document_get_request (DOC (window));
  CHECK (request != NULL && g_strcmp0 (request->name, "dor") == 0 && request->vc_classes == 1,
         "the routing is dor with one class");
  {
    char packet[32] = "";

    fl_sim_settings_format (flitlab_document_get_sim_settings (DOC (window)), "packet", packet, sizeof packet);
    CHECK_STR (packet, "16");
  }
  lesson = flitlab_lesson_panel_get_lesson (panel_of (window));
  CHECK_INT (lesson->n_steps, 7);
  CHECK (gtk_widget_is_drawable (GTK_WIDGET (panel_of (window))), "the lesson panel shows");

  walk (window, lesson);
  check_answer (window, lesson);
  check_keys_listed (window);
  CHECK (wait_until (window, is_idle), "the routing is built");
  harness_screenshot (window, "lesson-panel.png");

  g_signal_emit_by_name (find_button (GTK_WIDGET (panel_of (window)), "_Close Lesson"), "clicked");
  {
    int n_nodes = -1, n_channels = -1;

    flitlab_canvas_get_highlight (flitlab_window_get_canvas (window), NULL, &n_nodes, NULL, NULL, NULL, &n_channels);
    CHECK (flitlab_lesson_panel_get_lesson (panel_of (window)) == NULL && n_nodes == 0 && n_channels == 0
           && !gtk_widget_is_drawable (GTK_WIDGET (panel_of (window))),
           "Close Lesson ends it: no panel, no highlight");
  }
  CHECK_STR (flitlab_window_get_topology_name (window), "ring:8");

  check_broken (window);
  save_and_forget (window);
}

static GtkWidget *
page_of (FlitlabWindow *window,
         const char    *kind)
{
  FlitlabCollectivesPanel *panel =
    FLITLAB_COLLECTIVES_PANEL (find_widget (GTK_WIDGET (window), FLITLAB_TYPE_COLLECTIVES_PANEL, NULL));

  CHECK_STR (flitlab_collectives_panel_get_kind (panel), kind);
  return flitlab_collectives_panel_get_page (panel, kind);
}

/* Goes to step i (0-based) and waits for the window's work. */
static void
go_to (FlitlabWindow *window,
       int            i)
{
  CHECK (flitlab_lesson_panel_set_step (panel_of (window), i) && wait_until (window, is_idle),
         "step %d shows", i + 1);
  CHECK_STR (side_page (window), "collectives");
}

static const char *want_latency;

static gboolean
latency_shown (FlitlabWindow *window)
{
  GtkWidget *page = page_of (window, "multicast");

  return g_strcmp0 (flitlab_multicast_page_get_value (FLITLAB_MULTICAST_PAGE (page), "latency"), want_latency) == 0;
}

static void
check_multicast (FlitlabWindow *window)
{
  static const struct {
    const char *algorithm, *latency;
  } steps[] = { { "sequential", "175" }, { "binomial", "165" }, { "opt-tree", "130" },
                { "u-mesh", "165" }, { "opt-mesh", "130" }, { "opt-tree", "155" } };

  harness_open_lesson (window, "multicast-trees");
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      FlitlabMulticastPage *page;
      int n = 0;

      go_to (window, (int) i);
      page = FLITLAB_MULTICAST_PAGE (page_of (window, "multicast"));
      want_latency = steps[i].latency;
      CHECK (wait_until (window, latency_shown), "step %u: %s takes %s (shows %s)", i + 1, steps[i].algorithm,
             steps[i].latency, flitlab_multicast_page_get_value (page, "latency"));
      flitlab_multicast_page_get_dests (page, &n);
      CHECK (n == (i < 5 ? 7 : 12) && flitlab_multicast_page_get_source (page) == (i < 5 ? 15 : 25),
             "step %u: the source %d and %d destinations", i + 1, flitlab_multicast_page_get_source (page), n);
    }
  CHECK (strstr (flitlab_multicast_page_get_value (FLITLAB_MULTICAST_PAGE (page_of (window, "multicast")),
                                                   "conflicts"), "share channel 20 → 14") != NULL,
         "OPT-tree's shared channel 20 → 14 is listed");
}

static gboolean
exchange_done (FlitlabWindow *window)
{
  return !flitlab_exchange_page_get_running (FLITLAB_EXCHANGE_PAGE (page_of (window, "exchange")));
}

static void
check_exchange (FlitlabWindow *window)
{
  static const struct {
    int step, node;
    FlAllToAllAlgorithm algorithm;
  } steps[] = { { 0, 0, FL_ALLTOALL_DIRECT }, { 3, 0, FL_ALLTOALL_DIRECT }, { 2, 0, FL_ALLTOALL_SEM },
                { 3, 8, FL_ALLTOALL_SEM }, { 9, 0, FL_ALLTOALL_SEM } };

  harness_open_lesson (window, "complete-exchange");
  CHECK_STR (flitlab_window_get_topology_name (window), "torus:16x16");
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      FlitlabExchangePage *page;
      const FlAllToAll *run;

      go_to (window, (int) i);
      CHECK (wait_until (window, exchange_done), "step %u: the exchange is run", i + 1);
      page = FLITLAB_EXCHANGE_PAGE (page_of (window, "exchange"));
      run = flitlab_exchange_page_get_run (page);
      CHECK (run != NULL && fl_alltoall_algorithm (run) == steps[i].algorithm && fl_alltoall_size (run) == 16
             && flitlab_exchange_page_get_step (page) == (guint) steps[i].step
             && flitlab_exchange_page_get_node (page) == steps[i].node,
             "step %u: %s on 16x16 after step %d at node %d (shows step %u, node %d)", i + 1,
             fl_alltoall_algorithm_name (steps[i].algorithm), steps[i].step, steps[i].node,
             flitlab_exchange_page_get_step (page), flitlab_exchange_page_get_node (page));
    }
  CHECK_STR (flitlab_exchange_page_get_value (FLITLAB_EXCHANGE_PAGE (page_of (window, "exchange")), "startups"),
             "9");
}

static gboolean
schedule_done (FlitlabWindow *window)
{
  FlitlabSchedulePage *page = FLITLAB_SCHEDULE_PAGE (page_of (window, "schedule"));

  return !flitlab_schedule_page_get_running (page) && flitlab_schedule_page_get_schedule (page) != NULL;
}

static void
check_schedule (FlitlabWindow *window)
{
  static const int colours[] = { 4, 4, 4, 5, 4, 3 };

  harness_open_lesson (window, "myrinet-schedule");
  for (guint i = 0; i < G_N_ELEMENTS (colours); i++)
    {
      FlitlabSchedulePage *page;
      int n = 0;

      go_to (window, (int) i);
      CHECK (wait_until (window, schedule_done), "step %u: the requests are coloured", i + 1);
      page = FLITLAB_SCHEDULE_PAGE (page_of (window, "schedule"));
      flitlab_schedule_page_get_colors (page, &n);
      CHECK (n == colours[i] && g_strcmp0 (flitlab_schedule_page_get_value (page, "l-max"), i < 5 ? "4" : "2") == 0,
             "step %u: %d colours, L_max %s (got %d, %s)", i + 1, colours[i], i < 5 ? "4" : "2", n,
             flitlab_schedule_page_get_value (page, "l-max"));
    }
}

static void
run_lesson_collectives (FlitlabWindow *window)
{
  check_multicast (window);
  check_exchange (window);
  check_schedule (window);
  save_and_forget (window);

  /* Another project replaces the one the lesson set up, and ends it. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "new-project", NULL);
  CHECK (wait_until (window, is_idle) && flitlab_window_get_topology_name (window) == NULL, "a new project shows");
  CHECK (flitlab_lesson_panel_get_lesson (panel_of (window)) == NULL && g_strcmp0 (side_page (window), "(none)") != 0
           && !gtk_widget_is_drawable (GTK_WIDGET (panel_of (window))),
         "New Project ends the lesson: no lesson panel");
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "lesson", run_lesson },
    { "lesson-collectives", run_lesson_collectives },
  };

  return harness_main (argc, argv, "lesson", scenarios, G_N_ELEMENTS (scenarios));
}
