/* route-selfroute.c — optimal self-routing on the crossed mesh XMESH
 * (paper 003, Fig. 3) and on the diagonal mesh DMESH: at every hop, every
 * port that lies on a shortest path to the destination.
 *
 * The paper's decision table is garbled in the scan, so the rule here is
 * derived afresh. Both networks are tori of n x k switches (i, j), i modulo
 * n and j modulo k (gen-xmesh.c). For each we derive the distance between
 * two switches in closed form from their coordinates alone, and a port lies
 * on a shortest path exactly when the neighbour it leads to is one hop
 * nearer the destination. Each distance is O(1), so a hop costs four of
 * them. The tests check the distances and the port sets against
 * breadth-first search on every pair of every XMESH and DMESH up to 16x16
 * and on samples of 36x72 and 35x71.
 *
 * XMESH. Straight links change j by 1 and flip the parity of i + j;
 * diagonal links change both i and j by 1 and keep the parity. From an even
 * switch (i + j even) the diagonals run along the main diagonal,
 * (i + 1, j + 1) and (i - 1, j - 1); from an odd one along the other,
 * (i + 1, j - 1) and (i - 1, j + 1). As n and k are even, translating by a
 * period keeps every parity, so the infinite crossed grid covers the XMESH
 * and the distance is the least, over the lifts (x, y) of the offset
 * (x = di mod n, y = dj mod k), of the infinite grid's distance D(x, y)
 * from a switch of the source's parity. In the infinite grid, from an even
 * switch (an odd one is its mirror image, y -> -y):
 *   - every move changes i by at most 1 and j by at most 1, so D >= |x| and
 *     D >= |y|; only diagonals change i, so a route has at least |x| of
 *     them, all in one direction of i if it has exactly |x|;
 *   - if x - y is odd the two switches have different parities, so a route
 *     needs a straight move: D >= |x| + 1; and max(|x| + 1, |y|) hops
 *     suffice (one straight move to the other parity where that helps, the
 *     diagonals, then straight moves for the rest of y);
 *   - if x - y is even, a route without straight moves stays on the main
 *     diagonal, reaching only y = x in |x| hops; any other route has a
 *     second straight move to restore the parity: D >= |x| + 2, and
 *     max(|x| + 2, |y|) hops suffice likewise.
 * Minimising over lifts, max(|x| + c, |y|) separates into the cyclic
 * distances cx = min(x, n - x) and cy = min(y, k - y), so
 *   dist = max(cx + 1, cy)                           if di + dj is odd,
 *   dist = min(max(cx + 2, cy), A)                   if it is even,
 * where A is the shortest pure diagonal: the least |x| with x = di (mod n)
 * and s x = dj (mod k), s = +1 from an even switch and -1 from an odd one
 * (the paper's "replace y by [-y] for odd i + j"). Such an x exists when
 * gcd(n, k) divides di - s dj and is unique modulo lcm(n, k) by the Chinese
 * remainder theorem; the diagonal may wrap round j several times (on a
 * 16x4 XMESH the shortest route from (0, 0) to (4, 0) is four diagonal
 * hops), which is why no fixed set of lifts would do.
 *
 * DMESH. Every link changes i and j by 1, so in the infinite grid
 * D(x, y) = max(|x|, |y|) when x and y have the same parity, and no route
 * exists otherwise. With n and k odd, a lift by one period changes the
 * parity; the least |x| of each parity is di or n - di (and likewise for
 * j), so
 *   dist = min(max(di, dj), max(n - di, k - dj))     if di + dj is even,
 *   dist = min(max(di, k - dj), max(n - di, dj))     if it is odd.
 *
 * One VC class: the simulator's deflection routing uses these sets, and
 * there is no claim of deadlock freedom for wormhole switching.
 */
#include <stdlib.h>
#include <string.h>

#include "routing-internal.h"

typedef struct SelfState SelfState;

/* Hops from (i, j) to (p, q). */
typedef int (*DistanceFunc)(const SelfState *s, int i, int j, int p, int q);

struct SelfState {
    DistanceFunc distance;
    int n, k;           /* sizes along i and j */
    /* XMESH's diagonal equation x = a (mod n), x = b (mod k): g = gcd(n, k),
     * lcm = n k / g, and inv the inverse of n / g modulo k / g. */
    int64_t g, lcm, inv;
};

static int wrap(int v, int m)
{
    v %= m;
    return v < 0 ? v + m : v;
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static int xmesh_distance(const SelfState *s, int i, int j, int p, int q)
{
    int di = wrap(p - i, s->n), dj = wrap(q - j, s->k);
    int cx = min_int(di, s->n - di), cy = min_int(dj, s->k - dj);
    if ((di + dj) & 1)
        return max_int(cx + 1, cy);
    int best = max_int(cx + 2, cy);
    /* x = di (mod n) and x = s dj (mod k): x = di + n t with
     * (n / g) t = (b - di) / g (mod k / g). */
    int64_t b = (i + j) & 1 ? wrap(-dj, s->k) : dj, diff = b - di;
    if (diff % s->g == 0) {
        int64_t kg = s->k / s->g, t = (diff / s->g % kg + kg) % kg * s->inv % kg;
        int64_t x = di + (int64_t)s->n * t, along = x < s->lcm - x ? x : s->lcm - x;
        if (along < best)
            best = (int)along;
    }
    return best;
}

static int dmesh_distance(const SelfState *s, int i, int j, int p, int q)
{
    int di = wrap(p - i, s->n), dj = wrap(q - j, s->k);
    if (((di + dj) & 1) == 0)
        return min_int(max_int(di, dj), max_int(s->n - di, s->k - dj));
    return min_int(max_int(di, s->k - dj), max_int(s->n - di, dj));
}

/* The inverse of a modulo m (a and m coprime, m >= 1), by extended Euclid. */
static int64_t inverse_mod(int64_t a, int64_t m)
{
    int64_t r0 = m, r1 = a % m, s0 = 0, s1 = 1;
    while (r1) {
        int64_t qt = r0 / r1, r = r0 - qt * r1, sn = s0 - qt * s1;
        r0 = r1, r1 = r;
        s0 = s1, s1 = sn;
    }
    return ((s0 % m) + m) % m;
}

static int self_init(FlRouting *r, const char *family, DistanceFunc distance, FlError *err)
{
    const FlTopology *t = r->t;
    if (strcmp(t->family, family) != 0 || t->family_ndims != 2 || t->coord_dims != 2)
        return fl_error_set(err, FL_EUNSUPPORTED, "%s routing serves only %s networks; "
                            "this network is %s", r->algo->info.name, family,
                            t->spec ? t->spec : t->family);
    for (int i = 0; i < t->n_switches; i++)
        if (t->nports[t->switch_nodes[i]] < 4)
            return fl_error_set(err, FL_EUNSUPPORTED, "%s: switch %d has fewer than the 4 "
                                "network ports of its family", family, t->switch_nodes[i]);
    SelfState *s = calloc(1, sizeof *s);
    if (!s)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    s->distance = distance;
    s->n = t->family_dims[0];
    s->k = t->family_dims[1];
    int64_t a = s->n, b = s->k;
    while (b) {
        int64_t rest = a % b;
        a = b, b = rest;
    }
    s->g = a;
    s->lcm = (int64_t)s->n / s->g * s->k;
    s->inv = inverse_mod(s->n / s->g, s->k / s->g);
    r->state = s;
    r->vc_classes = 1;
    return FL_OK;
}

static int xmesh_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    (void)opt;
    return self_init(r, "xmesh", xmesh_distance, err);
}

static int dmesh_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    (void)opt;
    return self_init(r, "dmesh", dmesh_distance, err);
}

static void self_fini(FlRouting *r)
{
    free(r->state);
    r->state = NULL;
}

static int self_next(const FlRouting *r, int sw, int in_channel, int in_class, int dest,
                     FlRouteChoice *out, int max)
{
    const SelfState *s = r->state;
    const FlTopology *t = r->t;
    const int *c = t->coords + FL_MAX_DIMS * sw, *e = t->coords + FL_MAX_DIMS * dest;
    int here = s->distance(s, c[0], c[1], e[0], e[1]), n = 0;
    (void)in_channel, (void)in_class;
    for (int p = 0; p < 4 && n < max; p++) {
        int channel = fl__out_channel(t, sw, p);
        if (channel < 0)
            continue;
        const int *q = t->coords + FL_MAX_DIMS * fl__chan_dst(t, channel);
        if (s->distance(s, q[0], q[1], e[0], e[1]) == here - 1)
            out[n++] = (FlRouteChoice){ p, channel, 0 };
    }
    return n;
}

/* A turn u -> sw -> v is on some shortest path exactly when u and v are two
 * hops apart (then the path to v itself takes it), and these routings offer
 * every shortest path: so the turns no route takes are those whose ends are
 * not, in closed form, without a walk over every route at build time. */
static int self_turn_prohibited(const FlRouting *r, int sw, int in_port, int out_port)
{
    const SelfState *s = r->state;
    const FlTopology *t = r->t;
    int u = fl__chan_dst(t, fl__out_channel(t, sw, in_port));
    int v = fl__chan_dst(t, fl__out_channel(t, sw, out_port));
    const int *a = t->coords + FL_MAX_DIMS * u, *b = t->coords + FL_MAX_DIMS * v;
    return s->distance(s, a[0], a[1], b[0], b[1]) != 2;
}

const FlRoutingAlgo fl__route_xmesh = {
    .info = {
        .name = "xmesh",
        .summary = FL_N_("optimal self-routing on the crossed mesh: every port on a "
                         "shortest path"),
        .applies_to = FL_N_("XMESH networks"),
        .is_table = 0,
    },
    .init = xmesh_init,
    .next = self_next,
    .fini = self_fini,
    .turn_prohibited = self_turn_prohibited,
};

const FlRoutingAlgo fl__route_dmesh = {
    .info = {
        .name = "dmesh",
        .summary = FL_N_("optimal self-routing on the diagonal mesh: every port on a "
                         "shortest path"),
        .applies_to = FL_N_("DMESH networks"),
        .is_table = 0,
    },
    .init = dmesh_init,
    .next = self_next,
    .fini = self_fini,
    .turn_prohibited = self_turn_prohibited,
};
