/* route-lrturn.c — L-turn and R-turn routing (paper 002 §3): a 2-D turn
 * model on the H/V graph of a BFS spanning tree.
 *
 * READING OF THE PAPER
 *
 * H/V graph. A switch's coordinate is (h, v): v its depth in the BFS
 * spanning tree of route-updown.c (children in port order), h its preorder
 * index in a depth-first walk of that tree that also visits children in
 * port order, counting from 0 at the root. The paper needs h to grow from
 * parent to child and to differ between switches of one depth; preorder
 * gives both, and the port order is our choice where the paper is silent.
 *
 * Directions (Table 1). A channel from (xs, ys) to (xd, yd) is left when
 * xs > xd and right when xs < xd (never equal: h is a permutation). It is
 * up when ys > yd, or ys == yd and xs < xd; down otherwise. So a channel
 * between two switches of one depth is RU going right and LD going left;
 * a tree channel is RD from parent to child and LU back. The reverse of an
 * LU channel is RD, the reverse of LD is RU.
 *
 * Turns are named by the directions of the arriving and leaving channels,
 * T(in, out). A packet never leaves by the port it came in on. Turns
 * between two channels of one direction (LU -> LU, ...) are never
 * prohibited: h changes monotonically along such a chain, so it cannot
 * close a cycle.
 *
 *   variant       always prohibited              conditional (search order)
 *   lturn-alpha   P1 = LD>LU, RU>LU, RD>LU       P1'  : LD>RD, then LD>RU
 *   lturn-beta    P1                             P1'' : RU>RD, then RU>LD
 *   rturn-alpha   P2 = RD>RU, RD>LD, RD>LU       P2'  : LU>RU, then LD>RU
 *   rturn-beta    P2                             P2'' : LU>LD, then RU>LD
 *
 * LU -> RD is never prohibited, so the tree path (LU up to the common
 * ancestor, RD down) is always legal and every routing is connected.
 * The paper's §3.2.4 runs "procedure 1" (T(LD,RD), condition (a)) before
 * "procedure 2" (T(LD,RU), condition (b)) for P1'; for the other three sets
 * it only says "replace the turns". We keep the paper's shape: the turn
 * whose leaving direction is the tree's own RD (or, for R-turn, whose
 * arriving direction is the tree's LU) is searched first.
 *
 * The cycle search (§3.2.4). A conditional turn T(a, b) is prohibited at a
 * switch X only where it closes a cycle that the always-prohibited set does
 * not break. For every switch X in increasing h (the paper says "in order"
 * and leaves the order open; left to right over the H/V graph is the
 * natural one), for each of the two conditional turns in the order above,
 * and for each channel e0 of direction b leaving X (port order) while X
 * also has an arriving channel of direction a on another port: search
 * depth-first over channels from e0. A channel may follow another when the
 * turn between them is not prohibited: neither always prohibited nor a
 * conditional turn prohibited by an earlier search. Channels are marked
 * when reached and the marks are reset for every start channel (with
 * marks kept across starts, a channel reached from one start would hide
 * the cycles of the next, and the result could deadlock). Every channel of
 * direction a that arrives back at X on a port other than e0's closes a
 * cycle through T(a, b): that turn, from its port to e0's, is prohibited.
 * The search of one start stops early once every such channel has been
 * found.
 *
 * Why the result is deadlock-free, whatever the order: take a cycle of the
 * final channel dependency graph. Under P1 it has no LU channel (every turn
 * into LU is prohibited), and channels of a single direction cannot close a
 * cycle, so it makes some conditional turn T(a, b) at some switch X (for
 * P1 + P1': leaving LD, the only way out of LD; LD-free cycles use RU and
 * RD only, along which h only grows). When X's search from that b channel
 * ran, every turn of the cycle was allowed (prohibitions only accumulate,
 * and the cycle's turns are allowed at the end), so the search reached the
 * cycle's a channel into X and prohibited the turn — a contradiction. The
 * same argument holds for the three other sets (each was checked to leave
 * no cycle among the directions when fully prohibited), and the tests check
 * the channel dependency graph directly.
 *
 * The root is chosen as for up* / down* (route-updown.c: fewest crossing
 * paths read as betweenness, then least mean distance, then lowest id).
 *
 * Cost: one search per start channel, each O(C * ports) for C channels:
 * O(C^2 * ports) at worst, the paper's O(n^2 * l). Routes are then the
 * shortest legal paths with lowest-port selection (route-table.c).
 *
 * What this reading gives (tests/test-routing-tables.c prints it). On the
 * 8x8 torus all four variants prohibit 160 turns, PT 2.500 (SDPT 1.531),
 * PPT 15, against up* / down*'s 2.500 (2.264), 80; the paper reports
 * 2.625-2.641 (1.789-2.012), 17-20. Visiting the switches by node id instead
 * of h, or running the two procedures the other way round, changes none of
 * these figures. Over 100 random irregular:64,ports=4,hosts=4 networks the
 * means are close to the paper's Table 2: up* / down* 3.075 (3.813), 98.4;
 * lturn-alpha 2.930 (2.279), 19.2; lturn-beta 3.006 (2.101), 18.5;
 * rturn-alpha 2.926 (2.273), 19.0; rturn-beta 3.006 (2.102), 18.5.
 */
#include <stdlib.h>
#include <string.h>

#include "route-table.h"

enum { HV_LU, HV_LD, HV_RU, HV_RD };
static const char *const hv_labels[] = { "LU", "LD", "RU", "RD" };

typedef struct LrTurn {
    uint8_t in, out;     /* directions of the arriving and leaving channels */
} LrTurn;

typedef struct LrVariant {
    LrTurn always[3];
    LrTurn cond[2];      /* in search order */
} LrVariant;

#define P1 { { HV_LD, HV_LU }, { HV_RU, HV_LU }, { HV_RD, HV_LU } }
#define P2 { { HV_RD, HV_RU }, { HV_RD, HV_LD }, { HV_RD, HV_LU } }

static const LrVariant lturn_alpha = { P1, { { HV_LD, HV_RD }, { HV_LD, HV_RU } } };
static const LrVariant lturn_beta = { P1, { { HV_RU, HV_RD }, { HV_RU, HV_LD } } };
static const LrVariant rturn_alpha = { P2, { { HV_LU, HV_RU }, { HV_LD, HV_RU } } };
static const LrVariant rturn_beta = { P2, { { HV_LU, HV_LD }, { HV_RU, HV_LD } } };

/* Table 1 of the paper. */
static uint8_t hv_direction(int xs, int ys, int xd, int yd)
{
    int left = xs > xd;
    int up = ys > yd || (ys == yd && xs < xd);
    return left ? (up ? HV_LU : HV_LD) : (up ? HV_RU : HV_RD);
}

/* Scratch for the cycle search, over dense channel indices.
 *
 * A direction-a channel c into X with T(a, b) still allowed into e0 is
 * reached from e0 exactly when c and e0 lie on one cycle of the graph of
 * allowed turns, that is in one strongly connected component of it; and
 * since prohibitions only ever remove turns, components only ever split. So
 * the search keeps the components of some earlier state of the graph (comp)
 * and never leaves e0's component, nor waits for a channel outside it:
 * neither changes what the search finds, which is what the paper's search
 * finds, but on a large network most searches then stay within a small
 * component instead of wandering over the whole network. The components
 * are found again (Tarjan, O(C * ports)) whenever the searches since the
 * last time have examined as many turns as that does and have prohibited
 * some turn, which keeps the components fresh for at most twice the cost of
 * the searches. */
typedef struct LrSearch {
    FlRouteTable *tab;
    const uint8_t *dir;  /* per channel id */
    int *stamp;          /* per dense channel: the start that reached it */
    int mark;
    int *stack;
    /* Per dense channel: the switch it arrives at and its port there. */
    int *at, *in_port;
    /* Per switch node: its switch ports and their dense channels, port
     * order, at out_port[out_off[n] .. out_off[n + 1]). */
    int *out_off, *out_port, *out_chan;
    int *comp;           /* per dense channel: its component in the last count */
    int64_t edges;       /* allowed or not: what a count of components examines */
    int64_t work;        /* turns the searches examined since that count */
    int64_t prohibited;  /* turns they prohibited since */
    int *arc_off, *arc;  /* the allowed turns, as lists for the count */
    /* Hops from every switch (by rank) back to switch x, for the order the
     * search tries continuations in: nearest to x first, so that the
     * channels closing short cycles are found, and the search ended, early.
     * The order changes what is visited first, never what is reachable. */
    FlSwitchGraph g;
    int x;               /* the switch xdist is for, -1 for none yet */
    int *xdist, *bfs_queue;
} LrSearch;

/* The strongly connected components of the allowed turns into s->comp.
 * Returns FL_ENOMEM when out of memory. */
static int count_components(LrSearch *s)
{
    FlRouteTable *tab = s->tab;
    int n = tab->n_chan, k = 0;
    for (int i = 0; i < n; i++) {
        int sw = s->at[i], pi = s->in_port[i];
        s->arc_off[i] = k;
        for (int j = s->out_off[sw]; j < s->out_off[sw + 1]; j++)
            if (s->out_port[j] != pi && !fl__table_is_prohibited(tab, sw, pi, s->out_port[j]))
                s->arc[k++] = s->out_chan[j];
    }
    s->arc_off[n] = k;
    s->work = 0;
    s->prohibited = 0;
    return fl__strong_components(n, s->arc_off, s->arc, s->comp, NULL) < 0 ? FL_ENOMEM : FL_OK;
}

/* The search from channel e0 (dense) leaving switch x, for turn T(a, b)
 * with e0 of direction b: prohibits T(a, b) from every direction-a channel
 * that gets back to x. */
static int search_from(LrSearch *s, int x, int e0, uint8_t a)
{
    FlRouteTable *tab = s->tab;
    const FlTopology *t = tab->t;
    if (s->prohibited > 0 && s->work >= s->edges && count_components(s))
        return FL_ENOMEM;
    int po = tab->chan_port[e0], ce = s->comp[e0];
    /* The channels that could close a cycle, still allowed into e0. */
    int pending = 0;
    for (int p = 0; p < t->nports[x]; p++) {
        if (p == po || !fl__switch_port(t, x, p))
            continue;
        int c = fl__out_channel(t, x, p) ^ 1;
        if (s->dir[c] == a && s->comp[tab->chan_index[c]] == ce
            && !fl__table_is_prohibited(tab, x, p, po))
            pending++;
    }
    if (!pending)
        return FL_OK;
    if (s->x != x) {
        fl__switch_graph_bfs(&s->g, t->rank[x], s->xdist, s->bfs_queue);
        s->x = x;
    }
    int mark = ++s->mark, top = 0;
    s->stamp[e0] = mark;
    s->stack[top++] = e0;
    while (top > 0) {
        int i = s->stack[--top];
        int sw = s->at[i], pi = s->in_port[i];
        s->work += s->out_off[sw + 1] - s->out_off[sw];
        if (sw == x && s->dir[tab->chan_id[i]] == a && pi != po
            && !fl__table_is_prohibited(tab, x, pi, po)) {
            fl__table_prohibit(tab, x, pi, po);
            s->prohibited++;
            if (--pending == 0)
                return FL_OK;
        }
        /* Pushed farthest first, so that the nearest is taken next. */
        int first = top;
        for (int k = s->out_off[sw]; k < s->out_off[sw + 1]; k++) {
            int p = s->out_port[k], j = s->out_chan[k];
            if (p == pi || s->stamp[j] == mark || s->comp[j] != ce
                || fl__table_is_prohibited(tab, sw, pi, p))
                continue;
            s->stamp[j] = mark;
            int d = s->xdist[t->rank[s->at[j]]], m = top++;
            for (; m > first && s->xdist[t->rank[s->at[s->stack[m - 1]]]] < d; m--)
                s->stack[m] = s->stack[m - 1];
            s->stack[m] = j;
        }
    }
    return FL_OK;
}

static void search_free(LrSearch *s)
{
    free(s->stamp);
    free(s->stack);
    free(s->at);
    free(s->in_port);
    free(s->out_off);
    free(s->out_port);
    free(s->out_chan);
    free(s->comp);
    free(s->arc_off);
    free(s->arc);
    free(s->xdist);
    free(s->bfs_queue);
    fl__switch_graph_free(&s->g);
}

static int search_init(LrSearch *s, FlRouteTable *tab, const uint8_t *dir)
{
    const FlTopology *t = tab->t;
    size_t n = (size_t)tab->n_chan + 1;
    memset(s, 0, sizeof *s);
    s->tab = tab;
    s->dir = dir;
    s->stamp = calloc(n, sizeof *s->stamp);
    s->stack = malloc(sizeof *s->stack * n);
    s->at = malloc(sizeof *s->at * n);
    s->in_port = malloc(sizeof *s->in_port * n);
    s->out_off = malloc(sizeof *s->out_off * ((size_t)t->n_nodes + 1));
    s->out_port = malloc(sizeof *s->out_port * n);
    s->out_chan = malloc(sizeof *s->out_chan * n);
    s->comp = malloc(sizeof *s->comp * n);
    s->arc_off = malloc(sizeof *s->arc_off * n);
    s->x = -1;
    s->xdist = malloc(sizeof *s->xdist * ((size_t)t->n_switches + 1));
    s->bfs_queue = malloc(sizeof *s->bfs_queue * ((size_t)t->n_switches + 1));
    if (!s->xdist || !s->bfs_queue || fl__switch_graph_build(t, &s->g))
        return FL_ENOMEM;
    if (!s->stamp || !s->stack || !s->at || !s->in_port || !s->out_off || !s->out_port
        || !s->out_chan || !s->comp || !s->arc_off)
        return FL_ENOMEM;
    for (int i = 0; i < tab->n_chan; i++) {
        int c = tab->chan_id[i];
        s->at[i] = fl__chan_dst(t, c);
        s->in_port[i] = fl__in_port(t, c);
    }
    int k = 0;
    for (int nd = 0; nd < t->n_nodes; nd++) {
        s->out_off[nd] = k;
        for (int p = 0; t->kind[nd] == FL_NODE_SWITCH && p < t->nports[nd]; p++)
            if (fl__switch_port(t, nd, p)) {
                s->out_port[k] = p;
                s->out_chan[k++] = tab->chan_index[fl__out_channel(t, nd, p)];
            }
    }
    s->out_off[t->n_nodes] = k;
    for (int i = 0; i < tab->n_chan; i++)
        s->edges += s->out_off[s->at[i] + 1] - s->out_off[s->at[i]];
    s->arc = malloc(sizeof *s->arc * ((size_t)s->edges + 1));
    return s->arc ? FL_OK : FL_ENOMEM;
}

/* Whether switch x has a channel of direction a arriving on some port and
 * one of direction b leaving by another (the turn T(a, b) can form). */
static int turn_can_form(const FlTopology *t, const uint8_t *dir, int x, LrTurn turn)
{
    for (int p = 0; p < t->nports[x]; p++) {
        if (!fl__switch_port(t, x, p) || dir[fl__out_channel(t, x, p) ^ 1] != turn.in)
            continue;
        for (int q = 0; q < t->nports[x]; q++)
            if (q != p && fl__switch_port(t, x, q) && dir[fl__out_channel(t, x, q)] == turn.out)
                return 1;
    }
    return 0;
}

/* Prohibits the always-prohibited set, then the conditional turns that the
 * search finds closing a cycle. by_h lists the switches in increasing h. */
static int prohibit_turns(FlRouteTable *tab, const LrVariant *var, const uint8_t *dir,
                          const int *by_h, const FlRoutingOptions *opt, FlError *err)
{
    const FlTopology *t = tab->t;
    for (int i = 0; i < t->n_switches; i++) {
        int sw = t->switch_nodes[i];
        for (int a = 0; a < t->nports[sw]; a++) {
            if (!fl__switch_port(t, sw, a))
                continue;
            uint8_t din = dir[fl__out_channel(t, sw, a) ^ 1];
            for (int b = 0; b < t->nports[sw]; b++) {
                if (b == a || !fl__switch_port(t, sw, b))
                    continue;
                uint8_t dout = dir[fl__out_channel(t, sw, b)];
                for (int k = 0; k < 3; k++)
                    if (var->always[k].in == din && var->always[k].out == dout)
                        fl__table_prohibit(tab, sw, a, b);
            }
        }
    }

    LrSearch s;
    int rc = FL_OK;
    if (search_init(&s, tab, dir) || count_components(&s)) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the H/V graph");
        goto free_search;
    }
    int step = t->n_switches / 100 > 0 ? t->n_switches / 100 : 1;
    for (int i = 0; i < t->n_switches; i++) {
        int x = by_h[i];
        /* The search takes about as long as the table on large networks:
         * it reports the first half of the progress. */
        if (opt->progress && i % step == 0
            && opt->progress(opt->progress_data, 0.5 * i / t->n_switches)) {
            rc = fl_error_set(err, FL_ECANCELLED, "routing table construction cancelled");
            goto free_search;
        }
        for (int k = 0; k < 2; k++) {
            LrTurn turn = var->cond[k];
            if (!turn_can_form(t, dir, x, turn))
                continue;
            for (int p = 0; p < t->nports[x]; p++) {
                if (!fl__switch_port(t, x, p))
                    continue;
                int c = fl__out_channel(t, x, p);
                if (dir[c] == turn.out && search_from(&s, x, tab->chan_index[c], turn.in)) {
                    rc = fl_error_set(err, FL_ENOMEM, "out of memory for the H/V graph");
                    goto free_search;
                }
            }
        }
    }
free_search:
    search_free(&s);
    return rc;
}

static int lrturn_init(FlRouting *r, const FlRoutingOptions *opt, const LrVariant *var,
                       FlError *err)
{
    const FlTopology *t = r->t;
    FlRouteTable *tab;
    int rc = fl__table_new(r, opt, &tab, err);
    if (rc)
        return rc;
    /* r owns hv_v and hv_h from here, so routing.c frees them on failure. */
    rc = fl__tree_routing_setup(r, opt, &r->hv_v, &r->hv_h, err);
    if (rc)
        return rc;
    int *by_h = malloc(sizeof *by_h * ((size_t)t->n_switches + 1));
    tab->label = malloc(2 * (size_t)t->n_links + 1);
    if (!by_h || !tab->label) {
        free(by_h);
        return fl_error_set(err, FL_ENOMEM, "out of memory for the H/V graph");
    }
    tab->label_names = hv_labels;
    for (int i = 0; i < t->n_switches; i++) {
        int sw = t->switch_nodes[i];
        by_h[r->hv_h[sw]] = sw;
    }
    /* Host channels get a label byte too (never shown): it keeps the array
     * indexed by channel id. */
    for (int c = 0; c < 2 * t->n_links; c++) {
        int a = fl__chan_src(t, c), b = fl__chan_dst(t, c);
        tab->label[c] = t->kind[a] == FL_NODE_SWITCH && t->kind[b] == FL_NODE_SWITCH
                            ? hv_direction(r->hv_h[a], r->hv_v[a], r->hv_h[b], r->hv_v[b])
                            : HV_LU;
    }
    rc = prohibit_turns(tab, var, tab->label, by_h, opt, err);
    free(by_h);
    return rc ? rc : fl__table_build(tab, opt, 0.5, err);
}

static int lturn_alpha_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    return lrturn_init(r, opt, &lturn_alpha, err);
}

static int lturn_beta_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    return lrturn_init(r, opt, &lturn_beta, err);
}

static int rturn_alpha_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    return lrturn_init(r, opt, &rturn_alpha, err);
}

static int rturn_beta_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    return lrturn_init(r, opt, &rturn_beta, err);
}

const FlRoutingAlgo fl__route_lturn_alpha =
    FL__TABLE_ROW("lturn-alpha", FL_N_("L-turn/alpha: left-up first on the H/V graph (P1 + P1')"),
                  FL_N_("any network"), FL__OPTIONS(&fl__routing_option_root), lturn_alpha_init);
const FlRoutingAlgo fl__route_lturn_beta =
    FL__TABLE_ROW("lturn-beta", FL_N_("L-turn/beta: left-up first on the H/V graph (P1 + P1'')"),
                  FL_N_("any network"), FL__OPTIONS(&fl__routing_option_root), lturn_beta_init);
const FlRoutingAlgo fl__route_rturn_alpha =
    FL__TABLE_ROW("rturn-alpha", FL_N_("R-turn/alpha: right-down last on the H/V graph (P2 + P2')"),
                  FL_N_("any network"), FL__OPTIONS(&fl__routing_option_root), rturn_alpha_init);
const FlRoutingAlgo fl__route_rturn_beta =
    FL__TABLE_ROW("rturn-beta", FL_N_("R-turn/beta: right-down last on the H/V graph (P2 + P2'')"),
                  FL_N_("any network"), FL__OPTIONS(&fl__routing_option_root), rturn_beta_init);
