/* option-internal.h — parsing and formatting a value of an option
 * descriptor (FlOptionInfo), shared by the simulation settings
 * (sim-config.c) and the routing options (routing.c). */
#ifndef FLITLAB_OPTION_INTERNAL_H
#define FLITLAB_OPTION_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab.h"

/* A whole number within o's range (FL_OPTION_INT, FL_OPTION_INT64); o->unset,
 * when it has one, reads as unset_value. */
int fl__option_parse_int(const FlOptionInfo *o, const char *text, int64_t unset_value,
                         int64_t *out, FlError *err);
/* A number within o's range (FL_OPTION_DOUBLE). */
int fl__option_parse_double(const FlOptionInfo *o, const char *text, double *out,
                            FlError *err);
/* The index of text among o's choices (FL_OPTION_ENUM). */
int fl__option_parse_enum(const FlOptionInfo *o, const char *text, int *out, FlError *err);
/* true/false, yes/no, on/off, 1/0 (FL_OPTION_FLAG). */
int fl__option_parse_flag(const FlOptionInfo *o, const char *text, int *out, FlError *err);

/* The shortest text that reads back as v exactly ("0.1", not 0.1000...01). */
int fl__format_double(char *buf, size_t len, double v);

#endif /* FLITLAB_OPTION_INTERNAL_H */
