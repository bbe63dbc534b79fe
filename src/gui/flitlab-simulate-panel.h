/* flitlab-simulate-panel.h — the simulation of a document's network: every
 * setting of the engine's table (a FlitlabSimSettings page, none written
 * by hand), kept per network in the document; the routing built in the
 * Routing tab, named; a Run button that runs the whole simulation in a
 * worker (fl_sim_run, or fl_deflect_run for the deflection model); and
 * what it found.
 *
 * The panel runs its own jobs, of kind FLITLAB_JOB_SIMULATE, on the
 * window's workers: the header's Stop cancels a run, a new run, an edit of
 * the network's structure or another network supersedes it. A run takes a
 * copy of the settings and a reference to the routing built, so the user
 * may go on editing the settings meanwhile.
 *
 * Properties: "document" (FlitlabDocument, NULL: none), "running"
 * (boolean, read-only: a run is under way).
 */
#pragma once

#include <adwaita.h>

#include "flitlab-document.h"
#include "flitlab-sim-settings.h"
#include "flitlab-workers.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_SIMULATE_PANEL (flitlab_simulate_panel_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabSimulatePanel, flitlab_simulate_panel, FLITLAB, SIMULATE_PANEL, GtkWidget)

GtkWidget          *flitlab_simulate_panel_new          (void);
/* The workers runs go to (a reference is taken). */
void                flitlab_simulate_panel_set_workers  (FlitlabSimulatePanel *self,
                                                         FlitlabWorkers       *workers);
/* The document whose settings are shown and edited, and whose routing is
 * simulated (a reference is taken; NULL: none). Another document
 * supersedes a run of the one before and clears its results. */
void                flitlab_simulate_panel_set_document (FlitlabSimulatePanel *self,
                                                         FlitlabDocument      *document);
FlitlabDocument    *flitlab_simulate_panel_get_document (FlitlabSimulatePanel *self);
/* The settings page: one row per key of fl_sim_settings_key(). */
FlitlabSimSettings *flitlab_simulate_panel_get_settings (FlitlabSimulatePanel *self);

/* Starts a run as the Run button does; FALSE when the button is
 * insensitive (no routing built, or a run under way), and then nothing
 * runs: flitlab_simulate_panel_get_value (self, "why") says why. */
gboolean            flitlab_simulate_panel_run          (FlitlabSimulatePanel *self);
gboolean            flitlab_simulate_panel_get_running  (FlitlabSimulatePanel *self);

/* The text shown for one value, by key: "routing" (the routing row's
 * sentence), "why" (why Run is insensitive), "status", "cycle" (the
 * deadlock's cycle in a sentence), "latency", "latency-p99",
 * "network-latency", "throughput", "throughput-min", "offered", "hops",
 * "packets", "cycles", "wall-time", and for the deflection model
 * "deflect-throughput", "delay-avg", "delay-max", "deflections",
 * "delivered"; "message" (why the last run gave no results: the engine's
 * refusal, or that it was stopped). "" for a value not shown, NULL for an
 * unknown key. */
const char         *flitlab_simulate_panel_get_value    (FlitlabSimulatePanel *self,
                                                         const char           *key);

G_END_DECLS
