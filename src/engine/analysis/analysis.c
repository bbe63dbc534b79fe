/* analysis.c — the whole report on a routing: connectivity, hop statistics
 * and channel loads (analysis-paths.c), the channel dependency graph
 * (analysis-cdg.c), and paper 002's turn metrics, which are computed here
 * from the prohibited turns.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis-internal.h"

/* PT: prohibited turns per switch, their mean over every switch (those with
 * none included) and population standard deviation (paper 002 Tables 2, 3).
 * PPT: pairs of opposite prohibited turns between the same two links, (a ->
 * b) and (b -> a) at one switch, each pair counted once (paper 002 Fig. 2). */
static int turn_metrics(const FlRouting *r, FlRoutingReport *rep, FlError *err)
{
    const FlTopology *t = r->t;
    FlTurn *turns;
    int n;
    int rc = fl_routing_prohibited_turns(r, &turns, &n, err);
    if (rc)
        return rc;
    int *per_switch = calloc((size_t)t->n_switches + 1, sizeof *per_switch);
    if (!per_switch) {
        free(turns);
        return fl_error_set(err, FL_ENOMEM, "out of memory for the turn metrics");
    }
    int ppt = 0;
    for (int i = 0; i < n; i++) {
        per_switch[t->rank[turns[i].sw]]++;
        if (turns[i].in_port < turns[i].out_port
            && fl_routing_turn_prohibited(r, turns[i].sw, turns[i].out_port, turns[i].in_port))
            ppt++;
    }
    double mean = t->n_switches ? (double)n / t->n_switches : 0.0, var = 0.0;
    for (int i = 0; i < t->n_switches; i++)
        var += (per_switch[i] - mean) * (per_switch[i] - mean);
    rep->pt_mean = mean;
    rep->pt_sd = t->n_switches ? sqrt(var / t->n_switches) : 0.0;
    rep->ppt = ppt;
    free(per_switch);
    free(turns);
    return FL_OK;
}

int fl_routing_analyze(const FlRouting *r, FlRoutingReport *rep, FlError *err)
{
    if (!r || !rep)
        return fl_error_set(err, FL_EINVAL, "no routing or no report to fill");
    FlRoutingReport out;
    memset(&out, 0, sizeof out);
    out.unroutable_src = out.unroutable_dst = -1;
    /* The statistics mark the dependencies they meet, which for a routing
     * with one choice per state spares the dependency graph its own walk. */
    FlCdg *g;
    int rc = fl__cdg_new(r, &g, err);
    if (!rc)
        rc = fl__route_stats_marked(r, &out, g, err);
    if (!rc)
        rc = fl__cdg_check_marked(r, g, &out, err);
    fl__cdg_free(g);
    if (!rc)
        rc = turn_metrics(r, &out, err);
    if (rc) {
        fl_routing_report_clear(&out);
        return rc;
    }
    *rep = out;
    return FL_OK;
}

void fl_routing_report_clear(FlRoutingReport *rep)
{
    if (!rep)
        return;
    free(rep->cycle_channels);
    free(rep->cycle_classes);
    memset(rep, 0, sizeof *rep);
    rep->unroutable_src = rep->unroutable_dst = -1;
}
