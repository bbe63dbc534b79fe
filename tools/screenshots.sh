#!/bin/sh
# Redraws every picture in screenshots/ (the README's):
#   tools/screenshots.sh plots FLITLAB   the plots of data/examples/experiments.flitlab
#   tools/screenshots.sh all BUILD       those, and the window's, which the GUI scenarios
#                                        (tests/gui) take as they run
# Both are deterministic: the plots are drawn from the results stored in the
# shipped project, the window under Xvfb with the cairo renderer and fixed
# seeds. `tools/flitlab-dev screenshots` builds first and then runs `all`.
set -eu
cd "$(dirname "$0")/.."

plots() {
  flitlab=$1
  shot() { "$flitlab" plot data/examples/experiments.flitlab "$1" --name "$2" -o "screenshots/$3"; }
  shot table3 table3-uniform plot-table3.png
  shot fig11 fig11-latency plot-fig11.png
  shot deflect-torus deflect-torus-delay-time plot-deflect-time.png
}

case ${1:-} in
plots)
  plots "$2"
  ;;
all)
  build=$2
  plots "$build/src/cli/flitlab"
  # The scenarios write screenshots/NAME.png as they pass; a failed one
  # leaves its picture as it was and fails this command.
  meson test -C "$build" --suite gui --num-processes 2 --print-errorlogs
  git status --short screenshots
  ;;
*)
  echo "usage: tools/screenshots.sh plots FLITLAB | all BUILD" >&2
  exit 2
  ;;
esac
