/* fuzz-spec.c — the topology spec parser (src/engine/topology/spec.c) and
 * the generators behind it.
 *
 * The input is a spec ("mesh:8x8", "irregular:64,ports=4,seed=7"). The
 * parser refuses it with a message, or gives a canonical spec that parses
 * to itself with the same counts; fl_spec_validate() agrees with it. A spec
 * small enough to build quickly is built: the network has the counts the
 * parser announced, carries the canonical spec and passes
 * fl_topology_validate(). `tools/flitlab-dev fuzz spec` runs it. */
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "generators.h"

/* Larger specs are only parsed: building them is the generators' speed,
 * not the parser's robustness. */
#define BUILD_MAX_SWITCHES 512
#define BUILD_MAX_PORTS 8192

static void check_build(const char *text, const FlSpec *spec)
{
    FlTopology *t = NULL;
    FlError err = { 0 };
    int rc = fl_topology_from_spec(text, &t, &err);
    if (rc != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    FUZZ_CHECK((uint64_t)fl_topology_switch_count(t) == spec->switches);
    FUZZ_CHECK((uint64_t)fl_topology_host_count(t) == spec->hosts_total);
    FUZZ_CHECK(fl_topology_spec(t) && strcmp(fl_topology_spec(t), spec->canonical) == 0);
    if (fl_topology_validate(t, &err) != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    fl_topology_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    FlSpec spec, again;
    FlError err = { 0 }, err2 = { 0 };
    int rc = fl__spec_parse(text, &spec, &err);
    FUZZ_CHECK(fl_spec_validate(text, &err2) == rc);
    if (rc != FL_OK) {
        fuzz_check_refusal(rc, &err);
        FUZZ_CHECK(strcmp(err.message, err2.message) == 0);
        free(text);
        return 0;
    }
    FUZZ_CHECK(spec.canonical[0] != '\0');
    FUZZ_CHECK(memchr(spec.canonical, '\0', sizeof spec.canonical) != NULL);
    FUZZ_CHECK(fl__spec_parse(spec.canonical, &again, &err) == FL_OK);
    FUZZ_CHECK(strcmp(again.canonical, spec.canonical) == 0);
    FUZZ_CHECK(again.family == spec.family && again.switches == spec.switches
               && again.hosts_total == spec.hosts_total
               && again.switch_ports == spec.switch_ports);
    FUZZ_CHECK(spec.switches >= 1 && spec.switches <= FL_SPEC_MAX_SWITCHES);
    uint64_t ports = spec.switches * (uint64_t)spec.switch_ports;
    if (spec.switches <= BUILD_MAX_SWITCHES && ports <= BUILD_MAX_PORTS)
        check_build(text, &spec);
    free(text);
    return 0;
}
