/* json.c — Flitlab's own topology file, read with jansson and written by hand.
 *
 * Format versions 1 and 2. Keep them stable: a change that an older reader
 * would misread needs a new version, which older readers refuse with
 * FL_EVERSION. Version 2 adds node labels ("label", "next_label"); the
 * writer writes version 1, without them, whenever every label equals its
 * node's index and the next label is the node count (every unedited
 * network), so such files read in every Flitlab and keep their bytes.
 *
 *   {
 *     "format": "flitlab-topology",   required, exactly this string
 *     "version": 2,                   required; 1 or 2
 *     "name": "my torus",             optional, default ""
 *     "family": "torus",              optional, default "custom"
 *     "family_dims": [8, 8],          optional, default []; up to 3 integers >= 1
 *     "spec": "torus:8x8",            optional, default null
 *     "coord_dims": 2,                optional, default 0; 0 to 3
 *     "next_label": 65,               optional (version 2); default: the
 *                                     highest label + 1
 *     "nodes": [                      required; at most 2^20 switches and
 *                                     2^25 ports in all
 *       {"kind": "switch", "ports": 5, "coords": [0, 0], "pos": [0, 0]},
 *       {"kind": "switch", "ports": 5, "coords": [1, 0], "pos": [1, 0], "label": 64},
 *       {"kind": "host", "ports": 1, "coords": [0, 0], "pos": [0.25, -0.25]}
 *     ],
 *     "links": [                      required; at most one per two ports
 *       [0, 4, 1, 0]                  node a, port of a, node b, port of b
 *     ]
 *   }
 *
 * Nodes, ports and links are numbered from 0 in file order, and the order is
 * kept: link l carries channels 2l and 2l + 1. In a node, "kind" is
 * "switch" or "host"; "ports" is 1 to 256 for a switch and 1 for a host (where
 * it may be left out); "coords" holds coord_dims integers (default zeros);
 * "pos" is the drawing position, two finite numbers within +-1e9 in layout
 * units (default [0, 0]); "label" is the number people see (see
 * flitlab/topology.h), an integer from 0 unique in the file, written only
 * when it differs from the node's index, which is its default. Links name
 * nodes by index, never by label. "next_label", the label the next node
 * added gets, must be above every label; it is written only when it is not
 * the highest label + 1 (after the node with the highest label was deleted).
 *
 * "family", "family_dims" and "spec" describe the generator that built the
 * network; a custom network has family "custom", no dims and a null spec.
 * Building a topology resets its family to "custom", so the reader restores
 * them once the network is built, but only when the spec still generates
 * exactly the network of the file (positions and name aside). A file edited
 * by hand, or written by a version whose generator differs, reads as a
 * custom network, just as an edit in the program makes a generated network
 * custom: routing rules that trust a family never meet a network that is
 * not what the family says.
 *
 * Anything else is an error: unknown fields, duplicate keys, wrong types,
 * trailing text. The writer always writes every field, in the order above,
 * one node or link per line, so the same topology gives the same bytes.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "flitlab-io.h"

#define FORMAT_NAME "flitlab-topology"
#define FORMAT_VERSION 2
/* What a network without labels of its own is written as. */
#define FORMAT_VERSION_PLAIN 1
#define MAX_FAMILY_NAME 64
#define MAX_SPEC 256
#define MAX_COORD 1000000000
#define MAX_POSITION 1e9

/* ------------------------------------------------------------------------ */
/* Numbers and names shared with the other writers                          */
/* ------------------------------------------------------------------------ */

void fl__io_format_number(char buf[FL__IO_NUMBER_MAX], double v)
{
    /* The shortest of 15, 16, 17 significant digits that reads back as the
     * same double, so files stay readable and round trips stay exact. */
    if (v == 0)
        v = 0; /* -0 would read back as the integer 0 */
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, FL__IO_NUMBER_MAX, "%.*g", prec, v);
        /* strtod reads the text in the locale printf wrote it in. */
        if (strtod(buf, NULL) == v)
            break;
    }
    /* printf follows LC_NUMERIC, which the GUI sets: turn whatever decimal
     * separator it used (possibly several bytes) into '.'. */
    char *w = buf;
    for (const char *r = buf; *r;) {
        if (isdigit((unsigned char)*r) || *r == 'e' || *r == '+' || *r == '-') {
            *w++ = *r++;
        } else {
            *w++ = '.';
            while (*r && !isdigit((unsigned char)*r) && *r != 'e' && *r != '+' && *r != '-')
                r++;
        }
    }
    *w = '\0';
}

int fl__io_check_position(const FlTopology *t, int node, FlError *err)
{
    double x, y;
    fl_topology_get_position(t, node, &x, &y);
    if (!isfinite(x) || !isfinite(y) || fabs(x) > MAX_POSITION || fabs(y) > MAX_POSITION)
        return fl_error_set(err, FL_EINVAL,
                            "node %d is at (%g, %g): a file holds positions within +-1e9 only",
                            fl_topology_node_label(t, node), x, y);
    return FL_OK;
}

/* Family names are short identifiers like "myrinet-mesh". */
static int valid_family_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > MAX_FAMILY_NAME)
        return 0;
    /* Explicit ranges: islower() would follow a single-byte locale. */
    for (size_t i = 0; i < n; i++)
        if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= '0' && s[i] <= '9') && s[i] != '-'
            && s[i] != '_')
            return 0;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Walking the text                                                         */
/* ------------------------------------------------------------------------ */

/* jansson builds a tree of 20 to 25 times the size of the text it parses,
 * so the whole file is never given to it: the reader walks the top-level
 * object and the "nodes" and "links" arrays itself, counting and checking
 * as it goes, and hands jansson one field value, one node or one link at a
 * time, each at most MAX_VALUE_BYTES long. Memory is the text, the network
 * being built and one small tree. */
#define MAX_VALUE_BYTES (1 << 20)

typedef struct Walk {
    const char *s;
    size_t len, pos;
    FlError *err;
} Walk;

/* An array of the top level read element by element: '[' at start. */
typedef struct Span {
    int seen;
    size_t start, count;
} Span;

static int is_json_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skip_space(Walk *w)
{
    while (w->pos < w->len && is_json_space(w->s[w->pos]))
        w->pos++;
}

static int peek(const Walk *w)
{
    return w->pos < w->len ? (unsigned char)w->s[w->pos] : -1;
}

/* Where the value that starts at pos ends: after its closing quote or
 * bracket, or before the delimiter that follows a bare word. Nothing is
 * checked but quotes and brackets (jansson checks the rest); an unclosed
 * value runs to the end of the text. */
static size_t value_end(const Walk *w, size_t pos)
{
    const char *s = w->s;
    size_t depth = 0;
    if (pos < w->len && s[pos] != '"' && s[pos] != '[' && s[pos] != '{') {
        while (pos < w->len && !is_json_space(s[pos]) && !strchr(",:[]{}\"", s[pos]))
            pos++;
        return pos;
    }
    while (pos < w->len) {
        char c = s[pos++];
        if (c == '"') {
            while (pos < w->len && s[pos] != '"')
                pos += s[pos] == '\\' ? 2 : 1;
            if (pos >= w->len)
                return w->len;
            pos++;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && --depth == 0) {
            return pos;
        }
        if (depth == 0)
            return pos;
    }
    return w->len;
}

/* Line and column of the byte at pos as jansson counts them: lines from 1,
 * columns in characters from 1, the byte at pos included (0 at the start
 * of an empty line or of the file). */
static void line_column(const Walk *w, size_t pos, int *line, int *column)
{
    size_t start = 0;
    *line = 1;
    for (size_t i = 0; i < pos && i < w->len; i++)
        if (w->s[i] == '\n') {
            ++*line;
            start = i + 1;
        }
    *column = 0;
    for (size_t i = start; i <= pos && i < w->len; i++)
        *column += ((unsigned char)w->s[i] & 0xC0) != 0x80;
}

/* A syntax error at pos, with the text found there as jansson shows it;
 * expected is a msgid. */
static int syntax_error(const Walk *w, size_t pos, const char *expected)
{
    int line, column;
    expected = fl_gettext(expected);
    line_column(w, pos, &line, &column);
    if (pos >= w->len)
        return fl_error_set(w->err, FL_EPARSE, "line %d, column %d: %s near end of file", line,
                            column, expected);
    size_t end = value_end(w, pos);
    if (end == pos)
        end = pos + 1;
    char near[24];
    size_t n = end - pos < sizeof near - 1 ? end - pos : sizeof near - 1;
    for (size_t i = 0; i < n; i++)
        near[i] = w->s[pos + i] >= 0x20 && w->s[pos + i] < 0x7f ? w->s[pos + i] : '?';
    near[n] = '\0';
    return fl_error_set(w->err, FL_EPARSE, "line %d, column %d: %s near '%s%s'", line, column,
                        expected, near, end - pos > n ? "..." : "");
}

/* Parses the value at [start, end) with jansson; its errors are placed in
 * the whole text. */
static int load_value(const Walk *w, size_t start, size_t end, json_t **out)
{
    json_error_t jerr;
    *out = json_loadb(w->s + start, end - start, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
    if (*out)
        return FL_OK;
    int line, column;
    line_column(w, start, &line, &column);
    if (json_error_code(&jerr) == json_error_out_of_memory)
        return fl_error_set(w->err, FL_ENOMEM, "out of memory parsing the value at line %d, "
                            "column %d (%zu bytes)", line, column, end - start);
    /* jansson gives no place (line -1) for errors it cannot place: name the
     * value's. */
    if (jerr.line < 1 || !jerr.text[0])
        return fl_error_set(w->err, FL_EPARSE, "line %d, column %d: the value of %zu bytes "
                            "here is not valid JSON", line, column, end - start);
    /* jansson quotes the input near the error; keep the message one line
     * of plain text whatever the input held. */
    for (char *c = jerr.text; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
    /* column counted start itself; jansson's first line starts there. */
    column = jerr.line == 1 ? column - (start < w->len) + jerr.column : jerr.column;
    line += jerr.line - 1;
    return fl_error_set(w->err, FL_EPARSE, "line %d, column %d: %s", line, column, jerr.text);
}

/* The extent of the value at w->pos, refused when too long for jansson:
 * element index of the array what, the value of the field what, or a field
 * name (what NULL). */
static int next_value(Walk *w, const char *what, size_t index, size_t *end)
{
    *end = value_end(w, w->pos);
    if (*end == w->pos)
        return syntax_error(w, w->pos, FL_N_("a value expected"));
    if (*end - w->pos > MAX_VALUE_BYTES && !what)
        return fl_error_set(w->err, FL_ERANGE, "a field name is longer than %d bytes",
                            MAX_VALUE_BYTES);
    if (*end - w->pos > MAX_VALUE_BYTES)
        return index == (size_t)-1
                   ? fl_error_set(w->err, FL_ERANGE, "%s: the value is longer than %d bytes",
                                  what, MAX_VALUE_BYTES)
                   : fl_error_set(w->err, FL_ERANGE, "%s[%zu]: longer than %d bytes", what,
                                  index, MAX_VALUE_BYTES);
    return FL_OK;
}

/* Walks the array at w->pos, counting its elements and checking their
 * lengths and the commas between them; max is the most it may hold. */
static int walk_array(Walk *w, const char *what, size_t max, Span *span)
{
    span->seen = 1;
    span->start = w->pos++;
    span->count = 0;
    skip_space(w);
    if (peek(w) == ']') {
        w->pos++;
        return FL_OK;
    }
    for (;;) {
        size_t end;
        skip_space(w);
        int rc = next_value(w, what, span->count, &end);
        if (rc)
            return rc;
        if (++span->count > max)
            return fl_error_set(w->err, FL_ERANGE, "%s: the file has more than %zu %s, the most a "
                                "network can have (at most %d ports in all)", what, max, what,
                                FL_IO_MAX_PORTS);
        w->pos = end;
        skip_space(w);
        if (peek(w) == ']') {
            w->pos++;
            return FL_OK;
        }
        if (peek(w) != ',')
            return syntax_error(w, w->pos, FL_N_("',' or ']' expected"));
        w->pos++;
    }
}

/* Calls fn on each element of the array walked into span, parsed alone. */
typedef int (*ElementFn)(void *ctx, json_t *v, size_t i, FlError *err);
static int each_element(Walk *w, const Span *span, ElementFn fn, void *ctx)
{
    w->pos = span->start + 1;
    for (size_t i = 0; i < span->count; i++) {
        skip_space(w);
        size_t end = value_end(w, w->pos);
        json_t *v;
        int rc = load_value(w, w->pos, end, &v);
        if (rc)
            return rc;
        rc = fn(ctx, v, i, w->err);
        json_decref(v);
        if (rc)
            return rc;
        w->pos = end;
        skip_space(w);
        w->pos++; /* ',' or ']', checked by walk_array() */
    }
    return FL_OK;
}

/* A file that is not an object: a small one is parsed as before for its
 * syntax errors and type; a big array is named without parsing it. */
static int not_an_object(Walk *w)
{
    if (peek(w) != '[')
        return syntax_error(w, w->pos, FL_N_("'[' or '{' expected"));
    if (w->len <= MAX_VALUE_BYTES) {
        json_t *v;
        int rc = load_value(w, 0, w->len, &v);
        if (rc)
            return rc;
        json_decref(v);
    }
    return fl_error_set(w->err, FL_EPARSE,
                        "not a Flitlab topology: the file holds an array, not an object");
}

/* Walks the top-level object: every field but the arrays "nodes" and
 * "links" is parsed into root, and those two are counted into their spans
 * (root gets an empty array for each, for the checks of fields). */
static int walk_top(Walk *w, json_t *root, Span *nodes, Span *links)
{
    skip_space(w);
    if (peek(w) != '{')
        return not_an_object(w);
    w->pos++;
    skip_space(w);
    int more = peek(w) != '}';
    if (!more)
        w->pos++;
    while (more) {
        size_t end;
        json_t *key, *value;
        skip_space(w);
        if (peek(w) != '"')
            return syntax_error(w, w->pos, FL_N_("string or '}' expected"));
        int rc = next_value(w, NULL, (size_t)-1, &end);
        if (rc || (rc = load_value(w, w->pos, end, &key)))
            return rc;
        const char *name = json_string_value(key);
        if (json_object_get(root, name)) {
            json_decref(key);
            return syntax_error(w, w->pos, FL_N_("duplicate object key"));
        }
        w->pos = end;
        skip_space(w);
        if (peek(w) != ':') {
            json_decref(key);
            return syntax_error(w, w->pos, FL_N_("':' expected"));
        }
        w->pos++;
        skip_space(w);
        int is_nodes = strcmp(name, "nodes") == 0, is_links = strcmp(name, "links") == 0;
        if ((is_nodes || is_links) && peek(w) == '[') {
            rc = is_nodes ? walk_array(w, "nodes", FL_IO_MAX_NODES, nodes)
                          : walk_array(w, "links", FL_IO_MAX_LINKS, links);
            value = rc ? NULL : json_array();
        } else {
            rc = next_value(w, name, (size_t)-1, &end);
            if (!rc && !(rc = load_value(w, w->pos, end, &value)))
                w->pos = end;
        }
        if (!rc && json_object_set_new(root, name, value))
            rc = fl_error_set(w->err, FL_ENOMEM, "out of memory reading a topology");
        json_decref(key);
        if (rc)
            return rc;
        skip_space(w);
        more = peek(w) == ',';
        if (!more && peek(w) != '}')
            return syntax_error(w, w->pos, FL_N_("',' or '}' expected"));
        w->pos++;
    }
    skip_space(w);
    if (w->pos < w->len)
        return syntax_error(w, w->pos, FL_N_("end of file expected"));
    return FL_OK;
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */
/* ------------------------------------------------------------------------ */

/* One validated node, so the builder need not re-check anything. */
typedef struct NodeSpec {
    FlNodeKind kind;
    int ports;
    int coords[FL_MAX_DIMS];
    double x, y;
    int label;           /* -1: the node's index */
} NodeSpec;

/* The file's metadata, validated. Strings point into the jansson tree. */
typedef struct Meta {
    const char *name;
    const char *family;
    int family_ndims;
    int family_dims[FL_MAX_DIMS];
    const char *spec;
    int coord_dims;
    int next_label;      /* -1: the highest label + 1 */
} Meta;

/* A JSON integer within [lo, hi]; json reals such as 2.0 are refused. */
static int get_int(const json_t *v, long long lo, long long hi, int *out)
{
    if (!json_is_integer(v))
        return 0;
    json_int_t i = json_integer_value(v);
    if (i < lo || i > hi)
        return 0;
    *out = (int)i;
    return 1;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "a value";
}

/* Refuses any key of obj that is not in the NULL-terminated list known. */
static int check_keys(json_t *obj, const char *const *known, const char *where,
                      FlError *err)
{
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        int found = 0;
        for (const char *const *k = known; *k && !found; k++)
            found = strcmp(key, *k) == 0;
        if (!found)
            return fl_error_set(err, FL_EPARSE, "%s%sunknown field \"%.64s\"", where,
                                *where ? ": " : "", key);
    }
    return FL_OK;
}

static int check_header(json_t *root, FlError *err)
{
    if (!json_is_object(root))
        return fl_error_set(err, FL_EPARSE,
                            "not a Flitlab topology: the file holds %s, not an object",
                            type_name(root));
    json_t *format = json_object_get(root, "format");
    if (!format)
        return fl_error_set(err, FL_EPARSE,
                            "not a Flitlab topology: the \"format\" field is missing");
    if (!json_is_string(format) || strcmp(json_string_value(format), FORMAT_NAME) != 0)
        return fl_error_set(err, FL_EPARSE, "format: must be \"%s\"", FORMAT_NAME);
    json_t *version = json_object_get(root, "version");
    if (!version)
        return fl_error_set(err, FL_EPARSE, "version: missing");
    if (!json_is_integer(version) || json_integer_value(version) < 1)
        return fl_error_set(err, FL_EPARSE, "version: must be a positive integer");
    if (json_integer_value(version) > FORMAT_VERSION)
        return fl_error_set(err, FL_EVERSION,
                            "the file was written by a newer Flitlab (topology format "
                            "version %lld; this version reads up to %d)",
                            (long long)json_integer_value(version), FORMAT_VERSION);
    static const char *const known[] = {
        "format", "version", "name", "family", "family_dims", "spec", "coord_dims",
        "next_label", "nodes", "links", NULL,
    };
    return check_keys(root, known, "", err);
}

static int read_meta(json_t *root, Meta *m, FlError *err)
{
    json_t *v;
    m->name = "";
    if ((v = json_object_get(root, "name"))) {
        if (!json_is_string(v))
            return fl_error_set(err, FL_EPARSE, "name: must be a string, not %s", type_name(v));
        m->name = json_string_value(v);
    }

    m->family = "custom";
    if ((v = json_object_get(root, "family"))) {
        if (!json_is_string(v) || !valid_family_name(json_string_value(v)))
            return fl_error_set(err, FL_EPARSE,
                                "family: must be a family name such as \"torus\" or \"custom\"");
        m->family = json_string_value(v);
    }

    m->family_ndims = 0;
    if ((v = json_object_get(root, "family_dims"))) {
        if (!json_is_array(v) || json_array_size(v) > FL_MAX_DIMS)
            return fl_error_set(err, FL_EPARSE,
                                "family_dims: must be an array of at most %d integers",
                                FL_MAX_DIMS);
        m->family_ndims = (int)json_array_size(v);
        for (int d = 0; d < m->family_ndims; d++)
            if (!get_int(json_array_get(v, (size_t)d), 1, FL_IO_MAX_NODES, &m->family_dims[d]))
                return fl_error_set(err, FL_EPARSE,
                                    "family_dims[%d]: must be an integer from 1 to %d", d,
                                    FL_IO_MAX_NODES);
    }

    m->spec = NULL;
    if ((v = json_object_get(root, "spec")) && !json_is_null(v)) {
        if (!json_is_string(v) || json_string_length(v) == 0
            || json_string_length(v) > MAX_SPEC)
            return fl_error_set(err, FL_EPARSE,
                                "spec: must be null or a spec of 1 to %d characters", MAX_SPEC);
        m->spec = json_string_value(v);
    }
    if (strcmp(m->family, "custom") == 0 && (m->spec || m->family_ndims))
        return m->spec ? fl_error_set(err, FL_EPARSE, "spec: must be null for a custom network")
                       : fl_error_set(err, FL_EPARSE,
                                      "family_dims: must be empty for a custom network");

    m->coord_dims = 0;
    if ((v = json_object_get(root, "coord_dims"))
        && !get_int(v, 0, FL_MAX_DIMS, &m->coord_dims))
        return fl_error_set(err, FL_EPARSE, "coord_dims: must be an integer from 0 to %d",
                            FL_MAX_DIMS);

    m->next_label = -1;
    if ((v = json_object_get(root, "next_label")) && !get_int(v, 0, INT_MAX, &m->next_label))
        return fl_error_set(err, FL_EPARSE, "next_label: must be an integer from 0 to %d",
                            INT_MAX);
    return FL_OK;
}

static int read_node(json_t *v, size_t i, int coord_dims, NodeSpec *ns, FlError *err)
{
    static const char *const known[] = { "kind", "ports", "coords", "pos", "label", NULL };
    char where[48];
    snprintf(where, sizeof where, "nodes[%zu]", i);
    if (!json_is_object(v))
        return fl_error_set(err, FL_EPARSE, "%s: must be an object, not %s", where,
                            type_name(v));
    int rc = check_keys(v, known, where, err);
    if (rc)
        return rc;

    json_t *kind = json_object_get(v, "kind");
    const char *k = json_is_string(kind) ? json_string_value(kind) : "";
    if (strcmp(k, "switch") == 0)
        ns->kind = FL_NODE_SWITCH;
    else if (strcmp(k, "host") == 0)
        ns->kind = FL_NODE_HOST;
    else
        return fl_error_set(err, FL_EPARSE, "%s.kind: must be \"switch\" or \"host\"", where);

    json_t *ports = json_object_get(v, "ports");
    if (ns->kind == FL_NODE_HOST) {
        ns->ports = 1;
        if (ports && !get_int(ports, 1, 1, &ns->ports))
            return fl_error_set(err, FL_EPARSE, "%s.ports: a host has exactly 1 port", where);
    } else if (!get_int(ports, 1, FL_MAX_PORTS, &ns->ports)) {
        return fl_error_set(err, FL_EPARSE, "%s.ports: must be an integer from 1 to %d",
                            where, FL_MAX_PORTS);
    }

    memset(ns->coords, 0, sizeof ns->coords);
    json_t *coords = json_object_get(v, "coords");
    if (coords) {
        if (!json_is_array(coords) || json_array_size(coords) != (size_t)coord_dims)
            return fl_error_set(err, FL_EPARSE,
                                "%s.coords: must be an array of coord_dims (%d) integers",
                                where, coord_dims);
        for (int d = 0; d < coord_dims; d++)
            if (!get_int(json_array_get(coords, (size_t)d), -MAX_COORD, MAX_COORD,
                         &ns->coords[d]))
                return fl_error_set(err, FL_EPARSE,
                                    "%s.coords[%d]: must be an integer within +-%d", where, d,
                                    MAX_COORD);
    }

    ns->x = ns->y = 0;
    json_t *pos = json_object_get(v, "pos");
    if (pos) {
        json_t *x = json_array_get(pos, 0), *y = json_array_get(pos, 1);
        if (!json_is_array(pos) || json_array_size(pos) != 2 || !json_is_number(x)
            || !json_is_number(y))
            return fl_error_set(err, FL_EPARSE, "%s.pos: must be an array of two numbers",
                                where);
        ns->x = json_number_value(x);
        ns->y = json_number_value(y);
        if (!isfinite(ns->x) || !isfinite(ns->y) || fabs(ns->x) > MAX_POSITION
            || fabs(ns->y) > MAX_POSITION)
            return fl_error_set(err, FL_EPARSE, "%s.pos: must be finite and within +-1e9",
                                where);
    }

    ns->label = -1;
    json_t *label = json_object_get(v, "label");
    if (label && !get_int(label, 0, INT_MAX - 1, &ns->label))
        return fl_error_set(err, FL_EPARSE, "%s.label: must be an integer from 0 to %d", where,
                            INT_MAX - 1);
    return FL_OK;
}

/* What adding the nodes one by one has counted so far. */
typedef struct NodeCtx {
    FlTopology *t;
    int coord_dims;
    long ports;
    long switches;
} NodeCtx;

/* Adds one node with its label, within the limits of a network. Each node
 * takes its label as soon as it is added, when only the nodes before it
 * hold theirs, so a clash can only be a duplicate in the file. */
static int add_node(void *ctx, json_t *v, size_t i, FlError *err)
{
    NodeCtx *c = ctx;
    NodeSpec ns;
    int id, rc = read_node(v, i, c->coord_dims, &ns, err);
    if (rc)
        return rc;
    c->ports += ns.ports;
    c->switches += ns.kind == FL_NODE_SWITCH;
    if (c->ports > FL_IO_MAX_PORTS)
        return fl_error_set(err, FL_ERANGE, "nodes[%zu]: more than %d ports in all, the most a "
                            "network can have", i, FL_IO_MAX_PORTS);
    if (c->switches > FL_IO_MAX_SWITCHES)
        return fl_error_set(err, FL_ERANGE, "nodes[%zu]: more than %d switches, the most a "
                            "network can have", i, FL_IO_MAX_SWITCHES);
    if ((rc = fl_topology_add_node(c->t, ns.kind, ns.ports, &id, err)))
        return rc;
    fl_topology_set_coords(c->t, id, ns.coords);
    fl_topology_set_position(c->t, id, ns.x, ns.y);
    int label = ns.label >= 0 ? ns.label : id;
    if (fl_topology_set_node_label(c->t, id, label, NULL) != FL_OK)
        return fl_error_set(err, FL_EPARSE, "nodes[%zu]: label %d is already the label of "
                            "nodes[%d]%s", i, label, fl_topology_find_label(c->t, label),
                            ns.label >= 0 ? "" : " (a node without a label takes its index)");
    return FL_OK;
}

/* The highest label + 1, or -1 for an empty network. */
static int labels_end(const FlTopology *t)
{
    int end = 0;
    for (int n = 0; n < fl_topology_node_count(t); n++)
        if (fl_topology_node_label(t, n) >= end)
            end = fl_topology_node_label(t, n) + 1;
    return end;
}

/* Sets the next label the file gives, or the one after its labels: adding
 * nodes one by one left it above the labels they took on the way. */
static int restore_next_label(FlTopology *t, const Meta *m, FlError *err)
{
    int end = labels_end(t);
    if (m->next_label >= 0 && m->next_label < end)
        return fl_error_set(err, FL_EPARSE, "next_label: must be above every label (%d is "
                            "not above %d)", m->next_label, end - 1);
    fl_topology_set_next_label(t, m->next_label >= 0 ? m->next_label : end, NULL);
    return FL_OK;
}

static int add_link(void *ctx, json_t *v, size_t i, FlError *err)
{
    FlTopology *t = ctx;
    int n = fl_topology_node_count(t);
    int e[4];
    if (!json_is_array(v) || json_array_size(v) != 4)
        return fl_error_set(err, FL_EPARSE,
                            "links[%zu]: must be an array [node, port, node, port]", i);
    for (int k = 0; k < 4; k++)
        if (!get_int(json_array_get(v, (size_t)k), 0, INT_MAX, &e[k]))
            return k % 2 ? fl_error_set(err, FL_EPARSE, "links[%zu][%d]: must be a port "
                                        "number, an integer from 0", i, k)
                         : fl_error_set(err, FL_EPARSE, "links[%zu][%d]: must be a node "
                                        "number, an integer from 0", i, k);
    for (int k = 0; k < 4; k += 2) {
        int node = e[k], port = e[k + 1];
        if (node >= n)
            return fl_error_set(err, FL_EPARSE,
                                "links[%zu]: node %d does not exist (the file has %d nodes)", i,
                                node, n);
        int np = fl_topology_node_ports(t, node);
        if (port >= np)
            return fl_error_set(err, FL_EPARSE, "links[%zu]: node %d has no port %d (it has %d)",
                                i, node, port, np);
        int used = fl_topology_port_link(t, node, port);
        if (used >= 0)
            return fl_error_set(err, FL_EPARSE,
                                "links[%zu]: port %d of node %d is already used by links[%d]", i,
                                port, node, used);
    }
    if (e[0] == e[2])
        return fl_error_set(err, FL_EPARSE, "links[%zu]: links node %d to itself", i, e[0]);
    if (fl_topology_node_kind(t, e[0]) == FL_NODE_HOST
        && fl_topology_node_kind(t, e[2]) == FL_NODE_HOST)
        return fl_error_set(err, FL_EPARSE,
                            "links[%zu]: joins two hosts (%d and %d); a host attaches to a switch",
                            i, e[0], e[2]);
    FlError why;
    int rc = fl_topology_connect(t, e[0], e[1], e[2], e[3], NULL, &why);
    if (rc)
        return fl_error_set(err, rc, "links[%zu]: %s", i, why.message);
    return FL_OK;
}

/* The spec's size part, "AxBxC", agrees with family_dims, and the file has
 * at least as many switches as the sizes multiply to, which every family
 * needs. So a small file cannot make the reader generate a big network,
 * except through a hypercube, whose size d means 2^d switches; the spec
 * parser's own limits (2^20 switches) bound that. */
static int spec_fits(const FlTopology *t, const Meta *m)
{
    char want[MAX_FAMILY_NAME + 16 * FL_MAX_DIMS + 2];
    int len = snprintf(want, sizeof want, "%s:", m->family);
    long long product = 1;
    for (int d = 0; d < m->family_ndims; d++) {
        len += snprintf(want + len, sizeof want - (size_t)len, "%s%d", d ? "x" : "",
                        m->family_dims[d]);
        product *= m->family_dims[d];
    }
    size_t n = (size_t)len;
    return m->family_ndims > 0 && strncmp(m->spec, want, n) == 0
           && (m->spec[n] == '\0' || m->spec[n] == ',')
           && product <= fl_topology_switch_count(t);
}

/* Same nodes, ports, coordinates and links, in the same order. */
static int same_structure(const FlTopology *a, const FlTopology *b)
{
    int n = fl_topology_node_count(a), dims = fl_topology_coord_dims(a);
    if (n != fl_topology_node_count(b) || dims != fl_topology_coord_dims(b)
        || fl_topology_link_count(a) != fl_topology_link_count(b))
        return 0;
    for (int i = 0; i < n; i++) {
        int ca[FL_MAX_DIMS], cb[FL_MAX_DIMS];
        fl_topology_get_coords(a, i, ca);
        fl_topology_get_coords(b, i, cb);
        if (fl_topology_node_kind(a, i) != fl_topology_node_kind(b, i)
            || fl_topology_node_ports(a, i) != fl_topology_node_ports(b, i)
            || memcmp(ca, cb, sizeof(int) * (size_t)dims) != 0)
            return 0;
    }
    for (int l = 0; l < fl_topology_link_count(a); l++) {
        int ea[4], eb[4];
        fl_topology_link_ends(a, l, &ea[0], &ea[1], &ea[2], &ea[3]);
        fl_topology_link_ends(b, l, &eb[0], &eb[1], &eb[2], &eb[3]);
        if (memcmp(ea, eb, sizeof ea) != 0)
            return 0;
    }
    return 1;
}

/* Gives t the file's family when its spec regenerates t; see the top. */
static int restore_family(FlTopology *t, const Meta *m, FlError *err)
{
    if (strcmp(m->family, "custom") == 0 || !m->spec || !spec_fits(t, m))
        return FL_OK;
    FlTopology *g = NULL;
    int rc = fl_topology_from_spec(m->spec, &g, NULL);
    if (rc == FL_ENOMEM)
        return fl_error_set(err, FL_ENOMEM, "out of memory reading a topology");
    /* Any other failure means the spec no longer makes this network. */
    int dims[FL_MAX_DIMS];
    int ndims = rc ? 0 : fl_topology_family_dims(g, dims);
    int same = !rc && strcmp(fl_topology_family(g), m->family) == 0
               && ndims == m->family_ndims
               && memcmp(dims, m->family_dims, sizeof(int) * (size_t)ndims) == 0
               && same_structure(t, g);
    rc = FL_OK;
    if (same && fl_topology_set_family(t, m->family, ndims, dims, fl_topology_spec(g)))
        rc = fl_error_set(err, FL_ENOMEM, "out of memory reading a topology");
    fl_topology_free(g);
    return rc;
}

/* The nodes and links arrays: walked ones, or the value root holds (which
 * is then not an array). */
static int check_array(json_t *root, const char *name, const Span *span, FlError *err)
{
    json_t *v = json_object_get(root, name);
    if (span->seen)
        return FL_OK;
    if (strcmp(name, "nodes") == 0)
        return v ? fl_error_set(err, FL_EPARSE, "nodes: must be an array")
                 : fl_error_set(err, FL_EPARSE, "nodes: missing");
    return v ? fl_error_set(err, FL_EPARSE, "links: must be an array")
             : fl_error_set(err, FL_EPARSE, "links: missing");
}

/* Builds the network the validated fields and the walked arrays describe. */
static int build(Walk *w, const Meta *m, const Span *nodes, const Span *links,
                 json_t *root, FlTopology **out)
{
    FlError *err = w->err;
    int rc = check_array(root, "nodes", nodes, err);
    if (rc)
        return rc;
    FlTopology *t = fl_topology_new();
    if (!t)
        return fl_error_set(err, FL_ENOMEM, "out of memory reading a topology");
    fl_topology_set_coord_dims(t, m->coord_dims);
    NodeCtx nc = { t, m->coord_dims, 0, 0 };
    if ((rc = each_element(w, nodes, add_node, &nc))
        || (rc = check_array(root, "links", links, err)))
        goto fail_topology;
    /* Each link takes two free ports: refuse a file with too many before
     * reading any. */
    if (links->count > (size_t)(nc.ports / 2)) {
        rc = fl_error_set(err, FL_EPARSE, "links: the file has %zu links, but its %zu nodes "
                          "have %ld ports in all, and a link takes two",
                          links->count, nodes->count, nc.ports);
        goto fail_topology;
    }
    if ((rc = each_element(w, links, add_link, t)) || (rc = restore_next_label(t, m, err)))
        goto fail_topology;
    if (fl_topology_set_name(t, m->name)) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory reading a topology");
        goto fail_topology;
    }
    /* Building reset the family to "custom"; restore the generator's. */
    if ((rc = restore_family(t, m, err)))
        goto fail_topology;
    *out = t;
    return FL_OK;

fail_topology:
    fl_topology_free(t);
    return rc;
}

int fl_io_read_json_string(const char *text, size_t len, FlTopology **out, FlError *err)
{
    if ((!text && len) || !out)
        return fl_error_set(err, FL_EINVAL, "no text or no place for the topology");
    if (len > FL_IO_MAX_FILE_BYTES)
        return fl_error_set(err, FL_ERANGE, "the file is larger than %zu bytes",
                            (size_t)FL_IO_MAX_FILE_BYTES);
    Walk w = { text ? text : "", len, 0, err };
    Span nodes = { 0 }, links = { 0 };
    json_t *root = json_object();
    if (!root)
        return fl_error_set(err, FL_ENOMEM, "out of memory reading a topology");
    Meta m;
    int rc = walk_top(&w, root, &nodes, &links);
    if (!rc)
        rc = check_header(root, err);
    if (!rc)
        rc = read_meta(root, &m, err);
    if (!rc)
        rc = build(&w, &m, &nodes, &links, root, out);
    json_decref(root);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */
/* ------------------------------------------------------------------------ */

/* Writes s as a JSON string; jansson does the escaping and refuses text that
 * is not UTF-8. */
static int write_string(FILE *fp, const char *s, const char *what, FlError *err)
{
    json_t *js = json_string(s);
    if (!js)
        return fl_error_set(err, FL_EINVAL, "the %s is not valid UTF-8 text", what);
    char *text = json_dumps(js, JSON_ENCODE_ANY);
    json_decref(js);
    if (!text)
        return fl_error_set(err, FL_ENOMEM, "out of memory writing the %s", what);
    fputs(text, fp);
    free(text);
    return FL_OK;
}

/* Everything a file cannot hold is found before the first byte is written. */
static int check_writable(const FlTopology *t, FlError *err)
{
    const char *family = fl_topology_family(t);
    const char *spec = fl_topology_spec(t);
    if (!valid_family_name(family))
        return fl_error_set(err, FL_EINVAL, "family \"%.64s\" is not a family name", family);
    if (spec && (strlen(spec) == 0 || strlen(spec) > MAX_SPEC))
        return fl_error_set(err, FL_EINVAL, "the spec must have 1 to %d characters", MAX_SPEC);
    int dims[FL_MAX_DIMS];
    int ndims = fl_topology_family_dims(t, dims);
    for (int d = 0; d < ndims; d++)
        if (dims[d] < 1 || dims[d] > FL_IO_MAX_NODES)
            return fl_error_set(err, FL_EINVAL, "family size %d is out of range", dims[d]);
    const char *texts[] = { fl_topology_name(t), family, spec };
    for (int i = 0; i < 3; i++) {
        json_t *js = texts[i] ? json_string(texts[i]) : NULL;
        if (texts[i] && !js)
            return fl_error_set(err, FL_EINVAL, "the network's %s is not valid UTF-8 text",
                                i == 0 ? "name" : i == 1 ? "family" : "spec");
        json_decref(js);
    }
    for (int n = 0; n < fl_topology_node_count(t); n++) {
        int rc = fl__io_check_position(t, n, err);
        if (rc)
            return rc;
    }
    return FL_OK;
}

static void write_nodes(const FlTopology *t, FILE *fp)
{
    int nn = fl_topology_node_count(t), cd = fl_topology_coord_dims(t);
    fputs(nn ? "  \"nodes\": [\n" : "  \"nodes\": [],\n", fp);
    for (int n = 0; n < nn; n++) {
        int coords[FL_MAX_DIMS];
        double x, y;
        char xs[FL__IO_NUMBER_MAX], ys[FL__IO_NUMBER_MAX];
        fl_topology_get_coords(t, n, coords);
        fl_topology_get_position(t, n, &x, &y);
        fl__io_format_number(xs, x);
        fl__io_format_number(ys, y);
        fprintf(fp, "    {\"kind\": \"%s\", \"ports\": %d, \"coords\": [",
                fl_topology_node_kind(t, n) == FL_NODE_HOST ? "host" : "switch",
                fl_topology_node_ports(t, n));
        for (int d = 0; d < cd; d++)
            fprintf(fp, "%s%d", d ? ", " : "", coords[d]);
        fprintf(fp, "], \"pos\": [%s, %s]", xs, ys);
        if (fl_topology_node_label(t, n) != n)
            fprintf(fp, ", \"label\": %d", fl_topology_node_label(t, n));
        fprintf(fp, "}%s\n", n + 1 < nn ? "," : "");
    }
    if (nn)
        fputs("  ],\n", fp);
}

static void write_links(const FlTopology *t, FILE *fp)
{
    int nl = fl_topology_link_count(t);
    fputs(nl ? "  \"links\": [\n" : "  \"links\": []\n", fp);
    for (int l = 0; l < nl; l++) {
        int a, pa, b, pb;
        fl_topology_link_ends(t, l, &a, &pa, &b, &pb);
        fprintf(fp, "    [%d, %d, %d, %d]%s\n", a, pa, b, pb, l + 1 < nl ? "," : "");
    }
    if (nl)
        fputs("  ]\n", fp);
}

int fl_io_write_json(const FlTopology *t, FILE *fp, FlError *err)
{
    if (!t || !fp)
        return fl_error_set(err, FL_EINVAL, "no topology or no stream to write to");
    int rc = check_writable(t, err);
    if (rc)
        return rc;

    /* A custom network has no generator parameters, whatever was set. */
    const char *family = fl_topology_family(t);
    int custom = strcmp(family, "custom") == 0;
    int dims[FL_MAX_DIMS];
    int ndims = custom ? 0 : fl_topology_family_dims(t, dims);
    const char *spec = custom ? NULL : fl_topology_spec(t);

    /* Labels that are not the indices need version 2. */
    int end = labels_end(t), plain = fl_topology_next_label(t) == end;
    for (int n = 0; n < fl_topology_node_count(t) && plain; n++)
        plain = fl_topology_node_label(t, n) == n;

    fprintf(fp, "{\n  \"format\": \"" FORMAT_NAME "\",\n  \"version\": %d,\n  \"name\": ",
            plain ? FORMAT_VERSION_PLAIN : FORMAT_VERSION);
    if ((rc = write_string(fp, fl_topology_name(t), "name", err)))
        return rc;
    fputs(",\n  \"family\": ", fp);
    if ((rc = write_string(fp, family, "family", err)))
        return rc;
    fputs(",\n  \"family_dims\": [", fp);
    for (int d = 0; d < ndims; d++)
        fprintf(fp, "%s%d", d ? ", " : "", dims[d]);
    fputs("],\n  \"spec\": ", fp);
    if (!spec)
        fputs("null", fp);
    else if ((rc = write_string(fp, spec, "spec", err)))
        return rc;
    fprintf(fp, ",\n  \"coord_dims\": %d,\n", fl_topology_coord_dims(t));
    if (fl_topology_next_label(t) != end)
        fprintf(fp, "  \"next_label\": %d,\n", fl_topology_next_label(t));
    write_nodes(t, fp);
    write_links(t, fp);
    fputs("}\n", fp);
    if (ferror(fp))
        return fl_error_set(err, FL_EIO, "write error");
    return FL_OK;
}

char *fl_io_write_json_string(const FlTopology *t, FlError *err)
{
    return fl_io_write_string(t, FL_FORMAT_JSON, err);
}
