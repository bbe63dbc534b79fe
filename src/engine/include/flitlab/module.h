/* flitlab/module.h — optional parts of a program, loaded at first use.
 *
 * Part of the engine's public API: include "flitlab.h", which includes this.
 *
 * A library that brings many others (igraph, METIS, cairo, SQLite, libxml2)
 * lives in a module, flitlab-NAME.so, whose symbol "flitlab_module_NAME" is
 * a table of functions: a program that never uses the part never loads the
 * module or its libraries, and starts in a millisecond.
 * The engine's modules (igraph's irregular networks, METIS's bisection)
 * take and return plain data; the command line's call back into the program
 * that loads them (src/cli/modules.h).
 *
 * The module's directory is $FLITLAB_MODULE_DIR when set (the tests, and
 * sanitizer builds, whose dlopen ignores the program's run path), else the
 * program's run path: the build tree's src/modules before install,
 * LIBDIR/flitlab after (src/meson.build, src/modules/meson.build).
 *
 * The one piece of process-wide state of the engine besides igraph's lock:
 * each FlModule is a static of the file that loads it, filled once.
 */
#ifndef FLITLAB_MODULE_H
#define FLITLAB_MODULE_H

#include <pthread.h>

#include "errors.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One module, its table loaded once per process. Every table starts with
 * its interface version (an int), which must equal abi. */
typedef struct FlModule {
    const char *name;  /* "irregular": the file flitlab-irregular.so */
    const char *holds; /* for messages, marked for translation: "random irregular networks" */
    int abi;
    pthread_mutex_t lock;
    const void *table;
} FlModule;

#define FL_MODULE_INIT(name, holds, abi) { name, holds, abi, PTHREAD_MUTEX_INITIALIZER, NULL }

/* Sets *table to m's table, loading the module on the first call; safe from
 * any thread. Returns FL_OK, or FL_EIO when the file is missing or of
 * another version (the message names the file and what it holds). */
int fl_module_table(FlModule *m, const void **table, FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_MODULE_H */
