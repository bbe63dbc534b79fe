/* flitlab-welcome.c — the welcome screen. */
#include <glib/gi18n.h>
#include <string.h>

#include "flitlab-application.h"
#include "flitlab-welcome.h"
#include "flitlab-window.h"

/* How many recent projects are listed. */
#define MAX_RECENT 5

struct _FlitlabWelcome
{
  AdwBin parent_instance;

  /* Template children. */
  GtkWidget *recent_group;
  GtkListBox *recent_list;

  GListStore *recent;          /* of GFile, as listed */
};

G_DEFINE_FINAL_TYPE (FlitlabWelcome, flitlab_welcome, ADW_TYPE_BIN)

void
flitlab_welcome_add_recent (const char *path)
{
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  GtkRecentData data = {
    .mime_type = (char *) FLITLAB_PROJECT_MIME_TYPE,
    .app_name = (char *) "flitlab-gui",
    .app_exec = (char *) "flitlab-gui %f",
  };

  if (uri != NULL)
    gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static int
newest_first (gconstpointer a,
              gconstpointer b)
{
  GDateTime *ta = gtk_recent_info_get_modified (*(GtkRecentInfo **) a);
  GDateTime *tb = gtk_recent_info_get_modified (*(GtkRecentInfo **) b);

  return g_date_time_compare (tb, ta);
}

/* "~/classes" for a folder under the home directory. */
static char *
folder_of (GFile *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  g_autofree char *relative = parent != NULL ? g_file_get_relative_path (home, parent) : NULL;

  if (parent == NULL)
    return g_strdup ("/");
  if (g_file_equal (parent, home))
    return g_strdup ("~");
  if (relative != NULL)
    return g_build_filename ("~", relative, NULL);
  return g_file_get_path (parent);
}

static GtkWidget *
recent_row (GFile *file)
{
  g_autofree char *base = g_file_get_basename (file);
  g_autofree char *folder = folder_of (file);
  GtkWidget *row = adw_action_row_new ();

  if (g_str_has_suffix (base, ".flitlab") && strlen (base) > strlen (".flitlab"))
    base[strlen (base) - strlen (".flitlab")] = '\0';
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), base);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), folder);
  /* Names are files', not markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  return row;
}

/* Lists the existing projects of the recent files, newest first. */
static void
refresh (FlitlabWelcome *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr(GPtrArray) projects = g_ptr_array_new ();
  GtkWidget *child;

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      const char *uri = gtk_recent_info_get_uri (info);

      if ((g_strcmp0 (gtk_recent_info_get_mime_type (info), FLITLAB_PROJECT_MIME_TYPE) == 0
           || g_str_has_suffix (uri, ".flitlab"))
          && gtk_recent_info_is_local (info) && gtk_recent_info_exists (info))
        g_ptr_array_add (projects, info);
    }
  g_ptr_array_sort (projects, newest_first);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);
  g_list_store_remove_all (self->recent);
  for (guint i = 0; i < projects->len && i < MAX_RECENT; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (projects->pdata[i]));

      g_list_store_append (self->recent, file);
      gtk_list_box_append (self->recent_list, recent_row (file));
    }
  gtk_widget_set_visible (self->recent_group, g_list_model_get_n_items (G_LIST_MODEL (self->recent)) > 0);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

static void
recent_activated (FlitlabWelcome *self,
                  GtkListBoxRow  *row)
{
  g_autoptr(GFile) file = g_list_model_get_item (G_LIST_MODEL (self->recent),
                                                 (guint) gtk_list_box_row_get_index (row));
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (file != NULL && FLITLAB_IS_WINDOW (root))
    flitlab_window_open_file (FLITLAB_WINDOW (root), file);
}

GtkWidget *
flitlab_welcome_new (void)
{
  return g_object_new (FLITLAB_TYPE_WELCOME, NULL);
}

GListModel *
flitlab_welcome_get_recent (FlitlabWelcome *self)
{
  g_return_val_if_fail (FLITLAB_IS_WELCOME (self), NULL);

  return G_LIST_MODEL (self->recent);
}

static void
flitlab_welcome_dispose (GObject *object)
{
  FlitlabWelcome *self = FLITLAB_WELCOME (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_WELCOME);
  g_clear_object (&self->recent);
  G_OBJECT_CLASS (flitlab_welcome_parent_class)->dispose (object);
}

static void
flitlab_welcome_class_init (FlitlabWelcomeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_welcome_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flitlab/Flitlab/flitlab-welcome.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabWelcome, recent_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWelcome, recent_list);
  gtk_widget_class_bind_template_callback (widget_class, recent_activated);
}

static void
flitlab_welcome_init (FlitlabWelcome *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->recent = g_list_store_new (G_TYPE_FILE);
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (refresh), self,
                           G_CONNECT_SWAPPED);
  refresh (self);
}
