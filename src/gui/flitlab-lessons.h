/* flitlab-lessons.h — the application's lessons: the actions app.lessons
 * (the window listing every lesson of fl_lesson_dir()) and
 * app.open-lesson (parameter "s": a .lesson file's path), which opens a
 * lesson in a new window, or in the active one while it is blank. */
#pragma once

#include <adwaita.h>

#include "flitlab-lesson.h"

G_BEGIN_DECLS

/* Adds app.lessons and app.open-lesson to app. */
void      flitlab_lessons_add_actions (GtkApplication *app);

/* Reads the lesson at path and checks it against the engine; NULL with
 * error set (the reader's message, naming the file and the line) when it
 * cannot be used. */
FlLesson *flitlab_lesson_load         (const char     *path,
                                       GError        **error);

/* Shows the window listing the lessons, over parent (may be NULL), and
 * returns it. */
GtkWindow *flitlab_lessons_show_list  (GtkApplication *app,
                                       GtkWindow      *parent);

G_END_DECLS
