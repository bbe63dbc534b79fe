/* fuzz-trace.c — the traffic trace reader (src/io/trace.c).
 *
 * The reader takes a path: the input is written to a scratch file. A read
 * fails with a message naming the file and leaves the events alone, or
 * gives events that obey the format (cycles in order from 0, hosts from
 * 0, at least 1 flit), which written back one per line read back the
 * same. `tools/flitlab-dev fuzz trace` runs it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-io.h"
#include "fuzz-common.h"

/* The events as a trace file: "cycle source destination flits" lines. */
static char *format_events(const FlTraceEvent *ev, int64_t n, size_t *len)
{
    char *text = NULL;
    FILE *fp = open_memstream(&text, len);
    FUZZ_CHECK(fp != NULL);
    fputs("# written back by fuzz-trace\n", fp);
    for (int64_t i = 0; i < n; i++)
        fprintf(fp, "%" PRId64 " %d %d %d\n", ev[i].cycle, ev[i].src, ev[i].dst, ev[i].flits);
    FUZZ_CHECK(fclose(fp) == 0);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write_file("input.trace", data, size);
    FlTraceEvent *ev = NULL;
    int64_t n = -1;
    FlError err = { 0 };
    int rc = fl_io_read_trace(path, &ev, &n, &err);
    if (rc != FL_OK) {
        fuzz_check_refusal(rc, &err);
        FUZZ_CHECK(ev == NULL && n == -1);
        FUZZ_CHECK(strstr(err.message, path) != NULL);
        return 0;
    }
    FUZZ_CHECK(n >= 0);
    FUZZ_CHECK(n == 0 || ev != NULL);
    for (int64_t i = 0; i < n; i++) {
        FUZZ_CHECK(ev[i].cycle >= 0 && ev[i].src >= 0 && ev[i].dst >= 0 && ev[i].flits >= 1);
        FUZZ_CHECK(i == 0 || ev[i].cycle >= ev[i - 1].cycle);
    }
    size_t len = 0;
    char *text = format_events(ev, n, &len);
    path = fuzz_write_file("again.trace", (const uint8_t *)text, len);
    FlTraceEvent *again = NULL;
    int64_t m = -1;
    FUZZ_CHECK(fl_io_read_trace(path, &again, &m, &err) == FL_OK);
    FUZZ_CHECK(m == n);
    for (int64_t i = 0; i < n; i++)
        FUZZ_CHECK(ev[i].cycle == again[i].cycle && ev[i].src == again[i].src
                   && ev[i].dst == again[i].dst && ev[i].flits == again[i].flits);
    free(text);
    free(again);
    free(ev);
    return 0;
}
