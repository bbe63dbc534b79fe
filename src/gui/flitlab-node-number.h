/* flitlab-node-number.h — the number by which the application names a
 * switch or a host to the user.
 *
 * Every sentence, title and value that shows a node (the selection panel,
 * the routing panel, messages) goes through these functions. Switches and
 * hosts are numbered apart, as a class counts them: a switch by its label,
 * which stays the same across edits, rather than its id; a host by its
 * place among the hosts, 0 to H - 1, the number the command line, traffic
 * traces and the collectives give it. Where a number stands alone (a
 * channel "h3 → 0") a host's carries an "h". */
#pragma once

#include <glib.h>

#include "flitlab.h"

/* A switch's label, or a host's place among the hosts. */
int flitlab_node_number (const FlTopology *topology,
                         int               node);

/* "3" for switch 3, "h3" for host 3: a node named by its number alone. */
char *flitlab_node_name (const FlTopology *topology,
                         int               node);

/* The switch shown as number, or -1 if none is. */
int flitlab_node_from_number (const FlTopology *topology,
                              int               number);

/* "h3 → 0": a channel by the names of the nodes at its ends. */
char *flitlab_channel_name (const FlTopology *topology,
                            int               channel);
