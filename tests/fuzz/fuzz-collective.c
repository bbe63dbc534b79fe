/* fuzz-collective.c — the request files of the collectives: `flitlab
 * schedule --requests FILE`, read by fl_schedule_parse()
 * (src/engine/collective/schedule.c).
 *
 * The input is read against a Myrinet line and a Myrinet mesh. The parser
 * refuses it with a message that names the line, or gives requests between
 * hosts that exist, none sending to itself, which written back as "src dst"
 * lines parse the same; the schedule is built on them and its greedy and
 * paper 004 colourings are valid. Read from a file, the input gives the
 * same, or a refusal naming the line of a NUL byte. `tools/flitlab-dev fuzz
 * collective` runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"

/* The networks, built once: the drivers call the target per input. */
static const char *const specs[] = { "myrinet-line:4", "myrinet-mesh:3x3" };
#define N_NETS ((int)(sizeof specs / sizeof specs[0]))
static FlTopology *nets[N_NETS];

static char *format_requests(const FlScheduleRequest *r, int n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    FUZZ_CHECK(fp != NULL);
    for (int i = 0; i < n; i++)
        fprintf(fp, "%d %d\n", r[i].src, r[i].dst);
    FUZZ_CHECK(fclose(fp) == 0);
    return text;
}

static void check_colouring(const FlSchedule *s, FlScheduleAlgo algo, int n)
{
    int *colors = malloc((size_t)(n > 0 ? n : 1) * sizeof *colors), ncolors = -1;
    FlError err = { 0 };
    FUZZ_CHECK(colors != NULL);
    if (fl_schedule_color(s, algo, colors, &ncolors, &err) != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    FUZZ_CHECK(n == 0 ? ncolors == 0 : ncolors >= 1 && ncolors <= n);
    FUZZ_CHECK(ncolors == 0 || ncolors >= fl_schedule_l_max(s));
    if (fl_schedule_check(s, colors, &err) != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    free(colors);
}

static void check_on(const FlTopology *t, const char *text)
{
    FlScheduleRequest *r = NULL, *again = NULL;
    int n = -1, m = -1;
    FlError err = { 0 };
    int rc = fl_schedule_parse(t, text, &r, &n, &err);
    if (rc != FL_OK) {
        fuzz_check_refusal(rc, &err);
        FUZZ_CHECK(r == NULL && n == -1);
        FUZZ_CHECK(strncmp(err.message, "line ", 5) == 0);
        return;
    }
    int hosts = fl_topology_host_count(t);
    FUZZ_CHECK(n >= 0);
    for (int i = 0; i < n; i++)
        FUZZ_CHECK(r[i].src >= 0 && r[i].src < hosts && r[i].dst >= 0 && r[i].dst < hosts
                   && r[i].src != r[i].dst);
    char *written = format_requests(r, n);
    FUZZ_CHECK(fl_schedule_parse(t, written, &again, &m, &err) == FL_OK && m == n);
    for (int i = 0; i < n; i++)
        FUZZ_CHECK(again[i].src == r[i].src && again[i].dst == r[i].dst);
    FlSchedule *s = NULL;
    if (fl_schedule_new(t, r, n, &s, &err) != FL_OK)
        fuzz_fail(__FILE__, __LINE__, err.message);
    FUZZ_CHECK(fl_schedule_request_count(s) == n);
    check_colouring(s, FL_SCHEDULE_GREEDY, n);
    check_colouring(s, FL_SCHEDULE_ASSIGNCOLOR, n);
    fl_schedule_free(s);
    free(written);
    free(again);
    free(r);
}

/* The file reader gives what the parser gives, and refuses a NUL byte
 * rather than stop reading at it. */
static void check_file(const FlTopology *t, const uint8_t *data, size_t size, const char *text)
{
    const char *path = fuzz_write_file("requests.txt", data, size);
    FlScheduleRequest *r = NULL, *p = NULL;
    int n = -1, m = -1;
    FlError err = { 0 }, perr = { 0 };
    int rc = fl_schedule_read_file(t, path, &r, &n, &err);
    if (memchr(data, '\0', size)) {
        FUZZ_CHECK(rc == FL_EPARSE && r == NULL && strncmp(err.message, "line ", 5) == 0);
        return;
    }
    int prc = fl_schedule_parse(t, text, &p, &m, &perr);
    FUZZ_CHECK(rc == prc && n == m && strcmp(err.message, perr.message) == 0);
    for (int i = 0; i < n; i++)
        FUZZ_CHECK(r[i].src == p[i].src && r[i].dst == p[i].dst);
    free(r);
    free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    for (int i = 0; i < N_NETS; i++) {
        if (!nets[i] && fl_topology_from_spec(specs[i], &nets[i], NULL) != FL_OK)
            fuzz_fail(__FILE__, __LINE__, "cannot build the networks");
        check_on(nets[i], text);
    }
    check_file(nets[0], data, size, text);
    free(text);
    return 0;
}
