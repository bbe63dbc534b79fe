/* flitlab-sim-inspector.h — what a simulation being watched holds, where
 * the user clicked: a packet (its source, destination, age, hops, where its
 * head is and what it waits for, and whose packet holds that), a switch
 * (every input VC's flits, the output it is granted and its credits) or a
 * link (each channel's VCs and its utilization over simulated time),
 * under live plots of throughput and latency over simulated time.
 *
 * Follows its document's simulation and selection; the packet shown is the
 * "packet" property (-1: none), which the canvas sets when a flit is
 * clicked and the inspector when a blocking packet's row is. Updated each
 * time the simulation steps.
 */
#pragma once

#include <gtk/gtk.h>

#include "flitlab-document.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_SIM_INSPECTOR (flitlab_sim_inspector_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabSimInspector, flitlab_sim_inspector, FLITLAB, SIM_INSPECTOR, GtkWidget)

GtkWidget  *flitlab_sim_inspector_new          (void);
void        flitlab_sim_inspector_set_document (FlitlabSimInspector *self,
                                                FlitlabDocument     *document);
void        flitlab_sim_inspector_set_packet   (FlitlabSimInspector *self,
                                                gint64               packet);
gint64      flitlab_sim_inspector_get_packet   (FlitlabSimInspector *self);
/* The points the live throughput plot drew last (for tests). */
int         flitlab_sim_inspector_get_plot_points (FlitlabSimInspector *self);
/* The title and each row's title and subtitle shown, one per line, for
 * tests. */
char       *flitlab_sim_inspector_describe     (FlitlabSimInspector *self);

G_END_DECLS
