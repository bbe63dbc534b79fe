/* experiment-vectors.c — the vectors of a finished run (flitlab-experiment.h):
 * what they are, and how a result's arrays and samples become them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "experiment-internal.h"

enum {
    CHANNEL_UTILIZATION, VC_OCCUPANCY, OFFERED, ACCEPTED, LATENCY, IN_NETWORK,
    MAX_DELAY, AVG_DELAY, THROUGHPUT, N_VECTORS
};

/* The samples' series, in the order of the enum. */
#define N_SAMPLE_SERIES 4

/* Short for the models that have a vector. */
#define FLIT FL_OPTION_FOR_FLIT
#define DEFLECTION FL_OPTION_FOR_DEFLECTION

static const FlExperimentVectorInfo vectors[N_VECTORS] = {
    { "channel_utilization", FL_N_("Channel utilization"), "", 1, FLIT,
      FL_N_("busy fraction of each channel in the window") },
    { "vc_occupancy", FL_N_("VC occupancy"), FL_N_("flits"), 1, FLIT,
      FL_N_("mean flits buffered in each VC (channel * vcs + vc)") },
    { "offered", FL_N_("Offered load"), FL_N_("flits/cycle/host"), 0, FLIT,
      FL_N_("flits made per sample interval") },
    { "accepted", FL_N_("Accepted load"), FL_N_("flits/cycle/host"), 0, FLIT,
      FL_N_("flits delivered per sample interval") },
    { "latency", FL_N_("Packet latency"), FL_N_("cycles"), 0, FLIT,
      FL_N_("mean latency of the packets delivered in the interval") },
    { "in_network", FL_N_("Flits in the network"), FL_N_("flits"), 0, FLIT,
      FL_N_("flits in buffers and on links at the interval's end") },
    { "max_delay", FL_N_("Largest delay"), FL_N_("cycles"), 0, DEFLECTION,
      FL_N_("largest delay of the messages delivered so far") },
    { "avg_delay", FL_N_("Mean delay"), FL_N_("cycles"), 0, DEFLECTION,
      FL_N_("mean delay of the messages delivered so far") },
    { "throughput", FL_N_("Throughput"), FL_N_("messages/cycle/node"), 0, DEFLECTION,
      FL_N_("messages delivered per cycle in the interval") },
};

int fl_experiment_vector_count(void)
{
    return N_VECTORS;
}

const FlExperimentVectorInfo *fl_experiment_vector_info(int i)
{
    return i >= 0 && i < N_VECTORS ? &vectors[i] : NULL;
}

int fl_experiment_vector_find(const char *name)
{
    for (int i = 0; name && i < N_VECTORS; i++)
        if (strcmp(vectors[i].name, name) == 0)
            return i;
    return -1;
}

int64_t fl_experiment_sample_step(int64_t cycles)
{
    static const int64_t mantissa[] = { 1, 2, 5 };
    for (int64_t decade = 1; decade <= INT64_MAX / 50; decade *= 10)
        for (int m = 0; m < 3; m++)
            if (cycles <= FL_EXPERIMENT_SAMPLES * mantissa[m] * decade)
                return mantissa[m] * decade;
    return INT64_MAX / 2;
}

int64_t fl__experiment_sample_step(const FlExperiment *x)
{
    FlSimSettings s;
    FlRoutingOptions ro;
    const char *routing;
    /* Run 0 has the base's warm-up and measurement or the defaults... */
    fl__experiment_apply(x, 0, &s, &ro, &routing, NULL);
    int64_t longest[2] = { s.config.warmup_cycles, s.config.measure_cycles };
    /* ...and the values varied, the longest of each. */
    for (int i = 0; i < fl_exp_design_param_count(x->design); i++) {
        const char *key = fl_exp_design_param_key(x->design, i);
        int which = strcmp(key, "warmup") == 0 ? 0 : strcmp(key, "measure") == 0 ? 1 : -1;
        for (int v = 0; which >= 0 && v < fl_exp_design_value_count(x->design, i); v++)
            if (!fl_sim_settings_set(&s, key, fl_exp_design_value(x->design, i, v), NULL)) {
                int64_t cycles = which ? s.config.measure_cycles : s.config.warmup_cycles;
                if (cycles > longest[which])
                    longest[which] = cycles;
            }
    }
    fl_sim_settings_clear(&s);
    fl_routing_options_clear(&ro);
    return fl_experiment_sample_step(longest[0] + longest[1]);
}

static void add(FlExperimentResult *out, int which, const double *data, int64_t length,
                double step)
{
    if (!data || length <= 0 || length > INT32_MAX || out->nvectors == FL_EXPERIMENT_MAX_VECTORS)
        return;
    int k = out->nvectors++;
    out->vector_names[k] = vectors[which].name;
    out->vector_data[k] = data;
    out->vector_lengths[k] = (int)length;
    out->vector_steps[k] = step;
}

/* A deflection run's series over whole intervals of step cycles: the
 * running delays at each interval's end, the throughput's mean over it. */
static int deflection(const FlDeflectResult *d, FlExperimentResult *out, double **storage,
                      FlError *err)
{
    int64_t step = fl_experiment_sample_step(d->cycles), n = d->cycles / step;
    if (n == 0 || !d->max_delay || !d->avg_delay || !d->throughput)
        return FL_OK;
    double *series = malloc(sizeof *series * 3 * (size_t)n);
    if (!series)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the series of a run");
    for (int64_t k = 0; k < n; k++) {
        int64_t end = (k + 1) * step - 1;
        double sum = 0;
        for (int64_t c = k * step; c <= end; c++)
            sum += d->throughput[c];
        series[k] = d->max_delay[end];
        series[n + k] = d->avg_delay[end];
        series[2 * n + k] = sum / (double)step;
    }
    add(out, MAX_DELAY, series, n, (double)step);
    add(out, AVG_DELAY, series + n, n, (double)step);
    add(out, THROUGHPUT, series + 2 * n, n, (double)step);
    *storage = series;
    return FL_OK;
}

int fl__experiment_vectors(const FlExperiment *x, const FlExpResult *res, int vcs, int64_t step,
                           FlExperimentResult *out, double **storage, FlError *err)
{
    *storage = NULL;
    out->nvectors = 0;
    if (res->model == FL_SIM_MODEL_DEFLECTION)
        return deflection(&res->deflect, out, storage, err);
    if (res->model != FL_SIM_MODEL_FLIT)
        return FL_OK;
    int64_t channels = fl_topology_channel_count(x->t);
    add(out, CHANNEL_UTILIZATION, res->sim.channel_utilization, channels, 0);
    add(out, VC_OCCUPANCY, res->sim.vc_occupancy, channels * vcs, 0);
    size_t n = res->n_samples;
    if (n == 0)
        return FL_OK;
    double *series = malloc(sizeof *series * N_SAMPLE_SERIES * n);
    if (!series)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the samples of a run");
    for (size_t k = 0; k < n; k++) {
        const FlSimSample *smp = &res->samples[k];
        series[k] = smp->offered;
        series[n + k] = smp->accepted;
        series[2 * n + k] = smp->latency;
        series[3 * n + k] = (double)smp->in_network;
    }
    for (int v = 0; v < N_SAMPLE_SERIES; v++)
        add(out, OFFERED + v, series + (size_t)v * n, (int64_t)n, (double)step);
    *storage = series;
    return FL_OK;
}
