#!/usr/bin/env python3
"""test-booksim-speed.py -- bench/booksim-speed.py's readers, without BookSim.

    tests/test-booksim-speed.py path/to/flitlab

The benchmark is run by hand; this checks what it reads. tests/data/booksim/
holds a copy of ../shared/reference/booksim2-speed.cfg and BookSim 2's
output with it (28f43299, the overrides at each file's top), trimmed to the
last sample and the overall statistics: the figures must come from the
overall statistics, and a run BookSim found unstable must be refused. A
short Flitlab run checks that the flit-hops the script derives (accepted
flits x routers crossed) match Flitlab's own count of channel traversals
once each flit's injection channel is taken off. Prints TAP.
"""
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "booksim_speed", os.path.join(HERE, "..", "bench", "booksim-speed.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

count = failed = 0


def ok(cond, what):
    global count, failed
    count += 1
    failed += not cond
    print(f"{'ok' if cond else 'not ok'} {count} - {what}")


def sample(name):
    with open(os.path.join(HERE, "data", "booksim", name)) as fh:
        return fh.read()


def near(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


got = bench.parse_booksim(sample("mesh8-packet8-0.1-latency.txt"), 64)
ok(got["cycles"] == 15081 and near(got["throughput"], 0.0999172)
   and near(got["latency"], 31.4163) and near(got["hops"], 6.22857),
   f"BookSim below saturation: the overall statistics and the last 'Time taken' ({got})")
ok(near(got["flit_hops_per_cycle"], 0.0999172 * 64 * 6.22857),
   "BookSim's flit-hops per cycle: accepted flits per node x nodes x hops")

got = bench.parse_booksim(sample("mesh16-packet8-0.4-throughput.txt"), 256)
ok(got["cycles"] == 15388 and near(got["throughput"], 0.182094)
   and near(got["latency"], 2461.57) and near(got["hops"], 10.7479),
   f"BookSim past saturation (sim_type = throughput) ({got})")

try:
    bench.parse_booksim(sample("mesh16-packet8-0.4-unstable.txt"), 256)
    ok(False, "an unstable BookSim run is refused")
except ValueError as e:
    ok(":throughput" in str(e), f"an unstable BookSim run is refused: {e}")

try:
    bench.parse_booksim(sample("mesh8-packet8-0.1-latency.txt").split("====== Overall")[0], 64)
    ok(False, "BookSim output without overall statistics is refused")
except ValueError:
    ok(True, "BookSim output without overall statistics is refused")

case = bench.parse_case("16x16:1:0.4:throughput")
ok(case["k"] == 16 and case["packet"] == 1 and case["rate"] == "0.4" and case["saturated"]
   and not bench.parse_case("8x8:8:0.1")["saturated"], "cases are read")

cfg = bench.read_config(os.path.join(HERE, "data", "booksim", "booksim2-speed.cfg"))
ok(bench.flitlab_budget(cfg) == ["--vcs", "2", "--buf", "8", "--warmup", "5000",
                                 "--measure", "10000"],
   "Flitlab's budget is BookSim's: one warm-up period, the other samples measured")

ok(bench.booksim_src_dir(HERE) is None, "a tree that is not BookSim's is not taken for it")

out = subprocess.run([sys.argv[1], "sim", "mesh:8x8", "--routing", "dor", "--pipeline",
                      "booksim-min", "--self", "--packet", "8", "--rate", "0.1",
                      "--warmup", "1000", "--measure", "4000", "--json"],
                     capture_output=True, text=True, check=True).stdout
got = bench.parse_flitlab(out, 64)
res = json.loads(out)
through_routers = res["flit_hops"] * res["hops_avg"] / (res["hops_avg"] + 1)
derived = got["flit_hops_per_cycle"] * got["cycles"]
ok(abs(derived - through_routers) < 0.02 * through_routers,
   f"Flitlab: accepted x hops x cycles ({derived:.0f}) is its channel traversals less "
   f"injection ({through_routers:.0f})")

print(f"1..{count}")
sys.exit(1 if failed else 0)
