/* cli.h — shared pieces of the `flitlab` command. */
#ifndef FLITLAB_CLI_H
#define FLITLAB_CLI_H

#include <stdio.h>

#include "flitlab.h"

/* Translation (the "flitlab" gettext domain, bound in main.c): _() for a
 * message printed at once, N_() to mark a string kept in a table and
 * translated with _() where it is printed; a text of the engine's tables
 * (which may be empty, whose msgid is the catalogue's header) with
 * fl_gettext(). Machine output (CSV, JSON, plot
 * data files) is never translated. Numbers: main.c keeps LC_NUMERIC at "C",
 * so printf and strtod use '.' everywhere, in machine output and in what
 * the user types alike. */
#ifdef FL_ENABLE_NLS
#include <libintl.h>
#define _(s) gettext(s)
#else
#define _(s) ((const char *)(s))
#define ngettext(one, many, n) ((n) == 1 ? (one) : (many))
#endif
#define N_(s) s

/* Exit statuses: 0 success, 1 the command failed, 2 it was used wrongly. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* One option of a subcommand. Options with an argument take it as the next
 * word or after '=' (--format=dot). */
typedef struct CliOption {
    const char *name;     /* long name without dashes: "format" */
    char letter;          /* short form, or 0 */
    const char *arg;      /* argument placeholder ("FORMAT"), or NULL for a flag */
    const char *help;
} CliOption;

/* A command's options once expanded: those generated from the engine's
 * tables, then its own. The help lines of generated options are composed
 * here (the engine's help, the choices, the default). */
#define CLI_MAX_OPTIONS 64
#define CLI_HELP_MAX 320
typedef struct CliOptions {
    CliOption list[CLI_MAX_OPTIONS + 1];   /* terminated by a zero row */
    char help[CLI_MAX_OPTIONS][CLI_HELP_MAX];
    int n;
} CliOptions;

/* A subcommand: its usage line, a paragraph, its options and how many
 * positional words it takes. generate, when not NULL, adds the options
 * that come from the engine's tables (the routing registry, the simulation
 * settings), listed before the command's own. */
typedef struct CliCommand {
    const char *name;     /* "topo metrics" */
    const char *usage;    /* "SPEC|FILE|PROJECT.flitlab#NAME [--json]" */
    const char *summary;
    const CliOption *options;   /* terminated by a zero row */
    int min_args, max_args;
    void (*generate)(CliOptions *opts);
    const char *more;     /* a paragraph after the summary (what a build with
                           * cairo adds), or NULL */
} CliCommand;

#define CLI_MAX_ARGS 8

/* What the parser found: values[i] for opts.list[i] (a flag's value is
 * "1"), NULL when absent; the positional words in args. */
typedef struct CliParsed {
    CliOptions opts;
    const char *values[CLI_MAX_OPTIONS];
    const char *args[CLI_MAX_ARGS];
    int nargs;
} CliParsed;

/* Expands cmd's options into opts. */
void cli_expand_options(const CliCommand *cmd, CliOptions *opts);
/* Adds one option; its help is printf-formatted into opts' own storage. */
void cli_add_option(CliOptions *opts, const char *name, char letter, const char *arg,
                    const char *help_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* Adds an option described by the engine under the flag name flag (o->name
 * unless the command spells it otherwise); dflt is its default's text as
 * this command starts, or NULL to leave it out of the help. */
void cli_add_engine_option(CliOptions *opts, const FlOptionInfo *o, const char *flag,
                           char letter, const char *dflt);

/* Parses argv (the words after the subcommand name). Returns CLI_OK, or
 * prints help to stdout and returns -1 when --help was given, or prints a
 * one-line error and returns CLI_USAGE. */
int cli_parse(const CliCommand *cmd, int argc, char **argv, CliParsed *out);

/* The value of the option called name, or NULL. */
const char *cli_value(const CliCommand *cmd, const CliParsed *p, const char *name);
int cli_flag(const CliCommand *cmd, const CliParsed *p, const char *name);
/* The first of names (NULL-terminated) that was given, or NULL: how a
 * command finds an option that only some use of it reads (a picture's
 * --width without a picture), to refuse it rather than ignore it. */
const char *cli_given(const CliCommand *cmd, const CliParsed *p, const char *const *names);

/* Parses a whole non-negative integer option value; prints an error naming
 * the option on failure. */
int cli_int_value(const char *option, const char *text, long min, long max, long *out);

void cli_print_help(const CliCommand *cmd, FILE *to);

/* "flitlab: <message>" on stderr; returns status. */
int cli_error(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int cli_engine_error(const FlError *err);

/* label followed by the spaces that make it width columns wide on a terminal
 * (printf's %-18s counts bytes, and a Korean or Japanese label takes two
 * columns a character): the left column of the command's human-readable
 * `label value` tables. Returns one of a few static buffers, so a printf()
 * may take up to eight. */
const char *cli_label(const char *label, int width);
/* heading right-aligned in width display columns, over a column of numbers. */
const char *cli_heading(const char *heading, int width);

/* Prints o (which it takes) as indented JSON with a newline, keys in
 * insertion order; jansson's json_t, named without its header (json-output.c). */
struct json_t;
int cli_write_json(struct json_t *o, FILE *to);
/* The same for an object (o is one) whose opening brace was written
 * before. */
int cli_write_json_rest(struct json_t *o, FILE *to);

/* Writes to the file path (atomically: nothing is left of it when write
 * fails) or, with path NULL, to standard output, through write(fp, data),
 * which returns an exit status; a file that cannot be written is reported. */
typedef int (*CliWriter)(FILE *fp, void *data);
int cli_write_output(const char *path, CliWriter write, void *data);

/* The same in two steps around long work, so that an output that cannot
 * be written is found before the work rather than after it: opens path
 * (atomically) or, for NULL, standard output into out->fp; then
 * cli_output_close() commits what was written when rc is 0 and discards it
 * otherwise, and returns the exit status. */
typedef struct CliOutput {
    struct FlOutput *file;
    FILE *fp;
} CliOutput;
int cli_output_open(const char *path, CliOutput *out);
/* Flushes what was written to out so far, so that an output that cannot
 * take it (a full device, a closed pipe) fails now: CLI_OK, or the failure
 * reported and out closed (cli_output_close() then does nothing). */
int cli_output_flush(CliOutput *out);
int cli_output_close(CliOutput *out, int rc);

/* The flag of a routing option: its name, but the VC classes are called
 * classes_option (--vcs in `route` and `turns`, --classes in `sim`, where
 * --vcs is the number of VCs per port). */
const char *cli_routing_flag(const FlOptionInfo *o, const char *classes_option);

/* Adds --routing (with routing_help) and a flag for every option of the
 * routing registry (routing-options.c). */
void cli_add_routing_options(CliOptions *opts, const char *routing_help,
                             const char *classes_option);

/* Reads the routing options given into *opt (fl_routing_options_init()'d
 * here; free with fl_routing_options_clear()) and refuses one that the
 * routing called name does not take, by the registry. Only the values are
 * checked: the network is not loaded yet. An unknown name is left for
 * fl_routing_new() to report. */
int cli_routing_options(const CliCommand *cmd, const CliParsed *p, const char *name,
                        const char *classes_option, FlRoutingOptions *opt);

/* Node numbers at the command line are labels, the numbers pictures show
 * (flitlab/topology.h); the engine takes ids. The switch labelled label,
 * given with --option, into *node; a label no node carries, or a host's,
 * is refused with a usage error naming the option and the label. */
int cli_switch_arg(const FlTopology *t, const char *option, long label, int *node);

/* The labels of the nodes channel c of t leaves and enters, as printed. */
int cli_channel_src_label(const FlTopology *t, int c);
int cli_channel_dst_label(const FlTopology *t, int c);

/* Turns opt's root and the switches of its prohibited turns, read as labels
 * by cli_routing_options(), into t's ids, refusing as cli_switch_arg()
 * does. Call it once the network is loaded, before building the routing. */
int cli_routing_labels(const FlTopology *t, FlRoutingOptions *opt);

/* Builds the routing called name on t with opt; *out is NULL after a
 * failure. */
int cli_routing_new(const FlTopology *t, const char *name, const FlRoutingOptions *opt,
                    FlRouting **out);

/* Reports an engine refusal of the value of option --flag (a message that
 * starts with the engine's name for it, engine_name, gets the flag's
 * spelling instead) as a usage error. */
int cli_option_error(const FlError *err, const char *engine_name, const char *flag);

/* Resolves SPEC | FILE | PROJECT.flitlab#NAME to a topology (load.c). */
int cli_load_topology(const char *what, FlTopology **out, FlError *err);

/* What runs a subcommand once its words are parsed. */
typedef int (*CliRunFunc)(const CliCommand *cmd, const CliParsed *p);

/* A group of subcommands ("topo metrics", "topo export"): each row names its
 * command table and the function that runs it once parsed. */
typedef struct CliSub {
    const CliCommand *cmd;
    CliRunFunc run;
} CliSub;

/* Parses argv (the words after the command's name) and runs cmd. For
 * --help, prints cmd's help and then more_help's, if not NULL, to stdout,
 * and returns CLI_OK. */
int cli_run_single(const CliCommand *cmd, CliRunFunc run, void (*more_help)(FILE *to),
                   int argc, char **argv);

/* Finds argv[0] among subs (by the last word of each command's name),
 * parses the rest and runs it; prints the group's help for --help or no
 * subcommand. subs ends with a zero row. */
int cli_run_group(const char *group, const char *summary, const CliSub *subs,
                  int argc, char **argv);

/* Subcommand groups. */
int cli_topo(int argc, char **argv);
int cli_project(int argc, char **argv);
int cli_experiment(int argc, char **argv);

/* Figures of an experiment's results (cmd-plot.c). */
int cli_plot(int argc, char **argv);

/* Single commands (cmd-route.c). */
int cli_route(int argc, char **argv);
int cli_turns(int argc, char **argv);

/* Single commands (cmd-sim.c, cmd-sweep.c). */
int cli_sim(int argc, char **argv);
int cli_sweep(int argc, char **argv);

/* Collective communication (cmd-multicast.c, cmd-alltoall.c, cmd-schedule.c). */
int cli_multicast(int argc, char **argv);
int cli_alltoall(int argc, char **argv);
int cli_schedule(int argc, char **argv);

/* Lesson files (cmd-lesson.c). */
int cli_lesson(int argc, char **argv);

#endif /* FLITLAB_CLI_H */
