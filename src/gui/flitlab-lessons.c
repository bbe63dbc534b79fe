/* flitlab-lessons.c — the lessons list and the actions that open a lesson;
 * see flitlab-lessons.h.
 *
 * The list reads every file of fl_lesson_dir() when it opens (a teacher
 * may have dropped a new one there): each lesson is a row with its title,
 * summary and number of steps; a file that cannot be read is a row with
 * its message, so a typo is seen rather than a lesson missing.
 */
#include <glib/gi18n.h>

#include "flitlab-alert.h"
#include "flitlab-lessons.h"
#include "flitlab-window.h"

FlLesson *
flitlab_lesson_load (const char  *path,
                     GError     **error)
{
  FlLesson *lesson = NULL;
  FlError err = { 0 };

  if (fl_lesson_read (path, &lesson, &err) != FL_OK || fl_lesson_check (lesson, &err) != FL_OK)
    {
      fl_lesson_free (lesson);
      flitlab_set_engine_error (error, &err);
      return NULL;
    }
  return lesson;
}

/* The active window when it shows nothing yet, else a new one. */
static FlitlabWindow *
lesson_window (GtkApplication *app)
{
  GtkWindow *active = gtk_application_get_active_window (app);

  if (FLITLAB_IS_WINDOW (active) && flitlab_window_is_blank (FLITLAB_WINDOW (active)))
    return FLITLAB_WINDOW (active);
  return flitlab_window_new (FLITLAB_APPLICATION (app));
}

/* Says why a lesson cannot be opened over the active window, or in a
 * dialog of its own, which keeps the application running until it is
 * read, when there is none. */
static void
alert_lesson (GtkApplication *app,
              const char     *message)
{
  GtkWindow *active = gtk_application_get_active_window (app);
  GtkWidget *dialog = flitlab_alert (active, _("Could Not Open the Lesson"), message);

  if (active == NULL)
    gtk_window_set_application (GTK_WINDOW (dialog), app);
}

static void
open_lesson_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  const char *path = g_variant_get_string (parameter, NULL);
  g_autoptr(GError) error = NULL;
  FlLesson *lesson = flitlab_lesson_load (path, &error);
  FlitlabWindow *window;

  if (lesson == NULL)
    {
      alert_lesson (app, error->message);
      return;
    }
  window = lesson_window (app);
  gtk_window_present (GTK_WINDOW (window));
  if (!flitlab_window_open_lesson (window, lesson, &error))
    flitlab_window_alert_full (window, _("Could Not Open the Lesson"), error->message);
}

/* The list ------------------------------------------------------------------------------ */

static void
row_activated_cb (GtkListBox    *list,
                  GtkListBoxRow *row,
                  gpointer       user_data)
{
  GtkWidget *window = gtk_widget_get_ancestor (GTK_WIDGET (list), GTK_TYPE_WINDOW);
  const char *path = g_object_get_data (G_OBJECT (row), "flitlab-lesson-path");
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (window)));

  if (path == NULL)
    return;
  /* The list goes first: the lesson's window is then the active one. */
  gtk_window_close (GTK_WINDOW (window));
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-lesson", g_variant_new_string (path));
}

/* Pressing a row's button activates the row, as a click on it does. */
static void
open_button_clicked_cb (GtkListBoxRow *row)
{
  g_signal_emit_by_name (row, "activate");
}

static GtkWidget *
lesson_row (const char *path)
{
  g_autoptr(GError) error = NULL;
  FlLesson *lesson = flitlab_lesson_load (path, &error);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *suffix;

  if (lesson == NULL)
    {
      g_autofree char *name = g_path_get_basename (path);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), error->message);
      suffix = gtk_image_new_from_icon_name ("dialog-error-symbolic");
      gtk_accessible_update_property (GTK_ACCESSIBLE (suffix), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Cannot be opened"), -1);
      gtk_widget_add_css_class (suffix, "error");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), suffix);
      return row;
    }

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _(lesson->title));
  if (lesson->summary != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _(lesson->summary));
  {
    /* Translators: how long a lesson is, beside its title in the list. */
    g_autofree char *steps = g_strdup_printf (ngettext ("%d step", "%d steps", lesson->n_steps),
                                              lesson->n_steps);

    suffix = gtk_label_new (steps);
    gtk_widget_add_css_class (suffix, "dim-label");
    adw_action_row_add_suffix (ADW_ACTION_ROW (row), suffix);
  }
  {
    /* A button as well as the row: assistive technologies can press a
     * button, not activate a list row. */
    g_autofree char *open = g_strdup_printf (_("Open “%s”"), _(lesson->title));
    GtkWidget *button = gtk_button_new_from_icon_name ("go-next-symbolic");

    gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
    gtk_widget_add_css_class (button, "flat");
    gtk_widget_set_tooltip_text (button, open);
    gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, open, -1);
    g_signal_connect_object (button, "clicked", G_CALLBACK (open_button_clicked_cb), row,
                             G_CONNECT_SWAPPED);
    adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  }
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  g_object_set_data_full (G_OBJECT (row), "flitlab-lesson-path", g_strdup (path), g_free);
  fl_lesson_free (lesson);
  return row;
}

static GtkWidget *
lessons_content (void)
{
  const char *dir = fl_lesson_dir ();
  char **paths = NULL;
  int n = 0;
  FlError err = { 0 };
  GtkWidget *list, *clamp, *scroller, *box;

  if (fl_lesson_list (dir, &paths, &n, &err) != FL_OK || n == 0)
    {
      GtkWidget *status = adw_status_page_new ();

      adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), "accessories-dictionary-symbolic");
      adw_status_page_set_title (ADW_STATUS_PAGE (status), _("No Lessons"));
      if (n == 0 && err.code == FL_OK)
        {
          /* Translators: %s is a folder. */
          g_autofree char *text = g_strdup_printf (_("There are no lesson files in %s."), dir);

          adw_status_page_set_description (ADW_STATUS_PAGE (status), text);
        }
      else
        adw_status_page_set_description (ADW_STATUS_PAGE (status), err.message);
      fl_lesson_paths_free (paths);
      return status;
    }

  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Lessons"), -1);
  g_signal_connect (list, "row-activated", G_CALLBACK (row_activated_cb), NULL);
  for (int i = 0; i < n; i++)
    gtk_list_box_append (GTK_LIST_BOX (list), lesson_row (paths[i]));
  fl_lesson_paths_free (paths);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  {
    GtkWidget *intro = gtk_label_new (_("Each lesson opens its own network and settings, and walks "
                                        "through it step by step in a panel beside the drawing."));

    gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
    gtk_label_set_xalign (GTK_LABEL (intro), 0);
    gtk_widget_add_css_class (intro, "dim-label");
    gtk_box_append (GTK_BOX (box), intro);
  }
  gtk_box_append (GTK_BOX (box), list);
  clamp = adw_clamp_new ();
  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), clamp);
  gtk_widget_set_vexpand (scroller, TRUE);
  return scroller;
}

GtkWindow *
flitlab_lessons_show_list (GtkApplication *app,
                           GtkWindow      *parent)
{
  GtkWidget *window = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkShortcutController *keys = GTK_SHORTCUT_CONTROLLER (gtk_shortcut_controller_new ());

  gtk_window_set_title (GTK_WINDOW (window), _("Lessons"));
  gtk_window_set_default_size (GTK_WINDOW (window), 560, 560);
  gtk_window_set_modal (GTK_WINDOW (window), parent != NULL);
  gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  gtk_window_set_application (GTK_WINDOW (window), app);
  gtk_window_set_hide_on_close (GTK_WINDOW (window), FALSE);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), lessons_content ());
  adw_window_set_content (ADW_WINDOW (window), box);

  gtk_shortcut_controller_add_shortcut (keys, gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                                gtk_named_action_new ("window.close")));
  gtk_widget_add_controller (window, GTK_EVENT_CONTROLLER (keys));
  gtk_window_present (GTK_WINDOW (window));
  return GTK_WINDOW (window);
}

static void
lessons_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);

  flitlab_lessons_show_list (app, gtk_application_get_active_window (app));
}

static const GActionEntry lesson_actions[] = {
  { .name = "lessons", .activate = lessons_action },
  { .name = "open-lesson", .activate = open_lesson_action, .parameter_type = "s" },
};

void
flitlab_lessons_add_actions (GtkApplication *app)
{
  g_action_map_add_action_entries (G_ACTION_MAP (app), lesson_actions, G_N_ELEMENTS (lesson_actions), app);
}
