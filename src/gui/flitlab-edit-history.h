/* flitlab-edit-history.h — undo and redo for a document.
 *
 * The history keeps whole snapshots of the topology (fl_topology_copy) and
 * of the routing asked for, so undo and redo restore exactly what was
 * there, whatever the edit was. A step holds what its edit changed: the
 * topology, the routing request, or both.
 * A run of small edits that form one gesture (a drag moving a node) is
 * grouped: its first snapshot is held back until the gesture ends and then
 * recorded as a single step.
 */
#pragma once

#include <glib.h>

#include "flitlab.h"
#include "flitlab-routing-request.h"

G_BEGIN_DECLS

typedef struct _FlitlabEditHistory FlitlabEditHistory;

/* At most max_steps undo steps, and about max_bytes of snapshots (the
 * oldest steps go first; the newest is always kept). */
FlitlabEditHistory *flitlab_edit_history_new          (guint               max_steps,
                                                       gsize               max_bytes);
void                flitlab_edit_history_free         (FlitlabEditHistory *self);
void                flitlab_edit_history_clear        (FlitlabEditHistory *self);

gboolean            flitlab_edit_history_can_undo     (FlitlabEditHistory *self);
gboolean            flitlab_edit_history_can_redo     (FlitlabEditHistory *self);

/* Records `before`, the topology just before an edit (the history takes
 * it), as one undo step, and forgets what could be redone. */
void                flitlab_edit_history_push         (FlitlabEditHistory *self,
                                                       FlTopology         *before);
/* The same for a change of the routing asked for (taken). */
void                flitlab_edit_history_push_request (FlitlabEditHistory    *self,
                                                       FlitlabRoutingRequest *before);

/* Undo and redo swap the current state for the step's: for each part the
 * step holds, *topology or *request is taken and replaced by the one to
 * show. FALSE, with nothing changed, when there is nothing to do. */
gboolean            flitlab_edit_history_undo         (FlitlabEditHistory     *self,
                                                       FlTopology            **topology,
                                                       FlitlabRoutingRequest **request);
gboolean            flitlab_edit_history_redo         (FlitlabEditHistory     *self,
                                                       FlTopology            **topology,
                                                       FlitlabRoutingRequest **request);

/* Grouping: begin_group holds `before` (taken); commit_group records it
 * as one step; cancel_group returns it, so the caller can restore it. */
void                flitlab_edit_history_begin_group  (FlitlabEditHistory *self,
                                                       FlTopology         *before);
gboolean            flitlab_edit_history_in_group     (FlitlabEditHistory *self);
void                flitlab_edit_history_commit_group (FlitlabEditHistory *self);
FlTopology         *flitlab_edit_history_cancel_group (FlitlabEditHistory *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlitlabEditHistory, flitlab_edit_history_free)

G_END_DECLS
