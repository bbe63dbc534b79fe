#!/usr/bin/env python3
"""booksim-speed.py -- Flitlab's speed beside BookSim 2's, on the same networks.

    bench/booksim-speed.py [--booksim-src DIR] [--build-dir DIR] [--flitlab PATH]
                           [--config CFG] [--runs N] [--cases CASE ...]

BookSim is not part of Flitlab: give its source tree (a clone of
https://github.com/booksim/booksim2; the README's figures use 28f43299) with
--booksim-src or the BOOKSIM_SRC environment variable. Its src/ is copied to
--build-dir (default $XDG_CACHE_HOME/flitlab/booksim-COMMIT, ~/.cache when
XDG_CACHE_HOME is unset) and built there by BookSim's own Makefile, unmodified
(-O3), which needs make, flex, bison and g++ (Debian: build-essential flex
bison, or `tools/install-deps.sh --bench`). A build already there is reused.
FLITLAB defaults to build-release/src/cli/flitlab (a release build:
`meson setup build-release --buildtype=release -Dgui=disabled`); CFG to
../shared/reference/booksim2-speed.cfg beside the checkout, whose warm-up,
measurement and VC figures the Flitlab runs take.

A case is KxK:PACKET:RATE[:throughput], for example 16x16:1:0.4:throughput:
a KxK mesh, DOR, uniform traffic (the source included), the minimal BookSim
router (Flitlab: --pipeline booksim-min --self), PACKET-flit packets offered
at RATE flits per node and cycle. Each of --runs rounds runs every case once
in each tool, in turn (BookSim first in even rounds, Flitlab first in odd
ones), and times the whole process (start-up, building the network, the
simulation, printing) on the wall clock.

What is counted, the same way for both tools, from each one's own output:
  - cycles: every simulated cycle, warm-up and drain included (BookSim's
    "Time taken is N cycles", Flitlab's "cycles"); cycles/s is that over the
    wall time.
  - a flit-hop is one flit through one router. BookSim's hop count is the
    number of switch traversals (iq_router.cpp increments f->hops as a flit
    leaves an input buffer), Flitlab's the number of switches that granted
    the packet an output VC: both count the source's and the destination's
    routers (6.25 on average on the 8x8 mesh with self traffic), neither
    the hosts' channels. Flitlab's own "flit_hops" counts channel
    traversals, injection and ejection included, which BookSim has no
    figure for, so it is not used. Flit-hops per cycle are the measurement
    window's accepted flits (flits per node and cycle x nodes) times the
    mean hops of the packets measured (BookSim's "Accepted flit rate
    average" and "Hops average", Flitlab's "throughput" and "hops_avg");
    flit-hops/s are that times cycles/s. Warm-up and drain cycles are
    thereby counted at the window's rate.
  - ratio: Flitlab's flit-hops/s over BookSim's, taken per round (the two
    runs of a round are adjacent in time), the median over the rounds, and
    the lowest and highest round. The CPU-time column is the same ratio
    with each process's user + system time in place of its wall time, which
    a busy machine disturbs less. Cycles/s and flit-hops/s are the medians
    over the rounds.

Past saturation (a case marked throughput) BookSim runs sim_type =
throughput: it measures 10,000 cycles after the warm-up whatever the
latency, then stops injecting and empties the network (a few hundred cycles
on the 16x16 mesh; its source queues are not simulated ahead, so only the
packet at each source's head is left to deliver). Flitlab runs --drain 0
there: no drain, which its saturated run would stop anyway. Below
saturation BookSim's sim_type = latency drains the measured packets with
traffic still offered, as Flitlab's default drain does.

The second table is a sanity check, not a test: the simulated cycles,
accepted throughput, mean packet latency and hops of both. Below saturation
the two agree within a few per cent (see the README's cross-validation);
past saturation latency depends on each tool's source queues, so the script
only warns, below saturation, when throughput differs by more than 5 % or
latency by more than 10 %. Prints Markdown. Run by hand, on a machine as
idle as can be: five rounds of the six cases take about 7 minutes of CPU
time, nearly all BookSim's (20-30 s for each 16x16 case past saturation).
"""
import argparse
import hashlib
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CONFIG = os.path.join(TOP, "..", "shared", "reference", "booksim2-speed.cfg")
DEFAULT_FLITLAB = os.path.join(TOP, "build-release", "src", "cli", "flitlab")
DEFAULT_CASES = ["8x8:8:0.1", "8x8:1:0.1", "16x16:8:0.1", "16x16:1:0.1",
                 "16x16:8:0.4:throughput", "16x16:1:0.4:throughput"]
# What BookSim's Makefile builds; not copied, so a copy is built afresh.
BUILD_PRODUCTS = ["*.o", "*.d", "lex.yy.c", "y.tab.c", "y.tab.h", ".git"]
SOURCE_SUFFIXES = (".cpp", ".hpp", ".c", ".l", ".y")


def fail(message):
    sys.exit(f"booksim-speed: {message}")


def run_text(args, cwd=None):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True)


def parse_case(text):
    m = re.fullmatch(r"(\d+)x(\d+):(\d+):([0-9.]+)(:throughput)?", text)
    if not m or m.group(1) != m.group(2):
        fail(f"bad case '{text}': KxK:PACKET:RATE[:throughput], e.g. 16x16:8:0.4:throughput")
    return {"name": text, "k": int(m.group(1)), "packet": int(m.group(3)),
            "rate": m.group(4), "saturated": m.group(5) is not None}


def case_title(case):
    k = case["k"]
    title = f"mesh {k}x{k}, {case['packet']}-flit, {case['rate']}"
    return title + " (past saturation)" if case["saturated"] else title


# --- BookSim's source, build and output ------------------------------------

def booksim_src_dir(path):
    """BookSim's src/ directory in path (the clone or its src/), or None."""
    for d in (os.path.join(path, "src"), path):
        if all(os.path.isfile(os.path.join(d, f))
               for f in ("Makefile", "trafficmanager.cpp", "booksim_config.cpp", "config.y")):
            return d
    return None


def source_hash(src):
    """A digest of BookSim's sources, build products left out."""
    h = hashlib.sha1()
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for f in sorted(files):
            if (f.endswith(SOURCE_SUFFIXES) or f == "Makefile") and f not in (
                    "lex.yy.c", "y.tab.c"):
                p = os.path.join(root, f)
                h.update(os.path.relpath(p, src).encode() + b"\0")
                with open(p, "rb") as fh:
                    h.update(fh.read())
    return h.hexdigest()


def booksim_version(src):
    """The commit of a clean git checkout; otherwise a digest of the sources."""
    head = run_text(["git", "-C", src, "rev-parse", "HEAD"])
    if head.returncode == 0:
        commit = head.stdout.strip()
        dirty = run_text(["git", "-C", src, "status", "--porcelain", "--untracked-files=no",
                          "--", "."]).stdout.strip()
        if not dirty:
            return commit[:8], commit
        digest = source_hash(src)[:8]
        return f"{commit[:8]}-{digest}", f"{commit} with local changes (sources {digest})"
    digest = source_hash(src)[:12]
    return digest, f"not a git checkout (sources {digest})"


def build_booksim(src_arg, build_dir):
    src = booksim_src_dir(src_arg)
    if src is None:
        fail(f"{src_arg} is not BookSim 2's source (no src/trafficmanager.cpp, "
             "booksim_config.cpp, config.y or Makefile): "
             "git clone https://github.com/booksim/booksim2")
    short, described = booksim_version(src)
    if build_dir is None:
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        build_dir = os.path.join(cache, "flitlab", f"booksim-{short}")
    copy = os.path.join(build_dir, "src")
    exe = os.path.join(copy, "booksim")
    if os.access(exe, os.X_OK):
        print(f"booksim-speed: reusing {exe}", file=sys.stderr)
        return exe, described
    tools = ["make", "flex", "bison", os.environ.get("CXX", "g++"), os.environ.get("CC", "cc")]
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        fail("building BookSim needs make, flex, bison, g++ and cc; missing: "
             + ", ".join(missing)
             + " (Debian: apt-get install build-essential flex bison, "
               "or tools/install-deps.sh --bench)")
    if not os.path.isdir(copy):
        # Copied under another name first, so that an interrupted copy is
        # never taken for a whole one.
        os.makedirs(build_dir, exist_ok=True)
        partial = copy + ".partial"
        shutil.rmtree(partial, ignore_errors=True)

        def ignore(d, names):
            skip = set(shutil.ignore_patterns(*BUILD_PRODUCTS)(d, names))
            if os.path.samefile(d, src) and "booksim" in names:
                skip.add("booksim")
            return skip
        shutil.copytree(src, partial, ignore=ignore)
        os.rename(partial, copy)
    print(f"booksim-speed: building BookSim in {copy} (a few minutes)", file=sys.stderr)
    made = run_text(["make", "-C", copy, f"-j{os.cpu_count() or 1}"])
    if made.returncode != 0 or not os.access(exe, os.X_OK):
        tail = "\n".join((made.stdout + made.stderr).splitlines()[-20:])
        fail(f"BookSim's make failed in {copy}:\n{tail}")
    return exe, described


def booksim_number(text, label):
    m = re.search(r"^" + re.escape(label) + r"\s*=\s*([-+0-9.eE]+)", text, re.M)
    if not m:
        raise ValueError(f"no '{label}' in BookSim's output")
    return float(m.group(1))


def parse_booksim(text, nodes):
    """Cycles, accepted flits per node and cycle, packet latency and hops from
    BookSim's standard output (its overall statistics)."""
    if "Simulation unstable" in text:
        raise ValueError("BookSim found the case unstable (latency past its latency_thres): "
                         "mark the case :throughput")
    taken = re.findall(r"^Time taken is (\d+) cycles", text, re.M)
    overall = text.split("====== Overall Traffic Statistics ======")
    if not taken or len(overall) < 2:
        raise ValueError("BookSim's output has no overall statistics")
    stats = overall[-1]
    accepted = booksim_number(stats, "Accepted flit rate average")
    hops = booksim_number(stats, "Hops average")
    return {"cycles": int(taken[-1]), "throughput": accepted,
            "latency": booksim_number(stats, "Packet latency average"), "hops": hops,
            "flit_hops_per_cycle": accepted * nodes * hops}


def parse_flitlab(text, nodes):
    """The same figures from `flitlab sim --json`."""
    res = json.loads(text)
    if res.get("status") not in ("ok", "saturated"):
        raise ValueError(f"Flitlab's run ended '{res.get('status')}'")
    return {"cycles": int(res["cycles"]), "throughput": res["throughput"],
            "latency": res["latency_avg"], "hops": res["hops_avg"],
            "flit_hops_per_cycle": res["throughput"] * nodes * res["hops_avg"]}


def read_config(path):
    """The `key = value;` settings of a BookSim configuration file."""
    try:
        with open(path) as fh:
            text = re.sub(r"//[^\n]*", "", fh.read())
    except OSError as e:
        fail(f"cannot read BookSim's configuration {path}: {e.strerror} (--config)")
    return {k: v.strip() for k, v in re.findall(r"(\w+)\s*=\s*([^;]*);", text)}


def flitlab_budget(cfg):
    """Flitlab's options for the cycles and buffers the configuration gives BookSim."""
    try:
        period = int(cfg["sample_period"])
        warm = int(cfg["warmup_periods"])
        samples = int(cfg["max_samples"])
        vcs, buf = cfg["num_vcs"], cfg["vc_buf_size"]
    except (KeyError, ValueError) as e:
        fail(f"BookSim's configuration lacks a fixed budget ({e}): sample_period, "
             "warmup_periods, max_samples, num_vcs, vc_buf_size")
    if warm < 1 or samples <= warm:
        fail("BookSim's configuration must have warmup_periods >= 1 and max_samples > it")
    return ["--vcs", vcs, "--buf", buf, "--warmup", str(period * warm),
            "--measure", str(period * (samples - warm))]


# --- timing ----------------------------------------------------------------

def timed(args, parse, nodes):
    """Runs args; its parsed figures with its wall and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        figures = parse(proc.stdout, nodes)
    except (ValueError, KeyError) as e:
        # BookSim exits with 255 on success, so its output decides.
        fail(f"{' '.join(args)}: {e}\n{proc.stderr.strip()[-2000:]}")
    figures["wall"] = wall
    figures["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return figures


def speeds(fig, clock):
    """Cycles/s and flit-hops/s of one run, over its wall or CPU time."""
    cycles_s = fig["cycles"] / fig[clock]
    return cycles_s, cycles_s * fig["flit_hops_per_cycle"]


def machine():
    model = "unknown CPU"
    out = run_text(["lscpu"])
    m = re.search(r"^Model name:\s*(.+)$", out.stdout, re.M) if out.returncode == 0 else None
    if m:
        model = m.group(1).strip()
    return f"{model}, {os.cpu_count()} CPUs (nproc)"


def flitlab_version():
    out = run_text(["git", "-C", TOP, "rev-parse", "--short=8", "HEAD"])
    if out.returncode != 0:
        return "unknown"
    # Only the sources the executable is built from make it another Flitlab.
    dirty = run_text(["git", "-C", TOP, "status", "--porcelain", "--untracked-files=no",
                      "--", "src", "meson.build"])
    return out.stdout.strip() + (" with local changes in src/" if dirty.stdout.strip() else "")


def si(x):
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k"
    return f"{x:.0f}"


def main():
    ap = argparse.ArgumentParser(
        description="Times BookSim 2 and Flitlab on the same mesh simulations.")
    ap.add_argument("--booksim-src", default=os.environ.get("BOOKSIM_SRC"),
                    help="BookSim 2's source tree (default $BOOKSIM_SRC)")
    ap.add_argument("--build-dir", help="where to copy and build BookSim "
                    "(default $XDG_CACHE_HOME/flitlab/booksim-COMMIT)")
    ap.add_argument("--flitlab", default=DEFAULT_FLITLAB, help="the flitlab executable")
    ap.add_argument("--config", default=DEFAULT_CONFIG, help="BookSim's configuration file")
    ap.add_argument("--runs", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--cases", nargs="+", default=DEFAULT_CASES,
                    help="KxK:PACKET:RATE[:throughput] (default: the README's six)")
    opt = ap.parse_args()
    if not opt.booksim_src:
        fail("give BookSim 2's source with --booksim-src DIR or BOOKSIM_SRC "
             "(git clone https://github.com/booksim/booksim2)")
    if opt.runs < 1:
        fail("--runs must be at least 1")
    if not os.access(opt.flitlab, os.X_OK):
        fail(f"no flitlab at {opt.flitlab}: meson setup build-release --buildtype=release "
             "-Dgui=disabled && ninja -C build-release src/cli/flitlab, or --flitlab PATH")
    cases = [parse_case(c) for c in opt.cases]
    config = os.path.abspath(opt.config)
    budget = flitlab_budget(read_config(config))
    booksim, booksim_described = build_booksim(opt.booksim_src, opt.build_dir)

    runs = {c["name"]: [] for c in cases}
    load = os.getloadavg()[0]
    for r in range(opt.runs):
        for case in cases:
            k, nodes = case["k"], case["k"] * case["k"]
            b_args = [booksim, config, f"k={k}", f"packet_size={case['packet']}",
                      f"injection_rate={case['rate']}",
                      "sim_type=" + ("throughput" if case["saturated"] else "latency")]
            f_args = [opt.flitlab, "sim", f"mesh:{k}x{k}", "--routing", "dor", "--pipeline",
                      "booksim-min", "--self", "--packet", str(case["packet"]),
                      "--rate", case["rate"], *budget, "--json"]
            if case["saturated"]:
                f_args += ["--drain", "0"]
            pair = [("b", b_args, parse_booksim), ("f", f_args, parse_flitlab)]
            if r % 2:
                pair.reverse()
            got = {tool: timed(args, parse, nodes) for tool, args, parse in pair}
            runs[case["name"]].append(got)
            print(f"booksim-speed: round {r + 1}/{opt.runs}, {case['name']}: BookSim "
                  f"{got['b']['wall']:.2f} s, Flitlab {got['f']['wall']:.3f} s", file=sys.stderr)
    load_after = os.getloadavg()[0]

    print(f"Machine: {machine()}; load average {load:.2f} before, {load_after:.2f} after.")
    print(f"BookSim 2: {booksim_described}; Flitlab: {flitlab_version()}.")
    print(f"BookSim: booksim {os.path.basename(config)} k=K packet_size=L injection_rate=R "
          "sim_type=latency (throughput past saturation); Flitlab: flitlab sim mesh:KxK "
          "--routing dor --pipeline booksim-min --self --packet L --rate R "
          f"{' '.join(budget)} --json (--drain 0 past saturation).")
    print(f"Median of {opt.runs} paired whole-process runs; ratio = Flitlab / BookSim "
          "flit-hops/s, the median of the rounds' ratios (lowest–highest round).\n")
    print("| case | BookSim cycles/s | Flitlab cycles/s | BookSim flit-hops/s | "
          "Flitlab flit-hops/s | ratio (range) | ratio, CPU time |")
    print("|---|---|---|---|---|---|---|")
    sanity = []
    for case in cases:
        rounds = runs[case["name"]]
        wall = [{t: speeds(g[t], "wall") for t in "bf"} for g in rounds]
        cpu = [{t: speeds(g[t], "cpu") for t in "bf"} for g in rounds]
        ratios = [w["f"][1] / w["b"][1] for w in wall]
        cpu_ratio = statistics.median(c["f"][1] / c["b"][1] for c in cpu)
        med = {(t, i): statistics.median(w[t][i] for w in wall) for t in "bf" for i in (0, 1)}
        print(f"| {case_title(case)} | {si(med['b', 0])} | {si(med['f', 0])} | "
              f"{si(med['b', 1])} | {si(med['f', 1])} | "
              f"**{statistics.median(ratios):.1f}x** ({min(ratios):.1f}–{max(ratios):.1f}) | "
              f"{cpu_ratio:.1f}x |")
        b, f = rounds[0]["b"], rounds[0]["f"]
        sanity.append(f"| {case_title(case)} | {b['cycles']} / {f['cycles']} | "
                      f"{b['throughput']:.4f} / {f['throughput']:.4f} | "
                      f"{b['latency']:.1f} / {f['latency']:.1f} | "
                      f"{b['hops']:.2f} / {f['hops']:.2f} |")
        if not case["saturated"] and (
                abs(f["throughput"] - b["throughput"]) > 0.05 * b["throughput"]
                or abs(f["latency"] - b["latency"]) > 0.10 * b["latency"]):
            print(f"booksim-speed: warning: {case['name']}: the tools' throughput or latency "
                  "differ more than expected below saturation", file=sys.stderr)
    print("\nSimulated figures (BookSim / Flitlab): cycles, accepted flits per node and cycle, "
          "packet latency, hops:\n")
    print("| case | cycles | accepted | latency | hops |")
    print("|---|---|---|---|---|")
    print("\n".join(sanity))


if __name__ == "__main__":
    main()
