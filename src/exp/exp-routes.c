/* exp-routes.c — routings that points name rather than pass: each distinct
 * (topology, name, options) is built once, by the first worker that needs
 * it, shared by every point that uses it (a built routing is read-only, see
 * flitlab.h), and freed once no point may still run on it. */
#include <stdlib.h>
#include <string.h>

#include "exp-internal.h"

static int same_string(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static int same_routing(const ExpRoute *r, const FlExpPoint *p)
{
    const FlRoutingOptions *a = &r->opt, *b = &p->routing_options;
    return r->t == p->topology && strcmp(r->name, p->routing_name) == 0
           && a->root == b->root && a->vc_classes == b->vc_classes
           && same_string(a->order, b->order) && a->n_prohibited == b->n_prohibited
           && (a->n_prohibited <= 0 || a->prohibited == b->prohibited
               || (a->prohibited && b->prohibited
                   && memcmp(a->prohibited, b->prohibited,
                             sizeof *a->prohibited * (size_t)a->n_prohibited) == 0));
}

int fl__exp_route_index(FlExp *e, const FlExpPoint *p)
{
    for (int k = 0; k < e->n_routes; k++)
        if (same_routing(&e->routes[k], p))
            return k;
    /* Grown by doubling: n_routes reaches a power of two before each resize. */
    if ((e->n_routes & (e->n_routes - 1)) == 0) {
        size_t cap = e->n_routes ? 2 * (size_t)e->n_routes : 4;
        ExpRoute *grown = realloc(e->routes, cap * sizeof *grown);
        if (!grown)
            return -1;
        e->routes = grown;
    }
    ExpRoute *r = &e->routes[e->n_routes];
    memset(r, 0, sizeof *r);
    r->t = p->topology;
    r->name = p->routing_name;
    r->opt = p->routing_options;
    r->opt.progress = NULL;
    r->opt.progress_data = NULL;
    return e->n_routes++;
}

/* Stops a table build once the experiment is cancelled. */
static int build_progress(void *data, double fraction)
{
    (void)fraction;
    FlExp *e = data;
    return atomic_load(&e->cancelled);
}

int fl__exp_route_acquire(FlExp *e, int ri, const FlRouting **out, FlError *err)
{
    pthread_mutex_lock(&e->stop_lock);
    ExpRoute *r = &e->routes[ri];
    while (r->state == EXP_ROUTE_BUILDING)
        pthread_cond_wait(&e->route_built, &e->stop_lock);
    if (r->state == EXP_ROUTE_NONE) {
        r->state = EXP_ROUTE_BUILDING;
        FlRoutingOptions opt = r->opt;
        opt.progress = build_progress;
        opt.progress_data = e;
        FlRouting *built = NULL;
        FlError build_err = { 0 };
        pthread_mutex_unlock(&e->stop_lock);
        int rc = fl_routing_new(r->t, r->name, &opt, &built, &build_err);
        pthread_mutex_lock(&e->stop_lock);
        r = &e->routes[ri];
        r->r = rc ? NULL : built;
        r->err = build_err;
        if (rc && !r->err.code)
            r->err.code = rc;
        r->state = rc ? EXP_ROUTE_FAILED : EXP_ROUTE_READY;
        pthread_cond_broadcast(&e->route_built);
    }
    int rc = FL_OK;
    if (r->state == EXP_ROUTE_READY) {
        *out = r->r;
    } else {
        if (err)
            *err = r->err;
        rc = r->err.code;
    }
    pthread_mutex_unlock(&e->stop_lock);
    return rc;
}

void fl__exp_route_release(FlExp *e, int ri)
{
    pthread_mutex_lock(&e->stop_lock);
    ExpRoute *r = &e->routes[ri];
    if (--r->users == 0 && r->state == EXP_ROUTE_READY) {
        fl_routing_free(r->r);
        r->r = NULL;
        /* Nobody asks for it again: every point that could has ended. */
        r->state = EXP_ROUTE_NONE;
    }
    pthread_mutex_unlock(&e->stop_lock);
}

void fl__exp_routes_clear(FlExp *e)
{
    for (int k = 0; k < e->n_routes; k++) {
        fl_routing_free(e->routes[k].r);
        e->routes[k].r = NULL;
        e->routes[k].state = EXP_ROUTE_NONE;
    }
}
