/* flitlab-window-private.h — the window's state, shared by
 * flitlab-window.c (the session, the document shown and the work done for
 * it) and flitlab-window-actions.c (the actions and their dialogs). */
#pragma once

#include "flitlab-collectives-panel.h"
#include "flitlab-lesson-panel.h"
#include "flitlab-experiments-view.h"
#include "flitlab-metrics-panel.h"
#include "flitlab-routing-panel.h"
#include "flitlab-selection-panel.h"
#include "flitlab-session.h"
#include "flitlab-sim-inspector.h"
#include "flitlab-simulate-panel.h"
#include "flitlab-store.h"
#include "flitlab-topology-list.h"
#include "flitlab-transport-bar.h"
#include "flitlab-welcome.h"
#include "flitlab-window.h"
#include "flitlab-workers.h"

G_BEGIN_DECLS

struct _FlitlabWindow
{
  AdwApplicationWindow parent_instance;

  /* Template children. */
  AdwToastOverlay *toast_overlay;
  AdwWindowTitle *window_title;
  AdwFlap *flap;
  GtkSpinner *spinner;
  GtkWidget *cancel_button;
  GtkStack *main_stack;
  FlitlabExperimentsView *experiments_view;
  GtkStack *content_stack;
  FlitlabCanvas *canvas;
  GtkWidget *ports_box;
  GtkSpinButton *ports_spin;
  FlitlabTopologyList *topology_list;
  FlitlabGeneratorPanel *generator_panel;
  GtkStack *side_stack;
  FlitlabMetricsPanel *metrics_panel;
  FlitlabRoutingPanel *routing_panel;
  FlitlabSimulatePanel *simulate_panel;
  FlitlabCollectivesPanel *collectives_panel;
  FlitlabSelectionPanel *selection_panel;
  GtkWidget *canvas_column;
  GtkRevealer *transport_revealer;
  FlitlabTransportBar *transport_bar;
  FlitlabSimInspector *sim_inspector;
  GtkStack *sidebar_stack;
  GtkWidget *sidebar_switcher;
  FlitlabLessonPanel *lesson_panel;
  GtkWidget *sidebar_button;
  GtkWidget *view_switcher;
  GtkWidget *welcome;

  /* The open project and a document for each network shown so far. */
  FlitlabSession *session;
  /* The document shown (NULL: none), and whether it holds edits not yet
   * written into the project's working copy. */
  FlitlabDocument *document;
  GSignalGroup *document_signals;
  gboolean document_dirty;
  /* A routing choice changed since the project was saved. */
  gboolean settings_dirty;
  /* Edits are written back and re-measured once the user pauses. */
  guint edit_timeout_id;

  /* Every worker: generation, measurement, routing; and what the
   * generation running was asked for. */
  FlitlabWorkers *workers;
  gpointer generate_request;
  gboolean busy;

  /* Whether the sidebar showed before the experiments took the window:
   * it lists networks, so it folds away while they show. */
  gboolean flap_was_revealed;

  /* The routing of the network shown is built whenever the network, the
   * routing or its options change; after edits, once the user pauses. */
  guint route_timeout_id;
};

/* A continuation for the questions asked before a project is replaced or
 * the window closes. */
typedef void (*FlitlabWindowThen) (FlitlabWindow *self);

/* flitlab-window-simulate.c: the transport bar, its keys, and the frame
 * drawn while the Simulate tab is shown. */
void     flitlab_window_simulate_init      (FlitlabWindow  *self);

/* flitlab-window-collectives.c: the Collectives tab, the collective drawn
 * over the network while it shows, and its runs handed to the Simulate
 * tab. */
void     flitlab_window_collectives_init   (FlitlabWindow  *self);

/* flitlab-window-experiments.c: the tabs (win.tab), the Experiments
 * view's dialog and runs opened in the Simulate tab. */
void     flitlab_window_experiments_init   (FlitlabWindow  *self);

/* flitlab-window-lesson.c: the lesson panel in the sidebar and what its
 * steps ask of the window. */
void     flitlab_window_lesson_class_init  (GtkWidgetClass *widget_class);
void     flitlab_window_lesson_init        (FlitlabWindow  *self);
/* flitlab-window-presenter.c: presenter mode (win.presenter). */
void     flitlab_window_presenter_init     (FlitlabWindow  *self);

/* flitlab-window-help.c: win.help (F1) opens the manual's page for what
 * the window shows. */
void     flitlab_window_help_init          (FlitlabWindow  *self);

/* flitlab-window.c */
void     flitlab_window_set_project        (FlitlabWindow  *self,
                                            FlProject      *project);
FlProject *flitlab_window_get_project      (FlitlabWindow  *self);
gboolean flitlab_window_commit_document    (FlitlabWindow  *self,
                                            GError        **error);
void     flitlab_window_refresh_list       (FlitlabWindow  *self);
void     flitlab_window_show_nothing       (FlitlabWindow  *self);
void     flitlab_window_update_title       (FlitlabWindow  *self);
/* Shows the welcome screen instead of the project's views, or not. */
void     flitlab_window_set_welcome        (FlitlabWindow  *self,
                                            gboolean        shown);
void     flitlab_window_toast              (FlitlabWindow  *self,
                                            const char     *message);
/* Stores topology (owned) under base, made unique, and shows it. */
gboolean flitlab_window_add_topology       (FlitlabWindow  *self,
                                            const char     *base,
                                            FlTopology     *topology,
                                            GError        **error);

/* flitlab-window-actions.c */
void     flitlab_window_actions_init       (FlitlabWindow  *self);
/* The local path chosen in a file chooser's response, or NULL; one that
 * ends in none of extensions (NULL-terminated, may be NULL) gets the
 * first. */
char    *flitlab_window_chosen_path        (GtkNativeDialog    *dialog,
                                            int                 response,
                                            const char * const *extensions);
void     flitlab_window_update_actions     (FlitlabWindow  *self);
/* Asks Save / Discard / Cancel when there are unsaved changes, then runs
 * then unless the user cancelled or saving failed. */
void     flitlab_window_confirm_discard    (FlitlabWindow  *self,
                                            FlitlabWindowThen then);

G_END_DECLS
