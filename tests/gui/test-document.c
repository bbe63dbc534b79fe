/* test-document.c — the document model with no widget and no display: the
 * topology's edits and their undo, the routing asked for and its undo, the
 * route computed once whoever asks, each network of a session keeping its
 * own state, and the routing state written and read back.
 *
 * Routings are built here on the main thread with flitlab_routed_new(), as
 * the window's worker would build them. */
#include <string.h>

#include "flitlab-document.h"
#include <stdlib.h>
#include <glib/gstdio.h>
#include "flitlab-session.h"
#include "flitlab-workers.h"
#include "tap.h"

static FlTopology *
from_spec (const char *spec)
{
  FlTopology *t = NULL;
  FlError err = { 0 };

  CHECK (fl_topology_from_spec (spec, &t, &err) == FL_OK, "%s is generated: %s", spec, err.message);
  return t;
}

/* Builds the routing the document asks for and hands it over. */
static void
build_routing (FlitlabDocument *document)
{
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (FlTurn));
  g_autoptr(GError) error = NULL;
  const FlitlabRoutingRequest *request = flitlab_document_get_request (document);
  FlTopology *copy = flitlab_document_dup_topology (document);
  FlRoutingOptions options;
  g_autoptr(FlitlabRouted) routed = NULL;

  flitlab_routing_request_options (request, copy, kept, &options);
  routed = flitlab_routed_new (copy, request->name, &options, &error);
  CHECK (routed != NULL, "%s is built: %s", request->name, error != NULL ? error->message : "ok");
  flitlab_document_set_routed (document, routed);
}

static gboolean
same_topology (const FlTopology *a,
               const FlTopology *b)
{
  if (fl_topology_node_count (a) != fl_topology_node_count (b)
      || fl_topology_link_count (a) != fl_topology_link_count (b))
    return FALSE;
  for (int l = 0; l < fl_topology_link_count (a); l++)
    {
      int e[4], f[4];

      fl_topology_link_ends (a, l, &e[0], &e[1], &e[2], &e[3]);
      fl_topology_link_ends (b, l, &f[0], &f[1], &f[2], &f[3]);
      if (memcmp (e, f, sizeof e) != 0)
        return FALSE;
    }
  return TRUE;
}

static void
count (int *counter)
{
  (*counter)++;
}

/* Edits and their undo ------------------------------------------------------ */

static void
test_edits (void)
{
  g_autoptr(FlitlabDocument) document = flitlab_document_new (from_spec ("mesh:3x3"));
  FlTopology *original = flitlab_document_dup_topology (document);
  FlTopology *after = NULL;
  g_autoptr(GError) error = NULL;
  int edits = 0, undo_notes = 0, a, b, link, node, selected = -1;

  g_signal_connect_swapped (document, "topology-edited", G_CALLBACK (count), &edits);
  g_signal_connect_swapped (document, "notify::can-undo", G_CALLBACK (count), &undo_notes);
  CHECK (!flitlab_document_can_undo (document) && !flitlab_document_can_redo (document),
         "a new document has nothing to undo");

  a = flitlab_document_add_switch (document, 4, 10, 10, &error);
  b = flitlab_document_add_switch (document, 4, 12, 10, &error);
  link = flitlab_document_connect (document, a, b, &error);
  CHECK (a == 18 && b == 19 && link >= 0, "two switches added (%d, %d) and linked (%d)", a, b, link);
  CHECK_INT (edits, 3);
  CHECK (undo_notes == 1 && flitlab_document_can_undo (document), "can-undo turns TRUE once");
  CHECK (flitlab_document_connect (document, a, b, &error) < 0
           && g_error_matches (error, FLITLAB_DOCUMENT_ERROR, FLITLAB_DOCUMENT_ERROR_EDIT)
           && strstr (error->message, "already linked") != NULL,
         "a second link between them is refused: %s", error != NULL ? error->message : "");
  g_clear_error (&error);
  CHECK_INT (edits, 3);

  node = flitlab_document_add_host (document, a, TRUE, 0, 0, NULL);
  CHECK (node == 20 && fl_topology_host_switch (flitlab_document_get_topology (document), node) == a,
         "a host is attached to switch %d", a);
  after = flitlab_document_dup_topology (document);

  for (int i = 0; i < 4; i++)
    flitlab_document_undo (document);
  CHECK (same_topology (flitlab_document_get_topology (document), original),
         "four undos restore the mesh");
  CHECK (!flitlab_document_can_undo (document) && flitlab_document_can_redo (document),
         "nothing is left to undo, everything to redo");
  for (int i = 0; i < 4; i++)
    flitlab_document_redo (document);
  CHECK (same_topology (flitlab_document_get_topology (document), after), "four redos reapply the edits");
  CHECK_INT (edits, 12);

  /* A gesture is one step, and one edit told when it ends. */
  flitlab_document_begin_gesture (document);
  flitlab_document_set_position (document, a, 20, 20);
  flitlab_document_set_position (document, a, 30, 30);
  CHECK_INT (edits, 12);
  flitlab_document_end_gesture (document, TRUE);
  CHECK_INT (edits, 13);
  flitlab_document_undo (document);
  {
    double x, y;

    fl_topology_get_position (flitlab_document_get_topology (document), a, &x, &y);
    CHECK (x == 10 && y == 10, "one undo puts the moved switch back (%g, %g)", x, y);
    flitlab_document_begin_gesture (document);
    flitlab_document_set_position (document, a, 40, 40);
    flitlab_document_end_gesture (document, FALSE);
    fl_topology_get_position (flitlab_document_get_topology (document), a, &x, &y);
    CHECK (x == 10 && y == 10 && edits == 14 && flitlab_document_can_redo (document),
           "a gesture abandoned puts the switch back, with no edit told and no step");
  }

  /* The selection follows the network: what is deleted is forgotten. */
  flitlab_document_select (document, b, -1);
  flitlab_document_get_selection (document, &selected, NULL);
  CHECK_INT (selected, b);
  flitlab_document_delete_selection (document);
  flitlab_document_get_selection (document, &selected, NULL);
  CHECK (selected == -1 && fl_topology_node_count (flitlab_document_get_topology (document)) == 20,
         "deleting the selected switch removes it and clears the selection");

  fl_topology_free (original);
  fl_topology_free (after);
}

/* The route, computed once ----------------------------------------------------- */

static void
test_route_once (void)
{
  g_autoptr(FlitlabDocument) document = flitlab_document_new (from_spec ("torus:4x4"));
  const FlitlabRoute *route, *again;
  int changes = 0;

  g_signal_connect_swapped (document, "route-changed", G_CALLBACK (count), &changes);
  build_routing (document);
  flitlab_document_set_route_endpoints (document, 0, 10);
  CHECK (flitlab_document_get_overlays (document) & FLITLAB_OVERLAY_PATHS,
         "two endpoints show the paths");
  route = flitlab_document_get_route (document);
  again = flitlab_document_get_route (document);
  CHECK (route != NULL && route == again && flitlab_document_get_route_computations (document) == 1,
         "the route is computed once for every reader (%u)",
         flitlab_document_get_route_computations (document));
  CHECK (route != NULL && route->nchosen == 4 && route->npaths > 1 && route->chosen_error == NULL,
         "updown routes 0 → 10 in 4 hops over %d legal shortest paths",
         route != NULL ? route->npaths : -1);

  /* A move keeps the routing and the route; a structural edit drops both. */
  flitlab_document_set_position (document, 0, 5, 5);
  CHECK (flitlab_document_get_routed (document) != NULL
           && flitlab_document_get_route (document) == route,
         "moving a switch keeps the routing and the route");
  flitlab_document_disconnect (document, 0, NULL);
  CHECK (flitlab_document_get_routed (document) == NULL && flitlab_document_get_route (document) == NULL
           && flitlab_document_get_shown_routed (document) != NULL,
         "removing a link drops the routing (its analysis stays readable) and the route");
  build_routing (document);
  CHECK (flitlab_document_get_route (document) != NULL
           && flitlab_document_get_route_computations (document) == 2,
         "a new routing computes the route again, once");
  CHECK (changes >= 3, "route-changed is emitted as the route changes (%d)", changes);
}

/* Turns edited, and their undo ---------------------------------------------------- */

static void
test_turn_undo (void)
{
  g_autoptr(FlitlabDocument) document = flitlab_document_new (from_spec ("ring:6"));
  const FlitlabRoutingRequest *request;
  FlTurn turn;
  int requests = 0;

  g_signal_connect_swapped (document, "request-changed", G_CALLBACK (count), &requests);
  build_routing (document);
  flitlab_document_set_editing_turns (document, TRUE);
  request = flitlab_document_get_request (document);
  CHECK (g_strcmp0 (request->name, "turnset") == 0 && request->turns->len == 2,
         "editing turns routes by turnset, seeded with updown's two turns (%u)", request->turns->len);
  CHECK (flitlab_document_get_overlays (document) & FLITLAB_OVERLAY_TURNS, "the turns are drawn");
  CHECK (!flitlab_document_can_undo (document), "choosing a routing is not an undo step");
  turn = g_array_index (request->turns, FlTurn, 0);

  flitlab_document_toggle_turn (document, &turn);
  CHECK (flitlab_document_get_request (document)->turns->len == 1 && flitlab_document_can_undo (document),
         "a turn allowed leaves one prohibited, and can be undone");
  flitlab_document_undo (document);
  CHECK (flitlab_document_get_request (document)->turns->len == 2, "Ctrl+Z prohibits it again");
  flitlab_document_redo (document);
  CHECK (flitlab_document_get_request (document)->turns->len == 1, "Ctrl+Shift+Z allows it again");
  CHECK_INT (requests, 4);

  flitlab_document_set_routing (document, "updown");
  CHECK (!flitlab_document_get_editing_turns (document), "another routing ends the editing of turns");
}

/* Each network its own state -------------------------------------------------------- */

/* The routing states saved in a project file come back when it is opened
 * again, each with its own network. */
static void
test_session_reopened (FlitlabSession *session)
{
  g_autofree char *dir = g_dir_make_tmp ("flitlab-document-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "saved.flitlab", NULL);
  g_autoptr(FlitlabSession) again = NULL;
  g_autoptr(GError) error = NULL;
  FlProject *reopened = NULL;
  FlitlabDocument *six, *mesh;
  FlError err = { 0 };
  char *value = NULL;

  CHECK (fl_project_save_as (flitlab_session_get_project (session), path, &err) == FL_OK,
         "the project saves: %s", err.message);
  CHECK (fl_project_open (path, &reopened, &err) == FL_OK, "and opens again: %s", err.message);
  CHECK (fl_project_get_topology_setting (reopened, "six", "routing.algorithm", &value, &err) == FL_OK
           && g_strcmp0 (value, "turnset") == 0,
         "the file holds the routing of the renamed network: %s", value ? value : "(unset)");
  free (value);
  again = flitlab_session_new (reopened);
  six = flitlab_session_get_document (again, "six", &error);
  mesh = flitlab_session_get_document (again, "mesh", &error);
  CHECK (six != NULL && mesh != NULL, "both networks open");
  CHECK (flitlab_routing_request_equal (flitlab_document_get_request (six),
                                        flitlab_document_get_request (flitlab_session_get_document (session, "six",
                                                                                                    NULL))),
         "the edited turn set comes back with its network");
  CHECK (g_strcmp0 (flitlab_document_get_routing (mesh), "dor") == 0
           && flitlab_document_get_request (mesh)->turns->len == 0,
         "the other network comes back with dor and no turns");
  {
    int src = -1, dst = -1;

    flitlab_document_get_route_endpoints (six, &src, &dst);
    CHECK (src == 0 && dst == 3, "the route comes back (%d → %d)", src, dst);
  }
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_session (void)
{
  FlProject *project = NULL;
  FlTopology *ring = from_spec ("ring:6"), *mesh = from_spec ("mesh:3x3");
  g_autoptr(FlitlabSession) session = NULL;
  FlitlabDocument *a, *b;
  FlTurn turn = { 0 };
  FlError err = { 0 };

  CHECK (fl_project_new (&project, &err) == FL_OK
           && fl_project_put_topology (project, "ring", ring, 0, &err) == FL_OK
           && fl_project_put_topology (project, "mesh", mesh, 0, &err) == FL_OK,
         "a project with two networks: %s", err.message);
  fl_topology_free (ring);
  fl_topology_free (mesh);
  session = flitlab_session_new (project);

  a = flitlab_session_get_document (session, "ring", NULL);
  build_routing (a);
  flitlab_document_set_editing_turns (a, TRUE);
  turn = g_array_index (flitlab_document_get_request (a)->turns, FlTurn, 0);
  flitlab_document_toggle_turn (a, &turn);
  flitlab_document_set_route_endpoints (a, 0, 3);

  b = flitlab_session_get_document (session, "mesh", NULL);
  CHECK (b != a && g_strcmp0 (flitlab_document_get_routing (b), FLITLAB_DEFAULT_ROUTING) == 0
           && flitlab_document_get_request (b)->turns->len == 0 && !flitlab_document_get_editing_turns (b)
           && flitlab_document_get_overlays (b) == FLITLAB_OVERLAY_NONE,
         "the other network starts with its own routing: updown, no edited turns, no overlays");
  flitlab_document_set_routing (b, "dor");

  CHECK (flitlab_session_get_document (session, "ring", NULL) == a
           && g_strcmp0 (flitlab_document_get_routing (a), "turnset") == 0
           && flitlab_document_get_request (a)->turns->len == 1
           && flitlab_document_can_undo (a),
         "the first network keeps its edited turns and their history");
  CHECK (g_strcmp0 (flitlab_document_get_routing (b), "dor") == 0, "the second keeps dor");

  /* The window renames in the project and in the session. */
  CHECK (fl_project_rename_topology (project, "ring", "six", &err) == FL_OK, "%s", err.message);
  flitlab_session_rename_document (session, "ring", "six");
  CHECK (g_strcmp0 (flitlab_document_get_name (a), "six") == 0, "a rename follows the document");
  CHECK (flitlab_session_save_routing_states (session, NULL), "the routing states are written");
  test_session_reopened (session);
}

/* The routing state, written and read back ------------------------------------------ */

static void
test_routing_state (void)
{
  g_autoptr(FlitlabDocument) saved = flitlab_document_new (from_spec ("torus:4x4"));
  g_autoptr(FlitlabDocument) loaded = flitlab_document_new (from_spec ("torus:4x4"));
  g_autoptr(FlitlabDocument) fresh = flitlab_document_new (NULL);
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) empty = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(FlitlabRoutingRequest) request = flitlab_routing_request_new ("turnset");
  FlTurn turns[2] = { { 5, 0, 1 }, { 1, 2, 3 } };
  int src, dst;

  flitlab_routing_request_set_turns (request, turns, 2);
  request->root = 3;
  request->vc_classes = 2;
  request->order = g_strdup ("yx");
  flitlab_document_set_request (saved, request);
  flitlab_document_set_overlays (saved, FLITLAB_OVERLAY_TURNS | FLITLAB_OVERLAY_CYCLE);
  flitlab_document_set_route_endpoints (saved, 2, 7);
  flitlab_document_save_routing_state (saved, table);
  CHECK (g_strcmp0 (g_hash_table_lookup (table, "routing.algorithm"), "turnset") == 0
           && g_strcmp0 (g_hash_table_lookup (table, "routing.prohibit"), "1:2>3,5:0>1") == 0
           && g_strcmp0 (g_hash_table_lookup (table, "routing.overlays"), "turns,paths,cycle") == 0
           && g_strcmp0 (g_hash_table_lookup (table, "routing.route"), "2>7") == 0,
         "the state is written as text: %s / %s / %s",
         (char *) g_hash_table_lookup (table, "routing.prohibit"),
         (char *) g_hash_table_lookup (table, "routing.overlays"),
         (char *) g_hash_table_lookup (table, "routing.route"));
  for (GHashTableIter it = { 0 }; ; )
    {
      gpointer key;
      gboolean known = FALSE;

      g_hash_table_iter_init (&it, table);
      while (g_hash_table_iter_next (&it, &key, NULL))
        {
          known = FALSE;
          for (const char * const *k = flitlab_document_routing_state_keys (); *k != NULL; k++)
            known |= g_str_equal (*k, key);
          if (!known)
            break;
        }
      CHECK (known, "every key written is a routing state key");
      break;
    }

  flitlab_document_load_routing_state (loaded, table);
  flitlab_document_get_route_endpoints (loaded, &src, &dst);
  CHECK (flitlab_routing_request_equal (flitlab_document_get_request (loaded), request),
         "the request reads back the same");
  CHECK (flitlab_document_get_overlays (loaded) == flitlab_document_get_overlays (saved),
         "the overlays read back");
  CHECK (src == 2 && dst == 7, "the route reads back (%d → %d)", src, dst);
  CHECK (!flitlab_document_can_undo (loaded), "reading the state is not an edit");

  /* Defaults are left out, and a table without keys gives them back. */
  flitlab_document_save_routing_state (fresh, empty);
  CHECK_INT (g_hash_table_size (empty), 0);
  g_hash_table_insert (empty, g_strdup ("routing.algorithm"), g_strdup ("no-such-routing"));
  g_hash_table_insert (empty, g_strdup ("routing.prohibit"), g_strdup ("1:2"));
  g_hash_table_insert (empty, g_strdup ("routing.root"), g_strdup ("x"));
  flitlab_document_load_routing_state (fresh, empty);
  CHECK (g_strcmp0 (flitlab_document_get_routing (fresh), FLITLAB_DEFAULT_ROUTING) == 0
           && flitlab_document_get_request (fresh)->turns->len == 0
           && flitlab_document_get_request (fresh)->root == -1,
         "values that cannot be read keep their defaults");
}

static void
test_next (void)
{
  g_autoptr(FlitlabDocument) document = flitlab_document_new (from_spec ("mesh:3x3"));
  g_autoptr(FlitlabSimSession) session = NULL;
  g_autoptr(GError) error = NULL;
  GObject *simulation = (GObject *) 1;
  const int *dests = NULL, kept[] = { 2, 7 };
  guint n_dests = 1;
  FlSimConfig config;

  g_object_get (document, "simulation", &simulation, NULL);
  CHECK (simulation == NULL && flitlab_document_get_multicast (document, &dests, &n_dests) == -1 && n_dests == 0,
         "no simulation or multicast to begin with");
  flitlab_document_set_multicast (document, 4, kept, 2);
  CHECK (flitlab_document_get_multicast (document, &dests, &n_dests) == 4 && n_dests == 2 && dests[0] == 2
           && dests[1] == 7,
         "the document keeps a multicast's nodes");
  flitlab_document_set_routing (document, "dor");
  build_routing (document);
  fl_sim_config_init (&config);
  config.routing = flitlab_document_get_routed (document)->routing;
  session = flitlab_sim_session_new (flitlab_document_get_routed (document), &config, &error);
  CHECK (session != NULL, "a session on the routing shown: %s", error ? error->message : "ok");
  flitlab_document_set_simulation (document, session);
  CHECK (flitlab_document_get_simulation (document) == session, "a simulation session can be attached");
  flitlab_document_set_routing (document, "updown");
  build_routing (document);
  CHECK (flitlab_document_get_simulation (document) == NULL,
         "the simulation ends when its routing is no longer shown");
}

/* Workers ------------------------------------------------------------------------------ */

typedef struct {
  int delivered;
  gboolean cancelled;
  double progress;
  char *result;
} Outcome;

/* Reports progress until cancelled, as a long engine computation would. */
static gpointer
spin_job (FlitlabJob  *job,
          gpointer     data,
          GError     **error)
{
  for (int i = 0; ; i++)
    {
      if (flitlab_job_progress (job, (i % 1000) / 1000.0))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
          return NULL;
        }
      g_usleep (1000);
    }
}

static gpointer
quick_job (FlitlabJob  *job,
           gpointer     data,
           GError     **error)
{
  return g_strdup (data);
}

static void
job_progress (gpointer user_data,
              double   fraction)
{
  ((Outcome *) user_data)->progress = fraction;
}

static void
job_done (gpointer      user_data,
          gpointer      result,
          const GError *error)
{
  Outcome *outcome = user_data;

  outcome->delivered++;
  outcome->cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_free (outcome->result);
  outcome->result = result;
}

static gboolean
iterate_until (gboolean (*done) (gpointer), gpointer data)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!done (data) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  return done (data);
}

static gboolean
was_delivered (gpointer data)
{
  return ((Outcome *) data)->delivered > 0;
}

static gboolean
has_progress (gpointer data)
{
  return ((Outcome *) data)->progress > 0;
}

static gboolean
is_idle (gpointer data)
{
  return !flitlab_workers_get_busy (data);
}

static void
test_workers (void)
{
  g_autoptr(FlitlabWorkers) workers = flitlab_workers_new ();
  Outcome first = { 0 }, second = { 0 }, third = { 0 }, measured = { 0 };

  /* A job superseded by another of its kind is never delivered. */
  flitlab_workers_run (workers, FLITLAB_JOB_ROUTE, spin_job, NULL, NULL, g_free, NULL, job_done,
                       &first);
  CHECK (flitlab_workers_get_busy (workers), "a running job makes the workers busy");
  flitlab_workers_run (workers, FLITLAB_JOB_ROUTE, quick_job, (gpointer) "second", NULL, g_free,
                       NULL, job_done, &second);
  CHECK (iterate_until (was_delivered, &second) && g_strcmp0 (second.result, "second") == 0,
         "the newer job delivers its result");
  CHECK (iterate_until (is_idle, workers), "the workers are idle again");
  CHECK_INT (first.delivered, 0);

  /* The user's cancel stops the engine through its progress callback and
   * is delivered as cancelled. */
  flitlab_workers_run (workers, FLITLAB_JOB_MEASURE, spin_job, NULL, NULL, g_free, job_progress,
                       job_done, &third);
  CHECK (iterate_until (has_progress, &third), "progress reaches the main loop");
  flitlab_workers_cancel_all (workers);
  CHECK (iterate_until (was_delivered, &third) && third.cancelled,
         "a cancelled job is delivered as cancelled");

  /* A real measurement, through the same machinery. */
  flitlab_workers_measure (workers, from_spec ("torus:4x4"), NULL, job_done, &measured);
  CHECK (iterate_until (was_delivered, &measured) && measured.result != NULL
           && ((FlitlabMeasurement *) measured.result)->metrics.diameter == 4,
         "a measurement finds the 4x4 torus' diameter");
  flitlab_measurement_free ((FlitlabMeasurement *) measured.result);
  g_free (second.result);
}

int
main (void)
{
  test_edits ();
  test_route_once ();
  test_turn_undo ();
  test_session ();
  test_routing_state ();
  test_next ();
  test_workers ();
  return tap_done ();
}
