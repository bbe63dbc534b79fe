#!/bin/sh
# experiment-speed.sh — how much faster the experiment runner is with more
# workers: `flitlab experiment run --jobs 1` against `--jobs 2`, and
# `mpirun -np 2 flitlab-mpi` (rank 0 and one worker) against `-np 3` (rank 0
# and two workers), each the median of 3 runs on a fresh copy of a project
# holding mesh:8x8 at 7 rates x 4 seeds (28 runs of 0.2 to 1 s).
#
#   bench/experiment-speed.sh [BUILD_DIR]      (default: build)
#
# The machine should be otherwise idle: the figures are wall times.
set -eu
BUILD=${1:-build}
FLITLAB=$BUILD/src/cli/flitlab
MPI=$BUILD/src/mpi/flitlab-mpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$FLITLAB" project new "$tmp/base.flitlab"
"$FLITLAB" experiment new "$tmp/base.flitlab" e --topology mesh:8x8 --set warmup=1000 \
  --set measure=10000 --vary rate=0.05:0.35:0.05 --seeds 1:4 >/dev/null

# Seconds of wall time of one run of "$@" on a fresh copy ($tmp/p.flitlab).
once() {
  cp "$tmp/base.flitlab" "$tmp/p.flitlab"
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}

median3() {
  a=$(once "$@")
  b=$(once "$@")
  c=$(once "$@")
  printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -n | sed -n 2p
}

j1=$(median3 "$FLITLAB" experiment run "$tmp/p.flitlab" e --jobs 1)
j2=$(median3 "$FLITLAB" experiment run "$tmp/p.flitlab" e --jobs 2)
printf 'experiment run --jobs 1   %6.2f s\n' "$j1"
printf 'experiment run --jobs 2   %6.2f s   %.2fx\n' "$j2" "$(awk "BEGIN { print $j1 / $j2 }")"
if [ -x "$MPI" ] && command -v mpirun >/dev/null; then
  n2=$(median3 mpirun --oversubscribe -np 2 "$MPI" experiment run "$tmp/p.flitlab" e)
  n3=$(median3 mpirun --oversubscribe -np 3 "$MPI" experiment run "$tmp/p.flitlab" e)
  printf 'mpirun -np 2 flitlab-mpi  %6.2f s\n' "$n2"
  printf 'mpirun -np 3 flitlab-mpi  %6.2f s   %.2fx\n' "$n3" "$(awk "BEGIN { print $n2 / $n3 }")"
else
  echo "flitlab-mpi or mpirun is missing: no MPI figures"
fi
