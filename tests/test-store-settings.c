/* test-store-settings.c — schema version 2 of the project file: migrating
 * a version-1 file (built here with version 1's own SQL), node labels
 * through a file, per-topology settings (round trip, rename, delete,
 * replace, the modified flag, bad keys and values), and a newer version
 * refused. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "flitlab-store.h"
#include "store-fixture.h"
#include "tap.h"

/* A project file exactly as Flitlab wrote it at schema version 1: the
 * tables of version 1 (its migration, verbatim) holding a 3-switch line
 * with a host on switch 0, stored as the store of that version stored it.
 * The SQL is a copy of version 1's in src/store/schema.c on purpose: it
 * stands for files already on disk, so it must not follow later edits. */
static const char v1_file[] =
    "PRAGMA application_id = 1179404628;"  /* 0x464C4954, "FLIT" */
    "CREATE TABLE meta ("
    "  key TEXT PRIMARY KEY NOT NULL,"
    "  value TEXT NOT NULL"
    ") STRICT, WITHOUT ROWID;"
    "INSERT INTO meta (key, value) VALUES"
    "  ('creator_version', '0.1.0'),"
    "  ('created', '2026-01-05T10:00:00Z');"
    "CREATE TABLE topology ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT UNIQUE NOT NULL,"
    "  family TEXT NOT NULL,"
    "  family_dims TEXT NOT NULL,"
    "  spec TEXT,"
    "  coord_dims INTEGER NOT NULL CHECK (coord_dims BETWEEN 0 AND 3),"
    "  note TEXT,"
    "  created TEXT NOT NULL,"
    "  modified TEXT NOT NULL"
    ") STRICT;"
    "CREATE TABLE node ("
    "  topology_id INTEGER NOT NULL REFERENCES topology (id) ON DELETE CASCADE,"
    "  idx INTEGER NOT NULL,"
    "  kind TEXT NOT NULL CHECK (kind IN ('switch', 'host')),"
    "  ports INTEGER NOT NULL CHECK (ports >= 1),"
    "  x REAL NOT NULL,"
    "  y REAL NOT NULL,"
    "  c0 INTEGER,"
    "  c1 INTEGER,"
    "  c2 INTEGER,"
    "  PRIMARY KEY (topology_id, idx)"
    ") STRICT, WITHOUT ROWID;"
    "CREATE TABLE link ("
    "  topology_id INTEGER NOT NULL REFERENCES topology (id) ON DELETE CASCADE,"
    "  idx INTEGER NOT NULL,"
    "  a INTEGER NOT NULL,"
    "  pa INTEGER NOT NULL,"
    "  b INTEGER NOT NULL,"
    "  pb INTEGER NOT NULL,"
    "  PRIMARY KEY (topology_id, idx)"
    ") STRICT, WITHOUT ROWID;"
    "INSERT INTO topology VALUES (1, 'old line', 'custom', '', NULL, 1, NULL,"
    "  '2026-01-05T10:00:00Z', '2026-01-05T10:00:00Z');"
    "INSERT INTO topology VALUES (2, 'old ring', 'ring', '3', 'ring:3,hosts=0', 1, NULL,"
    "  '2026-01-05T10:00:00Z', '2026-01-05T10:00:00Z');"
    "INSERT INTO node VALUES (1, 0, 'switch', 3, 0, 0, 0, NULL, NULL),"
    "  (1, 1, 'switch', 3, 1, 0, 1, NULL, NULL), (1, 2, 'switch', 3, 2, 0, 2, NULL, NULL),"
    "  (1, 3, 'host', 1, 0.25, 0.25, 0, NULL, NULL);"
    "INSERT INTO link VALUES (1, 0, 0, 0, 1, 1), (1, 1, 1, 0, 2, 1), (1, 2, 3, 0, 0, 2);"
    "INSERT INTO node VALUES (2, 0, 'switch', 2, 0, 0, 0, NULL, NULL),"
    "  (2, 1, 'switch', 2, 1, 0, 1, NULL, NULL), (2, 2, 'switch', 2, 0.5, 1, 2, NULL, NULL);"
    "INSERT INTO link VALUES (2, 0, 0, 0, 1, 1), (2, 1, 1, 0, 2, 1), (2, 2, 2, 0, 0, 1);"
    "PRAGMA user_version = 1;";

static void test_migration(void)
{
    char path[256];
    FlProject *p = NULL;
    FlError err;
    p = open_old_file(path, sizeof path, "v1.flitlab", v1_file, 1);
    if (!p)
        return;

    /* Every node's label is its index; the next label follows them. */
    FlTopology *t = NULL;
    CHECK_INT(fl_project_get_topology(p, "old line", &t, &err), FL_OK);
    if (t) {
        int same = 1;
        for (int n = 0; n < fl_topology_node_count(t); n++)
            same = same && fl_topology_node_label(t, n) == n;
        CHECK(same && fl_topology_node_count(t) == 4, "migrated labels are the indices");
        CHECK_INT(fl_topology_next_label(t), 4);
        CHECK_INT(fl_topology_validate(t, NULL), FL_OK);
        fl_topology_free(t);
    }
    /* A generated network keeps its family through the migration. */
    CHECK_INT(fl_project_get_topology(p, "old ring", &t, &err), FL_OK);
    if (t) {
        CHECK(strcmp(fl_topology_family(t), "ring") == 0, "the ring is still a ring");
        fl_topology_free(t);
    }
    char **keys = NULL;
    int n = -1;
    CHECK_INT(fl_project_list_topology_settings(p, "old line", &keys, &n, &err), FL_OK);
    CHECK(n == 0 && keys == NULL, "a migrated topology has no settings");
    CHECK_INT(fl_project_set_topology_setting(p, "old line", "routing", "updown", &err), FL_OK);
    save_migrated(p, path);

    CHECK(sql_int(path, "SELECT count(*) FROM node WHERE label = idx") == 7,
          "every node row has its index as label");
    CHECK(sql_int(path, "SELECT count(*) FROM topology_setting") == 1, "and the setting");
    CHECK(sql_int(path, "SELECT count(*) FROM sqlite_schema WHERE type = 'index'"
                        " AND name = 'node_label'") == 1,
          "labels are unique per topology in the file");
    int rc = fl_project_open(path, &p, &err);
    CHECK(rc == FL_OK, "the migrated file opens again: %s", rc ? err.message : "ok");
    fl_project_free(p);
}

static void test_labels(void)
{
    char path[256];
    FlProject *p = NULL;
    FlError err;
    FlTopology *mesh = from_spec("mesh:8x8");

    /* The fault demo: switch 9 goes; the others keep their numbers, and
     * the next switch added does not take 9 (or 63, deleted too). */
    fl_topology_remove_node(mesh, 9, NULL);
    fl_topology_remove_node(mesh, fl_topology_find_label(mesh, 63), NULL);
    fl_project_new(&p, &err);
    CHECK_INT(fl_project_put_topology(p, "faulty", mesh, 0, &err), FL_OK);
    IN_DIR(path, "labels.flitlab");
    CHECK_INT(fl_project_save_as(p, path, &err), FL_OK);
    fl_project_free(p);

    FlTopology *back = NULL;
    int rc = fl_project_open(path, &p, &err);
    if (rc == FL_OK)
        rc = fl_project_get_topology(p, "faulty", &back, &err);
    CHECK(rc == FL_OK, "the edited mesh comes back: %s", rc ? err.message : "ok");
    if (back) {
        int same = fl_topology_node_count(back) == fl_topology_node_count(mesh);
        for (int n = 0; same && n < fl_topology_node_count(back); n++)
            same = fl_topology_node_label(back, n) == fl_topology_node_label(mesh, n);
        CHECK(same, "every label survives the file");
        CHECK_INT(fl_topology_find_label(back, 10), 9);
        CHECK_INT(fl_topology_find_label(back, 9), -1);
        CHECK_INT(fl_topology_next_label(back), fl_topology_next_label(mesh));
        int id;
        fl_topology_add_node(back, FL_NODE_SWITCH, 4, &id, NULL);
        CHECK(fl_topology_node_label(back, id) > 63, "a new switch takes a new label (%d)",
              fl_topology_node_label(back, id));
        fl_topology_free(back);
    }
    fl_project_free(p);

    /* Two nodes with one label in the file: damaged, and said so. */
    sql_run(path, "DROP INDEX node_label; UPDATE node SET label = 3 WHERE idx = 4");
    rc = fl_project_open(path, &p, &err);
    if (rc == FL_OK)
        rc = fl_project_get_topology(p, "faulty", &back, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "node 4 has a bad or duplicate label 3"),
          "a duplicate label is reported: %s", err.message);
    fl_project_free(p);
    fl_topology_free(mesh);
}

/* The sorted keys of name's settings, joined by commas. */
static void keys_of(FlProject *p, const char *name, char *out, size_t size)
{
    char **keys = NULL;
    int n = 0;
    out[0] = '\0';
    if (fl_project_list_topology_settings(p, name, &keys, &n, NULL) != FL_OK) {
        snprintf(out, size, "(error)");
        return;
    }
    size_t len = 0;
    for (int i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s%s", i ? "," : "", keys[i]);
    fl_project_setting_keys_free(keys, n);
}

/* Whether key of name holds want (NULL: is unset). */
static int holds(FlProject *p, const char *name, const char *key, const char *want)
{
    char *value = (char *)"unchanged";
    if (fl_project_get_topology_setting(p, name, key, &value, NULL) != FL_OK)
        return 0;
    int ok = want ? value && strcmp(value, want) == 0 : value == NULL;
    free(value);
    return ok;
}

static void test_settings(void)
{
    char path[256], keys[512];
    FlProject *p = NULL;
    FlError err;
    FlTopology *torus = from_spec("torus:4x4"), *ring = from_spec("ring:5");
    fl_project_new(&p, &err);
    fl_project_put_topology(p, "torus", torus, 0, &err);
    fl_project_put_topology(p, "ring", ring, 0, &err);
    IN_DIR(path, "settings.flitlab");
    CHECK_INT(fl_project_save_as(p, path, &err), FL_OK);
    CHECK_INT(fl_project_is_modified(p), 0);

    /* Setting marks the project modified; the same value again does not. */
    static const char turns[] = "{\"prohibited\": [\"3:0>1\", \"5:2>0\"],\n"
                                " \"note\": \"caf\xc3\xa9\"}";
    CHECK_INT(fl_project_set_topology_setting(p, "torus", "routing.algorithm", "lturn-alpha",
                                              &err), FL_OK);
    CHECK_INT(fl_project_is_modified(p), 1);
    CHECK_INT(fl_project_set_topology_setting(p, "torus", "routing.turns", turns, &err), FL_OK);
    CHECK_INT(fl_project_set_topology_setting(p, "torus", "overlays", "", &err), FL_OK);
    CHECK_INT(fl_project_set_topology_setting(p, "ring", "routing.algorithm", "updown", &err),
              FL_OK);
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    CHECK_INT(fl_project_set_topology_setting(p, "torus", "routing.algorithm", "lturn-alpha",
                                              &err), FL_OK);
    CHECK(!fl_project_is_modified(p), "setting the value a key has changes nothing");
    CHECK_INT(fl_project_set_topology_setting(p, "torus", "no-such-key", NULL, &err), FL_OK);
    CHECK(!fl_project_is_modified(p), "removing a key that is not set changes nothing");
    fl_project_free(p);

    /* Round trip through the file. */
    int rc = fl_project_open(path, &p, &err);
    CHECK(rc == FL_OK, "the project opens: %s", rc ? err.message : "ok");
    if (rc)
        return;
    keys_of(p, "torus", keys, sizeof keys);
    CHECK(strcmp(keys, "overlays,routing.algorithm,routing.turns") == 0, "sorted keys: %s",
          keys);
    CHECK(holds(p, "torus", "routing.turns", turns), "a value survives the file byte for byte");
    CHECK(holds(p, "torus", "overlays", ""), "an empty value is a value");
    CHECK(holds(p, "torus", "route", NULL), "an unset key reads as NULL");
    CHECK(holds(p, "ring", "routing.algorithm", "updown"), "each topology has its own");

    /* Removing a key marks the project modified. */
    CHECK_INT(fl_project_set_topology_setting(p, "torus", "overlays", NULL, &err), FL_OK);
    CHECK_INT(fl_project_is_modified(p), 1);
    CHECK(holds(p, "torus", "overlays", NULL), "a removed key is unset");

    /* Settings follow a rename, stay when the topology is replaced, and
     * go with it when it is deleted. */
    CHECK_INT(fl_project_rename_topology(p, "torus", "edited torus", &err), FL_OK);
    CHECK(holds(p, "edited torus", "routing.algorithm", "lturn-alpha"), "renamed: kept");
    CHECK_INT(fl_project_get_topology_setting(p, "torus", "routing.algorithm", &(char *){NULL},
                                              &err), FL_ENOTFOUND);
    fl_topology_remove_node(torus, 5, NULL);
    CHECK_INT(fl_project_put_topology(p, "edited torus", torus, 1, &err), FL_OK);
    CHECK(holds(p, "edited torus", "routing.turns", turns), "replaced: kept");
    CHECK_INT(fl_project_delete_topology(p, "edited torus", &err), FL_OK);
    CHECK_INT(fl_project_put_topology(p, "edited torus", torus, 0, &err), FL_OK);
    keys_of(p, "edited torus", keys, sizeof keys);
    CHECK(strcmp(keys, "") == 0, "deleted: gone, even for a new topology of that name (%s)",
          keys);
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    fl_project_free(p);
    CHECK(sql_int(path, "SELECT count(*) FROM topology_setting") == 1,
          "the file keeps the ring's one setting");

    /* Bad keys and values, and missing topologies. */
    fl_project_open(path, &p, &err);
    static const char *const bad_keys[] = { "", "Routing", "routing algorithm", "r/t", "\xc3\xa9",
                                            "0123456789012345678901234567890123456789012345678"
                                            "9012345678901234" };
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++) {
        rc = fl_project_set_topology_setting(p, "ring", bad_keys[i], "x", &err);
        CHECK(rc == FL_EINVAL && strstr(err.message, "setting key"), "key '%s' refused: %s",
              bad_keys[i], err.message);
    }
    CHECK_INT(fl_project_set_topology_setting(p, "ring", NULL, "x", &err), FL_EINVAL);
    CHECK_INT(fl_project_get_topology_setting(p, "ring", "Bad", &(char *){NULL}, &err), FL_EINVAL);
    char key64[65];
    memset(key64, 'k', 64);
    key64[64] = '\0';
    CHECK_INT(fl_project_set_topology_setting(p, "ring", key64, "x", &err), FL_OK);
    CHECK_INT(fl_project_set_topology_setting(p, "ring", "a.b_c-9", "x", &err), FL_OK);

    rc = fl_project_set_topology_setting(p, "ring", "bad", "caf\xe9", &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "UTF-8"), "Latin-1 refused: %s", err.message);
    rc = fl_project_set_topology_setting(p, "ring", "bad", "\xed\xa0\x80", &err);
    CHECK(rc == FL_EINVAL, "a surrogate refused: %s", err.message);
    size_t mib = (size_t)1 << 20;
    char *big = malloc(mib + 2);
    memset(big, 'v', mib + 1);
    big[mib] = '\0';
    CHECK_INT(fl_project_set_topology_setting(p, "ring", "big", big, &err), FL_OK);
    CHECK(holds(p, "ring", "big", big), "a 1 MiB value is kept");
    big[mib] = 'v';
    big[mib + 1] = '\0';
    rc = fl_project_set_topology_setting(p, "ring", "big", big, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "at most 1048576 bytes"),
          "a value over 1 MiB refused: %s", err.message);
    free(big);

    rc = fl_project_set_topology_setting(p, "nothing", "k", "v", &err);
    CHECK(rc == FL_ENOTFOUND && strstr(err.message, "no topology named 'nothing'"),
          "no such topology: %s", err.message);
    char **list = NULL;
    int n = 0;
    CHECK_INT(fl_project_list_topology_settings(p, "nothing", &list, &n, &err), FL_ENOTFOUND);
    CHECK_INT(fl_project_get_topology_setting(p, "nothing", "k", &(char *){NULL}, &err),
              FL_ENOTFOUND);
    fl_project_free(p);
    fl_topology_free(torus);
    fl_topology_free(ring);
}

static void test_newer_version(void)
{
    char path[256];
    FlProject *p = NULL;
    FlError err;
    fl_project_new(&p, &err);
    IN_DIR(path, "v6.flitlab");
    fl_project_save_as(p, path, &err);
    fl_project_free(p);
    CHECK_INT(fl_project_schema_version(), 5);
    sql_run(path, "PRAGMA user_version = 6");
    p = NULL;
    int rc = fl_project_open(path, &p, &err);
    CHECK(rc == FL_EVERSION && p == NULL
              && strstr(err.message, "newer Flitlab (project schema version 6; this version "
                                     "reads up to 5)"),
          "a version-6 file is refused: %s", err.message);
}

int main(void)
{
    if (!test_dir_make("flitlab-settings"))
        return 99;
    test_migration();
    test_labels();
    test_settings();
    test_newer_version();
    test_dir_remove();
    return tap_done();
}
