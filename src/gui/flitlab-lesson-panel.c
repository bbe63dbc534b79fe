/* flitlab-lesson-panel.c — a guided lesson beside the canvas, one step at a
 * time; see flitlab-lesson-panel.h. */
#include <glib/gi18n.h>

#include "flitlab-lesson-panel.h"

struct _FlitlabLessonPanel
{
  GtkWidget parent_instance;

  /* Template children. */
  GtkLabel *lesson_title;
  GtkLabel *progress_label;
  GtkScrolledWindow *scroller;
  GtkLabel *step_title;
  GtkBox *paragraphs;
  GtkWidget *question_box;
  GtkLabel *question_label;
  GtkToggleButton *answer_button;
  GtkRevealer *answer_revealer;
  GtkLabel *answer_label;
  GtkWidget *back_button;
  GtkWidget *next_button;
  GtkWidget *close_button;

  FlLesson *lesson;
  int step;                     /* -1: no lesson */
};

G_DEFINE_FINAL_TYPE (FlitlabLessonPanel, flitlab_lesson_panel, GTK_TYPE_WIDGET)

enum {
  SIGNAL_STEP_CHANGED,
  SIGNAL_CLOSE_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* A lesson's text as the reader returns it is the msgid. */
static const char *
lesson_text (const char *text)
{
  return text != NULL && text[0] != '\0' ? _(text) : "";
}

static void
set_accessible_label (GtkWidget  *widget,
                      const char *label)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static void
clear_paragraphs (FlitlabLessonPanel *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->paragraphs))) != NULL)
    gtk_box_remove (self->paragraphs, child);
}

static void
update_actions (FlitlabLessonPanel *self)
{
  int n = self->lesson != NULL ? self->lesson->n_steps : 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "lesson.back", self->step > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "lesson.next", self->step >= 0 && self->step + 1 < n);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "lesson.close", self->lesson != NULL);
}

static void
show_step (FlitlabLessonPanel *self)
{
  const FlLessonStep *s;
  g_autofree char *progress = NULL;

  clear_paragraphs (self);
  gtk_toggle_button_set_active (self->answer_button, FALSE);
  gtk_revealer_set_reveal_child (self->answer_revealer, FALSE);
  update_actions (self);
  if (self->lesson == NULL || self->step < 0)
    {
      gtk_label_set_text (self->lesson_title, "");
      gtk_label_set_text (self->progress_label, "");
      gtk_label_set_text (self->step_title, "");
      gtk_widget_set_visible (self->question_box, FALSE);
      return;
    }

  s = &self->lesson->steps[self->step];
  gtk_label_set_text (self->lesson_title, lesson_text (self->lesson->title));
  /* Translators: where a lesson is, "Step 3 of 7". */
  progress = g_strdup_printf (_("Step %d of %d"), self->step + 1, self->lesson->n_steps);
  gtk_label_set_text (self->progress_label, progress);
  gtk_label_set_text (self->step_title, lesson_text (s->title));
  for (int i = 0; i < s->n_paragraphs; i++)
    {
      GtkWidget *label = gtk_label_new (lesson_text (s->paragraphs[i]));

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      /* Long words wrap rather than widen the panel. */
      gtk_label_set_width_chars (GTK_LABEL (label), 20);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
      gtk_box_append (self->paragraphs, label);
    }
  gtk_widget_set_visible (self->question_box, s->question != NULL);
  gtk_label_set_text (self->question_label, lesson_text (s->question));
  gtk_label_set_text (self->answer_label, lesson_text (s->answer));
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0);
}

static void
answer_toggled_cb (FlitlabLessonPanel *self)
{
  gboolean shown = gtk_toggle_button_get_active (self->answer_button);

  gtk_revealer_set_reveal_child (self->answer_revealer, shown);
  gtk_button_set_label (GTK_BUTTON (self->answer_button), shown ? _("Hide _Answer") : _("Show _Answer"));
}

void
flitlab_lesson_panel_reveal_answer (FlitlabLessonPanel *self,
                                    gboolean            reveal)
{
  g_return_if_fail (FLITLAB_IS_LESSON_PANEL (self));

  gtk_toggle_button_set_active (self->answer_button, reveal);
}

gboolean
flitlab_lesson_panel_get_answer_revealed (FlitlabLessonPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_LESSON_PANEL (self), FALSE);

  return gtk_revealer_get_reveal_child (self->answer_revealer);
}

gboolean
flitlab_lesson_panel_set_step (FlitlabLessonPanel *self,
                               int                 step)
{
  g_return_val_if_fail (FLITLAB_IS_LESSON_PANEL (self), FALSE);

  if (self->lesson == NULL || step < 0 || step >= self->lesson->n_steps)
    return FALSE;
  self->step = step;
  show_step (self);
  g_signal_emit (self, signals[SIGNAL_STEP_CHANGED], 0, step);
  return TRUE;
}

int
flitlab_lesson_panel_get_step (FlitlabLessonPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_LESSON_PANEL (self), -1);

  return self->step;
}

void
flitlab_lesson_panel_set_lesson (FlitlabLessonPanel *self,
                                 FlLesson           *lesson)
{
  g_return_if_fail (FLITLAB_IS_LESSON_PANEL (self));

  if (lesson != self->lesson)
    g_clear_pointer (&self->lesson, fl_lesson_free);
  self->lesson = lesson;
  self->step = -1;
  if (!flitlab_lesson_panel_set_step (self, 0))
    show_step (self);
}

const FlLesson *
flitlab_lesson_panel_get_lesson (FlitlabLessonPanel *self)
{
  g_return_val_if_fail (FLITLAB_IS_LESSON_PANEL (self), NULL);

  return self->lesson;
}

/* Actions and keys --------------------------------------------------------------------- */

static void
step_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  FlitlabLessonPanel *self = FLITLAB_LESSON_PANEL (widget);

  flitlab_lesson_panel_set_step (self, self->step + (g_str_equal (action_name, "lesson.next") ? 1 : -1));
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  g_signal_emit (widget, signals[SIGNAL_CLOSE_REQUESTED], 0);
}

/* Alt+Left and Alt+Right anywhere in the window while a lesson is open,
 * even with the sidebar folded away or on its Networks page: a teacher at
 * the projector has the drawing focused more often than the panel. */
static gboolean
step_key (GtkWidget *widget,
          GVariant  *args,
          gpointer   user_data)
{
  FlitlabLessonPanel *self = FLITLAB_LESSON_PANEL (user_data);

  if (self->lesson == NULL)
    return FALSE;
  return flitlab_lesson_panel_set_step (self, self->step + g_variant_get_int32 (args));
}

static void
add_keys (FlitlabLessonPanel *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  static const struct {
    guint key;
    int delta;
  } keys[] = { { GDK_KEY_Left, -1 }, { GDK_KEY_Right, 1 } };

  gtk_event_controller_set_name (controller, "flitlab-lesson-keys");
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (controller), GTK_SHORTCUT_SCOPE_GLOBAL);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].key, GDK_ALT_MASK),
                                                gtk_callback_action_new (step_key, self, NULL));

      gtk_shortcut_set_arguments (shortcut, g_variant_new_int32 (keys[i].delta));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
    }
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

/* GObject ------------------------------------------------------------------------------ */

static void
flitlab_lesson_panel_dispose (GObject *object)
{
  FlitlabLessonPanel *self = FLITLAB_LESSON_PANEL (object);

  GtkWidget *child;

  g_clear_pointer (&self->lesson, fl_lesson_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), FLITLAB_TYPE_LESSON_PANEL);
  /* The template's unnamed rows (separators, the header) are not template
   * children: they go here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (flitlab_lesson_panel_parent_class)->dispose (object);
}

static void
flitlab_lesson_panel_class_init (FlitlabLessonPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = flitlab_lesson_panel_dispose;

  signals[SIGNAL_STEP_CHANGED] =
    g_signal_new ("step-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  signals[SIGNAL_CLOSE_REQUESTED] =
    g_signal_new ("close-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flitlab/Flitlab/flitlab-lesson-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, lesson_title);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, progress_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, scroller);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, step_title);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, paragraphs);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, question_box);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, question_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, answer_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, answer_revealer);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, answer_label);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, back_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, next_button);
  gtk_widget_class_bind_template_child (widget_class, FlitlabLessonPanel, close_button);
  gtk_widget_class_bind_template_callback (widget_class, answer_toggled_cb);

  gtk_widget_class_install_action (widget_class, "lesson.back", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "lesson.next", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "lesson.close", NULL, close_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "lessonpanel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
flitlab_lesson_panel_init (FlitlabLessonPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->step = -1;
  add_keys (self);
  set_accessible_label (GTK_WIDGET (self), _("Lesson"));
  show_step (self);
}
