/* flitlab/generators.h — Generators: topology specs and the family registry.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_GENERATORS_H
#define FLITLAB_GENERATORS_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Specs are short strings: FAMILY:SIZE[,key=value]...
 *   mesh:8x8  torus:4x4x4  hypercube:6  ring:16  line:8
 *   xmesh:36x72  dmesh:35x71
 *   irregular:64,ports=4,hosts=4,seed=7
 *   myrinet-line:8  myrinet-mesh:4x8
 * Keys accepted by every family: hosts=H (hosts per switch; the regular
 * families default to 1). irregular also takes ports=P and seed=X.
 */

typedef struct FlFamilyInfo {
    const char *name;        /* "mesh" */
    const char *syntax;      /* "mesh:AxB[xC][,hosts=H]" */
    const char *summary;     /* one line for menus and --help */
} FlFamilyInfo;

/* The generator registry, in menu order. */
int fl_family_count(void);
const FlFamilyInfo *fl_family_info(int index);
const FlFamilyInfo *fl_family_lookup(const char *name);

/* Parses spec without building anything: cheap, for validating as the user
 * types. */
int fl_spec_validate(const char *spec, FlError *err);

/* Builds the network a spec describes, with coordinates and a drawing
 * layout, in *out. Generation is deterministic: the same spec (with its
 * seed) gives the same network. */
int fl_topology_from_spec(const char *spec, FlTopology **out, FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_GENERATORS_H */
