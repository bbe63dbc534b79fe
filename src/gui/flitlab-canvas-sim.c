/* flitlab-canvas-sim.c — the canvas while a simulation is watched: the
 * frame drawn over the whole network (hosts and host links included, where
 * flits start and end), redrawn whenever the simulation steps.
 *
 * The frame is fl_draw_flits()'s (fl_draw_deflect()'s for the deflection
 * model), the function exports and the command line use too; the
 * document's topology is drawn (its positions are the ones being edited)
 * with the simulation built on the routed copy, whose nodes, links and
 * channels have the same ids. A deflection message is inspected as a
 * packet is: its id is the inspected packet.
 */
#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-canvas-private.h"

FlitlabSimSession *
flitlab_canvas_shown_simulation (FlitlabCanvas *self)
{
  FlitlabSimSession *session;

  if (!self->show_simulation)
    return NULL;
  session = flitlab_document_get_simulation (self->document);
  if (session == NULL
      || fl_topology_link_count (flitlab_sim_session_get_topology (session))
           != fl_topology_link_count (flitlab_document_get_topology (self->document)))
    return NULL;
  return session;
}

void
flitlab_canvas_set_inspected_packet (FlitlabCanvas *self,
                                     gint64         packet)
{
  packet = MAX (packet, -1);
  if (packet == self->inspected_packet)
    return;
  self->inspected_packet = packet;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  flitlab_canvas_notify (self, "inspected-packet");
}

/* The flit nearest the point, within half a flit's size. */
typedef struct
{
  const FlTopology *t;
  const FlDrawView *view;
  const FlDrawFlits *f;
  double x, y, best;
  gint64 packet;
} FlitHit;

static void
hit_flit (void             *user_data,
          const FlFlitView *flit)
{
  FlitHit *hit = user_data;
  double fx, fy, d;

  if (!fl_draw_flit_position (hit->t, hit->view, hit->f, flit, &fx, &fy))
    return;
  d = hypot (fx - hit->x, fy - hit->y);
  if (d < hit->best)
    {
      hit->best = d;
      hit->packet = flit->packet;
    }
}

/* What a frame draws over the network, with the arrays it points to. */
typedef struct
{
  FlDrawFlits f;
  int *route;
  int *wait_cycle;
  double *heat;
} Frame;

/* The heat map shows each channel's utilization over the cycles before
 * the one shown: long enough to smooth the flits' comings and goings,
 * short enough to follow a hot spot forming. It widens to whole sample
 * intervals, which grow as a long run's samples merge. */
#define HEAT_WINDOW 500

static void
frame_clear (Frame *frame)
{
  g_free (frame->route);
  free (frame->wait_cycle);
  g_free (frame->heat);
}

/* The frame of session as the canvas shows it: the inspected packet and
 * its route so far, and a deadlock's cycle with the packets holding it. */
static void
frame_fill (FlitlabCanvas     *self,
            FlitlabSimSession *session,
            Frame             *frame)
{
  const FlSim *sim = flitlab_sim_session_get_sim (session);
  FlDrawFlits *f = &frame->f;
  FlError err;
  int len = 0;

  memset (frame, 0, sizeof *frame);
  fl_draw_flits_init (f);
  f->sim = sim;
  f->colour = self->flit_colour;
  f->palette = self->flit_palette;
  f->link_latency = MAX (1, fl_sim_config (sim)->link_latency);
  if (self->inspected_packet >= 0
      && fl_sim_packet_route (sim, self->inspected_packet, NULL, 0, &len, &err) == FL_OK)
    {
      frame->route = g_new (int, MAX (len, 1));
      fl_sim_packet_route (sim, self->inspected_packet, frame->route, len, &len, &err);
      f->selected_packet = self->inspected_packet;
      f->selected_route = frame->route;
      f->nselected_route = len;
    }
  if (self->heat_map)
    {
      const FlSimTimeline *tl = flitlab_sim_session_get_timeline (session);
      gint64 cycle = fl_sim_cycle (sim);
      int n = fl_sim_channels (sim);

      frame->heat = g_new0 (double, MAX (n, 1));
      if (cycle > 0
          && fl_sim_timeline_channel_utilization (tl, MAX (0, cycle - HEAT_WINDOW), cycle, frame->heat, n, &err)
               == FL_OK)
        {
          f->heat = frame->heat;
          f->nheat = n;
          f->heat_label = _("channel utilization, last 500 cycles");
        }
    }
  if (flitlab_sim_session_get_status (session) == FL_SIM_DEADLOCK
      && fl_sim_deadlock_cycle (sim, &frame->wait_cycle, &len, &err) == FL_OK)
    {
      f->wait_cycle = frame->wait_cycle;
      f->nwait_cycle = len;
    }
}

/* The deflection frame of session as the canvas shows it: its colours,
 * the inspected message, the legend in the user's words. */
static void
deflect_fill (FlitlabCanvas     *self,
              FlitlabSimSession *session,
              FlDrawDeflect     *d)
{
  fl_draw_deflect_init (d);
  d->deflect = flitlab_sim_session_get_deflect (session);
  d->colour = self->flit_colour;
  d->palette = self->flit_palette;
  d->selected_message = self->inspected_packet;
  /* Translators: the legend of a deflection frame: a message whose last hop was not towards its destination. */
  d->deflected_label = _("deflected");
  /* Translators: the legend of a deflection frame: the number beside a switch. */
  d->waiting_label = _("messages waiting at their source");
}

void
flitlab_canvas_draw_simulation (FlitlabCanvas *self,
                                cairo_t       *cr)
{
  FlitlabSimSession *session = flitlab_canvas_shown_simulation (self);
  FlDrawDeflect d;
  Frame frame;

  if (flitlab_sim_session_get_deflect (session) != NULL)
    {
      deflect_fill (self, session, &d);
      fl_draw_deflect (cr, flitlab_canvas_picture (self), &self->draw, &d);
      return;
    }
  frame_fill (self, session, &frame);
  fl_draw_flits (cr, flitlab_canvas_picture (self), &self->draw, &frame.f);
  frame_clear (&frame);
}

void
flitlab_canvas_draw_frame (FlitlabCanvas       *self,
                           cairo_t             *cr,
                           const FlDrawOptions *options)
{
  FlitlabSimSession *session = flitlab_canvas_shown_simulation (self);
  char caption[64];
  FlDrawDeflect d;
  Frame frame;

  if (flitlab_sim_session_get_deflect (session) != NULL)
    {
      deflect_fill (self, session, &d);
      fl_draw_deflect_caption (d.deflect, caption, sizeof caption);
      d.caption = caption;
      fl_draw_deflect (cr, flitlab_canvas_picture (self), options, &d);
      return;
    }
  frame_fill (self, session, &frame);
  fl_draw_frame_caption (frame.f.sim, caption, sizeof caption);
  frame.f.caption = caption;
  fl_draw_flits (cr, flitlab_canvas_picture (self), options, &frame.f);
  frame_clear (&frame);
}

/* The deflection message drawn under (x, y), inspected as a packet. */
static gboolean
inspect_message_at (FlitlabCanvas     *self,
                    FlitlabSimSession *session,
                    double             x,
                    double             y)
{
  const FlTopology *t = flitlab_canvas_picture (self);
  FlDrawDeflect d;
  gint64 message;

  deflect_fill (self, session, &d);
  /* Small messages get a few pixels of slack. */
  message = fl_draw_deflect_hit (t, &self->draw.view, &d, x, y,
                                 MAX (fl_draw_deflect_size (t, &self->draw.view, &d, NULL) * 0.75, 4.0));
  flitlab_canvas_set_inspected_packet (self, message);
  if (message >= 0)
    flitlab_document_select (self->document, -1, -1);
  return message >= 0;
}

gboolean
flitlab_canvas_inspect_packet_at (FlitlabCanvas *self,
                                  double         x,
                                  double         y)
{
  FlitlabSimSession *session = flitlab_canvas_shown_simulation (self);
  Frame frame;
  FlitHit hit = { 0 };
  int aggregated = 0;
  double size;

  if (session == NULL)
    {
      flitlab_canvas_set_inspected_packet (self, -1);
      return FALSE;
    }
  if (flitlab_sim_session_get_deflect (session) != NULL)
    return inspect_message_at (self, session, x, y);
  frame_fill (self, session, &frame);
  size = fl_draw_flit_size (flitlab_canvas_picture (self), &self->draw.view, &frame.f, &aggregated);
  hit.t = flitlab_canvas_picture (self);
  hit.view = &self->draw.view;
  hit.f = &frame.f;
  hit.x = x;
  hit.y = y;
  /* Small flits get a few pixels of slack. */
  hit.best = MAX (size * 0.75, 4.0);
  hit.packet = -1;
  if (!aggregated)
    fl_sim_foreach_flit (frame.f.sim, 0, hit_flit, &hit);
  frame_clear (&frame);
  flitlab_canvas_set_inspected_packet (self, hit.packet);
  if (hit.packet >= 0)
    flitlab_document_select (self->document, -1, -1);
  return hit.packet >= 0;
}

static void
simulation_changed (FlitlabCanvas *self)
{
  g_signal_group_set_target (self->simulation_signals, flitlab_document_get_simulation (self->document));
  flitlab_canvas_set_inspected_packet (self, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flitlab_canvas_set_show_simulation (FlitlabCanvas *self,
                                    gboolean       show)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (self->show_simulation == !!show)
    return;
  self->show_simulation = !!show;
  /* The picture has hosts while a simulation is shown, not while routing
   * overlays are. */
  flitlab_canvas_picture_changed (self);
}

void
flitlab_canvas_set_flit_palette (FlitlabCanvas     *self,
                                 FlDrawFlitPalette  palette)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (self->flit_palette == palette)
    return;
  self->flit_palette = palette;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

FlDrawFlitPalette
flitlab_canvas_get_flit_palette (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FL_DRAW_PALETTE_CONTRAST);

  return self->flit_palette;
}

gboolean
flitlab_canvas_get_show_simulation (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FALSE);

  return self->show_simulation;
}

void
flitlab_canvas_sim_init (FlitlabCanvas *self)
{
  self->flit_colour = FL_DRAW_FLITS_BY_PACKET;
  self->inspected_packet = -1;
  self->simulation_signals = g_signal_group_new (FLITLAB_TYPE_SIM_SESSION);
  g_signal_group_connect_swapped (self->simulation_signals, "stepped", G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_group_connect_swapped (self->simulation_signals, "notify::status", G_CALLBACK (gtk_widget_queue_draw),
                                  self);
  g_signal_group_connect_swapped (self->document_signals, "notify::simulation", G_CALLBACK (simulation_changed),
                                  self);
  g_signal_connect_swapped (self->document_signals, "bind", G_CALLBACK (simulation_changed), self);
}
