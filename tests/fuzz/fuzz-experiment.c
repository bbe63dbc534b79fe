/* fuzz-experiment.c — experiment definitions as a project stores them: a
 * design's text (fl_exp_design_parse(), src/exp/exp-design.c) and a plot's
 * definition (fl_plot_spec_parse(), src/exp/experiment-plot.c).
 *
 * Every input is read as both. A reader refuses it with a message that
 * names the line, or gives a definition whose text reads back to the same
 * text; a design's first and last runs unfold, and its first run's
 * configuration applies or is refused with a message. `tools/flitlab-dev
 * fuzz experiment` runs it. */
#include <stdlib.h>
#include <string.h>

#include "flitlab-exp.h"
#include "flitlab-experiment-plot.h"
#include "fuzz-common.h"

static void check_run(const FlExpDesign *d, int64_t idx)
{
    int np = fl_exp_design_param_count(d);
    const char **values = calloc((size_t)(np > 0 ? np : 1), sizeof *values);
    uint64_t seed = 0;
    FlError err = { 0 };
    FUZZ_CHECK(values != NULL);
    if (fl_exp_design_run(d, idx, values, &seed, &err) != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    for (int i = 0; i < np; i++)
        FUZZ_CHECK(values[i] != NULL);
    free(values);
}

static void check_design(const char *text)
{
    FlExpDesign *d = NULL, *again = NULL;
    FlError err = { 0 };
    int rc = fl_exp_design_parse(text, &d, &err);
    if (rc != FL_OK) {
        fuzz_check_refusal(rc, &err);
        FUZZ_CHECK(d == NULL);
        FUZZ_CHECK(strncmp(err.message, "line ", 5) == 0);
        return;
    }
    char *a = NULL, *b = NULL;
    FUZZ_CHECK(fl_exp_design_format(d, &a, &err) == FL_OK);
    if (fl_exp_design_parse(a, &again, &err) != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    FUZZ_CHECK(fl_exp_design_format(again, &b, &err) == FL_OK);
    FUZZ_CHECK(strcmp(a, b) == 0);
    int64_t n = fl_exp_design_count(d);
    FUZZ_CHECK(n == fl_exp_design_count(again));
    FUZZ_CHECK(n >= 1 && n <= FL_EXP_DESIGN_MAX_RUNS);
    check_run(d, 0);
    check_run(d, n - 1);
    FlSimSettings s;
    FlRoutingOptions ro;
    const char *routing = NULL;
    fl_sim_settings_init(&s);
    fl_routing_options_init(&ro);
    rc = fl_exp_design_apply(d, 0, &s, &ro, &routing, &err);
    if (rc != FL_OK)
        fuzz_check_refusal(rc, &err);
    fl_sim_settings_clear(&s);
    fl_routing_options_clear(&ro);
    FUZZ_CHECK(fl_exp_design_models(d) != 0);
    free(a);
    free(b);
    fl_exp_design_free(again);
    fl_exp_design_free(d);
}

static void check_plot(const char *text)
{
    FlPlotSpec spec, again;
    FlError err = { 0 };
    int rc = fl_plot_spec_parse(text, &spec, &err);
    if (rc != FL_OK) {
        fuzz_check_refusal(rc, &err);
        FUZZ_CHECK(strncmp(err.message, "line ", 5) == 0);
        FUZZ_CHECK(!spec.experiment && !spec.x && !spec.y && !spec.series && !spec.where
                   && !spec.title && !spec.xlabel && !spec.ylabel);
        return;
    }
    char *a = NULL, *b = NULL;
    if (fl_plot_spec_format(&spec, &a, &err) != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    if (fl_plot_spec_parse(a, &again, &err) != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    FUZZ_CHECK(fl_plot_spec_format(&again, &b, &err) == FL_OK);
    FUZZ_CHECK(strcmp(a, b) == 0);
    free(a);
    free(b);
    fl_plot_spec_clear(&again);
    fl_plot_spec_clear(&spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    check_design(text);
    check_plot(text);
    free(text);
    return 0;
}
