/* flitlab-application.h — the Flitlab application: windows, app actions and
 * keyboard accelerators. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define FLITLAB_APPLICATION_ID "io.github.flitlab.Flitlab"

#define FLITLAB_TYPE_APPLICATION (flitlab_application_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabApplication, flitlab_application, FLITLAB, APPLICATION, AdwApplication)

FlitlabApplication *flitlab_application_new (void);

G_END_DECLS
