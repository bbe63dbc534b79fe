/* sim-options.h — what `flitlab sim` and `flitlab sweep` share: their
 * options, generated from the engine's routing registry and simulation
 * settings table, the parsers of the values of their own options and the
 * simulation they build (sim-options.c). Private to the CLI. */
#ifndef FLITLAB_SIM_OPTIONS_H
#define FLITLAB_SIM_OPTIONS_H

#include <jansson.h>
#include <stdint.h>

#include "cli.h"

/* Everything a run needs, owned here. cfg is settings.config with the
 * routing and the trace's events. */
typedef struct SimSetup {
    FlTopology *t;
    FlRouting *r;
    FlSimConfig cfg;
    FlSimSettings settings;
    FlTraceEvent *trace;
} SimSetup;

/* The options of `sim` and of `sweep` that come from the engine: --routing,
 * the routing options, and every simulation setting (for `sweep`, those of
 * the flit-level model but --mode and --rate, which it sweeps). */
void sim_generate_sim_options(CliOptions *opts);
void sim_generate_sweep_options(CliOptions *opts);

/* Applies every setting given on the command line to s, in the table's
 * order; CLI_USAGE after an error naming the option. */
int sim_apply_settings(const CliCommand *cmd, const CliParsed *p, FlSimSettings *s);

/* s (initialized) from the preset's settings, or the defaults without one,
 * then every setting given on the command line; CLI_USAGE after an error. */
int sim_settings_from(const CliCommand *cmd, const CliParsed *p, const FlSimPreset *preset,
                      FlSimSettings *s);

/* Refuses, by name, an option given that model does not read. */
int sim_refuse_other_model(const CliCommand *cmd, const CliParsed *p, FlSimModel model);

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

/* Loads the network and builds the routing into s (--root, --order,
 * --classes, --prohibit as in `flitlab route`). With a preset (may be
 * NULL), its network when no argument names one, its routing without
 * --routing, and its routing options that the command line does not give
 * when the routing is the preset's. */
int sim_build_network(const CliCommand *cmd, const CliParsed *p, const FlSimPreset *preset,
                      SimSetup *s);

/* Applies every simulation setting, reads the trace, then builds the
 * network; sim_setup_preset() starts from a preset (may be NULL). On
 * failure, returns the exit status; s must be freed with sim_setup_free()
 * either way. */
int sim_setup(const CliCommand *cmd, const CliParsed *p, SimSetup *s);
int sim_setup_preset(const CliCommand *cmd, const CliParsed *p, const FlSimPreset *preset,
                     SimSetup *s);
void sim_setup_free(SimSetup *s);

/* Adds a run's status and scalar results to o (the engine's result keys
 * that do not need the channels), in the order both commands print them. */
void sim_add_result(json_t *o, const FlSimResult *res);
/* Every scalar `sim --json` prints: sim_add_result()'s, then the channels'
 * utilization (read while res still has its arrays). */
void sim_add_scalars(json_t *o, const FlTopology *t, const FlSimResult *res);

/* `sim --picture FILE --at CYCLE` and `sim --animate FILE.gif|DIR/
 * --cycles FROM:TO[:STEP]` (sim-frames.c): whether one of their options
 * is given; every option checked before any work (CLI_USAGE after a
 * message); the frames of sim (built from s, at cycle 0) written, with a
 * line (or JSON) saying what was written. */
int sim_frames_wanted(const CliCommand *cmd, const CliParsed *p);
int sim_frames_check(const CliCommand *cmd, const CliParsed *p);
int sim_write_frames(const CliCommand *cmd, const CliParsed *p, const SimSetup *s, FlSim *sim);

/* The traffic patterns, after a command's --help. */
void sim_print_patterns(FILE *to);
/* The engine's presets: names and titles, and with details their networks,
 * routings, settings and what each shows. */
void sim_print_presets(FILE *to, int details);

#endif /* FLITLAB_SIM_OPTIONS_H */
