/* flitlab-run-item.h — one run of an experiment, as a row of the runs
 * table: its number, what the project file holds of it (its status and
 * key results) and, from the design, its parameters' values and seed.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The results a row shows, by column (their keys: flitlab_run_item_key()). */
typedef enum {
  FLITLAB_RUN_LATENCY,
  FLITLAB_RUN_THROUGHPUT,
  FLITLAB_RUN_WALL,
  FLITLAB_RUN_N_RESULTS
} FlitlabRunResult;

#define FLITLAB_TYPE_RUN_ITEM (flitlab_run_item_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabRunItem, flitlab_run_item, FLITLAB, RUN_ITEM, GObject)

/* Run idx with its parameters' values (copied; n of them) and seed; its
 * status is "missing" and its results NaN until set. */
FlitlabRunItem     *flitlab_run_item_new         (gint64              idx,
                                                  const char * const *values,
                                                  int                 n,
                                                  guint64             seed);
/* The scalar key of a result column ("latency_avg"). */
const char         *flitlab_run_item_key         (FlitlabRunResult    result);

gint64              flitlab_run_item_get_idx     (FlitlabRunItem     *self);
guint64             flitlab_run_item_get_seed    (FlitlabRunItem     *self);
/* "done", "failed", "stopped", "running" or "missing". */
const char         *flitlab_run_item_get_status  (FlitlabRunItem     *self);
void                flitlab_run_item_set_status  (FlitlabRunItem     *self,
                                                  const char         *status);
int                 flitlab_run_item_get_n_values (FlitlabRunItem    *self);
const char         *flitlab_run_item_get_value   (FlitlabRunItem     *self,
                                                  int                 param);
double              flitlab_run_item_get_result  (FlitlabRunItem     *self,
                                                  FlitlabRunResult    result);
void                flitlab_run_item_set_result  (FlitlabRunItem     *self,
                                                  FlitlabRunResult    result,
                                                  double              value);
/* The words a search matches: status, each value, the seed. */
const char         *flitlab_run_item_get_text    (FlitlabRunItem     *self);

G_END_DECLS
