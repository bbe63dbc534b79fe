#!/usr/bin/env python3
"""booksim-compare.py -- Flitlab against BookSim 2 on the 8x8 mesh.

    bench/booksim-compare.py [FLITLAB]      (default build/src/cli/flitlab)

Runs the configurations of ../shared/reference/booksim2-mesh.md with
Flitlab's equivalent router (--pipeline booksim-min --self) and prints the
README's tables in Markdown: zero-load latency and hops, the saturation
measures, the 16-flit load-latency sweeps, and throughput at offered 1.0 with
one cycle more for credits (--pipeline 0:0:1:1:1). Takes about a minute on
two cores. Run by hand; its figures are simulated, so a change to the
simulator's random streams changes their last digits.
"""
import csv
import io
import json
import subprocess
import sys

FLITLAB = sys.argv[1] if len(sys.argv) > 1 else "build/src/cli/flitlab"
BASE = ["mesh:8x8", "--routing", "dor", "--pipeline", "booksim-min", "--self",
        "--warmup", "3000"]

# name, options, BookSim's zero-load latency, hops, 2x, stable, peak, @1.0 avg / min
CONFIGS = [
    ("1-flit, 2 VC", ["--packet", "1", "--vcs", "2"], 20.65, 6.21, 0.394, 0.43, 0.407, 0.383, 0.361),
    ("1-flit, 1 VC", ["--packet", "1", "--vcs", "1"], 20.64, 6.21, 0.371, 0.40, 0.381, 0.377, 0.355),
    ("16-flit, 2 VC", ["--packet", "16", "--vcs", "2"], 36.03, 6.05, 0.267, 0.35, 0.368, 0.345, 0.272),
    ("16-flit, 1 VC", ["--packet", "16", "--vcs", "1"], 35.66, 6.05, 0.223, 0.27, 0.273, 0.269, 0.208),
    ("tail-credit, 1-flit, 2 VC", ["--packet", "1", "--vcs", "2", "--release", "tail-credit"],
     20.66, 6.21, 0.116, 0.13, 0.125, 0.122, 0.110),
    ("tail-credit, 16-flit, 2 VC", ["--packet", "16", "--vcs", "2", "--release", "tail-credit"],
     36.03, 6.05, 0.250, 0.30, 0.319, 0.319, 0.257),
]


def flitlab(*args):
    out = subprocess.run([FLITLAB, *args], check=True, capture_output=True, text=True).stdout
    return out


def sim(options, *extra):
    return json.loads(flitlab("sim", *BASE, *options, *extra, "--json"))


def sweep(options):
    text = flitlab("sweep", *BASE, *options, "--measure", "3000", "--max-latency", "500",
                   "--rates", "0.01:0.5:0.01")
    return list(csv.DictReader(io.StringIO(text)))


def main():
    zero, sat, sweeps, credit1 = [], [], {}, []
    for name, opts, b_t0, b_hops, b_2x, b_stable, b_peak, b_avg, b_min in CONFIGS:
        z = sim(opts, "--rate", "0.01", "--measure", "30000")
        t0 = z["latency_avg"]
        zero.append(f"| {name} | {b_t0:.2f} | {t0:.2f} | {t0 - b_t0:+.2f} | "
                    f"{b_hops:.2f} / {z['hops_avg']:.2f} |")
        rows = sweep(opts)
        kept = [r for r in rows if r["status"] == "ok" and r["past_saturation"] == "0"]
        twice = next((float(r["rate"]) for r in rows
                      if r["status"] == "ok" and float(r["latency_avg"]) >= 2 * t0), None)
        stable = max((float(r["rate"]) for r in kept), default=0.0)
        peak = max((float(r["throughput"]) for r in rows if r["status"] == "ok"), default=0.0)
        full = sim(opts, "--rate", "1.0", "--measure", "10000", "--drain", "0")
        diff = 100.0 * (full["throughput"] - b_avg) / b_avg
        twice_s = f"{twice:.2f}" if twice is not None else "-"
        sat.append(f"| {name} | {b_2x:.3f} / {b_stable:.2f} / {b_peak:.3f} / {b_avg:.3f}, "
                   f"{b_min:.3f} | {twice_s} / {stable:.2f} / {peak:.3f} / "
                   f"{full['throughput']:.3f}, {full['throughput_min']:.3f} | {diff:+.1f} % |")
        if name.startswith("16-flit"):
            sweeps[name] = rows
        c1 = sim(opts + ["--pipeline", "0:0:1:1:1"], "--rate", "1.0", "--measure", "10000",
                 "--drain", "0")
        credit1.append(f"| {name} | {b_avg:.3f} / {b_min:.3f} | {c1['throughput']:.3f} / "
                       f"{c1['throughput_min']:.3f} | {full['throughput']:.3f} |")

    print("Zero-load latency (offered 0.01):\n")
    print("| configuration | BookSim | Flitlab | difference | hops (BookSim / Flitlab) |")
    print("|---|---|---|---|---|")
    print("\n".join(zero))
    print("\nSaturation: 2x zero-load / stable / peak / @1.0 mean, worst node:\n")
    print("| configuration | BookSim 2x / stable / peak / @1.0 | "
          "Flitlab 2x / stable / peak / @1.0 | @1.0 difference |")
    print("|---|---|---|---|")
    print("\n".join(sat))
    print("\nFlitlab sweep, 16-flit packets (--measure 3000):\n")
    a, b = sweeps["16-flit, 2 VC"], sweeps["16-flit, 1 VC"]
    print("| offered | 2 VC: latency / net latency / accepted | 1 VC: latency / net latency / accepted |")
    print("|---|---|---|")

    def cell(rows, rate):
        for r in rows:
            if abs(float(r["rate"]) - rate) < 1e-9:
                if r["status"] != "ok" or r["past_saturation"] != "0":
                    return "saturated (stop)"
                return (f"{float(r['latency_avg']):.2f} / {float(r['network_latency_avg']):.2f}"
                        f" / {float(r['throughput']):.4f}")
        return ""
    for rate in [0.10, 0.20, 0.25, 0.28, 0.29, 0.30, 0.32, 0.34, 0.36, 0.37, 0.38]:
        ca, cb = cell(a, rate), cell(b, rate)
        if ca or cb:
            print(f"| {rate:.2f} | {ca} | {cb} |")
    print("\nAt offered 1.0 with credit_delay 1 (--pipeline 0:0:1:1:1):\n")
    print("| configuration | BookSim mean / worst | Flitlab, credit delay 1 | booksim-min |")
    print("|---|---|---|---|")
    print("\n".join(credit1))


if __name__ == "__main__":
    main()
