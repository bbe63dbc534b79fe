#!/bin/sh
# start-time.sh — how long `flitlab` takes to start: `flitlab --version` and
# the smallest simulation (mesh:8x8, one measured cycle), against /bin/true
# and a plain C program that links what `sim` needs (libc, libm, jansson)
# and sets the locale as flitlab does. Each is run RUNS times under `perf
# stat` (task-clock: CPU time, which a busy machine disturbs less than wall
# time), or timed by a shell loop without perf; with valgrind, also its
# instructions (callgrind, the dynamic linker's included), which do not
# depend on the load. Then the libraries flitlab loads and the dynamic
# linker's relocations (LD_DEBUG=statistics).
#
#   bench/start-time.sh [FLITLAB [RUNS]]   (default: build/src/cli/flitlab 100)
set -eu
FLITLAB=${1:-build/src/cli/flitlab}
RUNS=${2:-100}
SIM="sim mesh:8x8 --routing dor --pipeline booksim-min --self --vcs 2 --buf 8 --packet 8"
SIM="$SIM --rate 0.1 --warmup 0 --measure 1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The reference: a program that links what `sim` links, sets the locale
# and does nothing else.
printf '#include <jansson.h>\n#include <locale.h>\n#include <math.h>\n'\
'int main(int c, char **v)\n{ setlocale(LC_ALL, ""); json_t *j = json_real(sqrt(c));\n'\
'  json_decref(j); return v[0] == 0; }\n' >"$tmp/plain.c"
${CC:-cc} -O2 -o "$tmp/plain" "$tmp/plain.c" -ljansson -lm

# "NAME: X ms" for RUNS runs of "$@" (output discarded).
measure() {
  name=$1; shift
  if command -v perf >/dev/null 2>&1 \
     && perf stat -x, -e task-clock -r 1 true >/dev/null 2>&1; then
    ms=$(perf stat -x, -e task-clock -r "$RUNS" "$@" 2>&1 >/dev/null \
         | awk -F, '/task-clock/ { printf "%.2f", $1 }')
    echo "$name: $ms ms CPU (perf stat -r $RUNS, task-clock)"
  else
    start=$(date +%s%N)
    i=0
    while [ "$i" -lt "$RUNS" ]; do "$@" >/dev/null; i=$((i + 1)); done
    end=$(date +%s%N)
    echo "$name: $(((end - start) / RUNS / 1000)) us wall (mean of $RUNS runs)"
  fi
  if command -v valgrind >/dev/null 2>&1; then
    valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind" "$@" 2>&1 >/dev/null \
      | sed -n 's/.*Collected : */  instructions (callgrind): /p'
  fi
}

# shellcheck disable=SC2086
measure "flitlab $SIM" "$FLITLAB" $SIM
measure "flitlab --version" "$FLITLAB" --version
measure "plain C, libc + libm + jansson" "$tmp/plain"
measure "/bin/true" /bin/true
echo "libraries loaded by flitlab (ldd): $(ldd "$FLITLAB" | wc -l)"
LD_DEBUG=statistics "$FLITLAB" --version 2>&1 >/dev/null \
  | sed -n 's/^[[:space:]]*[0-9]*:[[:space:]]*\(number of \(relative \)\?relocations: *[0-9]*\)/\1/p' \
  | sed 's/^/flitlab --version: /'
