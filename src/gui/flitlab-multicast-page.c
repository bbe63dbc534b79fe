/* flitlab-multicast-page.c — the multicast page of the Collectives tab. */
#include <glib/gi18n.h>

#include "flitlab-collectives-panel.h"
#include "flitlab-multicast-page.h"

struct _FlitlabMulticastPage
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkLabel *nodes_label;

  FlitlabDocument *document;
  FlitlabWorkers *workers;
  char *play_note;
};

G_DEFINE_FINAL_TYPE (FlitlabMulticastPage, flitlab_multicast_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_PLAY_NOTE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
static guint signals[FLITLAB_COLLECTIVE_N_SIGNALS];

GtkWidget *
flitlab_multicast_page_new (void)
{
  return g_object_new (FLITLAB_TYPE_MULTICAST_PAGE, NULL);
}

void
flitlab_multicast_page_set_document (FlitlabMulticastPage *self,
                                     FlitlabDocument      *document)
{
  g_return_if_fail (FLITLAB_IS_MULTICAST_PAGE (self));
  g_return_if_fail (document == NULL || FLITLAB_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
  g_signal_emit (self, signals[FLITLAB_COLLECTIVE_SIGNAL_OVERLAY_CHANGED], 0);
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

  g_set_object (&self->workers, workers);
}

void
flitlab_multicast_page_draw_overlay (FlitlabMulticastPage *self,
                                     cairo_t              *cr,
                                     const FlTopology     *t,
                                     const FlDrawOptions  *o)
{
  g_return_if_fail (FLITLAB_IS_MULTICAST_PAGE (self));
}

gboolean
flitlab_multicast_page_node_activated (FlitlabMulticastPage *self,
                                       int                   node)
{
  g_return_val_if_fail (FLITLAB_IS_MULTICAST_PAGE (self), FALSE);

  return FALSE;
}

static void
flitlab_multicast_page_dispose (GObject *object)
{
  FlitlabMulticastPage *self = FLITLAB_MULTICAST_PAGE (object);

  g_clear_object (&self->document);
  g_clear_object (&self->workers);
  g_clear_pointer (&self->play_note, g_free);
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
  g_object_class_install_properties (object_class, N_PROPS, properties);

  flitlab_collective_install_signals (object_class, TRUE, signals);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-multicast-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "multicastpage");
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabMulticastPage, nodes_label);
}

static void
flitlab_multicast_page_init (FlitlabMulticastPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
