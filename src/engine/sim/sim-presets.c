/* sim-presets.c — simulations that set everything at once, for class and for
 * the papers' experiments (flitlab/config.h). A preset is text, applied by
 * the same parsers as the command line's flags and the application's rows. */
#include <stddef.h>
#include <string.h>

#include "flitlab/config.h"
#include "flitlab/routing.h"

/*
 * The ring deadlocks reliably: shortest paths on a ring close the channel
 * cycle, and with one VC of 2 flits, 8-flit worms at 0.9 lock it within
 * about 100 to 300 cycles for seeds 1..8 (seed 1: the watchdog fires at
 * cycle 187). The dateline torus runs at a load where the same settings
 * with classes=1 lock within about 1000 cycles (0.5, 8-flit packets, 2-flit
 * buffers). Short watchdogs make the deadlock visible soon after it forms.
 */
static const FlSimPreset presets[] = {
    {
        "mesh-dor-uniform",
        FL_N_("8x8 mesh, DOR, uniform"),
        FL_N_("Worms of 8 flits cross the mesh X first, then Y; at 0.2 they flow, "
              "with short stalls where two meet at a router."),
        "mesh:8x8",
        "dor",
        "",
        "vcs=2 buf=8 switching=wormhole traffic=uniform packet=8 rate=0.2 seed=1",
    },
    {
        "ring-deadlock",
        FL_N_("deadlock on a ring (shortest, 1 VC)"),
        FL_N_("Every packet takes the shorter way round with one VC per channel: "
              "worms soon hold channels all around the ring, each waiting for the next, "
              "and nothing moves again."),
        "ring:8",
        "shortest",
        "",
        "vcs=1 buf=2 switching=wormhole traffic=uniform packet=8 rate=0.9 watchdog=100 "
        "seed=1",
    },
    {
        "torus-dateline",
        FL_N_("the dateline cure (torus, DOR, 2 VCs)"),
        FL_N_("Packets move to the second VC class when they cross the dateline, so the "
              "rings of the torus cannot close a cycle: the network saturates but never "
              "locks; set VC classes to 1 and the same load deadlocks."),
        "torus:8x8",
        "dor",
        "classes=2",
        "vcs=2 buf=2 switching=wormhole traffic=uniform packet=8 rate=0.5 watchdog=200 "
        "seed=1",
    },
    {
        "vct-vs-wormhole",
        FL_N_("VCT vs wormhole"),
        FL_N_("Under virtual cut-through a blocked packet gathers in one buffer of 16 flits; "
              "set Switching to wormhole and Buffer depth to 4 and run again: blocked worms "
              "stretch over several routers and block the channels behind them."),
        "mesh:8x8",
        "dor",
        "",
        "vcs=2 buf=16 switching=vct traffic=uniform packet=16 rate=0.3 seed=1",
    },
    {
        "paper002-table3",
        FL_N_("paper 002 Table 3 on the 8x8 torus"),
        FL_N_("Paper 002's setting: L-turn routing with one VC, 128-flit packets under "
              "VCT and 3 cycles per flit on every link; long packets crawl and the "
              "network saturates at a small offered load."),
        "torus:8x8,hosts=4",
        "lturn-alpha",
        "",
        "selection=credits vcs=1 buf=128 switching=vct link-cycles-per-flit=3 "
        "traffic=bitrev packet=128 rate=0.008 seed=1",
    },
    {
        "paper003-xmesh",
        FL_N_("paper 003 deflection on XMESH"),
        FL_N_("Paper 003's model: 4 messages per node, the oldest win their shortest-path "
              "port and the others are deflected; watch delays grow where deflections "
              "gather."),
        "xmesh:36x72",
        "xmesh",
        "",
        "mode=deflection nmsg=4 priority=age cycles=1000 seed=1",
    },
};

#define N_PRESETS ((int)(sizeof presets / sizeof presets[0]))

int fl_sim_preset_count(void)
{
    return N_PRESETS;
}

const FlSimPreset *fl_sim_preset(int index)
{
    return index >= 0 && index < N_PRESETS ? &presets[index] : NULL;
}

const FlSimPreset *fl_sim_preset_lookup(const char *name)
{
    for (int i = 0; name && i < N_PRESETS; i++)
        if (strcmp(presets[i].name, name) == 0)
            return &presets[i];
    return NULL;
}

/* The next "key=value" word of text from *at: its key and value, NUL-
 * terminated in word (len bytes); 0 at the end, -1 for a word with no '='
 * or too long. */
static int next_pair(const char **at, char *word, size_t len, const char **key,
                     const char **value)
{
    const char *c = *at;
    while (*c == ' ')
        c++;
    if (!*c)
        return 0;
    size_t n = strcspn(c, " ");
    *at = c + n;
    if (n >= len)
        return -1;
    memcpy(word, c, n);
    word[n] = '\0';
    char *eq = strchr(word, '=');
    if (!eq || eq == word)
        return -1;
    *eq = '\0';
    *key = word;
    *value = eq + 1;
    return 1;
}

/* Checks that every word of text is "key=value" with a key known to known();
 * then applies them in the order of the keys that key_at() lists. */
typedef int (*SetFunc)(void *target, const char *key, const char *value, FlError *err);

static int apply_text(const FlSimPreset *p, const char *what, const char *text,
                      const char *(*key_at)(int i), int (*known)(const FlSimPreset *p,
                                                                    const char *key),
                      SetFunc set, void *target, FlError *err)
{
    char word[256];
    const char *key, *value;
    const char *at = text;
    int r;
    while ((r = next_pair(&at, word, sizeof word, &key, &value)) != 0) {
        if (r < 0)
            return fl_error_set(err, FL_EINVAL, "preset '%s': %s need key=value words, "
                                "not '%s'", p->name, what, text);
        if (!known(p, key))
            return fl_error_set(err, FL_EINVAL, "preset '%s': unknown %s key '%s'", p->name,
                                what, key);
    }
    for (int i = 0; key_at(i); i++) {
        at = text;
        while (next_pair(&at, word, sizeof word, &key, &value) > 0) {
            if (strcmp(key, key_at(i)) != 0)
                continue;
            FlError inner = { 0 };
            if (set(target, key, value, &inner))
                return fl_error_set(err, inner.code ? inner.code : FL_EINVAL,
                                    "preset '%s': %s", p->name, inner.message);
        }
    }
    return FL_OK;
}

static const char *setting_at(int i)
{
    const FlOptionInfo *info = fl_sim_settings_key(i);
    return info ? info->name : NULL;
}

static int setting_known(const FlSimPreset *p, const char *key)
{
    (void)p;
    return fl_sim_settings_lookup(key) != NULL;
}

static int setting_set(void *target, const char *key, const char *value, FlError *err)
{
    return fl_sim_settings_set(target, key, value, err);
}

static const char *option_at(int i)
{
    const FlOptionInfo *info = i < fl_routing_option_count() ? fl_routing_option(i) : NULL;
    return info ? info->name : NULL;
}

static int option_known(const FlSimPreset *p, const char *key)
{
    const FlRoutingInfo *info = fl_routing_lookup(p->routing);
    return info && fl_routing_takes(info, key);
}

static int option_set(void *target, const char *key, const char *value, FlError *err)
{
    return fl_routing_options_set(target, key, value, err);
}

int fl_sim_preset_apply(const FlSimPreset *p, FlSimSettings *s, FlRoutingOptions *ro,
                        FlError *err)
{
    if (!p || !s || !ro)
        return fl_error_set(err, FL_EINVAL, "no preset, settings or routing options");
    if (!fl_routing_lookup(p->routing))
        return fl_error_set(err, FL_EINVAL, "preset '%s': unknown routing '%s'", p->name,
                            p->routing ? p->routing : "");
    FlSimSettings settings;
    FlRoutingOptions options;
    fl_sim_settings_init(&settings);
    fl_routing_options_init(&options);
    options.progress = ro->progress;
    options.progress_data = ro->progress_data;
    int rc = apply_text(p, "setting", p->settings ? p->settings : "", setting_at,
                        setting_known, setting_set, &settings, err);
    if (rc == FL_OK)
        rc = apply_text(p, "routing option", p->routing_options ? p->routing_options : "",
                        option_at, option_known, option_set, &options, err);
    if (rc != FL_OK) {
        fl_sim_settings_clear(&settings);
        fl_routing_options_clear(&options);
        return rc;
    }
    fl_sim_settings_clear(s);
    fl_routing_options_clear(ro);
    *s = settings;
    *ro = options;
    return FL_OK;
}
