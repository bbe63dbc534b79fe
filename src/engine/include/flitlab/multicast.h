/* flitlab/multicast.h — Multicast trees timed on paper 001's parameterized model.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 *
 * The model (J.-Y. Lee, paper 001): a node's m-th send (m = 0, 1, ...) leaves
 * m * t_hold after the node may start (the source at 0, any other node when
 * it has received), and a message is received t_end after it was sent. A
 * tree's multicast latency is its last receive time.
 *
 * Readings of the paper where the scan is garbled or wrong, and choices made:
 * - OPT-tree: t[1] = 0, t[i] = min over 1 <= j < i of max(R(j), t[i-j] + t_end)
 *   with R(j) = t[j] + t_hold. The paper writes R(1) = t_hold, which
 *   overstates the time when t_end < t_hold (a root left alone is done at 0,
 *   not at t_hold); the quadratic programme here uses R(1) = 0, which is the
 *   paper's recurrence whenever t_end >= t_hold (then t[i-j] + t_end >=
 *   t_hold) and the true optimum of the model otherwise.
 * - The O(k) form (Theorem 2.1, Algorithm 1 with "i > 3" read as "i >= 3",
 *   t[2] = t_end) holds only for t_end >= t_hold and is refused otherwise.
 *   On a tie it takes j_{i-1} + 1 (Algorithm 1 keeps j_{i-1} only when it is
 *   strictly better); the quadratic form takes the largest minimizing j.
 *   Both give Table 1's j_7 = 5 (a tie of 4 and 5) and the same t[i]
 *   wherever the O(k) form is valid; on other ties their j_i may differ, each
 *   of them optimal.
 * - OPT-mesh (Algorithm 2) with `s < l + j` and `rec = l + j` for the
 *   printed `s < l - j` and `rec = l - j`, and j recomputed as j of the
 *   current interval's size at every pass.
 * - U-mesh (McKinley et al.): the sender's interval [l, r] of the chain is
 *   cut at c = floor((l + r) / 2); a sender in [l, c] sends to x_{c+1} the
 *   part [c+1, r], a sender in [c+1, r] sends to x_c the part [l, c].
 * - The dimension-ordered chain sorts switches by the coordinate the
 *   routing corrects first, then by the other (then by host id): so dor "xy"
 *   sorts by coordinate 0 first and "yx" by coordinate 1 first. Paper 001's
 *   example lists its chain in the order of the written first coordinate
 *   and its routing corrects that coordinate first (the paper's definition
 *   of <_d, highest dimension most significant, names the same order if
 *   the routing corrects the highest dimension first): write the paper's
 *   (a, b) as coordinates (a, b) of mesh:6x6 and route with dor "xy". With
 *   the other order the chain of a routing is not contention-free.
 * - Binomial (recursive doubling) on the list P_0 = source, P_1.. = the
 *   destinations in the order given: the root of P_a..P_{a+i-1} keeps
 *   floor(i / 2) nodes and sends first to P_{a+floor(i/2)}, which gets the
 *   larger half: the binomial tree B_n with nodes taken off its shallow
 *   side, so that 7 nodes take 3 t_end = 120 in Fig 6 (keeping the larger
 *   half would let the root's later sends overlap and give 90). Chain: P_a
 *   sends to P_{a+1}. Sequential: the source sends to P_1, P_2, ... in turn.
 * - Contention: two unicasts contend when their routes share a channel and
 *   their intervals [send, receive) overlap. Two sends of one node are not
 *   contention: the one-port sender starts the second only t_hold after the
 *   first, when its worm has left the port and frees the shared channels
 *   from the sender on (paper 001, proof of Theorem 3.2); such pairs are
 *   reported only on request.
 */
#ifndef FLITLAB_MULTICAST_H
#define FLITLAB_MULTICAST_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/topology.h"
#include "flitlab/routing.h"
#include "flitlab/message.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum FlMulticastDp {
    FL_MULTICAST_DP_AUTO = 0,    /* O(k) where valid (t_end >= t_hold), else O(k^2) */
    FL_MULTICAST_DP_QUADRATIC,   /* the O(k^2) programme, always valid */
    FL_MULTICAST_DP_LINEAR       /* Theorem 2.1's O(k) form; t_end >= t_hold only */
} FlMulticastDp;

/* Paper 001's OPT-tree programme for trees of 1..k nodes (source included):
 * t[i] is the optimal multicast time among i nodes and j[i] the size of the
 * part the root keeps (t[0], j[0], j[1] are set to 0). t and j (either may
 * be NULL) hold k + 1 entries. Times must be finite and >= 0; k >= 1.
 * FL_EINVAL names a bad k or time, or asks for DP_LINEAR with t_end < t_hold. */
int fl_multicast_opt_table(int k, double t_hold, double t_end, FlMulticastDp dp, double *t,
                           int *j, FlError *err);

typedef enum FlMulticastAlgorithm {
    FL_MULTICAST_SEQUENTIAL = 0,  /* separate addressing */
    FL_MULTICAST_CHAIN,
    FL_MULTICAST_BINOMIAL,        /* recursive doubling */
    FL_MULTICAST_OPT_TREE,        /* paper 001's OPT-tree */
    FL_MULTICAST_UMESH,           /* McKinley et al.; 2D mesh with dor only */
    FL_MULTICAST_OPT_MESH,        /* paper 001's Algorithm 2; 2D mesh with dor only */
    FL_MULTICAST_ALGORITHM_COUNT
} FlMulticastAlgorithm;

/* CLI names: "sequential", "chain", "binomial", "opt-tree", "u-mesh",
 * "opt-mesh"; NULL for a bad value. */
const char *fl_multicast_algorithm_name(FlMulticastAlgorithm alg);
/* FL_ENOTFOUND (naming the choices) for an unknown name. */
int fl_multicast_algorithm_lookup(const char *name, FlMulticastAlgorithm *alg, FlError *err);

/* One unicast of a tree. Nodes are host ids (as the simulator's src_host and
 * dst_host), or the caller's labels when the tree was built without a
 * network. step is the send's round in a one-port schedule: the parent's
 * own step (the source's is 0) plus the send's rank among the parent's
 * sends (1 for its first). */
typedef struct FlMulticastEdge {
    int parent, child;
    int step;
    double send_time, recv_time;
} FlMulticastEdge;

typedef struct FlMulticastTree FlMulticastTree;

/* Builds the tree of algorithm alg from source to the n_dests >= 1
 * destinations, timed with t_hold and t_end. With t != NULL the nodes are
 * host ids of t, and r (for U-mesh and OPT-mesh: required, dor on the 2D
 * mesh t) may be NULL otherwise; with t == NULL they are any distinct
 * labels >= 0 and the mesh algorithms are refused. The network-independent
 * algorithms take the destinations in the order given; the mesh ones in the
 * dimension-ordered chain. Refuses, naming it, a missing or repeated
 * destination, the source among the destinations, a bad time, a mesh
 * algorithm off a 2D mesh or without dor. */
int fl_multicast_tree_new(const FlTopology *t, const FlRouting *r, FlMulticastAlgorithm alg,
                          int source, const int *dests, int n_dests, double t_hold,
                          double t_end, FlMulticastTree **out, FlError *err);
void fl_multicast_tree_free(FlMulticastTree *tree);

FlMulticastAlgorithm fl_multicast_tree_algorithm(const FlMulticastTree *tree);
int fl_multicast_tree_source(const FlMulticastTree *tree);
/* The last receive time (0 without destinations). */
double fl_multicast_tree_latency(const FlMulticastTree *tree);
/* Edges sorted by send time, then by the order each sender sends. */
int fl_multicast_tree_edge_count(const FlMulticastTree *tree);
const FlMulticastEdge *fl_multicast_tree_edge(const FlMulticastTree *tree, int index);
/* The edge whose child is node, or NULL (the source, or not in the tree). */
const FlMulticastEdge *fl_multicast_tree_edge_to(const FlMulticastTree *tree, int node);

/* A pair of a tree's unicasts (edge indices a < b) that share a channel
 * while both are in flight; channel is the lowest such channel. */
typedef struct FlMulticastConflict {
    int edge_a, edge_b;
    int channel;
    int same_sender;   /* both sent by one node (see the header comment) */
} FlMulticastConflict;

/* The conflicts of tree (built on r's topology) under r's routing, with
 * lowest-port selection, sorted by (edge_a, edge_b), into *conflicts
 * (malloc'd, free() it; NULL when there are none). Pairs from one sender
 * only when include_same_sender. */
int fl_multicast_tree_contention(const FlMulticastTree *tree, const FlRouting *r,
                                 int include_same_sender, FlMulticastConflict **conflicts,
                                 int *n, FlError *err);

/* The tree as a message schedule (flitlab/message.h): message i is edge i,
 * parent to child, of flits flits; its after is the message that brought
 * the parent the data (-1 when the parent is the source). Timed with
 * fl_message_analytic() and the tree's t_hold and t_end it gives the
 * edges' send and receive times; run with fl_message_run() it is the tree
 * flit by flit. *out is malloc'd (free() it), NULL when there are no
 * edges. */
int fl_multicast_tree_messages(const FlMulticastTree *tree, int flits, FlMessage **out, int *n,
                               FlError *err);

/* ---- one multicast run, from the simulation settings -------------------- */

/*
 * The multicast model of the simulation settings (config.h, "mode
 * multicast"): a tree of one algorithm from a source to destinations placed
 * at random, timed on paper 001's model with t_hold and t_end from the
 * software costs (fl_message_model()), its contention counted under the
 * routing, and its messages run flit by flit on the simulator (with the
 * settings' router: vcs, buffers, switching, pipeline, ...) unless only the
 * model is asked for. Paper 001's Figs 11-14 are runs of this model.
 */
typedef struct FlMulticastConfig {
    FlMulticastAlgorithm algorithm;   /* "algorithm" */
    int dests;                        /* "random": destinations placed at random */
    int flits;                        /* "message-size": each message's size in flits */
    FlMessageCosts costs;             /* "s-s", "s-d", "r-s", "r-d", "max-packet" */
    int channel_cycles;               /* "c-d": the simulator's link cycles per flit */
    int model_only;                   /* "model-only": no flit-by-flit run */
} FlMulticastConfig;

/* Paper 001's section 4.2: OPT-tree, 7 destinations, 64-flit messages,
 * s_s 2000, s_d 2, r_s 3500, r_d 3, c_d 2 cycles, whole messages as one
 * packet, simulated. */
void fl_multicast_config_init(FlMulticastConfig *cfg);

/* What one run found. The arrays are malloc'd and freed by
 * fl_multicast_result_clear(); the rest are its figures (the result-key
 * table's multicast keys, fl_multicast_result_value()). */
typedef struct FlMulticastResult {
    int source;
    int *dests;                       /* n_dests destinations, in the order given */
    int n_dests;
    FlMulticastTree *tree;            /* timed with t_hold and t_end */
    FlMulticastConflict *conflicts;   /* fl_multicast_tree_contention(), other senders */
    int n_conflicts;
    FlMessageTimes *times;            /* per edge of the tree; NULL when not simulated */
    double t_hold, t_end;
    double latency;                   /* the model's: the tree's last receive time */
    int simulated;                    /* whether the messages ran flit by flit */
    int64_t simulated_latency;        /* the last message received, in cycles */
    int64_t cycles;                   /* simulated */
    double wall_s;
} FlMulticastResult;

/* Frees what res owns and zeroes it. */
void fl_multicast_result_clear(FlMulticastResult *res);

/* Places a multicast as `flitlab multicast --random K --seed S` does: with
 * *source < 0 the source is drawn first (uniformly among the hosts hosts),
 * then k distinct destinations other than the source, by a partial
 * Fisher-Yates shuffle seeded with seed, into dests (k entries; k = 0
 * draws the source alone). FL_ERANGE, naming the counts, when k is not
 * from 0 to hosts - 1 or the source is not a host. */
int fl_multicast_random_nodes(int hosts, int k, uint64_t seed, int *source, int *dests,
                              FlError *err);

typedef struct FlSimSettings FlSimSettings;

/* One run of the settings' multicast model (s->multicast, its seed
 * s->config.seed) on t with routing r (built on t): the nodes placed by
 * fl_multicast_random_nodes(), then as fl_multicast_run_nodes(). res
 * (uninitialized) is filled; clear it with fl_multicast_result_clear(),
 * also after a failure. progress hears the simulated run's progress and
 * may cancel it (FL_ECANCELLED). */
int fl_multicast_run(const FlTopology *t, const FlRouting *r, const FlSimSettings *s,
                     FlMulticastResult *res, FlProgressFunc progress, void *progress_data,
                     FlError *err);
/* The same with the nodes given (dests are copied into res), and, when
 * times is not NULL, t_hold = times[0] and t_end = times[1] instead of the
 * costs' (the simulated run still uses the costs). */
int fl_multicast_run_nodes(const FlTopology *t, const FlRouting *r, const FlSimSettings *s,
                           int source, const int *dests, int n_dests, const double *times,
                           FlMulticastResult *res, FlProgressFunc progress,
                           void *progress_data, FlError *err);

/* Result key index of res (fl_sim_result_key(), a key of the multicast
 * model); NaN for another model's key, and for the simulated figures of a
 * run that was not simulated. */
double fl_multicast_result_value(const FlMulticastResult *res, int index);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_MULTICAST_H */
