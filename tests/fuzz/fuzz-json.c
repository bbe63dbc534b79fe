/* fuzz-json.c — the Flitlab JSON topology reader (src/io/json.c).
 *
 * A read fails with a message and no topology, or gives one whose JSON
 * reads back to the same JSON. `tools/flitlab-dev fuzz json` runs it. */
#include "flitlab-io.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_check_topology_reader(data, size, fl_io_read_json_string, FL_FORMAT_JSON);
    return 0;
}
