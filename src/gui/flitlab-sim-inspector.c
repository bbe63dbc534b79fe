/* flitlab-sim-inspector.c — a packet, a switch or a link of a simulation,
 * read through the engine's views (fl_sim_packet_view,
 * fl_sim_packet_waits, fl_sim_vc_view; fl_deflect_foreach for a message
 * of the deflection model): nothing here re-derives the simulator's
 * state. */
#include <adwaita.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-node-number.h"
#include "flitlab-sim-inspector.h"
#include "flitlab-sim-plot.h"

/* The blocking VCs listed for a packet. */
#define MAX_WAITS 16

struct _FlitlabSimInspector
{
  GtkWidget parent_instance;

  GtkWidget *plots;            /* the live plots, while there is a session */
  FlitlabSimPlot *throughput, *latency;
  AdwPreferencesGroup *group;
  FlitlabSimPlot *link_plot;   /* a link's utilization, in group */
  GtkLabel *hint;
  GPtrArray *rows;             /* the rows of group */

  FlitlabDocument *document;
  GSignalGroup *document_signals;
  FlitlabSimSession *session;
  GSignalGroup *session_signals;
  gint64 packet;
};

G_DEFINE_FINAL_TYPE (FlitlabSimInspector, flitlab_sim_inspector, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PACKET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Words ------------------------------------------------------------------------------ */

static char *
node_words (const FlTopology *t,
            int               node)
{
  if (fl_topology_node_kind (t, node) == FL_NODE_SWITCH)
    /* Translators: a switch of the network, by its number. */
    return g_strdup_printf (_("switch %d"), flitlab_node_number (t, node));
  /* Translators: a host of the network, by its number. */
  return g_strdup_printf (_("host %d"), flitlab_node_number (t, node));
}

/* "3 → 4" or "h3 → 3", a channel by the nodes at its ends. */
static char *
channel_words (const FlTopology *t,
               int               channel)
{
  return flitlab_channel_name (t, channel);
}

static const char *
stall_words (FlStall stall)
{
  switch (stall)
    {
    case FL_STALL_NO_VC:
      return _("every virtual channel its routing allows is held by another packet");
    case FL_STALL_NO_CREDIT:
      return _("the buffer downstream is full: no credit");
    case FL_STALL_ARBITRATION:
      return _("it lost the arbitration of the last cycle");
    case FL_STALL_CHANNEL:
      return _("the channel is busy or a pipeline delay has not passed");
    case FL_STALL_NONE:
    default:
      return _("nothing: it moves on in the next cycle");
    }
}

/* Rows ------------------------------------------------------------------------------- */

static void
clear_rows (FlitlabSimInspector *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    adw_preferences_group_remove (self->group, g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);
}

static GtkWidget *
add_row (FlitlabSimInspector *self,
         const char          *title,
         const char          *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
  adw_preferences_group_add (self->group, row);
  g_ptr_array_add (self->rows, row);
  return row;
}

static void
packet_row_activated (FlitlabSimInspector *self,
                      AdwActionRow        *row)
{
  flitlab_sim_inspector_set_packet (self,
                                    (gint64) GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (row), "packet")) - 1);
}

/* A row naming another packet: activating it inspects that packet. */
static void
add_packet_row (FlitlabSimInspector *self,
                const char          *title,
                const char          *subtitle,
                gint64               packet)
{
  GtkWidget *row = add_row (self, title, subtitle);

  if (packet < 0)
    return;
  g_object_set_data (G_OBJECT (row), "packet", GSIZE_TO_POINTER ((gsize) (packet + 1)));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  g_signal_connect_swapped (row, "activated", G_CALLBACK (packet_row_activated), self);
}

static void
show_title (FlitlabSimInspector *self,
            const char          *title,
            const char          *description)
{
  adw_preferences_group_set_title (self->group, title);
  adw_preferences_group_set_description (self->group, description);
}

/* The packet --------------------------------------------------------------------------- */

static char *
head_words (const FlTopology   *t,
            const FlPacketView *p)
{
  g_autofree char *node = node_words (t, p->head_node);
  g_autofree char *channel = p->head_channel >= 0 ? channel_words (t, p->head_channel) : NULL;

  switch (p->head_place)
    {
    case FL_FLIT_SOURCE_QUEUE:
      /* Translators: %s is a host. */
      return g_strdup_printf (_("queued at %s"), node);
    case FL_FLIT_LINK:
      /* Translators: the first %s is a channel such as "3 → 4", %d a virtual channel. */
      return g_strdup_printf (_("on the link %s, VC %d"), channel, p->head_vc);
    case FL_FLIT_BUFFER:
    default:
      /* Translators: %s is a switch or host, then a channel such as "3 → 4", %d a virtual channel. */
      return g_strdup_printf (_("in the buffer of %s at the end of %s, VC %d"), node, channel, p->head_vc);
    }
}

static void
show_waits (FlitlabSimInspector *self,
            const FlTopology    *t,
            const FlSim         *sim,
            const FlPacketView  *p)
{
  FlVcView waits[MAX_WAITS];
  int n = 0;
  FlError err;

  if (p->stall == FL_STALL_NONE && p->ahead >= 0)
    {
      g_autofree char *ahead = g_strdup_printf (_("Packet %" PRId64), p->ahead);

      add_packet_row (self, _("Waits behind"), ahead, p->ahead);
      return;
    }
  add_row (self, _("Waits for"), stall_words (p->stall));
  if (p->stall == FL_STALL_NONE || fl_sim_packet_waits (sim, p->packet, waits, MAX_WAITS, &n, &err) != FL_OK)
    return;
  for (int i = 0; i < MIN (n, MAX_WAITS); i++)
    {
      g_autofree char *channel = channel_words (t, waits[i].channel);
      /* Translators: a virtual channel: a channel such as "3 → 4" and the VC's number. */
      g_autofree char *title = g_strdup_printf (_("%s, VC %d"), channel, waits[i].vc);
      gint64 holder = waits[i].owner_packet >= 0 && waits[i].owner_packet != p->packet ? waits[i].owner_packet
                                                                                      : waits[i].front_packet;
      g_autofree char *subtitle = NULL;

      if (holder >= 0 && holder != p->packet)
        /* Translators: %s is a packet number; then the flits in the buffer and its slots. */
        subtitle = g_strdup_printf (_("held by packet %" PRId64 "; %d of %d slots full"), holder,
                                    waits[i].flits_buffered + waits[i].flits_on_link, waits[i].capacity);
      else
        subtitle = g_strdup_printf (_("%d of %d slots full"), waits[i].flits_buffered + waits[i].flits_on_link,
                                    waits[i].capacity);
      add_packet_row (self, title, subtitle, holder != p->packet ? holder : -1);
    }
  if (n > MAX_WAITS)
    add_row (self, _("And more"), NULL);
}

static gboolean
show_packet (FlitlabSimInspector *self)
{
  const FlSim *sim = flitlab_sim_session_get_sim (self->session);
  const FlTopology *t = flitlab_sim_session_get_topology (self->session);
  g_autofree char *title = g_strdup_printf (_("Packet %" PRId64), self->packet);
  g_autofree char *from = NULL, *to = NULL, *ends = NULL, *age = NULL, *flits = NULL, *head = NULL;
  g_autofree char *hops = NULL;
  FlPacketView p;
  FlError err;

  if (fl_sim_packet_view (sim, self->packet, &p, &err) != FL_OK)
    {
      show_title (self, title, _("Delivered, or not made yet at this cycle."));
      return TRUE;
    }
  from = node_words (t, fl_topology_host_node (t, p.src_host));
  to = node_words (t, fl_topology_host_node (t, p.dst_host));
  /* Translators: "from host 3 to host 12". */
  ends = g_strdup_printf (_("from %s to %s"), from, to);
  show_title (self, title, ends);
  /* Translators: a packet's age in cycles, then the cycle it was made. */
  age = g_strdup_printf (_("%" PRId64 " cycles, made at cycle %" PRId64),
                         fl_sim_cycle (sim) - p.created, p.created);
  add_row (self, _("Age"), age);
  hops = g_strdup_printf ("%d", p.hops);
  add_row (self, _("Switches crossed"), hops);
  /* Translators: a packet's length, flits that left its source and flits delivered. */
  flits = g_strdup_printf (_("%d: %d sent, %d delivered"), p.flits, p.flits_sent, p.flits_delivered);
  add_row (self, _("Flits"), flits);
  head = head_words (t, &p);
  add_row (self, _("Head"), head);
  show_waits (self, t, sim, &p);
  return TRUE;
}

/* A switch --------------------------------------------------------------------------------- */

/* Each VC of the channel into a node: its flits, its packet and the output
 * that packet holds, and the credits its sender has. */
static void
show_input (FlitlabSimInspector *self,
            const FlTopology    *t,
            const FlSim         *sim,
            int                  channel)
{
  g_autofree char *from = node_words (t, fl_topology_channel_src (t, channel));
  /* Translators: an input of a switch, by the node it comes from. */
  g_autofree char *title = g_strdup_printf (_("Input from %s"), from);
  g_autoptr(GString) lines = g_string_new (NULL);

  for (int v = 0; v < fl_sim_vcs (sim); v++)
    {
      FlVcView vc;
      FlError err;

      if (fl_sim_vc_view (sim, channel, v, &vc, &err) != FL_OK)
        continue;
      if (lines->len > 0)
        g_string_append_c (lines, '\n');
      /* Translators: a VC, its flits and slots. */
      g_string_append_printf (lines, _("VC %d: %d/%d flits"), v, vc.flits_buffered + vc.flits_on_link, vc.capacity);
      if (vc.front_packet >= 0)
        g_string_append_printf (lines, _(", packet %" PRId64), vc.front_packet);
      if (vc.out_channel >= 0)
        {
          g_autofree char *out = channel_words (t, vc.out_channel);

          /* Translators: the output granted: a channel such as "3 → 4" and a VC. */
          g_string_append_printf (lines, _(" → %s VC %d"), out, vc.out_vc);
        }
      if (vc.credits >= 0)
        g_string_append_printf (lines, _("; sender has %d credits"), vc.credits);
    }
  add_row (self, title, lines->str);
}

static void
show_switch (FlitlabSimInspector *self,
             int                  node)
{
  const FlSim *sim = flitlab_sim_session_get_sim (self->session);
  const FlTopology *t = flitlab_sim_session_get_topology (self->session);
  g_autofree char *title = node_words (t, node);

  title[0] = g_ascii_toupper (title[0]);
  show_title (self, title, _("Every input's virtual channels"));
  for (int c = 0; c < fl_topology_channel_count (t); c++)
    if (fl_topology_channel_dst (t, c) == node)
      show_input (self, t, sim, c);
}

/* A link --------------------------------------------------------------------------------- */

static void
show_link (FlitlabSimInspector *self,
           int                  link)
{
  const FlSim *sim = flitlab_sim_session_get_sim (self->session);
  const FlTopology *t = flitlab_sim_session_get_topology (self->session);
  g_autofree char *ab = channel_words (t, 2 * link);
  /* Translators: a link by its channels, e.g. "Link 3 → 4 and back". */
  g_autofree char *title = g_strdup_printf (_("Link %s and back"), ab);

  show_title (self, title, _("Each channel's utilization over time, and its virtual channels"));
  flitlab_sim_plot_set_link (self->link_plot, link);
  gtk_widget_set_visible (GTK_WIDGET (self->link_plot), TRUE);
  for (int end = 0; end < 2; end++)
    show_input (self, t, sim, 2 * link + end);
}

/* The deflection model ---------------------------------------------------------------------- */

/* The messages at a node: the one named, the ones waiting at it, the ones
 * that arrived there (or crossed channel c) in the last cycle. */
typedef struct
{
  gint64 message;
  int node, channel;
  FlDeflectView found;
  GArray *waiting, *arrived;
} MessageSearch;

static void
search_message (void                *user_data,
                const FlDeflectView *m)
{
  MessageSearch *search = user_data;

  if (m->message == search->message)
    search->found = *m;
  if (m->channel < 0 && m->src == search->node)
    g_array_append_val (search->waiting, *m);
  else if (m->channel >= 0 && (m->node == search->node || m->channel == search->channel))
    g_array_append_val (search->arrived, *m);
}

static void
search_messages (FlitlabSimInspector *self,
                 MessageSearch       *search,
                 gint64               message,
                 int                  node,
                 int                  channel)
{
  memset (search, 0, sizeof *search);
  search->message = message;
  search->node = node;
  search->channel = channel;
  search->found.message = -1;
  search->waiting = g_array_new (FALSE, FALSE, sizeof (FlDeflectView));
  search->arrived = g_array_new (FALSE, FALSE, sizeof (FlDeflectView));
  fl_deflect_foreach (flitlab_sim_session_get_deflect (self->session), search_message, search);
}

static void
search_clear (MessageSearch *search)
{
  g_array_unref (search->waiting);
  g_array_unref (search->arrived);
}

/* Where a message is between two cycles, in words. */
static char *
message_place_words (const FlTopology    *t,
                     const FlDeflectView *m)
{
  g_autofree char *node = node_words (t, m->node);
  g_autofree char *channel = NULL;

  if (m->channel < 0)
    /* Translators: %s is a switch. */
    return g_strdup_printf (_("waiting at %s to be sent"), node);
  channel = channel_words (t, m->channel);
  if (m->deflected)
    /* Translators: %s is a switch, then a channel such as "3 → 4". */
    return g_strdup_printf (_("at %s, deflected there over %s in the last cycle"), node, channel);
  /* Translators: %s is a switch, then a channel such as "3 → 4". */
  return g_strdup_printf (_("at %s, reached over %s on a shortest path"), node, channel);
}

/* A row per message, each leading to it. */
static void
add_message_rows (FlitlabSimInspector *self,
                  const FlTopology    *t,
                  const char          *title,
                  GArray              *messages)
{
  for (guint i = 0; i < messages->len; i++)
    {
      const FlDeflectView *m = &g_array_index (messages, FlDeflectView, i);
      g_autofree char *to = node_words (t, m->dst);
      /* Translators: a message by its number, then where it goes. */
      g_autofree char *subtitle = g_strdup_printf (_("message %" PRId64 " to %s%s"), m->message, to,
                                                   m->deflected ? _(", deflected") : "");

      add_packet_row (self, title, subtitle, m->message);
    }
}

static void
show_message (FlitlabSimInspector *self)
{
  const FlTopology *t = flitlab_sim_session_get_topology (self->session);
  gint64 cycle = flitlab_sim_session_get_cycle (self->session);
  g_autofree char *title = g_strdup_printf (_("Message %" PRId64), self->packet);
  g_autofree char *from = NULL, *to = NULL, *ends = NULL, *age = NULL, *hops = NULL, *deflections = NULL;
  g_autofree char *place = NULL;
  MessageSearch search;
  const FlDeflectView *m = &search.found;

  search_messages (self, &search, self->packet, -1, -1);
  if (m->message < 0)
    {
      show_title (self, title, _("Delivered, or not made yet at this cycle."));
      search_clear (&search);
      return;
    }
  from = node_words (t, m->src);
  to = node_words (t, m->dst);
  ends = g_strdup_printf (_("from %s to %s"), from, to);
  show_title (self, title, ends);
  age = g_strdup_printf (_("%" PRId64 " cycles, made at cycle %" PRId64), cycle - m->created,
                         m->created);
  add_row (self, _("Age"), age);
  hops = g_strdup_printf ("%d", m->hops);
  add_row (self, _("Hops"), hops);
  deflections = g_strdup_printf ("%d", m->deflections);
  add_row (self, _("Deflections so far"), deflections);
  place = message_place_words (t, m);
  add_row (self, _("Where"), place);
  search_clear (&search);
}

/* A switch of the deflection model: the messages waiting to leave it and
 * the ones that reached it in the last cycle. */
static void
show_deflect_switch (FlitlabSimInspector *self,
                     int                  node)
{
  const FlTopology *t = flitlab_sim_session_get_topology (self->session);
  g_autofree char *title = node_words (t, node);
  g_autofree char *waiting = NULL;
  MessageSearch search;

  title[0] = g_ascii_toupper (title[0]);
  show_title (self, title, _("The messages waiting here and those that arrived in the last cycle"));
  search_messages (self, &search, -1, node, -1);
  waiting = g_strdup_printf ("%u", search.waiting->len);
  add_row (self, _("Waiting to be sent"), waiting);
  add_message_rows (self, t, _("Arrived"), search.arrived);
  search_clear (&search);
}

/* A link of the deflection model: the message on each channel, if any. */
static void
show_deflect_link (FlitlabSimInspector *self,
                   int                  link)
{
  const FlTopology *t = flitlab_sim_session_get_topology (self->session);
  g_autofree char *ab = channel_words (t, 2 * link);
  g_autofree char *title = g_strdup_printf (_("Link %s and back"), ab);

  show_title (self, title, _("The messages that crossed it in the last cycle"));
  for (int end = 0; end < 2; end++)
    {
      g_autofree char *channel = channel_words (t, 2 * link + end);
      MessageSearch search;

      search_messages (self, &search, -1, -1, 2 * link + end);
      if (search.arrived->len == 0)
        add_row (self, channel, _("no message"));
      add_message_rows (self, t, channel, search.arrived);
      search_clear (&search);
    }
}

/* Updating ------------------------------------------------------------------------------- */

static void
show_hint (FlitlabSimInspector *self,
           const char          *hint)
{
  show_title (self, _("Inspector"), NULL);
  gtk_label_set_text (self->hint, hint);
  gtk_widget_set_visible (GTK_WIDGET (self->hint), TRUE);
}

static void
update (FlitlabSimInspector *self)
{
  const FlTopology *t;
  int node = -1, link = -1;
  gboolean deflect;

  clear_rows (self);
  gtk_widget_set_visible (GTK_WIDGET (self->link_plot), FALSE);
  gtk_widget_set_visible (self->plots, self->session != NULL);
  if (self->session == NULL)
    {
      show_hint (self, _("Press Play under the drawing to watch the network simulated."));
      return;
    }
  t = flitlab_sim_session_get_topology (self->session);
  deflect = flitlab_sim_session_get_deflect (self->session) != NULL;
  flitlab_document_get_selection (self->document, &node, &link);
  gtk_widget_set_visible (GTK_WIDGET (self->hint), FALSE);
  /* The deflection model's messages, switches and links, or the
   * simulator's packets, switches and links. */
  if (self->packet >= 0 && deflect)
    show_message (self);
  else if (self->packet >= 0)
    show_packet (self);
  else if (node >= 0 && node < fl_topology_node_count (t) && fl_topology_node_kind (t, node) == FL_NODE_SWITCH)
    (deflect ? show_deflect_switch : show_switch) (self, node);
  else if (link >= 0 && link < fl_topology_link_count (t))
    (deflect ? show_deflect_link : show_link) (self, link);
  else if (deflect)
    show_hint (self, _("Click a message, a switch or a link in the drawing to see where it goes and how often "
                       "it was deflected."));
  else
    show_hint (self, _("Click a packet, a switch or a link in the drawing to see what it holds "
                       "and what it waits for."));
}

static void
session_changed (FlitlabSimInspector *self)
{
  FlitlabSimSession *session = self->document != NULL ? flitlab_document_get_simulation (self->document) : NULL;

  if (session != self->session)
    {
      g_set_object (&self->session, session);
      g_signal_group_set_target (self->session_signals, session);
      flitlab_sim_plot_set_session (self->throughput, session);
      flitlab_sim_plot_set_session (self->latency, session);
      flitlab_sim_plot_set_session (self->link_plot, session);
      flitlab_sim_inspector_set_packet (self, -1);
    }
  update (self);
}

/* A node or link clicked is inspected rather than the packet. */
static void
selection_changed (FlitlabSimInspector *self)
{
  int node = -1, link = -1;

  flitlab_document_get_selection (self->document, &node, &link);
  if (node >= 0 || link >= 0)
    flitlab_sim_inspector_set_packet (self, -1);
  update (self);
}

void
flitlab_sim_inspector_set_document (FlitlabSimInspector *self,
                                    FlitlabDocument     *document)
{
  g_return_if_fail (FLITLAB_IS_SIM_INSPECTOR (self));

  if (!g_set_object (&self->document, document))
    return;
  g_signal_group_set_target (self->document_signals, document);
  session_changed (self);
}

void
flitlab_sim_inspector_set_packet (FlitlabSimInspector *self,
                                  gint64               packet)
{
  g_return_if_fail (FLITLAB_IS_SIM_INSPECTOR (self));

  packet = MAX (packet, -1);
  if (packet == self->packet)
    return;
  self->packet = packet;
  if (packet >= 0 && self->document != NULL)
    flitlab_document_select (self->document, -1, -1);
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PACKET]);
}

gint64
flitlab_sim_inspector_get_packet (FlitlabSimInspector *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_INSPECTOR (self), -1);

  return self->packet;
}

int
flitlab_sim_inspector_get_plot_points (FlitlabSimInspector *self)
{
  g_return_val_if_fail (FLITLAB_IS_SIM_INSPECTOR (self), 0);

  return flitlab_sim_plot_get_n_points (self->throughput);
}

char *
flitlab_sim_inspector_describe (FlitlabSimInspector *self)
{
  GString *text = g_string_new (adw_preferences_group_get_title (self->group));

  for (guint i = 0; i < self->rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->rows, i);

      g_string_append_printf (text, "\n%s: %s", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)),
                              adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
    }
  return g_string_free (text, FALSE);
}

/* The widget ------------------------------------------------------------------------------ */

GtkWidget *
flitlab_sim_inspector_new (void)
{
  return g_object_new (FLITLAB_TYPE_SIM_INSPECTOR, NULL);
}

static void
flitlab_sim_inspector_dispose (GObject *object)
{
  FlitlabSimInspector *self = FLITLAB_SIM_INSPECTOR (object);
  GtkWidget *child;

  g_signal_group_set_target (self->document_signals, NULL);
  g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->document);
  g_clear_object (&self->session);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (flitlab_sim_inspector_parent_class)->dispose (object);
}

static void
flitlab_sim_inspector_finalize (GObject *object)
{
  FlitlabSimInspector *self = FLITLAB_SIM_INSPECTOR (object);

  g_clear_object (&self->document_signals);
  g_clear_object (&self->session_signals);
  g_ptr_array_unref (self->rows);
  G_OBJECT_CLASS (flitlab_sim_inspector_parent_class)->finalize (object);
}

static void
flitlab_sim_inspector_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  FlitlabSimInspector *self = FLITLAB_SIM_INSPECTOR (object);

  switch (prop_id)
    {
    case PROP_PACKET:
      g_value_set_int64 (value, self->packet);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_sim_inspector_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  FlitlabSimInspector *self = FLITLAB_SIM_INSPECTOR (object);

  switch (prop_id)
    {
    case PROP_PACKET:
      flitlab_sim_inspector_set_packet (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_sim_inspector_class_init (FlitlabSimInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_sim_inspector_dispose;
  object_class->finalize = flitlab_sim_inspector_finalize;
  object_class->get_property = flitlab_sim_inspector_get_property;
  object_class->set_property = flitlab_sim_inspector_set_property;

  properties[PROP_PACKET] =
    g_param_spec_int64 ("packet", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "siminspector");
}

static void
flitlab_sim_inspector_init (FlitlabSimInspector *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  self->packet = -1;
  self->rows = g_ptr_array_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  self->plots = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->throughput = FLITLAB_SIM_PLOT (flitlab_sim_plot_new (FLITLAB_SIM_PLOT_THROUGHPUT));
  self->latency = FLITLAB_SIM_PLOT (flitlab_sim_plot_new (FLITLAB_SIM_PLOT_LATENCY));
  gtk_box_append (GTK_BOX (self->plots), GTK_WIDGET (self->throughput));
  gtk_box_append (GTK_BOX (self->plots), GTK_WIDGET (self->latency));
  gtk_box_append (GTK_BOX (box), self->plots);
  self->group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  self->link_plot = FLITLAB_SIM_PLOT (flitlab_sim_plot_new (FLITLAB_SIM_PLOT_LINK));
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->link_plot), 6);
  adw_preferences_group_add (self->group, GTK_WIDGET (self->link_plot));
  self->hint = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->hint, TRUE);
  gtk_label_set_xalign (self->hint, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->hint), "dim-label");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->group));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->hint));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_widget_set_parent (scroller, GTK_WIDGET (self));

  self->document_signals = g_signal_group_new (FLITLAB_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::simulation", G_CALLBACK (session_changed), self);
  g_signal_group_connect_swapped (self->document_signals, "selection-changed", G_CALLBACK (selection_changed),
                                  self);
  self->session_signals = g_signal_group_new (FLITLAB_TYPE_SIM_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "stepped", G_CALLBACK (update), self);
  update (self);
}
