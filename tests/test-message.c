/* test-message.c — schedules of messages over the flit-level simulator
 * (one-port hosts, software costs, packets, dependencies) against the
 * simulator's zero-load latency, and paper 001's parameterized model
 * against closed forms. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim-net.h"

/* The 4x4 mesh with DOR and no traffic of its own: host h at switch h. */
static FlSim *quiet_mesh(Net *n, FlSimConfig *cfg)
{
    FlSim *s = NULL;
    FlError err;
    if (!uniform_net(n, cfg, "mesh:4x4", "dor", 0.0, 1))
        return NULL;
    if (fl_sim_new(n->t, cfg, &s, &err)) {
        CHECK(0, "fl_sim_new: %s", err.message);
        net_close(n);
        return NULL;
    }
    return s;
}

/* Switches on the route between hosts a and b of the 4x4 mesh. */
static int route_switches(int a, int b)
{
    return abs(a % 4 - b % 4) + abs(a / 4 - b / 4) + 1;
}

/* A message's network time alone: the zero-load latency of the default
 * pipeline, T0 = 1 + H + (L - 1), from the cycle its packets are handed
 * over to the cycle its tail reaches the host, plus the cycle after, from
 * which the host can act on it. */
static int64_t alone(int a, int b, int flits)
{
    return 1 + route_switches(a, b) + (flits - 1) + 1;
}

static int run(FlSim *s, const FlMessage *m, int n, const FlMessageCosts *c, FlMessageTimes *t,
               int64_t *done)
{
    FlError err;
    int rc = fl_message_run(s, m, n, c, 0, NULL, NULL, t, done, &err);
    CHECK(rc == FL_OK, "the schedule runs: %s", rc ? err.message : "ok");
    return rc == FL_OK;
}

static void test_one_message(void)
{
    Net n;
    FlSimConfig cfg;
    FlSim *s = quiet_mesh(&n, &cfg);
    if (!s)
        return;
    FlMessage m = { 0, 15, 8, -1 };
    FlMessageCosts c = { 100, 2, 50, 3, 0 };
    FlMessageTimes t;
    int64_t done;
    if (run(s, &m, 1, &c, &t, &done)) {
        CHECK_INT(t.start, 0);
        CHECK_INT(t.injected, 100 + 2 * 8);
        CHECK_INT(t.arrived - t.injected, alone(0, 15, 8));
        CHECK_INT(t.received, t.arrived + 50 + 3 * 8);
        CHECK_INT(done, t.received);
    }
    fl_sim_free(s);
    net_close(&n);
}

/* A message longer than a packet goes as several, back to back: it
 * arrives as one packet of its size would. */
static void test_packets(void)
{
    Net n;
    FlSimConfig cfg;
    FlSim *s = quiet_mesh(&n, &cfg);
    if (!s)
        return;
    FlMessage m = { 3, 12, 100, -1 };
    FlMessageCosts c = { 0, 0, 0, 0, 16 };
    FlMessageTimes t;
    if (run(s, &m, 1, &c, &t, NULL))
        CHECK(t.arrived - t.injected == alone(3, 12, 100),
              "100 flits in 7 packets of 16 arrive %lld cycles after, as one packet would (%lld)",
              (long long)(t.arrived - t.injected), (long long)alone(3, 12, 100));
    fl_sim_free(s);
    net_close(&n);
}

/* One port: a host sends one message at a time, and receives one at a
 * time; a message waits for the one it depends on. */
static void test_one_port(void)
{
    Net n;
    FlSimConfig cfg;
    FlSim *s = quiet_mesh(&n, &cfg);
    if (!s)
        return;
    FlMessage m[] = {
        { 0, 5, 4, -1 },    /* 0 sends twice */
        { 0, 10, 4, -1 },
        { 6, 9, 4, -1 },    /* 9 receives from 6 and 13 at about the same time */
        { 13, 9, 4, -1 },
        { 5, 7, 4, 0 },     /* 5 forwards what it got from 0 */
    };
    FlMessageCosts c = { 30, 1, 20, 2, 0 };
    FlMessageTimes t[5];
    int64_t done;
    if (run(s, m, 5, &c, t, &done)) {
        CHECK_INT(t[1].start, t[0].injected);
        int64_t first = t[2].received < t[3].received ? 2 : 3, second = 5 - first;
        CHECK(t[second].received == t[first].received + 20 + 2 * 4,
              "receipts at one host are one at a time (%lld, then %lld)",
              (long long)t[first].received, (long long)t[second].received);
        CHECK_INT(t[4].start, t[0].received);
        int64_t last = 0;
        for (int i = 0; i < 5; i++)
            last = t[i].received > last ? t[i].received : last;
        CHECK_INT(done, last);
    }
    fl_sim_free(s);
    net_close(&n);
}

/* A chain 0 -> 1 -> 2 -> 3 along a row meets no contention: paper 001's
 * model with t_hold = s_s + s_d L and t_end = t_hold + the network time +
 * r_s + r_d L gives the simulated times exactly. */
static void test_model_matches_chain(void)
{
    Net n;
    FlSimConfig cfg;
    FlSim *s = quiet_mesh(&n, &cfg);
    if (!s)
        return;
    FlMessage m[] = { { 0, 1, 6, -1 }, { 1, 2, 6, 0 }, { 2, 3, 6, 1 } };
    FlMessageCosts c = { 40, 2, 25, 1, 0 };
    FlMessageTimes sim[3], model[3];
    int64_t sim_done, model_done;
    FlError err;
    int64_t hold = 40 + 2 * 6, end = hold + alone(0, 1, 6) + 25 + 6;
    if (run(s, m, 3, &c, sim, &sim_done)
        && fl_message_analytic(m, 3, 16, hold, end, model, &model_done, &err) == FL_OK) {
        CHECK(sim_done == model_done && sim_done == 3 * end,
              "the chain completes at %lld simulated, %lld in the model (3 t_end = %lld)",
              (long long)sim_done, (long long)model_done, (long long)(3 * end));
        for (int i = 0; i < 3; i++)
            CHECK(sim[i].start == model[i].start && sim[i].received == model[i].received,
                  "message %d: sent %lld / %lld, received %lld / %lld", i,
                  (long long)sim[i].start, (long long)model[i].start,
                  (long long)sim[i].received, (long long)model[i].received);
    }
    fl_sim_free(s);
    net_close(&n);
}

/* Paper 001's model on trees whose times have closed forms. */
static void test_analytic(void)
{
    FlError err;
    int64_t done = -1;
    FlMessageTimes t[16];
    /* Binomial (recursive doubling) on 8 hosts: step s doubles the holders;
     * with t_hold = t_end every step costs t_end: 3 t_end in all. */
    FlMessage binomial[7] = {
        { 0, 4, 1, -1 }, { 0, 2, 1, -1 }, { 4, 6, 1, 0 }, { 0, 1, 1, -1 },
        { 4, 5, 1, 0 },  { 2, 3, 1, 1 },  { 6, 7, 1, 2 },
    };
    int rc = fl_message_analytic(binomial, 7, 8, 30, 30, t, &done, &err);
    CHECK(rc == FL_OK && done == 90,
          "binomial tree on 8 nodes with t_hold = t_end = 30: %lld, expected 90", (long long)done);
    /* Separate addressing: the source sends to k = 9 destinations, one
     * after another: (k - 1) t_hold + t_end. */
    FlMessage sequential[9];
    for (int i = 0; i < 9; i++)
        sequential[i] = (FlMessage){ 0, i + 1, 1, -1 };
    rc = fl_message_analytic(sequential, 9, 10, 20, 55, t, &done, &err);
    CHECK(rc == FL_OK && done == 8 * 20 + 55,
          "sequential to 9 with t_hold 20, t_end 55: %lld, expected %d", (long long)done,
          8 * 20 + 55);
    /* A chain of 9: 9 t_end. */
    FlMessage chain[9];
    for (int i = 0; i < 9; i++)
        chain[i] = (FlMessage){ i, i + 1, 1, i - 1 };
    rc = fl_message_analytic(chain, 9, 10, 20, 55, t, &done, &err);
    CHECK(rc == FL_OK && done == 9 * 55,
          "a chain of 9 with t_end 55: %lld, expected %d", (long long)done, 9 * 55);
}

static void test_refusals(void)
{
    FlError err;
    FlMessageTimes t[3];
    FlMessage self[] = { { 2, 2, 1, -1 } };
    CHECK(fl_message_check(self, 1, 4, &err) == FL_EINVAL && strstr(err.message, "itself"),
          "a host sending to itself is refused: %s", err.message);
    FlMessage range[] = { { 0, 9, 1, -1 } };
    CHECK(fl_message_check(range, 1, 4, &err) == FL_EINVAL, "a missing host is refused: %s",
          err.message);
    FlMessage wrong[] = { { 0, 1, 1, -1 }, { 2, 3, 1, 0 } };
    CHECK(fl_message_check(wrong, 2, 4, &err) == FL_EINVAL && strstr(err.message, "not to its"),
          "a dependency on a message for another host is refused: %s", err.message);
    /* 1 waits for 0's arrival at 1... which 1 sends after its own first
     * message, which waits for 0: a cycle through the one-port order. */
    FlMessage cycle[] = { { 1, 0, 1, 2 }, { 0, 1, 1, 0 }, { 0, 1, 1, -1 } };
    CHECK(fl_message_check(cycle, 3, 4, &err) == FL_EINVAL && strstr(err.message, "never"),
          "a schedule waiting on itself is refused: %s", err.message);
    CHECK(fl_message_analytic(cycle, 3, 4, 1, 1, t, NULL, &err) == FL_EINVAL,
          "and the model refuses it too");

    Net n;
    FlSimConfig cfg;
    FlSim *s = quiet_mesh(&n, &cfg);
    if (!s)
        return;
    FlMessage m[] = { { 0, 15, 4, -1 } };
    FlMessageCosts c = { 1000, 0, 0, 0, 0 };
    CHECK(fl_message_run(s, m, 1, &c, 100, NULL, NULL, t, NULL, &err) == FL_ERANGE
              && strstr(err.message, "100 cycles"),
          "a schedule longer than the limit stops: %s", err.message);
    /* A message the run would step through for more than 10^8 cycles is
     * refused before the first cycle: the run has no limit here. */
    FlMessageCosts slow = { INT32_MAX, 0, 0, 0, 0 };
    int64_t before = fl_sim_cycle(s);
    CHECK(fl_message_run(s, m, 1, &slow, 0, NULL, NULL, t, NULL, &err) == FL_ERANGE
              && strcmp(err.message, "s-s + (s-d + c-d + r-d) x L + r-s, the cycles one "
                        "message of L = 4 flits takes, must be at most 100000000, not "
                        "2147483651: a simulated run steps through every cycle a message "
                        "takes") == 0
              && fl_sim_cycle(s) == before,
          "a start-up too long to simulate is refused at once: %s", err.message);
    fl_sim_free(s);
    net_close(&n);
    FlSim *busy = NULL;
    if (uniform_net(&n, &cfg, "mesh:4x4", "dor", 0.1, 1) && !fl_sim_new(n.t, &cfg, &busy, &err)) {
        CHECK(fl_message_run(busy, m, 1, &c, 0, NULL, NULL, t, NULL, &err) == FL_EINVAL
                  && strstr(err.message, "rate"),
              "a simulation with traffic of its own is refused: %s", err.message);
        fl_sim_free(busy);
        net_close(&n);
    }
}

/* What one message may take in a simulated run: its start-ups and its
 * size-dependent terms together, on the channel time given. */
static void test_costs_bound(void)
{
    FlError err;
    FlMessageCosts paper = { 2000, 2, 3500, 3, 0 };
    CHECK(fl_message_costs_check(&paper, 64, 2, &err) == FL_OK, "paper 001's costs: %s",
          err.message);
    /* 10^8 exactly: 2000 + 3500 + (2 + 2 + 3) L with L = 14284928 is
     * 99999996, and one flit more 100000003. */
    CHECK(fl_message_costs_check(&paper, 14284928, 2, &err) == FL_OK,
          "a message just inside the bound: %s", err.message);
    CHECK(fl_message_costs_check(&paper, 14284929, 2, &err) == FL_ERANGE
              && strstr(err.message, "L = 14284929 flits") && strstr(err.message, "100000003"),
          "one flit more is refused, naming the size and the total: %s", err.message);
    FlMessageCosts huge = { INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, 0 };
    CHECK(fl_message_costs_check(&huge, INT32_MAX, INT64_MAX, &err) == FL_ERANGE,
          "costs whose sum passes 64 bits are refused, not wrapped: %s", err.message);
    FlMessageCosts channel = { 0, 0, 0, 0, 0 };
    CHECK(fl_message_costs_check(&channel, 1000, 100001, &err) == FL_ERANGE
              && strstr(err.message, "100001000"),
          "the channel time counts per flit: %s", err.message);
}

/* Paper 001's parameters from the costs: section 4.2's costs give its
 * IBM SP-like t_hold = 2000 + 2 L and t_end = 5500 + 7 L cycles. */
static void test_model(void)
{
    FlMessageCosts c = { 2000, 2, 3500, 3, 0 };
    int64_t hold = -1, end = -1;
    fl_message_model(&c, 1024, 2, 0, &hold, &end);
    CHECK(hold == 2000 + 2 * 1024 && end == 5500 + 7 * 1024,
          "model: t_hold %lld = 2000 + 2 L, t_end %lld = 5500 + 7 L for L = 1024",
          (long long)hold, (long long)end);
    fl_message_model(&c, 1, 1, 17, NULL, &end);
    CHECK(end == 2000 + 2 + 1 + 3500 + 3 + 17, "model: head latency adds to t_end (%lld)",
          (long long)end);
}

static int cmp_order(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k])
            return (x[k] > y[k]) - (x[k] < y[k]);
    return 0;
}

typedef struct Replay {
    int64_t *delivered;
    int64_t n;
} Replay;

static int replay_delivered(FlSim *sim, const FlSimHookInfo *info, void *data)
{
    (void)sim;
    Replay *r = data;
    if (info->packet >= 0 && info->packet < r->n)
        r->delivered[info->packet] = info->delivered;
    return 0;
}

/* A run that contends (a binomial broadcast from a corner, long messages
 * cut into packets, zero send time so that several go in one cycle)
 * replayed from its trace: every packet is delivered when the run's was,
 * and both simulate the same flit-hops. */
static void test_trace_replay(void)
{
    Net n;
    FlSimConfig cfg;
    FlSim *s = quiet_mesh(&n, &cfg);
    if (!s)
        return;
    FlMessage m[] = { { 0, 8, 40, -1 }, { 0, 4, 40, -1 }, { 8, 12, 40, 0 }, { 0, 2, 40, -1 },
                      { 8, 10, 40, 0 }, { 4, 6, 40, 1 }, { 12, 14, 40, 2 }, { 0, 15, 40, -1 },
                      { 3, 0, 40, -1 }, { 5, 0, 40, -1 } };
    int nm = (int)(sizeof m / sizeof m[0]);
    FlMessageCosts c = { 0, 0, 5, 1, 16 };
    FlMessageTimes t[10];
    FlTraceEvent *ev = NULL;
    int64_t nev = 0, done = 0;
    FlError err;
    FlSim *replay = NULL;
    if (!run(s, m, nm, &c, t, &done)) {
        fl_sim_free(s);
        net_close(&n);
        return;
    }
    FlSimResult ra = { 0 }, rb = { 0 };
    fl_sim_stats(s, &ra, NULL);
    int rc = fl_message_trace(m, nm, &c, t, &ev, &nev, &err);
    CHECK(rc == FL_OK && nev == 3 * nm, "trace: %lld packets of 16, 16 and 8 flits for %d "
          "messages (%s)", (long long)nev, nm, rc ? err.message : "ok");
    FlSimConfig rcfg;
    trace_config(&rcfg, &n, ev, (int)nev);
    int64_t *delivered = calloc((size_t)nev, sizeof *delivered);
    Replay rp = { delivered, nev };
    if (rc == FL_OK && !fl_sim_new(n.t, &rcfg, &replay, &err)
        && !fl_sim_set_hook(replay, FL_SIM_HOOK_DELIVERED, 0, replay_delivered, &rp, &err)) {
        fl_sim_step(replay, fl_sim_cycle(s), NULL, NULL);
        fl_sim_stats(replay, &rb, NULL);
        /* The trace's order: by injection cycle, source, message. */
        int64_t key[10][3];
        for (int i = 0; i < nm; i++) {
            key[i][0] = t[i].injected;
            key[i][1] = m[i].src;
            key[i][2] = i;
        }
        qsort(key, (size_t)nm, sizeof key[0], cmp_order);
        int bad = 0;
        int64_t id = 0;
        for (int k = 0; k < nm; k++) {
            int i = (int)key[k][2];
            int64_t last = -1;
            for (int p = 0; p < 3; p++, id++)
                last = delivered[id] > last ? delivered[id] : last;
            bad += last + 1 != t[i].arrived;
        }
        CHECK(bad == 0, "replay: every message's last packet arrives when it did in the run "
              "(%d differ)", bad);
        CHECK(ra.flit_hops == rb.flit_hops && ra.flit_hops > 0,
              "replay: %lld flit-hops, as the run's %lld", (long long)rb.flit_hops,
              (long long)ra.flit_hops);
    } else {
        CHECK(0, "replay: %s", err.message);
    }
    fl_sim_result_clear(&ra);
    fl_sim_result_clear(&rb);
    free(delivered);
    free(ev);
    fl_sim_free(replay);
    fl_sim_free(s);
    net_close(&n);
}

static int stop_at_half(void *data, double fraction)
{
    int *calls = data;
    ++*calls;
    return fraction >= 0.5;
}

/* Progress is heard as messages are received, and stops the run. */
static void test_cancel(void)
{
    Net n;
    FlSimConfig cfg;
    FlSim *s = quiet_mesh(&n, &cfg);
    if (!s)
        return;
    FlMessage m[] = { { 0, 1, 4, -1 }, { 1, 2, 4, 0 }, { 2, 3, 4, 1 }, { 3, 7, 4, 2 } };
    FlMessageCosts c = { 10, 1, 10, 1, 0 };
    FlMessageTimes t[4];
    FlError err;
    int calls = 0;
    int rc = fl_message_run(s, m, 4, &c, 0, stop_at_half, &calls, t, NULL, &err);
    CHECK(rc == FL_ECANCELLED && calls >= 3 && t[1].received > 0 && t[3].received < 0,
          "a run stops when its progress asks, with half of it received (%d calls): %s", calls,
          err.message);
    fl_sim_free(s);
    net_close(&n);
}

int main(void)
{
    test_one_message();
    test_packets();
    test_one_port();
    test_model_matches_chain();
    test_analytic();
    test_refusals();
    test_costs_bound();
    test_model();
    test_trace_replay();
    test_cancel();
    return tap_done();
}
