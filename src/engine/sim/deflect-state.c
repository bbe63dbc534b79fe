/* deflect-state.c — what the deflection model shows between cycles: its
 * running figures, where every message is, and copies of its state.
 *
 * Between cycles the state is the scalars, the per-message block and the
 * messages on the channels (on_chan); next_chan is empty then (see
 * deflect-internal.h). A checkpoint copies the first three, so restoring
 * and stepping replays the same cycles bit for bit.
 */
#include <stdlib.h>
#include <string.h>

#include "deflect-internal.h"

void fl_deflect_stats(const FlDeflect *md, FlDeflectStats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!md)
        return;
    const DeflectScalars *sc = &md->sc;
    out->cycle = sc->cycle;
    out->delivered = sc->delivered;
    out->deflections = sc->deflections;
    out->avg_delay = sc->delivered ? (double)sc->delay_sum / (double)sc->delivered : 0.0;
    out->max_delay = (double)sc->delay_max;
    out->throughput = sc->cycle ? (double)sc->delivered / ((double)sc->cycle * md->n) : 0.0;
}

void fl_deflect_foreach(const FlDeflect *md, FlDeflectVisitor visit, void *user_data)
{
    if (!md || !visit)
        return;
    const FlTopology *t = md->t;
    FlDeflectView v;
    /* Padding too, so that a caller may hash or compare views as bytes. */
    memset(&v, 0, sizeof v);
    for (int m = 0; m < md->n_msgs; m++) {
        v.message = md->id[m];
        v.src = t->switch_nodes[m / md->nmsg];
        v.dst = t->switch_nodes[md->dest[m]];
        v.channel = md->chan[m];
        v.node = v.channel < 0 ? v.src : fl__chan_dst(t, v.channel);
        v.deflected = md->deflected[m];
        v.deflections = md->deflections_of[m];
        v.hops = md->hops[m];
        v.created = md->born[m];
        visit(user_data, &v);
    }
}

struct FlDeflectCheckpoint {
    const FlDeflect *owner;  /* only restored into the model it came from */
    DeflectScalars sc;
    void *msgs;              /* the owner's msg_bytes */
    int *on_chan;            /* the owner's n_chan */
    size_t bytes;            /* all of the above */
};

void fl_deflect_checkpoint_free(FlDeflectCheckpoint *cp)
{
    if (!cp)
        return;
    free(cp->msgs);
    free(cp->on_chan);
    free(cp);
}

int fl_deflect_checkpoint(const FlDeflect *md, FlDeflectCheckpoint **out, FlError *err)
{
    if (!md || !out)
        return fl_error_set(err, FL_EINVAL, "no deflection model");
    FlDeflectCheckpoint *cp = calloc(1, sizeof *cp);
    size_t chan_bytes = sizeof *md->on_chan * md->n_chan;
    if (cp) {
        cp->msgs = malloc(md->msg_bytes);
        cp->on_chan = malloc(chan_bytes);
    }
    if (!cp || !cp->msgs || !cp->on_chan) {
        fl_deflect_checkpoint_free(cp);
        return fl_error_set(err, FL_ENOMEM, "out of memory for a checkpoint of %d messages",
                            md->n_msgs);
    }
    cp->owner = md;
    cp->sc = md->sc;
    memcpy(cp->msgs, md->msg_block, md->msg_bytes);
    memcpy(cp->on_chan, md->on_chan, chan_bytes);
    cp->bytes = sizeof *cp + md->msg_bytes + chan_bytes;
    *out = cp;
    return FL_OK;
}

int fl_deflect_restore(FlDeflect *md, const FlDeflectCheckpoint *cp, FlError *err)
{
    if (!md || !cp)
        return fl_error_set(err, FL_EINVAL, "no deflection model or checkpoint");
    if (cp->owner != md)
        return fl_error_set(err, FL_EINVAL, "checkpoint: taken from another deflection model");
    md->sc = cp->sc;
    memcpy(md->msg_block, cp->msgs, md->msg_bytes);
    memcpy(md->on_chan, cp->on_chan, sizeof *md->on_chan * md->n_chan);
    /* A step that failed half-way may have left moves behind. */
    for (size_t c = 0; c < md->n_chan; c++)
        md->next_chan[c] = -1;
    return FL_OK;
}

int64_t fl_deflect_checkpoint_cycle(const FlDeflectCheckpoint *cp)
{
    return cp ? cp->sc.cycle : -1;
}

size_t fl_deflect_checkpoint_size(const FlDeflectCheckpoint *cp)
{
    return cp ? cp->bytes : 0;
}
