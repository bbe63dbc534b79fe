/* cmd-plot.c — `flitlab plot`: a figure of an experiment's results for a
 * paper (any result against any varied parameter, a curve per value of
 * another, means over the seeds with 95 % intervals) written as PDF, SVG,
 * PNG, CSV, a gnuplot script or a pgfplots figure, or its points printed
 * as JSON; definitions kept in the project by name and redrawn from the
 * runs. The plot library (src/exp/experiment-plot.c) computes the points,
 * the figure library draws them. */
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "flitlab-experiment-plot.h"
#include "flitlab-experiment.h"
#include "sim-options.h"
#ifdef FL_HAVE_CAIRO
#include "flitlab-experiment-figure.h"
#endif

static const CliOption plot_options[] = {
    { "x", 0, "KEY", N_("the parameter on the x axis (one the experiment varies), or cycle or "
                     "channel to plot the runs' vectors") },
    { "y", 0, "KEY", N_("the result on the y axis (a result key or, over cycle or channel, a "
                     "vector: listed below)") },
    { "series", 0, "KEY", N_("one curve per value of this parameter (default: one per "
                          "combination of the parameters left)") },
    { "where", 0, "K=V,..", N_("only the runs with these values of other parameters") },
    { "no-error-bars", 0, NULL, N_("leave out the confidence intervals (95 %) over the seeds") },
    { "xlog", 0, NULL, N_("a logarithmic x axis") },
    { "ylog", 0, NULL, N_("a logarithmic y axis") },
    { "columns", 0, "1|2", N_("the figure spans one column (8.5 cm, default) or two (17.5 cm)") },
    { "title", 0, "TEXT", N_("a title above the figure (default: none)") },
    { "xlabel", 0, "TEXT", N_("the x axis' label (default: the parameter's title and unit)") },
    { "ylabel", 0, "TEXT", N_("the y axis' label (default: the result's title and unit)") },
    { "format", 'f', "FORMAT", N_("pdf, svg, png, csv, gnuplot or pgfplots (default: by OUT's "
                               "extension)") },
    { "output", 'o', "OUT", N_("write the figure to OUT (a regular file is replaced only "
                               "once complete)") },
    { "json", 0, NULL, N_("print the curves' points (x, y, lo, hi, runs) as JSON") },
    { "save", 0, "NAME", N_("keep the definition in the project under NAME") },
    { "name", 0, "NAME", N_("redraw the saved plot NAME (options given override it)") },
    { "list", 0, NULL, N_("list the experiment's saved plots") },
    { "delete", 0, "NAME", N_("delete the saved plot NAME") },
    { 0 },
};

static const CliCommand plot_cmd = {
    "plot", "PROJECT.flitlab EXPERIMENT --x KEY --y KEY [--series KEY] -o OUT | --json",
    N_("Plot an experiment's results: y against x, one curve per value of --series,\n"
    "each point the mean over its done runs (the seeds and the parameters not\n"
    "otherwise fixed) with its confidence interval (95 %). Failed, stopped and\n"
    "missing runs are no points. With --x cycle (or channel), --y is one of the\n"
    "runs' vectors, each sample's cycle (or each channel) a point. A figure for a\n"
    "paper: markers and dashes that stay distinct in grey, a legend that hides no\n"
    "data, labels with units."),
    plot_options, 2, 2, NULL,
};

_Static_assert(sizeof plot_options / sizeof plot_options[0] <= CLI_MAX_OPTIONS + 1,
               "plot has more options than CLI_MAX_OPTIONS");

static void print_result_keys(FILE *to)
{
    fprintf(to, _("\nResult keys (--y):\n"));
    for (int i = 0; i < fl_sim_result_key_count(); i++) {
        const FlSimResultKey *k = fl_sim_result_key(i);
        fprintf(to, "  %-24s %s%s%s%s\n", k->name, fl_gettext(k->title), *k->unit ? " (" : "",
                fl_gettext(k->unit), *k->unit ? ")" : "");
    }
    fprintf(to, _("\nVectors (--y, over --x cycle or --x channel):\n"));
    for (int i = 0; i < fl_experiment_vector_count(); i++) {
        const FlExperimentVectorInfo *v = fl_experiment_vector_info(i);
        fprintf(to, v->per_channel ? _("  %-24s by channel  %s%s%s%s\n")
                                   : _("  %-24s by cycle    %s%s%s%s\n"),
                v->name, fl_gettext(v->title), *v->unit ? " (" : "", fl_gettext(v->unit),
                *v->unit ? ")" : "");
    }
}

/* "NAME: Y against X by SERIES where FILTER", one whole sentence for each
 * combination, so that translators can order its parts. */
static void print_plot_line(const char *name, const FlPlotSpec *s)
{
    const char *y = s->y ? s->y : "?", *x = s->x ? s->x : "?";
    if (s->series && s->where)
        printf(_("%s: %s against %s by %s where %s\n"), name, y, x, s->series, s->where);
    else if (s->series)
        printf(_("%s: %s against %s by %s\n"), name, y, x, s->series);
    else if (s->where)
        printf(_("%s: %s against %s where %s\n"), name, y, x, s->where);
    else
        printf(_("%s: %s against %s\n"), name, y, x);
}

/* Sets *field to a copy of the option's value when it is given. */
static int override_text(const CliCommand *cmd, const CliParsed *p, const char *option,
                         char **field)
{
    const char *v = cli_value(cmd, p, option);
    if (!v)
        return CLI_OK;
    char *copy = strdup(v);
    if (!copy)
        return cli_error(CLI_FAIL, _("out of memory"));
    free(*field);
    *field = copy;
    return CLI_OK;
}

/* The definition: the saved one (--name) or a new one, with the options
 * given over it. */
static int make_spec(const CliCommand *cmd, const CliParsed *p, FlProject *project,
                     FlPlotSpec *s)
{
    static const struct {
        const char *option;
        size_t offset;
    } texts[] = {
        { "x", offsetof(FlPlotSpec, x) },           { "y", offsetof(FlPlotSpec, y) },
        { "series", offsetof(FlPlotSpec, series) }, { "where", offsetof(FlPlotSpec, where) },
        { "title", offsetof(FlPlotSpec, title) },   { "xlabel", offsetof(FlPlotSpec, xlabel) },
        { "ylabel", offsetof(FlPlotSpec, ylabel) },
    };
    const char *experiment = p->args[1], *name = cli_value(cmd, p, "name");
    FlError err = { 0 };
    fl_plot_spec_init(s);
    if (name) {
        char *text = NULL;
        int rc = fl_project_get_plot(project, experiment, name, &text, &err);
        int parsed = !rc && fl_plot_spec_parse(text, s, &err) == FL_OK;
        free(text);
        if (rc)
            return cli_engine_error(&err);
        if (!parsed)
            return cli_error(CLI_FAIL, _("saved plot '%s': %s"), name, err.message);
    }
    int rc = CLI_OK;
    free(s->experiment);
    if (!(s->experiment = strdup(experiment)))
        return cli_error(CLI_FAIL, _("out of memory"));
    for (size_t i = 0; !rc && i < sizeof texts / sizeof texts[0]; i++)
        rc = override_text(cmd, p, texts[i].option, (char **)((char *)s + texts[i].offset));
    long columns = s->columns;
    if (rc || sim_int_option(cmd, p, "columns", 1, 2, &columns))
        return rc ? rc : CLI_USAGE;
    s->columns = (int)columns;
    if (cli_flag(cmd, p, "no-error-bars"))
        s->error_bars = 0;
    if (cli_flag(cmd, p, "xlog"))
        s->xlog = 1;
    if (cli_flag(cmd, p, "ylog"))
        s->ylog = 1;
    if (!s->x || !s->y)
        return cli_error(CLI_USAGE, _("plot: give --x KEY and --y KEY, or --name NAME of a saved "
                                    "plot (see 'flitlab plot --help')"));
    return CLI_OK;
}

static json_t *number_json(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *data_json(const FlPlotSpec *s, const FlPlotData *d)
{
    json_t *curves = json_array();
    for (int c = 0; c < d->ncurves; c++) {
        const FlPlotCurve *cv = &d->curves[c];
        json_t *points = json_array();
        for (int i = 0; i < cv->n; i++) {
            json_t *pt = json_object();
            json_object_set_new(pt, "x", number_json(cv->x[i]));
            int at = (int)cv->x[i];
            if (d->xnames && at >= 0 && at < d->nxnames)
                json_object_set_new(pt, "xname", json_string(d->xnames[at]));
            json_object_set_new(pt, "y", number_json(cv->y[i]));
            json_object_set_new(pt, "lo", number_json(cv->lo[i]));
            json_object_set_new(pt, "hi", number_json(cv->hi[i]));
            json_object_set_new(pt, "runs", json_integer(cv->runs[i]));
            json_array_append_new(points, pt);
        }
        json_array_append_new(curves, json_pack("{s:o, s:o}", "label",
                                                cv->label ? json_string(cv->label)
                                                          : json_null(),
                                                "points", points));
    }
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:o}", "experiment", s->experiment, "x",
                     s->x, "y", s->y, "xlabel", d->xlabel, "ylabel", d->ylabel, "runs",
                     d->runs, "curves", curves);
}

static int list_plots(const CliCommand *cmd, const CliParsed *p, FlProject *project)
{
    char **names = NULL;
    int n = 0;
    FlError err = { 0 };
    if (fl_project_list_plots(project, p->args[1], &names, &n, &err))
        return cli_engine_error(&err);
    int as_json = cli_flag(cmd, p, "json"), rc = CLI_OK;
    json_t *list = as_json ? json_array() : NULL;
    for (int i = 0; !rc && i < n; i++) {
        char *text = NULL;
        FlPlotSpec s;
        if (fl_project_get_plot(project, p->args[1], names[i], &text, &err)
            || fl_plot_spec_parse(text, &s, &err))
            rc = cli_engine_error(&err);
        else if (as_json)
            json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s?, s:s?}", "name",
                                                  names[i], "x", s.x ? s.x : "", "y",
                                                  s.y ? s.y : "", "series", s.series, "where",
                                                  s.where));
        else
            print_plot_line(names[i], &s);
        if (!rc)
            fl_plot_spec_clear(&s);
        free(text);
    }
    fl_project_setting_keys_free(names, n);
    if (as_json && !rc)
        return cli_write_json(list, stdout);
    json_decref(list);
    return rc;
}

/* Writes the figure to out in format (NULL: by out's extension). */
static int write_figure(FlProject *project, const FlPlotSpec *s, const char *out,
                        const char *format)
{
#ifdef FL_HAVE_CAIRO
    FlError err = { 0 };
    if (fl_experiment_export_plot(project, s, out, format, &err))
        return cli_engine_error(&err);
    fprintf(stderr, _("plot: wrote %s\n"), out);
    return CLI_OK;
#else
    (void)project;
    (void)s;
    (void)format;
    return cli_error(CLI_FAIL, _("plot: this flitlab was built without cairo and cannot write "
                               "'%s': print the points with --json"), out);
#endif
}

/* Refuses, before the project is opened, a malformed --where and an
 * option that what the command does would ignore. */
static int check_options(const CliCommand *cmd, const CliParsed *p)
{
    /* --list and --delete read none of a plot's options. */
    static const char *const plot_only[] = {
        "x",      "y",    "series", "where", "columns", "title", "xlabel",        "ylabel",
        "format", "output", "save", "name",  "xlog",    "ylog",  "no-error-bars", NULL,
    };
    static const char *const figure_only[] = { "no-error-bars", "xlog", "ylog", "columns",
                                               "title", NULL };
    static const char *const not_delete[] = { "list", "json", NULL };
    const char *where = cli_value(cmd, p, "where"), *out = cli_value(cmd, p, "output");
    const char *del = cli_value(cmd, p, "delete");
    const char *mode = del ? "delete" : cli_flag(cmd, p, "list") ? "list" : NULL, *other = NULL;
    FlError err = { 0 };
    if (mode && !(other = cli_given(cmd, p, plot_only)) && del)
        other = cli_given(cmd, p, not_delete);
    if (other)
        return cli_error(CLI_USAGE, _("--%s does not go with --%s"), other, mode);
    if (where && *where && fl_plot_where_check(where, &err))
        return cli_option_error(&err, "where", "where");
    if (!out && cli_value(cmd, p, "format"))
        return cli_error(CLI_USAGE, _("--format goes with -o OUT"));
    if (!out && !cli_value(cmd, p, "save") && (other = cli_given(cmd, p, figure_only)))
        return cli_error(CLI_USAGE, _("--%s goes with -o OUT or --save NAME"), other);
    return CLI_OK;
}

static int run_plot(const CliCommand *cmd, const CliParsed *p)
{
    static const char *const formats[] = { "pdf", "svg", "png", "csv", "gnuplot", "pgfplots",
                                           NULL };
    int format = sim_choice_option(cmd, p, "format", formats, -2);
    if (format == -1 || check_options(cmd, p))
        return CLI_USAGE;
    FlProject *project = NULL;
    FlProjectExperiment e;
    FlError err = { 0 };
    memset(&e, 0, sizeof e);
    if (fl_project_open(p->args[0], &project, &err)
        || fl_project_get_experiment(project, p->args[1], &e, &err)) {
        fl_project_free(project);
        return cli_engine_error(&err);
    }
    fl_project_experiment_clear(&e);
    const char *out = cli_value(cmd, p, "output"), *save = cli_value(cmd, p, "save");
    const char *del = cli_value(cmd, p, "delete");
    int as_json = cli_flag(cmd, p, "json"), rc = CLI_OK;
    if (cli_flag(cmd, p, "list") || del) {
        if (del && fl_project_delete_plot(project, p->args[1], del, &err))
            rc = cli_engine_error(&err);
        else if (!del)
            rc = list_plots(cmd, p, project);
        fl_project_free(project);
        return rc;
    }
    FlPlotSpec s;
    FlPlotData d;
    memset(&d, 0, sizeof d);
    rc = make_spec(cmd, p, project, &s);
    if (!rc && !out && !as_json && !save)
        rc = cli_error(CLI_USAGE, _("plot: give -o OUT, --json or --save NAME"));
    if (!rc && fl_experiment_plot_data(project, &s, &d, &err))
        rc = cli_engine_error(&err);
    if (!rc && out)
        rc = write_figure(project, &s, out, format >= 0 ? formats[format] : NULL);
    char *text = NULL;
    if (!rc && save) {
        if (fl_plot_spec_format(&s, &text, &err)
            || fl_project_put_plot(project, p->args[1], save, text, &err))
            rc = cli_engine_error(&err);
        else
            fprintf(stderr, _("plot: saved '%s' in experiment %s\n"), save, p->args[1]);
    }
    if (!rc && as_json)
        rc = cli_write_json(data_json(&s, &d), stdout);
    free(text);
    fl_plot_data_clear(&d);
    fl_plot_spec_clear(&s);
    fl_project_free(project);
    return rc;
}

int cli_plot(int argc, char **argv)
{
    return cli_run_single(&plot_cmd, run_plot, print_result_keys, argc, argv);
}
