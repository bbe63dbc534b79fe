/* flitlab-sim-plot.c — a live plot over simulated time. */
#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "flitlab-draw.h"
#include "flitlab-node-number.h"
#include "flitlab-sim-plot.h"

#define PLOT_HEIGHT 150

struct _FlitlabSimPlot
{
  GtkWidget parent_instance;

  FlitlabSimPlotKind kind;
  int link;
  FlitlabSimSession *session;
  gulong stepped_id;
  int n_points;
};

G_DEFINE_FINAL_TYPE (FlitlabSimPlot, flitlab_sim_plot, GTK_TYPE_WIDGET)

/* The points of one series, x the middle of each sample interval. */
typedef struct
{
  double *x, *y[2];
  size_t n;
} Points;

static void
points_clear (Points *p)
{
  g_free (p->x);
  g_free (p->y[0]);
  g_free (p->y[1]);
}

/* Room for n points in each series. */
static void
points_alloc (Points *p,
              size_t  n)
{
  p->x = g_new (double, MAX (n, 1));
  p->y[0] = g_new (double, MAX (n, 1));
  p->y[1] = g_new (double, MAX (n, 1));
}

/* The middle of each sample interval recorded, as the x of its point; their
 * number goes to p->n. */
static const FlSimSample *
sample_points (const FlSimTimeline *tl,
               Points              *p)
{
  const FlSimSample *samples = NULL;
  double half = fl_sim_timeline_sample_interval (tl) / 2.0;

  p->n = fl_sim_timeline_samples (tl, &samples);
  points_alloc (p, p->n);
  for (size_t i = 0; i < p->n; i++)
    p->x[i] = (double) samples[i].cycle + half;
  return samples;
}

static void
samples_points (const FlSimTimeline *tl,
                FlitlabSimPlotKind   kind,
                Points              *p)
{
  const FlSimSample *samples = sample_points (tl, p);

  for (size_t i = 0; i < p->n; i++)
    {
      p->y[0][i] = kind == FLITLAB_SIM_PLOT_LATENCY ? samples[i].latency : samples[i].accepted;
      p->y[1][i] = samples[i].offered;
    }
}

static void
link_points (const FlSimTimeline *tl,
             int                  link,
             Points              *p)
{
  size_t n;
  FlError err;

  sample_points (tl, p);
  n = p->n;
  for (int end = 0; end < 2; end++)
    if (fl_sim_timeline_channel_series (tl, 2 * link + end, p->y[end], n, &n, &err) != FL_OK)
      p->n = 0;
}

/* The deflection model's throughput (messages delivered per cycle per
 * switch) and mean delay of the messages delivered, over bins of cycles:
 * at most MAX_BINS points, whatever the length of the run. */
#define MAX_BINS 400

static void
deflect_points (FlitlabSimSession  *session,
                FlitlabSimPlotKind  kind,
                Points             *p)
{
  gsize n = 0;
  const FlDeflectStats *st = flitlab_sim_session_get_deflect_stats (session, &n);
  int switches = MAX (1, fl_topology_switch_count (flitlab_sim_session_get_topology (session)));
  gint64 last = (gint64) n - 1;
  gint64 width = MAX (1, (last + MAX_BINS - 1) / MAX_BINS);

  points_alloc (p, MAX_BINS + 1);
  p->n = 0;
  for (gint64 a = 0; a + width <= last; a += width)
    {
      const FlDeflectStats *s0 = &st[a], *s1 = &st[a + width];
      double delivered = (double) (s1->delivered - s0->delivered);

      p->x[p->n] = (double) a + width / 2.0;
      if (kind == FLITLAB_SIM_PLOT_LATENCY)
        /* The delays of the messages delivered within the bin. */
        p->y[0][p->n] = delivered > 0 ? (s1->avg_delay * (double) s1->delivered
                                          - s0->avg_delay * (double) s0->delivered) / delivered
                                      : NAN;
      else
        p->y[0][p->n] = delivered / ((double) width * switches);
      p->n++;
    }
}

static void
deflect_plot (FlitlabSimPlot *self,
              FlDrawPlot     *plot,
              Points         *points)
{
  deflect_points (self->session, self->kind, points);
  plot->title = self->kind == FLITLAB_SIM_PLOT_LATENCY ? _("Average delay of the messages delivered, cycles")
                                                       : _("Throughput, messages per cycle per switch");
  plot->series[0] = (FlDrawPlotSeries) { .name = NULL, .colour = -1, .x = points->x, .y = points->y[0],
                                         .n = (int) points->n };
  plot->nseries = 1;
  plot->legend = FALSE;
}

/* The flit-level plots, from the timeline's samples; FALSE when there is
 * nothing to plot (no link chosen). ab and ba get the link's channels'
 * names. */
static gboolean
timeline_plot (FlitlabSimPlot      *self,
               const FlSimTimeline *tl,
               const FlTopology    *t,
               FlDrawPlot          *plot,
               Points              *points,
               char               **ab,
               char               **ba)
{
  switch (self->kind)
    {
    case FLITLAB_SIM_PLOT_THROUGHPUT:
      samples_points (tl, self->kind, points);
      plot->title = _("Throughput, flits per cycle per host");
      plot->series[0] = (FlDrawPlotSeries) { .name = _("accepted"), .colour = -1, .x = points->x, .y = points->y[0],
                                             .n = (int) points->n };
      plot->series[1] = (FlDrawPlotSeries) { .name = _("offered"), .colour = 0x9a9996, .x = points->x,
                                             .y = points->y[1], .n = (int) points->n, .width = 1 };
      plot->nseries = 2;
      plot->refs[0] = (FlDrawPlotRef) { .label = _("rate set"), .colour = -1,
                                        .y = fl_sim_config (flitlab_sim_session_get_sim (self->session))
                                               ->traffic.rate };
      plot->nrefs = 1;
      break;
    case FLITLAB_SIM_PLOT_LATENCY:
      samples_points (tl, self->kind, points);
      plot->title = _("Average latency, cycles");
      plot->series[0] = (FlDrawPlotSeries) { .name = NULL, .colour = -1, .x = points->x, .y = points->y[0],
                                             .n = (int) points->n };
      plot->nseries = 1;
      plot->legend = FALSE;
      break;
    case FLITLAB_SIM_PLOT_LINK:
    default:
      if (self->link < 0 || self->link >= fl_topology_link_count (t))
        return FALSE;
      link_points (tl, self->link, points);
      *ab = flitlab_channel_name (t, 2 * self->link);
      *ba = flitlab_channel_name (t, 2 * self->link + 1);
      plot->title = _("Channel utilization");
      plot->y.fixed = TRUE;
      plot->y.min = 0;
      plot->y.max = 1;
      plot->series[0] = (FlDrawPlotSeries) { .name = *ab, .colour = -1, .x = points->x, .y = points->y[0],
                                             .n = (int) points->n };
      plot->series[1] = (FlDrawPlotSeries) { .name = *ba, .colour = -1, .x = points->x, .y = points->y[1],
                                             .n = (int) points->n };
      plot->nseries = 2;
    }
  return TRUE;
}

static void
flitlab_sim_plot_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  FlitlabSimPlot *self = FLITLAB_SIM_PLOT (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  const FlSimTimeline *tl;
  const FlTopology *t;
  g_autofree char *ab = NULL, *ba = NULL;
  Points points = { 0 };
  FlDrawPlot plot;
  cairo_t *cr;

  self->n_points = 0;
  if (self->session == NULL || width <= 0 || height <= 0)
    return;
  tl = flitlab_sim_session_get_timeline (self->session);
  t = flitlab_sim_session_get_topology (self->session);
  fl_draw_plot_init (&plot);
  plot.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  plot.x.label = _("cycle");
  plot.cursor = (double) flitlab_sim_session_get_cycle (self->session);
  plot.x.fixed = TRUE;
  plot.x.min = 0;
  plot.x.max = MAX (1.0, (double) flitlab_sim_session_get_max_cycle (self->session));
  if (flitlab_sim_session_get_deflect (self->session) != NULL)
    {
      /* No timeline: no link series. */
      if (self->kind == FLITLAB_SIM_PLOT_LINK)
        return;
      deflect_plot (self, &plot, &points);
    }
  else if (!timeline_plot (self, tl, t, &plot, &points, &ab, &ba))
    return;
  self->n_points = (int) points.n;
  /* A few samples make no line worth the name (a run that deadlocked
   * early has one): mark each point. */
  for (int i = 0; i < plot.nseries; i++)
    plot.series[i].markers = plot.series[i].n < 12;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  fl_draw_plot (cr, &plot, width, height);
  cairo_destroy (cr);
  points_clear (&points);
}

static void
flitlab_sim_plot_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 160 : PLOT_HEIGHT;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 280 : PLOT_HEIGHT;
}

void
flitlab_sim_plot_set_session (FlitlabSimPlot    *self,
                              FlitlabSimSession *session)
{
  g_return_if_fail (FLITLAB_IS_SIM_PLOT (self));

  if (session == self->session)
    return;
  if (self->session != NULL)
    g_clear_signal_handler (&self->stepped_id, self->session);
  g_set_object (&self->session, session);
  if (session != NULL)
    self->stepped_id = g_signal_connect_object (session, "stepped", G_CALLBACK (gtk_widget_queue_draw), self,
                                                G_CONNECT_SWAPPED);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flitlab_sim_plot_set_link (FlitlabSimPlot *self,
                           int             link)
{
  g_return_if_fail (FLITLAB_IS_SIM_PLOT (self));

  self->link = link;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
flitlab_sim_plot_get_n_points (FlitlabSimPlot *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_PLOT (self), 0);

  return self->n_points;
}

GtkWidget *
flitlab_sim_plot_new (FlitlabSimPlotKind kind)
{
  FlitlabSimPlot *self = g_object_new (FLITLAB_TYPE_SIM_PLOT, NULL);

  self->kind = kind;
  return GTK_WIDGET (self);
}

static void
flitlab_sim_plot_dispose (GObject *object)
{
  flitlab_sim_plot_set_session (FLITLAB_SIM_PLOT (object), NULL);
  G_OBJECT_CLASS (flitlab_sim_plot_parent_class)->dispose (object);
}

static void
flitlab_sim_plot_class_init (FlitlabSimPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_sim_plot_dispose;
  widget_class->snapshot = flitlab_sim_plot_snapshot;
  widget_class->measure = flitlab_sim_plot_measure;
  gtk_widget_class_set_css_name (widget_class, "simplot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
flitlab_sim_plot_init (FlitlabSimPlot *self)
{
  self->link = -1;
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (gtk_widget_queue_draw),
                           self, G_CONNECT_SWAPPED);
}
