/* fuzz-common.c — checks and scratch files shared by the fuzz targets. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flitlab-io.h"
#include "fuzz-common.h"

void fuzz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "fuzz finding: %s:%d: %s\n", file, line, what);
    abort();
}

void fuzz_check_refusal(int rc, const FlError *err)
{
    FUZZ_CHECK(rc != FL_OK);
    FUZZ_CHECK(rc > 0 && rc < FL_STATUS_COUNT);
    FUZZ_CHECK(err->message[0] != '\0');
    FUZZ_CHECK(strchr(err->message, '\n') == NULL);
}

void fuzz_check_topology_reader(const uint8_t *data, size_t size, FuzzTopologyReader read,
                                int format)
{
    FlTopology *t = NULL, *u = NULL;
    FlError err = { 0 };
    int rc = read((const char *)data, size, &t, &err);
    if (rc != FL_OK) {
        fuzz_check_refusal(rc, &err);
        FUZZ_CHECK(t == NULL);
        return;
    }
    FUZZ_CHECK(t != NULL);
    char *a = fl_io_write_string(t, (FlFileFormat)format, &err);
    /* A network the format can read but not write would be a finding too. */
    FUZZ_CHECK(a != NULL);
    FUZZ_CHECK(read(a, strlen(a), &u, &err) == FL_OK);
    char *b = fl_io_write_string(u, (FlFileFormat)format, &err);
    FUZZ_CHECK(b != NULL);
    FUZZ_CHECK(strcmp(a, b) == 0);
    FUZZ_CHECK(fl_topology_node_count(t) == fl_topology_node_count(u));
    FUZZ_CHECK(fl_topology_link_count(t) == fl_topology_link_count(u));
    free(a);
    free(b);
    fl_topology_free(u);
    fl_topology_free(t);
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        fuzz_fail(__FILE__, __LINE__, "out of memory copying the input");
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* The scratch directory's path: a process-wide state, as the drivers call
 * LLVMFuzzerTestOneInput() once per input with nothing else to keep it in. */
static char scratch[256];
static char scratch_file[512];

static void remove_scratch(void)
{
    fuzz_clear_scratch();
    rmdir(scratch);
}

const char *fuzz_scratch_dir(void)
{
    if (scratch[0])
        return scratch;
    /* In memory when the system has a tmpfs there: a file written per input
     * should cost no disk writes. */
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(scratch, sizeof scratch, "%s/flitlab-fuzz-XXXXXX", tmp);
    if (!mkdtemp(scratch))
        fuzz_fail(__FILE__, __LINE__, "cannot create a scratch directory");
    atexit(remove_scratch);
    return scratch;
}

const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size)
{
    snprintf(scratch_file, sizeof scratch_file, "%s/%s", fuzz_scratch_dir(), name);
    /* A new file each time: replacing a file's contents by truncating it
     * makes some file systems (ext4) flush it to disk on close. */
    unlink(scratch_file);
    int fd = open(scratch_file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        fuzz_fail(__FILE__, __LINE__, "cannot create a scratch file");
    for (size_t done = 0; done < size;) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0)
            fuzz_fail(__FILE__, __LINE__, "cannot write a scratch file");
        done += (size_t)n;
    }
    close(fd);
    return scratch_file;
}

void fuzz_clear_scratch(void)
{
    if (!scratch[0])
        return;
    DIR *d = opendir(scratch);
    if (!d)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", scratch, e->d_name);
        unlink(path);
    }
    closedir(d);
}
