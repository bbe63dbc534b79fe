/* flitlab-window-lesson.c — a guided lesson in the window: its network,
 * routing and simulation settings set up, the lesson panel in the sidebar
 * (beside the project's networks, a switcher between the two), and what
 * each step asks of the window when it is entered: the tab it shows, what
 * it highlights on the canvas, the collective it prepares.
 */
#include <glib/gi18n.h>

#include "flitlab-lessons.h"
#include "flitlab-window-private.h"

FlitlabLessonPanel *
flitlab_window_get_lesson_panel (FlitlabWindow *self)
{
  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), NULL);

  return self->lesson_panel;
}

gboolean
flitlab_window_is_blank (FlitlabWindow *self)
{
  FlProject *project;
  FlProjectTopologyInfo *items = NULL;
  int n = 0;
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);

  project = flitlab_window_get_project (self);
  if (flitlab_window_get_modified (self) || fl_project_path (project) != NULL
      || fl_project_list_topologies (project, &items, &n, &err) != FL_OK)
    return FALSE;
  fl_project_topology_info_free (items, n);
  return n == 0;
}

/* The lesson's routing as a request, its options set one by one. */
static FlitlabRoutingRequest *
lesson_request (const FlLesson  *lesson,
                GError         **error)
{
  g_autoptr(FlitlabRoutingRequest) request = flitlab_routing_request_new (lesson->routing);
  g_auto(GStrv) words = g_strsplit (lesson->routing_options != NULL ? lesson->routing_options : "", " ", -1);

  for (int i = 0; words[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (words[i], "=", 2);
      FlError err = { 0 };

      if (words[i][0] == '\0')
        continue;
      if (pair[1] == NULL || !flitlab_routing_request_set_option (request, pair[0], pair[1], &err))
        {
          g_set_error (error, FLITLAB_ENGINE_ERROR, FL_EINVAL, "%s:%d: %s: %s", lesson->label,
                       lesson->routing_line, words[i], pair[1] == NULL ? "not KEY=VALUE" : err.message);
          return NULL;
        }
    }
  return g_steal_pointer (&request);
}

static void
show_tab (FlitlabWindow *self,
          FlLessonTab    tab)
{
  switch (tab)
    {
    case FL_LESSON_TAB_NONE:
      return;
    case FL_LESSON_TAB_EXPERIMENTS:
      gtk_stack_set_visible_child_name (self->main_stack, "experiments");
      /* The experiments fold the sidebar away: the lesson stays. */
      adw_flap_set_reveal_flap (self->flap, TRUE);
      return;
    case FL_LESSON_TAB_NETWORK:
      gtk_stack_set_visible_child_name (self->main_stack, "network");
      gtk_stack_set_visible_child_name (self->side_stack, "metrics");
      return;
    default:
      gtk_stack_set_visible_child_name (self->main_stack, "network");
      gtk_stack_set_visible_child_name (self->side_stack, fl_lesson_tab_name (tab));
      return;
    }
}

/* The collective the step prepares on the Collectives tab's page. */
static void
prepare_collective (FlitlabWindow      *self,
                    const FlLessonStep *s)
{
}

static void
step_changed_cb (FlitlabWindow *self,
                 int            step)
{
  const FlLesson *lesson = flitlab_lesson_panel_get_lesson (self->lesson_panel);
  const FlLessonStep *s;

  if (lesson == NULL || step < 0 || step >= lesson->n_steps)
    return;
  s = &lesson->steps[step];
  show_tab (self, s->tab);
  flitlab_canvas_set_highlight (self->canvas, s->nodes, s->n_nodes, s->links, s->n_links,
                                s->channels, s->n_channels);
  prepare_collective (self, s);
}

void
flitlab_window_close_lesson (FlitlabWindow *self)
{
  g_return_if_fail (FLITLAB_IS_WINDOW (self));

  flitlab_lesson_panel_set_lesson (self->lesson_panel, NULL);
  flitlab_canvas_set_highlight (self->canvas, NULL, 0, NULL, 0, NULL, 0);
  gtk_stack_set_visible_child_name (self->sidebar_stack, "project");
  gtk_widget_set_visible (GTK_WIDGET (self->sidebar_switcher), FALSE);
}

gboolean
flitlab_window_open_lesson (FlitlabWindow  *self,
                            FlLesson       *lesson,
                            GError        **error)
{
  g_autoptr(FlitlabRoutingRequest) request = NULL;
  FlSimSettings settings;
  FlError err = { 0 };
  gboolean ok;

  g_return_val_if_fail (FLITLAB_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (lesson != NULL, FALSE);

  if (lesson->routing != NULL && (request = lesson_request (lesson, error)) == NULL)
    {
      fl_lesson_free (lesson);
      return FALSE;
    }
  fl_sim_settings_init (&settings);
  ok = fl_lesson_apply_settings (lesson, &settings, &err) == FL_OK;
  if (!ok)
    flitlab_set_engine_error (error, &err);
  else if ((ok = flitlab_window_show_network_spec (self, lesson->network, error)))
    {
      if (request != NULL)
        flitlab_document_set_request (self->document, request);
      flitlab_document_set_sim_settings (self->document, &settings);
    }
  fl_sim_settings_clear (&settings);
  if (!ok)
    {
      fl_lesson_free (lesson);
      return FALSE;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->sidebar_switcher), TRUE);
  gtk_stack_set_visible_child_name (self->sidebar_stack, "lesson");
  adw_flap_set_reveal_flap (self->flap, TRUE);
  /* Step 1's tab, highlight and collective follow through "step-changed". */
  flitlab_lesson_panel_set_lesson (self->lesson_panel, lesson);
  return TRUE;
}

void
flitlab_window_lesson_class_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (FLITLAB_TYPE_LESSON_PANEL);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, sidebar_stack);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, sidebar_switcher);
  gtk_widget_class_bind_template_child (widget_class, FlitlabWindow, lesson_panel);
}

void
flitlab_window_lesson_init (FlitlabWindow *self)
{
  g_signal_connect_swapped (self->lesson_panel, "step-changed", G_CALLBACK (step_changed_cb), self);
  g_signal_connect_swapped (self->lesson_panel, "close-requested", G_CALLBACK (flitlab_window_close_lesson), self);
}
