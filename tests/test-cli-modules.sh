#!/bin/sh
# test-cli-modules.sh — the lean start: `flitlab` links none of the big
# libraries, and loads the module that holds one only when a command needs
# it (src/engine/core/module.h), from its own run path or
# $FLITLAB_MODULE_DIR. TAP output.
#
# usage: test-cli-modules.sh path/to/flitlab
set -u
. "$(dirname "$0")/cli-lib.sh"

# What the program itself needs, as the dynamic linker reads it: the C
# library, libm and jansson (and a sanitizer build's runtime), nothing else.
readelf -d "$FLITLAB" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$tmp/needed"
! grep -v -e '^libc\.so' -e '^libm\.so' -e '^libjansson\.so' -e '^libasan\.so' \
  -e '^libubsan\.so' "$tmp/needed" >/dev/null
ok $? "flitlab links libc, libm and jansson alone: $(tr '\n' ' ' <"$tmp/needed")"

# The modules come from the program's run path when no directory is named
# (meson test's LD_LIBRARY_PATH would find them too). The sanitizers'
# dlopen ignores the run path: their builds need the directory named.
moduledir=$FLITLAB_MODULE_DIR
if ! grep -q "libasan" "$tmp/needed"; then
  (unset FLITLAB_MODULE_DIR LD_LIBRARY_PATH; run topo metrics irregular:64,ports=4,hosts=1,seed=3 \
    --json; echo "$status" >"$tmp/status")
  [ "$(cat "$tmp/status")" -eq 0 ] && [ "$(json "d['bisection_method']")" = metis ] \
    && [ "$(json "d['switches']")" = 64 ]
  ok $? "irregular network and METIS bisection through the run path: $(cat "$tmp/err")"
fi
run topo export irregular:64,ports=4,hosts=1,seed=3 --format json -o "$tmp/irregular.json"
ok "$status" "an irregular network exported for the runs below"

# A command that needs no module runs without any; one that does names the
# missing file and what it holds.
export FLITLAB_MODULE_DIR="$tmp/none"
run sim mesh:4x4 --routing dor --measure 100 --json
[ "$status" -eq 0 ] && [ "$(json "d['status']")" = ok ]
ok $? "sim needs no module: $(cat "$tmp/err")"
run topo metrics "$tmp/irregular.json"
expect_fail "no irregular module" \
  "cannot load the module flitlab-irregular.so, which holds random irregular.*$tmp/none/flitlab-irregular.so: " \
  topo metrics irregular:64,ports=4,hosts=1,seed=3
expect_fail "no partition module" \
  "cannot load the module flitlab-partition.so, which holds graph partitioning" \
  topo metrics "$tmp/irregular.json"

project=$FLITLAB_SOURCE_DIR/data/examples/classroom.flitlab
run topo export mesh:4x4 -o "$tmp/mesh.json"
ok "$status" "topo export to a file format needs no module: $(cat "$tmp/err")"
expect_fail "no lessons module" "flitlab-lessons.so, which holds the lesson command" lesson ls
expect_fail "no projects module" "flitlab-projects.so, which holds the project, experiment" \
  project ls "$project"
expect_fail "no store module for a project's topology" \
  "flitlab-store.so, which holds the project file" \
  sim "$project#8x8 mesh" --routing dor --measure 100
expect_fail "no projects module for a plot" "flitlab-projects.so" plot ls "$project"
# (A build without cairo has no pictures.)
if "$FLITLAB" route --help | grep -q -- --picture; then
  expect_fail "no pictures module" "flitlab-pictures.so, which holds the drawing of pictures" \
    topo export mesh:4x4 -o "$tmp/mesh.png"
  expect_fail "no pictures module for sim --picture" "flitlab-pictures.so" \
    sim mesh:4x4 --routing dor --measure 100 --picture "$tmp/sim.png" --at 10
  [ ! -e "$tmp/mesh.png" ] && [ ! -e "$tmp/sim.png" ]
  ok $? "no picture written without the module"
fi

# The directory named wins over the run path.
export FLITLAB_MODULE_DIR="$moduledir"
run topo metrics "$tmp/irregular.json" --json
[ "$status" -eq 0 ] && [ "$(json "d['bisection_method']")" = metis ]
ok $? "FLITLAB_MODULE_DIR names the modules' directory"
run project ls "$project"
[ "$status" -eq 0 ] && grep -q "8x8 mesh" "$tmp/out"
ok $? "the projects module lists a project: $(cat "$tmp/err")"
run sim "$project#8x8 mesh" --routing dor --measure 100 --json
[ "$status" -eq 0 ] && [ "$(json "d['status']")" = ok ]
ok $? "a project's topology simulated through the store module: $(cat "$tmp/err")"

tap_end
