/* flitlab-node-number.h — the number by which the application names a
 * switch or a host to the user.
 *
 * Every sentence, title and value that shows a node (the selection panel,
 * the routing panel, messages) goes through this one function, so that
 * what the user reads can follow the engine's own naming of nodes. */
#pragma once

#include "flitlab.h"

int flitlab_node_number (const FlTopology *topology,
                         int               node);
