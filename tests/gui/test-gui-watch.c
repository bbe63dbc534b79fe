/* test-gui-watch.c — watching a simulation in the window, as a teacher
 * would in class.
 *
 * Scenarios (one per process, under Xvfb):
 *   watch     the classroom project's 8x8 mesh: play from the transport
 *             bar, let it run, pause, step back 100 cycles; the engine's
 *             state (every flit's place) equals a fresh run to that cycle;
 *             the keys Space, '.' and ',' drive the bar; writes
 *             screenshots/simulation.png
 *   deadlock  the "deadlock on a ring" preset: play reaches the deadlock
 *             within seconds, the bar names the turns closing the cycle;
 *             writes screenshots/deadlock.png
 *   presets   every preset starts and steps without an error
 *   deflection  paper 003's XMESH in the deflection model: play, pause,
 *             step back 10 cycles; every message is where a fresh model
 *             stepped to that cycle puts it; a click inspects a message;
 *             the plots draw; 5 cycles export as a GIF
 */
#include <gif_lib.h>
#include <limits.h>

#include "flitlab-canvas.h"
#include "flitlab-routing-panel.h"
#include "flitlab-sim-inspector.h"
#include "flitlab-transport-bar.h"
#include "gui-harness.h"

/* FNV-1a over every flit's place, the cycle and the packets made. */
typedef struct
{
  guint64 hash;
  gint64 flits;
} Checksum;

static void
mix (Checksum *c,
     gint64    v)
{
  for (int i = 0; i < 8; i++)
    {
      c->hash ^= (guint64) (v >> (8 * i)) & 0xff;
      c->hash *= 1099511628211ULL;
    }
}

static void
mix_flit (void             *user_data,
          const FlFlitView *f)
{
  Checksum *c = user_data;

  mix (c, f->packet);
  mix (c, f->index);
  mix (c, f->place);
  mix (c, f->channel);
  mix (c, f->vc);
  mix (c, f->position);
  mix (c, f->stall);
  c->flits++;
}

static Checksum
checksum (const FlSim *sim)
{
  Checksum c = { 14695981039346656037ULL, 0 };

  mix (&c, fl_sim_cycle (sim));
  fl_sim_foreach_flit (sim, INT_MAX, mix_flit, &c);
  return c;
}

static gboolean
has_session (FlitlabWindow *window)
{
  return session_of (window) != NULL;
}

static gint64 wanted_cycle;

static gboolean
reached_wanted_cycle (FlitlabWindow *window)
{
  return session_of (window) != NULL && flitlab_sim_session_get_cycle (session_of (window)) >= wanted_cycle;
}

static void
show_simulate_tab (FlitlabWindow *window)
{
  g_action_group_activate_action (G_ACTION_GROUP (window), "side-page", g_variant_new_string ("simulate"));
  CHECK (gtk_widget_get_child_visible (gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (bar_of (window)))))
           || gtk_revealer_get_reveal_child (GTK_REVEALER (gtk_widget_get_ancestor (GTK_WIDGET (bar_of (window)),
                                                                                     GTK_TYPE_REVEALER))),
         "the transport bar shows with the Simulate tab");
}

/* Presses key on the canvas, as typed with the canvas focused. */
static void
press (FlitlabWindow *window,
       guint          key)
{
  GtkWidget *canvas = GTK_WIDGET (flitlab_window_get_canvas (window));
  gboolean handled = FALSE;

  /* The keys live on the canvas column; run its shortcuts as a key press
   * would. */
  for (GtkWidget *w = canvas; w != NULL && !handled; w = gtk_widget_get_parent (w))
    {
      g_autoptr(GListModel) list = gtk_widget_observe_controllers (w);

      for (guint i = 0; i < g_list_model_get_n_items (list) && !handled; i++)
        {
          g_autoptr(GObject) controller = g_list_model_get_item (list, i);

          if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
            continue;
          for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)) && !handled; j++)
            {
              g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
              GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

              if (GTK_IS_KEYVAL_TRIGGER (trigger)
                  && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == key)
                handled = gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, w,
                                                        gtk_shortcut_get_arguments (shortcut));
            }
        }
    }
  CHECK (handled, "the key %s is handled", gdk_keyval_name (key));
}

/* A head that waits (stall other than none), or failing that any head
 * in a buffer or on a link. */
typedef struct
{
  FlFlitView blocked, any;
  gboolean have_blocked, have_any;
} HeadSearch;

static void
find_head (void             *user_data,
           const FlFlitView *f)
{
  HeadSearch *search = user_data;

  if (f->index != 0 || f->place == FL_FLIT_SOURCE_QUEUE)
    return;
  if (!search->have_any)
    {
      search->any = *f;
      search->have_any = TRUE;
    }
  if (!search->have_blocked && f->stall != FL_STALL_NONE && f->place == FL_FLIT_BUFFER)
    {
      search->blocked = *f;
      search->have_blocked = TRUE;
    }
}

static FlitlabSimInspector *
inspector_of (FlitlabWindow *window)
{
  return FLITLAB_SIM_INSPECTOR (find_widget (GTK_WIDGET (window), FLITLAB_TYPE_SIM_INSPECTOR, NULL));
}

/* Clicks the flit f where the canvas draws it. */
static void
click_flit (FlitlabWindow    *window,
            const FlFlitView *f)
{
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  FlitlabSimSession *session = session_of (window);
  FlDrawFlits draw;
  FlDrawView view;
  double x = 0, y = 0;
  int drawn;

  fl_draw_flits_init (&draw);
  draw.sim = flitlab_sim_session_get_sim (session);
  flitlab_canvas_get_view (canvas, &view);
  drawn = fl_draw_flit_position (flitlab_document_get_topology (DOC (window)), &view, &draw, f, &x, &y);
  CHECK (drawn, "packet %" G_GINT64_FORMAT "'s head is drawn at (%.0f, %.0f)", f->packet, x, y);
  pointer_click (canvas_drag_gesture (canvas), x, y);
}

/* Clicking a packet, then a switch, shows what they hold. */
static void
check_inspector (FlitlabWindow *window)
{
  FlitlabSimInspector *inspector = inspector_of (window);
  HeadSearch search = { 0 };
  g_autofree char *packet = NULL;
  g_autofree char *text = NULL;
  g_autofree char *sw = NULL;

  CHECK (inspector != NULL && gtk_widget_is_drawable (GTK_WIDGET (inspector)), "the inspector shows");
  fl_sim_foreach_flit (flitlab_sim_session_get_sim (session_of (window)), 0, find_head, &search);
  CHECK (search.have_any, "some packet has left its host");
  if (!search.have_any)
    return;
  click_flit (window, search.have_blocked ? &search.blocked : &search.any);
  CHECK_INT (flitlab_sim_inspector_get_packet (inspector), search.have_blocked ? search.blocked.packet
                                                                                : search.any.packet);
  text = flitlab_sim_inspector_describe (inspector);
  packet = g_strdup_printf ("Packet %" G_GINT64_FORMAT, flitlab_sim_inspector_get_packet (inspector));
  {
    g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

    for (int i = 0; lines[i] != NULL; i++)
      printf ("# %s\n", lines[i]);
  }
  CHECK (g_str_has_prefix (text, packet) && strstr (text, "Age: ") != NULL && strstr (text, "Head: ") != NULL
           && strstr (text, "Waits ") != NULL,
         "the inspector tells the clicked packet's age, head and what it waits for");
  if (search.have_blocked)
    CHECK (strstr (text, "Waits for: ") != NULL && strstr (text, "nothing") == NULL,
           "a blocked head says what holds it");

  /* A switch: every input's VCs. */
  flitlab_document_select (DOC (window), fl_topology_switch_node (flitlab_document_get_topology (DOC (window)), 27),
                           -1);
  g_free (text);
  text = flitlab_sim_inspector_describe (inspector);
  sw = g_strdup_printf ("Switch %d", 27);
  CHECK (g_str_has_prefix (text, sw) && strstr (text, "Input from switch") != NULL && strstr (text, "VC 1:") != NULL,
         "a switch shows each input's VCs");
  CHECK_INT (flitlab_sim_inspector_get_packet (inspector), -1);
  click_flit (window, search.have_blocked ? &search.blocked : &search.any);
}

static int
gif_frames (const char *path)
{
  int error = 0, frames = -1;
  GifFileType *gif = DGifOpenFileName (path, &error);

  if (gif != NULL && DGifSlurp (gif) == GIF_OK)
    frames = gif->ImageCount;
  if (gif != NULL)
    DGifCloseFile (gif, &error);
  return frames;
}

/* The frame as a picture, and 21 cycles as a GIF and a PNG sequence. */
static void
check_export (FlitlabWindow *window,
              gint64         cycle)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flitlab-export-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "frame.png", NULL);
  g_autofree char *gif = g_build_filename (dir, "worms.gif", NULL);
  g_autofree char *frames = g_build_filename (dir, "frames", NULL);
  g_autofree char *fifth = g_build_filename (frames, "frame-00005.png", NULL);
  g_autofree char *sixth = g_build_filename (frames, "frame-00006.png", NULL);

  CHECK (flitlab_canvas_export (flitlab_window_get_canvas (window), png, &error)
           && g_file_test (png, G_FILE_TEST_IS_REGULAR),
         "the frame exports as a picture: %s", error != NULL ? error->message : "ok");
  CHECK (flitlab_window_export_animation (window, gif, cycle - 20, cycle, 1, FALSE, &error)
           && wait_until (window, is_idle),
         "cycles %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT " export as a GIF", cycle - 20, cycle);
  CHECK_INT (gif_frames (gif), 21);
  g_mkdir (frames, 0755);
  CHECK (flitlab_window_export_animation (window, frames, cycle - 8, cycle, 2, TRUE, &error)
           && wait_until (window, is_idle),
         "every 2nd cycle exports as a PNG sequence");
  CHECK (g_file_test (fifth, G_FILE_TEST_IS_REGULAR) && !g_file_test (sixth, G_FILE_TEST_EXISTS),
         "the sequence has its 5 frames");
  CHECK (!flitlab_window_export_animation (window, gif, cycle, cycle - 1, 1, FALSE, &error),
         "a range running backwards is refused: %s", error != NULL ? error->message : "?");
  CHECK_INT (flitlab_sim_session_get_cycle (session_of (window)), cycle);
  g_unlink (fifth);
  for (int i = 1; i <= 4; i++)
    {
      g_autofree char *name = g_strdup_printf ("frame-%05d.png", i);
      g_autofree char *file = g_build_filename (frames, name, NULL);

      g_unlink (file);
    }
  g_rmdir (frames);
  g_unlink (png);
  g_unlink (gif);
  g_rmdir (dir);
}

/* As a teacher would set it for the class: worms of 8 flits at a load that
 * makes them meet. */
static void
set_worms (FlitlabWindow *window)
{
  FlSimSettings settings;
  FlError err = { 0 };

  CHECK (fl_sim_settings_copy (&settings, flitlab_document_get_sim_settings (DOC (window)), &err) == FL_OK
           && fl_sim_settings_set (&settings, "packet", "8", &err) == FL_OK
           && fl_sim_settings_set (&settings, "rate", "0.3", &err) == FL_OK,
         "8-flit packets at 0.3: %s", err.message);
  flitlab_document_set_sim_settings (DOC (window), &settings);
  fl_sim_settings_clear (&settings);
}

static void
apply_preset (FlitlabWindow *window,
              const char    *name)
{
  g_autoptr(GError) error = NULL;

  CHECK (flitlab_window_apply_preset (window, name, &error) && wait_until (window, is_idle),
         "the preset %s is set up: %s", name, error != NULL ? error->message : "ok");
}

static void
run_watch (FlitlabWindow *window)
{
  g_autofree char *classroom = g_build_filename (g_getenv ("FLITLAB_SOURCE_DIR"), "data", "examples",
                                                 "classroom.flitlab", NULL);
  g_autoptr(GError) error = NULL;
  FlitlabTransportBar *bar = bar_of (window);
  FlitlabSimSession *session;
  const FlSim *sim;
  FlSim *fresh = NULL;
  FlError err;
  Checksum seen, expected;
  gint64 paused, back;

  CHECK (flitlab_window_open_path (window, classroom, &error), "the classroom project opens: %s",
         error != NULL ? error->message : "ok");
  CHECK (flitlab_window_show_topology (window, "8x8 mesh", NULL) && wait_until (window, is_idle),
         "the 8x8 mesh shows");
  CHECK (flitlab_routing_panel_set_routing (flitlab_window_get_routing_panel (window), "dor")
           && wait_until (window, is_idle),
         "DOR is chosen and built");
  show_simulate_tab (window);
  CHECK (bar != NULL, "the window has a transport bar");
  set_worms (window);

  /* Play, let it run a few hundred cycles as fast as it goes, pause. */
  flitlab_transport_bar_set_speed (bar, 0);
  flitlab_transport_bar_play_pause (bar);
  CHECK (has_session (window) && flitlab_sim_session_get_playing (session_of (window)),
         "Play starts a simulation, playing: %s", flitlab_transport_bar_get_message (bar));
  session = session_of (window);
  wanted_cycle = 400;
  CHECK (wait_until (window, reached_wanted_cycle), "it runs to cycle 400 and beyond");
  CHECK (flitlab_canvas_get_show_simulation (flitlab_window_get_canvas (window)), "the canvas draws it");
  press (window, GDK_KEY_space);
  CHECK (!flitlab_sim_session_get_playing (session), "Space pauses");
  paused = flitlab_sim_session_get_cycle (session);
  press (window, GDK_KEY_period);
  CHECK_INT (flitlab_sim_session_get_cycle (session), paused + 1);
  press (window, GDK_KEY_comma);
  CHECK_INT (flitlab_sim_session_get_cycle (session), paused);

  /* Back 100 cycles: the state is a fresh run's at that cycle. */
  flitlab_transport_bar_step (bar, -100);
  back = flitlab_sim_session_get_cycle (session);
  CHECK_INT (back, paused - 100);
  sim = flitlab_sim_session_get_sim (session);
  CHECK (fl_sim_new (flitlab_sim_session_get_topology (session), fl_sim_config (sim), &fresh, &err) == FL_OK
           && fl_sim_step (fresh, back, NULL, &err) == FL_OK,
         "a fresh simulation runs to cycle %" G_GINT64_FORMAT, back);
  seen = checksum (sim);
  expected = checksum (fresh);
  CHECK (seen.flits > 0, "there are flits in the network (%" G_GINT64_FORMAT ")", seen.flits);
  CHECK (seen.hash == expected.hash && seen.flits == expected.flits,
         "every flit's place after stepping back equals the fresh run's (%" G_GINT64_FORMAT " flits)",
         expected.flits);
  fl_sim_free (fresh);

  check_inspector (window);
  /* Rendering the window draws the live plots. */
  CHECK (renders (GTK_WIDGET (window)), "the window renders");
  CHECK (flitlab_sim_inspector_get_plot_points (inspector_of (window)) >= 3,
         "the live plots have drawn the samples so far (%d)",
         flitlab_sim_inspector_get_plot_points (inspector_of (window)));
  g_object_set (flitlab_window_get_canvas (window), "heat-map", TRUE, NULL);
  CHECK (renders (GTK_WIDGET (flitlab_window_get_canvas (window))), "the heat map draws");
  g_object_set (flitlab_window_get_canvas (window), "heat-map", FALSE, NULL);

  /* The picture from a run of its own, stepped to cycle 300: the plots'
   * history and the packet inspected must not depend on where Space
   * paused the run above. */
  apply_preset (window, "mesh-dor-uniform");
  flitlab_transport_bar_step (bar, 300);
  CHECK (session_of (window) != NULL && flitlab_sim_session_get_cycle (session_of (window)) == 300,
         "the preset's run steps to cycle 300");
  if (session_of (window) != NULL)
    {
      check_inspector (window);
      harness_screenshot (window, "simulation.png");
      check_export (window, 300);
    }
  save_and_forget (window);
}

static gboolean
deadlocked (FlitlabWindow *window)
{
  return session_of (window) != NULL && flitlab_sim_session_get_status (session_of (window)) == FL_SIM_DEADLOCK;
}

/* Strong red pixels of the canvas: the waiting cycle is drawn in bold red
 * along the ring's channels, far more of them than the blocked heads'
 * rings alone make. */
static int
red_pixels (FlitlabWindow *window)
{
  g_autofree char *dir = g_dir_make_tmp ("flitlab-cycle-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "canvas.png", NULL);
  cairo_surface_t *image;
  int red = 0;

  if (!save_screenshot (GTK_WIDGET (flitlab_window_get_canvas (window)), path))
    return -1;
  image = cairo_image_surface_create_from_png (path);
  for (int y = 0; y < cairo_image_surface_get_height (image); y++)
    {
      const guint32 *row = (const guint32 *) (cairo_image_surface_get_data (image)
                                              + y * cairo_image_surface_get_stride (image));

      for (int x = 0; x < cairo_image_surface_get_width (image); x++)
        red += ((row[x] >> 16) & 0xff) > 180 && ((row[x] >> 8) & 0xff) < 80 && (row[x] & 0xff) < 80;
    }
  cairo_surface_destroy (image);
  g_unlink (path);
  g_rmdir (dir);
  return red;
}

static void
check_cycle_drawn (FlitlabWindow *window)
{
  FlitlabSimSession *session = session_of (window);
  int at_deadlock = red_pixels (window), before;
  g_autoptr(GError) error = NULL;

  /* One cycle earlier the watchdog has not fired: no cycle is drawn. */
  CHECK (flitlab_sim_session_seek (session, flitlab_sim_session_get_cycle (session) - 1, &error),
         "one cycle back");
  before = red_pixels (window);
  CHECK (at_deadlock > 2 * before + 1000, "the waiting cycle is drawn on the network (%d red pixels, %d before)",
         at_deadlock, before);
  CHECK (flitlab_sim_session_step (session, 1, &error)
           && flitlab_sim_session_get_status (session) == FL_SIM_DEADLOCK,
         "stepping on reaches the deadlock again");
}

static void
run_deadlock (FlitlabWindow *window)
{
  FlitlabTransportBar *bar = bar_of (window);
  const char *message;
  gint64 start;

  apply_preset (window, "ring-deadlock");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "ring:8") == 0, "the ring shows: %s",
         flitlab_window_get_topology_name (window));
  CHECK (g_strcmp0 (flitlab_document_get_routing (DOC (window)), "shortest") == 0, "shortest routing is asked for");
  /* Pressed as in class, at the default speed. */
  start = g_get_monotonic_time ();
  flitlab_transport_bar_play_pause (bar);
  CHECK (wait_until (window, deadlocked), "play reaches the deadlock");
  printf ("# deadlock at cycle %" G_GINT64_FORMAT " after %.2f s of playing at the default speed\n",
          session_of (window) ? flitlab_sim_session_get_cycle (session_of (window)) : -1,
          (g_get_monotonic_time () - start) / 1e6);
  CHECK ((g_get_monotonic_time () - start) / G_USEC_PER_SEC < 10, "within seconds of pressing Play");
  CHECK (session_of (window) != NULL && !flitlab_sim_session_get_playing (session_of (window)),
         "playing stops at the deadlock");
  message = flitlab_transport_bar_get_message (bar);
  CHECK (message != NULL && strstr (message, "Deadlock") != NULL && strstr (message, "turns at") != NULL,
         "the bar names the turns closing the cycle: %s", message);
  CHECK (shows_label (GTK_WIDGET (window), message), "the sentence is on screen");
  check_cycle_drawn (window);
  harness_screenshot (window, "deadlock.png");
  save_and_forget (window);
}

static gboolean
ran_a_while (FlitlabWindow *window)
{
  FlitlabSimSession *session = session_of (window);

  return session != NULL
         && (flitlab_sim_session_get_cycle (session) >= 200 || !flitlab_sim_session_get_playing (session));
}

static void
run_presets (FlitlabWindow *window)
{
  FlitlabTransportBar *bar = bar_of (window);

  flitlab_transport_bar_set_speed (bar, 0);
  for (int i = 0; i < fl_sim_preset_count (); i++)
    {
      const FlSimPreset *p = fl_sim_preset (i);

      apply_preset (window, p->name);
      flitlab_transport_bar_play_pause (bar);
      CHECK (session_of (window) != NULL, "%s starts: %s", p->name, flitlab_transport_bar_get_message (bar));
      CHECK (wait_until (window, ran_a_while), "%s runs", p->name);
      if (session_of (window) != NULL)
        {
          flitlab_sim_session_set_playing (session_of (window), FALSE);
          CHECK (flitlab_sim_session_get_cycle (session_of (window)) > 0, "%s has stepped to cycle %" G_GINT64_FORMAT,
                 p->name, flitlab_sim_session_get_cycle (session_of (window)));
        }
      CHECK (g_strcmp0 (flitlab_transport_bar_get_message (bar), p->description) == 0
               || strstr (flitlab_transport_bar_get_message (bar), "Deadlock") != NULL,
             "%s reports no error, and says what to watch for: %s", p->name, flitlab_transport_bar_get_message (bar));
    }
  save_and_forget (window);
}

/* Every message's view, in slot order. */
static void
gather_message (void                *user_data,
                const FlDeflectView *m)
{
  g_array_append_val ((GArray *) user_data, *m);
}

static GArray *
message_views (const FlDeflect *d)
{
  GArray *views = g_array_new (FALSE, TRUE, sizeof (FlDeflectView));

  fl_deflect_foreach (d, gather_message, views);
  return views;
}

static gboolean
same_view (const FlDeflectView *a,
           const FlDeflectView *b)
{
  return a->message == b->message && a->src == b->src && a->dst == b->dst && a->node == b->node
         && a->channel == b->channel && a->deflected == b->deflected && a->deflections == b->deflections
         && a->hops == b->hops && a->created == b->created;
}

/* Clicks a deflected message in transit (or any in transit) where the
 * canvas draws it; the inspector tells its story. */
static void
check_message_inspector (FlitlabWindow *window,
                         GArray        *views)
{
  FlitlabCanvas *canvas = flitlab_window_get_canvas (window);
  const FlDeflectView *pick = NULL;
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  g_auto(GStrv) lines = NULL;
  FlDrawDeflect draw;
  FlDrawView view;
  double x = 0, y = 0;
  gboolean drawn;

  for (guint i = 0; i < views->len; i++)
    {
      const FlDeflectView *m = &g_array_index (views, FlDeflectView, i);

      if (m->channel >= 0 && (pick == NULL || (m->deflected && !pick->deflected)))
        pick = m;
    }
  CHECK (pick != NULL, "some message is in transit");
  if (pick == NULL)
    return;
  fl_draw_deflect_init (&draw);
  draw.deflect = flitlab_sim_session_get_deflect (session_of (window));
  flitlab_canvas_get_view (canvas, &view);
  drawn = fl_draw_deflect_position (flitlab_document_get_topology (DOC (window)), &view, &draw, pick, &x, &y);
  CHECK (drawn, "message %" G_GINT64_FORMAT " is drawn at (%.0f, %.0f)", pick->message, x, y);
  pointer_click (canvas_drag_gesture (canvas), x, y);
  CHECK_INT (flitlab_sim_inspector_get_packet (inspector_of (window)), pick->message);
  text = flitlab_sim_inspector_describe (inspector_of (window));
  title = g_strdup_printf ("Message %" G_GINT64_FORMAT, pick->message);
  lines = g_strsplit (text, "\n", -1);
  for (int i = 0; lines[i] != NULL; i++)
    printf ("# %s\n", lines[i]);
  CHECK (g_str_has_prefix (text, title) && strstr (text, "Age: ") != NULL && strstr (text, "Hops: ") != NULL
           && strstr (text, "Deflections so far: ") != NULL && strstr (text, "Where: at switch") != NULL,
         "the inspector tells the message's age, hops, deflections and where it is");
  if (pick->deflected)
    CHECK (strstr (text, "deflected there") != NULL, "a deflected message says so");
}

/* The frame as a picture, and 5 cycles of the deflection model as a GIF:
 * the session stays where it is. */
static void
check_deflect_export (FlitlabWindow *window,
                      gint64         cycle)
{
  gboolean frame, animation;
  g_autofree char *dir = g_dir_make_tmp ("flitlab-deflect-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *png = g_build_filename (dir, "frame.png", NULL);
  int frames = -1;
  g_autofree char *gif = g_build_filename (dir, "messages.gif", NULL);

  frame = flitlab_canvas_export (flitlab_window_get_canvas (window), png, &error);
  CHECK (frame && g_file_test (png, G_FILE_TEST_IS_REGULAR), "the deflection frame exports as a picture: %s",
         error != NULL ? error->message : "ok");
  animation = flitlab_window_export_animation (window, gif, cycle - 4, cycle, 1, FALSE, &error)
              && wait_until (window, is_idle);
  if (animation)
    frames = gif_frames (gif);
  CHECK (frames == 5, "cycles %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT " export as a GIF of 5 frames (%d)",
         cycle - 4, cycle, frames);
  CHECK_INT (flitlab_sim_session_get_cycle (session_of (window)), cycle);
  g_unlink (png);
  g_unlink (gif);
  g_rmdir (dir);
}

/* The multicast model is not for the Simulate tab: Play says where it is. */
static void
check_multicast_refused (FlitlabWindow *window)
{
  FlitlabTransportBar *bar = bar_of (window);
  FlSimSettings settings;
  FlError err = { 0 };

  CHECK (fl_sim_settings_copy (&settings, flitlab_document_get_sim_settings (DOC (window)), &err) == FL_OK
           && fl_sim_settings_set (&settings, "mode", "multicast", &err) == FL_OK,
         "the multicast model chosen: %s", err.message);
  flitlab_document_set_sim_settings (DOC (window), &settings);
  fl_sim_settings_clear (&settings);
  flitlab_transport_bar_play_pause (bar);
  CHECK (session_of (window) == NULL && strstr (flitlab_transport_bar_get_message (bar), "Collectives") != NULL,
         "Play with the multicast model points to the Collectives tab: %s", flitlab_transport_bar_get_message (bar));
}

static void
run_deflection (FlitlabWindow *window)
{
  FlitlabTransportBar *bar = bar_of (window);
  FlitlabSimSession *session;
  g_autoptr(GArray) seen = NULL;
  g_autoptr(GArray) expected = NULL;
  FlDeflect *fresh = NULL;
  FlError err = { 0 };
  gint64 paused, back;
  guint same = 0;

  apply_preset (window, "paper003-xmesh");
  CHECK (g_strcmp0 (flitlab_window_get_topology_name (window), "xmesh:36x72") == 0, "the XMESH shows: %s",
         flitlab_window_get_topology_name (window));
  flitlab_transport_bar_set_speed (bar, 0);
  flitlab_transport_bar_play_pause (bar);
  session = session_of (window);
  CHECK (session != NULL && flitlab_sim_session_get_deflect (session) != NULL
           && flitlab_sim_session_get_playing (session),
         "Play starts the deflection model: %s", flitlab_transport_bar_get_message (bar));
  if (session == NULL)
    return;
  wanted_cycle = 60;
  CHECK (wait_until (window, reached_wanted_cycle), "it runs to cycle 60 and beyond");
  press (window, GDK_KEY_space);
  CHECK (!flitlab_sim_session_get_playing (session), "Space pauses");
  paused = flitlab_sim_session_get_cycle (session);

  /* Back 10 cycles: every message where a fresh model puts it. */
  flitlab_transport_bar_step (bar, -10);
  back = flitlab_sim_session_get_cycle (session);
  CHECK_INT (back, paused - 10);
  CHECK (fl_deflect_new (flitlab_sim_session_get_topology (session), flitlab_sim_session_get_deflect_config (session),
                         &fresh, &err)
             == FL_OK
           && fl_deflect_step (fresh, back, &err) == FL_OK,
         "a fresh model steps to cycle %" G_GINT64_FORMAT ": %s", back, err.message);
  seen = message_views (flitlab_sim_session_get_deflect (session));
  expected = fresh != NULL ? message_views (fresh) : g_array_new (FALSE, TRUE, sizeof (FlDeflectView));
  for (guint i = 0; i < MIN (seen->len, expected->len); i++)
    same += same_view (&g_array_index (seen, FlDeflectView, i), &g_array_index (expected, FlDeflectView, i));
  CHECK (seen->len == 2592 * 4 && seen->len == expected->len && same == seen->len,
         "every message's view after stepping back equals the fresh model's (%u of %u)", same, expected->len);
  fl_deflect_free (fresh);

  check_message_inspector (window, seen);
  /* The picture from a run of its own, stepped to cycle 60 and back to 50:
   * the plots' history must not depend on where Space paused. */
  apply_preset (window, "paper003-xmesh");
  flitlab_transport_bar_step (bar, 60);
  flitlab_transport_bar_step (bar, -10);
  session = session_of (window);
  back = session != NULL ? flitlab_sim_session_get_cycle (session) : -1;
  CHECK_INT (back, 50);
  if (session != NULL)
    {
      g_autoptr(GArray) at_50 = message_views (flitlab_sim_session_get_deflect (session));

      check_message_inspector (window, at_50);
    }
  harness_screenshot (window, "deflection.png");
  CHECK (flitlab_sim_inspector_get_plot_points (inspector_of (window)) >= 3,
         "the live plots draw the deflection throughput (%d points)",
         flitlab_sim_inspector_get_plot_points (inspector_of (window)));
  check_deflect_export (window, back);
  check_multicast_refused (window);
  save_and_forget (window);
}

int
main (int   argc,
      char *argv[])
{
  static const HarnessScenario scenarios[] = {
    { "watch", run_watch },
    { "deadlock", run_deadlock },
    { "presets", run_presets },
    { "deflection", run_deflection },
  };

  return harness_main (argc, argv, "watch", scenarios, G_N_ELEMENTS (scenarios));
}
