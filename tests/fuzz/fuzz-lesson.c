/* fuzz-lesson.c — the lesson reader (src/io/lesson.c), and its checks
 * against the engine.
 *
 * A read refuses the input with a message that starts with the lesson's
 * label, or gives a lesson that keeps the format's promises (every step
 * titled and written, a question exactly when an answer, lists within
 * their limits, translatable text collapsed and free of '&', '<' and '>');
 * its routing options, settings and collectives read or are refused with a
 * message, and so does fl_lesson_check() on a small network (on the
 * lesson's first steps when its collectives are many).
 * `tools/flitlab-dev fuzz lesson` runs it. */
#include <string.h>

#include "flitlab-lesson.h"
#include "fuzz-common.h"
#include "generators.h"

#define LABEL "fuzz"

/* Networks checked against: larger ones cost the generators' and the
 * collectives' time (an exchange on torus:1024x1024), not the reader's. */
#define CHECK_MAX_SWITCHES 64

/* And the collectives' work, in nodes (switches and hosts) squared per
 * collective: one costs up to about the square of its network's size (an
 * exchange on torus:8x8 ~1 ms under the sanitizers, on torus:4x4 0.1 ms),
 * and a lesson may have 200 steps that make one. The check takes the
 * lesson's steps up to the collective that would go over (never fewer
 * than the first collective): every lesson of the corpus whole (at most
 * mesh:6x6 with 6 collectives, 31104), any input within about 10 ms. */
#define CHECK_COLLECTIVE_BUDGET 32768

/* Text as xgettext gives msgids: non-empty, white space collapsed. */
static void check_text(const char *s)
{
    FUZZ_CHECK(s != NULL && s[0] != '\0');
    FUZZ_CHECK(strpbrk(s, "&<>\t\n\r") == NULL);
    FUZZ_CHECK(s[0] != ' ' && s[strlen(s) - 1] != ' ' && strstr(s, "  ") == NULL);
}

static void check_step(const FlLessonStep *s)
{
    check_text(s->title);
    FUZZ_CHECK(s->n_paragraphs >= 1 && s->paragraphs != NULL);
    for (int k = 0; k < s->n_paragraphs; k++)
        check_text(s->paragraphs[k]);
    FUZZ_CHECK((s->question == NULL) == (s->answer == NULL));
    if (s->question) {
        check_text(s->question);
        check_text(s->answer);
    }
    FUZZ_CHECK(s->tab == FL_LESSON_TAB_NONE || fl_lesson_tab_name(s->tab) != NULL);
    FUZZ_CHECK(s->n_nodes >= 0 && s->n_nodes <= FL_LESSON_MAX_HIGHLIGHT);
    FUZZ_CHECK(s->n_links >= 0 && s->n_links <= FL_LESSON_MAX_HIGHLIGHT);
    FUZZ_CHECK(s->n_channels >= 0 && s->n_channels <= FL_LESSON_MAX_HIGHLIGHT);
    FUZZ_CHECK(s->collective.kind == FL_LESSON_COLLECTIVE_NONE
               || (fl_lesson_collective_name(s->collective.kind) != NULL
                   && s->collective.algorithm != NULL));
}

/* A call that reads part of the lesson: it succeeds or says why not, with
 * the lesson's label in front. */
static void check_outcome(int rc, const FlError *err)
{
    if (rc == FL_OK)
        return;
    fuzz_check_refusal(rc, err);
    FUZZ_CHECK(strncmp(err->message, LABEL ":", strlen(LABEL ":")) == 0);
}

/* fl_lesson_check() on the lesson's first steps, as many as the budget
 * allows. */
static void check_against_engine(const FlLesson *l)
{
    FlSpec spec;
    FlError err = { 0 };
    if (fl__spec_parse(l->network, &spec, NULL) != FL_OK || spec.switches > CHECK_MAX_SWITCHES)
        return;
    double nodes = (double)spec.switches + (double)spec.hosts_total, work = 0;
    FlLesson head = *l;
    for (head.n_steps = 0; head.n_steps < l->n_steps; head.n_steps++) {
        if (!l->steps[head.n_steps].collective.kind)
            continue;
        if (work > 0 && work + nodes * nodes > CHECK_COLLECTIVE_BUDGET)
            break;
        work += nodes * nodes;
    }
    check_outcome(fl_lesson_check(&head, &err), &err);
}

static void check_engine(const FlLesson *l)
{
    FlError err = { 0 };
    for (int i = 0; i < l->n_steps; i++) {
        const FlLessonCollective *c = &l->steps[i].collective;
        FlLessonCollectiveOptions o;
        if (!c->kind)
            continue;
        check_outcome(fl_lesson_collective_options(l, c, &o, &err), &err);
        fl_lesson_collective_options_clear(&o);
    }
    FlRoutingOptions ro;
    check_outcome(fl_lesson_routing_options(l, &ro, &err), &err);
    fl_routing_options_clear(&ro);
    FlSimSettings s;
    fl_sim_settings_init(&s);
    check_outcome(fl_lesson_apply_settings(l, &s, &err), &err);
    fl_sim_settings_clear(&s);
    check_against_engine(l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FlLesson *l = NULL;
    FlError err = { 0 };
    int rc = fl_lesson_parse((const char *)data, size, LABEL, &l, &err);
    if (rc != FL_OK) {
        check_outcome(rc, &err);
        FUZZ_CHECK(l == NULL);
        return 0;
    }
    FUZZ_CHECK(l != NULL);
    FUZZ_CHECK(l->id && l->id[0] && strlen(l->id) <= 64);
    FUZZ_CHECK(l->version >= 1 && l->version <= FL_LESSON_FORMAT_VERSION);
    check_text(l->title);
    if (l->summary)
        check_text(l->summary);
    FUZZ_CHECK(l->network != NULL);
    FUZZ_CHECK(l->n_steps >= 1 && l->n_steps <= FL_LESSON_MAX_STEPS);
    for (int i = 0; i < l->n_steps; i++)
        check_step(&l->steps[i]);
    check_engine(l);
    fl_lesson_free(l);
    return 0;
}
