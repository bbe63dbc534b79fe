/* routing-options.c — --routing and the options that shape a routing, as
 * the engine's routing registry describes them, for every command that
 * takes --routing: their flags, reading them, and building the routing. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *cli_routing_flag(const FlOptionInfo *o, const char *classes_option)
{
    return strcmp(o->name, "classes") == 0 ? classes_option : o->name;
}

/* "updown, lturn-*, rturn-*": the routings that take option o, a family of
 * names that share the part before '-' written once. */
static void takers(const FlOptionInfo *o, char *buf, size_t len)
{
    size_t used = 0;
    const char *names[64];
    int n = 0;
    buf[0] = '\0';
    for (int i = 0; i < fl_routing_count() && n < 64; i++)
        if (fl_routing_takes(fl_routing_info(i), o->name))
            names[n++] = fl_routing_info(i)->name;
    for (int i = 0; i < n && used < len;) {
        const char *dash = strchr(names[i], '-');
        size_t stem = dash ? (size_t)(dash - names[i]) : 0;
        int j = i + 1;
        while (stem && j < n && strncmp(names[j], names[i], stem + 1) == 0)
            j++;
        if (j - i >= 2)
            used += (size_t)snprintf(buf + used, len - used, "%s%.*s-*", i ? ", " : "",
                                     (int)stem, names[i]);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
        i = j;
    }
}

void cli_add_routing_options(CliOptions *opts, const char *routing_help,
                             const char *classes_option)
{
    cli_add_option(opts, "routing", 'r', "NAME", "%s", routing_help);
    for (int i = 0; i < fl_routing_option_count(); i++) {
        const FlOptionInfo *o = fl_routing_option(i);
        char who[128];
        takers(o, who, sizeof who);
        /* The routings that take it, before the engine's description. */
        FlOptionInfo shown = *o;
        char help[CLI_HELP_MAX];
        snprintf(help, sizeof help, "%s: %s", who, fl_gettext(o->help));
        shown.help = help;
        cli_add_engine_option(opts, &shown, cli_routing_flag(o, classes_option), 0, o->dflt);
    }
}

/* "VC classes" stays as it is; "Root switch" reads "root switch" in a
 * sentence. */
static void lower_label(const char *label, char *buf, size_t len)
{
    snprintf(buf, len, "%s", label);
    if (buf[0] && !(buf[1] && isupper((unsigned char)buf[1])))
        buf[0] = (char)tolower((unsigned char)buf[0]);
}

int cli_routing_options(const CliCommand *cmd, const CliParsed *p, const char *name,
                        const char *classes_option, FlRoutingOptions *opt)
{
    fl_routing_options_init(opt);
    const FlRoutingInfo *info = fl_routing_lookup(name);
    for (int i = 0; i < fl_routing_option_count(); i++) {
        const FlOptionInfo *o = fl_routing_option(i);
        const char *flag = cli_routing_flag(o, classes_option);
        const char *text = cli_value(cmd, p, flag);
        if (!text)
            continue;
        FlError err = { 0 };
        if (fl_routing_options_set(opt, o->name, text, &err)) {
            fl_routing_options_clear(opt);
            return cli_option_error(&err, o->name, flag);
        }
        if (info && !fl_routing_takes(info, o->name)) {
            char who[128], what[64];
            takers(o, who, sizeof who);
            lower_label(fl_gettext(o->label), what, sizeof what);
            fl_routing_options_clear(opt);
            return cli_error(CLI_USAGE, strchr(who, ',') || strchr(who, '*')
                                            ? _("--%s: %s takes no %s (%s do)")
                                            : _("--%s: %s takes no %s (%s does)"),
                             flag, name, what, who);
        }
    }
    return CLI_OK;
}

int cli_switch_arg(const FlTopology *t, const char *option, long label, int *node)
{
    int nodes = fl_topology_node_count(t);
    *node = label <= INT_MAX ? fl_topology_find_label(t, (int)label) : -1;
    /* Labels 0 .. nodes - 1 are all taken exactly when none was changed. */
    if (*node < 0 && fl_topology_next_label(t) == nodes)
        return cli_error(CLI_USAGE, _("--%s %ld: no such node (the network has nodes 0 to %d)"),
                         option, label, nodes - 1);
    if (*node < 0)
        return cli_error(CLI_USAGE, _("--%s %ld: no node is numbered %ld in this network"), option,
                         label, label);
    if (fl_topology_node_kind(t, *node) != FL_NODE_SWITCH)
        return cli_error(CLI_USAGE, _("--%s %ld: node %ld is a host, not a switch"), option, label,
                         label);
    return CLI_OK;
}

int cli_channel_src_label(const FlTopology *t, int c)
{
    return fl_topology_node_label(t, fl_topology_channel_src(t, c));
}

int cli_channel_dst_label(const FlTopology *t, int c)
{
    return fl_topology_node_label(t, fl_topology_channel_dst(t, c));
}

int cli_routing_labels(const FlTopology *t, FlRoutingOptions *opt)
{
    if (opt->root >= 0 && cli_switch_arg(t, "root", opt->root, &opt->root))
        return CLI_USAGE;
    /* The list is the one fl_routing_options_set() allocated. */
    FlTurn *turns = (FlTurn *)opt->prohibited;
    for (int i = 0; i < opt->n_prohibited; i++)
        if (cli_switch_arg(t, "prohibit", turns[i].sw, &turns[i].sw))
            return CLI_USAGE;
    return CLI_OK;
}

int cli_routing_new(const FlTopology *t, const char *name, const FlRoutingOptions *opt,
                    FlRouting **out)
{
    FlError err = { 0 };
    *out = NULL;
    if (fl_routing_new(t, name, opt, out, &err))
        return cli_engine_error(&err);
    return CLI_OK;
}
