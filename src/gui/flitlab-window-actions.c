/* flitlab-window-actions.c — the window's actions (win.*) and the dialogs
 * they open: file choosers, the save question, rename and delete. */
#include <glib/gi18n.h>
#include <string.h>

#include "flitlab-export-dialog.h"
#include "flitlab-window-private.h"

/* What to do once a dialog has answered. */
typedef struct
{
  FlitlabWindow *self;
  FlitlabWindowThen then;
} Pending;

static Pending *
pending_new (FlitlabWindow     *self,
             FlitlabWindowThen  then)
{
  Pending *pending = g_new0 (Pending, 1);

  pending->self = self;
  pending->then = then;
  return pending;
}

static void
pending_free (gpointer  data,
              GClosure *closure)
{
  g_free (data);
}

static void
pending_run (Pending *pending)
{
  if (pending->then != NULL)
    pending->then (pending->self);
}

static GtkFileFilter *
project_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Flitlab Projects"));
  gtk_file_filter_add_pattern (filter, "*.flitlab");
  return filter;
}

/* Saving ----------------------------------------------------------------------- */

/* Saves to path (NULL: where the project lives) and says so in a toast,
 * naming the file, or why it could not be saved in an alert. */
static gboolean
save_reporting (FlitlabWindow *self,
                const char    *path)
{
  g_autoptr(GError) error = NULL;
  const char *where = path != NULL ? path : fl_project_path (flitlab_window_get_project (self));
  g_autofree char *name = g_path_get_basename (where != NULL ? where : "");
  g_autofree char *message = NULL;
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  if (!flitlab_window_save_to_path (self, path, &error))
    {
      /* Translators: the project's file name, then why it was not saved. */
      message = g_strdup_printf (_("Could not save “%s”: %s"), name, error->message);
      flitlab_window_alert_full (self, _("Could Not Save"), message);
      return FALSE;
    }
  /* Translators: a toast once the project is saved, with its file name. */
  message = g_strdup_printf (_("Saved “%s”"), name);
  /* Toast titles are markup; file names may hold '&'. */
  escaped = g_markup_escape_text (message, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 3);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  return TRUE;
}

char *
flitlab_window_chosen_path (GtkNativeDialog    *dialog,
                            int                 response,
                            const char * const *extensions)
{
  g_autoptr(GFile) file = NULL;
  char *path;

  if (response != GTK_RESPONSE_ACCEPT || (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))) == NULL
      || (path = g_file_get_path (file)) == NULL)
    return NULL;
  if (extensions == NULL || extensions[0] == NULL)
    return path;
  for (int i = 0; extensions[i] != NULL; i++)
    if (g_str_has_suffix (path, extensions[i]))
      return path;
  /* Files are recognised by their extension: add the first if the name was
   * typed without one. */
  {
    char *with_extension = g_strconcat (path, extensions[0], NULL);

    g_free (path);
    return with_extension;
  }
}

static void
save_as_response (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         user_data)
{
  static const char * const extensions[] = { ".flitlab", NULL };
  Pending *pending = user_data;
  g_autofree char *path = flitlab_window_chosen_path (dialog, response, extensions);

  if (path != NULL && save_reporting (pending->self, path))
    pending_run (pending);
  g_free (pending);
  g_object_unref (dialog);
}

static void
save_as_with_dialog (FlitlabWindow     *self,
                     FlitlabWindowThen  then)
{
  GtkFileChooserNative *dialog;
  const char *path = fl_project_path (flitlab_window_get_project (self));
  g_autoptr(GtkFileFilter) filter = project_filter ();

  dialog = gtk_file_chooser_native_new (_("Save Project"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);

      gtk_file_chooser_set_file (GTK_FILE_CHOOSER (dialog), file, NULL);
    }
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), _("Untitled Project.flitlab"));
  g_signal_connect (dialog, "response", G_CALLBACK (save_as_response), pending_new (self, then));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Saves where the project lives, asking for a file the first time. */
static void
save_then (FlitlabWindow     *self,
           FlitlabWindowThen  then)
{
  if (fl_project_path (flitlab_window_get_project (self)) == NULL)
    save_as_with_dialog (self, then);
  else if (save_reporting (self, NULL) && then != NULL)
    then (self);
}

static void
save_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  save_then (FLITLAB_WINDOW (user_data), NULL);
}

static void
save_as_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  save_as_with_dialog (FLITLAB_WINDOW (user_data), NULL);
}

/* Unsaved changes ---------------------------------------------------------------- */

typedef struct
{
  FlitlabWindow *self;         /* a reference */
  FlitlabWindowThen then;
  gboolean save;
} Answer;

static void
answer_free (Answer *answer)
{
  g_object_unref (answer->self);
  g_free (answer);
}

static gboolean
answer_run (gpointer user_data)
{
  Answer *answer = user_data;

  if (answer->save)
    save_then (answer->self, answer->then);
  else if (answer->then != NULL)
    answer->then (answer->self);
  return G_SOURCE_REMOVE;
}

/* The answer is acted on once the dialog has gone: what follows may
 * destroy the window, which the dialog is still transient for while it
 * emits its response. */
static void
discard_response (AdwMessageDialog *dialog,
                  const char       *response,
                  gpointer          user_data)
{
  Pending *pending = user_data;
  Answer *answer;

  if (g_strcmp0 (response, "save") != 0 && g_strcmp0 (response, "discard") != 0)
    return;
  answer = g_new0 (Answer, 1);
  answer->self = g_object_ref (pending->self);
  answer->then = pending->then;
  answer->save = g_strcmp0 (response, "save") == 0;
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, answer_run, answer, (GDestroyNotify) answer_free);
}

void
flitlab_window_confirm_discard (FlitlabWindow     *self,
                                FlitlabWindowThen  then)
{
  GtkWidget *dialog;

  if (!flitlab_window_get_modified (self))
    {
      then (self);
      return;
    }

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Save Changes?"), NULL);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog),
                               _("The project has unsaved changes. Changes which are "
                                 "not saved will be permanently lost."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "discard", _("_Discard"),
                                    "save", _("_Save"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_data (dialog, "response", G_CALLBACK (discard_response),
                         pending_new (self, then), pending_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* New and open ------------------------------------------------------------------- */

static void
new_project (FlitlabWindow *self)
{
  FlProject *project = NULL;
  FlError err = { 0 };

  if (fl_project_new (&project, &err) != FL_OK)
    {
      flitlab_window_alert (self, err.message);
      return;
    }
  flitlab_window_set_project (self, project);
  /* The user chose to start afresh: the generator and the drawing show. */
  flitlab_window_set_welcome (self, FALSE);
}

static void
new_project_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  flitlab_window_confirm_discard (FLITLAB_WINDOW (user_data), new_project);
}

static void
open_response (GtkNativeDialog *dialog,
               int              response,
               gpointer         user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        flitlab_window_open_file (self, file);
    }
  g_object_unref (dialog);
}

static void
show_open_dialog (FlitlabWindow *self)
{
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = project_filter ();

  dialog = gtk_file_chooser_native_new (_("Open Project"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_signal_connect (dialog, "response", G_CALLBACK (open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
open_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  flitlab_window_confirm_discard (FLITLAB_WINDOW (user_data), show_open_dialog);
}

/* Export -------------------------------------------------------------------------- */

/* The file chosen: the picture on the page the export dialog (kept on the
 * chooser) describes for the format its name gives. */
static void
export_response (GtkNativeDialog *dialog,
                 int              response,
                 gpointer         user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  FlitlabExportDialog *ask = g_object_get_data (G_OBJECT (dialog), "flitlab-export-dialog");
  g_autofree char *extension = g_strconcat (".", flitlab_export_dialog_get_format (ask), NULL);
  /* The format follows the extension; a name without a known one gets the
   * format chosen. */
  const char * const extensions[] = { extension, ".png", ".svg", ".pdf", NULL };
  g_autofree char *path = flitlab_window_chosen_path (dialog, response, extensions);
  g_autoptr(GError) error = NULL;
  FlDrawPage page;

  if (path != NULL)
    {
      const char *dot = strrchr (path, '.');

      flitlab_export_dialog_get_page (ask, dot != NULL ? dot + 1 : NULL, &page);
      if (flitlab_canvas_export_page (self->canvas, path, &page, &error))
        {
          g_autofree char *base = g_path_get_basename (path);
          g_autofree char *message = g_strdup_printf (_("Picture saved as “%s”"), base);

          flitlab_window_toast (self, message);
        }
      else
        {
          g_autofree char *message = g_strdup_printf (_("Could not export the picture: %s"),
                                                      error->message);
          flitlab_window_alert_full (self, _("Could Not Export the Picture"), message);
        }
    }
  gtk_window_destroy (GTK_WINDOW (ask));
  g_object_unref (dialog);
}

static void
add_export_filter (GtkFileChooser *chooser,
                   const char     *name,
                   const char     *pattern)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_chooser_add_filter (chooser, filter);
}

/* The export dialog answered: where to write, in a file chooser that
 * offers the format chosen first. */
static void
export_asked (FlitlabExportDialog *ask,
              FlitlabWindow       *self)
{
  static const struct {
    const char *format, *name, *pattern;
  } filters[] = {
    { "png", N_("PNG Images"), "*.png" },
    { "svg", N_("SVG Drawings"), "*.svg" },
    { "pdf", N_("PDF Documents"), "*.pdf" },
  };
  const char *format = flitlab_export_dialog_get_format (ask);
  GtkFileChooserNative *dialog;
  g_autofree char *name = NULL;

  gtk_widget_set_visible (GTK_WIDGET (ask), FALSE);
  dialog = gtk_file_chooser_native_new (_("Export Picture"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < G_N_ELEMENTS (filters); i++)
      if (g_str_equal (filters[i].format, format) == (pass == 0))
        add_export_filter (GTK_FILE_CHOOSER (dialog), _(filters[i].name), filters[i].pattern);
  g_object_set_data_full (G_OBJECT (dialog), "flitlab-export-dialog", g_object_ref (ask), g_object_unref);

  /* A topology's name may hold characters a file name cannot. */
  name = g_strdup_printf ("%s.%s", flitlab_window_get_topology_name (self) != NULL
                                     ? flitlab_window_get_topology_name (self) : "network", format);
  g_strdelimit (name, "/\\", '-');
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_signal_connect (dialog, "response", G_CALLBACK (export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
export_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  FlitlabExportDialog *ask = flitlab_export_dialog_new (GTK_WINDOW (self));

  g_signal_connect_object (ask, "export", G_CALLBACK (export_asked), self, 0);
  gtk_window_present (GTK_WINDOW (ask));
}

/* Topologies ------------------------------------------------------------------------ */

static void
new_network_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  FlTopology *topology = fl_topology_new ();
  g_autoptr(GError) error = NULL;

  if (topology == NULL)
    {
      flitlab_window_alert (self, _("Not enough memory for a new network"));
      return;
    }
  if (!flitlab_window_add_topology (self, _("Network"), topology, &error))
    {
      flitlab_window_alert (self, error->message);
      return;
    }
  /* An empty network is for drawing: start with the switch tool. */
  g_action_group_activate_action (G_ACTION_GROUP (self), "tool",
                                  g_variant_new_string ("add-switch"));
}

static void
rename_response (AdwMessageDialog *dialog,
                 const char       *response,
                 gpointer          user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  const char *old_name = g_object_get_data (G_OBJECT (dialog), "old-name");
  GtkEditable *entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog));
  const char *new_name = gtk_editable_get_text (entry);
  FlError err = { 0 };

  if (g_strcmp0 (response, "rename") != 0 || g_strcmp0 (old_name, new_name) == 0)
    return;
  if (fl_project_rename_topology (flitlab_window_get_project (self), old_name, new_name, &err)
      != FL_OK)
    {
      flitlab_window_alert_full (self, _("Could Not Rename the Network"), err.message);
      return;
    }
  flitlab_session_rename_document (self->session, old_name, new_name);
  flitlab_window_refresh_list (self);
  flitlab_window_update_title (self);
}

static void
rename_entry_changed (GtkEditable      *entry,
                      AdwMessageDialog *dialog)
{
  adw_message_dialog_set_response_enabled (dialog, "rename",
                                           gtk_editable_get_text (entry)[0] != '\0');
}

static void
rename_topology_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  const char *name = g_variant_get_string (parameter, NULL);
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Rename Topology"), NULL);
  GtkWidget *entry = gtk_entry_new ();

  gtk_editable_set_text (GTK_EDITABLE (entry), name);
  /* Enter presses the default response, Rename, while it is enabled. */
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "rename", _("_Rename"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "rename",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "rename");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "old-name", g_strdup (name), g_free);
  g_signal_connect (entry, "changed", G_CALLBACK (rename_entry_changed), dialog);
  g_signal_connect (dialog, "response", G_CALLBACK (rename_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
delete_response (AdwMessageDialog *dialog,
                 const char       *response,
                 gpointer          user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  const char *name = g_object_get_data (G_OBJECT (dialog), "name");
  gboolean shown = g_strcmp0 (flitlab_window_get_topology_name (self), name) == 0;
  FlError err = { 0 };

  if (g_strcmp0 (response, "delete") != 0)
    return;
  if (fl_project_delete_topology (flitlab_window_get_project (self), name, &err) != FL_OK)
    {
      flitlab_window_alert_full (self, _("Could Not Delete the Network"), err.message);
      return;
    }
  if (shown)
    flitlab_window_show_nothing (self);
  flitlab_session_remove_document (self->session, name);
  flitlab_window_refresh_list (self);
  flitlab_window_update_title (self);
}

static void
delete_topology_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  const char *name = g_variant_get_string (parameter, NULL);
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), NULL, NULL);

  adw_message_dialog_format_heading (ADW_MESSAGE_DIALOG (dialog), _("Delete “%s”?"), name);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog),
                               _("The topology will be removed from the project."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "delete", _("_Delete"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "name", g_strdup (name), g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (delete_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Canvas and document ------------------------------------------------------------------ */

/* The document's commands the window offers as actions (so they get
 * shortcuts and menu items), by action name. */
static const struct {
  const char *name;
  void      (*run) (FlitlabDocument *document);
} document_commands[] = {
  { "undo", flitlab_document_undo },
  { "redo", flitlab_document_redo },
  { "delete-selection", flitlab_document_delete_selection },
};

/* And the canvas' own: how the network is viewed. */
static const struct {
  const char *name;
  void      (*run) (FlitlabCanvas *canvas);
} canvas_commands[] = {
  { "zoom-fit", flitlab_canvas_zoom_fit },
  { "zoom-in", flitlab_canvas_zoom_in },
  { "zoom-out", flitlab_canvas_zoom_out },
};

static void
command_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  const char *name = g_action_get_name (G_ACTION (action));

  for (guint i = 0; i < G_N_ELEMENTS (document_commands); i++)
    if (g_str_equal (document_commands[i].name, name) && self->document != NULL)
      document_commands[i].run (self->document);
  for (guint i = 0; i < G_N_ELEMENTS (canvas_commands); i++)
    if (g_str_equal (canvas_commands[i].name, name))
      canvas_commands[i].run (self->canvas);
}

/* The tool action's state is the tool's nick ("select", "add-switch"...),
 * so toggle buttons in the template can name their tool. */
static void
tool_change_state (GSimpleAction *action,
                   GVariant      *state,
                   gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);
  g_autoptr(GEnumClass) tools = g_type_class_ref (FLITLAB_TYPE_CANVAS_TOOL);
  GEnumValue *tool = g_enum_get_value_by_nick (tools, g_variant_get_string (state, NULL));

  if (tool == NULL)
    return;
  g_simple_action_set_state (action, state);
  flitlab_canvas_set_tool (self->canvas, (FlitlabCanvasTool) tool->value);
}

static void
canvas_tool_changed (FlitlabWindow *self)
{
  FlitlabCanvasTool current = flitlab_canvas_get_tool (self->canvas);
  g_autoptr(GEnumClass) tools = g_type_class_ref (FLITLAB_TYPE_CANVAS_TOOL);
  GEnumValue *tool = g_enum_get_value (tools, (int) current);
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "tool");

  if (tool != NULL)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (tool->value_nick));
  /* The port count of new switches matters only while adding them. */
  gtk_widget_set_visible (self->ports_box, current == FLITLAB_CANVAS_TOOL_ADD_SWITCH);
  /* What the routing tools click shows in the routing panel. */
  if (current == FLITLAB_CANVAS_TOOL_ROUTE || current == FLITLAB_CANVAS_TOOL_TURNS)
    gtk_stack_set_visible_child_name (self->side_stack, "routing");
}

/* Routing ------------------------------------------------------------------------------ */

static void
edit_turns_change_state (GSimpleAction *action,
                         GVariant      *state,
                         gpointer       user_data)
{
  FlitlabWindow *self = FLITLAB_WINDOW (user_data);

  if (self->document != NULL)
    flitlab_document_set_editing_turns (self->document, g_variant_get_boolean (state));
}

/* The document, the canvas' tool and the action agree on whether turns
 * are being edited. */
static void
editing_turns_changed (FlitlabWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "edit-turns");
  gboolean editing = self->document != NULL && flitlab_document_get_editing_turns (self->document);

  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (editing));
}

static const GActionEntry win_actions[] = {
  { .name = "new-project", .activate = new_project_action },
  { .name = "open", .activate = open_action },
  { .name = "save", .activate = save_action },
  { .name = "save-as", .activate = save_as_action },
  { .name = "export", .activate = export_action },
  { .name = "new-network", .activate = new_network_action },
  { .name = "rename-topology", .activate = rename_topology_action, .parameter_type = "s" },
  { .name = "delete-topology", .activate = delete_topology_action, .parameter_type = "s" },
  { .name = "undo", .activate = command_action },
  { .name = "redo", .activate = command_action },
  { .name = "delete-selection", .activate = command_action },
  { .name = "zoom-fit", .activate = command_action },
  { .name = "zoom-in", .activate = command_action },
  { .name = "zoom-out", .activate = command_action },
  { .name = "tool", .parameter_type = "s", .state = "'select'", .change_state = tool_change_state },
  { .name = "edit-turns", .state = "false", .change_state = edit_turns_change_state },
};

static void
set_enabled (FlitlabWindow *self,
             const char    *name,
             gboolean       enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  /* Actions added by the window's other parts may not be there yet. */
  if (action != NULL)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

/* Keys typed into a text field belong to it: Delete must not delete the
 * selected switch while the user edits a spec or a name. */
static gboolean
focus_in_text (FlitlabWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  return focus != NULL && GTK_IS_EDITABLE (focus);
}

void
flitlab_window_update_actions (FlitlabWindow *self)
{
  gboolean shown = self->document != NULL;
  int node = -1, link = -1;

  if (shown)
    flitlab_document_get_selection (self->document, &node, &link);
  set_enabled (self, "export", shown);
  set_enabled (self, "undo", shown && flitlab_document_can_undo (self->document));
  set_enabled (self, "redo", shown && flitlab_document_can_redo (self->document));
  set_enabled (self, "delete-selection",
               shown && (node >= 0 || link >= 0) && !focus_in_text (self));
  set_enabled (self, "zoom-fit", shown);
  set_enabled (self, "zoom-in", shown);
  set_enabled (self, "zoom-out", shown);
  set_enabled (self, "tool", shown);
  set_enabled (self, "edit-turns", shown);
  /* Experiments live in the project file: an untitled project has none. */
  set_enabled (self, "new-experiment",
               shown && fl_project_path (flitlab_window_get_project (self)) != NULL);
}

/* The drawing tools' keys, with the drawing focused (a text field keeps
 * its letters), listed in ui/help-overlay.ui. */
static const struct {
  guint key;
  const char *tool;
} tool_keys[] = {
  { GDK_KEY_v, "select" },
  { GDK_KEY_s, "add-switch" },
  { GDK_KEY_h, "add-host" },
  { GDK_KEY_c, "connect" },
  { GDK_KEY_x, "delete" },
};

static void
add_tool_keys (FlitlabWindow *self)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();

  gtk_event_controller_set_name (keys, "flitlab-tool-keys");
  for (guint i = 0; i < G_N_ELEMENTS (tool_keys); i++)
    {
      GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (tool_keys[i].key, 0),
                                                gtk_named_action_new ("win.tool"));

      gtk_shortcut_set_arguments (shortcut, g_variant_new_string (tool_keys[i].tool));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys), shortcut);
    }
  gtk_widget_add_controller (self->canvas_column, keys);
}

void
flitlab_window_actions_init (FlitlabWindow *self)
{
  g_autoptr(GPropertyAction) sidebar = g_property_action_new ("show-sidebar", self->flap,
                                                                "reveal-flap");
  g_autoptr(GPropertyAction) side_page = g_property_action_new ("side-page", self->side_stack,
                                                                  "visible-child-name");

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions,
                                   G_N_ELEMENTS (win_actions), self);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (sidebar));
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (side_page));
  add_tool_keys (self);

  g_signal_group_connect_swapped (self->document_signals, "notify::can-undo",
                                  G_CALLBACK (flitlab_window_update_actions), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::can-redo",
                                  G_CALLBACK (flitlab_window_update_actions), self);
  g_signal_group_connect_swapped (self->document_signals, "selection-changed",
                                  G_CALLBACK (flitlab_window_update_actions), self);
  g_signal_group_connect_swapped (self->document_signals, "notify::editing-turns",
                                  G_CALLBACK (editing_turns_changed), self);
  g_signal_connect_swapped (self->document_signals, "bind",
                            G_CALLBACK (editing_turns_changed), self);
  g_signal_connect_swapped (self->document_signals, "unbind",
                            G_CALLBACK (editing_turns_changed), self);
  g_signal_connect_swapped (self, "notify::focus-widget",
                            G_CALLBACK (flitlab_window_update_actions), self);
  g_signal_connect_object (self->canvas, "notify::tool", G_CALLBACK (canvas_tool_changed), self,
                           G_CONNECT_SWAPPED);
  flitlab_window_update_actions (self);
}
