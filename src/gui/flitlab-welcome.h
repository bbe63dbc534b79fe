/* flitlab-welcome.h — what a window shows before it holds a project: New
 * Project, Open…, the lessons and the projects opened or saved lately.
 *
 * Its buttons activate win.new-project, win.open and app.lessons; a
 * recent project, clicked, opens in the window (flitlab_window_open_file()).
 * The list follows the recent files of GTK (GtkRecentManager), where
 * flitlab_welcome_add_recent() puts every project opened or saved.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define FLITLAB_PROJECT_MIME_TYPE "application/x-flitlab-project"

#define FLITLAB_TYPE_WELCOME (flitlab_welcome_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabWelcome, flitlab_welcome, FLITLAB, WELCOME, AdwBin)

GtkWidget *flitlab_welcome_new           (void);
/* The recent projects listed, newest first: a list of GFile. */
GListModel *flitlab_welcome_get_recent   (FlitlabWelcome *self);
/* Adds the project file at path to the recent files, as a Flitlab
 * project. */
void       flitlab_welcome_add_recent    (const char     *path);

G_END_DECLS
