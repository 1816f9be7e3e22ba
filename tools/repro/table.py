"""Markdown tables, so that a run's output pastes into docs/reproductions.md."""


def fmt(x, unit=""):
    """A number as the tables print it: None -> '-', % with a sign."""
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    if unit == "%":
        return f"{x:+.1f}%"
    if unit == "pct":          # a level in percent (idle cycles, hit rate)
        return f"{x:.1f}%"
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.3f}"


def render(header, rows):
    """A Markdown table: header is a list of strings, rows lists of cells."""
    cells = [[str(c) for c in header]] + [[str(c) for c in r] for r in rows]
    for r in cells:
        if len(r) != len(header):
            raise ValueError(f"row {r} has {len(r)} cells, header {len(header)}")
    w = [max(len(r[i]) for r in cells) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(c.ljust(w[i]) for i, c in enumerate(r)) + " |"
    out = [line(cells[0]), "|" + "|".join("-" * (x + 2) for x in w) + "|"]
    out += [line(r) for r in cells[1:]]
    return "\n".join(out)


def headline(rows):
    """The headline table: one row per paper figure.
    rows: dicts with name, source, paper, sim, unit, verdict, note."""
    body = []
    for r in rows:
        paper = r.get("paper_text") or (r["paper"] if isinstance(r["paper"], str)
                                         else fmt(r["paper"], r.get("unit", "")))
        body.append([r["name"], r.get("source", ""), paper,
                     fmt(r.get("sim"), r.get("unit", "")), r["verdict"], r.get("note", "")])
    return render(["row", "paper", "paper's number", "simtgrid", "verdict", "note"], body)
