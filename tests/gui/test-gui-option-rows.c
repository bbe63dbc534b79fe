/* test-gui-option-rows.c — the settings rows generated from the engine's
 * tables: the simulation settings page has one row per key, in one group
 * per table group; a value set through a row reaches the FlSimSettings
 * (and rows that depend on it show the change); a value the engine refuses
 * puts the row in the error state with the engine's message and changes
 * nothing; routing option rows edit FlRoutingOptions. */
#include <adwaita.h>
#include <string.h>

#include "flitlab-option-rows.h"
#include "flitlab-sim-settings.h"
#include "tap.h"

static void
iterate (void)
{
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static char *
text_of (FlitlabSimSettings *page,
         const char         *key)
{
  char buf[256];

  fl_sim_settings_format (flitlab_sim_settings_get_settings (page), key, buf, sizeof buf);
  return g_strdup (buf);
}

/* Types each option type is edited with. */
static gboolean
row_fits (GtkWidget          *row,
          const FlOptionInfo *info)
{
  GtkWidget *editor = flitlab_option_row_get_editor (row);

  switch (info->type)
    {
    case FL_OPTION_INT:
    case FL_OPTION_INT64:
    case FL_OPTION_DOUBLE:
      return ADW_IS_ACTION_ROW (row) && GTK_IS_SPIN_BUTTON (editor);
    case FL_OPTION_ENUM:
      return ADW_IS_COMBO_ROW (row) && editor == row;
    case FL_OPTION_FLAG:
      return ADW_IS_ACTION_ROW (row) && GTK_IS_SWITCH (editor);
    case FL_OPTION_STRING:
    case FL_OPTION_COMPOSITE:
      return ADW_IS_ENTRY_ROW (row) && editor == row;
    }
  return FALSE;
}

static void
type_and_apply (GtkWidget  *row,
                const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (row), text);
  g_signal_emit_by_name (row, "apply");
}

static void
count_changed_cb (FlitlabSimSettings *page,
                  const char         *key,
                  int                *count)
{
  (*count)++;
}

static void
test_page (FlitlabSimSettings *page)
{
  int n_keys = fl_sim_settings_key_count ();
  g_autoptr(GHashTable) titles = g_hash_table_new (g_str_hash, g_str_equal);
  int n_groups = 0;

  CHECK_INT (flitlab_sim_settings_get_n_rows (page), n_keys);
  for (int i = 0; i < n_keys; i++)
    {
      const FlOptionInfo *info = fl_sim_settings_key (i);
      GtkWidget *row = flitlab_sim_settings_get_row (page, info->name);
      GtkWidget *group = row != NULL ? gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP)
                                     : NULL;

      CHECK (row != NULL && flitlab_option_row_get_info (row) == info
                 && gtk_widget_is_ancestor (row, GTK_WIDGET (page)),
             "a row for %s on the page", info->name);
      if (row == NULL)
        continue;
      CHECK (row_fits (row, info), "%s: a %s", info->name, G_OBJECT_TYPE_NAME (row));
      CHECK (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), info->label)
                 == 0,
             "%s: titled '%s'", info->name, info->label);
      CHECK (group != NULL
                 && g_strcmp0 (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (group)),
                               info->group) == 0,
             "%s: in the group '%s'", info->name, info->group);
      if (group != NULL && !g_hash_table_contains (titles, info->group))
        {
          g_hash_table_add (titles, (gpointer) info->group);
          n_groups++;
        }
      CHECK (flitlab_option_row_get_error (row) == NULL, "%s: no error at first", info->name);
    }
  CHECK (n_groups >= 4, "%d groups, one per table group", n_groups);
}

static void
test_set_through_rows (FlitlabSimSettings *page)
{
  const FlSimConfig *cfg = flitlab_sim_settings_get_config (page);
  GtkWidget *row;
  g_autofree char *injection = NULL;
  int changed = 0, vcs_changed = 0;

  g_signal_connect (page, "changed", G_CALLBACK (count_changed_cb), &changed);
  g_signal_connect (page, "changed::vcs", G_CALLBACK (count_changed_cb), &vcs_changed);

  row = flitlab_sim_settings_get_row (page, "vcs");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (flitlab_option_row_get_editor (row)), 4);
  CHECK (cfg->vcs == 4 && vcs_changed == 1 && changed == 1,
         "the VCs spin button sets vcs (%d), ::changed::vcs once", cfg->vcs);

  row = flitlab_sim_settings_get_row (page, "rate");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (flitlab_option_row_get_editor (row)), 0.35);
  CHECK (fabs (cfg->traffic.rate - 0.35) < 1e-9, "the rate spin button sets the rate (%g)",
         cfg->traffic.rate);

  row = flitlab_sim_settings_get_row (page, "switching");
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 1);
  CHECK (cfg->switching == FL_SWITCHING_VCT, "the switching combo row selects vct");

  row = flitlab_sim_settings_get_row (page, "traffic");
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 1);
  CHECK (g_strcmp0 (cfg->traffic.pattern, fl_traffic_pattern_name (1)) == 0,
         "the traffic combo row selects %s", fl_traffic_pattern_name (1));

  row = flitlab_sim_settings_get_row (page, "self");
  gtk_switch_set_active (GTK_SWITCH (flitlab_option_row_get_editor (row)), TRUE);
  CHECK (cfg->traffic.include_self == 1, "the switch sets self");

  row = flitlab_sim_settings_get_row (page, "packet");
  type_and_apply (row, "2:16:0.25");
  CHECK (cfg->traffic.packet_flits == 2 && cfg->traffic.packet_flits_long == 16
             && flitlab_option_row_get_error (row) == NULL,
         "the packet entry sets a bimodal mix");

  /* A preset sets the link latency: its row shows it. */
  row = flitlab_sim_settings_get_row (page, "link-latency");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (flitlab_option_row_get_editor (row)), 3);
  type_and_apply (flitlab_sim_settings_get_row (page, "pipeline"), "booksim-min");
  CHECK (cfg->sw_alloc_delay == 1 && cfg->xbar_delay == 1 && cfg->link_latency == 1
             && gtk_spin_button_get_value_as_int (
                    GTK_SPIN_BUTTON (flitlab_option_row_get_editor (row))) == 1,
         "booksim-min sets the delays and the link latency row shows 1");

  type_and_apply (flitlab_sim_settings_get_row (page, "burst"), "20:80");
  injection = text_of (page, "injection");
  CHECK (cfg->traffic.process == FL_INJECT_ONOFF
             && adw_combo_row_get_selected (
                    ADW_COMBO_ROW (flitlab_sim_settings_get_row (page, "injection"))) == 1,
         "bursts select on/off injection, and its row shows %s", injection);

  /* The deflection model hides the flit-level rows. */
  row = flitlab_sim_settings_get_row (page, "mode");
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 1);
  CHECK (flitlab_sim_settings_get_settings (page)->model == FL_SIM_MODEL_DEFLECTION
             && !gtk_widget_get_visible (flitlab_sim_settings_get_row (page, "vcs"))
             && gtk_widget_get_visible (flitlab_sim_settings_get_row (page, "nmsg"))
             && gtk_widget_get_visible (flitlab_sim_settings_get_row (page, "seed")),
         "deflection shows its rows and hides the flit-level ones");
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 0);
  CHECK (gtk_widget_get_visible (flitlab_sim_settings_get_row (page, "vcs"))
             && !gtk_widget_get_visible (flitlab_sim_settings_get_row (page, "nmsg")),
         "back to the flit-level model");
}

static void
test_refusals (FlitlabSimSettings *page)
{
  const FlSimConfig *cfg = flitlab_sim_settings_get_config (page);
  GtkWidget *row = flitlab_sim_settings_get_row (page, "packet");
  g_autofree char *before = text_of (page, "packet");
  g_autofree char *after = NULL;
  const char *tooltip;

  type_and_apply (row, "1:16");
  after = text_of (page, "packet");
  tooltip = gtk_widget_get_tooltip_text (row);
  CHECK (gtk_widget_has_css_class (row, "error"), "a refused packet puts the row in error");
  CHECK (flitlab_option_row_get_error (row) != NULL
             && strstr (flitlab_option_row_get_error (row), "packet needs") != NULL
             && g_strcmp0 (tooltip, flitlab_option_row_get_error (row)) == 0,
         "the engine's message is the row's tooltip: %s", tooltip);
  CHECK (g_strcmp0 (before, after) == 0 && cfg->traffic.packet_flits == 2,
         "the refused value changed nothing (%s)", after);
  type_and_apply (row, "4");
  CHECK (!gtk_widget_has_css_class (row, "error") && flitlab_option_row_get_error (row) == NULL
             && cfg->traffic.packet_flits == 4 && cfg->traffic.packet_flits_long == 0,
         "a good value clears the error");

  row = flitlab_sim_settings_get_row (page, "hotspot");
  type_and_apply (row, "0.5");
  CHECK (gtk_widget_has_css_class (row, "error")
             && strstr (gtk_widget_get_tooltip_text (row), "hotspot") != NULL,
         "a refused hotspot list: %s", gtk_widget_get_tooltip_text (row));
  flitlab_option_row_refresh (row);
  CHECK (!gtk_widget_has_css_class (row, "error")
             && g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (row)), "0.1:0") == 0,
         "refreshing shows the bound value again");
}

static void
test_property (FlitlabSimSettings *page)
{
  FlSimSettings *copy = NULL;
  FlSimSettings fresh;
  GtkWidget *vcs = flitlab_sim_settings_get_row (page, "vcs");

  g_object_get (page, "settings", &copy, NULL);
  CHECK (copy != NULL && copy->config.vcs == 4 && copy != flitlab_sim_settings_get_settings (page),
         "the settings property gives a copy");
  g_boxed_free (FLITLAB_TYPE_FL_SIM_SETTINGS, copy);

  fl_sim_settings_init (&fresh);
  g_object_set (page, "settings", &fresh, NULL);
  CHECK (flitlab_sim_settings_get_config (page)->vcs == 2
             && gtk_spin_button_get_value_as_int (
                    GTK_SPIN_BUTTON (flitlab_option_row_get_editor (vcs))) == 2,
         "setting the property shows the new settings");
  fl_sim_settings_clear (&fresh);
}

static void
test_routing_rows (void)
{
  FlRoutingOptions opt;
  GtkWidget *root, *order, *prohibit;
  GtkSpinButton *spin;

  fl_routing_options_init (&opt);
  root = g_object_ref_sink (flitlab_option_row_new_for_routing (
      fl_routing_option_lookup ("root"), &opt, NULL, NULL));
  order = g_object_ref_sink (flitlab_option_row_new_for_routing (
      fl_routing_option_lookup ("order"), &opt, NULL, NULL));
  prohibit = g_object_ref_sink (flitlab_option_row_new_for_routing (
      fl_routing_option_lookup ("prohibit"), &opt, NULL, NULL));
  spin = GTK_SPIN_BUTTON (flitlab_option_row_get_editor (root));

  CHECK (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), "auto") == 0,
         "the root row reads auto (%s)", gtk_editable_get_text (GTK_EDITABLE (spin)));
  gtk_spin_button_set_value (spin, 5);
  CHECK (opt.root == 5, "the root row sets root 5 (%d)", opt.root);
  gtk_spin_button_set_value (spin, -1);
  CHECK (opt.root == -1, "and back to auto (%d)", opt.root);

  adw_combo_row_set_selected (ADW_COMBO_ROW (order), 3);
  CHECK (g_strcmp0 (opt.order, "yx") == 0, "the order row picks yx (%s)",
         opt.order ? opt.order : "auto");

  type_and_apply (prohibit, "2:0>1, 2:1>0");
  CHECK (opt.n_prohibited == 2 && opt.prohibited[1].in_port == 1,
         "the prohibit row sets two turns");
  type_and_apply (prohibit, "2:0-1");
  CHECK (gtk_widget_has_css_class (prohibit, "error") && opt.n_prohibited == 2,
         "a malformed turn is refused: %s", gtk_widget_get_tooltip_text (prohibit));

  g_object_unref (root);
  g_object_unref (order);
  g_object_unref (prohibit);
  fl_routing_options_clear (&opt);
}

int
main (int   argc,
      char *argv[])
{
  GtkWidget *window, *page;

  (void) argc;
  (void) argv;
  gtk_init ();
  adw_init ();
  window = gtk_window_new ();
  page = flitlab_sim_settings_new ();
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 800);
  gtk_window_present (GTK_WINDOW (window));
  iterate ();

  test_page (FLITLAB_SIM_SETTINGS (page));
  test_set_through_rows (FLITLAB_SIM_SETTINGS (page));
  iterate ();
  test_refusals (FLITLAB_SIM_SETTINGS (page));
  test_property (FLITLAB_SIM_SETTINGS (page));
  test_routing_rows ();

  gtk_window_destroy (GTK_WINDOW (window));
  iterate ();
  return tap_done ();
}
