/* exp-point.c — an experiment's run as a point of the list, from the
 * simulation settings, and a finished point's figures by the result-key
 * table of its model: what an experiment runner needs around fl_exp_run()
 * (flitlab-exp.h). */
#include <math.h>
#include <string.h>

#include "flitlab-exp.h"

int fl_exp_point_from_settings(FlExpPoint *p, const FlTopology *t, const FlSimSettings *s,
                               const char *routing, const FlRoutingOptions *ro, FlError *err)
{
    if (!p || !t || !s)
        return fl_error_set(err, FL_EINVAL, "fl_exp_point_from_settings: no point, topology "
                            "or settings");
    if (!routing)
        return fl_error_set(err, FL_EINVAL, "a point needs a routing: none named");
    if (!fl_routing_lookup(routing))
        return fl_error_set(err, FL_ENOTFOUND, "unknown routing '%s'", routing);
    if (s->model == FL_SIM_MODEL_FLIT && s->config.traffic.pattern
        && strcmp(s->config.traffic.pattern, "trace") == 0)
        return fl_error_set(err, FL_EUNSUPPORTED, "trace traffic: its events are read by the "
                            "caller (set config.traffic.trace)");
    fl_exp_point_init(p);
    p->topology = t;
    p->model = s->model;
    p->config = s->config;
    p->config.routing = NULL;
    p->deflect = s->deflect;
    p->deflect.routing = NULL;
    p->multicast = s->multicast;
    p->routing_name = routing;
    if (ro)
        p->routing_options = *ro;
    return FL_OK;
}

int fl_exp_result_scalars(const FlExpResult *r, const FlTopology *t, const char **names,
                          double *values, int max)
{
    if (!r || r->state != FL_EXP_DONE)
        return 0;
    unsigned mask = fl_sim_model_option(r->model);
    int n = 0;
    for (int i = 0; i < fl_sim_result_key_count(); i++) {
        const FlSimResultKey *k = fl_sim_result_key(i);
        if (!(k->models & mask))
            continue;
        if (n < max) {
            double v = r->model == FL_SIM_MODEL_DEFLECTION ? fl_deflect_result_value(&r->deflect, i)
                       : r->model == FL_SIM_MODEL_MULTICAST
                           ? fl_multicast_result_value(&r->multicast, i)
                           : fl_sim_result_value(&r->sim, t, i);
            if (names)
                names[n] = k->name;
            if (values)
                values[n] = v;
        }
        n++;
    }
    return n;
}
