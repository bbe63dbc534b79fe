/* main.c — the flitlab-gui program: sets up translations and runs the
 * application. */
#include "flitlab-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FlitlabApplication) app = NULL;

  flitlab_application_bind_translations ();
  app = flitlab_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
