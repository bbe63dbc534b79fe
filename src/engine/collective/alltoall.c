/* alltoall.c — complete exchange on an N x N torus, every block tracked.
 *
 * An algorithm is a list of step descriptors and one routing rule: given a step,
 * the node a block is at and the block's destination, the node it is at after the
 * step. The rule never looks at the block's origin, so a block's whole journey
 * follows from (origin, destination), and the holdings after any step can be
 * replayed without storing them. The run moves all N^2 (N^2 - 1) blocks step by
 * step in one flat array (indexed by destination, then origin), groups the moves
 * into messages, and checks the one-port rule and that each node's moves in a step
 * all go to one neighbour along the step's path. See flitlab/alltoall.h for the
 * rules and the readings of paper 000.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab/alltoall.h"

#define AA_MAX_N 64        /* N^4 blocks of 2 bytes: 32 MiB at N = 64 */
#define AA_MAX_N_DIRECT 32 /* N^2 - 1 steps of N^2 messages: 25 MiB at N = 32 */

enum {
    K_S1_ROW,  /* stage 1 step 1 */
    K_S1_COL,  /* stage 1 step 2 */
    K_RING,    /* stage 2 phases 1 and 2; arg = phase */
    K_HALF,    /* stage 2 phase 3; arg = step */
    K_UNIT,    /* stage 2 phase 4; arg = step */
    K_S3,      /* stage 3 */
    K_DIRECT   /* direct exchange; arg = XOR distance */
};

typedef struct StepDesc {
    int kind;
    int arg;
    int stage, phase, index;
} StepDesc;

struct FlAllToAll {
    int n, shift;
    int32_t nodes;
    FlAllToAllAlgorithm algorithm;
    size_t nsteps;
    StepDesc *desc;           /* [nsteps + 1], from 1 */
    FlAllToAllStep *steps;    /* [nsteps + 1], from 1 */
    size_t initial_held;
    FlAllToAllMessage *msgs;
    size_t *msg_start;        /* [nsteps + 2]: step s's messages are [start[s], start[s+1]) */
    int32_t *sender;          /* SEM: [(nsteps + 1) * nodes], who sends to a node in a step */
    size_t delivered;
};

static const char *const algorithm_names[FL_ALLTOALL_ALGORITHM_COUNT] = {
    [FL_ALLTOALL_SEM] = "sem",
    [FL_ALLTOALL_DIRECT] = "direct",
};

const char *fl_alltoall_algorithm_name(FlAllToAllAlgorithm algorithm)
{
    if ((int)algorithm < 0 || algorithm >= FL_ALLTOALL_ALGORITHM_COUNT)
        return NULL;
    return algorithm_names[algorithm];
}

int fl_alltoall_algorithm_from_name(const char *name, FlAllToAllAlgorithm *out, FlError *err)
{
    for (int a = 0; a < FL_ALLTOALL_ALGORITHM_COUNT; a++) {
        if (name && strcmp(name, algorithm_names[a]) == 0) {
            *out = (FlAllToAllAlgorithm)a;
            return FL_OK;
        }
    }
    return fl_error_set(err, FL_ENOTFOUND,
                        "unknown complete-exchange algorithm '%s' (known: sem, direct)",
                        name ? name : "(null)");
}

/* --- the routing rules ---------------------------------------------------- */

/* Stage 2's target master of a destination is the master of its cell in the
 * subnetwork of its row parity; a block moves only while it is at a master of that
 * subnetwork. Sets the coordinate that moves (u), the target's (du) and whether
 * the step moves along j. */
static int stage2_axis(const StepDesc *s, int32_t p, int32_t q, int32_t r, int32_t t,
                       int32_t *u, int32_t *du)
{
    int c = (int)((p + q) & 3);
    int along_j;
    if (s->kind == K_UNIT)
        along_j = s->arg == 1;
    else
        along_j = ((c & 1) == 0) == (s->arg == 1);
    *u = along_j ? q : p;
    *du = along_j ? t : r;
    return along_j;
}

static int32_t route(const FlAllToAll *aa, const StepDesc *s, int32_t x, int32_t d)
{
    if (x == d)
        return x;
    int sh = aa->shift;
    int32_t mask = aa->n - 1;
    int32_t i = x >> sh, j = x & mask, di = d >> sh, dj = d & mask;
    switch (s->kind) {
    case K_S1_ROW:
        return ((j & 1) != (di & 1)) ? (x ^ 1) : x;
    case K_S1_COL:
        return ((i & 1) != (j & 1)) ? (x ^ aa->n) : x;
    case K_S3:
        return ((i & 1) == (j & 1)) ? (x ^ 1) : x;
    case K_DIRECT:
        return ((x ^ d) == s->arg) ? d : x;
    default:
        break;
    }
    if ((i & 1) != (j & 1) || (di & 1) != (i & 1))
        return x;
    int32_t mm = (aa->n >> 1) - 1;
    int32_t u, du, nu;
    int along_j = stage2_axis(s, i >> 1, j >> 1, di >> 1, dj >> 1, &u, &du);
    if (s->kind == K_RING) {
        if ((u >> 2) == (du >> 2))
            return x;
        nu = (((i >> 1) + (j >> 1)) & 3) < 2 ? (u + 4) & mm : (u - 4) & mm;
    } else if (s->kind == K_HALF) {
        if (((u ^ du) & 2) == 0)
            return x;
        nu = u ^ 2;
    } else {
        if (((u ^ du) & 1) == 0)
            return x;
        nu = u ^ 1;
    }
    int32_t real = 2 * nu + (i & 1);
    return along_j ? ((i << sh) | real) : ((real << sh) | j);
}

/* Shortest signed offset from a to b on a ring of n; a tie (n/2) goes + from even
 * a and - from odd a, so that half the ring's senders use each direction. */
static int32_t ring_offset(int32_t a, int32_t b, int32_t n)
{
    int32_t o = ((b - a) % n + n) % n;
    if (o == n / 2 && (a & 1))
        return -o;
    return o > n / 2 ? o - n : o;
}

/* The signed hops of node x's message in step s to node y (dimension 0 first). */
static void step_hops(const FlAllToAll *aa, const StepDesc *s, int32_t x, int32_t y,
                      int32_t *h0, int32_t *h1)
{
    int32_t mask = aa->n - 1;
    int32_t i = x >> aa->shift, j = x & mask;
    *h0 = 0;
    *h1 = 0;
    switch (s->kind) {
    case K_S1_ROW:
        *h0 = (j & 1) ? -1 : 1;
        return;
    case K_S1_COL:
        *h1 = (i & 1) ? -1 : 1;
        return;
    case K_S3:
        *h0 = (j & 1) ? -1 : 1;
        return;
    case K_DIRECT:
        *h0 = ring_offset(j, y & mask, aa->n);
        *h1 = ring_offset(i, y >> aa->shift, aa->n);
        return;
    default:
        break;
    }
    int32_t u, du;
    int along_j = stage2_axis(s, i >> 1, j >> 1, 0, 0, &u, &du);
    int32_t h;
    if (s->kind == K_RING)
        h = (((i >> 1) + (j >> 1)) & 3) < 2 ? 8 : -8;
    else if (s->kind == K_HALF)
        h = (u & 2) ? -4 : 4;
    else
        h = (u & 1) ? -2 : 2;
    if (along_j)
        *h0 = h;
    else
        *h1 = h;
}

/* --- building the step lists ----------------------------------------------- */

static void add_step(StepDesc *d, size_t *k, int kind, int arg, int stage, int phase, int index)
{
    d[++*k] = (StepDesc){ kind, arg, stage, phase, index };
}

static size_t build_sem(StepDesc *d, int n)
{
    size_t k = 0;
    add_step(d, &k, K_S1_ROW, 0, 1, 0, 1);
    add_step(d, &k, K_S1_COL, 0, 1, 0, 2);
    for (int phase = 1; phase <= 2; phase++)
        for (int s = 1; s <= n / 8 - 1; s++)
            add_step(d, &k, K_RING, phase, 2, phase, s);
    add_step(d, &k, K_HALF, 1, 2, 3, 1);
    add_step(d, &k, K_HALF, 2, 2, 3, 2);
    add_step(d, &k, K_UNIT, 1, 2, 4, 1);
    add_step(d, &k, K_UNIT, 2, 2, 4, 2);
    add_step(d, &k, K_S3, 0, 3, 0, 1);
    return k;
}

static size_t build_direct(StepDesc *d, int32_t nodes)
{
    size_t k = 0;
    for (int32_t x = 1; x < nodes; x++)
        add_step(d, &k, K_DIRECT, (int)x, 1, 0, (int)x);
    return k;
}

static int check_size(int n, FlAllToAllAlgorithm algorithm, FlError *err)
{
    int min = algorithm == FL_ALLTOALL_SEM ? 8 : 2;
    int max = algorithm == FL_ALLTOALL_SEM ? AA_MAX_N : AA_MAX_N_DIRECT;
    int pow2 = n > 0 && (n & (n - 1)) == 0;
    if (!pow2 || n < min || n > max)
        return fl_error_set(err, FL_ERANGE,
                            "%s complete exchange needs N a power of two with %d <= N <= %d "
                            "(every block is tracked), got N = %d",
                            algorithm_names[algorithm], min, max, n);
    return FL_OK;
}

/* --- the run ------------------------------------------------------------------ */

typedef struct RunScratch {
    uint16_t *loc;       /* [nodes * nodes], block (o, d) at d * nodes + o */
    int32_t *send_to;    /* [nodes] */
    size_t *send_blocks; /* [nodes] */
    size_t *held;        /* [nodes] */
    size_t *recv_step;   /* [nodes] */
    int *link_load;      /* [nodes * 4]: +j, -j, +i, -i out of a node */
    size_t msg_cap;
} RunScratch;

static void scratch_free(RunScratch *r)
{
    free(r->loc);
    free(r->send_to);
    free(r->send_blocks);
    free(r->held);
    free(r->recv_step);
    free(r->link_load);
}

static int32_t path_next(const FlAllToAll *aa, int32_t x, int dim, int sign, int *link)
{
    int32_t mask = aa->n - 1;
    int32_t i = x >> aa->shift, j = x & mask;
    if (dim == 0) {
        *link = sign > 0 ? 0 : 1;
        j = (j + sign) & mask;
    } else {
        *link = sign > 0 ? 2 : 3;
        i = (i + sign) & mask;
    }
    return (i << aa->shift) | j;
}

size_t fl_alltoall_path(const FlAllToAll *aa, const FlAllToAllMessage *msg, int32_t *nodes,
                        size_t cap)
{
    size_t len = (size_t)abs(msg->hops_dim0) + (size_t)abs(msg->hops_dim1) + 1;
    int32_t x = msg->src;
    size_t k = 0;
    int link;
    if (k < cap)
        nodes[k] = x;
    k++;
    for (int dim = 0; dim < 2; dim++) {
        int32_t h = dim == 0 ? msg->hops_dim0 : msg->hops_dim1;
        int sign = h > 0 ? 1 : -1;
        for (int32_t t = 0; t < abs(h); t++) {
            x = path_next(aa, x, dim, sign, &link);
            if (k < cap)
                nodes[k] = x;
            k++;
        }
    }
    return len;
}

/* Walks the message's path, counting it on each directed link; returns the path's
 * last node. */
static int32_t walk_links(const FlAllToAll *aa, const FlAllToAllMessage *m, int *link_load,
                          int *max_load)
{
    int32_t x = m->src;
    int link;
    for (int dim = 0; dim < 2; dim++) {
        int32_t h = dim == 0 ? m->hops_dim0 : m->hops_dim1;
        int sign = h > 0 ? 1 : -1;
        for (int32_t t = 0; t < abs(h); t++) {
            int32_t y = path_next(aa, x, dim, sign, &link);
            int *l = &link_load[(size_t)x * 4 + (size_t)link];
            if (++*l > *max_load)
                *max_load = *l;
            x = y;
        }
    }
    return x;
}

/* Moves every block once for step s. */
static int move_blocks(FlAllToAll *aa, RunScratch *r, size_t s)
{
    const StepDesc *sd = &aa->desc[s];
    int32_t nodes = aa->nodes;
    if (sd->kind == K_DIRECT) {
        /* only the blocks (x, x ^ k) move, each straight from its origin */
        for (int32_t x = 0; x < nodes; x++) {
            int32_t d = x ^ sd->arg;
            uint16_t *l = &r->loc[(size_t)d * (size_t)nodes + (size_t)x];
            if (*l != x || route(aa, sd, x, d) != d)
                return -1;
            r->send_to[x] = d;
            r->send_blocks[x] = 1;
            r->held[x]--;
            r->held[d]++;
            *l = (uint16_t)d;
        }
        return 0;
    }
    for (int32_t d = 0; d < nodes; d++) {
        uint16_t *base = r->loc + (size_t)d * (size_t)nodes;
        for (int32_t o = 0; o < nodes; o++) {
            int32_t x = base[o];
            if (x == d)
                continue;
            int32_t y = route(aa, sd, x, d);
            if (y == x)
                continue;
            if (r->send_to[x] < 0)
                r->send_to[x] = y;
            else if (r->send_to[x] != y)
                return -1;
            r->send_blocks[x]++;
            r->held[x]--;
            r->held[y]++;
            base[o] = (uint16_t)y;
        }
    }
    return 0;
}

static int record_messages(FlAllToAll *aa, RunScratch *r, size_t s, size_t *nmsgs, FlError *err)
{
    FlAllToAllStep *st = &aa->steps[s];
    memset(st, 0, sizeof *st);
    st->stage = aa->desc[s].stage;
    st->phase = aa->desc[s].phase;
    st->index = aa->desc[s].index;
    memset(r->link_load, 0, sizeof(int) * 4 * (size_t)aa->nodes);
    for (int32_t x = 0; x < aa->nodes; x++) {
        if (r->held[x] > st->max_held)
            st->max_held = r->held[x];
        if (r->send_to[x] < 0)
            continue;
        int32_t y = r->send_to[x];
        if (r->recv_step[y] == s)
            return fl_error_set(err, FL_EINVAL,
                                "%s step %zu: node %d receives two messages (one-port broken)",
                                algorithm_names[aa->algorithm], s, (int)y);
        r->recv_step[y] = s;
        if (aa->sender)
            aa->sender[s * (size_t)aa->nodes + (size_t)y] = x;
        if (*nmsgs == r->msg_cap) {
            size_t cap = r->msg_cap ? 2 * r->msg_cap : 1024;
            FlAllToAllMessage *m = realloc(aa->msgs, cap * sizeof *m);
            if (!m)
                return fl_error_set(err, FL_ENOMEM, "out of memory for the messages");
            aa->msgs = m;
            r->msg_cap = cap;
        }
        FlAllToAllMessage *m = &aa->msgs[(*nmsgs)++];
        m->src = x;
        m->dst = y;
        m->blocks = r->send_blocks[x];
        step_hops(aa, &aa->desc[s], x, y, &m->hops_dim0, &m->hops_dim1);
        if (walk_links(aa, m, r->link_load, &st->max_link_load) != y)
            return fl_error_set(err, FL_EINVAL, "%s step %zu: the path from %d does not end at %d",
                                algorithm_names[aa->algorithm], s, (int)x, (int)y);
        int hops = abs(m->hops_dim0) + abs(m->hops_dim1);
        st->messages++;
        st->blocks += m->blocks;
        st->block_hops += m->blocks * (size_t)hops;
        if (m->blocks > st->max_blocks)
            st->max_blocks = m->blocks;
        if (hops > st->max_hops)
            st->max_hops = hops;
    }
    return FL_OK;
}

static int run_steps(FlAllToAll *aa, RunScratch *r, FlError *err)
{
    int32_t nodes = aa->nodes;
    size_t nmsgs = 0;
    for (int32_t d = 0; d < nodes; d++)
        for (int32_t o = 0; o < nodes; o++)
            r->loc[(size_t)d * (size_t)nodes + (size_t)o] = (uint16_t)o;
    for (int32_t x = 0; x < nodes; x++) {
        r->held[x] = (size_t)nodes - 1;
        r->recv_step[x] = 0;
    }
    aa->initial_held = (size_t)nodes - 1;
    for (size_t s = 1; s <= aa->nsteps; s++) {
        aa->msg_start[s] = nmsgs;
        for (int32_t x = 0; x < nodes; x++) {
            r->send_to[x] = -1;
            r->send_blocks[x] = 0;
        }
        if (move_blocks(aa, r, s) != 0)
            return fl_error_set(err, FL_EINVAL,
                                "%s step %zu: a node sends blocks to two nodes (one-port broken)",
                                algorithm_names[aa->algorithm], s);
        int rc = record_messages(aa, r, s, &nmsgs, err);
        if (rc != FL_OK)
            return rc;
    }
    aa->msg_start[aa->nsteps + 1] = nmsgs;
    aa->delivered = 0;
    for (int32_t d = 0; d < nodes; d++)
        for (int32_t o = 0; o < nodes; o++)
            if (o != d && r->loc[(size_t)d * (size_t)nodes + (size_t)o] == d)
                aa->delivered++;
    return FL_OK;
}

int fl_alltoall_run(int n, FlAllToAllAlgorithm algorithm, FlAllToAll **out, FlError *err)
{
    if ((int)algorithm < 0 || algorithm >= FL_ALLTOALL_ALGORITHM_COUNT)
        return fl_error_set(err, FL_EINVAL, "unknown complete-exchange algorithm %d",
                            (int)algorithm);
    int rc = check_size(n, algorithm, err);
    if (rc != FL_OK)
        return rc;
    FlAllToAll *aa = calloc(1, sizeof *aa);
    RunScratch r = { 0 };
    if (!aa)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the complete exchange");
    aa->n = n;
    while ((1 << aa->shift) < n)
        aa->shift++;
    aa->nodes = n * n;
    aa->algorithm = algorithm;
    size_t maxsteps = (size_t)aa->nodes + 8;
    size_t nodes = (size_t)aa->nodes;
    aa->desc = calloc(maxsteps + 1, sizeof *aa->desc);
    aa->steps = calloc(maxsteps + 1, sizeof *aa->steps);
    aa->msg_start = calloc(maxsteps + 2, sizeof *aa->msg_start);
    r.loc = malloc(nodes * nodes * sizeof *r.loc);
    r.send_to = malloc(nodes * sizeof *r.send_to);
    r.send_blocks = malloc(nodes * sizeof *r.send_blocks);
    r.held = malloc(nodes * sizeof *r.held);
    r.recv_step = malloc(nodes * sizeof *r.recv_step);
    r.link_load = malloc(4 * nodes * sizeof *r.link_load);
    if (!aa->desc || !aa->steps || !aa->msg_start || !r.loc || !r.send_to || !r.send_blocks ||
        !r.held || !r.recv_step || !r.link_load) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory tracking %zu blocks", nodes * nodes);
        goto fail;
    }
    aa->nsteps = algorithm == FL_ALLTOALL_SEM ? build_sem(aa->desc, n)
                                              : build_direct(aa->desc, aa->nodes);
    if (algorithm == FL_ALLTOALL_SEM) {
        size_t bytes = (aa->nsteps + 1) * nodes * sizeof *aa->sender;
        aa->sender = malloc(bytes);
        if (!aa->sender) {
            rc = fl_error_set(err, FL_ENOMEM, "out of memory for the senders of %zu steps",
                              aa->nsteps);
            goto fail;
        }
        memset(aa->sender, 0xff, bytes);
    }
    rc = run_steps(aa, &r, err);
    if (rc != FL_OK)
        goto fail;
    scratch_free(&r);
    *out = aa;
    return FL_OK;
fail:
    scratch_free(&r);
    fl_alltoall_free(aa);
    return rc;
}

void fl_alltoall_free(FlAllToAll *aa)
{
    if (!aa)
        return;
    free(aa->desc);
    free(aa->steps);
    free(aa->msgs);
    free(aa->msg_start);
    free(aa->sender);
    free(aa);
}

/* --- queries ------------------------------------------------------------------ */

int fl_alltoall_size(const FlAllToAll *aa)
{
    return aa->n;
}

FlAllToAllAlgorithm fl_alltoall_algorithm(const FlAllToAll *aa)
{
    return aa->algorithm;
}

size_t fl_alltoall_step_count(const FlAllToAll *aa)
{
    return aa->nsteps;
}

int fl_alltoall_step(const FlAllToAll *aa, size_t step, FlAllToAllStep *out, FlError *err)
{
    if (step < 1 || step > aa->nsteps)
        return fl_error_set(err, FL_ERANGE, "step %zu is outside 1..%zu", step, aa->nsteps);
    *out = aa->steps[step];
    return FL_OK;
}

int fl_alltoall_step_label(const FlAllToAll *aa, size_t step, char *buf, size_t cap)
{
    if (step == 0)
        return snprintf(buf, cap, "initial");
    if (step > aa->nsteps)
        return snprintf(buf, cap, "%s", "");
    const StepDesc *d = &aa->desc[step];
    if (aa->algorithm == FL_ALLTOALL_DIRECT)
        return snprintf(buf, cap, "step %d", d->index);
    if (d->phase)
        return snprintf(buf, cap, "stage %d phase %d step %d", d->stage, d->phase, d->index);
    return snprintf(buf, cap, "stage %d step %d", d->stage, d->index);
}

const FlAllToAllMessage *fl_alltoall_messages(const FlAllToAll *aa, size_t step, size_t *count)
{
    if (step < 1 || step > aa->nsteps) {
        *count = 0;
        return NULL;
    }
    *count = aa->msg_start[step + 1] - aa->msg_start[step];
    return aa->msgs + aa->msg_start[step];
}

/* The node whose message reaches node y in step t, -1 for none. */
static int32_t sender_of(const FlAllToAll *aa, size_t t, int32_t y)
{
    if (aa->desc[t].kind == K_DIRECT)
        return y ^ aa->desc[t].arg;
    return aa->sender[t * (size_t)aa->nodes + (size_t)y];
}

static int push_block(FlAllToAllBlock **b, size_t *k, size_t *cap, int32_t o, int32_t d)
{
    if (*k == *cap) {
        size_t ncap = *cap ? 2 * *cap : 256;
        FlAllToAllBlock *nb = realloc(*b, ncap * sizeof *nb);
        if (!nb)
            return -1;
        *b = nb;
        *cap = ncap;
    }
    (*b)[(*k)++] = (FlAllToAllBlock){ o, d };
    return 0;
}

/* Collects the blocks at node after step (and, if via_step > 0, that step's rule
 * then sends to via_dst). For each destination it walks back from node: a block at
 * y after step t was at y or at y's one sender before it, so the candidates double
 * at most per step and every one is checked against the rule. */
static int collect(const FlAllToAll *aa, size_t step, int32_t node, size_t via_step,
                   int32_t via_dst, FlAllToAllBlock **out, size_t *count, FlError *err)
{
    size_t cap = 0, k = 0;
    FlAllToAllBlock *b = NULL;
    int32_t *set = malloc(2 * (size_t)aa->nodes * sizeof *set);
    uint8_t *seen = calloc((size_t)aa->nodes, 1);
    if (!set || !seen) {
        free(set);
        free(seen);
        return fl_error_set(err, FL_ENOMEM, "out of memory listing blocks");
    }
    int rc = FL_OK;
    for (int32_t d = 0; d < aa->nodes && rc == FL_OK; d++) {
        if (via_step && route(aa, &aa->desc[via_step], node, d) != via_dst)
            continue;
        size_t n = 1;
        set[0] = node;
        for (size_t t = step; t >= 1 && n > 0; t--) {
            size_t m = 0;
            int32_t *next = set + aa->nodes;
            for (size_t a = 0; a < n; a++) {
                int32_t y = set[a], z = sender_of(aa, t, y);
                if (route(aa, &aa->desc[t], y, d) == y && !seen[y]) {
                    seen[y] = 1;
                    next[m++] = y;
                }
                if (z >= 0 && route(aa, &aa->desc[t], z, d) == y && !seen[z]) {
                    seen[z] = 1;
                    next[m++] = z;
                }
            }
            for (size_t a = 0; a < m; a++)
                seen[next[a]] = 0;
            memcpy(set, next, m * sizeof *set);
            n = m;
        }
        /* set holds the origins, in no order; sort them by a pass over the marks */
        for (size_t a = 0; a < n; a++)
            seen[set[a]] = 1;
        for (int32_t o = 0; o < aa->nodes; o++) {
            if (!seen[o])
                continue;
            seen[o] = 0;
            if (o != d && push_block(&b, &k, &cap, o, d) != 0)
                rc = fl_error_set(err, FL_ENOMEM, "out of memory listing blocks");
        }
    }
    free(set);
    free(seen);
    if (rc != FL_OK) {
        free(b);
        return rc;
    }
    *out = b;
    *count = k;
    return FL_OK;
}

int fl_alltoall_holdings(const FlAllToAll *aa, size_t step, int node, FlAllToAllBlock **out,
                         size_t *count, FlError *err)
{
    if (step > aa->nsteps)
        return fl_error_set(err, FL_ERANGE, "step %zu is outside 0..%zu", step, aa->nsteps);
    if (node < 0 || node >= aa->nodes)
        return fl_error_set(err, FL_ERANGE, "node %d is outside 0..%d", node,
                            (int)aa->nodes - 1);
    return collect(aa, step, node, 0, 0, out, count, err);
}

int fl_alltoall_message_blocks(const FlAllToAll *aa, size_t step, size_t msg,
                               FlAllToAllBlock **out, size_t *count, FlError *err)
{
    size_t n;
    const FlAllToAllMessage *m = fl_alltoall_messages(aa, step, &n);
    if (!m)
        return fl_error_set(err, FL_ERANGE, "step %zu is outside 1..%zu", step, aa->nsteps);
    if (msg >= n)
        return fl_error_set(err, FL_ERANGE, "step %zu has %zu messages, no message %zu", step, n,
                            msg);
    return collect(aa, step - 1, m[msg].src, step, m[msg].dst, out, count, err);
}

int fl_alltoall_block_label(int n, FlAllToAllBlock block, char *buf, size_t cap)
{
    int sh = 0;
    while ((1 << sh) < n)
        sh++;
    int p = block.origin >> sh, q = block.origin & (n - 1);
    int r = block.dest >> sh, s = block.dest & (n - 1);
    if (n <= 16)
        return snprintf(buf, cap, "%X%X%X%X", p, q, r, s);
    return snprintf(buf, cap, "%d.%d>%d.%d", p, q, r, s);
}

int fl_alltoall_holdings_text(const FlAllToAll *aa, size_t step, int node, char **out,
                              FlError *err)
{
    FlAllToAllBlock *b = NULL;
    size_t k = 0;
    int rc = fl_alltoall_holdings(aa, step, node, &b, &k, err);
    if (rc != FL_OK)
        return rc;
    /* a label is at most "63.63>63.63" plus a space; a row heading "63: " */
    size_t cap = k * 13 + (size_t)aa->n * 6 + 1, len = 0;
    char *text = malloc(cap);
    if (!text) {
        free(b);
        return fl_error_set(err, FL_ENOMEM, "out of memory for the message matrix");
    }
    text[0] = '\0';
    int row = -1;
    for (size_t t = 0; t < k; t++) {
        int a = b[t].dest >> aa->shift;
        if (a != row) {
            if (row >= 0)
                text[len++] = '\n';
            len += (size_t)snprintf(text + len, cap - len, aa->n <= 16 ? "%X:" : "%d:", a);
            row = a;
        }
        text[len++] = ' ';
        len += (size_t)fl_alltoall_block_label(aa->n, b[t], text + len, cap - len);
    }
    if (row >= 0)
        text[len++] = '\n';
    text[len] = '\0';
    free(b);
    *out = text;
    return FL_OK;
}

/* --- costs --------------------------------------------------------------------- */

void fl_alltoall_costs(const FlAllToAll *aa, FlAllToAllCosts *out)
{
    memset(out, 0, sizeof *out);
    double n = aa->n;
    out->blocks = (size_t)aa->nodes * ((size_t)aa->nodes - 1);
    out->delivered = aa->delivered;
    out->startups = aa->nsteps;
    size_t phase_max = aa->initial_held;
    for (size_t s = 1; s <= aa->nsteps; s++) {
        const FlAllToAllStep *st = &aa->steps[s];
        out->transmission += st->max_blocks;
        out->volume += st->blocks;
        out->block_hops += st->block_hops;
        out->propagation += (size_t)st->max_hops;
        if (st->max_link_load > out->max_link_load)
            out->max_link_load = st->max_link_load;
        if (st->max_held > phase_max)
            phase_max = st->max_held;
        int last = s == aa->nsteps || aa->steps[s + 1].stage != st->stage ||
                   aa->steps[s + 1].phase != st->phase;
        if (last) {
            out->rearrangement += phase_max;
            phase_max = st->max_held;
        }
    }
    out->lower_transmission = n * n * n / 8;
    out->lower_startups = log2(n * n);
    if (aa->algorithm == FL_ALLTOALL_SEM) {
        out->paper_startups_text = n / 4 + 5;
        out->paper_startups_table = n / 2 + 5;
        out->paper_transmission = (n * n * n + 10 * n * n) / 4;
        out->paper_rearrangement = 10 * n * n;
        out->paper_propagation = 2 * n - 5;
    } else {
        out->paper_startups_text = NAN;
        out->paper_startups_table = NAN;
        out->paper_transmission = NAN;
        out->paper_rearrangement = NAN;
        out->paper_propagation = NAN;
    }
}
