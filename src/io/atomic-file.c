/* atomic-file.c — topology files on disk: replacing a file atomically,
 * reading a whole file, and choosing the reader or writer for a format.
 *
 * A file is never written in place. The new contents go to a temporary file
 * beside the target (same directory, hence same file system, so rename() is
 * atomic), which is flushed to disk and then renamed over the target. A
 * crash, a full disk or a refused network leaves the old file as it was and
 * no temporary file behind (except after a crash between open and rename,
 * which leaves a ".NAME.XXXXXX.tmp" file, never a damaged target).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "flitlab-io.h"

struct FlAtomicFile {
    char *path;
    char *tmp;
    FILE *fp;
};

/* The temporary file's name keeps at most this much of the target's name, so
 * a long target name does not push it over NAME_MAX. */
#define TEMP_BASE_MAX 100
#define TEMP_ATTEMPTS 100

/* strerror() may use a shared buffer; this is safe from any thread. */
static const char *errno_text(int e, char buf[128])
{
    if (strerror_r(e, buf, 128) != 0)
        snprintf(buf, 128, "error %d", e);
    return buf;
}

/* What failed, so that each message is one sentence to translate. */
typedef enum { OP_WRITE, OP_REPLACE, OP_READ, OP_OPEN } FileOp;

static int errno_error(FlError *err, int code, FileOp op, const char *path, int e)
{
    char buf[128];
    const char *why = errno_text(e, buf);
    switch (op) {
    case OP_REPLACE:
        return fl_error_set(err, code, "cannot replace %s: %s", path, why);
    case OP_READ:
        return fl_error_set(err, code, "cannot read %s: %s", path, why);
    case OP_OPEN:
        return fl_error_set(err, code, "cannot open %s: %s", path, why);
    case OP_WRITE:
    default:
        return fl_error_set(err, code, "cannot write %s: %s", path, why);
    }
}

/* A name no other writer is likely to pick: pid, clock, the handle's address
 * and the attempt number, mixed (SplitMix64's finaliser). O_EXCL makes a
 * collision harmless anyway: the caller just tries the next attempt. */
static void random_suffix(char out[7], const void *salt, unsigned attempt)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)getpid() * 0x9E3779B97F4A7C15u;
    x ^= ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec ^ (uint64_t)(uintptr_t)salt;
    x += attempt * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
    x ^= x >> 31;
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (int i = 0; i < 6; i++, x /= 36)
        out[i] = alphabet[x % 36];
    out[6] = '\0';
}

/* "dir/.name.XXXXXX.tmp" for "dir/name". */
static char *temp_path(const char *path, const void *salt, unsigned attempt)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dir_len = (int)(base - path);
    int base_len = (int)strnlen(base, TEMP_BASE_MAX);
    char suffix[7];
    random_suffix(suffix, salt, attempt);
    size_t size = (size_t)dir_len + (size_t)base_len + 16;
    char *tmp = malloc(size);
    if (tmp)
        snprintf(tmp, size, "%.*s.%.*s.%s.tmp", dir_len, path, base_len, base, suffix);
    return tmp;
}

int fl_atomic_open(const char *path, FlAtomicFile **out, FILE **fp, FlError *err)
{
    if (!path || !*path || !out || !fp)
        return fl_error_set(err, FL_EINVAL, "no file name to write to");
    const char *slash = strrchr(path, '/');
    if (slash && !slash[1])
        return fl_error_set(err, FL_EINVAL, "cannot write %s: it names a directory", path);
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return fl_error_set(err, FL_EIO, "cannot write %s: it is a directory", path);

    FlAtomicFile *f = calloc(1, sizeof *f);
    size_t plen = strlen(path) + 1;
    if (!f || !(f->path = malloc(plen))) {
        free(f);
        return fl_error_set(err, FL_ENOMEM, "out of memory");
    }
    memcpy(f->path, path, plen);

    int fd = -1, rc;
    for (unsigned attempt = 0; fd < 0 && attempt < TEMP_ATTEMPTS; attempt++) {
        free(f->tmp);
        if (!(f->tmp = temp_path(path, f, attempt))) {
            rc = fl_error_set(err, FL_ENOMEM, "out of memory");
            goto fail_handle;
        }
        /* Mode 0666 less the umask, like fopen(); a replaced file keeps its
         * own mode below. */
        fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            rc = errno_error(err, FL_EIO, OP_WRITE, path, errno);
            goto fail_handle;
        }
    }
    if (fd < 0) {
        rc = errno_error(err, FL_EIO, OP_WRITE, path, EEXIST);
        goto fail_handle;
    }
    if (exists && S_ISREG(st.st_mode))
        fchmod(fd, st.st_mode & 07777);
    if (!(f->fp = fdopen(fd, "w"))) {
        rc = errno_error(err, FL_EIO, OP_WRITE, path, errno);
        close(fd);
        unlink(f->tmp);
        goto fail_handle;
    }
    *out = f;
    *fp = f->fp;
    return FL_OK;

fail_handle:
    free(f->tmp);
    free(f->path);
    free(f);
    return rc;
}

static void free_handle(FlAtomicFile *f)
{
    free(f->tmp);
    free(f->path);
    free(f);
}

/* Makes the rename itself durable. Best effort: the new file is already in
 * place, and some file systems refuse to fsync a directory. */
static void sync_directory(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = NULL;
    if (slash) {
        size_t len = slash == path ? 1 : (size_t)(slash - path);
        if (!(dir = malloc(len + 1)))
            return;
        memcpy(dir, path, len);
        dir[len] = '\0';
    }
    int fd = open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

int fl_atomic_commit(FlAtomicFile *f, FlError *err)
{
    if (!f)
        return fl_error_set(err, FL_EINVAL, "no file to commit");
    int rc = FL_OK;
    int failed = fflush(f->fp) != 0 || ferror(f->fp) || fsync(fileno(f->fp)) != 0;
    int e = errno;
    if (fclose(f->fp) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    if (failed)
        rc = errno_error(err, FL_EIO, OP_WRITE, f->path, e ? e : EIO);
    else if (rename(f->tmp, f->path) != 0)
        rc = errno_error(err, FL_EIO, OP_REPLACE, f->path, errno);
    if (rc)
        unlink(f->tmp);
    else
        sync_directory(f->path);
    free_handle(f);
    return rc;
}

void fl_atomic_abort(FlAtomicFile *f)
{
    if (!f)
        return;
    fclose(f->fp);
    unlink(f->tmp);
    free_handle(f);
}

/* ------------------------------------------------------------------------ */
/* Formats                                                                  */
/* ------------------------------------------------------------------------ */

FlFileFormat fl_io_format_from_name(const char *name)
{
    if (!name)
        return FL_FORMAT_UNKNOWN;
    if (strcasecmp(name, "json") == 0)
        return FL_FORMAT_JSON;
    if (strcasecmp(name, "dot") == 0 || strcasecmp(name, "gv") == 0)
        return FL_FORMAT_DOT;
    if (strcasecmp(name, "anynet") == 0)
        return FL_FORMAT_ANYNET;
    return FL_FORMAT_UNKNOWN;
}

const char *fl_io_format_name(FlFileFormat format)
{
    switch (format) {
    case FL_FORMAT_JSON: return "json";
    case FL_FORMAT_DOT: return "dot";
    case FL_FORMAT_ANYNET: return "anynet";
    case FL_FORMAT_UNKNOWN: break;
    }
    return "unknown";
}

static FlFileFormat format_from_extension(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash))
        return FL_FORMAT_UNKNOWN;
    return fl_io_format_from_name(dot + 1);
}

static int starts_with_word(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(end - p) < n || memcmp(p, word, n) != 0)
        return 0;
    return p + n == end || p[n] == ' ' || p[n] == '\t' || p[n] == '\r' || p[n] == '\n'
           || p[n] == '{';
}

/* The first word decides: each format starts in its own way. */
static FlFileFormat format_from_content(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    if (p < end && *p == '{')
        return FL_FORMAT_JSON;
    if (starts_with_word(p, end, "router") || starts_with_word(p, end, "node"))
        return FL_FORMAT_ANYNET;
    if (starts_with_word(p, end, "graph") || starts_with_word(p, end, "digraph")
        || starts_with_word(p, end, "strict"))
        return FL_FORMAT_DOT;
    return FL_FORMAT_UNKNOWN;
}

FlFileFormat fl_io_guess_format(const char *path)
{
    if (!path)
        return FL_FORMAT_UNKNOWN;
    FlFileFormat f = format_from_extension(path);
    if (f != FL_FORMAT_UNKNOWN || strcmp(path, "-") == 0)
        return f;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return FL_FORMAT_UNKNOWN;
    char head[512];
    size_t n = fread(head, 1, sizeof head, fp);
    fclose(fp);
    return format_from_content(head, n);
}

/* ------------------------------------------------------------------------ */
/* Reading and writing whole files                                          */
/* ------------------------------------------------------------------------ */

/* Reads fp to the end; one byte more than the limit is enough to know a file
 * is too big, so no more is ever allocated. */
static int read_all(FILE *fp, const char *name, char **text, size_t *len, FlError *err)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return fl_error_set(err, FL_ENOMEM, "out of memory reading %s", name);
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n, fp);
        /* Topology files are text: a device or a binary file stops here,
         * not after a gigabyte. */
        const char *nul = memchr(buf + n, '\0', got);
        if (nul) {
            size_t at = (size_t)(nul - buf);
            free(buf);
            return fl_error_set(err, FL_EPARSE, "%s: a NUL byte at byte %zu (a topology file "
                                "is text)", name, at);
        }
        n += got;
        if (n > FL_IO_MAX_FILE_BYTES) {
            free(buf);
            return fl_error_set(err, FL_ERANGE, "%s is larger than %zu bytes", name,
                                (size_t)FL_IO_MAX_FILE_BYTES);
        }
        if (n < cap)
            break;
        size_t ncap = cap * 2 > FL_IO_MAX_FILE_BYTES ? FL_IO_MAX_FILE_BYTES + 1 : cap * 2;
        char *nb = realloc(buf, ncap);
        if (!nb) {
            free(buf);
            return fl_error_set(err, FL_ENOMEM, "out of memory reading %s", name);
        }
        buf = nb;
        cap = ncap;
    }
    if (ferror(fp)) {
        int e = errno;
        free(buf);
        return errno_error(err, FL_EIO, OP_READ, name, e);
    }
    *text = buf;
    *len = n;
    return FL_OK;
}

int fl_io_read_file_as(const char *path, FlFileFormat format, FlTopology **out,
                       FlError *err)
{
    if (!path || !out)
        return fl_error_set(err, FL_EINVAL, "no file to read");
    int from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "standard input" : path;
    FILE *fp = from_stdin ? stdin : fopen(path, "rb");
    if (!fp)
        return errno_error(err, FL_EIO, OP_OPEN, path, errno);
    char *text = NULL;
    size_t len = 0;
    int rc = read_all(fp, name, &text, &len, err);
    if (!from_stdin)
        fclose(fp);
    if (rc)
        return rc;

    if (format == FL_FORMAT_UNKNOWN)
        format = format_from_extension(path);
    if (format == FL_FORMAT_UNKNOWN)
        format = format_from_content(text, len);
    FlError why = { 0 };
    switch (format) {
    case FL_FORMAT_JSON:
        rc = fl_io_read_json_string(text, len, out, &why);
        break;
    case FL_FORMAT_ANYNET:
        rc = fl_io_read_anynet_string(text, len, out, &why);
        break;
    case FL_FORMAT_DOT:
        rc = fl_error_set(&why, FL_EUNSUPPORTED,
                          "Flitlab writes DOT files for Graphviz but cannot read them");
        break;
    case FL_FORMAT_UNKNOWN:
        rc = fl_error_set(&why, FL_EPARSE,
                          "not a topology file (neither Flitlab JSON nor a BookSim anynet file)");
        break;
    }
    free(text);
    if (rc)
        fl_error_set(err, rc, "%s: %s", name, why.message);
    return rc;
}

int fl_io_read_file(const char *path, FlTopology **out, FlError *err)
{
    return fl_io_read_file_as(path, FL_FORMAT_UNKNOWN, out, err);
}

int fl_io_write_stream(const FlTopology *t, FlFileFormat format, FILE *fp, FlError *err)
{
    switch (format) {
    case FL_FORMAT_JSON: return fl_io_write_json(t, fp, err);
    case FL_FORMAT_DOT: return fl_io_write_dot(t, fp, err);
    case FL_FORMAT_ANYNET: return fl_io_write_anynet(t, fp, err);
    case FL_FORMAT_UNKNOWN: break;
    }
    return fl_error_set(err, FL_EINVAL, "unknown file format %d", (int)format);
}

char *fl_io_write_string(const FlTopology *t, FlFileFormat format, FlError *err)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *fp = open_memstream(&buf, &size);
    if (!fp) {
        fl_error_set(err, FL_ENOMEM, "out of memory");
        return NULL;
    }
    int rc = fl_io_write_stream(t, format, fp, err);
    if (fclose(fp) != 0 && !rc)
        rc = fl_error_set(err, FL_ENOMEM, "out of memory");
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Devices and pipes ("-o /dev/stdout") cannot be replaced by a rename. */
static int write_direct(const FlTopology *t, FlFileFormat format, const char *path,
                        FlError *err)
{
    int to_stdout = strcmp(path, "-") == 0;
    FILE *fp = to_stdout ? stdout : fopen(path, "w");
    if (!fp)
        return errno_error(err, FL_EIO, OP_WRITE, path, errno);
    int rc = fl_io_write_stream(t, format, fp, err);
    int failed = to_stdout ? fflush(fp) != 0 : fclose(fp) != 0;
    if (failed && !rc)
        rc = errno_error(err, FL_EIO, OP_WRITE, to_stdout ? fl_gettext("standard output") : path,
                         errno);
    return rc;
}

int fl_io_write_file(const FlTopology *t, FlFileFormat format, const char *path,
                     FlError *err)
{
    if (!t || !path)
        return fl_error_set(err, FL_EINVAL, "no topology or no file name");
    if (format == FL_FORMAT_UNKNOWN)
        format = format_from_extension(path);
    if (format != FL_FORMAT_JSON && format != FL_FORMAT_DOT && format != FL_FORMAT_ANYNET)
        return fl_error_set(err, FL_EINVAL,
                            "cannot tell which format to write %s in (json, dot or anynet)",
                            path);
    struct stat st;
    if (strcmp(path, "-") == 0
        || (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
        return write_direct(t, format, path, err);

    FlAtomicFile *f;
    FILE *fp;
    int rc = fl_atomic_open(path, &f, &fp, err);
    if (rc)
        return rc;
    if ((rc = fl_io_write_stream(t, format, fp, err))) {
        fl_atomic_abort(f);
        return rc;
    }
    return fl_atomic_commit(f, err);
}
