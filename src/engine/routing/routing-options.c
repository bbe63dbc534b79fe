/* routing-options.c — what each routing takes: the options of the routing
 * registry (root, VC classes, dimension order, prohibited turns), reading
 * and writing them as text, and the turn list syntax SW:IN>OUT,... */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "option-internal.h"
#include "routing-internal.h"

static const char *const orders[] = { "x",   "xy",  "yx",  "xyz", "xzy",
                                      "yxz", "yzx", "zxy", "zyx", NULL };

const FlOptionInfo fl__routing_option_root = {
    .name = "root",
    .type = FL_OPTION_INT,
    .group = FL_N_("Routing"),
    .label = FL_N_("Spanning tree root"),
    .arg = "N",
    .help = FL_N_("root switch (its number in pictures) of the spanning tree; auto: paper 002's "
                  "rule (fewest crossing paths)"),
    .dflt = "auto",
    .min_int = 0,
    .max_int = INT_MAX,
    .unset = "auto",
};

const FlOptionInfo fl__routing_option_classes = {
    .name = "classes",
    .type = FL_OPTION_INT,
    .group = FL_N_("Routing"),
    .label = FL_N_("VC classes"),
    .arg = "K",
    .help = FL_N_("VC classes the routing may use, 1 to 16; auto: its own (a torus takes 2, for "
                  "its dateline)"),
    .dflt = "auto",
    .min_int = 1,
    .max_int = 16,
    .unset = "auto",
};

const FlOptionInfo fl__routing_option_order = {
    .name = "order",
    .type = FL_OPTION_ENUM,
    .group = FL_N_("Routing"),
    .label = FL_N_("Dimension order"),
    .arg = "ORDER",
    .help = FL_N_("dimension order: xy or yx; xyz, zyx... in 3D; auto: x, then y, then z"),
    .dflt = "auto",
    .choices = orders,
    .unset = "auto",
};

const FlOptionInfo fl__routing_option_prohibit = {
    .name = "prohibit",
    .type = FL_OPTION_COMPOSITE,
    .group = FL_N_("Routing"),
    .label = FL_N_("Prohibited turns"),
    .arg = "TURNS",
    .help = FL_N_("prohibited turns as SW:IN>OUT,... (switch number in pictures, ports)"),
    .dflt = "none",
    .unset = "none",
};

static const FlOptionInfo *const all_options[] = {
    &fl__routing_option_root,
    &fl__routing_option_classes,
    &fl__routing_option_order,
    &fl__routing_option_prohibit,
};

#define N_OPTIONS ((int)(sizeof all_options / sizeof all_options[0]))

int fl_routing_option_count(void)
{
    return N_OPTIONS;
}

const FlOptionInfo *fl_routing_option(int index)
{
    return index >= 0 && index < N_OPTIONS ? all_options[index] : NULL;
}

const FlOptionInfo *fl_routing_option_lookup(const char *name)
{
    for (int i = 0; name && i < N_OPTIONS; i++)
        if (strcmp(all_options[i]->name, name) == 0)
            return all_options[i];
    return NULL;
}

int fl_routing_takes(const FlRoutingInfo *info, const char *name)
{
    for (int i = 0; info && name && info->options && info->options[i]; i++)
        if (strcmp(info->options[i]->name, name) == 0)
            return 1;
    return 0;
}

void fl_routing_options_init(FlRoutingOptions *opt)
{
    *opt = (FlRoutingOptions){ .root = -1 };
}

void fl_routing_options_clear(FlRoutingOptions *opt)
{
    if (!opt)
        return;
    free((FlTurn *)opt->prohibited);
    fl_routing_options_init(opt);
}

int fl_routing_options_set(FlRoutingOptions *opt, const char *key, const char *text,
                           FlError *err)
{
    const FlOptionInfo *o = fl_routing_option_lookup(key);
    if (!o)
        return fl_error_set(err, FL_EINVAL, "unknown routing option '%s' (known: root, "
                            "classes, order, prohibit)", key ? key : "");
    if (!opt || !text)
        return fl_error_set(err, FL_EINVAL, "%s: no options or no value", o->name);
    int64_t v;
    int rc;
    if (o == &fl__routing_option_root || o == &fl__routing_option_classes) {
        int64_t unset = o == &fl__routing_option_root ? -1 : 0;
        if ((rc = fl__option_parse_int(o, text, unset, &v, err)))
            return rc;
        if (o == &fl__routing_option_root)
            opt->root = (int)v;
        else
            opt->vc_classes = (int)v;
        return FL_OK;
    }
    if (o == &fl__routing_option_order) {
        int index;
        if (strcmp(text, o->unset) == 0) {
            opt->order = NULL;
            return FL_OK;
        }
        if ((rc = fl__option_parse_enum(o, text, &index, err)))
            return rc;
        opt->order = orders[index];
        return FL_OK;
    }
    FlTurn *turns = NULL;
    int n = 0;
    FlError why = { 0 };
    if (strcmp(text, o->unset) != 0 && fl_turns_parse(text, &turns, &n, &why))
        return fl_error_set(err, why.code, "%s: %s", o->name, why.message);
    free((FlTurn *)opt->prohibited);
    opt->prohibited = turns;
    opt->n_prohibited = n;
    return FL_OK;
}

int fl_routing_options_format(const FlRoutingOptions *opt, const char *key, char *buf,
                              size_t len)
{
    const FlOptionInfo *o = fl_routing_option_lookup(key);
    if (!o || !opt)
        return -1;
    if (o == &fl__routing_option_root)
        return opt->root < 0 ? snprintf(buf, len, "%s", o->unset)
                             : snprintf(buf, len, "%d", opt->root);
    if (o == &fl__routing_option_classes)
        return opt->vc_classes <= 0 ? snprintf(buf, len, "%s", o->unset)
                                    : snprintf(buf, len, "%d", opt->vc_classes);
    if (o == &fl__routing_option_order)
        return snprintf(buf, len, "%s", opt->order && *opt->order ? opt->order : o->unset);
    if (!opt->prohibited || opt->n_prohibited <= 0)
        return snprintf(buf, len, "%s", o->unset);
    return fl_turns_format(opt->prohibited, opt->n_prohibited, buf, len);
}

/* Reads one "SW:IN>OUT" at *s (spaces allowed around the parts), leaving *s
 * after it; 0 when it is malformed. */
static int parse_one_turn(const char **s, FlTurn *turn)
{
    static const char seps[3] = { ':', '>', 0 };
    long v[3];
    const char *p = *s;
    for (int i = 0; i < 3; i++) {
        char *end;
        while (*p == ' ')
            p++;
        if (*p < '0' || *p > '9')
            return 0;
        v[i] = strtol(p, &end, 10);
        if (v[i] > INT_MAX)
            return 0;
        for (p = end; *p == ' '; p++)
            ;
        if (seps[i] && *p++ != seps[i])
            return 0;
    }
    *turn = (FlTurn){ (int)v[0], (int)v[1], (int)v[2] };
    *s = p;
    return 1;
}

int fl_turns_parse(const char *text, FlTurn **out, int *n, FlError *err)
{
    if (!text || !out || !n)
        return fl_error_set(err, FL_EINVAL, "no turns to read");
    int cap = 1;
    for (const char *s = text; *s; s++)
        cap += *s == ',';
    FlTurn *list = malloc(sizeof *list * (size_t)cap);
    if (!list)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the prohibited turns");
    int count = 0;
    for (const char *s = text;; s++) {
        const char *start = s;
        if (!parse_one_turn(&s, &list[count]) || (*s != ',' && *s != '\0')) {
            free(list);
            return fl_error_set(err, FL_EPARSE, "malformed turn '%.*s': write SW:IN>OUT "
                                "(switch node id, input port, output port), e.g. 5:0>2, "
                                "separated by commas", (int)strcspn(start, ","), start);
        }
        count++;
        if (*s == '\0')
            break;
    }
    *out = list;
    *n = count;
    return FL_OK;
}

int fl_turns_format(const FlTurn *turns, int n, char *buf, size_t len)
{
    int total = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; turns && i < n; i++) {
        size_t used = (size_t)total < len ? (size_t)total : len;
        total += snprintf(buf + used, len - used, "%s%d:%d>%d", i ? "," : "", turns[i].sw,
                          turns[i].in_port, turns[i].out_port);
    }
    return total;
}
