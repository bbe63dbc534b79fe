#!/bin/sh
# collectives-figs.sh — paper 001's Figs 11-14 with the `flitlab` command:
# multicast latency on a 16x16 wormhole mesh with XY routing (dor), one-port
# hosts, s_s = 2000, s_d = 2, c_d = 2, r_s = 3500, r_d = 3 cycles, for
# 32-node and 128-node multicasts (source included) at several message
# sizes, each the mean over random placements of the source and the
# destinations (--random K --seed 1..SEEDS), for OPT-mesh, OPT-tree and
# U-mesh: the simulated latency (flit by flit) beside the model's
# (t_hold = s_s + s_d L, t_end = t_hold + c_d L + r_s + r_d L).
# Figs 11 and 12 are the rows of one node count against the size; Figs 13
# and 14 the rows of one size (4 KB, 64 KB) against the node count.
#
# usage: tools/collectives-figs.sh [path/to/flitlab]
# The environment sets the sweep (defaults: the paper's, slow):
#   NODES="32 128"  SIZES="1024 4096 16384 65536"  SEEDS=16  MAX_PACKET=1024
# A flit is a byte: 65536 flits are the paper's 64 KB. Messages longer than
# MAX_PACKET flits go as several packets (0: one packet each).
# Prints one line per (nodes, size, algorithm): the means in cycles.
set -eu
FLITLAB=${1:-build/src/cli/flitlab}
NODES=${NODES:-32 128}
SIZES=${SIZES:-1024 4096 16384 65536}
SEEDS=${SEEDS:-16}
MAX_PACKET=${MAX_PACKET:-1024}

# The value of a top-level number key of the JSON on stdin.
key() {
  sed -n "s/^  \"$1\": \\([0-9.]*\\),\\{0,1\\}\$/\\1/p"
}

printf '%6s %8s %10s %14s %14s %8s\n' nodes flits algorithm simulated analytic sim/model
for nodes in $NODES; do
  for size in $SIZES; do
    for alg in opt-mesh opt-tree u-mesh; do
      sim=0 model=0 seed=1
      while [ "$seed" -le "$SEEDS" ]; do
        out=$("$FLITLAB" multicast mesh:16x16 --routing dor --algorithm "$alg" \
                --random $((nodes - 1)) --seed "$seed" --simulate --size "$size" \
                --max-packet "$MAX_PACKET" --json)
        sim=$(echo "$out" | key simulated_latency | awk -v s="$sim" '{ print s + $1 }')
        model=$(echo "$out" | key latency | awk -v s="$model" '{ print s + $1 }')
        seed=$((seed + 1))
      done
      awk -v n="$nodes" -v L="$size" -v a="$alg" -v s="$sim" -v m="$model" -v k="$SEEDS" \
        'BEGIN { printf "%6d %8d %10s %14.0f %14.0f %8.3f\n", n, L, a, s / k, m / k, s / m }'
    done
  done
done
