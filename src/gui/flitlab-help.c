/* flitlab-help.c — the user manual's pages, opened in the help browser or
 * the web browser. */
#include <adwaita.h>
#include <glib/gi18n.h>

#include "flitlab-help.h"

#ifndef FLITLAB_HELP_HTML_DIR
#error "the build defines FLITLAB_HELP_HTML_DIR, where the manual's HTML is installed"
#endif

static const char *
page_or_index (const char *page)
{
  return page != NULL && *page != '\0' ? page : "index";
}

static gboolean
mallard_installed (void)
{
  const char * const *dirs = g_get_system_data_dirs ();

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *index = g_build_filename (dirs[i], "help", "C", "flitlab",
                                                 "index.page", NULL);

      if (g_file_test (index, G_FILE_TEST_EXISTS))
        return TRUE;
    }
  return FALSE;
}

char *
flitlab_help_html_uri (const char *page)
{
  const char *dir = g_getenv ("FLITLAB_HELP_DIR");
  g_autofree char *name = g_strconcat (page_or_index (page), ".html", NULL);
  g_autofree char *path = g_build_filename (dir != NULL && *dir != '\0' ? dir
                                            : FLITLAB_HELP_HTML_DIR, name, NULL);

  return g_filename_to_uri (path, NULL, NULL);
}

char *
flitlab_help_uri (const char *page)
{
  const char *dir = g_getenv ("FLITLAB_HELP_DIR");

  if ((dir == NULL || *dir == '\0') && mallard_installed ())
    return g_strconcat ("help:flitlab/", page_or_index (page), NULL);
  return flitlab_help_html_uri (page);
}

typedef struct
{
  GtkWindow *parent;
  char      *page;
  gboolean   tried_html;
} HelpRequest;

static void
help_request_free (HelpRequest *request)
{
  g_clear_object (&request->parent);
  g_free (request->page);
  g_free (request);
}

static void show_uri (HelpRequest *request, const char *uri);

static void
shown (GObject      *source,
       GAsyncResult *result,
       gpointer      user_data)
{
  HelpRequest *request = user_data;
  g_autoptr(GError) error = NULL;

  if (gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error))
    {
      help_request_free (request);
      return;
    }
  if (!request->tried_html)
    {
      g_autofree char *html = flitlab_help_html_uri (request->page);

      request->tried_html = TRUE;
      if (html != NULL)
        {
          show_uri (request, html);
          return;
        }
    }

  GtkWidget *dialog = adw_message_dialog_new (request->parent, _("The Manual Could Not Be Opened"),
                                              NULL);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _("Neither a help browser nor a web browser opened it: %s. "
                                    "Install the “yelp” package, or open the manual’s "
                                    "HTML pages in a browser."),
                                  error->message);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
  help_request_free (request);
}

static void
show_uri (HelpRequest *request,
          const char  *uri)
{
  g_debug ("help: showing %s", uri);
  gtk_show_uri_full (request->parent, uri, GDK_CURRENT_TIME, NULL, shown, request);
}

void
flitlab_help_show (GtkWindow  *parent,
                   const char *page)
{
  HelpRequest *request;
  g_autofree char *uri = flitlab_help_uri (page);

  g_return_if_fail (GTK_IS_WINDOW (parent));

  request = g_new0 (HelpRequest, 1);
  request->parent = g_object_ref (parent);
  request->page = g_strdup (page_or_index (page));
  request->tried_html = !g_str_has_prefix (uri, "help:");
  show_uri (request, uri);
}
