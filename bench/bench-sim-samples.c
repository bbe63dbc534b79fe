/* bench-sim-samples.c — what a simulation timeline's samples take over a
 * long run. Run by hand (never as a timed test):
 *
 *     bench-sim-samples [CYCLES [RATE]]
 *
 * simulates a 16x16 mesh (dor, the window's defaults: uniform traffic,
 * 0.1 flits/cycle/host unless RATE is given) through an FlSimTimeline with
 * the application's defaults to CYCLES (1,000,000), and prints, every
 * tenth of the way, the samples kept, their interval and their bytes. */
#include <stdio.h>
#include <stdlib.h>

#include "bench-time.h"
#include "flitlab.h"

int main(int argc, char **argv)
{
    int64_t cycles = argc > 1 ? strtoll(argv[1], NULL, 10) : 1000000;
    const char *rate = argc > 2 ? argv[2] : NULL;
    if (cycles < 10) {
        fprintf(stderr, "usage: bench-sim-samples [CYCLES >= 10 [RATE]]\n");
        return 2;
    }
    FlTopology *t = NULL;
    FlRouting *r = NULL;
    FlSim *sim = NULL;
    FlSimTimeline *tl = NULL;
    FlError err = { 0 };
    FlSimSettings settings;
    fl_sim_settings_init(&settings);
    int rc = 1;
    if (rate && fl_sim_settings_set(&settings, "rate", rate, &err))
        goto out;
    if (fl_topology_from_spec("mesh:16x16", &t, &err) || fl_routing_new(t, "dor", NULL, &r, &err))
        goto out;
    settings.config.routing = r;
    if (fl_sim_new(t, &settings.config, &sim, &err))
        goto out;
    tl = fl_sim_timeline_new(sim, FL_SIM_TIMELINE_DEFAULT_INTERVAL, FL_SIM_TIMELINE_DEFAULT_BUDGET,
                             FL_SIM_TIMELINE_DEFAULT_SAMPLE, &err);
    if (!tl)
        goto out;
    printf("mesh:16x16 dor, rate %.3g, a sample every %d cycles at first, %.0f MiB of samples "
           "(%d channels)\n", settings.config.traffic.rate, FL_SIM_TIMELINE_DEFAULT_SAMPLE,
           (double)fl_sim_timeline_sample_budget(tl) / (1 << 20), fl_sim_channels(sim));
    double start = now_ms();
    for (int tenth = 1; tenth <= 10; tenth++) {
        int64_t to = cycles * tenth / 10;
        FlSimStatus status;
        if (fl_sim_timeline_step(tl, to - fl_sim_cycle(sim), &status, &err))
            goto out;
        size_t bytes = fl_sim_timeline_sample_bytes(tl);
        printf("cycle %9lld: %5zu samples, %6lld cycles apart, %9zu bytes (%.2f MiB); "
               "%.0f s\n", (long long)fl_sim_cycle(sim), fl_sim_timeline_samples(tl, NULL),
               (long long)fl_sim_timeline_sample_interval(tl), bytes,
               (double)bytes / (1 << 20), (now_ms() - start) / 1e3);
        if (status != FL_SIM_RUNNING)
            break;
    }
    rc = 0;
out:
    if (rc && err.message[0])
        fprintf(stderr, "bench-sim-samples: %s\n", err.message);
    fl_sim_timeline_free(tl);
    fl_sim_free(sim);
    fl_sim_settings_clear(&settings);
    fl_routing_free(r);
    fl_topology_free(t);
    return rc;
}
