/* flitlab-generator-panel.c — the "Generate" group of the sidebar.
 *
 * Nothing here knows a family by name: the family list, the number of sizes
 * and the keys each family takes all come from the engine's registry (the
 * syntax line of each FlFamilyInfo, e.g. "mesh:AxB[xC][,hosts=H]"), so a
 * generator added to the engine appears here without a change. The rows
 * write the spec; a spec typed by hand moves the rows when it parses.
 *
 * The rows write every key the family takes, even at its default value:
 * defaults differ between families (an irregular network has 4 hosts per
 * switch, a mesh 1) and the spec shown must say what will be built. The
 * topology is named after its canonical spec, which leaves defaults out. */
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab.h"
#include "flitlab-generator-panel.h"

/* What a family's syntax line says it takes. */
typedef struct
{
  int required_dims;
  int optional_dims;
  guint keys;             /* bit i for key_rows[i] */
} FamilyShape;

struct _FlitlabGeneratorPanel
{
  GtkWidget parent_instance;

  AdwPreferencesGroup *group;
  AdwComboRow *family_row;
  GtkStringList *families;
  GtkWidget *size_row;
  GtkSpinButton *size_spin0;
  GtkSpinButton *size_spin1;
  GtkSpinButton *size_spin2;
  GtkWidget *times_label1;
  GtkWidget *extra_dims_row;
  GtkSwitch *extra_dims_switch;
  GtkWidget *hosts_row;
  GtkSpinButton *hosts_spin;
  GtkWidget *ports_row;
  GtkSpinButton *ports_spin;
  GtkWidget *seed_row;
  GtkSpinButton *seed_spin;
  AdwEntryRow *spec_row;
  GtkWidget *error_row;
  AdwEntryRow *name_row;

  FamilyShape shape;
  /* Set while the panel itself changes rows or entries, so their change
   * handlers do not write back into each other. */
  gboolean syncing;
};

G_DEFINE_FINAL_TYPE (FlitlabGeneratorPanel, flitlab_generator_panel, GTK_TYPE_WIDGET)

enum {
  GENERATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The keys with rows of their own; any other key can still be typed into
 * the spec. default_value is shown when a family is chosen: the engine's
 * documented defaults, except for hosts, where one host per switch suits
 * teaching better than the irregular family's four. */
static const struct {
  const char *key;
  gsize row_offset;
  gsize spin_offset;
  int default_value;
} key_rows[] = {
  { "hosts", G_STRUCT_OFFSET (FlitlabGeneratorPanel, hosts_row),
    G_STRUCT_OFFSET (FlitlabGeneratorPanel, hosts_spin), 1 },
  { "ports", G_STRUCT_OFFSET (FlitlabGeneratorPanel, ports_row),
    G_STRUCT_OFFSET (FlitlabGeneratorPanel, ports_spin), 4 },
  { "seed", G_STRUCT_OFFSET (FlitlabGeneratorPanel, seed_row),
    G_STRUCT_OFFSET (FlitlabGeneratorPanel, seed_spin), 1 },
};

static GtkWidget *
key_row (FlitlabGeneratorPanel *self,
         guint                  i)
{
  return G_STRUCT_MEMBER (GtkWidget *, self, key_rows[i].row_offset);
}

static GtkSpinButton *
key_spin (FlitlabGeneratorPanel *self,
          guint                  i)
{
  return G_STRUCT_MEMBER (GtkSpinButton *, self, key_rows[i].spin_offset);
}

static int
find_key (const char *key,
          gsize       len)
{
  for (guint i = 0; i < G_N_ELEMENTS (key_rows); i++)
    if (strlen (key_rows[i].key) == len && strncmp (key_rows[i].key, key, len) == 0)
      return (int) i;
  return -1;
}

static GtkSpinButton *
size_spin (FlitlabGeneratorPanel *self,
           int                    i)
{
  GtkSpinButton *spins[] = { self->size_spin0, self->size_spin1, self->size_spin2 };

  return spins[i];
}

/* Reads a syntax line: upper-case letters before the first comma are sizes
 * (optional inside brackets), "word=" after it are keys. */
static void
parse_syntax (const char  *syntax,
              FamilyShape *shape)
{
  const char *p = strchr (syntax, ':');
  gboolean in_sizes = TRUE;
  int depth = 0;

  memset (shape, 0, sizeof *shape);
  if (p == NULL)
    return;

  for (p++; *p != '\0'; p++)
    {
      if (*p == '[')
        depth++;
      else if (*p == ']')
        depth--;
      else if (*p == ',')
        in_sizes = FALSE;
      else if (in_sizes && g_ascii_isupper (*p))
        {
          if (depth > 0)
            shape->optional_dims++;
          else
            shape->required_dims++;
        }
      else if (!in_sizes && g_ascii_islower (*p))
        {
          const char *start = p;
          int key;

          while (g_ascii_isalnum (p[1]) || p[1] == '_' || p[1] == '-')
            p++;
          if (p[1] != '=')
            continue;
          key = find_key (start, (gsize) (p - start + 1));
          if (key >= 0)
            shape->keys |= 1u << key;
        }
    }
  shape->required_dims = MIN (shape->required_dims, FL_MAX_DIMS);
  shape->optional_dims = MIN (shape->optional_dims, FL_MAX_DIMS - shape->required_dims);
}

static const FlFamilyInfo *
selected_family (FlitlabGeneratorPanel *self)
{
  guint i = adw_combo_row_get_selected (self->family_row);

  return i == GTK_INVALID_LIST_POSITION ? NULL : fl_family_info ((int) i);
}

/* The spec the rows describe. */
static char *
build_spec (FlitlabGeneratorPanel *self,
            const FlFamilyInfo    *info)
{
  GString *spec = g_string_new (info->name);
  int ndims = self->shape.required_dims;

  if (gtk_switch_get_active (self->extra_dims_switch))
    ndims += self->shape.optional_dims;
  for (int i = 0; i < ndims; i++)
    g_string_append_printf (spec, "%s%d", i == 0 ? ":" : "x",
                            gtk_spin_button_get_value_as_int (size_spin (self, i)));

  for (guint i = 0; i < G_N_ELEMENTS (key_rows); i++)
    if ((self->shape.keys & (1u << i)) != 0)
      g_string_append_printf (spec, ",%s=%d", key_rows[i].key,
                              gtk_spin_button_get_value_as_int (key_spin (self, i)));
  return g_string_free (spec, FALSE);
}

/* Validates the spec entry, shows the problem inline and enables Generate
 * only for a spec the engine accepts. */
static void
validate (FlitlabGeneratorPanel *self)
{
  const char *spec = gtk_editable_get_text (GTK_EDITABLE (self->spec_row));
  FlError err = { 0 };
  gboolean valid = fl_spec_validate (spec, &err) == FL_OK;

  gtk_widget_set_visible (self->error_row, !valid && spec[0] != '\0');
  if (!valid)
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->error_row), err.message);
  if (valid)
    gtk_widget_remove_css_class (GTK_WIDGET (self->spec_row), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->spec_row), "error");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "generator.generate", valid);
}

static void
set_entry_text (FlitlabGeneratorPanel *self,
                AdwEntryRow           *row,
                const char            *text)
{
  gboolean was_syncing = self->syncing;

  self->syncing = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (row), text);
  self->syncing = was_syncing;
}

/* Writes the rows' spec into the entry. */
static void
update_spec (FlitlabGeneratorPanel *self)
{
  const FlFamilyInfo *info = selected_family (self);
  g_autofree char *spec = NULL;

  if (info == NULL || self->syncing)
    return;
  spec = build_spec (self, info);
  set_entry_text (self, self->spec_row, spec);
  validate (self);
}

/* Shows the rows a family takes. The third size sits in a row of its own,
 * with the switch that adds it when it is optional, so that the sidebar
 * stays narrow. */
static void
show_shape (FlitlabGeneratorPanel *self)
{
  int shown = self->shape.required_dims;
  int most = self->shape.required_dims + self->shape.optional_dims;

  if (gtk_switch_get_active (self->extra_dims_switch))
    shown += self->shape.optional_dims;
  gtk_widget_set_visible (self->size_row, shown > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->size_spin0), shown > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->size_spin1), shown > 1);
  gtk_widget_set_visible (self->times_label1, shown > 1);
  gtk_widget_set_visible (self->extra_dims_row, most > 2);
  gtk_widget_set_visible (GTK_WIDGET (self->extra_dims_switch), self->shape.optional_dims > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->size_spin2), shown > 2);
  for (guint i = 0; i < G_N_ELEMENTS (key_rows); i++)
    gtk_widget_set_visible (key_row (self, i), (self->shape.keys & (1u << i)) != 0);
}

/* Picks sizes for a newly chosen family: the largest of a few friendly
 * values that the engine accepts for every dimension and that gives at most
 * DEFAULT_MAX_SWITCHES switches (a hypercube of size 8 has 256), so that
 * every family starts from a network that reads well on a projector. The
 * candidates are tiny, so generating them to count costs nothing. */
#define DEFAULT_MAX_SWITCHES 64

static void
choose_default_sizes (FlitlabGeneratorPanel *self,
                      const FlFamilyInfo    *info)
{
  static const int candidates[] = { 8, 7, 6, 5, 4, 3, 2 };

  for (guint c = 0; c < G_N_ELEMENTS (candidates); c++)
    {
      g_autofree char *spec = NULL;
      FlTopology *topology = NULL;
      int switches;

      for (int i = 0; i < FL_MAX_DIMS; i++)
        gtk_spin_button_set_value (size_spin (self, i), candidates[c]);
      spec = build_spec (self, info);
      if (fl_spec_validate (spec, NULL) != FL_OK
          || fl_topology_from_spec (spec, &topology, NULL) != FL_OK)
        continue;
      switches = fl_topology_switch_count (topology);
      fl_topology_free (topology);
      if (switches <= DEFAULT_MAX_SWITCHES)
        return;
    }
}

static void
family_changed (FlitlabGeneratorPanel *self)
{
  const FlFamilyInfo *info = selected_family (self);

  if (info == NULL)
    return;
  /* Above the rows rather than under Family, where it would leave the
   * family's name no room. */
  adw_preferences_group_set_description (self->group, fl_gettext (info->summary));
  if (self->syncing)
    return;

  parse_syntax (info->syntax, &self->shape);
  self->syncing = TRUE;
  gtk_switch_set_active (self->extra_dims_switch, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (key_rows); i++)
    gtk_spin_button_set_value (key_spin (self, i), key_rows[i].default_value);
  choose_default_sizes (self, info);
  self->syncing = FALSE;

  show_shape (self);
  update_spec (self);
}

static void
extra_dims_changed (FlitlabGeneratorPanel *self)
{
  show_shape (self);
  update_spec (self);
}

/* Moves the rows to a spec typed by hand, when it has the shape
 * FAMILY:AxBxC,key=value,... with a known family; anything else leaves the
 * rows alone and only the validation speaks. */
static void
rows_from_spec (FlitlabGeneratorPanel *self,
                const char            *spec)
{
  g_auto(GStrv) parts = g_strsplit (spec, ",", -1);
  g_auto(GStrv) dims = NULL;
  const char *colon = strchr (parts[0] != NULL ? parts[0] : "", ':');
  g_autofree char *family = NULL;
  int index = -1, ndims;

  if (colon == NULL)
    return;
  family = g_strndup (parts[0], (gsize) (colon - parts[0]));
  for (int i = 0; i < fl_family_count (); i++)
    if (g_strcmp0 (fl_family_info (i)->name, family) == 0)
      index = i;
  if (index < 0)
    return;

  if ((guint) index != adw_combo_row_get_selected (self->family_row))
    {
      adw_combo_row_set_selected (self->family_row, (guint) index);
      parse_syntax (fl_family_info (index)->syntax, &self->shape);
    }

  dims = g_strsplit (colon + 1, "x", -1);
  ndims = (int) g_strv_length (dims);
  if (ndims > FL_MAX_DIMS)
    return;
  for (int i = 0; i < ndims; i++)
    gtk_spin_button_set_value (size_spin (self, i), g_ascii_strtod (dims[i], NULL));
  gtk_switch_set_active (self->extra_dims_switch, ndims > self->shape.required_dims);

  for (int i = 1; parts[i] != NULL; i++)
    {
      const char *eq = strchr (parts[i], '=');
      int key = eq != NULL ? find_key (parts[i], (gsize) (eq - parts[i])) : -1;

      if (key < 0)
        continue;
      gtk_spin_button_set_value (key_spin (self, (guint) key), g_ascii_strtod (eq + 1, NULL));
    }
  show_shape (self);
}

static void
spec_row_changed (FlitlabGeneratorPanel *self)
{
  if (self->syncing)
    return;
  self->syncing = TRUE;
  rows_from_spec (self, gtk_editable_get_text (GTK_EDITABLE (self->spec_row)));
  self->syncing = FALSE;
  validate (self);
}

/* Enter in the spec or the name generates, when the spec is valid. */
static void
entry_activated (FlitlabGeneratorPanel *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "generator.generate", NULL);
}

static void
generate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  FlitlabGeneratorPanel *self = FLITLAB_GENERATOR_PANEL (widget);

  g_signal_emit (self, signals[GENERATE], 0,
                 flitlab_generator_panel_get_spec (self),
                 flitlab_generator_panel_get_name (self));
}

GtkWidget *
flitlab_generator_panel_new (void)
{
  return g_object_new (FLITLAB_TYPE_GENERATOR_PANEL, NULL);
}

void
flitlab_generator_panel_set_spec (FlitlabGeneratorPanel *self,
                                  const char            *spec)
{
  g_return_if_fail (FLITLAB_IS_GENERATOR_PANEL (self));

  gtk_editable_set_text (GTK_EDITABLE (self->spec_row), spec);
}

const char *
flitlab_generator_panel_get_spec (FlitlabGeneratorPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_GENERATOR_PANEL (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->spec_row));
}

const char *
flitlab_generator_panel_get_name (FlitlabGeneratorPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_GENERATOR_PANEL (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->name_row));
}

static void
flitlab_generator_panel_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), FLITLAB_TYPE_GENERATOR_PANEL);
  /* The template's top box has no id, so dispose_template() leaves it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (flitlab_generator_panel_parent_class)->dispose (object);
}

static void
flitlab_generator_panel_class_init (FlitlabGeneratorPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_generator_panel_dispose;

  /**
   * FlitlabGeneratorPanel::generate:
   * @spec: the validated spec
   * @name: the name the user typed, or "" to name the network after its
   *   canonical spec
   *
   * The user asked for the network to be generated.
   */
  signals[GENERATE] = g_signal_new ("generate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE,
                                    2, G_TYPE_STRING, G_TYPE_STRING);

  gtk_widget_class_install_action (widget_class, "generator.generate", NULL, generate_action);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-generator-panel.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, family_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, families);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, size_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, size_spin0);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, size_spin1);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, size_spin2);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, times_label1);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, extra_dims_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, extra_dims_switch);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, hosts_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, hosts_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, ports_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, ports_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, seed_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, spec_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, error_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabGeneratorPanel, name_row);
  gtk_widget_class_bind_template_callback (widget_class, family_changed);
  gtk_widget_class_bind_template_callback (widget_class, extra_dims_changed);
  gtk_widget_class_bind_template_callback (widget_class, update_spec);
  gtk_widget_class_bind_template_callback (widget_class, spec_row_changed);
  gtk_widget_class_bind_template_callback (widget_class, entry_activated);
}

static void
flitlab_generator_panel_init (FlitlabGeneratorPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* The model is filled before the first selection so that family_changed
   * sets every row up from the registry's first family. */
  self->syncing = TRUE;
  for (int i = 0; i < fl_family_count (); i++)
    gtk_string_list_append (self->families, fl_family_info (i)->name);
  self->syncing = FALSE;
  adw_combo_row_set_selected (self->family_row, 0);
  family_changed (self);
}
