/* flitlab-window-simulate.c — watching a simulation in the window: the
 * transport bar under the canvas while the Simulate tab is shown, its
 * keys, and the canvas drawing the simulation's frames meanwhile.
 *
 * Space, '.' and ',' act on the simulation wherever the focus is in the
 * canvas column (the canvas, the bar): a text field elsewhere keeps its
 * keys, which a window-wide accelerator would take.
 */
#include <glib/gi18n.h>

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
  gtk_widget_set_visible (GTK_WIDGET (self->sim_inspector), shown);
  gtk_widget_set_visible (GTK_WIDGET (self->selection_panel), !shown);
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

/* Presets -------------------------------------------------------------------------- */

/* The preset's routing request: its routing and options ("classes=2"). */
static FlitlabRoutingRequest *
preset_request (const FlSimPreset *p,
                GError           **error)
{
  g_autoptr(FlitlabRoutingRequest) request = flitlab_routing_request_new (p->routing);
  g_auto(GStrv) words = g_strsplit (p->routing_options, " ", -1);

  for (int i = 0; words[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (words[i], "=", 2);
      FlError err = { 0 };

      if (words[i][0] == '\0')
        continue;
      if (pair[1] == NULL || !flitlab_routing_request_set_option (request, pair[0], pair[1], &err))
        {
          g_set_error (error, FLITLAB_SIM_SESSION_ERROR, FL_EINVAL, "preset %s: routing option %s: %s", p->name,
                       words[i], pair[1] == NULL ? "not KEY=VALUE" : err.message);
          return NULL;
        }
    }
  return g_steal_pointer (&request);
}

/* Shows the project's network called spec, made from spec if there is
 * none: a preset's network is found again the next time. */
static gboolean
show_preset_network (FlitlabWindow *self,
                     const char    *spec,
                     GError       **error)
{
  FlTopology *topology = NULL;
  FlError err = { 0 };

  if (flitlab_window_show_topology (self, spec, NULL))
    return TRUE;
  if (fl_topology_from_spec (spec, &topology, &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  return flitlab_window_add_topology (self, spec, topology, error);
}

gboolean
flitlab_window_apply_preset (FlitlabWindow *self,
                             const char    *name,
                             GError       **error)
{
  const FlSimPreset *p = fl_sim_preset_lookup (name);
  g_autoptr(FlitlabRoutingRequest) request = NULL;
  FlSimSettings settings;
  FlRoutingOptions ro;
  FlError err = { 0 };
  gboolean ok;

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  if (p == NULL)
    {
      g_set_error (error, FLITLAB_SIM_SESSION_ERROR, FL_ENOTFOUND, _("No preset is called %s."), name);
      return FALSE;
    }
  request = preset_request (p, error);
  if (request == NULL)
    return FALSE;
  fl_sim_settings_init (&settings);
  fl_routing_options_init (&ro);
  ok = fl_sim_preset_apply (p, &settings, &ro, &err) == FL_OK;
  fl_routing_options_clear (&ro);
  if (!ok)
    flitlab_set_engine_error (error, &err);
  else if ((ok = show_preset_network (self, p->spec, error)))
    {
      flitlab_document_set_request (self->document, request);
      flitlab_document_set_sim_settings (self->document, &settings);
      gtk_stack_set_visible_child_name (self->side_stack, "simulate");
      flitlab_transport_bar_set_note (self->transport_bar, p->description);
    }
  fl_sim_settings_clear (&settings);
  return ok;
}

static void
preset_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  g_autoptr(GError) error = NULL;

  if (!flitlab_window_apply_preset (self, g_variant_get_string (param, NULL), &error))
    flitlab_window_toast (self, error->message);
}

static const GActionEntry simulate_actions[] = {
  { .name = "sim-preset", .activate = preset_action, .parameter_type = "s" },
};

void
flitlab_window_simulate_init (FlitlabWindow *self)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (self), simulate_actions, G_N_ELEMENTS (simulate_actions), self);

  add_key (GTK_SHORTCUT_CONTROLLER (keys), self, GDK_KEY_space, 0);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), self, GDK_KEY_period, 1);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), self, GDK_KEY_comma, -1);
  gtk_widget_add_controller (self->canvas_column, keys);

  g_object_bind_property (self->transport_bar, "flit-colour", self->canvas, "flit-colour", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->transport_bar, "heat-map", self->canvas, "heat-map", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->sim_inspector, "packet", self->canvas, "inspected-packet",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->side_stack, "notify::visible-child-name", G_CALLBACK (side_page_changed), self,
                           G_CONNECT_SWAPPED);
  side_page_changed (self);
}
