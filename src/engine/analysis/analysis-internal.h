/* analysis-internal.h — the routing analysis's private pieces. They stand on
 * the state walk of route-walk.h.
 */
#ifndef FLITLAB_ANALYSIS_INTERNAL_H
#define FLITLAB_ANALYSIS_INTERNAL_H

#include "route-walk.h"

/* The channel dependency graph (analysis-cdg.c): fills rep->deadlock_free
 * and, when there is a cycle, one shortest cycle. */
int fl__cdg_check(const FlRouting *r, FlRoutingReport *rep, FlError *err);

/* Connectivity, hop statistics and static channel loads along the selected
 * (lowest-port) routes (analysis-paths.c). */
int fl__route_stats(const FlRouting *r, FlRoutingReport *rep, FlError *err);

#endif /* FLITLAB_ANALYSIS_INTERNAL_H */
