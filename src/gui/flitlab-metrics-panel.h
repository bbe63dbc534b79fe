/* flitlab-metrics-panel.h — what the engine measured on the network shown:
 * sizes, degree, distances, bisection, throughput bound, the distance
 * histogram and, for drawn networks, what is structurally wrong. */
#pragma once

#include <adwaita.h>

#include "flitlab-workers.h"

G_BEGIN_DECLS

#define FLITLAB_TYPE_METRICS_PANEL (flitlab_metrics_panel_get_type ())
G_DECLARE_FINAL_TYPE (FlitlabMetricsPanel, flitlab_metrics_panel, FLITLAB, METRICS_PANEL, GtkWidget)

GtkWidget  *flitlab_metrics_panel_new             (void);
/* Shows a measurement (copied); NULL shows that there is nothing to measure. */
void        flitlab_metrics_panel_set_measurement (FlitlabMetricsPanel      *self,
                                                   const FlitlabMeasurement *measurement);
/* While measuring, the values shown are dimmed as stale and a progress bar
 * runs; set_progress takes a fraction in [0, 1]. */
void        flitlab_metrics_panel_set_measuring   (FlitlabMetricsPanel      *self,
                                                   gboolean                  measuring);
void        flitlab_metrics_panel_set_progress    (FlitlabMetricsPanel      *self,
                                                   double                    fraction);
/* The limit of the exhaustive bisection search, in switches (the engine's
 * exact-max option, 0 to FL_METRICS_EXACT_MAX), which the user sets in the
 * panel: property "exact-max", notified when it changes. */
int         flitlab_metrics_panel_get_exact_max   (FlitlabMetricsPanel      *self);
void        flitlab_metrics_panel_set_exact_max   (FlitlabMetricsPanel      *self,
                                                   int                       exact_max);
/* The text shown for one metric, by key: "switches", "hosts", "links",
 * "degree", "diameter", "mean-distance", "bisection", "throughput"; NULL
 * for an unknown key. */
const char *flitlab_metrics_panel_get_value       (FlitlabMetricsPanel      *self,
                                                   const char               *key);

G_END_DECLS
