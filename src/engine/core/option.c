/* option.c — option descriptors: their choices, and reading and writing
 * their values as text with messages that name the option. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "option-internal.h"

const char *fl_option_choice(const FlOptionInfo *o, int index)
{
    if (!o || o->type != FL_OPTION_ENUM || index < 0)
        return NULL;
    if (o->choice_fn)
        return o->choice_fn(index);
    for (int i = 0; o->choices && o->choices[i]; i++)
        if (i == index)
            return o->choices[i];
    return NULL;
}

int fl_option_choice_count(const FlOptionInfo *o)
{
    int n = 0;
    while (fl_option_choice(o, n))
        n++;
    return n;
}

const char *fl_option_choices_text(const FlOptionInfo *o, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (int i = 0; fl_option_choice(o, i) && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", fl_option_choice(o, i));
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

int fl__option_parse_int(const FlOptionInfo *o, const char *text, int64_t unset_value,
                         int64_t *out, FlError *err)
{
    if (o->unset && strcmp(text, o->unset) == 0) {
        *out = unset_value;
        return FL_OK;
    }
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    int malformed = end == text || *end;
    if (!malformed && o->limit && v > 0 && (errno || v > o->max_int))
        return fl_error_set(err, FL_ERANGE, "%s needs a whole number from %lld to %lld, not "
                            "'%s': %s", o->name, (long long)o->min_int, (long long)o->max_int,
                            text, fl_gettext(o->limit));
    if (errno || malformed || v < o->min_int || v > o->max_int)
        return fl_error_set(err, malformed ? FL_EINVAL : FL_ERANGE,
                            "%s needs a whole number from %lld to %lld, not '%s'", o->name,
                            (long long)o->min_int, (long long)o->max_int, text);
    *out = (int64_t)v;
    return FL_OK;
}

int fl__option_parse_double(const FlOptionInfo *o, const char *text, double *out,
                            FlError *err)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !isfinite(v) || v < o->min || v > o->max)
        return fl_error_set(err, end == text || *end ? FL_EINVAL : FL_ERANGE,
                            "%s needs a number from %g to %g, not '%s'", o->name, o->min,
                            o->max, text);
    *out = v;
    return FL_OK;
}

int fl__option_parse_enum(const FlOptionInfo *o, const char *text, int *out, FlError *err)
{
    for (int i = 0; fl_option_choice(o, i); i++) {
        if (strcmp(text, fl_option_choice(o, i)) == 0) {
            *out = i;
            return FL_OK;
        }
    }
    char known[512];
    return fl_error_set(err, FL_EINVAL, "%s: unknown value '%s' (known: %s)", o->name, text,
                        fl_option_choices_text(o, known, sizeof known));
}

int fl__option_parse_flag(const FlOptionInfo *o, const char *text, int *out, FlError *err)
{
    static const char *const words[][2] = {
        { "true", "false" }, { "yes", "no" }, { "on", "off" }, { "1", "0" },
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        for (int v = 0; v < 2; v++) {
            if (strcmp(text, words[i][v]) == 0) {
                *out = !v;
                return FL_OK;
            }
        }
    }
    return fl_error_set(err, FL_EINVAL, "%s needs true or false, not '%s'", o->name, text);
}

int fl_option_split_numbers(const char *text, double *v, int max)
{
    int n = 0;
    const char *s = text;
    while (n < max) {
        char *end;
        v[n] = strtod(s, &end);
        if (end == s || !isfinite(v[n]))
            return -1;
        n++;
        if (*end == '\0')
            return n;
        if (*end != ':')
            return -1;
        s = end + 1;
    }
    return -1;
}

int fl__format_double(char *buf, size_t len, double v)
{
    char tmp[64];
    for (int digits = 6; digits <= 17; digits++) {
        snprintf(tmp, sizeof tmp, "%.*g", digits, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    return snprintf(buf, len, "%s", tmp);
}
