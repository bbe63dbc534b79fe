/* route-turnset.c — shortest legal paths under a user's set of prohibited
 * turns (turnset), and with no prohibited turn at all (shortest).
 *
 * shortest is deliberately deadlock-prone: with every turn allowed, the
 * channel dependencies of minimal routes close cycles on any network with a
 * cycle (a ring is the smallest example), which is what a teacher shows
 * before introducing a turn restriction.
 */
#include "route-table.h"

static int shortest_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    FlRouteTable *tab;
    int rc = fl__table_new(r, opt, &tab, err);
    return rc ? rc : fl__table_build(tab, opt, 0.0, err);
}

/* A turn the user gave must be one the network has: a switch, two distinct
 * ports in range, both holding links to other switches. */
static int check_turn(const FlTopology *t, int i, const FlTurn *turn, FlError *err)
{
    int sw = turn->sw, a = turn->in_port, b = turn->out_port;
    if (sw < 0 || sw >= t->n_nodes || t->kind[sw] != FL_NODE_SWITCH)
        return fl_error_set(err, FL_EINVAL,
                            "turnset: prohibited turn %d (%d: %d -> %d): %d is not a switch",
                            i, sw, a, b, sw);
    /* People know a switch by its label, the number its picture shows. */
    int label = fl_topology_node_label(t, sw);
    if (a < 0 || a >= t->nports[sw] || b < 0 || b >= t->nports[sw])
        return fl_error_set(err, FL_EINVAL,
                            "turnset: prohibited turn %d (%d: %d -> %d): switch %d has ports "
                            "0 to %d",
                            i, label, a, b, label, t->nports[sw] - 1);
    if (a == b)
        return fl_error_set(err, FL_EINVAL,
                            "turnset: prohibited turn %d (%d: %d -> %d): a turn needs two "
                            "different ports",
                            i, label, a, b);
    int bad = !fl__switch_port(t, sw, a) ? a : !fl__switch_port(t, sw, b) ? b : -1;
    if (bad >= 0)
        return fl_error_set(err, FL_EINVAL,
                            "turnset: prohibited turn %d (%d: %d -> %d): port %d of switch %d "
                            "has no link to another switch",
                            i, label, a, b, bad, label);
    return FL_OK;
}

static int turnset_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    if (opt->n_prohibited < 0 || (opt->n_prohibited > 0 && !opt->prohibited))
        return fl_error_set(err, FL_EINVAL, "turnset: %d prohibited turns but no list",
                            opt->n_prohibited);
    for (int i = 0; i < opt->n_prohibited; i++) {
        int rc = check_turn(r->t, i, &opt->prohibited[i], err);
        if (rc)
            return rc;
    }
    FlRouteTable *tab;
    int rc = fl__table_new(r, opt, &tab, err);
    if (rc)
        return rc;
    for (int i = 0; i < opt->n_prohibited; i++)
        fl__table_prohibit(tab, opt->prohibited[i].sw, opt->prohibited[i].in_port,
                           opt->prohibited[i].out_port);
    return fl__table_build(tab, opt, 0.0, err);
}

const FlRoutingAlgo fl__route_turnset =
    FL__TABLE_ROW("turnset", FL_N_("shortest legal paths under an edited set of prohibited turns"),
                  FL_N_("any network"), FL__OPTIONS(&fl__routing_option_prohibit), turnset_init);

const FlRoutingAlgo fl__route_shortest =
    FL__TABLE_ROW("shortest", FL_N_("unrestricted shortest paths: deadlock-prone, for teaching"),
                  FL_N_("any network"), NULL, shortest_init);
