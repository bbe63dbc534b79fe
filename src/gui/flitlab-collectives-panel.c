/* flitlab-collectives-panel.c — the Collectives tab: a stack of pages, one
 * per kind of collective, and the dispatch of the canvas' hooks to the
 * page shown.
 *
 * Every page gets the document and the workers, shown or not, so that
 * switching kinds shows a page that is ready; only the page shown draws
 * and takes clicks. The pages' signals are relayed as the panel's, so the
 * window connects to one widget whatever the pages are.
 */
#include "flitlab-collectives-panel.h"
#include "flitlab-exchange-page.h"
#include "flitlab-multicast-page.h"
#include "flitlab-schedule-page.h"

struct _FlitlabCollectivesPanel
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkStack *stack;
  FlitlabMulticastPage *multicast_page;

  FlitlabDocument *document;
  FlitlabWorkers *workers;
  char *play_note;             /* the last get_play_note()'s */
};

G_DEFINE_FINAL_TYPE (FlitlabCollectivesPanel, flitlab_collectives_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_KIND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
static guint signals[FLITLAB_COLLECTIVE_N_SIGNALS];

#define OVERLAY_CHANGED FLITLAB_COLLECTIVE_SIGNAL_OVERLAY_CHANGED
#define SHOW_NETWORK    FLITLAB_COLLECTIVE_SIGNAL_SHOW_NETWORK
#define PLAY            FLITLAB_COLLECTIVE_SIGNAL_PLAY

void
flitlab_collective_install_signals (GObjectClass *klass,
                                    gboolean      play,
                                    guint        *ids)
{
  GType type = G_TYPE_FROM_CLASS (klass);

  ids[OVERLAY_CHANGED] = g_signal_new ("overlay-changed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 0);
  ids[SHOW_NETWORK] = g_signal_new ("show-network", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 1, G_TYPE_STRING);
  ids[PLAY] = play ? g_signal_new ("play", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0) : 0;
}

/* The hooks of each kind of page. */

static void
page_set_document (GtkWidget       *page,
                   FlitlabDocument *document)
{
  if (FLITLAB_IS_MULTICAST_PAGE (page))
    flitlab_multicast_page_set_document (FLITLAB_MULTICAST_PAGE (page), document);
  else if (FLITLAB_IS_EXCHANGE_PAGE (page))
    flitlab_exchange_page_set_document (FLITLAB_EXCHANGE_PAGE (page), document);
  else if (FLITLAB_IS_SCHEDULE_PAGE (page))
    flitlab_schedule_page_set_document (FLITLAB_SCHEDULE_PAGE (page), document);
}

static void
page_set_workers (GtkWidget      *page,
                  FlitlabWorkers *workers)
{
  if (FLITLAB_IS_MULTICAST_PAGE (page))
    flitlab_multicast_page_set_workers (FLITLAB_MULTICAST_PAGE (page), workers);
  else if (FLITLAB_IS_EXCHANGE_PAGE (page))
    flitlab_exchange_page_set_workers (FLITLAB_EXCHANGE_PAGE (page), workers);
  else if (FLITLAB_IS_SCHEDULE_PAGE (page))
    flitlab_schedule_page_set_workers (FLITLAB_SCHEDULE_PAGE (page), workers);
}

static void
page_draw_overlay (GtkWidget           *page,
                   cairo_t             *cr,
                   const FlTopology    *t,
                   const FlDrawOptions *o)
{
  if (FLITLAB_IS_MULTICAST_PAGE (page))
    flitlab_multicast_page_draw_overlay (FLITLAB_MULTICAST_PAGE (page), cr, t, o);
  else if (FLITLAB_IS_EXCHANGE_PAGE (page))
    flitlab_exchange_page_draw_overlay (FLITLAB_EXCHANGE_PAGE (page), cr, t, o);
  else if (FLITLAB_IS_SCHEDULE_PAGE (page))
    flitlab_schedule_page_draw_overlay (FLITLAB_SCHEDULE_PAGE (page), cr, t, o);
}

static gboolean
page_node_activated (GtkWidget *page,
                     int        node)
{
  if (FLITLAB_IS_MULTICAST_PAGE (page))
    return flitlab_multicast_page_node_activated (FLITLAB_MULTICAST_PAGE (page), node);
  if (FLITLAB_IS_EXCHANGE_PAGE (page))
    return flitlab_exchange_page_node_activated (FLITLAB_EXCHANGE_PAGE (page), node);
  if (FLITLAB_IS_SCHEDULE_PAGE (page))
    return flitlab_schedule_page_node_activated (FLITLAB_SCHEDULE_PAGE (page), node);
  return FALSE;
}

/* Every page, in the stack's order. */
static GPtrArray *
pages (FlitlabCollectivesPanel *self)
{
  g_autoptr(GtkSelectionModel) model = gtk_stack_get_pages (self->stack);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (model));
  GPtrArray *all = g_ptr_array_sized_new (n);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) page = g_list_model_get_item (G_LIST_MODEL (model), i);

      g_ptr_array_add (all, gtk_stack_page_get_child (GTK_STACK_PAGE (page)));
    }
  return all;
}

/* Relaying the pages' signals ------------------------------------------------------ */

static void
overlay_changed_cb (FlitlabCollectivesPanel *self)
{
  g_signal_emit (self, signals[OVERLAY_CHANGED], 0);
}

static void
show_network_cb (FlitlabCollectivesPanel *self,
                 const char              *spec)
{
  g_signal_emit (self, signals[SHOW_NETWORK], 0, spec);
}

static void
play_cb (FlitlabCollectivesPanel *self)
{
  g_signal_emit (self, signals[PLAY], 0);
}

static void
page_changed_cb (FlitlabCollectivesPanel *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
  g_signal_emit (self, signals[OVERLAY_CHANGED], 0);
}

static void
connect_page (FlitlabCollectivesPanel *self,
              GtkWidget               *page)
{
  g_signal_connect_object (page, "overlay-changed", G_CALLBACK (overlay_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "show-network", G_CALLBACK (show_network_cb), self, G_CONNECT_SWAPPED);
  if (g_signal_lookup ("play", G_OBJECT_TYPE (page)) != 0)
    g_signal_connect_object (page, "play", G_CALLBACK (play_cb), self, G_CONNECT_SWAPPED);
}

/* The public API -------------------------------------------------------------------- */

GtkWidget *
flitlab_collectives_panel_new (void)
{
  return g_object_new (FLITLAB_TYPE_COLLECTIVES_PANEL, NULL);
}

void
flitlab_collectives_panel_set_document (FlitlabCollectivesPanel *self,
                                        FlitlabDocument         *document)
{
  g_autoptr(GPtrArray) all = NULL;

  g_return_if_fail (FLITLAB_IS_COLLECTIVES_PANEL (self));
  g_return_if_fail (document == NULL || FLITLAB_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;
  all = pages (self);
  for (guint i = 0; i < all->len; i++)
    page_set_document (g_ptr_array_index (all, i), document);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

FlitlabDocument *
flitlab_collectives_panel_get_document (FlitlabCollectivesPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_COLLECTIVES_PANEL (self), NULL);

  return self->document;
}

void
flitlab_collectives_panel_set_workers (FlitlabCollectivesPanel *self,
                                       FlitlabWorkers          *workers)
{
  g_autoptr(GPtrArray) all = NULL;

  g_return_if_fail (FLITLAB_IS_COLLECTIVES_PANEL (self));

  if (!g_set_object (&self->workers, workers))
    return;
  all = pages (self);
  for (guint i = 0; i < all->len; i++)
    page_set_workers (g_ptr_array_index (all, i), workers);
}

void
flitlab_collectives_panel_draw_overlay (FlitlabCollectivesPanel *self,
                                        cairo_t                 *cr,
                                        const FlTopology        *t,
                                        const FlDrawOptions     *o)
{
  GtkWidget *page;

  g_return_if_fail (FLITLAB_IS_COLLECTIVES_PANEL (self));

  page = gtk_stack_get_visible_child (self->stack);
  if (page != NULL && cr != NULL && t != NULL && o != NULL)
    page_draw_overlay (page, cr, t, o);
}

gboolean
flitlab_collectives_panel_node_activated (FlitlabCollectivesPanel *self,
                                          int                      node)
{
  GtkWidget *page;

  g_return_val_if_fail (FLITLAB_IS_COLLECTIVES_PANEL (self), FALSE);

  page = gtk_stack_get_visible_child (self->stack);
  return page != NULL && page_node_activated (page, node);
}

gboolean
flitlab_collectives_panel_set_kind (FlitlabCollectivesPanel *self,
                                    const char              *kind)
{
  g_return_val_if_fail (FLITLAB_IS_COLLECTIVES_PANEL (self), FALSE);

  if (kind == NULL || gtk_stack_get_child_by_name (self->stack, kind) == NULL)
    return FALSE;
  gtk_stack_set_visible_child_name (self->stack, kind);
  return TRUE;
}

const char *
flitlab_collectives_panel_get_kind (FlitlabCollectivesPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_COLLECTIVES_PANEL (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}

GtkWidget *
flitlab_collectives_panel_get_page (FlitlabCollectivesPanel *self,
                                    const char              *kind)
{
  g_return_val_if_fail (FLITLAB_IS_COLLECTIVES_PANEL (self), NULL);

  return kind != NULL ? gtk_stack_get_child_by_name (self->stack, kind) : NULL;
}

const char *
flitlab_collectives_panel_get_play_note (FlitlabCollectivesPanel *self)
{
  GtkWidget *page;
  GParamSpec *pspec;

  g_return_val_if_fail (FLITLAB_IS_COLLECTIVES_PANEL (self), NULL);

  page = gtk_stack_get_visible_child (self->stack);
  pspec = page != NULL ? g_object_class_find_property (G_OBJECT_GET_CLASS (page), "play-note") : NULL;
  g_clear_pointer (&self->play_note, g_free);
  if (pspec != NULL && pspec->value_type == G_TYPE_STRING)
    g_object_get (page, "play-note", &self->play_note, NULL);
  return self->play_note;
}

gint64
flitlab_collectives_panel_get_play_cycles (FlitlabCollectivesPanel *self)
{
  GtkWidget *page;
  GParamSpec *pspec;
  gint64 cycles = 0;

  g_return_val_if_fail (FLITLAB_IS_COLLECTIVES_PANEL (self), 0);

  page = gtk_stack_get_visible_child (self->stack);
  pspec = page != NULL ? g_object_class_find_property (G_OBJECT_GET_CLASS (page), "play-cycles") : NULL;
  if (pspec != NULL && pspec->value_type == G_TYPE_INT64)
    g_object_get (page, "play-cycles", &cycles, NULL);
  return cycles;
}

/* GObject --------------------------------------------------------------------------- */

static void
flitlab_collectives_panel_dispose (GObject *object)
{
  FlitlabCollectivesPanel *self = FLITLAB_COLLECTIVES_PANEL (object);

  g_clear_object (&self->document);
  g_clear_object (&self->workers);
  g_clear_pointer (&self->play_note, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_COLLECTIVES_PANEL);
  G_OBJECT_CLASS (flitlab_collectives_panel_parent_class)->dispose (object);
}

static void
flitlab_collectives_panel_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  FlitlabCollectivesPanel *self = FLITLAB_COLLECTIVES_PANEL (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_KIND:
      g_value_set_string (value, flitlab_collectives_panel_get_kind (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_collectives_panel_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  FlitlabCollectivesPanel *self = FLITLAB_COLLECTIVES_PANEL (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      flitlab_collectives_panel_set_document (self, g_value_get_object (value));
      break;
    case PROP_KIND:
      flitlab_collectives_panel_set_kind (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_collectives_panel_class_init (FlitlabCollectivesPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_collectives_panel_dispose;
  object_class->get_property = flitlab_collectives_panel_get_property;
  object_class->set_property = flitlab_collectives_panel_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, FLITLAB_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_KIND] =
    g_param_spec_string ("kind", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  flitlab_collective_install_signals (object_class, TRUE, signals);

  g_type_ensure (FLITLAB_TYPE_MULTICAST_PAGE);
  g_type_ensure (FLITLAB_TYPE_EXCHANGE_PAGE);
  g_type_ensure (FLITLAB_TYPE_SCHEDULE_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-collectives-panel.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "collectivespanel");
  gtk_widget_class_bind_template_child (widget_class, FlitlabCollectivesPanel, box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabCollectivesPanel, stack);
  gtk_widget_class_bind_template_child (widget_class, FlitlabCollectivesPanel, multicast_page);
  gtk_widget_class_bind_template_callback (widget_class, page_changed_cb);
}

static void
flitlab_collectives_panel_init (FlitlabCollectivesPanel *self)
{
  g_autoptr(GPtrArray) all = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  all = pages (self);
  for (guint i = 0; i < all->len; i++)
    connect_page (self, g_ptr_array_index (all, i));
}
