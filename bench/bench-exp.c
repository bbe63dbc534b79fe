/* bench-exp.c — how a sweep scales with workers. Run by hand (never as a
 * timed test):
 *
 *     bench-exp [MAX_WORKERS]
 *
 * runs the README's sweep (mesh:8x8, dor, 16-flit packets, rates 0.01 to
 * 0.5 by 0.01, stopped past saturation) through the experiment library with
 * 1, 2, 4 ... MAX_WORKERS workers (default: the online CPUs) and prints, per
 * worker count, the wall time, the points started and kept and the speed-up
 * over one worker; it checks that every count gives the same curve. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "flitlab-exp.h"

#define POINTS 50

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void count_starts(void *data, const FlExpProgress *p)
{
    *(int *)data = p->started;
}

int main(int argc, char **argv)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int max_workers = argc > 1 ? atoi(argv[1]) : online > 0 ? (int)online : 1;
    if (max_workers < 1 || max_workers > FL_EXP_MAX_WORKERS) {
        fprintf(stderr, "bench-exp: MAX_WORKERS from 1 to %d\n", FL_EXP_MAX_WORKERS);
        return 2;
    }
    FlTopology *t = NULL;
    FlRouting *r = NULL;
    FlError err = { 0 };
    if (fl_topology_from_spec("mesh:8x8", &t, &err) || fl_routing_new(t, "dor", NULL, &r, &err)) {
        fprintf(stderr, "bench-exp: %s\n", err.message);
        return 1;
    }
    FlExpPoint points[POINTS];
    memset(points, 0, sizeof points);
    for (int i = 0; i < POINTS; i++) {
        points[i].topology = t;
        fl_sim_config_init(&points[i].config);
        points[i].config.routing = r;
        points[i].config.selection = FL_SELECT_CREDITS;
        points[i].config.traffic.packet_flits = 16;
        points[i].config.traffic.rate = round((0.01 + i * 0.01) * 1e12) / 1e12;
    }

    printf("%-8s %10s %8s %6s %8s\n", "workers", "wall_s", "started", "kept", "speedup");
    double first = 0;
    int64_t hops_first = -1;
    int status = 0;
    for (int w = 1; w <= max_workers; w *= 2) {
        FlExpOptions opt;
        fl_exp_options_init(&opt);
        opt.workers = w;
        int started = 0;
        opt.progress = count_starts;
        opt.progress_data = &started;
        FlExp *e = NULL;
        double t0 = now_s();
        if (fl_exp_new(points, POINTS, &opt, &e, &err) || fl_exp_run(e, &err)) {
            fprintf(stderr, "bench-exp: %s\n", err.message);
            fl_exp_free(e);
            status = 1;
            break;
        }
        double wall = now_s() - t0;
        int kept = 0;
        int64_t hops = 0;
        for (int i = 0; i < POINTS; i++) {
            const FlExpResult *res = fl_exp_result(e, i);
            kept += res->kept;
            hops += res->kept ? res->sim.flit_hops : 0;
        }
        if (w == 1) {
            first = wall;
            hops_first = hops;
        } else if (hops != hops_first) {
            fprintf(stderr, "bench-exp: %d workers simulated another curve\n", w);
            status = 1;
        }
        printf("%-8d %10.3f %8d %6d %8.2f\n", w, wall, started, kept, first / wall);
        fl_exp_free(e);
    }
    fl_routing_free(r);
    fl_topology_free(t);
    return status;
}
