#!/bin/sh
# test-cli-route.sh — `flitlab route` and `flitlab turns` end to end: the
# analysis report (table and JSON), paths between two switches, prohibited
# turns, every routing option, pictures (--picture), and bad input, which must
# exit non-zero with one line on stderr that names the problem. TAP output.
#
# usage: test-cli-route.sh path/to/flitlab
set -u
. "$(dirname "$0")/cli-lib.sh"

# --- help -------------------------------------------------------------------
for sub in route turns; do
  run $sub --help
  [ "$status" -eq 0 ] && grep -q "^Usage: flitlab $sub" "$tmp/out" \
    && grep -q "^  updown " "$tmp/out" && grep -q "^  lturn-alpha " "$tmp/out"
  ok $? "flitlab $sub --help shows the usage and lists the routings"
done
run --help
[ "$status" -eq 0 ] && grep -q "^  route " "$tmp/out" && grep -q "^  turns " "$tmp/out"
ok $? "flitlab --help lists route and turns"

# --- the report: JSON keys and the cycle cases -------------------------------
run route ring:8 --routing shortest --json
missing=$(json "','.join(k for k in ['connected','deadlock_free','cycle','cycle_detail','cycle_turns','avg_hops','max_hops','bfs_avg_hops','stretch','pt_mean','pt_sd','ppt','max_channel_load','mean_channel_load','throughput_bound','unroutable','root','vc_classes'] if k not in d)")
[ "$status" -eq 0 ] && [ -z "$missing" ]
ok $? "route --json has every documented key (missing: ${missing:-none})"
[ "$(json "(d['connected'], d['deadlock_free'], len(d['cycle']))")" = "(True, False, 8)" ]
ok $? "shortest on ring:8: connected, a CDG cycle of 8 channels"
[ "$(json "all(d['cycle_detail'][i]['to'] == d['cycle_detail'][(i + 1) % 8]['from'] for i in range(8)) and [x['channel'] for x in d['cycle_detail']] == d['cycle']")" = True ]
ok $? "cycle_detail: each channel ends where the next one starts"
[ "$(json "[t['switch'] for t in d['cycle_turns']] == [x['to'] for x in d['cycle_detail']]")" = True ]
ok $? "cycle_turns: one turn at each switch of the cycle"
[ "$(json "(d['avg_hops'] == d['bfs_avg_hops'], d['max_hops'], d['max_channel_load'], d['throughput_bound'])")" = "(True, 4, 10.0, 0.7)" ]
ok $? "shortest on ring:8: minimal hops, max channel load 10, bound 7/10"

run route ring:8 --routing shortest
[ "$status" -eq 0 ] && grep -q "^deadlock-free  *no: .* cycle of 8 channels" "$tmp/out" \
  && grep -q "^The cycle closes through the turns .*1:1>0" "$tmp/out"
ok $? "the table names the turns that close the cycle"

run route torus:8x8 --routing dor --json
[ "$status" -eq 0 ] && [ "$(json "(d['vc_classes'], d['deadlock_free'], d['cycle'])")" = "(2, True, [])" ]
ok $? "dor on torus:8x8 with its dateline: no cycle"
run route torus:8x8 --routing dor --vcs 1 --json
[ "$status" -eq 0 ] && [ "$(json "(d['vc_classes'], d['deadlock_free'], len(d['cycle']))")" = "(1, False, 8)" ]
ok $? "dor on torus:8x8 with --vcs 1: a cycle of 8 channels"
run route torus:8x8 --routing dor
[ "$status" -eq 0 ] && grep -q "^deadlock-free  *yes" "$tmp/out" && grep -q "^VC classes  *2" "$tmp/out" \
  && ! grep -q "closes through" "$tmp/out"
ok $? "dor on torus:8x8: the table says deadlock-free"

run route torus:8x8 --routing updown --json
[ "$status" -eq 0 ] && [ "$(json "(d['pt_mean'], round(d['pt_sd'], 3), d['ppt'], d['prohibited_turns'], d['root'] is not None)")" = "(2.5, 2.264, 80, 160, True)" ]
ok $? "updown on torus:8x8: PT 2.500, SDPT 2.264, PPT 80 (paper 002 Table 3)"
run route torus:8x8 --routing updown --root 5 --json
[ "$status" -eq 0 ] && [ "$(json "(d['root'], d['deadlock_free'], d['ppt'])")" = "(5, True, 80)" ]
ok $? "--root 5 roots up*/down* at switch 5"

# --- files and projects ------------------------------------------------------
run topo export mesh:4x4 -o "$tmp/m.json"
run route "$tmp/m.json" --routing updown --json
[ "$status" -eq 0 ] && [ "$(json "(d['switches'], d['connected'], d['deadlock_free'])")" = "(16, True, True)" ]
ok $? "route on a topology file"
run project new "$tmp/p.flitlab"
run project add "$tmp/p.flitlab" torus:4x4
run route "$tmp/p.flitlab#torus:4x4" --routing dor --vcs 1 --json
[ "$status" -eq 0 ] && [ "$(json "(d['deadlock_free'], len(d['cycle']))")" = "(False, 4)" ]
ok $? "route on PROJECT.flitlab#NAME (a torus file keeps its family, so dor works)"

# --- options ----------------------------------------------------------------
run route mesh:4x4 --routing dor --from 0 --to 5 --json
[ "$status" -eq 0 ] && [ "$(json "d['switches']")" = "[0, 1, 5]" ]
ok $? "dor goes x first by default: 0 1 5"
run route mesh:4x4 --routing dor --order yx --from 0 --to 5 --json
[ "$status" -eq 0 ] && [ "$(json "d['switches']")" = "[0, 4, 5]" ]
ok $? "--order yx goes y first: 0 4 5"
run route line:5 --routing turnset --prohibit "2:0>1, 2:1>0" --json
[ "$status" -eq 0 ] && [ "$(json "(d['connected'], d['unroutable'], d['pt_mean'], d['ppt'])")" = "(False, [0, 3], 0.4, 1)" ]
ok $? "--prohibit cutting line:5 at switch 2: not connected, first pair 0 -> 3"
run route line:5 --routing turnset --prohibit "2:0>1,2:1>0"
[ "$status" -eq 0 ] && grep -q "^connected  *no: switch 0 cannot reach switch 3" "$tmp/out"
ok $? "the table says which pair is unroutable"
run route mesh:3x3 --routing turnset --json
[ "$status" -eq 0 ] && [ "$(json "(d['deadlock_free'], d['ppt'])")" = "(False, 0)" ]
ok $? "turnset without --prohibit prohibits nothing"

# --- paths ------------------------------------------------------------------
run route mesh:4x4 --routing dor --from 0 --to 15
[ "$status" -eq 0 ] && grep -q "6 hops" "$tmp/out" \
  && grep -q "^switches: 0 -p0-> 1 -p0-> 2 -p0-> 3 -p2-> 7 -p2-> 11 -p2-> 15$" "$tmp/out"
ok $? "route --from 0 --to 15: the path with its ports"
run route mesh:4x4 --routing dor --from 0 --to 15 --json
[ "$status" -eq 0 ] && [ "$(json "(d['hops'], d['switches'], [h['port'] for h in d['path']])")" = "(6, [0, 1, 2, 3, 7, 11, 15], [0, 0, 0, 2, 2, 2])" ]
ok $? "path JSON: hops, switches and ports"
run route mesh:4x4 --routing shortest --from 0 --to 15 --all --json
[ "$status" -eq 0 ] && [ "$(json "(d['count'], d['truncated'], sum(p['selected'] for p in d['paths']), set(p['hops'] for p in d['paths']))")" = "(20, False, 1, {6})" ]
ok $? "--all: the 20 shortest paths 0 -> 15, one of them the selected one"
run route mesh:4x4 --routing shortest --from 0 --to 15 --all --max-paths 5
[ "$status" -eq 0 ] && [ "$(grep -c ' 6 hops ' "$tmp/out")" = 5 ] && grep -q "there are more" "$tmp/out"
ok $? "--all --max-paths 5 lists 5 and says there are more"
run route mesh:4x4 --routing shortest --from 0 --to 15 --all --max-paths 5 --json
[ "$status" -eq 0 ] && [ "$(json "(d['count'], d['truncated'])")" = "(5, True)" ]
ok $? "--all --max-paths 5 --json: truncated"
run route mesh:4x4 --routing west-first --from 12 --to 3 --all --json
[ "$status" -eq 0 ] && [ "$(json "d['count']")" -ge 1 ]
ok $? "--all works for an adaptive routing"
run route mesh:4x4 --routing dor --from 6 --to 6 --json
[ "$status" -eq 0 ] && [ "$(json "(d['hops'], d['switches'])")" = "(0, [6])" ]
ok $? "a path from a switch to itself has no hops"
run route line:5 --routing turnset --prohibit "2:0>1,2:1>0" --from 0 --to 4
[ "$status" -ne 0 ] && grep -q "^flitlab: .*no route from switch 0 to switch 4" "$tmp/err"
ok $? "a path across a cut: an error naming the pair"

# --- turns ------------------------------------------------------------------
run turns mesh:3x3 --routing updown
[ "$status" -eq 0 ] && [ "$(grep -c '^switch ' "$tmp/out")" = 9 ] \
  && grep -q "^switch    4: 1>3 3>1$" "$tmp/out" && grep -q "^8 prohibited turns; PT 0.889" "$tmp/out"
ok $? "turns: one line per switch, IN>OUT pairs, the totals"
run turns torus:8x8 --routing updown --json
[ "$status" -eq 0 ] && [ "$(json "(d['total'], len(d['turns']), len(d['per_switch']), sum(s['count'] for s in d['per_switch']), d['pt_mean'], d['ppt'], d['deadlock_free'])")" = "(160, 160, 64, 160, 2.5, 80, True)" ]
ok $? "turns --json: 160 turns, per-switch counts, PT and PPT"
run turns mesh:4x4 --routing west-first --json
[ "$status" -eq 0 ] && [ "$(json "all(t['in_port'] >= 2 and t['out_port'] == 1 for t in d['turns']) and d['total'] == 18")" = True ]
ok $? "turns of west-first, derived from its routing function: north or south to west"
run turns line:5 --routing turnset --prohibit "2:0>1" --json
[ "$status" -eq 0 ] && [ "$(json "d['turns']")" = "[{'switch': 2, 'in_port': 0, 'out_port': 1}]" ]
ok $? "turns of a turnset are the ones given"

# --- pictures (only in a flitlab built with cairo) ---------------------------
png_signature() {
  [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
}
run turns --help
if grep -q -- "--picture FILE" "$tmp/out"; then
  run turns torus:4x4 --routing updown --picture "$tmp/turns.png"
  [ "$status" -eq 0 ] && png_signature "$tmp/turns.png" && grep -q "^switch    0:" "$tmp/out"
  ok $? "turns --picture writes a PNG and still prints the turns"
  run turns torus:4x4 --routing updown --json --picture "$tmp/turns.svg"
  [ "$status" -eq 0 ] && grep -q "<svg" "$tmp/turns.svg" && [ "$(json "d['total']")" -gt 0 ]
  ok $? "turns --picture FILE.svg writes an SVG beside the JSON"
  run route ring:8 --routing shortest --picture "$tmp/cycle.PDF"
  [ "$status" -eq 0 ] && [ "$(head -c 5 "$tmp/cycle.PDF")" = "%PDF-" ] \
    && grep -q "^deadlock-free  *no" "$tmp/out"
  ok $? "route --picture draws the cycle to a PDF (the extension in any case)"
  run route mesh:4x4 --routing shortest --from 0 --to 15 --all --picture "$tmp/paths.png"
  [ "$status" -eq 0 ] && png_signature "$tmp/paths.png" && grep -q "^20 paths" "$tmp/out"
  ok $? "route --from --to --all --picture draws the paths"
  png_size() {
    python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); print('%dx%d' % struct.unpack('>II', d[16:24]))" "$1"
  }
  run turns torus:8x8 --routing dor --picture "$tmp/page.png" --width 800 --height 640 --dpi 192 \
    --title "DOR on a torus"
  [ "$status" -eq 0 ] && [ "$(png_size "$tmp/page.png")" = 800x640 ]
  ok $? "turns --picture --width --height --dpi --title draws a page of that size"
  run topo export torus:4x4 -o "$tmp/topo.png" --width 300 --height 200 --title T
  [ "$status" -eq 0 ] && [ "$(png_size "$tmp/topo.png")" = 300x200 ]
  ok $? "topo export --title draws a titled picture of the size asked"
  expect_fail "a --dpi out of range" "--dpi needs a whole number from 24 to 2400" \
    turns mesh:4x4 --routing dor --picture "$tmp/dpi.png" --dpi 5

  expect_fail "a --picture with an unknown extension" "--picture: unknown image format 'bmp'" \
    turns mesh:4x4 --routing dor --picture "$tmp/turns.bmp"
  [ ! -e "$tmp/turns.bmp" ]
  ok $? "nothing is written for an unknown extension"
  expect_fail "a --picture without an extension" "--picture: cannot tell the image format" \
    route mesh:4x4 --routing dor --picture "$tmp/noext"
  expect_fail "a --picture in a missing directory" "--picture: cannot write" \
    turns mesh:4x4 --routing dor --picture "$tmp/missing/turns.png"
  expect_fail "a --picture with an unknown routing" "unknown routing" \
    turns mesh:4x4 --routing bogus --picture "$tmp/bogus.png"
  printf 'old' >"$tmp/kept.png"
  expect_fail "a --picture of a path across a cut" "no route from switch 0 to switch 4" \
    route line:5 --routing turnset --prohibit "2:0>1,2:1>0" --from 0 --to 4 --picture "$tmp/kept.png"
  [ ! -e "$tmp/noext" ] && [ ! -e "$tmp/bogus.png" ] && [ ! -e "$tmp/missing" ] \
    && [ "$(cat "$tmp/kept.png")" = old ] && [ -z "$(find "$tmp" -name '*.tmp')" ]
  ok $? "failures leave no file, no temporary file, and an existing file as it was"
else
  ok 0 "--picture # SKIP flitlab was built without cairo"
fi

# --- bad input --------------------------------------------------------------
expect_fail "no --routing" "--routing NAME" route mesh:4x4
expect_fail "unknown routing" "unknown routing 'bogus'" route mesh:4x4 --routing bogus
expect_fail "unknown routing for turns" "unknown routing" turns mesh:4x4 --routing bogus
expect_fail "xmesh on a hypercube" "xmesh" route hypercube:3 --routing xmesh
expect_fail "dor on an irregular network" "dor" route irregular:16,ports=3 --routing dor
expect_fail "a root that is a host" "host" route torus:4x4 --routing updown --root 20
expect_fail "a root out of range" "no such node" route torus:4x4 --routing updown --root 99
expect_fail "--root on dor" "spanning tree" route torus:4x4 --routing dor --root 3
expect_fail "--from without --to" "--from needs --to" route mesh:4x4 --routing dor --from 0
expect_fail "--to without --from" "--to needs --from" route mesh:4x4 --routing dor --to 3
expect_fail "--all without --from" "--all" route mesh:4x4 --routing dor --all
expect_fail "--max-paths without --all" "--max-paths" route mesh:4x4 --routing dor --from 0 --to 3 --max-paths 4
expect_fail "a switch id out of range" "no such node" route mesh:4x4 --routing dor --from 0 --to 99
expect_fail "a host as --from" "host" route mesh:4x4 --routing dor --from 16 --to 0
expect_fail "a negative switch id" "from" route mesh:4x4 --routing dor --from -1 --to 3
expect_fail "malformed --prohibit" "malformed turn '2:0-1'" route line:5 --routing turnset --prohibit "2:0>1,2:0-1"
expect_fail "empty --prohibit" "malformed" route line:5 --routing turnset --prohibit ""
expect_fail "--prohibit with a turn the switch lacks" "port" route line:5 --routing turnset --prohibit "2:0>7"
expect_fail "--prohibit on updown" "turnset" route mesh:4x4 --routing updown --prohibit "0:0>2"
expect_fail "--order on updown" "--order" route mesh:4x4 --routing updown --order yx
expect_fail "a bad --order" "order" route mesh:4x4 --routing dor --order xz
expect_fail "--vcs 0" "vcs" route mesh:4x4 --routing dor --vcs 0
expect_fail "--vcs 2 on a table routing" "" route mesh:4x4 --routing updown --vcs 2
expect_fail "a bad spec" "even" route xmesh:5x5 --routing xmesh
expect_fail "a missing file" "neither" route no-such-file.json --routing dor
expect_fail "an unknown option" "unknown option" route mesh:4x4 --routing dor --frob
expect_fail "turns with --from" "unknown option" turns mesh:4x4 --routing dor --from 0
expect_fail "no topology" "missing argument" route --routing dor

# ---- paper 002: R-turn is L-turn reversed ------------------------------------

# P2 is P1 with every turn reversed (and so are the conditional sets), so on
# the torus each R-turn routing prohibits exactly the reverses (in and out
# ports swapped) of its L-turn twin's turns. README "Paper 002, Table 3"
# builds on this: the two families differ only through output selection.
for v in alpha beta; do
  run turns torus:8x8 --routing lturn-$v --json
  cp "$tmp/out" "$tmp/lturn.json"
  run turns torus:8x8 --routing rturn-$v --json
  python3 - "$tmp/lturn.json" "$tmp/out" <<'PY'
import json, sys
turns = [{(t['switch'], t['in_port'], t['out_port']) for t in json.load(open(f))['turns']}
         for f in sys.argv[1:]]
sys.exit(not (turns[0] and turns[1] == {(s, b, a) for (s, a, b) in turns[0]}))
PY
  ok $? "torus:8x8: rturn-$v prohibits the reverses of lturn-$v's turns"
done

tap_end
