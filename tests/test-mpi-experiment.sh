#!/bin/sh
# test-mpi-experiment.sh — flitlab-mpi under mpirun: an experiment run by
# rank 0 and its workers gives the same results as `flitlab experiment run`
# (every column of export but wall_s, and every vector), with -np 1, 2 and 3;
# resume after a partial run, or after mpirun is killed with SIGKILL, runs
# what is missing; a bad experiment fails cleanly.
# Usage: test-mpi-experiment.sh path/to/flitlab path/to/flitlab-mpi path/to/mpirun
. "$(dirname "$0")/cli-lib.sh"
MPI=$2
MPIRUN=$3
# What a CI container running as root needs; more ranks than cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

mpi() {
  np=$1
  shift
  timeout 60 "$MPIRUN" --allow-run-as-root --oversubscribe -np "$np" "$MPI" "$@" \
    >"$tmp/out" 2>"$tmp/err"
  status=$?
}

# The export of experiment e of $1 without the wall time, into $2.
export_csv() {
  "$FLITLAB" experiment export "$1" e --format csv | python3 -c "
import csv, sys
rows = list(csv.reader(sys.stdin))
drop = rows[0].index('wall_s')
for r in rows:
    print(','.join(v for i, v in enumerate(r) if i != drop))" >"$2"
}

P="$tmp/serial.flitlab"
run project new "$P"
# 4 curves of 4 rates, the last past saturation: stopped runs as well.
run experiment new "$P" e --topology mesh:4x4 --set warmup=200 --set measure=800 \
  --vary routing=dor,updown --vary rate=0.05,0.3,0.9,0.95 --seeds 1:2
ok $status "experiment new: 16 runs"
for np in 1 2 3; do
  cp "$P" "$tmp/np$np.flitlab"
done
run experiment run "$P" e --jobs 2
ok $status "flitlab experiment run, serially"
export_csv "$P" "$tmp/serial.csv"
grep -q ",stopped," "$tmp/serial.csv"
ok $? "the serial run has runs stopped past saturation"
run experiment vectors "$P" e
test $status -eq 0 && cp "$tmp/out" "$tmp/serial-vectors.csv" \
  && grep -q "^0,1,dor,0.05,accepted,0,0," "$tmp/serial-vectors.csv" \
  && grep -q ",channel_utilization,79,," "$tmp/serial-vectors.csv"
ok $? "the serial run's vectors: samples over time and figures per channel"

for np in 1 2 3; do
  mpi $np experiment run "$tmp/np$np.flitlab" e
  ok $status "mpirun -np $np flitlab-mpi experiment run"
  tail -1 "$tmp/err" | grep -q "^experiment e: 16/16 runs (0 running)$"
  ok $? "-np $np: rank 0 prints the progress"
  export_csv "$tmp/np$np.flitlab" "$tmp/np$np.csv"
  cmp -s "$tmp/serial.csv" "$tmp/np$np.csv"
  ok $? "-np $np: every run's status, parameters and scalars equal the serial run's"
  "$FLITLAB" experiment vectors "$tmp/np$np.flitlab" e >"$tmp/np$np-vectors.csv"
  cmp -s "$tmp/serial-vectors.csv" "$tmp/np$np-vectors.csv"
  ok $? "-np $np: every run's vectors equal the serial run's"
done
python3 - "$tmp/np2.flitlab" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ok = db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
sys.exit(0 if ok and db.execute("SELECT count(*) FROM claim").fetchone()[0] == 0 else 1)
PY
ok $? "-np 2: the file is sound and no claim is left"

# ---- resume after a partial run ---------------------------------------------

cp "$tmp/np2.flitlab" "$tmp/partial.flitlab"
python3 - "$tmp/partial.flitlab" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA foreign_keys = ON")
db.execute("DELETE FROM run WHERE idx IN (1, 2, 3, 9, 13)")
db.commit()
PY
mpi 2 experiment resume "$tmp/partial.flitlab" e
ok $status "mpirun -np 2 flitlab-mpi experiment resume after a partial run"
head -1 "$tmp/err" | grep -q "^experiment e: 11/16 runs"
ok $? "resume starts from the 11 runs the file holds"
export_csv "$tmp/partial.flitlab" "$tmp/partial.csv"
cmp -s "$tmp/serial.csv" "$tmp/partial.csv"
ok $? "the resumed runs equal the serial run's"
mpi 3 experiment resume "$tmp/partial.flitlab" e
ok $status "resume of a complete experiment succeeds"
grep -q "nothing to run" "$tmp/err"
ok $? "resume of a complete experiment runs nothing"

# ---- killed half way, resumed, plotted ---------------------------------------

# mpirun and its ranks killed with SIGKILL once some runs are committed: the
# file opens sound, resume under mpirun runs what is missing, and the result
# equals the serial run's and plots as a PDF with error bars.
K="$tmp/killed.flitlab"
run project new "$K"
run experiment new "$K" e --topology mesh:8x8 --set warmup=200 --set measure=40000 \
  --vary routing=dor,updown --vary rate=0.05,0.1,0.15 --seeds 1:2
cp "$K" "$tmp/killed-serial.flitlab"
# Runs done so far (flitlab answers faster than a python would start).
committed() {
  n=$("$FLITLAB" experiment status "$K" e --json 2>/dev/null | sed -n 's/^ *"done": \([0-9]*\).*/\1/p')
  echo "${n:-0}"
}
setsid "$MPIRUN" --allow-run-as-root --oversubscribe -np 2 "$MPI" experiment run "$K" e \
  >/dev/null 2>&1 &
leader=$!
waited=0
while [ "$(committed)" -lt 2 ] && [ $waited -lt 600 ] && kill -0 $leader 2>/dev/null; do
  sleep 0.1
  waited=$((waited + 1))
done
# OpenMPI puts its ranks in process groups of their own: kill the whole
# session setsid started (its id is the leader's pid), read from /proc.
for stat in /proc/[0-9]*/stat; do
  set -- $(cat "$stat" 2>/dev/null)
  [ "${6:-}" = "$leader" ] && kill -9 "$1" 2>/dev/null
done
wait $leader 2>/dev/null
# A rank may take a moment to go; none may commit after this.
sleep 0.5
held=$(committed)
[ "$held" -ge 2 ] && [ "$held" -lt 12 ]
ok $? "mpirun killed with $held of 12 runs committed"
python3 - "$K" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
sys.exit(0 if db.execute("PRAGMA integrity_check").fetchone()[0] == "ok" else 1)
PY
ok $? "the killed run's file is sound"
mpi 2 experiment resume "$K" e
ok $status "mpirun -np 2 flitlab-mpi experiment resume after the kill"
head -1 "$tmp/err" | grep -q "^experiment e: $held/12 runs"
ok $? "resume starts from the $held runs the file holds"
run experiment run "$tmp/killed-serial.flitlab" e --jobs 2
export_csv "$K" "$tmp/killed.csv"
export_csv "$tmp/killed-serial.flitlab" "$tmp/killed-serial.csv"
cmp -s "$tmp/killed.csv" "$tmp/killed-serial.csv"
ok $? "the killed and resumed experiment equals an uninterrupted serial run"
run plot "$K" e --x rate --y latency_avg --series routing -o "$tmp/killed.pdf"
[ "$status" -eq 0 ] && [ "$(head -c 5 "$tmp/killed.pdf")" = "%PDF-" ]
ok $? "and plots as a PDF with error bars"

# ---- refusals ---------------------------------------------------------------

mpi 2 experiment run "$P" nosuch
[ "$status" -ne 0 ] && grep -q "nosuch" "$tmp/err"
ok $? "an unknown experiment fails on every rank, naming it"
mpi 2 experiment walk "$P" e
[ "$status" -ne 0 ] && grep -q "Usage" "$tmp/err"
ok $? "a bad command prints the usage"

tap_end
