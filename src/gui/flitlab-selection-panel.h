/* flitlab-selection-panel.h — properties of the selected switch, host or link. */
#pragma once

#include <gtk/gtk.h>

#include "flitlab-canvas.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_SELECTION_PANEL (flitlab_selection_panel_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabSelectionPanel, flitlab_selection_panel, FLITLAB, SELECTION_PANEL, GtkWidget)

GtkWidget *flitlab_selection_panel_new        (void);
void       flitlab_selection_panel_set_canvas (FlitlabSelectionPanel *self, FlitlabCanvas *canvas);

G_END_DECLS
