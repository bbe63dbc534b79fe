/* replay-main.c — runs a fuzz target over its corpus, without libFuzzer.
 *
 *   replay-NAME DIR|FILE...
 *
 * Feeds every file of each directory (in name order, hidden files and
 * subdirectories left out), and each file named, to LLVMFuzzerTestOneInput()
 * in a buffer of exactly its size, so that a sanitizer sees any read past
 * the end. Prints TAP, one test point per file; a finding aborts the run
 * after the line naming the file. Plain C: the ordinary build (gcc) and the
 * sanitizer build run the corpora of tests/fuzz/corpus this way.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz-common.h"

/* The whole file in a buffer of its size (1 byte for an empty file). */
static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? 2 * cap : 4096;
            uint8_t *grown = realloc(buf, ncap);
            if (!grown) {
                free(buf);
                fclose(fp);
                return NULL;
            }
            buf = grown;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    int failed = ferror(fp);
    fclose(fp);
    uint8_t *exact = failed ? NULL : malloc(len ? len : 1);
    if (exact && len)
        memcpy(exact, buf, len);
    free(buf);
    *size = len;
    return exact;
}

typedef struct Inputs {
    char **paths;
    int n, cap;
} Inputs;

static int add_input(Inputs *in, const char *dir, const char *name)
{
    if (in->n == in->cap) {
        int ncap = in->cap ? 2 * in->cap : 64;
        char **grown = realloc(in->paths, (size_t)ncap * sizeof *grown);
        if (!grown)
            return -1;
        in->paths = grown;
        in->cap = ncap;
    }
    size_t len = (dir ? strlen(dir) + 1 : 0) + strlen(name) + 1;
    char *path = malloc(len);
    if (!path)
        return -1;
    snprintf(path, len, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
    in->paths[in->n++] = path;
    return 0;
}

/* The regular files of dir, in name order. */
static int add_dir(Inputs *in, const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) {
        printf("Bail out! cannot read %s: %s\n", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (!rc && names[i]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)
            && add_input(in, dir, names[i]->d_name))
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    Inputs in = { 0 };
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            printf("Bail out! %s: %s\n", argv[i], strerror(errno));
            return 1;
        }
        if (S_ISDIR(st.st_mode) ? add_dir(&in, argv[i]) : add_input(&in, NULL, argv[i]))
            return 1;
    }
    if (in.n == 0) {
        printf("Bail out! no input in the corpus\n");
        return 1;
    }
    printf("1..%d\n", in.n);
    int failed = 0;
    for (int i = 0; i < in.n; i++) {
        size_t size = 0;
        /* Named before the run: an abort in the target leaves it last. */
        printf("# %s\n", in.paths[i]);
        fflush(stdout);
        uint8_t *data = read_all(in.paths[i], &size);
        if (!data) {
            printf("not ok %d - %s: cannot read it\n", i + 1, in.paths[i]);
            failed = 1;
        } else {
            LLVMFuzzerTestOneInput(data, size);
            printf("ok %d - %s (%zu bytes)\n", i + 1, in.paths[i], size);
        }
        free(data);
        free(in.paths[i]);
    }
    free(in.paths);
    return failed;
}
