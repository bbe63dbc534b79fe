/* flitlab-store.h — the .flitlab project file.
 *
 * A project is one SQLite database holding named topologies with their
 * settings (and, in later schema versions, experiments, runs and results).
 * It is edited like a document: fl_project_open() loads the
 * whole file into an in-memory working copy, every edit changes only that
 * copy, and fl_project_save() writes the copy back in full. A save writes a
 * temporary file beside the target (named ".NAME.flitlab-XXXXXX"), syncs it
 * and renames it over the target, so a crash or SIGKILL at any moment leaves
 * either the old file or the new one on disk, never a mixture.
 *
 * Every function that can fail returns an FlStatus and fills err (which may
 * be NULL) with a one-line message naming the problem and the file. A handle
 * may be used by one thread at a time; distinct handles are independent.
 */
#ifndef FLITLAB_STORE_H
#define FLITLAB_STORE_H

#include "flitlab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PRAGMA application_id of every project file: "FLIT" in ASCII. */
#define FL_PROJECT_APPLICATION_ID 0x464C4954

/* Longest topology name, in characters (UTF-8 code points). */
#define FL_PROJECT_NAME_MAX 200

typedef struct FlProject FlProject;

/* The schema version this build reads and writes (PRAGMA user_version).
 * Files of older versions are migrated on open; newer ones are refused. */
int fl_project_schema_version(void);

/* A new, untitled, empty project. */
int fl_project_new(FlProject **out, FlError *err);

/* Loads path into a working copy. Fails with FL_ENOTFOUND if the file does
 * not exist, FL_EIO if it cannot be read, FL_EPARSE if it is not a Flitlab
 * project or is damaged (cut short, or failing PRAGMA quick_check of the
 * schema and the document tables, or the first page of a journal table),
 * and FL_EVERSION if a newer Flitlab wrote it. Damage deeper in the journal
 * is reported as FL_EPARSE ("... malformed") by what reads it, and a save
 * then fails and keeps the file. An older schema is migrated in
 * memory only: the file on disk changes when the project is saved. Time and
 * memory: O(documents), whatever the number of runs. */
int fl_project_open(const char *path, FlProject **out, FlError *err);

/* Writes the working copy to the project's path (FL_EINVAL if untitled).
 * The target's permissions are kept; a symbolic link is followed and the
 * file it points to is replaced. Stale temporary files left beside the
 * target by a killed save are removed. On failure the file on disk is
 * untouched and no temporary file is left behind. */
int fl_project_save(FlProject *p, FlError *err);

/* Like fl_project_save(), to path; on success path becomes the project's. */
int fl_project_save_as(FlProject *p, const char *path, FlError *err);

/* Frees p without saving; NULL is harmless. */
void fl_project_free(FlProject *p);

/* The file the project was opened from or last saved to; NULL if untitled. */
const char *fl_project_path(const FlProject *p);

/* Non-zero if the working copy changed since it was created, opened or
 * saved. Migrating an older file on open does not count as a change. */
int fl_project_is_modified(const FlProject *p);

/* --- topologies --------------------------------------------------------- */
/*
 * Topology names are 1 to FL_PROJECT_NAME_MAX characters of valid UTF-8
 * without control characters, unique within a project. Names are listed in
 * creation order; replacing or renaming a topology keeps its place.
 */

typedef struct FlProjectTopologyInfo {
    char *name, *family, *spec;   /* spec may be NULL */
    int switches, hosts, links;   /* links: switch-to-switch */
    char *created, *modified;     /* ISO 8601 UTC, "2024-05-01T12:00:00Z" */
} FlProjectTopologyInfo;

/* A summary of every topology, in creation order, in a new array *items of
 * *n entries (NULL and 0 for an empty project), to be released with
 * fl_project_topology_info_free(). The counts come from the stored rows:
 * O((nodes + links) log nodes) over all topologies. */
int fl_project_list_topologies(FlProject *p, FlProjectTopologyInfo **items, int *n,
                               FlError *err);
void fl_project_topology_info_free(FlProjectTopologyInfo *items, int n);

/* Stores t under name in one transaction: nodes, ports, links with their
 * port numbers, coordinates, positions, node labels and the next label,
 * family, family_dims and spec (t's own name is ignored). If the name
 * exists, fails with FL_EEXIST unless replace is non-zero, in which case
 * the stored topology is replaced and keeps its creation time, list
 * position and settings. FL_EINVAL for a bad name or a non-finite
 * position. O(nodes + links). */
int fl_project_put_topology(FlProject *p, const char *name, const FlTopology *t,
                            int replace, FlError *err);

/* Rebuilds the topology stored under name in *out (named name), or fails
 * with FL_ENOTFOUND. FL_EPARSE if the stored data is inconsistent.
 * O(nodes + links). */
int fl_project_get_topology(FlProject *p, const char *name, FlTopology **out,
                            FlError *err);

/* Removes a topology and its settings (FL_ENOTFOUND if there is none of
 * that name). */
int fl_project_delete_topology(FlProject *p, const char *name, FlError *err);

/* Renames a topology and updates its modified time; its settings follow
 * it. FL_ENOTFOUND if old_name is absent, FL_EEXIST if new_name is taken,
 * FL_EINVAL if new_name is not a valid name. Renaming to the same name does
 * nothing. */
int fl_project_rename_topology(FlProject *p, const char *old_name, const char *new_name,
                               FlError *err);

/* --- topology settings -------------------------------------------------- */
/*
 * Each topology carries settings: text values under keys, saved with the
 * project, where the application keeps the state of each network (its
 * routing, the routing's options, an edited turn set, overlays, the
 * selected route). Keys are 1 to 64 bytes of [a-z0-9._-]; values are UTF-8
 * text of at most 1 MiB (1048576 bytes), which the store does not read.
 * Settings follow a rename, are deleted with their topology, and are kept
 * when fl_project_put_topology() replaces it. Every function fails with
 * FL_ENOTFOUND when there is no topology called name, and with FL_EINVAL
 * for a bad key or value.
 */

/* Sets key to value, or removes it when value is NULL (removing a key that
 * is not set is no error). The project is marked modified when the stored
 * value changes; setting the value a key already has changes nothing. */
int fl_project_set_topology_setting(FlProject *p, const char *name, const char *key,
                                    const char *value, FlError *err);

/* The value of key in *value (malloc'd; free() it), or NULL when unset. */
int fl_project_get_topology_setting(FlProject *p, const char *name, const char *key,
                                    char **value, FlError *err);

/* The keys that are set, sorted (bytewise), in a new array *keys of *n
 * strings (NULL and 0 when none), to be released with
 * fl_project_setting_keys_free(). */
int fl_project_list_topology_settings(FlProject *p, const char *name, char ***keys, int *n,
                                      FlError *err);
void fl_project_setting_keys_free(char **keys, int n);

/* --- experiments and results: the project's journal --------------------- */
/*
 * Experiments and the results of their runs are not part of the working
 * copy: they are written straight into the project's file, one transaction
 * per call, whatever the state of unsaved edits, and read from the file.
 * A save carries the file's journal over into the file it writes (a save
 * under another name takes it along), so saving a working copy opened
 * before a run was committed never drops that run; a lock on the file's
 * directory keeps a save's copy and rename and a commit apart, across
 * processes. Killing a process loses at most the run it had not yet
 * committed. A file of an older schema is upgraded on disk by the first
 * write. An untitled project has no journal: these functions fail with
 * FL_EINVAL ("save the project first").
 *
 * Experiment names follow the rules of topology names. A run is numbered
 * by its place in its experiment's design (flitlab-exp.h), 0 .. runs - 1.
 */

typedef struct FlProjectExperiment {
    char *name;
    char *topology;        /* as given: a spec, a file, "#NAME" */
    char *network;         /* the network it runs on, Flitlab JSON */
    char *design;          /* fl_exp_design_format() */
    int64_t runs;          /* in the design */
    int64_t done, failed;  /* runs committed with each status */
    char *created;         /* ISO 8601 UTC */
    char *note;            /* the user's words about it, or NULL */
    char *damage;          /* fl_project_list_experiments(): why its runs
                            * cannot be read (see below), or NULL */
} FlProjectExperiment;

void fl_project_experiment_clear(FlProjectExperiment *e);
void fl_project_experiments_free(FlProjectExperiment *items, int n);

/* Adds an experiment; FL_EEXIST when the name is taken. */
int fl_project_create_experiment(FlProject *p, const char *name, const char *topology,
                                 const char *network, const char *design, int64_t runs,
                                 FlError *err);
/* Every experiment, by name, into *items (NULL and 0 when none). An
 * experiment whose committed runs are damaged (a run beyond the design, an
 * unknown status, a wall time, scalar or vector step that is no number, a
 * vector blob that is not whole doubles: rows a file Flitlab writes cannot
 * hold) is listed with the message fl_project_get_experiment() refuses it
 * with in damage, so the others stay in sight. */
int fl_project_list_experiments(FlProject *p, FlProjectExperiment **items, int *n,
                                FlError *err);
/* One experiment (FL_ENOTFOUND naming it when there is none). Refuses one
 * whose runs are damaged (FL_EPARSE, "'FILE' is damaged: experiment 'x',
 * run 7: ..." naming the first damaged field), rather than show results
 * with runs silently left out; the file is not changed. */
int fl_project_get_experiment(FlProject *p, const char *name, FlProjectExperiment *out,
                              FlError *err);
/* Deletes it with all its runs. */
int fl_project_delete_experiment(FlProject *p, const char *name, FlError *err);
/* Sets its note (NULL or "" removes it). */
int fl_project_set_experiment_note(FlProject *p, const char *name, const char *note,
                                   FlError *err);

typedef enum FlRunStatus {
    FL_RUN_DONE,
    FL_RUN_FAILED,     /* the simulation failed: error says why */
    FL_RUN_STOPPED     /* not run: past saturation under the stop rule */
} FlRunStatus;

/* A finished run, as committed. */
typedef struct FlProjectRun {
    int64_t idx;
    FlRunStatus status;
    uint64_t seed;
    const char *config;                    /* every key=value of the run */
    const char *host;                      /* NULL: this machine's name */
    const char *started;                   /* ISO 8601 UTC; NULL: now */
    double wall_s;
    const char *error;                     /* FL_RUN_FAILED's reason, or NULL */
    const char *const *param_keys;         /* the design's varied keys... */
    const char *const *param_values;       /* ...and this run's values */
    int nparams;
    const char *const *scalar_names;       /* results: e.g. every key of sim --json */
    const double *scalar_values;           /* NaN is kept as NaN */
    int nscalars;
    const char *const *vector_names;       /* series over time */
    const double *const *vector_data;
    const int *vector_lengths;
    const double *vector_steps;            /* cycles between samples */
    int nvectors;
} FlProjectRun;

/* Commits run into the file in one transaction, replacing a run of the
 * same number. FL_ENOTFOUND for an unknown experiment, FL_ERANGE for a
 * number outside the design. */
int fl_project_commit_run(FlProject *p, const char *experiment, const FlProjectRun *run,
                          FlError *err);
/* Commits n runs into the file in one transaction: all of them or, on an
 * error, none (a run past saturation with the runs of its curve the stop
 * rule leaves out, which a kill must not separate; or many results at
 * once). */
int fl_project_commit_runs(FlProject *p, const char *experiment, const FlProjectRun *runs,
                           int n, FlError *err);
/* The numbers of the runs committed with status (sorted) into *idx
 * (malloc'd, NULL when none). */
int fl_project_list_runs(FlProject *p, const char *experiment, FlRunStatus status,
                         int64_t **idx, int *n, FlError *err);
/* Scalar name of every run that has it, by run number: *idx and *values
 * (malloc'd, NULL when none). */
int fl_project_get_scalars(FlProject *p, const char *experiment, const char *name,
                           int64_t **idx, double **values, int *n, FlError *err);

/* A vector of a run, as committed: a series over simulated time (sample k
 * covers cycles [k * step, (k + 1) * step)) or, with step 0, one value per
 * channel (or per channel and VC). */
typedef struct FlProjectVector {
    int64_t idx;                           /* the run's number */
    char *name;
    double step;
    double *data;                          /* length values; NaN kept */
    int length;
} FlProjectVector;

/* The vectors of run idx of experiment (every run's when idx < 0) named
 * name (every name when NULL), by run then name, into *items (malloc'd,
 * NULL and 0 when none: a run not committed, or one without vectors).
 * Release them with fl_project_vectors_free(). */
int fl_project_get_vectors(FlProject *p, const char *experiment, int64_t idx, const char *name,
                           FlProjectVector **items, int *n, FlError *err);
void fl_project_vectors_free(FlProjectVector *items, int n);

/* --- runs in progress ----------------------------------------------------- */
/*
 * A run being simulated is claimed in the journal (its host, process id
 * and start time), so that another process reading the file can tell the
 * runs in progress from the runs missing. Committing a run deletes its
 * claim in the same transaction; a process releases its claims when it
 * stops running (cancel, error or end). A claim whose process is gone (a
 * SIGKILL leaves it) is stale: it is not counted, and claiming the run
 * again replaces it. A process on this machine is alive when kill(pid, 0)
 * succeeds or fails with EPERM; a claim from another host cannot be
 * checked and counts as running until that run is committed or claimed
 * again. (A pid reused by an unrelated process would count too.)
 */

/* Claims runs idx[0..n-1] of experiment for this process, in one
 * transaction. FL_ERANGE for a number outside the design. */
int fl_project_claim_runs(FlProject *p, const char *experiment, const int64_t *idx, int n,
                          FlError *err);
/* Deletes every claim of this process on experiment (NULL: on every
 * experiment). */
int fl_project_release_claims(FlProject *p, const char *experiment, FlError *err);
/* The runs of experiment in progress, not committed and claimed by a live
 * process (sorted), into *idx (malloc'd, NULL when none). */
int fl_project_list_running(FlProject *p, const char *experiment, int64_t **idx, int *n,
                            FlError *err);

/* --- plot definitions ---------------------------------------------------- */
/*
 * Plots of an experiment, kept in the journal beside it so that a figure
 * redraws from its runs: a definition (text the store does not read: the
 * "key=value" lines of flitlab-experiment-plot.h) under a name, unique
 * within the experiment, that follows the rules of topology names. Written
 * straight into the file like runs; deleted with their experiment. Every
 * function fails with FL_ENOTFOUND naming the experiment when there is
 * none of that name.
 */

/* Stores definition under name, replacing a plot of that name (which keeps
 * its creation time). FL_EINVAL for a bad name. */
int fl_project_put_plot(FlProject *p, const char *experiment, const char *name,
                        const char *definition, FlError *err);
/* The definition of plot name into *definition (malloc'd; free() it), or
 * FL_ENOTFOUND naming the plot. */
int fl_project_get_plot(FlProject *p, const char *experiment, const char *name,
                        char **definition, FlError *err);
/* The names of the experiment's plots, sorted (bytewise), in a new array
 * *names of *n strings (NULL and 0 when none), to be released with
 * fl_project_setting_keys_free(). */
int fl_project_list_plots(FlProject *p, const char *experiment, char ***names, int *n,
                          FlError *err);
/* Deletes plot name (FL_ENOTFOUND naming it when there is none). */
int fl_project_delete_plot(FlProject *p, const char *experiment, const char *name,
                           FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_STORE_H */
