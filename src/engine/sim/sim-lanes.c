/* sim-lanes.c — the lanes a simulation's switches are split into, and the
 * threads that visit them at once (see Lanes in sim-internal.h).
 *
 * A cycle's lanes start together and the cycle goes on once all are done:
 * a barrier twice a cycle. Waiting spins for a while, since a cycle of a
 * large network takes tens to hundreds of microseconds and waking a
 * sleeping thread costs several; a thread that has waited longer (the
 * caller stopped stepping, or is drawing) sleeps on a condition variable
 * until the next cycle. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "sim-internal.h"

/* How long a thread spins before it sleeps, in nanoseconds. */
#define SPIN_NS 200000

struct SimCrew {
    FlSim *s;
    int n;                     /* threads, for lanes 1 .. n */
    pthread_t *threads;
    pthread_mutex_t mu;        /* sleeping and waking */
    pthread_cond_t start_cv;   /* a round started */
    pthread_cond_t done_cv;    /* the threads finished a round */
    pthread_mutex_t route_mu;  /* route chunks, while lanes run */
    atomic_uint_fast64_t round;
    atomic_int done;           /* threads done with the round */
    atomic_int sleepers;       /* threads asleep waiting for a round */
    atomic_int caller_asleep;
    atomic_int quit;
    int running;               /* lanes run at once: set by the caller
                                * between rounds' starts and ends */
};

/* Lets the other hyper-thread or core run while this one spins. */
static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Spins up to SPIN_NS until pred(crew, arg) holds; returns whether it
 * does. */
static int spin_until(SimCrew *crew, int (*pred)(SimCrew *, uint64_t), uint64_t arg)
{
    int64_t until = 0;
    for (int i = 0;; i++) {
        if (pred(crew, arg))
            return 1;
        relax();
        /* The clock only now and then: it costs more than a pause. */
        if ((i & 255) == 255) {
            int64_t t = now_ns();
            if (!until)
                until = t + SPIN_NS;
            else if (t > until)
                return 0;
        }
    }
}

static int round_moved(SimCrew *crew, uint64_t seen)
{
    return atomic_load(&crew->round) != seen;
}

static int all_done(SimCrew *crew, uint64_t unused)
{
    (void)unused;
    return atomic_load(&crew->done) == crew->n;
}

typedef struct Worker {
    SimCrew *crew;
    int lane;
} Worker;

static void *worker_main(void *data)
{
    Worker w = *(Worker *)data;
    free(data);
    SimCrew *crew = w.crew;
    uint64_t seen = 0;
    for (;;) {
        if (!spin_until(crew, round_moved, seen)) {
            /* The sleeper count is raised before the round is read again,
             * and the caller reads it after moving the round: one of the
             * two sees the other (sequentially consistent atomics), and
             * the mutex keeps the signal from coming between the check and
             * the wait. */
            pthread_mutex_lock(&crew->mu);
            atomic_fetch_add(&crew->sleepers, 1);
            while (!round_moved(crew, seen))
                pthread_cond_wait(&crew->start_cv, &crew->mu);
            atomic_fetch_sub(&crew->sleepers, 1);
            pthread_mutex_unlock(&crew->mu);
        }
        seen = atomic_load(&crew->round);
        if (atomic_load(&crew->quit))
            return NULL;
        fl__sim_lane_tick(&crew->s->lane_sims[w.lane - 1]);
        if (atomic_fetch_add(&crew->done, 1) + 1 == crew->n && atomic_load(&crew->caller_asleep)) {
            pthread_mutex_lock(&crew->mu);
            pthread_cond_signal(&crew->done_cv);
            pthread_mutex_unlock(&crew->mu);
        }
    }
}

/* Starts a round: every thread runs its lane once. */
static void crew_start(SimCrew *crew)
{
    atomic_store(&crew->done, 0);
    atomic_fetch_add(&crew->round, 1);
    if (atomic_load(&crew->sleepers) > 0) {
        pthread_mutex_lock(&crew->mu);
        pthread_cond_broadcast(&crew->start_cv);
        pthread_mutex_unlock(&crew->mu);
    }
}

static void crew_wait(SimCrew *crew)
{
    if (spin_until(crew, all_done, 0))
        return;
    pthread_mutex_lock(&crew->mu);
    atomic_store(&crew->caller_asleep, 1);
    while (!all_done(crew, 0))
        pthread_cond_wait(&crew->done_cv, &crew->mu);
    atomic_store(&crew->caller_asleep, 0);
    pthread_mutex_unlock(&crew->mu);
}

static void crew_free(SimCrew *crew, int started)
{
    atomic_store(&crew->quit, 1);
    crew_start(crew);
    for (int i = 0; i < started; i++)
        pthread_join(crew->threads[i], NULL);
    pthread_mutex_destroy(&crew->mu);
    pthread_mutex_destroy(&crew->route_mu);
    pthread_cond_destroy(&crew->start_cv);
    pthread_cond_destroy(&crew->done_cv);
    free(crew->threads);
    free(crew);
}

/* Threads for lanes 1 .., or NULL if they cannot all start (the lanes then
 * run one after another on the caller's thread, with the same results). */
static SimCrew *crew_new(FlSim *s)
{
    SimCrew *crew = calloc(1, sizeof *crew);
    if (!crew)
        return NULL;
    crew->s = s;
    crew->n = s->n_lanes - 1;
    crew->threads = calloc((size_t)crew->n, sizeof *crew->threads);
    if (!crew->threads) {
        free(crew);
        return NULL;
    }
    pthread_mutex_init(&crew->mu, NULL);
    pthread_mutex_init(&crew->route_mu, NULL);
    pthread_cond_init(&crew->start_cv, NULL);
    pthread_cond_init(&crew->done_cv, NULL);
    for (int i = 0; i < crew->n; i++) {
        Worker *w = malloc(sizeof *w);
        if (w)
            *w = (Worker){ crew, i + 1 };
        if (!w || pthread_create(&crew->threads[i], NULL, worker_main, w) != 0) {
            free(w);
            crew_free(crew, i);
            return NULL;
        }
    }
    return crew;
}

/* --- the plan ------------------------------------------------------------- */

/* Lane l's scratch, wheel position, queue length (cq_cap), list of held
 * flits (room for leaving of them) and, for lanes from 1, the hosts it
 * wakes (host_wake); FL_ENOMEM. */
static int lane_alloc(FlSim *s, FlSim *ls, int64_t credited, int leaving)
{
    const int words = (s->n_nodes + 63) / 64;
    int64_t len = 1;
    while (len < credited)
        len *= 2;
    ls->cq_cap = len;
    s->cq_all += len;
    ls->push = malloc(sizeof *ls->push * (size_t)(leaving + 1));
    ls->sa_vc = malloc(sizeof(int) * (size_t)(s->max_in + 1));
    ls->sa_win = malloc(sizeof(int) * (size_t)(s->max_in + 1));
    ls->sa_offer = malloc(sizeof(int) * (size_t)(s->max_in + 1));
    ls->req_list = malloc(sizeof(int) * (size_t)((s->max_in + 1) * s->V));
    if (ls != s)
        ls->host_wake = calloc((size_t)words + 1, sizeof(uint64_t));
    if (!ls->push || !ls->sa_vc || !ls->sa_win || !ls->sa_offer || !ls->req_list
        || (ls != s && !ls->host_wake))
        return FL_ENOMEM;
    for (int p = 0; p <= s->max_in; p++)
        ls->sa_win[p] = -1;
    return FL_OK;
}

int fl__sim_lanes_plan(FlSim *s)
{
    const int words = (s->n_nodes + 63) / 64, nn = s->n_nodes;
    int lanes = s->cfg.threads;
    /* A random selection among several routes draws in node order. */
    if (s->cfg.selection == FL_SELECT_RANDOM && !fl__routing_by_destination(s->cfg.routing))
        lanes = 1;
    int *switches = calloc((size_t)words + 1, sizeof(int));
    int *word_lane = calloc((size_t)words + 1, sizeof(int));
    s->node_lane = calloc((size_t)nn + 1, 1);
    if (!switches || !word_lane || !s->node_lane) {
        free(switches);
        free(word_lane);
        return FL_ENOMEM;
    }
    int total = 0;
    for (int n = 0; n < nn; n++)
        if (s->node_host[n] < 0) {
            switches[n >> 6]++;
            total++;
        }
    /* Whole words, each to the lane its first switch's rank falls in when
     * the ranks are cut in equal shares; shares left empty are dropped. */
    int before = 0, used = 0, last = -1;
    for (int w = 0; w < words; w++) {
        int share = total ? (int)((int64_t)before * lanes / total) : 0;
        if (switches[w] && share != last) {
            last = share;
            used++;
        }
        word_lane[w] = used ? used - 1 : 0;
        before += switches[w];
    }
    free(switches);
    s->n_lanes = used ? used : 1;
    s->master = s;
    s->lane = 0;
    if (s->n_lanes > 1) {
        s->lane_sims = calloc((size_t)s->n_lanes - 1, sizeof *s->lane_sims);
        if (!s->lane_sims) {
            free(word_lane);
            return FL_ENOMEM;
        }
    }
    for (int l = 0; l < s->n_lanes; l++) {
        FlSim *ls = fl__sim_lane(s, l);
        ls->lane = l;
        ls->lane_w_lo = words;
        ls->lane_w_hi = 0;
    }
    for (int w = 0; w < words; w++) {
        FlSim *ls = fl__sim_lane(s, word_lane[w]);
        if (w < ls->lane_w_lo)
            ls->lane_w_lo = w;
        ls->lane_w_hi = w + 1;
    }
    free(word_lane);
    for (int l = 0; l < s->n_lanes; l++) {
        const FlSim *ls = fl__sim_lane(s, l);
        for (int n = ls->lane_w_lo * 64; n < ls->lane_w_hi * 64 && n < nn; n++)
            s->node_lane[n] = (uint8_t)l;
    }
    /* A host goes with its switch. */
    for (int h = 0; h < s->n_hosts; h++)
        s->node_lane[s->host_node[h]] = s->node_lane[s->host_switch[h]];

    /* Each lane's credit queue holds what its input VCs can free (a slot's
     * credit is on its way at most once), and its list of held flits one
     * per channel it sends into another lane's VCs (a channel takes a flit
     * a cycle); hosts count as lane 0 (see SimVc.kind). */
    int64_t *credited = calloc((size_t)s->n_lanes, sizeof(int64_t));
    int *leaving = calloc((size_t)s->n_lanes, sizeof(int));
    if (!credited || !leaving) {
        free(credited);
        free(leaving);
        return FL_ENOMEM;
    }
    for (int c = 0; c < s->n_chan; c++) {
        int src = s->chan_dst[c ^ 1], to = s->node_lane[s->chan_dst[c]];
        int from = s->node_host[src] >= 0 ? 0 : s->node_lane[src];
        if (!s->chan_sink[c]) {
            credited[to] += (int64_t)s->V * s->chan_cap[c];
            leaving[from] += from != to;
        }
    }
    s->cq_all = 0;
    int rc = FL_OK;
    for (int l = 0; l < s->n_lanes && rc == FL_OK; l++)
        rc = lane_alloc(s, fl__sim_lane(s, l), credited[l], leaving[l]);
    free(credited);
    free(leaving);
    return rc;
}

void fl__sim_lanes_attach(FlSim *s)
{
    SimCredit *cq = s->cq + s->cq_cap;
    for (int l = 1; l < s->n_lanes; l++) {
        FlSim *ls = &s->lane_sims[l - 1];
        ls->wheel = s->wheel + (size_t)l * (size_t)s->wheel_len;
        ls->cq = cq;
        cq += ls->cq_cap;
    }
}

void fl__sim_lane_queue(FlSim *s, int l, SimCredit **cq, int64_t *mask, int64_t **head,
                        int64_t **count)
{
    FlSim *ls = fl__sim_lane(s, l);
    *cq = ls->cq;
    *mask = ls->cq_cap - 1;
    *head = l == 0 ? &s->sc.cq_head : &s->cq_pos[2 * l];
    *count = l == 0 ? &s->sc.cq_count : &s->cq_pos[2 * l + 1];
}

/* --- running them ----------------------------------------------------------- */

/* Lane l's record becomes a copy of lane 0's, but for what is the lane's
 * own: where its wheel, credit queue, scratch, held flits and woken hosts
 * are, which switches it visits, and its queue's ends (kept in cq_pos
 * between cycles, so that a checkpoint holds them). */
static void lane_refresh(FlSim *s, int l)
{
    FlSim *ls = &s->lane_sims[l - 1];
    FlSim own = *ls;
    *ls = *s;
    ls->lane = own.lane;
    ls->lane_w_lo = own.lane_w_lo;
    ls->lane_w_hi = own.lane_w_hi;
    ls->wheel = own.wheel;
    ls->cq = own.cq;
    ls->cq_cap = own.cq_cap;
    ls->host_wake = own.host_wake;
    ls->sa_win = own.sa_win;
    ls->sa_vc = own.sa_vc;
    ls->sa_offer = own.sa_offer;
    ls->req_list = own.req_list;
    ls->push = own.push;
    ls->n_push = 0;
    ls->sc.cq_head = s->cq_pos[2 * l];
    ls->sc.cq_count = s->cq_pos[2 * l + 1];
    ls->sc.flit_hops = 0;
    ls->nomem = 0;
}

/* What lane l did that counts for the whole: flits sent, the hosts it
 * woke, its queue's ends, running out of memory. */
static void lane_gather(FlSim *s, int l)
{
    FlSim *ls = &s->lane_sims[l - 1];
    const int words = (s->n_nodes + 63) / 64;
    s->sc.flit_hops += ls->sc.flit_hops;
    for (int w = 0; w < words; w++) {
        s->host_wake[w] |= ls->host_wake[w];
        ls->host_wake[w] = 0;
    }
    s->cq_pos[2 * l] = ls->sc.cq_head;
    s->cq_pos[2 * l + 1] = ls->sc.cq_count;
    s->nomem |= ls->nomem;
}

void fl__sim_lanes_run(FlSim *s)
{
    for (int l = 1; l < s->n_lanes; l++)
        lane_refresh(s, l);
    /* While lanes run at once the route store must not move: room for a
     * chunk per grant (at most one per output VC a cycle) is made first. */
    int64_t need = (int64_t)s->sc.route_used + s->n_vc;
    int room = s->route_cap >= need;
    if (!room) {
        int64_t cap = 2 * (int64_t)s->route_cap > need ? 2 * (int64_t)s->route_cap : need;
        room = cap <= INT32_MAX && fl__sim_route_reserve(s, (int32_t)cap) == FL_OK;
        /* The lanes' records point at the store as it is now. */
        for (int l = 1; l < s->n_lanes; l++) {
            s->lane_sims[l - 1].route = s->route;
            s->lane_sims[l - 1].route_cap = s->route_cap;
        }
    }
    if (room && !s->crew && !s->crew_failed) {
        s->crew = crew_new(s);
        s->crew_failed = !s->crew;
    }
    if (room && s->crew) {
        SimCrew *crew = s->crew;
        crew->running = 1;
        crew_start(crew);
        fl__sim_lane_tick(s);
        crew_wait(crew);
        crew->running = 0;
    } else {
        for (int l = 0; l < s->n_lanes; l++) {
            /* Short of room, a lane before may have moved the store. */
            FlSim *ls = fl__sim_lane(s, l);
            ls->route = s->route;
            ls->route_cap = s->route_cap;
            fl__sim_lane_tick(ls);
        }
    }
    for (int l = 1; l < s->n_lanes; l++)
        lane_gather(s, l);
}

void fl__sim_lanes_lock(FlSim *s)
{
    SimCrew *crew = s->master->crew;
    if (crew && crew->running)
        pthread_mutex_lock(&crew->route_mu);
}

void fl__sim_lanes_unlock(FlSim *s)
{
    SimCrew *crew = s->master->crew;
    if (crew && crew->running)
        pthread_mutex_unlock(&crew->route_mu);
}

static void lane_free(FlSim *ls, int own_hosts)
{
    free(ls->push);
    free(ls->sa_vc);
    free(ls->sa_win);
    free(ls->sa_offer);
    free(ls->req_list);
    if (own_hosts)
        free(ls->host_wake);
}

void fl__sim_lanes_free(FlSim *s)
{
    if (s->crew)
        crew_free(s->crew, s->crew->n);
    s->crew = NULL;
    lane_free(s, 0);
    for (int l = 1; s->lane_sims && l < s->n_lanes; l++)
        lane_free(&s->lane_sims[l - 1], 1);
    free(s->lane_sims);
    free(s->node_lane);
    s->lane_sims = NULL;
}
