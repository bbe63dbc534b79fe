/* layout.c — drawing positions shared by the generators (the irregular
 * networks' force-directed layout is igraph's, in modules/irregular.c).
 *
 * Positions are in layout units: one unit is one grid step of the regular
 * families. Hosts are drawn about 0.3 units from their switch.
 */
#include <math.h>
#include <stdlib.h>

#include "generators.h"

#define PI 3.14159265358979323846

/* --- grids -------------------------------------------------------------- */

void fl__layout_grid(FlTopology *t, int ndims, const int *dims)
{
    int n = fl_topology_switch_count(t), c[FL_MAX_DIMS];
    /* Layers of a 3D grid go side by side, one empty column apart. */
    double layer_step = dims[0] + 1.0;
    for (int r = 0; r < n; r++) {
        int s = fl_topology_switch_node(t, r);
        fl_topology_get_coords(t, s, c);
        double x = c[0] + (ndims > 2 ? c[2] * layer_step : 0.0);
        double y = ndims > 1 ? c[1] : 0.0;
        fl_topology_set_position(t, s, x, y);
    }
}

/* --- hosts -------------------------------------------------------------- */

#define HOST_RADIUS 0.3
#define HOST_RADIUS_MAX 0.45
/* Hosts of one switch stay at least this far apart, as long as the radius
 * can grow to HOST_RADIUS_MAX. */
#define HOST_SPACING 0.15
/* The widest angle between links is where hosts go; among equally wide
 * angles, the one closest to down-right (on a y-down screen), so that the
 * hosts of a regular network all point the same way. */
#define HOST_PREFERRED_ANGLE (PI / 4.0)

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The angular distance between two directions, in [0, pi]. */
static double angle_between(double a, double b)
{
    double d = fmod(fabs(a - b), 2.0 * PI);
    return d > PI ? 2.0 * PI - d : d;
}

/* Finds the widest gap between the sorted directions angles[0..n-1]; sets
 * its start and width. With no direction the gap is the full circle. */
static void widest_gap(const double *angles, int n, double *start, double *width)
{
    if (n == 0) {
        *start = HOST_PREFERRED_ANGLE - PI;
        *width = 2.0 * PI;
        return;
    }
    const double eps = 1e-9;
    *start = angles[0];
    *width = -1.0;
    for (int i = 0; i < n; i++) {
        double a = angles[i];
        double w = (i + 1 < n ? angles[i + 1] : angles[0] + 2.0 * PI) - a;
        double mid = a + w / 2.0;
        if (w > *width + eps
            || (w > *width - eps
                && angle_between(mid, HOST_PREFERRED_ANGLE)
                       < angle_between(*start + *width / 2.0, HOST_PREFERRED_ANGLE))) {
            *start = a;
            *width = w;
        }
    }
}

/* Places the hosts of switch s (hosts[0..n-1], in port order); angles is
 * scratch for FL_MAX_PORTS directions. */
static void place_hosts_of(FlTopology *t, int s, const int *hosts, int n,
                           FlPortDirectionFunc direction, const FlSpec *spec, double *angles)
{
    double sx, sy;
    int n_links = 0;
    fl_topology_get_position(t, s, &sx, &sy);
    for (int p = 0; p < fl_topology_node_ports(t, s); p++) {
        int o = fl_topology_port_peer(t, s, p, NULL);
        if (o < 0 || fl_topology_node_kind(t, o) != FL_NODE_SWITCH)
            continue;
        double dx, dy;
        if (direction) {
            direction(spec, t, s, p, &dx, &dy);
        } else {
            fl_topology_get_position(t, o, &dx, &dy);
            dx -= sx;
            dy -= sy;
        }
        if (dx != 0.0 || dy != 0.0)
            angles[n_links++] = atan2(dy, dx);
    }
    qsort(angles, (size_t)n_links, sizeof(double), compare_doubles);
    double start, width;
    widest_gap(angles, n_links, &start, &width);

    /* Spread the hosts evenly inside the gap, keeping a margin to the links
     * on either side, and no wider than a small fan. */
    double step = width / (n + 1);
    if (step > 0.6)
        step = 0.6;
    double radius = HOST_RADIUS;
    if (n > 1) {
        double needed = HOST_SPACING / (2.0 * sin(step / 2.0));
        radius = fmin(fmax(radius, needed), HOST_RADIUS_MAX);
    }
    double mid = start + width / 2.0;
    for (int k = 0; k < n; k++) {
        double a = mid + (k - (n - 1) / 2.0) * step;
        fl_topology_set_position(t, hosts[k], sx + radius * cos(a), sy + radius * sin(a));
    }
}

void fl__layout_hosts(FlTopology *t, FlPortDirectionFunc direction, const FlSpec *spec)
{
    double angles[FL_MAX_PORTS];
    int hosts[FL_MAX_PORTS];
    for (int r = 0; r < fl_topology_switch_count(t); r++) {
        int s = fl_topology_switch_node(t, r), n = 0;
        for (int p = 0; p < fl_topology_node_ports(t, s); p++) {
            int o = fl_topology_port_peer(t, s, p, NULL);
            if (o >= 0 && fl_topology_node_kind(t, o) == FL_NODE_HOST)
                hosts[n++] = o;
        }
        if (n > 0)
            place_hosts_of(t, s, hosts, n, direction, spec, angles);
    }
}

/* --- scaling ------------------------------------------------------------ */

void fl__layout_scale_links(FlTopology *t, double mean_length)
{
    int links = fl_topology_link_count(t), counted = 0;
    double total = 0.0;
    for (int l = 0; l < links; l++) {
        int a, b;
        double ax, ay, bx, by;
        fl_topology_link_ends(t, l, &a, NULL, &b, NULL);
        if (fl_topology_node_kind(t, a) != FL_NODE_SWITCH
            || fl_topology_node_kind(t, b) != FL_NODE_SWITCH)
            continue;
        fl_topology_get_position(t, a, &ax, &ay);
        fl_topology_get_position(t, b, &bx, &by);
        total += hypot(bx - ax, by - ay);
        counted++;
    }
    double scale = counted && total > 0.0 ? mean_length * counted / total : 1.0;
    int n = fl_topology_switch_count(t);
    for (int r = 0; r < n; r++) {
        int s = fl_topology_switch_node(t, r);
        double x, y;
        fl_topology_get_position(t, s, &x, &y);
        fl_topology_set_position(t, s, x * scale, y * scale);
    }
    fl__layout_to_origin(t);
}

void fl__layout_to_origin(FlTopology *t)
{
    int n = fl_topology_switch_count(t);
    double min_x = HUGE_VAL, min_y = HUGE_VAL;
    for (int r = 0; r < n; r++) {
        double x, y;
        fl_topology_get_position(t, fl_topology_switch_node(t, r), &x, &y);
        min_x = fmin(min_x, x);
        min_y = fmin(min_y, y);
    }
    for (int r = 0; r < n; r++) {
        int s = fl_topology_switch_node(t, r);
        double x, y;
        fl_topology_get_position(t, s, &x, &y);
        fl_topology_set_position(t, s, x - min_x, y - min_y);
    }
}
