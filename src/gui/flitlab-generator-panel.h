/* flitlab-generator-panel.h — builds a topology spec from the generator
 * registry: a family, its sizes and keys, validated as the user types. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define FLITLAB_TYPE_GENERATOR_PANEL (flitlab_generator_panel_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabGeneratorPanel, flitlab_generator_panel, FLITLAB, GENERATOR_PANEL, GtkWidget)

GtkWidget  *flitlab_generator_panel_new      (void);
/* Puts spec in the specification entry, as if typed: the family and
 * parameter rows follow when it parses. */
void        flitlab_generator_panel_set_spec (FlitlabGeneratorPanel *self,
                                              const char            *spec);
const char *flitlab_generator_panel_get_spec (FlitlabGeneratorPanel *self);
/* The name typed for the topology; "" leaves it to the canonical spec. */
const char *flitlab_generator_panel_get_name (FlitlabGeneratorPanel *self);

G_END_DECLS
