/* analysis-internal.h — the routing analysis's private pieces. They stand on
 * the state walk of route-walk.h.
 */
#ifndef FLITLAB_ANALYSIS_INTERNAL_H
#define FLITLAB_ANALYSIS_INTERNAL_H

#include "route-walk.h"

/* The channel dependency graph (analysis-cdg.c): fills rep->deadlock_free
 * and, when there is a cycle, one shortest cycle. */
int fl__cdg_check(const FlRouting *r, FlRoutingReport *rep, FlError *err);
/* The same without the shortcut of table routings: always builds the graph
 * from the states packets reach. */
int fl__cdg_check_walk(const FlRouting *r, FlRoutingReport *rep, FlError *err);

/* Connectivity, hop statistics and static channel loads along the selected
 * (lowest-port) routes (analysis-paths.c). Table routings are read off their
 * table; fl__route_stats_walk() follows next() state by state for any
 * routing (the tests hold the two against each other). */
int fl__route_stats(const FlRouting *r, FlRoutingReport *rep, FlError *err);
int fl__route_stats_walk(const FlRouting *r, FlRoutingReport *rep, FlError *err);

#endif /* FLITLAB_ANALYSIS_INTERNAL_H */
