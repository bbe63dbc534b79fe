/* flitlab/option.h — Option descriptors: what a setting is called, its
 * type, range or choices, default and help, for front ends to build their
 * flags and settings rows from. The simulation settings (config.h) and each
 * routing's options (routing.h) are tables of these.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 */
#ifndef FLITLAB_OPTION_H
#define FLITLAB_OPTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum FlOptionType {
    FL_OPTION_INT = 0,    /* a whole number from min_int to max_int (fits an int) */
    FL_OPTION_INT64,      /* a whole number from min_int to max_int */
    FL_OPTION_DOUBLE,     /* a number from min to max */
    FL_OPTION_ENUM,       /* one of the choices (fl_option_choice()) */
    FL_OPTION_FLAG,       /* on or off: "true" or "false" (the CLI takes a bare --NAME) */
    FL_OPTION_STRING,     /* free text, such as a file name; "" is none */
    FL_OPTION_COMPOSITE   /* text in the syntax arg shows ("R:VA:SA:X[:CREDIT]") */
} FlOptionType;

/* Which model reads a simulation setting (FlOptionInfo.models). */
enum {
    FL_OPTION_FOR_FLIT = 1u << 0,         /* the flit-level simulator */
    FL_OPTION_FOR_DEFLECTION = 1u << 1,   /* paper 003's deflection model */
    FL_OPTION_FOR_MULTICAST = 1u << 2     /* a multicast tree, paper 001's (multicast.h) */
};

typedef struct FlOptionInfo {
    const char *name;     /* "vcs": the command-line spelling without the dashes */
    FlOptionType type;
    const char *group;    /* "Router", "Traffic", "Run", ...: for settings pages */
    const char *label;    /* a short title for a settings row: "Virtual channels" */
    const char *arg;      /* the value's placeholder in --help: "V", "MODE", "L|S:L:F" */
    const char *help;     /* one line, lower case, no period, without the default */
    const char *dflt;     /* the default's text (what format gives on fresh settings) */
    int64_t min_int, max_int;      /* FL_OPTION_INT, FL_OPTION_INT64 */
    double min, max;               /* FL_OPTION_DOUBLE */
    /* FL_OPTION_ENUM: the spellings, NULL-terminated, or a function giving
     * the one at index (NULL past the last) when another table holds them. */
    const char *const *choices;
    const char *(*choice_fn)(int index);
    /* A word that stands for "not set" and is accepted as a value (root:
     * "auto", the paper's rule), or NULL. */
    const char *unset;
    unsigned models;      /* FL_OPTION_FOR_*: simulation settings only */
    /* Why a value above max_int (or max) is refused, told with the range
     * (a msgid, FL_N_), or NULL when the range says it all. */
    const char *limit;
} FlOptionInfo;

/* The index-th spelling of an enum option (NULL past the last); how many. */
const char *fl_option_choice(const FlOptionInfo *o, int index);
int fl_option_choice_count(const FlOptionInfo *o);
/* "wormhole, vct": the choices, for messages and help; writes at most len
 * bytes (always NUL-terminated) and returns buf. */
const char *fl_option_choices_text(const FlOptionInfo *o, char *buf, size_t len);

/* Reads "a:b:c", the form of composite values such as a bimodal packet or
 * a sweep's rates, into up to max finite numbers; returns how many were
 * read, or -1 when text is malformed or holds more than max. */
int fl_option_split_numbers(const char *text, double *v, int max);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_OPTION_H */
