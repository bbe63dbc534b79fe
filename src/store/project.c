/* project.c — a project's working copy in memory and its file on disk.
 *
 * The working copy is an in-memory SQLite database. Opening copies the
 * file's schema and its document tables into it (the journal tables stay
 * empty there: see load_file); saving copies it out to a new temporary file
 * beside the target, syncs that file, renames it over the target and syncs
 * the directory. rename() is atomic, so the target is always either the old
 * file or the complete new one.
 *
 * A saving process holds an flock() on its temporary file until the rename.
 * The lock dies with the process, so a later save can tell a temporary file
 * abandoned by a killed save (unlocked) from one being written right now
 * (locked), and removes only the former. flock() locks belong to the open
 * file, so SQLite's own fcntl() locks on the same file do not disturb them.
 *
 * The topologies in the working copy are read and written by
 * project-topology.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "flitlab-output.h"
#include "store-private.h"

/* Temporary files are ".NAME.flitlab-" followed by this many characters. */
#define TEMP_SUFFIX_LEN 6
static const char temp_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* Writes the text of errno value e into buf (thread-safe strerror). */
static const char *errno_text(int e, char *buf, size_t size)
{
    if (strerror_r(e, buf, size) != 0)
        snprintf(buf, size, "error %d", e);
    return buf;
}

static int io_error(FlError *err, int e, const char *fmt_what, const char *file)
{
    char buf[128];
    return fl_error_set(err, e == ENOMEM ? FL_ENOMEM : FL_EIO, fmt_what, file,
                        errno_text(e, buf, sizeof buf));
}

/* SQLite is built to read "file:" names as URIs; "./" keeps a relative
 * path that happens to start that way a plain file name. */
static char *sqlite_filename(const char *path)
{
    int uri_like = strncmp(path, "file:", 5) == 0;
    size_t n = strlen(path) + 1;
    char *s = malloc(n + (uri_like ? 2 : 0));
    if (!s)
        return NULL;
    snprintf(s, n + 2, "%s%s", uri_like ? "./" : "", path);
    return s;
}

int fl__store_open_file(const char *path, int flags, sqlite3 **out, FlError *err)
{
    char *name = sqlite_filename(path);
    if (!name)
        return fl_error_set(err, FL_ENOMEM, "out of memory opening '%s'", path);
    /* A process killed while it wrote leaves a hot journal beside the file,
     * which the next connection must roll back before it reads; a read-only
     * connection cannot ("attempt to write a readonly database"), so a read
     * opens a file it may write read-write. It writes nothing else. */
    if (flags == SQLITE_OPEN_READONLY && access(path, W_OK) == 0)
        flags = SQLITE_OPEN_READWRITE;
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(name, &db, flags, NULL);
    free(name);
    if (rc != SQLITE_OK) {
        rc = fl__store_error(err, db, rc, path, "cannot open the file");
        sqlite3_close(db);
        return rc;
    }
    /* A status read while a runner commits, or two writers: the other
     * waits its turn instead of failing at once. */
    sqlite3_busy_timeout(db, 10000);
    *out = db;
    return FL_OK;
}

/* A new in-memory database, hardened because opened files come from other
 * people: their schema may hold triggers or views we must not trust. */
static int open_memory_db(sqlite3 **out, FlError *err)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                             NULL);
    if (rc != SQLITE_OK) {
        rc = fl__store_error(err, db, rc, "project", "cannot create the working copy");
        sqlite3_close(db);
        return rc;
    }
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
    /* secure_delete zeroes what a deletion frees, so a deleted topology
     * does not linger in the free pages that a save copies to disk. */
    rc = fl__store_exec(db, "PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON",
                        "project", err);
    if (rc) {
        sqlite3_close(db);
        return rc;
    }
    *out = db;
    return FL_OK;
}

static FlProject *project_alloc(sqlite3 *db, const char *path)
{
    FlProject *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (path && !(p->path = fl__store_strdup(path))) {
        free(p);
        return NULL;
    }
    p->db = db;
    return p;
}

int fl_project_new(FlProject **out, FlError *err)
{
    sqlite3 *db = NULL;
    if (!out)
        return fl_error_set(err, FL_EINVAL, "no place to put the new project");
    int rc = open_memory_db(&db, err);
    if (rc)
        return rc;
    if ((rc = fl__schema_upgrade(db, "new project", err)))
        goto fail_db;
    FlProject *p = project_alloc(db, NULL);
    if (!p) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory creating a project");
        goto fail_db;
    }
    *out = p;
    return FL_OK;

fail_db:
    sqlite3_close(db);
    return rc;
}

/* Checks what SQLite cannot tell apart well: a missing file, a directory,
 * an unreadable file, and an empty file (which SQLite would take for an
 * empty database). */
static int check_readable(const char *path, FlError *err)
{
    struct stat st;
    /* O_NONBLOCK: opening a FIFO with no writer must not wait for one. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT)
            return fl_error_set(err, FL_ENOTFOUND, "'%s' does not exist", path);
        return io_error(err, errno, "cannot open '%s': %s", path);
    }
    int rc = fstat(fd, &st);
    int e = errno;
    close(fd);
    if (rc != 0)
        return io_error(err, e, "cannot read '%s': %s", path);
    if (S_ISDIR(st.st_mode))
        return fl_error_set(err, FL_EIO, "'%s' is a directory, not a project file", path);
    if (!S_ISREG(st.st_mode))
        return fl_error_set(err, FL_EIO, "'%s' is not a project file (a device, a FIFO or a "
                            "socket)", path);
    if (st.st_size == 0)
        return fl_error_set(err, FL_EPARSE, "'%s' is not a Flitlab project (the file is empty)",
                            path);
    return FL_OK;
}

static int damaged(FlError *err, sqlite3 *db, const char *path)
{
    return fl_error_set(err, FL_EPARSE, "'%s' is damaged (%s)", path, fl__store_reason(db, 0));
}

/* Checks the schema and the document tables with their indexes in full,
 * and reads the first page of each journal table. The journal, nearly all
 * of a big file, is left to SQLite's checks as it is read: a damaged run is
 * reported as damaged by whatever reads it, and a save, which copies the
 * whole journal, fails and keeps the file (tests/test-store-results.c). */
static int check_file(sqlite3 *src, const char *path, FlError *err)
{
    sqlite3_stmt *st = NULL;
    int rc = fl__schema_quick_check(src, "sqlite_schema", path, err);
    if (rc)
        return rc;
    if (sqlite3_prepare_v2(src, "SELECT name FROM sqlite_schema WHERE type = 'table'"
                           " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid",
                           -1, &st, NULL) != SQLITE_OK)
        return damaged(err, src, path);
    int step;
    while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        if (!fl__journal_is_table(name)) {
            rc = fl__schema_quick_check(src, name, path, err);
            continue;
        }
        char *sql = sqlite3_mprintf("SELECT 1 FROM \"%w\" LIMIT 1", name);
        if (!sql)
            rc = fl_error_set(err, FL_ENOMEM, "out of memory opening '%s'", path);
        else if (sqlite3_exec(src, sql, NULL, NULL, NULL) != SQLITE_OK)
            rc = damaged(err, src, path);
        sqlite3_free(sql);
    }
    if (!rc && step != SQLITE_DONE)
        rc = damaged(err, src, path);
    sqlite3_finalize(st);
    return rc;
}

/* "INSERT INTO main.name (rowid, columns) SELECT rowid, columns FROM
 * src.name", the rowid left out of a table without one: a copy keeps the
 * rows' rowids as the file has them. */
static char *copy_sql(sqlite3 *src, const char *name, int without_rowid)
{
    sqlite3_stmt *st = NULL;
    sqlite3_str *cols = sqlite3_str_new(NULL);
    if (!without_rowid)
        sqlite3_str_appendall(cols, "rowid");
    if (sqlite3_prepare_v2(src, "SELECT name FROM pragma_table_info(?1)", -1, &st, NULL)
        == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        while (sqlite3_step(st) == SQLITE_ROW)
            sqlite3_str_appendf(cols, "%s\"%w\"", sqlite3_str_length(cols) ? ", " : "",
                                (const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    char *list = sqlite3_str_finish(cols);
    char *sql = list ? sqlite3_mprintf("INSERT INTO main.\"%w\" (%s) SELECT %s FROM src.\"%w\"",
                                       name, list, list, name)
                     : NULL;
    sqlite3_free(list);
    return sql;
}

/* Runs one statement of the file's schema in mem: tables first, then
 * (the document tables' rows copied) indexes, triggers and views. */
static int create_object(sqlite3 *mem, const char *sql, const char *path, FlError *err)
{
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc = sqlite3_prepare_v2(mem, sql, -1, &st, &tail);
    if (rc == SQLITE_OK && tail && tail[strspn(tail, " \t\r\n;")]) {
        sqlite3_finalize(st);
        return fl_error_set(err, FL_EPARSE, "'%s' is damaged (its schema is malformed)", path);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return damaged(err, mem, path);
    return FL_OK;
}

/* Gives mem the file's schema and header numbers, and the rows of its
 * document tables. */
static int copy_documents(sqlite3 *mem, sqlite3 *src, const char *path, FlError *err)
{
    int app_id, version, rc;
    char sql[96];
    if ((rc = fl__store_pragma_int(src, "application_id", &app_id, path, err))
        || (rc = fl__store_pragma_int(src, "user_version", &version, path, err)))
        return rc;
    /* Rows arrive table by table, children possibly before parents. */
    snprintf(sql, sizeof sql, "PRAGMA foreign_keys = OFF; PRAGMA application_id = %d;"
             " PRAGMA user_version = %d", app_id, version);
    if ((rc = fl__store_exec(mem, sql, path, err)))
        return rc;
    char *name = sqlite_filename(path);
    if (!name)
        return fl_error_set(err, FL_ENOMEM, "out of memory opening '%s'", path);
    sqlite3_stmt *st = NULL;
    rc = sqlite3_prepare_v2(mem, "ATTACH ?1 AS src", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
    }
    sqlite3_finalize(st);
    free(name);
    if (rc != SQLITE_DONE)
        return fl__store_error(err, mem, rc, path, "cannot read the file");
    if ((rc = fl__store_exec(mem, "BEGIN", path, err)))
        goto detach;
    if (sqlite3_prepare_v2(src, "SELECT s.type, s.name, s.sql, coalesce(l.wr, 0)"
                           " FROM sqlite_schema AS s LEFT JOIN pragma_table_list AS l"
                           " ON l.schema = 'main' AND l.name = s.name AND s.type = 'table'"
                           " WHERE s.sql IS NOT NULL AND s.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
                           " ORDER BY s.type <> 'table', s.rowid", -1, &st, NULL) != SQLITE_OK) {
        rc = damaged(err, src, path);
        goto rollback;
    }
    int step;
    while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(st, 0);
        const char *table = (const char *)sqlite3_column_text(st, 1);
        rc = create_object(mem, (const char *)sqlite3_column_text(st, 2), path, err);
        if (rc || strcmp(type, "table") != 0 || fl__journal_is_table(table))
            continue;
        char *copy = copy_sql(src, table, sqlite3_column_int(st, 3));
        if (!copy)
            rc = fl_error_set(err, FL_ENOMEM, "out of memory opening '%s'", path);
        else if (sqlite3_exec(mem, copy, NULL, NULL, NULL) != SQLITE_OK)
            rc = damaged(err, mem, path);
        sqlite3_free(copy);
    }
    if (!rc && step != SQLITE_DONE)
        rc = damaged(err, src, path);
    sqlite3_finalize(st);
rollback:
    if (!rc)
        rc = fl__store_exec(mem, "COMMIT", path, err);
    else
        sqlite3_exec(mem, "ROLLBACK", NULL, NULL, NULL);
detach:
    sqlite3_exec(mem, "DETACH src; PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    return rc;
}

/* Makes the empty database mem the working copy of the file at path: the
 * file's schema, its document tables' rows, and its journal tables empty,
 * since the journal is read and written in the file (project-results.c)
 * and a save carries the file's journal over. The journal is nearly all of
 * a big project, so neither copying nor checking it keeps opening fast. */
static int load_file(sqlite3 *mem, const char *path, FlError *err)
{
    sqlite3 *src = NULL;
    int page_size, rc;
    if ((rc = fl__store_open_file(path, SQLITE_OPEN_READONLY, &src, err)))
        return rc;
    if ((rc = fl__schema_check_header(src, path, err))
        || (rc = fl__store_pragma_int(src, "page_size", &page_size, path, err)))
        goto out;
    /* The same page size as the file, as a save's backup cannot change it. */
    char sql[48];
    snprintf(sql, sizeof sql, "PRAGMA page_size = %d", page_size);
    if ((rc = fl__store_exec(mem, sql, path, err)))
        goto out;
    /* SQLite refuses a file shorter than its header says as it reads page
     * 1, above: a file cut short is damaged whatever it lost. */
    if (!(rc = check_file(src, path, err)))
        rc = copy_documents(mem, src, path, err);
out:
    sqlite3_close(src);
    return rc;
}

int fl_project_open(const char *path, FlProject **out, FlError *err)
{
    sqlite3 *db = NULL;
    int rc;
    if (!path || !*path || !out)
        return fl_error_set(err, FL_EINVAL, "no project file given");
    if ((rc = check_readable(path, err)))
        return rc;
    if ((rc = open_memory_db(&db, err)))
        return rc;
    if ((rc = load_file(db, path, err)) || (rc = fl__schema_upgrade(db, path, err)))
        goto fail_db;
    FlProject *p = project_alloc(db, path);
    if (!p) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory opening '%s'", path);
        goto fail_db;
    }
    *out = p;
    return FL_OK;

fail_db:
    sqlite3_close(db);
    return rc;
}

void fl_project_free(FlProject *p)
{
    if (!p)
        return;
    fl__journal_drop_reader(p);
    sqlite3_close(p->db);
    free(p->path);
    free(p);
}

const char *fl_project_path(const FlProject *p)
{
    return p ? p->path : NULL;
}

int fl_project_is_modified(const FlProject *p)
{
    return p ? p->modified : 0;
}

/* --- saving ------------------------------------------------------------- */

/* Where a save to path writes and what it names its temporary files. */
typedef struct SaveTarget {
    char *target;   /* the file to replace: path, or what its symlink points to */
    char *dir;      /* target's directory */
    char *prefix;   /* ".NAME.flitlab-": temporary files are prefix + suffix */
} SaveTarget;

static void save_target_clear(SaveTarget *s)
{
    free(s->target);
    free(s->dir);
    free(s->prefix);
}

static char *join_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", dir, name);
    return s;
}

/* Replacing a symbolic link by a file would cut the link, so a save
 * replaces the file at the end of the chain of links from path. */
static int follow_links(const char *path, char **out, FlError *err)
{
    int e = fl_output_follow_links(path, out, NULL);
    if (e == ENOMEM)
        return fl_error_set(err, FL_ENOMEM, "out of memory saving '%s'", path);
    if (e == ELOOP)
        return fl_error_set(err, FL_EIO,
                            "cannot save '%s': too many levels of symbolic links", path);
    return e ? io_error(err, e, "cannot save '%s': %s", path) : FL_OK;
}

static int save_target_init(SaveTarget *s, const char *path, FlError *err)
{
    struct stat st;
    memset(s, 0, sizeof *s);
    int rc = follow_links(path, &s->target, err);
    if (rc)
        return rc;
    if (stat(s->target, &st) == 0 && S_ISDIR(st.st_mode))
        return fl_error_set(err, FL_EIO, "cannot save '%s': it is a directory", path);
    /* A project is an SQLite file renamed into place: renaming it over a
     * device or a FIFO would replace the node itself (/dev/null, as root). */
    if (stat(s->target, &st) == 0 && !S_ISREG(st.st_mode))
        return fl_error_set(err, FL_EIO, "cannot save '%s': it is not a regular file (a "
                            "device, a FIFO or a socket)", path);

    const char *slash = strrchr(s->target, '/');
    const char *base = slash ? slash + 1 : s->target;
    if (!*base)
        return fl_error_set(err, FL_EINVAL, "cannot save '%s': it names a directory", path);
    size_t dir_len = !slash ? 1 : slash == s->target ? 1 : (size_t)(slash - s->target);
    if (!(s->dir = malloc(dir_len + 1)))
        goto nomem;
    memcpy(s->dir, slash ? s->target : ".", dir_len);
    s->dir[dir_len] = '\0';

    size_t base_len = strlen(base);
    const char *ext = ".flitlab";
    int has_ext = base_len >= strlen(ext) && strcmp(base + base_len - strlen(ext), ext) == 0;
    size_t n = base_len + strlen(ext) + 3;
    if (!(s->prefix = malloc(n)))
        goto nomem;
    snprintf(s->prefix, n, ".%s%s-", base, has_ext ? "" : ext);
    return FL_OK;

nomem:
    return fl_error_set(err, FL_ENOMEM, "out of memory saving '%s'", path);
}

static int is_temp_name(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0 || strlen(name + n) != TEMP_SUFFIX_LEN)
        return 0;
    return strspn(name + n, temp_alphabet) == TEMP_SUFFIX_LEN;
}

/* Removes temporary files of this target that no process holds locked:
 * their save was killed. Best effort: a file we cannot inspect stays. */
static void remove_stale_temps(const SaveTarget *s)
{
    DIR *d = opendir(s->dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_temp_name(e->d_name, s->prefix))
            continue;
        char *path = join_path(s->dir, e->d_name);
        if (!path)
            break;
        fl_output_remove_if_stale(path, 0);
        free(path);
    }
    closedir(d);
}

/* splitmix64: a cheap, well-mixed step for temporary file names. */
static uint64_t mix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Creates and locks a new temporary file beside the target. open() with
 * mode 0666 lets the umask decide permissions, as for any new file. */
static int create_temp(const SaveTarget *s, const char *path, char **tmp_out, int *fd_out,
                       FlError *err)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t state = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec
                     ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)s;
    char name[NAME_MAX + 1];
    if (strlen(s->prefix) + TEMP_SUFFIX_LEN > NAME_MAX)
        return fl_error_set(err, FL_EINVAL, "cannot save '%s': the file name is too long",
                            path);
    for (int attempt = 0; attempt < 100; attempt++) {
        uint64_t r = mix(&state);
        size_t n = strlen(s->prefix);
        memcpy(name, s->prefix, n);
        for (int i = 0; i < TEMP_SUFFIX_LEN; i++, r /= sizeof temp_alphabet - 1)
            name[n + (size_t)i] = temp_alphabet[r % (sizeof temp_alphabet - 1)];
        name[n + TEMP_SUFFIX_LEN] = '\0';
        char *tmp = join_path(s->dir, name);
        if (!tmp)
            return fl_error_set(err, FL_ENOMEM, "out of memory saving '%s'", path);
        int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd < 0) {
            int e = errno;
            free(tmp);
            if (e == EEXIST)
                continue;
            char buf[128];
            return fl_error_set(err, e == ENOMEM ? FL_ENOMEM : FL_EIO,
                                "cannot save '%s': cannot create a file in '%s': %s", path,
                                s->dir, errno_text(e, buf, sizeof buf));
        }
        /* A cleaner that got the file first: take another name. */
        if (fl_output_lock_temp(fd, tmp)) {
            *tmp_out = tmp;
            *fd_out = fd;
            return FL_OK;
        }
        close(fd);
        free(tmp);
    }
    return fl_error_set(err, FL_EIO, "cannot save '%s': no free temporary file name in '%s'",
                        path, s->dir);
}

/* Deleting topologies leaves free pages; rewrite the copy when they are a
 * good part of it, so the file does not keep their size for ever. */
static int compact(FlProject *p, FlError *err)
{
    int free_pages, pages, rc;
    if ((rc = fl__store_pragma_int(p->db, "freelist_count", &free_pages, fl__project_label(p), err))
        || (rc = fl__store_pragma_int(p->db, "page_count", &pages, fl__project_label(p), err)))
        return rc;
    if (free_pages > 16 && 4 * free_pages > pages)
        return fl__store_exec(p->db, "VACUUM", fl__project_label(p), err);
    return FL_OK;
}

/* Copies the working copy into the empty file tmp. It needs no journal and
 * no syncs of its own: if anything fails the file is thrown away, and the
 * caller syncs it once when it is complete. */
static int write_copy(sqlite3 *mem, const char *tmp, const char *path, FlError *err)
{
    sqlite3 *dst = NULL;
    int rc = fl__store_open_file(tmp, SQLITE_OPEN_READWRITE, &dst, err);
    if (rc)
        return rc;
    if ((rc = fl__store_exec(dst, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF",
                             path, err)))
        goto out;
    sqlite3_backup *b = sqlite3_backup_init(dst, "main", mem, "main");
    if (!b) {
        rc = fl__store_error(err, dst, sqlite3_errcode(dst), path, "cannot save");
        goto out;
    }
    sqlite3_backup_step(b, -1);
    int brc = sqlite3_backup_finish(b);
    if (brc != SQLITE_OK)
        rc = fl__store_error(err, dst, brc, path, "cannot save");
out:
    if (sqlite3_close(dst) != SQLITE_OK && !rc)
        rc = fl_error_set(err, FL_EIO, "cannot save '%s': cannot close the new file", path);
    return rc;
}

static int sync_dir(const char *dir, const char *path, FlError *err)
{
    int fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return io_error(err, errno, "cannot save '%s': cannot open its directory: %s", path);
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    /* Some file systems cannot sync a directory; they are no worse off. */
    if (rc != 0 && e != EINVAL && e != EROFS)
        return io_error(err, e, "cannot save '%s': cannot sync its directory: %s", path);
    return FL_OK;
}

static int save_to(FlProject *p, const char *path, FlError *err)
{
    SaveTarget s;
    struct stat st;
    char *tmp = NULL;
    int fd = -1, lock = -1, rc;
    if ((rc = save_target_init(&s, path, err)))
        goto out_target;
    remove_stale_temps(&s);
    if ((rc = create_temp(&s, path, &tmp, &fd, err)))
        goto out_target;
    /* Keep the permissions of the file we replace; best effort, like an
     * editor: failing to copy them is no reason to lose the user's work. */
    if (stat(s.target, &st) == 0)
        fchmod(fd, st.st_mode & 07777);
    if ((rc = compact(p, err)) || (rc = write_copy(p->db, tmp, path, err)))
        goto out_unlink;
    /* The file's journal (runs committed since the copy was opened) goes
     * into the new file; no commit may come between that and the rename. */
    if ((rc = fl__journal_lock(s.dir, &lock, path, err)))
        goto out_unlink;
    if (p->path && access(p->path, F_OK) == 0 && (rc = fl__journal_copy(tmp, p->path, path, err)))
        goto out_unlink;
    if (fsync(fd) != 0) {
        rc = io_error(err, errno, "cannot save '%s': %s", path);
        goto out_unlink;
    }
    if (rename(tmp, s.target) != 0) {
        rc = io_error(err, errno, "cannot save '%s': %s", path);
        goto out_unlink;
    }
    rc = sync_dir(s.dir, path, err);
    goto out_close;

out_unlink:
    unlink(tmp);
out_close:
    fl__journal_unlock(lock);
    close(fd);   /* only now: the lock guards the file until the rename */
    free(tmp);
out_target:
    save_target_clear(&s);
    return rc;
}

int fl_project_save(FlProject *p, FlError *err)
{
    if (!p)
        return fl_error_set(err, FL_EINVAL, "no project");
    if (!p->path)
        return fl_error_set(err, FL_EINVAL,
                            "the project has no file yet: save it under a name first");
    int rc = save_to(p, p->path, err);
    if (!rc)
        p->modified = 0;
    return rc;
}

int fl_project_save_as(FlProject *p, const char *path, FlError *err)
{
    if (!p || !path || !*path)
        return fl_error_set(err, FL_EINVAL, "no project or file name");
    char *copy = fl__store_strdup(path);
    if (!copy)
        return fl_error_set(err, FL_ENOMEM, "out of memory saving '%s'", path);
    int rc = save_to(p, path, err);
    if (rc) {
        free(copy);
        return rc;
    }
    free(p->path);
    p->path = copy;
    p->modified = 0;
    fl__journal_drop_reader(p);
    return FL_OK;
}
