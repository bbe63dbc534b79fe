/* flitlab/routing.h — Routing: the registry, routing functions, selection and turns.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_ROUTING_H
#define FLITLAB_ROUTING_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/topology.h"
#include "flitlab/option.h"
#include "flitlab/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    /* The options it takes, NULL-terminated (each one of
     * fl_routing_option()'s); front ends offer these and refuse others. */
    const FlOptionInfo *const *options;
} FlRoutingInfo;

int fl_routing_count(void);
const FlRoutingInfo *fl_routing_info(int index);
const FlRoutingInfo *fl_routing_lookup(const char *name);

/* Every option some routing takes ("root", "classes", "order",
 * "prohibit"), each once, in the order front ends list them. */
int fl_routing_option_count(void);
const FlOptionInfo *fl_routing_option(int index);
const FlOptionInfo *fl_routing_option_lookup(const char *name);
/* Whether the routing described by info takes the option called name. */
int fl_routing_takes(const FlRoutingInfo *info, const char *name);

/* No root, the routing's own VC classes and order, no prohibited turns. */
void fl_routing_options_init(FlRoutingOptions *opt);
/* Parses text into the option called key (auto for root, classes and order
 * unsets it). A bad value leaves opt as it was and fails with a message
 * naming the option. "prohibit" gives opt a malloc'd turn list, replacing
 * (and freeing) one set before: use it only on options whose list is not
 * the caller's own, and free with fl_routing_options_clear(). */
int fl_routing_options_set(FlRoutingOptions *opt, const char *key, const char *text,
                           FlError *err);
/* The option's canonical text, as fl_sim_settings_format() writes a setting;
 * -1 for an unknown key. */
int fl_routing_options_format(const FlRoutingOptions *opt, const char *key, char *buf,
                              size_t len);
/* Frees the prohibited list set by fl_routing_options_set() and
 * re-initializes opt. */
void fl_routing_options_clear(FlRoutingOptions *opt);

/* Parses turns written "SW:IN>OUT,SW:IN>OUT,..." (spaces allowed around the
 * numbers) into a malloc'd list; a malformed one is named in the message. */
int fl_turns_parse(const char *text, FlTurn **turns, int *n, FlError *err);
/* Writes turns as fl_turns_parse() reads them; returns the full length as
 * snprintf() does. */
int fl_turns_format(const FlTurn *turns, int n, char *buf, size_t len);

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

/* Whether channel is a dateline of the routing: a packet that crosses it
 * goes on in a higher VC class, which breaks the cycle a ring would close
 * in the channel dependency graph. dor on a torus or ring with its 2
 * classes: the wrap-around channels of every dimension (between
 * coordinates k - 1 and 0); 0 for every other routing and channel, and for
 * dor with 1 class. */
int fl_routing_channel_dateline(const FlRouting *r, int channel);

/* The spanning-tree root of up* / down* and L-/R-turn (node id), else -1. */
int fl_routing_root(const FlRouting *r);
/* A switch's parent in that spanning tree (-1 for the root or none). */
int fl_routing_tree_parent(const FlRouting *r, int sw);
/* L-/R-turn's H/V graph coordinate of a switch: h = preorder index in the
 * spanning tree, v = BFS depth. FL_EUNSUPPORTED for other routings. */
int fl_routing_hv_coords(const FlRouting *r, int sw, int *h, int *v);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_ROUTING_H */
