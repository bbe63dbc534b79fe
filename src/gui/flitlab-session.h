/* flitlab-session.h — an open project: its working copy and one document
 * per network shown so far, so that each network keeps its own edit
 * history, routing, overlays and route while others are shown.
 *
 * The session reads a network's routing state from the project when its
 * document is first made and writes every document's back before the
 * project is saved.
 */
#pragma once

#include <glib-object.h>

#include "flitlab-document.h"
#include "flitlab-store.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_SESSION (flitlab_session_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabSession, flitlab_session, FLITLAB, SESSION, GObject)

/* Takes ownership of project. */
FlitlabSession  *flitlab_session_new                 (FlProject       *project);
FlProject       *flitlab_session_get_project         (FlitlabSession  *self);

/* The document of the project's topology called name: the one made
 * earlier, or a new one read from the project with its routing state. */
FlitlabDocument *flitlab_session_get_document        (FlitlabSession  *self,
                                                      const char      *name,
                                                      GError         **error);
/* Makes the document of name from topology (taken), which the project has
 * just stored under that name, replacing any document of that name. */
FlitlabDocument *flitlab_session_add_document        (FlitlabSession  *self,
                                                      const char      *name,
                                                      FlTopology      *topology);
/* Follows a rename or a deletion made in the project. */
void             flitlab_session_rename_document     (FlitlabSession  *self,
                                                      const char      *old_name,
                                                      const char      *new_name);
void             flitlab_session_remove_document     (FlitlabSession  *self,
                                                      const char      *name);

/* Writes the routing state of every document into the project, to be
 * saved with it. */
gboolean         flitlab_session_save_routing_states (FlitlabSession  *self,
                                                      GError         **error);

G_END_DECLS
