/* spec.c — the generator registry, the spec parser and the build driver.
 *
 * A spec reads FAMILY:SIZE[,key=value]..., e.g. "torus:8x8,hosts=2". The
 * parser splits it, the family's row says which sizes and keys it takes, the
 * family's check function validates the numbers, and the limits below keep
 * a typo from asking for an absurd network. Building adds the switches, lets
 * the family join them, then attaches and places the hosts.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "generators.h"

/* --- the registry ------------------------------------------------------- */

/* Summaries name the sizes and keys as the application's fields do (size,
 * ports per switch), not by the syntax line's letters, which the window
 * never shows. */
static const FlFamily families[] = {
    { { "mesh", "mesh:AxB[xC][,hosts=H]",
        FL_N_("k-ary n-cube without wrap-around links, 1 to 3 dimensions") },
      "A, AxB or AxBxC",
      1,
      3,
      FL_KEY_HOSTS,
      0,
      1,
      fl__mesh_check,
      fl__mesh_build,
      fl__kary_direction },
    { { "torus", "torus:AxB[xC][,hosts=H]",
        FL_N_("k-ary n-cube with wrap-around links, 1 to 3 dimensions") },
      "A, AxB or AxBxC",
      1,
      3,
      FL_KEY_HOSTS,
      0,
      1,
      fl__torus_check,
      fl__torus_build,
      fl__kary_direction },
    { { "hypercube", "hypercube:D[,hosts=H]",
        FL_N_("binary hypercube of 2^size switches, size 1 to 20") },
      "D",
      1,
      1,
      FL_KEY_HOSTS,
      0,
      1,
      fl__hypercube_check,
      fl__hypercube_build,
      NULL },
    { { "ring", "ring:N[,hosts=H]", FL_N_("ring of size switches, drawn on a circle") },
      "N",
      1,
      1,
      FL_KEY_HOSTS,
      0,
      1,
      fl__ring_check,
      fl__ring_build,
      NULL },
    { { "line", "line:N[,hosts=H]", FL_N_("linear array of size switches") },
      "N",
      1,
      1,
      FL_KEY_HOSTS,
      0,
      1,
      fl__line_check,
      fl__mesh_build,
      fl__kary_direction },
    { { "xmesh", "xmesh:NxK[,hosts=H]",
        FL_N_("crossed mesh: torus rows joined by diagonal cross links, both sizes even") },
      "NxK",
      2,
      2,
      FL_KEY_HOSTS,
      0,
      1,
      fl__xmesh_check,
      fl__xmesh_build,
      fl__xmesh_direction },
    { { "dmesh", "dmesh:NxK[,hosts=H]",
        FL_N_(
            "diagonal mesh: each switch linked to its four diagonal neighbours, both sizes odd") },
      "NxK",
      2,
      2,
      FL_KEY_HOSTS,
      0,
      1,
      fl__dmesh_check,
      fl__dmesh_build,
      fl__dmesh_direction },
    { { "irregular", "irregular:S[,ports=P][,hosts=H][,seed=X]",
        FL_N_("random connected network of size switches, each with ports per switch links to "
              "other switches") },
      "S",
      1,
      1,
      FL_KEY_PORTS | FL_KEY_HOSTS | FL_KEY_SEED,
      FL_KEY_PORTS | FL_KEY_HOSTS | FL_KEY_SEED,
      4,
      fl__irregular_check,
      fl__irregular_build,
      NULL },
    { { "myrinet-line", "myrinet-line:N",
        FL_N_("Myrinet linear array of 4-port switches, hosts on every free port") },
      "N",
      1,
      1,
      0,
      0,
      -1,
      fl__myrinet_line_check,
      fl__mesh_build,
      fl__kary_direction },
    { { "myrinet-mesh", "myrinet-mesh:NxM",
        FL_N_("Myrinet 2D mesh of 4-port switches, hosts on the boundary switches") },
      "NxM",
      2,
      2,
      0,
      0,
      -1,
      fl__myrinet_mesh_check,
      fl__mesh_build,
      fl__kary_direction },
};

#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))

int fl_family_count(void)
{
    return N_FAMILIES;
}

const FlFamilyInfo *fl_family_info(int index)
{
    if (index < 0 || index >= N_FAMILIES)
        return NULL;
    return &families[index].info;
}

/* Looks a family up by a name that need not be NUL-terminated. */
static const FlFamily *find_family(const char *name, size_t len)
{
    for (int i = 0; i < N_FAMILIES; i++)
        if (strlen(families[i].info.name) == len
            && memcmp(families[i].info.name, name, len) == 0)
            return &families[i];
    return NULL;
}

const FlFamilyInfo *fl_family_lookup(const char *name)
{
    const FlFamily *f = name ? find_family(name, strlen(name)) : NULL;
    return f ? &f->info : NULL;
}

/* --- keys ----------------------------------------------------------------- */

typedef struct KeyInfo {
    const char *name;
    unsigned bit;
    uint64_t max;
} KeyInfo;

/* In the order the canonical spec writes them. */
static const KeyInfo keys[] = {
    { "ports", FL_KEY_PORTS, FL_MAX_PORTS - 1 },
    { "hosts", FL_KEY_HOSTS, FL_SPEC_MAX_HOSTS },
    { "seed", FL_KEY_SEED, UINT64_MAX },
};

#define N_KEYS ((int)(sizeof keys / sizeof keys[0]))

/* Paper 002's networks have 4 inter-switch links per switch. */
#define DEFAULT_PORTS 4
#define DEFAULT_SEED 1

static void set_defaults(FlSpec *spec)
{
    spec->ports = DEFAULT_PORTS;
    spec->hosts = spec->family->default_hosts;
    spec->seed = DEFAULT_SEED;
}

static uint64_t key_value(const FlSpec *spec, const KeyInfo *k)
{
    switch (k->bit) {
    case FL_KEY_PORTS: return (uint64_t)spec->ports;
    case FL_KEY_HOSTS: return (uint64_t)spec->hosts;
    default: return spec->seed;
    }
}

static void set_key_value(FlSpec *spec, const KeyInfo *k, uint64_t v)
{
    switch (k->bit) {
    case FL_KEY_PORTS: spec->ports = (int)v; break;
    case FL_KEY_HOSTS: spec->hosts = (int)v; break;
    default: spec->seed = v; break;
    }
}

/* Only asked for keys the family accepts, so never for the hosts of a
 * family that has no hosts= key (default_hosts == -1). */
static uint64_t key_default(const FlFamily *f, const KeyInfo *k)
{
    FlSpec defaults = { .family = f };
    set_defaults(&defaults);
    return key_value(&defaults, k);
}

/* --- small text helpers --------------------------------------------------- */

/* Messages quote parts of the user's text; a pasted megabyte should not
 * fill the whole message, so quotes are cut at 60 characters. */
static void quote(char *buf, size_t cap, const char *s, size_t len)
{
    const size_t max = 60;
    if (len > max)
        snprintf(buf, cap, "%.*s...", (int)max, s);
    else
        snprintf(buf, cap, "%.*s", (int)len, s);
}

/* Parses len decimal digits. Returns 0 on success, -1 when s is not a
 * number, 1 when it does not fit in 64 bits. */
static int parse_u64(const char *s, size_t len, uint64_t *out)
{
    if (len == 0)
        return -1;
    uint64_t v = 0;
    int overflow = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        unsigned digit = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - digit) / 10)
            overflow = 1;
        else
            v = v * 10 + digit;
    }
    if (overflow)
        return 1;
    *out = v;
    return 0;
}

uint64_t fl__mul_sat(uint64_t a, uint64_t b)
{
    if (a != 0 && b > UINT64_MAX / a)
        return UINT64_MAX;
    return a * b;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* --- parsing ------------------------------------------------------------- */

/* The pieces of the text the parser works through, so that error messages
 * can quote the whole spec. */
typedef struct Text {
    const char *s;
    size_t len;
    char quoted[80];
} Text;

static void known_families(char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < N_FAMILIES && used < cap; i++) {
        int n = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "",
                         families[i].info.name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static int parse_family(const Text *tx, FlSpec *spec, size_t *pos, FlError *err)
{
    const char *colon = memchr(tx->s, ':', tx->len);
    size_t name_len = colon ? (size_t)(colon - tx->s) : tx->len;
    char list[160], name[80];
    known_families(list, sizeof list);
    quote(name, sizeof name, tx->s, name_len);

    if (name_len == 0)
        return fl_error_set(err, FL_ESPEC,
                            "missing family name before ':' in '%s' (known: %s)",
                            tx->quoted, list);
    spec->family = find_family(tx->s, name_len);
    if (!spec->family) {
        if (!colon && memchr(tx->s, 'x', tx->len) && tx->s[0] >= '0' && tx->s[0] <= '9')
            return fl_error_set(err, FL_ESPEC,
                                "missing family in '%s': expected FAMILY:SIZE, "
                                "e.g. mesh:%s (known: %s)", tx->quoted, name, list);
        return fl_error_set(err, FL_ESPEC, "unknown family '%s' (known: %s)", name, list);
    }
    if (!colon)
        return fl_error_set(err, FL_ESPEC, "%s needs a size: %s", spec->family->info.name,
                            spec->family->info.syntax);
    *pos = name_len + 1;
    return FL_OK;
}

static int parse_size(const Text *tx, FlSpec *spec, size_t *pos, FlError *err)
{
    const FlFamily *f = spec->family;
    const char *start = tx->s + *pos;
    const char *comma = memchr(start, ',', tx->len - *pos);
    size_t len = comma ? (size_t)(comma - start) : tx->len - *pos;
    char size[80];
    quote(size, sizeof size, start, len);

    if (len == 0)
        return fl_error_set(err, FL_ESPEC, "%s needs a size: %s", f->info.name,
                            f->info.syntax);
    spec->ndims = 0;
    size_t i = 0;
    for (;;) {
        size_t j = i;
        while (j < len && start[j] != 'x')
            j++;
        if (spec->ndims == f->max_dims)
            goto bad_form;
        int rc = parse_u64(start + i, j - i, &spec->size[spec->ndims]);
        if (rc < 0)
            goto bad_form;
        if (rc > 0)
            return fl_error_set(err, FL_ERANGE, "size '%s' in '%s' is too large",
                                size, tx->quoted);
        spec->ndims++;
        if (j == len)
            break;
        i = j + 1;
    }
    if (spec->ndims < f->min_dims)
        goto bad_form;
    *pos += len;
    return FL_OK;

bad_form:
    return fl_error_set(err, FL_ESPEC, "bad size '%s' in '%s': expected %s", size,
                        tx->quoted, f->size_form);
}

static int unknown_key(const FlFamily *f, const char *key, FlError *err)
{
    if (f->default_hosts < 0 && strcmp(key, "hosts") == 0)
        return fl_error_set(err, FL_ESPEC,
                            "%s takes no hosts= key: its hosts sit on every free port "
                            "of its 4-port switches", f->info.name);
    char list[64] = "";
    size_t used = 0;
    for (int k = 0; k < N_KEYS; k++)
        if (f->keys & keys[k].bit) {
            int n = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
                             keys[k].name);
            if (n > 0)
                used += (size_t)n;
        }
    if (used == 0)
        return fl_error_set(err, FL_ESPEC, "unknown key '%s' for %s (it takes no keys)",
                            key, f->info.name);
    return fl_error_set(err, FL_ESPEC, "unknown key '%s' for %s (known: %s)", key,
                        f->info.name, list);
}

/* Parses one "key=value" of len characters at item. */
static int parse_key(const Text *tx, FlSpec *spec, const char *item, size_t len,
                     FlError *err)
{
    const FlFamily *f = spec->family;
    char shown[80];
    quote(shown, sizeof shown, item, len);
    if (len == 0)
        return fl_error_set(err, FL_ESPEC, "empty key in '%s': expected key=value after ','",
                            tx->quoted);
    const char *eq = memchr(item, '=', len);
    if (!eq)
        return fl_error_set(err, FL_ESPEC, "expected key=value, got '%s' in '%s'", shown,
                            tx->quoted);
    size_t key_len = (size_t)(eq - item);
    char key[80];
    quote(key, sizeof key, item, key_len);

    const KeyInfo *k = NULL;
    for (int i = 0; i < N_KEYS; i++)
        if (strlen(keys[i].name) == key_len && memcmp(keys[i].name, item, key_len) == 0)
            k = &keys[i];
    if (!k || !(f->keys & k->bit))
        return unknown_key(f, key, err);
    if (spec->given & k->bit)
        return fl_error_set(err, FL_ESPEC, "key '%s' given twice in '%s'", k->name,
                            tx->quoted);

    const char *value = eq + 1;
    size_t value_len = len - key_len - 1;
    char shown_value[80];
    quote(shown_value, sizeof shown_value, value, value_len);
    uint64_t v;
    int rc = parse_u64(value, value_len, &v);
    if (rc < 0)
        return fl_error_set(err, FL_ESPEC,
                            "bad value '%s' for %s in '%s': expected a whole number",
                            shown_value, k->name, tx->quoted);
    if (rc > 0 || v > k->max)
        return fl_error_set(err, FL_ERANGE, "%s=%s is too large (at most %" PRIu64 ")",
                            k->name, shown_value, k->max);
    spec->given |= k->bit;
    set_key_value(spec, k, v);
    return FL_OK;
}

static int parse_keys(const Text *tx, FlSpec *spec, size_t pos, FlError *err)
{
    /* pos is at the ',' after the size, or at the end. */
    while (pos < tx->len) {
        const char *item = tx->s + pos + 1;
        size_t rest = tx->len - pos - 1;
        const char *comma = memchr(item, ',', rest);
        size_t len = comma ? (size_t)(comma - item) : rest;
        int rc = parse_key(tx, spec, item, len, err);
        if (rc)
            return rc;
        pos += len + 1;
    }
    return FL_OK;
}

/* The engine's limits, checked once the family has counted its network. */
static int check_limits(const Text *tx, const FlSpec *spec, FlError *err)
{
    if (spec->switches > FL_SPEC_MAX_SWITCHES)
        return fl_error_set(err, FL_ERANGE, "too many switches in '%s' (at most %d)",
                            tx->quoted, FL_SPEC_MAX_SWITCHES);
    if (spec->switch_ports > FL_MAX_PORTS)
        return fl_error_set(err, FL_ERANGE,
                            "a switch of '%s' would need %d ports (at most %d)",
                            tx->quoted, spec->switch_ports, FL_MAX_PORTS);
    uint64_t ports = spec->switches * (uint64_t)spec->switch_ports;
    if (spec->hosts_total > FL_SPEC_MAX_PORTS || ports + spec->hosts_total > FL_SPEC_MAX_PORTS)
        return fl_error_set(err, FL_ERANGE,
                            "'%s' would need %" PRIu64 " ports (at most %d)", tx->quoted,
                            spec->hosts_total > FL_SPEC_MAX_PORTS
                                ? spec->hosts_total : ports + spec->hosts_total,
                            FL_SPEC_MAX_PORTS);
    return FL_OK;
}

void fl__spec_format_size(const FlSpec *spec, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int d = 0; d < spec->ndims && used < cap; d++) {
        int n = snprintf(buf + used, cap - used, "%s%" PRIu64, d ? "x" : "", spec->size[d]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static void write_canonical(FlSpec *spec)
{
    const FlFamily *f = spec->family;
    char size[80];
    fl__spec_format_size(spec, size, sizeof size);
    size_t cap = sizeof spec->canonical;
    size_t used = (size_t)snprintf(spec->canonical, cap, "%s:%s", f->info.name, size);
    for (int i = 0; i < N_KEYS && used < cap; i++) {
        const KeyInfo *k = &keys[i];
        if (!(f->keys & k->bit))
            continue;
        uint64_t v = key_value(spec, k);
        if (!(f->canonical_keys & k->bit) && v == key_default(f, k))
            continue;
        int n = snprintf(spec->canonical + used, cap - used, ",%s=%" PRIu64, k->name, v);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

int fl__spec_parse(const char *text, FlSpec *spec, FlError *err)
{
    if (!text)
        return fl_error_set(err, FL_ESPEC, "no topology specification");
    Text tx;
    /* Spaces around the spec are forgiven: they come from typing. */
    while (is_space(*text))
        text++;
    tx.s = text;
    tx.len = strlen(text);
    while (tx.len > 0 && is_space(tx.s[tx.len - 1]))
        tx.len--;
    if (tx.len == 0)
        return fl_error_set(err, FL_ESPEC, "empty topology specification");
    for (size_t i = 0; i < tx.len; i++)
        if ((unsigned char)tx.s[i] < 0x20 || tx.s[i] == 0x7f)
            return fl_error_set(err, FL_ESPEC,
                                "topology specification contains a control character "
                                "at position %zu", i + 1);
    quote(tx.quoted, sizeof tx.quoted, tx.s, tx.len);

    memset(spec, 0, sizeof *spec);
    size_t pos = 0;
    int rc = parse_family(&tx, spec, &pos, err);
    if (!rc)
        rc = parse_size(&tx, spec, &pos, err);
    if (rc)
        return rc;
    set_defaults(spec);
    if ((rc = parse_keys(&tx, spec, pos, err)) || (rc = spec->family->check(spec, err))
        || (rc = check_limits(&tx, spec, err)))
        return rc;
    /* Below the limits every size fits in an int. */
    for (int d = 0; d < spec->ndims; d++)
        spec->dims[d] = (int)spec->size[d];
    write_canonical(spec);
    return FL_OK;
}

int fl_spec_validate(const char *spec, FlError *err)
{
    FlSpec parsed;
    return fl__spec_parse(spec, &parsed, err);
}

/* --- helpers for the check functions ---------------------------------------- */

int fl__spec_check_min(const FlSpec *spec, uint64_t min, const char *why, FlError *err)
{
    const char *name = spec->family->info.name;
    int single = spec->family->max_dims == 1;
    for (int d = 0; d < spec->ndims; d++) {
        if (spec->size[d] == 0) {
            if (single)
                return fl_error_set(err, FL_ESPEC, "%s size is zero", name);
            return fl_error_set(err, FL_ESPEC, "%s dimension %d is zero", name, d + 1);
        }
    }
    for (int d = 0; d < spec->ndims; d++) {
        if (spec->size[d] < min) {
            if (single)
                return fl_error_set(err, FL_ESPEC, "%s:%" PRIu64 " is too small: %s", name,
                                    spec->size[d], why);
            return fl_error_set(err, FL_ESPEC, "%s dimension %d is %" PRIu64 ": %s", name,
                                d + 1, spec->size[d], why);
        }
    }
    return FL_OK;
}

void fl__spec_set_grid_switches(FlSpec *spec)
{
    spec->switches = 1;
    for (int d = 0; d < spec->ndims; d++)
        spec->switches = fl__mul_sat(spec->switches, spec->size[d]);
}

void fl__spec_set_regular_ports(FlSpec *spec, int network_ports)
{
    spec->switch_ports = network_ports + spec->hosts;
    spec->hosts_total = fl__mul_sat(spec->switches, (uint64_t)spec->hosts);
}

int fl__spec_link(FlTopology *t, int a, int pa, int b, int pb, FlError *err)
{
    FlError inner;
    if (fl_topology_connect(t, a, pa, b, pb, NULL, &inner) != FL_OK)
        return fl_error_set(err, inner.code, "cannot link switch %d port %d to switch %d "
                            "port %d: %s", a, pa, b, pb, inner.message);
    return FL_OK;
}

/* --- building ---------------------------------------------------------------- */

static int add_switches(FlTopology *t, const FlSpec *spec, FlError *err)
{
    for (uint64_t s = 0; s < spec->switches; s++) {
        int rc = fl_topology_add_node(t, FL_NODE_SWITCH, spec->switch_ports, NULL, err);
        if (rc)
            return rc;
    }
    return FL_OK;
}

/* Hosts go on the last spec->hosts ports of every switch, or, for the
 * families that say so (hosts == -1), on every port left free. They are
 * numbered switch by switch, in port order. */
static int attach_hosts(FlTopology *t, const FlSpec *spec, FlError *err)
{
    int first = spec->hosts < 0 ? 0 : spec->switch_ports - spec->hosts;
    int switches = fl_topology_switch_count(t);
    for (int s = 0; s < switches; s++) {
        for (int p = first; p < spec->switch_ports; p++) {
            if (fl_topology_port_link(t, s, p) >= 0)
                continue;
            int h, rc = fl_topology_add_node(t, FL_NODE_HOST, 1, &h, err);
            if (!rc)
                rc = fl_topology_connect(t, s, p, h, 0, NULL, err);
            if (rc)
                return rc;
        }
    }
    return FL_OK;
}

int fl_topology_from_spec(const char *text, FlTopology **out, FlError *err)
{
    if (!out)
        return fl_error_set(err, FL_EINVAL, "no place to store the topology");
    FlSpec spec;
    int rc = fl__spec_parse(text, &spec, err);
    if (rc)
        return rc;
    FlTopology *t = fl_topology_new();
    if (!t)
        return fl_error_set(err, FL_ENOMEM, "out of memory creating a topology");
    if ((rc = add_switches(t, &spec, err)) || (rc = spec.family->build(&spec, t, err))
        || (rc = attach_hosts(t, &spec, err)))
        goto fail;
    fl__layout_hosts(t, spec.family->port_direction, &spec);
    /* Last: every edit above resets the family to "custom". */
    if (fl_topology_set_family(t, spec.family->info.name, spec.ndims, spec.dims,
                               spec.canonical) != FL_OK) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory naming the topology");
        goto fail;
    }
    *out = t;
    return FL_OK;

fail:
    fl_topology_free(t);
    return rc;
}
