/* flitlab-collective-page.c — the part of the complete exchange and link
 * schedule pages that is the same in both. */
#include "flitlab-collective-page.h"

void
flitlab_collective_page_install_properties (GObjectClass  *klass,
                                            GParamSpec   **properties)
{
  properties[FLITLAB_COLLECTIVE_PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, FLITLAB_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[FLITLAB_COLLECTIVE_PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (klass, FLITLAB_COLLECTIVE_N_PROPS, properties);
}

gboolean
flitlab_collective_page_get_property (FlitlabCollectivePage *core,
                                      guint                  prop_id,
                                      GValue                *value)
{
  switch (prop_id)
    {
    case FLITLAB_COLLECTIVE_PROP_DOCUMENT:
      g_value_set_object (value, core->document);
      return TRUE;
    case FLITLAB_COLLECTIVE_PROP_RUNNING:
      g_value_set_boolean (value, core->running);
      return TRUE;
    default:
      return FALSE;
    }
}

void
flitlab_collective_page_init (FlitlabCollectivePage *core,
                              gpointer               page,
                              GCallback              edited)
{
  core->own = flitlab_workers_new ();
  core->workers = g_object_ref (core->own);
  core->document_signals = g_signal_group_new (FLITLAB_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (core->document_signals, "topology-edited", edited, page);
}

gboolean
flitlab_collective_page_set_document (FlitlabCollectivePage *core,
                                      FlitlabDocument       *document)
{
  if (!g_set_object (&core->document, document))
    return FALSE;
  g_signal_group_set_target (core->document_signals, document);
  return TRUE;
}

void
flitlab_collective_page_set_workers (FlitlabCollectivePage *core,
                                     FlitlabWorkers        *workers)
{
  g_return_if_fail (FLITLAB_IS_WORKERS (workers));

  g_set_object (&core->workers, workers);
}

void
flitlab_collective_page_supersede (FlitlabCollectivePage *core,
                                   FlitlabJobKind         kind)
{
  flitlab_workers_supersede (core->own, kind);
  if (core->workers != core->own)
    flitlab_workers_supersede (core->workers, kind);
}

void
flitlab_collective_page_run (FlitlabCollectivePage *core,
                             FlitlabJobKind         kind,
                             FlitlabJobFunc         func,
                             gpointer               data,
                             GDestroyNotify         data_free,
                             GDestroyNotify         result_free,
                             FlitlabProgressFunc    progress,
                             FlitlabJobDone         done,
                             gpointer               user_data)
{
  if (core->workers != core->own)
    flitlab_workers_supersede (core->own, kind);
  flitlab_workers_run (core->workers, kind, func, data, data_free, result_free, progress, done, user_data);
}

void
flitlab_collective_page_set_running (FlitlabCollectivePage *core,
                                     GObject               *page,
                                     GParamSpec            *pspec,
                                     gboolean               running)
{
  if (core->running == running)
    return;
  core->running = running;
  if (core->spinner != NULL)
    gtk_spinner_set_spinning (core->spinner, running);
  g_object_notify_by_pspec (page, pspec);
}

void
flitlab_collective_page_dispose (FlitlabCollectivePage *core,
                                 GtkWidget             *page,
                                 GType                  type)
{
  if (core->own != NULL)
    flitlab_workers_shutdown (core->own);
  g_clear_object (&core->own);
  g_clear_object (&core->workers);
  if (core->document_signals != NULL)
    g_signal_group_set_target (core->document_signals, NULL);
  g_clear_object (&core->document_signals);
  g_clear_object (&core->document);
  core->spinner = NULL;
  gtk_widget_dispose_template (page, type);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (page)) != NULL;)
    gtk_widget_unparent (child);
}

void
flitlab_collective_page_attach_line (GtkGrid     *grid,
                                     int          line,
                                     const char  *name,
                                     const char  *tooltip,
                                     GtkLabel   **figures,
                                     int          nfigures)
{
  GtkWidget *label = gtk_label_new (name);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_tooltip_text (label, tooltip);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_grid_attach (grid, label, 0, line, 1, 1);
  for (int k = 0; k < nfigures; k++)
    {
      GtkWidget *figure = gtk_label_new ("—");

      gtk_label_set_xalign (GTK_LABEL (figure), 1);
      gtk_label_set_wrap (GTK_LABEL (figure), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (figure), 24);
      gtk_label_set_selectable (GTK_LABEL (figure), TRUE);
      gtk_widget_add_css_class (figure, "numeric");
      gtk_widget_add_css_class (figure, "metric-value");
      gtk_grid_attach (grid, figure, 1 + k, line, 1, 1);
      figures[k] = GTK_LABEL (figure);
    }
}
