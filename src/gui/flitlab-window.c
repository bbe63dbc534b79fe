/* flitlab-window.c — the main window: the project's working copy, the
 * topology on the canvas, and the worker threads that generate, measure and
 * route.
 *
 * The canvas owns the topology being shown and edited; the project holds
 * the last committed copy of it. Edits are committed (and re-measured) after
 * a short pause, and always before the project is saved or another topology
 * is shown, so nothing the user drew is lost. The routing chosen in the
 * routing panel is rebuilt for the network after the same pause, and at
 * once when the routing or its options change. */
#include <glib/gi18n.h>
#include <string.h>

#include "flitlab-task.h"
#include "flitlab-window-private.h"

/* How long the user must pause editing before the network is committed,
 * measured and routed again. */
#define EDIT_DEBOUNCE_MS 300

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

static void
update_busy (FlitlabWindow *self)
{
  gboolean working = self->generating || self->measuring || self->routing;
  gboolean busy = working || self->edit_timeout_id != 0 || self->route_timeout_id != 0;

  gtk_spinner_set_spinning (self->spinner, working);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), working);
  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

gboolean
flitlab_window_get_busy (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  return self->busy;
}

gboolean
flitlab_window_get_modified (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  return self->canvas_dirty || fl_project_is_modified (self->project);
}

const char *
flitlab_window_get_topology_name (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), NULL);

  return self->topology_name;
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
  const char *path = fl_project_path (self->project);
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

  if (flitlab_window_get_modified (self))
    /* Translators: the title of a project with unsaved changes. */
    title = g_strdup_printf (_("• %s"), name);
  else
    title = g_strdup (name);
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title,
                                 self->topology_name != NULL ? self->topology_name : "");

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

  if (fl_project_list_topologies (self->project, &items, &n, &err) != FL_OK)
    {
      flitlab_window_toast (self, err.message);
      return;
    }
  flitlab_topology_list_set_items (self->topology_list, items, n);
  flitlab_topology_list_select (self->topology_list, self->topology_name);
  fl_project_topology_info_free (items, n);
}

/* Shows the summary of the canvas' network in its row of the list, without
 * asking the project, whose listing reads every topology it holds. */
static void
update_list_row (FlitlabWindow *self)
{
  const FlTopology *topology = flitlab_canvas_get_topology (self->canvas);
  FlProjectTopologyInfo info = {
    .name = self->topology_name,
    .family = (char *) fl_topology_family (topology),
    .spec = (char *) fl_topology_spec (topology),
    .switches = fl_topology_switch_count (topology),
    .hosts = fl_topology_host_count (topology),
    .links = fl_topology_switch_link_count (topology),
  };

  if (self->topology_name != NULL)
    flitlab_topology_list_set_item (self->topology_list, &info);
}

/* Measuring ----------------------------------------------------------------- */

static void
cancel_measure (FlitlabWindow *self)
{
  g_cancellable_cancel (self->measure_cancellable);
  g_clear_object (&self->measure_cancellable);
  self->measuring = FALSE;
  flitlab_metrics_panel_set_measuring (self->metrics_panel, FALSE);
}

static void
measure_progress (gpointer user_data,
                  double   fraction)
{
  FlitlabWindow *self = user_data;

  flitlab_metrics_panel_set_progress (self->metrics_panel, fraction);
}

static void
measure_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (source);
  g_autoptr(FlitlabMeasurement) measurement = NULL;
  g_autoptr(GError) error = NULL;

  measurement = flitlab_task_measure_finish (result, &error);
  /* A cancelled measurement was superseded (its successor owns the panel
   * now) or the window is closing. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->measure_cancellable);
  self->measuring = FALSE;
  flitlab_metrics_panel_set_measuring (self->metrics_panel, FALSE);
  flitlab_metrics_panel_set_measurement (self->metrics_panel, measurement);
  if (error != NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not measure the network: %s"),
                                                  error->message);
      flitlab_window_toast (self, message);
    }
  update_busy (self);
}

/* Measures a copy of the canvas' network in a worker thread, cancelling any
 * measurement still running. */
static void
measure (FlitlabWindow *self)
{
  FlTopology *copy = flitlab_canvas_dup_topology (self->canvas);

  cancel_measure (self);
  if (copy == NULL)
    {
      flitlab_window_toast (self, _("Not enough memory to measure the network"));
      update_busy (self);
      return;
    }
  self->measure_cancellable = g_cancellable_new ();
  self->measuring = TRUE;
  flitlab_metrics_panel_set_measuring (self->metrics_panel, TRUE);
  flitlab_task_measure_async (self, copy, self->measure_cancellable,
                              measure_progress, self, measure_done, NULL);
  update_busy (self);
}

/* Routing ------------------------------------------------------------------- */

/* What a routing worker builds: a copy of the network and the request. */
typedef struct
{
  FlTopology *topology;
  FlitlabRoutingRequest *request;
} RouteData;

static void
route_data_free (RouteData *data)
{
  fl_topology_free (data->topology);
  flitlab_routing_request_free (data->request);
  g_free (data);
}

/* Runs in the worker thread: building the tables of a large network is the
 * engine's only chance to hear that the routing is no longer wanted. */
static int
route_progress (void   *user_data,
                double  fraction)
{
  return g_cancellable_is_cancelled (G_CANCELLABLE (user_data));
}

static void
route_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  RouteData *data = task_data;
  FlRoutingOptions options = data->request->options;
  FlitlabRouted *routed;
  GError *error = NULL;

  options.progress = route_progress;
  options.progress_data = cancellable;
  routed = flitlab_routed_new (g_steal_pointer (&data->topology), data->request->name, &options,
                               &error);
  if (g_task_return_error_if_cancelled (task))
    {
      g_clear_pointer (&routed, flitlab_routed_unref);
      g_clear_error (&error);
    }
  else if (routed == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, routed, (GDestroyNotify) flitlab_routed_unref);
}

/* Shows routed (NULL: none) on the canvas and in the panel. */
static void
show_routed (FlitlabWindow *self,
             FlitlabRouted *routed)
{
  self->handing_routed = TRUE;
  flitlab_canvas_set_routed (self->canvas, routed);
  self->handing_routed = FALSE;
  flitlab_routing_panel_set_routed (self->routing_panel, routed);
}

static void
cancel_route (FlitlabWindow *self)
{
  g_cancellable_cancel (self->route_cancellable);
  g_clear_object (&self->route_cancellable);
  self->routing = FALSE;
}

static void
route_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (source);
  g_autoptr(FlitlabRouted) routed = NULL;
  g_autoptr(GError) error = NULL;

  routed = g_task_propagate_pointer (G_TASK (result), &error);
  /* A cancelled routing was superseded, or the window is closing. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->route_cancellable);
  self->routing = FALSE;
  flitlab_routing_panel_set_building (self->routing_panel, FALSE);
  show_routed (self, routed);
  /* A routing that does not apply to the network is refused in the panel,
   * in the engine's words: no toast, since every edit would raise one. */
  if (routed == NULL)
    flitlab_routing_panel_set_refused (self->routing_panel, error->message);
  update_busy (self);
}

/* Builds the routing the panel asks for on a copy of the canvas' network in
 * a worker thread, cancelling any build still running. */
static void
route (FlitlabWindow *self)
{
  const FlTopology *topology = flitlab_canvas_get_topology (self->canvas);
  g_autoptr(GTask) task = NULL;
  RouteData *data;

  g_clear_handle_id (&self->route_timeout_id, g_source_remove);
  cancel_route (self);
  if (self->topology_name == NULL || fl_topology_switch_count (topology) == 0)
    {
      flitlab_routing_panel_set_building (self->routing_panel, FALSE);
      show_routed (self, NULL);
      update_busy (self);
      return;
    }

  data = g_new0 (RouteData, 1);
  data->topology = flitlab_canvas_dup_topology (self->canvas);
  data->request = flitlab_routing_panel_dup_request (self->routing_panel);
  if (data->topology == NULL)
    {
      route_data_free (data);
      show_routed (self, NULL);
      flitlab_routing_panel_set_refused (self->routing_panel,
                                         _("Not enough memory to route the network"));
      update_busy (self);
      return;
    }

  self->route_cancellable = g_cancellable_new ();
  self->routing = TRUE;
  flitlab_routing_panel_set_building (self->routing_panel, TRUE);
  task = g_task_new (self, self->route_cancellable, route_done, NULL);
  g_task_set_source_tag (task, route);
  g_task_set_task_data (task, data, (GDestroyNotify) route_data_free);
  g_task_run_in_thread (task, route_thread);
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
  cancel_route (self);
  flitlab_routing_panel_set_building (self->routing_panel, TRUE);
  g_clear_handle_id (&self->route_timeout_id, g_source_remove);
  self->route_timeout_id = g_timeout_add (EDIT_DEBOUNCE_MS, route_timeout, self);
  update_busy (self);
}

/* The canvas drops its routing on a structural edit. */
static void
canvas_routed_changed (FlitlabWindow *self)
{
  if (!self->handing_routed && self->topology_name != NULL
      && flitlab_canvas_get_routed (self->canvas) == NULL)
    route_after_pause (self);
}

/* Another routing or other options: the user is waiting for them. */
static void
routing_changed (FlitlabWindow *self)
{
  route (self);
}

/* Showing topologies --------------------------------------------------------- */

/* Writes the canvas' edits into the working copy. */
gboolean
flitlab_window_commit_canvas (FlitlabWindow  *self,
                              GError        **error)
{
  FlError err = { 0 };

  if (!self->canvas_dirty || self->topology_name == NULL)
    return TRUE;
  if (fl_project_put_topology (self->project, self->topology_name,
                               flitlab_canvas_get_topology (self->canvas), 1, &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  self->canvas_dirty = FALSE;
  update_list_row (self);
  flitlab_window_update_title (self);
  return TRUE;
}

/* Commits pending edits now, reporting a failure in the window. */
static void
commit_canvas_or_toast (FlitlabWindow *self)
{
  g_autoptr(GError) error = NULL;

  g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
  if (!flitlab_window_commit_canvas (self, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not keep the edits: %s"),
                                                  error->message);
      flitlab_window_toast (self, message);
    }
}

/* Hands topology (owned) to the canvas as the project's topology name. */
static void
show_on_canvas (FlitlabWindow *self,
                FlTopology    *topology,
                const char    *name)
{
  g_free (self->topology_name);
  self->topology_name = g_strdup (name);
  self->canvas_dirty = FALSE;
  flitlab_canvas_set_topology (self->canvas, topology);
  /* A route belongs to the network it was clicked on. */
  flitlab_canvas_set_route_endpoints (self->canvas, -1, -1);
  flitlab_canvas_set_tool (self->canvas, FLITLAB_CANVAS_TOOL_SELECT);
  flitlab_topology_list_select (self->topology_list, name);
  gtk_stack_set_visible_child_name (self->content_stack, "canvas");
  flitlab_window_update_title (self);
  flitlab_window_update_actions (self);
  measure (self);
  route (self);
}

gboolean
flitlab_window_show_topology (FlitlabWindow  *self,
                              const char     *name,
                              GError        **error)
{
  FlTopology *topology = NULL;
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  commit_canvas_or_toast (self);
  if (fl_project_get_topology (self->project, name, &topology, &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  show_on_canvas (self, topology, name);
  return TRUE;
}

void
flitlab_window_show_nothing (FlitlabWindow *self)
{
  g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
  cancel_measure (self);
  g_clear_pointer (&self->topology_name, g_free);
  self->canvas_dirty = FALSE;
  flitlab_canvas_set_topology (self->canvas, NULL);
  flitlab_topology_list_select (self->topology_list, NULL);
  flitlab_metrics_panel_set_measurement (self->metrics_panel, NULL);
  route (self);
  gtk_stack_set_visible_child_name (self->content_stack, "empty");
  flitlab_window_update_title (self);
  flitlab_window_update_actions (self);
  update_busy (self);
}

static void
topology_selected (FlitlabWindow *self,
                   const char    *name)
{
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (name, self->topology_name) == 0)
    return;
  if (!flitlab_window_show_topology (self, name, &error))
    flitlab_window_toast (self, error->message);
}

/* Shows the project's first topology, or the empty state. */
static void
show_first (FlitlabWindow *self)
{
  FlProjectTopologyInfo *items = NULL;
  int n = 0;
  g_autoptr(GError) error = NULL;

  flitlab_window_show_nothing (self);
  if (fl_project_list_topologies (self->project, &items, &n, NULL) != FL_OK || n == 0)
    return;
  if (!flitlab_window_show_topology (self, items[0].name, &error))
    flitlab_window_toast (self, error->message);
  fl_project_topology_info_free (items, n);
}

/* Takes ownership of project. */
void
flitlab_window_set_project (FlitlabWindow *self,
                            FlProject     *project)
{
  g_cancellable_cancel (self->generate_cancellable);
  g_clear_object (&self->generate_cancellable);
  self->generating = FALSE;

  /* The old topology must leave the canvas before its project goes. */
  flitlab_window_show_nothing (self);
  g_clear_pointer (&self->project, fl_project_free);
  self->project = project;
  flitlab_window_refresh_list (self);
  show_first (self);
}

/* Canvas edits --------------------------------------------------------------- */

static gboolean
edit_timeout (gpointer user_data)
{
  FlitlabWindow *self = user_data;

  self->edit_timeout_id = 0;
  commit_canvas_or_toast (self);
  measure (self);
  return G_SOURCE_REMOVE;
}

static void
canvas_edited (FlitlabWindow *self)
{
  if (self->topology_name == NULL)
    return;
  self->canvas_dirty = TRUE;
  flitlab_window_update_title (self);
  g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
  self->edit_timeout_id = g_timeout_add (EDIT_DEBOUNCE_MS, edit_timeout, self);
  /* A move keeps the canvas' routing; without one (a structural edit, or
   * one still being built for the network before the edit) it is built
   * again after the pause. */
  if (flitlab_canvas_get_routed (self->canvas) == NULL)
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
      int rc = fl_project_put_topology (self->project, name, topology, 0, &err);

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

  commit_canvas_or_toast (self);
  name = put_unique (self, base, topology, error);
  if (name == NULL)
    {
      fl_topology_free (topology);
      return FALSE;
    }
  show_on_canvas (self, topology, name);
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
generate_request_free (GenerateRequest *request)
{
  g_free (request->spec);
  g_free (request->name);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GenerateRequest, generate_request_free)

static void
generate_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (source);
  g_autoptr(GenerateRequest) request = user_data;
  g_autoptr(GError) error = NULL;
  FlTopology *topology = flitlab_task_generate_finish (result, &error);
  const char *base = request->name;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->generate_cancellable);
  self->generating = FALSE;
  update_busy (self);

  /* Unnamed networks take their canonical spec, which drops default keys:
   * "torus:8x8" rather than "torus:8x8,hosts=1". */
  if (base == NULL && topology != NULL)
    base = fl_topology_spec (topology);
  if (base == NULL)
    base = request->spec;
  if (topology == NULL || !flitlab_window_add_topology (self, base, topology, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not generate “%s”: %s"),
                                                  request->spec, error->message);
      flitlab_window_toast (self, message);
    }
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
  g_cancellable_cancel (self->generate_cancellable);
  g_clear_object (&self->generate_cancellable);
  self->generate_cancellable = g_cancellable_new ();
  self->generating = TRUE;
  update_busy (self);
  request = g_new0 (GenerateRequest, 1);
  request->spec = g_strdup (spec);
  request->name = name != NULL && name[0] != '\0' ? g_strdup (name) : NULL;
  flitlab_task_generate_async (self, spec, self->generate_cancellable, generate_done, request);
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
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  if (fl_project_open (path, &project, &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  flitlab_window_set_project (self, project);
  return TRUE;
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
      flitlab_window_toast (self, message);
      return;
    }
  if (!flitlab_window_open_path (self, path, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not open the project: %s"),
                                                  error->message);
      flitlab_window_toast (self, message);
    }
}

gboolean
flitlab_window_save_to_path (FlitlabWindow  *self,
                             const char     *path,
                             GError        **error)
{
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  /* Edits waiting for the pause are committed now, and measured now too
   * since their timeout will not run. */
  if (self->edit_timeout_id != 0)
    {
      g_clear_handle_id (&self->edit_timeout_id, g_source_remove);
      if (!flitlab_window_commit_canvas (self, error))
        return FALSE;
      measure (self);
    }
  else if (!flitlab_window_commit_canvas (self, error))
    return FALSE;

  if ((path != NULL ? fl_project_save_as (self->project, path, &err)
                    : fl_project_save (self->project, &err)) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      update_busy (self);
      return FALSE;
    }
  flitlab_window_update_title (self);
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
  g_cancellable_cancel (self->generate_cancellable);
  g_clear_object (&self->generate_cancellable);
  g_cancellable_cancel (self->measure_cancellable);
  g_clear_object (&self->measure_cancellable);
  g_clear_handle_id (&self->route_timeout_id, g_source_remove);
  cancel_route (self);
  /* Nothing the canvas and the panels do as they go may start new work. */
  if (self->canvas != NULL)
    g_signal_handlers_disconnect_by_data (self->canvas, self);
  if (self->routing_panel != NULL)
    g_signal_handlers_disconnect_by_data (self->routing_panel, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_WINDOW);
  G_OBJECT_CLASS (flitlab_window_parent_class)->dispose (object);
}

static void
flitlab_window_finalize (GObject *object)
{
  FlitlabWindow *self = FLITLAB_WINDOW (object);

  g_free (self->topology_name);
  fl_project_free (self->project);
  G_OBJECT_CLASS (flitlab_window_parent_class)->finalize (object);
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
  object_class->finalize = flitlab_window_finalize;
  object_class->get_property = flitlab_window_get_property;
  window_class->close_request = flitlab_window_close_request;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (FLITLAB_TYPE_CANVAS);
  g_type_ensure (FLITLAB_TYPE_GENERATOR_PANEL);
  g_type_ensure (FLITLAB_TYPE_METRICS_PANEL);
  g_type_ensure (FLITLAB_TYPE_ROUTING_PANEL);
  g_type_ensure (FLITLAB_TYPE_SELECTION_PANEL);
  g_type_ensure (FLITLAB_TYPE_TOPOLOGY_LIST);

  /* The routing's shortcuts, listed in help-overlay.ui, bound beside the
   * window actions they trigger. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK,
                                       "win.tool", "s", "route");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, GDK_CONTROL_MASK,
                                       "win.edit-turns", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK,
                                       "win.side-page", "s", "metrics");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK,
                                       "win.side-page", "s", "routing");

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/flitlab/Flitlab/flitlab-window.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, canvas);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, ports_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, ports_spin);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, topology_list);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, generator_panel);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, side_stack);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, metrics_panel);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, routing_panel);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, selection_panel);
  gtk_widget_class_bind_template_callback (widget_class, canvas_edited);
  gtk_widget_class_bind_template_callback (widget_class, canvas_message);
  gtk_widget_class_bind_template_callback (widget_class, canvas_routed_changed);
  gtk_widget_class_bind_template_callback (widget_class, routing_changed);
  gtk_widget_class_bind_template_callback (widget_class, topology_selected);
  gtk_widget_class_bind_template_callback (widget_class, generate_requested);
}

static void
flitlab_window_init (FlitlabWindow *self)
{
  FlProject *project = NULL;
  FlError err = { 0 };

  gtk_widget_init_template (GTK_WIDGET (self));
  flitlab_selection_panel_set_canvas (self->selection_panel, self->canvas);
  flitlab_routing_panel_set_canvas (self->routing_panel, self->canvas);
  g_object_bind_property (self->canvas, "new-switch-ports",
                          gtk_spin_button_get_adjustment (self->ports_spin), "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  flitlab_window_actions_init (self);

  /* Only running out of memory stops a new project from being made, and
   * then the window cannot work at all. */
  if (fl_project_new (&project, &err) != FL_OK)
    g_error ("%s", err.message);
  flitlab_window_set_project (self, project);
}
