/* test-gui-simulate.c — the Simulate tab in the real application, under
 * Xvfb.
 *
 *   test-gui-simulate simulate   Alt+3 shows the tab, with one settings row
 *                                per key of the engine's table; shortest on
 *                                ring:8 with 1 VC at rate 0.9, set through
 *                                the rows and run, deadlocks and names the
 *                                cycle; dor on mesh:4x4 is ok with the
 *                                latency fl_sim_run gives for the same
 *                                settings; a buffer smaller than the packet
 *                                under VCT is refused in the engine's words;
 *                                the deflection model runs; each network
 *                                keeps its own settings, saved with its
 *                                routing state; the header's Stop, an edit
 *                                and another network end a run; and writes
 *                                screenshots/simulate-panel.png.
 */
#include <math.h>

#include "flitlab-simulate-panel.h"
#include "flitlab-option-rows.h"
#include "gui-harness.h"

/* Finding widgets ---------------------------------------------------------------- */

static FlitlabSimulatePanel *
panel_of (FlitlabWindow *window)
{
  GtkWidget *panel = find_widget (GTK_WIDGET (window), FLITLAB_TYPE_SIMULATE_PANEL, NULL);

  return panel != NULL ? FLITLAB_SIMULATE_PANEL (panel) : NULL;
}

static FlitlabSimSettings *
page_of (FlitlabWindow *window)
{
  return flitlab_simulate_panel_get_settings (panel_of (window));
}

static const char *
value (FlitlabWindow *window,
       const char    *key)
{
  const char *text = flitlab_simulate_panel_get_value (panel_of (window), key);

  return text != NULL ? text : "(none)";
}

/* Driving the application ------------------------------------------------------------ */

static void
choose_routing (FlitlabWindow *window,
                const char    *name)
{
  CHECK (flitlab_routing_panel_set_routing (flitlab_window_get_routing_panel (window), name)
           && wait_until (window, is_idle),
         "%s is chosen in the Routing tab and built", name);
}

static GtkWidget *
editor (FlitlabWindow *window,
        const char    *key)
{
  GtkWidget *row = flitlab_sim_settings_get_row (page_of (window), key);

  return row != NULL ? flitlab_option_row_get_editor (row) : NULL;
}

/* Sets a number through its row's spin button. */
static void
set_number (FlitlabWindow *window,
            const char    *key,
            double         number)
{
  GtkWidget *spin = editor (window, key);

  CHECK (spin != NULL && GTK_IS_SPIN_BUTTON (spin), "%s has a spin button", key);
  if (spin != NULL && GTK_IS_SPIN_BUTTON (spin))
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), number);
}

/* Types text into a text row and applies it, as Enter does. */
static void
set_text (FlitlabWindow *window,
          const char    *key,
          const char    *text)
{
  GtkWidget *row = editor (window, key);

  CHECK (row != NULL && ADW_IS_ENTRY_ROW (row), "%s has an entry row", key);
  if (row == NULL || !ADW_IS_ENTRY_ROW (row))
    return;
  gtk_editable_set_text (GTK_EDITABLE (row), text);
  g_signal_emit_by_name (row, "apply");
}

/* Chooses a spelling in a choice row. */
static void
set_choice (FlitlabWindow *window,
            const char    *key,
            const char    *choice)
{
  GtkWidget *row = editor (window, key);
  const FlOptionInfo *info = fl_sim_settings_lookup (key);
  int index = -1;

  for (int i = 0; i < fl_option_choice_count (info); i++)
    if (g_strcmp0 (fl_option_choice (info, i), choice) == 0)
      index = i;
  CHECK (row != NULL && ADW_IS_COMBO_ROW (row) && index >= 0, "%s offers %s", key, choice);
  if (row != NULL && ADW_IS_COMBO_ROW (row) && index >= 0)
    adw_combo_row_set_selected (ADW_COMBO_ROW (row), index);
}

/* The document's setting of key, as text. */
static char *
setting (FlitlabDocument *document,
         const char      *key)
{
  char buf[256];

  fl_sim_settings_format (flitlab_document_get_sim_settings (document), key, buf, sizeof buf);
  return g_strdup (buf);
}

#define CHECK_SETTING(document, key, want)                                               \
  do                                                                                      \
    {                                                                                     \
      g_autofree char *got_ = setting (document, key);                                   \
      CHECK (g_strcmp0 (got_, want) == 0, "the network's %s is %s (want %s)", key, got_, \
             want);                                                                       \
    }                                                                                     \
  while (0)

static gboolean
run_ended (FlitlabWindow *window)
{
  return !flitlab_simulate_panel_get_running (panel_of (window));
}

/* Clicks Run and waits for the run to end. */
static void
click_run (FlitlabWindow *window,
           const char    *what)
{
  GtkWidget *run = find_button (GTK_WIDGET (panel_of (window)), "_Run");

  CHECK (run != NULL && gtk_widget_is_sensitive (run) && gtk_widget_is_drawable (run),
         "%s: Run is on screen and sensitive", what);
  if (run == NULL)
    return;
  g_signal_emit_by_name (run, "clicked");
  CHECK (flitlab_simulate_panel_get_running (panel_of (window)) && flitlab_window_get_busy (window)
           && !gtk_widget_is_sensitive (run),
         "%s: Run starts a run in a worker", what);
  CHECK (wait_until (window, run_ended) && wait_until (window, is_idle), "%s: the run ends", what);
}

/* The scenario ----------------------------------------------------------------------- */

static void
check_tab (FlitlabWindow *window)
{
  FlitlabSimulatePanel *panel = panel_of (window);
  FlitlabSimSettings *page;
  GtkWindow *help;

  CHECK (panel != NULL, "the window has a simulate panel");
  if (panel == NULL)
    exit (tap_done ());
  CHECK (press_shortcut (window, "<Alt>3"), "Alt+3 is one of the window's shortcuts");
  CHECK (g_strcmp0 (side_page (window), "simulate") == 0, "Alt+3 shows the Simulate tab (%s)",
         side_page (window));
  CHECK (gtk_widget_is_drawable (GTK_WIDGET (panel)), "the panel is on screen");
  CHECK (press_shortcut (window, "<Alt>2") && g_strcmp0 (side_page (window), "routing") == 0,
         "Alt+2 still shows the Routing tab");
  press_shortcut (window, "<Alt>3");

  /* Every key of the engine's table, and nothing written by hand. */
  page = flitlab_simulate_panel_get_settings (panel);
  CHECK_INT (flitlab_sim_settings_get_n_rows (page), fl_sim_settings_key_count ());
  for (int i = 0; i < fl_sim_settings_key_count (); i++)
    {
      GtkWidget *row = flitlab_sim_settings_get_row (page, fl_sim_settings_key (i)->name);

      CHECK (row != NULL && gtk_widget_is_ancestor (row, GTK_WIDGET (panel)),
             "the tab has a row for %s", fl_sim_settings_key (i)->name);
    }

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  help = GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  CHECK (help != NULL && find_label (GTK_WIDGET (help), "Show the simulation panel") != NULL,
         "the shortcuts window lists Alt+3");
  if (help != NULL)
    gtk_window_close (help);
}

/* shortest on a ring, one VC, a high rate: packets chase each other round. */
static void
check_deadlock (FlitlabWindow *window)
{
  FlitlabDocument *ring;

  show_generated (window, "ring:8");
  choose_routing (window, "shortest");
  ring = DOC (window);
  CHECK (strstr (value (window, "routing"), "shortest") != NULL
           && strstr (value (window, "routing"), "Routing tab") != NULL,
         "the panel names the routing of the Routing tab: %s", value (window, "routing"));
  CHECK (shows_label (GTK_WIDGET (window), value (window, "routing")), "the sentence is on screen");

  set_number (window, "vcs", 1);
  set_number (window, "rate", 0.9);
  set_text (window, "packet", "8");
  CHECK_SETTING (ring, "vcs", "1");
  CHECK_SETTING (ring, "rate", "0.9");
  CHECK_SETTING (ring, "packet", "8");
  click_run (window, "ring:8");
  CHECK (g_ascii_strcasecmp (value (window, "status"), "deadlock") == 0, "the status is %s",
         value (window, "status"));
  CHECK (shows_label (GTK_WIDGET (window), value (window, "status")), "the status is on screen");
  CHECK (strstr (value (window, "cycle"), "→") != NULL && strstr (value (window, "cycle"), "channels") != NULL,
         "the cycle's channels are named: %s", value (window, "cycle"));
  CHECK (shows_label (GTK_WIDGET (window), value (window, "cycle")), "the cycle sentence is on screen");
  CHECK (g_strcmp0 (value (window, "message"), "") == 0, "no message");
}

/* The latency fl_sim_run gives for spec routed by routing under settings. */
static double
engine_latency (const char          *spec,
                const char          *routing,
                const FlSimSettings *settings)
{
  FlTopology *t = NULL;
  FlRouting *r = NULL;
  FlRoutingOptions opt;
  FlSim *sim = NULL;
  FlSimResult res = { 0 };
  FlSimConfig cfg = settings->config;
  double latency = NAN;

  fl_routing_options_init (&opt);
  if (fl_topology_from_spec (spec, &t, NULL) == FL_OK && fl_routing_new (t, routing, &opt, &r, NULL) == FL_OK)
    {
      cfg.routing = r;
      if (fl_sim_new (t, &cfg, &sim, NULL) == FL_OK && fl_sim_run (sim, &res, NULL, NULL, NULL) == FL_OK
          && res.status == FL_SIM_OK)
        latency = res.latency_avg;
    }
  fl_sim_result_clear (&res);
  fl_sim_free (sim);
  fl_routing_free (r);
  fl_routing_options_clear (&opt);
  fl_topology_free (t);
  return latency;
}

static gboolean
is_routed (FlitlabWindow *window)
{
  return flitlab_document_get_routed (DOC (window)) != NULL && !flitlab_window_get_busy (window);
}

static void
check_mesh (FlitlabWindow *window)
{
  FlitlabDocument *mesh;
  double want;
  g_autofree char *want_text = NULL;

  show_generated (window, "mesh:4x4");
  mesh = DOC (window);
  /* The ring's settings stay the ring's. */
  CHECK_SETTING (mesh, "vcs", "2");
  CHECK_SETTING (mesh, "rate", "0.1");
  CHECK (fabs (flitlab_sim_settings_get_config (page_of (window))->traffic.rate - 0.1) < 1e-12
           && flitlab_sim_settings_get_config (page_of (window))->vcs == 2,
         "the rows show the new network's own settings");
  /* While dor is being built, the routing the mesh holds is updown's. */
  CHECK (flitlab_routing_panel_set_routing (flitlab_window_get_routing_panel (window), "dor"),
         "dor is chosen in the Routing tab");
  CHECK (strstr (value (window, "why"), "dor") != NULL && strstr (value (window, "why"), "being built") != NULL
           && !flitlab_simulate_panel_run (panel_of (window)),
         "Run waits for dor to be built: %s", value (window, "why"));
  CHECK (wait_until (window, is_idle), "dor is built");
  CHECK (strstr (value (window, "routing"), "dor") != NULL && g_strcmp0 (value (window, "why"), "") == 0,
         "the panel says dor: %s", value (window, "routing"));
  set_number (window, "rate", 0.2);
  set_text (window, "packet", "4");
  click_run (window, "mesh:4x4");
  CHECK (g_ascii_strcasecmp (value (window, "status"), "ok") == 0, "the status is %s",
         value (window, "status"));
  want = engine_latency ("mesh:4x4", "dor", flitlab_document_get_sim_settings (mesh));
  want_text = g_strdup_printf ("%.2f", want);
  CHECK (isfinite (want) && fabs (g_ascii_strtod (value (window, "latency"), NULL) - want) < 0.01,
         "the latency shown, %s, is fl_sim_run's %s", value (window, "latency"), want_text);
  CHECK (shows_label (GTK_WIDGET (window), value (window, "latency")), "the latency is on screen");
  for (guint i = 0; i < 9; i++)
    {
      const char *keys[] = { "latency-p99", "network-latency", "throughput", "throughput-min", "offered",
                             "hops", "packets", "cycles", "wall-time" };

      CHECK (value (window, keys[i])[0] != '\0', "%s is shown: %s", keys[i], value (window, keys[i]));
    }
  CHECK (g_ascii_strtod (value (window, "throughput"), NULL) > 0.15, "the mesh accepts what it is offered (%s)",
         value (window, "throughput"));

  /* The Run group's choice of measurement reaches the run. */
  set_choice (window, "measure-rule", "booksim");
  CHECK_SETTING (mesh, "measure-rule", "booksim");
  click_run (window, "mesh:4x4, BookSim's measurement");
  want = engine_latency ("mesh:4x4", "dor", flitlab_document_get_sim_settings (mesh));
  CHECK (isfinite (want) && fabs (g_ascii_strtod (value (window, "latency"), NULL) - want) < 0.01,
         "measured as BookSim: the latency shown, %s, is fl_sim_run's %.2f", value (window, "latency"), want);
  set_choice (window, "measure-rule", "created");
  CHECK_SETTING (mesh, "measure-rule", "created");

  /* The Run group's threads reach the run, whose figures do not depend on
   * them. */
  set_number (window, "threads", 2);
  CHECK_SETTING (mesh, "threads", "2");
  click_run (window, "mesh:4x4 on two threads");
  CHECK (g_strcmp0 (value (window, "latency"), want_text) == 0,
         "on two threads the latency shown is one thread's: %s, %s", value (window, "latency"), want_text);
  set_number (window, "threads", 1);
  CHECK_SETTING (mesh, "threads", "1");
}

/* Settings the engine refuses together: a message, never a crash. */
static void
check_refused (FlitlabWindow *window)
{
  FlitlabDocument *mesh = DOC (window);

  set_choice (window, "switching", "vct");
  set_text (window, "packet", "16");
  set_number (window, "buf", 8);
  CHECK_SETTING (mesh, "switching", "vct");
  CHECK_SETTING (mesh, "buf", "8");
  click_run (window, "vct with 8-flit buffers");
  CHECK (strstr (value (window, "message"), "buf") != NULL || strstr (value (window, "message"), "buffer") != NULL,
         "the engine's refusal is shown: %s", value (window, "message"));
  CHECK (shows_label (GTK_WIDGET (window), value (window, "message")), "the refusal is on screen");
  CHECK (g_strcmp0 (value (window, "status"), "") == 0, "no status for a refused run");
  click_run (window, "the same again");
  CHECK (strstr (value (window, "message"), "buf") != NULL || strstr (value (window, "message"), "buffer") != NULL,
         "refused again, the window still works");
  set_number (window, "buf", 16);
  click_run (window, "vct with 16-flit buffers");
  CHECK (g_ascii_strcasecmp (value (window, "status"), "ok") == 0 && g_strcmp0 (value (window, "message"), "") == 0,
         "with room for a packet it runs: %s", value (window, "status"));
}

static void
check_deflection (FlitlabWindow *window)
{
  set_choice (window, "mode", "deflection");
  CHECK (!gtk_widget_get_visible (flitlab_sim_settings_get_row (page_of (window), "vcs"))
           && gtk_widget_get_visible (flitlab_sim_settings_get_row (page_of (window), "nmsg")),
         "the deflection model shows its own rows");
  set_number (window, "cycles", 200);
  click_run (window, "deflection");
  CHECK (g_ascii_strtod (value (window, "deflect-throughput"), NULL) > 0
           && value (window, "delay-avg")[0] != '\0' && value (window, "delay-max")[0] != '\0'
           && value (window, "deflections")[0] != '\0',
         "deflection: throughput %s, delay %s / %s, %s deflections", value (window, "deflect-throughput"),
         value (window, "delay-avg"), value (window, "delay-max"), value (window, "deflections"));
  CHECK_SETTING (DOC (window), "cycles", "200");
  CHECK (g_strcmp0 (value (window, "status"), "") == 0, "no flit-level status for deflection");
  set_choice (window, "mode", "flit");
}

/* Bursts select on/off injection when they are set: injection set back to
 * bernoulli afterwards is written although it is the default, or reading
 * the state back would give on/off. */
static void
check_implied_settings (void)
{
  g_autoptr(FlitlabDocument) saved = flitlab_document_new (NULL);
  g_autoptr(FlitlabDocument) loaded = flitlab_document_new (NULL);
  g_autoptr(GHashTable) state = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  FlSimSettings settings;

  fl_sim_settings_init (&settings);
  CHECK (fl_sim_settings_set (&settings, "burst", "20:30", NULL) == FL_OK
           && settings.config.traffic.process == FL_INJECT_ONOFF
           && fl_sim_settings_set (&settings, "injection", "bernoulli", NULL) == FL_OK,
         "bursts select on/off injection, set back to bernoulli");
  flitlab_document_set_sim_settings (saved, &settings);
  fl_sim_settings_clear (&settings);
  flitlab_document_save_routing_state (saved, state);
  CHECK (g_strcmp0 (g_hash_table_lookup (state, "sim.burst"), "20:30") == 0
           && g_strcmp0 (g_hash_table_lookup (state, "sim.injection"), "bernoulli") == 0,
         "the injection is written after the bursts");
  flitlab_document_load_routing_state (loaded, state);
  CHECK_SETTING (loaded, "burst", "20:30");
  CHECK_SETTING (loaded, "injection", "bernoulli");
}

/* The settings are the network's, saved with its routing state. */
static void
check_per_network (FlitlabWindow *window)
{
  g_autoptr(GHashTable) state = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(FlitlabDocument) copy = flitlab_document_new (NULL);
  FlitlabDocument *ring;
  gboolean listed = FALSE;

  CHECK (flitlab_window_show_topology (window, "ring:8", NULL) && wait_until (window, is_idle),
         "the ring shows again");
  ring = DOC (window);
  CHECK_SETTING (ring, "vcs", "1");
  CHECK_SETTING (ring, "rate", "0.9");
  CHECK_SETTING (ring, "switching", "wormhole");
  CHECK (flitlab_sim_settings_get_config (page_of (window))->vcs == 1
           && fabs (flitlab_sim_settings_get_config (page_of (window))->traffic.rate - 0.9) < 1e-12
           && flitlab_sim_settings_get_config (page_of (window))->switching == FL_SWITCHING_WORMHOLE,
         "the rows show the ring's settings, not the mesh's");
  CHECK (g_strcmp0 (value (window, "status"), "") == 0, "another network's results are gone");

  flitlab_document_save_routing_state (ring, state);
  CHECK (g_strcmp0 (g_hash_table_lookup (state, "sim.vcs"), "1") == 0
           && g_strcmp0 (g_hash_table_lookup (state, "sim.rate"), "0.9") == 0
           && g_strcmp0 (g_hash_table_lookup (state, "sim.packet"), "8") == 0
           && !g_hash_table_contains (state, "sim.buf"),
         "the routing state holds the settings changed, as text (%u keys)", g_hash_table_size (state));
  for (const char * const *k = flitlab_document_routing_state_keys (); *k != NULL; k++)
    listed |= g_str_equal (*k, "sim.link-cycles-per-flit");
  CHECK (listed, "every key of the table is a routing state key");
  flitlab_document_load_routing_state (copy, state);
  CHECK_SETTING (copy, "vcs", "1");
  CHECK_SETTING (copy, "rate", "0.9");
  CHECK_SETTING (copy, "packet", "8");
  CHECK_SETTING (copy, "buf", "8");
  check_implied_settings ();
}

static gboolean
page_shows (FlitlabWindow *window)
{
  return gtk_widget_is_drawable (GTK_WIDGET (panel_of (window)));
}

/* A long run, and what ends it. */
static void
start_long_run (FlitlabWindow *window,
                const char    *what)
{
  GtkWidget *run = find_button (GTK_WIDGET (panel_of (window)), "_Run");

  set_number (window, "measure", 1e9);
  if (run != NULL)
    g_signal_emit_by_name (run, "clicked");
  CHECK (flitlab_simulate_panel_get_running (panel_of (window)), "%s: a long run is under way", what);
}

/* up* / down* on the mesh: deadlock-free however the network is edited,
 * so that only what the test does ends a long run. */
static void
check_supersede (FlitlabWindow *window)
{
  GtkWidget *stop = find_button (GTK_WIDGET (window), "process-stop-symbolic");
  FlitlabDocument *mesh;

  CHECK (flitlab_window_show_topology (window, "mesh:4x4", NULL) && wait_until (window, is_idle), "the mesh shows");
  mesh = DOC (window);
  choose_routing (window, "updown");
  start_long_run (window, "stop");
  CHECK (stop != NULL && gtk_widget_get_visible (stop), "the header's Stop shows");
  if (stop != NULL)
    g_signal_emit_by_name (stop, "clicked");
  CHECK (wait_until (window, run_ended) && wait_until (window, is_idle), "the header's Stop ends the run");
  CHECK (strstr (value (window, "message"), "stopped") != NULL, "the panel says it was stopped: %s",
         value (window, "message"));

  start_long_run (window, "edit");
  flitlab_document_select (mesh, -1, first_switch_link (flitlab_document_get_topology (mesh)));
  flitlab_document_delete_selection (mesh);
  CHECK (!flitlab_simulate_panel_get_running (panel_of (window)), "an edit of the network ends the run");
  CHECK (g_strcmp0 (value (window, "message"), "") == 0 && g_strcmp0 (value (window, "status"), "") == 0,
         "and shows nothing of it");
  CHECK (g_strcmp0 (value (window, "why"), "") != 0, "Run waits for the routing of the edited mesh: %s",
         value (window, "why"));
  CHECK (wait_until (window, is_routed), "the edited mesh is routed again");
  CHECK (g_strcmp0 (value (window, "why"), "") == 0, "and Run can go");
  flitlab_document_undo (mesh);
  CHECK (wait_until (window, is_routed), "the mesh is back and routed");

  start_long_run (window, "another network");
  CHECK (flitlab_window_show_topology (window, "ring:8", NULL), "the ring shows");
  CHECK (!flitlab_simulate_panel_get_running (panel_of (window)), "another network ends the run");
  CHECK (wait_until (window, is_idle), "nothing runs");
  CHECK (flitlab_window_show_topology (window, "mesh:4x4", NULL) && wait_until (window, is_idle), "back to the mesh");
  set_number (window, "measure", 10000);

  /* A routing refused in the Routing tab: Run cannot go, and says why. */
  choose_routing (window, "xmesh");
  CHECK (strstr (value (window, "why"), "xmesh") != NULL, "Run says why it cannot go: %s", value (window, "why"));
  CHECK (shows_label (GTK_WIDGET (window), value (window, "why")), "the reason is on screen");
  CHECK (!flitlab_simulate_panel_run (panel_of (window))
           && !gtk_widget_is_sensitive (find_button (GTK_WIDGET (panel_of (window)), "_Run")),
         "Run is insensitive");
  choose_routing (window, "dor");
}

/* The picture: mesh:4x4's results with the panel given the pane's height,
 * as a user would drag the divider above the selection down. */
static void
take_screenshot (FlitlabWindow *window)
{
  g_autofree char *path = screenshot_path ("simulate-panel.png");
  GtkWidget *paned = gtk_widget_get_ancestor (GTK_WIDGET (panel_of (window)), GTK_TYPE_PANED);
  int position = paned != NULL ? gtk_paned_get_position (GTK_PANED (paned)) : 0;

  set_choice (window, "switching", "wormhole");
  set_number (window, "buf", 8);
  click_run (window, "the picture's run");
  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page", g_variant_new_string ("simulate"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  if (paned != NULL)
    gtk_paned_set_position (GTK_PANED (paned), gtk_widget_get_height (paned));
  CHECK (wait_until (window, page_shows), "the tab shows");
  CHECK (save_screenshot (GTK_WIDGET (window), path), "the window renders to %s", path);
  if (paned != NULL)
    gtk_paned_set_position (GTK_PANED (paned), position);
}

static void
run_simulate (FlitlabWindow *window)
{
  check_tab (window);
  check_deadlock (window);
  check_mesh (window);
  check_refused (window);
  check_deflection (window);
  check_per_network (window);
  check_supersede (window);
  take_screenshot (window);
  save_and_forget (window);
}

int
main (int   argc,
      char *argv[])
{
  harness_run_app (run_simulate, NULL);
  return tap_done ();
}
