"""Experiments: what to run (scenario files under workloads/papers/PAPER/)
and how each headline row is computed from the result CSVs.

An experiment is a JSON file, workloads/papers/PAPER/NAME.json:

  title, source        what the paper shows and where (paper section, figure)
  metric               CSV column compared (default chip.thread_ipc)
  mean                 geometric | harmonic | arithmetic: how the paper averages
  benchmarks           list of names; quick_benchmarks: the --quick subset
  groups               {group: [benchmarks]} (a row may average one group)
  scenarios            {key: "dir/{bench}.ini"}: one scenario file per benchmark
  rows                 the headline rows (kinds below)
  tables               per-benchmark tables: {title, scenario, columns:
                       [{label, where: {column: value}}], optional benchmarks
                       (the subset it covers)}, normalised to the
                       first column (whose raw metric is printed too);
                       with raw: true, levels at one point `where`, each
                       column {label, metric, optional scale, optional
                       where of its own} (metric may be the table's)

Row kinds (field `kind`; all rows have name, source, paper):
  speedup   mean over benchmarks of metric(test) / metric(base), as a change
            in %: scenario, base, test (column -> value), benchmarks (a list,
            a group name or "all"), optional tolerance (paper 0 = "none"),
            optional metric and mean overriding the experiment's, optional
            lower_better (a time: the gain is base / test). A where-dict may
            hold "@scenario": KEY to take that point from another scenario.
  within    as speedup, but the paper gives a bound: match if |sim| <= bound
            (field bound, default the paper's number); with points: true
            the difference of a rate in percentage points, arithmetic mean
  sign      as speedup, but the paper gives only the direction: paper "+"/"-"
  best      the sweep value with the highest mean speedup over base:
            scenario, base, over (swept column), values, where (fixed columns);
            over may list several columns, each value then lists one value
            per column and is named by them joined with "/" ("256/2")
  value     a plain level: mean of metric (/ column `per`) * scale over the
            benchmarks, at the point `where`
  not_modelled  missing: the parameter or mechanism that does not exist yet
"""
import csv
import glob
import json
import os

from . import verdict as V

ROW_KINDS = ("speedup", "within", "sign", "best", "value", "not_modelled")


class ExperimentError(Exception):
    pass


def load(path):
    with open(path) as f:
        try:
            e = json.load(f)
        except json.JSONDecodeError as err:
            raise ExperimentError(f"{path}:{err.lineno}: {err.msg}")
    e["path"] = path
    e["name"] = os.path.splitext(os.path.basename(path))[0]
    e["dir"] = os.path.dirname(path)
    e.setdefault("metric", "chip.thread_ipc")
    e.setdefault("mean", "geometric")
    e.setdefault("benchmarks", [])
    e.setdefault("quick_benchmarks", e["benchmarks"])
    e.setdefault("groups", {})
    e.setdefault("scenarios", {})
    e.setdefault("tables", [])
    for i, r in enumerate(e.get("rows", [])):
        where = f"{path}: rows[{i}]"
        if r.get("kind") not in ROW_KINDS:
            raise ExperimentError(f"{where}: kind must be one of {', '.join(ROW_KINDS)}")
        for k in ("name", "paper"):
            if k not in r:
                raise ExperimentError(f"{where}: missing '{k}'")
        if r["kind"] == "not_modelled" and not r.get("missing"):
            raise ExperimentError(f"{where}: a not_modelled row must name what is missing")
        if isinstance(r.get("test"), list) and not r["test"]:
            raise ExperimentError(f"{where}: 'test' lists no point")
        if r["kind"] != "not_modelled" and r.get("scenario") not in e["scenarios"]:
            raise ExperimentError(f"{where}: scenario '{r.get('scenario')}' not in scenarios")
        if r["kind"] == "best" and isinstance(r.get("over"), list):
            for v in r.get("values", []):
                if not isinstance(v, list) or len(v) != len(r["over"]):
                    raise ExperimentError(f"{where}: each value of a joint sweep lists "
                                          f"{len(r['over'])} values, one per 'over' column")
    for s, pat in e["scenarios"].items():
        if "{bench}" not in pat:
            raise ExperimentError(f"{path}: scenarios.{s} must contain {{bench}}")
    return e


def find(papers_dir, paper):
    """The experiment files of a paper, sorted by name."""
    return sorted(glob.glob(os.path.join(papers_dir, paper, "*.json")))


def restrict(e, names):
    """Keep only the benchmarks `names` (from the full or the quick list) in
    both lists of experiment e, so that a mode runs a chosen subset (e.g.
    the cheapest benchmarks of an experiment too slow to run whole)."""
    known = e["benchmarks"] + [b for b in e["quick_benchmarks"] if b not in e["benchmarks"]]
    unknown = [b for b in names if b not in known]
    if unknown:
        raise ExperimentError(f"{e['name']}: no benchmark {', '.join(unknown)} "
                              f"(it has {', '.join(known)})")
    e["benchmarks"] = e["quick_benchmarks"] = [b for b in known if b in names]


def bench_list(e, quick):
    return list(e["quick_benchmarks"] if quick else e["benchmarks"])


def scenario_files(e, quick):
    """[(scenario key, benchmark, path)] for every run the experiment needs."""
    out = []
    for key, pat in sorted(e["scenarios"].items()):
        for b in bench_list(e, quick):
            out.append((key, b, os.path.join(e["dir"], pat.format(bench=b))))
    return out


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def pick(rows, where, path="results"):
    """The first CSV row whose columns equal `where` (values as strings;
    keys starting with '@' select the scenario and are skipped here)."""
    for r in rows:
        if all(str(r.get(k)) == str(v) for k, v in where.items() if not k.startswith("@")):
            return r
    raise ExperimentError(f"{path}: no point with {where}")


def _members(e, spec, benches):
    if spec in (None, "all"):
        return list(benches)
    names = e["groups"][spec] if isinstance(spec, str) else spec
    return [b for b in names if b in benches]


def _num(r, col, path):
    try:
        return float(r[col])
    except (KeyError, TypeError, ValueError):
        raise ExperimentError(f"{path}: column '{col}' missing or not a number")


def point(results, scenario, where, bench):
    """The CSV row of one point; where["@scenario"] may name another scenario
    of the experiment (to compare two kernels, which a sweep cannot)."""
    return pick(results[(where.get("@scenario", scenario), bench)], where, bench)


def ratios(e, results, scenario, base, test, benches, metric, lower_better=False):
    """{bench: metric(test) / metric(base)} over the benchmarks given, or
    base / test for a time (lower_better), so that > 1 is always a gain.
    test may be a list of points: each benchmark takes the best of them (a
    paper that reports the better of two policies per benchmark)."""
    out = {}
    for b in benches:
        y = _num(point(results, scenario, base, b), metric, b)
        rs = [y / x if lower_better else x / y
              for x in (_num(point(results, scenario, t, b), metric, b)
                        for t in (test if isinstance(test, list) else [test]))]
        out[b] = max(rs)
    return out


def evaluate_row(e, r, results, benches):
    """Fill in sim (a number) and verdict for one headline row."""
    kind = r["kind"]
    out = dict(r)
    if kind == "not_modelled":
        out["sim"] = None
        out["verdict"] = V.NOT_MODELLED
        out["note"] = "missing: " + r["missing"]
        return out
    members = _members(e, r.get("benchmarks"), benches)
    if not members:
        out["sim"], out["verdict"] = None, "not run"
        out["note"] = "no benchmark of this row in the run"
        return out
    metric = r.get("metric", e["metric"])
    mean = r.get("mean", e["mean"])
    if kind == "within" and r.get("points"):
        # a rate compared in percentage points: mean of (test - base) x 100
        sim = V.mean("arithmetic", [
            (_num(point(results, r["scenario"], r["test"], b), metric, b)
             - _num(point(results, r["scenario"], r["base"], b), metric, b)) * 100.0
            for b in members])
        out["verdict"] = V.within(r.get("bound", r["paper"]), sim)
    elif kind in ("speedup", "within", "sign"):
        rs = ratios(e, results, r["scenario"], r["base"], r["test"], members, metric,
                    r.get("lower_better", False))
        sim = (V.mean(mean, rs.values()) - 1.0) * 100.0
        if kind == "speedup":
            out["verdict"] = V.change(r["paper"], sim, r.get("tolerance"))
        elif kind == "within":
            out["verdict"] = V.within(r.get("bound", r["paper"]), sim)
        else:
            out["verdict"] = V.sign(r["paper"], sim)
    elif kind == "best":
        curve = sweep_curve(e, r, results, members)
        sim = max(curve, key=lambda vm: vm[1])[0]
        out["verdict"] = V.best(r["paper"], sim)
        out["curve"] = curve
    else:  # value
        scale = r.get("scale", 1.0)
        xs = []
        for b in members:
            pt = point(results, r["scenario"], r.get("where", {}), b)
            per = _num(pt, r["per"], b) if "per" in r else 1.0
            xs.append(_num(pt, metric, b) / per * scale)
        sim = V.mean(mean, xs)
        out["verdict"] = V.value(r["paper"], sim)
    out["sim"] = sim
    out.setdefault("note", "")
    out["members"] = members
    return out


def sweep_curve(e, r, results, members):
    """[(value, mean ratio over base)] along r['over'] at r['where'];
    over a list of columns (a joint sweep) each value is named "a/b"."""
    metric = r.get("metric", e["metric"])
    joint = isinstance(r["over"], list)
    curve = []
    for v in r["values"]:
        test = dict(r.get("where", {}))
        if joint:
            test.update(zip(r["over"], v))
            v = "/".join(str(x) for x in v)
        else:
            test[r["over"]] = v
        rs = ratios(e, results, r["scenario"], r["base"], test, members, metric)
        curve.append((v, V.mean(r.get("mean", e["mean"]), rs.values())))
    return curve


def raw_table(e, t, results, benches):
    """A table of levels at one point (t['where'], or a column's own where,
    e.g. one scheduler per column): each column is a metric (c['metric'],
    else the table's, times c.get('scale', 1)), not normalised; arithmetic
    mean."""
    cols = t["columns"]
    group_of = {b: g for g, bs in e["groups"].items() for b in bs}
    header = ["benchmark", "group"] + [c["label"] for c in cols]
    rows, vals = [], [[] for _ in cols]
    for b in benches:
        cells = [b, group_of.get(b, "")]
        for i, c in enumerate(cols):
            pt = point(results, t["scenario"], c.get("where", t.get("where", {})), b)
            x = _num(pt, c.get("metric", t.get("metric")), b) * c.get("scale", 1.0)
            vals[i].append(x)
            cells.append(f"{x:.3f}")
        rows.append(cells)
    rows.append(["arithmetic mean", ""] +
                [f"{V.mean('arithmetic', v):.3f}" if v else "-" for v in vals])
    return header, rows, vals


def bench_table(e, t, results, benches):
    """(header, rows) of one per-benchmark table, plus its mean row."""
    if t.get("raw"):
        return raw_table(e, t, results, benches)
    metric = t.get("metric", e["metric"])
    cols = t["columns"]
    group_of = {b: g for g, bs in e["groups"].items() for b in bs}
    header = ["benchmark", "group", f"{cols[0]['label']} {metric}"] + \
             [c["label"] for c in cols[1:]]
    rows, norm = [], [[] for _ in cols[1:]]
    for b in benches:
        base = _num(point(results, t["scenario"], cols[0]["where"], b), metric, b)
        cells = [b, group_of.get(b, ""), f"{base:.3f}"]
        for i, c in enumerate(cols[1:]):
            x = _num(point(results, t["scenario"], c["where"], b), metric, b) / base
            norm[i].append(x)
            cells.append(f"{x:.3f}")
        rows.append(cells)
    rows.append([f"{e['mean']} mean", "", ""] +
                [f"{V.mean(e['mean'], n):.3f}" if n else "-" for n in norm])
    return header, rows, norm
