/* bench-sim.c — how fast the flit-level simulator runs, and how much memory
 * a large network takes. Run by hand (never as a timed test):
 *
 *     bench-sim [MEASURE_CYCLES]
 *
 * prints one line per case: simulated flit-hops (channel traversals) per
 * second and cycles per second on 8x8 and 16x16 meshes (dor, uniform, 0.1
 * flits/cycle/host, 8-flit packets, 2 VCs of 8 flits: the cases),
 * then the 16x16 mesh past saturation (0.4, where blocked heads retry
 * allocation every cycle) and the 64x64 mesh below it (0.02, a tenth of
 * the window); first, the memory of a 64x64 mesh simulation. Then the
 * 16x16, 32x32 and 64x64 cases again with their switches shared by two
 * threads (FlSimConfig.threads), and the speed-up over one. Each speed case
 * is the fastest of REPEATS runs; the two-thread figures need two idle
 * cores. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "flitlab.h"

/* Measurement window of the speed cases unless given on the command line. */
#define DEFAULT_MEASURE 20000
/* Each speed case runs this many times and reports its fastest run: the
 * machine is shared, and the fastest run is the one least disturbed. The
 * simulated figures are identical every time (same seed). */
#define REPEATS 5
/* Cycles the 64x64 case runs before its memory is read: enough for every
 * source queue and buffer to reach its working size at 0.1 flits/cycle. */
#define MEMORY_CYCLES 2000

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Peak resident set of this process so far, in MiB. */
static double peak_rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* The benchmark configuration on spec at rate; measure cycles of
 * it. */
static int make_sim(const char *spec, double rate, int64_t measure, int threads,
                    FlTopology **t, FlRouting **r, FlSim **sim, FlError *err)
{
    *t = NULL;
    *r = NULL;
    *sim = NULL;
    if (fl_topology_from_spec(spec, t, err) || fl_routing_new(*t, "dor", NULL, r, err))
        return -1;
    FlSimConfig cfg;
    fl_sim_config_init(&cfg);
    cfg.routing = *r;
    cfg.vcs = 2;
    cfg.buf_flits = 8;
    cfg.traffic.pattern = "uniform";
    cfg.traffic.rate = rate;
    cfg.traffic.packet_flits = 8;
    cfg.warmup_cycles = 1000;
    cfg.measure_cycles = measure;
    cfg.seed = 1;
    cfg.threads = threads;
    return fl_sim_new(*t, &cfg, sim, err);
}

static void free_sim(FlTopology *t, FlRouting *r, FlSim *sim)
{
    fl_sim_free(sim);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* One timed run of a speed case: warm-up, measurement and drain (building
 * the network and the simulator is not timed). */
static int timed_run(const char *spec, double rate, int64_t measure, int threads,
                     FlSimResult *res, double *wall, FlError *err)
{
    FlTopology *t;
    FlRouting *r;
    FlSim *sim;
    int rc = make_sim(spec, rate, measure, threads, &t, &r, &sim, err);
    double start = now_s();
    if (!rc)
        rc = fl_sim_run(sim, res, NULL, NULL, err);
    *wall = now_s() - start;
    free_sim(t, r, sim);
    return rc;
}

/* Runs a speed case on threads threads and prints it; its best wall time
 * in *best. */
static int speed_case(const char *spec, double rate, int64_t measure, int threads, double *best)
{
    FlError err = { 0 };
    FlSimResult res;
    memset(&res, 0, sizeof res);
    double wall = 0;
    int rc = 0;
    for (int i = 0; i < REPEATS && !rc; i++) {
        double w;
        fl_sim_result_clear(&res);
        rc = timed_run(spec, rate, measure, threads, &res, &w, &err);
        if (i == 0 || w < wall)
            wall = w;
    }
    if (rc) {
        fprintf(stderr, "bench-sim: %s: %s\n", spec, err.message);
    } else {
        printf("%-11s dor uniform %.2f L=8 2x8, %d thread%s: %9lld cycles %11lld flit-hops "
               "%7.3f s  %7.2f M flit-hops/s  %9.0f cycles/s  latency %.2f  accepted %.4f  %s\n",
               spec, rate, threads, threads > 1 ? "s" : "", (long long)res.cycles,
               (long long)res.flit_hops, wall,
               (double)res.flit_hops / wall / 1e6, (double)res.cycles / wall,
               res.latency_avg, res.throughput, fl_sim_status_name(res.status));
    }
    fl_sim_result_clear(&res);
    *best = wall;
    return rc;
}

/* The peak RSS is the process's; this case runs first, so the growth it
 * causes is its own footprint. */
static int memory_case(const char *spec)
{
    FlTopology *t;
    FlRouting *r;
    FlSim *sim;
    FlError err = { 0 };
    double before = peak_rss_mib();
    int rc = make_sim(spec, 0.1, MEMORY_CYCLES, 1, &t, &r, &sim, &err);
    if (rc) {
        fprintf(stderr, "bench-sim: %s: %s\n", spec, err.message);
    } else {
        double start = now_s();
        fl_sim_step(sim, MEMORY_CYCLES, NULL, NULL);
        double wall = now_s() - start;
        double after = peak_rss_mib();
        printf("%-11s dor uniform 0.10 L=8 2x8: memory after %d cycles: peak RSS %.1f MiB "
               "(+%.1f MiB for topology, routing and simulator), %.0f cycles/s\n",
               spec, MEMORY_CYCLES, after, after - before, MEMORY_CYCLES / wall);
    }
    free_sim(t, r, sim);
    return rc;
}

int main(int argc, char **argv)
{
    int64_t measure = argc > 1 ? strtoll(argv[1], NULL, 10) : DEFAULT_MEASURE;
    if (measure < 1) {
        fprintf(stderr, "usage: bench-sim [MEASURE_CYCLES]\n");
        return 2;
    }
    /* First: the peak of any case before it would hide its growth. */
    int rc = memory_case("mesh:64x64");
    const struct {
        const char *spec;
        double rate;
        int64_t measure;
        int twice;          /* also on two threads */
    } cases[] = {
        { "mesh:8x8", 0.1, measure, 0 },
        { "mesh:16x16", 0.1, measure, 1 },
        { "mesh:16x16", 0.4, measure, 1 },
        { "mesh:32x32", 0.05, measure / 4 > 0 ? measure / 4 : 1, 1 },
        { "mesh:64x64", 0.02, measure / 10 > 0 ? measure / 10 : 1, 1 },
    };
    const int n = (int)(sizeof cases / sizeof cases[0]);
    double one[sizeof cases / sizeof cases[0]];
    for (int i = 0; i < n; i++)
        rc |= speed_case(cases[i].spec, cases[i].rate, cases[i].measure, 1, &one[i]);
    for (int i = 0; i < n; i++) {
        double two;
        if (!cases[i].twice || speed_case(cases[i].spec, cases[i].rate, cases[i].measure, 2, &two))
            continue;
        printf("%-11s dor uniform %.2f: two threads %.2fx as fast as one\n", cases[i].spec,
               cases[i].rate, one[i] / two);
    }
    return rc ? 1 : 0;
}
