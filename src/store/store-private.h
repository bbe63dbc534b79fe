/* store-private.h — what the files of src/store share with one another.
 *
 * The seam between project.c (the working copy and its files),
 * project-topology.c (the topologies in the working copy) and schema.c
 * (versions, migrations, the SQL of each table). Nothing outside src/store
 * includes this header; the public API is flitlab-store.h.
 */
#ifndef FLITLAB_STORE_PRIVATE_H
#define FLITLAB_STORE_PRIVATE_H

#include <stdlib.h>
#include <string.h>

#include <sys/types.h>

#include <sqlite3.h>

#include "flitlab-store.h"

struct FlProject {
    sqlite3 *db;   /* the working copy, ":memory:" */
    char *path;    /* NULL while untitled */
    int modified;
    /* The file opened for reading its journal, kept between reads (see
     * project-results.c), and the file it was opened on; NULL when none. */
    sqlite3 *reader;
    dev_t reader_dev;
    ino_t reader_ino;
};

/* The current time in SQL, in the ISO 8601 UTC form the API promises. */
#define FL__SQL_NOW "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

/* How messages name a project: its path, or "the untitled project". */
static inline const char *fl__project_label(const FlProject *p)
{
    return p->path ? p->path : "the untitled project";
}

/* Sentences name a project as 'path' or as "the untitled project": pass
 * FL__NAMED(p) for a "%s%s%s" in the format. */
static inline const char *fl__project_quote(const FlProject *p)
{
    return p->path ? "'" : "";
}

#define FL__NAMED(p) fl__project_quote(p), fl__project_label(p), fl__project_quote(p)

/* A copy of s in new memory, or NULL when out of memory. */
static inline char *fl__store_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

/* Maps an SQLite result code to an FlStatus and writes
 * "<label>: <what>: <SQLite's message>" into err. Returns the status. */
int fl__store_error(FlError *err, sqlite3 *db, int rc, const char *label, const char *what);
/* Why SQLite failed, as it says it (db's last error, or rc's without db),
 * translated where it is one of its generic texts. */
const char *fl__store_reason(sqlite3 *db, int rc);

/* Reads an integer pragma ("page_size", "user_version") into *value. */
int fl__store_pragma_int(sqlite3 *db, const char *pragma, int *value, const char *label,
                         FlError *err);

/* Runs one or more SQL statements without results. */
int fl__store_exec(sqlite3 *db, const char *sql, const char *label, FlError *err);

/* project-topology.c, for the other files that work on a project's
 * topologies: prepares a statement (an error names the project); reports a
 * failed step; finds the id of the topology called name (FL_OK,
 * FL_ENOTFOUND with a message, or a database error). */
int fl__project_prepare(FlProject *p, const char *sql, sqlite3_stmt **st, FlError *err);
int fl__project_step_failed(FlProject *p, int rc, FlError *err);
int fl__project_find_topology(FlProject *p, const char *name, sqlite3_int64 *id,
                              FlError *err);

/* Checks a name of a topology, an experiment or a plot (what, a msgid that
 * starts its messages: "a topology name", "an experiment name"): 1 to
 * FL_PROJECT_NAME_MAX characters of UTF-8 (well-formed: no overlong forms,
 * no surrogates), no control characters (C0, DEL, C1). */
int fl__store_check_name(const char *name, const char *what, FlError *err);

/* project.c: opens a database file (flags as sqlite3_open_v2) with errors
 * naming path. SQLITE_OPEN_READONLY opens a file that may be written
 * read-write, so that a hot journal left by a killed write is rolled back. */
int fl__store_open_file(const char *path, int flags, sqlite3 **out, FlError *err);

/* project-results.c, for saves: takes the lock that keeps a journal write
 * and a save's copy-and-rename apart (an flock() on the directory dir of
 * the file; *fd to give to fl__journal_unlock()), and copies the journal of
 * the project file src into the new file dst (nothing when src has none). */
int fl__journal_lock(const char *dir, int *fd, const char *label, FlError *err);
void fl__journal_unlock(int fd);
int fl__journal_copy(const char *dst, const char *src, const char *label, FlError *err);

/* project-results.c, for the other files of the journal (project-plots.c,
 * project-vectors.c):
 * the file opened for one write (locked, upgraded, foreign keys on) or for
 * reading (db NULL for a file from before the journal), statements and
 * errors naming it. */
typedef struct FlJournal {
    sqlite3 *db;
    int lock;          /* -1 when reading */
    const char *label;
    int kept;          /* db is the project's reader, which closing keeps */
} FlJournal;

int fl__journal_open(FlProject *p, int write, FlJournal *j, FlError *err);
void fl__journal_close(FlJournal *j);
/* Closes p's reader: the next read opens the file anew. */
void fl__journal_drop_reader(FlProject *p);
int fl__journal_prepare(FlJournal *j, const char *sql, sqlite3_stmt **st, FlError *err);
int fl__journal_error(FlJournal *j, int rc, FlError *err);
/* Opens p's journal (for one write, or reading) and finds experiment's
 * id; closed again on an error. */
int fl__journal_open_experiment(FlProject *p, int write, const char *experiment, FlJournal *j,
                                sqlite3_int64 *id, FlError *err);
/* Opens p's journal for reading and prepares sql, its first parameter
 * bound to experiment's id. */
int fl__journal_query(FlProject *p, const char *experiment, const char *sql, FlJournal *j,
                      sqlite3_stmt **st, FlError *err);

/* project-runcheck.c: FL_OK, or FL_EPARSE naming the first damaged row
 * among the runs, scalars and vectors of experiment id (of runs runs in its
 * design): "'FILE' is damaged: experiment 'x', run 7: status 'y' is ...". */
int fl__journal_check_runs(FlJournal *j, sqlite3_int64 id, const char *experiment,
                           int64_t runs, FlError *err);

/* Checks that db (a freshly opened file) is a Flitlab project this build
 * can read: the application id, then the schema version. label names the
 * file in messages. */
int fl__schema_check_header(sqlite3 *db, const char *label, FlError *err);

/* Brings a working copy to the current version: for an empty database sets
 * the application id first, then runs every migration above the current
 * user_version, each in its own transaction, and checks that every table of
 * the current schema is present. */
int fl__schema_upgrade(sqlite3 *db, const char *label, FlError *err);

/* Runs PRAGMA quick_check over table and its indexes (NULL: the whole
 * database); FL_EPARSE naming the first problem if any. */
int fl__schema_quick_check(sqlite3 *db, const char *table, const char *label, FlError *err);

/* Whether name is one of the journal tables, which live in the file only:
 * the working copy holds them empty. */
int fl__journal_is_table(const char *name);

#endif /* FLITLAB_STORE_PRIVATE_H */
