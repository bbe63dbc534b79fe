/* cli.h — shared pieces of the `flitlab` command. */
#ifndef FLITLAB_CLI_H
#define FLITLAB_CLI_H

#include <stdio.h>

#include "flitlab.h"

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

/* A subcommand: its usage line, a paragraph, its options and how many
 * positional words it takes. */
typedef struct CliCommand {
    const char *name;     /* "topo metrics" */
    const char *usage;    /* "SPEC|FILE|PROJECT.flitlab#NAME [--json]" */
    const char *summary;
    const CliOption *options;   /* terminated by a zero row */
    int min_args, max_args;
} CliCommand;

/* `sim` and `sweep` have about thirty options. */
#define CLI_MAX_OPTIONS 40
#define CLI_MAX_ARGS 8

/* What the parser found: values[i] for options[i] (a flag's value is "1"),
 * NULL when absent; the positional words in args. */
typedef struct CliParsed {
    const char *values[CLI_MAX_OPTIONS];
    const char *args[CLI_MAX_ARGS];
    int nargs;
} CliParsed;

/* Parses argv (the words after the subcommand name). Returns CLI_OK, or
 * prints help to stdout and returns -1 when --help was given, or prints a
 * one-line error and returns CLI_USAGE. */
int cli_parse(const CliCommand *cmd, int argc, char **argv, CliParsed *out);

/* The value of the option called name, or NULL. */
const char *cli_value(const CliCommand *cmd, const CliParsed *p, const char *name);
int cli_flag(const CliCommand *cmd, const CliParsed *p, const char *name);

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

/* Prints o (which it takes) as indented JSON with a newline, keys in
 * insertion order; jansson's json_t, named without its header (json-output.c). */
struct json_t;
int cli_write_json(struct json_t *o, FILE *to);

/* Reads --root, --order and the option that limits the routing's VC classes
 * (called classes_option: --vcs in `route`, --classes in `sim`) into *opt,
 * which starts with no root. Only the values' ranges are checked: the
 * network is not loaded yet (routing-options.c). */
int cli_routing_options(const CliCommand *cmd, const CliParsed *p, const char *classes_option,
                        FlRoutingOptions *opt);

/* Builds the routing called name on t with opt, refusing a --root the
 * routing has no use for; *out is NULL after a failure. */
int cli_routing_new(const FlTopology *t, const char *name, const FlRoutingOptions *opt,
                    FlRouting **out);

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

/* Single commands (cmd-route.c). */
int cli_route(int argc, char **argv);
int cli_turns(int argc, char **argv);

/* Single commands (cmd-sim.c, cmd-sweep.c). */
int cli_sim(int argc, char **argv);
int cli_sweep(int argc, char **argv);

#endif /* FLITLAB_CLI_H */
