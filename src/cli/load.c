/* load.c — what a topology argument can be: a generator spec (torus:8x8), a
 * topology file (Flitlab JSON or BookSim anynet), "-" for such a file on
 * standard input, or PROJECT.flitlab#NAME. */
#include <string.h>
#include <sys/stat.h>

#include "flitlab-io.h"
#include "modules.h"

static int load_from_project(const char *what, const char *hash, FlTopology **out,
                             FlError *err)
{
    char path[4096];
    size_t len = (size_t)(hash - what);
    if (len >= sizeof path)
        return fl_error_set(err, FL_EINVAL, "project path too long");
    memcpy(path, what, len);
    path[len] = '\0';
    const char *name = hash + 1;
    if (!*name)
        return fl_error_set(err, FL_EINVAL,
                            "'%s' names no topology: write PROJECT.flitlab#NAME", what);
    return cli_project_topology(path, name, out, err);
}

int cli_load_topology(const char *what, FlTopology **out, FlError *err)
{
    struct stat st;
    if (!what || !*what)
        return fl_error_set(err, FL_EINVAL, "no topology given");

    /* As for every command that reads files: a file called "-" is "./-". */
    if (strcmp(what, "-") == 0)
        return fl_io_read_file(what, out, err);

    /* A project reference wins over a spec: project names may hold ':'. */
    const char *hash = strstr(what, ".flitlab#");
    if (hash)
        return load_from_project(what, hash + strlen(".flitlab"), out, err);

    if (stat(what, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return fl_error_set(err, FL_EIO, "'%s' is a directory, not a topology file", what);
        size_t n = strlen(what);
        if (n > 8 && strcmp(what + n - 8, ".flitlab") == 0)
            return fl_error_set(err, FL_EINVAL,
                                "'%s' is a project: name one of its topologies as %s#NAME "
                                "(see 'flitlab project ls %s')", what, what, what);
        return fl_io_read_file(what, out, err);
    }
    if (strchr(what, ':'))
        return fl_topology_from_spec(what, out, err);
    /* Neither a file nor obviously a spec: let the spec parser say what is
     * wrong if the word names a family ("mesh" without a size), else say the
     * file is missing. */
    if (fl_family_lookup(what))
        return fl_topology_from_spec(what, out, err);
    return fl_error_set(err, FL_ENOTFOUND,
                        "'%s' is neither a topology spec (like torus:8x8) nor an existing file",
                        what);
}
