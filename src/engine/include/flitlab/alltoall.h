/* flitlab/alltoall.h — Complete exchange (all-to-all personalized) on an N x N torus.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 *
 * Every node P(i,j) (node number i*N + j) starts with one block for every other
 * node; a block is named by its (origin, destination) pair, and the N^2 (N^2 - 1)
 * blocks are tracked one by one through every step of an algorithm. A step is a set
 * of messages, each from one node to another over a dimension-ordered path (first
 * along dimension 0, which changes j, then along dimension 1, which changes i),
 * carrying some of the blocks its source holds. Nodes are one-port: in one step a
 * node sends at most one message and receives at most one; the run checks this.
 * This is the message level (which block is where after which step); the time a
 * step takes is given by the cost terms below, not by a flit-level run.
 *
 * Algorithms:
 *  - "sem": paper 000's SEM (Kim, Maeng, Cho), N a power of two, 8 <= N <= 64.
 *    Cell (p,q) = {P(2p,2q), P(2p,2q+1), P(2p+1,2q), P(2p+1,2q+1)}; its masters are
 *    the nodes with i = j (mod 2): P(2p,2q) in subnetwork 0 collects the cell's
 *    blocks for even rows, P(2p+1,2q+1) in subnetwork 1 those for odd rows. The
 *    masters of one subnetwork form an N/2 x N/2 torus with master coordinates
 *    (p,q) = (i/2, j/2), whose neighbours are 2 hops apart on the real torus.
 *      Stage 1 step 1: P(i,j) <-> P(i,j^1): a node hands its row partner the
 *        blocks whose destination row parity equals the partner's column parity.
 *      Stage 1 step 2: a slave sends everything to its master along dimension 1
 *        (P(2p+1,2q) -> P(2p,2q), P(2p,2q+1) -> P(2p+1,2q+1)).
 *      Stage 2, with c = (p+q) mod 4, a block's target master (r,s) being the
 *      master of its destination's cell in its destination's subnetwork:
 *        phase 1, N/8 - 1 steps: ring shifts of 8 real hops (4 master hops) within
 *          the nodes of one class c: c = 0 along +j, 1 along +i, 2 along -j,
 *          3 along -i; a block moves while its group of four master columns (rows)
 *          q/4 differs from s/4 (r/4). Phase 2: the same in the other dimension.
 *          Nodes of one class are 8 hops apart on a line, so the class's paths
 *          never share a directed link.
 *        phase 3, 2 steps: pairwise swaps of 4 real hops with the partner whose
 *          master coordinate differs in bit 1 (q mod 4 in {0,1} goes +, {2,3}
 *          goes -); even classes swap along j first, odd classes along i first.
 *        phase 4, 2 steps: swaps of 2 real hops with the partner whose master
 *          coordinate differs in bit 0, along j then along i.
 *      Stage 3: a master hands its slave in the same row the slave's blocks
 *        (P(2p,2q) -> P(2p,2q+1), P(2p+1,2q+1) -> P(2p+1,2q)).
 *    Readings chosen where the paper is garbled (see DIGEST.md): the masters are
 *    the i = j (mod 2) nodes; stage 1 step 2 is "a slave sends to its master along
 *    dimension 1"; stage 3 hands out by row as its pseudocode says, so stage 1
 *    collects by destination row (section 3.4's walk-through collects by column;
 *    either works when stages 1 and 3 agree);
 *    phases 1 and 2 are ring shifts of a whole class; "q = 0 or 1" is q mod 4, and
 *    for the i-dimension swaps of phase 3 it is p mod 4 (the printed q would pair a
 *    node with one that does not pair back); phase 3 step 2's second pair of rules
 *    is for odd classes; phase 4 pairs by the parity of the coordinate that moves
 *    (aligned pairs), not by (p+q) mod 2, which would pair (p,1) with (p,2) for odd
 *    p and leave a quarter of the blocks one master hop short. For N = 8 phases 1
 *    and 2 are empty and phases 3 and 4 still run: the masters' 4 x 4 torus must
 *    still exchange. The run gives N/4 + 5 steps (the text's start-ups, not
 *    Table 1's N/2 + 5), transmission (N^3 + 18 N^2)/4 blocks less the self blocks
 *    (the paper's (N^3 + 10 N^2)/4 leaves out phase 4's two steps of N^2 blocks)
 *    and propagation 2N - 1 hops (the paper's 2N - 5 leaves out phase 4's 2 + 2);
 *    counting one re-sort of the busiest node's holding per phase, rearrangement is
 *    6 (2 N^2 - 2) blocks (4 for N = 8), where the paper's 10 N^2 has five phases.
 *  - "direct": every pair exchanges directly, N^2 - 1 steps; in step k node x sends
 *    its block for node x XOR k, so every step is a pairing (one-port, no node is
 *    the target of two messages), N any power of two with 2 <= N <= 32 (its
 *    N^2 - 1 steps of N^2 messages are all stored). Paths are shortest, j first;
 *    a path of exactly N/2 hops goes + from an even coordinate and - from an odd
 *    one, so no directed link carries more than N/4 messages of a step (the
 *    least possible for the step that pairs j with j + N/2).
 * Tseng et al.'s diagonal propagation [18] is not provided: the paper cites it only
 * by its cost terms, which are not enough to rebuild its schedule.
 */
#ifndef FLITLAB_ALLTOALL_H
#define FLITLAB_ALLTOALL_H

#include <stddef.h>
#include <stdint.h>

#include "errors.h"
#include "message.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum FlAllToAllAlgorithm {
    FL_ALLTOALL_SEM,
    FL_ALLTOALL_DIRECT,
    FL_ALLTOALL_ALGORITHM_COUNT
} FlAllToAllAlgorithm;

/* "sem", "direct"; NULL for an unknown value. */
const char *fl_alltoall_algorithm_name(FlAllToAllAlgorithm algorithm);
/* FL_ENOTFOUND with a message listing the known names. */
int fl_alltoall_algorithm_from_name(const char *name, FlAllToAllAlgorithm *out, FlError *err);

/* A finished, fully tracked run. */
typedef struct FlAllToAll FlAllToAll;

/* Runs the algorithm on the N x N torus, tracking every block. Refuses (FL_ERANGE)
 * an N the algorithm does not support. */
int fl_alltoall_run(int n, FlAllToAllAlgorithm algorithm, FlAllToAll **out, FlError *err);
void fl_alltoall_free(FlAllToAll *aa);

int fl_alltoall_size(const FlAllToAll *aa); /* N */
FlAllToAllAlgorithm fl_alltoall_algorithm(const FlAllToAll *aa);
/* Steps are numbered 1..count; "after step 0" is the initial state. */
size_t fl_alltoall_step_count(const FlAllToAll *aa);

typedef struct FlAllToAllStep {
    int stage;          /* SEM: 1..3; direct: 1 */
    int phase;          /* SEM stage 2: 1..4; otherwise 0 */
    int index;          /* 1-based, within the phase (or stage) */
    size_t messages;
    size_t blocks;      /* blocks carried by all the step's messages */
    size_t max_blocks;  /* the largest message, in blocks */
    int max_hops;       /* the longest path */
    size_t block_hops;  /* sum over messages of blocks x hops */
    int max_link_load;  /* most messages of the step on one directed link */
    size_t max_held;    /* most blocks one node holds after the step */
} FlAllToAllStep;

/* FL_ERANGE for a step outside 1..count. */
int fl_alltoall_step(const FlAllToAll *aa, size_t step, FlAllToAllStep *out, FlError *err);

/* The step's name: "stage 1 step 2", "stage 2 phase 3 step 1", "step 17" (direct);
 * "initial" for step 0, "" beyond the last. Returns the length as snprintf. */
int fl_alltoall_step_label(const FlAllToAll *aa, size_t step, char *buf, size_t cap);

typedef struct FlAllToAllMessage {
    int32_t src, dst;   /* node numbers */
    int32_t hops_dim0;  /* signed moves of j (+ = increasing j, wrapping) */
    int32_t hops_dim1;  /* then signed moves of i */
    size_t blocks;
} FlAllToAllMessage;

/* The step's messages (owned by aa, sorted by source); *count = 0 for a bad step. */
const FlAllToAllMessage *fl_alltoall_messages(const FlAllToAll *aa, size_t step, size_t *count);

/* The nodes of a message's path, source first: writes hops + 1 nodes if cap allows
 * and returns hops + 1. */
size_t fl_alltoall_path(const FlAllToAll *aa, const FlAllToAllMessage *msg, int32_t *nodes,
                        size_t cap);

typedef struct FlAllToAllBlock {
    int32_t origin, dest;
} FlAllToAllBlock;

/* The blocks node holds after step (0..count), sorted by (dest, origin); *out is
 * malloc'ed (free it), NULL with *count = 0 when the node holds none. Replays the
 * run's routing rules backwards from the node (milliseconds on 64 x 64). */
int fl_alltoall_holdings(const FlAllToAll *aa, size_t step, int node, FlAllToAllBlock **out,
                         size_t *count, FlError *err);
/* The blocks message number msg (0-based, as listed by fl_alltoall_messages) of a
 * step carries, sorted by (dest, origin); malloc'ed as above. */
int fl_alltoall_message_blocks(const FlAllToAll *aa, size_t step, size_t msg,
                               FlAllToAllBlock **out, size_t *count, FlError *err);

/* Paper 000's "pqrs" label of a block, from P(p,q) to P(r,s): one hex digit per
 * coordinate for N <= 16 ("0A1F"), otherwise "p.q>r.s" in decimal. Returns the
 * length that was (or would be) written, as snprintf. */
int fl_alltoall_block_label(int n, FlAllToAllBlock block, char *buf, size_t cap);

/* Paper 000 Figs 11-16's message matrix: the blocks node holds after step as text,
 * one line per destination row a that has any, "a: pqrs pqrs ..." (a in the
 * labels' notation; blocks by destination column, then origin; the self block is
 * not listed). *out is malloc'ed and NUL-terminated ("" when the node holds none). */
int fl_alltoall_holdings_text(const FlAllToAll *aa, size_t step, int node, char **out,
                              FlError *err);

/* The cost terms, counted from the run (in blocks; multiply by m t_d, m t_r, t_l,
 * t_s) beside paper 000's formulas. A formula that does not apply is NAN. */
typedef struct FlAllToAllCosts {
    size_t blocks;        /* N^2 (N^2 - 1) */
    size_t delivered;     /* blocks at their destination after the last step */
    size_t startups;      /* steps: each node makes at most one start-up a step */
    size_t transmission;  /* sum over steps of the largest message (blocks) */
    size_t volume;        /* blocks carried by all messages together */
    size_t block_hops;    /* sum of blocks x hops over all messages */
    size_t propagation;   /* sum over steps of the longest path (hops) */
    size_t rearrangement; /* sum over phases of the most blocks a node holds in it */
    int max_link_load;    /* over all steps; 1 = no two messages of a step share a link */
    double paper_startups_text;  /* SEM: N/4 + 5 */
    double paper_startups_table; /* SEM: N/2 + 5 (Table 1) */
    double paper_transmission;   /* SEM: (N^3 + 10 N^2)/4 */
    double paper_rearrangement;  /* SEM: 10 N^2 */
    double paper_propagation;    /* SEM: 2N - 5 */
    double lower_transmission;   /* N^3 / 8 (bisection) */
    double lower_startups;       /* log2(N^2) (one-port doubling) */
} FlAllToAllCosts;

void fl_alltoall_costs(const FlAllToAll *aa, FlAllToAllCosts *out);

/* The run as a message schedule (flitlab/message.h) on the hosts of
 * torus:NxN with one host per switch (host h is node h, P(h / N, h % N)):
 * one message per message of every step, steps in order, of blocks x
 * flits_per_block flits; a message's after is the message its source
 * received in the latest earlier step (-1 if none), so that a node sends
 * what it holds. step_of (may be NULL) gets a malloc'd array: the step
 * (1-based) of each message. *out is malloc'd (free() it). */
int fl_alltoall_schedule(const FlAllToAll *aa, int flits_per_block, FlMessage **out, int *n,
                         size_t **step_of, FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_ALLTOALL_H */
