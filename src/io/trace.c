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
 * Lines are read one at a time, so a trace is never held twice in memory.
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

/* The names of the four fields, for messages. */
static const char *const field_names[4] = { "cycle", "source", "destination", "flits" };

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
    e->cycle = v[0];
    e->src = (int)v[1];
    e->dst = (int)v[2];
    e->flits = (int)v[3];
    *is_event = 1;
    return FL_OK;
}

/* Reads every event of fp; messages carry the line but not the file name. */
static int read_events(FILE *fp, Events *ev, FlError *err)
{
    char *buf = NULL;
    size_t cap = 0, total = 0;
    int64_t line = 0, last_line = 0;
    int rc = FL_OK;
    ssize_t len;
    errno = 0;
    while ((len = getline(&buf, &cap, fp)) >= 0) {
        line++;
        total += (size_t)len;
        if (total > FL_IO_MAX_FILE_BYTES) {
            rc = fl_error_set(err, FL_ERANGE, "larger than %zu bytes",
                              (size_t)FL_IO_MAX_FILE_BYTES);
            break;
        }
        size_t n = (size_t)len;
        if (n > 0 && buf[n - 1] == '\n')
            n--;
        FlTraceEvent e;
        int is_event;
        if ((rc = parse_line(buf, n, line, &e, &is_event, err)))
            break;
        if (!is_event)
            continue;
        if (ev->n > 0 && e.cycle < ev->v[ev->n - 1].cycle) {
            rc = fl_error_set(err, FL_EPARSE, "line %lld: cycle %lld comes after cycle %lld "
                              "on line %lld; events must be in cycle order", (long long)line,
                              (long long)e.cycle, (long long)ev->v[ev->n - 1].cycle,
                              (long long)last_line);
            break;
        }
        if (push_event(ev, &e) != FL_OK) {
            rc = fl_error_set(err, FL_ENOMEM, "out of memory at line %lld", (long long)line);
            break;
        }
        last_line = line;
    }
    if (!rc && ferror(fp))
        rc = fl_error_set(err, FL_EIO, "read error after line %lld: %s", (long long)line,
                          strerror(errno ? errno : EIO));
    free(buf);
    return rc;
}

int fl_io_read_trace(const char *path, FlTraceEvent **events, int64_t *n, FlError *err)
{
    if (!path || !events || !n)
        return fl_error_set(err, FL_EINVAL, "no trace file to read");
    int from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "standard input" : path;
    FILE *fp = from_stdin ? stdin : fopen(path, "r");
    if (!fp)
        return fl_error_set(err, FL_EIO, "cannot open %s: %s", path, strerror(errno));
    Events ev = { 0 };
    FlError why = { 0 };
    int rc = read_events(fp, &ev, &why);
    if (!from_stdin)
        fclose(fp);
    if (rc) {
        free(ev.v);
        return fl_error_set(err, rc, "%s: %s", name, why.message);
    }
    *events = ev.v;
    *n = ev.n;
    return FL_OK;
}
