/* flitlab-multicast-page.c — the multicast page of the Collectives tab.
 *
 * The page holds a source and destinations (host ranks, as the engine's
 * trees), picked on the canvas or at random, and the tree of the chosen
 * algorithm built from them on the main loop whenever anything it depends
 * on changes: building and checking a tree is quick for any network the
 * canvas can show. The flit-level run of the tree's messages is the slow
 * part: it runs in a worker on the routing built (kept referenced), and is
 * dropped with the tree it ran. Play replays that run in the document's
 * simulation session, through a trace of it.
 */
#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdlib.h>

#include "flitlab-collectives-panel.h"
#include "flitlab-multicast-page.h"

/* A run longer than this many cycles is cut short: software costs of
 * thousands of cycles on a few hundred hosts stay far below it. */
#define MAX_RUN_CYCLES 50000000
/* Edges listed under the diagram; a larger tree lists its first ones. */
#define MAX_LISTED_EDGES 100
/* The diagram's height per row, and around them. */
#define CHART_ROW 16
#define CHART_EXTRA 70
#define CHART_MAX 900

/* The figures shown beside their names. */
typedef enum {
  FIGURE_LATENCY,
  FIGURE_SIMULATED,
  FIGURE_TIMES,
  FIGURE_CONTENTION,
  N_FIGURES
} Figure;

/* The keys of flitlab_multicast_page_get_value(), by figure. */
static const char * const figure_keys[N_FIGURES] = { "latency", "simulated", "times", "contention" };

/* A flit-level run of the tree's messages: what it ran, and when each
 * message was sent, injected, arrived and received. */
typedef struct
{
  FlitlabRouted *routed;
  FlSimConfig config;
  FlMessage *messages;
  int n;
  FlMessageCosts costs;
  FlMessageTimes *times;
  gint64 completion;
} Run;

static void
run_free (gpointer data)
{
  Run *run = data;

  if (run == NULL)
    return;
  if (run->routed != NULL)
    flitlab_routed_unref (run->routed);
  free (run->messages);
  g_free (run->times);
  g_free (run);
}

/* The worker's own copy of what to run: the page may drop its run (a new
 * tree) while the worker still reads this one. */
static Run *
run_copy (const Run *run)
{
  Run *copy = g_memdup2 (run, sizeof *run);

  copy->routed = flitlab_routed_ref (run->routed);
  copy->messages = malloc (sizeof *run->messages * MAX (run->n, 1));
  if (copy->messages == NULL)
    g_error ("out of memory copying a multicast's messages");
  memcpy (copy->messages, run->messages, sizeof *run->messages * run->n);
  copy->times = NULL;
  return copy;
}

struct _FlitlabMulticastPage
{
  GtkWidget parent_instance;

  /* Template children. */
  GtkWidget *box;
  AdwComboRow *algorithm_row;
  GtkSpinButton *hold_spin;
  GtkSpinButton *end_spin;
  AdwExpanderRow *costs_row;
  GtkSpinButton *size_spin;
  GtkSpinButton *ss_spin;
  GtkSpinButton *sd_spin;
  GtkSpinButton *cd_spin;
  GtkSpinButton *rs_spin;
  GtkSpinButton *rd_spin;
  GtkSpinButton *packet_spin;
  AdwPreferencesGroup *nodes_group;
  GtkSpinButton *random_spin;
  GtkSpinButton *seed_spin;
  GtkLabel *status_label;
  GtkGrid *figures_grid;
  GtkLabel *conflicts_label;
  GtkWidget *simulate_button;
  GtkWidget *play_button;
  GtkProgressBar *progress_bar;
  GtkToggleButton *model_toggle;
  GtkToggleButton *simulated_toggle;
  GtkDrawingArea *legend_area;
  GtkDrawingArea *chart_area;
  GtkGrid *edges_grid;
  GtkLabel *figures[N_FIGURES];

  FlitlabDocument *document;
  GSignalGroup *document_signals;
  FlitlabWorkers *workers;
  char *play_note;
  gboolean updating;

  /* The nodes chosen: host ranks, -1 for no source. */
  int source;
  GArray *dests;

  /* The tree of the nodes chosen, the routing it was built and checked on
   * (a reference; NULL: none), its conflicts, or why there is none. */
  FlMulticastTree *tree;
  FlitlabRouted *tree_routed;
  FlMulticastConflict *conflicts;
  int nconflicts;
  FlDrawMulticastRoutes *routes;  /* its unicasts' routes, for the canvas */
  char *error;

  /* The legend's words, translated. */
  FlDrawMulticastText text;

  /* The last flit-level run of the tree, and whether one is running. */
  Run *run;
  gboolean running;
  guint pulse_id;
};

G_DEFINE_FINAL_TYPE (FlitlabMulticastPage, flitlab_multicast_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_PLAY_NOTE,
  PROP_PLAY_CYCLES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
static guint signals[FLITLAB_COLLECTIVE_N_SIGNALS];

static void rebuild (FlitlabMulticastPage *self);

/* The network ------------------------------------------------------------------- */

/* The routing built for the network as it is, or NULL. */
static FlitlabRouted *
usable_routed (FlitlabMulticastPage *self)
{
  FlitlabRouted *routed = self->document != NULL ? flitlab_document_get_routed (self->document) : NULL;
  const FlTopology *t = self->document != NULL ? flitlab_document_get_topology (self->document) : NULL;

  if (routed == NULL || routed->routing == NULL
      || fl_topology_node_count (routed->topology) != fl_topology_node_count (t)
      || fl_topology_link_count (routed->topology) != fl_topology_link_count (t))
    return NULL;
  return routed;
}

static const FlTopology *
topology (FlitlabMulticastPage *self)
{
  return self->document != NULL ? flitlab_document_get_topology (self->document) : NULL;
}

/* A host's name: its switch's coordinates "(a,b)" on a 2D grid with one
 * host a switch, as paper 001 names mesh nodes; else its number. */
static char *
host_name (const FlTopology *t,
           int               host)
{
  int node = host >= 0 && host < fl_topology_host_count (t) ? fl_topology_host_node (t, host) : -1;
  int sw = node >= 0 ? fl_topology_host_switch (t, node) : -1;
  int c[FL_MAX_DIMS], hosts = 0;

  if (sw >= 0 && fl_topology_coord_dims (t) == 2)
    {
      for (int p = 0; p < fl_topology_node_ports (t, sw); p++)
        {
          int peer = fl_topology_port_peer (t, sw, p, NULL);

          hosts += peer >= 0 && fl_topology_node_kind (t, peer) == FL_NODE_HOST;
        }
      fl_topology_get_coords (t, sw, c);
      if (hosts == 1)
        return g_strdup_printf ("(%d,%d)", c[0], c[1]);
    }
  /* Translators: a host of the network, by number. */
  return g_strdup_printf (_("host %d"), host);
}

/* The host a click on node stands for: a host itself, or a switch's first
 * host; -1 for a switch without hosts. */
static int
host_of_node (const FlTopology *t,
              int               node)
{
  if (node < 0 || node >= fl_topology_node_count (t))
    return -1;
  if (fl_topology_node_kind (t, node) == FL_NODE_HOST)
    return fl_topology_node_rank (t, node);
  for (int p = 0; p < fl_topology_node_ports (t, node); p++)
    {
      int peer = fl_topology_port_peer (t, node, p, NULL);

      if (peer >= 0 && fl_topology_node_kind (t, peer) == FL_NODE_HOST)
        return fl_topology_node_rank (t, peer);
    }
  return -1;
}

/* The parameters ------------------------------------------------------------------ */

static FlMulticastAlgorithm
algorithm (FlitlabMulticastPage *self)
{
  return (FlMulticastAlgorithm) adw_combo_row_get_selected (self->algorithm_row);
}

static int
spin (GtkSpinButton *button)
{
  return gtk_spin_button_get_value_as_int (button);
}

static void
message_costs (FlitlabMulticastPage *self,
               FlMessageCosts       *c)
{
  memset (c, 0, sizeof *c);
  c->send_startup = spin (self->ss_spin);
  c->send_per_flit = spin (self->sd_spin);
  c->recv_startup = spin (self->rs_spin);
  c->recv_per_flit = spin (self->rd_spin);
  c->max_packet = spin (self->packet_spin);
}

static gboolean
from_costs (FlitlabMulticastPage *self)
{
  return adw_expander_row_get_enable_expansion (self->costs_row);
}

/* t_hold and t_end as the tree takes them: given, or derived from the
 * message's size and costs (paper 001, section 4.2, without the head's
 * time through the network). */
static void
model_times (FlitlabMulticastPage *self,
             gint64               *hold,
             gint64               *end)
{
  FlMessageCosts c;
  int64_t h, e;

  if (!from_costs (self))
    {
      *hold = spin (self->hold_spin);
      *end = spin (self->end_spin);
      return;
    }
  message_costs (self, &c);
  fl_message_model (&c, spin (self->size_spin), spin (self->cd_spin), 0, &h, &e);
  *hold = h;
  *end = e;
}

/* The figures ----------------------------------------------------------------------- */

static void
set_figure (FlitlabMulticastPage *self,
            Figure                figure,
            const char           *text)
{
  gtk_label_set_text (self->figures[figure], text != NULL ? text : "—");
}

static void
clear_run (FlitlabMulticastPage *self)
{
  g_clear_pointer (&self->run, run_free);
  if (self->workers != NULL && self->running)
    flitlab_workers_supersede (self->workers, FLITLAB_JOB_COLLECTIVE);
  self->running = FALSE;
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
  gtk_toggle_button_set_active (self->model_toggle, TRUE);
}

/* A run finished: its times are in. */
static gboolean
has_run (FlitlabMulticastPage *self)
{
  return self->run != NULL && self->run->times != NULL;
}

static gboolean
showing_simulated (FlitlabMulticastPage *self)
{
  return has_run (self) && gtk_toggle_button_get_active (self->simulated_toggle);
}

/* Grid rows of labels: the header, then one per edge. */
static GtkWidget *
grid_label (GtkGrid    *grid,
            const char *text,
            int         column,
            int         row,
            gboolean    heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 1 ? 0 : 1);
  gtk_widget_add_css_class (label, heading ? "dim-label" : "numeric");
  if (column == 1)
    gtk_widget_set_hexpand (label, TRUE);
  gtk_grid_attach (grid, label, column, row, 1, 1);
  return label;
}

static void
update_edges (FlitlabMulticastPage *self)
{
  const FlTopology *t = topology (self);
  int n = self->tree != NULL ? fl_multicast_tree_edge_count (self->tree) : 0;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->edges_grid))) != NULL)
    gtk_grid_remove (self->edges_grid, child);
  gtk_widget_set_visible (GTK_WIDGET (self->edges_grid), n > 0);
  if (n == 0)
    return;
  /* Translators: the columns of the list of a multicast tree's unicasts. */
  grid_label (self->edges_grid, _("Step"), 0, 0, TRUE);
  grid_label (self->edges_grid, _("Unicast"), 1, 0, TRUE);
  grid_label (self->edges_grid, _("Send"), 2, 0, TRUE);
  grid_label (self->edges_grid, _("Receive"), 3, 0, TRUE);
  if (has_run (self))
    /* Translators: the column of receive times in the flit-level run. */
    grid_label (self->edges_grid, _("Run"), 4, 0, TRUE);
  for (int i = 0; i < n && i < MAX_LISTED_EDGES; i++)
    {
      const FlMulticastEdge *e = fl_multicast_tree_edge (self->tree, i);
      g_autofree char *from = host_name (t, e->parent);
      g_autofree char *to = host_name (t, e->child);
      g_autofree char *step = g_strdup_printf ("%d", e->step);
      g_autofree char *edge = g_strdup_printf ("%s → %s", from, to);
      g_autofree char *send = g_strdup_printf ("%g", e->send_time);
      g_autofree char *receive = g_strdup_printf ("%g", e->recv_time);
      GtkWidget *step_label = grid_label (self->edges_grid, step, 0, i + 1, FALSE);
      double rgb[3];
      g_autofree char *markup = NULL;

      /* The step in its colour on the canvas. */
      fl_draw_multicast_step_colour (e->step, rgb);
      markup = g_strdup_printf ("<span foreground=\"#%02x%02x%02x\" weight=\"bold\">%d</span>",
                                (int) (rgb[0] * 255), (int) (rgb[1] * 255), (int) (rgb[2] * 255), e->step);
      gtk_label_set_markup (GTK_LABEL (step_label), markup);
      grid_label (self->edges_grid, edge, 1, i + 1, FALSE);
      grid_label (self->edges_grid, send, 2, i + 1, FALSE);
      grid_label (self->edges_grid, receive, 3, i + 1, FALSE);
      if (has_run (self) && i < self->run->n)
        {
          g_autofree char *received = g_strdup_printf ("%" PRId64, (gint64) self->run->times[i].received);

          grid_label (self->edges_grid, received, 4, i + 1, FALSE);
        }
    }
  if (n > MAX_LISTED_EDGES)
    {
      /* Translators: under a list cut short; %d is how many more there are. */
      g_autofree char *more = g_strdup_printf (ngettext ("… and %d more", "… and %d more", n - MAX_LISTED_EDGES),
                                               n - MAX_LISTED_EDGES);

      grid_label (self->edges_grid, more, 1, MAX_LISTED_EDGES + 1, TRUE);
    }
}

static void
update_conflicts (FlitlabMulticastPage *self)
{
  const FlTopology *t = topology (self);
  g_autoptr(GString) text = g_string_new (NULL);

  for (int i = 0; i < self->nconflicts && i < 20; i++)
    {
      const FlMulticastEdge *a = fl_multicast_tree_edge (self->tree, self->conflicts[i].edge_a);
      const FlMulticastEdge *b = fl_multicast_tree_edge (self->tree, self->conflicts[i].edge_b);
      g_autofree char *a1 = host_name (t, a->parent), *a2 = host_name (t, a->child);
      g_autofree char *b1 = host_name (t, b->parent), *b2 = host_name (t, b->child);
      int channel = self->conflicts[i].channel;

      if (text->len > 0)
        g_string_append_c (text, '\n');
      /* Translators: two unicasts of a multicast tree that share a channel,
       * and the switches at the channel's ends. */
      g_string_append_printf (text, _("%s → %s and %s → %s share channel %d → %d"), a1, a2, b1, b2,
                              fl_topology_node_label (t, fl_topology_channel_src (t, channel)),
                              fl_topology_node_label (t, fl_topology_channel_dst (t, channel)));
    }
  if (self->nconflicts > 20)
    g_string_append_printf (text, "\n…");
  gtk_label_set_text (self->conflicts_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->conflicts_label), self->nconflicts > 0);
}

static void
update_figures (FlitlabMulticastPage *self)
{
  gint64 hold, end;
  g_autofree char *latency = NULL, *simulated = NULL, *times = NULL, *contention = NULL;

  model_times (self, &hold, &end);
  times = g_strdup_printf ("%" PRId64 ", %" PRId64, hold, end);
  if (self->tree != NULL)
    latency = g_strdup_printf ("%g", fl_multicast_tree_latency (self->tree));
  if (has_run (self))
    simulated = g_strdup_printf ("%" PRId64, self->run->completion);
  else if (self->running)
    simulated = g_strdup (_("running…"));
  if (self->tree != NULL && self->tree_routed != NULL && self->nconflicts == 0)
    contention = g_strdup (_("none"));
  else if (self->tree != NULL && self->tree_routed != NULL)
    /* Translators: pairs of unicasts sharing a channel. */
    contention = g_strdup_printf (ngettext ("%d pair", "%d pairs", self->nconflicts), self->nconflicts);
  set_figure (self, FIGURE_LATENCY, latency);
  set_figure (self, FIGURE_SIMULATED, simulated);
  set_figure (self, FIGURE_TIMES, times);
  set_figure (self, FIGURE_CONTENTION, contention);

  gtk_label_set_text (self->status_label, self->error != NULL ? self->error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), self->error != NULL);
  gtk_widget_set_sensitive (self->simulate_button, self->tree != NULL && self->tree_routed != NULL && !self->running);
  gtk_widget_set_sensitive (self->play_button, has_run (self));
  gtk_widget_set_sensitive (GTK_WIDGET (self->simulated_toggle), has_run (self));
  gtk_widget_set_sensitive (GTK_WIDGET (self->hold_spin), !from_costs (self));
  gtk_widget_set_sensitive (GTK_WIDGET (self->end_spin), !from_costs (self));
  update_conflicts (self);
  update_edges (self);
}

static void
update_nodes (FlitlabMulticastPage *self)
{
  const FlTopology *t = topology (self);
  g_autofree char *text = NULL;

  if (self->source < 0)
    text = g_strdup (_("Click a switch or a host on the drawing for the source, then the destinations."));
  else
    {
      g_autofree char *source = host_name (t, self->source);

      /* Translators: the source of a multicast and how many destinations it has. */
      text = g_strdup_printf (ngettext ("Source %s, %u destination. Click nodes to add or remove destinations.",
                                        "Source %s, %u destinations. Click nodes to add or remove destinations.",
                                        self->dests->len),
                              source, self->dests->len);
    }
  adw_preferences_group_set_description (self->nodes_group, text);
}

/* The chart -------------------------------------------------------------------------- */

/* The rows of the diagram: the source, then each receiver in the order of
 * the tree's edges (by send time); row_of maps a host to its row. */
typedef struct
{
  char **names;
  int rows;
  int *row_of;
  FlDrawBar *bars;
  int nbars;
} ChartData;

static void
chart_data_clear (ChartData *d)
{
  for (int i = 0; i < d->rows; i++)
    g_free (d->names[i]);
  g_free (d->names);
  g_free (d->row_of);
  g_free (d->bars);
}

static void
add_bar (ChartData    *d,
         int           host,
         double        start,
         double        end,
         FlDrawBarKind kind)
{
  if (host < 0 || d->row_of[host] < 0 || !(end > start))
    return;
  d->bars[d->nbars++] = (FlDrawBar) { d->row_of[host], start, end, kind, -1, NULL };
}

static void
chart_data_fill (FlitlabMulticastPage *self,
                 ChartData            *d,
                 gboolean              simulated)
{
  const FlTopology *t = topology (self);
  int n = fl_multicast_tree_edge_count (self->tree), hosts = fl_topology_host_count (t);
  gint64 hold, end, receive = 0;
  FlMessageCosts c;

  memset (d, 0, sizeof *d);
  d->names = g_new0 (char *, n + 1);
  d->row_of = g_new (int, MAX (hosts, 1));
  d->bars = g_new0 (FlDrawBar, 3 * n + 1);
  for (int h = 0; h < hosts; h++)
    d->row_of[h] = -1;
  d->row_of[fl_multicast_tree_source (self->tree)] = 0;
  d->names[d->rows++] = host_name (t, fl_multicast_tree_source (self->tree));
  for (int i = 0; i < n; i++)
    {
      int child = fl_multicast_tree_edge (self->tree, i)->child;

      if (child >= 0 && child < hosts && d->row_of[child] < 0)
        {
          d->row_of[child] = d->rows;
          d->names[d->rows++] = host_name (t, child);
        }
    }
  model_times (self, &hold, &end);
  /* With the costs, the model's receive is its last r_s + r_d L; without,
   * the receiver's share of t_end is unknown and all of what follows the
   * sender's t_hold is drawn as its receive. */
  message_costs (self, &c);
  if (from_costs (self))
    receive = c.recv_startup + c.recv_per_flit * spin (self->size_spin);
  else
    receive = MAX (end - hold, 0);
  for (int i = 0; i < n; i++)
    {
      const FlMulticastEdge *e = fl_multicast_tree_edge (self->tree, i);

      if (simulated && i < self->run->n)
        {
          const FlMessageTimes *m = &self->run->times[i];

          add_bar (d, e->parent, m->start, m->injected, FL_DRAW_BAR_SEND);
          add_bar (d, e->child, m->injected, m->arrived, FL_DRAW_BAR_NETWORK);
          add_bar (d, e->child, m->arrived, m->received, FL_DRAW_BAR_RECEIVE);
        }
      else if (!simulated)
        {
          add_bar (d, e->parent, e->send_time, e->send_time + hold, FL_DRAW_BAR_SEND);
          add_bar (d, e->child, e->send_time + hold, e->recv_time - receive, FL_DRAW_BAR_NETWORK);
          add_bar (d, e->child, e->recv_time - receive, e->recv_time, FL_DRAW_BAR_RECEIVE);
        }
    }
}

static void
draw_chart (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  FlitlabMulticastPage *self = user_data;
  gboolean simulated = showing_simulated (self);
  ChartData d;
  FlDrawChart chart;

  if (self->tree == NULL)
    return;
  chart_data_fill (self, &d, simulated);
  fl_draw_chart_init (&chart);
  chart.title = simulated ? _("Flit-level run") : _("Paper 001’s model");
  chart.row_labels = (const char * const *) d.names;
  chart.rows = d.rows;
  chart.bars = d.bars;
  chart.nbars = d.nbars;
  /* Translators: the unit of the timing diagram's axis. */
  chart.time_unit = _("cycles");
  chart.marker = simulated ? (double) self->run->completion : fl_multicast_tree_latency (self->tree);
  chart.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  fl_draw_chart (cr, &chart, width, height);
  chart_data_clear (&d);
}

/* What the canvas and the legend draw. */
static void
multicast_fill (FlitlabMulticastPage *self,
                FlDrawMulticast      *m)
{
  fl_draw_multicast_init (m);
  m->tree = self->tree;
  m->routing = self->tree_routed != NULL ? self->tree_routed->routing : NULL;
  m->routes = self->routes;
  m->conflicts = self->conflicts;
  m->nconflicts = self->nconflicts;
  m->source = self->source;
  m->dests = (const int *) (void *) self->dests->data;
  m->ndests = self->dests->len;
  m->text = &self->text;
  /* The page shows the legend; the canvas keeps the whole network. */
  m->legend = FALSE;
}

static void
draw_legend (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  FlitlabMulticastPage *self = user_data;
  FlDrawMulticast m;

  multicast_fill (self, &m);
  m.legend = TRUE;
  fl_draw_multicast_legend (cr, &m, adw_style_manager_get_dark (adw_style_manager_get_default ()), 0, 0);
}

static void
update_drawings (FlitlabMulticastPage *self)
{
  FlDrawMulticast m;
  double w = 0, h = 0;
  int rows = self->tree != NULL ? fl_multicast_tree_edge_count (self->tree) + 1 : 0;

  multicast_fill (self, &m);
  m.legend = TRUE;
  if (self->source >= 0 || self->tree != NULL)
    fl_draw_multicast_legend_size (&m, &w, &h);
  gtk_drawing_area_set_content_width (self->legend_area, (int) ceil (w));
  gtk_drawing_area_set_content_height (self->legend_area, (int) ceil (h));
  gtk_widget_set_visible (GTK_WIDGET (self->legend_area), h > 0);
  gtk_drawing_area_set_content_height (self->chart_area, MIN (CHART_MAX, CHART_EXTRA + CHART_ROW * rows));
  gtk_widget_set_visible (GTK_WIDGET (self->chart_area), self->tree != NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self->legend_area));
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
  g_signal_emit (self, signals[FLITLAB_COLLECTIVE_SIGNAL_OVERLAY_CHANGED], 0);
}

/* The tree ------------------------------------------------------------------------------ */

static void
clear_tree (FlitlabMulticastPage *self)
{
  g_clear_pointer (&self->tree, fl_multicast_tree_free);
  g_clear_pointer (&self->tree_routed, flitlab_routed_unref);
  g_clear_pointer (&self->conflicts, free);
  g_clear_pointer (&self->routes, fl_draw_multicast_routes_free);
  self->nconflicts = 0;
  g_clear_pointer (&self->error, g_free);
}

/* Builds the tree of the nodes chosen, and checks it for contention under
 * the routing built; anything it ran before is dropped. */
static void
rebuild (FlitlabMulticastPage *self)
{
  FlitlabRouted *routed = usable_routed (self);
  const FlTopology *t = routed != NULL ? routed->topology : topology (self);
  gint64 hold, end;
  FlError err = { 0 };

  clear_run (self);
  clear_tree (self);
  if (t == NULL || self->source < 0 || self->dests->len == 0)
    goto done;
  model_times (self, &hold, &end);
  if (fl_multicast_tree_new (t, routed != NULL ? routed->routing : NULL, algorithm (self), self->source,
                             (const int *) (void *) self->dests->data, self->dests->len, hold, end, &self->tree,
                             &err)
      != FL_OK)
    {
      /* The engine's words: a mesh algorithm off a 2D mesh with dor, say. */
      self->error = g_strdup (err.message);
      self->tree = NULL;
      goto done;
    }
  if (routed == NULL)
    goto done;
  self->tree_routed = flitlab_routed_ref (routed);
  /* Routed once here rather than at every frame of the canvas. */
  self->routes = fl_draw_multicast_routes_new (routed->topology, self->tree, routed->routing, NULL);
  if (fl_multicast_tree_contention (self->tree, routed->routing, FALSE, &self->conflicts, &self->nconflicts, &err)
      != FL_OK)
    {
      self->error = g_strdup (err.message);
      self->conflicts = NULL;
      self->nconflicts = 0;
    }

done:
  if (self->tree == NULL && self->error == NULL && self->source >= 0 && self->dests->len > 0)
    self->error = g_strdup (_("The routing is not built yet: choose one in the Routing tab."));
  update_nodes (self);
  update_figures (self);
  update_drawings (self);
}

static void
parameters_changed_cb (FlitlabMulticastPage *self)
{
  if (!self->updating)
    rebuild (self);
}

/* The nodes ------------------------------------------------------------------------------- */

static void
clear_clicked_cb (FlitlabMulticastPage *self)
{
  self->source = -1;
  g_array_set_size (self->dests, 0);
  rebuild (self);
}

static int
dest_index (FlitlabMulticastPage *self,
            int                   host)
{
  for (guint i = 0; i < self->dests->len; i++)
    if (g_array_index (self->dests, int, i) == host)
      return (int) i;
  return -1;
}

gboolean
flitlab_multicast_page_node_activated (FlitlabMulticastPage *self,
                                       int                   node)
{
  int host, at;

  g_return_val_if_fail (FLITLAB_IS_MULTICAST_PAGE (self), FALSE);

  host = topology (self) != NULL ? host_of_node (topology (self), node) : -1;
  if (host < 0)
    return FALSE;
  if (self->source < 0)
    self->source = host;
  else if (host == self->source)
    /* The source clicked again gives its place to the next click. */
    self->source = -1;
  else if ((at = dest_index (self, host)) >= 0)
    g_array_remove_index (self->dests, at);
  else
    g_array_append_val (self->dests, host);
  rebuild (self);
  return TRUE;
}

void
flitlab_multicast_page_set_nodes (FlitlabMulticastPage *self,
                                  int                   source,
                                  const int            *dests,
                                  int                   n)
{
  g_return_if_fail (FLITLAB_IS_MULTICAST_PAGE (self));

  self->source = source;
  g_array_set_size (self->dests, 0);
  if (dests != NULL && n > 0)
    g_array_append_vals (self->dests, dests, (guint) n);
  rebuild (self);
}

void
flitlab_multicast_page_set_times (FlitlabMulticastPage *self,
                                  double                t_hold,
                                  double                t_end)
{
  g_return_if_fail (FLITLAB_IS_MULTICAST_PAGE (self));

  self->updating = TRUE;
  adw_expander_row_set_enable_expansion (self->costs_row, FALSE);
  gtk_spin_button_set_value (self->hold_spin, t_hold);
  gtk_spin_button_set_value (self->end_spin, t_end);
  self->updating = FALSE;
  rebuild (self);
}

/* K destinations drawn at random (and a source first if there is none)
 * from the hosts with the seed, as `flitlab multicast --random K --seed X`
 * draws them: the same seed picks the same nodes. */
void
flitlab_multicast_page_pick_random (FlitlabMulticastPage *self,
                                    int                   k,
                                    guint64               seed)
{
  const FlTopology *t;
  int hosts;

  g_return_if_fail (FLITLAB_IS_MULTICAST_PAGE (self));

  t = topology (self);
  hosts = t != NULL ? fl_topology_host_count (t) : 0;
  k = CLAMP (k, 0, hosts - 1);
  if (hosts < 2)
    return;
  g_array_set_size (self->dests, (guint) k);
  if (fl_multicast_random_nodes (hosts, k, seed, &self->source,
                                 (int *) (void *) self->dests->data, NULL) != FL_OK)
    g_array_set_size (self->dests, 0);
  rebuild (self);
}

void
flitlab_multicast_page_show_settings (FlitlabMulticastPage *self,
                                      const FlSimSettings  *settings)
{
  const FlMulticastConfig *mc;

  g_return_if_fail (FLITLAB_IS_MULTICAST_PAGE (self));
  g_return_if_fail (settings != NULL);

  mc = &settings->multicast;
  adw_combo_row_set_selected (self->algorithm_row, mc->algorithm);
  adw_expander_row_set_enable_expansion (self->costs_row, TRUE);
  gtk_spin_button_set_value (self->size_spin, mc->flits);
  gtk_spin_button_set_value (self->ss_spin, (double) mc->costs.send_startup);
  gtk_spin_button_set_value (self->sd_spin, (double) mc->costs.send_per_flit);
  gtk_spin_button_set_value (self->rs_spin, (double) mc->costs.recv_startup);
  gtk_spin_button_set_value (self->rd_spin, (double) mc->costs.recv_per_flit);
  gtk_spin_button_set_value (self->cd_spin, mc->channel_cycles);
  gtk_spin_button_set_value (self->packet_spin, mc->costs.max_packet);
  gtk_spin_button_set_value (self->random_spin, mc->dests);
  gtk_spin_button_set_value (self->seed_spin, (double) settings->config.seed);
  /* Drawn afresh, the source too, as fl_multicast_run() draws them. */
  self->source = -1;
  g_array_set_size (self->dests, 0);
  flitlab_multicast_page_pick_random (self, mc->dests, settings->config.seed);
}

static void
random_clicked_cb (FlitlabMulticastPage *self)
{
  flitlab_multicast_page_pick_random (self, spin (self->random_spin), (guint64) spin (self->seed_spin));
}

/* Running flit by flit ------------------------------------------------------------------------ */

/* Runs the job's copy of the page's run; the result is another copy, with
 * the times, that outlives the job's data. */
static gpointer
run_job (FlitlabJob  *job,
         gpointer     data,
         GError     **error)
{
  Run *run = run_copy (data);
  FlSim *sim = NULL;
  FlError err = { 0 };
  int64_t completion = 0;

  run->times = g_new0 (FlMessageTimes, MAX (run->n, 1));
  if (fl_sim_new (run->routed->topology, &run->config, &sim, &err) != FL_OK
      || fl_message_run (sim, run->messages, run->n, &run->costs, MAX_RUN_CYCLES, flitlab_job_progress, job, run->times,
                         &completion, &err) != FL_OK)
    {
      fl_sim_free (sim);
      run_free (run);
      flitlab_set_engine_error (error, &err);
      return NULL;
    }
  fl_sim_free (sim);
  run->completion = completion;
  return run;
}

static void
run_done (gpointer      user_data,
          gpointer      result,
          const GError *error)
{
  FlitlabMulticastPage *self = user_data;
  Run *done = result;

  self->running = FALSE;
  if (done != NULL && self->run != NULL)
    {
      self->run->times = g_steal_pointer (&done->times);
      self->run->completion = done->completion;
    }
  run_free (done);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
  if (error != NULL)
    {
      g_clear_pointer (&self->run, run_free);
      g_free (self->error);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        self->error = g_strdup (_("The run was stopped."));
      else
        /* Translators: the simulator's failure, in its words. */
        self->error = g_strdup_printf (_("The run failed: %s"), error->message);
    }
  else
    gtk_toggle_button_set_active (self->simulated_toggle, TRUE);
  update_figures (self);
  update_drawings (self);
}

static gboolean
pulse (gpointer user_data)
{
  FlitlabMulticastPage *self = user_data;

  gtk_progress_bar_pulse (self->progress_bar);
  return G_SOURCE_CONTINUE;
}

gboolean
flitlab_multicast_page_simulate (FlitlabMulticastPage  *self,
                                 GError               **error)
{
  const FlSimSettings *settings;
  FlMessageCosts costs;
  Run *run;
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_MULTICAST_PAGE (self), FALSE);

  if (self->tree == NULL || self->tree_routed == NULL || self->workers == NULL)
    {
      g_set_error_literal (error, FLITLAB_ENGINE_ERROR, FL_EINVAL,
                           _("There is no tree to run: pick a source and destinations on a routed network."));
      return FALSE;
    }
  settings = flitlab_document_get_sim_settings (self->document);
  if (settings->model == FL_SIM_MODEL_DEFLECTION)
    {
      g_set_error_literal (error, FLITLAB_ENGINE_ERROR, FL_EUNSUPPORTED,
                           _("Messages run on the flit-level simulator: choose the flit-level model in the "
                             "Simulate tab."));
      return FALSE;
    }
  /* Refused before any job: the run would step through every cycle of a
   * message whatever the costs, and stop only at its cycle limit. */
  message_costs (self, &costs);
  if (fl_message_costs_check (&costs, spin (self->size_spin), spin (self->cd_spin), &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  clear_run (self);
  run = g_new0 (Run, 1);
  run->routed = flitlab_routed_ref (self->tree_routed);
  if (fl_multicast_tree_messages (self->tree, spin (self->size_spin), &run->messages, &run->n, &err) != FL_OK)
    {
      run_free (run);
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  run->costs = costs;
  /* The simulator's settings with no traffic of their own, and the
   * channels' per-flit time of the costs. */
  run->config = settings->config;
  run->config.routing = run->routed->routing;
  run->config.traffic.pattern = "uniform";
  run->config.traffic.trace = NULL;
  run->config.traffic.n_trace = 0;
  run->config.traffic.rate = 0;
  run->config.link_cycles_per_flit = spin (self->cd_spin);
  self->run = run;
  self->running = TRUE;
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
  self->pulse_id = g_timeout_add (100, pulse, self);
  /* The worker reads a copy of its own, since a new tree drops the
   * page's run while the job may still read it. */
  flitlab_workers_run (self->workers, FLITLAB_JOB_COLLECTIVE, run_job, run_copy (run), run_free, run_free, NULL,
                       run_done, self);
  g_clear_pointer (&self->error, g_free);
  update_figures (self);
  return TRUE;
}

/* A button's refusal, said where the page says what went wrong. */
static void
show_refusal (FlitlabMulticastPage *self,
              const GError         *error)
{
  g_free (self->error);
  self->error = g_strdup (error->message);
  update_figures (self);
}

static void
simulate_clicked_cb (FlitlabMulticastPage *self)
{
  g_autoptr(GError) error = NULL;

  if (!flitlab_multicast_page_simulate (self, &error))
    show_refusal (self, error);
}

gboolean
flitlab_multicast_page_get_simulated (FlitlabMulticastPage *self)
{
  g_return_val_if_fail (FLITLAB_IS_MULTICAST_PAGE (self), FALSE);

  return has_run (self) && !self->running;
}

gboolean
flitlab_multicast_page_play (FlitlabMulticastPage  *self,
                             GError               **error)
{
  FlTraceEvent *events = NULL;
  int64_t n_events = 0;
  FlError err = { 0 };
  g_autofree char *source = NULL;

  g_return_val_if_fail (FLITLAB_IS_MULTICAST_PAGE (self), FALSE);

  if (!flitlab_multicast_page_get_simulated (self))
    {
      g_set_error_literal (error, FLITLAB_ENGINE_ERROR, FL_EINVAL, _("Simulate the tree first: Play replays its run."));
      return FALSE;
    }
  if (flitlab_document_get_routed (self->document) != self->run->routed)
    {
      g_set_error_literal (error, FLITLAB_ENGINE_ERROR, FL_EINVAL,
                           _("The routing has changed since the run: simulate the tree again."));
      return FALSE;
    }
  if (fl_message_trace (self->run->messages, self->run->n, &self->run->costs, self->run->times, &events,
                        &n_events, &err)
      != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  if (flitlab_document_watch_events (self->document, &self->run->config, events, n_events, error) == NULL)
    return FALSE;
  source = host_name (topology (self), fl_multicast_tree_source (self->tree));
  g_free (self->play_note);
  /* Translators: what the Simulate tab plays: an algorithm's name, its
   * source, how many destinations, and the run's latency in cycles. */
  self->play_note = g_strdup_printf (ngettext ("A %s multicast from %s to %d destination, the worms of its "
                                               "unicasts as the run sent them: done at cycle %" PRId64 ".",
                                               "A %s multicast from %s to %d destinations, the worms of its "
                                               "unicasts as the run sent them: done at cycle %" PRId64 ".",
                                               self->dests->len),
                                     fl_multicast_algorithm_name (algorithm (self)), source, self->dests->len,
                                     self->run->completion);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAY_NOTE]);
  g_signal_emit (self, signals[FLITLAB_COLLECTIVE_SIGNAL_PLAY], 0);
  return TRUE;
}

static void
play_clicked_cb (FlitlabMulticastPage *self)
{
  g_autoptr(GError) error = NULL;

  if (!flitlab_multicast_page_play (self, &error))
    show_refusal (self, error);
}

static void
chart_toggled_cb (FlitlabMulticastPage *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
}

/* The public API ---------------------------------------------------------------------------- */

GtkWidget *
flitlab_multicast_page_new (void)
{
  return g_object_new (FLITLAB_TYPE_MULTICAST_PAGE, NULL);
}

/* The nodes chosen are kept with each document, so that coming back to a
 * network finds them again. */
static void
keep_nodes (FlitlabMulticastPage *self)
{
  if (self->document != NULL)
    flitlab_document_set_multicast (self->document, self->source, (const int *) (gpointer) self->dests->data,
                                    self->dests->len);
}

/* After an edit, nodes that are gone are forgotten. */
static void
document_changed_cb (FlitlabMulticastPage *self)
{
  int hosts = topology (self) != NULL ? fl_topology_host_count (topology (self)) : 0;

  if (self->source >= hosts)
    self->source = -1;
  for (guint i = self->dests->len; i-- > 0;)
    if (g_array_index (self->dests, int, i) >= hosts)
      g_array_remove_index (self->dests, i);
  rebuild (self);
}

void
flitlab_multicast_page_set_document (FlitlabMulticastPage *self,
                                     FlitlabDocument      *document)
{
  const int *dests = NULL;
  guint n_dests = 0;

  g_return_if_fail (FLITLAB_IS_MULTICAST_PAGE (self));
  g_return_if_fail (document == NULL || FLITLAB_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  keep_nodes (self);
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  self->source = document != NULL ? flitlab_document_get_multicast (document, &dests, &n_dests) : -1;
  g_array_set_size (self->dests, 0);
  g_array_append_vals (self->dests, dests, n_dests);
  document_changed_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

FlitlabDocument *
flitlab_multicast_page_get_document (FlitlabMulticastPage *self)
{
  g_return_val_if_fail (FLITLAB_IS_MULTICAST_PAGE (self), NULL);

  return self->document;
}

void
flitlab_multicast_page_set_workers (FlitlabMulticastPage *self,
                                    FlitlabWorkers       *workers)
{
  g_return_if_fail (FLITLAB_IS_MULTICAST_PAGE (self));

  if (self->workers != workers)
    clear_run (self);
  g_set_object (&self->workers, workers);
}

void
flitlab_multicast_page_draw_overlay (FlitlabMulticastPage *self,
                                     cairo_t              *cr,
                                     const FlTopology     *t,
                                     const FlDrawOptions  *o)
{
  FlDrawMulticast m;

  g_return_if_fail (FLITLAB_IS_MULTICAST_PAGE (self));

  /* The nodes are the document's network's: another picture gets none. */
  if (topology (self) == NULL || fl_topology_node_count (t) != fl_topology_node_count (topology (self)))
    return;
  multicast_fill (self, &m);
  fl_draw_multicast_overlay (cr, t, o, &m);
}

int
flitlab_multicast_page_get_source (FlitlabMulticastPage *self)
{
  g_return_val_if_fail (FLITLAB_IS_MULTICAST_PAGE (self), -1);

  return self->source;
}

const int *
flitlab_multicast_page_get_dests (FlitlabMulticastPage *self,
                                  int                  *n)
{
  g_return_val_if_fail (FLITLAB_IS_MULTICAST_PAGE (self), NULL);

  *n = self->dests->len;
  return (const int *) (void *) self->dests->data;
}

gboolean
flitlab_multicast_page_set_algorithm (FlitlabMulticastPage *self,
                                      const char           *name)
{
  FlMulticastAlgorithm alg;

  g_return_val_if_fail (FLITLAB_IS_MULTICAST_PAGE (self), FALSE);

  if (name == NULL || fl_multicast_algorithm_lookup (name, &alg, NULL) != FL_OK)
    return FALSE;
  adw_combo_row_set_selected (self->algorithm_row, alg);
  return TRUE;
}

const char *
flitlab_multicast_page_get_value (FlitlabMulticastPage *self,
                                  const char           *key)
{
  g_return_val_if_fail (FLITLAB_IS_MULTICAST_PAGE (self), NULL);

  for (int i = 0; i < N_FIGURES; i++)
    if (g_strcmp0 (key, figure_keys[i]) == 0)
      return gtk_label_get_text (self->figures[i]);
  if (g_strcmp0 (key, "error") == 0)
    return self->error != NULL ? self->error : "";
  if (g_strcmp0 (key, "conflicts") == 0)
    return gtk_label_get_text (self->conflicts_label);
  return NULL;
}

/* GObject ---------------------------------------------------------------------------------- */

static void
flitlab_multicast_page_dispose (GObject *object)
{
  FlitlabMulticastPage *self = FLITLAB_MULTICAST_PAGE (object);

  clear_run (self);
  clear_tree (self);
  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_object (&self->workers);
  g_clear_pointer (&self->play_note, g_free);
  g_clear_pointer (&self->dests, g_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_MULTICAST_PAGE);
  G_OBJECT_CLASS (flitlab_multicast_page_parent_class)->dispose (object);
}

static void
flitlab_multicast_page_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  FlitlabMulticastPage *self = FLITLAB_MULTICAST_PAGE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_PLAY_NOTE:
      g_value_set_string (value, self->play_note);
      break;
    case PROP_PLAY_CYCLES:
      g_value_set_int64 (value, self->play_note != NULL && self->run != NULL ? self->run->completion : 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_multicast_page_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  FlitlabMulticastPage *self = FLITLAB_MULTICAST_PAGE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      flitlab_multicast_page_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_multicast_page_class_init (FlitlabMulticastPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_multicast_page_dispose;
  object_class->get_property = flitlab_multicast_page_get_property;
  object_class->set_property = flitlab_multicast_page_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, FLITLAB_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PLAY_NOTE] =
    g_param_spec_string ("play-note", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PLAY_CYCLES] =
    g_param_spec_int64 ("play-cycles", NULL, NULL, 0, G_MAXINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  flitlab_collective_install_signals (object_class, TRUE, signals);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-multicast-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "multicastpage");
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, algorithm_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, hold_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, end_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, costs_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, size_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, ss_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, sd_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, cd_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, rs_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, rd_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, packet_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, nodes_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, random_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, figures_grid);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, conflicts_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, simulate_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, play_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, model_toggle);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, simulated_toggle);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, legend_area);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, chart_area);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, edges_grid);
  gtk_widget_class_bind_template_callback (widget_class, parameters_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, clear_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, random_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, simulate_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, play_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, chart_toggled_cb);
}

static void
add_figure_row (FlitlabMulticastPage *self,
                Figure                figure,
                const char           *title,
                const char           *tooltip)
{
  GtkWidget *name = gtk_label_new (title);
  GtkWidget *value = gtk_label_new ("—");

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_widget_set_tooltip_text (name, tooltip);
  gtk_widget_add_css_class (name, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value), 1);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_widget_add_css_class (value, "numeric");
  gtk_grid_attach (self->figures_grid, name, 0, figure, 1, 1);
  gtk_grid_attach (self->figures_grid, value, 1, figure, 1, 1);
  self->figures[figure] = GTK_LABEL (value);
}

static void
flitlab_multicast_page_init (FlitlabMulticastPage *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  self->updating = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->source = -1;
  self->dests = g_array_new (FALSE, FALSE, sizeof (int));
  /* Translators: the legend of a multicast tree drawn on the network. */
  self->text.source = _("source");
  self->text.destination = _("destination");
  /* Translators: %d is a round of a one-port schedule: 1, 2, ... */
  self->text.step = _("step %d");
  /* Translators: the key of the labels beside each unicast: "1 @ 20" is
   * sent in step 1 at time 20. */
  self->text.labels = _("1 @ 20: step @ send time");
  self->text.contention = _("contention");
  for (int i = 0; i < FL_MULTICAST_ALGORITHM_COUNT; i++)
    gtk_string_list_append (names, fl_multicast_algorithm_name ((FlMulticastAlgorithm) i));
  adw_combo_row_set_model (self->algorithm_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->algorithm_row, FL_MULTICAST_OPT_TREE);
  add_figure_row (self, FIGURE_LATENCY, _("Latency, model"), _("The last receive time on paper 001’s model"));
  add_figure_row (self, FIGURE_SIMULATED, _("Latency, simulated"),
                  _("The last receive time of the tree’s messages run flit by flit"));
  add_figure_row (self, FIGURE_TIMES, _("t_hold, t_end"), _("The model’s parameters, given or derived from the costs"));
  add_figure_row (self, FIGURE_CONTENTION, _("Contention"),
                  _("Pairs of unicasts that share a channel while both are in flight"));
  gtk_drawing_area_set_draw_func (self->chart_area, draw_chart, self, NULL);
  gtk_drawing_area_set_draw_func (self->legend_area, draw_legend, self, NULL);

  self->document_signals = g_signal_group_new (FLITLAB_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "topology-edited", G_CALLBACK (document_changed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::routed", G_CALLBACK (document_changed_cb), self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (gtk_widget_queue_draw),
                           self->chart_area, G_CONNECT_SWAPPED);
  self->updating = FALSE;
  rebuild (self);
}
