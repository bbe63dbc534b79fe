/* exp-internal.h — the experiment's state, shared by exp.c (the list, the
 * workers, the stop rule, delivery) and exp-routes.c (routings built by name).
 * Private to src/exp. */
#ifndef FLITLAB_EXP_INTERNAL_H
#define FLITLAB_EXP_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "flitlab-exp.h"

typedef enum ExpRouteState {
    EXP_ROUTE_NONE = 0,
    EXP_ROUTE_BUILDING,
    EXP_ROUTE_READY,
    EXP_ROUTE_FAILED
} ExpRouteState;

/* One distinct (topology, routing name, options) among the points. */
typedef struct ExpRoute {
    const FlTopology *t;
    const char *name;
    FlRoutingOptions opt;
    ExpRouteState state;
    FlRouting *r;
    FlError err;
    int users;              /* points that may still run on it */
} ExpRoute;

/* The points of one series, in list order. */
typedef struct ExpSeries {
    int value;
    int *points;            /* indices into the list */
    int n;
    int mine;               /* in this share */
    int stop;               /* position of the first point known past
                             * saturation, else n */
    int delivered;          /* positions handed to the result callback */
} ExpSeries;

struct FlExp {
    int n;
    FlExpPoint *points;
    FlExpResult *results;
    int *route_of;          /* per point: index into routes, or -1 */
    ExpRoute *routes;
    int n_routes;
    ExpSeries *series;      /* by ordinal (order of first appearance) */
    int n_series;
    int *members;           /* the series' points arrays, end to end */
    int *series_of;         /* per point: its series' ordinal */
    int ready;              /* the locks are initialised */
    FlExpOptions opt;

    /* Under lock, which is also held during every callback so that they
     * come one at a time and in order: the scheduling, the results and the
     * counts. */
    pthread_mutex_t lock;
    int ran;
    int next;               /* the first point not handed out yet */
    FlExpProgress counts;

    /* Under stop_lock, taken alone or inside lock: what running threads read
     * outside lock (each series' stop) and the routing cache. */
    pthread_mutex_t stop_lock;
    pthread_cond_t route_built;

    atomic_int cancelled;
};

/* The routing cache (exp-routes.c). Finds or adds the entry for point p;
 * returns its index, or -1 when out of memory. */
int fl__exp_route_index(FlExp *e, const FlExpPoint *p);
/* The routing of entry ri, built by the first caller and waited for by the
 * others; fails with the build's error. Takes stop_lock. */
int fl__exp_route_acquire(FlExp *e, int ri, const FlRouting **out, FlError *err);
/* One point fewer may use entry ri; frees the routing after the last.
 * Takes stop_lock. */
void fl__exp_route_release(FlExp *e, int ri);
/* Frees every routing built; the entries stay. */
void fl__exp_routes_clear(FlExp *e);

/* A flit-level run's samples (exp-samples.c): every interval cycles, the
 * counters since the last sample, through the simulation's hook. */
typedef struct ExpSampler {
    FlSimSample *samples;
    size_t n, cap;
    FlSimCounters last;
    int out_of_memory;      /* a sample could not be kept: the run stopped */
} ExpSampler;

/* Installs the sampler as sim's hook (sim at cycle 0). */
int fl__exp_sampler_attach(ExpSampler *smp, FlSim *sim, int64_t interval, FlError *err);

#endif /* FLITLAB_EXP_INTERNAL_H */
