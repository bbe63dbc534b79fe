/* test-gui-collectives.c — the Collectives tab, as a class would use it.
 *
 * Scenarios (one per process, under Xvfb):
 *   multicast  mesh:6x6 routed by dor; Alt+4 shows the tab, whose kinds
 *              are pages of a stack, the canvas drawing the whole network
 *              for them
 */
#include "flitlab-collectives-panel.h"
#include "flitlab-multicast-page.h"
#include "gui-harness.h"

static FlitlabCollectivesPanel *
panel_of (FlitlabWindow *window)
{
  return FLITLAB_COLLECTIVES_PANEL (find_widget (GTK_WIDGET (window), FLITLAB_TYPE_COLLECTIVES_PANEL, NULL));
}

static const char *
side_page (FlitlabWindow *window)
{
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (panel_of (window)), GTK_TYPE_STACK);

  while (stack != NULL && gtk_stack_get_child_by_name (GTK_STACK (stack), "collectives") == NULL)
    stack = gtk_widget_get_ancestor (gtk_widget_get_parent (stack), GTK_TYPE_STACK);
  return stack != NULL ? gtk_stack_get_visible_child_name (GTK_STACK (stack)) : "(none)";
}

static void
show_mesh (FlitlabWindow *window)
{
  g_autoptr(GError) error = NULL;

  CHECK (flitlab_window_show_network_spec (window, "mesh:6x6", &error) && wait_until (window, is_idle_with_topology),
         "mesh:6x6 is made and shown (%s)", error != NULL ? error->message : "ok");
  CHECK (flitlab_routing_panel_set_routing (flitlab_window_get_routing_panel (window), "dor")
           && wait_until (window, is_idle),
         "dor is chosen in the Routing tab and built");
}

static void
check_tab (FlitlabWindow *window)
{
  FlitlabCollectivesPanel *panel = panel_of (window);
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  GtkWindow *help;

  CHECK (panel != NULL, "the window has a collectives panel");
  if (panel == NULL)
    exit (tap_done ());
  CHECK (press_shortcut (window, "<Alt>4"), "Alt+4 is one of the window's shortcuts");
  CHECK (g_strcmp0 (side_page (window), "collectives") == 0, "Alt+4 shows the Collectives tab (%s)",
         side_page (window));
  CHECK (gtk_widget_is_drawable (GTK_WIDGET (panel)), "the panel is on screen");
  CHECK (flitlab_canvas_get_show_collectives (canvas), "the canvas draws for the collectives");
  CHECK (g_strcmp0 (flitlab_collectives_panel_get_kind (panel), "multicast") == 0
           && FLITLAB_IS_MULTICAST_PAGE (flitlab_collectives_panel_get_page (panel, "multicast")),
         "the multicast page shows first");
  CHECK (!flitlab_collectives_panel_set_kind (panel, "no-such-kind")
           && g_strcmp0 (flitlab_collectives_panel_get_kind (panel), "multicast") == 0,
         "an unknown kind is refused");
  CHECK (flitlab_collectives_panel_get_document (panel) == DOC (window), "the panel shows the document shown");

  CHECK (press_shortcut (window, "<Alt>3") && !flitlab_canvas_get_show_collectives (canvas),
         "leaving the tab gives the canvas back");
  press_shortcut (window, "<Alt>4");

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  help = GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  CHECK (help != NULL && find_label (GTK_WIDGET (help), "Show the collectives panel") != NULL,
         "the shortcuts window lists Alt+4");
  if (help != NULL)
    gtk_window_close (help);
}

static void
run_multicast (FlitlabWindow *window)
{
  show_mesh (window);
  CHECK (wait_until (window, canvas_has_size), "the canvas is laid out");
  check_tab (window);
  save_and_forget (window);
}

int
main (int   argc,
      char *argv[])
{
  const char *scenario = argc > 1 ? argv[1] : "multicast";

  if (g_str_equal (scenario, "multicast"))
    harness_run_app (run_multicast, NULL);
  else
    CHECK (FALSE, "a known scenario: %s", scenario);
  return tap_done ();
}
