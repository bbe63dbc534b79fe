/* flitlab-routing-panel.c — the routing chooser, the overlay toggles and the
 * analysis of the routing shown. */
#include <glib/gi18n.h>
#include <stdlib.h>

#include "flitlab-routing-panel.h"

/* The route between two switches counts its legal shortest paths up to
 * here: more than a class can look at, and quick to enumerate on any
 * network the canvas can show. */
#define MAX_COUNTED_PATHS 1000

/* The routing a new window starts with: up* / down* serves every connected
 * network, so there is something to show at once. */
#define DEFAULT_ROUTING "updown"

/* The values shown, one line of a grid each: a name with a tooltip that
 * says what it measures, and the figure. */
typedef enum {
  VALUE_CONNECTED,
  VALUE_DEADLOCK_FREE,
  VALUE_ROOT,
  VALUE_AVG_HOPS,
  VALUE_BFS_HOPS,
  VALUE_STRETCH,
  VALUE_MAX_HOPS,
  VALUE_PT,
  VALUE_SDPT,
  VALUE_PPT,
  VALUE_MAX_LOAD,
  VALUE_THROUGHPUT,
  VALUE_ENDPOINTS,
  VALUE_HOPS,
  VALUE_PATHS,
  N_VALUES
} Value;

struct _FlitlabRoutingPanel
{
  GtkWidget parent_instance;

  FlitlabCanvas *canvas;
  FlitlabRouted *routed;       /* what the values show, or NULL */
  char *refused;               /* the engine's refusal of the request */
  char *cycle_text;            /* the routed's cycle in a sentence */
  char *routing;               /* the algorithm chosen */
  GArray *turns;               /* FlTurn, sorted: turnset's prohibited turns */
  gboolean editing_turns;
  gboolean updating;           /* widgets being set from code, not by the user */

  /* Template widgets. */
  AdwPreferencesGroup *algorithm_group;
  GtkSpinner *spinner;
  AdwComboRow *routing_row;
  AdwActionRow *root_row;
  GtkSpinButton *root_spin;
  AdwComboRow *vcs_row;
  AdwComboRow *order_row;
  GtkSwitch *edit_turns_switch;
  GtkCheckButton *turns_check;
  GtkCheckButton *directions_check;
  GtkCheckButton *hv_check;
  GtkCheckButton *paths_check;
  GtkCheckButton *cycle_check;
  GtkWidget *notice_box;
  GtkWidget *notice_icon;
  GtkLabel *notice_title;
  GtkLabel *notice_label;
  GtkWidget *analysis_box;
  GtkGrid *analysis_grid;
  GtkWidget *route_box;
  GtkGrid *route_grid;
  GtkLabel *path_label;

  /* The value labels of the two grids, built from value_rows. */
  GtkLabel *values[N_VALUES];
};

G_DEFINE_FINAL_TYPE (FlitlabRoutingPanel, flitlab_routing_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_ROUTING,
  PROP_EDITING_TURNS,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];


static const struct {
  const char *key;
  const char *name;
  const char *tooltip;
  gboolean route;              /* in the route's grid, not the analysis' */
} value_rows[N_VALUES] = {
  [VALUE_CONNECTED] = { "connected", N_("Connected"),
                        N_("Every switch reaches every other along legal routes"), FALSE },
  [VALUE_DEADLOCK_FREE] = { "deadlock-free", N_("Deadlock-free"),
                            N_("The channel dependency graph has no cycle"), FALSE },
  [VALUE_ROOT] = { "root", N_("Root switch"),
                   N_("The root of the spanning tree that up*/down*, L-turn and R-turn orient "
                      "the channels by"), FALSE },
  [VALUE_AVG_HOPS] = { "avg-hops", N_("Average hops"),
                       N_("Along the chosen routes, over all ordered pairs of switches"), FALSE },
  [VALUE_BFS_HOPS] = { "bfs-hops", N_("Shortest average"),
                       N_("The same pairs at their breadth-first distance: the best any "
                          "routing can do"), FALSE },
  [VALUE_STRETCH] = { "stretch", N_("Stretch"),
                      N_("Average hops over the shortest average"), FALSE },
  [VALUE_MAX_HOPS] = { "max-hops", N_("Maximum hops"),
                       N_("The longest chosen route"), FALSE },
  [VALUE_PT] = { "pt", N_("PT"),
                 N_("Prohibited turns per switch, the mean (paper 002)"), FALSE },
  [VALUE_SDPT] = { "sdpt", N_("SDPT"),
                   N_("The standard deviation of the prohibited turns per switch (paper 002)"),
                   FALSE },
  [VALUE_PPT] = { "ppt", N_("PPT"),
                  N_("Pairs of opposite prohibited turns between the same two links "
                     "(paper 002)"), FALSE },
  [VALUE_MAX_LOAD] = { "max-load", N_("Busiest channel"),
                       N_("Routes through the busiest channel when every switch sends to "
                          "every other"), FALSE },
  [VALUE_THROUGHPUT] = { "throughput", N_("Throughput bound"),
                         N_("Flits per cycle per switch of uniform traffic that the busiest "
                            "channel lets through"), FALSE },
  [VALUE_ENDPOINTS] = { "endpoints", N_("Between"),
                        N_("The source and destination switches of the route"), TRUE },
  [VALUE_HOPS] = { "hops", N_("Hops"),
                   N_("The length of the route the routing chooses"), TRUE },
  [VALUE_PATHS] = { "paths", N_("Legal shortest paths"),
                    N_("How many shortest paths the routing allows between the two switches"),
                    TRUE },
};

/* The overlay toggles, in the order of the template. */
static const struct {
  gsize offset;
  FlitlabOverlay flag;
} overlay_checks[] = {
  { G_STRUCT_OFFSET (FlitlabRoutingPanel, turns_check), FLITLAB_OVERLAY_TURNS },
  { G_STRUCT_OFFSET (FlitlabRoutingPanel, directions_check), FLITLAB_OVERLAY_DIRECTIONS },
  { G_STRUCT_OFFSET (FlitlabRoutingPanel, hv_check), FLITLAB_OVERLAY_HV_GRAPH },
  { G_STRUCT_OFFSET (FlitlabRoutingPanel, paths_check), FLITLAB_OVERLAY_PATHS },
  { G_STRUCT_OFFSET (FlitlabRoutingPanel, cycle_check), FLITLAB_OVERLAY_CYCLE },
};

static GtkCheckButton *
overlay_check (FlitlabRoutingPanel *self,
               guint                i)
{
  return G_STRUCT_MEMBER (GtkCheckButton *, self, overlay_checks[i].offset);
}

/* Requests -------------------------------------------------------------------- */

void
flitlab_routing_request_free (FlitlabRoutingRequest *request)
{
  if (request == NULL)
    return;
  g_free (request->name);
  g_free (request->order);
  g_free (request->turns);
  g_free (request);
}

/* The routings that orient channels by a spanning tree take its root. */
static gboolean
uses_root (const char *name)
{
  return g_strcmp0 (name, "updown") == 0 || g_str_has_prefix (name, "lturn-")
         || g_str_has_prefix (name, "rturn-");
}

static gboolean
is_dor (const char *name)
{
  return g_strcmp0 (name, "dor") == 0;
}

static gboolean
is_turnset (const char *name)
{
  return g_strcmp0 (name, "turnset") == 0;
}

/* Whether turn still exists in t: after an edit of the network a turn
 * edited earlier may name a port that no longer leads to a switch. */
static gboolean
turn_exists (const FlTopology *t,
             const FlTurn     *turn)
{
  int ports[2] = { turn->in_port, turn->out_port };

  if (fl_topology_node_kind (t, turn->sw) != FL_NODE_SWITCH || ports[0] == ports[1])
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (ports); i++)
    {
      int peer = fl_topology_port_peer (t, turn->sw, ports[i], NULL);

      if (peer < 0 || fl_topology_node_kind (t, peer) != FL_NODE_SWITCH)
        return FALSE;
    }
  return TRUE;
}

/* The root spin button offers the node ids of the network shown. */
static void
update_root_range (FlitlabRoutingPanel *self,
                   const FlTopology    *t)
{
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (self->root_spin);
  int upper = MAX (fl_topology_node_count (t) - 1, 0);

  if (gtk_adjustment_get_upper (adjustment) == upper)
    return;
  self->updating = TRUE;
  gtk_adjustment_set_upper (adjustment, upper);
  self->updating = FALSE;
}

FlitlabRoutingRequest *
flitlab_routing_panel_dup_request (FlitlabRoutingPanel *self)
{
  FlitlabRoutingRequest *request;
  const FlTopology *t;

  g_return_val_if_fail (FLITLAB_IS_ROUTING_PANEL (self), NULL);

  request = g_new0 (FlitlabRoutingRequest, 1);
  request->name = g_strdup (self->routing);
  request->options.root = -1;
  t = self->canvas != NULL ? flitlab_canvas_get_topology (self->canvas) : NULL;
  /* The request is for this network: the root offered follows it. */
  if (t != NULL)
    update_root_range (self, t);

  if (uses_root (self->routing))
    request->options.root = gtk_spin_button_get_value_as_int (self->root_spin);
  if (is_dor (self->routing))
    {
      /* The rows list Default, 1 and 2: the index is the option's value. */
      request->options.vc_classes = (int) adw_combo_row_get_selected (self->vcs_row);
      if (adw_combo_row_get_selected (self->order_row) == 1)
        request->order = g_strdup ("yx");
      request->options.order = request->order;
    }
  if (is_turnset (self->routing) && self->turns->len > 0)
    {
      request->turns = g_new (FlTurn, self->turns->len);
      for (guint i = 0; i < self->turns->len; i++)
        {
          const FlTurn *turn = &g_array_index (self->turns, FlTurn, i);

          if (t == NULL || turn_exists (t, turn))
            request->turns[request->options.n_prohibited++] = *turn;
        }
      request->options.prohibited = request->turns;
    }
  return request;
}

static void
emit_changed (FlitlabRoutingPanel *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

/* Turns being edited ----------------------------------------------------------- */

/* The engine's order of turns: by switch, then input port, then output. */
static int
compare_turns (const FlTurn *x,
               const FlTurn *y)
{
  if (x->sw != y->sw)
    return (x->sw > y->sw) - (x->sw < y->sw);
  if (x->in_port != y->in_port)
    return (x->in_port > y->in_port) - (x->in_port < y->in_port);
  return (x->out_port > y->out_port) - (x->out_port < y->out_port);
}

/* turnset starts from the turns of the routing shown, so that editing
 * begins with a working routing and changes it one turn at a time. */
static void
seed_turns (FlitlabRoutingPanel *self)
{
  if (self->routed == NULL || is_turnset (self->routed->routing_name))
    return;
  g_array_set_size (self->turns, 0);
  g_array_append_vals (self->turns, self->routed->prohibited, self->routed->n_prohibited);
}

/* Prohibits turn if it is allowed, allows it if it is prohibited. */
static void
toggle_turn (FlitlabRoutingPanel *self,
             const FlTurn        *turn)
{
  guint lo = 0, hi = self->turns->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      int c = compare_turns (&g_array_index (self->turns, FlTurn, mid), turn);

      if (c == 0)
        {
          g_array_remove_index (self->turns, mid);
          return;
        }
      if (c < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  g_array_insert_val (self->turns, lo, *turn);
}

static void
turn_activated_cb (FlitlabCanvas       *canvas,
                   int                  sw,
                   int                  in_port,
                   int                  out_port,
                   FlitlabRoutingPanel *self)
{
  FlTurn turn = { .sw = sw, .in_port = in_port, .out_port = out_port };

  /* The turn tool edits turnset's turns even when the window chose it
   * without the panel's switch. */
  flitlab_routing_panel_set_editing_turns (self, TRUE);
  toggle_turn (self, &turn);
  emit_changed (self);
}

gboolean
flitlab_routing_panel_get_editing_turns (FlitlabRoutingPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_ROUTING_PANEL (self), FALSE);

  return self->editing_turns;
}

void
flitlab_routing_panel_set_editing_turns (FlitlabRoutingPanel *self,
                                         gboolean             editing)
{
  g_return_if_fail (FLITLAB_IS_ROUTING_PANEL (self));

  editing = !!editing;
  if (self->editing_turns == editing)
    return;
  self->editing_turns = editing;

  if (editing)
    {
      /* Choosing turnset seeds it and asks for the new routing. */
      flitlab_routing_panel_set_routing (self, "turnset");
      if (self->canvas != NULL)
        {
          flitlab_canvas_set_tool (self->canvas, FLITLAB_CANVAS_TOOL_TURNS);
          /* The turns are what the user clicks: they must be visible. */
          flitlab_canvas_set_overlays (self->canvas,
                                       flitlab_canvas_get_overlays (self->canvas)
                                       | FLITLAB_OVERLAY_TURNS);
        }
    }
  else if (self->canvas != NULL
           && flitlab_canvas_get_tool (self->canvas) == FLITLAB_CANVAS_TOOL_TURNS)
    flitlab_canvas_set_tool (self->canvas, FLITLAB_CANVAS_TOOL_SELECT);

  self->updating = TRUE;
  gtk_switch_set_active (self->edit_turns_switch, editing);
  self->updating = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDITING_TURNS]);
}

static void
edit_turns_toggled_cb (FlitlabRoutingPanel *self)
{
  if (!self->updating)
    flitlab_routing_panel_set_editing_turns (self,
                                             gtk_switch_get_active (self->edit_turns_switch));
}

/* Another tool chosen on the canvas ends the editing. */
static void
canvas_tool_changed_cb (FlitlabRoutingPanel *self)
{
  if (self->editing_turns && flitlab_canvas_get_tool (self->canvas) != FLITLAB_CANVAS_TOOL_TURNS)
    flitlab_routing_panel_set_editing_turns (self, FALSE);
}

/* The chooser and the options ----------------------------------------------------- */

const char *
flitlab_routing_panel_get_routing (FlitlabRoutingPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_ROUTING_PANEL (self), NULL);

  return self->routing;
}

gboolean
flitlab_routing_panel_set_routing (FlitlabRoutingPanel *self,
                                   const char          *name)
{
  g_return_val_if_fail (FLITLAB_IS_ROUTING_PANEL (self), FALSE);

  for (int i = 0; i < fl_routing_count (); i++)
    if (g_strcmp0 (fl_routing_info (i)->name, name) == 0)
      {
        /* The chooser's handler does the rest. */
        adw_combo_row_set_selected (self->routing_row, (guint) i);
        return TRUE;
      }
  return FALSE;
}

static void
update_option_rows (FlitlabRoutingPanel *self)
{
  const FlRoutingInfo *info = fl_routing_lookup (self->routing);
  g_autofree char *description = NULL;

  /* Translators: a routing's one-line summary, then the networks it
   * serves, both from the engine. */
  description = g_strdup_printf (_("%s. For %s."), info->summary, info->applies_to);
  adw_preferences_group_set_description (self->algorithm_group, description);
  gtk_widget_set_visible (GTK_WIDGET (self->root_row), uses_root (self->routing));
  gtk_widget_set_visible (GTK_WIDGET (self->vcs_row), is_dor (self->routing));
  gtk_widget_set_visible (GTK_WIDGET (self->order_row), is_dor (self->routing));
}

static void
routing_selected_cb (FlitlabRoutingPanel *self)
{
  guint selected = adw_combo_row_get_selected (self->routing_row);
  const FlRoutingInfo *info = fl_routing_info ((int) selected);

  if (info == NULL || g_strcmp0 (info->name, self->routing) == 0)
    return;
  g_free (self->routing);
  self->routing = g_strdup (info->name);

  if (is_turnset (self->routing))
    seed_turns (self);
  else if (self->editing_turns)
    flitlab_routing_panel_set_editing_turns (self, FALSE);
  update_option_rows (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROUTING]);
  emit_changed (self);
}

static void
option_changed_cb (FlitlabRoutingPanel *self)
{
  if (!self->updating)
    emit_changed (self);
}

/* The root spin button shows -1 as the word for the paper's rule. */
static gboolean
root_output_cb (GtkSpinButton       *spin,
                FlitlabRoutingPanel *self)
{
  int value = gtk_spin_button_get_value_as_int (spin);
  g_autofree char *text = NULL;

  if (value < 0)
    /* Translators: the root switch chosen by the paper's rule. */
    text = g_strdup (_("automatic"));
  else
    text = g_strdup_printf ("%d", value);
  if (g_strcmp0 (text, gtk_editable_get_text (GTK_EDITABLE (spin))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);
  return TRUE;
}

static int
root_input_cb (GtkSpinButton       *spin,
               double              *new_value,
               FlitlabRoutingPanel *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  char *end = NULL;
  long value;

  if (text[0] == '\0' || g_str_equal (text, _("automatic")))
    {
      *new_value = -1;
      return TRUE;
    }
  value = strtol (text, &end, 10);
  if (end == text || *end != '\0')
    return GTK_INPUT_ERROR;
  *new_value = (double) value;
  return TRUE;
}

/* Overlays ------------------------------------------------------------------------- */

static void
overlay_toggled_cb (FlitlabRoutingPanel *self)
{
  FlitlabOverlay overlays = FLITLAB_OVERLAY_NONE;

  if (self->updating || self->canvas == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (overlay_checks); i++)
    if (gtk_check_button_get_active (overlay_check (self, i)))
      overlays |= overlay_checks[i].flag;
  flitlab_canvas_set_overlays (self->canvas, overlays);
}

static void
canvas_overlays_changed_cb (FlitlabRoutingPanel *self)
{
  FlitlabOverlay overlays = flitlab_canvas_get_overlays (self->canvas);

  self->updating = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (overlay_checks); i++)
    gtk_check_button_set_active (overlay_check (self, i), (overlays & overlay_checks[i].flag) != 0);
  self->updating = FALSE;
}

/* Values ----------------------------------------------------------------------------- */

static void
set_value (FlitlabRoutingPanel *self,
           Value                value,
           const char          *text)
{
  gtk_label_set_label (self->values[value], text);
}

G_GNUC_PRINTF (3, 4)
static void
set_value_printf (FlitlabRoutingPanel *self,
                  Value                value,
                  const char          *format,
                  ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  set_value (self, value, text);
}

static const char *
yes_no (gboolean yes)
{
  return yes ? _("Yes") : _("No");
}

/* The card above the values: text under a title in the style's error or
 * warning colour; hidden when text is NULL. */
static void
show_notice (FlitlabRoutingPanel *self,
             const char          *style,
             const char          *title,
             const char          *text)
{
  GtkWidget *styled[] = { self->notice_icon, GTK_WIDGET (self->notice_title) };

  gtk_widget_set_visible (self->notice_box, text != NULL);
  gtk_label_set_label (self->notice_title, title);
  gtk_label_set_label (self->notice_label, text != NULL ? text : "");
  for (guint i = 0; i < G_N_ELEMENTS (styled); i++)
    {
      gtk_widget_remove_css_class (styled[i], "error");
      gtk_widget_remove_css_class (styled[i], "warning");
      gtk_widget_add_css_class (styled[i], style);
    }
}

/* The routed matches the network on the canvas: a structural edit since it
 * was built leaves it describing another network. */
static gboolean
routed_is_current (FlitlabRoutingPanel *self)
{
  const FlTopology *t;

  if (self->routed == NULL || self->canvas == NULL)
    return self->routed != NULL;
  t = flitlab_canvas_get_topology (self->canvas);
  return fl_topology_node_count (t) == fl_topology_node_count (self->routed->topology)
         && fl_topology_link_count (t) == fl_topology_link_count (self->routed->topology);
}

static void
show_analysis (FlitlabRoutingPanel *self)
{
  const FlRoutingReport *rep;
  int root;

  g_clear_pointer (&self->cycle_text, g_free);
  if (self->routed == NULL)
    {
      for (guint i = 0; i < N_VALUES; i++)
        if (!value_rows[i].route)
          set_value (self, i, "—");
      adw_action_row_set_subtitle (self->root_row, _("Automatic follows paper 002: the switch "
                                                     "with the fewest crossing paths"));
      show_notice (self, "warning", _("Cannot Build This Routing"), self->refused);
      return;
    }

  rep = &self->routed->report;
  if (rep->connected)
    set_value (self, VALUE_CONNECTED, _("Yes"));
  else
    /* Translators: the first pair of switches with no legal route. */
    set_value_printf (self, VALUE_CONNECTED, _("No, %d ↛ %d"), rep->unroutable_src,
                      rep->unroutable_dst);
  set_value (self, VALUE_DEADLOCK_FREE, yes_no (rep->deadlock_free));
  root = fl_routing_root (self->routed->routing);
  if (root >= 0)
    set_value_printf (self, VALUE_ROOT, "%d", root);
  else
    set_value (self, VALUE_ROOT, "—");
  set_value_printf (self, VALUE_AVG_HOPS, "%.3f", rep->avg_hops);
  set_value_printf (self, VALUE_BFS_HOPS, "%.3f", rep->bfs_avg_hops);
  set_value_printf (self, VALUE_STRETCH, "%.3f", rep->stretch);
  set_value_printf (self, VALUE_MAX_HOPS, "%d", rep->max_hops);
  set_value_printf (self, VALUE_PT, "%.3f", rep->pt_mean);
  set_value_printf (self, VALUE_SDPT, "%.3f", rep->pt_sd);
  set_value_printf (self, VALUE_PPT, "%d", rep->ppt);
  set_value_printf (self, VALUE_MAX_LOAD, "%.1f", rep->max_channel_load);
  set_value_printf (self, VALUE_THROUGHPUT, "%.3f", rep->throughput_bound);

  if (root >= 0 && gtk_spin_button_get_value_as_int (self->root_spin) < 0)
    {
      /* Translators: the root switch that paper 002's rule picked. */
      g_autofree char *subtitle = g_strdup_printf (_("Automatic: switch %d, the fewest "
                                                     "crossing paths"), root);

      adw_action_row_set_subtitle (self->root_row, subtitle);
    }
  else
    adw_action_row_set_subtitle (self->root_row, "");

  self->cycle_text = flitlab_routed_describe_cycle (self->routed);
  show_notice (self, "error", _("Deadlock Possible"), self->cycle_text);
}

/* "3 → 4 → 12": the switches a route visits. */
static char *
describe_path (const FlTopology *t,
               int               src,
               const int        *channels,
               int               n)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%d", src);
  for (int i = 0; i < n; i++)
    g_string_append_printf (text, " → %d", fl_topology_channel_dst (t, channels[i]));
  return g_string_free (text, FALSE);
}

static void
show_route (FlitlabRoutingPanel *self)
{
  int src = -1, dst = -1;
  int *channels = NULL, *paths = NULL, *offsets = NULL;
  int n = 0, npaths = 0, truncated = 0;
  g_autofree char *path = NULL;
  FlError err = { 0 };

  if (self->canvas != NULL)
    flitlab_canvas_get_route_endpoints (self->canvas, &src, &dst);
  if (src < 0)
    set_value (self, VALUE_ENDPOINTS, "—");
  else if (dst < 0)
    /* Translators: a route whose destination is still to be clicked. */
    set_value_printf (self, VALUE_ENDPOINTS, _("%d → ?"), src);
  else
    set_value_printf (self, VALUE_ENDPOINTS, "%d → %d", src, dst);

  set_value (self, VALUE_HOPS, "—");
  set_value (self, VALUE_PATHS, "—");
  gtk_widget_set_visible (GTK_WIDGET (self->path_label), FALSE);
  if (src < 0 || dst < 0 || !routed_is_current (self))
    return;

  if (fl_routing_path (self->routed->routing, src, dst, FL_SELECT_LOWEST_PORT, NULL, &channels,
                       &n, &err) != FL_OK)
    {
      gtk_label_set_label (self->path_label, err.message);
      gtk_widget_set_visible (GTK_WIDGET (self->path_label), TRUE);
      return;
    }
  path = describe_path (self->routed->topology, src, channels, n);
  free (channels);
  gtk_label_set_label (self->path_label, path);
  gtk_widget_set_visible (GTK_WIDGET (self->path_label), TRUE);
  set_value_printf (self, VALUE_HOPS, "%d", n);

  if (fl_routing_all_paths (self->routed->routing, src, dst, MAX_COUNTED_PATHS, &paths, &offsets,
                            &npaths, &truncated, &err) == FL_OK)
    {
      if (truncated)
        /* Translators: a count of paths that stopped at its limit. */
        set_value_printf (self, VALUE_PATHS, _("over %d"), npaths);
      else
        set_value_printf (self, VALUE_PATHS, "%d", npaths);
      free (paths);
      free (offsets);
    }
}

void
flitlab_routing_panel_set_routed (FlitlabRoutingPanel *self,
                                  FlitlabRouted       *routed)
{
  gboolean had_cycle;

  g_return_if_fail (FLITLAB_IS_ROUTING_PANEL (self));

  had_cycle = self->routed != NULL && !self->routed->report.deadlock_free;
  if (routed != NULL)
    flitlab_routed_ref (routed);
  g_clear_pointer (&self->routed, flitlab_routed_unref);
  self->routed = routed;
  g_clear_pointer (&self->refused, g_free);
  if (routed != NULL)
    update_root_range (self, routed->topology);
  show_analysis (self);
  show_route (self);

  /* A cycle that appears is shown on the network too; one that stays is
   * left as the user set its overlay. */
  if (routed != NULL && !routed->report.deadlock_free && !had_cycle && self->canvas != NULL)
    flitlab_canvas_set_overlays (self->canvas,
                                 flitlab_canvas_get_overlays (self->canvas) | FLITLAB_OVERLAY_CYCLE);
}

void
flitlab_routing_panel_set_refused (FlitlabRoutingPanel *self,
                                   const char          *message)
{
  g_return_if_fail (FLITLAB_IS_ROUTING_PANEL (self));

  flitlab_routing_panel_set_routed (self, NULL);
  self->refused = g_strdup (message);
  show_analysis (self);
}

void
flitlab_routing_panel_set_building (FlitlabRoutingPanel *self,
                                    gboolean             building)
{
  g_return_if_fail (FLITLAB_IS_ROUTING_PANEL (self));

  gtk_spinner_set_spinning (self->spinner, building);
  /* Values of a routing being replaced stay readable, dimmed as stale. */
  gtk_widget_set_opacity (self->analysis_box, building ? 0.45 : 1.0);
  gtk_widget_set_opacity (self->route_box, building ? 0.45 : 1.0);
}

const char *
flitlab_routing_panel_get_value (FlitlabRoutingPanel *self,
                                 const char          *key)
{
  g_return_val_if_fail (FLITLAB_IS_ROUTING_PANEL (self), NULL);

  for (guint i = 0; i < N_VALUES; i++)
    if (g_strcmp0 (value_rows[i].key, key) == 0)
      return gtk_label_get_label (self->values[i]);
  if (g_strcmp0 (key, "cycle") == 0)
    return self->cycle_text != NULL ? self->cycle_text : "";
  if (g_strcmp0 (key, "refused") == 0)
    return self->refused != NULL ? self->refused : "";
  if (g_strcmp0 (key, "path") == 0)
    return gtk_widget_get_visible (GTK_WIDGET (self->path_label))
             ? gtk_label_get_label (self->path_label) : "";
  return NULL;
}

/* The canvas ------------------------------------------------------------------------- */

static void
canvas_topology_edited_cb (FlitlabRoutingPanel *self)
{
  update_root_range (self, flitlab_canvas_get_topology (self->canvas));
  show_route (self);
}

/* Two switches clicked with the route tool ask to see the paths between
 * them. */
static void
route_endpoints_changed_cb (FlitlabRoutingPanel *self)
{
  int src = -1, dst = -1;

  flitlab_canvas_get_route_endpoints (self->canvas, &src, &dst);
  if (src >= 0 && dst >= 0)
    flitlab_canvas_set_overlays (self->canvas,
                                 flitlab_canvas_get_overlays (self->canvas) | FLITLAB_OVERLAY_PATHS);
  show_route (self);
}

void
flitlab_routing_panel_set_canvas (FlitlabRoutingPanel *self,
                                  FlitlabCanvas       *canvas)
{
  g_return_if_fail (FLITLAB_IS_ROUTING_PANEL (self));
  g_return_if_fail (canvas == NULL || FLITLAB_IS_CANVAS (canvas));

  if (self->canvas == canvas)
    return;
  if (self->canvas != NULL)
    g_signal_handlers_disconnect_by_data (self->canvas, self);
  g_set_object (&self->canvas, canvas);
  if (canvas == NULL)
    return;
  g_signal_connect_swapped (canvas, "route-endpoints-changed",
                            G_CALLBACK (route_endpoints_changed_cb), self);
  g_signal_connect_swapped (canvas, "topology-edited", G_CALLBACK (canvas_topology_edited_cb), self);
  g_signal_connect_swapped (canvas, "notify::overlays", G_CALLBACK (canvas_overlays_changed_cb),
                            self);
  g_signal_connect_swapped (canvas, "notify::tool", G_CALLBACK (canvas_tool_changed_cb), self);
  g_signal_connect (canvas, "turn-activated", G_CALLBACK (turn_activated_cb), self);
  canvas_overlays_changed_cb (self);
  canvas_topology_edited_cb (self);
}

/* The chooser's list shows each routing's summary under its name. */
static void
routing_item_setup (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *summary = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_xalign (GTK_LABEL (summary), 0);
  gtk_label_set_wrap (GTK_LABEL (summary), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (summary), 36);
  gtk_widget_add_css_class (summary, "caption");
  gtk_widget_add_css_class (summary, "dim-label");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), summary);
  gtk_list_item_set_child (item, box);
}

static void
routing_item_bind (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  user_data)
{
  GtkStringObject *string = gtk_list_item_get_item (item);
  const FlRoutingInfo *info = fl_routing_lookup (gtk_string_object_get_string (string));
  GtkWidget *name = gtk_widget_get_first_child (gtk_list_item_get_child (item));

  gtk_label_set_label (GTK_LABEL (name), info->name);
  gtk_label_set_label (GTK_LABEL (gtk_widget_get_next_sibling (name)), info->summary);
}

/* Object life ------------------------------------------------------------------------ */

GtkWidget *
flitlab_routing_panel_new (void)
{
  return g_object_new (FLITLAB_TYPE_ROUTING_PANEL, NULL);
}

static void
flitlab_routing_panel_dispose (GObject *object)
{
  FlitlabRoutingPanel *self = FLITLAB_ROUTING_PANEL (object);

  flitlab_routing_panel_set_canvas (self, NULL);
  g_clear_pointer (&self->routed, flitlab_routed_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_ROUTING_PANEL);
  /* The template's top box has no id, so dispose_template() leaves it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (flitlab_routing_panel_parent_class)->dispose (object);
}

static void
flitlab_routing_panel_finalize (GObject *object)
{
  FlitlabRoutingPanel *self = FLITLAB_ROUTING_PANEL (object);

  g_free (self->refused);
  g_free (self->cycle_text);
  g_free (self->routing);
  g_array_unref (self->turns);
  G_OBJECT_CLASS (flitlab_routing_panel_parent_class)->finalize (object);
}

static void
flitlab_routing_panel_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  FlitlabRoutingPanel *self = FLITLAB_ROUTING_PANEL (object);

  switch (prop_id)
    {
    case PROP_ROUTING:
      g_value_set_string (value, self->routing);
      break;

    case PROP_EDITING_TURNS:
      g_value_set_boolean (value, self->editing_turns);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_routing_panel_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  FlitlabRoutingPanel *self = FLITLAB_ROUTING_PANEL (object);

  switch (prop_id)
    {
    case PROP_ROUTING:
      flitlab_routing_panel_set_routing (self, g_value_get_string (value));
      break;

    case PROP_EDITING_TURNS:
      flitlab_routing_panel_set_editing_turns (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_routing_panel_class_init (FlitlabRoutingPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_routing_panel_dispose;
  object_class->finalize = flitlab_routing_panel_finalize;
  object_class->get_property = flitlab_routing_panel_get_property;
  object_class->set_property = flitlab_routing_panel_set_property;

  properties[PROP_ROUTING] =
    g_param_spec_string ("routing", NULL, NULL, DEFAULT_ROUTING,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EDITING_TURNS] =
    g_param_spec_boolean ("editing-turns", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-routing-panel.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "routingpanel");
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, algorithm_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, spinner);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, routing_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, root_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, root_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, vcs_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, order_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, edit_turns_switch);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, turns_check);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, directions_check);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, hv_check);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, paths_check);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, cycle_check);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, notice_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, notice_icon);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, notice_title);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, notice_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, analysis_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, analysis_grid);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, route_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, route_grid);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, path_label);
  gtk_widget_class_bind_template_callback (widget_class, routing_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, option_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, root_input_cb);
  gtk_widget_class_bind_template_callback (widget_class, root_output_cb);
  gtk_widget_class_bind_template_callback (widget_class, edit_turns_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, overlay_toggled_cb);
}

/* One line of a grid: the value's name, dimmed, and its figure. */
static void
add_value_row (FlitlabRoutingPanel *self,
               Value                value,
               int                  line)
{
  GtkGrid *grid = value_rows[value].route ? self->route_grid : self->analysis_grid;
  GtkWidget *name = gtk_label_new (_(value_rows[value].name));
  GtkWidget *figure = gtk_label_new ("—");

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_widget_set_tooltip_text (name, _(value_rows[value].tooltip));
  gtk_widget_add_css_class (name, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (figure), 1);
  gtk_label_set_selectable (GTK_LABEL (figure), TRUE);
  gtk_widget_add_css_class (figure, "numeric");
  gtk_widget_add_css_class (figure, "metric-value");
  gtk_grid_attach (grid, name, 0, line, 1, 1);
  gtk_grid_attach (grid, figure, 1, line, 1, 1);
  self->values[value] = GTK_LABEL (figure);
}

static void
flitlab_routing_panel_init (FlitlabRoutingPanel *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  int lines[2] = { 0, 0 };

  self->turns = g_array_new (FALSE, FALSE, sizeof (FlTurn));
  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < N_VALUES; i++)
    add_value_row (self, i, lines[value_rows[i].route]++);

  for (int i = 0; i < fl_routing_count (); i++)
    gtk_string_list_append (names, fl_routing_info (i)->name);
  g_signal_connect (factory, "setup", G_CALLBACK (routing_item_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (routing_item_bind), NULL);
  adw_combo_row_set_list_factory (self->routing_row, factory);
  adw_combo_row_set_model (self->routing_row, G_LIST_MODEL (names));
  flitlab_routing_panel_set_routing (self, DEFAULT_ROUTING);
  /* The spin button wrote its first value before its output handler was
   * connected. */
  root_output_cb (self->root_spin, self);
  show_analysis (self);
  show_route (self);
}
