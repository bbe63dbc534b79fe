/* test-metrics-cancel.c — the limits of the exhaustive bisection search and
 * how a long one reports progress and stops: the option's descriptor and
 * range, widths unchanged when progress is watched, and a search that would
 * take minutes cancelled within a fraction of a second, its result left
 * alone.
 */
#include <string.h>
#include <time.h>

#include "flitlab.h"
#include "tap.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static FlTopology *from_spec(const char *spec)
{
    FlTopology *t = NULL;
    FlError err = { 0 };
    if (fl_topology_from_spec(spec, &t, &err) != FL_OK) {
        CHECK(0, "%s builds: %s", spec, err.message);
        return NULL;
    }
    return t;
}

/* --- the option ------------------------------------------------------------ */

static void test_option_table(void)
{
    const FlOptionInfo *o = fl_metrics_option(0);
    CHECK(o && strcmp(o->name, "exact-max") == 0 && o->type == FL_OPTION_INT,
          "option 0 is exact-max, a whole number");
    if (!o)
        return;
    CHECK(o->min_int == 0 && o->max_int == FL_METRICS_EXACT_MAX && FL_METRICS_EXACT_MAX == 48,
          "exact-max ranges over 0..%lld", (long long)o->max_int);
    CHECK(strcmp(o->dflt, "28") == 0 && FL_METRICS_EXACT_DEFAULT == 28, "default %s", o->dflt);
    CHECK(o->help && strstr(o->help, "48") && o->label && o->arg, "help names the limit: %s",
          o->help);
    CHECK(fl_metrics_option(1) == NULL && fl_metrics_option(-1) == NULL, "one option");
    CHECK(fl_metrics_option_lookup("exact-max") == o && !fl_metrics_option_lookup("seed")
              && !fl_metrics_option_lookup(NULL),
          "lookup by name");
}

static void check_refused(const char *value, int code)
{
    FlMetricsOptions opt = { .exact_bisection_max = 7 };
    FlError err = { 0 };
    int rc = fl_metrics_options_set(&opt, "exact-max", value, &err);
    CHECK(rc == code && err.code == code && strncmp(err.message, "exact-max ", 10) == 0
              && opt.exact_bisection_max == 7,
          "exact-max '%s' refused (%d): %s", value, rc, err.message);
}

static void test_option_values(void)
{
    FlMetricsOptions opt = { 0 };
    FlError err = { 0 };
    CHECK(fl_metrics_options_set(&opt, "exact-max", "48", &err) == FL_OK
              && opt.exact_bisection_max == 48,
          "exact-max 48 is taken");
    CHECK(fl_metrics_options_set(&opt, "exact-max", "0", &err) == FL_OK
              && opt.exact_bisection_max == 0,
          "exact-max 0 (the default) is taken");
    check_refused("49", FL_ERANGE);
    check_refused("64", FL_ERANGE);
    check_refused("-1", FL_ERANGE);
    check_refused("99999999999999999999999", FL_ERANGE);
    check_refused("12x", FL_EINVAL);
    check_refused("", FL_EINVAL);
    fl_metrics_options_set(&opt, "exact-max", "64", &err);
    CHECK(strstr(err.message, "0 (the default, 28) to 48") && strstr(err.message, "hours")
              && strstr(err.message, "METIS"),
          "the message gives the range and why: %s", err.message);
    CHECK(fl_metrics_options_set(&opt, "exact", "3", &err) == FL_EINVAL
              && strstr(err.message, "'exact'"),
          "an unknown option is named: %s", err.message);

    /* The engine refuses a limit set directly in the struct as well. */
    FlTopology *t = from_spec("ring:6");
    if (!t)
        return;
    FlMetrics m;
    memset(&m, 0x5a, sizeof m);
    opt.exact_bisection_max = FL_METRICS_EXACT_MAX + 1;
    CHECK(fl_metrics_compute(t, &opt, &m, &err) == FL_ERANGE && m.switches == 0x5a5a5a5a
              && strstr(err.message, "exact-max"),
          "fl_metrics_compute refuses exact_bisection_max 49: %s", err.message);
    opt.exact_bisection_max = FL_METRICS_EXACT_MAX;
    CHECK(fl_metrics_compute(t, &opt, &m, &err) == FL_OK && m.bisection_width == 2
              && m.bisection_method == FL_BISECTION_EXHAUSTIVE,
          "exact_bisection_max 48 runs");
    fl_metrics_clear(&m);
    fl_topology_free(t);
}

/* --- progress -------------------------------------------------------------- */

typedef struct Watch {
    int calls, monotone;
    double first, last;        /* fractions */
    double start, max_gap, at; /* seconds: the longest wait between reports */
    double cancel_after;       /* seconds; 0: never */
    double cancelled_at;
} Watch;

static int on_progress(void *data, double fraction)
{
    Watch *w = data;
    double t = now_s();
    if (fraction < w->last || fraction < 0.0 || fraction > 1.0)
        w->monotone = 0;
    if (w->calls++ == 0)
        w->first = fraction;
    if (t - w->at > w->max_gap)
        w->max_gap = t - w->at;
    w->at = t;
    w->last = fraction;
    if (w->cancel_after > 0 && t - w->start >= w->cancel_after) {
        if (w->cancelled_at == 0)
            w->cancelled_at = t;
        return 1;
    }
    return 0;
}

static int run_watched(const FlTopology *t, int exact_max, Watch *w, FlMetrics *m,
                       FlError *err)
{
    FlMetricsOptions opt = { .exact_bisection_max = exact_max, .seed = 1,
                             .progress = on_progress, .progress_data = w };
    w->calls = 0;
    w->monotone = 1;
    w->last = 0.0;
    w->max_gap = 0.0;
    w->cancelled_at = 0.0;
    w->start = w->at = now_s();
    return fl_metrics_compute(t, &opt, m, err);
}

/* Widths found by the search before it reported every few milliseconds
 * (`topo metrics SPEC --exact-max 48`): watching it changes nothing. */
static void test_widths_unchanged(void)
{
    static const struct {
        const char *spec;
        int width;
    } cases[] = {
        { "irregular:28,ports=4", 12 }, { "irregular:28,ports=8", 32 },
        { "irregular:32,ports=8", 40 }, { "irregular:36,ports=4", 12 },
        { "irregular:40,ports=8", 44 }, { "irregular:28,ports=27", 196 },
        { "irregular:40,ports=10", 62 }, { "xmesh:4x10", 16 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FlTopology *t = from_spec(cases[i].spec);
        if (!t)
            continue;
        Watch w = { 0 };
        FlMetrics m;
        FlError err = { 0 };
        int rc = run_watched(t, FL_METRICS_EXACT_MAX, &w, &m, &err);
        CHECK(rc == FL_OK && m.bisection_width == cases[i].width
                  && m.bisection_method == FL_BISECTION_EXHAUSTIVE,
              "%s: width %d by search (want %d)", cases[i].spec, rc ? -1 : m.bisection_width,
              cases[i].width);
        CHECK(w.monotone && w.first == 0.0 && w.last == 1.0 && w.calls >= 2,
              "%s: %d reports, monotone from %.2f to %.2f", cases[i].spec, w.calls, w.first,
              w.last);
        if (rc == FL_OK)
            fl_metrics_clear(&m);
        fl_topology_free(t);
    }
}

/* A search of some minutes: it reports often, and stops soon after the
 * callback asks. The limits are loose for sanitizer builds and a busy
 * machine; the search reports every few milliseconds. */
static void test_long_search_cancelled(void)
{
    FlTopology *t = from_spec("irregular:48,ports=16");
    if (!t)
        return;
    FlMetrics m;
    memset(&m, 0x5a, sizeof m);
    FlError err = { 0 };
    Watch w = { .cancel_after = 0.5 };
    int rc = run_watched(t, FL_METRICS_EXACT_MAX, &w, &m, &err);
    double stopped = now_s();
    CHECK(rc == FL_ECANCELLED && err.code == FL_ECANCELLED && strstr(err.message, "bisection"),
          "cancelled in the search: %s", err.message);
    CHECK(w.cancelled_at > 0 && stopped - w.cancelled_at < 0.2,
          "returned %.3f s after the cancel", stopped - w.cancelled_at);
    CHECK(w.max_gap < 0.25, "reports at most %.3f s apart (%d reports)", w.max_gap, w.calls);
    CHECK(w.monotone && w.last >= 0.05 && w.last < 1.0,
          "progress monotone, into the search (%.3f)", w.last);
    CHECK(m.switches == 0x5a5a5a5a && m.bisection_width == 0x5a5a5a5a,
          "no partial result is left behind");
    fl_topology_free(t);
}

/* Counts the reports and cancels at the second. */
static int cancel_at_second(void *data, double fraction)
{
    double *seen = data;
    seen[(int)seen[0] + 1] = fraction;
    return ++seen[0] >= 2;
}

/* The distances of a network of many switches, a BFS from each: each BFS
 * visits every switch, so the reports come after a few sources, not after
 * hundreds (which took seconds a report at a million switches, and as long
 * to hear a cancel). Counted in sources, not timed. */
static void test_distances_report_by_work(void)
{
    const int n = 100000;
    FlTopology *t = from_spec("myrinet-line:100000");
    if (!t)
        return;
    double seen[3] = { 0 };
    FlMetricsOptions opt = { .seed = 1, .progress = cancel_at_second, .progress_data = seen };
    FlMetrics m;
    FlError err = { 0 };
    int rc = fl_metrics_compute(t, &opt, &m, &err);
    /* The distances take 95 % of the progress range on such a network. */
    double sources = seen[2] / 0.95 * n;
    CHECK(rc == FL_ECANCELLED && seen[0] == 2 && seen[1] == 0.0,
          "cancelled at the second report: %s", err.message);
    CHECK(sources >= 1 && sources <= 8, "the second report comes after %.0f sources of %d",
          sources, n);
    fl_topology_free(t);
}

int main(void)
{
    test_distances_report_by_work();
    test_option_table();
    test_option_values();
    test_widths_unchanged();
    test_long_search_cancelled();
    return tap_done();
}
