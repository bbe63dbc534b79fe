/* experiment-run.c — `flitlab experiment run|resume`: every run of an
 * experiment that its project does not hold yet, by the runner library
 * (flitlab-experiment.h), with its progress and the time left on stderr.
 * Killing the command loses at most the runs in flight; running it again
 * runs what is missing. */
#include <stdio.h>
#include <stdlib.h>

#include "experiment.h"
#include "sim-options.h"

typedef struct RunReport {
    const char *name;
    int64_t finished;          /* at the last line printed */
    int64_t failed;
} RunReport;

/* A line each time a run ends, and at the end. */
static void on_progress(void *data, const FlExperimentProgress *p)
{
    RunReport *r = data;
    int64_t finished = fl_experiment_finished(p);
    r->failed = p->failed;
    if (finished == r->finished || p->to_run == 0)
        return;
    r->finished = finished;
    char line[512];
    fl_experiment_progress_text(r->name, p, line, sizeof line);
    fprintf(stderr, "%s\n", line);
}

int exp_run(const CliCommand *cmd, const CliParsed *p)
{
    FlExperimentRunOptions opt;
    fl_experiment_run_options_init(&opt);
    long jobs = opt.workers;
    if (sim_int_option(cmd, p, "jobs", 1, 1024, &jobs))
        return CLI_USAGE;
    ExpOpen x;
    int rc = exp_open(p->args[0], p->args[1], &x);
    RunReport report = { .name = p->args[1], .finished = -1 };
    opt.workers = (int)jobs;
    opt.progress = on_progress;
    opt.progress_data = &report;
    FlError err = { 0 };
    unsigned char *status = NULL;
    int64_t counts[3] = { 0 };
    if (!rc)
        rc = exp_committed(&x, &status, counts);
    free(status);
    int64_t held = counts[0] + counts[1] + counts[2];
    if (!rc && held == x.e->runs)
        fprintf(stderr, _("experiment %s: nothing to run (%lld runs committed)\n"), x.e->name,
                (long long)held);
    else if (!rc && fl_experiment_run(x.x, &opt, &err) && report.failed > 0)
        rc = cli_error(CLI_FAIL,
                       ngettext("experiment %s: %lld run failed; %s",
                                "experiment %s: %lld runs failed; %s",
                                (unsigned long)report.failed),
                       x.e->name, (long long)report.failed, err.message);
    else if (err.code == FL_EUNSUPPORTED)   /* a design this runner cannot run */
        rc = cli_error(CLI_USAGE, "%s", err.message);
    else if (err.code)
        rc = cli_engine_error(&err);
    exp_close(&x);
    return rc;
}
