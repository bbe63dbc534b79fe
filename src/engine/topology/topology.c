/* topology.c — switches, hosts, ports and links as flat integer arrays,
 * with the labels people see and the bounds of the switches' coordinates
 * kept current by every edit. */
#include <limits.h>
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
    void *lb = realloc(t->label, sizeof(int) * (size_t)ncap);
    if (lb) t->label = lb;
    if (!k || !np || !pb || !r || !c || !pos || !sw || !h || !lb)
        return FL_ENOMEM;
    t->cap_nodes = ncap;
    return FL_OK;
}

/* --- the label index --------------------------------------------------- */

#define MIN_LABEL_SLOTS 32

/* Where label's probe sequence starts: the high bits of a multiplicative
 * hash, scaled to the table without a division. */
static int label_home(int label, int slots)
{
    uint32_t h = (uint32_t)label * 2654435761u;
    return (int)(((uint64_t)h * (uint64_t)slots) >> 32);
}

/* The slot holding label, or -1. */
static int label_slot_of(const FlTopology *t, int label)
{
    if (!t->label_slots)
        return -1;
    int mask = t->label_slots - 1;
    for (int i = label_home(label, t->label_slots);; i = (i + 1) & mask) {
        int n = t->label_slot[i];
        if (n < 0)
            return -1;
        if (t->label[n] == label)
            return i;
    }
}

static void label_index_add(FlTopology *t, int node)
{
    int mask = t->label_slots - 1;
    int i = label_home(t->label[node], t->label_slots);
    while (t->label_slot[i] >= 0)
        i = (i + 1) & mask;
    t->label_slot[i] = node;
}

/* Empties slot i and moves later entries of its cluster back, so that no
 * probe sequence is cut (deletion without tombstones). */
static void label_index_remove_slot(FlTopology *t, int i)
{
    int mask = t->label_slots - 1;
    t->label_slot[i] = -1;
    for (int j = (i + 1) & mask; t->label_slot[j] >= 0; j = (j + 1) & mask) {
        int n = t->label_slot[j];
        int home = label_home(t->label[n], t->label_slots);
        /* The entry may fill the hole unless its home lies cyclically in
         * (i, j]. */
        int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            t->label_slot[i] = n;
            t->label_slot[j] = -1;
            i = j;
        }
    }
}

static void label_index_fill(FlTopology *t)
{
    for (int i = 0; i < t->label_slots; i++)
        t->label_slot[i] = -1;
    for (int n = 0; n < t->n_nodes; n++)
        label_index_add(t, n);
}

/* Makes room in the index for nodes entries at most half full. */
static int label_index_reserve(FlTopology *t, int nodes)
{
    if (t->label_slots >= MIN_LABEL_SLOTS && t->label_slots / 2 >= nodes)
        return FL_OK;
    int slots = t->label_slots ? t->label_slots : MIN_LABEL_SLOTS;
    while (slots / 2 < nodes)
        slots *= 2;
    int *ns = malloc(sizeof(int) * (size_t)slots);
    if (!ns)
        return FL_ENOMEM;
    free(t->label_slot);
    t->label_slot = ns;
    t->label_slots = slots;
    label_index_fill(t);
    return FL_OK;
}

/* --- bounds of the switches' coordinates ------------------------------- */

static void bounds_rescan(FlTopology *t)
{
    for (int d = 0; d < FL_MAX_DIMS; d++)
        t->coord_lo[d] = t->coord_hi[d] = t->coord_n_lo[d] = t->coord_n_hi[d] = 0;
    for (int i = 0; i < t->n_switches; i++) {
        const int *c = t->coords + FL_MAX_DIMS * t->switch_nodes[i];
        for (int d = 0; d < t->coord_dims; d++) {
            if (i == 0 || c[d] < t->coord_lo[d])
                t->coord_lo[d] = c[d], t->coord_n_lo[d] = 0;
            if (i == 0 || c[d] > t->coord_hi[d])
                t->coord_hi[d] = c[d], t->coord_n_hi[d] = 0;
            t->coord_n_lo[d] += c[d] == t->coord_lo[d];
            t->coord_n_hi[d] += c[d] == t->coord_hi[d];
        }
    }
}

/* Counts a switch coordinate v of dimension d into the bounds. */
static void bounds_add(FlTopology *t, int d, int v)
{
    if (t->coord_n_lo[d] == 0 || v < t->coord_lo[d])
        t->coord_lo[d] = v, t->coord_n_lo[d] = 0;
    if (t->coord_n_hi[d] == 0 || v > t->coord_hi[d])
        t->coord_hi[d] = v, t->coord_n_hi[d] = 0;
    t->coord_n_lo[d] += v == t->coord_lo[d];
    t->coord_n_hi[d] += v == t->coord_hi[d];
}

/* Takes v out of the counts; 1 when a bound lost its last switch and the
 * bounds must be rescanned. */
static int bounds_drop(FlTopology *t, int d, int v)
{
    int rescan = 0;
    if (v == t->coord_lo[d])
        rescan |= --t->coord_n_lo[d] == 0;
    if (v == t->coord_hi[d])
        rescan |= --t->coord_n_hi[d] == 0;
    return rescan;
}

/* --- life cycle --------------------------------------------------------- */

FlTopology *fl_topology_new(void)
{
    FlTopology *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    strcpy(t->family, "custom");
    if (grow_nodes(t, 16) != FL_OK || label_index_reserve(t, 16) != FL_OK
        || fl__strdup_into(&t->name, "")) {
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
    free(t->label);
    free(t->label_slot);
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
    c->label = dup_array(t->label, nc * sizeof(int), &ok);
    c->label_slot = dup_array(t->label_slot, (size_t)t->label_slots * sizeof(int), &ok);
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
    if (t->next_label == INT_MAX)
        return fl_error_set(err, FL_ERANGE, "no label is left for a new node");
    if (grow_nodes(t, t->n_nodes + 1)
        || grow((void **)&t->port_link, &t->cap_ports, t->n_ports + nports, sizeof(int))
        || label_index_reserve(t, t->n_nodes + 1))
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
    t->label[n] = t->next_label++;
    label_index_add(t, n);
    if (kind == FL_NODE_SWITCH) {
        t->rank[n] = t->n_switches;
        t->switch_nodes[t->n_switches++] = n;
        for (int d = 0; d < t->coord_dims; d++)
            bounds_add(t, d, 0);
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

/* Messages name existing nodes by label, as the user sees them. */
#define LABEL(t, n) ((t)->label[n])
#define IS_HOST(t, n) ((t)->kind[n] == FL_NODE_HOST)

/* Resolves a requested port (-1 = lowest free) and checks it is usable. */
static int pick_port(const FlTopology *t, int n, int p, int *out, FlError *err)
{
    if (p < 0) {
        p = lowest_free_port(t, n);
        if (p < 0 && IS_HOST(t, n))
            return fl_error_set(err, FL_EPORT, "host %d has no free port (all %d in use)",
                                LABEL(t, n), t->nports[n]);
        if (p < 0)
            return fl_error_set(err, FL_EPORT, "switch %d has no free port (all %d in use)",
                                LABEL(t, n), t->nports[n]);
    } else if (p >= t->nports[n]) {
        return IS_HOST(t, n) ? fl_error_set(err, FL_EPORT, "host %d has no port %d (it has %d)",
                                            LABEL(t, n), p, t->nports[n])
                             : fl_error_set(err, FL_EPORT,
                                            "switch %d has no port %d (it has %d)", LABEL(t, n),
                                            p, t->nports[n]);
    } else if (t->port_link[t->port_base[n] + p] >= 0) {
        return IS_HOST(t, n) ? fl_error_set(err, FL_EPORT, "port %d of host %d is already "
                                            "connected", p, LABEL(t, n))
                             : fl_error_set(err, FL_EPORT, "port %d of switch %d is already "
                                            "connected", p, LABEL(t, n));
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
        return IS_HOST(t, a) ? fl_error_set(err, FL_EINVAL, "host %d cannot be linked to "
                                            "itself", LABEL(t, a))
                             : fl_error_set(err, FL_EINVAL, "switch %d cannot be linked to "
                                            "itself", LABEL(t, a));
    if (t->kind[a] == FL_NODE_HOST && t->kind[b] == FL_NODE_HOST)
        return fl_error_set(err, FL_EINVAL,
                            "hosts %d and %d cannot be linked: a host attaches to a switch",
                            LABEL(t, a), LABEL(t, b));
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
    memmove(t->label + node, t->label + node + 1, sizeof(int) * (size_t)tail);
    t->n_nodes--;
    for (int n = node; n <= t->n_nodes; n++)
        t->port_base[n] = n == 0 ? 0 : t->port_base[n - 1] + t->nports[n - 1];
    for (int l = 0; l < t->n_links; l++) {
        int *e = t->link_end + 4 * l;
        if (e[0] > node) e[0]--;
        if (e[2] > node) e[2]--;
    }
    rebuild_ranks(t);
    label_index_fill(t);
    bounds_rescan(t);
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
                                "port %d of switch %d is still connected", p, LABEL(t, node));
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

/* --- labels ------------------------------------------------------------- */

int fl_topology_node_label(const FlTopology *t, int node)
{
    return valid_node(t, node) ? t->label[node] : -1;
}

int fl_topology_find_label(const FlTopology *t, int label)
{
    if (!t || label < 0)
        return -1;
    int i = label_slot_of(t, label);
    return i < 0 ? -1 : t->label_slot[i];
}

int fl_topology_set_node_label(FlTopology *t, int node, int label, FlError *err)
{
    if (!valid_node(t, node))
        return fl_error_set(err, FL_ENOTFOUND, "no node %d", node);
    if (label < 0 || label == INT_MAX)
        return fl_error_set(err, FL_ERANGE, "a label is a whole number from 0 to %d, not %d",
                            INT_MAX - 1, label);
    if (t->label[node] == label)
        return FL_OK;
    int other = fl_topology_find_label(t, label);
    if (other >= 0)
        return IS_HOST(t, other)
                   ? fl_error_set(err, FL_EEXIST, "label %d is already used by another host",
                                  label)
                   : fl_error_set(err, FL_EEXIST, "label %d is already used by another switch",
                                  label);
    label_index_remove_slot(t, label_slot_of(t, t->label[node]));
    t->label[node] = label;
    label_index_add(t, node);
    if (label >= t->next_label)
        t->next_label = label + 1;
    return FL_OK;
}

int fl_topology_next_label(const FlTopology *t)
{
    return t ? t->next_label : 0;
}

int fl_topology_set_next_label(FlTopology *t, int label, FlError *err)
{
    if (!t)
        return fl_error_set(err, FL_EINVAL, "no topology");
    if (label < 0)
        return fl_error_set(err, FL_ERANGE, "a label is a whole number from 0, not %d", label);
    for (int n = 0; n < t->n_nodes; n++)
        if (label <= t->label[n])
            return fl_error_set(err, FL_ERANGE,
                                "the next label must be above every label in use, and %d "
                                "is not above %d", label, t->label[n]);
    t->next_label = label;
    return FL_OK;
}

/* --- links as the coordinates place them -------------------------------- */

/* Families whose generators make wrap-around links; the others (meshes,
 * lines, hypercubes, the irregular and Myrinet networks) never have one,
 * whatever their coordinates look like. */
static int family_may_wrap(const FlTopology *t)
{
    static const char *const wrapping[] = { "custom", "torus", "ring", "xmesh", "dmesh" };
    for (size_t i = 0; i < sizeof wrapping / sizeof wrapping[0]; i++)
        if (strcmp(t->family, wrapping[i]) == 0)
            return 1;
    return 0;
}

/* The coordinates of the two ends of switch link l, or 0 when l is not a
 * link between switches or the network has no coordinates. */
static int switch_link_coords(const FlTopology *t, int l, const int **ca, const int **cb)
{
    if (!valid_link(t, l) || t->coord_dims == 0)
        return 0;
    const int *e = t->link_end + 4 * l;
    if (t->kind[e[0]] != FL_NODE_SWITCH || t->kind[e[2]] != FL_NODE_SWITCH)
        return 0;
    *ca = t->coords + FL_MAX_DIMS * e[0];
    *cb = t->coords + FL_MAX_DIMS * e[2];
    return 1;
}

int fl_topology_link_wraps(const FlTopology *t, int link)
{
    const int *ca, *cb;
    if (!switch_link_coords(t, link, &ca, &cb) || !family_may_wrap(t))
        return 0;
    int wraps = 0;
    for (int d = 0; d < t->coord_dims; d++) {
        int lo = t->coord_lo[d], hi = t->coord_hi[d];
        int a = ca[d], b = cb[d];
        long long diff = (long long)a - b;
        if (diff >= -1 && diff <= 1)
            continue;
        /* One end on the lowest coordinate, the other on the highest, of a
         * dimension at least 3 wide: the link closes the ring. */
        if ((long long)hi - lo >= 2 && ((a == lo && b == hi) || (a == hi && b == lo)))
            wraps = 1;
        else
            return 0;
    }
    return wraps;
}

int fl_topology_link_dim(const FlTopology *t, int link)
{
    const int *ca, *cb;
    if (!switch_link_coords(t, link, &ca, &cb))
        return -1;
    int dim = -1;
    for (int d = 0; d < t->coord_dims; d++) {
        if (ca[d] == cb[d])
            continue;
        if (dim >= 0)
            return -1;
        dim = d;
    }
    return dim;
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
    bounds_rescan(t);
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
    int *c = t->coords + FL_MAX_DIMS * node, rescan = 0;
    for (int d = 0; d < t->coord_dims; d++) {
        if (t->kind[node] == FL_NODE_SWITCH && c[d] != coords[d]) {
            bounds_add(t, d, coords[d]);
            rescan |= bounds_drop(t, d, c[d]);
        }
        c[d] = coords[d];
    }
    if (rescan)
        bounds_rescan(t);
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
                                "host %d is not attached to a switch", LABEL(t, h));
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
                                    "switches %d and %d are joined by more than one link",
                                    LABEL(t, s), LABEL(t, o));
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
                                  LABEL(t, t->switch_nodes[r]), LABEL(t, t->switch_nodes[0]));
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

int fl__bfs64_alloc(FlBfs64 *b, int n)
{
    size_t len = (size_t)n + 1;
    b->seen = malloc(sizeof *b->seen * len);
    b->frontier = calloc(len, sizeof *b->frontier);
    b->next = calloc(len, sizeof *b->next);
    b->cur = malloc(sizeof *b->cur * len);
    b->touched = malloc(sizeof *b->touched * len);
    b->ncur = 0;
    return b->seen && b->frontier && b->next && b->cur && b->touched ? FL_OK : FL_ENOMEM;
}

void fl__bfs64_free(FlBfs64 *b)
{
    free(b->seen);
    free(b->frontier);
    free(b->next);
    free(b->cur);
    free(b->touched);
}

void fl__bfs64_start(FlBfs64 *b, int n)
{
    memset(b->seen, 0, sizeof *b->seen * (size_t)n);
    b->ncur = 0;
}

int fl__bfs64_level(FlBfs64 *b, const int *off, const int *adj, int64_t *work)
{
    int ntouched = 0;
    for (int c = 0; c < b->ncur; c++) {
        int v = b->cur[c];
        uint64_t f = b->frontier[v];
        b->frontier[v] = 0;
        *work += off[v + 1] - off[v];
        for (int k = off[v]; k < off[v + 1]; k++) {
            /* Listed the first time it is reached, without a branch:
             * whether it is is random. */
            int u = adj[k];
            b->touched[ntouched] = u;
            ntouched += !b->next[u];
            b->next[u] |= f;
        }
    }
    int ncur = 0;
    for (int c = 0; c < ntouched; c++) {
        int u = b->touched[c];
        uint64_t fresh = b->next[u] & ~b->seen[u];
        b->next[u] = 0;
        if (!fresh)
            continue;
        b->seen[u] |= fresh;
        b->frontier[u] = fresh;
        b->cur[ncur++] = u;
    }
    return b->ncur = ncur;
}

/* Tarjan's algorithm without recursion: frame[] holds the vertex of each
 * level of the depth-first search and next_edge[] where it stands in its
 * list (a 64x64 mesh's dependency graph is 16,000 vertices deep). */
int fl__strong_components(int n, const int *off, const int *adj, int *comp, uint8_t *cyclic)
{
    int *index = malloc(sizeof(int) * ((size_t)n + 1));
    int *low = malloc(sizeof(int) * ((size_t)n + 1));
    int *stack = malloc(sizeof(int) * ((size_t)n + 1));
    int *frame = malloc(sizeof(int) * ((size_t)n + 1));
    int *next_edge = malloc(sizeof(int) * ((size_t)n + 1));
    uint8_t *on_stack = calloc((size_t)n + 1, 1);
    int ncyclic = -1;
    if (!index || !low || !stack || !frame || !next_edge || !on_stack)
        goto free_all;
    for (int v = 0; v < n; v++)
        index[v] = -1;
    int counter = 0, sp = 0, ncomp = 0;
    ncyclic = 0;
    for (int root = 0; root < n; root++) {
        if (index[root] >= 0 || off[root] == off[root + 1])
            continue; /* visited, or a vertex with no arc: alone */
        int depth = 0;
        frame[0] = root;
        next_edge[root] = off[root];
        index[root] = low[root] = counter++;
        stack[sp++] = root;
        on_stack[root] = 1;
        while (depth >= 0) {
            int v = frame[depth];
            if (next_edge[v] < off[v + 1]) {
                int u = adj[next_edge[v]++];
                if (index[u] < 0) {
                    index[u] = low[u] = counter++;
                    next_edge[u] = off[u];
                    stack[sp++] = u;
                    on_stack[u] = 1;
                    frame[++depth] = u;
                } else if (on_stack[u] && index[u] < low[v]) {
                    low[v] = index[u];
                }
                continue;
            }
            /* v is finished: pop its component if it is a root, and pass
             * its low link to the vertex that called it. */
            if (low[v] == index[v]) {
                int size = 0, self_loop = 0, u;
                do {
                    u = stack[--sp];
                    on_stack[u] = 0;
                    comp[u] = ncomp;
                    size++;
                } while (u != v);
                for (int e = off[v]; e < off[v + 1]; e++)
                    self_loop |= adj[e] == v;
                int is_cyclic = size > 1 || self_loop;
                if (cyclic)
                    cyclic[ncomp] = (uint8_t)is_cyclic;
                ncyclic += is_cyclic;
                ncomp++;
            }
            depth--;
            if (depth >= 0 && low[v] < low[frame[depth]])
                low[frame[depth]] = low[v];
        }
    }
    /* Vertices never entered have no outgoing edge, so no cycle. */
    for (int v = 0; v < n; v++)
        if (index[v] < 0) {
            if (cyclic)
                cyclic[ncomp] = 0;
            comp[v] = ncomp++;
        }
free_all:
    free(index);
    free(low);
    free(stack);
    free(frame);
    free(next_edge);
    free(on_stack);
    return ncyclic;
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
