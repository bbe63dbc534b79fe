#!/bin/sh
# Rebuilds data/examples/classroom.flitlab, the project the README's first
# command opens: one network of every family, plus a hand-drawn one.
#   usage: tools/make-example.sh path/to/flitlab
set -eu
FLITLAB=${1:-build/src/cli/flitlab}
cd "$(dirname "$0")/.."
out=data/examples/classroom.flitlab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$FLITLAB" project new "$tmp/p.flitlab"
add() { "$FLITLAB" project add "$tmp/p.flitlab" "$@"; }
add torus:8x8 --name "8x8 torus"
add mesh:8x8 --name "8x8 mesh"
add xmesh:8x8 --name "8x8 crossed mesh (XMESH)"
add dmesh:7x7 --name "7x7 diagonal mesh"
add hypercube:5 --name "5-cube"
add ring:12 --name "12-ring"
add "irregular:64,ports=4,hosts=4,seed=1" --name "PC cluster, 64 switches (paper 002)"
add myrinet-line:6 --name "Myrinet linear array"
add myrinet-mesh:4x8 --name "Myrinet 4x8 mesh"
add data/examples/hand-drawn.json --name "hand-drawn"
mv "$tmp/p.flitlab" "$out"
"$FLITLAB" project ls "$out"
