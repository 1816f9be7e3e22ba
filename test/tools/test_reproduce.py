#!/usr/bin/env python3
"""Unit tests of tools/reproduce's verdict rule, means and table printer on
hand-made inputs. Every expected value is worked out by hand in a comment."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from repro import experiment as X  # noqa: E402
from repro import table as T  # noqa: E402
from repro import verdict as V  # noqa: E402


class Verdict(unittest.TestCase):
    def test_change_third_bounds(self):
        # paper +30%: a third of 30 is 10, so +20% .. +40% match, bounds included
        for sim in (20.0, 25.0, 30.0, 40.0):
            self.assertEqual(V.change(30.0, sim), V.MATCH, sim)
        for sim in (19.99, 40.01, 0.5, 300.0):
            self.assertEqual(V.change(30.0, sim), V.DIRECTION, sim)

    def test_change_issue_example(self):
        # the issue's example: +17% reproduced as +11.3% .. +22.7% (17/3 = 5.667)
        self.assertEqual(V.change(17.0, 17.0 - 17.0 / 3), V.MATCH)
        self.assertEqual(V.change(17.0, 17.0 + 17.0 / 3), V.MATCH)
        self.assertEqual(V.change(17.0, 11.4), V.MATCH)
        self.assertEqual(V.change(17.0, 11.3), V.DIRECTION)
        # the issue rounds the bounds to one decimal: 22.66 is inside, 22.7 not
        self.assertEqual(V.change(17.0, 22.66), V.MATCH)
        self.assertEqual(V.change(17.0, 22.7), V.DIRECTION)

    def test_change_wrong_way_or_flat(self):
        self.assertEqual(V.change(10.1, -0.1), V.DIFFERS)
        self.assertEqual(V.change(10.1, 0.0), V.DIFFERS)
        # a loss: -18.4% matches -12.27% .. -24.53%
        self.assertEqual(V.change(-18.4, -13.0), V.MATCH)
        self.assertEqual(V.change(-18.4, -12.0), V.DIRECTION)
        self.assertEqual(V.change(-18.4, 5.0), V.DIFFERS)

    def test_change_about_zero(self):
        # "about none" is 0 with a tolerance: inside matches, outside differs
        self.assertEqual(V.change(0, 1.99, tolerance=2.0), V.MATCH)
        self.assertEqual(V.change(0, -2.0, tolerance=2.0), V.MATCH)
        self.assertEqual(V.change(0, 2.01, tolerance=2.0), V.DIFFERS)
        # without a tolerance a paper 0 cannot be matched by a direction
        self.assertEqual(V.change(0, 0.0), V.DIFFERS)

    def test_within_best_value_sign(self):
        self.assertEqual(V.within(2.0, -2.0), V.MATCH)
        self.assertEqual(V.within(2.0, 2.001), V.DIFFERS)
        self.assertEqual(V.best(8, 8), V.MATCH)
        self.assertEqual(V.best(8, 16), V.DIFFERS)
        self.assertEqual(V.best(8, "8"), V.MATCH)      # a CSV value is text
        self.assertEqual(V.best(8, "80"), V.DIFFERS)
        # 95% idle: a third is 31.67, so 63.33 .. 126.67 match
        self.assertEqual(V.value(95, 64.0), V.MATCH)
        self.assertEqual(V.value(95, 63.0), V.DIFFERS)
        self.assertEqual(V.sign("+", 0.1), V.MATCH)
        self.assertEqual(V.sign("+", -0.1), V.DIFFERS)
        self.assertEqual(V.sign("-", 0.0), V.DIFFERS)
        with self.assertRaises(ValueError):
            V.sign(3, 1.0)

    def test_means(self):
        # geometric of 2 and 8 = 4; harmonic of 1 and 3 = 2/(1+1/3) = 1.5
        self.assertAlmostEqual(V.mean("geometric", [2, 8]), 4.0)
        self.assertAlmostEqual(V.mean("harmonic", [1, 3]), 1.5)
        self.assertAlmostEqual(V.mean("arithmetic", [1, 3]), 2.0)
        with self.assertRaises(ValueError):
            V.mean("median", [1])


class Table(unittest.TestCase):
    def test_render(self):
        self.assertEqual(T.render(["a", "bb"], [["xyz", "1"]]),
                         "| a   | bb |\n|-----|----|\n| xyz | 1  |")
        with self.assertRaises(ValueError):
            T.render(["a"], [["1", "2"]])

    def test_fmt(self):
        self.assertEqual(T.fmt(10.14, "%"), "+10.1%")
        self.assertEqual(T.fmt(-0.04, "%"), "-0.0%")
        self.assertEqual(T.fmt(95, "pct"), "95.0%")
        self.assertEqual(T.fmt(8.0), "8")
        self.assertEqual(T.fmt(None), "-")

    def test_headline(self):
        rows = [{"name": "r", "source": "s", "paper": 17.0, "unit": "%", "sim": 11.4,
                 "verdict": V.MATCH, "note": ""},
                {"name": "n", "paper": "-", "paper_text": "degrades", "sim": None,
                 "verdict": V.NOT_MODELLED, "note": "missing: x"}]
        lines = T.headline(rows).splitlines()
        self.assertEqual(lines[2], "| r   | s     | +17.0%         | +11.4%   | match        |            |")
        self.assertEqual(lines[3], "| n   |       | degrades       | -        | not modelled | missing: x |")


class Rows(unittest.TestCase):
    """evaluate_row on hand-made CSV rows of two benchmarks."""
    E = {"metric": "ipc", "mean": "geometric", "groups": {"g": ["b"]},
         "scenarios": {"s": "x/{bench}.ini"}}
    R = {("s", "a"): [{"sched": "rr", "G": "8", "ipc": "10", "hr": "0.5"},
                      {"sched": "2l", "G": "8", "ipc": "12.5", "hr": "0.49"},
                      {"sched": "2l", "G": "16", "ipc": "10", "hr": "0.5"}],
         ("s", "b"): [{"sched": "rr", "G": "8", "ipc": "20", "hr": "1"},
                      {"sched": "2l", "G": "8", "ipc": "32", "hr": "1"},
                      {"sched": "2l", "G": "16", "ipc": "40", "hr": "1"}]}

    def row(self, **kw):
        r = {"name": "x", "paper": 30.0, "scenario": "s", "base": {"sched": "rr"},
             "test": {"sched": "2l", "G": "8"}}
        r.update(kw)
        return X.evaluate_row(self.E, r, self.R, ["a", "b"])

    def test_speedup_geometric(self):
        # ratios 1.25 and 1.6: geometric mean sqrt(2) = 1.41421 -> +41.42%;
        # paper +30% allows +20 .. +40: direction only
        r = self.row(kind="speedup")
        self.assertAlmostEqual(r["sim"], 41.4213562, places=5)
        self.assertEqual(r["verdict"], V.DIRECTION)
        # harmonic: 2 / (0.8 + 0.625) = 1.403509 -> +40.35%: still outside
        self.assertAlmostEqual(self.row(kind="speedup", mean="harmonic")["sim"], 40.350877, places=5)
        # group g = [b] only: 1.6 -> +60%
        self.assertAlmostEqual(self.row(kind="speedup", benchmarks="g")["sim"], 60.0)

    def test_best_of_several_tests(self):
        # per benchmark the better of 2l/8 and 2l/16: a max(1.25, 1.0) = 1.25,
        # b max(1.6, 2.0) = 2.0; geometric sqrt(2.5) = 1.581139 -> +58.11%
        r = self.row(kind="speedup", test=[{"sched": "2l", "G": "8"}, {"sched": "2l", "G": "16"}])
        self.assertAlmostEqual(r["sim"], 58.113883, places=5)
        # as a time (lower_better) the gain is base / test: a 10/12.5 = 0.8 or
        # 10/10 = 1.0, best 1.0; b 20/32 = 0.625 or 20/40 = 0.5, best 0.625;
        # sqrt(1.0 * 0.625) = 0.790569 -> -20.94%, paper "-": match
        r = self.row(kind="sign", paper="-", lower_better=True,
                     test=[{"sched": "2l", "G": "8"}, {"sched": "2l", "G": "16"}])
        self.assertAlmostEqual(r["sim"], -20.943058, places=5)
        self.assertEqual(r["verdict"], V.MATCH)

    def test_within_and_best(self):
        # hit rate ratios 0.98 and 1.0, arithmetic mean 0.99 -> -1%: within 2
        r = self.row(kind="within", paper=1.7, bound=2.0, metric="hr", mean="arithmetic")
        self.assertAlmostEqual(r["sim"], -1.0)
        self.assertEqual(r["verdict"], V.MATCH)
        # in points: (0.49 - 0.5) and (1 - 1) -> -1 and 0 points, mean -0.5
        r = self.row(kind="within", paper=1.7, bound=2.0, metric="hr", points=True)
        self.assertAlmostEqual(r["sim"], -0.5)
        self.assertEqual(r["verdict"], V.MATCH)
        # G=8: sqrt(1.25 * 1.6) = 1.414; G=16: sqrt(1.0 * 2.0) = 1.414 too;
        # with b only: 1.6 vs 2.0 -> best is 16
        r = self.row(kind="best", paper=8, over="G", values=["8", "16"], where={"sched": "2l"},
                     benchmarks=["b"])
        self.assertEqual(r["sim"], "16")
        self.assertEqual(r["verdict"], V.DIFFERS)

    def test_joint_best(self):
        # over (sched, G): 2l/8 -> sqrt(1.25 * 1.6) = 1.41421, 2l/16 ->
        # sqrt(1.0 * 2.0) = 1.41421, rr/8 -> 1; with b only 2l/16 (2.0) wins
        r = self.row(kind="best", paper="2l/16", over=["sched", "G"],
                     values=[["rr", 8], ["2l", 8], ["2l", 16]], benchmarks=["b"])
        self.assertEqual([v for v, _ in r["curve"]], ["rr/8", "2l/8", "2l/16"])
        for (_, m), want in zip(r["curve"], [1.0, 1.6, 2.0]):
            self.assertAlmostEqual(m, want)
        self.assertEqual(r["sim"], "2l/16")
        self.assertEqual(r["verdict"], V.MATCH)
        # with a alone: 1.25 (2l/8) beats 1.0 (2l/16): the paper's 2l/16 differs
        r = self.row(kind="best", paper="2l/16", over=["sched", "G"],
                     values=[["2l", 8], ["2l", 16]], benchmarks=["a"])
        self.assertEqual(r["sim"], "2l/8")
        self.assertEqual(r["verdict"], V.DIFFERS)

    def test_not_modelled(self):
        r = X.evaluate_row(self.E, {"kind": "not_modelled", "name": "n", "paper": 7.6,
                                    "missing": "core.large_warp_threads"}, {}, [])
        self.assertEqual(r["verdict"], V.NOT_MODELLED)
        self.assertEqual(r["note"], "missing: core.large_warp_threads")

    def test_raw_table_per_column_where(self):
        # hr of rr and of 2l/G=8 side by side, x100: a 50 and 49, b 100 and
        # 100; arithmetic means (50 + 100) / 2 = 75 and (49 + 100) / 2 = 74.5
        t = {"scenario": "s", "raw": True, "metric": "hr",
             "columns": [{"label": "RR", "where": {"sched": "rr"}, "scale": 100},
                         {"label": "2L", "where": {"sched": "2l", "G": "8"}, "scale": 100}]}
        header, rows, _ = X.bench_table(dict(self.E, groups={}), t, self.R, ["a", "b"])
        self.assertEqual(header, ["benchmark", "group", "RR", "2L"])
        self.assertEqual(rows[0], ["a", "", "50.000", "49.000"])
        self.assertEqual(rows[1], ["b", "", "100.000", "100.000"])
        self.assertEqual(rows[2], ["arithmetic mean", "", "75.000", "74.500"])

    def test_restrict(self):
        # full [a, b, c], quick [q, a]: --benchmarks c,q keeps c and q (in
        # the experiment's order, full list first) for both modes
        e = {"name": "x", "benchmarks": ["a", "b", "c"], "quick_benchmarks": ["q", "a"]}
        X.restrict(e, ["q", "c"])
        self.assertEqual(X.bench_list(e, False), ["c", "q"])
        self.assertEqual(X.bench_list(e, True), ["c", "q"])
        with self.assertRaises(X.ExperimentError) as cm:
            X.restrict({"name": "x", "benchmarks": ["a"], "quick_benchmarks": ["a"]}, ["z"])
        self.assertEqual(str(cm.exception), "x: no benchmark z (it has a)")

    def test_missing_point(self):
        with self.assertRaises(X.ExperimentError):
            self.row(kind="speedup", test={"sched": "2l", "G": "4"})


class Load(unittest.TestCase):
    """Bad experiment files are refused with the file and the row named."""

    def load(self, text):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "x.json")
            with open(p, "w") as f:
                f.write(text if isinstance(text, str) else json.dumps(text))
            with self.assertRaises(X.ExperimentError) as cm:
                X.load(p)
            return str(cm.exception).replace(d + os.sep, "")

    def test_errors(self):
        self.assertEqual(self.load('{"rows": [\n}'), "x.json:2: Expecting value")
        self.assertEqual(self.load({"rows": [{"kind": "sped", "name": "n", "paper": 1}]}),
                         "x.json: rows[0]: kind must be one of speedup, within, sign, best, "
                         "value, not_modelled")
        self.assertEqual(self.load({"rows": [{"kind": "not_modelled", "name": "n", "paper": 1}]}),
                         "x.json: rows[0]: a not_modelled row must name what is missing")
        self.assertEqual(self.load({"rows": [{"kind": "speedup", "name": "n", "paper": 1,
                                              "scenario": "s"}]}),
                         "x.json: rows[0]: scenario 's' not in scenarios")
        self.assertEqual(self.load({"scenarios": {"s": "x/{bench}.ini"},
                                    "rows": [{"kind": "best", "name": "n", "paper": "1/2",
                                              "scenario": "s", "over": ["a", "b"],
                                              "values": [[1, 2], [1]]}]}),
                         "x.json: rows[0]: each value of a joint sweep lists 2 values, "
                         "one per 'over' column")
        self.assertEqual(self.load({"scenarios": {"s": "x/{bench}.ini"},
                                    "rows": [{"kind": "sign", "name": "n", "paper": "-",
                                              "scenario": "s", "test": []}]}),
                         "x.json: rows[0]: 'test' lists no point")
        self.assertEqual(self.load({"scenarios": {"s": "a.ini"}}),
                         "x.json: scenarios.s must contain {bench}")


class Rerun(unittest.TestCase):
    """A second run never replaces the first one's results unasked: with a
    manifest in one result folder the tool stops before running anything
    (exit 2, naming the folder); --force goes on to the runs (here a binary
    that fails at once, so exit 1: past the check)."""

    def test_refuses_then_forces(self):
        import subprocess
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
        tool = os.path.join(root, "tools", "reproduce")
        with tempfile.TemporaryDirectory() as out:
            e = X.load(os.path.join(root, "workloads", "papers", "lwm", "fetch-group.json"))
            key, b, scen = next(iter(X.scenario_files(e, True)))
            rel = os.path.splitext(os.path.relpath(os.path.abspath(scen),
                                                   os.path.join(root, "workloads", "papers")))[0]
            d = os.path.join(out, "quick", rel)
            os.makedirs(d)
            open(os.path.join(d, "manifest.tsv"), "w").close()
            env = dict(os.environ, SIMTGRID_BIN="/bin/false")
            args = [sys.executable, tool, "lwm", "--quick", "--only", "fetch-group", "--out", out,
                    "--jobs", "1"]
            p = subprocess.run(args, capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 2)
            self.assertIn(d, p.stderr)
            self.assertIn("--force replaces them", p.stderr)
            p = subprocess.run(args + ["--force"], capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
