/* flitlab-mpi.c — `mpirun -np N flitlab-mpi experiment run|resume
 * P.flitlab NAME [--jobs J]`: an experiment of a project file run across
 * the ranks of an MPI job.
 *
 * Rank 0 owns the project file: it opens the experiment, broadcasts its
 * name, network and design (each worker rank builds the same experiment,
 * detached), and hands out the missing runs one curve at a time. The stop
 * rule never looks across curves, so a curve run whole on one worker gives
 * what a single-machine run gives with the same seeds. A worker runs its
 * curve on J threads (default 1: one rank per core is MPI's way) and sends
 * each finished run back as soon as it is known; rank 0 claims each curve's
 * runs when it hands it out, commits every result into the file, prints
 * the progress as `flitlab experiment run` does, and on an error hands out
 * no more curves, waits for those out, and fails.
 *
 * Rank 0 does not simulate when there are workers: it must answer them at
 * once and commit each result (a synced transaction), and between messages
 * it sleeps instead of spinning in MPI_Recv, so that it takes next to no
 * CPU — run N = workers + 1 ranks. With -np 1 it runs everything itself,
 * on J threads (default: the machine's cores), as the CLI does. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi-protocol.h"

static const char usage[] =
    "Usage: mpirun -np N flitlab-mpi experiment run|resume P.flitlab NAME [--jobs J]\n"
    "Run what experiment NAME of project P.flitlab lacks across the ranks: rank 0 owns\n"
    "the file and hands out curves of runs, ranks 1..N-1 simulate them on J threads\n"
    "each (default 1; with -np 1, rank 0 runs everything on the machine's cores).\n";

typedef struct Args {
    const char *path, *name;
    int jobs;                    /* 0: the default */
} Args;

/* 0, 1 after --help, 2 on bad words (with a message). */
static int parse(int argc, char **argv, Args *a)
{
    const char *words[4];
    int n = 0;
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
        if (strcmp(argv[i], "--jobs") == 0 || strcmp(argv[i], "-j") == 0) {
            char *end = NULL;
            long j = i + 1 < argc ? strtol(argv[++i], &end, 10) : 0;
            if (!end || *end || j < 1 || j > 1024) {
                fprintf(stderr, "flitlab-mpi: --jobs needs a number from 1 to 1024\n");
                return 2;
            }
            a->jobs = (int)j;
        } else if (n < 4) {
            words[n++] = argv[i];
        } else {
            n++;
        }
    }
    if (n != 4 || strcmp(words[0], "experiment") != 0
        || (strcmp(words[1], "run") != 0 && strcmp(words[1], "resume") != 0)) {
        fprintf(stderr, "%s", usage);
        return 2;
    }
    a->path = words[2];
    a->name = words[3];
    return 0;
}

/* ---- a worker rank ------------------------------------------------------- */

/* data: the count of failed runs this curve sent. */
static void send_result(void *data, const FlExperimentResult *r)
{
    if (r->status == FL_RUN_FAILED)
        (*(int64_t *)data)++;
    unsigned char *buf = NULL;
    int len = 0;
    if (mpi_pack_result(r, &buf, &len) == 0)
        MPI_Send(buf, len, MPI_BYTE, 0, MPI_TAG_RESULT, MPI_COMM_WORLD);
    free(buf);
}

static void send_end(const FlError *err)
{
    unsigned char *buf = NULL;
    int len = 0;
    if (mpi_pack_end(err, &buf, &len) == 0)
        MPI_Send(buf, len, MPI_BYTE, 0, MPI_TAG_END, MPI_COMM_WORLD);
    free(buf);
}

/* Runs the curves rank 0 sends until it sends none. */
static int worker(FlExperiment *x, const FlError *broken, int jobs)
{
    for (;;) {
        MPI_Status st;
        int n = 0;
        MPI_Probe(0, MPI_TAG_WORK, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT64_T, &n);
        int64_t *runs = malloc(sizeof *runs * (size_t)(n ? n : 1));
        MPI_Recv(runs, n, MPI_INT64_T, 0, MPI_TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (n == 0) {
            free(runs);
            return 0;
        }
        FlError err = { 0 };
        if (!x || !runs) {
            err = *broken;
            if (!runs)
                fl_error_set(&err, FL_ENOMEM, "out of memory for a curve of %d runs", n);
        } else {
            FlExperimentRunOptions opt;
            fl_experiment_run_options_init(&opt);
            opt.workers = jobs;
            opt.runs = runs;
            opt.nruns = n;
            int64_t failed = 0;
            opt.result = send_result;
            opt.result_data = &failed;
            /* A failed run reaches rank 0 with its result, which counts it;
             * the error the call returns for it is no reason to stop. */
            if (fl_experiment_run(x, &opt, &err) && failed > 0)
                err = (FlError){ 0 };
        }
        send_end(&err);
        free(runs);
    }
}

/* ---- rank 0 ---------------------------------------------------------------- */

/* The curves that lack a run, whole, in the order of their first run:
 * curve c is runs[start[c] .. start[c + 1] - 1]. A curve goes out whole,
 * the runs the file holds too, so that its worker judges saturation from
 * the curve's own first run as an uninterrupted run does; rank 0 commits
 * only the runs the file lacks (status, as read at the start). */
typedef struct Curves {
    int64_t *runs, *start;
    int64_t n;
    unsigned char *status;
} Curves;

static int by_curve(FlExperiment *x, Curves *c, FlError *err)
{
    unsigned char *status = NULL;
    int64_t total = fl_experiment_run_count(x);
    size_t room = (size_t)total + 1;
    memset(c, 0, sizeof *c);
    if (fl_experiment_status(x, &status, NULL, err))
        return -1;
    /* By a curve's number (one of its runs', fl_experiment_curve()): its
     * ordinal; by ordinal: its size, then where the next run goes. */
    int64_t *ordinal = malloc(sizeof *ordinal * room);
    int64_t *size = calloc(room, sizeof *size);
    c->runs = malloc(sizeof *c->runs * room);
    c->start = malloc(sizeof *c->start * room);
    int rc = ordinal && size && c->runs && c->start ? 0 : -1;
    if (rc)
        fl_error_set(err, FL_ENOMEM, "out of memory for the runs of %s", fl_experiment_name(x));
    for (int64_t i = 0; !rc && i < total; i++)
        ordinal[i] = -1;
    /* Marks the curves that lack a run (-2), then numbers them in order. */
    for (int64_t i = 0; !rc && i < total; i++)
        if (status[i] == FL_EXPERIMENT_MISSING)
            ordinal[fl_experiment_curve(x, i)] = -2;
    for (int64_t i = 0; !rc && i < total; i++) {
        int64_t k = fl_experiment_curve(x, i);
        if (ordinal[k] == -1)
            continue;
        if (ordinal[k] < 0)
            ordinal[k] = c->n++;
        size[ordinal[k]]++;
    }
    if (!rc)
        c->start[0] = 0;
    for (int64_t j = 0; !rc && j < c->n; j++) {
        c->start[j + 1] = c->start[j] + size[j];
        size[j] = 0;
    }
    for (int64_t i = 0; !rc && i < total; i++) {
        int64_t j = ordinal[fl_experiment_curve(x, i)];
        if (j >= 0)
            c->runs[c->start[j] + size[j]++] = i;
    }
    free(ordinal);
    free(size);
    c->status = status;
    return rc;
}

/* What rank 0 knows while the workers run. */
typedef struct Coordinator {
    FlExperiment *x;
    Curves curves;
    int64_t next;                /* the first curve not handed out */
    int64_t *outstanding;        /* per rank: runs sent, not yet back */
    int workers, jobs;
    FlExperimentProgress p;
    struct timespec t0;
    double wall_sum;
    int64_t walls;
    int64_t printed;
    int stop;                    /* hand out no more curves */
    FlError err;                 /* the first error that is not a failed run */
    FlError first_failed;        /* the first failed run's, "run N: ..." */
} Coordinator;

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void print_progress(Coordinator *c)
{
    FlExperimentProgress *p = &c->p;
    int64_t finished = fl_experiment_finished(p);
    p->running = 0;
    for (int w = 1; w <= c->workers; w++)
        p->running += (int)(c->outstanding[w] < c->jobs ? c->outstanding[w] : c->jobs);
    p->elapsed_s = since(&c->t0);
    p->eta_s = fl_experiment_eta(p, c->walls ? c->wall_sum / (double)c->walls : NAN,
                                 c->workers * c->jobs);
    if (finished == c->printed)
        return;
    c->printed = finished;
    char line[512];
    fl_experiment_progress_text(fl_experiment_name(c->x), p, line, sizeof line);
    fprintf(stderr, "%s\n", line);
}

/* Hands worker w its next curves (claimed in the file), or stop: as many
 * curves as it has threads, so that each thread has a curve of its own. */
static void hand_out(Coordinator *c, int w)
{
    int64_t n = 0, *runs = NULL;
    if (!c->stop && c->next < c->curves.n) {
        int64_t last = c->next + c->jobs < c->curves.n ? c->next + c->jobs : c->curves.n;
        runs = c->curves.runs + c->curves.start[c->next];
        n = c->curves.start[last] - c->curves.start[c->next];
        c->next = last;
        FlError err = { 0 };
        for (int64_t i = 0; i < n; i++)
            if (c->curves.status[runs[i]] == FL_EXPERIMENT_MISSING
                && fl_experiment_claim(c->x, &runs[i], 1, &err) && !c->err.code) {
                c->err = err;
                c->stop = 1;
            }
    }
    c->outstanding[w] = n;
    MPI_Send(runs, (int)n, MPI_INT64_T, w, MPI_TAG_WORK, MPI_COMM_WORLD);
}

static void on_result(Coordinator *c, int w, const unsigned char *buf, int len)
{
    FlExperimentResult r;
    char why[FL_ERROR_MESSAGE_MAX];
    FlError err = { 0 };
    if (mpi_unpack_result(buf, len, &r, why, sizeof why))
        fl_error_set(&err, FL_EPARSE, "rank %d sent a result that does not read", w);
    else if (r.idx < 0 || r.idx >= fl_experiment_run_count(c->x))
        fl_error_set(&err, FL_EPARSE, "rank %d sent run %lld of %lld", w, (long long)r.idx,
                     (long long)fl_experiment_run_count(c->x));
    else if (c->curves.status[r.idx] != FL_EXPERIMENT_MISSING) {
        /* Run again only to judge its curve: the file has it already. */
        c->outstanding[w]--;
        return;
    } else
        fl_experiment_commit(c->x, &r, NULL, &err);
    if (err.code) {
        if (!c->err.code)
            c->err = err;
        c->stop = 1;
        return;
    }
    c->outstanding[w]--;
    if (r.status == FL_RUN_DONE) {
        c->p.done++;
        c->wall_sum += r.wall_s;
        c->walls++;
    } else if (r.status == FL_RUN_FAILED) {
        if (c->p.failed++ == 0)
            fl_error_set(&c->first_failed, FL_EINVAL, "run %lld: %s", (long long)r.idx, why);
    } else {
        c->p.stopped++;
    }
    print_progress(c);
}

static void on_end(Coordinator *c, int w, const unsigned char *buf, int len)
{
    FlError err = { 0 };
    if (mpi_unpack_end(buf, len, &err))
        fl_error_set(&err, FL_EPARSE, "rank %d sent an end that does not read", w);
    if (err.code && !c->err.code) {
        c->err = err;
        c->stop = 1;
    }
    /* Runs of the curve a worker never sent are not running any more. */
    c->outstanding[w] = 0;
    hand_out(c, w);
}

/* Waits for messages without spinning a core. */
static void coordinate(Coordinator *c)
{
    int busy = 0;
    for (int w = 1; w <= c->workers; w++) {
        hand_out(c, w);
        busy += c->outstanding[w] > 0;
    }
    print_progress(c);
    unsigned char *buf = NULL;
    while (busy > 0) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
            continue;
        }
        int len = 0;
        MPI_Get_count(&st, MPI_BYTE, &len);
        buf = realloc(buf, (size_t)(len ? len : 1));
        MPI_Recv(buf, len, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        if (st.MPI_TAG == MPI_TAG_RESULT) {
            on_result(c, st.MPI_SOURCE, buf, len);
        } else if (st.MPI_TAG == MPI_TAG_END) {
            on_end(c, st.MPI_SOURCE, buf, len);
            busy -= c->outstanding[st.MPI_SOURCE] == 0 ? 1 : 0;
        }
    }
    free(buf);
}

/* Rank 0 alone: the runner of the CLI. */
static void on_progress(void *data, const FlExperimentProgress *p)
{
    Coordinator *c = data;
    c->p = *p;
    int64_t finished = fl_experiment_finished(p);
    if (finished == c->printed || p->to_run == 0)
        return;
    c->printed = finished;
    char line[512];
    fl_experiment_progress_text(fl_experiment_name(c->x), p, line, sizeof line);
    fprintf(stderr, "%s\n", line);
}

static int run_alone(Coordinator *c)
{
    FlExperimentRunOptions opt;
    fl_experiment_run_options_init(&opt);
    if (c->jobs > 0)
        opt.workers = c->jobs;
    opt.progress = on_progress;
    opt.progress_data = c;
    FlError err = { 0 };
    if (!fl_experiment_run(c->x, &opt, &err))
        return 0;
    if (c->p.failed > 0)
        c->first_failed = err;
    else
        c->err = err;
    return 1;
}

static int finish(Coordinator *c)
{
    const char *name = fl_experiment_name(c->x);
    if (c->err.code) {
        fprintf(stderr, "flitlab-mpi: experiment %s: %s\n", name, c->err.message);
        return 1;
    }
    if (c->p.failed > 0) {
        fprintf(stderr, "flitlab-mpi: experiment %s: %lld run%s failed; %s\n", name,
                (long long)c->p.failed, c->p.failed > 1 ? "s" : "", c->first_failed.message);
        return 1;
    }
    return 0;
}

static int coordinator(FlExperiment *x, int size, int jobs)
{
    Coordinator c = { .x = x, .workers = size - 1, .jobs = jobs, .printed = -1 };
    clock_gettime(CLOCK_MONOTONIC, &c.t0);
    FlError err = { 0 };
    unsigned char *status = NULL;
    int64_t counts[3] = { 0 };
    c.outstanding = calloc((size_t)size, sizeof *c.outstanding);
    if (!c.outstanding || fl_experiment_status(x, &status, counts, &err)
        || (size > 1 && by_curve(x, &c.curves, &err))) {
        if (!err.code)
            fl_error_set(&err, FL_ENOMEM, "out of memory");
        c.err = err;
        c.stop = 1;
    }
    free(status);
    c.p.total = fl_experiment_run_count(x);
    c.p.held = counts[0] + counts[1] + counts[2];
    c.p.to_run = c.p.total - c.p.held;
    c.p.eta_s = NAN;
    if (size == 1 && !c.err.code && c.p.to_run == 0)
        fprintf(stderr, "experiment %s: nothing to run (%lld runs committed)\n",
                fl_experiment_name(x), (long long)c.p.held);
    else if (size == 1 && !c.err.code)
        run_alone(&c);
    if (size > 1) {
        if (!c.err.code && c.p.to_run == 0)
            fprintf(stderr, "experiment %s: nothing to run (%lld runs committed)\n",
                    fl_experiment_name(x), (long long)c.p.held);
        coordinate(&c);
        fl_experiment_release(x, &err);
    }
    int rc = finish(&c);
    free(c.curves.runs);
    free(c.curves.start);
    free(c.curves.status);
    free(c.outstanding);
    return rc;
}

int main(int argc, char **argv)
{
    int provided = 0, rank = 0, size = 1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    Args a;
    int rc = parse(argc, argv, &a);
    if (rc) {
        if (rc == 1 && rank == 0)
            printf("%s", usage);
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    FlProject *project = NULL;
    FlExperiment *x = NULL;
    FlError err = { 0 };
    int ok = 1;
    if (rank == 0)
        ok = !fl_project_open(a.path, &project, &err)
             && !fl_experiment_open(project, a.name, &x, &err);
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) {
        if (rank == 0)
            fprintf(stderr, "flitlab-mpi: %s\n", err.message);
        fl_project_free(project);
        MPI_Finalize();
        return 1;
    }
    /* The workers build the same experiment from what rank 0 read. */
    const FlProjectExperiment *e = rank == 0 ? fl_experiment_info(x) : NULL;
    char *name = e ? e->name : NULL, *network = e ? e->network : NULL;
    char *design = e ? e->design : NULL;
    int got = mpi_bcast_string(&name, rank) | mpi_bcast_string(&network, rank)
              | mpi_bcast_string(&design, rank);
    if (rank != 0) {
        if (got || fl_experiment_new_detached(name, network, design, &x, &err))
            fl_error_set(&err, err.code ? err.code : FL_ENOMEM, "rank %d: %s", rank,
                         err.code ? err.message : "out of memory");
        /* Results come back in order only when the workers may send from
         * the runner's threads; otherwise they could not send at all. */
        if (provided < MPI_THREAD_SERIALIZED && x) {
            fl_error_set(&err, FL_EUNSUPPORTED, "rank %d: this MPI does not let threads "
                         "send (MPI_THREAD_SERIALIZED)", rank);
            fl_experiment_free(x);
            x = NULL;
        }
        rc = worker(x, &err, a.jobs > 0 ? a.jobs : 1);
        free(name);
        free(network);
        free(design);
    } else {
        rc = coordinator(x, size, a.jobs > 0 ? a.jobs : size == 1 ? 0 : 1);
    }
    fl_experiment_free(x);
    fl_project_free(project);
    MPI_Finalize();
    return rc;
}
