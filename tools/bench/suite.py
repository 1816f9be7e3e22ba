#!/usr/bin/env python3
"""simtgrid benchmark suite (a benchmark, never a test).

Runs the benchmark scenarios of workloads/bench/ with the simtgrid binary,
one process each, and prints for each: simulated warp instructions, thread
instructions and core cycles; wall time; warp-instructions/s,
thread-instructions/s, simulated cycles/s; peak RSS; SimGrid wake-ups and
block events per wake-up; and the bare SimGrid wake-up ceiling measured in
the same run (tools/bench/des_bench). Then the scaling checks: 2x the work
gives 2x the time within 10%; peak memory does not grow with kernel length;
4x the SMs on a fixed per-SM workload.

usage: tools/bench/suite.py [--build DIR] [--quick]
"""
import argparse, json, os, re, resource, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name, scenario, target warp-instructions/s (None: cycles/s target instead), note
SUITE = [
    ("1 divergent FMA, 1 SM", "workloads/bench/divergent_fma.ini", 1e6, None),
    ("2 H100 streaming, 132 SMs", "workloads/bench/h100_stream.ini", 1e5, None),
    ("3 pointer chase over DRAM", "workloads/bench/chase.ini", None, 1e7),
    ("4 random gather, all SMs", "workloads/bench/gather.ini", 5e4, None),
    ("5 BFS-like on Fermi 30 SMs", "workloads/bench/bfs_fermi.ini", 5e4, None),
]


def run(binary, scenario, sets=()):
    """Runs one scenario point; returns (result dict, wall s, peak RSS KiB)."""
    out = tempfile.mkdtemp(prefix="simtgrid-bench-")
    cmd = [binary, "run", scenario, "-o", out, "-q"]
    for s in sets:
        cmd += ["--set", s]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{p.stderr}")
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    docs = [f for f in os.listdir(out) if f.endswith(".json")]
    doc = json.load(open(os.path.join(out, sorted(docs)[0])))
    return doc, doc["host"]["wall_seconds"], ru.ru_maxrss


def peak_rss_of(binary, scenario, sets=()):
    """Peak RSS (KiB) of one run, measured by GNU time when available."""
    cmd = ["/usr/bin/time", "-f", "%M", binary, "run", scenario, "-q",
           "-o", tempfile.mkdtemp(prefix="simtgrid-bench-")]
    for s in sets:
        cmd += ["--set", s]
    if not os.path.exists("/usr/bin/time"):
        return None
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    m = re.findall(r"^(\d+)$", p.stderr, re.M)
    return int(m[-1]) if m else None


def ceiling(build):
    p = subprocess.run([os.path.join(build, "tools/bench/des_bench"), "0.25"],
                       capture_output=True, text=True)
    m = re.search(r"ceiling = best bare wake-up rate\s+(\d+)", p.stdout)
    return float(m.group(1)) if m else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--quick", action="store_true", help="scale the work down (smoke run)")
    a = ap.parse_args()
    binary = os.path.join(a.build, "src/cli/simtgrid")
    scale = ["bench.scale=0.25"] if a.quick else []
    ceil = ceiling(a.build)
    print(f"bare SimGrid wake-up ceiling (this run): {ceil/1e6:.2f} M wake-ups/s\n")
    hdr = ("scenario", "warp-inst", "thread-inst", "cycles", "wall s", "warp-inst/s",
           "thread-inst/s", "cycles/s", "peak RSS MiB", "wake-ups", "events/wake", "target")
    print("%-28s %10s %12s %11s %7s %11s %13s %10s %12s %10s %11s %s" % hdr)
    for name, scen, tgt_wi, tgt_cyc in SUITE:
        path = os.path.join(ROOT, scen)
        if not os.path.exists(path):
            print(f"{name:28s} (missing {scen})")
            continue
        doc, wall, _ = run(binary, path, scale)
        r, h = doc["result"], doc["host"]
        rss = peak_rss_of(binary, path, scale)
        wi, ti, cy = r["warp_instructions"], r["thread_instructions"], r["core_cycles"]
        ok = (wi / wall >= tgt_wi) if tgt_wi else (cy / wall >= tgt_cyc)
        tgt = f"{'met' if ok else 'MISSED'} ({tgt_wi or tgt_cyc:.0e}/s)"
        print("%-28s %10d %12d %11d %7.2f %11.3g %13.3g %10.3g %12s %10d %11.1f %s" % (
            name, wi, ti, cy, wall, wi / wall, ti / wall, cy / wall,
            f"{rss/1024:.0f}" if rss else "?", h["simgrid_wakeups"],
            h["block_events"] / max(1, h["simgrid_wakeups"]), tgt))

    print("\nscaling checks")
    s1 = os.path.join(ROOT, SUITE[0][1])
    if os.path.exists(s1):
        _, w1, _ = run(binary, s1, ["bench.scale=1"])
        _, w2, _ = run(binary, s1, ["bench.scale=2"])
        print(f"  2x work: {w2/w1:.2f}x time ({'ok' if abs(w2/w1-2) <= 0.2 else 'NOT within 10%'})")
        r1 = peak_rss_of(binary, s1, ["bench.scale=1"])
        r4 = peak_rss_of(binary, s1, ["bench.scale=4"])
        if r1 and r4:
            print(f"  peak RSS, 4x kernel length: {r1/1024:.1f} -> {r4/1024:.1f} MiB "
                  f"({'ok' if r4 <= r1 * 1.1 else 'GROWS'})")
    s2 = os.path.join(ROOT, SUITE[1][1])
    if os.path.exists(s2):
        _, w1, _ = run(binary, s2, ["gpu.sms=33"] + scale)
        _, w4, _ = run(binary, s2, ["gpu.sms=132"] + scale)
        print(f"  4x SMs, fixed work per SM: {w4/w1:.2f}x time (ideal 4x)")


if __name__ == "__main__":
    main()
