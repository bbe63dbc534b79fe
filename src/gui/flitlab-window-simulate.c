/* flitlab-window-simulate.c — watching a simulation in the window: the
 * transport bar under the canvas while the Simulate tab is shown, its
 * keys, and the canvas drawing the simulation's frames meanwhile.
 *
 * Space, '.' and ',' act on the simulation wherever the focus is in the
 * canvas column (the canvas, the bar): a text field elsewhere keeps its
 * keys, which a window-wide accelerator would take.
 */
#include "flitlab-window-private.h"

static gboolean
simulate_shown (FlitlabWindow *self)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->side_stack), "simulate") == 0;
}

static void
side_page_changed (FlitlabWindow *self)
{
  gboolean shown = simulate_shown (self);

  gtk_revealer_set_reveal_child (self->transport_revealer, shown);
  flitlab_canvas_set_show_simulation (self->canvas, shown);
  /* Leaving the tab pauses: nothing moves where nobody looks. */
  if (!shown && self->document != NULL && flitlab_document_get_simulation (self->document) != NULL)
    flitlab_sim_session_set_playing (flitlab_document_get_simulation (self->document), FALSE);
}

static gboolean
transport_key (GtkWidget *widget,
               GVariant  *args,
               gpointer   user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  gint64 n = g_variant_get_int64 (args);

  if (!simulate_shown (self) || self->document == NULL)
    return FALSE;
  if (n == 0)
    flitlab_transport_bar_play_pause (self->transport_bar);
  else
    flitlab_transport_bar_step (self->transport_bar, n);
  return TRUE;
}

static void
add_key (GtkShortcutController *controller,
         FlitlabWindow         *self,
         guint                  key,
         gint64                 n)
{
  GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (key, 0),
                                            gtk_callback_action_new (transport_key, self, NULL));

  gtk_shortcut_set_arguments (shortcut, g_variant_new_int64 (n));
  gtk_shortcut_controller_add_shortcut (controller, shortcut);
}

void
flitlab_window_simulate_init (FlitlabWindow *self)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();

  add_key (GTK_SHORTCUT_CONTROLLER (keys), self, GDK_KEY_space, 0);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), self, GDK_KEY_period, 1);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), self, GDK_KEY_comma, -1);
  gtk_widget_add_controller (self->canvas_column, keys);

  g_object_bind_property (self->transport_bar, "flit-colour", self->canvas, "flit-colour", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->transport_bar, "heat-map", self->canvas, "heat-map", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->side_stack, "notify::visible-child-name", G_CALLBACK (side_page_changed), self,
                           G_CONNECT_SWAPPED);
  side_page_changed (self);
}
