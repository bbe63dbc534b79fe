/* flitlab-metrics-panel.c — the metrics of the network on the canvas. */
#include <glib/gi18n.h>
#include <math.h>

#include "flitlab-metrics-panel.h"

struct _FlitlabMetricsPanel
{
  GtkWidget parent_instance;

  GtkWidget *metrics_group;
  GtkSpinner *spinner;
  GtkProgressBar *progress_bar;
  GtkWidget *problem_row;
  GtkWidget *histogram_group;
  GtkDrawingArea *histogram;
  GtkLabel *switches_label;
  GtkLabel *hosts_label;
  GtkLabel *links_label;
  GtkLabel *degree_label;
  GtkLabel *diameter_label;
  GtkLabel *mean_distance_label;
  GtkLabel *bisection_label;
  GtkWidget *bisection_row;
  GtkLabel *throughput_label;
  GtkSpinButton *exact_spin;

  /* The histogram is copied: the measurement it came from is freed as soon
   * as a newer one arrives. */
  gint64 *histogram_counts;
  int histogram_len;
};

G_DEFINE_FINAL_TYPE (FlitlabMetricsPanel, flitlab_metrics_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_EXACT_MAX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The labels that flitlab_metrics_panel_get_value() reads, by key. */
static const struct {
  const char *key;
  gsize offset;
} value_labels[] = {
  { "switches", G_STRUCT_OFFSET (FlitlabMetricsPanel, switches_label) },
  { "hosts", G_STRUCT_OFFSET (FlitlabMetricsPanel, hosts_label) },
  { "links", G_STRUCT_OFFSET (FlitlabMetricsPanel, links_label) },
  { "degree", G_STRUCT_OFFSET (FlitlabMetricsPanel, degree_label) },
  { "diameter", G_STRUCT_OFFSET (FlitlabMetricsPanel, diameter_label) },
  { "mean-distance", G_STRUCT_OFFSET (FlitlabMetricsPanel, mean_distance_label) },
  { "bisection", G_STRUCT_OFFSET (FlitlabMetricsPanel, bisection_label) },
  { "throughput", G_STRUCT_OFFSET (FlitlabMetricsPanel, throughput_label) },
};

static GtkLabel *
value_label (FlitlabMetricsPanel *self,
             guint                i)
{
  return G_STRUCT_MEMBER (GtkLabel *, self, value_labels[i].offset);
}

GtkWidget *
flitlab_metrics_panel_new (void)
{
  return g_object_new (FLITLAB_TYPE_METRICS_PANEL, NULL);
}

const char *
flitlab_metrics_panel_get_value (FlitlabMetricsPanel *self,
                                 const char          *key)
{
  g_return_val_if_fail (FLITLAB_IS_METRICS_PANEL (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (value_labels); i++)
    if (g_strcmp0 (value_labels[i].key, key) == 0)
      return gtk_label_get_label (value_label (self, i));
  return NULL;
}

static void
set_label_int (GtkLabel *label,
               int       value)
{
  g_autofree char *text = g_strdup_printf ("%d", value);

  gtk_label_set_label (label, text);
}

static const char *
bisection_method_text (FlBisectionMethod method)
{
  switch (method)
    {
    case FL_BISECTION_EXHAUSTIVE:
      return _("exact (search)");
    case FL_BISECTION_CLOSED_FORM:
      return _("exact (closed form)");
    case FL_BISECTION_METIS:
      return _("upper bound (METIS)");
    case FL_BISECTION_NONE:
    default:
      return _("not computed");
    }
}

static void
show_metrics (FlitlabMetricsPanel *self,
              const FlMetrics     *m)
{
  g_autofree char *degree = NULL;
  g_autofree char *mean = NULL;
  g_autofree char *bisection = NULL;
  g_autofree char *throughput = NULL;

  set_label_int (self->switches_label, m->switches);
  set_label_int (self->hosts_label, m->hosts);
  set_label_int (self->links_label, m->links);

  if (m->degree_min == m->degree_max)
    degree = g_strdup_printf ("%d", m->degree_min);
  else
    degree = g_strdup_printf ("%d–%d", m->degree_min, m->degree_max);
  gtk_label_set_label (self->degree_label, degree);

  if (m->diameter >= 0)
    set_label_int (self->diameter_label, m->diameter);
  else
    /* Translators: the diameter of a network that is not connected. */
    gtk_label_set_label (self->diameter_label, _("∞"));

  mean = g_strdup_printf ("%.3f", m->mean_distance);
  gtk_label_set_label (self->mean_distance_label, m->switches > 1 ? mean : "—");

  if (m->bisection_width < 0)
    bisection = g_strdup ("—");
  else if (m->bisection_method == FL_BISECTION_METIS)
    bisection = g_strdup_printf ("≤ %d", m->bisection_width);
  else
    bisection = g_strdup_printf ("%d", m->bisection_width);
  gtk_label_set_label (self->bisection_label, bisection);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->bisection_row),
                               bisection_method_text (m->bisection_method));

  throughput = g_strdup_printf ("%.2f", m->throughput_bound);
  gtk_label_set_label (self->throughput_label, throughput);

  g_clear_pointer (&self->histogram_counts, g_free);
  self->histogram_len = m->histogram_len;
  if (m->histogram_len > 0)
    self->histogram_counts = g_memdup2 (m->distance_histogram,
                                        sizeof (gint64) * (gsize) m->histogram_len);
}

static void
clear_metrics (FlitlabMetricsPanel *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (value_labels); i++)
    gtk_label_set_label (value_label (self, i), "—");
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->bisection_row), "");
  g_clear_pointer (&self->histogram_counts, g_free);
  self->histogram_len = 0;
}

void
flitlab_metrics_panel_set_measurement (FlitlabMetricsPanel      *self,
                                       const FlitlabMeasurement *measurement)
{
  g_return_if_fail (FLITLAB_IS_METRICS_PANEL (self));

  if (measurement != NULL && measurement->has_metrics)
    show_metrics (self, &measurement->metrics);
  else
    clear_metrics (self);

  gtk_widget_set_visible (self->problem_row,
                          measurement != NULL && measurement->problem != NULL);
  if (measurement != NULL && measurement->problem != NULL)
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->problem_row),
                                   measurement->problem);

  /* A histogram of a single distance says nothing worth the space. */
  gtk_widget_set_visible (self->histogram_group, self->histogram_len > 2);
  gtk_widget_queue_draw (GTK_WIDGET (self->histogram));
}

void
flitlab_metrics_panel_set_measuring (FlitlabMetricsPanel *self,
                                     gboolean             measuring)
{
  g_return_if_fail (FLITLAB_IS_METRICS_PANEL (self));

  gtk_spinner_set_spinning (self->spinner, measuring);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), measuring);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  if (measuring)
    gtk_widget_add_css_class (GTK_WIDGET (self), "stale");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "stale");
}

void
flitlab_metrics_panel_set_progress (FlitlabMetricsPanel *self,
                                    double               fraction)
{
  g_return_if_fail (FLITLAB_IS_METRICS_PANEL (self));

  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0.0, 1.0));
}

/* The histogram ------------------------------------------------------------- */

/* Picks a label step of 1, 2 or 5 times a power of ten so that labels along
 * an axis of n values stay at least min_gap pixels apart. */
static int
label_step (int    n,
            double span,
            double min_gap)
{
  static const int mantissas[] = { 1, 2, 5 };

  for (int power = 1; ; power *= 10)
    for (guint i = 0; i < G_N_ELEMENTS (mantissas); i++)
      {
        int step = mantissas[i] * power;

        if (step >= n || span * step / n >= min_gap)
          return step;
      }
}

static void
draw_text (cairo_t    *cr,
           GtkWidget  *widget,
           const char *text,
           double      x,
           double      y,
           double      xalign)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int width, height;

  pango_layout_get_pixel_size (layout, &width, &height);
  cairo_move_to (cr, x - xalign * width, y);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

/* Bars for distances 1 .. diameter: index 0 counts the pairs (u, u), which
 * every network has and which would only squash the rest. */
static void
draw_histogram (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        user_data)
{
  FlitlabMetricsPanel *self = FLITLAB_METRICS_PANEL (user_data);
  GtkWidget *widget = GTK_WIDGET (area);
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  GdkRGBA fg, accent;
  const double label_height = 18.0, top = 4.0;
  double plot_height = height - label_height - top;
  int n = self->histogram_len - 1;
  gint64 max = 1;
  double slot;
  int step;

  if (n < 1 || plot_height <= 0)
    return;

  gtk_style_context_get_color (style, &fg);
  if (!gtk_style_context_lookup_color (style, "accent_color", &accent))
    accent = (GdkRGBA) { 0.21, 0.52, 0.89, 1.0 };

  for (int d = 1; d <= n; d++)
    max = MAX (max, self->histogram_counts[d]);

  slot = (double) width / n;
  gdk_cairo_set_source_rgba (cr, &accent);
  for (int d = 1; d <= n; d++)
    {
      double h = plot_height * (double) self->histogram_counts[d] / (double) max;
      double gap = slot > 4.0 ? MIN (slot * 0.2, 6.0) : 0.0;

      cairo_rectangle (cr, (d - 1) * slot + gap / 2, top + plot_height - h, slot - gap, h);
    }
  cairo_fill (cr);

  /* The baseline and the distances under it. */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.3);
  cairo_rectangle (cr, 0, top + plot_height, width, 1);
  cairo_fill (cr);

  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
  step = label_step (n, width, 28.0);
  for (int d = 1; d <= n; d++)
    if (d == 1 || d % step == 0)
      {
        g_autofree char *text = g_strdup_printf ("%d", d);

        draw_text (cr, widget, text, (d - 0.5) * slot, top + plot_height + 2, 0.5);
      }
}

/* The exhaustive search's limit ------------------------------------------------ */

int
flitlab_metrics_panel_get_exact_max (FlitlabMetricsPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_METRICS_PANEL (self), 0);

  return gtk_spin_button_get_value_as_int (self->exact_spin);
}

void
flitlab_metrics_panel_set_exact_max (FlitlabMetricsPanel *self,
                                     int                  exact_max)
{
  g_return_if_fail (FLITLAB_IS_METRICS_PANEL (self));

  gtk_spin_button_set_value (self->exact_spin, exact_max);
}

static void
exact_changed (FlitlabMetricsPanel *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXACT_MAX]);
}

/* A row for the engine's exact-max option, with its range: a search up to
 * 48 switches can take minutes, which the progress bar and the window's
 * Stop button are there for. */
static void
add_exact_row (FlitlabMetricsPanel *self)
{
  const FlOptionInfo *info = fl_metrics_option_lookup ("exact-max");
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range ((double) info->min_int, (double) info->max_int, 1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), fl_gettext (info->label));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("switches, searched exactly"));
  gtk_widget_set_tooltip_text (row, fl_gettext (info->help));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), g_ascii_strtod (info->dflt, NULL));
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  fl_gettext (info->label), -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self->metrics_group), row);
  self->exact_spin = GTK_SPIN_BUTTON (spin);
  g_signal_connect_swapped (spin, "value-changed", G_CALLBACK (exact_changed), self);
}

/* Object life --------------------------------------------------------------- */

static void
flitlab_metrics_panel_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  FlitlabMetricsPanel *self = FLITLAB_METRICS_PANEL (object);

  switch (prop_id)
    {
    case PROP_EXACT_MAX:
      g_value_set_int (value, flitlab_metrics_panel_get_exact_max (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_metrics_panel_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  FlitlabMetricsPanel *self = FLITLAB_METRICS_PANEL (object);

  switch (prop_id)
    {
    case PROP_EXACT_MAX:
      flitlab_metrics_panel_set_exact_max (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_metrics_panel_dispose (GObject *object)
{
  FlitlabMetricsPanel *self = FLITLAB_METRICS_PANEL (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_METRICS_PANEL);
  /* The template's top box has no id, so dispose_template() leaves it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (flitlab_metrics_panel_parent_class)->dispose (object);
}

static void
flitlab_metrics_panel_finalize (GObject *object)
{
  FlitlabMetricsPanel *self = FLITLAB_METRICS_PANEL (object);

  g_free (self->histogram_counts);
  G_OBJECT_CLASS (flitlab_metrics_panel_parent_class)->finalize (object);
}

static void
flitlab_metrics_panel_class_init (FlitlabMetricsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_metrics_panel_dispose;
  object_class->finalize = flitlab_metrics_panel_finalize;
  object_class->get_property = flitlab_metrics_panel_get_property;
  object_class->set_property = flitlab_metrics_panel_set_property;

  properties[PROP_EXACT_MAX] =
    g_param_spec_int ("exact-max", NULL, NULL, 0, FL_METRICS_EXACT_MAX, FL_METRICS_EXACT_DEFAULT,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-metrics-panel.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "metricspanel");
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, metrics_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, spinner);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, problem_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, histogram_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, histogram);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, switches_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, hosts_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, links_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, degree_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, diameter_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, mean_distance_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, bisection_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, bisection_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMetricsPanel, throughput_label);
}

static void
flitlab_metrics_panel_init (FlitlabMetricsPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (self->histogram, draw_histogram, self, NULL);
  add_exact_row (self);
  flitlab_metrics_panel_set_measurement (self, NULL);
}
