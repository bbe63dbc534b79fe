/* collective.h — what `flitlab multicast`, `flitlab alltoall` and `flitlab
 * schedule` share: nodes given as host numbers or switch coordinates
 * (node-args.c), the network with its routing, and message schedules run
 * flit by flit beside paper 001's model (collective-run.c). Private to the
 * CLI. */
#ifndef FLITLAB_COLLECTIVE_H
#define FLITLAB_COLLECTIVE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* ---- node arguments (node-args.c) ------------------------------------- */

/* The most coordinates a node argument "(a,b,c)" holds. */
#define COLL_MAX_COORDS FL_MAX_DIMS

/* Reads "(a,b[,c])" (spaces allowed) into v; returns how many numbers it
 * holds, or -1 when text is not such a tuple of whole numbers >= 0. */
int coll_parse_tuple(const char *text, int v[COLL_MAX_COORDS]);

/* A node argument of --option: a host number (0 .. hosts - 1), or the
 * coordinates of a switch of a network that has them, "(3,2)", meaning the
 * first host of that switch. CLI_USAGE after a line naming the option. */
int coll_node_arg(const FlTopology *t, const char *option, const char *text, int *host);

/* A comma-separated list of node arguments (commas inside parentheses
 * belong to coordinates) into *hosts (malloc'd, free() it), refusing a
 * host given twice. CLI_USAGE after a line naming the option. */
int coll_node_list(const FlTopology *t, const char *option, const char *text, int **hosts,
                   int *n);

/* "14", or "14 (3,2)" on a network whose switches have coordinates. */
void coll_node_text(const FlTopology *t, int host, char *buf, size_t len);

/* The switch labels a channel joins, "5>6", for tables. */
void coll_channel_text(const FlTopology *t, int channel, char *buf, size_t len);

/* ---- the network and its routing (collective-run.c) -------------------- */

typedef struct CollNet {
    FlTopology *t;
    FlRouting *r;
} CollNet;

/* Loads what and builds the routing: --routing with its options when the
 * command has them and they are given, else the network's own deterministic
 * routing (dor on meshes, tori and hypercubes, myrinet-dor on the Myrinet
 * models, the self-routings of XMESH and DMESH, updown elsewhere). On
 * failure returns the exit status; free net with coll_net_close() either
 * way. */
int coll_net_open(const CliCommand *cmd, const CliParsed *p, const char *what, CollNet *net);
/* The routing alone, on net->t loaded by the caller. */
int coll_net_route(const CliCommand *cmd, const CliParsed *p, CollNet *net);
void coll_net_close(CollNet *net);

/* ---- flit-level runs (collective-run.c) -------------------------------- */

/* The simulator's settings a run of messages reads (--vcs, --buf,
 * --switching, --pipeline...), from the engine's table. */
void coll_add_sim_options(CliOptions *opts);
/* Paper 001's software costs: --s-s, --s-d, --r-s, --r-d, --c-d and
 * --max-packet, with the defaults of its section 4.2. */
void coll_add_cost_options(CliOptions *opts);

/* The cost options into *c and the channel time per flit into *c_d. */
int coll_costs(const CliCommand *cmd, const CliParsed *p, FlMessageCosts *c, int64_t *c_d);
/* Refuses (CLI_USAGE, naming the costs and the bound) costs under which a
 * message of flits flits would take more cycles than a simulated run may
 * step through for one message (fl_message_costs_check()). */
int coll_check_message(const FlMessageCosts *c, long flits, int64_t c_d);

/* Refuses (CLI_USAGE, naming it) any option of the run given without
 * --simulate: the simulator's settings, the costs when costs is set, and
 * the names in also (NULL-terminated, may be NULL). */
int coll_refuse_without_simulate(const CliCommand *cmd, const CliParsed *p, int costs,
                                 const char *const *also);

/* The simulator's settings given (--vcs, --buf, ...) into s. */
int coll_run_settings(const CliCommand *cmd, const CliParsed *p, FlSimSettings *s);

/* A simulator on net carrying no traffic of its own, with the settings
 * given and a flit every c_d cycles per channel. */
int coll_sim_new(const CliCommand *cmd, const CliParsed *p, const CollNet *net, int64_t c_d,
                 FlSim **out);

/* Adds start, injected, arrived and received to o. */
void coll_times_json(json_t *o, const FlMessageTimes *t);
/* The costs as an object: s_s, s_d, r_s, r_d, c_d, max_packet. */
json_t *coll_costs_json(const FlMessageCosts *c, int64_t c_d);

#endif /* FLITLAB_COLLECTIVE_H */
