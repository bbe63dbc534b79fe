/* flitlab-window-collectives.c — the Collectives tab in the window: while
 * it shows, the canvas draws the whole network with the collective of the
 * panel's page over it, and a click on a node goes to the page rather
 * than selecting; a page's run handed over ("play") is watched in the
 * Simulate tab.
 */
#include <glib/gi18n.h>

#include "flitlab-window-private.h"

static gboolean
collectives_shown (FlitlabWindow *self)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->side_stack), "collectives") == 0;
}

static void
side_page_changed (FlitlabWindow *self)
{
  gboolean shown = collectives_shown (self);

  /* Clicks pick the collective's nodes, not a selection to show below:
   * the select tool takes them, and the tab takes the pane's whole height
   * (a paned gives it all to its first child when the second is hidden). */
  if (shown)
    flitlab_canvas_set_tool (self->canvas, FLITLAB_CANVAS_TOOL_SELECT);
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->selection_panel)), !shown);
  flitlab_canvas_set_show_collectives (self->canvas, shown);
}

static void
draw_overlay_cb (FlitlabWindow       *self,
                 cairo_t             *cr,
                 const FlTopology    *t,
                 const FlDrawOptions *o)
{
  flitlab_collectives_panel_draw_overlay (self->collectives_panel, cr, t, o);
}

static gboolean
node_activated_cb (FlitlabWindow *self,
                   int            node)
{
  return flitlab_collectives_panel_node_activated (self->collectives_panel, node);
}

static void
overlay_changed_cb (FlitlabWindow *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->canvas));
}

static void
show_network_cb (FlitlabWindow *self,
                 const char    *spec)
{
  g_autoptr(GError) error = NULL;

  if (!flitlab_window_show_network_spec (self, spec, &error))
    flitlab_window_alert_full (self, _("Could Not Show the Network"), error->message);
}

/* A collective's run plays in about this many seconds, at the least the
 * bar's default speed: with software start-ups of thousands of cycles a
 * run lasts tens of thousands, minutes at 50 cycles per second. */
#define PLAY_SECONDS 30.0
#define PLAY_MIN_SPEED 50.0

/* The page has started the document's simulation on its run: watch it
 * play, with a sentence saying what it is. */
static void
play_cb (FlitlabWindow *self)
{
  FlitlabSimSession *session = self->document != NULL ? flitlab_document_get_simulation (self->document) : NULL;
  gint64 cycles = flitlab_collectives_panel_get_play_cycles (self->collectives_panel);

  if (session == NULL)
    return;
  gtk_stack_set_visible_child_name (self->side_stack, "simulate");
  flitlab_transport_bar_set_note (self->transport_bar,
                                  flitlab_collectives_panel_get_play_note (self->collectives_panel));
  if (cycles > 0)
    flitlab_transport_bar_set_speed (self->transport_bar, MAX (PLAY_MIN_SPEED, (double) cycles / PLAY_SECONDS));
  flitlab_sim_session_set_playing (session, TRUE);
}

void
flitlab_window_collectives_init (FlitlabWindow *self)
{
  flitlab_collectives_panel_set_workers (self->collectives_panel, self->workers);
  g_signal_connect_object (self->canvas, "draw-overlay", G_CALLBACK (draw_overlay_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->canvas, "node-activated", G_CALLBACK (node_activated_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->collectives_panel, "overlay-changed", G_CALLBACK (overlay_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->collectives_panel, "show-network", G_CALLBACK (show_network_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->collectives_panel, "play", G_CALLBACK (play_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->side_stack, "notify::visible-child-name", G_CALLBACK (side_page_changed), self,
                           G_CONNECT_SWAPPED);
  side_page_changed (self);
}
