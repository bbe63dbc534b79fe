/* flitlab-edit-history.h — undo and redo for the canvas.
 *
 * The history keeps whole snapshots of the topology (fl_topology_copy), so
 * undo and redo restore exactly what was there, whatever the edit was.
 * A run of small edits that form one gesture (a drag moving a node) is
 * grouped: its first snapshot is held back until the gesture ends and then
 * recorded as a single step.
 */
#pragma once

#include <glib.h>

#include "flitlab.h"

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

/* Records `before`, the state just before an edit (the history takes it),
 * as one undo step, and forgets what could be redone. */
void                flitlab_edit_history_push         (FlitlabEditHistory *self,
                                                       FlTopology         *before);

/* Undo and redo take the current state and return the one to show, or
 * NULL (keeping `current` with the caller) when there is nothing to do. */
FlTopology         *flitlab_edit_history_undo         (FlitlabEditHistory *self,
                                                       FlTopology         *current);
FlTopology         *flitlab_edit_history_redo         (FlitlabEditHistory *self,
                                                       FlTopology         *current);

/* Grouping: begin_group holds `before` (taken); commit_group records it
 * as one step; cancel_group returns it, so the caller can restore it. */
void                flitlab_edit_history_begin_group  (FlitlabEditHistory *self,
                                                       FlTopology         *before);
gboolean            flitlab_edit_history_in_group     (FlitlabEditHistory *self);
void                flitlab_edit_history_commit_group (FlitlabEditHistory *self);
FlTopology         *flitlab_edit_history_cancel_group (FlitlabEditHistory *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlitlabEditHistory, flitlab_edit_history_free)

G_END_DECLS
