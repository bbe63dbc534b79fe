/* metrics.c — counts, distances and the throughput bound of a topology.
 *
 * Everything is measured between switches: hosts hang off switches and are
 * not vertices of the graph whose distances, diameter and bisection are
 * reported. Distances come from one breadth-first search per switch over the
 * compressed switch graph; the bisection width is bisection.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "metrics-internal.h"

/* Progress is reported once the BFSs since the last report have reached
 * this many switches in all: every few milliseconds, on a small network
 * after many sources and on one of a million switches after each, so that
 * a cancel is heard as soon on both. */
#define VISITS_PER_REPORT (1 << 18)

/* ---- options ------------------------------------------------------------ */

static const FlOptionInfo metrics_options[] = {
    { .name = "exact-max", .type = FL_OPTION_INT, .group = FL_N_("Metrics"),
      .label = FL_N_("Exact bisection up to"), .arg = "N",
      /* The largest value is FL_METRICS_EXACT_MAX. */
      .help = FL_N_("exact bisection by search up to N switches, 0 to 48 (more can take "
                    "hours); larger networks get a closed form or METIS's upper bound"),
      .dflt = "28", .min_int = 0, .max_int = FL_METRICS_EXACT_MAX },
};

#define N_METRICS_OPTIONS ((int)(sizeof metrics_options / sizeof metrics_options[0]))

const FlOptionInfo *fl_metrics_option(int index)
{
    return index >= 0 && index < N_METRICS_OPTIONS ? &metrics_options[index] : NULL;
}

const FlOptionInfo *fl_metrics_option_lookup(const char *name)
{
    for (int i = 0; name && i < N_METRICS_OPTIONS; i++)
        if (strcmp(metrics_options[i].name, name) == 0)
            return &metrics_options[i];
    return NULL;
}

/* Says why the limit stops where it does, since that is what a user who
 * asks for more needs to know. */
static int check_exact_max(long long v, FlError *err)
{
    if (v >= 0 && v <= FL_METRICS_EXACT_MAX)
        return FL_OK;
    return fl_error_set(err, FL_ERANGE,
                        "exact-max must be from 0 (the default, %d) to %d switches, not %lld: "
                        "the exhaustive bisection search can take hours on larger networks, "
                        "which get a closed form or METIS's upper bound instead",
                        FL_METRICS_EXACT_DEFAULT, FL_METRICS_EXACT_MAX, v);
}

int fl_metrics_options_set(FlMetricsOptions *opt, const char *name, const char *value,
                           FlError *err)
{
    const FlOptionInfo *o = fl_metrics_option_lookup(name);
    if (!opt || !o || !value)
        return fl_error_set(err, FL_EINVAL, "unknown metrics option '%s'", name ? name : "");
    char *end;
    /* Out of a long long's range, strtoll() gives its nearest end, which
     * check_exact_max() refuses as out of range too. */
    long long v = strtoll(value, &end, 10);
    if (end == value || *end)
        return fl_error_set(err, FL_EINVAL, "%s needs a whole number of switches, not '%s'",
                            o->name, value);
    int rc = check_exact_max(v, err);
    if (rc == FL_OK)
        opt->exact_bisection_max = (int)v;
    return rc;
}

/* ---- metrics ------------------------------------------------------------ */

const char *fl_bisection_method_name(FlBisectionMethod m)
{
    switch (m) {
    case FL_BISECTION_NONE: return "none";
    case FL_BISECTION_EXHAUSTIVE: return "exhaustive";
    case FL_BISECTION_CLOSED_FORM: return "closed-form";
    case FL_BISECTION_METIS: return "metis";
    }
    return "unknown";
}

void fl_metrics_clear(FlMetrics *m)
{
    if (!m)
        return;
    free(m->distance_histogram);
    memset(m, 0, sizeof *m);
}

/* Degree range of the switch graph; parallel links count once each, as in
 * fl_topology_switch_degree(). */
static void degree_range(const FlSwitchGraph *g, int *dmin, int *dmax)
{
    *dmin = *dmax = 0;
    for (int r = 0; r < g->n; r++) {
        int d = g->off[r + 1] - g->off[r];
        if (r == 0 || d < *dmin)
            *dmin = d;
        if (d > *dmax)
            *dmax = d;
    }
}

/* One BFS per source switch. hist (g->n entries, zeroed by the caller)
 * gets the number of ordered pairs at each distance; *maxd the largest
 * finite distance; *connected whether switch 0 reaches every switch, which
 * in an undirected graph means all reach all. The BFS queue lists vertices
 * in order of distance, so the histogram is one pass over the reached
 * prefix of the queue. */
static int all_pairs_distances(const FlSwitchGraph *g, const FlProgress *progress,
                               int64_t *hist, int *maxd, int *connected, FlError *err)
{
    int n = g->n;
    int *dist = malloc(sizeof(int) * 2 * (size_t)n);
    if (!dist)
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d switch distances", n);
    int *queue = dist + n;
    int far = 0;
    int64_t visits = VISITS_PER_REPORT;
    for (int s = 0; s < n; s++) {
        if (visits >= VISITS_PER_REPORT) {
            visits = 0;
            if (fl__progress_report(progress, (double)s / n)) {
                free(dist);
                return fl_error_set(err, FL_ECANCELLED, "metrics computation cancelled");
            }
        }
        int reached = fl__switch_graph_bfs(g, s, dist, queue);
        visits += reached;
        if (s == 0)
            *connected = reached == n;
        for (int i = 0; i < reached; i++)
            hist[dist[queue[i]]]++;
        if (dist[queue[reached - 1]] > far)
            far = dist[queue[reached - 1]];
    }
    free(dist);
    *maxd = far;
    return FL_OK;
}

/* Fills the distance fields of r from the full histogram: the diameter, the
 * mean over reachable ordered pairs of distinct switches (paper 003 eq. 5),
 * and a copy of the histogram trimmed to the largest finite distance. */
static int distance_summary(const int64_t *hist, int maxd, FlMetrics *r, FlError *err)
{
    int64_t pairs = 0, sum = 0;
    for (int k = 1; k <= maxd; k++) {
        pairs += hist[k];
        sum += (int64_t)k * hist[k];
    }
    r->mean_distance = pairs ? (double)sum / (double)pairs : 0.0;
    r->diameter = r->connected ? maxd : -1;
    r->histogram_len = maxd + 1;
    r->distance_histogram = malloc(sizeof(int64_t) * (size_t)r->histogram_len);
    if (!r->distance_histogram)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the distance histogram");
    memcpy(r->distance_histogram, hist, sizeof(int64_t) * (size_t)r->histogram_len);
    return FL_OK;
}

/* Paper 003 eqs. 11-13 with unit service times S_p = S_c = 1: the visit
 * ratios are V_p = 1/N for a switch and V_c = d/L for a link, so the
 * network's message completion rate, in messages per unit time for the
 * whole network, is at most min(N, L/d). With one switch there is no link
 * traffic (d = 0) and only the switch bound remains. */
static double throughput_bound(const FlMetrics *r)
{
    if (!r->connected)
        return 0.0;
    if (r->mean_distance <= 0.0)
        return (double)r->switches;
    double link_bound = (double)r->links / r->mean_distance;
    return link_bound < r->switches ? link_bound : (double)r->switches;
}

int fl_metrics_compute(const FlTopology *t, const FlMetricsOptions *opt, FlMetrics *m,
                       FlError *err)
{
    if (!t || !m)
        return fl_error_set(err, FL_EINVAL, "metrics need a topology and a result to fill");
    FlMetricsOptions o = {0};
    if (opt)
        o = *opt;
    int rc = check_exact_max(o.exact_bisection_max, err);
    if (rc)
        return rc;
    int exact_max = o.exact_bisection_max ? o.exact_bisection_max : FL_METRICS_EXACT_DEFAULT;

    /* Built in r and copied to m only on success, so a failing call leaves
     * m untouched. */
    FlMetrics r = {0};
    r.switches = t->n_switches;
    r.hosts = t->n_hosts;
    r.links = t->n_switch_links;
    r.diameter = -1;
    r.bisection_width = -1;
    r.bisection_method = FL_BISECTION_NONE;

    FlSwitchGraph g;
    if (fl__switch_graph_build(t, &g))
        return fl_error_set(err, FL_ENOMEM, "out of memory for the switch graph");
    int64_t *hist = NULL;
    degree_range(&g, &r.degree_min, &r.degree_max);

    /* The exhaustive search runs on at most FL_METRICS_EXACT_MAX switches,
     * whose distances take microseconds, and can take minutes; the other
     * methods are quick. Share the progress range accordingly. */
    FlBisectionMethod plan = fl__bisection_plan(t, exact_max);
    double bfs_share = plan == FL_BISECTION_EXHAUSTIVE ? 0.05 : 0.95;
    FlProgress bfs_progress = { o.progress, o.progress_data, 0.0, bfs_share };
    FlProgress cut_progress = { o.progress, o.progress_data, bfs_share, 1.0 - bfs_share };

    if (g.n > 0) {
        hist = calloc((size_t)g.n, sizeof *hist);
        if (!hist) {
            rc = fl_error_set(err, FL_ENOMEM, "out of memory for the distance histogram");
            goto out_graph;
        }
        int maxd = 0;
        if ((rc = all_pairs_distances(&g, &bfs_progress, hist, &maxd, &r.connected, err)))
            goto out_hist;
        if ((rc = distance_summary(hist, maxd, &r, err)))
            goto out_hist;
    }
    r.throughput_bound = throughput_bound(&r);

    if ((rc = fl__bisection(t, &g, exact_max, o.seed, &cut_progress, &r.bisection_width,
                            &r.bisection_method, err)))
        goto out_summary;
    if (fl__progress_report(&cut_progress, 1.0)) {
        rc = fl_error_set(err, FL_ECANCELLED, "metrics computation cancelled");
        goto out_summary;
    }
    *m = r;
    r.distance_histogram = NULL;

out_summary:
    free(r.distance_histogram);
out_hist:
    free(hist);
out_graph:
    fl__switch_graph_free(&g);
    return rc;
}
