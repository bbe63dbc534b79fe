/* flitlab-lesson-panel.h — a guided lesson beside the canvas: the
 * lesson's title, "Step 3 of 7", the step's title and paragraphs, its
 * question with the answer revealed on demand, Back, Next and Close
 * Lesson (Alt+Left and Alt+Right while the panel shows).
 *
 * Every text of the lesson is shown through gettext: the reader returns
 * the msgids (flitlab-lesson.h). The panel only shows the lesson; the
 * window does what a step asks of the rest (its tab, its highlight, its
 * collective) on "step-changed".
 *
 * Signals: "step-changed" (int step): another step is shown, 0-based;
 * "close-requested" (): Close Lesson was clicked.
 */
#pragma once

#include <adwaita.h>

#include "flitlab-lesson.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_LESSON_PANEL (flitlab_lesson_panel_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabLessonPanel, flitlab_lesson_panel, FLITLAB, LESSON_PANEL, GtkWidget)

GtkWidget      *flitlab_lesson_panel_new             (void);
/* Shows lesson (taken: the panel frees it; NULL: none) at its first step,
 * and emits "step-changed". */
void            flitlab_lesson_panel_set_lesson      (FlitlabLessonPanel *self,
                                                      FlLesson           *lesson);
const FlLesson *flitlab_lesson_panel_get_lesson      (FlitlabLessonPanel *self);
/* Shows step (0-based) and emits "step-changed"; FALSE (and nothing
 * changes) when the lesson has no such step. */
gboolean        flitlab_lesson_panel_set_step        (FlitlabLessonPanel *self,
                                                      int                 step);
/* The step shown, -1 with no lesson. */
int             flitlab_lesson_panel_get_step        (FlitlabLessonPanel *self);
/* Reveals (or hides) the answer to the step's question. */
void            flitlab_lesson_panel_reveal_answer   (FlitlabLessonPanel *self,
                                                      gboolean            reveal);
gboolean        flitlab_lesson_panel_get_answer_revealed (FlitlabLessonPanel *self);

G_END_DECLS
