/* flitlab-window-private.h — the window's state, shared by
 * flitlab-window.c (the project, the canvas, the routing and the workers) and
 * flitlab-window-actions.c (the actions and their dialogs). */
#pragma once

#include "flitlab-metrics-panel.h"
#include "flitlab-routing-panel.h"
#include "flitlab-selection-panel.h"
#include "flitlab-store.h"
#include "flitlab-topology-list.h"
#include "flitlab-window.h"

G_BEGIN_DECLS

struct _FlitlabWindow
{
  AdwApplicationWindow parent_instance;

  /* Template children. */
  AdwToastOverlay *toast_overlay;
  AdwWindowTitle *window_title;
  AdwFlap *flap;
  GtkSpinner *spinner;
  GtkStack *content_stack;
  FlitlabCanvas *canvas;
  GtkWidget *ports_box;
  GtkSpinButton *ports_spin;
  FlitlabTopologyList *topology_list;
  FlitlabGeneratorPanel *generator_panel;
  GtkStack *side_stack;
  FlitlabMetricsPanel *metrics_panel;
  FlitlabRoutingPanel *routing_panel;
  FlitlabSelectionPanel *selection_panel;

  /* The project's working copy: edits stay here until it is saved. */
  FlProject *project;
  /* The topology on the canvas (NULL: none), and whether the canvas holds
   * edits not yet written into the working copy. */
  char *topology_name;
  gboolean canvas_dirty;
  /* Edits are written back and re-measured once the user pauses. */
  guint edit_timeout_id;

  GCancellable *generate_cancellable;
  GCancellable *measure_cancellable;
  gboolean generating;
  gboolean measuring;
  gboolean busy;

  /* The routing of the network on the canvas is built in a worker whenever
   * the network, the routing or its options change; after edits, once the
   * user pauses. */
  GCancellable *route_cancellable;
  guint route_timeout_id;
  gboolean routing;
  /* The window itself is handing the canvas a routing: not a drop. */
  gboolean handing_routed;
};

/* A continuation for the questions asked before a project is replaced or
 * the window closes. */
typedef void (*FlitlabWindowThen) (FlitlabWindow *self);

/* flitlab-window.c */
void     flitlab_window_set_project        (FlitlabWindow  *self,
                                            FlProject      *project);
gboolean flitlab_window_commit_canvas      (FlitlabWindow  *self,
                                            GError        **error);
void     flitlab_window_refresh_list       (FlitlabWindow  *self);
void     flitlab_window_show_nothing       (FlitlabWindow  *self);
void     flitlab_window_update_title       (FlitlabWindow  *self);
void     flitlab_window_toast              (FlitlabWindow  *self,
                                            const char     *message);
/* Stores topology (owned) under base, made unique, and shows it. */
gboolean flitlab_window_add_topology       (FlitlabWindow  *self,
                                            const char     *base,
                                            FlTopology     *topology,
                                            GError        **error);

/* flitlab-window-actions.c */
void     flitlab_window_actions_init       (FlitlabWindow  *self);
void     flitlab_window_update_actions     (FlitlabWindow  *self);
/* Asks Save / Discard / Cancel when there are unsaved changes, then runs
 * then unless the user cancelled or saving failed. */
void     flitlab_window_confirm_discard    (FlitlabWindow  *self,
                                            FlitlabWindowThen then);

G_END_DECLS
