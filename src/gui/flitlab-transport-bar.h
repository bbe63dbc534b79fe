/* flitlab-transport-bar.h — the controls of a simulation being watched:
 * play and pause, step forwards and back, step N cycles, a slider over the
 * simulated time, the speed, the cycle counter, and how the frame is
 * drawn (colours, heat map).
 *
 * The bar shows the simulation of its document ("simulation"); Play with
 * none starts one (flitlab_document_watch()), and a failure to start is
 * shown under the bar. Its actions are "transport.play", "transport.step",
 * "transport.back" and "transport.step-n"; the window binds Space, '.'
 * and ',' to the first three.
 */
#pragma once

#include <gtk/gtk.h>

#include "flitlab-document.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_TRANSPORT_BAR (flitlab_transport_bar_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabTransportBar, flitlab_transport_bar, FLITLAB, TRANSPORT_BAR, GtkWidget)

GtkWidget       *flitlab_transport_bar_new           (void);
void             flitlab_transport_bar_set_document  (FlitlabTransportBar *self,
                                                      FlitlabDocument     *document);
FlitlabDocument *flitlab_transport_bar_get_document  (FlitlabTransportBar *self);

/* Play or pause; plays a new simulation when there is none. */
void             flitlab_transport_bar_play_pause    (FlitlabTransportBar *self);
/* n cycles forwards (n > 0) or back (n < 0), pausing first. */
void             flitlab_transport_bar_step          (FlitlabTransportBar *self,
                                                      gint64               n);
/* The "speed" property: cycles per second, 0 for as fast as possible. */
void             flitlab_transport_bar_set_speed     (FlitlabTransportBar *self,
                                                      double               cycles_per_second);
/* The speeds the bar offers, as its drop-down names them, and the
 * cycles per second of each (0: as fast as possible). */
GListModel      *flitlab_transport_bar_speed_names   (void);
double           flitlab_transport_bar_speed_at      (guint                position);
/* A sentence under the bar until another document is shown (what a
 * preset is about), unless an error or a deadlock takes its place. */
void             flitlab_transport_bar_set_note      (FlitlabTransportBar *self,
                                                      const char          *note);
/* The message under the bar (why a simulation did not start, a deadlock),
 * or NULL. */
const char      *flitlab_transport_bar_get_message   (FlitlabTransportBar *self);

G_END_DECLS
