/* sim-options.c — what `flitlab sim` and `flitlab sweep` share: their
 * options, generated from the engine's tables, and building the network, its
 * routing and the simulator's configuration from them. */
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
        return cli_error(CLI_USAGE, _("--%s needs a number from %g to %g, not '%s'"), option,
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
    cli_error(CLI_USAGE, _("--%s: unknown value '%s' (known: %s)"), name, s, known);
    return -1;
}

/* ---- the options from the engine's tables ------------------------------- */

/* Short forms of settings, kept from before the table. */
static char setting_letter(const char *name)
{
    return strcmp(name, "traffic") == 0 ? 't' : 0;
}

/* Whether the command has a flag for setting o. */
static int sweep_has(const FlOptionInfo *o)
{
    /* A sweep runs the flit-level model at the rates it is given. */
    return (o->models & FL_OPTION_FOR_FLIT) && strcmp(o->name, "mode") != 0
           && strcmp(o->name, "rate") != 0;
}

static void add_settings(CliOptions *opts, int sweep)
{
    cli_add_routing_options(opts, _("the routing algorithm (required; 'flitlab route --help')"),
                            "classes");
    FlSimSettings dflt;
    fl_sim_settings_init(&dflt);
    for (int i = 0; i < fl_sim_settings_key_count(); i++) {
        const FlOptionInfo *o = fl_sim_settings_key(i);
        if (sweep && !sweep_has(o))
            continue;
        char text[128];
        fl_sim_settings_format(&dflt, o->name, text, sizeof text);
        cli_add_engine_option(opts, o, NULL, setting_letter(o->name), text);
    }
    fl_sim_settings_clear(&dflt);
}

void sim_generate_sim_options(CliOptions *opts)
{
    add_settings(opts, 0);
}

void sim_generate_sweep_options(CliOptions *opts)
{
    add_settings(opts, 1);
}

int sim_apply_settings(const CliCommand *cmd, const CliParsed *p, FlSimSettings *s)
{
    for (int i = 0; i < fl_sim_settings_key_count(); i++) {
        const FlOptionInfo *o = fl_sim_settings_key(i);
        const char *text = cli_value(cmd, p, o->name);
        if (!text)
            continue;
        FlError err = { 0 };
        if (fl_sim_settings_set(s, o->name, o->type == FL_OPTION_FLAG ? "true" : text, &err))
            return cli_option_error(&err, o->name, o->name);
    }
    return CLI_OK;
}

int sim_settings_from(const CliCommand *cmd, const CliParsed *p, const FlSimPreset *preset,
                      FlSimSettings *s)
{
    if (preset) {
        FlRoutingOptions ro;
        fl_routing_options_init(&ro);
        FlError err = { 0 };
        int rc = fl_sim_preset_apply(preset, s, &ro, &err);
        fl_routing_options_clear(&ro);
        if (rc)
            return cli_engine_error(&err);
    }
    return sim_apply_settings(cmd, p, s);
}

int sim_refuse_other_model(const CliCommand *cmd, const CliParsed *p, FlSimModel model)
{
    static const char *const whys[] = {
        N_("--%s does not apply to the flit-level model (--mode flit)"),
        N_("--%s does not apply to --mode deflection"),
        N_("--%s does not apply to --mode multicast"),
    };
    unsigned reads = fl_sim_model_option(model);
    const char *why = whys[model];
    for (int i = 0; i < fl_sim_settings_key_count(); i++) {
        const FlOptionInfo *o = fl_sim_settings_key(i);
        if (!(o->models & reads) && cli_value(cmd, p, o->name))
            return cli_error(CLI_USAGE, _(why), o->name);
    }
    /* The deflection model uses the routing's shortest-path ports, not its
     * VC classes; the command's own outputs belong to one model each. */
    static const char *const flit_only[] = { "classes", "channels", NULL };
    static const char *const deflection_only[] = { "series", NULL };
    static const char *const neither[] = { "channels", "series", NULL };
    const char *const *others = model == FL_SIM_MODEL_DEFLECTION ? flit_only
                                : model == FL_SIM_MODEL_MULTICAST ? neither
                                                                  : deflection_only;
    for (int i = 0; others[i]; i++)
        if (cli_value(cmd, p, others[i]))
            return cli_error(CLI_USAGE, _(why), others[i]);
    return CLI_OK;
}

/* ---- building the simulation ------------------------------------------- */

void sim_setup_free(SimSetup *s)
{
    fl_routing_free(s->r);
    fl_topology_free(s->t);
    fl_sim_settings_clear(&s->settings);
    free(s->trace);
}

/* The traffic pattern is implied by --hotspot and --trace when --traffic
 * is absent; options of other patterns are refused. The trace file is read
 * here, before the network is built. */
static int setup_traffic(const CliCommand *cmd, const CliParsed *p, SimSetup *s)
{
    FlSimSettings *st = &s->settings;
    const char *trace = cli_value(cmd, p, "trace");
    const char *hotspot = cli_value(cmd, p, "hotspot");
    if (!cli_value(cmd, p, "traffic") && (trace || hotspot))
        fl_sim_settings_set(st, "traffic", trace ? "trace" : "hotspot", NULL);
    const char *pattern = st->config.traffic.pattern;
    if (trace && strcmp(pattern, "trace") != 0)
        return cli_error(CLI_USAGE, _("--trace replays a trace file: it does not go with "
                                    "--traffic %s"), pattern);
    if (hotspot && strcmp(pattern, "hotspot") != 0)
        return cli_error(CLI_USAGE, _("--hotspot applies to --traffic hotspot, not %s"), pattern);
    if (cli_flag(cmd, p, "self") && strcmp(pattern, "uniform") != 0)
        return cli_error(CLI_USAGE, _("--self applies to --traffic uniform, not %s"), pattern);
    if (strcmp(pattern, "trace") == 0 && !st->trace_file)
        return cli_error(CLI_USAGE, _("--traffic trace needs the file: --trace FILE"));
    if (st->trace_file && strcmp(st->trace_file, "-") == 0 && p->nargs > 0
        && strcmp(p->args[0], "-") == 0)
        return cli_error(CLI_USAGE, _("the network and --trace cannot both be read from "
                                    "standard input ('-'): give one of them as a file"));
    /* A trace gives each packet its cycle, source and length. */
    static const char *const not_with_trace[] = { "rate", "injection", "burst", "packet" };
    size_t n = strcmp(pattern, "trace") == 0 ? sizeof not_with_trace / sizeof *not_with_trace : 0;
    for (size_t i = 0; i < n; i++)
        if (cli_value(cmd, p, not_with_trace[i]))
            return cli_error(CLI_USAGE, _("--%s has no effect with --traffic trace: the trace "
                                        "gives each packet's cycle and length"),
                             not_with_trace[i]);
    if (st->trace_file) {
        FlError err = { 0 };
        if (fl_io_read_trace(st->trace_file, &s->trace, &st->config.traffic.n_trace, &err))
            return cli_engine_error(&err);
        st->config.traffic.trace = s->trace;
        st->config.traffic.trace_name = fl_io_trace_name(st->trace_file);
    }
    return CLI_OK;
}

/* The preset's routing options that the command line does not give, as
 * engine values (ids, not labels). */
static int preset_routing_options(const CliCommand *cmd, const CliParsed *p,
                                  const FlSimPreset *preset, FlRoutingOptions *opt)
{
    char words[512];
    snprintf(words, sizeof words, "%s", preset->routing_options ? preset->routing_options : "");
    char *save = NULL;
    for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        if (!eq)
            continue;
        *eq = '\0';
        FlError err = { 0 };
        if (!cli_value(cmd, p, w) && fl_routing_options_set(opt, w, eq + 1, &err))
            return cli_engine_error(&err);
    }
    return CLI_OK;
}

int sim_build_network(const CliCommand *cmd, const CliParsed *p, const FlSimPreset *preset,
                      SimSetup *s)
{
    const char *name = cli_value(cmd, p, "routing");
    if (!name && preset)
        name = preset->routing;
    if (!name)
        return cli_error(CLI_USAGE, _("%s: say which routing with --routing NAME (see "
                                    "'flitlab route --help' for the list)"), cmd->name);
    const char *network = p->nargs > 0 ? p->args[0] : preset ? preset->spec : NULL;
    if (!network)
        return cli_error(CLI_USAGE, _("%s: name a network (SPEC|FILE|PROJECT.flitlab#NAME) "
                                    "or a --preset"), cmd->name);
    FlRoutingOptions opt;
    if (cli_routing_options(cmd, p, name, "classes", &opt))
        return CLI_USAGE;

    FlError err = { 0 };
    int rc = CLI_OK;
    if (cli_load_topology(network, &s->t, &err))
        rc = cli_engine_error(&err);
    else if (!(rc = cli_routing_labels(s->t, &opt))
             && !(rc = preset && strcmp(name, preset->routing) == 0
                           ? preset_routing_options(cmd, p, preset, &opt)
                           : CLI_OK))
        rc = cli_routing_new(s->t, name, &opt, &s->r);
    fl_routing_options_clear(&opt);
    s->cfg.routing = s->r;
    return rc;
}

int sim_setup_preset(const CliCommand *cmd, const CliParsed *p, const FlSimPreset *preset,
                     SimSetup *s)
{
    memset(s, 0, sizeof *s);
    fl_sim_settings_init(&s->settings);
    int rc = sim_settings_from(cmd, p, preset, &s->settings);
    if (!rc)
        rc = setup_traffic(cmd, p, s);
    s->cfg = s->settings.config;
    if (!rc)
        rc = sim_build_network(cmd, p, preset, s);
    return rc;
}

int sim_setup(const CliCommand *cmd, const CliParsed *p, SimSetup *s)
{
    return sim_setup_preset(cmd, p, NULL, s);
}

/* ---- reporting ------------------------------------------------------------ */

/* A JSON number, or null for the NaN of an empty measurement. */
static json_t *number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* Adds the flit-level simulator's result keys with per_channel as given:
 * the engine's table, in its order. */
static void add_keys(json_t *o, const FlSimResult *res, const FlTopology *t, int per_channel)
{
    for (int i = 0; i < fl_sim_result_key_count(); i++) {
        const FlSimResultKey *k = fl_sim_result_key(i);
        if (!(k->models & FL_OPTION_FOR_FLIT) || k->per_channel != per_channel)
            continue;
        double v = fl_sim_result_value(res, t, i);
        json_object_set_new(o, k->name, k->integer ? json_integer((json_int_t)v) : number(v));
    }
}

void sim_add_result(json_t *o, const FlSimResult *res)
{
    json_object_set_new(o, "status", json_string(fl_sim_status_name(res->status)));
    add_keys(o, res, NULL, 0);
}

void sim_add_scalars(json_t *o, const FlTopology *t, const FlSimResult *res)
{
    sim_add_result(o, res);
    add_keys(o, res, t, 1);
}

void sim_print_patterns(FILE *to)
{
    fprintf(to, _("\nTraffic patterns:"));
    for (int i = 0; i < fl_traffic_pattern_count(); i++)
        fprintf(to, "%s %s", i ? "," : "", fl_traffic_pattern_name(i));
    fprintf(to, "\n");
}

void sim_print_presets(FILE *to, int details)
{
    fprintf(to, _("\nPresets (--preset NAME; flags given as well override its settings):\n"));
    for (int i = 0; i < fl_sim_preset_count(); i++) {
        const FlSimPreset *ps = fl_sim_preset(i);
        fprintf(to, "  %-18s %s\n", ps->name, fl_gettext(ps->title));
        if (!details)
            continue;
        fprintf(to, _("      %s --routing %s"), ps->spec, ps->routing);
        char words[512];
        snprintf(words, sizeof words, "%s %s", ps->routing_options, ps->settings);
        char *save = NULL;
        for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(w, '=');
            if (eq)
                *eq = ' ';
            fprintf(to, " --%s", w);
        }
        fprintf(to, "\n      %s\n", fl_gettext(ps->description));
    }
}
