#!/bin/sh
# test-cli-output.sh — where the commands write: every writer (topo export,
# sweep -o, sim --channels/--series/--picture/--animate, route --picture,
# plot -o, experiment export -o) writes a FIFO through to its reader, fails
# on /dev/full with status 1 and a message without replacing the device,
# writes a symbolic link's target and keeps the link; a killed export leaves
# no temporary file, and a stale one is removed by the next export; '-'
# reads a topology from standard input. TAP output.
#
# usage: test-cli-output.sh path/to/flitlab
set -u
. "$(dirname "$0")/cli-lib.sh"
cd "$tmp" || exit 1

P="$tmp/p.flitlab"
"$FLITLAB" project new "$P" >/dev/null 2>&1
"$FLITLAB" experiment new "$P" tiny --topology mesh:4x4 --set warmup=50 --set measure=100 \
  --vary rate=0.05,0.1 --seeds 1:1 >/dev/null 2>&1
"$FLITLAB" experiment run "$P" tiny >/dev/null 2>&1
ok $? "a tiny experiment to plot and export"

# writer NAME FILE: runs the writer called NAME with its output in FILE.
writer() {
  out=$2
  case $1 in
    export-json) "$FLITLAB" topo export mesh:4x4 -f json -o "$out" ;;
    export-dot) "$FLITLAB" topo export mesh:4x4 -f dot -o "$out" ;;
    export-anynet) "$FLITLAB" topo export mesh:4x4 -f anynet -o "$out" ;;
    export-png) "$FLITLAB" topo export mesh:4x4 -f png -o "$out" ;;
    export-svg) "$FLITLAB" topo export mesh:4x4 -f svg -o "$out" ;;
    sweep) "$FLITLAB" sweep mesh:4x4 --routing dor --rates 0.1:0.2:0.1 --measure 100 -o "$out" ;;
    channels) "$FLITLAB" sim mesh:4x4 --routing dor --measure 100 --channels "$out" ;;
    series) "$FLITLAB" sim torus:4x4 --routing dor --mode deflection --cycles 20 --series "$out" ;;
    route-picture) "$FLITLAB" route mesh:4x4 --routing dor --picture "$out" ;;
    sim-picture) "$FLITLAB" sim mesh:4x4 --routing dor --measure 50 --picture "$out" --at 10 ;;
    sim-animate) "$FLITLAB" sim mesh:4x4 --routing dor --measure 50 --animate "$out" \
                   --cycles 1:3 --size 160x100 ;;
    plot-pdf) "$FLITLAB" plot "$P" tiny --x rate --y latency_avg -o "$out" ;;
    plot-csv) "$FLITLAB" plot "$P" tiny --x rate --y latency_avg -o "$out" ;;
    plot-png) "$FLITLAB" plot "$P" tiny --x rate --y latency_avg -o "$out" ;;
    experiment-export) "$FLITLAB" experiment export "$P" tiny --format json -o "$out" ;;
  esac >/dev/null 2>"$tmp/err"
}

# The file name each writer wants (its format comes from the extension).
name_for() {
  case $1 in
    export-json|experiment-export) echo json ;;
    export-dot) echo dot ;;
    export-anynet) echo anynet ;;
    export-png|route-picture|sim-picture|plot-png) echo png ;;
    export-svg) echo svg ;;
    sweep|channels|series|plot-csv) echo csv ;;
    sim-animate) echo gif ;;
    plot-pdf) echo pdf ;;
  esac
}

WRITERS="export-json export-dot export-anynet export-png export-svg sweep channels series
  route-picture sim-picture sim-animate plot-pdf plot-csv plot-png experiment-export"

# ---- the issue's repro --------------------------------------------------------
mkfifo s.csv
(cat s.csv >got &)
"$FLITLAB" sweep mesh:4x4 --routing dor --rates 0.1:0.2:0.1 --measure 100 -o s.csv \
  >/dev/null 2>&1
status=$?
sleep 0.5
[ "$status" -eq 0 ] && [ -p s.csv ] && head -1 got | grep -q "^rate,status," \
  && [ "$(wc -l <got)" -eq 3 ]
ok $? "sweep -o FIFO: s.csv is still a FIFO and the reader got the CSV (status $status)"

# ---- every writer: FIFO, /dev/full, symbolic link -------------------------------
for w in $WRITERS; do
  ext=$(name_for "$w")
  d="$tmp/$w"
  mkdir "$d"

  mkfifo "$d/fifo.$ext"
  cat "$d/fifo.$ext" >"$d/got" &
  reader=$!
  writer "$w" "$d/fifo.$ext"
  status=$?
  wait "$reader"
  [ "$status" -eq 0 ] && [ -p "$d/fifo.$ext" ] && [ -s "$d/got" ] \
    && [ -z "$(ls -A "$d" | grep '\.tmp$')" ]
  ok $? "$w to a FIFO: written through to the reader ($(wc -c <"$d/got") bytes, status $status)"

  if [ -w /dev/full ]; then
    ln -s /dev/full "$d/full.$ext"
    writer "$w" "$d/full.$ext"
    status=$?
    [ "$status" -eq 1 ] && grep -q "^flitlab: .*cannot write .*full.$ext: No space left on device" \
      "$tmp/err" && [ -c /dev/full ] && [ -L "$d/full.$ext" ]
    ok $? "$w to a link to /dev/full: status 1 and a message ($status: $(tail -1 "$tmp/err"))"
  fi

  echo old >"$d/real.$ext"
  ln -s "real.$ext" "$d/link.$ext"
  writer "$w" "$d/link.$ext"
  status=$?
  [ "$status" -eq 0 ] && [ -L "$d/link.$ext" ] && [ "$(cat "$d/real.$ext")" != old ] \
    && [ -s "$d/real.$ext" ] && [ -z "$(ls -A "$d" | grep '\.tmp$')" ]
  ok $? "$w to a symbolic link: the target is written, the link kept (status $status)"
done

# A device given directly, and standard output.
if [ -w /dev/full ]; then
  for w in export-json sweep channels; do
    writer "$w" /dev/full
    status=$?
    # One line says what failed.
    [ "$status" -eq 1 ] && [ "$(grep -c "^flitlab: " "$tmp/err")" -eq 1 ] \
      && grep -q "^flitlab: cannot write /dev/full: No space left on device" "$tmp/err" \
      && [ -c /dev/full ]
    ok $? "$w -o /dev/full: status 1 and one message ($status: $(tail -1 "$tmp/err"))"
  done
  # The output is written to before the first simulation: a sweep of
  # hours fails at once, before any point's progress line.
  for how in "-o /dev/full" "-f json -o /dev/full" "-o -" ""; do
    # shellcheck disable=SC2086 # $how is words
    "$FLITLAB" sweep mesh:16x16 --routing dor --rates 0.01:1:0.01 --measure 100000 $how \
      >/dev/full 2>"$tmp/err"
    status=$?
    [ "$status" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
      && grep -Eq "^flitlab: cannot write (/dev/full|standard output): No space left on device$" \
        "$tmp/err"
    ok $? "sweep ${how:->/dev/full} fails before any simulation ($status: $(head -2 "$tmp/err"))"
  done
  "$FLITLAB" topo export mesh:4x4 -f json -o - >/dev/full 2>"$tmp/err"
  status=$?
  [ "$status" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
    && grep -q "^flitlab: cannot write standard output: No space left on device" "$tmp/err"
  ok $? "topo export -o - >/dev/full: status 1 and one message ($status: $(cat "$tmp/err"))"
fi
# Atomic replacement is for regular files only: the help says so.
for c in sweep plot "experiment export" "topo export"; do
  # shellcheck disable=SC2086 # $c is words
  run $c --help
  grep -q "regular file is replaced only once complete" "$tmp/out" && ! grep -q atomic "$tmp/out"
  ok $? "$c --help: -o replaces a regular file only once complete, and says no more"
done
run topo export mesh:4x4 -f json -o -
[ "$status" -eq 0 ] && [ "$(json "d['format']")" = flitlab-topology ]
ok $? "topo export -o - writes standard output"
run topo export mesh:4x4 -f json -o /dev/stdout
[ "$status" -eq 0 ] && [ "$(json "d['format']")" = flitlab-topology ] && [ -L /dev/stdout ]
ok $? "topo export -o /dev/stdout writes standard output and /dev/stdout stays"

# ---- killed exports ---------------------------------------------------------------
# SIGTERM at several moments of the export (the temporary file exists from
# about 0.2 s on): nothing is left, whenever it comes.
left=0
for delay in 0.1 0.2 0.25 0.3 0.35; do
  "$FLITLAB" topo export mesh:128x128 -o big.json 2>/dev/null &
  pid=$!
  sleep "$delay"
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  left=$((left + $(ls -A | grep -c '^\.big\.json\..*\.tmp$')))
  rm -f big.json
done
ok "$left" "topo export mesh:128x128 killed by SIGTERM leaves no .big.json.*.tmp ($left left)"

# SIGKILL cannot be caught; the next export removes what it left once stale.
killed=0
for delay in 0.3 0.35 0.4 0.5; do
  "$FLITLAB" topo export mesh:128x128 -o big.json 2>/dev/null &
  pid=$!
  sleep "$delay"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  killed=$(ls -A | grep -c '^\.big\.json\..*\.tmp$')
  [ "$killed" -gt 0 ] && break
  rm -f big.json
done
echo "stale" >.big.json.abc123.tmp
echo "not ours" >.big.json.ABC123.tmp
touch -d '2 minutes ago' .big.json.*.tmp
echo "fresh" >.big.json.new000.tmp
run topo export mesh:4x4 -o big.json
[ "$status" -eq 0 ] && [ "$(ls -A | grep '^\.big\.json\..*\.tmp$' | tr '\n' ' ')" \
  = ".big.json.ABC123.tmp .big.json.new000.tmp " ]
ok $? "the next export removes the stale temporary files ($killed from SIGKILL), keeps a fresh one and one of another pattern: $(ls -A | grep '\.tmp$' | tr '\n' ' ')"
rm -f .big.json.*.tmp

# ---- '-': a topology from standard input ---------------------------------------------
"$FLITLAB" topo export mesh:2x2 -f json -o - | "$FLITLAB" topo metrics - --json >"$tmp/out" 2>"$tmp/err"
[ "$?" -eq 0 ] && [ "$(json "(d['switches'], d['hosts'], d['diameter'])")" = "(4, 4, 2)" ]
ok $? "topo export -o - | topo metrics -: a topology read from standard input"
"$FLITLAB" topo export mesh:3x3 -f anynet -o - | "$FLITLAB" topo metrics - --json >"$tmp/out" 2>"$tmp/err"
[ "$?" -eq 0 ] && [ "$(json "(d['switches'], d['hosts'])")" = "(9, 9)" ]
ok $? "an anynet file from standard input"
"$FLITLAB" topo export mesh:2x2 -f json -o - \
  | "$FLITLAB" sim - --routing dor --measure 100 --json >"$tmp/out" 2>"$tmp/err"
[ "$?" -eq 0 ] && [ "$(json "d['status']")" = ok ]
ok $? "sim - reads the network from standard input"
echo "not a topology" | "$FLITLAB" topo metrics - >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 1 ] && grep -q "^flitlab: standard input: not a topology file" "$tmp/err"
ok $? "garbage on standard input is named: $(cat "$tmp/err")"
"$FLITLAB" topo metrics - </dev/null >"$tmp/out" 2>"$tmp/err"
[ "$?" -eq 1 ] && grep -q "^flitlab: standard input: " "$tmp/err"
ok $? "empty standard input is refused: $(cat "$tmp/err")"
"$FLITLAB" topo export mesh:2x2 -f json -o - \
  | "$FLITLAB" sim - --routing dor --trace - >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
  && grep -q "^flitlab: the network and --trace cannot both be read from standard input" "$tmp/err"
ok $? "the network and --trace both '-' are refused: $status, $(cat "$tmp/err")"
printf '0 0 1 2\n5 1 0 1\n' | "$FLITLAB" sim mesh:2x2 --routing dor --trace - --json \
  >"$tmp/out" 2>"$tmp/err"
[ "$?" -eq 0 ] && [ "$(json "d['status']")" = ok ]
ok $? "--trace - alone still reads standard input"
"$FLITLAB" topo export mesh:2x2 -f json -o - | "$FLITLAB" project add "$P" - --name fromstdin \
  >/dev/null 2>"$tmp/err"
run project ls "$P" --json
[ "$status" -eq 0 ] && grep -q fromstdin "$tmp/out"
ok $? "project add PROJECT - adds a topology from standard input"

tap_end
