/* flitlab/analysis.h — Routing analysis: paths, deadlock check, turn metrics, loads.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_ANALYSIS_H
#define FLITLAB_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/routing.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_ANALYSIS_H */
