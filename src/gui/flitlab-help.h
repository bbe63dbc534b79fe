/* flitlab-help.h — the user manual: which page a view is about, and
 * showing it.
 *
 * The manual is Mallard (data/help/C/, one page per task). Installed, GNOME's help
 * browser shows it as help:flitlab/PAGE; where no help browser takes that
 * URI (another desktop, or yelp missing) and in an uninstalled build
 * ($FLITLAB_HELP_DIR), the HTML rendering built from the same pages opens
 * in the web browser. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The URI the page opens at first: help:flitlab/PAGE when the Mallard
 * pages are installed in a system data directory and $FLITLAB_HELP_DIR is
 * unset, else the HTML file's file:// URI. page is a page id such as
 * "routing" (NULL: the index). */
char *flitlab_help_uri      (const char *page);

/* The HTML rendering of page: $FLITLAB_HELP_DIR/PAGE.html, else the
 * installed one. */
char *flitlab_help_html_uri (const char *page);

/* Opens page for parent (a window, not NULL), falling back from help: to the HTML pages when
 * no application takes help: URIs, and saying so in a dialog when neither
 * opens. */
void  flitlab_help_show     (GtkWindow  *parent,
                             const char *page);

G_END_DECLS
