/* atomic-file.c — topology files on disk: choosing the reader or writer
 * for a format, reading a whole file, and writing one through the output
 * module (output-file.c), which replaces a regular file atomically and
 * writes FIFOs, devices and standard output through.
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
    FlOutput *f;
    FILE *fp;
    int rc = fl_output_open(path, &f, &fp, err);
    if (rc)
        return rc;
    if ((rc = fl_io_write_stream(t, format, fp, err))) {
        fl_output_abort(f);
        return rc;
    }
    return fl_output_commit(f, err);
}
