/* draw-animation.c — a range of cycles of a running simulation drawn frame
 * by frame into an animated GIF or a PNG sequence, with the cycle counter
 * in each picture: what `flitlab sim --animate` and the application's
 * Export Animation write. */
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
}

void fl_draw_frame_caption(const FlSim *sim, char *buf, size_t size)
{
    snprintf(buf, size,
             fl_sim_status(sim) == FL_SIM_DEADLOCK ? "cycle %lld (deadlock)" : "cycle %lld",
             (long long)fl_sim_cycle(sim));
}

/* Steps sim to cycle, or until it deadlocks. */
static int step_to(FlSim *sim, int64_t cycle, FlError *err)
{
    int64_t now = fl_sim_cycle(sim);
    return cycle > now ? fl_sim_step(sim, cycle - now, NULL, err) : FL_OK;
}

/* Draws the current frame of sim into image: a's flits with the caption,
 * and a deadlock's waiting cycle once there is one. */
static void render(cairo_surface_t *image, FlSim *sim, const FlTopology *t,
                   const FlDrawOptions *o, const FlDrawAnimation *a)
{
    FlDrawFlits f = a->flits;
    char caption[64];
    int *cycle = NULL;

    f.sim = sim;
    fl_draw_frame_caption(sim, caption, sizeof caption);
    f.caption = caption;
    if (fl_sim_status(sim) == FL_SIM_DEADLOCK && !f.wait_cycle
        && fl_sim_deadlock_cycle(sim, &cycle, &f.nwait_cycle, NULL) == FL_OK)
        f.wait_cycle = cycle;
    cairo_t *cr = cairo_create(image);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    fl_draw_flits(cr, t, o, &f);
    cairo_destroy(cr);
    free(cycle);
}

int fl_draw_animate(FlSim *sim, const FlTopology *t, const FlDrawAnimation *a, int *frames,
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
        if ((rc = step_to(sim, c, err)))
            break;
        render(image, sim, t, &o, a);
        if (gif)
            rc = fl_draw_gif_add(gif, image, err);
        else
            rc = fl_draw_png_sequence_write(a->path, "frame", *frames + 1, image, NULL, 0, err);
        if (rc)
            break;
        ++*frames;
        if (fl_sim_status(sim) == FL_SIM_DEADLOCK)
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
