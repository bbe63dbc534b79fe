/* flitlab-option-rows.c — one settings row per engine option descriptor.
 *
 * A row keeps the option's text form as its only contract with the model:
 * it reads the bound value with the engine's format function and writes
 * what the user chose with its set function, so every check and every
 * message is the engine's. The row's state hangs off the row as object
 * data and dies with it. */
#include "flitlab-option-rows.h"

/* The engine's text accessors for one kind of bound value. */
typedef int (*FormatFunc) (gconstpointer  target,
                           const char    *key,
                           char          *buf,
                           size_t         len);
typedef int (*SetFunc)    (gpointer       target,
                           const char    *key,
                           const char    *text,
                           FlError       *err);

typedef struct
{
  const FlOptionInfo   *info;
  gpointer              target;
  FormatFunc            format;
  SetFunc               set;
  FlitlabOptionChanged  changed;
  gpointer              changed_data;
  GtkWidget            *row;
  GtkWidget            *editor;
  GtkStringList        *choices;    /* combo rows: the unset word, then the choices */
  char                 *error;
  /* Set while the row shows the bound value, so that it is not written
   * back. */
  gboolean              updating;
} OptionRow;

#define OPTION_ROW_KEY "flitlab-option-row"

/* Spin buttons hold doubles: whole numbers beyond 2^53 cannot be typed. */
#define MAX_SPIN_VALUE 9007199254740992.0

static void
option_row_free (gpointer data)
{
  OptionRow *self = data;

  g_free (self->error);
  g_free (self);
}

static OptionRow *
option_row_get (GtkWidget *row)
{
  return row != NULL ? g_object_get_data (G_OBJECT (row), OPTION_ROW_KEY) : NULL;
}

static char *
format_value (OptionRow *self)
{
  char buf[1024];

  if (self->format (self->target, self->info->name, buf, sizeof buf) < 0)
    return g_strdup ("");
  return g_strdup (buf);
}

static void
show_help (OptionRow *self)
{
  gtk_widget_remove_css_class (self->row, "error");
  if (ADW_IS_ACTION_ROW (self->row))
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->row), self->info->help);
      gtk_widget_set_tooltip_text (self->row, NULL);
    }
  else
    gtk_widget_set_tooltip_text (self->row, self->info->help);
}

static void
show_error (OptionRow  *self,
            const char *message)
{
  gtk_widget_add_css_class (self->row, "error");
  gtk_widget_set_tooltip_text (self->row, message);
  if (ADW_IS_ACTION_ROW (self->row))
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self->row), message);
}

/* Hands text to the engine, as the user's choice. */
static void
apply_text (OptionRow  *self,
            const char *text)
{
  FlError err = { 0 };

  if (self->updating)
    return;
  g_clear_pointer (&self->error, g_free);
  if (self->set (self->target, self->info->name, text, &err) != FL_OK)
    {
      self->error = g_strdup (err.message[0] != '\0' ? err.message : fl_strerror (err.code));
      show_error (self, self->error);
      return;
    }
  show_help (self);
  if (self->changed != NULL)
    self->changed (self->row, self->changed_data);
}

/* ---- numbers ------------------------------------------------------------- */

static gboolean
is_whole (const FlOptionInfo *info)
{
  return info->type == FL_OPTION_INT || info->type == FL_OPTION_INT64;
}

/* The spin value that stands for the unset word: one below the range. */
static double
unset_value (const FlOptionInfo *info)
{
  return (double) info->min_int - 1;
}

static void
spin_value_changed_cb (GtkSpinButton *spin,
                       OptionRow     *self)
{
  double value = gtk_spin_button_get_value (spin);
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (self->info->unset != NULL && is_whole (self->info) && value < (double) self->info->min_int)
    g_strlcpy (text, self->info->unset, sizeof text);
  else if (is_whole (self->info))
    g_snprintf (text, sizeof text, "%.0f", value);
  else
    g_ascii_formatd (text, sizeof text, "%.10g", value);
  apply_text (self, text);
}

/* Writes the unset word into the spin button's text: GtkSpinButton's own
 * set_text reads text as a number, and a word as none. */
static void
spin_show_unset (GtkSpinButton *spin,
                 OptionRow     *self)
{
  GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (spin));

  if (text != NULL && g_strcmp0 (gtk_editable_get_text (text), self->info->unset) != 0)
    gtk_editable_set_text (text, self->info->unset);
}

/* The unset value reads as its word ("auto"). */
static gboolean
spin_output_cb (GtkSpinButton *spin,
                OptionRow     *self)
{
  if (gtk_spin_button_get_value (spin) >= (double) self->info->min_int)
    return FALSE;
  spin_show_unset (spin, self);
  return TRUE;
}

static int
spin_input_cb (GtkSpinButton *spin,
               double        *new_value,
               OptionRow     *self)
{
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), self->info->unset) != 0)
    return FALSE;
  *new_value = unset_value (self->info);
  return TRUE;
}

static GtkWidget *
number_editor (OptionRow *self)
{
  const FlOptionInfo *info = self->info;
  gboolean whole = is_whole (info);
  double lower = whole ? (double) info->min_int : info->min;
  double upper = whole ? MIN ((double) info->max_int, MAX_SPIN_VALUE) : info->max;
  double step = whole ? 1 : (upper - lower) / 100;
  GtkWidget *spin;

  if (whole && info->unset != NULL)
    lower = unset_value (info);
  spin = gtk_spin_button_new_with_range (lower, upper, step > 0 ? step : 1);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), whole ? 0 : 4);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  if (whole && info->unset != NULL)
    {
      g_signal_connect (spin, "output", G_CALLBACK (spin_output_cb), self);
      g_signal_connect (spin, "input", G_CALLBACK (spin_input_cb), self);
    }
  g_signal_connect (spin, "value-changed", G_CALLBACK (spin_value_changed_cb), self);
  return spin;
}

static void
number_show (OptionRow  *self,
             const char *text)
{
  double value;

  if (self->info->unset != NULL && g_strcmp0 (text, self->info->unset) == 0)
    value = unset_value (self->info);
  else
    value = g_ascii_strtod (text, NULL);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->editor), value);
  /* A value equal to the spin button's own emits no ::output: the word is
   * written here as well. */
  if (value < (double) self->info->min_int && self->info->unset != NULL)
    spin_show_unset (GTK_SPIN_BUTTON (self->editor), self);
}

/* ---- choices, flags and text --------------------------------------------- */

static void
combo_selected_cb (AdwComboRow *row,
                   GParamSpec  *pspec,
                   OptionRow   *self)
{
  guint selected = adw_combo_row_get_selected (row);

  if (selected != GTK_INVALID_LIST_POSITION)
    apply_text (self, gtk_string_list_get_string (self->choices, selected));
}

static void
combo_show (OptionRow  *self,
            const char *text)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->choices));

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->choices, i), text) == 0)
      {
        adw_combo_row_set_selected (ADW_COMBO_ROW (self->row), i);
        return;
      }
}

static void
switch_active_cb (GtkSwitch  *widget,
                  GParamSpec *pspec,
                  OptionRow  *self)
{
  apply_text (self, gtk_switch_get_active (widget) ? "true" : "false");
}

static void
entry_apply_cb (AdwEntryRow *row,
                OptionRow   *self)
{
  apply_text (self, gtk_editable_get_text (GTK_EDITABLE (row)));
}

/* ---- building ------------------------------------------------------------- */

static GtkWidget *
build_row (OptionRow *self)
{
  const FlOptionInfo *info = self->info;

  switch (info->type)
    {
    case FL_OPTION_INT:
    case FL_OPTION_INT64:
    case FL_OPTION_DOUBLE:
      self->row = adw_action_row_new ();
      self->editor = number_editor (self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (self->row), self->editor);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (self->row), self->editor);
      break;

    case FL_OPTION_FLAG:
      self->row = adw_action_row_new ();
      self->editor = gtk_switch_new ();
      gtk_widget_set_valign (self->editor, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (ADW_ACTION_ROW (self->row), self->editor);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (self->row), self->editor);
      g_signal_connect (self->editor, "notify::active", G_CALLBACK (switch_active_cb), self);
      break;

    case FL_OPTION_ENUM:
      self->row = adw_combo_row_new ();
      self->editor = self->row;
      self->choices = gtk_string_list_new (NULL);
      if (info->unset != NULL)
        gtk_string_list_append (self->choices, info->unset);
      for (int i = 0; fl_option_choice (info, i) != NULL; i++)
        gtk_string_list_append (self->choices, fl_option_choice (info, i));
      adw_combo_row_set_model (ADW_COMBO_ROW (self->row), G_LIST_MODEL (self->choices));
      /* The row holds the model now. */
      g_object_unref (self->choices);
      g_signal_connect (self->row, "notify::selected", G_CALLBACK (combo_selected_cb), self);
      break;

    case FL_OPTION_STRING:
    case FL_OPTION_COMPOSITE:
    default:
      self->row = adw_entry_row_new ();
      self->editor = self->row;
      adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (self->row), TRUE);
      g_signal_connect (self->row, "apply", G_CALLBACK (entry_apply_cb), self);
      g_signal_connect (self->row, "entry-activated", G_CALLBACK (entry_apply_cb), self);
      break;
    }

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->row), info->label);
  if (ADW_IS_ACTION_ROW (self->row))
    adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (self->row), 0);
  gtk_widget_set_name (self->row, info->name);
  g_object_set_data_full (G_OBJECT (self->row), OPTION_ROW_KEY, self, option_row_free);
  show_help (self);
  flitlab_option_row_refresh (self->row);
  return self->row;
}

static int
settings_format (gconstpointer  target,
                 const char    *key,
                 char          *buf,
                 size_t         len)
{
  return fl_sim_settings_format (target, key, buf, len);
}

static int
settings_set (gpointer    target,
              const char *key,
              const char *text,
              FlError    *err)
{
  return fl_sim_settings_set (target, key, text, err);
}

static int
routing_format (gconstpointer  target,
                const char    *key,
                char          *buf,
                size_t         len)
{
  return fl_routing_options_format (target, key, buf, len);
}

static int
routing_set (gpointer    target,
             const char *key,
             const char *text,
             FlError    *err)
{
  return fl_routing_options_set (target, key, text, err);
}

static GtkWidget *
option_row_new (const FlOptionInfo   *info,
                gpointer              target,
                FormatFunc            format,
                SetFunc               set,
                FlitlabOptionChanged  changed,
                gpointer              user_data)
{
  OptionRow *self = g_new0 (OptionRow, 1);

  self->info = info;
  self->target = target;
  self->format = format;
  self->set = set;
  self->changed = changed;
  self->changed_data = user_data;
  return build_row (self);
}

GtkWidget *
flitlab_option_row_new_for_settings (const FlOptionInfo   *info,
                                     FlSimSettings        *settings,
                                     FlitlabOptionChanged  changed,
                                     gpointer              user_data)
{
  g_return_val_if_fail (info != NULL && settings != NULL, NULL);

  return option_row_new (info, settings, settings_format, settings_set, changed, user_data);
}

GtkWidget *
flitlab_option_row_new_for_routing (const FlOptionInfo   *info,
                                    FlRoutingOptions     *options,
                                    FlitlabOptionChanged  changed,
                                    gpointer              user_data)
{
  g_return_val_if_fail (info != NULL && options != NULL, NULL);

  return option_row_new (info, options, routing_format, routing_set, changed, user_data);
}

const FlOptionInfo *
flitlab_option_row_get_info (GtkWidget *row)
{
  OptionRow *self = option_row_get (row);

  return self != NULL ? self->info : NULL;
}

void
flitlab_option_row_refresh (GtkWidget *row)
{
  OptionRow *self = option_row_get (row);
  g_autofree char *text = NULL;

  g_return_if_fail (self != NULL);

  text = format_value (self);
  self->updating = TRUE;
  switch (self->info->type)
    {
    case FL_OPTION_INT:
    case FL_OPTION_INT64:
    case FL_OPTION_DOUBLE:
      number_show (self, text);
      break;
    case FL_OPTION_FLAG:
      gtk_switch_set_active (GTK_SWITCH (self->editor), g_strcmp0 (text, "true") == 0);
      break;
    case FL_OPTION_ENUM:
      combo_show (self, text);
      break;
    case FL_OPTION_STRING:
    case FL_OPTION_COMPOSITE:
    default:
      gtk_editable_set_text (GTK_EDITABLE (self->row), text);
      break;
    }
  self->updating = FALSE;
  g_clear_pointer (&self->error, g_free);
  show_help (self);
}

const char *
flitlab_option_row_get_error (GtkWidget *row)
{
  OptionRow *self = option_row_get (row);

  return self != NULL ? self->error : NULL;
}

GtkWidget *
flitlab_option_row_get_editor (GtkWidget *row)
{
  OptionRow *self = option_row_get (row);

  return self != NULL ? self->editor : NULL;
}
