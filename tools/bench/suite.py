#!/usr/bin/env python3
"""simtgrid benchmark suite (a benchmark, never a test).

Runs the benchmark scenarios of workloads/bench/ with the simtgrid binary, one
process each, and prints for each: simulated warp instructions, thread
instructions and core cycles; wall time; warp-instructions/s,
thread-instructions/s, simulated cycles/s; peak RSS; SimGrid wake-ups, wake-ups
per warp instruction and block events per wake-up; and the bare SimGrid wake-up ceiling measured in the
same run (tools/bench/des_bench). Then the scaling checks: 2x the work gives 2x
the time within 10%; peak memory does not grow with kernel length (1x, 4x,
16x); 33, 132 and 1,024 SMs on a fixed per-SM workload.

Work is scaled by rewriting a copy of the scenario (the launch's `args`, and
`grid` for the SM-count check) in a temporary folder, with the model and
kernel paths made absolute. Times are the simulation's own (the JSON's
host.wall_seconds and host.cpu_seconds: building the chip and writing results
are not counted). Rates are computed from the CPU time, which on a shared
machine measures the simulation where wall time also counts other processes'
turns; on an idle machine the two agree. --repeat N keeps the fastest of N.

usage: tools/bench/run [--build DIR] [--quick] [--only N,...] [--repeat N] [--no-scaling]
                      [--set KEY=VALUE]...
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name, scenario, target warp-instructions/s, target cycles/s
SUITE = [
    ("1 divergent FMA, 1 SM", "workloads/bench/divergent_fma.ini", 1e6, None),
    ("2 H100 stream, 132 SMs", "workloads/bench/h100_stream.ini", 1e5, None),
    ("3 pointer chase, DRAM", "workloads/bench/chase.ini", None, 1e7),
    ("4 random gather, 8 SMs", "workloads/bench/gather.ini", 5e4, None),
    ("5 BFS-like, Fermi 30 SMs", "workloads/bench/bfs_fermi.ini", 5e4, None),
    ("6 divergent FMA, 1 SM, large warps", "workloads/bench/divergent_fma_lwm.ini", 5e5, None),
    ("7 divergent FMA, 1 SM, TBC", "workloads/bench/divergent_fma_tbc.ini", 5e5, None),
    ("8 divergent FMA, 1 SM, dynamic warp formation", "workloads/bench/divergent_fma_dwf.ini", 3e5, None),
    ("9 divergent FMA, 1 SM, dynamic warp subdivision", "workloads/bench/divergent_fma_dws.ini", 3e5, None),
]


def scaled_copy(scenario, tmp, work=1.0, grid=1.0):
    """Writes a copy of `scenario` into `tmp` with every launch's first
    argument times `work` and its grid times `grid`; returns its path."""
    here = os.path.dirname(os.path.abspath(scenario))
    out = []
    for line in open(scenario):
        m = re.match(r"\s*(model|kernel)\s*=\s*(.+?)\s*$", line)
        if m:
            line = f"{m.group(1)} = {os.path.normpath(os.path.join(here, m.group(2)))}\n"
        m = re.match(r"\s*args\s*=\s*(\d+)(.*)$", line)
        if m:
            line = f"args = {max(1, round(int(m.group(1)) * work * grid))}{m.group(2)}\n"
        m = re.match(r"\s*grid\s*=\s*(\d+)\s*$", line)
        if m:
            line = f"grid = {max(1, round(int(m.group(1)) * grid))}\n"
        out.append(line)
    path = os.path.join(tmp, os.path.basename(scenario))
    with open(path, "w") as f:
        f.writelines(out)
    return path


def run(binary, scenario, work=1.0, grid=1.0, sets=(), repeat=1):
    """Runs one scenario `repeat` times; returns (the result document of the
    fastest run, peak RSS in KiB or None)."""
    best = None
    for _ in range(max(1, repeat)):
        doc, rss = run_once(binary, scenario, work, grid, sets)
        if best is None or secs(doc) < secs(best[0]):
            best = (doc, rss)
    return best


def secs(doc):
    """Seconds the simulation took: CPU time when recorded, else wall time."""
    h = doc["host"]
    return h.get("cpu_seconds") or h["wall_seconds"]


def run_once(binary, scenario, work=1.0, grid=1.0, sets=()):
    tmp = tempfile.mkdtemp(prefix="simtgrid-bench-")
    try:
        path = scaled_copy(scenario, tmp, work, grid)
        cmd = [binary, "run", path, "-o", os.path.join(tmp, "out"), "-q", "--jobs", "1"]
        for s in sets:
            cmd += ["--set", s]
        timer = ["/usr/bin/time", "-f", "maxrss=%M"] if os.path.exists("/usr/bin/time") else []
        p = subprocess.run(timer + cmd, capture_output=True, text=True, cwd=ROOT)
        if p.returncode != 0:
            sys.exit(f"bench: {' '.join(cmd)} failed:\n{p.stderr}")
        m = re.findall(r"^maxrss=(\d+)$", p.stderr, re.M)
        docs = sorted(f for f in os.listdir(os.path.join(tmp, "out")) if f.endswith(".json"))
        doc = json.load(open(os.path.join(tmp, "out", docs[0])))
        return doc, (int(m[-1]) if m else None)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def ceiling(build):
    p = subprocess.run([os.path.join(build, "tools/bench/des_bench"), "0.25"],
                       capture_output=True, text=True)
    m = re.search(r"ceiling = best bare wake-up rate\s+(\d+)", p.stdout)
    return float(m.group(1)) if m else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--quick", action="store_true", help="a quarter of the work (smoke run)")
    ap.add_argument("--only", default="", help="comma-separated scenario numbers, e.g. 1,3")
    ap.add_argument("--no-scaling", action="store_true", help="skip the scaling checks")
    ap.add_argument("--repeat", type=int, default=1, help="keep the fastest of N runs")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a parameter for every run, e.g. sim.simgrid_clock=lazy")
    a = ap.parse_args()
    binary = os.path.join(a.build, "src/cli/simtgrid")
    if not os.path.exists(binary):
        sys.exit(f"bench: no {binary}: build first (ninja -C {a.build})")
    work = 0.25 if a.quick else 1.0
    only = {int(x) for x in a.only.split(",") if x}
    ceil = ceiling(a.build)
    print(f"bare SimGrid wake-up ceiling (this run): {ceil/1e6:.2f} M wake-ups/s"
          f"{'   (--quick: 1/4 of the work)' if a.quick else ''}\n")
    hdr = ("scenario", "warp-inst", "thread-inst", "cycles", "wall s", "cpu s", "warp-inst/s",
           "thread-inst/s", "cycles/s", "RSS MiB", "wake-ups", "wake/wi", "ev/wake", "target")
    fmt = "%-25s %10s %11s %10s %7s %7s %11s %13s %9s %7s %9s %7s %7s  %s"
    print(fmt % hdr)
    for i, (name, scen, tgt_wi, tgt_cyc) in enumerate(SUITE, 1):
        path = os.path.join(ROOT, scen)
        if only and i not in only:
            continue
        missing = [p for p in [path] + model_of(path) if not os.path.exists(p)]
        if missing:
            print(f"{name:25s} (missing {os.path.relpath(missing[0], ROOT)})")
            continue
        doc, rss = run(binary, path, work, sets=a.set, repeat=a.repeat)
        r, h = doc["result"], doc["host"]
        wall = secs(doc)
        wi, ti, cy = r["warp_instructions"], r["thread_instructions"], r["core_cycles"]
        rate = (wi / wall) if tgt_wi else (cy / wall)
        tgt = f"{'met' if rate >= (tgt_wi or tgt_cyc) else 'MISSED'} " \
              f"({(tgt_wi or tgt_cyc):.0e} {'warp-inst' if tgt_wi else 'cycles'}/s)"
        print(fmt % (name, wi, ti, cy, f"{h['wall_seconds']:.2f}", f"{wall:.2f}",
                     f"{wi/wall:.3g}", f"{ti/wall:.3g}",
                     f"{cy/wall:.3g}", f"{rss/1024:.0f}" if rss else "?", h["simgrid_wakeups"],
                     f"{h['simgrid_wakeups']/max(1, wi):.1f}",
                     f"{h['block_events']/max(1, h['simgrid_wakeups']):.1f}", tgt))
    if a.no_scaling:
        return

    print("\nscaling checks")
    s1 = os.path.join(ROOT, SUITE[0][1])
    if not only or 1 in only:
        d1, r1 = run(binary, s1, work, sets=a.set, repeat=a.repeat)
        d2, _ = run(binary, s1, 2 * work, sets=a.set, repeat=a.repeat)
        w1, w2 = secs(d1), secs(d2)
        print(f"  (1) 2x the work: {w2/w1:.2f}x the time "
              f"({'ok' if abs(w2/w1 - 2) <= 0.2 else 'NOT within 10% of 2x'})")
        d4, r4 = run(binary, s1, 4 * work, sets=a.set)
        d16, r16 = run(binary, s1, 16 * work, sets=a.set)
        if r1 and r4 and r16:
            print(f"  (1) peak RSS at 1x, 4x, 16x the kernel length: {r1/1024:.1f}, "
                  f"{r4/1024:.1f}, {r16/1024:.1f} MiB "
                  f"({'ok' if max(r4, r16) <= r1 * 1.1 else 'GROWS'})")
    s2 = os.path.join(ROOT, SUITE[1][1])
    if (not only or 2 in only) and all(os.path.exists(p) for p in model_of(s2)):
        # Same work per SM at each size (grid and elements scale with the SMs).
        pts = {}
        # The H100's measured TLB group map covers at most its 132 SMs:
        # every size uses consecutive groups of six, so the sizes compare.
        for sms in (33, 132, 1024):
            d, _ = run(binary, s2, work, sms / 132, [f"gpu.sms={sms}", "tlb.group_map=consecutive"] + a.set,
                       repeat=a.repeat)
            pts[sms] = (secs(d), d["result"]["core_cycles"], d["host"]["simgrid_wakeups"],
                        d["result"]["warp_instructions"])
        for lo, hi in ((33, 132), (132, 1024)):
            (w1, c1, _, _), (w4, c4, _, _) = pts[lo], pts[hi]
            print(f"  (2) {lo} -> {hi} SMs, same work per SM: {w4/w1:.2f}x the time "
                  f"({hi/lo:.2f}x is linear); cycles {c1} -> {c4} (shared DRAM); time per "
                  f"simulated SM-cycle {(w4 / (hi * c4)) / (w1 / (lo * c1)):.2f}x (1 is linear)")
        for sms, (w, c, wk, wi) in pts.items():
            print(f"      {sms:5d} SMs: {w:.2f} cpu s, {c} cycles, {w / (sms * c) * 1e9:.0f} ns "
                  f"per SM-cycle, {wk / max(1, wi):.1f} wake-ups per warp instruction")


def model_of(scenario):
    """The model file a scenario names (absolute), as a list (empty if none)."""
    here = os.path.dirname(scenario)
    for line in open(scenario):
        m = re.match(r"\s*model\s*=\s*(.+?)\s*$", line)
        if m:
            return [os.path.normpath(os.path.join(here, m.group(1)))]
    return []


if __name__ == "__main__":
    main()
