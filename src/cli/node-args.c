/* node-args.c — nodes at the command line of the collective commands: host
 * numbers, or on grid networks the coordinates of a switch, "(3,2)", which
 * stand for its first host; and lists of them, "(1,5),(2,1),7". */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "collective.h"

static const char *skip_spaces(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* A whole number >= 0 at *s, moving *s past it; -1 if there is none. */
static long read_number(const char **s)
{
    const char *p = skip_spaces(*s);
    if (!isdigit((unsigned char)*p))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (errno || v > INT_MAX)
        return -1;
    *s = skip_spaces(end);
    return v;
}

int coll_parse_tuple(const char *text, int v[COLL_MAX_COORDS])
{
    const char *s = skip_spaces(text);
    if (*s++ != '(')
        return -1;
    int n = 0;
    for (;;) {
        long x = read_number(&s);
        if (x < 0 || n == COLL_MAX_COORDS)
            return -1;
        v[n++] = (int)x;
        if (*s == ')')
            break;
        if (*s++ != ',')
            return -1;
    }
    return *skip_spaces(s + 1) ? -1 : n;
}

/* The switch at coordinates c (n of them), or -1. */
static int switch_at(const FlTopology *t, const int *c, int n)
{
    for (int i = 0; i < fl_topology_switch_count(t); i++) {
        int sw = fl_topology_switch_node(t, i), have[FL_MAX_DIMS] = { 0 };
        fl_topology_get_coords(t, sw, have);
        if (memcmp(have, c, (size_t)n * sizeof *c) == 0)
            return sw;
    }
    return -1;
}

/* The lowest host number attached to switch sw, or -1. */
static int first_host(const FlTopology *t, int sw)
{
    for (int h = 0; h < fl_topology_host_count(t); h++)
        if (fl_topology_host_switch(t, fl_topology_host_node(t, h)) == sw)
            return h;
    return -1;
}

static int coords_arg(const FlTopology *t, const char *option, const char *text, int *host)
{
    int c[COLL_MAX_COORDS], n = coll_parse_tuple(text, c);
    int dims = fl_topology_coord_dims(t);
    if (n < 0)
        return cli_error(CLI_USAGE, _("--%s: '%s' is neither a host number nor coordinates "
                                    "like (3,2)"), option, text);
    if (dims == 0)
        return cli_error(CLI_USAGE, _("--%s: '%s': this network's switches have no coordinates; "
                                    "give host numbers"), option, text);
    if (n != dims)
        return cli_error(CLI_USAGE, ngettext("--%s: '%s' has %d coordinate; this network's "
                                             "switches have %d",
                                             "--%s: '%s' has %d coordinates; this network's "
                                             "switches have %d", n), option, text, n, dims);
    int sw = switch_at(t, c, n);
    if (sw < 0)
        return cli_error(CLI_USAGE, _("--%s: no switch is at %s"), option, text);
    *host = first_host(t, sw);
    if (*host < 0)
        return cli_error(CLI_USAGE, _("--%s: the switch at %s has no host"), option, text);
    return CLI_OK;
}

int coll_node_arg(const FlTopology *t, const char *option, const char *text, int *host)
{
    const char *s = skip_spaces(text);
    if (*s == '(')
        return coords_arg(t, option, s, host);
    int hosts = fl_topology_host_count(t);
    long h = read_number(&s);
    if (h < 0 || *s)
        return cli_error(CLI_USAGE, _("--%s: '%s' is neither a host number nor coordinates "
                                    "like (3,2)"), option, text);
    if (h >= hosts)
        return cli_error(CLI_USAGE, _("--%s: host %ld does not exist (the network has hosts 0 "
                                    "to %d)"), option, h, hosts - 1);
    *host = (int)h;
    return CLI_OK;
}

/* The end of the list item starting at s: the next comma outside
 * parentheses, or the end of the text. */
static const char *item_end(const char *s)
{
    int depth = 0;
    for (; *s; s++) {
        if (*s == '(')
            depth++;
        else if (*s == ')' && depth > 0)
            depth--;
        else if (*s == ',' && depth == 0)
            break;
    }
    return s;
}

int coll_node_list(const FlTopology *t, const char *option, const char *text, int **hosts,
                   int *n)
{
    size_t len = strlen(text), cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += text[i] == ',';
    char *word = malloc(len + 1);
    int *out = malloc(cap * sizeof *out);
    char *seen = calloc((size_t)fl_topology_host_count(t) + 1, 1);
    *hosts = NULL;
    *n = 0;
    if (!word || !out || !seen) {
        free(word);
        free(out);
        free(seen);
        return cli_error(CLI_FAIL, _("out of memory"));
    }
    int rc = CLI_OK, count = 0;
    for (const char *s = text; !rc; s++) {
        const char *end = item_end(s);
        memcpy(word, s, (size_t)(end - s));
        word[end - s] = '\0';
        if (!*skip_spaces(word))
            rc = cli_error(CLI_USAGE, _("--%s: an empty item in '%s'"), option, text);
        else if (!(rc = coll_node_arg(t, option, word, &out[count])) && seen[out[count]])
            rc = cli_error(CLI_USAGE, _("--%s: host %d is given twice"), option, out[count]);
        if (!rc)
            seen[out[count++]] = 1;
        if (!*end)
            break;
        s = end;
    }
    free(word);
    free(seen);
    if (rc) {
        free(out);
        return rc;
    }
    *hosts = out;
    *n = count;
    return CLI_OK;
}

void coll_node_text(const FlTopology *t, int host, char *buf, size_t len)
{
    int dims = fl_topology_coord_dims(t);
    int used = snprintf(buf, len, "%d", host);
    if (dims == 0 || used < 0 || (size_t)used >= len)
        return;
    int c[FL_MAX_DIMS] = { 0 };
    fl_topology_get_coords(t, fl_topology_host_switch(t, fl_topology_host_node(t, host)), c);
    for (int d = 0; d < dims && (size_t)used < len; d++)
        used += snprintf(buf + used, len - (size_t)used, "%s%d", d ? "," : " (", c[d]);
    if ((size_t)used < len)
        snprintf(buf + used, len - (size_t)used, ")");
}

void coll_channel_text(const FlTopology *t, int channel, char *buf, size_t len)
{
    snprintf(buf, len, "%d>%d", cli_channel_src_label(t, channel),
             cli_channel_dst_label(t, channel));
}
