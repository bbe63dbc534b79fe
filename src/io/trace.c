/* trace.c — traffic trace files: one packet per line.
 *
 *   # cycle source destination flits
 *   0 3 12 8
 *   0 5 1 1      # several packets may share a cycle
 *   17 12 3 16
 *
 * Four whole decimal numbers per line, separated by spaces or tabs: the
 * cycle the packet is made (from 0), the source and destination host ranks
 * and the length in flits (from 1). '#' starts a comment that runs to the
 * end of the line; blank lines are skipped; a carriage return counts as a
 * space, so files edited on other systems read the same. Cycles must not
 * decrease from one line to the next, because the simulator replays the
 * file in order. The reader cannot know the network, so host ranks are only
 * checked to be non-negative here; fl_traffic_new() checks them against the
 * network and names the event.
 *
 * Lines are read one at a time into a buffer of FL_IO_MAX_TRACE_LINE bytes,
 * so a trace is never held twice in memory and a line too long is refused
 * when its limit is reached, not after it was read (a device such as
 * /dev/zero ends at its first line). A file holds at most
 * FL_IO_MAX_TRACE_EVENTS packets and FL_IO_MAX_FILE_BYTES bytes; running out
 * of memory is an error that names the line, never a shorter trace.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-io.h"

/* The event array grows by doubling from this many events. */
#define FIRST_CAPACITY 1024

typedef struct Events {
    FlTraceEvent *v;
    int64_t n, cap;
} Events;

static int push_event(Events *ev, const FlTraceEvent *e)
{
    if (ev->n == ev->cap) {
        int64_t ncap = ev->cap ? 2 * ev->cap : FIRST_CAPACITY;
        FlTraceEvent *nv = realloc(ev->v, sizeof *nv * (size_t)ncap);
        if (!nv)
            return FL_ENOMEM;
        ev->v = nv;
        ev->cap = ncap;
    }
    ev->v[ev->n++] = *e;
    return FL_OK;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* The names of the four fields, for messages ("the %s is missing"). */
static const char *const field_names[4] = { "cycle", "source", "destination",
                                            "number of flits" };

/* Reads the next field of the line at *p (up to end) as a whole number no
 * greater than max into *value; *found is 0 at the end of the line or at a
 * comment. */
static int next_number(const char **p, const char *end, int field, int64_t max,
                       int64_t *value, int *found, int64_t line, FlError *err)
{
    const char *s = *p;
    while (s < end && is_blank(*s))
        s++;
    *found = 0;
    if (s == end || *s == '#') {
        *p = s;
        return FL_OK;
    }
    const char *start = s;
    int64_t v = 0;
    while (s < end && *s >= '0' && *s <= '9') {
        int digit = *s - '0';
        if (v > (max - digit) / 10)
            return fl_error_set(err, FL_ERANGE, "line %lld: the %s is larger than %lld",
                                (long long)line, field_names[field], (long long)max);
        v = 10 * v + digit;
        s++;
    }
    if (s == start || (s < end && !is_blank(*s) && *s != '#')) {
        while (s < end && !is_blank(*s) && *s != '#')
            s++;
        int len = s - start < 24 ? (int)(s - start) : 24;
        for (int k = 0; k < len; k++)
            if ((unsigned char)start[k] < 0x20 || (unsigned char)start[k] >= 0x7f)
                return fl_error_set(err, FL_EPARSE, "line %lld: the %s is not a whole "
                                    "number from 0", (long long)line, field_names[field]);
        return fl_error_set(err, FL_EPARSE, "line %lld: the %s '%.*s' is not a whole number "
                            "from 0", (long long)line, field_names[field], len, start);
    }
    *p = s;
    *value = v;
    *found = 1;
    return FL_OK;
}

/* Parses one line (len bytes, no newline) into *e; *is_event is 0 for a
 * blank or comment line. */
static int parse_line(const char *text, size_t len, int64_t line, FlTraceEvent *e,
                      int *is_event, FlError *err)
{
    const char *p = text, *end = text + len;
    int64_t v[4];
    int got = 0, found = 1;
    *is_event = 0;
    while (got < 4) {
        int64_t max = got == 0 ? INT64_MAX : INT32_MAX;
        int rc = next_number(&p, end, got, max, &v[got], &found, line, err);
        if (rc)
            return rc;
        if (!found)
            break;
        got++;
    }
    if (got == 0)
        return FL_OK;
    while (p < end && is_blank(*p))
        p++;
    if (got < 4)
        return fl_error_set(err, FL_EPARSE, "line %lld: the %s is missing (a line is: cycle "
                            "source destination flits)", (long long)line, field_names[got]);
    if (p < end && *p != '#')
        return fl_error_set(err, FL_EPARSE, "line %lld: more than 4 numbers (a line is: cycle "
                            "source destination flits)", (long long)line);
    if (v[3] < 1)
        return fl_error_set(err, FL_ERANGE, "line %lld: a packet needs at least 1 flit",
                            (long long)line);
    if (v[3] > FL_MAX_PACKET_FLITS)
        return fl_error_set(err, FL_ERANGE, "line %lld: a packet has at most %d flits",
                            (long long)line, FL_MAX_PACKET_FLITS);
    e->cycle = v[0];
    e->src = (int)v[1];
    e->dst = (int)v[2];
    e->flits = (int)v[3];
    e->line = (int)line;
    *is_event = 1;
    return FL_OK;
}

/* Reads the next line of fp, without its newline, into buf (FL_IO_MAX_TRACE_LINE
 * bytes). Returns its length, -1 at the end of the file, or -2 as soon as the
 * line is longer than buf: the rest of it is never read, so a file with no
 * newline (a device, a binary file) costs no more than one buffer. */
static long read_line(FILE *fp, char *buf)
{
    long n = 0;
    int c;
    while ((c = getc_unlocked(fp)) != EOF && c != '\n') {
        if (n == FL_IO_MAX_TRACE_LINE)
            return -2;
        buf[n++] = (char)c;
    }
    return c == EOF && n == 0 ? -1 : n;
}

/* Reads every event of fp; messages carry the line but not the file name.
 * *line is the line reached, for the caller's out-of-memory message. */
static int read_events(FILE *fp, Events *ev, int64_t *line, FlError *err)
{
    char *buf = malloc(FL_IO_MAX_TRACE_LINE);
    if (!buf)
        return FL_ENOMEM;
    int64_t last_line = 0;
    size_t total = 0;
    int rc = FL_OK;
    long len;
    errno = 0;
    while ((len = read_line(fp, buf)) != -1) {
        ++*line;
        if (len == -2) {
            rc = fl_error_set(err, FL_EPARSE, "line %lld: the line is longer than %d bytes "
                              "(a line is: cycle source destination flits)", (long long)*line,
                              FL_IO_MAX_TRACE_LINE);
            break;
        }
        total += (size_t)len + 1;
        if (total > FL_IO_MAX_FILE_BYTES) {
            rc = fl_error_set(err, FL_ERANGE, "line %lld: the file is larger than %zu bytes",
                              (long long)*line, (size_t)FL_IO_MAX_FILE_BYTES);
            break;
        }
        FlTraceEvent e;
        int is_event;
        if ((rc = parse_line(buf, (size_t)len, *line, &e, &is_event, err)))
            break;
        /* A NUL in a comment would pass the field parser: a text file has none. */
        if (memchr(buf, '\0', (size_t)len)) {
            rc = fl_error_set(err, FL_EPARSE, "line %lld: a NUL byte (a trace is a text file)",
                              (long long)*line);
            break;
        }
        if (!is_event)
            continue;
        if (ev->n > 0 && e.cycle < ev->v[ev->n - 1].cycle) {
            rc = fl_error_set(err, FL_EPARSE, "line %lld: cycle %lld comes after cycle %lld "
                              "on line %lld; events must be in cycle order", (long long)*line,
                              (long long)e.cycle, (long long)ev->v[ev->n - 1].cycle,
                              (long long)last_line);
            break;
        }
        if (ev->n == FL_IO_MAX_TRACE_EVENTS) {
            rc = fl_error_set(err, FL_ERANGE, "line %lld: more than %d packets (the most a "
                              "trace may hold)", (long long)*line, FL_IO_MAX_TRACE_EVENTS);
            break;
        }
        if ((rc = push_event(ev, &e)))
            break;
        last_line = *line;
    }
    if (!rc && ferror(fp))
        rc = fl_error_set(err, FL_EIO, "read error after line %lld: %s", (long long)*line,
                          strerror(errno ? errno : EIO));
    free(buf);
    return rc;
}

const char *fl_io_trace_name(const char *path)
{
    return path && strcmp(path, "-") == 0 ? "standard input" : path;
}

int fl_io_read_trace(const char *path, FlTraceEvent **events, int64_t *n, FlError *err)
{
    if (!path || !events || !n)
        return fl_error_set(err, FL_EINVAL, "no trace file to read");
    int from_stdin = strcmp(path, "-") == 0;
    const char *name = fl_io_trace_name(path);
    FILE *fp = from_stdin ? stdin : fopen(path, "r");
    if (!fp)
        return fl_error_set(err, FL_EIO, "cannot open %s: %s", path, strerror(errno));
    Events ev = { 0 };
    FlError why = { 0 };
    int64_t line = 0;
    int rc = read_events(fp, &ev, &line, &why);
    if (!from_stdin)
        fclose(fp);
    if (rc) {
        free(ev.v);
        if (rc == FL_ENOMEM)
            return fl_error_set(err, rc, "out of memory reading %s at line %lld", name,
                                (long long)(line ? line : 1));
        return fl_error_set(err, rc, "%s: %s", name, why.message);
    }
    *events = ev.v;
    *n = ev.n;
    return FL_OK;
}
