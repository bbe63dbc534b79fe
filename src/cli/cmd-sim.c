/* cmd-sim.c — `flitlab sim`: run the flit-level simulator (or paper 003's
 * deflection model) on a network once and report what happened. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective.h"
#include "flitlab-io.h"
#include "sim-options.h"

/* The command's own options; the routing and simulation settings come from
 * the engine's tables (sim_generate_sim_options). */
static const CliOption sim_options[] = {
    { "json", 0, NULL, N_("print one JSON object instead of a table") },
    { "series", 0, "FILE.csv", N_("deflection: write the per-cycle time series") },
    { "channels", 0, "FILE.csv", N_("write each channel's utilization and VC occupancy") },
    { "preset", 0, "NAME", N_("start from a preset's network, routing and settings ('list' "
                           "shows them)") },
#ifdef FL_HAVE_CAIRO
    { "picture", 0, "FILE", N_("draw the network at cycle --at, its flits and the cycle counter, "
                            "to FILE (.png, .svg or .pdf) instead of a run") },
    { "at", 0, "CYCLE", N_("with --picture: the cycle to draw (a deadlock stops earlier)") },
    { "animate", 0, "FILE.gif|DIR/", N_("draw the cycles --cycles FROM:TO[:STEP] as an animated "
                                     "GIF, or as DIR/frame-00001.png...") },
    { "frame-delay", 0, "CS", N_("with --animate: each frame's time, in 1/100 s (default 10)") },
    { "fps", 0, "N", N_("with --animate: frames per second, instead of --frame-delay") },
    { "size", 0, "WxH", N_("with --picture or --animate: the picture's size (default 1280x800)") },
    { "dpi", 0, "DPI", N_("with --picture: PNG resolution (default 96)") },
    { "title", 0, "TEXT", N_("with --picture: a title drawn at the top") },
#endif
    { 0 },
};

static const CliCommand sim_cmd = {
    "sim", "SPEC|FILE|PROJECT.flitlab#NAME --routing R [--traffic T] [--rate X] [--json]\n"
    "       flitlab sim [SPEC...] --preset NAME [options that override it]",
    N_("Simulate a network flit by flit: input-queued switches with virtual channels,\n"
    "credit flow control and round-robin allocation, wormhole or virtual cut-through\n"
    "switching. Reports packet latency (from creation and from injection), accepted\n"
    "throughput, hops, and the status: ok, saturated (source queues grow without\n"
    "bound) or deadlock (with the cycle of channels that wait on each other).\n"
    "With --mode deflection, runs paper 003's bufferless hot-potato model instead:\n"
    "--nmsg messages per node in a closed system for --cycles cycles.\n"
    "With --mode multicast, builds one multicast tree (--algorithm) from a source\n"
    "to --random K destinations placed by --seed, times it on paper 001's model\n"
    "and runs its messages of --message-size flits flit by flit, as 'flitlab\n"
    "multicast --random K --seed S --simulate' does."),
    sim_options, 0, 1, sim_generate_sim_options,
#ifdef FL_HAVE_CAIRO
    N_("With --picture FILE --at CYCLE, or --animate FILE.gif|DIR/ --cycles\n"
       "FROM:TO[:STEP], steps the flit-level model to those cycles and draws them as\n"
       "the application does, with the cycle counter in the picture (and a deadlock's\n"
       "cycle of waiting channels), instead of a whole run; an animation stops at a\n"
       "deadlock. Nothing is written if anything fails."),
#endif
};

/* ---- reporting a run ---------------------------------------------------- */

/* What kind of channel c is: between switches, or a host's. */
static const char *channel_kind(const FlTopology *t, int c)
{
    if (fl_topology_node_kind(t, fl_topology_channel_src(t, c)) != FL_NODE_SWITCH)
        return "injection";
    return fl_topology_node_kind(t, fl_topology_channel_dst(t, c)) == FL_NODE_SWITCH
               ? "link"
               : "ejection";
}

/* --channels: one row per channel (2 * link + end, leaving the link's end
 * `end`), with the ports it joins, its busy fraction over the window and the
 * mean flits held in each of its VCs' buffers (vcs columns). */
static int write_channels(const char *path, const SimSetup *s, const FlSimResult *res)
{
    const FlTopology *t = s->t;
    int vcs = s->cfg.vcs;
    FlError err = { 0 };
    FlOutput *f;
    FILE *fp;
    if (fl_output_open(path, &f, &fp, &err))
        return cli_engine_error(&err);
    fprintf(fp, "channel,kind,from,from_port,to,to_port,utilization");
    for (int v = 0; v < vcs; v++)
        fprintf(fp, ",vc%d_occupancy", v);
    fprintf(fp, "\n");
    for (int c = 0; c < fl_topology_channel_count(t); c++) {
        int end[4];
        fl_topology_link_ends(t, c / 2, &end[0], &end[1], &end[2], &end[3]);
        /* Channel 2l leaves the link's first end, 2l + 1 its second. */
        const int *from = &end[c % 2 ? 2 : 0], *to = &end[c % 2 ? 0 : 2];
        fprintf(fp, "%d,%s,%d,%d,%d,%d,%.6f", c, channel_kind(t, c),
                fl_topology_node_label(t, from[0]), from[1], fl_topology_node_label(t, to[0]),
                to[1], res->channel_utilization ? res->channel_utilization[c] : 0.0);
        for (int v = 0; v < vcs; v++)
            fprintf(fp, ",%.6f", res->vc_occupancy ? res->vc_occupancy[(size_t)c * vcs + v] : 0.0);
        fprintf(fp, "\n");
    }
    return fl_output_commit(f, &err) ? cli_engine_error(&err) : CLI_OK;
}

static int print_sim_json(const SimSetup *s, const FlSimResult *res)
{
    const FlTopology *t = s->t;
    json_t *o = json_object();
    sim_add_scalars(o, t, res);
    if (res->status == FL_SIM_DEADLOCK) {
        /* The channels, and the switches they join, so that a reader can
         * find the cycle without the channel numbering. */
        json_t *cycle = json_array(), *links = json_array();
        for (int i = 0; i < res->deadlock_len; i++) {
            int c = res->deadlock_channels[i];
            json_array_append_new(cycle, json_integer(c));
            json_array_append_new(links, json_pack("[i, i]", cli_channel_src_label(t, c),
                                                   cli_channel_dst_label(t, c)));
        }
        json_object_set_new(o, "cycle", cycle);
        json_object_set_new(o, "cycle_nodes", links);
    }
    return cli_write_json(o, stdout);
}

static void print_sim_table(const SimSetup *s, const FlSimResult *res)
{
    printf("%s %s\n", cli_label(_("status"), 20), fl_sim_status_name(res->status));
    printf(_("%s %.2f cycles (p50 %.1f, p95 %.1f, p99 %.1f)\n"), cli_label(_("latency"), 20),
           res->latency_avg, res->latency_p50, res->latency_p95, res->latency_p99);
    printf(_("%s %.2f cycles (p50 %.1f, p99 %.1f)\n"), cli_label(_("network latency"), 20),
           res->network_latency_avg, res->network_latency_p50, res->network_latency_p99);
    printf(_("%s %.4f flits/cycle/host (worst host %.4f)\n"), cli_label(_("accepted"), 20),
           res->throughput, res->throughput_min);
    printf(_("%s %.4f flits/cycle/host\n"), cli_label(_("offered"), 20), res->offered);
    printf("%s %.3f\n", cli_label(_("hops"), 20), res->hops_avg);
    printf(_("%s %.3f busiest, %.3f mean\n"), cli_label(_("channel utilization"), 20),
           fl_sim_result_value(res, s->t, fl_sim_result_key_find("channel_utilization_max")),
           fl_sim_result_value(res, s->t, fl_sim_result_key_find("channel_utilization_avg")));
    printf(_("%s %lld measured\n"), cli_label(_("packets"), 20), (long long)res->packets);
    printf(_("%s %lld simulated, %lld flit-hops\n"), cli_label(_("cycles"), 20),
           (long long)res->cycles, (long long)res->flit_hops);
    printf(_("%s %.3f s (%.2f M flit-hops/s)\n"), cli_label(_("wall time"), 20), res->wall_s,
           res->wall_s > 0 ? (double)res->flit_hops / res->wall_s / 1e6 : 0.0);
    if (res->status != FL_SIM_DEADLOCK)
        return;
    printf("%s", cli_label(_("deadlock cycle"), 20));
    for (int i = 0; i < res->deadlock_len; i++) {
        int c = res->deadlock_channels[i];
        printf(" %d->%d", cli_channel_src_label(s->t, c), cli_channel_dst_label(s->t, c));
    }
    printf(_(" (channels between nodes, each waiting on the next)\n"));
}

/* ---- sim: deflection mode ---------------------------------------------- */

static int write_series(const char *path, const FlDeflectResult *res)
{
    FlError err = { 0 };
    FlOutput *f;
    FILE *fp;
    if (fl_output_open(path, &f, &fp, &err))
        return cli_engine_error(&err);
    fprintf(fp, "cycle,max_delay,avg_delay,throughput\n");
    for (int64_t c = 0; c < res->cycles; c++)
        fprintf(fp, "%lld,%.10g,%.10g,%.10g\n", (long long)c + 1, res->max_delay[c],
                res->avg_delay[c], res->throughput[c]);
    return fl_output_commit(f, &err) ? cli_engine_error(&err) : CLI_OK;
}

/* The deflection model's figure name of res. */
static double deflect_value(const FlDeflectResult *res, const char *name)
{
    int key = fl_sim_result_key_find_for(name, FL_OPTION_FOR_DEFLECTION);
    return fl_deflect_result_value(res, key);
}

static int run_deflection(const CliCommand *cmd, const CliParsed *p, const FlSimPreset *preset)
{
    SimSetup s;
    memset(&s, 0, sizeof s);
    fl_sim_settings_init(&s.settings);
    int rc = sim_settings_from(cmd, p, preset, &s.settings);
    if (rc) {
        sim_setup_free(&s);
        return rc;
    }
    FlDeflectConfig cfg = s.settings.deflect;
    rc = sim_build_network(cmd, p, preset, &s);
    FlDeflectResult res;
    memset(&res, 0, sizeof res);
    FlError err = { 0 };
    cfg.routing = s.r;
    if (!rc && fl_deflect_run(s.t, &cfg, &res, NULL, NULL, &err))
        rc = cli_engine_error(&err);
    const char *series = cli_value(cmd, p, "series");
    if (!rc && series)
        rc = write_series(series, &res);
    if (!rc && cli_flag(cmd, p, "json")) {
        json_t *o = json_pack("{s:s}", "mode", "deflection");
        for (int i = 0; i < fl_sim_result_key_count(); i++) {
            const FlSimResultKey *k = fl_sim_result_key(i);
            double v = fl_deflect_result_value(&res, i);
            if (k->models & FL_OPTION_FOR_DEFLECTION)
                json_object_set_new(o, k->name,
                                    k->integer ? json_integer((json_int_t)v) : json_real(v));
        }
        rc = cli_write_json(o, stdout);
    } else if (!rc) {
        printf("%s %lld\n", cli_label(_("cycles"), 20), (long long)res.cycles);
        printf(_("%s %lld (%lld deflections)\n"), cli_label(_("delivered"), 20),
               (long long)res.delivered, (long long)res.deflections);
        printf(_("%s %.2f max, %.3f mean (cycles, delivered so far)\n"), cli_label(_("delay"), 20),
               deflect_value(&res, "max_delay"), deflect_value(&res, "avg_delay"));
        printf(_("%s %.4f messages/cycle/node (second half of the run)\n"),
               cli_label(_("throughput"), 20), deflect_value(&res, "throughput"));
        printf("%s %.3f s\n", cli_label(_("wall time"), 20), res.wall_s);
    }
    fl_deflect_result_clear(&res);
    sim_setup_free(&s);
    return rc;
}

/* The multicast model: one tree from settings, its figures by the
 * result-key table. */
static int run_multicast(const CliCommand *cmd, const CliParsed *p, const FlSimPreset *preset)
{
    SimSetup s;
    memset(&s, 0, sizeof s);
    fl_sim_settings_init(&s.settings);
    int rc = sim_settings_from(cmd, p, preset, &s.settings);
    const FlMulticastConfig *mc = &s.settings.multicast;
    if (!rc && !mc->model_only)
        rc = coll_check_message(&mc->costs, mc->flits, mc->channel_cycles);
    if (!rc)
        rc = sim_build_network(cmd, p, preset, &s);
    FlMulticastResult res;
    memset(&res, 0, sizeof res);
    FlError err = { 0 };
    if (!rc && fl_multicast_run(s.t, s.r, &s.settings, &res, NULL, NULL, &err))
        rc = cli_engine_error(&err);
    int json = cli_flag(cmd, p, "json");
    json_t *o = json_pack("{s:s, s:s, s:i}", "mode", "multicast", "algorithm",
                          fl_multicast_algorithm_name(s.settings.multicast.algorithm), "source",
                          res.source);
    json_t *dests = json_array();
    for (int i = 0; i < res.n_dests; i++)
        json_array_append_new(dests, json_integer(res.dests[i]));
    json_object_set_new(o, "dests", dests);
    for (int i = 0; !rc && i < fl_sim_result_key_count(); i++) {
        const FlSimResultKey *k = fl_sim_result_key(i);
        double v = fl_multicast_result_value(&res, i);
        if (!(k->models & FL_OPTION_FOR_MULTICAST) || isnan(v))
            continue;
        if (json)
            json_object_set_new(o, k->name,
                                k->integer ? json_integer((json_int_t)v) : json_real(v));
        else
            printf("%-20s %.10g %s\n", k->name, v, fl_gettext(k->unit));
    }
    if (!rc && json)
        rc = cli_write_json(json_incref(o), stdout);
    json_decref(o);
    fl_multicast_result_clear(&res);
    sim_setup_free(&s);
    return rc;
}

/* ---- sim ----------------------------------------------------------------- */

/* --preset: the preset named, or NULL without one; *rc is CLI_USAGE for an
 * unknown name, and -1 when the list was asked for and printed. */
static const FlSimPreset *preset_option(const CliCommand *cmd, const CliParsed *p, int *rc)
{
    const char *name = cli_value(cmd, p, "preset");
    *rc = CLI_OK;
    if (!name)
        return NULL;
    if (strcmp(name, "list") == 0) {
        sim_print_presets(stdout, 1);
        *rc = -1;
        return NULL;
    }
    const FlSimPreset *preset = fl_sim_preset_lookup(name);
    if (!preset) {
        char known[512] = "";
        for (int i = 0; i < fl_sim_preset_count(); i++) {
            strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
            strncat(known, fl_sim_preset(i)->name, sizeof known - strlen(known) - 1);
        }
        *rc = cli_error(CLI_USAGE, _("--preset: unknown preset '%s' (known: %s; 'list' "
                                   "describes them)"), name, known);
    }
    return preset;
}

static int run_flit(const CliCommand *cmd, const CliParsed *p, const CliParsed *settings,
                    const FlSimPreset *preset, int frames);

static int run_sim(const CliCommand *cmd, const CliParsed *p)
{
    int rc;
    const FlSimPreset *preset = preset_option(cmd, p, &rc);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (!preset && p->nargs < 1)
        return cli_error(CLI_USAGE, _("sim: name a network (SPEC|FILE|PROJECT.flitlab#NAME) "
                                    "or a --preset"));

    /* The model, the preset's or --mode, decides which options apply. */
    FlSimSettings model;
    fl_sim_settings_init(&model);
    FlRoutingOptions ro;
    fl_routing_options_init(&ro);
    FlError err = { 0 };
    rc = preset ? fl_sim_preset_apply(preset, &model, &ro, &err) : FL_OK;
    fl_routing_options_clear(&ro);
    if (rc) {
        fl_sim_settings_clear(&model);
        return cli_engine_error(&err);
    }
    const char *mode = cli_value(cmd, p, "mode");
    rc = mode ? fl_sim_settings_set(&model, "mode", mode, &err) : FL_OK;
    FlSimModel chosen = model.model;
    fl_sim_settings_clear(&model);
    if (rc)
        return cli_option_error(&err, "mode", "mode");
    int frames = sim_frames_wanted(cmd, p);
    if (frames && chosen != FL_SIM_MODEL_FLIT)
        return cli_error(CLI_USAGE, _("--picture and --animate draw the flit-level model, not "
                                    "--mode %s"), chosen == FL_SIM_MODEL_DEFLECTION ? "deflection"
                                                                                  : "multicast");
    /* With --animate, --cycles is the range of frames, not the deflection
     * model's setting. */
    const CliParsed *settings = p;
    CliParsed *copy = NULL;
    if (frames && cli_value(cmd, p, "animate")) {
        if (!(copy = malloc(sizeof *copy)))
            return cli_error(CLI_FAIL, _("out of memory"));
        *copy = *p;
        for (int i = 0; i < copy->opts.n; i++)
            if (strcmp(copy->opts.list[i].name, "cycles") == 0)
                copy->values[i] = NULL;
        settings = copy;
    }
    rc = sim_refuse_other_model(cmd, settings, chosen) ? CLI_USAGE : CLI_OK;
    if (!rc && frames && cli_value(cmd, p, "channels"))
        rc = cli_error(CLI_USAGE, _("--channels reports a whole run: not with --picture or "
                                  "--animate"));
    if (!rc && frames)
        rc = sim_frames_check(cmd, p);
    if (!rc && chosen == FL_SIM_MODEL_DEFLECTION)
        rc = run_deflection(cmd, p, preset);
    else if (!rc && chosen == FL_SIM_MODEL_MULTICAST)
        rc = run_multicast(cmd, p, preset);
    else if (!rc)
        rc = run_flit(cmd, p, settings, preset, frames);
    free(copy);
    return rc;
}

/* The flit-level model: a whole run, or the frames asked for; settings is
 * p without the options the frames use otherwise. */
static int run_flit(const CliCommand *cmd, const CliParsed *p, const CliParsed *settings,
                    const FlSimPreset *preset, int frames)
{
    FlError err = { 0 };
    SimSetup s;
    int rc = sim_setup_preset(cmd, settings, preset, &s);
    FlSim *sim = NULL;
    FlSimResult res;
    memset(&res, 0, sizeof res);
    if (!rc && fl_sim_new(s.t, &s.cfg, &sim, &err))
        rc = cli_engine_error(&err);
    if (!rc && frames) {
        rc = sim_write_frames(cmd, p, &s, sim);
        fl_sim_free(sim);
        sim_setup_free(&s);
        return rc;
    }
    /* A whole run shows no packet: it needs no routes. */
    if (!rc && (fl_sim_keep_routes(sim, 0, &err) || fl_sim_run(sim, &res, NULL, NULL, &err)))
        rc = cli_engine_error(&err);
    const char *channels = cli_value(cmd, p, "channels");
    if (!rc && channels)
        rc = write_channels(channels, &s, &res);
    if (!rc) {
        if (cli_flag(cmd, p, "json"))
            rc = print_sim_json(&s, &res);
        else
            print_sim_table(&s, &res);
    }
    fl_sim_result_clear(&res);
    fl_sim_free(sim);
    sim_setup_free(&s);
    return rc;
}

/* ---- entry point ---------------------------------------------------------- */

static void sim_more_help(FILE *to)
{
    sim_print_patterns(to);
    sim_print_presets(to, 0);
}

int cli_sim(int argc, char **argv)
{
    return cli_run_single(&sim_cmd, run_sim, sim_more_help, argc, argv);
}
