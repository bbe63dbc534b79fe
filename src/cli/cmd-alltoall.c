/* cmd-alltoall.c — `flitlab alltoall`: complete exchange on an N x N torus
 * (paper 000's SEM, or direct exchange) with every block tracked: what each
 * step moves, the cost terms beside the paper's formulas, one node's
 * message matrix after one step, and optionally the whole exchange run flit
 * by flit. */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective.h"
#include "sim-options.h"

/* --block-flits: a block of at most this many flits. */
#define MAX_BLOCK_FLITS 65536L

static void alltoall_generate(CliOptions *opts)
{
    coll_add_sim_options(opts);
    coll_add_cost_options(opts);
}

static const CliOption alltoall_options[] = {
    { "algorithm", 'a', "A", N_("sem (paper 000, N a power of two, 8 to 64) or direct (every pair, "
                             "N a power of two up to 32)") },
    { "step", 0, "S", N_("with --node: show the node's message matrix after step S (0: before "
                      "the first)") },
    { "node", 0, "X", N_("with --step: the node, a number i*N + j or (i,j) for P(i,j)") },
    { "simulate", 0, NULL, N_("also run every step's messages flit by flit on the torus (dor)") },
    { "block-flits", 0, "F", N_("with --simulate: flits per block (default 1)") },
    { "json", 0, NULL, N_("print one JSON object instead of a table") },
    { 0 },
};

static const CliCommand alltoall_cmd = {
    "alltoall",
    "torus:NxN --algorithm sem|direct [--step S --node X] [--json]\n"
    "       flitlab alltoall torus:NxN --algorithm A --simulate [--block-flits F]\n"
    "           [--s-s N --s-d N --r-s N --r-d N --c-d N --max-packet P] [--json]",
    N_("Complete exchange (all-to-all personalized) on an N x N torus: every node\n"
    "P(i,j), node number i*N + j, has one block for every other node, and each of\n"
    "the N^2 (N^2 - 1) blocks is tracked through every step. Prints how many were\n"
    "delivered, the start-ups (steps), a table of the steps (messages, blocks moved,\n"
    "the largest message, the longest path, the most messages on one directed link,\n"
    "the most blocks one node holds after it), and the cost terms counted from the\n"
    "run beside paper 000's formulas and the lower bounds.\n"
    "With --step S --node X, prints instead the blocks node X holds after step S as\n"
    "paper 000's Figs 11-16 do: one line per destination row, each block written\n"
    "pqrs, from P(p,q) to P(r,s) (hexadecimal digits for N <= 16).\n"
    "With --simulate, every step's messages also run flit by flit (a node sends a\n"
    "step's message once it has received the previous one), with paper 001's\n"
    "software costs, and the completion time and each step's finish are printed."),
    alltoall_options, 1, 1, alltoall_generate,
};

/* ---- the network ------------------------------------------------------------ */

/* N of an N x N torus with one host per switch, or a line saying why not. */
static int torus_size(const FlTopology *t, const char *what, int *n)
{
    int dims[FL_MAX_DIMS];
    int nd = fl_topology_family_dims(t, dims);
    if (strcmp(fl_topology_family(t), "torus") != 0 || nd != 2 || dims[0] != dims[1])
        return cli_error(CLI_FAIL, _("alltoall runs on an N x N torus (torus:8x8), not %s"), what);
    if (fl_topology_host_count(t) != fl_topology_switch_count(t))
        return cli_error(CLI_FAIL, _("alltoall needs one host per switch; %s has %d hosts on %d "
                                   "switches"), what, fl_topology_host_count(t),
                         fl_topology_switch_count(t));
    *n = dims[0];
    return CLI_OK;
}

/* --node X: a node number, or (i,j) for P(i,j). */
static int node_option(const char *text, int n, int *node)
{
    int v[COLL_MAX_COORDS], k = coll_parse_tuple(text, v);
    long x;
    if (k < 0) {
        if (cli_int_value("node", text, 0, (long)n * n - 1, &x))
            return CLI_USAGE;
        *node = (int)x;
        return CLI_OK;
    }
    if (k != 2 || v[0] >= n || v[1] >= n)
        return cli_error(CLI_USAGE, _("--node %s: write P(i,j) as (i,j) with i and j from 0 to "
                                    "%d"), text, n - 1);
    *node = v[0] * n + v[1];
    return CLI_OK;
}

/* ---- --step --node: one node's message matrix ------------------------------ */

static int print_holdings(const FlAllToAll *aa, size_t step, int node, int json)
{
    int n = fl_alltoall_size(aa);
    char label[64], *text = NULL;
    FlAllToAllBlock *blocks = NULL;
    size_t count = 0;
    FlError err = { 0 };
    fl_alltoall_step_label(aa, step, label, sizeof label);
    if (fl_alltoall_holdings(aa, step, node, &blocks, &count, &err)
        || fl_alltoall_holdings_text(aa, step, node, &text, &err)) {
        free(blocks);
        return cli_engine_error(&err);
    }
    free(blocks);
    int rc = CLI_OK;
    if (json) {
        json_t *lines = json_array();
        char *save = NULL;
        for (char *s = strtok_r(text, "\n", &save); s; s = strtok_r(NULL, "\n", &save))
            json_array_append_new(lines, json_string(s));
        rc = cli_write_json(json_pack("{s:s, s:i, s:I, s:s, s:i, s:i, s:i, s:I, s:o}",
                                      "algorithm",
                                      fl_alltoall_algorithm_name(fl_alltoall_algorithm(aa)),
                                      "n", n, "step", (json_int_t)step, "label", label, "node",
                                      node, "i", node / n, "j", node % n, "blocks",
                                      (json_int_t)count, "matrix", lines),
                            stdout);
    } else {
        if (step)
            printf(_("P(%d,%d) (node %d) after %s: %zu blocks\n%s"), node / n, node % n, node,
                   label, count, text);
        else
            printf(_("P(%d,%d) (node %d) before the first step: %zu blocks\n%s"), node / n,
                   node % n, node, count, text);
    }
    free(text);
    return rc;
}

/* ---- --simulate ---------------------------------------------------------------- */

/* A flit-level run: each step's first start and last receipt. */
typedef struct SimSteps {
    int64_t completion;
    int64_t *start, *finish;    /* per step, 1-based */
    long block_flits;
    FlMessageCosts costs;
    int64_t c_d;
} SimSteps;

static int simulate(const CliCommand *cmd, const CliParsed *p, FlTopology *t,
                    const FlAllToAll *aa, SimSteps *ss)
{
    CollNet net = { t, NULL };
    FlMessage *m = NULL;
    size_t *step_of = NULL;
    FlMessageTimes *times = NULL;
    FlSim *sim = NULL;
    FlError err = { 0 };
    int n = 0;
    size_t steps = fl_alltoall_step_count(aa);
    int rc = coll_net_route(cmd, p, &net);
    if (!rc && fl_alltoall_schedule(aa, (int)ss->block_flits, &m, &n, &step_of, &err))
        rc = cli_engine_error(&err);
    if (!rc) {
        times = malloc((size_t)(n > 0 ? n : 1) * sizeof *times);
        ss->start = malloc((steps + 1) * sizeof *ss->start);
        ss->finish = malloc((steps + 1) * sizeof *ss->finish);
        if (!times || !ss->start || !ss->finish)
            rc = cli_error(CLI_FAIL, _("out of memory"));
    }
    int longest = 0;
    for (int i = 0; !rc && i < n; i++)
        longest = m[i].flits > longest ? m[i].flits : longest;
    if (!rc)
        rc = coll_check_message(&ss->costs, longest, ss->c_d);
    if (!rc)
        rc = coll_sim_new(cmd, p, &net, ss->c_d, &sim);
    if (!rc && fl_message_run(sim, m, n, &ss->costs, 0, NULL, NULL, times, &ss->completion, &err))
        rc = cli_engine_error(&err);
    for (size_t s = 0; !rc && s <= steps; s++) {
        ss->start[s] = INT64_MAX;
        ss->finish[s] = 0;
    }
    for (int i = 0; !rc && i < n; i++) {
        size_t s = step_of[i];
        if (times[i].start < ss->start[s])
            ss->start[s] = times[i].start;
        if (times[i].received > ss->finish[s])
            ss->finish[s] = times[i].received;
    }
    fl_sim_free(sim);
    free(times);
    free(step_of);
    free(m);
    fl_routing_free(net.r);
    return rc;
}

/* ---- the report ---------------------------------------------------------------- */

/* A formula that applies, or null. */
static json_t *formula(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

static json_t *costs_json(const FlAllToAllCosts *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "transmission", json_integer((json_int_t)c->transmission));
    json_object_set_new(o, "volume", json_integer((json_int_t)c->volume));
    json_object_set_new(o, "block_hops", json_integer((json_int_t)c->block_hops));
    json_object_set_new(o, "propagation", json_integer((json_int_t)c->propagation));
    json_object_set_new(o, "rearrangement", json_integer((json_int_t)c->rearrangement));
    json_object_set_new(o, "max_link_load", json_integer(c->max_link_load));
    json_object_set_new(o, "paper_startups_text", formula(c->paper_startups_text));
    json_object_set_new(o, "paper_startups_table", formula(c->paper_startups_table));
    json_object_set_new(o, "paper_transmission", formula(c->paper_transmission));
    json_object_set_new(o, "paper_rearrangement", formula(c->paper_rearrangement));
    json_object_set_new(o, "paper_propagation", formula(c->paper_propagation));
    json_object_set_new(o, "lower_transmission", formula(c->lower_transmission));
    json_object_set_new(o, "lower_startups", formula(c->lower_startups));
    return o;
}

static int print_json(const FlAllToAll *aa, const SimSteps *ss)
{
    FlAllToAllCosts c;
    fl_alltoall_costs(aa, &c);
    size_t steps = fl_alltoall_step_count(aa);
    json_t *per_step = json_array();
    for (size_t s = 1; s <= steps; s++) {
        FlAllToAllStep st;
        char label[64];
        fl_alltoall_step(aa, s, &st, NULL);
        fl_alltoall_step_label(aa, s, label, sizeof label);
        json_t *o = json_pack("{s:I, s:s, s:i, s:i, s:i, s:I, s:I, s:I, s:i, s:I, s:i, s:I}",
                              "step", (json_int_t)s, "label", label, "stage", st.stage,
                              "phase", st.phase, "index", st.index, "messages",
                              (json_int_t)st.messages, "blocks", (json_int_t)st.blocks,
                              "max_blocks", (json_int_t)st.max_blocks, "max_hops",
                              st.max_hops, "block_hops", (json_int_t)st.block_hops,
                              "max_link_load", st.max_link_load, "max_held",
                              (json_int_t)st.max_held);
        if (ss) {
            json_object_set_new(o, "sim_start", json_integer(ss->start[s]));
            json_object_set_new(o, "sim_finish", json_integer(ss->finish[s]));
        }
        json_array_append_new(per_step, o);
    }
    json_t *o = json_pack("{s:s, s:i, s:I, s:I, s:I, s:I, s:o, s:o}", "algorithm",
                          fl_alltoall_algorithm_name(fl_alltoall_algorithm(aa)), "n",
                          fl_alltoall_size(aa), "messages", (json_int_t)c.blocks, "delivered",
                          (json_int_t)c.delivered, "startups", (json_int_t)c.startups,
                          "steps", (json_int_t)steps, "per_step", per_step, "costs",
                          costs_json(&c));
    if (ss) {
        json_object_set_new(o, "block_flits", json_integer(ss->block_flits));
        json_object_set_new(o, "sim_costs", coll_costs_json(&ss->costs, ss->c_d));
        json_object_set_new(o, "simulated_completion", json_integer(ss->completion));
    }
    return cli_write_json(o, stdout);
}

/* One row of the cost terms: the run's count, the paper's formula, the
 * lower bound. */
static void cost_row(const char *term, size_t run, double paper, double lower,
                     const char *unit)
{
    printf("  %s %10zu", cli_label(_(term), 15), run);
    if (isnan(paper))
        printf(" %12s", "-");
    else
        printf(" %12g", paper);
    if (isnan(lower))
        printf(" %12s", "-");
    else
        printf(" %12g", lower);
    printf("  %s\n", _(unit));
}

static void print_table(const FlAllToAll *aa, const SimSteps *ss)
{
    FlAllToAllCosts c;
    fl_alltoall_costs(aa, &c);
    int n = fl_alltoall_size(aa);
    size_t steps = fl_alltoall_step_count(aa);
    printf(_("%s %s on the %d x %d torus\n"), cli_label(_("algorithm"), 18),
           fl_alltoall_algorithm_name(fl_alltoall_algorithm(aa)), n, n);
    printf(c.delivered == c.blocks
               ? _("%s %zu of %zu blocks (N^2 (N^2 - 1)), every one at its destination\n")
               : _("%s %zu of %zu blocks (N^2 (N^2 - 1))\n"),
           cli_label(_("delivered"), 18), c.delivered, c.blocks);
    printf(_("%s %zu (steps)\n"), cli_label(_("start-ups"), 18), c.startups);
    if (ss)
        printf(_("%s %lld cycles (%ld-flit blocks)\n"), cli_label(_("simulated"), 18),
               (long long)ss->completion, ss->block_flits);
    printf("\n%5s %-26s %8s %8s %10s %8s %9s %8s", "step", "label", "messages", "blocks",
           "max_blocks", "max_hops", "link_load", "max_held");
    if (ss)
        printf(" %10s %10s", "sim start", "sim end");
    printf("\n");
    for (size_t s = 1; s <= steps; s++) {
        FlAllToAllStep st;
        char label[64];
        fl_alltoall_step(aa, s, &st, NULL);
        fl_alltoall_step_label(aa, s, label, sizeof label);
        printf("%5zu %-26s %8zu %8zu %10zu %8d %9d %8zu", s, label, st.messages, st.blocks,
               st.max_blocks, st.max_hops, st.max_link_load, st.max_held);
        if (ss)
            printf(" %10lld %10lld", (long long)ss->start[s], (long long)ss->finish[s]);
        printf("\n");
    }
    printf(_("\ncost terms (counted from the run; paper 000's formulas; lower bounds):\n"));
    printf("  %s %s %s %s\n", cli_label(_("term"), 15), cli_heading(_("run"), 10),
           cli_heading(_("paper"), 12), cli_heading(_("lower bound"), 12));
    cost_row(N_("start-ups"), c.startups, c.paper_startups_text, c.lower_startups,
             N_("x t_s (text: N/4 + 5)"));
    if (!isnan(c.paper_startups_table))
        printf(_("  %-15s %10s %12g %12s  (Table 1: N/2 + 5)\n"), "", "",
               c.paper_startups_table, "");
    cost_row(N_("transmission"), c.transmission, c.paper_transmission, c.lower_transmission,
             N_("blocks x m t_d"));
    cost_row(N_("rearrangement"), c.rearrangement, c.paper_rearrangement, NAN,
             N_("blocks x m t_r"));
    cost_row(N_("propagation"), c.propagation, c.paper_propagation, NAN, N_("hops x t_l"));
    printf(ngettext("  %s %10zu blocks carried, %zu block-hops; at most %d message of a step "
                    "on one link\n",
                    "  %s %10zu blocks carried, %zu block-hops; at most %d messages of a step "
                    "on one link\n", c.max_link_load),
           cli_label(_("volume"), 15), c.volume, c.block_hops, c.max_link_load);
}

/* ---- the command ---------------------------------------------------------------- */

static int run_alltoall(const CliCommand *cmd, const CliParsed *p)
{
    const char *name = cli_value(cmd, p, "algorithm");
    FlAllToAllAlgorithm alg;
    FlError err = { 0 };
    if (!name)
        return cli_error(CLI_USAGE, _("alltoall: say which algorithm with --algorithm (sem or "
                                    "direct)"));
    if (fl_alltoall_algorithm_from_name(name, &alg, &err))
        return cli_option_error(&err, "", "algorithm");
    const char *step_text = cli_value(cmd, p, "step"), *node_text = cli_value(cmd, p, "node");
    if ((step_text != NULL) != (node_text != NULL))
        return cli_error(CLI_USAGE, _("--%s needs --%s as well"), step_text ? "step" : "node",
                         step_text ? "node" : "step");
    int simulate_run = cli_flag(cmd, p, "simulate");
    if (step_text && simulate_run)
        return cli_error(CLI_USAGE, _("--step and --node show one matrix: not with --simulate"));
    static const char *const sim_only[] = { "block-flits", NULL };
    SimSteps ss = { 0 };
    ss.block_flits = 1;
    long step = 0;
    if (coll_refuse_without_simulate(cmd, p, 1, sim_only)
        || sim_int_option(cmd, p, "block-flits", 1, MAX_BLOCK_FLITS, &ss.block_flits)
        || coll_costs(cmd, p, &ss.costs, &ss.c_d)
        || (step_text && cli_int_value("step", step_text, 0, LONG_MAX, &step)))
        return CLI_USAGE;

    FlTopology *t = NULL;
    FlAllToAll *aa = NULL;
    int n = 0, node = 0, rc = CLI_OK;
    if (cli_load_topology(p->args[0], &t, &err))
        rc = cli_engine_error(&err);
    if (!rc)
        rc = torus_size(t, p->args[0], &n);
    if (!rc && step_text)
        rc = node_option(node_text, n, &node);
    if (!rc && fl_alltoall_run(n, alg, &aa, &err))
        rc = cli_engine_error(&err);
    if (!rc && step_text && (size_t)step > fl_alltoall_step_count(aa))
        rc = cli_error(CLI_USAGE, _("--step %ld: %s on %d x %d has steps 0 to %zu"), step, name, n,
                       n, fl_alltoall_step_count(aa));
    if (!rc && step_text)
        rc = print_holdings(aa, (size_t)step, node, cli_flag(cmd, p, "json"));
    else if (!rc && simulate_run)
        rc = simulate(cmd, p, t, aa, &ss);
    if (!rc && !step_text) {
        if (cli_flag(cmd, p, "json"))
            rc = print_json(aa, simulate_run ? &ss : NULL);
        else
            print_table(aa, simulate_run ? &ss : NULL);
    }
    free(ss.start);
    free(ss.finish);
    fl_alltoall_free(aa);
    fl_topology_free(t);
    return rc;
}

int cli_alltoall(int argc, char **argv)
{
    return cli_run_single(&alltoall_cmd, run_alltoall, NULL, argc, argv);
}
