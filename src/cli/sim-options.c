/* sim-options.c — what `flitlab sim` and `flitlab sweep` share: parsing the
 * router, traffic and run options, and building the network, its routing and
 * the simulator's configuration from them. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-io.h"
#include "sim-options.h"

/* ---- parsing option values --------------------------------------------- */

int sim_parse_double(const char *option, const char *text, double min, double max,
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

int sim_int_option(const CliCommand *cmd, const CliParsed *p, const char *name, long min,
                   long max, long *out)
{
    const char *s = cli_value(cmd, p, name);
    return s && cli_int_value(name, s, min, max, out) ? CLI_USAGE : CLI_OK;
}

int sim_int64_option(const CliCommand *cmd, const CliParsed *p, const char *name,
                     int64_t *out)
{
    long v = (long)*out;
    if (sim_int_option(cmd, p, name, 0, LONG_MAX, &v))
        return CLI_USAGE;
    *out = v;
    return CLI_OK;
}

int sim_choice_option(const CliCommand *cmd, const CliParsed *p, const char *name,
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

int sim_split_numbers(const char *text, double *v, int max)
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
    int n = sim_split_numbers(text, v, 3);
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


/* ---- building the simulation ------------------------------------------- */

void sim_setup_free(SimSetup *s)
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
        if (sim_split_numbers(v, on_off, 2) != 2 || on_off[0] < 1 || on_off[1] < 1)
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

/* --pipeline NAME (a preset) or R:VA:SA:X[:CREDIT], the delays in cycles of
 * routing, VC allocation, switch allocation, crossbar and credit return (see
 * sim-internal.h for where each applies). The engine checks their range. */
static int parse_pipeline(const char *text, FlSimConfig *cfg)
{
    if (*text < '0' || *text > '9') {
        FlError err = { 0 };
        if (fl_sim_config_pipeline(cfg, text, &err))
            return cli_error(CLI_USAGE, "--pipeline: %s, or delays R:VA:SA:X[:CREDIT]",
                             err.message[0] ? err.message : fl_strerror(err.code));
        return CLI_OK;
    }
    double v[5];
    int n = sim_split_numbers(text, v, 5);
    int whole = n >= 4;
    for (int i = 0; whole && i < n; i++)
        whole = v[i] == floor(v[i]) && v[i] >= 0 && v[i] <= 1000;
    if (!whole)
        return cli_error(CLI_USAGE, "--pipeline needs a preset (default, booksim-min) or the "
                                    "delays R:VA:SA:X[:CREDIT], whole cycles from 0 to 1000 "
                                    "(booksim-min is 0:0:1:1:0), not '%s'", text);
    cfg->routing_delay = (int)v[0];
    cfg->vc_alloc_delay = (int)v[1];
    cfg->sw_alloc_delay = (int)v[2];
    cfg->xbar_delay = (int)v[3];
    cfg->credit_delay = n == 5 ? (int)v[4] : 0;
    return CLI_OK;
}

/* The router and run options into s->cfg; pipeline presets first, so that
 * an explicit --link-latency overrides the preset's. */
static int parse_router(const CliCommand *cmd, const CliParsed *p, FlSimConfig *cfg)
{
    static const char *const selections[] = { "lowest", "random", "credits", NULL };
    static const char *const switchings[] = { "wormhole", "vct", NULL };
    static const char *const releases[] = { "tail-sent", "tail-credit", NULL };
    int sel = sim_choice_option(cmd, p, "selection", selections, FL_SELECT_CREDITS);
    int sw = sim_choice_option(cmd, p, "switching", switchings, (int)cfg->switching);
    int rel = sim_choice_option(cmd, p, "release", releases, (int)cfg->vc_release);
    if (sel < 0 || sw < 0 || rel < 0)
        return CLI_USAGE;
    cfg->selection = (FlSelection)sel;
    cfg->switching = (FlSwitching)sw;
    cfg->vc_release = (FlVcRelease)rel;

    const char *pipeline = cli_value(cmd, p, "pipeline");
    if (pipeline && parse_pipeline(pipeline, cfg))
        return CLI_USAGE;
    /* Zero VCs and similar are accepted here so that the engine, which
     * knows the routing's needs, names the problem. */
    long vcs = cfg->vcs, buf = cfg->buf_flits, lat = cfg->link_latency,
         cpf = cfg->link_cycles_per_flit;
    if (sim_int_option(cmd, p, "vcs", 0, 64, &vcs)
        || sim_int_option(cmd, p, "buf", 0, 1 << 20, &buf)
        || sim_int_option(cmd, p, "link-latency", 1, 1 << 20, &lat)
        || sim_int_option(cmd, p, "link-cycles-per-flit", 1, 1 << 20, &cpf))
        return CLI_USAGE;
    cfg->vcs = (int)vcs;
    cfg->buf_flits = (int)buf;
    cfg->link_latency = (int)lat;
    cfg->link_cycles_per_flit = (int)cpf;

    int64_t seed = (int64_t)cfg->seed;
    if (sim_int64_option(cmd, p, "warmup", &cfg->warmup_cycles)
        || sim_int64_option(cmd, p, "measure", &cfg->measure_cycles)
        || sim_int64_option(cmd, p, "drain", &cfg->drain_cycles)
        || sim_int64_option(cmd, p, "watchdog", &cfg->deadlock_cycles)
        || sim_int64_option(cmd, p, "seed", &seed))
        return CLI_USAGE;
    cfg->seed = (uint64_t)seed;
    return CLI_OK;
}

int sim_build_network(const CliCommand *cmd, const CliParsed *p, SimSetup *s)
{
    const char *name = cli_value(cmd, p, "routing");
    if (!name)
        return cli_error(CLI_USAGE, "%s: say which routing with --routing NAME (see "
                                    "'flitlab route --help' for the list)", cmd->name);
    FlRoutingOptions opt;
    if (cli_routing_options(cmd, p, "classes", &opt))
        return CLI_USAGE;

    FlError err = { 0 };
    if (cli_load_topology(p->args[0], &s->t, &err))
        return cli_engine_error(&err);
    if (opt.root >= fl_topology_node_count(s->t)
        || (opt.root >= 0 && fl_topology_node_kind(s->t, opt.root) != FL_NODE_SWITCH))
        return cli_error(CLI_USAGE, "--root %d: not a switch of this network", opt.root);
    int rc = cli_routing_new(s->t, name, &opt, &s->r);
    s->cfg.routing = s->r;
    return rc;
}

int sim_setup(const CliCommand *cmd, const CliParsed *p, SimSetup *s)
{
    memset(s, 0, sizeof *s);
    fl_sim_config_init(&s->cfg);
    int rc = parse_router(cmd, p, &s->cfg);
    if (!rc)
        rc = parse_traffic(cmd, p, s);
    if (!rc)
        rc = sim_build_network(cmd, p, s);
    return rc;
}

/* ---- reporting ------------------------------------------------------------ */

/* A JSON number, or null for the NaN of an empty measurement. */
static json_t *number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* The keys, in its order, plus the percentiles and counts. */
void sim_add_result(json_t *o, const FlSimResult *res)
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


void sim_print_patterns(FILE *to)
{
    fprintf(to, "\nTraffic patterns:");
    for (int i = 0; i < fl_traffic_pattern_count(); i++)
        fprintf(to, "%s %s", i ? "," : "", fl_traffic_pattern_name(i));
    fprintf(to, "\n");
}
