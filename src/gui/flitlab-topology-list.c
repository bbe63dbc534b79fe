/* flitlab-topology-list.c — the project's topologies in the sidebar.
 *
 * The list only shows: renaming and deleting go through the window's
 * win.rename-topology and win.delete-topology actions (each row's menu
 * passes its name), which ask for confirmation and then call
 * flitlab_topology_list_set_items() with the project's new contents. A
 * project holds a handful of topologies, so rows are simply rebuilt. */
#include <glib/gi18n.h>

#include "flitlab-menu-tooltip.h"
#include "flitlab-topology-list.h"

struct _FlitlabTopologyList
{
  GtkWidget parent_instance;

  GtkListBox *list_box;
  GtkWidget *empty_label;

  /* Set while rows are rebuilt or selected from code, so that only the
   * user's own choices emit ::topology-selected. */
  gboolean updating;
};

G_DEFINE_FINAL_TYPE (FlitlabTopologyList, flitlab_topology_list, GTK_TYPE_WIDGET)

enum {
  TOPOLOGY_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

#define ROW_NAME_KEY "flitlab-topology-name"

static const char *
row_name (GtkListBoxRow *row)
{
  return g_object_get_data (G_OBJECT (row), ROW_NAME_KEY);
}

/* "torus · 64 switches, 64 hosts". */
static char *
summary_text (const FlProjectTopologyInfo *info)
{
  g_autofree char *switches = g_strdup_printf (ngettext ("%d switch", "%d switches",
                                                         (unsigned long) info->switches),
                                               info->switches);
  g_autofree char *hosts = g_strdup_printf (ngettext ("%d host", "%d hosts",
                                                      (unsigned long) info->hosts),
                                            info->hosts);
  const char *family = g_strcmp0 (info->family, "custom") == 0 ? _("drawn") : info->family;

  /* Translators: a topology's family, then its switch and host counts. */
  return g_strdup_printf (_("%s · %s, %s"), family, switches, hosts);
}

static GMenuModel *
row_menu (const char *name)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenuItem) rename = g_menu_item_new (_("_Rename…"), NULL);
  g_autoptr(GMenuItem) delete = g_menu_item_new (_("_Delete…"), NULL);

  g_menu_item_set_action_and_target_value (rename, "win.rename-topology",
                                           g_variant_new_string (name));
  g_menu_item_set_action_and_target_value (delete, "win.delete-topology",
                                           g_variant_new_string (name));
  g_menu_append_item (menu, rename);
  g_menu_append_item (menu, delete);
  return G_MENU_MODEL (menu);
}

static GtkWidget *
create_row (const FlProjectTopologyInfo *info)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_menu_button_new ();
  g_autoptr(GMenuModel) menu = row_menu (info->name);
  g_autofree char *summary = summary_text (info);
  g_autofree char *menu_name = g_strdup_printf (_("Menu of “%s”"), info->name);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), info->name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), summary);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
  gtk_widget_set_tooltip_text (row, info->spec != NULL ? info->spec : info->name);

  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-more-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), menu);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _("Topology Menu"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, menu_name, -1);
  flitlab_menu_button_quiet_tooltip (GTK_MENU_BUTTON (button));
  gtk_widget_add_css_class (button, "flat");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);

  g_object_set_data_full (G_OBJECT (row), ROW_NAME_KEY, g_strdup (info->name), g_free);
  return row;
}

static GtkListBoxRow *
find_row (FlitlabTopologyList *self,
          const char          *name)
{
  for (int i = 0; ; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list_box, i);

      if (row == NULL || g_strcmp0 (row_name (row), name) == 0)
        return row;
    }
}

void
flitlab_topology_list_select (FlitlabTopologyList *self,
                              const char          *name)
{
  GtkListBoxRow *row;

  g_return_if_fail (FLITLAB_IS_TOPOLOGY_LIST (self));

  row = name != NULL ? find_row (self, name) : NULL;
  self->updating = TRUE;
  if (row != NULL)
    gtk_list_box_select_row (self->list_box, row);
  else
    gtk_list_box_unselect_all (self->list_box);
  self->updating = FALSE;
}

void
flitlab_topology_list_set_items (FlitlabTopologyList         *self,
                                 const FlProjectTopologyInfo *items,
                                 int                          n_items)
{
  GtkListBoxRow *selected;
  g_autofree char *selected_name = NULL;
  GtkListBoxRow *row;

  g_return_if_fail (FLITLAB_IS_TOPOLOGY_LIST (self));

  selected = gtk_list_box_get_selected_row (self->list_box);
  if (selected != NULL)
    selected_name = g_strdup (row_name (selected));

  self->updating = TRUE;
  /* Rows only: the label shown for an empty list is a child too. */
  while ((row = gtk_list_box_get_row_at_index (self->list_box, 0)) != NULL)
    gtk_list_box_remove (self->list_box, GTK_WIDGET (row));
  for (int i = 0; i < n_items; i++)
    gtk_list_box_append (self->list_box, create_row (&items[i]));
  self->updating = FALSE;

  flitlab_topology_list_select (self, selected_name);
}

void
flitlab_topology_list_set_item (FlitlabTopologyList         *self,
                                const FlProjectTopologyInfo *info)
{
  GtkListBoxRow *old;
  GtkListBoxRow *selected;
  GtkWidget *row;
  gboolean was_selected;

  g_return_if_fail (FLITLAB_IS_TOPOLOGY_LIST (self));

  old = find_row (self, info->name);
  selected = gtk_list_box_get_selected_row (self->list_box);
  was_selected = old != NULL && old == selected;
  row = create_row (info);

  self->updating = TRUE;
  if (old != NULL)
    {
      gtk_list_box_insert (self->list_box, row, gtk_list_box_row_get_index (old));
      gtk_list_box_remove (self->list_box, GTK_WIDGET (old));
    }
  else
    gtk_list_box_append (self->list_box, row);
  if (was_selected)
    gtk_list_box_select_row (self->list_box, GTK_LIST_BOX_ROW (row));
  self->updating = FALSE;
}

static void
row_selected (FlitlabTopologyList *self,
              GtkListBoxRow       *row)
{
  if (self->updating || row == NULL)
    return;
  g_signal_emit (self, signals[TOPOLOGY_SELECTED], 0, row_name (row));
}

GtkWidget *
flitlab_topology_list_new (void)
{
  return g_object_new (FLITLAB_TYPE_TOPOLOGY_LIST, NULL);
}

static void
flitlab_topology_list_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), FLITLAB_TYPE_TOPOLOGY_LIST);
  /* The template's top box has no id, so dispose_template() leaves it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (flitlab_topology_list_parent_class)->dispose (object);
}

static void
flitlab_topology_list_class_init (FlitlabTopologyListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_topology_list_dispose;

  /**
   * FlitlabTopologyList::topology-selected:
   * @name: the topology's name in the project
   *
   * The user selected a topology.
   */
  signals[TOPOLOGY_SELECTED] = g_signal_new ("topology-selected", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-topology-list.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, FlitlabTopologyList, list_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabTopologyList, empty_label);
  gtk_widget_class_bind_template_callback (widget_class, row_selected);
}

static void
flitlab_topology_list_init (FlitlabTopologyList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_list_box_set_placeholder (self->list_box, self->empty_label);
}
