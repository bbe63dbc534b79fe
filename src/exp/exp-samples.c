/* exp-samples.c — a flit-level point sampled over time while it runs.
 *
 * The same samples a timeline records (fl_sim_sample_between()), without
 * its checkpoints: an experiment's run keeps them as its time series. The
 * hook only reads the simulation, so the run's results do not change. */
#include <stdlib.h>
#include <string.h>

#include "exp-internal.h"

static int take_sample(FlSim *sim, const FlSimHookInfo *info, void *data)
{
    (void)info;
    ExpSampler *smp = data;
    if (smp->n == smp->cap) {
        size_t cap = smp->cap ? 2 * smp->cap : 64;
        FlSimSample *grown = realloc(smp->samples, sizeof *grown * cap);
        if (!grown) {
            smp->out_of_memory = 1;
            return 1;
        }
        smp->samples = grown;
        smp->cap = cap;
    }
    FlSimCounters now;
    fl_sim_counters(sim, &now);
    fl_sim_sample_between(&smp->last, &now, &smp->samples[smp->n++]);
    smp->last = now;
    return 0;
}

int fl__exp_sampler_attach(ExpSampler *smp, FlSim *sim, int64_t interval, FlError *err)
{
    memset(smp, 0, sizeof *smp);
    fl_sim_counters(sim, &smp->last);
    return fl_sim_set_hook(sim, FL_SIM_HOOK_EVERY, interval, take_sample, smp, err);
}
