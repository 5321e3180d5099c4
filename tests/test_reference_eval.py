"""Laws of the evaluators: certified enclosures contain the exact value; precision independence; the fast path
brackets the certified enclosure; no shared precision state between threads."""

from __future__ import annotations

import math
import threading
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dpbounds import spec
from dpbounds.evaluation import evaluate as ev
from dpbounds.evaluation.interp import NotCertified
from dpbounds.spec.core import Kind

from .strategies import entry_points

CLOSED_FORM = [e for e in spec.registry().values()
               if e.kind is not Kind.AGGREGATE and e.optimize is None and e.expr.is_Boolean is not True
               and not e.evaluator]
IDS = [e.id for e in CLOSED_FORM]


def _params_and_aggs(entry, pt):
    params = {k: v for k, v in pt.items() if k in entry.params}
    aggs = {k: v for k, v in pt.items() if k in entry.aggregates}
    return params, aggs


@pytest.mark.parametrize("entry", CLOSED_FORM, ids=IDS)
@pytest.mark.tier("properties")
def test_enclosure_contains_higher_precision_value_precision_independence(entry):
    params, aggs = _params_and_aggs(entry, entry.sample_point())
    try:
        r30 = ev.evaluate(entry.id, params, aggregates=aggs, digits=30)
        r100 = ev.evaluate(entry.id, params, aggregates=aggs, digits=100)
    except spec.DomainError:
        pytest.skip("sample point outside the domain (covered by test_registry)")
    if r30.infinite:
        assert r100.infinite
        return
    lo30, hi30 = (Fraction(x) for x in r30.enclosure)
    v100 = Fraction(r100.value)
    assert lo30 <= v100 <= hi30, (entry.id, r30.enclosure, r100.value)
    # the two values agree to 30 significant digits
    assert abs(Fraction(r30.value) - v100) <= abs(v100) * Fraction(1, 10**29) + Fraction(1, 10**300)
    assert r30.lower <= float(v100) <= r30.upper


@pytest.mark.parametrize("entry", CLOSED_FORM, ids=IDS)
@pytest.mark.tier("properties")
def test_mpmath_value_agrees_with_certified_enclosure(entry):
    params, aggs = _params_and_aggs(entry, entry.sample_point())
    try:
        enc = ev.enclose(entry.id, params, aggregates=aggs, rel_tol=1e-45)
    except spec.DomainError:
        pytest.skip("sample point outside the domain")
    v = ev.value_mp(entry.id, params, aggregates=aggs, digits=50)
    if enc.pos_inf:
        assert v == "inf"
        return
    q = Fraction(v)
    tol = max(abs(q), Fraction(1, 10**200)) * Fraction(1, 10**40)
    assert enc.lo - tol <= q <= enc.hi + tol, (entry.id, v, float(enc.lo), float(enc.hi))


@pytest.mark.parametrize("entry", CLOSED_FORM, ids=IDS)
@settings(max_examples=15)
@given(data=st.data())
@pytest.mark.tier("properties")
def test_fast_path_brackets_certified_enclosure(entry, data):
    pt = data.draw(entry_points(entry))
    params, aggs = _params_and_aggs(entry, pt)
    try:
        entry.check_values({k: v for k, v in params.items()})
    except spec.DomainError:
        assume(False)
    try:
        enc = ev.enclose(entry.id, params, aggregates=aggs, rel_tol=1e-30)
    except (ev.CertificationError, NotCertified):
        assume(False)
    lo, hi = ev.fast_interval(entry.id, **pt)
    lo, hi = float(lo), float(hi)
    if enc.pos_inf:
        assert hi == math.inf
        return
    assert hi >= enc.upper() or hi == math.inf, (entry.id, pt, hi, enc.upper())
    assert lo <= enc.lower() or lo == -math.inf, (entry.id, pt, lo, enc.lower())
    m = max(abs(enc.upper()), abs(enc.lower()))
    if 1e-290 < m < 1e290 and math.isfinite(hi) and math.isfinite(lo):
        assert hi - lo <= 1e-12 * m + 1e-300, f"{entry.id}: fast path too loose at {pt}: [{lo}, {hi}]"


def test_fast_path_vectorizes_and_rejects_nan():
    V = np.linspace(0, 10, 1001)
    hi = ev.fast_upper("rruv16.thm5_1", eps_g=1.0, delta_g=1e-6, A=V / 2, V=V)
    assert hi.shape == (1001,) and np.all(np.diff(hi) >= 0)
    with pytest.raises(spec.DomainError, match="delta_g"):
        ev.fast_upper("rruv16.thm5_1", eps_g=1.0, delta_g=np.array([1e-6, np.nan]), A=0.1, V=0.2)
    with pytest.raises(spec.DomainError, match="delta_g"):
        ev.fast_upper("rruv16.thm5_1", eps_g=1.0, delta_g=np.array([1e-6, 0.5]), A=0.1, V=0.2)


@pytest.mark.tier("slow")
def test_long_float_stream_enclosure_contains_exact_rational_sum():
    rng = np.random.default_rng(1)
    eps = rng.uniform(0.001, 0.01, size=100_000)
    enc_fast = ev.enclose("rruv16.lemma6_4", {"x": "0.01", "delta_g": "1e-6"}, eps=eps, rel_tol=1e-12)
    # independent of the fast path: the same floats as a Python list are summed exactly (rationals / arb)
    enc_exact = ev.enclose("rruv16.lemma6_4", {"x": "0.01", "delta_g": "1e-6"}, eps=[float(e) for e in eps],
                           rel_tol=1e-40)
    assert enc_fast.lo <= enc_exact.lo and enc_exact.hi <= enc_fast.hi
    assert enc_fast.rel_width() < 1e-13


def test_concurrent_evaluation_with_different_precisions_equals_sequential():
    jobs = [("rruv16.thm5_1", {"eps_g": "1", "delta_g": "1e-6"}, {"A": "0.3", "V": "0.5"}, d)
            for d in (15, 30, 50, 80, 15, 30, 50, 80)]
    sequential = [ev.evaluate(i, p, aggregates=a, digits=d).as_dict() for i, p, a, d in jobs]
    results = [None] * len(jobs)

    def work(j):
        for _ in range(5):
            i, p, a, d = jobs[j]
            results[j] = ev.evaluate(i, p, aggregates=a, digits=d).as_dict()

    threads = [threading.Thread(target=work, args=(j,)) for j in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == sequential


@pytest.mark.parametrize("eps_i", ["1000", "700", "1e-300", "0"])
def test_extreme_per_round_eps_gives_finite_or_inf_never_nan(eps_i):
    r = ev.evaluate("rruv16.thm5_1", {"eps_g": "1", "delta_g": "1e-300"}, eps=[eps_i, "0.5"], digits=20)
    assert r.infinite or (math.isfinite(r.upper) or r.upper == math.inf)
    assert not math.isnan(r.upper) and not math.isnan(r.lower)
    assert r.lower <= r.upper


def test_eps_zero_with_positive_delta_makes_lift_infinite():
    r = ev.evaluate("rruv16.lemma3_3.filter.thm5_1", {"eps_g": "1", "delta_g": "1e-6", "delta_dprime": "1e-6"},
                    eps=["0", "0.1"], delta=["1e-9", "0"])
    inp = ev.prepare(spec.get("rruv16.lemma3_3.filter.thm5_1"),
                     {"eps_g": "1", "delta_g": "1e-6", "delta_dprime": "1e-6"}, eps=["0", "0.1"], delta=["1e-9", "0"])
    assert ev.decide(spec.get("rruv16.lemma3_3.filter.thm5_1"), inp) is True  # HALT
    assert not r.infinite  # the statistic itself is finite; the LIFT sum is what makes it halt


def test_pure_dp_bound_rejects_approximate_rounds():
    with pytest.raises(spec.DomainError, match="delta\\[0\\]"):
        ev.evaluate("rruv16.thm5_1", {"eps_g": "1", "delta_g": "1e-6"}, eps=["0.1"], delta=["1e-9"])


@pytest.mark.parametrize("bad", [dict(eps=[]), dict(eps=["0.1", "0.2"], delta=["0"]), dict(eps=["nan"]),
                                 dict(eps=["-0.1"]), dict(eps=["0.1"], delta=["1"])])
def test_bad_sequences_raise_domain_error(bad):
    with pytest.raises(spec.DomainError):
        ev.evaluate("rruv16.lemma3_3.filter.thm5_1", {"eps_g": "1", "delta_g": "1e-6", "delta_dprime": "1e-6"}, **bad)
