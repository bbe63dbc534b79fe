/* flitlab-run-item.c — one run of an experiment, as a row of the runs
 * table. */
#include <math.h>

#include "flitlab-run-item.h"

struct _FlitlabRunItem
{
  GObject parent_instance;

  gint64 idx;
  guint64 seed;
  char *status;
  GStrv values;
  int n_values;
  double results[FLITLAB_RUN_N_RESULTS];
  char *text;
};

G_DEFINE_FINAL_TYPE (FlitlabRunItem, flitlab_run_item, G_TYPE_OBJECT)

static const char *const result_keys[FLITLAB_RUN_N_RESULTS] = {
  [FLITLAB_RUN_LATENCY] = "latency_avg",
  [FLITLAB_RUN_THROUGHPUT] = "throughput",
  [FLITLAB_RUN_WALL] = "wall_s",
};

const char *
flitlab_run_item_key (FlitlabRunResult result)
{
  g_return_val_if_fail (result < FLITLAB_RUN_N_RESULTS, NULL);

  return result_keys[result];
}

static void
update_text (FlitlabRunItem *self)
{
  GString *text = g_string_new (self->status);

  for (int i = 0; i < self->n_values; i++)
    g_string_append_printf (text, " %s", self->values[i]);
  g_string_append_printf (text, " %" G_GUINT64_FORMAT, self->seed);
  g_free (self->text);
  self->text = g_utf8_casefold (text->str, -1);
  g_string_free (text, TRUE);
}

FlitlabRunItem *
flitlab_run_item_new (gint64              idx,
                      const char * const *values,
                      int                 n,
                      guint64             seed)
{
  FlitlabRunItem *self = g_object_new (FLITLAB_TYPE_RUN_ITEM, NULL);

  self->idx = idx;
  self->seed = seed;
  self->n_values = n;
  self->values = g_new0 (char *, n + 1);
  for (int i = 0; i < n; i++)
    self->values[i] = g_strdup (values[i]);
  update_text (self);
  return self;
}

gint64
flitlab_run_item_get_idx (FlitlabRunItem *self)
{
  return self->idx;
}

guint64
flitlab_run_item_get_seed (FlitlabRunItem *self)
{
  return self->seed;
}

const char *
flitlab_run_item_get_status (FlitlabRunItem *self)
{
  return self->status;
}

void
flitlab_run_item_set_status (FlitlabRunItem *self,
                             const char     *status)
{
  g_free (self->status);
  self->status = g_strdup (status);
  update_text (self);
}

int
flitlab_run_item_get_n_values (FlitlabRunItem *self)
{
  return self->n_values;
}

const char *
flitlab_run_item_get_value (FlitlabRunItem *self,
                            int             param)
{
  return param >= 0 && param < self->n_values ? self->values[param] : "";
}

double
flitlab_run_item_get_result (FlitlabRunItem   *self,
                             FlitlabRunResult  result)
{
  g_return_val_if_fail (result < FLITLAB_RUN_N_RESULTS, NAN);

  return self->results[result];
}

void
flitlab_run_item_set_result (FlitlabRunItem   *self,
                             FlitlabRunResult  result,
                             double            value)
{
  g_return_if_fail (result < FLITLAB_RUN_N_RESULTS);

  self->results[result] = value;
}

const char *
flitlab_run_item_get_text (FlitlabRunItem *self)
{
  return self->text;
}

static void
flitlab_run_item_finalize (GObject *object)
{
  FlitlabRunItem *self = FLITLAB_RUN_ITEM (object);

  g_free (self->status);
  g_strfreev (self->values);
  g_free (self->text);
  G_OBJECT_CLASS (flitlab_run_item_parent_class)->finalize (object);
}

static void
flitlab_run_item_class_init (FlitlabRunItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = flitlab_run_item_finalize;
}

static void
flitlab_run_item_init (FlitlabRunItem *self)
{
  self->status = g_strdup ("missing");
  for (int i = 0; i < FLITLAB_RUN_N_RESULTS; i++)
    self->results[i] = NAN;
}
