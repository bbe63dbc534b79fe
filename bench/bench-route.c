/* bench-route.c — how long `flitlab route` takes to build a routing and
 * analyse it (connectivity, hops, channel loads, the channel dependency
 * graph, turn metrics) on large networks, and how much memory it needs. Run
 * by hand (never as a timed test):
 *
 *     bench-route [large]
 *
 * prints one line per case: the CPU seconds to build the topology, the
 * routing and the analysis (fl_routing_analyze), their wall-clock total, and
 * the peak resident set. CPU time, because the machine is shared and
 * waiting for a core is not the program's cost. Each case runs in a process
 * of its own, so that its peak is its own; with "large", mesh:128x128 under
 * dor as well (tens of seconds). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench-time.h"
#include "flitlab.h"

static const struct Case {
    const char *spec, *routing;
} cases[] = {
    { "irregular:4096,ports=4,hosts=1,seed=1", "updown" },
    { "irregular:4096,ports=4,hosts=1,seed=1", "lturn-alpha" },
    { "irregular:4096,ports=4,hosts=1,seed=1", "lturn-beta" },
    { "irregular:4096,ports=4,hosts=1,seed=1", "rturn-alpha" },
    { "irregular:4096,ports=4,hosts=1,seed=1", "rturn-beta" },
    { "mesh:64x64", "dor" },
    { "mesh:64x64", "updown" },
    { "mesh:64x64", "lturn-alpha" },
    { "mesh:64x64", "rturn-alpha" },
};

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const struct Case large = { "mesh:128x128", "dor" };

/* Builds and analyses one case, printing its line; the exit status says
 * whether it worked. */
static int run_case(const struct Case *c)
{
    FlError err = { 0 };
    FlTopology *t = NULL;
    FlRouting *r = NULL;
    FlRoutingReport rep;
    double w0 = now_ms(), t0 = cpu_s();
    if (fl_topology_from_spec(c->spec, &t, &err)) {
        fprintf(stderr, "%s: %s\n", c->spec, err.message);
        return 1;
    }
    double t1 = cpu_s();
    if (fl_routing_new(t, c->routing, NULL, &r, &err)) {
        fprintf(stderr, "%s on %s: %s\n", c->routing, c->spec, err.message);
        fl_topology_free(t);
        return 1;
    }
    double t2 = cpu_s();
    if (fl_routing_analyze(r, &rep, &err)) {
        fprintf(stderr, "%s on %s: %s\n", c->routing, c->spec, err.message);
        fl_routing_free(r);
        fl_topology_free(t);
        return 1;
    }
    double t3 = cpu_s(), w1 = now_ms();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-38s %-12s %6.2f %6.2f %6.2f %6.2f %6.2f %8.1f   %s, %.4f hops\n", c->spec,
           c->routing, t1 - t0, t2 - t1, t3 - t2, t3 - t0, (w1 - w0) / 1e3,
           (double)ru.ru_maxrss / 1024.0, rep.deadlock_free ? "deadlock-free" : "cycle",
           rep.avg_hops);
    fl_routing_report_clear(&rep);
    fl_routing_free(r);
    fl_topology_free(t);
    return 0;
}

/* Runs one case in a child process. */
static int fork_case(const struct Case *c)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        int rc = run_case(c);
        fflush(stdout);
        _exit(rc);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return 1;
    return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

int main(int argc, char **argv)
{
    int with_large = argc > 1 && strcmp(argv[1], "large") == 0, failed = 0;
    if (argc > 2 || (argc == 2 && !with_large)) {
        fprintf(stderr, "usage: %s [large]\n", argv[0]);
        return 2;
    }
    printf("%-38s %-12s %6s %6s %6s %6s %6s %8s\n", "network", "routing", "topo", "build",
           "analys", "cpu", "wall", "peak MiB");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        failed |= fork_case(&cases[i]);
    if (with_large)
        failed |= fork_case(&large);
    return failed;
}
