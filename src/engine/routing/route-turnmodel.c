/* route-turnmodel.c — the turn model on 2D meshes: Glass and Ni's
 * west-first, north-last and negative-first, and Chiu's odd-even. All four
 * are minimal and partially adaptive: next() returns every productive
 * direction the rule allows, and the selection function picks one.
 *
 * Directions are named after the ports that lead that way (gen-cube.c):
 * port 0 = +x = east, port 1 = -x = west, port 2 = +y = south, port
 * 3 = -y = north. North is -y because the drawing puts y = 0 at the top of
 * the picture (screen y grows downwards), so north is up where a teacher
 * points. A packet arriving on port p travels in direction p ^ 1 (it came
 * from the neighbour that port leads to), and a turn is a pair of travel
 * directions (from, to).
 *
 * The prohibited turns (a 180-degree reversal is never taken by a minimal
 * route, and straight moves are never prohibited):
 *   west-first:     north->west, south->west (west, if at all, comes first);
 *   north-last:     north->east, north->west (north, if at all, comes last);
 *   negative-first: the turns from a positive into a negative direction,
 *                   +x->-y (east->north) and +y->-x (south->west);
 *   odd-even:       east->north and east->south in even columns, north->west
 *                   and south->west in odd columns (Chiu's rules 1 and 2;
 *                   columns are x coordinates, numbered from 0).
 *
 * Odd-even's routing is Chiu's ROUTE (IEEE TPDS 11(7), 2000, Fig. 5). It
 * reads the source column once: an eastbound packet may turn north or south
 * in an even column only if that column is its source column. next() knows
 * no source, but it does not need it: an eastbound packet is still in its
 * source column exactly when it has not yet moved east, that is, when it
 * was injected here or arrived travelling north or south. (In an even
 * column a vertical arrival implies the source column, because reaching an
 * even column by an east move and then turning north or south there is
 * what rule 1 prohibits; in an odd column the test does not matter.)
 *
 * Besides following its rule, next() never offers a turn the rule
 * prohibits, even from an arrival no route of the rule makes: the set of
 * legal hops is then consistent with turn_prohibited() for any state a
 * caller may ask about.
 */
#include <string.h>

#include "routing-internal.h"

enum { EAST = 0, WEST = 1, SOUTH = 2, NORTH = 3 };

#define DIR(d) (1u << (d))

/* What a rule reads about a packet at a switch. */
typedef struct Where {
    int dx, dy;          /* destination minus current coordinates */
    int column;          /* current x */
    int dest_column;     /* destination x */
    int source_column;   /* odd-even: the packet has not moved east yet */
} Where;

/* A turn model: the productive directions its routing offers, as a set of
 * DIR() bits, and the turns it prohibits in a given column. */
typedef unsigned (*RouteFunc)(const Where *w);
typedef int (*ProhibitFunc)(int column, int from, int to);

/* The productive directions along x and y (0 when there is none). */
static unsigned toward_x(const Where *w)
{
    return w->dx > 0 ? DIR(EAST) : w->dx < 0 ? DIR(WEST) : 0;
}

static unsigned toward_y(const Where *w)
{
    return w->dy > 0 ? DIR(SOUTH) : w->dy < 0 ? DIR(NORTH) : 0;
}

/* --- west-first --------------------------------------------------------- */

static unsigned west_first_route(const Where *w)
{
    return w->dx < 0 ? DIR(WEST) : toward_x(w) | toward_y(w);
}

static int west_first_prohibits(int column, int from, int to)
{
    (void)column;
    return to == WEST && (from == NORTH || from == SOUTH);
}

/* --- north-last --------------------------------------------------------- */

static unsigned north_last_route(const Where *w)
{
    if (w->dy < 0 && w->dx != 0)
        return toward_x(w);
    return toward_x(w) | toward_y(w);
}

static int north_last_prohibits(int column, int from, int to)
{
    (void)column;
    return from == NORTH && (to == EAST || to == WEST);
}

/* --- negative-first ----------------------------------------------------- */

static unsigned negative_first_route(const Where *w)
{
    unsigned negative = (w->dx < 0 ? DIR(WEST) : 0) | (w->dy < 0 ? DIR(NORTH) : 0);
    return negative ? negative : toward_x(w) | toward_y(w);
}

static int negative_first_prohibits(int column, int from, int to)
{
    (void)column;
    return (from == EAST && to == NORTH) || (from == SOUTH && to == WEST);
}

/* --- odd-even ----------------------------------------------------------- */

static int is_odd(int column)
{
    return column % 2 != 0;
}

static unsigned odd_even_route(const Where *w)
{
    if (w->dx == 0)
        return toward_y(w);
    if (w->dx > 0) {
        if (w->dy == 0)
            return DIR(EAST);
        unsigned dirs = 0;
        if (is_odd(w->column) || w->source_column)
            dirs |= toward_y(w);
        /* Going east into an even destination column would leave a turn
         * into north or south there, which rule 1 prohibits. */
        if (is_odd(w->dest_column) || w->dx != 1)
            dirs |= DIR(EAST);
        return dirs;
    }
    return DIR(WEST) | (is_odd(w->column) ? 0 : toward_y(w));
}

static int odd_even_prohibits(int column, int from, int to)
{
    if (!is_odd(column))
        return from == EAST && (to == NORTH || to == SOUTH);
    return to == WEST && (from == NORTH || from == SOUTH);
}

/* --- the shared machinery ----------------------------------------------- */

static int turn_model_init(FlRouting *r, const FlRoutingOptions *opt, FlError *err)
{
    const FlTopology *t = r->t;
    (void)opt;
    if (strcmp(t->family, "mesh") != 0 || t->family_ndims != 2 || t->coord_dims != 2)
        return fl_error_set(err, FL_EUNSUPPORTED, "%s needs a 2D mesh (the turn model "
                            "assumes no wrap-around links); this network is %s",
                            r->algo->info.name, t->spec ? t->spec : t->family);
    for (int i = 0; i < t->n_switches; i++)
        if (t->nports[t->switch_nodes[i]] < 4)
            return fl_error_set(err, FL_EUNSUPPORTED, "%s: switch %d has fewer than the 4 "
                                "network ports of a 2D mesh", r->algo->info.name,
                                t->switch_nodes[i]);
    r->vc_classes = 1;
    return FL_OK;
}

/* The direction a packet travels after arriving on in_channel, or -1 when
 * it was injected (or came from a host). */
static int arrival(const FlTopology *t, int in_channel)
{
    if (in_channel < 0)
        return -1;
    int p = fl__in_port(t, in_channel);
    return p < 4 ? p ^ 1 : -1;
}

static int turn_model_next(const FlRouting *r, int sw, int in_channel, int dest,
                           FlRouteChoice *out, int max, RouteFunc route,
                           ProhibitFunc prohibits)
{
    const FlTopology *t = r->t;
    const int *c = t->coords + FL_MAX_DIMS * sw, *e = t->coords + FL_MAX_DIMS * dest;
    int from = arrival(t, in_channel);
    Where w = { e[0] - c[0], e[1] - c[1], c[0], e[0], from != EAST };
    unsigned dirs = route(&w);
    int n = 0;
    for (int d = 0; d < 4 && n < max; d++) {
        if (!(dirs & DIR(d)) || (from >= 0 && prohibits(c[0], from, d)))
            continue;
        int channel = fl__out_channel(t, sw, d);
        if (channel >= 0)
            out[n++] = (FlRouteChoice){ d, channel, 0 };
    }
    return n;
}

static int turn_model_prohibited(const FlRouting *r, int sw, int in_port, int out_port,
                                 ProhibitFunc prohibits)
{
    if (in_port >= 4 || out_port >= 4)
        return 0;
    return prohibits(r->t->coords[FL_MAX_DIMS * sw], in_port ^ 1, out_port);
}

/* One registry row per model; the wrappers only bind the model's two
 * functions to the shared machinery. */
#define TURN_MODEL(sym, cli_name, text, route, prohibits)                                     \
    static int sym##_next(const FlRouting *r, int sw, int in_channel, int in_class, int dest, \
                          FlRouteChoice *out, int max)                                        \
    {                                                                                         \
        (void)in_class;                                                                       \
        return turn_model_next(r, sw, in_channel, dest, out, max, route, prohibits);          \
    }                                                                                         \
    static int sym##_turn(const FlRouting *r, int sw, int in_port, int out_port)              \
    {                                                                                         \
        return turn_model_prohibited(r, sw, in_port, out_port, prohibits);                    \
    }                                                                                         \
    const FlRoutingAlgo fl__route_##sym = {                                                   \
        .info = { .name = cli_name,                                                           \
                  .summary = text,                                                            \
                  .applies_to = FL_N_("2D meshes"),                                           \
                  .is_table = 0 },                                                            \
        .init = turn_model_init,                                                              \
        .next = sym##_next,                                                                   \
        .turn_prohibited = sym##_turn,                                                        \
    }

TURN_MODEL(west_first, "west-first",
           FL_N_("turn model: west first, then adaptive east, north and south"), west_first_route,
           west_first_prohibits);
TURN_MODEL(north_last, "north-last", FL_N_("turn model: adaptive west, east and south, north last"),
           north_last_route, north_last_prohibits);
TURN_MODEL(negative_first, "negative-first",
           FL_N_("turn model: adaptive in the negative directions first, then the positive"),
           negative_first_route, negative_first_prohibits);
TURN_MODEL(odd_even, "odd-even",
           FL_N_("Chiu's odd-even turn model: column parity decides the prohibited turns"),
           odd_even_route, odd_even_prohibits);
