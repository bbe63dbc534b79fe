/* cmd-experiment.c — `flitlab experiment`: experiments kept in a project
 * file (a network, a design of runs, their results in the file's journal):
 * define, list, show, count, delete and export them; experiment-run.c runs
 * them. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "flitlab-io.h"
#include "sim-options.h"

/* Each of --set and --vary may be given this many times. */
#define EXP_MAX_DEFS 64

/* ---- shared --------------------------------------------------------------- */

int exp_open(const char *path, const char *name, ExpOpen *x)
{
    memset(x, 0, sizeof *x);
    FlError err = { 0 };
    if (fl_project_open(path, &x->project, &err)
        || fl_experiment_open(x->project, name, &x->x, &err))
        return cli_engine_error(&err);
    x->e = fl_experiment_info(x->x);
    x->design = fl_experiment_design(x->x);
    return CLI_OK;
}

void exp_close(ExpOpen *x)
{
    fl_experiment_free(x->x);
    fl_project_free(x->project);
    memset(x, 0, sizeof *x);
}

int exp_committed(ExpOpen *x, unsigned char **status, int64_t counts[3])
{
    FlError err = { 0 };
    return fl_experiment_status(x->x, status, counts, &err) ? cli_engine_error(&err) : CLI_OK;
}

/* ---- new ------------------------------------------------------------------ */

static const CliOption new_options[] = {
    { "topology", 't', "SPEC|FILE|#NAME", N_("the network (#NAME: a topology of the project)") },
    { "set", 0, "KEY=VALUE",
      N_("a setting of every run: KEY is any option of sim, routing or a routing option") },
    { "vary", 0, "KEY=V1,V2|FROM:TO:STEP",
      N_("a parameter and its values; runs are every combination, the first --vary slowest") },
    { "seeds", 0, "A:B", N_("run every combination with each seed from A to B") },
    { "note", 0, "TEXT", N_("a note kept with the experiment (what it is for)") },
    { 0 },
};

/* Every option of sim, the routing and its options: each sets its key in
 * the design's base, as --set KEY=VALUE does. */
static void new_generate(CliOptions *opts)
{
    sim_generate_sim_options(opts);
    cli_add_routing_options(opts, _("the routing of every run (default dor)"), "classes");
}

static const CliCommand new_cmd = {
    "experiment new",
    "P.flitlab NAME --topology SPEC|FILE|#NAME [any option of sim] [--set KEY=VALUE ...]\n"
    "           --vary KEY=VALUES [--vary ...] [--seeds A:B]",
    N_("Define an experiment: a network, shared settings (any option of sim, the routing\n"
    "and its options, or --set KEY=VALUE) and the parameters varied."),
    new_options, 2, 2, new_generate,
};

/* The values of every --set and --vary, in order (cli_parse() keeps one). */
typedef struct ExpDefs {
    const char *set[EXP_MAX_DEFS], *vary[EXP_MAX_DEFS];
    int nset, nvary;
} ExpDefs;

/* Moves every --set and --vary of argv into defs, the other words into rest. */
static int take_defs(int argc, char **argv, char **rest, int *nrest, ExpDefs *defs)
{
    *nrest = 0;
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i];
        int is_set = strncmp(w, "--set", 5) == 0 && (w[5] == '\0' || w[5] == '=');
        int is_vary = strncmp(w, "--vary", 6) == 0 && (w[6] == '\0' || w[6] == '=');
        if (strcmp(w, "--") == 0) {
            while (i < argc)
                rest[(*nrest)++] = argv[i++];
            break;
        }
        if (!is_set && !is_vary) {
            rest[(*nrest)++] = argv[i];
            continue;
        }
        const char *v = strchr(w, '=');
        if (v)
            v++;
        else if (i + 1 < argc)
            v = argv[++i];
        else
            return cli_error(CLI_USAGE, _("experiment new: option %s needs a value"), w);
        int *n = is_set ? &defs->nset : &defs->nvary;
        if (*n >= EXP_MAX_DEFS)
            return cli_error(CLI_USAGE, _("experiment new: at most %d of %s"), EXP_MAX_DEFS,
                             is_set ? "--set" : "--vary");
        (is_set ? defs->set : defs->vary)[(*n)++] = v;
    }
    return CLI_OK;
}

/* "KEY=VALUE" split at its first '='. */
static int split_def(const char *option, const char *def, char *key, size_t size,
                     const char **value)
{
    const char *eq = strchr(def, '=');
    if (!eq || eq == def || (size_t)(eq - def) >= size)
        return cli_error(CLI_USAGE, _("--%s needs KEY=VALUE, not '%s'"), option, def);
    memcpy(key, def, (size_t)(eq - def));
    key[eq - def] = '\0';
    *value = eq + 1;
    return CLI_OK;
}

static int parse_seeds(const char *text, uint64_t *from, uint64_t *to)
{
    char *end;
    errno = 0;
    *from = strtoull(text, &end, 10);
    int ok = !errno && end != text && *end == ':' && text[0] != '-';
    if (ok) {
        const char *b = end + 1;
        *to = strtoull(b, &end, 10);
        ok = !errno && end != b && !*end && b[0] != '-' && *from <= *to;
    }
    return ok ? CLI_OK
              : cli_error(CLI_USAGE, _("--seeds needs A:B with whole numbers A <= B, not '%s'"),
                          text);
}

/* Runs refuse to replay a trace; say so now rather than at every run (the
 * first run shows a trace set for all of them). */
static int refuse_trace(const FlExpDesign *d)
{
    FlSimSettings s;
    FlRoutingOptions ro;
    const char *routing = NULL;
    FlError err = { 0 };
    fl_sim_settings_init(&s);
    fl_routing_options_init(&ro);
    int trace = !fl_exp_design_apply(d, 0, &s, &ro, &routing, &err) && s.trace_file;
    fl_sim_settings_clear(&s);
    fl_routing_options_clear(&ro);
    return trace ? cli_error(CLI_USAGE, _("trace replay does not run in experiments: "
                                          "leave out --trace and --traffic trace"))
                 : CLI_OK;
}

/* The option that already gave KEY, the --set number i means to set: its
 * own flag, or an earlier --set (the design would keep only the last). */
static const char *set_before(const CliCommand *cmd, const CliParsed *p, const ExpDefs *defs,
                              int i, const char *key)
{
    const FlOptionInfo *o = fl_sim_settings_lookup(key);
    if (o && cli_value(cmd, p, o->name))
        return o->name;
    if (strcmp(key, "routing") == 0 && cli_value(cmd, p, "routing"))
        return "routing";
    for (int r = 0; r < fl_routing_option_count(); r++) {
        o = fl_routing_option(r);
        const char *flag = cli_routing_flag(o, "classes");
        if (strcmp(o->name, key) == 0 && cli_value(cmd, p, flag))
            return flag;
    }
    for (int j = 0; j < i; j++) {
        const char *eq = strchr(defs->set[j], '=');
        if (eq && (size_t)(eq - defs->set[j]) == strlen(key)
            && strncmp(defs->set[j], key, strlen(key)) == 0)
            return "set";
    }
    return NULL;
}

static int build_design(const CliCommand *cmd, const CliParsed *p, const ExpDefs *defs,
                        FlExpDesign **d)
{
    FlError err = { 0 };
    char key[256];
    const char *value;
    if (fl_exp_design_new(d, &err))
        return cli_engine_error(&err);
    /* The options of sim given as flags, in the table's order, then --set. */
    for (int i = 0; i < fl_sim_settings_key_count(); i++) {
        const FlOptionInfo *o = fl_sim_settings_key(i);
        const char *text = cli_value(cmd, p, o->name);
        if (text && fl_exp_design_set(*d, o->name, o->type == FL_OPTION_FLAG ? "true" : text,
                                      &err))
            return cli_error(CLI_USAGE, "%s", err.message);
    }
    value = cli_value(cmd, p, "routing");
    if (value && fl_exp_design_set(*d, "routing", value, &err))
        return cli_error(CLI_USAGE, "%s", err.message);
    for (int i = 0; i < fl_routing_option_count(); i++) {
        const FlOptionInfo *o = fl_routing_option(i);
        const char *text = cli_value(cmd, p, cli_routing_flag(o, "classes"));
        if (text && fl_exp_design_set(*d, o->name, text, &err))
            return cli_error(CLI_USAGE, "%s", err.message);
    }
    for (int i = 0; i < defs->nset; i++) {
        if (split_def("set", defs->set[i], key, sizeof key, &value))
            return CLI_USAGE;
        const char *before = set_before(cmd, p, defs, i, key);
        if (before)
            return cli_error(CLI_USAGE, _("--set %s: %s is already given by --%s"),
                             defs->set[i], key, before);
        if (fl_exp_design_set(*d, key, value, &err))
            return cli_error(CLI_USAGE, "%s", err.message);
    }
    for (int i = 0; i < defs->nvary; i++) {
        if (split_def("vary", defs->vary[i], key, sizeof key, &value))
            return CLI_USAGE;
        if (fl_exp_design_vary(*d, key, value, &err))
            return cli_error(CLI_USAGE, "%s", err.message);
    }
    const char *seeds = cli_value(cmd, p, "seeds");
    uint64_t from = 0, to = 0;
    if (seeds && parse_seeds(seeds, &from, &to))
        return CLI_USAGE;
    if (seeds && fl_exp_design_seeds(*d, from, to, &err))
        return cli_error(CLI_USAGE, "%s", err.message);
    return refuse_trace(*d);
}

/* Refuses a design some run of which cannot run on network, as running it
 * would, before the experiment is kept: a routing that does not apply to
 * the network, a setting the simulation refuses. */
static int check_design(const char *name, const char *network, const char *design)
{
    FlError err = { 0 };
    int rc = fl_experiment_check_design(name, network, design, &err);
    if (rc == FL_OK || rc == FL_ENOMEM)
        return rc ? cli_engine_error(&err) : CLI_OK;
    return cli_error(CLI_USAGE, "%s", err.message);
}

static int run_new(const CliCommand *cmd, const CliParsed *p, const ExpDefs *defs)
{
    const char *path = p->args[0], *name = p->args[1];
    const char *what = cli_value(cmd, p, "topology");
    if (!what)
        return cli_error(CLI_USAGE, _("experiment new: give the network with --topology"));
    FlExpDesign *d = NULL;
    FlProject *project = NULL;
    FlTopology *t = NULL;
    char *network = NULL, *text = NULL;
    FlError err = { 0 };
    int rc = build_design(cmd, p, defs, &d);
    if (!rc && fl_project_open(path, &project, &err))
        rc = cli_engine_error(&err);
    if (!rc && (what[0] == '#' ? fl_project_get_topology(project, what + 1, &t, &err)
                               : cli_load_topology(what, &t, &err)))
        rc = cli_engine_error(&err);
    if (!rc && (!(network = fl_io_write_json_string(t, &err))
                || fl_exp_design_format(d, &text, &err)))
        rc = cli_engine_error(&err);
    if (!rc)
        rc = check_design(name, network, text);
    if (!rc && (fl_project_create_experiment(project, name, what, network, text,
                                                fl_exp_design_count(d), &err)
                || fl_project_set_experiment_note(project, name, cli_value(cmd, p, "note"),
                                                  &err)))
        rc = cli_engine_error(&err);
    if (!rc)
        printf(_("experiment %s: %" PRId64 " runs\n"), name, fl_exp_design_count(d));
    free(text);
    free(network);
    fl_topology_free(t);
    fl_project_free(project);
    fl_exp_design_free(d);
    return rc;
}

/* ---- ls, show, status, rm --------------------------------------------------- */

static const CliOption json_options[] = {
    { "json", 0, NULL, N_("print JSON") },
    { 0 },
};

static const CliOption no_options[] = { { 0 } };

static const CliCommand ls_cmd = {
    "experiment ls", "P.flitlab [--json]", N_("List a project's experiments and their runs."),
    json_options, 1, 1,
};

static int run_ls(const CliCommand *cmd, const CliParsed *p)
{
    FlProject *project = NULL;
    FlProjectExperiment *items = NULL;
    int n = 0;
    FlError err = { 0 };
    if (fl_project_open(p->args[0], &project, &err)
        || fl_project_list_experiments(project, &items, &n, &err)) {
        fl_project_free(project);
        return cli_engine_error(&err);
    }
    int rc = CLI_OK;
    if (cli_flag(cmd, p, "json")) {
        json_t *a = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(
                a, json_pack("{s:s, s:s, s:I, s:I, s:I, s:s, s:s?}", "name", items[i].name,
                             "topology", items[i].topology, "runs", (json_int_t)items[i].runs,
                             "done", (json_int_t)items[i].done, "failed",
                             (json_int_t)items[i].failed, "created", items[i].created,
                             "damaged", items[i].damage));
        rc = cli_write_json(a, stdout);
    } else {
        for (int i = 0; i < n; i++) {
            if (items[i].damage)
                printf(_("%-20s %-20s %8" PRId64 " runs, damaged\n"), items[i].name,
                       items[i].topology, items[i].runs);
            else
                printf(_("%-20s %-20s %8" PRId64 " runs %8" PRId64 " done %6" PRId64
                         " failed\n"), items[i].name, items[i].topology, items[i].runs,
                       items[i].done, items[i].failed);
        }
    }
    /* The others are listed; each damaged one is named with its problem
     * and makes the listing fail, for scripts. */
    for (int i = 0; i < n; i++)
        if (items[i].damage) {
            int failed = cli_error(CLI_FAIL, "%s", items[i].damage);
            rc = rc ? rc : failed;
        }
    fl_project_experiments_free(items, n);
    fl_project_free(project);
    return rc;
}

/* The counts of an experiment's runs: done, failed, stopped, and running
 * (of the missing ones, claimed by a live process). */
typedef struct ExpCounts {
    int64_t c[3];
    int64_t running;
} ExpCounts;

static json_t *counts_json(const ExpOpen *x, const ExpCounts *n)
{
    int64_t missing = x->e->runs - n->c[0] - n->c[1] - n->c[2];
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "total", (json_int_t)x->e->runs, "done",
                     (json_int_t)n->c[0], "failed", (json_int_t)n->c[1], "stopped",
                     (json_int_t)n->c[2], "missing", (json_int_t)missing, "running",
                     (json_int_t)n->running);
}

/* Opens the experiment of a command's two words and counts its runs. */
static int open_counted(const CliParsed *p, ExpOpen *x, ExpCounts *n)
{
    unsigned char *status = NULL;
    FlError err = { 0 };
    int rc = exp_open(p->args[0], p->args[1], x);
    if (!rc)
        rc = exp_committed(x, &status, n->c);
    if (!rc && fl_experiment_running(x->x, &n->running, &err))
        rc = cli_engine_error(&err);
    free(status);
    return rc;
}

static const CliCommand show_cmd = {
    "experiment show", "P.flitlab NAME [--json]",
    N_("Show an experiment: its network, its design, the counts of its runs."),
    json_options, 2, 2,
};

static const CliCommand status_cmd = {
    "experiment status", "P.flitlab NAME [--json]",
    N_("Count an experiment's runs: done, failed, stopped past saturation, missing, "
    "running now."),
    json_options, 2, 2,
};

/* show's JSON: the experiment, its parameters and the counts of its runs. */
static json_t *show_json(const ExpOpen *x, const ExpCounts *c)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s?}", "name", x->e->name, "topology",
                          x->e->topology, "created", x->e->created, "design", x->e->design,
                          "note", x->e->note);
    json_t *params = json_array();
    for (int i = 0; i < fl_exp_design_param_count(x->design); i++) {
        json_t *values = json_array();
        for (int v = 0; v < fl_exp_design_value_count(x->design, i); v++)
            json_array_append_new(values, json_string(fl_exp_design_value(x->design, i, v)));
        json_array_append_new(params, json_pack("{s:s, s:o}", "key",
                                                fl_exp_design_param_key(x->design, i),
                                                "values", values));
    }
    json_object_set_new(o, "params", params);
    json_t *counts = counts_json(x, c);
    json_object_update(o, counts);
    json_decref(counts);
    return o;
}

/* show (details) and status: the counts of the runs, and for show the
 * experiment and its design. */
static int report(const CliCommand *cmd, const CliParsed *p, int details)
{
    ExpOpen x;
    ExpCounts n = { { 0 }, 0 };
    const int64_t *c = n.c;
    int rc = open_counted(p, &x, &n);
    if (!rc && cli_flag(cmd, p, "json")) {
        rc = cli_write_json(details ? show_json(&x, &n) : counts_json(&x, &n), stdout);
    } else if (!rc) {
        if (details)
            printf(_("experiment %s\ntopology   %s\ncreated    %s\n"), x.e->name,
                   x.e->topology, x.e->created);
        if (details && x.e->note)
            printf(_("note       %s\n"), x.e->note);
        printf(_("%" PRId64 " runs: %" PRId64 " done, %" PRId64 " failed, %" PRId64
               " stopped, %" PRId64 " missing (%" PRId64 " running)\n"),
               x.e->runs, c[0], c[1], c[2], x.e->runs - c[0] - c[1] - c[2], n.running);
        if (details)
            printf("%s", x.e->design);
    }
    exp_close(&x);
    return rc;
}

static int run_show(const CliCommand *cmd, const CliParsed *p)
{
    return report(cmd, p, 1);
}

static int run_status(const CliCommand *cmd, const CliParsed *p)
{
    return report(cmd, p, 0);
}

static const CliCommand note_cmd = {
    "experiment note", "P.flitlab NAME TEXT",
    N_("Keep a note with an experiment (what it is for, what it showed); '' removes it."),
    no_options, 3, 3,
};

static int run_note(const CliCommand *cmd, const CliParsed *p)
{
    (void)cmd;
    FlProject *project = NULL;
    FlError err = { 0 };
    int rc = fl_project_open(p->args[0], &project, &err)
             || fl_project_set_experiment_note(project, p->args[1], p->args[2], &err);
    fl_project_free(project);
    return rc ? cli_engine_error(&err) : CLI_OK;
}

static const CliCommand rm_cmd = {
    "experiment rm", "P.flitlab NAME", N_("Delete an experiment and all its results."),
    no_options, 2, 2,
};

static int run_rm(const CliCommand *cmd, const CliParsed *p)
{
    (void)cmd;
    FlProject *project = NULL;
    FlError err = { 0 };
    int rc = fl_project_open(p->args[0], &project, &err)
             || fl_project_delete_experiment(project, p->args[1], &err);
    fl_project_free(project);
    return rc ? cli_engine_error(&err) : CLI_OK;
}

/* ---- run, resume, export, vectors (experiment-run.c, experiment-export.c,
 * experiment-vectors.c) ---------------------------------------------------- */

static const CliOption run_options[] = {
    { "jobs", 'j', "N",
      N_("CPUs to use (default: the online CPUs); a simulation takes --threads of them") },
    { 0 },
};

static const CliOption export_options[] = {
    { "format", 'f', "FORMAT", N_("csv (default) or json") },
    { "output", 'o', "OUT", N_("write to OUT instead of standard output (a regular file is "
                               "replaced only once complete)") },
    { 0 },
};

const CliCommand exp_run_cmd = {
    "experiment run", "P.flitlab NAME [--jobs N]",
    N_("Run what is not committed yet; runs past saturation are recorded as stopped."),
    run_options, 2, 2,
};

const CliCommand exp_resume_cmd = {
    "experiment resume", "P.flitlab NAME [--jobs N]",
    N_("Run what an interrupted 'experiment run' left: the runs not committed yet."),
    run_options, 2, 2,
};

static const CliOption vectors_options[] = {
    { "run", 'r', "N", N_("only run N (default: every run)") },
    { "vector", 'v', "NAME", N_("only this vector (default: every vector)") },
    { "format", 'f', "FORMAT", N_("csv (default) or json") },
    { "output", 'o', "OUT", N_("write to OUT instead of standard output (a regular file is "
                               "replaced only once complete)") },
    { 0 },
};

const CliCommand exp_vectors_cmd = {
    "experiment vectors", "P.flitlab NAME [--run N] [--vector NAME] [--format csv|json] [-o OUT]",
    N_("Write the vectors of committed runs: series over simulated time and figures per "
       "channel ('flitlab plot --help' lists them)."),
    vectors_options, 2, 2,
};

const CliCommand exp_export_cmd = {
    "experiment export", "P.flitlab NAME [--format csv|json] [-o OUT]",
    N_("Write one row per committed run: number, status, seed, parameters, scalars."),
    export_options, 2, 2,
};

/* ---- entry point ---------------------------------------------------------- */

/* new is run by cli_experiment() itself (its --set and --vary repeat). */
static int run_new_once(const CliCommand *cmd, const CliParsed *p)
{
    static const ExpDefs none;
    return run_new(cmd, p, &none);
}

static const CliSub experiment_subs[] = {
    { &new_cmd, run_new_once },
    { &ls_cmd, run_ls },
    { &show_cmd, run_show },
    { &status_cmd, run_status },
    { &exp_run_cmd, exp_run },
    { &exp_resume_cmd, exp_run },
    { &exp_export_cmd, exp_export },
    { &exp_vectors_cmd, exp_vectors },
    { &note_cmd, run_note },
    { &rm_cmd, run_rm },
    { 0 },
};

int cli_experiment(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "new") != 0)
        return cli_run_group("experiment",
                             _("Experiments in a project file: a network, the parameters "
                             "varied, and every run's results."),
                             experiment_subs, argc, argv);
    ExpDefs defs = { .nset = 0 };
    char **rest = calloc((size_t)argc, sizeof *rest);
    if (!rest)
        return cli_error(CLI_FAIL, _("out of memory"));
    int nrest = 0;
    int rc = take_defs(argc - 1, argv + 1, rest, &nrest, &defs);
    CliParsed p;
    if (!rc) {
        rc = cli_parse(&new_cmd, nrest, rest, &p);
        if (rc < 0)
            rc = CLI_OK;
        else if (!rc)
            rc = run_new(&new_cmd, &p, &defs);
    }
    free(rest);
    return rc;
}
