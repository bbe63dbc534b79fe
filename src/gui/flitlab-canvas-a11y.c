/* flitlab-canvas-a11y.c — what the drawing shows, said to assistive
 * technologies: the network, the selected switch, host or link, and the
 * simulation shown (its cycle and status), as the canvas' accessible
 * description. It is rebuilt when any of them changes and passed on only
 * when the sentence differs, so a playing simulation does not flood the
 * accessibility bus with repeats. */
#include <glib/gi18n.h>

#include "flitlab-canvas-private.h"
#include "flitlab-node-number.h"
#include "flitlab-sim-session.h"

char *
flitlab_canvas_describe (FlitlabCanvas *self)
{
  const FlTopology *t = flitlab_document_get_topology (self->document);
  FlitlabSimSession *session = flitlab_canvas_shown_simulation (self);
  GString *s;
  int node = -1, link = -1;

  if (t == NULL)
    return g_strdup (_("No network"));
  s = g_string_new (NULL);
  /* Translators: the drawing's description for screen readers. */
  g_string_append_printf (s, _("%s: %d switches, %d hosts."), flitlab_document_get_name (self->document),
                          fl_topology_switch_count (t), fl_topology_host_count (t));
  flitlab_document_get_selection (self->document, &node, &link);
  if (node >= 0)
    {
      g_autofree char *name = flitlab_node_name (t, node);

      g_string_append_c (s, ' ');
      g_string_append_printf (s, _("Selected: %s."), name);
    }
  else if (link >= 0)
    {
      int a = -1, b = -1;

      if (fl_topology_link_ends (t, link, &a, NULL, &b, NULL) == FL_OK)
        {
          g_autofree char *from = flitlab_node_name (t, a);
          g_autofree char *to = flitlab_node_name (t, b);

          g_string_append_c (s, ' ');
          g_string_append_printf (s, _("Selected: the link %s–%s."), from, to);
        }
    }
  if (session != NULL)
    {
      g_autofree char *cycle = g_strdup_printf ("%'" G_GINT64_FORMAT, flitlab_sim_session_get_cycle (session));

      g_string_append_c (s, ' ');
      /* Translators: %s is a cycle number, then a status (ok, deadlock...). */
      g_string_append_printf (s, _("Simulation at cycle %s: %s."), cycle,
                              fl_sim_status_name (flitlab_sim_session_get_status (session)));
    }
  return g_string_free (s, FALSE);
}

static void
update_description (FlitlabCanvas *self)
{
  g_autofree char *text = flitlab_canvas_describe (self);

  if (g_strcmp0 (text, self->description) == 0)
    return;
  g_free (self->description);
  self->description = g_steal_pointer (&text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  self->description, -1);
}

void
flitlab_canvas_a11y_init (FlitlabCanvas *self)
{
  static const char *document_signals[] = {
    "topology-edited", "selection-changed", "notify::simulation", "notify::name",
  };

  for (guint i = 0; i < G_N_ELEMENTS (document_signals); i++)
    g_signal_group_connect_swapped (self->document_signals, document_signals[i],
                                    G_CALLBACK (update_description), self);
  g_signal_connect_swapped (self->document_signals, "bind", G_CALLBACK (update_description), self);
  g_signal_group_connect_swapped (self->simulation_signals, "stepped", G_CALLBACK (update_description), self);
  g_signal_group_connect_swapped (self->simulation_signals, "notify::status",
                                  G_CALLBACK (update_description), self);
}
