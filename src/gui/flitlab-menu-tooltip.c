/* flitlab-menu-tooltip.c — see flitlab-menu-tooltip.h. */
#include "flitlab-menu-tooltip.h"

#define HOOKED_KEY "flitlab-quiet-tooltip"

static void
popover_shown_cb (GtkWidget *button)
{
  gtk_widget_set_has_tooltip (button, FALSE);
  /* A tooltip already on screen goes at once, not at the next motion. */
  gtk_widget_trigger_tooltip_query (button);
}

static void
popover_hidden_cb (GtkWidget *button)
{
  gtk_widget_set_has_tooltip (button, gtk_widget_get_tooltip_text (button) != NULL
                                        || gtk_widget_get_tooltip_markup (button) != NULL);
}

static void
hook_popover (GtkMenuButton *button)
{
  GtkPopover *popover = gtk_menu_button_get_popover (button);

  if (popover == NULL || g_object_get_data (G_OBJECT (popover), HOOKED_KEY) != NULL)
    return;
  g_object_set_data (G_OBJECT (popover), HOOKED_KEY, GINT_TO_POINTER (TRUE));
  g_signal_connect_object (popover, "show", G_CALLBACK (popover_shown_cb), button, G_CONNECT_SWAPPED);
  g_signal_connect_object (popover, "hide", G_CALLBACK (popover_hidden_cb), button, G_CONNECT_SWAPPED);
}

void
flitlab_menu_button_quiet_tooltip (GtkMenuButton *button)
{
  g_return_if_fail (GTK_IS_MENU_BUTTON (button));

  hook_popover (button);
  g_signal_connect (button, "notify::popover", G_CALLBACK (hook_popover), NULL);
}
