/* fuzz-io.c — a libFuzzer target for the topology file readers.
 *
 * Every input is read as Flitlab JSON and as a BookSim anynet file. A read
 * must either fail with a message or give a topology that survives its own
 * round trip (write, read, write gives the same bytes); anything else, and
 * any crash, leak or sanitizer report, is a finding. Build the io sources
 * with clang, against an engine library from any meson build directory:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_POSIX_C_SOURCE=200809L \
 *     -Isrc/engine/include -Isrc/io tests/fuzz-io.c src/io/json.c src/io/anynet.c \
 *     src/io/dot.c src/io/atomic-file.c build/src/engine/libflitlab-engine.a \
 *     $(pkg-config --cflags --libs jansson igraph) -lmetis -lm -lpthread -o fuzz-io
 *   ./fuzz-io -max_len=4096 -rss_limit_mb=1500 tests/data/io
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef int (*ReadFunc)(const char *text, size_t len, FlTopology **out, FlError *err);

static void check_format(const uint8_t *data, size_t size, ReadFunc read, FlFileFormat f)
{
    FlTopology *t = NULL, *u = NULL;
    FlError err = { 0 };
    if (read((const char *)data, size, &t, &err) != FL_OK) {
        if (t || !err.message[0])
            abort();
        return;
    }
    char *a = fl_io_write_string(t, f, NULL);
    if (!a || read(a, strlen(a), &u, NULL) != FL_OK)
        abort();
    char *b = fl_io_write_string(u, f, NULL);
    if (!b || strcmp(a, b) != 0)
        abort();
    free(a);
    free(b);
    fl_topology_free(u);
    fl_topology_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_format(data, size, fl_io_read_json_string, FL_FORMAT_JSON);
    check_format(data, size, fl_io_read_anynet_string, FL_FORMAT_ANYNET);
    return 0;
}
