#!/usr/bin/env python3
"""booksim-compare.py -- Flitlab against BookSim 2 on the 8x8 mesh.

    bench/booksim-compare.py [FLITLAB]      (default build/src/cli/flitlab)
    bench/booksim-compare.py --saturation BOOKSIM [FLITLAB]

Runs the configurations of ../shared/reference/booksim2-mesh.md with
Flitlab's equivalent router (--pipeline booksim-min --self) and prints the
README's tables in Markdown: zero-load latency and hops, the saturation
measures, the 16-flit load-latency sweeps, and throughput at offered 1.0 with
one cycle more for credits (--pipeline 0:0:1:1:1). Takes about a minute on
two cores. Run by hand; its figures are simulated, so a change to the
simulator's random streams changes their last digits.

With --saturation, runs the BookSim binary BOOKSIM itself (sim_type =
throughput, a 5000-cycle warm-up and 10000 measured cycles on the 16x16
mesh) and Flitlab with --measure-rule booksim and with its default rule, at
loads below and past saturation, and prints the README's table. BookSim takes
10 to 150 s a point there: about 10 minutes.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

SATURATION = len(sys.argv) > 2 and sys.argv[1] == "--saturation"
ARGS = sys.argv[3:] if SATURATION else sys.argv[1:]
FLITLAB = ARGS[0] if ARGS else "build/src/cli/flitlab"
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


def sim_on(base, options, *extra):
    return json.loads(flitlab("sim", *base, *options, *extra, "--json"))


def sim(options, *extra):
    return sim_on(BASE, options, *extra)


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


# ../shared/reference/booksim2-speed.cfg: BookSim's minimal router, a fixed
# budget of one 5000-cycle warm-up and two 5000-cycle samples.
BOOKSIM_CFG = """topology = mesh; k = 16; n = 2; routing_function = dor;
num_vcs = 2; vc_buf_size = 8; traffic = uniform; injection_rate_uses_flits = 1;
seed = 0; routing_delay = 0; speculative = 1; vc_alloc_delay = 1;
sw_alloc_delay = 1; st_prepare_delay = 0; st_final_delay = 1; credit_delay = 0;
sample_period = 5000; warmup_periods = 1; max_samples = 3; sim_type = throughput;
"""
SAT_BASE = ["mesh:16x16", "--routing", "dor", "--pipeline", "booksim-min", "--self",
            "--vcs", "2", "--buf", "8", "--warmup", "5000", "--measure", "10000"]
SAT_POINTS = [(8, r) for r in (0.1, 0.2, 0.3, 0.4, 0.5)] + \
             [(1, r) for r in (0.1, 0.2, 0.3, 0.4, 0.5)]


def booksim(path, cfg, flits, rate):
    """BookSim's overall packet latency, network latency and accepted flit rate."""
    # BookSim exits with -1 when the run succeeded: its output tells.
    out = subprocess.run([path, cfg, f"packet_size={flits}", f"injection_rate={rate}"],
                         capture_output=True, text=True).stdout
    if "Overall Traffic Statistics" not in out:
        sys.exit(f"booksim-compare: BookSim failed at {flits} flits, {rate}:\n{out[-2000:]}")
    overall = out[out.index("Overall Traffic Statistics"):]

    def figure(name):
        return float(re.search(name + r" average = ([0-9.eE+-]+)", overall).group(1))
    return (figure("Packet latency"), figure("Network latency"),
            figure("Accepted flit rate"))


def saturation(path):
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(BOOKSIM_CFG)
    rows, worst = [], [0.0, 0.0, 0.0]
    try:
        for flits, rate in SAT_POINTS:
            b = booksim(path, f.name, flits, rate)
            opts = ["--packet", str(flits), "--rate", str(rate)]
            m = sim_on(SAT_BASE, opts, "--measure-rule", "booksim")
            d = sim_on(SAT_BASE, opts, "--drain", "0")
            f3 = (m["latency_avg"], m["network_latency_avg"], m["throughput"])
            diff = [100.0 * (x - y) / y for x, y in zip(f3, b)]
            if rate >= 0.3:
                worst = [max(w, abs(x)) for w, x in zip(worst, diff)]
            rows.append(f"| {flits}, {rate:.1f} | {b[0]:.0f} / {b[1]:.0f} / {b[2]:.4f} | "
                        f"{f3[0]:.0f} / {f3[1]:.0f} / {f3[2]:.4f} | "
                        f"{diff[0]:+.0f} / {diff[1]:+.0f} / {diff[2]:+.1f} % | "
                        f"{d['latency_avg']:.0f} / {d['network_latency_avg']:.0f} |")
    finally:
        os.unlink(f.name)
    print("| flits, offered | BookSim: latency / net / accepted | "
          "--measure-rule booksim | difference | default rule, --drain 0 |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"\nPast saturation (0.3 and up) within {worst[0]:.0f} % / {worst[1]:.0f} % / "
          f"{worst[2]:.1f} %.")


if __name__ == "__main__":
    if SATURATION:
        saturation(sys.argv[2])
    else:
        main()
