/* test-gui-experiment-kill.c — the application killed with SIGKILL half way
 * through an experiment, reopened, resumed, and its plot exported.
 *
 * Scenario (one process under Xvfb, which forks the application twice):
 *   experiment-kill  a project of mesh:4x4 with short runs is prepared with
 *                the store; a first child runs the application on it, makes
 *                an experiment of 2 routings x 5 rates x 4 seeds in the
 *                new-experiment dialog and clicks Run; the parent polls the
 *                file until some but not all runs are committed and kills
 *                the child (a kill that lands before the first commit or
 *                after the last is tried again, earlier); the file passes
 *                PRAGMA integrity_check, its committed runs are complete and
 *                the killed claims count as no run in progress; a second
 *                child reopens the file, selects the experiment, clicks
 *                Resume (so it reads), waits for the end, turns the error
 *                bars on and exports the plot as PDF through the Export
 *                button's file chooser; the parent checks the PDF, and that
 *                every run's status and scalars equal those of the same
 *                experiment run uninterrupted by the library, bit for bit
 *                (the wall time aside).
 *
 * The parent never touches GTK, which is not safe across fork(): it works
 * with the store and the experiment library only. Each child writes its
 * TAP into a file of its own, which the parent relays into its numbering.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "flitlab-experiment-dialog.h"
#include "flitlab-experiment.h"
#include "flitlab-experiments-view.h"
#include "flitlab-run-item.h"
#include "gui-harness.h"

#define EXPERIMENT "kill"
#define RUNS 40
/* Runs of about 50 ms here (the highest rates past saturation, stopped),
 * so that the parent sees the runs come in one by one. */
#define MEASURE "20000"
#define ATTEMPTS 3
/* How long the first child may take to commit what the parent waits for,
 * and the second to resume and export. */
#define KILL_SECONDS 45
#define RESUME_SECONDS 45

static char *tmp_dir;
/* What the second child expects and where it writes its PDF (set by the
 * parent before the fork). */
static int held_after_kill;
static char *pdf_path;
/* The child running, for the parent to kill on any way out. */
static pid_t child_pid;

/* The children: the application --------------------------------------------------- */

static FlitlabExperimentsView *
view_of (FlitlabWindow *window)
{
  return flitlab_window_get_experiments_view (window);
}

static gboolean
not_running (FlitlabWindow *window)
{
  return !flitlab_experiments_view_get_running (view_of (window));
}

/* Clicks the button labelled label under widget if it is on screen and
 * sensitive, as a user can. */
static gboolean
click (GtkWidget  *widget,
       const char *label)
{
  GtkWidget *button = find_button (widget, label);

  if (button == NULL || !gtk_widget_is_drawable (button) || !gtk_widget_is_sensitive (button))
    return FALSE;
  g_signal_emit_by_name (button, "clicked");
  return TRUE;
}

/* The points of a plot of the table's runs against their two values
 * (routing and rate): the pairs of values with a run done. */
static int
curve_points (FlitlabWindow *window)
{
  GListModel *runs = flitlab_runs_table_get_shown (flitlab_experiments_view_get_table (view_of (window)));
  g_autoptr(GHashTable) pairs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (runs); i++)
    {
      g_autoptr(FlitlabRunItem) run = g_list_model_get_item (runs, i);

      if (g_str_equal (flitlab_run_item_get_status (run), "done"))
        g_hash_table_add (pairs, g_strjoin (" ", flitlab_run_item_get_value (run, 0),
                                            flitlab_run_item_get_value (run, 1), NULL));
    }
  return (int) g_hash_table_size (pairs);
}

/* The first child: an experiment made and run, until the parent kills it. */
static void
make_and_run (FlitlabWindow *window)
{
  FlitlabExperimentsView *view = view_of (window);
  FlitlabExperimentDialog *dialog;
  char measure[32] = "";

  CHECK (wait_until (window, is_idle_with_topology), "the project opens on its network");
  fl_sim_settings_format (flitlab_document_get_sim_settings (DOC (window)), "measure", measure, sizeof measure);
  CHECK (g_str_equal (measure, MEASURE), "with its simulation settings (measure %s)", measure);
  CHECK (press_shortcut (window, "<Alt>5") && shows_label (GTK_WIDGET (view), "No Experiments"),
         "the Experiments view has none yet");
  g_action_group_activate_action (G_ACTION_GROUP (window), "new-experiment", NULL);
  dialog = (FlitlabExperimentDialog *) wait_for_toplevel (FLITLAB_TYPE_EXPERIMENT_DIALOG);
  CHECK (dialog != NULL, "win.new-experiment opens the dialog");
  if (dialog == NULL)
    return;
  flitlab_experiment_dialog_set_name (dialog, EXPERIMENT);
  CHECK (flitlab_experiment_dialog_set_parameter (dialog, 0, "routing", "dor,updown")
           && flitlab_experiment_dialog_set_parameter (dialog, 1, "rate", "0.2:1:0.2"),
         "the routing and the rate are varied");
  flitlab_experiment_dialog_set_seeds (dialog, 1, 4);
  CHECK_INT (flitlab_experiment_dialog_get_runs (dialog), RUNS);
  CHECK (click (GTK_WIDGET (dialog), "C_reate"), "Create makes the experiment");
  CHECK (g_strcmp0 (flitlab_experiments_view_get_selected (view), EXPERIMENT) == 0,
         "the view shows it (%s)", flitlab_experiments_view_get_selected (view));
  CHECK (click (GTK_WIDGET (view), "_Run") && flitlab_experiments_view_get_running (view), "Run runs it");
  printf ("# running, until the parent kills this process\n");
  fflush (stdout);
  /* The parent kills this process; a run that ends first is tried again. */
  wait_until (window, not_running);
}

/* Iterates the main loop until chooser names path (written: until path
 * exists), or WAIT_SECONDS pass. */
static gboolean
wait_for_file (GtkWindow  *chooser,
               const char *path,
               gboolean    written)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  for (;;)
    {
      g_autoptr(GFile) file = written ? NULL : gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *named = file != NULL ? g_file_get_path (file) : NULL;

      if (written ? g_file_test (path, G_FILE_TEST_EXISTS) : g_strcmp0 (named, path) == 0)
        return TRUE;
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
}

static void
message_cb (FlitlabPlotComposer *composer,
            const char          *text,
            char               **message)
{
  g_free (*message);
  *message = g_strdup (text);
}

/* Exports the plot through the Export button and its file chooser, as a
 * user would, to pdf_path: its whole path typed as the name, which does
 * not race the chooser's look-up of the folder it opens in. */
static void
export_pdf (FlitlabWindow *window)
{
  FlitlabPlotComposer *composer = flitlab_experiments_view_get_composer (view_of (window));
  g_autofree char *message = NULL;
  GtkWindow *chooser;

  CHECK (click (GTK_WIDGET (composer), "_Export…"), "the plot's Export… button is on screen");
  chooser = wait_for_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  CHECK (chooser != NULL, "Export… opens a file chooser");
  if (chooser == NULL)
    return;
  g_signal_connect (composer, "message", G_CALLBACK (message_cb), &message);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), pdf_path);
  CHECK (wait_for_file (chooser, pdf_path, FALSE), "the chooser names %s", pdf_path);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  /* The chooser may answer once it has looked for a file of that name. */
  CHECK (wait_for_file (chooser, pdf_path, TRUE), "Export writes the plot to %s", pdf_path);
  CHECK (g_strcmp0 (message, "Plot exported as “" EXPERIMENT ".pdf”") == 0, "the window says: %s", message);
  g_signal_handlers_disconnect_by_func (composer, message_cb, &message);
}

static void
compose_plot (FlitlabWindow *window)
{
  FlitlabPlotComposer *composer = flitlab_experiments_view_get_composer (view_of (window));
  GtkWidget *error_bars = find_widget (GTK_WIDGET (composer), GTK_TYPE_SWITCH, NULL);
  FlPlotSpec spec;
  int points;

  CHECK (flitlab_plot_composer_set_axes (composer, "rate", "latency_avg", "routing"),
         "rate on x, the mean latency on y, a series per routing");
  CHECK (error_bars != NULL && gtk_widget_is_drawable (error_bars), "the Error Bars switch is on screen");
  if (error_bars != NULL)
    gtk_switch_set_active (GTK_SWITCH (error_bars), TRUE);
  fl_plot_spec_init (&spec);
  CHECK (flitlab_plot_composer_get_spec (composer, &spec) && spec.error_bars, "the plot has error bars");
  fl_plot_spec_clear (&spec);
  points = flitlab_plot_preview_get_n_points (flitlab_experiments_view_get_preview (view_of (window)));
  CHECK (points == curve_points (window), "the preview draws a point per routing and rate with runs done (%d of %d)",
         points, curve_points (window));
}

/* The second child: the experiment reopened, resumed to its end, and its
 * plot exported. */
static void
resume_and_export (FlitlabWindow *window)
{
  FlitlabExperimentsView *view = view_of (window);
  GtkWidget *row;
  g_autofree char *counts = g_strdup_printf ("%d of %d runs", held_after_kill, RUNS);
  g_autofree char *all = g_strdup_printf ("%d of %d runs", RUNS, RUNS);

  CHECK (wait_until (window, is_idle_with_topology), "the project reopens on its network");
  CHECK (press_shortcut (window, "<Alt>5"), "Alt+5 shows the experiments");
  row = find_widget (GTK_WIDGET (view), ADW_TYPE_ACTION_ROW, EXPERIMENT);
  CHECK (row != NULL && gtk_widget_is_drawable (row), "the experiment is listed");
  if (row == NULL)
    return;
  gtk_list_box_select_row (GTK_LIST_BOX (gtk_widget_get_ancestor (row, GTK_TYPE_LIST_BOX)), GTK_LIST_BOX_ROW (row));
  CHECK (g_strcmp0 (flitlab_experiments_view_get_selected (view), EXPERIMENT) == 0, "selecting it shows it");
  CHECK (count_status (window, "missing") == (guint) (RUNS - held_after_kill),
         "the table lists as missing the %d runs the file lacks (%u)", RUNS - held_after_kill,
         count_status (window, "missing"));
  CHECK (g_str_has_prefix (flitlab_experiments_view_get_progress_text (view), counts), "the progress reads: %s",
         flitlab_experiments_view_get_progress_text (view));
  CHECK (g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), counts), "so does its row: %s",
         adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  CHECK (!flitlab_experiments_view_get_running (view), "nothing runs");
  CHECK (click (GTK_WIDGET (view), "_Resume"), "the button reads Resume, and is clicked");
  CHECK (flitlab_experiments_view_get_running (view), "the experiment runs again");
  CHECK (wait_until_seconds (window, not_running, RESUME_SECONDS), "it runs to the end, the window live meanwhile");
  CHECK (count_status (window, "missing") == 0 && count_status (window, "failed") == 0,
         "every run is in the file: %u missing, %u failed", count_status (window, "missing"),
         count_status (window, "failed"));
  CHECK (count_status (window, "done") + count_status (window, "stopped") == RUNS && count_status (window, "done") > 0,
         "%u runs done, %u stopped past saturation", count_status (window, "done"), count_status (window, "stopped"));
  CHECK (g_str_has_prefix (flitlab_experiments_view_get_progress_text (view), all), "the progress reads: %s",
         flitlab_experiments_view_get_progress_text (view));
  CHECK (g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), all), "so does its row: %s",
         adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  CHECK (find_button (GTK_WIDGET (view), "_Run") != NULL && !click (GTK_WIDGET (view), "_Run"),
         "with nothing left to run, Run is off");
  compose_plot (window);
  export_pdf (window);
  CHECK (!flitlab_window_get_modified (window), "resuming and exporting left the project unmodified");
}

/* The parent: the store and the library only ------------------------------------------ */

/* Ends the child running, if any: every way out of the parent passes here. */
static void
kill_child (void)
{
  if (child_pid > 0)
    {
      kill (child_pid, SIGKILL);
      waitpid (child_pid, NULL, 0);
      child_pid = 0;
    }
}

/* Forks a child that runs the application on project with run, its TAP
 * into tap. */
static pid_t
start_child (HarnessRun  run,
             const char *project,
             const char *tap)
{
  pid_t parent = getpid ();
  pid_t pid;
  int fd;

  fflush (stdout);
  fflush (stderr);
  pid = fork ();
  if (pid != 0)
    return pid;
#ifdef __linux__
  /* A parent killed by a timeout takes its child along. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (getppid () != parent)
    _exit (1);
  fd = open (tap, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || dup2 (fd, STDOUT_FILENO) < 0)
    _exit (1);
  close (fd);
  tap_count_ = tap_failed_ = 0;
  harness_run_app (run, project);
  exit (tap_done ());
}

/* Relays the TAP a child wrote to path as points of this program, named
 * with who; the number of points against the child's plan (FALSE when it
 * printed none). */
static gboolean
relay_tap (const char *path,
           const char *who,
           gboolean    want_plan)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  int points = 0, plan = -1;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return CHECK (FALSE, "%s wrote its checks to %s", who, path);
  lines = g_strsplit (text, "\n", -1);
  for (int i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      gboolean ok = g_str_has_prefix (line, "ok ");
      const char *rest;

      if (sscanf (line, "1..%d", &plan) == 1)
        continue;
      if (!ok && !g_str_has_prefix (line, "not ok "))
        {
          if (line[0] != '\0')
            printf ("%s\n", line);
          continue;
        }
      rest = strstr (line, " - ");
      points++;
      tap_count_++;
      tap_failed_ += !ok;
      printf ("%s %d - %s: %s\n", ok ? "ok" : "not ok", tap_count_, who, rest != NULL ? rest + 3 : line);
    }
  if (!want_plan)
    return TRUE;
  return CHECK (plan == points, "%s made all its checks (%d, plan %d)", who, points, plan);
}

/* The runs of the experiment committed in the file (any status), or -1
 * while there is no experiment. */
static int
runs_held (FlProject *p)
{
  int held = 0;

  for (int s = FL_RUN_DONE; s <= FL_RUN_STOPPED; s++)
    {
      int64_t *idx = NULL;
      int n = 0;

      if (fl_project_list_runs (p, EXPERIMENT, (FlRunStatus) s, &idx, &n, NULL) != FL_OK)
        return -1;
      free (idx);
      held += n;
    }
  return held;
}

/* PRAGMA integrity_check of path, read by SQLite itself ("ok"). Opened
 * for writing, as any reader after a kill must: it rolls a transaction the
 * kill cut short back. */
static char *
integrity (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  char *result;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK
      && sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK
      && sqlite3_step (st) == SQLITE_ROW)
    result = g_strdup ((const char *) sqlite3_column_text (st, 0));
  else
    result = g_strdup (sqlite3_errmsg (db));
  sqlite3_finalize (st);
  sqlite3_close (db);
  return result;
}

/* mesh:4x4 with its simulation settings (short runs of 4-flit packets),
 * shown when the application opens it. */
static gboolean
prepare_project (const char *path)
{
  static const char *const settings[][2] = {
    { "sim.warmup", "100" },
    { "sim.measure", MEASURE },
    { "sim.packet", "4" },
  };
  FlProject *p = NULL;
  FlTopology *t = NULL;
  FlError err = { 0 };
  int rc;

  rc = fl_project_new (&p, &err);
  if (rc == FL_OK)
    rc = fl_topology_from_spec ("mesh:4x4", &t, &err);
  if (rc == FL_OK)
    rc = fl_project_put_topology (p, "mesh", t, 0, &err);
  for (gsize i = 0; rc == FL_OK && i < G_N_ELEMENTS (settings); i++)
    rc = fl_project_set_topology_setting (p, "mesh", settings[i][0], settings[i][1], &err);
  if (rc == FL_OK)
    rc = fl_project_save_as (p, path, &err);
  fl_topology_free (t);
  fl_project_free (p);
  return CHECK (rc == FL_OK, "a project of mesh:4x4 is prepared (%s)", rc == FL_OK ? "ok" : err.message);
}

/* Runs the first child on a copy of template, polls the file until it
 * holds at least target runs, and kills the child. The runs held after
 * the kill; -1 when the child ended by itself first (too late: try again)
 * or something failed. */
static int
run_and_kill (const char *template,
              const char *path,
              int         attempt,
              int         target)
{
  g_autofree char *contents = NULL;
  g_autofree char *tap = g_strdup_printf ("%s/first-%d.tap", tmp_dir, attempt);
  gsize length = 0;
  gint64 start, deadline;
  FlProject *p = NULL;
  int held = -1, status = 0;
  gboolean ended = FALSE;

  if (!g_file_get_contents (template, &contents, &length, NULL)
      || !g_file_set_contents (path, contents, (gssize) length, NULL))
    {
      CHECK (FALSE, "the project is copied to %s", path);
      return -1;
    }
  child_pid = start_child (make_and_run, path, tap);
  start = g_get_monotonic_time ();
  deadline = start + KILL_SECONDS * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline)
    {
      if (waitpid (child_pid, &status, WNOHANG) == child_pid)
        {
          ended = TRUE;
          child_pid = 0;
          break;
        }
      if (p == NULL)
        fl_project_open (path, &p, NULL);
      if (p != NULL)
        held = runs_held (p);
      if (p != NULL && held >= target)
        break;
      g_usleep (5000);
    }
  fl_project_free (p);
  if (!ended)
    {
      gboolean in_time = held >= target;

      kill (child_pid, SIGKILL);
      waitpid (child_pid, &status, 0);
      child_pid = 0;
      printf ("# attempt %d: killed %.2f s after the start, the file holding %d runs (target %d)\n", attempt,
              (g_get_monotonic_time () - start) / 1e6, held, target);
      relay_tap (tap, "the application killed", FALSE);
      if (!CHECK (in_time, "the application committed %d runs within %d s (%d)", target, KILL_SECONDS, held))
        return -1;
      CHECK (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL, "it was killed by SIGKILL");
      fl_project_open (path, &p, NULL);
      held = p != NULL ? runs_held (p) : -1;
      fl_project_free (p);
      return held;
    }
  printf ("# attempt %d: the application ended before the kill (status %d)\n", attempt, status);
  relay_tap (tap, "the application (not killed)", TRUE);
  CHECK (WIFEXITED (status), "the application ended by itself, not by %s",
         WIFSIGNALED (status) ? g_strsignal (WTERMSIG (status)) : "a signal");
  return -1;
}

/* After the kill: the file is sound, its committed runs complete, and the
 * claims of the killed process count as nothing in progress. */
static void
check_killed (const char *path,
              int         held)
{
  g_autofree char *check = integrity (path);
  FlProject *p = NULL;
  FlExperiment *x = NULL;
  FlExperimentResult names;
  unsigned char *status = NULL;
  int64_t counts[3] = { 0 }, running = -1;
  FlError err = { 0 };
  int incomplete = 0;

  CHECK (g_str_equal (check, "ok"), "PRAGMA integrity_check after the kill: %s", check);
  CHECK (fl_project_open (path, &p, &err) == FL_OK && fl_experiment_open (p, EXPERIMENT, &x, &err) == FL_OK
           && fl_experiment_status (x, &status, counts, &err) == FL_OK,
         "the file and its experiment open (%s)", err.message[0] != '\0' ? err.message : "ok");
  if (status == NULL)
    goto out;
  CHECK (held > 0 && held < RUNS, "the kill landed half way: %d of %d runs committed", held, RUNS);
  CHECK (counts[1] == 0, "no run failed (%" PRId64 ")", counts[1]);
  /* A run done holds every scalar a run of the design has. */
  fl_experiment_scalars (x, NULL, &names);
  for (int s = 0; s < names.nscalars; s++)
    {
      int64_t *idx = NULL;
      double *values = NULL;
      int n = 0;

      fl_project_get_scalars (p, EXPERIMENT, names.scalar_names[s], &idx, &values, &n, NULL);
      for (int i = 0; i < n; i++)
        incomplete += status[idx[i]] != FL_RUN_DONE;
      incomplete += n != counts[0];
      free (idx);
      free (values);
    }
  CHECK (incomplete == 0, "each run done holds its %d scalars, and no other run any", names.nscalars);
  fl_experiment_running (x, &running, NULL);
  CHECK (running == 0, "the killed process's claims count as no run in progress (%" PRId64 ")", running);
out:
  free (status);
  fl_experiment_free (x);
  fl_project_free (p);
}

/* Runs the second child; FALSE when it did not end well. */
static gboolean
resume (const char *path)
{
  g_autofree char *tap = g_build_filename (tmp_dir, "second.tap", NULL);
  gint64 deadline = g_get_monotonic_time () + (RESUME_SECONDS + 15) * G_USEC_PER_SEC;
  int status = 0;
  gboolean ended = FALSE;

  child_pid = start_child (resume_and_export, path, tap);
  while (!ended && g_get_monotonic_time () < deadline)
    {
      ended = waitpid (child_pid, &status, WNOHANG) == child_pid;
      if (!ended)
        g_usleep (20000);
    }
  if (ended)
    child_pid = 0;
  kill_child ();
  relay_tap (tap, "the application reopened", ended);
  return CHECK (ended && WIFEXITED (status) && WEXITSTATUS (status) == 0,
                "the reopened application ended well (%s, status %d)", ended ? "ended" : "killed: too slow",
                status);
}

/* status and the scalars of every run but their wall time alike in a and
 * b, bit for bit. */
static void
compare_runs (FlExperiment *a,
              FlExperiment *b)
{
  unsigned char *sa = NULL, *sb = NULL;
  int64_t counts[3] = { 0 };
  FlExperimentResult names;
  int differ = 0, compared = 0;

  fl_experiment_status (a, &sa, counts, NULL);
  fl_experiment_status (b, &sb, NULL, NULL);
  CHECK (sa != NULL && sb != NULL && memcmp (sa, sb, RUNS) == 0,
         "every run has the status of the uninterrupted run's (%" PRId64 " done, %" PRId64 " stopped)", counts[0],
         counts[2]);
  fl_experiment_scalars (a, NULL, &names);
  for (int s = 0; s < names.nscalars; s++)
    {
      int64_t *ia = NULL, *ib = NULL;
      double *va = NULL, *vb = NULL;
      int na = 0, nb = 0;

      if (g_str_equal (names.scalar_names[s], "wall_s"))
        continue;
      fl_project_get_scalars (fl_experiment_project (a), EXPERIMENT, names.scalar_names[s], &ia, &va, &na, NULL);
      fl_project_get_scalars (fl_experiment_project (b), EXPERIMENT, names.scalar_names[s], &ib, &vb, &nb, NULL);
      if (na != nb || (na > 0 && (memcmp (ia, ib, na * sizeof *ia) != 0 || memcmp (va, vb, na * sizeof *va) != 0)))
        {
          if (differ++ == 0)
            printf ("# %s differs first\n", names.scalar_names[s]);
        }
      compared += na;
      free (ia);
      free (ib);
      free (va);
      free (vb);
    }
  CHECK (differ == 0 && compared > 0, "%d scalars equal the uninterrupted run's bit for bit (%d keys differ)",
         compared, differ);
  free (sa);
  free (sb);
}

/* The same experiment (its row: network and design) run to its end by the
 * library in a fresh project, compared with the resumed file. */
static void
check_resumed (const char *path)
{
  g_autofree char *reference = g_build_filename (tmp_dir, "uninterrupted.flitlab", NULL);
  g_autofree char *check = integrity (path);
  FlProject *p = NULL, *q = NULL;
  FlExperiment *x = NULL, *y = NULL;
  FlProjectExperiment e = { 0 };
  FlError err = { 0 };
  int64_t running = -1;
  int rc;

  CHECK (g_str_equal (check, "ok"), "PRAGMA integrity_check after the resume: %s", check);
  rc = fl_project_open (path, &p, &err);
  if (rc == FL_OK)
    rc = fl_experiment_open (p, EXPERIMENT, &x, &err);
  if (rc == FL_OK)
    rc = fl_project_get_experiment (p, EXPERIMENT, &e, &err);
  CHECK (rc == FL_OK, "the resumed file opens (%s)", rc == FL_OK ? "ok" : err.message);
  if (rc == FL_OK)
    fl_experiment_running (x, &running, NULL);
  CHECK (running == 0, "no run is left in progress (%" PRId64 ")", running);
  if (rc == FL_OK)
    rc = fl_project_new (&q, &err);
  if (rc == FL_OK)
    rc = fl_project_save_as (q, reference, &err);
  if (rc == FL_OK)
    rc = fl_project_create_experiment (q, EXPERIMENT, e.topology, e.network, e.design, e.runs, &err);
  if (rc == FL_OK)
    rc = fl_experiment_open (q, EXPERIMENT, &y, &err);
  if (rc == FL_OK)
    rc = fl_experiment_run (y, NULL, &err);
  CHECK (rc == FL_OK, "the library runs the experiment uninterrupted (%s)", rc == FL_OK ? "ok" : err.message);
  if (rc == FL_OK)
    compare_runs (x, y);
  fl_project_experiment_clear (&e);
  fl_experiment_free (x);
  fl_experiment_free (y);
  fl_project_free (p);
  fl_project_free (q);
}

static void
check_pdf (void)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (pdf_path, &contents, &length, NULL);
  CHECK (contents != NULL && length > 5 && memcmp (contents, "%PDF-", 5) == 0,
         "%s is a PDF (%" G_GSIZE_FORMAT " bytes)", pdf_path, length);
}

/* Removes the test's folder and what it holds. */
static void
remove_tmp (void)
{
  g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (tmp_dir);
}

static void
experiment_kill (void)
{
  g_autofree char *template = NULL;
  g_autofree char *path = NULL;
  int held = -1;

  tmp_dir = g_dir_make_tmp ("flitlab-kill-XXXXXX", NULL);
  template = g_build_filename (tmp_dir, "template.flitlab", NULL);
  pdf_path = g_build_filename (tmp_dir, EXPERIMENT ".pdf", NULL);
  atexit (kill_child);
  if (!prepare_project (template))
    return;
  /* Half way first; a kill that comes too late is tried again earlier. */
  for (int attempt = 1; attempt <= ATTEMPTS && (held <= 0 || held >= RUNS); attempt++)
    {
      g_free (path);
      path = g_strdup_printf ("%s/attempt-%d.flitlab", tmp_dir, attempt);
      held = run_and_kill (template, path, attempt, attempt == 1 ? RUNS / 2 : attempt == 2 ? RUNS / 4 : 1);
      if (held < 0 && tap_failed_ > 0)
        return;
    }
  check_killed (path, held);
  if (held <= 0 || held >= RUNS)
    return;
  held_after_kill = held;
  if (resume (path))
    check_pdf ();
  check_resumed (path);
  if (tap_failed_ == 0)
    remove_tmp ();
  else
    printf ("# the files are kept in %s\n", tmp_dir);
}

int
main (int   argc,
      char *argv[])
{
  const char *scenario = argc > 1 ? argv[1] : "experiment-kill";

  if (g_str_equal (scenario, "experiment-kill"))
    experiment_kill ();
  else
    CHECK (FALSE, "a known scenario: %s", scenario);
  return tap_done ();
}
