#!/bin/sh
# experiment-speed.sh — how much faster the experiment runner is with more
# workers: `flitlab experiment run --jobs 1` against `--jobs 2`, and
# `mpirun -np 2 flitlab-mpi` (rank 0 and one worker) against `-np 3` (rank 0
# and two workers), each the median of 3 runs on a fresh copy of a project
# holding mesh:8x8 at 7 rates x 4 seeds (28 runs of 0.1 to 0.3 s, measured
# over MEASURE cycles; longer runs weigh mpirun's start-up, about 0.7 s,
# less).
#
#   bench/experiment-speed.sh [BUILD_DIR [MEASURE]]   (default: build 10000)
#
# The machine should be otherwise idle: the figures are wall times. "cores
# busy" is CPU time over wall time: near 2 when both cores simulate.
set -eu
BUILD=${1:-build}
MEASURE=${2:-10000}
FLITLAB=$BUILD/src/cli/flitlab
MPI=$BUILD/src/mpi/flitlab-mpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$FLITLAB" project new "$tmp/base.flitlab"
"$FLITLAB" experiment new "$tmp/base.flitlab" e --topology mesh:8x8 --set warmup=1000 \
  --set measure="$MEASURE" --vary rate=0.05:0.35:0.05 --seeds 1:4 >/dev/null

# "WALL CPU": seconds of wall time and of CPU time (user + system, the
# processes it started included) of one run of "$@" on a fresh copy
# ($tmp/p.flitlab).
once() {
  cp "$tmp/base.flitlab" "$tmp/p.flitlab"
  python3 -c '
import os, resource, subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.monotonic() - t, u.ru_utime + u.ru_stime)' "$@"
}

# The median of 3 by wall time: "WALL CPU".
median3() {
  { once "$@"; once "$@"; once "$@"; } | sort -n | sed -n 2p
}

# "LABEL  WALL s  (CPU/WALL cores busy)[  SPEEDUP x]" from "WALL CPU" and a base wall.
line() {
  echo "$2" | awk -v label="$1" -v base="${3-}" '{
    printf "%-26s %6.2f s   %.2f cores busy", label, $1, $2 / $1
    if (base != "") printf "   %.2fx", base / $1
    printf "\n" }'
}

j1=$(median3 "$FLITLAB" experiment run "$tmp/p.flitlab" e --jobs 1)
j2=$(median3 "$FLITLAB" experiment run "$tmp/p.flitlab" e --jobs 2)
line "experiment run --jobs 1" "$j1"
line "experiment run --jobs 2" "$j2" "${j1%% *}"
if [ -x "$MPI" ] && command -v mpirun >/dev/null; then
  # OpenMPI binds each rank to a core when there are few ranks; a worker
  # with --jobs threads needs them all.
  mpi="mpirun --oversubscribe --bind-to none"
  n2=$(median3 $mpi -np 2 "$MPI" experiment run "$tmp/p.flitlab" e)
  n3=$(median3 $mpi -np 3 "$MPI" experiment run "$tmp/p.flitlab" e)
  line "mpirun -np 2 flitlab-mpi" "$n2"
  line "mpirun -np 3 flitlab-mpi" "$n3" "${n2%% *}"
  line "  the same against --jobs 1" "$n3" "${j1%% *}"
else
  echo "flitlab-mpi or mpirun is missing: no MPI figures"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (the figures need an idle machine)"
