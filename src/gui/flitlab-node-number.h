/* flitlab-node-number.h — the number by which the application names a
 * switch or a host to the user.
 *
 * Every sentence, title and value that shows a node (the selection panel,
 * the routing panel, messages) goes through this one function, so that
 * what the user reads is the node's label, which stays the same across
 * edits, rather than its id. */
#pragma once

#include "flitlab.h"

int flitlab_node_number (const FlTopology *topology,
                         int               node);

/* The node shown as number, or -1 if none is. */
int flitlab_node_from_number (const FlTopology *topology,
                              int               number);
