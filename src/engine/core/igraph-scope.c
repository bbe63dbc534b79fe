/* igraph-scope.c — the igraph lock, and scopes that give igraph a private
 * random generator and quiet error handlers. */
#include <pthread.h>

#include "igraph-scope.h"

/* The one mutable global of the engine, and a justified one: igraph is built
 * with IGRAPH_THREAD_SAFE 0, so its default random generator, its error and
 * warning handlers and its cleanup stack are process-wide. Two threads
 * generating networks at once (the GUI's worker threads, a parallel sweep)
 * would otherwise share one random stream, and the same seed would no
 * longer give the same network. */
static pthread_mutex_t igraph_mutex = PTHREAD_MUTEX_INITIALIZER;

static void igraph_lock(void)
{
    pthread_mutex_lock(&igraph_mutex);
}

static void igraph_unlock(void)
{
    pthread_mutex_unlock(&igraph_mutex);
}

int fl__igraph_error(FlError *err, igraph_error_t code, const char *what)
{
    if (code == IGRAPH_ENOMEM)
        return fl_error_set(err, FL_ENOMEM, "out of memory while igraph tried to %s", what);
    return fl_error_set(err, FL_EINVAL, "igraph failed to %s: %s", what,
                        igraph_strerror(code));
}

int fl__igraph_enter(FlIgraphScope *scope, uint64_t seed, FlError *err)
{
    igraph_lock();
    scope->saved_error_handler = igraph_set_error_handler(igraph_error_handler_ignore);
    scope->saved_warning_handler = igraph_set_warning_handler(igraph_warning_handler_ignore);
    igraph_error_t ig = igraph_rng_init(&scope->rng, &igraph_rngtype_pcg32);
    if (!ig)
        ig = igraph_rng_seed(&scope->rng, (igraph_uint_t)seed);
    if (ig) {
        igraph_set_error_handler(scope->saved_error_handler);
        igraph_set_warning_handler(scope->saved_warning_handler);
        igraph_unlock();
        return fl__igraph_error(err, ig, "set up its random generator");
    }
    scope->saved_rng = igraph_rng_default();
    igraph_rng_set_default(&scope->rng);
    return FL_OK;
}

void fl__igraph_leave(FlIgraphScope *scope)
{
    igraph_rng_set_default(scope->saved_rng);
    igraph_rng_destroy(&scope->rng);
    igraph_set_error_handler(scope->saved_error_handler);
    igraph_set_warning_handler(scope->saved_warning_handler);
    igraph_unlock();
}
