/* test-store-claims.c — runs in progress in the project's journal: a claim
 * counts while its process lives, another host's always, a dead process's
 * never (and is replaced by a new claim); committing the run deletes its
 * claim, releasing deletes this process's; a version 3 file has none. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store-fixture.h"

static int running(FlProject *p)
{
    int64_t *idx = NULL;
    int n = -1;
    FlError err;
    if (fl_project_list_running(p, "e", &idx, &n, &err))
        n = -1;
    free(idx);
    return n;
}

/* A pid no process has: a child's, once it has exited and been reaped. */
static pid_t dead_pid(void)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    waitpid(pid, NULL, 0);
    return pid;
}

static void test_claims(void)
{
    char path[512], sql[512];
    FlProject *p = NULL;
    FlError err;
    IN_DIR(path, "claims.flitlab");
    remove(path);
    CHECK_INT(fl_project_new(&p, &err), FL_OK);
    CHECK_INT(fl_project_save_as(p, path, &err), FL_OK);
    CHECK_INT(fl_project_create_experiment(p, "e", "mesh:4x4", "{}", "", 8, &err), FL_OK);
    CHECK(running(p) == 0, "no run in progress at first");

    const int64_t mine[] = { 1, 2 };
    CHECK_INT(fl_project_claim_runs(p, "e", mine, 2, &err), FL_OK);
    CHECK(running(p) == 2, "two runs claimed by this live process are running");
    const int64_t outside[] = { 8 };
    CHECK_INT(fl_project_claim_runs(p, "e", outside, 1, &err), FL_ERANGE);
    CHECK(strstr(err.message, "8") != NULL, "a claim outside the design is refused: %s",
          err.message);
    CHECK(running(p) == 2, "a refused claim claims nothing");

    snprintf(sql, sizeof sql, "INSERT INTO claim VALUES (1, 3, 'no-such-host.example', %d, "
             "'2026-01-01T00:00:00Z'); INSERT INTO claim VALUES (1, 4, "
             "(SELECT host FROM claim WHERE idx = 1), %d, '2026-01-01T00:00:00Z')",
             (int)getpid(), (int)dead_pid());
    sql_run(path, sql);
    CHECK(running(p) == 3, "another host's claim counts, a dead process's does not");
    const int64_t stale[] = { 4 };
    CHECK_INT(fl_project_claim_runs(p, "e", stale, 1, &err), FL_OK);
    CHECK(running(p) == 4 && sql_int(path, "SELECT count(*) FROM claim WHERE idx = 4") == 1,
          "a stale claim is replaced by a new one");

    FlProjectRun run = { .idx = 1, .status = FL_RUN_DONE, .config = "" };
    CHECK_INT(fl_project_commit_run(p, "e", &run, &err), FL_OK);
    CHECK(running(p) == 3 && sql_int(path, "SELECT count(*) FROM claim WHERE idx = 1") == 0,
          "committing a run deletes its claim");

    CHECK_INT(fl_project_release_claims(p, "e", &err), FL_OK);
    CHECK(running(p) == 1 && sql_int(path, "SELECT count(*) FROM claim") == 1,
          "release deletes this process's claims, not another host's");
    const int64_t again[] = { 5 };
    CHECK_INT(fl_project_claim_runs(p, "e", again, 1, &err), FL_OK);
    CHECK_INT(fl_project_release_claims(p, NULL, &err), FL_OK);
    CHECK(sql_int(path, "SELECT count(*) FROM claim") == 1,
          "release on every experiment deletes this process's claims");
    fl_project_free(p);

    sql_run(path, "DROP TABLE claim; DROP TABLE plot; PRAGMA user_version = 3");
    CHECK_INT(fl_project_open(path, &p, &err), FL_OK);
    CHECK(running(p) == 0, "a version 3 file has no run in progress");
    CHECK_INT(fl_project_list_running(p, "nosuch", &(int64_t *){ NULL }, &(int){ 0 }, &err),
              FL_ENOTFOUND);
    fl_project_free(p);
}

int main(void)
{
    if (!test_dir_make("store-claims"))
        return 99;
    test_claims();
    test_dir_remove();
    return tap_done();
}
