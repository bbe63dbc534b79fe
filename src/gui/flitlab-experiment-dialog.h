/* flitlab-experiment-dialog.h — creating an experiment from the
 * simulation settings of the network shown: the user names it, adds the
 * parameters to vary (a key of the engine's table of simulation settings,
 * "routing" or a routing option, with a list "a,b,c" or a range
 * "from:to:step" checked as typed) and a range of seeds, and sees how many
 * runs it makes.
 *
 * The base of the design is the document's: its routing and options, and
 * every simulation setting changed from the defaults. Create stores the
 * network (Flitlab JSON) and the design in the project's journal.
 *
 * Signals: "created" (const char *name), once the experiment is stored.
 */
#pragma once

#include <adwaita.h>

#include "flitlab-document.h"
#include "flitlab-store.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_EXPERIMENT_DIALOG (flitlab_experiment_dialog_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabExperimentDialog, flitlab_experiment_dialog, FLITLAB, EXPERIMENT_DIALOG, AdwWindow)

/* A dialog over parent for document's network, storing into project
 * (borrowed: both must outlive the dialog). It starts with one parameter,
 * the rate. */
FlitlabExperimentDialog *flitlab_experiment_dialog_new           (GtkWindow               *parent,
                                                                  FlProject               *project,
                                                                  FlitlabDocument         *document);
void                     flitlab_experiment_dialog_set_name      (FlitlabExperimentDialog *self,
                                                                  const char              *name);
/* Sets parameter i's key and values, as if chosen and typed (i = the
 * number of parameters adds one); FALSE for an unknown key. */
gboolean                 flitlab_experiment_dialog_set_parameter (FlitlabExperimentDialog *self,
                                                                  guint                    i,
                                                                  const char              *key,
                                                                  const char              *values);
guint                    flitlab_experiment_dialog_get_n_parameters (FlitlabExperimentDialog *self);
/* The message shown under parameter i ("" when its values are taken). */
const char              *flitlab_experiment_dialog_get_error     (FlitlabExperimentDialog *self,
                                                                  guint                    i);
void                     flitlab_experiment_dialog_set_seeds     (FlitlabExperimentDialog *self,
                                                                  guint64                  from,
                                                                  guint64                  to);
/* Runs of the design as it stands (0 while it is refused). */
gint64                   flitlab_experiment_dialog_get_runs      (FlitlabExperimentDialog *self);
/* Stores the experiment as Create does, and closes the dialog. */
gboolean                 flitlab_experiment_dialog_create        (FlitlabExperimentDialog *self,
                                                                  GError                 **error);

G_END_DECLS
