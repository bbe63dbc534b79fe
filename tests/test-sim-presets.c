/* test-sim-presets.c — the presets: unique names and lookups, each applies,
 * reads back its own values, builds and runs; the ring deadlocks, the
 * dateline torus does not while the same load with one class does; a bad
 * preset is refused and leaves the settings alone. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "flitlab.h"
#include "tap.h"

/* The ring must lock, and the watchdog fire, within this many cycles. */
#define RING_DEADLOCK_CYCLES 1000
/* The dateline torus runs this long without a deadlock, while one class
 * locks within it. */
#define DATELINE_CYCLES 3000

static void test_names(void)
{
    int n = fl_sim_preset_count();
    CHECK(n == 6, "six presets (got %d)", n);
    for (int i = 0; i < n; i++) {
        const FlSimPreset *p = fl_sim_preset(i);
        CHECK(p && p->name && p->title && p->description && p->spec && p->routing,
              "preset %d has every field", i);
        if (!p)
            continue;
        CHECK(fl_sim_preset_lookup(p->name) == p, "lookup '%s'", p->name);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(fl_sim_preset(j)->name, p->name) != 0
                  && strcmp(fl_sim_preset(j)->title, p->title) != 0,
                  "presets %d and %d differ in name and title", j, i);
    }
    CHECK(fl_sim_preset(-1) == NULL && fl_sim_preset(n) == NULL, "out of range: NULL");
    CHECK(fl_sim_preset_lookup("no-such-preset") == NULL, "unknown name: NULL");
    CHECK(fl_sim_preset_lookup(NULL) == NULL, "no name: NULL");
}

/* Every key=value word of text reads back as value through format. */
static void check_read_back(const char *preset, const char *text,
                            int (*format)(const void *obj, const char *key, char *buf,
                                          size_t len),
                            const void *obj)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *word = strtok(copy, " "); word; word = strtok(NULL, " ")) {
        char *eq = strchr(word, '=');
        if (!CHECK(eq, "%s: '%s' is key=value", preset, word))
            continue;
        *eq = '\0';
        char buf[256];
        int len = format(obj, word, buf, sizeof buf);
        CHECK(len >= 0 && strcmp(buf, eq + 1) == 0, "%s: %s reads back '%s' (got '%s')",
              preset, word, eq + 1, len >= 0 ? buf : "(unknown key)");
    }
}

static int format_setting(const void *obj, const char *key, char *buf, size_t len)
{
    return fl_sim_settings_format(obj, key, buf, len);
}

static int format_option(const void *obj, const char *key, char *buf, size_t len)
{
    return fl_routing_options_format(obj, key, buf, len);
}

typedef struct Built {
    FlSimSettings s;
    FlRoutingOptions ro;
    FlTopology *t;
    FlRouting *r;
} Built;

static int build(Built *b, const FlSimPreset *p)
{
    FlError err = { 0 };
    fl_sim_settings_init(&b->s);
    fl_routing_options_init(&b->ro);
    b->t = NULL;
    b->r = NULL;
    if (fl_sim_preset_apply(p, &b->s, &b->ro, &err)
        || fl_topology_from_spec(p->spec, &b->t, &err)
        || fl_routing_new(b->t, p->routing, &b->ro, &b->r, &err)) {
        CHECK(0, "%s: %s", p->name, err.message);
        return 0;
    }
    return 1;
}

static void unbuild(Built *b)
{
    fl_routing_free(b->r);
    fl_topology_free(b->t);
    fl_sim_settings_clear(&b->s);
    fl_routing_options_clear(&b->ro);
}

/* Steps the preset's flit-level simulation up to cycles; its status, or -1
 * when it cannot be run. */
static int run_flit(const Built *b, int64_t cycles, int64_t *at)
{
    FlError err = { 0 };
    FlSimConfig cfg = b->s.config;
    cfg.routing = b->r;
    FlSim *sim = NULL;
    if (fl_sim_new(b->t, &cfg, &sim, &err)) {
        CHECK(0, "fl_sim_new: %s", err.message);
        return -1;
    }
    FlSimStatus st = FL_SIM_RUNNING;
    while (fl_sim_cycle(sim) < cycles && st == FL_SIM_RUNNING) {
        if (fl_sim_step(sim, 50, &st, &err)) {
            CHECK(0, "fl_sim_step: %s", err.message);
            st = (FlSimStatus)-1;
            break;
        }
    }
    *at = fl_sim_cycle(sim);
    fl_sim_free(sim);
    return (int)st;
}

static void test_each(void)
{
    for (int i = 0; i < fl_sim_preset_count(); i++) {
        const FlSimPreset *p = fl_sim_preset(i);
        Built b;
        if (!build(&b, p)) {
            unbuild(&b);
            continue;
        }
        check_read_back(p->name, p->settings, format_setting, &b.s);
        check_read_back(p->name, p->routing_options, format_option, &b.ro);
        if (b.s.model == FL_SIM_MODEL_DEFLECTION) {
            FlDeflectConfig dc = b.s.deflect;
            dc.routing = b.r;
            dc.cycles = 20;
            FlDeflectResult res;
            memset(&res, 0, sizeof res);
            FlError err = { 0 };
            int rc = fl_deflect_run(b.t, &dc, &res, NULL, NULL, &err);
            CHECK(rc == FL_OK && res.cycles == 20, "%s: 20 deflection cycles (%s)", p->name,
                  rc ? err.message : "ok");
            fl_deflect_result_clear(&res);
        } else {
            int64_t at = 0;
            int st = run_flit(&b, 300, &at);
            CHECK(st == FL_SIM_RUNNING || st == FL_SIM_DEADLOCK, "%s: runs (at cycle %lld)",
                  p->name, (long long)at);
        }
        unbuild(&b);
    }
}

static void test_ring_deadlocks(void)
{
    Built b;
    if (build(&b, fl_sim_preset_lookup("ring-deadlock"))) {
        int64_t at = 0;
        int st = run_flit(&b, RING_DEADLOCK_CYCLES, &at);
        CHECK(st == FL_SIM_DEADLOCK, "the ring deadlocks within %d cycles (stopped at %lld)",
              RING_DEADLOCK_CYCLES, (long long)at);
    }
    unbuild(&b);
}

static void test_dateline(void)
{
    const FlSimPreset *p = fl_sim_preset_lookup("torus-dateline");
    Built b;
    if (build(&b, p)) {
        int64_t at = 0;
        int st = run_flit(&b, DATELINE_CYCLES, &at);
        CHECK(st == FL_SIM_RUNNING && at >= DATELINE_CYCLES,
              "the dateline torus runs %d cycles without deadlock (status %d at %lld)",
              DATELINE_CYCLES, st, (long long)at);
    }
    unbuild(&b);

    /* The same preset with one class. */
    FlSimPreset one = *p;
    one.routing_options = "classes=1";
    if (build(&b, &one)) {
        int64_t at = 0;
        int st = run_flit(&b, DATELINE_CYCLES, &at);
        CHECK(st == FL_SIM_DEADLOCK, "with one class the torus deadlocks within %d cycles "
              "(stopped at %lld)", DATELINE_CYCLES, (long long)at);
    }
    unbuild(&b);
}

static void test_refusals(void)
{
    FlSimSettings s;
    FlRoutingOptions ro;
    fl_sim_settings_init(&s);
    fl_routing_options_init(&ro);
    FlError err = { 0 };
    CHECK(fl_sim_settings_set(&s, "rate", "0.35", &err) == FL_OK, "rate set");

    static const struct {
        const char *routing, *options, *settings, *says;
    } bad[] = {
        { "dor", "", "rate=0.2 speed=9", "speed" },
        { "dor", "", "rate=2", "rate" },
        { "dor", "", "rate", "key=value" },
        { "dor", "root=3", "", "root" },
        { "dor", "classes=x", "", "classes" },
        { "no-routing", "", "", "no-routing" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        FlSimPreset p = { "bad", "bad", "bad", "mesh:4x4", bad[i].routing, bad[i].options,
                          bad[i].settings };
        err.message[0] = '\0';
        int rc = fl_sim_preset_apply(&p, &s, &ro, &err);
        CHECK(rc != FL_OK && strstr(err.message, "'bad'") && strstr(err.message, bad[i].says),
              "refused: %s / %s, naming %s (%s)", bad[i].options, bad[i].settings,
              bad[i].says, err.message);
        char buf[32];
        fl_sim_settings_format(&s, "rate", buf, sizeof buf);
        CHECK(strcmp(buf, "0.35") == 0, "the settings stay as they were (rate %s)", buf);
    }
    fl_sim_settings_clear(&s);
    fl_routing_options_clear(&ro);
}

int main(void)
{
    test_names();
    test_each();
    test_ring_deadlocks();
    test_dateline();
    test_refusals();
    return tap_done();
}
