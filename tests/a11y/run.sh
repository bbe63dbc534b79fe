#!/bin/sh
# run.sh — runs one accessibility scenario: the application under its own
# session bus (which starts the AT-SPI registry it talks to), driven by a
# dogtail script through the accessibility tree, as a screen reader user's
# tools see it. Run under xvfb-run (outside, so that the bus has DISPLAY):
#   xvfb-run -a dbus-run-session -- tests/a11y/run.sh GUI SCRIPT.py [ARGS...]
# ARGS go to the script; $FLITLAB_A11Y_OPEN, when set, is the file the
# application opens.
set -u
gui=$1 script=$2
shift 2
# The system python has dogtail and pyatspi; another one on PATH may not.
py=/usr/bin/python3
$py -c 'import dogtail, pyatspi' 2>/dev/null || { echo "1..0 # SKIP python3-dogtail is not installed"; exit 0; }

log=$(mktemp)
# The accessibility bus, started here rather than on demand: the registry
# it starts says hello on its standard output, which would otherwise be
# this test's, read as TAP.
launcher=/usr/libexec/at-spi-bus-launcher
bus=
if [ -x "$launcher" ]; then
  "$launcher" --launch-immediately >/dev/null 2>&1 &
  bus=$!
  # Owned before the application asks for it, or the bus would start
  # another one.
  gdbus wait --session --timeout 10 org.a11y.Bus 2>/dev/null
fi
trap 'kill "$pid" $bus 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT
GTK_A11Y=atspi "$gui" ${FLITLAB_A11Y_OPEN:+"$FLITLAB_A11Y_OPEN"} >"$log" 2>&1 &
pid=$!
$py "$script" "$@"
status=$?
if ! kill -0 "$pid" 2>/dev/null; then
  echo "# the application exited early:"
  sed 's/^/# /' "$log"
  status=1
fi
exit $status
