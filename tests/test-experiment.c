/* test-experiment.c — the experiment runner library: an experiment opened
 * from a project file runs its missing runs and commits them, with
 * progress (no estimate before the first run ends) and claims released;
 * a detached copy runs given runs with the same results; cancel before
 * and during a run; the refusals; the vectors committed with a run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-experiment.h"
#include "flitlab-io.h"
#include "store-fixture.h"

typedef struct Seen {
    int calls, nan_first, finished_eta_known;
    FlExperimentProgress last;
    int results;
    double latency[8];
    FlExperiment *cancel;        /* cancelled at the first result */
} Seen;

static void on_progress(void *data, const FlExperimentProgress *p)
{
    Seen *s = data;
    if (s->calls++ == 0)
        s->nan_first = isnan(p->eta_s) && p->done == 0;
    if (p->done > 0 && p->done < p->to_run && !isnan(p->eta_s) && p->eta_s >= 0)
        s->finished_eta_known = 1;
    s->last = *p;
}

static void on_result(void *data, const FlExperimentResult *r)
{
    Seen *s = data;
    s->results++;
    for (int i = 0; i < r->nscalars; i++)
        if (strcmp(r->scalar_names[i], "latency_avg") == 0 && r->idx >= 0 && r->idx < 8)
            s->latency[r->idx] = r->scalar_values[i];
    if (s->cancel)
        fl_experiment_cancel(s->cancel);
}

/* A project file with experiment "e": mesh:4x4, 2 rates x 2 seeds. */
static FlProject *make_project(char *path, size_t size, char **network, char **design)
{
    FlProject *p = NULL;
    FlError err;
    FlTopology *t = from_spec("mesh:4x4");
    FlExpDesign *d = NULL;
    in_dir(path, size, "exp.flitlab");
    CHECK_INT(fl_project_new(&p, &err), FL_OK);
    CHECK_INT(fl_project_save_as(p, path, &err), FL_OK);
    CHECK_INT(fl_exp_design_new(&d, &err), FL_OK);
    CHECK_INT(fl_exp_design_set(d, "warmup", "100", &err), FL_OK);
    CHECK_INT(fl_exp_design_set(d, "measure", "400", &err), FL_OK);
    CHECK_INT(fl_exp_design_vary(d, "rate", "0.05,0.1", &err), FL_OK);
    CHECK_INT(fl_exp_design_seeds(d, 1, 2, &err), FL_OK);
    *network = fl_io_write_json_string(t, &err);
    CHECK_INT(fl_exp_design_format(d, design, &err), FL_OK);
    CHECK_INT(fl_project_create_experiment(p, "e", "mesh:4x4", *network, *design, 4, &err),
              FL_OK);
    fl_exp_design_free(d);
    fl_topology_free(t);
    return p;
}

static void test_run(void)
{
    char path[512], *network = NULL, *design = NULL;
    FlProject *p = make_project(path, sizeof path, &network, &design);
    FlExperiment *x = NULL;
    FlError err;
    CHECK_INT(fl_experiment_open(p, "nosuch", &x, &err), FL_ENOTFOUND);
    CHECK(x == NULL && strstr(err.message, "nosuch"), "an unknown experiment is named: %s",
          err.message);
    CHECK_INT(fl_experiment_open(p, "e", &x, &err), FL_OK);
    CHECK(fl_experiment_run_count(x) == 4 && strcmp(fl_experiment_name(x), "e") == 0,
          "4 runs in the design");
    /* rate varies slowest, the seed fastest: runs 0, 2 and 1, 3 are curves. */
    CHECK(fl_experiment_curve(x, 2) == fl_experiment_curve(x, 0)
              && fl_experiment_curve(x, 3) == fl_experiment_curve(x, 1)
              && fl_experiment_curve(x, 0) != fl_experiment_curve(x, 1),
          "a curve is the runs that differ only in rate");
    char *config = NULL;
    CHECK_INT(fl_experiment_config(x, 3, &config, &err), FL_OK);
    CHECK(config && strstr(config, "rate=0.1\n") && strstr(config, "routing=dor\n"),
          "run 3's configuration");
    free(config);

    Seen seen = { 0 };
    FlExperimentRunOptions opt;
    fl_experiment_run_options_init(&opt);
    CHECK(opt.workers >= 1, "the default workers: the machine's cores");
    opt.workers = 1;
    opt.progress = on_progress;
    opt.progress_data = &seen;
    opt.result = on_result;
    opt.result_data = &seen;
    CHECK_INT(fl_experiment_run(x, &opt, &err), FL_OK);
    CHECK(seen.nan_first, "no estimate of the time left before a run ends");
    CHECK(seen.finished_eta_known, "an estimate once a run has ended");
    CHECK(seen.last.done == 4 && seen.last.to_run == 4 && seen.last.running == 0
              && seen.last.eta_s == 0 && seen.results == 4,
          "the last progress: 4 done, none running");
    unsigned char *status = NULL;
    int64_t counts[3], running = -1;
    CHECK_INT(fl_experiment_status(x, &status, counts, &err), FL_OK);
    CHECK(counts[0] == 4 && status[3] == FL_RUN_DONE, "the 4 runs are committed");
    free(status);
    CHECK_INT(fl_experiment_running(x, &running, &err), FL_OK);
    CHECK(running == 0 && sql_int(path, "SELECT count(*) FROM claim") == 0,
          "no claim is left");
    CHECK(sql_int(path, "SELECT count(*) FROM scalar WHERE idx = 0") >= 15,
          "a run's scalars: every key of sim --json");

    /* A detached copy gives the same results for the runs given. */
    FlExperiment *d = NULL;
    Seen again = { 0 };
    CHECK_INT(fl_experiment_new_detached("e", network, design, &d, &err), FL_OK);
    const int64_t some[] = { 3, 1, 3 };
    opt.runs = some;
    opt.nruns = 3;
    opt.progress = NULL;
    opt.result_data = &again;
    CHECK_INT(fl_experiment_run(d, &opt, &err), FL_OK);
    CHECK(again.results == 2 && again.latency[1] == seen.latency[1]
              && again.latency[3] == seen.latency[3] && seen.latency[3] > 0,
          "a detached run of runs 1 and 3 equals the file's");
    FlExperimentResult r = { .idx = 0, .status = FL_RUN_DONE };
    CHECK_INT(fl_experiment_commit(d, &r, NULL, &err), FL_EINVAL);
    const int64_t outside[] = { 4 };
    opt.runs = outside;
    opt.nruns = 1;
    CHECK_INT(fl_experiment_run(d, &opt, &err), FL_ERANGE);

    /* Cancel before a run: the next run returns at once; the one after runs. */
    opt.runs = NULL;
    opt.nruns = 0;
    Seen none = { 0 };
    opt.result_data = &none;
    fl_experiment_cancel(d);
    CHECK_INT(fl_experiment_run(d, &opt, &err), FL_ECANCELLED);
    CHECK(none.results == 0, "a cancel made before a run: nothing runs");
    CHECK_INT(fl_experiment_run(d, &opt, &err), FL_OK);
    CHECK(none.results == 4, "the cancel is spent: the next run runs everything");
    fl_experiment_free(d);

    /* Cancel during a run, from the result callback: what is committed
     * stays, the rest is missing, no claim is left. */
    sql_run(path, "PRAGMA foreign_keys = ON; DELETE FROM run");
    Seen cut = { .cancel = x };
    opt.result_data = &cut;
    CHECK_INT(fl_experiment_run(x, &opt, &err), FL_ECANCELLED);
    CHECK_INT(fl_experiment_status(x, &status, counts, &err), FL_OK);
    free(status);
    CHECK(cut.results >= 1 && counts[0] == cut.results && counts[0] < 4
              && sql_int(path, "SELECT count(*) FROM claim") == 0,
          "cancelled after %d result(s): %lld committed, no claim left", cut.results,
          (long long)counts[0]);
    fl_experiment_free(x);
    fl_project_free(p);
    free(network);
    free(design);
}

/* Run 3 (rate 0.1, seed 2) simulated again through a timeline sampling
 * every step cycles: its samples and per-channel figures into *samples
 * (malloc'd, *n of them) and res. */
static void simulate_run_3(int64_t step, FlSimResult *res, FlSimSample **samples, size_t *n)
{
    FlError err;
    FlTopology *t = from_spec("mesh:4x4");
    FlSimSettings s;
    fl_sim_settings_init(&s);
    CHECK_INT(fl_sim_settings_set(&s, "warmup", "100", &err), FL_OK);
    CHECK_INT(fl_sim_settings_set(&s, "measure", "400", &err), FL_OK);
    CHECK_INT(fl_sim_settings_set(&s, "rate", "0.1", &err), FL_OK);
    CHECK_INT(fl_sim_settings_set(&s, "seed", "2", &err), FL_OK);
    FlRouting *r = NULL;
    FlSim *sim = NULL;
    CHECK_INT(fl_routing_new(t, "dor", NULL, &r, &err), FL_OK);
    s.config.routing = r;
    CHECK_INT(fl_sim_new(t, &s.config, &sim, &err), FL_OK);
    CHECK_INT(fl_sim_run(sim, res, NULL, NULL, &err), FL_OK);
    fl_sim_free(sim);
    /* The same run, as long, through a timeline. */
    CHECK_INT(fl_sim_new(t, &s.config, &sim, &err), FL_OK);
    FlSimTimeline *tl = fl_sim_timeline_new(sim, 1000, (size_t)1 << 24, step, &err);
    CHECK(tl != NULL, "a timeline: %s", err.message);
    FlSimStatus status;
    CHECK_INT(fl_sim_timeline_step(tl, res->cycles, &status, &err), FL_OK);
    const FlSimSample *kept;
    *n = fl_sim_timeline_samples(tl, &kept);
    *samples = malloc(sizeof **samples * (*n ? *n : 1));
    memcpy(*samples, kept, sizeof **samples * *n);
    fl_sim_timeline_free(tl);
    fl_sim_free(sim);
    fl_routing_free(r);
    fl_sim_settings_clear(&s);
    fl_topology_free(t);
}

static const FlProjectVector *vector_named(const FlProjectVector *v, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0)
            return &v[i];
    return NULL;
}

/* A run's vectors are committed with it and equal a second simulation's:
 * per channel, and sampled over time as a timeline samples. */
static void test_vectors(void)
{
    char path[512], *network = NULL, *design = NULL;
    FlProject *p = make_project(path, sizeof path, &network, &design);
    FlExperiment *x = NULL;
    FlError err;
    CHECK_INT(fl_experiment_open(p, "e", &x, &err), FL_OK);
    CHECK_INT(fl_experiment_run(x, NULL, &err), FL_OK);
    FlProjectVector *v = NULL;
    int n = 0;
    CHECK_INT(fl_project_get_vectors(p, "e", 3, NULL, &v, &n, &err), FL_OK);
    CHECK(n == 6, "a flit-level run has 6 vectors, not %d", n);

    FlSimResult res;
    FlSimSample *samples = NULL;
    size_t ns = 0;
    /* 500 cycles of warm-up and measurement: a sample every 5 cycles. */
    simulate_run_3(5, &res, &samples, &ns);
    const FlProjectVector *util = vector_named(v, n, "channel_utilization");
    const FlProjectVector *occ = vector_named(v, n, "vc_occupancy");
    int channels = 2 * 24 + 2 * 16;
    CHECK(util && util->length == channels && util->step == 0 && occ
              && occ->length == channels * 2,
          "per channel: %d channels, and 2 VCs each", channels);
    int same = util && occ;
    for (int c = 0; same && c < channels; c++)
        same = util->data[c] == res.channel_utilization[c]
               && occ->data[2 * c] == res.vc_occupancy[2 * c]
               && occ->data[2 * c + 1] == res.vc_occupancy[2 * c + 1];
    CHECK(same, "the channels' utilization and VC occupancy equal the run's");

    const FlProjectVector *acc = vector_named(v, n, "accepted");
    const FlProjectVector *lat = vector_named(v, n, "latency");
    const FlProjectVector *inn = vector_named(v, n, "in_network");
    const FlProjectVector *off = vector_named(v, n, "offered");
    CHECK(acc && lat && inn && off && acc->length == (int)ns && ns >= 80 && acc->step == 5,
          "%zu samples, 5 cycles apart", ns);
    same = acc && lat && inn && off && acc->length == (int)ns;
    for (size_t k = 0; same && k < ns; k++)
        same = acc->data[k] == samples[k].accepted && off->data[k] == samples[k].offered
               && inn->data[k] == (double)samples[k].in_network
               && (lat->data[k] == samples[k].latency
                   || (isnan(lat->data[k]) && isnan(samples[k].latency)));
    CHECK(same, "the samples equal a timeline's of the same run");
    fl_project_vectors_free(v, n);

    CHECK_INT(fl_project_get_vectors(p, "e", -1, "accepted", &v, &n, &err), FL_OK);
    CHECK(n == 4 && v[0].idx == 0 && v[3].idx == 3, "one name, every run: %d", n);
    fl_project_vectors_free(v, n);
    CHECK_INT(fl_project_get_vectors(p, "nosuch", -1, NULL, &v, &n, &err), FL_ENOTFOUND);

    free(samples);
    fl_sim_result_clear(&res);
    fl_experiment_free(x);
    fl_project_free(p);
    free(network);
    free(design);
}

typedef struct Series {
    int64_t idx;
    int n, step;
    double max_delay[8], throughput[8];
} Series;

static void keep_series(void *data, const FlExperimentResult *r)
{
    Series *s = data;
    s->idx = r->idx;
    for (int v = 0; v < r->nvectors; v++) {
        const char *name = r->vector_names[v];
        int is_max = strcmp(name, "max_delay") == 0, is_tp = strcmp(name, "throughput") == 0;
        s->n = r->vector_lengths[v];
        s->step = (int)r->vector_steps[v];
        for (int k = 0; (is_max || is_tp) && k < 8 && k < r->vector_lengths[v]; k++)
            (is_max ? s->max_delay : s->throughput)[k] = r->vector_data[v][k];
    }
}

/* A deflection run's series, 400 cycles in 200 samples 2 cycles apart:
 * the delays at each interval's end, the throughput's mean over it, as
 * fl_deflect_run() gives them per cycle. */
static void test_deflection_series(void)
{
    FlError err;
    FlTopology *t = from_spec("torus:4x4");
    char *network = fl_io_write_json_string(t, &err);
    FlExperiment *x = NULL;
    CHECK_INT(fl_experiment_new_detached("d", network, "set mode=deflection\nset cycles=400\n"
                                         "set routing=shortest\nvary nmsg=2\n", &x, &err),
              FL_OK);
    Series got = { .idx = -1 };
    FlExperimentRunOptions opt;
    fl_experiment_run_options_init(&opt);
    opt.result = keep_series;
    opt.result_data = &got;
    CHECK_INT(fl_experiment_run(x, &opt, &err), FL_OK);
    FlRouting *r = NULL;
    CHECK_INT(fl_routing_new(t, "shortest", NULL, &r, &err), FL_OK);
    FlDeflectConfig cfg = { .routing = r, .nmsg = 2, .priority = FL_PRIORITY_AGE, .cycles = 400,
                            .seed = 1 };
    FlDeflectResult res;
    CHECK_INT(fl_deflect_run(t, &cfg, &res, NULL, NULL, &err), FL_OK);
    int same = got.idx == 0 && got.n == 200 && got.step == 2;
    for (int k = 0; same && k < 8; k++)
        same = got.max_delay[k] == res.max_delay[2 * k + 1]
               && got.throughput[k] == (res.throughput[2 * k] + res.throughput[2 * k + 1]) / 2;
    CHECK(same, "200 samples 2 cycles apart (%d, %d): the delays at their ends, the mean "
          "throughput", got.n, got.step);
    fl_deflect_result_clear(&res);
    fl_routing_free(r);
    fl_experiment_free(x);
    free(network);
    fl_topology_free(t);
}

static void test_sample_step(void)
{
    static const int64_t cycles[] = { 0, 200, 201, 500, 6000, 50000, 1000000 };
    static const int64_t step[] = { 1, 1, 2, 5, 50, 500, 5000 };
    for (int i = 0; i < 7; i++)
        CHECK(fl_experiment_sample_step(cycles[i]) == step[i], "%lld cycles: a step of %lld",
              (long long)cycles[i], (long long)fl_experiment_sample_step(cycles[i]));
}

static void test_progress_text(void)
{
    FlExperimentProgress p = { .total = 40, .held = 2, .to_run = 38, .done = 10, .running = 3,
                               .eta_s = 80 };
    char line[256];
    fl_experiment_progress_text("sweep", &p, line, sizeof line);
    CHECK(strcmp(line, "experiment sweep: 12/40 runs (3 running), about 1 min 20 s left") == 0,
          "progress text: %s", line);
    p.eta_s = NAN;
    fl_experiment_progress_text("sweep", &p, line, sizeof line);
    CHECK(strcmp(line, "experiment sweep: 12/40 runs (3 running)") == 0,
          "no estimate yet: %s", line);
    CHECK(isnan(fl_experiment_eta(&p, NAN, 2)), "no mean wall time: no estimate");
    CHECK_NEAR(fl_experiment_eta(&p, 2.0, 2), 28.0, 1e-12);
    p.done = 37;
    CHECK_NEAR(fl_experiment_eta(&p, 2.0, 4), 2.0, 1e-12);
}

/* A design some run of which cannot run is refused by its check, naming
 * the run and its values, as running it would; runs that differ in their
 * seed only are checked once. */
static void test_check_design(void)
{
    static const struct {
        const char *spec, *design, *says;   /* says NULL: it passes */
    } cases[] = {
        { "mesh:4x4", "vary rate=0.1,0.2\nseeds 1:3\n", NULL },
        { "ring:8", "vary routing=updown,west-first\n",
          "the design cannot run: run 1 (routing=west-first): west-first needs a 2D mesh" },
        { "ring:8", "vary traffic=uniform,transpose\n",
          "run 1 (traffic=transpose): traffic pattern transpose needs a square number" },
        { "mesh:4x4", "set routing=updown\nset root=99\nvary rate=0.1\n",
          "run 0 (rate=0.1): root 99: no node is numbered 99" },
        { "mesh:4x4", "set classes=2\nvary rate=0.1,0.2\nvary routing=dor,updown\nseeds 5:7\n",
          "run 3 (rate=0.1, routing=updown): updown uses a single VC class, not 2" },
        { "mesh:4x4", "set mode=multicast\nset algorithm=u-mesh\nset routing=updown\n"
                      "vary rate=0.1\n",
          "u-mesh needs dimension-order routing (dor), not updown" },
        { "torus:4x4", "set vcs=1\nvary rate=0.1\n", "run 0 (rate=0.1): vcs: " },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        FlTopology *t = from_spec(cases[c].spec);
        FlError err = { 0 };
        char *network = fl_io_write_json_string(t, &err);
        int rc = fl_experiment_check_design("x", network, cases[c].design, &err);
        if (cases[c].says)
            CHECK(rc != FL_OK && strstr(err.message, cases[c].says),
                  "design %zu on %s is refused: %s", c, cases[c].spec,
                  rc ? err.message : "passed");
        else
            CHECK(rc == FL_OK, "design %zu on %s passes: %s", c, cases[c].spec,
                  rc ? err.message : "ok");
        free(network);
        fl_topology_free(t);
    }
}

int main(void)
{
    if (!test_dir_make("experiment"))
        return 99;
    test_run();
    test_vectors();
    test_deflection_series();
    test_sample_step();
    test_progress_text();
    test_check_design();
    test_dir_remove();
    return tap_done();
}
