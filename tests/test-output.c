/* test-output.c — the output module (flitlab-output.h): regular files
 * replaced atomically, FIFOs and devices written through, symbolic links
 * kept, temporary files removed by the signal handler and, once stale, by a
 * later write, and never a file that is not ours.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "flitlab-output.h"
#include "tap.h"

static char dir[256];

static const char *at(const char *name)
{
    static char paths[4][512];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

/* Reads fd to its end (or size - 1 bytes) into buf, NUL-terminated. */
static void read_all(int fd, char *buf, size_t size)
{
    size_t n = 0;
    ssize_t k;
    while (fd >= 0 && n < size - 1 && (k = read(fd, buf + n, size - 1 - n)) > 0)
        n += (size_t)k;
    buf[n] = '\0';
    if (fd >= 0)
        close(fd);
}

/* The whole of a file as text (in a static buffer), or NULL. */
static char *slurp(const char *path)
{
    static char buf[1 << 16];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    read_all(fd, buf, sizeof buf);
    return buf;
}

/* s on one line, for a TAP description: newlines shown as '|'. */
static const char *one_line(const char *s)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *c = buf; *c; c++)
        if (*c == '\n')
            *c = '|';
    return buf;
}

static void put(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (fp) {
        fputs(text, fp);
        fclose(fp);
    }
}

/* How many entries of dir end in ".tmp"; their names into names. */
static int count_temps(const char *where, char *names, size_t size)
{
    DIR *d = opendir(where);
    int n = 0;
    names[0] = '\0';
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0) {
            n++;
            strncat(names, e->d_name, size - strlen(names) - 2);
            strncat(names, " ", size - strlen(names) - 1);
        }
    }
    if (d)
        closedir(d);
    return n;
}

/* Writes text to path through the module and commits; the status. */
static int write_text(const char *path, const char *text, FlError *err)
{
    FlOutput *o;
    FILE *fp;
    int rc = fl_output_open(path, &o, &fp, err);
    if (rc)
        return rc;
    fputs(text, fp);
    return fl_output_commit(o, err);
}

static void set_age(const char *path, int seconds)
{
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= seconds;
    t[1] = t[0];
    utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW);
}

static void test_regular(void)
{
    FlError err = { 0 };
    char names[1024];
    const char *path = at("plain.txt");
    FlOutput *o;
    FILE *fp;
    int rc = fl_output_open(path, &o, &fp, &err);
    if (!CHECK(rc == FL_OK, "open a new file: %s", rc ? err.message : "ok"))
        return;
    fputs("first\n", fp);
    CHECK(!fl_output_is_direct(o), "a new file is written atomically");
    CHECK(access(path, F_OK) != 0 && count_temps(dir, names, sizeof names) == 1
              && strncmp(names, ".plain.txt.", 11) == 0,
          "while written, only the temporary file exists: [%s]", names);
    rc = fl_output_commit(o, &err);
    const char *got = slurp(path);
    CHECK(rc == FL_OK && got && strcmp(got, "first\n") == 0, "committed: the file is whole");
    CHECK(count_temps(dir, names, sizeof names) == 0, "no temporary file left: [%s]", names);

    chmod(path, 0640);
    rc = fl_output_open(path, &o, &fp, &err);
    if (rc == FL_OK) {
        fputs("half", fp);
        fl_output_abort(o);
    }
    got = slurp(path);
    CHECK(got && strcmp(got, "first\n") == 0 && count_temps(dir, names, sizeof names) == 0,
          "an aborted write leaves the old file and nothing else: [%s]", names);
    rc = write_text(path, "second\n", &err);
    struct stat st = { 0 };
    stat(path, &st);
    got = slurp(path);
    CHECK(rc == FL_OK && got && strcmp(got, "second\n") == 0 && (st.st_mode & 0777) == 0640,
          "a replaced file has the new text and keeps its mode (%o)",
          (unsigned)(st.st_mode & 0777));

    rc = fl_output_open(dir, &o, &fp, &err);
    CHECK(rc == FL_EIO && strstr(err.message, "is a directory"), "a directory is refused: %s",
          err.message);
    rc = fl_output_open(at("sub/"), &o, &fp, &err);
    CHECK(rc == FL_EINVAL && strstr(err.message, "names a directory"),
          "a name ending in / is refused: %s", err.message);
    rc = fl_output_open(at("missing/x.txt"), &o, &fp, &err);
    CHECK(rc == FL_EIO && strstr(err.message, "missing/x.txt")
              && strstr(err.message, "No such file"),
          "a missing directory is named: %s", err.message);
    rc = fl_output_open("", &o, &fp, &err);
    CHECK(rc == FL_EINVAL, "no name is refused: %s", err.message);
}

typedef struct Reader {
    const char *path;
    char got[256];
} Reader;

static void *read_fifo(void *data)
{
    Reader *r = data;
    read_all(open(r->path, O_RDONLY), r->got, sizeof r->got);
    return NULL;
}

static void test_fifo(void)
{
    FlError err = { 0 };
    char names[1024];
    const char *path = at("pipe.csv");
    if (!CHECK(mkfifo(path, 0600) == 0, "mkfifo %s", path))
        return;
    Reader r = { .path = path };
    pthread_t thread;
    pthread_create(&thread, NULL, read_fifo, &r);
    FlOutput *o;
    FILE *fp;
    int rc = fl_output_open(path, &o, &fp, &err);
    if (CHECK(rc == FL_OK, "open a FIFO: %s", rc ? err.message : "ok")) {
        CHECK(fl_output_is_direct(o), "a FIFO is written through");
        fputs("a,b\n1,2\n", fp);
        rc = fl_output_commit(o, &err);
    }
    pthread_join(thread, NULL);
    struct stat st;
    CHECK(rc == FL_OK && strcmp(r.got, "a,b\n1,2\n") == 0, "the FIFO's reader got the text: '%s'",
          one_line(r.got));
    CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO is still a FIFO");
    CHECK(count_temps(dir, names, sizeof names) == 0, "no temporary file: [%s]", names);
}

static void test_devices(void)
{
    FlError err = { 0 };
    struct stat st;
    int rc = write_text("/dev/null", "nothing\n", &err);
    CHECK(rc == FL_OK && stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode),
          "/dev/null is written through and stays a device: %s", rc ? err.message : "ok");
    if (access("/dev/full", W_OK) != 0) {
        CHECK(1, "# SKIP /dev/full is not writable here");
        return;
    }
    FlOutput *o;
    FILE *fp;
    rc = fl_output_open("/dev/full", &o, &fp, &err);
    if (CHECK(rc == FL_OK, "open /dev/full: %s", rc ? err.message : "ok")) {
        for (int i = 0; i < 1000; i++)
            fputs("0123456789abcdef0123456789abcdef\n", fp);
        rc = fl_output_commit(o, &err);
    }
    CHECK(rc == FL_EIO && strstr(err.message, "cannot write /dev/full")
              && strstr(err.message, "No space left"),
          "a full device is an error that says so: %s", err.message);
    CHECK(lstat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode), "/dev/full is still a device");
}

static void test_links(void)
{
    FlError err = { 0 };
    char names[1024];
    struct stat st;
    put(at("real.txt"), "old\n");
    if (!CHECK(symlink("real.txt", at("link.txt")) == 0, "symlink link.txt -> real.txt"))
        return;
    int rc = write_text(at("link.txt"), "new\n", &err);
    const char *got = slurp(at("real.txt"));
    CHECK(rc == FL_OK && got && strcmp(got, "new\n") == 0, "the link's target is written: %s",
          rc ? err.message : "ok");
    CHECK(lstat(at("link.txt"), &st) == 0 && S_ISLNK(st.st_mode), "the link is still a link");
    CHECK(count_temps(dir, names, sizeof names) == 0, "no temporary file: [%s]", names);

    /* A relative link from another directory, to a file not there yet. */
    mkdir(at("sub"), 0700);
    symlink("../made.txt", at("sub/chain.txt"));
    symlink("sub/chain.txt", at("first.txt"));
    rc = write_text(at("first.txt"), "made\n", &err);
    got = slurp(at("made.txt"));
    CHECK(rc == FL_OK && got && strcmp(got, "made\n") == 0,
          "a chain of relative links to a new file creates it: %s", rc ? err.message : "ok");
    CHECK(lstat(at("first.txt"), &st) == 0 && S_ISLNK(st.st_mode)
              && lstat(at("sub/chain.txt"), &st) == 0 && S_ISLNK(st.st_mode),
          "both links are still links");
    CHECK(count_temps(at("sub"), names, sizeof names) == 0,
          "no temporary file in the links' directory: [%s]", names);

    /* A link to a FIFO: written through the link. */
    mkfifo(at("pipe2"), 0600);
    symlink("pipe2", at("pipe-link"));
    Reader r = { .path = at("pipe2") };
    pthread_t thread;
    pthread_create(&thread, NULL, read_fifo, &r);
    rc = write_text(at("pipe-link"), "through\n", &err);
    pthread_join(thread, NULL);
    CHECK(rc == FL_OK && strcmp(r.got, "through\n") == 0 && lstat(at("pipe-link"), &st) == 0
              && S_ISLNK(st.st_mode),
          "a link to a FIFO: the reader got the text, the link stays: '%s'",
          one_line(r.got));

    symlink("loop-b", at("loop-a"));
    symlink("loop-a", at("loop-b"));
    rc = write_text(at("loop-a"), "x", &err);
    CHECK(rc == FL_EIO && strstr(err.message, "loop-a")
              && strstr(err.message, "symbolic links"),
          "a loop of links is refused by name: %s", err.message);

    char *target = NULL;
    int through = 0;
    if (lstat("/dev/stdout", &st) == 0 && S_ISLNK(st.st_mode)) {
        int e = fl_output_follow_links("/dev/stdout", &target, &through);
        CHECK(e == 0 && through, "/dev/stdout leads through /proc (%s)", target ? target : "-");
        free(target);
    }
}

/* Writes to "-" in a child whose standard output is a pipe. */
static void test_stdout(void)
{
    int fds[2];
    if (pipe(fds) != 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        FlError err = { 0 };
        FlOutput *o;
        FILE *fp;
        int ok = fl_output_open("-", &o, &fp, &err) == FL_OK && fp == stdout
                 && fl_output_is_direct(o);
        if (ok) {
            fputs("to stdout\n", fp);
            ok = fl_output_commit(o, &err) == FL_OK;
        }
        fflush(stdout);
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    char buf[64] = { 0 };
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(n > 0 && strcmp(buf, "to stdout\n") == 0 && WIFEXITED(status)
              && WEXITSTATUS(status) == 0,
          "'-' writes standard output: '%s'", one_line(buf));
}

/* A child opens an output to path, writes, tells the parent, and waits to be
 * killed with sig; the child's status. */
static int killed_writer(const char *path, int sig)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        /* As a terminal would give it, even where the test was started with
         * sig ignored (nohup, an '&' job of a script). */
        signal(sig, SIG_DFL);
        fl_output_catch_signals();
        FlOutput *o;
        FILE *fp;
        if (fl_output_open(path, &o, &fp, NULL) != FL_OK)
            _exit(3);
        fputs("partial", fp);
        fflush(fp);
        if (write(fds[1], "r", 1) != 1)
            _exit(4);
        for (;;)
            pause();
    }
    close(fds[1]);
    char c;
    int ready = read(fds[0], &c, 1) == 1;
    close(fds[0]);
    if (ready)
        kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

static void test_signals(void)
{
    char names[1024];
    const char *path = at("killed.json");
    static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
    for (int i = 0; i < 3; i++) {
        int status = killed_writer(path, sigs[i]);
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i]
                  && count_temps(dir, names, sizeof names) == 0 && access(path, F_OK) != 0,
              "a writer killed by signal %d dies of it and leaves nothing: [%s]", sigs[i],
              names);
    }

    /* SIGKILL cannot be caught: the next write cleans up, once stale. */
    int status = killed_writer(path, SIGKILL);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL
              && count_temps(dir, names, sizeof names) == 1,
          "SIGKILL leaves one temporary file: [%s]", names);
    char stale[512];
    snprintf(stale, sizeof stale, "%s/%.*s", dir, (int)strcspn(names, " "), names);
    FlError err = { 0 };
    write_text(path, "1\n", &err);
    CHECK(access(stale, F_OK) == 0, "a fresh one is left alone (it may be another program's)");
    set_age(stale, FL_OUTPUT_STALE_SECONDS + 5);
    int rc = write_text(path, "2\n", &err);
    CHECK(rc == FL_OK && access(stale, F_OK) != 0 && count_temps(dir, names, sizeof names) == 0,
          "a stale one is removed by the next write: [%s]", names);

    /* An ignored signal stays ignored. */
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGHUP, SIG_IGN);
        fl_output_catch_signals();
        raise(SIGHUP);
        _exit(7);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7, "an ignored SIGHUP stays ignored");
}

/* Only files of the exact pattern, unlocked, old and ours are removed. */
static void test_stale_rule(void)
{
    FlError err = { 0 };
    char names[1024];
    static const char *const kept[] = {
        ".out.csv.ABC123.tmp",  /* upper case: not our alphabet */
        ".out.csv.abc12.tmp",   /* five characters */
        ".out.csv.abc1234.tmp", /* seven */
        ".out.csvx.abc123.tmp", /* another target */
        "out.csv.abc123.tmp",   /* no leading dot */
        ".out.csv.abc123.tmpx",
    };
    size_t nkept = sizeof kept / sizeof kept[0];
    for (size_t i = 0; i < nkept; i++) {
        put(at(kept[i]), "not ours\n");
        set_age(at(kept[i]), 3600);
    }
    put(at(".out.csv.zz9zz9.tmp"), "stale\n");
    set_age(at(".out.csv.zz9zz9.tmp"), 3600);
    /* A live writer's file: locked, however old. */
    put(at(".out.csv.live00.tmp"), "being written\n");
    set_age(at(".out.csv.live00.tmp"), 3600);
    int fd = open(at(".out.csv.live00.tmp"), O_RDONLY);
    CHECK(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0, "lock a live writer's file");
    /* A directory of the pattern is not a file to remove. */
    mkdir(at(".out.csv.dir000.tmp"), 0700);
    set_age(at(".out.csv.dir000.tmp"), 3600);

    int rc = write_text(at("out.csv"), "x\n", &err);
    CHECK(rc == FL_OK, "write out.csv: %s", rc ? err.message : "ok");
    CHECK(access(at(".out.csv.zz9zz9.tmp"), F_OK) != 0, "the stale file is removed");
    CHECK(access(at(".out.csv.live00.tmp"), F_OK) == 0, "the locked file is kept");
    CHECK(access(at(".out.csv.dir000.tmp"), F_OK) == 0, "the directory is kept");
    int all = 1;
    for (size_t i = 0; i < nkept; i++)
        all &= access(at(kept[i]), F_OK) == 0;
    CHECK(all, "no file of another name is touched");
    if (fd >= 0)
        close(fd);
    for (size_t i = 0; i < nkept; i++)
        unlink(at(kept[i]));
    unlink(at(".out.csv.live00.tmp"));
    rmdir(at(".out.csv.dir000.tmp"));
    CHECK(count_temps(dir, names, sizeof names) == 0, "clean again: [%s]", names);

    /* A writer's own temporary file survives a concurrent writer's sweep,
     * however old, because it is locked. */
    FlOutput *o;
    FILE *fp;
    rc = fl_output_open(at("out.csv"), &o, &fp, &err);
    if (rc == FL_OK && count_temps(dir, names, sizeof names) == 1) {
        char mine[512];
        snprintf(mine, sizeof mine, "%s/%.*s", dir, (int)strcspn(names, " "), names);
        set_age(mine, 3600);
        int rc2 = write_text(at("out.csv"), "other\n", &err);
        fputs("mine\n", fp);
        rc = fl_output_commit(o, &err);
        const char *got = slurp(at("out.csv"));
        CHECK(rc2 == FL_OK && rc == FL_OK && got && strcmp(got, "mine\n") == 0,
              "a concurrent writer leaves a live temporary file alone: %s",
              rc ? err.message : "ok");
    } else {
        CHECK(0, "open out.csv: %s", err.message);
        if (rc == FL_OK)
            fl_output_abort(o);
    }
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/flitlab-test-output-XXXXXX");
    if (!mkdtemp(dir)) {
        printf("Bail out! cannot create a directory\n");
        return 1;
    }
    test_regular();
    test_fifo();
    test_devices();
    test_links();
    test_stdout();
    test_signals();
    test_stale_rule();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        CHECK(0, "remove %s", dir);
    return tap_done();
}
