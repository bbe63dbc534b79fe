/* flitlab-routed.c — a routing and its analysis, shared read-only. */

#include <glib/gi18n.h>

#include "flitlab-node-number.h"
#include "flitlab-routed.h"

G_DEFINE_BOXED_TYPE (FlitlabRouted, flitlab_routed, flitlab_routed_ref, flitlab_routed_unref)
G_DEFINE_QUARK (flitlab-routed-error-quark, flitlab_routed_error)

FlitlabRouted *
flitlab_routed_new (FlTopology              *topology,
                    const char              *routing_name,
                    const FlRoutingOptions  *opt,
                    GError                 **error)
{
  g_autoptr(FlitlabRouted) self = g_new0 (FlitlabRouted, 1);
  FlError err = { 0 };

  g_return_val_if_fail (topology != NULL, NULL);
  g_return_val_if_fail (routing_name != NULL, NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->topology = topology;
  self->routing_name = g_strdup (routing_name);

  if (fl_routing_new (topology, routing_name, opt, &self->routing, &err) != FL_OK ||
      fl_routing_analyze (self->routing, &self->report, &err) != FL_OK ||
      fl_routing_prohibited_turns (self->routing, &self->prohibited, &self->n_prohibited,
                                   &err) != FL_OK)
    {
      g_set_error_literal (error, FLITLAB_ROUTED_ERROR, err.code,
                           err.message[0] ? err.message : fl_strerror (err.code));
      return NULL;
    }

  return g_steal_pointer (&self);
}

FlitlabRouted *
flitlab_routed_ref (FlitlabRouted *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
flitlab_routed_unref (FlitlabRouted *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  fl_routing_report_clear (&self->report);
  /* The routing refers to the topology: free it first. */
  fl_routing_free (self->routing);
  fl_topology_free (self->topology);
  free (self->prohibited);
  g_free (self->routing_name);
  g_free (self);
}

gboolean
flitlab_routed_turn_prohibited (FlitlabRouted *self,
                                int            sw,
                                int            in_port,
                                int            out_port)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->routing && fl_routing_turn_prohibited (self->routing, sw, in_port, out_port);
}

void
flitlab_describe_cycle_parts (const FlTopology *t,
                              const int        *channels,
                              int               n,
                              GString          *switches,
                              GString          *turns)
{
  for (int i = 0; i < n; i++)
    {
      int c = channels[i];
      int next = channels[(i + 1) % n];
      int sw = fl_topology_channel_dst (t, c);
      int a, pa, b, pb, in_port, out_port;

      /* The turn a packet makes at sw: in on channel c, out on next. */
      fl_topology_link_ends (t, c >> 1, &a, &pa, &b, &pb);
      in_port = (c & 1) ? pa : pb;
      fl_topology_link_ends (t, next >> 1, &a, &pa, &b, &pb);
      out_port = (next & 1) ? pb : pa;

      g_string_append_printf (switches, "%s%d", i ? " → " : "",
                              flitlab_node_number (t, fl_topology_channel_src (t, c)));
      if (i > 0)
        g_string_append (turns, ", ");
      /* Translators: a turn of a dependency cycle: the switch's number, then
       * the port a packet enters by and the port it leaves by. */
      g_string_append_printf (turns, _("%d (port %d → %d)"), flitlab_node_number (t, sw), in_port, out_port);
    }
  if (n > 0)
    g_string_append_printf (switches, " → %d",
                            flitlab_node_number (t, fl_topology_channel_src (t, channels[0])));
}

char *
flitlab_routed_describe_cycle (FlitlabRouted *self)
{
  const FlRoutingReport *rep;
  g_autoptr(GString) switches = NULL;
  g_autoptr(GString) turns = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  rep = &self->report;
  if (rep->deadlock_free || rep->cycle_len == 0)
    return NULL;

  switches = g_string_new (NULL);
  turns = g_string_new (NULL);
  flitlab_describe_cycle_parts (self->topology, rep->cycle_channels, rep->cycle_len, switches, turns);
  /* Translators: the first %s is a list of switches, the second a list of
   * turns such as "3 (port 0 → 2), 4 (port 1 → 3)". */
  return g_strdup_printf (_("A channel dependency cycle runs through switches %s; it is "
                            "closed by the turns at %s. Packets can wait on each other "
                            "around it forever: the routing can deadlock."),
                          switches->str, turns->str);
}

char *
flitlab_describe_deadlock (const FlTopology *t,
                           const int        *channels,
                           int               n)
{
  g_autoptr(GString) switches = g_string_new (NULL);
  g_autoptr(GString) turns = g_string_new (NULL);

  if (n == 0)
    return g_strdup (_("No flit has moved for the watchdog's whole period: the network is deadlocked."));
  flitlab_describe_cycle_parts (t, channels, n, switches, turns);
  /* Translators: the first %s is a list of switches such as "0 → 1 → 2 → 0",
   * the second a list of turns such as "1 (port 0 → 2), 2 (port 0 → 2)". */
  return g_strdup_printf (_("The packets on the channels of switches %s each wait for the next "
                            "channel of this cycle, closed by the turns at %s: none of them can "
                            "ever move again."),
                          switches->str, turns->str);
}
