#!/bin/sh
# sim-instructions.sh — instructions the simulator executes per flit-hop,
# under callgrind, on the side-by-side cases of bench/booksim-speed.py
# (mesh, DOR, uniform with self traffic, 2 VCs of 8 flits, booksim-min,
# 5,000 warm-up and 10,000 measured cycles). Run by hand:
#
#     bench/sim-instructions.sh [FLITLAB]    (default build-release/src/cli/flitlab)
#
# Unlike a time, the count is the same on any x86-64 machine for a given
# build (a release build: meson setup build-release --buildtype=release
# -Dgui=disabled), so it tells a change in the code from a change in the
# machine. Counts are of the whole process, start-up included. A flit-hop
# is one flit through one router: "flit_hops" counts channel traversals,
# and every flit crosses one channel more than it crosses routers, so the
# routers crossed are flit_hops x H / (H + 1), H the mean routers per
# packet ("hops_avg"). Takes about two minutes.
set -eu
flitlab=${1:-build-release/src/cli/flitlab}
command -v valgrind > /dev/null || { echo "sim-instructions.sh: needs valgrind" >&2; exit 1; }
[ -x "$flitlab" ] || { echo "sim-instructions.sh: no $flitlab (build it first)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "| case | instructions | flit-hops | instructions per flit-hop |"
echo "|---|---|---|---|"
for c in 8x8:8:0.1 8x8:1:0.1 16x16:8:0.1 16x16:1:0.1 16x16:8:0.4 16x16:1:0.4; do
    IFS=: read -r k len rate <<EOF
$c
EOF
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$flitlab" sim "mesh:$k" \
        --routing dor --pipeline booksim-min --self --vcs 2 --buf 8 --packet "$len" \
        --rate "$rate" --warmup 5000 --measure 10000 --json > "$out/json" 2> "$out/log"
    refs=$(sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' "$out/log" | tr -d ,)
    python3 - "$out/json" "$refs" "mesh $k, $len-flit, $rate" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
refs, h = int(sys.argv[2]), d["hops_avg"]
hops = d["flit_hops"] * h / (h + 1)
print(f"| {sys.argv[3]} | {refs / 1e6:,.0f} M | {hops / 1e6:.2f} M | {refs / hops:.0f} |")
EOF
done
