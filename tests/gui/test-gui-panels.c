/* test-gui-panels.c — what a teacher preparing a lesson met first, in the
 * real application under Xvfb, at 1280x800 and at 1024x700.
 *
 *   test-gui-panels save        Save says “Saved “name.flitlab”” in a toast
 *                               and clears the title's mark; a save that
 *                               fails says why in a toast and keeps it. */
#include "gui-harness.h"

/* The toast that reads text, shown over the window. */
static gboolean
shows_toast (FlitlabWindow *window,
             const char    *text)
{
  GtkWidget *label = find_label (GTK_WIDGET (window), text);

  return label != NULL && gtk_widget_get_ancestor (label, ADW_TYPE_TOAST_OVERLAY) != NULL;
}

/* A label under the window whose text starts with prefix, or NULL. */
static gboolean
label_starts_ (GtkWidget    *widget,
               gconstpointer prefix)
{
  return GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix);
}

static gboolean
title_marked (FlitlabWindow *window)
{
  return g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (window)), "•");
}

/* Saving ----------------------------------------------------------------------- */

static void
run_save (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flitlab-gui-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "lesson one.flitlab", NULL);
  GtkWidget *failed;

  flitlab_window_generate (window, "ring:8", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "ring:8 is generated");
  CHECK (title_marked (window), "a new network marks the title: %s",
         gtk_window_get_title (GTK_WINDOW (window)));
  CHECK (flitlab_window_save_to_path (window, path, &error), "the project saves to %s", path);

  flitlab_window_generate (window, "ring:6", NULL);
  CHECK (wait_until (window, is_idle_with_topology) && title_marked (window),
         "another network marks the title again");
  g_action_group_activate_action (G_ACTION_GROUP (window), "save", NULL);
  CHECK (shows_toast (window, "Saved “lesson one.flitlab”"), "Save says so in a toast");
  CHECK (!title_marked (window), "Save clears the title's mark: %s",
         gtk_window_get_title (GTK_WINDOW (window)));

  /* The folder has gone: the save fails, and says why. */
  g_unlink (path);
  g_rmdir (dir);
  flitlab_window_generate (window, "ring:4", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "ring:4 is generated");
  g_action_group_activate_action (G_ACTION_GROUP (window), "save", NULL);
  failed = find_matching (GTK_WIDGET (window), label_starts_, "Could not save “lesson one.flitlab”: ");
  CHECK (failed != NULL && strlen (gtk_label_get_text (GTK_LABEL (failed))) > strlen ("Could not save “lesson one.flitlab”: "),
         "a failed save says why: %s", failed != NULL ? gtk_label_get_text (GTK_LABEL (failed)) : "(no toast)");
  CHECK (title_marked (window), "a failed save keeps the title's mark");
  save_and_forget (window);
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "save", run_save },
  };

  return harness_main (argc, argv, "save", scenarios, G_N_ELEMENTS (scenarios));
}
