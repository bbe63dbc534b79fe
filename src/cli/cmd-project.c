/* cmd-project.c — `flitlab project`: create and fill .flitlab project files.
 * Every change is saved atomically (the store writes a temporary file and
 * renames it over the project), so an interrupted command never damages one. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "flitlab-store.h"

static const CliOption new_options[] = {
    { "force", 0, NULL, N_("replace an existing file") },
    { 0 },
};

static const CliCommand new_cmd = {
    "project new", "P.flitlab [--force]",
    N_("Create an empty project file. An existing file is kept unless --force is given."),
    new_options, 1, 1,
};

static int run_new(const CliCommand *cmd, const CliParsed *p)
{
    const char *path = p->args[0];
    struct stat st;
    if (!cli_flag(cmd, p, "force") && stat(path, &st) == 0)
        return cli_error(CLI_FAIL, _("'%s' already exists (use --force to replace it)"), path);
    FlError err = { 0 };
    FlProject *project = NULL;
    int rc = fl_project_new(&project, &err);
    if (!rc)
        rc = fl_project_save_as(project, path, &err);
    fl_project_free(project);
    return rc ? cli_engine_error(&err) : CLI_OK;
}

static const CliOption add_options[] = {
    { "name", 'n', "NAME", N_("name in the project (default: the spec or the file's name)") },
    { "replace", 0, NULL, N_("replace a topology of the same name") },
    { 0 },
};

static const CliCommand add_cmd = {
    "project add", "P.flitlab SPEC|FILE|OTHER.flitlab#NAME [--name NAME]",
    N_("Add a network to a project, generated from a spec or read from a file."),
    add_options, 2, 2,
};

/* The default name: the canonical spec, else the file name without its
 * directory and extension. */
static void default_name(const FlTopology *t, const char *what, char *buf, size_t size)
{
    const char *spec = fl_topology_spec(t);
    if (spec) {
        snprintf(buf, size, "%s", spec);
        return;
    }
    const char *base = strrchr(what, '/');
    base = base ? base + 1 : what;
    snprintf(buf, size, "%s", base);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf)
        *dot = '\0';
}

static int run_add(const CliCommand *cmd, const CliParsed *p)
{
    const char *path = p->args[0], *what = p->args[1];
    FlError err = { 0 };
    FlTopology *t = NULL;
    FlProject *project = NULL;
    char name[256];

    /* Open the project first: a missing project should be reported before
     * generating a large network. */
    int rc = fl_project_open(path, &project, &err);
    if (!rc)
        rc = cli_load_topology(what, &t, &err);
    if (!rc) {
        const char *given = cli_value(cmd, p, "name");
        if (given)
            snprintf(name, sizeof name, "%s", given);
        else
            default_name(t, what, name, sizeof name);
        rc = fl_topology_set_name(t, name);
        if (rc)
            fl_error_set(&err, rc, "out of memory");
    }
    if (!rc)
        rc = fl_project_put_topology(project, name, t, cli_flag(cmd, p, "replace"), &err);
    if (!rc)
        rc = fl_project_save(project, &err);
    fl_topology_free(t);
    fl_project_free(project);
    return rc ? cli_engine_error(&err) : CLI_OK;
}

static const CliOption ls_options[] = {
    { "json", 0, NULL, N_("print a JSON array") },
    { 0 },
};

static const CliCommand ls_cmd = {
    "project ls", "P.flitlab [--json]",
    N_("List the topologies in a project, in the order they were added."),
    ls_options, 1, 1,
};

static int run_ls(const CliCommand *cmd, const CliParsed *p)
{
    FlError err = { 0 };
    FlProject *project = NULL;
    FlProjectTopologyInfo *items = NULL;
    int n = 0;
    int rc = fl_project_open(p->args[0], &project, &err);
    if (!rc)
        rc = fl_project_list_topologies(project, &items, &n, &err);
    fl_project_free(project);
    if (rc)
        return cli_engine_error(&err);

    if (cli_flag(cmd, p, "json")) {
        json_t *arr = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(arr, json_pack(
                "{s:s, s:s, s:o, s:i, s:i, s:i, s:s, s:s}", "name", items[i].name,
                "family", items[i].family,
                "spec", items[i].spec ? json_string(items[i].spec) : json_null(),
                "switches", items[i].switches, "hosts", items[i].hosts,
                "links", items[i].links, "created", items[i].created,
                "modified", items[i].modified));
        char *text = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        if (text)
            printf("%s\n", text);
        free(text);
        json_decref(arr);
    } else if (n == 0) {
        printf(_("(no topologies)\n"));
    } else {
        /* Size the name column to the longest name (bytes: names are
         * usually ASCII, and a wide name only shifts its own row). */
        int w = 4;
        for (int i = 0; i < n; i++) {
            int len = (int)strlen(items[i].name);
            w = len > w ? len : w;
        }
        printf("%-*s  %-12s %8s %8s %8s\n", w, "NAME", "FAMILY", "SWITCHES", "HOSTS", "LINKS");
        for (int i = 0; i < n; i++)
            printf("%-*s  %-12s %8d %8d %8d\n", w, items[i].name, items[i].family,
                   items[i].switches, items[i].hosts, items[i].links);
    }
    fl_project_topology_info_free(items, n);
    return CLI_OK;
}

static const CliOption rm_options[] = { { 0 } };

static const CliCommand rm_cmd = {
    "project rm", "P.flitlab NAME", N_("Remove a topology from a project."), rm_options, 2, 2,
};

static int run_rm(const CliCommand *cmd, const CliParsed *p)
{
    FlError err = { 0 };
    FlProject *project = NULL;
    int rc = fl_project_open(p->args[0], &project, &err);
    if (!rc)
        rc = fl_project_delete_topology(project, p->args[1], &err);
    if (!rc)
        rc = fl_project_save(project, &err);
    fl_project_free(project);
    return rc ? cli_engine_error(&err) : CLI_OK;
}

static const CliSub project_subs[] = {
    { &new_cmd, run_new },
    { &add_cmd, run_add },
    { &ls_cmd, run_ls },
    { &rm_cmd, run_rm },
    { 0 },
};

int cli_project(int argc, char **argv)
{
    return cli_run_group("project", _("Create and fill .flitlab project files."), project_subs,
                         argc, argv);
}
