/* flitlab-window-help.c — the manual for what the window shows (win.help,
 * F1): the page of the welcome screen, the lesson panel, the Experiments
 * view or the side tab in front. */
#include "flitlab-help.h"
#include "flitlab-window-private.h"

const char *
flitlab_window_help_page (FlitlabWindow *self)
{
  static const struct
  {
    const char *tab;
    const char *page;
  } pages[] = {
    { "network", "drawing" },
    { "metrics", "drawing" },
    { "routing", "routing" },
    { "simulate", "simulating" },
    { "collectives", "collectives" },
  };
  const char *tab;

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), NULL);

  if (gtk_widget_get_visible (self->welcome))
    return "preferences";
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->sidebar_stack), "lesson") == 0)
    return "lessons";
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "experiments") == 0)
    return "experiments";
  tab = gtk_stack_get_visible_child_name (self->side_stack);
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    if (g_strcmp0 (tab, pages[i].tab) == 0)
      return pages[i].page;
  return "index";
}

static void
help_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);

  flitlab_help_show (GTK_WINDOW (self), flitlab_window_help_page (self));
}

void
flitlab_window_help_init (FlitlabWindow *self)
{
  static const GActionEntry actions[] = {
    { .name = "help", .activate = help_action },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
}
