/* igraph-scope.c — the igraph lock, and scopes that give igraph a private
 * random generator and quiet error handlers. */
#include <pthread.h>

#include "igraph-scope.h"

/* The module's one mutable global, and a justified one: igraph is built
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

int fl__igraph_fail(FlIgraphFailure *fail, igraph_error_t code, const char *what)
{
    fail->what = what;
    fail->reason = igraph_strerror(code);
    fail->out_of_memory = code == IGRAPH_ENOMEM;
    return (int)code;
}

int fl__igraph_enter(FlIgraphScope *scope, uint64_t seed, FlIgraphFailure *fail)
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
        return fl__igraph_fail(fail, ig, "set up its random generator");
    }
    scope->saved_rng = igraph_rng_default();
    igraph_rng_set_default(&scope->rng);
    return 0;
}

void fl__igraph_leave(FlIgraphScope *scope)
{
    igraph_rng_set_default(scope->saved_rng);
    igraph_rng_destroy(&scope->rng);
    igraph_set_error_handler(scope->saved_error_handler);
    igraph_set_warning_handler(scope->saved_warning_handler);
    igraph_unlock();
}
