"""The golden streams' float contract (docs/tutorials/golden.md): every per-round cost is a float64's exact
decimal, and a filter is judged directionally -- continuing where the record halts fails, halting where it continues
is conservative.  So a CORRECT float implementation passes every stream file and one that allows an extra round
fails every one.

Over every filter stream file: dpbounds' own filter fed the records' costs as floats (a correct implementation of
each rule) passes, and the same filter allowed one extra round fails.  Over the sum-rule files (the basic
composition of RRUV16 Thm 3.4 and its zCDP twin FZ21 Remark 4.4): an independent float64 filter whose running sum is
rounded up (TwoSum) passes, and its extra-round variant fails.  (Before the float contract, the printed consumer's
equality check failed a correct float filter on 12 of 21 rruv16.thm3_4.filter streams: 50 x float(0.02) > 1.)
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from fractions import Fraction

import pytest

from dpbounds import spec
from dpbounds.outputs.golden import write_golden
from dpbounds.outputs.golden_load import load_golden
from dpbounds.spec import Kind

#: the sum rules: CONT while the float sum of this cost is <= this budget parameter
SUM_RULES = {"rruv16.thm3_4.filter": ("eps", "eps_g"), "fz21.remark4_4": ("rho", "B")}


def add_up(s: float, e: float) -> float:
    t = s + e
    bb = t - s
    err = (s - (t - bb)) + (e - bb)
    return math.nextafter(t, math.inf) if err > 0 else t


class FloatSumFilter:
    """A correct float64 basic-composition filter: running sum rounded up, budget rounded down."""

    def __init__(self, budget: str, cost: str, extra_round: bool = False) -> None:
        b = Fraction(budget)
        self.budget = float(b) if Fraction(float(b)) <= b else math.nextafter(float(b), 0.0)
        self.cost, self.spent, self.halted, self.extra = cost, 0.0, False, extra_round

    def try_spend(self, **costs: float) -> bool:
        if self.halted:
            return False
        t = add_up(self.spent, costs[self.cost])
        if (self.spent if self.extra else t) > self.budget:  # the extra-round variant checks before adding
            self.halted = True
            return False
        self.spent = t
        return True


class ExtraRound:
    """Wraps a filter: after its first HALT, one more round is allowed."""

    def __init__(self, inner) -> None:
        self.inner, self.spare = inner, True

    def try_spend(self, **costs: float) -> bool:
        if self.inner.try_spend(**costs):
            return True
        if self.spare:
            self.spare = False
            return True
        return False


@pytest.fixture(scope="module")
def stream_files(tmp_path_factory):
    ids = [e.id for e in spec.registry().values() if e.kind is Kind.FILTER and e.aggregates and e.halt is not None]
    d = tmp_path_factory.mktemp("golden") / "vectors"
    write_golden(d, bounds=ids, grid="sample", digits=20, conversions=False)
    files = {}
    for p in sorted((d / "streams").glob("*.jsonl")):
        recs = [r for r in load_golden(p) if r["kind"] == "filter_stream"]
        if recs:
            files[p.stem] = recs
    assert set(SUM_RULES) <= set(files)
    return files


def _streams(recs):
    out = defaultdict(list)
    for r in recs:
        out[(json.dumps(r["budget"], sort_keys=True), r["stream"])].append(r)
    return {k: sorted(v, key=lambda r: r["round"]) for k, v in out.items()}


def _run(make, recs) -> tuple[int, int]:
    """(failures, conservative rounds) of the filters make(budget) over every stream of one file."""
    fails = cons = 0
    for (budget, _), rounds in _streams(recs).items():
        f = make(json.loads(budget))
        for rec in rounds:
            costs = {c: float(rec[c]) for c in ("eps", "delta", "rho") if rec[c] is not None}
            assert all(Fraction(float(rec[c])) == Fraction(rec[c]) for c in costs)  # float64-exact costs
            my_halt = not f.try_spend(**costs)
            if rec["halt"] and not my_halt:
                fails += 1
                break
            if my_halt:
                cons += not rec["halt"]
                break
    return fails, cons


def _own(entry_id, budget, extra=False):
    from dpbounds.accounting.accountants import make_filter
    f = make_filter(entry_id, **budget)

    class Adapter:
        def try_spend(self, **costs):
            if set(costs) == {"delta"}:  # kov15.lift's files exercise its delta rule: rounds (0, delta_i)
                costs["eps"] = 0.0
            return bool(f.try_spend(**costs))
    return ExtraRound(Adapter()) if extra else Adapter()


@pytest.mark.tier("slow")
def test_every_stream_file_passes_a_correct_float_filter_and_fails_an_extra_round(stream_files):
    for entry_id, recs in stream_files.items():
        fails, _ = _run(lambda b: _own(entry_id, b), recs)
        assert fails == 0, entry_id
        fails, _ = _run(lambda b: _own(entry_id, b, extra=True), recs)
        halting = sum(rounds[-1]["halt"] for rounds in _streams(recs).values())
        assert halting > 0 and fails == halting, entry_id  # every stream that ends at a HALT catches it


def test_basic_composition_float_filter_passes_every_sum_rule_file(stream_files):
    for entry_id, (cost, param) in SUM_RULES.items():
        recs = stream_files[entry_id]
        fails, cons = _run(lambda b: FloatSumFilter(b[param], cost), recs)
        assert fails == 0, entry_id
        fails, _ = _run(lambda b: FloatSumFilter(b[param], cost, extra_round=True), recs)
        assert fails > 0, entry_id  # (where rounding up halted it early, the extra round may stay inside)
