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

/* Maps a whole number between the value bound and the number shown (a node
 * id and the number the user knows the node by). */
typedef gint64   (*FlitlabOptionNumberMap)   (gint64      value,
                                              gpointer    user_data);
/* Whether the row offers choice, one of the option's choices. */
typedef gboolean (*FlitlabOptionChoiceFilter) (const char *choice,
                                               gpointer    user_data);

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

/* What a front end adds to the engine's description of an option. Each
 * applies at once and stays until it is set again. */

/* Whole numbers: the numbers shown and typed are to_shown(value); what is
 * typed is bound as from_shown(number). */
void                flitlab_option_row_set_number_map   (GtkWidget                 *row,
                                                         FlitlabOptionNumberMap     to_shown,
                                                         FlitlabOptionNumberMap     from_shown,
                                                         gpointer                   user_data);
/* Whole numbers: narrows the range offered to lower..upper (values bound
 * outside it are shown at its ends). */
void                flitlab_option_row_set_range        (GtkWidget                 *row,
                                                         gint64                     lower,
                                                         gint64                     upper);
/* The word shown for the option's unset value (the engine's, such as
 * "auto", when NULL); typing it, or the engine's, unsets the value. */
void                flitlab_option_row_set_unset_label  (GtkWidget                 *row,
                                                         const char                *label);
/* Choices: offers only those filter accepts (NULL: all), and the unset
 * word; call again to filter anew. */
void                flitlab_option_row_set_choice_filter (GtkWidget                 *row,
                                                          FlitlabOptionChoiceFilter  filter,
                                                          gpointer                   user_data);
/* Action rows: a subtitle in place of the option's help, which becomes the
 * tooltip ("" for none; NULL: the help again). An error still shows. */
void                flitlab_option_row_set_subtitle     (GtkWidget                 *row,
                                                         const char                *subtitle);

G_END_DECLS
