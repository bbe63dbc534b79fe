/* flitlab-runs-table.c — an experiment's runs in a sortable, filterable
 * table.
 *
 * Columns are made for each experiment shown (its varied parameters differ
 * from one to the next). Each column has a custom sorter that compares
 * numbers as numbers (a parameter's values are text: "0.1" and "0.05"),
 * so that clicking a header sorts as a reader expects. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-run-item.h"
#include "flitlab-runs-table.h"

struct _FlitlabRunsTable
{
  GtkWidget parent_instance;

  GtkSearchEntry *search_entry;
  GtkDropDown *status_dropdown;
  GtkLabel *count_label;
  GtkColumnView *column_view;

  GtkFilterListModel *filtered;
  GtkSortListModel *sorted;
  GtkCustomFilter *filter;
  char *search;
};

G_DEFINE_FINAL_TYPE (FlitlabRunsTable, flitlab_runs_table, GTK_TYPE_WIDGET)

enum {
  RUN_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* What a column shows: a parameter (0, 1, ...), or one of these. */
enum {
  COLUMN_NUMBER = -1,
  COLUMN_STATUS = -2,
  COLUMN_SEED = -3,
  COLUMN_RESULT = 1000,          /* + FlitlabRunResult */
};

/* The status dropdown's items, in order: the first shows them all. */
static const char *const status_words[] = { NULL, "done", "failed", "stopped", "missing" };

const char *
flitlab_runs_table_status_label (const char *status)
{
  if (g_strcmp0 (status, "done") == 0)
    return _("done");
  if (g_strcmp0 (status, "failed") == 0)
    return _("failed");
  if (g_strcmp0 (status, "stopped") == 0)
    /* Translators: a run left out past saturation. */
    return _("stopped");
  if (g_strcmp0 (status, "running") == 0)
    return _("running");
  /* Translators: a run the project file does not hold yet. */
  return _("missing");
}

static char *
cell_text (FlitlabRunItem *item,
           int             column)
{
  double v;

  switch (column)
    {
    case COLUMN_NUMBER:
      return g_strdup_printf ("%" G_GINT64_FORMAT, flitlab_run_item_get_idx (item));
    case COLUMN_STATUS:
      return g_strdup (flitlab_runs_table_status_label (flitlab_run_item_get_status (item)));
    case COLUMN_SEED:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, flitlab_run_item_get_seed (item));
    default:
      break;
    }
  if (column < COLUMN_RESULT)
    return g_strdup (flitlab_run_item_get_value (item, column));
  v = flitlab_run_item_get_result (item, column - COLUMN_RESULT);
  if (isnan (v))
    return g_strdup ("—");
  /* Throughputs are fractions of a flit, runs' wall times often of a
   * second. */
  return g_strdup_printf (column - COLUMN_RESULT == FLITLAB_RUN_LATENCY ? "%.2f" : "%.4f", v);
}

/* Numbers (and text that reads as one) in numeric order, before text. */
static int
compare_text (const char *a,
              const char *b)
{
  char *end_a, *end_b;
  double x = g_ascii_strtod (a, &end_a);
  double y = g_ascii_strtod (b, &end_b);
  gboolean num_a = end_a != a && *end_a == '\0';
  gboolean num_b = end_b != b && *end_b == '\0';

  if (num_a && num_b)
    return x < y ? -1 : x > y;
  if (num_a != num_b)
    return num_a ? -1 : 1;
  return g_strcmp0 (a, b);
}

static int
compare_items (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  FlitlabRunItem *x = FLITLAB_RUN_ITEM ((gpointer) a);
  FlitlabRunItem *y = FLITLAB_RUN_ITEM ((gpointer) b);
  int column = GPOINTER_TO_INT (user_data);
  int c = 0;

  if (column == COLUMN_NUMBER || column == COLUMN_SEED)
    {
      gint64 u = column == COLUMN_NUMBER ? flitlab_run_item_get_idx (x) : (gint64) flitlab_run_item_get_seed (x);
      gint64 v = column == COLUMN_NUMBER ? flitlab_run_item_get_idx (y) : (gint64) flitlab_run_item_get_seed (y);

      c = u < v ? -1 : u > v;
    }
  else if (column == COLUMN_STATUS)
    c = g_strcmp0 (flitlab_run_item_get_status (x), flitlab_run_item_get_status (y));
  else if (column < COLUMN_RESULT)
    c = compare_text (flitlab_run_item_get_value (x, column), flitlab_run_item_get_value (y, column));
  else
    {
      double u = flitlab_run_item_get_result (x, column - COLUMN_RESULT);
      double v = flitlab_run_item_get_result (y, column - COLUMN_RESULT);

      /* Runs without the result go last either way round. */
      if (isnan (u) || isnan (v))
        c = isnan (u) - isnan (v);
      else
        c = u < v ? -1 : u > v;
    }
  /* Equal rows keep the runs' order. */
  if (c == 0)
    c = flitlab_run_item_get_idx (x) < flitlab_run_item_get_idx (y) ? -1
        : flitlab_run_item_get_idx (x) > flitlab_run_item_get_idx (y);
  return c < 0 ? GTK_ORDERING_SMALLER : c > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  int column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  /* Numbers line up on the right, words on the left. */
  gtk_label_set_xalign (GTK_LABEL (label), column == COLUMN_STATUS ? 0.0f : 1.0f);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  FlitlabRunItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = cell_text (item, GPOINTER_TO_INT (user_data));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void
add_column (FlitlabRunsTable *self,
            const char       *title,
            int               column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *view_column;
  GtkCustomSorter *sorter = gtk_custom_sorter_new (compare_items, GINT_TO_POINTER (column), NULL);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column));
  view_column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (view_column, GTK_SORTER (sorter));
  gtk_column_view_column_set_resizable (view_column, TRUE);
  /* The columns share the width the table is given. */
  gtk_column_view_column_set_expand (view_column, TRUE);
  gtk_column_view_append_column (self->column_view, view_column);
  g_object_unref (sorter);
  g_object_unref (view_column);
}

static void
remove_columns (FlitlabRunsTable *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (self->column_view, column);
    }
}

static void
update_count (FlitlabRunsTable *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  GListModel *all = gtk_filter_list_model_get_model (self->filtered);
  guint total = all != NULL ? g_list_model_get_n_items (all) : 0;
  g_autofree char *text = NULL;

  if (shown == total)
    text = g_strdup_printf (ngettext ("%u run", "%u runs", total), total);
  else
    /* Translators: runs shown by the filter, of all the experiment's. */
    text = g_strdup_printf (_("%u of %u"), shown, total);
  gtk_label_set_text (self->count_label, text);
}

void
flitlab_runs_table_set_runs (FlitlabRunsTable   *self,
                             GListModel         *runs,
                             const char * const *keys,
                             int                 n)
{
  g_return_if_fail (FLITLAB_IS_RUNS_TABLE (self));

  gtk_filter_list_model_set_model (self->filtered, runs);
  remove_columns (self);
  /* Translators: the column of run numbers. */
  add_column (self, C_("run", "Run"), COLUMN_NUMBER);
  add_column (self, _("Status"), COLUMN_STATUS);
  for (int i = 0; i < n; i++)
    add_column (self, keys[i], i);
  add_column (self, _("Seed"), COLUMN_SEED);
  /* Translators: column headers of the runs table, short: a result's
   * title and unit are on the plot's axis. */
  add_column (self, _("Latency"), COLUMN_RESULT + FLITLAB_RUN_LATENCY);
  add_column (self, _("Throughput"), COLUMN_RESULT + FLITLAB_RUN_THROUGHPUT);
  add_column (self, _("Wall Time (s)"), COLUMN_RESULT + FLITLAB_RUN_WALL);
  update_count (self);
}

GListModel *
flitlab_runs_table_get_shown (FlitlabRunsTable *self)
{
  g_return_val_if_fail (FLITLAB_IS_RUNS_TABLE (self), NULL);

  return G_LIST_MODEL (self->sorted);
}

GtkColumnView *
flitlab_runs_table_get_view (FlitlabRunsTable *self)
{
  g_return_val_if_fail (FLITLAB_IS_RUNS_TABLE (self), NULL);

  return self->column_view;
}

static gboolean
filter_item (gpointer item,
             gpointer user_data)
{
  FlitlabRunsTable *self = user_data;
  FlitlabRunItem *run = item;
  guint selected = gtk_drop_down_get_selected (self->status_dropdown);
  const char *status = selected < G_N_ELEMENTS (status_words) ? status_words[selected] : NULL;

  if (status != NULL && g_strcmp0 (status, flitlab_run_item_get_status (run)) != 0)
    return FALSE;
  if (self->search == NULL || self->search[0] == '\0')
    return TRUE;
  /* Every word typed must be in the run's words. */
  {
    g_auto(GStrv) words = g_strsplit_set (self->search, " \t", -1);
    const char *text = flitlab_run_item_get_text (run);

    for (int i = 0; words[i] != NULL; i++)
      if (words[i][0] != '\0' && strstr (text, words[i]) == NULL)
        return FALSE;
  }
  return TRUE;
}

static void
filter_changed_cb (FlitlabRunsTable *self)
{
  g_free (self->search);
  self->search = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

void
flitlab_runs_table_set_search (FlitlabRunsTable *self,
                               const char       *text)
{
  g_return_if_fail (FLITLAB_IS_RUNS_TABLE (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  /* The entry reports its change after a pause: filter now. */
  filter_changed_cb (self);
}

void
flitlab_runs_table_set_status (FlitlabRunsTable *self,
                               const char       *status)
{
  g_return_if_fail (FLITLAB_IS_RUNS_TABLE (self));

  for (guint i = 0; i < G_N_ELEMENTS (status_words); i++)
    if (g_strcmp0 (status_words[i], status) == 0)
      gtk_drop_down_set_selected (self->status_dropdown, i);
}

gboolean
flitlab_runs_table_sort_by (FlitlabRunsTable *self,
                            const char       *title,
                            GtkSortType       order)
{
  GListModel *columns;

  g_return_val_if_fail (FLITLAB_IS_RUNS_TABLE (self), FALSE);

  columns = gtk_column_view_get_columns (self->column_view);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        {
          gtk_column_view_sort_by_column (self->column_view, column, order);
          return TRUE;
        }
    }
  return FALSE;
}

void
flitlab_runs_table_refresh (FlitlabRunsTable *self)
{
  g_return_if_fail (FLITLAB_IS_RUNS_TABLE (self));

  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  gtk_sorter_changed (gtk_column_view_get_sorter (self->column_view), GTK_SORTER_CHANGE_DIFFERENT);
  update_count (self);
}

gint64
flitlab_runs_table_get_selected (FlitlabRunsTable *self)
{
  GtkSelectionModel *selection;
  gpointer item;

  g_return_val_if_fail (FLITLAB_IS_RUNS_TABLE (self), -1);

  selection = gtk_column_view_get_model (self->column_view);
  item = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));
  return item != NULL ? flitlab_run_item_get_idx (FLITLAB_RUN_ITEM (item)) : -1;
}

static void
activate_cb (FlitlabRunsTable *self,
             guint             position)
{
  g_autoptr(FlitlabRunItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  if (item != NULL)
    g_signal_emit (self, signals[RUN_ACTIVATED], 0, flitlab_run_item_get_idx (item));
}

static void
flitlab_runs_table_dispose (GObject *object)
{
  FlitlabRunsTable *self = FLITLAB_RUNS_TABLE (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_RUNS_TABLE);
  /* The template's top widget has no name to be cleared by. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->search, g_free);
  G_OBJECT_CLASS (flitlab_runs_table_parent_class)->dispose (object);
}

static void
flitlab_runs_table_class_init (FlitlabRunsTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_runs_table_dispose;

  signals[RUN_ACTIVATED] = g_signal_new ("run-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                         NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flitlab/Flitlab/flitlab-runs-table.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabRunsTable, search_entry);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRunsTable, status_dropdown);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRunsTable, count_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabRunsTable, column_view);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
flitlab_runs_table_init (FlitlabRunsTable *self)
{
  GtkSingleSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->filter = gtk_custom_filter_new (filter_item, self, NULL);
  self->filtered = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->filtered),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  g_signal_connect_swapped (self->sorted, "items-changed", G_CALLBACK (update_count), self);
}
