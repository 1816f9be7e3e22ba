#!/usr/bin/env python3
"""Counts Criterion test cases (TAP lines) over meson test logs and prints one
line `N passed, N failed`. A test executable that crashed or printed no TAP
counts as one failure. Exits 1 if anything failed or nothing ran."""
import json, os, re, sys

passed = failed = 0
for d in sys.argv[1:]:
    log = os.path.join(d, "meson-logs", "testlog.json")
    if not os.path.exists(log):
        continue
    for line in open(log):
        t = json.loads(line)
        out = t.get("stdout") or ""
        ok = len(re.findall(r"^ok\b", out, re.M))
        bad = len(re.findall(r"^not ok\b", out, re.M))
        if t.get("result") not in ("OK", "EXPECTEDFAIL", "SKIP") and bad == 0:
            bad = 1   # crashed, timed out, or failed outside a test case
        passed += ok
        failed += bad
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
