/* schedule-color.c — colourings of a request set: paper 004's
 * AssignColor_Linear and AssignColor_Mesh (read as colouring orders, see
 * flitlab/schedule.h), first fit in request order, and an exact minimum by
 * DSATUR branch and bound. */
#include <stdlib.h>
#include <string.h>

#include "schedule-internal.h"

static const char *const algo_names[FL_SCHEDULE_ALGO_COUNT] = {
    [FL_SCHEDULE_ASSIGNCOLOR] = "assigncolor",
    [FL_SCHEDULE_GREEDY] = "greedy",
    [FL_SCHEDULE_EXACT] = "exact",
};

const char *fl_schedule_algo_name(FlScheduleAlgo algo)
{
    return (int)algo >= 0 && algo < FL_SCHEDULE_ALGO_COUNT ? algo_names[algo] : NULL;
}

int fl_schedule_algo_lookup(const char *name)
{
    for (int a = 0; name && a < FL_SCHEDULE_ALGO_COUNT; a++)
        if (strcmp(name, algo_names[a]) == 0)
            return a;
    return -1;
}

/* --- first fit ------------------------------------------------------------- */

int fl__schedule_first_fit(const FlSchedule *s, const int *order, int *colors)
{
    int n = s->n, ncolors = 0;
    int *mark = malloc((size_t)(n + 1) * sizeof *mark);
    if (!mark)
        return -1;
    for (int i = 0; i < n; i++) {
        colors[i] = -1;
        mark[i] = -1;
    }
    mark[n] = -1;
    for (int o = 0; o < n; o++) {
        int i = order[o];
        for (int k = s->path_start[i]; k < s->path_start[i + 1]; k++) {
            int ch = s->path[k];
            for (int q = s->on_start[ch]; q < s->on_start[ch + 1]; q++) {
                int c = colors[s->on[q]];
                if (c >= 0)
                    mark[c] = i;
            }
        }
        int c = 0;
        while (mark[c] == i)
            c++;
        colors[i] = c;
        if (c + 1 > ncolors)
            ncolors = c + 1;
    }
    free(mark);
    return ncolors;
}

/* --- the paper's orders ------------------------------------------------------ */

typedef struct Keyed {
    long long key;
    int i;
} Keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const Keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* Sorts the requests by key and colours them first fit in that order. */
static int color_by_keys(const FlSchedule *s, Keyed *keyed, int *colors, int *ncolors,
                         FlError *err)
{
    int n = s->n;
    int *order = malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
    if (!order) {
        free(keyed);
        return fl_error_set(err, FL_ENOMEM, "out of memory colouring %d requests", n);
    }
    qsort(keyed, (size_t)n, sizeof *keyed, keyed_cmp);
    for (int o = 0; o < n; o++)
        order[o] = keyed[o].i;
    free(keyed);
    int k = fl__schedule_first_fit(s, order, colors);
    free(order);
    if (k < 0)
        return fl_error_set(err, FL_ENOMEM, "out of memory colouring %d requests", n);
    *ncolors = k;
    return FL_OK;
}

static Keyed *alloc_keys(const FlSchedule *s)
{
    return malloc((size_t)(s->n > 0 ? s->n : 1) * sizeof(Keyed));
}

/* A key from (group, phase, position, class): position < 2^24, class < 2^24. */
static long long make_key(int group, int phase, long long pos, long long cls)
{
    return ((((long long)group * 8 + phase) << 24 | pos) << 24) | cls;
}

int fl_schedule_assign_color_linear(const FlSchedule *s, int *colors, int *ncolors,
                                    FlError *err)
{
    if (s->mesh)
        return fl_error_set(err, FL_EUNSUPPORTED, "AssignColor_Linear needs a myrinet-line "
                            "network; this one is a myrinet-mesh (use AssignColor_Mesh)");
    Keyed *keyed = alloc_keys(s);
    if (!keyed)
        return fl_error_set(err, FL_ENOMEM, "out of memory colouring %d requests", s->n);
    /* At each switch, left to right: R (starts here, goes right), then LE
     * (goes left and ends here); each interval is coloured at its left
     * end, which is what makes first fit use exactly L_max colours. */
    for (int i = 0; i < s->n; i++) {
        int sx = s->src_x[i], dx = s->dst_x[i];
        keyed[i] = (Keyed){ make_key(0, 0, dx < sx ? dx : sx, dx < sx), i };
    }
    return color_by_keys(s, keyed, colors, ncolors, err);
}

/* Request i on the mesh: the group (0 = D, 1 = U) and, for U, the
 * coordinates on the mesh turned by 180 degrees. */
static int mesh_view(const FlSchedule *s, int i, int *sx, int *sy, int *dx, int *dy)
{
    *sx = s->src_x[i];
    *sy = s->src_y[i];
    *dx = s->dst_x[i];
    *dy = s->dst_y[i];
    int up = *dy < *sy || (*dy == *sy && *sy == s->rows - 1);
    if (up) {
        *sx = s->cols - 1 - *sx;
        *dx = s->cols - 1 - *dx;
        *sy = s->rows - 1 - *sy;
        *dy = s->rows - 1 - *dy;
    }
    return up;
}

/* The colouring key of a request of D (coordinates already turned for U):
 * the paper's three passes, then anything outside its classes. */
static long long mesh_key(const FlSchedule *s, int group, int sx, int sy, int dx, int dy)
{
    int last = s->cols - 1;
    if (sy == 0) {
        /* Pass 1, row 0 left to right: R, LE, D, LD at each switch. */
        int cls = dx > sx ? 0 : dx == sx ? 2 : dy == 0 ? 1 : 3;
        return make_key(group, 1, dx > sx ? sx : dx, cls);
    }
    if (dx > 0 && dx < last && dy == s->rows - 1)
        /* Pass 2: still uncoloured DE of the bottom row's inner columns. */
        return make_key(group, 2, dx, sy);
    if (dx == 0 || dx == last) {
        /* Pass 3, inner rows top to bottom: column 1's D, LE, LD, then
         * column m's D, RE, RD. */
        int cls = (dx == last) * 3 + (sx == dx ? 0 : dy == sy ? 1 : 2);
        return make_key(group, 3, sy, cls);
    }
    return make_key(group, 4, 0, 0);
}

int fl_schedule_assign_color_mesh(const FlSchedule *s, int *colors, int *ncolors,
                                  FlError *err)
{
    if (!s->mesh)
        return fl_error_set(err, FL_EUNSUPPORTED, "AssignColor_Mesh needs a myrinet-mesh "
                            "network; this one is a myrinet-line (use AssignColor_Linear)");
    Keyed *keyed = alloc_keys(s);
    if (!keyed)
        return fl_error_set(err, FL_ENOMEM, "out of memory colouring %d requests", s->n);
    for (int i = 0; i < s->n; i++) {
        int sx, sy, dx, dy;
        int group = mesh_view(s, i, &sx, &sy, &dx, &dy);
        keyed[i] = (Keyed){ mesh_key(s, group, sx, sy, dx, dy), i };
    }
    return color_by_keys(s, keyed, colors, ncolors, err);
}

static int color_greedy(const FlSchedule *s, int *colors, int *ncolors, FlError *err)
{
    Keyed *keyed = alloc_keys(s);
    if (!keyed)
        return fl_error_set(err, FL_ENOMEM, "out of memory colouring %d requests", s->n);
    for (int i = 0; i < s->n; i++)
        keyed[i] = (Keyed){ 0, i };
    return color_by_keys(s, keyed, colors, ncolors, err);
}

/* --- exact: DSATUR branch and bound ------------------------------------------- */

typedef struct Exact {
    int n;
    const int *adj_start, *adj;  /* the conflict graph */
    int *color;                  /* current partial colouring, -1 = none */
    int *sat_count;              /* n x cap: neighbours of v with colour c */
    int *sat;                    /* distinct neighbour colours of v */
    int cap;                     /* colours the search may use: the best found so far */
    int *best;
    int best_k, lower;
    long nodes;
    int gave_up;
} Exact;

static void exact_set(Exact *e, int v, int c, int delta)
{
    e->color[v] = delta > 0 ? c : -1;
    for (int k = e->adj_start[v]; k < e->adj_start[v + 1]; k++) {
        int *cnt = &e->sat_count[(size_t)e->adj[k] * (size_t)e->cap + (size_t)c];
        if (delta > 0 && (*cnt)++ == 0)
            e->sat[e->adj[k]]++;
        if (delta < 0 && --(*cnt) == 0)
            e->sat[e->adj[k]]--;
    }
}

static void exact_search(Exact *e, int colored, int used)
{
    if (e->gave_up || e->best_k <= e->lower || used >= e->best_k)
        return;
    if (++e->nodes > FL_SCHEDULE_EXACT_MAX_NODES) {
        e->gave_up = 1;
        return;
    }
    if (colored == e->n) {
        e->best_k = used;
        memcpy(e->best, e->color, (size_t)e->n * sizeof *e->best);
        return;
    }
    int v = -1;
    for (int u = 0; u < e->n; u++) {
        if (e->color[u] >= 0)
            continue;
        if (v < 0 || e->sat[u] > e->sat[v] ||
            (e->sat[u] == e->sat[v] &&
             e->adj_start[u + 1] - e->adj_start[u] > e->adj_start[v + 1] - e->adj_start[v]))
            v = u;
    }
    for (int c = 0; c <= used; c++) {
        if (e->sat_count[(size_t)v * (size_t)e->cap + (size_t)c] > 0)
            continue;
        if (c == used && used + 1 >= e->best_k)
            break;
        exact_set(e, v, c, 1);
        exact_search(e, colored + 1, c == used ? used + 1 : used);
        exact_set(e, v, c, -1);
    }
}

/* The conflict graph: requests sharing a channel, each pair once per side. */
static int conflict_graph(const FlSchedule *s, int **adj_start, int **adj)
{
    int n = s->n, cap = 64, len = 0;
    int *start = calloc((size_t)n + 1, sizeof *start), *out = malloc((size_t)cap * sizeof *out);
    int *mark = malloc((size_t)(n > 0 ? n : 1) * sizeof *mark);
    if (!start || !out || !mark)
        goto fail;
    for (int i = 0; i < n; i++)
        mark[i] = -1;
    for (int i = 0; i < n; i++) {
        mark[i] = i;
        for (int k = s->path_start[i]; k < s->path_start[i + 1]; k++)
            for (int q = s->on_start[s->path[k]]; q < s->on_start[s->path[k] + 1]; q++) {
                int j = s->on[q];
                if (mark[j] == i)
                    continue;
                mark[j] = i;
                if (len == cap) {
                    int *grown = realloc(out, (size_t)cap * 2 * sizeof *out);
                    if (!grown)
                        goto fail;
                    out = grown;
                    cap *= 2;
                }
                out[len++] = j;
            }
        start[i + 1] = len;
    }
    free(mark);
    *adj_start = start;
    *adj = out;
    return FL_OK;
fail:
    free(start);
    free(out);
    free(mark);
    return FL_ENOMEM;
}

static int color_exact(const FlSchedule *s, int *colors, int *ncolors, FlError *err)
{
    int n = s->n;
    if (n > FL_SCHEDULE_EXACT_MAX_REQUESTS)
        return fl_error_set(err, FL_ERANGE, "the exact colouring takes at most %d requests; "
                            "this set has %d", FL_SCHEDULE_EXACT_MAX_REQUESTS, n);
    /* Start from the better heuristic; L_max (a channel's requests form a
     * clique) bounds from below. */
    int k1, k2, rc;
    int *other = malloc((size_t)(n > 0 ? n : 1) * sizeof *other);
    if (!other)
        return fl_error_set(err, FL_ENOMEM, "out of memory colouring %d requests", n);
    rc = s->mesh ? fl_schedule_assign_color_mesh(s, colors, &k1, err)
                 : fl_schedule_assign_color_linear(s, colors, &k1, err);
    if (!rc)
        rc = color_greedy(s, other, &k2, err);
    if (rc) {
        free(other);
        return rc;
    }
    if (k2 < k1) {
        memcpy(colors, other, (size_t)n * sizeof *colors);
        k1 = k2;
    }
    free(other);
    Exact e = { .n = n, .cap = k1, .best_k = k1, .lower = s->l_max > 0 ? s->l_max : n > 0 };
    int *adj_start = NULL, *adj = NULL;
    if (k1 <= e.lower) {
        *ncolors = k1;
        return FL_OK;
    }
    if (conflict_graph(s, &adj_start, &adj))
        return fl_error_set(err, FL_ENOMEM, "out of memory for the conflicts of %d requests", n);
    e.adj_start = adj_start;
    e.adj = adj;
    e.color = malloc((size_t)n * sizeof *e.color);
    e.sat = calloc((size_t)n, sizeof *e.sat);
    e.sat_count = calloc((size_t)n * (size_t)k1, sizeof *e.sat_count);
    e.best = malloc((size_t)n * sizeof *e.best);
    if (e.color && e.sat && e.sat_count && e.best) {
        for (int i = 0; i < n; i++)
            e.color[i] = -1;
        exact_search(&e, 0, 0);
        if (e.best_k < k1)
            memcpy(colors, e.best, (size_t)n * sizeof *colors);
        *ncolors = e.best_k;
        rc = e.gave_up ? fl_error_set(err, FL_ERANGE, "the exact colouring of %d requests gave "
                                      "up after %ld search nodes (best found: %d colours, "
                                      "L_max %d)", n, e.nodes - 1, e.best_k, s->l_max)
                       : FL_OK;
    } else {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory colouring %d requests", n);
    }
    free(e.color);
    free(e.sat);
    free(e.sat_count);
    free(e.best);
    free(adj_start);
    free(adj);
    return rc;
}

int fl_schedule_color(const FlSchedule *s, FlScheduleAlgo algo, int *colors, int *ncolors,
                      FlError *err)
{
    switch (algo) {
    case FL_SCHEDULE_ASSIGNCOLOR:
        return s->mesh ? fl_schedule_assign_color_mesh(s, colors, ncolors, err)
                       : fl_schedule_assign_color_linear(s, colors, ncolors, err);
    case FL_SCHEDULE_GREEDY:
        return color_greedy(s, colors, ncolors, err);
    case FL_SCHEDULE_EXACT:
        return color_exact(s, colors, ncolors, err);
    default:
        return fl_error_set(err, FL_EINVAL, "no schedule algorithm %d (there are %d)",
                            (int)algo, FL_SCHEDULE_ALGO_COUNT);
    }
}
