/* draw-animation.c — a range of cycles of a running simulation drawn frame
 * by frame into an animated GIF or a PNG sequence, with the cycle counter
 * in each picture: what `flitlab sim --animate` and the application's
 * Export Animation write, for the flit-level model and the deflection
 * one alike. */
#include <stdio.h>
#include <stdlib.h>

#include "flitlab-draw.h"

void fl_draw_animation_init(FlDrawAnimation *a)
{
    *a = (FlDrawAnimation){ 0 };
    a->width = 1280;
    a->height = 800;
    a->delay_cs = 10;
    a->step = 1;
    fl_draw_deflect_init(&a->deflect);
}

void fl_draw_frame_caption(const FlSim *sim, char *buf, size_t size)
{
    snprintf(buf, size,
             fl_sim_status(sim) == FL_SIM_DEADLOCK ? "cycle %lld (deadlock)" : "cycle %lld",
             (long long)fl_sim_cycle(sim));
}

/* What an animation draws: a model to step and draw, and when it stops
 * moving. */
typedef struct Model {
    int (*step_to)(void *model, int64_t cycle, FlError *err);
    void (*render)(cairo_t *cr, void *model, const FlTopology *t, const FlDrawOptions *o,
                   const FlDrawAnimation *a);
    int (*stopped)(void *model);
    void *model;
} Model;

/* Steps sim to cycle, or until it deadlocks. */
static int sim_step_to(void *model, int64_t cycle, FlError *err)
{
    FlSim *sim = model;
    int64_t now = fl_sim_cycle(sim);
    return cycle > now ? fl_sim_step(sim, cycle - now, NULL, err) : FL_OK;
}

/* The current frame of sim: a's flits with the caption, and a deadlock's
 * waiting cycle once there is one. */
static void sim_render(cairo_t *cr, void *model, const FlTopology *t, const FlDrawOptions *o,
                       const FlDrawAnimation *a)
{
    FlSim *sim = model;
    FlDrawFlits f = a->flits;
    char caption[64];
    int *cycle = NULL;

    f.sim = sim;
    fl_draw_frame_caption(sim, caption, sizeof caption);
    f.caption = caption;
    if (fl_sim_status(sim) == FL_SIM_DEADLOCK && !f.wait_cycle
        && fl_sim_deadlock_cycle(sim, &cycle, &f.nwait_cycle, NULL) == FL_OK)
        f.wait_cycle = cycle;
    fl_draw_flits(cr, t, o, &f);
    free(cycle);
}

/* Nothing moves after a deadlock. */
static int sim_stopped(void *model)
{
    return fl_sim_status(model) == FL_SIM_DEADLOCK;
}

static int deflect_step_to(void *model, int64_t cycle, FlError *err)
{
    int64_t now = fl_deflect_cycle(model);
    return cycle > now ? fl_deflect_step(model, cycle - now, err) : FL_OK;
}

static void deflect_render(cairo_t *cr, void *model, const FlTopology *t,
                           const FlDrawOptions *o, const FlDrawAnimation *a)
{
    FlDrawDeflect d = a->deflect;
    char caption[64];

    d.deflect = model;
    fl_draw_deflect_caption(model, caption, sizeof caption);
    d.caption = caption;
    fl_draw_deflect(cr, t, o, &d);
}

/* A closed system never stops. */
static int deflect_stopped(void *model)
{
    (void)model;
    return 0;
}

static int animate(const Model *m, const FlTopology *t, const FlDrawAnimation *a, int *frames,
                   FlError *err)
{
    FlDrawGif *gif = NULL;
    FlDrawOptions o;
    int rc = FL_OK;

    *frames = 0;
    if (!a->path || a->from < 0 || a->to < a->from || a->step < 1)
        return fl_error_set(err, FL_EINVAL,
                            "an animation needs a path and cycles FROM <= TO with STEP >= 1");
    if (!a->png_sequence
        && !(gif = fl_draw_gif_open(a->path, a->width, a->height, a->delay_cs, err)))
        return err ? err->code : FL_EIO;
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, a->width, a->height);
    if (cairo_surface_status(image) != CAIRO_STATUS_SUCCESS)
        rc = fl_error_set(err, FL_ENOMEM, "out of memory for a %dx%d frame", a->width, a->height);
    if (a->options) {
        o = *a->options;
    } else {
        fl_draw_options_init(&o);
        fl_draw_view_fit(t, a->width, a->height, &o.view);
    }
    int64_t total = (a->to - a->from) / a->step + 1;
    for (int64_t c = a->from; !rc && c <= a->to; c += a->step) {
        if ((rc = m->step_to(m->model, c, err)))
            break;
        cairo_t *cr = cairo_create(image);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
        m->render(cr, m->model, t, &o, a);
        cairo_destroy(cr);
        if (gif)
            rc = fl_draw_gif_add(gif, image, err);
        else
            rc = fl_draw_png_sequence_write(a->path, "frame", *frames + 1, image, NULL, 0, err);
        if (rc)
            break;
        ++*frames;
        if (m->stopped(m->model))
            break;
        if (a->progress && a->progress(a->progress_data, (double)*frames / (double)total))
            rc = fl_error_set(err, FL_ECANCELLED, "the animation was cancelled");
    }
    cairo_surface_destroy(image);
    if (rc) {
        fl_draw_gif_abort(gif);
        return rc;
    }
    return gif ? fl_draw_gif_close(gif, err) : FL_OK;
}

int fl_draw_animate(FlSim *sim, const FlTopology *t, const FlDrawAnimation *a, int *frames,
                    FlError *err)
{
    Model m = { sim_step_to, sim_render, sim_stopped, sim };
    return animate(&m, t, a, frames, err);
}

int fl_draw_animate_deflect(FlDeflect *d, const FlTopology *t, const FlDrawAnimation *a,
                            int *frames, FlError *err)
{
    Model m = { deflect_step_to, deflect_render, deflect_stopped, d };
    return animate(&m, t, a, frames, err);
}
