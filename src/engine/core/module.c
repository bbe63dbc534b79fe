/* module.c — finds, loads and checks the engine's modules (module.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "module.h"

int fl__module_table(FlModule *m, const void **table, FlError *err)
{
    int rc = FL_OK;
    pthread_mutex_lock(&m->lock);
    if (m->table) {
        *table = m->table;
        pthread_mutex_unlock(&m->lock);
        return FL_OK;
    }
    char path[4096];
    const char *dir = getenv("FLITLAB_MODULE_DIR");
    if (dir && *dir)
        snprintf(path, sizeof path, "%s/flitlab-%s.so", dir, m->name);
    else
        snprintf(path, sizeof path, "flitlab-%s.so", m->name);
    /* Never closed: the module's libraries keep state (igraph's error
     * handlers, for one) that outlives a call, and unloading them buys
     * nothing in a process that has just needed them. */
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const int *abi = handle ? dlsym(handle, "flitlab_module") : NULL;
    if (!abi)
        rc = fl_error_set(err, FL_EIO, "cannot load the module %s, which holds %s: %s", path,
                          m->holds, dlerror());
    else if (*abi != m->abi)
        rc = fl_error_set(err, FL_EIO, "the module %s is from another version of Flitlab "
                          "(interface %d, this program needs %d)", path, *abi, m->abi);
    else
        *table = m->table = abi;
    if (handle && rc)
        dlclose(handle);
    pthread_mutex_unlock(&m->lock);
    return rc;
}
