/* sim-options.h — what `flitlab sim` and `flitlab sweep` share: their common
 * options, the parsers of option values and the simulation they build
 * (sim-options.c). Private to the CLI. */
#ifndef FLITLAB_SIM_OPTIONS_H
#define FLITLAB_SIM_OPTIONS_H

#include <jansson.h>
#include <stdint.h>

#include "cli.h"

/* The options shared by `sim` and `sweep`: the network, the routing, the
 * router, the traffic and the run. */
#define SIM_OPTIONS                                                                        \
    { "routing", 'r', "NAME", "the routing algorithm (required; 'flitlab route --help')" }, \
    { "root", 0, "N", "root switch (node id) of updown, lturn-* and rturn-*" },            \
    { "order", 0, "ORDER", "dor: dimension order, xy (default), yx, xyz..." },             \
    { "classes", 0, "K", "VC classes the routing may use (default: its own)" },            \
    { "selection", 0, "HOW", "among legal hops: credits (default), lowest or random" },    \
    { "vcs", 0, "V", "virtual channels per port (default 2)" },                            \
    { "buf", 0, "B", "buffer depth of each VC in flits (default 8)" },                     \
    { "switching", 0, "MODE", "wormhole (default) or vct (virtual cut-through)" },         \
    { "release", 0, "RULE", "VC release: tail-sent (default) or tail-credit" },            \
    { "pipeline", 0, "NAME", "default (1 cycle per hop), booksim-min (3 per hop), "         \
                             "or delays R:VA:SA:X[:CREDIT]" },                              \
    { "link-latency", 0, "N", "cycles a flit spends on a channel (default 1)" },          \
    { "link-cycles-per-flit", 0, "C", "cycles a flit occupies a channel (default 1)" },    \
    { "traffic", 't', "PATTERN", "destinations: uniform (default), bitrev... (below)" },    \
    { "self", 0, NULL, "uniform: hosts may pick themselves, as BookSim does" },            \
    { "hotspot", 0, "F:H1,H2..", "hotspot: share F of packets goes to hosts H1,H2.." },    \
    { "trace", 0, "FILE", "replay a trace (lines: cycle source destination flits)" },      \
    { "burst", 0, "ON:OFF", "bursty on/off injection, mean period lengths in cycles" },    \
    { "packet", 0, "L|S:L:F", "packet length L, or bimodal: S or L flits, F long" },       \
    { "warmup", 0, "W", "warm-up cycles before statistics (default 1000)" },               \
    { "measure", 0, "M", "cycles whose packets are measured (default 10000)" },            \
    { "drain", 0, "D", "at most this many cycles to deliver them (default 100000)" },      \
    { "watchdog", 0, "N", "deadlock after N cycles without progress (default 10000)" },    \
    { "seed", 0, "S", "random seed (default 1)" }

/* Everything a run needs, owned here. */
typedef struct SimSetup {
    FlTopology *t;
    FlRouting *r;
    FlSimConfig cfg;
    int *hotspots;
    FlTraceEvent *trace;
} SimSetup;

/* A number option from min to max into *out. */
int sim_parse_double(const char *option, const char *text, double min, double max,
                     double *out);

/* An integer option, when given, into *out (left alone otherwise). */
int sim_int_option(const CliCommand *cmd, const CliParsed *p, const char *name, long min,
                   long max, long *out);
int sim_int64_option(const CliCommand *cmd, const CliParsed *p, const char *name,
                     int64_t *out);

/* A keyword option: the index of its value among names (NULL-terminated), or
 * dflt when absent; -1 after an error naming the choices. */
int sim_choice_option(const CliCommand *cmd, const CliParsed *p, const char *name,
                      const char *const *names, int dflt);

/* "A:B" or "A:B:C" into up to max numbers; returns how many were read, or -1
 * when text is malformed. */
int sim_split_numbers(const char *text, double *v, int max);

/* Loads the network and builds the routing into s (--root, --order,
 * --classes as in `flitlab route`). */
int sim_build_network(const CliCommand *cmd, const CliParsed *p, SimSetup *s);

/* Parses every flit-level option, then builds the network. On failure,
 * returns the exit status; s must be freed with sim_setup_free() either way. */
int sim_setup(const CliCommand *cmd, const CliParsed *p, SimSetup *s);
void sim_setup_free(SimSetup *s);

/* Adds a run's scalar results to o, in the order both commands print them. */
void sim_add_result(json_t *o, const FlSimResult *res);

/* The traffic patterns, after a command's --help. */
void sim_print_patterns(FILE *to);

#endif /* FLITLAB_SIM_OPTIONS_H */
