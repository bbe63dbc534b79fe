/* flitlab-plot-preview.c — the figure of a plot, drawn to scale.
 *
 * The figure is laid out at its paper size in points, as export draws it,
 * and scaled to the widget: what the preview shows is what the PDF holds. */
#include <glib/gi18n.h>

#include "flitlab-experiment-figure.h"
#include "flitlab-plot-preview.h"

struct _FlitlabPlotPreview
{
  GtkWidget parent_instance;

  GtkWidget *label;
  FlPlotSpec spec;
  FlPlotData data;
  gboolean has_data;
  char *message;
};

G_DEFINE_FINAL_TYPE (FlitlabPlotPreview, flitlab_plot_preview, GTK_TYPE_WIDGET)

/* Room around the figure, in pixels. */
#define MARGIN 12.0

static void
set_message (FlitlabPlotPreview *self,
             const char         *message)
{
  g_free (self->message);
  self->message = g_strdup (message);
  gtk_label_set_text (GTK_LABEL (self->label), message);
  gtk_widget_set_visible (self->label, message[0] != '\0');
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flitlab_plot_preview_clear (FlitlabPlotPreview *self)
{
  g_return_if_fail (FLITLAB_IS_PLOT_PREVIEW (self));

  if (self->has_data)
    {
      fl_plot_data_clear (&self->data);
      fl_plot_spec_clear (&self->spec);
      self->has_data = FALSE;
    }
  set_message (self, _("No plot"));
}

void
flitlab_plot_preview_update (FlitlabPlotPreview *self,
                             FlProject          *project,
                             const FlPlotSpec   *spec)
{
  FlError err = { 0 };
  FlPlotData data = { 0 };

  g_return_if_fail (FLITLAB_IS_PLOT_PREVIEW (self));

  flitlab_plot_preview_clear (self);
  if (fl_experiment_plot_data (project, spec, &data, &err) != FL_OK
      || fl_experiment_figure_check (&data, &err) != FL_OK)
    {
      fl_plot_data_clear (&data);
      set_message (self, err.message);
      return;
    }
  if (fl_plot_spec_copy (&self->spec, spec, &err) != FL_OK)
    {
      fl_plot_data_clear (&data);
      set_message (self, err.message);
      return;
    }
  self->data = data;
  self->has_data = TRUE;
  set_message (self, flitlab_plot_preview_get_n_points (self) > 0 ? "" : _("No run has finished yet"));
}

int
flitlab_plot_preview_get_n_points (FlitlabPlotPreview *self)
{
  int n = 0;

  g_return_val_if_fail (FLITLAB_IS_PLOT_PREVIEW (self), 0);

  if (!self->has_data)
    return 0;
  for (int c = 0; c < self->data.ncurves; c++)
    n += self->data.curves[c].n;
  return n;
}

const char *
flitlab_plot_preview_get_message (FlitlabPlotPreview *self)
{
  g_return_val_if_fail (FLITLAB_IS_PLOT_PREVIEW (self), NULL);

  return self->message;
}

static void
flitlab_plot_preview_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  FlitlabPlotPreview *self = FLITLAB_PLOT_PREVIEW (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double w = 0, h = 0, scale;
  FlDrawPlot plot;
  cairo_t *cr;

  if (self->has_data && flitlab_plot_preview_get_n_points (self) > 0)
    {
      fl_experiment_figure (&self->data, &self->spec, &plot, &w, &h);
      scale = MIN ((width - 2 * MARGIN) / w, (height - 2 * MARGIN) / h);
      if (scale > 0)
        {
          cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
          cairo_translate (cr, (width - w * scale) / 2, (height - h * scale) / 2);
          cairo_scale (cr, scale, scale);
          fl_draw_plot (cr, &plot, w, h);
          cairo_destroy (cr);
        }
    }
  GTK_WIDGET_CLASS (flitlab_plot_preview_parent_class)->snapshot (widget, snapshot);
}

static void
flitlab_plot_preview_dispose (GObject *object)
{
  FlitlabPlotPreview *self = FLITLAB_PLOT_PREVIEW (object);

  if (self->has_data)
    {
      fl_plot_data_clear (&self->data);
      fl_plot_spec_clear (&self->spec);
      self->has_data = FALSE;
    }
  g_clear_pointer (&self->label, gtk_widget_unparent);
  g_clear_pointer (&self->message, g_free);
  G_OBJECT_CLASS (flitlab_plot_preview_parent_class)->dispose (object);
}

static void
flitlab_plot_preview_class_init (FlitlabPlotPreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_plot_preview_dispose;
  widget_class->snapshot = flitlab_plot_preview_snapshot;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
flitlab_plot_preview_init (FlitlabPlotPreview *self)
{
  self->label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->label), TRUE);
  gtk_label_set_justify (GTK_LABEL (self->label), GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (self->label, "dim-label");
  gtk_widget_set_parent (self->label, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Plot Preview"), -1);
  fl_plot_spec_init (&self->spec);
  set_message (self, _("No plot"));
}
