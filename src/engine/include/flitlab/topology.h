/* flitlab/topology.h — Topology: nodes, ports, links and channels.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_TOPOLOGY_H
#define FLITLAB_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

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
 * Ids are for programs; people see labels. Every node has a label, a
 * non-negative integer unique within its topology that no edit changes:
 * generators give every node label = id; fl_topology_add_node() gives the
 * next label never used in this topology (so deleting switch 9 and adding a
 * switch does not bring 9 back); removing nodes or links keeps every other
 * label; copies, Flitlab JSON files and project files keep them. An
 * unedited network has label == id everywhere. Pictures name switches by
 * label, and so do the messages of the functions declared here whenever
 * they name a node that exists ("switch 7 is not connected to switch 0",
 * "port 2 of switch 12 is already connected"); a number that names no node
 * is the id the caller passed ("no node 99"). The rest of the engine
 * (routing, analysis, simulation) takes and returns ids, and its messages
 * name nodes by label too; a front end showing ids of an edited network
 * converts with fl_topology_node_label() and fl_topology_find_label().
 * Formats that number nodes densely (BookSim anynet, DOT) write ids.
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
/* A deep copy (labels included), or NULL when out of memory. */
FlTopology *fl_topology_copy(const FlTopology *t);

/* --- building and editing. Any edit resets the family to "custom". ------ */

/* Appends a node with nports ports (a host must have exactly 1; a switch
 * 1..FL_MAX_PORTS). Its id is stored in *id; its label is
 * fl_topology_next_label(), which then grows by one. */
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

/* Removes node n and its links; nodes above n move down by one, and keep
 * their labels. */
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

/* --- labels: the numbers people see (see the top) ----------------------- */

/* A node's label, or -1 for a bad index. O(1). */
int fl_topology_node_label(const FlTopology *t, int node);
/* The node carrying label, or -1 if none does. O(1) expected (a hash
 * index kept current by every edit). */
int fl_topology_find_label(const FlTopology *t, int label);
/* Gives node a new label (0 .. INT_MAX - 1): FL_EEXIST if another node
 * carries it, FL_ERANGE for a negative one, FL_ENOTFOUND for a bad node.
 * Labels are presentation: setting one keeps the family. The next label
 * rises above it if needed. O(1) expected. */
int fl_topology_set_node_label(FlTopology *t, int node, int label, FlError *err);
/* The label fl_topology_add_node() gives next: above every label this
 * topology has used, deleted ones included. */
int fl_topology_next_label(const FlTopology *t);
/* Sets it, for readers of files that keep it; it must be above every label
 * in use (FL_ERANGE otherwise). O(nodes). */
int fl_topology_set_next_label(FlTopology *t, int label, FlError *err);

/* --- coordinates and drawing positions ---------------------------------- */

/* Number of coordinate dimensions (0 for networks without coordinates). */
int fl_topology_coord_dims(const FlTopology *t);
/* Sets the number of coordinate dimensions (0..FL_MAX_DIMS); existing
 * coordinates are kept where they fit and zero elsewhere. */
int fl_topology_set_coord_dims(FlTopology *t, int ndims);
/* Copies coord_dims() integers. */
int fl_topology_get_coords(const FlTopology *t, int node, int *coords);
int fl_topology_set_coords(FlTopology *t, int node, const int *coords);

/* Whether a switch link is a wrap-around link: in one or more coordinate
 * dimensions its ends are the lowest and the highest coordinate of the
 * switches (a dimension at least 3 wide), and in every other they differ
 * by at most 1. Torus and ring wrap-arounds answer 1, and so do XMESH's
 * and DMESH's (their diagonal wrap-arounds included); meshes, lines,
 * hypercubes, irregular and Myrinet networks never have one, nor do
 * networks without coordinates (hand-drawn or imported ones). An edited
 * generated network becomes custom but keeps its coordinates, so its
 * wrap-around links are still recognised (and a link drawn by hand between
 * the two ends of a row of one is one too); new switches have zero
 * coordinates. The drawing shows wrap-around links as spurs leaving the
 * grid. O(coord_dims): the bounds are kept current by every edit. */
int fl_topology_link_wraps(const FlTopology *t, int link);
/* The coordinate dimension a switch link moves along: the only one in
 * which its ends' coordinates differ; -1 for a host link, a bad index, a
 * network without coordinates, or ends that differ in several dimensions
 * (XMESH and DMESH diagonals) or none. The links of dimension 2 of a 3D
 * mesh or torus join the layers the drawing places side by side. O(1). */
int fl_topology_link_dim(const FlTopology *t, int link);

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
 * err with nodes named by label (e.g. "switch 7 is not connected to switch
 * 0"). O(nodes + links). */
int fl_topology_validate(const FlTopology *t, FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_TOPOLOGY_H */
