/* output-file.c — every output file Flitlab writes (flitlab-output.h):
 * atomic replacement of regular files, writing through FIFOs, devices and
 * standard output, symbolic links followed to their target, and temporary
 * files that a killed writer leaves removed.
 *
 * The registry of live temporary files is the one piece of global state: a
 * signal handler can reach nothing else. Its slots are claimed with atomic
 * operations, so threads may write outputs at the same time, and the
 * handler reads only lock-free atomics and fixed buffers.
 *
 * Files are written through a cookie stream (fopencookie) over the file
 * descriptor: stdio's own stream forgets errno by the time a buffered write
 * fails, and a message should say "No space left on device".
 */
#define _GNU_SOURCE /* fopencookie */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "flitlab-output.h"

enum { OUT_ATOMIC, OUT_DIRECT, OUT_STDOUT };

struct FlOutput {
    char *path;   /* as given, for messages */
    char *target; /* the file replaced: path or the end of its links */
    char *tmp;    /* the temporary file beside target (OUT_ATOMIC) */
    FILE *fp;
    int fd;       /* under fp, for fsync(); -1 once closed */
    int write_errno; /* the first write's failure */
    int kind;
    int slot;     /* in the registry of live temporary files, or -1 */
};

/* The temporary file's name keeps at most this much of the target's name, so
 * a long target name does not push it over NAME_MAX. */
#define TEMP_BASE_MAX 100
#define TEMP_SUFFIX_LEN 6
#define TEMP_ATTEMPTS 100
static const char temp_alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";

/* ------------------------------------------------------------------------ */
/* Live temporary files, removed by the signal handler                      */
/* ------------------------------------------------------------------------ */

enum { SLOT_FREE, SLOT_FILLING, SLOT_LIVE };
#define LIVE_SLOTS 16

static struct {
    atomic_int state;
    char path[PATH_MAX];
} live[LIVE_SLOTS];

/* A slot for path, or -1 when all are taken or the path does not fit: that
 * file is then left to the stale-file rule. */
static int live_add(const char *path)
{
    size_t n = strlen(path) + 1;
    if (n > sizeof live[0].path)
        return -1;
    for (int i = 0; i < LIVE_SLOTS; i++) {
        int expected = SLOT_FREE;
        if (atomic_compare_exchange_strong(&live[i].state, &expected, SLOT_FILLING)) {
            memcpy(live[i].path, path, n);
            atomic_store(&live[i].state, SLOT_LIVE);
            return i;
        }
    }
    return -1;
}

static void live_remove(int slot)
{
    if (slot >= 0)
        atomic_store(&live[slot].state, SLOT_FREE);
}

static const int caught_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };

/* Async-signal-safe: unlink() and lock-free atomics only. SA_RESETHAND has
 * put the default action back, so the raised signal ends the process as it
 * would have ended without this handler (once the handler returns). */
static void remove_live_and_die(int sig)
{
    int saved = errno;
    for (int i = 0; i < LIVE_SLOTS; i++)
        if (atomic_load(&live[i].state) == SLOT_LIVE)
            unlink(live[i].path);
    errno = saved;
    raise(sig);
}

void fl_output_catch_signals(void)
{
    for (size_t i = 0; i < sizeof caught_signals / sizeof caught_signals[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(caught_signals[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_live_and_die;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(caught_signals[i], &sa, NULL);
    }
}

/* ------------------------------------------------------------------------ */
/* Messages                                                                 */
/* ------------------------------------------------------------------------ */

/* strerror() may use a shared buffer; this is safe from any thread (GNU's
 * strerror_r, as _GNU_SOURCE is defined, returns the text). */
static const char *errno_text(int e, char buf[128])
{
    return strerror_r(e, buf, 128);
}

static int write_error(FlError *err, const char *path, int e)
{
    char buf[128];
    const char *why = errno_text(e ? e : EIO, buf);
    if (strcmp(path, "-") == 0)
        return fl_error_set(err, FL_EIO, "cannot write standard output: %s", why);
    return fl_error_set(err, e == ENOMEM ? FL_ENOMEM : FL_EIO, "cannot write %s: %s", path,
                        why);
}

static int replace_error(FlError *err, const char *path, int e)
{
    char buf[128];
    return fl_error_set(err, FL_EIO, "cannot replace %s: %s", path, errno_text(e, buf));
}

/* ------------------------------------------------------------------------ */
/* Streams                                                                  */
/* ------------------------------------------------------------------------ */

static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
    FlOutput *o = cookie;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(o->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!o->write_errno)
                o->write_errno = n < 0 ? errno : EIO;
            return -1;
        }
        done += (size_t)n;
    }
    return (ssize_t)size;
}

static int stream_close(void *cookie)
{
    FlOutput *o = cookie;
    int rc = close(o->fd);
    if (rc != 0 && !o->write_errno)
        o->write_errno = errno;
    o->fd = -1;
    return rc;
}

/* A stream over o->fd; the descriptor is closed (with the stream, or here
 * when no stream can be made). */
static int open_stream(FlOutput *o, FlError *err)
{
    static const cookie_io_functions_t functions = { .write = stream_write,
                                                     .close = stream_close };
    if ((o->fp = fopencookie(o, "w", functions)))
        return FL_OK;
    close(o->fd);
    o->fd = -1;
    return fl_error_set(err, FL_ENOMEM, "out of memory");
}

/* The errno of what failed: the first write's, else the call's own. */
static int failure(const FlOutput *o, int e)
{
    return o->write_errno ? o->write_errno : e;
}

/* ------------------------------------------------------------------------ */
/* Links, locks and stale temporary files (shared with project saves)       */
/* ------------------------------------------------------------------------ */

static char *join_path(const char *dir, size_t dir_len, const char *name)
{
    size_t n = dir_len + strlen(name) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%.*s/%s", (int)dir_len, dir, name);
    return s;
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    return c ? memcpy(c, s, n) : NULL;
}

int fl_output_follow_links(const char *path, char **out, int *through_proc)
{
    char *cur = copy_string(path);
    if (through_proc)
        *through_proc = 0;
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
            *out = cur;
            return 0;
        }
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) {
            int e = errno;
            free(cur);
            return e;
        }
        link[n] = '\0';
        /* /dev/stdout leads to /proc/self/fd/1, a link to an open file. */
        if (through_proc && (strncmp(cur, "/proc/", 6) == 0 || strncmp(cur, "/dev/fd/", 8) == 0))
            *through_proc = 1;
        /* A relative link is relative to the directory holding it. */
        const char *slash = strrchr(cur, '/');
        char *next = link[0] == '/' || !slash ? copy_string(link)
                                              : join_path(cur, (size_t)(slash - cur), link);
        free(cur);
        cur = next;
    }
    if (!cur)
        return ENOMEM;
    free(cur);
    return ELOOP;
}

/* Whether fd is still the file called path (nobody removed or replaced it
 * between the open and the lock). */
static int same_file(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev
           && a.st_ino == b.st_ino;
}

int fl_output_lock_temp(int fd, const char *path)
{
    /* Losing the race to a concurrent cleaner shows as a lock held by
     * someone else or a file no longer ours. */
    int locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
    return (locked || errno != EWOULDBLOCK) && same_file(fd, path);
}

void fl_output_remove_if_stale(const char *path, int min_age)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid()
        && (min_age <= 0 || time(NULL) - st.st_mtime >= min_age)
        && flock(fd, LOCK_EX | LOCK_NB) == 0 && same_file(fd, path))
        unlink(path);
    close(fd);
}

/* ------------------------------------------------------------------------ */
/* Temporary files                                                          */
/* ------------------------------------------------------------------------ */

/* Where target's temporary files go and how their names start. */
typedef struct TempPlace {
    const char *dir; /* target's directory: dir_len bytes of target, or "." */
    size_t dir_len;
    const char *base;
    int base_len;    /* at most TEMP_BASE_MAX */
} TempPlace;

static void temp_place(const char *target, TempPlace *tp)
{
    const char *slash = strrchr(target, '/');
    tp->base = slash ? slash + 1 : target;
    tp->dir = slash ? target : ".";
    tp->dir_len = !slash ? 1 : slash == target ? 1 : (size_t)(slash - target);
    tp->base_len = (int)strnlen(tp->base, TEMP_BASE_MAX);
}

/* Whether name is ".BASE.XXXXXX.tmp" for tp's BASE. */
static int is_temp_name(const char *name, const TempPlace *tp)
{
    size_t b = (size_t)tp->base_len;
    if (name[0] != '.' || strncmp(name + 1, tp->base, b) != 0 || name[1 + b] != '.')
        return 0;
    const char *suffix = name + 2 + b;
    return strlen(suffix) == TEMP_SUFFIX_LEN + 4
           && strspn(suffix, temp_alphabet) == TEMP_SUFFIX_LEN
           && strcmp(suffix + TEMP_SUFFIX_LEN, ".tmp") == 0;
}

/* Removes what killed writers of target left behind (see the header). */
static void remove_stale_temps(const TempPlace *tp)
{
    char *dir = join_path(tp->dir, tp->dir_len, "");
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        free(dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_temp_name(e->d_name, tp))
            continue;
        char *path = join_path(tp->dir, tp->dir_len, e->d_name);
        if (!path)
            break;
        fl_output_remove_if_stale(path, FL_OUTPUT_STALE_SECONDS);
        free(path);
    }
    closedir(d);
    free(dir);
}

/* A name no other writer is likely to pick: pid, clock, a salt and the
 * attempt number, mixed (SplitMix64's finaliser). O_EXCL makes a collision
 * harmless anyway: the caller just tries the next attempt. */
static void random_suffix(char out[TEMP_SUFFIX_LEN + 1], const void *salt, unsigned attempt)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)getpid() * 0x9E3779B97F4A7C15u;
    x ^= ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec ^ (uint64_t)(uintptr_t)salt;
    x += attempt * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
    x ^= x >> 31;
    for (int i = 0; i < TEMP_SUFFIX_LEN; i++, x /= sizeof temp_alphabet - 1)
        out[i] = temp_alphabet[x % (sizeof temp_alphabet - 1)];
    out[TEMP_SUFFIX_LEN] = '\0';
}

/* "dir/.base.XXXXXX.tmp". */
static char *temp_path(const TempPlace *tp, const void *salt, unsigned attempt)
{
    char suffix[TEMP_SUFFIX_LEN + 1];
    random_suffix(suffix, salt, attempt);
    size_t size = tp->dir_len + (size_t)tp->base_len + TEMP_SUFFIX_LEN + 10;
    char *tmp = malloc(size);
    if (tmp)
        snprintf(tmp, size, "%.*s/.%.*s.%s.tmp", (int)tp->dir_len, tp->dir, tp->base_len,
                 tp->base, suffix);
    return tmp;
}

/* Creates, locks and registers o's temporary file; its stream in o->fp. */
static int open_temp(FlOutput *o, const struct stat *old, FlError *err)
{
    TempPlace tp;
    temp_place(o->target, &tp);
    remove_stale_temps(&tp);
    for (unsigned attempt = 0; attempt < TEMP_ATTEMPTS; attempt++) {
        free(o->tmp);
        if (!(o->tmp = temp_path(&tp, o, attempt)))
            return fl_error_set(err, FL_ENOMEM, "out of memory");
        /* Mode 0666 less the umask, like fopen(); a replaced file keeps its
         * own mode below. */
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            return write_error(err, o->path, errno);
        o->slot = live_add(o->tmp);
        if (!fl_output_lock_temp(fd, o->tmp)) {
            live_remove(o->slot);
            o->slot = -1;
            close(fd);
            continue;
        }
        if (old)
            fchmod(fd, old->st_mode & 07777);
        o->fd = fd;
        int rc = open_stream(o, err);
        if (rc) {
            unlink(o->tmp);
            live_remove(o->slot);
            o->slot = -1;
        }
        return rc;
    }
    return write_error(err, o->path, EEXIST);
}

/* ------------------------------------------------------------------------ */
/* Opening, committing, aborting                                            */
/* ------------------------------------------------------------------------ */

static void free_output(FlOutput *o)
{
    free(o->tmp);
    free(o->target);
    free(o->path);
    free(o);
}

/* The shell's ">": no O_CREAT, so that a node removed meanwhile is not
 * replaced by a plain file written in place. */
static int open_direct(FlOutput *o, FlError *err)
{
    if ((o->fd = open(o->path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY)) < 0)
        return write_error(err, o->path, errno);
    return open_stream(o, err);
}

static int open_output(FlOutput *o, FlError *err)
{
    const char *path = o->path;
    if (strcmp(path, "-") == 0) {
        o->kind = OUT_STDOUT;
        o->fp = stdout;
        return FL_OK;
    }
    size_t len = strlen(path);
    if (path[len - 1] == '/')
        return fl_error_set(err, FL_EINVAL, "cannot write %s: it names a directory", path);
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return fl_error_set(err, FL_EIO, "cannot write %s: it is a directory", path);
    int through_proc = 0;
    int e = fl_output_follow_links(path, &o->target, &through_proc);
    if (e == ENOMEM)
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    if (e)
        return write_error(err, path, e);
    if ((exists && !S_ISREG(st.st_mode)) || (exists && through_proc)
        || strncmp(o->target, "/proc/", 6) == 0) {
        o->kind = OUT_DIRECT;
        return open_direct(o, err);
    }
    o->kind = OUT_ATOMIC;
    return open_temp(o, exists ? &st : NULL, err);
}

int fl_output_open(const char *path, FlOutput **out, FILE **fp, FlError *err)
{
    if (!path || !*path || !out || !fp)
        return fl_error_set(err, FL_EINVAL, "no file name to write to");
    FlOutput *o = calloc(1, sizeof *o);
    if (!o || !(o->path = copy_string(path))) {
        free(o);
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    o->slot = -1;
    o->fd = -1;
    int rc = open_output(o, err);
    if (rc) {
        free_output(o);
        return rc;
    }
    *out = o;
    *fp = o->fp;
    return FL_OK;
}

int fl_output_is_direct(const FlOutput *o)
{
    return o && o->kind != OUT_ATOMIC;
}

int fl_output_errno(const FlOutput *o)
{
    return !o ? 0 : o->kind == OUT_STDOUT && ferror(o->fp) ? EIO : o->write_errno;
}

/* Makes the rename itself durable. Best effort: the new file is already in
 * place, and some file systems refuse to fsync a directory. */
static void sync_directory(const char *target)
{
    TempPlace tp;
    temp_place(target, &tp);
    char *dir = join_path(tp.dir, tp.dir_len, "");
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

/* Flushes a written-through output; standard output stays open for the
 * rest of the program's output (and its own final check). */
static int commit_direct(FlOutput *o, FlError *err)
{
    errno = 0;
    int failed = fflush(o->fp) != 0 || ferror(o->fp);
    int e = errno;
    if (o->kind == OUT_STDOUT) {
        /* Reported here: the program's last check need not say it again. */
        if (failed)
            clearerr(o->fp);
    } else if (fclose(o->fp) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    return failed ? write_error(err, o->path, failure(o, e)) : FL_OK;
}

/* The rename comes before the close: the lock guards the temporary file
 * from a concurrent cleaner until it has its final name. */
static int commit_atomic(FlOutput *o, FlError *err)
{
    int rc = FL_OK;
    errno = 0;
    if (fflush(o->fp) != 0 || ferror(o->fp) || fsync(o->fd) != 0)
        rc = write_error(err, o->path, failure(o, errno));
    else if (rename(o->tmp, o->target) != 0)
        rc = replace_error(err, o->path, errno);
    if (rc)
        unlink(o->tmp);
    live_remove(o->slot);
    int closed = fclose(o->fp) == 0;
    if (!rc && !closed)
        rc = write_error(err, o->path, failure(o, errno));
    if (!rc)
        sync_directory(o->target);
    return rc;
}

int fl_output_commit(FlOutput *o, FlError *err)
{
    if (!o)
        return fl_error_set(err, FL_EINVAL, "no file to commit");
    int rc = o->kind == OUT_ATOMIC ? commit_atomic(o, err) : commit_direct(o, err);
    free_output(o);
    return rc;
}

void fl_output_abort(FlOutput *o)
{
    if (!o)
        return;
    if (o->kind == OUT_ATOMIC) {
        unlink(o->tmp);
        live_remove(o->slot);
        fclose(o->fp);
    } else if (o->kind == OUT_DIRECT) {
        fclose(o->fp);
    } else {
        fflush(o->fp);
    }
    free_output(o);
}
