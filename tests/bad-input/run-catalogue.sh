#!/bin/sh
# run-catalogue.sh — the bad-input catalogue: every case of catalogue.tsv run
# against the `flitlab` command, one TAP line each.
#
# usage: run-catalogue.sh path/to/flitlab [ID-PATTERN]
#
# A case passes when flitlab, run with its standard input from /dev/null (or
# the case's stdin= file) under a 20-second timeout:
#   - ends in time (a hang fails) and by exit, not by a signal (a crash fails);
#   - leaves no sanitizer report on standard error;
#   - exits with the case's status (2: used wrongly, 1: failed);
#   - writes one line (lines=N: at most N) on standard error, starting
#     "flitlab: ", that matches the case's extended regular expression and
#     says what is wrong: never "(null)", "line -1", an empty reason after a
#     colon or a bare "failed";
#   - writes nothing on standard output (unless the case says stdout).
# (noprefix: a usage text, not a message; neither its start nor its
# reasons are checked.)
# See catalogue.tsv for the format of a case. ID-PATTERN (a grep -E regular
# expression) runs only the cases whose id matches it.
set -u

FLITLAB=$1
only=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/gen" "$tmp/case"
# Most fixtures are text in files/; the project files (SQLite) and a few
# others are made here, from SQL text and flitlab itself.
if ! sh "$here/make-fixtures.sh" "$FLITLAB" "$here/files" "$tmp/gen" >"$tmp/gen.log" 2>&1; then
  echo "Bail out! cannot make the fixtures: $(tail -3 "$tmp/gen.log" | tr '\n' ' ')"
  exit 1
fi
root=0
[ "$(id -u)" -eq 0 ] && root=1

n=0
failed=0
tab=$(printf '\t')
# The placeholders made paths once for all cases: @F/ (files/), @G/ (the
# generated fixtures), @T/ (each case's empty scratch directory).
sed -e "s|@F/|$here/files/|g" -e "s|@G/|$tmp/gen/|g" -e "s|@T/|$tmp/case/|g" \
  "$here/catalogue.tsv" >"$tmp/catalogue.tsv"

# check STATUS PATTERN: judges the case just run (flags in $maxlines,
# $stdout, $prefix); prints why it fails, nothing when it passes.
check() {
  if [ "$got" -eq 124 ] || [ "$got" -eq 137 ]; then
    echo "hangs (killed after 20 s)"; return
  fi
  if [ "$got" -ge 128 ]; then
    echo "crashes (status $got)"; return
  fi
  if grep -Eq 'runtime error|Sanitizer' "$tmp/err"; then
    echo "sanitizer report: $(grep -E 'runtime error|ERROR' "$tmp/err" | head -2)"; return
  fi
  [ "$got" -eq "$1" ] || { echo "status $got, expected $1"; return; }
  [ -s "$tmp/err" ] || { echo "no message"; return; }
  lines=$(wc -l <"$tmp/err")
  [ "$lines" -le "$maxlines" ] || { echo "$lines lines on stderr (at most $maxlines)"; return; }
  case $prefix$first in
    1flitlab:\ *|0*) ;;
    *) echo "message does not start 'flitlab: '"; return ;;
  esac
  if [ "$prefix" -eq 1 ] \
     && grep -Eq '\(null\)|line -1|column -1|: *$|[Ff]ailed\.?$|: Success$' "$tmp/err"; then
    echo "message without a reason"; return
  fi
  grep -Eq -e "$2" "$tmp/err" || { echo "message does not match /$2/"; return; }
  if [ "$stdout" -eq 0 ] && [ -s "$tmp/out" ]; then
    echo "output on stdout: $(head -c 200 "$tmp/out" | head -2 | tr '\n' ' ')"; return
  fi
}

set -f
while IFS="$tab" read -r id status flags pattern args; do
  case $id in ''|'#'*) continue ;; esac
  if [ -n "$only" ] && ! echo "$id" | grep -Eq -e "$only"; then
    continue
  fi
  n=$((n + 1))
  case ",$flags," in
    *,nonroot,*)
      if [ "$root" -eq 1 ]; then
        echo "ok $n - $id # SKIP permissions do not bind root"
        continue
      fi ;;
  esac
  rm -rf "$tmp/case" && mkdir "$tmp/case"
  stdin=/dev/null maxlines=1 stdout=0 prefix=1
  IFS=,
  for f in $flags; do
    case $f in
      stdin=*) stdin=${f#stdin=} ;;
      copy=*) cp "${f#copy=}" "$tmp/case/" ;;
      lines=*) maxlines=${f#lines=} ;;
      stdout) stdout=1 ;;
      noprefix) prefix=0 ;;
    esac
  done
  unset IFS
  eval "set -- $args"
  timeout -k 5 20 "$FLITLAB" "$@" <"$stdin" >"$tmp/out" 2>"$tmp/err"
  got=$?
  first=
  read -r first <"$tmp/err"
  why=$(check "$status" "$pattern")
  if [ -z "$why" ]; then
    echo "ok $n - $id: $(printf '%.160s' "$first")"
  else
    echo "not ok $n - $id: $why"
    sed 's/^/# stderr: /' "$tmp/err" | head -5
    failed=$((failed + 1))
  fi
done <"$tmp/catalogue.tsv"

echo "1..$n"
[ "$failed" -eq 0 ]
