/* store-fixture.h — what the project file tests share besides fixture.h:
 * SQL straight on a file, to look at what the store wrote and to spoil it. */
#ifndef FLITLAB_STORE_FIXTURE_H
#define FLITLAB_STORE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "fixture.h"
#include "flitlab-store.h"
#include "tap.h"

/* Runs sql on an existing file and returns the first column of its first
 * row as an integer, or -1. */
static inline long long sql_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    long long v = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK
        && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK
        && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* Runs sql on a file, or bails out: the test needs the file it makes. */
static inline void sql_run(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    if (sqlite3_open(path, &db) != SQLITE_OK
        || sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
        printf("Bail out! %s: %s\n", path, sqlite3_errmsg(db));
        exit(99);
    }
    sqlite3_close(db);
}

/* Makes name in the test directory (its path in path) with sql, a file at
 * schema version `version` as an older Flitlab wrote it, and opens it: it
 * must open unmodified and leave the file at its version. The project, or
 * NULL when it does not open. */
static inline FlProject *open_old_file(char *path, size_t size, const char *name, const char *sql,
                                       int version)
{
    FlProject *p = NULL;
    FlError err;
    in_dir(path, size, name);
    sql_run(path, sql);
    CHECK(sql_int(path, "PRAGMA user_version") == version, "the hand-made file is at version %d",
          version);
    int rc = fl_project_open(path, &p, &err);
    CHECK(rc == FL_OK, "a version-%d file opens: %s", version, rc ? err.message : "ok");
    if (rc)
        return NULL;
    CHECK_INT(fl_project_is_modified(p), 0);
    CHECK(sql_int(path, "PRAGMA user_version") == version, "opening leaves the file at version %d",
          version);
    return p;
}

/* Saves a project opened by open_old_file and frees it: the file is now at
 * version 2. */
static inline void save_migrated(FlProject *p, const char *path)
{
    FlError err;
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    fl_project_free(p);
    CHECK(sql_int(path, "PRAGMA user_version") == fl_project_schema_version(),
          "the saved file is at the current version, %d", fl_project_schema_version());
}

#endif /* FLITLAB_STORE_FIXTURE_H */
