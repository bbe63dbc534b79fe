/* project-results.c — the project's journal: experiments and the results
 * of their runs, written straight into the project's file and read from
 * it (see flitlab-store.h), and carried over by saves.
 *
 * Every write opens the file, takes the directory lock, upgrades an older
 * schema, writes in one IMMEDIATE transaction with synchronous = FULL and
 * closes the file again: nothing stays open across the rename by which a
 * save replaces the file, so no write can land in a file that is no longer
 * the project's. Reads open the file without the lock (read-only when it
 * may not be written): SQLite's own locking gives them a consistent state,
 * of the old file or the new, and its busy timeout makes a read and a
 * commit wait for each other rather than fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store-private.h"

/* The journal tables, parents first (the order copies insert in), and the
 * schema version that brought each. */
static const struct {
    const char *name;
    int since;
} journal_tables[] = {
    { "experiment", 3 }, { "run", 3 }, { "runparam", 3 }, { "scalar", 3 }, { "vector", 3 },
    { "plot", 4 }, { "claim", 4 },
};
#define N_JOURNAL ((int)(sizeof journal_tables / sizeof journal_tables[0]))

int fl__journal_is_table(const char *name)
{
    for (int i = 0; i < N_JOURNAL; i++)
        if (strcmp(name, journal_tables[i].name) == 0)
            return 1;
    return 0;
}

static const char *const status_names[] = { "done", "failed", "stopped" };

int fl__journal_lock(const char *dir, int *fd, const char *label, FlError *err)
{
    *fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (*fd < 0)
        return fl_error_set(err, FL_EIO, "'%s': cannot open its directory: %s", label,
                            strerror(errno));
    while (flock(*fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            int e = errno;
            close(*fd);
            *fd = -1;
            return fl_error_set(err, FL_EIO, "'%s': cannot lock its directory: %s", label,
                                strerror(e));
        }
    }
    return FL_OK;
}

void fl__journal_unlock(int fd)
{
    if (fd >= 0)
        close(fd);   /* releases the flock */
}

int fl__journal_copy(const char *dst, const char *src, const char *label, FlError *err)
{
    sqlite3 *db = NULL;
    int rc = fl__store_open_file(dst, SQLITE_OPEN_READWRITE, &db, err);
    if (rc)
        return rc;
    /* As the copy itself: a failure throws the new file away, and the
     * caller syncs it once it is complete; no journal file beside it. */
    sqlite3_stmt *st = NULL;
    if ((rc = fl__store_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", label,
                             err)))
        goto out;
    int version = 0;
    if (sqlite3_prepare_v2(db, "ATTACH ? AS src", -1, &st, NULL) != SQLITE_OK) {
        rc = fl__store_error(err, db, sqlite3_errcode(db), label, "cannot read the journal");
        goto out;
    }
    sqlite3_bind_text(st, 1, src, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    if (step != SQLITE_DONE) {
        rc = fl__store_error(err, db, step, label, "cannot read the journal");
        goto out;
    }
    if ((rc = fl__store_pragma_int(db, "src.user_version", &version, label, err)))
        goto detach;
    /* A file from before version 3 has no journal. */
    if (version >= 3) {
        char sql[1024] = "BEGIN;";
        for (int i = N_JOURNAL - 1; i >= 0; i--)
            snprintf(sql + strlen(sql), sizeof sql - strlen(sql), "DELETE FROM main.%s;",
                     journal_tables[i].name);
        for (int i = 0; i < N_JOURNAL; i++)
            if (version >= journal_tables[i].since)
                snprintf(sql + strlen(sql), sizeof sql - strlen(sql),
                         "INSERT INTO main.%s SELECT * FROM src.%s;", journal_tables[i].name,
                         journal_tables[i].name);
        snprintf(sql + strlen(sql), sizeof sql - strlen(sql), "COMMIT;");
        if ((rc = fl__store_exec(db, sql, label, err)))
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
detach:
    sqlite3_exec(db, "DETACH src", NULL, NULL, NULL);
out:
    if (sqlite3_close(db) != SQLITE_OK && !rc)
        rc = fl_error_set(err, FL_EIO, "'%s': cannot close the new file", label);
    return rc;
}

/* --- opening the file --------------------------------------------------- */

typedef FlJournal Journal;

static void journal_close(Journal *j)
{
    if (!j->kept)
        sqlite3_close(j->db);
    j->db = NULL;
    j->kept = 0;
    fl__journal_unlock(j->lock);
    j->lock = -1;
}

void fl__journal_drop_reader(FlProject *p)
{
    sqlite3_close(p->reader);
    p->reader = NULL;
}

/* Reads go through one connection kept open between them: opening a file
 * costs more than most reads, as SQLite parses the whole schema anew for
 * each connection. It sees what others commit (SQLite checks the file for
 * changes as each read begins), and is opened anew once p->path names
 * another file: a save, here or in another process, renames a new file
 * over the old one. */
static int open_reader(FlProject *p, Journal *j, FlError *err)
{
    struct stat st;
    /* The file is looked up before it is opened: should a rename come in
     * between, the next read sees the mismatch and opens the new file. */
    int found = stat(p->path, &st) == 0;
    if (p->reader && (!found || st.st_dev != p->reader_dev || st.st_ino != p->reader_ino))
        fl__journal_drop_reader(p);
    if (!p->reader) {
        int rc = fl__store_open_file(p->path, SQLITE_OPEN_READONLY, &p->reader, err);
        if (rc)
            return rc;
        p->reader_dev = found ? st.st_dev : 0;
        p->reader_ino = found ? st.st_ino : 0;
    }
    j->db = p->reader;
    j->kept = 1;
    return FL_OK;
}

/* Opens p's file for writing (locked, upgraded) or for reading. For a read
 * of a file without a journal (before version 3), FL_OK with j->db NULL. */
static int journal_open(FlProject *p, int write, Journal *j, FlError *err)
{
    j->db = NULL;
    j->lock = -1;
    j->kept = 0;
    j->label = fl__project_label(p);
    if (!p->path)
        return fl_error_set(err, FL_EINVAL, "the untitled project has no file for experiments "
                            "and results: save the project first");
    if (access(p->path, F_OK) != 0)
        return fl_error_set(err, FL_ENOTFOUND, "'%s': the project's file is gone: save the "
                            "project again", p->path);
    int rc;
    if (write) {
        char *dir = fl__store_strdup(p->path), *slash;
        if (!dir)
            return fl_error_set(err, FL_ENOMEM, "out of memory");
        if ((slash = strrchr(dir, '/')))
            slash[slash == dir] = '\0';
        else
            strcpy(dir, ".");
        rc = fl__journal_lock(dir, &j->lock, j->label, err);
        free(dir);
        if (rc)
            return rc;
    }
    /* A reader that may write opens the file for writing too
     * (fl__store_open_file()): after a writer was killed mid-transaction,
     * only such a connection can roll its hot journal back. */
    rc = write ? fl__store_open_file(p->path, SQLITE_OPEN_READWRITE, &j->db, err)
               : open_reader(p, j, err);
    if (!rc)
        rc = fl__schema_check_header(j->db, j->label, err);
    if (!rc && write)
        rc = fl__schema_upgrade(j->db, j->label, err);
    if (!rc && write)
        rc = fl__store_exec(j->db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL",
                            j->label, err);
    int version = 0;
    if (!rc && !write && !(rc = fl__store_pragma_int(j->db, "user_version", &version,
                                                     j->label, err)) && version < 3) {
        journal_close(j);
        return FL_OK;
    }
    if (rc)
        journal_close(j);
    return rc;
}

static int db_error(Journal *j, int rc, FlError *err)
{
    return fl__store_error(err, j->db, rc, j->label, "cannot use the results");
}

static int prepare(Journal *j, const char *sql, sqlite3_stmt **st, FlError *err)
{
    int rc = sqlite3_prepare_v2(j->db, sql, -1, st, NULL);
    return rc == SQLITE_OK ? FL_OK : db_error(j, rc, err);
}

static int no_such_experiment(FlError *err, const Journal *j, const char *name)
{
    return fl_error_set(err, FL_ENOTFOUND, "'%s' has no experiment named '%s'", j->label,
                        name);
}

/* The id and design size of experiment name. */
static int find_experiment(Journal *j, const char *name, sqlite3_int64 *id, int64_t *runs,
                           FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(j, "SELECT id, runs FROM experiment WHERE name = ?", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        if (runs)
            *runs = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    if (step == SQLITE_ROW)
        return FL_OK;
    return step == SQLITE_DONE ? no_such_experiment(err, j, name) : db_error(j, step, err);
}

int fl__journal_open(FlProject *p, int write, FlJournal *j, FlError *err)
{
    return journal_open(p, write, j, err);
}

void fl__journal_close(FlJournal *j)
{
    journal_close(j);
}

int fl__journal_prepare(FlJournal *j, const char *sql, sqlite3_stmt **st, FlError *err)
{
    return prepare(j, sql, st, err);
}

int fl__journal_error(FlJournal *j, int rc, FlError *err)
{
    return db_error(j, rc, err);
}

int fl__journal_open_experiment(FlProject *p, int write, const char *experiment, FlJournal *j,
                                sqlite3_int64 *id, FlError *err)
{
    if (!p || !experiment)
        return fl_error_set(err, FL_EINVAL, "no project or no experiment given");
    int rc = journal_open(p, write, j, err);
    if (rc)
        return rc;
    /* A read of a file from before the journal finds no experiment. */
    if (!j->db)
        return no_such_experiment(err, j, experiment);
    if ((rc = find_experiment(j, experiment, id, NULL, err)))
        journal_close(j);
    return rc;
}

int fl__journal_query(FlProject *p, const char *experiment, const char *sql, FlJournal *j,
                      sqlite3_stmt **st, FlError *err)
{
    sqlite3_int64 id;
    int rc = fl__journal_open_experiment(p, 0, experiment, j, &id, err);
    if (rc)
        return rc;
    if ((rc = prepare(j, sql, st, err)))
        journal_close(j);
    else
        sqlite3_bind_int64(*st, 1, id);
    return rc;
}

/* --- experiments ---------------------------------------------------------- */

void fl_project_experiment_clear(FlProjectExperiment *e)
{
    free(e->name);
    free(e->topology);
    free(e->network);
    free(e->design);
    free(e->created);
    free(e->note);
    free(e->damage);
    memset(e, 0, sizeof *e);
}

void fl_project_experiments_free(FlProjectExperiment *items, int n)
{
    for (int i = 0; items && i < n; i++)
        fl_project_experiment_clear(&items[i]);
    free(items);
}

int fl_project_create_experiment(FlProject *p, const char *name, const char *topology,
                                 const char *network, const char *design, int64_t runs,
                                 FlError *err)
{
    if (!p || !topology || !network || !design || runs < 0)
        return fl_error_set(err, FL_EINVAL, "an experiment needs a project, a topology, its "
                            "network, a design and a number of runs >= 0");
    int rc = fl__store_check_name(name, "an experiment name", err);
    Journal j;
    if (rc || (rc = journal_open(p, 1, &j, err)))
        return rc;
    sqlite3_stmt *st;
    if (!(rc = prepare(&j, "INSERT INTO experiment (name, topology, network, design, runs, "
                       "created) VALUES (?, ?, ?, ?, ?, " FL__SQL_NOW ")", &st, err))) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, topology, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, network, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, design, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 5, runs);
        int step = sqlite3_step(st);
        sqlite3_finalize(st);
        if (step == SQLITE_CONSTRAINT || (step & 0xff) == SQLITE_CONSTRAINT)
            rc = fl_error_set(err, FL_EEXIST, "'%s' already has an experiment named '%s'",
                              j.label, name);
        else if (step != SQLITE_DONE)
            rc = db_error(&j, step, err);
    }
    journal_close(&j);
    return rc;
}

static char *column_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return fl__store_strdup(t ? (const char *)t : "");
}

static const char experiment_query[] =
    "SELECT name, topology, network, design, runs, created,"
    "  (SELECT count(*) FROM run WHERE experiment_id = e.id AND status = 'done'),"
    "  (SELECT count(*) FROM run WHERE experiment_id = e.id AND status = 'failed'), note, id"
    " FROM experiment AS e";

static int read_experiment(sqlite3_stmt *st, FlProjectExperiment *e, FlError *err)
{
    e->name = column_text(st, 0);
    e->topology = column_text(st, 1);
    e->network = column_text(st, 2);
    e->design = column_text(st, 3);
    e->runs = sqlite3_column_int64(st, 4);
    e->created = column_text(st, 5);
    e->done = sqlite3_column_int64(st, 6);
    e->failed = sqlite3_column_int64(st, 7);
    e->note = sqlite3_column_type(st, 8) == SQLITE_NULL ? NULL : column_text(st, 8);
    if (!e->name || !e->topology || !e->network || !e->design || !e->created
        || (sqlite3_column_type(st, 8) != SQLITE_NULL && !e->note)) {
        fl_project_experiment_clear(e);
        return fl_error_set(err, FL_ENOMEM, "out of memory reading an experiment");
    }
    return FL_OK;
}

/* Checks e's runs (id its id): damaged ones are noted in e->damage, not
 * an error of the listing. */
static int note_damage(Journal *j, sqlite3_int64 id, FlProjectExperiment *e, FlError *err)
{
    FlError why = { 0 };
    int rc = fl__journal_check_runs(j, id, e->name, e->runs, &why);
    if (rc == FL_EPARSE && !(e->damage = fl__store_strdup(why.message)))
        return fl_error_set(err, FL_ENOMEM, "out of memory listing experiments");
    if (rc && rc != FL_EPARSE && err)
        *err = why;
    return rc == FL_EPARSE ? FL_OK : rc;
}

int fl_project_list_experiments(FlProject *p, FlProjectExperiment **items, int *n, FlError *err)
{
    *items = NULL;
    *n = 0;
    Journal j;
    int rc = journal_open(p, 0, &j, err);
    if (rc || !j.db)
        return rc;
    sqlite3_stmt *st;
    char sql[512];
    snprintf(sql, sizeof sql, "%s ORDER BY name", experiment_query);
    if ((rc = prepare(&j, sql, &st, err))) {
        journal_close(&j);
        return rc;
    }
    int cap = 0, step;
    while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            FlProjectExperiment *bigger = realloc(*items, sizeof **items * (size_t)cap);
            if (!bigger) {
                rc = fl_error_set(err, FL_ENOMEM, "out of memory listing experiments");
                break;
            }
            *items = bigger;
        }
        FlProjectExperiment *e = &(*items)[*n];
        memset(e, 0, sizeof *e);
        if (!(rc = read_experiment(st, e, err)))
            (*n)++;
        if (!rc)
            rc = note_damage(&j, sqlite3_column_int64(st, 9), e, err);
    }
    if (!rc && step != SQLITE_DONE)
        rc = db_error(&j, step, err);
    sqlite3_finalize(st);
    journal_close(&j);
    if (rc) {
        fl_project_experiments_free(*items, *n);
        *items = NULL;
        *n = 0;
    }
    return rc;
}

int fl_project_get_experiment(FlProject *p, const char *name, FlProjectExperiment *out,
                              FlError *err)
{
    memset(out, 0, sizeof *out);
    Journal j;
    int rc = journal_open(p, 0, &j, err);
    if (rc)
        return rc;
    if (!j.db)
        return fl_error_set(err, FL_ENOTFOUND, "'%s' has no experiment named '%s'",
                            fl__project_label(p), name);
    sqlite3_stmt *st;
    char sql[512];
    snprintf(sql, sizeof sql, "%s WHERE name = ?", experiment_query);
    if (!(rc = prepare(&j, sql, &st, err))) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        int step = sqlite3_step(st);
        if (step == SQLITE_ROW && !(rc = read_experiment(st, out, err))
            && (rc = fl__journal_check_runs(&j, sqlite3_column_int64(st, 9), name, out->runs,
                                            err)))
            fl_project_experiment_clear(out);
        else if (step != SQLITE_ROW)
            rc = step == SQLITE_DONE ? no_such_experiment(err, &j, name)
                                     : db_error(&j, step, err);
        sqlite3_finalize(st);
    }
    journal_close(&j);
    return rc;
}

/* Runs sql, whose parameters are ?1 the experiment's id and ?2 text (NULL
 * binds NULL), on experiment name in one write. */
static int change_experiment(FlProject *p, const char *name, const char *sql, const char *text,
                             FlError *err)
{
    Journal j;
    int rc = journal_open(p, 1, &j, err);
    if (rc)
        return rc;
    sqlite3_int64 id;
    sqlite3_stmt *st;
    if (!(rc = find_experiment(&j, name, &id, NULL, err)) && !(rc = prepare(&j, sql, &st, err))) {
        sqlite3_bind_int64(st, 1, id);
        if (text)
            sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
        int step = sqlite3_step(st);
        sqlite3_finalize(st);
        if (step != SQLITE_DONE)
            rc = db_error(&j, step, err);
    }
    journal_close(&j);
    return rc;
}

int fl_project_delete_experiment(FlProject *p, const char *name, FlError *err)
{
    return change_experiment(p, name, "DELETE FROM experiment WHERE id = ?1", NULL, err);
}

int fl_project_set_experiment_note(FlProject *p, const char *name, const char *note,
                                   FlError *err)
{
    return change_experiment(p, name, "UPDATE experiment SET note = ?2 WHERE id = ?1",
                             note && *note ? note : NULL, err);
}

/* --- runs ------------------------------------------------------------------- */

/* Runs st (bound) to its end; FL_OK or the database's error. */
static int finish(Journal *j, sqlite3_stmt *st, FlError *err)
{
    int step = sqlite3_step(st);
    sqlite3_reset(st);
    return step == SQLITE_DONE ? FL_OK : db_error(j, step, err);
}

/* This machine's name into host[256]. */
static void this_host(char *host)
{
    memset(host, 0, 256);
    if (gethostname(host, 255) != 0)
        strcpy(host, "unknown");
}

static int insert_run(Journal *j, sqlite3_int64 id, const FlProjectRun *r, FlError *err)
{
    char host[256] = "";
    if (!r->host)
        this_host(host);
    sqlite3_stmt *st;
    int rc = prepare(j, "DELETE FROM run WHERE experiment_id = ? AND idx = ?", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, r->idx);
    rc = finish(j, st, err);
    sqlite3_finalize(st);
    /* The run is no longer in progress, in the same transaction. */
    if (rc || (rc = prepare(j, "DELETE FROM claim WHERE experiment_id = ? AND idx = ?", &st,
                            err)))
        return rc;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, r->idx);
    rc = finish(j, st, err);
    sqlite3_finalize(st);
    if (rc || (rc = prepare(j, "INSERT INTO run (experiment_id, idx, status, seed, config, "
                            "version, host, started, wall_s, error) VALUES (?, ?, ?, ?, ?, ?, "
                            "?, coalesce(?, " FL__SQL_NOW "), ?, ?)", &st, err)))
        return rc;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, r->idx);
    sqlite3_bind_text(st, 3, status_names[r->status], -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)r->seed);
    sqlite3_bind_text(st, 5, r->config ? r->config : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, FL_VERSION_STRING, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, r->host ? r->host : host, -1, SQLITE_TRANSIENT);
    if (r->started)
        sqlite3_bind_text(st, 8, r->started, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 9, r->wall_s);
    if (r->error)
        sqlite3_bind_text(st, 10, r->error, -1, SQLITE_STATIC);
    rc = finish(j, st, err);
    sqlite3_finalize(st);
    return rc;
}

/* Inserts n (key, value) rows of one run with sql's four parameters. */
static int insert_rows(Journal *j, const char *sql, sqlite3_int64 id, int64_t idx, int n,
                       const char *const *keys, const char *const *texts,
                       const double *values, FlError *err)
{
    sqlite3_stmt *st;
    int rc = n > 0 ? prepare(j, sql, &st, err) : FL_OK;
    for (int i = 0; !rc && i < n; i++) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, idx);
        sqlite3_bind_text(st, 3, keys[i], -1, SQLITE_STATIC);
        if (texts)
            sqlite3_bind_text(st, 4, texts[i], -1, SQLITE_STATIC);
        else if (isnan(values[i]))
            sqlite3_bind_null(st, 4);
        else
            sqlite3_bind_double(st, 4, values[i]);
        rc = finish(j, st, err);
    }
    if (n > 0)
        sqlite3_finalize(st);
    return rc;
}

static int insert_vectors(Journal *j, sqlite3_int64 id, const FlProjectRun *r, FlError *err)
{
    sqlite3_stmt *st;
    int rc = r->nvectors > 0 ? prepare(j, "INSERT INTO vector (experiment_id, idx, name, step, "
                                       "data) VALUES (?, ?, ?, ?, ?)", &st, err)
                             : FL_OK;
    for (int i = 0; !rc && i < r->nvectors; i++) {
        size_t bytes = sizeof(double) * (size_t)r->vector_lengths[i];
        unsigned char *blob = malloc(bytes ? bytes : 1);
        if (!blob) {
            rc = fl_error_set(err, FL_ENOMEM, "out of memory for vector '%s'",
                              r->vector_names[i]);
            break;
        }
        /* Little-endian doubles, whatever the machine. */
        for (int k = 0; k < r->vector_lengths[i]; k++) {
            uint64_t bits;
            memcpy(&bits, &r->vector_data[i][k], sizeof bits);
            for (int b = 0; b < 8; b++)
                blob[8 * k + b] = (unsigned char)(bits >> (8 * b));
        }
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, r->idx);
        sqlite3_bind_text(st, 3, r->vector_names[i], -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 4, r->vector_steps ? r->vector_steps[i] : 1.0);
        sqlite3_bind_blob(st, 5, blob, (int)bytes, free);
        rc = finish(j, st, err);
    }
    if (r->nvectors > 0)
        sqlite3_finalize(st);
    return rc;
}

/* Commits the transaction when rc is FL_OK, else rolls it back; closes j. */
static int end_transaction(Journal *j, int rc, FlError *err)
{
    if (!rc)
        rc = fl__store_exec(j->db, "COMMIT", j->label, err);
    if (rc)
        sqlite3_exec(j->db, "ROLLBACK", NULL, NULL, NULL);
    journal_close(j);
    return rc;
}

/* Inserts one run of experiment id (of runs runs) into the open transaction. */
static int insert_whole_run(Journal *j, sqlite3_int64 id, int64_t runs, const char *experiment,
                            const FlProjectRun *run, FlError *err)
{
    if ((unsigned)run->status > FL_RUN_STOPPED || run->nparams < 0 || run->nscalars < 0
        || run->nvectors < 0)
        return fl_error_set(err, FL_EINVAL, "run %lld: not a valid run", (long long)run->idx);
    if (run->idx < 0 || run->idx >= runs)
        return fl_error_set(err, FL_ERANGE, "experiment '%s' has runs 0 to %lld, not %lld",
                            experiment, (long long)runs - 1, (long long)run->idx);
    int rc = insert_run(j, id, run, err);
    if (!rc)
        rc = insert_rows(j, "INSERT INTO runparam (experiment_id, idx, key, value) VALUES "
                         "(?, ?, ?, ?)", id, run->idx, run->nparams, run->param_keys,
                         run->param_values, NULL, err);
    if (!rc)
        rc = insert_rows(j, "INSERT INTO scalar (experiment_id, idx, name, value) VALUES "
                         "(?, ?, ?, ?)", id, run->idx, run->nscalars, run->scalar_names, NULL,
                         run->scalar_values, err);
    if (!rc)
        rc = insert_vectors(j, id, run, err);
    return rc;
}

int fl_project_commit_runs(FlProject *p, const char *experiment, const FlProjectRun *runs,
                           int n, FlError *err)
{
    if (!p || !experiment || (n > 0 && !runs) || n < 0)
        return fl_error_set(err, FL_EINVAL, "runs need a project, an experiment and a valid "
                            "status");
    Journal j;
    int rc = journal_open(p, 1, &j, err);
    if (rc)
        return rc;
    sqlite3_int64 id = 0;
    int64_t size = 0;
    if ((rc = fl__store_exec(j.db, "BEGIN IMMEDIATE", j.label, err))) {
        journal_close(&j);
        return rc;
    }
    rc = find_experiment(&j, experiment, &id, &size, err);
    for (int i = 0; !rc && i < n; i++)
        rc = insert_whole_run(&j, id, size, experiment, &runs[i], err);
    return end_transaction(&j, rc, err);
}

int fl_project_commit_run(FlProject *p, const char *experiment, const FlProjectRun *run,
                          FlError *err)
{
    if (!run)
        return fl_error_set(err, FL_EINVAL, "a run needs a project, an experiment and a valid "
                            "status");
    return fl_project_commit_runs(p, experiment, run, 1, err);
}

/* Runs a query of (idx[, value]) rows for experiment into malloc'd arrays;
 * none from a file older than schema version since (its table is not
 * there). */
static int query_runs(FlProject *p, const char *experiment, int since, const char *sql,
                      const char *text, int64_t **idx, double **values, int *n, FlError *err)
{
    *idx = NULL;
    if (values)
        *values = NULL;
    *n = 0;
    Journal j;
    int rc = journal_open(p, 0, &j, err);
    if (rc)
        return rc;
    if (!j.db)
        return fl_error_set(err, FL_ENOTFOUND, "'%s' has no experiment named '%s'",
                            fl__project_label(p), experiment);
    sqlite3_int64 id;
    sqlite3_stmt *st;
    int version = 0;
    if ((rc = find_experiment(&j, experiment, &id, NULL, err))
        || (rc = fl__store_pragma_int(j.db, "user_version", &version, j.label, err))
        || version < since || (rc = prepare(&j, sql, &st, err))) {
        journal_close(&j);
        return rc;
    }
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
    int cap = 0, step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            int64_t *bi = realloc(*idx, sizeof **idx * (size_t)cap);
            double *bv = values ? realloc(*values, sizeof **values * (size_t)cap) : NULL;
            if (bi)
                *idx = bi;
            if (bv)
                *values = bv;
            if (!bi || (values && !bv)) {
                rc = fl_error_set(err, FL_ENOMEM, "out of memory reading runs");
                break;
            }
        }
        (*idx)[*n] = sqlite3_column_int64(st, 0);
        if (values && sqlite3_column_type(st, 1) == SQLITE_NULL)
            (*values)[*n] = NAN;
        else if (values)
            (*values)[*n] = sqlite3_column_double(st, 1);
        (*n)++;
    }
    if (!rc && step != SQLITE_DONE)
        rc = db_error(&j, step, err);
    sqlite3_finalize(st);
    journal_close(&j);
    if (rc) {
        free(*idx);
        *idx = NULL;
        if (values) {
            free(*values);
            *values = NULL;
        }
        *n = 0;
    }
    return rc;
}

int fl_project_list_runs(FlProject *p, const char *experiment, FlRunStatus status,
                         int64_t **idx, int *n, FlError *err)
{
    if ((unsigned)status > FL_RUN_STOPPED)
        return fl_error_set(err, FL_EINVAL, "no such run status %d", (int)status);
    return query_runs(p, experiment, 3, "SELECT idx FROM run WHERE experiment_id = ? AND "
                      "status = ? ORDER BY idx", status_names[status], idx, NULL, n, err);
}

int fl_project_get_scalars(FlProject *p, const char *experiment, const char *name,
                           int64_t **idx, double **values, int *n, FlError *err)
{
    /* Without statistics SQLite would walk every scalar of the experiment
     * in key order rather than sort the few of one name. */
    return query_runs(p, experiment, 3, "SELECT idx, value FROM scalar INDEXED BY scalar_name "
                      "WHERE experiment_id = ? AND name = ? ORDER BY idx", name, idx, values, n,
                      err);
}

/* --- runs in progress ---------------------------------------------------------- */

int fl_project_claim_runs(FlProject *p, const char *experiment, const int64_t *idx, int n,
                          FlError *err)
{
    if (!p || !experiment || n < 0 || (n > 0 && !idx))
        return fl_error_set(err, FL_EINVAL, "a claim needs a project, an experiment and runs");
    Journal j;
    int rc = journal_open(p, 1, &j, err);
    if (rc)
        return rc;
    char host[256];
    this_host(host);
    sqlite3_int64 id = 0;
    int64_t runs = 0;
    sqlite3_stmt *st = NULL;
    if ((rc = fl__store_exec(j.db, "BEGIN IMMEDIATE", j.label, err))) {
        journal_close(&j);
        return rc;
    }
    rc = find_experiment(&j, experiment, &id, &runs, err);
    /* A claim left by a process that is gone is replaced. */
    if (!rc)
        rc = prepare(&j, "INSERT OR REPLACE INTO claim (experiment_id, idx, host, pid, started) "
                     "VALUES (?, ?, ?, ?, " FL__SQL_NOW ")", &st, err);
    for (int i = 0; !rc && i < n; i++) {
        if (idx[i] < 0 || idx[i] >= runs) {
            rc = fl_error_set(err, FL_ERANGE, "experiment '%s' has runs 0 to %lld, not %lld",
                              experiment, (long long)runs - 1, (long long)idx[i]);
            break;
        }
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, idx[i]);
        sqlite3_bind_text(st, 3, host, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, (sqlite3_int64)getpid());
        rc = finish(&j, st, err);
    }
    sqlite3_finalize(st);
    return end_transaction(&j, rc, err);
}

int fl_project_release_claims(FlProject *p, const char *experiment, FlError *err)
{
    char host[256];
    this_host(host);
    Journal j;
    sqlite3_stmt *st = NULL;
    int rc = journal_open(p, 1, &j, err);
    if (!rc)
        rc = prepare(&j, "DELETE FROM claim WHERE host = ? AND pid = ? AND (?3 IS NULL OR "
                     "experiment_id = (SELECT id FROM experiment WHERE name = ?3))", &st, err);
    if (!rc) {
        sqlite3_bind_text(st, 1, host, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)getpid());
        if (experiment)
            sqlite3_bind_text(st, 3, experiment, -1, SQLITE_STATIC);
        rc = finish(&j, st, err);
    }
    sqlite3_finalize(st);
    journal_close(&j);   /* harmless after a failed open */
    return rc;
}

/* Whether the process of a claim may still be running: on this machine,
 * kill(pid, 0) tells; another machine's (pid < 0 here) cannot be asked,
 * so it counts. */
static int claim_alive(double pid)
{
    if (pid < 0)
        return 1;
    if (!(pid > 0 && pid <= 0x7fffffff))
        return 0;
    return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

int fl_project_list_running(FlProject *p, const char *experiment, int64_t **idx, int *n,
                            FlError *err)
{
    char host[256];
    this_host(host);
    /* The pid of each claim made on this host, -1 for another host's. */
    double *pid = NULL;
    int rc = query_runs(p, experiment, 4, "SELECT idx, CASE WHEN host = ?2 THEN pid ELSE -1 "
                        "END FROM claim WHERE experiment_id = ?1 AND idx NOT IN (SELECT idx "
                        "FROM run WHERE experiment_id = ?1) ORDER BY idx", host, idx, &pid, n,
                        err);
    int kept = 0;
    for (int i = 0; !rc && i < *n; i++)
        if (claim_alive(pid[i]))
            (*idx)[kept++] = (*idx)[i];
    free(pid);
    *n = kept;
    return rc;
}
