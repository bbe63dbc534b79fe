/* cmd-route.c — `flitlab route` and `flitlab turns`: build a routing on a
 * network and report what the analysis finds (connectivity, deadlock, hop
 * counts, turn metrics, channel loads), the route between two switches, or
 * the prohibited turns at every switch; with --picture, draw it as well. */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "modules.h"

/* Without --max-paths, `route --all` lists at most this many paths. */
#define DEFAULT_MAX_PATHS 100

/* --routing and the options that shape the routing, from the routing
 * registry, shared by both commands. The VC classes are --vcs here. */
static void routing_flags(CliOptions *opts)
{
    cli_add_routing_options(opts, _("the routing algorithm (required; see the list below)"),
                            "vcs");
}

#ifdef FL_HAVE_CAIRO
/* The page of a --picture, as `topo export` draws it. */
#define PICTURE_OPTIONS                                                                      \
    { "width", 0, "W", N_("with --picture: its width in pixels or points (default 1200)") }, \
        { "height", 0, "H", N_("with --picture: its height in pixels or points (default 900)") }, \
        { "dpi", 0, "DPI", N_("with --picture: PNG resolution (default 96)") },                   \
        { "title", 0, "TEXT", N_("with --picture: a title drawn at the top") }
#endif

static const CliOption route_options[] = {
    { "json", 0, NULL, N_("print one JSON object instead of a table") },
    { "from", 0, "A", N_("show the route from switch A (the number shown in pictures) ...") },
    { "to", 0, "B", N_("... to switch B") },
    { "all", 0, NULL, N_("with --from/--to: every path the routing allows") },
    { "max-paths", 0, "N", N_("with --all: list at most N paths (default 100)") },
#ifdef FL_HAVE_CAIRO
    { "picture", 0, "FILE",
      N_("draw the network with the dependency cycle (and the route) to FILE (.png, .svg, "
         ".pdf)") },
    PICTURE_OPTIONS,
#endif
    { 0 },
};

static const CliCommand route_cmd = {
    "route", "SPEC|FILE|PROJECT.flitlab#NAME --routing NAME [--from A --to B [--all]] [--json]"
#ifdef FL_HAVE_CAIRO
    " [--picture FILE]"
#endif
    ,
    N_("Analyse a routing on a network: whether every switch pair is routable, whether\n"
    "the channel dependency graph has a cycle (and one shortest cycle, with the\n"
    "turns that close it), hop counts along the selected lowest-port routes against\n"
    "breadth-first distances, paper 002's turn metrics PT, SDPT and PPT, and the\n"
    "static channel load of uniform switch-to-switch traffic.\n"
    "With --from and --to, show the route the selection function takes instead;\n"
    "with --all as well, every path the routing allows (for minimal routings,\n"
    "every legal shortest path)."),
    route_options, 1, 1, routing_flags,
#ifdef FL_HAVE_CAIRO
    N_("With --picture, also draw the network with the routing's dependency cycle,\n"
       "numbered in order, and the route (and --all's paths) between --from and --to.\n"
       "Nothing is written if anything fails."),
#endif
};

static const CliOption turns_options[] = {
    { "json", 0, NULL, N_("print one JSON object instead of a table") },
#ifdef FL_HAVE_CAIRO
    { "picture", 0, "FILE",
      N_("draw the prohibited turns over the network to FILE (.png, .svg or .pdf)") },
    PICTURE_OPTIONS,
#endif
    { 0 },
};

static const CliCommand turns_cmd = {
    "turns", "SPEC|FILE|PROJECT.flitlab#NAME --routing NAME [--json]"
#ifdef FL_HAVE_CAIRO
    " [--picture FILE]"
#endif
    ,
    N_("List the turns a routing prohibits at every switch, as IN>OUT port pairs:\n"
    "for turn routings the turns they forbid, for the others the turns no route\n"
    "takes. Ends with paper 002's PT (mean prohibited turns per switch), SDPT\n"
    "(their population standard deviation) and PPT (pairs of opposite prohibited\n"
    "turns between the same two links)."),
    turns_options, 1, 1, routing_flags,
#ifdef FL_HAVE_CAIRO
    N_("With --picture, also draw each prohibited turn as an arrow around its switch,\n"
       "from the link it enters by to the link it leaves by; nothing is written if\n"
       "anything fails."),
#endif
};

/* ---- shared: building the routing -------------------------------------- */

typedef struct RouteSetup {
    const char *what;       /* the topology argument as given */
    FlTopology *t;
    FlRouting *r;
} RouteSetup;

static void setup_free(RouteSetup *rs)
{
    fl_routing_free(rs->r);
    fl_topology_free(rs->t);
}

static void print_routings(FILE *to)
{
    fprintf(to, _("\nRoutings:\n"));
    for (int i = 0; i < fl_routing_count(); i++) {
        const FlRoutingInfo *info = fl_routing_info(i);
        fprintf(to, "  %-15s %s (%s)\n", info->name, fl_gettext(info->summary),
                fl_gettext(info->applies_to));
    }
}

/* "dor, west-first, ...": the registry's names, for error messages. */
static void known_routings(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < fl_routing_count() && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                                 fl_routing_info(i)->name);
}

/* Refuses a --picture name the drawing cannot write before any work is
 * done, so a typo costs nothing. */
static int check_picture(const CliCommand *cmd, const CliParsed *p)
{
#ifdef FL_HAVE_CAIRO
    const char *path = cli_value(cmd, p, "picture");
    const char *page_option = path ? NULL : cli_given(cmd, p, cli_page_option_names);
    if (page_option)
        return cli_error(CLI_USAGE, _("--%s goes with --picture FILE"), page_option);
    if (!path)
        return CLI_OK;
    FlError err = { 0 };
    FlDrawPage page;
    const CliPicturesModule *draw = cli_pictures();
    if (!draw)
        return CLI_FAIL;
    if (draw->check_format(path, NULL, &err))
        return cli_error(CLI_USAGE, _("--picture: %s"), err.message);
    if (cli_page_options(cmd, p, draw, &page))
        return CLI_USAGE;
#else
    (void)cmd;
    (void)p;
#endif
    return CLI_OK;
}

static int setup_routing(const CliCommand *cmd, const CliParsed *p, RouteSetup *rs)
{
    memset(rs, 0, sizeof *rs);
    rs->what = p->args[0];
    const char *name = cli_value(cmd, p, "routing");
    char known[1024];
    known_routings(known, sizeof known);
    if (!name)
        return cli_error(CLI_USAGE, _("%s: say which routing with --routing NAME (known: %s)"),
                         cmd->name, known);
    /* An unknown name is refused before anything is built. */
    if (!fl_routing_lookup(name))
        return cli_error(CLI_USAGE, _("unknown routing '%s' (known: %s)"), name, known);
    int rc = check_picture(cmd, p);
    if (rc)
        return rc;
    FlRoutingOptions opt;
    if (cli_routing_options(cmd, p, name, "vcs", &opt))
        return CLI_USAGE;
    FlError err = { 0 };
    if (cli_load_topology(rs->what, &rs->t, &err)) {
        fl_routing_options_clear(&opt);
        setup_free(rs);
        return cli_engine_error(&err);
    }
    rc = cli_routing_labels(rs->t, &opt);
    if (!rc)
        rc = cli_routing_new(rs->t, name, &opt, &rs->r);
    fl_routing_options_clear(&opt);
    if (rc)
        setup_free(rs);
    return rc;
}

/* A turn as the --prohibit syntax writes it, so that a turn printed by one
 * command can be pasted into another. */
static void turn_text(char *buf, size_t size, int sw, int in_port, int out_port)
{
    snprintf(buf, size, "%d:%d>%d", sw, in_port, out_port);
}

/* ---- shared: --picture ------------------------------------------------- */

/* What a --picture shows over the network. */
typedef struct Picture {
    int turns;                        /* the prohibited turns */
    int cycle;                        /* the report's dependency cycle, if it has one */
    const FlRoutingReport *report;    /* the cycle, and the legend's PT, SDPT and PPT */
    int src, dst;                     /* the route's ends, -1: no route */
    const int *chosen;                /* the route the selection function takes */
    int nchosen;
    const int *paths, *offsets;       /* --all's paths */
    int npaths;
} Picture;

/* Draws rs's network with what pic shows to the --picture file, if one was
 * asked for. The file is written whole or not at all. */
static int write_picture(const CliCommand *cmd, const CliParsed *p, const RouteSetup *rs,
                         const Picture *pic)
{
    const char *path = cli_value(cmd, p, "picture");
    if (!path)
        return CLI_OK;
#ifdef FL_HAVE_CAIRO
    const CliPicturesModule *draw = cli_pictures();
    if (!draw)
        return CLI_FAIL;
    FlDrawRouting dr;
    draw->routing_init(&dr);
    dr.routing = rs->r;
    dr.report = pic->report;
    dr.overlays = (pic->turns ? FL_DRAW_OVERLAY_TURNS : 0u)
                  | (pic->cycle ? FL_DRAW_OVERLAY_CYCLE : 0u)
                  | (pic->src >= 0 ? FL_DRAW_OVERLAY_PATHS : 0u);
    dr.src = pic->src;
    dr.dst = pic->dst;
    dr.chosen = pic->chosen;
    dr.nchosen = pic->nchosen;
    dr.paths = pic->paths;
    dr.path_offsets = pic->offsets;
    dr.npaths = pic->npaths;
    FlError err = { 0 };
    FlDrawPage page;
    if (cli_page_options(cmd, p, draw, &page))
        return CLI_USAGE;
    if (draw->export_routing_page(rs->t, &dr, &page, path, NULL, &err))
        return cli_error(CLI_FAIL, _("--picture: %s"), err.message);
#else
    (void)rs;
    (void)pic;
#endif
    return CLI_OK;
}

/* ---- route: the analysis report ---------------------------------------- */

/* The ports channel c leaves its source by and arrives at its destination
 * on: channel 2l runs from link l's end a to end b, 2l + 1 back. */
static void channel_ports(const FlTopology *t, int c, int *from_port, int *to_port)
{
    int pa, pb;
    fl_topology_link_ends(t, c / 2, NULL, &pa, NULL, &pb);
    *from_port = (c & 1) ? pb : pa;
    *to_port = (c & 1) ? pa : pb;
}

/* The turn a packet makes from channel a onto channel b, at the switch
 * between them, named by its label for printing. */
static FlTurn turn_between(const FlTopology *t, int a, int b)
{
    int unused, in_port, out_port;
    channel_ports(t, a, &unused, &in_port);
    channel_ports(t, b, &out_port, &unused);
    return (FlTurn){ cli_channel_dst_label(t, a), in_port, out_port };
}

static json_t *cycle_detail_json(const FlTopology *t, const FlRoutingReport *rep)
{
    json_t *arr = json_array();
    for (int i = 0; i < rep->cycle_len; i++) {
        int c = rep->cycle_channels[i], from_port, to_port;
        channel_ports(t, c, &from_port, &to_port);
        json_array_append_new(arr, json_pack("{s:i, s:i, s:i, s:i, s:i, s:i}", "channel", c,
                                             "class", rep->cycle_classes[i],
                                             "from", cli_channel_src_label(t, c),
                                             "from_port", from_port,
                                             "to", cli_channel_dst_label(t, c),
                                             "to_port", to_port));
    }
    return arr;
}

static json_t *cycle_turns_json(const FlTopology *t, const FlRoutingReport *rep)
{
    json_t *arr = json_array();
    for (int i = 0; i < rep->cycle_len; i++) {
        FlTurn tu = turn_between(t, rep->cycle_channels[i],
                                 rep->cycle_channels[(i + 1) % rep->cycle_len]);
        json_array_append_new(arr, json_pack("{s:i, s:i, s:i}", "switch", tu.sw, "in_port",
                                             tu.in_port, "out_port", tu.out_port));
    }
    return arr;
}

static json_t *report_json(const RouteSetup *rs, const FlRoutingReport *rep, int n_turns)
{
    const FlTopology *t = rs->t;
    json_t *cycle = json_array();
    for (int i = 0; i < rep->cycle_len; i++)
        json_array_append_new(cycle, json_integer(rep->cycle_channels[i]));
    int root = fl_routing_root(rs->r);
    root = root >= 0 ? fl_topology_node_label(t, root) : -1;
    json_t *unroutable = rep->connected ? json_null()
                                        : json_pack("[i, i]",
                                                    fl_topology_node_label(t, rep->unroutable_src),
                                                    fl_topology_node_label(t, rep->unroutable_dst));
    return json_pack("{s:s, s:s, s:i, s:i, s:o, s:b, s:o, s:b, s:o, s:o, s:o,"
                     " s:f, s:i, s:f, s:f, s:f, s:f, s:i, s:i, s:f, s:f, s:f}",
                     "routing", fl_routing_get_info(rs->r)->name,
                     "topology", rs->what,
                     "switches", fl_topology_switch_count(t),
                     "vc_classes", fl_routing_vc_classes(rs->r),
                     "root", root >= 0 ? json_integer(root) : json_null(),
                     "connected", rep->connected,
                     "unroutable", unroutable,
                     "deadlock_free", rep->deadlock_free,
                     "cycle", cycle,
                     "cycle_detail", cycle_detail_json(t, rep),
                     "cycle_turns", cycle_turns_json(t, rep),
                     "avg_hops", rep->avg_hops,
                     "max_hops", rep->max_hops,
                     "bfs_avg_hops", rep->bfs_avg_hops,
                     "stretch", rep->stretch,
                     "pt_mean", rep->pt_mean,
                     "pt_sd", rep->pt_sd,
                     "ppt", rep->ppt,
                     "prohibited_turns", n_turns,
                     "max_channel_load", rep->max_channel_load,
                     "mean_channel_load", rep->mean_channel_load,
                     "throughput_bound", rep->throughput_bound);
}

static void print_cycle(const RouteSetup *rs, const FlRoutingReport *rep)
{
    const FlTopology *t = rs->t;
    int classes = fl_routing_vc_classes(rs->r) > 1;
    printf("%s", cli_label(_("dependency cycle"), 18));
    for (int i = 0; i < rep->cycle_len; i++) {
        int c = rep->cycle_channels[i];
        printf(" %d>%d", cli_channel_src_label(t, c), cli_channel_dst_label(t, c));
        if (classes)
            printf("/%d", rep->cycle_classes[i]);
    }
    printf("\n%s %s\n", cli_label("", 18),
           classes ? _("(channels as switch>switch/class)") : _("(channels as switch>switch)"));
    printf(_("The cycle closes through the turns"));
    for (int i = 0; i < rep->cycle_len; i++) {
        FlTurn tu = turn_between(t, rep->cycle_channels[i],
                                 rep->cycle_channels[(i + 1) % rep->cycle_len]);
        char buf[48];
        turn_text(buf, sizeof buf, tu.sw, tu.in_port, tu.out_port);
        /* TRANSLATORS: before the last turn of a list: "1:0>1, 2:0>1 and 3:0>1" */
        printf("%s %s", i == 0 ? "" : i + 1 == rep->cycle_len ? _(" and") : ",", buf);
    }
    printf(_(" (SWITCH:IN>OUT); prohibiting any one of them breaks this cycle.\n"));
}

static void print_report(const RouteSetup *rs, const FlRoutingReport *rep, int n_turns)
{
    const FlTopology *t = rs->t;
    const FlRoutingInfo *info = fl_routing_get_info(rs->r);
    int s = fl_topology_switch_count(t);
    printf("%s %s (%s)\n", cli_label(_("routing"), 18), info->name, fl_gettext(info->summary));
    printf("%s %s\n", cli_label(_("topology"), 18), rs->what);
    printf("%s %d\n", cli_label(_("switches"), 18), s);
    printf("%s %d\n", cli_label(_("VC classes"), 18), fl_routing_vc_classes(rs->r));
    if (fl_routing_root(rs->r) >= 0)
        printf(_("%s switch %d\n"), cli_label(_("root"), 18),
               fl_topology_node_label(t, fl_routing_root(rs->r)));
    if (rep->connected)
        printf(_("%s yes: every ordered pair of switches is routable\n"),
               cli_label(_("connected"), 18));
    else
        printf(_("%s no: switch %d cannot reach switch %d\n"), cli_label(_("connected"), 18),
               fl_topology_node_label(t, rep->unroutable_src),
               fl_topology_node_label(t, rep->unroutable_dst));
    if (rep->deadlock_free)
        printf(_("%s yes: the channel dependency graph has no cycle\n"),
               cli_label(_("deadlock-free"), 18));
    else
        printf(_("%s no: the channel dependency graph has a cycle of %d channels\n"),
               cli_label(_("deadlock-free"), 18), rep->cycle_len);
    printf(_("%s %.4f (breadth-first %.4f, stretch %.4f)\n"), cli_label(_("average hops"), 18),
           rep->avg_hops, rep->bfs_avg_hops, rep->stretch);
    printf("%s %d\n", cli_label(_("maximum hops"), 18), rep->max_hops);
    printf(_("%s %d in all; PT %.3f per switch, SDPT %.3f, PPT %d\n"),
           cli_label(_("prohibited turns"), 18), n_turns, rep->pt_mean, rep->pt_sd, rep->ppt);
    printf(_("%s max %.0f, mean %.2f (ordered switch pairs per channel)\n"),
           cli_label(_("channel load"), 18), rep->max_channel_load, rep->mean_channel_load);
    printf(_("%s %.4f flits per cycle per switch, uniform traffic\n"),
           cli_label(_("throughput bound"), 18), rep->throughput_bound);
    if (!rep->deadlock_free)
        print_cycle(rs, rep);
}

static int run_report(const CliCommand *cmd, const CliParsed *p, RouteSetup *rs)
{
    FlError err = { 0 };
    FlRoutingReport rep;
    if (fl_routing_analyze(rs->r, &rep, &err))
        return cli_engine_error(&err);
    /* The report gives the mean; the total is what a person counts. */
    int n_turns = (int)(rep.pt_mean * fl_topology_switch_count(rs->t) + 0.5);
    Picture pic = { .cycle = 1, .report = &rep, .src = -1, .dst = -1 };
    int rc = write_picture(cmd, p, rs, &pic);
    if (rc == CLI_OK && cli_flag(cmd, p, "json"))
        rc = cli_write_json(report_json(rs, &rep, n_turns), stdout);
    else if (rc == CLI_OK)
        print_report(rs, &rep, n_turns);
    fl_routing_report_clear(&rep);
    return rc;
}

/* ---- route --from --to: paths ------------------------------------------ */

static json_t *path_json(const FlTopology *t, const int *channels, int n, int src)
{
    json_t *switches = json_array(), *hops = json_array();
    json_array_append_new(switches, json_integer(fl_topology_node_label(t, src)));
    for (int i = 0; i < n; i++) {
        int c = channels[i], from_port, to_port;
        channel_ports(t, c, &from_port, &to_port);
        json_array_append_new(switches, json_integer(cli_channel_dst_label(t, c)));
        json_array_append_new(hops, json_pack("{s:i, s:i, s:i, s:i, s:i}",
                                              "switch", cli_channel_src_label(t, c),
                                              "port", from_port,
                                              "channel", c,
                                              "next_switch", cli_channel_dst_label(t, c),
                                              "next_port", to_port));
    }
    return json_pack("{s:i, s:o, s:o}", "hops", n, "switches", switches, "path", hops);
}

/* "0 -p0-> 1 -p2-> 5": switches with the port each hop leaves by. */
static void print_path_line(const FlTopology *t, const int *channels, int n, int src)
{
    printf("%d", fl_topology_node_label(t, src));
    for (int i = 0; i < n; i++) {
        int c = channels[i], from_port, to_port;
        channel_ports(t, c, &from_port, &to_port);
        printf(" -p%d-> %d", from_port, cli_channel_dst_label(t, c));
    }
    printf("\n");
}

static int same_path(const int *a, int na, const int *b, int nb)
{
    return na == nb && (na == 0 || memcmp(a, b, sizeof *a * (size_t)na) == 0);
}

/* The route the selection function takes, hop by hop. */
static int print_route(const RouteSetup *rs, int json, int src, int dst, const int *chosen,
                       int nchosen)
{
    const FlTopology *t = rs->t;
    const char *name = fl_routing_get_info(rs->r)->name;
    if (json) {
        json_t *o = path_json(t, chosen, nchosen, src);
        json_object_set_new(o, "routing", json_string(name));
        json_object_set_new(o, "from", json_integer(fl_topology_node_label(t, src)));
        json_object_set_new(o, "to", json_integer(fl_topology_node_label(t, dst)));
        return cli_write_json(o, stdout);
    }
    printf(ngettext("route from switch %d to switch %d by %s: %d hop\n",
                    "route from switch %d to switch %d by %s: %d hops\n", (unsigned long)nchosen),
           fl_topology_node_label(t, src), fl_topology_node_label(t, dst), name, nchosen);
    for (int i = 0; i < nchosen; i++) {
        int c = chosen[i], from_port, to_port;
        channel_ports(t, c, &from_port, &to_port);
        printf(_("  switch %d port %d -> switch %d port %d (channel %d)\n"),
               cli_channel_src_label(t, c), from_port, cli_channel_dst_label(t, c), to_port, c);
    }
    printf(_("switches: "));
    print_path_line(t, chosen, nchosen, src);
    return CLI_OK;
}

/* --all: every path the routing allows, the selected one marked. */
static int print_paths(const RouteSetup *rs, int json, int src, int dst, const int *chosen,
                       int nchosen, const int *paths, const int *offsets, int npaths,
                       int truncated)
{
    const FlTopology *t = rs->t;
    const char *name = fl_routing_get_info(rs->r)->name;
    if (json) {
        json_t *list = json_array();
        for (int i = 0; i < npaths; i++) {
            int len = offsets[i + 1] - offsets[i];
            const int *path = paths + offsets[i];
            json_t *o = path_json(t, path, len, src);
            json_object_set_new(o, "selected",
                                json_boolean(same_path(path, len, chosen, nchosen)));
            json_array_append_new(list, o);
        }
        return cli_write_json(json_pack("{s:s, s:i, s:i, s:i, s:b, s:o}", "routing", name,
                                        "from", fl_topology_node_label(t, src), "to",
                                        fl_topology_node_label(t, dst), "count", npaths,
                                        "truncated", truncated, "paths", list),
                              stdout);
    }
    if (truncated)
        printf(_("the first %d paths from switch %d to switch %d by %s (* the selected one):\n"),
               npaths, fl_topology_node_label(t, src), fl_topology_node_label(t, dst), name);
    else
        printf(ngettext("%d path from switch %d to switch %d by %s (* the selected one):\n",
                        "%d paths from switch %d to switch %d by %s (* the selected one):\n",
                        npaths),
               npaths, fl_topology_node_label(t, src), fl_topology_node_label(t, dst), name);
    for (int i = 0; i < npaths; i++) {
        int len = offsets[i + 1] - offsets[i];
        const int *path = paths + offsets[i];
        printf(_("%c %3d hops  "), same_path(path, len, chosen, nchosen) ? '*' : ' ', len);
        print_path_line(t, path, len, src);
    }
    if (truncated)
        printf(_("there are more: stopped at %d paths (raise --max-paths)\n"), npaths);
    return CLI_OK;
}

static int run_paths(const CliCommand *cmd, const CliParsed *p, RouteSetup *rs, int src,
                     int dst)
{
    int json = cli_flag(cmd, p, "json"), all = cli_flag(cmd, p, "all");
    long max_paths = DEFAULT_MAX_PATHS;
    const char *s = cli_value(cmd, p, "max-paths");
    if (s && cli_int_value("max-paths", s, 1, 1000000, &max_paths))
        return CLI_USAGE;
    FlError err = { 0 };
    FlRoutingReport rep = { 0 };
    int *chosen = NULL, nchosen = 0;
    int *paths = NULL, *offsets = NULL, npaths = 0, truncated = 0;
    int rc = CLI_OK;
    /* The picture shows the routing's cycle as well as the route, so it
     * needs the analysis the listing does without. */
    if (fl_routing_path(rs->r, src, dst, FL_SELECT_LOWEST_PORT, NULL, &chosen, &nchosen, &err)
        || (all && fl_routing_all_paths(rs->r, src, dst, (int)max_paths, &paths, &offsets,
                                        &npaths, &truncated, &err))
        || (cli_value(cmd, p, "picture") && fl_routing_analyze(rs->r, &rep, &err))) {
        rc = cli_engine_error(&err);
        goto out;
    }
    Picture pic = { 0, 1, &rep, src, dst, chosen, nchosen, paths, offsets, npaths };
    rc = write_picture(cmd, p, rs, &pic);
    if (rc == CLI_OK)
        rc = all ? print_paths(rs, json, src, dst, chosen, nchosen, paths, offsets, npaths,
                               truncated)
                 : print_route(rs, json, src, dst, chosen, nchosen);
out:
    fl_routing_report_clear(&rep);
    free(paths);
    free(offsets);
    free(chosen);
    return rc;
}

static int run_route(const CliCommand *cmd, const CliParsed *p)
{
    const char *from = cli_value(cmd, p, "from"), *to = cli_value(cmd, p, "to");
    if ((from != NULL) != (to != NULL))
        return cli_error(CLI_USAGE, _("route: --%s needs --%s as well"), from ? "from" : "to",
                         from ? "to" : "from");
    if (!from && cli_flag(cmd, p, "all"))
        return cli_error(CLI_USAGE, _("route: --all lists the paths between --from A and --to B"));
    if (!cli_flag(cmd, p, "all") && cli_value(cmd, p, "max-paths"))
        return cli_error(CLI_USAGE, _("route: --max-paths goes with --all"));
    long src = -1, dst = -1;
    if (from && (cli_int_value("from", from, 0, INT_MAX, &src)
                 || cli_int_value("to", to, 0, INT_MAX, &dst)))
        return CLI_USAGE;

    RouteSetup rs;
    int rc = setup_routing(cmd, p, &rs);
    if (rc)
        return rc;
    if (from) {
        int a, b;
        rc = cli_switch_arg(rs.t, "from", src, &a);
        if (!rc)
            rc = cli_switch_arg(rs.t, "to", dst, &b);
        if (!rc)
            rc = run_paths(cmd, p, &rs, a, b);
    } else {
        rc = run_report(cmd, p, &rs);
    }
    setup_free(&rs);
    return rc;
}

/* ---- turns ------------------------------------------------------------- */

static int run_turns(const CliCommand *cmd, const CliParsed *p)
{
    RouteSetup rs;
    int rc = setup_routing(cmd, p, &rs);
    if (rc)
        return rc;
    const FlTopology *t = rs.t;
    FlError err = { 0 };
    FlTurn *turns = NULL;
    int n = 0;
    FlRoutingReport rep = { 0 };
    if (fl_routing_prohibited_turns(rs.r, &turns, &n, &err)
        || fl_routing_analyze(rs.r, &rep, &err)) {
        rc = cli_engine_error(&err);
        goto done;
    }
    Picture pic = { .turns = 1, .report = &rep, .src = -1, .dst = -1 };
    if ((rc = write_picture(cmd, p, &rs, &pic)) != CLI_OK)
        goto done;
    const char *name = fl_routing_get_info(rs.r)->name;
    if (cli_flag(cmd, p, "json")) {
        json_t *list = json_array(), *per_switch = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(list, json_pack("{s:i, s:i, s:i}", "switch",
                                                  fl_topology_node_label(t, turns[i].sw),
                                                  "in_port", turns[i].in_port, "out_port",
                                                  turns[i].out_port));
        for (int i = 0, k = 0; i < fl_topology_switch_count(t); i++) {
            int sw = fl_topology_switch_node(t, i), count = 0;
            for (; k < n && turns[k].sw == sw; k++)
                count++;
            json_array_append_new(per_switch,
                                  json_pack("{s:i, s:i}", "switch",
                                            fl_topology_node_label(t, sw), "count", count));
        }
        rc = cli_write_json(json_pack("{s:s, s:s, s:i, s:i, s:o, s:o, s:f, s:f, s:i, s:b}",
                                      "routing", name, "topology", rs.what, "switches",
                                      fl_topology_switch_count(t), "total", n, "turns", list,
                                      "per_switch", per_switch, "pt_mean", rep.pt_mean,
                                      "pt_sd", rep.pt_sd, "ppt", rep.ppt, "deadlock_free",
                                      rep.deadlock_free),
                            stdout);
    } else {
        printf(_("prohibited turns of %s on %s, as IN>OUT ports at each switch:\n"), name,
               rs.what);
        for (int i = 0, k = 0; i < fl_topology_switch_count(t); i++) {
            int sw = fl_topology_switch_node(t, i);
            printf(_("switch %4d:"), fl_topology_node_label(t, sw));
            if (k == n || turns[k].sw != sw)
                printf(_(" none"));
            for (; k < n && turns[k].sw == sw; k++)
                printf(" %d>%d", turns[k].in_port, turns[k].out_port);
            printf("\n");
        }
        printf(
            rep.deadlock_free
                ? _("%d prohibited turns; PT %.3f per switch, SDPT %.3f, PPT %d; deadlock-free\n")
                : _("%d prohibited turns; PT %.3f per switch, SDPT %.3f, PPT %d; not "
                    "deadlock-free\n"),
            n, rep.pt_mean, rep.pt_sd, rep.ppt);
    }
done:
    fl_routing_report_clear(&rep);
    free(turns);
    setup_free(&rs);
    return rc;
}

/* ---- entry points ------------------------------------------------------ */

int cli_route(int argc, char **argv)
{
    return cli_run_single(&route_cmd, run_route, print_routings, argc, argv);
}

int cli_turns(int argc, char **argv)
{
    return cli_run_single(&turns_cmd, run_turns, print_routings, argc, argv);
}
