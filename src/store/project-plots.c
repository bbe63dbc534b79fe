/* project-plots.c — plot definitions in the project's journal, beside
 * their experiment (flitlab-store.h): written straight into the file in
 * one transaction each, under the lock project-results.c takes, and read
 * from the file. */
#include <stdio.h>

#include "store-private.h"

static int no_such_plot(FlJournal *j, const char *experiment, const char *name, FlError *err)
{
    return fl_error_set(err, FL_ENOTFOUND, "'%s': experiment '%s' has no plot named '%s'",
                        j->label, experiment, name);
}

/* Runs sql with (id, name[, text]) bound; *changes: rows it changed. */
static int run_plot_sql(FlJournal *j, const char *sql, sqlite3_int64 id, const char *name,
                        const char *text, int *changes, FlError *err)
{
    sqlite3_stmt *st;
    int rc = fl__journal_prepare(j, sql, &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    if (text)
        sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    if (step != SQLITE_DONE)
        return fl__journal_error(j, step, err);
    if (changes)
        *changes = sqlite3_changes(j->db);
    return FL_OK;
}

int fl_project_put_plot(FlProject *p, const char *experiment, const char *name,
                        const char *definition, FlError *err)
{
    if (!definition)
        return fl_error_set(err, FL_EINVAL, "a plot needs a definition");
    int rc = fl__store_check_name(name, "a plot name", err);
    FlJournal j;
    sqlite3_int64 id;
    if (rc || (rc = fl__journal_open_experiment(p, 1, experiment, &j, &id, err)))
        return rc;
    rc = run_plot_sql(&j, "INSERT INTO plot (experiment_id, name, definition, created) "
                      "VALUES (?, ?, ?, " FL__SQL_NOW ") ON CONFLICT (experiment_id, name) "
                      "DO UPDATE SET definition = excluded.definition", id, name, definition,
                      NULL, err);
    fl__journal_close(&j);
    return rc;
}

int fl_project_get_plot(FlProject *p, const char *experiment, const char *name,
                        char **definition, FlError *err)
{
    *definition = NULL;
    FlJournal j;
    sqlite3_stmt *st;
    int rc = fl__journal_query(p, experiment, "SELECT definition FROM plot WHERE "
                               "experiment_id = ? AND name = ?", &j, &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 2, name ? name : "", -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        if (!(*definition = fl__store_strdup(t ? (const char *)t : "")))
            rc = fl_error_set(err, FL_ENOMEM, "out of memory reading plot '%s'", name);
    } else
        rc = step == SQLITE_DONE ? no_such_plot(&j, experiment, name ? name : "", err)
                                 : fl__journal_error(&j, step, err);
    sqlite3_finalize(st);
    fl__journal_close(&j);
    return rc;
}

int fl_project_list_plots(FlProject *p, const char *experiment, char ***names, int *n,
                          FlError *err)
{
    *names = NULL;
    *n = 0;
    FlJournal j;
    sqlite3_stmt *st;
    int rc = fl__journal_query(p, experiment, "SELECT name FROM plot WHERE experiment_id = ? "
                               "ORDER BY name", &j, &st, err);
    if (rc)
        return rc;
    int cap = 0, step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            char **bigger = realloc(*names, sizeof **names * (size_t)cap);
            if (!bigger) {
                rc = fl_error_set(err, FL_ENOMEM, "out of memory listing plots");
                break;
            }
            *names = bigger;
        }
        const unsigned char *t = sqlite3_column_text(st, 0);
        if (!((*names)[*n] = fl__store_strdup(t ? (const char *)t : ""))) {
            rc = fl_error_set(err, FL_ENOMEM, "out of memory listing plots");
            break;
        }
        (*n)++;
    }
    if (!rc && step != SQLITE_DONE)
        rc = fl__journal_error(&j, step, err);
    sqlite3_finalize(st);
    fl__journal_close(&j);
    if (rc) {
        fl_project_setting_keys_free(*names, *n);
        *names = NULL;
        *n = 0;
    }
    return rc;
}

int fl_project_delete_plot(FlProject *p, const char *experiment, const char *name,
                           FlError *err)
{
    FlJournal j;
    sqlite3_int64 id;
    int changes = 0;
    int rc = fl__journal_open_experiment(p, 1, experiment, &j, &id, err);
    if (rc)
        return rc;
    rc = run_plot_sql(&j, "DELETE FROM plot WHERE experiment_id = ? AND name = ?", id,
                      name ? name : "", NULL, &changes, err);
    if (!rc && changes == 0)
        rc = no_such_plot(&j, experiment, name ? name : "", err);
    fl__journal_close(&j);
    return rc;
}
