/* flitlab-simulate-panel.c — the Simulate tab: a document's simulation
 * settings, the routing it runs with, a run in a worker and its results.
 *
 * The settings rows are the FlitlabSimSettings page's, generated from the
 * engine's table; the page edits its own copy of the settings, which the
 * panel writes into the document after every change and reads back when
 * another document is shown. The run itself is the engine's, as `flitlab
 * sim` calls it: fl_sim_new() and fl_sim_run(), or fl_deflect_run().
 */
#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-io.h"
#include "flitlab-menu-tooltip.h"
#include "flitlab-node-number.h"
#include "flitlab-option-rows.h"
#include "flitlab-simulate-panel.h"

struct _FlitlabSimulatePanel
{
  GtkWidget parent_instance;

  /* Template children. */
  FlitlabSimSettings *settings_page;
  AdwPreferencesGroup *run_group;
  GtkWidget *run_button;
  GtkMenuButton *preset_button;
  AdwActionRow *routing_row;
  GtkWidget *routing_icon;
  GtkProgressBar *progress_bar;
  AdwPreferencesGroup *results_group;

  FlitlabDocument *document;
  GSignalGroup *document_signals;
  FlitlabWorkers *workers;
  gboolean running;
  /* The panel is writing the page's settings into the document. */
  gboolean syncing;
  /* The routing of the run under way or of the results shown (a
   * reference): they belong to the network it was built for. */
  FlitlabRouted *routed_used;

  char *why;                   /* why Run is insensitive, or NULL */
  GPtrArray *result_rows;      /* the rows of results_group */
  GHashTable *values;          /* key -> the text shown */
};

G_DEFINE_FINAL_TYPE (FlitlabSimulatePanel, flitlab_simulate_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The keys of flitlab_simulate_panel_get_value(). */
static const char * const value_keys[] = {
  "routing", "why", "status", "cycle", "latency", "latency-p99", "network-latency", "throughput",
  "throughput-min", "offered", "hops", "packets", "cycles", "wall-time", "deflect-throughput",
  "delay-avg", "delay-max", "deflections", "delivered", "message",
};

/* The run, in a worker -------------------------------------------------------- */

/* What a run takes: its own copy of the settings and the routing built. */
typedef struct
{
  FlitlabRouted *routed;
  FlSimSettings settings;
  char *network;
} SimulateData;

/* What it gives back: one model's result. */
typedef struct
{
  FlitlabRouted *routed;
  char *network;
  FlSimModel model;
  FlSimResult sim;
  FlDeflectResult deflect;
  double deflect_throughput;   /* mean over the second half of the run */
} SimulateResult;

static void
simulate_data_free (gpointer user_data)
{
  SimulateData *data = user_data;

  flitlab_routed_unref (data->routed);
  fl_sim_settings_clear (&data->settings);
  g_free (data->network);
  g_free (data);
}

static void
simulate_result_free (gpointer user_data)
{
  SimulateResult *result = user_data;

  if (result == NULL)
    return;
  flitlab_routed_unref (result->routed);
  fl_sim_result_clear (&result->sim);
  fl_deflect_result_clear (&result->deflect);
  g_free (result->network);
  g_free (result);
}

static int
run_flit (SimulateData   *data,
          SimulateResult *result,
          FlitlabJob     *job,
          FlError        *err)
{
  FlSimConfig cfg = data->settings.config;
  FlTraceEvent *trace = NULL;
  FlSim *sim = NULL;
  int rc;

  cfg.routing = data->routed->routing;
  rc = flitlab_document_read_trace (&data->settings, &cfg, &trace, err);
  if (rc == FL_OK)
    rc = fl_sim_new (data->routed->topology, &cfg, &sim, err);
  /* A whole run shows no packet: it needs no routes. */
  if (rc == FL_OK)
    rc = fl_sim_keep_routes (sim, 0, err);
  /* Cancelling reaches the engine through the progress callback. */
  if (rc == FL_OK)
    rc = fl_sim_run (sim, &result->sim, flitlab_job_progress, job, err);
  fl_sim_free (sim);
  free (trace);
  return rc;
}

static int
run_deflection (SimulateData   *data,
                SimulateResult *result,
                FlitlabJob     *job,
                FlError        *err)
{
  FlDeflectConfig cfg = data->settings.deflect;
  const FlDeflectResult *res = &result->deflect;
  double sum = 0;
  int rc;

  cfg.routing = data->routed->routing;
  rc = fl_deflect_run (data->routed->topology, &cfg, &result->deflect, flitlab_job_progress, job,
                       err);
  if (rc != FL_OK)
    return rc;
  /* As `flitlab sim` reports it: the second half of the run is past the
   * start-up transient of the closed system. */
  for (int64_t c = res->cycles / 2; c < res->cycles; c++)
    sum += res->throughput[c];
  if (res->cycles - res->cycles / 2 > 0)
    result->deflect_throughput = sum / (double) (res->cycles - res->cycles / 2);
  return FL_OK;
}

static gpointer
simulate_job (FlitlabJob  *job,
              gpointer     user_data,
              GError     **error)
{
  SimulateData *data = user_data;
  SimulateResult *result = g_new0 (SimulateResult, 1);
  FlError err = { 0 };
  int rc;

  result->routed = flitlab_routed_ref (data->routed);
  result->network = g_strdup (data->network);
  result->model = data->settings.model;
  if (result->model == FL_SIM_MODEL_DEFLECTION)
    rc = run_deflection (data, result, job, &err);
  else
    rc = run_flit (data, result, job, &err);
  if (rc != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      simulate_result_free (result);
      return NULL;
    }
  return result;
}

/* Showing what the panel knows ----------------------------------------------------- */

static void
set_value (FlitlabSimulatePanel *self,
           const char           *key,
           const char           *text)
{
  g_hash_table_replace (self->values, g_strdup (key), g_strdup (text));
}

static void
clear_rows (FlitlabSimulatePanel *self)
{
  for (guint i = 0; i < self->result_rows->len; i++)
    adw_preferences_group_remove (self->results_group, g_ptr_array_index (self->result_rows, i));
  g_ptr_array_set_size (self->result_rows, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->results_group), FALSE);
  adw_preferences_group_set_description (self->results_group, NULL);
  g_hash_table_remove_all (self->values);
}

static void update_run_state (FlitlabSimulatePanel *self);

/* Forgets the results shown and the routing they came from. */
static void
clear_results (FlitlabSimulatePanel *self)
{
  clear_rows (self);
  g_clear_pointer (&self->routed_used, flitlab_routed_unref);
  update_run_state (self);
}

static GtkWidget *
add_row (FlitlabSimulatePanel *self,
         const char           *title,
         const char           *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  adw_preferences_group_add (self->results_group, row);
  g_ptr_array_add (self->result_rows, row);
  gtk_widget_set_visible (GTK_WIDGET (self->results_group), TRUE);
  return row;
}

/* A row with its value at the end, as the metrics panel shows figures. */
static GtkWidget *
add_value_row (FlitlabSimulatePanel *self,
               const char           *key,
               const char           *title,
               const char           *subtitle,
               const char           *value)
{
  GtkWidget *row = add_row (self, title, subtitle);
  GtkWidget *label = gtk_label_new (value);

  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (label, "numeric");
  gtk_widget_add_css_class (label, "metric-value");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  set_value (self, key, value);
  return label;
}

/* A figure, or a dash for the NaN of an empty measurement. */
static char *
figure (const char *format,
        double      value)
{
  if (!isfinite (value))
    return g_strdup ("—");
  return g_strdup_printf (format, value);
}

static char *
wall_time (double seconds)
{
  if (seconds < 1)
    /* Translators: a duration in milliseconds. */
    return g_strdup_printf (_("%.1f ms"), seconds * 1e3);
  /* Translators: a duration in seconds. */
  return g_strdup_printf (_("%.2f s"), seconds);
}

/* A message in place of results: the engine's refusal, or a stop. */
static void
show_message (FlitlabSimulatePanel *self,
              const char           *title,
              const char           *message,
              gboolean              is_error)
{
  GtkWidget *row = add_row (self, title, message);
  GtkWidget *icon = gtk_image_new_from_icon_name (is_error ? "dialog-error-symbolic"
                                                           : "dialog-warning-symbolic");

  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  gtk_widget_add_css_class (row, "problem");
  if (is_error)
    gtk_widget_add_css_class (row, "error");
  set_value (self, "message", message);
}

static void
show_status (FlitlabSimulatePanel *self,
             FlSimStatus           status,
             const char           *explanation)
{
  const char *text, *style;
  GtkWidget *label;

  switch (status)
    {
    case FL_SIM_DEADLOCK:
      text = _("Deadlock");
      style = "error";
      break;
    case FL_SIM_SATURATED:
      text = _("Saturated");
      style = "warning";
      break;
    default:
      text = _("OK");
      style = "success";
    }
  label = add_value_row (self, "status", _("Status"), explanation, text);
  gtk_widget_add_css_class (label, style);
}

static void
show_flit_result (FlitlabSimulatePanel *self,
                  const SimulateResult *result)
{
  const FlSimResult *res = &result->sim;
  /* Figures over no packet at all mean nothing: a dash, not a zero. */
  double none = res->packets > 0 ? 0 : NAN;
  g_autofree char *latency = figure ("%.2f", res->latency_avg + none);
  g_autofree char *p99 = figure ("%.1f", res->latency_p99 + none);
  g_autofree char *network = figure ("%.2f", res->network_latency_avg + none);
  g_autofree char *throughput = figure ("%.4f", res->throughput);
  g_autofree char *worst = figure ("%.4f", res->throughput_min);
  g_autofree char *worst_text = NULL;
  g_autofree char *offered = figure ("%.4f", res->offered);
  g_autofree char *hops = figure ("%.3f", res->hops_avg + none);
  g_autofree char *packets = g_strdup_printf ("%" G_GINT64_FORMAT, res->packets);
  g_autofree char *cycles = g_strdup_printf ("%" G_GINT64_FORMAT, res->cycles);
  g_autofree char *wall = wall_time (res->wall_s);
  g_autofree char *speed = NULL;

  if (res->status == FL_SIM_SATURATED)
    show_status (self, res->status,
                 _("Source queues grow without bound: the network accepts less than is offered"));
  else
    show_status (self, res->status, NULL);
  if (res->status == FL_SIM_DEADLOCK)
    {
      /* The cycle gets a row of its own: a sentence to read in full. */
      g_autofree char *cycle = flitlab_describe_deadlock (result->routed->topology, res->deadlock_channels,
                                                              res->deadlock_len);
      GtkWidget *row = add_row (self, cycle, NULL);

      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
      set_value (self, "cycle", cycle);
    }

  add_value_row (self, "latency", _("Latency"), _("Mean cycles from a packet’s creation to its delivery"),
                 latency);
  add_value_row (self, "latency-p99", _("Latency, 99th percentile"), NULL, p99);
  add_value_row (self, "network-latency", _("Network latency"),
                 _("Mean cycles from the head’s injection"), network);
  worst_text = g_strdup_printf (_("Flits per cycle per host; worst host %s"), worst);
  add_value_row (self, "throughput", _("Accepted throughput"), worst_text, throughput);
  set_value (self, "throughput-min", worst);
  add_value_row (self, "offered", _("Offered load"), _("Flits per cycle per host"), offered);
  add_value_row (self, "hops", _("Hops"), _("Mean routers crossed per packet"), hops);
  add_value_row (self, "packets", _("Packets"), _("Measured and delivered"), packets);
  add_value_row (self, "cycles", _("Cycles simulated"), NULL, cycles);
  if (res->wall_s > 0)
    speed = g_strdup_printf (_("%.1f million flit-hops per second"), (double) res->flit_hops / res->wall_s / 1e6);
  add_value_row (self, "wall-time", _("Wall time"), speed, wall);
}

static void
show_deflection_result (FlitlabSimulatePanel *self,
                        const SimulateResult *result)
{
  const FlDeflectResult *res = &result->deflect;
  int64_t n = res->cycles;
  g_autofree char *throughput = g_strdup_printf ("%.4f", result->deflect_throughput);
  g_autofree char *avg = g_strdup_printf ("%.3f", n > 0 ? res->avg_delay[n - 1] : 0.0);
  g_autofree char *max = g_strdup_printf ("%.0f", n > 0 ? res->max_delay[n - 1] : 0.0);
  g_autofree char *deflections = g_strdup_printf ("%" G_GINT64_FORMAT, res->deflections);
  g_autofree char *delivered = g_strdup_printf ("%" G_GINT64_FORMAT, res->delivered);
  g_autofree char *cycles = g_strdup_printf ("%" G_GINT64_FORMAT, n);
  g_autofree char *wall = wall_time (res->wall_s);

  add_value_row (self, "deflect-throughput", _("Throughput"),
                 _("Messages per cycle per node over the second half of the run"), throughput);
  add_value_row (self, "delay-avg", _("Average delay"), _("Cycles, over the messages delivered"), avg);
  add_value_row (self, "delay-max", _("Maximum delay"), _("Cycles"), max);
  add_value_row (self, "deflections", _("Deflections"), _("Messages sent away from a shortest path"),
                 deflections);
  add_value_row (self, "delivered", _("Messages delivered"), NULL, delivered);
  add_value_row (self, "cycles", _("Cycles simulated"), NULL, cycles);
  add_value_row (self, "wall-time", _("Wall time"), NULL, wall);
}

/* Whether Run can go, and the routing row's sentence. */
static void
update_run_state (FlitlabSimulatePanel *self)
{
  FlitlabRouted *routed = self->document != NULL ? flitlab_document_get_routed (self->document) : NULL;
  const char *name = self->document != NULL ? flitlab_document_get_routing (self->document) : NULL;
  const char *refused = self->document != NULL ? flitlab_document_get_refused (self->document) : NULL;
  /* The window builds the routing of the document shown, which is this
   * panel's: while it does, the one the document holds is another
   * request's. */
  gboolean building = self->workers != NULL && flitlab_workers_is_running (self->workers, FLITLAB_JOB_ROUTE);
  g_autofree char *sentence = NULL;

  g_clear_pointer (&self->why, g_free);
  if (self->document == NULL)
    self->why = g_strdup (_("No network is shown."));
  else if (routed != NULL && routed->routing != NULL && !building)
    /* Translators: %s is a routing's name, such as "dor" or "updown". */
    sentence = g_strdup_printf (_("%s, as chosen in the Routing tab"), routed->routing_name);
  else if (refused != NULL && !building)
    /* Translators: the first %s is a routing's name, the second the engine's reason. */
    self->why = g_strdup_printf (_("%s was refused in the Routing tab (%s): choose another routing "
                                   "there to simulate."), name, refused);
  else if (fl_topology_switch_count (flitlab_document_get_topology (self->document)) == 0)
    self->why = g_strdup (_("The network has no switch to simulate."));
  else
    /* Translators: %s is a routing's name. */
    self->why = g_strdup_printf (_("%s is being built in the Routing tab: Run waits for it."), name);

  adw_action_row_set_subtitle (self->routing_row, self->why != NULL ? self->why : sentence);
  gtk_widget_set_visible (self->routing_icon, self->why != NULL);
  if (self->why != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->routing_row), "problem");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->routing_row), "problem");
  set_value (self, "routing", self->why != NULL ? self->why : sentence);
  set_value (self, "why", self->why != NULL ? self->why : "");

  gtk_widget_set_sensitive (self->run_button, self->why == NULL && !self->running);
  gtk_widget_set_tooltip_text (self->run_button,
                               self->why != NULL ? self->why
                               : self->running ? _("A run is under way: the header’s Stop ends it")
                               : _("Run the whole simulation with these settings"));
}

static void
set_running (FlitlabSimulatePanel *self,
             gboolean              running)
{
  if (running == self->running)
    return;
  self->running = running;
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), running);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  update_run_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* Drops the run under way, if any: its result will never come. */
static void
supersede (FlitlabSimulatePanel *self)
{
  if (self->running && self->workers != NULL)
    flitlab_workers_supersede (self->workers, FLITLAB_JOB_SIMULATE);
  set_running (self, FALSE);
}

/* The page's groups whose rows are all hidden (the other model's) hide
 * too, rather than show an empty title. */
static void
update_groups (FlitlabSimulatePanel *self)
{
  g_autoptr(GPtrArray) groups = g_ptr_array_new ();
  g_autoptr(GHashTable) shown = g_hash_table_new (NULL, NULL);

  for (int i = 0; i < fl_sim_settings_key_count (); i++)
    {
      GtkWidget *row = flitlab_sim_settings_get_row (self->settings_page, fl_sim_settings_key (i)->name);
      GtkWidget *group = row != NULL ? gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP) : NULL;

      if (group == NULL)
        continue;
      if (!g_ptr_array_find (groups, group, NULL))
        g_ptr_array_add (groups, group);
      if (gtk_widget_get_visible (row))
        g_hash_table_add (shown, group);
    }
  for (guint i = 0; i < groups->len; i++)
    {
      GtkWidget *group = g_ptr_array_index (groups, i);

      gtk_widget_set_visible (group, g_hash_table_contains (shown, group));
    }
}

/* Running ------------------------------------------------------------------------- */

static void
simulate_progress (gpointer user_data,
                   double   fraction)
{
  FlitlabSimulatePanel *self = user_data;

  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0.0, 1.0));
}

static void
simulate_done (gpointer      user_data,
               gpointer      value,
               const GError *error)
{
  FlitlabSimulatePanel *self = user_data;
  SimulateResult *result = value;
  g_autofree char *description = NULL;

  /* The results are the routing's the run took, which stays referenced. */
  clear_rows (self);
  set_running (self, FALSE);
  update_run_state (self);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_message (self, _("Stopped"), _("The run was stopped before its end: there are no results."),
                  FALSE);
  else if (error != NULL)
    /* The engine's refusal of the configuration, in its words. */
    show_message (self, _("The simulator refused these settings"), error->message, TRUE);
  else
    {
      /* Translators: the first %s is a network's name, the second a routing's. */
      description = g_strdup_printf (_("%s, routed by %s"), result->network, result->routed->routing_name);
      adw_preferences_group_set_description (self->results_group, description);
      if (result->model == FL_SIM_MODEL_DEFLECTION)
        show_deflection_result (self, result);
      else
        show_flit_result (self, result);
    }
  simulate_result_free (result);
}

gboolean
flitlab_simulate_panel_run (FlitlabSimulatePanel *self)
{
  SimulateData *data;
  FlitlabRouted *routed;

  g_return_val_if_fail (FLITLAB_IS_SIMULATE_PANEL (self), FALSE);

  update_run_state (self);
  if (self->why != NULL || self->running || self->workers == NULL)
    return FALSE;
  routed = flitlab_document_get_routed (self->document);
  data = g_new0 (SimulateData, 1);
  data->routed = flitlab_routed_ref (routed);
  data->network = g_strdup (flitlab_document_get_name (self->document));
  if (fl_sim_settings_copy (&data->settings, flitlab_sim_settings_get_settings (self->settings_page), NULL)
      != FL_OK)
    g_error ("out of memory copying the simulation settings");

  clear_results (self);
  self->routed_used = flitlab_routed_ref (routed);
  set_running (self, TRUE);
  flitlab_workers_run (self->workers, FLITLAB_JOB_SIMULATE, simulate_job, data, simulate_data_free,
                       simulate_result_free, simulate_progress, simulate_done, self);
  return TRUE;
}

static void
run_clicked_cb (FlitlabSimulatePanel *self)
{
  flitlab_simulate_panel_run (self);
}

/* The document ------------------------------------------------------------------- */

/* A row changed the page's settings: they are the network's. */
static void
settings_changed_cb (FlitlabSimulatePanel *self)
{
  if (self->document == NULL)
    return;
  self->syncing = TRUE;
  flitlab_document_set_sim_settings (self->document, flitlab_sim_settings_get_settings (self->settings_page));
  self->syncing = FALSE;
}

/* The document's settings changed elsewhere (read from the project). */
static void
document_settings_changed (FlitlabSimulatePanel *self)
{
  if (!self->syncing && self->document != NULL)
    flitlab_sim_settings_set_settings (self->settings_page, flitlab_document_get_sim_settings (self->document));
}

/* A run, or the results shown, for a network whose structure has changed
 * since describe something no longer there. A move keeps the routing, and
 * them. */
static void
document_edited (FlitlabSimulatePanel *self)
{
  if (self->routed_used != NULL && flitlab_document_get_routed (self->document) != self->routed_used)
    {
      supersede (self);
      clear_results (self);
    }
  update_run_state (self);
}

void
flitlab_simulate_panel_set_document (FlitlabSimulatePanel *self,
                                     FlitlabDocument      *document)
{
  FlSimSettings defaults;

  g_return_if_fail (FLITLAB_IS_SIMULATE_PANEL (self));
  g_return_if_fail (document == NULL || FLITLAB_IS_DOCUMENT (document));

  if (document == self->document)
    return;
  supersede (self);
  clear_results (self);
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  if (document != NULL)
    flitlab_sim_settings_set_settings (self->settings_page, flitlab_document_get_sim_settings (document));
  else
    {
      fl_sim_settings_init (&defaults);
      flitlab_sim_settings_set_settings (self->settings_page, &defaults);
      fl_sim_settings_clear (&defaults);
    }
  /* The settings' groups follow the run group: no network, nothing to set. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->settings_page), document != NULL);
  update_run_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

FlitlabDocument *
flitlab_simulate_panel_get_document (FlitlabSimulatePanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIMULATE_PANEL (self), NULL);

  return self->document;
}

void
flitlab_simulate_panel_set_workers (FlitlabSimulatePanel *self,
                                    FlitlabWorkers       *workers)
{
  g_return_if_fail (FLITLAB_IS_SIMULATE_PANEL (self));

  supersede (self);
  if (self->workers != NULL)
    g_signal_handlers_disconnect_by_data (self->workers, self);
  g_set_object (&self->workers, workers);
  if (workers != NULL)
    g_signal_connect_object (workers, "notify::busy", G_CALLBACK (update_run_state), self, G_CONNECT_SWAPPED);
  update_run_state (self);
}

FlitlabSimSettings *
flitlab_simulate_panel_get_settings (FlitlabSimulatePanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIMULATE_PANEL (self), NULL);

  return self->settings_page;
}

gboolean
flitlab_simulate_panel_get_running (FlitlabSimulatePanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIMULATE_PANEL (self), FALSE);

  return self->running;
}

const char *
flitlab_simulate_panel_get_value (FlitlabSimulatePanel *self,
                                  const char           *key)
{
  const char *text;

  g_return_val_if_fail (FLITLAB_IS_SIMULATE_PANEL (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (value_keys); i++)
    if (g_strcmp0 (key, value_keys[i]) == 0)
      {
        text = g_hash_table_lookup (self->values, key);
        return text != NULL ? text : "";
      }
  return NULL;
}

/* GtkWidget ---------------------------------------------------------------------- */

/* The page's rows would ask for the width of their longest line; the pane
 * beside the canvas keeps its own width whichever tab shows, so the panel
 * asks only for what it cannot do without, and its text wraps. */
static void
flitlab_simulate_panel_measure (GtkWidget      *widget,
                                GtkOrientation  orientation,
                                int             for_size,
                                int            *minimum,
                                int            *natural,
                                int            *minimum_baseline,
                                int            *natural_baseline)
{
  FlitlabSimulatePanel *self = FLITLAB_SIMULATE_PANEL (widget);

  gtk_widget_measure (GTK_WIDGET (self->settings_page), orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *natural = *minimum;
}

static void
flitlab_simulate_panel_size_allocate (GtkWidget *widget,
                                      int        width,
                                      int        height,
                                      int        baseline)
{
  FlitlabSimulatePanel *self = FLITLAB_SIMULATE_PANEL (widget);

  gtk_widget_allocate (GTK_WIDGET (self->settings_page), width, height, baseline, NULL);
}

/* GObject ------------------------------------------------------------------------- */

GtkWidget *
flitlab_simulate_panel_new (void)
{
  return g_object_new (FLITLAB_TYPE_SIMULATE_PANEL, NULL);
}

static void
flitlab_simulate_panel_dispose (GObject *object)
{
  FlitlabSimulatePanel *self = FLITLAB_SIMULATE_PANEL (object);

  /* A run still under way must not come back to a panel that is going. */
  if (self->running && self->workers != NULL)
    flitlab_workers_supersede (self->workers, FLITLAB_JOB_SIMULATE);
  self->running = FALSE;
  if (self->workers != NULL)
    g_signal_handlers_disconnect_by_data (self->workers, self);
  g_clear_object (&self->workers);
  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_pointer (&self->routed_used, flitlab_routed_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_SIMULATE_PANEL);
  G_OBJECT_CLASS (flitlab_simulate_panel_parent_class)->dispose (object);
}

static void
flitlab_simulate_panel_finalize (GObject *object)
{
  FlitlabSimulatePanel *self = FLITLAB_SIMULATE_PANEL (object);

  g_clear_pointer (&self->result_rows, g_ptr_array_unref);
  g_clear_pointer (&self->values, g_hash_table_unref);
  g_free (self->why);
  G_OBJECT_CLASS (flitlab_simulate_panel_parent_class)->finalize (object);
}

static void
flitlab_simulate_panel_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  FlitlabSimulatePanel *self = FLITLAB_SIMULATE_PANEL (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_simulate_panel_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  FlitlabSimulatePanel *self = FLITLAB_SIMULATE_PANEL (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      flitlab_simulate_panel_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_simulate_panel_class_init (FlitlabSimulatePanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_simulate_panel_dispose;
  object_class->finalize = flitlab_simulate_panel_finalize;
  object_class->get_property = flitlab_simulate_panel_get_property;
  object_class->set_property = flitlab_simulate_panel_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, FLITLAB_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (FLITLAB_TYPE_SIM_SETTINGS);
  widget_class->measure = flitlab_simulate_panel_measure;
  widget_class->size_allocate = flitlab_simulate_panel_size_allocate;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-simulate-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabSimulatePanel, settings_page);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSimulatePanel, run_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSimulatePanel, run_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSimulatePanel, preset_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSimulatePanel, routing_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSimulatePanel, routing_icon);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSimulatePanel, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSimulatePanel, results_group);
  gtk_widget_class_bind_template_callback (widget_class, run_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, settings_changed_cb);
}

/* The engine's presets, each setting up its network (win.sim-preset). */
static GMenuModel *
preset_menu (void)
{
  GMenu *menu = g_menu_new ();

  for (int i = 0; i < fl_sim_preset_count (); i++)
    {
      const FlSimPreset *p = fl_sim_preset (i);
      g_autoptr(GMenuItem) item = g_menu_item_new (fl_gettext (p->title), NULL);

      g_menu_item_set_action_and_target_value (item, "win.sim-preset", g_variant_new_string (p->name));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

static void
flitlab_simulate_panel_init (FlitlabSimulatePanel *self)
{
  g_autoptr(GMenuModel) presets = NULL;
  GtkWidget *groups, *model;

  self->result_rows = g_ptr_array_new ();
  self->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gtk_widget_init_template (GTK_WIDGET (self));
  presets = preset_menu ();
  gtk_menu_button_set_menu_model (self->preset_button, presets);
  flitlab_menu_button_quiet_tooltip (self->preset_button);

  /* The page added the template's groups after the settings' own: the
   * run and its results go first, where they are seen, then the model,
   * which decides which settings apply. */
  groups = gtk_widget_get_parent (GTK_WIDGET (self->run_group));
  model = gtk_widget_get_ancestor (flitlab_sim_settings_get_row (self->settings_page, "mode"),
                                   ADW_TYPE_PREFERENCES_GROUP);
  if (GTK_IS_BOX (groups))
    {
      if (model != NULL && gtk_widget_get_parent (model) == groups)
        gtk_box_reorder_child_after (GTK_BOX (groups), model, NULL);
      gtk_box_reorder_child_after (GTK_BOX (groups), GTK_WIDGET (self->results_group), NULL);
      gtk_box_reorder_child_after (GTK_BOX (groups), GTK_WIDGET (self->run_group), NULL);
    }
  g_signal_connect_object (self->settings_page, "notify::settings", G_CALLBACK (update_groups), self,
                           G_CONNECT_SWAPPED);
  update_groups (self);

  self->document_signals = g_signal_group_new (FLITLAB_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::routed",
                                  G_CALLBACK (update_run_state), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::refused",
                                  G_CALLBACK (update_run_state), self);
  g_signal_group_connect_swapped (self->document_signals, "request-changed",
                                  G_CALLBACK (update_run_state), self);
  g_signal_group_connect_swapped (self->document_signals, "topology-edited",
                                  G_CALLBACK (document_edited), self);
  g_signal_group_connect_swapped (self->document_signals, "sim-settings-changed",
                                  G_CALLBACK (document_settings_changed), self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->settings_page), FALSE);
  update_run_state (self);
}
