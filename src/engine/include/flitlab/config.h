/* flitlab/config.h — The simulation settings: one table of keys (name,
 * type, range, default, help, group), set and read by key as text.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_CONFIG_H
#define FLITLAB_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/errors.h"
#include "flitlab/option.h"
#include "flitlab/sim.h"
#include "flitlab/deflect.h"
#include "flitlab/routing.h"
#include "flitlab/multicast.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The engine describes its own settings, so that a front end builds its
 * command-line flags, its --help and its settings rows by iterating a table
 * of descriptors (option.h): a new setting is one row in sim-config.c and
 * appears everywhere. Every setting has a text form (what a user types
 * after --NAME); fl_sim_settings_set() parses it and refuses a bad value
 * with a message that starts with the setting's name (or says "unknown
 * NAME '...'"), and fl_sim_settings_format() writes the canonical text back.
 */

/* ---- simulation settings ---------------------------------------------- */

typedef enum FlSimModel {
    FL_SIM_MODEL_FLIT = 0,       /* fl_sim_new() / fl_sim_run() */
    FL_SIM_MODEL_DEFLECTION,     /* fl_deflect_run() */
    FL_SIM_MODEL_MULTICAST       /* fl_multicast_run() */
} FlSimModel;

/*
 * Everything `flitlab sim` takes for a simulation, as a user gives it: the
 * model, the flit-level configuration, the deflection configuration, the
 * multicast model's (whose flit-by-flit run reads the router's settings in
 * config as well), and
 * the storage behind the keys that hold text or lists (the hotspot hosts,
 * the trace file's name). FlSimConfig and FlDeflectConfig stay plain
 * structs: their routing and trace events are the caller's (the engine
 * reads no files), and the settings own only what fl_sim_settings_set()
 * allocated. Copy settings with fl_sim_settings_copy(), free with
 * fl_sim_settings_clear().
 */
typedef struct FlSimSettings {
    FlSimModel model;            /* "mode" */
    FlSimConfig config;          /* config.traffic.hotspots points into hotspots */
    FlDeflectConfig deflect;
    FlMulticastConfig multicast;
    int *hotspots;               /* "hotspot": the hosts (owned), or NULL: host 0 */
    char *trace_file;            /* "trace": a file of "cycle src dst flits" lines for
                                  * the front end to read into config.traffic.trace;
                                  * owned, NULL: none */
} FlSimSettings;

/* The FL_OPTION_FOR_* bit of model: which settings it reads (FlOptionInfo.
 * models) and which result keys it has (FlSimResultKey.models). */
unsigned fl_sim_model_option(FlSimModel model);

/* The defaults: fl_sim_config_init()'s configuration but for the output
 * selection, which is credits (spreading an adaptive routing's load), and
 * for deflection 1 message per node, age priority, 1000 cycles, seed 1,
 * and fl_multicast_config_init()'s multicast. */
void fl_sim_settings_init(FlSimSettings *s);
/* Frees what the settings own and leaves them as fl_sim_settings_init() does. */
void fl_sim_settings_clear(FlSimSettings *s);
/* dst (uninitialized) becomes an independent copy of src. */
int fl_sim_settings_copy(FlSimSettings *dst, const FlSimSettings *src, FlError *err);

/* The table of keys, in the order front ends list them and the order in
 * which they should be applied (a pipeline preset sets the link latency, so
 * "pipeline" comes before "link-latency"). */
int fl_sim_settings_key_count(void);
const FlOptionInfo *fl_sim_settings_key(int index);
const FlOptionInfo *fl_sim_settings_lookup(const char *key);

/* Parses text into the setting called key. On a bad value, leaves s as it
 * was and fails with FL_EINVAL (unknown key, malformed text) or FL_ERANGE
 * and a message naming the key and the problem. Some keys set more than
 * one field: "pipeline" presets set the link latency, "burst" selects
 * on/off injection, "seed" seeds both models. */
int fl_sim_settings_set(FlSimSettings *s, const char *key, const char *text, FlError *err);
/* Writes the setting's canonical text into buf (at most len bytes, always
 * NUL-terminated); returns the full length as snprintf() does, or -1 for an
 * unknown key. Setting every key's text back, in the table's order, gives
 * the same settings. */
int fl_sim_settings_format(const FlSimSettings *s, const char *key, char *buf, size_t len);

/* ---- presets ------------------------------------------------------------ */

/*
 * A preset sets everything at once: the network, the routing and its
 * options, and the simulation settings, all as the text a user would type,
 * so that applying one goes through the same parsers as the command line
 * and the application. Options and settings are "key=value" words
 * separated by spaces; a setting a preset does not name keeps its default.
 */
typedef struct FlSimPreset {
    const char *name;            /* short id: "mesh-dor-uniform" */
    const char *title;           /* for menus: "8x8 mesh, DOR, uniform" */
    const char *description;     /* one line: what to watch for */
    const char *spec;            /* the network's spec: "mesh:8x8" */
    const char *routing;         /* fl_routing_lookup() name: "dor" */
    const char *routing_options; /* "classes=2", or "" */
    const char *settings;        /* "rate=0.2 packet=8" */
} FlSimPreset;

int fl_sim_preset_count(void);
const FlSimPreset *fl_sim_preset(int index);            /* NULL when out of range */
const FlSimPreset *fl_sim_preset_lookup(const char *name);   /* NULL when unknown */

/* Replaces s with the defaults and the preset's settings (applied in the
 * table's order) and ro with the preset's routing options (keeping ro's
 * progress callback); both must hold initialized values, and a prohibited
 * list in ro must be one fl_routing_options_set() made. On an error
 * (a key the table or the routing does not know, a refused value), leaves
 * both as they were and fails with a message naming the preset and key. */
int fl_sim_preset_apply(const FlSimPreset *p, FlSimSettings *s, FlRoutingOptions *ro,
                        FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_CONFIG_H */
