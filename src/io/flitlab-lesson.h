/* flitlab-lesson.h — guided lessons: data files a teacher writes, read and checked.
 *
 * Plain C with libxml2, no GLib. A lesson is an XML file, data/lessons/ID.lesson:
 *
 *   <lesson id="deadlock-ring" version="1">
 *     <title>Routing and deadlock on a ring</title>
 *     <summary>One line for the lessons list.</summary>
 *     <network spec="ring:8"/>                   a generator spec (required)
 *     <routing name="dor" options="classes=1"/>  optional; options as KEY=VALUE words
 *     <settings>rate=0.2 packet=8</settings>     optional; simulation settings, KEY=VALUE
 *     <step>                                     one or more, at most FL_LESSON_MAX_STEPS
 *       <title>...</title>
 *       <p>...</p>                               one or more paragraphs of plain text
 *       <show tab="routing"/>                    optional: the view the step opens
 *       <highlight nodes="0 1" links="0-1" channels="7>0"/>   optional
 *       <collective kind="multicast" algorithm="opt-mesh"
 *                   options="source=14 dests=5,30"/>   optional: prepares the
 *                                                      Collectives tab's page
 *       <question>...</question>                 optional; then <answer> is required
 *       <answer>...</answer>
 *     </step>
 *   </lesson>
 *
 * Title, summary, step titles, paragraphs, questions and answers are the
 * translatable text (po/its/lesson.its); they hold plain text only, no
 * elements. The reader collapses their white space as xgettext does (runs of
 * spaces, tabs and newlines become one space, none at either end), so the
 * strings here are the msgids a front end passes to gettext. They may not
 * hold '&', '<' or '>', which xgettext writes escaped (as &amp;...) and the
 * lookup would miss: prose writes a channel 6→7. Nodes are
 * switch labels, the numbers pictures show (on a generated network, the
 * ids); a link "A-B" joins A and B, a channel "A>B" goes from A to B.
 * Routing options take the names `flitlab route` gives its flags without
 * the dashes, except classes (--vcs there): root, classes, order, prohibit.
 *
 * Every message starts with "FILE:LINE: " (the label given to the parser)
 * and names the problem: malformed XML, an unknown element or attribute, a
 * missing one, a question without its answer, an unknown tab, a file or a
 * list too large. fl_lesson_check() then checks what the engine can: the
 * network generates, the routing accepts its options on it, the settings
 * parse, the highlighted nodes, links and channels exist, and every
 * collective is one the engine makes on the lesson's network.
 *
 * A collective's kind is a page of the Collectives tab; its algorithm and
 * options are named as the commands `flitlab multicast`, `flitlab
 * alltoall` and `flitlab schedule` name them (KEY=VALUE words):
 *   multicast  sequential, chain, binomial, opt-tree, u-mesh, opt-mesh;
 *              source=H dests=H1,H2,... (host numbers), or random=K
 *              [seed=X] (and a source drawn too unless given), t-hold=T
 *              t-end=T (default 20 and 55, paper 001's example); u-mesh
 *              and opt-mesh need a 2D mesh and the lesson's routing dor
 *   exchange   sem or direct; n=N (the network must be torus:NxN),
 *              step=S (the step shown, 0 = before the first), node=X (the
 *              node whose messages are shown, i N + j)
 *   schedule   assigncolor, greedy or exact; pattern=uniform|permutation|
 *              hotspot|top-down random=K seed=X (on myrinet-line or
 *              myrinet-mesh networks)
 */
#ifndef FLITLAB_LESSON_H
#define FLITLAB_LESSON_H

#include <stddef.h>
#include <stdint.h>

#include "flitlab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FL_LESSON_FORMAT_VERSION 1
#define FL_LESSON_MAX_BYTES ((size_t)4 << 20)
#define FL_LESSON_MAX_STEPS 200
/* Nodes, links or channels in one highlight attribute. */
#define FL_LESSON_MAX_HIGHLIGHT 1024

/* The views a step can open, as the application names its tabs. */
typedef enum FlLessonTab {
    FL_LESSON_TAB_NONE = 0,   /* the step leaves the view as it is */
    FL_LESSON_TAB_NETWORK,
    FL_LESSON_TAB_METRICS,
    FL_LESSON_TAB_ROUTING,
    FL_LESSON_TAB_SIMULATE,
    FL_LESSON_TAB_COLLECTIVES,
    FL_LESSON_TAB_EXPERIMENTS
} FlLessonTab;

/* "network", "routing"...; NULL for FL_LESSON_TAB_NONE or a bad value. */
const char *fl_lesson_tab_name(FlLessonTab tab);

/* The pages of the Collectives tab a step can prepare. */
typedef enum FlLessonCollectiveKind {
    FL_LESSON_COLLECTIVE_NONE = 0,
    FL_LESSON_COLLECTIVE_MULTICAST,
    FL_LESSON_COLLECTIVE_EXCHANGE,
    FL_LESSON_COLLECTIVE_SCHEDULE
} FlLessonCollectiveKind;

/* "multicast", "exchange", "schedule"; NULL for NONE or a bad value. */
const char *fl_lesson_collective_name(FlLessonCollectiveKind kind);

/* A step's <collective>, as written. */
typedef struct FlLessonCollective {
    FlLessonCollectiveKind kind;    /* NONE: the step prepares none */
    char *algorithm;                /* the engine's name */
    char *options;                  /* KEY=VALUE words, or NULL */
    int line;
} FlLessonCollective;

/* A schedule's requests, in the order of the Schedule page's choices. */
typedef enum FlLessonPattern {
    FL_LESSON_PATTERN_UNIFORM,
    FL_LESSON_PATTERN_PERMUTATION,
    FL_LESSON_PATTERN_HOTSPOT,
    FL_LESSON_PATTERN_TOP_DOWN
} FlLessonPattern;

/* A collective's options, read; what the text leaves out has the value
 * shown. */
typedef struct FlLessonCollectiveOptions {
    int source;                 /* multicast: a host, -1 */
    int *dests;                 /* multicast: hosts, NULL */
    int n_dests;                /* 0 */
    int random;                 /* multicast, schedule: K, 0 */
    uint64_t seed;              /* 1 */
    double t_hold, t_end;       /* multicast: 20, 55 */
    int n;                      /* exchange: N, 0 */
    int step, node;             /* exchange: -1 */
    FlLessonPattern pattern;    /* schedule: uniform */
} FlLessonCollectiveOptions;

/* Two switch labels: a link's ends, or a channel's source and destination. */
typedef struct FlLessonPair {
    int a, b;
} FlLessonPair;

typedef struct FlLessonStep {
    char *title;
    char **paragraphs;          /* n_paragraphs >= 1 */
    int n_paragraphs;
    FlLessonTab tab;
    int *nodes;                 /* switch labels */
    int n_nodes;
    FlLessonPair *links;        /* undirected */
    int n_links;
    FlLessonPair *channels;     /* directed: a to b */
    int n_channels;
    char *question;             /* NULL when the step asks nothing */
    char *answer;               /* set exactly when question is */
    int line;                   /* of <step>, for messages */
    int highlight_line;
    FlLessonCollective collective;
} FlLessonStep;

/* A lesson as read; every string is owned by it. Optional parts are NULL. */
typedef struct FlLesson {
    char *label;                /* the file, as messages name it */
    char *id;                   /* [a-z0-9-], the file's name without .lesson */
    int version;
    char *title;
    char *summary;              /* NULL when absent */
    char *network;              /* generator spec */
    char *routing;              /* routing name, or NULL */
    char *routing_options;      /* KEY=VALUE words, or NULL */
    char *settings;             /* KEY=VALUE words, or NULL */
    FlLessonStep *steps;
    int n_steps;
    int network_line, routing_line, settings_line;
} FlLesson;

/* Parses len bytes of XML; label names it in messages (a path, or any word).
 * Errors: FL_EPARSE (malformed XML, or not a valid lesson), FL_EVERSION
 * (version above FL_LESSON_FORMAT_VERSION), FL_ERANGE (too large),
 * FL_ENOMEM. *out is NULL after a failure. */
int fl_lesson_parse(const char *xml, size_t len, const char *label, FlLesson **out,
                    FlError *err);

/* Reads the file at path (at most FL_LESSON_MAX_BYTES) as fl_lesson_parse()
 * does, with path as the label; FL_EIO when it cannot be read. */
int fl_lesson_read(const char *path, FlLesson **out, FlError *err);

void fl_lesson_free(FlLesson *l);

/* Builds the lesson's network into *out (the caller frees it). */
int fl_lesson_topology(const FlLesson *l, FlTopology **out, FlError *err);

/* Parses the lesson's routing options into *opt (fl_routing_options_init()'d
 * here; free with fl_routing_options_clear()), refusing an option its
 * routing does not take. */
int fl_lesson_routing_options(const FlLesson *l, FlRoutingOptions *opt, FlError *err);

/* Applies the lesson's settings, in order, on top of what s holds. */
int fl_lesson_apply_settings(const FlLesson *l, FlSimSettings *s, FlError *err);

/* Checks the lesson against the engine: the network generates, the
 * routing (if any) is built on it with its options, the settings parse on
 * fresh settings, every highlighted node, link and channel exists, and a
 * label ending in ".lesson" is the file ID.lesson. FL_OK or the first
 * problem, with its line. */
int fl_lesson_check(const FlLesson *l, FlError *err);

/* Reads c's options into *o (which needs no initializing; clear it with
 * fl_lesson_collective_options_clear(), also after a failure): an unknown
 * key, a bad value or keys that do not go together fail with the line. */
int fl_lesson_collective_options(const FlLesson *l, const FlLessonCollective *c,
                                 FlLessonCollectiveOptions *o, FlError *err);
void fl_lesson_collective_options_clear(FlLessonCollectiveOptions *o);

/* The directory of the installed lessons: $FLITLAB_LESSONS_DIR when it is
 * set and not empty (an uninstalled build, the tests), else the directory
 * the build installs data/lessons to (DATADIR/flitlab/lessons). */
const char *fl_lesson_dir(void);

/* The paths "DIR/NAME.lesson" of the lesson files of dir (not hidden,
 * ending in .lesson), in name order, as a NULL-terminated array of *n
 * strings; free it with fl_lesson_paths_free(). FL_EIO when dir cannot be
 * read; an empty directory gives *n == 0. */
int fl_lesson_list(const char *dir, char ***paths, int *n, FlError *err);

void fl_lesson_paths_free(char **paths);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_LESSON_H */
