#!/bin/sh
# check-install.sh BUILDDIR PREFIX — `meson install` into a staging
# directory gives a working application: every file where the desktop looks
# for it, and the installed programs start from there. TAP output.
#
# Installing with DESTDIR skips the post-install triggers (as a package's
# build does); the schemas are compiled here as the package's trigger
# would compile them.
set -u
build=$1
prefix=$2
stage=$(mktemp -d "${TMPDIR:-/tmp}/flitlab-install-XXXXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage$prefix
share=$root/share
n=0
failed=0

check() { # check DESCRIPTION COMMAND...
  what=$1; shift
  n=$((n + 1))
  if "$@" >/dev/null 2>&1; then
    echo "ok $n - $what"
  else
    echo "not ok $n - $what"
    failed=$((failed + 1))
  fi
}

check "meson install --destdir" env DESTDIR="$stage" meson install -C "$build" --no-rebuild --quiet
id=io.github.flitlab.Flitlab
for f in \
  bin/flitlab-gui \
  bin/flitlab \
  share/applications/$id.desktop \
  share/metainfo/$id.metainfo.xml \
  share/icons/hicolor/scalable/apps/$id.svg \
  share/icons/hicolor/symbolic/apps/$id-symbolic.svg \
  share/mime/packages/$id.xml \
  share/glib-2.0/schemas/$id.gschema.xml \
  share/flitlab/lessons/deadlock-ring.lesson
do
  check "installs $f" test -s "$root/$f"
done
check "the programs are executable" test -x "$root/bin/flitlab-gui" -a -x "$root/bin/flitlab"
for m in irregular partition lessons store projects pictures; do
  check "installs the module flitlab-$m.so" sh -c "ls '$root'/lib*/flitlab/flitlab-$m.so \
    '$root'/lib*/*/flitlab/flitlab-$m.so 2>/dev/null | grep -q ."
done
for lang in $(sed 's/#.*//' "$(dirname "$0")/../po/LINGUAS"); do
  check "installs the $lang translation" test -s "$share/locale/$lang/LC_MESSAGES/flitlab.mo"
done
check "the installed schemas compile" glib-compile-schemas --strict "$share/glib-2.0/schemas"
check "gschemas.compiled" test -s "$share/glib-2.0/schemas/gschemas.compiled"
check "the installed launcher is valid" desktop-file-validate "$share/applications/$id.desktop"

export XDG_DATA_DIRS="$share:/usr/local/share:/usr/share"
export GSETTINGS_SCHEMA_DIR="$share/glib-2.0/schemas"
export GSETTINGS_BACKEND=memory
unset FLITLAB_LESSONS_DIR FLITLAB_MODULE_DIR LD_LIBRARY_PATH

n=$((n + 1))
version=$("$root/bin/flitlab-gui" --version 2>&1)
case $version in
"flitlab-gui "[0-9]*) echo "ok $n - flitlab-gui --version: $version" ;;
*) echo "not ok $n - flitlab-gui --version: $version"; failed=$((failed + 1)) ;;
esac

# The compiled-in lessons directory lacks the staging directory: point at
# the staged copy, as the installed program would find it under PREFIX.
n=$((n + 1))
lessons=$(FLITLAB_LESSONS_DIR="$share/flitlab/lessons" "$root/bin/flitlab" lesson ls 2>&1)
case $lessons in
*deadlock-ring*) echo "ok $n - the installed flitlab lists the installed lessons" ;;
*) echo "not ok $n - flitlab lesson ls: $lessons"; failed=$((failed + 1)) ;;
esac

# The installed program finds its modules relative to itself, in the
# staging directory too.
n=$((n + 1))
metrics=$("$root/bin/flitlab" topo metrics irregular:64,ports=4,hosts=1,seed=3 2>&1)
case $metrics in
*"upper bound from METIS"*) echo "ok $n - the installed flitlab loads its modules" ;;
*) echo "not ok $n - flitlab topo metrics irregular:64: $metrics"; failed=$((failed + 1)) ;;
esac

# A real start of the installed application under Xvfb, any warning fatal:
# it must still be running, its window up, after a few seconds.
if command -v xvfb-run >/dev/null 2>&1; then
  log=$stage/gui.log
  G_DEBUG=fatal-warnings,fatal-criticals GTK_A11Y=none NO_AT_BRIDGE=1 \
    xvfb-run -a -s '-screen 0 1280x800x24' "$root/bin/flitlab-gui" \
    "$(dirname "$0")/../data/examples/classroom.flitlab" >"$log" 2>&1 &
  pid=$!
  sleep 5
  n=$((n + 1))
  if kill -0 "$pid" 2>/dev/null; then
    echo "ok $n - the installed flitlab-gui starts and keeps running"
  else
    echo "not ok $n - the installed flitlab-gui ended early:"
    sed 's/^/# /' "$log"
    failed=$((failed + 1))
  fi
  # xvfb-run's children (the application and the server), then xvfb-run.
  pkill -TERM -P "$pid" 2>/dev/null
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
fi

echo "1..$n"
[ "$failed" -eq 0 ]
