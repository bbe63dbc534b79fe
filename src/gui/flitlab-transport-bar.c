/* flitlab-transport-bar.c — play, pause, step and seek a simulation. */
#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "flitlab-menu-tooltip.h"
#include "flitlab-routed.h"
#include "flitlab-transport-bar.h"

/* The speeds offered, cycles per second; 0 is as fast as the machine goes. */
static const double speeds[] = { 1, 2, 5, 10, 20, 50, 100, 1000, 0 };
#define DEFAULT_SPEED_INDEX 5

/* What the line under the bar says, and so when it goes. */
typedef enum {
  MESSAGE_NONE,
  MESSAGE_NOTE,       /* what to watch for: stays until another network */
  MESSAGE_ERROR,      /* why a simulation did not start or step */
  MESSAGE_DEADLOCK,   /* goes once the run is back before the deadlock */
} MessageKind;

struct _FlitlabTransportBar
{
  GtkWidget parent_instance;

  /* Template children. */
  GtkWidget *box;
  GtkWidget *play_button;
  GtkMenuButton *menu_button;
  GtkSpinButton *step_spin;      /* in the menu */
  GtkScale *scale;
  GtkAdjustment *scale_adjustment;
  GtkLabel *cycle_label;
  GtkDropDown *speed_dropdown;
  GtkLabel *status_label;

  FlitlabDocument *document;
  GSignalGroup *document_signals;
  FlitlabSimSession *session;    /* the document's, while shown */
  GSignalGroup *session_signals;
  gboolean updating_scale;       /* the bar moves the slider, not the user */
  char *message;
  MessageKind message_kind;
  int flit_colour;               /* an FlDrawFlitColour */
  gboolean heat_map;
};

G_DEFINE_FINAL_TYPE (FlitlabTransportBar, flitlab_transport_bar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_SPEED,
  PROP_FLIT_COLOUR,
  PROP_HEAT_MAP,
  PROP_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_message (FlitlabTransportBar *self,
             MessageKind          kind,
             const char          *message)
{
  const char *style = kind == MESSAGE_ERROR || kind == MESSAGE_DEADLOCK ? "error" : NULL;

  self->message_kind = message != NULL ? kind : MESSAGE_NONE;
  if (g_strcmp0 (message, self->message) == 0)
    return;
  g_free (self->message);
  self->message = g_strdup (message);
  gtk_label_set_text (self->status_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), message != NULL);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "warning");
  if (style != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), style);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
}

/* The deadlock, in words, once the watchdog has stopped the run. */
static void
show_deadlock (FlitlabTransportBar *self)
{
  const FlSim *sim = flitlab_sim_session_get_sim (self->session);
  g_autofree char *sentence = NULL;
  g_autofree char *text = NULL;
  int *channels = NULL;
  int n = 0;
  FlError err;

  if (fl_sim_deadlock_cycle (sim, &channels, &n, &err) != FL_OK)
    n = 0;
  sentence = flitlab_describe_deadlock (flitlab_sim_session_get_topology (self->session), channels, n);
  free (channels);
  /* Translators: a cycle number, then a sentence naming the cycle. */
  text = g_strdup_printf (_("Deadlock found at cycle %'" PRId64 ". %s"),
                          flitlab_sim_session_get_cycle (self->session), sentence);
  set_message (self, MESSAGE_DEADLOCK, text);
}

static void
update (FlitlabTransportBar *self)
{
  gboolean shown = self->document != NULL;
  gboolean playing = self->session != NULL && flitlab_sim_session_get_playing (self->session);
  gint64 cycle = self->session != NULL ? flitlab_sim_session_get_cycle (self->session) : 0;
  gint64 max = self->session != NULL ? flitlab_sim_session_get_max_cycle (self->session) : 0;
  FlSimStatus status = self->session != NULL ? flitlab_sim_session_get_status (self->session) : FL_SIM_RUNNING;
  g_autofree char *counter = NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transport.play", shown);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transport.step", shown && status == FL_SIM_RUNNING);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transport.step-n", shown && status == FL_SIM_RUNNING);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transport.back", self->session != NULL && cycle > 0);
  gtk_button_set_icon_name (GTK_BUTTON (self->play_button),
                            playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (self->play_button, playing ? _("Pause (Space)") : _("Play (Space)"));

  self->updating_scale = TRUE;
  gtk_adjustment_configure (self->scale_adjustment, (double) cycle, 0, (double) MAX (max, 1), 1,
                            MAX (1.0, (double) max / 20), 0);
  self->updating_scale = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->scale), self->session != NULL && max > 0);

  /* Translators: the simulated time shown; %s is the cycle number. */
  counter = g_strdup_printf (_("cycle %'" PRId64), cycle);
  gtk_label_set_text (self->cycle_label, counter);

  if (self->session != NULL && status == FL_SIM_DEADLOCK)
    show_deadlock (self);
  else if (self->message_kind == MESSAGE_DEADLOCK)
    set_message (self, MESSAGE_NONE, NULL);
}

static void
session_changed (FlitlabTransportBar *self)
{
  FlitlabSimSession *session = self->document != NULL ? flitlab_document_get_simulation (self->document) : NULL;

  if (session == self->session)
    return;
  g_set_object (&self->session, session);
  g_signal_group_set_target (self->session_signals, session);
  if (session != NULL)
    flitlab_sim_session_set_speed (session, speeds[gtk_drop_down_get_selected (self->speed_dropdown)]);
  update (self);
}

static void
session_failed (FlitlabTransportBar *self,
                const GError        *error)
{
  set_message (self, MESSAGE_ERROR, error->message);
}

/* Actions ------------------------------------------------------------------------- */

/* The document's simulation, started if there is none. */
static FlitlabSimSession *
ensure_session (FlitlabTransportBar *self)
{
  g_autoptr(GError) error = NULL;

  if (self->document == NULL)
    return NULL;
  if (self->session != NULL)
    return self->session;
  if (flitlab_document_watch (self->document, &error) == NULL)
    {
      set_message (self, MESSAGE_ERROR, error->message);
      return NULL;
    }
  if (self->message_kind == MESSAGE_ERROR)
    set_message (self, MESSAGE_NONE, NULL);
  /* notify::simulation has set self->session. */
  return self->session;
}

void
flitlab_transport_bar_play_pause (FlitlabTransportBar *self)
{
  FlitlabSimSession *session;

  g_return_if_fail (FLITLAB_IS_TRANSPORT_BAR (self));

  session = ensure_session (self);
  if (session == NULL)
    return;
  if (flitlab_sim_session_get_status (session) != FL_SIM_RUNNING && !flitlab_sim_session_get_playing (session))
    return;
  flitlab_sim_session_set_playing (session, !flitlab_sim_session_get_playing (session));
  update (self);
}

void
flitlab_transport_bar_step (FlitlabTransportBar *self,
                            gint64               n)
{
  FlitlabSimSession *session;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_return_if_fail (FLITLAB_IS_TRANSPORT_BAR (self));

  session = ensure_session (self);
  if (session == NULL)
    return;
  flitlab_sim_session_set_playing (session, FALSE);
  if (n >= 0)
    ok = flitlab_sim_session_step (session, n, &error);
  else
    ok = flitlab_sim_session_seek (session, MAX (0, flitlab_sim_session_get_cycle (session) + n), &error);
  if (!ok)
    set_message (self, MESSAGE_ERROR, error->message);
  update (self);
}

static void
play_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  flitlab_transport_bar_play_pause (FLITLAB_TRANSPORT_BAR (widget));
}

static void
step_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  FlitlabTransportBar *self = FLITLAB_TRANSPORT_BAR (widget);

  if (g_str_equal (name, "transport.step-n"))
    flitlab_transport_bar_step (self, gtk_spin_button_get_value_as_int (self->step_spin));
  else
    flitlab_transport_bar_step (self, g_str_equal (name, "transport.back") ? -1 : 1);
}

/* The user moved the slider: go there. */
static void
scale_changed (FlitlabTransportBar *self)
{
  g_autoptr(GError) error = NULL;

  if (self->updating_scale || self->session == NULL)
    return;
  flitlab_sim_session_set_playing (self->session, FALSE);
  if (!flitlab_sim_session_seek (self->session, (gint64) gtk_adjustment_get_value (self->scale_adjustment),
                                 &error))
    set_message (self, MESSAGE_ERROR, error->message);
  update (self);
}

static void
speed_changed (FlitlabTransportBar *self)
{
  if (self->session != NULL)
    flitlab_sim_session_set_speed (self->session, speeds[gtk_drop_down_get_selected (self->speed_dropdown)]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

void
flitlab_transport_bar_set_speed (FlitlabTransportBar *self,
                                 double               cycles_per_second)
{
  guint best = G_N_ELEMENTS (speeds) - 1;

  g_return_if_fail (FLITLAB_IS_TRANSPORT_BAR (self));

  /* The nearest speed offered, on a log scale. */
  if (cycles_per_second > 0)
    for (guint i = 0; i + 1 < G_N_ELEMENTS (speeds); i++)
      if (best == G_N_ELEMENTS (speeds) - 1 || fabs (log (speeds[i] / cycles_per_second))
                                                  < fabs (log (speeds[best] / cycles_per_second)))
        best = i;
  gtk_drop_down_set_selected (self->speed_dropdown, best);
}

void
flitlab_transport_bar_set_note (FlitlabTransportBar *self,
                                const char          *note)
{
  g_return_if_fail (FLITLAB_IS_TRANSPORT_BAR (self));

  set_message (self, MESSAGE_NOTE, note);
}

const char *
flitlab_transport_bar_get_message (FlitlabTransportBar *self)
{
  g_return_val_if_fail (FLITLAB_IS_TRANSPORT_BAR (self), NULL);

  return self->message;
}

void
flitlab_transport_bar_set_document (FlitlabTransportBar *self,
                                    FlitlabDocument     *document)
{
  g_return_if_fail (FLITLAB_IS_TRANSPORT_BAR (self));
  g_return_if_fail (document == NULL || FLITLAB_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;
  g_signal_group_set_target (self->document_signals, document);
  set_message (self, MESSAGE_NONE, NULL);
  session_changed (self);
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

FlitlabDocument *
flitlab_transport_bar_get_document (FlitlabTransportBar *self)
{
  g_return_val_if_fail (FLITLAB_IS_TRANSPORT_BAR (self), NULL);

  return self->document;
}

/* The widget ---------------------------------------------------------------------- */

GtkWidget *
flitlab_transport_bar_new (void)
{
  return g_object_new (FLITLAB_TYPE_TRANSPORT_BAR, NULL);
}

GListModel *
flitlab_transport_bar_speed_names (void)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (speeds); i++)
    {
      g_autofree char *name = NULL;

      if (speeds[i] == 0)
        name = g_strdup (_("Fastest"));
      else
        /* Translators: a playing speed, %g cycles of simulated time per second. */
        name = g_strdup_printf (ngettext ("%g cycle/s", "%g cycles/s", (gulong) speeds[i]), speeds[i]);
      gtk_string_list_append (list, name);
    }
  return G_LIST_MODEL (list);
}

double
flitlab_transport_bar_speed_at (guint position)
{
  return position < G_N_ELEMENTS (speeds) ? speeds[position] : speeds[DEFAULT_SPEED_INDEX];
}

static void
flitlab_transport_bar_dispose (GObject *object)
{
  FlitlabTransportBar *self = FLITLAB_TRANSPORT_BAR (object);

  if (self->session != NULL)
    flitlab_sim_session_set_playing (self->session, FALSE);
  g_signal_group_set_target (self->document_signals, NULL);
  g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->document);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_TRANSPORT_BAR);
  G_OBJECT_CLASS (flitlab_transport_bar_parent_class)->dispose (object);
}

static void
flitlab_transport_bar_finalize (GObject *object)
{
  FlitlabTransportBar *self = FLITLAB_TRANSPORT_BAR (object);

  g_clear_object (&self->document_signals);
  g_clear_object (&self->session_signals);
  g_free (self->message);
  G_OBJECT_CLASS (flitlab_transport_bar_parent_class)->finalize (object);
}

static void
flitlab_transport_bar_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  FlitlabTransportBar *self = FLITLAB_TRANSPORT_BAR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_SPEED:
      g_value_set_double (value, speeds[gtk_drop_down_get_selected (self->speed_dropdown)]);
      break;
    case PROP_FLIT_COLOUR:
      g_value_set_int (value, self->flit_colour);
      break;
    case PROP_HEAT_MAP:
      g_value_set_boolean (value, self->heat_map);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_transport_bar_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  FlitlabTransportBar *self = FLITLAB_TRANSPORT_BAR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      flitlab_transport_bar_set_document (self, g_value_get_object (value));
      break;
    case PROP_SPEED:
      flitlab_transport_bar_set_speed (self, g_value_get_double (value));
      break;
    case PROP_FLIT_COLOUR:
      if (self->flit_colour != g_value_get_int (value))
        {
          self->flit_colour = g_value_get_int (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_HEAT_MAP:
      if (self->heat_map != g_value_get_boolean (value))
        {
          self->heat_map = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_transport_bar_class_init (FlitlabTransportBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = flitlab_transport_bar_dispose;
  object_class->finalize = flitlab_transport_bar_finalize;
  object_class->get_property = flitlab_transport_bar_get_property;
  object_class->set_property = flitlab_transport_bar_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, FLITLAB_TYPE_DOCUMENT, rw);
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0, G_MAXDOUBLE, speeds[DEFAULT_SPEED_INDEX], rw);
  /* An FlDrawFlitColour. */
  properties[PROP_FLIT_COLOUR] =
    g_param_spec_int ("flit-colour", NULL, NULL, 0, 2, 0, rw);
  properties[PROP_HEAT_MAP] =
    g_param_spec_boolean ("heat-map", NULL, NULL, FALSE, rw);
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flitlab/Flitlab/flitlab-transport-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabTransportBar, box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabTransportBar, play_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabTransportBar, menu_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabTransportBar, scale);
  gtk_widget_class_bind_template_child (widget_class, FlitlabTransportBar, scale_adjustment);
  gtk_widget_class_bind_template_child (widget_class, FlitlabTransportBar, cycle_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabTransportBar, speed_dropdown);
  gtk_widget_class_bind_template_child (widget_class, FlitlabTransportBar, status_label);

  gtk_widget_class_install_action (widget_class, "transport.play", NULL, play_action);
  gtk_widget_class_install_action (widget_class, "transport.step", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "transport.back", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "transport.step-n", NULL, step_action);
  gtk_widget_class_install_property_action (widget_class, "transport.flit-colour", "flit-colour");
  gtk_widget_class_install_property_action (widget_class, "transport.heat-map", "heat-map");

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "transportbar");
}

static void
flitlab_transport_bar_init (FlitlabTransportBar *self)
{
  g_autoptr(GListModel) speed_list = flitlab_transport_bar_speed_names ();

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  /* The step size sits in the menu: the bar must fit beside the panels. */
  self->step_spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, 1000000, 10));
  gtk_spin_button_set_value (self->step_spin, 100);
  gtk_widget_set_margin_start (GTK_WIDGET (self->step_spin), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->step_spin), 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->step_spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Cycles that Step Forward Many skips"), -1);
  flitlab_menu_button_quiet_tooltip (self->menu_button);
  gtk_popover_menu_add_child (GTK_POPOVER_MENU (gtk_menu_button_get_popover (self->menu_button)),
                              GTK_WIDGET (self->step_spin), "step-size");
  gtk_drop_down_set_model (self->speed_dropdown, speed_list);
  gtk_drop_down_set_selected (self->speed_dropdown, DEFAULT_SPEED_INDEX);

  g_signal_connect_swapped (self->scale_adjustment, "value-changed", G_CALLBACK (scale_changed), self);
  g_signal_connect_swapped (self->speed_dropdown, "notify::selected", G_CALLBACK (speed_changed), self);

  self->document_signals = g_signal_group_new (FLITLAB_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "notify::simulation", G_CALLBACK (session_changed),
                                  self);
  self->session_signals = g_signal_group_new (FLITLAB_TYPE_SIM_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (self->session_signals, "failed", G_CALLBACK (session_failed), self);
  update (self);
}
