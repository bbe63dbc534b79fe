/* cmd-multicast.c — `flitlab multicast`: a multicast tree on a network
 * (sequential, chain, binomial, OPT-tree, U-mesh, OPT-mesh) timed on paper
 * 001's model, its contention under the routing, and optionally the same
 * tree run flit by flit; or, with --table, the OPT-tree programme's t[i] and
 * j_i alone. */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective.h"
#include "sim-options.h"

/* Paper 001's example parameters (Table 1), used when none are given. */
#define DEFAULT_T_HOLD 20.0
#define DEFAULT_T_END 55.0
/* Times are cycles: anything past this is a typo. */
#define MAX_TIME 1e15
/* --table prints one row per tree size. */
#define MAX_TABLE_K 10000000L
/* --size: a message of at most this many flits. */
#define MAX_FLITS (1L << 26)

static void multicast_generate(CliOptions *opts)
{
    cli_add_routing_options(opts, _("the routing (default: the network's own: dor on meshes, "
                                    "tori and hypercubes; 'flitlab route --help')"), "classes");
    coll_add_sim_options(opts);
    coll_add_cost_options(opts);
}

static const CliOption multicast_options[] = {
    { "algorithm", 'a', "A", N_("sequential, chain, binomial, opt-tree, u-mesh or opt-mesh") },
    { "source", 0, "S", N_("the source: a host number, or (x,y) on a grid network") },
    { "dests", 0, "D1,D2,...", N_("the destinations, as --source writes a node") },
    { "random", 0, "K", N_("instead of --dests: K random distinct destinations (and a random "
                        "source without --source)") },
    { "seed", 0, "X", N_("with --random: the random seed (default 1)") },
    { "t-hold", 0, "H", N_("paper 001's t_hold, the time between a node's sends (default 20; "
                        "with --simulate, from the costs)") },
    { "t-end", 0, "E", N_("paper 001's t_end, from a send to its receipt (default 55; with "
                       "--simulate, from the costs)") },
    { "simulate", 0, NULL, N_("also run the tree's messages flit by flit") },
    { "size", 0, "FLITS", N_("with --simulate: the message's size in flits (default 64)") },
    { "table", 0, NULL, N_("print the OPT-tree programme's t[i] and j_i for i = 1..K instead") },
    { "k", 0, "K", N_("with --table: the number of nodes, source included") },
    { "dp", 0, "FORM", N_("with --table: auto, quadratic (O(k^2)) or linear (Theorem 2.1's O(k), "
                       "t_end >= t_hold only) (default auto)") },
    { "json", 0, NULL, N_("print one JSON object instead of a table") },
    { 0 },
};

static const CliCommand multicast_cmd = {
    "multicast",
    "SPEC|FILE|PROJECT.flitlab#NAME --algorithm A --source S\n"
    "           (--dests D1,D2,... | --random K [--seed X]) [--t-hold H --t-end E]\n"
    "           [--simulate [--size FLITS]\n"
    "           [--s-s N --s-d N --r-s N --r-d N --c-d N --max-packet P]] [--json]\n"
    "       flitlab multicast --table --k K --t-hold H --t-end E [--dp FORM] [--json]",
    N_("Build a multicast tree from a source to a set of destinations and time it on\n"
    "paper 001's model: a node's m-th send leaves m t_hold after it may start, and\n"
    "is received t_end after it leaves. Prints the latency (the last receipt), the\n"
    "tree's edges with each send's step, send and receive time, and the contention:\n"
    "pairs of unicasts whose routes share a channel while both are in flight.\n"
    "Nodes are host numbers; on networks whose switches have coordinates (meshes,\n"
    "tori, ...) a node may also be written (x,y), the first host of the switch at\n"
    "those coordinates: --dests '(1,5),(2,1),(3,4)' (quote the parentheses).\n"
    "The routing is the network's own (dor on meshes) unless --routing names one;\n"
    "u-mesh and opt-mesh need a 2D mesh with dor.\n"
    "With --simulate, the tree's messages of --size flits also run flit by flit,\n"
    "with paper 001's software costs (section 4.2: s_s 2000, s_d 2, c_d 2, r_s 3500,\n"
    "r_d 3 cycles), and the simulated latency is printed beside the model's; the\n"
    "model's t_hold = s_s + s_d L and t_end = t_hold + c_d L + r_s + r_d L unless\n"
    "--t-hold and --t-end are given.\n"
    "With --table, prints the OPT-tree programme's optimal time t[i] among i nodes\n"
    "and the part j_i the root keeps, for i = 1..K."),
    multicast_options, 0, 1, multicast_generate,
};

/* ---- --table -------------------------------------------------------------- */

static int time_option(const CliCommand *cmd, const CliParsed *p, const char *name,
                       double *out)
{
    const char *s = cli_value(cmd, p, name);
    return s && sim_parse_double(name, s, 0, MAX_TIME, out) ? CLI_USAGE : CLI_OK;
}

static const char *const dp_names[] = { "auto", "quadratic", "linear", NULL };

static int run_table(const CliCommand *cmd, const CliParsed *p)
{
    static const char *const not_with_table[] = {
        "algorithm", "source", "dests", "random", "seed", "simulate", "size", "routing", NULL,
    };
    if (p->nargs > 0)
        return cli_error(CLI_USAGE, _("multicast --table takes no network"));
    for (int i = 0; not_with_table[i]; i++)
        if (cli_value(cmd, p, not_with_table[i]))
            return cli_error(CLI_USAGE, _("--%s does not go with --table"), not_with_table[i]);
    if (coll_refuse_without_simulate(cmd, p, 1, NULL))
        return CLI_USAGE;
    if (!cli_value(cmd, p, "k") || !cli_value(cmd, p, "t-hold") || !cli_value(cmd, p, "t-end"))
        return cli_error(CLI_USAGE, _("multicast --table needs --k K, --t-hold H and --t-end E"));
    long k = 0;
    double th = 0, te = 0;
    int dp = sim_choice_option(cmd, p, "dp", dp_names, FL_MULTICAST_DP_AUTO);
    if (dp < 0 || sim_int_option(cmd, p, "k", 1, MAX_TABLE_K, &k)
        || time_option(cmd, p, "t-hold", &th) || time_option(cmd, p, "t-end", &te))
        return CLI_USAGE;
    double *t = malloc(((size_t)k + 1) * sizeof *t);
    int *j = malloc(((size_t)k + 1) * sizeof *j);
    FlError err = { 0 };
    int rc = CLI_OK;
    if (!t || !j)
        rc = cli_error(CLI_FAIL, _("out of memory for a table of %ld rows"), k);
    else if (fl_multicast_opt_table((int)k, th, te, (FlMulticastDp)dp, t, j, &err))
        rc = cli_option_error(&err, "", "dp");
    if (!rc && cli_flag(cmd, p, "json")) {
        json_t *ts = json_array(), *js = json_array();
        for (long i = 1; i <= k; i++) {
            json_array_append_new(ts, json_real(t[i]));
            json_array_append_new(js, i == 1 ? json_null() : json_integer(j[i]));
        }
        rc = cli_write_json(json_pack("{s:i, s:f, s:f, s:s, s:o, s:o}", "k", (int)k, "t_hold",
                                      th, "t_end", te, "dp", dp_names[dp], "t", ts, "j", js),
                            stdout);
    } else if (!rc) {
        printf(_("OPT-tree programme, t_hold %g, t_end %g (%s):\n%8s %12s %8s\n"), th, te,
               dp_names[dp], "i", "t[i]", "j_i");
        for (long i = 1; i <= k; i++) {
            if (i == 1)
                printf("%8ld %12g %8s\n", i, t[i], "-");
            else
                printf("%8ld %12g %8d\n", i, t[i], j[i]);
        }
    }
    free(t);
    free(j);
    return rc;
}

/* ---- the tree --------------------------------------------------------------- */

/* What the command was asked for, once read. */
typedef struct Request {
    FlMulticastAlgorithm alg;
    int source;
    int *dests;
    int n_dests;
    double t_hold, t_end;
    int simulate;
    long size;
    FlMessageCosts costs;
    int64_t c_d;
    FlSimSettings settings;  /* the router's settings given (--vcs, ...) */
} Request;

/* --random K: K distinct destinations other than the source, which is
 * drawn first when --source is not given, placed as the engine's multicast
 * model places them. */
static int random_nodes(const CliCommand *cmd, const CliParsed *p, const FlTopology *t,
                        Request *rq)
{
    long k = 0, seed = 1;
    int hosts = fl_topology_host_count(t);
    if (sim_int_option(cmd, p, "random", 1, INT_MAX, &k)
        || sim_int_option(cmd, p, "seed", 0, LONG_MAX, &seed))
        return CLI_USAGE;
    if (k > hosts - 1)
        return cli_error(CLI_USAGE, ngettext("--random %ld: the network has %d host besides "
                                             "the source",
                                             "--random %ld: the network has %d hosts besides "
                                             "the source", hosts - 1), k, hosts - 1);
    /* The seed of the flit-by-flit run as well, as the engine's model has it. */
    fl_sim_settings_set(&rq->settings, "seed", cli_value(cmd, p, "seed") ? cli_value(cmd, p,
                        "seed") : "1", NULL);
    if (!(rq->dests = malloc((size_t)k * sizeof *rq->dests)))
        return cli_error(CLI_FAIL, _("out of memory"));
    FlError err = { 0 };
    if (fl_multicast_random_nodes(hosts, (int)k, (uint64_t)seed, &rq->source, rq->dests, &err))
        return cli_engine_error(&err);
    rq->n_dests = (int)k;
    return CLI_OK;
}

/* The source and the destinations, checked here so that a bad one is a
 * usage error naming its option. */
static int read_nodes(const CliCommand *cmd, const CliParsed *p, const FlTopology *t,
                      Request *rq)
{
    const char *src = cli_value(cmd, p, "source");
    rq->source = -1;
    if (src && coll_node_arg(t, "source", src, &rq->source))
        return CLI_USAGE;
    if (cli_value(cmd, p, "random"))
        return random_nodes(cmd, p, t, rq);
    int rc = coll_node_list(t, "dests", cli_value(cmd, p, "dests"), &rq->dests, &rq->n_dests);
    for (int i = 0; !rc && i < rq->n_dests; i++)
        if (rq->dests[i] == rq->source)
            rc = cli_error(CLI_USAGE, _("--dests: the source, host %d, is among the destinations"),
                           rq->source);
    return rc;
}

/* Every option read and checked before the network is loaded. */
static int read_request(const CliCommand *cmd, const CliParsed *p, Request *rq)
{
    static const char *const table_only[] = { "k", "dp", NULL };
    const char *given = cli_given(cmd, p, table_only);
    if (given)
        return cli_error(CLI_USAGE, _("--%s goes with --table"), given);
    if (p->nargs < 1)
        return cli_error(CLI_USAGE, _("multicast: name a network (SPEC|FILE|PROJECT.flitlab#NAME)"
                                    ", or give --table"));
    const char *alg = cli_value(cmd, p, "algorithm");
    FlError err = { 0 };
    if (!alg)
        return cli_error(CLI_USAGE, _("multicast: say which tree with --algorithm (sequential, "
                                    "chain, binomial, opt-tree, u-mesh or opt-mesh)"));
    if (fl_multicast_algorithm_lookup(alg, &rq->alg, &err))
        return cli_option_error(&err, "", "algorithm");
    int dests = cli_value(cmd, p, "dests") != NULL, random = cli_value(cmd, p, "random") != NULL;
    if (dests == random)
        return cli_error(CLI_USAGE, "%s", dests ? _("--dests and --random do not go together")
                                                : _("multicast: give the destinations with "
                                                    "--dests D1,D2,... or --random K"));
    if (!random && cli_value(cmd, p, "seed"))
        return cli_error(CLI_USAGE, _("--seed goes with --random"));
    if (!random && !cli_value(cmd, p, "source"))
        return cli_error(CLI_USAGE, _("multicast: say which host sends with --source S"));
    int th = cli_value(cmd, p, "t-hold") != NULL, te = cli_value(cmd, p, "t-end") != NULL;
    if (th != te)
        return cli_error(CLI_USAGE, _("--%s needs --%s as well"), th ? "t-hold" : "t-end",
                         th ? "t-end" : "t-hold");
    rq->t_hold = DEFAULT_T_HOLD;
    rq->t_end = DEFAULT_T_END;
    if (time_option(cmd, p, "t-hold", &rq->t_hold) || time_option(cmd, p, "t-end", &rq->t_end))
        return CLI_USAGE;
    static const char *const sim_only[] = { "size", NULL };
    rq->simulate = cli_flag(cmd, p, "simulate");
    FlMulticastConfig dflt;
    fl_multicast_config_init(&dflt);
    rq->size = dflt.flits;
    if (coll_refuse_without_simulate(cmd, p, 1, sim_only)
        || sim_int_option(cmd, p, "size", 1, MAX_FLITS, &rq->size)
        || coll_run_settings(cmd, p, &rq->settings)
        || coll_costs(cmd, p, &rq->costs, &rq->c_d)
        || (rq->simulate && coll_check_message(&rq->costs, rq->size, rq->c_d)))
        return CLI_USAGE;
    if (rq->simulate && !th) {
        int64_t hold, end;
        fl_message_model(&rq->costs, (int)rq->size, rq->c_d, 0, &hold, &end);
        rq->t_hold = (double)hold;
        rq->t_end = (double)end;
    }
    return CLI_OK;
}

/* The run as the engine's multicast model makes it: the command's settings
 * (the router's, the costs, the size) with its nodes, and its times unless
 * the costs give them (--simulate without --t-hold). */
static int run_tree(const CollNet *net, Request *rq, FlMulticastResult *res)
{
    FlSimSettings *s = &rq->settings;
    s->model = FL_SIM_MODEL_MULTICAST;
    s->multicast.algorithm = rq->alg;
    s->multicast.flits = (int)rq->size;
    s->multicast.costs = rq->costs;
    s->multicast.channel_cycles = (int)rq->c_d;
    s->multicast.model_only = !rq->simulate;
    double times[2] = { rq->t_hold, rq->t_end };
    FlError err = { 0 };
    if (fl_multicast_run_nodes(net->t, net->r, s, rq->source, rq->dests, rq->n_dests, times,
                               res, NULL, NULL, &err))
        return cli_engine_error(&err);
    return CLI_OK;
}

/* ---- reporting -------------------------------------------------------------- */

static json_t *nodes_json(const int *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static int print_json(const FlTopology *t, const Request *rq, const FlMulticastResult *res)
{
    json_t *edges = json_array(), *conflicts = json_array();
    for (int i = 0; i < fl_multicast_tree_edge_count(res->tree); i++) {
        const FlMulticastEdge *e = fl_multicast_tree_edge(res->tree, i);
        json_t *o = json_pack("{s:i, s:i, s:i, s:f, s:f}", "parent", e->parent, "child",
                              e->child, "step", e->step, "send", e->send_time, "receive",
                              e->recv_time);
        if (res->times)
            coll_times_json(o, &res->times[i]);
        json_array_append_new(edges, o);
    }
    for (int i = 0; i < res->n_conflicts; i++) {
        const FlMulticastConflict *c = &res->conflicts[i];
        json_array_append_new(conflicts,
                              json_pack("{s:i, s:i, s:i, s:i, s:i}", "a", c->edge_a, "b",
                                        c->edge_b, "channel", c->channel, "from",
                                        cli_channel_src_label(t, c->channel), "to",
                                        cli_channel_dst_label(t, c->channel)));
    }
    json_t *o = json_pack("{s:s, s:i, s:o, s:f, s:f, s:f, s:o, s:o}", "algorithm",
                          fl_multicast_algorithm_name(rq->alg), "source", rq->source, "dests",
                          nodes_json(rq->dests, rq->n_dests), "t_hold", rq->t_hold, "t_end",
                          rq->t_end, "latency", fl_multicast_tree_latency(res->tree), "tree",
                          edges, "contention", conflicts);
    if (res->simulated) {
        json_object_set_new(o, "size", json_integer(rq->size));
        json_object_set_new(o, "costs", coll_costs_json(&rq->costs, rq->c_d));
        json_object_set_new(o, "simulated_latency", json_integer(res->simulated_latency));
    }
    return cli_write_json(o, stdout);
}

static void print_edge_nodes(const FlTopology *t, const FlMulticastEdge *e)
{
    char a[48], b[48];
    coll_node_text(t, e->parent, a, sizeof a);
    coll_node_text(t, e->child, b, sizeof b);
    printf("%5d %14s %14s", e->step, a, b);
}

static void print_table(const FlTopology *t, const Request *rq, const FlMulticastResult *res)
{
    char buf[48];
    coll_node_text(t, rq->source, buf, sizeof buf);
    printf("%s %s\n", cli_label(_("algorithm"), 18), fl_multicast_algorithm_name(rq->alg));
    printf("%s %s\n", cli_label(_("source"), 18), buf);
    printf("%s %d:", cli_label(_("destinations"), 18), rq->n_dests);
    for (int i = 0; i < rq->n_dests; i++)
        printf(" %d", rq->dests[i]);
    printf(_("\n%s t_hold %g, t_end %g\n"), cli_label(_("model"), 18), rq->t_hold, rq->t_end);
    printf("%s %g\n", cli_label(_("latency"), 18), fl_multicast_tree_latency(res->tree));
    if (res->simulated)
        printf(_("%s %lld (%ld-flit messages)\n"), cli_label(_("simulated latency"), 18),
               (long long)res->simulated_latency, rq->size);
    printf("\n%5s %14s %14s %12s %12s", "step", "parent", "child", "send", "receive");
    if (res->simulated)
        printf(" %10s %10s %10s %10s", "sim start", "injected", "arrived", "received");
    printf("\n");
    for (int i = 0; i < fl_multicast_tree_edge_count(res->tree); i++) {
        const FlMulticastEdge *e = fl_multicast_tree_edge(res->tree, i);
        print_edge_nodes(t, e);
        printf(" %12g %12g", e->send_time, e->recv_time);
        if (res->simulated)
            printf(" %10lld %10lld %10lld %10lld", (long long)res->times[i].start,
                   (long long)res->times[i].injected, (long long)res->times[i].arrived,
                   (long long)res->times[i].received);
        printf("\n");
    }
    printf("\n%s %s\n", cli_label(_("contention"), 18),
           res->n_conflicts ? _("unicasts that share a channel while both are in flight:")
                            : _("none: no two unicasts share a channel while both are in "
                                "flight"));
    for (int i = 0; i < res->n_conflicts; i++) {
        const FlMulticastConflict *c = &res->conflicts[i];
        const FlMulticastEdge *a = fl_multicast_tree_edge(res->tree, c->edge_a);
        const FlMulticastEdge *b = fl_multicast_tree_edge(res->tree, c->edge_b);
        coll_channel_text(t, c->channel, buf, sizeof buf);
        printf(_("  %d->%d and %d->%d share channel %d (switch %s)\n"), a->parent, a->child,
               b->parent, b->child, c->channel, buf);
    }
}

static int run_multicast(const CliCommand *cmd, const CliParsed *p)
{
    if (cli_flag(cmd, p, "table"))
        return run_table(cmd, p);
    Request rq = { 0 };
    FlMulticastResult res = { 0 };
    CollNet net = { 0 };
    fl_sim_settings_init(&rq.settings);
    int rc = read_request(cmd, p, &rq);
    if (!rc)
        rc = coll_net_open(cmd, p, p->args[0], &net);
    if (!rc)
        rc = read_nodes(cmd, p, net.t, &rq);
    if (!rc)
        rc = run_tree(&net, &rq, &res);
    if (!rc && cli_flag(cmd, p, "json"))
        rc = print_json(net.t, &rq, &res);
    else if (!rc)
        print_table(net.t, &rq, &res);
    fl_multicast_result_clear(&res);
    fl_sim_settings_clear(&rq.settings);
    free(rq.dests);
    coll_net_close(&net);
    return rc;
}

static void multicast_more_help(FILE *to)
{
    fprintf(to, _("\nAlgorithms:\n"
                "  sequential  the source sends to every destination in turn\n"
                "  chain       each node forwards to the next, in the order given\n"
                "  binomial    recursive doubling over the order given\n"
                "  opt-tree    paper 001's optimal tree for t_hold and t_end (any network)\n"
                "  u-mesh      McKinley et al.'s U-mesh over the dimension-ordered chain\n"
                "              (2D mesh, dor)\n"
                "  opt-mesh    paper 001's OPT-mesh: contention-free and optimal (2D mesh, "
                "dor)\n"
                "\nExample (paper 001's 6x6 mesh, latency 130 against U-mesh's 165):\n"
                "  flitlab multicast mesh:6x6 --algorithm opt-mesh --source '(3,2)' \\\n"
                "      --dests '(1,5),(2,1),(3,4),(4,3),(4,4),(5,1),(5,4)'\n"));
}

int cli_multicast(int argc, char **argv)
{
    return cli_run_single(&multicast_cmd, run_multicast, multicast_more_help, argc, argv);
}
