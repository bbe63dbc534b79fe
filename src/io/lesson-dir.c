/* lesson-dir.c — where the lessons are, and which files in a directory are lessons. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-lesson.h"

#ifndef FLITLAB_LESSONS_DIR
#error "the build defines FLITLAB_LESSONS_DIR, where data/lessons is installed"
#endif

const char *fl_lesson_dir(void)
{
    /* The environment lets an uninstalled build and the tests use the
     * source tree's lessons. */
    const char *env = getenv("FLITLAB_LESSONS_DIR");
    return env && *env ? env : FLITLAB_LESSONS_DIR;
}

static int is_lesson_file(const struct dirent *d)
{
    size_t n = strlen(d->d_name), ext = strlen(".lesson");
    return d->d_name[0] != '.' && n > ext && strcmp(d->d_name + n - ext, ".lesson") == 0;
}

void fl_lesson_paths_free(char **paths)
{
    if (!paths)
        return;
    for (char **p = paths; *p; p++)
        free(*p);
    free(paths);
}

int fl_lesson_list(const char *dir, char ***paths, int *n, FlError *err)
{
    *paths = NULL;
    *n = 0;
    struct dirent **names = NULL;
    int count = scandir(dir, &names, is_lesson_file, alphasort);
    if (count < 0)
        return fl_error_set(err, FL_EIO, "cannot read the lessons directory '%s': %s", dir,
                            strerror(errno));
    char **out = calloc((size_t)count + 1, sizeof *out);
    int rc = out ? FL_OK : fl_error_set(err, FL_ENOMEM, "out of memory listing '%s'", dir);
    for (int i = 0; i < count; i++) {
        if (!rc) {
            size_t len = strlen(dir) + 1 + strlen(names[i]->d_name) + 1;
            out[i] = malloc(len);
            if (out[i])
                snprintf(out[i], len, "%s/%s", dir, names[i]->d_name);
            else
                rc = fl_error_set(err, FL_ENOMEM, "out of memory listing '%s'", dir);
        }
        free(names[i]);
    }
    free(names);
    if (rc) {
        fl_lesson_paths_free(out);
        return rc;
    }
    *paths = out;
    *n = count;
    return FL_OK;
}
