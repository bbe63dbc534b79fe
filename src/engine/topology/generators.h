/* generators.h — the private contract between the spec parser (spec.c), the
 * topology generators (gen-*.c) and the layout helpers (layout.c).
 *
 * A spec string is parsed into an FlSpec, checked by its family's check
 * function, and then built: spec.c adds the switches, the family's build
 * function joins them and sets coordinates and switch positions, and spec.c
 * attaches the hosts and places them.
 *
 * Status codes: FL_ERANGE when a number exceeds a limit of the engine (too
 * many switches or ports, hosts above 64, a hypercube above 20 dimensions, a
 * number that does not fit in 64 bits); FL_ESPEC for everything else
 * (syntax, unknown names, sizes that are zero, too small or of the wrong
 * parity, impossible combinations).
 */
#ifndef FLITLAB_GENERATORS_INTERNAL_H
#define FLITLAB_GENERATORS_INTERNAL_H

#include <stdint.h>

#include "internal.h"

/* Limits on generated networks, so that a typo cannot ask for terabytes.
 * Ports count every port of every node, host ports included; 1 << 25 lets
 * hypercube:20 be built with up to 6 hosts per switch. */
#define FL_SPEC_MAX_SWITCHES (1 << 20)
#define FL_SPEC_MAX_PORTS (1 << 25)
#define FL_SPEC_MAX_HOSTS 64
#define FL_SPEC_CANONICAL_MAX 160

/* The keys a spec may carry; each family accepts a subset. */
enum {
    FL_KEY_PORTS = 1u << 0,
    FL_KEY_HOSTS = 1u << 1,
    FL_KEY_SEED = 1u << 2
};

typedef struct FlFamily FlFamily;

typedef struct FlSpec {
    const FlFamily *family;
    int ndims;
    uint64_t size[FL_MAX_DIMS];  /* the size numbers as written */
    int dims[FL_MAX_DIMS];       /* the same, set once every check passed */
    unsigned given;              /* FL_KEY_* written in the text */
    int hosts;                   /* per switch; -1 = on every free port */
    int ports;                   /* irregular: inter-switch links per switch */
    uint64_t seed;               /* irregular: igraph's seed */

    /* Set by the family's check function. The counts saturate at
     * UINT64_MAX so that absurd sizes are refused, not wrapped. */
    uint64_t switches;
    uint64_t hosts_total;
    int switch_ports;            /* ports of every switch */

    char canonical[FL_SPEC_CANONICAL_MAX];
} FlSpec;

/* Checks the sizes and keys of a parsed spec and fills switches,
 * hosts_total and switch_ports. */
typedef int (*FlSpecCheckFunc)(FlSpec *spec, FlError *err);
/* Joins the switches (already added, in rank order, with switch_ports
 * ports each) and sets their coordinates and positions. Hosts come later. */
typedef int (*FlSpecBuildFunc)(const FlSpec *spec, FlTopology *t, FlError *err);
/* The direction (*dx, *dy) in which the link on a port of switch sw leaves
 * the switch as drawn, for families whose wrap-around links are drawn as
 * short spurs rather than as the straight line to the peer. */
typedef void (*FlPortDirectionFunc)(const FlSpec *spec, const FlTopology *t, int sw,
                                    int port, double *dx, double *dy);

/* One row of the generator registry (spec.c). */
struct FlFamily {
    FlFamilyInfo info;           /* first, so fl_family_info() can point at it */
    const char *size_form;       /* "A, AxB or AxBxC", for error messages */
    int min_dims, max_dims;
    unsigned keys;               /* FL_KEY_* accepted */
    unsigned canonical_keys;     /* FL_KEY_* always written in the canonical spec */
    int default_hosts;           /* -1: hosts on every free port, no hosts= key */
    FlSpecCheckFunc check;
    FlSpecBuildFunc build;
    FlPortDirectionFunc port_direction;  /* NULL: links run straight to the peer */
};

/* --- spec.c: parsing and helpers shared by the check functions ---------- */

/* Parses and checks text; on success spec is complete, canonical included. */
int fl__spec_parse(const char *text, FlSpec *spec, FlError *err);

/* Refuses a zero size, then any size below min with "<why>" as the reason
 * ("a torus needs at least 3 switches per dimension"). */
int fl__spec_check_min(const FlSpec *spec, uint64_t min, const char *why,
                       FlError *err);
/* Writes the sizes as "AxBxC" into buf. */
void fl__spec_format_size(const FlSpec *spec, char *buf, size_t cap);
/* Sets switches to the saturated product of the sizes. */
void fl__spec_set_grid_switches(FlSpec *spec);
/* For families with a fixed number of network ports per switch and
 * spec->hosts hosts on the ports after them. */
void fl__spec_set_regular_ports(FlSpec *spec, int network_ports);
/* a * b, or UINT64_MAX when that overflows. */
uint64_t fl__mul_sat(uint64_t a, uint64_t b);

/* Adds one switch-to-switch link between explicit ports, with an error
 * message that names both ends. */
int fl__spec_link(FlTopology *t, int a, int pa, int b, int pb, FlError *err);

/* --- the families ------------------------------------------------------- */

/* gen-cube.c: k-ary n-cubes, rings, lines and hypercubes. */
int fl__mesh_check(FlSpec *spec, FlError *err);
int fl__mesh_build(const FlSpec *spec, FlTopology *t, FlError *err);
int fl__torus_check(FlSpec *spec, FlError *err);
int fl__torus_build(const FlSpec *spec, FlTopology *t, FlError *err);
int fl__ring_check(FlSpec *spec, FlError *err);
int fl__ring_build(const FlSpec *spec, FlTopology *t, FlError *err);
int fl__line_check(FlSpec *spec, FlError *err);
int fl__hypercube_check(FlSpec *spec, FlError *err);
int fl__hypercube_build(const FlSpec *spec, FlTopology *t, FlError *err);
/* Port directions of a k-ary n-cube drawn by fl__layout_grid(). */
void fl__kary_direction(const FlSpec *spec, const FlTopology *t, int sw, int port,
                        double *dx, double *dy);

/* gen-xmesh.c: the crossed mesh (paper 003) and the diagonal mesh. */
int fl__xmesh_check(FlSpec *spec, FlError *err);
int fl__xmesh_build(const FlSpec *spec, FlTopology *t, FlError *err);
int fl__dmesh_check(FlSpec *spec, FlError *err);
int fl__dmesh_build(const FlSpec *spec, FlTopology *t, FlError *err);
void fl__xmesh_direction(const FlSpec *spec, const FlTopology *t, int sw, int port,
                         double *dx, double *dy);
void fl__dmesh_direction(const FlSpec *spec, const FlTopology *t, int sw, int port,
                         double *dx, double *dy);

/* gen-irregular.c: random regular-degree networks (paper 002). */
int fl__irregular_check(FlSpec *spec, FlError *err);
int fl__irregular_build(const FlSpec *spec, FlTopology *t, FlError *err);

/* gen-myrinet.c: Myrinet clusters of 4-port switches (paper 004), built
 * as meshes by fl__mesh_build(). */
int fl__myrinet_line_check(FlSpec *spec, FlError *err);
int fl__myrinet_mesh_check(FlSpec *spec, FlError *err);

/* --- layout.c ----------------------------------------------------------- */

/* Sets the position of every switch of a k-ary n-cube (or a Myrinet grid)
 * from its coordinates: x = x0, y = x1, and the x2 layers side by side. */
void fl__layout_grid(FlTopology *t, int ndims, const int *dims);

/* Places every host near its switch, in the widest angle between the
 * switch's links (as direction() says they are drawn; NULL for straight
 * links), so that hosts do not sit on links. */
void fl__layout_hosts(FlTopology *t, FlPortDirectionFunc direction, const FlSpec *spec);

/* Scales and shifts the switch positions so that the mean length of a
 * switch-to-switch link is mean_length and the smallest x and y are 0. */
void fl__layout_scale_links(FlTopology *t, double mean_length);
/* Shifts the switch positions so that the smallest x and y are 0. */
void fl__layout_to_origin(FlTopology *t);

/* --- irregular-loader.c ------------------------------------------------ */

/* Draws a random irregular graph and its force-directed layout with the
 * module flitlab-irregular (modules/irregular.h says what it fills). */
int fl__irregular_draw(int switches, int ports, uint64_t seed, int *edges, int n_edges,
                       double *xy, FlError *err);

#endif /* FLITLAB_GENERATORS_INTERNAL_H */
