#!/bin/sh
# test-cli.sh — the `flitlab` command end to end, as a user or a script calls
# it: good input gives the right answers, bad input exits non-zero with one
# line on stderr that names the problem and leaves no output file. TAP output.
#
# usage: test-cli.sh path/to/flitlab
set -u
. "$(dirname "$0")/cli-lib.sh"

# --- help on every subcommand -------------------------------------------
for sub in "" "topo" "project" "topo metrics" "topo export" "topo families" \
           "project new" "project add" "project ls" "project rm"; do
  # shellcheck disable=SC2086
  run $sub --help
  [ "$status" -eq 0 ] && grep -q "Usage: flitlab" "$tmp/out"
  ok $? "flitlab $sub --help"
done
run --version
[ "$status" -eq 0 ] && grep -q "^flitlab [0-9]" "$tmp/out"
ok $? "--version"

run topo families
[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -ge 10 ] && grep -q "^xmesh" "$tmp/out"
ok $? "topo families lists the generators"

# --- output that never reaches its file fails the command ----------------
# full: runs the command with its standard output on /dev/full; it must
# exit 1 and say so on stderr (its last line).
full() {
  "$FLITLAB" "$@" >/dev/full 2>"$tmp/err"
  status=$?
  [ "$status" -eq 1 ] && tail -1 "$tmp/err" | grep -q "^flitlab: cannot write standard output: "
  ok $? "flitlab $* > /dev/full: status 1 and a message (status $status: $(tail -1 "$tmp/err"))"
}
if [ -w /dev/full ]; then
  full topo metrics mesh:4x4 --json
  full topo metrics mesh:4x4
  full topo families
  full --version
  full route mesh:4x4 --routing dor --json
  full turns mesh:4x4 --routing dor
  full sim mesh:4x4 --routing dor --measure 100 --json
  full sweep mesh:4x4 --routing dor --rates 0.1:0.2:0.1 --measure 100
  full project ls "$FLITLAB_SOURCE_DIR/data/examples/classroom.flitlab"
fi

# --- metrics -------------------------------------------------------------
run topo metrics xmesh:36x72 --json
[ "$status" -eq 0 ] && [ "$(json "d['diameter']")" = 36 ]
ok $? "xmesh:36x72 has diameter 36 (paper 003 Table 4)"
# Paper 003 Table 4 prints 19.86; breadth-first search over every pair gives
# 19.8842 (the square-XMESH formula of Table 1 matches BFS exactly, so the
# table's rectangular figure is the paper's, not ours: see README).
[ "$(json "round(d['mean_distance'], 4)")" = 19.8842 ]
ok $? "xmesh:36x72 mean distance 19.8842 by BFS (paper 003 Table 4 prints 19.86)"

run topo metrics torus:8x8 --json
[ "$status" -eq 0 ] \
  && [ "$(json "(d['switches'], d['hosts'], d['links'], d['degree_min'], d['degree_max'])")" = "(64, 64, 128, 4, 4)" ]
ok $? "torus:8x8 counts: 64 switches, 64 hosts, 128 links, degree 4"
[ "$(json "(d['diameter'], d['bisection_width'], d['bisection_exact'])")" = "(8, 16, True)" ]
ok $? "torus:8x8 diameter 8 and exact bisection width 16"
[ "$(json "sum(d['distance_histogram']) == 64 * 64 and d['distance_histogram'][1] == 256")" = True ]
ok $? "torus:8x8 distance histogram counts ordered pairs"
[ "$(json "abs(d['throughput_bound'] - 4 * 63 / 8) < 1e-9")" = True ]
ok $? "torus:8x8 throughput bound 4(w^2-1)/w (paper 003 Table 3)"
keys=$(json "','.join(k for k in ['switches','hosts','links','degree_min','degree_max','diameter','mean_distance','distance_histogram','bisection_width','bisection_exact','throughput_bound'] if k not in d)")
[ -z "$keys" ]
ok $? "metrics JSON has every documented key (missing: ${keys:-none})"

run topo metrics "irregular:64,ports=4,hosts=4,seed=3" --json
[ "$status" -eq 0 ] && [ "$(json "(d['switches'], d['hosts'], d['links'], d['degree_min'], d['degree_max'], d['connected'])")" = "(64, 256, 128, 4, 4, True)" ]
ok $? "irregular:64,ports=4,hosts=4 is 4-regular, connected, 256 hosts"
[ "$(json "d['bisection_exact']")" = False ]
ok $? "irregular network's bisection is a METIS bound, not exact"

run topo metrics mesh:4x4
[ "$status" -eq 0 ] && grep -q "^diameter  *6$" "$tmp/out" && grep -q "bisection width  *4 (exact" "$tmp/out"
ok $? "human-readable table for mesh:4x4"

# --- export and files ------------------------------------------------------
for fmt in json dot anynet; do
  run topo export torus:4x4 --format $fmt -o "$tmp/t.$fmt"
  [ "$status" -eq 0 ] && [ -s "$tmp/t.$fmt" ]
  ok $? "export torus:4x4 as $fmt"
done
run topo metrics torus:4x4 --json; cp "$tmp/out" "$tmp/spec.json"
run topo metrics "$tmp/t.json" --json
[ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/spec.json"
ok $? "metrics of the exported JSON equal the spec's"
run topo metrics "$tmp/t.anynet" --json
[ "$status" -eq 0 ] && [ "$(json "(d['switches'], d['links'], d['diameter'], d['bisection_width'])")" = "(16, 32, 4, 8)" ]
ok $? "metrics of the exported anynet file match torus:4x4"
# Graphviz itself is the second opinion on the DOT file: it must parse it and
# keep our positions (neato -n), with one node per switch and host.
neato -n -Tplain "$tmp/t.dot" >"$tmp/t.plain" 2>"$tmp/t.gv-err"
[ $? -eq 0 ] && [ ! -s "$tmp/t.gv-err" ] && [ "$(grep -c '^node' "$tmp/t.plain")" = 32 ] \
  && [ "$(grep -c '^edge' "$tmp/t.plain")" = 48 ]
ok $? "Graphviz reads the DOT export: 32 nodes, 48 edges, no warnings"
run topo export mesh:3x3 -o "$tmp/m.json"
[ "$status" -eq 0 ] && grep -q '"flitlab-topology"' "$tmp/m.json"
ok $? "export takes the format from the extension"

# --- projects -------------------------------------------------------------
P=$tmp/p.flitlab
run project new "$P"
ok $status "project new"
run project add "$P" torus:8x8
ok $status "project add torus:8x8"
run project add "$P" "$tmp/t.anynet" --name booksim
ok $status "project add an anynet file with --name"
run project ls "$P" --json
[ "$status" -eq 0 ] && [ "$(json "[(t['name'], t['switches'], t['links']) for t in d]")" = "[('torus:8x8', 64, 128), ('booksim', 16, 32)]" ]
ok $? "project ls --json lists both, in order"
run project ls "$P"
[ "$status" -eq 0 ] && grep -q "^booksim" "$tmp/out"
ok $? "project ls table"
run topo metrics "$P#torus:8x8" --json
[ "$status" -eq 0 ] && [ "$(json "d['diameter']")" = 8 ]
ok $? "metrics of PROJECT.flitlab#NAME"
run project rm "$P" booksim
run project ls "$P" --json
[ "$(json "len(d)")" = 1 ]
ok $? "project rm"

# --- the bundled example project (the README's first command opens it) ------
EX=${FLITLAB_SOURCE_DIR:-.}/data/examples/classroom.flitlab
run project ls "$EX" --json
[ "$status" -eq 0 ] && [ "$(json "len(d)")" = 10 ]
ok $? "the bundled example project opens and holds 10 networks"
names=$(json "'\\n'.join(t['name'] for t in d)")
all=0
echo "$names" | while IFS= read -r name; do
  "$FLITLAB" topo metrics "$EX#$name" --json >/dev/null 2>&1 || exit 1
done || all=1
ok $all "every network of the example project loads and measures"

# --- bad input --------------------------------------------------------------
expect_fail "unknown command" "unknown command" frobnicate
expect_fail "unknown subcommand" "unknown command" topo frobnicate
expect_fail "unknown option" "unknown option" topo metrics torus:4x4 --frob
expect_fail "an option given twice" "option --rate is given twice" \
  sim mesh:4x4 --routing dor --rate 0.1 --rate=0.2
expect_fail "a flag given twice" "option --json is given twice" topo metrics torus:4x4 --json --json
expect_fail "missing argument" "missing argument" topo metrics
expect_fail "extra argument" "unexpected argument" topo metrics torus:4x4 mesh:2x2
expect_fail "unknown family" "unknown family" topo metrics meshh:4x4
expect_fail "odd xmesh" "even" topo metrics xmesh:35x72
expect_fail "zero dimension" "zero" topo metrics mesh:0x4
expect_fail "impossible degree" "irregular" topo metrics "irregular:5,ports=6"
expect_fail "missing file" "neither" topo metrics no-such-file.json
printf '{"format": "flitlab-topology", "version": 1, "nodes": [' >"$tmp/bad.json"
expect_fail "truncated JSON file" "line" topo metrics "$tmp/bad.json"
printf 'router 0 router 1\nrouter 1 router x\n' >"$tmp/bad.anynet"
expect_fail "malformed anynet file" "line 2" topo metrics "$tmp/bad.anynet"
expect_fail "a project without #NAME" "#NAME" topo metrics "$P"
expect_fail "a missing topology in a project" "missing" topo metrics "$P#missing"
expect_fail "a bad --exact-max" "exact-max" topo metrics torus:4x4 --exact-max lots

expect_fail "export without -o" "-o OUT" topo export torus:4x4 --format json
expect_fail "export to an unknown format" "unknown format" topo export torus:4x4 --format xls -o "$tmp/x.xls"
[ ! -e "$tmp/x.xls" ]
ok $? "no output file for an unknown format"
expect_fail "export into a missing directory" "" topo export torus:4x4 -o "$tmp/nodir/t.json"
[ ! -e "$tmp/nodir" ]
ok $? "nothing created for a missing directory"
expect_fail "export of a bad spec" "even" topo export xmesh:5x5 -o "$tmp/bad-out.json"
[ ! -e "$tmp/bad-out.json" ]
ok $? "no output file when the spec is bad"
cp "$tmp/t.json" "$tmp/keep.json"
expect_fail "export of a bad spec over an existing file" "even" topo export xmesh:5x5 -o "$tmp/keep.json"
cmp -s "$tmp/t.json" "$tmp/keep.json"
ok $? "an existing output file is left intact on failure"

expect_fail "project new over an existing file" "already exists" project new "$P"
expect_fail "project add to a missing project" "" project add "$tmp/none.flitlab" torus:4x4
[ ! -e "$tmp/none.flitlab" ]
ok $? "project add does not create a missing project"
echo "not a database at all, just some text that is long enough" >"$tmp/text.flitlab"
expect_fail "project ls on a text file" "not a Flitlab project" project ls "$tmp/text.flitlab"
expect_fail "project add of a duplicate name" "exists" project add "$P" torus:8x8
run project add "$P" torus:8x8 --replace
ok $status "project add --replace"
expect_fail "project add with a bad spec" "even" project add "$P" xmesh:3x4
expect_fail "project rm of a missing name" "missing" project rm "$P" missing

tap_end
