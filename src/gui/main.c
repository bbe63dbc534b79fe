/* main.c — the flitlab-gui program: sets up translations and runs the
 * application. */
#include <glib/gi18n.h>

#include "flitlab-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FlitlabApplication) app = NULL;
  /* An uninstalled build reads the catalogues it built (tools/flitlab-dev
   * app points this at build/po). */
  const char *localedir = g_getenv ("FLITLAB_LOCALEDIR");

  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = flitlab_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
