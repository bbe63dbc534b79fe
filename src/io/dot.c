/* dot.c — Graphviz export, for `neato -n -Tsvg` (keeps Flitlab's drawing) or
 * `dot -Tsvg` (lays the graph out again).
 *
 * An undirected graph: switches are boxes labelled s<rank>, hosts small
 * ellipses labelled h<rank>, named n<node id> so every link line can be
 * traced back to the topology. Every node has a pinned position ("x,y!") in
 * points, 72 per layout unit; Flitlab draws y downwards and Graphviz
 * upwards, so y is negated. Each link carries its port numbers as taillabel
 * (end a) and headlabel (end b). Nodes and links come in index order, so
 * the same topology gives the same bytes.
 */
#include "flitlab-io.h"

#define POINTS_PER_UNIT 72.0

/* A DOT double-quoted string: only '"' needs escaping, but a backslash
 * starts Graphviz escapes (\n, \N...) in labels, so it is doubled too, and
 * control characters become spaces to keep one statement per line. */
static void write_quoted(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', fp);
        fputc(*p < 0x20 || *p == 0x7f ? ' ' : *p, fp);
    }
    fputc('"', fp);
}

static void write_node(const FlTopology *t, int n, FILE *fp)
{
    double x, y;
    char xs[FL__IO_NUMBER_MAX], ys[FL__IO_NUMBER_MAX];
    fl_topology_get_position(t, n, &x, &y);
    fl__io_format_number(xs, x * POINTS_PER_UNIT);
    fl__io_format_number(ys, -y * POINTS_PER_UNIT);
    if (fl_topology_node_kind(t, n) == FL_NODE_SWITCH)
        fprintf(fp, "  n%d [shape=box, label=\"s%d\", pos=\"%s,%s!\"];\n", n,
                fl_topology_node_rank(t, n), xs, ys);
    else
        fprintf(fp,
                "  n%d [shape=ellipse, width=0.3, height=0.2, fontsize=7, label=\"h%d\", "
                "pos=\"%s,%s!\"];\n",
                n, fl_topology_node_rank(t, n), xs, ys);
}

int fl_io_write_dot(const FlTopology *t, FILE *fp, FlError *err)
{
    if (!t || !fp)
        return fl_error_set(err, FL_EINVAL, "no topology or no stream to write to");
    for (int n = 0; n < fl_topology_node_count(t); n++) {
        int rc = fl__io_check_position(t, n, err);
        if (rc)
            return rc;
    }

    const char *name = fl_topology_name(t);
    if (!*name)
        name = fl_topology_spec(t) ? fl_topology_spec(t) : fl_topology_family(t);
    fputs("graph ", fp);
    write_quoted(fp, name);
    fputs(" {\n"
          "  graph [outputorder=edgesfirst, overlap=true, splines=false];\n"
          "  node [fontname=\"Helvetica\", fontsize=10, width=0.45, height=0.3, margin=0.02];\n"
          "  edge [fontname=\"Helvetica\", labelfontsize=7, labeldistance=1.2];\n",
          fp);
    for (int n = 0; n < fl_topology_node_count(t); n++)
        write_node(t, n, fp);
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        int a, pa, b, pb;
        fl_topology_link_ends(t, l, &a, &pa, &b, &pb);
        fprintf(fp, "  n%d -- n%d [taillabel=\"%d\", headlabel=\"%d\"];\n", a, b, pa, pb);
    }
    fputs("}\n", fp);
    if (ferror(fp))
        return fl_error_set(err, FL_EIO, "write error");
    return FL_OK;
}
