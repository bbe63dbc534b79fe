/* main.c — the flitlab-gui program: sets up translations and runs the
 * application. */
#include "flitlab-application.h"
#include "flitlab-output.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FlitlabApplication) app = NULL;

  flitlab_application_bind_translations ();
  /* An export cut short by a signal leaves no temporary file behind. */
  fl_output_catch_signals ();
  app = flitlab_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
