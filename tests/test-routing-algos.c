/* test-routing-algos.c — the algorithmic routings: dor (meshes, tori with
 * their dateline, hypercubes by e-cube), the turn model (west-first,
 * north-last, negative-first, odd-even), XMESH and DMESH self-routing, and
 * myrinet-dor.
 *
 * Minimality is checked state by state: for each destination, starting
 * from injection at every switch, every state a packet can reach (switch,
 * input channel, class) is visited, and every choice next() offers there
 * must lead one hop nearer the destination by breadth-first distance. Then
 * any sequence of choices from any source arrives in exactly the BFS
 * distance; the lowest-port route is followed as well. Many pairs make one
 * test point: a point says how many states it checked and names the first
 * failure.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab.h"
#include "tap.h"

/* --- helpers ------------------------------------------------------------ */

static FlTopology *make(const char *spec)
{
    FlTopology *t = NULL;
    FlError err;
    if (fl_topology_from_spec(spec, &t, &err) != FL_OK) {
        printf("# cannot build %s: %s\n", spec, err.message);
        return NULL;
    }
    return t;
}

static FlRouting *make_routing(const FlTopology *t, const char *name,
                               const FlRoutingOptions *opt)
{
    FlRouting *r = NULL;
    FlError err;
    if (fl_routing_new(t, name, opt, &r, &err) != FL_OK) {
        printf("# cannot build %s: %s\n", name, err.message);
        return NULL;
    }
    return r;
}

/* The port by which channel c arrives at its destination switch. */
static int arrival_port(const FlTopology *t, int c)
{
    int a, pa, b, pb;
    fl_topology_link_ends(t, c / 2, &a, &pa, &b, &pb);
    return c % 2 ? pa : pb;
}

static int coord(const FlTopology *t, int node, int d)
{
    int c[3] = { 0, 0, 0 };
    fl_topology_get_coords(t, node, c);
    return c[d];
}

/* Breadth-first distances from every switch to dest, by switch rank. */
static int *distances_to(const FlTopology *t, int dest)
{
    int *dist = malloc(sizeof *dist * (size_t)fl_topology_switch_count(t));
    if (dist && fl_topology_bfs(t, fl_topology_node_rank(t, dest), dist, NULL) != FL_OK) {
        free(dist);
        dist = NULL;
    }
    return dist;
}

/* --- the state walk ------------------------------------------------------- */

enum {
    EXPECT_DETERMINISTIC = 1,  /* exactly one choice everywhere */
    EXPECT_ADAPTIVE = 2,       /* some state offers two or more */
    EXPECT_ALL_SHORTEST = 4,   /* every port on a shortest path is offered */
    EXPECT_TURNS_EXACT = 8,    /* prohibited turns = the turns no route takes */
};

typedef struct Walk {
    const FlRouting *r;
    const FlTopology *t;
    int flags;
    int classes;
    int *seen;          /* per (channel, class): the destination round that saw it */
    int round;
    int *stack, depth;
    unsigned char *used;    /* turns taken: [(sw * ports + in_port) * ports + out_port] */
    int ports;              /* the most ports of any node */
    long states, multi, failures;
    char first[400];
} Walk;

static void walk_fail(Walk *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void walk_fail(Walk *w, const char *fmt, ...)
{
    if (w->failures++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->first, sizeof w->first, fmt, ap);
        va_end(ap);
    }
}

static int walk_init(Walk *w, const FlRouting *r, int flags)
{
    memset(w, 0, sizeof *w);
    w->r = r;
    w->t = fl_routing_topology(r);
    w->flags = flags;
    w->classes = fl_routing_vc_classes(r);
    size_t n = (size_t)fl_topology_channel_count(w->t) * (size_t)w->classes;
    w->seen = calloc(n + 1, sizeof *w->seen);
    w->stack = malloc(sizeof *w->stack * 3 * (n + 1));
    for (int i = 0; i < fl_topology_node_count(w->t); i++)
        if (fl_topology_node_ports(w->t, i) > w->ports)
            w->ports = fl_topology_node_ports(w->t, i);
    w->used = calloc((size_t)fl_topology_node_count(w->t) * (size_t)(w->ports * w->ports), 1);
    return w->seen && w->stack && w->used;
}

static void walk_free(Walk *w)
{
    free(w->seen);
    free(w->stack);
    free(w->used);
}

/* Checks the choices at one state and queues the states they lead to. */
static void walk_state(Walk *w, int sw, int in, int cls, int dest, const int *dist)
{
    const FlTopology *t = w->t;
    FlRouteChoice ch[FL_ROUTE_MAX_CHOICES], one;
    int here = dist[fl_topology_node_rank(t, sw)];
    int n = fl_routing_next(w->r, sw, in, cls, dest, ch, FL_ROUTE_MAX_CHOICES);
    w->states++;
    if (n < 1 || n > FL_ROUTE_MAX_CHOICES) {
        walk_fail(w, "%d choices at switch %d (in %d) towards %d", n, sw, in, dest);
        return;
    }
    if (n > 1)
        w->multi++;
    if ((w->flags & EXPECT_DETERMINISTIC) && n != 1)
        walk_fail(w, "%d choices at switch %d towards %d", n, sw, dest);
    /* A caller's smaller buffer gets a prefix of the same answer. */
    int m = fl_routing_next(w->r, sw, in, cls, dest, &one, 1);
    if (m != 1 || one.port != ch[0].port || fl_routing_next(w->r, sw, in, cls, dest, &one, 0))
        walk_fail(w, "max not respected at switch %d towards %d", sw, dest);
    for (int i = 0; i < n; i++) {
        int c = ch[i].channel, nb = fl_topology_channel_dst(t, c);
        if (fl_topology_channel_src(t, c) != sw || fl_topology_port_link(t, sw, ch[i].port) != c / 2
            || (i && ch[i].port <= ch[i - 1].port) || ch[i].vc_class < 0
            || ch[i].vc_class >= w->classes || fl_topology_node_kind(t, nb) != FL_NODE_SWITCH) {
            walk_fail(w, "bad choice (port %d, channel %d, class %d) at switch %d", ch[i].port,
                      c, ch[i].vc_class, sw);
            continue;
        }
        if (dist[fl_topology_node_rank(t, nb)] != here - 1)
            walk_fail(w, "port %d at switch %d leads away from %d (distance %d -> %d)",
                      ch[i].port, sw, dest, here, dist[fl_topology_node_rank(t, nb)]);
        if (in >= 0) {
            int from = arrival_port(t, in);
            if (fl_routing_turn_prohibited(w->r, sw, from, ch[i].port))
                walk_fail(w, "prohibited turn %d -> %d taken at switch %d towards %d", from,
                          ch[i].port, sw, dest);
            w->used[((size_t)sw * w->ports + from) * w->ports + ch[i].port] = 1;
        }
        int s = c * w->classes + ch[i].vc_class;
        if (nb != dest && w->seen[s] != w->round) {
            w->seen[s] = w->round;
            w->stack[w->depth++] = nb;
            w->stack[w->depth++] = c;
            w->stack[w->depth++] = ch[i].vc_class;
        }
    }
    if (w->flags & EXPECT_ALL_SHORTEST) {
        int shortest = 0;
        for (int p = 0; p < fl_topology_node_ports(t, sw); p++) {
            int nb = fl_topology_port_peer(t, sw, p, NULL);
            shortest += nb >= 0 && fl_topology_node_kind(t, nb) == FL_NODE_SWITCH
                        && dist[fl_topology_node_rank(t, nb)] == here - 1;
        }
        if (shortest != n)
            walk_fail(w, "%d of the %d ports on shortest paths offered at switch %d towards %d",
                      n, shortest, sw, dest);
    }
}

/* The lowest-port route from src must arrive in the BFS distance. */
static void walk_lowest_port(Walk *w, int src, int dest, const int *dist)
{
    int sw = src, in = -1, cls = 0, hops = 0, limit = fl_topology_switch_count(w->t);
    FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
    while (sw != dest && hops <= limit) {
        int n = fl_routing_next(w->r, sw, in, cls, dest, ch, FL_ROUTE_MAX_CHOICES);
        if (n < 1)
            break;
        int k = fl_routing_select(ch, n, FL_SELECT_LOWEST_PORT, NULL, NULL, NULL);
        in = ch[k].channel;
        cls = ch[k].vc_class;
        sw = fl_topology_channel_dst(w->t, in);
        hops++;
    }
    if (sw != dest || hops != dist[fl_topology_node_rank(w->t, src)])
        walk_fail(w, "lowest-port route %d -> %d: %d hops, BFS %d%s", src, dest, hops,
                  dist[fl_topology_node_rank(w->t, src)], sw != dest ? " (not arrived)" : "");
}

/* Every state a packet for dest can reach from injection at any switch
 * (next() knows no source, so a state is its switch, input channel and
 * class), then the lowest-port route from every switch. */
static void walk_dest(Walk *w, int dest)
{
    int *dist = distances_to(w->t, dest);
    int s = fl_topology_switch_count(w->t);
    if (!dist) {
        walk_fail(w, "no distances to %d", dest);
        return;
    }
    w->round++;
    w->depth = 0;
    for (int i = 0; i < s && w->failures < 1000; i++) {
        int src = fl_topology_switch_node(w->t, i);
        if (src == dest)
            continue;
        walk_state(w, src, -1, 0, dest, dist);
        while (w->depth > 0 && w->failures < 1000) {
            w->depth -= 3;
            walk_state(w, w->stack[w->depth], w->stack[w->depth + 1],
                       w->stack[w->depth + 2], dest, dist);
        }
    }
    for (int i = 0; i < s; i++)
        if (fl_topology_switch_node(w->t, i) != dest)
            walk_lowest_port(w, fl_topology_switch_node(w->t, i), dest, dist);
    free(dist);
}

/* After a walk to every destination: a turn is prohibited exactly when no
 * route took it (for routings that report the turns they do not use). */
static void check_turns_exact(Walk *w)
{
    const FlTopology *t = w->t;
    int wrong = 0, prohibited = 0;
    for (int i = 0; i < fl_topology_switch_count(t); i++) {
        int sw = fl_topology_switch_node(t, i), np = fl_topology_node_ports(t, sw);
        for (int a = 0; a < np; a++)
            for (int b = 0; b < np; b++) {
                int pa = fl_topology_port_peer(t, sw, a, NULL);
                int pb = fl_topology_port_peer(t, sw, b, NULL);
                if (a == b || pa < 0 || pb < 0 || fl_topology_node_kind(t, pa) != FL_NODE_SWITCH
                    || fl_topology_node_kind(t, pb) != FL_NODE_SWITCH)
                    continue;
                int taken = w->used[((size_t)sw * w->ports + a) * w->ports + b];
                int no = fl_routing_turn_prohibited(w->r, sw, a, b);
                prohibited += no;
                if (no == taken) {
                    walk_fail(w, "turn %d -> %d at switch %d is %s but %s", a, b, sw,
                              no ? "prohibited" : "allowed", taken ? "taken" : "never taken");
                    wrong++;
                }
            }
    }
    if (!wrong)
        snprintf(w->first, sizeof w->first, "%d turns prohibited", prohibited);
}

/* Walks every pair towards `dests` destinations (0: all of them, else that
 * many spread evenly); one test point. Returns the states offering several
 * choices, or -1 when the routing could not be built. */
static long check_minimal(const char *spec, const char *name, const FlRoutingOptions *opt,
                          int flags, int dests)
{
    FlTopology *t = make(spec);
    FlRouting *r = t ? make_routing(t, name, opt) : NULL;
    Walk w;
    long multi = -1;
    if (!r || !walk_init(&w, r, flags)) {
        CHECK(0, "%s on %s could not be set up", name, spec);
        goto out;
    }
    int s = fl_topology_switch_count(t), step = dests > 0 && dests < s ? s / dests : 1;
    for (int d = 0; d < s; d += step)
        walk_dest(&w, fl_topology_switch_node(t, d));
    if ((flags & EXPECT_TURNS_EXACT) && step == 1 && !w.failures)
        check_turns_exact(&w);
    CHECK(w.failures == 0, "%s on %s%s%s: %ld states minimal%s%s (%ld failures%s%s)", name,
          spec, opt && opt->order ? " order " : "", opt && opt->order ? opt->order : "",
          w.states, flags & EXPECT_ALL_SHORTEST ? ", every shortest port offered" : "",
          flags & EXPECT_TURNS_EXACT ? ", turn map exact" : "", w.failures,
          w.failures ? "; first: " : *w.first ? "; " : "", w.first);
    if (flags & EXPECT_ADAPTIVE)
        CHECK(w.multi > 0, "%s on %s is adaptive: %ld states offer several ports", name, spec,
              w.multi);
    multi = w.multi;
    walk_free(&w);
out:
    fl_routing_free(r);
    fl_topology_free(t);
    return multi;
}

/* Follows the lowest-port route from src to dest into ports[] and
 * classes[]; returns the hop count, or -1 if it does not arrive. */
static int follow(const FlRouting *r, int src, int dest, int *nodes, int *ports, int *classes,
                  int cap)
{
    const FlTopology *t = fl_routing_topology(r);
    FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
    int sw = src, in = -1, cls = 0, hops = 0;
    while (sw != dest) {
        int n = fl_routing_next(r, sw, in, cls, dest, ch, FL_ROUTE_MAX_CHOICES);
        if (n < 1 || hops == cap)
            return -1;
        int k = fl_routing_select(ch, n, FL_SELECT_LOWEST_PORT, NULL, NULL, NULL);
        nodes[hops] = sw;
        ports[hops] = ch[k].port;
        classes[hops] = ch[k].vc_class;
        in = ch[k].channel;
        cls = ch[k].vc_class;
        sw = fl_topology_channel_dst(t, in);
        hops++;
    }
    return hops;
}

/* --- dor ------------------------------------------------------------------ */

static void test_dor_minimal(void)
{
    static const char *const specs[] = {
        "mesh:8x8", "mesh:5x7", "line:6", "mesh:3x4x3", "mesh:2x3", "torus:8x8", "torus:5x4",
        "ring:3", "ring:4", "ring:5", "ring:8", "torus:3x4x5", "hypercube:6",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        check_minimal(specs[i], "dor", NULL, EXPECT_DETERMINISTIC | EXPECT_TURNS_EXACT, 0);
    FlRoutingOptions yx = { .root = -1, .order = "yx" };
    FlRoutingOptions zxy = { .root = -1, .order = "zxy" };
    FlRoutingOptions one = { .root = -1, .vc_classes = 1 };
    check_minimal("mesh:5x7", "dor", &yx, EXPECT_DETERMINISTIC | EXPECT_TURNS_EXACT, 0);
    check_minimal("mesh:3x4x3", "dor", &zxy, EXPECT_DETERMINISTIC | EXPECT_TURNS_EXACT, 0);
    check_minimal("torus:3x4x5", "dor", &zxy, EXPECT_DETERMINISTIC | EXPECT_TURNS_EXACT, 0);
    check_minimal("torus:8x8", "dor", &one, EXPECT_DETERMINISTIC | EXPECT_TURNS_EXACT, 0);
}

/* Routes must correct the dimensions in the order asked for. */
static void check_order(const char *spec, const char *order, const int *dims_in_order)
{
    FlTopology *t = make(spec);
    FlRoutingOptions opt = { .root = -1, .order = order };
    FlRouting *r = t ? make_routing(t, "dor", &opt) : NULL;
    int nodes[64], ports[64], classes[64], bad = 0, pairs = 0;
    int s = t ? fl_topology_switch_count(t) : 0;
    for (int a = 0; r && a < s; a++)
        for (int b = 0; b < s; b++) {
            int hops = follow(r, a, b, nodes, ports, classes, 64), at = 0;
            pairs++;
            for (int h = 0; h < hops; h++) {
                /* Advance through the order to this hop's dimension; never back. */
                while (at < 3 && dims_in_order[at] != ports[h] / 2)
                    at++;
                bad += at == 3;
            }
            bad += hops < 0;
        }
    CHECK(r && bad == 0, "dor order %s on %s: %d pairs in order, %d hops out of order",
          order ? order : "(default)", spec, pairs, bad);
    fl_routing_free(r);
    fl_topology_free(t);
}

static void test_dor_orders(void)
{
    static const int xy[3] = { 0, 1, 2 }, yx[3] = { 1, 0, 2 }, zyx[3] = { 2, 1, 0 };
    check_order("mesh:4x5", NULL, xy);
    check_order("mesh:4x5", "xy", xy);
    check_order("mesh:4x5", "yx", yx);
    check_order("torus:4x5", "yx", yx);
    check_order("mesh:3x3x3", "zyx", zyx);
}

/* The dateline: class 0 in each dimension until the packet has crossed
 * that dimension's wrap-around link, class 1 after it, class 0 again in the
 * next dimension. Ties (k/2 hops either way) go the + way. */
static void check_dateline(const char *spec, int classes_asked)
{
    FlTopology *t = make(spec);
    FlRoutingOptions opt = { .root = -1, .vc_classes = classes_asked };
    FlRouting *r = t ? make_routing(t, "dor", &opt) : NULL;
    int nodes[64], ports[64], classes[64], bad = 0, raised = 0, ties = 0, bad_ties = 0;
    int dateline = classes_asked != 1, dims[3] = { 0, 0, 0 }, bad_lines = 0, lines = 0;
    int ndims = t ? fl_topology_family_dims(t, dims) : 0;
    int s = t ? fl_topology_switch_count(t) : 0;
    for (int a = 0; r && a < s; a++)
        for (int b = 0; b < s; b++) {
            int hops = follow(r, a, b, nodes, ports, classes, 64), dim = -1, crossed = 0;
            bad += hops < 0;
            for (int h = 0; h < hops; h++) {
                int d = ports[h] / 2, k = dims[d];
                if (d != dim) {
                    dim = d;
                    crossed = 0;
                    int delta = ((coord(t, b, d) - coord(t, nodes[h], d)) % k + k) % k;
                    if (2 * delta == k) {
                        ties++;
                        bad_ties += ports[h] % 2 != 0;
                    }
                }
                bad += classes[h] != (dateline && crossed);
                raised += classes[h] == 1;
                int next = h + 1 < hops ? nodes[h + 1] : b;
                int step = coord(t, next, d) - coord(t, nodes[h], d);
                int wraps = step > 1 || step < -1, a_end;
                /* The channel of this hop is a dateline exactly when it
                 * wraps around and the routing has one. */
                int l = fl_topology_port_link(t, nodes[h], ports[h]);
                fl_topology_link_ends(t, l, &a_end, NULL, NULL, NULL);
                int ch = 2 * l + (a_end != nodes[h]);
                bad_lines += fl_routing_channel_dateline(r, ch) != (dateline && wraps);
                crossed |= wraps;
            }
        }
    for (int ch = 0; r && ch < fl_topology_channel_count(t); ch++)
        lines += fl_routing_channel_dateline(r, ch);
    CHECK(r && fl_routing_vc_classes(r) == (dateline ? 2 : 1) && bad == 0,
          "dor on %s (vc_classes %d asked): %d classes, %d hops in the wrong class", spec,
          classes_asked, r ? fl_routing_vc_classes(r) : 0, bad);
    CHECK(bad_lines == 0, "dor on %s: the datelines are the wrap-around hops (%d not)", spec,
          bad_lines);
    /* Each ring of every dimension has one wrap-around link: 2 channels. */
    int rings = 0;
    for (int d = 0; d < ndims; d++)
        rings += s / dims[d];
    CHECK(lines == (dateline ? 2 * rings : 0), "dor on %s: %d dateline channels (want %d)", spec,
          lines, dateline ? 2 * rings : 0);
    if (dateline)
        CHECK(raised > 0, "dor on %s uses class 1 after the dateline (%d hops)", spec, raised);
    else
        CHECK(raised == 0, "dor on %s without a dateline stays in class 0", spec);
    if (ndims && dims[0] % 2 == 0)
        CHECK(ties > 0 && bad_ties == 0, "dor on %s: %d half-way ties all go the + way (%d not)",
              spec, ties, bad_ties);
    fl_routing_free(r);
    fl_topology_free(t);
}

static void test_dateline(void)
{
    check_dateline("torus:8x8", 0);
    check_dateline("torus:8x8", 2);
    check_dateline("torus:8x8", 4);
    check_dateline("torus:8x8", 1);
    check_dateline("ring:8", 0);
    check_dateline("torus:5x4", 0);
    check_dateline("torus:4x3x4", 0);

    /* Other routings, and meshes, have none. */
    FlTopology *t = make("mesh:4x4");
    FlRouting *r = t ? make_routing(t, "dor", NULL) : NULL;
    FlTopology *u = make("torus:4x4");
    FlRouting *q = u ? make_routing(u, "updown", NULL) : NULL;
    int lines = 0;
    for (int ch = 0; r && ch < fl_topology_channel_count(t); ch++)
        lines += fl_routing_channel_dateline(r, ch);
    for (int ch = 0; q && ch < fl_topology_channel_count(u); ch++)
        lines += fl_routing_channel_dateline(q, ch);
    CHECK(r && q && lines == 0, "no dateline on a mesh, nor under up*/down* (%d)", lines);
    CHECK(!fl_routing_channel_dateline(q, -1) && !fl_routing_channel_dateline(NULL, 0),
          "bad channels and no routing have none");
    fl_routing_free(r);
    fl_routing_free(q);
    fl_topology_free(t);
    fl_topology_free(u);
}

/* e-cube: each hop flips a higher bit than the one before, the first the
 * lowest in which the addresses differ. */
static void test_ecube(void)
{
    FlTopology *t = make("hypercube:6");
    FlRouting *r = t ? make_routing(t, "dor", NULL) : NULL;
    int nodes[64], ports[64], classes[64], bad = 0, pairs = 0;
    for (int a = 0; r && a < 64; a++)
        for (int b = 0; b < 64; b++) {
            int diff = coord(t, a, 0) ^ coord(t, b, 0), bits = 0, lowest = 0;
            int hops = follow(r, a, b, nodes, ports, classes, 64);
            for (int d = diff; d; d >>= 1)
                bits += d & 1;
            while (diff && !(diff >> lowest & 1))
                lowest++;
            pairs++;
            bad += hops != bits || (hops > 0 && ports[0] != lowest);
            for (int h = 1; h > 0 && h < hops; h++)
                bad += ports[h] <= ports[h - 1];
        }
    CHECK(r && bad == 0 && pairs == 64 * 64,
          "e-cube on hypercube:6: %d pairs correct the lowest bit first (%d errors)", pairs, bad);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* --- the turn model ------------------------------------------------------- */

/* Compass directions of travel on the mesh as the drawing shows it (y grows
 * downwards, so north is -y), by the port that leads that way. */
enum { EAST = 0, WEST = 1, SOUTH = 2, NORTH = 3 };

/* The rules as Glass and Ni and Chiu state them. */
static int rule_prohibits(const char *name, int column, int from, int to)
{
    if (strcmp(name, "west-first") == 0)
        return to == WEST && (from == NORTH || from == SOUTH);
    if (strcmp(name, "north-last") == 0)
        return from == NORTH && (to == EAST || to == WEST);
    if (strcmp(name, "negative-first") == 0)   /* positive into negative */
        return (from == EAST && to == NORTH) || (from == SOUTH && to == WEST);
    if (column % 2 == 0)                       /* odd-even */
        return from == EAST && (to == NORTH || to == SOUTH);
    return to == WEST && (from == NORTH || from == SOUTH);
}

static const char *const turn_models[] = { "west-first", "north-last", "negative-first",
                                           "odd-even" };

static void test_turn_models_minimal(void)
{
    for (int i = 0; i < 4; i++) {
        check_minimal("mesh:8x8", turn_models[i], NULL, EXPECT_ADAPTIVE, 0);
        check_minimal("mesh:5x7", turn_models[i], NULL, EXPECT_ADAPTIVE, 0);
    }
}

/* fl_routing_turn_prohibited() gives exactly the rule's turns, at every
 * switch, for every pair of mesh links. */
static void test_turn_rules(void)
{
    FlTopology *t = make("mesh:7x6");
    for (int i = 0; t && i < 4; i++) {
        FlRouting *r = make_routing(t, turn_models[i], NULL);
        int wrong = 0, prohibited = 0, listed = -1;
        for (int s = 0; r && s < fl_topology_switch_count(t); s++)
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++) {
                    if (a == b || fl_topology_port_link(t, s, a) < 0
                        || fl_topology_port_link(t, s, b) < 0)
                        continue;
                    int want = rule_prohibits(turn_models[i], coord(t, s, 0), a ^ 1, b);
                    wrong += want != fl_routing_turn_prohibited(r, s, a, b);
                    prohibited += want;
                }
        FlTurn *turns = NULL;
        if (r && fl_routing_prohibited_turns(r, &turns, &listed, NULL) != FL_OK)
            listed = -1;
        free(turns);
        CHECK(r && wrong == 0 && prohibited > 0 && listed == prohibited,
              "%s on mesh:7x6 prohibits exactly its rule's %d turns (%d wrong, %d listed)",
              turn_models[i], prohibited, wrong, listed);
        fl_routing_free(r);
    }
    fl_topology_free(t);
}

/* Chiu's ROUTE (IEEE TPDS 2000, Fig. 5) as printed, with the source column
 * it reads; Chiu's "north" is +y, our port 2 (the rule is symmetric in y).
 * Returns a set of port bits. */
static unsigned chiu_route(int cx, int cy, int dx, int dy, int sx)
{
    const unsigned east = 1u << 0, west = 1u << 1, north = 1u << 2, south = 1u << 3;
    unsigned avail = 0;
    int e0 = dx - cx, e1 = dy - cy;
    if (e0 == 0) {
        if (e1 > 0)
            avail |= north;
        else
            avail |= south;
    } else {
        if (e0 > 0) {
            if (e1 == 0) {
                avail |= east;
            } else {
                if (cx % 2 == 1 || cx == sx) {
                    if (e1 > 0)
                        avail |= north;
                    else
                        avail |= south;
                }
                if (dx % 2 == 1 || e0 != 1)
                    avail |= east;
            }
        } else {
            avail |= west;
            if (cx % 2 == 0) {
                if (e1 > 0)
                    avail |= north;
                if (e1 < 0)
                    avail |= south;
            }
        }
    }
    return avail;
}

static void test_odd_even_is_chiu(void)
{
    FlTopology *t = make("mesh:8x8");
    FlRouting *r = t ? make_routing(t, "odd-even", NULL) : NULL;
    int stack[3 * 1024], seen[512] = { 0 }, pair = 0, mismatches = 0;
    long states = 0;
    char first[200] = "";
    for (int src = 0; r && src < 64; src++)
        for (int dest = 0; dest < 64; dest++) {
            if (src == dest)
                continue;
            int depth = 0, sx = coord(t, src, 0);
            pair++;
            stack[depth++] = src;
            stack[depth++] = -1;
            while (depth > 0) {
                int in = stack[--depth], sw = stack[--depth];
                FlRouteChoice ch[FL_ROUTE_MAX_CHOICES];
                int n = fl_routing_next(r, sw, in, 0, dest, ch, FL_ROUTE_MAX_CHOICES);
                unsigned got = 0, want = chiu_route(coord(t, sw, 0), coord(t, sw, 1),
                                                    coord(t, dest, 0), coord(t, dest, 1), sx);
                for (int i = 0; i < n; i++)
                    got |= 1u << ch[i].port;
                states++;
                if (got != want && mismatches++ == 0)
                    snprintf(first, sizeof first, "at (%d, %d) from (%d, %d) to (%d, %d): "
                             "ports %#x, Chiu %#x", coord(t, sw, 0), coord(t, sw, 1), sx,
                             coord(t, src, 1), coord(t, dest, 0), coord(t, dest, 1), got, want);
                /* Continue along Chiu's choices: the states his routing reaches. */
                for (int p = 0; p < 4; p++) {
                    int c = (want >> p & 1) ? fl_topology_port_link(t, sw, p) : -1;
                    if (c < 0)
                        continue;
                    int ch_id = fl_topology_channel_src(t, 2 * c) == sw ? 2 * c : 2 * c + 1;
                    int nb = fl_topology_channel_dst(t, ch_id);
                    if (nb != dest && seen[ch_id] != pair) {
                        seen[ch_id] = pair;
                        stack[depth++] = nb;
                        stack[depth++] = ch_id;
                    }
                }
            }
        }
    CHECK(r && mismatches == 0 && states > 64 * 63,
          "odd-even equals Chiu's ROUTE in all %ld (src, dest, current) states of mesh:8x8 "
          "(%d differ%s%s)", states, mismatches, mismatches ? "; first " : "", first);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* --- XMESH and DMESH ------------------------------------------------------ */

/* Every pair of every size: the ports offered are exactly those on a
 * shortest path. One test point per family, naming the sizes that fail. */
static void test_self_routing(const char *family, int lo, int hi)
{
    int sizes = 0, failed = 0;
    char first[600] = "";
    for (int n = lo; n <= hi; n += 2)
        for (int k = lo; k <= hi; k += 2) {
            char spec[64];
            snprintf(spec, sizeof spec, "%s:%dx%d", family, n, k);
            FlTopology *t = make(spec);
            FlRouting *r = t ? make_routing(t, family, NULL) : NULL;
            Walk w;
            sizes++;
            if (!r || !walk_init(&w, r, EXPECT_ALL_SHORTEST | EXPECT_TURNS_EXACT)) {
                failed++;
                snprintf(first, sizeof first, "%s could not be set up", spec);
            } else {
                int s = fl_topology_switch_count(t);
                for (int d = 0; d < s; d++)
                    walk_dest(&w, fl_topology_switch_node(t, d));
                if (!w.failures)
                    check_turns_exact(&w);
                if (w.failures && failed++ == 0)
                    snprintf(first, sizeof first, "%s: %s", spec, w.first);
                walk_free(&w);
            }
            fl_routing_free(r);
            fl_topology_free(t);
        }
    CHECK(failed == 0, "%s routing equals BFS on every pair of %d sizes %dx%d to %dx%d, turn "
          "maps exact "
          "(%d fail%s%s)", family, sizes, lo, lo, hi, hi, failed, failed ? "; first " : "",
          first);
}

static void test_self_routing_large(void)
{
    check_minimal("xmesh:36x72", "xmesh", NULL, EXPECT_ALL_SHORTEST | EXPECT_ADAPTIVE, 64);
    check_minimal("xmesh:72x36", "xmesh", NULL, EXPECT_ALL_SHORTEST, 32);
    check_minimal("xmesh:4x40", "xmesh", NULL, EXPECT_ALL_SHORTEST | EXPECT_TURNS_EXACT, 0);
    check_minimal("xmesh:40x4", "xmesh", NULL, EXPECT_ALL_SHORTEST | EXPECT_TURNS_EXACT, 0);
    check_minimal("dmesh:35x71", "dmesh", NULL, EXPECT_ALL_SHORTEST | EXPECT_ADAPTIVE, 64);
}

/* --- myrinet-dor ---------------------------------------------------------- */

static void test_myrinet(void)
{
    static const int xy[3] = { 0, 1, 2 };
    check_minimal("myrinet-line:8", "myrinet-dor", NULL, EXPECT_DETERMINISTIC | EXPECT_TURNS_EXACT, 0);
    check_minimal("myrinet-mesh:4x8", "myrinet-dor", NULL, EXPECT_DETERMINISTIC | EXPECT_TURNS_EXACT, 0);
    FlTopology *t = make("myrinet-mesh:4x8");
    FlRouting *r = t ? make_routing(t, "myrinet-dor", NULL) : NULL;
    int nodes[64], ports[64], classes[64], bad = 0;
    for (int a = 0; r && a < 32; a++)
        for (int b = 0; b < 32; b++) {
            int hops = follow(r, a, b, nodes, ports, classes, 64), at = 0;
            bad += hops < 0;
            for (int h = 0; h < hops; h++) {
                while (at < 2 && xy[at] != ports[h] / 2)
                    at++;
                bad += at == 2 || classes[h] != 0;
            }
        }
    CHECK(r && bad == 0, "myrinet-dor on myrinet-mesh:4x8 goes along the row (x) first, then "
          "the column (%d hops out of order)", bad);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* --- refusals --------------------------------------------------------------- */

/* Building `name` on `spec` fails with `code` and a message containing
 * `expect`. */
static void check_refused(const char *spec, const char *name, const char *order, int code,
                          const char *expect)
{
    FlTopology *t = make(spec);
    FlRoutingOptions opt = { .root = -1, .order = order };
    FlRouting *r = NULL;
    FlError err = { 0, "" };
    int rc = t ? fl_routing_new(t, name, &opt, &r, &err) : -1;
    CHECK(rc == code && !r && strstr(err.message, expect),
          "%s on %s%s%s refused: \"%s\"", name, spec, order ? " order " : "",
          order ? order : "", err.message);
    fl_routing_free(r);
    fl_topology_free(t);
}

static void test_refusals(void)
{
    check_refused("hypercube:6", "xmesh", NULL, FL_EUNSUPPORTED, "xmesh networks");
    check_refused("xmesh:8x8", "dmesh", NULL, FL_EUNSUPPORTED, "this network is xmesh:8x8");
    check_refused("irregular:16,ports=3,seed=2", "dor", NULL, FL_EUNSUPPORTED, "try updown");
    check_refused("xmesh:8x8", "dor", NULL, FL_EUNSUPPORTED,
                  "dor needs a mesh, torus or hypercube; this network is xmesh:8x8");
    check_refused("dmesh:5x5", "dor", NULL, FL_EUNSUPPORTED, "try dmesh");
    check_refused("myrinet-mesh:4x8", "dor", NULL, FL_EUNSUPPORTED, "try myrinet-dor");
    check_refused("torus:8x8", "west-first", NULL, FL_EUNSUPPORTED, "needs a 2D mesh");
    check_refused("mesh:4x4x4", "north-last", NULL, FL_EUNSUPPORTED, "needs a 2D mesh");
    check_refused("hypercube:4", "negative-first", NULL, FL_EUNSUPPORTED, "needs a 2D mesh");
    check_refused("xmesh:8x8", "odd-even", NULL, FL_EUNSUPPORTED, "needs a 2D mesh");
    check_refused("mesh:4x4", "myrinet-dor", NULL, FL_EUNSUPPORTED, "try dor");
    check_refused("torus:8x8", "myrinet-dor", NULL, FL_EUNSUPPORTED, "myrinet-mesh");
    check_refused("mesh:4x4", "dor", "xx", FL_EINVAL, "bad dimension order 'xx'");
    check_refused("mesh:4x4", "dor", "xyz", FL_EINVAL, "the dimensions of mesh:4x4, 'xy', once");
    check_refused("mesh:4x4", "dor", "xz", FL_EINVAL, "bad dimension order");
    check_refused("mesh:3x3x3", "dor", "zy", FL_EINVAL, "the dimensions of mesh:3x3x3, 'xyz'");
    check_refused("torus:4x4", "dor", "XY", FL_EINVAL, "bad dimension order");
    check_refused("hypercube:5", "dor", "xy", FL_EINVAL, "e-cube");
    check_refused("myrinet-line:4", "myrinet-dor", "yx", FL_EINVAL, "row-column");
}

/* --- deadlock freedom (the analysis) ---------------------------------------- */

static void check_deadlock(const char *spec, const char *name, int vc_classes, int want_free)
{
    FlTopology *t = make(spec);
    FlRoutingOptions opt = { .root = -1, .vc_classes = vc_classes };
    FlRouting *r = t ? make_routing(t, name, &opt) : NULL;
    FlRoutingReport rep;
    FlError err = { 0, "" };
    int rc = r ? fl_routing_analyze(r, &rep, &err) : -1;
    CHECK(rc == FL_OK && rep.connected && rep.deadlock_free == want_free
          && (rep.cycle_len > 0) == !want_free,
          "%s on %s (vc_classes %d asked) is %sdeadlock-free (cycle of %d channels)%s%s", name,
          spec, vc_classes, want_free ? "" : "not ", rc == FL_OK ? rep.cycle_len : -1,
          rc == FL_OK ? "" : ": ", err.message);
    if (rc == FL_OK)
        fl_routing_report_clear(&rep);
    fl_routing_free(r);
    fl_topology_free(t);
}

static void test_deadlock(void)
{
    check_deadlock("torus:8x8", "dor", 0, 1);
    check_deadlock("torus:8x8", "dor", 1, 0);
    check_deadlock("ring:8", "dor", 0, 1);
    check_deadlock("torus:4x3x4", "dor", 0, 1);
    check_deadlock("mesh:8x8", "dor", 0, 1);
    check_deadlock("hypercube:6", "dor", 0, 1);
    check_deadlock("myrinet-mesh:4x8", "myrinet-dor", 0, 1);
    for (int i = 0; i < 4; i++)
        check_deadlock("mesh:8x8", turn_models[i], 0, 1);
}

int main(void)
{
    test_dor_minimal();
    test_dor_orders();
    test_dateline();
    test_ecube();
    test_turn_models_minimal();
    test_turn_rules();
    test_odd_even_is_chiu();
    test_self_routing("xmesh", 4, 16);
    test_self_routing("dmesh", 3, 15);
    test_self_routing_large();
    test_myrinet();
    test_refusals();
    test_deadlock();
    return tap_done();
}
