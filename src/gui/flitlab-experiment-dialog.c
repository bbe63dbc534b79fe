/* flitlab-experiment-dialog.c — a new experiment from the simulation
 * settings of the network shown.
 *
 * The design is built anew on every change, from the parameters in order,
 * so each row shows what fl_exp_design_vary() says of its values in the
 * context of the rows above it (a key varied twice is refused on the
 * second). */
#include <glib/gi18n.h>
#include <stdlib.h>

#include "flitlab-alert.h"
#include "flitlab-experiment-dialog.h"
#include "flitlab-exp.h"
#include "flitlab-experiment.h"
#include "flitlab-io.h"
#include "flitlab-workers.h"

struct _FlitlabExperimentDialog
{
  AdwWindow parent_instance;

  GtkWidget *create_button;
  AdwEntryRow *name_row;
  GtkListBox *params_list;
  GtkSpinButton *seed_from;
  GtkSpinButton *seed_to;
  AdwActionRow *runs_row;
  GtkLabel *runs_label;
  AdwActionRow *network_row;
  AdwActionRow *routing_row;
  AdwExpanderRow *settings_row;

  FlProject *project;
  FlitlabDocument *document;
  /* Every key a parameter may take, in the dropdowns' order. */
  GtkStringList *keys;
  /* The parameters' rows, in order. */
  GPtrArray *rows;
  gint64 runs;
  char *error;
};

G_DEFINE_FINAL_TYPE (FlitlabExperimentDialog, flitlab_experiment_dialog, ADW_TYPE_WINDOW)

enum {
  CREATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The widgets of one parameter's row. */
typedef struct
{
  GtkWidget *row;
  GtkDropDown *key;
  GtkEntry *values;
  GtkLabel *error;
} Param;

static void update (FlitlabExperimentDialog *self);

static const char *
param_key (FlitlabExperimentDialog *self,
           Param                   *param)
{
  return gtk_string_list_get_string (self->keys, gtk_drop_down_get_selected (param->key));
}

/* The base ------------------------------------------------------------------------ */

static gboolean
is_varied (FlitlabExperimentDialog *self,
           const char              *key)
{
  for (guint i = 0; i < self->rows->len; i++)
    if (g_strcmp0 (param_key (self, g_ptr_array_index (self->rows, i)), key) == 0)
      return TRUE;
  return FALSE;
}

/* Sets the document's routing, its options and every setting changed from
 * the defaults in d's base, leaving out the keys varied (and, when the
 * routing varies, its options: another routing may not take them). */
static int
set_base (FlitlabExperimentDialog *self,
          FlExpDesign             *d,
          FlError                 *err)
{
  const FlSimSettings *settings = flitlab_document_get_sim_settings (self->document);
  const FlitlabRoutingRequest *request = flitlab_document_get_request (self->document);
  FlSimSettings defaults;
  int rc = FL_OK;

  fl_sim_settings_init (&defaults);
  for (int i = 0; rc == FL_OK && i < fl_sim_settings_key_count (); i++)
    {
      const char *key = fl_sim_settings_key (i)->name;
      char value[512], dflt[512];

      fl_sim_settings_format (settings, key, value, sizeof value);
      fl_sim_settings_format (&defaults, key, dflt, sizeof dflt);
      if (g_strcmp0 (value, dflt) != 0 && !is_varied (self, key))
        rc = fl_exp_design_set (d, key, value, err);
    }
  fl_sim_settings_clear (&defaults);
  if (rc != FL_OK || is_varied (self, "routing"))
    return rc;
  rc = fl_exp_design_set (d, "routing", request->name, err);
  for (int i = 0; rc == FL_OK && i < fl_routing_option_count (); i++)
    {
      const FlOptionInfo *info = fl_routing_option (i);
      g_autofree char *value = NULL;

      if (!flitlab_routing_takes (request->name, info->name) || is_varied (self, info->name))
        continue;
      value = flitlab_routing_request_format_option (request, info->name);
      if (value != NULL && g_strcmp0 (value, info->dflt) != 0 && g_strcmp0 (value, info->unset) != 0
          && value[0] != '\0')
        rc = fl_exp_design_set (d, info->name, value, err);
    }
  return rc;
}

/* The design as the dialog stands, NULL when it is refused; each row's
 * message set on the way, and the dialog's in self->error. */
static FlExpDesign *
build_design (FlitlabExperimentDialog *self)
{
  FlExpDesign *d = NULL;
  FlError err = { 0 };
  gboolean ok = TRUE;
  guint64 from = (guint64) gtk_spin_button_get_value (self->seed_from);
  guint64 to = (guint64) gtk_spin_button_get_value (self->seed_to);

  g_clear_pointer (&self->error, g_free);
  if (fl_exp_design_new (&d, &err) != FL_OK)
    {
      self->error = g_strdup (err.message);
      return NULL;
    }
  for (guint i = 0; i < self->rows->len; i++)
    {
      Param *param = g_ptr_array_index (self->rows, i);
      const char *values = gtk_editable_get_text (GTK_EDITABLE (param->values));
      const char *message = "";

      if (values[0] == '\0')
        message = _("Give the values: a list “a,b,c” or a range “from:to:step”");
      else if (fl_exp_design_vary (d, param_key (self, param), values, &err) != FL_OK)
        message = err.message;
      gtk_label_set_text (param->error, message);
      gtk_widget_set_visible (GTK_WIDGET (param->error), message[0] != '\0');
      if (message[0] != '\0')
        gtk_widget_add_css_class (GTK_WIDGET (param->values), "error");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (param->values), "error");
      ok = ok && message[0] == '\0';
    }
  if (!ok)
    self->error = g_strdup (_("A parameter's values are refused"));
  else if (self->rows->len == 0)
    self->error = g_strdup (_("Add a parameter to vary"));
  else if (from > to)
    self->error = g_strdup (_("The first seed comes after the last"));
  else if (set_base (self, d, &err) != FL_OK || fl_exp_design_seeds (d, from, to, &err) != FL_OK)
    self->error = g_strdup (err.message);
  if (self->error != NULL)
    g_clear_pointer (&d, fl_exp_design_free);
  return d;
}

static void
update (FlitlabExperimentDialog *self)
{
  FlExpDesign *d;
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->name_row));
  g_autofree char *count = NULL;

  /* Rows and spin buttons report values while the template is built. */
  if (self->document == NULL)
    return;
  d = build_design (self);
  self->runs = d != NULL ? fl_exp_design_count (d) : 0;
  count = g_strdup_printf ("%" G_GINT64_FORMAT, self->runs);
  gtk_label_set_text (self->runs_label, d != NULL ? count : "—");
  adw_action_row_set_subtitle (self->runs_row, self->error != NULL ? self->error : "");
  gtk_widget_set_sensitive (self->create_button, d != NULL && self->runs > 0 && name[0] != '\0');
  fl_exp_design_free (d);
}

static void
changed_cb (FlitlabExperimentDialog *self)
{
  update (self);
}

/* Parameters ----------------------------------------------------------------------- */

/* What to type for key: its choices, or the forms of values. */
static char *
values_hint (const char *key)
{
  const FlOptionInfo *info = fl_sim_settings_lookup (key);
  GString *hint;

  if (info == NULL)
    info = fl_routing_option_lookup (key);
  if (g_strcmp0 (key, "routing") == 0)
    {
      hint = g_string_new (NULL);
      for (int i = 0; i < fl_routing_count () && i < 4; i++)
        g_string_append_printf (hint, "%s%s", i > 0 ? "," : "", fl_routing_info (i)->name);
      return g_string_free (hint, FALSE);
    }
  if (info != NULL && info->type == FL_OPTION_ENUM)
    {
      hint = g_string_new (NULL);
      for (int i = 0; fl_option_choice (info, i) != NULL; i++)
        g_string_append_printf (hint, "%s%s", i > 0 ? "," : "", fl_option_choice (info, i));
      return g_string_free (hint, FALSE);
    }
  return g_strdup (_("a,b,c or from:to:step"));
}

static void
key_changed_cb (GtkDropDown             *dropdown,
                GParamSpec              *pspec,
                FlitlabExperimentDialog *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      Param *param = g_ptr_array_index (self->rows, i);

      if (param->key == dropdown)
        {
          g_autofree char *hint = values_hint (param_key (self, param));

          gtk_entry_set_placeholder_text (param->values, hint);
        }
    }
  update (self);
}

static void
remove_clicked_cb (GtkButton               *button,
                   FlitlabExperimentDialog *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      Param *param = g_ptr_array_index (self->rows, i);

      if (gtk_widget_is_ancestor (GTK_WIDGET (button), param->row))
        {
          gtk_list_box_remove (self->params_list, param->row);
          g_ptr_array_remove_index (self->rows, i);
          break;
        }
    }
  update (self);
}

static Param *
add_param (FlitlabExperimentDialog *self)
{
  Param *param = g_new0 (Param, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  GtkExpression *expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");

  param->key = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->keys)), expression));
  gtk_drop_down_set_enable_search (param->key, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (param->key), _("The setting to vary"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (param->key), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Parameter"), -1);
  param->values = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (param->values), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (param->values), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Values"), -1);
  gtk_widget_set_tooltip_text (remove, _("Remove the Parameter"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Remove the Parameter"),
                                  -1);
  gtk_widget_add_css_class (remove, "flat");
  param->error = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (param->error, 0);
  gtk_label_set_wrap (param->error, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (param->error), "error");
  gtk_widget_add_css_class (GTK_WIDGET (param->error), "caption");
  gtk_widget_set_visible (GTK_WIDGET (param->error), FALSE);

  gtk_box_append (GTK_BOX (line), GTK_WIDGET (param->key));
  gtk_box_append (GTK_BOX (line), GTK_WIDGET (param->values));
  gtk_box_append (GTK_BOX (line), remove);
  gtk_box_append (GTK_BOX (box), line);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (param->error));
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 6);
  param->row = gtk_list_box_row_new ();
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (param->row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (param->row), box);
  gtk_list_box_append (self->params_list, param->row);
  g_ptr_array_add (self->rows, param);

  g_signal_connect (param->key, "notify::selected", G_CALLBACK (key_changed_cb), self);
  g_signal_connect_swapped (param->values, "changed", G_CALLBACK (update), self);
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_clicked_cb), self);
  key_changed_cb (param->key, NULL, self);
  return param;
}

static void
add_clicked_cb (FlitlabExperimentDialog *self)
{
  Param *param = add_param (self);
  guint n_keys = g_list_model_get_n_items (G_LIST_MODEL (self->keys));

  /* A new row starts on a key not varied yet. */
  for (guint k = 0; k < n_keys; k++)
    if (!is_varied (self, gtk_string_list_get_string (self->keys, k)) || k + 1 == n_keys)
      {
        gtk_drop_down_set_selected (param->key, k);
        break;
      }
  gtk_widget_grab_focus (GTK_WIDGET (param->values));
}

gboolean
flitlab_experiment_dialog_set_parameter (FlitlabExperimentDialog *self,
                                         guint                    i,
                                         const char              *key,
                                         const char              *values)
{
  Param *param;

  g_return_val_if_fail (FLITLAB_IS_EXPERIMENT_DIALOG (self), FALSE);
  g_return_val_if_fail (i <= self->rows->len, FALSE);

  for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (self->keys)); k++)
    if (g_strcmp0 (gtk_string_list_get_string (self->keys, k), key) == 0)
      {
        param = i < self->rows->len ? g_ptr_array_index (self->rows, i) : add_param (self);
        gtk_drop_down_set_selected (param->key, k);
        gtk_editable_set_text (GTK_EDITABLE (param->values), values);
        return TRUE;
      }
  return FALSE;
}

guint
flitlab_experiment_dialog_get_n_parameters (FlitlabExperimentDialog *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENT_DIALOG (self), 0);

  return self->rows->len;
}

const char *
flitlab_experiment_dialog_get_error (FlitlabExperimentDialog *self,
                                     guint                    i)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENT_DIALOG (self), NULL);
  g_return_val_if_fail (i < self->rows->len, NULL);

  return gtk_label_get_text (((Param *) g_ptr_array_index (self->rows, i))->error);
}

void
flitlab_experiment_dialog_set_name (FlitlabExperimentDialog *self,
                                    const char              *name)
{
  g_return_if_fail (FLITLAB_IS_EXPERIMENT_DIALOG (self));

  gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);
}

void
flitlab_experiment_dialog_set_seeds (FlitlabExperimentDialog *self,
                                     guint64                  from,
                                     guint64                  to)
{
  g_return_if_fail (FLITLAB_IS_EXPERIMENT_DIALOG (self));

  gtk_spin_button_set_value (self->seed_from, (double) from);
  gtk_spin_button_set_value (self->seed_to, (double) to);
}

gint64
flitlab_experiment_dialog_get_runs (FlitlabExperimentDialog *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXPERIMENT_DIALOG (self), 0);

  return self->runs;
}

/* Creating -------------------------------------------------------------------------------- */

gboolean
flitlab_experiment_dialog_create (FlitlabExperimentDialog  *self,
                                  GError                  **error)
{
  const char *name;
  g_autofree char *topology = NULL;
  FlExpDesign *d;
  char *network = NULL, *text = NULL;
  FlError err = { 0 };
  int rc;

  g_return_val_if_fail (FLITLAB_IS_EXPERIMENT_DIALOG (self), FALSE);

  d = build_design (self);
  if (d == NULL)
    {
      g_set_error_literal (error, FLITLAB_ENGINE_ERROR, FL_EINVAL, self->error);
      return FALSE;
    }
  name = gtk_editable_get_text (GTK_EDITABLE (self->name_row));
  /* The network is stored whole: the experiment runs on it as it is now,
   * whatever later edits; its name says where it came from. */
  topology = g_strdup_printf ("#%s", flitlab_document_get_name (self->document));
  network = fl_io_write_json_string (flitlab_document_get_topology (self->document), &err);
  rc = network == NULL ? err.code : fl_exp_design_format (d, &text, &err);
  /* Every run set up as running it would, so that a design that cannot
   * run (a routing the network does not take, a setting the simulation
   * refuses) is refused here, not found out run by run. */
  if (rc == FL_OK)
    rc = fl_experiment_check_design (name, network, text, &err);
  if (rc == FL_OK)
    rc = fl_project_create_experiment (self->project, name, topology, network, text, fl_exp_design_count (d), &err);
  free (network);
  free (text);
  fl_exp_design_free (d);
  if (rc != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  g_signal_emit (self, signals[CREATED], 0, name);
  gtk_window_close (GTK_WINDOW (self));
  return TRUE;
}

static void
create_clicked_cb (FlitlabExperimentDialog *self)
{
  g_autoptr(GError) error = NULL;

  if (!flitlab_experiment_dialog_create (self, &error))
    flitlab_alert (GTK_WINDOW (self), _("Could Not Create the Experiment"), error->message);
}

/* The base shown ------------------------------------------------------------------------- */

static void
show_base (FlitlabExperimentDialog *self)
{
  const FlTopology *t = flitlab_document_get_topology (self->document);
  const FlSimSettings *settings = flitlab_document_get_sim_settings (self->document);
  const FlitlabRoutingRequest *request = flitlab_document_get_request (self->document);
  FlSimSettings defaults;
  g_autofree char *network = NULL;
  g_autoptr(GString) changed = g_string_new (NULL);
  int n_changed = 0;

  network = g_strdup_printf (ngettext ("%s · %d switch", "%s · %d switches", (gulong) fl_topology_switch_count (t)),
                             flitlab_document_get_name (self->document), fl_topology_switch_count (t));
  adw_action_row_set_subtitle (self->network_row, network);
  adw_action_row_set_subtitle (self->routing_row, request->name);

  fl_sim_settings_init (&defaults);
  for (int i = 0; i < fl_sim_settings_key_count (); i++)
    {
      const FlOptionInfo *info = fl_sim_settings_key (i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *label;
      char value[512], dflt[512];

      fl_sim_settings_format (settings, info->name, value, sizeof value);
      fl_sim_settings_format (&defaults, info->name, dflt, sizeof dflt);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), fl_gettext (info->label));
      label = gtk_label_new (value[0] != '\0' ? value : "—");
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
      gtk_widget_add_css_class (label, g_strcmp0 (value, dflt) != 0 ? "accent" : "dim-label");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
      adw_expander_row_add_row (self->settings_row, row);
      if (g_strcmp0 (value, dflt) != 0)
        g_string_append_printf (changed, "%s%s=%s", n_changed++ > 0 ? ", " : "", info->name, value);
    }
  fl_sim_settings_clear (&defaults);
  adw_expander_row_set_subtitle (self->settings_row, n_changed > 0 ? changed->str : _("the defaults"));
}

/* Object life ----------------------------------------------------------------------------- */

FlitlabExperimentDialog *
flitlab_experiment_dialog_new (GtkWindow       *parent,
                               FlProject       *project,
                               FlitlabDocument *document)
{
  FlitlabExperimentDialog *self;
  FlProjectExperiment *items = NULL;
  int n = 0;
  g_autofree char *name = NULL;

  g_return_val_if_fail (project != NULL && FLITLAB_IS_DOCUMENT (document), NULL);

  self = g_object_new (FLITLAB_TYPE_EXPERIMENT_DIALOG, "transient-for", parent, NULL);
  self->project = project;
  self->document = g_object_ref (document);
  show_base (self);

  /* "Experiment N", the first N not taken. */
  fl_project_list_experiments (project, &items, &n, NULL);
  for (int i = 1; name == NULL; i++)
    {
      gboolean taken = FALSE;

      name = g_strdup_printf (_("Experiment %d"), i);
      for (int j = 0; j < n && !taken; j++)
        taken = g_strcmp0 (items[j].name, name) == 0;
      if (taken)
        g_clear_pointer (&name, g_free);
    }
  fl_project_experiments_free (items, n);
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);
  flitlab_experiment_dialog_set_parameter (self, 0, "rate", "0.05:0.25:0.05");
  update (self);
  return self;
}

static void
flitlab_experiment_dialog_dispose (GObject *object)
{
  FlitlabExperimentDialog *self = FLITLAB_EXPERIMENT_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_EXPERIMENT_DIALOG);
  g_clear_object (&self->document);
  g_clear_object (&self->keys);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->error, g_free);
  G_OBJECT_CLASS (flitlab_experiment_dialog_parent_class)->dispose (object);
}

static void
flitlab_experiment_dialog_class_init (FlitlabExperimentDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_experiment_dialog_dispose;

  signals[CREATED] = g_signal_new ("created", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                   NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-experiment-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentDialog, create_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentDialog, params_list);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentDialog, seed_from);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentDialog, seed_to);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentDialog, runs_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentDialog, runs_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentDialog, network_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentDialog, routing_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExperimentDialog, settings_row);
  gtk_widget_class_bind_template_callback (widget_class, changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, create_clicked_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
flitlab_experiment_dialog_init (FlitlabExperimentDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->rows = g_ptr_array_new_with_free_func (g_free);
  self->keys = gtk_string_list_new (NULL);
  for (int i = 0; i < fl_sim_settings_key_count (); i++)
    if (g_strcmp0 (fl_sim_settings_key (i)->name, "seed") != 0)
      gtk_string_list_append (self->keys, fl_sim_settings_key (i)->name);
  gtk_string_list_append (self->keys, "routing");
  for (int i = 0; i < fl_routing_option_count (); i++)
    gtk_string_list_append (self->keys, fl_routing_option (i)->name);
}
