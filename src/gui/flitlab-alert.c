/* flitlab-alert.c — failures told in a dialog over their window, one
 * dialog per window however many come.
 *
 * The window keeps what its open alert lists as object data: the dialog
 * and the last messages. A message that comes while the dialog is open
 * replaces it with one that lists them all, rather than opening another
 * dialog over it, which the user would have to close one by one. */
#include <glib/gi18n.h>

#include "flitlab-alert.h"

#define ALERT_KEY "flitlab-alert"
/* The most messages one alert lists: a failure repeated in a loop must
 * not grow the dialog without end. The oldest give way, counted. */
#define MAX_LISTED 5

typedef struct
{
  GtkWidget *dialog; /* the alert open, or NULL */
  GQueue messages;   /* the last MAX_LISTED, oldest first (owned) */
  guint dropped;     /* older ones that gave way */
} Alert;

/* Forgets the dialog and what it listed: the next failure opens a fresh
 * one. */
static void
alert_reset (Alert *alert)
{
  if (alert->dialog != NULL)
    g_signal_handlers_disconnect_by_data (alert->dialog, alert);
  alert->dialog = NULL;
  g_queue_clear_full (&alert->messages, g_free);
  alert->dropped = 0;
}

static void
alert_free (gpointer data)
{
  alert_reset (data);
  g_free (data);
}

/* Depth first under widget: the label that reads text, or NULL. */
static GtkLabel *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
new_dialog (GtkWindow  *parent,
            const char *heading,
            const char *message)
{
  GtkWidget *dialog = adw_message_dialog_new (parent, heading, message);
  GtkLabel *body;

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
  /* The message names files and networks the user may want to copy, and
   * a path has no space to wrap at. libadwaita has no property for either:
   * its body label is the one that reads the message. */
  body = find_label (dialog, message);
  if (body != NULL)
    {
      gtk_label_set_selectable (body, TRUE);
      gtk_label_set_wrap_mode (body, PANGO_WRAP_WORD_CHAR);
    }
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

/* The body listing the messages alert holds: each a paragraph of its own,
 * after the count of those that gave way. */
static char *
list_body (Alert *alert)
{
  GString *body = g_string_new (NULL);

  if (alert->dropped > 0)
    /* Translators: at the top of a dialog that lists the last failures. */
    g_string_append_printf (body, ngettext ("%u earlier failure is not listed.",
                                            "%u earlier failures are not listed.", alert->dropped),
                            alert->dropped);
  for (GList *l = alert->messages.head; l != NULL; l = l->next)
    {
      if (body->len > 0)
        g_string_append (body, "\n\n");
      g_string_append (body, l->data);
    }
  return g_string_free (body, FALSE);
}

/* Opens the dialog of alert over parent. */
static void
alert_open (Alert      *alert,
            GtkWindow  *parent,
            const char *heading,
            const char *body)
{
  alert->dialog = new_dialog (parent, heading, body);
  /* Closed however (its button, Escape, its window gone): the next
   * failure starts afresh. */
  g_signal_connect_swapped (alert->dialog, "response", G_CALLBACK (alert_reset), alert);
  g_signal_connect_swapped (alert->dialog, "destroy", G_CALLBACK (alert_reset), alert);
}

GtkWidget *
flitlab_alert (GtkWindow  *parent,
               const char *heading,
               const char *message)
{
  Alert *alert;
  GtkWidget *old;
  g_autofree char *body = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (message != NULL, NULL);

  if (heading == NULL)
    heading = _("Something Went Wrong");
  if (parent == NULL)
    return new_dialog (NULL, heading, message);

  alert = g_object_get_data (G_OBJECT (parent), ALERT_KEY);
  if (alert == NULL)
    {
      alert = g_new0 (Alert, 1);
      g_queue_init (&alert->messages);
      g_object_set_data_full (G_OBJECT (parent), ALERT_KEY, alert, alert_free);
    }
  if (alert->dialog == NULL)
    alert_reset (alert);
  g_queue_push_tail (&alert->messages, g_strdup (message));
  if (alert->dialog == NULL)
    {
      alert_open (alert, parent, heading, message);
      return alert->dialog;
    }

  while (g_queue_get_length (&alert->messages) > MAX_LISTED)
    {
      g_free (g_queue_pop_head (&alert->messages));
      alert->dropped++;
    }
  body = list_body (alert);
  /* A dialog on screen may keep the size it was first shown at (under X
   * with no window manager it does), a longer body pushing its button out
   * of sight: the open one gives way to one sized for every message, and
   * goes once that one is up. */
  old = alert->dialog;
  g_signal_handlers_disconnect_by_data (old, alert);
  alert_open (alert, parent, _("Several Things Went Wrong"), body);
  gtk_window_destroy (GTK_WINDOW (old));
  return alert->dialog;
}

GtkWidget *
flitlab_alert_get_open (GtkWindow *parent)
{
  Alert *alert;

  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);

  alert = g_object_get_data (G_OBJECT (parent), ALERT_KEY);
  return alert != NULL ? alert->dialog : NULL;
}
