/* experiment.h — what the `flitlab experiment` commands share
 * (cmd-experiment.c, experiment-run.c). Private to the CLI. */
#ifndef FLITLAB_CLI_EXPERIMENT_H
#define FLITLAB_CLI_EXPERIMENT_H

#include <jansson.h>
#include <stdint.h>

#include "cli.h"
#include "flitlab-experiment.h"

/* An experiment as read back from its project: the file open, the
 * experiment, its row and its design. */
typedef struct ExpOpen {
    FlProject *project;
    FlExperiment *x;
    const FlProjectExperiment *e;
    const FlExpDesign *design;
} ExpOpen;

/* Opens project path and reads experiment name; on failure, returns the
 * exit status after a message (x must be closed either way). */
int exp_open(const char *path, const char *name, ExpOpen *x);
void exp_close(ExpOpen *x);

/* The status of every committed run, by number (fl_experiment_status());
 * on failure, returns the exit status after a message. */
int exp_committed(ExpOpen *x, unsigned char **status, int64_t counts[3]);

/* Varied parameters export handles. */
#define EXP_MAX_PARAMS 64

/* `experiment run` and `experiment resume` (experiment-run.c); the command
 * tables of run, resume and export are in cmd-experiment.c. */
extern const CliCommand exp_run_cmd, exp_resume_cmd;
int exp_run(const CliCommand *cmd, const CliParsed *p);

/* `experiment export` (experiment-export.c). */
extern const CliCommand exp_export_cmd;
int exp_export(const CliCommand *cmd, const CliParsed *p);

/* A parameter's value in JSON: a number when it reads as one. */
json_t *exp_param_json(const char *text);

/* `experiment vectors` (experiment-vectors.c). */
extern const CliCommand exp_vectors_cmd;
int exp_vectors(const CliCommand *cmd, const CliParsed *p);

#endif /* FLITLAB_CLI_EXPERIMENT_H */
