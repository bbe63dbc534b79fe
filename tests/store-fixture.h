/* store-fixture.h — what the project file tests share besides fixture.h:
 * SQL straight on a file, to look at what the store wrote and to spoil it. */
#ifndef FLITLAB_STORE_FIXTURE_H
#define FLITLAB_STORE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "fixture.h"

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

#endif /* FLITLAB_STORE_FIXTURE_H */
