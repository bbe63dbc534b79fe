#!/bin/sh
# test-cli-experiment.sh — `flitlab experiment` end to end: define, list,
# show, count, run, resume, export (scalars and vectors) and delete a small
# experiment in a project file; its results equal `flitlab sim`'s; bad
# definitions are refused. Usage: test-cli-experiment.sh path/to/flitlab
. "$(dirname "$0")/cli-lib.sh"

# A python expression on the last output's JSON must be True.
check() {
  [ "$(json "$1")" = "True" ]
  ok $? "$2"
}

P="$tmp/p.flitlab"
SHORT="--set warmup=200 --set measure=500"
run project new "$P"
ok $status "project new"

# ---- new, ls, show, status ------------------------------------------------

run experiment new "$P" small --topology mesh:4x4 $SHORT --vary rate=0.05,0.1 \
  --vary routing=dor,updown --seeds 1:2
ok $status "experiment new: 2 rates x 2 routings x 2 seeds"
grep -q "8 runs" "$tmp/out"
ok $? "experiment new says it has 8 runs"

# The options of sim and the routing's as flags, as --set writes them.
run project new "$tmp/flags.flitlab"
run experiment new "$tmp/flags.flitlab" flags --topology torus:4x4 --warmup 200 --measure 500 \
  --routing updown --root 5 --vcs 2 --self --vary rate=0.05,0.1
ok $status "experiment new with options of sim as flags"
run experiment show "$tmp/flags.flitlab" flags --json
check "all(l in d['design'].splitlines() for l in ['set warmup=200', 'set measure=500',
  'set routing=updown', 'set root=5', 'set vcs=2', 'set self=true'])" \
  "the flags are the design's base settings"
run experiment new "$tmp/flags.flitlab" bad --topology torus:4x4 --rate 2 --vary packet=1,2
[ $status -eq 2 ] && grep -q "rate" "$tmp/err"
ok $? "a flag's bad value is refused naming it"

# A design some run of which cannot run is refused when it is made, naming
# the run and its values, and nothing is kept.
run experiment new "$tmp/flags.flitlab" unfit --topology ring:8 --vary routing=updown,west-first
[ $status -eq 2 ] && grep -q "the design cannot run: run 1 (routing=west-first): west-first" \
  "$tmp/err"
ok $? "a routing the network does not take is refused at experiment new"
run experiment show "$tmp/flags.flitlab" unfit
[ $status -eq 1 ] && grep -q "has no experiment named 'unfit'" "$tmp/err"
ok $? "and no experiment is kept"

# A note, kept, changed, removed.
run experiment new "$tmp/flags.flitlab" noted --topology mesh:4x4 --vary rate=0.1 \
  --note "first try"
run experiment show "$tmp/flags.flitlab" noted --json
check "d['note'] == 'first try'" "experiment new --note keeps it"
run experiment note "$tmp/flags.flitlab" noted "rates past 0.4 next"
run experiment show "$tmp/flags.flitlab" noted --json
check "d['note'] == 'rates past 0.4 next'" "experiment note changes it"
run experiment note "$tmp/flags.flitlab" noted ""
run experiment show "$tmp/flags.flitlab" noted --json
check "d['note'] is None" "an empty note removes it"

run experiment ls "$P" --json
check "len(d) == 1 and d[0]['name'] == 'small' and d[0]['runs'] == 8
  and d[0]['done'] == 0 and d[0]['topology'] == 'mesh:4x4' and d[0]['damaged'] is None" \
  "experiment ls --json"

run experiment show "$P" small --json
check "d['total'] == 8 and d['missing'] == 8 and [p['key'] for p in d['params']]
  == ['rate', 'routing'] and d['params'][1]['values'] == ['dor', 'updown']
  and 'seeds 1:2' in d['design']" "experiment show --json: design and counts"

run experiment status "$P" small --json
check "d == {'total': 8, 'done': 0, 'failed': 0, 'stopped': 0, 'missing': 8, 'running': 0}" \
  "experiment status --json before running"

# ---- run, export ----------------------------------------------------------

run experiment run "$P" small --jobs 2
ok $status "experiment run"
grep -q "^experiment small: 8/8 runs (0 running)$" "$tmp/err"
ok $? "experiment run reports its progress on stderr"
grep -q "^experiment small: [1-7]/8 runs ([0-2] running), about [0-9]* s left$" "$tmp/err"
ok $? "experiment run estimates the time left"

run experiment status "$P" small --json
check "d == {'total': 8, 'done': 8, 'failed': 0, 'stopped': 0, 'missing': 0, 'running': 0}" \
  "experiment status --json after running"

run experiment export "$P" small --format csv
ok $status "experiment export --format csv"
head -1 "$tmp/out" | grep -q "^idx,status,seed,rate,routing,latency_avg,.*,channel_utilization_avg$"
ok $? "the CSV's header: idx, status, seed, parameters, scalars"
[ "$(wc -l <"$tmp/out")" -eq 9 ]
ok $? "the CSV has one row per run"
sed -n 2p "$tmp/out" | grep -q "^0,done,1,0.05,dor,"
ok $? "run 0: rate 0.05, dor, seed 1"

run experiment export "$P" small --format json -o "$tmp/small.json"
ok $status "experiment export --format json -o FILE"
cp "$tmp/small.json" "$tmp/out"
check "len(d['runs']) == 8 and [r['idx'] for r in d['runs']] == list(range(8))
  and d['runs'][7] ['routing'] == 'updown' and d['runs'][7]['seed'] == 2
  and d['runs'][7]['rate'] == 0.1 and all(r['status'] == 'done' for r in d['runs'])" \
  "export JSON: every run with its parameters and seed"

# Run 6 is rate 0.1, updown, seed 1: the same as `flitlab sim` with them.
run sim mesh:4x4 --routing updown --rate 0.1 --seed 1 --warmup 200 --measure 500 --json
mv "$tmp/out" "$tmp/sim.json"
python3 - "$tmp/sim.json" "$tmp/small.json" <<'PY'
import json, sys
sim = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))['runs'][6]
keys = [k for k, v in sim.items() if isinstance(v, (int, float)) and k != 'wall_s']
bad = [k for k in keys if abs(run[k] - sim[k]) > 1e-9 * max(1, abs(sim[k]))]
sys.exit(1 if bad or len(keys) < 15 else 0)
PY
ok $? "run 6's scalars equal flitlab sim's with the same settings and seed"

# ---- vectors ----------------------------------------------------------------

run experiment vectors "$P" small --run 6 --format json
ok $status "experiment vectors --run 6 --format json"
mv "$tmp/out" "$tmp/vectors.json"
# 700 cycles of warm-up and measurement: a sample every 5 cycles; those of
# the window [200, 700) average to the throughput.
python3 - "$tmp/vectors.json" "$tmp/small.json" <<'PY'
import json, sys
vectors = {v['name']: v for v in json.load(open(sys.argv[1]))['vectors']}
run = json.load(open(sys.argv[2]))['runs'][6]
acc = vectors['accepted']
window = acc['data'][40:140]
ok = (acc['step'] == 5 and acc['by'] == 'cycle' and acc['routing'] == 'updown'
      and abs(sum(window) / 100 - run['throughput']) < 1e-12
      and vectors['channel_utilization']['by'] == 'channel'
      and len(vectors['vc_occupancy']['data']) == 2 * len(vectors['channel_utilization']['data'])
      and max(vectors['channel_utilization']['data']) == run['channel_utilization_max'])
sys.exit(0 if ok and len(vectors) == 6 else 1)
PY
ok $? "run 6's samples over the window average to its throughput; per channel, its busiest"
run experiment vectors "$P" small --vector latency
head -1 "$tmp/out" | grep -q "^idx,seed,rate,routing,vector,index,cycle,value$" \
  && [ "$(cut -d, -f5 "$tmp/out" | sort -u | tr '\n' ' ')" = "latency vector " ] \
  && [ "$(cut -d, -f1 "$tmp/out" | sort -u | wc -l)" -eq 9 ]
ok $? "experiment vectors --vector latency: one name, every run, as CSV"
expect_fail "an unknown vector" "no vector is called 'speed'" \
  experiment vectors "$P" small --vector speed
expect_fail "a run outside the design" "runs 0 to 7, not 8" \
  experiment vectors "$P" small --run 8

# ---- a second run, resume ---------------------------------------------------

run experiment run "$P" small
ok $status "a second experiment run succeeds"
grep -q "nothing to run" "$tmp/err"
ok $? "a second experiment run runs nothing"

python3 - "$P" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA foreign_keys = ON")
db.execute("DELETE FROM run WHERE idx = 5")
db.commit()
PY
ok $? "delete run 5 by SQL"
run experiment status "$P" small --json
check "d['done'] == 7 and d['missing'] == 1" "status counts run 5 missing"
run experiment resume "$P" small
ok $status "experiment resume"
[ "$(grep -c " runs (" "$tmp/err")" -eq 2 ] && head -1 "$tmp/err" | grep -q " 7/8 runs" \
  && tail -1 "$tmp/err" | grep -q " 8/8 runs"
ok $? "resume runs exactly the missing run"
run experiment export "$P" small --format json
python3 -c "
import json, sys
a = json.load(open('$tmp/small.json'))['runs'][5]
b = json.load(open('$tmp/out'))['runs'][5]
sys.exit(0 if all(a[k] == b[k] for k in a if k not in ('wall_s',)) else 1)"
ok $? "the resumed run's results equal the first ones"

# ---- past saturation ------------------------------------------------------

run experiment new "$P" sat --topology mesh:4x4 $SHORT --vary rate=0.05,0.9,0.95
ok $status "experiment new sat"
run experiment run "$P" sat
run experiment status "$P" sat --json
check "d['done'] == 2 and d['stopped'] == 1" "a run past saturation's successor is stopped"

# ---- a project's own topology, a kill, resume --------------------------------

run project add "$P" mesh:4x4 --name m
# Runs of about 0.1 s each: long enough for the kill to come while most are
# missing, even on a busy machine.
run experiment new "$P" killed --topology "#m" --set warmup=200 --set measure=150000 \
  --vary rate=0.05,0.1 --seeds 1:20
ok $status "experiment new on the project's topology #m"
"$FLITLAB" experiment run "$P" killed --jobs 1 2>/dev/null &
pid=$!
# Another process sees the run in progress.
seen=0
for i in $(seq 50); do
  "$FLITLAB" experiment status "$P" killed --json >"$tmp/out" 2>/dev/null
  [ "$(json "d['running']")" = "1" ] && { seen=1; break; }
  sleep 0.1
done
ok $((1 - seen)) "experiment status from another process counts the run in progress"
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
run experiment status "$P" killed --json
check "d['running'] == 0" "after kill -9 the killed process's claim is not counted as running"
check "d['missing'] > 0" "the kill came while runs were missing"
run experiment status "$P" killed
grep -q "missing (0 running)" "$tmp/out"
ok $? "experiment status says how many runs are running"
python3 - "$P" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ok = db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
# Every committed run has all its scalars.
bad = db.execute("""SELECT count(*) FROM run r WHERE r.status = 'done' AND (SELECT count(*)
  FROM scalar s WHERE s.experiment_id = r.experiment_id AND s.idx = r.idx) < 15""").fetchone()[0]
sys.exit(0 if ok and bad == 0 else 1)
PY
ok $? "after kill -9: integrity_check ok, every done run complete"
run experiment resume "$P" killed --jobs 2
run experiment status "$P" killed --json
check "d['total'] == 40 and d['missing'] == 0 and d['failed'] == 0" \
  "resume after kill -9 completes the experiment"

# ---- a resumed curve, a hot journal ------------------------------------------

# Rate 0.6 is past saturation by latency alone (above 10 times the latency
# at 0.1, not at 0.5), 0.7 is stopped: resumed from 0.5 on, the curve must
# keep its limit.
H="$tmp/h.flitlab"
run project new "$H"
run experiment new "$H" curve --topology mesh:4x4 --set warmup=200 --set measure=1000 \
  --vary rate=0.1,0.5,0.6,0.7 --vary routing=updown --seeds 2:2
run experiment run "$H" curve --jobs 2
run experiment export "$H" curve --format json -o "$tmp/curve.json"
run experiment status "$H" curve --json
check "d['done'] == 3 and d['stopped'] == 1" "the curve: 3 runs done, the last stopped"
python3 - "$H" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA foreign_keys = ON")
db.execute("DELETE FROM run WHERE idx >= 1")
db.commit()
PY
run experiment resume "$H" curve --jobs 2
run experiment export "$H" curve --format json
python3 -c "
import json, sys
a = json.load(open('$tmp/curve.json'))['runs']
b = json.load(open('$tmp/out'))['runs']
for r in a + b:
    r.pop('wall_s', None)
sys.exit(0 if a == b else 1)"
ok $? "a curve resumed after its first run ends as the uninterrupted one"

# A process killed in the middle of a write leaves a hot journal, which a
# read-only connection cannot roll back: the file must open all the same.
python3 - "$H" <<'PY'
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA cache_size = 2")   # spill into the file before the commit
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE experiment SET name = 'half-written'")
db.execute("CREATE TABLE junk (x)")
db.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) "
           "INSERT INTO junk SELECT randomblob(2000) FROM n")
os._exit(0)
PY
[ -s "$H-journal" ]
ok $? "a write killed half way leaves a journal"
run experiment status "$H" curve --json
check "d['done'] == 3 and d['stopped'] == 1" "the file opens, the killed write rolled back"

# ---- rm and refusals ------------------------------------------------------

run experiment rm "$P" sat
ok $status "experiment rm"
run experiment ls "$P" --json
check "[e['name'] for e in d] == ['killed', 'small']" "rm deletes the experiment"

run experiment new "$P" small --topology mesh:4x4 --vary rate=0.1,0.2
[ "$status" -eq 1 ] && grep -q "small" "$tmp/err"
ok $? "a taken name is refused with exit 1"
expect_fail "an unknown key" "nosuchkey" \
  experiment new "$P" bad --topology mesh:4x4 --vary nosuchkey=1,2
[ "$status" -eq 2 ]
ok $? "an unknown key exits 2"
expect_fail "an empty range" "rate" \
  experiment new "$P" bad --topology mesh:4x4 --vary rate=0.5:0.1:0.1
[ "$status" -eq 2 ]
ok $? "an empty range exits 2"
expect_fail "a bad --set value" "vcs" \
  experiment new "$P" bad --topology mesh:4x4 --set vcs=many --vary rate=0.1
[ "$status" -eq 2 ]
ok $? "a bad --set value exits 2"
expect_fail "reversed seeds" "seeds" \
  experiment new "$P" bad --topology mesh:4x4 --vary rate=0.1 --seeds 5:1
expect_fail "a --vary without '='" "KEY=VALUE" \
  experiment new "$P" bad --topology mesh:4x4 --vary rate
expect_fail "a missing project file" "nofile" \
  experiment new "$tmp/nofile.flitlab" e --topology mesh:4x4 --vary rate=0.1
expect_fail "an unknown experiment" "nosuch" experiment status "$P" nosuch --json

tap_end
