/* flitlab-option-rows.h — settings rows built from the engine's option
 * descriptors (FlOptionInfo), bound to simulation settings or routing
 * options: a spin button for numbers, a combo row for choices, a switch
 * for flags and an entry row for text. A value the engine refuses is shown
 * on the row (the "error" style class, and the engine's message as its
 * tooltip and, on action rows, its subtitle) and leaves the bound value as
 * it was. */
#pragma once

#include <adwaita.h>

#include "flitlab.h"

G_BEGIN_DECLS

/* Called after the row has changed the bound value. */
typedef void (*FlitlabOptionChanged) (GtkWidget *row,
                                      gpointer   user_data);

/* A row for the setting info (one of fl_sim_settings_key()'s) that edits
 * *settings, which must outlive the row. changed may be NULL. */
GtkWidget          *flitlab_option_row_new_for_settings (const FlOptionInfo   *info,
                                                         FlSimSettings        *settings,
                                                         FlitlabOptionChanged  changed,
                                                         gpointer              user_data);
/* A row for the routing option info (one of fl_routing_option()'s) that
 * edits *options: fl_routing_options_init()'d, freed with
 * fl_routing_options_clear(), and outliving the row. */
GtkWidget          *flitlab_option_row_new_for_routing  (const FlOptionInfo   *info,
                                                         FlRoutingOptions     *options,
                                                         FlitlabOptionChanged  changed,
                                                         gpointer              user_data);

const FlOptionInfo *flitlab_option_row_get_info         (GtkWidget            *row);
/* Shows the bound value again (after it changed elsewhere) and clears the
 * error state. */
void                flitlab_option_row_refresh          (GtkWidget            *row);
/* The engine's message about the last value the row was given, or NULL
 * when it was taken. */
const char         *flitlab_option_row_get_error        (GtkWidget            *row);
/* The widget the user edits: the GtkSpinButton or GtkSwitch of an action
 * row, or the row itself (AdwComboRow, AdwEntryRow). */
GtkWidget          *flitlab_option_row_get_editor       (GtkWidget            *row);

G_END_DECLS
