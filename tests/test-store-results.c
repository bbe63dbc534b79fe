/* test-store-results.c — experiments and runs in the project's journal:
 * written straight into the file whatever the working copy holds, kept by
 * saves of working copies opened before them (this process's or another
 * handle's), carried by a save under another name, read back after
 * reopening, and by reads that follow the file its path names; an older
 * file upgraded by its first write; every refusal. */
#include <math.h>
#include <string.h>

#include "store-fixture.h"

static const char *const keys[] = { "rate", "routing" };

/* Commits run idx of experiment "sweep" with two parameters and scalars
 * latency_avg = 10 + idx and throughput = NaN for odd runs. */
static int commit(FlProject *p, int64_t idx, FlError *err)
{
    char rate[32];
    snprintf(rate, sizeof rate, "0.%lld", (long long)idx + 1);
    const char *values[] = { rate, "dor" };
    const char *names[] = { "latency_avg", "throughput" };
    double scalars[] = { 10.0 + (double)idx, idx % 2 ? NAN : 0.25 };
    const double series[] = { 1, 2, 3 };
    const double *data[] = { series };
    const char *vnames[] = { "throughput_t" };
    int lengths[] = { 3 };
    double steps[] = { 100 };
    FlProjectRun run = { .idx = idx, .status = FL_RUN_DONE, .seed = 1, .config = "rate=x",
                         .wall_s = 0.5, .param_keys = keys, .param_values = values,
                         .nparams = 2, .scalar_names = names, .scalar_values = scalars,
                         .nscalars = 2, .vector_names = vnames, .vector_data = data,
                         .vector_lengths = lengths, .vector_steps = steps, .nvectors = 1 };
    return fl_project_commit_run(p, "sweep", &run, err);
}

static FlProject *titled(char *path, size_t size, const char *name)
{
    FlProject *p = NULL;
    FlError err;
    in_dir(path, size, name);
    remove(path);
    CHECK_INT(fl_project_new(&p, &err), FL_OK);
    CHECK_INT(fl_project_save_as(p, path, &err), FL_OK);
    return p;
}

static int count_runs(FlProject *p)
{
    int64_t *idx = NULL;
    int n = -1;
    fl_project_list_runs(p, "sweep", FL_RUN_DONE, &idx, &n, NULL);
    free(idx);
    return n;
}

static void test_round_trip(void)
{
    char path[512];
    FlProject *p = titled(path, sizeof path, "results.flitlab");
    FlError err;
    CHECK_INT(fl_project_create_experiment(p, "sweep", "mesh:4x4", "{}", "vary rate=0.1,0.2\n",
                                           4, &err), FL_OK);
    for (int64_t i = 0; i < 3; i++)
        CHECK(commit(p, i, &err) == FL_OK, "run %lld committed (%s)", (long long)i, err.message);
    CHECK(!fl_project_is_modified(p), "committing runs leaves the working copy unmodified");
    fl_project_free(p);
    CHECK(sql_int(path, "SELECT count(*) FROM run") == 3
              && sql_int(path, "SELECT count(*) FROM scalar") == 6
              && sql_int(path, "SELECT count(*) FROM runparam") == 6
              && sql_int(path, "SELECT length(data) FROM vector WHERE idx = 2") == 24,
          "three runs, six scalars, six parameters and 24-byte vectors are in the file");

    CHECK_INT(fl_project_open(path, &p, &err), FL_OK);
    FlProjectExperiment *items = NULL;
    int n = 0;
    CHECK(fl_project_list_experiments(p, &items, &n, &err) == FL_OK && n == 1
              && strcmp(items[0].name, "sweep") == 0 && items[0].runs == 4 && items[0].done == 3
              && strcmp(items[0].design, "vary rate=0.1,0.2\n") == 0,
          "reopened: one experiment, 3 of 4 runs done");
    fl_project_experiments_free(items, n);
    int64_t *idx = NULL;
    double *v = NULL;
    CHECK(fl_project_get_scalars(p, "sweep", "throughput", &idx, &v, &n, &err) == FL_OK && n == 3
              && idx[0] == 0 && v[0] == 0.25 && isnan(v[1]) && idx[2] == 2,
          "scalars by run number, NaN kept");
    free(idx);
    free(v);
    CHECK_INT(fl_project_delete_experiment(p, "sweep", &err), FL_OK);
    CHECK(sql_int(path, "SELECT count(*) FROM scalar") == 0, "deleting it deletes its results");
    fl_project_free(p);
}

/* Runs committed while a working copy has unsaved edits, by it or by
 * another handle, survive its save; a save under another name takes them. */
static void test_saves_keep_runs(void)
{
    char path[512], other[512];
    FlProject *p = titled(path, sizeof path, "keep.flitlab"), *q = NULL;
    FlTopology *t = NULL;
    FlError err;
    fl_topology_from_spec("ring:4", &t, NULL);
    CHECK_INT(fl_project_create_experiment(p, "sweep", "ring:4", "{}", "", 10, &err), FL_OK);
    CHECK_INT(fl_project_open(path, &q, &err), FL_OK);
    CHECK_INT(fl_project_put_topology(p, "ring", t, 0, &err), FL_OK);
    CHECK_INT(commit(p, 0, &err), FL_OK);
    CHECK_INT(commit(q, 1, &err), FL_OK);
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    CHECK(count_runs(p) == 2 && sql_int(path, "SELECT count(*) FROM topology") == 1,
          "a save with unsaved edits keeps both runs and writes the edit");
    /* q's working copy has neither the edit nor run 0, and is saved last. */
    CHECK_INT(commit(q, 2, &err), FL_OK);
    CHECK_INT(fl_project_save(q, &err), FL_OK);
    CHECK(count_runs(q) == 3, "a stale working copy saved over them keeps every run (%d)",
          count_runs(q));
    in_dir(other, sizeof other, "keep-copy.flitlab");
    remove(other);
    CHECK_INT(fl_project_save_as(p, other, &err), FL_OK);
    CHECK(sql_int(other, "SELECT count(*) FROM run") == 3, "save as takes the results along");
    CHECK(sql_int(path, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'")
              == 1,
          "the file passes integrity_check");
    fl_project_free(p);
    fl_project_free(q);
    fl_topology_free(t);
}

/* Reads share one connection to the file between them: they still see
 * what others commit, take no lock that would keep a writer waiting, and
 * follow the file that the project's path names, after another save
 * renamed a new file over it or this one saved under another name. */
static void test_reads_follow_file(void)
{
    char path[512], other[512], moved[512];
    FlProject *p = titled(path, sizeof path, "reads.flitlab"), *q = NULL, *r = NULL;
    FlError err;
    CHECK_INT(fl_project_create_experiment(p, "sweep", "ring:4", "{}", "", 10, &err), FL_OK);
    CHECK_INT(commit(p, 0, &err), FL_OK);
    CHECK(count_runs(p) == 1, "one run read");
    CHECK_INT(fl_project_open(path, &q, &err), FL_OK);
    CHECK(commit(q, 1, &err) == FL_OK && count_runs(p) == 2,
          "a run another handle commits after a read is read next (%s)", err.message);
    sql_run(path, "DELETE FROM run WHERE idx = 1");
    CHECK(count_runs(p) == 1, "so is a change from another connection");

    r = titled(other, sizeof other, "reads-other.flitlab");
    CHECK_INT(fl_project_create_experiment(r, "sweep", "ring:4", "{}", "", 10, &err), FL_OK);
    for (int64_t i = 0; i < 3; i++)
        CHECK_INT(commit(r, i, &err), FL_OK);
    CHECK(rename(other, path) == 0, "another save's rename over the file");
    CHECK(count_runs(p) == 3, "reads then see the new file (%d runs)", count_runs(p));

    in_dir(moved, sizeof moved, "reads-moved.flitlab");
    remove(moved);
    CHECK_INT(fl_project_save_as(p, moved, &err), FL_OK);
    sql_run(path, "DELETE FROM run");
    CHECK(count_runs(p) == 3, "after a save under another name, reads come from that file");
    fl_project_free(p);
    fl_project_free(q);
    fl_project_free(r);
}

static void test_refusals(void)
{
    char path[512];
    FlProject *p = NULL;
    FlError err;
    CHECK_INT(fl_project_new(&p, &err), FL_OK);
    CHECK(fl_project_create_experiment(p, "x", "mesh:4x4", "{}", "", 1, &err) == FL_EINVAL
              && strstr(err.message, "save the project first"),
          "untitled: %s", err.message);
    fl_project_free(p);
    p = titled(path, sizeof path, "refuse.flitlab");
    fl_project_create_experiment(p, "sweep", "mesh:4x4", "{}", "", 4, &err);
    CHECK(fl_project_create_experiment(p, "sweep", "mesh:4x4", "{}", "", 1, &err) == FL_EEXIST,
          "a name taken: %s", err.message);
    CHECK(fl_project_create_experiment(p, "", "mesh:4x4", "{}", "", 1, &err) == FL_EINVAL,
          "an empty name: %s", err.message);
    CHECK(commit(p, 4, &err) == FL_ERANGE, "a run outside the design: %s", err.message);
    FlProjectRun run = { .idx = 0, .status = FL_RUN_DONE };
    CHECK(fl_project_commit_run(p, "nope", &run, &err) == FL_ENOTFOUND, "an unknown experiment: "
          "%s", err.message);
    CHECK(count_runs(p) == 0, "nothing was committed");
    fl_project_free(p);
}

/* Several runs in one transaction: all of them, or none when one is bad. */
static void test_batch(void)
{
    char path[512];
    FlProject *p = titled(path, sizeof path, "batch.flitlab");
    FlError err;
    CHECK_INT(fl_project_create_experiment(p, "sweep", "mesh:4x4", "{}", "", 3, &err), FL_OK);
    const char *names[] = { "latency_avg" };
    double values[3][1] = { { 1.5 }, { 2.5 }, { 3.5 } };
    FlProjectRun runs[3];
    for (int i = 0; i < 3; i++)
        runs[i] = (FlProjectRun){ .idx = i, .status = i == 2 ? FL_RUN_STOPPED : FL_RUN_DONE,
                                  .scalar_names = names, .scalar_values = values[i],
                                  .nscalars = i == 2 ? 0 : 1 };
    runs[2].idx = 3;
    CHECK(fl_project_commit_runs(p, "sweep", runs, 3, &err) == FL_ERANGE
              && count_runs(p) == 0,
          "a batch with a run outside the design commits none: %s", err.message);
    runs[2].idx = 2;
    CHECK_INT(fl_project_commit_runs(p, "sweep", runs, 3, &err), FL_OK);
    int64_t *idx = NULL;
    double *v = NULL;
    int n = 0;
    CHECK_INT(fl_project_get_scalars(p, "sweep", "latency_avg", &idx, &v, &n, &err), FL_OK);
    CHECK(n == 2 && idx[1] == 1 && v[1] == 2.5 && count_runs(p) == 2,
          "a batch of two done runs and a stopped one is committed");
    free(idx);
    free(v);
    CHECK_INT(fl_project_commit_runs(p, "sweep", NULL, 0, &err), FL_OK);
    fl_project_free(p);
}

/* Scribbles over page pageno (of 4096 bytes) of path, or cuts path there. */
static void spoil_page(const char *path, long long pageno, int cut)
{
    FILE *f = fopen(path, "r+b");
    if (cut) {
        CHECK(f && ftruncate(fileno(f), (pageno - 1) * 4096) == 0, "%s cut at page %lld", path,
              pageno);
    } else {
        static unsigned char noise[4096];
        for (size_t i = 0; i < sizeof noise; i++)
            noise[i] = (unsigned char)(i * 131 + 7);
        CHECK(f && fseek(f, (pageno - 1) * 4096, SEEK_SET) == 0
                  && fwrite(noise, 1, sizeof noise, f) == sizeof noise,
              "page %lld of %s scribbled over", pageno, path);
    }
    if (f)
        fclose(f);
}

/* Opening reads the journal no further than each table's first page: a
 * damaged results page is reported by what reads it, and a save (which
 * copies the journal) fails and keeps the file; a file cut short is
 * refused at once. */
static void test_damaged_journal(void)
{
    enum { RUNS = 400 };
    char path[512];
    FlProject *p = titled(path, sizeof path, "damaged-journal.flitlab");
    FlTopology *t = NULL;
    FlError err;
    fl_topology_from_spec("ring:4", &t, NULL);
    CHECK_INT(fl_project_put_topology(p, "ring", t, 0, &err), FL_OK);
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    CHECK_INT(fl_project_create_experiment(p, "sweep", "ring:4", "{}", "", RUNS, &err), FL_OK);
    const char *names[] = { "latency_avg", "throughput" };
    static double values[RUNS][2];
    static FlProjectRun runs[RUNS];
    for (int i = 0; i < RUNS; i++) {
        values[i][0] = i;
        values[i][1] = 0.5;
        runs[i] = (FlProjectRun){ .idx = i, .status = FL_RUN_DONE, .scalar_names = names,
                                  .scalar_values = values[i], .nscalars = 2 };
    }
    CHECK_INT(fl_project_commit_runs(p, "sweep", runs, RUNS, &err), FL_OK);
    fl_project_free(p);
    long long leaf = sql_int(path, "SELECT max(pageno) FROM dbstat WHERE name = 'scalar'"
                                   " AND pagetype = 'leaf'");
    long long before = sql_int(path, "PRAGMA page_count");
    CHECK(leaf > 1, "the scalars fill several pages (the last leaf is page %lld)", leaf);
    spoil_page(path, leaf, 0);

    CHECK(fl_project_open(path, &p, &err) == FL_OK, "a file with a damaged results page opens "
          "(%s)", err.message);
    FlTopology *back = NULL;
    CHECK(fl_project_get_topology(p, "ring", &back, &err) == FL_OK, "and its topologies read");
    fl_topology_free(back);
    int64_t *idx = NULL;
    double *v = NULL;
    int n = 0;
    int rc = fl_project_get_scalars(p, "sweep", "latency_avg", &idx, &v, &n, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "malformed"),
          "reading the damaged results says so: %s", rc ? err.message : "read");
    free(idx);
    free(v);
    rc = fl_project_save(p, &err);
    CHECK(rc == FL_EPARSE && sql_int(path, "PRAGMA page_count") == before,
          "a save refuses to carry the damaged journal and keeps the file: %s",
          rc ? err.message : "saved");
    fl_project_free(p);

    spoil_page(path, before, 1);
    rc = fl_project_open(path, &p, &err);
    CHECK(rc == FL_EPARSE && strstr(err.message, "damaged"), "a file cut short is refused: %s",
          rc ? err.message : "opened");
    if (!rc)
        fl_project_free(p);
    fl_topology_free(t);
}

/* Rows a file Flitlab writes cannot hold, made by hand (the schema's
 * checks off): reading the experiment refuses it naming the run and the
 * field, listing marks it and lists the others, a save carries the rows
 * as they are, and nothing is changed or lost. */
static void test_damaged_runs(void)
{
    static const struct {
        const char *sql, *says;
    } cases[] = {
        { "UPDATE run SET idx = 7 WHERE idx = 2", "run 7: the design has runs 0 to 3 only" },
        { "UPDATE run SET status = 'bogus' WHERE idx = 1",
          "run 1: status 'bogus' is not done, failed or stopped" },
        { "UPDATE run SET wall_s = -1 WHERE idx = 0",
          "run 0: wall_s '-1.0' is not a time in seconds (a number >= 0)" },
        { "UPDATE run SET wall_s = 1e999 WHERE idx = 2", "run 2: wall_s 'Inf' is not a time" },
        { "UPDATE scalar SET idx = 9 WHERE idx = 0 AND name = 'latency_avg'",
          "run 9: scalar 'latency_avg' is of a run the design does not have (runs 0 to 3)" },
        { "UPDATE vector SET data = x'0102030405' WHERE idx = 2",
          "run 2: vector 'throughput_t': its data is 5 bytes, not a whole number of 8-byte "
          "values" },
        { "UPDATE vector SET step = -100 WHERE idx = 1",
          "run 1: vector 'throughput_t': its step '-100.0' is not a number of cycles >= 0" },
        { "UPDATE vector SET idx = -4 WHERE idx = 1", "run -4: vector 'throughput_t' is of a run" },
    };
    char good[512], path[512];
    FlProject *p = titled(good, sizeof good, "damaged-runs.flitlab");
    FlError err;
    CHECK_INT(fl_project_create_experiment(p, "sweep", "mesh:4x4", "{}", "", 4, &err), FL_OK);
    CHECK_INT(fl_project_create_experiment(p, "whole", "mesh:4x4", "{}", "", 1, &err), FL_OK);
    for (int64_t i = 0; i < 3; i++)
        CHECK_INT(commit(p, i, &err), FL_OK);
    fl_project_free(p);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char sql[1200];
        in_dir(path, sizeof path, "damaged-run.flitlab");
        remove(path);
        snprintf(sql, sizeof sql, "ATTACH '%s' AS good; VACUUM good INTO '%s'", good, path);
        sql_run(":memory:", sql);
        snprintf(sql, sizeof sql, "PRAGMA ignore_check_constraints = 1; %s", cases[c].sql);
        sql_run(path, sql);
        long long rows = sql_int(path, "SELECT count(*) FROM run")
                         + sql_int(path, "SELECT count(*) FROM scalar")
                         + sql_int(path, "SELECT count(*) FROM vector");
        CHECK_INT(fl_project_open(path, &p, &err), FL_OK);
        FlProjectExperiment e;
        int rc = fl_project_get_experiment(p, "sweep", &e, &err);
        CHECK(rc == FL_EPARSE && strstr(err.message, "' is damaged: experiment 'sweep', ")
                  && strstr(err.message, cases[c].says),
              "%s: reading the experiment refuses it: %s", cases[c].sql,
              rc ? err.message : "read");
        if (!rc)
            fl_project_experiment_clear(&e);
        CHECK(fl_project_get_experiment(p, "whole", &e, &err) == FL_OK && e.damage == NULL,
              "the other experiment reads");
        fl_project_experiment_clear(&e);
        FlProjectExperiment *items = NULL;
        int n = 0;
        rc = fl_project_list_experiments(p, &items, &n, &err);
        CHECK(rc == FL_OK && n == 2 && items[0].damage && strstr(items[0].damage, cases[c].says)
                  && !items[1].damage,
              "listing lists both, the damaged one marked: %s",
              rc ? err.message : n == 2 && items[0].damage ? items[0].damage : "unmarked");
        fl_project_experiments_free(items, n);
        rc = fl_project_save(p, &err);
        CHECK(rc == FL_OK, "a save keeps the damaged rows rather than fail: %s",
              rc ? err.message : "saved");
        fl_project_free(p);
        CHECK(sql_int(path, "SELECT count(*) FROM run") + sql_int(path, "SELECT count(*) FROM "
              "scalar") + sql_int(path, "SELECT count(*) FROM vector") == rows,
              "every row is still in the file");
    }
}

/* A version 2 file: read as having no experiments, upgraded by the first
 * write. */
static void test_upgrade(void)
{
    char path[512];
    FlProject *p = titled(path, sizeof path, "old.flitlab");
    fl_project_free(p);
    sql_run(path, "DROP TABLE claim; DROP TABLE plot; DROP TABLE vector; DROP TABLE scalar;"
                  "DROP TABLE runparam; DROP TABLE run; DROP TABLE experiment;"
                  "PRAGMA user_version = 2");
    FlError err;
    FlProjectExperiment *items = NULL;
    int n = -1;
    CHECK_INT(fl_project_open(path, &p, &err), FL_OK);
    CHECK(fl_project_list_experiments(p, &items, &n, &err) == FL_OK && n == 0,
          "a version 2 file has no experiments");
    CHECK(sql_int(path, "PRAGMA user_version") == 2, "reading leaves it at version 2");
    CHECK_INT(fl_project_create_experiment(p, "sweep", "mesh:4x4", "{}", "", 2, &err), FL_OK);
    CHECK(sql_int(path, "PRAGMA user_version") == fl_project_schema_version()
              && commit(p, 1, &err) == FL_OK,
          "the first write upgrades it to version %d (%s)", fl_project_schema_version(),
          err.message);
    fl_project_free(p);
}

/* A version 3 file (runs, no plots or claims yet): a save carries its runs
 * over into a file of the current version. */
static void test_save_from_v3(void)
{
    char path[512];
    FlProject *p = titled(path, sizeof path, "v3.flitlab");
    FlError err;
    CHECK_INT(fl_project_create_experiment(p, "sweep", "mesh:4x4", "{}", "", 2, &err), FL_OK);
    CHECK_INT(commit(p, 0, &err), FL_OK);
    fl_project_free(p);
    sql_run(path, "DROP TABLE claim; DROP TABLE plot; PRAGMA user_version = 3");
    CHECK_INT(fl_project_open(path, &p, &err), FL_OK);
    CHECK(count_runs(p) == 1, "a version 3 file's run is read");
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    CHECK(sql_int(path, "PRAGMA user_version") == fl_project_schema_version()
              && sql_int(path, "SELECT count(*) FROM run") == 1
              && sql_int(path, "SELECT count(*) FROM plot") == 0,
          "saved at version %d with its run", fl_project_schema_version());
    fl_project_free(p);
}

/* The vector of run idx, read back, is commit()'s { 1, 2, 3 } every 100 cycles. */
static int vector_read_back(FlProject *p, int64_t idx)
{
    FlProjectVector *v = NULL;
    int n = 0;
    int ok = fl_project_get_vectors(p, "sweep", idx, NULL, &v, &n, NULL) == FL_OK && n == 1
             && strcmp(v[0].name, "throughput_t") == 0 && v[0].step == 100 && v[0].length == 3
             && v[0].data[0] == 1 && v[0].data[2] == 3;
    fl_project_vectors_free(v, n);
    return ok;
}

/* A version 4 file (vectors in a table WITHOUT ROWID): read as it is, its
 * vectors moved into a table with rowids by the first write, kept by a
 * save. */
static void test_upgrade_vectors(void)
{
    char path[512];
    FlProject *p = titled(path, sizeof path, "v4.flitlab");
    FlError err;
    CHECK_INT(fl_project_create_experiment(p, "sweep", "mesh:4x4", "{}", "", 3, &err), FL_OK);
    CHECK_INT(commit(p, 0, &err), FL_OK);
    fl_project_free(p);
    sql_run(path, "CREATE TABLE v4 (experiment_id INTEGER NOT NULL, idx INTEGER NOT NULL,"
                  " name TEXT NOT NULL, step REAL NOT NULL, data BLOB NOT NULL,"
                  " PRIMARY KEY (experiment_id, idx, name), FOREIGN KEY (experiment_id, idx)"
                  " REFERENCES run (experiment_id, idx) ON DELETE CASCADE) STRICT, WITHOUT ROWID;"
                  "INSERT INTO v4 SELECT * FROM vector; DROP TABLE vector;"
                  "ALTER TABLE v4 RENAME TO vector; PRAGMA user_version = 4");
    CHECK_INT(fl_project_open(path, &p, &err), FL_OK);
    CHECK(vector_read_back(p, 0) && sql_int(path, "PRAGMA user_version") == 4,
          "a version 4 file's vector is read, the file left at version 4");
    CHECK_INT(commit(p, 1, &err), FL_OK);
    CHECK(sql_int(path, "PRAGMA user_version") == fl_project_schema_version()
              && sql_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'vector' AND "
                               "sql LIKE '%WITHOUT ROWID%'") == 0
              && sql_int(path, "SELECT count(*) FROM vector WHERE rowid > 0") == 2
              && vector_read_back(p, 0) && vector_read_back(p, 1),
          "the first write moves the vectors into a table with rowids");
    CHECK_INT(fl_project_save(p, &err), FL_OK);
    CHECK(vector_read_back(p, 0) && vector_read_back(p, 1), "a save keeps them");
    sql_run(path, "PRAGMA foreign_keys = ON; DELETE FROM run WHERE idx = 0");
    CHECK(sql_int(path, "SELECT count(*) FROM vector") == 1,
          "deleting a run still deletes its vectors");
    fl_project_free(p);
}

int main(void)
{
    if (!test_dir_make("store-results"))
        return 99;
    test_round_trip();
    test_upgrade_vectors();
    test_saves_keep_runs();
    test_reads_follow_file();
    test_refusals();
    test_batch();
    test_damaged_journal();
    test_damaged_runs();
    test_upgrade();
    test_save_from_v3();
    test_dir_remove();
    return tap_done();
}
