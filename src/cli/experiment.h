/* experiment.h — what the `flitlab experiment` commands share
 * (cmd-experiment.c, experiment-run.c). Private to the CLI. */
#ifndef FLITLAB_CLI_EXPERIMENT_H
#define FLITLAB_CLI_EXPERIMENT_H

#include <jansson.h>
#include <stdint.h>

#include "cli.h"
#include "flitlab-exp.h"
#include "flitlab-store.h"

/* An experiment as read back from its project: the file open, its row,
 * its design parsed. */
typedef struct ExpOpen {
    FlProject *project;
    FlProjectExperiment e;
    FlExpDesign *design;
} ExpOpen;

/* Opens project path and reads experiment name; on failure, returns the
 * exit status after a message (x must be closed either way). */
int exp_open(const char *path, const char *name, ExpOpen *x);
void exp_close(ExpOpen *x);

/* The status of every committed run, by number: a malloc'd array of
 * x->e.runs bytes, each EXP_MISSING or an FlRunStatus; counts of each
 * status into counts[3] (done, failed, stopped) when not NULL. */
#define EXP_MISSING 0xff
int exp_committed(ExpOpen *x, unsigned char **status, int64_t counts[3]);

/* The numeric keys of a `sim --json` object o (sim_add_scalars()): their
 * names (o's own) and values (a null, a number that is not finite, is NaN)
 * into names[] and values[] of room max; returns how many. */
#define EXP_MAX_SCALARS 64
int exp_scalars(json_t *o, const char **names, double *values, int max);

/* Varied parameters a run command handles. */
#define EXP_MAX_PARAMS 64

/* The run status's name: done, failed, stopped. */
const char *exp_status_name(int status);

/* `experiment run` and `experiment resume` (experiment-run.c); the command
 * tables of run, resume and export are in cmd-experiment.c. */
extern const CliCommand exp_run_cmd, exp_resume_cmd;
int exp_run(const CliCommand *cmd, const CliParsed *p);

/* `experiment export` (experiment-export.c). */
extern const CliCommand exp_export_cmd;
int exp_export(const CliCommand *cmd, const CliParsed *p);

#endif /* FLITLAB_CLI_EXPERIMENT_H */
