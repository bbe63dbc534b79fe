#!/bin/sh
# test-cli-metrics.sh — `flitlab topo metrics` on a long exhaustive bisection
# search: --exact-max's range (the engine's), progress on standard error, and
# Ctrl+C, which stops the search at once with status 130 and prints nothing
# on standard output. TAP output.
#
# usage: test-cli-metrics.sh path/to/flitlab
set -u
. "$(dirname "$0")/cli-lib.sh"

# A search of some minutes (tens of seconds under load at best).
long=irregular:48,ports=16

# --- the range -------------------------------------------------------------
expect_fail "--exact-max 49 is refused" \
  "exact-max must be from 0 (the default, 28) to 48 switches, not 49: .*hours.*METIS" \
  topo metrics irregular:64,ports=8 --exact-max 49
[ "$status" -eq 2 ]
ok $? "--exact-max 49: status 2 (got $status)"
expect_fail "--exact-max 64 (the issue's hours-long run) is refused" "--exact-max .* not 64" \
  topo metrics irregular:64,ports=8 --exact-max 64
[ "$status" -eq 2 ]
ok $? "--exact-max 64: status 2 (got $status)"
expect_fail "--exact-max -1 is refused" "--exact-max .* not -1" \
  topo metrics ring:6 --exact-max -1
[ "$status" -eq 2 ]
ok $? "--exact-max -1: status 2 (got $status)"
expect_fail "--exact-max lots is refused" "--exact-max needs a whole number of switches, not 'lots'" \
  topo metrics ring:6 --exact-max lots
[ "$status" -eq 2 ]
ok $? "--exact-max lots: status 2 (got $status)"

run topo metrics --help
grep -q -- "--exact-max N .*up to N switches, 0 to 48 .*hours.*METIS.*(default 28)" "$tmp/out"
ok $? "--help gives --exact-max's range, why, and its default"
grep -q -- "--progress" "$tmp/out" && grep -q "Ctrl+C stops it (exit status 130)" "$tmp/out"
ok $? "--help gives --progress and what Ctrl+C does"

run topo metrics irregular:48,ports=4 --exact-max 48 --json
[ "$status" -eq 0 ] && [ "$(json "(d['bisection_width'], d['bisection_method'])")" = "(16, 'exhaustive')" ]
ok $? "--exact-max 48 runs the search on 48 switches (status $status)"
[ ! -s "$tmp/err" ]
ok $? "a quick measurement prints no progress when stderr is not a terminal"

# --- Ctrl+C ------------------------------------------------------------------
# interrupt ARGS...: runs flitlab, sends SIGINT once it has run for a while,
# and prints "STATUS SECONDS_TO_STOP" (the output is kept in $tmp).
interrupt() {
  python3 - "$FLITLAB" "$tmp" "$@" <<'EOF'
import signal, subprocess, sys, time
flitlab, tmp, args = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(tmp + "/out", "wb") as out, open(tmp + "/err", "wb") as err:
    # SIGINT as a terminal would give it, even where this test was started
    # with it ignored (an '&' job of a script, CI runners).
    p = subprocess.Popen([flitlab] + args, stdout=out, stderr=err,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(2.5)
    if p.poll() is not None:
        print(p.returncode, -1)
        sys.exit(0)
    p.send_signal(signal.SIGINT)
    t = time.monotonic()
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    print(p.returncode, round(time.monotonic() - t, 3))
EOF
}

set -- $(interrupt topo metrics "$long" --exact-max 48 --progress --json)
[ "$1" = 130 ]
ok $? "Ctrl+C stops the search with status 130 (got $1)"
awk -v s="$2" 'BEGIN { exit !(s >= 0 && s < 1.0) }'
ok $? "it stops within a second of Ctrl+C ($2 s)"
tail -1 "$tmp/err" | grep -q "^flitlab: cancelled after [0-9]* s, [0-9]*\.[0-9]% done: no result$"
ok $? "it says it was cancelled: $(tail -1 "$tmp/err")"
[ ! -s "$tmp/out" ]
ok $? "nothing is written to standard output"
grep -q "^topo metrics: *[0-9]*\.[0-9]% done after [0-9]* s (Ctrl+C stops)$" "$tmp/err"
ok $? "--progress reports on stderr, a line a second: $(head -1 "$tmp/err")"
[ "$(grep -c "% done after" "$tmp/err")" -ge 1 ] && [ "$(grep -c "% done after" "$tmp/err")" -le 3 ]
ok $? "at most one progress line a second ($(grep -c "% done after" "$tmp/err") in 2.5 s)"

set -- $(interrupt topo metrics "$long" --exact-max 48)
[ "$1" = 130 ] && [ ! -s "$tmp/out" ] && ! grep -q "% done after" "$tmp/err" \
  && grep -q "^flitlab: cancelled" "$tmp/err"
ok $? "without --progress and no terminal: no progress, Ctrl+C still cancels (status $1)"

# --- the distances of a million switches ----------------------------------
# A BFS from each switch: hours. The test waits for the first report, however
# long it takes to come, then stops the run: nothing in it is timed.
python3 - "$FLITLAB" "$tmp" <<'EOF' >"$tmp/distances"
import signal, subprocess, sys, time
flitlab, tmp = sys.argv[1], sys.argv[2]
with open(tmp + "/out", "wb") as out, open(tmp + "/err", "wb") as err:
    p = subprocess.Popen([flitlab, "topo", "metrics", "myrinet-line:1000000", "--progress",
                          "--json"], stdout=out, stderr=err,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # Only a guard against a hang, not a limit on the report: the run
    # takes hours, and reports a second into the distances.
    give_up = time.monotonic() + 600
    while p.poll() is None and time.monotonic() < give_up:
        with open(tmp + "/err", "rb") as f:
            if b"% done after" in f.read():
                break
        time.sleep(0.1)
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=600)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
print(p.returncode)
EOF
st=$(cat "$tmp/distances")
[ "$st" = 130 ]
ok $? "the distances of a million switches: Ctrl+C stops them with status 130 (got $st)"
grep -q "^topo metrics: *[0-9]*\.[0-9]% done after [0-9]* s (Ctrl+C stops)$" "$tmp/err"
ok $? "they report their progress: $(head -1 "$tmp/err")"
tail -1 "$tmp/err" | grep -q "^flitlab: cancelled after [0-9]* s, [0-9]*\.[0-9]% done: no result$"
ok $? "and say they were cancelled: $(tail -1 "$tmp/err")"
[ ! -s "$tmp/out" ]
ok $? "nothing is written to standard output"

# On a terminal, progress is the default, rewritten in place on one line.
python3 - "$FLITLAB" "$long" <<'EOF' >"$tmp/tty"
import os, pty, signal, subprocess, sys, time
master, slave = pty.openpty()
p = subprocess.Popen([sys.argv[1], "topo", "metrics", sys.argv[2], "--exact-max", "48"],
                     stdout=subprocess.DEVNULL, stderr=slave,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
os.close(slave)
time.sleep(2.5)
p.send_signal(signal.SIGINT)
p.wait(timeout=30)
data = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
print(p.returncode, data.count(b"\r"), data.count(b"% done after"), data.count(b"cancelled"))
EOF
read -r st cr lines cancelled <"$tmp/tty"
[ "$st" = 130 ] && [ "$cr" -ge 1 ] && [ "$lines" -ge 1 ] && [ "$cancelled" = 1 ]
ok $? "on a terminal: progress by default, on one line (status $st, $cr CR, $lines reports)"

tap_end
