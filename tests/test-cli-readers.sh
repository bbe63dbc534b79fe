#!/bin/sh
# test-cli-readers.sh — the readers from the command line under hostile
# input: every refusal is one line that names the file, the line or the
# count and the limit, and comes at once, before memory grows.
# Usage: test-cli-readers.sh path/to/flitlab
. "$(dirname "$0")/cli-lib.sh"

SIM="sim mesh:4x4 --routing dor --traffic trace --warmup 0 --measure 50"

# --- traces ----------------------------------------------------------------
printf '0 0 5 2\n3 1 2 1\n' >"$tmp/good.txt"
run $SIM --trace "$tmp/good.txt"
grep -q "^status  *ok" "$tmp/out"
ok $? "a good trace runs"

start=$(date +%s)
expect_fail "--trace /dev/zero" "/dev/zero: line 1: the line is longer than 4096 bytes" \
  $SIM --trace /dev/zero
[ $(($(date +%s) - start)) -lt 5 ]
ok $? "/dev/zero is refused at once"

python3 -c "import sys; sys.stdout.write('0 0 5 2\n3 1 2 1\n' + 'x' * 5000000 + '\n')" \
  >"$tmp/long.txt"
expect_fail "a 5 MB third line" "long.txt: line 3: the line is longer than 4096 bytes" \
  $SIM --trace "$tmp/long.txt"

# The issue's repro: under a 400 MB address space the line was an end of
# file, and the trace ran "ok" with 2 packets.
# AddressSanitizer maps terabytes of shadow memory and cannot start there.
if ldd "$FLITLAB" 2>/dev/null | grep -q libasan; then
  ok 0 "prlimit --as: skipped under AddressSanitizer # SKIP"
elif command -v prlimit >/dev/null 2>&1; then
  prlimit --as=400000000 "$FLITLAB" $SIM --trace "$tmp/long.txt" >"$tmp/out" 2>"$tmp/err"
  status=$?
  [ "$status" -ne 0 ] && [ ! -s "$tmp/out" ] \
    && grep -q "^flitlab: .*long.txt: line 3: the line is longer than 4096 bytes" "$tmp/err"
  ok $? "a 5 MB third line under prlimit --as=400000000: $(cat "$tmp/err")"
else
  ok 0 "prlimit is missing: skipped"
fi

printf '0 0 5 2\n3 1 2 1 # a\000b\n' >"$tmp/nul.txt"
expect_fail "a NUL byte in a comment" "nul.txt: line 2: a NUL byte" $SIM --trace "$tmp/nul.txt"

# A trace from a pipe reads as the same file does (the wall time aside).
run $SIM --trace "$tmp/good.txt"
grep -v "^wall time" "$tmp/out" >"$tmp/file-out"
"$FLITLAB" $SIM --trace - <"$tmp/good.txt" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] && grep -v "^wall time" "$tmp/out" | cmp -s - "$tmp/file-out"
ok $? "--trace - from standard input gives the same results"
cat "$tmp/good.txt" | "$FLITLAB" $SIM --trace - >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] && grep -v "^wall time" "$tmp/out" | cmp -s - "$tmp/file-out"
ok $? "--trace - from a pipe gives the same results"
head -c 100000 /dev/zero | "$FLITLAB" $SIM --trace - >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -ne 0 ] && grep -q "^flitlab: standard input: line 1: the line is longer" "$tmp/err"
ok $? "NUL bytes from a pipe are refused at line 1: $(cat "$tmp/err")"

# --- Flitlab JSON ----------------------------------------------------------
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
head = '{"format": "flitlab-topology", "version": 1, '
with open(d + "/links.json", "w") as f:
    f.write(head + '"nodes": [{"kind":"switch","ports":256},{"kind":"switch","ports":256}], ')
    f.write('"links": [' + ",".join(["[0,0,1,0]"] * (2**24 + 1)) + "]}\n")
with open(d + "/ports.json", "w") as f:
    f.write(head + '"nodes": [{"kind":"switch","ports":2},{"kind":"switch","ports":2}], ')
    f.write('"links": [' + ",".join(["[0,0,1,0]"] * 3) + "]}\n")
PY
start=$(date +%s)
expect_fail "2^24 + 1 links" "links.json: links: the file has more than 16777216 links" \
  topo metrics "$tmp/links.json"
[ $(($(date +%s) - start)) -lt 20 ]
ok $? "2^24 + 1 links are refused without parsing them"
expect_fail "more links than ports" "links: the file has 3 links, but its 2 nodes have 4 ports" \
  topo metrics "$tmp/ports.json"

"$FLITLAB" topo export mesh:3x3 -o "$tmp/mesh.json"
head -c 300 "$tmp/mesh.json" >"$tmp/cut.json"
expect_fail "a truncated file" "cut.json: line [0-9]*, column [0-9]*: .* near end of file" \
  topo metrics "$tmp/cut.json"
: >"$tmp/empty.json"
expect_fail "an empty file" "empty.json: line 1, column 0: '\[' or '{' expected" \
  topo metrics "$tmp/empty.json"

# A device or a binary file as a topology stops at its first NUL byte, not
# after reading the 1 GiB limit.
start=$(date +%s)
expect_fail "topo metrics /dev/zero" "/dev/zero: a NUL byte at byte 0 (a topology file is text)" \
  topo metrics /dev/zero
[ $(($(date +%s) - start)) -lt 5 ]
ok $? "/dev/zero as a topology is refused at once"
printf 'router 0 router 1\nrouter 1 node 0\000\n' >"$tmp/nul.anynet"
expect_fail "a NUL byte in an anynet file" "nul.anynet: a NUL byte at byte 33" \
  topo metrics "$tmp/nul.anynet"

# --- anynet ----------------------------------------------------------------
printf 'router 0 router 1048576\n' >"$tmp/big-id.anynet"
expect_fail "a router id past 2^20" "line 1: router id 1048576 is too large (at most 1048575)" \
  topo metrics "$tmp/big-id.anynet"

tap_end
