/* flitlab-window.c — the main window: the open project (a session of
 * documents), the document shown, and the work done for it off the main
 * loop.
 *
 * The document shown holds the topology being edited; the project holds
 * the last committed copy of it. Edits are committed (and re-measured)
 * after a short pause, and always before the project is saved or another
 * topology is shown, so nothing the user drew is lost. The routing the
 * document asks for is rebuilt for the network after the same pause, and
 * at once when the routing or its options change. Every worker runs
 * through the window's FlitlabWorkers.
 */
#include <glib/gi18n.h>
#include <string.h>

#include "flitlab-alert.h"
#include "flitlab-preferences.h"
#include "flitlab-window-private.h"

/* How long the user must pause editing before the network is committed,
 * measured and routed again. */
#define EDIT_DEBOUNCE_MS 300
/* The most nodes a network the window generates may have: storing one in
 * the project, drawing and editing it happen on the main loop, and beyond
 * this they would stall the window for seconds (a 1024x1024 mesh for over
 * a minute). The command line takes the engine's limits. */
#define MAX_WINDOW_NODES 65536

G_DEFINE_FINAL_TYPE (FlitlabWindow, flitlab_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

FlitlabWindow *
flitlab_window_new (FlitlabApplication *application)
{
  return g_object_new (FLITLAB_TYPE_WINDOW, "application", application, NULL);
}

void
flitlab_window_toast (FlitlabWindow *self,
                      const char    *message)
{
  /* Toast titles are Pango markup, and messages name files and topologies
   * that may hold '&' or '<'. */
  g_autofree char *escaped = g_markup_escape_text (message, -1);
  AdwToast *toast = adw_toast_new (escaped);

  adw_toast_set_timeout (toast, 5);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

void
flitlab_window_alert_full (FlitlabWindow *self,
                           const char    *heading,
                           const char    *message)
{
  g_return_if_fail (FLITLAB_IS_WINDOW (self));

  flitlab_alert (GTK_WINDOW (self), heading, message);
}

void
flitlab_window_alert (FlitlabWindow *self,
                      const char    *message)
{
  flitlab_window_alert_full (self, NULL, message);
}

static void
update_busy (FlitlabWindow *self)
{
  gboolean working = self->workers != NULL && flitlab_workers_get_busy (self->workers);
  gboolean busy = working || self->edit_timeout_id != 0 || self->route_timeout_id != 0;

  gtk_spinner_set_spinning (self->spinner, working);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), working);
  gtk_widget_set_visible (self->cancel_button, working);
  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* The user's Stop: every worker ends, each reporting it was cancelled. */
static void
cancel_clicked (FlitlabWindow *self)
{
  flitlab_workers_cancel_all (self->workers);
}

gboolean
flitlab_window_get_busy (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  return self->busy;
}

FlProject *
flitlab_window_get_project (FlitlabWindow *self)
{
  return self->session != NULL ? flitlab_session_get_project (self->session) : NULL;
}

gboolean
flitlab_window_get_modified (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  return self->document_dirty || self->settings_dirty
         || (self->session != NULL && fl_project_is_modified (flitlab_window_get_project (self)));
}

const char *
flitlab_window_get_topology_name (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), NULL);

  return self->document != NULL ? flitlab_document_get_name (self->document) : NULL;
}

FlitlabDocument *
flitlab_window_get_document (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), NULL);

  return self->document;
}

FlitlabCanvas *
flitlab_window_get_canvas (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), NULL);

  return self->canvas;
}

FlitlabGeneratorPanel *
flitlab_window_get_generator_panel (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), NULL);

  return self->generator_panel;
}

FlitlabMetricsPanel *
flitlab_window_get_metrics_panel (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), NULL);

  return self->metrics_panel;
}

FlitlabExperimentsView *
flitlab_window_get_experiments_view (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), NULL);

  return self->experiments_view;
}

FlitlabRoutingPanel *
flitlab_window_get_routing_panel (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), NULL);

  return self->routing_panel;
}

/* "name" for /path/to/name.flitlab, "Untitled Project" before the first
 * save. */
static char *
project_title (FlitlabWindow *self)
{
  const char *path = self->session != NULL ? fl_project_path (flitlab_window_get_project (self))
                                           : NULL;
  g_autofree char *base = NULL;

  if (path == NULL)
    return g_strdup (_("Untitled Project"));
  base = g_path_get_basename (path);
  if (g_str_has_suffix (base, ".flitlab") && strlen (base) > strlen (".flitlab"))
    base[strlen (base) - strlen (".flitlab")] = '\0';
  return g_steal_pointer (&base);
}

void
flitlab_window_update_title (FlitlabWindow *self)
{
  g_autofree char *name = project_title (self);
  g_autofree char *title = NULL;
  g_autofree char *window_title = NULL;
  const char *topology_name = flitlab_window_get_topology_name (self);

  if (flitlab_window_get_modified (self))
    /* Translators: the title of a project with unsaved changes. */
    title = g_strdup_printf (_("• %s"), name);
  else
    title = g_strdup (name);
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, topology_name != NULL ? topology_name : "");

  /* Translators: the window's title in window lists: the project, then the
   * application. */
  window_title = g_strdup_printf (_("%s — Flitlab"), title);
  gtk_window_set_title (GTK_WINDOW (self), window_title);
}

void
flitlab_window_refresh_list (FlitlabWindow *self)
{
  FlProjectTopologyInfo *items = NULL;
  int n = 0;
  FlError err = { 0 };

  if (fl_project_list_topologies (flitlab_window_get_project (self), &items, &n, &err) != FL_OK)
    {
      flitlab_window_alert (self, err.message);
      return;
    }
  flitlab_topology_list_set_items (self->topology_list, items, n);
  flitlab_topology_list_select (self->topology_list, flitlab_window_get_topology_name (self));
  fl_project_topology_info_free (items, n);
}

/* Shows the summary of the network shown in its row of the list, without
 * asking the project, whose listing reads every topology it holds. */
static void
update_list_row (FlitlabWindow *self)
{
  const FlTopology *topology;
  FlProjectTopologyInfo info = { 0 };

  if (self->document == NULL)
    return;
  topology = flitlab_document_get_topology (self->document);
  info.name = (char *) flitlab_document_get_name (self->document);
  info.family = (char *) fl_topology_family (topology);
  info.spec = (char *) fl_topology_spec (topology);
  info.switches = fl_topology_switch_count (topology);
  info.hosts = fl_topology_host_count (topology);
  info.links = fl_topology_switch_link_count (topology);
  flitlab_topology_list_set_item (self->topology_list, &info);
}

/* Measuring ----------------------------------------------------------------- */

static void
measure_progress (gpointer user_data,
                  double   fraction)
{
  FlitlabWindow *self = user_data;

  flitlab_metrics_panel_set_progress (self->metrics_panel, fraction);
}

static void
measure_done (gpointer      user_data,
              gpointer      result,
              const GError *error)
{
  FlitlabWindow *self = user_data;
  g_autoptr(FlitlabMeasurement) measurement = result;

  flitlab_metrics_panel_set_measuring (self->metrics_panel, FALSE);
  /* Stopped by the user: the values shown stay, dimmed no more. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      update_busy (self);
      return;
    }
  flitlab_metrics_panel_set_measurement (self->metrics_panel, measurement);
  if (error != NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not measure the network: %s"),
                                                  error->message);
      flitlab_window_alert (self, message);
    }
  update_busy (self);
}

/* Measures a copy of the network shown in a worker, superseding any
 * measurement still running. */
static void
measure (FlitlabWindow *self)
{
  FlTopology *copy;

  flitlab_workers_supersede (self->workers, FLITLAB_JOB_MEASURE);
  flitlab_metrics_panel_set_measuring (self->metrics_panel, FALSE);
  if (self->document == NULL)
    {
      update_busy (self);
      return;
    }
  copy = flitlab_document_dup_topology (self->document);
  if (copy == NULL)
    {
      flitlab_window_alert (self, _("Not enough memory to measure the network"));
      update_busy (self);
      return;
    }
  flitlab_metrics_panel_set_measuring (self->metrics_panel, TRUE);
  flitlab_workers_measure_exact (self->workers, copy,
                                 flitlab_metrics_panel_get_exact_max (self->metrics_panel),
                                 measure_progress, measure_done, self);
  update_busy (self);
}

/* A new limit for the exhaustive bisection search: the network is measured
 * again with it. */
static void
exact_max_changed (FlitlabWindow *self)
{
  measure (self);
}

/* Routing ------------------------------------------------------------------- */

static void
route_done (gpointer      user_data,
            gpointer      result,
            const GError *error)
{
  FlitlabWindow *self = user_data;
  g_autoptr(FlitlabRouted) routed = result;

  flitlab_routing_panel_set_building (self->routing_panel, FALSE);
  /* The routing built goes to the document it was asked for, which the
   * window still shows: switching to another supersedes the job. */
  if (self->document != NULL)
    {
      if (routed != NULL)
        flitlab_document_set_routed (self->document, routed);
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        flitlab_document_set_refused (self->document, _("Stopped before it was built."));
      else
        /* A routing that does not apply to the network is refused in the
         * panel, in the engine's words: no toast, since every edit would
         * raise one. */
        flitlab_document_set_refused (self->document, error->message);
    }
  update_busy (self);
}

/* Builds the routing the document asks for on a copy of its network in a
 * worker, superseding any build still running. */
static void
route (FlitlabWindow *self)
{
  FlTopology *copy;

  g_clear_handle_id (&self->route_timeout_id, g_source_remove);
  flitlab_workers_supersede (self->workers, FLITLAB_JOB_ROUTE);
  if (self->document == NULL
      || fl_topology_switch_count (flitlab_document_get_topology (self->document)) == 0)
    {
      flitlab_routing_panel_set_building (self->routing_panel, FALSE);
      if (self->document != NULL)
        flitlab_document_set_routed (self->document, NULL);
      update_busy (self);
      return;
    }
  copy = flitlab_document_dup_topology (self->document);
  if (copy == NULL)
    {
      flitlab_document_set_refused (self->document, _("Not enough memory to route the network"));
      update_busy (self);
      return;
    }
  flitlab_routing_panel_set_building (self->routing_panel, TRUE);
  flitlab_workers_route (self->workers, copy, flitlab_document_get_request (self->document),
                         route_done, self);
  update_busy (self);
}

static gboolean
route_timeout (gpointer user_data)
{
  FlitlabWindow *self = user_data;

  self->route_timeout_id = 0;
  route (self);
  return G_SOURCE_REMOVE;
}

/* The routing shown describes a network that is no longer there: build a
 * new one once the user pauses editing. */
static void
route_after_pause (FlitlabWindow *self)
{
  flitlab_workers_supersede (self->workers, FLITLAB_JOB_ROUTE);
  flitlab_routing_panel_set_building (self->routing_panel, TRUE);
  g_clear_handle_id (&self->route_timeout_id, g_source_remove);
  self->route_timeout_id = g_timeout_add (EDIT_DEBOUNCE_MS, route_timeout, self);
  update_busy (self);
}

/* Another routing or other options: the user is waiting for them. They
 * are part of the project, saved with it. */
static void
request_changed (FlitlabWindow *self)
{
  self->settings_dirty = TRUE;
  flitlab_window_update_title (self);
  route (self);
}

/* Simulation settings are part of the project too. */
static void
sim_settings_changed (FlitlabWindow *self)
{
  self->settings_dirty = TRUE;
  flitlab_window_update_title (self);
}

/* Showing topologies --------------------------------------------------------- */

void
flitlab_window_set_welcome (FlitlabWindow *self,
                            gboolean       shown)
{
  gtk_widget_set_visible (self->welcome, shown);
  gtk_widget_set_visible (GTK_WIDGET (self->flap), !shown);
  gtk_widget_set_visible (self->sidebar_button, !shown);
  gtk_widget_set_visible (self->view_switcher, !shown);
}

/* Writes the document's edits into the working copy. */
gboolean
flitlab_window_commit_document (FlitlabWindow  *self,
                                GError        **error)
{
  FlError err = { 0 };

  if (!self->document_dirty || self->document == NULL)
    return TRUE;
  if (fl_project_put_topology (flitlab_window_get_project (self),
                               flitlab_document_get_name (self->document),
                               flitlab_document_get_topology (self->document), 1, &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  self->document_dirty = FALSE;
  update_list_row (self);
  flitlab_window_update_title (self);
  return TRUE;
}

/* Commits pending edits now, reporting a failure in the window. */
static void
commit_or_alert (FlitlabWindow *self)
{
  g_autoptr(GError) error = NULL;

  g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
  if (!flitlab_window_commit_document (self, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not keep the edits: %s"),
                                                  error->message);
      flitlab_window_alert (self, message);
    }
}

/* Shows document (NULL: none) on the canvas and in the panels, and builds
 * what it lacks: its metrics, and its routing unless it holds one. */
static void
show_document (FlitlabWindow   *self,
               FlitlabDocument *document)
{
  const char *name;

  /* The select tool ends any editing of turns of the network left. */
  flitlab_canvas_set_tool (self->canvas, FLITLAB_CANVAS_TOOL_SELECT);
  g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
  g_clear_handle_id (&self->route_timeout_id, g_source_remove);
  g_set_object (&self->document, document);
  self->document_dirty = FALSE;
  g_signal_group_set_target (self->document_signals, document);
  flitlab_canvas_set_document (self->canvas, document);
  flitlab_selection_panel_set_document (self->selection_panel, document);
  flitlab_routing_panel_set_document (self->routing_panel, document);
  flitlab_simulate_panel_set_document (self->simulate_panel, document);
  flitlab_transport_bar_set_document (self->transport_bar, document);
  flitlab_sim_inspector_set_document (self->sim_inspector, document);
  flitlab_collectives_panel_set_document (self->collectives_panel, document);

  /* A network shown ends the welcome. */
  if (document != NULL)
    flitlab_window_set_welcome (self, FALSE);
  name = flitlab_window_get_topology_name (self);
  flitlab_topology_list_select (self->topology_list, name);
  gtk_stack_set_visible_child_name (self->content_stack, document != NULL ? "canvas" : "empty");
  if (document == NULL)
    flitlab_metrics_panel_set_measurement (self->metrics_panel, NULL);
  flitlab_window_update_title (self);
  flitlab_window_update_actions (self);
  measure (self);
  if (document == NULL || flitlab_document_get_routed (document) == NULL)
    route (self);
  else
    {
      flitlab_workers_supersede (self->workers, FLITLAB_JOB_ROUTE);
      flitlab_routing_panel_set_building (self->routing_panel, FALSE);
    }
  update_busy (self);
}

gboolean
flitlab_window_show_topology (FlitlabWindow  *self,
                              const char     *name,
                              GError        **error)
{
  FlitlabDocument *document;

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  commit_or_alert (self);
  document = flitlab_session_get_document (self->session, name, error);
  if (document == NULL)
    return FALSE;
  show_document (self, document);
  return TRUE;
}

void
flitlab_window_show_nothing (FlitlabWindow *self)
{
  show_document (self, NULL);
}

/* Shows the project's network name, or says why it cannot (a damaged row
 * of the file, say): the rest of the project stays usable. */
static void
show_or_alert (FlitlabWindow *self,
               const char    *name)
{
  g_autoptr(GError) error = NULL;

  if (!flitlab_window_show_topology (self, name, &error))
    {
      /* Translators: the engine's reason, which names the network and the file. */
      g_autofree char *message = g_strdup_printf (_("Could not show the network: %s"), error->message);

      flitlab_window_alert_full (self, _("Could Not Show the Network"), message);
    }
}

static void
topology_selected (FlitlabWindow *self,
                   const char    *name)
{
  if (g_strcmp0 (name, flitlab_window_get_topology_name (self)) == 0)
    return;
  show_or_alert (self, name);
}

/* Shows the project's first topology, or the empty state. */
static void
show_first (FlitlabWindow *self)
{
  FlProjectTopologyInfo *items = NULL;
  int n = 0;

  flitlab_window_show_nothing (self);
  if (fl_project_list_topologies (flitlab_window_get_project (self), &items, &n, NULL) != FL_OK
      || n == 0)
    return;
  show_or_alert (self, items[0].name);
  fl_project_topology_info_free (items, n);
}

/* Takes ownership of project. */
void
flitlab_window_set_project (FlitlabWindow *self,
                            FlProject     *project)
{
  flitlab_workers_supersede (self->workers, FLITLAB_JOB_GENERATE);

  /* A lesson belongs to the project it set up. */
  if (flitlab_lesson_panel_get_lesson (self->lesson_panel) != NULL)
    flitlab_window_close_lesson (self);
  /* The documents of the old project leave the views before it goes. */
  flitlab_window_show_nothing (self);
  g_clear_object (&self->session);
  self->session = flitlab_session_new (project);
  self->settings_dirty = FALSE;
  flitlab_experiments_view_set_project (self->experiments_view, project);
  flitlab_window_refresh_list (self);
  /* A project file opened ends the welcome, even one with no network. */
  if (fl_project_path (project) != NULL)
    flitlab_window_set_welcome (self, FALSE);
  show_first (self);
}

/* Edits ------------------------------------------------------------------------ */

static gboolean
edit_timeout (gpointer user_data)
{
  FlitlabWindow *self = user_data;

  self->edit_timeout_id = 0;
  commit_or_alert (self);
  measure (self);
  return G_SOURCE_REMOVE;
}

static void
document_edited (FlitlabWindow *self)
{
  self->document_dirty = TRUE;
  flitlab_window_update_title (self);
  /* A measurement of the network before the edit would be stale: the
   * values shown stay dimmed until the one after the pause. */
  flitlab_workers_supersede (self->workers, FLITLAB_JOB_MEASURE);
  flitlab_metrics_panel_set_measuring (self->metrics_panel, TRUE);
  g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
  self->edit_timeout_id = g_timeout_add (EDIT_DEBOUNCE_MS, edit_timeout, self);
  /* A move keeps the document's routing; without one (a structural edit,
   * or one still being built for the network before the edit) it is
   * built again after the pause. */
  if (flitlab_document_get_routed (self->document) == NULL)
    route_after_pause (self);
  update_busy (self);
}

/* A pointer edit the canvas refused, in a sentence. */
static void
canvas_message (FlitlabWindow *self,
                const char    *message)
{
  flitlab_window_toast (self, message);
}

/* Generating ----------------------------------------------------------------- */

/* Stores topology under base, or "base (2)", "base (3)"... when that name
 * is taken; returns the name used. */
static char *
put_unique (FlitlabWindow  *self,
            const char     *base,
            FlTopology     *topology,
            GError        **error)
{
  FlError err = { 0 };

  for (int i = 1; i < 1000; i++)
    {
      g_autofree char *name = i == 1 ? g_strdup (base) : g_strdup_printf ("%s (%d)", base, i);
      int rc = fl_project_put_topology (flitlab_window_get_project (self), name, topology, 0, &err);

      if (rc == FL_OK)
        {
          fl_topology_set_name (topology, name);
          return g_steal_pointer (&name);
        }
      if (rc != FL_EEXIST)
        break;
    }
  flitlab_set_engine_error (error, &err);
  return NULL;
}

gboolean
flitlab_window_add_topology (FlitlabWindow  *self,
                             const char     *base,
                             FlTopology     *topology,
                             GError        **error)
{
  g_autofree char *name = NULL;
  FlitlabDocument *document;

  commit_or_alert (self);
  name = put_unique (self, base, topology, error);
  if (name == NULL)
    {
      fl_topology_free (topology);
      return FALSE;
    }
  document = flitlab_session_add_document (self->session, name, topology);
  flitlab_preferences_apply_sim_defaults (document);
  show_document (self, document);
  update_list_row (self);
  flitlab_topology_list_select (self->topology_list, name);
  return TRUE;
}

/* What a generation was asked for; name is NULL when the network is to be
 * named after its spec. */
typedef struct
{
  char *spec;
  char *name;
} GenerateRequest;

static void
generate_request_free (gpointer data)
{
  GenerateRequest *request = data;

  if (request == NULL)
    return;
  g_free (request->spec);
  g_free (request->name);
  g_free (request);
}

static void
generate_done (gpointer      user_data,
               gpointer      result,
               const GError *error)
{
  FlitlabWindow *self = user_data;
  GenerateRequest *request = g_steal_pointer (&self->generate_request);
  FlTopology *topology = result;
  g_autoptr(GError) add_error = NULL;
  const char *base;

  update_busy (self);
  if (request == NULL)
    return;
  base = request->name;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      generate_request_free (request);
      return;
    }

  /* Unnamed networks take their canonical spec, which drops default keys:
   * "torus:8x8" rather than "torus:8x8,hosts=1". */
  if (base == NULL && topology != NULL)
    base = fl_topology_spec (topology);
  if (base == NULL)
    base = request->spec;
  if (topology != NULL && fl_topology_node_count (topology) > MAX_WINDOW_NODES)
    {
      /* Translators: a network's spec, its number of nodes, then the most
       * the window takes. */
      g_autofree char *message = g_strdup_printf (_("“%s” has %d nodes: the window takes networks of at most "
                                                    "%d nodes; the command line takes larger ones"),
                                                  request->spec, fl_topology_node_count (topology),
                                                  MAX_WINDOW_NODES);
      fl_topology_free (topology);
      flitlab_window_alert_full (self, _("Network Too Large"), message);
    }
  else if (topology == NULL || !flitlab_window_add_topology (self, base, topology, &add_error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not generate “%s”: %s"), request->spec,
                                                  add_error != NULL ? add_error->message
                                                                    : error->message);
      flitlab_window_alert_full (self, _("Could Not Generate the Network"), message);
    }
  generate_request_free (request);
}

void
flitlab_window_generate (FlitlabWindow *self,
                         const char    *spec,
                         const char    *name)
{
  GenerateRequest *request;

  g_return_if_fail (FLITLAB_IS_WINDOW (self));
  g_return_if_fail (spec != NULL);

  /* A newer request replaces one still running. */
  request = g_new0 (GenerateRequest, 1);
  request->spec = g_strdup (spec);
  request->name = name != NULL && name[0] != '\0' ? g_strdup (name) : NULL;
  generate_request_free (self->generate_request);
  self->generate_request = request;
  flitlab_workers_generate (self->workers, spec, generate_done, self);
  update_busy (self);
}

static void
generate_requested (FlitlabWindow *self,
                    const char    *spec,
                    const char    *name)
{
  flitlab_window_generate (self, spec, name);
}

/* Files ----------------------------------------------------------------------- */

gboolean
flitlab_window_open_path (FlitlabWindow  *self,
                          const char     *path,
                          GError        **error)
{
  FlProject *project = NULL;
  FlProjectTopologyInfo *items = NULL;
  int n = 0;
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  /* A file whose list of networks cannot be read is refused before it
   * replaces the project shown; a network that cannot be read is said so
   * when it is shown, and the others stay usable. */
  if (fl_project_open (path, &project, &err) != FL_OK
      || fl_project_list_topologies (project, &items, &n, &err) != FL_OK)
    {
      fl_project_free (project);
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  fl_project_topology_info_free (items, n);
  flitlab_window_set_project (self, project);
  flitlab_welcome_add_recent (path);
  return TRUE;
}

/* The schema version in the header of the SQLite file at path (the 32-bit
 * big-endian user_version at byte 60 of its first page), or -1. */
static int
file_schema_version (const char *path)
{
  static const char magic[16] = "SQLite format 3";
  guchar header[64];
  FILE *fp = fopen (path, "rb");
  size_t got = fp != NULL ? fread (header, 1, sizeof header, fp) : 0;

  if (fp != NULL)
    fclose (fp);
  if (got < sizeof header || memcmp (header, magic, sizeof magic) != 0)
    return -1;
  return (int) ((guint32) header[60] << 24 | (guint32) header[61] << 16 | (guint32) header[62] << 8
                | header[63]);
}

/* Why path did not open, for the user: a file of a newer Flitlab says so
 * in the user's language, with both versions. */
static char *
open_failure_message (const char   *path,
                      const GError *error)
{
  g_autofree char *name = g_path_get_basename (path);
  int version;

  if (!g_error_matches (error, FLITLAB_ENGINE_ERROR, FL_EVERSION))
    return g_strdup_printf (_("Could not open the project: %s"), error->message);
  version = file_schema_version (path);
  if (version < 0)
    /* Translators: the project's file name. */
    return g_strdup_printf (_("“%s” was written by a newer version of Flitlab: it was not opened, and "
                              "it has not been changed"), name);
  /* Translators: the project's file name, its format version, then the
   * latest this Flitlab reads. */
  return g_strdup_printf (_("“%s” was written by a newer version of Flitlab (project format %d; "
                            "this version reads formats up to %d): it was not opened, and it has "
                            "not been changed"), name, version, fl_project_schema_version ());
}

void
flitlab_window_open_file (FlitlabWindow *self,
                          GFile         *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GError) error = NULL;

  g_return_if_fail (FLITLAB_IS_WINDOW (self));

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);
      g_autofree char *message = g_strdup_printf (_("Could not open “%s”: only local files can be opened"),
                                                  uri);
      flitlab_window_alert_full (self, _("Could Not Open the Project"), message);
      return;
    }
  if (!flitlab_window_open_path (self, path, &error))
    {
      g_autofree char *message = open_failure_message (path, error);

      flitlab_window_alert_full (self, _("Could Not Open the Project"), message);
    }
}

gboolean
flitlab_window_save_to_path (FlitlabWindow  *self,
                             const char     *path,
                             GError        **error)
{
  FlProject *project;
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  project = flitlab_window_get_project (self);
  /* Edits waiting for the pause are committed now, and measured now too
   * since their timeout will not run. */
  if (self->edit_timeout_id != 0)
    {
      g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
      if (!flitlab_window_commit_document (self, error))
        return FALSE;
      measure (self);
    }
  else if (!flitlab_window_commit_document (self, error))
    return FALSE;

  if (!flitlab_session_save_routing_states (self->session, error))
    return FALSE;
  if ((path != NULL ? fl_project_save_as (project, path, &err)
                    : fl_project_save (project, &err)) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      update_busy (self);
      return FALSE;
    }
  self->settings_dirty = FALSE;
  flitlab_welcome_add_recent (fl_project_path (project));
  flitlab_window_update_title (self);
  /* A first save gives the project a journal; a save elsewhere, the
   * other file's. */
  flitlab_experiments_view_refresh (self->experiments_view);
  flitlab_window_update_actions (self);
  update_busy (self);
  return TRUE;
}

/* Closing ------------------------------------------------------------------------ */

static void
destroy_window (FlitlabWindow *self)
{
  gtk_window_destroy (GTK_WINDOW (self));
}

static gboolean
flitlab_window_close_request (GtkWindow *window)
{
  FlitlabWindow *self = FLITLAB_WINDOW (window);

  if (!flitlab_window_get_modified (self))
    return GTK_WINDOW_CLASS (flitlab_window_parent_class)->close_request (window);
  flitlab_window_confirm_discard (self, destroy_window);
  return TRUE;
}

/* Object life ----------------------------------------------------------------- */

static void
flitlab_window_dispose (GObject *object)
{
  FlitlabWindow *self = FLITLAB_WINDOW (object);

  g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
  g_clear_handle_id (&self->route_timeout_id, g_source_remove);
  if (self->experiments_view != NULL)
    flitlab_experiments_view_shutdown (self->experiments_view);
  /* Nothing still running may report to a window that is going. */
  if (self->workers != NULL)
    {
      flitlab_workers_shutdown (self->workers);
      g_signal_handlers_disconnect_by_data (self->workers, self);
      g_clear_object (&self->workers);
    }
  g_clear_pointer (&self->generate_request, generate_request_free);
  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);

  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_WINDOW);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (flitlab_window_parent_class)->dispose (object);
}

static void
flitlab_window_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  FlitlabWindow *self = FLITLAB_WINDOW (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flitlab_window_class_init (FlitlabWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = flitlab_window_dispose;
  object_class->get_property = flitlab_window_get_property;
  window_class->close_request = flitlab_window_close_request;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (FLITLAB_TYPE_CANVAS);
  g_type_ensure (FLITLAB_TYPE_COLLECTIVES_PANEL);
  g_type_ensure (FLITLAB_TYPE_EXPERIMENTS_VIEW);
  g_type_ensure (FLITLAB_TYPE_GENERATOR_PANEL);
  g_type_ensure (FLITLAB_TYPE_METRICS_PANEL);
  g_type_ensure (FLITLAB_TYPE_ROUTING_PANEL);
  g_type_ensure (FLITLAB_TYPE_SELECTION_PANEL);
  g_type_ensure (FLITLAB_TYPE_SIMULATE_PANEL);
  g_type_ensure (FLITLAB_TYPE_TOPOLOGY_LIST);
  g_type_ensure (FLITLAB_TYPE_TRANSPORT_BAR);
  g_type_ensure (FLITLAB_TYPE_SIM_INSPECTOR);
  g_type_ensure (FLITLAB_TYPE_WELCOME);

  /* The routing's shortcuts, listed in help-overlay.ui, bound beside the
   * window actions they trigger. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK,
                                       "win.tool", "s", "route");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, GDK_CONTROL_MASK,
                                       "win.edit-turns", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK,
                                       "win.tab", "s", "metrics");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK,
                                       "win.tab", "s", "routing");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK,
                                       "win.tab", "s", "simulate");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_4, GDK_ALT_MASK,
                                       "win.tab", "s", "collectives");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_5, GDK_ALT_MASK,
                                       "win.tab", "s", "experiments");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.new-experiment", NULL);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, experiments_view);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, canvas);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, ports_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, ports_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, topology_list);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, generator_panel);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, side_stack);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, metrics_panel);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, routing_panel);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, simulate_panel);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, collectives_panel);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, selection_panel);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, canvas_column);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, transport_revealer);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, transport_bar);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, sim_inspector);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, sidebar_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, view_switcher);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, welcome);
  gtk_widget_class_bind_template_callback (widget_class, canvas_message);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, topology_selected);
  gtk_widget_class_bind_template_callback (widget_class, generate_requested);
  flitlab_window_lesson_class_init (widget_class);
}

static void
flitlab_window_init (FlitlabWindow *self)
{
  FlProject *project = NULL;
  FlError err = { 0 };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->workers = flitlab_workers_new ();
  g_signal_connect_swapped (self->workers, "notify::busy", G_CALLBACK (update_busy), self);
  g_signal_connect_swapped (self->metrics_panel, "notify::exact-max", G_CALLBACK (exact_max_changed),
                            self);
  flitlab_simulate_panel_set_workers (self->simulate_panel, self->workers);
  self->document_signals = g_signal_group_new (FLITLAB_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "topology-edited",
                                  G_CALLBACK (document_edited), self);
  g_signal_group_connect_swapped (self->document_signals, "request-changed",
                                  G_CALLBACK (request_changed), self);
  g_signal_group_connect_swapped (self->document_signals, "sim-settings-changed",
                                  G_CALLBACK (sim_settings_changed), self);
  g_object_bind_property (self->canvas, "new-switch-ports",
                          gtk_spin_button_get_adjustment (self->ports_spin), "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  flitlab_window_actions_init (self);
  flitlab_window_simulate_init (self);
  flitlab_window_collectives_init (self);
  flitlab_window_experiments_init (self);
  flitlab_window_lesson_init (self);
  flitlab_window_presenter_init (self);
  flitlab_window_help_init (self);
  flitlab_preferences_bind_view (self->transport_bar, self->canvas);

  /* Only running out of memory stops a new project from being made, and
   * then the window cannot work at all. */
  if (fl_project_new (&project, &err) != FL_OK)
    g_error ("%s", err.message);
  flitlab_window_set_project (self, project);
  flitlab_window_set_welcome (self, TRUE);
}
