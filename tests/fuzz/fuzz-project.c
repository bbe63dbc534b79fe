/* fuzz-project.c — the .flitlab project file (src/store), and what reads
 * the documents it holds: experiments (src/exp) and plot definitions.
 *
 * The input is written to a scratch file and opened as a project. Opening
 * refuses it with a message and no project, or everything in it is read:
 * every topology (which then survives a round trip through a new
 * project the same), every setting, every experiment with its design, network,
 * runs, scalars and vectors, every plot definition and its points. Each
 * read succeeds or says why not; damage deeper in the file is a refusal,
 * never a crash, a hang or a leak. `tools/flitlab-dev fuzz project` runs
 * it. */
#include <stdlib.h>
#include <string.h>

#include "flitlab-experiment-plot.h"
#include "flitlab-experiment.h"
#include "flitlab-io.h"
#include "flitlab-store.h"
#include "fuzz-common.h"

static void check_outcome(int rc, const FlError *err)
{
    if (rc != FL_OK)
        fuzz_check_refusal(rc, err);
}

/* The new project that topologies are put in, empty between round trips.
 * One for the whole process: making a project runs every migration, which
 * cost more than all the rest of an input's reading. */
static FlProject *fresh_project(void)
{
    static FlProject *fresh;
    FlError err = { 0 };
    if (!fresh && fl_project_new(&fresh, &err) != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    return fresh;
}

/* A topology read from the file is one a project can store: put in a new
 * project and read back, it writes the same JSON. */
static void check_topology_round_trip(const FlTopology *t)
{
    FlProject *fresh = fresh_project();
    FlTopology *u = NULL;
    FlError err = { 0 };
    if (fl_project_put_topology(fresh, "t", t, 0, &err) != FL_OK
        || fl_project_get_topology(fresh, "t", &u, &err) != FL_OK
        || fl_project_delete_topology(fresh, "t", &err) != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    /* The store names what it rebuilds after its key. */
    FUZZ_CHECK(fl_topology_set_name(u, fl_topology_name(t)) == FL_OK);
    char *a = fl_io_write_json_string(t, &err), *b = a ? fl_io_write_json_string(u, &err) : NULL;
    /* JSON cannot hold every network (a position beyond +-1e9 is refused
     * by the writer alike for both). */
    if (a || b) {
        FUZZ_CHECK(a && b);
        FUZZ_CHECK(strcmp(a, b) == 0);
    }
    free(a);
    free(b);
    fl_topology_free(u);
}

static void read_topologies(FlProject *p)
{
    FlProjectTopologyInfo *items = NULL;
    FlError err = { 0 };
    int n = 0, rc = fl_project_list_topologies(p, &items, &n, &err);
    check_outcome(rc, &err);
    for (int i = 0; !rc && i < n; i++) {
        FUZZ_CHECK(items[i].name != NULL);
        FlTopology *t = NULL;
        int got = fl_project_get_topology(p, items[i].name, &t, &err);
        check_outcome(got, &err);
        FUZZ_CHECK((got == FL_OK) == (t != NULL));
        if (t)
            check_topology_round_trip(t);
        fl_topology_free(t);
        char **keys = NULL;
        int nkeys = 0, listed = fl_project_list_topology_settings(p, items[i].name, &keys,
                                                                  &nkeys, &err);
        check_outcome(listed, &err);
        for (int k = 0; !listed && k < nkeys; k++) {
            char *value = NULL;
            check_outcome(fl_project_get_topology_setting(p, items[i].name, keys[k], &value,
                                                          &err), &err);
            free(value);
        }
        fl_project_setting_keys_free(keys, nkeys);
    }
    fl_project_topology_info_free(items, n);
}

static void read_runs(FlProject *p, const char *name)
{
    FlError err = { 0 };
    /* One read of each kind covers the reading code; more would only
     * slow the search. */
    int64_t *idx = NULL;
    double *values = NULL;
    int n = 0;
    check_outcome(fl_project_list_runs(p, name, FL_RUN_DONE, &idx, &n, &err), &err);
    free(idx);
    idx = NULL;
    check_outcome(fl_project_get_scalars(p, name, "latency_avg", &idx, &values, &n, &err), &err);
    free(idx);
    free(values);
    FlProjectVector *vectors = NULL;
    int nv = 0, rc = fl_project_get_vectors(p, name, -1, NULL, &vectors, &nv, &err);
    check_outcome(rc, &err);
    for (int i = 0; !rc && i < nv; i++)
        FUZZ_CHECK(vectors[i].name && vectors[i].length >= 0
                   && (vectors[i].length == 0 || vectors[i].data));
    fl_project_vectors_free(vectors, nv);
    int64_t *running = NULL;
    int nr = 0;
    check_outcome(fl_project_list_running(p, name, &running, &nr, &err), &err);
    free(running);
}

static void read_plots(FlProject *p, const char *experiment)
{
    char **names = NULL;
    FlError err = { 0 };
    int n = 0, rc = fl_project_list_plots(p, experiment, &names, &n, &err);
    check_outcome(rc, &err);
    for (int i = 0; !rc && i < n; i++) {
        char *definition = NULL;
        int got = fl_project_get_plot(p, experiment, names[i], &definition, &err);
        check_outcome(got, &err);
        FlPlotSpec spec;
        if (!got && !(got = fl_plot_spec_parse(definition, &spec, &err))) {
            FlPlotData data;
            check_outcome(fl_experiment_plot_data(p, &spec, &data, &err), &err);
            fl_plot_data_clear(&data);
            fl_plot_spec_clear(&spec);
        }
        check_outcome(got, &err);
        free(definition);
    }
    fl_project_setting_keys_free(names, n);
}

static void read_experiment(FlProject *p, const char *name)
{
    FlProjectExperiment e = { 0 };
    FlExperiment *x = NULL;
    FlError err = { 0 };
    int rc = fl_project_get_experiment(p, name, &e, &err);
    check_outcome(rc, &err);
    fl_project_experiment_clear(&e);
    rc = fl_experiment_open(p, name, &x, &err);
    check_outcome(rc, &err);
    FUZZ_CHECK((rc == FL_OK) == (x != NULL));
    if (x) {
        unsigned char *status = NULL;
        int64_t counts[3] = { 0 }, running = 0, runs = fl_experiment_run_count(x);
        FUZZ_CHECK(runs >= 1 && runs <= FL_EXP_DESIGN_MAX_RUNS);
        rc = fl_experiment_status(x, &status, counts, &err);
        check_outcome(rc, &err);
        FUZZ_CHECK(rc || counts[0] + counts[1] + counts[2] <= runs);
        free(status);
        check_outcome(fl_experiment_running(x, &running, &err), &err);
        char *config = NULL;
        check_outcome(fl_experiment_config(x, 0, &config, &err), &err);
        free(config);
        fl_experiment_free(x);
    }
    read_runs(p, name);
    read_plots(p, name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write_file("input.flitlab", data, size);
    FlProject *p = NULL;
    FlError err = { 0 };
    int rc = fl_project_open(path, &p, &err);
    if (rc != FL_OK) {
        fuzz_check_refusal(rc, &err);
        FUZZ_CHECK(p == NULL);
        fuzz_clear_scratch();
        return 0;
    }
    read_topologies(p);
    FlProjectExperiment *items = NULL;
    int n = 0;
    rc = fl_project_list_experiments(p, &items, &n, &err);
    check_outcome(rc, &err);
    for (int i = 0; !rc && i < n; i++)
        read_experiment(p, items[i].name);
    fl_project_experiments_free(items, n);
    fl_project_free(p);
    /* SQLite may leave a journal or a WAL beside a file it opened. */
    fuzz_clear_scratch();
    return 0;
}
