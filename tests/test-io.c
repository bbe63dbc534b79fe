/* test-io.c — topology files: JSON round trips, anynet import and export,
 * DOT output, malformed input, mutation fuzzing and atomic writes. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flitlab-io.h"
#include "tap.h"

/* ------------------------------------------------------------------------ */
/* Test networks                                                            */
/* ------------------------------------------------------------------------ */

/* A w x h mesh built by hand, with coordinates, grid positions, `hosts`
 * hosts per switch beside it, and a name that needs escaping. Its ports are
 * not numbered as the mesh generator numbers them, so it is custom. */
static FlTopology *hand_mesh(int w, int h, int hosts)
{
    FlTopology *t = fl_topology_new();
    fl_topology_set_coord_dims(t, 2);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int id, c[2] = { x, y };
            fl_topology_add_node(t, FL_NODE_SWITCH, 4 + hosts, &id, NULL);
            fl_topology_set_coords(t, id, c);
            fl_topology_set_position(t, id, x, y);
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            if (x + 1 < w)
                fl_topology_connect(t, y * w + x, 0, y * w + x + 1, 1, NULL, NULL);
            if (y + 1 < h)
                fl_topology_connect(t, y * w + x, 2, (y + 1) * w + x, 3, NULL, NULL);
        }
    for (int s = 0; s < w * h; s++)
        for (int k = 0; k < hosts; k++) {
            int id;
            double x, y;
            fl_topology_add_node(t, FL_NODE_HOST, 1, &id, NULL);
            fl_topology_connect(t, s, 4 + k, id, 0, NULL, NULL);
            fl_topology_get_position(t, s, &x, &y);
            fl_topology_set_position(t, id, x + 0.3, y - 0.3 + 0.1 * k);
        }
    fl_topology_set_name(t, "a \"quoted\" mesh \\ \xC3\xA9t\xC3\xA9\n");
    return t;
}

/* A custom network with awkward details: free ports, links listed out of
 * port order, a host on a high port, positions that need 17 digits, a
 * negative zero, and coordinates in three dimensions. */
static FlTopology *hand_custom(void)
{
    FlTopology *t = fl_topology_new();
    fl_topology_set_coord_dims(t, 3);
    int s[4], h[3];
    for (int i = 0; i < 4; i++) {
        int c[3] = { i, -i, 7 * i };
        fl_topology_add_node(t, FL_NODE_SWITCH, 6, &s[i], NULL);
        fl_topology_set_coords(t, s[i], c);
    }
    for (int i = 0; i < 3; i++)
        fl_topology_add_node(t, FL_NODE_HOST, 1, &h[i], NULL);
    fl_topology_connect(t, s[2], 5, s[0], 3, NULL, NULL);
    fl_topology_connect(t, s[0], 0, s[1], 1, NULL, NULL);
    fl_topology_connect(t, s[1], 2, s[3], 0, NULL, NULL);
    fl_topology_connect(t, s[3], 1, s[2], 0, NULL, NULL);
    fl_topology_connect(t, h[0], 0, s[0], 5, NULL, NULL);
    fl_topology_connect(t, s[3], 4, h[1], 0, NULL, NULL);
    fl_topology_connect(t, h[2], 0, s[3], 5, NULL, NULL);
    fl_topology_set_position(t, s[0], 0.1, 1.0 / 3.0);
    fl_topology_set_position(t, s[1], -0.0, 2.5e-7);
    fl_topology_set_position(t, s[2], 123456.789, -1e9);
    fl_topology_set_position(t, s[3], 2.0 / 3.0, 1e-300);
    fl_topology_set_position(t, h[0], -5, 5);
    fl_topology_set_name(t, "custom");
    return t;
}

/* ------------------------------------------------------------------------ */
/* Comparisons                                                              */
/* ------------------------------------------------------------------------ */

/* Everything a JSON file keeps. Positions compare exactly, but -0 and 0 are
 * equal (JSON has no negative zero). Returns 1 if equal; says what differs. */
static int same_topology(const FlTopology *a, const FlTopology *b, const char *what)
{
    char why[200] = "";
    int n = fl_topology_node_count(a), dims = fl_topology_coord_dims(a);
    if (n != fl_topology_node_count(b))
        snprintf(why, sizeof why, "node count %d vs %d", n, fl_topology_node_count(b));
    else if (dims != fl_topology_coord_dims(b))
        snprintf(why, sizeof why, "coord_dims");
    else if (fl_topology_link_count(a) != fl_topology_link_count(b))
        snprintf(why, sizeof why, "link count");
    else if (strcmp(fl_topology_name(a), fl_topology_name(b)))
        snprintf(why, sizeof why, "name");
    else if (strcmp(fl_topology_family(a), fl_topology_family(b)))
        snprintf(why, sizeof why, "family %s vs %s", fl_topology_family(a),
                 fl_topology_family(b));
    else if (!fl_topology_spec(a) != !fl_topology_spec(b)
             || (fl_topology_spec(a) && strcmp(fl_topology_spec(a), fl_topology_spec(b))))
        snprintf(why, sizeof why, "spec");
    if (!*why) {
        int da[FL_MAX_DIMS], db[FL_MAX_DIMS];
        int na = fl_topology_family_dims(a, da), nb = fl_topology_family_dims(b, db);
        if (na != nb || memcmp(da, db, sizeof(int) * (size_t)na))
            snprintf(why, sizeof why, "family dims");
    }
    for (int i = 0; i < n && !*why; i++) {
        int ca[FL_MAX_DIMS], cb[FL_MAX_DIMS];
        double xa, ya, xb, yb;
        fl_topology_get_coords(a, i, ca);
        fl_topology_get_coords(b, i, cb);
        fl_topology_get_position(a, i, &xa, &ya);
        fl_topology_get_position(b, i, &xb, &yb);
        if (fl_topology_node_kind(a, i) != fl_topology_node_kind(b, i)
            || fl_topology_node_ports(a, i) != fl_topology_node_ports(b, i))
            snprintf(why, sizeof why, "node %d kind or ports", i);
        else if (memcmp(ca, cb, sizeof(int) * (size_t)dims))
            snprintf(why, sizeof why, "node %d coords", i);
        else if (xa != xb || ya != yb)
            snprintf(why, sizeof why, "node %d position (%.17g, %.17g) vs (%.17g, %.17g)", i,
                     xa, ya, xb, yb);
        else if (fl_topology_node_label(a, i) != fl_topology_node_label(b, i))
            snprintf(why, sizeof why, "node %d label %d vs %d", i, fl_topology_node_label(a, i),
                     fl_topology_node_label(b, i));
    }
    if (!*why && fl_topology_next_label(a) != fl_topology_next_label(b))
        snprintf(why, sizeof why, "next label %d vs %d", fl_topology_next_label(a),
                 fl_topology_next_label(b));
    for (int l = 0; l < fl_topology_link_count(a) && !*why; l++) {
        int ea[4], eb[4];
        fl_topology_link_ends(a, l, &ea[0], &ea[1], &ea[2], &ea[3]);
        fl_topology_link_ends(b, l, &eb[0], &eb[1], &eb[2], &eb[3]);
        if (memcmp(ea, eb, sizeof ea))
            snprintf(why, sizeof why, "link %d ends", l);
    }
    return CHECK(!*why, "%s: same topology after the round trip%s%s", what,
                 *why ? ": differs in " : "", why);
}

/* Sorted "lo hi" rank pairs of the switch links, for comparing switch graphs
 * whose link order differs. */
static int cmp_pair(const void *x, const void *y)
{
    const int *a = x, *b = y;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

static int *switch_pairs(const FlTopology *t, int *count)
{
    int n = 0, *pairs = malloc(sizeof(int) * 2 * (size_t)(fl_topology_link_count(t) + 1));
    for (int l = 0; l < fl_topology_link_count(t); l++) {
        int a, b;
        fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
        if (fl_topology_node_kind(t, a) != FL_NODE_SWITCH
            || fl_topology_node_kind(t, b) != FL_NODE_SWITCH)
            continue;
        int ra = fl_topology_node_rank(t, a), rb = fl_topology_node_rank(t, b);
        pairs[2 * n] = ra < rb ? ra : rb;
        pairs[2 * n + 1] = ra < rb ? rb : ra;
        n++;
    }
    qsort(pairs, (size_t)n, 2 * sizeof(int), cmp_pair);
    *count = n;
    return pairs;
}

/* Sum of switch-to-switch distances over all ordered pairs. */
static long long bfs_sum(const FlTopology *t)
{
    int ns = fl_topology_switch_count(t);
    int *dist = malloc(sizeof(int) * (size_t)(ns + 1));
    long long sum = 0;
    for (int r = 0; r < ns; r++) {
        fl_topology_bfs(t, r, dist, NULL);
        for (int k = 0; k < ns; k++)
            sum += dist[k];
    }
    free(dist);
    return sum;
}

/* What an anynet file keeps: the switch graph by rank, and the switch of
 * every host by rank; plus the distances and metrics that follow. */
static void same_switch_graph(const FlTopology *a, const FlTopology *b, const char *what)
{
    int na, nb;
    int *pa = switch_pairs(a, &na), *pb = switch_pairs(b, &nb);
    CHECK(fl_topology_switch_count(a) == fl_topology_switch_count(b)
              && fl_topology_host_count(a) == fl_topology_host_count(b),
          "%s: same switch and host counts (%d/%d vs %d/%d)", what,
          fl_topology_switch_count(a), fl_topology_host_count(a), fl_topology_switch_count(b),
          fl_topology_host_count(b));
    CHECK(na == nb && memcmp(pa, pb, sizeof(int) * 2 * (size_t)na) == 0,
          "%s: same links between the same switch ranks (%d vs %d links)", what, na, nb);
    free(pa);
    free(pb);
    int hosts_ok = fl_topology_host_count(a) == fl_topology_host_count(b);
    for (int h = 0; h < fl_topology_host_count(a) && hosts_ok; h++) {
        int sa = fl_topology_host_switch(a, fl_topology_host_node(a, h));
        int sb = fl_topology_host_switch(b, fl_topology_host_node(b, h));
        hosts_ok = fl_topology_node_rank(a, sa) == fl_topology_node_rank(b, sb);
    }
    CHECK(hosts_ok, "%s: every host on the switch of the same rank", what);
    CHECK_INT(bfs_sum(a), bfs_sum(b));

    FlMetrics ma, mb;
    FlError err;
    if (fl_metrics_compute(a, NULL, &ma, &err) == FL_OK) {
        int rc = fl_metrics_compute(b, NULL, &mb, &err);
        CHECK(rc == FL_OK, "%s: metrics of the imported network: %s", what,
              rc ? err.message : "ok");
        if (rc == FL_OK) {
            CHECK(ma.links == mb.links && ma.degree_min == mb.degree_min
                      && ma.degree_max == mb.degree_max && ma.diameter == mb.diameter
                      && ma.mean_distance == mb.mean_distance
                      && ma.bisection_width == mb.bisection_width
                      && ma.throughput_bound == mb.throughput_bound,
                  "%s: same metrics (diameter %d vs %d, bisection %d vs %d)", what,
                  ma.diameter, mb.diameter, ma.bisection_width, mb.bisection_width);
            fl_metrics_clear(&mb);
        }
        fl_metrics_clear(&ma);
    }
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                              */
/* ------------------------------------------------------------------------ */

/* JSON -> read -> JSON gives the same bytes and the same topology. */
static void json_round_trip(const FlTopology *t, const char *what)
{
    FlError err;
    char *first = fl_io_write_json_string(t, &err);
    if (!CHECK(first != NULL, "%s: JSON written (%s)", what, first ? "ok" : err.message))
        return;
    FlTopology *back = NULL;
    int rc = fl_io_read_json_string(first, strlen(first), &back, &err);
    if (CHECK(rc == FL_OK, "%s: JSON read back (%s)", what, rc ? err.message : "ok")) {
        same_topology(t, back, what);
        char *second = fl_io_write_json_string(back, &err);
        CHECK(second && strcmp(first, second) == 0, "%s: JSON -> read -> JSON gives the same bytes",
              what);
        free(second);
    }
    fl_topology_free(back);
    free(first);
}

static void anynet_round_trip(const FlTopology *t, const char *what)
{
    FlError err;
    char *text = fl_io_write_string(t, FL_FORMAT_ANYNET, &err);
    if (!CHECK(text != NULL, "%s: anynet written (%s)", what, text ? "ok" : err.message))
        return;
    FlTopology *back = NULL;
    int rc = fl_io_read_anynet_string(text, strlen(text), &back, &err);
    if (CHECK(rc == FL_OK, "%s: anynet read back (%s)", what, rc ? err.message : "ok")) {
        same_switch_graph(t, back, what);
        /* The export of the import is the export: port order only changes
         * the order within a line, and the writer follows port order. */
        char *again = fl_io_write_string(back, FL_FORMAT_ANYNET, &err);
        FlTopology *back2 = NULL;
        CHECK(again && fl_io_read_anynet_string(again, strlen(again), &back2, &err) == FL_OK,
              "%s: anynet written and read a second time", what);
        if (back2)
            same_switch_graph(back, back2, what);
        fl_topology_free(back2);
        free(again);
    }
    fl_topology_free(back);
    free(text);
}

static void test_hand_round_trips(void)
{
    FlTopology *mesh = hand_mesh(4, 3, 2);
    FlTopology *custom = hand_custom();
    FlTopology *empty = fl_topology_new();
    json_round_trip(mesh, "hand mesh 4x3");
    json_round_trip(custom, "hand custom");
    json_round_trip(empty, "empty network");
    anynet_round_trip(mesh, "hand mesh 4x3");

    /* The custom network has an unattached switch port order that differs
     * from the file's order of appearance, and a free host: anynet refuses
     * only what it cannot hold. */
    FlError err;
    int h;
    fl_topology_add_node(custom, FL_NODE_HOST, 1, &h, NULL);
    char *text = fl_io_write_string(custom, FL_FORMAT_ANYNET, &err);
    CHECK(!text && err.code == FL_EUNSUPPORTED && strstr(err.message, "not attached"),
          "anynet refuses an unattached host: %s", err.message);
    free(text);
    fl_topology_remove_node(custom, h, NULL);
    anynet_round_trip(custom, "hand custom");

    fl_topology_set_name(custom, "bad \xff name");
    text = fl_io_write_json_string(custom, &err);
    CHECK(!text && err.code == FL_EINVAL && strstr(err.message, "not valid UTF-8"),
          "JSON refuses a name that is not UTF-8: %s", err.message);
    free(text);

    fl_topology_connect(custom, 0, -1, 1, -1, NULL, NULL);
    text = fl_io_write_string(custom, FL_FORMAT_ANYNET, &err);
    CHECK(!text && err.code == FL_EUNSUPPORTED && strstr(err.message, "parallel"),
          "anynet refuses parallel links: %s", err.message);
    free(text);
    text = fl_io_write_string(empty, FL_FORMAT_ANYNET, &err);
    CHECK(!text && err.code == FL_EUNSUPPORTED, "anynet refuses a network without switches: %s",
          err.message);
    free(text);
    fl_topology_free(mesh);
    fl_topology_free(custom);
    fl_topology_free(empty);
}

/* Labels: an edited network keeps them through a file, which says version
 * 2; one without labels of its own stays version 1. Formats that number
 * nodes densely (anynet, DOT) write ids. */
static void test_labels(void)
{
    FlError err;
    FlTopology *t = NULL;
    fl_topology_from_spec("mesh:8x8,hosts=0", &t, &err);
    char *text = fl_io_write_json_string(t, &err);
    CHECK(text && strstr(text, "\"version\": 1,") && !strstr(text, "label"),
          "a generated network is written as version 1, without labels");
    free(text);

    /* The fault demo: switch 9 goes, 10..63 keep their numbers. */
    fl_topology_remove_node(t, 9, NULL);
    text = fl_io_write_json_string(t, &err);
    CHECK(text && strstr(text, "\"version\": 2,") && strstr(text, "\"label\": 10}")
              && !strstr(text, "next_label"),
          "an edited network is written as version 2 with its labels");
    FlTopology *back = NULL;
    int rc = fl_io_read_json_string(text, strlen(text), &back, &err);
    CHECK(rc == FL_OK, "and reads back: %s", rc ? err.message : "ok");
    if (back) {
        CHECK_INT(fl_topology_node_label(back, 9), 10);
        CHECK_INT(fl_topology_find_label(back, 63), 62);
        CHECK_INT(fl_topology_find_label(back, 9), -1);
        CHECK_INT(fl_topology_next_label(back), 64);
    }
    fl_topology_free(back);
    free(text);
    json_round_trip(t, "mesh without switch 9");

    /* Deleting the highest label keeps it used: next_label is written. */
    fl_topology_remove_node(t, fl_topology_find_label(t, 63), NULL);
    text = fl_io_write_json_string(t, &err);
    CHECK(text && strstr(text, "\"next_label\": 64,"), "next_label is written when needed");
    rc = fl_io_read_json_string(text, strlen(text), &back, &err);
    if (CHECK(rc == FL_OK, "and read: %s", rc ? err.message : "ok")) {
        int id;
        fl_topology_add_node(back, FL_NODE_SWITCH, 4, &id, NULL);
        CHECK_INT(fl_topology_node_label(back, id), 64);
    }
    fl_topology_free(back);
    free(text);
    json_round_trip(t, "mesh without switches 9 and 63");

    /* anynet keeps the switch graph by rank, whatever the labels (on a
     * network small enough for an exact bisection: METIS's cut may depend
     * on the order the import numbers ports in). */
    FlTopology *small = NULL;
    fl_topology_from_spec("mesh:4x4", &small, &err);
    fl_topology_remove_node(small, fl_topology_host_node(small, 5), NULL);
    fl_topology_remove_node(small, 5, NULL);
    anynet_round_trip(small, "mesh:4x4 without switch 5");
    int h;
    fl_topology_add_node(small, FL_NODE_HOST, 1, &h, NULL);
    char *refused = fl_io_write_string(small, FL_FORMAT_ANYNET, &err);
    CHECK(!refused && strstr(err.message, "host 32 is not attached"),
          "anynet's refusal names the new host by its label: %s", err.message);
    free(refused);
    fl_topology_free(small);
    text = fl_io_write_string(t, FL_FORMAT_DOT, &err);
    CHECK(text && strstr(text, "n9 [shape=box, label=\"s9\"") != NULL,
          "DOT numbers nodes densely, by id and rank");
    free(text);

    /* Labels in any order, and a node without one takes its index. */
    static const char shuffled[] =
        "{\"format\": \"flitlab-topology\", \"version\": 2, \"nodes\": ["
        "{\"kind\": \"switch\", \"ports\": 2, \"label\": 5},"
        "{\"kind\": \"switch\", \"ports\": 2, \"label\": 0},"
        "{\"kind\": \"switch\", \"ports\": 2}], \"links\": [[0, 0, 1, 0], [1, 1, 2, 0]]}";
    rc = fl_io_read_json_string(shuffled, strlen(shuffled), &back, &err);
    if (CHECK(rc == FL_OK, "labels in any order: %s", rc ? err.message : "ok")) {
        CHECK(fl_topology_node_label(back, 0) == 5 && fl_topology_node_label(back, 1) == 0
                  && fl_topology_node_label(back, 2) == 2,
              "labels 5, 0 and the index 2");
        CHECK_INT(fl_topology_next_label(back), 6);
        json_round_trip(back, "labels in any order");
        fl_topology_free(back);
    }
    fl_topology_free(t);
}

/* Every generator family, through both formats that keep structure. */
static const char *const family_specs[] = {
    "mesh:4x4", "torus:8x8", "torus:3x3x3", "hypercube:5", "ring:8", "line:5", "xmesh:8x8",
    "dmesh:7x7", "irregular:64,ports=4,hosts=4,seed=3", "myrinet-line:6", "myrinet-mesh:4x8",
};

static void test_families(void)
{
    for (size_t i = 0; i < sizeof family_specs / sizeof *family_specs; i++) {
        const char *spec = family_specs[i];
        FlTopology *t = NULL;
        FlError err;
        int rc = fl_topology_from_spec(spec, &t, &err);
        if (!CHECK(rc == FL_OK, "generate %s: %s", spec, rc ? err.message : "ok"))
            continue;
        CHECK(strcmp(fl_topology_family(t), "custom") != 0, "%s has a family", spec);
        json_round_trip(t, spec);
        anynet_round_trip(t, spec);
        fl_topology_free(t);
    }
}

/* Writes t as JSON, reads it back and checks the family of the copy. */
static void check_family_after_json(const FlTopology *t, const char *want, const char *what)
{
    FlTopology *back = NULL;
    FlError err;
    char *text = fl_io_write_json_string(t, &err);
    int rc = text ? fl_io_read_json_string(text, strlen(text), &back, &err) : err.code;
    CHECK(rc == FL_OK && strcmp(fl_topology_family(back), want) == 0
              && (strcmp(want, "custom") == 0) == (fl_topology_spec(back) == NULL),
          "%s: read back as %s (got %s)", what, want,
          rc ? err.message : fl_topology_family(back));
    fl_topology_free(back);
    free(text);
}

/* A file keeps its family only while its spec still generates its network. */
static void test_family_kept(void)
{
    FlTopology *t = NULL;
    if (!CHECK(fl_topology_from_spec("ring:8", &t, NULL) == FL_OK, "generate ring:8"))
        return;
    int dims[1] = { 8 }, wrong[1] = { 9 }, huge[1] = { 1000000 };

    /* Moving nodes and naming the network are presentation. */
    fl_topology_set_position(t, 3, 10.5, -2);
    fl_topology_set_name(t, "moved");
    check_family_after_json(t, "ring", "a ring with a moved node");

    /* A file edited by hand: a link gone, the family still claimed. */
    FlTopology *c = fl_topology_copy(t);
    fl_topology_set_family(c, "custom", 0, NULL, NULL);
    fl_topology_disconnect(c, 0, NULL);
    fl_topology_set_family(c, "ring", 1, dims, "ring:8");
    check_family_after_json(c, "custom", "a ring with a link removed by hand");
    fl_topology_free(c);

    c = fl_topology_copy(t);
    fl_topology_set_family(c, "ring", 1, wrong, "ring:8");
    check_family_after_json(c, "custom", "family_dims that disagree with the spec");
    fl_topology_set_family(c, "blob", 1, dims, "blob:8");
    check_family_after_json(c, "custom", "a family this version does not know");
    fl_topology_set_family(c, "ring", 1, huge, "ring:1000000");
    check_family_after_json(c, "custom", "a spec far bigger than the file");
    fl_topology_set_family(c, "ring", 1, dims, NULL);
    check_family_after_json(c, "custom", "a family without a spec");
    fl_topology_free(c);
    fl_topology_free(t);
}

/* The writer's exact bytes for a small network are part of the format:
 * compare with the golden files in tests/data/io. */
static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static const char *data_dir(void)
{
    const char *src = getenv("FLITLAB_SOURCE_DIR");
    static char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/data/io", src ? src : ".");
    return dir;
}

static void check_golden(const FlTopology *t, FlFileFormat f, const char *file)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", data_dir(), file);
    char *want = slurp(path, NULL);
    char *got = fl_io_write_string(t, f, NULL);
    CHECK(want && got && strcmp(want, got) == 0, "%s output matches %s%s", fl_io_format_name(f),
          path, want ? "" : " (missing)");
    if (want && got && strcmp(want, got) != 0)
        fprintf(stderr, "--- got:\n%s", got);
    free(want);
    free(got);
}

/* Two switches and a host: the smallest network with every kind of line. */
static FlTopology *tiny(void)
{
    FlTopology *t = fl_topology_new();
    fl_topology_add_node(t, FL_NODE_SWITCH, 3, NULL, NULL);
    fl_topology_add_node(t, FL_NODE_SWITCH, 2, NULL, NULL);
    fl_topology_add_node(t, FL_NODE_HOST, 1, NULL, NULL);
    fl_topology_connect(t, 0, 1, 1, 0, NULL, NULL);
    fl_topology_connect(t, 2, 0, 0, 2, NULL, NULL);
    fl_topology_set_position(t, 1, 1.5, 0);
    fl_topology_set_position(t, 2, -0.25, 0.5);
    fl_topology_set_name(t, "tiny");
    return t;
}

static void test_golden(void)
{
    FlTopology *t = tiny();
    check_golden(t, FL_FORMAT_JSON, "tiny.json");
    check_golden(t, FL_FORMAT_DOT, "tiny.dot");
    check_golden(t, FL_FORMAT_ANYNET, "tiny.anynet");
    fl_topology_free(t);

    /* The DOT essentials, independently of the golden file. */
    t = tiny();
    char *dot = fl_io_write_string(t, FL_FORMAT_DOT, NULL);
    CHECK(dot && strncmp(dot, "graph \"tiny\" {\n", 15) == 0, "DOT is an undirected graph");
    CHECK(dot && strstr(dot, "  n0 [shape=box, label=\"s0\", pos=\"0,0!\"];\n"),
          "DOT: switch 0 is a box at the origin");
    CHECK(dot && strstr(dot, "  n1 [shape=box, label=\"s1\", pos=\"108,0!\"];\n"),
          "DOT: switch 1 is 1.5 units = 108 points to the right");
    CHECK(dot && strstr(dot, "n2 [shape=ellipse") && strstr(dot, "label=\"h0\", pos=\"-18,-36!\"]"),
          "DOT: the host is a small ellipse, y flipped");
    CHECK(dot && strstr(dot, "  n0 -- n1 [taillabel=\"1\", headlabel=\"0\"];\n"),
          "DOT: the switch link with its ports");
    CHECK(dot && strstr(dot, "  n2 -- n0 [taillabel=\"0\", headlabel=\"2\"];\n"),
          "DOT: the host link with its ports");
    CHECK(dot && dot[strlen(dot) - 2] == '}', "DOT ends with the closing brace");
    free(dot);

    /* A hand-written anynet file in BookSim's own style: links listed from
     * one end only, nodes before routers, a latency. */
    char path[4200];
    snprintf(path, sizeof path, "%s/booksim-style.anynet", data_dir());
    FlTopology *b = NULL;
    FlError err;
    int rc = fl_io_read_file(path, &b, &err);
    if (CHECK(rc == FL_OK, "read %s: %s", path, rc ? err.message : "ok")) {
        CHECK_INT(fl_topology_switch_count(b), 3);
        CHECK_INT(fl_topology_host_count(b), 9);
        CHECK_INT(fl_topology_switch_link_count(b), 3);
        /* Router 2's ports: nodes 6, 7, 8, then router 1, router 0; router
         * 0's: nodes 0, 1, 2, router 1, and router 2 from line 3. */
        CHECK_INT(fl_topology_node_ports(b, 2), 5);
        CHECK_INT(fl_topology_port_peer(b, 2, 3, NULL), 1);
        CHECK_INT(fl_topology_port_peer(b, 2, 4, NULL), 0);
        CHECK_INT(fl_topology_port_peer(b, 0, 3, NULL), 1);
        CHECK_INT(fl_topology_port_peer(b, 0, 4, NULL), 2);
        CHECK_INT(fl_topology_host_switch(b, 3 + 4), 1);
        CHECK(fl_topology_validate(b, NULL) == FL_OK, "the imported network is valid");
    }
    fl_topology_free(b);
    fl_topology_free(t);

    /* A file written by Flitlab 0.1.0 from ring:4,hosts=2 must keep reading
     * as that ring. If the ring generator changes on purpose, old files read
     * as custom networks: regenerate this one and say so in the news. */
    snprintf(path, sizeof path, "%s/ring-4.json", data_dir());
    b = NULL;
    rc = fl_io_read_file(path, &b, &err);
    if (CHECK(rc == FL_OK, "read %s: %s", path, rc ? err.message : "ok")) {
        CHECK_INT(fl_topology_switch_count(b), 4);
        CHECK_INT(fl_topology_host_count(b), 8);
        CHECK(strcmp(fl_topology_family(b), "ring") == 0 && fl_topology_spec(b)
                  && strcmp(fl_topology_spec(b), "ring:4,hosts=2") == 0,
              "ring-4.json still reads as ring:4,hosts=2 (family %s)", fl_topology_family(b));
    }
    fl_topology_free(b);
}

/* ------------------------------------------------------------------------ */
/* Malformed input                                                          */
/* ------------------------------------------------------------------------ */

typedef struct BadInput {
    FlFileFormat format;
    const char *text;
    int status;
    const char *message;   /* a substring of the error message */
} BadInput;

#define HEAD "{\"format\": \"flitlab-topology\", \"version\": 1, "
#define TWO_SWITCHES \
    "\"nodes\": [{\"kind\": \"switch\", \"ports\": 2}, {\"kind\": \"switch\", \"ports\": 2}], "

/* clang-format off: one bad input and its message per entry */
static const BadInput bad_inputs[] = {
    { FL_FORMAT_JSON, "", FL_EPARSE, "line 1, column 0" },
    { FL_FORMAT_JSON, "{\"format\": \"flitlab-topology\",\n \"version\": 1,,}", FL_EPARSE,
      "line 2, column 15" },
    { FL_FORMAT_JSON, "[1, 2]", FL_EPARSE, "not an object" },
    { FL_FORMAT_JSON, "{\"version\": 1}", FL_EPARSE, "\"format\" field is missing" },
    { FL_FORMAT_JSON, "{\"format\": \"other\", \"version\": 1}", FL_EPARSE, "format: must be" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [], \"links\": []} trailing", FL_EPARSE, "end of file expected" },
    { FL_FORMAT_JSON, "{\"format\": \"flitlab-topology\", \"version\": 3, \"nodes\": 7}",
      FL_EVERSION,
      "written by a newer Flitlab (topology format version 3; this version reads up to 2)" },
    { FL_FORMAT_JSON, "{\"format\": \"flitlab-topology\", \"version\": \"1\"}", FL_EPARSE,
      "version: must be a positive integer" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [], \"nodes\": [], \"links\": []}", FL_EPARSE,
      "duplicate object key" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [], \"links\": [], \"colour\": 1}", FL_EPARSE,
      "unknown field \"colour\"" },
    { FL_FORMAT_JSON, HEAD "\"links\": []}", FL_EPARSE, "nodes: missing" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [{\"kind\": \"switch\", \"ports\": 2, \"label\": -1}], "
      "\"links\": []}", FL_EPARSE, "nodes[0].label: must be an integer from 0" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [{\"kind\": \"switch\", \"ports\": 2, \"label\": \"a\"}], "
      "\"links\": []}", FL_EPARSE, "nodes[0].label: must be an integer from 0" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [{\"kind\": \"switch\", \"ports\": 2, \"label\": 1}, "
      "{\"kind\": \"switch\", \"ports\": 2}], \"links\": []}", FL_EPARSE,
      "nodes[1]: label 1 is already the label of nodes[0] "
      "(a node without a label takes its index)" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [{\"kind\": \"switch\", \"ports\": 2, \"label\": 4}, "
      "{\"kind\": \"switch\", \"ports\": 2, \"label\": 4}], \"links\": []}", FL_EPARSE,
      "nodes[1]: label 4 is already the label of nodes[0]" },
    { FL_FORMAT_JSON, HEAD "\"next_label\": 3, \"nodes\": [{\"kind\": \"switch\", \"ports\": 2, "
      "\"label\": 3}], \"links\": []}", FL_EPARSE,
      "next_label: must be above every label (3 is not above 3)" },
    { FL_FORMAT_JSON, HEAD "\"next_label\": -2, \"nodes\": [], \"links\": []}", FL_EPARSE,
      "next_label: must be an integer from 0" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": {}, \"links\": []}", FL_EPARSE, "nodes: must be an array" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [{\"kind\": \"router\", \"ports\": 2}], \"links\": []}",
      FL_EPARSE, "nodes[0].kind: must be \"switch\" or \"host\"" },
    { FL_FORMAT_JSON,
      HEAD "\"nodes\": [{\"kind\": \"switch\", \"ports\": 1}, {\"kind\": \"switch\"}, "
           "{\"kind\": \"switch\", \"ports\": 257}], \"links\": []}",
      FL_EPARSE, "nodes[1].ports: must be an integer from 1 to 256" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [{\"kind\": \"switch\", \"ports\": 2.0}], \"links\": []}",
      FL_EPARSE, "nodes[0].ports: must be an integer from 1 to 256" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [{\"kind\": \"host\", \"ports\": 2}], \"links\": []}",
      FL_EPARSE, "nodes[0].ports: a host has exactly 1 port" },
    { FL_FORMAT_JSON,
      HEAD "\"nodes\": [{\"kind\": \"switch\", \"ports\": 2, \"pos\": [0, 1e999]}], \"links\": []}",
      FL_EPARSE, "real number overflow" },
    { FL_FORMAT_JSON,
      HEAD "\"nodes\": [{\"kind\": \"switch\", \"ports\": 2, \"pos\": [0, 2e9]}], \"links\": []}",
      FL_EPARSE, "nodes[0].pos: must be finite and within +-1e9" },
    { FL_FORMAT_JSON,
      HEAD "\"nodes\": [{\"kind\": \"switch\", \"ports\": 2, \"pos\": [0]}], \"links\": []}",
      FL_EPARSE, "nodes[0].pos: must be an array of two numbers" },
    { FL_FORMAT_JSON,
      HEAD "\"coord_dims\": 2, \"nodes\": [{\"kind\": \"switch\", \"ports\": 2, \"coords\": [1]}], "
           "\"links\": []}",
      FL_EPARSE, "nodes[0].coords: must be an array of coord_dims (2) integers" },
    { FL_FORMAT_JSON, HEAD "\"coord_dims\": 4, \"nodes\": [], \"links\": []}", FL_EPARSE,
      "coord_dims: must be an integer from 0 to 3" },
    { FL_FORMAT_JSON, HEAD TWO_SWITCHES "\"links\": [[0, 0, 1, 0], [0, 1, 12, 1]]}", FL_EPARSE,
      "links[1]: node 12 does not exist (the file has 2 nodes)" },
    { FL_FORMAT_JSON, HEAD TWO_SWITCHES "\"links\": [[0, 0, 1, 0], [1, 0, 0, 1]]}", FL_EPARSE,
      "links[1]: port 0 of node 1 is already used by links[0]" },
    { FL_FORMAT_JSON, HEAD TWO_SWITCHES "\"links\": [[0, 2, 1, 0]]}", FL_EPARSE,
      "links[0]: node 0 has no port 2 (it has 2)" },
    { FL_FORMAT_JSON, HEAD TWO_SWITCHES "\"links\": [[0, 0, 0, 1]]}", FL_EPARSE,
      "links[0]: links node 0 to itself" },
    { FL_FORMAT_JSON, HEAD TWO_SWITCHES "\"links\": [[0, -1, 1, 0]]}", FL_EPARSE,
      "links[0][1]: must be a port number" },
    { FL_FORMAT_JSON, HEAD TWO_SWITCHES "\"links\": [[0, 0, 1]]}", FL_EPARSE,
      "links[0]: must be an array [node, port, node, port]" },
    { FL_FORMAT_JSON,
      HEAD "\"nodes\": [{\"kind\": \"host\"}, {\"kind\": \"host\"}], \"links\": [[0, 0, 1, 0]]}",
      FL_EPARSE, "links[0]: joins two hosts" },
    { FL_FORMAT_JSON, HEAD "\"spec\": \"mesh:2x2\", \"nodes\": [], \"links\": []}", FL_EPARSE,
      "spec: must be null for a custom network" },
    { FL_FORMAT_JSON, HEAD "\"family\": \"Mesh!\", \"nodes\": [], \"links\": []}", FL_EPARSE,
      "family: must be a family name" },
    { FL_FORMAT_JSON, HEAD "\"name\": 5, \"nodes\": [], \"links\": []}", FL_EPARSE,
      "name: must be a string, not an integer" },
    { FL_FORMAT_JSON, HEAD "\"name\": \"a\\u0000b\", \"nodes\": [], \"links\": []}", FL_EPARSE,
      "\\u0000 is not allowed" },
    { FL_FORMAT_JSON, HEAD "\"nodes\": [], \"links\": [], \"x\": 123456789012345678901234567890}",
      FL_EPARSE, "too big integer" },

    { FL_FORMAT_ANYNET, "", FL_EPARSE, "names no router" },
    { FL_FORMAT_ANYNET, "\n  \n\t\n", FL_EPARSE, "names no router" },
    { FL_FORMAT_ANYNET, "router 0 router 1\n# a comment\n", FL_EPARSE,
      "line 2: a line starts with \"router\" or \"node\", not \"#\"" },
    { FL_FORMAT_ANYNET, "router 0 router 1\nrouter 1 router 5\n", FL_EPARSE,
      "line 2: router 5 is named, but router 2 is never defined" },
    { FL_FORMAT_ANYNET, "router 0 node 0\nrouter 1 node 0\nrouter 0 router 1\n", FL_EPARSE,
      "line 2: node 0 is attached to router 1 here and to router 0 on line 1" },
    { FL_FORMAT_ANYNET, "router 0 router 1\nrouter 1 router 1\n", FL_EPARSE,
      "line 2: router 1 is linked to itself" },
    { FL_FORMAT_ANYNET, "router 0 router x1\n", FL_EPARSE,
      "line 1: \"x1\" is not a router id" },
    { FL_FORMAT_ANYNET, "router 0 router 7x\n", FL_EPARSE, "line 1: \"7x\" is not a router id" },
    { FL_FORMAT_ANYNET, "router 0 node -3\n", FL_EPARSE, "line 1: node id -3 is negative" },
    { FL_FORMAT_ANYNET, "router 0 router 99999999999999999999\n", FL_EPARSE,
      "line 1: router id 99999999999999999999 is too large" },
    { FL_FORMAT_ANYNET, "router 0 router 4194304\n", FL_EPARSE,
      "line 1: router id 4194304 is too large (at most 1048575)" },
    { FL_FORMAT_ANYNET, "router 0 node 0 node 2\n", FL_EPARSE,
      "line 1: node 2 is attached, but node 1 is never defined" },
    { FL_FORMAT_ANYNET, "router 0 router 1\nnode 0 node 1\n", FL_EPARSE,
      "line 2: node 0 cannot be joined to node 1" },
    { FL_FORMAT_ANYNET, "router 0 router\n", FL_EPARSE,
      "line 1: \"router\" at the end of the line is not followed by an id" },
    { FL_FORMAT_ANYNET, "router 0 router 1 0\n", FL_EPARSE,
      "line 1: latency 0 must be a whole number of cycles from 1" },
    { FL_FORMAT_ANYNET, "router 0 router 1 5 6\n", FL_EPARSE,
      "line 1: a second latency \"6\" follows the same link" },
    { FL_FORMAT_ANYNET, "router 0 node 0 5\n", FL_EPARSE,
      "line 1: a latency may only follow a router on a router's line" },
    { FL_FORMAT_ANYNET, "router 0 router 1 fast\n", FL_EPARSE,
      "line 1: expected \"router\", \"node\" or a latency, found \"fast\"" },
    { FL_FORMAT_ANYNET, "router 0 5 router 1\n", FL_EPARSE,
      "line 1: expected \"router\" or \"node\", found \"5\"" },
    { FL_FORMAT_ANYNET, "router 0 router 1\nnode 3 router 1\nrouter 1 node 0 node 1 node 2\n",
      FL_EPARSE, "line 2: BookSim also makes a router 3 of a line that starts with \"node 3\"" },
    { FL_FORMAT_ANYNET, "Router 0\n", FL_EPARSE, "not \"Router\"" },
};
/* clang-format on */

static void test_bad_inputs(void)
{
    int n = (int)(sizeof bad_inputs / sizeof bad_inputs[0]);
    CHECK(n >= 25, "%d malformed inputs in the table", n);
    for (int i = 0; i < n; i++) {
        const BadInput *b = &bad_inputs[i];
        FlTopology *t = NULL;
        FlError err = { 0 };
        int rc = b->format == FL_FORMAT_JSON
                     ? fl_io_read_json_string(b->text, strlen(b->text), &t, &err)
                     : fl_io_read_anynet_string(b->text, strlen(b->text), &t, &err);
        CHECK(rc == b->status && err.code == b->status && !t && strstr(err.message, b->message),
              "bad %s input %d: status %d (want %d), message \"%s\" (want \"%s\")",
              fl_io_format_name(b->format), i, rc, b->status, err.message, b->message);
        fl_topology_free(t);
    }
}

/* Inputs built in code: too big, too deep. */
static void test_huge_inputs(void)
{
    FlTopology *t = NULL;
    FlError err;

    /* 2^25 + 1 nodes, refused before anything is built for them. The
     * nodes are nulls, which jansson does not allocate, so the test stays
     * light. */
    size_t count = (size_t)FL_IO_MAX_NODES + 1;
    size_t cap = count * 5 + 256;
    char *text = malloc(cap);
    size_t len = (size_t)snprintf(text, cap, HEAD "\"links\": [], \"nodes\": [");
    for (size_t i = 0; i < count; i++) {
        memcpy(text + len, i ? ",null" : "null", i ? 5 : 4);
        len += i ? 5 : 4;
    }
    memcpy(text + len, "]}", 2);
    len += 2;
    int rc = fl_io_read_json_string(text, len, &t, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "more than 33554432 nodes"),
          "2^25 + 1 nodes are refused: %s", err.message);
    free(text);

    /* Nesting far beyond any real file. */
    size_t depth = 100000;
    text = malloc(2 * depth + 1);
    memset(text, '[', depth);
    memset(text + depth, ']', depth);
    rc = fl_io_read_json_string(text, 2 * depth, &t, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "maximum parsing depth"),
          "deep nesting is refused: %s", err.message);
    free(text);

    /* A switch with 300 neighbours in anynet. */
    cap = 300 * 16 + 64;
    text = malloc(cap);
    len = (size_t)snprintf(text, cap, "router 0");
    for (int r = 1; r <= 300; r++)
        len += (size_t)snprintf(text + len, cap - len, " router %d", r);
    rc = fl_io_read_anynet_string(text, len, &t, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "router 0 has more than 256"),
          "a router with 300 links is refused: %s", err.message);
    free(text);

    /* Bytes that are not text at all. */
    const char binary[] = "router 0 node \0\xff\x01 router 1";
    rc = fl_io_read_anynet_string(binary, sizeof binary - 1, &t, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "line 1: \"?"),
          "binary garbage is shown as '?': %s", err.message);
    CHECK(t == NULL, "no topology from a failed read");
}

/* The anynet reader follows BookSim: duplicate mentions of a link or of an
 * attachment, from either end, make one link; ports follow the order of
 * appearance; latencies are accepted and dropped. */
static void test_anynet_semantics(void)
{
    const char *text = "router 1 router 0 2 router 2\n"
                       "router 0 node 1 router 1 router 1\r\n"
                       "\n"
                       "router 2\trouter 1 7 node 0\n"
                       "node 2 router 1\n"
                       "router 1 node 2 node 2\n"
                       "   \n";
    FlTopology *t = NULL;
    FlError err;
    int rc = fl_io_read_anynet_string(text, strlen(text), &t, &err);
    if (!CHECK(rc == FL_OK, "BookSim-style file read: %s", rc ? err.message : "ok"))
        return;
    CHECK_INT(fl_topology_switch_count(t), 3);
    CHECK_INT(fl_topology_host_count(t), 3);
    CHECK_INT(fl_topology_switch_link_count(t), 2);
    CHECK_INT(fl_topology_link_count(t), 5);
    /* Router 1: router 0 (line 1), router 2 (line 1), node 2 (line 5). */
    CHECK_INT(fl_topology_node_ports(t, 1), 3);
    CHECK_INT(fl_topology_port_peer(t, 1, 0, NULL), 0);
    CHECK_INT(fl_topology_port_peer(t, 1, 1, NULL), 2);
    CHECK_INT(fl_topology_port_peer(t, 1, 2, NULL), 3 + 2);
    /* Router 0: router 1 (line 1), node 1 (line 2). */
    CHECK_INT(fl_topology_port_peer(t, 0, 0, NULL), 1);
    CHECK_INT(fl_topology_port_peer(t, 0, 1, NULL), 3 + 1);
    CHECK_INT(fl_topology_host_switch(t, 3 + 0), 2);
    CHECK(strcmp(fl_topology_family(t), "custom") == 0 && fl_topology_coord_dims(t) == 0,
          "an imported network is custom, without coordinates");
    /* Hosts sit near their switch, switches apart from each other. */
    double x0, y0, x1, y1, hx, hy;
    fl_topology_get_position(t, 0, &x0, &y0);
    fl_topology_get_position(t, 1, &x1, &y1);
    fl_topology_get_position(t, 3 + 1, &hx, &hy);
    CHECK((x0 - x1) * (x0 - x1) + (y0 - y1) * (y0 - y1) > 0.9, "switches are spread out");
    CHECK_NEAR((hx - x0) * (hx - x0) + (hy - y0) * (hy - y0), 0.36, 1e-9);
    fl_topology_free(t);

    /* A single router with its nodes, and a router without links. */
    text = "router 0 node 0 node 1 node 2";
    rc = fl_io_read_anynet_string(text, strlen(text), &t, &err);
    CHECK(rc == FL_OK && fl_topology_switch_count(t) == 1 && fl_topology_host_count(t) == 3,
          "a single router with three nodes: %s", rc ? err.message : "ok");
    fl_topology_free(t);
    t = NULL;
    text = "router 0\nrouter 1\n";
    rc = fl_io_read_anynet_string(text, strlen(text), &t, &err);
    CHECK(rc == FL_OK && fl_topology_node_ports(t, 0) == 1 && fl_topology_link_count(t) == 0,
          "routers without links get one free port: %s", rc ? err.message : "ok");
    fl_topology_free(t);
}

/* ------------------------------------------------------------------------ */
/* Mutation fuzzing                                                         */
/* ------------------------------------------------------------------------ */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    /* xorshift64*: deterministic, and plenty for picking mutations. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}

static size_t rng_below(size_t n)
{
    return n ? (size_t)(rng_next() % n) : 0;
}

/* Pieces that make mutations reach deeper than random bytes would. */
static const char *const dictionary[] = {
    "{", "}", "[", "]", ",", ":", "\"", "-1", "0", "1e999", "256", "4194304", "null", "true",
    "\"kind\": \"host\"", "\"ports\": ", "\"version\": 2", "router ", "node ", "\n", " 5",
    "99999999999", "\\u0000", "\xff", "\"label\": 3, ", "\"next_label\": 7, ", "\"version\": 3",
};

/* One mutation of src (len bytes) into dst, which has room for len + 64:
 * a few byte flips, truncations and deletions, and at most one insertion of
 * a dictionary word (all shorter than 64 bytes). */
static size_t mutate(const char *src, size_t len, char *dst)
{
    memcpy(dst, src, len);
    int rounds = 1 + (int)rng_below(4);
    for (int r = 0; r < rounds; r++) {
        size_t at = rng_below(len + 1);
        switch (rng_below(4)) {
        case 0: /* flip a byte */
            if (len)
                dst[rng_below(len)] ^= (char)(1u << rng_below(8));
            break;
        case 1: /* truncate */
            len = at;
            break;
        case 2: { /* insert a dictionary word */
            const char *w = dictionary[rng_below(sizeof dictionary / sizeof *dictionary)];
            size_t wl = strlen(w);
            memmove(dst + at + wl, dst + at, len - at);
            memcpy(dst + at, w, wl);
            len += wl;
            r = rounds; /* the last round: one insertion at most */
            break;
        }
        default: /* delete a few bytes */
            if (at < len) {
                size_t k = 1 + rng_below(8);
                if (k > len - at)
                    k = len - at;
                memmove(dst + at, dst + at + k, len - at - k);
                len -= k;
            }
            break;
        }
    }
    return len;
}

static void fuzz(FlFileFormat format, const char *seed_text, int iterations)
{
    size_t len = strlen(seed_text);
    char *buf = malloc(len + 64);
    int accepted = 0, no_message = 0, unstable = 0;
    for (int i = 0; i < iterations; i++) {
        size_t n = mutate(seed_text, len, buf);
        FlTopology *t = NULL;
        FlError err = { 0 };
        int rc = format == FL_FORMAT_JSON ? fl_io_read_json_string(buf, n, &t, &err)
                                          : fl_io_read_anynet_string(buf, n, &t, &err);
        if (rc) {
            no_message += err.message[0] == '\0' || t != NULL;
            continue;
        }
        accepted++;
        /* Whatever was accepted must survive its own round trip. */
        char *a = fl_io_write_string(t, format, NULL);
        FlTopology *u = NULL;
        char *b = NULL;
        if (a && (format == FL_FORMAT_JSON ? fl_io_read_json_string(a, strlen(a), &u, NULL)
                                           : fl_io_read_anynet_string(a, strlen(a), &u, NULL))
                     == FL_OK)
            b = fl_io_write_string(u, format, NULL);
        unstable += !b || strcmp(a, b) != 0;
        free(a);
        free(b);
        fl_topology_free(u);
        fl_topology_free(t);
    }
    free(buf);
    CHECK(no_message == 0, "%s fuzz: every refusal has a message and no topology (%d without)",
          fl_io_format_name(format), no_message);
    CHECK(unstable == 0, "%s fuzz: every accepted mutant round-trips (%d of %d did not)",
          fl_io_format_name(format), unstable, accepted);
    CHECK(accepted > 0 && accepted < iterations, "%s fuzz: %d of %d mutants accepted",
          fl_io_format_name(format), accepted, iterations);
}

static void test_fuzz(void)
{
    FlTopology *mesh = hand_mesh(2, 2, 1);
    char *json = fl_io_write_json_string(mesh, NULL);
    char *anynet = fl_io_write_string(mesh, FL_FORMAT_ANYNET, NULL);
    rng_state = 0x9E3779B97F4A7C15u;
    fuzz(FL_FORMAT_JSON, json, 3000);
    fuzz(FL_FORMAT_ANYNET, anynet, 3000);
    free(json);
    free(anynet);
    fl_topology_free(mesh);
}

/* ------------------------------------------------------------------------ */
/* Files                                                                    */
/* ------------------------------------------------------------------------ */

/* Names in dir, for checking that nothing (or only the target) is there. */
static int count_entries(const char *dir, char *names, size_t size)
{
    DIR *d = opendir(dir);
    int n = 0;
    names[0] = '\0';
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        n++;
        strncat(names, e->d_name, size - strlen(names) - 2);
        strcat(names, " ");
    }
    closedir(d);
    return n;
}

static void test_files(void)
{
    char dir[] = "/tmp/flitlab-test-io-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL, "temporary directory %s", dir))
        return;
    char path[256], names[1024];
    FlError err;
    FlTopology *mesh = hand_mesh(3, 3, 1), *back = NULL;

    /* A missing directory: an error that names the file, and nothing made. */
    snprintf(path, sizeof path, "%s/missing/net.json", dir);
    int rc = fl_io_write_file(mesh, FL_FORMAT_JSON, path, &err);
    CHECK(rc == FL_EIO && strstr(err.message, path) && strstr(err.message, "No such file"),
          "writing into a missing directory fails: %s", err.message);
    CHECK_INT(count_entries(dir, names, sizeof names), 0);

    /* Write, read back by extension; the format is guessed. */
    snprintf(path, sizeof path, "%s/net.json", dir);
    rc = fl_io_write_file(mesh, FL_FORMAT_JSON, path, &err);
    CHECK(rc == FL_OK, "write %s: %s", path, rc ? err.message : "ok");
    CHECK(fl_io_guess_format(path) == FL_FORMAT_JSON, "a .json file is JSON");
    rc = fl_io_read_file(path, &back, &err);
    if (CHECK(rc == FL_OK, "read %s: %s", path, rc ? err.message : "ok"))
        same_topology(mesh, back, "JSON file");
    fl_topology_free(back);
    back = NULL;

    /* Overwrite with another network: fully replaced, mode kept. */
    chmod(path, 0640);
    FlTopology *custom = hand_custom();
    rc = fl_io_write_file(custom, FL_FORMAT_JSON, path, &err);
    char *want = fl_io_write_json_string(custom, NULL);
    char *got = slurp(path, NULL);
    CHECK(rc == FL_OK && got && want && strcmp(got, want) == 0,
          "overwriting replaces the whole file");
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640,
          "the replaced file keeps its mode (%o)", (unsigned)(st.st_mode & 0777));
    free(got);

    /* A network the format cannot hold: the old file stays intact. */
    fl_topology_set_position(mesh, 4, 1.0 / 0.0, 0);
    rc = fl_io_write_file(mesh, FL_FORMAT_JSON, path, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "node 4"),
          "a non-finite position is refused: %s", err.message);
    got = slurp(path, NULL);
    CHECK(got && strcmp(got, want) == 0, "a refused write leaves the file intact");
    free(got);
    free(want);
    rc = fl_io_write_file(mesh, FL_FORMAT_DOT, path, &err);
    CHECK(rc == FL_EINVAL, "DOT refuses a non-finite position too");
    fl_topology_set_position(mesh, 4, 1, 1);
    CHECK(count_entries(dir, names, sizeof names) == 1,
          "no temporary file left behind: [%s]", names);

    /* An aborted atomic file leaves nothing; a committed one appears. */
    snprintf(path, sizeof path, "%s/atomic.txt", dir);
    FlOutput *af;
    FILE *fp;
    rc = fl_output_open(path, &af, &fp, &err);
    if (CHECK(rc == FL_OK, "atomic open: %s", rc ? err.message : "ok")) {
        fputs("half", fp);
        fl_output_abort(af);
    }
    CHECK(access(path, F_OK) != 0 && count_entries(dir, names, sizeof names) == 1,
          "an aborted file leaves nothing: [%s]", names);
    rc = fl_output_open(path, &af, &fp, &err);
    if (rc == FL_OK) {
        fputs("whole\n", fp);
        rc = fl_output_commit(af, &err);
    }
    got = slurp(path, NULL);
    CHECK(rc == FL_OK && got && strcmp(got, "whole\n") == 0, "a committed file is there");
    free(got);
    rc = fl_output_open(dir, &af, &fp, &err);
    CHECK(rc == FL_EIO && strstr(err.message, "is a directory"),
          "a directory cannot be replaced: %s", err.message);

    /* anynet without the extension: recognised by its first word. */
    snprintf(path, sizeof path, "%s/network", dir);
    rc = fl_io_write_file(mesh, FL_FORMAT_ANYNET, path, &err);
    CHECK(rc == FL_OK && fl_io_guess_format(path) == FL_FORMAT_ANYNET,
          "an anynet file is recognised by its content");
    rc = fl_io_read_file(path, &back, &err);
    if (CHECK(rc == FL_OK, "read %s: %s", path, rc ? err.message : "ok"))
        same_switch_graph(mesh, back, "anynet file");
    fl_topology_free(back);
    back = NULL;

    /* DOT is written, not read; errors name the file. */
    snprintf(path, sizeof path, "%s/net.dot", dir);
    rc = fl_io_write_file(mesh, FL_FORMAT_UNKNOWN, path, &err);
    CHECK(rc == FL_OK && fl_io_guess_format(path) == FL_FORMAT_DOT,
          "the format to write follows the extension");
    rc = fl_io_read_file(path, &back, &err);
    CHECK(rc == FL_EUNSUPPORTED && strstr(err.message, path), "DOT is not read: %s",
          err.message);
    snprintf(path, sizeof path, "%s/bad.json", dir);
    FILE *bad = fopen(path, "w");
    fputs("{\n  \"format\": \"flitlab-topology\",\n  \"version\": 1\n  \"nodes\": []\n}\n", bad);
    fclose(bad);
    rc = fl_io_read_file(path, &back, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, path) && strstr(err.message, ": line 4, column"),
          "a syntax error names the file, line and column: %s", err.message);
    snprintf(path, sizeof path, "%s/none.json", dir);
    rc = fl_io_read_file(path, &back, &err);
    CHECK(rc == FL_EIO && strstr(err.message, "cannot open"), "a missing file: %s",
          err.message);
    rc = fl_io_write_file(mesh, FL_FORMAT_UNKNOWN, "/tmp/x.unknown", &err);
    CHECK(rc == FL_EINVAL && access("/tmp/x.unknown", F_OK) != 0,
          "an unknown extension is refused before anything is written");

    CHECK(fl_io_format_from_name("JSON") == FL_FORMAT_JSON
              && fl_io_format_from_name("gv") == FL_FORMAT_DOT
              && fl_io_format_from_name("anynet") == FL_FORMAT_ANYNET
              && fl_io_format_from_name("png") == FL_FORMAT_UNKNOWN
              && fl_io_format_from_name(NULL) == FL_FORMAT_UNKNOWN,
          "format names");

    /* Clean up: every file this test made, then the directory. */
    const char *made[] = { "net.json", "atomic.txt", "network", "net.dot", "bad.json" };
    for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, made[i]);
        unlink(path);
    }
    CHECK(rmdir(dir) == 0, "the temporary directory is empty at the end (%s)", strerror(errno));
    fl_topology_free(custom);
    fl_topology_free(mesh);
}

int main(void)
{
    test_hand_round_trips();
    test_labels();
    test_families();
    test_family_kept();
    test_golden();
    test_bad_inputs();
    test_huge_inputs();
    test_anynet_semantics();
    test_fuzz();
    test_files();
    return tap_done();
}
