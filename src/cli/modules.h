/* modules.h — the parts of `flitlab` that load big libraries, each in a
 * module loaded by the command that needs it (flitlab/module.h), so that
 * `flitlab sim` and the other engine commands start without them:
 *
 *   flitlab-lessons.so   the lesson command (libxml2)
 *   flitlab-store.so     PROJECT.flitlab#NAME arguments: the project file
 *                        (SQLite)
 *   flitlab-pictures.so  the pictures of topo export, route, turns and sim:
 *                        the drawing library (cairo, giflib)
 *   flitlab-projects.so  the project, experiment and plot commands, over the
 *                        two above, which it links
 *
 * A module holds its own layers (src/modules/meson.build) and calls the
 * program for the rest (the engine, the file readers, the option parser):
 * the program holds those whole and exports their symbols, so that every
 * function is in the process once. Each table below is defined in the
 * module (NAME-module.c) and fetched by one loader file in the program
 * (NAME-loader.c); a loader that cannot load its module prints "flitlab:
 * cannot load the module ..." and the command fails.
 */
#ifndef FLITLAB_CLI_MODULES_H
#define FLITLAB_CLI_MODULES_H

#include "cli.h"

/* ---- flitlab-lessons ------------------------------------------------------ */

#define CLI_LESSONS_ABI 1

typedef struct CliLessonsModule {
    int abi; /* CLI_LESSONS_ABI */
    int (*lesson)(int argc, char **argv);
} CliLessonsModule;

/* `flitlab lesson ARGS`, run by the module (lessons-loader.c). */
int cli_run_lesson(int argc, char **argv);

/* ---- flitlab-projects ----------------------------------------------------- */

#define CLI_PROJECTS_ABI 1

typedef struct CliProjectsModule {
    int abi; /* CLI_PROJECTS_ABI */
    int (*project)(int argc, char **argv);
    int (*experiment)(int argc, char **argv);
    int (*plot)(int argc, char **argv);
} CliProjectsModule;

/* Those commands, run by the module (projects-loader.c). */
int cli_run_project(int argc, char **argv);
int cli_run_experiment(int argc, char **argv);
int cli_run_plot(int argc, char **argv);

/* ---- flitlab-store -------------------------------------------------------- */

#define CLI_STORE_ABI 1

typedef struct CliStoreModule {
    int abi; /* CLI_STORE_ABI */
    /* The topology NAME of the project file path (load.c's PROJECT#NAME). */
    int (*load_topology)(const char *path, const char *name, FlTopology **out, FlError *err);
} CliStoreModule;

/* That lookup, by the module (store-loader.c). */
int cli_project_topology(const char *path, const char *name, FlTopology **out, FlError *err);

/* ---- flitlab-pictures ----------------------------------------------------- */

#ifdef FL_HAVE_CAIRO
#include "flitlab-draw.h"

#define CLI_PICTURES_ABI 1

/* The drawing library's functions the commands call, as flitlab-draw.h
 * describes them. */
typedef struct CliPicturesModule {
    int abi; /* CLI_PICTURES_ABI */
    int (*check_format)(const char *path, const char *format, FlError *err);
    void (*page_init)(FlDrawPage *p);
    void (*routing_init)(FlDrawRouting *r);
    int (*export_routing_page)(const FlTopology *t, const FlDrawRouting *r,
                               const FlDrawPage *page, const char *path, const char *format,
                               FlError *err);
    void (*flits_init)(FlDrawFlits *f);
    void (*frame_caption)(const FlSim *sim, char *buf, size_t size);
    int (*export_flits_page)(const FlTopology *t, const FlDrawFlits *f, const FlDrawPage *page,
                             const char *path, const char *format, FlError *err);
    void (*animation_init)(FlDrawAnimation *a);
    int (*animate)(FlSim *sim, const FlTopology *t, const FlDrawAnimation *a, int *frames,
                   FlError *err);
} CliPicturesModule;

/* The module's table, or NULL once the error is printed (pictures-loader.c). */
const CliPicturesModule *cli_pictures(void);

/* A picture's page from --width, --height, --dpi and --title (those of
 * them cmd has; the others keep draw->page_init()'s values). Prints an
 * error naming the option and returns CLI_USAGE for a bad value. */
int cli_page_options(const CliCommand *cmd, const CliParsed *p, const CliPicturesModule *draw,
                     FlDrawPage *page);
/* Those options' names, for cli_given(): a command refuses them where it
 * draws nothing. */
extern const char *const cli_page_option_names[];
#endif

#endif /* FLITLAB_CLI_MODULES_H */
