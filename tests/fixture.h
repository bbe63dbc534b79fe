/* fixture.h — what the topology, store and drawing tests share: a network
 * from its spec (or a bail-out, since every later check would fail for that
 * reason), and a temporary directory for the files a test writes. */
#ifndef FLITLAB_FIXTURE_H
#define FLITLAB_FIXTURE_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flitlab.h"

/* A network from the generators; without them there is nothing to test. */
static inline FlTopology *from_spec(const char *spec)
{
    FlTopology *t = NULL;
    FlError err;
    if (fl_topology_from_spec(spec, &t, &err) != FL_OK) {
        printf("Bail out! cannot generate %s: %s\n", spec, err.message);
        exit(99);
    }
    return t;
}

static char test_dir[64];

/* Makes test_dir, named prefix-XXXXXX in $TMPDIR (if short enough) or /tmp;
 * 0 when it cannot. */
static inline int test_dir_make(const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(test_dir, sizeof test_dir, "%s/%s-XXXXXX", tmp && strlen(tmp) < 32 ? tmp : "/tmp",
             prefix);
    if (!mkdtemp(test_dir)) {
        perror("mkdtemp");
        return 0;
    }
    return 1;
}

/* The path of name inside test_dir, in buf. */
static inline const char *in_dir(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", test_dir, name);
    return buf;
}

#define IN_DIR(buf, name) in_dir(buf, sizeof buf, name)

/* Removes test_dir and what the tests left in it. */
static inline void test_dir_remove(void)
{
    DIR *d = opendir(test_dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlink(in_dir(path, sizeof path, e->d_name));
    if (d)
        closedir(d);
    rmdir(test_dir);
}

#endif /* FLITLAB_FIXTURE_H */
