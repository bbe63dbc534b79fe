/* fuzz-common.h — what the fuzz targets of tests/fuzz share.
 *
 * Each target (fuzz-NAME.c) defines LLVMFuzzerTestOneInput() for one reader
 * and links either libFuzzer (clang, `tools/flitlab-dev fuzz`) or
 * replay-main.c (any compiler; the corpus replay of the ordinary tests).
 * A broken invariant is a finding: FUZZ_CHECK prints what broke and aborts,
 * which both drivers report with the input that did it.
 */
#ifndef FLITLAB_FUZZ_COMMON_H
#define FLITLAB_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints "fuzz finding: FILE:LINE: what" on stderr and aborts. */
_Noreturn void fuzz_fail(const char *file, int line, const char *what);

#define FUZZ_CHECK(cond)                                \
    do {                                                \
        if (!(cond))                                    \
            fuzz_fail(__FILE__, __LINE__, #cond);       \
    } while (0)

/* A failed read: a status other than FL_OK, a message that says something,
 * and the reader's own word for "no object" (checked by the caller). */
void fuzz_check_refusal(int rc, const FlError *err);

/* A topology reader of text (fl_io_read_json_string, ...) on the input: it
 * refuses it (fuzz_check_refusal(), no topology), or gives a topology that
 * survives its own round trip in format (write, read, write: the same
 * bytes). */
typedef int (*FuzzTopologyReader)(const char *text, size_t len, FlTopology **out,
                                  FlError *err);
void fuzz_check_topology_reader(const uint8_t *data, size_t size, FuzzTopologyReader read,
                                int format);

/* The input as a malloc'd NUL-terminated string (bytes after an embedded
 * NUL are then invisible to a reader that takes a C string). Aborts when
 * memory runs out: the fuzzer's RSS limit is the real bound. */
char *fuzz_text(const uint8_t *data, size_t size);

/* A scratch directory of this process (created on first use in $TMPDIR,
 * else /dev/shm or /tmp; removed at exit with whatever it holds), for
 * readers that take a path. */
const char *fuzz_scratch_dir(void);

/* Writes data to DIR/name (replacing it) and returns the path (owned here,
 * valid until the next call); aborts when it cannot. */
const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size);

/* Removes every file of the scratch directory. */
void fuzz_clear_scratch(void);

#endif /* FLITLAB_FUZZ_COMMON_H */
