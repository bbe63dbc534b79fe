/* flitlab-collective-page.h — what the complete exchange and link schedule
 * pages of the Collectives tab share: the document they follow, the
 * workers their jobs run on, whether a job runs, their properties, their disposal and the
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
  FlitlabWorkers *workers;          /* where jobs start: the window's, or own */
  FlitlabWorkers *own;              /* the page's, for a page on its own (and for a
                                     * job started before the window's came) */
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

/* Workers of the page's own until flitlab_collective_page_set_workers(),
 * and edited (swapped, page as its data) called on the document's
 * "topology-edited". */
void     flitlab_collective_page_init               (FlitlabCollectivePage *core,
                                                     gpointer               page,
                                                     GCallback              edited);
/* Follows document (a reference is taken); FALSE when it was followed
 * already. */
gboolean flitlab_collective_page_set_document       (FlitlabCollectivePage *core,
                                                     FlitlabDocument       *document);
/* Runs the page's jobs on workers (the window's: its Stop cancels them and
 * its progress bar follows them), in place of the page's own. Call it
 * before the page starts a job. */
void     flitlab_collective_page_set_workers        (FlitlabCollectivePage *core,
                                                     FlitlabWorkers        *workers);
/* Runs a job of kind on the page's workers (flitlab_workers_run()),
 * superseding the job of that kind on either workers, so that a job
 * started before the window's workers came is never delivered after it. */
void     flitlab_collective_page_run                (FlitlabCollectivePage *core,
                                                     FlitlabJobKind         kind,
                                                     FlitlabJobFunc         func,
                                                     gpointer               data,
                                                     GDestroyNotify         data_free,
                                                     GDestroyNotify         result_free,
                                                     FlitlabProgressFunc    progress,
                                                     FlitlabJobDone         done,
                                                     gpointer               user_data);
/* Drops the job of kind, on either workers. */
void     flitlab_collective_page_supersede          (FlitlabCollectivePage *core,
                                                     FlitlabJobKind         kind);
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
