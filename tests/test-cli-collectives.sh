#!/bin/sh
# test-cli-collectives.sh — `flitlab multicast`, `flitlab alltoall` and
# `flitlab schedule` end to end: paper 001's Table 1, Fig 6 and 6x6 example,
# paper 000's SEM on the 8x8 torus with a pqrs matrix, paper 004's
# colourings on the Myrinet line and mesh (Fig 4's set), a small flit-level
# run per command, the JSON keys, node coordinates, and bad input, which
# must exit non-zero with one line on stderr that names the problem. TAP.
#
# usage: test-cli-collectives.sh path/to/flitlab
set -u
. "$(dirname "$0")/cli-lib.sh"

# cli-lib's json(), with the interpreter behind python3 found once: a version
# manager's shim costs most of a second a call, and this file makes fifty.
PY=$(python3 -c 'import sys; print(sys.executable)')
json() {
  "$PY" -c "import json,sys; d=json.load(open('$tmp/out')); print($1)" 2>/dev/null
}

# An option misused: one line, exit status 2. A refused input: status 1.
refused() {
  want=$1 desc=$2 pattern=$3
  shift 3
  expect_fail "$desc" "$pattern" "$@"
  [ "$status" -eq "$want" ]
  ok $? "$desc: exit status $want (was $status)"
}

# --- help -------------------------------------------------------------------
for sub in multicast alltoall schedule; do
  run $sub --help
  [ "$status" -eq 0 ] && grep -q "^Usage: flitlab $sub" "$tmp/out" && grep -q -- "--json" "$tmp/out"
  ok $? "flitlab $sub --help shows the usage"
done
run multicast --help
grep -q "(x,y)" "$tmp/out" && grep -q "^  opt-mesh " "$tmp/out" && grep -q -- "--s-s N" "$tmp/out" \
  && grep -q -- "--vcs V" "$tmp/out"
ok $? "multicast --help documents coordinates, the algorithms, the costs and the sim options"
run --help
[ "$status" -eq 0 ] && grep -q "^  multicast " "$tmp/out" && grep -q "^  alltoall " "$tmp/out" \
  && grep -q "^  schedule " "$tmp/out"
ok $? "flitlab --help lists multicast, alltoall and schedule"

# --- multicast --table: paper 001's Table 1 and Fig 6 -------------------------
run multicast --table --k 9 --t-hold 20 --t-end 55 --json
[ "$status" -eq 0 ] && [ "$(json "([int(x) for x in d['t']], d['j'])")" = \
  "([0, 55, 75, 95, 110, 115, 130, 130, 135], [None, 1, 2, 3, 3, 4, 5, 5, 6])" ]
ok $? "Table 1 (k = 9, t_hold 20, t_end 55): t and j as the paper prints them"
[ "$(json "(d['k'], d['t_hold'], d['t_end'], d['dp'])")" = "(9, 20.0, 55.0, 'auto')" ]
ok $? "--table --json echoes k, t_hold, t_end and the programme"
run multicast --table --k 9 --t-hold 20 --t-end 55
[ "$status" -eq 0 ] && grep -q "^ *1  *0  *-$" "$tmp/out" && grep -q "^ *9  *135  *6$" "$tmp/out"
ok $? "the table: row 1 has no j, row 9 is t 135, j 6"
run multicast --table --k 9 --t-hold 20 --t-end 55 --dp quadratic --json
[ "$(json "[int(x) for x in d['t']]")" = "[0, 55, 75, 95, 110, 115, 130, 130, 135]" ]
ok $? "--dp quadratic gives the same times"
run multicast --table --k 7 --t-hold 10 --t-end 40 --json
[ "$(json "d['t'][-1]")" = "80.0" ]
ok $? "Fig 6: 7 nodes, t_hold 10, t_end 40 take 80"
run multicast --table --k 16 --t-hold 30 --t-end 30 --json
[ "$(json "d['t'][-1]")" = "120.0" ]
ok $? "t_hold = t_end: 16 nodes take the binomial time, log2(16) t_end = 120"

# --- multicast on a network: paper 001's 6x6 example ------------------------
EX6="--source (3,2) --dests (1,5),(2,1),(3,4),(4,3),(4,4),(5,1),(5,4)"
run multicast mesh:6x6 --algorithm opt-mesh $EX6 --json
missing=$(json "','.join(k for k in ['algorithm','source','dests','t_hold','t_end','latency','tree','contention'] if k not in d)")
[ "$status" -eq 0 ] && [ -z "$missing" ]
ok $? "multicast --json has every documented key (missing: ${missing:-none})"
[ "$(json "(d['algorithm'], d['latency'], d['contention'], d['t_hold'], d['t_end'])")" = \
  "('opt-mesh', 130.0, [], 20.0, 55.0)" ]
ok $? "6x6 example: OPT-mesh takes 130, contention-free (defaults t_hold 20, t_end 55)"
[ "$(json "sorted(d['tree'][0].keys())")" = "['child', 'parent', 'receive', 'send', 'step']" ] \
  && [ "$(json "len(d['tree']) == 7 and all(e['receive'] - e['send'] == 55 for e in d['tree'])")" = True ]
ok $? "the tree: 7 edges with parent, child, step, send and receive t_end later"
[ "$(json "(d['source'], d['dests'])")" = "(15, [31, 8, 27, 22, 28, 11, 29])" ]
ok $? "(x,y) is the first host of the switch at x, y: (3,2) is host 15 on mesh:6x6"
[ "$(json "[(e['parent'], e['child'], e['send']) for e in d['tree']][:3]")" = \
  "[(15, 28, 0.0), (15, 27, 20.0), (15, 31, 40.0)]" ]
ok $? "the source sends to (4,4), (3,4), (1,5) first, as Fig 7 does"
run multicast mesh:6x6 --algorithm u-mesh $EX6 --json
[ "$status" -eq 0 ] && [ "$(json "(d['latency'], d['contention'])")" = "(165.0, [])" ]
ok $? "6x6 example: U-mesh takes 165, contention-free"
run multicast mesh:6x6 --algorithm opt-mesh --source 15 --dests 31,8,27,22,28,11,29 --json
[ "$(json "d['latency']")" = "130.0" ]
ok $? "the same nodes as host numbers"
run multicast mesh:6x6 --algorithm opt-mesh $EX6
[ "$status" -eq 0 ] && grep -q "^latency  *130$" "$tmp/out" && grep -q "^contention  *none" "$tmp/out" \
  && grep -q "^source  *15 (3,2)$" "$tmp/out"
ok $? "the table: latency 130, no contention, the source with its coordinates"
run multicast mesh:4x4 --algorithm binomial --source 0 --dests 1,2,3,4,5,6 --t-hold 10 --t-end 40 --json
[ "$(json "d['latency']")" = "120.0" ]
ok $? "Fig 6: the binomial tree of 7 nodes takes 120"
run multicast mesh:4x4 --algorithm opt-tree --source 0 --dests 1,2,3,4,5,6 --t-hold 10 --t-end 40 --json
[ "$(json "d['latency']")" = "80.0" ]
ok $? "Fig 6: the OPT-tree of 7 nodes takes 80"
run multicast mesh:6x6 --algorithm binomial --source "(0,0)" --dests "(5,0),(1,0),(4,0)" --json
[ "$(json "d['contention']")" = "[{'a': 1, 'b': 2, 'channel': 4, 'from': 1, 'to': 2}]" ]
ok $? "contention: the binomial tree's 0->5 and 1->4 share the channel from switch 1 to 2"
run multicast mesh:6x6 --algorithm binomial --source "(0,0)" --dests "(5,0),(1,0),(4,0)"
grep -q "0->5 and 1->4 share channel 4 (switch 1>2)" "$tmp/out"
ok $? "the table names the shared channel by its switches"
for alg in sequential chain binomial opt-tree; do
  run multicast torus:4x4 --algorithm $alg --source 0 --dests 5,10,15,3 --json
  [ "$status" -eq 0 ] && [ "$(json "sorted(e['child'] for e in d['tree'])")" = "[3, 5, 10, 15]" ]
  ok $? "$alg on a torus reaches every destination once"
done
run multicast "irregular:16,ports=4,hosts=2,seed=3" --algorithm opt-tree --source 0 --dests 7,20,31 --json
[ "$status" -eq 0 ] && [ "$(json "len(d['tree'])")" = 3 ]
ok $? "an irregular network takes its own routing (updown)"
run multicast mesh:6x6 --algorithm chain --source 0 --dests 5,35 --routing dor --order yx --json
[ "$status" -eq 0 ] && [ "$(json "d['latency']")" = "110.0" ]
ok $? "--routing and its options are accepted"

# --- --random ---------------------------------------------------------------
run multicast mesh:8x8 --algorithm opt-tree --source 3 --random 20 --seed 7 --json
[ "$status" -eq 0 ] && [ "$(json "len(set(d['dests'])) == 20 and 3 not in d['dests'] and all(0 <= x < 64 for x in d['dests'])")" = True ]
ok $? "--random 20: 20 distinct destinations, not the source"
first=$(json "d['dests']")
run multicast mesh:8x8 --algorithm opt-tree --source 3 --random 20 --seed 7 --json
[ "$(json "d['dests']")" = "$first" ]
ok $? "--random with one seed picks the same destinations"
run multicast mesh:8x8 --algorithm opt-tree --source 3 --random 20 --seed 8 --json
[ "$(json "d['dests']")" != "$first" ]
ok $? "another seed, other destinations"
run multicast mesh:4x4 --algorithm chain --random 15 --json
[ "$status" -eq 0 ] && [ "$(json "sorted(d['dests'] + [d['source']]) == list(range(16))")" = True ]
ok $? "--random without --source draws the source too; K = hosts - 1 takes every other host"

# --- --simulate -------------------------------------------------------------
run multicast mesh:6x6 --algorithm opt-mesh $EX6 --simulate --size 64 --json
[ "$status" -eq 0 ] && [ "$(json "(d['t_hold'], d['t_end'])")" = "(2128.0, 5948.0)" ]
ok $? "--simulate: t_hold = s_s + s_d L = 2128, t_end = t_hold + (c_d + r_d) L + r_s = 5948"
[ "$(json "d['simulated_latency'] >= d['latency'] and all(e['received'] >= e['arrived'] + 3500 + 3 * 64 and e['arrived'] > e['injected'] >= e['start'] for e in d['tree'])")" = True ]
ok $? "simulated latency >= the model's (head latency 0), every message received"
[ "$(json "d['simulated_latency'] == max(e['received'] for e in d['tree']) and d['simulated_latency'] - d['latency'] < 100")" = True ]
ok $? "the simulated latency is the last receipt, within 100 cycles of the model (no contention)"
[ "$(json "(d['size'], d['costs'])")" = "(64, {'s_s': 2000, 's_d': 2, 'r_s': 3500, 'r_d': 3, 'c_d': 2, 'max_packet': 0})" ]
ok $? "paper 001's section 4.2 costs by default"
run multicast mesh:6x6 --algorithm opt-mesh $EX6 --simulate --size 64 --t-hold 20 --t-end 55 \
  --s-s 10 --s-d 1 --r-s 5 --r-d 1 --c-d 1 --max-packet 16 --vcs 1 --buf 4 --json
[ "$status" -eq 0 ] && [ "$(json "(d['latency'], d['costs']['max_packet'], d['simulated_latency'] > 0)")" = "(130.0, 16, True)" ]
ok $? "--t-hold/--t-end given keep the model's times; every cost and sim option is taken"
run multicast mesh:6x6 --algorithm opt-mesh $EX6 --simulate --size 8
[ "$status" -eq 0 ] && grep -q "^simulated latency  *[0-9]* (8-flit messages)" "$tmp/out" \
  && grep -q "sim start" "$tmp/out"
ok $? "the table shows the simulated latency and each message's times"

# --- multicast: bad input ---------------------------------------------------
refused 1 "a mesh algorithm on a torus" "opt-mesh needs a 2D mesh, not a torus" \
  multicast torus:6x6 --algorithm opt-mesh --source 0 --dests 1,2
refused 1 "u-mesh without dor" "u-mesh needs dimension-order routing" \
  multicast mesh:6x6 --algorithm u-mesh --source 0 --dests 1,2 --routing updown
refused 2 "a destination that does not exist" "--dests: host 99 does not exist (the network has hosts 0 to 35)" \
  multicast mesh:6x6 --algorithm opt-tree --source 0 --dests 1,99
refused 2 "a source that does not exist" "--source: host 36 does not exist" \
  multicast mesh:6x6 --algorithm opt-tree --source 36 --dests 1
refused 2 "the source among the destinations" "the source, host 15, is among the destinations" \
  multicast mesh:6x6 --algorithm opt-tree --source "(3,2)" --dests "1,(3,2)"
refused 2 "a repeated destination" "--dests: host 1 is given twice" \
  multicast mesh:6x6 --algorithm opt-tree --source 0 --dests "1,2,(1,0)"
refused 2 "coordinates off the grid" "--dests: no switch is at (6,0)" \
  multicast mesh:6x6 --algorithm opt-tree --source 0 --dests "(6,0)"
refused 2 "three coordinates on a 2D mesh" "has 3 coordinates; this network's switches have 2" \
  multicast mesh:6x6 --algorithm opt-tree --source 0 --dests "(1,2,3)"
refused 2 "coordinates on a network without them" "this network's switches have no coordinates" \
  multicast "irregular:16,ports=4,hosts=1,seed=1" --algorithm chain --source 0 --dests "(1,2)"
refused 2 "a node that is neither" "'x1' is neither a host number nor coordinates" \
  multicast mesh:6x6 --algorithm chain --source 0 --dests x1
refused 2 "an unknown algorithm" "unknown multicast algorithm 'frob'" \
  multicast mesh:6x6 --algorithm frob --source 0 --dests 1
refused 2 "no algorithm" "--algorithm" multicast mesh:6x6 --source 0 --dests 1
refused 2 "no destinations" "--dests D1,D2,... or --random K" multicast mesh:6x6 --algorithm chain --source 0
refused 2 "--dests and --random" "do not go together" \
  multicast mesh:6x6 --algorithm chain --source 0 --dests 1 --random 3
refused 2 "--random too large" "--random 36: the network has 35 hosts besides the source" \
  multicast mesh:6x6 --algorithm chain --source 0 --random 36
refused 2 "--t-hold alone" "--t-hold needs --t-end" \
  multicast mesh:6x6 --algorithm chain --source 0 --dests 1 --t-hold 3
refused 2 "--size without --simulate" "--size goes with --simulate" \
  multicast mesh:6x6 --algorithm chain --source 0 --dests 1 --size 8
refused 2 "a cost without --simulate" "--r-s goes with --simulate" \
  multicast mesh:6x6 --algorithm chain --source 0 --dests 1 --r-s 8
refused 2 "--table with a network" "--table takes no network" \
  multicast mesh:6x6 --table --k 4 --t-hold 1 --t-end 2
refused 2 "--table without --k" "needs --k K" multicast --table --t-hold 1 --t-end 2
refused 2 "--table with a cost" "--s-s goes with --simulate" \
  multicast --table --k 4 --t-hold 1 --t-end 2 --s-s 5
refused 2 "the O(k) form with t_end < t_hold" "t_end >= t_hold" \
  multicast --table --k 4 --t-hold 10 --t-end 2 --dp linear
refused 2 "--k without --table" "--k goes with --table" \
  multicast mesh:6x6 --algorithm chain --source 0 --dests 1 --k 4
refused 1 "a network that cannot be loaded" "even" multicast xmesh:5x5 --algorithm chain --source 0 --dests 1

# --- alltoall: paper 000's SEM ------------------------------------------------
run alltoall torus:8x8 --algorithm sem --json
missing=$(json "','.join(k for k in ['algorithm','n','delivered','messages','startups','steps','per_step','costs'] if k not in d)")
[ "$status" -eq 0 ] && [ -z "$missing" ]
ok $? "alltoall --json has every documented key (missing: ${missing:-none})"
[ "$(json "(d['messages'], d['delivered'], d['startups'], d['steps'], len(d['per_step']))")" = "(4032, 4032, 7, 7, 7)" ]
ok $? "SEM on 8x8: all 4032 = N^2 (N^2 - 1) blocks delivered, 7 = N/4 + 5 start-ups"
[ "$(json "sorted(d['per_step'][0].keys()) == sorted(['step','label','stage','phase','index','messages','blocks','max_blocks','max_hops','block_hops','max_link_load','max_held']) and d['per_step'][0]['label'] == 'stage 1 step 1'")" = True ]
ok $? "per_step: label, messages, blocks, max_blocks, max_hops, max_link_load, max_held"
[ "$(json "(d['costs']['paper_startups_text'], d['costs']['paper_startups_table'], d['costs']['max_link_load'])")" = "(7.0, 9.0, 1)" ]
ok $? "the paper's start-ups, N/4 + 5 (text) and N/2 + 5 (Table 1); no link shared in a step"
run alltoall torus:8x8 --algorithm sem
[ "$status" -eq 0 ] && grep -q "^delivered  *4032 of 4032 blocks" "$tmp/out" && grep -q "^start-ups  *7" "$tmp/out" \
  && grep -q "^ *7 stage 3 step 1 " "$tmp/out" && grep -q "^  transmission " "$tmp/out"
ok $? "the table: delivered, start-ups, the steps and the cost terms"
run alltoall torus:16x16 --algorithm sem --json
[ "$(json "(d['delivered'] == d['messages'] == 65280, d['startups'])")" = "(True, 9)" ]
ok $? "SEM on 16x16: every block delivered in N/4 + 5 = 9 start-ups"
run alltoall torus:4x4 --algorithm direct --json
[ "$(json "(d['delivered'], d['startups'], d['costs']['paper_startups_text'])")" = "(240, 15, None)" ]
ok $? "direct exchange on 4x4: 240 blocks in N^2 - 1 steps; the SEM formulas are null"

# --- alltoall --step --node: the pqrs matrix ----------------------------------
run alltoall torus:8x8 --algorithm sem --step 0 --node "(0,0)"
[ "$status" -eq 0 ] && grep -q "^P(0,0) (node 0) before the first step: 63 blocks$" "$tmp/out" \
  && grep -qx "0: 0001 0002 0003 0004 0005 0006 0007" "$tmp/out"
ok $? "before the first step P(0,0) holds its own blocks: 0: 0001 0002 ... 0007"
run alltoall torus:8x8 --algorithm sem --step 1 --node 0
grep -qx "0: 0100 0001 0002 0102 0003 0103 0004 0104 0005 0105 0006 0106 0007 0107" "$tmp/out" \
  && ! grep -q "^1:" "$tmp/out"
ok $? "after stage 1 step 1 P(0,0) holds its and P(0,1)'s blocks for even rows"
run alltoall torus:8x8 --algorithm sem --step 7 --node "(1,1)" --json
[ "$status" -eq 0 ] && [ "$(json "(d['node'], d['i'], d['j'], d['blocks'], d['label'], len(d['matrix']), all(w.endswith('11') for w in d['matrix'][0].split()[1:]))")" = \
  "(9, 1, 1, 63, 'stage 3 step 1', 1, True)" ]
ok $? "after the last step P(1,1) holds the 63 blocks for it, one row: 1: ..11"
refused 2 "--step past the last" "--step 8: sem on 8 x 8 has steps 0 to 7" \
  alltoall torus:8x8 --algorithm sem --step 8 --node 0
refused 2 "--node off the torus" "--node (8,1)" alltoall torus:8x8 --algorithm sem --step 1 --node "(8,1)"
refused 2 "--step without --node" "--step needs --node" alltoall torus:8x8 --algorithm sem --step 1

# --- alltoall --simulate ------------------------------------------------------
run alltoall torus:8x8 --algorithm sem --simulate --block-flits 2 --json
[ "$status" -eq 0 ] && [ "$(json "d['simulated_completion'] == d['per_step'][-1]['sim_finish'] and all(s['sim_finish'] > s['sim_start'] for s in d['per_step']) and all(a['sim_finish'] <= b['sim_finish'] for a, b in zip(d['per_step'], d['per_step'][1:]))")" = True ]
ok $? "SEM flit by flit: each step finishes after it starts, in order; the last is the completion"
[ "$(json "(d['block_flits'], d['sim_costs']['s_s'], d['simulated_completion'] >= 7 * (2000 + 3500))")" = "(2, 2000, True)" ]
ok $? "7 steps take at least 7 (s_s + r_s)"
run alltoall torus:8x8 --algorithm sem --simulate
[ "$status" -eq 0 ] && grep -q "^simulated  *[0-9]* cycles (1-flit blocks)" "$tmp/out" && grep -q "sim end" "$tmp/out"
ok $? "the table shows the completion and each step's start and end"

# --- alltoall: bad input ------------------------------------------------------
refused 1 "N not a power of two" "N a power of two" alltoall torus:6x6 --algorithm sem
refused 1 "N < 8 for SEM" "got N = 4" alltoall torus:4x4 --algorithm sem
refused 1 "a mesh" "N x N torus (torus:8x8), not mesh:8x8" alltoall mesh:8x8 --algorithm sem
refused 1 "a torus that is not square" "not torus:8x4" alltoall torus:8x4 --algorithm direct
refused 1 "two hosts per switch" "one host per switch" alltoall "torus:8x8,hosts=2" --algorithm sem
refused 2 "an unknown algorithm" "unknown complete-exchange algorithm 'frob'" alltoall torus:8x8 --algorithm frob
refused 2 "--block-flits without --simulate" "--block-flits goes with --simulate" \
  alltoall torus:8x8 --algorithm sem --block-flits 2

# --- schedule: paper 004 -----------------------------------------------------
run schedule myrinet-line:16 --random 20 --seed 5 --json
missing=$(json "','.join(k for k in ['l_max','colors','valid','requests'] if k not in d)")
[ "$status" -eq 0 ] && [ -z "$missing" ]
ok $? "schedule --json has every documented key (missing: ${missing:-none})"
[ "$(json "(d['colors'] == d['l_max'], d['valid'], len(d['requests']), sorted(d['requests'][0].keys()))")" = \
  "(True, True, 20, ['color', 'dst', 'path', 'src'])" ]
ok $? "myrinet-line: AssignColor_Linear uses exactly L_max colours, valid"
good=0
for seed in 1 2 3 4 5 6; do
  run schedule myrinet-mesh:6x5 --random 16 --pattern permutation --seed $seed --json
  [ "$status" -eq 0 ] && [ "$(json "d['valid'] and d['colors'] <= 3 * d['l_max'] // 2")" = True ] || good=1
done
ok $good "myrinet-mesh: AssignColor_Mesh valid with at most floor(3/2 L_max) colours (6 seeds)"
run schedule myrinet-mesh:4x4 --random 6 --seed 2 --json
[ "$(json "all(r['path'][0] != r['path'][-1] or len(r['path']) == 1 for r in d['requests']) and all(len(r['path']) >= 1 for r in d['requests'])")" = True ]
ok $? "each request's path is a list of switches"

# Fig 4's five paths on the 4 x 8 mesh (myrinet-mesh:8x4), hosts found from
# their switches' coordinates.
host() {
  run multicast myrinet-mesh:8x4 --algorithm chain --source "$1" --random 1 --json
  json "d['source']"
}
cat >"$tmp/fig4.txt" <<EOF
# paper 004 Fig 4
$(host "(2,0)") $(host "(4,3)")
$(host "(6,0)") $(host "(4,3)")
$(host "(5,0)") $(host "(2,3)")
$(host "(0,0)") $(host "(2,3)")
$(host "(1,0)") $(host "(3,0)")
EOF
for alg in exact assigncolor greedy; do
  run schedule myrinet-mesh:8x4 --requests "$tmp/fig4.txt" --algorithm $alg --json
  [ "$status" -eq 0 ] && [ "$(json "(d['l_max'], d['colors'], d['valid'])")" = "(2, 3, True)" ]
  ok $? "Fig 4 with $alg: L_max 2, 3 colours, valid"
done
[ "$(json "[r['color'] for r in d['requests']]")" = "[0, 1, 0, 1, 2]" ]
ok $? "Fig 4 greedy in order: colours 1, 2, 1, 2, 3 as the text tells"
run schedule myrinet-mesh:8x4 --requests "$tmp/fig4.txt" --algorithm exact
[ "$status" -eq 0 ] && grep -q "^L_max  *2" "$tmp/out" && grep -q "^colours  *3$" "$tmp/out" \
  && grep -q "^valid  *yes" "$tmp/out" && grep -q "^ *4 " "$tmp/out"
ok $? "the table: L_max, colours, valid and one row per request"
run schedule myrinet-mesh:8x4 --pattern top-down --seed 2 --json
[ "$status" -eq 0 ] && [ "$(json "d['valid'] and len(d['requests']) > 0")" = True ]
ok $? "--pattern top-down"
run schedule myrinet-mesh:8x4 --random 10 --pattern hotspot --hot "(0,0)" --fraction 1 --json
[ "$status" -eq 0 ] && [ "$(json "d['valid'] and all(r['dst'] == 0 for r in d['requests'])")" = True ]
ok $? "--pattern hotspot --fraction 1: every request to the hot host"

# --- schedule --simulate -------------------------------------------------------
run schedule myrinet-mesh:6x5 --random 12 --pattern permutation --seed 3 --simulate --size 8 --json
[ "$status" -eq 0 ] && [ "$(json "len(d['phases']) == d['colors'] and all(p['delayed'] == 0 for p in d['phases']) and sum(p['requests'] for p in d['phases']) == 12 and d['completion'] == d['phases'][-1]['end']")" = True ]
ok $? "each colour as a phase: no request delayed (distinct sources and destinations)"
[ "$(json "all(a['end'] <= b['start'] for a, b in zip(d['phases'], d['phases'][1:]))")" = True ]
ok $? "a phase starts once the one before has been delivered"
run schedule myrinet-line:8 --random 6 --simulate
[ "$status" -eq 0 ] && grep -q "^ *colour  *requests  *start  *end  *delayed" "$tmp/out"
ok $? "the table shows the phases"

# --- schedule: bad input ----------------------------------------------------------
printf '0 5\n3 99\n' >"$tmp/bad.txt"
refused 1 "a request naming a missing host" "bad.txt: line 2: host 99 does not exist" \
  schedule myrinet-line:4 --requests "$tmp/bad.txt"
refused 1 "a file that cannot be read" "cannot open request file" \
  schedule myrinet-line:4 --requests "$tmp/none.txt"
refused 1 "a network that is not Myrinet" "need a myrinet-line or myrinet-mesh network" \
  schedule mesh:4x4 --random 3
refused 1 "top-down on a line" "top-down requests need a myrinet-mesh" \
  schedule myrinet-line:4 --pattern top-down
refused 2 "an unknown colouring" "unknown colouring 'frob'" schedule myrinet-line:4 --random 3 --algorithm frob
refused 2 "an unknown pattern" "--pattern: unknown value 'frob'" schedule myrinet-line:4 --random 3 --pattern frob
refused 2 "no requests" "--requests FILE, --random K or --pattern top-down" schedule myrinet-line:4
refused 2 "--hot without hotspot" "--hot goes with --pattern hotspot" schedule myrinet-line:4 --random 3 --hot 2
refused 2 "--size without --simulate" "--size goes with --simulate" schedule myrinet-line:4 --random 3 --size 2

# --- the engine's multicast model: sim --mode multicast ----------------------
# The run an experiment makes of settings (mode=multicast, algorithm, random,
# message-size, the costs, seed) is `multicast --random K --seed S --simulate`.
for alg in opt-mesh u-mesh binomial; do
  run multicast mesh:8x8 --routing dor --algorithm $alg --random 15 --seed 4 --simulate \
    --size 128 --max-packet 32 --s-s 500 --json
  want=$(json "(d['source'], d['dests'], d['t_hold'], d['t_end'], d['latency'], \
d['simulated_latency'], len(d['contention']))")
  run sim mesh:8x8 --routing dor --mode multicast --algorithm $alg --random 15 --seed 4 \
    --message-size 128 --max-packet 32 --s-s 500 --json
  got=$(json "(d['source'], d['dests'], d['t_hold'], d['t_end'], d['latency'], \
d['simulated_latency'], d['contention'])")
  [ "$status" -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] \
    && [ "$(json "abs(d['latency_ratio'] - d['simulated_latency'] / d['latency']) < 1e-8")" = True ]
  ok $? "sim --mode multicast --algorithm $alg is multicast --random 15 --seed 4 --simulate: $got"
done
run sim mesh:8x8 --routing dor --mode multicast --model-only --json
[ "$status" -eq 0 ] && [ "$(json "('simulated_latency' in d, d['algorithm'], len(d['dests']), \
d['t_hold'])")" = "(False, 'opt-tree', 7, 2128.0)" ]
ok $? "sim --mode multicast --model-only: the model alone, paper 001's defaults"
refused 2 "a multicast setting in the flit model" "--message-size does not apply" \
  sim mesh:4x4 --routing dor --message-size 8
refused 2 "a flit setting in the multicast model" "--rate does not apply to --mode multicast" \
  sim mesh:4x4 --routing dor --mode multicast --rate 0.2
refused 1 "more destinations than hosts" "besides the source" \
  sim mesh:4x4 --routing dor --mode multicast --random 16

tap_end
