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
/* The text shown for one metric, by key: "switches", "hosts", "links",
 * "degree", "diameter", "mean-distance", "bisection", "throughput"; NULL
 * for an unknown key. */
const char *flitlab_metrics_panel_get_value       (FlitlabMetricsPanel      *self,
                                                   const char               *key);

G_END_DECLS
