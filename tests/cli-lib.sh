# cli-lib.sh — shared helpers of the CLI tests, sourced by tests/test-cli*.sh.
# Each test script is run as `test-cli-X.sh path/to/flitlab` and prints TAP.
#
#   ok STATUS DESCRIPTION        one test point: passes when STATUS is 0
#   run ARGS...                  runs flitlab; keeps $tmp/out, $tmp/err, $status
#   json EXPR                    a python expression on d, the last output's JSON
#   expect_fail DESC PATTERN ARGS...
#                                flitlab must exit non-zero with exactly one line
#                                on stderr, "flitlab: ..." containing PATTERN,
#                                and nothing on stdout
#   tap_end                      prints the plan; the script's exit status

FLITLAB=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

ok() {
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then
    echo "ok $n - $2"
  else
    echo "not ok $n - $2"
    failed=$((failed + 1))
  fi
}

run() {
  "$FLITLAB" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
}

json() {
  python3 -c "import json,sys; d=json.load(open('$tmp/out')); print($1)" 2>/dev/null
}

expect_fail() {
  desc=$1 pattern=$2
  shift 2
  run "$@"
  lines=$(wc -l <"$tmp/err")
  if [ "$status" -ne 0 ] && [ "$lines" -eq 1 ] && grep -q "^flitlab: .*$pattern" "$tmp/err" \
     && [ ! -s "$tmp/out" ]; then
    ok 0 "$desc: $(cat "$tmp/err")"
  else
    ok 1 "$desc: status $status, stderr: $(cat "$tmp/err")"
  fi
}

tap_end() {
  echo "1..$n"
  [ "$failed" -eq 0 ]
}
