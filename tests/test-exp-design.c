/* test-exp-design.c — experiment designs: keys checked against the engine's
 * tables, ranges and lists unfolded, runs numbered in a fixed order (checked
 * against nested loops), configurations applied, the text form round trip,
 * and every refusal. */
#include <stdlib.h>
#include <string.h>

#include "flitlab-exp.h"
#include "tap.h"

static FlExpDesign *design(void)
{
    FlExpDesign *d = NULL;
    CHECK_INT(fl_exp_design_new(&d, NULL), FL_OK);
    return d;
}

static void test_ranges(void)
{
    FlExpDesign *d = design();
    FlError err;
    CHECK(fl_exp_design_vary(d, "rate", "0.01:0.5:0.01", &err) == FL_OK, "rate 0.01:0.5:0.01 (%s)",
          err.message);
    int n = fl_exp_design_value_count(d, 0);
    CHECK(n == 50 && strcmp(fl_exp_design_value(d, 0, 0), "0.01") == 0
              && strcmp(fl_exp_design_value(d, 0, 49), "0.50") == 0
              && strcmp(fl_exp_design_value(d, 0, 28), "0.29") == 0,
          "50 rates, 0.01 to 0.50 written with two digits (%d: %s .. %s)", n,
          fl_exp_design_value(d, 0, 0), fl_exp_design_value(d, 0, n - 1));
    CHECK(fl_exp_design_vary(d, "vcs", "1:4:1", &err) == FL_OK
              && fl_exp_design_value_count(d, 1) == 4
              && strcmp(fl_exp_design_value(d, 1, 3), "4") == 0,
          "vcs 1:4:1 gives 1..4");
    CHECK(fl_exp_design_vary(d, "routing", "dor,updown", &err) == FL_OK, "routing over a list (%s)",
          err.message);
    CHECK(fl_exp_design_seeds(d, 1, 5, &err) == FL_OK && fl_exp_design_count(d) == 50 * 4 * 2 * 5,
          "50 rates x 4 VC counts x 2 routings x 5 seeds = %lld runs",
          (long long)fl_exp_design_count(d));
    fl_exp_design_free(d);
}

/* Run numbers against nested loops: first parameter slowest, seeds fastest. */
static void test_order(void)
{
    FlExpDesign *d = design();
    fl_exp_design_vary(d, "routing", "dor,updown,lturn-alpha", NULL);
    fl_exp_design_vary(d, "traffic", "uniform,bitrev", NULL);
    fl_exp_design_vary(d, "rate", "0.1:0.3:0.1", NULL);
    fl_exp_design_seeds(d, 7, 8, NULL);
    static const char *const routings[] = { "dor", "updown", "lturn-alpha" };
    static const char *const traffic[] = { "uniform", "bitrev" };
    static const char *const rates[] = { "0.1", "0.2", "0.3" };
    int64_t idx = 0;
    int bad = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 3; c++)
                for (uint64_t s = 7; s <= 8; s++, idx++) {
                    const char *v[3];
                    uint64_t seed;
                    fl_exp_design_run(d, idx, v, &seed, NULL);
                    bad += strcmp(v[0], routings[a]) || strcmp(v[1], traffic[b])
                        || strcmp(v[2], rates[c]) || seed != s;
                }
    CHECK(idx == fl_exp_design_count(d) && bad == 0, "%lld runs in nested-loop order (%d differ)",
          (long long)idx, bad);
    FlError err;
    CHECK(fl_exp_design_run(d, idx, NULL, NULL, &err) == FL_ERANGE, "run %lld: %s", (long long)idx,
          err.message);
    fl_exp_design_free(d);
}

static void test_apply(void)
{
    FlExpDesign *d = design();
    FlError err;
    CHECK(fl_exp_design_set(d, "packet", "8", &err) == FL_OK
              && fl_exp_design_set(d, "routing", "updown", &err) == FL_OK
              && fl_exp_design_set(d, "root", "3", &err) == FL_OK,
          "a base of packet 8, updown rooted at 3 (%s)", err.message);
    fl_exp_design_vary(d, "rate", "0.05,0.2", NULL);
    fl_exp_design_vary(d, "link-latency", "1,4", NULL);
    fl_exp_design_seeds(d, 10, 11, NULL);
    FlSimSettings s;
    FlRoutingOptions ro;
    fl_sim_settings_init(&s);
    fl_routing_options_init(&ro);
    const char *routing = NULL;
    char rate[32], lat[32], seed[32], packet[32], root[32];
    /* Run 7: rate 0.2, link latency 4, seed 11. */
    int rc = fl_exp_design_apply(d, 7, &s, &ro, &routing, &err);
    fl_sim_settings_format(&s, "rate", rate, sizeof rate);
    fl_sim_settings_format(&s, "link-latency", lat, sizeof lat);
    fl_sim_settings_format(&s, "seed", seed, sizeof seed);
    fl_sim_settings_format(&s, "packet", packet, sizeof packet);
    fl_routing_options_format(&ro, "root", root, sizeof root);
    CHECK(rc == FL_OK && routing && strcmp(routing, "updown") == 0 && strcmp(rate, "0.2") == 0
              && strcmp(lat, "4") == 0 && strcmp(seed, "11") == 0 && strcmp(packet, "8") == 0
              && strcmp(root, "3") == 0,
          "run 7 applied: updown root %s, rate %s, link latency %s, seed %s, packet %s (%s)", root,
          rate, lat, seed, packet, rc ? err.message : "ok");
    fl_routing_options_clear(&ro);
    fl_sim_settings_clear(&s);
    fl_exp_design_free(d);
}

/* Without a seed range every run has one seed: the one set, or the
 * simulator's default. */
static void test_fixed_seed(void)
{
    FlExpDesign *d = design();
    uint64_t seed = 0;
    fl_exp_design_vary(d, "rate", "0.1,0.2", NULL);
    CHECK(fl_exp_design_run(d, 1, NULL, &seed, NULL) == FL_OK && seed == 1,
          "no seed set: the default, 1 (not %llu)", (unsigned long long)seed);
    fl_exp_design_set(d, "seed", "9", NULL);
    CHECK(fl_exp_design_run(d, 0, NULL, &seed, NULL) == FL_OK && seed == 9,
          "seed=9 set: 9 (not %llu)", (unsigned long long)seed);
    fl_exp_design_free(d);
}

static void test_text(void)
{
    FlExpDesign *d = design(), *back = NULL;
    fl_exp_design_set(d, "vcs", "4", NULL);
    fl_exp_design_vary(d, "routing", "updown,lturn-alpha", NULL);
    fl_exp_design_vary(d, "rate", "0.1:0.3:0.1", NULL);
    fl_exp_design_seeds(d, 1, 3, NULL);
    char *text = NULL, *again = NULL;
    FlError err;
    /* The call before its CHECK: the message's arguments are read first. */
    int rc = fl_exp_design_format(d, &text, &err);
    CHECK(rc == FL_OK
              && strcmp(text,
                        "set vcs=4\nvary routing=updown,lturn-alpha\nvary rate=0.1,0.2,0.3\n"
                        "seeds 1:3\n")
                  == 0,
          "the text form, one line each for the base, the parameters and the seeds");
    CHECK(text && fl_exp_design_parse(text, &back, &err) == FL_OK
              && fl_exp_design_format(back, &again, NULL) == FL_OK && strcmp(text, again) == 0
              && fl_exp_design_count(back) == 18,
          "parsing it gives the same design (%s)", back ? "ok" : err.message);
    FlExpDesign *bad = NULL;
    CHECK(fl_exp_design_parse("set vcs=2\nvary rate=0.1,x\n", &bad, &err) != FL_OK && !bad
              && strncmp(err.message, "line 2: ", 8) == 0,
          "a bad line is named: %s", err.message);
    CHECK(fl_exp_design_parse("frobnicate\n", &bad, &err) == FL_EPARSE, "not a line: %s",
          err.message);
    free(text);
    free(again);
    fl_exp_design_free(back);
    fl_exp_design_free(d);
}

static void test_refusals(void)
{
    static const struct {
        const char *key, *values, *want;
    } cases[] = {
        { "colour", "1,2", "unknown parameter 'colour'" },
        { "rate", "0.5:0.1:0.1", "empty range" },
        { "rate", "0.1:0.5:0", "empty range" },
        { "rate", "0.1:0.5:x", "not a number" },
        /* 1/256 steps printed with two digits would repeat 0.00 (fuzzing). */
        { "rate", "0.0:0.3:0X.01", "not a number" },
        { "rate", "0x0:0.3:0.01", "not a number" },
        { "rate", "0.1,,0.2", "empty value" },
        { "rate", "0.1,0.1", "listed twice" },
        { "rate", "1.5", "rate" },
        { "routing", "dor,nope", "unknown routing 'nope'" },
        { "traffic", "uniform,nope", "nope" },
        { "seed", "1,2", "seeds are varied with their own range" },
        { "rate", "0:1:0.000001", "at most" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FlExpDesign *d = design();
        FlError err = { 0, "" };
        int rc = fl_exp_design_vary(d, cases[i].key, cases[i].values, &err);
        CHECK(rc != FL_OK && strstr(err.message, cases[i].want)
                  && fl_exp_design_param_count(d) == 0,
              "vary %s=%s refused: %s", cases[i].key, cases[i].values, err.message);
        fl_exp_design_free(d);
    }
    FlExpDesign *d = design();
    FlError err;
    fl_exp_design_vary(d, "rate", "0.1,0.2", NULL);
    CHECK(fl_exp_design_vary(d, "rate", "0.3", &err) == FL_EINVAL, "rate varied twice: %s",
          err.message);
    CHECK(fl_exp_design_set(d, "rate", "0.3", &err) == FL_EINVAL, "a varied key set: %s",
          err.message);
    CHECK(fl_exp_design_seeds(d, 5, 4, &err) == FL_ERANGE, "seeds 5:4: %s", err.message);
    fl_exp_design_set(d, "vcs", "2", NULL);
    CHECK(fl_exp_design_vary(d, "vcs", "1,2", &err) == FL_EINVAL, "a set key varied: %s",
          err.message);
    fl_exp_design_free(d);
}

/* The longest range a parameter takes is kept in the text form as a list
 * of its values, which reads back at once (the repeat check sorts; it was
 * quadratic, 14 s under the fuzzer for 25,501 values); a repeat deep in a
 * long list is found, and a list longer than a range may be is refused. */
static void test_long_lists(void)
{
    FlExpDesign *d = design(), *back = NULL;
    FlError err = { 0, "" };
    char *text = NULL;
    CHECK(fl_exp_design_vary(d, "rate", "0.00000:0.99999:0.00001", &err) == FL_OK
              && fl_exp_design_value_count(d, 0) == FL_EXP_DESIGN_MAX_VALUES,
          "a range of %d values (%s)", FL_EXP_DESIGN_MAX_VALUES, err.message);
    CHECK(fl_exp_design_format(d, &text, &err) == FL_OK
              && fl_exp_design_parse(text, &back, &err) == FL_OK
              && fl_exp_design_value_count(back, 0) == FL_EXP_DESIGN_MAX_VALUES,
          "its text form reads back: %s", err.message);
    fl_exp_design_free(back);
    fl_exp_design_free(d);
    free(text);

    size_t size = 12 * (size_t)(FL_EXP_DESIGN_MAX_VALUES + 2);
    char *list = malloc(size), *at = list;
    for (int i = 0; list && i < 5000; i++)
        at += sprintf(at, "%s0.%05d", i ? "," : "", i);
    if (list)
        sprintf(at, ",0.00017,0.00003");
    d = design();
    CHECK(list && fl_exp_design_vary(d, "rate", list, &err) == FL_EINVAL
              && strstr(err.message, "'0.00017' is listed twice"),
          "the first value listed again is named: %s", err.message);
    fl_exp_design_free(d);

    at = list;
    for (int i = 0; list && i <= FL_EXP_DESIGN_MAX_VALUES; i++)
        at += sprintf(at, "%s%d", i ? "," : "", i + 1);
    d = design();
    CHECK(list && fl_exp_design_vary(d, "packet", list, &err) == FL_ERANGE
              && strstr(err.message, "a list of more than 100000 values"),
          "a list of %d values is refused: %s", FL_EXP_DESIGN_MAX_VALUES + 1, err.message);
    fl_exp_design_free(d);
    free(list);
}

int main(void)
{
    test_ranges();
    test_order();
    test_apply();
    test_fixed_seed();
    test_text();
    test_refusals();
    test_long_lists();
    return tap_done();
}
