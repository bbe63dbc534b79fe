/* anynet.c — BookSim 2's "anynet" network files, read and written.
 *
 * The reading implemented is the one of BookSim's own parser,
 * AnyNet::readFile() in src/networks/anynet.cpp (booksim2 master, the
 * version that knows link latencies), together with what the rest of
 * BookSim then requires of the network:
 *
 *   router 0 node 0 node 1 router 1 router 2 15
 *   router 1 node 2
 *   router 2 node 3 router 1
 *
 * - A file is a list of lines; an empty line is skipped. A line names a
 *   head, "router R" or "node N", then any number of bodies, "router R" or
 *   "node N", that the head is joined to. There are no comments: BookSim
 *   stops at the first word it does not know, and so does this reader.
 * - "router A ... router B" is one full-duplex link: BookSim records the
 *   channel A->B and adds B->A when it is missing. Its tables are maps, so
 *   listing the same link again, from either end or twice on one line, adds
 *   nothing: a file can never make parallel links.
 * - "router A ... node N" and "node N router A" attach node N (a host) to
 *   router A. Attaching a node to two routers is an error; naming it again
 *   on the same router adds nothing.
 * - A number after a router body is the latency in cycles of the channel
 *   from the head to that router. Flitlab links carry no latency, so it is
 *   checked (a whole number from 1, as BookSim's channels need) and dropped.
 * - Routers must be numbered 0 to R-1 without gaps, because BookSim indexes
 *   its router array with the ids, and nodes 0 to H-1, which its traffic
 *   manager checks.
 *
 * Where BookSim would misread a file or crash on it, this reader refuses it
 * with the line number instead:
 * - ids that are not plain decimal numbers (BookSim's atoi() reads "7x" as 7
 *   and "x" as 0), negative ids, router ids from 2^20 on and node ids from
 *   2^25 on (the limits of a network, see flitlab-io.h);
 * - a router linked to itself, and a node joined to a node;
 * - a line that ends right after "router" or "node" (BookSim only warns);
 * - a latency after a node body, or anywhere on a line whose head is a node:
 *   BookSim files every latency under [head type][head id][body id] of its
 *   router tables, which for these lines names a router-to-router channel
 *   or a node attachment that was never asked for; and a second latency
 *   after the same body;
 * - a line whose head is "node N" when the file has no router N: BookSim's
 *   head step registers the id as a router whatever its type, so such a line
 *   would add an unconnected router that breaks its routing tables.
 * The reader is laxer in one way: tabs and carriage returns separate words
 * as spaces do, so files edited on other systems read the same.
 *
 * Writing: routers are the switches by rank, nodes the hosts by rank. Every
 * router gets a line, in rank order, listing its hosts and the switches of
 * higher rank in port order, so each link is written once and BookSim
 * completes the reverse channel.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-io.h"

/* Routers are switches, nodes are hosts: their ids stay below the limits
 * of a network. */
#define MAX_ROUTER_ID (FL_IO_MAX_SWITCHES - 1)
#define MAX_NODE_ID (FL_IO_MAX_NODES - 1)
#define MAX_LATENCY 1000000000L

/* One join read from the file: router a to router b, or router a to node b
 * (host != 0). seq is the order of appearance, which fixes port order. */
typedef struct Edge {
    int a, b, host;
    int seq, line;
} Edge;

/* A router id and the line where it was named. */
typedef struct Mention {
    int id, line;
} Mention;

typedef struct Parse {
    Edge *edges;
    int n_edges, cap_edges;
    Mention *routers;       /* every router named as head or body */
    int n_routers, cap_routers;
    Mention *node_heads;    /* ids of lines that start with "node" */
    int n_node_heads, cap_node_heads;
    long n_heads;           /* lines with a head */
    FlError *err;
} Parse;

typedef enum State {
    HEAD_TYPE, HEAD_ID, BODY_TYPE, BODY_ID, AFTER_BODY, AFTER_LATENCY
} State;

/* Appends one element of size elem to *arr, growing it by doubling. */
static int push(void **arr, int *n, int *cap, size_t elem, const void *value)
{
    if (*n == *cap) {
        int ncap = *cap ? 2 * *cap : 64;
        void *na = realloc(*arr, (size_t)ncap * elem);
        if (!na)
            return FL_ENOMEM;
        *arr = na;
        *cap = ncap;
    }
    memcpy((char *)*arr + (size_t)*n * elem, value, elem);
    (*n)++;
    return FL_OK;
}

static int oom(Parse *p)
{
    return fl_error_set(p->err, FL_ENOMEM, "out of memory reading an anynet file");
}

/* A word as it may be shown in a message: short, printable. */
static const char *show(const char *w, size_t len, char out[32])
{
    size_t n = len < 24 ? len : 24;
    for (size_t i = 0; i < n; i++)
        out[i] = w[i] >= 0x20 && w[i] < 0x7f ? w[i] : '?';
    strcpy(out + n, len > n ? "..." : "");
    return out;
}

static int word_is(const char *w, size_t len, const char *s)
{
    return strlen(s) == len && memcmp(w, s, len) == 0;
}

/* Reads a whole decimal number no larger than max into *out; 0 if the word
 * is not one, -1 if it is one but too large. */
static int read_number(const char *w, size_t len, long max, long *out)
{
    long v = 0;
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (w[i] < '0' || w[i] > '9')
            return 0;
        if (v <= max)
            v = v * 10 + (w[i] - '0');
    }
    *out = v;
    return v <= max ? 1 : -1;
}

static int parse_id(Parse *p, const char *w, size_t len, int router, int line, int *id)
{
    const char *kind = router ? "router" : "node";
    char shown[32];
    long v, max = router ? MAX_ROUTER_ID : MAX_NODE_ID;
    int ok = read_number(w, len, max, &v);
    if (ok > 0) {
        *id = (int)v;
        return FL_OK;
    }
    if (ok < 0)
        return fl_error_set(p->err, FL_EPARSE, "line %d: %s id %s is too large (at most %d)",
                            line, kind, show(w, len, shown), (int)max);
    if (len > 1 && w[0] == '-' && read_number(w + 1, len - 1, max, &v))
        return fl_error_set(p->err, FL_EPARSE, "line %d: %s id %s is negative", line, kind,
                            show(w, len, shown));
    return fl_error_set(p->err, FL_EPARSE,
                        "line %d: \"%s\" is not a %s id (a whole number from 0)", line,
                        show(w, len, shown), kind);
}

/* Records the join of the head to a body. */
static int add_body(Parse *p, int head_router, int head, int body_router, int body, int line)
{
    if (!head_router && !body_router)
        return fl_error_set(p->err, FL_EPARSE,
                            "line %d: node %d cannot be joined to node %d: a node attaches "
                            "to a router",
                            line, head, body);
    if (head_router && body_router && head == body)
        return fl_error_set(p->err, FL_EPARSE, "line %d: router %d is linked to itself", line,
                            head);
    /* Every join takes two ports, so a network holds at most half as many
     * as it has ports; repeats are allowed, up to as many as its ports. */
    if (p->n_edges == FL_IO_MAX_PORTS)
        return fl_error_set(p->err, FL_ERANGE, "line %d: more than %d links and attachments "
                            "(repeats included); a network has at most %d ports", line,
                            FL_IO_MAX_PORTS, FL_IO_MAX_PORTS);
    Edge e = { head_router ? head : body, head_router ? body : head,
               !(head_router && body_router), p->n_edges, line };
    Mention m = { body, line };
    if (push((void **)&p->edges, &p->n_edges, &p->cap_edges, sizeof e, &e)
        || (body_router
            && push((void **)&p->routers, &p->n_routers, &p->cap_routers, sizeof m, &m)))
        return oom(p);
    return FL_OK;
}

/* A word in a body position that is neither "router" nor "node": a latency
 * when one may stand there, else an error. */
static int latency_word(Parse *p, State st, int head_router, int body_router,
                        const char *w, size_t len, int line)
{
    char shown[32];
    long v;
    if (st == BODY_TYPE)
        return fl_error_set(p->err, FL_EPARSE,
                            "line %d: expected \"router\" or \"node\", found \"%s\"", line,
                            show(w, len, shown));
    if (read_number(w, len, MAX_LATENCY, &v) == 0 && !(len > 1 && w[0] == '-'))
        return fl_error_set(p->err, FL_EPARSE,
                            "line %d: expected \"router\", \"node\" or a latency, found \"%s\"",
                            line, show(w, len, shown));
    if (st == AFTER_LATENCY)
        return fl_error_set(p->err, FL_EPARSE,
                            "line %d: a second latency \"%s\" follows the same link", line,
                            show(w, len, shown));
    if (!head_router || !body_router)
        return fl_error_set(p->err, FL_EPARSE,
                            "line %d: a latency may only follow a router on a router's line "
                            "(BookSim misreads latencies of nodes)",
                            line);
    if (read_number(w, len, MAX_LATENCY, &v) <= 0 || v < 1)
        return fl_error_set(p->err, FL_EPARSE,
                            "line %d: latency %s must be a whole number of cycles from 1 to %ld",
                            line, show(w, len, shown), MAX_LATENCY);
    return FL_OK;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int parse_line(Parse *p, const char *s, const char *end, int line)
{
    State st = HEAD_TYPE;
    int head_router = 0, head = -1, body_router = 0, rc;
    char shown[32];
    while (s < end) {
        while (s < end && is_space(*s))
            s++;
        const char *w = s;
        while (s < end && !is_space(*s))
            s++;
        size_t len = (size_t)(s - w);
        if (len == 0)
            break;
        int is_router = word_is(w, len, "router"), is_node = word_is(w, len, "node");
        switch (st) {
        case HEAD_TYPE:
            if (!is_router && !is_node)
                return fl_error_set(p->err, FL_EPARSE,
                                    "line %d: a line starts with \"router\" or \"node\", not "
                                    "\"%s\" (anynet files have no comments)",
                                    line, show(w, len, shown));
            head_router = is_router;
            st = HEAD_ID;
            break;
        case HEAD_ID: {
            if ((rc = parse_id(p, w, len, head_router, line, &head)))
                return rc;
            /* Each line costs memory: as many as a network has ports. */
            if (++p->n_heads > FL_IO_MAX_PORTS)
                return fl_error_set(p->err, FL_ERANGE, "line %d: more than %d lines name a "
                                    "router or a node; a network has at most %d ports", line,
                                    FL_IO_MAX_PORTS, FL_IO_MAX_PORTS);
            Mention m = { head, line };
            if (head_router ? push((void **)&p->routers, &p->n_routers, &p->cap_routers,
                                   sizeof m, &m)
                            : push((void **)&p->node_heads, &p->n_node_heads,
                                   &p->cap_node_heads, sizeof m, &m))
                return oom(p);
            st = BODY_TYPE;
            break;
        }
        case BODY_TYPE:
        case AFTER_BODY:
        case AFTER_LATENCY:
            if (is_router || is_node) {
                body_router = is_router;
                st = BODY_ID;
            } else if ((rc = latency_word(p, st, head_router, body_router, w, len, line))) {
                return rc;
            } else {
                st = AFTER_LATENCY;
            }
            break;
        case BODY_ID: {
            int body;
            if ((rc = parse_id(p, w, len, body_router, line, &body))
                || (rc = add_body(p, head_router, head, body_router, body, line)))
                return rc;
            st = AFTER_BODY;
            break;
        }
        }
    }
    if (st == HEAD_ID || st == BODY_ID)
        return fl_error_set(p->err, FL_EPARSE,
                            "line %d: \"%s\" at the end of the line is not followed by an id",
                            line, (st == HEAD_ID ? head_router : body_router) ? "router" : "node");
    return FL_OK;
}

/* --- checks on the whole file ------------------------------------------- */

/* qsort() must not be given a NULL array, even an empty one. */
static void sort(void *base, int n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, (size_t)n, size, cmp);
}

static int cmp_mention(const void *x, const void *y)
{
    const Mention *a = x, *b = y;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

/* What makes two mentions the same join: the node for an attachment, the
 * unordered pair of routers for a link. */
static void join_key(const Edge *e, int *k1, int *k2)
{
    if (e->host) {
        *k1 = e->b;
        *k2 = 0;
    } else {
        *k1 = e->a < e->b ? e->a : e->b;
        *k2 = e->a < e->b ? e->b : e->a;
    }
}

static int same_join(const Edge *x, const Edge *y)
{
    int x1, x2, y1, y2;
    join_key(x, &x1, &x2);
    join_key(y, &y1, &y2);
    return x->host == y->host && x1 == y1 && x2 == y2;
}

/* Attachments first, grouped by node; then links, grouped by their two
 * routers; order of appearance within a group. */
static int cmp_edge_key(const void *x, const void *y)
{
    const Edge *a = x, *b = y;
    int a1, a2, b1, b2;
    join_key(a, &a1, &a2);
    join_key(b, &b1, &b2);
    if (a->host != b->host)
        return b->host - a->host;
    if (a1 != b1)
        return a1 < b1 ? -1 : 1;
    if (a2 != b2)
        return a2 < b2 ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

static int cmp_edge_seq(const void *x, const void *y)
{
    const Edge *a = x, *b = y;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Sorts mentions by id and counts the distinct ids in *count; returns the
 * index of the earliest-line mention of an id that leaves a gap below it
 * (id >= count), or -1 when the ids are exactly 0 to count - 1. */
static int find_gap(Mention *m, int n, int *count)
{
    sort(m, n, sizeof *m, cmp_mention);
    int distinct = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || m[i].id != m[i - 1].id)
            distinct++;
    *count = distinct;
    int worst = -1;
    for (int i = 0; i < n; i++)
        if (m[i].id >= distinct && (worst < 0 || m[i].line < m[worst].line))
            worst = i;
    return worst;
}

/* The smallest id missing from sorted mentions. */
static int first_missing(const Mention *m, int n)
{
    int want = 0;
    for (int i = 0; i < n && m[i].id <= want; i++)
        if (m[i].id == want)
            want++;
    return want;
}

static int check_routers(Parse *p, int *n_routers)
{
    int gap = find_gap(p->routers, p->n_routers, n_routers);
    if (*n_routers == 0)
        return fl_error_set(p->err, FL_EPARSE,
                            "the file names no router (an anynet file has lines like "
                            "\"router 0 node 0 router 1\")");
    /* Lines are read in order, so the first node head that fails is the
     * earliest one. */
    for (int i = 0; i < p->n_node_heads; i++) {
        Mention key = { p->node_heads[i].id, 0 };
        const Mention *hit = NULL;
        int lo = 0, hi = p->n_routers;
        while (lo < hi && !hit) {
            int mid = lo + (hi - lo) / 2;
            if (p->routers[mid].id == key.id)
                hit = &p->routers[mid];
            else if (p->routers[mid].id < key.id)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (!hit)
            return fl_error_set(p->err, FL_EPARSE,
                                "line %d: BookSim also makes a router %d of a line that starts "
                                "with \"node %d\", and the file has no router %d; attach the "
                                "node on its router's line instead",
                                p->node_heads[i].line, key.id, key.id, key.id);
    }
    if (gap >= 0)
        return fl_error_set(p->err, FL_EPARSE,
                            "line %d: router %d is named, but router %d is never defined "
                            "(BookSim needs router ids 0 to %d with no gaps)",
                            p->routers[gap].line, p->routers[gap].id,
                            first_missing(p->routers, p->n_routers), *n_routers - 1);
    return FL_OK;
}

/* Sorts the edges by key, refuses nodes on two routers and gaps in node
 * ids, and keeps the first mention of each join, in order of appearance. */
static int check_edges(Parse *p, int *n_hosts)
{
    sort(p->edges, p->n_edges, sizeof *p->edges, cmp_edge_key);
    /* The earliest line that attaches a node to a second router, and the
     * first attachment it contradicts. */
    Edge clash = { 0 }, clashed = { 0 };
    int n_nodes = 0, kept = 0;
    for (int g = 0, i; g < p->n_edges; g = i) {
        const Edge *first = &p->edges[g];
        for (i = g + 1; i < p->n_edges && same_join(&p->edges[i], first); i++)
            if (first->host && p->edges[i].a != first->a
                && (!clash.line || p->edges[i].line < clash.line)) {
                clash = p->edges[i];
                clashed = *first;
            }
        n_nodes += first->host;
    }
    if (clash.line)
        return fl_error_set(p->err, FL_EPARSE,
                            "line %d: node %d is attached to router %d here and to router %d "
                            "on line %d",
                            clash.line, clash.b, clash.a, clashed.a, clashed.line);

    Mention *nodes = malloc(sizeof *nodes * (size_t)(n_nodes + 1));
    if (!nodes)
        return oom(p);
    n_nodes = 0;
    for (int i = 0; i < p->n_edges; i++) {
        if (i > 0 && same_join(&p->edges[i], &p->edges[kept - 1]))
            continue;
        p->edges[kept++] = p->edges[i];
        if (p->edges[i].host)
            nodes[n_nodes++] = (Mention){ p->edges[i].b, p->edges[i].line };
    }
    p->n_edges = kept;
    sort(p->edges, kept, sizeof *p->edges, cmp_edge_seq);

    int rc = FL_OK, gap = find_gap(nodes, n_nodes, n_hosts);
    if (gap >= 0)
        rc = fl_error_set(p->err, FL_EPARSE,
                          "line %d: node %d is attached, but node %d is never defined "
                          "(BookSim needs node ids 0 to %d with no gaps)",
                          nodes[gap].line, nodes[gap].id, first_missing(nodes, n_nodes),
                          *n_hosts - 1);
    free(nodes);
    return rc;
}

/* --- building ----------------------------------------------------------- */

#define TAU 6.28318530717958647692
/* Layout units between neighbouring switches on the circle, and from a
 * switch to its hosts. */
#define SWITCH_SPACING 1.5
#define HOST_DISTANCE 0.6

/* An anynet file has no drawing, so the switches go on a circle in rank
 * order and each switch's hosts fan out just outside it. */
static void layout_circle(FlTopology *t)
{
    int n_sw = fl_topology_switch_count(t);
    double radius = n_sw > 1 ? fmax(1.0, SWITCH_SPACING * n_sw / TAU) : 0.0;
    for (int r = 0; r < n_sw; r++) {
        int s = fl_topology_switch_node(t, r);
        double theta = TAU * r / n_sw - TAU / 4;
        double x = radius * cos(theta), y = radius * sin(theta);
        fl_topology_set_position(t, s, x, y);
        int m = 0, k = 0, np = fl_topology_node_ports(t, s);
        for (int port = 0; port < np; port++) {
            int o = fl_topology_port_peer(t, s, port, NULL);
            m += o >= 0 && fl_topology_node_kind(t, o) == FL_NODE_HOST;
        }
        for (int port = 0; port < np; port++) {
            int o = fl_topology_port_peer(t, s, port, NULL);
            if (o < 0 || fl_topology_node_kind(t, o) != FL_NODE_HOST)
                continue;
            /* A lone switch has the whole circle around it. */
            double phi = n_sw == 1 ? theta + TAU * k / m : theta + (k - (m - 1) / 2.0) * 0.5;
            fl_topology_set_position(t, o, x + HOST_DISTANCE * cos(phi),
                                     y + HOST_DISTANCE * sin(phi));
            k++;
        }
    }
}

/* Switches 0 to n_sw - 1 take the router ids, hosts the node ids after them;
 * joins are made in order of appearance, each on the lowest free port. */
static int build(Parse *p, int n_sw, int n_hosts, FlTopology **out)
{
    if ((long)n_sw + n_hosts > FL_IO_MAX_NODES)
        return fl_error_set(p->err, FL_ERANGE,
                            "the file has %d routers and %d nodes; at most %d in all can be read",
                            n_sw, n_hosts, FL_IO_MAX_NODES);
    int *degree = calloc((size_t)n_sw, sizeof *degree);
    if (!degree)
        return oom(p);
    int rc = FL_OK;
    for (int i = 0; i < p->n_edges && !rc; i++) {
        const Edge *e = &p->edges[i];
        int over = ++degree[e->a] > FL_MAX_PORTS ? e->a : -1;
        if (!e->host && ++degree[e->b] > FL_MAX_PORTS)
            over = e->b;
        if (over >= 0)
            rc = fl_error_set(p->err, FL_EPARSE,
                              "line %d: router %d has more than %d links and nodes, the most "
                              "ports a Flitlab switch can have",
                              e->line, over, FL_MAX_PORTS);
    }
    long ports = n_hosts;
    for (int r = 0; r < n_sw; r++)
        ports += degree[r] ? degree[r] : 1;
    if (!rc && ports > FL_IO_MAX_PORTS)
        rc = fl_error_set(p->err, FL_ERANGE, "the file's %d routers and %d nodes have %ld ports; "
                          "a network has at most %d", n_sw, n_hosts, ports, FL_IO_MAX_PORTS);
    FlTopology *t = rc ? NULL : fl_topology_new();
    if (!rc && !t)
        rc = oom(p);
    for (int r = 0; r < n_sw && !rc; r++)
        rc = fl_topology_add_node(t, FL_NODE_SWITCH, degree[r] ? degree[r] : 1, NULL, p->err);
    for (int h = 0; h < n_hosts && !rc; h++)
        rc = fl_topology_add_node(t, FL_NODE_HOST, 1, NULL, p->err);
    for (int i = 0; i < p->n_edges && !rc; i++) {
        const Edge *e = &p->edges[i];
        rc = fl_topology_connect(t, e->a, -1, e->host ? n_sw + e->b : e->b, -1, NULL, p->err);
    }
    free(degree);
    if (rc) {
        fl_topology_free(t);
        return rc;
    }
    layout_circle(t);
    *out = t;
    return FL_OK;
}

int fl_io_read_anynet_string(const char *text, size_t len, FlTopology **out, FlError *err)
{
    if ((!text && len) || !out)
        return fl_error_set(err, FL_EINVAL, "no text or no place for the topology");
    if (len > FL_IO_MAX_FILE_BYTES)
        return fl_error_set(err, FL_ERANGE, "the file is larger than %zu bytes",
                            (size_t)FL_IO_MAX_FILE_BYTES);
    Parse p = { .err = err };
    int rc = FL_OK, n_sw = 0, n_hosts = 0, line = 1;
    const char *s = text, *end = text + len;
    while (s < end && !rc) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        rc = parse_line(&p, s, nl ? nl : end, line++);
        s = nl ? nl + 1 : end;
    }
    if (!rc)
        rc = check_routers(&p, &n_sw);
    if (!rc)
        rc = check_edges(&p, &n_hosts);
    if (!rc)
        rc = build(&p, n_sw, n_hosts, out);
    free(p.edges);
    free(p.routers);
    free(p.node_heads);
    return rc;
}

/* --- writing ------------------------------------------------------------ */

/* Finds what an anynet file cannot hold before anything is written. */
static int check_writable(const FlTopology *t, FlError *err)
{
    int n_sw = fl_topology_switch_count(t);
    if (n_sw == 0)
        return fl_error_set(err, FL_EUNSUPPORTED,
                            "an anynet file needs at least one router, and the network has "
                            "no switches");
    for (int h = 0; h < fl_topology_host_count(t); h++)
        if (fl_topology_host_switch(t, fl_topology_host_node(t, h)) < 0)
            return fl_error_set(err, FL_EUNSUPPORTED,
                                "host %d is not attached to a switch, and an anynet file "
                                "cannot hold it",
                                fl_topology_node_label(t, fl_topology_host_node(t, h)));
    int *seen = malloc(sizeof *seen * (size_t)n_sw);
    if (!seen)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    for (int r = 0; r < n_sw; r++)
        seen[r] = -1;
    int rc = FL_OK;
    for (int r = 0; r < n_sw && !rc; r++) {
        int s = fl_topology_switch_node(t, r);
        for (int port = 0; port < fl_topology_node_ports(t, s) && !rc; port++) {
            int o = fl_topology_port_peer(t, s, port, NULL);
            if (o < 0 || fl_topology_node_kind(t, o) != FL_NODE_SWITCH)
                continue;
            int ro = fl_topology_node_rank(t, o);
            if (seen[ro] == r)
                rc = fl_error_set(err, FL_EUNSUPPORTED,
                                  "switches %d and %d are joined by more than one link, and "
                                  "an anynet file cannot hold parallel links",
                                  fl_topology_node_label(t, s), fl_topology_node_label(t, o));
            seen[ro] = r;
        }
    }
    free(seen);
    return rc;
}

int fl_io_write_anynet(const FlTopology *t, FILE *fp, FlError *err)
{
    if (!t || !fp)
        return fl_error_set(err, FL_EINVAL, "no topology or no stream to write to");
    int rc = check_writable(t, err);
    if (rc)
        return rc;
    for (int r = 0; r < fl_topology_switch_count(t); r++) {
        int s = fl_topology_switch_node(t, r);
        fprintf(fp, "router %d", r);
        for (int port = 0; port < fl_topology_node_ports(t, s); port++) {
            int o = fl_topology_port_peer(t, s, port, NULL);
            if (o < 0)
                continue;
            int ro = fl_topology_node_rank(t, o);
            if (fl_topology_node_kind(t, o) == FL_NODE_HOST)
                fprintf(fp, " node %d", ro);
            else if (ro > r)
                fprintf(fp, " router %d", ro);
        }
        fputc('\n', fp);
    }
    if (ferror(fp))
        return fl_error_set(err, FL_EIO, "write error");
    return FL_OK;
}
