/* flitlab-exchange-page.c — the complete exchange page of the Collectives
 * tab: the choice of algorithm and N, a run in a worker, the step slider
 * with the step's figures, the selected node's message matrix, the cost
 * terms, and the step's paths drawn over the canvas.
 *
 * Everything shown is read from one finished run (an FlAllToAll, every
 * block tracked); a step or a node chosen only reads it again, so moving
 * the slider is instant even on 64 x 64. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>

#include "flitlab-collective-page.h"
#include "flitlab-collectives-panel.h"
#include "flitlab-exchange-page.h"
#include "flitlab-workers.h"

/* The step's figures, one line of the stats grid each. */
typedef enum {
  STAT_MESSAGES,
  STAT_BLOCKS,
  STAT_MAX_BLOCKS,
  STAT_MAX_HOPS,
  STAT_MAX_LINK_LOAD,
  STAT_MAX_HELD,
  N_STATS
} Stat;

/* The cost terms, one line of the cost grid each: the run's figure, the
 * paper's and the lower bound. */
typedef enum {
  COST_STARTUPS,
  COST_TRANSMISSION,
  COST_PROPAGATION,
  COST_REARRANGEMENT,
  COST_VOLUME,
  COST_DELIVERED,
  N_COSTS
} Cost;

enum {
  COLUMN_RUN,
  COLUMN_PAPER,
  COLUMN_BOUND,
  N_COLUMNS
};

/* The sides offered: N a power of two, as SEM asks, up to the largest the
 * engine tracks in seconds. */
static const int sizes[] = { 8, 16, 32, 64 };
#define DIRECT_MAX 32

struct _FlitlabExchangePage
{
  GtkWidget parent_instance;

  FlitlabCollectivePage core;  /* the document, the workers, running */

  FlAllToAllAlgorithm algorithm;
  int n;
  FlAllToAll *run;             /* the run shown, NULL while one is under way or refused */
  guint step;
  int node;
  gboolean updating;           /* widgets being set from code, not by the user */
  char *error;                 /* why there is no run */
  char *matrix;
  char *node_text;
  char *network_text;          /* why the paths are not drawn */
  char *spec;                  /* the network the paths need: torus:NxN */

  /* Template widgets. */
  AdwComboRow *algorithm_row;
  AdwComboRow *size_row;
  AdwActionRow *network_row;
  GtkButton *show_button;
  GtkLabel *error_label;
  GtkWidget *step_group;
  GtkScale *step_scale;
  GtkAdjustment *step_adjustment;
  GtkLabel *step_label;
  GtkGrid *stats_grid;
  GtkButton *previous_button;
  GtkButton *next_button;
  AdwPreferencesGroup *node_group;
  GtkTextView *matrix_view;
  GtkGrid *cost_grid;

  GtkLabel *stats[N_STATS];
  GtkLabel *costs[N_COSTS][N_COLUMNS];
};

G_DEFINE_FINAL_TYPE (FlitlabExchangePage, flitlab_exchange_page, GTK_TYPE_WIDGET)

static GParamSpec *properties[FLITLAB_COLLECTIVE_N_PROPS];

static guint signals[FLITLAB_COLLECTIVE_N_SIGNALS];

#define OVERLAY_CHANGED FLITLAB_COLLECTIVE_SIGNAL_OVERLAY_CHANGED
#define SHOW_NETWORK    FLITLAB_COLLECTIVE_SIGNAL_SHOW_NETWORK

/* clang-format off */
static const struct {
  const char *key;
  const char *name;
  const char *tooltip;
} stat_rows[N_STATS] = {
  [STAT_MESSAGES] = { "messages", N_("Messages"),
                      N_("Messages sent in this step, one per sending node") },
  [STAT_BLOCKS] = { "blocks", N_("Blocks"),
                    N_("Blocks carried by all of the step’s messages") },
  [STAT_MAX_BLOCKS] = { "max-blocks", N_("Largest message"),
                        N_("The most blocks one message of the step carries: the step’s transmission time") },
  [STAT_MAX_HOPS] = { "max-hops", N_("Longest path"),
                      N_("Hops of the step’s longest path: its propagation time") },
  [STAT_MAX_LINK_LOAD] = { "max-link-load", N_("Busiest link"),
                           N_("The most messages of the step on one directed link: 1 is free of contention") },
  [STAT_MAX_HELD] = { "max-held", N_("Most held"),
                      N_("The most blocks one node holds after the step") },
};
/* clang-format on */

/* clang-format off */
static const struct {
  const char *key;
  const char *name;
  const char *tooltip;
} cost_rows[N_COSTS] = {
  [COST_STARTUPS] = { "startups", N_("Start-ups"),
                      N_("Steps: each node starts at most one message a step (times t_s)") },
  [COST_TRANSMISSION] = { "transmission", N_("Transmission"),
                          N_("The largest message of every step, summed, in blocks (times m t_d)") },
  [COST_PROPAGATION] = { "propagation", N_("Propagation"),
                         N_("The longest path of every step, summed, in hops (times t_l)") },
  [COST_REARRANGEMENT] = { "rearrangement", N_("Rearrangement"),
                           N_("Blocks the busiest node re-sorts, once a phase (times m t_r)") },
  [COST_VOLUME] = { "volume", N_("Volume"),
                    N_("Blocks carried by all messages together") },
  [COST_DELIVERED] = { "delivered", N_("Delivered"),
                       N_("Blocks at their destination after the last step, of N²(N² − 1)") },
};
/* clang-format on */

/* Values ------------------------------------------------------------------------------ */

static void
set_label_printf (GtkLabel   *label,
                  const char *format,
                  ...) G_GNUC_PRINTF (2, 3);

static void
set_label_printf (GtkLabel   *label,
                  const char *format,
                  ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  gtk_label_set_label (label, text);
}

/* A formula's value, or a dash where it does not apply (NAN). */
static void
set_formula (GtkLabel *label,
             double    value)
{
  if (isnan (value))
    gtk_label_set_label (label, "—");
  else
    set_label_printf (label, "%.0f", value);
}

static char *
processor_name (int node,
                int n)
{
  /* Translators: a processor of the torus by its row and column, as paper 000 writes it. */
  return g_strdup_printf (_("P(%d,%d)"), node / n, node % n);
}

static void
show_costs (FlitlabExchangePage *self)
{
  FlAllToAllCosts c;

  for (guint i = 0; i < N_COSTS; i++)
    for (guint k = 0; k < N_COLUMNS; k++)
      gtk_label_set_label (self->costs[i][k], "—");
  if (self->run == NULL)
    return;

  fl_alltoall_costs (self->run, &c);
  set_label_printf (self->costs[COST_STARTUPS][COLUMN_RUN], "%zu", c.startups);
  set_formula (self->costs[COST_STARTUPS][COLUMN_PAPER], c.paper_startups_text);
  if (!isnan (c.paper_startups_table))
    {
      /* Translators: the paper's figure in its text, then in brackets the one in its Table 1. */
      set_label_printf (self->costs[COST_STARTUPS][COLUMN_PAPER], _("%.0f (%.0f)"), c.paper_startups_text,
                        c.paper_startups_table);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->costs[COST_STARTUPS][COLUMN_PAPER]),
                                   _("N/4 + 5 in the paper’s text; N/2 + 5 in its Table 1, in brackets"));
    }
  set_formula (self->costs[COST_STARTUPS][COLUMN_BOUND], c.lower_startups);
  set_label_printf (self->costs[COST_TRANSMISSION][COLUMN_RUN], "%zu", c.transmission);
  set_formula (self->costs[COST_TRANSMISSION][COLUMN_PAPER], c.paper_transmission);
  set_formula (self->costs[COST_TRANSMISSION][COLUMN_BOUND], c.lower_transmission);
  set_label_printf (self->costs[COST_PROPAGATION][COLUMN_RUN], "%zu", c.propagation);
  set_formula (self->costs[COST_PROPAGATION][COLUMN_PAPER], c.paper_propagation);
  set_label_printf (self->costs[COST_REARRANGEMENT][COLUMN_RUN], "%zu", c.rearrangement);
  set_formula (self->costs[COST_REARRANGEMENT][COLUMN_PAPER], c.paper_rearrangement);
  set_label_printf (self->costs[COST_VOLUME][COLUMN_RUN], "%zu", c.volume);
  set_label_printf (self->costs[COST_DELIVERED][COLUMN_RUN], "%zu", c.delivered);
  set_formula (self->costs[COST_DELIVERED][COLUMN_PAPER], (double) c.blocks);
}

static void
show_matrix (FlitlabExchangePage *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->matrix_view);
  g_autofree char *title = NULL;
  char *text = NULL;
  FlError err;

  g_clear_pointer (&self->matrix, g_free);
  g_clear_pointer (&self->node_text, g_free);
  if (self->run == NULL)
    {
      gtk_text_buffer_set_text (buffer, "", -1);
      adw_preferences_group_set_title (self->node_group, _("Message Matrix"));
      adw_preferences_group_set_description (self->node_group, NULL);
      return;
    }
  self->node_text = processor_name (self->node, self->n);
  if (fl_alltoall_holdings_text (self->run, self->step, self->node, &text, &err) == FL_OK)
    {
      self->matrix = g_strdup (text);
      free (text);
    }
  else
    self->matrix = g_strdup (err.message);
  gtk_text_buffer_set_text (buffer, self->matrix[0] != '\0' ? self->matrix : _("(no blocks)"), -1);
  if (self->step == 0)
    /* Translators: %s is a processor, P(0,0). */
    title = g_strdup_printf (_("%s at the Start"), self->node_text);
  else
    /* Translators: %s is a processor, P(0,0); %u a step's number. */
    title = g_strdup_printf (_("%s after Step %u"), self->node_text, self->step);
  adw_preferences_group_set_title (self->node_group, title);
  adw_preferences_group_set_description (self->node_group,
                                         _("One line per destination row: each block as pqrs, from P(p,q) to "
                                           "P(r,s). Click a switch to see another node."));
}

static void
show_step (FlitlabExchangePage *self)
{
  FlAllToAllStep st;
  char name[64] = "";
  guint count = self->run != NULL ? (guint) fl_alltoall_step_count (self->run) : 0;

  gtk_widget_set_sensitive (self->step_group, self->run != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->previous_button), self->run != NULL && self->step > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->next_button), self->run != NULL && self->step < count);
  for (guint i = 0; i < N_STATS; i++)
    gtk_label_set_label (self->stats[i], "—");
  if (self->run == NULL)
    gtk_label_set_label (self->step_label, "");
  else if (self->step == 0)
    gtk_label_set_label (self->step_label, _("Start: each node holds its N² − 1 blocks"));
  else
    {
      fl_alltoall_step_label (self->run, self->step, name, sizeof name);
      /* Translators: a step of the exchange, its number of the count, then the engine's name of it. */
      set_label_printf (self->step_label, _("Step %u of %u: %s"), self->step, count, name);
    }
  if (self->run != NULL && self->step > 0 && fl_alltoall_step (self->run, self->step, &st, NULL) == FL_OK)
    {
      set_label_printf (self->stats[STAT_MESSAGES], "%zu", st.messages);
      set_label_printf (self->stats[STAT_BLOCKS], "%zu", st.blocks);
      set_label_printf (self->stats[STAT_MAX_BLOCKS], "%zu", st.max_blocks);
      set_label_printf (self->stats[STAT_MAX_HOPS], "%d", st.max_hops);
      set_label_printf (self->stats[STAT_MAX_LINK_LOAD], "%d", st.max_link_load);
      set_label_printf (self->stats[STAT_MAX_HELD], "%zu", st.max_held);
    }
  show_matrix (self);
  g_signal_emit (self, signals[OVERLAY_CHANGED], 0);
}

/* Whether the network shown is the run's torus, and if not the button
 * that shows it. */
static void
show_network (FlitlabExchangePage *self)
{
  const FlTopology *t = self->core.document != NULL ? flitlab_document_get_topology (self->core.document) : NULL;
  g_autofree char *label = NULL;
  g_autofree char *title = NULL;

  g_free (self->spec);
  self->spec = g_strdup_printf ("torus:%dx%d", self->n, self->n);
  g_clear_pointer (&self->network_text, g_free);
  if (fl_draw_exchange_switch (t, self->n, 0) < 0)
    /* Translators: %s is a network's spec, torus:8x8. */
    self->network_text = g_strdup_printf (_("The network shown is not %s"), self->spec);
  /* Translators: %s is a network's spec, torus:8x8. */
  label = g_strdup_printf (_("Show %s"), self->spec);
  gtk_button_set_label (self->show_button, label);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->network_row),
                                 self->network_text != NULL ? self->network_text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->network_row), self->network_text != NULL);
}

/* Running ------------------------------------------------------------------------- */

typedef struct
{
  FlAllToAllAlgorithm algorithm;
  int n;
} RunData;

static gpointer
run_job (FlitlabJob  *job,
         gpointer     data,
         GError     **error)
{
  RunData *d = data;
  FlAllToAll *run = NULL;
  FlError err;

  if (fl_alltoall_run (d->n, d->algorithm, &run, &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return NULL;
    }
  return run;
}

static void
set_running (FlitlabExchangePage *self,
             gboolean            running)
{
  GParamSpec *pspec = properties[FLITLAB_COLLECTIVE_PROP_RUNNING];

  flitlab_collective_page_set_running (&self->core, G_OBJECT (self), pspec, running);
}

static void
show_error (FlitlabExchangePage *self)
{
  gtk_label_set_label (self->error_label, self->error != NULL ? self->error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), self->error != NULL);
}

static void
run_done (gpointer      user_data,
          gpointer      result,
          const GError *error)
{
  FlitlabExchangePage *self = user_data;
  guint count;

  set_running (self, FALSE);
  if (error != NULL)
    {
      self->error = g_strdup (error->message);
      show_error (self);
      show_step (self);
      show_costs (self);
      return;
    }
  self->run = result;
  count = (guint) fl_alltoall_step_count (self->run);
  self->step = MIN (self->step, count);
  self->updating = TRUE;
  gtk_adjustment_configure (self->step_adjustment, self->step, 0, count, 1, 1, 0);
  gtk_scale_clear_marks (self->step_scale);
  /* A mark per step while they can be told apart. */
  for (guint s = 0; count <= 32 && s <= count; s++)
    gtk_scale_add_mark (self->step_scale, s, GTK_POS_BOTTOM, NULL);
  self->updating = FALSE;
  show_step (self);
  show_costs (self);
}

/* Runs the algorithm and N chosen, superseding a run under way. */
static void
start_run (FlitlabExchangePage *self)
{
  RunData *data = g_new (RunData, 1);

  data->algorithm = self->algorithm;
  data->n = self->n;
  g_clear_pointer (&self->run, fl_alltoall_free);
  g_clear_pointer (&self->error, g_free);
  self->node = self->node < self->n * self->n ? self->node : 0;
  show_error (self);
  show_network (self);
  show_step (self);
  show_costs (self);
  set_running (self, TRUE);
  flitlab_collective_page_run (&self->core, FLITLAB_JOB_EXCHANGE, run_job, data, g_free,
                               (GDestroyNotify) fl_alltoall_free, NULL, run_done, self);
}

static guint
size_index (int n)
{
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    if (sizes[i] == n)
      return i;
  return G_MAXUINT;
}

gboolean
flitlab_exchange_page_set_run (FlitlabExchangePage *self,
                               FlAllToAllAlgorithm  algorithm,
                               int                  n)
{
  g_return_val_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self), FALSE);

  if (size_index (n) == G_MAXUINT || (guint) algorithm >= FL_ALLTOALL_ALGORITHM_COUNT
      || (algorithm == FL_ALLTOALL_DIRECT && n > DIRECT_MAX))
    return FALSE;
  if (algorithm == self->algorithm && n == self->n && (self->run != NULL || self->core.running))
    return TRUE;
  self->algorithm = algorithm;
  self->n = n;
  self->updating = TRUE;
  adw_combo_row_set_selected (self->algorithm_row, algorithm);
  adw_combo_row_set_selected (self->size_row, size_index (n));
  self->updating = FALSE;
  start_run (self);
  return TRUE;
}

static void
choice_changed_cb (FlitlabExchangePage *self)
{
  FlAllToAllAlgorithm algorithm = adw_combo_row_get_selected (self->algorithm_row);
  guint size = adw_combo_row_get_selected (self->size_row);
  int n = size < G_N_ELEMENTS (sizes) ? sizes[size] : self->n;

  if (self->updating)
    return;
  /* Direct exchange stores its N² − 1 steps: the largest torus it
   * takes is offered instead of a refusal. */
  if (algorithm == FL_ALLTOALL_DIRECT && n > DIRECT_MAX)
    n = DIRECT_MAX;
  flitlab_exchange_page_set_run (self, algorithm, n);
}

gboolean
flitlab_exchange_page_get_running (FlitlabExchangePage *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self), FALSE);

  return self->core.running;
}

const FlAllToAll *
flitlab_exchange_page_get_run (FlitlabExchangePage *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self), NULL);

  return self->run;
}

/* The step and the node ------------------------------------------------------------- */

void
flitlab_exchange_page_set_step (FlitlabExchangePage *self,
                                guint                step)
{
  g_return_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self));

  if (self->run != NULL)
    step = MIN (step, (guint) fl_alltoall_step_count (self->run));
  if (step == self->step)
    return;
  self->step = step;
  self->updating = TRUE;
  gtk_adjustment_set_value (self->step_adjustment, step);
  self->updating = FALSE;
  show_step (self);
}

guint
flitlab_exchange_page_get_step (FlitlabExchangePage *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self), 0);

  return self->step;
}

static void
step_changed_cb (FlitlabExchangePage *self)
{
  if (!self->updating)
    flitlab_exchange_page_set_step (self, (guint) lround (gtk_adjustment_get_value (self->step_adjustment)));
}

static void
previous_clicked_cb (FlitlabExchangePage *self)
{
  if (self->step > 0)
    flitlab_exchange_page_set_step (self, self->step - 1);
}

static void
next_clicked_cb (FlitlabExchangePage *self)
{
  flitlab_exchange_page_set_step (self, self->step + 1);
}

void
flitlab_exchange_page_set_node (FlitlabExchangePage *self,
                                int                  node)
{
  g_return_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self));

  if (node < 0 || node >= self->n * self->n || node == self->node)
    return;
  self->node = node;
  show_matrix (self);
  g_signal_emit (self, signals[OVERLAY_CHANGED], 0);
}

int
flitlab_exchange_page_get_node (FlitlabExchangePage *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self), -1);

  return self->node;
}

void
flitlab_exchange_page_draw_overlay (FlitlabExchangePage *self,
                                    cairo_t             *cr,
                                    const FlTopology    *t,
                                    const FlDrawOptions *o)
{
  g_return_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self));

  if (self->run != NULL)
    fl_draw_exchange_step (cr, t, o, self->run, self->step, self->node);
}

gboolean
flitlab_exchange_page_node_activated (FlitlabExchangePage *self,
                                      int                  node)
{
  const FlTopology *t;
  int p;

  g_return_val_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self), FALSE);

  t = self->core.document != NULL ? flitlab_document_get_topology (self->core.document) : NULL;
  p = fl_draw_exchange_processor (t, self->n, node);
  if (p < 0)
    return FALSE;
  flitlab_exchange_page_set_node (self, p);
  return TRUE;
}

static void
show_network_cb (FlitlabExchangePage *self)
{
  g_signal_emit (self, signals[SHOW_NETWORK], 0, self->spec);
}

const char *
flitlab_exchange_page_get_value (FlitlabExchangePage *self,
                                 const char          *key)
{
  g_return_val_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self), NULL);

  for (guint i = 0; i < N_STATS; i++)
    if (g_strcmp0 (stat_rows[i].key, key) == 0)
      return gtk_label_get_label (self->stats[i]);
  for (guint i = 0; i < N_COSTS; i++)
    if (g_strcmp0 (cost_rows[i].key, key) == 0)
      return gtk_label_get_label (self->costs[i][COLUMN_RUN]);
  if (g_strcmp0 (key, "step") == 0)
    return gtk_label_get_label (self->step_label);
  if (g_strcmp0 (key, "node") == 0)
    return self->node_text != NULL ? self->node_text : "";
  if (g_strcmp0 (key, "matrix") == 0)
    return self->matrix != NULL ? self->matrix : "";
  if (g_strcmp0 (key, "network") == 0)
    return self->network_text != NULL ? self->network_text : "";
  if (g_strcmp0 (key, "error") == 0)
    return self->error != NULL ? self->error : "";
  return NULL;
}

/* The document ------------------------------------------------------------------------ */

static void
document_edited_cb (FlitlabExchangePage *self)
{
  show_network (self);
  g_signal_emit (self, signals[OVERLAY_CHANGED], 0);
}

void
flitlab_exchange_page_set_workers (FlitlabExchangePage *self,
                                   FlitlabWorkers      *workers)
{
  g_return_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self));

  flitlab_collective_page_set_workers (&self->core, workers);
}

void
flitlab_exchange_page_set_document (FlitlabExchangePage *self,
                                    FlitlabDocument     *document)
{
  const FlTopology *t;
  int dims[FL_MAX_DIMS];

  g_return_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self));
  g_return_if_fail (document == NULL || FLITLAB_IS_DOCUMENT (document));

  if (!flitlab_collective_page_set_document (&self->core, document))
    return;
  /* A torus of a side offered is the one to run on. */
  t = document != NULL ? flitlab_document_get_topology (document) : NULL;
  if (t != NULL && g_strcmp0 (fl_topology_family (t), "torus") == 0 && fl_topology_family_dims (t, dims) == 2
      && dims[0] == dims[1] && dims[0] != self->n && size_index (dims[0]) != G_MAXUINT)
    flitlab_exchange_page_set_run (self, dims[0] > DIRECT_MAX ? FL_ALLTOALL_SEM : self->algorithm, dims[0]);
  show_network (self);
  g_signal_emit (self, signals[OVERLAY_CHANGED], 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[FLITLAB_COLLECTIVE_PROP_DOCUMENT]);
}

FlitlabDocument *
flitlab_exchange_page_get_document (FlitlabExchangePage *self)
{
  g_return_val_if_fail (FLITLAB_IS_EXCHANGE_PAGE (self), NULL);

  return self->core.document;
}

/* Object life ------------------------------------------------------------------------ */

GtkWidget *
flitlab_exchange_page_new (void)
{
  return g_object_new (FLITLAB_TYPE_EXCHANGE_PAGE, NULL);
}

static void
flitlab_exchange_page_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  FlitlabExchangePage *self = FLITLAB_EXCHANGE_PAGE (object);

  if (!flitlab_collective_page_get_property (&self->core, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
flitlab_exchange_page_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  FlitlabExchangePage *self = FLITLAB_EXCHANGE_PAGE (object);

  switch (prop_id)
    {
    case FLITLAB_COLLECTIVE_PROP_DOCUMENT:
      flitlab_exchange_page_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_exchange_page_dispose (GObject *object)
{
  FlitlabExchangePage *self = FLITLAB_EXCHANGE_PAGE (object);

  flitlab_collective_page_dispose (&self->core, GTK_WIDGET (self), FLITLAB_TYPE_EXCHANGE_PAGE);
  G_OBJECT_CLASS (flitlab_exchange_page_parent_class)->dispose (object);
}

static void
flitlab_exchange_page_finalize (GObject *object)
{
  FlitlabExchangePage *self = FLITLAB_EXCHANGE_PAGE (object);

  g_clear_pointer (&self->run, fl_alltoall_free);
  g_free (self->error);
  g_free (self->matrix);
  g_free (self->node_text);
  g_free (self->network_text);
  g_free (self->spec);
  G_OBJECT_CLASS (flitlab_exchange_page_parent_class)->finalize (object);
}

static void
flitlab_exchange_page_class_init (FlitlabExchangePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = flitlab_exchange_page_get_property;
  object_class->set_property = flitlab_exchange_page_set_property;
  object_class->dispose = flitlab_exchange_page_dispose;
  object_class->finalize = flitlab_exchange_page_finalize;

  flitlab_collective_page_install_properties (object_class, properties);

  flitlab_collective_install_signals (object_class, FALSE, signals);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-exchange-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "exchangepage");
  gtk_widget_class_bind_template_child_full (widget_class, "spinner", FALSE,
                                             G_STRUCT_OFFSET (FlitlabExchangePage, core.spinner));
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, algorithm_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, size_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, network_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, show_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, error_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, step_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, step_scale);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, step_adjustment);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, step_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, stats_grid);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, previous_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, next_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, node_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, matrix_view);
  gtk_widget_class_bind_template_child (widget_class, FlitlabExchangePage, cost_grid);
  gtk_widget_class_bind_template_callback (widget_class, choice_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_network_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, previous_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, next_clicked_cb);
}

static void
flitlab_exchange_page_init (FlitlabExchangePage *self)
{
  /* Translators: column headings of the cost table: the run's figure, the paper's formula, the lower bound. */
  static const char *const headings[N_COLUMNS] = { N_("Run"), N_("Paper"), N_("Bound") };

  self->updating = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->updating = FALSE;
  flitlab_collective_page_init (&self->core, self, G_CALLBACK (document_edited_cb));
  self->algorithm = FL_ALLTOALL_SEM;
  self->n = sizes[0];

  for (guint i = 0; i < N_STATS; i++)
    flitlab_collective_page_attach_line (self->stats_grid, i, _(stat_rows[i].name), _(stat_rows[i].tooltip),
                                         &self->stats[i], 1);
  for (guint k = 0; k < N_COLUMNS; k++)
    {
      GtkWidget *heading = gtk_label_new (_(headings[k]));

      gtk_label_set_xalign (GTK_LABEL (heading), 1);
      gtk_widget_add_css_class (heading, "caption-heading");
      gtk_grid_attach (self->cost_grid, heading, 1 + k, 0, 1, 1);
    }
  for (guint i = 0; i < N_COSTS; i++)
    flitlab_collective_page_attach_line (self->cost_grid, 1 + i, _(cost_rows[i].name), _(cost_rows[i].tooltip),
                                         self->costs[i], N_COLUMNS);

  start_run (self);
}
