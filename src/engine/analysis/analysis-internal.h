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

/* The same in steps, so that the route statistics, which ask next() at the
 * states they meet, can mark the dependencies on the way:
 * fl__cdg_new() makes a graph with nothing marked, or none (NULL) when the
 * routing cannot have a cycle; fl__cdg_marks() is where to mark, and
 * fl__cdg_set_complete() says that every dependency is marked (otherwise
 * fl__cdg_check_marked() walks every destination's states to mark them). */
typedef struct FlCdg FlCdg;
int fl__cdg_new(const FlRouting *r, FlCdg **g, FlError *err);
const FlStepBits *fl__cdg_marks(const FlCdg *g);
void fl__cdg_set_complete(FlCdg *g);
int fl__cdg_check_marked(const FlRouting *r, FlCdg *g, FlRoutingReport *rep, FlError *err);
void fl__cdg_free(FlCdg *g);

/* Connectivity, hop statistics and static channel loads along the selected
 * (lowest-port) routes (analysis-paths.c). Table routings are read off their
 * table; fl__route_stats_walk() follows next() state by state for any
 * routing (the tests hold the two against each other). */
int fl__route_stats(const FlRouting *r, FlRoutingReport *rep, FlError *err);
int fl__route_stats_walk(const FlRouting *r, FlRoutingReport *rep, FlError *err);
/* fl__route_stats() marking the dependencies of the states it meets in g
 * (may be NULL); when every state it met had at most one choice, those are
 * all the states packets reach, and it calls fl__cdg_set_complete(g). */
int fl__route_stats_marked(const FlRouting *r, FlRoutingReport *rep, FlCdg *g, FlError *err);

#endif /* FLITLAB_ANALYSIS_INTERNAL_H */
