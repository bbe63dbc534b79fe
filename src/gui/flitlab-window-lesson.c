/* flitlab-window-lesson.c — a guided lesson in the window: its network,
 * routing and simulation settings set up, the lesson panel in the sidebar
 * (beside the project's networks, a switcher between the two), and what
 * each step asks of the window when it is entered: the tab it shows, what
 * it highlights on the canvas, the collective it prepares.
 */
#include <glib/gi18n.h>

#include "flitlab-exchange-page.h"
#include "flitlab-lessons.h"
#include "flitlab-multicast-page.h"
#include "flitlab-schedule-page.h"
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

/* The lesson's routing as a request: its options as the reader parses
 * them, written back in the engine's syntax. */
static FlitlabRoutingRequest *
lesson_request (const FlLesson  *lesson,
                GError         **error)
{
  g_autoptr(FlitlabRoutingRequest) request = flitlab_routing_request_new (lesson->routing);
  const FlRoutingInfo *info = fl_routing_lookup (lesson->routing);
  FlRoutingOptions opt;
  FlError err = { 0 };
  gboolean ok;

  ok = info != NULL && fl_lesson_routing_options (lesson, &opt, &err) == FL_OK;
  for (int i = 0; ok && info->options[i] != NULL; i++)
    {
      const char *key = info->options[i]->name;
      int len = fl_routing_options_format (&opt, key, NULL, 0);
      g_autofree char *text = len >= 0 ? g_malloc ((gsize) len + 1) : NULL;

      ok = text == NULL
           || (fl_routing_options_format (&opt, key, text, (size_t) len + 1) >= 0
               && flitlab_routing_request_set_option (request, key, text, &err));
    }
  if (info != NULL)
    fl_routing_options_clear (&opt);
  if (!ok)
    {
      if (info == NULL)
        fl_error_set (&err, FL_ENOTFOUND, "unknown routing '%s'", lesson->routing);
      flitlab_set_engine_error (error, &err);
      return NULL;
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

static void
prepare_multicast (FlitlabMulticastPage            *page,
                   const char                      *algorithm,
                   const FlLessonCollectiveOptions *o)
{
  flitlab_multicast_page_set_algorithm (page, algorithm);
  flitlab_multicast_page_set_times (page, o->t_hold, o->t_end);
  flitlab_multicast_page_set_nodes (page, o->source, o->dests, o->n_dests);
  /* As `flitlab multicast --random K --seed X` draws them. */
  if (o->random > 0)
    flitlab_multicast_page_pick_random (page, o->random, o->seed);
}

static void
prepare_exchange (FlitlabExchangePage             *page,
                  const char                      *algorithm,
                  const FlLessonCollectiveOptions *o)
{
  FlAllToAllAlgorithm alg;

  if (fl_alltoall_algorithm_from_name (algorithm, &alg, NULL) != FL_OK
      || !flitlab_exchange_page_set_run (page, alg, o->n))
    return;
  /* The step is kept while the run is made. */
  flitlab_exchange_page_set_step (page, o->step > 0 ? (guint) o->step : 0);
  if (o->node >= 0)
    flitlab_exchange_page_set_node (page, o->node);
}

static void
prepare_schedule (FlitlabSchedulePage             *page,
                  const char                      *algorithm,
                  const FlLessonCollectiveOptions *o)
{
  static const FlitlabRequestSource sources[] = {
    [FL_LESSON_PATTERN_UNIFORM] = FLITLAB_REQUESTS_UNIFORM,
    [FL_LESSON_PATTERN_PERMUTATION] = FLITLAB_REQUESTS_PERMUTATION,
    [FL_LESSON_PATTERN_HOTSPOT] = FLITLAB_REQUESTS_HOTSPOT,
    [FL_LESSON_PATTERN_TOP_DOWN] = FLITLAB_REQUESTS_TOP_DOWN,
  };
  int algo = fl_schedule_algo_lookup (algorithm);

  if (algo >= 0)
    flitlab_schedule_page_set_algorithm (page, (FlScheduleAlgo) algo);
  flitlab_schedule_page_set_requests (page, sources[o->pattern], o->random, o->seed);
}

/* The collective the step prepares on its page of the Collectives tab,
 * which the step's <show> usually shows. */
static void
prepare_collective (FlitlabWindow      *self,
                    const FlLesson     *lesson,
                    const FlLessonStep *s)
{
  const char *kind = fl_lesson_collective_name (s->collective.kind);
  FlLessonCollectiveOptions o;
  FlError err = { 0 };
  GtkWidget *page;

  if (kind == NULL)
    return;
  if (fl_lesson_collective_options (lesson, &s->collective, &o, &err) != FL_OK)
    {
      flitlab_window_alert (self, err.message);
      fl_lesson_collective_options_clear (&o);
      return;
    }
  flitlab_collectives_panel_set_kind (self->collectives_panel, kind);
  page = flitlab_collectives_panel_get_page (self->collectives_panel, kind);
  if (FLITLAB_IS_MULTICAST_PAGE (page))
    prepare_multicast (FLITLAB_MULTICAST_PAGE (page), s->collective.algorithm, &o);
  else if (FLITLAB_IS_EXCHANGE_PAGE (page))
    prepare_exchange (FLITLAB_EXCHANGE_PAGE (page), s->collective.algorithm, &o);
  else if (FLITLAB_IS_SCHEDULE_PAGE (page))
    prepare_schedule (FLITLAB_SCHEDULE_PAGE (page), s->collective.algorithm, &o);
  fl_lesson_collective_options_clear (&o);
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
  prepare_collective (self, lesson, s);
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
