/* flitlab-application.c — the Flitlab application.
 *
 * Every window is independent (the application is not unique: a teacher may
 * run two copies side by side), so the application only creates windows,
 * owns the app-wide actions (preferences, about, quit), applies the style
 * preference and sets the accelerators that the window actions use. */
#include <glib/gi18n.h>

#include "flitlab.h"
#include "flitlab-application.h"
#include "flitlab-lessons.h"
#include "flitlab-preferences.h"
#include "flitlab-window.h"

struct _FlitlabApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (FlitlabApplication, flitlab_application, ADW_TYPE_APPLICATION)

/* One row per action: the accelerators listed in ui/help-overlay.ui. */
static const struct {
  const char *action;
  const char *accels[3];
} accelerators[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.preferences", { "<Control>comma", NULL } },
  { "win.new-project", { "<Control>n", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "win.save", { "<Control>s", NULL } },
  { "win.save-as", { "<Control><Shift>s", NULL } },
  { "win.export", { "<Control>e", NULL } },
  { "win.undo", { "<Control>z", NULL } },
  { "win.redo", { "<Control><Shift>z", NULL } },
  { "win.delete-selection", { "Delete", NULL } },
  { "win.zoom-fit", { "<Control>0", NULL } },
  { "win.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
  { "win.zoom-out", { "<Control>minus", NULL } },
  { "win.show-sidebar", { "F9", NULL } },
  { "win.presenter", { "F5", NULL } },
  { "win.help", { "F1", NULL } },
};

void
flitlab_application_bind_translations (void)
{
  const char *localedir = g_getenv ("FLITLAB_LOCALEDIR");

  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

FlitlabApplication *
flitlab_application_new (void)
{
  FlitlabApplication *app = g_object_new (FLITLAB_TYPE_APPLICATION,
                                          "application-id", FLITLAB_APPLICATION_ID,
                                          "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE,
                                          "resource-base-path", "/io/github/flitlab/Flitlab",
                                          NULL);

  g_application_add_main_option (G_APPLICATION (app), "version", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                  _("Show the version and quit"), NULL);
  return app;
}

/* --version answers without a display. */
static int
flitlab_application_handle_local_options (GApplication *app,
                                          GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("flitlab-gui %s\n", FL_VERSION_STRING);
      return 0;
    }
  return -1;
}

static void
flitlab_application_activate (GApplication *app)
{
  FlitlabWindow *window = flitlab_window_new (FLITLAB_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));
}

/* Each file opens in a window of its own; a file that cannot be read still
 * gets its window, which shows the error and an untitled project. The
 * window is presented first so that the error's dialog comes over it. */
static void
flitlab_application_open (GApplication  *app,
                          GFile        **files,
                          int            n_files,
                          const char    *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      FlitlabWindow *window = flitlab_window_new (FLITLAB_APPLICATION (app));

      gtk_window_present (GTK_WINDOW (window));
      flitlab_window_open_file (window, files[i]);
    }
}

static void
flitlab_application_startup (GApplication *app)
{
  G_APPLICATION_CLASS (flitlab_application_parent_class)->startup (app);

  g_set_application_name (_("Flitlab"));
  gtk_window_set_default_icon_name (FLITLAB_APPLICATION_ID);
  flitlab_preferences_bind_style ();

  for (guint i = 0; i < G_N_ELEMENTS (accelerators); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app),
                                           accelerators[i].action,
                                           accelerators[i].accels);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);

  gtk_window_present (GTK_WINDOW (flitlab_preferences_new (gtk_application_get_active_window (app))));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char *developers[] = { "The Flitlab developers", NULL };
  /* The papers whose models Flitlab implements, by their authors. */
  static const char *papers[] = {
    "Kim, Maeng, Cho (SEM, complete exchange on the torus)",
    "J.-Y. Lee (OPT-tree and OPT-mesh multicast)",
    "Jouraku, Koibuchi, Amano (L-turn and R-turn routing)",
    "Kim, Choi (XMESH and deflection routing)",
    "Park, Lee, Moon (schedules on Myrinet clusters)",
    NULL,
  };
  AdwAboutWindow *about = ADW_ABOUT_WINDOW (adw_about_window_new ());

  gtk_window_set_transient_for (GTK_WINDOW (about), gtk_application_get_active_window (app));
  adw_about_window_set_application_name (about, _("Flitlab"));
  adw_about_window_set_application_icon (about, FLITLAB_APPLICATION_ID);
  adw_about_window_set_developer_name (about, _("The Flitlab developers"));
  adw_about_window_set_version (about, FL_VERSION_STRING);
  adw_about_window_set_comments (about, _("A workbench for interconnection networks: generate, draw and "
                                          "measure topologies, route them, simulate them flit by flit, "
                                          "and teach with them"));
  adw_about_window_set_website (about, "https://github.com/flitlab/flitlab");
  adw_about_window_set_issue_url (about, "https://github.com/flitlab/flitlab/issues");
  adw_about_window_set_support_url (about, "https://github.com/flitlab/flitlab/issues");
  adw_about_window_set_copyright (about, "© 2026 The Flitlab developers");
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  adw_about_window_set_release_notes_version (about, "0.1.0");
  /* The release notes, as AppStream metadata holds them: <p> paragraphs
   * and <ul> lists. */
  adw_about_window_set_release_notes (about, _("<p>The first release.</p>"
                                               "<ul>"
                                               "<li>Generators, drawing, metrics and project files</li>"
                                               "<li>Routing with deadlock analysis and turn maps</li>"
                                               "<li>A flit-level simulator, watched forwards and backwards</li>"
                                               "<li>Multicast trees, complete exchange and link-contention "
                                               "schedules</li>"
                                               "<li>Experiments with plots for papers</li>"
                                               "<li>Guided lessons</li>"
                                               "</ul>"));
  adw_about_window_add_credit_section (about, _("Papers Implemented"), papers);
  gtk_window_present (GTK_WINDOW (about));
}

/* Closing each window lets it ask about unsaved changes; the application
 * ends when the last window has gone. */
static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (user_data));

  for (GList *l = windows; l != NULL; )
    {
      GtkWindow *window = l->data;

      /* Closing may remove the window from the list: step first. */
      l = l->next;
      gtk_window_close (window);
    }
}

static const GActionEntry app_actions[] = {
  { .name = "preferences", .activate = preferences_action },
  { .name = "about", .activate = about_action },
  { .name = "quit", .activate = quit_action },
};

static void
flitlab_application_class_init (FlitlabApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = flitlab_application_activate;
  app_class->open = flitlab_application_open;
  app_class->startup = flitlab_application_startup;
  app_class->handle_local_options = flitlab_application_handle_local_options;
}

static void
flitlab_application_init (FlitlabApplication *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  flitlab_lessons_add_actions (GTK_APPLICATION (self));
}
