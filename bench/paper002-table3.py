#!/usr/bin/env python3
"""paper002-table3.py -- paper 002's Table 3 on Flitlab's simulator.

    bench/paper002-table3.py [FLITLAB]      (default build/src/cli/flitlab)

The 8x8 torus with four hosts per switch, virtual cut-through with one
128-flit buffer per channel, 128-flit packets and 3 clocks per flit: a
load-throughput sweep for up*/down* and the four L-turn/R-turn routings,
uniform and bit-reversal traffic, under each output selection (lowest port,
most credits, random); then bit reversal between switches (host j of switch
s to host j of switch reverse(s)) from a trace, at offered 0.04 with
`credits`. Prints the README's tables in Markdown: the peak accepted
throughput of each sweep, averaged over five seeds (the peak of one sweep
varies by about 10 % from seed to seed), and its ratio to up*/down*,
beside the paper's. Takes about 10 minutes on two cores. Run by hand.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

FLITLAB = sys.argv[1] if len(sys.argv) > 1 else "build/src/cli/flitlab"
HERE = os.path.dirname(os.path.abspath(__file__))
TRACE_TOOL = os.path.join(HERE, "..", "tools", "switch-bitrev-trace.py")

NET = ["torus:8x8,hosts=4", "--switching", "vct", "--packet", "128", "--buf", "128",
       "--vcs", "1", "--link-cycles-per-flit", "3"]
ROUTINGS = [("up*/down*", "updown"), ("L-turn/alpha", "lturn-alpha"),
            ("L-turn/beta", "lturn-beta"), ("R-turn/alpha", "rturn-alpha"),
            ("R-turn/beta", "rturn-beta")]
SELECTIONS = ["lowest", "credits", "random"]
SEEDS = [1, 2, 3, 4, 5]
TRAFFIC = ["uniform", "bitrev"]
# The paper's Table 3: peak throughput, uniform and bit reversal.
PAPER = {"updown": (0.0455, 0.0414), "lturn-alpha": (0.0771, 0.0812),
         "lturn-beta": (0.0691, 0.0800), "rturn-alpha": (0.0507, 0.0513),
         "rturn-beta": (0.0491, 0.0513)}


def flitlab(*args):
    return subprocess.run([FLITLAB, *args], check=True, capture_output=True,
                          text=True).stdout


def peak(routing, traffic, selection, seed):
    text = flitlab("sweep", *NET, "--routing", routing, "--traffic", traffic,
                   "--selection", selection, "--rates", "0.004:0.04:0.002",
                   "--warmup", "10000", "--measure", "40000", "--drain", "40000",
                   "--seed", str(seed))
    rows = list(csv.DictReader(io.StringIO(text)))
    return max(float(r["throughput"]) for r in rows)


def main():
    got = {}
    for sel in SELECTIONS:
        for _, r in ROUTINGS:
            for t in TRAFFIC:
                runs = [peak(r, t, sel, seed) for seed in SEEDS]
                got[sel, r, t] = sum(runs) / len(runs)
                print(f"# {sel} {r} {t}: " + " ".join(f"{x:.4f}" for x in runs),
                      file=sys.stderr)

    head = "| routing |" + "".join(f" {s}: uniform | bit rev. |" for s in SELECTIONS)
    print(head + " paper: uniform | bit rev. |")
    print("|---|" + "---|---|" * (len(SELECTIONS) + 1))
    for name, r in ROUTINGS:
        cells = []
        for sel in SELECTIONS:
            for t in TRAFFIC:
                v, base = got[sel, r, t], got[sel, "updown", t]
                cells.append(f"{v:.4f} ({v / base:.2f})")
        for i in range(2):
            v, base = PAPER[r][i], PAPER["updown"][i]
            cells.append(f"{v:.4f} ({v / base:.2f})")
        print(f"| {name} | " + " | ".join(cells) + " |")

    # Bit reversal between switches, from a trace.
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "bitrev-sw.trace")
        with open(trace, "w") as f:
            subprocess.run([sys.executable, TRACE_TOOL, "64", "4", "0.04", "128", "50000"],
                           check=True, stdout=f)
        print("\nBit reversal between switches (trace, offered 0.04, credits):\n")
        print("| routing | accepted | ratio to up*/down* |")
        print("|---|---|---|")
        base = None
        for name, r in ROUTINGS:
            d = json.loads(flitlab("sim", *NET, "--routing", r, "--traffic", "trace",
                                   "--trace", trace, "--warmup", "10000", "--measure",
                                   "40000", "--drain", "0", "--json"))
            base = base or d["throughput"]
            print(f"| {name} | {d['throughput']:.4f} | {d['throughput'] / base:.2f} |")


if __name__ == "__main__":
    main()
