/* cmd-lesson.c — `flitlab lesson`: check lesson files and list them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "flitlab-lesson.h"

/* Calls visit(path, data) for every *.lesson of dir, in name order; returns
 * the worst status visit returned, or CLI_FAIL when dir cannot be read. */
static int each_lesson(const char *dir, int (*visit)(const char *path, void *data), void *data)
{
    FlError err = { 0 };
    char **paths = NULL;
    int n = 0;
    if (fl_lesson_list(dir, &paths, &n, &err))
        return cli_engine_error(&err);
    int status = CLI_OK;
    for (int i = 0; i < n; i++) {
        int rc = visit(paths[i], data);
        if (rc > status)
            status = rc;
    }
    fl_lesson_paths_free(paths);
    if (n == 0)
        return cli_error(CLI_FAIL, _("no *.lesson file in '%s'"), dir);
    return status;
}

/* ---- lesson check --------------------------------------------------------- */

static const CliOption check_options[] = {
    { 0 },
};

static const CliCommand check_cmd = {
    "lesson check", "FILE|DIR...",
    N_("Read lesson files (a directory: every *.lesson in it) and check them against\n"
    "the engine: the XML and its elements, the network spec, the routing and its\n"
    "options, the simulation settings, the highlighted switches, links and\n"
    "channels. Prints 'ok FILE (N steps)' for each good one and the line and\n"
    "problem of each bad one; fails if any is bad."),
    check_options, 1, CLI_MAX_ARGS,
};

static int check_one(const char *path, void *data)
{
    (void)data;
    FlError err = { 0 };
    FlLesson *l = NULL;
    int rc = fl_lesson_read(path, &l, &err);
    if (!rc)
        rc = fl_lesson_check(l, &err);
    if (rc) {
        fl_lesson_free(l);
        return cli_engine_error(&err);
    }
    printf(ngettext("ok %s (%d step)\n", "ok %s (%d steps)\n", l->n_steps), path, l->n_steps);
    fl_lesson_free(l);
    return CLI_OK;
}

static int run_check(const CliCommand *cmd, const CliParsed *p)
{
    (void)cmd;
    int status = CLI_OK;
    for (int i = 0; i < p->nargs; i++) {
        struct stat st;
        int is_dir = stat(p->args[i], &st) == 0 && S_ISDIR(st.st_mode);
        int rc = is_dir ? each_lesson(p->args[i], check_one, NULL) : check_one(p->args[i], NULL);
        if (rc > status)
            status = rc;
    }
    return status;
}

/* ---- lesson ls ------------------------------------------------------------ */

static const CliOption ls_options[] = {
    { 0 },
};

static const CliCommand ls_cmd = {
    "lesson ls", "[DIR]",
    N_("List the lessons in DIR (default: the installed lessons, or $FLITLAB_LESSONS_DIR\n"
    "when it is set): id, steps and title. Files that cannot be read are reported\n"
    "and make the command fail."),
    ls_options, 0, 1,
};

static int list_one(const char *path, void *data)
{
    (void)data;
    FlError err = { 0 };
    FlLesson *l = NULL;
    if (fl_lesson_read(path, &l, &err))
        return cli_engine_error(&err);
    char steps[64];
    snprintf(steps, sizeof steps, ngettext("%3d step", "%3d steps", l->n_steps), l->n_steps);
    /* The title is a msgid of the lesson file (po/its/lesson.its). */
    printf("%-24s %s  %s\n", l->id, cli_label(steps, 9), fl_gettext(l->title));
    fl_lesson_free(l);
    return CLI_OK;
}

static int run_ls(const CliCommand *cmd, const CliParsed *p)
{
    (void)cmd;
    return each_lesson(p->nargs ? p->args[0] : fl_lesson_dir(), list_one, NULL);
}

static const CliSub lesson_subs[] = {
    { &check_cmd, run_check },
    { &ls_cmd, run_ls },
    { 0 },
};

int cli_lesson(int argc, char **argv)
{
    return cli_run_group("lesson", _("Check and list guided lessons (data/lessons/*.lesson)."),
                         lesson_subs, argc, argv);
}
