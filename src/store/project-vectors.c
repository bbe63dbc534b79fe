/* project-vectors.c — the vectors of an experiment's runs read back from
 * the project's journal (flitlab-store.h); project-results.c writes them
 * with their run, as little-endian doubles. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store-private.h"

void fl_project_vectors_free(FlProjectVector *items, int n)
{
    for (int i = 0; items && i < n; i++) {
        free(items[i].name);
        free(items[i].data);
    }
    free(items);
}

/* The blob of the row's column col into v's data and length. */
static int read_data(sqlite3_stmt *st, int col, FlProjectVector *v)
{
    const unsigned char *blob = sqlite3_column_blob(st, col);
    int bytes = sqlite3_column_bytes(st, col);
    v->length = bytes / 8;
    v->data = malloc(sizeof *v->data * (size_t)(v->length ? v->length : 1));
    if (!v->data)
        return FL_ENOMEM;
    for (int k = 0; k < v->length; k++) {
        uint64_t bits = 0;
        for (int b = 0; b < 8; b++)
            bits |= (uint64_t)blob[8 * k + b] << (8 * b);
        memcpy(&v->data[k], &bits, sizeof bits);
    }
    return FL_OK;
}

int fl_project_get_vectors(FlProject *p, const char *experiment, int64_t idx, const char *name,
                           FlProjectVector **items, int *n, FlError *err)
{
    *items = NULL;
    *n = 0;
    FlJournal j;
    sqlite3_stmt *st;
    int rc = fl__journal_query(p, experiment, "SELECT idx, name, step, data FROM vector "
                               "WHERE experiment_id = ?1 AND (?2 < 0 OR idx = ?2) AND "
                               "(?3 IS NULL OR name = ?3) ORDER BY idx, name", &j, &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 2, idx);
    if (name)
        sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
    int cap = 0, step = SQLITE_DONE;
    while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            FlProjectVector *bigger = realloc(*items, sizeof **items * (size_t)cap);
            if (!bigger) {
                rc = FL_ENOMEM;
                break;
            }
            *items = bigger;
        }
        FlProjectVector *v = &(*items)[*n];
        memset(v, 0, sizeof *v);
        ++*n;
        v->idx = sqlite3_column_int64(st, 0);
        v->step = sqlite3_column_double(st, 2);
        const unsigned char *text = sqlite3_column_text(st, 1);
        if (!(v->name = fl__store_strdup(text ? (const char *)text : "")))
            rc = FL_ENOMEM;
        else
            rc = read_data(st, 3, v);
    }
    if (rc == FL_ENOMEM)
        fl_error_set(err, FL_ENOMEM, "out of memory reading the vectors of experiment '%s'",
                     experiment);
    else if (step != SQLITE_DONE)
        rc = fl__journal_error(&j, step, err);
    sqlite3_finalize(st);
    fl__journal_close(&j);
    if (rc) {
        fl_project_vectors_free(*items, *n);
        *items = NULL;
        *n = 0;
    }
    return rc;
}
