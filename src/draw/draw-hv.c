/* draw-hv.c — the H/V graph of L-turn and R-turn (paper 002, Figs. 3 and
 * 4): every switch's (h, v), the copies of a network laid out at those
 * coordinates or without its hosts, and the tree and other links and the
 * (h, v) labels drawn over it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw-routing-private.h"

/* ------------------------------------------------------------------------ */
/* H/V coordinates                                                          */
/* ------------------------------------------------------------------------ */

/* (h, v) of every switch into h[] and v[] (indexed by node id, -1 for
 * hosts and unreached switches): the routing's own H/V coordinates, or for
 * a routing that only has a spanning tree (up* / down*) its preorder, with
 * children in node order, and depth. Returns 1 for the routing's own
 * coordinates, 0 for derived ones, -1 when there is no tree or no memory. */
int fl__draw_switch_hv(const FlTopology *t, const FlRouting *r, int *h, int *v)
{
    int n = fl_topology_node_count(t), own = 1;
    for (int i = 0; i < n; i++)
        h[i] = v[i] = -1;
    for (int i = 0; i < fl_topology_switch_count(t) && own; i++) {
        int sw = fl_topology_switch_node(t, i);
        if (fl_routing_hv_coords(r, sw, &h[sw], &v[sw]) != FL_OK)
            own = 0;
    }
    if (own)
        return 1;
    int root = fl_routing_root(r);
    if (root < 0 || root >= n)
        return -1;

    /* Children lists (in node order) as offsets into one array, then an
     * iterative preorder walk from the root. */
    int *first = calloc((size_t)n + 1, sizeof(int));
    int *child = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    int *stack = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    int rc = -1;
    if (!first || !child || !stack)
        goto out_free;
    for (int i = 0; i < n; i++)
        h[i] = v[i] = -1;
    for (int i = 0; i < fl_topology_switch_count(t); i++) {
        int sw = fl_topology_switch_node(t, i), p = fl_routing_tree_parent(r, sw);
        if (p >= 0 && p < n && sw != root)
            first[p + 1]++;
    }
    for (int i = 0; i < n; i++)
        first[i + 1] += first[i];
    int *fill = stack; /* borrowed as a cursor per parent before the walk */
    memcpy(fill, first, sizeof(int) * (size_t)n);
    for (int i = 0; i < fl_topology_switch_count(t); i++) {
        int sw = fl_topology_switch_node(t, i), p = fl_routing_tree_parent(r, sw);
        if (p >= 0 && p < n && sw != root)
            child[fill[p]++] = sw;
    }
    int top = 0, next = 0;
    stack[top++] = root;
    v[root] = 0;
    while (top > 0) {
        int u = stack[--top];
        h[u] = next++;
        /* Pushed last to first, so the lowest id comes out first. */
        for (int k = first[u + 1] - 1; k >= first[u]; k--) {
            int w = child[k];
            if (v[w] >= 0)
                continue; /* a broken tree must not loop */
            v[w] = v[u] + 1;
            stack[top++] = w;
        }
    }
    rc = 0;
out_free:
    free(first);
    free(child);
    free(stack);
    return rc;
}

/* Whether every switch comes before every host and every switch link
 * before every host link, as the generators build networks: then the
 * switches alone keep their ids and their links' ids. */
static int hosts_last(const FlTopology *t)
{
    int ns = fl_topology_switch_count(t), nsl = fl_topology_switch_link_count(t);
    if (ns > 0 && fl_topology_switch_node(t, ns - 1) != ns - 1)
        return 0;
    for (int l = 0; l < nsl; l++)
        if (!is_switch_link(t, l))
            return 0;
    return 1;
}

int fl_draw_switches_only(const FlTopology *t, FlTopology **out, FlError *err)
{
    if (!t || !out)
        return fl_error_set(err, FL_EINVAL, "no network to copy");
    if (!hosts_last(t))
        return fl_error_set(err, FL_EUNSUPPORTED,
                            "the hosts are numbered among the switches: they cannot be left out "
                            "without renumbering them");
    /* Built afresh rather than by removing hosts, which would renumber
     * the nodes once per host. */
    FlTopology *copy = fl_topology_new();
    int rc = copy ? FL_OK : FL_ENOMEM, dims = fl_topology_coord_dims(t);
    if (rc == FL_OK)
        rc = fl_topology_set_coord_dims(copy, dims);
    for (int i = 0; i < fl_topology_switch_count(t) && rc == FL_OK; i++) {
        int id, coords[FL_MAX_DIMS];
        double x, y;
        rc = fl_topology_add_node(copy, FL_NODE_SWITCH, fl_topology_node_ports(t, i), &id, err);
        if (rc == FL_OK)
            rc = fl_topology_set_node_label(copy, id, fl_topology_node_label(t, i), err);
        fl_topology_get_position(t, i, &x, &y);
        if (rc == FL_OK)
            rc = fl_topology_set_position(copy, id, x, y);
        if (rc == FL_OK && dims > 0 && fl_topology_get_coords(t, i, coords) == FL_OK)
            rc = fl_topology_set_coords(copy, id, coords);
    }
    for (int l = 0; l < fl_topology_switch_link_count(t) && rc == FL_OK; l++) {
        int a, pa, b, pb;
        fl_topology_link_ends(t, l, &a, &pa, &b, &pb);
        rc = fl_topology_connect(copy, a, pa, b, pb, NULL, err);
    }
    if (rc == FL_OK)
        rc = fl_topology_set_next_label(copy, fl_topology_next_label(t), err);
    if (rc != FL_OK) {
        fl_topology_free(copy);
        return rc == FL_ENOMEM ? fl_error_set(err, FL_ENOMEM, "out of memory") : rc;
    }
    *out = copy;
    return FL_OK;
}

int fl_draw_hv_layout(const FlTopology *t, const FlRouting *r, FlTopology **out,
                      FlError *err)
{
    if (!t || !r || !out)
        return fl_error_set(err, FL_EINVAL, "no network or routing to lay out");
    if (!fl__draw_same_network(t, r))
        return fl_error_set(err, FL_EINVAL, "the routing was built for another network");
    int n = fl_topology_node_count(t), rc = FL_OK;
    int *h = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    int *v = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    FlTopology *copy = NULL;
    if (!h || !v) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory");
        goto out_free;
    }
    int kind = fl__draw_switch_hv(t, r, h, v);
    if (kind < 0) {
        rc = fl_error_set(err, FL_EUNSUPPORTED,
                          "routing %s has no spanning tree to draw as an H/V graph",
                          fl_routing_get_info(r)->name);
        goto out_free;
    }
    /* The paper's H/V graphs have no hosts; a network whose hosts cannot
     * be left out keeps them beside their switches. */
    if (fl_draw_switches_only(t, &copy, NULL) != FL_OK && !(copy = fl_topology_copy(t))) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory");
        goto out_free;
    }
    int max_h = 0, max_v = 1, unplaced = 0;
    for (int i = 0; i < n; i++) {
        max_h = h[i] > max_h ? h[i] : max_h;
        max_v = v[i] > max_v ? v[i] : max_v;
    }
    /* One step between neighbours in preorder; the levels as far apart
     * as a 4:3 picture allows, so a wide tree does not become a flat
     * strip. The half step keeps every switch off the integer grid, so
     * links are drawn straight as in the paper's figures: a channel's H/V
     * direction is then the way it points on the page. */
    double vstep = clamp(0.75 * (max_h + 1) / max_v, 1.5, 12.0);
    for (int i = 0; i < fl_topology_switch_count(t); i++) {
        int sw = fl_topology_switch_node(t, i);
        if (h[sw] >= 0)
            fl_topology_set_position(copy, sw, h[sw] + 0.5, v[sw] * vstep);
        else
            fl_topology_set_position(copy, sw, 0.5 + unplaced++, (max_v + 1) * vstep);
    }
    /* A host on its switch's place is drawn fanned out beside it. */
    for (int i = 0; i < fl_topology_host_count(copy); i++) {
        int host = fl_topology_host_node(copy, i), sw = fl_topology_host_switch(copy, host);
        double x, y;
        if (sw >= 0 && fl_topology_get_position(copy, sw, &x, &y) == FL_OK)
            fl_topology_set_position(copy, host, x, y);
    }
    *out = copy;
out_free:
    free(h);
    free(v);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The H/V graph                                                            */
/* ------------------------------------------------------------------------ */

static int is_tree_link(const FlTopology *t, const FlRouting *r, int l)
{
    int a, b;
    fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
    return fl_routing_tree_parent(r, a) == b || fl_routing_tree_parent(r, b) == a;
}

/* Paper 002, Fig. 3: spanning-tree links solid and dark, the other links
 * dashed. The links fl_draw_topology() drew are first painted out. */
void fl__draw_hv_links(const Ctx *c)
{
    cairo_t *cr = c->cr;
    const Geom *g = c->g;
    double lw = g->lw;
    cairo_save(cr);
    fl__draw_clip_out_nodes(c->cr, c->g, &c->clip);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    for (int pass = 0; pass < 3; pass++) {
        cairo_new_path(cr);
        for (int l = 0; l < fl_topology_link_count(c->t); l++) {
            if (!is_switch_link(c->t, l))
                continue;
            if (pass > 0 && is_tree_link(c->t, c->routing, l) != (pass == 1))
                continue;
            Shape s;
            DevShape d;
            /* What fl_draw_topology() drew goes; the links come back in
             * this picture's shapes. */
            if (pass == 0) {
                fl__draw_link_shape(g, l, &s);
                fl__draw_shape_to_device(g, &s, &d);
            } else {
                fl__draw_scene_link(c->sc, l, &s, &d);
            }
            fl__draw_shape_path(cr, &s, &d);
        }
        if (pass == 0) {
            set_colour(cr, c->col->background);
            cairo_set_line_width(cr, lw + 2);
        } else if (pass == 1) {
            set_colour(cr, c->col->tree);
            cairo_set_line_width(cr, lw * 1.7);
        } else {
            double dash[2] = { fmax(3, lw * 3), fmax(2.5, lw * 2.2) };
            set_colour(cr, c->col->other);
            cairo_set_line_width(cr, lw);
            cairo_set_dash(cr, dash, 2, 0);
        }
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

/* Each switch's (h, v) by a corner of its square: above left, or where
 * that would cover a label placed before, above right, below left, below
 * right; left out when none is free. */
void fl__draw_hv_labels(const Ctx *c, const int *h, const int *v)
{
    if (c->z.font <= 0)
        return;
    cairo_t *cr = c->cr;
    int ns = fl_topology_switch_count(c->t), n = 0;
    struct HvLabel {
        double x, y;
        int sw;
    } *placed = malloc(sizeof *placed * (size_t)(ns > 0 ? ns : 1));
    if (!placed)
        return;
    cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, c->z.font);
    double half = c->g->half;
    for (int i = 0; i < ns; i++) {
        int sw = fl_topology_switch_node(c->t, i);
        double x, y;
        if (h[sw] < 0)
            continue;
        fl__draw_node_device(c->g, sw, &x, &y);
        if (!box_near(&c->clip, x, y, half + 60))
            continue;
        char text[32];
        cairo_text_extents_t te;
        snprintf(text, sizeof text, "(%d,%d)", h[sw], v[sw]);
        cairo_text_extents(cr, text, &te);
        double w = te.width + 2, ht = te.height + 2;
        /* Box centres by the four corners, clear of the square by 1.5. */
        double dx = half - 1 + w / 2, dy = half + 1.5 + ht / 2;
        Box cands[4] = { box_around(x - dx, y - dy, w, ht), box_around(x + dx, y - dy, w, ht),
                         box_around(x - dx, y + dy, w, ht), box_around(x + dx, y + dy, w, ht) };
        int k = fl__draw_labels_place(c->lab, cands, 4);
        if (k < 0)
            continue;
        placed[n++] = (struct HvLabel){ cands[k].x1 + 1 - te.x_bearing,
                                        cands[k].y1 + 1 - te.y_bearing, sw };
    }
    /* Chips first, in one fill, then the text. */
    for (int part = 0; part < 2; part++) {
        cairo_new_path(cr);
        set_colour(cr, part ? c->col->text : c->col->chip);
        for (int i = 0; i < n; i++) {
            char text[32];
            cairo_text_extents_t te;
            snprintf(text, sizeof text, "(%d,%d)", h[placed[i].sw], v[placed[i].sw]);
            if (part) {
                cairo_move_to(cr, placed[i].x, placed[i].y);
                cairo_show_text(cr, text);
            } else {
                cairo_text_extents(cr, text, &te);
                cairo_rectangle(cr, placed[i].x + te.x_bearing - 1, placed[i].y + te.y_bearing - 1,
                                te.width + 2, te.height + 2);
            }
        }
        if (!part)
            cairo_fill(cr);
    }
    free(placed);
}
