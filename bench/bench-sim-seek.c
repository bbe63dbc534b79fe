/* bench-sim-seek.c — how fast a simulation timeline seeks, and what its
 * checkpoints and samples take. Run by hand (never as a timed test):
 *
 *     bench-sim-seek [CYCLES [BUDGET_MIB]]
 *
 * simulates a 16x16 mesh (dor, uniform, 0.3 flits/cycle/host, 8-flit
 * packets, 2 VCs of 8 flits: the case) through an FlSimTimeline
 * with the application's defaults to CYCLES (100000), then times seeking
 * back 10,000 cycles from near the end and seeking to random cycles
 * (median and worst of several), and prints the checkpoints kept and
 * their bytes, and the samples' bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-time.h"
#include "flitlab.h"

#define SEEKS 9

/* The case, as `flitlab sim` takes it. */
static const char *const SETTINGS[][2] = {
    { "vcs", "2" }, { "buf", "8" }, { "traffic", "uniform" }, { "rate", "0.3" },
    { "packet", "8" }, { "warmup", "1000" }, { "seed", "1" },
};

/* Times one seek to cycle, in ms; -1 on failure. */
static double timed_seek(FlSimTimeline *tl, int64_t cycle)
{
    FlError err = { 0 };
    double start = now_ms();
    if (fl_sim_timeline_seek(tl, cycle, &err)) {
        fprintf(stderr, "bench-sim-seek: seek to %lld: %s\n", (long long)cycle, err.message);
        return -1.0;
    }
    return now_ms() - start;
}

static void print_times(const char *what, double *ms, int n)
{
    qsort(ms, (size_t)n, sizeof *ms, by_value);
    printf("%-34s median %7.1f ms, best %7.1f ms, worst %7.1f ms (%d seeks)\n", what,
           ms[n / 2], ms[0], ms[n - 1], n);
}

int main(int argc, char **argv)
{
    int64_t cycles = argc > 1 ? strtoll(argv[1], NULL, 10) : 100000;
    double budget_mib = argc > 2 ? strtod(argv[2], NULL)
                                 : (double)FL_SIM_TIMELINE_DEFAULT_BUDGET / (1 << 20);
    if (cycles < 20000 || budget_mib < 0) {
        fprintf(stderr, "usage: bench-sim-seek [CYCLES >= 20000 [BUDGET_MIB]]\n");
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
    for (size_t i = 0; i < sizeof SETTINGS / sizeof SETTINGS[0]; i++)
        if (fl_sim_settings_set(&settings, SETTINGS[i][0], SETTINGS[i][1], &err))
            goto out;
    if (fl_topology_from_spec("mesh:16x16", &t, &err) || fl_routing_new(t, "dor", NULL, &r, &err))
        goto out;
    settings.config.routing = r;
    settings.config.measure_cycles = cycles;
    if (fl_sim_new(t, &settings.config, &sim, &err))
        goto out;
    tl = fl_sim_timeline_new(sim, FL_SIM_TIMELINE_DEFAULT_INTERVAL,
                             (size_t)(budget_mib * (1 << 20)), FL_SIM_TIMELINE_DEFAULT_SAMPLE,
                             &err);
    if (!tl)
        goto out;
    double start = now_ms();
    if (fl_sim_timeline_step(tl, cycles, NULL, &err))
        goto out;
    double forward = now_ms() - start;
    printf("mesh:16x16 dor uniform 0.30 L=8 2x8, checkpoint every %d cycles, budget %.0f MiB, "
           "a sample every %d cycles\n", FL_SIM_TIMELINE_DEFAULT_INTERVAL, budget_mib,
           FL_SIM_TIMELINE_DEFAULT_SAMPLE);
    printf("%-34s %7.0f ms (%.0f cycles/s)\n", "simulating 0 to the end", forward,
           (double)cycles / forward * 1e3);
    size_t kept = fl_sim_timeline_n_checkpoints(tl);
    printf("%-34s %zu kept, %.1f MiB; cycles:", "checkpoints at the end", kept,
           (double)fl_sim_timeline_checkpoint_bytes(tl) / (1 << 20));
    for (size_t i = 0; i < kept; i++)
        printf(" %lld", (long long)fl_sim_timeline_checkpoint_cycle(tl, i));
    printf("\n");
    const FlSimSample *samples;
    size_t n_samples = fl_sim_timeline_samples(tl, &samples);
    printf("%-34s %zu samples, %.2f MiB (%d channels)\n", "samples", n_samples,
           (double)fl_sim_timeline_sample_bytes(tl) / (1 << 20), fl_sim_channels(sim));

    double ms[SEEKS];
    int n = 0;
    /* Back 10,000 cycles from a few places near the end. */
    for (int i = 0; i < SEEKS; i++) {
        int64_t from = cycles - 97 * i;
        if (timed_seek(tl, from) < 0 || (ms[n] = timed_seek(tl, from - 10000)) < 0)
            goto out;
        n++;
    }
    print_times("seek back 10,000 cycles", ms, n);
    /* Random cycles over the whole run, each from the previous. */
    uint64_t x = 2024;
    n = 0;
    for (int i = 0; i < SEEKS; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        if ((ms[n] = timed_seek(tl, (int64_t)((x >> 33) % (uint64_t)cycles))) < 0)
            goto out;
        n++;
    }
    print_times("seek to random cycles", ms, n);
    rc = 0;
out:
    if (rc && err.message[0])
        fprintf(stderr, "bench-sim-seek: %s\n", err.message);
    fl_sim_timeline_free(tl);
    fl_sim_free(sim);
    fl_sim_settings_clear(&settings);
    fl_routing_free(r);
    fl_topology_free(t);
    return rc;
}
