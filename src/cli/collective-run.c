/* collective-run.c — what the collective commands share besides node
 * arguments: the network with its routing (the network's own unless
 * --routing names another), paper 001's software costs, and the simulator a
 * schedule of messages runs on. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective.h"
#include "sim-options.h"

/* ---- the network and its routing --------------------------------------- */

/* The deterministic routings a network may have as its own, tried in this
 * order; each refuses a family it does not serve. */
static const char *const own_routings[] = { "dor", "myrinet-dor", "xmesh", "dmesh", NULL };
/* Serves any connected network. */
#define FALLBACK_ROUTING "updown"

static const char *own_routing(const FlTopology *t)
{
    for (int i = 0; own_routings[i]; i++) {
        FlRouting *r = NULL;
        FlError err = { 0 };
        if (fl_routing_new(t, own_routings[i], NULL, &r, &err) == FL_OK) {
            fl_routing_free(r);
            return own_routings[i];
        }
    }
    return FALLBACK_ROUTING;
}

void coll_net_close(CollNet *net)
{
    fl_routing_free(net->r);
    fl_topology_free(net->t);
    net->r = NULL;
    net->t = NULL;
}

int coll_net_open(const CliCommand *cmd, const CliParsed *p, const char *what, CollNet *net)
{
    memset(net, 0, sizeof *net);
    FlError err = { 0 };
    if (cli_load_topology(what, &net->t, &err))
        return cli_engine_error(&err);
    return coll_net_route(cmd, p, net);
}

int coll_net_route(const CliCommand *cmd, const CliParsed *p, CollNet *net)
{
    const char *name = cli_value(cmd, p, "routing");
    if (name && !fl_routing_lookup(name))
        return cli_error(CLI_USAGE, _("unknown routing '%s' (see 'flitlab route --help')"), name);
    if (!name)
        name = own_routing(net->t);
    FlRoutingOptions opt;
    int rc = cli_routing_options(cmd, p, name, "classes", &opt) ? CLI_USAGE : CLI_OK;
    if (!rc)
        rc = cli_routing_labels(net->t, &opt);
    if (!rc)
        rc = cli_routing_new(net->t, name, &opt, &net->r);
    fl_routing_options_clear(&opt);
    return rc;
}

/* ---- options of a run ----------------------------------------------------- */

/* The simulator's settings that shape a run of messages; the traffic, the
 * measurement window and --link-cycles-per-flit (here --c-d) are the
 * schedule's. */
static const char *const run_settings[] = {
    "vcs", "buf", "switching", "release", "pipeline", "link-latency", "watchdog", NULL,
};

void coll_add_sim_options(CliOptions *opts)
{
    FlSimSettings dflt;
    fl_sim_settings_init(&dflt);
    for (int i = 0; run_settings[i]; i++) {
        const FlOptionInfo *o = fl_sim_settings_lookup(run_settings[i]);
        char text[128], help[CLI_HELP_MAX];
        fl_sim_settings_format(&dflt, o->name, text, sizeof text);
        FlOptionInfo shown = *o;
        snprintf(help, sizeof help, _("with --simulate: %s"), fl_gettext(o->help));
        shown.help = help;
        cli_add_engine_option(opts, &shown, NULL, 0, text);
    }
    fl_sim_settings_clear(&dflt);
}

/* Paper 001's software costs: the engine's multicast settings, whose
 * defaults are its section 4.2 (s_s = 2000, s_d = 2, c_d = 2, r_s = 3500,
 * r_d = 3 cycles, whole messages). */
static const struct {
    const char *name;
    const char *help;
} cost_options[] = {
    { "s-s", N_("send start-up s_s, cycles") },
    { "s-d", N_("send time per flit s_d, cycles") },
    { "r-s", N_("receive start-up r_s, cycles") },
    { "r-d", N_("receive time per flit r_d, cycles") },
    { "c-d", N_("channel time per flit c_d, cycles (the simulator's link cycles per flit)") },
    { "max-packet", N_("split messages into packets of at most P flits (0: whole)") },
};
#define N_COSTS (sizeof cost_options / sizeof cost_options[0])

void coll_add_cost_options(CliOptions *opts)
{
    for (size_t i = 0; i < N_COSTS; i++)
        cli_add_option(opts, cost_options[i].name, 0, i + 1 == N_COSTS ? "P" : "N",
                       _("with --simulate: %s (default %s)"), _(cost_options[i].help),
                       fl_sim_settings_lookup(cost_options[i].name)->dflt);
}

int coll_costs(const CliCommand *cmd, const CliParsed *p, FlMessageCosts *c, int64_t *c_d)
{
    /* Read as the engine's settings, whose table knows each cost's range and
     * why it ends there. */
    FlSimSettings s;
    fl_sim_settings_init(&s);
    int rc = CLI_OK;
    for (size_t i = 0; !rc && i < N_COSTS; i++) {
        const char *name = cost_options[i].name, *text = cli_value(cmd, p, name);
        FlError err = { 0 };
        if (text && fl_sim_settings_set(&s, name, text, &err))
            rc = cli_option_error(&err, name, name);
    }
    *c = s.multicast.costs;
    *c_d = s.multicast.channel_cycles;
    fl_sim_settings_clear(&s);
    return rc;
}

int coll_check_message(const FlMessageCosts *c, long flits, int64_t c_d)
{
    FlError err = { 0 };
    if (fl_message_costs_check(c, flits < INT_MAX ? (int)flits : INT_MAX, c_d, &err))
        return cli_error(CLI_USAGE, "%s", err.message);
    return CLI_OK;
}

int coll_refuse_without_simulate(const CliCommand *cmd, const CliParsed *p, int costs,
                                 const char *const *also)
{
    if (cli_flag(cmd, p, "simulate"))
        return CLI_OK;
    const char *given = cli_given(cmd, p, run_settings);
    for (size_t i = 0; !given && costs && i < N_COSTS; i++)
        if (cli_value(cmd, p, cost_options[i].name))
            given = cost_options[i].name;
    if (!given && also)
        given = cli_given(cmd, p, also);
    return given ? cli_error(CLI_USAGE, _("--%s goes with --simulate"), given) : CLI_OK;
}

int coll_run_settings(const CliCommand *cmd, const CliParsed *p, FlSimSettings *s)
{
    for (int i = 0; run_settings[i]; i++) {
        const char *text = cli_value(cmd, p, run_settings[i]);
        FlError err = { 0 };
        if (text && fl_sim_settings_set(s, run_settings[i], text, &err))
            return cli_option_error(&err, run_settings[i], run_settings[i]);
    }
    return CLI_OK;
}

int coll_sim_new(const CliCommand *cmd, const CliParsed *p, const CollNet *net, int64_t c_d,
                 FlSim **out)
{
    FlSimSettings s;
    fl_sim_settings_init(&s);
    *out = NULL;
    /* The commands' own options (--algorithm, ...) are not the multicast
     * model's settings: only the router's and the seed are read here. */
    const char *seed = cli_value(cmd, p, "seed");
    FlError err = { 0 };
    int rc = coll_run_settings(cmd, p, &s);
    if (!rc && seed && fl_sim_settings_set(&s, "seed", seed, &err))
        rc = cli_option_error(&err, "seed", "seed");
    FlSimConfig cfg = s.config;
    cfg.routing = net->r;
    cfg.traffic.rate = 0;
    cfg.link_cycles_per_flit = (int)c_d;
    if (!rc && fl_sim_new(net->t, &cfg, out, &err))
        rc = cli_engine_error(&err);
    fl_sim_settings_clear(&s);
    return rc;
}

/* ---- reporting ------------------------------------------------------------ */

void coll_times_json(json_t *o, const FlMessageTimes *t)
{
    json_object_set_new(o, "start", json_integer(t->start));
    json_object_set_new(o, "injected", json_integer(t->injected));
    json_object_set_new(o, "arrived", json_integer(t->arrived));
    json_object_set_new(o, "received", json_integer(t->received));
}

json_t *coll_costs_json(const FlMessageCosts *c, int64_t c_d)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:i}", "s_s", (json_int_t)c->send_startup,
                     "s_d", (json_int_t)c->send_per_flit, "r_s", (json_int_t)c->recv_startup,
                     "r_d", (json_int_t)c->recv_per_flit, "c_d", (json_int_t)c_d,
                     "max_packet", c->max_packet);
}
