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

static void test_bad_lessons(void)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        FlError err = { 0 };
        FlLesson *l = NULL;
        int rc = fl_lesson_parse(bad[i].xml, strlen(bad[i].xml), "lesson", &l, &err);
        if (bad[i].check) {
            CHECK(rc == FL_OK, "bad[%zu] parses: %s", i, err.message);
            if (rc)
                continue;
            rc = fl_lesson_check(l, &err);
            fl_lesson_free(l);
            l = NULL;
        }
        CHECK(rc != FL_OK && l == NULL && strstr(err.message, bad[i].message),
              "bad[%zu] refused with '%s': got '%s'", i, bad[i].message, err.message);
    }
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
    test_limits();
    test_truncated();
    return tap_done();
}
