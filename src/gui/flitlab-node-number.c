/* flitlab-node-number.c — the number by which a node is shown: a switch's
 * label, which no edit changes (deleting switch 9 leaves switch 10 numbered
 * 10), where the engine's id would renumber; a host's rank among the hosts,
 * since the labels of generated networks put hosts after the switches
 * (host 0 of an 8x8 torus is node 64) and a drawing numbers switches and
 * hosts in one sequence. */
#include "flitlab-node-number.h"

int
flitlab_node_number (const FlTopology *topology,
                     int               node)
{
  int label;

  if (fl_topology_node_kind (topology, node) == FL_NODE_HOST)
    return fl_topology_node_rank (topology, node);
  label = fl_topology_node_label (topology, node);
  return label >= 0 ? label : node;
}

char *
flitlab_node_name (const FlTopology *topology,
                   int               node)
{
  if (fl_topology_node_kind (topology, node) == FL_NODE_HOST)
    return g_strdup_printf ("h%d", flitlab_node_number (topology, node));
  return g_strdup_printf ("%d", flitlab_node_number (topology, node));
}

int
flitlab_node_from_number (const FlTopology *topology,
                          int               number)
{
  int node = fl_topology_find_label (topology, number);

  return node >= 0 && fl_topology_node_kind (topology, node) == FL_NODE_SWITCH ? node : -1;
}

char *
flitlab_channel_name (const FlTopology *topology,
                      int               channel)
{
  g_autofree char *src = flitlab_node_name (topology, fl_topology_channel_src (topology, channel));
  g_autofree char *dst = flitlab_node_name (topology, fl_topology_channel_dst (topology, channel));

  return g_strdup_printf ("%s → %s", src, dst);
}
