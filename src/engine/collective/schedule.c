/* schedule.c — request sets on paper 004's Myrinet clusters, their
 * row-column paths, channel loads and L_max, and the validity check of a
 * colouring. The colourings are in schedule-color.c. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule-internal.h"

/* --- request sets ---------------------------------------------------------- */

static int host_count_checked(const FlTopology *t, int k, int spare, FlError *err)
{
    int hosts = fl_topology_host_count(t);
    if (hosts < 2)
        return fl_error_set(err, FL_EINVAL, "a request set needs a network with at least 2 "
                            "hosts; this one has %d", hosts);
    if ((k < 0 || k > hosts - spare) && spare)
        return fl_error_set(err, FL_ERANGE, "%d requests need %d distinct source hosts; the "
                            "network has %d besides the hot spot", k, k, hosts - spare);
    if (k < 0 || k > hosts)
        return fl_error_set(err, FL_ERANGE, "%d requests need %d distinct source hosts; the "
                            "network has %d", k, k, hosts);
    return FL_OK;
}

/* hosts[0..h-1] = 0..h-1 in random order (a full Fisher-Yates shuffle). */
static int *shuffled_hosts(int h, FlRng *rng)
{
    int *a = malloc((size_t)h * sizeof *a);
    if (!a)
        return NULL;
    for (int i = 0; i < h; i++)
        a[i] = i;
    for (int i = h - 1; i > 0; i--) {
        int j = (int)fl_rng_below(rng, (uint32_t)i + 1);
        int x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
    return a;
}

/* A uniformly chosen host other than src. */
static int other_host(int h, int src, FlRng *rng)
{
    int d = (int)fl_rng_below(rng, (uint32_t)h - 1);
    return d >= src ? d + 1 : d;
}

static int alloc_requests(int k, FlScheduleRequest **out, FlError *err)
{
    *out = malloc((size_t)(k > 0 ? k : 1) * sizeof **out);
    return *out ? FL_OK : fl_error_set(err, FL_ENOMEM, "out of memory for %d requests", k);
}

/* The start every generator shares: k checked against the hosts (less
 * `spare`), the generator seeded, the hosts shuffled into *order and room
 * for k requests in *out. */
static int start_set(const FlTopology *t, int k, int spare, uint64_t seed, FlRng *rng,
                     int **order, FlScheduleRequest **out, FlError *err)
{
    int rc = host_count_checked(t, k, spare, err);
    if (rc)
        return rc;
    fl_rng_seed(rng, seed);
    *order = shuffled_hosts(fl_topology_host_count(t), rng);
    *out = malloc((size_t)(k > 0 ? k : 1) * sizeof **out);
    if (!*order || !*out) {
        free(*order);
        free(*out);
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d requests", k);
    }
    return FL_OK;
}

int fl_schedule_random_uniform(const FlTopology *t, int k, uint64_t seed,
                               FlScheduleRequest **out, int *n, FlError *err)
{
    FlRng rng;
    int *src;
    FlScheduleRequest *r;
    int rc = start_set(t, k, 0, seed, &rng, &src, &r, err);
    if (rc)
        return rc;
    for (int i = 0; i < k; i++)
        r[i] = (FlScheduleRequest){ src[i], other_host(fl_topology_host_count(t), src[i], &rng) };
    free(src);
    *out = r;
    *n = k;
    return FL_OK;
}

int fl_schedule_random_permutation(const FlTopology *t, int k, uint64_t seed,
                                   FlScheduleRequest **out, int *n, FlError *err)
{
    FlRng rng;
    int *a, h = fl_topology_host_count(t);
    FlScheduleRequest *r;
    int rc = start_set(t, k, 0, seed, &rng, &a, &r, err);
    if (rc)
        return rc;
    int *b = shuffled_hosts(h, &rng);
    if (!b) {
        free(a);
        free(r);
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d requests", k);
    }
    /* Sources a[0..k-1], destinations b[0..k-1]; a host that would send to
     * itself swaps its destination with another slot whose swap harms
     * neither side (one always exists with h >= 2). */
    for (int i = 0; i < k; i++) {
        if (a[i] != b[i])
            continue;
        int start = (int)fl_rng_below(&rng, (uint32_t)h);
        for (int s = 0; s < h; s++) {
            int j = (start + s) % h;
            if (j == i || b[j] == a[i] || (j < k && b[i] == a[j]))
                continue;
            int x = b[i];
            b[i] = b[j];
            b[j] = x;
            break;
        }
    }
    for (int i = 0; i < k; i++)
        r[i] = (FlScheduleRequest){ a[i], b[i] };
    free(a);
    free(b);
    *out = r;
    *n = k;
    return FL_OK;
}

int fl_schedule_hotspot(const FlTopology *t, int k, int hot, double fraction, uint64_t seed,
                        FlScheduleRequest **out, int *n, FlError *err)
{
    int h = fl_topology_host_count(t);
    if (hot < 0 || hot >= h)
        return fl_error_set(err, FL_ENOTFOUND, "hot spot host %d does not exist (the network "
                            "has %d hosts)", hot, h);
    if (!(fraction >= 0.0 && fraction <= 1.0))
        return fl_error_set(err, FL_ERANGE, "the hot spot fraction must be between 0 and 1, "
                            "got %g", fraction);
    FlRng rng;
    int *src;
    FlScheduleRequest *r;
    int rc = start_set(t, k, 1, seed, &rng, &src, &r, err);
    if (rc)
        return rc;
    for (int i = 0, j = 0; i < k; j++) {
        if (src[j] == hot)
            continue;
        int dst = fl_rng_uniform(&rng) < fraction ? hot : other_host(h, src[j], &rng);
        r[i++] = (FlScheduleRequest){ src[j], dst };
    }
    free(src);
    *out = r;
    *n = k;
    return FL_OK;
}

/* The y coordinate of the switch host h is attached to. */
static int host_row(const FlTopology *t, int h)
{
    int c[FL_MAX_DIMS] = { 0 };
    fl_topology_get_coords(t, fl_topology_host_switch(t, fl_topology_host_node(t, h)), c);
    return c[1];
}

int fl_schedule_top_down(const FlTopology *t, uint64_t seed, FlScheduleRequest **out,
                         int *n, FlError *err)
{
    int dims[FL_MAX_DIMS];
    if (strcmp(fl_topology_family(t), "myrinet-mesh") != 0 ||
        fl_topology_family_dims(t, dims) != 2)
        return fl_error_set(err, FL_EUNSUPPORTED, "top-down requests need a myrinet-mesh "
                            "network; this one is %s", fl_topology_family(t));
    int h = fl_topology_host_count(t), k = 0, nb = 0;
    FlScheduleRequest *r = NULL;
    int *bottom = malloc((size_t)h * sizeof *bottom);
    if (!bottom || alloc_requests(h, &r, err)) {
        free(bottom);
        return fl_error_set(err, FL_ENOMEM, "out of memory for %d requests", h);
    }
    for (int i = 0; i < h; i++) {
        int y = host_row(t, i);
        if (y == 0)
            r[k++].src = i;
        if (y == dims[1] - 1)
            bottom[nb++] = i;
    }
    FlRng rng;
    fl_rng_seed(&rng, seed);
    for (int i = nb - 1; i > 0; i--) {
        int j = (int)fl_rng_below(&rng, (uint32_t)i + 1);
        int x = bottom[i];
        bottom[i] = bottom[j];
        bottom[j] = x;
    }
    for (int i = 0; i < k; i++)
        r[i].dst = bottom[i % nb];
    free(bottom);
    *out = r;
    *n = k;
    return FL_OK;
}

/* Reads one non-negative host number at *p; -1 when there is none. */
static long read_host(const char **p)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    if (!isdigit((unsigned char)**p))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(*p, &end, 10);
    *p = end;
    return errno ? -2 : v;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static int parse_line(const char *line, size_t len, int lineno, int hosts, FlScheduleRequest *req,
                      int *have, FlError *err)
{
    /* The comment and the blanks around the pair are no part of it, however
     * long they are. */
    const char *hash = memchr(line, '#', len);
    size_t n = hash ? (size_t)(hash - line) : len;
    while (n > 0 && is_blank(*line)) {
        line++;
        n--;
    }
    while (n > 0 && is_blank(line[n - 1]))
        n--;
    *have = 0;
    if (n == 0)
        return FL_OK;
    char buf[256];
    if (n >= sizeof buf)
        return fl_error_set(err, FL_EPARSE, "line %d: %zu characters where two host numbers "
                            "'src dst' were expected", lineno, n);
    memcpy(buf, line, n);
    buf[n] = '\0';
    const char *p = buf;
    long src = read_host(&p), dst = src >= 0 ? read_host(&p) : -1;
    if (src < 0 || dst < 0 || *p) {
        /* Quoted as text: no control character reaches the terminal. */
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
                buf[i] = '?';
        return fl_error_set(err, FL_EPARSE, "line %d: expected two host numbers 'src dst', "
                            "got '%.60s'", lineno, buf);
    }
    long bad = src >= hosts ? src : dst >= hosts ? dst : -1;
    if (bad >= 0)
        return fl_error_set(err, FL_EPARSE, "line %d: host %ld does not exist (the network "
                            "has %d hosts, 0 to %d)", lineno, bad, hosts, hosts - 1);
    if (src == dst)
        return fl_error_set(err, FL_EPARSE, "line %d: host %ld sends to itself", lineno, src);
    *req = (FlScheduleRequest){ (int)src, (int)dst };
    *have = 1;
    return FL_OK;
}

int fl_schedule_parse(const FlTopology *t, const char *text, FlScheduleRequest **out,
                      int *n, FlError *err)
{
    int hosts = fl_topology_host_count(t), k = 0, cap = 16, lineno = 0;
    FlScheduleRequest *r = malloc((size_t)cap * sizeof *r);
    if (!r)
        return fl_error_set(err, FL_ENOMEM, "out of memory reading requests");
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        int have, rc;
        FlScheduleRequest req;
        if ((rc = parse_line(line, len, ++lineno, hosts, &req, &have, err))) {
            free(r);
            return rc;
        }
        if (have && k == FL_SCHEDULE_MAX_REQUESTS) {
            free(r);
            return fl_error_set(err, FL_ERANGE, "line %d: more than %d requests", lineno,
                                FL_SCHEDULE_MAX_REQUESTS);
        }
        if (have && k == cap) {
            FlScheduleRequest *grown = realloc(r, (size_t)cap * 2 * sizeof *r);
            if (!grown) {
                free(r);
                return fl_error_set(err, FL_ENOMEM, "out of memory reading requests");
            }
            r = grown;
            cap *= 2;
        }
        if (have)
            r[k++] = req;
        line = nl ? nl + 1 : NULL;
    }
    /* Nothing to colour is a file that is not a request file, or one that
     * lost its requests: say so rather than report an empty schedule. An
     * empty text reads as one blank line. */
    if (k == 0) {
        free(r);
        return fl_error_set(err, FL_EPARSE, "line %d: no request: every line is blank or a "
                            "comment (a request is a line 'src dst')", lineno > 0 ? lineno : 1);
    }
    *out = r;
    *n = k;
    return FL_OK;
}

/* The 1-based line of text that pos is on. */
static int line_at(const char *text, const char *pos)
{
    int line = 1;
    for (const char *c = text; c < pos; c++)
        line += *c == '\n';
    return line;
}

int fl_schedule_read_file(const FlTopology *t, const char *path, FlScheduleRequest **out,
                          int *n, FlError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fl_error_set(err, FL_EIO, "cannot open request file %s: %s", path,
                            strerror(errno));
    size_t cap = 4096, len = 0, got;
    char *text = malloc(cap);
    int rc = FL_OK;
    /* NUL bytes and the size are checked as the text grows: a NUL would end
     * the text early and drop the requests after it, and /dev/zero must be
     * refused, not read until memory runs out. */
    while (!rc && text && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        const char *nul = memchr(text + len, '\0', got);
        if (nul)
            rc = fl_error_set(err, FL_EPARSE, "line %d: a NUL byte: not a text file",
                              line_at(text, nul));
        else if ((len += got) > FL_SCHEDULE_MAX_FILE_BYTES)
            rc = fl_error_set(err, FL_ERANGE, "request file %s is larger than %zu bytes", path,
                              FL_SCHEDULE_MAX_FILE_BYTES);
        if (!rc && len + 1 == cap) {
            char *grown = realloc(text, cap * 2);
            if (!grown)
                free(text);
            text = grown;
            cap *= 2;
        }
    }
    int failed = !rc && ferror(f), why = errno;
    fclose(f);
    if (!rc && !text)
        rc = fl_error_set(err, FL_ENOMEM, "out of memory reading %s", path);
    else if (failed)
        rc = fl_error_set(err, FL_EIO, "cannot read request file %s: %s", path,
                          strerror(why));
    if (rc) {
        free(text);
        return rc;
    }
    text[len] = '\0';
    rc = fl_schedule_parse(t, text, out, n, err);
    free(text);
    return rc;
}

/* --- the schedule object ------------------------------------------------------ */

void fl_schedule_free(FlSchedule *s)
{
    if (!s)
        return;
    free(s->reqs);
    free(s->src_x);
    free(s->src_y);
    free(s->dst_x);
    free(s->dst_y);
    free(s->path_start);
    free(s->path);
    free(s->load);
    free(s->on_start);
    free(s->on);
    free(s);
}

static void switch_xy(const FlTopology *t, int sw, int *x, int *y)
{
    int c[FL_MAX_DIMS] = { 0 };
    fl_topology_get_coords(t, sw, c);
    *x = c[0];
    *y = fl_topology_coord_dims(t) > 1 ? c[1] : 0;
}

/* Follows the routing from request i's source switch to its destination
 * switch, appending channels to s->path (room for s->cols + s->rows each). */
static int route_one(FlSchedule *s, const FlRouting *r, int i, int *used, FlError *err)
{
    const FlTopology *t = s->t;
    int a = fl_topology_host_switch(t, fl_topology_host_node(t, s->reqs[i].src));
    int b = fl_topology_host_switch(t, fl_topology_host_node(t, s->reqs[i].dst));
    switch_xy(t, a, &s->src_x[i], &s->src_y[i]);
    switch_xy(t, b, &s->dst_x[i], &s->dst_y[i]);
    int sw = a, in = -1, cls = 0, hops = 0;
    FlRouteChoice c[FL_ROUTE_MAX_CHOICES];
    while (sw != b) {
        if (hops > s->cols + s->rows ||
            fl_routing_next(r, sw, in, cls, b, c, FL_ROUTE_MAX_CHOICES) < 1)
            return fl_error_set(err, FL_EINVAL, "request %d (host %d to %d) has no row-column "
                                "route", i, s->reqs[i].src, s->reqs[i].dst);
        s->path[(*used)++] = c[0].channel;
        in = c[0].channel;
        cls = c[0].vc_class;
        sw = fl_topology_channel_dst(t, in);
        hops++;
    }
    return FL_OK;
}

/* Channel loads, L_max and the requests on every channel. */
static int index_channels(FlSchedule *s)
{
    int nc = s->nchannels, total = s->path_start[s->n];
    s->load = calloc((size_t)nc + 1, sizeof *s->load);
    s->on_start = calloc((size_t)nc + 1, sizeof *s->on_start);
    s->on = malloc((size_t)(total > 0 ? total : 1) * sizeof *s->on);
    if (!s->load || !s->on_start || !s->on)
        return FL_ENOMEM;
    for (int k = 0; k < total; k++)
        s->load[s->path[k]]++;
    for (int c = 0; c < nc; c++) {
        s->on_start[c + 1] = s->on_start[c] + s->load[c];
        if (s->load[c] > s->l_max)
            s->l_max = s->load[c];
    }
    int *fill = calloc((size_t)nc + 1, sizeof *fill);
    if (!fill)
        return FL_ENOMEM;
    for (int i = 0; i < s->n; i++)
        for (int k = s->path_start[i]; k < s->path_start[i + 1]; k++) {
            int c = s->path[k];
            s->on[s->on_start[c] + fill[c]++] = i;
        }
    free(fill);
    return FL_OK;
}

static int check_requests(const FlTopology *t, const FlScheduleRequest *reqs, int n,
                          FlError *err)
{
    int hosts = fl_topology_host_count(t);
    for (int i = 0; i < n; i++) {
        int bad = reqs[i].src < 0 || reqs[i].src >= hosts ? reqs[i].src
                  : reqs[i].dst < 0 || reqs[i].dst >= hosts ? reqs[i].dst : -1;
        if (bad != -1 || reqs[i].src < 0)
            return fl_error_set(err, FL_ENOTFOUND, "request %d (host %d to %d) names host %d, "
                                "which does not exist (the network has %d hosts)", i,
                                reqs[i].src, reqs[i].dst, bad, hosts);
    }
    return FL_OK;
}

int fl_schedule_new(const FlTopology *t, const FlScheduleRequest *reqs, int n,
                    FlSchedule **out, FlError *err)
{
    const char *family = fl_topology_family(t);
    int mesh = strcmp(family, "myrinet-mesh") == 0;
    int dims[FL_MAX_DIMS] = { 0, 1 };
    if (!mesh && strcmp(family, "myrinet-line") != 0)
        return fl_error_set(err, FL_EUNSUPPORTED, "link-contention schedules need a "
                            "myrinet-line or myrinet-mesh network; this one is %s",
                            fl_topology_spec(t) ? fl_topology_spec(t) : family);
    if (n < 0)
        return fl_error_set(err, FL_EINVAL, "a request count cannot be negative (%d)", n);
    int rc = check_requests(t, reqs, n, err);
    if (rc)
        return rc;
    fl_topology_family_dims(t, dims);
    FlRouting *r = NULL;
    if ((rc = fl_routing_new(t, "myrinet-dor", NULL, &r, err)))
        return rc;
    FlSchedule *s = calloc(1, sizeof *s);
    size_t nn = (size_t)(n > 0 ? n : 1), room = (size_t)(dims[0] + dims[1]);
    if (s) {
        *s = (FlSchedule){ .t = t, .mesh = mesh, .cols = dims[0], .rows = mesh ? dims[1] : 1,
                           .n = n, .nchannels = fl_topology_channel_count(t) };
        s->reqs = malloc(nn * sizeof *s->reqs);
        s->src_x = malloc(nn * sizeof(int));
        s->src_y = malloc(nn * sizeof(int));
        s->dst_x = malloc(nn * sizeof(int));
        s->dst_y = malloc(nn * sizeof(int));
        s->path_start = calloc(nn + 1, sizeof(int));
        s->path = malloc(nn * room * sizeof(int));
    }
    if (!s || !s->reqs || !s->src_x || !s->src_y || !s->dst_x || !s->dst_y ||
        !s->path_start || !s->path) {
        fl_routing_free(r);
        fl_schedule_free(s);
        return fl_error_set(err, FL_ENOMEM, "out of memory for the paths of %d requests", n);
    }
    if (n > 0)
        memcpy(s->reqs, reqs, (size_t)n * sizeof *reqs);
    int used = 0;
    for (int i = 0; i < n && !rc; i++) {
        rc = route_one(s, r, i, &used, err);
        s->path_start[i + 1] = used;
    }
    fl_routing_free(r);
    if (!rc && index_channels(s))
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for the loads of %d requests", n);
    if (rc) {
        fl_schedule_free(s);
        return rc;
    }
    *out = s;
    return FL_OK;
}

int fl_schedule_request_count(const FlSchedule *s)
{
    return s->n;
}

FlScheduleRequest fl_schedule_request(const FlSchedule *s, int i)
{
    return i >= 0 && i < s->n ? s->reqs[i] : (FlScheduleRequest){ -1, -1 };
}

int fl_schedule_path(const FlSchedule *s, int i, const int **channels)
{
    if (i < 0 || i >= s->n)
        return -1;
    *channels = s->path + s->path_start[i];
    return s->path_start[i + 1] - s->path_start[i];
}

int fl_schedule_channel_load(const FlSchedule *s, int channel)
{
    return channel >= 0 && channel < s->nchannels ? s->load[channel] : 0;
}

int fl_schedule_l_max(const FlSchedule *s)
{
    return s->l_max;
}

/* --- the check ---------------------------------------------------------------- */

int fl_schedule_check(const FlSchedule *s, const int *colors, FlError *err)
{
    int maxc = -1;
    for (int i = 0; i < s->n; i++) {
        if (colors[i] < 0)
            return fl_error_set(err, FL_EINVAL, "request %d (host %d to %d) has no colour "
                                "(%d)", i, s->reqs[i].src, s->reqs[i].dst, colors[i]);
        if (colors[i] > maxc)
            maxc = colors[i];
    }
    /* holder[c]: the request of colour c seen last, stamp[c]: on which channel. */
    int *holder = malloc((size_t)(maxc + 2) * sizeof *holder);
    int *stamp = malloc((size_t)(maxc + 2) * sizeof *stamp);
    if (!holder || !stamp) {
        free(holder);
        free(stamp);
        return fl_error_set(err, FL_ENOMEM, "out of memory checking %d colours", maxc + 1);
    }
    for (int c = 0; c <= maxc; c++)
        stamp[c] = -1;
    int rc = FL_OK;
    for (int ch = 0; ch < s->nchannels && !rc; ch++)
        for (int k = s->on_start[ch]; k < s->on_start[ch + 1] && !rc; k++) {
            int i = s->on[k], c = colors[i];
            if (stamp[c] == ch) {
                int j = holder[c];
                const FlTopology *t = s->t;
                rc = fl_error_set(err, FL_EINVAL, "requests %d (host %d to %d) and %d (host %d "
                                  "to %d) both have colour %d on the channel from switch %d to "
                                  "switch %d", j, s->reqs[j].src, s->reqs[j].dst, i,
                                  s->reqs[i].src, s->reqs[i].dst, c,
                                  fl_topology_node_label(t, fl_topology_channel_src(t, ch)),
                                  fl_topology_node_label(t, fl_topology_channel_dst(t, ch)));
            }
            stamp[c] = ch;
            holder[c] = i;
        }
    free(holder);
    free(stamp);
    return rc;
}
