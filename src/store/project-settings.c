/* project-settings.c — per-topology settings: text values under short keys,
 * where the application keeps what belongs to one network of a project
 * (its routing, the routing's options, an edited turn set, overlays, the
 * selected route).
 *
 * Settings are rows of topology_setting keyed by the topology's id, so they
 * follow a rename, go with their topology (ON DELETE CASCADE) and stay when
 * fl_project_put_topology() replaces it, which keeps the id. Like every
 * edit, they change the working copy only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store-private.h"

#define KEY_MAX 64
#define VALUE_MAX ((size_t)1 << 20)

/* Keys are short identifiers: 1 to 64 bytes of [a-z0-9._-]. */
static int check_key(const char *key, FlError *err)
{
    if (!key || !*key)
        return fl_error_set(err, FL_EINVAL, "a setting key cannot be empty");
    size_t n = strlen(key);
    if (n > KEY_MAX)
        return fl_error_set(err, FL_EINVAL, "a setting key has at most %d bytes, not %zu",
                            KEY_MAX, n);
    for (size_t i = 0; i < n; i++) {
        char c = key[i];
        if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '.' && c != '_'
            && c != '-')
            return fl_error_set(err, FL_EINVAL,
                                "a setting key is made of a-z, 0-9, '.', '_' and '-' "
                                "(byte %zu of '%.64s' is not)", i + 1, key);
    }
    return FL_OK;
}

/* Whether the n bytes at s are well-formed UTF-8 (no overlong forms, no
 * surrogates, nothing above U+10FFFF). */
static int valid_utf8(const unsigned char *s, size_t n, size_t *bad)
{
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    for (size_t i = 0; i < n;) {
        uint32_t cp = s[i];
        int len = cp < 0x80 ? 1 : (cp & 0xe0) == 0xc0 ? 2 : (cp & 0xf0) == 0xe0 ? 3
                : (cp & 0xf8) == 0xf0 ? 4 : 0;
        if (len > 1)
            cp &= 0x7fu >> len;
        for (int k = 1; k < len; k++) {
            if (i + (size_t)k >= n || (s[i + (size_t)k] & 0xc0) != 0x80) {
                len = 0;
                break;
            }
            cp = cp << 6 | (s[i + (size_t)k] & 0x3fu);
        }
        if (!len || cp < min_cp[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            *bad = i;
            return 0;
        }
        i += (size_t)len;
    }
    return 1;
}

static int check_value(const char *value, FlError *err)
{
    size_t n = strlen(value), bad;
    if (n > VALUE_MAX)
        return fl_error_set(err, FL_EINVAL, "a setting value has at most %zu bytes, not %zu",
                            VALUE_MAX, n);
    if (!valid_utf8((const unsigned char *)value, n, &bad))
        return fl_error_set(err, FL_EINVAL,
                            "a setting value must be UTF-8 text (bad byte at offset %zu)", bad);
    return FL_OK;
}

int fl_project_set_topology_setting(FlProject *p, const char *name, const char *key,
                                    const char *value, FlError *err)
{
    sqlite3_int64 id = 0; /* set by fl__project_find_topology() when it succeeds */
    sqlite3_stmt *st;
    int rc;
    if (!p || !name)
        return fl_error_set(err, FL_EINVAL, "no project or topology name");
    if ((rc = check_key(key, err)) || (value && (rc = check_value(value, err)))
        || (rc = fl__project_find_topology(p, name, &id, err)))
        return rc;
    /* An unchanged value is no change: the project stays unmodified. */
    rc = fl__project_prepare(p,
                             value ? "INSERT INTO topology_setting (topology_id, key, value)"
                                     " VALUES (?1, ?2, ?3) ON CONFLICT (topology_id, key)"
                                     " DO UPDATE SET value = excluded.value"
                                     " WHERE value IS NOT excluded.value"
                                   : "DELETE FROM topology_setting"
                                     " WHERE topology_id = ?1 AND key = ?2",
                             &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
    if (value)
        sqlite3_bind_text(st, 3, value, -1, SQLITE_STATIC);
    int src = sqlite3_step(st);
    rc = src == SQLITE_DONE ? FL_OK : fl__project_step_failed(p, src, err);
    sqlite3_finalize(st);
    if (!rc && sqlite3_changes(p->db) > 0)
        p->modified = 1;
    return rc;
}

int fl_project_get_topology_setting(FlProject *p, const char *name, const char *key,
                                    char **value, FlError *err)
{
    sqlite3_int64 id = 0; /* as above */
    sqlite3_stmt *st;
    int rc;
    if (!p || !name || !value)
        return fl_error_set(err, FL_EINVAL, "no project, topology name or place for the value");
    if ((rc = check_key(key, err)) || (rc = fl__project_find_topology(p, name, &id, err)))
        return rc;
    if ((rc = fl__project_prepare(p,
                                  "SELECT value FROM topology_setting"
                                  " WHERE topology_id = ?1 AND key = ?2",
                                  &st, err)))
        return rc;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
    char *copy = NULL;
    int src = sqlite3_step(st);
    if (src == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(st, 0);
        if (!text || !(copy = fl__store_strdup(text)))
            rc = fl_error_set(err, FL_ENOMEM, "out of memory reading setting '%s'", key);
    } else if (src != SQLITE_DONE) {
        rc = fl__store_error(err, p->db, src, fl__project_label(p), "cannot read the project");
    }
    sqlite3_finalize(st);
    if (!rc)
        *value = copy;
    return rc;
}

void fl_project_setting_keys_free(char **keys, int n)
{
    if (!keys)
        return;
    for (int i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
}

int fl_project_list_topology_settings(FlProject *p, const char *name, char ***keys, int *n,
                                      FlError *err)
{
    sqlite3_int64 id = 0; /* as above */
    sqlite3_stmt *st;
    int rc;
    if (!p || !name || !keys || !n)
        return fl_error_set(err, FL_EINVAL, "no project, topology name or place for the keys");
    if ((rc = fl__project_find_topology(p, name, &id, err))
        || (rc = fl__project_prepare(p,
                                     "SELECT key FROM topology_setting WHERE topology_id = ?1"
                                     " ORDER BY key",
                                     &st, err)))
        return rc;
    sqlite3_bind_int64(st, 1, id);
    char **list = NULL;
    int count = 0, cap = 0, src;
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(st, 0);
        if (count == cap) {
            int ncap = cap ? 2 * cap : 8;
            char **nl = realloc(list, sizeof *nl * (size_t)ncap);
            if (!nl)
                break;
            list = nl;
            cap = ncap;
        }
        if (!text || !(list[count] = fl__store_strdup(text)))
            break;
        count++;
    }
    if (src == SQLITE_ROW)
        rc = fl_error_set(err, FL_ENOMEM, "out of memory listing the settings of '%s'", name);
    else if (src != SQLITE_DONE)
        rc = fl__store_error(err, p->db, src, fl__project_label(p), "cannot read the project");
    sqlite3_finalize(st);
    if (rc) {
        fl_project_setting_keys_free(list, count);
        return rc;
    }
    *keys = list;
    *n = count;
    return FL_OK;
}
