/* fuzz-anynet.c — the BookSim 2 anynet reader (src/io/anynet.c).
 *
 * A read fails with a message and no topology, or gives one whose anynet
 * file reads back to the same file. `tools/flitlab-dev fuzz anynet` runs
 * it. */
#include "flitlab-io.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_check_topology_reader(data, size, fl_io_read_anynet_string, FL_FORMAT_ANYNET);
    return 0;
}
