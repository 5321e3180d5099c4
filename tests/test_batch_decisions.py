"""Batched filter decisions (dpbounds.accounting.batch): the same decisions and the same recorded aggregates as
try_spend called round by round, for every filter of the registry, on homogeneous, random and tie streams; exact
integer sums checked against Fraction arithmetic; HALT monotonicity proved where the spec does not declare it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.accounting.accountants import make_filter
from dpbounds.accounting.registry import filter_specs
from dpbounds.accounting.batch import exact_power_sum, halt_monotone
from dpbounds.evaluation.interp import POS_INF
from dpbounds.spec import DomainError
from dpbounds.spec.core import Kind, SpecEntry, Source, sym

#: per filter of the filter registry with a test budget: (budget, its per-round values, a typical round size); the
#: others name the tests that cover them (FilterSpec.tested_by: their own per-round quantities, or slow budgets)
FILTERS = {fid: (dict(fs.test_budget), fs.rounds, fs.test_size) for fid, fs in filter_specs().items()
           if fs.test_budget is not None}


def test_every_registry_filter_is_covered():
    ids = {e.id for e in spec.registry().values() if e.kind is Kind.FILTER}
    specs = filter_specs()
    assert ids <= set(specs), f"spec filters without a FilterSpec: {sorted(ids - set(specs))}"
    root = Path(__file__).resolve().parent.parent
    for fid in ids - set(FILTERS):
        test_file = specs[fid].tested_by.split()[0]
        assert (root / test_file).is_file() and fid in (root / test_file).read_text(), (fid, test_file)
    assert len(FILTERS) >= 16


def _stream(kind: str, size: float, n: int, rng, homogeneous: bool):
    x = np.full(n, size) if homogeneous else rng.uniform(0, 2 * size, n)
    d = np.full(n, 1e-10) if homogeneous else rng.choice([0.0, 1e-10, 3e-9], n)
    out = {}
    if kind.startswith("eps"):
        out["eps"] = x
    else:
        out["rho"] = x
    if kind.endswith("delta"):
        out["delta"] = d
    return out


def _sequential(f, vals: dict) -> int:
    n = len(next(iter(vals.values())))
    for i in range(n):
        kw = {k: float(v[i]) for k, v in vals.items()}
        if f.try_spend(kw.get("eps"), kw.get("delta", 0), kw.get("rho")).name != "CONT":
            return i
    return n


def _same_aggregates(a: dict, b: dict) -> None:
    for k in a:
        x, y = a[k], b[k]
        if x is POS_INF or y is POS_INF:
            assert x is y, k
        elif x[0] == x[1]:
            assert x == y, k  # exact sums: identical
        else:  # arb balls: both enclose the same exact sum
            assert x[0] <= y[1] and y[0] <= x[1], k


@pytest.mark.parametrize("fid", sorted(FILTERS))
@pytest.mark.parametrize("homogeneous", [True, False], ids=["homogeneous", "random"])
def test_batch_decides_as_try_spend_round_by_round(fid, homogeneous):
    budget, kind, size = FILTERS[fid]
    rng = np.random.default_rng(7)
    vals = _stream(kind, size, 3000, rng, homogeneous)
    f, g = make_filter(fid, **budget), make_filter(fid, **budget)
    k = f.try_spend_many(**vals)
    assert k == _sequential(g, vals)
    assert 0 < k < 3000  # the stream crosses the boundary: the certified per-round rule decided the HALT
    assert f.rounds == g.rounds == k and f.halted and g.halted
    _same_aggregates(f.aggregates(), g.aggregates())
    assert f.try_spend_many(**{n: v[:5] for n, v in vals.items()}) == 0  # a filter that halted keeps halting


@pytest.mark.parametrize("fid", ["rruv16.thm3_4.filter", "fz21.remark4_4", "wrrw23.thm1.cks20"])
def test_batch_in_pieces_equals_one_call(fid):
    budget, kind, size = FILTERS[fid]
    vals = _stream(kind, size, 2000, np.random.default_rng(3), False)
    f, g = make_filter(fid, **budget), make_filter(fid, **budget)
    k1 = f.try_spend_many(**vals)
    k2 = 0
    for a in range(0, 2000, 137):
        got = g.try_spend_many(**{n: v[a:a + 137] for n, v in vals.items()})
        k2 += got
        if got < 137:
            break
    assert k1 == k2 and f.aggregates() == g.aggregates()


def test_exact_ties_are_decided_exactly():
    """B = 1 and rho = 1/4 per round: R = 1 after 4 rounds is not > B (CONT), the 5th round is HALT."""
    f = make_filter("fz21.remark4_4", B="1")
    assert f.try_spend_many(rho=np.full(10, 0.25)) == 4
    g = make_filter("rruv16.thm3_4.filter", eps_g="1")
    assert g.try_spend_many(eps=np.full(1000, 2.0 ** -7)) == 128  # S = 128 / 128 = 1 exactly, not > 1


def test_tiny_terms_never_round_to_zero():
    """eps = 1e-200: eps^2 underflows in float64, but each V term still counts (the exact sum is positive)."""
    f = make_filter("fz21.thm4_7.bs16", eps_g="1", delta_g="1e-6")
    assert f.try_spend_many(eps=np.full(1000, 1e-200)) == 1000
    v = f.aggregates()["V"][0]
    assert v == 1000 * Fraction(1e-200) ** 2 and v > 0


@settings(max_examples=30)
@given(st.lists(st.one_of(st.floats(0, 1e300), st.floats(0, 1e-300), st.sampled_from([0.0, 5e-324, 2.0**-1022])),
                min_size=0, max_size=60), st.sampled_from([1, 2]))
def test_exact_power_sum_equals_fraction_sum(xs, p):
    n, k = exact_power_sum(np.array(xs, dtype=np.float64), p)
    assert Fraction(n, 2**k) == sum((Fraction(x) ** p for x in xs), Fraction(0))


def test_exact_power_sum_many_elements_in_one_exponent():
    """The float64 bin sums stay exact for a full chunk of identical maximal mantissas."""
    x = np.full(70000, np.nextafter(2.0, 0))
    for p in (1, 2):
        n, k = exact_power_sum(x, p)
        assert Fraction(n, 2**k) == 70000 * Fraction(float(x[0])) ** p


def test_halt_monotone_is_proved_not_assumed():
    for e in spec.registry().values():
        if e.kind is Kind.FILTER:
            assert halt_monotone(e), e.id
    V, B = sym("V"), sym("B")
    bad = SpecEntry(id="test.nonmonotone", title="t", kind=Kind.FILTER, source=Source("RRUV16", "Theorem 0 (a test entry)"), params=("B",),
                    aggregates=("V",), expr=V, halt=sp.Or(1 / (1 + V) > B), domain=(B > 0,), monotone={})
    assert not halt_monotone(bad)


def test_bad_values_raise_before_recording():
    f = make_filter("rruv16.thm3_4.filter", eps_g="1")
    with pytest.raises(DomainError, match=r"eps\[2\]"):
        f.try_spend_many(eps=np.array([0.1, 0.1, np.nan]))
    with pytest.raises(DomainError, match=r"delta\[1\]"):
        f.try_spend_many(eps=np.array([0.1, 0.1]), delta=np.array([0.0, 1e-9]))  # pure-DP filter
    assert f.rounds == 0


@pytest.mark.parametrize("fid,budget", [("fz21.thm4_3.rr", {"alpha": "8", "eps_g": "10", "delta_g": "1e-6"}),
                                        ("lec21.multi_order", {"alpha": "8", "eps_g": "10", "delta_g": "1e-6",
                                                               "k": "4"})])
def test_rr_renyi_filters_take_eps_streams_round_by_round_with_the_same_decisions(fid, budget):
    """Pure eps rounds charged the certified RR Renyi curve: try_spend_many(eps=...) raised KeyError('rho');
    it now gives try_spend's decisions round by round, and refuses a bad value before recording any round."""
    x = np.random.default_rng(7).uniform(0.01, 0.2, 400)
    f, g = make_filter(fid, **budget), make_filter(fid, **budget)
    k = f.try_spend_many(eps=x)
    k2 = next((i for i, v in enumerate(x) if g.try_spend(float(v)).name != "CONT"), len(x))
    assert 0 < k == k2 < len(x) and f.rounds == g.rounds == k
    h = make_filter(fid, **budget)
    with pytest.raises(DomainError, match=r"eps\[2\]"):
        h.try_spend_many(eps=[0.1, 0.1, float("nan")])
    with pytest.raises(DomainError, match=r"delta\[0\]"):
        h.try_spend_many(eps=[0.1], delta=[1e-9])
    assert h.rounds == 0
