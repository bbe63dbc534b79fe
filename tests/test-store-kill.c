/* test-store-kill.c — SIGKILL in the middle of saving a project.
 *
 * A child saves a project to the same path again and again, alternating
 * between two contents A and B; the parent kills it after a pseudo-random
 * delay and opens the file. Whatever moment the kill hit, the file must
 * open, pass SQLite's integrity check and hold exactly A or exactly B.
 * Nothing here asserts on timing: the delays only spread the kills over
 * the save cycle, and how many landed mid-save is reported as a comment.
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "fixture.h"
#include "flitlab-store.h"
#include "tap.h"

#define ROUNDS 25

static char path[128];

/* FNV-1a over everything a project stores for a topology, so that the
 * parent can tell A from B from anything else without keeping copies. */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t fingerprint(const FlTopology *t)
{
    uint64_t h = 0xcbf29ce484222325ull;
    int counts[3] = {fl_topology_node_count(t), fl_topology_link_count(t),
                     fl_topology_coord_dims(t)};
    h = hash_bytes(h, counts, sizeof counts);
    for (int n = 0; n < counts[0]; n++) {
        int node[2 + FL_MAX_DIMS] = {fl_topology_node_kind(t, n), fl_topology_node_ports(t, n)};
        double xy[2];
        fl_topology_get_coords(t, n, node + 2);
        fl_topology_get_position(t, n, &xy[0], &xy[1]);
        h = hash_bytes(h, node, sizeof node);
        h = hash_bytes(h, xy, sizeof xy);
    }
    for (int l = 0; l < counts[1]; l++) {
        int e[4];
        fl_topology_link_ends(t, l, &e[0], &e[1], &e[2], &e[3]);
        h = hash_bytes(h, e, sizeof e);
    }
    const char *spec = fl_topology_spec(t);
    h = hash_bytes(h, fl_topology_family(t), strlen(fl_topology_family(t)));
    return hash_bytes(h, spec ? spec : "", spec ? strlen(spec) : 0);
}

/* A ring of `switches` switches, each with `hosts` hosts, positions
 * scattered by seed: big enough that saving takes some milliseconds. */
static FlTopology *build_ring(int switches, int hosts, unsigned seed)
{
    FlTopology *t = fl_topology_new();
    fl_topology_set_coord_dims(t, 1);
    for (int s = 0; s < switches; s++) {
        fl_topology_add_node(t, FL_NODE_SWITCH, 2 + hosts, NULL, NULL);
        fl_topology_set_coords(t, s, &s);
    }
    for (int s = 0; s < switches; s++) {
        fl_topology_connect(t, s, 0, (s + 1) % switches, 1, NULL, NULL);
        for (int h = 0; h < hosts; h++) {
            int id;
            fl_topology_add_node(t, FL_NODE_HOST, 1, &id, NULL);
            fl_topology_connect(t, s, 2 + h, id, 0, NULL, NULL);
        }
    }
    for (int n = 0; n < fl_topology_node_count(t); n++) {
        seed = seed * 1103515245u + 12345u;
        fl_topology_set_position(t, n, n, (seed >> 8) / 65536.0);
    }
    int dims[1] = {switches};
    char spec[32];
    snprintf(spec, sizeof spec, "ring:%d,hosts=%d", switches, hosts);
    fl_topology_set_family(t, "ring", 1, dims, spec);
    return t;
}

/* A project holding one topology under name. */
static FlProject *project_with(const char *name, const FlTopology *t)
{
    FlProject *p = NULL;
    FlError err;
    if (fl_project_new(&p, &err) || fl_project_put_topology(p, name, t, 0, &err)) {
        fprintf(stderr, "cannot build project %s: %s\n", name, err.message);
        exit(99);
    }
    return p;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int count_temps(void)
{
    DIR *d = opendir(test_dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        n += strncmp(e->d_name, ".k.flitlab-", 11) == 0;
    if (d)
        closedir(d);
    return n;
}

/* SQLite's full integrity check, straight on the file. */
static int integrity_ok(void)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int ok = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK
             && sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK
             && sqlite3_step(st) == SQLITE_ROW
             && strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ok;
}

/* The child: build its own projects (SQLite handles must not cross a
 * fork), signal readiness, then save A, B, A, B... until killed. */
static void saver(int ready_fd, const FlTopology *ta, const FlTopology *tb)
{
    FlProject *a = project_with("alpha", ta), *b = project_with("beta", tb);
    FlError err;
    if (write(ready_fd, "r", 1) != 1)
        _exit(2);
    for (;;)
        if (fl_project_save_as(a, path, &err) || fl_project_save_as(b, path, &err)) {
            fprintf(stderr, "child: %s\n", err.message);
            _exit(3);
        }
}

/* Which content the file holds: 'A', 'B', or '?' (with a reason). */
static char file_content(const uint64_t want[2], char *why, size_t size)
{
    static const char *const names[2] = {"alpha", "beta"};
    FlProject *p = NULL;
    FlProjectTopologyInfo *items = NULL;
    FlTopology *t = NULL;
    FlError err;
    int n = 0;
    char verdict = '?';
    if (fl_project_open(path, &p, &err) || fl_project_list_topologies(p, &items, &n, &err)) {
        snprintf(why, size, "%s", err.message);
        goto out;
    }
    if (n != 1) {
        snprintf(why, size, "%d topologies", n);
        goto out;
    }
    for (int k = 0; k < 2; k++) {
        if (strcmp(items[0].name, names[k]) != 0)
            continue;
        if (fl_project_get_topology(p, names[k], &t, &err))
            snprintf(why, size, "%s", err.message);
        else if (fingerprint(t) != want[k])
            snprintf(why, size, "'%s' differs from what was saved", names[k]);
        else
            verdict = (char)('A' + k);
    }
    if (verdict == '?' && !why[0])
        snprintf(why, size, "unexpected topology '%s'", items[0].name);
out:
    fl_topology_free(t);
    fl_project_topology_info_free(items, n);
    fl_project_free(p);
    return verdict;
}

int main(void)
{
    if (!test_dir_make("flitlab-kill"))
        return 99;
    snprintf(path, sizeof path, "%s/k.flitlab", test_dir);

    FlTopology *ta = build_ring(1500, 1, 1), *tb = build_ring(1000, 3, 2);
    const uint64_t want[2] = {fingerprint(ta), fingerprint(tb)};
    CHECK(want[0] != want[1], "A and B differ");

    /* The file starts as A; one A-B cycle, timed here, scales the delays. */
    FlProject *a = project_with("alpha", ta), *b = project_with("beta", tb);
    FlError err;
    double t0 = now_ms();
    int rc = fl_project_save_as(b, path, &err) || fl_project_save_as(a, path, &err);
    double cycle = now_ms() - t0;
    CHECK(rc == 0, "the first saves work: %s", rc ? err.message : "ok");
    printf("# one A-B save cycle: %.1f ms\n", cycle);

    uint64_t rng = 0x2545F4914F6CDD1Dull;
    int seen[2] = {0, 0}, mid_save = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int fds[2];
        char byte;
        if (pipe(fds) != 0) {
            perror("pipe");
            return 99;
        }
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            saver(fds[1], ta, tb);
        }
        close(fds[1]);
        if (pid < 0 || read(fds[0], &byte, 1) != 1) {
            perror("fork");
            return 99;
        }
        close(fds[0]);

        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        double delay_ms = (double)(rng % 1000) / 1000.0 * 2.0 * cycle;
        struct timespec ts = {(time_t)(delay_ms / 1e3),
                              (long)((delay_ms - 1e3 * (time_t)(delay_ms / 1e3)) * 1e6)};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
              "round %d: the child was still saving when killed (status %d)", round, status);

        mid_save += count_temps() > 0;
        CHECK(integrity_ok(), "round %d: the file passes integrity_check", round);
        char why[FL_ERROR_MESSAGE_MAX] = "";
        char got = file_content(want, why, sizeof why);
        CHECK(got == 'A' || got == 'B', "round %d (kill after %.2f ms): the file holds %c %s",
              round, delay_ms, got, why);
        if (got != '?')
            seen[got - 'A']++;
    }
    printf("# %d rounds: file held A %d times, B %d times; %d kills left a temporary file\n",
           ROUNDS, seen[0], seen[1], mid_save);

    /* The next save removes what the killed saves left behind. */
    CHECK_INT(fl_project_save_as(a, path, &err), FL_OK);
    CHECK_INT(count_temps(), 0);
    char why[FL_ERROR_MESSAGE_MAX] = "";
    CHECK(file_content(want, why, sizeof why) == 'A', "the final save wrote A %s", why);

    fl_project_free(a);
    fl_project_free(b);
    fl_topology_free(ta);
    fl_topology_free(tb);
    unlink(path);
    rmdir(test_dir);
    return tap_done();
}
