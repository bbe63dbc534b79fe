/* routing.c — the routing registry and the interface every algorithm
 * shares: building, next hops, selection and turn queries. */
#include <stdlib.h>
#include <string.h>

#include "routing-internal.h"

/* In the order menus and --help list them. Adding an algorithm is adding a
 * row here and a file that defines it. */
static const FlRoutingAlgo *const registry[] = {
    &fl__route_dor,
    &fl__route_west_first,
    &fl__route_north_last,
    &fl__route_negative_first,
    &fl__route_odd_even,
    &fl__route_xmesh,
    &fl__route_dmesh,
    &fl__route_updown,
    &fl__route_lturn_alpha,
    &fl__route_lturn_beta,
    &fl__route_rturn_alpha,
    &fl__route_rturn_beta,
    &fl__route_turnset,
    &fl__route_shortest,
    &fl__route_myrinet_dor,
};

#define N_ROUTINGS ((int)(sizeof registry / sizeof registry[0]))

int fl_routing_count(void)
{
    return N_ROUTINGS;
}

const FlRoutingInfo *fl_routing_info(int index)
{
    return index >= 0 && index < N_ROUTINGS ? &registry[index]->info : NULL;
}

static const FlRoutingAlgo *find_algo(const char *name)
{
    for (int i = 0; name && i < N_ROUTINGS; i++)
        if (strcmp(registry[i]->info.name, name) == 0)
            return registry[i];
    return NULL;
}

const FlRoutingInfo *fl_routing_lookup(const char *name)
{
    const FlRoutingAlgo *a = find_algo(name);
    return a ? &a->info : NULL;
}

static int unknown_routing(const char *name, FlError *err)
{
    char known[512] = "";
    size_t used = 0;
    for (int i = 0; i < N_ROUTINGS && used + 32 < sizeof known; i++) {
        size_t len = strlen(registry[i]->info.name);
        if (i) {
            memcpy(known + used, ", ", 2);
            used += 2;
        }
        memcpy(known + used, registry[i]->info.name, len);
        used += len;
        known[used] = '\0';
    }
    return fl_error_set(err, FL_EINVAL, "unknown routing '%s' (known: %s)", name ? name : "",
                        known);
}

void fl_routing_free(FlRouting *r)
{
    if (!r)
        return;
    if (r->algo && r->algo->fini)
        r->algo->fini(r);
    free(r->parent);
    free(r->hv_h);
    free(r->hv_v);
    free(r->turn_used);
    free(r->turn_base);
    free(r);
}

int fl_routing_new(const FlTopology *t, const char *name, const FlRoutingOptions *opt,
                   FlRouting **out, FlError *err)
{
    static const FlRoutingOptions defaults = { .root = -1 };
    if (!t || !out)
        return fl_error_set(err, FL_EINVAL, "no topology");
    const FlRoutingAlgo *algo = find_algo(name);
    if (!algo)
        return unknown_routing(name, err);
    if (!opt)
        opt = &defaults;
    if (opt->vc_classes < 0 || opt->vc_classes > 16)
        return fl_error_set(err, FL_ERANGE, "%s: VC classes must be 1 to 16, not %d", name,
                            opt->vc_classes);
    if (opt->root != -1 && (opt->root < 0 || opt->root >= t->n_nodes
                            || t->kind[opt->root] != FL_NODE_SWITCH))
        return fl_error_set(err, FL_ERANGE, "%s: root %d is not a switch", name, opt->root);
    int rc = fl_topology_validate(t, err);
    if (rc)
        return rc;

    FlRouting *r = calloc(1, sizeof *r);
    if (!r)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    r->t = t;
    r->algo = algo;
    r->vc_classes = 1;
    r->root = -1;
    r->distance_sum = -1;
    rc = algo->init(r, opt, err);
    if (!rc && !algo->turn_prohibited)
        rc = fl__routing_derive_turns(r, err);
    if (rc) {
        fl_routing_free(r);
        return rc;
    }
    *out = r;
    return FL_OK;
}

const FlRoutingInfo *fl_routing_get_info(const FlRouting *r)
{
    return r ? &r->algo->info : NULL;
}

const FlTopology *fl_routing_topology(const FlRouting *r)
{
    return r ? r->t : NULL;
}

int fl_routing_vc_classes(const FlRouting *r)
{
    return r ? r->vc_classes : 0;
}

int fl__routing_by_destination(const FlRouting *r)
{
    return r->algo->by_destination && r->algo->by_destination(r);
}

int fl_routing_next(const FlRouting *r, int sw, int in_channel, int in_class, int dest,
                    FlRouteChoice *out, int max)
{
    if (sw == dest)
        return 0;
    return r->algo->next(r, sw, in_channel, in_class, dest, out, max);
}

int fl_routing_select(const FlRouteChoice *choices, int n, FlSelection how, FlRng *rng,
                      FlCreditsFunc credits, void *credits_data)
{
    if (n <= 1)
        return 0;
    switch (how) {
    case FL_SELECT_RANDOM:
        return rng ? (int)fl_rng_below(rng, (uint32_t)n) : 0;
    case FL_SELECT_CREDITS: {
        if (!credits)
            return 0;
        int best = 0, best_credits = credits(credits_data, choices[0].channel,
                                             choices[0].vc_class);
        for (int i = 1; i < n; i++) {
            int c = credits(credits_data, choices[i].channel, choices[i].vc_class);
            if (c > best_credits) {
                best = i;
                best_credits = c;
            }
        }
        return best;
    }
    case FL_SELECT_LOWEST_PORT:
    default: {
        /* Choices come in port order, but say it rather than trust it. */
        int best = 0;
        for (int i = 1; i < n; i++)
            if (choices[i].port < choices[best].port)
                best = i;
        return best;
    }
    }
}

/* Both ports must lead to switches: a turn is between two switch links. */
static int is_turn(const FlTopology *t, int sw, int in_port, int out_port)
{
    if (sw < 0 || sw >= t->n_nodes || t->kind[sw] != FL_NODE_SWITCH || in_port == out_port
        || in_port < 0 || out_port < 0 || in_port >= t->nports[sw] || out_port >= t->nports[sw])
        return 0;
    int li = t->port_link[t->port_base[sw] + in_port];
    int lo = t->port_link[t->port_base[sw] + out_port];
    return li >= 0 && lo >= 0 && t->kind[fl__link_other(t, li, sw)] == FL_NODE_SWITCH
           && t->kind[fl__link_other(t, lo, sw)] == FL_NODE_SWITCH;
}

int fl_routing_turn_prohibited(const FlRouting *r, int sw, int in_port, int out_port)
{
    if (!r || !is_turn(r->t, sw, in_port, out_port))
        return 0;
    if (r->algo->turn_prohibited)
        return r->algo->turn_prohibited(r, sw, in_port, out_port);
    int bit = in_port * r->t->nports[sw] + out_port;
    return !(r->turn_used[r->turn_base[sw] + bit / 8] & (1u << (bit % 8)));
}

int fl_routing_prohibited_turns(const FlRouting *r, FlTurn **turns, int *n, FlError *err)
{
    if (!r || !turns || !n)
        return fl_error_set(err, FL_EINVAL, "no routing");
    const FlTopology *t = r->t;
    int cap = 64, count = 0;
    FlTurn *list = malloc(sizeof *list * (size_t)cap);
    if (!list)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    for (int i = 0; i < t->n_switches; i++) {
        int sw = t->switch_nodes[i];
        for (int a = 0; a < t->nports[sw]; a++)
            for (int b = 0; b < t->nports[sw]; b++) {
                if (!is_turn(t, sw, a, b) || !fl_routing_turn_prohibited(r, sw, a, b))
                    continue;
                if (count == cap) {
                    FlTurn *bigger = realloc(list, sizeof *list * (size_t)cap * 2);
                    if (!bigger) {
                        free(list);
                        return fl_error_set(err, FL_ENOMEM, "out of memory");
                    }
                    list = bigger;
                    cap *= 2;
                }
                list[count++] = (FlTurn){ sw, a, b };
            }
    }
    *turns = list;
    *n = count;
    return FL_OK;
}

const char *fl_routing_channel_label(const FlRouting *r, int channel)
{
    if (!r || !r->algo->channel_label || channel < 0 || channel >= 2 * r->t->n_links)
        return NULL;
    return r->algo->channel_label(r, channel);
}

int fl_routing_channel_dateline(const FlRouting *r, int channel)
{
    if (!r || !r->algo->channel_dateline || channel < 0 || channel >= 2 * r->t->n_links)
        return 0;
    return r->algo->channel_dateline(r, channel);
}

int fl_routing_root(const FlRouting *r)
{
    return r ? r->root : -1;
}

int fl_routing_tree_parent(const FlRouting *r, int sw)
{
    if (!r || !r->parent || sw < 0 || sw >= r->t->n_nodes)
        return -1;
    return r->parent[sw];
}

int fl_routing_hv_coords(const FlRouting *r, int sw, int *h, int *v)
{
    if (!r || !r->hv_h || sw < 0 || sw >= r->t->n_nodes || r->t->kind[sw] != FL_NODE_SWITCH)
        return FL_EUNSUPPORTED;
    if (h)
        *h = r->hv_h[sw];
    if (v)
        *v = r->hv_v[sw];
    return FL_OK;
}
