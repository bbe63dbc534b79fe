/* flitlab-export-dialog.c — the questions Export Picture asks before the
 * file chooser: format, size or page, resolution and title.
 *
 * Rows of libadwaita 1.2 in a small window of its own: a combo row for
 * the format, spin buttons for a PNG's pixels and dots per inch, a combo
 * row of pages for PDF and SVG, an entry row for the title. The rows of
 * the other formats hide.
 */
#include <glib/gi18n.h>

#include "flitlab-export-dialog.h"

struct _FlitlabExportDialog
{
  AdwWindow parent_instance;

  AdwComboRow *format;
  AdwEntryRow *title;
  GtkWidget *pixels;           /* the PNG rows' group */
  GtkSpinButton *width, *height, *dpi;
  GtkWidget *pages;            /* the PDF and SVG rows' group */
  AdwComboRow *page;
};

G_DEFINE_FINAL_TYPE (FlitlabExportDialog, flitlab_export_dialog, ADW_TYPE_WINDOW)

enum {
  EXPORT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char * const formats[] = { "png", "svg", "pdf" };

/* Pages in points, as a teacher or an author would want them. */
static const struct {
  const char *name;
  int width, height;
} pages[] = {
  { N_("A4, landscape"), 842, 595 },
  { N_("A4, portrait"), 595, 842 },
  { N_("US Letter, landscape"), 792, 612 },
  { N_("US Letter, portrait"), 612, 792 },
  { N_("Slide, 16:9"), 960, 540 },
};

const char *
flitlab_export_dialog_get_format (FlitlabExportDialog *self)
{
  guint i = adw_combo_row_get_selected (self->format);

  return i < G_N_ELEMENTS (formats) ? formats[i] : formats[0];
}

void
flitlab_export_dialog_set_format (FlitlabExportDialog *self,
                                  const char          *format)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_ascii_strcasecmp (format, formats[i]) == 0)
      adw_combo_row_set_selected (self->format, i);
}

void
flitlab_export_dialog_get_page (FlitlabExportDialog *self,
                                const char          *format,
                                FlDrawPage          *page)
{
  const char *title = gtk_editable_get_text (GTK_EDITABLE (self->title));

  fl_draw_page_init (page);
  page->title = title[0] != '\0' ? title : NULL;
  if (format == NULL)
    format = flitlab_export_dialog_get_format (self);
  if (g_ascii_strcasecmp (format, "png") == 0)
    {
      page->width = gtk_spin_button_get_value_as_int (self->width);
      page->height = gtk_spin_button_get_value_as_int (self->height);
      page->dpi = gtk_spin_button_get_value (self->dpi);
    }
  else
    {
      guint i = MIN (adw_combo_row_get_selected (self->page), G_N_ELEMENTS (pages) - 1);

      page->width = pages[i].width;
      page->height = pages[i].height;
    }
}

static void
format_changed (FlitlabExportDialog *self)
{
  gboolean png = g_str_equal (flitlab_export_dialog_get_format (self), "png");

  gtk_widget_set_visible (self->pixels, png);
  gtk_widget_set_visible (self->pages, !png);
}

static GtkSpinButton *
add_spin_row (GtkWidget  *group,
              const char *title,
              const char *subtitle,
              double      lo,
              double      hi,
              double      value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (lo, hi, 1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  return GTK_SPIN_BUTTON (spin);
}

static void
export_clicked (FlitlabExportDialog *self)
{
  g_signal_emit (self, signals[EXPORT], 0);
}

static void
flitlab_export_dialog_class_init (FlitlabExportDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  signals[EXPORT] = g_signal_new ("export", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
flitlab_export_dialog_init (FlitlabExportDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *export = gtk_button_new_with_mnemonic (_("_Export…"));
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *picture = adw_preferences_group_new ();
  g_autoptr(GtkStringList) format_names = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) page_names = gtk_string_list_new (NULL);

  gtk_window_set_title (GTK_WINDOW (self), _("Export Picture"));
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (self), 460, -1);
  gtk_window_set_resizable (GTK_WINDOW (self), FALSE);

  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_set_show_start_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), cancel);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), export);
  gtk_widget_add_css_class (export, "suggested-action");
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_close), self);
  g_signal_connect_swapped (export, "clicked", G_CALLBACK (export_clicked), self);
  gtk_window_set_default_widget (GTK_WINDOW (self), export);

  /* The whole network, whatever part of it the canvas shows. */
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (picture),
                                         _("The whole network is drawn, with the overlays shown."));
  self->title = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->title), _("Title (optional)"));
  adw_entry_row_set_activates_default (self->title, TRUE);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (picture), GTK_WIDGET (self->title));

  gtk_string_list_append (format_names, _("PNG image"));
  gtk_string_list_append (format_names, _("SVG drawing"));
  gtk_string_list_append (format_names, _("PDF document"));
  self->format = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->format), _("Format"));
  adw_combo_row_set_model (self->format, G_LIST_MODEL (format_names));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (picture), GTK_WIDGET (self->format));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (picture));

  self->pixels = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (self->pixels), C_("picture", "Size"));
  self->width = add_spin_row (self->pixels, _("Width"), _("pixels"), 16, 16384, 1600);
  self->height = add_spin_row (self->pixels, _("Height"), _("pixels"), 16, 16384, 1000);
  self->dpi = add_spin_row (self->pixels, _("Resolution"),
                            _("dots per inch: 96 draws as on screen, 192 twice as finely"), 24, 1200, 96);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (self->pixels));

  self->pages = adw_preferences_group_new ();
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    gtk_string_list_append (page_names, _(pages[i].name));
  self->page = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->page), _("Page"));
  adw_combo_row_set_model (self->page, G_LIST_MODEL (page_names));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self->pages), GTK_WIDGET (self->page));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (self->pages));

  g_signal_connect_swapped (self->format, "notify::selected", G_CALLBACK (format_changed), self);
  format_changed (self);

  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), page);
  gtk_widget_set_vexpand (page, TRUE);
  adw_window_set_content (ADW_WINDOW (self), box);
}

FlitlabExportDialog *
flitlab_export_dialog_new (GtkWindow *parent)
{
  return g_object_new (FLITLAB_TYPE_EXPORT_DIALOG, "transient-for", parent, NULL);
}
