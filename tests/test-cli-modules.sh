#!/bin/sh
# test-cli-modules.sh — the lean start: `flitlab` links none of the big
# libraries, and loads the module that holds one only when a command needs
# it (src/engine/core/module.h), from its own run path or
# $FLITLAB_MODULE_DIR. TAP output.
#
# usage: test-cli-modules.sh path/to/flitlab
set -u
. "$(dirname "$0")/cli-lib.sh"

# What the program itself needs, as the dynamic linker reads it.
readelf -d "$FLITLAB" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' >"$tmp/needed"
for lib in igraph metis; do
  ! grep -q "lib$lib" "$tmp/needed"
  ok $? "flitlab does not link lib$lib ($(tr '\n' ' ' <"$tmp/needed"))"
done

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
  "cannot load the module $tmp/none/flitlab-irregular.so, which holds random irregular" \
  topo metrics irregular:64,ports=4,hosts=1,seed=3
expect_fail "no partition module" \
  "cannot load the module $tmp/none/flitlab-partition.so, which holds graph partitioning" \
  topo metrics "$tmp/irregular.json"

# The directory named wins over the run path.
export FLITLAB_MODULE_DIR="$moduledir"
run topo metrics "$tmp/irregular.json" --json
[ "$status" -eq 0 ] && [ "$(json "d['bisection_method']")" = metis ]
ok $? "FLITLAB_MODULE_DIR names the modules' directory"

tap_end
