/* mpi-protocol.h — what flitlab-mpi's ranks send one another: the
 * experiment (broadcast by rank 0), curves of runs (rank 0 to a worker),
 * each finished run (a worker to rank 0) and the end of a curve.
 *
 * Results travel as bytes in the machine's own byte order: the ranks of
 * one run are assumed to share an architecture, as they share a binary. */
#ifndef FLITLAB_MPI_PROTOCOL_H
#define FLITLAB_MPI_PROTOCOL_H

#include <stddef.h>

#include "flitlab-experiment.h"

enum {
    MPI_TAG_WORK = 1,     /* rank 0 -> worker: int64 run numbers; none: stop */
    MPI_TAG_RESULT,       /* worker -> rank 0: a packed FlExperimentResult */
    MPI_TAG_END           /* worker -> rank 0: a curve ended; a packed status */
};

/* Broadcasts the string *s from rank 0 (a NULL one as ""); on the other
 * ranks *s becomes a malloc'd copy. Returns 0, or -1 when out of memory. */
int mpi_bcast_string(char **s, int rank);

/* A result as bytes (malloc'd into *buf, *len of them); -1 when out of
 * memory. */
int mpi_pack_result(const FlExperimentResult *r, unsigned char **buf, int *len);
/* Reads it back into r: its names point to the engine's and the vectors'
 * tables, its error into error (of size bytes), its vectors' data into
 * buf (which must be aligned for doubles, as malloc() gives it, and
 * outlive r). -1 for bytes that do not hold a result. */
int mpi_unpack_result(const unsigned char *buf, int len, FlExperimentResult *r, char *error,
                      size_t size);

/* The end of a curve: the worker's status and error message. */
int mpi_pack_end(const FlError *err, unsigned char **buf, int *len);
int mpi_unpack_end(const unsigned char *buf, int len, FlError *err);

#endif /* FLITLAB_MPI_PROTOCOL_H */
