#!/bin/sh
# test-cli-sim.sh — `flitlab sim` and `flitlab sweep` end to end: every
# option's path, the JSON keys, determinism, deadlock detection, BookSim 2's
# zero-load latencies, shortened paper 002 and 003 reproductions, sweep
# output, and refused parameters. Usage: test-cli-sim.sh path/to/flitlab
. "$(dirname "$0")/cli-lib.sh"

# A short run: small warm-up and window, so each case takes well under a
# second.
SHORT="--warmup 200 --measure 1000"

# A python expression on the last output's JSON must be True.
check() {
  [ "$(json "$1")" = "True" ]
  ok $? "$2"
}

# ---- sim: output and keys ------------------------------------------------

run sim --help
grep -q "Traffic patterns: uniform" "$tmp/out"
ok $? "sim --help lists the traffic patterns"

run sim mesh:4x4 --routing dor --rate 0.1 $SHORT --json
ok $status "sim mesh:4x4 dor --json runs"
check "all(k in d for k in ['status', 'latency_avg', 'latency_p50', 'latency_p99',
  'network_latency_avg', 'throughput', 'throughput_min', 'offered', 'hops_avg', 'cycles',
  'flit_hops', 'wall_s']) and 'cycle' not in d" "sim --json has the issue's keys"
check "d['status'] == 'ok' and abs(d['throughput'] - 0.1) < 0.02 and d['flit_hops'] > 0
  and d['latency_p50'] <= d['latency_p99'] and d['network_latency_avg'] <= d['latency_avg']" \
  "a light load is accepted in full, percentiles ordered"

run sim mesh:4x4 --routing dor --rate 0.1 $SHORT
grep -q "^status  *ok" "$tmp/out" && grep -q "^accepted" "$tmp/out"
ok $? "sim without --json prints a table"

# ---- determinism -----------------------------------------------------------

strip_wall() {
  python3 -c "import json,sys; d=json.load(open('$tmp/out')); d.pop('wall_s'); print(json.dumps(d, sort_keys=True))"
}
run sim mesh:4x4 --routing west-first --rate 0.3 --packet 4 --seed 7 $SHORT --json
first=$(strip_wall)
run sim mesh:4x4 --routing west-first --rate 0.3 --packet 4 --seed 7 $SHORT --json
[ -n "$first" ] && [ "$first" = "$(strip_wall)" ]
ok $? "the same seed gives identical results"
run sim mesh:4x4 --routing west-first --rate 0.3 --packet 4 --seed 8 $SHORT --json
[ "$first" != "$(strip_wall)" ]
ok $? "another seed gives other results"

# ---- deadlock ----------------------------------------------------------------

run sim ring:8 --routing shortest --vcs 1 --rate 0.9 --packet 8 --watchdog 500 --json
check "d['status'] == 'deadlock' and len(d['cycle']) > 0 and len(d['cycle_nodes']) == len(d['cycle'])" \
  "ring:8 shortest with 1 VC deadlocks and names the cycle (status $status)"
run sim ring:8 --routing shortest --vcs 1 --rate 0.9 --packet 8 --watchdog 500
grep -q "^deadlock cycle" "$tmp/out"
ok $? "the table shows the deadlock cycle"

# ---- presets -------------------------------------------------------------------

run sim --preset list
grep -q "^  ring-deadlock  *deadlock on a ring" "$tmp/out" \
  && grep -q "ring:8 --routing shortest --vcs 1" "$tmp/out"
ok $? "sim --preset list shows each preset's network and settings"
run sim --help
grep -q "^  paper003-xmesh  *paper 003 deflection on XMESH" "$tmp/out"
ok $? "sim --help lists the presets"
run sim --preset ring-deadlock --json
check "d['status'] == 'deadlock' and d['cycles'] < 1000" \
  "the ring preset deadlocks within 1000 cycles, with no network argument (status $status)"
run sim --preset ring-deadlock --vcs 2 --classes 2 --routing dor --json
check "d['status'] != 'deadlock'" "flags override the preset's settings and routing"
run sim --preset torus-dateline --classes 1 $SHORT --json
check "d['status'] == 'deadlock'" "the dateline preset with --classes 1 deadlocks"
run sim --preset torus-dateline $SHORT --json
check "d['status'] != 'deadlock'" "the dateline preset does not deadlock"
run sim torus:4x4 --preset torus-dateline $SHORT --json
check "d['status'] != 'deadlock' and d['cycles'] > 0" "an argument replaces the preset's network"
run sim --preset paper003-xmesh --cycles 20 --json
check "d['mode'] == 'deflection' and d['cycles'] == 20" \
  "the paper 003 preset runs the deflection model"
expect_fail "unknown preset" "no-such.*ring-deadlock" sim --preset no-such
expect_fail "no network and no preset" "network" sim --routing dor

# ---- BookSim 2 cross-validation: zero-load latency (booksim2-mesh.md) ---------

BOOKSIM="mesh:8x8 --routing dor --pipeline booksim-min --self --rate 0.01 --warmup 1000"
run sim $BOOKSIM --measure 20000 --json
check "abs(d['latency_avg'] - 20.65) <= 1" "BookSim zero-load, 1-flit: $(json "d['latency_avg']") vs 20.65"
run sim $BOOKSIM --measure 20000 --packet 16 --json
check "abs(d['latency_avg'] - 36.03) <= 1" "BookSim zero-load, 16-flit: $(json "d['latency_avg']") vs 36.03"
run sim $BOOKSIM --measure 20000 --packet 16 --vcs 1 --json
check "abs(d['latency_avg'] - 35.66) <= 1" "BookSim zero-load, 16-flit 1 VC: $(json "d['latency_avg']") vs 35.66"
run sim $BOOKSIM --measure 20000 --release tail-credit --json
check "abs(d['latency_avg'] - 20.66) <= 1" "BookSim zero-load, 1-flit tail-credit: $(json "d['latency_avg']") vs 20.66"

# Past saturation the default rule stops at the window's end; BookSim's
# (--measure-rule booksim) drains every packet whose turn came in it.
PAST="mesh:4x4 --routing dor --pipeline booksim-min --self --rate 1 --packet 4 --warmup 300 --measure 1000"
run sim $PAST --json
created=$(json "d['packets']")
check "d['status'] == 'saturated' and d['cycles'] == 1300" "saturated, the default rule does not drain"
run sim $PAST --measure-rule booksim --json
check "d['status'] == 'saturated' and 1300 < d['cycles'] < 5000 and d['packets'] > $created" \
  "--measure-rule booksim drains its $(json "d['packets']") packets (default rule: $created)"

# ---- every option's path -----------------------------------------------------

# The zero-load latency of an idle network grows by what each option adds.
lat() {
  run sim line:4 --routing shortest --rate 0.002 --warmup 100 --measure 20000 --json "$@"
  json "d['latency_avg']"
}
base=$(lat)
longer=$(lat --link-latency 3)
python3 -c "import sys; sys.exit(not ($longer > $base + 1))"
ok $? "--link-latency 3 makes zero-load latency longer ($base -> $longer)"
slow=$(lat --packet 4 --link-cycles-per-flit 3)
fast=$(lat --packet 4)
# The same packets both times (same seed and packet rate): serialization
# adds (L - 1)(C - 1) = 6 cycles to each, contention only more.
python3 -c "import sys; sys.exit(not ($slow >= $fast + 6 - 1e-6))"
ok $? "--link-cycles-per-flit 3 stretches a 4-flit packet's serialization by 6 cycles or more ($fast -> $slow)"
bk=$(lat --pipeline booksim-min)
python3 -c "import sys; sys.exit(not ($bk > $base + 2))"
ok $? "--pipeline booksim-min costs more per hop than the default ($base -> $bk)"

for opt in "--switching vct --buf 8 --packet 8" "--switching wormhole --buf 2 --packet 8" \
           "--release tail-credit" "--selection lowest" "--selection random" \
           "--selection credits" "--vcs 4 --buf 4" "--packet 1:16:0.25" "--burst 20:80" \
           "--drain 50000" "--order yx" "--classes 1"; do
  run sim mesh:4x4 --routing dor --rate 0.1 $SHORT $opt --json
  check "d['status'] == 'ok' and d['throughput'] > 0.05" "sim $opt"
done
run sim mesh:4x4 --routing updown --root 5 --rate 0.1 $SHORT --json
check "d['status'] == 'ok'" "sim --routing updown --root 5"

# VCT: a whole packet must fit; at the same load wormhole with short buffers
# spreads a packet over several switches and so blocks more.
run sim mesh:4x4 --routing dor --rate 0.35 --packet 8 --buf 8 --switching vct $SHORT --json
vct=$(json "d['throughput']")
run sim mesh:4x4 --routing dor --rate 0.35 --packet 8 --buf 8 --switching wormhole $SHORT --json
check "d['status'] == 'ok' and abs(d['throughput'] - $vct) < 0.05" \
  "VCT and wormhole accept alike with packet-sized buffers ($vct, $(json "d['throughput']"))"

# Every pattern on a 4x4 mesh (16 hosts: a power of two and a square).
for t in uniform bitrev bitcomp transpose shuffle tornado neighbor randperm; do
  run sim mesh:4x4 --routing dor --traffic $t --rate 0.1 $SHORT --json
  check "d['status'] == 'ok' and d['throughput'] > 0.02" "--traffic $t"
done
# hops_avg counts the routers a packet crosses: one more than the switch-to-
# switch hops, and lower when a host may send to its own switch.
run sim mesh:4x4 --routing dor --rate 0.05 $SHORT --json
others=$(json "d['hops_avg']")
run sim mesh:4x4 --routing dor --rate 0.05 --self $SHORT --json
check "d['status'] == 'ok' and d['hops_avg'] < $others" "--self lowers the mean hops ($others -> $(json "d['hops_avg']"))"
run sim mesh:4x4 --routing dor --hotspot 0.5:0,15 --rate 0.05 $SHORT --json
check "d['status'] == 'ok'" "--hotspot 0.5:0,15 (implies --traffic hotspot)"

printf '# cycle source destination flits\n5 0 15 4\n5 3 12 4\n40 15 0 2\n' >"$tmp/trace.txt"
run sim mesh:4x4 --routing dor --trace "$tmp/trace.txt" --warmup 0 --measure 100 --json
check "d['status'] == 'ok' and d['packets'] == 3 and abs(d['hops_avg'] - 7) < 1e-9" \
  "--trace replays three corner-to-corner packets (7 routers each)"

# Explicit pipeline delays R:VA:SA:X: one 4-flit packet across 7 routers takes
# T0 = (X + Lk) + H (R + Va + Sa + X + Lk) + (L - 1) C (sim-internal.h).
printf '5 0 15 4\n' >"$tmp/one.txt"
ONE="mesh:4x4 --routing dor --trace $tmp/one.txt --warmup 0 --measure 100 --json"
run sim $ONE --pipeline 1:1:1:1 --link-latency 2
check "d['latency_avg'] == (1 + 2) + 7 * (1 + 1 + 1 + 1 + 2) + 3" \
  "--pipeline 1:1:1:1 --link-latency 2: zero-load latency 48 ($(json "d['latency_avg']"))"
run sim $ONE --pipeline 0:0:0:0
check "d['latency_avg'] == 1 + 7 + 3" "--pipeline 0:0:0:0 is the default's 1 cycle per hop"
run sim mesh:4x4 --routing dor --rate 0.3 --pipeline booksim-min $SHORT --json
preset=$(json "(d['latency_avg'], d['throughput'])")
run sim mesh:4x4 --routing dor --rate 0.3 --pipeline 0:0:1:1:0 $SHORT --json
check "(d['latency_avg'], d['throughput']) == $preset" "--pipeline 0:0:1:1:0 is booksim-min"

# --channels: one row per channel; the busiest link is the JSON's, and a
# host's injection channel is busy for the share of cycles it sends, the
# offered load.
run sim mesh:3x3 --routing dor --rate 0.3 --packet 4 $SHORT --channels "$tmp/ch.csv" --json
python3 - "$tmp/ch.csv" "$(json "d['channel_utilization_max']")" "$(json "d['offered']")" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
umax, offered = float(sys.argv[2]), float(sys.argv[3])
links = [float(r['utilization']) for r in rows if r['kind'] == 'link']
inj = [float(r['utilization']) for r in rows if r['kind'] == 'injection']
occ = [float(r[k]) for r in rows for k in ('vc0_occupancy', 'vc1_occupancy')]
sys.exit(not (len(rows) == 2 * (12 + 9) and len(inj) == 9 and abs(max(links) - umax) < 1e-5
              and abs(sum(inj) / len(inj) - offered) < 0.03 and min(occ) >= 0 and max(occ) > 0))
EOF
ok $? "--channels writes each channel's utilization and VC occupancy"

# ---- deflection mode (paper 003) ----------------------------------------------

run sim torus:5x5 --routing dor --mode deflection --nmsg 2 --priority age --cycles 300 \
  --series "$tmp/series.csv" --json
check "d['mode'] == 'deflection' and d['delivered'] > 0 and d['throughput'] > 0
  and d['max_delay'] >= d['avg_delay'] > 0" "sim --mode deflection --json"
[ "$(head -1 "$tmp/series.csv")" = "cycle,max_delay,avg_delay,throughput" ] \
  && [ "$(wc -l <"$tmp/series.csv")" -eq 301 ]
ok $? "--series writes one row per cycle"
for prio in random path_num age+path_num; do
  run sim torus:5x5 --routing dor --mode deflection --priority $prio --cycles 100
  grep -q "^throughput" "$tmp/out"
  ok $? "deflection --priority $prio"
done

# ---- paper 003, shortened: XMESH beats the torus and the diagonal mesh -------

# The paper's sizes, a short run: the closed system settles within about
# 150 cycles, and the throughput is the mean over the second half.
defl() {
  run sim "$1" --routing "$2" --mode deflection --nmsg 4 --priority age --cycles 300 --json
  json "d['throughput']"
}
x=$(defl xmesh:36x72 xmesh)
# The torus takes every minimal output (shortest), as xmesh and dmesh do.
tor=$(defl torus:35x71 shortest)
dm=$(defl dmesh:35x71 dmesh)
python3 -c "import sys; sys.exit(not ($x > $tor and $x > $dm))"
ok $? "paper 003: xmesh:36x72 throughput $x above torus:35x71 $tor and dmesh:35x71 $dm"

# ---- paper 002, shortened: L-turn above up*/down* on the 8x8 torus ------------

# Table 3's configuration past saturation (offered flits/cycle/host $4, with
# selection $3), a 10000-cycle window instead of a million.
p002() {
  run sim torus:8x8,hosts=4 --routing "$1" --switching vct --packet 128 --buf 128 --vcs 1 \
    --link-cycles-per-flit 3 --selection "$3" --traffic "$2" --rate "$4" \
    --warmup 4000 --measure 10000 --drain 0 --json
  json "d['throughput']"
}
ud=$(p002 updown uniform lowest 0.02)
lt=$(p002 lturn-alpha uniform lowest 0.02)
python3 -c "import sys; sys.exit(not ($lt > 1.1 * $ud))"
ok $? "paper 002, lowest port: lturn-alpha accepts more than updown on uniform ($lt vs $ud)"

# With the selection that spreads load (by downstream credits), Table 3's
# uniform column reproduces: L-turn/alpha about 1.7x up*/down*, R-turn/alpha
# close to up*/down* (README: "Paper 002, Table 3"). Offered 0.03 is past
# every routing's saturation.
ud=$(p002 updown uniform credits 0.03)
lt=$(p002 lturn-alpha uniform credits 0.03)
rt=$(p002 rturn-alpha uniform credits 0.03)
python3 -c "import sys; sys.exit(not ($lt > 1.4 * $ud and $lt > 1.25 * $rt and $rt < 1.4 * $ud))"
ok $? "paper 002, credits: lturn-alpha $lt well above updown $ud and rturn-alpha $rt"

# ---- sweep ---------------------------------------------------------------------

SWEEP="mesh:4x4 --routing dor --warmup 200 --measure 1000 --drain 3000"
run sweep $SWEEP --rates 0.1:1:0.1 --jobs 2
ok $status "sweep runs (status $status)"
python3 - "$tmp/out" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rates = [float(r['rate']) for r in rows]
assert rates == sorted(rates) and rates[0] == 0.1, rates
assert 2 <= len(rows) < 10, len(rows)          # stopped past saturation
assert rows[-1]['past_saturation'] == '1', rows[-1]
assert all(r['past_saturation'] == '0' for r in rows[:-1])
assert list(rows[0])[:3] == ['rate', 'status', 'latency_avg']
EOF
ok $? "sweep CSV: header, rows by rate, stopped at the first point past saturation"
grep -q "^sweep: rate 0.1: ok" "$tmp/err"
ok $? "sweep reports progress on stderr"
cp "$tmp/out" "$tmp/sweep2.csv"

run sweep $SWEEP --rates 0.1:1:0.1 --jobs 1 -o "$tmp/sweep.json"
python3 - "$tmp/sweep.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
pts = d['points']
assert [p['rate'] for p in pts] == sorted(p['rate'] for p in pts)
assert pts[-1]['past_saturation'] and d['stopped_at'] == pts[-1]['rate']
assert all(k in pts[0] for k in ['status', 'latency_avg', 'throughput', 'offered'])
EOF
ok $? "sweep -o FILE.json writes JSON points in rate order"
python3 - "$tmp/sweep.json" "$tmp/sweep2.csv" <<'EOF'
import csv, json, sys
pts = json.load(open(sys.argv[1]))['points']
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(pts) == len(rows)
for p, r in zip(pts, rows):
    assert p['status'] == r['status'] and p['flit_hops'] == int(r['flit_hops'])
    assert abs(p['latency_avg'] - float(r['latency_avg'])) < 1e-6
EOF
ok $? "one job and two jobs give the same points"

run sweep $SWEEP --rates 0.05:0.15:0.05 --format json --max-latency 1000000
check "len(d['points']) == 3 and d['stopped_at'] is None" "sweep over unsaturated rates keeps them all"

# ---- refused parameters ----------------------------------------------------------

expect_fail "zero VCs" "vc" sim mesh:4x4 --routing dor --vcs 0
expect_fail "VCT buffer smaller than a packet" "buf\|packet" \
  sim mesh:4x4 --routing dor --switching vct --packet 16 --buf 8
expect_fail "rate above 1" "rate" sim mesh:4x4 --routing dor --rate 1.5
expect_fail "unknown traffic" "unknown traffic 'zigzag'" sim mesh:4x4 --routing dor --traffic zigzag
expect_fail "unknown routing" "unknown routing 'nope'" sim mesh:4x4 --routing nope
expect_fail "missing routing" "routing" sim mesh:4x4
expect_fail "bad switching" "switching" sim mesh:4x4 --routing dor --switching store
expect_fail "bad packet" "packet" sim mesh:4x4 --routing dor --packet 1:16
expect_fail "bad hotspot" "hotspot" sim mesh:4x4 --routing dor --hotspot 0.5
expect_fail "bad burst" "burst" sim mesh:4x4 --routing dor --burst 0:10
expect_fail "bad pipeline" "pipeline" sim mesh:4x4 --routing dor --pipeline warp
expect_fail "pipeline of three delays" "R:VA:SA:X" sim mesh:4x4 --routing dor --pipeline 1:1:1
expect_fail "pipeline delay out of range" "1000" sim mesh:4x4 --routing dor --pipeline 0:0:1:1:5000
expect_fail "missing trace" "none.txt" sim mesh:4x4 --routing dor --trace "$tmp/none.txt"
expect_fail "--rate with a trace" "--rate has no effect with --traffic trace" \
  sim mesh:4x4 --routing dor --trace "$tmp/trace.txt" --rate 0.3
expect_fail "--packet with a trace" "--packet has no effect with --traffic trace" \
  sim mesh:4x4 --routing dor --trace "$tmp/trace.txt" --packet 8
expect_fail "bitrev on 6 hosts" "bitrev\|power" sim line:6 --routing shortest --traffic bitrev
expect_fail "deflection option without the mode" "nmsg" sim mesh:4x4 --routing dor --nmsg 2
expect_fail "channels in deflection mode" "channels" \
  sim torus:4x4 --routing dor --mode deflection --channels "$tmp/x.csv"
expect_fail "flit option in deflection mode" "vcs" \
  sim torus:4x4 --routing dor --mode deflection --vcs 2
expect_fail "sweep without rates" "rates" sweep mesh:4x4 --routing dor
expect_fail "sweep bad rates" "rates" sweep mesh:4x4 --routing dor --rates 0.5:0.1:0.1
expect_fail "sweep bad format" "format" sweep mesh:4x4 --routing dor --rates 0.1:0.2:0.1 -f xml

# ---- pictures and animations (only in a flitlab built with cairo) -----------

# The size of a PNG (from its header), and a GIF's size, frames and
# delays (walking its blocks), as "W H" and "W H FRAMES DELAY,DELAY...".
png_size() {
  python3 -c "import struct,sys; b=open(sys.argv[1],'rb').read(24); \
print(*struct.unpack('>II', b[16:24]))" "$1"
}
gif_info() {
  python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
assert b[:6] == b'GIF89a'
w, h, flags = struct.unpack('<HHB', b[6:11])
i = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
frames, delays = 0, []
def skip(i):
    while b[i]:
        i += b[i] + 1
    return i + 1
while b[i] != 0x3B:
    if b[i] == 0x21:
        if b[i + 1] == 0xF9:
            delays.append(struct.unpack('<H', b[i + 4:i + 6])[0])
        i = skip(i + 2)
    elif b[i] == 0x2C:
        lflags = b[i + 9]
        i += 10 + (3 << ((lflags & 7) + 1) if lflags & 0x80 else 0)
        i = skip(i + 1)
        frames += 1
    else:
        raise SystemExit('bad block')
print(w, h, frames, ','.join(map(str, sorted(set(delays)))))
PY
}

# Every span of cycles is bounded, so their sums cannot overflow; a value
# out of range is a usage error (2) that names the option.
for args in "--measure 9223372036854775807" "--warmup 9223372036854775807" \
            "--drain 9223372036854775807" "--watchdog 0" "--vcs 0" "--buf 0"; do
  # shellcheck disable=SC2086
  run sim mesh:4x4 --routing dor $args
  [ "$status" -eq 2 ] && grep -q "^flitlab: ${args%% *} needs a whole number from" "$tmp/err"
  ok $? "sim $args: status 2, naming the option (status $status: $(cat "$tmp/err"))"
done
run sweep mesh:4x4 --routing dor --rates 0.1:0.5:0.1 -o "$tmp/no/such/dir/s.csv"
[ "$status" -eq 1 ] && grep -q "^flitlab: cannot write .*s.csv" "$tmp/err" && ! grep -q "rate 0.1" "$tmp/err"
ok $? "sweep -o into a missing directory fails before any simulation (status $status)"
run sweep mesh:4x4 --routing dor --rates 0.01:0.5:1e-300
[ "$status" -eq 2 ] && grep -q "makes more than 10000 points" "$tmp/err" && [ "$(wc -c <"$tmp/err")" -lt 200 ]
ok $? "--rates with a tiny STEP: a short message, not the count (status $status)"

run sim --help
if grep -q -- "--animate" "$tmp/out"; then
  run sim mesh:4x4 --routing dor --rate 0.3 --picture "$tmp/frame.png" --at 200
  [ "$status" -eq 0 ] && [ "$(png_size "$tmp/frame.png")" = "1280 800" ] \
    && grep -q "wrote .*frame.png: 1 frame, up to cycle 200 (running)" "$tmp/out"
  ok $? "sim --picture --at writes a 1280x800 PNG of cycle 200"
  run sim mesh:4x4 --routing dor --picture "$tmp/frame.svg" --at 10 --size 640x480 --json
  check "d['picture'].endswith('frame.svg') and d['cycle'] == 10 and d['status'] == 'running'" \
    "sim --picture --json names the file and the cycle"
  grep -q 'width="640' "$tmp/frame.svg"
  ok $? "--size 640x480 sizes the SVG"
  run sim mesh:4x4 --routing dor --picture "$tmp/frame.pdf" --at 0
  head -c 5 "$tmp/frame.pdf" | grep -q "%PDF"
  ok $? "a PDF of cycle 0"
  run sim mesh:4x4 --routing dor --rate 0.3 --picture "$tmp/titled.png" --at 200 --title "DOR"
  run sim mesh:4x4 --routing dor --rate 0.3 --picture "$tmp/fine.png" --at 200 --title "DOR" \
    --dpi 192
  [ "$status" -eq 0 ] && [ "$(png_size "$tmp/titled.png")" = "1280 800" ] \
    && [ "$(png_size "$tmp/fine.png")" = "1280 800" ] && ! cmp -s "$tmp/frame.png" "$tmp/titled.png" \
    && ! cmp -s "$tmp/titled.png" "$tmp/fine.png"
  ok $? "--title and --dpi change the picture, not its size"
  expect_fail "--dpi without --picture" "--dpi goes with --picture" \
    sim mesh:4x4 --routing dor --dpi 192
  expect_fail "--size alone" "--size goes with --picture or --animate" \
    sim mesh:4x4 --routing dor --size 640x480
  expect_fail "a --dpi out of range" "--dpi needs a whole number from 24 to 2400" \
    sim mesh:4x4 --routing dor --picture "$tmp/x.png" --at 1 --dpi 5

  run sim mesh:4x4 --routing dor --rate 0.3 --animate "$tmp/anim.gif" --cycles 100:150:10 \
    --size 320x200 --fps 25
  [ "$status" -eq 0 ] && [ "$(gif_info "$tmp/anim.gif")" = "320 200 6 4" ]
  ok $? "--animate --cycles 100:150:10 --fps 25: a 320x200 GIF of 6 frames, 4/100 s each ($(gif_info "$tmp/anim.gif"))"
  run sim --preset ring-deadlock --animate "$tmp/ring.gif" --cycles 0:1000:50 --frame-delay 20 \
    --size 320x240 --json
  check "d['status'] == 'deadlock' and d['cycle'] == 187 and d['frames'] == 5" \
    "an animation stops at the deadlock, after its frame"
  [ "$(gif_info "$tmp/ring.gif")" = "320 240 5 20" ]
  ok $? "the deadlock animation has 5 frames of 20/100 s"
  run sim mesh:4x4 --routing dor --animate "$tmp/seq/" --cycles 0:20:10 --size 160x120
  [ "$status" -eq 0 ] && [ "$(ls "$tmp/seq" | tr '\n' ' ')" = "frame-00001.png frame-00002.png frame-00003.png " ] \
    && [ "$(png_size "$tmp/seq/frame-00002.png")" = "160 120" ]
  ok $? "--animate DIR/ writes a numbered PNG sequence of 160x120 frames"
  mkdir "$tmp/existing"
  run sim mesh:4x4 --routing dor --animate "$tmp/existing" --cycles 5:5 --size 160x120
  [ "$status" -eq 0 ] && [ -f "$tmp/existing/frame-00001.png" ]
  ok $? "--animate into an existing directory without the slash"

  expect_fail "a range that ends before it starts" "ends (cycle 10) before it starts (cycle 20)" \
    sim mesh:4x4 --routing dor --animate "$tmp/x.gif" --cycles 20:10
  expect_fail "a zero step" "STEP must be at least 1" \
    sim mesh:4x4 --routing dor --animate "$tmp/x.gif" --cycles 0:10:0
  expect_fail "a range that is not one" "FROM:TO" \
    sim mesh:4x4 --routing dor --animate "$tmp/x.gif" --cycles 10
  expect_fail "--animate without --cycles" "--cycles FROM:TO" \
    sim mesh:4x4 --routing dor --animate "$tmp/x.gif"
  expect_fail "--animate to another format" "name a .gif file" \
    sim mesh:4x4 --routing dor --animate "$tmp/x.png" --cycles 0:10
  expect_fail "--picture without --at" "--at CYCLE" \
    sim mesh:4x4 --routing dor --picture "$tmp/x.png"
  expect_fail "--at without --picture" "--at goes with --picture" \
    sim mesh:4x4 --routing dor --at 5
  expect_fail "--fps and --frame-delay together" "give one" \
    sim mesh:4x4 --routing dor --animate "$tmp/x.gif" --cycles 0:1 --fps 5 --frame-delay 5
  expect_fail "a bad size" "WIDTHxHEIGHT" \
    sim mesh:4x4 --routing dor --picture "$tmp/x.png" --at 1 --size 100
  expect_fail "a picture format the drawing lacks" "unknown image format 'bmp'" \
    sim mesh:4x4 --routing dor --picture "$tmp/x.bmp" --at 1
  expect_fail "a picture of the deflection model" "flit-level model" \
    sim torus:4x4 --routing dor --mode deflection --picture "$tmp/x.png" --at 1
  expect_fail "a picture in a missing directory" "cannot write" \
    sim mesh:4x4 --routing dor --picture "$tmp/missing/x.png" --at 1
  [ ! -e "$tmp/x.gif" ] && [ ! -e "$tmp/x.png" ] && [ -z "$(ls "$tmp" | grep '\.tmp$')" ]
  ok $? "refused pictures and animations leave no file behind"
fi

tap_end
