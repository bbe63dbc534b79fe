/* topology.c — switches, hosts, ports and links as flat integer arrays. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int valid_node(const FlTopology *t, int n)
{
    return t && n >= 0 && n < t->n_nodes;
}

static int valid_link(const FlTopology *t, int l)
{
    return t && l >= 0 && l < t->n_links;
}

int fl__strdup_into(char **dst, const char *src)
{
    char *copy = NULL;
    if (src) {
        size_t len = strlen(src) + 1;
        copy = malloc(len);
        if (!copy)
            return FL_ENOMEM;
        memcpy(copy, src, len);
    }
    free(*dst);
    *dst = copy;
    return FL_OK;
}

/* Grows *p (elements of size elem) to at least want elements. */
static int grow(void **p, int *cap, int want, size_t elem)
{
    if (want <= *cap)
        return FL_OK;
    int ncap = *cap ? *cap : 16;
    while (ncap < want)
        ncap *= 2;
    void *np = realloc(*p, (size_t)ncap * elem);
    if (!np)
        return FL_ENOMEM;
    *p = np;
    *cap = ncap;
    return FL_OK;
}

/* All per-node arrays share cap_nodes, so they grow together. */
static int grow_nodes(FlTopology *t, int want)
{
    if (want <= t->cap_nodes)
        return FL_OK;
    int ncap = t->cap_nodes ? t->cap_nodes : 16;
    while (ncap < want)
        ncap *= 2;
    void *k = realloc(t->kind, (size_t)ncap);
    if (k) t->kind = k;
    void *np = realloc(t->nports, sizeof(int) * (size_t)ncap);
    if (np) t->nports = np;
    void *pb = realloc(t->port_base, sizeof(int) * (size_t)(ncap + 1));
    if (pb) t->port_base = pb;
    void *r = realloc(t->rank, sizeof(int) * (size_t)ncap);
    if (r) t->rank = r;
    void *c = realloc(t->coords, sizeof(int) * FL_MAX_DIMS * (size_t)ncap);
    if (c) t->coords = c;
    void *pos = realloc(t->pos, sizeof(double) * 2 * (size_t)ncap);
    if (pos) t->pos = pos;
    void *sw = realloc(t->switch_nodes, sizeof(int) * (size_t)ncap);
    if (sw) t->switch_nodes = sw;
    void *h = realloc(t->host_nodes, sizeof(int) * (size_t)ncap);
    if (h) t->host_nodes = h;
    if (!k || !np || !pb || !r || !c || !pos || !sw || !h)
        return FL_ENOMEM;
    t->cap_nodes = ncap;
    return FL_OK;
}

FlTopology *fl_topology_new(void)
{
    FlTopology *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    strcpy(t->family, "custom");
    if (grow_nodes(t, 16) != FL_OK || fl__strdup_into(&t->name, "")) {
        fl_topology_free(t);
        return NULL;
    }
    t->port_base[0] = 0;
    return t;
}

void fl_topology_free(FlTopology *t)
{
    if (!t)
        return;
    free(t->kind);
    free(t->nports);
    free(t->port_base);
    free(t->rank);
    free(t->coords);
    free(t->pos);
    free(t->switch_nodes);
    free(t->host_nodes);
    free(t->port_link);
    free(t->link_end);
    free(t->spec);
    free(t->name);
    free(t);
}

static void *dup_array(const void *src, size_t bytes, int *ok)
{
    if (bytes == 0)
        return NULL;
    void *p = malloc(bytes);
    if (!p) {
        *ok = 0;
        return NULL;
    }
    memcpy(p, src, bytes);
    return p;
}

FlTopology *fl_topology_copy(const FlTopology *t)
{
    if (!t)
        return NULL;
    FlTopology *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    int ok = 1;
    *c = *t;
    size_t nc = (size_t)t->cap_nodes;
    c->kind = dup_array(t->kind, nc, &ok);
    c->nports = dup_array(t->nports, nc * sizeof(int), &ok);
    c->port_base = dup_array(t->port_base, (nc + 1) * sizeof(int), &ok);
    c->rank = dup_array(t->rank, nc * sizeof(int), &ok);
    c->coords = dup_array(t->coords, nc * FL_MAX_DIMS * sizeof(int), &ok);
    c->pos = dup_array(t->pos, nc * 2 * sizeof(double), &ok);
    c->switch_nodes = dup_array(t->switch_nodes, nc * sizeof(int), &ok);
    c->host_nodes = dup_array(t->host_nodes, nc * sizeof(int), &ok);
    c->port_link = dup_array(t->port_link, (size_t)t->cap_ports * sizeof(int), &ok);
    c->link_end = dup_array(t->link_end, (size_t)t->cap_links * 4 * sizeof(int), &ok);
    c->spec = c->name = NULL;
    if (!ok || fl__strdup_into(&c->spec, t->spec) || fl__strdup_into(&c->name, t->name)) {
        fl_topology_free(c);
        return NULL;
    }
    return c;
}

/* An edit changes the structure, so the generator's name no longer fits. */
static void mark_custom(FlTopology *t)
{
    if (strcmp(t->family, "custom") != 0) {
        strcpy(t->family, "custom");
        t->family_ndims = 0;
        free(t->spec);
        t->spec = NULL;
    }
}

/* Recomputes ranks and the switch/host lists after a removal. */
static void rebuild_ranks(FlTopology *t)
{
    t->n_switches = t->n_hosts = 0;
    for (int n = 0; n < t->n_nodes; n++) {
        if (t->kind[n] == FL_NODE_SWITCH) {
            t->rank[n] = t->n_switches;
            t->switch_nodes[t->n_switches++] = n;
        } else {
            t->rank[n] = t->n_hosts;
            t->host_nodes[t->n_hosts++] = n;
        }
    }
    t->n_switch_links = 0;
    for (int l = 0; l < t->n_links; l++) {
        const int *e = t->link_end + 4 * l;
        if (t->kind[e[0]] == FL_NODE_SWITCH && t->kind[e[2]] == FL_NODE_SWITCH)
            t->n_switch_links++;
    }
}

int fl_topology_add_node(FlTopology *t, FlNodeKind kind, int nports, int *id,
                         FlError *err)
{
    if (!t)
        return fl_error_set(err, FL_EINVAL, "no topology");
    if (kind != FL_NODE_SWITCH && kind != FL_NODE_HOST)
        return fl_error_set(err, FL_EINVAL, "unknown node kind %d", (int)kind);
    if (kind == FL_NODE_HOST && nports != 1)
        return fl_error_set(err, FL_ERANGE, "a host has exactly 1 port, not %d", nports);
    if (nports < 1 || nports > FL_MAX_PORTS)
        return fl_error_set(err, FL_ERANGE,
                            "a switch has 1 to %d ports, not %d", FL_MAX_PORTS, nports);
    if (grow_nodes(t, t->n_nodes + 1)
        || grow((void **)&t->port_link, &t->cap_ports, t->n_ports + nports, sizeof(int)))
        return fl_error_set(err, FL_ENOMEM, "out of memory adding a node");

    int n = t->n_nodes++;
    t->kind[n] = (uint8_t)kind;
    t->nports[n] = nports;
    t->port_base[n] = t->n_ports;
    for (int p = 0; p < nports; p++)
        t->port_link[t->n_ports + p] = -1;
    t->n_ports += nports;
    t->port_base[n + 1] = t->n_ports;
    memset(t->coords + FL_MAX_DIMS * n, 0, sizeof(int) * FL_MAX_DIMS);
    t->pos[2 * n] = t->pos[2 * n + 1] = 0.0;
    if (kind == FL_NODE_SWITCH) {
        t->rank[n] = t->n_switches;
        t->switch_nodes[t->n_switches++] = n;
    } else {
        t->rank[n] = t->n_hosts;
        t->host_nodes[t->n_hosts++] = n;
    }
    mark_custom(t);
    if (id)
        *id = n;
    return FL_OK;
}

static int lowest_free_port(const FlTopology *t, int n)
{
    for (int p = 0; p < t->nports[n]; p++)
        if (t->port_link[t->port_base[n] + p] < 0)
            return p;
    return -1;
}

static const char *kind_name(const FlTopology *t, int n)
{
    return t->kind[n] == FL_NODE_SWITCH ? "switch" : "host";
}

/* Resolves a requested port (-1 = lowest free) and checks it is usable. */
static int pick_port(const FlTopology *t, int n, int p, int *out, FlError *err)
{
    if (p < 0) {
        p = lowest_free_port(t, n);
        if (p < 0)
            return fl_error_set(err, FL_EPORT, "%s %d has no free port (all %d in use)",
                                kind_name(t, n), n, t->nports[n]);
    } else if (p >= t->nports[n]) {
        return fl_error_set(err, FL_EPORT, "%s %d has no port %d (it has %d)",
                            kind_name(t, n), n, p, t->nports[n]);
    } else if (t->port_link[t->port_base[n] + p] >= 0) {
        return fl_error_set(err, FL_EPORT, "port %d of %s %d is already connected",
                            p, kind_name(t, n), n);
    }
    *out = p;
    return FL_OK;
}

int fl_topology_connect(FlTopology *t, int a, int pa, int b, int pb, int *link,
                        FlError *err)
{
    int rc;
    if (!valid_node(t, a) || !valid_node(t, b))
        return fl_error_set(err, FL_ENOTFOUND, "no node %d", valid_node(t, a) ? b : a);
    if (a == b)
        return fl_error_set(err, FL_EINVAL, "node %d cannot be linked to itself", a);
    if (t->kind[a] == FL_NODE_HOST && t->kind[b] == FL_NODE_HOST)
        return fl_error_set(err, FL_EINVAL,
                            "hosts %d and %d cannot be linked: a host attaches to a switch", a, b);
    if ((rc = pick_port(t, a, pa, &pa, err)) || (rc = pick_port(t, b, pb, &pb, err)))
        return rc;
    if (grow((void **)&t->link_end, &t->cap_links, t->n_links + 1, 4 * sizeof(int)))
        return fl_error_set(err, FL_ENOMEM, "out of memory adding a link");

    int l = t->n_links++;
    int *e = t->link_end + 4 * l;
    e[0] = a, e[1] = pa, e[2] = b, e[3] = pb;
    t->port_link[t->port_base[a] + pa] = l;
    t->port_link[t->port_base[b] + pb] = l;
    if (t->kind[a] == FL_NODE_SWITCH && t->kind[b] == FL_NODE_SWITCH)
        t->n_switch_links++;
    mark_custom(t);
    if (link)
        *link = l;
    return FL_OK;
}

int fl_topology_disconnect(FlTopology *t, int link, FlError *err)
{
    if (!valid_link(t, link))
        return fl_error_set(err, FL_ENOTFOUND, "no link %d", link);
    const int *e = t->link_end + 4 * link;
    t->port_link[t->port_base[e[0]] + e[1]] = -1;
    t->port_link[t->port_base[e[2]] + e[3]] = -1;
    if (t->kind[e[0]] == FL_NODE_SWITCH && t->kind[e[2]] == FL_NODE_SWITCH)
        t->n_switch_links--;
    memmove(t->link_end + 4 * link, t->link_end + 4 * (link + 1),
            sizeof(int) * 4 * (size_t)(t->n_links - link - 1));
    t->n_links--;
    for (int i = 0; i < t->n_ports; i++)
        if (t->port_link[i] > link)
            t->port_link[i]--;
    mark_custom(t);
    return FL_OK;
}

int fl_topology_remove_node(FlTopology *t, int node, FlError *err)
{
    if (!valid_node(t, node))
        return fl_error_set(err, FL_ENOTFOUND, "no node %d", node);
    /* Drop the node's links first, highest first so indices stay valid. */
    for (int p = t->nports[node] - 1; p >= 0; p--) {
        int l = t->port_link[t->port_base[node] + p];
        if (l >= 0)
            fl_topology_disconnect(t, l, NULL);
    }
    int base = t->port_base[node], np = t->nports[node];
    memmove(t->port_link + base, t->port_link + base + np,
            sizeof(int) * (size_t)(t->n_ports - base - np));
    t->n_ports -= np;

    int tail = t->n_nodes - node - 1;
    memmove(t->kind + node, t->kind + node + 1, (size_t)tail);
    memmove(t->nports + node, t->nports + node + 1, sizeof(int) * (size_t)tail);
    memmove(t->coords + FL_MAX_DIMS * node, t->coords + FL_MAX_DIMS * (node + 1),
            sizeof(int) * FL_MAX_DIMS * (size_t)tail);
    memmove(t->pos + 2 * node, t->pos + 2 * (node + 1), sizeof(double) * 2 * (size_t)tail);
    t->n_nodes--;
    for (int n = node; n <= t->n_nodes; n++)
        t->port_base[n] = n == 0 ? 0 : t->port_base[n - 1] + t->nports[n - 1];
    for (int l = 0; l < t->n_links; l++) {
        int *e = t->link_end + 4 * l;
        if (e[0] > node) e[0]--;
        if (e[2] > node) e[2]--;
    }
    rebuild_ranks(t);
    mark_custom(t);
    return FL_OK;
}

int fl_topology_set_node_ports(FlTopology *t, int node, int nports, FlError *err)
{
    if (!valid_node(t, node))
        return fl_error_set(err, FL_ENOTFOUND, "no node %d", node);
    if (t->kind[node] == FL_NODE_HOST && nports != 1)
        return fl_error_set(err, FL_ERANGE, "a host has exactly 1 port, not %d", nports);
    if (nports < 1 || nports > FL_MAX_PORTS)
        return fl_error_set(err, FL_ERANGE, "a switch has 1 to %d ports, not %d",
                            FL_MAX_PORTS, nports);
    int old = t->nports[node], base = t->port_base[node];
    for (int p = nports; p < old; p++)
        if (t->port_link[base + p] >= 0)
            return fl_error_set(err, FL_EPORT,
                                "port %d of switch %d is still connected", p, node);
    if (nports == old)
        return FL_OK;
    if (grow((void **)&t->port_link, &t->cap_ports, t->n_ports + nports - old, sizeof(int)))
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    memmove(t->port_link + base + nports, t->port_link + base + old,
            sizeof(int) * (size_t)(t->n_ports - base - old));
    for (int p = old; p < nports; p++)
        t->port_link[base + p] = -1;
    t->n_ports += nports - old;
    t->nports[node] = nports;
    for (int n = node + 1; n <= t->n_nodes; n++)
        t->port_base[n] += nports - old;
    mark_custom(t);
    return FL_OK;
}

/* --- queries ------------------------------------------------------------ */

int fl_topology_node_count(const FlTopology *t) { return t ? t->n_nodes : 0; }
int fl_topology_switch_count(const FlTopology *t) { return t ? t->n_switches : 0; }
int fl_topology_host_count(const FlTopology *t) { return t ? t->n_hosts : 0; }
int fl_topology_link_count(const FlTopology *t) { return t ? t->n_links : 0; }
int fl_topology_switch_link_count(const FlTopology *t) { return t ? t->n_switch_links : 0; }
int fl_topology_channel_count(const FlTopology *t) { return t ? 2 * t->n_links : 0; }

FlNodeKind fl_topology_node_kind(const FlTopology *t, int node)
{
    return valid_node(t, node) ? (FlNodeKind)t->kind[node] : (FlNodeKind)-1;
}

int fl_topology_node_ports(const FlTopology *t, int node)
{
    return valid_node(t, node) ? t->nports[node] : -1;
}

int fl_topology_port_link(const FlTopology *t, int node, int port)
{
    if (!valid_node(t, node) || port < 0 || port >= t->nports[node])
        return -1;
    return t->port_link[t->port_base[node] + port];
}

int fl_topology_port_peer(const FlTopology *t, int node, int port, int *peer_port)
{
    int l = fl_topology_port_link(t, node, port);
    if (l < 0)
        return -1;
    const int *e = t->link_end + 4 * l;
    /* Compare ports too: the two ends differ in node, except never (no
     * self-loops), so the node alone decides which end we stand on. */
    int far = e[0] == node ? 2 : 0;
    if (peer_port)
        *peer_port = e[far + 1];
    return e[far];
}

int fl_topology_switch_degree(const FlTopology *t, int node)
{
    if (!valid_node(t, node) || t->kind[node] != FL_NODE_SWITCH)
        return -1;
    int d = 0;
    for (int p = 0; p < t->nports[node]; p++) {
        int l = t->port_link[t->port_base[node] + p];
        if (l >= 0 && t->kind[fl__link_other(t, l, node)] == FL_NODE_SWITCH)
            d++;
    }
    return d;
}

int fl_topology_host_switch(const FlTopology *t, int host)
{
    if (!valid_node(t, host) || t->kind[host] != FL_NODE_HOST)
        return -1;
    return fl_topology_port_peer(t, host, 0, NULL);
}

int fl_topology_link_ends(const FlTopology *t, int link, int *a, int *pa, int *b, int *pb)
{
    if (!valid_link(t, link))
        return FL_ENOTFOUND;
    const int *e = t->link_end + 4 * link;
    if (a) *a = e[0];
    if (pa) *pa = e[1];
    if (b) *b = e[2];
    if (pb) *pb = e[3];
    return FL_OK;
}

int fl_topology_channel_src(const FlTopology *t, int channel)
{
    if (!t || channel < 0 || channel >= 2 * t->n_links)
        return -1;
    return t->link_end[4 * (channel >> 1) + ((channel & 1) ? 2 : 0)];
}

int fl_topology_channel_dst(const FlTopology *t, int channel)
{
    if (!t || channel < 0 || channel >= 2 * t->n_links)
        return -1;
    return t->link_end[4 * (channel >> 1) + ((channel & 1) ? 0 : 2)];
}

int fl_topology_switch_node(const FlTopology *t, int i)
{
    return t && i >= 0 && i < t->n_switches ? t->switch_nodes[i] : -1;
}

int fl_topology_host_node(const FlTopology *t, int i)
{
    return t && i >= 0 && i < t->n_hosts ? t->host_nodes[i] : -1;
}

int fl_topology_node_rank(const FlTopology *t, int node)
{
    return valid_node(t, node) ? t->rank[node] : -1;
}

/* --- coordinates, positions, family, name ------------------------------- */

int fl_topology_coord_dims(const FlTopology *t) { return t ? t->coord_dims : 0; }

int fl_topology_set_coord_dims(FlTopology *t, int ndims)
{
    if (!t || ndims < 0 || ndims > FL_MAX_DIMS)
        return FL_EINVAL;
    for (int n = 0; n < t->n_nodes; n++)
        for (int d = ndims; d < FL_MAX_DIMS; d++)
            t->coords[FL_MAX_DIMS * n + d] = 0;
    t->coord_dims = ndims;
    return FL_OK;
}

int fl_topology_get_coords(const FlTopology *t, int node, int *coords)
{
    if (!valid_node(t, node) || !coords)
        return FL_EINVAL;
    memcpy(coords, t->coords + FL_MAX_DIMS * node, sizeof(int) * (size_t)t->coord_dims);
    return FL_OK;
}

int fl_topology_set_coords(FlTopology *t, int node, const int *coords)
{
    if (!valid_node(t, node) || !coords)
        return FL_EINVAL;
    memcpy(t->coords + FL_MAX_DIMS * node, coords, sizeof(int) * (size_t)t->coord_dims);
    return FL_OK;
}

int fl_topology_get_position(const FlTopology *t, int node, double *x, double *y)
{
    if (!valid_node(t, node))
        return FL_EINVAL;
    if (x) *x = t->pos[2 * node];
    if (y) *y = t->pos[2 * node + 1];
    return FL_OK;
}

int fl_topology_set_position(FlTopology *t, int node, double x, double y)
{
    if (!valid_node(t, node))
        return FL_EINVAL;
    t->pos[2 * node] = x;
    t->pos[2 * node + 1] = y;
    return FL_OK;
}

const char *fl_topology_family(const FlTopology *t) { return t ? t->family : "custom"; }

int fl_topology_family_dims(const FlTopology *t, int dims[FL_MAX_DIMS])
{
    if (!t)
        return 0;
    for (int d = 0; d < t->family_ndims; d++)
        dims[d] = t->family_dims[d];
    return t->family_ndims;
}

const char *fl_topology_spec(const FlTopology *t) { return t ? t->spec : NULL; }

int fl_topology_set_family(FlTopology *t, const char *family, int ndims,
                           const int *dims, const char *spec)
{
    if (!t || !family || !*family || strlen(family) >= FL__FAMILY_MAX || ndims < 0
        || ndims > FL_MAX_DIMS || (ndims && !dims))
        return FL_EINVAL;
    if (fl__strdup_into(&t->spec, spec))
        return FL_ENOMEM;
    strcpy(t->family, family);
    t->family_ndims = ndims;
    for (int d = 0; d < ndims; d++)
        t->family_dims[d] = dims[d];
    return FL_OK;
}

const char *fl_topology_name(const FlTopology *t) { return t ? t->name : ""; }

int fl_topology_set_name(FlTopology *t, const char *name)
{
    if (!t)
        return FL_EINVAL;
    return fl__strdup_into(&t->name, name ? name : "");
}

/* --- validation --------------------------------------------------------- */

int fl_topology_validate(const FlTopology *t, FlError *err)
{
    if (!t || t->n_switches == 0)
        return fl_error_set(err, FL_EINVAL, "the network has no switches");
    for (int i = 0; i < t->n_hosts; i++) {
        int h = t->host_nodes[i];
        if (fl_topology_host_switch(t, h) < 0)
            return fl_error_set(err, FL_EDISCONNECTED,
                                "host %d is not attached to a switch", h);
    }
    /* Parallel links: for each switch, mark its neighbours and look for a
     * second link to the same one. */
    int *seen = malloc(sizeof(int) * (size_t)t->n_nodes);
    if (!seen)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    for (int n = 0; n < t->n_nodes; n++)
        seen[n] = -1;
    for (int i = 0; i < t->n_switches; i++) {
        int s = t->switch_nodes[i];
        for (int p = 0; p < t->nports[s]; p++) {
            int l = t->port_link[t->port_base[s] + p];
            if (l < 0)
                continue;
            int o = fl__link_other(t, l, s);
            if (seen[o] == s) {
                free(seen);
                return fl_error_set(err, FL_EINVAL,
                                    "switches %d and %d are joined by more than one link", s, o);
            }
            seen[o] = s;
        }
    }
    free(seen);

    FlSwitchGraph g;
    if (fl__switch_graph_build(t, &g))
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    int *dist = malloc(sizeof(int) * 2 * (size_t)g.n);
    if (!dist) {
        fl__switch_graph_free(&g);
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    int reached = fl__switch_graph_bfs(&g, 0, dist, dist + g.n);
    int rc = FL_OK;
    if (reached < g.n) {
        for (int r = 0; r < g.n; r++)
            if (dist[r] < 0) {
                rc = fl_error_set(err, FL_EDISCONNECTED,
                                  "switch %d is not connected to switch %d",
                                  t->switch_nodes[r], t->switch_nodes[0]);
                break;
            }
    }
    free(dist);
    fl__switch_graph_free(&g);
    return rc;
}

/* --- the switch graph, shared by metrics and validation ----------------- */

int fl__switch_graph_build(const FlTopology *t, FlSwitchGraph *g)
{
    int n = t->n_switches;
    g->n = n;
    g->off = malloc(sizeof(int) * (size_t)(n + 1));
    g->adj = malloc(sizeof(int) * (size_t)(2 * t->n_switch_links + 1));
    if (!g->off || !g->adj) {
        fl__switch_graph_free(g);
        return FL_ENOMEM;
    }
    int k = 0;
    for (int r = 0; r < n; r++) {
        int s = t->switch_nodes[r];
        g->off[r] = k;
        for (int p = 0; p < t->nports[s]; p++) {
            int l = t->port_link[t->port_base[s] + p];
            if (l < 0)
                continue;
            int o = fl__link_other(t, l, s);
            if (t->kind[o] == FL_NODE_SWITCH)
                g->adj[k++] = t->rank[o];
        }
    }
    g->off[n] = k;
    return FL_OK;
}

void fl__switch_graph_free(FlSwitchGraph *g)
{
    free(g->off);
    free(g->adj);
    g->off = g->adj = NULL;
    g->n = 0;
}

int fl__switch_graph_bfs(const FlSwitchGraph *g, int s, int *dist, int *queue)
{
    for (int i = 0; i < g->n; i++)
        dist[i] = -1;
    if (s < 0 || s >= g->n)
        return 0;
    int head = 0, tail = 0;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        int u = queue[head++];
        int du = dist[u] + 1;
        for (int k = g->off[u]; k < g->off[u + 1]; k++) {
            int v = g->adj[k];
            if (dist[v] < 0) {
                dist[v] = du;
                queue[tail++] = v;
            }
        }
    }
    return tail;
}

int fl_topology_bfs(const FlTopology *t, int source_switch_rank, int *dist, FlError *err)
{
    if (!t || !dist)
        return fl_error_set(err, FL_EINVAL, "no topology or output array");
    if (source_switch_rank < 0 || source_switch_rank >= t->n_switches)
        return fl_error_set(err, FL_ERANGE, "no switch %d", source_switch_rank);
    FlSwitchGraph g;
    if (fl__switch_graph_build(t, &g))
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    int *queue = malloc(sizeof(int) * (size_t)g.n);
    if (!queue) {
        fl__switch_graph_free(&g);
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    fl__switch_graph_bfs(&g, source_switch_rank, dist, queue);
    free(queue);
    fl__switch_graph_free(&g);
    return FL_OK;
}
