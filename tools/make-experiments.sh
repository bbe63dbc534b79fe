#!/bin/sh
# Rebuilds data/examples/experiments.flitlab: the papers' experiments, run,
# with their plots, so the application's Experiments view and `flitlab
# plot` have results to show from the first start (and draws three of the
# plots into screenshots/plot-*.png). Every figure in it comes
# from the commands below; the README quotes them.
#   usage: tools/make-experiments.sh [path/to/flitlab]
# Takes a few minutes on two cores (all cores are used).
set -eu
FLITLAB=${1:-build/src/cli/flitlab}
case $FLITLAB in /*) ;; *) FLITLAB=$PWD/$FLITLAB ;; esac
cd "$(dirname "$0")/.."
out=data/examples/experiments.flitlab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$tmp/experiments.flitlab

"$FLITLAB" project new "$P"
new() { "$FLITLAB" experiment new "$P" "$@"; }
run() { "$FLITLAB" experiment run "$P" "$1"; }
plot() {
  plot_name=$1 plot_exp=$2
  shift 2
  "$FLITLAB" plot "$P" "$plot_exp" --save "$plot_name" "$@" -o "$tmp/$plot_name.pdf"
}

# Paper 002, Table 3: L-turn and R-turn against up*/down* on the 8x8 torus
# with four hosts per switch, virtual cut-through, 128-flit packets and
# 3 cycles per flit; the peak of each curve is the table's figure.
new table3 --topology torus:8x8,hosts=4 \
  --set switching=vct --set packet=128 --set buf=128 --set vcs=1 \
  --set link-cycles-per-flit=3 --set selection=credits \
  --set warmup=10000 --set measure=40000 --set drain=40000 \
  --vary traffic=uniform,bitrev \
  --vary routing=updown,lturn-alpha,lturn-beta,rturn-alpha,rturn-beta \
  --vary rate=0.004:0.04:0.004 --seeds 1:3
run table3
plot table3-uniform table3 --x rate --y throughput --series routing --where traffic=uniform \
  --title "Paper 002, Table 3: uniform traffic, 8x8 torus"
plot table3-bitrev table3 --x rate --y throughput --series routing --where traffic=bitrev \
  --title "Paper 002, Table 3: bit reversal, 8x8 torus"

# BookSim 2's 8x8 mesh (../shared/reference/booksim2-mesh.md): DOR, its
# minimal 3-cycle router, 2 VCs of 8 flits, uniform traffic with self,
# 1-flit and 16-flit packets; the load-latency curves to saturation.
new booksim-8x8 --topology mesh:8x8 \
  --set routing=dor --set pipeline=booksim-min --set self=on --set vcs=2 \
  --set warmup=3000 --set measure=3000 \
  --vary packet=1,16 --vary rate=0.02:0.5:0.02 --seeds 1:3
run booksim-8x8
plot booksim-latency booksim-8x8 --x rate --y latency_avg --series packet \
  --title "8x8 mesh, DOR, booksim-min router"
# The runs' vectors: load accepted over time (the warm-up's transient) and
# each channel's utilization, 16-flit packets at 0.3 flits/cycle/host.
plot booksim-accepted-time booksim-8x8 --x cycle --y accepted --series packet --where rate=0.3 \
  --title "8x8 mesh at 0.3: accepted load over time"
plot booksim-channels booksim-8x8 --x channel --y channel_utilization --where packet=16,rate=0.3 \
  --title "8x8 mesh, 16-flit packets at 0.3: each channel's utilization"

# Paper 003, Figs 7-9: deflection routing, throughput and delays against
# the messages per node, on the 36x72 XMESH, the 35x71 torus and diagonal
# mesh (one experiment per network: an experiment runs on one network).
deflection() {
  exp=$1 spec=$2 routing=$3
  new "$exp" --topology "$spec" --mode deflection --routing "$routing" \
    --priority age --cycles 1000 --vary nmsg=1,2,3,4 --seeds 1:2
  run "$exp"
  plot "$exp-throughput" "$exp" --x nmsg --y throughput --title "Paper 003: $spec"
  plot "$exp-delay" "$exp" --x nmsg --y avg_delay --title "Paper 003: $spec"
  plot "$exp-delay-time" "$exp" --x cycle --y avg_delay --series nmsg \
    --title "Paper 003: $spec, mean delay over time"
}
deflection deflect-xmesh xmesh:36x72 xmesh
deflection deflect-torus torus:35x71 shortest
deflection deflect-dmesh dmesh:35x71 dmesh

# Paper 001, Fig 11: 32-node multicasts (source and 31 destinations placed
# by the seed) on the 16x16 mesh, flit by flit with the section 4.2 costs,
# against the message size.
new fig11 --topology mesh:16x16 --set mode=multicast --set routing=dor --set random=31 \
  --set max-packet=1024 --vary algorithm=opt-mesh,opt-tree,u-mesh \
  --vary message-size=1024,4096,16384 --seeds 1:4
run fig11
plot fig11-latency fig11 --x message-size --y simulated_latency --series algorithm \
  --title "Paper 001, Fig 11: 32-node multicast, 16x16 mesh"

mv "$P" "$out"
"$FLITLAB" experiment ls "$out"

# The README's pictures of them.
sh tools/screenshots.sh plots "$FLITLAB"
