/* flitlab-document-state.c — a document's simulation settings and the
 * routing state kept with the project.
 *
 * The project file keeps, for each network, its routing asked for, its
 * overlays, its route endpoints and its simulation settings as key = text
 * pairs (routing.*, sim.*), each left out where it is the default.
 */
#include <string.h>

#include "flitlab-document-private.h"

/* Simulation settings ------------------------------------------------------------ */

const FlSimSettings *
flitlab_document_get_sim_settings (FlitlabDocument *self)
{
  g_return_val_if_fail (FLITLAB_IS_DOCUMENT (self), NULL);

  return &self->sim_settings;
}

/* Takes settings (a copy the caller gives up). */
static void
replace_sim_settings (FlitlabDocument *self,
                      FlSimSettings   *settings)
{
  fl_sim_settings_clear (&self->sim_settings);
  self->sim_settings = *settings;
  /* A session watched runs the old settings. */
  flitlab_document_set_simulation (self, NULL);
  /* The struct moved: its hotspot list is on the heap and still found. */
  flitlab_document_emit (self, SIM_SETTINGS_CHANGED);
}

void
flitlab_document_set_sim_settings (FlitlabDocument     *self,
                                   const FlSimSettings *settings)
{
  FlSimSettings copy;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (settings != NULL);

  if (settings == &self->sim_settings)
    return;
  if (fl_sim_settings_copy (&copy, settings, NULL) != FL_OK)
    g_error ("out of memory copying the simulation settings");
  replace_sim_settings (self, &copy);
}

/* Routing state kept with the project ---------------------------------------------- */

/* Besides these, routing.OPTION for every option of the routing registry
 * and sim.KEY for every key of the simulation table. */
static const char * const routing_keys[] = {
  "routing.algorithm",
  "routing.overlays",
  "routing.route",
};

#define ROUTING_KEY_PREFIX "routing."
#define SIM_KEY_PREFIX "sim."

const char * const *
flitlab_document_routing_state_keys (void)
{
  static gsize keys = 0;

  /* The options' and the simulation's keys come from the engine's tables:
   * made once. */
  if (g_once_init_enter (&keys))
    {
      GPtrArray *all = g_ptr_array_new ();

      for (guint i = 0; i < G_N_ELEMENTS (routing_keys); i++)
        g_ptr_array_add (all, (gpointer) routing_keys[i]);
      for (int i = 0; i < fl_routing_option_count (); i++)
        g_ptr_array_add (all, g_strconcat (ROUTING_KEY_PREFIX, fl_routing_option (i)->name, NULL));
      for (int i = 0; i < fl_sim_settings_key_count (); i++)
        g_ptr_array_add (all, g_strconcat (SIM_KEY_PREFIX, fl_sim_settings_key (i)->name, NULL));
      g_ptr_array_add (all, NULL);
      g_once_init_leave (&keys, (gsize) g_ptr_array_free (all, FALSE));
    }
  return (const char * const *) keys;
}

static void
put (GHashTable *table,
     const char *key,
     char       *value)
{
  g_hash_table_insert (table, g_strdup (key), value);
}

/* fl_sim_settings_format()'s text of key, however long (a list of
 * hotspots, a file name). */
static char *
format_sim_setting (const FlSimSettings *settings,
                    const char          *key)
{
  char buf[256];
  int n = fl_sim_settings_format (settings, key, buf, sizeof buf);
  char *text;

  if (n < (int) sizeof buf)
    return g_strdup (n >= 0 ? buf : "");
  text = g_malloc (n + 1);
  fl_sim_settings_format (settings, key, text, n + 1);
  return text;
}

/* The simulation settings as sim.KEY = text. Loading sets the keys found in
 * the table's order onto fresh settings, and one setting can set another
 * (a pipeline preset sets the link latency): so a key is written whenever
 * the settings loaded so far would not give its value, which leaves out
 * exactly the values that come by default. */
static void
save_sim_settings (FlitlabDocument *self,
                   GHashTable      *key_to_value)
{
  FlSimSettings loaded;

  fl_sim_settings_init (&loaded);
  for (int i = 0; i < fl_sim_settings_key_count (); i++)
    {
      const char *name = fl_sim_settings_key (i)->name;
      g_autofree char *want = format_sim_setting (&self->sim_settings, name);
      g_autofree char *have = format_sim_setting (&loaded, name);

      if (strcmp (want, have) == 0)
        continue;
      fl_sim_settings_set (&loaded, name, want, NULL);
      g_hash_table_insert (key_to_value, g_strconcat (SIM_KEY_PREFIX, name, NULL),
                           g_steal_pointer (&want));
    }
  fl_sim_settings_clear (&loaded);
}

static void
load_sim_settings (FlitlabDocument *self,
                   GHashTable      *key_to_value)
{
  FlSimSettings settings;

  fl_sim_settings_init (&settings);
  for (int i = 0; i < fl_sim_settings_key_count (); i++)
    {
      const char *name = fl_sim_settings_key (i)->name;
      g_autofree char *key = g_strconcat (SIM_KEY_PREFIX, name, NULL);
      const char *text = g_hash_table_lookup (key_to_value, key);

      /* A value the engine refuses keeps the default. */
      if (text != NULL)
        fl_sim_settings_set (&settings, name, text, NULL);
    }
  replace_sim_settings (self, &settings);
}

/* Every option of the routing registry as routing.OPTION = the engine's
 * text, where it differs from a request's default; kept for every routing,
 * so that a turn set edited under one survives a look at another. */
static void
save_routing_options (const FlitlabRoutingRequest *request,
                      GHashTable                  *key_to_value)
{
  g_autoptr(FlitlabRoutingRequest) fresh = flitlab_routing_request_new (request->name);

  for (int i = 0; i < fl_routing_option_count (); i++)
    {
      const char *name = fl_routing_option (i)->name;
      g_autofree char *want = flitlab_routing_request_format_option (request, name);
      g_autofree char *dflt = flitlab_routing_request_format_option (fresh, name);

      if (want != NULL && g_strcmp0 (want, dflt) != 0)
        g_hash_table_insert (key_to_value, g_strconcat (ROUTING_KEY_PREFIX, name, NULL),
                             g_steal_pointer (&want));
    }
}

/* Sets the options found in key_to_value; a value the engine refuses keeps
 * its default. */
static void
load_routing_options (FlitlabRoutingRequest *request,
                      GHashTable            *key_to_value)
{
  for (int i = 0; i < fl_routing_option_count (); i++)
    {
      const char *name = fl_routing_option (i)->name;
      g_autofree char *key = g_strconcat (ROUTING_KEY_PREFIX, name, NULL);
      const char *text = g_hash_table_lookup (key_to_value, key);

      if (text != NULL)
        flitlab_routing_request_set_option (request, name, text, NULL);
    }
}

void
flitlab_document_save_routing_state (FlitlabDocument *self,
                                     GHashTable      *key_to_value)
{
  const FlitlabRoutingRequest *request;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (key_to_value != NULL);

  request = self->request;
  if (g_strcmp0 (request->name, FLITLAB_DEFAULT_ROUTING) != 0)
    put (key_to_value, "routing.algorithm", g_strdup (request->name));
  save_routing_options (request, key_to_value);
  if (self->overlays != FLITLAB_OVERLAY_NONE)
    {
      g_autoptr(GFlagsClass) flags = g_type_class_ref (FLITLAB_TYPE_OVERLAY);
      GString *text = g_string_new (NULL);

      for (guint i = 0; i < flags->n_values; i++)
        if (flags->values[i].value != 0 && (self->overlays & flags->values[i].value))
          g_string_append_printf (text, "%s%s", text->len ? "," : "", flags->values[i].value_nick);
      put (key_to_value, "routing.overlays", g_string_free (text, FALSE));
    }
  if (self->route_src >= 0)
    put (key_to_value, "routing.route",
         self->route_dst >= 0 ? g_strdup_printf ("%d>%d", self->route_src, self->route_dst)
                              : g_strdup_printf ("%d", self->route_src));
  save_sim_settings (self, key_to_value);
}

/* A whole decimal number in [lo, hi], or FALSE. */
static gboolean
parse_int (const char *text,
           int         lo,
           int         hi,
           int        *value)
{
  gint64 v;

  if (text == NULL || !g_ascii_string_to_signed (text, 10, lo, hi, &v, NULL))
    return FALSE;
  *value = (int) v;
  return TRUE;
}

void
flitlab_document_load_routing_state (FlitlabDocument *self,
                                     GHashTable      *key_to_value)
{
  g_autoptr(FlitlabRoutingRequest) request = NULL;
  g_autoptr(FlitlabRoutingRequest) old = NULL;
  const char *text;
  int src = -1, dst = -1;

  g_return_if_fail (FLITLAB_IS_DOCUMENT (self));
  g_return_if_fail (key_to_value != NULL);

  request = flitlab_routing_request_new (FLITLAB_DEFAULT_ROUTING);
  text = g_hash_table_lookup (key_to_value, "routing.algorithm");
  if (text != NULL && fl_routing_lookup (text) != NULL)
    {
      g_free (request->name);
      request->name = g_strdup (text);
    }
  load_routing_options (request, key_to_value);

  /* Not an edit: the state is what the network was saved with. */
  old = g_steal_pointer (&self->request);
  self->request = g_steal_pointer (&request);
  flitlab_document_request_replaced (self, old);

  text = g_hash_table_lookup (key_to_value, "routing.overlays");
  if (text != NULL)
    {
      g_autoptr(GFlagsClass) flags = g_type_class_ref (FLITLAB_TYPE_OVERLAY);
      g_auto(GStrv) nicks = g_strsplit (text, ",", -1);
      FlitlabOverlay overlays = FLITLAB_OVERLAY_NONE;

      for (guint i = 0; nicks[i] != NULL; i++)
        {
          GFlagsValue *flag = g_flags_get_value_by_nick (flags, nicks[i]);

          if (flag != NULL)
            overlays |= flag->value;
        }
      flitlab_document_set_overlays (self, overlays);
    }
  text = g_hash_table_lookup (key_to_value, "routing.route");
  if (text != NULL)
    {
      g_auto(GStrv) ends = g_strsplit (text, ">", 2);

      if (!parse_int (ends[0], 0, G_MAXINT, &src))
        src = -1;
      if (ends[0] == NULL || ends[1] == NULL || !parse_int (ends[1], 0, G_MAXINT, &dst))
        dst = -1;
    }
  flitlab_document_set_route_endpoints (self, src, src >= 0 ? dst : -1);
  load_sim_settings (self, key_to_value);
}
