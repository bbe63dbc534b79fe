/* test-gui-panels.c — what a teacher preparing a lesson met first, in the
 * real application under Xvfb, at 1280x800 and at 1024x700.
 *
 *   test-gui-panels save        Save says “Saved “name.flitlab”” in a toast
 *                               and clears the title's mark; a save that
 *                               fails says why in an alert and keeps it;
 *   test-gui-panels generator   at 1024x700 the generator shows whole when
 *                               the sidebar is shown, Generate stays put as
 *                               the list grows, Enter in Name generates, and
 *                               the family's help names the fields; writes
 *                               screenshots/network-1024x700.png;
 *   test-gui-panels routing-tab at 1280x800 and 1024x700 the verdict, then
 *                               every figure, shows without scrolling; the
 *                               overlay checks stay put between dor and
 *                               updown; both throughput bounds are named
 *                               apart with their units; PT, SDPT and PPT are
 *                               explained on screen; a cycle shows at the
 *                               top; writes screenshots/routing-1024x700.png;
 *   test-gui-panels numbering   switches and hosts are numbered apart (3,
 *                               h3) when drawn by hand and when generated;
 *                               a selected switch shows its figures and its
 *                               rank explained at 1024x700;
 *   test-gui-panels menus       the main menu's button has no tooltip; the
 *                               other menu buttons hide theirs while their
 *                               menu is open;
 *   test-gui-panels help        F1 opens the manual's page for the view in
 *                               front, and that page exists as built. */
#include "flitlab-canvas-private.h"
#include "flitlab-help.h"
#include "flitlab-node-number.h"
#include "flitlab-selection-panel.h"
#include "flitlab-simulate-panel.h"
#include "gui-harness.h"

/* The toast that reads text, shown over the window. */
static gboolean
shows_toast (FlitlabWindow *window,
             const char    *text)
{
  GtkWidget *label = find_label (GTK_WIDGET (window), text);

  return label != NULL && gtk_widget_get_ancestor (label, ADW_TYPE_TOAST_OVERLAY) != NULL;
}

/* A label under the window whose text starts with prefix, or NULL. */
static gboolean
label_starts_ (GtkWidget    *widget,
               gconstpointer prefix)
{
  return GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix);
}

static gboolean
title_marked (FlitlabWindow *window)
{
  return g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (window)), "•");
}

/* The window at width x height, as a teacher's laptop or projector has it;
 * the size the widget gets excludes the shadow around it. */
static int want_width_, want_height_;

static gboolean
has_wanted_size (FlitlabWindow *window)
{
  return gtk_widget_get_width (GTK_WIDGET (window)) <= want_width_
         && gtk_widget_get_width (GTK_WIDGET (window)) > want_width_ - 20
         && gtk_widget_get_height (GTK_WIDGET (window)) <= want_height_
         && gtk_widget_get_height (GTK_WIDGET (window)) > want_height_ - 20;
}

static void
resize_window (FlitlabWindow *window,
               int            width,
               int            height)
{
  gboolean resized;

  want_width_ = width;
  want_height_ = height;
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  resized = wait_until (window, has_wanted_size);
  CHECK (resized, "the window takes %dx%d (got %dx%d)", width, height,
         gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_height (GTK_WIDGET (window)));
  /* The layout follows on the next frames. */
  for (int i = 0; i < 20; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (5000);
    }
}

/* widget's bounds in the window's coordinates. */
static graphene_rect_t
bounds_in_window (GtkWidget     *widget,
                  FlitlabWindow *window)
{
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (-1, -1, 0, 0);

  if (!gtk_widget_compute_bounds (widget, GTK_WIDGET (window), &bounds))
    return GRAPHENE_RECT_INIT (-1, -1, 0, 0);
  return bounds;
}

/* Whether widget is drawn whole inside the window and inside every
 * scrolled window around it, as it is without scrolling. */
static gboolean
in_view (GtkWidget     *widget,
         FlitlabWindow *window)
{
  graphene_rect_t b;

  if (widget == NULL)
    return FALSE;
  b = bounds_in_window (widget, window);
  if (!gtk_widget_is_drawable (widget) || b.size.height <= 0)
    return FALSE;
  for (GtkWidget *up = gtk_widget_get_parent (widget); up != NULL; up = gtk_widget_get_parent (up))
    if (GTK_IS_SCROLLED_WINDOW (up) || up == GTK_WIDGET (window))
      {
        graphene_rect_t view = bounds_in_window (up, window);

        if (b.origin.y < view.origin.y - 0.5
            || b.origin.y + b.size.height > view.origin.y + view.size.height + 0.5)
          return FALSE;
      }
  return TRUE;
}

static gboolean
sidebar_shown (FlitlabWindow *window)
{
  GtkWidget *flap = gtk_widget_get_ancestor (GTK_WIDGET (flitlab_window_get_generator_panel (window)),
                                             ADW_TYPE_FLAP);

  return flap != NULL && adw_flap_get_reveal_progress (ADW_FLAP (flap)) == 1.0;
}

#define FAILED "Could not save “lesson one.flitlab”: "

/* Saving ----------------------------------------------------------------------- */

static void
run_save (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flitlab-gui-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "lesson one.flitlab", NULL);
  AdwMessageDialog *alert;
  const char *body;

  flitlab_window_generate (window, "ring:8", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "ring:8 is generated");
  CHECK (title_marked (window), "a new network marks the title: %s",
         gtk_window_get_title (GTK_WINDOW (window)));
  CHECK (flitlab_window_save_to_path (window, path, &error), "the project saves to %s", path);

  flitlab_window_generate (window, "ring:6", NULL);
  CHECK (wait_until (window, is_idle_with_topology) && title_marked (window),
         "another network marks the title again");
  g_action_group_activate_action (G_ACTION_GROUP (window), "save", NULL);
  CHECK (shows_toast (window, "Saved “lesson one.flitlab”"), "Save says so in a toast");
  CHECK (!title_marked (window), "Save clears the title's mark: %s",
         gtk_window_get_title (GTK_WINDOW (window)));

  /* The folder has gone: the save fails, and says why. */
  g_unlink (path);
  g_rmdir (dir);
  flitlab_window_generate (window, "ring:4", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "ring:4 is generated");
  g_action_group_activate_action (G_ACTION_GROUP (window), "save", NULL);
  alert = harness_wait_for_alert (GTK_WINDOW (window), WAIT_SECONDS);
  body = alert != NULL ? adw_message_dialog_get_body (alert) : "(no alert)";
  CHECK (alert != NULL && g_strcmp0 (adw_message_dialog_get_heading (alert), "Could Not Save") == 0
           && g_str_has_prefix (body, FAILED) && strlen (body) > strlen (FAILED)
           && harness_alert_shows_all (alert, GTK_WINDOW (window)),
         "a failed save says why in an alert, whole: %s", body);
  CHECK (find_matching (GTK_WIDGET (window), label_starts_, FAILED) == NULL, "and not in a toast");
  CHECK (harness_close_alert (GTK_WINDOW (window)), "the alert closes");
  CHECK (title_marked (window), "a failed save keeps the title's mark");
  save_and_forget (window);
}

/* The generator ------------------------------------------------------------------- */

static double
y_of (GtkWidget     *widget,
      FlitlabWindow *window)
{
  return bounds_in_window (widget, window).origin.y;
}

static void
run_generator (FlitlabWindow *window)
{
  GtkWidget *panel = GTK_WIDGET (flitlab_window_get_generator_panel (window));
  GtkWidget *generate = find_button (panel, "_Generate");
  GtkWidget *family = find_widget (panel, ADW_TYPE_COMBO_ROW, "Family");
  GtkWidget *name = find_widget (panel, ADW_TYPE_ENTRY_ROW, "Name (optional)");
  GtkWidget *size = find_widget (panel, ADW_TYPE_ACTION_ROW, "Size");
  GtkWidget *ports = find_widget (panel, ADW_TYPE_ACTION_ROW, "Ports per Switch");
  GtkWidget *text = name != NULL ? find_widget (name, GTK_TYPE_TEXT, NULL) : NULL;
  g_autofree char *size_name = NULL, *ports_name = NULL;
  const char *help;
  double generate_y;

  CHECK (generate != NULL && family != NULL && name != NULL && size != NULL && ports != NULL
         && text != NULL, "the generator has its button, family, size, ports and name");
  if (generate == NULL || family == NULL || name == NULL || size == NULL || ports == NULL || text == NULL)
    return;

  /* Past the welcome screen, to the network view and its sidebar. */
  CHECK (press_shortcut (window, "<Alt>1"), "Alt+1 shows the network view");
  resize_window (window, 1024, 700);
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-sidebar",
                                      g_variant_new_boolean (TRUE));
  CHECK (wait_until (window, sidebar_shown), "the sidebar shows at 1024x700");

  /* The family with the most rows, and its help in the fields' words;
   * Generate stays beside the title whatever the help's length. */
  generate_y = y_of (generate, window);
  flitlab_generator_panel_set_spec (FLITLAB_GENERATOR_PANEL (panel), "irregular:16,ports=3,hosts=1,seed=2");
  help = adw_preferences_group_get_description (
    ADW_PREFERENCES_GROUP (gtk_widget_get_ancestor (family, ADW_TYPE_PREFERENCES_GROUP)));
  size_name = g_utf8_strdown (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (size)), -1);
  ports_name = g_utf8_strdown (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (ports)), -1);
  CHECK (help != NULL && strstr (help, size_name) != NULL && strstr (help, ports_name) != NULL,
         "the irregular family's help names its fields “%s” and “%s”: %s", size_name, ports_name,
         help != NULL ? help : "(none)");
  resize_window (window, 1024, 700);
  CHECK (fabs (y_of (generate, window) - generate_y) < 0.5,
         "Generate stays at y %.0f for another family (now %.0f)", generate_y, y_of (generate, window));
  CHECK (in_view (generate, window) && in_view (name, window),
         "at 1024x700 the generator shows from Generate to Name without scrolling");

  /* Enter in Name generates, under that name. */
  gtk_editable_set_text (GTK_EDITABLE (name), "Lesson network");
  g_signal_emit_by_name (text, "activate");
  CHECK (flitlab_window_get_busy (window) && wait_until (window, is_idle_with_topology),
         "Enter in Name generates");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "Lesson network") == 0,
         "the network is named as typed: %s", flitlab_window_get_topology_name (window));

  /* The list grows; Generate stays where it was. */
  generate_y = y_of (generate, window);
  for (int i = 0; i < 5; i++)
    {
      g_autofree char *spec = g_strdup_printf ("ring:%d", 4 + i);

      flitlab_window_generate (window, spec, NULL);
      CHECK (wait_until (window, is_idle_with_topology), "%s is generated", spec);
    }
  resize_window (window, 1024, 700);
  CHECK (fabs (y_of (generate, window) - generate_y) < 0.5,
         "Generate stays at y %.0f as the list grows (now %.0f)", generate_y, y_of (generate, window));
  CHECK (in_view (generate, window), "Generate shows without scrolling with six networks");

  flitlab_window_show_topology (window, "Lesson network", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "the lesson's network shows again");
  harness_screenshot (window, "network-1024x700.png");
  save_and_forget (window);
}

/* The routing tab -------------------------------------------------------------- */

static const char *const analysis_keys[] = {
  "root", "avg-hops", "bfs-hops", "stretch", "max-hops", "pt", "sdpt", "ppt", "max-load", "throughput",
};

static gboolean
label_holds_ (GtkWidget    *widget,
              gconstpointer text)
{
  return GTK_IS_LABEL (widget) && gtk_label_get_label (GTK_LABEL (widget)) == text;
}

/* The label that shows the routing panel's value key: the one whose text
 * is the very string the panel returns. */
static GtkWidget *
routing_label (FlitlabWindow *window,
               const char    *key)
{
  FlitlabRoutingPanel *panel = flitlab_window_get_routing_panel (window);
  const char *text = flitlab_routing_panel_get_value (panel, key);

  return text != NULL ? find_matching (GTK_WIDGET (panel), label_holds_, text) : NULL;
}

/* The y of the widget around the label that reads text, in the panel's
 * coordinates (which scrolling does not move). */
static double
y_in_panel (FlitlabWindow *window,
            const char    *text,
            GType          type)
{
  GtkWidget *panel = GTK_WIDGET (flitlab_window_get_routing_panel (window));
  GtkWidget *label = find_label (panel, text);
  GtkWidget *widget = label != NULL && type != G_TYPE_INVALID ? gtk_widget_get_ancestor (label, type) : label;
  graphene_rect_t bounds;

  if (widget == NULL || !gtk_widget_compute_bounds (widget, panel, &bounds))
    return -1;
  return bounds.origin.y;
}

static void
choose (FlitlabWindow *window,
        const char    *routing)
{
  CHECK (flitlab_routing_panel_set_routing (flitlab_window_get_routing_panel (window), routing)
           && wait_until (window, is_idle),
         "%s is chosen, built and analysed", routing);
  resize_window (window, want_width_, want_height_);
}

static void
check_numbers_in_view (FlitlabWindow *window,
                       const char    *where)
{
  GtkWidget *verdict[] = { routing_label (window, "connected"), routing_label (window, "deadlock-free") };
  GtkWidget *root = routing_label (window, "root");
  int hidden = 0;

  for (guint i = 0; i < G_N_ELEMENTS (verdict); i++)
    CHECK (verdict[i] != NULL && in_view (verdict[i], window), "%s: the verdict shows (%u)", where, i);
  for (guint i = 0; i < G_N_ELEMENTS (analysis_keys); i++)
    {
      GtkWidget *label = routing_label (window, analysis_keys[i]);

      if (label == NULL || !in_view (label, window))
        {
          printf ("# %s: %s is out of view\n", where, analysis_keys[i]);
          hidden++;
        }
    }
  CHECK (hidden == 0, "%s: every figure of the analysis shows without scrolling (%d hidden)", where, hidden);
  CHECK (verdict[1] != NULL && root != NULL && y_of (verdict[1], window) < y_of (root, window),
         "%s: the verdict comes before the figures", where);
}

static void
run_routing (FlitlabWindow *window)
{
  GtkWidget *metrics = GTK_WIDGET (flitlab_window_get_metrics_panel (window));
  GtkWidget *panel = GTK_WIDGET (flitlab_window_get_routing_panel (window));
  const char *explained[] = {
    "prohibited turns per switch, mean", "their standard deviation", "pairs of opposite prohibited turns",
  };
  double checks_y[2];

  flitlab_window_generate (window, "torus:8x8", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "torus:8x8 is generated");

  /* Two bounds, two names, each with its unit. */
  CHECK (shows_label (metrics, "Network throughput bound")
           && shows_label (metrics, "messages per unit time, uniform traffic"),
         "the Metrics tab names its bound and gives its unit");
  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page", g_variant_new_string ("routing"));
  CHECK (shows_label (panel, "Routing throughput bound") && shows_label (panel, "flits/cycle/switch, uniform traffic"),
         "the Routing tab names its own bound and gives its unit");
  for (guint i = 0; i < G_N_ELEMENTS (explained); i++)
    CHECK (shows_label (panel, explained[i]), "PT, SDPT and PPT are explained on screen: %s", explained[i]);

  for (int size = 0; size < 2; size++)
    {
      const char *where = size == 0 ? "1280x800" : "1024x700";

      resize_window (window, size == 0 ? 1280 : 1024, size == 0 ? 800 : 700);
      choose (window, "dor");
      check_numbers_in_view (window, where);
      checks_y[0] = y_in_panel (window, "Prohibited turns", GTK_TYPE_CHECK_BUTTON);
      choose (window, "updown");
      check_numbers_in_view (window, where);
      checks_y[1] = y_in_panel (window, "Prohibited turns", GTK_TYPE_CHECK_BUTTON);
      CHECK (checks_y[0] > 0 && checks_y[0] == checks_y[1],
             "%s: the overlay checks stay at y %.0f for dor and updown (%.0f)", where, checks_y[0], checks_y[1]);
      /* With nothing selected, the selection leaves the tabs the room. */
      CHECK (in_view (gtk_widget_get_ancestor (find_label (GTK_WIDGET (flitlab_window_get_routing_panel (window)),
                                                           "Prohibited turns"),
                                               GTK_TYPE_CHECK_BUTTON),
                      window),
             "%s: the first overlay check shows without scrolling", where);
    }
  harness_screenshot (window, "routing-1024x700.png");

  /* A cycle: said at the top, before the figures. */
  flitlab_window_generate (window, "ring:8", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "ring:8 is generated");
  choose (window, "shortest");
  CHECK (g_strcmp0 (flitlab_routing_panel_get_value (FLITLAB_ROUTING_PANEL (panel), "deadlock-free"), "No") == 0,
         "shortest deadlocks on ring:8");
  CHECK (in_view (find_label (panel, "Deadlock Possible"), window)
           && y_in_panel (window, "Deadlock Possible", G_TYPE_INVALID)
                < y_in_panel (window, "Root switch", G_TYPE_INVALID),
         "the cycle shows at 1024x700, above the figures");
  save_and_forget (window);
}

/* Numbering and the selection -------------------------------------------------- */

static void
check_number (const FlTopology *t,
              int               node,
              const char       *want)
{
  g_autofree char *name = flitlab_node_name (t, node);

  CHECK (g_strcmp0 (name, want) == 0, "node %d is shown as %s (want %s)", node, name, want);
}

static GtkWidget *
selection_panel (FlitlabWindow *window)
{
  return find_widget (GTK_WIDGET (window), FLITLAB_TYPE_SELECTION_PANEL, NULL);
}

/* A selection is given room for its title, figures and first ports. */
static gboolean
selection_has_room (FlitlabWindow *window)
{
  return gtk_widget_get_height (selection_panel (window)) >= 170;
}

static void
run_numbering (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *selection = selection_panel (window);
  const FlTopology *t;
  int s0, h0, s1, h1, added;
  GtkWidget *rank;

  /* Drawn by hand: switch, host, switch, host. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "new-network", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "an empty network shows");
  s0 = flitlab_document_add_switch (DOC (window), 4, 0, 0, &error);
  h0 = flitlab_document_add_host (DOC (window), s0, TRUE, 0, 0, &error);
  s1 = flitlab_document_add_switch (DOC (window), 4, 2, 0, &error);
  h1 = flitlab_document_add_host (DOC (window), s1, TRUE, 0, 0, &error);
  CHECK (s0 >= 0 && h0 >= 0 && s1 >= 0 && h1 >= 0, "two switches and two hosts are drawn");
  t = flitlab_document_get_topology (DOC (window));
  check_number (t, s0, "0");
  check_number (t, s1, "1");
  check_number (t, h0, "h0");
  check_number (t, h1, "h1");
  flitlab_document_select (DOC (window), s1, -1);
  CHECK (shows_label (selection, "Switch 1") && shows_label (selection, "h1"),
         "the second switch is Switch 1, with host h1");
  CHECK (wait_until (window, selection_has_room), "the selection panel grows to 170 px or more for the switch");
  flitlab_document_select (DOC (window), h1, -1);
  CHECK (shows_label (selection, "Host 1"), "the second host is Host 1");
  /* Undone and done again, the numbers stay. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "redo", NULL);
  t = flitlab_document_get_topology (DOC (window));
  check_number (t, s1, "1");
  check_number (t, h1, "h1");

  /* Generated: hosts follow the switches among the nodes, but count from 0;
   * a switch added after them is the next switch. */
  flitlab_window_generate (window, "torus:8x8", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "torus:8x8 is generated");
  t = flitlab_document_get_topology (DOC (window));
  check_number (t, fl_topology_host_node (t, 0), "h0");
  check_number (t, fl_topology_switch_node (t, 63), "63");
  added = flitlab_document_add_switch (DOC (window), 4, 9, 0, &error);
  t = flitlab_document_get_topology (DOC (window));
  check_number (t, added, "64");
  check_number (t, fl_topology_host_node (t, 0), "h0");
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);

  /* A switch selected at 1024x700: its title, Rank explained, its degree. */
  resize_window (window, 1024, 700);
  t = flitlab_document_get_topology (DOC (window));
  flitlab_document_select (DOC (window), fl_topology_switch_node (t, 9), -1);
  resize_window (window, 1024, 700);
  rank = find_label (selection, "Rank");
  CHECK (rank != NULL && in_view (find_label (selection, "Switch 9"), window) && in_view (rank, window),
         "the selection shows Switch 9 and its rank at 1024x700");
  CHECK (in_view (find_matching (selection, label_starts_, "its place among the switches"), window),
         "Rank is explained in words under it");
  CHECK (in_view (find_label (selection, "Switch degree"), window), "the switch's degree shows too");
  save_and_forget (window);
}

/* Menu buttons ---------------------------------------------------------------------- */

static gboolean
is_menu_button_ (GtkWidget    *widget,
                 gconstpointer icon)
{
  return GTK_IS_MENU_BUTTON (widget) && gtk_widget_is_drawable (widget)
         && (icon == NULL || g_strcmp0 (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (widget)), icon) == 0);
}

static GtkMenuButton *
open_button_;

static gboolean
popover_open (FlitlabWindow *window)
{
  GtkPopover *popover = gtk_menu_button_get_popover (open_button_);

  return popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover));
}

static gboolean
popover_closed (FlitlabWindow *window)
{
  return !popover_open (window);
}

/* Opens button's menu: its tooltip must not show over it; closed, the
 * tooltip is back. */
static void
check_menu_tooltip (FlitlabWindow *window,
                    GtkWidget     *button,
                    const char    *what)
{
  CHECK (button != NULL && gtk_widget_get_has_tooltip (button), "%s has its tooltip", what);
  if (button == NULL)
    return;
  open_button_ = GTK_MENU_BUTTON (button);
  gtk_menu_button_popup (open_button_);
  CHECK (wait_until (window, popover_open), "%s opens its menu", what);
  CHECK (!gtk_widget_get_has_tooltip (button), "%s hides its tooltip while the menu shows", what);
  gtk_menu_button_popdown (open_button_);
  CHECK (wait_until (window, popover_closed), "%s closes its menu", what);
  CHECK (gtk_widget_get_has_tooltip (button) && gtk_widget_get_tooltip_text (button) != NULL,
         "%s has its tooltip back", what);
}

static void
run_menus (FlitlabWindow *window)
{
  GtkWidget *primary = find_matching (GTK_WIDGET (window), is_menu_button_, "open-menu-symbolic");
  GtkWidget *list = gtk_widget_get_ancestor (GTK_WIDGET (flitlab_window_get_generator_panel (window)), GTK_TYPE_BOX);
  GtkWidget *panel;

  CHECK (primary != NULL && gtk_widget_get_tooltip_text (primary) == NULL,
         "the main menu's button has no tooltip to cover its first item");
  open_button_ = GTK_MENU_BUTTON (primary);
  gtk_menu_button_popup (open_button_);
  CHECK (wait_until (window, popover_open), "the main menu opens");
  gtk_menu_button_popdown (open_button_);
  CHECK (wait_until (window, popover_closed), "the main menu closes");

  flitlab_window_generate (window, "ring:8", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "ring:8 is generated");
  check_menu_tooltip (window, find_matching (list, is_menu_button_, "view-more-symbolic"), "a topology's menu button");

  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page", g_variant_new_string ("simulate"));
  panel = find_widget (GTK_WIDGET (window), FLITLAB_TYPE_SIMULATE_PANEL, NULL);
  check_menu_tooltip (window, find_matching (panel, is_menu_button_, NULL), "Presets");
  save_and_forget (window);
}

static void
check_help_page (FlitlabWindow *window,
                 const char    *keys,
                 const char    *want)
{
  const char *page;
  g_autofree char *uri = NULL;
  g_autofree char *path = NULL;

  if (keys != NULL)
    CHECK (press_shortcut (window, keys), "%s works", keys);
  page = flitlab_window_help_page (window);
  CHECK (g_strcmp0 (page, want) == 0, "after %s F1 shows the page %s (want %s)",
         keys != NULL ? keys : "the welcome", page, want);
  uri = flitlab_help_uri (page);
  path = uri != NULL ? g_filename_from_uri (uri, NULL, NULL) : NULL;
  CHECK (path != NULL && g_file_test (path, G_FILE_TEST_IS_REGULAR), "%s is built (%s)", want, uri);
}

static void
run_help (FlitlabWindow *window)
{
  g_autofree char *html = g_build_filename (g_getenv ("FLITLAB_HELP_DIR"), "index.html", NULL);

  CHECK (g_file_test (html, G_FILE_TEST_IS_REGULAR), "the manual is built as HTML: %s", html);
  CHECK (g_action_group_has_action (G_ACTION_GROUP (window), "help"), "the window has win.help");
  check_help_page (window, NULL, "preferences");
  flitlab_window_generate (window, "mesh:4x4", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "mesh:4x4 is generated");
  check_help_page (window, "<Alt>1", "drawing");
  check_help_page (window, "<Alt>2", "routing");
  check_help_page (window, "<Alt>3", "simulating");
  check_help_page (window, "<Alt>4", "collectives");
  check_help_page (window, "<Alt>5", "experiments");
  save_and_forget (window);
}

/* The drawing's accessible description follows the selection. */
static void
run_canvas_description (FlitlabWindow *window)
{
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  FlitlabDocument *document;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  flitlab_window_generate (window, "mesh:4x4", NULL);
  CHECK (wait_until (window, is_idle_with_topology), "mesh:4x4 is generated");
  document = flitlab_canvas_get_document (canvas);
  before = flitlab_canvas_describe (canvas);
  CHECK (strstr (before, "16 switches") != NULL && strstr (before, "Selected") == NULL,
         "the drawing is described: %s", before);
  flitlab_document_select (document, 5, -1);
  after = flitlab_canvas_describe (canvas);
  CHECK (strstr (after, "Selected: 5.") != NULL, "and names the selected switch: %s", after);
  save_and_forget (window);
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "save", run_save },
    { "generator", run_generator },
    { "routing-tab", run_routing },
    { "numbering", run_numbering },
    { "menus", run_menus },
    { "help", run_help },
    { "canvas-description", run_canvas_description },
  };

  return harness_main (argc, argv, "save", scenarios, G_N_ELEMENTS (scenarios));
}
