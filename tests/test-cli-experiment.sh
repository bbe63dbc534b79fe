#!/bin/sh
# test-cli-experiment.sh — `flitlab experiment` end to end: define, list,
# show, count, run, resume, export and delete a small experiment in a
# project file; its results equal `flitlab sim`'s; bad definitions are
# refused. Usage: test-cli-experiment.sh path/to/flitlab
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

run experiment ls "$P" --json
check "len(d) == 1 and d[0]['name'] == 'small' and d[0]['runs'] == 8
  and d[0]['done'] == 0 and d[0]['topology'] == 'mesh:4x4'" "experiment ls --json"

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
run experiment new "$P" killed --topology "#m" --set warmup=200 --set measure=50000 \
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
check "d['running'] == 0 and d['missing'] > 0" \
  "after kill -9 the killed process's claim is not counted as running"
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
