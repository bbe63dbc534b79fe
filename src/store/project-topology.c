/* project-topology.c — the topologies a project holds: storing, reading,
 * listing, deleting and renaming them.
 *
 * Each topology is a row of the topology table plus its rows in node and
 * link (the tables are defined in schema.c). Every function here works on
 * the in-memory working copy only, and marks the project modified when it
 * changes it; project.c writes the copy to disk on save.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store-private.h"


/* --- SQL helpers for the topology functions ----------------------------- */

static int prepare(FlProject *p, const char *sql, sqlite3_stmt **st, FlError *err)
{
    return fl__project_prepare(p, sql, st, err);
}

static int step_failed(FlProject *p, int rc, FlError *err)
{
    return fl__project_step_failed(p, rc, err);
}

int fl__project_prepare(FlProject *p, const char *sql, sqlite3_stmt **st, FlError *err)
{
    int rc = sqlite3_prepare_v2(p->db, sql, -1, st, NULL);
    if (rc != SQLITE_OK)
        return fl__store_error(err, p->db, rc, fl__project_label(p), "cannot query the project");
    return FL_OK;
}

int fl__project_step_failed(FlProject *p, int rc, FlError *err)
{
    return fl__store_error(err, p->db, rc, fl__project_label(p), "cannot update the project");
}

static int begin(FlProject *p, FlError *err)
{
    return fl__store_exec(p->db, "BEGIN IMMEDIATE", fl__project_label(p), err);
}

static int commit(FlProject *p, FlError *err)
{
    return fl__store_exec(p->db, "COMMIT", fl__project_label(p), err);
}

static void rollback(FlProject *p)
{
    sqlite3_exec(p->db, "ROLLBACK", NULL, NULL, NULL);
}

int fl__store_check_name(const char *name, const char *what, FlError *err)
{
    what = fl_gettext(what);
    if (!name || !*name)
        return fl_error_set(err, FL_EINVAL, "%s cannot be empty", what);
    const unsigned char *s = (const unsigned char *)name;
    int chars = 0;
    while (*s) {
        static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
        uint32_t cp = *s;
        int len = cp < 0x80 ? 1 : (cp & 0xe0) == 0xc0 ? 2 : (cp & 0xf0) == 0xe0 ? 3
                : (cp & 0xf8) == 0xf0 ? 4 : 0;
        if (len > 1)
            cp &= 0x7fu >> len;
        for (int i = 1; i < len; i++) {
            if ((s[i] & 0xc0) != 0x80) {
                len = 0;
                break;
            }
            cp = cp << 6 | (s[i] & 0x3fu);
        }
        if (!len || cp < min_cp[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return fl_error_set(err, FL_EINVAL, "%s must be valid UTF-8 (bad byte at offset %d)",
                                what, (int)(s - (const unsigned char *)name));
        chars++;
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
            return fl_error_set(err, FL_EINVAL,
                                "%s cannot hold control characters (U+%04X is character %d)",
                                what, (unsigned)cp, chars);
        s += len;
    }
    if (chars > FL_PROJECT_NAME_MAX)
        return fl_error_set(err, FL_EINVAL, "%s has at most %d characters, not %d", what,
                            FL_PROJECT_NAME_MAX, chars);
    return FL_OK;
}

static int check_name(const char *name, FlError *err)
{
    return fl__store_check_name(name, "a topology name", err);
}

static int no_such_topology(FlError *err, const FlProject *p, const char *name)
{
    return fl_error_set(err, FL_ENOTFOUND, "%s%s%s has no topology named '%s'", FL__NAMED(p),
                        name);
}

static int name_taken(FlError *err, const FlProject *p, const char *name)
{
    return fl_error_set(err, FL_EEXIST, "a topology named '%s' already exists in %s%s%s",
                        name, FL__NAMED(p));
}

int fl__project_find_topology(FlProject *p, const char *name, sqlite3_int64 *id, FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p, "SELECT id FROM topology WHERE name = ?", &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        rc = FL_OK;
    } else if (rc == SQLITE_DONE) {
        rc = no_such_topology(err, p, name);
    } else {
        rc = fl__store_error(err, p->db, rc, fl__project_label(p), "cannot query the project");
    }
    sqlite3_finalize(st);
    return rc;
}

/* Like find_topology(), but absence is an answer (*exists = 0), not an
 * error. */
static int topology_exists(FlProject *p, const char *name, sqlite3_int64 *id, int *exists,
                           FlError *err)
{
    FlError e;
    int rc = fl__project_find_topology(p, name, id, &e);
    *exists = rc == FL_OK;
    if (rc == FL_OK || rc == FL_ENOTFOUND)
        return FL_OK;
    if (err)
        *err = e;
    return rc;
}

/* Runs a one-off statement whose parameters are ?1 = an id and ?2 = a text
 * (either may be unused). */
static int run_with_id(FlProject *p, const char *sql, sqlite3_int64 id, const char *text,
                       FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p, sql, &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    if (text)
        sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    rc = rc == SQLITE_DONE ? FL_OK : step_failed(p, rc, err);
    sqlite3_finalize(st);
    return rc;
}

/* --- writing a topology ------------------------------------------------- */

/* "8x8" from the family's size parameters; "" when there are none. */
static void format_dims(const FlTopology *t, char *buf, size_t size)
{
    int dims[FL_MAX_DIMS];
    int nd = fl_topology_family_dims(t, dims);
    size_t len = 0;
    buf[0] = '\0';
    for (int d = 0; d < nd && len < size; d++)
        len += (size_t)snprintf(buf + len, size - len, d ? "x%d" : "%d", dims[d]);
}

/* Writes the topology row: a new one, or the replaced one with its id. */
static int write_topology_row(FlProject *p, const char *name, const FlTopology *t,
                              sqlite3_int64 *id, int exists, FlError *err)
{
    char dims[64];
    sqlite3_stmt *st;
    format_dims(t, dims, sizeof dims);
    int rc = prepare(p,
                     exists ? "UPDATE topology SET family = ?1, family_dims = ?2, spec = ?3,"
                              " coord_dims = ?4, next_label = ?7, modified = " FL__SQL_NOW
                              " WHERE id = ?5"
                            : "INSERT INTO topology (family, family_dims, spec, coord_dims,"
                              " name, next_label, created, modified) VALUES (?1, ?2, ?3, ?4,"
                              " ?6, ?7, " FL__SQL_NOW ", " FL__SQL_NOW ")",
                     &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, fl_topology_family(t), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, dims, -1, SQLITE_STATIC);
    if (fl_topology_spec(t))
        sqlite3_bind_text(st, 3, fl_topology_spec(t), -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, fl_topology_coord_dims(t));
    if (exists)
        sqlite3_bind_int64(st, 5, *id);
    else
        sqlite3_bind_text(st, 6, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 7, fl_topology_next_label(t));
    rc = sqlite3_step(st);
    rc = rc == SQLITE_DONE ? FL_OK : step_failed(p, rc, err);
    sqlite3_finalize(st);
    if (!rc && !exists)
        *id = sqlite3_last_insert_rowid(p->db);
    return rc;
}

static int write_nodes(FlProject *p, sqlite3_int64 id, const FlTopology *t, FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p,
                     "INSERT INTO node (topology_id, idx, kind, ports, x, y, c0, c1, c2, label)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     &st, err);
    if (rc)
        return rc;
    int n = fl_topology_node_count(t), ndims = fl_topology_coord_dims(t);
    sqlite3_bind_int64(st, 1, id);
    for (int i = 0; i < n && !rc; i++) {
        int c[FL_MAX_DIMS] = {0};
        double x, y;
        fl_topology_get_coords(t, i, c);
        fl_topology_get_position(t, i, &x, &y);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_text(st, 3, fl_topology_node_kind(t, i) == FL_NODE_HOST ? "host" : "switch",
                          -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 4, fl_topology_node_ports(t, i));
        sqlite3_bind_double(st, 5, x);
        sqlite3_bind_double(st, 6, y);
        for (int d = 0; d < FL_MAX_DIMS; d++) {
            if (d < ndims)
                sqlite3_bind_int(st, 7 + d, c[d]);
            else
                sqlite3_bind_null(st, 7 + d);
        }
        sqlite3_bind_int(st, 10, fl_topology_node_label(t, i));
        int src = sqlite3_step(st);
        if (src != SQLITE_DONE)
            rc = step_failed(p, src, err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

static int write_links(FlProject *p, sqlite3_int64 id, const FlTopology *t, FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p,
                     "INSERT INTO link (topology_id, idx, a, pa, b, pb)"
                     " VALUES (?, ?, ?, ?, ?, ?)",
                     &st, err);
    if (rc)
        return rc;
    int n = fl_topology_link_count(t);
    sqlite3_bind_int64(st, 1, id);
    for (int l = 0; l < n && !rc; l++) {
        int e[4];
        fl_topology_link_ends(t, l, &e[0], &e[1], &e[2], &e[3]);
        sqlite3_bind_int(st, 2, l);
        for (int k = 0; k < 4; k++)
            sqlite3_bind_int(st, 3 + k, e[k]);
        int src = sqlite3_step(st);
        if (src != SQLITE_DONE)
            rc = step_failed(p, src, err);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

int fl_project_put_topology(FlProject *p, const char *name, const FlTopology *t,
                            int replace, FlError *err)
{
    sqlite3_int64 id = 0;
    int rc;
    if (!p || !t)
        return fl_error_set(err, FL_EINVAL, "no project or topology");
    if ((rc = check_name(name, err)))
        return rc;
    /* SQLite stores NaN as NULL, which the schema refuses: say why here. */
    for (int i = 0; i < fl_topology_node_count(t); i++) {
        double x, y;
        fl_topology_get_position(t, i, &x, &y);
        if (!isfinite(x) || !isfinite(y))
            return fl_error_set(err, FL_EINVAL,
                                "cannot store topology '%s': node %d has no finite position",
                                name, i);
    }
    if ((rc = begin(p, err)))
        return rc;
    int exists;
    if ((rc = topology_exists(p, name, &id, &exists, err)))
        goto fail;
    if (exists && !replace) {
        rc = name_taken(err, p, name);
        goto fail;
    }
    rc = write_topology_row(p, name, t, &id, exists, err);
    if (!rc && exists)
        rc = run_with_id(p, "DELETE FROM node WHERE topology_id = ?1", id, NULL, err);
    if (!rc && exists)
        rc = run_with_id(p, "DELETE FROM link WHERE topology_id = ?1", id, NULL, err);
    if (rc || (rc = write_nodes(p, id, t, err)) || (rc = write_links(p, id, t, err))
        || (rc = commit(p, err)))
        goto fail;
    p->modified = 1;
    return FL_OK;

fail:
    rollback(p);
    return rc;
}

/* --- reading a topology ------------------------------------------------- */

/* Reports stored data the engine refuses: FL_EPARSE naming the topology
 * and the file. */
static int damaged(FlError *err, const FlProject *p, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int damaged(FlError *err, const FlProject *p, const char *name, const char *fmt, ...)
{
    char what[FL_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    /* fmt is a msgid (po/meson.build extracts damaged()'s). */
    vsnprintf(what, sizeof what, fl_gettext(fmt), ap);
    va_end(ap);
    return fl_error_set(err, FL_EPARSE, "topology '%s' in %s%s%s is damaged: %s", name,
                        FL__NAMED(p), what);
}

static int parse_dims(const char *text, int dims[FL_MAX_DIMS], int *ndims)
{
    *ndims = 0;
    if (!*text)
        return FL_OK;
    for (;;) {
        char *end;
        long v = strtol(text, &end, 10);
        if (end == text || v < 0 || v > 1 << 24 || *ndims == FL_MAX_DIMS)
            return FL_EPARSE;
        dims[(*ndims)++] = (int)v;
        if (!*end)
            return FL_OK;
        if (*end != 'x')
            return FL_EPARSE;
        text = end + 1;
    }
}

static int read_nodes(FlProject *p, const char *name, sqlite3_int64 id, FlTopology *t,
                      FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p,
                     "SELECT idx, kind, ports, x, y, c0, c1, c2, label FROM node"
                     " WHERE topology_id = ? ORDER BY idx",
                     &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    int ndims = fl_topology_coord_dims(t), n = 0, src = SQLITE_DONE;
    while (!rc && (src = sqlite3_step(st)) == SQLITE_ROW) {
        const char *kind = (const char *)sqlite3_column_text(st, 1);
        FlError e;
        if (sqlite3_column_int64(st, 0) != n) {
            rc = damaged(err, p, name, "node %d is missing", n);
            break;
        }
        int is_host = kind && strcmp(kind, "host") == 0;
        if (!is_host && !(kind && strcmp(kind, "switch") == 0)) {
            rc = damaged(err, p, name, "node %d is of unknown kind '%s'", n, kind ? kind : "");
            break;
        }
        if (fl_topology_add_node(t, is_host ? FL_NODE_HOST : FL_NODE_SWITCH,
                                 sqlite3_column_int(st, 2), NULL, &e)) {
            rc = e.code == FL_ENOMEM ? fl_error_set(err, FL_ENOMEM, "%s", e.message)
                                     : damaged(err, p, name, "node %d: %s", n, e.message);
            break;
        }
        int c[FL_MAX_DIMS] = {0};
        for (int d = 0; d < ndims; d++)
            c[d] = sqlite3_column_int(st, 5 + d);
        fl_topology_set_coords(t, n, c);
        fl_topology_set_position(t, n, sqlite3_column_double(st, 3),
                                 sqlite3_column_double(st, 4));
        /* Taken as soon as the node is added, when only the nodes before
         * it hold theirs: a clash is a duplicate in the file. */
        sqlite3_int64 label = sqlite3_column_int64(st, 8);
        if (label < 0 || label >= INT_MAX
            || fl_topology_set_node_label(t, n, (int)label, NULL) != FL_OK) {
            rc = damaged(err, p, name, "node %d has a bad or duplicate label %lld", n,
                         (long long)label);
            break;
        }
        n++;
    }
    if (!rc && src != SQLITE_DONE)
        rc = fl__store_error(err, p->db, src, fl__project_label(p), "cannot read the project");
    sqlite3_finalize(st);
    return rc;
}

static int read_links(FlProject *p, const char *name, sqlite3_int64 id, FlTopology *t,
                      FlError *err)
{
    sqlite3_stmt *st;
    int rc = prepare(p,
                     "SELECT idx, a, pa, b, pb FROM link WHERE topology_id = ? ORDER BY idx",
                     &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    int l = 0, src = SQLITE_DONE;
    while (!rc && (src = sqlite3_step(st)) == SQLITE_ROW) {
        FlError e;
        if (sqlite3_column_int64(st, 0) != l) {
            rc = damaged(err, p, name, "link %d is missing", l);
            break;
        }
        if (fl_topology_connect(t, sqlite3_column_int(st, 1), sqlite3_column_int(st, 2),
                                sqlite3_column_int(st, 3), sqlite3_column_int(st, 4), NULL,
                                &e)) {
            rc = e.code == FL_ENOMEM ? fl_error_set(err, FL_ENOMEM, "%s", e.message)
                                     : damaged(err, p, name, "link %d: %s", l, e.message);
            break;
        }
        l++;
    }
    if (!rc && src != SQLITE_DONE)
        rc = fl__store_error(err, p->db, src, fl__project_label(p), "cannot read the project");
    sqlite3_finalize(st);
    return rc;
}

int fl_project_get_topology(FlProject *p, const char *name, FlTopology **out, FlError *err)
{
    sqlite3_stmt *st;
    FlTopology *t = NULL;
    if (!p || !name || !out)
        return fl_error_set(err, FL_EINVAL, "no project, name or place for the topology");
    int rc = prepare(p,
                     "SELECT id, family, family_dims, spec, coord_dims, next_label FROM topology"
                     " WHERE name = ?",
                     &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int src = sqlite3_step(st);
    if (src != SQLITE_ROW) {
        rc = src == SQLITE_DONE
                 ? no_such_topology(err, p, name)
                 : fl__store_error(err, p->db, src, fl__project_label(p),
                                   "cannot read the project");
        goto out;
    }
    sqlite3_int64 id = sqlite3_column_int64(st, 0);
    const char *family = (const char *)sqlite3_column_text(st, 1);
    const char *dims_text = (const char *)sqlite3_column_text(st, 2);
    const char *spec = (const char *)sqlite3_column_text(st, 3);
    int coord_dims = sqlite3_column_int(st, 4), dims[FL_MAX_DIMS], ndims;
    if (!family || !dims_text || parse_dims(dims_text, dims, &ndims)) {
        rc = damaged(err, p, name, "bad family sizes '%s'", dims_text ? dims_text : "");
        goto out;
    }
    if (!(t = fl_topology_new())) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory reading topology '%s'", name);
        goto out;
    }
    if (fl_topology_set_coord_dims(t, coord_dims)) {
        rc = damaged(err, p, name, "%d coordinate dimensions", coord_dims);
        goto out;
    }
    if ((rc = read_nodes(p, name, id, t, err)) || (rc = read_links(p, name, id, t, err)))
        goto out;
    /* Adding the nodes one by one left the next label above the labels
     * they took on the way. */
    int end = 0;
    for (int n = 0; n < fl_topology_node_count(t); n++)
        if (fl_topology_node_label(t, n) >= end)
            end = fl_topology_node_label(t, n) + 1;
    sqlite3_int64 next = sqlite3_column_type(st, 5) == SQLITE_NULL ? end
                                                                    : sqlite3_column_int64(st, 5);
    if (next < end || next > INT_MAX) {
        rc = damaged(err, p, name, "the next label %lld is not above every label",
                     (long long)next);
        goto out;
    }
    fl_topology_set_next_label(t, (int)next, NULL);
    /* Last: adding nodes and links reset the family to "custom". */
    if (fl_topology_set_family(t, family, ndims, dims, spec) || fl_topology_set_name(t, name)) {
        rc = fl_error_set(err, FL_ENOMEM, "out of memory reading topology '%s'", name);
        goto out;
    }
    *out = t;
    t = NULL;
out:
    fl_topology_free(t);
    sqlite3_finalize(st);
    return rc;
}

/* --- listing, deleting, renaming ---------------------------------------- */

void fl_project_topology_info_free(FlProjectTopologyInfo *items, int n)
{
    if (!items)
        return;
    for (int i = 0; i < n; i++) {
        free(items[i].name);
        free(items[i].family);
        free(items[i].spec);
        free(items[i].created);
        free(items[i].modified);
    }
    free(items);
}

/* A copy of a text column, or NULL for SQL NULL; *ok drops to 0 when out of
 * memory. */
static char *column_dup(sqlite3_stmt *st, int col, int *ok)
{
    const char *s = (const char *)sqlite3_column_text(st, col);
    if (!s)
        return NULL;
    char *c = fl__store_strdup(s);
    if (!c)
        *ok = 0;
    return c;
}

int fl_project_list_topologies(FlProject *p, FlProjectTopologyInfo **items, int *n,
                               FlError *err)
{
    sqlite3_stmt *st;
    if (!p || !items || !n)
        return fl_error_set(err, FL_EINVAL, "no project or place for the list");
    /* The counts come from the node and link rows rather than from copies
     * kept in the topology row, which could drift from them. Both lookups
     * are primary-key lookups: O(nodes + links log nodes) in all. */
    int rc = prepare(p,
                     "SELECT t.name, t.family, t.spec, t.created, t.modified,"
                     " (SELECT count(*) FROM node WHERE topology_id = t.id AND kind = 'switch'),"
                     " (SELECT count(*) FROM node WHERE topology_id = t.id AND kind = 'host'),"
                     " (SELECT count(*) FROM link l"
                     "   JOIN node na ON na.topology_id = l.topology_id AND na.idx = l.a"
                     "   JOIN node nb ON nb.topology_id = l.topology_id AND nb.idx = l.b"
                     "   WHERE l.topology_id = t.id AND na.kind = 'switch'"
                     "   AND nb.kind = 'switch')"
                     " FROM topology t ORDER BY t.id",
                     &st, err);
    if (rc)
        return rc;
    FlProjectTopologyInfo *list = NULL;
    int count = 0, cap = 0, src, ok = 1;
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == cap) {
            int ncap = cap ? 2 * cap : 8;
            FlProjectTopologyInfo *nl = realloc(list, sizeof *nl * (size_t)ncap);
            if (!nl) {
                ok = 0;
                break;
            }
            list = nl;
            cap = ncap;
        }
        FlProjectTopologyInfo *it = &list[count++];
        it->name = column_dup(st, 0, &ok);
        it->family = column_dup(st, 1, &ok);
        it->spec = column_dup(st, 2, &ok);
        it->created = column_dup(st, 3, &ok);
        it->modified = column_dup(st, 4, &ok);
        it->switches = sqlite3_column_int(st, 5);
        it->hosts = sqlite3_column_int(st, 6);
        it->links = sqlite3_column_int(st, 7);
        if (!ok)
            break;
    }
    if (!ok)
        rc = fl_error_set(err, FL_ENOMEM, "out of memory listing the topologies of %s%s%s",
                          FL__NAMED(p));
    else if (src != SQLITE_DONE)
        rc = fl__store_error(err, p->db, src, fl__project_label(p), "cannot list the topologies");
    sqlite3_finalize(st);
    if (rc) {
        fl_project_topology_info_free(list, count);
        return rc;
    }
    *items = list;
    *n = count;
    return FL_OK;
}

int fl_project_delete_topology(FlProject *p, const char *name, FlError *err)
{
    /* Set by find_topology() when it succeeds; initialised only because
     * gcc -O3 cannot see that. */
    sqlite3_int64 id = 0;
    if (!p || !name)
        return fl_error_set(err, FL_EINVAL, "no project or topology name");
    int rc = fl__project_find_topology(p, name, &id, err);
    /* Nodes and links go with it: ON DELETE CASCADE. */
    if (!rc)
        rc = run_with_id(p, "DELETE FROM topology WHERE id = ?1", id, NULL, err);
    if (!rc)
        p->modified = 1;
    return rc;
}

int fl_project_rename_topology(FlProject *p, const char *old_name, const char *new_name,
                               FlError *err)
{
    sqlite3_int64 id = 0, other; /* id: as in fl_project_delete_topology() */
    if (!p || !old_name)
        return fl_error_set(err, FL_EINVAL, "no project or topology name");
    int rc = fl__project_find_topology(p, old_name, &id, err);
    if (rc || (rc = check_name(new_name, err)))
        return rc;
    if (strcmp(old_name, new_name) == 0)
        return FL_OK;
    int taken;
    if ((rc = topology_exists(p, new_name, &other, &taken, err)))
        return rc;
    if (taken)
        return name_taken(err, p, new_name);
    rc = run_with_id(p, "UPDATE topology SET name = ?2, modified = " FL__SQL_NOW " WHERE id = ?1",
                     id, new_name, err);
    if (!rc)
        p->modified = 1;
    return rc;
}
