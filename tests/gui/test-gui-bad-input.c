/* test-gui-bad-input.c — the application given what it cannot use: each
 * case must end in a message on screen that names the file and the
 * problem, with the window still usable and its main loop running.
 *
 *   bad-project    started on a file that is not SQLite, then opened (as
 *                  the Open dialog does) on a truncated project, an SQLite
 *                  database of another program and a project with a
 *                  damaged row: an alert names each file and its problem,
 *                  and a network can be generated afterwards;
 *   newer-project  a project of a later schema version, on the command
 *                  line and through Open: the alert says a newer Flitlab
 *                  wrote it, and the file's bytes do not change;
 *   bad-import     a trace with a bad line, run from the Simulate tab and
 *                  played on the transport bar, and a requests file with
 *                  a bad line in the schedule page: the message names the
 *                  file and the line, the network does not change;
 *   huge-network   specs for networks too large to build are refused as
 *                  typed and on Generate; a large legal one generates
 *                  while the main loop keeps running, and Stop stops it;
 *   deadlock-bar   a run that deadlocks stops with the cycle named while
 *                  the main loop keeps running, and the transport bar
 *                  still steps and plays;
 *   save-failure   saving into a directory that cannot take the file says
 *                  why and keeps the unsaved work in the window;
 *   several-failures  failures that come while an alert is open join it,
 *                  each message whole, the oldest giving way beyond five;
 *                  once it is closed, the next failure has an alert of its
 *                  own.
 *
 * Every failure is told in an alert over the window (a toast would cut its
 * message at one line): the checks read its heading and its whole body.
 *
 * The main loop's liveness is measured by a heartbeat: a 10 ms timeout
 * whose longest gap between two calls is what a user would see as a
 * frozen window. */
#include <sqlite3.h>
#include <time.h>
#include <unistd.h>

#include "flitlab-collectives-panel.h"
#include "flitlab-generator-panel.h"
#include "flitlab-schedule-page.h"
#include "flitlab-simulate-panel.h"
#include "flitlab-store.h"
#include "flitlab-transport-bar.h"
#include "gui-harness.h"

/* The longest the main loop may stall while work runs in a worker. */
#define MAX_STALL_MS 500

static char *work_dir;

/* The heartbeat ---------------------------------------------------------------- */

/* The machine the tests run on may be shared: a long gap between two beats
 * can be the scheduler's. What the window makes of it is the main thread's
 * own time between two beats, which is what the checks bound; the wall
 * clock's gap is printed. */
static gint64 beat_last, beat_last_cpu;
static gint64 beat_max_gap, beat_max_cpu;
static guint beat_id;

/* The main thread's CPU time, in microseconds. */
static gint64
thread_cpu_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gboolean
beat (gpointer user_data)
{
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_time ();

  if (beat_last != 0)
    {
      beat_max_gap = MAX (beat_max_gap, now - beat_last);
      beat_max_cpu = MAX (beat_max_cpu, cpu - beat_last_cpu);
    }
  beat_last = now;
  beat_last_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

static void
heartbeat_start (void)
{
  beat_last = 0;
  beat_max_gap = 0;
  beat_max_cpu = 0;
  beat_id = g_timeout_add (10, beat, NULL);
}

/* The most time the main thread spent between two beats since
 * heartbeat_start(), in ms; prints it with the longest gap, saying what. */
static double
heartbeat_stop (const char *what)
{
  g_clear_handle_id (&beat_id, g_source_remove);
  printf ("# %s: the main thread worked at most %.0f ms between two beats, %.0f ms apart at most\n", what,
          beat_max_cpu / 1000.0, beat_max_gap / 1000.0);
  return beat_max_cpu / 1000.0;
}

/* Iterates the main loop for ms milliseconds. */
static void
run_loop_for (int ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
}

/* Labels on screen ------------------------------------------------------------- */

/* The words a message must hold, all of them, and the label found. */
static const char * const *wanted_words;

static gboolean
label_says_ (GtkWidget    *widget,
             gconstpointer data)
{
  const char *text;

  if (!GTK_IS_LABEL (widget) || !gtk_widget_get_visible (widget))
    return FALSE;
  text = gtk_label_get_text (GTK_LABEL (widget));
  for (const char * const *w = wanted_words; *w != NULL; w++)
    if (strstr (text, *w) == NULL)
      return FALSE;
  return TRUE;
}

/* The text of a visible label in any of the application's windows (a
 * toast's, a dialog's) that holds every word of words, or NULL. */
static const char *
find_message (const char * const *words)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  wanted_words = words;
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) toplevel = g_list_model_get_item (toplevels, i);
      GtkWidget *label = find_matching (toplevel, label_says_, NULL);

      if (label != NULL)
        return gtk_label_get_text (GTK_LABEL (label));
    }
  return NULL;
}

static const char * const *awaited_words;

static gboolean
shows_awaited_ (FlitlabWindow *window)
{
  return find_message (awaited_words) != NULL;
}

/* Waits up to 10 s for a message holding every word of words; its text,
 * or NULL. */
static const char *
wait_for_message (FlitlabWindow      *window,
                  const char * const *words)
{
  awaited_words = words;
  return wait_until_seconds (window, shows_awaited_, 10) ? find_message (words) : NULL;
}

/* Closes the alert shown, so that the next check sees only its own. */
static void
close_alert (FlitlabWindow *window)
{
  CHECK (harness_close_alert (GTK_WINDOW (window)), "the alert closes");
}

/* Waits up to 10 s for an alert over the window under heading whose body
 * holds every word of words, and checks that it shows the body whole: its
 * body, or NULL. */
static const char *
wait_for_alert (FlitlabWindow      *window,
                const char         *heading,
                const char * const *words)
{
  AdwMessageDialog *alert = harness_wait_for_alert (GTK_WINDOW (window), 10);
  const char *body = alert != NULL ? adw_message_dialog_get_body (alert) : NULL;

  CHECK (alert != NULL && g_strcmp0 (adw_message_dialog_get_heading (alert), heading) == 0,
         "an alert says “%s”: %s", heading, alert != NULL ? adw_message_dialog_get_heading (alert) : "(none)");
  CHECK (alert != NULL && harness_alert_shows_all (alert, GTK_WINDOW (window)),
         "it is modal over the window and shows its whole message, wrapped and selectable");
  for (const char * const *w = words; body != NULL && *w != NULL; w++)
    if (strstr (body, *w) == NULL)
      {
        /* What it says instead, for the failure's line. */
        g_print ("# the alert says: %s\n", body);
        return NULL;
      }
  return body;
}

/* Files ------------------------------------------------------------------------ */

static char *
work_file (const char *name)
{
  return g_build_filename (work_dir, name, NULL);
}

/* The SHA-256 of the file's bytes ("(unreadable)" if it cannot be read). */
static char *
file_hash (const char *path)
{
  g_autofree char *bytes = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &bytes, &len, NULL))
    return g_strdup ("(unreadable)");
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) bytes, len);
}

/* Writes a project holding ring:6 and mesh:3x3 to path. */
static gboolean
write_project (const char *path)
{
  FlProject *project = NULL;
  FlTopology *ring = NULL, *mesh = NULL;
  FlError err = { 0 };
  int rc = fl_project_new (&project, &err);

  if (rc == FL_OK)
    rc = fl_topology_from_spec ("ring:6", &ring, &err);
  if (rc == FL_OK)
    rc = fl_topology_from_spec ("mesh:3x3", &mesh, &err);
  if (rc == FL_OK)
    rc = fl_project_put_topology (project, "six in a ring", ring, 0, &err);
  if (rc == FL_OK)
    rc = fl_project_put_topology (project, "small mesh", mesh, 0, &err);
  if (rc == FL_OK)
    rc = fl_project_save_as (project, path, &err);
  fl_topology_free (ring);
  fl_topology_free (mesh);
  fl_project_free (project);
  CHECK (rc == FL_OK, "a project is written to %s: %s", path, err.message);
  return rc == FL_OK;
}

/* Runs sql on the SQLite database at path, made if missing. */
static void
run_sql (const char *path,
         const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;
  int rc = sqlite3_open (path, &db);

  if (rc == SQLITE_OK)
    rc = sqlite3_exec (db, sql, NULL, NULL, &message);
  CHECK (rc == SQLITE_OK, "%s on %s: %s", sql, path, message != NULL ? message : "ok");
  sqlite3_free (message);
  sqlite3_close (db);
}

/* Cuts the file at path to half its length. */
static void
truncate_half (const char *path)
{
  g_autofree char *bytes = NULL;
  gsize len = 0;

  CHECK (g_file_get_contents (path, &bytes, &len, NULL) && g_file_set_contents (path, bytes, len / 2, NULL),
         "%s is cut to %zu bytes", path, len / 2);
}

/* The projects that cannot be opened, made before the application starts. */
static char *not_sqlite;
static char *truncated;
static char *foreign;
static char *damaged_row;
static char *newer;

static void
make_bad_projects (void)
{
  not_sqlite = work_file ("notes.flitlab");
  truncated = work_file ("cut short.flitlab");
  foreign = work_file ("someone else's.flitlab");
  damaged_row = work_file ("damaged row.flitlab");
  newer = work_file ("from the future.flitlab");

  g_file_set_contents (not_sqlite, "These are my notes, not a project.\n", -1, NULL);
  if (write_project (truncated))
    truncate_half (truncated);
  run_sql (foreign, "CREATE TABLE fruit (name TEXT); INSERT INTO fruit VALUES ('apple')");
  /* A link whose end is a node that is not there. */
  if (write_project (damaged_row))
    run_sql (damaged_row, "UPDATE link SET a = 4000 WHERE idx = 0 AND topology_id ="
                          " (SELECT id FROM topology WHERE name = 'six in a ring')");
  /* A schema version this build does not know. */
  if (write_project (newer))
    run_sql (newer, "PRAGMA user_version = 99");
}

/* Opens path as the Open dialog's answer does. */
static void
open_as_dialog_does (FlitlabWindow *window,
                     const char    *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  close_alert (window);
  flitlab_window_open_file (window, file);
}

/* An alert under heading naming the file path (by its base name) and
 * holding problem; the window still shows shown (NULL: nothing). */
static void
check_refused (FlitlabWindow *window,
               const char    *heading,
               const char    *path,
               const char    *problem,
               const char    *shown)
{
  g_autofree char *base = g_path_get_basename (path);
  const char *words[] = { base, problem, NULL };
  const char *message = wait_for_alert (window, heading, words);

  CHECK (message != NULL, "a message names “%s” and says “%s”: %s", base, problem,
         message != NULL ? message : "(none)");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), shown) == 0, "the window still shows %s (%s)",
         shown != NULL ? shown : "nothing", flitlab_window_get_topology_name (window));
}

/* The window still works: it generates a network. */
static void
check_usable (FlitlabWindow *window,
              const char    *spec)
{
  heartbeat_start ();
  show_generated (window, spec);
  CHECK (heartbeat_stop (spec) < MAX_STALL_MS, "the main loop kept running while %s was generated", spec);
}

#define OPEN_FAILED "Could Not Open the Project"

static void
run_bad_project (FlitlabWindow *window)
{
  /* The file of the command line. */
  check_refused (window, OPEN_FAILED, not_sqlite, "not a Flitlab project", NULL);
  harness_screenshot (window, "bad-project.png");
  close_alert (window);
  check_usable (window, "ring:4");

  open_as_dialog_does (window, truncated);
  check_refused (window, OPEN_FAILED, truncated, "damaged", "ring:4");
  open_as_dialog_does (window, foreign);
  check_refused (window, OPEN_FAILED, foreign, "not a Flitlab project", "ring:4");
  open_as_dialog_does (window, damaged_row);
  /* The damaged network cannot be shown; the file's other one can. */
  check_refused (window, "Could Not Show the Network", damaged_row, "no node 4000", NULL);
  CHECK (wait_for_alert (window, "Could Not Show the Network",
                         (const char *[]) { "Could not show the network", "six in a ring", NULL }) != NULL,
         "the message says which network could not be shown");
  close_alert (window);
  {
    g_autoptr(GError) error = NULL;

    CHECK (flitlab_window_show_topology (window, "small mesh", &error) && wait_until (window, is_idle),
           "the project's other network shows: %s", error != NULL ? error->message : "ok");
  }
  check_usable (window, "mesh:3x3");
  save_and_forget (window);
}

/* A project of a later version ------------------------------------------------ */

static char *newer_hash;

static void
run_newer_project (FlitlabWindow *window)
{
  g_autofree char *versions = g_strdup_printf ("(project format 99; this version reads formats up to %d)",
                                               fl_project_schema_version ());
  const char *words[] = { "“from the future.flitlab” was written by a newer version of Flitlab", versions,
                          "it was not opened, and it has not been changed", NULL };
  const char *message = wait_for_alert (window, OPEN_FAILED, words);
  g_autofree char *after = NULL;
  g_autofree char *after_dialog = NULL;

  CHECK (message != NULL, "the window says a newer Flitlab wrote the file, version 99: %s",
         message != NULL ? message : "(none)");
  CHECK (flitlab_window_get_topology_name (window) == NULL, "nothing of it is shown");
  after = file_hash (newer);
  CHECK (g_strcmp0 (after, newer_hash) == 0, "its bytes have not changed (%s)", after);

  open_as_dialog_does (window, newer);
  message = wait_for_alert (window, OPEN_FAILED, words);
  CHECK (message != NULL, "opened through Open, it is refused the same way: %s",
         message != NULL ? message : "(none)");
  close_alert (window);
  check_usable (window, "ring:4");
  /* Saving the untitled project goes elsewhere: the file stays as it was. */
  save_and_forget (window);
  after_dialog = file_hash (newer);
  CHECK (g_strcmp0 (after_dialog, newer_hash) == 0, "its bytes have still not changed");
}

/* Importing files -------------------------------------------------------------- */

static FlitlabSimulatePanel *
simulate_panel_of (FlitlabWindow *window)
{
  return FLITLAB_SIMULATE_PANEL (find_widget (GTK_WIDGET (window), FLITLAB_TYPE_SIMULATE_PANEL, NULL));
}

static gboolean
simulation_finished (FlitlabWindow *window)
{
  return !flitlab_simulate_panel_get_running (simulate_panel_of (window));
}

/* Sets the document's traffic to replay the trace at path. */
static void
set_trace (FlitlabWindow *window,
           const char    *path)
{
  FlSimSettings settings = { 0 };
  FlError err = { 0 };
  int rc;

  fl_sim_settings_copy (&settings, flitlab_document_get_sim_settings (DOC (window)), &err);
  rc = fl_sim_settings_set (&settings, "traffic", "trace", &err);
  if (rc == FL_OK)
    rc = fl_sim_settings_set (&settings, "trace", path, &err);
  CHECK (rc == FL_OK, "the traffic replays %s: %s", path, err.message);
  flitlab_document_set_sim_settings (DOC (window), &settings);
  fl_sim_settings_clear (&settings);
}

/* What the network is: its counts, to see that an import changed nothing. */
static char *
network_summary (FlitlabWindow *window)
{
  const FlTopology *t = flitlab_document_get_topology (DOC (window));

  return g_strdup_printf ("%s: %d nodes, %d links", flitlab_window_get_topology_name (window),
                          fl_topology_node_count (t), fl_topology_link_count (t));
}

static void
check_bad_trace (FlitlabWindow *window)
{
  g_autofree char *trace = work_file ("bad.trace");
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  const char *words[] = { "bad.trace", "line 3", NULL };
  const char *message;

  g_file_set_contents (trace, "0 0 1 4\n2 1 3 4\n5 2 x 4\n", -1, NULL);
  show_generated (window, "ring:8");
  before = network_summary (window);
  set_trace (window, trace);

  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page", g_variant_new_string ("simulate"));
  heartbeat_start ();
  CHECK (flitlab_simulate_panel_run (simulate_panel_of (window)), "Run starts on the bad trace");
  CHECK (wait_until (window, simulation_finished), "the run ends");
  message = wait_for_message (window, words);
  CHECK (message != NULL, "the Simulate tab names the trace and its line: %s", message != NULL ? message : "(none)");

  /* The transport bar reads the trace too. */
  flitlab_transport_bar_play_pause (bar_of (window));
  run_loop_for (300);
  CHECK (session_of (window) == NULL || !flitlab_sim_session_get_playing (session_of (window)),
         "nothing plays on the bad trace");
  message = flitlab_transport_bar_get_message (bar_of (window));
  CHECK (message != NULL && strstr (message, "bad.trace") != NULL && strstr (message, "line 3") != NULL,
         "the transport bar names the trace and its line: %s", message != NULL ? message : "(none)");
  CHECK (heartbeat_stop ("the bad trace") < MAX_STALL_MS, "the main loop kept running on the bad trace");
  after = network_summary (window);
  CHECK (g_strcmp0 (before, after) == 0, "the network has not changed (%s)", after);
  g_unlink (trace);
}

static gboolean
schedule_idle (FlitlabWindow *window)
{
  FlitlabCollectivesPanel *panel = FLITLAB_COLLECTIVES_PANEL (find_widget (GTK_WIDGET (window),
                                                                           FLITLAB_TYPE_COLLECTIVES_PANEL, NULL));
  FlitlabSchedulePage *page = FLITLAB_SCHEDULE_PAGE (flitlab_collectives_panel_get_page (panel, "schedule"));

  return !flitlab_schedule_page_get_running (page);
}

static void
check_bad_requests (FlitlabWindow *window)
{
  g_autofree char *requests = work_file ("bad requests.txt");
  FlitlabCollectivesPanel *panel;
  FlitlabSchedulePage *page;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  const char *error;

  g_file_set_contents (requests, "# requests\n0 5\n3 99\n", -1, NULL);
  show_generated (window, "myrinet-mesh:8x4");
  before = network_summary (window);
  panel = FLITLAB_COLLECTIVES_PANEL (find_widget (GTK_WIDGET (window), FLITLAB_TYPE_COLLECTIVES_PANEL, NULL));
  page = FLITLAB_SCHEDULE_PAGE (flitlab_collectives_panel_get_page (panel, "schedule"));
  flitlab_schedule_page_set_file (page, requests);
  CHECK (wait_until (window, schedule_idle), "the requests are read");
  error = flitlab_schedule_page_get_value (page, "error");
  CHECK (strstr (error, "bad requests.txt") != NULL && strstr (error, "line 3") != NULL,
         "the schedule page names the file and its line: %s", error);
  after = network_summary (window);
  CHECK (g_strcmp0 (before, after) == 0, "the network has not changed (%s)", after);
  g_unlink (requests);
}

static void
run_bad_import (FlitlabWindow *window)
{
  check_bad_trace (window);
  check_bad_requests (window);
  save_and_forget (window);
}

/* Networks too large ------------------------------------------------------------ */

static gboolean
row_says_ (GtkWidget    *widget,
           gconstpointer problem)
{
  return ADW_IS_PREFERENCES_ROW (widget) && gtk_widget_get_visible (widget)
         && strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), problem) != NULL;
}

/* Types spec into the generator and returns the visible row that says
 * problem, or NULL; *enabled says whether Generate started anything. */
static const char *
typed_spec_problem (FlitlabWindow *window,
                    const char    *spec,
                    const char    *problem,
                    gboolean      *enabled)
{
  FlitlabGeneratorPanel *panel = flitlab_window_get_generator_panel (window);
  GtkWidget *row;

  flitlab_generator_panel_set_spec (panel, spec);
  row = find_matching (GTK_WIDGET (panel), row_says_, problem);
  *enabled = gtk_widget_activate_action (GTK_WIDGET (panel), "generator.generate", NULL)
             && flitlab_window_get_busy (window);
  return row != NULL ? adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)) : NULL;
}

static const char *wanted_spec;

#define GENERATE_FAILED "Could Not Generate the Network"

static void
check_refused_spec (FlitlabWindow *window,
                    const char    *spec,
                    const char    *problem)
{
  gboolean enabled;
  const char *shown = typed_spec_problem (window, spec, problem, &enabled);
  gint64 start;

  CHECK (shown != NULL && strstr (shown, problem) != NULL, "typing %s shows “%s”: %s", spec, problem,
         shown != NULL ? shown : "(nothing)");
  CHECK (!enabled, "Generate does nothing for %s", spec);

  /* Asked for all the same (as a lesson or a script might), it is refused
   * at once, before anything is allocated. */
  close_alert (window);
  start = g_get_monotonic_time ();
  flitlab_window_generate (window, spec, NULL);
  CHECK (wait_until (window, is_idle), "the generation of %s ends", spec);
  CHECK ((g_get_monotonic_time () - start) / 1000 < 2000, "within 2 s (%.0f ms)",
         (g_get_monotonic_time () - start) / 1000.0);
  {
    const char *words[] = { spec, problem, NULL };
    const char *message = wait_for_alert (window, GENERATE_FAILED, words);

    CHECK (message != NULL, "the alert names %s and the problem: %s", spec, message != NULL ? message : "(none)");
  }
  close_alert (window);
}

static gboolean
shows_spec (FlitlabWindow *window)
{
  return g_strcmp0 (flitlab_window_get_topology_name (window), wanted_spec) == 0;
}

/* Generates spec, a large network, and checks that the main loop keeps
 * running while the workers generate, measure and route it (once it is
 * shown, if shown_first), and that Stop ends their work at once. */
static void
check_large (FlitlabWindow *window,
             const char    *spec,
             const char    *previous,
             gboolean       shown_first)
{
  GtkWidget *stop;
  gint64 pressed;

  heartbeat_start ();
  wanted_spec = spec;
  flitlab_window_generate (window, spec, NULL);
  CHECK (flitlab_window_get_busy (window), "%s is being made", spec);
  /* What it takes to be shown depends on the machine: give it its time
   * (none when it is too large to be shown), then look at the window
   * working on it. */
  if (shown_first)
    wait_until_seconds (window, shows_spec, 20);
  /* A network the window will not show is worked on only while it is
   * generated, which an idle machine does for a 1024x1024 mesh in well
   * under a second: Stop is pressed early enough to find it at work. */
  run_loop_for (shown_first ? 1000 : 100);
  stop = find_button (GTK_WIDGET (window), "process-stop-symbolic");
  CHECK (flitlab_window_get_busy (window) && stop != NULL && gtk_widget_is_drawable (stop),
         "Stop shows while %s is worked on", spec);
  pressed = g_get_monotonic_time ();
  if (stop != NULL)
    gtk_widget_activate (stop);
  CHECK (wait_until_seconds (window, is_idle, 2), "Stop ends the work on %s at once (%.0f ms)", spec,
         (g_get_monotonic_time () - pressed) / 1000.0);
  CHECK (heartbeat_stop (spec) < MAX_STALL_MS, "the main loop kept running while %s was worked on", spec);
  CHECK (shows_spec (window) || g_strcmp0 (flitlab_window_get_topology_name (window), previous) == 0,
         "%s or the network before it is shown: %s", spec, flitlab_window_get_topology_name (window));
}

static void
run_huge_network (FlitlabWindow *window)
{
  show_generated (window, "ring:4");
  check_refused_spec (window, "mesh:100000x100000", "too many switches");
  check_refused_spec (window, "irregular:100000000", "too many switches");
  check_refused_spec (window, "hypercube:40", "at most 20 dimensions");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "ring:4") == 0, "ring:4 is still shown");

  /* Large but legal: shown, then measured and routed in the workers. */
  check_large (window, "mesh:128x128", "ring:4", TRUE);
  /* The largest mesh there is: its generation alone takes the time. */
  check_large (window, "mesh:1024x1024", "mesh:128x128", FALSE);

  /* Made, but more than the window takes: refused with the numbers. */
  heartbeat_start ();
  flitlab_window_generate (window, "mesh:200x200", NULL);
  {
    const char *words[] = { "“mesh:200x200” has 80000 nodes", "at most 65536 nodes", NULL };
    const char *message = wait_for_alert (window, "Network Too Large", words);

    CHECK (message != NULL, "mesh:200x200 is refused with its size and the limit: %s",
           message != NULL ? message : "(none)");
  }
  close_alert (window);
  CHECK (heartbeat_stop ("mesh:200x200") < MAX_STALL_MS, "the main loop kept running while mesh:200x200 was made");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "mesh:128x128") == 0, "mesh:128x128 is still shown");
  save_and_forget (window);
}

/* Deadlock --------------------------------------------------------------------- */

static gboolean
deadlocked (FlitlabWindow *window)
{
  return session_of (window) != NULL && flitlab_sim_session_get_status (session_of (window)) == FL_SIM_DEADLOCK;
}

static void
run_deadlock (FlitlabWindow *window)
{
  FlitlabTransportBar *bar = bar_of (window);
  g_autoptr(GError) error = NULL;
  const char *message;
  gint64 cycle;
  double stall;

  CHECK (flitlab_window_apply_preset (window, "ring-deadlock", &error) && wait_until (window, is_idle),
         "the ring-deadlock preset is set up: %s", error != NULL ? error->message : "ok");
  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page", g_variant_new_string ("simulate"));
  flitlab_transport_bar_set_speed (bar, 0);
  heartbeat_start ();
  flitlab_transport_bar_play_pause (bar);
  CHECK (wait_until (window, deadlocked), "playing at full speed reaches the deadlock");
  stall = heartbeat_stop ("playing into the deadlock");
  CHECK (stall < MAX_STALL_MS, "the main loop never stalls %d ms playing (%.0f ms)", MAX_STALL_MS, stall);
  message = flitlab_transport_bar_get_message (bar);
  CHECK (message != NULL && shows_label (GTK_WIDGET (window), message) && strstr (message, "Deadlock") != NULL,
         "the deadlock is on screen: %s", message != NULL ? message : "(none)");

  /* The bar still works: Play again does not run past the deadlock nor
   * hang, and stepping back leaves it. */
  cycle = flitlab_sim_session_get_cycle (session_of (window));
  heartbeat_start ();
  flitlab_transport_bar_play_pause (bar);
  run_loop_for (300);
  CHECK (heartbeat_stop ("Play at the deadlock") < MAX_STALL_MS, "Play at the deadlock keeps the main loop running");
  CHECK (deadlocked (window) && !flitlab_sim_session_get_playing (session_of (window)),
         "Play at the deadlock stays there");
  CHECK (flitlab_sim_session_seek (session_of (window), cycle - 10, &error) && !deadlocked (window),
         "seeking back leaves the deadlock: %s", error != NULL ? error->message : "ok");
  flitlab_transport_bar_step (bar, 10);
  CHECK (deadlocked (window), "stepping forward reaches it again at cycle %" G_GINT64_FORMAT,
         flitlab_sim_session_get_cycle (session_of (window)));
  save_and_forget (window);
}

/* Saving where it cannot be written ------------------------------------------ */

static gboolean
title_marked (FlitlabWindow *window)
{
  return g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (window)), "•");
}

/* Saves with win.save and checks that it failed, said why and kept the
 * work. */
static void
check_save_fails (FlitlabWindow *window,
                  const char    *why)
{
  const char *words[] = { "Could not save", "kept.flitlab", NULL };
  const char *message;

  g_action_group_activate_action (G_ACTION_GROUP (window), "save", NULL);
  message = wait_for_alert (window, "Could Not Save", words);
  CHECK (message != NULL && strlen (message) > strlen ("Could not save “kept.flitlab”: "),
         "saving %s says why it failed: %s", why, message != NULL ? message : "(none)");
  CHECK (flitlab_window_get_modified (window) && title_marked (window), "the work is still unsaved after %s",
         why);
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "ring:6") == 0, "ring:6 is still shown");
}

static void
run_save_failure (FlitlabWindow *window)
{
  g_autofree char *dir = work_file ("folder");
  g_autofree char *path = g_build_filename (dir, "kept.flitlab", NULL);
  g_autoptr(GError) error = NULL;
  FlProject *project = NULL;
  FlTopology *stored = NULL;
  FlError err = { 0 };

  g_mkdir (dir, 0755);
  show_generated (window, "ring:8");
  CHECK (flitlab_window_save_to_path (window, path, &error), "the project saves to %s", path);
  show_generated (window, "ring:6");

  /* A read-only folder stops everyone but root. */
  if (geteuid () != 0)
    {
      g_chmod (dir, 0555);
      check_save_fails (window, "into a read-only folder");
      close_alert (window);
      g_chmod (dir, 0755);
    }
  else
    printf ("# run as root: a read-only folder would not stop the save, skipped\n");

  /* The folder replaced by a file stops root too. */
  {
    g_autofree char *aside = work_file ("folder moved");

    g_rename (dir, aside);
    g_file_set_contents (dir, "a file where the folder was", -1, NULL);
    check_save_fails (window, "into a folder that is now a file");
    harness_screenshot (window, "save-failure.png");
    close_alert (window);
    g_unlink (dir);
    g_rename (aside, dir);
  }

  /* Back in place, the same Save writes the work. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "save", NULL);
  CHECK (!flitlab_window_get_modified (window), "once the folder is back, Save saves");
  CHECK (fl_project_open (path, &project, &err) == FL_OK
           && fl_project_get_topology (project, "ring:6", &stored, &err) == FL_OK,
         "the file holds ring:6: %s", err.message);
  fl_topology_free (stored);
  fl_project_free (project);
  g_unlink (path);
  g_rmdir (dir);
}

/* Failures in a row ------------------------------------------------------------- */

/* The message the alert shows for spec refused as typed. */
static char *
refusal_of (FlitlabWindow *window,
            const char    *spec)
{
  AdwMessageDialog *alert;

  flitlab_window_generate (window, spec, NULL);
  CHECK (wait_until (window, is_idle), "the generation of %s ends", spec);
  alert = harness_wait_for_alert (GTK_WINDOW (window), 10);
  return alert != NULL ? g_strdup (adw_message_dialog_get_body (alert)) : NULL;
}

/* The application's dialogs on screen. */
static guint
count_message_dialogs (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) toplevel = g_list_model_get_item (toplevels, i);

      n += ADW_IS_MESSAGE_DIALOG (toplevel) && gtk_widget_get_mapped (toplevel);
    }
  return n;
}

/* text on one line, as a TAP line must be: its line breaks shown as " | ". */
static char *
one_line (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  return g_strjoinv (" | ", lines);
}

/* How many times needle occurs in haystack. */
static guint
count_occurrences (const char *haystack,
                   const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + strlen (needle), needle))
    n++;
  return n;
}

static void
run_several_failures (FlitlabWindow *window)
{
  g_autofree char *first = NULL;
  g_autofree char *again = NULL;
  g_autofree char *last_five = NULL;
  AdwMessageDialog *alert;
  GString *expected;
  const char *body;
  char *shown;

  show_generated (window, "ring:4");
  first = refusal_of (window, "hypercube:40");
  alert = harness_alert (GTK_WINDOW (window));
  CHECK (first != NULL && strstr (first, "at most 20 dimensions") != NULL && alert != NULL
           && g_strcmp0 (adw_message_dialog_get_heading (alert), GENERATE_FAILED) == 0,
         "a first failure has an alert of its own: %s", first != NULL ? first : "(none)");

  /* A second failure while it is open joins it. */
  flitlab_window_generate (window, "mesh:100000x100000", NULL);
  CHECK (wait_until (window, is_idle), "the second generation ends");
  run_loop_for (200);
  alert = harness_wait_for_alert (GTK_WINDOW (window), 10);
  CHECK (alert != NULL && count_message_dialogs () == 1, "the second failure adds no dialog (%u on screen)",
         count_message_dialogs ());
  if (alert == NULL)
    return;
  CHECK (g_strcmp0 (adw_message_dialog_get_heading (alert), "Several Things Went Wrong") == 0,
         "the alert now says “Several Things Went Wrong”: %s", adw_message_dialog_get_heading (alert));
  body = adw_message_dialog_get_body (alert);
  shown = one_line (body);
  CHECK (g_str_has_prefix (body, first)
           && g_str_has_prefix (body + strlen (first), "\n\nCould not generate “mesh:100000x100000”: ")
           && strstr (body, "too many switches") != NULL,
         "its body holds both messages whole, the first first, a blank line between: %s", shown);
  CHECK (harness_alert_shows_all (alert, GTK_WINDOW (window)), "and shows them all");
  run_loop_for (100);
  {
    g_autofree char *path = screenshot_path ("several-failures.png");

    CHECK (save_screenshot (GTK_WIDGET (alert), path), "the alert renders to %s", path);
  }

  /* Beyond five, the oldest give way, counted. */
  expected = g_string_new (NULL);
  for (int i = 1; i <= 5; i++)
    {
      g_autofree char *message = g_strdup_printf ("failure number %d of a burst", i);

      flitlab_window_alert (window, message);
      g_string_append_printf (expected, "%s%s", i > 1 ? "\n\n" : "", message);
    }
  last_five = g_string_free (expected, FALSE);
  alert = harness_wait_for_alert (GTK_WINDOW (window), 10);
  body = alert != NULL ? adw_message_dialog_get_body (alert) : "(no alert)";
  g_free (shown);
  shown = one_line (body);
  CHECK (count_message_dialogs () == 1, "seven failures, still one dialog");
  CHECK (g_str_has_prefix (body, "2 earlier failures are not listed.\n\n") && g_str_has_suffix (body, last_five)
           && count_occurrences (body, "\n\n") == 5,
         "it lists the last five and counts the two that gave way: %s", shown);
  g_free (shown);
  CHECK (alert != NULL && harness_alert_shows_all (alert, GTK_WINDOW (window)), "and shows them all");

  /* Closed, it starts afresh. */
  close_alert (window);
  CHECK (flitlab_alert_get_open (GTK_WINDOW (window)) == NULL && count_message_dialogs () == 0,
         "once closed, no alert is open");
  again = refusal_of (window, "hypercube:40");
  alert = harness_alert (GTK_WINDOW (window));
  CHECK (alert != NULL && count_message_dialogs () == 1
           && g_strcmp0 (adw_message_dialog_get_heading (alert), GENERATE_FAILED) == 0
           && g_strcmp0 (again, first) == 0,
         "the next failure has a fresh alert of its own, with its message alone: %s", again != NULL ? again : "(none)");
  close_alert (window);
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "ring:4") == 0, "ring:4 is still shown");
  check_usable (window, "ring:6");
  save_and_forget (window);
}

/* Main ------------------------------------------------------------------------ */

static void
remove_work_dir (void)
{
  g_autoptr(GDir) dir = g_dir_open (work_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = work_file (name);

      g_unlink (path);
    }
  g_rmdir (work_dir);
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "bad-import", run_bad_import },
    { "huge-network", run_huge_network },
    { "deadlock-bar", run_deadlock },
    { "save-failure", run_save_failure },
    { "several-failures", run_several_failures },
  };
  const char *scenario = argc > 1 ? argv[1] : "bad-project";
  int status;

  work_dir = g_dir_make_tmp ("flitlab-bad-input-XXXXXX", NULL);
  if (g_str_equal (scenario, "bad-project"))
    {
      make_bad_projects ();
      harness_run_app (run_bad_project, not_sqlite);
      status = tap_done ();
    }
  else if (g_str_equal (scenario, "newer-project"))
    {
      make_bad_projects ();
      newer_hash = file_hash (newer);
      harness_run_app (run_newer_project, newer);
      status = tap_done ();
    }
  else
    status = harness_main (argc, argv, "bad-project", scenarios, G_N_ELEMENTS (scenarios));
  remove_work_dir ();
  return status;
}
