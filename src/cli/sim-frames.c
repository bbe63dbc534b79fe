/* sim-frames.c — `flitlab sim --picture FILE --at CYCLE` and `--animate
 * FILE.gif|DIR/ --cycles FROM:TO[:STEP]`: the simulation stepped cycle by
 * cycle (fl_sim_step) and drawn as the application draws it, with the
 * cycle counter in the picture, to a PNG, SVG or PDF, an animated GIF or a
 * numbered PNG sequence. Every argument is checked before the network is
 * built, so a typo costs nothing. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "modules.h"
#include "sim-options.h"

#ifdef FL_HAVE_CAIRO
#define MAX_FRAMES 100000

/* What to draw, from the options. */
typedef struct Frames {
    const char *picture, *animate;
    int64_t at, from, to, step;
    int width, height, delay_cs;
    long dpi;
    const char *title;
    int dir;                      /* animate to a PNG sequence in a directory */
} Frames;

/* A whole number of cycles, >= 0, from text (up to end, or the whole). */
static int parse_cycle(const char *text, size_t len, int64_t *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return 0;
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end || end == buf || v < 0)
        return 0;
    *out = v;
    return 1;
}

static int parse_range(const char *text, Frames *fr)
{
    const char *c1 = strchr(text, ':');
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    fr->step = 1;
    if (!c1 || !parse_cycle(text, (size_t)(c1 - text), &fr->from)
        || !parse_cycle(c1 + 1, c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1), &fr->to)
        || (c2 && !parse_cycle(c2 + 1, strlen(c2 + 1), &fr->step)))
        return cli_error(CLI_USAGE, _("--cycles needs FROM:TO or FROM:TO:STEP (whole numbers of "
                                    "cycles) with --animate, not '%s'"), text);
    if (fr->to < fr->from)
        return cli_error(CLI_USAGE, _("--cycles %s: the range ends (cycle %lld) before it starts "
                                    "(cycle %lld)"), text, (long long)fr->to,
                         (long long)fr->from);
    if (fr->step < 1)
        return cli_error(CLI_USAGE, _("--cycles %s: STEP must be at least 1"), text);
    if ((fr->to - fr->from) / fr->step + 1 > MAX_FRAMES)
        return cli_error(CLI_USAGE, _("--cycles %s: %lld frames, more than %d; take a larger STEP"),
                         text, (long long)((fr->to - fr->from) / fr->step + 1), MAX_FRAMES);
    return CLI_OK;
}

static int parse_size(const char *text, Frames *fr)
{
    char *x;
    long w = strtol(text, &x, 10), h = 0;
    char *end = x;
    if (*x == 'x' || *x == 'X')
        h = strtol(x + 1, &end, 10);
    if (end == x || *end || w < 16 || h < 16 || w > 16384 || h > 16384)
        return cli_error(CLI_USAGE, _("--size needs WIDTHxHEIGHT, each from 16 to 16384 (pixels, "
                                    "or points for SVG and PDF), not '%s'"), text);
    fr->width = (int)w;
    fr->height = (int)h;
    return CLI_OK;
}

static int is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Reads and checks every option of the frames; CLI_USAGE after a message. */
static int frames_options(const CliCommand *cmd, const CliParsed *p, Frames *fr)
{
    memset(fr, 0, sizeof *fr);
    fr->picture = cli_value(cmd, p, "picture");
    fr->animate = cli_value(cmd, p, "animate");
    fr->width = 1280;
    fr->height = 800;
    fr->delay_cs = 10;
    const char *at = cli_value(cmd, p, "at"), *cycles = cli_value(cmd, p, "cycles");
    const char *delay = cli_value(cmd, p, "frame-delay"), *fps = cli_value(cmd, p, "fps");
    const char *size = cli_value(cmd, p, "size"), *dpi = cli_value(cmd, p, "dpi");
    fr->dpi = 96;
    fr->title = cli_value(cmd, p, "title");
    if (fr->picture && fr->animate)
        return cli_error(CLI_USAGE, _("--picture and --animate: one at a time"));
    static const char *const picture_only[] = { "at", "dpi", "title", NULL };
    const char *drawn = fr->picture ? NULL : cli_given(cmd, p, picture_only);
    if (drawn)
        return cli_error(CLI_USAGE, _("--%s goes with --picture FILE"), drawn);
    if ((delay || fps) && !fr->animate)
        return cli_error(CLI_USAGE, _("--%s goes with --animate"), delay ? "frame-delay" : "fps");
    if (size && !fr->picture && !fr->animate)
        return cli_error(CLI_USAGE, _("--size goes with --picture or --animate"));
    if (size && parse_size(size, fr))
        return CLI_USAGE;
    if (dpi && cli_int_value("dpi", dpi, 24, 2400, &fr->dpi))
        return CLI_USAGE;
    if (fr->picture) {
        FlError err = { 0 };
        if (!at)
            return cli_error(CLI_USAGE, _("--picture needs the cycle to draw: --at CYCLE"));
        if (!parse_cycle(at, strlen(at), &fr->at))
            return cli_error(CLI_USAGE, _("--at needs a whole number of cycles, not '%s'"), at);
        const CliPicturesModule *draw = cli_pictures();
        if (!draw)
            return CLI_FAIL;
        if (draw->check_format(fr->picture, NULL, &err))
            return cli_error(CLI_USAGE, _("--picture: %s"), err.message);
    }
    if (!fr->animate)
        return CLI_OK;
    if (!cycles)
        return cli_error(CLI_USAGE,
                         _("--animate needs the cycles to show: --cycles FROM:TO[:STEP]"));
    if (parse_range(cycles, fr))
        return CLI_USAGE;
    if (delay && fps)
        return cli_error(CLI_USAGE, _("--frame-delay and --fps say the same: give one"));
    long v;
    if (delay && cli_int_value("frame-delay", delay, 1, 65535, &v))
        return CLI_USAGE;
    if (delay)
        fr->delay_cs = (int)v;
    if (fps && cli_int_value("fps", fps, 1, 100, &v))
        return CLI_USAGE;
    if (fps)
        fr->delay_cs = (int)((100 + v / 2) / v);
    size_t len = strlen(fr->animate);
    fr->dir = (len && fr->animate[len - 1] == '/') || is_directory(fr->animate);
    if (!fr->dir && (len < 4 || strcasecmp(fr->animate + len - 4, ".gif") != 0))
        return cli_error(CLI_USAGE, _("--animate: name a .gif file, or a directory (ending in /) "
                                    "for a PNG sequence, not '%s'"), fr->animate);
    if (fr->dir && !is_directory(fr->animate) && mkdir(fr->animate, 0777) != 0)
        return cli_error(CLI_FAIL, _("--animate: cannot make the directory %s: %s"), fr->animate,
                         strerror(errno));
    return CLI_OK;
}

/* Steps sim to cycle, or until it deadlocks. */
static int step_to(FlSim *sim, int64_t cycle)
{
    FlError err = { 0 };
    int64_t now = fl_sim_cycle(sim);
    if (cycle > now && fl_sim_step(sim, cycle - now, NULL, &err))
        return cli_engine_error(&err);
    return CLI_OK;
}

static int write_picture(const Frames *fr, FlSim *sim, const SimSetup *s)
{
    const CliPicturesModule *draw = cli_pictures();
    if (!draw)
        return CLI_FAIL;
    int rc = step_to(sim, fr->at);
    if (rc)
        return rc;
    FlDrawFlits f;
    char caption[64];
    int *cycle = NULL;
    draw->flits_init(&f);
    f.sim = sim;
    f.link_latency = s->cfg.link_latency;
    draw->frame_caption(sim, caption, sizeof caption);
    f.caption = caption;
    if (fl_sim_status(sim) == FL_SIM_DEADLOCK
        && fl_sim_deadlock_cycle(sim, &cycle, &f.nwait_cycle, NULL) == FL_OK)
        f.wait_cycle = cycle;
    FlDrawPage page;
    draw->page_init(&page);
    page.width = fr->width;
    page.height = fr->height;
    page.dpi = (double)fr->dpi;
    page.title = fr->title;
    FlError err = { 0 };
    rc = draw->export_flits_page(s->t, &f, &page, fr->picture, NULL, &err);
    free(cycle);
    return rc ? cli_error(CLI_FAIL, _("--picture: %s"), err.message) : CLI_OK;
}

/* Every frame of the range, to a GIF or a PNG sequence; stops at a
 * deadlock, after its frame (nothing moves any more). *frames: how many. */
static int write_animation(const Frames *fr, FlSim *sim, const SimSetup *s, int *frames)
{
    const CliPicturesModule *draw = cli_pictures();
    if (!draw)
        return CLI_FAIL;
    FlDrawAnimation a;
    FlError err = { 0 };
    draw->animation_init(&a);
    a.path = fr->animate;
    a.png_sequence = fr->dir;
    a.width = fr->width;
    a.height = fr->height;
    a.delay_cs = fr->delay_cs;
    a.from = fr->from;
    a.to = fr->to;
    a.step = fr->step;
    a.flits.link_latency = s->cfg.link_latency;
    if (draw->animate(sim, s->t, &a, frames, &err))
        return cli_error(CLI_FAIL, _("--animate: %s"), err.message);
    return CLI_OK;
}

int sim_frames_wanted(const CliCommand *cmd, const CliParsed *p)
{
    /* An option of the frames alone is one to refuse, not to ignore. */
    static const char *const options[] = { "picture", "animate",     "at",  "size",
                                           "dpi",     "frame-delay", "fps", "title" };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (cli_value(cmd, p, options[i]))
            return 1;
    return 0;
}

int sim_frames_check(const CliCommand *cmd, const CliParsed *p)
{
    Frames fr;
    return frames_options(cmd, p, &fr);
}

int sim_write_frames(const CliCommand *cmd, const CliParsed *p, const SimSetup *s, FlSim *sim)
{
    Frames fr;
    int rc = frames_options(cmd, p, &fr), frames = 1;
    if (!rc)
        rc = fr.picture ? write_picture(&fr, sim, s) : write_animation(&fr, sim, s, &frames);
    if (rc)
        return rc;
    const char *what = fr.picture ? fr.picture : fr.animate;
    FlSimStatus st = fl_sim_status(sim);
    if (cli_flag(cmd, p, "json"))
        return cli_write_json(json_pack("{s:s, s:s, s:i, s:I, s:s}", fr.picture ? "picture"
                                                                                 : "animation",
                                        what, "format", fr.picture ? "image"
                                                        : fr.dir   ? "png-sequence"
                                                                   : "gif",
                                        "frames", frames, "cycle",
                                        (json_int_t)fl_sim_cycle(sim), "status",
                                        fl_sim_status_name(st)),
                              stdout);
    printf(ngettext("wrote %s: %d frame, up to cycle %lld (%s)\n",
                    "wrote %s: %d frames, up to cycle %lld (%s)\n", (unsigned long)frames),
           what, frames, (long long)fl_sim_cycle(sim), fl_sim_status_name(st));
    return CLI_OK;
}

#else /* no cairo: the options do not exist */

int sim_frames_wanted(const CliCommand *cmd, const CliParsed *p)
{
    (void)cmd;
    (void)p;
    return 0;
}

int sim_frames_check(const CliCommand *cmd, const CliParsed *p)
{
    (void)cmd;
    (void)p;
    return CLI_OK;
}

int sim_write_frames(const CliCommand *cmd, const CliParsed *p, const SimSetup *s, FlSim *sim)
{
    (void)cmd;
    (void)p;
    (void)s;
    (void)sim;
    return cli_error(CLI_FAIL, _("this flitlab was built without cairo: no pictures"));
}

#endif
