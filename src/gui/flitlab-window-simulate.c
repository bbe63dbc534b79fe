/* flitlab-window-simulate.c — watching a simulation in the window: the
 * transport bar under the canvas while the Simulate tab is shown, its
 * keys, and the canvas drawing the simulation's frames meanwhile.
 *
 * Space, '.' and ',' act on the simulation wherever the focus is in the
 * canvas column (the canvas, the bar): a text field elsewhere keeps its
 * keys, which a window-wide accelerator would take.
 */
#include <glib/gi18n.h>
#include <inttypes.h>

#include "flitlab-window-private.h"

static gboolean
simulate_shown (FlitlabWindow *self)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->side_stack), "simulate") == 0;
}

/* The pane under the tabs gets the room the live plots and the inspector
 * need while the Simulate tab shows, and gives it back after. */
static void
make_room_below (FlitlabWindow *self,
                 gboolean       shown)
{
  GtkWidget *paned = gtk_widget_get_ancestor (GTK_WIDGET (self->sim_inspector), GTK_TYPE_PANED);
  int height = paned != NULL ? gtk_widget_get_height (paned) : 0;
  int *kept = paned != NULL ? g_object_get_data (G_OBJECT (paned), "flitlab-position") : NULL;

  if (paned == NULL || height <= 0)
    return;
  if (shown && kept == NULL)
    {
      kept = g_new (int, 1);
      *kept = gtk_paned_get_position (GTK_PANED (paned));
      g_object_set_data_full (G_OBJECT (paned), "flitlab-position", kept, g_free);
      gtk_paned_set_position (GTK_PANED (paned), MIN (*kept, MAX (200, height / 3)));
    }
  else if (!shown && kept != NULL)
    {
      gtk_paned_set_position (GTK_PANED (paned), *kept);
      g_object_set_data (G_OBJECT (paned), "flitlab-position", NULL);
    }
}

static void
side_page_changed (FlitlabWindow *self)
{
  gboolean shown = simulate_shown (self);

  make_room_below (self, shown);
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

gboolean
flitlab_window_show_network_spec (FlitlabWindow *self,
                                  const char    *spec,
                                  GError       **error)
{
  FlTopology *topology = NULL;
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

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
  else if ((ok = flitlab_window_show_network_spec (self, p->spec, error)))
    {
      flitlab_document_set_request (self->document, request);
      flitlab_document_set_sim_settings (self->document, &settings);
      gtk_stack_set_visible_child_name (self->side_stack, "simulate");
      flitlab_transport_bar_set_note (self->transport_bar, fl_gettext (p->description));
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
    flitlab_window_alert (self, error->message);
}

/* Export Animation ------------------------------------------------------------------ */

/* What an export job takes: the session (keeping its network and
 * configuration alive) and the animation's settings, drawn on a simulation
 * of its own so the one watched stays where it is. */
typedef struct
{
  FlitlabSimSession *session;
  FlDrawAnimation animation;
  FlDrawOptions options;
  char *path;
} ExportData;

static void
export_data_free (gpointer user_data)
{
  ExportData *data = user_data;

  g_object_unref (data->session);
  g_free (data->path);
  g_free (data);
}

/* The deflection model watched, run again on a model of its own. */
static gpointer
export_deflect_job (ExportData  *data,
                    GError     **error)
{
  const FlTopology *t = flitlab_sim_session_get_topology (data->session);
  FlDeflect *deflect = NULL;
  FlError err = { 0 };
  int frames = 0;

  if (fl_deflect_new (t, flitlab_sim_session_get_deflect_config (data->session), &deflect, &err) != FL_OK
      || fl_draw_animate_deflect (deflect, t, &data->animation, &frames, &err) != FL_OK)
    {
      fl_deflect_free (deflect);
      flitlab_set_engine_error (error, &err);
      return NULL;
    }
  fl_deflect_free (deflect);
  return GINT_TO_POINTER (frames);
}

static gpointer
export_job (FlitlabJob  *job,
            gpointer     user_data,
            GError     **error)
{
  ExportData *data = user_data;
  const FlSim *watched = flitlab_sim_session_get_sim (data->session);
  FlSim *sim = NULL;
  FlError err = { 0 };
  int frames = 0;

  data->animation.progress = flitlab_job_progress;
  data->animation.progress_data = job;
  if (watched == NULL)
    return export_deflect_job (data, error);
  if (fl_sim_new (flitlab_sim_session_get_topology (data->session), fl_sim_config (watched), &sim, &err) != FL_OK
      || fl_draw_animate (sim, flitlab_sim_session_get_topology (data->session), &data->animation, &frames, &err)
           != FL_OK)
    {
      fl_sim_free (sim);
      flitlab_set_engine_error (error, &err);
      return NULL;
    }
  fl_sim_free (sim);
  return GINT_TO_POINTER (frames);
}

static void
export_done (gpointer      user_data,
             gpointer      result,
             const GError *error)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  g_autofree char *message = NULL;

  if (error != NULL)
    message = g_strdup_printf (_("Could not export the animation: %s"), error->message);
  else
    /* Translators: the number of pictures written. */
    message = g_strdup_printf (ngettext ("Animation saved: %d frame", "Animation saved: %d frames",
                                         GPOINTER_TO_INT (result)),
                               GPOINTER_TO_INT (result));
  /* Stopped by the user, who needs only to be told: no failure. */
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    flitlab_window_alert_full (self, _("Could Not Export the Animation"), message);
  else
    flitlab_window_toast (self, message);
}

gboolean
flitlab_window_export_animation (FlitlabWindow *self,
                                 const char    *path,
                                 gint64         from,
                                 gint64         to,
                                 gint64         step,
                                 gboolean       png_sequence,
                                 GError       **error)
{
  FlitlabSimSession *session = flitlab_canvas_get_show_simulation (self->canvas) && self->document != NULL
                                 ? flitlab_document_get_simulation (self->document)
                                 : NULL;
  ExportData *data;

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  if (session == NULL)
    {
      g_set_error_literal (error, FLITLAB_SIM_SESSION_ERROR, FL_EINVAL,
                           _("There is no simulation to export: press Play in the Simulate tab first."));
      return FALSE;
    }
  if (from < 0 || to < from || step < 1)
    {
      g_set_error (error, FLITLAB_SIM_SESSION_ERROR, FL_ERANGE,
                   _("The cycles to export must run forwards: from %" PRId64 " to %" PRId64
                     " every %" PRId64 " is not a range."),
                   from, to, step);
      return FALSE;
    }
  data = g_new0 (ExportData, 1);
  data->session = g_object_ref (session);
  data->path = g_strdup (path);
  fl_draw_animation_init (&data->animation);
  data->animation.path = data->path;
  data->animation.png_sequence = png_sequence;
  data->animation.from = from;
  data->animation.to = to;
  data->animation.step = step;
  /* What the canvas shows: its size, its view, its colours. */
  data->animation.width = MAX (gtk_widget_get_width (GTK_WIDGET (self->canvas)), 64);
  data->animation.height = MAX (gtk_widget_get_height (GTK_WIDGET (self->canvas)), 64);
  fl_draw_options_init (&data->options);
  flitlab_canvas_get_view (self->canvas, &data->options.view);
  data->animation.options = &data->options;
  g_object_get (self->canvas, "flit-colour", &data->animation.flits.colour, NULL);
  data->animation.deflect.colour = data->animation.flits.colour;
  data->animation.flits.palette = flitlab_canvas_get_flit_palette (self->canvas);
  data->animation.deflect.palette = data->animation.flits.palette;
  /* Translators: the legend of a deflection frame: a message whose last hop was not towards its destination. */
  data->animation.deflect.deflected_label = _("deflected");
  /* Translators: the legend of a deflection frame: the number beside a switch. */
  data->animation.deflect.waiting_label = _("messages waiting at their source");
  if (flitlab_sim_session_get_sim (session) != NULL)
    data->animation.flits.link_latency = MAX (1, fl_sim_config (flitlab_sim_session_get_sim (session))->link_latency);
  flitlab_workers_run (self->workers, FLITLAB_JOB_EXPORT, export_job, data, export_data_free, NULL, NULL,
                       export_done, self);
  return TRUE;
}

/* The dialog: the range and the format, then where. */
typedef struct
{
  FlitlabWindow *self;
  GtkSpinButton *from, *to, *step;
  GtkDropDown *format;
  gint64 range[3];
  gboolean png_sequence;
} ExportAsk;

static void
export_path_chosen (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  static const char * const gif[] = { ".gif", NULL };
  ExportAsk *ask = user_data;
  g_autofree char *path = flitlab_window_chosen_path (dialog, response, ask->png_sequence ? NULL : gif);
  g_autoptr(GError) error = NULL;

  if (path != NULL
      && !flitlab_window_export_animation (ask->self, path, ask->range[0], ask->range[1], ask->range[2],
                                           ask->png_sequence, &error))
    flitlab_window_alert_full (ask->self, _("Could Not Export the Animation"), error->message);
  g_object_unref (dialog);
  g_free (ask);
}

static void
export_range_chosen (AdwMessageDialog *dialog,
                     const char       *response,
                     gpointer          user_data)
{
  ExportAsk *ask = user_data;
  GtkFileChooserNative *chooser;

  if (!g_str_equal (response, "export"))
    {
      g_free (ask);
      return;
    }
  ask->range[0] = gtk_spin_button_get_value_as_int (ask->from);
  ask->range[1] = gtk_spin_button_get_value_as_int (ask->to);
  ask->range[2] = gtk_spin_button_get_value_as_int (ask->step);
  ask->png_sequence = gtk_drop_down_get_selected (ask->format) == 1;
  chooser = gtk_file_chooser_native_new (ask->png_sequence ? _("Export Frames into a Folder") : _("Export Animation"),
                                         GTK_WINDOW (ask->self),
                                         ask->png_sequence ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
                                                           : GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  if (!ask->png_sequence)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), _("animation.gif"));
  g_signal_connect (chooser, "response", G_CALLBACK (export_path_chosen), ask);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static GtkSpinButton *
add_spin (GtkGrid    *grid,
          int         row,
          const char *label,
          double      lower,
          double      upper,
          double      value)
{
  GtkWidget *title = gtk_label_new_with_mnemonic (label);
  GtkWidget *spin = gtk_spin_button_new_with_range (lower, MAX (lower, upper), 1);

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  gtk_label_set_mnemonic_widget (GTK_LABEL (title), spin);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_grid_attach (grid, title, 0, row, 1, 1);
  gtk_grid_attach (grid, spin, 1, row, 1, 1);
  return GTK_SPIN_BUTTON (spin);
}

static void
export_animation_action (GSimpleAction *action,
                         GVariant      *param,
                         gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  FlitlabSimSession *session = self->document != NULL ? flitlab_document_get_simulation (self->document) : NULL;
  static const char * const formats[] = { N_("Animated GIF"), N_("PNG sequence"), NULL };
  g_autoptr(GtkStringList) format_names = gtk_string_list_new (NULL);
  GtkWidget *dialog, *grid;
  ExportAsk *ask;
  gint64 cycle, max;

  if (session == NULL || !flitlab_canvas_get_show_simulation (self->canvas))
    {
      flitlab_window_toast (self, _("There is no simulation to export: press Play in the Simulate tab first."));
      return;
    }
  cycle = flitlab_sim_session_get_cycle (session);
  max = flitlab_sim_session_get_max_cycle (session);
  ask = g_new0 (ExportAsk, 1);
  ask->self = self;
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Export Animation"),
                                   _("The cycles drawn as they are on the canvas, each frame with its cycle "
                                     "counter."));
  grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  ask->from = add_spin (GTK_GRID (grid), 0, _("_From cycle"), 0, G_MAXINT32, MAX (0, cycle - 100));
  ask->to = add_spin (GTK_GRID (grid), 1, _("_To cycle"), 0, G_MAXINT32, MAX (cycle, MIN (max, 100)));
  ask->step = add_spin (GTK_GRID (grid), 2, _("_Every"), 1, 100000, 1);
  for (int i = 0; formats[i] != NULL; i++)
    gtk_string_list_append (format_names, _(formats[i]));
  ask->format = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (format_names)), NULL));
  gtk_grid_attach (GTK_GRID (grid), gtk_label_new (_("Format")), 0, 3, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (ask->format), 1, 3, 1, 1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), grid);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "export", _("_Export…"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "export", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "export");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (export_range_chosen), ask);
  gtk_window_present (GTK_WINDOW (dialog));
}

static const GActionEntry simulate_actions[] = {
  { .name = "sim-preset", .activate = preset_action, .parameter_type = "s" },
  { .name = "export-animation", .activate = export_animation_action },
};

void
flitlab_window_simulate_init (FlitlabWindow *self)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (self), simulate_actions, G_N_ELEMENTS (simulate_actions), self);

  /* Named so that a test finds Flitlab's keys among GTK's own. */
  gtk_event_controller_set_name (keys, "flitlab-transport-keys");
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
