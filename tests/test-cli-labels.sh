#!/bin/sh
# test-cli-labels.sh — on a network edited by hand, the node numbers the CLI
# reads (--from, --to, --root, --prohibit) and prints (tables, JSON, the
# --channels file) are labels, the numbers pictures show, not the engine's
# dense ids. TAP output.
#
# usage: test-cli-labels.sh path/to/flitlab
set -u
. "$(dirname "$0")/cli-lib.sh"

# A ring of 6 switches, each with a host, after "switch 1 was deleted" from a
# ring of 7: switch ids 0..5 carry labels 0 and 2..6, hosts ids 6..11 labels
# 7..12. plain.json is the same network without labels (label = id), so each
# answer on edited.json is plain.json's with every node mapped through LAB.
python3 - "$tmp" <<'PY'
import json, sys
lab = [0, 2, 3, 4, 5, 6]
links = [[i, 1, (i + 1) % 6, 0] for i in range(6)] + [[i, 2, 6 + i, 0] for i in range(6)]
for name, labelled in (("edited", True), ("plain", False)):
    nodes = [{"kind": "switch", "ports": 3} for _ in range(6)] + [{"kind": "host"} for _ in range(6)]
    if labelled:
        for i, n in enumerate(nodes):
            n["label"] = lab[i] if i < 6 else 7 + (i - 6)
    json.dump({"format": "flitlab-topology", "version": 2 if labelled else 1,
               "nodes": nodes, "links": links}, open(f"{sys.argv[1]}/{name}.json", "w"))
PY
E=$tmp/edited.json P=$tmp/plain.json
LAB="[0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]"

# keep NAME: saves the last output as $tmp/NAME.out.
keep() { cp "$tmp/out" "$tmp/$1.out"; }
# same EXPR: EXPR over the last two kept outputs e (edited) and p (plain),
# with L the label of each id, prints True.
same() {
  python3 -c "import json; e=json.load(open('$tmp/e.out')); p=json.load(open('$tmp/p.out')); L=$LAB; print($1)"
}

# --- --from / --to ------------------------------------------------------------
run route "$E" --routing shortest --from 2 --to 5 --json
keep e
[ "$status" -eq 0 ] && [ "$(json "(d['from'], d['to'], d['switches'][0], d['switches'][-1])")" = "(2, 5, 2, 5)" ]
ok $? "route --from 2 --to 5 on the edited ring: from, to and the path's ends are 2 and 5"
run route "$P" --routing shortest --from 1 --to 4 --json
keep p
[ "$(same "e['switches'] == [L[x] for x in p['switches']] and e['path'] == [dict(h, switch=L[h['switch']], next_switch=L[h['next_switch']]) for h in p['path']]")" = True ]
ok $? "route --json: the path of ids 1 to 4, every switch printed as its label"
run route "$E" --routing shortest --from 2 --to 5
[ "$status" -eq 0 ] && grep -q "^route from switch 2 to switch 5 by shortest: 3 hops" "$tmp/out" \
  && grep -q "^switches: 2 -p.-> .* -p.-> 5$" "$tmp/out" && ! grep -q "switch 1 " "$tmp/out"
ok $? "route table: the path from 2 to 5 in labels, no switch 1"
run route "$E" --routing shortest --from 6 --to 0 --all --json
[ "$status" -eq 0 ] && [ "$(json "(d['from'], d['to'], d['count'], [q['switches'] for q in d['paths']])")" = "(6, 0, 1, [[6, 0]])" ]
ok $? "route --all --from 6 --to 0: label 6 is id 5, one hop from switch 0"

# --- --root -------------------------------------------------------------------
run route "$E" --routing updown --root 3 --json
keep e
[ "$status" -eq 0 ] && [ "$(json "d['root']")" = 3 ]
ok $? "route --root 3 --json reports root 3"
run route "$P" --routing updown --root 2 --json
keep p
[ "$(same "{k: v for k, v in e.items() if k not in ('root', 'topology')} == {k: v for k, v in p.items() if k not in ('root', 'topology')}")" = True ]
ok $? "--root 3 on the edited ring is --root 2 (its id) on the plain one"
run route "$E" --routing updown --root 3
[ "$status" -eq 0 ] && grep -q "^root  *switch 3$" "$tmp/out"
ok $? "the table says root switch 3"
run route "$E" --routing updown --json
[ "$status" -eq 0 ] && [ "$(json "d['root'] in [0, 2, 3, 4, 5, 6]")" = True ]
ok $? "the automatic root is printed as a label"

# --- --prohibit and turns -------------------------------------------------------
run turns "$E" --routing turnset --prohibit "4:0>1,4:1>0" --json
keep e
[ "$status" -eq 0 ] && [ "$(json "([t['switch'] for t in d['turns']], [s['switch'] for s in d['per_switch']], d['deadlock_free'])")" = "([4, 4], [0, 2, 3, 4, 5, 6], True)" ]
ok $? "turns --prohibit at switch 4: the turns and per_switch name labels"
run turns "$P" --routing turnset --prohibit "3:0>1,3:1>0" --json
keep p
[ "$(same "e['turns'] == [dict(t, switch=L[t['switch']]) for t in p['turns']] and e['pt_mean'] == p['pt_mean']")" = True ]
ok $? "--prohibit 4:... on the edited ring is 3:... (its id) on the plain one"
run turns "$E" --routing turnset --prohibit "4:0>1,4:1>0"
[ "$status" -eq 0 ] && grep -q "^switch    4: 0>1 1>0$" "$tmp/out" && grep -q "^switch    6: none$" "$tmp/out" \
  && ! grep -q "^switch    1:" "$tmp/out"
ok $? "the turns table lists switches 0, 2..6 by label"
run route "$E" --routing turnset --prohibit "4:0>1,4:1>0" --from 3 --to 5 --json
[ "$status" -eq 0 ] && [ "$(json "d['switches']")" = "[3, 2, 0, 6, 5]" ]
ok $? "a route around the turns prohibited at switch 4"

# --- the cycle of a report ------------------------------------------------------
run route "$E" --routing shortest --json
keep e
run route "$P" --routing shortest --json
keep p
[ "$(same "e['cycle'] == p['cycle'] and e['cycle_detail'] == [dict(c, **{'from': L[c['from']], 'to': L[c['to']]}) for c in p['cycle_detail']] and e['cycle_turns'] == [dict(t, switch=L[t['switch']]) for t in p['cycle_turns']]")" = True ]
ok $? "route --json: cycle_detail and cycle_turns name labels"
run route "$E" --routing shortest
[ "$status" -eq 0 ] && grep -q "^dependency cycle  *0>2 2>3 3>4 4>5 5>6 6>0$" "$tmp/out" \
  && grep -q "turns 2:0>1, 3:0>1, 4:0>1, 5:0>1, 6:0>1 and 0:0>1 " "$tmp/out"
ok $? "the table's cycle and its turns are in labels"

# --- sim: --root, the deadlock cycle and --channels -------------------------------
run sim "$E" --routing shortest --vcs 1 --rate 0.9 --packet 8 --json --channels "$tmp/ch.csv"
[ "$status" -eq 0 ] && [ "$(json "(d['status'], sorted(a for a, b in d['cycle_nodes']))")" = "('deadlock', [0, 2, 3, 4, 5, 6])" ]
ok $? "sim --json: cycle_nodes are labels"
python3 - "$tmp/ch.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
nodes = {int(r[k]) for r in rows for k in ("from", "to")}
sys.exit(not (nodes == {0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
              and [(r["from"], r["to"]) for r in rows[:2]] == [("0", "2"), ("2", "0")]))
PY
ok $? "sim --channels: the from and to columns are labels"
run sim "$E" --routing updown --root 6 --rate 0.05 --json
[ "$status" -eq 0 ] && [ "$(json "d['status']")" = ok ]
ok $? "sim --root 6 takes a label (the last switch's, id 5)"

# --- labels that name no switch are refused, exit status 2 ------------------------
refused() {
  desc=$1 pattern=$2
  shift 2
  expect_fail "$desc" "$pattern" "$@"
  [ "$status" -eq 2 ]
  ok $? "$desc: exit status 2 (was $status)"
}
refused "--from 1 (deleted)" "--from 1: no node is numbered 1" \
  route "$E" --routing shortest --from 1 --to 5
refused "--to 1 (deleted)" "--to 1: no node is numbered 1" \
  route "$E" --routing shortest --from 2 --to 1
refused "--root 1 (deleted)" "--root 1: no node is numbered 1" \
  route "$E" --routing updown --root 1
refused "--prohibit at switch 1 (deleted)" "--prohibit 1: no node is numbered 1" \
  turns "$E" --routing turnset --prohibit "4:0>1,1:0>1"
refused "sim --root 1 (deleted)" "--root 1: no node is numbered 1" \
  sim "$E" --routing updown --root 1
refused "--root 7 (a host's label)" "--root 7: node 7 is a host, not a switch" \
  route "$E" --routing updown --root 7
refused "--from 12 (a host's label)" "--from 12: node 12 is a host" \
  route "$E" --routing shortest --from 12 --to 0
refused "--prohibit at a host's label" "--prohibit 9: node 9 is a host" \
  route "$E" --routing turnset --prohibit "9:0>0"
refused "--to 13 (past every label)" "--to 13: no node is numbered 13" \
  route "$E" --routing shortest --from 0 --to 13
refused "a generated network keeps its message" "--from 99: no such node (the network has nodes 0 to 31)" \
  route ring:16 --routing shortest --from 99 --to 0

# --- the engine's own messages name switches by label too -------------------------
expect_fail "a bad turn names its switch by label (4, id 3)" "(4: 0 -> 7): switch 4 has ports 0 to" \
  route "$E" --routing turnset --prohibit "4:0>7"

tap_end
