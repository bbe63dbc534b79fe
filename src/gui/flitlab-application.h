/* flitlab-application.h — the Flitlab application: windows, app actions and
 * keyboard accelerators. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define FLITLAB_APPLICATION_ID "io.github.flitlab.Flitlab"

#define FLITLAB_TYPE_APPLICATION (flitlab_application_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabApplication, flitlab_application, FLITLAB, APPLICATION, AdwApplication)

FlitlabApplication *flitlab_application_new (void);

/* Binds the flitlab domain to the installed catalogues, or to
 * $FLITLAB_LOCALEDIR's in an uninstalled build (tools/flitlab-dev app
 * points it at build/po). Called before the application starts. */
void                flitlab_application_bind_translations (void);

G_END_DECLS
