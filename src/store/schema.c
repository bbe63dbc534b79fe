/* schema.c — the project file's schema: its versions and their migrations.
 *
 * The schema version is PRAGMA user_version. migrations[i] brings a database
 * from version i to version i + 1 in one transaction, so a project file is
 * always at exactly one version, and adding a version is adding a row at the
 * end of the table (never editing an old row: files in the wild were made by
 * it) and naming its new tables in current_tables. Version 0 is an empty
 * database that carries Flitlab's application id; a new project is made by
 * migrating it, and a file of version v by running the rows from v on.
 */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "store-private.h"

typedef struct Migration {
    const char *summary;  /* what the version adds, for error messages */
    const char *sql;
} Migration;

/* Version 1: topologies as rows, so that later versions can query them
 * (routing tables keyed by node, results joined to links) instead of
 * parsing blobs. Nodes and links keep their engine index (idx) because the
 * engine numbers channels from links, and results will refer to them. */
static const char migration_1[] =
    "CREATE TABLE meta ("
    "  key TEXT PRIMARY KEY NOT NULL,"
    "  value TEXT NOT NULL"
    ") STRICT, WITHOUT ROWID;"
    "INSERT INTO meta (key, value) VALUES"
    "  ('creator_version', '" FL_VERSION_STRING "'),"
    "  ('created', " FL__SQL_NOW ");"
    "CREATE TABLE topology ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT UNIQUE NOT NULL,"
    "  family TEXT NOT NULL,"
    "  family_dims TEXT NOT NULL,"         /* "8x8", or "" without sizes */
    "  spec TEXT,"                          /* NULL for custom networks */
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
    "  c0 INTEGER,"                         /* NULL beyond coord_dims */
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
    ") STRICT, WITHOUT ROWID;";

/* Version 2: node labels, the numbers people see, which deletions leave
 * alone (a file from version 1 had none: each node's label is its index);
 * the next label a new node takes (NULL: the highest label + 1); and
 * per-topology settings, text under a key, where the application keeps
 * what it shows of each network (its routing, options, edited turns). */
static const char migration_2[] =
    "ALTER TABLE node ADD COLUMN label INTEGER NOT NULL DEFAULT 0 CHECK (label >= 0);"
    "UPDATE node SET label = idx;"
    "CREATE UNIQUE INDEX node_label ON node (topology_id, label);"
    "ALTER TABLE topology ADD COLUMN next_label INTEGER CHECK (next_label >= 0);"
    "CREATE TABLE topology_setting ("
    "  topology_id INTEGER NOT NULL REFERENCES topology (id) ON DELETE CASCADE,"
    "  key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 64),"
    "  value TEXT NOT NULL,"
    "  PRIMARY KEY (topology_id, key)"
    ") STRICT;";

/* Version 3: experiments and their runs' results. These tables are the
 * project's journal: a finished run is committed straight into the file
 * (project-results.c), not through the working copy, and a save carries
 * the file's journal over into the file it writes. An experiment keeps the
 * network it was made on (Flitlab JSON), so its runs stay reproducible
 * whatever becomes of the topology of that name, and its design
 * (fl_exp_design_format()); a run is keyed by its number in the design's
 * fixed order, so a resumed experiment runs the numbers it lacks. A
 * scalar's NULL is a NaN. */
static const char migration_3[] =
    "CREATE TABLE experiment ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT UNIQUE NOT NULL CHECK (length(name) BETWEEN 1 AND 200),"
    "  topology TEXT NOT NULL,"             /* as given: a spec, a file, #NAME */
    "  network TEXT NOT NULL,"
    "  design TEXT NOT NULL,"
    "  runs INTEGER NOT NULL CHECK (runs >= 0),"
    "  created TEXT NOT NULL,"
    "  note TEXT"
    ") STRICT;"
    "CREATE TABLE run ("
    "  experiment_id INTEGER NOT NULL REFERENCES experiment (id) ON DELETE CASCADE,"
    "  idx INTEGER NOT NULL CHECK (idx >= 0),"
    "  status TEXT NOT NULL CHECK (status IN ('done', 'failed', 'stopped')),"
    "  seed INTEGER NOT NULL,"
    "  config TEXT NOT NULL,"               /* every key=value of the run */
    "  version TEXT NOT NULL,"
    "  host TEXT NOT NULL,"
    "  started TEXT NOT NULL,"
    "  wall_s REAL NOT NULL,"
    "  error TEXT,"
    "  PRIMARY KEY (experiment_id, idx)"
    ") STRICT, WITHOUT ROWID;"
    "CREATE TABLE runparam ("
    "  experiment_id INTEGER NOT NULL,"
    "  idx INTEGER NOT NULL,"
    "  key TEXT NOT NULL,"
    "  value TEXT NOT NULL,"
    "  PRIMARY KEY (experiment_id, idx, key),"
    "  FOREIGN KEY (experiment_id, idx) REFERENCES run (experiment_id, idx) ON DELETE CASCADE"
    ") STRICT, WITHOUT ROWID;"
    "CREATE INDEX runparam_value ON runparam (experiment_id, key, value);"
    "CREATE TABLE scalar ("
    "  experiment_id INTEGER NOT NULL,"
    "  idx INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  value REAL,"
    "  PRIMARY KEY (experiment_id, idx, name),"
    "  FOREIGN KEY (experiment_id, idx) REFERENCES run (experiment_id, idx) ON DELETE CASCADE"
    ") STRICT, WITHOUT ROWID;"
    "CREATE INDEX scalar_name ON scalar (experiment_id, name);"
    "CREATE TABLE vector ("
    "  experiment_id INTEGER NOT NULL,"
    "  idx INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  step REAL NOT NULL,"                 /* cycles between samples */
    "  data BLOB NOT NULL,"                 /* little-endian doubles */
    "  PRIMARY KEY (experiment_id, idx, name),"
    "  FOREIGN KEY (experiment_id, idx) REFERENCES run (experiment_id, idx) ON DELETE CASCADE"
    ") STRICT, WITHOUT ROWID;";

/* Version 4: plot definitions, so a figure redraws from its experiment's
 * runs; and claims, a row per run in progress (its process and host), so
 * that status can tell the runs being run from the runs missing. Both are
 * journal tables, written straight into the file. */
static const char migration_4[] =
    "CREATE TABLE plot ("
    "  experiment_id INTEGER NOT NULL REFERENCES experiment (id) ON DELETE CASCADE,"
    "  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),"
    "  definition TEXT NOT NULL,"           /* key=value lines (FlPlotSpec) */
    "  created TEXT NOT NULL,"
    "  PRIMARY KEY (experiment_id, name)"
    ") STRICT, WITHOUT ROWID;"
    "CREATE TABLE claim ("
    "  experiment_id INTEGER NOT NULL REFERENCES experiment (id) ON DELETE CASCADE,"
    "  idx INTEGER NOT NULL CHECK (idx >= 0),"
    "  host TEXT NOT NULL,"
    "  pid INTEGER NOT NULL,"
    "  started TEXT NOT NULL,"
    "  PRIMARY KEY (experiment_id, idx)"
    ") STRICT, WITHOUT ROWID;";

/* Version 5: vectors in a table with rowids. A vector is a blob of a few
 * kB, and a table WITHOUT ROWID stores rows that large poorly (each spills
 * from its b-tree page): a file's vectors take 28 % less room this way.
 * The unique key stays as an index. */
static const char migration_5[] =
    "CREATE TABLE vector_rows ("
    "  experiment_id INTEGER NOT NULL,"
    "  idx INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  step REAL NOT NULL,"                 /* cycles between samples; 0: per channel */
    "  data BLOB NOT NULL,"                 /* little-endian doubles */
    "  UNIQUE (experiment_id, idx, name),"
    "  FOREIGN KEY (experiment_id, idx) REFERENCES run (experiment_id, idx) ON DELETE CASCADE"
    ") STRICT;"
    "INSERT INTO vector_rows SELECT experiment_id, idx, name, step, data FROM vector;"
    "DROP TABLE vector;"
    "ALTER TABLE vector_rows RENAME TO vector;";

static const Migration migrations[] = {
    {"topologies", migration_1},
    {"node labels and topology settings", migration_2},
    {"experiments and their results", migration_3},
    {"plot definitions and runs in progress", migration_4},
    {"vectors stored with rowids", migration_5},
};

#define N_MIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

/* Every table the current version has; a file that lacks one is damaged
 * even if its version number says otherwise. */
static const char *const current_tables[] = {"meta", "topology", "node", "link",
                                             "topology_setting", "experiment", "run",
                                             "runparam", "scalar", "vector", "plot", "claim"};

int fl_project_schema_version(void)
{
    return N_MIGRATIONS;
}

/* SQLite's generic texts for the failures a user meets (its own, so that
 * the C locale reads as SQLite writes them), for translators. */
static const struct {
    int code;
    const char *text;
} reasons[] = {
    { SQLITE_ERROR, FL_N_("SQL logic error") },
    { SQLITE_PERM, FL_N_("access permission denied") },
    { SQLITE_BUSY, FL_N_("database is locked") },
    { SQLITE_NOMEM, FL_N_("out of memory") },
    { SQLITE_READONLY, FL_N_("attempt to write a readonly database") },
    { SQLITE_IOERR, FL_N_("disk I/O error") },
    { SQLITE_CORRUPT, FL_N_("database disk image is malformed") },
    { SQLITE_FULL, FL_N_("database or disk is full") },
    { SQLITE_CANTOPEN, FL_N_("unable to open database file") },
    { SQLITE_TOOBIG, FL_N_("string or blob too big") },
    { SQLITE_NOTADB, FL_N_("file is not a database") },
};

const char *fl__store_reason(sqlite3 *db, int rc)
{
    int code = (db ? sqlite3_extended_errcode(db) : rc) & 0xff;
    const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    /* A message with details ("no such table: x") is SQLite's own. */
    if (strcmp(msg, sqlite3_errstr(code)) != 0)
        return msg;
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (reasons[i].code == code && strcmp(msg, reasons[i].text) == 0)
            return fl_gettext(reasons[i].text);
    return msg;
}

int fl__store_error(FlError *err, sqlite3 *db, int rc, const char *label, const char *what)
{
    int code;
    switch (rc & 0xff) {
    case SQLITE_NOMEM:
        code = FL_ENOMEM;
        break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_FORMAT:
        code = FL_EPARSE;
        break;
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
    case SQLITE_RANGE:
    case SQLITE_TOOBIG:
        code = FL_EINVAL;
        break;
    default:
        code = FL_EIO;
        break;
    }
    const char *msg = fl__store_reason(db, rc);
    /* what is a msgid (po/meson.build extracts fl__store_error()'s). */
    return fl_error_set(err, code, "%s: %s: %s", label, fl_gettext(what), msg);
}

int fl__store_exec(sqlite3 *db, const char *sql, const char *label, FlError *err)
{
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return fl__store_error(err, db, rc, label, "database error");
    return FL_OK;
}

int fl__store_pragma_int(sqlite3 *db, const char *pragma, int *value, const char *label,
                         FlError *err)
{
    char sql[64];
    sqlite3_stmt *st = NULL;
    snprintf(sql, sizeof sql, "PRAGMA %s", pragma);
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        /* Reading page 1 is the first thing SQLite does with a file, so
         * "file is not a database" surfaces here. */
        if ((rc & 0xff) == SQLITE_NOTADB)
            rc = fl_error_set(err, FL_EPARSE, "'%s' is not a Flitlab project (%s)",
                              label, fl__store_reason(db, rc));
        else if ((rc & 0xff) == SQLITE_CORRUPT)
            rc = fl_error_set(err, FL_EPARSE, "'%s' is damaged (%s)", label,
                              fl__store_reason(db, rc));
        else
            rc = fl__store_error(err, db, rc, label, "cannot read the file header");
        sqlite3_finalize(st);
        return rc;
    }
    *value = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return FL_OK;
}

int fl__schema_check_header(sqlite3 *db, const char *label, FlError *err)
{
    int app_id, version, rc;
    if ((rc = fl__store_pragma_int(db, "application_id", &app_id, label, err)))
        return rc;
    if (app_id != FL_PROJECT_APPLICATION_ID) {
        if (app_id == 0)
            return fl_error_set(err, FL_EPARSE,
                                "'%s' is not a Flitlab project (it is an SQLite database "
                                "without an application id)", label);
        return fl_error_set(err, FL_EPARSE,
                            "'%s' is not a Flitlab project (it is an SQLite database of "
                            "another application, id 0x%08x)", label, (unsigned)app_id);
    }
    if ((rc = fl__store_pragma_int(db, "user_version", &version, label, err)))
        return rc;
    if (version > N_MIGRATIONS)
        return fl_error_set(err, FL_EVERSION,
                            "'%s' was written by a newer Flitlab (project schema version "
                            "%d; this version reads up to %d)", label, version, N_MIGRATIONS);
    if (version < 0)
        return fl_error_set(err, FL_EPARSE, "'%s' is damaged (schema version %d)", label,
                            version);
    return FL_OK;
}

/* SQLite's integrity reports span lines ("*** in database main ***\nPage 3:
 * ..."); FlError messages are one line. */
static void one_line(char *dst, size_t size, const char *src)
{
    static const char banner[] = "*** in database main ***";
    if (strncmp(src, banner, sizeof banner - 1) == 0)
        src += sizeof banner - 1;
    src += strspn(src, "\n ");
    size_t n = 0;
    for (; *src && n + 1 < size; src++)
        dst[n++] = *src == '\n' ? ' ' : *src;
    dst[n] = '\0';
}

int fl__schema_quick_check(sqlite3 *db, const char *table, const char *label, FlError *err)
{
    char what[256];
    sqlite3_stmt *st = NULL;
    char *sql = table ? sqlite3_mprintf("PRAGMA quick_check('%q')", table)
                      : sqlite3_mprintf("PRAGMA quick_check(1)");
    if (!sql)
        return fl_error_set(err, FL_ENOMEM, "out of memory checking '%s'", label);
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    sqlite3_free(sql);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        rc = fl_error_set(err, FL_EPARSE, "'%s' is damaged (%s)", label,
                          fl__store_reason(db, rc));
    } else {
        const char *verdict = (const char *)sqlite3_column_text(st, 0);
        if (verdict && strcmp(verdict, "ok") == 0) {
            rc = FL_OK;
        } else {
            one_line(what, sizeof what, verdict ? verdict : "the integrity check failed");
            rc = fl_error_set(err, FL_EPARSE, "'%s' is damaged (%s)", label, what);
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/* Applies migrations[from] in one transaction, version number included, so
 * a failure leaves the database at version `from`. */
static int apply_migration(sqlite3 *db, int from, const char *label, FlError *err)
{
    char sql[64];
    int rc = fl__store_exec(db, "BEGIN IMMEDIATE", label, err);
    if (rc)
        return rc;
    rc = sqlite3_exec(db, migrations[from].sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK) {
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", from + 1);
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        char what[160];
        snprintf(what, sizeof what, "cannot upgrade the project to version %d (%s)",
                 from + 1, migrations[from].summary);
        int code = fl__store_error(err, db, rc, label, what);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return code;
    }
    return FL_OK;
}

static int check_tables(sqlite3 *db, const char *label, FlError *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db,
                                "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return fl__store_error(err, db, rc, label, "cannot read the schema");
    int n = (int)(sizeof current_tables / sizeof current_tables[0]);
    for (int i = 0; i < n; i++) {
        sqlite3_bind_text(st, 1, current_tables[i], -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_ROW) {
            sqlite3_finalize(st);
            return fl_error_set(err, FL_EPARSE, "'%s' is damaged (table '%s' is missing)",
                                label, current_tables[i]);
        }
    }
    sqlite3_finalize(st);
    return FL_OK;
}

int fl__schema_upgrade(sqlite3 *db, const char *label, FlError *err)
{
    int app_id, version, rc;
    if ((rc = fl__store_pragma_int(db, "application_id", &app_id, label, err))
        || (rc = fl__store_pragma_int(db, "user_version", &version, label, err)))
        return rc;
    if (app_id != FL_PROJECT_APPLICATION_ID) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA application_id = %d", FL_PROJECT_APPLICATION_ID);
        if ((rc = fl__store_exec(db, sql, label, err)))
            return rc;
    }
    for (int v = version; v < N_MIGRATIONS; v++)
        if ((rc = apply_migration(db, v, label, err)))
            return rc;
    return check_tables(db, label, err);
}
