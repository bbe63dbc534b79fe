/* test-store.c — the .flitlab project file: round trips through a file,
 * editing, names, files that are not projects, migration, and stale
 * temporary files. Prints the time a 64x64 torus takes as TAP comments. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "flitlab-store.h"
#include "store-fixture.h"
#include "tap.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* --- topologies to store ------------------------------------------------ */

/* A drawn network: odd port counts, chosen (not lowest) ports, free ports,
 * a parallel link, awkward positions, no coordinates, family custom. */
static FlTopology *build_custom(void)
{
    static const int ports[] = {3, 8, 5, 1, 6};
    static const int links[][4] = {
        {0, 2, 1, 7}, {1, 0, 2, 4}, {2, 0, 0, 0}, {2, 1, 0, 1}, {3, 0, 4, 5}, {4, 2, 1, 3},
    };
    FlTopology *t = fl_topology_new();
    for (int n = 0; n < 5; n++) {
        fl_topology_add_node(t, FL_NODE_SWITCH, ports[n], NULL, NULL);
        fl_topology_set_position(t, n, -1.5 + n / 3.0, 1e-9 * n - 2.75e6);
    }
    for (size_t l = 0; l < sizeof links / sizeof links[0]; l++)
        fl_topology_connect(t, links[l][0], links[l][1], links[l][2], links[l][3], NULL, NULL);
    int h;
    fl_topology_add_node(t, FL_NODE_HOST, 1, &h, NULL);
    fl_topology_connect(t, h, 0, 1, 5, NULL, NULL);
    fl_topology_add_node(t, FL_NODE_HOST, 1, &h, NULL); /* left unattached */
    fl_topology_set_position(t, h, 0.1, 0.2);
    /* Labels of an edited network: one set by hand, and the next label
     * above a node that was added and removed. */
    fl_topology_set_node_label(t, 2, 40, NULL);
    fl_topology_add_node(t, FL_NODE_HOST, 1, &h, NULL);
    fl_topology_remove_node(t, h, NULL);
    return t;
}

/* Whether a and b have the same nodes, ports, links, coordinates,
 * positions and family; why says what differs first. Names are compared by
 * the callers, since a stored topology takes the name it is stored under. */
static int same_topology(const FlTopology *a, const FlTopology *b, char *why, size_t size)
{
#define DIFFER(...) return snprintf(why, size, __VA_ARGS__), 0
    int n = fl_topology_node_count(a), m = fl_topology_link_count(a);
    if (n != fl_topology_node_count(b))
        DIFFER("%d nodes against %d", fl_topology_node_count(b), n);
    if (m != fl_topology_link_count(b))
        DIFFER("%d links against %d", fl_topology_link_count(b), m);
    int cd = fl_topology_coord_dims(a);
    if (cd != fl_topology_coord_dims(b))
        DIFFER("%d coordinate dimensions against %d", fl_topology_coord_dims(b), cd);
    for (int i = 0; i < n; i++) {
        int ca[FL_MAX_DIMS] = {0}, cb[FL_MAX_DIMS] = {0};
        double xa, ya, xb, yb;
        fl_topology_get_coords(a, i, ca);
        fl_topology_get_coords(b, i, cb);
        fl_topology_get_position(a, i, &xa, &ya);
        fl_topology_get_position(b, i, &xb, &yb);
        if (fl_topology_node_kind(a, i) != fl_topology_node_kind(b, i))
            DIFFER("node %d changed kind", i);
        if (fl_topology_node_ports(a, i) != fl_topology_node_ports(b, i))
            DIFFER("node %d has %d ports, not %d", i, fl_topology_node_ports(b, i),
                   fl_topology_node_ports(a, i));
        if (memcmp(ca, cb, sizeof ca) != 0)
            DIFFER("node %d changed coordinates", i);
        if (xa != xb || ya != yb)
            DIFFER("node %d moved from (%.17g, %.17g) to (%.17g, %.17g)", i, xa, ya, xb, yb);
        if (fl_topology_node_label(a, i) != fl_topology_node_label(b, i))
            DIFFER("node %d has label %d, not %d", i, fl_topology_node_label(b, i),
                   fl_topology_node_label(a, i));
    }
    if (fl_topology_next_label(a) != fl_topology_next_label(b))
        DIFFER("the next label is %d, not %d", fl_topology_next_label(b),
               fl_topology_next_label(a));
    for (int l = 0; l < m; l++) {
        int ea[4], eb[4];
        fl_topology_link_ends(a, l, &ea[0], &ea[1], &ea[2], &ea[3]);
        fl_topology_link_ends(b, l, &eb[0], &eb[1], &eb[2], &eb[3]);
        if (memcmp(ea, eb, sizeof ea) != 0)
            DIFFER("link %d joins %d.%d-%d.%d, not %d.%d-%d.%d", l, eb[0], eb[1], eb[2], eb[3],
                   ea[0], ea[1], ea[2], ea[3]);
    }
    int da[FL_MAX_DIMS], db[FL_MAX_DIMS];
    int nda = fl_topology_family_dims(a, da), ndb = fl_topology_family_dims(b, db);
    if (strcmp(fl_topology_family(a), fl_topology_family(b)) != 0)
        DIFFER("family '%s', not '%s'", fl_topology_family(b), fl_topology_family(a));
    if (nda != ndb || memcmp(da, db, sizeof(int) * (size_t)nda) != 0)
        DIFFER("family sizes changed");
    const char *sa = fl_topology_spec(a), *sb = fl_topology_spec(b);
    if ((sa == NULL) != (sb == NULL) || (sa && strcmp(sa, sb) != 0))
        DIFFER("spec '%s', not '%s'", sb ? sb : "(none)", sa ? sa : "(none)");
    return 1;
#undef DIFFER
}

/* Gets name from p and checks it against want. */
static void check_stored(FlProject *p, const char *name, const FlTopology *want)
{
    FlTopology *got = NULL;
    FlError err;
    char why[256] = "";
    int rc = fl_project_get_topology(p, name, &got, &err);
    CHECK(rc == FL_OK, "get '%s': %s", name, rc ? err.message : "ok");
    if (rc)
        return;
    CHECK(same_topology(want, got, why, sizeof why), "'%s' survives the file: %s", name, why);
    CHECK(strcmp(fl_topology_name(got), name) == 0, "'%s' comes back named '%s'", name,
          fl_topology_name(got));
    fl_topology_free(got);
}

/* --- raw access to files, to make bad ones and look inside good ones ----- */

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        exit(99);
    }
}

static void copy_file(const char *from, const char *to, long keep_bytes)
{
    FILE *f = fopen(from, "rb");
    static char buf[1 << 20];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    if (keep_bytes >= 0 && (size_t)keep_bytes < n)
        n = (size_t)keep_bytes;
    write_bytes(to, buf, n);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Entries in the test directory whose name starts with prefix. */
static int count_entries(const char *prefix)
{
    DIR *d = opendir(test_dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    return n;
}

/* --- the tests ---------------------------------------------------------- */

static FlTopology *torus, *custom, *mesh3d, *empty, *irregular, *myrinet;

/* Total node and link rows of some topologies, for looking at the file. */
static long long rows(int links, const FlTopology *const *ts, int n)
{
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += links ? fl_topology_link_count(ts[i]) : fl_topology_node_count(ts[i]);
    return sum;
}

static void test_round_trip(void)
{
    FlProject *p = NULL;
    FlError err;
    char path[256];
    FlProjectTopologyInfo *items = NULL;
    int n = -1;

    CHECK_INT(fl_project_new(&p, &err), FL_OK);
    CHECK(fl_project_path(p) == NULL, "a new project is untitled");
    CHECK_INT(fl_project_is_modified(p), 0);
    CHECK_INT(fl_project_list_topologies(p, &items, &n, &err), FL_OK);
    CHECK(n == 0 && items == NULL, "a new project is empty (%d topologies)", n);

    CHECK_INT(fl_project_put_topology(p, "torus 8x8", torus, 0, &err), FL_OK);
    CHECK_INT(fl_project_is_modified(p), 1);
    CHECK_INT(fl_project_put_topology(p, "drawn \xc3\xa9", custom, 0, &err), FL_OK);
    CHECK_INT(fl_project_put_topology(p, "mesh3d", mesh3d, 0, &err), FL_OK);
    CHECK_INT(fl_project_put_topology(p, "empty", empty, 0, &err), FL_OK);
    CHECK_INT(fl_project_put_topology(p, "irregular", irregular, 0, &err), FL_OK);
    CHECK_INT(fl_project_put_topology(p, "myrinet", myrinet, 0, &err), FL_OK);

    int rc = fl_project_save(p, &err);
    CHECK(rc == FL_EINVAL, "saving an untitled project fails (%d: %s)", rc, err.message);
    CHECK_INT(fl_project_is_modified(p), 1);
    CHECK_INT(fl_project_save_as(p, IN_DIR(path, "a.flitlab"), &err), FL_OK);
    CHECK(fl_project_path(p) && strcmp(fl_project_path(p), path) == 0,
          "save_as names the project");
    CHECK_INT(fl_project_is_modified(p), 0);
    fl_project_free(p);

    p = NULL;
    rc = fl_project_open(path, &p, &err);
    CHECK(rc == FL_OK, "open what was saved: %s", rc ? err.message : "ok");
    if (rc)
        return;
    CHECK_INT(fl_project_is_modified(p), 0);
    CHECK_INT(fl_project_list_topologies(p, &items, &n, &err), FL_OK);
    CHECK_INT(n, 6);
    if (n == 6) {
        const char *order[] = {"torus 8x8", "drawn \xc3\xa9", "mesh3d", "empty", "irregular",
                               "myrinet"};
        for (int i = 0; i < 6; i++)
            CHECK(strcmp(items[i].name, order[i]) == 0, "topology %d is '%s', want '%s'", i,
                  items[i].name, order[i]);
        CHECK(items[0].switches == 64 && items[0].hosts == 64 && items[0].links == 128,
              "torus counts %d switches, %d hosts, %d links", items[0].switches,
              items[0].hosts, items[0].links);
        CHECK(strcmp(items[0].family, "torus") == 0 && items[0].spec
                  && strcmp(items[0].spec, "torus:8x8") == 0,
              "torus family and spec listed");
        CHECK(items[1].switches == 5 && items[1].hosts == 2 && items[1].links == 6,
              "drawn counts %d switches, %d hosts, %d links", items[1].switches,
              items[1].hosts, items[1].links);
        CHECK(items[1].spec == NULL && strcmp(items[1].family, "custom") == 0,
              "a custom network has no spec");
        CHECK(items[3].switches == 0 && items[3].hosts == 0 && items[3].links == 0,
              "the empty topology is empty");
        const char *c = items[0].created;
        CHECK(strlen(c) == 20 && c[4] == '-' && c[10] == 'T' && c[19] == 'Z',
              "created is ISO 8601 UTC: '%s'", c);
        CHECK(strcmp(items[0].created, items[0].modified) == 0,
              "a new topology was modified when created");
    }
    fl_project_topology_info_free(items, n);

    check_stored(p, "torus 8x8", torus);
    check_stored(p, "drawn \xc3\xa9", custom);
    check_stored(p, "mesh3d", mesh3d);
    check_stored(p, "empty", empty);
    check_stored(p, "irregular", irregular);
    check_stored(p, "myrinet", myrinet);

    FlTopology *t = NULL;
    rc = fl_project_get_topology(p, "nope", &t, &err);
    CHECK(rc == FL_ENOTFOUND && t == NULL && strstr(err.message, "'nope'")
              && strstr(err.message, path),
          "get of a missing topology: %s", err.message);
    fl_project_free(p);

    CHECK(sql_int(path, "PRAGMA application_id") == FL_PROJECT_APPLICATION_ID,
          "the file carries Flitlab's application id");
    CHECK(sql_int(path, "PRAGMA user_version") == fl_project_schema_version(),
          "the file is at the current schema version");
    CHECK(sql_int(path, "SELECT count(*) FROM meta WHERE key IN ('creator_version', 'created')")
              == 2,
          "the file records its creator and creation time");
    const FlTopology *all[] = {torus, custom, mesh3d, empty, irregular, myrinet};
    CHECK(sql_int(path, "SELECT count(*) FROM node") == rows(0, all, 6),
          "nodes are rows of the node table");
    CHECK(sql_int(path, "SELECT count(*) FROM link") == rows(1, all, 6),
          "links are rows of the link table");
}

static void test_editing(void)
{
    FlProject *p = NULL;
    FlError err;
    char path[256];
    FlProjectTopologyInfo *items = NULL;
    int n = 0, rc;

    if (fl_project_open(IN_DIR(path, "a.flitlab"), &p, &err) != FL_OK) {
        CHECK(0, "open a.flitlab: %s", err.message);
        return;
    }
    fl_project_list_topologies(p, &items, &n, &err);
    char created[32] = "";
    if (n == 6)
        snprintf(created, sizeof created, "%s", items[2].created);
    fl_project_topology_info_free(items, n);

    rc = fl_project_put_topology(p, "mesh3d", custom, 0, &err);
    CHECK(rc == FL_EEXIST && strstr(err.message, "'mesh3d'"),
          "put over an existing name without replace: %s", err.message);
    CHECK_INT(fl_project_is_modified(p), 0);
    check_stored(p, "mesh3d", mesh3d);

    CHECK_INT(fl_project_put_topology(p, "mesh3d", custom, 1, &err), FL_OK);
    CHECK_INT(fl_project_is_modified(p), 1);
    check_stored(p, "mesh3d", custom);
    fl_project_list_topologies(p, &items, &n, &err);
    CHECK(n == 6 && strcmp(items[2].name, "mesh3d") == 0,
          "a replaced topology keeps its place in the list");
    CHECK(n == 6 && strcmp(items[2].created, created) == 0,
          "a replaced topology keeps its creation time");
    fl_project_topology_info_free(items, n);

    CHECK_INT(fl_project_save(p, &err), FL_OK);
    CHECK_INT(fl_project_is_modified(p), 0);

    rc = fl_project_rename_topology(p, "drawn \xc3\xa9", "torus 8x8", &err);
    CHECK(rc == FL_EEXIST, "rename onto a taken name: %s", err.message);
    rc = fl_project_rename_topology(p, "nope", "other", &err);
    CHECK(rc == FL_ENOTFOUND && strstr(err.message, "'nope'"),
          "rename of a missing topology: %s", err.message);
    rc = fl_project_rename_topology(p, "mesh3d", "", &err);
    CHECK(rc == FL_EINVAL, "rename to an empty name: %s", err.message);
    CHECK_INT(fl_project_is_modified(p), 0);
    CHECK_INT(fl_project_rename_topology(p, "drawn \xc3\xa9", "renamed", &err), FL_OK);
    CHECK_INT(fl_project_is_modified(p), 1);
    FlTopology *t = NULL;
    CHECK_INT(fl_project_get_topology(p, "drawn \xc3\xa9", &t, &err), FL_ENOTFOUND);
    check_stored(p, "renamed", custom);
    fl_project_list_topologies(p, &items, &n, &err);
    CHECK(n == 6 && strcmp(items[1].name, "renamed") == 0,
          "a renamed topology keeps its place in the list");
    fl_project_topology_info_free(items, n);

    CHECK_INT(fl_project_save(p, &err), FL_OK);
    rc = fl_project_delete_topology(p, "nope", &err);
    CHECK(rc == FL_ENOTFOUND && strstr(err.message, "'nope'"),
          "delete of a missing topology: %s", err.message);
    CHECK_INT(fl_project_is_modified(p), 0);
    CHECK_INT(fl_project_delete_topology(p, "torus 8x8", &err), FL_OK);
    CHECK_INT(fl_project_is_modified(p), 1);
    CHECK_INT(fl_project_get_topology(p, "torus 8x8", &t, &err), FL_ENOTFOUND);
    fl_project_list_topologies(p, &items, &n, &err);
    CHECK(n == 5 && strcmp(items[0].name, "renamed") == 0, "five topologies remain");
    fl_project_topology_info_free(items, n);

    /* A name freed by a deletion can be used again, and goes last. */
    CHECK_INT(fl_project_put_topology(p, "torus 8x8", mesh3d, 0, &err), FL_OK);
    fl_project_list_topologies(p, &items, &n, &err);
    CHECK(n == 6 && strcmp(items[5].name, "torus 8x8") == 0, "a new topology goes last");
    fl_project_topology_info_free(items, n);
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    fl_project_free(p);

    /* Deleting cascaded: only the nodes of the remaining topologies exist. */
    const FlTopology *left[] = {custom, custom, empty, irregular, myrinet, mesh3d};
    CHECK(sql_int(path, "SELECT count(*) FROM node") == rows(0, left, 6),
          "deleting a topology deletes its nodes");
    CHECK(sql_int(path, "SELECT count(*) FROM link") == rows(1, left, 6),
          "deleting a topology deletes its links");
}

static void test_names(void)
{
    FlProject *p = NULL;
    FlError err;
    char name[1024];
    fl_project_new(&p, &err);

    static const char *const bad[] = {
        "", "tab\there", "line\nbreak", "del\x7f", "c1 \xc2\x85", "bad \xff utf-8",
        "overlong \xc0\xaf", "surrogate \xed\xa0\x80", "cut \xe2\x82",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = fl_project_put_topology(p, bad[i], empty, 0, &err);
        CHECK(rc == FL_EINVAL && strstr(err.message, "name"), "bad name %zu refused: %s", i,
              err.message);
    }
    CHECK_INT(fl_project_put_topology(p, NULL, empty, 0, &err), FL_EINVAL);
    CHECK_INT(fl_project_is_modified(p), 0);

    /* 200 two-byte characters are 200 characters, not 400. */
    name[0] = '\0';
    for (int i = 0; i < 200; i++)
        strcat(name, "\xc3\xa9");
    CHECK_INT(fl_project_put_topology(p, name, empty, 0, &err), FL_OK);
    strcat(name, "e");
    int rc = fl_project_put_topology(p, name, empty, 0, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "200"), "201 characters refused: %s",
          err.message);
    memset(name, 'n', 200);
    name[200] = '\0';
    CHECK_INT(fl_project_put_topology(p, name, empty, 0, &err), FL_OK);
    CHECK_INT(fl_project_put_topology(p, "a:b#c / d \xe2\x9c\x93", empty, 0, &err), FL_OK);

    /* A position SQLite could not keep is refused with a reason. */
    FlTopology *t = fl_topology_copy(custom);
    fl_topology_set_position(t, 3, 0.0 / 0.0, 1.0);
    rc = fl_project_put_topology(p, "nan", t, 0, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "node 3"), "NaN position refused: %s",
          err.message);
    fl_topology_free(t);
    fl_project_free(p);
}

/* Opening path must fail with code, naming the file and saying what. */
static void expect_open_fails(const char *path, int code, const char *says)
{
    FlProject *p = NULL;
    FlError err;
    fl_error_clear(&err);
    int rc = fl_project_open(path, &p, &err);
    CHECK(rc == code && p == NULL, "open %s: code %d, want %d (%s)", path, rc, code,
          err.message);
    CHECK(strstr(err.message, path) && strstr(err.message, says),
          "the message names the file and says '%s': %s", says, err.message);
    fl_project_free(p);
}

static void test_bad_files(void)
{
    char good[256], path[256];
    IN_DIR(good, "a.flitlab");

    expect_open_fails(IN_DIR(path, "missing.flitlab"), FL_ENOTFOUND, "does not exist");
    expect_open_fails(test_dir, FL_EIO, "directory");

    IN_DIR(path, "text.flitlab");
    const char text[] = "[topology]\nname = torus\n";
    write_bytes(path, text, sizeof text - 1);
    expect_open_fails(path, FL_EPARSE, "not a Flitlab project (file is not a database)");

    IN_DIR(path, "empty.flitlab");
    write_bytes(path, "", 0);
    expect_open_fails(path, FL_EPARSE, "not a Flitlab project (the file is empty)");

    IN_DIR(path, "random.flitlab");
    static unsigned char noise[3 * 4096];
    unsigned x = 12345;
    for (size_t i = 0; i < sizeof noise; i++)
        noise[i] = (unsigned char)((x = x * 1103515245u + 12345u) >> 16);
    write_bytes(path, noise, sizeof noise);
    expect_open_fails(path, FL_EPARSE, "not a Flitlab project");

    long size = file_size(good);
    CHECK(size >= 4 * 4096, "the saved project spans several pages (%ld bytes)", size);
    IN_DIR(path, "truncated.flitlab");
    copy_file(good, path, size / 2);
    expect_open_fails(path, FL_EPARSE, "damaged");

    /* Garbage over an interior page, the file size intact. */
    IN_DIR(path, "scribbled.flitlab");
    copy_file(good, path, -1);
    FILE *f = fopen(path, "r+b");
    fseek(f, 2 * 4096, SEEK_SET);
    fwrite(noise, 1, 4096, f);
    fclose(f);
    expect_open_fails(path, FL_EPARSE, "damaged");

    IN_DIR(path, "other.db");
    sql_run(path, "PRAGMA application_id = 1234; CREATE TABLE song (title TEXT);");
    expect_open_fails(path, FL_EPARSE, "not a Flitlab project (it is an SQLite database of "
                                       "another application");
    IN_DIR(path, "plain.db");
    sql_run(path, "CREATE TABLE song (title TEXT);");
    expect_open_fails(path, FL_EPARSE, "not a Flitlab project");

    IN_DIR(path, "future.flitlab");
    copy_file(good, path, -1);
    sql_run(path, "PRAGMA user_version = 99");
    expect_open_fails(path, FL_EVERSION, "newer Flitlab");

    /* The right version with a table missing is damaged, not usable. */
    IN_DIR(path, "tableless.flitlab");
    copy_file(good, path, -1);
    sql_run(path, "DROP TABLE link");
    expect_open_fails(path, FL_EPARSE, "table 'link' is missing");

    /* Rows the engine cannot rebuild: the project opens, the topology
     * does not, and the message says which link is wrong. */
    IN_DIR(path, "badlink.flitlab");
    copy_file(good, path, -1);
    sql_run(path, "UPDATE link SET pa = 99 WHERE idx = 3 AND topology_id ="
                  " (SELECT id FROM topology WHERE name = 'renamed')");
    FlProject *p = NULL;
    FlTopology *t = NULL;
    FlError err;
    CHECK_INT(fl_project_open(path, &p, &err), FL_OK);
    int rc = fl_project_get_topology(p, "renamed", &t, &err);
    CHECK(rc == FL_EPARSE && t == NULL && strstr(err.message, "link 3"),
          "a bad link row is reported: %s", err.message);
    fl_project_free(p);
}

static void test_migration(void)
{
    char path[256], sql[64];
    FlProject *p = NULL;
    FlError err;
    FlProjectTopologyInfo *items = NULL;
    int n = -1;

    /* Version 0: an empty database that carries the application id. */
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d", FL_PROJECT_APPLICATION_ID);
    p = open_old_file(path, sizeof path, "v0.flitlab", sql, 0);
    if (!p)
        return;
    CHECK_INT(fl_project_list_topologies(p, &items, &n, &err), FL_OK);
    CHECK_INT(n, 0);
    CHECK_INT(fl_project_put_topology(p, "t", custom, 0, &err), FL_OK);
    save_migrated(p, path);
    CHECK(sql_int(path, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'") == 12,
          "the saved file has the twelve tables of version 4");
    CHECK(sql_int(path, "SELECT count(*) FROM link") == 7, "and the topology's links");
}

static void test_files(void)
{
    char path[256], other[256], stale[256], locked[256], keep[256], link[256];
    FlProject *p = NULL;
    FlError err;
    IN_DIR(path, "a.flitlab");

    /* Stale temporary files from killed saves: an unlocked one (dead
     * owner), a locked one (a save in progress), and look-alikes. */
    IN_DIR(stale, ".a.flitlab-Stal3x");
    write_bytes(stale, "half a database", 15);
    IN_DIR(locked, ".a.flitlab-Busy00");
    write_bytes(locked, "being written", 13);
    IN_DIR(keep, ".a.flitlab-notmine");
    write_bytes(keep, "x", 1);
    IN_DIR(other, ".b.flitlab-Stal3x");
    write_bytes(other, "x", 1);
    int lock_fd = open(locked, O_RDONLY);
    CHECK(lock_fd >= 0 && flock(lock_fd, LOCK_EX | LOCK_NB) == 0, "the test locks a temp file");

    CHECK_INT(fl_project_open(path, &p, &err), FL_OK);
    CHECK(p && fl_project_save(p, &err) == FL_OK, "save beside stale temporary files");
    CHECK(access(stale, F_OK) != 0, "the save removed the stale temporary file");
    CHECK(access(locked, F_OK) == 0, "and left the locked one alone");
    CHECK(access(keep, F_OK) == 0 && access(other, F_OK) == 0,
          "and files that are not its own temporary files");
    CHECK_INT(count_entries(".a.flitlab-"), 2);
    close(lock_fd);
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    CHECK(access(locked, F_OK) != 0, "once unlocked, it is stale and goes too");

    /* A failed save leaves nothing behind and changes nothing. */
    CHECK_INT(fl_project_put_topology(p, "more", custom, 0, &err), FL_OK);
    int rc = fl_project_save_as(p, IN_DIR(other, "no/such/dir/x.flitlab"), &err);
    CHECK(rc == FL_EIO && strstr(err.message, other), "save into a missing directory: %s",
          err.message);
    CHECK(strcmp(fl_project_path(p), path) == 0, "a failed save_as keeps the old path");
    CHECK_INT(fl_project_is_modified(p), 1);

    /* Permissions and symbolic links survive a save. */
    chmod(path, 0640);
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640,
          "a save keeps the file's permissions (%o)", (unsigned)(st.st_mode & 07777));
    fl_project_free(p);
    IN_DIR(link, "link.flitlab");
    CHECK(symlink("a.flitlab", link) == 0, "make a relative symbolic link");
    p = NULL;
    CHECK_INT(fl_project_open(link, &p, &err), FL_OK);
    CHECK_INT(fl_project_delete_topology(p, "more", &err), FL_OK);
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "saving through a link keeps it");
    CHECK(sql_int(path, "SELECT count(*) FROM topology WHERE name = 'more'") == 0,
          "and writes the file it points to");
    fl_project_free(p);
    CHECK_INT(count_entries(".a.flitlab-"), 1); /* notmine */
    CHECK_INT(count_entries(".link.flitlab-"), 0);
}

/* A 64x64 torus (4096 switches, 4096 hosts, 12288 links) must put and get in
 * well under a second. Times are reported, not asserted: tests must not
 * depend on the machine's speed. */
static void test_big(void)
{
    FlProject *p = NULL;
    FlTopology *big = from_spec("torus:64x64"), *got = NULL;
    FlError err;
    char path[256], why[256] = "";
    fl_project_new(&p, &err);

    double t0 = now_ms();
    int rc = fl_project_put_topology(p, "big", big, 0, &err);
    double t1 = now_ms();
    CHECK(rc == FL_OK, "put a 64x64 torus: %s", rc ? err.message : "ok");
    rc = fl_project_save_as(p, IN_DIR(path, "big.flitlab"), &err);
    double t2 = now_ms();
    CHECK(rc == FL_OK, "save it: %s", rc ? err.message : "ok");
    fl_project_free(p);
    p = NULL;
    rc = fl_project_open(path, &p, &err);
    double t3 = now_ms();
    CHECK(rc == FL_OK, "open it: %s", rc ? err.message : "ok");
    if (rc)
        return;
    FlProjectTopologyInfo *items = NULL;
    int n = 0;
    fl_project_list_topologies(p, &items, &n, &err);
    double t4 = now_ms();
    CHECK(n == 1 && items[0].switches == 4096 && items[0].hosts == 4096
              && items[0].links == 8192,
          "list counts the big torus");
    fl_project_topology_info_free(items, n);
    rc = fl_project_get_topology(p, "big", &got, &err);
    double t5 = now_ms();
    CHECK(rc == FL_OK && same_topology(big, got, why, sizeof why), "get it back: %s",
          rc ? err.message : why);
    printf("# 64x64 torus, %d nodes, %d links, file %ld bytes: put %.1f ms, save %.1f ms, "
           "open %.1f ms, list %.1f ms, get %.1f ms\n",
           fl_topology_node_count(big), fl_topology_link_count(big), file_size(path), t1 - t0,
           t2 - t1, t3 - t2, t4 - t3, t5 - t4);
    fl_topology_free(got);
    fl_topology_free(big);

    /* Deleting it frees most pages; the next save gives the space back
     * rather than copying free pages to disk. */
    long before = file_size(path);
    CHECK_INT(fl_project_delete_topology(p, "big", &err), FL_OK);
    CHECK_INT(fl_project_put_topology(p, "small", custom, 0, &err), FL_OK);
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    CHECK(file_size(path) < before / 5 && sql_int(path, "PRAGMA freelist_count") == 0,
          "the file shrinks from %ld to %ld bytes, with no free page", before,
          file_size(path));
    check_stored(p, "small", custom);
    fl_project_free(p);
}

int main(void)
{
    if (!test_dir_make("flitlab-store"))
        return 99;
    umask(022);
    torus = from_spec("torus:8x8");
    custom = build_custom();
    mesh3d = from_spec("mesh:3x2x2");
    empty = fl_topology_new();
    irregular = from_spec("irregular:24,ports=5,hosts=2,seed=7");
    myrinet = from_spec("myrinet-mesh:2x3");

    test_round_trip();
    test_editing();
    test_names();
    test_bad_files();
    test_migration();
    test_files();
    test_big();

    fl_topology_free(torus);
    fl_topology_free(custom);
    fl_topology_free(mesh3d);
    fl_topology_free(empty);
    fl_topology_free(irregular);
    fl_topology_free(myrinet);
    test_dir_remove();
    return tap_done();
}
