/* test-sim-lanes.c — one run's switches shared among threads (lanes, see
 * sim-internal.h): the state after every cycle, VC by VC, and the figures
 * are the same bit for bit as on one thread, whatever the number of lanes,
 * whether the lanes run on threads or one after another, and across a
 * checkpoint's restore; a selection that draws keeps one lane. The same
 * holds between the copies of the node visits compiled for the plain
 * pipeline and for any (FlSim.plain), which switches of more than 64 VCs
 * take. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim-internal.h"
#include "sim-net.h"

typedef struct Case {
    const char *spec, *routing;
    double rate;
    int packet;
    const char *pipeline;
    FlSwitching switching;
    FlVcRelease release;
    FlSelection selection;
    int vcs, buf, link_latency, cycles_per_flit;
    FlMeasureRule rule;
} Case;

static void config(FlSimConfig *cfg, const Net *n, const Case *c, int threads)
{
    fl_sim_config_init(cfg);
    cfg->routing = n->r;
    if (c->pipeline)
        fl_sim_config_pipeline(cfg, c->pipeline, NULL);
    cfg->traffic.pattern = "uniform";
    cfg->traffic.rate = c->rate;
    cfg->traffic.packet_flits = c->packet;
    cfg->switching = c->switching;
    cfg->vc_release = c->release;
    cfg->selection = c->selection;
    if (c->vcs)
        cfg->vcs = c->vcs;
    if (c->buf)
        cfg->buf_flits = c->buf;
    if (c->link_latency)
        cfg->link_latency = c->link_latency;
    if (c->cycles_per_flit)
        cfg->link_cycles_per_flit = c->cycles_per_flit;
    cfg->measure_rule = c->rule;
    cfg->warmup_cycles = 200;
    cfg->measure_cycles = 600;
    cfg->seed = 5;
    cfg->threads = threads;
}

/* Whether input VC v is in the ready set of a, as far as the order of
 * visits leaves it the same: a VC whose front flit may move only from
 * this cycle on is in the set or in the wheel, depending on whether a flit
 * reached it before or after its visit emptied it (see Readiness in
 * sim-internal.h), with the same effect. 2 for such a VC. A VC set aside
 * until an output VC or a credit comes (the plain pipeline)
 * is where the others keep asking, in the set. */
static int ready_bit(const FlSim *a, int v)
{
    const SimVc *q = &a->vc[v];
    if (q->count > 0 && q->go + (q->out < 0 ? a->cfg.routing_delay : 0) >= a->sc.cycle)
        return 2;
    if (fl__sim_vc_set_aside(a, v))
        return 1;
    return (a->ready_mask[q->mask_pos >> 6] >> (q->mask_pos & 63)) & 1;
}

/* The VC whose state differs between a and b, or -1: rings, flits, output
 * VCs, credits, readiness and the scalars that count. */
static int first_difference(const FlSim *a, const FlSim *b)
{
    if (a->sc.cycle != b->sc.cycle || a->sc.flit_hops != b->sc.flit_hops
        || a->sc.net_flits != b->sc.net_flits || a->sc.ejected != b->sc.ejected
        || a->sc.queued_flits != b->sc.queued_flits)
        return a->n_vc;
    for (int v = 0; v < a->n_vc; v++) {
        const SimVc *p = &a->vc[v], *q = &b->vc[v];
        if (p->count != q->count || p->head != q->head || p->out != q->out
            || p->flits != q->flits || p->occ != q->occ
            || (p->count > 0 && p->go != q->go) || a->credits[v] != b->credits[v]
            || a->outvc[v].owner != b->outvc[v].owner)
            return v;
        for (int k = 0; k < p->count; k++) {
            const SimSlot *x = &a->slot[p->ring_base + ((p->head + k) & p->mask)];
            const SimSlot *y = &b->slot[q->ring_base + ((q->head + k) & q->mask)];
            /* A head's code also says where its route lies in the route
             * store, whose chunks lanes take in another order. */
            if (x->ready != y->ready || fl__sim_flit_index(x->flit) != fl__sim_flit_index(y->flit)
                || (x->flit < 0) != (y->flit < 0) || x->dest != y->dest
                || a->pool[x->pkt].id != b->pool[y->pkt].id)
                return v;
        }
    }
    for (int w = 0; w < a->mask_base[a->n_nodes]; w++)
        if (a->out_mask[w] != b->out_mask[w])
            return a->n_vc;
    for (int v = 0; v < a->n_vc; v++)
        if (!a->vc[v].sink && ready_bit(a, v) != ready_bit(b, v))
            return v;
    return -1;
}

/* The case's network, and its simulation on one thread (*one) and on
 * threads threads (*many); 0 after a failed check. */
static int open_pair(const Case *c, int threads, Net *n, FlSimConfig *cfg, FlSim **one,
                     FlSim **many)
{
    *one = *many = NULL;
    if (!net_open(n, c->spec, c->routing))
        return 0;
    FlSimConfig many_cfg;
    config(cfg, n, c, 1);
    config(&many_cfg, n, c, threads);
    FlError err;
    if (fl_sim_new(n->t, cfg, one, &err) || fl_sim_new(n->t, &many_cfg, many, &err)) {
        CHECK(0, "%s: fl_sim_new: %s", c->spec, err.message);
        return 0;
    }
    return 1;
}

static void close_pair(Net *n, FlSim *one, FlSim *many)
{
    fl_sim_free(one);
    fl_sim_free(many);
    net_close(n);
}

/* The case run on one thread and on threads threads (sequential_lanes:
 * the lanes one after another, no thread started; general: on one thread
 * too, a plain pipeline through the visits for any), stepped side by side
 * and compared after every cycle, then the figures. */
static void test_same(const Case *c, int threads, int want_lanes, int sequential_lanes,
                      int general)
{
    Net n;
    FlSimConfig one_cfg;
    FlSim *one, *many;
    FlSimResult a = { 0 }, b = { 0 };
    FlError err;
    if (!open_pair(c, threads, &n, &one_cfg, &one, &many))
        goto done;
    CHECK(one->n_lanes == 1 && many->n_lanes == want_lanes,
          "%s / %s at %g, %d-flit, %d threads: %d lanes", c->spec, c->routing, c->rate, c->packet,
          threads, many->n_lanes);
    many->crew_failed = sequential_lanes;
    if (general) {
        CHECK(one->plain, "%s / %s: a plain pipeline", c->spec, c->routing);
        many->plain = 0;
    }
    int64_t cycles = one_cfg.warmup_cycles + one_cfg.measure_cycles + 400, diff_at = -1;
    int64_t set_aside = 0;
    int diff_vc = -1;
    for (int64_t t = 0; t < cycles && diff_at < 0; t++) {
        fl_sim_step(one, 1, NULL, &err);
        fl_sim_step(many, 1, NULL, &err);
        for (int v = 0; v < one->n_vc; v++)
            set_aside += one->vc[v].count > 0 && !one->vc[v].sink && fl__sim_vc_set_aside(one, v);
        diff_vc = first_difference(one, many);
        /* And every flit as the views show it, now and then. */
        if (diff_vc < 0 && t % 97 == 0 && flit_hash(one).h != flit_hash(many).h)
            diff_vc = one->n_vc + 1;
        if (diff_vc >= 0)
            diff_at = t;
    }
    CHECK(diff_at < 0, "%s / %s, %d lanes%s%s: the same state after each of %lld cycles "
          "(first difference: cycle %lld, VC %d)", c->spec, c->routing, many->n_lanes,
          sequential_lanes ? " one after another" : "",
          general ? ", the visits for any pipeline" : "", (long long)cycles, (long long)diff_at,
          diff_vc);
    CHECK(one->sc.flit_hops > 10000, "%s: %lld flit-hops", c->spec,
          (long long)one->sc.flit_hops);
    /* Past saturation the one-lane plain run sets VCs aside (waiting for
     * an output VC or a credit), which the others never do. */
    if (general && c->rate >= 0.3)
        CHECK(set_aside > 1000, "%s / %s at %g: %lld VC-cycles set aside", c->spec, c->routing,
              c->rate, (long long)set_aside);
    if (fl_sim_stats(one, &a, &err) || fl_sim_stats(many, &b, &err)) {
        CHECK(0, "%s: %s", c->spec, err.message);
        goto done;
    }
    int n_chan = fl_topology_channel_count(n.t);
    CHECK(a.status == b.status && same_figures(&a, &b, n_chan, n_chan * one_cfg.vcs),
          "%s / %s: the same figures (latency %.6f / %.6f)", c->spec, c->routing,
          a.latency_avg, b.latency_avg);
done:
    fl_sim_result_clear(&a);
    fl_sim_result_clear(&b);
    close_pair(&n, one, many);
}

/* A whole run on lanes, with fl_sim_run, gives one thread's figures; and
 * a checkpoint taken on lanes, restored, runs on to the same figures. */
static void test_run_and_restore(const Case *c, int threads)
{
    Net n;
    FlSimConfig one_cfg;
    FlSim *one, *many;
    FlSimCheckpoint *cp = NULL;
    FlSimResult a = { 0 }, b = { 0 }, r = { 0 };
    FlError err;
    if (!open_pair(c, threads, &n, &one_cfg, &one, &many))
        goto done;
    if (fl_sim_run(one, &a, NULL, NULL, &err)) {
        CHECK(0, "%s: %s", c->spec, err.message);
        goto done;
    }
    fl_sim_step(many, 350, NULL, &err);
    if (fl_sim_checkpoint(many, &cp, &err) || fl_sim_run(many, &b, NULL, NULL, &err)
        || fl_sim_restore(many, cp, &err) || fl_sim_run(many, &r, NULL, NULL, &err)) {
        CHECK(0, "%s: %s", c->spec, err.message);
        goto done;
    }
    int n_chan = fl_topology_channel_count(n.t);
    CHECK(many->n_lanes > 1 && a.packets > 500 && a.status == b.status
              && same_figures(&a, &b, n_chan, n_chan * one_cfg.vcs),
          "%s / %s: fl_sim_run on %d lanes gives one thread's figures (%lld packets, "
          "latency %.6f / %.6f)", c->spec, c->routing, many->n_lanes, (long long)a.packets,
          a.latency_avg, b.latency_avg);
    CHECK(a.status == r.status && same_figures(&a, &r, n_chan, n_chan * one_cfg.vcs),
          "%s / %s: restored at cycle 350 on lanes, the same figures again", c->spec,
          c->routing);
done:
    fl_sim_checkpoint_free(cp);
    fl_sim_result_clear(&a);
    fl_sim_result_clear(&b);
    fl_sim_result_clear(&r);
    close_pair(&n, one, many);
}

/* Switches of more than 64 input VCs (two mask words) take the visits for
 * any pipeline even when the pipeline is plain, and their VCs past the
 * first word carry flits: the plain visits, which read one word, would
 * leave those flits where they are, and the run would not drain. */
static void test_wide_switches(void)
{
    Case c = { "hypercube:6", "dor", 0.2, 4, NULL, FL_SWITCHING_WORMHOLE,
               FL_VC_RELEASE_TAIL_SENT, FL_SELECT_LOWEST_PORT, 16, 4, 0, 0,
               FL_MEASURE_CREATED };
    Net n;
    if (!net_open(&n, c.spec, c.routing))
        return;
    FlSimConfig cfg;
    config(&cfg, &n, &c, 1);
    FlSim *s = NULL;
    FlSimResult r = { 0 };
    FlError err;
    if (fl_sim_new(n.t, &cfg, &s, &err) || fl_sim_run(s, &r, NULL, NULL, &err)) {
        CHECK(0, "%s: %s", c.spec, err.message);
    } else {
        int64_t past_word = 0;
        for (int v = 0; v < s->n_vc; v++)
            if (s->vc[v].mask_pos >= s->mask_base[s->vc[v].node] * 64 + 64)
                past_word += s->vc[v].flits;
        CHECK(!s->plain && s->mask_base[1] - s->mask_base[0] == 2,
              "%s, 16 VCs: switches of two mask words take the visits for any pipeline",
              c.spec);
        CHECK(r.status == FL_SIM_OK && r.packets > 500 && past_word > 1000,
              "%s, 16 VCs: drained (status %d, %lld packets), %lld flits through VCs past "
              "the first mask word", c.spec, (int)r.status, (long long)r.packets,
              (long long)past_word);
    }
    fl_sim_result_clear(&r);
    fl_sim_free(s);
    net_close(&n);
}

/* How many lanes a run gets: no more than the words of switches, and one
 * when the selection may draw. */
static void test_lanes(const char *spec, const char *routing, FlSelection selection, int threads,
                       int want)
{
    Case c = { spec, routing, 0.1, 4, NULL, FL_SWITCHING_WORMHOLE, FL_VC_RELEASE_TAIL_SENT,
               selection, 0, 0, 0, 0, FL_MEASURE_CREATED };
    Net n;
    if (!net_open(&n, spec, routing))
        return;
    FlSimConfig cfg;
    config(&cfg, &n, &c, threads);
    FlSim *s = NULL;
    FlError err;
    if (fl_sim_new(n.t, &cfg, &s, &err) == FL_OK) {
        int spread = 1;
        /* Every switch visited by exactly one lane, in whole words. */
        for (int l = 0; l < s->n_lanes; l++) {
            const FlSim *ls = fl__sim_lane(s, l);
            spread &= ls->lane_w_lo < ls->lane_w_hi
                      && ls->lane_w_lo == (l == 0 ? 0 : fl__sim_lane(s, l - 1)->lane_w_hi);
        }
        spread &= fl__sim_lane(s, s->n_lanes - 1)->lane_w_hi == (s->n_nodes + 63) / 64;
        CHECK(s->n_lanes == want && spread, "%s / %s, %d threads: %d lanes (want %d), "
              "covering every switch once", spec, routing, threads, s->n_lanes, want);
    } else {
        CHECK(0, "%s: fl_sim_new: %s", spec, err.message);
    }
    fl_sim_free(s);
    net_close(&n);
}

int main(void)
{
    const FlSwitching WH = FL_SWITCHING_WORMHOLE;
    const FlVcRelease SENT = FL_VC_RELEASE_TAIL_SENT;
    const FlSelection LOW = FL_SELECT_LOWEST_PORT;
    const FlMeasureRule CREATED = FL_MEASURE_CREATED;
    const Case cases[] = {
        { "mesh:16x16", "dor", 0.1, 8, "booksim-min", WH, SENT, LOW, 2, 8, 0, 0, CREATED },
        { "mesh:16x16", "dor", 0.45, 1, NULL, WH, SENT, LOW, 2, 8, 0, 0, CREATED },
        { "torus:16x16", "dor", 0.3, 8, NULL, WH, SENT, LOW, 4, 8, 0, 0, CREATED },
        { "irregular:256,ports=6,hosts=2,seed=3", "updown", 0.5, 4, NULL, WH, SENT, LOW, 2, 8,
          0, 0, CREATED },
        { "mesh:16x16", "odd-even", 0.3, 4, NULL, WH, SENT, FL_SELECT_CREDITS, 2, 8, 0, 0,
          CREATED },
        { "mesh:16x16", "west-first", 0.3, 16, NULL, FL_SWITCHING_VCT, SENT, LOW, 3, 16, 0, 0,
          CREATED },
        { "mesh:16x16", "dor", 0.3, 8, NULL, WH, FL_VC_RELEASE_TAIL_CREDIT, LOW, 2, 8, 0, 0,
          CREATED },
        { "mesh:16x16", "dor", 0.2, 8, "3:2:1:0:2", WH, SENT, LOW, 2, 8, 4, 0, CREATED },
        { "mesh:16x16", "dor", 0.2, 8, NULL, WH, SENT, LOW, 2, 8, 0, 2, CREATED },
        { "mesh:16x16", "dor", 0.4, 8, "booksim-min", WH, SENT, LOW, 2, 8, 0, 0,
          FL_MEASURE_BOOKSIM },
        { "hypercube:8", "dor", 0.3, 2, NULL, WH, SENT, LOW, 2, 8, 0, 0, CREATED },
    };
    const int n_cases = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n_cases; i++)
        test_same(&cases[i], 2, 2, 0, 0);
    test_same(&cases[0], 4, 4, 0, 0);
    test_same(&cases[3], 3, 3, 1, 0);
    test_same(&cases[2], 4, 4, 1, 0);
    /* Plain pipelines: 8-flit and booksim-min, saturated 1-flit, a torus,
     * updown on an irregular network, odd-even choosing by credits. */
    for (int i = 0; i < 5; i++)
        test_same(&cases[i], 1, 1, 0, 1);
    test_run_and_restore(&cases[1], 2);
    test_run_and_restore(&cases[3], 3);
    test_wide_switches();

    test_lanes("mesh:8x8", "dor", LOW, 4, 1);
    test_lanes("mesh:16x16", "dor", LOW, 64, 4);
    test_lanes("mesh:32x32", "dor", LOW, 3, 3);
    test_lanes("mesh:16x16", "dor", FL_SELECT_RANDOM, 2, 2);
    test_lanes("mesh:16x16", "odd-even", FL_SELECT_RANDOM, 2, 1);
    test_lanes("mesh:16x16", "odd-even", FL_SELECT_CREDITS, 2, 2);
    return tap_done();
}
