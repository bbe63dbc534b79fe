/* test-schedule.c — link-contention schedules on paper 004's Myrinet
 * clusters: request sets, row-column paths, L_max, AssignColor_Linear and
 * AssignColor_Mesh, first fit, the exact colouring and the check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "flitlab.h"
#include "tap.h"

static FlTopology *make(const char *spec)
{
    FlTopology *t = NULL;
    FlError err = { 0, "" };
    int rc = fl_topology_from_spec(spec, &t, &err);
    CHECK(rc == FL_OK, "build %s: %s", spec, err.message);
    return rc == FL_OK ? t : NULL;
}

static void host_xy(const FlTopology *t, int h, int *x, int *y)
{
    int c[FL_MAX_DIMS] = { 0 };
    fl_topology_get_coords(t, fl_topology_host_switch(t, fl_topology_host_node(t, h)), c);
    *x = c[0];
    *y = fl_topology_coord_dims(t) > 1 ? c[1] : 0;
}

/* The k-th host (0-based) attached to switch (x, y), or -1. */
static int host_at(const FlTopology *t, int x, int y, int k)
{
    for (int h = 0; h < fl_topology_host_count(t); h++) {
        int hx, hy;
        host_xy(t, h, &hx, &hy);
        if (hx == x && hy == y && k-- == 0)
            return h;
    }
    return -1;
}

/* --- request sets ---------------------------------------------------------- */

static void test_generators(void)
{
    FlTopology *t = make("myrinet-mesh:8x4"), *line = make("myrinet-line:6");
    if (!t || !line)
        return;
    int h = fl_topology_host_count(t);
    FlScheduleRequest *r = NULL, *again = NULL;
    int n = 0, n2 = 0, bad = 0;
    FlError err = { 0, "" };

    CHECK(fl_schedule_random_uniform(t, 20, 7, &r, &n, &err) == FL_OK && n == 20,
          "random uniform: 20 requests (%s)", err.message);
    int seen[64] = { 0 };
    for (int i = 0; i < n; i++) {
        bad += r[i].src < 0 || r[i].src >= h || r[i].dst < 0 || r[i].dst >= h;
        bad += r[i].src == r[i].dst || seen[r[i].src]++;
    }
    CHECK(bad == 0, "random uniform: distinct sources, no host sends to itself (%d bad)", bad);
    fl_schedule_random_uniform(t, 20, 7, &again, &n2, NULL);
    CHECK(again && n2 == n && memcmp(r, again, (size_t)n * sizeof *r) == 0,
          "random uniform: the same seed gives the same set");
    free(r);
    free(again);

    CHECK(fl_schedule_random_permutation(t, h, 3, &r, &n, &err) == FL_OK && n == h,
          "partial permutation of all %d hosts (%s)", h, err.message);
    int src_seen[64] = { 0 }, dst_seen[64] = { 0 };
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += r[i].src == r[i].dst || src_seen[r[i].src]++ || dst_seen[r[i].dst]++;
    CHECK(bad == 0, "permutation: distinct sources and destinations, no fixed point (%d)", bad);
    free(r);

    CHECK(fl_schedule_hotspot(t, 10, 5, 1.0, 1, &r, &n, &err) == FL_OK && n == 10,
          "hotspot: 10 requests (%s)", err.message);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += r[i].dst != 5 || r[i].src == 5;
    CHECK(bad == 0, "hotspot with fraction 1: every request goes to host 5");
    free(r);

    int rc = fl_schedule_top_down(t, 9, &r, &n, &err);
    CHECK(rc == FL_OK && n == 10, "top-down on 8x4: one request per top-row host, 10 (got %d; "
          "%s)", n, err.message);
    bad = 0;
    memset(dst_seen, 0, sizeof dst_seen);
    for (int i = 0; i < n; i++) {
        int sx, sy, dx, dy;
        host_xy(t, r[i].src, &sx, &sy);
        host_xy(t, r[i].dst, &dx, &dy);
        bad += sy != 0 || dy != 3 || dst_seen[r[i].dst]++;
    }
    CHECK(bad == 0, "top-down: top row to bottom row, one to one");
    free(r);

    err.message[0] = '\0';
    CHECK(fl_schedule_top_down(line, 1, &r, &n, &err) == FL_EUNSUPPORTED &&
          strstr(err.message, "myrinet-mesh"), "top-down on a line refused: %s", err.message);
    CHECK(fl_schedule_random_uniform(line, 15, 1, &r, &n, &err) == FL_ERANGE &&
          strstr(err.message, "15 requests need 15 distinct source hosts; the network has 14"),
          "more requests than hosts refused: %s", err.message);
    CHECK(fl_schedule_hotspot(line, 3, 14, 0.5, 1, &r, &n, &err) == FL_ENOTFOUND &&
          strstr(err.message, "hot spot host 14 does not exist"), "%s", err.message);
    fl_topology_free(t);
    fl_topology_free(line);
}

static void test_parse(void)
{
    FlTopology *t = make("myrinet-line:4");
    if (!t)
        return;
    FlScheduleRequest *r = NULL;
    int n = 0;
    FlError err = { 0, "" };
    CHECK(fl_schedule_parse(t, "# requests\n0 5\n\n  3\t9  # a comment\r\n9 0", &r, &n, &err)
              == FL_OK && n == 3 && r[0].src == 0 && r[0].dst == 5 && r[1].src == 3 &&
              r[1].dst == 9 && r[2].src == 9 && r[2].dst == 0,
          "parse: three requests, comments and blank lines skipped (%s)", err.message);
    free(r);
    static const struct {
        const char *text, *expect;
    } bad[] = {
        { "0 1\n2 3\n4\n", "line 3: expected two host numbers 'src dst', got '4'" },
        { "0 1\n1 10\n", "line 2: host 10 does not exist (the network has 10 hosts, 0 to 9)" },
        { "7 7\n", "line 1: host 7 sends to itself" },
        { "0 1 2\n", "line 1: expected two host numbers" },
        { "a b\n", "line 1: expected two host numbers" },
        { "-1 2\n", "line 1: expected two host numbers" },
        { "0 99999999999999999999\n", "line 1: expected two host numbers" },
        { "0 1\n1 \033[2J\n", "line 2: expected two host numbers 'src dst', got '1 ?[2J'" },
        { "# requests\n\n   \n# none yet\n", "line 4: no request: every line is blank or a "
          "comment (a request is a line 'src dst')" },
        { "", "line 1: no request: every line is blank or a comment" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = NULL;
        err.message[0] = '\0';
        int rc = fl_schedule_parse(t, bad[i].text, &r, &n, &err);
        CHECK(rc == FL_EPARSE && !r && strstr(err.message, bad[i].expect),
              "parse refuses %zu: \"%s\"", i, err.message);
    }

    char comment[400];
    snprintf(comment, sizeof comment, "  2 3 # %300s\n", "a comment longer than a pair may be");
    CHECK(fl_schedule_parse(t, comment, &r, &n, &err) == FL_OK && n == 1 && r[0].dst == 3,
          "parse: a long comment after a pair is no part of it (%s)", err.message);
    free(r);
    r = NULL;
    snprintf(comment, sizeof comment, "0 1\n0%300s\n", "1");
    CHECK(fl_schedule_parse(t, comment, &r, &n, &err) == FL_EPARSE && !r
              && strcmp(err.message, "line 2: 301 characters where two host numbers 'src dst' "
                        "were expected") == 0,
          "parse refuses a pair too long to be one: %s", err.message);

    char path[] = "/tmp/flitlab-schedule-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) {
        fputs("1 2\n2 1\n", f);
        fclose(f);
    }
    CHECK(f && fl_schedule_read_file(t, path, &r, &n, &err) == FL_OK && n == 2 && r[1].src == 2,
          "read_file: two requests (%s)", err.message);
    free(r);
    r = NULL;
    f = fopen(path, "wb");
    if (f) {
        fwrite("1 2\n2 1\n\0003 4\n", 1, 13, f);
        fclose(f);
    }
    CHECK(f && fl_schedule_read_file(t, path, &r, &n, &err) == FL_EPARSE && !r
              && strcmp(err.message, "line 3: a NUL byte: not a text file") == 0,
          "read_file refuses a NUL byte, not the requests before it alone: %s", err.message);
    remove(path);
    if (access("/dev/zero", R_OK) == 0)
        CHECK(fl_schedule_read_file(t, "/dev/zero", &r, &n, &err) == FL_EPARSE && !r
                  && strcmp(err.message, "line 1: a NUL byte: not a text file") == 0,
              "read_file stops reading /dev/zero at its first block: %s", err.message);
    CHECK(fl_schedule_read_file(t, "/nonexistent/requests.txt", &r, &n, &err) == FL_EIO &&
          strstr(err.message, "/nonexistent/requests.txt"), "read_file refuses: %s",
          err.message);
    fl_topology_free(t);
}

/* --- paths and loads --------------------------------------------------------- */

static void test_paths(void)
{
    FlTopology *t = make("myrinet-mesh:5x4");
    if (!t)
        return;
    int h = fl_topology_host_count(t), n = h * (h - 1), k = 0;
    FlScheduleRequest *all = malloc((size_t)n * sizeof *all);
    for (int a = 0; a < h; a++)
        for (int b = 0; b < h; b++)
            if (a != b)
                all[k++] = (FlScheduleRequest){ a, b };
    FlSchedule *s = NULL;
    FlError err = { 0, "" };
    CHECK(fl_schedule_new(t, all, n, &s, &err) == FL_OK, "all %d pairs routed (%s)", n,
          err.message);
    int bad = 0, *load = calloc((size_t)fl_topology_channel_count(t), sizeof *load);
    for (int i = 0; s && i < n; i++) {
        int sx, sy, dx, dy, turned = 0;
        host_xy(t, all[i].src, &sx, &sy);
        host_xy(t, all[i].dst, &dx, &dy);
        const int *ch;
        int len = fl_schedule_path(s, i, &ch);
        bad += len != abs(dx - sx) + abs(dy - sy);
        int x = sx, y = sy;
        for (int j = 0; j < len; j++) {
            int c0[FL_MAX_DIMS], c1[FL_MAX_DIMS];
            fl_topology_get_coords(t, fl_topology_channel_src(t, ch[j]), c0);
            fl_topology_get_coords(t, fl_topology_channel_dst(t, ch[j]), c1);
            int vertical = c0[1] != c1[1];
            bad += c0[0] != x || c0[1] != y || (turned && !vertical);
            turned |= vertical;
            x = c1[0];
            y = c1[1];
            load[ch[j]]++;
        }
        bad += x != dx || y != dy;
    }
    int lmax = 0, load_bad = 0;
    for (int c = 0; s && c < fl_topology_channel_count(t); c++) {
        lmax = load[c] > lmax ? load[c] : lmax;
        load_bad += fl_schedule_channel_load(s, c) != load[c];
    }
    CHECK(bad == 0, "every path goes along the source's row, then the destination's column, "
          "switch to switch (%d wrong)", bad);
    CHECK(s && load_bad == 0 && fl_schedule_l_max(s) == lmax && lmax > 1,
          "channel loads and L_max (%d) agree with a count of the paths", lmax);
    fl_schedule_free(s);
    free(load);

    s = NULL;
    FlScheduleRequest missing[] = { { 0, 1 }, { 3, h } };
    CHECK(fl_schedule_new(t, missing, 2, &s, &err) == FL_ENOTFOUND && !s &&
          strstr(err.message, "request 1 (host 3 to 18) names host 18, which does not exist"),
          "a missing host refused: %s", err.message);
    FlTopology *torus = make("torus:4x4");
    CHECK(torus && fl_schedule_new(torus, all, 2, &s, &err) == FL_EUNSUPPORTED &&
          strstr(err.message, "myrinet-line or myrinet-mesh network; this one is torus:4x4"),
          "a torus refused: %s", err.message);
    fl_topology_free(torus);
    free(all);
    fl_topology_free(t);
}

/* --- colourings -------------------------------------------------------------- */

typedef struct Tally {
    int sets, valid, at_lmax, within, exact_ok, exact_run, over_lmax;
} Tally;

/* Colours reqs on t with every algorithm (exact for small sets) and counts
 * what holds. */
static void color_all(FlTopology *t, const FlScheduleRequest *reqs, int n, int mesh,
                      Tally *tally)
{
    FlSchedule *s = NULL;
    if (fl_schedule_new(t, reqs, n, &s, NULL))
        return;
    int *c = malloc((size_t)(n + 1) * sizeof *c);
    int lmax = fl_schedule_l_max(s), ka = 0, kg = 0, ke = 0, ok = 1;
    ok &= fl_schedule_color(s, FL_SCHEDULE_ASSIGNCOLOR, c, &ka, NULL) == FL_OK;
    ok &= fl_schedule_check(s, c, NULL) == FL_OK;
    ok &= fl_schedule_color(s, FL_SCHEDULE_GREEDY, c, &kg, NULL) == FL_OK;
    ok &= fl_schedule_check(s, c, NULL) == FL_OK && kg >= lmax;
    tally->sets++;
    tally->valid += ok;
    tally->at_lmax += ka == lmax;
    tally->over_lmax += ka > lmax;
    tally->within += mesh ? ka <= 3 * lmax / 2 : ka == lmax;
    if (n <= 24) {
        int rc = fl_schedule_color(s, FL_SCHEDULE_EXACT, c, &ke, NULL);
        tally->exact_run++;
        tally->exact_ok += rc == FL_OK && fl_schedule_check(s, c, NULL) == FL_OK &&
                           ke <= ka && ke <= kg && ke >= lmax && (mesh || ke == lmax);
    } else {
        tally->exact_ok++;
    }
    free(c);
    fl_schedule_free(s);
}

typedef int (*GenFunc)(const FlTopology *t, int k, uint64_t seed, FlScheduleRequest **out,
                       int *n, FlError *err);

static void sweep(const char *family, int mesh, Tally *tally)
{
    static const int sizes[][2] = { { 2, 2 }, { 3, 3 }, { 4, 8 }, { 8, 4 }, { 5, 7 },
                                    { 6, 6 }, { 12, 3 }, { 2, 9 } };
    for (int z = 0; z < 8; z++) {
        char spec[48];
        if (mesh)
            snprintf(spec, sizeof spec, "%s:%dx%d", family, sizes[z][0], sizes[z][1]);
        else
            snprintf(spec, sizeof spec, "%s:%d", family, sizes[z][0] + sizes[z][1]);
        FlTopology *t = make(spec);
        if (!t)
            continue;
        int h = fl_topology_host_count(t);
        for (uint64_t seed = 1; seed <= 40; seed++) {
            FlScheduleRequest *r = NULL;
            int n = 0, k = (int)(seed % 4 == 0 ? (uint64_t)h : 2 + seed * 7 % (uint64_t)h);
            GenFunc gen = seed % 2 ? fl_schedule_random_uniform : fl_schedule_random_permutation;
            if (k > h)
                k = h;
            if (gen(t, k, seed, &r, &n, NULL) == FL_OK)
                color_all(t, r, n, mesh, tally);
            free(r);
            r = NULL;
            if (fl_schedule_hotspot(t, h / 2, (int)(seed % (uint64_t)h), 0.5, seed, &r, &n,
                                    NULL) == FL_OK)
                color_all(t, r, n, mesh, tally);
            free(r);
            r = NULL;
            if (mesh && seed <= 5 && fl_schedule_top_down(t, seed, &r, &n, NULL) == FL_OK)
                color_all(t, r, n, mesh, tally);
            free(r);
        }
        fl_topology_free(t);
    }
}

/* Linear arrays: exactly L_max colours; meshes: at most floor(3/2 L_max);
 * every colouring valid; the exact one never above the heuristics. */
static void test_sweeps(void)
{
    static const char *const families[2] = { "myrinet-line", "myrinet-mesh" };
    static const char *const bounds[2] = { "exactly L_max", "within floor(3/2 L_max)" };
    for (int mesh = 0; mesh < 2; mesh++) {
        Tally tl = { 0 };
        const char *f = families[mesh];
        sweep(f, mesh, &tl);
        CHECK(tl.sets > 500 && tl.valid == tl.sets, "%s: %d of %d sets coloured validly by "
              "every algorithm", f, tl.valid, tl.sets);
        CHECK(tl.within == tl.sets, "%s: AssignColor uses %s colours on %d of %d sets (%d at "
              "L_max, %d above)", f, bounds[mesh], tl.within, tl.sets, tl.at_lmax,
              tl.over_lmax);
        CHECK(tl.exact_ok == tl.sets && tl.exact_run > 100, "%s: the exact colouring (run on "
              "%d sets) is valid, at least L_max, never above the heuristics%s (%d of %d)", f,
              tl.exact_run, mesh ? "" : ", and equals L_max", tl.exact_ok, tl.sets);
    }
}

/* Sets that load the top row, where AssignColor_Mesh can need more than
 * L_max: about three quarters of the top row's hosts and a third of the
 * inner rows' boundary hosts each send once, to random hosts. */
static void test_top_heavy(void)
{
    static const char *const specs[] = { "myrinet-mesh:8x2", "myrinet-mesh:10x4",
                                         "myrinet-mesh:6x6", "myrinet-mesh:16x3" };
    int sets = 0, bad = 0, over = 0, exact_over = 0, exact_bad = 0;
    for (int z = 0; z < 4; z++) {
        FlTopology *t = make(specs[z]);
        int h = t ? fl_topology_host_count(t) : 0;
        FlScheduleRequest r[64];
        for (uint64_t seed = 1; seed <= 1500; seed++) {
            FlRng rng;
            fl_rng_seed(&rng, seed * 131 + (uint64_t)z);
            int n = 0;
            for (int i = 0; i < h && n < 64; i++) {
                int x, y;
                host_xy(t, i, &x, &y);
                if (fl_rng_below(&rng, y == 0 ? 4 : 3) != 0)
                    continue;
                int d = (int)fl_rng_below(&rng, (uint32_t)h - 1);
                r[n++] = (FlScheduleRequest){ i, d >= i ? d + 1 : d };
            }
            FlSchedule *s = NULL;
            if (fl_schedule_new(t, r, n, &s, NULL))
                continue;
            int c[64], ka = 0, ke = 0, lmax = fl_schedule_l_max(s);
            sets++;
            bad += fl_schedule_color(s, FL_SCHEDULE_ASSIGNCOLOR, c, &ka, NULL) != FL_OK ||
                   fl_schedule_check(s, c, NULL) != FL_OK || ka > 3 * lmax / 2;
            over += ka > lmax;
            exact_bad += fl_schedule_color(s, FL_SCHEDULE_EXACT, c, &ke, NULL) != FL_OK ||
                         fl_schedule_check(s, c, NULL) != FL_OK || ke > ka || ke < lmax;
            exact_over += ke > lmax;
            fl_schedule_free(s);
        }
        fl_topology_free(t);
    }
    CHECK(sets == 6000 && bad == 0, "top-heavy mesh sets: AssignColor_Mesh valid and within "
          "floor(3/2 L_max) on all %d (%d bad; above L_max on %d)", sets, bad, over);
    CHECK(exact_bad == 0 && over > 0, "top-heavy mesh sets: the exact colouring valid and "
          "never above AssignColor_Mesh (%d bad); it needs more than L_max on %d", exact_bad,
          exact_over);
}

/* Paper 004 Fig 4 on the 4 x 8 mesh (4 rows, 8 columns: myrinet-mesh:8x4),
 * rebuilt from the text: five top-row paths, L_max = 2, each sharing a
 * link with the next and P5 with P1 (an odd cycle, so 3 colours), and
 * coloured in order P1..P5 with colours 1, 2, 1, 2, 3 as the text tells. */
static void test_fig4(void)
{
    FlTopology *t = make("myrinet-mesh:8x4");
    if (!t)
        return;
    FlScheduleRequest p[5] = {
        { host_at(t, 2, 0, 0), host_at(t, 4, 3, 0) },  /* P1: right 2..4, down column 4 */
        { host_at(t, 6, 0, 0), host_at(t, 4, 3, 0) },  /* P2: left 6..4, down column 4 */
        { host_at(t, 5, 0, 0), host_at(t, 2, 3, 0) },  /* P3: left 5..2, down column 2 */
        { host_at(t, 0, 0, 0), host_at(t, 2, 3, 0) },  /* P4: right 0..2, down column 2 */
        { host_at(t, 1, 0, 0), host_at(t, 3, 0, 0) },  /* P5: right 1..3 along row 0 */
    };
    FlSchedule *s = NULL;
    FlError err = { 0, "" };
    if (fl_schedule_new(t, p, 5, &s, &err)) {
        CHECK(0, "Fig 4 set: %s", err.message);
        fl_topology_free(t);
        return;
    }
    int c[5] = { -1, -1, -1, -1, -1 }, k = 0;
    CHECK_INT(fl_schedule_l_max(s), 2);
    /* Each call before its CHECK: the message's arguments are read before
     * the condition runs. */
    int rc = fl_schedule_color(s, FL_SCHEDULE_GREEDY, c, &k, NULL);
    CHECK(rc == FL_OK && k == 3 && c[0] == 0 && c[1] == 1 && c[2] == 0 && c[3] == 1 &&
          c[4] == 2, "Fig 4 coloured in order: 1, 2, 1, 2, 3 as in the text (got %d %d %d "
          "%d %d)", c[0] + 1, c[1] + 1, c[2] + 1, c[3] + 1, c[4] + 1);
    rc = fl_schedule_color(s, FL_SCHEDULE_EXACT, c, &k, NULL);
    CHECK(rc == FL_OK && k == 3 && fl_schedule_check(s, c, NULL) == FL_OK,
          "Fig 4 needs 3 colours (exact: %d)", k);
    rc = fl_schedule_color(s, FL_SCHEDULE_ASSIGNCOLOR, c, &k, NULL);
    CHECK(rc == FL_OK && k == 3 && fl_schedule_check(s, c, NULL) == FL_OK,
          "AssignColor_Mesh: 3 = 3/2 L_max (%d)", k);
    int same[5] = { 0, 0, 0, 0, 0 };
    CHECK(fl_schedule_check(s, same, &err) == FL_EINVAL &&
          strstr(err.message, "both have colour 0 on the channel from switch"),
          "one colour for all is refused: %s", err.message);
    fl_schedule_free(s);
    fl_topology_free(t);
}

/* The LD rule as printed (avoid C(L) ∪ C(D) ∪ C(LT)) on two requests that
 * turn down into one column of row 0, one from the left (RD, coloured at
 * its start) and one from the right (LD): neither L, D nor LT holds a
 * colour there, so the printed rule gives LD Color_1 (0 here) beside RD's
 * on the same downward link. The corrected rule (which also avoids C(RD))
 * and the check see it. */
static void test_printed_ld_rule(void)
{
    FlTopology *t = make("myrinet-mesh:6x3");
    if (!t)
        return;
    FlScheduleRequest p[2] = {
        { host_at(t, 1, 0, 0), host_at(t, 3, 2, 0) },  /* RD at column 3 */
        { host_at(t, 5, 0, 0), host_at(t, 3, 2, 0) },  /* LD at column 3 */
    };
    FlSchedule *s = NULL;
    FlError err = { 0, "" };
    int printed[2] = { 0, 0 }, c[2] = { -1, -1 }, k = 0;
    if (fl_schedule_new(t, p, 2, &s, NULL) == FL_OK) {
        int rc = fl_schedule_check(s, printed, &err);
        CHECK(rc == FL_EINVAL && strstr(err.message, "both have colour 0"),
              "the printed LD rule's colouring is refused: %s", err.message);
        rc = fl_schedule_assign_color_mesh(s, c, &k, NULL);
        CHECK(rc == FL_OK && k == 2 && c[0] == 0 && c[1] == 1 &&
              fl_schedule_check(s, c, NULL) == FL_OK,
              "the corrected rule gives LD the next colour (%d, %d)", c[0], c[1]);
    }
    fl_schedule_free(s);
    fl_topology_free(t);
}

static void test_refusals(void)
{
    FlTopology *line = make("myrinet-line:4"), *mesh = make("myrinet-mesh:3x3");
    FlScheduleRequest r[1] = { { 0, 1 } };
    FlSchedule *sl = NULL, *sm = NULL;
    FlError err = { 0, "" };
    int c[1], k;
    if (line && mesh && !fl_schedule_new(line, r, 1, &sl, NULL) &&
        !fl_schedule_new(mesh, r, 1, &sm, NULL)) {
        CHECK(fl_schedule_assign_color_mesh(sl, c, &k, &err) == FL_EUNSUPPORTED &&
              strstr(err.message, "AssignColor_Mesh needs a myrinet-mesh"), "%s", err.message);
        CHECK(fl_schedule_assign_color_linear(sm, c, &k, &err) == FL_EUNSUPPORTED &&
              strstr(err.message, "AssignColor_Linear needs a myrinet-line"), "%s",
              err.message);
    }
    /* An empty set takes no colour; the exact colouring refuses a large one. */
    FlSchedule *empty = NULL, *big = NULL;
    FlScheduleRequest *many = NULL;
    int n = 0, ok = line && fl_schedule_new(line, NULL, 0, &empty, NULL) == FL_OK;
    for (int a = 0; ok && a < FL_SCHEDULE_ALGO_COUNT; a++) {
        k = -1;
        ok = fl_schedule_color(empty, (FlScheduleAlgo)a, c, &k, NULL) == FL_OK && k == 0 &&
             fl_schedule_check(empty, c, NULL) == FL_OK && fl_schedule_l_max(empty) == 0;
    }
    CHECK(ok, "an empty request set: L_max 0, no colours, valid");
    FlTopology *wide = make("myrinet-line:200");
    int rc = wide ? fl_schedule_random_uniform(wide, 300, 2, &many, &n, NULL) : -1;
    if (!rc)
        rc = fl_schedule_new(wide, many, n, &big, NULL);
    int *colors = malloc(300 * sizeof *colors);
    rc = rc ? rc : fl_schedule_color(big, FL_SCHEDULE_EXACT, colors, &k, &err);
    CHECK(rc == FL_ERANGE && strstr(err.message, "the exact colouring takes at most 256 "
          "requests; this set has 300"), "exact refuses 300 requests: %s", err.message);
    free(colors);
    free(many);
    fl_schedule_free(big);
    fl_schedule_free(empty);
    fl_topology_free(wide);
    CHECK(fl_schedule_algo_lookup("assigncolor") == FL_SCHEDULE_ASSIGNCOLOR &&
          fl_schedule_algo_lookup("exact") == FL_SCHEDULE_EXACT &&
          fl_schedule_algo_lookup("greedy") == FL_SCHEDULE_GREEDY &&
          fl_schedule_algo_lookup("dsatur") == -1 &&
          strcmp(fl_schedule_algo_name(FL_SCHEDULE_EXACT), "exact") == 0,
          "algorithm names");
    fl_schedule_free(sl);
    fl_schedule_free(sm);
    fl_topology_free(line);
    fl_topology_free(mesh);
}

/* Cycles until every listed request (one 16-flit packet each, injected at
 * cycle 0 on an idle network) has arrived; -1 on failure. */
static int64_t run_phase(const FlTopology *t, const FlRouting *routing,
                         const FlScheduleRequest *reqs, const int *which, int n)
{
    FlSimConfig cfg;
    fl_sim_config_init(&cfg);
    cfg.routing = routing;
    cfg.traffic.rate = 0.0;
    FlSim *sim = NULL;
    if (fl_sim_new(t, &cfg, &sim, NULL))
        return -1;
    for (int i = 0; i < n; i++)
        fl_sim_inject(sim, reqs[which[i]].src, reqs[which[i]].dst, 16, NULL, NULL);
    FlSimCounters k = { 0 };
    int64_t cycles = -1;
    for (int64_t c = 0; c < 5000; c++) {
        fl_sim_step(sim, 1, NULL, NULL);
        fl_sim_counters(sim, &k);
        if (k.packets_delivered == n) {
            cycles = k.cycle;
            break;
        }
    }
    fl_sim_free(sim);
    return cycles;
}

static int stop_now(void *data, double fraction)
{
    (void)data;
    (void)fraction;
    return 1;
}

/* Each colour class run as a phase in the flit-level simulator: no packet
 * of a phase waits for another, so the phase takes exactly as long as its
 * slowest packet alone. The whole set at once takes longer than any packet
 * alone (they contend), though less than the phases one after another:
 * wormhole pipelining overlaps what the slot model of the paper does not. */
static void test_phases(void)
{
    FlTopology *t = make("myrinet-mesh:6x4");
    FlRouting *routing = NULL;
    FlScheduleRequest *r = NULL;
    FlSchedule *s = NULL;
    int n = 0, k = 0, colors[64], which[64], bad = 0;
    if (!t || fl_routing_new(t, "myrinet-dor", NULL, &routing, NULL) ||
        fl_schedule_random_permutation(t, fl_topology_host_count(t), 5, &r, &n, NULL) ||
        fl_schedule_new(t, r, n, &s, NULL) ||
        fl_schedule_color(s, FL_SCHEDULE_ASSIGNCOLOR, colors, &k, NULL)) {
        CHECK(0, "phases: a colouring to run");
    } else {
        int64_t alone[64], total = 0;
        for (int i = 0; i < n; i++)
            alone[i] = run_phase(t, routing, r, &i, 1);
        for (int c = 0; c < k; c++) {
            int m = 0;
            int64_t slowest = 0;
            for (int i = 0; i < n; i++)
                if (colors[i] == c) {
                    which[m++] = i;
                    slowest = alone[i] > slowest ? alone[i] : slowest;
                }
            int64_t phase = run_phase(t, routing, r, which, m);
            bad += phase != slowest || slowest <= 0;
            total += phase;
        }
        for (int i = 0; i < n; i++)
            which[i] = i;
        int64_t at_once = run_phase(t, routing, r, which, n), slowest_alone = 0;
        for (int i = 0; i < n; i++)
            slowest_alone = alone[i] > slowest_alone ? alone[i] : slowest_alone;
        CHECK(at_once > slowest_alone, "phases: all %d requests at once take %lld cycles, more "
              "than the slowest alone (%lld): they contend", n, (long long)at_once,
              (long long)slowest_alone);
        CHECK(bad == 0, "phases: each of the %d colour classes (L_max %d) runs in the "
              "simulator as fast as its slowest packet alone (%d classes differ)", k,
              fl_schedule_l_max(s), bad);
        /* The engine's phase runner agrees with the phases run by hand,
         * finds no request delayed, and finds delays when everything is
         * one colour. */
        FlSimConfig cfg;
        fl_sim_config_init(&cfg);
        cfg.routing = routing;
        cfg.traffic.rate = 0.0;
        FlSim *sim = NULL;
        FlSchedulePhase phases[64], one;
        int same = 0, delayed = 0, zeros[64] = { 0 };
        FlError err;
        if (fl_sim_new(t, &cfg, &sim, &err)
            || fl_schedule_run(sim, s, colors, k, 16, 0, NULL, NULL, phases, &err)) {
            CHECK(0, "fl_schedule_run: %s", err.message);
        } else {
            for (int c = 0; c < k; c++) {
                int m = 0;
                for (int i = 0; i < n; i++)
                    if (colors[i] == c)
                        which[m++] = i;
                same += phases[c].requests == m && phases[c].start == (c ? phases[c - 1].end : 0)
                        && phases[c].end - phases[c].start == run_phase(t, routing, r, which, m);
                delayed += phases[c].delayed;
            }
            CHECK(same == k && delayed == 0, "fl_schedule_run: %d phases as run by hand (%d "
                  "agree), no request delayed (%d)", k, same, delayed);
        }
        fl_sim_free(sim);
        sim = NULL;
        if (fl_sim_new(t, &cfg, &sim, &err)
            || fl_schedule_run(sim, s, zeros, 1, 16, 0, NULL, NULL, &one, &err)) {
            CHECK(0, "fl_schedule_run, one colour: %s", err.message);
        } else {
            CHECK(one.requests == n && one.delayed > 0 && one.max_delay > 0,
                  "fl_schedule_run: all %d requests in one phase, %d delayed (by up to %lld "
                  "cycles)", n, one.delayed, (long long)one.max_delay);
            FlSchedulePhase bad_phase;
            zeros[0] = 1;
            CHECK(fl_schedule_run(sim, s, zeros, 1, 16, 0, NULL, NULL, &bad_phase, &err)
                      == FL_EINVAL,
                  "fl_schedule_run refuses a colour out of range: %s", err.message);
            zeros[0] = 0;
            CHECK(fl_schedule_run(sim, s, zeros, 1, 16, 10, NULL, NULL, &bad_phase, &err)
                      == FL_ERANGE,
                  "fl_schedule_run stops at its cycle limit: %s", err.message);
            CHECK(fl_schedule_run(sim, s, zeros, 1, 16, 0, stop_now, NULL, &bad_phase, &err)
                      == FL_ECANCELLED,
                  "fl_schedule_run stops when its progress asks: %s", err.message);
        }
        fl_sim_free(sim);
        printf("# myrinet-mesh:6x4, %d requests of 16 flits: %d phases in %lld cycles in all; "
               "all at once %lld cycles\n", n, k, (long long)total, (long long)at_once);
    }
    fl_schedule_free(s);
    free(r);
    fl_routing_free(routing);
    fl_topology_free(t);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 1000 requests on a large mesh and a long line: printed, not asserted. */
static void test_speed(void)
{
    static const char *const specs[] = { "myrinet-mesh:250x250", "myrinet-line:500" };
    for (int i = 0; i < 2; i++) {
        FlTopology *t = make(specs[i]);
        FlScheduleRequest *r = NULL;
        FlSchedule *s = NULL;
        int n = 0, k = 0;
        if (!t || fl_schedule_random_uniform(t, 1000, 11, &r, &n, NULL) ||
            fl_schedule_new(t, r, n, &s, NULL)) {
            CHECK(0, "1000 requests on %s", specs[i]);
            free(r);
            fl_topology_free(t);
            continue;
        }
        int *c = malloc((size_t)n * sizeof *c);
        double t0 = seconds();
        int rc = fl_schedule_color(s, FL_SCHEDULE_ASSIGNCOLOR, c, &k, NULL);
        double dt = seconds() - t0;
        CHECK(rc == FL_OK && fl_schedule_check(s, c, NULL) == FL_OK,
              "%s: 1000 requests, L_max %d, AssignColor %d colours, valid", specs[i],
              fl_schedule_l_max(s), k);
        printf("# %s: 1000 requests coloured by AssignColor in %.3f ms (L_max %d, %d "
               "colours)\n", specs[i], dt * 1e3, fl_schedule_l_max(s), k);
        free(c);
        free(r);
        fl_schedule_free(s);
        fl_topology_free(t);
    }
}

int main(void)
{
    test_generators();
    test_parse();
    test_paths();
    test_fig4();
    test_sweeps();
    test_top_heavy();
    test_printed_ld_rule();
    test_refusals();
    test_phases();
    test_speed();
    return tap_done();
}
