/* flitlab-topology-list.h — the project's topologies in the sidebar: name,
 * family and size of each; selecting one shows it. */
#pragma once

#include <adwaita.h>

#include "flitlab-store.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_TOPOLOGY_LIST (flitlab_topology_list_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabTopologyList, flitlab_topology_list, FLITLAB, TOPOLOGY_LIST, GtkWidget)

GtkWidget *flitlab_topology_list_new       (void);
/* Replaces the rows by items (copied), keeping the selection by name. */
void       flitlab_topology_list_set_items (FlitlabTopologyList         *self,
                                            const FlProjectTopologyInfo *items,
                                            int                          n_items);
/* Updates the row called info->name, or appends one: cheaper than
 * set_items after an edit, which changes one topology only. */
void       flitlab_topology_list_set_item  (FlitlabTopologyList         *self,
                                            const FlProjectTopologyInfo *info);
/* Selects the row called name (NULL: none) without emitting
 * ::topology-selected. */
void       flitlab_topology_list_select    (FlitlabTopologyList         *self,
                                            const char                  *name);

G_END_DECLS
