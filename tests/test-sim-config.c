/* test-sim-config.c — the option tables: every simulation setting reads
 * back as its canonical text, refuses bad values with a message naming it,
 * starts at fl_sim_config_init()'s defaults and reaches a field of the
 * configuration; the routing registry's options likewise. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flitlab.h"
#include "tap.h"

/* For every key: values and the canonical text each formats back as, a
 * non-default value (the first), and a value it refuses. A key missing
 * here fails the test, so that every new row comes with its samples. */
typedef struct Sample {
    const char *key;
    const char *values[4][2];   /* { text, canonical } */
    const char *bad;
} Sample;

static const Sample samples[] = {
    { "selection", { { "lowest", "lowest" }, { "random", "random" } }, "best" },
    { "vcs", { { "4", "4" }, { "1", "1" }, { "64", "64" } }, "65" },
    { "buf", { { "16", "16" }, { "1048576", "1048576" } }, "-1" },
    { "switching", { { "vct", "vct" }, { "wormhole", "wormhole" } }, "store" },
    { "release", { { "tail-credit", "tail-credit" } }, "never" },
    { "pipeline", { { "1:2:3:4:5", "1:2:3:4:5" }, { "0:0:1:1", "booksim-min" },
                    { "booksim-min", "booksim-min" }, { "2:0:0:0:0", "2:0:0:0" } }, "1:1:1" },
    { "link-latency", { { "3", "3" } }, "0" },
    { "link-cycles-per-flit", { { "2", "2" } }, "x" },
    { "traffic", { { "bitrev", "bitrev" }, { "trace", "trace" } }, "zigzag" },
    { "self", { { "true", "true" }, { "yes", "true" }, { "0", "false" } }, "maybe" },
    { "hotspot", { { "0.3:1,2", "0.3:1,2" }, { "1:0", "1:0" } }, "0.5" },
    { "trace", { { "packets.txt", "packets.txt" }, { "", "" } }, NULL },
    { "burst", { { "20:80", "20:80" }, { "1.5:2", "1.5:2" } }, "0:10" },
    { "injection", { { "onoff", "onoff" } }, "poisson" },
    { "packet", { { "2:16:0.25", "2:16:0.25" }, { "8", "8" }, { "1:16:0.5", "1:16:0.5" } },
      "1:16" },
    { "rate", { { "0.35", "0.35" }, { "1", "1" }, { "0.1", "0.1" } }, "1.5" },
    { "warmup", { { "3000", "3000" } }, "-5" },
    { "measure", { { "20000", "20000" } }, "many" },
    { "drain", { { "0", "0" } }, "1e3" },
    { "measure-rule", { { "booksim", "booksim" }, { "created", "created" } }, "bookism" },
    { "threads", { { "2", "2" }, { "64", "64" } }, "65" },
    { "watchdog", { { "500", "500" } }, "" },
    { "seed", { { "9223372036854775807", "9223372036854775807" }, { "7", "7" } }, "-1" },
    { "mode", { { "deflection", "deflection" } }, "fluid" },
    { "nmsg", { { "4", "4" } }, "0" },
    { "priority", { { "path_num", "path_num" }, { "age+path_num", "age+path_num" } }, "oldest" },
    { "cycles", { { "500", "500" } }, "0" },
    { "algorithm", { { "opt-mesh", "opt-mesh" }, { "u-mesh", "u-mesh" } }, "opt" },
    { "random", { { "31", "31" }, { "127", "127" } }, "0" },
    { "message-size", { { "1024", "1024" }, { "67108864", "67108864" } }, "67108865" },
    { "s-s", { { "0", "0" }, { "100000000", "100000000" } }, "100000001" },
    { "s-d", { { "4", "4" } }, "-1" },
    { "r-s", { { "1000", "1000" } }, "x" },
    { "r-d", { { "0", "0" } }, "1.5" },
    { "c-d", { { "1", "1" }, { "100000000", "100000000" } }, "0" },
    { "max-packet", { { "1024", "1024" }, { "0", "0" } }, "-1" },
    { "model-only", { { "true", "true" }, { "no", "false" } }, "perhaps" },
};

#define N_SAMPLES ((int)(sizeof samples / sizeof samples[0]))

static const Sample *sample_of(const char *key)
{
    for (int i = 0; i < N_SAMPLES; i++)
        if (strcmp(samples[i].key, key) == 0)
            return &samples[i];
    return NULL;
}

static const char *fmt(const FlSimSettings *s, const char *key)
{
    static char buf[256];
    if (fl_sim_settings_format(s, key, buf, sizeof buf) < 0)
        return "(unknown key)";
    return buf;
}

/* Every key's text, joined, to compare two settings. */
static void all_text(const FlSimSettings *s, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < fl_sim_settings_key_count() && used < len; i++) {
        const char *key = fl_sim_settings_key(i)->name;
        used += (size_t)snprintf(out + used, len - used, "%s=%s;", key, fmt(s, key));
    }
}

static void test_table(void)
{
    int n = fl_sim_settings_key_count();
    CHECK(n >= 25, "the table has %d keys", n);
    CHECK(fl_sim_settings_key(n) == NULL && fl_sim_settings_key(-1) == NULL,
          "no key outside the table");
    for (int i = 0; i < n; i++) {
        const FlOptionInfo *o = fl_sim_settings_key(i);
        CHECK(o->name && o->group && o->label && o->help && o->dflt && o->models,
              "%s: name, group, label, help, default and models", o->name);
        CHECK(fl_sim_settings_lookup(o->name) == o, "%s: found by name", o->name);
        for (int j = 0; j < i; j++)
            if (strcmp(fl_sim_settings_key(j)->name, o->name) == 0)
                CHECK(0, "%s appears twice", o->name);
        CHECK(sample_of(o->name) != NULL, "%s: the test has samples for it", o->name);
        CHECK((o->type == FL_OPTION_FLAG) == (o->arg == NULL), "%s: a placeholder unless a flag",
              o->name);
        if (o->type == FL_OPTION_ENUM)
            CHECK(fl_option_choice_count(o) >= 2, "%s: %d choices", o->name,
                  fl_option_choice_count(o));
        if (o->type == FL_OPTION_INT || o->type == FL_OPTION_INT64)
            CHECK(o->min_int <= o->max_int, "%s: a range", o->name);
    }
    CHECK(fl_sim_settings_lookup("nope") == NULL, "no key 'nope'");
    CHECK(fl_sim_model_option(FL_SIM_MODEL_FLIT) == FL_OPTION_FOR_FLIT
              && fl_sim_model_option(FL_SIM_MODEL_DEFLECTION) == FL_OPTION_FOR_DEFLECTION
              && fl_sim_model_option(FL_SIM_MODEL_MULTICAST) == FL_OPTION_FOR_MULTICAST
              && fl_option_choice_count(fl_sim_settings_lookup("mode")) == 3,
          "three models, each with its bit of the tables");
    /* The pipeline preset must come before the link latency it sets. */
    int pipeline = -1, latency = -1;
    for (int i = 0; i < n; i++) {
        if (strcmp(fl_sim_settings_key(i)->name, "pipeline") == 0)
            pipeline = i;
        if (strcmp(fl_sim_settings_key(i)->name, "link-latency") == 0)
            latency = i;
    }
    CHECK(pipeline >= 0 && pipeline < latency, "pipeline (%d) before link-latency (%d)",
          pipeline, latency);
    const FlOptionInfo *traffic = fl_sim_settings_lookup("traffic");
    CHECK_INT(fl_option_choice_count(traffic), fl_traffic_pattern_count());
}

static void test_defaults(void)
{
    FlSimSettings s;
    FlSimConfig init;
    fl_sim_settings_init(&s);
    fl_sim_config_init(&init);
    init.selection = FL_SELECT_CREDITS;
    CHECK(memcmp(&s.config, &init, sizeof init) == 0,
          "fresh settings hold fl_sim_config_init()'s configuration, selecting by credits");
    CHECK(s.model == FL_SIM_MODEL_FLIT && s.deflect.nmsg == 1
              && s.deflect.priority == FL_PRIORITY_AGE && s.deflect.cycles == 1000
              && s.deflect.seed == 1 && !s.hotspots && !s.trace_file,
          "deflection defaults: 1 message, age, 1000 cycles, seed 1");
    const FlMulticastConfig *mc = &s.multicast;
    CHECK(mc->algorithm == FL_MULTICAST_OPT_TREE && mc->dests == 7 && mc->flits == 64
              && mc->costs.send_startup == 2000 && mc->costs.send_per_flit == 2
              && mc->costs.recv_startup == 3500 && mc->costs.recv_per_flit == 3
              && mc->costs.max_packet == 0 && mc->channel_cycles == 2 && !mc->model_only,
          "multicast defaults: paper 001's section 4.2 costs, 64 flits, simulated");
    for (int i = 0; i < fl_sim_settings_key_count(); i++) {
        const FlOptionInfo *o = fl_sim_settings_key(i);
        CHECK(strcmp(fmt(&s, o->name), o->dflt) == 0, "%s: default '%s', formats as '%s'",
              o->name, o->dflt, fmt(&s, o->name));
    }
    /* Setting each default changes nothing a key shows. */
    char before[4096], after[4096];
    all_text(&s, before, sizeof before);
    FlError err = { 0 };
    for (int i = 0; i < fl_sim_settings_key_count(); i++) {
        const FlOptionInfo *o = fl_sim_settings_key(i);
        CHECK(fl_sim_settings_set(&s, o->name, o->dflt, &err) == FL_OK, "%s: set its default: %s",
              o->name, err.message);
    }
    all_text(&s, after, sizeof after);
    CHECK(strcmp(before, after) == 0, "defaults set back: %s", after);
    fl_sim_settings_clear(&s);
}

static void test_round_trip(void)
{
    for (int i = 0; i < N_SAMPLES; i++) {
        const Sample *sm = &samples[i];
        CHECK(fl_sim_settings_lookup(sm->key) != NULL, "%s is a key of the table", sm->key);
        for (int v = 0; v < 4 && sm->values[v][0]; v++) {
            FlSimSettings s;
            FlError err = { 0 };
            fl_sim_settings_init(&s);
            int rc = fl_sim_settings_set(&s, sm->key, sm->values[v][0], &err);
            CHECK(rc == FL_OK && strcmp(fmt(&s, sm->key), sm->values[v][1]) == 0,
                  "%s '%s' formats as '%s' (got '%s'%s%s)", sm->key, sm->values[v][0],
                  sm->values[v][1], fmt(&s, sm->key), rc ? ", refused: " : "",
                  rc ? err.message : "");
            /* The canonical text sets the same thing again. */
            char once[256];
            snprintf(once, sizeof once, "%s", fmt(&s, sm->key));
            CHECK(fl_sim_settings_set(&s, sm->key, once, &err) == FL_OK
                      && strcmp(fmt(&s, sm->key), once) == 0,
                  "%s: '%s' is stable", sm->key, once);
            fl_sim_settings_clear(&s);
        }
    }
}

static void test_refusals(void)
{
    for (int i = 0; i < N_SAMPLES; i++) {
        const Sample *sm = &samples[i];
        if (!sm->bad)
            continue;
        FlSimSettings s;
        FlError err = { 0 };
        char before[4096], after[4096];
        fl_sim_settings_init(&s);
        all_text(&s, before, sizeof before);
        int rc = fl_sim_settings_set(&s, sm->key, sm->bad, &err);
        all_text(&s, after, sizeof after);
        CHECK(rc != FL_OK && strstr(err.message, sm->key) && strstr(err.message, sm->bad),
              "%s '%s' is refused, naming both: %s", sm->key, sm->bad, err.message);
        CHECK(strcmp(before, after) == 0, "%s: a refused value changes nothing", sm->key);
        fl_sim_settings_clear(&s);
    }
    FlSimSettings s;
    FlError err = { 0 };
    fl_sim_settings_init(&s);
    CHECK(fl_sim_settings_set(&s, "warp", "9", &err) == FL_EINVAL
              && strstr(err.message, "unknown setting 'warp'") && strstr(err.message, "vcs"),
          "an unknown key is named, with the known ones: %s", err.message);
    CHECK(fl_sim_settings_set(&s, "pipeline", "warp", &err) != FL_OK
              && strstr(err.message, "unknown pipeline 'warp'"),
          "an unknown preset: %s", err.message);
    CHECK(fl_sim_settings_set(&s, "pipeline", "0:0:1:1:5000", &err) != FL_OK
              && strstr(err.message, "1000"),
          "a pipeline delay out of range: %s", err.message);
    CHECK(fl_sim_settings_set(&s, "vcs", "65", &err) == FL_ERANGE
              && strcmp(err.message, "vcs needs a whole number from 1 to 64, not '65'") == 0,
          "a number out of range: %s", err.message);
    /* A software cost ends where a simulated run, stepping through every
     * cycle, would take too long for one message; the refusal says so. */
    static const char *const stepped[] = { "s-s", "s-d", "r-s", "r-d", "c-d" };
    for (size_t i = 0; i < sizeof stepped / sizeof stepped[0]; i++) {
        char want[256];
        snprintf(want, sizeof want, "%s needs a whole number from %d to 100000000, not "
                 "'2147483647': a simulated run steps through every cycle a message takes",
                 stepped[i], strcmp(stepped[i], "c-d") == 0);
        CHECK(fl_sim_settings_set(&s, stepped[i], "2147483647", &err) == FL_ERANGE
                  && strcmp(err.message, want) == 0,
              "%s: a cost too long to simulate is refused, saying why: %s", stepped[i],
              err.message);
    }
    CHECK(fl_sim_settings_set(&s, "s-d", "99999999999999999999", &err) == FL_ERANGE
              && strstr(err.message, "steps through every cycle"),
          "a cost past 64 bits says why too: %s", err.message);
    CHECK(fl_sim_settings_set(&s, "s-s", "-1", &err) == FL_ERANGE
              && strcmp(err.message, "s-s needs a whole number from 0 to 100000000, not '-1'")
                     == 0,
          "a negative cost is refused by its range alone: %s", err.message);
    CHECK(fl_sim_settings_set(&s, "switching", "store", &err) == FL_EINVAL
              && strcmp(err.message,
                        "switching: unknown value 'store' (known: wormhole, vct)") == 0,
          "an unknown choice lists the known ones: %s", err.message);
    CHECK(fl_sim_settings_format(&s, "warp", NULL, 0) == -1, "format of an unknown key: -1");
    CHECK(fl_sim_settings_set(&s, "burst", "5:50", &err) == FL_OK
              && s.config.traffic.process == FL_INJECT_ONOFF
              && strcmp(fmt(&s, "injection"), "onoff") == 0,
          "bursts select on/off injection");
    fl_sim_settings_clear(&s);
}

/* The fields a user can set (each reached by some key). */
#define FIELD(member)                                                                      \
    { #member, offsetof(FlSimSettings, member), sizeof(((FlSimSettings *)0)->member) }
static const struct {
    const char *name;
    size_t offset, size;
} fields[] = {
    FIELD(model),
    FIELD(config.selection),
    FIELD(config.traffic.pattern),
    FIELD(config.traffic.include_self),
    FIELD(config.traffic.hotspot_fraction),
    FIELD(config.traffic.hotspots),
    FIELD(config.traffic.n_hotspots),
    FIELD(config.traffic.process),
    FIELD(config.traffic.rate),
    FIELD(config.traffic.burst_on),
    FIELD(config.traffic.burst_off),
    FIELD(config.traffic.packet_flits),
    FIELD(config.traffic.packet_flits_long),
    FIELD(config.traffic.long_fraction),
    FIELD(config.vcs),
    FIELD(config.buf_flits),
    FIELD(config.switching),
    FIELD(config.vc_release),
    FIELD(config.routing_delay),
    FIELD(config.vc_alloc_delay),
    FIELD(config.sw_alloc_delay),
    FIELD(config.xbar_delay),
    FIELD(config.credit_delay),
    FIELD(config.link_latency),
    FIELD(config.link_cycles_per_flit),
    FIELD(config.warmup_cycles),
    FIELD(config.measure_cycles),
    FIELD(config.drain_cycles),
    FIELD(config.deadlock_cycles),
    FIELD(config.seed),
    FIELD(config.threads),
    FIELD(deflect.nmsg),
    FIELD(deflect.priority),
    FIELD(deflect.cycles),
    FIELD(deflect.seed),
    FIELD(hotspots),
    FIELD(trace_file),
};

static void test_coverage(void)
{
    /* FlSimConfig's fields that no key sets: the routing (a built
     * object) and the trace's events and its file's name for messages
     * (read from the "trace" file by the front end). When FlSimConfig
     * grows, this fails: give the new field a key in sim-config.c and a
     * line in fields[] above. */
    size_t listed = 0;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strncmp(fields[i].name, "config.", 7) == 0)
            listed += fields[i].size;
    size_t unset = sizeof(const FlRouting *) + sizeof(const FlTraceEvent *) + sizeof(int64_t)
                   + sizeof(const char *);
    CHECK(sizeof(FlSimConfig) <= listed + unset + 32,
          "FlSimConfig (%zu bytes) has no field beyond the %zu bytes listed (%zu with the "
          "routing and the trace, padding aside)", sizeof(FlSimConfig), listed, listed + unset);

    FlSimSettings def, s;
    FlError err = { 0 };
    fl_sim_settings_init(&def);
    fl_sim_settings_init(&s);
    for (int i = 0; i < fl_sim_settings_key_count(); i++) {
        const char *key = fl_sim_settings_key(i)->name;
        const Sample *sm = sample_of(key);
        if (sm)
            CHECK(fl_sim_settings_set(&s, key, sm->values[0][0], &err) == FL_OK,
                  "set %s to '%s': %s", key, sm->values[0][0], err.message);
    }
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        CHECK(memcmp((char *)&def + fields[i].offset, (char *)&s + fields[i].offset,
                     fields[i].size) != 0,
              "%s changes when every key takes a value other than its default", fields[i].name);
    CHECK(s.config.traffic.hotspots == s.hotspots && s.config.traffic.n_hotspots == 2
              && s.hotspots[0] == 1 && s.hotspots[1] == 2,
          "the config's hotspots are the settings' own list");
    CHECK(s.config.traffic.process == FL_INJECT_ONOFF, "bursts are on/off injection");
    CHECK(s.config.seed == 9223372036854775807ULL && s.deflect.seed == s.config.seed,
          "one seed for both models");

    /* A copy owns its own storage. */
    FlSimSettings copy;
    CHECK(fl_sim_settings_copy(&copy, &s, &err) == FL_OK, "copy: %s", err.message);
    CHECK(copy.hotspots != s.hotspots && copy.config.traffic.hotspots == copy.hotspots
              && copy.trace_file != s.trace_file,
          "a copy has its own hotspots and trace file name");
    fl_sim_settings_clear(&s);
    CHECK(copy.hotspots[1] == 2 && strcmp(copy.trace_file, "packets.txt") == 0,
          "a copy outlives its original");
    CHECK(s.hotspots == NULL && s.trace_file == NULL && s.config.traffic.hotspots == NULL,
          "clear frees and resets");
    fl_sim_settings_clear(&copy);
}

/* Every key's text, set in the table's order on fresh settings, gives the
 * same settings back: what a front end or a database of runs stores. */
static void test_whole_round_trip(void)
{
    FlSimSettings s, back;
    FlError err = { 0 };
    char a[4096], b[4096];
    fl_sim_settings_init(&s);
    fl_sim_settings_init(&back);
    static const char *const set[][2] = {
        { "pipeline", "booksim-min" }, { "link-latency", "3" }, { "burst", "5:7" },
        { "injection", "bernoulli" },  { "hotspot", "0.25:3,4,5" }, { "trace", "t.txt" },
        { "packet", "2:16:0.125" },    { "seed", "42" },
    };
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
        CHECK(fl_sim_settings_set(&s, set[i][0], set[i][1], &err) == FL_OK, "set %s: %s",
              set[i][0], err.message);
    for (int i = 0; i < fl_sim_settings_key_count(); i++) {
        const char *key = fl_sim_settings_key(i)->name;
        char text[256];
        fl_sim_settings_format(&s, key, text, sizeof text);
        CHECK(fl_sim_settings_set(&back, key, text, &err) == FL_OK, "%s '%s' sets back: %s",
              key, text, err.message);
    }
    all_text(&s, a, sizeof a);
    all_text(&back, b, sizeof b);
    CHECK(strcmp(a, b) == 0, "every key's text in the table's order gives the settings back");
    CHECK(back.config.link_latency == 3 && back.config.traffic.process == FL_INJECT_BERNOULLI
              && back.config.traffic.n_hotspots == 3 && back.config.traffic.hotspots[2] == 5
              && back.config.sw_alloc_delay == 1 && back.deflect.seed == 42,
          "including what one key sets for another (preset and link latency, bursts and "
          "injection)");
    fl_sim_settings_clear(&s);
    fl_sim_settings_clear(&back);
}

typedef struct Field {
    const char *name;
    double value;
} Field;

/* The result keys read the fields they name; the channels' keys, the
 * busiest and the mean switch-to-switch channel, recomputed here. */
static void test_result_values(const FlSimResult *res, const FlTopology *t)
{
    const Field read[] = {
        { "latency_avg", res->latency_avg }, { "latency_p99", res->latency_p99 },
        { "network_latency_avg", res->network_latency_avg },
        { "throughput", res->throughput }, { "offered", res->offered },
        { "hops_avg", res->hops_avg }, { "packets", (double)res->packets },
        { "flit_hops", (double)res->flit_hops },
    };
    for (size_t i = 0; i < sizeof read / sizeof read[0]; i++) {
        int k = fl_sim_result_key_find(read[i].name);
        CHECK(k >= 0 && fl_sim_result_value(res, t, k) == read[i].value,
              "result key %s reads its field", read[i].name);
    }
    double max = 0, sum = 0;
    int counted = 0;
    for (int c = 0; c < fl_topology_channel_count(t); c++) {
        if (fl_topology_node_kind(t, fl_topology_channel_src(t, c)) != FL_NODE_SWITCH
            || fl_topology_node_kind(t, fl_topology_channel_dst(t, c)) != FL_NODE_SWITCH)
            continue;
        double u = res->channel_utilization[c];
        max = u > max ? u : max;
        sum += u;
        counted++;
    }
    int kmax = fl_sim_result_key_find("channel_utilization_max");
    int kavg = fl_sim_result_key_find("channel_utilization_avg");
    CHECK(counted == 48 && max > 0, "a 4x4 mesh has 48 switch channels, some busy");
    CHECK(fl_sim_result_value(res, t, kmax) == max
              && fabs(fl_sim_result_value(res, t, kavg) - sum / counted) < 1e-15,
          "the channels' keys: busiest %g, mean %g", max, sum / counted);
}

/* Names are unique and found, titles and units given; counts are integers. */
static void test_result_keys(void)
{
    int n = fl_sim_result_key_count(), flit = 0, deflect = 0, mcast = 0;
    for (int i = 0; i < n; i++) {
        flit += (fl_sim_result_key(i)->models & FL_OPTION_FOR_FLIT) != 0;
        deflect += (fl_sim_result_key(i)->models & FL_OPTION_FOR_DEFLECTION) != 0;
        mcast += (fl_sim_result_key(i)->models & FL_OPTION_FOR_MULTICAST) != 0;
    }
    CHECK(flit == 17 && deflect == 8 && mcast == 8, "17 keys of the simulator's results, 8 of "
          "the deflection model's, 8 of the multicast model's (%d, %d, %d)", flit, deflect,
          mcast);
    static const char *const mc_names[] = { "cycles", "wall_s", "t_hold", "t_end", "latency",
                                            "simulated_latency", "latency_ratio",
                                            "contention" };
    for (int i = 0; i < 8; i++)
        CHECK(fl_sim_result_key_find_for(mc_names[i], FL_OPTION_FOR_MULTICAST) >= 0,
              "the multicast model has key %s", mc_names[i]);
    for (int i = 0; i < n; i++) {
        const FlSimResultKey *k = fl_sim_result_key(i);
        CHECK(k && k->name && k->title && k->unit
                  && fl_sim_result_key_find_for(k->name, k->models) == i,
              "result key %d (%s) is found by its name", i, k ? k->name : "?");
    }
    CHECK(!fl_sim_result_key(n) && !fl_sim_result_key(-1) && fl_sim_result_key_find("x") == -1,
          "no key out of range or by an unknown name");
    int flit_throughput = fl_sim_result_key_find("throughput");
    int deflect_throughput = fl_sim_result_key_find_for("throughput", FL_OPTION_FOR_DEFLECTION);
    CHECK(flit_throughput >= 0 && deflect_throughput >= 0 && flit_throughput != deflect_throughput
              && strcmp(fl_sim_result_key(deflect_throughput)->unit, "messages/cycle/node") == 0,
          "throughput is a key of each model, with its own unit");
    CHECK(fl_sim_result_key(fl_sim_result_key_find("packets"))->integer
              && !fl_sim_result_key(fl_sim_result_key_find("latency_avg"))->integer,
          "packets are counted, latency is not");
}

/* The deflection model's keys: the delays at the end of the run, the
 * throughput over its second half and over all of it. */
static void test_deflect_values(void)
{
    FlTopology *t = NULL;
    FlRouting *r = NULL;
    FlDeflectResult res;
    FlError err = { 0 };
    memset(&res, 0, sizeof res);
    FlDeflectConfig cfg = { .nmsg = 2, .priority = FL_PRIORITY_AGE, .cycles = 101, .seed = 3 };
    int ok = fl_topology_from_spec("xmesh:6x12", &t, &err) == FL_OK
             && fl_routing_new(t, "xmesh", NULL, &r, &err) == FL_OK;
    cfg.routing = r;
    ok = ok && fl_deflect_run(t, &cfg, &res, NULL, NULL, &err) == FL_OK;
    CHECK(ok && res.cycles == 101, "a deflection run: %s", ok ? "ok" : err.message);
    double half = 0, all = 0;
    for (int64_t c = 0; ok && c < res.cycles; c++) {
        all += res.throughput[c];
        half += c >= 50 ? res.throughput[c] : 0;
    }
    const Field want[] = {
        { "cycles", 101 }, { "delivered", (double)res.delivered },
        { "deflections", (double)res.deflections }, { "max_delay", ok ? res.max_delay[100] : 0 },
        { "avg_delay", ok ? res.avg_delay[100] : 0 }, { "throughput", half / 51 },
        { "throughput_all", all / 101 }, { "wall_s", res.wall_s },
    };
    for (size_t i = 0; ok && i < sizeof want / sizeof want[0]; i++) {
        int k = fl_sim_result_key_find_for(want[i].name, FL_OPTION_FOR_DEFLECTION);
        CHECK(k >= 0 && fabs(fl_deflect_result_value(&res, k) - want[i].value) < 1e-12,
              "deflection key %s: %g", want[i].name, want[i].value);
    }
    CHECK(isnan(fl_deflect_result_value(&res, fl_sim_result_key_find("latency_avg"))),
          "a key of the flit-level simulator only is NaN for a deflection run");
    fl_deflect_result_clear(&res);
    fl_routing_free(r);
    fl_topology_free(t);
}

/* Settings made by key run as the configuration would. */
static void test_run(void)
{
    FlTopology *t = NULL;
    FlRouting *r = NULL;
    FlSim *sim = NULL;
    FlSimResult res;
    FlSimSettings s;
    FlError err = { 0 };
    memset(&res, 0, sizeof res);
    fl_sim_settings_init(&s);
    static const char *const set[][2] = {
        { "rate", "0.1" }, { "packet", "4" }, { "warmup", "100" }, { "measure", "500" },
        { "pipeline", "booksim-min" }, { "selection", "credits" },
    };
    int ok = fl_topology_from_spec("mesh:4x4", &t, &err) == FL_OK
             && fl_routing_new(t, "dor", NULL, &r, &err) == FL_OK;
    for (size_t i = 0; ok && i < sizeof set / sizeof set[0]; i++)
        ok = fl_sim_settings_set(&s, set[i][0], set[i][1], &err) == FL_OK;
    s.config.routing = r;
    ok = ok && fl_sim_new(t, &s.config, &sim, &err) == FL_OK
         && fl_sim_run(sim, &res, NULL, NULL, &err) == FL_OK;
    CHECK(ok && res.status == FL_SIM_OK && res.packets > 0, "a run from settings: %s",
          ok ? fl_sim_status_name(res.status) : err.message);
    test_result_values(&res, t);
    fl_sim_result_clear(&res);
    fl_sim_free(sim);
    fl_routing_free(r);
    fl_topology_free(t);
    fl_sim_settings_clear(&s);
}

static void test_routing_options(void)
{
    int n = fl_routing_option_count();
    CHECK(n == 4, "four routing options (%d)", n);
    for (int i = 0; i < fl_routing_count(); i++) {
        const FlRoutingInfo *info = fl_routing_info(i);
        for (int k = 0; info->options && info->options[k]; k++)
            CHECK(fl_routing_option_lookup(info->options[k]->name) == info->options[k],
                  "%s's option %s is one of the registry's", info->name,
                  info->options[k]->name);
    }
    CHECK(fl_routing_takes(fl_routing_lookup("dor"), "order")
              && fl_routing_takes(fl_routing_lookup("dor"), "classes")
              && !fl_routing_takes(fl_routing_lookup("dor"), "root"),
          "dor takes an order and VC classes, no root");
    CHECK(fl_routing_takes(fl_routing_lookup("updown"), "root")
              && fl_routing_takes(fl_routing_lookup("lturn-beta"), "root")
              && fl_routing_takes(fl_routing_lookup("rturn-alpha"), "root")
              && !fl_routing_takes(fl_routing_lookup("updown"), "order"),
          "the spanning-tree routings take a root");
    CHECK(fl_routing_takes(fl_routing_lookup("turnset"), "prohibit")
              && !fl_routing_takes(fl_routing_lookup("shortest"), "prohibit"),
          "turnset takes prohibited turns");

    static const char *const trips[][3] = {
        { "root", "5", "5" },       { "root", "auto", "auto" }, { "classes", "1", "1" },
        { "classes", "auto", "auto" }, { "order", "yx", "yx" }, { "order", "zyx", "zyx" },
        { "order", "auto", "auto" }, { "prohibit", "2:0>1, 2:1>0", "2:0>1,2:1>0" },
        { "prohibit", "none", "none" },
    };
    for (size_t i = 0; i < sizeof trips / sizeof trips[0]; i++) {
        FlRoutingOptions opt;
        FlError err = { 0 };
        char buf[128] = "";
        fl_routing_options_init(&opt);
        int rc = fl_routing_options_set(&opt, trips[i][0], trips[i][1], &err);
        fl_routing_options_format(&opt, trips[i][0], buf, sizeof buf);
        CHECK(rc == FL_OK && strcmp(buf, trips[i][2]) == 0, "%s '%s' formats as '%s' (got '%s')",
              trips[i][0], trips[i][1], trips[i][2], buf);
        fl_routing_options_clear(&opt);
    }
    static const char *const bad[][2] = {
        { "root", "-2" }, { "classes", "17" }, { "order", "xz" }, { "prohibit", "2:0-1" },
        { "prohibit", "" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        FlRoutingOptions opt;
        FlError err = { 0 };
        fl_routing_options_init(&opt);
        int rc = fl_routing_options_set(&opt, bad[i][0], bad[i][1], &err);
        CHECK(rc != FL_OK && strncmp(err.message, bad[i][0], strlen(bad[i][0])) == 0
                  && strstr(err.message, bad[i][1]) && opt.root == -1 && opt.vc_classes == 0
                  && !opt.order && !opt.prohibited,
              "%s '%s' is refused and changes nothing: %s", bad[i][0], bad[i][1], err.message);
    }
    /* Options set by key build the routing they describe. */
    FlTopology *t = NULL;
    FlRouting *r = NULL;
    FlRoutingOptions opt;
    FlError err = { 0 };
    fl_routing_options_init(&opt);
    int ok = fl_topology_from_spec("torus:4x4", &t, &err) == FL_OK
             && fl_routing_options_set(&opt, "classes", "1", &err) == FL_OK
             && fl_routing_options_set(&opt, "order", "yx", &err) == FL_OK
             && fl_routing_new(t, "dor", &opt, &r, &err) == FL_OK;
    CHECK(ok && fl_routing_vc_classes(r) == 1, "dor with classes 1 on a torus: no dateline");
    fl_routing_free(r);
    r = NULL;
    fl_routing_options_clear(&opt);
    ok = fl_routing_options_set(&opt, "prohibit", "0:0>1", &err) == FL_OK
         && fl_routing_options_set(&opt, "prohibit", "0:1>0,5:0>1", &err) == FL_OK
         && opt.n_prohibited == 2 && fl_routing_new(t, "turnset", &opt, &r, &err) == FL_OK;
    CHECK(ok && fl_routing_turn_prohibited(r, 5, 0, 1), "turnset from prohibit set twice: %s",
          ok ? "built" : err.message);
    fl_routing_free(r);
    fl_routing_options_clear(&opt);
    fl_topology_free(t);
}

int main(void)
{
    test_table();
    test_defaults();
    test_round_trip();
    test_refusals();
    test_coverage();
    test_whole_round_trip();
    test_result_keys();
    test_deflect_values();
    test_run();
    test_routing_options();
    return tap_done();
}
