/* flitlab-document.h — one network of a project and everything known about
 * it that is not a way of looking at it.
 *
 * The document owns the topology being edited and its undo history, the
 * selection, the routing asked for (algorithm, options, edited turns), the
 * routing built for it with its analysis (a FlitlabRouted, built by a
 * worker and handed back), the overlays chosen and the route between two
 * switches with its paths, computed once for every view that shows them.
 * The canvas is a view of a document; the panels and the window bind to
 * its properties and signals, never to the canvas.
 *
 * Properties: "name" (string), "can-undo", "can-redo" (read-only),
 * "routing" (string, registry name), "root" (int, -1 = the paper's rule),
 * "vc-classes" (int, 0 = default), "order" (string, NULL = default),
 * "editing-turns" (boolean), "overlays" (FlitlabOverlay), "routed"
 * (FlitlabRouted, NULL while none is built for the network as it is),
 * "refused" (string: why the engine refused the routing asked for),
 * "simulation" (FlitlabSimSession, NULL when none: a simulation of this
 * network on the routing shown, with its cycle, play state and checkpoints;
 * it ends when that routing is no longer shown).
 *
 * Signals: "topology-edited" (), after every edit of structure or positions,
 * undo and redo included; "selection-changed" (); "request-changed" (),
 * whenever the routing asked for changes (by the user, undo or redo);
 * "route-changed" (), when the route's endpoints or its paths change;
 * "sim-settings-changed" (), when the simulation settings change.
 */
#pragma once

#include <glib-object.h>

#include "flitlab.h"
#include "flitlab-routed.h"
#include "flitlab-sim-session.h"
#include "flitlab-routing-request.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_DOCUMENT (flitlab_document_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabDocument, flitlab_document, FLITLAB, DOCUMENT, GObject)

/* The same values as the FL_DRAW_OVERLAY_* bits of flitlab-draw.h. */
typedef enum {
  FLITLAB_OVERLAY_NONE       = 0,
  FLITLAB_OVERLAY_TURNS      = 1 << 0, /* prohibited turns: arcs at the switch between the two links, with a legend */
  FLITLAB_OVERLAY_DIRECTIONS = 1 << 1, /* channel direction labels: up/down, or LU/LD/RU/RD with each switch's (h, v) */
  FLITLAB_OVERLAY_HV_GRAPH   = 1 << 2, /* draw the network at H/V coordinates (preorder, depth): the H/V graph itself */
  FLITLAB_OVERLAY_PATHS      = 1 << 3, /* every legal shortest path between the route endpoints, the chosen in bold */
  FLITLAB_OVERLAY_CYCLE      = 1 << 4, /* the report's CDG cycle, highlighted channel by channel */
} FlitlabOverlay;

#define FLITLAB_TYPE_OVERLAY (flitlab_overlay_get_type ())
GType flitlab_overlay_get_type (void) G_GNUC_CONST;

/* The routing a new network starts with: up* / down* serves every
 * connected network, so there is something to show at once. */
#define FLITLAB_DEFAULT_ROUTING "updown"

/* The route between two switches: the path the routing chooses and the
 * legal shortest paths, counted up to FLITLAB_ROUTE_MAX_PATHS (more than a
 * class can look at, and quick to enumerate on any network shown). */
#define FLITLAB_ROUTE_MAX_PATHS 1000

typedef struct
{
  int src, dst;                /* switch node ids */
  int *chosen;                 /* channels of the chosen path, nchosen long */
  int nchosen;
  char *chosen_error;          /* why there is no chosen path, or NULL */
  int *paths, *path_offsets;   /* fl_routing_all_paths()' layout */
  int npaths;
  gboolean truncated;          /* more than npaths exist */
} FlitlabRoute;

#define FLITLAB_DOCUMENT_ERROR (flitlab_document_error_quark ())
typedef enum {
  FLITLAB_DOCUMENT_ERROR_EDIT,     /* the engine refused an edit */
} FlitlabDocumentError;
GQuark flitlab_document_error_quark (void);

/* Takes ownership of topology (NULL: an empty network). */
FlitlabDocument    *flitlab_document_new                  (FlTopology             *topology);

const char         *flitlab_document_get_name             (FlitlabDocument        *self);
void                flitlab_document_set_name             (FlitlabDocument        *self,
                                                           const char             *name);

/* The topology: never NULL, changed only through the document. */
const FlTopology   *flitlab_document_get_topology         (FlitlabDocument        *self);
/* A copy for worker threads. */
FlTopology         *flitlab_document_dup_topology         (FlitlabDocument        *self);

/* Editing ------------------------------------------------------------------- */

/* Each edit is one undo step; a refused one changes nothing and says why. */
int                 flitlab_document_add_switch           (FlitlabDocument        *self,
                                                           int                     ports,
                                                           double                  x,
                                                           double                  y,
                                                           GError                **error);
/* A host attached to switch sw, placed at (x, y) or, when at_switch, where
 * the drawing fans out the hosts of sw. */
int                 flitlab_document_add_host             (FlitlabDocument        *self,
                                                           int                     sw,
                                                           gboolean                at_switch,
                                                           double                  x,
                                                           double                  y,
                                                           GError                **error);
/* Links the lowest free ports of a and b; returns the link. A drawn
 * network has no parallel links: joined nodes are refused. */
int                 flitlab_document_connect              (FlitlabDocument        *self,
                                                           int                     a,
                                                           int                     b,
                                                           GError                **error);
/* Removes a node; a switch takes its hosts with it. */
gboolean            flitlab_document_remove_node          (FlitlabDocument        *self,
                                                           int                     node,
                                                           GError                **error);
gboolean            flitlab_document_disconnect           (FlitlabDocument        *self,
                                                           int                     link,
                                                           GError                **error);
gboolean            flitlab_document_set_node_ports       (FlitlabDocument        *self,
                                                           int                     node,
                                                           int                     nports,
                                                           GError                **error);
/* Deletes the selected node or link. */
void                flitlab_document_delete_selection     (FlitlabDocument        *self);

/* A gesture (a drag moving nodes) is one undo step: positions set between
 * begin and end are recorded as one, or put back when commit is FALSE
 * (views that drew the gesture redraw). "topology-edited" is emitted when
 * a gesture is committed, not for each position. Positions set outside a
 * gesture are one step each. */
void                flitlab_document_begin_gesture        (FlitlabDocument        *self);
void                flitlab_document_set_position         (FlitlabDocument        *self,
                                                           int                     node,
                                                           double                  x,
                                                           double                  y);
void                flitlab_document_end_gesture          (FlitlabDocument        *self,
                                                           gboolean                commit);
gboolean            flitlab_document_in_gesture           (FlitlabDocument        *self);

gboolean            flitlab_document_can_undo             (FlitlabDocument        *self);
gboolean            flitlab_document_can_redo             (FlitlabDocument        *self);
/* Undo and redo first end a gesture in progress, so it is one step too. */
void                flitlab_document_undo                 (FlitlabDocument        *self);
void                flitlab_document_redo                 (FlitlabDocument        *self);

/* Selection: -1 = none; a node and a link are never both selected. */
void                flitlab_document_get_selection        (FlitlabDocument        *self,
                                                           int                    *node,
                                                           int                    *link);
void                flitlab_document_select               (FlitlabDocument        *self,
                                                           int                     node,
                                                           int                     link);

/* The routing asked for --------------------------------------------------- */

/* Every change below emits "request-changed"; a turn toggled is also an
 * undo step (undo and redo restore the whole request). */
const FlitlabRoutingRequest *flitlab_document_get_request (FlitlabDocument        *self);
void                flitlab_document_set_request          (FlitlabDocument             *self,
                                                           const FlitlabRoutingRequest *request);
/* turnset starts from the prohibited turns of the routing shown, so that
 * editing begins with a working routing and changes it one turn at a time. */
void                flitlab_document_set_routing          (FlitlabDocument        *self,
                                                           const char             *name);
const char         *flitlab_document_get_routing          (FlitlabDocument        *self);
void                flitlab_document_set_root             (FlitlabDocument        *self,
                                                           int                     root);
void                flitlab_document_set_vc_classes       (FlitlabDocument        *self,
                                                           int                     vc_classes);
void                flitlab_document_set_order            (FlitlabDocument        *self,
                                                           const char             *order);
/* Prohibits turn if it is allowed, allows it if not; starts editing turns
 * (on turnset) if that was not under way. */
void                flitlab_document_toggle_turn          (FlitlabDocument        *self,
                                                           const FlTurn           *turn);

/* Editing turns routes by turnset and draws the turns to be clicked. */
void                flitlab_document_set_editing_turns    (FlitlabDocument        *self,
                                                           gboolean                editing);
gboolean            flitlab_document_get_editing_turns    (FlitlabDocument        *self);

/* The routing built -------------------------------------------------------- */

/* The routing built for the request on the network as it is (taken a
 * reference; NULL: none). An edit of structure drops it. */
void                flitlab_document_set_routed           (FlitlabDocument        *self,
                                                           FlitlabRouted          *routed);
FlitlabRouted      *flitlab_document_get_routed           (FlitlabDocument        *self);
/* The routing whose analysis to show: the one built, or while it is being
 * built again after an edit, the one dropped (stale, but readable). */
FlitlabRouted      *flitlab_document_get_shown_routed     (FlitlabDocument        *self);
/* Why the engine refused the request, in its words (NULL: not refused). */
void                flitlab_document_set_refused          (FlitlabDocument        *self,
                                                           const char             *message);
const char         *flitlab_document_get_refused          (FlitlabDocument        *self);

void                flitlab_document_set_overlays         (FlitlabDocument        *self,
                                                           FlitlabOverlay          overlays);
FlitlabOverlay      flitlab_document_get_overlays         (FlitlabDocument        *self);

/* The route: switch node ids (anything else means none); two endpoints
 * show the paths overlay. */
void                flitlab_document_set_route_endpoints  (FlitlabDocument        *self,
                                                           int                     src,
                                                           int                     dst);
void                flitlab_document_get_route_endpoints  (FlitlabDocument        *self,
                                                           int                    *src,
                                                           int                    *dst);
/* The route between the endpoints under the routing built, computed on the
 * first call after a change and kept; NULL without two endpoints or a
 * routing. */
const FlitlabRoute *flitlab_document_get_route            (FlitlabDocument        *self);
/* How many times the route has been computed: views share one. */
guint               flitlab_document_get_route_computations (FlitlabDocument      *self);

/* What comes next ------------------------------------------------------- */

FlitlabSimSession  *flitlab_document_get_simulation       (FlitlabDocument        *self);
void                flitlab_document_set_simulation       (FlitlabDocument        *self,
                                                           FlitlabSimSession      *simulation);
/* Starts watching the network simulated: a session on the routing built
 * and the simulation settings, set as "simulation" (which it replaces) and
 * returned (owned by the document). NULL with error set when there is no
 * routing built or the engine refuses the settings. A change of either
 * drops the session. */
FlitlabSimSession  *flitlab_document_watch                (FlitlabDocument        *self,
                                                           GError                **error);
/* The same on a configuration of the caller's (NULL: the simulation
 * settings'), its traffic replaying events (n_events of them, sorted by
 * cycle; taken, and freed with free() along with the session): a
 * collective's run, watched flit by flit. The configuration's routing and
 * traffic pattern are set here; the rest is used as given. */
FlitlabSimSession  *flitlab_document_watch_events         (FlitlabDocument        *self,
                                                           const FlSimConfig      *config,
                                                           FlTraceEvent           *events,
                                                           gint64                  n_events,
                                                           GError                **error);
/* The trace a trace pattern replays, read into *events (free()) and set in
 * cfg; nothing for another pattern. */
int                 flitlab_document_read_trace           (const FlSimSettings    *settings,
                                                           FlSimConfig            *cfg,
                                                           FlTraceEvent          **events,
                                                           FlError                *err);
/* The multicast the Collectives tab plans on this network: its source (a
 * host rank, -1 for none) and destinations, kept with the document so that
 * coming back to the network finds them (not saved in the project file). */
void                flitlab_document_set_multicast        (FlitlabDocument        *self,
                                                           int                     source,
                                                           const int              *dests,
                                                           guint                   n_dests);
/* The source; the destinations into *dests (owned by the document, valid
 * until the next set) and *n_dests. */
int                 flitlab_document_get_multicast        (FlitlabDocument        *self,
                                                           const int             **dests,
                                                           guint                  *n_dests);

/* The simulation settings of the network: the engine's FlSimSettings,
 * every key of its table (fl_sim_settings_key()), fresh settings at first.
 * Setting them takes a copy and emits "sim-settings-changed"; their
 * configuration's routing is NULL (a simulation takes the routing built). */
const FlSimSettings *flitlab_document_get_sim_settings    (FlitlabDocument        *self);
void                flitlab_document_set_sim_settings     (FlitlabDocument        *self,
                                                           const FlSimSettings    *settings);

/* Routing state kept with the project ---------------------------------------- */

/* The keys under which the routing state is kept: routing.algorithm,
 * routing.root, routing.classes, routing.order, routing.turns,
 * routing.overlays, routing.route, then sim.KEY for every KEY of the
 * simulation settings' table, holding fl_sim_settings_format()'s text
 * (NULL-terminated). */
const char * const *flitlab_document_routing_state_keys   (void);
/* Writes the routing state into key_to_value (string keys and values,
 * both owned by the table: g_hash_table_new_full (g_str_hash, g_str_equal,
 * g_free, g_free)). Keys whose value is the default are left out. */
void                flitlab_document_save_routing_state   (FlitlabDocument        *self,
                                                           GHashTable             *key_to_value);
/* Restores the state in key_to_value, not as an undo step; values it
 * cannot read are ignored, keys missing keep their defaults. */
void                flitlab_document_load_routing_state   (FlitlabDocument        *self,
                                                           GHashTable             *key_to_value);

G_END_DECLS
