"""The verdict rule of the paper reproductions, and the means the papers use.

A row compares the paper's number with simtgrid's:
- change rows (a gain or loss in %): `match` when simtgrid goes the same way
  and lies within a third of the paper's magnitude (+17% matches +11.3% ..
  +22.7%, bounds included); `direction only` when it goes the same way but
  further off; `differs` when it goes the other way or does not move. A
  paper figure of "about none" is written as 0 with a tolerance: `match`
  within it, `differs` outside.
- within rows (a bound, "within 1.7%"): `match` when |simtgrid| <= bound.
- best rows (which setting of a sweep wins): `match` when the same.
- value rows (a level, "95% idle"): `match` within a third, else `differs`.
- sign rows (the paper says only "gains" or "loses"): `match` when simtgrid
  moves the same way ("+" or "-"), `differs` otherwise.
"""
import math

MATCH, DIRECTION, DIFFERS, NOT_MODELLED = "match", "direction only", "differs", "not modelled"

# Relative slack on the one-third bound so that +11.3333...% against +17%
# counts as inside despite binary rounding.
_EPS = 1e-9


def _within_third(paper, sim):
    return abs(sim - paper) <= abs(paper) / 3.0 * (1 + _EPS) + 1e-12


def change(paper, sim, tolerance=None):
    """Verdict of a relative change (both in %)."""
    if tolerance is not None and paper == 0:
        return MATCH if abs(sim) <= tolerance * (1 + _EPS) else DIFFERS
    if paper == 0 or sim == 0 or (paper > 0) != (sim > 0):
        return DIFFERS
    return MATCH if _within_third(paper, sim) else DIRECTION


def within(bound, sim):
    return MATCH if abs(sim) <= bound * (1 + _EPS) else DIFFERS


def best(paper, sim):
    # sweep values come from CSVs as text; the paper's may be a number
    return MATCH if str(paper) == str(sim) else DIFFERS


def sign(paper, sim):
    if paper not in ("+", "-"):
        raise ValueError(f"a sign row's paper value is '+' or '-', not '{paper}'")
    return MATCH if (sim > 0 and paper == "+") or (sim < 0 and paper == "-") else DIFFERS


def value(paper, sim):
    return MATCH if _within_third(paper, sim) else DIFFERS


def mean(kind, xs):
    """Mean of positive ratios: 'geometric', 'harmonic' or 'arithmetic'."""
    xs = list(xs)
    if not xs:
        raise ValueError("mean of nothing")
    if kind == "geometric":
        return math.exp(sum(math.log(x) for x in xs) / len(xs))
    if kind == "harmonic":
        return len(xs) / sum(1.0 / x for x in xs)
    if kind == "arithmetic":
        return sum(xs) / len(xs)
    raise ValueError(f"unknown mean '{kind}'")
