/* flitlab-export-dialog.h — what Export Picture asks before the file
 * chooser: the format, the size in pixels and the resolution of a PNG or
 * the page of a PDF or SVG, and an optional title.
 *
 * Signal: "export", when the user presses Export…; the handler reads the
 * page with flitlab_export_dialog_get_page() and closes the dialog.
 */
#pragma once

#include <adwaita.h>

#include "flitlab-draw.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_EXPORT_DIALOG (flitlab_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabExportDialog, flitlab_export_dialog, FLITLAB, EXPORT_DIALOG, AdwWindow)

FlitlabExportDialog *flitlab_export_dialog_new           (GtkWindow           *parent);
/* The format chosen: "png", "svg" or "pdf". */
const char          *flitlab_export_dialog_get_format    (FlitlabExportDialog *self);
void                 flitlab_export_dialog_set_format    (FlitlabExportDialog *self,
                                                          const char          *format);
/* The page for a file of format (the one chosen, or the one its name's
 * extension gives): pixels and resolution for PNG, the page chosen (in
 * points) for PDF and SVG; the title points into the dialog. */
void                 flitlab_export_dialog_get_page      (FlitlabExportDialog *self,
                                                          const char          *format,
                                                          FlDrawPage          *page);

G_END_DECLS
