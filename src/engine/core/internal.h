/* internal.h — the engine's private view of its data structures.
 *
 * Engine modules (metrics, routing, the simulator) read these flat arrays
 * directly in their hot loops; nothing outside src/engine includes this file but the tests of internals.
 */
#ifndef FLITLAB_INTERNAL_H
#define FLITLAB_INTERNAL_H

#include <stdint.h>

#include "flitlab.h"

/* Longest family name, with its terminating NUL. */
#define FL__FAMILY_MAX 64

struct FlTopology {
    /* Nodes, in id order. */
    int n_nodes, cap_nodes;
    uint8_t *kind;       /* FlNodeKind */
    int *nports;
    int *port_base;      /* n_nodes + 1 prefix sums into port_link */
    int *rank;           /* rank of the node among nodes of its kind */
    int *coords;         /* FL_MAX_DIMS per node */
    double *pos;         /* x, y per node */
    int *label;          /* the stable number people see, unique, >= 0 */

    /* Ports, flat: port p of node n is port_link[port_base[n] + p]. */
    int n_ports, cap_ports;
    int *port_link;      /* link id or -1 */

    /* Links: ends a (node, port) and b (node, port). */
    int n_links, cap_links;
    int *link_end;       /* 4 per link: a, pa, b, pb */

    /* Derived, kept current by every edit. */
    int n_switches, n_hosts, n_switch_links;
    int *switch_nodes;   /* cap_nodes; the first n_switches are valid */
    int *host_nodes;     /* cap_nodes; the first n_hosts are valid */

    /* Labels: the next label fl_topology_add_node() gives (above every
     * label ever used here), and an open-addressing index from label to
     * node (label_slot[i] is a node or -1; label_slots is a power of two
     * at least twice the node count). */
    int next_label;
    int *label_slot;
    int label_slots;

    int coord_dims;
    /* The lowest and highest coordinate of the switches in each dimension
     * below coord_dims, and how many switches sit at each, so that edits
     * keep them exact in O(1) but for the rare rescan. */
    int coord_lo[FL_MAX_DIMS], coord_hi[FL_MAX_DIMS];
    int coord_n_lo[FL_MAX_DIMS], coord_n_hi[FL_MAX_DIMS];
    /* A fixed buffer: resetting to "custom" on an edit can then never fail. */
    char family[FL__FAMILY_MAX];
    int family_ndims;
    int family_dims[FL_MAX_DIMS];
    char *spec;          /* may be NULL */
    char *name;          /* never NULL */
};

/* The node at the far end of link l seen from node n. */
static inline int fl__link_other(const FlTopology *t, int l, int n)
{
    const int *e = t->link_end + 4 * l;
    return e[0] == n ? e[2] : e[0];
}

/* Compressed switch graph for breadth-first searches: switches by rank,
 * neighbours (by rank) of switch r at adj[off[r] .. off[r+1]). Parallel
 * links appear once per link. */
typedef struct FlSwitchGraph {
    int n;
    int *off;
    int *adj;
} FlSwitchGraph;

int fl__switch_graph_build(const FlTopology *t, FlSwitchGraph *g);
void fl__switch_graph_free(FlSwitchGraph *g);

/* BFS on g from s; dist (n ints) gets hop counts or -1; queue is n ints of
 * scratch. Returns the number of vertices reached. */
int fl__switch_graph_bfs(const FlSwitchGraph *g, int s, int *dist, int *queue);

/* The strongly connected components of the directed graph with n vertices
 * and arcs v -> adj[off[v] .. off[v+1]): comp[v] (n ints) gets v's
 * component, and cyclic[comp] (n bytes; may be NULL) whether it holds a
 * cycle (two vertices or more, or a self-loop). Returns the number of
 * cyclic components, or -1 when out of memory. O(n + arcs), no recursion
 * (topology.c). */
int fl__strong_components(int n, const int *off, const int *adj, int *comp, uint8_t *cyclic);

/* A breadth-first search from up to 64 sources at once over a directed
 * graph of n vertices with arcs v -> adj[off[v] .. off[v+1]): bit b of a
 * vertex's words stands for source b, so a vertex that several sources
 * reach at the same distance is expanded once for all of them. The caller
 * starts it (fl__bfs64_start), seeds each source v (seen[v] = frontier[v]
 * = its bits, cur[ncur++] = v), and calls fl__bfs64_level once a level,
 * which leaves the vertices reached anew in cur[0 .. ncur) with the
 * sources reaching them in frontier[] (zeroed again by the next level).
 * The arrays hold n + 1 (topology.c). */
typedef struct FlBfs64 {
    uint64_t *seen, *frontier, *next;
    int *cur, *touched;
    int ncur;
} FlBfs64;

int fl__bfs64_alloc(FlBfs64 *b, int n);
void fl__bfs64_free(FlBfs64 *b);
/* Forgets what the last search saw. */
void fl__bfs64_start(FlBfs64 *b, int n);
/* One level; returns ncur. *work grows by the arcs read. */
int fl__bfs64_level(FlBfs64 *b, const int *off, const int *adj, int64_t *work);

/* Replaces *dst by a copy of src (NULL allowed); returns FL_OK or FL_ENOMEM. */
int fl__strdup_into(char **dst, const char *src);

/* traffic.c: what fl_traffic_generate() would make for every host in one
 * cycle, asking each host until it makes nothing, hosts in rank order, in
 * one call: the same packets from the same draws for traces and on/off
 * sources; for Bernoulli sources the same in distribution, from one draw
 * per packet rather than one per host and cycle. emit receives each
 * packet; a nonzero return stops generation and is returned. */
typedef int (*FlTrafficEmit)(void *data, int src, int dst, int flits);
int fl__traffic_generate_cycle(FlTraffic *tr, int64_t cycle, FlRng *rng,
                               FlTrafficEmit emit, void *data);

#endif /* FLITLAB_INTERNAL_H */
