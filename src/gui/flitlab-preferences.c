/* flitlab-preferences.c — the preferences, their effects and their
 * window.
 *
 * Choices are stored by name (GSettings enums and choices) and shown as
 * the position of a combo row: the tables of names below give both, in
 * the order the rows list them. */
#include <glib/gi18n.h>

#include "flitlab-application.h"
#include "flitlab-preferences.h"

struct _FlitlabPreferences
{
  AdwPreferencesWindow parent_instance;

  /* Template children. */
  AdwComboRow *style_row;
  AdwComboRow *colors_row;
  AdwComboRow *palette_row;
  AdwComboRow *speed_row;
  GtkSpinButton *vcs_spin;
  GtkSpinButton *buffer_spin;
  GtkSpinButton *packet_spin;
  GtkSpinButton *rate_spin;
  AdwComboRow *switching_row;
  GtkSpinButton *warmup_spin;
  GtkSpinButton *measure_spin;
};

G_DEFINE_FINAL_TYPE (FlitlabPreferences, flitlab_preferences, ADW_TYPE_PREFERENCES_WINDOW)

static const char * const style_names[] = { "system", "light", "dark", NULL };
static const char * const color_names[] = { "packet", "source", "destination", NULL };
static const char * const palette_names[] = { "contrast", "color-blind", NULL };
static const char * const switching_names[] = { "wormhole", "vct", NULL };

/* The engine's key of each default simulation setting, and its GSettings
 * key. */
static const struct {
  const char *engine;
  const char *settings;
} sim_keys[] = {
  { "vcs", "sim-vcs" },
  { "buf", "sim-buffer-depth" },
  { "switching", "sim-switching" },
  { "packet", "sim-packet-length" },
  { "rate", "sim-rate" },
  { "warmup", "sim-warmup" },
  { "measure", "sim-measure" },
};

GSettings *
flitlab_preferences_get_settings (void)
{
  static GSettings *settings;
  static gboolean looked;

  if (!looked)
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
      g_autoptr(GSettingsSchema) schema = source != NULL
                                            ? g_settings_schema_source_lookup (source, FLITLAB_APPLICATION_ID, TRUE)
                                            : NULL;

      looked = TRUE;
      if (schema != NULL)
        settings = g_settings_new_full (schema, NULL, NULL);
      else
        g_message ("The schema %s is not installed: preferences will not be kept",
                   FLITLAB_APPLICATION_ID);
    }
  return settings;
}

static guint
name_index (const char * const *names,
            const char         *name)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (g_strcmp0 (names[i], name) == 0)
      return i;
  return 0;
}

/* A name of names (user_data) as its position, into an unsigned or int
 * property. */
static gboolean
get_index (GValue   *value,
           GVariant *variant,
           gpointer  user_data)
{
  guint i = name_index (user_data, g_variant_get_string (variant, NULL));

  if (G_VALUE_HOLDS_UINT (value))
    g_value_set_uint (value, i);
  else
    g_value_set_int (value, (int) i);
  return TRUE;
}

static GVariant *
set_index (const GValue       *value,
           const GVariantType *type,
           gpointer            user_data)
{
  const char * const *names = user_data;
  guint i = g_value_get_uint (value);

  if (i >= g_strv_length ((char **) names))
    return NULL;
  return g_variant_new_string (names[i]);
}

static gboolean
get_color_scheme (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  static const AdwColorScheme schemes[] = {
    ADW_COLOR_SCHEME_DEFAULT, ADW_COLOR_SCHEME_FORCE_LIGHT, ADW_COLOR_SCHEME_FORCE_DARK,
  };

  g_value_set_enum (value, schemes[name_index (style_names, g_variant_get_string (variant, NULL))]);
  return TRUE;
}

void
flitlab_preferences_bind_style (void)
{
  GSettings *settings = flitlab_preferences_get_settings ();

  if (settings != NULL)
    g_settings_bind_with_mapping (settings, "color-scheme", adw_style_manager_get_default (), "color-scheme",
                                  G_SETTINGS_BIND_GET, get_color_scheme, NULL, NULL, NULL);
}

static void
palette_changed (GSettings     *settings,
                 const char    *key,
                 FlitlabCanvas *canvas)
{
  flitlab_canvas_set_flit_palette (canvas, name_index (palette_names, g_settings_get_string (settings, key)));
}

void
flitlab_preferences_bind_view (FlitlabTransportBar *bar,
                               FlitlabCanvas       *canvas)
{
  GSettings *settings = flitlab_preferences_get_settings ();

  if (settings == NULL)
    return;
  g_settings_bind (settings, "playback-speed", bar, "speed", G_SETTINGS_BIND_GET);
  g_settings_bind_with_mapping (settings, "packet-colors", bar, "flit-colour", G_SETTINGS_BIND_GET, get_index,
                                NULL, (gpointer) color_names, NULL);
  g_signal_connect_object (settings, "changed::packet-palette", G_CALLBACK (palette_changed), canvas, 0);
  palette_changed (settings, "packet-palette", canvas);
}

void
flitlab_preferences_apply_sim_defaults (FlitlabDocument *document)
{
  GSettings *settings = flitlab_preferences_get_settings ();
  FlSimSettings sim;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (document));

  if (settings == NULL)
    return;
  if (fl_sim_settings_copy (&sim, flitlab_document_get_sim_settings (document), NULL) != FL_OK)
    g_error ("out of memory copying the simulation settings");
  /* Through the engine's parser, as the Simulate tab's rows: a value it
   * refuses keeps what the document had. */
  for (guint i = 0; i < G_N_ELEMENTS (sim_keys); i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (settings, sim_keys[i].settings);
      g_autofree char *text = NULL;

      if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
        text = g_variant_dup_string (value, NULL);
      else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          text = g_strdup (g_ascii_dtostr (buf, sizeof buf, g_variant_get_double (value)));
        }
      else
        text = g_variant_print (value, FALSE);
      fl_sim_settings_set (&sim, sim_keys[i].engine, text, NULL);
    }
  flitlab_document_set_sim_settings (document, &sim);
  fl_sim_settings_clear (&sim);
}

/* The window ------------------------------------------------------------------ */

static gboolean
get_speed (GValue   *value,
           GVariant *variant,
           gpointer  user_data)
{
  g_autoptr(GListModel) names = flitlab_transport_bar_speed_names ();
  double want = g_variant_get_double (variant);
  guint best = 0;

  for (guint i = 0; i < g_list_model_get_n_items (names); i++)
    if (flitlab_transport_bar_speed_at (i) == want)
      best = i;
  g_value_set_uint (value, best);
  return TRUE;
}

static GVariant *
set_speed (const GValue       *value,
           const GVariantType *type,
           gpointer            user_data)
{
  return g_variant_new_double (flitlab_transport_bar_speed_at (g_value_get_uint (value)));
}

static void
bind_choice (GSettings          *settings,
             const char         *key,
             AdwComboRow        *row,
             const char * const *names)
{
  g_settings_bind_with_mapping (settings, key, row, "selected", G_SETTINGS_BIND_DEFAULT, get_index, set_index,
                                (gpointer) names, NULL);
}

static void
bind_number (GSettings     *settings,
             const char    *key,
             GtkSpinButton *spin)
{
  g_settings_bind (settings, key, gtk_spin_button_get_adjustment (spin), "value", G_SETTINGS_BIND_DEFAULT);
}

FlitlabPreferences *
flitlab_preferences_new (GtkWindow *parent)
{
  return g_object_new (FLITLAB_TYPE_PREFERENCES, "transient-for", parent, NULL);
}

static void
flitlab_preferences_class_init (FlitlabPreferencesClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, style_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, colors_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, palette_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, speed_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, vcs_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, buffer_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, packet_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, rate_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, switching_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, warmup_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabPreferences, measure_spin);
}

static void
flitlab_preferences_init (FlitlabPreferences *self)
{
  GSettings *settings = flitlab_preferences_get_settings ();
  g_autoptr(GListModel) speeds = flitlab_transport_bar_speed_names ();

  gtk_widget_init_template (GTK_WIDGET (self));
  adw_combo_row_set_model (self->speed_row, speeds);
  if (settings == NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self), FALSE);
      return;
    }
  bind_choice (settings, "color-scheme", self->style_row, style_names);
  bind_choice (settings, "packet-colors", self->colors_row, color_names);
  bind_choice (settings, "packet-palette", self->palette_row, palette_names);
  g_settings_bind_with_mapping (settings, "playback-speed", self->speed_row, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_speed, set_speed, NULL, NULL);
  bind_number (settings, "sim-vcs", self->vcs_spin);
  bind_number (settings, "sim-buffer-depth", self->buffer_spin);
  bind_number (settings, "sim-packet-length", self->packet_spin);
  bind_number (settings, "sim-rate", self->rate_spin);
  bind_choice (settings, "sim-switching", self->switching_row, switching_names);
  bind_number (settings, "sim-warmup", self->warmup_spin);
  bind_number (settings, "sim-measure", self->measure_spin);
}
