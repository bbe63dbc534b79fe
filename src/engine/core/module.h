/* module.h — the engine's optional parts, loaded at first use.
 *
 * igraph (random irregular networks and their layout) and METIS (bisection
 * of irregular networks) bring two dozen shared libraries between them, and
 * loading those is most of a short command's run. Each lives in a module,
 * modules/flitlab-NAME.so, whose one exported symbol "flitlab_module" is a
 * table of plain-C functions that take and return plain data (no engine
 * types: a module never calls back into the engine). A program that never
 * uses the part never loads the module or its libraries.
 *
 * The module's directory is $FLITLAB_MODULE_DIR when set (the tests, and
 * sanitizer builds whose dlopen ignores the program's run path), else the
 * program's run path: the build tree's src/engine/modules before install,
 * LIBDIR/flitlab after (see src/engine/modules/meson.build).
 */
#ifndef FLITLAB_MODULE_H
#define FLITLAB_MODULE_H

#include <pthread.h>

#include "flitlab.h"

/* One module, its table loaded once per process. Every table starts with
 * its interface version (an int), which must equal abi. */
typedef struct FlModule {
    const char *name;        /* "irregular": the file flitlab-irregular.so */
    const char *holds;       /* for messages: "random irregular networks (igraph)" */
    int abi;
    pthread_mutex_t lock;
    const void *table;
} FlModule;

#define FL_MODULE_INIT(name, holds, abi) { name, holds, abi, PTHREAD_MUTEX_INITIALIZER, NULL }

/* Sets *table to m's table, loading the module on the first call. Returns
 * FL_OK, or FL_EIO when the file is missing or of another version. */
int fl__module_table(FlModule *m, const void **table, FlError *err);

#endif /* FLITLAB_MODULE_H */
