/* flitlab-preferences.h — the application's preferences: the GSettings
 * of io.github.flitlab.Flitlab, what they change, and the window that
 * edits them.
 *
 * Every setting takes effect at once: the style through AdwStyleManager,
 * the packet colours and palette on the canvases, the playback speed on
 * the transport bars; the default simulation settings apply to the
 * networks made afterwards (a network read from a project keeps its own).
 */
#pragma once

#include <adwaita.h>

#include "flitlab.h"
#include "flitlab-canvas.h"
#include "flitlab-document.h"
#include "flitlab-transport-bar.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_PREFERENCES (flitlab_preferences_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabPreferences, flitlab_preferences, FLITLAB, PREFERENCES,
                      AdwPreferencesWindow)

/* The application's settings, or NULL when their schema is not installed
 * (then nothing is kept and the engine's defaults apply). */
GSettings          *flitlab_preferences_get_settings      (void);

/* The style follows "color-scheme" from now on. */
void                flitlab_preferences_bind_style        (void);
/* bar's playback speed and colours, and canvas' palette, follow the
 * settings from now on. */
void                flitlab_preferences_bind_view         (FlitlabTransportBar *bar,
                                                           FlitlabCanvas       *canvas);
/* Gives document, a network just made, the default simulation settings. */
void                flitlab_preferences_apply_sim_defaults (FlitlabDocument    *document);

/* The window that edits the settings, transient for parent (may be NULL). */
FlitlabPreferences *flitlab_preferences_new               (GtkWindow           *parent);

G_END_DECLS
