/* routing-options.c — the options that shape a routing (--root, --order and
 * the VC classes) and building it, for every command that takes --routing. */
#include <limits.h>

#include "cli.h"

int cli_routing_options(const CliCommand *cmd, const CliParsed *p, const char *classes_option,
                        FlRoutingOptions *opt)
{
    *opt = (FlRoutingOptions){ .root = -1 };
    long v;
    const char *s;
    if ((s = cli_value(cmd, p, "root"))) {
        if (cli_int_value("root", s, 0, INT_MAX, &v))
            return CLI_USAGE;
        opt->root = (int)v;
    }
    if ((s = cli_value(cmd, p, classes_option))) {
        if (cli_int_value(classes_option, s, 1, 16, &v))
            return CLI_USAGE;
        opt->vc_classes = (int)v;
    }
    opt->order = cli_value(cmd, p, "order");
    return CLI_OK;
}

int cli_routing_new(const FlTopology *t, const char *name, const FlRoutingOptions *opt,
                    FlRouting **out)
{
    FlError err = { 0 };
    *out = NULL;
    if (fl_routing_new(t, name, opt, out, &err))
        return cli_engine_error(&err);
    /* A routing without a spanning tree has no root: a --root given to it
     * would silently do nothing, so it is refused by name. */
    if (opt->root >= 0 && fl_routing_root(*out) < 0) {
        fl_routing_free(*out);
        *out = NULL;
        return cli_error(CLI_USAGE, "--root applies to routings over a spanning tree "
                                    "(updown, lturn-*, rturn-*), not to %s", name);
    }
    return CLI_OK;
}
