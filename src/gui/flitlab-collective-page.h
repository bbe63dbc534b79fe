/* flitlab-collective-page.h — what the complete exchange and link schedule
 * pages of the Collectives tab share: the document they follow, workers of
 * their own, whether a job runs, their properties, their disposal and the
 * lines of name and figures in their value grids.
 *
 * Each page embeds a FlitlabCollectivePage and hands it to these
 * functions; the page keeps its own type, template and hooks. */
#pragma once

#include <gtk/gtk.h>

#include "flitlab-document.h"
#include "flitlab-workers.h"

G_BEGIN_DECLS

typedef struct
{
  FlitlabDocument *document;        /* NULL: none */
  GSignalGroup *document_signals;
  FlitlabWorkers *workers;          /* the page's own: its jobs never wait on the window's */
  gboolean running;
  GtkSpinner *spinner;              /* spins while a job runs; may be NULL */
} FlitlabCollectivePage;

/* The properties both pages have, with these ids. */
enum {
  FLITLAB_COLLECTIVE_PROP_0,
  FLITLAB_COLLECTIVE_PROP_DOCUMENT,  /* FlitlabDocument, read-write */
  FLITLAB_COLLECTIVE_PROP_RUNNING,   /* boolean, read-only */
  FLITLAB_COLLECTIVE_N_PROPS
};

void     flitlab_collective_page_install_properties (GObjectClass          *klass,
                                                     GParamSpec           **properties);
/* Fills value for the two properties; FALSE for another id. */
gboolean flitlab_collective_page_get_property       (FlitlabCollectivePage *core,
                                                     guint                  prop_id,
                                                     GValue                *value);

/* New workers, and edited (swapped, page as its data) called on the
 * document's "topology-edited". */
void     flitlab_collective_page_init               (FlitlabCollectivePage *core,
                                                     gpointer               page,
                                                     GCallback              edited);
/* Follows document (a reference is taken); FALSE when it was followed
 * already. */
gboolean flitlab_collective_page_set_document       (FlitlabCollectivePage *core,
                                                     FlitlabDocument       *document);
/* Sets running, spins the spinner and notifies pspec on page, on a change. */
void     flitlab_collective_page_set_running        (FlitlabCollectivePage *core,
                                                     GObject               *page,
                                                     GParamSpec            *pspec,
                                                     gboolean               running);
/* Stops the workers, lets the document go and disposes page's template
 * of type (and its top box, which has no id). */
void     flitlab_collective_page_dispose            (FlitlabCollectivePage *core,
                                                     GtkWidget             *page,
                                                     GType                  type);

/* A line of grid: the name, dim, with its tooltip, then nfigures figures
 * (a dash until set), right-aligned and selectable, into figures[]. */
void     flitlab_collective_page_attach_line        (GtkGrid               *grid,
                                                     int                    line,
                                                     const char            *name,
                                                     const char            *tooltip,
                                                     GtkLabel             **figures,
                                                     int                    nfigures);

G_END_DECLS
