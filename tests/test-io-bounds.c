/* test-io-bounds.c — the readers under hostile input: every line, count and
 * value is bounded while it is read, running out of memory is an error that
 * says so, and no refusal has an empty reason.
 *
 * Traces: a line over FL_IO_MAX_TRACE_LINE bytes, a NUL byte, /dev/zero,
 * pipes, a child process whose address space runs out. Flitlab JSON: counts
 * over the limits of a network refused while the text is walked, without
 * building anything; values over 1 MiB; every prefix of a valid file; keys
 * in any order. anynet: the ids stop at the limits of a network.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "flitlab-io.h"
#include "generators.h"
#include "tap.h"

/* The readers take the generators' limits: every generated network reads
 * back, and nothing bigger is built. */
_Static_assert(FL_IO_MAX_SWITCHES == FL_SPEC_MAX_SWITCHES, "switch limit of a network");
_Static_assert(FL_IO_MAX_PORTS == FL_SPEC_MAX_PORTS, "port limit of a network");

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(text, 1, len, fp) != len || fclose(fp) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

static char tmpdir[] = "/tmp/flitlab-bounds-XXXXXX";

static const char *tmp_path(const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

/* --- traces --------------------------------------------------------------- */

static int read_trace_text(const char *text, size_t len, FlTraceEvent **ev, int64_t *n,
                           FlError *err)
{
    const char *path = tmp_path("trace.txt");
    write_file(path, text, len);
    *ev = NULL;
    return fl_io_read_trace(path, ev, n, err);
}

static void test_trace_lines(void)
{
    FlTraceEvent *ev;
    int64_t n = 0;
    FlError err = { 0 };

    /* A line exactly at the limit reads; one byte more is refused with its
     * line number, whatever follows it. */
    size_t cap = 3 * FL_IO_MAX_TRACE_LINE;
    char *text = malloc(cap);
    int len = snprintf(text, cap, "0 1 2 3\n1 2 3 4 #");
    memset(text + len, 'c', (size_t)FL_IO_MAX_TRACE_LINE - 9);
    len += FL_IO_MAX_TRACE_LINE - 9;
    len += snprintf(text + len, cap - (size_t)len, "\n2 0 1 1\n");
    int rc = read_trace_text(text, (size_t)len, &ev, &n, &err);
    CHECK(rc == FL_OK && n == 3 && ev[2].cycle == 2,
          "a line of exactly %d bytes reads: %s", FL_IO_MAX_TRACE_LINE, rc ? err.message : "ok");
    free(ev);
    len = snprintf(text, cap, "0 1 2 3\n1 2 3 4\n5 ");
    memset(text + len, 'x', (size_t)FL_IO_MAX_TRACE_LINE);
    len += FL_IO_MAX_TRACE_LINE;
    rc = read_trace_text(text, (size_t)len, &ev, &n, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "trace.txt: line 3: the line is longer than "
                                    "4096 bytes"),
          "a line of 4098 bytes is refused with its number: %s", err.message);
    free(text);

    /* A NUL byte in a comment, where the field parser does not look. */
    static const char nul[] = "0 1 2 3\n1 2 3 4 # a\0b\n";
    rc = read_trace_text(nul, sizeof nul - 1, &ev, &n, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "line 2: a NUL byte"),
          "a NUL byte in a comment is refused: %s", err.message);

    /* /dev/zero ends at its first line, at once. */
    double t0 = now();
    ev = NULL;
    rc = fl_io_read_trace("/dev/zero", &ev, &n, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "/dev/zero: line 1: the line is longer than")
              && now() - t0 < 5,
          "/dev/zero is refused at line 1 in %.3f s: %s", now() - t0, err.message);

    /* Too many packets: a limit, not a shortened trace. */
    CHECK(FL_IO_MAX_TRACE_EVENTS == 1 << 24, "a trace holds at most 2^24 packets");
}

/* Feeds text to a child's pipe and reads the trace from it as standard
 * input: a pipe reads as a file does. */
static int read_trace_pipe(const char *text, size_t len, FlTraceEvent **ev, int64_t *n,
                           FlError *err)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        /* Slow, small writes, as a producer in a shell pipeline does. */
        for (size_t done = 0; done < len;) {
            size_t chunk = len - done < 1000 ? len - done : 1000;
            ssize_t w = write(fds[1], text + done, chunk);
            if (w <= 0)
                _exit(0); /* the reader stopped early */
            done += (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    int saved = dup(0);
    dup2(fds[0], 0);
    close(fds[0]);
    clearerr(stdin);
    *ev = NULL;
    int rc = fl_io_read_trace("-", ev, n, err);
    dup2(saved, 0);
    close(saved);
    clearerr(stdin);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return rc;
}

static void test_trace_pipe(void)
{
    FlTraceEvent *ev;
    int64_t n = 0;
    FlError err = { 0 };
    size_t cap = 200000;
    char *text = malloc(cap);
    size_t len = 0;
    for (int i = 0; i < 5000; i++)
        len += (size_t)snprintf(text + len, cap - len, "%d %d %d 1\n", i, i % 7, (i + 1) % 7);
    int rc = read_trace_pipe(text, len, &ev, &n, &err);
    CHECK(rc == FL_OK && n == 5000 && ev[4999].cycle == 4999,
          "5000 packets read from a pipe: %s", rc ? err.message : "ok");
    free(ev);

    memset(text + len, 'y', 20000);
    rc = read_trace_pipe(text, len + 20000, &ev, &n, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "standard input: line 5001: the line is longer"),
          "a long line from a pipe is refused with its number: %s", err.message);

    static const char zeros[8192];
    rc = read_trace_pipe(zeros, sizeof zeros, &ev, &n, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "standard input: line 1"),
          "NUL bytes from a pipe are refused at line 1: %s", err.message);
    free(text);
}

#ifndef UNDER_ASAN
/* The kilobytes of address space this process maps now. */
static long vm_size_kb(void)
{
    FILE *fp = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (fp && fgets(line, sizeof line, fp))
        if (sscanf(line, "VmSize: %ld", &kb) == 1)
            break;
    if (fp)
        fclose(fp);
    return kb;
}
#endif

/* A child with little address space left reads a trace that needs more:
 * the reader says it ran out of memory, and where, instead of returning the
 * packets it had room for. */
static void test_trace_out_of_memory(void)
{
#ifdef UNDER_ASAN
    CHECK(1, "out of memory: skipped under AddressSanitizer (it maps terabytes)");
#else
    char path[128], report[128];
    snprintf(path, sizeof path, "%s", tmp_path("big-trace.txt"));
    snprintf(report, sizeof report, "%s", tmp_path("oom-report.txt"));
    FILE *fp = fopen(path, "w");
    for (int i = 0; i < 2000000; i++)
        fprintf(fp, "%d 0 1 1\n", i);
    fclose(fp);
    pid_t pid = fork();
    if (pid == 0) {
        long kb = vm_size_kb();
        struct rlimit rl = { (rlim_t)(kb + 24 * 1024) * 1024, (rlim_t)(kb + 24 * 1024) * 1024 };
        if (kb < 0 || setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
        FlTraceEvent *ev = NULL;
        int64_t n = 0;
        FlError err = { 0 };
        int rc = fl_io_read_trace(path, &ev, &n, &err);
        FILE *out = fopen(report, "w");
        if (out) {
            fprintf(out, "%d %s", rc, rc ? err.message : "read whole");
            fclose(out);
        }
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char got[600] = "";
    FILE *in = fopen(report, "r");
    if (in) {
        if (!fgets(got, sizeof got, in))
            got[0] = '\0';
        fclose(in);
    }
    char want[300];
    snprintf(want, sizeof want, "%d out of memory reading %s at line ", FL_ENOMEM, path);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 && strncmp(got, want, strlen(want)) == 0
              && atol(got + strlen(want)) > 1000,
          "a trace larger than the memory left: '%s'", got);
#endif
}

/* --- Flitlab JSON --------------------------------------------------------- */

#define HEAD "{\"format\": \"flitlab-topology\", \"version\": 1, "

/* A growing text buffer. */
typedef struct Buf {
    char *s;
    size_t len, cap;
} Buf;

static void put(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            exit(1);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void put_str(Buf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void puts_n(Buf *b, const char *s, size_t times)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < times; i++)
        put(b, s, n);
}

static int read_json(const Buf *b, FlError *err)
{
    FlTopology *t = NULL;
    int rc = fl_io_read_json_string(b->s, b->len, &t, err);
    fl_topology_free(t);
    return rc;
}

/* Reads text in a child whose address space may grow by extra_mb only; the
 * result and message come back in out ("rc message"). Without the limit
 * (under AddressSanitizer), the child reads unbounded. */
static void read_json_bounded(const Buf *b, long extra_mb, char *out, size_t size)
{
    int fds[2];
    out[0] = '\0';
    if (pipe(fds) != 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
#ifndef UNDER_ASAN
        long kb = vm_size_kb();
        rlim_t limit = (rlim_t)(kb + extra_mb * 1024) * 1024;
        struct rlimit rl = { limit, limit };
        if (kb < 0 || setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
#endif
        FlTopology *t = NULL;
        FlError err = { 0 };
        int rc = fl_io_read_json_string(b->s, b->len, &t, &err);
        char msg[600];
        int n = snprintf(msg, sizeof msg, "%d %s", rc, rc ? err.message : "read");
        if (write(fds[1], msg, (size_t)n) != n)
            _exit(4);
        _exit(0);
    }
    close(fds[1]);
    ssize_t got = 0, r;
    while ((size_t)got + 1 < size && (r = read(fds[0], out + got, size - 1 - (size_t)got)) > 0)
        got += r;
    out[got] = '\0';
    close(fds[0]);
    waitpid(pid, NULL, 0);
}

static void test_json_counts(void)
{
    Buf b = { 0 };
    FlError err = { 0 };

    /* 2^24 + 1 links: counted while the text is walked, nothing parsed; a
     * whole jansson tree of them would take 20 times the text's 32 MiB. */
    put_str(&b, HEAD "\"nodes\": [], \"links\": [");
    puts_n(&b, "0,", (size_t)FL_IO_MAX_LINKS);
    put_str(&b, "0]}");
    char got[700];
    double t0 = now();
    read_json_bounded(&b, 16, got, sizeof got);
    CHECK(strstr(got, "links: the file has more than 16777216 links") && strstr(got, "33554432 "
                                                                             "ports")
              && atoi(got) == FL_ERANGE,
          "2^24 + 1 links are refused within 16 MiB more address space in %.2f s: %s",
          now() - t0, got);

    /* More links than the nodes have ports for, before any link is read:
     * the links here are not even valid. */
    b.len = 0;
    put_str(&b, HEAD "\"nodes\": [{\"kind\": \"switch\", \"ports\": 3}, {\"kind\": \"host\"}], "
        "\"links\": [1, 2, 3]}");
    int rc = read_json(&b, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "links: the file has 3 links, but its 2 nodes "
                                    "have 4 ports in all, and a link takes two"),
          "more links than ports: %s", err.message);

    /* 2^25 ports in all: 131072 switches of 256 ports, then one more port. */
    b.len = 0;
    put_str(&b, HEAD "\"links\": [], \"nodes\": [");
    puts_n(&b, "{\"kind\": \"switch\", \"ports\": 256},", (size_t)FL_IO_MAX_PORTS / 256);
    put_str(&b, "{\"kind\": \"host\"}]}");
    rc = read_json(&b, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "nodes[131072]: more than 33554432 ports in all"),
          "a port past 2^25 is refused: %s", err.message);

    /* 2^20 + 1 switches. */
    b.len = 0;
    put_str(&b, HEAD "\"links\": [], \"nodes\": [");
    puts_n(&b, "{\"kind\":\"switch\",\"ports\":1},", (size_t)FL_IO_MAX_SWITCHES);
    put_str(&b, "{\"kind\":\"switch\",\"ports\":1}]}");
    rc = read_json(&b, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "nodes[1048576]: more than 1048576 switches"),
          "2^20 + 1 switches are refused: %s", err.message);

    /* One value larger than jansson is ever given. */
    b.len = 0;
    put_str(&b, HEAD "\"nodes\": [], \"links\": [], \"name\": \"");
    puts_n(&b, "n", (size_t)2 << 20);
    put_str(&b, "\"}");
    rc = read_json(&b, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "name: the value is longer than 1048576 bytes"),
          "a 2 MiB name is refused: %s", err.message);
    b.len = 0;
    put_str(&b, HEAD "\"links\": [], \"nodes\": [{\"kind\": \"host\"}, [");
    puts_n(&b, "0,", (size_t)1 << 20);
    put_str(&b, "0]]}");
    rc = read_json(&b, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "nodes[1]: longer than 1048576 bytes"),
          "a 2 MiB node is refused: %s", err.message);
    free(b.s);
}

/* The "line L, column C" jansson gives for the whole text, or "". */
static void jansson_place(const char *text, size_t len, char *out, size_t size)
{
    json_error_t jerr;
    json_t *v = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    out[0] = '\0';
    if (!v)
        snprintf(out, size, "line %d, column %d:", jerr.line, jerr.column);
    json_decref(v);
}

/* Every prefix of a valid file is refused with a reason, never an empty
 * one, and a syntax error is placed where jansson places it in the whole
 * text. */
static void test_json_prefixes(void)
{
    FlTopology *t = NULL;
    FlError err = { 0 };
    if (fl_topology_from_spec("mesh:2x2,hosts=1", &t, &err)) {
        CHECK(0, "mesh:2x2,hosts=1: %s", err.message);
        return;
    }
    char *text = fl_io_write_json_string(t, &err);
    fl_topology_free(t);
    size_t len = strlen(text);
    int empty = 0, misplaced = 0, accepted = 0;
    for (size_t cut = 0; cut < len; cut++) {
        FlTopology *u = NULL;
        int rc = fl_io_read_json_string(text, cut, &u, &err);
        char place[64];
        jansson_place(text, cut, place, sizeof place);
        /* Only the trailing newline may go. */
        if (rc == FL_OK && cut + 1 < len)
            accepted++;
        else if (rc != FL_OK && (!err.message[0] || strstr(err.message, "line -1")))
            empty++;
        else if (rc != FL_OK && place[0] && strncmp(err.message, place, strlen(place)) != 0) {
            if (!misplaced)
                fprintf(stderr, "cut at %zu: '%s', jansson '%s'\n", cut, err.message, place);
            misplaced++;
        }
        fl_topology_free(u);
    }
    CHECK(accepted == 0 && empty == 0 && misplaced == 0,
          "%zu prefixes: %d accepted, %d with an empty reason, %d placed elsewhere than jansson "
          "places them", len, accepted, empty, misplaced);
    free(text);
}

/* Fields in any order read as in the writer's order: the reader walks the
 * text first and builds after. */
static void test_json_field_order(void)
{
    static const char normal[] =
        HEAD "\"name\": \"n\", \"coord_dims\": 1, \"next_label\": 9, "
        "\"nodes\": [{\"kind\": \"switch\", \"ports\": 2, \"coords\": [4], \"label\": 7},\n"
        "{\"kind\": \"switch\", \"ports\": 2, \"coords\": [5]}, {\"kind\": \"host\"}],\n"
        "\"links\": [[0, 0, 1, 0], [2, 0, 0, 1]]}";
    static const char shuffled[] =
        "{\"links\": [[0, 0, 1, 0], [2, 0, 0, 1]], \"next_label\": 9,\n"
        "\"nodes\": [{\"label\": 7, \"coords\": [4], \"ports\": 2, \"kind\": \"switch\"},\n"
        "{\"kind\": \"switch\", \"ports\": 2, \"coords\": [5]}, {\"kind\": \"host\"}],\n"
        "\"coord_dims\": 1, \"version\": 1, \"name\": \"n\", \"format\": \"flitlab-topology\"}";
    FlTopology *a = NULL, *b = NULL;
    FlError err = { 0 };
    int ra = fl_io_read_json_string(normal, strlen(normal), &a, &err);
    int rb = fl_io_read_json_string(shuffled, strlen(shuffled), &b, &err);
    char *ta = ra ? NULL : fl_io_write_json_string(a, NULL);
    char *tb = rb ? NULL : fl_io_write_json_string(b, NULL);
    CHECK(ta && tb && strcmp(ta, tb) == 0 && fl_topology_node_label(b, 0) == 7
              && fl_topology_next_label(b) == 9 && fl_topology_link_count(b) == 2,
          "fields in any order read the same: %s", ra || rb ? err.message : "ok");
    free(ta);
    free(tb);
    fl_topology_free(a);
    fl_topology_free(b);

    /* Errors in an element carry the line and column of the whole file. */
    static const char bad[] = HEAD "\n\"nodes\": [\n  {\"kind\": \"switch\", \"ports\": 01}],\n"
                              "\"links\": []}";
    char place[64];
    jansson_place(bad, strlen(bad), place, sizeof place);
    int rc = fl_io_read_json_string(bad, strlen(bad), &a, &err);
    CHECK(rc == FL_EPARSE && strncmp(err.message, place, strlen(place)) == 0
              && strstr(err.message, "line 3, column"),
          "a syntax error in nodes[0] is placed as jansson places it (%s): %s", place,
          err.message);

    /* Empty and blank texts. */
    rc = fl_io_read_json_string("", 0, &a, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "line 1, column 0: '[' or '{' expected near "
                                    "end of file"),
          "an empty file: %s", err.message);
    rc = fl_io_read_json_string(" \n\t", 3, &a, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "line 2, column 1: '[' or '{' expected near "
                                    "end of file"),
          "a blank file: %s", err.message);
}

/* A big file of the writer's format reads in memory close to the text and
 * the network, not 20 times the text as a whole jansson tree took. */
static void test_json_memory(void)
{
    FlTopology *t = NULL;
    FlError err = { 0 };
    if (fl_topology_from_spec("mesh:256x256,hosts=1", &t, &err)) {
        CHECK(0, "mesh:256x256: %s", err.message);
        return;
    }
    char *text = fl_io_write_json_string(t, &err);
    fl_topology_free(t);
    Buf b = { text, strlen(text), strlen(text) + 1 };
    char got[700];
    double t0 = now();
    read_json_bounded(&b, 96, got, sizeof got);
    CHECK(strcmp(got, "0 read") == 0, "a %zu MiB file (mesh:256x256) read within 96 MiB more "
          "address space in %.2f s: %s", b.len >> 20, now() - t0, got);
    free(text);
}

/* --- anynet --------------------------------------------------------------- */

static void test_anynet_ids(void)
{
    static const struct {
        const char *text;
        const char *want;
    } cases[] = {
        { "router 0 router 1048576\n", "line 1: router id 1048576 is too large (at most 1048575)" },
        { "router 0 node 33554432\n", "line 1: node id 33554432 is too large (at most 33554431)" },
        { "router 0 node 1048576\n", "line 1: node 1048576 is attached, but node 0 is never "
                                     "defined" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FlTopology *t = NULL;
        FlError err = { 0 };
        int rc = fl_io_read_anynet_string(cases[i].text, strlen(cases[i].text), &t, &err);
        CHECK(rc == FL_EPARSE && strstr(err.message, cases[i].want), "anynet '%.30s': %s",
              cases[i].text, err.message);
        fl_topology_free(t);
    }
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_trace_lines();
    test_trace_pipe();
    test_trace_out_of_memory();
    test_json_memory();
    test_json_counts();
    test_json_prefixes();
    test_json_field_order();
    test_anynet_ids();
    const char *names[] = { "trace.txt", "big-trace.txt", "oom-report.txt" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(tmp_path(names[i]));
    rmdir(tmpdir);
    return tap_done();
}
