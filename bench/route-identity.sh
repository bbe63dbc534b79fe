#!/bin/bash
# route-identity.sh — writes the outputs of `flitlab route`, `flitlab turns` and
# `flitlab sim` (wall_s left out) on many networks and routings to a
# directory, one file per command, so that two builds can be compared with
# `diff -r`: speed work on the routing analysis must change no byte.
#
#     bench/route-identity.sh FLITLAB OUTDIR [quick]
#
# With quick, the 4096-switch and 64x64 cases are left out.
set -u
flitlab=$1 out=$2 quick=${3:-}
mkdir -p "$out"
n=0
run() {  # run NAME ARGS...: stdout, stderr and exit status into OUTDIR/NAME
    local name=$1
    shift
    { "$flitlab" "$@" 2>&1; echo "exit $?"; } >"$out/$name"
    n=$((n + 1))
}
tables="updown lturn-alpha lturn-beta rturn-alpha rturn-beta shortest turnset"
nets="mesh:4x4 mesh:8x8 mesh:5x9 torus:8x8 torus:4x4x4 hypercube:6 ring:16 line:8 line:300
      xmesh:6x12 dmesh:5x11 myrinet-mesh:4x8
      irregular:64,ports=4,hosts=4,seed=1 irregular:64,ports=4,hosts=4,seed=2
      irregular:64,ports=4,hosts=4,seed=7 irregular:100,ports=6,hosts=2,seed=3
      irregular:200,ports=8,hosts=1,seed=4 irregular:256,ports=4,hosts=1,seed=5
      irregular:1024,ports=4,hosts=1,seed=1 irregular:1000,ports=5,hosts=1,seed=9"
[ -z "$quick" ] && nets="$nets irregular:4096,ports=4,hosts=1,seed=1 mesh:64x64"
for net in $nets; do
    case $net in
    mesh:64x64) routings="updown dor" ;;
    irregular:4096*) routings="updown lturn-alpha rturn-beta" ;;
    mesh:*) routings="$tables dor west-first north-last negative-first odd-even" ;;
    torus:* | hypercube:* | ring:* | line:*) routings="$tables dor" ;;
    xmesh:*) routings="$tables xmesh" ;;
    dmesh:*) routings="$tables dmesh" ;;
    myrinet-*) routings="$tables myrinet-dor" ;;
    *) routings="$tables" ;;
    esac
    for r in $routings; do
        f="${net//[:,=]/_}.$r"
        run "$f.text" route "$net" --routing "$r"
        run "$f.json" route "$net" --routing "$r" --json
        run "$f.turns" turns "$net" --routing "$r"
        run "$f.turns-json" turns "$net" --routing "$r" --json
        run "$f.path" route "$net" --routing "$r" --from 1 --to 5
        run "$f.all" route "$net" --routing "$r" --from 0 --to 7 --all --max-paths 30
        run "$f.all-json" route "$net" --routing "$r" --from 2 --to 3 --all --json
    done
done
# An explicit root, and a prohibited turn set.
run root.updown route irregular:256,ports=4,hosts=1,seed=5 --routing updown --root 17 --json
run root.lturn route irregular:256,ports=4,hosts=1,seed=5 --routing lturn-beta --root 3 --json
run prohibit.turnset route mesh:8x8 --routing turnset --prohibit '9:0>1,9:1>0,27:2>3' --json
# Simulations on tables built by the same code.
for seed in 1 2 3; do
    for r in updown lturn-alpha rturn-beta; do
        { "$flitlab" sim "irregular:64,ports=4,hosts=4,seed=$seed" --routing "$r" --json 2>&1 \
              | grep -v '"wall_s"'; echo "exit $?"; } >"$out/sim.$seed.$r"
        n=$((n + 1))
    done
done
[ -z "$quick" ] && { "$flitlab" sim irregular:1024,ports=4,hosts=1,seed=1 --routing updown \
    --json 2>&1 | grep -v '"wall_s"'; echo "exit $?"; } >"$out/sim.1024.updown" && n=$((n + 1))
echo "$n outputs in $out"
