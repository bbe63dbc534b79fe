/* test-routing-tables.c — the table routings of paper 002 (updown,
 * lturn-alpha/beta, rturn-alpha/beta) and the machinery under them
 * (shortest, turnset), checked against brute force written here:
 *   - connectivity and deadlock freedom from the states a packet can reach
 *     by following fl_routing_next() (our own channel dependency graph and
 *     cycle search), compared with fl_routing_analyze();
 *   - every choice on a shortest legal path, and every such choice offered,
 *     against a forward breadth-first search over channels under the
 *     routing's prohibited turns;
 *   - paper 002's Table 3 figures for up* / down*, PPT of L-turn against
 *     up* / down* on the 8x8 torus and 100 random irregular networks;
 *   - the spanning tree, the H/V coordinates and the channel labels;
 *   - turnset against updown, and the refusal of bad turns.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab.h"
#include "tap.h"

#define N_IRREGULAR 100

static const char *const paper_routings[] = {
    "updown", "lturn-alpha", "lturn-beta", "rturn-alpha", "rturn-beta",
};
#define N_PAPER 5

static FlTopology *build(const char *spec)
{
    FlTopology *t = NULL;
    FlError err = { 0 };
    int rc = fl_topology_from_spec(spec, &t, &err);
    if (rc) {
        CHECK(0, "build %s: %s", spec, err.message);
        return NULL;
    }
    return t;
}

static FlRouting *routing(const FlTopology *t, const char *name, int root)
{
    FlRoutingOptions opt = { .root = root };
    FlRouting *r = NULL;
    FlError err = { 0 };
    int rc = fl_routing_new(t, name, &opt, &r, &err);
    if (rc) {
        CHECK(0, "%s on %s: %s", name, fl_topology_spec(t), err.message);
        return NULL;
    }
    return r;
}

/* ------------------------------------------------------------------------ */
/* Channels, from the public API only                                       */
/* ------------------------------------------------------------------------ */

typedef struct Net {
    const FlTopology *t;
    int nch;             /* every channel */
    int nsc;             /* switch-to-switch channels */
    int *dense;          /* channel -> dense index or -1 */
    int *chan;           /* dense -> channel */
    int *src, *dst;      /* per dense: nodes */
    int *out_port;       /* per dense: port it leaves src by */
    int *in_port;        /* per dense: port it arrives at dst on */
} Net;

/* The channel leaving node n by port p (the topology's numbering: channel
 * 2l runs from end a to end b). */
static int out_channel(const FlTopology *t, int n, int p)
{
    int l = fl_topology_port_link(t, n, p);
    if (l < 0)
        return -1;
    int a, pa;
    fl_topology_link_ends(t, l, &a, &pa, NULL, NULL);
    return a == n && pa == p ? 2 * l : 2 * l + 1;
}

static int is_switch(const FlTopology *t, int n)
{
    return n >= 0 && fl_topology_node_kind(t, n) == FL_NODE_SWITCH;
}

static void net_init(Net *net, const FlTopology *t)
{
    net->t = t;
    net->nch = fl_topology_channel_count(t);
    net->dense = malloc(sizeof(int) * (size_t)net->nch);
    net->chan = malloc(sizeof(int) * (size_t)net->nch);
    net->src = malloc(sizeof(int) * (size_t)net->nch);
    net->dst = malloc(sizeof(int) * (size_t)net->nch);
    net->out_port = malloc(sizeof(int) * (size_t)net->nch);
    net->in_port = malloc(sizeof(int) * (size_t)net->nch);
    net->nsc = 0;
    for (int c = 0; c < net->nch; c++) {
        int a, pa, b, pb;
        fl_topology_link_ends(t, c / 2, &a, &pa, &b, &pb);
        if (c & 1) {
            int tn = a, tp = pa;
            a = b, pa = pb, b = tn, pb = tp;
        }
        if (!is_switch(t, a) || !is_switch(t, b)) {
            net->dense[c] = -1;
            continue;
        }
        int i = net->nsc++;
        net->dense[c] = i;
        net->chan[i] = c;
        net->src[i] = a;
        net->dst[i] = b;
        net->out_port[i] = pa;
        net->in_port[i] = pb;
    }
}

static void net_free(Net *net)
{
    free(net->dense);
    free(net->chan);
    free(net->src);
    free(net->dst);
    free(net->out_port);
    free(net->in_port);
}

/* ------------------------------------------------------------------------ */
/* Brute force                                                              */
/* ------------------------------------------------------------------------ */

typedef struct Facts {
    int connected;
    int deadlock_free;
    int shortest;        /* every choice on a shortest legal path, all offered */
    int well_formed;     /* choices leave the right switch, in port order */
    double pt_mean, pt_sd;
    int ppt;
    double avg_hops;     /* lowest-port route, over ordered switch pairs */
    const char *why;     /* the first problem found, for the TAP message */
} Facts;

#define INF 0x3fffffff

/* Whether the cycle search finds a cycle in the graph of nv vertices whose
 * arcs are adj[u * nv + v]. Iterative depth-first search with colours. */
static int has_cycle(const uint8_t *adj, int nv)
{
    uint8_t *colour = calloc((size_t)nv, 1);
    int *stack = malloc(sizeof(int) * (size_t)nv);
    int *next = malloc(sizeof(int) * (size_t)nv);
    int found = 0;
    for (int s = 0; s < nv && !found; s++) {
        if (colour[s])
            continue;
        int top = 0;
        stack[top++] = s;
        next[s] = 0;
        colour[s] = 1;
        while (top > 0 && !found) {
            int u = stack[top - 1];
            if (next[u] == nv) {
                colour[u] = 2;
                top--;
                continue;
            }
            int v = next[u]++;
            if (!adj[(size_t)u * nv + v])
                continue;
            if (colour[v] == 1)
                found = 1;
            else if (colour[v] == 0) {
                colour[v] = 1;
                next[v] = 0;
                stack[top++] = v;
            }
        }
    }
    free(colour);
    free(stack);
    free(next);
    return found;
}

/* rem[i * S + d]: hops still needed after dense channel i to reach the
 * switch of rank d, by forward breadth-first search from every channel over
 * the turns the routing allows (INF when there is no legal path). */
static int *legal_remaining(const FlRouting *r, const Net *net)
{
    const FlTopology *t = net->t;
    int S = fl_topology_switch_count(t), n = net->nsc;
    /* Allowed continuations of each channel. */
    int *succ = malloc(sizeof(int) * (size_t)n * FL_MAX_PORTS);
    int *nsucc = calloc((size_t)n, sizeof(int));
    for (int i = 0; i < n; i++) {
        int sw = net->dst[i];
        for (int p = 0; p < fl_topology_node_ports(t, sw); p++) {
            int c = out_channel(t, sw, p);
            if (p == net->in_port[i] || c < 0 || net->dense[c] < 0
                || fl_routing_turn_prohibited(r, sw, net->in_port[i], p))
                continue;
            succ[(size_t)i * FL_MAX_PORTS + nsucc[i]++] = net->dense[c];
        }
    }
    int *rem = malloc(sizeof(int) * (size_t)n * (size_t)S);
    int *dist = malloc(sizeof(int) * (size_t)n);
    int *queue = malloc(sizeof(int) * (size_t)n);
    for (int i0 = 0; i0 < n; i0++) {
        for (int i = 0; i < n; i++)
            dist[i] = INF;
        int *row = rem + (size_t)i0 * S;
        for (int d = 0; d < S; d++)
            row[d] = INF;
        int head = 0, tail = 0;
        dist[i0] = 0;
        queue[tail++] = i0;
        while (head < tail) {
            int i = queue[head++];
            int d = fl_topology_node_rank(t, net->dst[i]);
            if (dist[i] < row[d])
                row[d] = dist[i];
            for (int k = 0; k < nsucc[i]; k++) {
                int j = succ[(size_t)i * FL_MAX_PORTS + k];
                if (dist[j] == INF) {
                    dist[j] = dist[i] + 1;
                    queue[tail++] = j;
                }
            }
        }
    }
    free(succ);
    free(nsucc);
    free(dist);
    free(queue);
    return rem;
}

static void fail(Facts *f, int *flag, const char *why)
{
    if (*flag && !f->why)
        f->why = why;
    *flag = 0;
}

/* The dense channel of choice k at switch sw, or -1 unless it leaves sw by
 * the port it names, in one of the K classes, after the previous choice's
 * port. */
static int choice_channel(const Net *net, int sw, int K, const FlRouteChoice *ch, int k)
{
    int c = ch[k].channel;
    int i = c >= 0 && c < net->nch ? net->dense[c] : -1;
    if (i < 0 || net->src[i] != sw || net->out_port[i] != ch[k].port || ch[k].vc_class < 0
        || ch[k].vc_class >= K || (k > 0 && ch[k].port <= ch[k - 1].port))
        return -1;
    return i;
}

/* Follows every choice of fl_routing_next() towards every destination from
 * injection at every switch; checks the choices and builds the channel
 * dependency graph over the reached (channel, class) states. */
static void brute_force(const FlRouting *r, Facts *f)
{
    const FlTopology *t = fl_routing_topology(r);
    Net net;
    net_init(&net, t);
    int S = fl_topology_switch_count(t), K = fl_routing_vc_classes(r);
    int nv = net.nsc * K;
    memset(f, 0, sizeof *f);
    f->connected = f->deadlock_free = f->shortest = f->well_formed = 1;
    int *rem = legal_remaining(r, &net);
    uint8_t *cdg = calloc((size_t)nv * (size_t)nv, 1);
    int *seen = calloc((size_t)nv, sizeof(int));
    int *queue = malloc(sizeof(int) * (size_t)nv);
    FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
    long long hop_sum = 0;

    for (int d = 0; d < S; d++) {
        int dest = fl_topology_switch_node(t, d);
        int head = 0, tail = 0;
        for (int s = 0; s < S; s++) {
            int sw = fl_topology_switch_node(t, s);
            if (sw == dest)
                continue;
            /* The shortest legal distance from sw and how many outputs
             * start a shortest legal path. */
            int best = INF, nbest = 0;
            for (int p = 0; p < fl_topology_node_ports(t, sw); p++) {
                int c = out_channel(t, sw, p);
                if (c < 0 || net.dense[c] < 0)
                    continue;
                int v = rem[(size_t)net.dense[c] * S + d];
                if (v < INF && v + 1 < best)
                    best = v + 1, nbest = 0;
                if (v < INF && v + 1 == best)
                    nbest++;
            }
            int n = fl_routing_next(r, sw, -1, 0, dest, ch, FL_ROUTE_MAX_CHOICES);
            if (n == 0)
                fail(f, &f->connected, "a source has no legal first hop");
            if (n != nbest)
                fail(f, &f->shortest, "injection: not every shortest first hop offered");
            for (int k = 0; k < n; k++) {
                int i = choice_channel(&net, sw, K, ch, k);
                if (i < 0) {
                    fail(f, &f->well_formed, "a choice does not leave the switch in port order");
                    continue;
                }
                if (rem[(size_t)i * S + d] + 1 != best)
                    fail(f, &f->shortest, "injection: a first hop off the shortest legal paths");
                int st = i * K + ch[k].vc_class;
                if (seen[st] != d + 1) {
                    seen[st] = d + 1;
                    queue[tail++] = st;
                }
            }
            /* The lowest-port route's length. */
            int at = sw, in = -1, cls = 0, hops = 0;
            while (at != dest && hops <= net.nsc) {
                int m = fl_routing_next(r, at, in, cls, dest, ch, FL_ROUTE_MAX_CHOICES);
                if (m == 0)
                    break;
                int k = fl_routing_select(ch, m, FL_SELECT_LOWEST_PORT, NULL, NULL, NULL);
                in = ch[k].channel;
                cls = ch[k].vc_class;
                at = fl_topology_channel_dst(t, in);
                hops++;
            }
            hop_sum += hops;
        }
        while (head < tail) {
            int st = queue[head++];
            int i = st / K, cls = st % K;
            int sw = net.dst[i];
            if (sw == dest)
                continue;
            int here = rem[(size_t)i * S + d];
            int nbest = 0;
            for (int p = 0; p < fl_topology_node_ports(t, sw); p++) {
                int c = out_channel(t, sw, p);
                if (p == net.in_port[i] || c < 0 || net.dense[c] < 0
                    || fl_routing_turn_prohibited(r, sw, net.in_port[i], p))
                    continue;
                if (here < INF && rem[(size_t)net.dense[c] * S + d] == here - 1)
                    nbest++;
            }
            int n = fl_routing_next(r, sw, net.chan[i], cls, dest, ch, FL_ROUTE_MAX_CHOICES);
            if (n == 0)
                fail(f, &f->connected, "a reached channel has no legal next hop");
            if (n != nbest)
                fail(f, &f->shortest, "in flight: not every shortest next hop offered");
            for (int k = 0; k < n; k++) {
                int j = choice_channel(&net, sw, K, ch, k);
                if (j < 0) {
                    fail(f, &f->well_formed, "a choice does not leave the switch in port order");
                    continue;
                }
                if (fl_routing_turn_prohibited(r, sw, net.in_port[i], ch[k].port))
                    fail(f, &f->shortest, "a choice makes a prohibited turn");
                if (rem[(size_t)j * S + d] != here - 1)
                    fail(f, &f->shortest, "in flight: a hop off the shortest legal paths");
                int st2 = j * K + ch[k].vc_class;
                cdg[(size_t)st * nv + st2] = 1;
                if (seen[st2] != d + 1) {
                    seen[st2] = d + 1;
                    queue[tail++] = st2;
                }
            }
        }
    }
    if (has_cycle(cdg, nv))
        fail(f, &f->deadlock_free, "the channel dependency graph has a cycle");
    f->avg_hops = S > 1 ? (double)hop_sum / ((double)S * (S - 1)) : 0.0;

    /* Paper 002's turn metrics. */
    double sum = 0, sum2 = 0;
    for (int s = 0; s < S; s++) {
        int sw = fl_topology_switch_node(t, s), np = fl_topology_node_ports(t, sw), pt = 0;
        for (int a = 0; a < np; a++)
            for (int b = 0; b < np; b++) {
                if (a == b || !is_switch(t, fl_topology_port_peer(t, sw, a, NULL))
                    || !is_switch(t, fl_topology_port_peer(t, sw, b, NULL))
                    || !fl_routing_turn_prohibited(r, sw, a, b))
                    continue;
                pt++;
                if (a < b && fl_routing_turn_prohibited(r, sw, b, a))
                    f->ppt++;
            }
        sum += pt;
        sum2 += (double)pt * pt;
    }
    f->pt_mean = sum / S;
    f->pt_sd = sqrt(fmax(0.0, sum2 / S - f->pt_mean * f->pt_mean));
    free(rem);
    free(cdg);
    free(seen);
    free(queue);
    net_free(&net);
}

/* Our facts against fl_routing_analyze()'s. Returns 1 if they agree. */
static int agrees_with_analysis(const FlRouting *r, const Facts *f, char *why, size_t len)
{
    FlRoutingReport rep;
    FlError err = { 0 };
    if (fl_routing_analyze(r, &rep, &err)) {
        snprintf(why, len, "fl_routing_analyze: %.400s", err.message);
        return 0;
    }
    int ok = rep.connected == f->connected && rep.deadlock_free == f->deadlock_free
             && rep.ppt == f->ppt && fabs(rep.pt_mean - f->pt_mean) < 1e-9
             && fabs(rep.pt_sd - f->pt_sd) < 1e-9
             && (!f->connected || fabs(rep.avg_hops - f->avg_hops) < 1e-9);
    snprintf(why, len,
             "analysis: connected %d deadlock-free %d PT %.3f(%.3f) PPT %d hops %.4f; "
             "ours: %d %d %.3f(%.3f) %d %.4f",
             rep.connected, rep.deadlock_free, rep.pt_mean, rep.pt_sd, rep.ppt, rep.avg_hops,
             f->connected, f->deadlock_free, f->pt_mean, f->pt_sd, f->ppt, f->avg_hops);
    fl_routing_report_clear(&rep);
    return ok;
}

/* The brute-force checks of one routing, one TAP point each. */
static void check_sound(const FlRouting *r, const char *what, Facts *f)
{
    char why[512];
    brute_force(r, f);
    CHECK(f->connected, "%s: connected (%s)", what, f->why ? f->why : "ok");
    CHECK(f->deadlock_free, "%s: deadlock-free (%s)", what, f->why ? f->why : "ok");
    CHECK(f->shortest && f->well_formed, "%s: shortest legal paths, port order (%s)", what,
          f->why ? f->why : "ok");
    CHECK(agrees_with_analysis(r, f, why, sizeof why), "%s: %s", what, why);
}

/* ------------------------------------------------------------------------ */
/* Spanning tree, H/V graph, labels                                          */
/* ------------------------------------------------------------------------ */

/* Checks the tree (parents at depth - 1, depth = BFS distance from the root)
 * and, for L-/R-turn, the H/V coordinates and the direction labels; for
 * up* / down*, the up/down labels. Returns a problem or NULL. */
static const char *check_tree(const FlRouting *r, int hv)
{
    const FlTopology *t = fl_routing_topology(r);
    int S = fl_topology_switch_count(t);
    int root = fl_routing_root(r);
    if (!is_switch(t, root))
        return "the root is not a switch";
    int *bfs = malloc(sizeof(int) * (size_t)S);
    int *h = malloc(sizeof(int) * (size_t)S);
    int *v = malloc(sizeof(int) * (size_t)S);
    int *seen = calloc((size_t)S, sizeof(int));
    int *size = calloc((size_t)S, sizeof(int));
    const char *bad = NULL;
    fl_topology_bfs(t, fl_topology_node_rank(t, root), bfs, NULL);
    for (int s = 0; s < S && !bad; s++) {
        int sw = fl_topology_switch_node(t, s);
        int par = fl_routing_tree_parent(r, sw);
        if (sw == root ? par != -1 : !is_switch(t, par) || bfs[fl_topology_node_rank(t, par)] != bfs[s] - 1)
            bad = "a parent is not one step nearer the root";
        int has_hv = fl_routing_hv_coords(r, sw, &h[s], &v[s]) == FL_OK;
        if (has_hv != hv)
            bad = hv ? "no H/V coordinates" : "H/V coordinates on a routing without them";
        if (!hv)
            continue;
        if (v[s] != bfs[s])
            bad = "v is not the BFS depth";
        else if (h[s] < 0 || h[s] >= S || seen[h[s]]++)
            bad = "h is not a permutation of 0 .. S-1";
    }
    /* Preorder: a parent comes before its children, and every subtree
     * holds a contiguous range of h starting at its root. */
    if (hv && !bad) {
        for (int s = 0; s < S; s++)
            for (int x = fl_topology_switch_node(t, s); x >= 0; x = fl_routing_tree_parent(r, x))
                size[fl_topology_node_rank(t, x)]++;
        for (int s = 0; s < S && !bad; s++) {
            int sw = fl_topology_switch_node(t, s), par = fl_routing_tree_parent(r, sw);
            if (sw == root ? h[s] != 0 : h[fl_topology_node_rank(t, par)] >= h[s])
                bad = "h does not grow from parent to child";
            for (int x = fl_routing_tree_parent(r, sw); x >= 0 && !bad;
                 x = fl_routing_tree_parent(r, x)) {
                int xr = fl_topology_node_rank(t, x);
                if (h[s] < h[xr] || h[s] >= h[xr] + size[xr])
                    bad = "a subtree's h values are not contiguous (not a preorder)";
            }
        }
    }
    /* Labels from the rules. */
    static const char *const dirs[] = { "LU", "LD", "RU", "RD" };
    for (int c = 0; c < fl_topology_channel_count(t) && !bad; c++) {
        int a = fl_topology_channel_src(t, c), b = fl_topology_channel_dst(t, c);
        const char *label = fl_routing_channel_label(r, c);
        if (!is_switch(t, a) || !is_switch(t, b)) {
            if (label)
                bad = "a host channel has a label";
            continue;
        }
        int ar = fl_topology_node_rank(t, a), br = fl_topology_node_rank(t, b);
        const char *want;
        if (hv) {
            int left = h[ar] > h[br];
            int up = v[ar] > v[br] || (v[ar] == v[br] && h[ar] < h[br]);
            want = dirs[(left ? 0 : 2) + (up ? 0 : 1)];
        } else {
            want = bfs[br] < bfs[ar] || (bfs[br] == bfs[ar] && b < a) ? "up" : "down";
        }
        if (!label || strcmp(label, want) != 0)
            bad = "a channel label disagrees with the direction rule";
    }
    free(bfs);
    free(h);
    free(v);
    free(seen);
    free(size);
    return bad;
}

/* ------------------------------------------------------------------------ */
/* The tests                                                                */
/* ------------------------------------------------------------------------ */

/* Paper 002 Table 3: up* / down* on the 8x8 torus, for several roots (the
 * digest: the figures hold for every root). */
static void test_table3_updown(void)
{
    FlTopology *t = build("torus:8x8");
    if (!t)
        return;
    const int roots[] = { -1, 0, 9, 27, 45, 63 };
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        FlRouting *r = routing(t, "updown", roots[i]);
        if (!r)
            continue;
        Facts f;
        char what[64];
        snprintf(what, sizeof what, "updown torus:8x8 root %d", roots[i]);
        check_sound(r, what, &f);
        CHECK(fabs(f.pt_mean - 2.5) < 5e-4 && fabs(f.pt_sd - 2.264) < 5e-4 && f.ppt == 80,
              "%s: PT %.3f (SDPT %.3f), PPT %d; paper: 2.500 (2.264), 80", what, f.pt_mean,
              f.pt_sd, f.ppt);
        CHECK(roots[i] < 0 ? fl_routing_root(r) == 0 : fl_routing_root(r) == roots[i],
              "%s: the root is %d", what, fl_routing_root(r));
        const char *bad = check_tree(r, 0);
        CHECK(!bad, "%s: tree and up/down labels (%s)", what, bad ? bad : "ok");
        fl_routing_free(r);
    }
    fl_topology_free(t);
}

/* All five routings on the 8x8 torus: sound, H/V graph right, and L-turn's
 * PPT at most a quarter of up* / down*'s (paper: 17-20 against 80). */
static void test_torus_five(void)
{
    FlTopology *t = build("torus:8x8");
    if (!t)
        return;
    Facts f[N_PAPER];
    for (int k = 0; k < N_PAPER; k++) {
        FlRouting *r = routing(t, paper_routings[k], -1);
        if (!r) {
            memset(&f[k], 0, sizeof f[k]);
            continue;
        }
        char what[64];
        snprintf(what, sizeof what, "%s torus:8x8", paper_routings[k]);
        check_sound(r, what, &f[k]);
        if (k > 0) {
            const char *bad = check_tree(r, 1);
            CHECK(!bad, "%s: H/V coordinates and labels (%s)", what, bad ? bad : "ok");
        }
        printf("# %-12s torus:8x8  PT %.3f (SDPT %.3f)  PPT %d  avg hops %.3f\n",
               paper_routings[k], f[k].pt_mean, f[k].pt_sd, f[k].ppt, f[k].avg_hops);
        fl_routing_free(r);
    }
    for (int k = 1; k < N_PAPER; k++)
        CHECK(4 * f[k].ppt <= f[0].ppt, "%s torus:8x8: PPT %d <= updown's %d / 4",
              paper_routings[k], f[k].ppt, f[0].ppt);
    fl_topology_free(t);
}

/* The five routings on N_IRREGULAR random 64-switch networks of paper 002's
 * shape; one TAP point per routing and property, naming the first seed that
 * fails. */
static void test_irregular(void)
{
    int first_bad[N_PAPER][5];
    double pt[N_PAPER] = { 0 }, sd[N_PAPER] = { 0 }, ppt[N_PAPER] = { 0 };
    int built = 0;
    char first_why[N_PAPER][600];
    for (int k = 0; k < N_PAPER; k++) {
        for (int p = 0; p < 5; p++)
            first_bad[k][p] = -1;
        first_why[k][0] = '\0';
    }
    for (int seed = 1; seed <= N_IRREGULAR; seed++) {
        char spec[64];
        snprintf(spec, sizeof spec, "irregular:64,ports=4,hosts=4,seed=%d", seed);
        FlTopology *t = build(spec);
        if (!t)
            continue;
        built++;
        for (int k = 0; k < N_PAPER; k++) {
            FlRouting *r = routing(t, paper_routings[k], -1);
            if (!r)
                continue;
            Facts f;
            char why[512];
            brute_force(r, &f);
            int ok[5] = { f.connected, f.deadlock_free, f.shortest && f.well_formed,
                          agrees_with_analysis(r, &f, why, sizeof why),
                          k == 0 || !check_tree(r, 1) };
            for (int p = 0; p < 5; p++)
                if (!ok[p] && first_bad[k][p] < 0) {
                    first_bad[k][p] = seed;
                    if (p == 3)
                        snprintf(first_why[k], sizeof first_why[k], "%s", why);
                }
            pt[k] += f.pt_mean;
            sd[k] += f.pt_sd;
            ppt[k] += f.ppt;
            fl_routing_free(r);
        }
        fl_topology_free(t);
    }
    CHECK_INT(built, N_IRREGULAR);
    static const char *const property[] = { "connected", "deadlock-free",
                                            "shortest legal paths", "agrees with the analysis",
                                            "H/V coordinates and labels" };
    for (int k = 0; k < N_PAPER; k++) {
        for (int p = 0; p < 5; p++)
            CHECK(first_bad[k][p] < 0, "%s on %d irregular networks: %s (first failing seed %d%s%s)",
                  paper_routings[k], N_IRREGULAR, property[p], first_bad[k][p],
                  p == 3 && first_why[k][0] ? ": " : "", p == 3 ? first_why[k] : "");
        printf("# %-12s irregular mean of %d: PT %.3f (SDPT %.3f)  PPT %.1f\n",
               paper_routings[k], built, pt[k] / built, sd[k] / built, ppt[k] / built);
    }
    /* Paper 002 Table 2: about 19-21 against 97. */
    for (int k = 1; k < N_PAPER; k++)
        CHECK(ppt[k] < 0.4 * ppt[0], "%s: mean PPT %.1f well below updown's %.1f",
              paper_routings[k], ppt[k] / built, ppt[0] / built);
}

/* shortest has a dependency cycle on a ring; up* / down* does not. */
static void test_ring(void)
{
    FlTopology *t = build("ring:8");
    if (!t)
        return;
    FlRouting *r = routing(t, "shortest", -1);
    if (r) {
        Facts f;
        char why[512];
        brute_force(r, &f);
        CHECK(f.connected && f.shortest && !f.deadlock_free,
              "shortest ring:8: connected, minimal, with a CDG cycle (%s)",
              f.why ? f.why : "no cycle found");
        CHECK(f.ppt == 0 && f.pt_mean == 0, "shortest ring:8: no prohibited turns");
        CHECK(agrees_with_analysis(r, &f, why, sizeof why), "shortest ring:8: %s", why);
        fl_routing_free(r);
    }
    r = routing(t, "updown", -1);
    if (r) {
        Facts f;
        check_sound(r, "updown ring:8", &f);
        fl_routing_free(r);
    }
    fl_topology_free(t);

    /* A ring long enough that up* / down* routes exceed 254 hops: the table
     * switches to two bytes per entry. Switches 299 -> 301 go over the
     * root: 299 up, 299 down. */
    t = build("ring:600,hosts=0");
    if (!t)
        return;
    r = routing(t, "updown", 0);
    if (r) {
        Facts f;
        check_sound(r, "updown ring:600", &f);
        int *path = NULL, n = 0;
        FlError err = { 0 };
        int rc = fl_routing_path(r, fl_topology_switch_node(t, 299),
                                 fl_topology_switch_node(t, 301), FL_SELECT_LOWEST_PORT, NULL,
                                 &path, &n, &err);
        CHECK(rc == FL_OK && n == 598, "updown ring:600 299 -> 301 takes %d hops, want 598 (%s)",
              n, rc ? err.message : "ok");
        free(path);
        fl_routing_free(r);
    }
    fl_topology_free(t);
}

/* Every (switch, arriving channel or injection, destination) gets the same
 * choices from both routings. */
static int same_routes(const FlRouting *a, const FlRouting *b)
{
    const FlTopology *t = fl_routing_topology(a);
    FlRouteChoice ca[FL_ROUTE_MAX_CHOICES], cb[FL_ROUTE_MAX_CHOICES];
    int S = fl_topology_switch_count(t);
    for (int s = 0; s < S; s++) {
        int sw = fl_topology_switch_node(t, s);
        for (int p = -1; p < fl_topology_node_ports(t, sw); p++) {
            int in = p < 0 ? -1 : out_channel(t, sw, p);
            if (p >= 0 && in < 0)
                continue;
            if (in >= 0)
                in ^= 1;  /* the channel arriving on port p */
            for (int d = 0; d < S; d++) {
                int dest = fl_topology_switch_node(t, d);
                int na = fl_routing_next(a, sw, in, 0, dest, ca, FL_ROUTE_MAX_CHOICES);
                int nb = fl_routing_next(b, sw, in, 0, dest, cb, FL_ROUTE_MAX_CHOICES);
                if (na != nb || memcmp(ca, cb, sizeof ca[0] * (size_t)na) != 0)
                    return 0;
            }
        }
    }
    return 1;
}

static void test_turnset(void)
{
    const char *specs[] = { "torus:8x8", "irregular:64,ports=4,hosts=4,seed=7" };
    for (int i = 0; i < 2; i++) {
        FlTopology *t = build(specs[i]);
        if (!t)
            continue;
        FlRouting *ud = routing(t, "updown", -1), *ts = NULL;
        FlTurn *turns = NULL;
        int n = 0;
        FlError err = { 0 };
        if (ud && fl_routing_prohibited_turns(ud, &turns, &n, &err) == FL_OK) {
            FlRoutingOptions opt = { .root = -1, .prohibited = turns, .n_prohibited = n };
            int rc = fl_routing_new(t, "turnset", &opt, &ts, &err);
            CHECK(rc == FL_OK, "turnset with updown's %d turns on %s (%s)", n, specs[i],
                  rc ? err.message : "ok");
        }
        if (ts) {
            CHECK(same_routes(ud, ts), "turnset = updown on %s", specs[i]);
            FlTurn *again = NULL;
            int m = 0;
            fl_routing_prohibited_turns(ts, &again, &m, NULL);
            CHECK(m == n && again && memcmp(again, turns, sizeof *turns * (size_t)n) == 0,
                  "turnset on %s prohibits exactly the turns it was given (%d, want %d)",
                  specs[i], m, n);
            CHECK(fl_routing_channel_label(ts, 0) == NULL && fl_routing_root(ts) == -1,
                  "turnset has no labels and no root");
            free(again);
        }
        free(turns);
        fl_routing_free(ts);
        fl_routing_free(ud);
        fl_topology_free(t);
    }
}

/* A turnset message must name the problem; returns whether it does. */
static void refuse_turn(const FlTopology *t, FlTurn turn, const char *want, const char *what)
{
    FlRoutingOptions opt = { .root = -1, .prohibited = &turn, .n_prohibited = 1 };
    FlRouting *r = NULL;
    FlError err = { 0 };
    int rc = fl_routing_new(t, "turnset", &opt, &r, &err);
    CHECK(rc == FL_EINVAL && !r && strstr(err.message, want),
          "turnset refuses %s: \"%s\"", what, err.message);
    fl_routing_free(r);
}

static void test_bad_input(void)
{
    /* mesh:4x4: switch 0 uses ports 0 (+x) and 2 (+y); 1 and 3 are free
     * (off the grid); port 4 holds its host, node 16. */
    FlTopology *t = build("mesh:4x4");
    if (!t)
        return;
    refuse_turn(t, (FlTurn){ 16, 0, 0 }, "16 is not a switch", "a host");
    refuse_turn(t, (FlTurn){ 99, 0, 2 }, "99 is not a switch", "a node out of range");
    refuse_turn(t, (FlTurn){ 5, 0, 7 }, "switch 5 has ports 0 to 4", "a port out of range");
    refuse_turn(t, (FlTurn){ 5, 2, 2 }, "two different ports", "in == out");
    refuse_turn(t, (FlTurn){ 0, 1, 2 }, "port 1 of switch 0 has no link to another switch",
                "a free port");
    refuse_turn(t, (FlTurn){ 0, 0, 4 }, "port 4 of switch 0 has no link to another switch",
                "a host port");
    FlRoutingOptions opt = { .root = -1, .n_prohibited = 3 };
    FlRouting *r = NULL;
    FlError err = { 0 };
    CHECK(fl_routing_new(t, "turnset", &opt, &r, &err) == FL_EINVAL && !r,
          "turnset refuses a count without a list: \"%s\"", err.message);
    FlRoutingOptions vcs = { .root = -1, .vc_classes = 2 };
    for (int k = 0; k < N_PAPER; k++) {
        int rc = fl_routing_new(t, paper_routings[k], &vcs, &r, &err);
        CHECK(rc == FL_EUNSUPPORTED && !r && strstr(err.message, "single VC class"),
              "%s refuses 2 VC classes: \"%s\"", paper_routings[k], err.message);
    }
    CHECK(fl_routing_hv_coords(NULL, 0, NULL, NULL) == FL_EUNSUPPORTED, "no H/V without a routing");
    fl_topology_free(t);

    /* A turn set that cuts the network: every turn at switch 1 of a line
     * prohibited leaves 0 and 2 apart. */
    t = build("line:3");
    if (!t)
        return;
    FlTurn cut[2] = { { 1, 0, 1 }, { 1, 1, 0 } };
    FlRoutingOptions copt = { .root = -1, .prohibited = cut, .n_prohibited = 2 };
    if (fl_routing_new(t, "turnset", &copt, &r, &err) == FL_OK) {
        Facts f;
        brute_force(r, &f);
        CHECK(!f.connected && f.shortest, "a cutting turnset is reported not connected");
        FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
        CHECK_INT(fl_routing_next(r, 0, -1, 0, 2, ch, FL_ROUTE_MAX_CHOICES), 0);
        CHECK_INT(fl_routing_next(r, 0, -1, 0, 1, ch, FL_ROUTE_MAX_CHOICES), 1);
        fl_routing_free(r);
    } else {
        CHECK(0, "turnset on line:3: %s", err.message);
    }
    fl_topology_free(t);
}

/* The default root: fewest crossing paths (betweenness), then least total
 * distance, then lowest id. On this graph switches 0, 2 and 4 lie on no
 * shortest path between others, and 2 is the nearest to the rest:
 *
 *     0 - 1 - 2
 *          \  |
 *           - 3 - 4
 */
static void test_default_root(void)
{
    FlTopology *t = fl_topology_new();
    int ids[5];
    for (int i = 0; i < 5; i++)
        fl_topology_add_node(t, FL_NODE_SWITCH, 4, &ids[i], NULL);
    const int edges[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 1, 3 }, { 3, 4 } };
    for (int e = 0; e < 5; e++)
        fl_topology_connect(t, edges[e][0], -1, edges[e][1], -1, NULL, NULL);
    for (int k = 0; k < N_PAPER; k++) {
        FlRouting *r = routing(t, paper_routings[k], -1);
        if (!r)
            continue;
        CHECK(fl_routing_root(r) == 2, "%s: the default root is %d, want 2", paper_routings[k],
              fl_routing_root(r));
        fl_routing_free(r);
    }
    fl_topology_free(t);

    t = build("line:5");
    if (!t)
        return;
    FlRouting *r = routing(t, "updown", -1);
    if (r)
        CHECK(fl_routing_root(r) == 0, "updown line:5: the default root is %d, want 0 (an end)",
              fl_routing_root(r));
    fl_routing_free(r);
    fl_topology_free(t);
}

typedef struct Progress {
    int calls;
    double last;
    int monotone;
    int stop_after;
} Progress;

static int on_progress(void *data, double fraction)
{
    Progress *p = data;
    if (fraction < p->last || fraction < 0 || fraction > 1)
        p->monotone = 0;
    p->last = fraction;
    return ++p->calls == p->stop_after;
}

static void test_progress(void)
{
    FlTopology *t = build("torus:16x16");
    if (!t)
        return;
    for (int k = 0; k < N_PAPER; k += 1) {
        Progress p = { .monotone = 1 };
        FlRoutingOptions opt = { .root = -1, .progress = on_progress, .progress_data = &p };
        FlRouting *r = NULL;
        FlError err = { 0 };
        int rc = fl_routing_new(t, paper_routings[k], &opt, &r, &err);
        CHECK(rc == FL_OK && p.calls > 10 && p.monotone && p.last == 1.0,
              "%s torus:16x16: progress called %d times, monotone, ending at 1 (%g)",
              paper_routings[k], p.calls, p.last);
        fl_routing_free(r);
        r = NULL;
        Progress stop = { .monotone = 1, .stop_after = 5 };
        opt.progress_data = &stop;
        rc = fl_routing_new(t, paper_routings[k], &opt, &r, &err);
        CHECK(rc == FL_ECANCELLED && !r, "%s: cancelled by the progress callback (%s)",
              paper_routings[k], err.message);
        fl_routing_free(r);
    }
    fl_topology_free(t);
}

/* The table's rows are filled 64 destinations at a time while their
 * searches share enough, else one at a time: irregular:100 takes a batch of
 * 64 and one of 36, up* / down* on mesh:20x20 six of 64 and one of 16, and
 * unrestricted shortest paths on mesh:20x20 spread too far after the first
 * batch, so that its other 336 rows are searched one by one. */
static void test_batched_rows(void)
{
    static const struct {
        const char *spec, *routing;
    } cases[] = {
        { "irregular:100,ports=6,hosts=2,seed=3", "updown" },
        { "irregular:100,ports=6,hosts=2,seed=3", "lturn-alpha" },
        { "irregular:100,ports=6,hosts=2,seed=3", "rturn-beta" },
        { "mesh:20x20", "updown" },
        { "mesh:20x20", "shortest" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        FlTopology *t = build(cases[k].spec);
        FlRouting *r = t ? routing(t, cases[k].routing, -1) : NULL;
        if (r) {
            Facts f;
            char why[512];
            brute_force(r, &f);
            CHECK(f.connected && f.shortest && f.well_formed,
                  "%s on %s: connected, shortest legal paths (%s)", cases[k].routing,
                  cases[k].spec, f.why ? f.why : "ok");
            CHECK(agrees_with_analysis(r, &f, why, sizeof why), "%s on %s: %s",
                  cases[k].routing, cases[k].spec, why);
        }
        fl_routing_free(r);
        fl_topology_free(t);
    }
}

int main(void)
{
    test_table3_updown();
    test_torus_five();
    test_ring();
    test_turnset();
    test_bad_input();
    test_default_root();
    test_progress();
    test_irregular();
    test_batched_rows();
    return tap_done();
}
