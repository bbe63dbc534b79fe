/* flitlab-selection-panel.c — properties of the selected switch, host or link.
 *
 * The panel follows its document by itself: it rebuilds on
 * "selection-changed" and "topology-edited", reads the topology through the
 * engine's queries and edits only through the document (so every change is
 * undoable).
 */
#include <adwaita.h>
#include <glib/gi18n.h>

#include "flitlab-node-number.h"
#include "flitlab-selection-panel.h"

struct _FlitlabSelectionPanel
{
  GtkWidget parent_instance;

  FlitlabDocument *document;
  int node;                  /* what is shown: -1 = none */
  int link;
  gboolean updating;         /* the spin button is being set, not edited */
  GPtrArray *port_rows;      /* rows added to ports_group */

  /* Template widgets: one page per kind of selection, one shown at a time */
  GtkScrolledWindow *scroller;
  GtkWidget *none_page;
  GtkWidget *switch_page;
  AdwPreferencesGroup *switch_group;
  GtkLabel *switch_rank;
  GtkLabel *switch_coords;
  GtkLabel *switch_degree;
  GtkLabel *switch_hosts;
  GtkSpinButton *ports_spin;
  GtkLabel *ports_error;
  AdwPreferencesGroup *ports_group;
  AdwPreferencesGroup *host_group;
  AdwActionRow *host_switch_row;
  GtkLabel *host_switch;
  GtkLabel *host_port;
  AdwPreferencesGroup *link_group;
  AdwActionRow *link_a_row;
  AdwActionRow *link_b_row;
  AdwActionRow *channel_ab_row;
  AdwActionRow *channel_ba_row;
};

G_DEFINE_FINAL_TYPE (FlitlabSelectionPanel, flitlab_selection_panel, GTK_TYPE_WIDGET)

/* Pages are shown and hidden rather than stacked: a GtkStack would ask
 * for the width of its widest page, even hidden. */
static void
show_page (FlitlabSelectionPanel *self,
           GtkWidget             *page)
{
  GtkWidget *pages[] = {
    self->none_page, self->switch_page,
    GTK_WIDGET (self->host_group), GTK_WIDGET (self->link_group),
  };

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    gtk_widget_set_visible (pages[i], pages[i] == page);
  /* A selection keeps room for its title, its figures and its first ports
   * (the side pane's divider stops above it); with none, room for the
   * title and its hint only, which leaves the rest of a small window to the
   * tabs. */
  gtk_scrolled_window_set_min_content_height (self->scroller, page == self->none_page ? 96 : 170);
}

/* "switch 4" or "host 17": how the panel names a node. */
static char *
node_name (const FlTopology *t,
           int               node)
{
  if (fl_topology_node_kind (t, node) == FL_NODE_HOST)
    return g_strdup_printf (_("host %d"), flitlab_node_number (t, node));
  return g_strdup_printf (_("switch %d"), flitlab_node_number (t, node));
}

static void
set_label_int (GtkLabel *label,
               int       value)
{
  g_autofree char *text = g_strdup_printf ("%d", value);

  gtk_label_set_label (label, text);
}

static void
select_node_of_row (FlitlabSelectionPanel *self,
                    AdwActionRow          *row)
{
  int node = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "flitlab-node")) - 1;

  if (self->document != NULL && node >= 0)
    flitlab_document_select (self->document, node, -1);
}

/* Makes a row lead to a node when activated (node -1: to nothing). */
static void
row_set_target (AdwActionRow *row,
                int           node)
{
  g_object_set_data (G_OBJECT (row), "flitlab-node", GINT_TO_POINTER (node + 1));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), node >= 0);
}

static void
clear_port_rows (FlitlabSelectionPanel *self)
{
  for (guint i = 0; i < self->port_rows->len; i++)
    adw_preferences_group_remove (self->ports_group, g_ptr_array_index (self->port_rows, i));
  g_ptr_array_set_size (self->port_rows, 0);
}

static void
port_row_activated_cb (FlitlabSelectionPanel *self,
                       AdwActionRow          *row)
{
  select_node_of_row (self, row);
}

static void
show_ports (FlitlabSelectionPanel *self,
            const FlTopology      *t,
            int                    node)
{
  clear_port_rows (self);
  for (int p = 0; p < fl_topology_node_ports (t, node); p++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *title = g_strdup_printf (_("Port %d"), p);
      g_autofree char *subtitle = NULL;
      int peer_port, peer = fl_topology_port_peer (t, node, p, &peer_port);

      if (peer >= 0)
        {
          g_autofree char *peer_name = node_name (t, peer);
          /* Translators: "switch 5, port 2, link 17" */
          subtitle = g_strdup_printf (_("%s, port %d, link %d"), peer_name, peer_port,
                                      fl_topology_port_link (t, node, p));
        }
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle ? subtitle : _("free"));
      row_set_target (ADW_ACTION_ROW (row), peer);
      if (peer >= 0)
        adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
      g_signal_connect_object (row, "activated", G_CALLBACK (port_row_activated_cb), self, G_CONNECT_SWAPPED);
      adw_preferences_group_add (self->ports_group, row);
      g_ptr_array_add (self->port_rows, row);
    }
}

static void
show_switch (FlitlabSelectionPanel *self,
             const FlTopology      *t,
             int                    node)
{
  g_autofree char *title = g_strdup_printf (_("Switch %d"), flitlab_node_number (t, node));
  g_autoptr(GString) coords = g_string_new (NULL);
  g_autoptr(GString) hosts = g_string_new (NULL);
  int c[FL_MAX_DIMS];
  int dims = fl_topology_coord_dims (t);

  adw_preferences_group_set_title (self->switch_group, title);
  set_label_int (self->switch_rank, fl_topology_node_rank (t, node));
  set_label_int (self->switch_degree, fl_topology_switch_degree (t, node));

  if (dims > 0 && fl_topology_get_coords (t, node, c) == FL_OK)
    {
      g_string_append_c (coords, '(');
      for (int d = 0; d < dims; d++)
        g_string_append_printf (coords, d ? ", %d" : "%d", c[d]);
      g_string_append_c (coords, ')');
    }
  else
    {
      /* Translators: a switch without coordinates (drawn by hand, irregular) */
      g_string_append (coords, _("none"));
    }
  gtk_label_set_label (self->switch_coords, coords->str);

  for (int p = 0; p < fl_topology_node_ports (t, node); p++)
    {
      int peer = fl_topology_port_peer (t, node, p, NULL);

      if (peer >= 0 && fl_topology_node_kind (t, peer) == FL_NODE_HOST)
        {
          g_autofree char *name = flitlab_node_name (t, peer);

          g_string_append_printf (hosts, "%s%s", hosts->len ? ", " : "", name);
        }
    }
  gtk_label_set_label (self->switch_hosts, hosts->len ? hosts->str : _("none"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->switch_hosts), hosts->len ? hosts->str : NULL);

  self->updating = TRUE;
  gtk_spin_button_set_value (self->ports_spin, fl_topology_node_ports (t, node));
  self->updating = FALSE;

  show_ports (self, t, node);
  show_page (self, self->switch_page);
}

static void
show_host (FlitlabSelectionPanel *self,
           const FlTopology      *t,
           int                    node)
{
  g_autofree char *title = g_strdup_printf (_("Host %d"), flitlab_node_number (t, node));
  int port = -1, sw = fl_topology_port_peer (t, node, 0, &port);

  adw_preferences_group_set_title (self->host_group, title);
  row_set_target (self->host_switch_row, sw);
  if (sw >= 0)
    {
      set_label_int (self->host_switch, flitlab_node_number (t, sw));
      set_label_int (self->host_port, port);
    }
  else
    {
      /* Translators: a host not attached to any switch */
      gtk_label_set_label (self->host_switch, _("none"));
      gtk_label_set_label (self->host_port, "—");
    }
  show_page (self, GTK_WIDGET (self->host_group));
}

static void
show_link_end (AdwActionRow     *row,
               const FlTopology *t,
               int               node,
               int               port)
{
  g_autofree char *name = node_name (t, node);
  /* Translators: "switch 5, port 2" */
  g_autofree char *text = g_strdup_printf (_("%s, port %d"), name, port);

  adw_action_row_set_subtitle (row, text);
  row_set_target (row, node);
}

static void
show_channel (AdwActionRow     *row,
              const FlTopology *t,
              int               channel)
{
  g_autofree char *title = g_strdup_printf (_("Channel %d"), channel);
  g_autofree char *src = node_name (t, fl_topology_channel_src (t, channel));
  g_autofree char *dst = node_name (t, fl_topology_channel_dst (t, channel));
  g_autofree char *subtitle = g_strdup_printf ("%s → %s", src, dst);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (row, subtitle);
}

static void
show_link (FlitlabSelectionPanel *self,
           const FlTopology      *t,
           int                    link)
{
  g_autofree char *title = g_strdup_printf (_("Link %d"), link);
  int a, pa, b, pb;

  fl_topology_link_ends (t, link, &a, &pa, &b, &pb);
  adw_preferences_group_set_title (self->link_group, title);
  show_link_end (self->link_a_row, t, a, pa);
  show_link_end (self->link_b_row, t, b, pb);
  /* Channel 2l runs from end A to end B, 2l + 1 back. */
  show_channel (self->channel_ab_row, t, 2 * link);
  show_channel (self->channel_ba_row, t, 2 * link + 1);
  show_page (self, GTK_WIDGET (self->link_group));
}

static void
refresh (FlitlabSelectionPanel *self)
{
  const FlTopology *t;
  int node = -1, link = -1;

  if (self->document != NULL)
    flitlab_document_get_selection (self->document, &node, &link);
  if (node != self->node || link != self->link)
    gtk_widget_set_visible (GTK_WIDGET (self->ports_error), FALSE);
  self->node = node;
  self->link = link;
  if (self->document == NULL || (node < 0 && link < 0))
    {
      clear_port_rows (self);
      show_page (self, self->none_page);
      return;
    }
  t = flitlab_document_get_topology (self->document);
  if (node >= 0 && fl_topology_node_kind (t, node) == FL_NODE_SWITCH)
    show_switch (self, t, node);
  else if (node >= 0)
    show_host (self, t, node);
  else
    show_link (self, t, link);
}

static void
ports_changed_cb (FlitlabSelectionPanel *self,
                  GtkSpinButton         *spin)
{
  g_autoptr(GError) error = NULL;
  int node = self->node;

  if (self->updating || self->document == NULL || node < 0)
    return;
  if (flitlab_document_set_node_ports (self->document, node, gtk_spin_button_get_value_as_int (spin),
                                       &error))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->ports_error), FALSE);
      return;
    }
  /* Put the real count back and say why the change was refused. */
  gtk_label_set_label (self->ports_error, error->message);
  gtk_widget_set_visible (GTK_WIDGET (self->ports_error), TRUE);
  self->updating = TRUE;
  gtk_spin_button_set_value (spin, fl_topology_node_ports (flitlab_document_get_topology (self->document),
                                                          node));
  self->updating = FALSE;
}

static void
host_switch_activated_cb (FlitlabSelectionPanel *self,
                          AdwActionRow          *row)
{
  select_node_of_row (self, row);
}

static void
link_end_activated_cb (FlitlabSelectionPanel *self,
                       AdwActionRow          *row)
{
  select_node_of_row (self, row);
}

static void
flitlab_selection_panel_dispose (GObject *object)
{
  FlitlabSelectionPanel *self = FLITLAB_SELECTION_PANEL (object);

  flitlab_selection_panel_set_document (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_SELECTION_PANEL);
  /* The template's top box has no id, so dispose_template() leaves it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->port_rows, g_ptr_array_unref);
  G_OBJECT_CLASS (flitlab_selection_panel_parent_class)->dispose (object);
}

static void
flitlab_selection_panel_class_init (FlitlabSelectionPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_selection_panel_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flitlab/Flitlab/flitlab-selection-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, scroller);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, none_page);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, switch_page);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, switch_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, switch_rank);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, switch_coords);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, switch_degree);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, switch_hosts);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, ports_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, ports_error);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, ports_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, host_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, host_switch_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, host_switch);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, host_port);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, link_group);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, link_a_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, link_b_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, channel_ab_row);
  gtk_widget_class_bind_template_child (widget_class, FlitlabSelectionPanel, channel_ba_row);
  gtk_widget_class_bind_template_callback (widget_class, ports_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, host_switch_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, link_end_activated_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "flitlabselectionpanel");
}

static void
flitlab_selection_panel_init (FlitlabSelectionPanel *self)
{
  self->node = self->link = -1;
  self->port_rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  show_page (self, self->none_page);
}

GtkWidget *
flitlab_selection_panel_new (void)
{
  return g_object_new (FLITLAB_TYPE_SELECTION_PANEL, NULL);
}

void
flitlab_selection_panel_set_document (FlitlabSelectionPanel *self,
                                      FlitlabDocument       *document)
{
  g_return_if_fail (FLITLAB_IS_SELECTION_PANEL (self));
  g_return_if_fail (document == NULL || FLITLAB_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      g_signal_connect_swapped (document, "selection-changed", G_CALLBACK (refresh), self);
      g_signal_connect_swapped (document, "topology-edited", G_CALLBACK (refresh), self);
    }
  if (self->none_page != NULL)
    refresh (self);
}
