/* flitlab-sim-settings.c — the simulation settings page.
 *
 * Iterates the engine's table of keys: each key's group becomes an
 * AdwPreferencesGroup (in the order groups first appear) and each key a row
 * bound to the page's FlSimSettings. One setting can change another (a
 * pipeline preset sets the link latency, bursts select on/off injection),
 * so every row is shown again after each change. Rows the chosen model does
 * not read are hidden. */
#include "flitlab-option-rows.h"
#include "flitlab-sim-settings.h"

struct _FlitlabSimSettings
{
  AdwPreferencesPage parent_instance;

  FlSimSettings settings;
  GPtrArray *rows;             /* GtkWidget *, one per key, in the table's order */
};

G_DEFINE_FINAL_TYPE (FlitlabSimSettings, flitlab_sim_settings, ADW_TYPE_PREFERENCES_PAGE)

static FlSimSettings *
fl_sim_settings_boxed_copy (const FlSimSettings *settings)
{
  FlSimSettings *copy = g_new0 (FlSimSettings, 1);

  if (fl_sim_settings_copy (copy, settings, NULL) != FL_OK)
    g_error ("out of memory copying the simulation settings");
  return copy;
}

static void
fl_sim_settings_boxed_free (FlSimSettings *settings)
{
  fl_sim_settings_clear (settings);
  g_free (settings);
}

G_DEFINE_BOXED_TYPE (FlSimSettings, flitlab_fl_sim_settings, fl_sim_settings_boxed_copy,
                     fl_sim_settings_boxed_free)

enum {
  PROP_0,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static unsigned
model_flag (const FlSimSettings *settings)
{
  return fl_sim_model_option (settings->model);
}

static void
refresh_rows (FlitlabSimSettings *self,
              GtkWidget          *except)
{
  unsigned model = model_flag (&self->settings);

  for (guint i = 0; i < self->rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->rows, i);

      /* The row just edited keeps what it shows, and its error. */
      if (row != except)
        flitlab_option_row_refresh (row);
      gtk_widget_set_visible (row, (flitlab_option_row_get_info (row)->models & model) != 0);
    }
}

static void
row_changed_cb (GtkWidget *row,
                gpointer   user_data)
{
  FlitlabSimSettings *self = user_data;
  const char *key = flitlab_option_row_get_info (row)->name;

  refresh_rows (self, row);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTINGS]);
  g_signal_emit (self, signals[CHANGED], g_quark_from_string (key), key);
}

static void
build_rows (FlitlabSimSettings *self)
{
  g_autoptr(GHashTable) groups = g_hash_table_new (g_str_hash, g_str_equal);

  for (int i = 0; i < fl_sim_settings_key_count (); i++)
    {
      const FlOptionInfo *info = fl_sim_settings_key (i);
      AdwPreferencesGroup *group = g_hash_table_lookup (groups, info->group);
      GtkWidget *row;

      if (group == NULL)
        {
          group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
          adw_preferences_group_set_title (group, fl_gettext (info->group));
          adw_preferences_page_add (ADW_PREFERENCES_PAGE (self), group);
          g_hash_table_insert (groups, (gpointer) info->group, group);
        }
      row = flitlab_option_row_new_for_settings (info, &self->settings, row_changed_cb, self);
      adw_preferences_group_add (group, row);
      g_ptr_array_add (self->rows, row);
    }
  refresh_rows (self, NULL);
}

static void
flitlab_sim_settings_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  FlitlabSimSettings *self = FLITLAB_SIM_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_boxed (value, &self->settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_sim_settings_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  FlitlabSimSettings *self = FLITLAB_SIM_SETTINGS (object);
  const FlSimSettings *settings;

  switch (prop_id)
    {
    case PROP_SETTINGS:
      settings = g_value_get_boxed (value);
      if (settings != NULL)
        flitlab_sim_settings_set_settings (self, settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_sim_settings_dispose (GObject *object)
{
  FlitlabSimSettings *self = FLITLAB_SIM_SETTINGS (object);

  /* The rows point at self->settings: they go with the page's children. */
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (flitlab_sim_settings_parent_class)->dispose (object);
}

static void
flitlab_sim_settings_finalize (GObject *object)
{
  FlitlabSimSettings *self = FLITLAB_SIM_SETTINGS (object);

  fl_sim_settings_clear (&self->settings);
  G_OBJECT_CLASS (flitlab_sim_settings_parent_class)->finalize (object);
}

static void
flitlab_sim_settings_class_init (FlitlabSimSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = flitlab_sim_settings_get_property;
  object_class->set_property = flitlab_sim_settings_set_property;
  object_class->dispose = flitlab_sim_settings_dispose;
  object_class->finalize = flitlab_sim_settings_finalize;

  properties[PROP_SETTINGS] =
    g_param_spec_boxed ("settings", NULL, NULL, FLITLAB_TYPE_FL_SIM_SETTINGS,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Emitted after a row changed the settings, with the key as detail and
   * argument. */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass),
                                   G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
flitlab_sim_settings_init (FlitlabSimSettings *self)
{
  fl_sim_settings_init (&self->settings);
  self->rows = g_ptr_array_new ();
  build_rows (self);
}

GtkWidget *
flitlab_sim_settings_new (void)
{
  return g_object_new (FLITLAB_TYPE_SIM_SETTINGS, NULL);
}

const FlSimSettings *
flitlab_sim_settings_get_settings (FlitlabSimSettings *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SETTINGS (self), NULL);

  return &self->settings;
}

const FlSimConfig *
flitlab_sim_settings_get_config (FlitlabSimSettings *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SETTINGS (self), NULL);

  return &self->settings.config;
}

void
flitlab_sim_settings_set_settings (FlitlabSimSettings  *self,
                                   const FlSimSettings *settings)
{
  FlSimSettings copy;

  g_return_if_fail (FLITLAB_IS_SIM_SETTINGS (self));
  g_return_if_fail (settings != NULL);

  if (settings == &self->settings)
    return;
  if (fl_sim_settings_copy (&copy, settings, NULL) != FL_OK)
    g_error ("out of memory copying the simulation settings");
  fl_sim_settings_clear (&self->settings);
  self->settings = copy;
  /* The hotspot list is on the heap: the config still points at it. */
  refresh_rows (self, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTINGS]);
}

GtkWidget *
flitlab_sim_settings_get_row (FlitlabSimSettings *self,
                              const char         *key)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SETTINGS (self), NULL);

  for (guint i = 0; self->rows != NULL && i < self->rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->rows, i);

      if (g_strcmp0 (flitlab_option_row_get_info (row)->name, key) == 0)
        return row;
    }
  return NULL;
}

guint
flitlab_sim_settings_get_n_rows (FlitlabSimSettings *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_SETTINGS (self), 0);

  return self->rows != NULL ? self->rows->len : 0;
}
