/* flitlab-plot-composer.c — composing a plot of an experiment's results.
 *
 * The rows offer what the experiment has: x and the series its varied
 * parameters, y every result key of the engine's table for its runs'
 * models; x also offers cycle and channel, over which y offers the runs'
 * vectors instead. The first item of the saved plots' row stands for "not
 * a saved plot". */
#include <glib/gi18n.h>
#include <stdlib.h>

#include "flitlab-experiment-figure.h"
#include "flitlab-experiment.h"
#include "flitlab-plot-composer.h"
#include "flitlab-workers.h"

struct _FlitlabPlotComposer
{
  GtkWidget parent_instance;

  GtkWidget *export_button;
  AdwComboRow *x_row;
  AdwComboRow *y_row;
  AdwComboRow *series_row;
  GtkSwitch *error_switch;
  GtkToggleButton *xlog_button;
  GtkToggleButton *ylog_button;
  AdwComboRow *size_row;
  AdwComboRow *saved_row;
  AdwEntryRow *name_row;

  FlProject *project;
  char *experiment;
  GStrv params;                 /* the varied keys */
  GPtrArray *xkeys;             /* the x row's items: the varied keys, cycle, channel */
  GPtrArray *ykeys;             /* the y row's items: result keys or vectors (static names) */
  unsigned models;              /* FL_OPTION_FOR_* of the runs */
  GtkStringList *saved;         /* "", then the saved plots' names */
  gboolean updating;
};

G_DEFINE_FINAL_TYPE (FlitlabPlotComposer, flitlab_plot_composer, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  MESSAGE,
  FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
toast (FlitlabPlotComposer *self,
       const char          *message)
{
  g_signal_emit (self, signals[MESSAGE], 0, message);
}

static void
failed (FlitlabPlotComposer *self,
        const char          *message)
{
  g_signal_emit (self, signals[FAILED], 0, message);
}

static void
emit_changed (FlitlabPlotComposer *self)
{
  if (!self->updating)
    g_signal_emit (self, signals[CHANGED], 0);
}

static void
changed_cb (FlitlabPlotComposer *self)
{
  /* Another definition is not the saved plot any more. */
  if (!self->updating)
    {
      self->updating = TRUE;
      adw_combo_row_set_selected (self->saved_row, 0);
      self->updating = FALSE;
    }
  emit_changed (self);
}

/* The item of name among keys, or -1. */
static int
key_position (GPtrArray  *keys,
              const char *name)
{
  for (guint i = 0; name != NULL && i < keys->len; i++)
    if (g_strcmp0 (g_ptr_array_index (keys, i), name) == 0)
      return (int) i;
  return -1;
}

static int
y_position (FlitlabPlotComposer *self,
            const char          *name)
{
  return key_position (self->ykeys, name);
}

static const char *
selected_x (FlitlabPlotComposer *self)
{
  guint xi = adw_combo_row_get_selected (self->x_row);

  return xi < self->xkeys->len ? g_ptr_array_index (self->xkeys, xi) : NULL;
}

static void
add_y (FlitlabPlotComposer *self,
       GtkStringList       *ys,
       const char          *name,
       const char          *title,
       const char          *unit)
{
  g_autofree char *label = unit[0] != '\0' ? g_strdup_printf ("%s (%s)", title, unit) : g_strdup (title);

  if (y_position (self, name) >= 0)
    return;
  g_ptr_array_add (self->ykeys, (gpointer) name);
  gtk_string_list_append (ys, label);
}

/* The y row lists, each by its title and unit ("Mean packet latency
 * (cycles)"), the results of the models the runs use or, over cycle or
 * channel, their vectors over it; it keeps y when the new list has it. */
static void
list_ys (FlitlabPlotComposer *self)
{
  g_autoptr(GtkStringList) ys = gtk_string_list_new (NULL);
  guint yi = adw_combo_row_get_selected (self->y_row);
  const char *y = yi < self->ykeys->len ? g_ptr_array_index (self->ykeys, yi) : "latency_avg";
  const char *x = selected_x (self);
  gboolean cycles = g_strcmp0 (x, FL_PLOT_X_CYCLE) == 0, channels = g_strcmp0 (x, FL_PLOT_X_CHANNEL) == 0;
  gboolean was_updating = self->updating;

  g_ptr_array_set_size (self->ykeys, 0);
  for (int i = 0; !cycles && !channels && i < fl_sim_result_key_count (); i++)
    {
      const FlSimResultKey *key = fl_sim_result_key (i);

      if (key->models & self->models)
        add_y (self, ys, key->name, fl_gettext (key->title), fl_gettext (key->unit));
    }
  for (int i = 0; (cycles || channels) && i < fl_experiment_vector_count (); i++)
    {
      const FlExperimentVectorInfo *v = fl_experiment_vector_info (i);

      if ((v->models & self->models) && v->per_channel == channels)
        add_y (self, ys, v->name, fl_gettext (v->title), fl_gettext (v->unit));
    }
  self->updating = TRUE;
  adw_combo_row_set_model (self->y_row, G_LIST_MODEL (ys));
  adw_combo_row_set_selected (self->y_row, (guint) MAX (0, y_position (self, y)));
  self->updating = was_updating;
}

/* The x row: the varied parameters, then cycle and channel when the runs
 * have vectors over them. */
static void
list_xs (FlitlabPlotComposer *self)
{
  g_autoptr(GtkStringList) xs = gtk_string_list_new (NULL);

  g_ptr_array_set_size (self->xkeys, 0);
  for (int i = 0; self->params != NULL && self->params[i] != NULL; i++)
    {
      g_ptr_array_add (self->xkeys, self->params[i]);
      gtk_string_list_append (xs, self->params[i]);
    }
  if (self->models & (FL_OPTION_FOR_FLIT | FL_OPTION_FOR_DEFLECTION))
    {
      g_ptr_array_add (self->xkeys, (gpointer) FL_PLOT_X_CYCLE);
      /* Translators: the x axis of a plot of the runs' series over simulated time. */
      gtk_string_list_append (xs, _("cycle (each run's series)"));
    }
  if (self->models & FL_OPTION_FOR_FLIT)
    {
      g_ptr_array_add (self->xkeys, (gpointer) FL_PLOT_X_CHANNEL);
      /* Translators: the x axis of a plot of the runs' figures per channel. */
      gtk_string_list_append (xs, _("channel (each run's figures per channel)"));
    }
  adw_combo_row_set_model (self->x_row, G_LIST_MODEL (xs));
}

/* x changed: y offers what there is over the new x. */
static void
x_changed_cb (FlitlabPlotComposer *self)
{
  if (self->updating)
    return;
  list_ys (self);
  changed_cb (self);
}

static int
param_position (FlitlabPlotComposer *self,
                const char          *key)
{
  for (int i = 0; self->params != NULL && self->params[i] != NULL; i++)
    if (g_strcmp0 (self->params[i], key) == 0)
      return i;
  return -1;
}

gboolean
flitlab_plot_composer_set_axes (FlitlabPlotComposer *self,
                                const char          *x,
                                const char          *y,
                                const char          *series)
{
  int xi, yi, si;

  g_return_val_if_fail (FLITLAB_IS_PLOT_COMPOSER (self), FALSE);

  xi = key_position (self->xkeys, x);
  si = series != NULL ? param_position (self, series) : -1;
  if (xi < 0 || (series != NULL && si < 0))
    return FALSE;
  self->updating = TRUE;
  adw_combo_row_set_selected (self->x_row, (guint) xi);
  list_ys (self);
  yi = y_position (self, y);
  if (yi < 0)
    {
      self->updating = FALSE;
      return FALSE;
    }
  adw_combo_row_set_selected (self->y_row, (guint) yi);
  /* The series row's first item is "None". */
  adw_combo_row_set_selected (self->series_row, (guint) (si + 1));
  self->updating = FALSE;
  changed_cb (self);
  return TRUE;
}

void
flitlab_plot_composer_set_log (FlitlabPlotComposer *self,
                               gboolean             xlog,
                               gboolean             ylog)
{
  g_return_if_fail (FLITLAB_IS_PLOT_COMPOSER (self));

  gtk_toggle_button_set_active (self->xlog_button, xlog);
  gtk_toggle_button_set_active (self->ylog_button, ylog);
}

gboolean
flitlab_plot_composer_get_spec (FlitlabPlotComposer *self,
                                FlPlotSpec          *spec)
{
  guint xi, yi, si;

  g_return_val_if_fail (FLITLAB_IS_PLOT_COMPOSER (self), FALSE);

  fl_plot_spec_clear (spec);
  if (self->experiment == NULL || self->params == NULL || self->params[0] == NULL)
    return FALSE;
  xi = adw_combo_row_get_selected (self->x_row);
  yi = adw_combo_row_get_selected (self->y_row);
  si = adw_combo_row_get_selected (self->series_row);
  if (xi >= self->xkeys->len || yi >= self->ykeys->len)
    return FALSE;
  spec->experiment = strdup (self->experiment);
  spec->x = strdup (g_ptr_array_index (self->xkeys, xi));
  spec->y = strdup (g_ptr_array_index (self->ykeys, yi));
  spec->series = si > 0 && si <= g_strv_length (self->params) ? strdup (self->params[si - 1]) : NULL;
  spec->error_bars = gtk_switch_get_active (self->error_switch);
  spec->xlog = gtk_toggle_button_get_active (self->xlog_button);
  spec->ylog = gtk_toggle_button_get_active (self->ylog_button);
  spec->columns = adw_combo_row_get_selected (self->size_row) == 1 ? 2 : 1;
  return TRUE;
}

/* Shows spec's choices in the rows. */
static void
show_spec (FlitlabPlotComposer *self,
           const FlPlotSpec    *spec)
{
  int si = spec->series != NULL ? param_position (self, spec->series) : -1;

  self->updating = TRUE;
  if (key_position (self->xkeys, spec->x) >= 0)
    adw_combo_row_set_selected (self->x_row, (guint) key_position (self->xkeys, spec->x));
  list_ys (self);
  if (y_position (self, spec->y) >= 0)
    adw_combo_row_set_selected (self->y_row, (guint) y_position (self, spec->y));
  adw_combo_row_set_selected (self->series_row, (guint) (si + 1));
  gtk_switch_set_active (self->error_switch, spec->error_bars);
  gtk_toggle_button_set_active (self->xlog_button, spec->xlog);
  gtk_toggle_button_set_active (self->ylog_button, spec->ylog);
  adw_combo_row_set_selected (self->size_row, spec->columns == 2 ? 1 : 0);
  self->updating = FALSE;
}

/* Saved plots ------------------------------------------------------------------- */

static void
list_saved (FlitlabPlotComposer *self)
{
  char **names = NULL;
  int n = 0;

  self->updating = TRUE;
  gtk_string_list_splice (self->saved, 0, g_list_model_get_n_items (G_LIST_MODEL (self->saved)), NULL);
  /* Translators: the saved plots' row when the plot shown is none of them. */
  gtk_string_list_append (self->saved, _("None"));
  if (self->experiment != NULL
      && fl_project_list_plots (self->project, self->experiment, &names, &n, NULL) == FL_OK)
    for (int i = 0; i < n; i++)
      gtk_string_list_append (self->saved, names[i]);
  fl_project_setting_keys_free (names, n);
  adw_combo_row_set_selected (self->saved_row, 0);
  self->updating = FALSE;
}

/* Shows name as the saved plot chosen, without loading it. */
static void
select_saved (FlitlabPlotComposer *self,
              const char          *name)
{
  for (guint i = 1; i < g_list_model_get_n_items (G_LIST_MODEL (self->saved)); i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->saved, i), name) == 0)
      {
        self->updating = TRUE;
        adw_combo_row_set_selected (self->saved_row, i);
        self->updating = FALSE;
      }
}

GListModel *
flitlab_plot_composer_get_saved (FlitlabPlotComposer *self)
{
  g_return_val_if_fail (FLITLAB_IS_PLOT_COMPOSER (self), NULL);

  return G_LIST_MODEL (self->saved);
}

gboolean
flitlab_plot_composer_load (FlitlabPlotComposer  *self,
                            const char           *name,
                            GError              **error)
{
  char *text = NULL;
  FlPlotSpec spec;
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_PLOT_COMPOSER (self), FALSE);

  fl_plot_spec_init (&spec);
  if (self->experiment == NULL
      || fl_project_get_plot (self->project, self->experiment, name, &text, &err) != FL_OK
      || fl_plot_spec_parse (text, &spec, &err) != FL_OK)
    {
      free (text);
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  free (text);
  show_spec (self, &spec);
  fl_plot_spec_clear (&spec);
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);
  select_saved (self, name);
  emit_changed (self);
  return TRUE;
}

static void
saved_selected_cb (FlitlabPlotComposer *self)
{
  guint i = adw_combo_row_get_selected (self->saved_row);
  g_autoptr(GError) error = NULL;

  if (self->updating || i == 0 || i == GTK_INVALID_LIST_POSITION)
    return;
  if (!flitlab_plot_composer_load (self, gtk_string_list_get_string (self->saved, i), &error))
    failed (self, error->message);
}

/* The definition into spec (initialized here), or FALSE with error set. */
static gboolean
spec_or_error (FlitlabPlotComposer  *self,
               FlPlotSpec           *spec,
               GError              **error)
{
  fl_plot_spec_init (spec);
  if (flitlab_plot_composer_get_spec (self, spec))
    return TRUE;
  g_set_error_literal (error, FLITLAB_ENGINE_ERROR, FL_EINVAL, _("There is no experiment to plot"));
  return FALSE;
}

gboolean
flitlab_plot_composer_save (FlitlabPlotComposer  *self,
                            const char           *name,
                            GError              **error)
{
  FlPlotSpec spec;
  char *text = NULL;
  FlError err = { 0 };
  int rc;

  g_return_val_if_fail (FLITLAB_IS_PLOT_COMPOSER (self), FALSE);

  if (!spec_or_error (self, &spec, error))
    return FALSE;
  rc = fl_plot_spec_format (&spec, &text, &err);
  if (rc == FL_OK)
    rc = fl_project_put_plot (self->project, self->experiment, name, text, &err);
  free (text);
  fl_plot_spec_clear (&spec);
  if (rc != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  list_saved (self);
  select_saved (self, name);
  return TRUE;
}

static void
save_cb (FlitlabPlotComposer *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_row));
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  if (name[0] == '\0')
    return;
  if (!flitlab_plot_composer_save (self, name, &error))
    {
      failed (self, error->message);
      return;
    }
  message = g_strdup_printf (_("Plot saved as “%s”"), name);
  toast (self, message);
}

/* Export ------------------------------------------------------------------------------ */

gboolean
flitlab_plot_composer_export (FlitlabPlotComposer  *self,
                              const char           *path,
                              GError              **error)
{
  FlPlotSpec spec;
  FlError err = { 0 };
  int rc;

  g_return_val_if_fail (FLITLAB_IS_PLOT_COMPOSER (self), FALSE);

  if (!spec_or_error (self, &spec, error))
    return FALSE;
  rc = fl_experiment_export_plot (self->project, &spec, path, NULL, &err);
  fl_plot_spec_clear (&spec);
  if (rc != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  return TRUE;
}

/* The formats by extension, the first the default. */
static const struct {
  const char *name;
  const char *extension;
} formats[] = {
  { N_("PDF Documents"), ".pdf" },
  { N_("SVG Drawings"), ".svg" },
  { N_("PNG Images"), ".png" },
  { N_("CSV Tables"), ".csv" },
  { N_("gnuplot Scripts"), ".gp" },
  { N_("pgfplots Figures"), ".tex" },
};

static void
export_response (GtkNativeDialog     *dialog,
                 int                  response,
                 FlitlabPlotComposer *self)
{
  static const char * const extensions[] = { ".pdf", ".svg", ".png", ".csv", ".gp", ".tex", NULL };
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
      const char *extension = filter != NULL ? g_object_get_data (G_OBJECT (filter), "extension") : NULL;
      gboolean known = FALSE;

      path = file != NULL ? g_file_get_path (file) : NULL;
      for (int i = 0; path != NULL && extensions[i] != NULL; i++)
        known = known || g_str_has_suffix (path, extensions[i]);
      /* A name typed without an extension takes the filter's. */
      if (path != NULL && !known)
        {
          char *with = g_strconcat (path, extension != NULL ? extension : ".pdf", NULL);

          g_free (path);
          path = with;
        }
    }
  g_object_unref (dialog);
  if (path == NULL)
    return;
  if (flitlab_plot_composer_export (self, path, &error))
    {
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *message = g_strdup_printf (_("Plot exported as “%s”"), base);

      toast (self, message);
    }
  else
    {
      g_autofree char *message = g_strdup_printf (_("Could not export the plot: %s"), error->message);

      failed (self, message);
    }
}

static void
export_clicked_cb (FlitlabPlotComposer *self)
{
  GtkFileChooserNative *dialog;
  g_autofree char *name = NULL;

  dialog = gtk_file_chooser_native_new (_("Export Plot"), GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
      g_autofree char *pattern = g_strconcat ("*", formats[i].extension, NULL);

      gtk_file_filter_set_name (filter, _(formats[i].name));
      gtk_file_filter_add_pattern (filter, pattern);
      g_object_set_data (G_OBJECT (filter), "extension", (gpointer) formats[i].extension);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    }
  name = g_strdup_printf ("%s.pdf", self->experiment != NULL ? self->experiment : "plot");
  g_strdelimit (name, "/\\", '-');
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_signal_connect (dialog, "response", G_CALLBACK (export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* The experiment ------------------------------------------------------------------------ */

void
flitlab_plot_composer_set_experiment (FlitlabPlotComposer *self,
                                      FlProject           *project,
                                      const char          *experiment,
                                      const FlExpDesign   *design)
{
  g_autoptr(GtkStringList) series = gtk_string_list_new (NULL);
  int n = design != NULL ? fl_exp_design_param_count (design) : 0;
  int x = 0;

  g_return_if_fail (FLITLAB_IS_PLOT_COMPOSER (self));

  self->project = project;
  g_free (self->experiment);
  self->experiment = experiment != NULL && design != NULL ? g_strdup (experiment) : NULL;
  g_strfreev (self->params);
  self->params = g_new0 (char *, n + 1);
  /* Translators: no series: one curve. */
  gtk_string_list_append (series, _("None"));
  for (int i = 0; i < n; i++)
    {
      self->params[i] = g_strdup (fl_exp_design_param_key (design, i));
      gtk_string_list_append (series, self->params[i]);
      if (g_strcmp0 (self->params[i], "rate") == 0)
        x = i;
    }
  self->models = design != NULL ? fl_exp_design_models (design) : FL_OPTION_FOR_FLIT;
  self->updating = TRUE;
  list_xs (self);
  adw_combo_row_set_model (self->series_row, G_LIST_MODEL (series));
  adw_combo_row_set_selected (self->x_row, (guint) x);
  list_ys (self);
  adw_combo_row_set_selected (self->y_row, (guint) MAX (0, y_position (self, "latency_avg")));
  /* The first parameter other than x makes the series. */
  adw_combo_row_set_selected (self->series_row, n > 1 ? (x == 0 ? 2 : 1) : 0);
  self->updating = FALSE;
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), "");
  gtk_widget_set_sensitive (GTK_WIDGET (self), self->experiment != NULL);
  list_saved (self);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->saved)) > 1)
    flitlab_plot_composer_load (self, gtk_string_list_get_string (self->saved, 1), NULL);
  else
    emit_changed (self);
}

/* Object life ------------------------------------------------------------------------------ */

static void
flitlab_plot_composer_dispose (GObject *object)
{
  FlitlabPlotComposer *self = FLITLAB_PLOT_COMPOSER (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_PLOT_COMPOSER);
  /* The template's top widget has no name to be cleared by. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->experiment, g_free);
  g_clear_pointer (&self->params, g_strfreev);
  g_clear_object (&self->saved);
  g_clear_pointer (&self->xkeys, g_ptr_array_unref);
  g_clear_pointer (&self->ykeys, g_ptr_array_unref);
  G_OBJECT_CLASS (flitlab_plot_composer_parent_class)->dispose (object);
}

static void
flitlab_plot_composer_class_init (FlitlabPlotComposerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_plot_composer_dispose;

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
  signals[MESSAGE] = g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flitlab/Flitlab/flitlab-plot-composer.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabPlotComposer, export_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPlotComposer, x_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPlotComposer, y_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPlotComposer, series_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPlotComposer, error_switch);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPlotComposer, xlog_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPlotComposer, ylog_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPlotComposer, size_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPlotComposer, saved_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPlotComposer, name_row);
  gtk_widget_class_bind_template_callback (widget_class, changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, x_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, saved_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, save_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
flitlab_plot_composer_init (FlitlabPlotComposer *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->xkeys = g_ptr_array_new ();
  self->ykeys = g_ptr_array_new ();
  self->models = FL_OPTION_FOR_FLIT;
  self->updating = TRUE;
  list_ys (self);
  self->saved = gtk_string_list_new (NULL);
  adw_combo_row_set_model (self->saved_row, G_LIST_MODEL (self->saved));
  self->updating = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self), FALSE);
}
