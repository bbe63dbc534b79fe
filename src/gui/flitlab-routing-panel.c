/* flitlab-routing-panel.c — the routing chooser, the overlay toggles and the
 * analysis of the routing shown, all of one document.
 *
 * The widgets show the document's state and write the user's changes back
 * to it: the chooser and the option rows become the document's routing
 * request, the switch its editing of turns, the checks its overlays. There
 * is a row for every option of the engine's routing registry, built from
 * its descriptor and shown while the routing chosen takes it; only what
 * the engine cannot say is added here (a root is a switch the user knows
 * by its number, an order must fit the network's dimensions, turns are
 * clicked on the network). The analysis and the route are read from the
 * routing the document holds. */
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-node-number.h"
#include "flitlab-option-rows.h"
#include "flitlab-routing-panel.h"

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

  FlitlabDocument *document;   /* NULL: nothing shown */
  GSignalGroup *document_signals;
  char *cycle_text;            /* the routing's cycle in a sentence */
  gboolean updating;           /* widgets being set from code, not by the user */

  /* Template widgets. */
  AdwPreferencesGroup *algorithm_group;
  AdwPreferencesGroup *options_group;
  GtkSpinner *spinner;
  AdwComboRow *routing_row;
  GtkWidget *edit_turns_row;
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
  GtkWidget *verdict_box;
  GtkGrid *verdict_grid;
  GtkWidget *overlay_box;
  GtkWidget *analysis_box;
  GtkGrid *analysis_grid;
  GtkWidget *route_box;
  GtkGrid *route_grid;
  GtkLabel *path_label;

  /* The value labels of the two grids, built from value_rows. */
  GtkLabel *values[N_VALUES];

  /* A row per option of the routing registry, in its order, editing
   * options: the document's request as the rows show it. */
  GPtrArray *option_rows;
  FlRoutingOptions options;
  GtkWidget *root_row;         /* the spanning tree's root, by node number */
  GtkWidget *order_row;        /* the dimension order, for the network's dimensions */
  GtkWidget *turns_row;        /* the prohibited turns: a count, the list inside */
};

G_DEFINE_FINAL_TYPE (FlitlabRoutingPanel, flitlab_routing_panel, GTK_TYPE_WIDGET)


/* The three cards the values sit in. */
typedef enum {
  CARD_VERDICT,
  CARD_ANALYSIS,
  CARD_ROUTE,
  N_CARDS
} Card;

/* A value's name says what it is in a word or an acronym; the line under
 * it, where there is one, says it in words or gives its unit, on screen
 * since a class does not hover; the tooltip says how it is measured. */
/* clang-format off */
static const struct {
  const char *key;
  const char *name;
  const char *subtitle;
  const char *tooltip;
  Card card;
} value_rows[N_VALUES] = {
  [VALUE_CONNECTED] = { "connected", N_("Connected"), NULL,
    N_("Every switch reaches every other along legal routes"), CARD_VERDICT },
  [VALUE_DEADLOCK_FREE] = { "deadlock-free", N_("Deadlock-free"), NULL,
    N_("The channel dependency graph has no cycle"), CARD_VERDICT },
  [VALUE_ROOT] = { "root", N_("Root switch"), NULL,
    N_("The root of the spanning tree that up*/down*, L-turn and R-turn orient the channels by"),
    CARD_ANALYSIS },
  [VALUE_AVG_HOPS] = { "avg-hops", N_("Average hops"), NULL,
    N_("Along the chosen routes, over all ordered pairs of switches"), CARD_ANALYSIS },
  [VALUE_BFS_HOPS] = { "bfs-hops", N_("Shortest average"), NULL,
    N_("The same pairs at their breadth-first distance: the best any routing can do"),
    CARD_ANALYSIS },
  [VALUE_STRETCH] = { "stretch", N_("Stretch"), NULL,
    N_("Average hops over the shortest average"), CARD_ANALYSIS },
  [VALUE_MAX_HOPS] = { "max-hops", N_("Maximum hops"), NULL,
    N_("The longest chosen route"), CARD_ANALYSIS },
  [VALUE_PT] = { "pt", N_("PT"), N_("prohibited turns per switch, mean"),
    N_("Prohibited turns per switch, the mean (paper 002)"), CARD_ANALYSIS },
  [VALUE_SDPT] = { "sdpt", N_("SDPT"), N_("their standard deviation"),
    N_("The standard deviation of the prohibited turns per switch (paper 002)"), CARD_ANALYSIS },
  [VALUE_PPT] = { "ppt", N_("PPT"), N_("pairs of opposite prohibited turns"),
    N_("Pairs of opposite prohibited turns between the same two links (paper 002)"), CARD_ANALYSIS },
  [VALUE_MAX_LOAD] = { "max-load", N_("Busiest channel"), N_("routes through it, all to all"),
    N_("Routes through the busiest channel when every switch sends to every other"), CARD_ANALYSIS },
  /* Not the Metrics tab's throughput bound, which counts messages over the
   * whole network and knows no routing. */
  [VALUE_THROUGHPUT] = { "throughput", N_("Routing throughput bound"), N_("flits/cycle/switch, uniform traffic"),
    N_("Flits per cycle per switch of uniform traffic that the busiest channel lets through"),
    CARD_ANALYSIS },
  [VALUE_ENDPOINTS] = { "endpoints", N_("Between"), NULL,
    N_("The source and destination switches of the route"), CARD_ROUTE },
  [VALUE_HOPS] = { "hops", N_("Hops"), NULL,
    N_("The length of the route the routing chooses"), CARD_ROUTE },
  [VALUE_PATHS] = { "paths", N_("Legal shortest paths"), NULL,
    N_("How many shortest paths the routing allows between the two switches"), CARD_ROUTE },
};
/* clang-format on */

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

/* The routing asked for ---------------------------------------------------------- */

static const FlTopology *
shown_topology (FlitlabRoutingPanel *self)
{
  return self->document != NULL ? flitlab_document_get_topology (self->document) : NULL;
}

/* The routing options ------------------------------------------------------------ */

static gint64
node_to_number (gint64   node,
                gpointer user_data)
{
  FlitlabRoutingPanel *self = user_data;
  const FlTopology *t = shown_topology (self);

  return t != NULL ? flitlab_node_number (t, (int) node) : node;
}

static gint64
number_to_node (gint64   number,
                gpointer user_data)
{
  FlitlabRoutingPanel *self = user_data;
  const FlTopology *t = shown_topology (self);

  int node = t != NULL && number >= 0 && number <= G_MAXINT ? flitlab_node_from_number (t, (int) number) : -1;

  return node >= 0 ? node : number;
}

/* An order names one axis per dimension of the network. */
static gboolean
order_fits (const char *choice,
            gpointer    user_data)
{
  FlitlabRoutingPanel *self = user_data;
  const FlTopology *t = shown_topology (self);
  int dims = t != NULL ? fl_topology_coord_dims (t) : 0;

  return dims <= 0 || strlen (choice) == (size_t) dims;
}

/* What the rows offer follows the network shown: its nodes, its
 * dimensions. */
static void
update_option_ranges (FlitlabRoutingPanel *self)
{
  const FlTopology *t = shown_topology (self);

  if (self->root_row != NULL)
    flitlab_option_row_set_range (self->root_row, 0,
                                  t != NULL ? MAX (fl_topology_node_count (t) - 1, 0) : 0);
  if (self->order_row != NULL)
    flitlab_option_row_set_choice_filter (self->order_row, order_fits, self);
}

/* The row shown in the group for an option row: itself, or the expander
 * that holds it. */
static GtkWidget *
shown_row (GtkWidget *row)
{
  GtkWidget *expander = gtk_widget_get_ancestor (row, ADW_TYPE_EXPANDER_ROW);

  return expander != NULL ? expander : row;
}

static void
update_option_rows (FlitlabRoutingPanel         *self,
                    const FlitlabRoutingRequest *request)
{
  const FlRoutingInfo *info = fl_routing_lookup (request->name);
  g_autofree char *description = NULL;
  g_autofree char *count = NULL;
  guint n_turns = request->turns->len;

  /* Translators: a routing's one-line summary, then the networks it
   * serves, both from the engine. */
  if (info != NULL)
    description = g_strdup_printf (_("%s. For %s."), fl_gettext (info->summary),
                                   fl_gettext (info->applies_to));
  adw_preferences_group_set_description (self->options_group, description);
  for (guint i = 0; i < self->option_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->option_rows, i);

      gtk_widget_set_visible (shown_row (row),
                              info != NULL && fl_routing_takes (info, flitlab_option_row_get_info (row)->name));
      flitlab_option_row_refresh (row);
    }
  if (self->turns_row != NULL)
    {
      if (n_turns == 0)
        count = g_strdup (_("None: Edit turns prohibits them on the network"));
      else
        /* Translators: the count of prohibited turns of an edited turn set. */
        count = g_strdup_printf (g_dngettext (NULL, "%u turn prohibited: Edit turns changes it on the network",
                                              "%u turns prohibited: Edit turns changes them on the network",
                                              n_turns),
                                 n_turns);
      adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self->turns_row), count);
    }
}

/* Shows the document's request in the chooser and the option rows. */
static void
show_request (FlitlabRoutingPanel *self)
{
  const FlitlabRoutingRequest *request;
  g_autoptr(FlitlabRoutingRequest) fallback = NULL;

  if (self->document != NULL)
    request = flitlab_document_get_request (self->document);
  else
    request = fallback = flitlab_routing_request_new (FLITLAB_DEFAULT_ROUTING);

  self->updating = TRUE;
  for (int i = 0; i < fl_routing_count (); i++)
    if (g_strcmp0 (fl_routing_info (i)->name, request->name) == 0)
      adw_combo_row_set_selected (self->routing_row, (guint) i);
  fl_routing_options_clear (&self->options);
  flitlab_routing_request_fill_options (request, &self->options);
  update_option_ranges (self);
  gtk_switch_set_active (self->edit_turns_switch,
                         self->document != NULL
                         && flitlab_document_get_editing_turns (self->document));
  update_option_rows (self, request);
  self->updating = FALSE;
}

static void
routing_selected_cb (FlitlabRoutingPanel *self)
{
  const FlRoutingInfo *info = fl_routing_info ((int) adw_combo_row_get_selected (self->routing_row));

  if (self->updating || info == NULL || self->document == NULL)
    return;
  flitlab_document_set_routing (self->document, info->name);
}

/* A row has set its option in self->options: the request takes it, in the
 * engine's words. */
static void
option_changed_cb (GtkWidget *row,
                   gpointer   user_data)
{
  FlitlabRoutingPanel *self = user_data;
  const char *key = flitlab_option_row_get_info (row)->name;
  g_autoptr(FlitlabRoutingRequest) request = NULL;
  g_autofree char *text = NULL;
  FlError err = { 0 };
  int length;

  if (self->updating || self->document == NULL)
    return;
  length = fl_routing_options_format (&self->options, key, NULL, 0);
  if (length < 0)
    return;
  text = g_malloc ((gsize) length + 1);
  fl_routing_options_format (&self->options, key, text, (size_t) length + 1);
  request = flitlab_routing_request_copy (flitlab_document_get_request (self->document));
  if (!flitlab_routing_request_set_option (request, key, text, &err))
    {
      g_warning ("The routing option %s is refused: %s", key, err.message);
      return;
    }
  flitlab_document_set_request (self->document, request);
}

/* A row for each option of the registry, before the Edit turns row. */
static void
add_option_rows (FlitlabRoutingPanel *self)
{
  g_object_ref (self->edit_turns_row);
  adw_preferences_group_remove (self->options_group, self->edit_turns_row);
  for (int i = 0; i < fl_routing_option_count (); i++)
    {
      const FlOptionInfo *info = fl_routing_option (i);
      GtkWidget *row = flitlab_option_row_new_for_routing (info, &self->options, option_changed_cb, self);
      GtkWidget *shown = row;

      g_ptr_array_add (self->option_rows, row);
      if (g_strcmp0 (info->name, "root") == 0)
        {
          /* A switch, as the user knows it; the paper's rule by the word
           * the analysis uses. */
          self->root_row = row;
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Root switch"));
          /* Translators: the root switch chosen by the paper's rule. */
          flitlab_option_row_set_unset_label (row, _("automatic"));
          flitlab_option_row_set_number_map (row, node_to_number, number_to_node, self);
          flitlab_option_row_set_subtitle (row, "");
        }
      else if (g_strcmp0 (info->name, "order") == 0)
        self->order_row = row;
      else if (g_strcmp0 (info->name, FLITLAB_TURNS_OPTION) == 0)
        {
          /* Turns are clicked on the network with Edit turns; the list, in
           * the command line's syntax, is there to read or paste. */
          self->turns_row = shown = adw_expander_row_new ();
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (shown), fl_gettext (info->label));
          gtk_widget_set_name (shown, info->name);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), fl_gettext (info->help));
          adw_expander_row_add_row (ADW_EXPANDER_ROW (shown), row);
        }
      gtk_widget_set_visible (shown, FALSE);
      adw_preferences_group_add (self->options_group, shown);
    }
  adw_preferences_group_add (self->options_group, self->edit_turns_row);
  g_object_unref (self->edit_turns_row);
}

gboolean
flitlab_routing_panel_set_routing (FlitlabRoutingPanel *self,
                                   const char          *name)
{
  g_return_val_if_fail (FLITLAB_IS_ROUTING_PANEL (self), FALSE);

  for (int i = 0; i < fl_routing_count (); i++)
    if (g_strcmp0 (fl_routing_info (i)->name, name) == 0)
      {
        /* The chooser's handler does the rest, as for a click. */
        adw_combo_row_set_selected (self->routing_row, (guint) i);
        return TRUE;
      }
  return FALSE;
}

GtkWidget *
flitlab_routing_panel_get_option_row (FlitlabRoutingPanel *self,
                                      const char          *key)
{
  g_return_val_if_fail (FLITLAB_IS_ROUTING_PANEL (self), NULL);

  for (guint i = 0; i < self->option_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->option_rows, i);

      if (g_strcmp0 (flitlab_option_row_get_info (row)->name, key) == 0)
        return row;
    }
  return NULL;
}

const char *
flitlab_routing_panel_get_routing (FlitlabRoutingPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_ROUTING_PANEL (self), NULL);

  return self->document != NULL ? flitlab_document_get_routing (self->document)
                                 : FLITLAB_DEFAULT_ROUTING;
}

/* Turns being edited ----------------------------------------------------------- */

static void
edit_turns_toggled_cb (FlitlabRoutingPanel *self)
{
  if (!self->updating && self->document != NULL)
    flitlab_document_set_editing_turns (self->document,
                                        gtk_switch_get_active (self->edit_turns_switch));
}

static void
document_editing_turns_cb (FlitlabRoutingPanel *self)
{
  self->updating = TRUE;
  gtk_switch_set_active (self->edit_turns_switch,
                         flitlab_document_get_editing_turns (self->document));
  self->updating = FALSE;
}

/* Overlays ------------------------------------------------------------------------- */

static void
overlay_toggled_cb (FlitlabRoutingPanel *self)
{
  FlitlabOverlay overlays = FLITLAB_OVERLAY_NONE;

  if (self->updating || self->document == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (overlay_checks); i++)
    if (gtk_check_button_get_active (overlay_check (self, i)))
      overlays |= overlay_checks[i].flag;
  flitlab_document_set_overlays (self->document, overlays);
}

static void
show_overlays (FlitlabRoutingPanel *self)
{
  FlitlabOverlay overlays = self->document != NULL ? flitlab_document_get_overlays (self->document)
                                                   : FLITLAB_OVERLAY_NONE;

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

/* The verdict in the colours of success and failure. */
static void
show_verdict_style (FlitlabRoutingPanel *self,
                    gboolean             connected,
                    gboolean             deadlock_free)
{
  const struct {
    Value value;
    gboolean good;
  } verdict[] = { { VALUE_CONNECTED, connected }, { VALUE_DEADLOCK_FREE, deadlock_free } };

  for (guint i = 0; i < G_N_ELEMENTS (verdict); i++)
    {
      GtkWidget *label = GTK_WIDGET (self->values[verdict[i].value]);

      gtk_widget_remove_css_class (label, verdict[i].good ? "error" : "success");
      gtk_widget_add_css_class (label, verdict[i].good ? "success" : "error");
    }
}

static void
show_analysis (FlitlabRoutingPanel *self)
{
  FlitlabRouted *routed = self->document != NULL
                            ? flitlab_document_get_shown_routed (self->document) : NULL;
  const FlRoutingReport *rep;
  const FlTopology *t;
  int root;

  g_clear_pointer (&self->cycle_text, g_free);
  if (routed == NULL)
    {
      for (guint i = 0; i < N_VALUES; i++)
        if (value_rows[i].card != CARD_ROUTE)
          set_value (self, i, "—");
      for (guint i = VALUE_CONNECTED; i <= VALUE_DEADLOCK_FREE; i++)
        {
          gtk_widget_remove_css_class (GTK_WIDGET (self->values[i]), "success");
          gtk_widget_remove_css_class (GTK_WIDGET (self->values[i]), "error");
        }
      if (self->root_row != NULL)
        flitlab_option_row_set_subtitle (self->root_row, _("Automatic follows paper 002: the switch "
                                                           "with the fewest crossing paths"));
      show_notice (self, "warning", _("Cannot Build This Routing"),
                   self->document != NULL ? flitlab_document_get_refused (self->document) : NULL);
      return;
    }

  rep = &routed->report;
  t = routed->topology;
  if (rep->connected)
    set_value (self, VALUE_CONNECTED, _("Yes"));
  else
    /* Translators: the first pair of switches with no legal route. */
    set_value_printf (self, VALUE_CONNECTED, _("No, %d ↛ %d"),
                      flitlab_node_number (t, rep->unroutable_src),
                      flitlab_node_number (t, rep->unroutable_dst));
  set_value (self, VALUE_DEADLOCK_FREE, yes_no (rep->deadlock_free));
  show_verdict_style (self, rep->connected, rep->deadlock_free);
  root = fl_routing_root (routed->routing);
  if (root >= 0)
    set_value_printf (self, VALUE_ROOT, "%d", flitlab_node_number (t, root));
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

  if (self->root_row != NULL && root >= 0 && self->options.root < 0)
    {
      /* Translators: the root switch that paper 002's rule picked. */
      g_autofree char *subtitle = g_strdup_printf (_("Automatic: switch %d, the fewest "
                                                     "crossing paths"),
                                                   flitlab_node_number (t, root));

      flitlab_option_row_set_subtitle (self->root_row, subtitle);
    }
  else if (self->root_row != NULL)
    flitlab_option_row_set_subtitle (self->root_row, "");

  self->cycle_text = flitlab_routed_describe_cycle (routed);
  show_notice (self, "error", _("Deadlock Possible"), self->cycle_text);
}

static char *
describe_path (const FlTopology *t,
               int               src,
               const int        *channels,
               int               n)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%d", flitlab_node_number (t, src));
  for (int i = 0; i < n; i++)
    g_string_append_printf (text, " → %d",
                            flitlab_node_number (t, fl_topology_channel_dst (t, channels[i])));
  return g_string_free (text, FALSE);
}

static void
show_route (FlitlabRoutingPanel *self)
{
  const FlTopology *t = shown_topology (self);
  const FlitlabRoute *route = NULL;
  g_autofree char *path = NULL;
  int src = -1, dst = -1;

  if (self->document != NULL)
    flitlab_document_get_route_endpoints (self->document, &src, &dst);
  if (src < 0)
    set_value (self, VALUE_ENDPOINTS, "—");
  else if (dst < 0)
    /* Translators: a route whose destination is still to be clicked. */
    set_value_printf (self, VALUE_ENDPOINTS, _("%d → ?"), flitlab_node_number (t, src));
  else
    set_value_printf (self, VALUE_ENDPOINTS, "%d → %d", flitlab_node_number (t, src),
                      flitlab_node_number (t, dst));

  set_value (self, VALUE_HOPS, "—");
  set_value (self, VALUE_PATHS, "—");
  gtk_widget_set_visible (GTK_WIDGET (self->path_label), FALSE);
  if (self->document != NULL)
    route = flitlab_document_get_route (self->document);
  if (route == NULL)
    return;

  if (route->chosen_error != NULL)
    {
      gtk_label_set_label (self->path_label, route->chosen_error);
      gtk_widget_set_visible (GTK_WIDGET (self->path_label), TRUE);
      return;
    }
  path = describe_path (t, src, route->chosen, route->nchosen);
  gtk_label_set_label (self->path_label, path);
  gtk_widget_set_visible (GTK_WIDGET (self->path_label), TRUE);
  set_value_printf (self, VALUE_HOPS, "%d", route->nchosen);
  if (route->truncated)
    /* Translators: a count of paths that stopped at its limit. */
    set_value_printf (self, VALUE_PATHS, _("over %d"), route->npaths);
  else
    set_value_printf (self, VALUE_PATHS, "%d", route->npaths);
}

void
flitlab_routing_panel_set_building (FlitlabRoutingPanel *self,
                                    gboolean             building)
{
  g_return_if_fail (FLITLAB_IS_ROUTING_PANEL (self));

  gtk_spinner_set_spinning (self->spinner, building);
  /* Values of a routing being replaced stay readable, dimmed as stale. */
  gtk_widget_set_opacity (self->verdict_box, building ? 0.45 : 1.0);
  gtk_widget_set_opacity (self->analysis_box, building ? 0.45 : 1.0);
  gtk_widget_set_opacity (self->route_box, building ? 0.45 : 1.0);
}

const char *
flitlab_routing_panel_get_value (FlitlabRoutingPanel *self,
                                 const char          *key)
{
  const char *refused;

  g_return_val_if_fail (FLITLAB_IS_ROUTING_PANEL (self), NULL);

  for (guint i = 0; i < N_VALUES; i++)
    if (g_strcmp0 (value_rows[i].key, key) == 0)
      return gtk_label_get_label (self->values[i]);
  if (g_strcmp0 (key, "cycle") == 0)
    return self->cycle_text != NULL ? self->cycle_text : "";
  if (g_strcmp0 (key, "refused") == 0)
    {
      refused = self->document != NULL ? flitlab_document_get_refused (self->document) : NULL;
      return refused != NULL ? refused : "";
    }
  if (g_strcmp0 (key, "path") == 0)
    return gtk_widget_get_visible (GTK_WIDGET (self->path_label))
             ? gtk_label_get_label (self->path_label) : "";
  return NULL;
}

/* The document ------------------------------------------------------------------------- */

static void
document_topology_edited_cb (FlitlabRoutingPanel *self)
{
  update_option_ranges (self);
  show_route (self);
}

static void
document_routed_cb (FlitlabRoutingPanel *self)
{
  show_analysis (self);
  show_route (self);
}

/* Shows everything about document, and follows it (NULL: nothing). */
void
flitlab_routing_panel_set_document (FlitlabRoutingPanel *self,
                                    FlitlabDocument     *document)
{
  g_return_if_fail (FLITLAB_IS_ROUTING_PANEL (self));
  g_return_if_fail (document == NULL || FLITLAB_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;
  g_signal_group_set_target (self->document_signals, document);
  show_request (self);
  show_overlays (self);
  show_analysis (self);
  show_route (self);
}

FlitlabDocument *
flitlab_routing_panel_get_document (FlitlabRoutingPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_ROUTING_PANEL (self), NULL);

  return self->document;
}

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
  gtk_label_set_label (GTK_LABEL (gtk_widget_get_next_sibling (name)), fl_gettext (info->summary));
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

  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_pointer (&self->option_rows, g_ptr_array_unref);
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

  g_free (self->cycle_text);
  fl_routing_options_clear (&self->options);
  G_OBJECT_CLASS (flitlab_routing_panel_parent_class)->finalize (object);
}

static void
flitlab_routing_panel_class_init (FlitlabRoutingPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_routing_panel_dispose;
  object_class->finalize = flitlab_routing_panel_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-routing-panel.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "routingpanel");
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, algorithm_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, options_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, spinner);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, routing_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, edit_turns_row);
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
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, verdict_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, verdict_grid);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, overlay_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, analysis_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, analysis_grid);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, route_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, route_grid);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRoutingPanel, path_label);
  gtk_widget_class_bind_template_callback (widget_class, routing_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, edit_turns_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, overlay_toggled_cb);
}

static void
add_value_row (FlitlabRoutingPanel *self,
               Value                value,
               int                  line)
{
  GtkGrid *grids[N_CARDS] = { self->verdict_grid, self->analysis_grid, self->route_grid };
  GtkGrid *grid = grids[value_rows[value].card];
  GtkWidget *name = gtk_label_new (_(value_rows[value].name));
  GtkWidget *figure = gtk_label_new ("—");
  GtkWidget *named = name;

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_set_tooltip_text (name, _(value_rows[value].tooltip));
  gtk_widget_add_css_class (name, "dim-label");
  if (value_rows[value].subtitle != NULL)
    {
      GtkWidget *subtitle = gtk_label_new (_(value_rows[value].subtitle));

      named = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
      gtk_label_set_wrap (GTK_LABEL (subtitle), TRUE);
      gtk_widget_add_css_class (subtitle, "caption");
      gtk_widget_add_css_class (subtitle, "dim-label");
      gtk_box_append (GTK_BOX (named), name);
      gtk_box_append (GTK_BOX (named), subtitle);
    }
  gtk_widget_set_hexpand (named, TRUE);
  gtk_label_set_xalign (GTK_LABEL (figure), 1);
  gtk_widget_set_valign (figure, GTK_ALIGN_START);
  gtk_label_set_selectable (GTK_LABEL (figure), TRUE);
  gtk_widget_add_css_class (figure, "numeric");
  gtk_widget_add_css_class (figure, "metric-value");
  gtk_grid_attach (grid, named, 0, line, 1, 1);
  gtk_grid_attach (grid, figure, 1, line, 1, 1);
  self->values[value] = GTK_LABEL (figure);
}

static void
flitlab_routing_panel_init (FlitlabRoutingPanel *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  int lines[N_CARDS] = { 0 };

  self->updating = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  fl_routing_options_init (&self->options);
  self->option_rows = g_ptr_array_new ();
  add_option_rows (self);

  for (guint i = 0; i < N_VALUES; i++)
    add_value_row (self, i, lines[value_rows[i].card]++);

  for (int i = 0; i < fl_routing_count (); i++)
    gtk_string_list_append (names, fl_routing_info (i)->name);
  g_signal_connect (factory, "setup", G_CALLBACK (routing_item_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (routing_item_bind), NULL);
  adw_combo_row_set_list_factory (self->routing_row, factory);
  adw_combo_row_set_model (self->routing_row, G_LIST_MODEL (names));
  self->updating = FALSE;

  self->document_signals = g_signal_group_new (FLITLAB_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "request-changed",
                                  G_CALLBACK (show_request), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::editing-turns",
                                  G_CALLBACK (document_editing_turns_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::overlays",
                                  G_CALLBACK (show_overlays), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::routed",
                                  G_CALLBACK (document_routed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::refused",
                                  G_CALLBACK (document_routed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "route-changed",
                                  G_CALLBACK (show_route), self);
  g_signal_group_connect_swapped (self->document_signals, "topology-edited",
                                  G_CALLBACK (document_topology_edited_cb), self);

  show_request (self);
  show_overlays (self);
  show_analysis (self);
  show_route (self);
}
