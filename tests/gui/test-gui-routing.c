/* test-gui-routing.c — the routing panel and the canvas' routing overlays in
 * the real application, under Xvfb.
 *
 *   test-gui-routing routing   chooses up* / down* on torus:8x8 and checks
 *                              paper 002's PT, SDPT and PPT in the panel;
 *                              clicks a route with the route tool; chooses
 *                              shortest on ring:8 and checks the cycle
 *                              sentence, follows an edit that breaks the
 *                              cycle and its undo, shows a refused routing,
 *                              and writes screenshots/cdg-cycle.png;
 *   test-gui-routing turns     edits turns on ring:6, seeded from up* / down*:
 *                              allowing the one prohibited pair makes the
 *                              routing deadlock, prohibiting it again cures
 *                              it; then writes screenshots/lturn-turn-map.png
 *                              (L-turn on irregular:64,ports=4,hosts=4,seed=1);
 *   test-gui-routing rows      for every routing of the engine's registry,
 *                              the panel shows exactly the rows of the
 *                              options fl_routing_takes() says it takes, and
 *                              each row changes the document's request;
 *                              the root is typed by number or emptied.
 *
 * The engine's figures are checked as the panel prints them. */
#include "flitlab-draw.h"
#include "flitlab-option-rows.h"
#include "gui-harness.h"

static const char *
routing_value (FlitlabWindow *window,
               const char    *key)
{
  const char *text = flitlab_routing_panel_get_value (flitlab_window_get_routing_panel (window),
                                                      key);

  return text != NULL ? text : "(none)";
}

#define CHECK_VALUE(window, key, want) \
  CHECK (g_strcmp0 (routing_value (window, key), want) == 0, \
         "the routing panel shows %s \"%s\", want \"%s\"", key, routing_value (window, key), want)

static const char *
routed_name (FlitlabWindow *window)
{
  FlitlabRouted *routed = flitlab_document_get_routed (DOC (window));

  return routed != NULL ? routed->routing_name : "(none)";
}

static gboolean
action_state_boolean (FlitlabWindow *window,
                      const char    *name)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (window), name);

  return state != NULL && g_variant_get_boolean (state);
}

/* Chooses a routing as the chooser does and waits for it to be built. */
static void
choose_routing (FlitlabWindow *window,
                const char    *name)
{
  FlitlabRoutingPanel *panel = flitlab_window_get_routing_panel (window);

  CHECK (flitlab_routing_panel_set_routing (panel, name), "the chooser offers %s", name);
  CHECK (flitlab_window_get_busy (window), "choosing %s builds it at once", name);
  CHECK (wait_until (window, is_idle), "%s is built and analysed", name);
}

static gboolean
sidebar_hidden (FlitlabWindow *window)
{
  GtkWidget *flap = gtk_widget_get_ancestor (GTK_WIDGET (flitlab_window_get_canvas (window)),
                                             ADW_TYPE_FLAP);

  return flap != NULL && adw_flap_get_reveal_progress (ADW_FLAP (flap)) == 0.0;
}

/* A picture for a class: the sidebar hidden so that the network gets the
 * room, fitted, with the routing panel beside it given the height of the
 * window as a user would drag the divider above the selection. */
static void
take_screenshot (FlitlabWindow *window,
                 const char    *name)
{
  g_autofree char *path = screenshot_path (name);
  GtkWidget *paned = gtk_widget_get_ancestor (GTK_WIDGET (flitlab_window_get_routing_panel (window)),
                                              GTK_TYPE_PANED);
  int position = paned != NULL ? gtk_paned_get_position (GTK_PANED (paned)) : 0;

  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-sidebar",
                                      g_variant_new_boolean (FALSE));
  CHECK (wait_until (window, sidebar_hidden), "the sidebar hides for %s", name);
  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page",
                                  g_variant_new_string ("routing"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  if (paned != NULL)
    gtk_paned_set_position (GTK_PANED (paned), gtk_widget_get_height (paned));
  CHECK (save_screenshot (GTK_WIDGET (window), path), "the window renders to %s", path);
  if (paned != NULL)
    gtk_paned_set_position (GTK_PANED (paned), position);
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-sidebar",
                                      g_variant_new_boolean (TRUE));
}

/* Routing, routes, cycles ------------------------------------------------------ */

static void
check_route_tool (FlitlabWindow *window)
{
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  GtkGestureDrag *drag = canvas_drag_gesture (canvas);
  const FlTopology *topology = flitlab_document_get_topology (DOC (window));
  FlDrawView view;
  double x[2], y[2];
  int ends[2] = { 0, 9 };
  int src = -1, dst = -1;

  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page",
                                  g_variant_new_string ("metrics"));
  /* As Ctrl+R does, through the window's action muxer. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "route");
  CHECK (flitlab_canvas_get_tool (canvas) == FLITLAB_CANVAS_TOOL_ROUTE,
         "win.tool 'route' chooses the canvas' route tool");
  CHECK (g_strcmp0 (side_page (window), "routing") == 0,
         "the route tool brings the routing panel forward (shows %s)", side_page (window));

  /* Click switch 0, then switch 9 (one step right, one down) of the fitted
   * view; without overlays the canvas fits the whole network, hosts
   * included, as fl_draw_view_fit() does. */
  CHECK (wait_until (window, canvas_has_size) && drag != NULL, "the canvas is laid out");
  if (drag == NULL)
    return;
  flitlab_document_set_overlays (DOC (window), FLITLAB_OVERLAY_NONE);
  flitlab_canvas_zoom_fit (canvas);
  fl_draw_view_fit (topology, gtk_widget_get_width (GTK_WIDGET (canvas)),
                    gtk_widget_get_height (GTK_WIDGET (canvas)), &view);
  for (int i = 0; i < 2; i++)
    {
      fl_draw_node_position (topology, ends[i], &x[i], &y[i]);
      fl_draw_view_to_device (&view, x[i], y[i], &x[i], &y[i]);
    }
  pointer_click (drag, x[0], y[0]);
  CHECK_VALUE (window, "endpoints", "0 → ?");
  pointer_click (drag, x[1], y[1]);
  flitlab_document_get_route_endpoints (DOC (window), &src, &dst);
  CHECK (src == 0 && dst == 9, "two clicks set the route from switch 0 to switch 9 (got %d, %d)",
         src, dst);
  CHECK_VALUE (window, "endpoints", "0 → 9");
  CHECK_VALUE (window, "path", "0 → 1 → 9");
  CHECK_VALUE (window, "hops", "2");
  CHECK_VALUE (window, "paths", "2");
  CHECK (flitlab_document_get_overlays (DOC (window)) & FLITLAB_OVERLAY_PATHS,
         "a route clicked shows its paths on the canvas");
  /* The canvas draws the paths and the panel counts them: one computation. */
  CHECK (renders (GTK_WIDGET (canvas)), "the canvas draws the route");
  CHECK (flitlab_document_get_route_computations (DOC (window)) == 1,
         "the route's paths are computed once for the canvas and the panel (%u)",
         flitlab_document_get_route_computations (DOC (window)));
  g_action_group_activate_action (G_ACTION_GROUP (window), "tool", g_variant_new_string ("select"));
}

/* The root of up* / down*, typed into its spin button, and back to the
 * paper's rule. */
static void
check_root (FlitlabWindow *window)
{
  GtkWidget *row;
  GtkWidget *spin;

  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page",
                                  g_variant_new_string ("routing"));
  row = find_widget (GTK_WIDGET (flitlab_window_get_routing_panel (window)),
                     ADW_TYPE_ACTION_ROW, "Root switch");
  spin = find_widget (row, GTK_TYPE_SPIN_BUTTON, NULL);

  CHECK (spin != NULL && gtk_widget_is_drawable (spin), "updown shows its root's spin button");
  if (spin == NULL)
    return;
  CHECK (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), "automatic") == 0,
         "the root is automatic at first (%s)", gtk_editable_get_text (GTK_EDITABLE (spin)));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 27);
  CHECK (flitlab_window_get_busy (window) && wait_until (window, is_idle),
         "another root builds the routing again");
  CHECK_VALUE (window, "root", "27");
  CHECK_VALUE (window, "ppt", "80");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), -1);
  CHECK (wait_until (window, is_idle), "the automatic root is built again");
  CHECK_VALUE (window, "root", "0");
}

/* dor on a torus without its dateline: one VC class has a cycle. */
static void
check_dor_classes (FlitlabWindow *window)
{
  GtkWidget *row;
  GtkWidget *spin;

  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page",
                                  g_variant_new_string ("routing"));
  row = flitlab_routing_panel_get_option_row (flitlab_window_get_routing_panel (window), "classes");
  spin = flitlab_option_row_get_editor (row);

  CHECK (row != NULL && gtk_widget_is_drawable (row) && GTK_IS_SPIN_BUTTON (spin),
         "dor shows its VC classes");
  if (row == NULL || !GTK_IS_SPIN_BUTTON (spin))
    return;
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 1);
  CHECK (flitlab_window_get_busy (window) && wait_until (window, is_idle),
         "one VC class builds dor again");
  CHECK_VALUE (window, "deadlock-free", "No");
  CHECK (strstr (routing_value (window, "cycle"), "cycle") != NULL,
         "the cycle of dor without a dateline is explained: %s", routing_value (window, "cycle"));
  /* Below the range: the routing's own classes. */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 0);
  CHECK (wait_until (window, is_idle), "dor with its default classes is built again");
  CHECK_VALUE (window, "deadlock-free", "Yes");
}

static void
run_routing (FlitlabWindow *window)
{
  FlitlabRoutingPanel *panel = flitlab_window_get_routing_panel (window);
  g_autofree char *cycle = NULL;

  CHECK (g_strcmp0 (flitlab_routing_panel_get_routing (panel), "updown") == 0,
         "a new window routes by updown");
  CHECK_VALUE (window, "pt", "—");

  /* Paper 002, Table 3: up* / down* on the 8x8 torus. */
  show_generated (window, "torus:8x8");
  choose_routing (window, "dor");
  CHECK (g_strcmp0 (routed_name (window), "dor") == 0, "the canvas holds dor (%s)", routed_name (window));
  CHECK_VALUE (window, "deadlock-free", "Yes");
  check_dor_classes (window);
  choose_routing (window, "updown");
  CHECK (g_strcmp0 (routed_name (window), "updown") == 0, "the canvas holds updown (%s)",
         routed_name (window));
  CHECK_VALUE (window, "pt", "2.500");
  CHECK_VALUE (window, "sdpt", "2.264");
  CHECK_VALUE (window, "ppt", "80");
  CHECK_VALUE (window, "deadlock-free", "Yes");
  CHECK_VALUE (window, "connected", "Yes");
  CHECK_VALUE (window, "root", "0");
  CHECK_VALUE (window, "cycle", "");
  check_root (window);
  check_route_tool (window);

  /* shortest on a ring: a channel dependency cycle, said in a sentence
   * and drawn on the network. */
  show_generated (window, "ring:8");
  CHECK_VALUE (window, "deadlock-free", "Yes");
  CHECK_VALUE (window, "ppt", "1");
  choose_routing (window, "shortest");
  CHECK_VALUE (window, "deadlock-free", "No");
  cycle = g_strdup (routing_value (window, "cycle"));
  CHECK (strstr (cycle, "cycle") != NULL && strstr (cycle, "→") != NULL,
         "the panel says which turns close the cycle: %s", cycle);
  CHECK (shows_label (GTK_WIDGET (window), cycle), "the cycle sentence is on screen");
  CHECK (flitlab_document_get_overlays (DOC (window)) & FLITLAB_OVERLAY_CYCLE,
         "the cycle overlay is switched on");
  flitlab_document_set_overlays (DOC (window), FLITLAB_OVERLAY_CYCLE);
  take_screenshot (window, "cdg-cycle.png");

  /* A structural edit drops the canvas' routing; the one built again
   * after the pause follows the network. */
  flitlab_document_select (DOC (window), -1, first_switch_link (flitlab_document_get_topology (DOC (window))));
  flitlab_document_delete_selection (DOC (window));
  CHECK (flitlab_document_get_routed (DOC (window)) == NULL && flitlab_window_get_busy (window),
         "deleting a link drops the routing and rebuilds it");
  CHECK (wait_until (window, is_idle), "the routing of the edited ring is built");
  CHECK_VALUE (window, "deadlock-free", "Yes");
  CHECK (!shows_label (GTK_WIDGET (window), cycle), "the cycle sentence is gone");
  flitlab_document_undo (DOC (window));
  CHECK (wait_until (window, is_idle), "the routing of the restored ring is built");
  CHECK_VALUE (window, "deadlock-free", "No");
  CHECK (g_strcmp0 (routed_name (window), "shortest") == 0, "the canvas holds shortest again");

  /* A routing that does not apply is refused in the engine's words. */
  choose_routing (window, "xmesh");
  CHECK (strstr (routing_value (window, "refused"), "xmesh") != NULL,
         "the panel shows why xmesh is refused: %s", routing_value (window, "refused"));
  CHECK (shows_label (GTK_WIDGET (window), routing_value (window, "refused")),
         "the refusal is on screen");
  CHECK (flitlab_document_get_routed (DOC (window)) == NULL, "the canvas holds no routing");
  CHECK_VALUE (window, "deadlock-free", "—");
  save_and_forget (window);
}

/* Editing turns ------------------------------------------------------------------ */

/* Clicks a turn on the canvas with the turn tool. The canvas finds the turn
 * under the pointer and emits this signal, which is what the window side
 * acts on. */
static void
click_turn (FlitlabWindow *window,
            const FlTurn  *turn)
{
  g_signal_emit_by_name (flitlab_window_get_canvas (window), "turn-activated", turn->sw,
                         turn->in_port, turn->out_port);
  CHECK (flitlab_window_get_busy (window), "a click on turn %d: %d → %d re-analyses at once",
         turn->sw, turn->in_port, turn->out_port);
  CHECK (wait_until (window, is_idle), "the edited turn set is analysed");
}

static void
run_turns (FlitlabWindow *window)
{
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  FlitlabRoutingPanel *panel = flitlab_window_get_routing_panel (window);
  FlitlabRouted *routed;
  FlitlabDocument *ring;
  FlTurn pair[2] = { { 0 } };
  GtkWindow *help;

  /* up* / down* on a ring of six prohibits one pair of opposite turns, at
   * the switch opposite the root. */
  show_generated (window, "ring:6");
  routed = flitlab_document_get_routed (DOC (window));
  CHECK (routed != NULL && g_strcmp0 (routed->routing_name, "updown") == 0
           && routed->n_prohibited == 2,
         "updown prohibits two turns on ring:6 (%d)", routed != NULL ? routed->n_prohibited : -1);
  if (routed == NULL || routed->n_prohibited != 2)
    return;
  memcpy (pair, routed->prohibited, sizeof pair);
  CHECK_VALUE (window, "ppt", "1");

  /* As Ctrl+T does, through the window's action muxer. */
  CHECK (gtk_widget_activate_action (GTK_WIDGET (window), "win.edit-turns", NULL),
         "win.edit-turns is found from the window");
  CHECK (flitlab_document_get_editing_turns (DOC (window)) && action_state_boolean (window, "edit-turns"),
         "win.edit-turns starts editing turns");
  CHECK (g_strcmp0 (flitlab_routing_panel_get_routing (panel), "turnset") == 0,
         "editing turns routes by turnset");
  CHECK (flitlab_canvas_get_tool (canvas) == FLITLAB_CANVAS_TOOL_TURNS,
         "the canvas takes its turn tool");
  CHECK (flitlab_document_get_overlays (DOC (window)) & FLITLAB_OVERLAY_TURNS,
         "the prohibited turns are drawn, to be clicked");
  CHECK (wait_until (window, is_idle), "the seeded turn set is analysed");
  routed = flitlab_document_get_routed (DOC (window));
  CHECK (routed != NULL && g_strcmp0 (routed->routing_name, "turnset") == 0
           && routed->n_prohibited == 2 && memcmp (routed->prohibited, pair, sizeof pair) == 0,
         "turnset starts from updown's two prohibited turns");
  CHECK_VALUE (window, "deadlock-free", "Yes");
  CHECK_VALUE (window, "ppt", "1");

  /* Allowing one turn of the pair already lets packets chase each other
   * around the ring one way; allowing both, either way. */
  click_turn (window, &pair[0]);
  CHECK_VALUE (window, "pt", "0.167");
  CHECK_VALUE (window, "ppt", "0");
  CHECK_VALUE (window, "deadlock-free", "No");

  /* Ctrl+Z prohibits the turn again, Ctrl+Shift+Z allows it again. */
  CHECK (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL)
           && wait_until (window, is_idle), "win.undo undoes the turn edit");
  CHECK_VALUE (window, "ppt", "1");
  CHECK_VALUE (window, "deadlock-free", "Yes");
  CHECK (gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL)
           && wait_until (window, is_idle), "win.redo redoes it");
  CHECK_VALUE (window, "ppt", "0");
  CHECK_VALUE (window, "deadlock-free", "No");
  click_turn (window, &pair[1]);
  CHECK_VALUE (window, "pt", "0.000");
  CHECK_VALUE (window, "deadlock-free", "No");
  CHECK (strstr (routing_value (window, "cycle"), "cycle") != NULL
           && shows_label (GTK_WIDGET (window), routing_value (window, "cycle")),
         "the cycle sentence is on screen: %s", routing_value (window, "cycle"));
  CHECK_VALUE (window, "avg-hops", "1.800");

  /* Prohibiting the pair again restores up* / down*'s routing. */
  click_turn (window, &pair[0]);
  click_turn (window, &pair[1]);
  CHECK_VALUE (window, "deadlock-free", "Yes");
  CHECK_VALUE (window, "ppt", "1");
  CHECK_VALUE (window, "cycle", "");

  /* Another tool ends the editing; the edited routing stays. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "tool", g_variant_new_string ("select"));
  CHECK (!flitlab_document_get_editing_turns (DOC (window)) && !action_state_boolean (window, "edit-turns"),
         "the select tool ends the editing of turns");
  CHECK (g_strcmp0 (flitlab_routing_panel_get_routing (panel), "turnset") == 0,
         "the edited turnset stays chosen");

  /* The shortcuts window lists the routing's shortcuts. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  help = GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  CHECK (help != NULL
           && find_label (GTK_WIDGET (help), "Edit prohibited turns") != NULL,
         "the shortcuts window lists the editing of turns");
  if (help != NULL)
    gtk_window_close (help);

  ring = DOC (window);
  g_object_add_weak_pointer (G_OBJECT (ring), (gpointer *) &ring);
  click_turn (window, &pair[0]);
  CHECK_VALUE (window, "deadlock-free", "No");

  /* Paper 002's L-turn on an irregular network: the prohibited-turn map. */
  show_generated (window, "irregular:64,ports=4,hosts=4,seed=1");
  CHECK (flitlab_canvas_get_document (canvas) == DOC (window) && DOC (window) != ring,
         "the canvas shows the new network's document");
  CHECK (g_strcmp0 (flitlab_routing_panel_get_routing (panel), "updown") == 0,
         "the new network has its own routing, updown, not the turns edited on the ring");
  CHECK_VALUE (window, "deadlock-free", "Yes");
  CHECK_VALUE (window, "cycle", "");
  CHECK (!shows_label (GTK_WIDGET (window), "Deadlock Possible"),
         "no deadlock is announced for the new network");
  choose_routing (window, "lturn-alpha");
  CHECK_VALUE (window, "connected", "Yes");
  CHECK_VALUE (window, "deadlock-free", "Yes");
  CHECK_VALUE (window, "ppt", "22");
  flitlab_document_set_overlays (DOC (window), FLITLAB_OVERLAY_TURNS);
  take_screenshot (window, "lturn-turn-map.png");

  /* Back on the ring, its edited turns are there, with the routing built
   * for them: nothing is built again. */
  CHECK (flitlab_window_show_topology (window, "ring:6", NULL) && DOC (window) == ring,
         "the ring shows again, with its own document");
  CHECK (!flitlab_window_get_busy (window) || wait_until (window, is_idle), "the ring is measured");
  CHECK (g_strcmp0 (flitlab_routing_panel_get_routing (panel), "turnset") == 0,
         "the ring keeps its edited turn set");
  CHECK_VALUE (window, "deadlock-free", "No");
  CHECK_VALUE (window, "ppt", "0");
  CHECK (flitlab_document_can_undo (ring), "and its history of turn edits");
  CHECK (flitlab_window_show_topology (window, "irregular:64,ports=4,hosts=4,seed=1", NULL)
           && wait_until (window, is_idle),
         "the irregular network shows again");
  CHECK (g_strcmp0 (flitlab_routing_panel_get_routing (panel), "lturn-alpha") == 0,
         "it keeps L-turn");
  CHECK_VALUE (window, "ppt", "22");
  if (ring != NULL)
    g_object_remove_weak_pointer (G_OBJECT (ring), (gpointer *) &ring);
  save_and_forget (window);
}

/* Option rows from the registry ----------------------------------------------- */

/* Whether the row of an option is on screen in the panel (the prohibited
 * turns' row sits in an expander). */
static gboolean
option_row_shown (GtkWidget *row)
{
  GtkWidget *expander = gtk_widget_get_ancestor (row, ADW_TYPE_EXPANDER_ROW);

  return gtk_widget_is_drawable (expander != NULL ? expander : row);
}

/* "SW:IN>OUT" of the first turn between two switch links of topology. */
static char *
sample_turn (const FlTopology *topology)
{
  for (int sw = 0; sw < fl_topology_node_count (topology); sw++)
    {
      int ports[2], n = 0;

      if (fl_topology_node_kind (topology, sw) != FL_NODE_SWITCH)
        continue;
      for (int port = 0; port < fl_topology_node_ports (topology, sw) && n < 2; port++)
        {
          int peer = fl_topology_port_peer (topology, sw, port, NULL);

          if (peer >= 0 && fl_topology_node_kind (topology, peer) == FL_NODE_SWITCH)
            ports[n++] = port;
        }
      if (n == 2)
        return g_strdup_printf ("%d:%d>%d", sw, ports[0], ports[1]);
    }
  return NULL;
}

/* Gives the option's row another value than the one it shows, as a user
 * would; FALSE when the test knows no other value for it. */
static gboolean
edit_option_row (FlitlabWindow *window,
                 GtkWidget     *row)
{
  const FlOptionInfo *info = flitlab_option_row_get_info (row);
  GtkWidget *editor = flitlab_option_row_get_editor (row);

  switch (info->type)
    {
    case FL_OPTION_INT:
    case FL_OPTION_INT64:
    case FL_OPTION_DOUBLE:
      {
        GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (editor));
        double value = gtk_spin_button_get_value (GTK_SPIN_BUTTON (editor));
        double lower = gtk_adjustment_get_lower (adjustment);
        double upper = gtk_adjustment_get_upper (adjustment);

        gtk_spin_button_set_value (GTK_SPIN_BUTTON (editor), value + 1 <= upper ? value + 1 : lower);
        return TRUE;
      }

    case FL_OPTION_ENUM:
      {
        guint n = g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (row)));
        guint selected = adw_combo_row_get_selected (ADW_COMBO_ROW (row));

        if (n < 2)
          return FALSE;
        adw_combo_row_set_selected (ADW_COMBO_ROW (row), (selected + 1) % n);
        return TRUE;
      }

    case FL_OPTION_FLAG:
      gtk_switch_set_active (GTK_SWITCH (editor), !gtk_switch_get_active (GTK_SWITCH (editor)));
      return TRUE;

    case FL_OPTION_STRING:
    case FL_OPTION_COMPOSITE:
    default:
      {
        /* Text in an option's own syntax: the test must know a value. */
        g_autofree char *text = NULL;

        if (g_strcmp0 (info->name, FLITLAB_TURNS_OPTION) == 0)
          text = sample_turn (flitlab_document_get_topology (DOC (window)));
        if (text == NULL)
          return FALSE;
        gtk_editable_set_text (GTK_EDITABLE (editor), text);
        g_signal_emit_by_name (editor, "apply");
        return TRUE;
      }
    }
}

static void
check_routing_rows (FlitlabWindow   *window,
                    const FlRoutingInfo *routing)
{
  FlitlabRoutingPanel *panel = flitlab_window_get_routing_panel (window);

  choose_routing (window, routing->name);
  for (int i = 0; i < fl_routing_option_count (); i++)
    {
      const FlOptionInfo *option = fl_routing_option (i);
      GtkWidget *row = flitlab_routing_panel_get_option_row (panel, option->name);
      gboolean takes = fl_routing_takes (routing, option->name);

      CHECK (row != NULL && flitlab_option_row_get_info (row) == option,
             "the panel has a row for the option %s", option->name);
      if (row == NULL)
        continue;
      CHECK (option_row_shown (row) == takes, "%s %s the row of %s", routing->name,
             takes ? "shows" : "hides", option->name);
    }

  for (int i = 0; i < fl_routing_option_count (); i++)
    {
      const FlOptionInfo *option = fl_routing_option (i);
      GtkWidget *row = flitlab_routing_panel_get_option_row (panel, option->name);
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;

      if (row == NULL || !fl_routing_takes (routing, option->name))
        continue;
      before = flitlab_routing_request_format_option (flitlab_document_get_request (DOC (window)),
                                                      option->name);
      CHECK (edit_option_row (window, row), "the test gives %s's %s another value", routing->name,
             option->name);
      after = flitlab_routing_request_format_option (flitlab_document_get_request (DOC (window)),
                                                     option->name);
      CHECK (flitlab_option_row_get_error (row) == NULL && g_strcmp0 (before, after) != 0,
             "%s's %s row changes the request: %s, then %s (%s)", routing->name, option->name, before,
             after, flitlab_option_row_get_error (row) != NULL ? flitlab_option_row_get_error (row) : "taken");
      CHECK (wait_until (window, is_idle), "%s with %s %s is built", routing->name, option->name, after);
      CHECK (option_row_shown (row), "the row of %s stays on screen", option->name);
    }
}

/* The request reads and writes options by key, in the engine's words, and
 * hands the engine only those the routing takes. */
static void
check_request_options (void)
{
  g_autoptr(FlitlabRoutingRequest) request = flitlab_routing_request_new ("dor");
  g_autoptr(FlitlabRoutingRequest) copy = NULL;
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (FlTurn));
  g_autofree char *order = NULL;
  FlRoutingOptions options;
  FlError err = { 0 };

  CHECK (flitlab_routing_request_set_option (request, "order", "yx", NULL)
           && g_strcmp0 (request->order, "yx") == 0,
         "order yx is set by key");
  CHECK (!flitlab_routing_request_set_option (request, "classes", "99", &err)
           && strstr (err.message, "classes") != NULL && request->vc_classes == 0,
         "a value out of range is refused in the engine's words: %s", err.message);
  CHECK (!flitlab_routing_request_set_option (request, "no-such-option", "1", NULL),
         "an option the registry does not know is refused");
  CHECK (flitlab_routing_request_set_option (request, FLITLAB_TURNS_OPTION, "3:0>1,1:1>0", NULL)
           && request->turns->len == 2 && g_array_index (request->turns, FlTurn, 0).sw == 1,
         "turns are set from the command line's syntax, sorted");
  order = flitlab_routing_request_format_option (request, "order");
  CHECK (g_strcmp0 (order, "yx") == 0, "order is written back as yx (%s)", order);
  copy = flitlab_routing_request_copy (request);
  CHECK (flitlab_routing_request_equal (copy, request), "a copy equals its request");
  CHECK (flitlab_routing_request_set_option (copy, "root", "5", NULL)
           && !flitlab_routing_request_equal (copy, request),
         "another root makes another request");

  flitlab_routing_request_options (request, NULL, kept, &options);
  CHECK (g_strcmp0 (options.order, "yx") == 0 && options.root == -1 && options.n_prohibited == 0,
         "dor is given its order, and neither a root nor turns");
  flitlab_routing_request_options (copy, NULL, kept, &options);
  CHECK (options.root == -1, "nor the root set on it");
  g_free (copy->name);
  copy->name = g_strdup (flitlab_routing_for_turns ());
  flitlab_routing_request_options (copy, NULL, kept, &options);
  CHECK (options.order == NULL && options.n_prohibited == 2,
         "%s is given its turns, and no order", copy->name);
}

/* The root is typed as the switch's number; emptied, or as its word, it
 * is the paper's rule again. */
static void
check_root_typed (FlitlabWindow *window)
{
  FlitlabRoutingPanel *panel = flitlab_window_get_routing_panel (window);
  const char *typed[] = { "5", "", "7", "automatic" };
  const int want[] = { 5, -1, 7, -1 };
  GtkWidget *spin;

  choose_routing (window, "updown");
  spin = flitlab_option_row_get_editor (flitlab_routing_panel_get_option_row (panel, "root"));
  for (guint i = 0; i < G_N_ELEMENTS (typed); i++)
    {
      gtk_editable_set_text (GTK_EDITABLE (spin), typed[i]);
      gtk_spin_button_update (GTK_SPIN_BUTTON (spin));
      CHECK (flitlab_document_get_request (DOC (window))->root == want[i],
             "typing '%s' as the root asks for %d (%d)", typed[i], want[i],
             flitlab_document_get_request (DOC (window))->root);
      CHECK (wait_until (window, is_idle), "the routing with root '%s' is built", typed[i]);
    }
  CHECK (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), "automatic") == 0,
         "the root reads automatic (%s)", gtk_editable_get_text (GTK_EDITABLE (spin)));
}

static void
run_rows (FlitlabWindow *window)
{
  FlitlabRoutingPanel *panel = flitlab_window_get_routing_panel (window);
  GtkWidget *order, *turns;

  check_request_options ();
  show_generated (window, "mesh:4x4");
  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page",
                                  g_variant_new_string ("routing"));
  for (int i = 0; i < fl_routing_count (); i++)
    check_routing_rows (window, fl_routing_info (i));

  /* The orders offered are those of a 2D network: automatic, xy and yx. */
  order = flitlab_routing_panel_get_option_row (panel, "order");
  CHECK (order != NULL && ADW_IS_COMBO_ROW (order)
           && g_list_model_get_n_items (adw_combo_row_get_model (ADW_COMBO_ROW (order))) == 3,
         "the order row offers the 2D orders only");

  /* The prohibited turns are counted on their row. */
  choose_routing (window, flitlab_routing_for_turns ());
  turns = flitlab_routing_panel_get_option_row (panel, FLITLAB_TURNS_OPTION);
  turns = turns != NULL ? gtk_widget_get_ancestor (turns, ADW_TYPE_EXPANDER_ROW) : NULL;
  CHECK (turns != NULL && flitlab_document_get_request (DOC (window))->turns->len == 1
           && g_str_has_prefix (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (turns)), "1 turn prohibited"),
         "the turns' row counts the one turn set through it: %s",
         turns != NULL ? adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (turns)) : "(no row)");

  check_root_typed (window);
  save_and_forget (window);
}

int
main (int   argc,
      char *argv[])
{
  const char *scenario = argc > 1 ? argv[1] : "routing";

  HarnessRun run = run_routing;

  if (g_strcmp0 (scenario, "turns") == 0)
    run = run_turns;
  else if (g_strcmp0 (scenario, "rows") == 0)
    run = run_rows;
  harness_run_app (run, NULL);
  return tap_done ();
}
