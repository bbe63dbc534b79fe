/* test-topology.c — the core data structure: building, editing, renumbering,
 * copying and validation, including a long random edit sequence checked
 * against the structure's invariants after every step; labels, and which
 * links wrap around. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "flitlab.h"
#include "tap.h"

/* Every link's two ends point back at it, every used port names a link
 * whose end it is, and the counters agree with a recount. */
static int consistent(const FlTopology *t)
{
    int links = fl_topology_link_count(t), nodes = fl_topology_node_count(t);
    int sw = 0, hosts = 0, swlinks = 0, used_ports = 0;
    for (int l = 0; l < links; l++) {
        int a, pa, b, pb;
        if (fl_topology_link_ends(t, l, &a, &pa, &b, &pb) != FL_OK)
            return 0;
        if (a == b || fl_topology_port_link(t, a, pa) != l || fl_topology_port_link(t, b, pb) != l)
            return 0;
        if (fl_topology_channel_src(t, 2 * l) != a || fl_topology_channel_dst(t, 2 * l) != b
            || fl_topology_channel_src(t, 2 * l + 1) != b
            || fl_topology_channel_dst(t, 2 * l + 1) != a)
            return 0;
        if (fl_topology_node_kind(t, a) == FL_NODE_SWITCH
            && fl_topology_node_kind(t, b) == FL_NODE_SWITCH)
            swlinks++;
    }
    for (int n = 0; n < nodes; n++) {
        FlNodeKind k = fl_topology_node_kind(t, n);
        int rank = fl_topology_node_rank(t, n);
        if (k == FL_NODE_SWITCH) {
            if (rank != sw || fl_topology_switch_node(t, sw) != n)
                return 0;
            sw++;
        } else {
            if (rank != hosts || fl_topology_host_node(t, hosts) != n)
                return 0;
            hosts++;
        }
        for (int p = 0; p < fl_topology_node_ports(t, n); p++) {
            int l = fl_topology_port_link(t, n, p);
            if (l < 0)
                continue;
            used_ports++;
            int a, pa, b, pb;
            fl_topology_link_ends(t, l, &a, &pa, &b, &pb);
            if (!((a == n && pa == p) || (b == n && pb == p)))
                return 0;
        }
    }
    return sw == fl_topology_switch_count(t) && hosts == fl_topology_host_count(t)
           && swlinks == fl_topology_switch_link_count(t) && used_ports == 2 * links
           && fl_topology_channel_count(t) == 2 * links;
}

/* Every node's label finds it again, labels are distinct (the lookup
 * could not find two nodes for one) and below the next label. */
static int labels_consistent(const FlTopology *t)
{
    for (int n = 0; n < fl_topology_node_count(t); n++) {
        int label = fl_topology_node_label(t, n);
        if (label < 0 || label >= fl_topology_next_label(t)
            || fl_topology_find_label(t, label) != n)
            return 0;
    }
    return 1;
}

static void test_build_and_query(void)
{
    FlError err = { 0 };
    FlTopology *t = fl_topology_new();
    int s0, s1, s2, h0, l;
    CHECK(t != NULL, "new topology");
    CHECK(strcmp(fl_topology_family(t), "custom") == 0, "a new topology is custom");
    CHECK(fl_topology_spec(t) == NULL, "custom topologies have no spec");
    CHECK_INT(fl_topology_add_node(t, FL_NODE_SWITCH, 4, &s0, &err), FL_OK);
    CHECK_INT(fl_topology_add_node(t, FL_NODE_SWITCH, 4, &s1, &err), FL_OK);
    CHECK_INT(fl_topology_add_node(t, FL_NODE_HOST, 1, &h0, &err), FL_OK);
    CHECK_INT(fl_topology_add_node(t, FL_NODE_SWITCH, 2, &s2, &err), FL_OK);
    CHECK_INT(fl_topology_switch_count(t), 3);
    CHECK_INT(fl_topology_host_count(t), 1);
    CHECK_INT(fl_topology_node_rank(t, s2), 2);
    CHECK_INT(fl_topology_node_rank(t, h0), 0);

    CHECK_INT(fl_topology_connect(t, s0, 2, s1, -1, &l, &err), FL_OK);
    CHECK_INT(l, 0);
    int peer_port = -1;
    CHECK_INT(fl_topology_port_peer(t, s0, 2, &peer_port), s1);
    CHECK_INT(peer_port, 0);
    CHECK_INT(fl_topology_connect(t, h0, -1, s0, -1, &l, &err), FL_OK);
    CHECK_INT(fl_topology_host_switch(t, h0), s0);
    CHECK_INT(fl_topology_switch_degree(t, s0), 1);
    CHECK_INT(fl_topology_switch_link_count(t), 1);
    CHECK_INT(fl_topology_link_count(t), 2);

    /* Refusals name the problem and change nothing. */
    CHECK_INT(fl_topology_connect(t, s0, 2, s2, 0, NULL, &err), FL_EPORT);
    CHECK(strstr(err.message, "already connected") != NULL, "used port: %s", err.message);
    CHECK_INT(fl_topology_connect(t, s0, 9, s2, 0, NULL, &err), FL_EPORT);
    CHECK(strstr(err.message, "has no port 9") != NULL, "missing port: %s", err.message);
    CHECK_INT(fl_topology_connect(t, s1, -1, s1, -1, NULL, &err), FL_EINVAL);
    CHECK(strstr(err.message, "itself") != NULL, "self-loop: %s", err.message);
    CHECK_INT(fl_topology_connect(t, s0, -1, 99, -1, NULL, &err), FL_ENOTFOUND);
    CHECK_INT(fl_topology_add_node(t, FL_NODE_HOST, 2, NULL, &err), FL_ERANGE);
    CHECK_INT(fl_topology_add_node(t, FL_NODE_SWITCH, 0, NULL, &err), FL_ERANGE);
    CHECK_INT(fl_topology_add_node(t, FL_NODE_SWITCH, FL_MAX_PORTS + 1, NULL, &err), FL_ERANGE);
    int h1;
    fl_topology_add_node(t, FL_NODE_HOST, 1, &h1, NULL);
    CHECK_INT(fl_topology_connect(t, h0, -1, h1, -1, NULL, &err), FL_EINVAL);
    CHECK_INT(fl_topology_link_count(t), 2);
    CHECK(consistent(t), "consistent after refusals");

    /* s2 has 2 ports: fill them, then a third link has no free port. */
    CHECK_INT(fl_topology_connect(t, s2, -1, s1, -1, NULL, &err), FL_OK);
    CHECK_INT(fl_topology_connect(t, s2, -1, s0, -1, NULL, &err), FL_OK);
    CHECK_INT(fl_topology_connect(t, s2, -1, h1, -1, NULL, &err), FL_EPORT);
    CHECK(strstr(err.message, "no free port") != NULL, "full switch: %s", err.message);

    /* Shrinking ports that are in use is refused; free ones can go. */
    CHECK_INT(fl_topology_set_node_ports(t, s2, 1, &err), FL_EPORT);
    CHECK_INT(fl_topology_set_node_ports(t, s0, 3, &err), FL_OK);
    CHECK_INT(fl_topology_node_ports(t, s0), 3);
    CHECK_INT(fl_topology_set_node_ports(t, s0, 8, &err), FL_OK);
    CHECK_INT(fl_topology_port_link(t, s0, 7), -1);
    CHECK(consistent(t), "consistent after port changes");
    fl_topology_free(t);
}

static void test_family_and_copy(void)
{
    FlTopology *t = fl_topology_new();
    int a, b, dims[FL_MAX_DIMS] = { 2, 1 };
    fl_topology_add_node(t, FL_NODE_SWITCH, 2, &a, NULL);
    fl_topology_add_node(t, FL_NODE_SWITCH, 2, &b, NULL);
    fl_topology_connect(t, a, 0, b, 1, NULL, NULL);
    CHECK_INT(fl_topology_set_family(t, "mesh", 2, dims, "mesh:2x1"), FL_OK);
    fl_topology_set_coord_dims(t, 2);
    int c[2] = { 1, 0 }, got[2] = { -1, -1 };
    fl_topology_set_coords(t, b, c);
    fl_topology_get_coords(t, b, got);
    CHECK(got[0] == 1 && got[1] == 0, "coordinates kept");
    fl_topology_set_position(t, b, 3.5, -1.25);
    fl_topology_set_name(t, "pair");
    CHECK(strcmp(fl_topology_family(t), "mesh") == 0, "moving a node keeps the family");

    FlTopology *c2 = fl_topology_copy(t);
    CHECK(c2 != NULL && consistent(c2), "copy is consistent");
    double x, y;
    fl_topology_get_position(c2, b, &x, &y);
    CHECK(x == 3.5 && y == -1.25, "copy keeps positions");
    CHECK(strcmp(fl_topology_spec(c2), "mesh:2x1") == 0, "copy keeps the spec");
    CHECK(strcmp(fl_topology_name(c2), "pair") == 0, "copy keeps the name");
    int d2[FL_MAX_DIMS];
    CHECK_INT(fl_topology_family_dims(c2, d2), 2);

    /* Editing the copy leaves the original alone and makes the copy custom. */
    fl_topology_add_node(c2, FL_NODE_HOST, 1, NULL, NULL);
    CHECK(strcmp(fl_topology_family(c2), "custom") == 0 && fl_topology_spec(c2) == NULL,
          "an edit turns a generated network into a custom one");
    CHECK_INT(fl_topology_node_count(t), 2);
    CHECK(strcmp(fl_topology_family(t), "mesh") == 0, "original unchanged");
    fl_topology_free(c2);
    fl_topology_free(t);
    fl_topology_free(NULL);
}

static void test_removal_renumbers(void)
{
    /* A ring of 5 switches with a host each; remove switch 2. */
    FlTopology *t = fl_topology_new();
    for (int i = 0; i < 5; i++)
        fl_topology_add_node(t, FL_NODE_SWITCH, 3, NULL, NULL);
    for (int i = 0; i < 5; i++)
        fl_topology_connect(t, i, 0, (i + 1) % 5, 1, NULL, NULL);
    for (int i = 0; i < 5; i++) {
        int h;
        fl_topology_add_node(t, FL_NODE_HOST, 1, &h, NULL);
        fl_topology_set_position(t, h, 10.0 + i, 0);
        fl_topology_connect(t, h, 0, i, 2, NULL, NULL);
    }
    CHECK_INT(fl_topology_validate(t, NULL), FL_OK);
    CHECK_INT(fl_topology_remove_node(t, 2, NULL), FL_OK);
    CHECK(consistent(t), "consistent after removing a switch");
    CHECK_INT(fl_topology_switch_count(t), 4);
    CHECK_INT(fl_topology_switch_link_count(t), 3);
    /* The host of switch 2 is now unattached; it was node 7, now node 6. */
    CHECK_INT(fl_topology_host_switch(t, 6), -1);
    double x;
    fl_topology_get_position(t, 6, &x, NULL);
    CHECK(x == 12.0, "positions move with their nodes (x = %g)", x);
    FlError err = { 0 };
    CHECK_INT(fl_topology_validate(t, &err), FL_EDISCONNECTED);
    /* Messages name nodes by label: the host was node 7, and keeps label 7. */
    CHECK(strstr(err.message, "host 7 is not attached") != NULL, "message: %s", err.message);
    CHECK_INT(fl_topology_remove_node(t, 6, NULL), FL_OK);
    CHECK_INT(fl_topology_validate(t, &err), FL_OK); /* still a path 3-4-0-1 */
    CHECK_INT(fl_topology_disconnect(t, 0, NULL), FL_OK); /* the 0-1 link */
    CHECK_INT(fl_topology_validate(t, &err), FL_EDISCONNECTED);
    CHECK(strstr(err.message, "not connected to switch 0") != NULL, "message: %s", err.message);
    CHECK_INT(fl_topology_remove_node(t, 99, &err), FL_ENOTFOUND);
    CHECK_INT(fl_topology_disconnect(t, 99, &err), FL_ENOTFOUND);
    fl_topology_free(t);
}

static void test_validate(void)
{
    FlError err = { 0 };
    FlTopology *t = fl_topology_new();
    CHECK_INT(fl_topology_validate(t, &err), FL_EINVAL);
    CHECK(strstr(err.message, "no switches") != NULL, "empty: %s", err.message);
    fl_topology_add_node(t, FL_NODE_SWITCH, 4, NULL, NULL);
    fl_topology_add_node(t, FL_NODE_SWITCH, 4, NULL, NULL);
    fl_topology_connect(t, 0, -1, 1, -1, NULL, NULL);
    fl_topology_connect(t, 0, -1, 1, -1, NULL, NULL);
    CHECK_INT(fl_topology_validate(t, &err), FL_EINVAL);
    CHECK(strstr(err.message, "more than one link") != NULL, "parallel: %s", err.message);
    fl_topology_free(t);
}

/* A small deterministic generator, so the sequence is the same every run. */
static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(*s >> 33);
}

static void test_random_edits(void)
{
    uint64_t seed = 12345;
    FlTopology *t = fl_topology_new();
    int ok = 1, steps = 0;
    for (int i = 0; i < 4000 && ok; i++, steps++) {
        int n = fl_topology_node_count(t), l = fl_topology_link_count(t);
        switch (next(&seed) % 7) {
        case 0: case 1:
            fl_topology_add_node(t, FL_NODE_SWITCH, 1 + (int)(next(&seed) % 6), NULL, NULL);
            break;
        case 2:
            fl_topology_add_node(t, FL_NODE_HOST, 1, NULL, NULL);
            break;
        case 3: case 4:
            if (n > 1)
                fl_topology_connect(t, (int)(next(&seed) % (uint32_t)n), -1,
                                    (int)(next(&seed) % (uint32_t)n), -1, NULL, NULL);
            break;
        case 5:
            if (l > 0)
                fl_topology_disconnect(t, (int)(next(&seed) % (uint32_t)l), NULL);
            break;
        case 6:
            if (n > 0 && next(&seed) % 3 == 0)
                fl_topology_remove_node(t, (int)(next(&seed) % (uint32_t)n), NULL);
            else if (n > 0) /* often refused: the label is taken */
                fl_topology_set_node_label(t, (int)(next(&seed) % (uint32_t)n),
                                           (int)(next(&seed) % 6000), NULL);
            break;
        }
        ok = consistent(t) && labels_consistent(t);
        if (i % 500 == 0) {
            FlTopology *c = fl_topology_copy(t);
            ok = ok && c && consistent(c) && labels_consistent(c)
                 && fl_topology_link_count(c) == fl_topology_link_count(t);
            fl_topology_free(c);
        }
    }
    CHECK(ok, "invariants hold through %d random edits (%d nodes, %d links at the end)", steps,
          fl_topology_node_count(t), fl_topology_link_count(t));
    fl_topology_free(t);
}

static void test_labels(void)
{
    FlError err = { 0 };
    FlTopology *t = fl_topology_new();
    for (int i = 0; i < 10; i++) {
        int id;
        fl_topology_add_node(t, i < 5 ? FL_NODE_SWITCH : FL_NODE_HOST, i < 5 ? 3 : 1, &id, NULL);
        CHECK(fl_topology_node_label(t, id) == i, "node %d gets label %d (got %d)", id, i,
              fl_topology_node_label(t, id));
    }
    for (int i = 0; i < 5; i++)
        fl_topology_connect(t, i, 0, (i + 1) % 5, 1, NULL, NULL);
    CHECK_INT(fl_topology_next_label(t), 10);
    CHECK_INT(fl_topology_find_label(t, 7), 7);
    CHECK_INT(fl_topology_find_label(t, 10), -1);
    CHECK_INT(fl_topology_find_label(t, -3), -1);
    CHECK_INT(fl_topology_node_label(t, 10), -1);

    /* Removing switch 2 renumbers the ids above it, not the labels. */
    CHECK_INT(fl_topology_remove_node(t, 2, NULL), FL_OK);
    CHECK_INT(fl_topology_node_label(t, 2), 3);
    CHECK_INT(fl_topology_node_label(t, 8), 9);
    CHECK_INT(fl_topology_find_label(t, 2), -1);
    CHECK_INT(fl_topology_find_label(t, 3), 2);
    CHECK(labels_consistent(t), "labels consistent after a removal");

    /* A new node takes a label never used, even after the highest label
     * is removed. */
    CHECK_INT(fl_topology_remove_node(t, 8, NULL), FL_OK); /* label 9 */
    int id;
    fl_topology_add_node(t, FL_NODE_SWITCH, 4, &id, NULL);
    CHECK_INT(fl_topology_node_label(t, id), 10);
    CHECK_INT(fl_topology_find_label(t, 10), id);
    CHECK_INT(fl_topology_find_label(t, 9), -1);

    /* Disconnecting and port changes keep labels. */
    fl_topology_disconnect(t, 0, NULL);
    fl_topology_set_node_ports(t, 0, 6, NULL);
    CHECK_INT(fl_topology_node_label(t, 0), 0);
    CHECK_INT(fl_topology_node_label(t, id), 10);

    /* Setting labels: duplicates refused, the next label rises. */
    CHECK_INT(fl_topology_set_node_label(t, 0, 3, &err), FL_EEXIST);
    CHECK(strstr(err.message, "label 3 is already used") != NULL, "duplicate: %s", err.message);
    CHECK_INT(fl_topology_set_node_label(t, 0, -1, &err), FL_ERANGE);
    CHECK_INT(fl_topology_set_node_label(t, 99, 5, &err), FL_ENOTFOUND);
    CHECK_INT(fl_topology_set_node_label(t, 0, 0, &err), FL_OK);
    CHECK_INT(fl_topology_set_node_label(t, 0, 41, &err), FL_OK);
    CHECK_INT(fl_topology_find_label(t, 41), 0);
    CHECK_INT(fl_topology_find_label(t, 0), -1);
    CHECK_INT(fl_topology_next_label(t), 42);
    CHECK_INT(fl_topology_set_node_label(t, 1, 0, &err), FL_OK); /* a freed label is free */
    CHECK(labels_consistent(t), "labels consistent after relabelling");
    CHECK(strcmp(fl_topology_family(t), "custom") == 0, "still custom");

    CHECK_INT(fl_topology_set_next_label(t, 41, &err), FL_ERANGE);
    CHECK(strstr(err.message, "above every label") != NULL, "next label: %s", err.message);
    CHECK_INT(fl_topology_set_next_label(t, 100, &err), FL_OK);
    fl_topology_add_node(t, FL_NODE_HOST, 1, &id, NULL);
    CHECK_INT(fl_topology_node_label(t, id), 100);

    /* Messages about nodes that exist name their labels. */
    CHECK_INT(fl_topology_connect(t, 0, 9, 1, -1, NULL, &err), FL_EPORT);
    CHECK(strstr(err.message, "switch 41 has no port 9") != NULL, "by label: %s", err.message);

    /* Copies keep labels and the next label; the copy's index is its own. */
    FlTopology *c = fl_topology_copy(t);
    CHECK(c && labels_consistent(c), "a copy's labels are consistent");
    CHECK_INT(fl_topology_node_label(c, 0), 41);
    CHECK_INT(fl_topology_next_label(c), 101);
    CHECK_INT(fl_topology_set_node_label(c, 0, 500, NULL), FL_OK);
    CHECK_INT(fl_topology_find_label(t, 41), 0);
    CHECK_INT(fl_topology_find_label(t, 500), -1);
    fl_topology_free(c);

    /* Setting a label keeps a generated network's family. */
    FlTopology *g = from_spec("mesh:4x4");
    CHECK_INT(fl_topology_set_node_label(g, 3, 300, &err), FL_OK);
    CHECK(strcmp(fl_topology_family(g), "mesh") == 0, "relabelling keeps the family");
    fl_topology_free(g);

    /* Many nodes: the index grows and finds all of them. */
    for (int i = 0; i < 3000; i++)
        fl_topology_add_node(t, FL_NODE_SWITCH, 2, NULL, NULL);
    for (int i = 0; i < 1000; i++)
        fl_topology_remove_node(t, 3 * i % fl_topology_node_count(t), NULL);
    CHECK(labels_consistent(t), "labels consistent after 3000 additions and 1000 removals");
    fl_topology_free(t);
}

static void test_generated_labels(void)
{
    static const char *const specs[] = {
        "mesh:4x4", "torus:3x3x3,hosts=2", "hypercube:5", "ring:7", "xmesh:4x4",
        "irregular:20,ports=3,hosts=2,seed=5", "myrinet-mesh:3x4",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        FlTopology *t = from_spec(specs[i]);
        int same = 1;
        for (int n = 0; n < fl_topology_node_count(t); n++)
            same = same && fl_topology_node_label(t, n) == n;
        CHECK(same && labels_consistent(t)
                  && fl_topology_next_label(t) == fl_topology_node_count(t),
              "%s: every label is the id", specs[i]);
        fl_topology_free(t);
    }
}

/* How many links wrap, and how many of them move along each dimension. */
static int count_wraps(const FlTopology *t, int per_dim[FL_MAX_DIMS])
{
    int n = 0;
    for (int d = 0; d < FL_MAX_DIMS; d++)
        per_dim[d] = 0;
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        if (!fl_topology_link_wraps(t, l))
            continue;
        n++;
        int d = fl_topology_link_dim(t, l);
        if (d >= 0)
            per_dim[d]++;
    }
    return n;
}

/* Links whose ends are more than one step apart in some dimension. */
static int count_long(const FlTopology *t)
{
    int n = 0;
    for (int l = 0; l < fl_topology_switch_link_count(t); l++) {
        int a, b, ca[FL_MAX_DIMS], cb[FL_MAX_DIMS];
        fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
        fl_topology_get_coords(t, a, ca);
        fl_topology_get_coords(t, b, cb);
        int far = 0;
        for (int d = 0; d < fl_topology_coord_dims(t); d++)
            far |= abs(ca[d] - cb[d]) > 1;
        n += far;
    }
    return n;
}

static void test_wraps(void)
{
    int per[FL_MAX_DIMS];
    FlTopology *t = from_spec("torus:4x4");
    CHECK_INT(count_wraps(t, per), 8);
    CHECK(per[0] == 4 && per[1] == 4, "4 wrap-around links per dimension (%d, %d)", per[0],
          per[1]);
    int host_link = fl_topology_port_link(t, fl_topology_host_node(t, 0), 0);
    CHECK_INT(fl_topology_link_wraps(t, host_link), 0);
    CHECK_INT(fl_topology_link_dim(t, host_link), -1);
    CHECK_INT(fl_topology_link_wraps(t, -1), 0);
    CHECK_INT(fl_topology_link_wraps(t, 999), 0);

    /* Edited, the torus is custom but keeps its coordinates: its remaining
     * wrap-arounds are still recognised. Switch 0 at (0, 0) had two. */
    CHECK_INT(fl_topology_remove_node(t, 0, NULL), FL_OK);
    CHECK(strcmp(fl_topology_family(t), "custom") == 0, "the edited torus is custom");
    CHECK_INT(count_wraps(t, per), 6);
    /* Without the column x = 3, x spans 0..2 and no link wraps along it. */
    for (int n = fl_topology_switch_count(t) - 1; n >= 0; n--) {
        int c[FL_MAX_DIMS];
        int sw = fl_topology_switch_node(t, n);
        fl_topology_get_coords(t, sw, c);
        if (c[0] == 3)
            fl_topology_remove_node(t, sw, NULL);
    }
    CHECK_INT(count_wraps(t, per), 2);
    CHECK(per[0] == 0 && per[1] == 2, "only the y wrap-arounds of x = 1, 2 remain (%d, %d)",
          per[0], per[1]);
    fl_topology_free(t);

    t = from_spec("torus:3x4x5");
    CHECK_INT(count_wraps(t, per), 4 * 5 + 3 * 5 + 3 * 4);
    CHECK(per[0] == 20 && per[1] == 15 && per[2] == 12, "3D torus: (%d, %d, %d)", per[0], per[1],
          per[2]);
    int layer_links = 0;
    for (int l = 0; l < fl_topology_link_count(t); l++)
        layer_links += fl_topology_link_dim(t, l) == 2;
    CHECK_INT(layer_links, 3 * 4 * 5);
    fl_topology_free(t);

    t = from_spec("ring:8");
    CHECK_INT(count_wraps(t, per), 1);
    fl_topology_free(t);
    static const char *const none[] = { "mesh:4x4", "mesh:3x3x3", "line:6", "hypercube:5",
                                        "irregular:16,ports=4,hosts=1,seed=2", "myrinet-mesh:4x4" };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        t = from_spec(none[i]);
        CHECK(count_wraps(t, per) == 0, "%s has no wrap-around link", none[i]);
        fl_topology_free(t);
    }
    /* XMESH and DMESH: every link more than a step long is a wrap-around,
     * the diagonal ones included. */
    static const char *const grids[] = { "xmesh:8x8", "xmesh:4x6", "dmesh:5x7" };
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) {
        t = from_spec(grids[i]);
        int wraps = count_wraps(t, per), far = count_long(t);
        CHECK(wraps == far && wraps > 0, "%s: %d wrap-around links of %d long ones", grids[i],
              wraps, far);
        fl_topology_free(t);
    }

    /* A hand-drawn network has no coordinates: nothing wraps. */
    t = fl_topology_new();
    for (int i = 0; i < 4; i++)
        fl_topology_add_node(t, FL_NODE_SWITCH, 4, NULL, NULL);
    for (int i = 0; i < 4; i++)
        fl_topology_connect(t, i, -1, (i + 1) % 4, -1, NULL, NULL);
    CHECK_INT(count_wraps(t, per), 0);
    /* With coordinates on a line 0..3, the link 3-0 closes it. */
    fl_topology_set_coord_dims(t, 1);
    for (int i = 0; i < 4; i++)
        fl_topology_set_coords(t, i, &i);
    CHECK_INT(count_wraps(t, per), 1);
    /* Moving switch 3 to 1 shrinks the line: no link spans it any more. */
    int one = 1;
    fl_topology_set_coords(t, 3, &one);
    CHECK_INT(count_wraps(t, per), 0);
    /* At 5, switch 3 is the high end again and 3-0 wraps; 2-3 spans three
     * steps without joining the ends, so it does not. */
    int five = 5;
    fl_topology_set_coords(t, 3, &five);
    CHECK_INT(count_wraps(t, per), 1);
    CHECK_INT(fl_topology_link_wraps(t, 2), 0);
    fl_topology_free(t);
}

static void test_errors(void)
{
    CHECK(strcmp(fl_strerror(FL_OK), "success") == 0, "FL_OK text");
    CHECK(strcmp(fl_strerror(-5), "unknown error") == 0, "out of range text");
    CHECK(strcmp(fl_strerror(FL_STATUS_COUNT), "unknown error") == 0, "past the end");
    FlError err;
    CHECK_INT(fl_error_set(&err, FL_ESPEC, "bad %s %d", "thing", 7), FL_ESPEC);
    CHECK(strcmp(err.message, "bad thing 7") == 0, "formatted message");
    CHECK_INT(fl_error_set(NULL, FL_EIO, "ignored"), FL_EIO);
    fl_error_set(&err, FL_EPARSE, "'%s' is damaged (%s)", "p.flitlab",
                 "malformed schema (sqlite_x\nt\r\t\033[2J)");
    CHECK(strcmp(err.message, "'p.flitlab' is damaged (malformed schema (sqlite_x t  ?[2J))") == 0,
          "a quoted line break, tab or escape keeps the message one line: %s", err.message);
    fl_error_clear(&err);
    CHECK(err.code == FL_OK && err.message[0] == '\0', "cleared");
}

int main(void)
{
    test_build_and_query();
    test_family_and_copy();
    test_removal_renumbers();
    test_validate();
    test_random_edits();
    test_labels();
    test_generated_labels();
    test_wraps();
    test_errors();
    return tap_done();
}
