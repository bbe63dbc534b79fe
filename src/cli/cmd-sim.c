/* cmd-sim.c — `flitlab sim` and `flitlab sweep`: run the flit-level simulator
 * (or paper 003's deflection model) on a network, and trace a load-latency
 * curve with one simulation per offered load, in parallel. */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "flitlab-io.h"

/* Without --max-latency, a sweep stops at the first rate whose mean latency
 * passes this many times the latency at its lowest rate. */
#define DEFAULT_LATENCY_FACTOR 10.0
/* A sweep refuses more points than this (a typo in STEP, most likely). */
#define MAX_SWEEP_POINTS 10000

/* The options shared by `sim` and `sweep`: the network, the routing, the
 * router, the traffic and the run. */
#define SIM_OPTIONS                                                                        \
    { "routing", 'r', "NAME", "the routing algorithm (required; 'flitlab route --help')" }, \
    { "root", 0, "N", "root switch (node id) of updown, lturn-* and rturn-*" },            \
    { "order", 0, "ORDER", "dor: dimension order, xy (default), yx, xyz..." },             \
    { "classes", 0, "K", "VC classes the routing may use (default: its own)" },            \
    { "selection", 0, "HOW", "among legal hops: credits (default), lowest or random" },    \
    { "vcs", 0, "V", "virtual channels per port (default 2)" },                            \
    { "buf", 0, "B", "buffer depth of each VC in flits (default 8)" },                     \
    { "switching", 0, "MODE", "wormhole (default) or vct (virtual cut-through)" },         \
    { "release", 0, "RULE", "VC release: tail-sent (default) or tail-credit" },            \
    { "pipeline", 0, "NAME", "default (1 cycle per hop) or booksim-min (3 per hop)" },     \
    { "link-latency", 0, "N", "cycles a flit spends on a channel (default 1)" },          \
    { "link-cycles-per-flit", 0, "C", "cycles a flit occupies a channel (default 1)" },    \
    { "traffic", 't', "PATTERN", "destinations: uniform (default), bitrev... (below)" },    \
    { "self", 0, NULL, "uniform: hosts may pick themselves, as BookSim does" },            \
    { "hotspot", 0, "F:H1,H2..", "hotspot: share F of packets goes to hosts H1,H2.." },    \
    { "trace", 0, "FILE", "replay a trace (lines: cycle source destination flits)" },      \
    { "burst", 0, "ON:OFF", "bursty on/off injection, mean period lengths in cycles" },    \
    { "packet", 0, "L|S:L:F", "packet length L, or bimodal: S or L flits, F long" },       \
    { "warmup", 0, "W", "warm-up cycles before statistics (default 1000)" },               \
    { "measure", 0, "M", "cycles whose packets are measured (default 10000)" },            \
    { "drain", 0, "D", "at most this many cycles to deliver them (default 100000)" },      \
    { "watchdog", 0, "N", "deadlock after N cycles without progress (default 10000)" },    \
    { "seed", 0, "S", "random seed (default 1)" }

static const CliOption sim_options[] = {
    SIM_OPTIONS,
    { "rate", 0, "X", "offered load, flits per cycle per host, 0 to 1 (default 0.1)" },
    { "json", 0, NULL, "print one JSON object instead of a table" },
    { "mode", 0, "MODE", "flit (default) or deflection (paper 003's model)" },
    { "nmsg", 0, "K", "deflection: messages per node (default 1)" },
    { "priority", 0, "P", "deflection: random, age (default), path_num, age+path_num" },
    { "cycles", 0, "N", "deflection: cycles to simulate (default 1000)" },
    { "series", 0, "FILE.csv", "deflection: write the per-cycle time series" },
    { 0 },
};

static const CliCommand sim_cmd = {
    "sim", "SPEC|FILE|PROJECT.flitlab#NAME --routing R [--traffic T] [--rate X] [--json]",
    "Simulate a network flit by flit: input-queued switches with virtual channels,\n"
    "credit flow control and round-robin allocation, wormhole or virtual cut-through\n"
    "switching. Reports packet latency (from creation and from injection), accepted\n"
    "throughput, hops, and the status: ok, saturated (source queues grow without\n"
    "bound) or deadlock (with the cycle of channels that wait on each other).\n"
    "With --mode deflection, runs paper 003's bufferless hot-potato model instead:\n"
    "--nmsg messages per node in a closed system for --cycles cycles.",
    sim_options, 1, 1,
};

static const CliOption sweep_options[] = {
    SIM_OPTIONS,
    { "rates", 0, "A:B:STEP", "offered loads from A to B (required)" },
    { "format", 'f', "FORMAT", "csv (default) or json" },
    { "output", 'o', "OUT", "write to OUT (atomically) instead of standard output" },
    { "jobs", 'j', "N", "simulations at once (default: the online CPUs)" },
    { "max-latency", 0, "CYCLES", "stop past this mean latency (default 10x the first)" },
    { 0 },
};

static const CliCommand sweep_cmd = {
    "sweep", "SPEC|FILE|PROJECT.flitlab#NAME --routing R --rates A:B:STEP [-f csv|json]",
    "Trace a load-latency curve: one simulation per offered load, run in parallel,\n"
    "with progress on standard error. The sweep stops past saturation: no higher\n"
    "rate is run once a point saturates, deadlocks or its mean latency passes the\n"
    "threshold; that point is the last one printed. Rows are ordered by rate.",
    sweep_options, 1, 1,
};

/* cli_parse() keeps one value per option in a fixed array. */
_Static_assert(sizeof sim_options / sizeof sim_options[0] <= CLI_MAX_OPTIONS + 1,
               "sim has more options than CLI_MAX_OPTIONS");
_Static_assert(sizeof sweep_options / sizeof sweep_options[0] <= CLI_MAX_OPTIONS + 1,
               "sweep has more options than CLI_MAX_OPTIONS");

/* Options that only the flit-level model reads, and only the deflection one. */
static const char *const flit_only[] = {
    "classes", "selection", "vcs", "buf", "switching", "release", "pipeline",
    "link-latency", "link-cycles-per-flit", "traffic", "self", "hotspot", "trace",
    "burst", "packet", "warmup", "measure", "drain", "watchdog", "rate", NULL,
};
static const char *const deflection_only[] = { "nmsg", "priority", "cycles", "series", NULL };

/* ---- parsing option values --------------------------------------------- */

static int parse_double(const char *option, const char *text, double min, double max,
                        double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !isfinite(v) || v < min || v > max)
        return cli_error(CLI_USAGE, "--%s needs a number from %g to %g, not '%s'", option,
                         min, max, text);
    *out = v;
    return CLI_OK;
}

/* An integer option, when given, into *out (left alone otherwise). */
static int int_option(const CliCommand *cmd, const CliParsed *p, const char *name, long min,
                      long max, long *out)
{
    const char *s = cli_value(cmd, p, name);
    return s && cli_int_value(name, s, min, max, out) ? CLI_USAGE : CLI_OK;
}

static int int64_option(const CliCommand *cmd, const CliParsed *p, const char *name,
                        int64_t *out)
{
    long v = (long)*out;
    if (int_option(cmd, p, name, 0, LONG_MAX, &v))
        return CLI_USAGE;
    *out = v;
    return CLI_OK;
}

/* A keyword option: the index of its value among names (NULL-terminated), or
 * dflt when absent; -1 after an error naming the choices. */
static int choice_option(const CliCommand *cmd, const CliParsed *p, const char *name,
                         const char *const *names, int dflt)
{
    const char *s = cli_value(cmd, p, name);
    if (!s)
        return dflt;
    char known[256] = "";
    for (int i = 0; names[i]; i++) {
        if (strcmp(s, names[i]) == 0)
            return i;
        strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
        strncat(known, names[i], sizeof known - strlen(known) - 1);
    }
    cli_error(CLI_USAGE, "--%s: unknown value '%s' (known: %s)", name, s, known);
    return -1;
}

/* "A:B" or "A:B:C" into up to three numbers; returns how many were read. */
static int split_numbers(const char *text, double *v, int max)
{
    int n = 0;
    const char *s = text;
    while (n < max) {
        char *end;
        v[n] = strtod(s, &end);
        if (end == s || !isfinite(v[n]))
            return -1;
        n++;
        if (*end == '\0')
            return n;
        if (*end != ':')
            return -1;
        s = end + 1;
    }
    return -1;
}

/* --packet L or S:L:FRACTION. */
static int parse_packet(const char *text, FlTrafficConfig *tc)
{
    double v[3];
    int n = split_numbers(text, v, 3);
    int whole = n > 0 && v[0] == floor(v[0]) && v[0] >= 1 && v[0] <= 1000000
                && (n < 2 || (v[1] == floor(v[1]) && v[1] >= 1 && v[1] <= 1000000));
    if (!whole || n == 2 || (n == 3 && (v[2] < 0 || v[2] > 1)))
        return cli_error(CLI_USAGE, "--packet needs a length in flits (8) or a bimodal mix "
                                    "SHORT:LONG:FRACTION_LONG (1:16:0.25), not '%s'", text);
    tc->packet_flits = (int)v[0];
    tc->packet_flits_long = n == 3 ? (int)v[1] : 0;
    tc->long_fraction = n == 3 ? v[2] : 0;
    return CLI_OK;
}

/* --hotspot FRACTION:H1,H2,... into a malloc'd host list. */
static int parse_hotspot(const char *text, FlTrafficConfig *tc, int **hosts)
{
    char *end;
    double f = strtod(text, &end);
    int ok = end != text && *end == ':' && f >= 0 && f <= 1;
    int cap = 1;
    for (const char *s = text; *s; s++)
        cap += *s == ',';
    int *list = ok ? malloc(sizeof *list * (size_t)cap) : NULL;
    int n = 0;
    for (const char *s = end + 1; list;) {
        char *after;
        long h = strtol(s, &after, 10);
        if (after == s || h < 0 || h > INT_MAX || (*after != ',' && *after != '\0'))
            break;
        list[n++] = (int)h;
        if (*after == '\0') {
            *hosts = list;
            tc->hotspot_fraction = f;
            tc->hotspots = list;
            tc->n_hotspots = n;
            return CLI_OK;
        }
        s = after + 1;
    }
    free(list);
    return cli_error(CLI_USAGE, "--hotspot needs FRACTION:HOST,HOST,... (host ranks), e.g. "
                                "0.2:0,63, not '%s'", text);
}

/* Whether name is a traffic pattern the engine knows; if not, says so. */
static int check_pattern(const char *name)
{
    char known[512] = "";
    for (int i = 0; i < fl_traffic_pattern_count(); i++) {
        const char *k = fl_traffic_pattern_name(i);
        if (strcmp(k, name) == 0)
            return CLI_OK;
        strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
        strncat(known, k, sizeof known - strlen(known) - 1);
    }
    return cli_error(CLI_USAGE, "unknown traffic '%s' (known: %s)", name, known);
}

/* Refuses the options of the other model, by name. */
static int refuse_options(const CliCommand *cmd, const CliParsed *p,
                          const char *const *names, const char *why)
{
    for (int i = 0; names[i]; i++)
        if (cli_value(cmd, p, names[i]))
            return cli_error(CLI_USAGE, "--%s does not apply %s", names[i], why);
    return CLI_OK;
}

/* ---- building the simulation ------------------------------------------- */

/* Everything a run needs, owned here. */
typedef struct SimSetup {
    FlTopology *t;
    FlRouting *r;
    FlSimConfig cfg;
    int *hotspots;
    FlTraceEvent *trace;
} SimSetup;

static void setup_free(SimSetup *s)
{
    fl_routing_free(s->r);
    fl_topology_free(s->t);
    free(s->hotspots);
    free(s->trace);
}

/* The traffic options: pattern (implied by --hotspot and --trace when
 * --traffic is absent), lengths and the injection process. The trace file is
 * read here, before the network is built. */
static int parse_traffic(const CliCommand *cmd, const CliParsed *p, SimSetup *s)
{
    FlTrafficConfig *tc = &s->cfg.traffic;
    const char *trace = cli_value(cmd, p, "trace");
    const char *hotspot = cli_value(cmd, p, "hotspot");
    const char *pattern = cli_value(cmd, p, "traffic");
    if (!pattern)
        pattern = trace ? "trace" : hotspot ? "hotspot" : "uniform";
    if (trace && strcmp(pattern, "trace") != 0)
        return cli_error(CLI_USAGE, "--trace replays a trace file: it does not go with "
                                    "--traffic %s", pattern);
    if (hotspot && strcmp(pattern, "hotspot") != 0)
        return cli_error(CLI_USAGE, "--hotspot applies to --traffic hotspot, not %s", pattern);
    if (cli_flag(cmd, p, "self") && strcmp(pattern, "uniform") != 0)
        return cli_error(CLI_USAGE, "--self applies to --traffic uniform, not %s", pattern);
    if (strcmp(pattern, "trace") == 0 && !trace)
        return cli_error(CLI_USAGE, "--traffic trace needs the file: --trace FILE");
    if (check_pattern(pattern))
        return CLI_USAGE;
    tc->pattern = pattern;
    tc->include_self = cli_flag(cmd, p, "self");

    const char *v;
    if ((v = cli_value(cmd, p, "packet")) && parse_packet(v, tc))
        return CLI_USAGE;
    if (hotspot && parse_hotspot(hotspot, tc, &s->hotspots))
        return CLI_USAGE;
    if ((v = cli_value(cmd, p, "burst"))) {
        double on_off[2];
        if (split_numbers(v, on_off, 2) != 2 || on_off[0] < 1 || on_off[1] < 1)
            return cli_error(CLI_USAGE, "--burst needs ON:OFF, the mean on and off period "
                                        "lengths in cycles (each at least 1), not '%s'", v);
        tc->process = FL_INJECT_ONOFF;
        tc->burst_on = on_off[0];
        tc->burst_off = on_off[1];
    }
    if (trace) {
        FlError err = { 0 };
        if (fl_io_read_trace(trace, &s->trace, &tc->n_trace, &err))
            return cli_engine_error(&err);
        tc->trace = s->trace;
    }
    return CLI_OK;
}

/* The router and run options into s->cfg; pipeline presets first, so that
 * an explicit --link-latency overrides the preset's. */
static int parse_router(const CliCommand *cmd, const CliParsed *p, FlSimConfig *cfg)
{
    static const char *const selections[] = { "lowest", "random", "credits", NULL };
    static const char *const switchings[] = { "wormhole", "vct", NULL };
    static const char *const releases[] = { "tail-sent", "tail-credit", NULL };
    int sel = choice_option(cmd, p, "selection", selections, FL_SELECT_CREDITS);
    int sw = choice_option(cmd, p, "switching", switchings, (int)cfg->switching);
    int rel = choice_option(cmd, p, "release", releases, (int)cfg->vc_release);
    if (sel < 0 || sw < 0 || rel < 0)
        return CLI_USAGE;
    cfg->selection = (FlSelection)sel;
    cfg->switching = (FlSwitching)sw;
    cfg->vc_release = (FlVcRelease)rel;

    const char *pipeline = cli_value(cmd, p, "pipeline");
    FlError err = { 0 };
    if (pipeline && fl_sim_config_pipeline(cfg, pipeline, &err))
        return cli_error(CLI_USAGE, "--pipeline: %s", err.message[0] ? err.message
                                                                   : fl_strerror(err.code));
    /* Zero VCs and similar are accepted here so that the engine, which
     * knows the routing's needs, names the problem. */
    long vcs = cfg->vcs, buf = cfg->buf_flits, lat = cfg->link_latency,
         cpf = cfg->link_cycles_per_flit;
    if (int_option(cmd, p, "vcs", 0, 64, &vcs) || int_option(cmd, p, "buf", 0, 1 << 20, &buf)
        || int_option(cmd, p, "link-latency", 1, 1 << 20, &lat)
        || int_option(cmd, p, "link-cycles-per-flit", 1, 1 << 20, &cpf))
        return CLI_USAGE;
    cfg->vcs = (int)vcs;
    cfg->buf_flits = (int)buf;
    cfg->link_latency = (int)lat;
    cfg->link_cycles_per_flit = (int)cpf;

    int64_t seed = (int64_t)cfg->seed;
    if (int64_option(cmd, p, "warmup", &cfg->warmup_cycles)
        || int64_option(cmd, p, "measure", &cfg->measure_cycles)
        || int64_option(cmd, p, "drain", &cfg->drain_cycles)
        || int64_option(cmd, p, "watchdog", &cfg->deadlock_cycles)
        || int64_option(cmd, p, "seed", &seed))
        return CLI_USAGE;
    cfg->seed = (uint64_t)seed;
    return CLI_OK;
}

/* Loads the network and builds the routing (--root, --order, --classes as in
 * `flitlab route`). */
static int build_network(const CliCommand *cmd, const CliParsed *p, SimSetup *s)
{
    const char *name = cli_value(cmd, p, "routing");
    if (!name)
        return cli_error(CLI_USAGE, "%s: say which routing with --routing NAME (see "
                                    "'flitlab route --help' for the list)", cmd->name);
    FlRoutingOptions opt = { .root = -1, .order = cli_value(cmd, p, "order") };
    long root = -1, classes = 0;
    if (int_option(cmd, p, "root", 0, INT_MAX, &root)
        || int_option(cmd, p, "classes", 1, 16, &classes))
        return CLI_USAGE;
    opt.root = (int)root;
    opt.vc_classes = (int)classes;

    FlError err = { 0 };
    if (cli_load_topology(p->args[0], &s->t, &err))
        return cli_engine_error(&err);
    if (root >= fl_topology_node_count(s->t)
        || (root >= 0 && fl_topology_node_kind(s->t, (int)root) != FL_NODE_SWITCH))
        return cli_error(CLI_USAGE, "--root %ld: not a switch of this network", root);
    if (fl_routing_new(s->t, name, &opt, &s->r, &err))
        return cli_engine_error(&err);
    if (root >= 0 && fl_routing_root(s->r) < 0)
        return cli_error(CLI_USAGE, "--root applies to routings over a spanning tree "
                                    "(updown, lturn-*, rturn-*), not to %s", name);
    s->cfg.routing = s->r;
    return CLI_OK;
}

/* Parses every flit-level option, then builds the network. On failure,
 * returns the exit status; s must be freed with setup_free() either way. */
static int setup_sim(const CliCommand *cmd, const CliParsed *p, SimSetup *s)
{
    memset(s, 0, sizeof *s);
    fl_sim_config_init(&s->cfg);
    int rc = parse_router(cmd, p, &s->cfg);
    if (!rc)
        rc = parse_traffic(cmd, p, s);
    if (!rc)
        rc = build_network(cmd, p, s);
    return rc;
}

/* ---- reporting a run ---------------------------------------------------- */

/* A JSON number, or null for the NaN of an empty measurement. */
static json_t *number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* The keys, in its order, plus the percentiles and counts. */
static void add_result(json_t *o, const FlSimResult *res)
{
    json_object_set_new(o, "status", json_string(fl_sim_status_name(res->status)));
    json_object_set_new(o, "latency_avg", number(res->latency_avg));
    json_object_set_new(o, "latency_p50", number(res->latency_p50));
    json_object_set_new(o, "latency_p95", number(res->latency_p95));
    json_object_set_new(o, "latency_p99", number(res->latency_p99));
    json_object_set_new(o, "network_latency_avg", number(res->network_latency_avg));
    json_object_set_new(o, "network_latency_p50", number(res->network_latency_p50));
    json_object_set_new(o, "network_latency_p99", number(res->network_latency_p99));
    json_object_set_new(o, "throughput", number(res->throughput));
    json_object_set_new(o, "throughput_min", number(res->throughput_min));
    json_object_set_new(o, "offered", number(res->offered));
    json_object_set_new(o, "hops_avg", number(res->hops_avg));
    json_object_set_new(o, "packets", json_integer(res->packets));
    json_object_set_new(o, "cycles", json_integer(res->cycles));
    json_object_set_new(o, "flit_hops", json_integer(res->flit_hops));
    json_object_set_new(o, "wall_s", number(res->wall_s));
}

/* Busiest channel and the mean over switch-to-switch channels that exist. */
static void utilization(const FlTopology *t, const FlSimResult *res, double *max, double *mean)
{
    int n = fl_topology_channel_count(t), counted = 0;
    double sum = 0;
    *max = 0;
    for (int c = 0; res->channel_utilization && c < n; c++) {
        if (fl_topology_node_kind(t, fl_topology_channel_src(t, c)) != FL_NODE_SWITCH
            || fl_topology_node_kind(t, fl_topology_channel_dst(t, c)) != FL_NODE_SWITCH)
            continue;
        double u = res->channel_utilization[c];
        sum += u;
        counted++;
        if (u > *max)
            *max = u;
    }
    *mean = counted ? sum / counted : 0;
}

static int write_json(json_t *o, FILE *to)
{
    char *text = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER
                                       | JSON_REAL_PRECISION(10))
                   : NULL;
    json_decref(o);
    if (!text)
        return cli_error(CLI_FAIL, "out of memory writing JSON");
    fprintf(to, "%s\n", text);
    free(text);
    return CLI_OK;
}

static int print_sim_json(const SimSetup *s, const FlSimResult *res)
{
    const FlTopology *t = s->t;
    json_t *o = json_object();
    add_result(o, res);
    double umax, umean;
    utilization(t, res, &umax, &umean);
    json_object_set_new(o, "channel_utilization_max", json_real(umax));
    json_object_set_new(o, "channel_utilization_avg", json_real(umean));
    if (res->status == FL_SIM_DEADLOCK) {
        /* The channels, and the switches they join, so that a reader can
         * find the cycle without the channel numbering. */
        json_t *cycle = json_array(), *links = json_array();
        for (int i = 0; i < res->deadlock_len; i++) {
            int c = res->deadlock_channels[i];
            json_array_append_new(cycle, json_integer(c));
            json_array_append_new(links, json_pack("[i, i]", fl_topology_channel_src(t, c),
                                                   fl_topology_channel_dst(t, c)));
        }
        json_object_set_new(o, "cycle", cycle);
        json_object_set_new(o, "cycle_nodes", links);
    }
    return write_json(o, stdout);
}

static void print_sim_table(const SimSetup *s, const FlSimResult *res)
{
    printf("%-20s %s\n", "status", fl_sim_status_name(res->status));
    printf("%-20s %.2f cycles (p50 %.1f, p95 %.1f, p99 %.1f)\n", "latency",
           res->latency_avg, res->latency_p50, res->latency_p95, res->latency_p99);
    printf("%-20s %.2f cycles (p50 %.1f, p99 %.1f)\n", "network latency",
           res->network_latency_avg, res->network_latency_p50, res->network_latency_p99);
    printf("%-20s %.4f flits/cycle/host (worst host %.4f)\n", "accepted",
           res->throughput, res->throughput_min);
    printf("%-20s %.4f flits/cycle/host\n", "offered", res->offered);
    printf("%-20s %.3f\n", "hops", res->hops_avg);
    double umax, umean;
    utilization(s->t, res, &umax, &umean);
    printf("%-20s %.3f busiest, %.3f mean\n", "channel utilization", umax, umean);
    printf("%-20s %lld measured\n", "packets", (long long)res->packets);
    printf("%-20s %lld simulated, %lld flit-hops\n", "cycles", (long long)res->cycles,
           (long long)res->flit_hops);
    printf("%-20s %.3f s (%.2f M flit-hops/s)\n", "wall time", res->wall_s,
           res->wall_s > 0 ? (double)res->flit_hops / res->wall_s / 1e6 : 0.0);
    if (res->status != FL_SIM_DEADLOCK)
        return;
    printf("%-20s", "deadlock cycle");
    for (int i = 0; i < res->deadlock_len; i++) {
        int c = res->deadlock_channels[i];
        printf(" %d->%d", fl_topology_channel_src(s->t, c), fl_topology_channel_dst(s->t, c));
    }
    printf(" (channels between nodes, each waiting on the next)\n");
}

/* ---- sim: deflection mode ---------------------------------------------- */

/* Mean of v[from .. n). */
static double mean_from(const double *v, int64_t from, int64_t n)
{
    double sum = 0;
    for (int64_t i = from; i < n; i++)
        sum += v[i];
    return n > from ? sum / (double)(n - from) : 0;
}

static int write_series(const char *path, const FlDeflectResult *res)
{
    FlError err = { 0 };
    FlAtomicFile *f;
    FILE *fp;
    if (fl_atomic_open(path, &f, &fp, &err))
        return cli_engine_error(&err);
    fprintf(fp, "cycle,max_delay,avg_delay,throughput\n");
    for (int64_t c = 0; c < res->cycles; c++)
        fprintf(fp, "%lld,%.10g,%.10g,%.10g\n", (long long)c + 1, res->max_delay[c],
                res->avg_delay[c], res->throughput[c]);
    return fl_atomic_commit(f, &err) ? cli_engine_error(&err) : CLI_OK;
}

static int run_deflection(const CliCommand *cmd, const CliParsed *p)
{
    static const char *const priorities[] = { "random", "age", "path_num", "age+path_num",
                                              NULL };
    if (refuse_options(cmd, p, flit_only, "to --mode deflection"))
        return CLI_USAGE;
    FlDeflectConfig cfg = { .nmsg = 1, .cycles = 1000, .seed = 1 };
    long nmsg = cfg.nmsg;
    int64_t seed = 1;
    int prio = choice_option(cmd, p, "priority", priorities, FL_PRIORITY_AGE);
    if (prio < 0 || int_option(cmd, p, "nmsg", 1, 64, &nmsg)
        || int64_option(cmd, p, "cycles", &cfg.cycles) || int64_option(cmd, p, "seed", &seed))
        return CLI_USAGE;
    if (cfg.cycles < 1)
        return cli_error(CLI_USAGE, "--cycles needs at least 1 cycle");
    cfg.nmsg = (int)nmsg;
    cfg.priority = (FlDeflectPriority)prio;
    cfg.seed = (uint64_t)seed;

    SimSetup s;
    memset(&s, 0, sizeof s);
    int rc = build_network(cmd, p, &s);
    FlDeflectResult res;
    memset(&res, 0, sizeof res);
    FlError err = { 0 };
    cfg.routing = s.r;
    if (!rc && fl_deflect_run(s.t, &cfg, &res, NULL, NULL, &err))
        rc = cli_engine_error(&err);
    const char *series = cli_value(cmd, p, "series");
    if (!rc && series)
        rc = write_series(series, &res);
    if (!rc) {
        int64_t n = res.cycles;
        double last_max = n ? res.max_delay[n - 1] : 0, last_avg = n ? res.avg_delay[n - 1] : 0;
        /* The second half of the run is past the start-up transient of the
         * closed system, so its mean is the steady throughput. */
        double steady = mean_from(res.throughput, n / 2, n);
        if (cli_flag(cmd, p, "json")) {
            rc = write_json(json_pack("{s:s, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f}",
                                      "mode", "deflection", "cycles", (json_int_t)n,
                                      "delivered", (json_int_t)res.delivered,
                                      "deflections", (json_int_t)res.deflections,
                                      "max_delay", last_max, "avg_delay", last_avg,
                                      "throughput", steady,
                                      "throughput_all", mean_from(res.throughput, 0, n),
                                      "wall_s", res.wall_s),
                            stdout);
        } else {
            printf("%-20s %lld\n", "cycles", (long long)n);
            printf("%-20s %lld (%lld deflections)\n", "delivered", (long long)res.delivered,
                   (long long)res.deflections);
            printf("%-20s %.2f max, %.3f mean (cycles, delivered so far)\n", "delay",
                   last_max, last_avg);
            printf("%-20s %.4f messages/cycle/node (second half of the run)\n", "throughput",
                   steady);
            printf("%-20s %.3f s\n", "wall time", res.wall_s);
        }
    }
    fl_deflect_result_clear(&res);
    setup_free(&s);
    return rc;
}

/* ---- sim ----------------------------------------------------------------- */

static int run_sim(const CliCommand *cmd, const CliParsed *p)
{
    static const char *const modes[] = { "flit", "deflection", NULL };
    int mode = choice_option(cmd, p, "mode", modes, 0);
    if (mode < 0)
        return CLI_USAGE;
    if (mode == 1)
        return run_deflection(cmd, p);
    if (refuse_options(cmd, p, deflection_only, "without --mode deflection"))
        return CLI_USAGE;

    SimSetup s;
    int rc = setup_sim(cmd, p, &s);
    const char *rate = cli_value(cmd, p, "rate");
    if (!rc && rate)
        rc = parse_double("rate", rate, 0, 1, &s.cfg.traffic.rate);
    FlSim *sim = NULL;
    FlSimResult res;
    memset(&res, 0, sizeof res);
    FlError err = { 0 };
    if (!rc && (fl_sim_new(s.t, &s.cfg, &sim, &err) || fl_sim_run(sim, &res, NULL, NULL, &err)))
        rc = cli_engine_error(&err);
    if (!rc) {
        if (cli_flag(cmd, p, "json"))
            rc = print_sim_json(&s, &res);
        else
            print_sim_table(&s, &res);
    }
    fl_sim_result_clear(&res);
    fl_sim_free(sim);
    setup_free(&s);
    return rc;
}

/* ---- sweep ---------------------------------------------------------------- */

typedef enum PointState { POINT_PENDING, POINT_DONE, POINT_CANCELLED, POINT_FAILED } PointState;

typedef struct SweepPoint {
    double rate;
    PointState state;
    FlSimResult res;     /* the scalars only: the arrays are freed at once */
    FlError err;
} SweepPoint;

/* The state the workers share, under lock. */
typedef struct Sweep {
    const FlTopology *t;
    const FlSimConfig *base;
    SweepPoint *points;
    int n;
    int next;            /* the next point to hand out */
    int stop;            /* the lowest point known to be past saturation, else n */
    int finished;
    double max_latency;  /* 0: DEFAULT_LATENCY_FACTOR times point 0's */
    pthread_mutex_t lock;
} Sweep;

/* Whether a finished point is past saturation, with what is known so far.
 * The threshold can only fall as points finish (point 0's latency arrives),
 * so a point judged past saturation early stays so: cancelling on early
 * knowledge never drops a point the final judgement keeps. */
static int past_saturation(const Sweep *sw, int i)
{
    const SweepPoint *pt = &sw->points[i];
    if (pt->state != POINT_DONE)
        return 0;
    if (pt->res.status != FL_SIM_OK)
        return 1;
    double limit = sw->max_latency;
    if (limit <= 0) {
        const SweepPoint *first = &sw->points[0];
        if (first->state != POINT_DONE || !isfinite(first->res.latency_avg))
            return 0;
        limit = DEFAULT_LATENCY_FACTOR * first->res.latency_avg;
    }
    return pt->res.latency_avg > limit;
}

typedef struct PointRun {
    Sweep *sw;
    int index;
} PointRun;

/* Cancels a running point once a lower rate has saturated. */
static int point_progress(void *data, double fraction)
{
    (void)fraction;
    PointRun *pr = data;
    pthread_mutex_lock(&pr->sw->lock);
    int cancel = pr->index > pr->sw->stop;
    pthread_mutex_unlock(&pr->sw->lock);
    return cancel;
}

static void run_point(Sweep *sw, int i)
{
    SweepPoint *pt = &sw->points[i];
    FlSimConfig cfg = *sw->base;
    cfg.traffic.rate = pt->rate;
    PointRun pr = { sw, i };
    FlSim *sim = NULL;
    FlSimResult res;
    memset(&res, 0, sizeof res);
    FlError err = { 0 };
    int rc = fl_sim_new(sw->t, &cfg, &sim, &err);
    if (!rc)
        rc = fl_sim_run(sim, &res, point_progress, &pr, &err);
    fl_sim_free(sim);
    pthread_mutex_lock(&sw->lock);
    pt->err = err;
    pt->state = !rc ? POINT_DONE : err.code == FL_ECANCELLED ? POINT_CANCELLED : POINT_FAILED;
    pt->res = res;
    pt->res.channel_utilization = pt->res.vc_occupancy = NULL;
    pt->res.deadlock_channels = NULL;
    pt->res.deadlock_len = 0;
    fl_sim_result_clear(&res);
    if (pt->state == POINT_DONE) {
        sw->finished++;
        fprintf(stderr, "sweep: rate %.4g: %s, latency %.2f, accepted %.4f (%d done)\n",
                pt->rate, fl_sim_status_name(pt->res.status), pt->res.latency_avg,
                pt->res.throughput, sw->finished);
        /* Point 0's latency may set the threshold: look at every point. */
        for (int k = 0; k < sw->n && k < sw->stop; k++)
            if (past_saturation(sw, k))
                sw->stop = k;
    }
    pthread_mutex_unlock(&sw->lock);
}

static void *sweep_worker(void *data)
{
    Sweep *sw = data;
    pthread_mutex_lock(&sw->lock);
    while (sw->next < sw->n && sw->next <= sw->stop) {
        int i = sw->next++;
        pthread_mutex_unlock(&sw->lock);
        run_point(sw, i);
        pthread_mutex_lock(&sw->lock);
    }
    pthread_mutex_unlock(&sw->lock);
    return NULL;
}

/* --rates A:B:STEP into a malloc'd list of points. */
static int parse_rates(const char *text, SweepPoint **out, int *n)
{
    double v[3];
    if (split_numbers(text, v, 3) != 3 || v[0] < 0 || v[1] < v[0] || v[1] > 1 || v[2] <= 0)
        return cli_error(CLI_USAGE, "--rates needs FROM:TO:STEP with 0 <= FROM <= TO <= 1 "
                                    "and STEP > 0, not '%s'", text);
    /* The small slack keeps TO itself when STEP does not divide exactly in
     * binary (0.1:0.5:0.1). */
    double count = floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
    if (count > MAX_SWEEP_POINTS)
        return cli_error(CLI_USAGE, "--rates %s makes %.0f points; at most %d", text, count,
                         MAX_SWEEP_POINTS);
    *n = (int)count;
    *out = calloc((size_t)*n, sizeof **out);
    if (!*out)
        return cli_error(CLI_FAIL, "out of memory for the sweep");
    /* Each rate from its index, not by adding STEP up, so that no rounding
     * error accumulates; rounded to 12 digits for clean output. */
    for (int i = 0; i < *n; i++)
        (*out)[i].rate = round((v[0] + i * v[2]) * 1e12) / 1e12;
    return CLI_OK;
}

static void write_csv(FILE *fp, const Sweep *sw, int last)
{
    fprintf(fp, "rate,status,latency_avg,latency_p50,latency_p99,network_latency_avg,"
                "throughput,throughput_min,offered,hops_avg,packets,cycles,flit_hops,wall_s,"
                "past_saturation\n");
    for (int i = 0; i <= last; i++) {
        const SweepPoint *pt = &sw->points[i];
        const FlSimResult *r = &pt->res;
        fprintf(fp, "%.10g,%s,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%lld,%lld,%lld,"
                    "%.6g,%d\n",
                pt->rate, fl_sim_status_name(r->status), r->latency_avg, r->latency_p50,
                r->latency_p99, r->network_latency_avg, r->throughput, r->throughput_min,
                r->offered, r->hops_avg, (long long)r->packets, (long long)r->cycles,
                (long long)r->flit_hops, r->wall_s, past_saturation(sw, i));
    }
}

static json_t *sweep_json(const Sweep *sw, int last)
{
    json_t *points = json_array();
    for (int i = 0; i <= last; i++) {
        json_t *o = json_object();
        json_object_set_new(o, "rate", json_real(sw->points[i].rate));
        add_result(o, &sw->points[i].res);
        json_object_set_new(o, "past_saturation", json_boolean(past_saturation(sw, i)));
        json_array_append_new(points, o);
    }
    return json_pack("{s:o, s:o}", "points", points, "stopped_at",
                     last < sw->n - 1 || past_saturation(sw, last)
                         ? json_real(sw->points[last].rate)
                         : json_null());
}

/* Writes the points up to last as CSV or JSON, to -o OUT or stdout. */
static int write_sweep(const CliCommand *cmd, const CliParsed *p, const Sweep *sw, int last,
                       int as_json)
{
    const char *out = cli_value(cmd, p, "output");
    FlError err = { 0 };
    FlAtomicFile *f = NULL;
    FILE *fp = stdout;
    if (out && fl_atomic_open(out, &f, &fp, &err))
        return cli_engine_error(&err);
    int rc = CLI_OK;
    if (as_json)
        rc = write_json(sweep_json(sw, last), fp);
    else
        write_csv(fp, sw, last);
    if (f) {
        if (rc)
            fl_atomic_abort(f);
        else if (fl_atomic_commit(f, &err))
            rc = cli_engine_error(&err);
    }
    return rc;
}

/* Runs the points on jobs threads; returns the last point to print (the first
 * one past saturation, or the last rate), or -1 after reporting a failure. */
static int run_points(Sweep *sw, long jobs)
{
    if (jobs > sw->n)
        jobs = sw->n;
    pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
    if (!threads) {
        cli_error(CLI_FAIL, "out of memory for the sweep's threads");
        return -1;
    }
    long started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&threads[started], NULL, sweep_worker, sw) != 0)
            break;
    /* With no thread at all, this thread does the work. */
    if (started == 0)
        sweep_worker(sw);
    for (long k = 0; k < started; k++)
        pthread_join(threads[k], NULL);
    free(threads);

    int last = sw->stop < sw->n ? sw->stop : sw->n - 1;
    for (int i = 0; i <= last; i++) {
        if (sw->points[i].state == POINT_FAILED) {
            cli_engine_error(&sw->points[i].err);
            return -1;
        }
    }
    return last;
}

static int run_sweep(const CliCommand *cmd, const CliParsed *p)
{
    static const char *const formats[] = { "csv", "json", NULL };
    const char *rates = cli_value(cmd, p, "rates");
    if (!rates)
        return cli_error(CLI_USAGE, "sweep: give the offered loads with --rates FROM:TO:STEP");
    const char *out = cli_value(cmd, p, "output");
    size_t out_len = out ? strlen(out) : 0;
    /* Without --format, an OUT ending in .json asks for JSON. */
    int dflt = out_len > 5 && strcmp(out + out_len - 5, ".json") == 0;
    int as_json = choice_option(cmd, p, "format", formats, dflt);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    long jobs = online > 0 ? online : 1;
    double max_latency = 0;
    const char *s = cli_value(cmd, p, "max-latency");
    if (as_json < 0 || int_option(cmd, p, "jobs", 1, 1024, &jobs)
        || (s && parse_double("max-latency", s, 1, 1e12, &max_latency)))
        return CLI_USAGE;

    Sweep sw = { .max_latency = max_latency };
    int rc = parse_rates(rates, &sw.points, &sw.n);
    if (rc)
        return rc;
    SimSetup setup;
    rc = setup_sim(cmd, p, &setup);
    /* The engine refuses impossible parameters at fl_sim_new(): try the
     * highest rate's configuration once, so that a mistake is one message
     * rather than one per thread. */
    FlSim *probe = NULL;
    FlError err = { 0 };
    if (!rc) {
        setup.cfg.traffic.rate = sw.points[sw.n - 1].rate;
        if (fl_sim_new(setup.t, &setup.cfg, &probe, &err))
            rc = cli_engine_error(&err);
        fl_sim_free(probe);
    }
    if (!rc) {
        sw.t = setup.t;
        sw.base = &setup.cfg;
        sw.stop = sw.n;
        pthread_mutex_init(&sw.lock, NULL);
        int last = run_points(&sw, jobs);
        pthread_mutex_destroy(&sw.lock);
        rc = last < 0 ? CLI_FAIL : write_sweep(cmd, p, &sw, last, as_json);
    }
    free(sw.points);
    setup_free(&setup);
    return rc;
}

/* ---- entry points --------------------------------------------------------- */

/* Both are single commands: parse, print help with the patterns, or run. */
static int run_single(const CliCommand *cmd, int (*run)(const CliCommand *, const CliParsed *),
                      int argc, char **argv)
{
    CliParsed p;
    int rc = cli_parse(cmd, argc, argv, &p);
    if (rc < 0) {
        printf("\nTraffic patterns:");
        for (int i = 0; i < fl_traffic_pattern_count(); i++)
            printf("%s %s", i ? "," : "", fl_traffic_pattern_name(i));
        printf("\n");
        return CLI_OK;
    }
    return rc ? rc : run(cmd, &p);
}

int cli_sim(int argc, char **argv)
{
    return run_single(&sim_cmd, run_sim, argc, argv);
}

int cli_sweep(int argc, char **argv)
{
    return run_single(&sweep_cmd, run_sweep, argc, argv);
}
