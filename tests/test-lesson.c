/* test-lesson.c — lesson files: the shipped lessons read and check, bad ones
 * are refused with their line and problem, truncated ones never crash.
 *
 * `test-lesson --strings FILE` prints the lesson's translatable strings, one a
 * line, for test-cli-lesson.sh to compare with what xgettext extracts. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab-lesson.h"
#include "tap.h"

#define HEAD "<lesson id=\"t\" version=\"1\"><title>T</title><network spec=\"ring:8\"/>"
#define STEP "<step><title>S</title><p>P</p></step>"

static char *source_path(const char *rel)
{
    const char *src = getenv("FLITLAB_SOURCE_DIR");
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", src ? src : ".", rel);
    return buf;
}

static int print_strings(const char *path)
{
    FlError err = { 0 };
    FlLesson *l = NULL;
    if (fl_lesson_read(path, &l, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    printf("%s\n", l->title);
    if (l->summary)
        printf("%s\n", l->summary);
    for (int i = 0; i < l->n_steps; i++) {
        const FlLessonStep *s = &l->steps[i];
        printf("%s\n", s->title);
        for (int k = 0; k < s->n_paragraphs; k++)
            printf("%s\n", s->paragraphs[k]);
        if (s->question)
            printf("%s\n%s\n", s->question, s->answer);
    }
    fl_lesson_free(l);
    return 0;
}

static void test_shipped_lesson(void)
{
    FlError err = { 0 };
    FlLesson *l = NULL;
    const char *path = source_path("data/lessons/deadlock-ring.lesson");
    int rc = fl_lesson_read(path, &l, &err);
    CHECK(rc == FL_OK, "deadlock-ring reads: %s", err.message);
    if (rc)
        return;
    rc = fl_lesson_check(l, &err);
    CHECK(rc == FL_OK, "deadlock-ring checks: %s", err.message);
    CHECK(strcmp(l->id, "deadlock-ring") == 0, "id %s", l->id);
    CHECK(strcmp(l->network, "ring:8") == 0, "network %s", l->network);
    CHECK(l->routing && strcmp(l->routing, "dor") == 0, "routing dor");
    CHECK(l->routing_options && strcmp(l->routing_options, "classes=1") == 0,
          "routing options classes=1");
    CHECK(l->settings && strstr(l->settings, "rate=0.5"), "settings hold the rate");
    CHECK(l->n_steps >= 5 && l->n_steps <= 8, "%d steps", l->n_steps);
    CHECK_INT(l->steps[0].tab, FL_LESSON_TAB_NETWORK);
    CHECK_INT(l->steps[0].n_links, 1);
    CHECK(l->steps[0].links && l->steps[0].links[0].a == 7 && l->steps[0].links[0].b == 0,
          "the first step highlights the link 7-0");
    CHECK_INT(l->steps[2].n_channels, 8);
    CHECK(l->steps[2].question && l->steps[2].answer, "step 3 asks and answers");
    CHECK(strcmp(fl_lesson_tab_name(l->steps[2].tab), "routing") == 0, "step 3 opens routing");
    CHECK(fl_lesson_tab_name(FL_LESSON_TAB_NONE) == NULL, "no name for no tab");
    /* White space is collapsed as xgettext collapses it. */
    const char *p = l->steps[0].paragraphs[0];
    CHECK(!strchr(p, '\n') && !strstr(p, "  ") && p[0] != ' ' && p[strlen(p) - 1] != ' ',
          "paragraph white space collapsed: '%s'", p);

    FlRoutingOptions opt;
    CHECK(fl_lesson_routing_options(l, &opt, &err) == FL_OK && opt.vc_classes == 1,
          "routing options give one VC class");
    fl_routing_options_clear(&opt);
    FlSimSettings s;
    fl_sim_settings_init(&s);
    CHECK(fl_lesson_apply_settings(l, &s, &err) == FL_OK, "settings apply: %s", err.message);
    fl_sim_settings_clear(&s);
    fl_lesson_free(l);
}

/* Every lesson shipped passes, so that a teacher's new file is checked too. */
static void test_every_lesson(void)
{
    const char *dir = source_path("data/lessons");
    char dirname[4096];
    snprintf(dirname, sizeof dirname, "%s", dir);
    DIR *d = opendir(dirname);
    CHECK(d != NULL, "%s opens", dirname);
    if (!d)
        return;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 8 || strcmp(e->d_name + len - 7, ".lesson") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dirname, e->d_name);
        FlError err = { 0 };
        FlLesson *l = NULL;
        int rc = fl_lesson_read(path, &l, &err);
        if (!rc)
            rc = fl_lesson_check(l, &err);
        CHECK(rc == FL_OK, "%s: %s", e->d_name, rc ? err.message : "ok");
        fl_lesson_free(l);
        n++;
    }
    closedir(d);
    CHECK(n >= 1, "%d lessons in data/lessons", n);
}

typedef struct Bad {
    const char *xml;
    const char *message;   /* must appear in the error */
    int check;             /* 1: parses, refused by fl_lesson_check() */
} Bad;

static const Bad bad[] = {
    { "<lesson id=\"t\" version=\"1\"><title>T</title", "lesson:1: malformed XML", 0 },
    { HEAD "<step><title>S</title><p>P</p></step>\n<steps/></lesson>",
      "lesson:2: unknown element <steps> in <lesson>", 0 },
    { HEAD "<step><title>S</title>\n<text>P</text></step></lesson>",
      "lesson:2: unknown element <text> in <step>", 0 },
    { HEAD "<step><title>S</title><p>P</p>\n<show tab=\"routing\" view=\"x\"/></step></lesson>",
      "lesson:2: <show> has no attribute 'view'", 0 },
    { HEAD "<step><title>S</title><p>P</p>\n<show tab=\"simulation\"/></step></lesson>",
      "lesson:2: unknown tab 'simulation'", 0 },
    { HEAD "\n<step><title>S</title><p>P</p><question>Q?</question></step></lesson>",
      "lesson:2: step 1 asks a <question> with no <answer>", 0 },
    { HEAD "\n<step><p>P</p></step></lesson>", "lesson:2: step 1 has no <title>", 0 },
    { HEAD "\n<step><title>S</title></step></lesson>", "lesson:2: step 1 has no text", 0 },
    { HEAD "</lesson>", "lesson:1: the lesson has no <step>", 0 },
    { "<lesson id=\"t\" version=\"1\">\n<network spec=\"ring:8\"/>" STEP "</lesson>",
      "lesson:1: the lesson has no <title>", 0 },
    { "<lesson id=\"t\" version=\"1\"><title>T</title>\n" STEP "</lesson>",
      "lesson:1: the lesson has no <network", 0 },
    { "<lesson id=\"T x\" version=\"1\"/>", "lesson:1: id 'T x' must be", 0 },
    { "<lesson id=\"t\" version=\"9\"/>", "lesson:1: lesson format version 9 is newer", 0 },
    { "<lesson id=\"t\"/>", "lesson:1: <lesson> needs the attribute 'version'", 0 },
    { "<course id=\"t\" version=\"1\"/>", "lesson:1: the document is not a <lesson>", 0 },
    { "<!DOCTYPE lesson [<!ENTITY a \"aaaa\">]>\n<lesson id=\"t\" version=\"1\"/>",
      "a lesson may not have a DOCTYPE", 0 },
    { HEAD "<step><title>S</title>\n<p>a <b>bold</b> word</p></step></lesson>",
      "lesson:2: <p> holds plain text only, not <b>", 0 },
    { HEAD "<step><title>S</title>\n<p>6 &gt; 7</p></step></lesson>",
      "lesson:2: <p> holds '>'", 0 },
    { HEAD "<step><title>S</title>\n<p>  </p></step></lesson>", "lesson:2: <p> is empty", 0 },
    { HEAD "<step><title>S</title><p>P</p>\nloose words</step></lesson>",
      "lesson:2: text directly inside <step>", 0 },
    { HEAD "<title>U</title>" STEP "</lesson>", "lesson:1: a second <title>", 0 },
    { HEAD "<step><title>S</title><p>P</p>\n<highlight nodes=\"1 x\"/></step></lesson>",
      "lesson:2: nodes: 'x' is not a switch number", 0 },
    { HEAD "<step><title>S</title><p>P</p>\n<highlight links=\"1-\"/></step></lesson>",
      "lesson:2: links: '1-' is not a link A-B", 0 },
    { HEAD "<step><title>S</title><p>P</p>\n<highlight channels=\"1-2\"/></step></lesson>",
      "lesson:2: channels: '1-2' is not a channel A>B", 0 },
    /* Parsed, then refused against the engine. */
    { "<lesson id=\"t\" version=\"1\"><title>T</title>\n<network spec=\"ring:0\"/>" STEP
      "</lesson>", "lesson:2: network 'ring:0'", 1 },
    { HEAD "\n<routing name=\"dorr\"/>" STEP "</lesson>", "lesson:2: unknown routing 'dorr'",
      1 },
    { HEAD "\n<routing name=\"dor\" options=\"root=1\"/>" STEP "</lesson>",
      "lesson:2: routing options: routing 'dor' takes no option 'root'", 1 },
    { HEAD "\n<routing name=\"dor\" options=\"classes\"/>" STEP "</lesson>",
      "lesson:2: routing options: 'classes' is not KEY=VALUE", 1 },
    { HEAD "\n<routing name=\"west-first\"/>" STEP "</lesson>",
      "lesson:2: routing 'west-first' on ring:8", 1 },
    { HEAD "\n<settings>rate=2</settings>" STEP "</lesson>", "lesson:2: settings: rate", 1 },
    { HEAD "\n<settings>speed=2</settings>" STEP "</lesson>", "lesson:2: settings: ", 1 },
    { HEAD "<step><title>S</title><p>P</p>\n<highlight nodes=\"3 8\"/></step></lesson>",
      "lesson:2: step 1: 8 is a host, not a switch", 1 },
    { HEAD "<step><title>S</title><p>P</p>\n<highlight nodes=\"3 99\"/></step></lesson>",
      "lesson:2: step 1: the network has no switch 99", 1 },
    { HEAD "<step><title>S</title><p>P</p>\n<highlight links=\"0-2\"/></step></lesson>",
      "lesson:2: step 1: no link joins 0 and 2", 1 },
    { HEAD "<step><title>S</title><p>P</p>\n<highlight channels=\"7>1\"/></step></lesson>",
      "lesson:2: step 1: no channel goes from 7 to 1", 1 },
};

#define MESH "<lesson id=\"t\" version=\"1\"><title>T</title><network spec=\"mesh:6x6\"/>" \
             "<routing name=\"dor\"/>"
#define CSTEP(attrs) "<step><title>S</title><p>P</p>\n<collective " attrs "/></step></lesson>"

static const Bad bad_collectives[] = {
    { MESH CSTEP("kind=\"broadcast\" algorithm=\"x\""),
      "lesson:2: unknown collective kind 'broadcast'", 0 },
    { MESH CSTEP("kind=\"multicast\""), "lesson:2: <collective> needs the attribute 'algorithm'",
      0 },
    { MESH CSTEP("kind=\"multicast\" algorithm=\"binomial\" size=\"3\""),
      "lesson:2: <collective> has no attribute 'size'", 0 },
    { MESH "<step><title>S</title><p>P</p><collective kind=\"exchange\" algorithm=\"sem\"/>\n"
           "<collective kind=\"exchange\" algorithm=\"sem\"/></step></lesson>",
      "lesson:2: a second <collective>", 0 },
    /* Parsed, then refused against the engine. */
    { MESH CSTEP("kind=\"multicast\" algorithm=\"opt-mush\" options=\"random=5\""),
      "lesson:2: step 1: multicast opt-mush: ", 1 },
    { MESH CSTEP("kind=\"multicast\" algorithm=\"binomial\""),
      "lesson:2: collective options: the multicast needs dests=", 1 },
    { MESH CSTEP("kind=\"multicast\" algorithm=\"binomial\" options=\"dests=1,2\""),
      "lesson:2: collective options: the multicast needs source=H with dests", 1 },
    { MESH CSTEP("kind=\"multicast\" algorithm=\"binomial\" options=\"random=3 dests=1\""),
      "dests=... or random=K, not both", 1 },
    { MESH CSTEP("kind=\"multicast\" algorithm=\"binomial\" options=\"random=40\""),
      "lesson:2: step 1: multicast binomial: ", 1 },
    { MESH CSTEP("kind=\"multicast\" algorithm=\"binomial\" options=\"source=1 dests=2,x\""),
      "lesson:2: collective options: dests: 'x' is not a whole number", 1 },
    { MESH CSTEP("kind=\"multicast\" algorithm=\"binomial\" options=\"source=1 dests=2 n=3\""),
      "lesson:2: collective options: the multicast takes no option 'n'", 1 },
    { MESH CSTEP("kind=\"multicast\" algorithm=\"binomial\" options=\"source=1 dests=99\""),
      "lesson:2: step 1: multicast binomial: ", 1 },
    { HEAD "<routing name=\"dor\"/>" CSTEP("kind=\"multicast\" algorithm=\"u-mesh\" "
                                              "options=\"random=3\""),
      "lesson:2: step 1: multicast u-mesh: ", 1 },
    { MESH CSTEP("kind=\"exchange\" algorithm=\"sem\" options=\"n=8\""),
      "lesson:2: step 1: exchange sem: an exchange with n=8 runs on torus:8x8, not on mesh:6x6",
      1 },
    { MESH CSTEP("kind=\"exchange\" algorithm=\"sem\""),
      "lesson:2: collective options: the exchange needs n=N", 1 },
    { "<lesson id=\"t\" version=\"1\"><title>T</title><network spec=\"torus:8x8\"/>"
      CSTEP("kind=\"exchange\" algorithm=\"sem\" options=\"n=8 step=9\""),
      "lesson:2: step 1: exchange sem: step=9: the exchange has 7 steps", 1 },
    { "<lesson id=\"t\" version=\"1\"><title>T</title><network spec=\"torus:8x8\"/>"
      CSTEP("kind=\"exchange\" algorithm=\"swap\" options=\"n=8\""),
      "lesson:2: step 1: exchange swap: ", 1 },
    { MESH CSTEP("kind=\"schedule\" algorithm=\"greedy\" options=\"random=4\""),
      "lesson:2: step 1: schedule greedy: ", 1 },
    { "<lesson id=\"t\" version=\"1\"><title>T</title><network spec=\"myrinet-line:8\"/>"
      CSTEP("kind=\"schedule\" algorithm=\"best\" options=\"random=4\""),
      "lesson:2: step 1: schedule best: unknown schedule algorithm 'best'", 1 },
    { "<lesson id=\"t\" version=\"1\"><title>T</title><network spec=\"myrinet-line:8\"/>"
      CSTEP("kind=\"schedule\" algorithm=\"greedy\" options=\"pattern=zigzag random=4\""),
      "lesson:2: collective options: pattern: 'zigzag' is not uniform", 1 },
};

static void test_bad(const Bad *b, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        FlError err = { 0 };
        FlLesson *l = NULL;
        int rc = fl_lesson_parse(b[i].xml, strlen(b[i].xml), "lesson", &l, &err);
        if (b[i].check) {
            CHECK(rc == FL_OK, "%s[%zu] parses: %s", what, i, err.message);
            if (rc)
                continue;
            rc = fl_lesson_check(l, &err);
            fl_lesson_free(l);
            l = NULL;
        }
        CHECK(rc != FL_OK && l == NULL && strstr(err.message, b[i].message),
              "%s[%zu] refused with '%s': got '%s'", what, i, b[i].message, err.message);
    }
}

/* Collectives read as written, their options as a front end takes them. */
static void test_collectives(void)
{
    static const char xml[] =
        MESH "<step><title>S</title><p>P</p>\n<collective kind=\"multicast\" "
        "algorithm=\"opt-mesh\" options=\"source=14 dests=5,30,22 t-hold=10 t-end=40\"/>"
        "</step>\n<step><title>S</title><p>P</p><collective kind=\"multicast\" "
        "algorithm=\"binomial\" options=\"random=7 seed=3\"/></step>"
        "<step><title>S</title><p>P</p></step></lesson>";
    FlError err = { 0 };
    FlLesson *l = NULL;
    int rc = fl_lesson_parse(xml, strlen(xml), "lesson", &l, &err);
    CHECK(rc == FL_OK, "a lesson with collectives parses: %s", err.message);
    if (rc)
        return;
    CHECK(fl_lesson_check(l, &err) == FL_OK, "and checks: %s", err.message);
    const FlLessonCollective *c = &l->steps[0].collective;
    CHECK(c->kind == FL_LESSON_COLLECTIVE_MULTICAST && strcmp(c->algorithm, "opt-mesh") == 0
              && c->line == 2,
          "step 1 prepares OPT-mesh (line %d)", c->line);
    CHECK(strcmp(fl_lesson_collective_name(c->kind), "multicast") == 0, "its kind is named");
    CHECK(fl_lesson_collective_name(FL_LESSON_COLLECTIVE_NONE) == NULL, "no name for none");
    FlLessonCollectiveOptions o;
    rc = fl_lesson_collective_options(l, c, &o, &err);
    CHECK(rc == FL_OK && o.source == 14 && o.n_dests == 3 && o.dests[0] == 5 && o.dests[2] == 22
              && o.t_hold == 10 && o.t_end == 40 && o.random == 0,
          "its options read: source %d, %d dests, %g/%g", o.source, o.n_dests, o.t_hold,
          o.t_end);
    fl_lesson_collective_options_clear(&o);
    rc = fl_lesson_collective_options(l, &l->steps[1].collective, &o, &err);
    CHECK(rc == FL_OK && o.random == 7 && o.seed == 3 && o.source == -1 && o.t_hold == 20
              && o.t_end == 55 && !o.dests,
          "random=7 seed=3 with paper 001's times by default");
    fl_lesson_collective_options_clear(&o);
    CHECK_INT(l->steps[2].collective.kind, FL_LESSON_COLLECTIVE_NONE);
    fl_lesson_free(l);

    static const char more[] =
        "<lesson id=\"t\" version=\"1\"><title>T</title><network spec=\"torus:8x8\"/>"
        "<step><title>S</title><p>P</p><collective kind=\"exchange\" algorithm=\"sem\" "
        "options=\"n=8 step=3 node=9\"/></step></lesson>";
    rc = fl_lesson_parse(more, strlen(more), "lesson", &l, &err);
    CHECK(rc == FL_OK && fl_lesson_check(l, &err) == FL_OK, "SEM on torus:8x8 checks: %s",
          err.message);
    if (!rc) {
        rc = fl_lesson_collective_options(l, &l->steps[0].collective, &o, &err);
        CHECK(rc == FL_OK && o.n == 8 && o.step == 3 && o.node == 9, "n, step and node read");
        fl_lesson_collective_options_clear(&o);
    }
    fl_lesson_free(l);

    static const char sched[] =
        "<lesson id=\"t\" version=\"1\"><title>T</title><network spec=\"myrinet-mesh:8x4\"/>"
        "<step><title>S</title><p>P</p><collective kind=\"schedule\" algorithm=\"assigncolor\" "
        "options=\"pattern=top-down seed=2\"/></step></lesson>";
    rc = fl_lesson_parse(sched, strlen(sched), "lesson", &l, &err);
    CHECK(rc == FL_OK && fl_lesson_check(l, &err) == FL_OK,
          "a top-down schedule on myrinet-mesh:8x4 checks: %s", err.message);
    if (!rc) {
        rc = fl_lesson_collective_options(l, &l->steps[0].collective, &o, &err);
        CHECK(rc == FL_OK && o.pattern == FL_LESSON_PATTERN_TOP_DOWN && o.seed == 2,
              "pattern and seed read");
        fl_lesson_collective_options_clear(&o);
    }
    fl_lesson_free(l);
}

static void test_bad_lessons(void)
{
    test_bad(bad, sizeof bad / sizeof bad[0], "bad");
    test_bad(bad_collectives, sizeof bad_collectives / sizeof bad_collectives[0],
             "bad_collectives");
}

static void test_limits(void)
{
    FlError err = { 0 };
    FlLesson *l = NULL;
    size_t big = FL_LESSON_MAX_BYTES + 1;
    char *buf = malloc(big);
    memset(buf, ' ', big);
    CHECK(fl_lesson_parse(buf, big, "big", &l, &err) == FL_ERANGE && strstr(err.message, "big"),
          "a file over the size limit is refused: %s", err.message);
    free(buf);

    size_t step_len = strlen(STEP), cap = strlen(HEAD) + 16 + (size_t)201 * step_len;
    char *xml = malloc(cap);
    strcpy(xml, HEAD);
    for (int i = 0; i < FL_LESSON_MAX_STEPS + 1; i++)
        strcat(xml, STEP);
    strcat(xml, "</lesson>");
    CHECK(fl_lesson_parse(xml, strlen(xml), "many", &l, &err) == FL_EPARSE
              && strstr(err.message, "more than 200 steps"),
          "201 steps are refused: %s", err.message);
    free(xml);

    CHECK(fl_lesson_read("/nonexistent/x.lesson", &l, &err) == FL_EIO
              && strstr(err.message, "/nonexistent/x.lesson"),
          "a missing file is named: %s", err.message);

    const char *named = HEAD STEP "</lesson>";
    CHECK(fl_lesson_parse(named, strlen(named), "dir/other.lesson", &l, &err) == FL_OK,
          "a lesson parses under any label");
    CHECK(fl_lesson_check(l, &err) != FL_OK && strstr(err.message, "name the file t.lesson"),
          "a file not named after its id is refused: %s", err.message);
    fl_lesson_free(l);
}

/* Every prefix of the shipped lesson is refused cleanly, none crashes. */
static void test_truncated(void)
{
    FILE *fp = fopen(source_path("data/lessons/deadlock-ring.lesson"), "rb");
    CHECK(fp != NULL, "the shipped lesson opens");
    if (!fp)
        return;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text, fp);
    fclose(fp);
    int refused = 0, tried = 0;
    for (size_t len = 0; len < n; len += 13) {
        FlError err = { 0 };
        FlLesson *l = NULL;
        refused += fl_lesson_parse(text, len, "cut", &l, &err) != FL_OK && l == NULL
                   && strncmp(err.message, "cut:", 4) == 0;
        tried++;
        fl_lesson_free(l);
    }
    CHECK_INT(refused, tried);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--strings") == 0)
        return print_strings(argv[2]);
    test_shipped_lesson();
    test_every_lesson();
    test_bad_lessons();
    test_collectives();
    test_limits();
    test_truncated();
    return tap_done();
}
