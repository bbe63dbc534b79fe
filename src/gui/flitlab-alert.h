/* flitlab-alert.h — a failure told in a dialog over the window it happened
 * in: the whole message, which a toast would cut at one line.
 *
 * A window has at most one alert open: failures that come while it is
 * open join it ("Several Things Went Wrong", each message in turn), so a
 * burst of them never stacks dialogs. Closing it starts afresh. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Shows message under heading (NULL: "Something Went Wrong") in a modal
 * dialog over parent, or adds it to the alert parent has open. With no
 * parent, a dialog of its own. Returns the dialog (not a new reference). */
GtkWidget *flitlab_alert          (GtkWindow  *parent,
                                   const char *heading,
                                   const char *message);
/* The alert open over parent, or NULL. */
GtkWidget *flitlab_alert_get_open (GtkWindow  *parent);

G_END_DECLS
