#!/bin/sh
# test-lesson-facts.sh — every number the shipped lessons state, measured again.
# Each fact re-runs the measurement on the lesson's network and settings and
# checks both the value and that the lesson still states it, so an engine
# change or a lesson edit that makes a lesson wrong fails here.
# The figures are read from the tables the CLI prints, rounded as the
# application shows them. Run as test-lesson-facts.sh path/to/flitlab.
. "$(dirname "$0")/cli-lib.sh"
src=${FLITLAB_SOURCE_DIR:-.}
lessons=$src/data/lessons

# The lessons' text with white space collapsed, as the reader collapses it.
for f in "$lessons"/*.lesson; do
  tr -s ' \n\t' '   ' <"$f" >"$tmp/$(basename "$f" .lesson).txt"
done

# fact LESSON DESCRIPTION EXPECTED ACTUAL [TEXT]: ACTUAL (measured) must be
# EXPECTED, and the lesson must contain TEXT (EXPECTED when not given).
fact() {
  text=${5:-$3}
  if [ "$3" != "$4" ]; then
    ok 1 "$1: $2: the lesson says $3, measured '$4'"
  elif ! grep -qF -- "$text" "$tmp/$1.txt"; then
    ok 1 "$1: $2: the lesson no longer says '$text'"
  else
    ok 0 "$1: $2 = $3"
  fi
}

# says LESSON DESCRIPTION TEXT: the lesson states TEXT, a figure measured by
# an earlier fact.
says() {
  grep -qF -- "$3" "$tmp/$1.txt"
  ok $? "$1: $2: says '$3'"
}

# val NAME: the value column of the row NAME of the last table flitlab printed.
val() {
  sed -n "s/^$1   *//p" "$tmp/out" | head -1
}

# hops: the hops of the route the last `run route ... --from --to` took.
hops() {
  head -1 "$tmp/out" | sed -n 's/.*: \([0-9]*\) hops\{0,1\}$/\1/p'
}

# --- topologies: torus against XMESH and DMESH -----------------------------
L=topologies
run topo metrics torus:6x12
fact $L "torus:6x12 switches, hosts, links" "72 72 144" "$(val switches) $(val hosts) $(val links)" \
  "72 switches, 72 hosts and 144 links"
fact $L "torus:6x12 degree" "4 .. 4" "$(val "switch degree")" "the degree is 4 .. 4"
fact $L "torus:6x12 diameter" 9 "$(val diameter)" "9 on this torus"
fact $L "torus:6x12 mean distance" 4.563380 "$(val "mean distance")" "4.563380 hops"
fact $L "torus:6x12 bisection" 12 "$(val "bisection width" | cut -d' ' -f1)" \
  "the torus has a bisection width of 12"
torus_bound=$(val "throughput bound" | cut -d' ' -f1)
fact $L "torus:6x12 throughput bound" 31.5556 "$torus_bound" "31.5556 messages per unit time on the torus (144 / 4.563380)"
run topo metrics torus:8x8
fact $L "torus:8x8 diameter" 8 "$(val diameter)" "8 for the 8x8 torus"
run route torus:6x12 --routing dor --from 0 --to 39
fact $L "torus:6x12 route 0 to 39" 9 "$(hops)" "3 + 6 = 9"
run topo metrics xmesh:6x12
fact $L "xmesh:6x12 switches, links, degree" "72 144 4 .. 4" \
  "$(val switches) $(val links) $(val "switch degree")" "72 switches, 144 links, degree 4 .. 4"
fact $L "xmesh:6x12 diameter" 6 "$(val diameter)" "the diameter is 6"
fact $L "xmesh:6x12 mean distance" 3.661972 "$(val "mean distance")" "mean distance 3.661972 hops"
fact $L "xmesh:6x12 bisection" 24 "$(val "bisection width" | cut -d' ' -f1)" "the XMESH of 24"
xmesh_bound=$(val "throughput bound" | cut -d' ' -f1)
fact $L "xmesh:6x12 throughput bound" 39.3231 "$xmesh_bound" "39.3231 on the XMESH (144 / 3.661972)"
fact $L "xmesh over torus bound" 1.246 "$(awk "BEGIN { printf \"%.3f\", $xmesh_bound / $torus_bound }")" \
  "39.3231 / 31.5556 = 1.246"
run route xmesh:6x12 --routing xmesh --from 0 --to 39
fact $L "xmesh:6x12 route 0 to 39" 3 "$(hops)" "3 hops. Each cross link"
# odd SPEC "DIAMETER MEAN-DISTANCE" BOUND BISECTION TEXT: torus:5x11 and dmesh:5x11.
odd() {
  run topo metrics "$1"
  fact $L "$1 switches, links" "55 110" "$(val switches) $(val links)" "55 switches and 110 links"
  fact $L "$1 diameter, mean distance" "$2" "$(val diameter) $(val "mean distance")" "$5"
  fact $L "$1 throughput bound" "$3" "$(val "throughput bound" | cut -d' ' -f1)" \
    "27.5000 against 31.2632"
  fact $L "$1 bisection (METIS)" "$4 (upper bound from METIS)" "$(val "bisection width")" \
    "METIS, 12 for the torus and 20 for the DMESH"
}
odd torus:5x11 "7 4.000000" 27.5000 12 "The torus has diameter 7 and mean distance 4.000000"
odd dmesh:5x11 "5 3.518519" 31.2632 20 "the DMESH diameter 5 and mean distance 3.518519"
run topo metrics torus:7x7
grep -v '^topology' "$tmp/out" >"$tmp/torus7"
fact $L "torus:7x7 diameter, mean distance" "6 3.500000" "$(val diameter) $(val "mean distance")" \
  "diameter 6, mean distance 3.500000"
run topo metrics dmesh:7x7
grep -v '^topology' "$tmp/out" | cmp -s - "$tmp/torus7"
fact $L "dmesh:7x7 measures as torus:7x7" 0 $? "every metric is the same"

# --- turn-model: the turn model on mesh:5x5 --------------------------------
L=turn-model
run route mesh:5x5 --routing shortest
fact $L "shortest: the cycle" "0>1 1>6 6>5 5>0" "$(val "dependency cycle")" "0→1, 1→6, 6→5 and 5→0"
fact $L "shortest: cycle length" \
  "no: the channel dependency graph has a cycle of 4 channels" "$(val deadlock-free)" \
  "a cycle of 4 channels"
fact $L "shortest: the cycle's turns" "1:1>2, 6:3>1, 5:0>3 and 0:2>0" \
  "$(sed -n 's/^The cycle closes through the turns \(.*\) (SWITCH.*/\1/p' "$tmp/out")" \
  "east to south at switch 1, south to west at 6, west to north at 5 and north to east at 0"
for r in dor west-first north-last negative-first; do
  run route mesh:5x5 --routing $r
  fact $L "$r: deadlock-free, hops" "yes 3.3333 8" \
    "$(val deadlock-free | cut -d: -f1) $(val "average hops" | cut -d' ' -f1) $(val "maximum hops")" \
    "3.3333 hops on average and at most 8"
  case $r in
    dor) want="64 2.560" text="64 prohibited turns, PT 2.560" at12=4 ;;
    *) want="32 1.280" text="32, PT 1.280" at12=2 ;;
  esac
  fact $L "$r: prohibited turns, PT" "$want" \
    "$(val "prohibited turns" | sed 's/^\([0-9]*\) in all; PT \([0-9.]*\) .*/\1 \2/')" "$text"
  run turns mesh:5x5 --routing $r
  fact $L "$r: prohibited turns at switch 12" $at12 \
    "$(awk '$1 == "switch" && $2 == "12:" { print NF - 2 }' "$tmp/out")" "At switch 12"
done
says $L "north-last and negative-first" "Both prohibit 32 turns, PT 1.280 per switch"
paths() {
  run route mesh:5x5 --routing "$1" --from "$2" --to "$3" --all
  head -1 "$tmp/out" | cut -d' ' -f1
}
fact $L "dor paths 0 to 24" 1 "$(paths dor 0 24)" "One: four hops east, then four hops south"
fact $L "west-first paths 0 to 24" 70 "$(paths west-first 0 24)" "all 70 shortest paths are legal"
fact $L "west-first paths 24 to 0" 1 "$(paths west-first 24 0)" "From 24 to 0 only one"
fact $L "negative-first paths 24 to 0" 70 "$(paths negative-first 24 0)" "Negative-first: all 70"
fact $L "north-last paths 24 to 0" 1 "$(paths north-last 24 0)" \
  "West-first and north-last allow one path"
# Glass and Ni's count: one clockwise and one counterclockwise turn prohibited
# at every switch, 16 ways; which ones leave the mesh connected and deadlock-free.
python3 - "$FLITLAB" >"$tmp/turns" <<'EOF'
import json, subprocess, sys
E, W, S, N = 0, 1, 2, 3     # the ports that lead east, west, south, north
cw = [(E, S), (S, W), (W, N), (N, E)]
ccw = [(E, N), (N, W), (W, S), (S, E)]
k = 5
good, bad = 0, []
for a in cw:
    for b in ccw:
        turns = []
        for y in range(k):
            for x in range(k):
                ports = {p for p, c in ((E, x < k - 1), (W, x > 0), (S, y < k - 1), (N, y > 0)) if c}
                for frm, to in (a, b):
                    if frm ^ 1 in ports and to in ports:   # arrives on the port opposite its travel
                        turns.append("%d:%d>%d" % (x + k * y, frm ^ 1, to))
        out = subprocess.run([sys.argv[1], "route", "mesh:5x5", "--routing", "turnset",
                              "--prohibit", ",".join(turns), "--json"],
                             capture_output=True, text=True, check=True).stdout
        d = json.loads(out)
        if d["connected"] and d["deadlock_free"]:
            good += 1
        else:
            bad.append(a == (b[1], b[0]))               # a turn and its mirror
print(good, len(bad), all(bad))
EOF
fact $L "turn model: deadlock-free choices" "12 4 True" "$(cat "$tmp/turns")" \
  "16 ways of prohibiting one clockwise and one counterclockwise turn: 12 are deadlock-free. The 4 that fail prohibit a turn and its mirror"

# --- irregular: up*/down* against L-turn ----------------------------------
L=irregular
irr=irregular:16,ports=4,hosts=1,seed=2
run topo metrics $irr
fact $L "diameter and mean distance" "3 1.941667" "$(val diameter) $(val "mean distance")" \
  "a diameter of 3 and a mean distance of 1.941667"
fact $L "16 switches of degree 4" "16 4 .. 4" "$(val switches) $(val "switch degree")" \
  "16 switches, each with 4 links"
route_facts() {
  run route $irr --routing "$1"
  echo "$(val root) | $(val "prohibited turns") | $(val "average hops") | $(val "maximum hops")" \
    "| $(val "channel load" | cut -d, -f1) | $(val "throughput bound" | cut -d' ' -f1)"
}
fact $L "updown: root, turns, hops, load, bound" \
  "switch 1 | 56 in all; PT 3.500 per switch, SDPT 4.500, PPT 28 | 2.1500 (breadth-first 1.9417, stretch 1.1073) | 5 | max 27 | 0.5556" \
  "$(route_facts updown)" "prohibits 56 turns in all"
says $L "updown: PT and SDPT" "3.500 here, and SDPT, its standard deviation, 4.500"
says $L "updown: PPT" "PPT counts them: 28 for up*/down*"
fact $L "lturn-alpha: root, turns, hops, load, bound" \
  "switch 1 | 51 in all; PT 3.188 per switch, SDPT 2.698, PPT 7 | 2.1208 (breadth-first 1.9417, stretch 1.0923) | 5 | max 24 | 0.6250" \
  "$(route_facts lturn-alpha)" "L-turn prohibits 51 turns: PT 3.188, SDPT 2.698, PPT 7"
says $L "path lengths" \
  "the average is 2.1500 hops under up*/down* and 2.1208 under L-turn, against a breadth-first mean distance of 1.9417; both reach 5 hops at most"
says $L "channel load and bound" \
  "27 ordered switch pairs under up*/down*, 24 under L-turn. The throughput bound of the routing follows: 0.5556 and 0.6250"
run turns $irr --routing updown
fact $L "updown: switches with all 12 turns prohibited" "5 7 15" \
  "$(awk '$1 == "switch" && NF == 14 { sub(":", "", $2); printf "%s%s", sep, $2; sep = " " }' "$tmp/out")" \
  "switches 5, 7 and 15 have all 12 of their turns"
fact $L "updown: the root has none" none \
  "$(awk '$1 == "switch" && $2 == "1:" { print $3 }' "$tmp/out")" \
  "switch 1, the root, and many others have none"
run route $irr --routing updown --from 7 --to 10
fact $L "updown route 7 to 10" 2 "$(hops)" "2 hops under up*/down*, 5 under L-turn"
run route $irr --routing lturn-alpha --from 7 --to 10
fact $L "lturn-alpha route 7 to 10" 5 "$(hops)" "2 hops under up*/down*, 5 under L-turn"
irr_sim() {
  run sim $irr --routing "$1" --vcs 1 --buf 8 --switching vct --packet 8 --rate "$2" \
    --warmup 1000 --measure 5000 --seed 1
  echo "$(val status) $(val latency | cut -d' ' -f1) $(val accepted | cut -d' ' -f1)"
}
fact $L "updown at 0.4" "ok 31.65" "$(irr_sim updown 0.4 | cut -d' ' -f1-2)" \
  "the average latency is 31.65"
fact $L "lturn-alpha at 0.4" "ok 26.11" "$(irr_sim lturn-alpha 0.4 | cut -d' ' -f1-2)" \
  "With lturn-alpha it is 26.11"
fact $L "updown at 0.5" "saturated 0.4631" "$(irr_sim updown 0.5 | cut -d' ' -f1,3)" \
  "up*/down* is saturated (it accepts 0.4631"
fact $L "lturn-alpha at 0.5" "ok 0.4797" "$(irr_sim lturn-alpha 0.5 | cut -d' ' -f1,3)" \
  "L-turn is still ok, accepting 0.4797"

# --- wormhole-vct ----------------------------------------------------------
L=wormhole-vct
run route mesh:4x4 --routing dor --from 0 --to 15
fact $L "dor route 0 to 15" "0 1 2 3 7 11 15" \
  "$(sed -n 's/^switches: //p' "$tmp/out" | sed 's/ -p[0-9]*->//g')" \
  "0→1, 1→2, 2→3, then 3→7, 7→11 and 11→15"
wv_sim() {
  run sim mesh:4x4 --routing dor --vcs 1 --switching "$1" --buf "$2" --packet 16 --rate "$3" \
    --warmup 1000 --measure 5000 --seed 1
  echo "$(val status) $(val latency | cut -d' ' -f1) $(val accepted | cut -d' ' -f1)"
}
fact $L "wormhole, 4 flits, 0.4" "ok 78.07" "$(wv_sim wormhole 4 0.4 | cut -d' ' -f1-2)" \
  "the status is ok, and the average latency is 78.07 cycles"
fact $L "wormhole, 4 flits, 0.1" 22.21 "$(wv_sim wormhole 4 0.1 | cut -d' ' -f2)" \
  "At 0.1 it is 22.21 cycles"
fact $L "wormhole, 4 flits, 0.5" "saturated 0.4629" "$(wv_sim wormhole 4 0.5 | cut -d' ' -f1,3)" \
  "the status is saturated. The network accepts only 0.4629"
fact $L "wormhole, 4 flits, 0.3" 37.61 "$(wv_sim wormhole 4 0.3 | cut -d' ' -f2)" \
  "with buffers of 4 it was 37.61"
fact $L "vct, 16 flits, 0.4" 63.36 "$(wv_sim vct 16 0.4 | cut -d' ' -f2)" \
  "At 0.4 the average latency is 63.36 cycles, against 78.07 under wormhole"
fact $L "vct, 16 flits, 0.5" "ok 215.68 0.4779" "$(wv_sim vct 16 0.5)" \
  "the average latency is 215.68 cycles and the network accepts 0.4779"
fact $L "vct, 16 flits, 0.1" 22.49 "$(wv_sim vct 16 0.1 | cut -d' ' -f2)" "22.49 cycles at 0.1"
fact $L "vct, 16 flits, 0.3" 36.09 "$(wv_sim vct 16 0.3 | cut -d' ' -f2)" \
  "Under vct with the same buffers it is 36.09"
fact $L "wormhole, 16 flits, 0.3" 31.55 "$(wv_sim wormhole 16 0.3 | cut -d' ' -f2)" \
  "the average latency is 31.55"
expect_fail "$L: vct refuses buffers of 4 flits for packets of 16" "needs room for a whole packet" \
  sim mesh:4x4 --routing dor --vcs 1 --switching vct --buf 4 --packet 16 --rate 0.4

# --- saturation ------------------------------------------------------------
L=saturation
run sweep mesh:4x4 --routing dor --vcs 2 --buf 8 --packet 4 --warmup 1000 --measure 5000 \
  --seed 1 --rates 0.05:1:0.05 -f csv
cp "$tmp/out" "$tmp/sweep"
# point RATE: "status latency throughput" of the sweep's row at RATE.
point() {
  awk -F, -v r="$1" '$1 == r { printf "%s %.2f %.4f", $2, $3, $7 }' "$tmp/sweep"
}
fact $L "latency at 0.05" 7.97 "$(point 0.05 | cut -d' ' -f2)" "7.97 cycles at 0.05"
fact $L "latency at 0.3" 10.92 "$(point 0.3 | cut -d' ' -f2)" "10.92 at 0.3"
fact $L "latency at 0.5" 15.91 "$(point 0.5 | cut -d' ' -f2)" "15.91 at 0.5"
fact $L "latency at 0.6" 22.24 "$(point 0.6 | cut -d' ' -f2)" "22.24 at 0.6"
fact $L "latency at 0.65" 31.44 "$(point 0.65 | cut -d' ' -f2)" "31.44 at 0.65"
fact $L "latency and throughput at 0.7" "ok 57.74 0.6921" "$(point 0.7)" "57.74 at 0.7"
says $L "throughput at 0.7" "up to 0.7 (0.6921 flits per cycle per host)"
fact $L "saturated at 0.75" "saturated 236.64 0.7020" "$(point 0.75)" "is 236.64 cycles"
says $L "saturation throughput" "at an offered load of 0.75 the network accepts only 0.7020"
fact $L "the sweep stops at 0.75" 0.75 "$(tail -1 "$tmp/sweep" | cut -d, -f1)" \
  "does not run the rates above 0.75"
# The same sweep as an experiment, as the Experiments tab runs it.
run project new "$tmp/sat.flitlab"
run experiment new "$tmp/sat.flitlab" sat --topology mesh:4x4 --routing dor --vcs 2 --buf 8 \
  --packet 4 --warmup 1000 --measure 5000 --seed 1 --vary rate=0.05:1:0.05
run experiment run "$tmp/sat.flitlab" sat
run experiment export "$tmp/sat.flitlab" sat
fact $L "the experiment stops the rates above 0.75" "0.75 0.80" \
  "$(awk -F, '$2 == "done" { d = $4 } $2 == "stopped" && s == "" { s = $4 } END { print d, s }' "$tmp/out")" \
  "the higher rates are recorded as stopped"
run sim mesh:4x4 --routing dor --vcs 2 --buf 8 --packet 4 --rate 0.3 --warmup 1000 \
  --measure 5000 --seed 1
fact $L "one run at 0.3" "ok 10.92" "$(val status) $(val latency | cut -d' ' -f1)" \
  "the status is ok, the mean packet latency 10.92 cycles"
run sim mesh:4x4 --routing dor --vcs 2 --buf 8 --packet 4 --rate 0.6 --warmup 1000 \
  --measure 5000 --seed 1
fact $L "one run at 0.6" 22.24 "$(val latency | cut -d' ' -f1)" "Now try 0.6: 22.24 cycles"
run route mesh:4x4 --routing dor
fact $L "routing's throughput bound" 0.9375 "$(val "throughput bound" | cut -d' ' -f1)" \
  "0.9375 flits per cycle per switch"
fact $L "channel load" "max 16, mean 13.33" "$(val "channel load" | cut -d' ' -f1-4)" \
  "16 ordered pairs of switches (13.33 on average)"
fact $L "saturation over the bound" "75 %" "$(awk 'BEGIN { printf "%d %%", 100 * 0.7020 / 0.9375 + 0.5 }')" \
  "0.7020, 75 % of the bound"

# --- deflection -------------------------------------------------------------
L=deflection
# dfl SPEC ROUTING NMSG [PRIORITY]: "throughput mean-delay max-delay deflections".
dfl() {
  run sim "$1" --routing "$2" --mode deflection --nmsg "$3" --priority "${4:-age}" --cycles 1000 \
    --seed 1
  echo "$(val throughput | cut -d' ' -f1) $(val delay | sed 's/^\([0-9]*\)\.00 max, \([0-9.]*\) mean.*/\2 \1/')" \
    "$(val delivered | sed 's/.*(\([0-9]*\) deflections)/\1/')"
}
little() {
  awk -v t="$(echo "$1" | cut -d' ' -f1)" -v d="$(echo "$1" | cut -d' ' -f2)" \
    'BEGIN { printf "%d", t * d + 0.5 }'
}
x1=$(dfl xmesh:6x12 xmesh 1)
fact $L "xmesh, 1 message per node" "0.2479 4.018 9 3334" "$x1" \
  "throughput 0.2479 messages per cycle per node"
says $L "xmesh, 1: delay and deflections" \
  "average delay 4.018 cycles, maximum delay 9 cycles, and 3334 deflections"
fact $L "xmesh, 1: throughput times delay" 1 "$(little "$x1")" "0.2479 x 4.018 is about 1"
x4=$(dfl xmesh:6x12 xmesh 4)
fact $L "xmesh, 4 messages per node" "0.5957 6.714 15 47834" "$x4" \
  "throughput 0.5957, average delay 6.714 cycles, maximum delay 15, and 47834 deflections"
fact $L "xmesh, 4: throughput times delay" 4 "$(little "$x4")" "0.5957 x 6.714 is about 4"
fact $L "torus:6x12 shortest, 4" "0.4777 8.381 19 48779" "$(dfl torus:6x12 shortest 4)" \
  "throughput 0.4777, average delay 8.381, maximum delay 19"
fact $L "torus:6x12 dor, 4" "0.3954 77846" "$(dfl torus:6x12 dor 4 | cut -d' ' -f1,4)" \
  "falls to 0.3954, with 77846 deflections against 48779 under shortest"
fact $L "torus:5x11 shortest, 4" "0.5274 7.572" "$(dfl torus:5x11 shortest 4 | cut -d' ' -f1-2)" \
  "the torus gives throughput 0.5274 and average delay 7.572"
fact $L "dmesh:5x11 dmesh, 4" "0.6349 6.271" "$(dfl dmesh:5x11 dmesh 4 | cut -d' ' -f1-2)" \
  "DMESH 0.6349 and 6.271"
fact $L "priority random" 50 "$(dfl xmesh:6x12 xmesh 4 random | cut -d' ' -f3)" \
  "random: maximum delay 50"
fact $L "priority age" 15 "$(echo "$x4" | cut -d' ' -f3)" "age: 15"
fact $L "priority path_num" "0.6463 35" "$(dfl xmesh:6x12 xmesh 4 path_num | cut -d' ' -f1,3)" \
  "the best throughput, 0.6463, but a maximum delay of 35"
fact $L "priority age+path_num" "0.6046 16" "$(dfl xmesh:6x12 xmesh 4 age+path_num | cut -d' ' -f1,3)" \
  "throughput 0.6046, maximum delay 16"
says $L "mean distances" \
  "3.518519 hops on the DMESH against 4.000000 on the torus, 3.661972 on the XMESH against 4.563380"

tap_end
