/* flitlab-session.c — an open project and the documents of its networks. */
#include <stdlib.h>

#include "flitlab-session.h"
#include "flitlab-workers.h"

struct _FlitlabSession
{
  GObject parent_instance;

  FlProject *project;
  GHashTable *documents;       /* name -> FlitlabDocument */
};

G_DEFINE_FINAL_TYPE (FlitlabSession, flitlab_session, G_TYPE_OBJECT)

/* The project's per-topology settings ------------------------------------------
 *
 * The only two places that read and write a network's settings in the
 * project file. A network's settings are exactly the keys of its
 * document's routing state that differ from their defaults: a key the
 * document no longer sets is removed from the file. */

static gboolean
write_topology_settings (FlProject   *project,
                         const char  *name,
                         GHashTable  *key_to_value,
                         GError     **error)
{
  g_autoptr(GHashTable) stale = g_hash_table_new (g_str_hash, g_str_equal);
  char **keys = NULL;
  int n = 0;
  FlError err = { 0 };
  GHashTableIter iter;
  gpointer key, value;
  int rc;

  rc = fl_project_list_topology_settings (project, name, &keys, &n, &err);
  if (rc == FL_OK)
    {
      for (int i = 0; i < n; i++)
        if (!g_hash_table_contains (key_to_value, keys[i]))
          g_hash_table_add (stale, keys[i]);
      g_hash_table_iter_init (&iter, stale);
      while (rc == FL_OK && g_hash_table_iter_next (&iter, &key, NULL))
        rc = fl_project_set_topology_setting (project, name, key, NULL, &err);
      fl_project_setting_keys_free (keys, n);
    }
  g_hash_table_iter_init (&iter, key_to_value);
  while (rc == FL_OK && g_hash_table_iter_next (&iter, &key, &value))
    rc = fl_project_set_topology_setting (project, name, key, value, &err);
  if (rc != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return FALSE;
    }
  return TRUE;
}

/* The settings of topology name: a table of the keys that are set. */
static GHashTable *
read_topology_settings (FlProject   *project,
                        const char  *name,
                        GError     **error)
{
  g_autoptr(GHashTable) settings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  char **keys = NULL;
  int n = 0;
  FlError err = { 0 };
  int rc;

  rc = fl_project_list_topology_settings (project, name, &keys, &n, &err);
  for (int i = 0; rc == FL_OK && i < n; i++)
    {
      char *value = NULL;

      rc = fl_project_get_topology_setting (project, name, keys[i], &value, &err);
      if (rc == FL_OK && value != NULL)
        {
          g_hash_table_insert (settings, g_strdup (keys[i]), g_strdup (value));
          free (value);
        }
    }
  if (keys != NULL)
    fl_project_setting_keys_free (keys, n);
  if (rc != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return NULL;
    }
  return g_steal_pointer (&settings);
}

/* The session ------------------------------------------------------------------ */

FlitlabSession *
flitlab_session_new (FlProject *project)
{
  FlitlabSession *self = g_object_new (FLITLAB_TYPE_SESSION, NULL);

  self->project = project;
  return self;
}

FlProject *
flitlab_session_get_project (FlitlabSession *self)
{
  g_return_val_if_fail (FLITLAB_IS_SESSION (self), NULL);

  return self->project;
}

static FlitlabDocument *
adopt (FlitlabSession *self,
       const char     *name,
       FlTopology     *topology)
{
  FlitlabDocument *document = flitlab_document_new (topology);

  flitlab_document_set_name (document, name);
  g_hash_table_replace (self->documents, g_strdup (name), document);
  return document;
}

FlitlabDocument *
flitlab_session_get_document (FlitlabSession  *self,
                              const char      *name,
                              GError         **error)
{
  FlitlabDocument *document;
  g_autoptr(GHashTable) settings = NULL;
  FlTopology *topology = NULL;
  FlError err = { 0 };

  g_return_val_if_fail (FLITLAB_IS_SESSION (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  document = g_hash_table_lookup (self->documents, name);
  if (document != NULL)
    return document;
  if (fl_project_get_topology (self->project, name, &topology, &err) != FL_OK)
    {
      flitlab_set_engine_error (error, &err);
      return NULL;
    }
  settings = read_topology_settings (self->project, name, error);
  if (settings == NULL)
    {
      fl_topology_free (topology);
      return NULL;
    }
  document = adopt (self, name, topology);
  flitlab_document_load_routing_state (document, settings);
  return document;
}

FlitlabDocument *
flitlab_session_add_document (FlitlabSession *self,
                              const char     *name,
                              FlTopology     *topology)
{
  g_return_val_if_fail (FLITLAB_IS_SESSION (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return adopt (self, name, topology);
}

void
flitlab_session_rename_document (FlitlabSession *self,
                                 const char     *old_name,
                                 const char     *new_name)
{
  gpointer key, document;

  g_return_if_fail (FLITLAB_IS_SESSION (self));

  if (!g_hash_table_steal_extended (self->documents, old_name, &key, &document))
    return;
  g_free (key);
  flitlab_document_set_name (document, new_name);
  g_hash_table_replace (self->documents, g_strdup (new_name), document);
}

void
flitlab_session_remove_document (FlitlabSession *self,
                                 const char     *name)
{
  g_return_if_fail (FLITLAB_IS_SESSION (self));

  g_hash_table_remove (self->documents, name);
}

gboolean
flitlab_session_save_routing_states (FlitlabSession  *self,
                                     GError         **error)
{
  GHashTableIter iter;
  gpointer name, document;

  g_return_val_if_fail (FLITLAB_IS_SESSION (self), FALSE);

  g_hash_table_iter_init (&iter, self->documents);
  while (g_hash_table_iter_next (&iter, &name, &document))
    {
      g_autoptr(GHashTable) settings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                              g_free);

      flitlab_document_save_routing_state (document, settings);
      if (!write_topology_settings (self->project, name, settings, error))
        return FALSE;
    }
  return TRUE;
}

static void
flitlab_session_finalize (GObject *object)
{
  FlitlabSession *self = FLITLAB_SESSION (object);

  /* The documents go before the project they came from. */
  g_clear_pointer (&self->documents, g_hash_table_unref);
  g_clear_pointer (&self->project, fl_project_free);
  G_OBJECT_CLASS (flitlab_session_parent_class)->finalize (object);
}

static void
flitlab_session_class_init (FlitlabSessionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = flitlab_session_finalize;
}

static void
flitlab_session_init (FlitlabSession *self)
{
  self->documents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}
