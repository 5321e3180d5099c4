"""Validity against the exact worst-case engine (dpbounds.exact.worst_case): filters' interactions are (eps_g, delta_g)-DP
exactly, under fixed sequences and under adaptive adversaries; odometers are crossed with probability <= delta.
And a deliberately broken bound (the square-root term halved) is caught by the same checks."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy as sp

from dpbounds import spec
from dpbounds.exact import adversaries as adv
from dpbounds.accounting.accountants import Decision, make_filter
from dpbounds.outputs.compare import rounds_allowed
from dpbounds.evaluation.evaluate import Inputs, decide
from dpbounds.exact.worst_case import (adaptive_delta, always_continue, crossing_probability, crossing_probability_mc, delta_rr, filter_from_spec, odometer_lower_bound_fn)

EPS_G, DELTA = "1", "0.001"
# (filter id, budget, the total delta it guarantees)
FILTERS = [
    ("rruv16.thm5_1", {"eps_g": EPS_G, "delta_g": DELTA}, Fraction(DELTA)),
    ("wrrw23.thm2", {"eps_g": EPS_G, "delta_prime": DELTA, "delta_dprime": "0"}, Fraction(DELTA)),
    ("fz21.thm4_7.bs16", {"eps_g": EPS_G, "delta_g": DELTA}, Fraction(DELTA)),
    ("rruv16.thm3_4.filter", {"eps_g": EPS_G}, Fraction(0)),
]


def _rounds(fid, budget, eps):
    return rounds_allowed(fid, budget, eps, max_rounds=5000)


@pytest.mark.parametrize("fid,budget,dtot", FILTERS, ids=[f[0] for f in FILTERS])
@pytest.mark.parametrize("eps", ["0.02", "0.1", "0.3"])
def test_filter_continuing_through_fixed_sequence_is_exactly_private(fid, budget, dtot, eps):
    k = _rounds(fid, budget, eps)
    if k == 0:
        pytest.skip("the filter allows no round")
    exact = delta_rr([eps] * k, EPS_G)
    assert exact.hi <= dtot, f"{fid}: {k} rounds of {eps} give exact delta {float(exact.hi):.3g} > {float(dtot)}"


def test_cks20_based_filter_is_exactly_private_on_fixed_sequences():
    for eps in ("0.02", "0.1", "0.3"):
        f = make_filter("wrrw23.thm1.cks20", eps_g=EPS_G, delta_prime=DELTA, delta_dprime="0")
        k = 0
        while f.try_spend(eps):
            k += 1
        assert delta_rr([eps] * k, EPS_G).hi <= Fraction(DELTA)


ADVERSARIES = {
    "greedy": lambda: adv.greedy("0.1", "0.3", "0.2", 14),
    "random": lambda: adv.random_policy(["0.05", "0.2", "0.4"], 12, seed=3),
    "algorithm4": lambda: adv.rruv_algorithm4("0.2", "0.5", 100, DELTA, 16),
}


@pytest.mark.parametrize("fid,budget,dtot", FILTERS[:3], ids=[f[0] for f in FILTERS[:3]])
@pytest.mark.parametrize("name", sorted(ADVERSARIES))
def test_filter_under_adaptive_adversary_is_exactly_private(fid, budget, dtot, name):
    filt = filter_from_spec(fid, **budget)
    r = adaptive_delta(ADVERSARIES[name](), filt, EPS_G, max_rounds=20)
    assert r.hi <= dtot, f"{fid} vs {name}: exact delta {float(r.hi):.4g} > {float(dtot)}"


@pytest.mark.parametrize("eps,k,eps_g", [("0.1", 1, "0.05"), ("0.3", 7, "0.5"), ("0.01", 300, "0.2"), ("1", 12, "3")])
def test_exact_engine_matches_the_spec_kov15_formula(eps, k, eps_g):
    from dpbounds.evaluation.evaluate import enclose
    a = enclose("conversions.kov15.exact", {"eps": eps, "k": str(k), "eps_g": eps_g}, rel_tol=1e-20)
    b = delta_rr([eps] * k, eps_g)
    assert a.lo <= b.hi and b.lo <= a.hi


def test_dp_agrees_with_convolution_for_non_adaptive_adversary():
    seq = ["0.1", "0.2", "0.1", "0.05", "0.2"]
    a = adaptive_delta(adv.fixed(seq), always_continue, "0.3")
    b = delta_rr(seq, "0.3")
    assert a.lo <= b.hi and b.lo <= a.hi


ODOMETERS = [
    ("wrrw23.thm3.mixture", {"gamma": 0.05, "delta_prime": 0.2, "delta_dprime": 0.01}, 0.2),
    ("wrrw23.thm3.filter", {"eps_g": 1.0, "delta_prime": 0.2, "delta_dprime": 0.01}, 0.2),
    ("wrrw23.thm3.stitched", {"v0": 0.05, "delta_prime": 0.2, "delta_dprime": 0.01}, 0.2),
    ("rruv16.lemma6_4", {"x": 0.05, "delta_g": 0.3}, 0.3),
]


@pytest.mark.parametrize("oid,params,delta", ODOMETERS, ids=[o[0] for o in ODOMETERS])
@pytest.mark.tier("slow")
def test_odometer_crossing_probability_is_at_most_delta(oid, params, delta):
    eps, N = 0.1, 1500
    bound = odometer_lower_bound_fn(oid, params, eps)
    p = crossing_probability(bound, eps, N)
    assert p <= delta, f"{oid}: crossed with probability {p:.4f} > {delta}"


def test_crossing_dp_agrees_with_monte_carlo_and_grows_with_n():
    eps = 0.1
    bound = lambda n: 0.9 * math.sqrt(n) * eps + n * eps * eps / 2  # noqa: E731 - an aggressive (invalid) curve
    p100, p400 = crossing_probability(bound, eps, 100), crossing_probability(bound, eps, 400)
    assert p100 <= p400
    est, lo, hi = crossing_probability_mc(bound, eps, 400, paths=4000, seed=1)
    assert lo - 1e-9 <= p400 <= hi + 1e-9


# ---------------------------------------------------------------------------------------- a deliberately broken bound


def _broken_wrrw23_filter(eps_g: str, delta_prime: str):
    """WRRW23 Thm 2 with its square-root term halved (built from the spec expression, then corrupted)."""
    e = spec.get("wrrw23.thm2")
    V = spec.sym("V")
    sqrt_term = [a for a in e.expr.args if a != V / 2][0]  # sqrt(2 log(1/delta') V)
    broken = e.expr - sqrt_term / 2
    bad = spec.SpecEntry(id="broken.thm2", title="broken", kind=e.kind, source=e.source, params=e.params,
                         aggregates=e.aggregates, expr=broken, halt=sp.Or(broken > spec.sym("eps_g")))
    params = {"eps_g": Fraction(eps_g), "delta_prime": Fraction(delta_prime), "delta_dprime": Fraction(0)}

    def rounds(eps: str) -> int:
        k = 0
        while not decide(bad, Inputs(params, {"V": (Fraction(eps)**2 * (k + 1),) * 2, "D": (Fraction(0),) * 2})):
            k += 1
            if k > 100000:
                break
        return k
    return rounds


def test_validity_check_catches_a_filter_with_its_sqrt_term_halved():
    rounds = _broken_wrrw23_filter(EPS_G, DELTA)
    violations = []
    for eps in ("0.02", "0.1"):
        k = rounds(eps)
        exact = delta_rr([eps] * k, EPS_G)
        if exact.lo > Fraction(DELTA):
            violations.append((eps, k, float(exact.lo)))
    assert violations, "the broken filter was not caught"


def test_crossing_check_catches_an_odometer_with_its_sqrt_term_halved():
    eps, params = 0.1, {"gamma": 0.05, "delta_prime": 0.2, "delta_dprime": 0.01}
    good = odometer_lower_bound_fn("wrrw23.thm3.mixture", params, eps)

    def broken(n):  # mean term V/2 kept, concentration term halved
        return (good(n) - n * eps * eps / 2) / 2 + n * eps * eps / 2

    assert crossing_probability(broken, eps, 1500) > 0.2
