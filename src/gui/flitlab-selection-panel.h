/* flitlab-selection-panel.h — properties of the selected switch, host or link. */
#pragma once

#include <gtk/gtk.h>

#include "flitlab-document.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_SELECTION_PANEL (flitlab_selection_panel_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabSelectionPanel, flitlab_selection_panel, FLITLAB, SELECTION_PANEL, GtkWidget)

GtkWidget *flitlab_selection_panel_new        (void);
/* The document whose selection is shown (NULL: none). */
void       flitlab_selection_panel_set_document (FlitlabSelectionPanel *self, FlitlabDocument *document);

G_END_DECLS
