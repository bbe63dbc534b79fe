/* flitlab-io.h — topology files: Flitlab JSON, Graphviz DOT, BookSim 2 anynet.
 *
 * Plain C with jansson, no GLib. Every function that can fail returns an
 * FlStatus (FL_OK == 0) and fills the FlError the caller passes (NULL is
 * allowed) with a one-line message that names the problem: the line and
 * column of a JSON syntax error, the field of a semantic one ("links[3]:
 * node 12 does not exist (the file has 10 nodes)"), the line of an anynet
 * error ("line 4: node 2 is attached to router 1 here and to router 0 on
 * line 2"). Functions that take a path put it in front of the message.
 *
 * Formats:
 *   json    Flitlab's own format, read and written; keeps everything (ports,
 *           coordinates, positions, node labels, family, spec, name). The
 *           schema is described at the top of json.c.
 *   dot     Graphviz, written only: for `neato -n -Tsvg` or `dot -Tsvg`.
 *   anynet  BookSim 2's "anynet" network file, read and written; keeps the
 *           switch graph and which hosts hang off which switch, nothing else.
 *           anynet.c says which reading of BookSim's parser is implemented.
 *
 * DOT and anynet number nodes densely, as those formats do: by node id and
 * by rank among switches or hosts, not by label (see flitlab/topology.h).
 * Messages about a network's nodes (a host a format cannot hold, a position
 * out of range) name them by label; messages about a file name its own
 * numbers (nodes[3], links[7], line 12).
 *
 * Readers never crash, hang or leak on any input. Inputs larger than
 * FL_IO_MAX_FILE_BYTES are refused before they are parsed; counts (nodes,
 * links, switches, ports) are checked while the file is read, so memory
 * stays within a small multiple of the text and of the network built, and
 * every refusal names the count and the limit.
 */
#ifndef FLITLAB_IO_H
#define FLITLAB_IO_H

#include <stddef.h>
#include <stdio.h>

#include "flitlab.h"
#include "flitlab-output.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits shared by every reader: those of the generators (FL_SPEC_MAX_* in
 * src/engine/topology/generators.h), so that every network Flitlab makes
 * reads back, and nothing bigger is built. Ports count every port of every
 * node, host ports included; every node has one, and a link takes two. */
#define FL_IO_MAX_SWITCHES (1 << 20)
#define FL_IO_MAX_PORTS (1 << 25)
#define FL_IO_MAX_NODES FL_IO_MAX_PORTS
#define FL_IO_MAX_LINKS (FL_IO_MAX_PORTS / 2)
#define FL_IO_MAX_FILE_BYTES ((size_t)1 << 30)

typedef enum FlFileFormat {
    FL_FORMAT_UNKNOWN = 0,
    FL_FORMAT_JSON,
    FL_FORMAT_DOT,
    FL_FORMAT_ANYNET
} FlFileFormat;

/* "json", "dot" (or "gv"), "anynet", case-insensitive; FL_FORMAT_UNKNOWN
 * for anything else, NULL included. */
FlFileFormat fl_io_format_from_name(const char *name);

/* The canonical name of a format ("json", "dot", "anynet"), or "unknown". */
const char *fl_io_format_name(FlFileFormat format);

/* Guesses a file's format from its extension (.json, .dot/.gv, .anynet),
 * then, for an existing file with another extension, from its first word
 * ('{' for JSON, "router"/"node" for anynet, "graph"/"digraph"/"strict" for
 * DOT). Never fails: FL_FORMAT_UNKNOWN when nothing fits. Reads at most a
 * few hundred bytes. */
FlFileFormat fl_io_guess_format(const char *path);

/* Reads a topology file in *out (the caller frees it). path "-" reads
 * standard input. The format is guessed as fl_io_guess_format() does, the
 * content deciding when the path alone cannot. DOT files cannot be read
 * (FL_EUNSUPPORTED). Errors: FL_EIO (cannot open or read), FL_EPARSE
 * (malformed), FL_EVERSION (written by a newer Flitlab), FL_ERANGE (too big),
 * FL_ENOMEM. O(file size). */
int fl_io_read_file(const char *path, FlTopology **out, FlError *err);

/* Same, in an explicit format; FL_FORMAT_UNKNOWN means guess. */
int fl_io_read_file_as(const char *path, FlFileFormat format, FlTopology **out,
                       FlError *err);

/* Writes t to path through fl_output_open() (flitlab-output.h): a regular
 * file is either fully replaced or left as it was, with no temporary file
 * left behind; "-" (standard output), FIFOs and devices are written through;
 * a symbolic link's target is written. FL_FORMAT_UNKNOWN picks the format
 * from the extension. Errors: FL_EINVAL (unknown format, or a network the
 * format cannot hold, e.g. a non-finite position), FL_EUNSUPPORTED (anynet
 * cannot hold parallel links or unattached hosts), FL_EIO, FL_ENOMEM. */
int fl_io_write_file(const FlTopology *t, FlFileFormat format, const char *path,
                     FlError *err);

/* Writes t to an open stream in the given format. Nothing is written when t
 * cannot be expressed in the format; a stream error is FL_EIO. */
int fl_io_write_stream(const FlTopology *t, FlFileFormat format, FILE *fp,
                       FlError *err);

/* The whole file as a malloc'd NUL-terminated string, or NULL with err set. */
char *fl_io_write_string(const FlTopology *t, FlFileFormat format, FlError *err);

/* --- Flitlab JSON (json.c) ---------------------------------------------- */

/* Parses len bytes of text (no NUL needed). */
int fl_io_read_json_string(const char *text, size_t len, FlTopology **out,
                           FlError *err);
/* Pretty-printed and deterministic: the same topology gives the same bytes.
 * malloc'd, or NULL with err set. */
char *fl_io_write_json_string(const FlTopology *t, FlError *err);
int fl_io_write_json(const FlTopology *t, FILE *fp, FlError *err);

/* --- Graphviz DOT (dot.c) ----------------------------------------------- */

/* An undirected graph: switches as boxes, hosts as small ellipses, pinned
 * positions in points (one layout unit = 72 points, y pointing up as
 * Graphviz wants), port numbers as tail and head labels. */
int fl_io_write_dot(const FlTopology *t, FILE *fp, FlError *err);

/* --- BookSim 2 anynet (anynet.c) ---------------------------------------- */

/* Parses len bytes of an anynet file. Switches get as many ports as they
 * have neighbours and hosts, in order of appearance; hosts get 1 port.
 * Link latencies are checked and dropped (Flitlab links carry none). The
 * switches are laid out on a circle, each host just outside its switch. */
int fl_io_read_anynet_string(const char *text, size_t len, FlTopology **out,
                             FlError *err);
/* Routers are the switches by rank, nodes the hosts by rank; each link is
 * written once, on the line of its lower-ranked router. */
int fl_io_write_anynet(const FlTopology *t, FILE *fp, FlError *err);

/* --- Traffic traces (trace.c) ------------------------------------------ */

/* Reads a trace file: one packet per line, "cycle source destination
 * flits" (whole numbers; host ranks from 0, flits from 1), '#' comments,
 * blank lines skipped, cycles in non-decreasing order. path "-" reads
 * standard input (a pipe reads as a file does). *events is malloc'd (the
 * caller frees it; NULL when the file has no events) and holds *n events in
 * file order. Errors name the file and the line: FL_EIO, FL_EPARSE
 * (malformed, out of order, a NUL byte, a line longer than
 * FL_IO_MAX_TRACE_LINE bytes), FL_ERANGE (a number too large, zero flits,
 * more than FL_IO_MAX_TRACE_EVENTS packets or FL_IO_MAX_FILE_BYTES bytes),
 * FL_ENOMEM ("out of memory reading FILE at line N"). Each event carries
 * its line. Host ranks are checked against the network by fl_traffic_new(),
 * which names the file when its traffic's trace_name is
 * fl_io_trace_name(path). O(file size) time; memory 24 bytes a packet (up
 * to twice that while the array grows). */
#define FL_IO_MAX_TRACE_LINE 4096
#define FL_IO_MAX_TRACE_EVENTS (1 << 24)
int fl_io_read_trace(const char *path, FlTraceEvent **events, int64_t *n, FlError *err);
/* How messages name the trace at path: path, or "standard input" for "-". */
const char *fl_io_trace_name(const char *path);

/* --- end of the traffic traces block --- */

/* --- shared by the io layer's own files; not for callers ---------------- */

/* Formats a finite v as the shortest decimal text that reads back as the
 * same double, with '.' as the separator whatever the locale, and -0 as 0. */
#define FL__IO_NUMBER_MAX 32
void fl__io_format_number(char buf[FL__IO_NUMBER_MAX], double v);
/* FL_EINVAL, naming the node, if its position is not finite or beyond the
 * +-1e9 layout units a file may hold. */
int fl__io_check_position(const FlTopology *t, int node, FlError *err);

#ifdef __cplusplus
}
#endif

#endif /* FLITLAB_IO_H */
