#!/bin/sh
# test-lesson-facts.sh — every figure a shipped lesson states, measured again
# with the engine, so that a lesson cannot drift from what the application
# shows. Each check names the lesson and the step it keeps true.
# Run as test-lesson-facts.sh path/to/flitlab.
. "$(dirname "$0")/cli-lib.sh"

# route_json SPEC ROUTING EXPR: a python expression on d, `flitlab route --json`.
route_json() {
  run route "$1" --routing "$2" --json
  json "$3"
}

# paths SPEC ROUTING A B: the number of paths `route --all` lists from A to B.
paths() {
  run route "$1" --routing "$2" --from "$3" --to "$4" --all
  sed -n 's/^\([0-9]*\) paths\{0,1\} from switch.*/\1/p' "$tmp/out"
}

# ---- turn-model.lesson --------------------------------------------------

for r in dor west-first north-last negative-first odd-even; do
  d=$(route_json mesh:4x4 "$r" "d['deadlock_free'] and d['connected']")
  ok $(( status != 0 )) "turn-model: $r is connected on mesh:4x4"
  [ "$d" = True ]
  ok $? "turn-model: $r is deadlock-free on mesh:4x4"
done

p=$(route_json mesh:4x4 dor "'%d %.3f' % (d['prohibited_turns'], d['pt_mean'])")
[ "$p" = "36 2.250" ]
ok $? "turn-model step 3: dor prohibits 36 turns, PT 2.250 (got $p)"

for r in west-first north-last negative-first odd-even; do
  p=$(route_json mesh:4x4 "$r" "'%d %.3f' % (d['prohibited_turns'], d['pt_mean'])")
  [ "$p" = "18 1.125" ]
  ok $? "turn-model steps 5-6: $r prohibits 18 turns, PT 1.125 (got $p)"
done

# 72 turns: dor forbids exactly half of them (y into x at every switch).
p=$(route_json mesh:4x4 dor "d['prohibited_turns'] * 2")
[ "$p" = 72 ]
ok $? "turn-model step 1: the mesh has 72 turns, twice dor's prohibited ones (got $p)"

count=$(paths mesh:4x4 dor 12 3)
[ "$count" = 1 ]
ok $? "turn-model step 4: dor has one path from 12 to 3 (got $count)"
run route mesh:4x4 --routing dor --from 12 --to 3
grep -q "12 -p[0-9]-> 13 -p[0-9]-> 14 -p[0-9]-> 15 -p[0-9]-> 11 -p[0-9]-> 7 -p[0-9]-> 3" "$tmp/out"
ok $? "turn-model step 4: along x to 15, then along y to 3"
count=$(paths mesh:4x4 west-first 12 3)
[ "$count" = 20 ]
ok $? "turn-model step 6: west-first has 20 paths from 12 to 3 (got $count)"
count=$(paths mesh:4x4 west-first 3 12)
[ "$count" = 1 ]
ok $? "turn-model step 6: and one from 3 to 12 (got $count)"
run route mesh:4x4 --routing west-first --from 3 --to 12
grep -q "3 -p[0-9]-> 2 -p[0-9]-> 1 -p[0-9]-> 0 -p[0-9]-> 4 -p[0-9]-> 8 -p[0-9]-> 12" "$tmp/out"
ok $? "turn-model step 6: west first, 3 to 0, then along y to 12"

tap_end
