/* flitlab-canvas-highlight.c — what a lesson's step points at, drawn over
 * whatever the canvas shows (the network and its overlays, a simulation, a
 * collective) by fl_draw_highlight().
 *
 * The highlight names switches by their labels, so it stays right on every
 * picture of the network (the switches alone, the H/V graph) and after
 * edits; what a picture lacks is left out. It is kept on the widget as
 * object data, so the canvas' own state is untouched.
 */
#include "flitlab-canvas-private.h"

#define HIGHLIGHT_KEY "flitlab-highlight"

typedef struct
{
  GArray *nodes;               /* int: switch labels */
  GArray *links;               /* FlLessonPair */
  GArray *channels;            /* FlLessonPair */
} Highlight;

G_STATIC_ASSERT (sizeof (FlLessonPair) == sizeof (FlDrawPair));
G_STATIC_ASSERT (G_STRUCT_OFFSET (FlLessonPair, b) == G_STRUCT_OFFSET (FlDrawPair, b));

static void
highlight_free (gpointer data)
{
  Highlight *h = data;

  g_array_unref (h->nodes);
  g_array_unref (h->links);
  g_array_unref (h->channels);
  g_free (h);
}

static Highlight *
get_highlight (FlitlabCanvas *self)
{
  Highlight *h = g_object_get_data (G_OBJECT (self), HIGHLIGHT_KEY);

  if (h == NULL)
    {
      h = g_new0 (Highlight, 1);
      h->nodes = g_array_new (FALSE, FALSE, sizeof (int));
      h->links = g_array_new (FALSE, FALSE, sizeof (FlLessonPair));
      h->channels = g_array_new (FALSE, FALSE, sizeof (FlLessonPair));
      g_object_set_data_full (G_OBJECT (self), HIGHLIGHT_KEY, h, highlight_free);
    }
  return h;
}

static void
set_array (GArray        *array,
           gconstpointer  items,
           int            n)
{
  g_array_set_size (array, 0);
  if (items != NULL && n > 0)
    g_array_append_vals (array, items, (guint) n);
}

void
flitlab_canvas_set_highlight (FlitlabCanvas      *self,
                              const int          *nodes,
                              int                 n_nodes,
                              const FlLessonPair *links,
                              int                 n_links,
                              const FlLessonPair *channels,
                              int                 n_channels)
{
  Highlight *h;

  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  h = get_highlight (self);
  set_array (h->nodes, nodes, n_nodes);
  set_array (h->links, links, n_links);
  set_array (h->channels, channels, n_channels);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flitlab_canvas_get_highlight (FlitlabCanvas       *self,
                              const int          **nodes,
                              int                 *n_nodes,
                              const FlLessonPair **links,
                              int                 *n_links,
                              const FlLessonPair **channels,
                              int                 *n_channels)
{
  Highlight *h;

  g_return_if_fail (FLITLAB_IS_CANVAS (self));

  h = get_highlight (self);
  if (nodes != NULL)
    *nodes = (const int *) (gconstpointer) h->nodes->data;
  if (n_nodes != NULL)
    *n_nodes = (int) h->nodes->len;
  if (links != NULL)
    *links = (const FlLessonPair *) (gconstpointer) h->links->data;
  if (n_links != NULL)
    *n_links = (int) h->links->len;
  if (channels != NULL)
    *channels = (const FlLessonPair *) (gconstpointer) h->channels->data;
  if (n_channels != NULL)
    *n_channels = (int) h->channels->len;
}

void
flitlab_canvas_draw_highlight (FlitlabCanvas *self,
                               cairo_t       *cr)
{
  Highlight *h = g_object_get_data (G_OBJECT (self), HIGHLIGHT_KEY);
  FlDrawHighlight d;

  if (h == NULL || h->nodes->len + h->links->len + h->channels->len == 0)
    return;
  d.nodes = (const int *) (gconstpointer) h->nodes->data;
  d.n_nodes = (int) h->nodes->len;
  d.links = (const FlDrawPair *) (gconstpointer) h->links->data;
  d.n_links = (int) h->links->len;
  d.channels = (const FlDrawPair *) (gconstpointer) h->channels->data;
  d.n_channels = (int) h->channels->len;
  fl_draw_highlight (cr, flitlab_canvas_picture (self), &self->draw, &d);
}
