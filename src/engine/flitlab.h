/* flitlab.h — the Flitlab simulation engine, its one public header.
 *
 * Plain C11, no GLib. Every piece of state hangs off a handle the caller owns;
 * there are no mutable globals. Functions that can fail return an FlStatus
 * (FL_OK == 0) and, where the caller passes one, fill an FlError with a
 * one-line message that names the problem. A failing call leaves its inputs
 * untouched and its outputs unset.
 *
 * Thread safety: distinct handles may be used from distinct threads. A handle
 * may be read from several threads at once only through the const functions.
 */
#ifndef FLITLAB_H
#define FLITLAB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FL_VERSION_STRING "0.1.0"

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */
/* ------------------------------------------------------------------------ */

/* One X-macro so the enum and fl_strerror() can never drift apart. */
#define FL_STATUS_LIST(X)                                                  \
    X(FL_OK, "success")                                                    \
    X(FL_ENOMEM, "out of memory")                                          \
    X(FL_EINVAL, "invalid argument")                                       \
    X(FL_ESPEC, "bad topology specification")                              \
    X(FL_ERANGE, "value out of range")                                     \
    X(FL_EPORT, "port out of range or already connected")                  \
    X(FL_ENOTFOUND, "no such item")                                        \
    X(FL_EPARSE, "malformed input")                                        \
    X(FL_EIO, "input/output error")                                        \
    X(FL_EDISCONNECTED, "network is not connected")                        \
    X(FL_EUNSUPPORTED, "not supported for this network")                   \
    X(FL_ECANCELLED, "cancelled")                                          \
    X(FL_EVERSION, "file was written by a newer version")                  \
    X(FL_EEXIST, "already exists")

typedef enum FlStatus {
#define FL__STATUS_ENUM(name, text) name,
    FL_STATUS_LIST(FL__STATUS_ENUM)
#undef FL__STATUS_ENUM
    FL_STATUS_COUNT
} FlStatus;

/* A short generic text for a status code; never NULL. */
const char *fl_strerror(int status);

/* Detailed error report. Callers may pass NULL wherever an FlError * is taken.
 * message is always NUL-terminated; it is a single line without a trailing
 * period, suitable for "flitlab: <message>". */
#define FL_ERROR_MESSAGE_MAX 512
typedef struct FlError {
    int code;                            /* an FlStatus */
    char message[FL_ERROR_MESSAGE_MAX];
} FlError;

/* Sets err (if non-NULL) and returns code, so callers can write
 *   return fl_error_set(err, FL_ESPEC, "xmesh sizes must be even, got %d", n);
 */
int fl_error_set(FlError *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void fl_error_clear(FlError *err);

/* Optional progress callback for long computations: fraction in [0, 1].
 * Returning non-zero cancels the computation, which then returns
 * FL_ECANCELLED. Called from the computing thread. */
typedef int (*FlProgressFunc)(void *user_data, double fraction);

/* ------------------------------------------------------------------------ */
/* Topology                                                                 */
/* ------------------------------------------------------------------------ */
/*
 * A topology is a set of nodes (switches and hosts) with numbered ports, and
 * full-duplex links that join two ports. Every link l is two unidirectional
 * channels: channel 2*l runs from the link's end a to end b, channel 2*l + 1
 * from b to a. A host has one port and is attached to exactly one switch.
 *
 * Nodes, links and channels are dense integer indices; removing a node or a
 * link renumbers everything after it (order is kept). The engine's hot loops
 * iterate over flat arrays indexed by these integers.
 *
 * Switches may carry integer coordinates (up to FL_MAX_DIMS) that routing
 * rules use, and every node has a drawing position (x, y) in layout units
 * (one unit = one grid step of the regular families).
 */

#define FL_MAX_DIMS 3

typedef struct FlTopology FlTopology;

typedef enum FlNodeKind {
    FL_NODE_SWITCH = 0,
    FL_NODE_HOST = 1
} FlNodeKind;

/* An empty topology of family "custom". NULL only when out of memory. */
FlTopology *fl_topology_new(void);
/* Frees t; NULL is harmless. */
void fl_topology_free(FlTopology *t);
/* A deep copy, or NULL when out of memory. */
FlTopology *fl_topology_copy(const FlTopology *t);

/* --- building and editing. Any edit resets the family to "custom". ------ */

/* Appends a node with nports ports (a host must have exactly 1; a switch
 * 1..FL_MAX_PORTS). Its id is stored in *id. */
#define FL_MAX_PORTS 256
int fl_topology_add_node(FlTopology *t, FlNodeKind kind, int nports, int *id,
                         FlError *err);

/* Joins port pa of node a to port pb of node b. A port of -1 means the
 * lowest free port. Refuses self-loops, used or out-of-range ports, and
 * host-to-host links. Parallel links between two switches are allowed here
 * (imported files may have them); fl_topology_validate() reports them. */
int fl_topology_connect(FlTopology *t, int a, int pa, int b, int pb,
                        int *link, FlError *err);

/* Removes link l; links above l move down by one. */
int fl_topology_disconnect(FlTopology *t, int link, FlError *err);

/* Removes node n and its links; nodes above n move down by one. */
int fl_topology_remove_node(FlTopology *t, int node, FlError *err);

/* Changes a node's port count; the ports that disappear must be free. */
int fl_topology_set_node_ports(FlTopology *t, int node, int nports,
                               FlError *err);

/* --- queries: O(1) unless stated. Out-of-range indices return -1. ------- */

int fl_topology_node_count(const FlTopology *t);
int fl_topology_switch_count(const FlTopology *t);
int fl_topology_host_count(const FlTopology *t);
/* All links, host links included. */
int fl_topology_link_count(const FlTopology *t);
/* Switch-to-switch links only. */
int fl_topology_switch_link_count(const FlTopology *t);
int fl_topology_channel_count(const FlTopology *t); /* 2 * link_count */

FlNodeKind fl_topology_node_kind(const FlTopology *t, int node);
int fl_topology_node_ports(const FlTopology *t, int node);
/* The link on a port, or -1 if the port is free. */
int fl_topology_port_link(const FlTopology *t, int node, int port);
/* The node at the other end of a port (and its port in *peer_port), or -1. */
int fl_topology_port_peer(const FlTopology *t, int node, int port,
                          int *peer_port);
/* Number of connected ports of a switch that lead to switches. */
int fl_topology_switch_degree(const FlTopology *t, int node);
/* The switch a host is attached to, or -1 if unattached / not a host. */
int fl_topology_host_switch(const FlTopology *t, int host);

/* The ends of link l; any out pointer may be NULL. */
int fl_topology_link_ends(const FlTopology *t, int link, int *a, int *pa,
                          int *b, int *pb);
/* Source and destination node of channel c (see the channel numbering). */
int fl_topology_channel_src(const FlTopology *t, int channel);
int fl_topology_channel_dst(const FlTopology *t, int channel);

/* The i-th switch / host in node order (0 <= i < count): O(1). */
int fl_topology_switch_node(const FlTopology *t, int i);
int fl_topology_host_node(const FlTopology *t, int i);
/* Inverse of the above: the rank of a switch among switches (or of a host
 * among hosts), or -1. */
int fl_topology_node_rank(const FlTopology *t, int node);

/* --- coordinates and drawing positions ---------------------------------- */

/* Number of coordinate dimensions (0 for networks without coordinates). */
int fl_topology_coord_dims(const FlTopology *t);
/* Sets the number of coordinate dimensions (0..FL_MAX_DIMS); existing
 * coordinates are kept where they fit and zero elsewhere. */
int fl_topology_set_coord_dims(FlTopology *t, int ndims);
/* Copies coord_dims() integers. */
int fl_topology_get_coords(const FlTopology *t, int node, int *coords);
int fl_topology_set_coords(FlTopology *t, int node, const int *coords);

int fl_topology_get_position(const FlTopology *t, int node, double *x,
                             double *y);
/* Positions are presentation, not structure: setting them keeps the family. */
int fl_topology_set_position(FlTopology *t, int node, double x, double y);

/* --- family and name ---------------------------------------------------- */

/* The generator family ("mesh", "torus", ..., or "custom"); never NULL. */
const char *fl_topology_family(const FlTopology *t);
/* The family's size parameters (e.g. 8, 8 for torus:8x8); returns count. */
int fl_topology_family_dims(const FlTopology *t, int dims[FL_MAX_DIMS]);
/* The canonical spec that regenerates t, or NULL for custom networks. */
const char *fl_topology_spec(const FlTopology *t);
/* Sets family metadata; used by generators and file readers. family is a
 * non-empty name of at most 63 bytes; spec may be NULL; ndims 0..FL_MAX_DIMS.
 * Returns FL_EINVAL for a bad argument, FL_ENOMEM. */
int fl_topology_set_family(FlTopology *t, const char *family, int ndims,
                           const int *dims, const char *spec);

/* A user-visible name; never NULL (empty when unset). */
const char *fl_topology_name(const FlTopology *t);
int fl_topology_set_name(FlTopology *t, const char *name);

/* Checks a network as a drawn or imported one must be: at least one switch,
 * every host attached to a switch, no parallel switch links, and the switch
 * graph connected. Returns FL_OK or the first problem found, described in
 * err (e.g. "switch 7 is not connected to switch 0"). O(nodes + links). */
int fl_topology_validate(const FlTopology *t, FlError *err);

/* ------------------------------------------------------------------------ */
/* Generators                                                               */
/* ------------------------------------------------------------------------ */
/*
 * Specs are short strings: FAMILY:SIZE[,key=value]...
 *   mesh:8x8  torus:4x4x4  hypercube:6  ring:16  line:8
 *   xmesh:36x72  dmesh:35x71
 *   irregular:64,ports=4,hosts=4,seed=7
 *   myrinet-line:8  myrinet-mesh:4x8
 * Keys accepted by every family: hosts=H (hosts per switch; the regular
 * families default to 1). irregular also takes ports=P and seed=X.
 */

typedef struct FlFamilyInfo {
    const char *name;        /* "mesh" */
    const char *syntax;      /* "mesh:AxB[xC][,hosts=H]" */
    const char *summary;     /* one line for menus and --help */
} FlFamilyInfo;

/* The generator registry, in menu order. */
int fl_family_count(void);
const FlFamilyInfo *fl_family_info(int index);
const FlFamilyInfo *fl_family_lookup(const char *name);

/* Parses spec without building anything: cheap, for validating as the user
 * types. */
int fl_spec_validate(const char *spec, FlError *err);

/* Builds the network a spec describes, with coordinates and a drawing
 * layout, in *out. Generation is deterministic: the same spec (with its
 * seed) gives the same network. */
int fl_topology_from_spec(const char *spec, FlTopology **out, FlError *err);

/* ------------------------------------------------------------------------ */
/* Metrics                                                                  */
/* ------------------------------------------------------------------------ */

typedef enum FlBisectionMethod {
    FL_BISECTION_NONE = 0,     /* not computed (fewer than two switches) */
    FL_BISECTION_EXHAUSTIVE,   /* exact: search over balanced cuts */
    FL_BISECTION_CLOSED_FORM,  /* exact: the family's known formula */
    FL_BISECTION_METIS         /* upper bound: a balanced cut from METIS */
} FlBisectionMethod;

const char *fl_bisection_method_name(FlBisectionMethod m);

typedef struct FlMetricsOptions {
    /* Exhaustive bisection search is used up to this many switches
     * (0 = the default, 28); closed forms and METIS above it. */
    int exact_bisection_max;
    uint64_t seed;             /* METIS seed */
    FlProgressFunc progress;   /* may be NULL */
    void *progress_data;
} FlMetricsOptions;

typedef struct FlMetrics {
    int switches;
    int hosts;
    int links;                 /* full-duplex switch-to-switch links */
    int degree_min;            /* switch-to-switch degree */
    int degree_max;
    int connected;             /* boolean: switch graph connected */
    int diameter;              /* between switches; -1 if disconnected */
    double mean_distance;      /* over ordered pairs of distinct switches
                                * (paper 003 eq. 5); reachable pairs only */
    /* distance_histogram[k] = number of ordered switch pairs (u, v) at
     * distance k; index 0 counts the pairs (u, u). Length diameter + 1. */
    int64_t *distance_histogram;
    int histogram_len;
    int bisection_width;       /* links cut; -1 if not computed */
    FlBisectionMethod bisection_method;
    /* Paper 003 eqs. 11-13 with unit service times: messages per unit time
     * for the whole network, min(N, L / d). 0 if disconnected. */
    double throughput_bound;
} FlMetrics;

/* Computes every metric. All-pairs BFS over switches: O(S * (S + L)).
 * m must be released with fl_metrics_clear(). opt may be NULL. */
int fl_metrics_compute(const FlTopology *t, const FlMetricsOptions *opt,
                       FlMetrics *m, FlError *err);
void fl_metrics_clear(FlMetrics *m);

/* Distances from one switch to every switch (by switch rank), -1 if
 * unreachable. dist must hold switch_count() ints. O(S + L). */
int fl_topology_bfs(const FlTopology *t, int source_switch_rank, int *dist,
                    FlError *err);

/* ------------------------------------------------------------------------ */
/* Random numbers                                                           */
/* ------------------------------------------------------------------------ */
/* A small, fast generator (xoshiro256**) that the caller owns, so every
 * random choice in the engine is reproducible from an explicit seed. */
typedef struct FlRng {
    uint64_t s[4];
} FlRng;

void fl_rng_seed(FlRng *rng, uint64_t seed);
uint64_t fl_rng_next(FlRng *rng);
/* Uniform integer in [0, n), n >= 1, without modulo bias. */
uint32_t fl_rng_below(FlRng *rng, uint32_t n);
/* Uniform double in [0, 1). */
double fl_rng_uniform(FlRng *rng);

/* ------------------------------------------------------------------------ */
/* Routing                                                                  */
/* ------------------------------------------------------------------------ */
/*
 * A routing is built for one topology (which must outlive it and not change
 * while it is in use). For a packet at switch sw that arrived on channel
 * in_channel (or was injected there by a host: in_channel = -1) in virtual
 * channel class in_class, heading for destination switch dest, the routing
 * gives the set of legal next hops: output channels with the VC class to use
 * on each. A selection function then picks one. Algorithmic routings (DOR,
 * the turn model, XMESH self-routing) and table routings (shortest legal
 * paths under a set of prohibited turns: up and down, L-turn, R-turn, an
 * edited turn set) share this interface.
 *
 * Switches and destinations are node ids (fl_topology_switch_node()).
 * A turn at a switch is the pair (input port, output port) of two distinct
 * switch-to-switch links; a packet entering on in_port and leaving on
 * out_port makes that turn.
 */

typedef struct FlRouting FlRouting;

typedef struct FlTurn {
    int sw;        /* switch node id */
    int in_port;   /* port the packet arrives on */
    int out_port;  /* port it leaves by */
} FlTurn;

typedef struct FlRoutingOptions {
    int root;                 /* up* / down*, L-/R-turn: root switch node id, or
                               * -1 for the paper's rule (the default) */
    int vc_classes;           /* classes the routing may use; 0 = its default
                               * (dor on a torus: 2 with a dateline; 1 = none) */
    const char *order;        /* dor: "xy" (default) or "yx" (dimension order) */
    const FlTurn *prohibited; /* turnset: the prohibited turns */
    int n_prohibited;
    FlProgressFunc progress;  /* table construction on large networks */
    void *progress_data;
} FlRoutingOptions;

typedef struct FlRouteChoice {
    int port;      /* output port of the switch */
    int channel;   /* the channel leaving by that port */
    int vc_class;  /* VC class to use on it */
} FlRouteChoice;

typedef struct FlRoutingInfo {
    const char *name;         /* CLI name: "dor", "updown", "lturn-alpha", ... */
    const char *summary;      /* one line */
    const char *applies_to;   /* "meshes, tori and hypercubes", "any network" */
    int is_table;             /* built as shortest legal paths over turns */
} FlRoutingInfo;

int fl_routing_count(void);
const FlRoutingInfo *fl_routing_info(int index);
const FlRoutingInfo *fl_routing_lookup(const char *name);

/* Builds a routing; refuses a topology it cannot serve (xmesh on a
 * hypercube, dor on an irregular network) with FL_EUNSUPPORTED and a message
 * that says why. opt may be NULL. */
int fl_routing_new(const FlTopology *t, const char *name, const FlRoutingOptions *opt,
                   FlRouting **out, FlError *err);
void fl_routing_free(FlRouting *r);
const FlRoutingInfo *fl_routing_get_info(const FlRouting *r);
const FlTopology *fl_routing_topology(const FlRouting *r);
int fl_routing_vc_classes(const FlRouting *r);

/* The maximum number of choices fl_routing_next() can return. */
#define FL_ROUTE_MAX_CHOICES (FL_MAX_PORTS * 2)

/* The legal next hops, in increasing port order, into out (capacity max);
 * returns their number, 0 when sw == dest (the packet ejects there) or when
 * no legal hop exists (a routing that is not connected). The hot path of the
 * simulator: no allocation, O(ports) for algorithmic routings. */
int fl_routing_next(const FlRouting *r, int sw, int in_channel, int in_class, int dest,
                    FlRouteChoice *out, int max);

typedef enum FlSelection {
    FL_SELECT_LOWEST_PORT = 0,   /* paper 002's choice */
    FL_SELECT_RANDOM,            /* uniform, from the caller's generator */
    FL_SELECT_CREDITS            /* most downstream credits, ties to lowest port */
} FlSelection;

/* Downstream buffer state for FL_SELECT_CREDITS: free buffer slots of
 * (channel, vc_class). */
typedef int (*FlCreditsFunc)(void *user_data, int channel, int vc_class);

/* Picks one of n >= 1 choices; returns its index. rng is needed for
 * FL_SELECT_RANDOM, credits for FL_SELECT_CREDITS. */
int fl_routing_select(const FlRouteChoice *choices, int n, FlSelection how, FlRng *rng,
                      FlCreditsFunc credits, void *credits_data);

/* Whether the routing forbids turn (in_port -> out_port) at sw. For turn
 * routings these are the turns they prohibit; for the others, the turns no
 * route ever takes (derived once from the routing function). */
int fl_routing_turn_prohibited(const FlRouting *r, int sw, int in_port, int out_port);

/* Every prohibited turn, sorted by (sw, in_port, out_port); *turns is
 * malloc'd (free() it). */
int fl_routing_prohibited_turns(const FlRouting *r, FlTurn **turns, int *n, FlError *err);

/* Direction label of a switch-to-switch channel for routings that have them:
 * "up"/"down" (up* / down*), "LU", "LD", "RU", "RD" (L-/R-turn); NULL
 * otherwise. */
const char *fl_routing_channel_label(const FlRouting *r, int channel);

/* The spanning-tree root of up* / down* and L-/R-turn (node id), else -1. */
int fl_routing_root(const FlRouting *r);
/* A switch's parent in that spanning tree (-1 for the root or none). */
int fl_routing_tree_parent(const FlRouting *r, int sw);
/* L-/R-turn's H/V graph coordinate of a switch: h = preorder index in the
 * spanning tree, v = BFS depth. FL_EUNSUPPORTED for other routings. */
int fl_routing_hv_coords(const FlRouting *r, int sw, int *h, int *v);

/* ------------------------------------------------------------------------ */
/* Routing analysis                                                         */
/* ------------------------------------------------------------------------ */

/* The route the selection function takes from switch src to switch dst, as
 * channels (malloc'd; free() it). Deterministic selections only unless rng
 * is given. FL_EDISCONNECTED if the routing cannot get there. */
int fl_routing_path(const FlRouting *r, int src, int dst, FlSelection how, FlRng *rng,
                    int **channels, int *n, FlError *err);

/* Every path the routing allows from src to dst (for minimal routings, every
 * legal shortest path), at most max_paths of them: paths[offsets[i] ..
 * offsets[i+1]) are the channels of path i. Both arrays malloc'd.
 * *truncated is set when more paths exist. */
int fl_routing_all_paths(const FlRouting *r, int src, int dst, int max_paths, int **paths,
                         int **offsets, int *npaths, int *truncated, FlError *err);

typedef struct FlRoutingReport {
    int connected;            /* every source-destination switch pair routable */
    int unroutable_src, unroutable_dst;  /* the first pair that is not, or -1 */
    int deadlock_free;        /* the channel dependency graph has no cycle */
    /* One shortest cycle of the channel dependency graph: cycle_len channels
     * with their VC classes, each depending on the next and the last on the
     * first. Empty when deadlock_free. malloc'd. */
    int *cycle_channels;
    int *cycle_classes;
    int cycle_len;
    double avg_hops;          /* over ordered pairs of distinct switches, along
                               * the selected (lowest-port) route */
    int max_hops;
    double bfs_avg_hops;      /* the same pairs by breadth-first distance */
    double stretch;           /* avg_hops / bfs_avg_hops */
    /* Paper 002: prohibited turns per switch (mean and population standard
     * deviation) and PPT, the pairs of opposite prohibited turns between the
     * same two links. */
    double pt_mean, pt_sd;
    int ppt;
    /* Static channel load under uniform traffic (one unit from every switch to
     * every other, along the selected routes), over switch-to-switch channels. */
    double max_channel_load, mean_channel_load;
    /* The uniform throughput, in flits per cycle per switch, that the most
     * loaded channel allows: (S - 1) / max_channel_load. Each switch injects
     * lambda flits per cycle split evenly over the S - 1 others, so the
     * busiest channel carries lambda * max_channel_load / (S - 1) and takes
     * at most one flit per cycle. 0 when no channel carries traffic. */
    double throughput_bound;
} FlRoutingReport;

/* Analyses a routing: connectivity, CDG cycle search (per VC class), hop
 * statistics, turn metrics and channel loads. The CDG check of dor on a
 * 64x64 mesh takes well under a second. Release with
 * fl_routing_report_clear(). */
int fl_routing_analyze(const FlRouting *r, FlRoutingReport *rep, FlError *err);
void fl_routing_report_clear(FlRoutingReport *rep);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_H */
