/* flitlab-runs-table.h — the runs of an experiment in a table: number,
 * status, each varied parameter, seed and key results, sortable by every
 * column (click its header) and filtered by a search over the status and
 * the values, and by status.
 *
 * The table shows a GListModel of FlitlabRunItem, one per run of the
 * design by number; the owner replaces an item when its run finishes.
 *
 * Signals: "run-activated" (gint64 idx): a row was activated (double
 * click, Enter).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FLITLAB_TYPE_RUNS_TABLE (flitlab_runs_table_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabRunsTable, flitlab_runs_table, FLITLAB, RUNS_TABLE, GtkWidget)

/* Shows runs (a reference is taken; NULL: none), with a column for each
 * of the n varied parameters called keys. */
void           flitlab_runs_table_set_runs     (FlitlabRunsTable   *self,
                                                GListModel         *runs,
                                                const char * const *keys,
                                                int                 n);
/* The rows shown, filtered and sorted. */
GListModel    *flitlab_runs_table_get_shown    (FlitlabRunsTable   *self);
GtkColumnView *flitlab_runs_table_get_view     (FlitlabRunsTable   *self);
/* The number of the run selected, or -1. */
gint64         flitlab_runs_table_get_selected (FlitlabRunsTable   *self);
/* The search, as if typed; a status ("done", "failed", "stopped",
 * "missing"; NULL: all) as if chosen. */
void           flitlab_runs_table_set_search   (FlitlabRunsTable   *self,
                                                const char         *text);
void           flitlab_runs_table_set_status   (FlitlabRunsTable   *self,
                                                const char         *status);
/* Sorts by the column whose title is title. */
gboolean       flitlab_runs_table_sort_by      (FlitlabRunsTable   *self,
                                                const char         *title,
                                                GtkSortType         order);
/* Filters and sorts again after items changed in place. */
void           flitlab_runs_table_refresh      (FlitlabRunsTable   *self);
/* The translated word for a run's status. */
const char    *flitlab_runs_table_status_label (const char         *status);

G_END_DECLS
