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
  GtkStringList        *choices;    /* combo rows: the unset word, then the choices offered */
  GPtrArray            *values;     /* combo rows: the engine's spelling of each of those */
  FlitlabOptionChoiceFilter filter;
  gpointer              filter_data;
  FlitlabOptionNumberMap to_shown;
  FlitlabOptionNumberMap from_shown;
  gpointer              map_data;
  char                 *unset_label;
  char                 *subtitle;
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

  g_clear_pointer (&self->values, g_ptr_array_unref);
  g_free (self->unset_label);
  g_free (self->subtitle);
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
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->row),
                                   self->subtitle != NULL ? self->subtitle : fl_gettext (self->info->help));
      gtk_widget_set_tooltip_text (self->row, self->subtitle != NULL ? fl_gettext (self->info->help) : NULL);
    }
  else
    gtk_widget_set_tooltip_text (self->row, fl_gettext (self->info->help));
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

static const char *
unset_word (OptionRow *self)
{
  return self->unset_label != NULL ? self->unset_label : self->info->unset;
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

/* Writes text into the spin button's own: GtkSpinButton's set_text reads
 * text as a number, and a word as none. */
static void
spin_show_text (GtkSpinButton *spin,
                const char    *shown)
{
  GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (spin));

  if (text != NULL && g_strcmp0 (gtk_editable_get_text (text), shown) != 0)
    gtk_editable_set_text (text, shown);
}

/* The unset value reads as its word ("auto"), and a mapped number as the
 * number shown. */
static gboolean
spin_output_cb (GtkSpinButton *spin,
                OptionRow     *self)
{
  double value = gtk_spin_button_get_value (spin);
  char shown[32];

  if (self->info->unset != NULL && value < (double) self->info->min_int)
    {
      spin_show_text (spin, unset_word (self));
      return TRUE;
    }
  if (self->to_shown == NULL)
    return FALSE;
  g_snprintf (shown, sizeof shown, "%" G_GINT64_FORMAT,
              self->to_shown ((gint64) value, self->map_data));
  spin_show_text (spin, shown);
  return TRUE;
}

static int
spin_input_cb (GtkSpinButton *spin,
               double        *new_value,
               OptionRow     *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  gint64 number;
  char *end = NULL;

  /* An emptied field, as the unset word, stands for the unset value. */
  if (self->info->unset != NULL
      && (text[0] == '\0' || g_strcmp0 (text, self->info->unset) == 0
          || g_strcmp0 (text, unset_word (self)) == 0))
    {
      *new_value = unset_value (self->info);
      return TRUE;
    }
  if (self->from_shown == NULL)
    return FALSE;
  number = g_ascii_strtoll (text, &end, 10);
  if (end == text || *end != '\0')
    return GTK_INPUT_ERROR;
  *new_value = (double) self->from_shown (number, self->map_data);
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
  /* A number with four decimals needs more room than its range's widest
   * value measures in a proportional font ("1.0000" against "0.9000"). */
  if (!whole)
    gtk_editable_set_width_chars (GTK_EDITABLE (spin), 7);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  if (whole)
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
  /* A value equal to the spin button's own emits no ::output: the text is
   * written here as well. */
  if (is_whole (self->info))
    spin_output_cb (GTK_SPIN_BUTTON (self->editor), self);
}

/* ---- choices, flags and text --------------------------------------------- */

static void
combo_selected_cb (AdwComboRow *row,
                   GParamSpec  *pspec,
                   OptionRow   *self)
{
  guint selected = adw_combo_row_get_selected (row);

  if (selected != GTK_INVALID_LIST_POSITION && selected < self->values->len)
    apply_text (self, g_ptr_array_index (self->values, selected));
}

static void
combo_show (OptionRow  *self,
            const char *text)
{
  for (guint i = 0; i < self->values->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->values, i), text) == 0)
      {
        adw_combo_row_set_selected (ADW_COMBO_ROW (self->row), i);
        return;
      }
}

/* Lists the unset word and the choices the filter accepts. */
static void
combo_fill (OptionRow *self)
{
  const FlOptionInfo *info = self->info;
  g_autoptr(GPtrArray) shown = g_ptr_array_new ();

  g_ptr_array_set_size (self->values, 0);
  if (info->unset != NULL)
    {
      g_ptr_array_add (self->values, (gpointer) info->unset);
      g_ptr_array_add (shown, (gpointer) unset_word (self));
    }
  for (int i = 0; fl_option_choice (info, i) != NULL; i++)
    if (self->filter == NULL || self->filter (fl_option_choice (info, i), self->filter_data))
      {
        g_ptr_array_add (self->values, (gpointer) fl_option_choice (info, i));
        g_ptr_array_add (shown, (gpointer) fl_option_choice (info, i));
      }
  g_ptr_array_add (shown, NULL);
  gtk_string_list_splice (self->choices, 0, g_list_model_get_n_items (G_LIST_MODEL (self->choices)),
                          (const char *const *) shown->pdata);
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
      /* The engine's spellings, which outlive the row. */
      self->values = g_ptr_array_new ();
      combo_fill (self);
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

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->row), fl_gettext (info->label));
  /* A screen reader names the editor beside the row's title by it. */
  if (self->editor != self->row)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->editor), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    fl_gettext (info->label), -1);
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

/* ---- what a front end adds ----------------------------------------------- */

void
flitlab_option_row_set_number_map (GtkWidget              *row,
                                   FlitlabOptionNumberMap  to_shown,
                                   FlitlabOptionNumberMap  from_shown,
                                   gpointer                user_data)
{
  OptionRow *self = option_row_get (row);

  g_return_if_fail (self != NULL && is_whole (self->info));

  self->to_shown = to_shown;
  self->from_shown = from_shown;
  self->map_data = user_data;
  flitlab_option_row_refresh (row);
}

void
flitlab_option_row_set_range (GtkWidget *row,
                              gint64     lower,
                              gint64     upper)
{
  OptionRow *self = option_row_get (row);
  GtkAdjustment *adjustment;

  g_return_if_fail (self != NULL && is_whole (self->info));

  adjustment = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (self->editor));
  lower = MAX (lower, self->info->min_int);
  upper = MAX (MIN (upper, self->info->max_int), lower);
  if (self->info->unset != NULL)
    lower = (gint64) unset_value (self->info);
  if (gtk_adjustment_get_lower (adjustment) == (double) lower
      && gtk_adjustment_get_upper (adjustment) == (double) upper)
    return;
  self->updating = TRUE;
  gtk_adjustment_set_lower (adjustment, (double) lower);
  gtk_adjustment_set_upper (adjustment, (double) upper);
  self->updating = FALSE;
  flitlab_option_row_refresh (row);
}

void
flitlab_option_row_set_unset_label (GtkWidget  *row,
                                    const char *label)
{
  OptionRow *self = option_row_get (row);

  g_return_if_fail (self != NULL);

  g_free (self->unset_label);
  self->unset_label = g_strdup (label);
  if (self->info->type == FL_OPTION_ENUM)
    {
      self->updating = TRUE;
      combo_fill (self);
      self->updating = FALSE;
    }
  else if (is_whole (self->info) && label != NULL)
    gtk_editable_set_width_chars (GTK_EDITABLE (self->editor),
                                  MAX (gtk_editable_get_width_chars (GTK_EDITABLE (self->editor)),
                                       (int) g_utf8_strlen (label, -1)));
  flitlab_option_row_refresh (row);
}

void
flitlab_option_row_set_choice_filter (GtkWidget                 *row,
                                      FlitlabOptionChoiceFilter  filter,
                                      gpointer                   user_data)
{
  OptionRow *self = option_row_get (row);

  g_return_if_fail (self != NULL && self->info->type == FL_OPTION_ENUM);

  self->filter = filter;
  self->filter_data = user_data;
  self->updating = TRUE;
  combo_fill (self);
  self->updating = FALSE;
  flitlab_option_row_refresh (row);
}

void
flitlab_option_row_set_subtitle (GtkWidget  *row,
                                 const char *subtitle)
{
  OptionRow *self = option_row_get (row);

  g_return_if_fail (self != NULL);

  if (g_strcmp0 (self->subtitle, subtitle) == 0)
    return;
  g_free (self->subtitle);
  self->subtitle = g_strdup (subtitle);
  if (self->error == NULL)
    show_help (self);
}
