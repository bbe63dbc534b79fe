/* project.c — a project's working copy in memory, its file on disk, and the
 * topologies it holds.
 *
 * The working copy is an in-memory SQLite database. Opening copies the file
 * into it with the backup API; saving copies it out to a new temporary file
 * beside the target, syncs that file, renames it over the target and syncs
 * the directory. rename() is atomic, so the target is always either the old
 * file or the complete new one.
 *
 * A saving process holds an flock() on its temporary file until the rename.
 * The lock dies with the process, so a later save can tell a temporary file
 * abandoned by a killed save (unlocked) from one being written right now
 * (locked), and removes only the former. flock() locks belong to the open
 * file, so SQLite's own fcntl() locks on the same file do not disturb them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#define FLITLAB_STORE_INTERNAL
#include "flitlab-store.h"

struct FlProject {
    sqlite3 *db;   /* the working copy, ":memory:" */
    char *path;    /* NULL while untitled */
    int modified;
};

/* Temporary files are ".NAME.flitlab-" followed by this many characters. */
#define TEMP_SUFFIX_LEN 6
static const char temp_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

static const char *label(const FlProject *p)
{
    return p->path ? p->path : "the untitled project";
}

/* Sentences name a project as 'path' or as "the untitled project": pass
 * NAMED(p) for a "%s%s%s" in the format. */
static const char *quote(const FlProject *p)
{
    return p->path ? "'" : "";
}

#define NAMED(p) quote(p), label(p), quote(p)

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

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

static int open_file_db(const char *path, int flags, sqlite3 **out, FlError *err)
{
    char *name = sqlite_filename(path);
    if (!name)
        return fl_error_set(err, FL_ENOMEM, "out of memory opening '%s'", path);
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(name, &db, flags, NULL);
    free(name);
    if (rc != SQLITE_OK) {
        rc = fl__store_error(err, db, rc, path, "cannot open the file");
        sqlite3_close(db);
        return rc;
    }
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
    if (path && !(p->path = dup_string(path))) {
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
    int fd = open(path, O_RDONLY | O_CLOEXEC);
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
    if (st.st_size == 0)
        return fl_error_set(err, FL_EPARSE, "'%s' is not a Flitlab project (the file is empty)",
                            path);
    return FL_OK;
}

/* Copies the file at path into the empty database mem. */
static int load_file(sqlite3 *mem, const char *path, FlError *err)
{
    sqlite3 *src = NULL;
    int page_size, rc;
    if ((rc = open_file_db(path, SQLITE_OPEN_READONLY, &src, err)))
        return rc;
    if ((rc = fl__schema_check_header(src, path, err))
        || (rc = fl__store_pragma_int(src, "page_size", &page_size, path, err)))
        goto out;
    /* A backup into an in-memory database cannot change its page size, so
     * give the copy the file's page size before it holds anything. */
    char sql[48];
    snprintf(sql, sizeof sql, "PRAGMA page_size = %d", page_size);
    if ((rc = fl__store_exec(mem, sql, path, err)))
        goto out;
    sqlite3_backup *b = sqlite3_backup_init(mem, "main", src, "main");
    if (!b) {
        rc = fl__store_error(err, mem, sqlite3_errcode(mem), path, "cannot read the file");
        goto out;
    }
    sqlite3_backup_step(b, -1);
    int brc = sqlite3_backup_finish(b);
    if (brc != SQLITE_OK) {
        int kind = brc & 0xff;
        if (kind == SQLITE_CORRUPT || kind == SQLITE_NOTADB)
            rc = fl_error_set(err, FL_EPARSE, "'%s' is damaged (%s)", path,
                              sqlite3_errmsg(mem));
        else
            rc = fl__store_error(err, mem, brc, path, "cannot read the file");
    }
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
    if ((rc = load_file(db, path, err)) || (rc = fl__schema_quick_check(db, path, err))
        || (rc = fl__schema_upgrade(db, path, err)))
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
    char *cur = dup_string(path);
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
            *out = cur;
            return FL_OK;
        }
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) {
            int e = errno;
            free(cur);
            return io_error(err, e, "cannot save '%s': %s", path);
        }
        link[n] = '\0';
        /* A relative link is relative to the directory holding it. */
        char *slash = strrchr(cur, '/');
        char *next;
        if (link[0] == '/' || !slash) {
            next = dup_string(link);
        } else {
            *slash = '\0';   /* "/x" becomes "", and "" + "/" + link is right */
            next = join_path(cur, link);
        }
        free(cur);
        cur = next;
    }
    if (!cur)
        return fl_error_set(err, FL_ENOMEM, "out of memory saving '%s'", path);
    free(cur);
    return fl_error_set(err, FL_EIO, "cannot save '%s': too many levels of symbolic links",
                        path);
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

/* Whether fd is still the file called path (nobody removed or replaced it
 * between our open and our lock). */
static int same_file(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev
           && a.st_ino == b.st_ino;
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
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd >= 0) {
            struct stat st;
            if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
                && flock(fd, LOCK_EX | LOCK_NB) == 0 && same_file(fd, path))
                unlink(path);
            close(fd);
        }
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
        /* Losing the race to a concurrent cleaner shows as a lock held by
         * someone else or a file no longer ours: take another name. Where
         * the file system has no locks at all, nobody can clean and the
         * file is safe unlocked. */
        int locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
        if ((locked || errno != EWOULDBLOCK) && same_file(fd, tmp)) {
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
    if ((rc = fl__store_pragma_int(p->db, "freelist_count", &free_pages, label(p), err))
        || (rc = fl__store_pragma_int(p->db, "page_count", &pages, label(p), err)))
        return rc;
    if (free_pages > 16 && 4 * free_pages > pages)
        return fl__store_exec(p->db, "VACUUM", label(p), err);
    return FL_OK;
}

/* Copies the working copy into the empty file tmp. It needs no journal and
 * no syncs of its own: if anything fails the file is thrown away, and the
 * caller syncs it once when it is complete. */
static int write_copy(sqlite3 *mem, const char *tmp, const char *path, FlError *err)
{
    sqlite3 *dst = NULL;
    int rc = open_file_db(tmp, SQLITE_OPEN_READWRITE, &dst, err);
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
    int fd = -1, rc;
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
    char *copy = dup_string(path);
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
    return FL_OK;
}

/* --- SQL helpers for the topology functions ----------------------------- */

static int prepare(FlProject *p, const char *sql, sqlite3_stmt **st, FlError *err)
{
    int rc = sqlite3_prepare_v2(p->db, sql, -1, st, NULL);
    if (rc != SQLITE_OK)
        return fl__store_error(err, p->db, rc, label(p), "cannot query the project");
    return FL_OK;
}

static int step_failed(FlProject *p, int rc, FlError *err)
{
    return fl__store_error(err, p->db, rc, label(p), "cannot update the project");
}

static int begin(FlProject *p, FlError *err)
{
    return fl__store_exec(p->db, "BEGIN IMMEDIATE", label(p), err);
}

static int commit(FlProject *p, FlError *err)
{
    return fl__store_exec(p->db, "COMMIT", label(p), err);
}

static void rollback(FlProject *p)
{
    sqlite3_exec(p->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Checks a topology name: 1 to FL_PROJECT_NAME_MAX characters of UTF-8
 * (well-formed: no overlong forms, no surrogates), no control characters
 * (C0, DEL, C1). */
static int check_name(const char *name, FlError *err)
{
    if (!name || !*name)
        return fl_error_set(err, FL_EINVAL, "a topology name cannot be empty");
    const unsigned char *s = (const unsigned char *)name;
    int chars = 0;
    while (*s) {
        static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
        uint32_t cp = *s;
        int len = cp < 0x80 ? 1 : (cp & 0xe0) == 0xc0 ? 2 : (cp & 0xf0) == 0xe0 ? 3
                : (cp & 0xf8) == 0xf0 ? 4 : 0;
        if (len > 1)
            cp &= 0x7fu >> len;
        for (int i = 1; i < len; i++) {
            if ((s[i] & 0xc0) != 0x80) {
                len = 0;
                break;
            }
            cp = cp << 6 | (s[i] & 0x3fu);
        }
        if (!len || cp < min_cp[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return fl_error_set(err, FL_EINVAL,
                                "a topology name must be valid UTF-8 (bad byte at offset %d)",
                                (int)(s - (const unsigned char *)name));
        chars++;
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
            return fl_error_set(err, FL_EINVAL,
                                "a topology name cannot hold control characters "
                                "(U+%04X is character %d)", (unsigned)cp, chars);
        s += len;
    }
    if (chars > FL_PROJECT_NAME_MAX)
        return fl_error_set(err, FL_EINVAL,
                            "a topology name has at most %d characters, not %d",
                            FL_PROJECT_NAME_MAX, chars);
    return FL_OK;
}

static int no_such_topology(FlError *err, const FlProject *p, const char *name)
{
    return fl_error_set(err, FL_ENOTFOUND, "%s%s%s has no topology named '%s'", NAMED(p),
                        name);
}

static int name_taken(FlError *err, const FlProject *p, const char *name)
{
    return fl_error_set(err, FL_EEXIST, "a topology named '%s' already exists in %s%s%s",
                        name, NAMED(p));
}

/* The id of the topology called name: FL_OK, FL_ENOTFOUND (with a message)
 * or a database error. */
static int find_topology(FlProject *p, const char *name, sqlite3_int64 *id, FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p, "SELECT id FROM topology WHERE name = ?", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        rc = FL_OK;
    } else if (rc == SQLITE_DONE) {
        rc = no_such_topology(err, p, name);
    } else {
        rc = fl__store_error(err, p->db, rc, label(p), "cannot query the project");
    }
    sqlite3_finalize(st);
    return rc;
}

/* Like find_topology(), but absence is an answer (*exists = 0), not an
 * error. */
static int topology_exists(FlProject *p, const char *name, sqlite3_int64 *id, int *exists,
                           FlError *err)
{
    FlError e;
    int rc = find_topology(p, name, id, &e);
    *exists = rc == FL_OK;
    if (rc == FL_OK || rc == FL_ENOTFOUND)
        return FL_OK;
    if (err)
        *err = e;
    return rc;
}

/* Runs a one-off statement whose parameters are ?1 = an id and ?2 = a text
 * (either may be unused). */
static int run_with_id(FlProject *p, const char *sql, sqlite3_int64 id, const char *text,
                       FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p, sql, &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    if (text)
        sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    rc = rc == SQLITE_DONE ? FL_OK : step_failed(p, rc, err);
    sqlite3_finalize(st);
    return rc;
}

/* --- writing a topology ------------------------------------------------- */

/* "8x8" from the family's size parameters; "" when there are none. */
static void format_dims(const FlTopology *t, char *buf, size_t size)
{
    int dims[FL_MAX_DIMS];
    int nd = fl_topology_family_dims(t, dims);
    size_t len = 0;
    buf[0] = '\0';
    for (int d = 0; d < nd && len < size; d++)
        len += (size_t)snprintf(buf + len, size - len, d ? "x%d" : "%d", dims[d]);
}

/* Writes the topology row: a new one, or the replaced one with its id. */
static int write_topology_row(FlProject *p, const char *name, const FlTopology *t,
                              sqlite3_int64 *id, int exists, FlError *err)
{
    char dims[64];
    sqlite3_stmt *st;
    format_dims(t, dims, sizeof dims);
    int rc = prepare(p,
                     exists ? "UPDATE topology SET family = ?1, family_dims = ?2, spec = ?3,"
                              " coord_dims = ?4, modified = " FL__SQL_NOW " WHERE id = ?5"
                            : "INSERT INTO topology (family, family_dims, spec, coord_dims,"
                              " name, created, modified) VALUES (?1, ?2, ?3, ?4, ?6, "
                              FL__SQL_NOW ", " FL__SQL_NOW ")",
                     &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, fl_topology_family(t), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, dims, -1, SQLITE_STATIC);
    if (fl_topology_spec(t))
        sqlite3_bind_text(st, 3, fl_topology_spec(t), -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, fl_topology_coord_dims(t));
    if (exists)
        sqlite3_bind_int64(st, 5, *id);
    else
        sqlite3_bind_text(st, 6, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    rc = rc == SQLITE_DONE ? FL_OK : step_failed(p, rc, err);
    sqlite3_finalize(st);
    if (!rc && !exists)
        *id = sqlite3_last_insert_rowid(p->db);
    return rc;
}

static int write_nodes(FlProject *p, sqlite3_int64 id, const FlTopology *t, FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p,
                     "INSERT INTO node (topology_id, idx, kind, ports, x, y, c0, c1, c2)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     &st, err);
    if (rc)
        return rc;
    int n = fl_topology_node_count(t), ndims = fl_topology_coord_dims(t);
    sqlite3_bind_int64(st, 1, id);
    for (int i = 0; i < n && !rc; i++) {
        int c[FL_MAX_DIMS] = {0};
        double x, y;
        fl_topology_get_coords(t, i, c);
        fl_topology_get_position(t, i, &x, &y);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_text(st, 3, fl_topology_node_kind(t, i) == FL_NODE_HOST ? "host" : "switch",
                          -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 4, fl_topology_node_ports(t, i));
        sqlite3_bind_double(st, 5, x);
        sqlite3_bind_double(st, 6, y);
        for (int d = 0; d < FL_MAX_DIMS; d++) {
            if (d < ndims)
                sqlite3_bind_int(st, 7 + d, c[d]);
            else
                sqlite3_bind_null(st, 7 + d);
        }
        int src = sqlite3_step(st);
        if (src != SQLITE_DONE)
            rc = step_failed(p, src, err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

static int write_links(FlProject *p, sqlite3_int64 id, const FlTopology *t, FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p,
                     "INSERT INTO link (topology_id, idx, a, pa, b, pb)"
                     " VALUES (?, ?, ?, ?, ?, ?)",
                     &st, err);
    if (rc)
        return rc;
    int n = fl_topology_link_count(t);
    sqlite3_bind_int64(st, 1, id);
    for (int l = 0; l < n && !rc; l++) {
        int e[4];
        fl_topology_link_ends(t, l, &e[0], &e[1], &e[2], &e[3]);
        sqlite3_bind_int(st, 2, l);
        for (int k = 0; k < 4; k++)
            sqlite3_bind_int(st, 3 + k, e[k]);
        int src = sqlite3_step(st);
        if (src != SQLITE_DONE)
            rc = step_failed(p, src, err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

int fl_project_put_topology(FlProject *p, const char *name, const FlTopology *t,
                            int replace, FlError *err)
{
    sqlite3_int64 id = 0;
    int rc;
    if (!p || !t)
        return fl_error_set(err, FL_EINVAL, "no project or topology");
    if ((rc = check_name(name, err)))
        return rc;
    /* SQLite stores NaN as NULL, which the schema refuses: say why here. */
    for (int i = 0; i < fl_topology_node_count(t); i++) {
        double x, y;
        fl_topology_get_position(t, i, &x, &y);
        if (!isfinite(x) || !isfinite(y))
            return fl_error_set(err, FL_EINVAL,
                                "cannot store topology '%s': node %d has no finite position",
                                name, i);
    }
    if ((rc = begin(p, err)))
        return rc;
    int exists;
    if ((rc = topology_exists(p, name, &id, &exists, err)))
        goto fail;
    if (exists && !replace) {
        rc = name_taken(err, p, name);
        goto fail;
    }
    rc = write_topology_row(p, name, t, &id, exists, err);
    if (!rc && exists)
        rc = run_with_id(p, "DELETE FROM node WHERE topology_id = ?1", id, NULL, err);
    if (!rc && exists)
        rc = run_with_id(p, "DELETE FROM link WHERE topology_id = ?1", id, NULL, err);
    if (rc || (rc = write_nodes(p, id, t, err)) || (rc = write_links(p, id, t, err))
        || (rc = commit(p, err)))
        goto fail;
    p->modified = 1;
    return FL_OK;

fail:
    rollback(p);
    return rc;
}

/* --- reading a topology ------------------------------------------------- */

/* Reports stored data the engine refuses: FL_EPARSE naming the topology
 * and the file. */
static int damaged(FlError *err, const FlProject *p, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int damaged(FlError *err, const FlProject *p, const char *name, const char *fmt, ...)
{
    char what[FL_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return fl_error_set(err, FL_EPARSE, "topology '%s' in %s%s%s is damaged: %s", name,
                        NAMED(p), what);
}

static int parse_dims(const char *text, int dims[FL_MAX_DIMS], int *ndims)
{
    *ndims = 0;
    if (!*text)
        return FL_OK;
    for (;;) {
        char *end;
        long v = strtol(text, &end, 10);
        if (end == text || v < 0 || v > 1 << 24 || *ndims == FL_MAX_DIMS)
            return FL_EPARSE;
        dims[(*ndims)++] = (int)v;
        if (!*end)
            return FL_OK;
        if (*end != 'x')
            return FL_EPARSE;
        text = end + 1;
    }
}

static int read_nodes(FlProject *p, const char *name, sqlite3_int64 id, FlTopology *t,
                      FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p,
                     "SELECT idx, kind, ports, x, y, c0, c1, c2 FROM node"
                     " WHERE topology_id = ? ORDER BY idx",
                     &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    int ndims = fl_topology_coord_dims(t), n = 0, src = SQLITE_DONE;
    while (!rc && (src = sqlite3_step(st)) == SQLITE_ROW) {
        const char *kind = (const char *)sqlite3_column_text(st, 1);
        FlError e;
        if (sqlite3_column_int64(st, 0) != n) {
            rc = damaged(err, p, name, "node %d is missing", n);
            break;
        }
        int is_host = kind && strcmp(kind, "host") == 0;
        if (!is_host && !(kind && strcmp(kind, "switch") == 0)) {
            rc = damaged(err, p, name, "node %d is of unknown kind '%s'", n, kind ? kind : "");
            break;
        }
        if (fl_topology_add_node(t, is_host ? FL_NODE_HOST : FL_NODE_SWITCH,
                                 sqlite3_column_int(st, 2), NULL, &e)) {
            rc = e.code == FL_ENOMEM ? fl_error_set(err, FL_ENOMEM, "%s", e.message)
                                     : damaged(err, p, name, "node %d: %s", n, e.message);
            break;
        }
        int c[FL_MAX_DIMS] = {0};
        for (int d = 0; d < ndims; d++)
            c[d] = sqlite3_column_int(st, 5 + d);
        fl_topology_set_coords(t, n, c);
        fl_topology_set_position(t, n, sqlite3_column_double(st, 3),
                                 sqlite3_column_double(st, 4));
        n++;
    }
    if (!rc && src != SQLITE_DONE)
        rc = fl__store_error(err, p->db, src, label(p), "cannot read the project");
    sqlite3_finalize(st);
    return rc;
}

static int read_links(FlProject *p, const char *name, sqlite3_int64 id, FlTopology *t,
                      FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p,
                     "SELECT idx, a, pa, b, pb FROM link WHERE topology_id = ? ORDER BY idx",
                     &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    int l = 0, src = SQLITE_DONE;
    while (!rc && (src = sqlite3_step(st)) == SQLITE_ROW) {
        FlError e;
        if (sqlite3_column_int64(st, 0) != l) {
            rc = damaged(err, p, name, "link %d is missing", l);
            break;
        }
        if (fl_topology_connect(t, sqlite3_column_int(st, 1), sqlite3_column_int(st, 2),
                                sqlite3_column_int(st, 3), sqlite3_column_int(st, 4), NULL,
                                &e)) {
            rc = e.code == FL_ENOMEM ? fl_error_set(err, FL_ENOMEM, "%s", e.message)
                                     : damaged(err, p, name, "link %d: %s", l, e.message);
            break;
        }
        l++;
    }
    if (!rc && src != SQLITE_DONE)
        rc = fl__store_error(err, p->db, src, label(p), "cannot read the project");
    sqlite3_finalize(st);
    return rc;
}

int fl_project_get_topology(FlProject *p, const char *name, FlTopology **out, FlError *err)
{
    sqlite3_stmt *st;
    FlTopology *t = NULL;
    if (!p || !name || !out)
        return fl_error_set(err, FL_EINVAL, "no project, name or place for the topology");
    int rc = prepare(p,
                     "SELECT id, family, family_dims, spec, coord_dims FROM topology"
                     " WHERE name = ?",
                     &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int src = sqlite3_step(st);
    if (src != SQLITE_ROW) {
        rc = src == SQLITE_DONE
                 ? no_such_topology(err, p, name)
                 : fl__store_error(err, p->db, src, label(p), "cannot read the project");
        goto out;
    }
    sqlite3_int64 id = sqlite3_column_int64(st, 0);
    const char *family = (const char *)sqlite3_column_text(st, 1);
    const char *dims_text = (const char *)sqlite3_column_text(st, 2);
    const char *spec = (const char *)sqlite3_column_text(st, 3);
    int coord_dims = sqlite3_column_int(st, 4), dims[FL_MAX_DIMS], ndims;
    if (!family || !dims_text || parse_dims(dims_text, dims, &ndims)) {
        rc = damaged(err, p, name, "bad family sizes '%s'", dims_text ? dims_text : "");
        goto out;
    }
    if (!(t = fl_topology_new())) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory reading topology '%s'", name);
        goto out;
    }
    if (fl_topology_set_coord_dims(t, coord_dims)) {
        rc = damaged(err, p, name, "%d coordinate dimensions", coord_dims);
        goto out;
    }
    if ((rc = read_nodes(p, name, id, t, err)) || (rc = read_links(p, name, id, t, err)))
        goto out;
    /* Last: adding nodes and links reset the family to "custom". */
    if (fl_topology_set_family(t, family, ndims, dims, spec) || fl_topology_set_name(t, name)) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory reading topology '%s'", name);
        goto out;
    }
    *out = t;
    t = NULL;
out:
    fl_topology_free(t);
    sqlite3_finalize(st);
    return rc;
}

/* --- listing, deleting, renaming ---------------------------------------- */

void fl_project_topology_info_free(FlProjectTopologyInfo *items, int n)
{
    if (!items)
        return;
    for (int i = 0; i < n; i++) {
        free(items[i].name);
        free(items[i].family);
        free(items[i].spec);
        free(items[i].created);
        free(items[i].modified);
    }
    free(items);
}

/* A copy of a text column, or NULL for SQL NULL; *ok drops to 0 when out of
 * memory. */
static char *column_dup(sqlite3_stmt *st, int col, int *ok)
{
    const char *s = (const char *)sqlite3_column_text(st, col);
    if (!s)
        return NULL;
    char *c = dup_string(s);
    if (!c)
        *ok = 0;
    return c;
}

int fl_project_list_topologies(FlProject *p, FlProjectTopologyInfo **items, int *n,
                               FlError *err)
{
    sqlite3_stmt *st;
    if (!p || !items || !n)
        return fl_error_set(err, FL_EINVAL, "no project or place for the list");
    /* The counts come from the node and link rows rather than from copies
     * kept in the topology row, which could drift from them. Both lookups
     * are primary-key lookups: O(nodes + links log nodes) in all. */
    int rc = prepare(p,
                     "SELECT t.name, t.family, t.spec, t.created, t.modified,"
                     " (SELECT count(*) FROM node WHERE topology_id = t.id AND kind = 'switch'),"
                     " (SELECT count(*) FROM node WHERE topology_id = t.id AND kind = 'host'),"
                     " (SELECT count(*) FROM link l"
                     "   JOIN node na ON na.topology_id = l.topology_id AND na.idx = l.a"
                     "   JOIN node nb ON nb.topology_id = l.topology_id AND nb.idx = l.b"
                     "   WHERE l.topology_id = t.id AND na.kind = 'switch'"
                     "   AND nb.kind = 'switch')"
                     " FROM topology t ORDER BY t.id",
                     &st, err);
    if (rc)
        return rc;
    FlProjectTopologyInfo *list = NULL;
    int count = 0, cap = 0, src, ok = 1;
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == cap) {
            int ncap = cap ? 2 * cap : 8;
            FlProjectTopologyInfo *nl = realloc(list, sizeof *nl * (size_t)ncap);
            if (!nl) {
                ok = 0;
                break;
            }
            list = nl;
            cap = ncap;
        }
        FlProjectTopologyInfo *it = &list[count++];
        it->name = column_dup(st, 0, &ok);
        it->family = column_dup(st, 1, &ok);
        it->spec = column_dup(st, 2, &ok);
        it->created = column_dup(st, 3, &ok);
        it->modified = column_dup(st, 4, &ok);
        it->switches = sqlite3_column_int(st, 5);
        it->hosts = sqlite3_column_int(st, 6);
        it->links = sqlite3_column_int(st, 7);
        if (!ok)
            break;
    }
    if (!ok)
        rc = fl_error_set(err, FL_ENOMEM, "out of memory listing the topologies of %s%s%s",
                          NAMED(p));
    else if (src != SQLITE_DONE)
        rc = fl__store_error(err, p->db, src, label(p), "cannot list the topologies");
    sqlite3_finalize(st);
    if (rc) {
        fl_project_topology_info_free(list, count);
        return rc;
    }
    *items = list;
    *n = count;
    return FL_OK;
}

int fl_project_delete_topology(FlProject *p, const char *name, FlError *err)
{
    sqlite3_int64 id;
    if (!p || !name)
        return fl_error_set(err, FL_EINVAL, "no project or topology name");
    int rc = find_topology(p, name, &id, err);
    /* Nodes and links go with it: ON DELETE CASCADE. */
    if (!rc)
        rc = run_with_id(p, "DELETE FROM topology WHERE id = ?1", id, NULL, err);
    if (!rc)
        p->modified = 1;
    return rc;
}

int fl_project_rename_topology(FlProject *p, const char *old_name, const char *new_name,
                               FlError *err)
{
    sqlite3_int64 id, other;
    if (!p || !old_name)
        return fl_error_set(err, FL_EINVAL, "no project or topology name");
    int rc = find_topology(p, old_name, &id, err);
    if (rc || (rc = check_name(new_name, err)))
        return rc;
    if (strcmp(old_name, new_name) == 0)
        return FL_OK;
    int taken;
    if ((rc = topology_exists(p, new_name, &other, &taken, err)))
        return rc;
    if (taken)
        return name_taken(err, p, new_name);
    rc = run_with_id(p, "UPDATE topology SET name = ?2, modified = " FL__SQL_NOW " WHERE id = ?1",
                     id, new_name, err);
    if (!rc)
        p->modified = 1;
    return rc;
}
