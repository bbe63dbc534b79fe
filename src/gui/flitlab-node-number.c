/* flitlab-node-number.c — the number by which a node is shown: its label,
 * which no edit changes (deleting switch 9 leaves switch 10 numbered 10),
 * where the engine's id would renumber. */
#include "flitlab-node-number.h"

int
flitlab_node_number (const FlTopology *topology,
                     int               node)
{
  int label = fl_topology_node_label (topology, node);

  return label >= 0 ? label : node;
}

int
flitlab_node_from_number (const FlTopology *topology,
                          int               number)
{
  return fl_topology_find_label (topology, number);
}
