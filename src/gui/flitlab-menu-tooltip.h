/* flitlab-menu-tooltip.h — a menu button's tooltip that steps aside while
 * its menu is open.
 *
 * GTK 4.8 shows a menu button's tooltip again while the pointer rests on
 * the button after a click, and the tooltip then covers the first item of
 * the menu that has just opened below it. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Hides button's tooltip while its popover shows, this popover and any
 * set later (setting a menu model makes a new one). */
void flitlab_menu_button_quiet_tooltip (GtkMenuButton *button);

G_END_DECLS
