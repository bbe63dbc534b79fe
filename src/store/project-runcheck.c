/* project-runcheck.c — the checks of an experiment's committed runs as the
 * journal holds them (project-results.c calls them when it reads an
 * experiment). The schema's constraints keep a file that Flitlab writes
 * right; these find rows that a damaged or hand-edited file holds anyway
 * (a run beyond the design, an unknown status, a time that is no number, a
 * vector whose blob is not whole doubles), which the readers would
 * otherwise take silently, skip or misread. Each check is one query that
 * reads only the damaged rows: sizes and types, not the vectors' data. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "store-private.h"

/* The largest finite double, for SQL: an infinity is above it. */
#define FINITE "1.7976931348623157e308"

typedef struct Check {
    FlJournal *j;
    const char *experiment;
} Check;

static int damaged(FlError *err, const Check *c, sqlite3_int64 idx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int damaged(FlError *err, const Check *c, sqlite3_int64 idx, const char *fmt, ...)
{
    char what[FL_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    /* fmt is a msgid (po/meson.build extracts damaged()'s). */
    vsnprintf(what, sizeof what, fl_gettext(fmt), ap);
    va_end(ap);
    return fl_error_set(err, FL_EPARSE, "'%s' is damaged: experiment '%s', run %lld: %s",
                        c->j->label, c->experiment, (long long)idx, what);
}

/* Column col as text for a message, at most size - 1 bytes of it. */
static const char *text_of(sqlite3_stmt *st, int col, char *buf, size_t size)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(buf, size, "%s", t ? (const char *)t : "");
    return buf;
}

/* The first damaged run row, the checks in order. */
static int check_run(const Check *c, sqlite3_stmt *st, int64_t runs, FlError *err)
{
    sqlite3_int64 idx = sqlite3_column_int64(st, 0);
    char text[64];
    if (sqlite3_column_type(st, 0) != SQLITE_INTEGER)
        return damaged(err, c, idx, "its number is not a whole number");
    if (idx < 0 || idx >= runs)
        return damaged(err, c, idx, "the design has runs 0 to %lld only", (long long)runs - 1);
    if (sqlite3_column_int(st, 1))
        return damaged(err, c, idx, "status '%s' is not done, failed or stopped",
                       text_of(st, 2, text, sizeof text));
    if (sqlite3_column_type(st, 3) != SQLITE_INTEGER)
        return damaged(err, c, idx, "seed '%s' is not a whole number",
                       text_of(st, 3, text, sizeof text));
    return damaged(err, c, idx, "wall_s '%s' is not a time in seconds (a number >= 0)",
                   text_of(st, 4, text, sizeof text));
}

static int check_scalar(const Check *c, sqlite3_stmt *st, int64_t runs, FlError *err)
{
    sqlite3_int64 idx = sqlite3_column_int64(st, 0);
    char name[64], text[64];
    text_of(st, 1, name, sizeof name);
    if (sqlite3_column_type(st, 0) != SQLITE_INTEGER || idx < 0 || idx >= runs)
        return damaged(err, c, idx, "scalar '%s' is of a run the design does not have (runs "
                       "0 to %lld)", name, (long long)runs - 1);
    return damaged(err, c, idx, "scalar '%s' is '%s', not a number", name,
                   text_of(st, 2, text, sizeof text));
}

static int check_vector(const Check *c, sqlite3_stmt *st, int64_t runs, FlError *err)
{
    sqlite3_int64 idx = sqlite3_column_int64(st, 0);
    char name[64], text[64];
    text_of(st, 1, name, sizeof name);
    if (sqlite3_column_type(st, 0) != SQLITE_INTEGER || idx < 0 || idx >= runs)
        return damaged(err, c, idx, "vector '%s' is of a run the design does not have (runs "
                       "0 to %lld)", name, (long long)runs - 1);
    if (!sqlite3_column_int(st, 3))
        return damaged(err, c, idx, "vector '%s': its step '%s' is not a number of cycles >= "
                       "0", name, text_of(st, 2, text, sizeof text));
    if (sqlite3_column_int(st, 4))
        return damaged(err, c, idx, "vector '%s': its data is not a blob", name);
    return damaged(err, c, idx, "vector '%s': its data is %lld bytes, not a whole number of "
                   "8-byte values", name, (long long)sqlite3_column_int64(st, 5));
}

static const struct {
    const char *sql;   /* ?1 the experiment's id, ?2 its runs: the damaged rows */
    int (*report)(const Check *c, sqlite3_stmt *st, int64_t runs, FlError *err);
} checks[] = {
    { "SELECT idx, status NOT IN ('done', 'failed', 'stopped') OR typeof(status) != 'text',"
      "  status, seed, wall_s FROM run WHERE experiment_id = ?1 AND (typeof(idx) != 'integer'"
      "  OR idx < 0 OR idx >= ?2 OR typeof(status) != 'text'"
      "  OR status NOT IN ('done', 'failed', 'stopped') OR typeof(seed) != 'integer'"
      "  OR typeof(wall_s) != 'real' OR NOT (wall_s BETWEEN 0 AND " FINITE "))"
      " ORDER BY idx LIMIT 1", check_run },
    { "SELECT idx, name, value FROM scalar WHERE experiment_id = ?1"
      "  AND (typeof(idx) != 'integer' OR idx < 0 OR idx >= ?2"
      "  OR typeof(value) NOT IN ('real', 'null')) ORDER BY idx LIMIT 1", check_scalar },
    { "SELECT idx, name, step, typeof(step) = 'real' AND step BETWEEN 0 AND " FINITE ","
      "  typeof(data) != 'blob', length(data) FROM vector WHERE experiment_id = ?1"
      "  AND (typeof(idx) != 'integer' OR idx < 0 OR idx >= ?2 OR typeof(step) != 'real'"
      "  OR NOT (step BETWEEN 0 AND " FINITE ") OR typeof(data) != 'blob'"
      "  OR length(data) % 8 != 0) ORDER BY idx LIMIT 1", check_vector },
};

int fl__journal_check_runs(FlJournal *j, sqlite3_int64 id, const char *experiment,
                           int64_t runs, FlError *err)
{
    Check c = { j, experiment };
    int rc = FL_OK;
    for (size_t i = 0; !rc && i < sizeof checks / sizeof checks[0]; i++) {
        sqlite3_stmt *st;
        if ((rc = fl__journal_prepare(j, checks[i].sql, &st, err)))
            break;
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, runs);
        int step = sqlite3_step(st);
        if (step == SQLITE_ROW)
            rc = checks[i].report(&c, st, runs, err);
        else if (step != SQLITE_DONE)
            rc = fl__journal_error(j, step, err);
        sqlite3_finalize(st);
    }
    return rc;
}
