/* flitlab-canvas.c — the canvas widget: its document, its view and how it
 * is drawn and exported.
 *
 * The canvas follows its document's signals: an edit redraws (and the
 * picture is rebuilt), a new routing or other overlays may refit the view,
 * the selection and the route redraw. Tools and gestures are in
 * flitlab-canvas-tools.c, the overlays in flitlab-canvas-overlays.c.
 */
#include <adwaita.h>
#include <glib/gi18n.h>

#include "flitlab-canvas-private.h"

#define MIN_SCALE 0.5        /* device pixels per layout step */
#define MAX_SCALE 400.0

G_DEFINE_FINAL_TYPE (FlitlabCanvas, flitlab_canvas, GTK_TYPE_WIDGET)

G_DEFINE_QUARK (flitlab-canvas-error-quark, flitlab_canvas_error)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_TOOL,
  PROP_NEW_SWITCH_PORTS,
  PROP_ZOOM,
  PROP_FLIT_COLOUR,
  PROP_HEAT_MAP,
  PROP_INSPECTED_PACKET,
  N_PROPS
};

enum {
  MESSAGE,
  TURN_ACTIVATED,
  DRAW_OVERLAY,
  NODE_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
flitlab_canvas_notify (FlitlabCanvas *self,
                       const char    *name)
{
  g_object_notify (G_OBJECT (self), name);
}

GType
flitlab_canvas_tool_get_type (void)
{
  static gsize type_id;
  static const GEnumValue values[] = {
    { FLITLAB_CANVAS_TOOL_SELECT, "FLITLAB_CANVAS_TOOL_SELECT", "select" },
    { FLITLAB_CANVAS_TOOL_ADD_SWITCH, "FLITLAB_CANVAS_TOOL_ADD_SWITCH", "add-switch" },
    { FLITLAB_CANVAS_TOOL_ADD_HOST, "FLITLAB_CANVAS_TOOL_ADD_HOST", "add-host" },
    { FLITLAB_CANVAS_TOOL_CONNECT, "FLITLAB_CANVAS_TOOL_CONNECT", "connect" },
    { FLITLAB_CANVAS_TOOL_DELETE, "FLITLAB_CANVAS_TOOL_DELETE", "delete" },
    { FLITLAB_CANVAS_TOOL_ROUTE, "FLITLAB_CANVAS_TOOL_ROUTE", "route" },
    { FLITLAB_CANVAS_TOOL_TURNS, "FLITLAB_CANVAS_TOOL_TURNS", "turns" },
    { 0, NULL, NULL }
  };

  if (g_once_init_enter (&type_id))
    {
      GType type = g_enum_register_static (g_intern_static_string ("FlitlabCanvasTool"), values);
      g_once_init_leave (&type_id, type);
    }
  return type_id;
}

void
flitlab_canvas_emit_message (FlitlabCanvas *self,
                             const char    *context,
                             const char    *detail)
{
  /* Translators: a refused edit, e.g. "Cannot connect: switch 3 has no free port" */
  g_autofree char *text = detail ? g_strdup_printf (_("%s: %s"), context, detail) : g_strdup (context);

  g_signal_emit (self, signals[MESSAGE], 0, text);
}

/* The view ------------------------------------------------------------------------ */

void
flitlab_canvas_set_view (FlitlabCanvas    *self,
                         const FlDrawView *view)
{
  gboolean zoomed = view->scale != self->draw.view.scale;

  self->fitted = FALSE;
  self->draw.view = *view;
  self->draw.view.marks = self->presenter ? FL_DRAW_PRESENTER : 1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (zoomed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

/* Scales the view by factor, keeping the device point (x, y) in place. */
void
flitlab_canvas_zoom_around (FlitlabCanvas *self,
                            double         factor,
                            double         x,
                            double         y)
{
  FlDrawView v = self->draw.view;
  double scale = CLAMP (v.scale * factor, MIN_SCALE, MAX_SCALE);
  double f = scale / v.scale;

  v.tx = x - (x - v.tx) * f;
  v.ty = y - (y - v.ty) * f;
  v.scale = scale;
  flitlab_canvas_set_view (self, &v);
}

/* The document ---------------------------------------------------------------------- */

/* After any change of topology: indices may have moved, so what pointed
 * past the end is dropped. */
static void
document_topology_edited_cb (FlitlabCanvas *self)
{
  const FlTopology *t = flitlab_document_get_topology (self->document);
  int nodes = fl_topology_node_count (t);
  int links = fl_topology_link_count (t);

  /* An undo in the middle of a move ended the move: forget the gesture. */
  if (self->drag_mode == DRAG_MOVE && !flitlab_document_in_gesture (self->document)
      && self->drag_moved)
    {
      flitlab_canvas_finish_drag (self, FALSE);
      gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->drag));
    }
  /* The user has started shaping the picture: a resize keeps the view. */
  self->fitted = FALSE;
  self->shown_valid = FALSE;
  if (self->draw.hover_node >= nodes || self->draw.hover_link >= links)
    flitlab_canvas_set_hover (self, -1, -1);
  if (self->draw.connect_from >= nodes)
    self->draw.connect_from = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Another tool ends the editing of turns; editing turns takes the turn
 * tool. */
static void
document_editing_turns_cb (FlitlabCanvas *self)
{
  if (flitlab_document_get_editing_turns (self->document))
    flitlab_canvas_set_tool (self, FLITLAB_CANVAS_TOOL_TURNS);
  else if (self->tool == FLITLAB_CANVAS_TOOL_TURNS)
    flitlab_canvas_set_tool (self, FLITLAB_CANVAS_TOOL_SELECT);
}

void
flitlab_canvas_set_document (FlitlabCanvas   *self,
                             FlitlabDocument *document)
{
  g_autoptr(FlitlabDocument) empty = NULL;

  g_return_if_fail (FLITLAB_IS_CANVAS (self));
  g_return_if_fail (document == NULL || FLITLAB_IS_DOCUMENT (document));

  if (document == NULL)
    document = empty = flitlab_document_new (NULL);
  if (self->document == document)
    return;
  if (self->drag_mode != DRAG_NONE)
    {
      flitlab_canvas_finish_drag (self, FALSE);
      gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->drag));
    }
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  self->draw.hover_node = self->draw.hover_link = -1;
  flitlab_canvas_set_hover_turn (self, NULL);
  self->shown_valid = FALSE;
  if (self->tool == FLITLAB_CANVAS_TOOL_TURNS && !flitlab_document_get_editing_turns (document))
    flitlab_canvas_set_tool (self, FLITLAB_CANVAS_TOOL_SELECT);
  flitlab_canvas_zoom_fit (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

FlitlabDocument *
flitlab_canvas_get_document (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), NULL);

  return self->document;
}

/* A turn clicked with the turn tool is toggled in the document. */
static void
flitlab_canvas_real_turn_activated (FlitlabCanvas *self,
                                    int            sw,
                                    int            in_port,
                                    int            out_port)
{
  FlTurn turn = { .sw = sw, .in_port = in_port, .out_port = out_port };

  flitlab_document_toggle_turn (self->document, &turn);
}

/* The public API ---------------------------------------------------------------------- */

GtkWidget *
flitlab_canvas_new (void)
{
  return g_object_new (FLITLAB_TYPE_CANVAS, NULL);
}

void
flitlab_canvas_set_tool (FlitlabCanvas     *self,
                         FlitlabCanvasTool  tool)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));
  g_return_if_fail (tool >= FLITLAB_CANVAS_TOOL_SELECT && tool <= FLITLAB_CANVAS_TOOL_TURNS);

  if (self->tool == tool)
    return;
  self->tool = tool;
  flitlab_canvas_set_hover_turn (self, NULL);
  flitlab_canvas_update_cursor (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL]);
  if (tool != FLITLAB_CANVAS_TOOL_TURNS)
    flitlab_document_set_editing_turns (self->document, FALSE);
}

FlitlabCanvasTool
flitlab_canvas_get_tool (FlitlabCanvas *self)
{
  g_return_val_if_fail (FLITLAB_IS_CANVAS (self), FLITLAB_CANVAS_TOOL_SELECT);

  return self->tool;
}

void
flitlab_canvas_zoom_fit (FlitlabCanvas *self)
{
  FlDrawRouting rd;
  FlDrawView v;

  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  if (self->width <= 0 || self->height <= 0)
    {
      self->fit_pending = TRUE;
      return;
    }
  self->fit_pending = FALSE;
  /* Clear of the legend, when there is one. */
  flitlab_canvas_fill_routing (self, &rd, TRUE);
  fl_draw_routing_fit_marks (flitlab_canvas_picture (self), &rd, self->width, self->height,
                             self->presenter ? FL_DRAW_PRESENTER : 1, &v);
  flitlab_canvas_set_view (self, &v);
  self->fitted = TRUE;
}

void
flitlab_canvas_get_view (FlitlabCanvas *self,
                         FlDrawView    *view)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  *view = self->draw.view;
}

void
flitlab_canvas_zoom_in (FlitlabCanvas *self)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  flitlab_canvas_zoom_around (self, FLITLAB_CANVAS_ZOOM_STEP, self->width / 2.0, self->height / 2.0);
}

void
flitlab_canvas_zoom_out (FlitlabCanvas *self)
{
  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  flitlab_canvas_zoom_around (self, 1 / FLITLAB_CANVAS_ZOOM_STEP, self->width / 2.0,
                              self->height / 2.0);
}

/* GtkWidget --------------------------------------------------------------------------- */

static void
flitlab_canvas_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  *minimum = 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 480;
}

static void
flitlab_canvas_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (widget);
  gboolean resized = width != self->width || height != self->height;

  if (width <= 0 || height <= 0 || !resized)
    return;
  if (self->fit_pending || self->fitted)
    {
      self->width = width;
      self->height = height;
      flitlab_canvas_zoom_fit (self);
      return;
    }
  /* Keep the middle of the picture in the middle. */
  self->draw.view.tx += (width - self->width) / 2.0;
  self->draw.view.ty += (height - self->height) / 2.0;
  self->width = width;
  self->height = height;
}

static void
flitlab_canvas_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  FlDrawRouting rd;
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  self->draw.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  flitlab_document_get_selection (self->document, &self->draw.selected_node,
                                  &self->draw.selected_link);
  flitlab_canvas_fill_routing (self, &rd, TRUE);
  if (self->tool == FLITLAB_CANVAS_TOOL_TURNS)
    rd.hover_turn = self->hover_turn;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (flitlab_canvas_shown_simulation (self) != NULL)
    flitlab_canvas_draw_simulation (self, cr);
  else if (self->show_collectives)
    flitlab_canvas_draw_collective (self, cr);
  else
    fl_draw_routing (cr, flitlab_canvas_picture (self), &self->draw, &rd);
  flitlab_canvas_draw_highlight (self, cr);
  cairo_destroy (cr);
}

/* GObject ------------------------------------------------------------------------------ */

static void
flitlab_canvas_dispose (GObject *object)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (object);

  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  if (self->simulation_signals != NULL)
    g_signal_group_set_target (self->simulation_signals, NULL);
  g_clear_object (&self->simulation_signals);
  G_OBJECT_CLASS (flitlab_canvas_parent_class)->dispose (object);
}

static void
flitlab_canvas_finalize (GObject *object)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (object);

  g_clear_object (&self->document);
  g_clear_pointer (&self->carried, g_array_unref);
  g_clear_pointer (&self->shown, fl_topology_free);
  g_clear_pointer (&self->description, g_free);
  G_OBJECT_CLASS (flitlab_canvas_parent_class)->finalize (object);
}

static void
flitlab_canvas_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_TOOL:
      g_value_set_enum (value, self->tool);
      break;
    case PROP_NEW_SWITCH_PORTS:
      g_value_set_int (value, self->new_switch_ports);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->draw.view.scale);
      break;
    case PROP_FLIT_COLOUR:
      g_value_set_int (value, self->flit_colour);
      break;
    case PROP_HEAT_MAP:
      g_value_set_boolean (value, self->heat_map);
      break;
    case PROP_INSPECTED_PACKET:
      g_value_set_int64 (value, self->inspected_packet);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_canvas_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  FlitlabCanvas *self = FLITLAB_CANVAS (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      flitlab_canvas_set_document (self, g_value_get_object (value));
      break;
    case PROP_TOOL:
      flitlab_canvas_set_tool (self, g_value_get_enum (value));
      break;
    case PROP_NEW_SWITCH_PORTS:
      if (self->new_switch_ports != g_value_get_int (value))
        {
          self->new_switch_ports = g_value_get_int (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_FLIT_COLOUR:
      if (self->flit_colour != (FlDrawFlitColour) g_value_get_int (value))
        {
          self->flit_colour = g_value_get_int (value);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_HEAT_MAP:
      if (self->heat_map != g_value_get_boolean (value))
        {
          self->heat_map = g_value_get_boolean (value);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_INSPECTED_PACKET:
      flitlab_canvas_set_inspected_packet (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_canvas_class_init (FlitlabCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_canvas_dispose;
  object_class->finalize = flitlab_canvas_finalize;
  object_class->get_property = flitlab_canvas_get_property;
  object_class->set_property = flitlab_canvas_set_property;
  widget_class->measure = flitlab_canvas_measure;
  widget_class->size_allocate = flitlab_canvas_size_allocate;
  widget_class->snapshot = flitlab_canvas_snapshot;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, FLITLAB_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOOL] =
    g_param_spec_enum ("tool", NULL, NULL,
                       FLITLAB_TYPE_CANVAS_TOOL, FLITLAB_CANVAS_TOOL_SELECT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NEW_SWITCH_PORTS] =
    g_param_spec_int ("new-switch-ports", NULL, NULL, 1, FL_MAX_PORTS, 8,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, 0, G_MAXDOUBLE, 1,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FLIT_COLOUR] =
    g_param_spec_int ("flit-colour", NULL, NULL, FL_DRAW_FLITS_BY_PACKET, FL_DRAW_FLITS_BY_DESTINATION,
                      FL_DRAW_FLITS_BY_PACKET, G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HEAT_MAP] =
    g_param_spec_boolean ("heat-map", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INSPECTED_PACKET] =
    g_param_spec_int64 ("inspected-packet", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[TURN_ACTIVATED] =
    g_signal_new_class_handler ("turn-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                G_CALLBACK (flitlab_canvas_real_turn_activated), NULL, NULL,
                                NULL, G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_INT, G_TYPE_INT);
  signals[DRAW_OVERLAY] =
    g_signal_new ("draw-overlay", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_POINTER, G_TYPE_POINTER, G_TYPE_POINTER);
  signals[NODE_ACTIVATED] =
    g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL, G_TYPE_BOOLEAN, 1, G_TYPE_INT);

  gtk_widget_class_set_css_name (widget_class, "flitlabcanvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
flitlab_canvas_init (FlitlabCanvas *self)
{
  self->new_switch_ports = 8;
  self->fit_pending = TRUE;
  fl_draw_options_init (&self->draw);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Network drawing"),
                                  -1);

  self->document_signals = g_signal_group_new (FLITLAB_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "topology-edited",
                                  G_CALLBACK (document_topology_edited_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "selection-changed",
                                  G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_group_connect_swapped (self->document_signals, "route-changed",
                                  G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::routed",
                                  G_CALLBACK (flitlab_canvas_picture_changed), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::overlays",
                                  G_CALLBACK (flitlab_canvas_picture_changed), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::editing-turns",
                                  G_CALLBACK (document_editing_turns_cb), self);
  flitlab_canvas_sim_init (self);
  flitlab_canvas_a11y_init (self);
  self->document = flitlab_document_new (NULL);
  g_signal_group_set_target (self->document_signals, self->document);

  flitlab_canvas_tools_init (self);

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
}
