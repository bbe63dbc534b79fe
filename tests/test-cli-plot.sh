#!/bin/sh
# test-cli-plot.sh — `flitlab plot` end to end: a small experiment with 3
# seeds, plotted in every format (each file checked for what makes it one),
# the mean and 95 % interval of a point equal to those computed here from
# `experiment export --format json`, definitions saved, listed, redrawn and
# deleted, the runs' vectors plotted over cycles and channels, and bad
# definitions refused with one line.
# Usage: test-cli-plot.sh path/to/flitlab
. "$(dirname "$0")/cli-lib.sh"

check() {
  [ "$(json "$1")" = "True" ]
  ok $? "$2"
}

P="$tmp/p.flitlab"
run project new "$P"
run experiment new "$P" small --topology mesh:4x4 --set warmup=200 --set measure=500 \
  --vary rate=0.05,0.1 --vary routing=dor,updown --vary traffic=uniform,bitrev --seeds 1:3
ok $status "experiment new: 2 rates x 2 routings x 2 traffics x 3 seeds"
run experiment run "$P" small --jobs 2
ok $status "experiment run"

PLOT="$P small --x rate --y latency_avg --series routing --where traffic=uniform"

# ---- every format ------------------------------------------------------------

run plot $PLOT -o "$tmp/f.pdf"
ok $status "plot -o f.pdf"
head -c 5 "$tmp/f.pdf" | grep -q "^%PDF-"
ok $? "the PDF starts with %PDF-"
run plot $PLOT -o "$tmp/f.svg"
[ "$status" -eq 0 ] && grep -q "<svg" "$tmp/f.svg"
ok $? "the SVG has an <svg> tag (and the run leaks nothing under the sanitizers)"
run plot $PLOT --format png -o "$tmp/f.image"
[ "$(head -c 8 "$tmp/f.image" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
ok $? "--format png writes the PNG signature whatever the name"
run plot $PLOT -o "$tmp/f.csv"
[ "$(head -1 "$tmp/f.csv")" = "series,x,y,lo,hi" ] && [ "$(wc -l <"$tmp/f.csv")" -eq 5 ] \
  && grep -q "^updown,0.1," "$tmp/f.csv"
ok $? "the CSV has a row per point: 2 routings x 2 rates"
run plot $PLOT --format gnuplot -o "$tmp/f.gp"
ok $status "plot --format gnuplot"
if command -v gnuplot >/dev/null 2>&1; then
  (cd "$tmp" && gnuplot -e 'outfile="g.pdf"' f.gp) 2>"$tmp/gnuplot.err" \
    && head -c 5 "$tmp/g.pdf" | grep -q "^%PDF-"
  ok $? "gnuplot runs the script and draws a PDF"
else
  n=$((n + 1))
  echo "ok $n - # SKIP gnuplot is not installed"
fi
run plot $PLOT --format pgfplots -o "$tmp/f.tex"
grep -q '\\begin{axis}' "$tmp/f.tex" && grep -q '\\end{tikzpicture}' "$tmp/f.tex"
ok $? "the pgfplots file has an axis in a tikzpicture"
run plot $PLOT --columns 2 --ylog --no-error-bars --title "4x4 mesh" -o "$tmp/wide.pdf"
ok $status "two columns, a log axis, no error bars, a title"

# ---- the points against the runs ---------------------------------------------

run experiment export "$P" small --format json -o "$tmp/runs.json"
run plot $PLOT --json
mv "$tmp/out" "$tmp/plot.json"
run plot "$P" small --x rate --y latency_avg --series routing --json
mv "$tmp/out" "$tmp/pooled.json"
python3 - "$tmp/runs.json" "$tmp/plot.json" "$tmp/pooled.json" <<'PY'
import json, math, sys
runs = json.load(open(sys.argv[1]))['runs']
T95 = {3: 4.303, 6: 2.571}   # Student's t, two-sided 95 %, n - 1 degrees of freedom

def expect(pick):
    v = [r['latency_avg'] for r in runs if pick(r) and r['status'] == 'done']
    m = sum(v) / len(v)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
    return m, T95[len(v)] * sd / math.sqrt(len(v)), len(v)

def point(path, label, x):
    d = json.load(open(path))
    c = [c for c in d['curves'] if c['label'] == label][0]
    return [p for p in c['points'] if abs(p['x'] - x) < 1e-12][0]

def same(p, want):
    m, h, n = want
    return (p['runs'] == n and abs(p['y'] - m) < 1e-6 and abs(p['lo'] - (m - h)) < 1e-6
            and abs(p['hi'] - (m + h)) < 1e-6)

ok = same(point(sys.argv[2], 'updown', 0.1),
          expect(lambda r: r['routing'] == 'updown' and r['rate'] == 0.1
                 and r['traffic'] == 'uniform'))
ok = ok and same(point(sys.argv[3], 'dor', 0.05),
                 expect(lambda r: r['routing'] == 'dor' and r['rate'] == 0.05))
sys.exit(0 if ok else 1)
PY
ok $? "a point's mean and interval equal those of its runs (3 seeds; 2 traffics pooled)"
cp "$tmp/plot.json" "$tmp/out"
check "d['xlabel'] == 'Offered load (flits/cycle/host)'
  and d['ylabel'] == 'Mean packet latency (cycles)' and d['runs'] == 12
  and [c['label'] for c in d['curves']] == ['dor', 'updown']" \
  "--json: labels with units, one curve per routing"

run plot "$P" small --x traffic --y throughput --series routing --where rate=0.05 --json
check "[p['xname'] for p in d['curves'][0]['points']] == ['uniform', 'bitrev']
  and [p['x'] for p in d['curves'][0]['points']] == [0, 1]" \
  "names on x: drawn at 0, 1 and named"

# ---- the runs' vectors ----------------------------------------------------------

# 700 cycles of warm-up and measurement: a sample every 5 cycles. Each
# point is the mean of the runs' samples at its cycle, as
# `experiment vectors` gives them.
run plot "$P" small --x cycle --y accepted --series rate --where routing=dor,traffic=uniform \
  --json
ok $status "plot --x cycle --y accepted"
mv "$tmp/out" "$tmp/cycle.json"
run experiment vectors "$P" small --vector accepted --format json
python3 - "$tmp/cycle.json" "$tmp/out" <<'PY'
import json, sys
plot = json.load(open(sys.argv[1]))
runs = [v for v in json.load(open(sys.argv[2]))['vectors']
        if v['routing'] == 'dor' and v['traffic'] == 'uniform' and v['rate'] == 0.1]
curve = [c for c in plot['curves'] if c['label'] == 'rate=0.1'][0]
point = curve['points'][50]
mean = sum(r['data'][50] for r in runs) / len(runs)
sys.exit(0 if len(runs) == 3 and point['x'] == 250 and point['runs'] == 3
         and abs(point['y'] - mean) < 1e-9 and plot['xlabel'] == 'Cycle' else 1)
PY
ok $? "the point at cycle 250 is the mean of the 3 seeds' sample 50"
run plot "$P" small --x channel --y channel_utilization --where rate=0.1 -o "$tmp/ch.svg"
ok $status "plot --x channel --y channel_utilization -o ch.svg"
expect_fail "a scalar over cycles" "a vector of the runs by cycle" \
  plot "$P" small --x cycle --y latency_avg --json

# ---- saved definitions ---------------------------------------------------------

run plot $PLOT --save latency
ok $status "--save NAME alone keeps the definition"
run plot "$P" small --x rate --y throughput --series routing --save accepted -o "$tmp/a.pdf"
ok $status "--save with -o"
run plot "$P" small --list
[ "$(cat "$tmp/out")" = "accepted: throughput against rate by routing
latency: latency_avg against rate by routing where traffic=uniform" ]
ok $? "--list names the saved plots"
run plot "$P" small --name latency -o "$tmp/n.csv"
cmp -s "$tmp/n.csv" "$tmp/f.csv"
ok $? "--name redraws the saved plot from the runs"
run plot "$P" small --name latency --where traffic=bitrev --json
check "d['runs'] == 12 and d['y'] == 'latency_avg'" "options given with --name override it"
run plot "$P" small --delete accepted
run plot "$P" small --list --json
check "[p['name'] for p in d] == ['latency'] and d[0]['where'] == 'traffic=uniform'" \
  "--delete, and --list --json"

# ---- refusals ------------------------------------------------------------------

expect_fail "x not varied" "does not vary 'vcs'" plot "$P" small --x vcs --y latency_avg \
  -o "$tmp/x.pdf"
expect_fail "unknown parameter as series" "does not vary 'colour'" plot "$P" small --x rate \
  --y latency_avg --series colour --json
expect_fail "y no result key" "'latency' is not a result key" plot "$P" small --x rate \
  --y latency --json
expect_fail "where value not in the design" "no routing=xy" plot "$P" small --x rate \
  --y latency_avg --where routing=xy --json
expect_fail "where key unknown" "does not vary 'bogus'" plot "$P" small --x rate \
  --y latency_avg --where bogus=1 --json
expect_fail "series on x" "already on x" plot "$P" small --x rate --y latency_avg \
  --series rate --json
expect_fail "unknown experiment" "no experiment named 'nope'" plot "$P" nope --x rate \
  --y latency_avg --json
expect_fail "unknown saved plot" "no plot named 'gone'" plot "$P" small --name gone --json
expect_fail "no x" "give --x KEY and --y KEY" plot "$P" small --y latency_avg --json
expect_fail "nowhere to put it" "give -o OUT, --json or --save" plot $PLOT
expect_fail "bad --format" "unknown value 'jpeg'" plot $PLOT --format jpeg -o "$tmp/x.jpg"
expect_fail "bad --columns" "columns" plot $PLOT --columns 3 -o "$tmp/x.pdf"
expect_fail "an unknown extension" "unknown plot format 'xyz'" plot $PLOT -o "$tmp/x.xyz"
run experiment new "$P" many --topology mesh:4x4 --set warmup=100 --set measure=200 \
  --set routing=dor --vary rate=0.05,0.1 --vary vcs=1,2,3 --vary buf=2,4,8
run experiment run "$P" many --jobs 2
expect_fail "more curves than a figure draws" "fix some parameters with --where" plot "$P" \
  many --x rate --y latency_avg -o "$tmp/x.pdf"
run plot "$P" many --x rate --y latency_avg --where vcs=2 -o "$tmp/many.pdf"
ok $status "a where brings them down to 3"
[ ! -e "$tmp/x.pdf" ] && [ ! -e "$tmp/x.xyz" ]
ok $? "no file is left behind by a refusal"

tap_end
