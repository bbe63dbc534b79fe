/* flitlab/schedule.h — Link-contention schedules on paper 004's Myrinet
 * clusters: request sets, their row-column paths, L_max, and colourings.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_SCHEDULE_H
#define FLITLAB_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/topology.h"
#include "flitlab/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A request is one message from a source host to a destination host, both
 * given as host numbers (ranks among the hosts, 0 .. host_count - 1, as
 * fl_topology_host_node() orders them). A schedule object holds a request
 * set on a myrinet-line or myrinet-mesh network together with each
 * request's path under myrinet-dor (row-column source routing): the
 * directed switch-to-switch channels it crosses, in order. A colouring gives
 * every request a colour (a time slot, 0-based); it is valid when no
 * directed channel carries two requests of one colour, and then each colour
 * class can be sent at once without link contention. The completion time is
 * the number of colours times the time of one message.
 *
 * Readings of paper 004 chosen where it is silent or garbled:
 * - Paths count switch-to-switch channels only, as the paper's interval
 *   graphs do; the host links are left out (two requests to one host in one
 *   colour meet only at the receiver). L_max is the largest number of
 *   requests on one directed switch-to-switch channel.
 * - The paper assumes that each host sends at most one message; the
 *   generators below keep to that (distinct sources), the parser does not
 *   insist. The colourers are valid for any set; the bounds (L_max colours
 *   on a line, floor(3/2 L_max) on a mesh) are the paper's for its model.
 * - Mesh rows and columns: dimension 0 (x, size N of myrinet-mesh:NxM) runs
 *   along a row, so the paper's n x m mesh has n = M rows and m = N
 *   columns; row-column routing first moves along the source's row, then
 *   along the destination's column. "Down" is increasing y.
 * - AssignColor_Linear / AssignColor_Mesh are read as an order in which the
 *   requests are coloured one at a time (the paper's classes are sets; its
 *   "∈" is read "∉"), each taking the smallest colour not used by an
 *   already coloured request that shares a directed channel with it. In the
 *   paper's model that is exactly its class rules, with the LD rule
 *   corrected (LD avoids C(RD) ∪ C(LE) ∪ C(LT) ∪ C(D), not the printed
 *   C(L) ∪ C(D) ∪ C(LT)). The order: linear, for each switch left to right,
 *   the requests that start there going right (R), then the left-going ones
 *   that end there (LE). Mesh: the set splits into D (going down, and those
 *   staying in rows 0 .. M-2) and U (going up, and those staying in the
 *   bottom row), which share no directed channel; D is coloured in the
 *   paper's three passes: row 0 left to right (R, LE, D, LD at each
 *   switch), then the requests still uncoloured that arrive at the bottom
 *   row in inner columns (DE), then for each inner row the first column (D,
 *   LE, LD) and the last (D, RE, RD); U is coloured the same way on the
 *   mesh turned by 180 degrees. A request that fits none of these classes
 *   (possible only in sets outside the paper's model) is coloured last.
 * - Theorem 2 ("at least 3/2 L_max colours") is read as the paper proves
 *   it: some request sets need that many (Fig 4), not every set. Fig 4's
 *   five paths are not printed; tests/test-schedule.c rebuilds them from the
 *   text's colouring story (P1..P5 each share a link with the next and P5
 *   with P1, L_max = 2) on the 4 x 8 mesh of 4 rows, myrinet-mesh:8x4.
 */

typedef struct FlScheduleRequest {
    int src;   /* source host number */
    int dst;   /* destination host number */
} FlScheduleRequest;

/* --- request sets (malloc'd arrays the caller frees) --------------------- */

/* k requests from k distinct random source hosts, each to a uniformly
 * chosen other host. FL_ERANGE when k exceeds the host count. */
int fl_schedule_random_uniform(const FlTopology *t, int k, uint64_t seed,
                               FlScheduleRequest **out, int *n, FlError *err);
/* A random partial permutation: k requests with distinct sources and
 * distinct destinations, no host sending to itself. */
int fl_schedule_random_permutation(const FlTopology *t, int k, uint64_t seed,
                                   FlScheduleRequest **out, int *n, FlError *err);
/* k requests from distinct random sources other than `hot`; each goes to
 * host `hot` with probability `fraction` (0..1) and otherwise to a uniformly
 * chosen other host. */
int fl_schedule_hotspot(const FlTopology *t, int k, int hot, double fraction, uint64_t seed,
                        FlScheduleRequest **out, int *n, FlError *err);
/* myrinet-mesh only: every host of the top row's switches (y = 0) sends to
 * a host of the bottom row's switches (y = M - 1), a random one-to-one
 * pairing. */
int fl_schedule_top_down(const FlTopology *t, uint64_t seed, FlScheduleRequest **out,
                         int *n, FlError *err);
/* The most requests a parsed set holds, and the largest request file read. */
#define FL_SCHEDULE_MAX_REQUESTS (1 << 24)
#define FL_SCHEDULE_MAX_FILE_BYTES ((size_t)64 << 20)

/* Parses "src dst" host pairs, one per line; blank lines and text after
 * '#' are ignored. A malformed line (a pair is at most 255 characters
 * without its comment), a host that does not exist or a host sending to
 * itself fails with FL_EPARSE, as does a text without a pair (every line
 * blank or a comment, naming its last line); more than
 * FL_SCHEDULE_MAX_REQUESTS pairs fail with FL_ERANGE; each with a message
 * that starts "line L: ". */
int fl_schedule_parse(const FlTopology *t, const char *text, FlScheduleRequest **out,
                      int *n, FlError *err);
/* fl_schedule_parse() on a file's contents; FL_EIO when it cannot be read,
 * FL_ERANGE naming it when it is larger than FL_SCHEDULE_MAX_FILE_BYTES,
 * FL_EPARSE ("line L: ") when it holds a NUL byte. */
int fl_schedule_read_file(const FlTopology *t, const char *path, FlScheduleRequest **out,
                          int *n, FlError *err);

/* --- the schedule object: paths and loads -------------------------------- */

typedef struct FlSchedule FlSchedule;

/* Routes every request with myrinet-dor. FL_EUNSUPPORTED for a network
 * other than myrinet-line or myrinet-mesh, FL_ENOTFOUND for a host that
 * does not exist (the message names the request). t must outlive s. */
int fl_schedule_new(const FlTopology *t, const FlScheduleRequest *reqs, int n,
                    FlSchedule **out, FlError *err);
void fl_schedule_free(FlSchedule *s);

int fl_schedule_request_count(const FlSchedule *s);
/* The i-th request, or {-1, -1} for a bad index. */
FlScheduleRequest fl_schedule_request(const FlSchedule *s, int i);
/* The channels of request i's path in order into *channels (owned by s);
 * returns their number (0 when source and destination share a switch), or
 * -1 for a bad index. */
int fl_schedule_path(const FlSchedule *s, int i, const int **channels);
/* Requests crossing a channel, 0 for a bad one. */
int fl_schedule_channel_load(const FlSchedule *s, int channel);
/* The largest channel load (0 for an empty set). */
int fl_schedule_l_max(const FlSchedule *s);

/* --- colourings ---------------------------------------------------------- */

typedef enum FlScheduleAlgo {
    FL_SCHEDULE_ASSIGNCOLOR = 0,  /* AssignColor_Linear or _Mesh, by family */
    FL_SCHEDULE_GREEDY,           /* first fit in request order: the baseline */
    FL_SCHEDULE_EXACT,            /* a minimum colouring, branch and bound */
    FL_SCHEDULE_ALGO_COUNT
} FlScheduleAlgo;

/* "assigncolor", "greedy", "exact"; NULL for a bad value. */
const char *fl_schedule_algo_name(FlScheduleAlgo algo);
/* The algorithm called name, or -1. */
int fl_schedule_algo_lookup(const char *name);

/* The exact colouring refuses larger sets (FL_ERANGE), and gives up with
 * FL_ERANGE after this many search nodes; colors and *ncolors then hold the
 * best colouring found, which is valid. */
#define FL_SCHEDULE_EXACT_MAX_REQUESTS 256
#define FL_SCHEDULE_EXACT_MAX_NODES 20000000L

/* Colours every request: colors[i] for request i (0-based, capacity
 * request_count), the number of colours in *ncolors (0 for an empty set;
 * 1, not L_max = 0, when every request stays within one switch). */
int fl_schedule_color(const FlSchedule *s, FlScheduleAlgo algo, int *colors, int *ncolors,
                      FlError *err);
/* The two algorithms of paper 004 by name; FL_EUNSUPPORTED on the other
 * family. */
int fl_schedule_assign_color_linear(const FlSchedule *s, int *colors, int *ncolors,
                                    FlError *err);
int fl_schedule_assign_color_mesh(const FlSchedule *s, int *colors, int *ncolors,
                                  FlError *err);

/* FL_OK when no directed channel carries two requests of one colour and
 * every colour is >= 0; otherwise FL_EINVAL naming the two requests and the
 * channel. */
int fl_schedule_check(const FlSchedule *s, const int *colors, FlError *err);

/* --- running a colouring ------------------------------------------------- */

/* One colour class run as a phase of the simulator. */
typedef struct FlSchedulePhase {
    int color;
    int requests;            /* requests of this colour */
    int64_t start, end;      /* cycles: its packets made at start, the last one
                              * delivered at end - 1 */
    int delayed;             /* requests that took longer than alone on the
                              * empty network */
    int64_t max_delay;       /* the most cycles one of them lost */
} FlSchedulePhase;

/* Runs each colour class as a phase on sim, which must be built on the
 * schedule's network with myrinet-dor routing, carry no traffic of its own
 * (rate 0) and have no hook: every request of colour c sends one packet of
 * flits flits when phase c starts, and phase c + 1 starts in the cycle
 * after phase c's last delivery. Each request is first run alone on the
 * network as it is (then the simulation is restored) for its time without
 * contention. phases gets ncolors entries. A valid colouring gives
 * delayed == 0 in every phase wherever no two requests of a phase share a
 * source or a destination host (their meeting at a host is not link
 * contention). progress (may be NULL) hears the fraction done (the lone
 * runs, then the phases) at least every 4096 cycles; returning nonzero
 * stops with FL_ECANCELLED. FL_EUNSUPPORTED when the network deadlocks,
 * FL_ERANGE when the phases take more than max_cycles (0: no limit)
 * cycles. */
int fl_schedule_run(FlSim *sim, const FlSchedule *s, const int *colors, int ncolors, int flits,
                    int64_t max_cycles, FlProgressFunc progress, void *progress_data,
                    FlSchedulePhase *phases, FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_SCHEDULE_H */
