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

/* ------------------------------------------------------------------------ */
/* Traffic                                                                  */
/* ------------------------------------------------------------------------ */
/*
 * Where packets go, when they are made and how long they are. Hosts are
 * numbered by host rank (fl_topology_host_node(t, i) is host i's node).
 * Patterns that need a power-of-two host count (bit reversal, complement,
 * shuffle) or a square one (transpose) refuse others with a message.
 */

typedef enum FlInjectionProcess {
    FL_INJECT_BERNOULLI = 0,   /* a packet each cycle with probability rate/len */
    FL_INJECT_ONOFF            /* bursty: two-state Markov on/off source */
} FlInjectionProcess;

/* One packet of a trace file: made at cycle by host src for host dst. */
typedef struct FlTraceEvent {
    int64_t cycle;
    int src, dst;
    int flits;
} FlTraceEvent;

typedef struct FlTrafficConfig {
    /* "uniform", "bitrev", "bitcomp", "transpose", "shuffle", "tornado",
     * "neighbor", "randperm", "hotspot" or "trace". */
    const char *pattern;
    int include_self;          /* uniform: the source may pick itself (BookSim) */
    double hotspot_fraction;   /* hotspot: share of packets sent to hotspots */
    const int *hotspots;       /* hotspot: host ranks (NULL: host 0) */
    int n_hotspots;
    const FlTraceEvent *trace; /* trace: events sorted by cycle */
    int64_t n_trace;
    FlInjectionProcess process;
    double rate;               /* offered load, flits per cycle per host, 0..1 */
    double burst_on;           /* on/off: mean on-period length in cycles */
    double burst_off;          /* on/off: mean off-period length in cycles */
    int packet_flits;          /* fixed length, or the short one when bimodal */
    int packet_flits_long;     /* bimodal: the long length (0: fixed lengths) */
    double long_fraction;      /* bimodal: share of long packets */
} FlTrafficConfig;

void fl_traffic_config_init(FlTrafficConfig *cfg);  /* uniform, Bernoulli, 1 flit */

typedef struct FlTraffic FlTraffic;
int fl_traffic_new(const FlTopology *t, const FlTrafficConfig *cfg, uint64_t seed,
                   FlTraffic **out, FlError *err);
void fl_traffic_free(FlTraffic *tr);
/* The destination host of pattern-driven traffic from host src (for
 * deterministic patterns the same every call). */
int fl_traffic_destination(FlTraffic *tr, int src, FlRng *rng);
/* Whether host src makes a packet at this cycle; if so its destination and
 * length. Called once per host per cycle, in host order. */
int fl_traffic_generate(FlTraffic *tr, int src, int64_t cycle, FlRng *rng, int *dst,
                        int *flits);
/* Names of the patterns, for menus and --help. */
int fl_traffic_pattern_count(void);
const char *fl_traffic_pattern_name(int index);

/* --- Traffic state for checkpoints (added by the traffic engineer, issue 4) ---
 * A generator keeps per-host state (on/off phase, trace cursor, the cycle of
 * the last call), so a simulator checkpoint must save it too: state_size()
 * bytes, copied out by state_save() and back by state_load() into the same
 * generator (or one made from the same topology and configuration). O(hosts). */
size_t fl_traffic_state_size(const FlTraffic *tr);
void fl_traffic_state_save(const FlTraffic *tr, void *buf);
void fl_traffic_state_load(FlTraffic *tr, const void *buf);
/* --- end of the traffic state block --- */

/* ------------------------------------------------------------------------ */
/* Flit-level simulation                                                    */
/* ------------------------------------------------------------------------ */
/*
 * A cycle-driven model of input-queued switches with V virtual channels per
 * port, credit-based flow control, separable round-robin VC and switch
 * allocation, and configurable pipeline delays; channels with a latency and
 * a bandwidth (link_cycles_per_flit); hosts with unbounded source queues.
 * Wormhole or virtual cut-through switching. The same configuration and
 * seed give bit-identical results.
 */

typedef enum FlSwitching {
    FL_SWITCHING_WORMHOLE = 0,
    FL_SWITCHING_VCT            /* a head advances only into room for the
                                 * whole packet */
} FlSwitching;

typedef enum FlVcRelease {
    FL_VC_RELEASE_TAIL_SENT = 0,   /* realloc once the tail has left (BookSim's
                                    * default) */
    FL_VC_RELEASE_TAIL_CREDIT      /* only when the tail's credit returns */
} FlVcRelease;

typedef enum FlSimStatus {
    FL_SIM_OK = 0,
    FL_SIM_DEADLOCK,       /* flits in the network, none moved for a while */
    FL_SIM_SATURATED,      /* source queues grow without bound */
    FL_SIM_RUNNING
} FlSimStatus;

const char *fl_sim_status_name(FlSimStatus s);   /* "ok", "deadlock", ... */

typedef struct FlSimConfig {
    const FlRouting *routing;      /* required; built on the same topology */
    FlSelection selection;         /* FL_SELECT_CREDITS for adaptive routings */
    FlTrafficConfig traffic;
    int vcs;                       /* VCs per port, >= routing's classes */
    int buf_flits;                 /* per-VC buffer depth */
    FlSwitching switching;
    FlVcRelease vc_release;
    /* Pipeline, in cycles. The default (all 0, link_latency 1) costs one
     * cycle per hop; fl_sim_config_pipeline() sets named presets. */
    int routing_delay, vc_alloc_delay, sw_alloc_delay, xbar_delay, credit_delay;
    int link_latency;              /* cycles a flit spends on a channel */
    int link_cycles_per_flit;      /* a flit occupies a channel this long */
    int64_t warmup_cycles;         /* statistics cleared after these */
    int64_t measure_cycles;        /* packets made in this window are measured */
    int64_t drain_cycles;          /* at most this long to deliver them */
    int64_t deadlock_cycles;       /* watchdog: no flit moved for this long */
    uint64_t seed;
} FlSimConfig;

/* Defaults: 2 VCs of 8 flits, wormhole, tail-sent release,
 * one cycle per hop, 1000 warm-up, 10000 measured, 100000 drain cycles,
 * watchdog 10000 cycles, seed 1, uniform 1-flit traffic at rate 0.1. */
void fl_sim_config_init(FlSimConfig *cfg);
/* Named pipelines: "default" (1 cycle per hop) and "booksim-min" (BookSim 2's
 * minimal router: 3 cycles per hop, see ../shared/reference). */
int fl_sim_config_pipeline(FlSimConfig *cfg, const char *name, FlError *err);

typedef struct FlSimResult {
    FlSimStatus status;
    double latency_avg, latency_p50, latency_p95, latency_p99;  /* from creation */
    double network_latency_avg, network_latency_p50, network_latency_p99; /* from head injection */
    double throughput;             /* accepted flits/cycle/host, mean over hosts */
    double throughput_min;         /* the worst host */
    double offered;                /* flits/cycle/host made in the window */
    double hops_avg;
    int64_t packets;               /* measured packets delivered */
    int64_t cycles;                /* simulated */
    int64_t flit_hops;             /* channel traversals simulated */
    double wall_s;
    /* Per switch-to-switch channel: busy fraction; per (channel, vc): mean
     * occupied buffer slots. malloc'd, channel_count() and
     * channel_count() * vcs long. */
    double *channel_utilization;
    double *vc_occupancy;
    /* On deadlock: a cycle of channels whose packets wait on each other. */
    int *deadlock_channels;
    int deadlock_len;
} FlSimResult;

void fl_sim_result_clear(FlSimResult *res);

typedef struct FlSim FlSim;
/* Refuses impossible parameters (zero VCs, fewer VCs than the routing's
 * classes, a buffer smaller than a packet under VCT, a rate above 1) with a
 * message naming the parameter. */
int fl_sim_new(const FlTopology *t, const FlSimConfig *cfg, FlSim **out, FlError *err);
void fl_sim_free(FlSim *sim);

/* Advances n cycles (stops early on deadlock); returns the status. */
FlSimStatus fl_sim_step(FlSim *sim, int64_t n);
int64_t fl_sim_cycle(const FlSim *sim);
/* Runs warm-up, measurement and drain and fills res. progress may be NULL;
 * cancelling returns FL_ECANCELLED. */
int fl_sim_run(FlSim *sim, FlSimResult *res, FlProgressFunc progress, void *progress_data,
               FlError *err);

/* A copy of the whole state, to step backwards and seek by replaying. */
typedef struct FlSimCheckpoint FlSimCheckpoint;
int fl_sim_checkpoint(const FlSim *sim, FlSimCheckpoint **out, FlError *err);
int fl_sim_restore(FlSim *sim, const FlSimCheckpoint *cp, FlError *err);
void fl_sim_checkpoint_free(FlSimCheckpoint *cp);

/* Where one flit is, for drawing. */
typedef enum FlFlitPlace {
    FL_FLIT_SOURCE_QUEUE = 0,   /* waiting at its host */
    FL_FLIT_BUFFER,             /* in the input buffer of channel's destination */
    FL_FLIT_LINK                /* on channel, progress cycles along it */
} FlFlitPlace;

typedef struct FlFlitView {
    int64_t packet;
    int index, packet_flits;    /* 0 = head */
    int src_host, dst_host;
    FlFlitPlace place;
    int channel;                /* -1 in a source queue; injection channels are
                                 * the host links' channels */
    int vc;
    int position;               /* slot in the buffer (0 = front), or cycles
                                 * travelled on the link */
} FlFlitView;

typedef void (*FlFlitVisitor)(void *user_data, const FlFlitView *flit);
/* Calls visit for every flit in the network (source queues included up to
 * the first max_queued flits per host). Read-only. */
void fl_sim_foreach_flit(const FlSim *sim, int max_queued, FlFlitVisitor visit,
                         void *user_data);

/* ------------------------------------------------------------------------ */
/* Deflection routing (paper 003)                                           */
/* ------------------------------------------------------------------------ */
/*
 * Bufferless hot-potato routing, synchronous: single-flit messages, a closed
 * system with nmsg messages per node (a delivered message is replaced at
 * once by a new one from the same node). Each cycle, messages are sorted by
 * priority and take their best free shortest-path output; the losers are
 * deflected to any free output.
 */

typedef enum FlDeflectPriority {
    FL_PRIORITY_RANDOM = 0,
    FL_PRIORITY_AGE,
    FL_PRIORITY_PATH_NUM,      /* fewest shortest-path outputs first */
    FL_PRIORITY_AGE_PATH_NUM
} FlDeflectPriority;

typedef struct FlDeflectConfig {
    const FlRouting *routing;  /* minimal routing giving the shortest-path ports */
    int nmsg;                  /* messages per node, 1..4 in the paper */
    FlDeflectPriority priority;
    int64_t cycles;
    uint64_t seed;
} FlDeflectConfig;

typedef struct FlDeflectResult {
    int64_t cycles;
    /* Per cycle: the largest and the mean delay of the messages delivered
     * so far, and messages delivered per cycle per node. malloc'd. */
    double *max_delay, *avg_delay, *throughput;
    int64_t delivered;
    int64_t deflections;
    double wall_s;
} FlDeflectResult;

int fl_deflect_run(const FlTopology *t, const FlDeflectConfig *cfg, FlDeflectResult *res,
                   FlProgressFunc progress, void *progress_data, FlError *err);
void fl_deflect_result_clear(FlDeflectResult *res);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_H */
