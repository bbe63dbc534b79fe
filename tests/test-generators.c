/* test-generators.c — the topology generators: counts against closed forms,
 * port conventions, coordinates and drawing positions, the published
 * XMESH/DMESH diameters, random irregular networks, and bad specs. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab.h"
#include "tap.h"

/* Builds spec, reporting the error message if that fails. */
static FlTopology *build(const char *spec)
{
    FlTopology *t = NULL;
    FlError err = { 0 };
    int rc = fl_topology_from_spec(spec, &t, &err);
    CHECK(rc == FL_OK && t, "build %s (%s)", spec, rc ? err.message : "ok");
    return rc == FL_OK ? t : NULL;
}

/* The checks every generated network must pass: counts, port counts,
 * validation, hosts attached in order, metadata. */
static void check_network(const FlTopology *t, const char *spec, int switches, int hosts,
                          int switch_links, int ports, const char *canonical)
{
    FlError err = { 0 };
    CHECK_INT(fl_topology_switch_count(t), switches);
    CHECK_INT(fl_topology_host_count(t), hosts);
    CHECK_INT(fl_topology_switch_link_count(t), switch_links);
    CHECK_INT(fl_topology_link_count(t), switch_links + hosts);
    int rc = fl_topology_validate(t, &err);
    CHECK(rc == FL_OK, "%s validates (%s)", spec, rc ? err.message : "ok");
    CHECK(fl_topology_spec(t) && strcmp(fl_topology_spec(t), canonical) == 0,
          "%s: canonical spec '%s', want '%s'", spec,
          fl_topology_spec(t) ? fl_topology_spec(t) : "(null)", canonical);

    int bad_ports = 0, bad_order = 0, last_switch = -1, last_port = -1;
    for (int r = 0; r < switches; r++)
        if (fl_topology_switch_node(t, r) != r || fl_topology_node_ports(t, r) != ports)
            bad_ports++;
    for (int h = 0; h < hosts; h++) {
        int node = fl_topology_host_node(t, h), port;
        int s = fl_topology_port_peer(t, node, 0, &port);
        /* Hosts come after the switches, grouped by switch in switch order
         * and, within a switch, in port order. */
        if (node != switches + h || s < last_switch || (s == last_switch && port <= last_port))
            bad_order++;
        last_switch = s;
        last_port = port;
    }
    CHECK(bad_ports == 0, "%s: %d switches are not numbered by rank with %d ports", spec,
          bad_ports, ports);
    CHECK(bad_order == 0, "%s: %d hosts out of order", spec, bad_order);
}

/* Every switch link joins two distinct switches once: no self-loop, no
 * parallel link, and port_peer agrees from both ends. */
static int is_simple(const FlTopology *t)
{
    int n = fl_topology_switch_count(t), ok = 1;
    int *mark = malloc(sizeof(int) * (size_t)fl_topology_node_count(t));
    for (int i = 0; i < fl_topology_node_count(t); i++)
        mark[i] = -1;
    for (int s = 0; s < n && ok; s++) {
        for (int p = 0; p < fl_topology_node_ports(t, s); p++) {
            int pp, o = fl_topology_port_peer(t, s, p, &pp);
            if (o < 0)
                continue;
            if (o == s || mark[o] == s || fl_topology_port_peer(t, o, pp, NULL) != s)
                ok = 0;
            mark[o] = s;
        }
    }
    free(mark);
    return ok;
}

/* Counts switches whose switch-degree is not want. */
static int degree_misses(const FlTopology *t, int want)
{
    int bad = 0;
    for (int s = 0; s < fl_topology_switch_count(t); s++)
        bad += fl_topology_switch_degree(t, s) != want;
    return bad;
}

/* All-pairs BFS: the diameter and the mean distance over ordered pairs of
 * distinct switches. */
static int diameter(const FlTopology *t, double *mean)
{
    int n = fl_topology_switch_count(t), diam = 0;
    int *dist = malloc(sizeof(int) * (size_t)n);
    double total = 0.0;
    for (int s = 0; s < n; s++) {
        fl_topology_bfs(t, s, dist, NULL);
        for (int v = 0; v < n; v++) {
            if (dist[v] < 0)
                diam = n;
            else if (dist[v] > diam)
                diam = dist[v];
            total += dist[v];
        }
    }
    free(dist);
    if (mean)
        *mean = total / ((double)n * (n - 1));
    return diam;
}

static double distance_to_segment(double px, double py, double ax, double ay, double bx,
                                  double by)
{
    double dx = bx - ax, dy = by - ay;
    double u = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return hypot(ax + u * dx - px, ay + u * dy - py);
}

/* The smallest distance between a switch and a switch link not its own,
 * and between two switches. Hosts have their own check. */
static double clearance(const FlTopology *t, double *node_gap)
{
    int n = fl_topology_switch_count(t), links = fl_topology_link_count(t);
    double best = HUGE_VAL, gap = HUGE_VAL;
    for (int l = 0; l < links; l++) {
        int a, b;
        double ax, ay, bx, by;
        fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
        if (a >= n || b >= n)
            continue;
        fl_topology_get_position(t, a, &ax, &ay);
        fl_topology_get_position(t, b, &bx, &by);
        for (int m = 0; m < n; m++) {
            if (m == a || m == b)
                continue;
            double x, y;
            fl_topology_get_position(t, m, &x, &y);
            double d = distance_to_segment(x, y, ax, ay, bx, by);
            if (d < best)
                best = d;
        }
    }
    for (int a = 0; a < n && node_gap; a++) {
        double ax, ay, bx, by;
        fl_topology_get_position(t, a, &ax, &ay);
        for (int b = a + 1; b < n; b++) {
            fl_topology_get_position(t, b, &bx, &by);
            gap = fmin(gap, hypot(bx - ax, by - ay));
        }
    }
    if (node_gap)
        *node_gap = gap;
    return best;
}

/* Reduces d modulo period into (-period/2, period/2]; period 0 = none. */
static double short_way(double d, double period)
{
    if (period > 0) {
        while (d > period / 2)
            d -= period;
        while (d <= -period / 2)
            d += period;
    }
    return d;
}

/* Hosts sit near their switch, off the switch's own links as drawn. On a
 * grid that wraps (width w, height h; 0 when it does not), a wrap-around
 * link is drawn as a spur pointing the short way round, half a unit long. */
static void check_host_positions(const FlTopology *t, const char *spec, double w, double h)
{
    int far = 0, on_link = 0;
    for (int i = 0; i < fl_topology_host_count(t); i++) {
        int node = fl_topology_host_node(t, i), s = fl_topology_host_switch(t, node);
        double hx, hy, sx, sy;
        fl_topology_get_position(t, node, &hx, &hy);
        fl_topology_get_position(t, s, &sx, &sy);
        double d = hypot(hx - sx, hy - sy);
        if (d < 0.25 || d > 0.5)
            far++;
        for (int p = 0; p < fl_topology_node_ports(t, s); p++) {
            int o = fl_topology_port_peer(t, s, p, NULL);
            if (o < 0 || fl_topology_node_kind(t, o) != FL_NODE_SWITCH)
                continue;
            double ox, oy;
            fl_topology_get_position(t, o, &ox, &oy);
            double dx = short_way(ox - sx, w), dy = short_way(oy - sy, h);
            if (dx != ox - sx || dy != oy - sy) {
                double len = hypot(dx, dy);
                ox = sx + 0.5 * dx / len;
                oy = sy + 0.5 * dy / len;
            }
            if (distance_to_segment(hx, hy, sx, sy, ox, oy) < 0.05)
                on_link++;
        }
    }
    CHECK(far == 0, "%s: %d hosts are not 0.25 to 0.5 units from their switch", spec, far);
    CHECK(on_link == 0, "%s: %d hosts lie on a link of their switch", spec, on_link);
}

/* --- k-ary n-cubes -------------------------------------------------------- */

static void test_kary(const char *family, int wrap, int n, const int *k, int hosts)
{
    char spec[64], canonical[64];
    int len = snprintf(spec, sizeof spec, "%s:", family);
    for (int d = 0; d < n; d++)
        len += snprintf(spec + len, sizeof spec - (size_t)len, "%s%d", d ? "x" : "", k[d]);
    snprintf(canonical, sizeof canonical, "%s", spec);
    if (hosts != 1) {
        snprintf(spec + len, sizeof spec - (size_t)len, ",hosts=%d", hosts);
        snprintf(canonical + len, sizeof canonical - (size_t)len, ",hosts=%d", hosts);
    }
    FlTopology *t = build(spec);
    if (!t)
        return;
    int switches = 1, links = 0;
    for (int d = 0; d < n; d++)
        switches *= k[d];
    for (int d = 0; d < n; d++)
        links += (wrap ? k[d] : k[d] - 1) * (switches / k[d]);
    check_network(t, spec, switches, switches * hosts, links, 2 * n + hosts, canonical);
    CHECK(strcmp(fl_topology_family(t), family) == 0, "%s: family %s", spec,
          fl_topology_family(t));
    int fd[FL_MAX_DIMS], nd = fl_topology_family_dims(t, fd), same = nd == n;
    for (int d = 0; d < n && same; d++)
        same = fd[d] == k[d];
    CHECK(same, "%s: family dims", spec);
    CHECK_INT(fl_topology_coord_dims(t), n);

    /* Every port of every switch, against the convention: port 2d to +1 in
     * dimension d (peer port 2d+1), port 2d+1 to -1, free off a mesh's
     * edge; hosts on ports 2n, 2n+1, ... */
    int bad_coords = 0, bad_ports = 0, bad_degree = 0, bad_pos = 0, bad_hosts = 0;
    for (int r = 0; r < switches; r++) {
        int x[FL_MAX_DIMS], c[FL_MAX_DIMS], rest = r, degree = 0;
        for (int d = 0; d < n; d++) {
            x[d] = rest % k[d];
            rest /= k[d];
        }
        fl_topology_get_coords(t, r, c);
        for (int d = 0; d < n; d++)
            bad_coords += c[d] != x[d];
        for (int d = 0; d < n; d++) {
            for (int dir = 0; dir < 2; dir++) {
                int y[FL_MAX_DIMS] = { 0 };
                memcpy(y, x, sizeof(int) * (size_t)n);
                y[d] += dir ? -1 : 1;
                int inside = y[d] >= 0 && y[d] < k[d];
                if (!inside && wrap)
                    y[d] = (y[d] + k[d]) % k[d], inside = 1;
                int pp, peer = fl_topology_port_peer(t, r, 2 * d + dir, &pp), want = -1;
                if (inside) {
                    want = 0;
                    for (int e = n - 1; e >= 0; e--)
                        want = want * k[e] + y[e];
                    degree++;
                }
                if (peer != want || (inside && pp != 2 * d + 1 - dir))
                    bad_ports++;
            }
        }
        bad_degree += fl_topology_switch_degree(t, r) != degree;
        for (int h = 0; h < hosts; h++) {
            int node = fl_topology_port_peer(t, r, 2 * n + h, NULL);
            bad_hosts += node != switches + r * hosts + h;
        }
        double px, py;
        fl_topology_get_position(t, r, &px, &py);
        double wx = x[0] + (n > 2 ? x[2] * (k[0] + 1) : 0), wy = n > 1 ? x[1] : 0;
        bad_pos += px != wx || py != wy;
    }
    CHECK(bad_coords == 0, "%s: %d wrong coordinates", spec, bad_coords);
    CHECK(bad_ports == 0, "%s: %d ports break the convention", spec, bad_ports);
    CHECK(bad_degree == 0, "%s: %d wrong switch degrees", spec, bad_degree);
    CHECK(bad_hosts == 0, "%s: %d hosts on the wrong port", spec, bad_hosts);
    CHECK(bad_pos == 0, "%s: %d switches off their grid position", spec, bad_pos);
    CHECK(is_simple(t), "%s is simple", spec);
    if (n < 3)
        check_host_positions(t, spec, wrap ? k[0] : 0, wrap && n > 1 ? k[1] : 0);
    fl_topology_free(t);
}

static void test_cubes(void)
{
    static const struct { int n, k[3]; } sizes[] = {
        { 1, { 8 } }, { 2, { 4, 4 } }, { 2, { 3, 5 } }, { 2, { 8, 8 } }, { 3, { 3, 4, 5 } },
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        test_kary("mesh", 0, sizes[i].n, sizes[i].k, 1);
        test_kary("torus", 1, sizes[i].n, sizes[i].k, 1);
    }
    const int two[2] = { 2, 3 }, four[2] = { 5, 4 };
    test_kary("mesh", 0, 2, two, 1);
    test_kary("mesh", 0, 2, four, 2);
    test_kary("torus", 1, 2, four, 0);
    test_kary("torus", 1, 2, four, 3);

    /* The wrap-around of the task's example: port 0 of (k-1, y) goes to
     * (0, y), arriving on port 1. */
    FlTopology *t = build("torus:8x8");
    if (t) {
        int pp, y = 5;
        CHECK_INT(fl_topology_port_peer(t, 7 + 8 * y, 0, &pp), 0 + 8 * y);
        CHECK_INT(pp, 1);
        CHECK_INT(fl_topology_port_peer(t, 3 + 8 * 7, 2, &pp), 3);
        CHECK_INT(pp, 3);
        fl_topology_free(t);
    }
}

static void test_rings_and_lines(void)
{
    const int sizes[] = { 3, 4, 16 };
    for (int i = 0; i < 3; i++) {
        int n = sizes[i];
        char spec[32];
        snprintf(spec, sizeof spec, "ring:%d", n);
        FlTopology *t = build(spec);
        if (!t)
            continue;
        check_network(t, spec, n, n, n, 3, spec);
        CHECK(degree_misses(t, 2) == 0, "%s is 2-regular", spec);
        int bad = 0;
        double max_gap = 0, min_gap = HUGE_VAL;
        for (int r = 0; r < n; r++) {
            double ax, ay, bx, by;
            bad += fl_topology_port_peer(t, r, 0, NULL) != (r + 1) % n;
            bad += fl_topology_port_peer(t, r, 1, NULL) != (r + n - 1) % n;
            fl_topology_get_position(t, r, &ax, &ay);
            fl_topology_get_position(t, (r + 1) % n, &bx, &by);
            max_gap = fmax(max_gap, hypot(bx - ax, by - ay));
            min_gap = fmin(min_gap, hypot(bx - ax, by - ay));
        }
        CHECK(bad == 0, "%s: ports 0 and 1 lead to +1 and -1", spec);
        CHECK(fabs(max_gap - 1) < 1e-9 && fabs(min_gap - 1) < 1e-9,
              "%s: neighbours one unit apart on the circle (%g..%g)", spec, min_gap, max_gap);
        check_host_positions(t, spec, 0, 0);
        fl_topology_free(t);

        snprintf(spec, sizeof spec, "line:%d", n - 1);
        t = build(spec);
        if (!t)
            continue;
        check_network(t, spec, n - 1, n - 1, n - 2, 3, spec);
        CHECK_INT(fl_topology_switch_degree(t, 0), 1);
        CHECK_INT(fl_topology_port_link(t, 0, 1), -1);
        CHECK_INT(fl_topology_port_peer(t, 0, 0, NULL), 1);
        double x, y;
        fl_topology_get_position(t, n - 2, &x, &y);
        CHECK(x == n - 2 && y == 0, "%s: last switch at (%g, %g)", spec, x, y);
        fl_topology_free(t);
    }
}

/* --- hypercube ------------------------------------------------------------ */

static void test_hypercube(void)
{
    for (int dims = 1; dims <= 10; dims++) {
        char spec[32];
        int hosts = dims == 3 ? 2 : 1;
        snprintf(spec, sizeof spec, "hypercube:%d%s", dims, hosts == 2 ? ",hosts=2" : "");
        FlTopology *t = build(spec);
        if (!t)
            continue;
        int n = 1 << dims;
        check_network(t, spec, n, n * hosts, dims * n / 2, dims + hosts, spec);
        CHECK(degree_misses(t, dims) == 0, "%s is %d-regular", spec, dims);
        int bad = 0, bad_coord = 0;
        for (int r = 0; r < n; r++) {
            int c = -1;
            fl_topology_get_coords(t, r, &c);
            bad_coord += c != r;
            for (int d = 0; d < dims; d++) {
                int pp, o = fl_topology_port_peer(t, r, d, &pp);
                /* Port d flips bit d: the neighbours differ in one bit. */
                bad += o != (r ^ (1 << d)) || pp != d;
            }
        }
        CHECK(bad == 0, "%s: port d flips bit d", spec);
        CHECK(bad_coord == 0 && fl_topology_coord_dims(t) == 1, "%s: coordinate = address",
              spec);
        if (dims <= 8) {
            double gap, c = clearance(t, &gap);
            /* Readable: no link passes within 0.1 units of a node that is
             * not its end, and no two nodes closer than 0.1. */
            CHECK(c > 0.1 && gap > 0.1, "%s: clearance %.3f, node gap %.3f", spec, c, gap);
        } else {
            double c = clearance(t, NULL);
            CHECK(c > 0.02, "%s: no link through a node (clearance %.3f)", spec, c);
        }
        if (dims <= 4)
            check_host_positions(t, spec, 0, 0);
        fl_topology_free(t);
    }
}

/* --- xmesh and dmesh ------------------------------------------------------------ */

/* The neighbour rule of paper 003 as the task states it. */
static int xmesh_expected(int i, int j, int n, int k, int port)
{
    static const int even[4][2] = { { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, -1 } };
    static const int odd[4][2] = { { 0, 1 }, { 0, -1 }, { 1, -1 }, { -1, 1 } };
    const int *d = (i + j) % 2 ? odd[port] : even[port];
    return ((i + d[0] + n) % n) * k + (j + d[1] + k) % k;
}

static int dmesh_expected(int i, int j, int n, int k, int port)
{
    static const int delta[4][2] = { { 1, 1 }, { -1, -1 }, { 1, -1 }, { -1, 1 } };
    return ((i + delta[port][0] + n) % n) * k + (j + delta[port][1] + k) % k;
}

static void test_crossed(const char *family, int first, int (*expected)(int, int, int, int, int))
{
    int bad_sizes = 0;
    for (int n = first; n <= 16; n += 2) {
        for (int k = first; k <= 16; k += 2) {
            char spec[32];
            snprintf(spec, sizeof spec, "%s:%dx%d", family, n, k);
            FlTopology *t = NULL;
            if (fl_topology_from_spec(spec, &t, NULL) != FL_OK) {
                bad_sizes++;
                continue;
            }
            int bad = 0;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < k; j++) {
                    int r = i * k + j, c[2];
                    double x, y;
                    for (int p = 0; p < 4; p++)
                        bad += fl_topology_port_peer(t, r, p, NULL) != expected(i, j, n, k, p);
                    fl_topology_get_coords(t, r, c);
                    fl_topology_get_position(t, r, &x, &y);
                    bad += c[0] != i || c[1] != j || x != j || y != i;
                }
            if (!CHECK(bad == 0 && is_simple(t) && degree_misses(t, 4) == 0
                       && fl_topology_switch_link_count(t) == 2 * n * k
                       && fl_topology_validate(t, NULL) == FL_OK,
                       "%s: undirected, simple, 4-regular, by the neighbour rule", spec))
                bad_sizes++;
            fl_topology_free(t);
        }
    }
    CHECK(bad_sizes == 0, "%s: every size up to 16x16 builds", family);
}

static void test_xmesh(void)
{
    test_crossed("xmesh", 4, xmesh_expected);
    test_crossed("dmesh", 3, dmesh_expected);

    FlTopology *t = build("xmesh:8x10,hosts=2");
    if (t) {
        check_network(t, "xmesh:8x10,hosts=2", 80, 160, 160, 6, "xmesh:8x10,hosts=2");
        check_host_positions(t, "xmesh:8x10,hosts=2", 10, 8);
        CHECK_INT(fl_topology_coord_dims(t), 2);
        fl_topology_free(t);
    }

    /* Paper 003, Tables 2 and 4, by breadth-first search. */
    double mean;
    if ((t = build("xmesh:34x40"))) {
        CHECK_INT(diameter(t, NULL), 20);
        fl_topology_free(t);
    }
    /* Table 1's closed forms for a w x w XMESH: diameter w/2 + 2, mean
     * distance (4w^3 + 9w^2 + 2w - 24) / (12 (w^2 - 1)). */
    if ((t = build("xmesh:34x34"))) {
        double w = 34;
        CHECK_INT(diameter(t, &mean), 19);
        CHECK_NEAR(mean, (4 * w * w * w + 9 * w * w + 2 * w - 24) / (12 * (w * w - 1)), 1e-9);
        fl_topology_free(t);
    }
    /* Table 4 prints 19.86 for the mean distance; breadth-first search
     * gives 19.884 (19.877 counting a switch's distance to itself), so the
     * table rounds or samples: allow 0.03. */
    if ((t = build("xmesh:36x72"))) {
        CHECK_INT(diameter(t, &mean), 36);
        CHECK_NEAR(mean, 19.86, 0.03);
        fl_topology_free(t);
    }
    /* Table 4's DMESH column (swapped with TMESH in the paper, see the
     * digest): the diagonal mesh 35x71 has diameter 35, mean 23.5. */
    if ((t = build("dmesh:35x71"))) {
        CHECK_INT(diameter(t, &mean), 35);
        CHECK_NEAR(mean, 23.50, 0.01);
        fl_topology_free(t);
    }
    if ((t = build("torus:35x71"))) {
        CHECK_INT(diameter(t, &mean), 52);
        CHECK_NEAR(mean, 26.50, 0.01);
        fl_topology_free(t);
    }
}

/* --- irregular ------------------------------------------------------------------- */

/* The link list as (a, pa, b, pb) quadruples; the caller frees it. */
static int *link_list(const FlTopology *t, int *n)
{
    *n = fl_topology_link_count(t);
    int *l = malloc(sizeof(int) * 4 * (size_t)(*n + 1));
    for (int i = 0; i < *n; i++)
        fl_topology_link_ends(t, i, &l[4 * i], &l[4 * i + 1], &l[4 * i + 2], &l[4 * i + 3]);
    return l;
}

static int same_links(const FlTopology *a, const FlTopology *b)
{
    int na, nb;
    int *la = link_list(a, &na), *lb = link_list(b, &nb);
    int same = na == nb && memcmp(la, lb, sizeof(int) * 4 * (size_t)na) == 0;
    free(la);
    free(lb);
    return same;
}

static uint64_t link_hash(const FlTopology *t)
{
    int n;
    int *l = link_list(t, &n);
    uint64_t h = 1469598103934665603u;
    for (int i = 0; i < 4 * n; i++)
        h = (h ^ (uint64_t)l[i]) * 1099511628211u;
    free(l);
    return h;
}

static double mean_link_length(const FlTopology *t)
{
    double total = 0;
    int counted = 0;
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        int a, b;
        double ax, ay, bx, by;
        fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
        if (fl_topology_node_kind(t, a) != FL_NODE_SWITCH
            || fl_topology_node_kind(t, b) != FL_NODE_SWITCH)
            continue;
        fl_topology_get_position(t, a, &ax, &ay);
        fl_topology_get_position(t, b, &bx, &by);
        total += hypot(bx - ax, by - ay);
        counted++;
    }
    return counted ? total / counted : 0;
}

#define SEEDS 100

static void test_irregular(void)
{
    static uint64_t hashes[SEEDS];
    int bad = 0, built = 0, distinct = 1, bad_layout = 0;
    for (int seed = 0; seed < SEEDS; seed++) {
        char spec[64];
        snprintf(spec, sizeof spec, "irregular:64,ports=4,hosts=4,seed=%d", seed);
        FlTopology *t = NULL;
        FlError err;
        if (fl_topology_from_spec(spec, &t, &err) != FL_OK) {
            bad++;
            continue;
        }
        built++;
        int ok = fl_topology_switch_count(t) == 64 && fl_topology_host_count(t) == 256
                 && fl_topology_switch_link_count(t) == 128 && degree_misses(t, 4) == 0
                 && is_simple(t) && fl_topology_validate(t, NULL) == FL_OK
                 && strcmp(fl_topology_spec(t), spec) == 0;
        for (int s = 0; s < 64; s++) {
            ok = ok && fl_topology_node_ports(t, s) == 8;
            /* Links on ports 0..3, hosts on 4..7. */
            for (int p = 0; p < 8; p++) {
                int o = fl_topology_port_peer(t, s, p, NULL);
                ok = ok && o >= 0 && (fl_topology_node_kind(t, o) == FL_NODE_HOST) == (p >= 4);
            }
        }
        bad += !ok;
        bad_layout += fabs(mean_link_length(t) - 1.5) > 1e-6;
        hashes[seed] = link_hash(t);
        for (int i = 0; i < seed; i++)
            distinct = distinct && hashes[i] != hashes[seed];
        fl_topology_free(t);
    }
    CHECK(built == SEEDS && bad == 0,
          "%d seeds: every switch has degree 4 on 8 ports, simple, connected, 256 hosts "
          "(%d built, %d bad)", SEEDS, built, bad);
    CHECK(distinct, "%d seeds give %d different networks", SEEDS, SEEDS);
    CHECK(bad_layout == 0, "mean link length 1.5 units (%d off)", bad_layout);

    FlTopology *a = build("irregular:64,seed=7"), *b = build("irregular:64,ports=4,seed=7");
    FlTopology *c = build("irregular:64,seed=8");
    if (a && b && c) {
        CHECK(same_links(a, b), "same seed, same links");
        CHECK(!same_links(a, c), "different seeds, different links");
        CHECK(strcmp(fl_topology_spec(a), "irregular:64,ports=4,hosts=4,seed=7") == 0,
              "irregular canonical spec lists every key: %s", fl_topology_spec(a));
        double ax, ay, bx, by;
        fl_topology_get_position(a, 10, &ax, &ay);
        fl_topology_get_position(b, 10, &bx, &by);
        CHECK(ax == bx && ay == by, "same seed, same layout");
        check_host_positions(a, "irregular:64,seed=7", 0, 0);
    }
    fl_topology_free(a);
    fl_topology_free(b);
    fl_topology_free(c);

    /* Above FR_FULL_MAX switches the layout gets fewer iterations: it is
     * still deterministic, puts no two switches together, and is scaled to
     * links of 1.5 units. */
    FlTopology *big = build("irregular:2048,ports=4,hosts=1,seed=2");
    FlTopology *again = build("irregular:2048,ports=4,hosts=1,seed=2");
    if (big && again) {
        int same = 1, apart = 1, ns = fl_topology_switch_count(big);
        for (int n = 0; n < fl_topology_node_count(big); n++) {
            double x, y, x2, y2;
            fl_topology_get_position(big, n, &x, &y);
            fl_topology_get_position(again, n, &x2, &y2);
            same = same && x == x2 && y == y2 && isfinite(x) && isfinite(y);
        }
        /* Switches are nodes 0 .. ns - 1 (hosts follow). */
        for (int i = 0; i < ns && apart; i++)
            for (int j = i + 1; j < ns && apart; j++) {
                double ax, ay, bx, by;
                fl_topology_get_position(big, i, &ax, &ay);
                fl_topology_get_position(big, j, &bx, &by);
                apart = ax != bx || ay != by;
            }
        CHECK(same, "irregular:2048: same seed, same layout, finite");
        CHECK(apart, "irregular:2048: no two switches in the same place");
        CHECK(fabs(mean_link_length(big) - 1.5) < 1e-6, "irregular:2048: mean link %g units",
              mean_link_length(big));
    }
    fl_topology_free(big);
    fl_topology_free(again);

    /* S * P odd: the last switch gets one link fewer. */
    FlTopology *t = build("irregular:9,ports=3,hosts=1");
    if (t) {
        check_network(t, "irregular:9,ports=3,hosts=1", 9, 9, 13, 4,
                      "irregular:9,ports=3,hosts=1,seed=1");
        int misses = degree_misses(t, 3);
        CHECK(misses == 1 && fl_topology_switch_degree(t, 8) == 2,
              "one switch of degree 2 (%d off 3)", misses);
        CHECK(is_simple(t), "irregular:9,ports=3 is simple");
        fl_topology_free(t);
    }
    if ((t = build("irregular:2,ports=1,hosts=0"))) {
        check_network(t, "irregular:2,ports=1,hosts=0", 2, 0, 1, 1,
                      "irregular:2,ports=1,hosts=0,seed=1");
        fl_topology_free(t);
    }
}

/* igraph's state is global: networks built in two threads at once must be
 * the ones built alone. */
typedef struct ThreadJob {
    const char *spec;
    uint64_t hash;
} ThreadJob;

static void *thread_build(void *data)
{
    ThreadJob *job = data;
    job->hash = 0;
    for (int i = 0; i < 5; i++) {
        FlTopology *t = NULL;
        if (fl_topology_from_spec(job->spec, &t, NULL) == FL_OK) {
            uint64_t h = link_hash(t);
            job->hash = i == 0 || job->hash == h ? h : 0;
            fl_topology_free(t);
        }
    }
    return NULL;
}

static void test_threads(void)
{
    ThreadJob jobs[2] = { { "irregular:64,seed=3", 0 }, { "irregular:64,seed=4", 0 } };
    uint64_t alone[2];
    for (int i = 0; i < 2; i++) {
        FlTopology *t = build(jobs[i].spec);
        alone[i] = t ? link_hash(t) : 1;
        fl_topology_free(t);
    }
    pthread_t threads[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&threads[i], NULL, thread_build, &jobs[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(threads[i], NULL);
    CHECK(jobs[0].hash == alone[0] && jobs[1].hash == alone[1],
          "concurrent generation gives the same networks as sequential");
}

/* --- myrinet --------------------------------------------------------------------- */

static void test_myrinet(void)
{
    const int lines[] = { 2, 3, 8 };
    for (int i = 0; i < 3; i++) {
        int n = lines[i];
        char spec[32];
        snprintf(spec, sizeof spec, "myrinet-line:%d", n);
        FlTopology *t = build(spec);
        if (!t)
            continue;
        check_network(t, spec, n, 2 * n + 2, n - 1, 4, spec);
        int bad = 0;
        for (int r = 0; r < n; r++) {
            int hosts = 0;
            for (int p = 0; p < 4; p++) {
                int o = fl_topology_port_peer(t, r, p, NULL);
                bad += o < 0;   /* every port is used */
                hosts += o >= 0 && fl_topology_node_kind(t, o) == FL_NODE_HOST;
            }
            bad += hosts != (r == 0 || r == n - 1 ? 3 : 2);
            bad += r + 1 < n && fl_topology_port_peer(t, r, 0, NULL) != r + 1;
        }
        CHECK(bad == 0, "%s: 2 hosts inside, 3 at the ends, port 0 to the right", spec);
        check_host_positions(t, spec, 0, 0);
        fl_topology_free(t);
    }

    const int meshes[][2] = { { 2, 2 }, { 4, 8 }, { 3, 5 } };
    for (int i = 0; i < 3; i++) {
        int n = meshes[i][0], m = meshes[i][1];
        char spec[32];
        snprintf(spec, sizeof spec, "myrinet-mesh:%dx%d", n, m);
        FlTopology *t = build(spec);
        if (!t)
            continue;
        /* From the rule: corner switches 2 hosts, other edge switches 1,
         * inner switches none. */
        int want_hosts = 0, bad = 0;
        for (int y = 0; y < m; y++)
            for (int x = 0; x < n; x++) {
                int edges = (x == 0 || x == n - 1) + (y == 0 || y == m - 1);
                int want = edges == 2 ? 2 : edges;
                want_hosts += want;
                int r = x + n * y, hosts = 0;
                for (int p = 0; p < 4; p++) {
                    int o = fl_topology_port_peer(t, r, p, NULL);
                    bad += o < 0;
                    hosts += o >= 0 && fl_topology_node_kind(t, o) == FL_NODE_HOST;
                }
                bad += hosts != want;
            }
        CHECK_INT(want_hosts, 2 * (n + m));
        check_network(t, spec, n * m, want_hosts, (n - 1) * m + n * (m - 1), 4, spec);
        CHECK(bad == 0, "%s: hosts on every free port of the boundary switches", spec);
        CHECK_INT(fl_topology_port_peer(t, 0, 2, NULL), n);
        check_host_positions(t, spec, 0, 0);
        fl_topology_free(t);
    }
}

/* --- registry, canonical specs, bad specs ----------------------------------------- */

static void test_registry(void)
{
    static const char *const names[] = { "mesh", "torus", "hypercube", "ring", "line",
                                         "xmesh", "dmesh", "irregular", "myrinet-line",
                                         "myrinet-mesh" };
    CHECK_INT(fl_family_count(), 10);
    for (int i = 0; i < fl_family_count() && i < 10; i++) {
        const FlFamilyInfo *f = fl_family_info(i);
        size_t len = strlen(names[i]);
        CHECK(f && strcmp(f->name, names[i]) == 0 && fl_family_lookup(names[i]) == f
              && strncmp(f->syntax, names[i], len) == 0 && f->syntax[len] == ':'
              && f->summary[0] != '\0', "family %d is %s with syntax and summary", i,
              names[i]);
    }
    CHECK(fl_family_info(-1) == NULL && fl_family_info(10) == NULL, "info out of range");
    CHECK(fl_family_lookup("meshh") == NULL && fl_family_lookup(NULL) == NULL,
          "lookup of unknown names");

    static const char *const canon[][2] = {
        { "torus:8x8,hosts=1", "torus:8x8" },
        { "mesh:08x8", "mesh:8x8" },
        { "  mesh:4x4\t", "mesh:4x4" },
        { "mesh:4x4,hosts=2", "mesh:4x4,hosts=2" },
        { "irregular:16", "irregular:16,ports=4,hosts=4,seed=1" },
        { "irregular:16,seed=9,hosts=2,ports=3", "irregular:16,ports=3,hosts=2,seed=9" },
        { "hypercube:3,hosts=0", "hypercube:3,hosts=0" },
    };
    for (size_t i = 0; i < sizeof canon / sizeof canon[0]; i++) {
        FlTopology *t = build(canon[i][0]);
        if (!t)
            continue;
        CHECK(strcmp(fl_topology_spec(t), canon[i][1]) == 0, "'%s' -> '%s' (want '%s')",
              canon[i][0], fl_topology_spec(t), canon[i][1]);
        fl_topology_free(t);
    }
    CHECK_INT(fl_spec_validate("mesh:1024x1024", NULL), FL_OK);
    CHECK_INT(fl_spec_validate("hypercube:20", NULL), FL_OK);
    CHECK_INT(fl_spec_validate("irregular:1048576,seed=18446744073709551615", NULL), FL_OK);
    CHECK_INT(fl_topology_from_spec("mesh:2x2", NULL, NULL), FL_EINVAL);
}

typedef struct BadSpec {
    const char *spec;
    int status;
    const char *message;   /* a substring of the message */
} BadSpec;

static const BadSpec bad_specs[] = {
    { NULL, FL_ESPEC, "no topology specification" },
    { "", FL_ESPEC, "empty topology specification" },
    { "   ", FL_ESPEC, "empty topology specification" },
    { "meshh:8x8", FL_ESPEC, "unknown family 'meshh' (known: mesh, torus, hypercube" },
    { "mesh", FL_ESPEC, "mesh needs a size" },
    { "mesh:", FL_ESPEC, "mesh needs a size" },
    { ":8x8", FL_ESPEC, "missing family name" },
    { "8x8", FL_ESPEC, "missing family in '8x8'" },
    { "mesh:8y8", FL_ESPEC, "bad size '8y8' in 'mesh:8y8': expected A, AxB or AxBxC" },
    { "mesh:8x", FL_ESPEC, "bad size '8x'" },
    { "mesh:x8", FL_ESPEC, "bad size 'x8'" },
    { "mesh:8x8x8x8", FL_ESPEC, "bad size" },
    { "mesh:8x8 junk", FL_ESPEC, "bad size '8x8 junk'" },
    { "mesh:8x8\n", FL_ESPEC, "control character" },
    { "mesh:8x0", FL_ESPEC, "mesh dimension 2 is zero" },
    { "mesh:1x4", FL_ESPEC, "mesh dimension 1 is 1" },
    { "mesh:99999999999x2", FL_ERANGE, "too many switches" },
    { "mesh:99999999999x0", FL_ESPEC, "mesh dimension 2 is zero" },
    { "mesh:999999999999999999999999x2", FL_ERANGE, "is too large" },
    { "mesh:1024x1025", FL_ERANGE, "too many switches in 'mesh:1024x1025' (at most 1048576)" },
    { "mesh:8x8,hostz=2", FL_ESPEC, "unknown key 'hostz' for mesh (known: hosts)" },
    { "mesh:8x8,seed=3", FL_ESPEC, "unknown key 'seed' for mesh" },
    { "mesh:8x8,hosts=2,hosts=3", FL_ESPEC, "key 'hosts' given twice" },
    { "mesh:8x8,hosts=65", FL_ERANGE, "hosts=65 is too large (at most 64)" },
    { "mesh:8x8,hosts=-1", FL_ESPEC, "bad value '-1' for hosts" },
    { "mesh:8x8,hosts=", FL_ESPEC, "bad value '' for hosts" },
    { "mesh:8x8,hosts", FL_ESPEC, "expected key=value, got 'hosts'" },
    { "mesh:8x8,", FL_ESPEC, "empty key" },
    { "mesh:8x8,,hosts=2", FL_ESPEC, "empty key" },
    { "torus:2x8", FL_ESPEC, "torus dimension 1 is 2" },
    { "torus:8x2", FL_ESPEC, "use mesh or hypercube" },
    { "ring:2", FL_ESPEC, "ring:2 is too small" },
    { "line:1", FL_ESPEC, "line:1 is too small" },
    { "line:0", FL_ESPEC, "line size is zero" },
    { "hypercube:0", FL_ESPEC, "hypercube dimension is zero" },
    { "hypercube:21", FL_ERANGE, "at most 20 dimensions" },
    { "hypercube:1000", FL_ERANGE, "hypercube:1000 is too large" },
    { "hypercube:4x4", FL_ESPEC, "expected D" },
    { "hypercube:20,hosts=10", FL_ERANGE, "would need 41943040 ports (at most 33554432)" },
    { "xmesh:35x72", FL_ESPEC, "xmesh sizes must be even: got 35x72" },
    { "xmesh:2x8", FL_ESPEC, "xmesh dimension 1 is 2" },
    { "xmesh:36", FL_ESPEC, "expected NxK" },
    { "dmesh:4x5", FL_ESPEC, "dmesh sizes must be odd: got 4x5" },
    { "dmesh:1x5", FL_ESPEC, "dmesh dimension 1 is 1" },
    { "irregular:6,ports=6", FL_ESPEC,
      "irregular: 6 switches cannot each have 6 inter-switch links (at most 5)" },
    { "irregular:8,ports=1", FL_ESPEC,
      "irregular: 8 switches with 1 inter-switch link each cannot form a connected network" },
    { "irregular:8,ports=0", FL_ESPEC, "ports must be at least 1" },
    { "irregular:1", FL_ESPEC, "irregular:1 is too small" },
    { "irregular:300,ports=250,hosts=64", FL_ERANGE, "would need 314 ports (at most 256)" },
    { "irregular:64,seed=99999999999999999999999", FL_ERANGE, "is too large" },
    { "irregular:64,seed=7x", FL_ESPEC, "bad value '7x' for seed" },
    { "myrinet-line:8,hosts=2", FL_ESPEC, "takes no hosts= key" },
    { "myrinet-line:4,ports=2", FL_ESPEC, "unknown key 'ports' for myrinet-line (it takes no keys)" },
    { "myrinet-mesh:1x4", FL_ESPEC, "myrinet-mesh dimension 1 is 1" },
    { "myrinet-mesh:4", FL_ESPEC, "expected NxM" },
    { "Mesh:8x8", FL_ESPEC, "unknown family 'Mesh'" },
};

static void test_bad_specs(void)
{
    size_t n = sizeof bad_specs / sizeof bad_specs[0];
    CHECK(n >= 20, "%zu bad specs", n);
    for (size_t i = 0; i < n; i++) {
        const BadSpec *b = &bad_specs[i];
        char shown[64];
        /* TAP output is line-based: show control characters as '?'. */
        snprintf(shown, sizeof shown, "%s", b->spec ? b->spec : "(null)");
        for (char *c = shown; *c; c++)
            if ((unsigned char)*c < 0x20)
                *c = '?';
        FlError verr = { 0 }, berr = { 0 };
        FlTopology *sentinel = (FlTopology *)&verr, *t = sentinel;
        int v = fl_spec_validate(b->spec, &verr);
        int rc = fl_topology_from_spec(b->spec, &t, &berr);
        CHECK(v == b->status && strstr(verr.message, b->message) && verr.code == v
              && !strchr(verr.message, '\n'),
              "'%s' -> %s \"%s\" (want %s \"...%s...\")", shown, fl_strerror(v),
              verr.message, fl_strerror(b->status), b->message);
        CHECK(rc == v && strcmp(berr.message, verr.message) == 0 && t == sentinel,
              "'%s': fl_spec_validate and fl_topology_from_spec agree", shown);
    }
}

/* Prefixes of good specs, and random strings: never a crash, and validation
 * agrees with building (only small networks are built). */
static void test_fuzz(void)
{
    static const char *const good[] = { "irregular:12,ports=3,hosts=2,seed=77",
                                        "torus:4x3x5,hosts=3", "myrinet-mesh:3x4",
                                        "xmesh:4x6,hosts=0" };
    int disagree = 0, silent = 0;
    for (size_t g = 0; g < sizeof good / sizeof good[0]; g++) {
        char buf[64];
        size_t len = strlen(good[g]);
        for (size_t cut = 0; cut <= len; cut++) {
            memcpy(buf, good[g], cut);
            buf[cut] = '\0';
            FlTopology *t = NULL;
            int v = fl_spec_validate(buf, NULL), rc = fl_topology_from_spec(buf, &t, NULL);
            disagree += v != rc || (rc == FL_OK) != (t != NULL);
            fl_topology_free(t);
        }
    }
    CHECK(disagree == 0, "prefixes: validate and build agree (%d differ)", disagree);

    static const char alphabet[] = "meshtoruxyd:,=0123456789 -hostsportsseedirregular";
    const char *tokens[] = { "mesh:", "torus:", "xmesh:", "irregular:", "hosts=",
                             "ports=", "seed=", ",", "x", "8", "99999999999999999999" };
    uint32_t state = 12345;
    for (int i = 0; i < 3000; i++) {
        char buf[96];
        size_t len = 0;
        state = state * 1664525u + 1013904223u;
        int pieces = (int)(state >> 28) + 1;
        for (int p = 0; p < pieces && len < 60; p++) {
            state = state * 1664525u + 1013904223u;
            if (state >> 31) {
                const char *tok = tokens[(state >> 16) % (sizeof tokens / sizeof tokens[0])];
                size_t tl = strlen(tok);
                memcpy(buf + len, tok, tl);
                len += tl;
            } else {
                buf[len++] = alphabet[(state >> 16) % (sizeof alphabet - 1)];
            }
        }
        buf[len] = '\0';
        FlError err = { 0 };
        int v = fl_spec_validate(buf, &err);
        silent += v != FL_OK && (err.message[0] == '\0' || err.code != v);
    }
    CHECK(silent == 0, "3000 random specs: every refusal has a message");
}

int main(void)
{
    test_registry();
    test_bad_specs();
    test_fuzz();
    test_cubes();
    test_rings_and_lines();
    test_hypercube();
    test_xmesh();
    test_irregular();
    test_threads();
    test_myrinet();
    return tap_done();
}
