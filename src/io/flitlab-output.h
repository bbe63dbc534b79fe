/* flitlab-output.h — the one way Flitlab writes an output file: topology
 * exports, CSV tables, pictures, animations, plots, in the CLI and the
 * application alike. Plain C, no GLib.
 *
 * What path names decides how it is written:
 *   - a regular file, or nothing yet: atomically. The output goes to a
 *     temporary file ".NAME.XXXXXX.tmp" beside it (same directory, so the
 *     same file system), which is flushed, fsynced and renamed over NAME,
 *     and the directory is fsynced. A failure or an abort leaves the old
 *     file as it was. A replaced file keeps its permission bits; a new one
 *     gets 0666 less the umask, like fopen().
 *   - a symbolic link: the file at the end of its chain of links is written
 *     (atomically when it is a regular file or does not exist yet), and the
 *     link stays a link, as project saves do.
 *   - a FIFO, a character or block device, or a path through /proc or
 *     /dev/fd (/dev/stdout): written through, as the shell's ">" would: no
 *     temporary file, no rename. The reader of a FIFO gets the data; a
 *     device that refuses it (/dev/full) gives an error, and the node stays.
 *   - "-": standard output, written through and flushed, never closed.
 *   - a directory: refused.
 *
 * Temporary files never outlive their writer for good. While one is being
 * written, its writer holds an flock() on it, and its path is in a small
 * registry that fl_output_catch_signals()'s handler empties (unlink()) on
 * SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ. SIGKILL cannot be caught: a
 * later atomic write to the same path removes the temporary files of that
 * exact name pattern (see FL_OUTPUT_STALE_SECONDS) that no process holds
 * locked, that belong to the current user and that have not been modified
 * for a while. A file of anyone else, locked or recently written is left
 * alone.
 */
#ifndef FLITLAB_OUTPUT_H
#define FLITLAB_OUTPUT_H

#include <stdio.h>

#include "flitlab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A temporary file left by a killed writer is removed by a later write only
 * once it has not been modified for this long: a writer holds its lock all
 * along, so this guards only against files of another program that happen to
 * share the name pattern. */
#define FL_OUTPUT_STALE_SECONDS 60

/* fl_output_open() opens path as described above and gives a stream to
 * write to; fl_output_commit() finishes it (flush, fsync and rename, or
 * flush and close) and fl_output_abort() throws an atomic output away (a
 * written-through one keeps what was written). Both close the stream and
 * free o whatever the outcome: do not fclose *fp yourself. Errors name the
 * path (or "standard output"): FL_EINVAL (no name, a name ending in '/'),
 * FL_EIO (a directory, cannot create, write or rename; errno's text), FL_ENOMEM. */
typedef struct FlOutput FlOutput;
int fl_output_open(const char *path, FlOutput **out, FILE **fp, FlError *err);
int fl_output_commit(FlOutput *o, FlError *err);
void fl_output_abort(FlOutput *o);

/* Whether o is written through (FIFO, device, standard output) rather than
 * atomically. */
int fl_output_is_direct(const FlOutput *o);

/* The errno value of the first write to o that failed, 0 while none has:
 * for a message when the writer gives up before fl_output_commit(). */
int fl_output_errno(const FlOutput *o);

/* Installs the handler that removes live temporary files on SIGINT,
 * SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ and then dies of the signal as it
 * would have without it. A signal that is ignored stays ignored. For
 * programs (the CLI); call it once, early. */
void fl_output_catch_signals(void);

/* --- shared with project saves (src/store) ------------------------------ */

/* The file at the end of path's chain of symbolic links (path itself when it
 * is no link or does not exist), malloc'd into *out; a relative link is
 * relative to the directory that holds it. *through_proc (may be NULL) tells
 * whether a link led into /proc (/dev/stdout, /dev/fd/N): such a file is an
 * open file of a process, to be written through. 0, or an errno value:
 * ENOMEM, ELOOP (more than 40 links), or readlink()'s. */
int fl_output_follow_links(const char *path, char **out, int *through_proc);

/* Takes the flock() that marks the new temporary file fd (created at path
 * with O_EXCL) as being written. 1 when fd is ours: locked, or unlockable on
 * a file system without locks (where nobody can clean it either); 0 when a
 * cleaner got it first (take another name). */
int fl_output_lock_temp(int fd, const char *path);

/* Removes the regular file path if no process holds its flock() (its writer
 * died), it belongs to the current user and it was last modified at least
 * min_age seconds ago. Best effort, silent. The caller checks the name. */
void fl_output_remove_if_stale(const char *path, int min_age);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_OUTPUT_H */
