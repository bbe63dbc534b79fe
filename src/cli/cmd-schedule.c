/* cmd-schedule.c — `flitlab schedule`: paper 004's link-contention
 * schedules on Myrinet networks. A set of requests (read from a file or
 * drawn at random) is routed row-column, coloured so that no directed link
 * carries two requests of one colour, checked, and optionally run colour by
 * colour in the simulator. */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective.h"
#include "sim-options.h"

/* --size: a packet of at most this many flits. */
#define MAX_FLITS (1L << 20)

static void schedule_generate(CliOptions *opts)
{
    coll_add_sim_options(opts);
}

static const CliOption schedule_options[] = {
    { "requests", 0, "FILE", N_("read the requests from FILE: one 'src dst' host pair a line "
                             "('#' starts a comment)") },
    { "random", 0, "K", N_("instead: K random requests from distinct sources (--pattern)") },
    { "pattern", 0, "P", N_("uniform, permutation, hotspot or top-down (every host of the top "
                         "row to the bottom row; no --random) (default uniform)") },
    { "hot", 0, "H", N_("with --pattern hotspot: the hot host, a number or (x,y) (default 0)") },
    { "fraction", 0, "F", N_("with --pattern hotspot: the share of requests to it (default 0.5)") },
    { "seed", 0, "X", N_("the random seed (default 1)") },
    { "algorithm", 'a', "A", N_("assigncolor (paper 004's AssignColor_Linear or _Mesh), exact "
                             "(a minimum colouring, up to 256 requests) or greedy (first fit) "
                             "(default assigncolor)") },
    { "simulate", 0, NULL, N_("also run each colour as a phase in the simulator") },
    { "size", 0, "FLITS", N_("with --simulate: each request's packet in flits (default 16)") },
    { "json", 0, NULL, N_("print one JSON object instead of a table") },
    { 0 },
};

static const CliCommand schedule_cmd = {
    "schedule",
    "myrinet-line:N|myrinet-mesh:NxM (--requests FILE | --random K [--pattern P] |\n"
    "           --pattern top-down) [--seed X] [--algorithm A] [--simulate [--size F]]\n"
    "           [--json]",
    N_("Colour a set of requests (messages between hosts) on one of paper 004's Myrinet\n"
    "networks so that no directed link carries two requests of one colour: each\n"
    "colour is then a slot in which its requests go at once without link\n"
    "contention. Requests take row-column source routing (myrinet-dor); L_max is\n"
    "the most requests on one directed switch-to-switch link, a lower bound on the\n"
    "colours. Prints L_max, the colours used, whether the colouring is valid, and\n"
    "each request's path and colour.\n"
    "With --simulate, each colour class runs as a phase of the simulator (one\n"
    "packet per request, the next phase once all are delivered), and each phase's\n"
    "start, end and the requests delayed by contention are printed."),
    schedule_options, 1, 1, schedule_generate,
};

/* ---- the requests ----------------------------------------------------------- */

enum { PATTERN_UNIFORM, PATTERN_PERMUTATION, PATTERN_HOTSPOT, PATTERN_TOP_DOWN };
static const char *const pattern_names[] = { "uniform", "permutation", "hotspot", "top-down",
                                             NULL };

/* The request options, checked before the network is loaded. */
static int check_request_options(const CliCommand *cmd, const CliParsed *p, int *pattern)
{
    const char *file = cli_value(cmd, p, "requests");
    int random = cli_value(cmd, p, "random") != NULL;
    *pattern = sim_choice_option(cmd, p, "pattern", pattern_names, PATTERN_UNIFORM);
    if (*pattern < 0)
        return CLI_USAGE;
    int top_down = *pattern == PATTERN_TOP_DOWN;
    if (file && (random || cli_value(cmd, p, "pattern") || cli_value(cmd, p, "seed")))
        return cli_error(CLI_USAGE, _("--requests reads the requests: no --%s"),
                         random ? "random" : cli_value(cmd, p, "pattern") ? "pattern" : "seed");
    if (!file && !random && !top_down)
        return cli_error(CLI_USAGE, _("schedule: give the requests with --requests FILE, "
                                    "--random K or --pattern top-down"));
    if (top_down && random)
        return cli_error(CLI_USAGE, _("--pattern top-down takes every host of the top row: no "
                                    "--random"));
    if (*pattern != PATTERN_HOTSPOT && (cli_value(cmd, p, "hot") || cli_value(cmd, p, "fraction")))
        return cli_error(CLI_USAGE, _("--%s goes with --pattern hotspot"),
                         cli_value(cmd, p, "hot") ? "hot" : "fraction");
    return CLI_OK;
}

static int read_requests(const CliCommand *cmd, const CliParsed *p, const FlTopology *t,
                         int pattern, FlScheduleRequest **reqs, int *n)
{
    const char *file = cli_value(cmd, p, "requests");
    FlError err = { 0 };
    if (file) {
        if (fl_schedule_read_file(t, file, reqs, n, &err))
            return err.code == FL_EPARSE ? cli_error(CLI_FAIL, "%s: %s", file, err.message)
                                         : cli_engine_error(&err);
        return CLI_OK;
    }
    long k = 0, seed = 1;
    int hot = 0;
    double fraction = 0.5;
    const char *hot_text = cli_value(cmd, p, "hot"), *frac = cli_value(cmd, p, "fraction");
    if (sim_int_option(cmd, p, "random", 1, INT_MAX, &k)
        || sim_int_option(cmd, p, "seed", 0, LONG_MAX, &seed)
        || (hot_text && coll_node_arg(t, "hot", hot_text, &hot))
        || (frac && sim_parse_double("fraction", frac, 0, 1, &fraction)))
        return CLI_USAGE;
    int rc;
    switch (pattern) {
    case PATTERN_PERMUTATION:
        rc = fl_schedule_random_permutation(t, (int)k, (uint64_t)seed, reqs, n, &err);
        break;
    case PATTERN_HOTSPOT:
        rc = fl_schedule_hotspot(t, (int)k, hot, fraction, (uint64_t)seed, reqs, n, &err);
        break;
    case PATTERN_TOP_DOWN:
        rc = fl_schedule_top_down(t, (uint64_t)seed, reqs, n, &err);
        break;
    default:
        rc = fl_schedule_random_uniform(t, (int)k, (uint64_t)seed, reqs, n, &err);
        break;
    }
    return rc ? cli_engine_error(&err) : CLI_OK;
}

/* ---- reporting ----------------------------------------------------------------- */

/* What the command found. */
typedef struct Found {
    FlSchedule *s;
    FlScheduleAlgo algo;
    int *colors;
    int ncolors;
    int optimal;                /* exact: the search finished */
    int valid;
    FlError problem;            /* why the colouring is not valid */
    FlSchedulePhase *phases;    /* with --simulate */
} Found;

/* The switches request i crosses, as labels, into sw (room for its
 * channels + 1); returns how many. */
static int path_switches(const FlTopology *t, const FlSchedule *s, int i, int *sw)
{
    const int *ch;
    int n = fl_schedule_path(s, i, &ch);
    if (n <= 0) {
        int host = fl_topology_host_node(t, fl_schedule_request(s, i).src);
        sw[0] = fl_topology_node_label(t, fl_topology_host_switch(t, host));
        return 1;
    }
    sw[0] = cli_channel_src_label(t, ch[0]);
    for (int k = 0; k < n; k++)
        sw[k + 1] = cli_channel_dst_label(t, ch[k]);
    return n + 1;
}

static int print_json(const FlTopology *t, const Found *f)
{
    int n = fl_schedule_request_count(f->s);
    int *sw = malloc(((size_t)fl_topology_channel_count(t) + 1) * sizeof *sw);
    if (!sw)
        return cli_error(CLI_FAIL, _("out of memory"));
    json_t *reqs = json_array();
    for (int i = 0; i < n; i++) {
        FlScheduleRequest r = fl_schedule_request(f->s, i);
        json_t *path = json_array();
        int len = path_switches(t, f->s, i, sw);
        for (int k = 0; k < len; k++)
            json_array_append_new(path, json_integer(sw[k]));
        json_array_append_new(reqs, json_pack("{s:i, s:i, s:i, s:o}", "src", r.src, "dst", r.dst,
                                              "color", f->colors[i], "path", path));
    }
    free(sw);
    json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:b}", "algorithm",
                          fl_schedule_algo_name(f->algo), "count", n, "l_max",
                          fl_schedule_l_max(f->s), "colors", f->ncolors, "valid", f->valid);
    if (f->algo == FL_SCHEDULE_EXACT)
        json_object_set_new(o, "optimal", json_boolean(f->optimal));
    if (!f->valid)
        json_object_set_new(o, "problem", json_string(f->problem.message));
    json_object_set_new(o, "requests", reqs);
    if (f->phases) {
        json_t *phases = json_array();
        int64_t end = 0;
        for (int c = 0; c < f->ncolors; c++) {
            const FlSchedulePhase *ph = &f->phases[c];
            json_array_append_new(phases,
                                  json_pack("{s:i, s:i, s:I, s:I, s:i, s:I}", "color", ph->color,
                                            "requests", ph->requests, "start",
                                            (json_int_t)ph->start, "end", (json_int_t)ph->end,
                                            "delayed", ph->delayed, "max_delay",
                                            (json_int_t)ph->max_delay));
            end = ph->end > end ? ph->end : end;
        }
        json_object_set_new(o, "phases", phases);
        json_object_set_new(o, "completion", json_integer(end));
    }
    return cli_write_json(o, stdout);
}

static int print_table(const FlTopology *t, const Found *f)
{
    int n = fl_schedule_request_count(f->s);
    int *sw = malloc(((size_t)fl_topology_channel_count(t) + 1) * sizeof *sw);
    if (!sw)
        return cli_error(CLI_FAIL, _("out of memory"));
    if (f->algo == FL_SCHEDULE_EXACT && !f->optimal)
        printf(_("%s %s (gave up: the best colouring found)\n"), cli_label(_("algorithm"), 18),
               fl_schedule_algo_name(f->algo));
    else
        printf("%s %s\n", cli_label(_("algorithm"), 18), fl_schedule_algo_name(f->algo));
    printf("%s %d\n", cli_label(_("requests"), 18), n);
    printf(_("%s %d (the most requests on one directed link)\n"), cli_label(_("L_max"), 18),
           fl_schedule_l_max(f->s));
    printf("%s %d\n", cli_label(_("colours"), 18), f->ncolors);
    if (f->valid)
        printf(_("%s yes: no directed link carries two requests of one colour\n"),
               cli_label(_("valid"), 18));
    else
        printf(_("%s no: %s\n"), cli_label(_("valid"), 18), f->problem.message);
    printf("\n%7s %6s %6s %7s  %s\n", "request", "src", "dst", "colour", "path (switches)");
    for (int i = 0; i < n; i++) {
        FlScheduleRequest r = fl_schedule_request(f->s, i);
        printf("%7d %6d %6d %7d ", i, r.src, r.dst, f->colors[i]);
        int len = path_switches(t, f->s, i, sw);
        for (int k = 0; k < len; k++)
            printf(" %d", sw[k]);
        printf("\n");
    }
    free(sw);
    if (!f->phases)
        return CLI_OK;
    printf("\n%7s %8s %10s %10s %8s %10s\n", "colour", "requests", "start", "end", "delayed",
           "max_delay");
    for (int c = 0; c < f->ncolors; c++) {
        const FlSchedulePhase *ph = &f->phases[c];
        printf("%7d %8d %10lld %10lld %8d %10lld\n", ph->color, ph->requests,
               (long long)ph->start, (long long)ph->end, ph->delayed, (long long)ph->max_delay);
    }
    return CLI_OK;
}

/* ---- the command ---------------------------------------------------------------- */

/* Colours the set; the exact search may give up with its best colouring,
 * which is still reported (not optimal). */
static int colour(Found *f)
{
    int n = fl_schedule_request_count(f->s);
    FlError err = { 0 };
    f->colors = malloc((size_t)(n > 0 ? n : 1) * sizeof *f->colors);
    if (!f->colors)
        return cli_error(CLI_FAIL, _("out of memory"));
    f->ncolors = 0;
    int rc = fl_schedule_color(f->s, f->algo, f->colors, &f->ncolors, &err);
    f->optimal = rc == FL_OK;
    if (rc && !(rc == FL_ERANGE && f->algo == FL_SCHEDULE_EXACT && f->ncolors > 0))
        return cli_engine_error(&err);
    f->valid = fl_schedule_check(f->s, f->colors, &f->problem) == FL_OK;
    return CLI_OK;
}

static int simulate(const CliCommand *cmd, const CliParsed *p, FlTopology *t, long flits,
                    Found *f)
{
    CollNet net = { t, NULL };
    FlSim *sim = NULL;
    FlError err = { 0 };
    f->phases = calloc((size_t)(f->ncolors > 0 ? f->ncolors : 1), sizeof *f->phases);
    int rc = f->phases ? coll_net_route(cmd, p, &net) : cli_error(CLI_FAIL, _("out of memory"));
    if (!rc)
        rc = coll_sim_new(cmd, p, &net, 1, &sim);
    if (!rc && fl_schedule_run(sim, f->s, f->colors, f->ncolors, (int)flits, 0, NULL, NULL,
                               f->phases, &err))
        rc = cli_engine_error(&err);
    fl_sim_free(sim);
    fl_routing_free(net.r);
    return rc;
}

static int run_schedule(const CliCommand *cmd, const CliParsed *p)
{
    int pattern;
    long flits = 16;
    static const char *const sim_only[] = { "size", NULL };
    const char *alg = cli_value(cmd, p, "algorithm");
    Found f = { 0 };
    f.algo = FL_SCHEDULE_ASSIGNCOLOR;
    if (alg && (int)(f.algo = (FlScheduleAlgo)fl_schedule_algo_lookup(alg)) < 0)
        return cli_error(CLI_USAGE, _("--algorithm: unknown colouring '%s' (known: assigncolor, "
                                    "exact, greedy)"), alg);
    if (check_request_options(cmd, p, &pattern)
        || coll_refuse_without_simulate(cmd, p, 0, sim_only)
        || sim_int_option(cmd, p, "size", 1, MAX_FLITS, &flits))
        return CLI_USAGE;
    FlTopology *t = NULL;
    FlScheduleRequest *reqs = NULL;
    int n = 0, rc = CLI_OK;
    FlError err = { 0 };
    if (cli_load_topology(p->args[0], &t, &err))
        rc = cli_engine_error(&err);
    if (!rc)
        rc = read_requests(cmd, p, t, pattern, &reqs, &n);
    if (!rc && fl_schedule_new(t, reqs, n, &f.s, &err))
        rc = cli_engine_error(&err);
    if (!rc)
        rc = colour(&f);
    if (!rc && cli_flag(cmd, p, "simulate"))
        rc = simulate(cmd, p, t, flits, &f);
    if (!rc)
        rc = cli_flag(cmd, p, "json") ? print_json(t, &f) : print_table(t, &f);
    free(f.phases);
    free(f.colors);
    fl_schedule_free(f.s);
    free(reqs);
    fl_topology_free(t);
    return rc;
}

int cli_schedule(int argc, char **argv)
{
    return cli_run_single(&schedule_cmd, run_schedule, NULL, argc, argv);
}
