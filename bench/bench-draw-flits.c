/* bench-draw-flits.c — how long one frame of a running simulation takes to
 * draw. Run by hand (never as a timed test):
 *
 *     bench-draw-flits
 *
 * A 32x32 mesh with dor at saturation (uniform, 0.4 flits/cycle/host,
 * 8-flit packets, 2 VCs of 8 flits) is run for 2000 cycles, then its frame
 * is drawn on a 1280x800 cairo image surface with the network fitted in:
 * as the canvas draws it (aggregated at that size), with every flit
 * drawn, aggregated, with the caption and heat map the Simulate view adds,
 * and zoomed in; then paper 003's XMESH in the deflection model. Each
 * figure is the fastest of REPEATS frames, in ms. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "flitlab-draw.h"

#define REPEATS 10
#define WIDTH 1280
#define HEIGHT 800

static double ms_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) * 1e-6;
}

/* The fastest of REPEATS frames of f (or with f NULL, of d) over t, in ms
 * of wall time; the fastest in CPU time of the drawing thread goes to
 * cpu_best, which other work on a busy machine does not inflate. */
static double best_frame_cpu(const FlTopology *t, const FlDrawOptions *o, const FlDrawFlits *f,
                             const FlDrawDeflect *d, double *cpu_best)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
    double best = 1e9, cpu = 1e9;
    for (int i = 0; i < REPEATS; i++) {
        struct timespec a, b, ca, cb;
        cairo_t *cr = cairo_create(s);
        clock_gettime(CLOCK_MONOTONIC, &a);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ca);
        if (f)
            fl_draw_flits(cr, t, o, f);
        else
            fl_draw_deflect(cr, t, o, d);
        cairo_surface_flush(s);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cb);
        clock_gettime(CLOCK_MONOTONIC, &b);
        cairo_destroy(cr);
        if (ms_between(&a, &b) < best)
            best = ms_between(&a, &b);
        if (ms_between(&ca, &cb) < cpu)
            cpu = ms_between(&ca, &cb);
    }
    cairo_surface_destroy(s);
    if (cpu_best)
        *cpu_best = cpu;
    return best;
}

/* Prints what, then the best wall and CPU times of a frame of f (or d). */
static void report(const char *what, const FlTopology *t, const FlDrawOptions *o,
                   const FlDrawFlits *f, const FlDrawDeflect *d)
{
    double cpu;
    double wall = best_frame_cpu(t, o, f, d, &cpu);
    printf("  %-52s %7.2f ms/frame (CPU %.2f ms)\n", what, wall, cpu);
}

/* The options of t fitted into the surface. */
static FlDrawOptions fitted(const FlTopology *t)
{
    FlDrawOptions o;
    fl_draw_options_init(&o);
    fl_draw_view_fit(t, WIDTH, HEIGHT, &o.view);
    return o;
}

/* Paper 003's network in the deflection model: xmesh:36x72 with xmesh
 * routing, 4 messages per switch, age priority, after 1000 cycles; fitted
 * in (as the canvas draws it), aggregated and zoomed in. */
static int bench_deflect(void)
{
    FlTopology *t = NULL;
    FlRouting *r = NULL;
    FlDeflect *d = NULL;
    FlError err;
    FlDeflectConfig cfg = { 0 };
    int rc = 1;
    if (fl_topology_from_spec("xmesh:36x72", &t, &err)
        || fl_routing_new(t, "xmesh", NULL, &r, &err))
        goto out;
    cfg.routing = r;
    cfg.nmsg = 4;
    cfg.priority = FL_PRIORITY_AGE;
    cfg.cycles = 1000;
    cfg.seed = 1;
    if (fl_deflect_new(t, &cfg, &d, &err) || fl_deflect_step(d, 1000, &err))
        goto out;
    FlDrawOptions o = fitted(t);
    FlDrawDeflect f;
    fl_draw_deflect_init(&f);
    f.deflect = d;
    f.caption = "cycle 1000";
    int agg = 0;
    double side = fl_draw_deflect_size(t, &o.view, &f, &agg);
    printf("xmesh:36x72 deflection, 4 messages per switch, age priority, cycle %lld\n",
           (long long)fl_deflect_cycle(d));
    char what[96];
    best_frame_cpu(t, &o, NULL, &f, NULL);
    snprintf(what, sizeof what, "as the canvas draws it (%s, side %.2f px):",
             agg ? "aggregated" : "individual messages", side);
    report(what, t, &o, NULL, &f);
    f.mode = FL_DRAW_FLITS_AGGREGATED;
    report("aggregated:", t, &o, NULL, &f);
    f.mode = FL_DRAW_FLITS_INDIVIDUAL;
    report("every message drawn:", t, &o, NULL, &f);
    /* What the network itself costs, under the messages. */
    f.deflect = NULL;
    report("the network alone (fl_draw_topology):", t, &o, NULL, &f);
    f.deflect = d;
    f.mode = FL_DRAW_FLITS_AUTO;
    o.view.scale *= 4;
    report("zoomed in 4x:", t, &o, NULL, &f);
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "bench-draw-flits: %s\n", err.message);
    fl_deflect_free(d);
    fl_routing_free(r);
    fl_topology_free(t);
    return rc;
}

int main(void)
{
    FlTopology *t = NULL;
    FlRouting *r = NULL;
    FlSim *sim = NULL;
    FlError err;
    FlSimConfig cfg;
    if (fl_topology_from_spec("mesh:32x32", &t, &err)
        || fl_routing_new(t, "dor", NULL, &r, &err))
        goto fail;
    fl_sim_config_init(&cfg);
    cfg.routing = r;
    cfg.vcs = 2;
    cfg.buf_flits = 8;
    cfg.traffic.pattern = "uniform";
    cfg.traffic.rate = 0.4;
    cfg.traffic.packet_flits = 8;
    cfg.seed = 1;
    FlSimStatus st;
    if (fl_sim_new(t, &cfg, &sim, &err) || fl_sim_step(sim, 2000, &st, &err))
        goto fail;

    FlDrawOptions o = fitted(t);
    FlDrawFlits f;
    fl_draw_flits_init(&f);
    f.sim = sim;
    int agg = 0;
    double side = fl_draw_flit_size(t, &o.view, &f, &agg);
    printf("32x32 mesh, dor, uniform 0.4, 8-flit packets, cycle %lld, %dx%d, best of %d\n",
           (long long)fl_sim_cycle(sim), WIDTH, HEIGHT, REPEATS);
    char what[96];
    best_frame_cpu(t, &o, &f, NULL, NULL);   /* warms cairo's caches and the CPU up */
    snprintf(what, sizeof what, "as the canvas draws it (%s, flit side %.2f px):",
             agg ? "aggregated" : "individual flits", side);
    report(what, t, &o, &f, NULL);
    f.mode = FL_DRAW_FLITS_INDIVIDUAL;
    report("every flit drawn:", t, &o, &f, NULL);
    f.mode = FL_DRAW_FLITS_AGGREGATED;
    report("aggregated:", t, &o, &f, NULL);
    /* What the Simulate view shows: the cycle counter and the heat map of
     * the utilization so far. */
    FlSimResult res = { 0 };
    if (fl_sim_stats(sim, &res, &err))
        goto fail;
    char caption[32];
    snprintf(caption, sizeof caption, "cycle %lld", (long long)fl_sim_cycle(sim));
    f.mode = FL_DRAW_FLITS_AUTO;
    f.caption = caption;
    f.heat = res.channel_utilization;
    f.nheat = fl_topology_channel_count(t);
    report("as the canvas, with caption and heat map:", t, &o, &f, NULL);
    f.caption = NULL;
    f.heat = NULL;
    f.nheat = 0;
    o.view.scale *= 8;   /* zoomed in: a part of the network fills the surface */
    f.mode = FL_DRAW_FLITS_AUTO;
    side = fl_draw_flit_size(t, &o.view, &f, &agg);
    snprintf(what, sizeof what, "zoomed in 8x (%s, flit side %.2f px):",
             agg ? "aggregated" : "individual flits", side);
    report(what, t, &o, &f, NULL);
    fl_sim_result_clear(&res);
    fl_sim_free(sim);
    fl_routing_free(r);
    fl_topology_free(t);
    return bench_deflect();
fail:
    fprintf(stderr, "bench-draw-flits: %s\n", err.message);
    fl_sim_free(sim);
    fl_routing_free(r);
    fl_topology_free(t);
    return 1;
}
