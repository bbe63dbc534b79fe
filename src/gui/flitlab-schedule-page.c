/* flitlab-schedule-page.c — the link schedule page of the Collectives
 * tab: the request set and the colouring asked for, made in a worker; what
 * the colouring is (L_max, colours, valid, each request's colour); the
 * Gantt chart of its slots; the phases run in the simulator.
 *
 * A colouring is a Coloured: the requests, their schedule on a copy of the
 * network (the schedule keeps pointing at it) and the colours, shared by
 * reference with a phase run in the worker, so a new colouring never pulls
 * the schedule from under a run still going. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>

#include "flitlab-collective-page.h"
#include "flitlab-collectives-panel.h"
#include "flitlab-schedule-page.h"
#include "flitlab-workers.h"

#define MESH_SPEC "myrinet-mesh:8x4"
#define LINE_SPEC "myrinet-line:8"
#define HOTSPOT_FRACTION 0.5
#define PHASE_FLITS 16
#define PHASE_MAX_CYCLES 100000000

/* The values shown, one line of the grid each. */
typedef enum {
  VALUE_REQUESTS,
  VALUE_L_MAX,
  VALUE_COLORS,
  VALUE_BOUND,
  VALUE_VALID,
  N_VALUES
} Value;

/* clang-format off */
static const struct {
  const char *key;
  const char *name;
  const char *tooltip;
} value_rows[N_VALUES] = {
  [VALUE_REQUESTS] = { "requests", N_("Requests"),
                       N_("Messages to schedule, each from a source host to a destination host") },
  [VALUE_L_MAX] = { "l-max", N_("L_max"), N_("The most requests on one directed link: no schedule has fewer slots") },
  [VALUE_COLORS] = { "colors", N_("Colours"), N_("Time slots the colouring uses") },
  [VALUE_BOUND] = { "bound", N_("Paper’s bound"),
                    N_("L_max slots on a linear array, ⌊3/2 L_max⌋ on a mesh (paper 004)") },
  [VALUE_VALID] = { "valid", N_("Valid"), N_("No directed link carries two requests of one colour") },
};
/* clang-format on */

/* A finished colouring, shared by reference. */
typedef struct
{
  FlTopology *topology;        /* the copy the schedule was built on */
  FlScheduleRequest *requests;
  int n;
  FlSchedule *schedule;
  int *colors;
  int ncolors;
  char *invalid;               /* fl_schedule_check()'s message, NULL: valid */
} Coloured;

static void
coloured_clear (gpointer data)
{
  Coloured *c = data;

  fl_schedule_free (c->schedule);
  free (c->requests);
  g_free (c->colors);
  g_free (c->invalid);
  fl_topology_free (c->topology);
}

static void
coloured_unref (Coloured *c)
{
  g_rc_box_release_full (c, coloured_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Coloured, coloured_unref)

/* What a colouring job is asked. */
typedef struct
{
  FlTopology *topology;
  FlitlabRequestSource source;
  int k;
  guint64 seed;
  char *path;
  FlScheduleAlgo algo;
} ColourData;

static void
colour_data_free (gpointer data)
{
  ColourData *d = data;

  fl_topology_free (d->topology);
  g_free (d->path);
  g_free (d);
}

/* A phase run's result. */
typedef struct
{
  FlSchedulePhase *phases;
  int n;
} Phases;

static void
phases_free (gpointer data)
{
  Phases *p = data;

  g_free (p->phases);
  g_free (p);
}

struct _FlitlabSchedulePage
{
  GtkWidget parent_instance;

  FlitlabCollectivePage core;  /* the document, the workers, running */

  FlitlabRequestSource source;
  char *path;                  /* the requests' file */
  Coloured *coloured;          /* the colouring shown, NULL: none */
  Phases *phases;              /* its phases run, NULL: not run */
  gboolean updating;
  int filter;                  /* the colour drawn, -1: all */
  int selected;                /* the request selected, -1: none */
  char *error;
  char *network_text;
  char *phases_text;

  /* The Gantt chart's rows and bars, as last drawn. */
  GPtrArray *row_labels;
  GArray *bars;
  GPtrArray *bar_labels;

  /* Template widgets. */
  AdwActionRow *network_row;
  GtkWidget *network_buttons;
  GtkButton *mesh_button;
  GtkButton *line_button;
  AdwComboRow *source_row;
  GtkWidget *k_row;
  GtkSpinButton *k_spin;
  GtkAdjustment *k_adjustment;
  GtkWidget *seed_row;
  GtkSpinButton *seed_spin;
  AdwActionRow *file_row;
  AdwComboRow *algorithm_row;
  GtkLabel *error_label;
  GtkWidget *result_group;
  GtkWidget *run_button;
  GtkGrid *values_grid;
  GtkDrawingArea *chart_area;
  GtkLabel *phases_label;
  AdwComboRow *filter_row;
  GtkListView *request_list;

  GtkLabel *values[N_VALUES];
  GtkStringList *request_items;
  GtkSingleSelection *request_selection;
  GtkStringList *filter_items;
};

G_DEFINE_FINAL_TYPE (FlitlabSchedulePage, flitlab_schedule_page, GTK_TYPE_WIDGET)

static GParamSpec *properties[FLITLAB_COLLECTIVE_N_PROPS];
static guint signals[FLITLAB_COLLECTIVE_N_SIGNALS];

#define OVERLAY_CHANGED FLITLAB_COLLECTIVE_SIGNAL_OVERLAY_CHANGED
#define SHOW_NETWORK    FLITLAB_COLLECTIVE_SIGNAL_SHOW_NETWORK

static const FlTopology *
shown_topology (FlitlabSchedulePage *self)
{
  return self->core.document != NULL ? flitlab_document_get_topology (self->core.document) : NULL;
}

static gboolean
is_myrinet (const FlTopology *t)
{
  const char *family = t != NULL ? fl_topology_family (t) : "";

  return g_str_equal (family, "myrinet-line") || g_str_equal (family, "myrinet-mesh");
}

/* The Gantt chart ------------------------------------------------------------------- */

/* One row per colour: its slot, or once the phases have run, the cycles
 * the simulator took for it; a bar per colour class, labelled with its
 * requests (a bar per request would only repeat the class's interval,
 * and a thousand rows of them could not be read). */
static void
build_chart (FlitlabSchedulePage *self,
             FlDrawChart         *chart)
{
  Coloured *c = self->coloured;
  int ncolors = c != NULL ? c->ncolors : 0;
  g_autofree int *count = g_new0 (int, MAX (ncolors, 1));

  fl_draw_chart_init (chart);
  g_ptr_array_set_size (self->row_labels, 0);
  g_ptr_array_set_size (self->bar_labels, 0);
  g_array_set_size (self->bars, 0);
  for (int i = 0; c != NULL && i < c->n; i++)
    if (c->colors[i] >= 0 && c->colors[i] < ncolors)
      count[c->colors[i]]++;
  for (int k = 0; k < ncolors; k++)
    {
      FlDrawBar bar = { k, k, k + 1, FL_DRAW_BAR_SLOT, k, NULL };

      /* Translators: a row of the Gantt chart: a colour, that is a time slot, numbered from 1. */
      g_ptr_array_add (self->row_labels, g_strdup_printf (_("colour %d"), k + 1));
      if (self->phases != NULL && k < self->phases->n)
        {
          bar.start = (double) self->phases->phases[k].start;
          bar.end = (double) self->phases->phases[k].end;
        }
      /* Translators: the requests of one colour, in its bar of the chart. */
      g_ptr_array_add (self->bar_labels, g_strdup_printf (ngettext ("%d request", "%d requests", count[k]), count[k]));
      bar.label = g_ptr_array_index (self->bar_labels, k);
      g_array_append_val (self->bars, bar);
    }
  chart->row_labels = (const char *const *) self->row_labels->pdata;
  chart->rows = ncolors;
  chart->bars = (const FlDrawBar *) (void *) self->bars->data;
  chart->nbars = (int) self->bars->len;
  chart->time_unit = self->phases != NULL ? _("cycles") : _("slots");
  chart->title = self->phases != NULL ? _("Phases in the simulator") : _("Slots of the colouring");
  chart->dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
}

void
flitlab_schedule_page_get_chart (FlitlabSchedulePage *self,
                                 FlDrawChart         *chart)
{
  g_return_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self));

  build_chart (self, chart);
}

static void
draw_chart (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  FlitlabSchedulePage *self = user_data;
  FlDrawChart chart;

  build_chart (self, &chart);
  fl_draw_chart (cr, &chart, width, height);
}

/* Showing a colouring ----------------------------------------------------------------- */

static void
set_value (FlitlabSchedulePage *self,
           Value                value,
           const char          *text)
{
  gtk_label_set_label (self->values[value], text);
}

static void
set_value_int (FlitlabSchedulePage *self,
               Value                value,
               int                  figure)
{
  g_autofree char *text = g_strdup_printf ("%d", figure);

  set_value (self, value, text);
}

/* The markup of request i's line: a swatch of its colour, its hosts and
 * its colour's number. */
static char *
request_markup (const Coloured *c,
                int             i)
{
  double rgb[3];

  fl_draw_palette_colour (c->colors[i], rgb);
  /* Translators: a request: its number, its source and destination hosts, its colour. */
  return g_strdup_printf (_("<span foreground=\"#%02x%02x%02x\">■</span>  %d: host %d → host %d, colour %d"),
                          (int) lround (rgb[0] * 255), (int) lround (rgb[1] * 255), (int) lround (rgb[2] * 255),
                          i + 1, c->requests[i].src, c->requests[i].dst, c->colors[i] + 1);
}

static void
show_requests (FlitlabSchedulePage *self)
{
  Coloured *c = self->coloured;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) filters = g_ptr_array_new_with_free_func (g_free);
  guint old = g_list_model_get_n_items (G_LIST_MODEL (self->filter_items));

  for (int i = 0; c != NULL && i < c->n; i++)
    if (self->filter < 0 || c->colors[i] == self->filter)
      g_ptr_array_add (lines, request_markup (c, i));
  g_ptr_array_add (lines, NULL);
  self->updating = TRUE;
  gtk_string_list_splice (self->request_items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->request_items)),
                          (const char *const *) lines->pdata);
  gtk_single_selection_set_selected (self->request_selection, GTK_INVALID_LIST_POSITION);
  self->updating = FALSE;
  self->selected = -1;

  g_ptr_array_add (filters, g_strdup (_("All colours")));
  for (int k = 0; c != NULL && k < c->ncolors; k++)
    /* Translators: a colour of the schedule, numbered from 1. */
    g_ptr_array_add (filters, g_strdup_printf (_("Colour %d"), k + 1));
  g_ptr_array_add (filters, NULL);
  if (old != filters->len - 1)
    {
      self->updating = TRUE;
      gtk_string_list_splice (self->filter_items, 0, old, (const char *const *) filters->pdata);
      adw_combo_row_set_selected (self->filter_row, self->filter + 1);
      self->updating = FALSE;
    }
}

static void
show_coloured (FlitlabSchedulePage *self)
{
  Coloured *c = self->coloured;
  const FlTopology *t = shown_topology (self);
  int l_max = c != NULL ? fl_schedule_l_max (c->schedule) : 0;

  for (guint i = 0; i < N_VALUES; i++)
    set_value (self, i, "—");
  if (c != NULL)
    {
      set_value_int (self, VALUE_REQUESTS, c->n);
      set_value_int (self, VALUE_L_MAX, l_max);
      set_value_int (self, VALUE_COLORS, c->ncolors);
      set_value_int (self, VALUE_BOUND,
                     t != NULL && g_str_equal (fl_topology_family (t), "myrinet-mesh") ? 3 * l_max / 2 : l_max);
      set_value (self, VALUE_VALID, c->invalid != NULL ? c->invalid : _("yes"));
    }
  gtk_widget_set_sensitive (self->run_button, c != NULL && c->n > 0 && !self->core.running);
  gtk_label_set_label (self->error_label, self->error != NULL ? self->error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), self->error != NULL);
  gtk_label_set_label (self->phases_label, self->phases_text != NULL ? self->phases_text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->phases_label), self->phases_text != NULL);
  show_requests (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
  g_signal_emit (self, signals[OVERLAY_CHANGED], 0);
}

static void
set_running (FlitlabSchedulePage *self,
             gboolean            running)
{
  GParamSpec *pspec = properties[FLITLAB_COLLECTIVE_PROP_RUNNING];

  flitlab_collective_page_set_running (&self->core, G_OBJECT (self), pspec, running);
}

/* Colouring ------------------------------------------------------------------------- */

static int
make_requests (const ColourData   *d,
               const FlTopology   *t,
               FlScheduleRequest **out,
               int                *n,
               FlError            *err)
{
  switch (d->source)
    {
    case FLITLAB_REQUESTS_UNIFORM:
      return fl_schedule_random_uniform (t, d->k, d->seed, out, n, err);
    case FLITLAB_REQUESTS_PERMUTATION:
      return fl_schedule_random_permutation (t, d->k, d->seed, out, n, err);
    case FLITLAB_REQUESTS_HOTSPOT:
      return fl_schedule_hotspot (t, d->k, 0, HOTSPOT_FRACTION, d->seed, out, n, err);
    case FLITLAB_REQUESTS_TOP_DOWN:
      return fl_schedule_top_down (t, d->seed, out, n, err);
    case FLITLAB_REQUESTS_FILE:
    case FLITLAB_N_REQUEST_SOURCES:
    default:
      return fl_schedule_read_file (t, d->path, out, n, err);
    }
}

static gpointer
colour_job (FlitlabJob  *job,
            gpointer     data,
            GError     **error)
{
  ColourData *d = data;
  g_autoptr(Coloured) c = g_rc_box_new0 (Coloured);
  FlError err;
  int rc;

  c->topology = g_steal_pointer (&d->topology);
  rc = make_requests (d, c->topology, &c->requests, &c->n, &err);
  if (rc != FL_OK && d->source == FLITLAB_REQUESTS_FILE)
    {
      g_autofree char *name = g_path_get_basename (d->path);

      /* Translators: a requests file's name, then the engine's reason,
       * which gives the line. */
      g_set_error (error, FLITLAB_ENGINE_ERROR, err.code, _("Could not read “%s”: %s"), name, err.message);
      return NULL;
    }
  if (rc != FL_OK
      || fl_schedule_new (c->topology, c->requests, c->n, &c->schedule, &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return NULL;
    }
  c->colors = g_new0 (int, MAX (c->n, 1));
  /* The exact search gives up with the best colouring it found, valid. */
  if (fl_schedule_color (c->schedule, d->algo, c->colors, &c->ncolors, &err) != FL_OK
      && !(d->algo == FL_SCHEDULE_EXACT && err.code == FL_ERANGE && c->ncolors > 0))
    {
      flitlab_set_engine_error (error, &err);
      return NULL;
    }
  if (fl_schedule_check (c->schedule, c->colors, &err) != FL_OK)
    c->invalid = g_strdup (err.message);
  return g_steal_pointer (&c);
}

static void
colour_done (gpointer      user_data,
             gpointer      result,
             const GError *error)
{
  FlitlabSchedulePage *self = user_data;

  set_running (self, FALSE);
  if (error != NULL)
    self->error = g_strdup (error->message);
  self->coloured = result;
  show_coloured (self);
}

static void
clear_coloured (FlitlabSchedulePage *self)
{
  g_clear_pointer (&self->coloured, coloured_unref);
  g_clear_pointer (&self->phases, phases_free);
  g_clear_pointer (&self->phases_text, g_free);
  g_clear_pointer (&self->error, g_free);
  self->filter = -1;
  self->selected = -1;
}

/* Colours the requests the rows ask for, superseding a job under way. */
static void
start_colouring (FlitlabSchedulePage *self)
{
  const FlTopology *t = shown_topology (self);
  ColourData *data;

  clear_coloured (self);
  if (!is_myrinet (t) || (self->source == FLITLAB_REQUESTS_FILE && self->path == NULL))
    {
      flitlab_collective_page_supersede (&self->core, FLITLAB_JOB_SCHEDULE);
      set_running (self, FALSE);
      show_coloured (self);
      return;
    }
  data = g_new0 (ColourData, 1);
  data->topology = fl_topology_copy (t);
  data->source = self->source;
  data->k = gtk_spin_button_get_value_as_int (self->k_spin);
  data->seed = (guint64) gtk_spin_button_get_value_as_int (self->seed_spin);
  data->path = g_strdup (self->path);
  data->algo = (FlScheduleAlgo) adw_combo_row_get_selected (self->algorithm_row);
  if (data->topology == NULL)
    g_error ("out of memory copying the network");
  set_running (self, TRUE);
  show_coloured (self);
  flitlab_collective_page_run (&self->core, FLITLAB_JOB_SCHEDULE, colour_job, data, colour_data_free,
                               (GDestroyNotify) coloured_unref, NULL, colour_done, self);
}

/* The rows that apply to the source chosen. */
static void
show_source_rows (FlitlabSchedulePage *self)
{
  gboolean random = self->source != FLITLAB_REQUESTS_FILE;
  g_autofree char *name = self->path != NULL ? g_path_get_basename (self->path) : NULL;

  gtk_widget_set_visible (self->k_row, random && self->source != FLITLAB_REQUESTS_TOP_DOWN);
  gtk_widget_set_visible (self->seed_row, random);
  gtk_widget_set_visible (GTK_WIDGET (self->file_row), !random);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->file_row), name != NULL ? name : _("File"));
}

static void
requests_changed_cb (FlitlabSchedulePage *self)
{
  if (self->updating)
    return;
  self->source = adw_combo_row_get_selected (self->source_row);
  show_source_rows (self);
  start_colouring (self);
}

void
flitlab_schedule_page_set_requests (FlitlabSchedulePage  *self,
                                    FlitlabRequestSource  source,
                                    int                   k,
                                    guint64               seed)
{
  g_return_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self));
  g_return_if_fail (source < FLITLAB_N_REQUEST_SOURCES);

  self->updating = TRUE;
  adw_combo_row_set_selected (self->source_row, source);
  gtk_spin_button_set_value (self->k_spin, k);
  gtk_spin_button_set_value (self->seed_spin, (double) seed);
  self->updating = FALSE;
  requests_changed_cb (self);
}

void
flitlab_schedule_page_set_file (FlitlabSchedulePage *self,
                                const char          *path)
{
  g_return_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self));

  g_free (self->path);
  self->path = g_strdup (path);
  self->updating = TRUE;
  adw_combo_row_set_selected (self->source_row, FLITLAB_REQUESTS_FILE);
  self->updating = FALSE;
  requests_changed_cb (self);
}

void
flitlab_schedule_page_set_algorithm (FlitlabSchedulePage *self,
                                     FlScheduleAlgo       algo)
{
  g_return_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self));
  g_return_if_fail (algo < FL_SCHEDULE_ALGO_COUNT);

  self->updating = TRUE;
  adw_combo_row_set_selected (self->algorithm_row, algo);
  self->updating = FALSE;
  requests_changed_cb (self);
}

static void
file_response (GtkNativeDialog *dialog,
               int              response,
               gpointer         user_data)
{
  FlitlabSchedulePage *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        flitlab_schedule_page_set_file (self, path);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
open_clicked_cb (FlitlabSchedulePage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Open Requests"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (file_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Phases ------------------------------------------------------------------------------ */

static gpointer
phases_job (FlitlabJob  *job,
            gpointer     data,
            GError     **error)
{
  Coloured *c = data;
  FlRouting *routing = NULL;
  FlSim *sim = NULL;
  FlSimConfig cfg;
  FlError err;
  Phases *p = g_new0 (Phases, 1);

  p->n = c->ncolors;
  p->phases = g_new0 (FlSchedulePhase, MAX (p->n, 1));
  fl_sim_config_init (&cfg);
  if (fl_routing_new (c->topology, "myrinet-dor", NULL, &routing, &err) != FL_OK)
    goto failed;
  cfg.routing = routing;
  cfg.traffic.rate = 0.0;
  if (fl_sim_new (c->topology, &cfg, &sim, &err) != FL_OK
      || fl_schedule_run (sim, c->schedule, c->colors, c->ncolors, PHASE_FLITS, PHASE_MAX_CYCLES, flitlab_job_progress,
                          job, p->phases, &err) != FL_OK)
    goto failed;
  fl_sim_free (sim);
  fl_routing_free (routing);
  return p;

failed:
  flitlab_set_engine_error (error, &err);
  fl_sim_free (sim);
  fl_routing_free (routing);
  phases_free (p);
  return NULL;
}

static void
phases_done (gpointer      user_data,
             gpointer      result,
             const GError *error)
{
  FlitlabSchedulePage *self = user_data;
  Phases *p = result;
  g_autoptr(GString) text = g_string_new (NULL);

  set_running (self, FALSE);
  g_clear_pointer (&self->phases_text, g_free);
  if (error != NULL)
    {
      self->error = g_strdup (error->message);
      show_coloured (self);
      return;
    }
  self->phases = p;
  for (int k = 0; k < p->n; k++)
    {
      const FlSchedulePhase *ph = &p->phases[k];

      if (k > 0)
        g_string_append_c (text, '\n');
      /* Translators: a phase of the simulated schedule: its colour, cycles, requests, how many were delayed. */
      g_string_append_printf (text,
                              ngettext ("Colour %d: cycles %lld–%lld, %d request, %d delayed",
                                        "Colour %d: cycles %lld–%lld, %d requests, %d delayed", ph->requests),
                              ph->color + 1, (long long) ph->start, (long long) ph->end, ph->requests, ph->delayed);
    }
  self->phases_text = g_string_free (g_steal_pointer (&text), FALSE);
  show_coloured (self);
}

gboolean
flitlab_schedule_page_run_phases (FlitlabSchedulePage *self)
{
  g_return_val_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self), FALSE);

  if (self->coloured == NULL || self->core.running || self->coloured->n == 0)
    return FALSE;
  g_clear_pointer (&self->phases, phases_free);
  g_clear_pointer (&self->phases_text, g_free);
  g_clear_pointer (&self->error, g_free);
  set_running (self, TRUE);
  show_coloured (self);
  flitlab_collective_page_run (&self->core, FLITLAB_JOB_SCHEDULE, phases_job, g_rc_box_acquire (self->coloured),
                               (GDestroyNotify) coloured_unref, phases_free, NULL, phases_done, self);
  return TRUE;
}

static void
run_clicked_cb (FlitlabSchedulePage *self)
{
  flitlab_schedule_page_run_phases (self);
}

gboolean
flitlab_schedule_page_get_running (FlitlabSchedulePage *self)
{
  g_return_val_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self), FALSE);

  return self->core.running;
}

const FlSchedule *
flitlab_schedule_page_get_schedule (FlitlabSchedulePage *self)
{
  g_return_val_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self), NULL);

  return self->coloured != NULL ? self->coloured->schedule : NULL;
}

const int *
flitlab_schedule_page_get_colors (FlitlabSchedulePage *self,
                                  int                 *ncolors)
{
  g_return_val_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self), NULL);

  if (ncolors != NULL)
    *ncolors = self->coloured != NULL ? self->coloured->ncolors : 0;
  return self->coloured != NULL ? self->coloured->colors : NULL;
}

/* The filter, the selection and the canvas ----------------------------------------------- */

void
flitlab_schedule_page_set_filter (FlitlabSchedulePage *self,
                                  int                  colour)
{
  g_return_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self));

  if (self->coloured == NULL || colour < -1 || colour >= self->coloured->ncolors || colour == self->filter)
    return;
  self->filter = colour;
  self->selected = -1;
  self->updating = TRUE;
  adw_combo_row_set_selected (self->filter_row, colour + 1);
  self->updating = FALSE;
  show_requests (self);
  g_signal_emit (self, signals[OVERLAY_CHANGED], 0);
}

static void
filter_changed_cb (FlitlabSchedulePage *self)
{
  if (!self->updating)
    flitlab_schedule_page_set_filter (self, (int) adw_combo_row_get_selected (self->filter_row) - 1);
}

static void
chart_pressed_cb (FlitlabSchedulePage *self,
                  int                  n_press,
                  double               x,
                  double               y)
{
  FlDrawChart chart;
  int row;

  build_chart (self, &chart);
  row = fl_draw_chart_hit_row (&chart, gtk_widget_get_width (GTK_WIDGET (self->chart_area)),
                               gtk_widget_get_height (GTK_WIDGET (self->chart_area)), y);
  /* A second click on the colour shown shows them all again. */
  flitlab_schedule_page_set_filter (self, row == self->filter ? -1 : row);
}

/* The request behind position pos of the list, which shows the filter's. */
static int
listed_request (FlitlabSchedulePage *self,
                guint                pos)
{
  Coloured *c = self->coloured;

  for (int i = 0; c != NULL && i < c->n; i++)
    if ((self->filter < 0 || c->colors[i] == self->filter) && pos-- == 0)
      return i;
  return -1;
}

static void
request_selected_cb (FlitlabSchedulePage *self)
{
  guint pos = gtk_single_selection_get_selected (self->request_selection);

  if (self->updating)
    return;
  self->selected = pos == GTK_INVALID_LIST_POSITION ? -1 : listed_request (self, pos);
  g_signal_emit (self, signals[OVERLAY_CHANGED], 0);
}

void
flitlab_schedule_page_draw_overlay (FlitlabSchedulePage *self,
                                    cairo_t             *cr,
                                    const FlTopology    *t,
                                    const FlDrawOptions *o)
{
  FlDrawSchedule d;

  g_return_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self));

  /* A colouring of the network drawn: the same channels. */
  if (self->coloured == NULL || t == NULL
      || fl_topology_channel_count (t) != fl_topology_channel_count (self->coloured->topology)
      || g_strcmp0 (fl_topology_spec (t), fl_topology_spec (self->coloured->topology)) != 0)
    return;
  fl_draw_schedule_init (&d);
  d.schedule = self->coloured->schedule;
  d.colors = self->coloured->colors;
  d.filter = self->filter;
  d.selected = self->selected;
  fl_draw_schedule (cr, t, o, &d);
}

gboolean
flitlab_schedule_page_node_activated (FlitlabSchedulePage *self,
                                      int                  node)
{
  const FlTopology *t = shown_topology (self);
  Coloured *c = self->coloured;
  int host = t != NULL && fl_topology_node_kind (t, node) == FL_NODE_HOST ? fl_topology_node_rank (t, node) : -1;
  guint pos = 0;

  g_return_val_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self), FALSE);

  for (int i = 0; c != NULL && host >= 0 && i < c->n; i++)
    {
      if (self->filter >= 0 && c->colors[i] != self->filter)
        continue;
      if (c->requests[i].src == host)
        {
          gtk_single_selection_set_selected (self->request_selection, pos);
          gtk_widget_activate_action (GTK_WIDGET (self->request_list), "list.scroll-to-item", "u", pos);
          return TRUE;
        }
      pos++;
    }
  return FALSE;
}

static void
show_network_cb (FlitlabSchedulePage *self,
                 GtkButton           *button)
{
  g_signal_emit (self, signals[SHOW_NETWORK], 0, button == self->mesh_button ? MESH_SPEC : LINE_SPEC);
}

const char *
flitlab_schedule_page_get_value (FlitlabSchedulePage *self,
                                 const char          *key)
{
  g_return_val_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self), NULL);

  for (guint i = 0; i < N_VALUES; i++)
    if (g_strcmp0 (value_rows[i].key, key) == 0)
      return gtk_label_get_label (self->values[i]);
  if (g_strcmp0 (key, "error") == 0)
    return self->error != NULL ? self->error : "";
  if (g_strcmp0 (key, "network") == 0)
    return self->network_text != NULL ? self->network_text : "";
  if (g_strcmp0 (key, "phases") == 0)
    return self->phases_text != NULL ? self->phases_text : "";
  return NULL;
}

/* The document ------------------------------------------------------------------------ */

/* Whether the network can be scheduled, and K's range: its hosts. */
static void
show_network (FlitlabSchedulePage *self)
{
  const FlTopology *t = shown_topology (self);
  gboolean myrinet = is_myrinet (t);

  g_clear_pointer (&self->network_text, g_free);
  if (!myrinet)
    self->network_text = g_strdup (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (self->network_row)));
  gtk_widget_set_visible (GTK_WIDGET (self->network_row), !myrinet);
  gtk_widget_set_visible (self->network_buttons, !myrinet);
  gtk_widget_set_sensitive (self->result_group, myrinet);
  if (myrinet)
    {
      self->updating = TRUE;
      gtk_adjustment_set_upper (self->k_adjustment, MAX (fl_topology_host_count (t), 1));
      self->updating = FALSE;
    }
}

static void
document_edited_cb (FlitlabSchedulePage *self)
{
  show_network (self);
  start_colouring (self);
}

void
flitlab_schedule_page_set_workers (FlitlabSchedulePage *self,
                                   FlitlabWorkers      *workers)
{
  g_return_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self));

  flitlab_collective_page_set_workers (&self->core, workers);
}

void
flitlab_schedule_page_set_document (FlitlabSchedulePage *self,
                                    FlitlabDocument     *document)
{
  g_return_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self));
  g_return_if_fail (document == NULL || FLITLAB_IS_DOCUMENT (document));

  if (!flitlab_collective_page_set_document (&self->core, document))
    return;
  document_edited_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[FLITLAB_COLLECTIVE_PROP_DOCUMENT]);
}

FlitlabDocument *
flitlab_schedule_page_get_document (FlitlabSchedulePage *self)
{
  g_return_val_if_fail (FLITLAB_IS_SCHEDULE_PAGE (self), NULL);

  return self->core.document;
}

/* Object life ------------------------------------------------------------------------ */

GtkWidget *
flitlab_schedule_page_new (void)
{
  return g_object_new (FLITLAB_TYPE_SCHEDULE_PAGE, NULL);
}

static void
flitlab_schedule_page_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  FlitlabSchedulePage *self = FLITLAB_SCHEDULE_PAGE (object);

  if (!flitlab_collective_page_get_property (&self->core, prop_id, value))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
flitlab_schedule_page_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  FlitlabSchedulePage *self = FLITLAB_SCHEDULE_PAGE (object);

  switch (prop_id)
    {
    case FLITLAB_COLLECTIVE_PROP_DOCUMENT:
      flitlab_schedule_page_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_schedule_page_dispose (GObject *object)
{
  FlitlabSchedulePage *self = FLITLAB_SCHEDULE_PAGE (object);

  flitlab_collective_page_dispose (&self->core, GTK_WIDGET (self), FLITLAB_TYPE_SCHEDULE_PAGE);
  G_OBJECT_CLASS (flitlab_schedule_page_parent_class)->dispose (object);
}

static void
flitlab_schedule_page_finalize (GObject *object)
{
  FlitlabSchedulePage *self = FLITLAB_SCHEDULE_PAGE (object);

  clear_coloured (self);
  g_free (self->path);
  g_free (self->network_text);
  g_ptr_array_unref (self->row_labels);
  g_ptr_array_unref (self->bar_labels);
  g_array_unref (self->bars);
  g_clear_object (&self->request_items);
  g_clear_object (&self->request_selection);
  g_clear_object (&self->filter_items);
  G_OBJECT_CLASS (flitlab_schedule_page_parent_class)->finalize (object);
}

static void
flitlab_schedule_page_class_init (FlitlabSchedulePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = flitlab_schedule_page_get_property;
  object_class->set_property = flitlab_schedule_page_set_property;
  object_class->dispose = flitlab_schedule_page_dispose;
  object_class->finalize = flitlab_schedule_page_finalize;

  flitlab_collective_page_install_properties (object_class, properties);
  flitlab_collective_install_signals (object_class, FALSE, signals);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-schedule-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "schedulepage");
  gtk_widget_class_bind_template_child_full (widget_class, "spinner", FALSE,
                                             G_STRUCT_OFFSET (FlitlabSchedulePage, core.spinner));
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, network_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, network_buttons);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, mesh_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, line_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, source_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, k_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, k_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, k_adjustment);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, seed_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, file_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, algorithm_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, error_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, result_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, run_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, values_grid);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, chart_area);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, phases_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, filter_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSchedulePage, request_list);
  gtk_widget_class_bind_template_callback (widget_class, show_network_cb);
  gtk_widget_class_bind_template_callback (widget_class, requests_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, run_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, chart_pressed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
}

static void
request_item_setup (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_use_markup (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_start (label, 10);
  gtk_widget_set_margin_end (label, 10);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
request_item_bind (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  user_data)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_markup (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (string));
}

static void
flitlab_schedule_page_init (FlitlabSchedulePage *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autofree char *mesh_label = NULL;
  g_autofree char *line_label = NULL;

  self->updating = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->updating = FALSE;
  flitlab_collective_page_init (&self->core, self, G_CALLBACK (document_edited_cb));
  self->filter = -1;
  self->selected = -1;
  self->source = FLITLAB_REQUESTS_PERMUTATION;
  self->row_labels = g_ptr_array_new_with_free_func (g_free);
  self->bar_labels = g_ptr_array_new_with_free_func (g_free);
  self->bars = g_array_new (FALSE, TRUE, sizeof (FlDrawBar));

  /* Translators: %s is a network's spec, myrinet-mesh:8x4. */
  mesh_label = g_strdup_printf (_("Show %s"), MESH_SPEC);
  line_label = g_strdup_printf (_("Show %s"), LINE_SPEC);
  gtk_button_set_label (self->mesh_button, mesh_label);
  gtk_button_set_label (self->line_button, line_label);

  for (guint i = 0; i < N_VALUES; i++)
    flitlab_collective_page_attach_line (self->values_grid, i, _(value_rows[i].name), _(value_rows[i].tooltip),
                                         &self->values[i], 1);

  self->request_items = gtk_string_list_new (NULL);
  self->request_selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->request_items)));
  gtk_single_selection_set_autoselect (self->request_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->request_selection, TRUE);
  gtk_single_selection_set_selected (self->request_selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (self->request_selection, "notify::selected", G_CALLBACK (request_selected_cb), self);
  g_signal_connect (factory, "setup", G_CALLBACK (request_item_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (request_item_bind), NULL);
  gtk_list_view_set_factory (self->request_list, factory);
  gtk_list_view_set_model (self->request_list, GTK_SELECTION_MODEL (self->request_selection));
  self->filter_items = gtk_string_list_new (NULL);
  adw_combo_row_set_model (self->filter_row, G_LIST_MODEL (self->filter_items));
  gtk_drawing_area_set_draw_func (self->chart_area, draw_chart, self, NULL);

  self->updating = TRUE;
  adw_combo_row_set_selected (self->source_row, self->source);
  self->updating = FALSE;
  show_source_rows (self);
  show_network (self);
  show_coloured (self);
}
