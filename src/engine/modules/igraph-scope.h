/* igraph-scope.h — the module's one door to igraph.
 *
 * igraph is built without thread safety: its default random generator, its
 * error and warning handlers and its cleanup stack are process-wide. Every
 * use of igraph runs inside a scope (fl__igraph_enter() .. fl__igraph_leave()),
 * which holds one process-wide lock.
 */
#ifndef FLITLAB_IGRAPH_SCOPE_H
#define FLITLAB_IGRAPH_SCOPE_H

#include <stdint.h>

#include <igraph.h>

#include "irregular.h"

/* The state saved by fl__igraph_enter() and restored by fl__igraph_leave(). */
typedef struct FlIgraphScope {
    igraph_rng_t rng;
    igraph_rng_t *saved_rng;
    igraph_error_handler_t *saved_error_handler;
    igraph_warning_handler_t *saved_warning_handler;
} FlIgraphScope;

/* Takes the igraph lock, installs a private random generator seeded with
 * seed as igraph's default, and makes igraph errors return instead of
 * aborting (and warnings stay silent: the engine never prints). */
int fl__igraph_enter(FlIgraphScope *scope, uint64_t seed, FlIgraphFailure *fail);
/* Undoes fl__igraph_enter() and releases the lock. */
void fl__igraph_leave(FlIgraphScope *scope);
/* Fills *fail for the igraph error code, the step what having failed, and
 * returns code. */
int fl__igraph_fail(FlIgraphFailure *fail, igraph_error_t code, const char *what);

#endif /* FLITLAB_IGRAPH_SCOPE_H */
