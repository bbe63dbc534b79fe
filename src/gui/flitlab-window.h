/* flitlab-window.h — the main window: one project, its topologies, the
 * canvas and the panels around it. */
#pragma once

#include <adwaita.h>

#include "flitlab-application.h"
#include "flitlab-canvas.h"
#include "flitlab-document.h"
#include "flitlab-experiment-dialog.h"
#include "flitlab-experiments-view.h"
#include "flitlab-generator-panel.h"
#include "flitlab-lesson-panel.h"
#include "flitlab-metrics-panel.h"
#include "flitlab-routing-panel.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_WINDOW (flitlab_window_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabWindow, flitlab_window, FLITLAB, WINDOW, AdwApplicationWindow)

FlitlabWindow         *flitlab_window_new                 (FlitlabApplication  *application);

/* Replaces the project by the file's; on failure keeps the current one.
 * open_file reports the failure in the window, open_path to the caller. */
void                   flitlab_window_open_file           (FlitlabWindow       *self,
                                                           GFile               *file);
gboolean               flitlab_window_open_path           (FlitlabWindow       *self,
                                                           const char          *path,
                                                           GError             **error);
/* Saves the project (with the latest edits and every network's routing
 * state) to path, which becomes the project's file. No dialog. */
gboolean               flitlab_window_save_to_path        (FlitlabWindow       *self,
                                                           const char          *path,
                                                           GError             **error);

/* Generates spec in a worker thread, adds it to the project as name (NULL
 * or "": its canonical spec; made unique) and shows it. */
void                   flitlab_window_generate            (FlitlabWindow       *self,
                                                           const char          *spec,
                                                           const char          *name);
/* Shows the project's topology called name. */
gboolean               flitlab_window_show_topology       (FlitlabWindow       *self,
                                                           const char          *name,
                                                           GError             **error);

/* Shows the project's network called spec, made from spec (and added
 * under that name) if there is none: a network a preset or a collective
 * asks for is found again the next time. */
gboolean               flitlab_window_show_network_spec   (FlitlabWindow       *self,
                                                           const char          *spec,
                                                           GError             **error);

/* Sets up a preset of the engine's (fl_sim_preset_lookup()): shows its
 * network (the project's network named after the preset's spec, added if
 * there is none), asks for its routing and sets its simulation settings,
 * and shows the Simulate tab. */
gboolean               flitlab_window_apply_preset        (FlitlabWindow       *self,
                                                           const char          *name,
                                                           GError             **error);

/* Writes the cycles from, from + step, ... <= to of the simulation shown
 * as the canvas draws them, into the GIF path or (png_sequence) the
 * folder path, in a worker: a toast says when it is done. FALSE with error
 * set when there is no simulation shown or the range is empty. */
gboolean               flitlab_window_export_animation    (FlitlabWindow       *self,
                                                           const char          *path,
                                                           gint64               from,
                                                           gint64               to,
                                                           gint64               step,
                                                           gboolean             png_sequence,
                                                           GError             **error);

/* Opens the dialog that creates an experiment on the network shown, and
 * returns it; NULL (with a toast saying why) for an untitled project or
 * no network shown. */
FlitlabExperimentDialog *flitlab_window_new_experiment    (FlitlabWindow       *self);
/* Sets run idx of the project's experiment up in the Simulate tab: its
 * network shown, its routing asked for and its settings, ready to watch;
 * shows the tab (a multicast run: the Collectives tab's multicast page,
 * with its tree, message and nodes). */
gboolean               flitlab_window_open_run            (FlitlabWindow       *self,
                                                           const char          *experiment,
                                                           gint64               idx,
                                                           GError             **error);
FlitlabExperimentsView *flitlab_window_get_experiments_view (FlitlabWindow     *self);

/* TRUE while a generation, a measurement or the building of a routing
 * runs, or an edit waits to be measured and routed: the "busy" property. */
gboolean               flitlab_window_get_busy            (FlitlabWindow       *self);
gboolean               flitlab_window_get_modified        (FlitlabWindow       *self);
/* The name of the topology shown, or NULL. */
const char            *flitlab_window_get_topology_name   (FlitlabWindow       *self);
/* The document shown (NULL: none); it changes with the topology shown. */
FlitlabDocument       *flitlab_window_get_document        (FlitlabWindow       *self);

FlitlabCanvas         *flitlab_window_get_canvas          (FlitlabWindow       *self);
FlitlabGeneratorPanel *flitlab_window_get_generator_panel (FlitlabWindow       *self);
FlitlabMetricsPanel   *flitlab_window_get_metrics_panel   (FlitlabWindow       *self);
FlitlabRoutingPanel   *flitlab_window_get_routing_panel   (FlitlabWindow       *self);

/* Opens lesson (taken; read and checked: flitlab_lesson_load()) in the
 * window: shows its network (the project's network named after its spec,
 * added if there is none), sets its routing and simulation settings, and
 * shows the lesson panel at step 1. FALSE with error set (and the lesson
 * freed) when the window cannot set it up. */
gboolean               flitlab_window_open_lesson         (FlitlabWindow       *self,
                                                           FlLesson            *lesson,
                                                           GError             **error);
/* Ends the lesson shown: the panel and the highlight go, the network
 * stays. */
void                   flitlab_window_close_lesson        (FlitlabWindow       *self);
FlitlabLessonPanel    *flitlab_window_get_lesson_panel    (FlitlabWindow       *self);
/* An untitled project with no network and no change: where a lesson may
 * open rather than in a new window. */
gboolean               flitlab_window_is_blank            (FlitlabWindow       *self);
/* Shows a message in the window for a few seconds: a confirmation or a
 * hint, never a failure (which a toast would cut at one line). */
void                   flitlab_window_toast               (FlitlabWindow       *self,
                                                           const char          *message);
/* Tells a failure in a dialog over the window, under heading (NULL:
 * "Something Went Wrong"); failures that come while it is open join it
 * (flitlab-alert.h). */
void                   flitlab_window_alert_full          (FlitlabWindow       *self,
                                                           const char          *heading,
                                                           const char          *message);
void                   flitlab_window_alert               (FlitlabWindow       *self,
                                                           const char          *message);

/* The id of the manual's page for what the window shows ("routing",
 * "lessons"...), which F1 opens. */
const char *flitlab_window_help_page (FlitlabWindow *self);

G_END_DECLS
