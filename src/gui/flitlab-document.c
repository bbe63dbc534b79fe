/* flitlab-document.c — one network of a project: the GObject, its name,
 * its topology and selection, and what comes next.
 *
 * The document's edits, gestures and undo are in flitlab-document-edits.c,
 * its routing (asked for and built) and the route in
 * flitlab-document-routing.c, its simulation settings and the routing state
 * kept with the project in flitlab-document-state.c.
 */
#include "flitlab-document-private.h"
#include "flitlab-draw.h"

#define HISTORY_STEPS 200
#define HISTORY_BYTES (128 * 1024 * 1024)

G_DEFINE_FINAL_TYPE (FlitlabDocument, flitlab_document, G_TYPE_OBJECT)

G_DEFINE_QUARK (flitlab-document-error-quark, flitlab_document_error)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_STATIC_ASSERT ((int) FLITLAB_OVERLAY_TURNS == FL_DRAW_OVERLAY_TURNS);
G_STATIC_ASSERT ((int) FLITLAB_OVERLAY_DIRECTIONS == FL_DRAW_OVERLAY_DIRECTIONS);
G_STATIC_ASSERT ((int) FLITLAB_OVERLAY_HV_GRAPH == FL_DRAW_OVERLAY_HV_GRAPH);
G_STATIC_ASSERT ((int) FLITLAB_OVERLAY_PATHS == FL_DRAW_OVERLAY_PATHS);
G_STATIC_ASSERT ((int) FLITLAB_OVERLAY_CYCLE == FL_DRAW_OVERLAY_CYCLE);

GType
flitlab_overlay_get_type (void)
{
  static gsize type_id;
  static const GFlagsValue values[] = {
    { FLITLAB_OVERLAY_NONE, "FLITLAB_OVERLAY_NONE", "none" },
    { FLITLAB_OVERLAY_TURNS, "FLITLAB_OVERLAY_TURNS", "turns" },
    { FLITLAB_OVERLAY_DIRECTIONS, "FLITLAB_OVERLAY_DIRECTIONS", "directions" },
    { FLITLAB_OVERLAY_HV_GRAPH, "FLITLAB_OVERLAY_HV_GRAPH", "hv-graph" },
    { FLITLAB_OVERLAY_PATHS, "FLITLAB_OVERLAY_PATHS", "paths" },
    { FLITLAB_OVERLAY_CYCLE, "FLITLAB_OVERLAY_CYCLE", "cycle" },
    { 0, NULL, NULL }
  };

  if (g_once_init_enter (&type_id))
    {
      GType type = g_flags_register_static (g_intern_static_string ("FlitlabOverlay"), values);
      g_once_init_leave (&type_id, type);
    }
  return type_id;
}

void
flitlab_document_notify (FlitlabDocument         *self,
                         FlitlabDocumentProperty  prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

void
flitlab_document_emit (FlitlabDocument       *self,
                       FlitlabDocumentSignal  sig)
{
  g_signal_emit (self, signals[sig], 0);
}

/* The selection ------------------------------------------------------------------- */

void
flitlab_document_set_selection (FlitlabDocument *self,
                                int              node,
                                int              link)
{
  if (node >= fl_topology_node_count (self->topology))
    node = -1;
  if (link >= fl_topology_link_count (self->topology) || node >= 0)
    link = -1;
  node = MAX (node, -1);
  link = MAX (link, -1);
  if (node == self->selected_node && link == self->selected_link)
    return;
  self->selected_node = node;
  self->selected_link = link;
  flitlab_document_emit (self, SELECTION_CHANGED);
}

void
flitlab_document_get_selection (FlitlabDocument *self,
                                int             *node,
                                int             *link)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (node)
    *node = self->selected_node;
  if (link)
    *link = self->selected_link;
}

void
flitlab_document_select (FlitlabDocument *self,
                         int              node,
                         int              link)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  flitlab_document_set_selection (self, node, link);
}

/* What comes next ---------------------------------------------------------------- */

FlitlabSimSession *
flitlab_document_get_simulation (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->simulation;
}

void
flitlab_document_set_simulation (FlitlabDocument   *self,
                                 FlitlabSimSession *simulation)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (g_set_object (&self->simulation, simulation))
    flitlab_document_notify (self, PROP_SIMULATION);
}

void
flitlab_document_set_multicast (FlitlabDocument *self,
                                int              source,
                                const int       *dests,
                                guint            n_dests)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (n_dests == 0 || dests != NULL);

  self->multicast_source = source;
  g_array_set_size (self->multicast_dests, 0);
  g_array_append_vals (self->multicast_dests, dests, n_dests);
}

int
flitlab_document_get_multicast (FlitlabDocument  *self,
                                const int       **dests,
                                guint            *n_dests)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), -1);

  *dests = (const int *) (gpointer) self->multicast_dests->data;
  *n_dests = self->multicast_dests->len;
  return self->multicast_source;
}

/* GObject ------------------------------------------------------------------------- */

FlitlabDocument *
flitlab_document_new (FlTopology *topology)
{
  FlitlabDocument *self = g_object_new (FLITLAB_TYPE_DOCUMENT, NULL);

  if (topology != NULL)
    flitlab_document_replace_topology (self, topology);
  return self;
}

const char *
flitlab_document_get_name (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->name;
}

void
flitlab_document_set_name (FlitlabDocument *self,
                           const char      *name)
{
  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));

  if (g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  flitlab_document_notify (self, PROP_NAME);
}

const FlTopology *
flitlab_document_get_topology (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return self->topology;
}

FlTopology *
flitlab_document_dup_topology (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return fl_topology_copy (self->topology);
}

void
flitlab_document_replace_topology (FlitlabDocument *self,
                                   FlTopology      *topology)
{
  g_clear_pointer (&self->topology, fl_topology_free);
  self->topology = topology;
}

static void
flitlab_document_dispose (GObject *object)
{
  FlitlabDocument *self = FLITLAB_DOCUMENT (object);

  g_clear_object (&self->simulation);
  G_OBJECT_CLASS (flitlab_document_parent_class)->dispose (object);
}

static void
flitlab_document_finalize (GObject *object)
{
  FlitlabDocument *self = FLITLAB_DOCUMENT (object);

  g_clear_pointer (&self->history, flitlab_edit_history_free);
  g_clear_pointer (&self->topology, fl_topology_free);
  g_clear_pointer (&self->request, flitlab_routing_request_free);
  g_clear_pointer (&self->routed, flitlab_routed_unref);
  g_clear_pointer (&self->dropped, flitlab_routed_unref);
  g_clear_pointer (&self->route, flitlab_document_route_free);
  fl_sim_settings_clear (&self->sim_settings);
  g_array_unref (self->multicast_dests);
  g_free (self->refused);
  g_free (self->name);
  G_OBJECT_CLASS (flitlab_document_parent_class)->finalize (object);
}

static void
flitlab_document_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  FlitlabDocument *self = FLITLAB_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, self->can_undo);
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, self->can_redo);
      break;
    case PROP_ROUTING:
      g_value_set_string (value, self->request->name);
      break;
    case PROP_ROOT:
      g_value_set_int (value, self->request->root);
      break;
    case PROP_VC_CLASSES:
      g_value_set_int (value, self->request->vc_classes);
      break;
    case PROP_ORDER:
      g_value_set_string (value, self->request->order);
      break;
    case PROP_EDITING_TURNS:
      g_value_set_boolean (value, self->editing_turns);
      break;
    case PROP_OVERLAYS:
      g_value_set_flags (value, self->overlays);
      break;
    case PROP_ROUTED:
      g_value_set_boxed (value, self->routed);
      break;
    case PROP_REFUSED:
      g_value_set_string (value, self->refused);
      break;
    case PROP_SIMULATION:
      g_value_set_object (value, self->simulation);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_document_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  FlitlabDocument *self = FLITLAB_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      flitlab_document_set_name (self, g_value_get_string (value));
      break;
    case PROP_ROUTING:
      flitlab_document_set_routing (self, g_value_get_string (value));
      break;
    case PROP_ROOT:
      flitlab_document_set_root (self, g_value_get_int (value));
      break;
    case PROP_VC_CLASSES:
      flitlab_document_set_vc_classes (self, g_value_get_int (value));
      break;
    case PROP_ORDER:
      flitlab_document_set_order (self, g_value_get_string (value));
      break;
    case PROP_EDITING_TURNS:
      flitlab_document_set_editing_turns (self, g_value_get_boolean (value));
      break;
    case PROP_OVERLAYS:
      flitlab_document_set_overlays (self, g_value_get_flags (value));
      break;
    case PROP_ROUTED:
      flitlab_document_set_routed (self, g_value_get_boxed (value));
      break;
    case PROP_REFUSED:
      flitlab_document_set_refused (self, g_value_get_string (value));
      break;
    case PROP_SIMULATION:
      flitlab_document_set_simulation (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_document_class_init (FlitlabDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = flitlab_document_dispose;
  object_class->finalize = flitlab_document_finalize;
  object_class->get_property = flitlab_document_get_property;
  object_class->set_property = flitlab_document_set_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, rw);
  properties[PROP_CAN_UNDO] = g_param_spec_boolean ("can-undo", NULL, NULL, FALSE, ro);
  properties[PROP_CAN_REDO] = g_param_spec_boolean ("can-redo", NULL, NULL, FALSE, ro);
  properties[PROP_ROUTING] =
    g_param_spec_string ("routing", NULL, NULL, FLITLAB_DEFAULT_ROUTING, rw);
  properties[PROP_ROOT] = g_param_spec_int ("root", NULL, NULL, -1, G_MAXINT, -1, rw);
  properties[PROP_VC_CLASSES] = g_param_spec_int ("vc-classes", NULL, NULL, 0, G_MAXINT, 0, rw);
  properties[PROP_ORDER] = g_param_spec_string ("order", NULL, NULL, NULL, rw);
  properties[PROP_EDITING_TURNS] = g_param_spec_boolean ("editing-turns", NULL, NULL, FALSE, rw);
  properties[PROP_OVERLAYS] =
    g_param_spec_flags ("overlays", NULL, NULL, FLITLAB_TYPE_OVERLAY, FLITLAB_OVERLAY_NONE, rw);
  properties[PROP_ROUTED] = g_param_spec_boxed ("routed", NULL, NULL, FLITLAB_TYPE_ROUTED, rw);
  properties[PROP_REFUSED] = g_param_spec_string ("refused", NULL, NULL, NULL, rw);
  properties[PROP_SIMULATION] =
    g_param_spec_object ("simulation", NULL, NULL, FLITLAB_TYPE_SIM_SESSION, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[TOPOLOGY_EDITED] =
    g_signal_new ("topology-edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[REQUEST_CHANGED] =
    g_signal_new ("request-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[ROUTE_CHANGED] =
    g_signal_new ("route-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIM_SETTINGS_CHANGED] =
    g_signal_new ("sim-settings-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
flitlab_document_init (FlitlabDocument *self)
{
  self->topology = fl_topology_new ();
  self->history = flitlab_edit_history_new (HISTORY_STEPS, HISTORY_BYTES);
  self->request = flitlab_routing_request_new (FLITLAB_DEFAULT_ROUTING);
  self->selected_node = self->selected_link = -1;
  self->route_src = self->route_dst = -1;
  self->last_deadlock_free = TRUE;
  self->multicast_source = -1;
  self->multicast_dests = g_array_new (FALSE, FALSE, sizeof (int));
  fl_sim_settings_init (&self->sim_settings);
}
