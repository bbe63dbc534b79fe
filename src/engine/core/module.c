/* module.c — finds, loads and checks modules (flitlab/module.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "flitlab.h"

int fl_module_table(FlModule *m, const void **table, FlError *err)
{
    int rc = FL_OK;
    pthread_mutex_lock(&m->lock);
    if (m->table) {
        *table = m->table;
        pthread_mutex_unlock(&m->lock);
        return FL_OK;
    }
    char file[256], path[4096], symbol[256];
    snprintf(file, sizeof file, "flitlab-%s.so", m->name);
    snprintf(symbol, sizeof symbol, "flitlab_module_%s", m->name);
    const char *dir = getenv("FLITLAB_MODULE_DIR");
    snprintf(path, sizeof path, "%s%s%s", dir && *dir ? dir : "", dir && *dir ? "/" : "", file);
    /* Never closed: the module's libraries keep state (igraph's error
     * handlers, for one) that outlives a call, and unloading them buys
     * nothing in a process that has just needed them. */
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const int *abi = handle ? dlsym(handle, symbol) : NULL;
    /* dlerror() names the path it tried. */
    if (!abi)
        rc = fl_error_set(err, FL_EIO, "cannot load the module %s, which holds %s: %s", file,
                          fl_gettext(m->holds), dlerror());
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
