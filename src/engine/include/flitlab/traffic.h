/* flitlab/traffic.h — Traffic: patterns, injection processes and traces.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_TRAFFIC_H
#define FLITLAB_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/topology.h"
#include "flitlab/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* The longest packet, in flits, the traffic and the simulator take. */
#define FL_MAX_PACKET_FLITS 1000000

/* One packet of a trace file: made at cycle by host src for host dst. */
typedef struct FlTraceEvent {
    int64_t cycle;
    int src, dst;
    int flits;
    int line;                  /* the file's line it was read from (from 1), for
                                * messages; 0 when not read from a file */
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
    /* trace: the file the events were read from, for messages that name an
     * event by its line (NULL: by its number); read only while the traffic
     * is made. */
    const char *trace_name;
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

/* Traffic state for checkpoints. A generator keeps per-host state (on/off phase, trace cursor, the cycle of
 * the last call), so a simulator checkpoint must save it too: state_size()
 * bytes, copied out by state_save() and back by state_load() into the same
 * generator (or one made from the same topology and configuration). O(hosts). */
size_t fl_traffic_state_size(const FlTraffic *tr);
void fl_traffic_state_save(const FlTraffic *tr, void *buf);
void fl_traffic_state_load(FlTraffic *tr, const void *buf);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_TRAFFIC_H */
