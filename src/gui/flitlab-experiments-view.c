/* flitlab-experiments-view.c — the project's experiments, the runs of the
 * one shown, and running it.
 *
 * The runs table holds one item per run of the design, by number, built
 * from the design and what the file holds when an experiment is shown;
 * while it runs, each finished run replaces its item from the result the
 * runner hands back, without reading the file again. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>

#include "flitlab-alert.h"
#include "flitlab-experiment-job.h"
#include "flitlab-experiments-view.h"
#include "flitlab-exp.h"
#include "flitlab-run-item.h"
#include "flitlab-runs-table.h"

struct _FlitlabExperimentsView
{
  GtkWidget parent_instance;

  GtkStack *stack;
  GtkListBox *experiment_list;
  GtkButton *run_button;
  GtkWidget *stop_button;
  GtkProgressBar *progress_bar;
  GtkLabel *progress_label;
  GtkWidget *open_button;
  GtkPaned *paned;
  FlitlabRunsTable *runs_table;
  FlitlabPlotComposer *plot_composer;
  FlitlabPlotPreview *plot_preview;

  FlProject *project;
  /* The experiment shown: its name, design, runs (FlitlabRunItem by
   * number) and how many the file holds. */
  char *name;
  FlExpDesign *design;
  GListStore *runs;
  gint64 total, held;

  FlitlabExperimentJob *job;
  gboolean updating;
  /* The preview redraws at most this often while runs come in. */
  guint plot_timeout_id;
};

#define PLOT_REFRESH_MS 250

G_DEFINE_FINAL_TYPE (FlitlabExperimentsView, flitlab_experiments_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  OPEN_RUN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

#define ROW_NAME_KEY "flitlab-experiment-name"

static void
toast (FlitlabExperimentsView *self,
       const char             *message)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
  g_autofree char *escaped = g_markup_escape_text (message, -1);

  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (escaped));
}

/* A failure, over the window the view is in. */
static void
alert (FlitlabExperimentsView *self,
       const char             *message)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  flitlab_alert (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, NULL, message);
}

/* The buttons and the sentence under the bar, from the counts. */
static void
update_controls (FlitlabExperimentsView *self)
{
  gboolean running = self->job != NULL;
  gboolean all = self->total > 0 && self->held >= self->total;

  gtk_widget_set_visible (self->stop_button, running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->run_button), !running && self->name != NULL && !all);
  /* Translators: runs what the project file lacks of an experiment. */
  gtk_button_set_label (self->run_button, self->held > 0 && !all ? _("_Resume") : _("_Run"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->run_button),
                               all ? _("Every run is in the project")
                                   : self->held > 0 ? _("Run the runs the project does not hold yet")
                                                    : _("Run every run of the experiment"));
  gtk_progress_bar_set_fraction (self->progress_bar, self->total > 0 ? (double) self->held / self->total : 0);
  gtk_widget_set_sensitive (self->open_button, self->name != NULL
                                                 && flitlab_runs_table_get_selected (self->runs_table) >= 0);
}

static void
set_progress_text (FlitlabExperimentsView *self,
                   const char             *text)
{
  gtk_label_set_text (self->progress_label, text);
}

static void
counts_text (FlitlabExperimentsView *self)
{
  g_autofree char *text = flitlab_experiment_progress_text (self->held, self->total, NAN);

  set_progress_text (self, text);
}

/* The plot ----------------------------------------------------------------------- */

static void
update_plot (FlitlabExperimentsView *self)
{
  FlPlotSpec spec;

  g_clear_handle_id (&self->plot_timeout_id, g_source_remove);
  fl_plot_spec_init (&spec);
  if (self->project != NULL && flitlab_plot_composer_get_spec (self->plot_composer, &spec))
    flitlab_plot_preview_update (self->plot_preview, self->project, &spec);
  else
    flitlab_plot_preview_clear (self->plot_preview);
  fl_plot_spec_clear (&spec);
}

static void
plot_changed_cb (FlitlabExperimentsView *self)
{
  update_plot (self);
}

static gboolean
plot_timeout (gpointer user_data)
{
  FlitlabExperimentsView *self = user_data;

  self->plot_timeout_id = 0;
  update_plot (self);
  return G_SOURCE_REMOVE;
}

/* Runs came in: the preview reads them soon, once for many. */
static void
update_plot_soon (FlitlabExperimentsView *self)
{
  if (self->plot_timeout_id == 0)
    self->plot_timeout_id = g_timeout_add (PLOT_REFRESH_MS, plot_timeout, self);
}

/* Loading an experiment ------------------------------------------------------- */

static void
clear_experiment (FlitlabExperimentsView *self)
{
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->design, fl_exp_design_free);
  g_clear_object (&self->runs);
  self->total = self->held = 0;
  flitlab_runs_table_set_runs (self->runs_table, NULL, NULL, 0);
  flitlab_plot_composer_set_experiment (self->plot_composer, NULL, NULL, NULL);
  set_progress_text (self, "");
  update_controls (self);
}

static const char *const status_words[] = { "done", "failed", "stopped" };

/* Marks the runs of each status the file holds; counts them. */
static gboolean
load_statuses (FlitlabExperimentsView  *self,
               FlError                 *err)
{
  self->held = 0;
  for (int s = FL_RUN_DONE; s <= FL_RUN_STOPPED; s++)
    {
      int64_t *idx = NULL;
      int n = 0;

      if (fl_project_list_runs (self->project, self->name, (FlRunStatus) s, &idx, &n, err) != FL_OK)
        return FALSE;
      for (int i = 0; i < n; i++)
        {
          g_autoptr(FlitlabRunItem) item = g_list_model_get_item (G_LIST_MODEL (self->runs), (guint) idx[i]);

          if (item != NULL)
            flitlab_run_item_set_status (item, status_words[s - FL_RUN_DONE]);
        }
      self->held += n;
      free (idx);
    }
  return TRUE;
}

static gboolean
load_results (FlitlabExperimentsView *self,
              FlError                *err)
{
  for (int r = 0; r < FLITLAB_RUN_N_RESULTS; r++)
    {
      int64_t *idx = NULL;
      double *values = NULL;
      int n = 0;

      if (fl_project_get_scalars (self->project, self->name, flitlab_run_item_key (r), &idx, &values, &n, err)
          != FL_OK)
        return FALSE;
      for (int i = 0; i < n; i++)
        {
          g_autoptr(FlitlabRunItem) item = g_list_model_get_item (G_LIST_MODEL (self->runs), (guint) idx[i]);

          if (item != NULL)
            flitlab_run_item_set_result (item, r, values[i]);
        }
      free (idx);
      free (values);
    }
  return TRUE;
}

/* One item per run of the design, in order. */
static gboolean
make_runs (FlitlabExperimentsView *self,
           FlError                *err)
{
  int n = fl_exp_design_param_count (self->design);
  g_autofree const char **values = g_new0 (const char *, n + 1);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (gint64 idx = 0; idx < self->total; idx++)
    {
      uint64_t seed = 0;

      if (fl_exp_design_run (self->design, idx, values, &seed, err) != FL_OK)
        return FALSE;
      g_ptr_array_add (items, flitlab_run_item_new (idx, values, n, seed));
    }
  self->runs = g_list_store_new (FLITLAB_TYPE_RUN_ITEM);
  g_list_store_splice (self->runs, 0, 0, items->pdata, items->len);
  return TRUE;
}

static gboolean
load_experiment (FlitlabExperimentsView *self,
                 const char             *name)
{
  FlProjectExperiment e = { 0 };
  FlError err = { 0 };
  g_autofree const char **keys = NULL;
  int n;
  gboolean ok;

  clear_experiment (self);
  if (name == NULL || self->project == NULL)
    return FALSE;
  ok = fl_project_get_experiment (self->project, name, &e, &err) == FL_OK
       && fl_exp_design_parse (e.design, &self->design, &err) == FL_OK;
  if (ok)
    {
      self->name = g_strdup (name);
      self->total = e.runs;
      ok = make_runs (self, &err) && load_statuses (self, &err) && load_results (self, &err);
    }
  fl_project_experiment_clear (&e);
  if (!ok)
    {
      alert (self, err.message);
      clear_experiment (self);
      return FALSE;
    }
  n = fl_exp_design_param_count (self->design);
  keys = g_new0 (const char *, n + 1);
  for (int i = 0; i < n; i++)
    keys[i] = fl_exp_design_param_key (self->design, i);
  flitlab_runs_table_set_runs (self->runs_table, G_LIST_MODEL (self->runs), keys, n);
  flitlab_plot_composer_set_experiment (self->plot_composer, self->project, self->name, self->design);
  counts_text (self);
  update_controls (self);
  return TRUE;
}

/* The list ----------------------------------------------------------------------- */

static const char *
row_name (GtkListBoxRow *row)
{
  return row != NULL ? g_object_get_data (G_OBJECT (row), ROW_NAME_KEY) : NULL;
}

/* "12 of 40 runs · mesh:4x4": the runs the file holds, those stopped past
 * saturation included, as the progress counts them. */
static char *
row_subtitle (FlProject                 *project,
              const FlProjectExperiment *e)
{
  int64_t *stopped = NULL;
  int n = 0;
  g_autofree char *runs = NULL;
  const char *topology = e->topology[0] == '#' ? e->topology + 1 : e->topology;

  if (e->damage != NULL)
    {
      /* Translators: an experiment whose runs in the file cannot be read,
       * then its network. */
      return g_strdup_printf (_("Damaged · %s"), topology);
    }
  if (fl_project_list_runs (project, e->name, FL_RUN_STOPPED, &stopped, &n, NULL) != FL_OK)
    n = 0;
  free (stopped);
  runs = flitlab_experiment_progress_text (e->done + e->failed + n, e->runs, NAN);
  /* Translators: an experiment's runs in the file, then its network. */
  return g_strdup_printf (_("%s · %s"), runs, topology);
}

static GtkWidget *
create_row (FlProject                 *project,
            const FlProjectExperiment *e)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *subtitle = row_subtitle (project, e);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), e->name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
  g_object_set_data_full (G_OBJECT (row), ROW_NAME_KEY, g_strdup (e->name), g_free);
  /* The whole message, which selecting it shows too. */
  if (e->damage != NULL)
    gtk_widget_set_tooltip_text (row, e->damage);
  return row;
}

static GtkListBoxRow *
find_row (FlitlabExperimentsView *self,
          const char             *name)
{
  for (int i = 0;; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->experiment_list, i);

      if (row == NULL || g_strcmp0 (row_name (row), name) == 0)
        return row;
    }
}

void
flitlab_experiments_view_refresh (FlitlabExperimentsView *self)
{
  FlProjectExperiment *items = NULL;
  int n = 0;
  FlError err = { 0 };
  g_autofree char *keep = NULL;
  GtkWidget *child;

  g_return_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self));

  keep = g_strdup (self->name);
  self->updating = TRUE;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->experiment_list))) != NULL)
    gtk_list_box_remove (self->experiment_list, child);
  self->updating = FALSE;

  if (self->project == NULL || fl_project_path (self->project) == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "untitled");
      clear_experiment (self);
      return;
    }
  if (fl_project_list_experiments (self->project, &items, &n, &err) != FL_OK)
    alert (self, err.message);
  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "experiments" : "empty");
  self->updating = TRUE;
  for (int i = 0; i < n; i++)
    gtk_list_box_append (self->experiment_list, create_row (self->project, &items[i]));
  self->updating = FALSE;
  fl_project_experiments_free (items, n);

  if (keep == NULL || !flitlab_experiments_view_select (self, keep))
    {
      GtkListBoxRow *first = gtk_list_box_get_row_at_index (self->experiment_list, 0);

      if (first != NULL)
        flitlab_experiments_view_select (self, row_name (first));
      else
        clear_experiment (self);
    }
}

void
flitlab_experiments_view_set_project (FlitlabExperimentsView *self,
                                      FlProject              *project)
{
  g_return_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self));

  /* A run goes on in its own thread on its own handle: its results are
   * the other project's, so it stops. */
  if (project != self->project)
    {
      flitlab_experiments_view_shutdown (self);
      clear_experiment (self);
    }
  self->project = project;
  flitlab_experiments_view_refresh (self);
}

gboolean
flitlab_experiments_view_select (FlitlabExperimentsView *self,
                                 const char             *name)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self), FALSE);

  row = find_row (self, name);
  if (row == NULL)
    return FALSE;
  self->updating = TRUE;
  gtk_list_box_select_row (self->experiment_list, row);
  self->updating = FALSE;
  if (g_strcmp0 (name, self->name) != 0 || self->runs == NULL)
    load_experiment (self, name);
  return TRUE;
}

const char *
flitlab_experiments_view_get_selected (FlitlabExperimentsView *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self), NULL);

  return self->name;
}

static void
row_selected_cb (FlitlabExperimentsView *self,
                 GtkListBoxRow          *row)
{
  if (self->updating || row == NULL || g_strcmp0 (row_name (row), self->name) == 0)
    return;
  load_experiment (self, row_name (row));
}

/* Running ------------------------------------------------------------------------- */

static void
job_progress_cb (FlitlabExperimentsView *self,
                 gint64                  held,
                 gint64                  total,
                 double                  fraction,
                 const char             *text)
{
  self->held = held;
  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  set_progress_text (self, text);
}

static void
job_result_cb (FlitlabExperimentsView *self,
               gint64                  idx,
               const char             *status,
               guint64                 seed,
               GHashTable             *scalars)
{
  g_autoptr(FlitlabRunItem) old = NULL;
  g_autoptr(FlitlabRunItem) item = NULL;
  g_autofree const char **values = NULL;
  int n;

  if (self->runs == NULL || self->job == NULL
      || g_strcmp0 (self->name, flitlab_experiment_job_get_name (self->job)) != 0)
    return;
  old = g_list_model_get_item (G_LIST_MODEL (self->runs), (guint) idx);
  if (old == NULL)
    return;
  n = flitlab_run_item_get_n_values (old);
  values = g_new0 (const char *, n + 1);
  for (int i = 0; i < n; i++)
    values[i] = flitlab_run_item_get_value (old, i);
  item = flitlab_run_item_new (idx, values, n, flitlab_run_item_get_seed (old));
  flitlab_run_item_set_status (item, status);
  for (int r = 0; r < FLITLAB_RUN_N_RESULTS; r++)
    {
      const double *v = g_hash_table_lookup (scalars, flitlab_run_item_key (r));

      flitlab_run_item_set_result (item, r, v != NULL ? *v : NAN);
    }
  /* A new item in its place: the table's filter and sort see the change. */
  g_list_store_splice (self->runs, (guint) idx, 1, (gpointer *) &item, 1);
  update_plot_soon (self);
}

static void
update_row (FlitlabExperimentsView *self)
{
  FlProjectExperiment e = { 0 };
  GtkListBoxRow *row = find_row (self, self->name);

  if (row != NULL && fl_project_get_experiment (self->project, self->name, &e, NULL) == FL_OK)
    {
      g_autofree char *subtitle = row_subtitle (self->project, &e);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
    }
  fl_project_experiment_clear (&e);
}

static void
job_finished_cb (FlitlabExperimentsView *self,
                 const GError           *error)
{
  g_autoptr(FlitlabExperimentJob) job = g_steal_pointer (&self->job);
  FlError err = { 0 };
  g_autofree char *counts = NULL;
  g_autofree char *text = NULL;

  g_signal_handlers_disconnect_by_data (job, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  if (self->name == NULL || g_strcmp0 (self->name, flitlab_experiment_job_get_name (job)) != 0)
    {
      update_controls (self);
      return;
    }
  /* What the file holds now, stopped runs past saturation included. */
  if (self->runs != NULL && !load_statuses (self, &err))
    alert (self, err.message);
  flitlab_runs_table_refresh (self->runs_table);
  update_row (self);
  update_plot (self);
  counts = flitlab_experiment_progress_text (self->held, self->total, NAN);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    /* Translators: the runs in the file, after the user stopped. */
    text = g_strdup_printf (_("%s · stopped: resume to run the rest"), counts);
  else if (error != NULL)
    {
      text = g_strdup_printf (_("%s · %s"), counts, error->message);
      alert (self, error->message);
    }
  else
    text = g_steal_pointer (&counts);
  set_progress_text (self, text);
  update_controls (self);
}

gboolean
flitlab_experiments_view_run (FlitlabExperimentsView *self)
{
  const char *path;

  g_return_val_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self), FALSE);

  path = self->project != NULL ? fl_project_path (self->project) : NULL;
  if (self->job != NULL || self->name == NULL || path == NULL || self->held >= self->total)
    return FALSE;
  self->job = flitlab_experiment_job_new (path, self->name, 0);
  g_signal_connect_swapped (self->job, "progress", G_CALLBACK (job_progress_cb), self);
  g_signal_connect_swapped (self->job, "result", G_CALLBACK (job_result_cb), self);
  g_signal_connect_swapped (self->job, "finished", G_CALLBACK (job_finished_cb), self);
  set_progress_text (self, _("Starting…"));
  update_controls (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  return TRUE;
}

void
flitlab_experiments_view_cancel (FlitlabExperimentsView *self)
{
  g_return_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self));

  if (self->job != NULL)
    flitlab_experiment_job_cancel (self->job);
}

gboolean
flitlab_experiments_view_get_running (FlitlabExperimentsView *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self), FALSE);

  return self->job != NULL;
}

void
flitlab_experiments_view_shutdown (FlitlabExperimentsView *self)
{
  g_autoptr(FlitlabExperimentJob) job = NULL;

  g_return_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self));

  if (self->job == NULL)
    return;
  job = g_steal_pointer (&self->job);
  g_signal_handlers_disconnect_by_data (job, self);
  flitlab_experiment_job_stop (job);
  update_controls (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

static void
run_clicked_cb (FlitlabExperimentsView *self)
{
  flitlab_experiments_view_run (self);
}

static void
stop_clicked_cb (FlitlabExperimentsView *self)
{
  flitlab_experiments_view_cancel (self);
}

/* Runs -------------------------------------------------------------------------------- */

static void
run_activated_cb (FlitlabExperimentsView *self,
                  gint64                  idx)
{
  if (self->name != NULL)
    g_signal_emit (self, signals[OPEN_RUN], 0, self->name, idx);
}

static void
open_clicked_cb (FlitlabExperimentsView *self)
{
  gint64 idx = flitlab_runs_table_get_selected (self->runs_table);

  if (idx >= 0)
    run_activated_cb (self, idx);
}

FlitlabRunsTable *
flitlab_experiments_view_get_table (FlitlabExperimentsView *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self), NULL);

  return self->runs_table;
}

FlitlabPlotComposer *
flitlab_experiments_view_get_composer (FlitlabExperimentsView *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self), NULL);

  return self->plot_composer;
}

FlitlabPlotPreview *
flitlab_experiments_view_get_preview (FlitlabExperimentsView *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self), NULL);

  return self->plot_preview;
}

const char *
flitlab_experiments_view_get_progress_text (FlitlabExperimentsView *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENTS_VIEW (self), NULL);

  return gtk_label_get_text (self->progress_label);
}

/* Object life ---------------------------------------------------------------------------- */

static void
flitlab_experiments_view_dispose (GObject *object)
{
  FlitlabExperimentsView *self = FLITLAB_EXPERIMENTS_VIEW (object);
  GtkWidget *child;

  flitlab_experiments_view_shutdown (self);
  g_clear_handle_id (&self->plot_timeout_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_EXPERIMENTS_VIEW);
  /* The template's top widget has no name to be cleared by. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->design, fl_exp_design_free);
  g_clear_object (&self->runs);
  G_OBJECT_CLASS (flitlab_experiments_view_parent_class)->dispose (object);
}

static void
flitlab_experiments_view_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  FlitlabExperimentsView *self = FLITLAB_EXPERIMENTS_VIEW (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->job != NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_experiments_view_class_init (FlitlabExperimentsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_experiments_view_dispose;
  object_class->get_property = flitlab_experiments_view_get_property;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[OPEN_RUN] = g_signal_new ("open-run", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                    NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_INT64);

  g_type_ensure (FLITLAB_TYPE_RUNS_TABLE);
  g_type_ensure (FLITLAB_TYPE_PLOT_COMPOSER);
  g_type_ensure (FLITLAB_TYPE_PLOT_PREVIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-experiments-view.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, stack);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, experiment_list);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, run_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, stop_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, progress_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, open_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, paned);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, runs_table);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, plot_composer);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentsView, plot_preview);
  gtk_widget_class_bind_template_callback (widget_class, plot_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, toast);
  gtk_widget_class_bind_template_callback (widget_class, alert);
  gtk_widget_class_bind_template_callback (widget_class, row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, run_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, run_activated_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
flitlab_experiments_view_init (FlitlabExperimentsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (gtk_column_view_get_model (flitlab_runs_table_get_view (self->runs_table)),
                            "selection-changed", G_CALLBACK (update_controls), self);
  gtk_stack_set_visible_child_name (self->stack, "untitled");
  update_controls (self);
}
