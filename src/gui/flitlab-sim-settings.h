/* flitlab-sim-settings.h — every simulation setting on one preferences
 * page, generated from the engine's table of keys: one group per table
 * group, one row per key (flitlab-option-rows.h). */
#pragma once

#include <adwaita.h>

#include "flitlab.h"

G_BEGIN_DECLS

/* FlSimSettings as a boxed type, copied with fl_sim_settings_copy(). */
#define FLITLAB_TYPE_FL_SIM_SETTINGS (flitlab_fl_sim_settings_get_type ())
GType flitlab_fl_sim_settings_get_type (void) G_GNUC_CONST;

#define FLITLAB_TYPE_SIM_SETTINGS (flitlab_sim_settings_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabSimSettings, flitlab_sim_settings, FLITLAB, SIM_SETTINGS,
                      AdwPreferencesPage)

GtkWidget           *flitlab_sim_settings_new          (void);
/* The settings the rows edit (owned by the page; the "settings" property
 * gives a copy). */
const FlSimSettings *flitlab_sim_settings_get_settings (FlitlabSimSettings  *self);
/* The flit-level configuration of those settings; its routing is NULL (set
 * it on a copy) and its trace is not read. */
const FlSimConfig   *flitlab_sim_settings_get_config   (FlitlabSimSettings  *self);
/* Shows a copy of settings in every row. */
void                 flitlab_sim_settings_set_settings (FlitlabSimSettings  *self,
                                                        const FlSimSettings *settings);
/* The row of the key (a key of fl_sim_settings_key()), or NULL. */
GtkWidget           *flitlab_sim_settings_get_row      (FlitlabSimSettings  *self,
                                                        const char          *key);
guint                flitlab_sim_settings_get_n_rows   (FlitlabSimSettings  *self);

G_END_DECLS
