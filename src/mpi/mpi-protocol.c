/* mpi-protocol.c — the messages of flitlab-mpi (mpi-protocol.h): strings
 * broadcast, results and ends of curves packed into bytes. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi-protocol.h"

int mpi_bcast_string(char **s, int rank)
{
    long long len = rank == 0 && *s ? (long long)strlen(*s) : 0;
    MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank != 0 && !(*s = malloc((size_t)len + 1)))
        return -1;
    if (len > 0)
        MPI_Bcast(*s, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank != 0)
        (*s)[len] = '\0';
    return 0;
}

/* A growing buffer of bytes. */
typedef struct Bytes {
    unsigned char *data;
    size_t len, cap;
    int failed;
} Bytes;

static void put(Bytes *b, const void *p, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n > b->cap) {
        size_t cap = 2 * b->cap + n + 64;
        unsigned char *grown = realloc(b->data, cap);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put_text(Bytes *b, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : 0;
    put(b, &n, sizeof n);
    put(b, s, n);
}

static int done(Bytes *b, unsigned char **buf, int *len)
{
    if (b->failed || b->len > INT32_MAX) {
        free(b->data);
        return -1;
    }
    *buf = b->data;
    *len = (int)b->len;
    return 0;
}

/* Reading bytes back; a short buffer sets failed. */
typedef struct Reader {
    const unsigned char *data;
    size_t len, at;
    int failed;
} Reader;

static void get(Reader *r, void *p, size_t n)
{
    if (r->failed || r->len - r->at < n) {
        r->failed = 1;
        memset(p, 0, n);
        return;
    }
    memcpy(p, r->data + r->at, n);
    r->at += n;
}

/* A string of the buffer into out (of size bytes, cut short to fit). */
static void get_text(Reader *r, char *out, size_t size)
{
    uint32_t n = 0;
    get(r, &n, sizeof n);
    if (r->failed || r->len - r->at < n) {
        r->failed = 1;
        out[0] = '\0';
        return;
    }
    size_t keep = n < size ? n : size - 1;
    memcpy(out, r->data + r->at, keep);
    out[keep] = '\0';
    r->at += n;
}

int mpi_pack_result(const FlExperimentResult *r, unsigned char **buf, int *len)
{
    Bytes b = { 0 };
    int32_t status = (int32_t)r->status, n = r->nscalars;
    put(&b, &r->idx, sizeof r->idx);
    put(&b, &status, sizeof status);
    put(&b, &r->seed, sizeof r->seed);
    put(&b, &r->wall_s, sizeof r->wall_s);
    put_text(&b, r->error);
    put(&b, &n, sizeof n);
    for (int i = 0; i < r->nscalars; i++) {
        put_text(&b, r->scalar_names[i]);
        put(&b, &r->scalar_values[i], sizeof r->scalar_values[i]);
    }
    int32_t nv = r->nvectors;
    put(&b, &nv, sizeof nv);
    for (int i = 0; i < r->nvectors; i++) {
        int32_t length = r->vector_lengths[i];
        put_text(&b, r->vector_names[i]);
        put(&b, &length, sizeof length);
        put(&b, &r->vector_steps[i], sizeof r->vector_steps[i]);
        /* The data starts on a multiple of 8 bytes, so that the receiver
         * reads it where it lies. */
        static const unsigned char zeros[8];
        put(&b, zeros, (8 - b.len % 8) % 8);
        put(&b, r->vector_data[i], sizeof(double) * (size_t)length);
    }
    return done(&b, buf, len);
}

int mpi_unpack_result(const unsigned char *buf, int len, FlExperimentResult *r, char *error,
                      size_t size)
{
    Reader in = { buf, (size_t)len, 0, 0 };
    int32_t status = 0, n = 0;
    memset(r, 0, sizeof *r);
    get(&in, &r->idx, sizeof r->idx);
    get(&in, &status, sizeof status);
    get(&in, &r->seed, sizeof r->seed);
    get(&in, &r->wall_s, sizeof r->wall_s);
    get_text(&in, error, size);
    get(&in, &n, sizeof n);
    if (in.failed || status < FL_RUN_DONE || status > FL_RUN_STOPPED || n < 0
        || n > FL_EXPERIMENT_MAX_SCALARS)
        return -1;
    r->status = (FlRunStatus)status;
    r->error = status == FL_RUN_FAILED ? error : NULL;
    for (int i = 0; i < n; i++) {
        char name[128];
        get_text(&in, name, sizeof name);
        int key = fl_sim_result_key_find(name);
        if (in.failed || key < 0)
            return -1;
        r->scalar_names[i] = fl_sim_result_key(key)->name;
        get(&in, &r->scalar_values[i], sizeof r->scalar_values[i]);
    }
    r->nscalars = n;
    int32_t nv = 0;
    get(&in, &nv, sizeof nv);
    if (in.failed || nv < 0 || nv > FL_EXPERIMENT_MAX_VECTORS)
        return -1;
    for (int i = 0; i < nv; i++) {
        char name[128];
        int32_t length = 0;
        get_text(&in, name, sizeof name);
        get(&in, &length, sizeof length);
        get(&in, &r->vector_steps[i], sizeof r->vector_steps[i]);
        in.at += (8 - in.at % 8) % 8;
        int which = fl_experiment_vector_find(name);
        size_t bytes = sizeof(double) * (size_t)(length > 0 ? length : 0);
        if (in.failed || which < 0 || length < 0 || in.at > in.len || in.len - in.at < bytes
            || (uintptr_t)(buf + in.at) % _Alignof(double) != 0)
            return -1;
        r->vector_names[i] = fl_experiment_vector_info(which)->name;
        r->vector_data[i] = (const double *)(const void *)(buf + in.at);
        r->vector_lengths[i] = length;
        in.at += bytes;
    }
    r->nvectors = nv;
    return in.failed || in.at != in.len ? -1 : 0;
}

int mpi_pack_end(const FlError *err, unsigned char **buf, int *len)
{
    Bytes b = { 0 };
    int32_t code = err->code;
    put(&b, &code, sizeof code);
    put_text(&b, err->message);
    return done(&b, buf, len);
}

int mpi_unpack_end(const unsigned char *buf, int len, FlError *err)
{
    Reader in = { buf, (size_t)len, 0, 0 };
    int32_t code = 0;
    get(&in, &code, sizeof code);
    get_text(&in, err->message, sizeof err->message);
    err->code = code;
    return in.failed ? -1 : 0;
}
