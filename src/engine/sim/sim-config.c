/* sim-config.c — the simulator's configuration: its defaults and pipeline
 * presets, and the table of settings that front ends set and read by key
 * (flitlab/config.h). */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deflect-internal.h"
#include "option-internal.h"

void fl_sim_config_init(FlSimConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->selection = FL_SELECT_LOWEST_PORT;
    fl_traffic_config_init(&cfg->traffic);
    cfg->traffic.rate = 0.1;
    cfg->traffic.packet_flits = 1;
    cfg->vcs = 2;
    cfg->buf_flits = 8;
    cfg->switching = FL_SWITCHING_WORMHOLE;
    cfg->vc_release = FL_VC_RELEASE_TAIL_SENT;
    cfg->link_latency = 1;
    cfg->link_cycles_per_flit = 1;
    cfg->warmup_cycles = 1000;
    cfg->measure_cycles = 10000;
    cfg->drain_cycles = 100000;
    cfg->deadlock_cycles = 10000;
    cfg->seed = 1;
    cfg->threads = 1;
}

typedef struct Pipeline {
    const char *name;
    int routing, vc_alloc, sw_alloc, xbar, credit, link;
} Pipeline;

/* booksim-min: BookSim's speculative allocator performs VC and switch
 * allocation in one cycle, which this model expresses as vc_alloc 0 and
 * sw_alloc 1; then one cycle of crossbar and one of link. Credits return
 * with no extra delay: a credit delay of 1 brings 1-flit packets under the
 * tail-credit release rule from 35 % above BookSim's saturation to within
 * 9 %, but adds 3 cycles to the zero-load latency of 16-flit packets in
 * 8-flit buffers (the credit loop then throttles the stream), which BookSim
 * does not show. */
static const Pipeline pipelines[] = {
    { "default", 0, 0, 0, 0, 0, 1 },
    { "booksim-min", 0, 0, 1, 1, 0, 1 },
};

int fl_sim_config_pipeline(FlSimConfig *cfg, const char *name, FlError *err)
{
    for (size_t i = 0; i < sizeof pipelines / sizeof pipelines[0]; i++) {
        const Pipeline *p = &pipelines[i];
        if (name && strcmp(name, p->name) == 0) {
            cfg->routing_delay = p->routing;
            cfg->vc_alloc_delay = p->vc_alloc;
            cfg->sw_alloc_delay = p->sw_alloc;
            cfg->xbar_delay = p->xbar;
            cfg->credit_delay = p->credit;
            cfg->link_latency = p->link;
            return FL_OK;
        }
    }
    return fl_error_set(err, FL_EINVAL, "unknown pipeline '%s' (known: default, booksim-min)",
                        name ? name : "");
}

/* ---- the table of settings ---------------------------------------------- */

/* Where a plain setting lives in FlSimSettings, and how it is stored. */
typedef enum FieldKind {
    FIELD_CUSTOM = 0,   /* the row's own set and format */
    FIELD_INT,          /* int */
    FIELD_INT64,        /* int64_t */
    FIELD_DOUBLE,       /* double */
    FIELD_ENUM,         /* an enum, stored as an int-sized value */
    FIELD_FLAG          /* int, 0 or 1 */
} FieldKind;

typedef struct Key Key;
struct Key {
    FlOptionInfo info;   /* first, so that fl_sim_settings_key() can point at it */
    FieldKind kind;
    size_t offset;       /* FIELD_*: offsetof(FlSimSettings, ...) */
    int (*set)(FlSimSettings *s, const Key *k, const char *text, FlError *err);
    int (*format)(const FlSimSettings *s, char *buf, size_t len);
};

#define FLIT FL_OPTION_FOR_FLIT
#define DEFLECTION FL_OPTION_FOR_DEFLECTION
#define MULTICAST FL_OPTION_FOR_MULTICAST
/* The flit-level simulator and the multicast model's flit-by-flit run. */
#define ROUTER (FLIT | MULTICAST)
#define AT(member) offsetof(FlSimSettings, member)
#define NOLIMIT INT64_MAX
#define MAX_DELAY 1000         /* the longest pipeline stage, in cycles */
#define MAX_MESSAGE (1 << 26)  /* the longest multicast message, in flits */
#define MAX_HOSTS (1 << 24)    /* the most destinations of a multicast */

static const char *const selections[] = { "lowest", "random", "credits", NULL };
static const char *const switchings[] = { "wormhole", "vct", NULL };
static const char *const releases[] = { "tail-sent", "tail-credit", NULL };
static const char *const injections[] = { "bernoulli", "onoff", NULL };
static const char *const measure_rules[] = { "created", "booksim", NULL };
static const char *const models[] = { "flit", "deflection", "multicast", NULL };
static const char *const priorities[] = { "random", "age", "path_num", "age+path_num", NULL };

static const char *algorithm_choice(int index)
{
    return index >= 0 ? fl_multicast_algorithm_name((FlMulticastAlgorithm)index) : NULL;
}

/* ---- custom rows ---- */

static int set_traffic(FlSimSettings *s, const Key *k, const char *text, FlError *err)
{
    (void)k;
    char known[512] = "";
    size_t used = 0;
    for (int i = 0; i < fl_traffic_pattern_count(); i++) {
        const char *name = fl_traffic_pattern_name(i);
        if (strcmp(name, text) == 0) {
            s->config.traffic.pattern = name;
            return FL_OK;
        }
        if (used < sizeof known)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                     name);
    }
    return fl_error_set(err, FL_EINVAL, "unknown traffic '%s' (known: %s)", text, known);
}

static int format_traffic(const FlSimSettings *s, char *buf, size_t len)
{
    return snprintf(buf, len, "%s", s->config.traffic.pattern ? s->config.traffic.pattern
                                                              : "uniform");
}

/* "L" or "S:L:FRACTION_LONG". */
static int set_packet(FlSimSettings *s, const Key *k, const char *text, FlError *err)
{
    double v[3];
    int n = fl_option_split_numbers(text, v, 3);
    int whole = n > 0 && v[0] == floor(v[0]) && v[0] >= 1 && v[0] <= FL_MAX_PACKET_FLITS
                && (n < 2 || (v[1] == floor(v[1]) && v[1] >= 1 && v[1] <= FL_MAX_PACKET_FLITS));
    if (!whole || n == 2 || (n == 3 && (v[2] < 0 || v[2] > 1)))
        return fl_error_set(err, FL_EINVAL, "%s needs a length in flits (8) or a bimodal mix "
                            "SHORT:LONG:FRACTION_LONG (1:16:0.25), not '%s'", k->info.name,
                            text);
    FlTrafficConfig *tc = &s->config.traffic;
    tc->packet_flits = (int)v[0];
    tc->packet_flits_long = n == 3 ? (int)v[1] : 0;
    tc->long_fraction = n == 3 ? v[2] : 0;
    return FL_OK;
}

static int format_packet(const FlSimSettings *s, char *buf, size_t len)
{
    const FlTrafficConfig *tc = &s->config.traffic;
    if (tc->packet_flits_long <= 0)
        return snprintf(buf, len, "%d", tc->packet_flits);
    char fraction[32];
    fl__format_double(fraction, sizeof fraction, tc->long_fraction);
    return snprintf(buf, len, "%d:%d:%s", tc->packet_flits, tc->packet_flits_long, fraction);
}

/* "FRACTION:H1,H2,...", the hosts as ranks. */
static int set_hotspot(FlSimSettings *s, const Key *k, const char *text, FlError *err)
{
    char *end;
    double f = strtod(text, &end);
    int ok = end != text && *end == ':' && f >= 0 && f <= 1;
    int cap = 1;
    for (const char *c = text; *c; c++)
        cap += *c == ',';
    int *list = ok ? malloc(sizeof *list * (size_t)cap) : NULL;
    if (ok && !list)
        return fl_error_set(err, FL_ENOMEM, "out of memory for the hotspots");
    int n = 0;
    for (const char *c = end + 1; list;) {
        char *after;
        long h = strtol(c, &after, 10);
        if (after == c || h < 0 || h > INT32_MAX || (*after != ',' && *after != '\0'))
            break;
        list[n++] = (int)h;
        if (*after == '\0') {
            free(s->hotspots);
            s->hotspots = list;
            s->config.traffic.hotspot_fraction = f;
            s->config.traffic.hotspots = list;
            s->config.traffic.n_hotspots = n;
            return FL_OK;
        }
        c = after + 1;
    }
    free(list);
    return fl_error_set(err, FL_EINVAL, "%s needs FRACTION:HOST,HOST,... (host ranks), e.g. "
                        "0.2:0,63, not '%s'", k->info.name, text);
}

static int format_hotspot(const FlSimSettings *s, char *buf, size_t len)
{
    const FlTrafficConfig *tc = &s->config.traffic;
    char text[64];
    fl__format_double(text, sizeof text, tc->hotspot_fraction);
    int total = snprintf(buf, len, "%s:", text);
    /* Without a list the engine sends to host 0. */
    int n = tc->hotspots && tc->n_hotspots > 0 ? tc->n_hotspots : 1;
    for (int i = 0; i < n; i++) {
        size_t used = total >= 0 && (size_t)total < len ? (size_t)total : len;
        total += snprintf(buf + used, len - used, "%s%d", i ? "," : "",
                          tc->hotspots && tc->n_hotspots > 0 ? tc->hotspots[i] : 0);
    }
    return total;
}

static int set_trace(FlSimSettings *s, const Key *k, const char *text, FlError *err)
{
    (void)k;
    char *copy = NULL;
    if (*text && !(copy = strdup(text)))
        return fl_error_set(err, FL_ENOMEM, "out of memory for the trace file's name");
    free(s->trace_file);
    s->trace_file = copy;
    return FL_OK;
}

static int format_trace(const FlSimSettings *s, char *buf, size_t len)
{
    return snprintf(buf, len, "%s", s->trace_file ? s->trace_file : "");
}

/* "ON:OFF", the mean period lengths; bursts imply on/off injection. */
static int set_burst(FlSimSettings *s, const Key *k, const char *text, FlError *err)
{
    double on_off[2];
    if (fl_option_split_numbers(text, on_off, 2) != 2 || on_off[0] < 1 || on_off[1] < 1)
        return fl_error_set(err, FL_EINVAL, "%s needs ON:OFF, the mean on and off period "
                            "lengths in cycles (each at least 1), not '%s'", k->info.name, text);
    s->config.traffic.process = FL_INJECT_ONOFF;
    s->config.traffic.burst_on = on_off[0];
    s->config.traffic.burst_off = on_off[1];
    return FL_OK;
}

static int format_burst(const FlSimSettings *s, char *buf, size_t len)
{
    char on[32], off[32];
    fl__format_double(on, sizeof on, s->config.traffic.burst_on);
    fl__format_double(off, sizeof off, s->config.traffic.burst_off);
    return snprintf(buf, len, "%s:%s", on, off);
}

/* A preset's name, or R:VA:SA:X[:CREDIT], the delays in cycles of routing,
 * VC allocation, switch allocation, crossbar and credit return (see
 * sim-internal.h for where each applies). A preset also sets the link
 * latency. */
static int set_pipeline(FlSimSettings *s, const Key *k, const char *text, FlError *err)
{
    FlSimConfig *cfg = &s->config;
    if (*text < '0' || *text > '9') {
        FlError why = { 0 };
        if (fl_sim_config_pipeline(cfg, text, &why))
            return fl_error_set(err, why.code, "%s: %s, or delays R:VA:SA:X[:CREDIT]",
                                k->info.name, why.message);
        return FL_OK;
    }
    double v[5];
    int n = fl_option_split_numbers(text, v, 5);
    int whole = n >= 4;
    for (int i = 0; whole && i < n; i++)
        whole = v[i] == floor(v[i]) && v[i] >= 0 && v[i] <= MAX_DELAY;
    if (!whole)
        return fl_error_set(err, FL_EINVAL, "%s needs a preset (default, booksim-min) or the "
                            "delays R:VA:SA:X[:CREDIT], whole cycles from 0 to %d "
                            "(booksim-min is 0:0:1:1:0), not '%s'", k->info.name, MAX_DELAY,
                            text);
    cfg->routing_delay = (int)v[0];
    cfg->vc_alloc_delay = (int)v[1];
    cfg->sw_alloc_delay = (int)v[2];
    cfg->xbar_delay = (int)v[3];
    cfg->credit_delay = n == 5 ? (int)v[4] : 0;
    return FL_OK;
}

static int same_delays(const FlSimConfig *a, const Pipeline *p)
{
    return a->routing_delay == p->routing && a->vc_alloc_delay == p->vc_alloc
           && a->sw_alloc_delay == p->sw_alloc && a->xbar_delay == p->xbar
           && a->credit_delay == p->credit;
}

static int format_pipeline(const FlSimSettings *s, char *buf, size_t len)
{
    const FlSimConfig *cfg = &s->config;
    for (size_t i = 0; i < sizeof pipelines / sizeof pipelines[0]; i++)
        if (same_delays(cfg, &pipelines[i]))
            return snprintf(buf, len, "%s", pipelines[i].name);
    int n = snprintf(buf, len, "%d:%d:%d:%d", cfg->routing_delay, cfg->vc_alloc_delay,
                     cfg->sw_alloc_delay, cfg->xbar_delay);
    if (!cfg->credit_delay)
        return n;
    size_t used = n >= 0 && (size_t)n < len ? (size_t)n : len;
    return n + snprintf(buf + used, len - used, ":%d", cfg->credit_delay);
}

/* One seed for either model. */
static int set_seed(FlSimSettings *s, const Key *k, const char *text, FlError *err)
{
    int64_t v;
    int rc = fl__option_parse_int(&k->info, text, 0, &v, err);
    if (rc)
        return rc;
    s->config.seed = (uint64_t)v;
    s->deflect.seed = (uint64_t)v;
    return FL_OK;
}

static int format_seed(const FlSimSettings *s, char *buf, size_t len)
{
    return snprintf(buf, len, "%" PRIu64, s->config.seed);
}

/* ---- the rows ---- */

#define INT_ROW(name_, group_, label_, arg_, help_, dflt_, lo, hi, models_, member)        \
    { { .name = name_, .type = FL_OPTION_INT, .group = group_, .label = label_,           \
        .arg = arg_, .help = help_, .dflt = dflt_, .min_int = lo, .max_int = hi,          \
        .models = models_ },                                                              \
      FIELD_INT, AT(member), NULL, NULL }
#define INT64_ROW(name_, group_, label_, arg_, help_, dflt_, lo, hi, models_, member)      \
    { { .name = name_, .type = FL_OPTION_INT64, .group = group_, .label = label_,         \
        .arg = arg_, .help = help_, .dflt = dflt_, .min_int = lo, .max_int = hi,          \
        .models = models_ },                                                              \
      FIELD_INT64, AT(member), NULL, NULL }
#define ENUM_ROW(name_, group_, label_, arg_, help_, dflt_, names, models_, member)        \
    { { .name = name_, .type = FL_OPTION_ENUM, .group = group_, .label = label_,          \
        .arg = arg_, .help = help_, .dflt = dflt_, .choices = names, .models = models_ },  \
      FIELD_ENUM, AT(member), NULL, NULL }
#define CUSTOM_ROW(name_, type_, group_, label_, arg_, help_, dflt_, models_, fn)          \
    { { .name = name_, .type = type_, .group = group_, .label = label_, .arg = arg_,      \
        .help = help_, .dflt = dflt_, .models = models_ },                                \
      FIELD_CUSTOM, 0, set_##fn, format_##fn }

/* A software cost of paper 001's multicast, in cycles: at most what one
 * message may take in a simulated run (fl_message_costs_check() bounds
 * their sum). */
#define COST_LIMIT FL_N_("a simulated run steps through every cycle a message takes")
/* clang-format off */
#define COST_ROW(name_, label_, help_, dflt_, lo, member)                                  \
    { { .name = name_, .type = FL_OPTION_INT64, .group = FL_N_("Multicast"), .label = label_,    \
        .arg = "N", .help = help_, .dflt = dflt_, .min_int = lo,            \
        .max_int = FL_MESSAGE_MAX_CYCLES, .models = MULTICAST, .limit = COST_LIMIT },      \
      FIELD_INT64, AT(multicast.member), NULL, NULL }
/* clang-format on */

static const Key keys[] = {
    /* The router. */
    ENUM_ROW("selection", FL_N_("Router"), FL_N_("Output selection"), "HOW",
             FL_N_("which legal next hop a packet takes; credits: the most free buffer "
                   "downstream"),
             "credits", selections, ROUTER, config.selection),
    INT_ROW("vcs", FL_N_("Router"), FL_N_("Virtual channels"), "V",
            FL_N_("virtual channels per port"), "2", 1, 64, ROUTER, config.vcs),
    INT_ROW("buf", FL_N_("Router"), FL_N_("Buffer depth"), "B",
            FL_N_("buffer depth of each VC in flits"), "8", 1, 1 << 20, ROUTER, config.buf_flits),
    ENUM_ROW("switching", FL_N_("Router"), FL_N_("Switching"), "MODE",
             FL_N_("how a head advances; vct (virtual cut-through): only into room for "
                   "the whole packet"),
             "wormhole", switchings, ROUTER, config.switching),
    ENUM_ROW("release", FL_N_("Router"), FL_N_("VC release"), "RULE",
             FL_N_("when a VC takes the next packet: once the tail has left, or once its "
                   "credit is back"),
             "tail-sent", releases, ROUTER, config.vc_release),
    CUSTOM_ROW("pipeline", FL_OPTION_COMPOSITE, FL_N_("Router"), FL_N_("Pipeline"), "NAME",
               FL_N_("default (1 cycle per hop), booksim-min (3 per hop), or delays "
                     "R:VA:SA:X[:CREDIT]"),
               "default", ROUTER, pipeline),
    INT_ROW("link-latency", FL_N_("Router"), FL_N_("Link latency"), "N",
            FL_N_("cycles a flit spends on a channel"), "1", 1, 1 << 20, ROUTER,
            config.link_latency),
    INT_ROW("link-cycles-per-flit", FL_N_("Router"), FL_N_("Link cycles per flit"), "C",
            FL_N_("cycles a flit occupies a channel"), "1", 1, 1 << 20, FLIT,
            config.link_cycles_per_flit),

    /* The traffic. */
    { { .name = "traffic",
        .type = FL_OPTION_ENUM,
        .group = FL_N_("Traffic"),
        .label = FL_N_("Traffic pattern"),
        .arg = "PATTERN",
        .help = FL_N_("the destinations of the packets"),
        .dflt = "uniform",
        .choice_fn = fl_traffic_pattern_name,
        .models = FLIT },
      FIELD_CUSTOM,
      0,
      set_traffic,
      format_traffic },
    { { .name = "self",
        .type = FL_OPTION_FLAG,
        .group = FL_N_("Traffic"),
        .label = FL_N_("Sources pick themselves"),
        .arg = NULL,
        .help = FL_N_("uniform: hosts may pick themselves, as BookSim does"),
        .dflt = "false",
        .models = FLIT },
      FIELD_FLAG,
      AT(config.traffic.include_self),
      NULL,
      NULL },
    CUSTOM_ROW("hotspot", FL_OPTION_COMPOSITE, FL_N_("Traffic"), FL_N_("Hotspots"), "F:H1,H2..",
               FL_N_("hotspot: share F of packets goes to hosts H1,H2.."), "0.1:0", FLIT, hotspot),
    CUSTOM_ROW("trace", FL_OPTION_STRING, FL_N_("Traffic"), FL_N_("Trace file"), "FILE",
               FL_N_("replay a trace (lines: cycle source destination flits)"), "", FLIT, trace),
    CUSTOM_ROW("burst", FL_OPTION_COMPOSITE, FL_N_("Traffic"), FL_N_("Bursts"), "ON:OFF",
               FL_N_("bursty on/off injection, mean period lengths in cycles"), "10:10", FLIT,
               burst),
    ENUM_ROW("injection", FL_N_("Traffic"), FL_N_("Injection"), "PROCESS",
             FL_N_("when hosts make packets: each cycle with probability rate/length, or "
                   "in bursts"),
             "bernoulli", injections, FLIT, config.traffic.process),
    CUSTOM_ROW("packet", FL_OPTION_COMPOSITE, FL_N_("Traffic"), FL_N_("Packet length"), "L|S:L:F",
               FL_N_("packet length L, or bimodal: S or L flits, F long"), "1", FLIT, packet),
    { { .name = "rate",
        .type = FL_OPTION_DOUBLE,
        .group = FL_N_("Traffic"),
        .label = FL_N_("Offered load"),
        .arg = "X",
        .help = FL_N_("offered load, flits per cycle per host, 0 to 1"),
        .dflt = "0.1",
        .min = 0,
        .max = 1,
        .models = FLIT },
      FIELD_DOUBLE,
      AT(config.traffic.rate),
      NULL,
      NULL },

    /* The run. */
    INT64_ROW("warmup", FL_N_("Run"), FL_N_("Warm-up"), "W",
              FL_N_("warm-up cycles before statistics"), "1000", 0, FL_SIM_MAX_CYCLES, FLIT,
              config.warmup_cycles),
    INT64_ROW("measure", FL_N_("Run"), FL_N_("Measured cycles"), "M",
              FL_N_("cycles whose packets are measured"), "10000", 1, FL_SIM_MAX_CYCLES, FLIT,
              config.measure_cycles),
    INT64_ROW("drain", FL_N_("Run"), FL_N_("Drain"), "D",
              FL_N_("at most this many cycles to deliver them"), "100000", 0, FL_SIM_MAX_CYCLES,
              FLIT, config.drain_cycles),
    ENUM_ROW("measure-rule", FL_N_("Run"), FL_N_("Measured packets"), "RULE",
             FL_N_("created: those made in the window; booksim: as BookSim's throughput runs, "
                   "those whose turn to leave their host comes in it, all delivered"),
             "created", measure_rules, FLIT, config.measure_rule),
    INT_ROW("threads", FL_N_("Run"), FL_N_("Threads"), "N",
            FL_N_("threads sharing the switches of one run (the results do not depend on it)"),
            "1", 1, FL_SIM_MAX_THREADS, FLIT, config.threads),
    INT64_ROW("watchdog", FL_N_("Run"), FL_N_("Watchdog"), "N",
              FL_N_("deadlock after N cycles without progress"), "10000", 1, FL_SIM_MAX_CYCLES,
              ROUTER, config.deadlock_cycles),
    { { .name = "seed",
        .type = FL_OPTION_INT64,
        .group = FL_N_("Run"),
        .label = FL_N_("Random seed"),
        .arg = "S",
        .help = FL_N_("random seed"),
        .dflt = "1",
        .min_int = 0,
        .max_int = NOLIMIT,
        .models = FLIT | DEFLECTION | MULTICAST },
      FIELD_CUSTOM,
      0,
      set_seed,
      format_seed },

    /* The model, and paper 003's. */
    ENUM_ROW("mode", FL_N_("Model"), FL_N_("Model"), "MODE",
             FL_N_("the flit-level simulator, paper 003's bufferless deflection model, or a "
                   "multicast tree (paper 001)"),
             "flit", models, FLIT | DEFLECTION | MULTICAST, model),
    INT_ROW("nmsg", FL_N_("Model"), FL_N_("Messages per node"), "K",
            FL_N_("deflection: messages per node"), "1", 1, 64, DEFLECTION, deflect.nmsg),
    ENUM_ROW("priority", FL_N_("Model"), FL_N_("Priority"), "P",
             FL_N_("deflection: which messages take their best output first"), "age", priorities,
             DEFLECTION, deflect.priority),
    INT64_ROW("cycles", FL_N_("Model"), FL_N_("Cycles"), "N",
              FL_N_("deflection: cycles to simulate"), "1000", 1, FL__DEFLECT_MAX_CYCLES,
              DEFLECTION, deflect.cycles),

    /* Paper 001's multicast: the tree, its message and the software costs. */
    { { .name = "algorithm",
        .type = FL_OPTION_ENUM,
        .group = FL_N_("Multicast"),
        .label = FL_N_("Multicast algorithm"),
        .arg = "A",
        .help = FL_N_("multicast: the tree (u-mesh and opt-mesh: a 2D mesh with dor)"),
        .dflt = "opt-tree",
        .choice_fn = algorithm_choice,
        .models = MULTICAST },
      FIELD_ENUM,
      AT(multicast.algorithm),
      NULL,
      NULL },
    INT_ROW("random", FL_N_("Multicast"), FL_N_("Destinations"), "K",
            FL_N_("multicast: K destinations and the source placed at random by the seed"), "7", 1,
            MAX_HOSTS, MULTICAST, multicast.dests),
    INT_ROW("message-size", FL_N_("Multicast"), FL_N_("Message size"), "FLITS",
            FL_N_("multicast: the message's size in flits"), "64", 1, MAX_MESSAGE, MULTICAST,
            multicast.flits),
    COST_ROW("s-s", FL_N_("Send start-up"), FL_N_("multicast: send start-up s_s, cycles"), "2000",
             0, costs.send_startup),
    COST_ROW("s-d", FL_N_("Send time per flit"), FL_N_("multicast: send time per flit s_d, cycles"),
             "2", 0, costs.send_per_flit),
    COST_ROW("r-s", FL_N_("Receive start-up"), FL_N_("multicast: receive start-up r_s, cycles"),
             "3500", 0, costs.recv_startup),
    COST_ROW("r-d", FL_N_("Receive time per flit"),
             FL_N_("multicast: receive time per flit r_d, cycles"), "3", 0, costs.recv_per_flit),
    { { .name = "c-d",
        .type = FL_OPTION_INT,
        .group = FL_N_("Multicast"),
        .label = FL_N_("Channel time per flit"),
        .arg = "N",
        .help = FL_N_("multicast: channel time per flit c_d, cycles (the simulator's link cycles "
                      "per flit)"),
        .dflt = "2",
        .min_int = 1,
        .max_int = FL_MESSAGE_MAX_CYCLES,
        .models = MULTICAST,
        .limit = COST_LIMIT },
      FIELD_INT,
      AT(multicast.channel_cycles),
      NULL,
      NULL },
    INT_ROW("max-packet", FL_N_("Multicast"), FL_N_("Largest packet"), "P",
            FL_N_("multicast: split messages into packets of at most P flits (0: whole)"), "0", 0,
            INT32_MAX, MULTICAST, multicast.costs.max_packet),
    { { .name = "model-only",
        .type = FL_OPTION_FLAG,
        .group = FL_N_("Multicast"),
        .label = FL_N_("Model only"),
        .arg = NULL,
        .help = FL_N_("multicast: time the tree on paper 001's model only, not flit by flit"),
        .dflt = "false",
        .models = MULTICAST },
      FIELD_FLAG,
      AT(multicast.model_only),
      NULL,
      NULL },
};

#define N_KEYS ((int)(sizeof keys / sizeof keys[0]))

/* FIELD_ENUM writes enums as ints. */
_Static_assert(sizeof(FlSelection) == sizeof(int) && sizeof(FlSwitching) == sizeof(int)
                   && sizeof(FlVcRelease) == sizeof(int)
                   && sizeof(FlMeasureRule) == sizeof(int)
                   && sizeof(FlInjectionProcess) == sizeof(int)
                   && sizeof(FlSimModel) == sizeof(int)
                   && sizeof(FlDeflectPriority) == sizeof(int)
                   && sizeof(FlMulticastAlgorithm) == sizeof(int),
               "an enum setting is not int-sized");

/* ---- the settings --------------------------------------------------------- */

unsigned fl_sim_model_option(FlSimModel model)
{
    switch (model) {
    case FL_SIM_MODEL_DEFLECTION:
        return FL_OPTION_FOR_DEFLECTION;
    case FL_SIM_MODEL_MULTICAST:
        return FL_OPTION_FOR_MULTICAST;
    case FL_SIM_MODEL_FLIT:
    default:
        return FL_OPTION_FOR_FLIT;
    }
}

void fl_sim_settings_init(FlSimSettings *s)
{
    memset(s, 0, sizeof *s);
    s->model = FL_SIM_MODEL_FLIT;
    fl_sim_config_init(&s->config);
    /* What a user starts from spreads an adaptive routing's load (the most
     * free buffer downstream): with it paper 002's Table 3 reproduces
     * (README). FlSimConfig keeps the paper's stated lowest port. */
    s->config.selection = FL_SELECT_CREDITS;
    s->deflect.nmsg = 1;
    s->deflect.priority = FL_PRIORITY_AGE;
    s->deflect.cycles = 1000;
    s->deflect.seed = 1;
    fl_multicast_config_init(&s->multicast);
}

void fl_sim_settings_clear(FlSimSettings *s)
{
    if (!s)
        return;
    free(s->hotspots);
    free(s->trace_file);
    fl_sim_settings_init(s);
}

int fl_sim_settings_copy(FlSimSettings *dst, const FlSimSettings *src, FlError *err)
{
    *dst = *src;
    dst->hotspots = NULL;
    dst->trace_file = NULL;
    size_t n = src->hotspots ? (size_t)src->config.traffic.n_hotspots : 0;
    if (src->hotspots && !(dst->hotspots = malloc(sizeof *dst->hotspots * (n ? n : 1))))
        goto nomem;
    if (n)
        memcpy(dst->hotspots, src->hotspots, sizeof *dst->hotspots * n);
    if (src->config.traffic.hotspots == src->hotspots)
        dst->config.traffic.hotspots = dst->hotspots;
    if (src->trace_file && !(dst->trace_file = strdup(src->trace_file)))
        goto nomem;
    return FL_OK;
nomem:
    free(dst->hotspots);
    fl_sim_settings_init(dst);
    return fl_error_set(err, FL_ENOMEM, "out of memory copying the settings");
}

int fl_sim_settings_key_count(void)
{
    return N_KEYS;
}

const FlOptionInfo *fl_sim_settings_key(int index)
{
    return index >= 0 && index < N_KEYS ? &keys[index].info : NULL;
}

static const Key *find_key(const char *name)
{
    for (int i = 0; name && i < N_KEYS; i++)
        if (strcmp(keys[i].info.name, name) == 0)
            return &keys[i];
    return NULL;
}

const FlOptionInfo *fl_sim_settings_lookup(const char *key)
{
    const Key *k = find_key(key);
    return k ? &k->info : NULL;
}

static int unknown_key(const char *key, FlError *err)
{
    char known[1024] = "";
    size_t used = 0;
    for (int i = 0; i < N_KEYS && used < sizeof known; i++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                 keys[i].info.name);
    return fl_error_set(err, FL_EINVAL, "unknown setting '%s' (known: %s)", key ? key : "",
                        known);
}

int fl_sim_settings_set(FlSimSettings *s, const char *key, const char *text, FlError *err)
{
    const Key *k = find_key(key);
    if (!k)
        return unknown_key(key, err);
    if (!s || !text)
        return fl_error_set(err, FL_EINVAL, "%s: no settings or no value", k->info.name);
    char *at = (char *)s + k->offset;
    int64_t i64;
    int i;
    double d;
    int rc;
    switch (k->kind) {
    case FIELD_CUSTOM:
        return k->set(s, k, text, err);
    case FIELD_INT:
        if ((rc = fl__option_parse_int(&k->info, text, 0, &i64, err)))
            return rc;
        *(int *)(void *)at = (int)i64;
        return FL_OK;
    case FIELD_INT64:
        if ((rc = fl__option_parse_int(&k->info, text, 0, &i64, err)))
            return rc;
        *(int64_t *)(void *)at = i64;
        return FL_OK;
    case FIELD_DOUBLE:
        if ((rc = fl__option_parse_double(&k->info, text, &d, err)))
            return rc;
        *(double *)(void *)at = d;
        return FL_OK;
    case FIELD_ENUM:
        if ((rc = fl__option_parse_enum(&k->info, text, &i, err)))
            return rc;
        *(int *)(void *)at = i;
        return FL_OK;
    case FIELD_FLAG:
        if ((rc = fl__option_parse_flag(&k->info, text, &i, err)))
            return rc;
        *(int *)(void *)at = i;
        return FL_OK;
    }
    return fl_error_set(err, FL_EINVAL, "%s: unknown kind of setting", k->info.name);
}

int fl_sim_settings_format(const FlSimSettings *s, const char *key, char *buf, size_t len)
{
    const Key *k = find_key(key);
    if (!k || !s || (!buf && len))
        return -1;
    const char *at = (const char *)s + k->offset;
    const char *name;
    switch (k->kind) {
    case FIELD_CUSTOM:
        return k->format(s, buf, len);
    case FIELD_INT:
        return snprintf(buf, len, "%d", *(const int *)(const void *)at);
    case FIELD_INT64:
        return snprintf(buf, len, "%" PRId64, *(const int64_t *)(const void *)at);
    case FIELD_DOUBLE:
        return fl__format_double(buf, len, *(const double *)(const void *)at);
    case FIELD_ENUM:
        name = fl_option_choice(&k->info, *(const int *)(const void *)at);
        return snprintf(buf, len, "%s", name ? name : "");
    case FIELD_FLAG:
        return snprintf(buf, len, "%s", *(const int *)(const void *)at ? "true" : "false");
    }
    return -1;
}
