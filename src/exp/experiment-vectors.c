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

static const FlExperimentVectorInfo vectors[N_VECTORS] = {
    { "channel_utilization", "", 1, "busy fraction of each channel in the window" },
    { "vc_occupancy", "flits", 1, "mean flits buffered in each VC (channel * vcs + vc)" },
    { "offered", "flits/cycle/host", 0, "flits made per sample interval" },
    { "accepted", "flits/cycle/host", 0, "flits delivered per sample interval" },
    { "latency", "cycles", 0, "mean latency of the packets delivered in the interval" },
    { "in_network", "flits", 0, "flits in buffers and on links at the interval's end" },
    { "max_delay", "cycles", 0, "largest delay of the messages delivered so far" },
    { "avg_delay", "cycles", 0, "mean delay of the messages delivered so far" },
    { "throughput", "messages/cycle/node", 0, "messages delivered in the cycle" },
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

int fl__experiment_vectors(const FlExperiment *x, const FlExpResult *res, int vcs,
                           FlExperimentResult *out, double **storage, FlError *err)
{
    *storage = NULL;
    out->nvectors = 0;
    if (res->model == FL_SIM_MODEL_DEFLECTION) {
        int64_t cycles = res->deflect.cycles;
        add(out, MAX_DELAY, res->deflect.max_delay, cycles, 1);
        add(out, AVG_DELAY, res->deflect.avg_delay, cycles, 1);
        add(out, THROUGHPUT, res->deflect.throughput, cycles, 1);
        return FL_OK;
    }
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
        add(out, OFFERED + v, series + (size_t)v * n, (int64_t)n, FL_EXPERIMENT_SAMPLE_INTERVAL);
    *storage = series;
    return FL_OK;
}
