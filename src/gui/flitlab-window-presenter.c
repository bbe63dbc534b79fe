/* flitlab-window-presenter.c — presenter mode (win.presenter, F5): for a
 * projector, the canvas draws heavier lines and larger type and switches,
 * and the panels beside it larger type (the window's "presenter" style
 * class, ui/style.css); the sidebar of topologies and the generator folds
 * away to give the network the room (F9 brings it back), and comes back
 * as it was when F5 again or Escape leaves presenter mode.
 */
#include <glib/gi18n.h>

#include "flitlab-window-private.h"

static void
presenter_change_state (GSimpleAction *action,
                        GVariant      *state,
                        gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  gboolean on = g_variant_get_boolean (state);

  GAction *sidebar = g_action_map_lookup_action (G_ACTION_MAP (self), "show-sidebar");
  g_autoptr(GVariant) shown = sidebar != NULL ? g_action_get_state (sidebar) : NULL;
  g_autoptr(GVariant) now = g_action_get_state (G_ACTION (action));

  if (g_variant_equal (state, now))
    return;
  g_simple_action_set_state (action, state);
  if (shown != NULL && on)
    {
      g_object_set_data (G_OBJECT (self), "flitlab-presenter-sidebar",
                         GINT_TO_POINTER (g_variant_get_boolean (shown)));
      g_action_change_state (sidebar, g_variant_new_boolean (FALSE));
    }
  else if (shown != NULL)
    {
      gboolean was = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "flitlab-presenter-sidebar"));

      g_action_change_state (sidebar, g_variant_new_boolean (was));
    }
  flitlab_canvas_set_presenter (flitlab_window_get_canvas (self), on);
  if (on)
    gtk_widget_add_css_class (GTK_WIDGET (self), "presenter");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presenter");
}

/* Escape leaves presenter mode; otherwise it is left to whoever else
 * wants it (a popover, a drag). */
static gboolean
leave_presenter (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   user_data)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (widget), "presenter");
  g_autoptr(GVariant) state = action != NULL ? g_action_get_state (action) : NULL;

  if (state == NULL || !g_variant_get_boolean (state))
    return FALSE;
  g_action_change_state (action, g_variant_new_boolean (FALSE));
  return TRUE;
}

static const GActionEntry presenter_actions[] = {
  { .name = "presenter", .state = "false", .change_state = presenter_change_state },
};

void
flitlab_window_presenter_init (FlitlabWindow *self)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();
  GtkShortcut *escape = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                          gtk_callback_action_new (leave_presenter, NULL, NULL));

  g_action_map_add_action_entries (G_ACTION_MAP (self), presenter_actions, G_N_ELEMENTS (presenter_actions),
                                   self);
  /* Listed in ui/help-overlay.ui, as every "flitlab-" controller's keys. */
  gtk_event_controller_set_name (keys, "flitlab-presenter-keys");
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys), escape);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}
