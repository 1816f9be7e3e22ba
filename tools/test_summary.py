#!/usr/bin/env python3
"""Counts Criterion test cases (TAP lines) over meson test logs, and the TAP
files given with --tap (tools/test-slurm's), and prints one line
`N passed, N failed`. A test executable that crashed or printed no TAP
counts as one failure. A skipped case (`ok N # SKIP why`, or a meson test
that exited 77) is counted as neither: a line `N skipped: ...` before the
last one says which and why. Exits 1 if anything failed or nothing ran."""
import json, os, re, sys

passed = failed = 0
skipped = []


def count(name, out, crashed):
    global passed, failed
    for m in re.finditer(r"^ok\b[^\n#]*# SKIP\b ?(.*)$", out, re.M | re.I):
        skipped.append(f"{name} ({m.group(1).strip()})")
    ok = len(re.findall(r"^ok\b", out, re.M)) - len(re.findall(r"^ok\b[^\n#]*# SKIP\b", out, re.M | re.I))
    bad = len(re.findall(r"^not ok\b", out, re.M))
    if crashed and bad == 0:
        bad = 1   # crashed, timed out, or failed outside a test case
    passed += ok
    failed += bad


args = sys.argv[1:]
taps = [args[i + 1] for i, a in enumerate(args) if a == "--tap" and i + 1 < len(args)]
dirs = [a for i, a in enumerate(args) if a != "--tap" and (i == 0 or args[i - 1] != "--tap")]
for d in dirs:
    log = os.path.join(d, "meson-logs", "testlog.json")
    if not os.path.exists(log):
        continue
    for line in open(log):
        t = json.loads(line)
        if t.get("result") == "SKIP":
            skipped.append(t.get("name", "?"))
            continue
        count(t.get("name", "?"), t.get("stdout") or "", t.get("result") not in ("OK", "EXPECTEDFAIL"))
for path in taps:
    out = open(path).read() if os.path.exists(path) else ""
    name = os.path.basename(path)
    # No plan and no result line: the test died before saying anything.
    count(name, out, not re.search(r"^(not )?ok\b", out, re.M))
if skipped:
    print(f"{len(skipped)} skipped: " + "; ".join(skipped))
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
