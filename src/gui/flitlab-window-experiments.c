/* flitlab-window-experiments.c — the Experiments view in the window: the
 * tabs (Alt+1..5: the network's side tabs, or the project's experiments),
 * the new-experiment dialog on the network shown, and a run opened from
 * the runs table set up in the Simulate tab, ready to watch.
 */
#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdlib.h>

#include "flitlab-exp.h"
#include "flitlab-experiment-dialog.h"
#include "flitlab-multicast-page.h"
#include "flitlab-window-private.h"

/* win.tab: "experiments" shows the project's experiments; any other name
 * the network, with that side tab. */
static void
tab_action (GSimpleAction *action,
            GVariant      *parameter,
            gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  const char *name = g_variant_get_string (parameter, NULL);

  /* Asking for a view of the project ends the welcome. */
  flitlab_window_set_welcome (self, FALSE);
  if (g_str_equal (name, "experiments"))
    {
      gtk_stack_set_visible_child_name (self->main_stack, "experiments");
      return;
    }
  gtk_stack_set_visible_child_name (self->main_stack, "network");
  gtk_stack_set_visible_child_name (self->side_stack, name);
}

static void
dialog_created_cb (FlitlabWindow *self,
                   const char    *name)
{
  flitlab_experiments_view_refresh (self->experiments_view);
  flitlab_experiments_view_select (self->experiments_view, name);
  gtk_stack_set_visible_child_name (self->main_stack, "experiments");
}

FlitlabExperimentDialog *
flitlab_window_new_experiment (FlitlabWindow *self)
{
  FlProject *project = flitlab_window_get_project (self);
  FlitlabExperimentDialog *dialog;

  if (fl_project_path (project) == NULL)
    {
      flitlab_window_toast (self, _("Experiments are kept in the project file: save the project first"));
      return NULL;
    }
  if (self->document == NULL)
    {
      flitlab_window_toast (self, _("Show a network to experiment on"));
      return NULL;
    }
  dialog = flitlab_experiment_dialog_new (GTK_WINDOW (self), project, self->document);
  g_signal_connect_object (dialog, "created", G_CALLBACK (dialog_created_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
new_experiment_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  flitlab_window_new_experiment (FLITLAB_WINDOW (user_data));
}

/* Opening a run ----------------------------------------------------------------- */

/* The request for routing with every option of ro the routing takes. */
static FlitlabRoutingRequest *
request_for (const char             *routing,
             const FlRoutingOptions *ro)
{
  FlitlabRoutingRequest *request = flitlab_routing_request_new (routing);

  for (int i = 0; i < fl_routing_option_count (); i++)
    {
      const FlOptionInfo *info = fl_routing_option (i);
      char text[4096];

      if (!flitlab_routing_takes (routing, info->name)
          || fl_routing_options_format (ro, info->name, text, sizeof text) < 0)
        continue;
      flitlab_routing_request_set_option (request, info->name, text, NULL);
    }
  return request;
}

/* Shows the network an experiment runs on: the project's network it was
 * made from ("#NAME"), or the one of its spec. */
static gboolean
show_experiment_network (FlitlabWindow             *self,
                         const FlProjectExperiment *e,
                         GError                   **error)
{
  if (e->topology[0] == '#')
    return flitlab_window_show_topology (self, e->topology + 1, error);
  return flitlab_window_show_network_spec (self, e->topology, error);
}

gboolean
flitlab_window_open_run (FlitlabWindow  *self,
                         const char     *experiment,
                         gint64          idx,
                         GError        **error)
{
  FlProjectExperiment e = { 0 };
  FlExpDesign *design = NULL;
  FlSimSettings settings;
  FlRoutingOptions ro;
  const char *routing = NULL;
  FlError err = { 0 };
  gboolean ok;

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  fl_sim_settings_init (&settings);
  fl_routing_options_init (&ro);
  ok = fl_project_get_experiment (flitlab_window_get_project (self), experiment, &e, &err) == FL_OK
       && fl_exp_design_parse (e.design, &design, &err) == FL_OK
       && fl_exp_design_apply (design, idx, &settings, &ro, &routing, &err) == FL_OK;
  if (!ok)
    flitlab_set_engine_error (error, &err);
  else
    ok = show_experiment_network (self, &e, error);
  if (ok)
    {
      g_autoptr(FlitlabRoutingRequest) request = NULL;
      g_autofree char *note = NULL;

      if (routing != NULL)
        {
          request = request_for (routing, &ro);
          flitlab_document_set_request (self->document, request);
        }
      flitlab_document_set_sim_settings (self->document, &settings);
      gtk_stack_set_visible_child_name (self->main_stack, "network");
      if (settings.model == FL_SIM_MODEL_MULTICAST)
        {
          /* A multicast is watched on its own page: its tree, its timing
           * and, with Simulate, its messages flit by flit. */
          GtkWidget *page = flitlab_collectives_panel_get_page (self->collectives_panel, "multicast");

          gtk_stack_set_visible_child_name (self->side_stack, "collectives");
          flitlab_collectives_panel_set_kind (self->collectives_panel, "multicast");
          flitlab_multicast_page_show_settings (FLITLAB_MULTICAST_PAGE (page), &settings);
          /* Translators: a toast: an experiment's multicast run shown on the Collectives tab. */
          note = g_strdup_printf (_("Run %" PRId64 " of “%s”: press Simulate to run its messages"),
                                  idx, experiment);
          flitlab_window_toast (self, note);
        }
      else
        {
          gtk_stack_set_visible_child_name (self->side_stack, "simulate");
          /* Translators: the sentence under the transport bar: an experiment's
           * run set up to be watched. */
          note = g_strdup_printf (_("Run %" PRId64 " of “%s”: press Play to watch it"), idx, experiment);
          flitlab_transport_bar_set_note (self->transport_bar, note);
        }
    }
  fl_routing_options_clear (&ro);
  fl_sim_settings_clear (&settings);
  fl_exp_design_free (design);
  fl_project_experiment_clear (&e);
  return ok;
}

static void
open_run_cb (FlitlabWindow *self,
             const char    *experiment,
             gint64         idx)
{
  g_autoptr(GError) error = NULL;

  if (!flitlab_window_open_run (self, experiment, idx, &error))
    flitlab_window_alert_full (self, _("Could Not Open the Run"), error->message);
}

static void
main_page_changed (FlitlabWindow *self)
{
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "experiments") == 0)
    {
      self->flap_was_revealed = adw_flap_get_reveal_flap (self->flap);
      adw_flap_set_reveal_flap (self->flap, FALSE);
    }
  else if (self->flap_was_revealed)
    adw_flap_set_reveal_flap (self->flap, TRUE);
}

static const GActionEntry experiment_actions[] = {
  { .name = "tab", .activate = tab_action, .parameter_type = "s" },
  { .name = "new-experiment", .activate = new_experiment_action },
};

void
flitlab_window_experiments_init (FlitlabWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), experiment_actions, G_N_ELEMENTS (experiment_actions),
                                   self);
  g_signal_connect_object (self->experiments_view, "open-run", G_CALLBACK (open_run_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->main_stack, "notify::visible-child-name", G_CALLBACK (main_page_changed), self,
                           G_CONNECT_SWAPPED);
  flitlab_window_update_actions (self);
}
